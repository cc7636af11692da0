//! The data of a message a get or browse returns, without copying it out of its image.
//!
//! A non-persistent message held in memory (`data_manager/memory.rs`) keeps its image in one
//! shared buffer: the queue entry's, then, after a get in a unit of work, the unit's (for a
//! backout). The getter reads the data straight from that image ([`MessageData::Shared`])
//! and copies it once, into the application's buffer, instead of into a new `Vec` first.
//! Holding the image keeps its buffer from being recycled: the buffer serves another message
//! only after the last of the entry, the unit of work and this data is dropped.

use ferrite_storage::data_manager::memory::HeldImage;

/// A got or browsed message's data: its own bytes, or a range of a shared in-memory image.
#[derive(Clone)]
pub enum MessageData {
    /// Bytes of its own (an image moved out of the queue, or a copy).
    Owned(Vec<u8>),
    /// A message image read from its pages, the data from `offset` to its end: the
    /// descriptor before it is left in place, not cut off by moving every data byte down.
    Read { image: Vec<u8>, offset: usize },
    /// The data of an in-memory image, from `offset` to the image's end.
    Shared { image: HeldImage, offset: usize },
}

impl MessageData {
    /// The data of `image` from `offset` on; `offset` must lie within it.
    pub fn shared(image: HeldImage, offset: usize) -> MessageData {
        assert!(
            offset <= image.bytes().len(),
            "a message's data starts inside its image"
        );
        MessageData::Shared { image, offset }
    }

    /// The data of `image`, read from pages, from `offset` on; `offset` must lie within it.
    pub fn read(image: Vec<u8>, offset: usize) -> MessageData {
        assert!(
            offset <= image.len(),
            "a message's data starts inside its image"
        );
        MessageData::Read { image, offset }
    }

    pub fn as_slice(&self) -> &[u8] {
        match self {
            MessageData::Owned(bytes) => bytes,
            MessageData::Read { image, offset } => &image[*offset..],
            MessageData::Shared { image, offset } => &image.bytes()[*offset..],
        }
    }

    /// The bytes as a `Vec` of their own (a copy when the image is shared).
    pub fn into_vec(self) -> Vec<u8> {
        match self {
            MessageData::Owned(bytes) => bytes,
            MessageData::Read { mut image, offset } => {
                image.drain(..offset);
                image
            }
            MessageData::Shared { image, offset } => image.bytes()[offset..].to_vec(),
        }
    }
}

impl Default for MessageData {
    fn default() -> Self {
        MessageData::Owned(Vec::new())
    }
}

impl From<Vec<u8>> for MessageData {
    fn from(bytes: Vec<u8>) -> Self {
        MessageData::Owned(bytes)
    }
}

impl std::ops::Deref for MessageData {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsRef<[u8]> for MessageData {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl std::fmt::Debug for MessageData {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(formatter)
    }
}

/// Data compares by its bytes, wherever they are held.
impl PartialEq for MessageData {
    fn eq(&self, other: &MessageData) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MessageData {}

impl PartialEq<[u8]> for MessageData {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<&[u8]> for MessageData {
    fn eq(&self, other: &&[u8]) -> bool {
        self.as_slice() == *other
    }
}

impl PartialEq<Vec<u8>> for MessageData {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<const N: usize> PartialEq<[u8; N]> for MessageData {
    fn eq(&self, other: &[u8; N]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for MessageData {
    fn eq(&self, other: &&[u8; N]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_storage::data_manager::memory::MemoryAccount;

    #[test]
    fn shared_data_is_the_image_after_the_offset_and_compares_by_bytes() {
        let account = MemoryAccount::with_limit(1 << 20);
        let image = account.try_hold(b"headdata".to_vec()).unwrap();
        let shared = MessageData::shared(image.clone(), 4);
        assert_eq!(shared, b"data");
        assert_eq!(shared, MessageData::from(b"data".to_vec()));
        assert_eq!(shared.len(), 4);
        assert_eq!(shared.clone().into_vec(), b"data".to_vec());
        // The data holds the image: dropping every other holder leaves it readable.
        drop(image);
        assert_eq!(&*shared, b"data");
        assert!(account.held_bytes() > 0, "the image is still held");
        drop(shared);
        assert_eq!(account.held_bytes(), 0);
    }

    #[test]
    #[should_panic(expected = "inside its image")]
    fn an_offset_past_the_image_is_refused() {
        let account = MemoryAccount::with_limit(1 << 20);
        let image = account.try_hold(b"abc".to_vec()).unwrap();
        let _ = MessageData::shared(image, 4);
    }
}
