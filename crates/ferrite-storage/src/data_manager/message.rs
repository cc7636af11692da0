//! The stored image of a message: a compact descriptor followed by the application data.
//!
//! The storage engine needs a few descriptor fields itself (priority and persistence for
//! delivery order and recovery, the identifiers the indexes use, expiry for the expiry scan);
//! every other MQMD field is carried as an opaque `descriptor_extension` that the MQI layer
//! encodes. Fields equal to their defaults take no space, so a 1 KiB message costs little more
//! than 1 KiB of log.
//!
//! ## Image format, version 1
//! | Field | Encoding |
//! |---|---|
//! | version | u8 = 1 |
//! | flags | u8: bit 0 persistent, bit 1 correlation id present, bit 2 group id present, bit 3 message id present, bit 4 message flags or offset present |
//! | priority | u8, 0–9 |
//! | message id | 24 bytes, if flag bit 3 |
//! | correlation id | 24 bytes, if flag bit 1 |
//! | group id, sequence number in group | 24 bytes + varint, if flag bit 2 |
//! | message flags (MQMF_*), segment offset | varint + varint, if flag bit 4 (either is not zero) |
//! | expiry | varint of (expiry in tenths of a second + 1); 0 = unlimited |
//! | put time | varint, milliseconds since the Unix epoch |
//! | descriptor extension | varint length (≤ 2048) + bytes |
//! | data | the rest |

use crate::log_records::codec::{DecodeError, Decoder, Encoder};

pub const IMAGE_VERSION: u8 = 1;
pub const DESCRIPTOR_EXTENSION_BYTES_MAX: usize = 2048;
pub const IDENTIFIER_LENGTH: usize = 24;
pub type Identifier = [u8; IDENTIFIER_LENGTH];
pub const NO_IDENTIFIER: Identifier = [0u8; IDENTIFIER_LENGTH];

const FLAG_PERSISTENT: u8 = 0x01;
const FLAG_CORRELATION_ID: u8 = 0x02;
const FLAG_GROUP_ID: u8 = 0x04;
const FLAG_MESSAGE_ID: u8 = 0x08;
/// The message is in a group, a segment or may be segmented: the engine keeps MsgFlags and
/// Offset itself because its group index (restart included) needs them.
const FLAG_SEGMENTATION: u8 = 0x10;

/// The descriptor fields the storage engine understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageDescriptor {
    pub persistent: bool,
    pub priority: u8,
    pub message_id: Identifier,
    pub correlation_id: Identifier,
    pub group_id: Identifier,
    pub sequence_in_group: u32,
    /// MsgFlags (MQMF_*: in a group, last in group, segment, last segment, segmentation
    /// allowed), 0 for most messages.
    pub message_flags: u32,
    /// Offset of a segment's data in its logical message (MQMD Offset), 0 otherwise.
    pub segment_offset: u32,
    /// Expiry interval in tenths of a second from the put time; `None` is MQEI_UNLIMITED.
    pub expiry_tenths: Option<u32>,
    pub put_time_ms: u64,
    /// Every other MQMD field, encoded by the MQI layer.
    pub descriptor_extension: Vec<u8>,
}

impl Default for MessageDescriptor {
    fn default() -> Self {
        MessageDescriptor {
            persistent: false,
            priority: 0,
            message_id: NO_IDENTIFIER,
            correlation_id: NO_IDENTIFIER,
            group_id: NO_IDENTIFIER,
            sequence_in_group: 1,
            message_flags: 0,
            segment_offset: 0,
            expiry_tenths: None,
            put_time_ms: 0,
            descriptor_extension: Vec::new(),
        }
    }
}

impl MessageDescriptor {
    /// Expiry time in milliseconds since the epoch, if the message can expire.
    pub fn expires_at_ms(&self) -> Option<u64> {
        // Saturating: a damaged image may carry any put time.
        self.expiry_tenths
            .map(|tenths| self.put_time_ms.saturating_add(tenths as u64 * 100))
    }
}

/// Bytes an image takes beyond its descriptor extension and data, at most: version, flags,
/// priority, three identifiers, the group's and segment's varints, expiry, put time and the
/// extension's length.
const IMAGE_FIXED_BYTES_MAX: usize = 3 + 3 * IDENTIFIER_LENGTH + 5 * 3 + 10 * 2 + 2;

/// A record's image as the data manager logs it and writes it to pages: a head and the bytes
/// after it. A persistent put's image is its encoded descriptor ([`encode_image_head`]) and
/// the message data, never assembled in one buffer (that copy of the data was a quarter of the
/// memory copies of a 64 KiB put); any other image is one slice ([`ImageParts::whole`]).
#[derive(Clone, Copy, Debug)]
pub struct ImageParts<'a> {
    pub head: &'a [u8],
    pub data: &'a [u8],
}

impl<'a> ImageParts<'a> {
    pub fn whole(image: &'a [u8]) -> ImageParts<'a> {
        ImageParts {
            head: image,
            data: &[],
        }
    }

    pub fn len(&self) -> usize {
        self.head.len() + self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copy the image's bytes `[start, start + target.len())` into `target`.
    pub fn copy_to(&self, start: usize, target: &mut [u8]) {
        let end = start + target.len();
        assert!(
            end <= self.len(),
            "image range {start}..{end} beyond {}",
            self.len()
        );
        let from_head = self.head.len().saturating_sub(start).min(target.len());
        let (into_head, into_data) = target.split_at_mut(from_head);
        into_head.copy_from_slice(&self.head[start.min(self.head.len())..][..from_head]);
        let data_start = (start + from_head).saturating_sub(self.head.len());
        into_data.copy_from_slice(&self.data[data_start..data_start + into_data.len()]);
    }
}

/// Encode `descriptor` and `data` into one image, in a recycled buffer when one is free
/// (`memory.rs`: give it back with `recycle_image_buffer` once nothing reads it).
pub fn encode_image(descriptor: &MessageDescriptor, data: &[u8]) -> Vec<u8> {
    let mut bytes = encode_head(descriptor, data.len());
    bytes.extend_from_slice(data);
    bytes
}

/// Encode the image's head: everything [`encode_image`] puts before the data (a recycled
/// buffer too). The image is the head followed by the data ([`ImageParts`]).
pub fn encode_image_head(descriptor: &MessageDescriptor) -> Vec<u8> {
    encode_head(descriptor, 0)
}

/// The head, in a buffer with room for `data_length` bytes more.
fn encode_head(descriptor: &MessageDescriptor, data_length: usize) -> Vec<u8> {
    assert!(descriptor.priority <= 9, "priority outside 0-9");
    assert!(descriptor.descriptor_extension.len() <= DESCRIPTOR_EXTENSION_BYTES_MAX);
    let capacity = IMAGE_FIXED_BYTES_MAX + descriptor.descriptor_extension.len() + data_length;
    let mut encoder = Encoder {
        bytes: super::memory::take_image_buffer(capacity),
    };
    let mut flags = 0;
    if descriptor.persistent {
        flags |= FLAG_PERSISTENT;
    }
    if descriptor.message_id != NO_IDENTIFIER {
        flags |= FLAG_MESSAGE_ID;
    }
    if descriptor.correlation_id != NO_IDENTIFIER {
        flags |= FLAG_CORRELATION_ID;
    }
    if descriptor.group_id != NO_IDENTIFIER {
        flags |= FLAG_GROUP_ID;
    }
    if descriptor.message_flags != 0 || descriptor.segment_offset != 0 {
        flags |= FLAG_SEGMENTATION;
    }
    encoder.u8(IMAGE_VERSION).u8(flags).u8(descriptor.priority);
    if flags & FLAG_MESSAGE_ID != 0 {
        encoder.raw(&descriptor.message_id);
    }
    if flags & FLAG_CORRELATION_ID != 0 {
        encoder.raw(&descriptor.correlation_id);
    }
    if flags & FLAG_GROUP_ID != 0 {
        encoder
            .raw(&descriptor.group_id)
            .varint(descriptor.sequence_in_group as u64);
    }
    if flags & FLAG_SEGMENTATION != 0 {
        encoder
            .varint(descriptor.message_flags as u64)
            .varint(descriptor.segment_offset as u64);
    }
    encoder.varint(
        descriptor
            .expiry_tenths
            .map_or(0, |tenths| tenths as u64 + 1),
    );
    encoder.varint(descriptor.put_time_ms);
    encoder.bytes(&descriptor.descriptor_extension);
    debug_assert!(
        encoder.bytes.len() + data_length <= capacity,
        "the image fits its reservation"
    );
    encoder.bytes
}

/// Decode the descriptor at the start of an image; returns it and the offset of the data.
/// Only the descriptor part of the image is needed (it always lies in the first page).
pub fn decode_descriptor(image: &[u8]) -> Result<(MessageDescriptor, usize), DecodeError> {
    decode(image, true)
}

/// Decode the fields the engine indexes and orders by (restart's rebuild of a queue): like
/// [`decode_descriptor`] but the descriptor extension is checked and skipped, not copied.
pub fn decode_index_fields(image: &[u8]) -> Result<MessageDescriptor, DecodeError> {
    decode(image, false).map(|(descriptor, _)| descriptor)
}

fn decode(image: &[u8], with_extension: bool) -> Result<(MessageDescriptor, usize), DecodeError> {
    let mut decoder = Decoder::new(image);
    if decoder.u8()? != IMAGE_VERSION {
        return Err(DecodeError("unknown message image version"));
    }
    let flags = decoder.u8()?;
    let priority = decoder.u8()?;
    if priority > 9 {
        return Err(DecodeError("priority outside 0-9"));
    }
    let mut descriptor = MessageDescriptor {
        persistent: flags & FLAG_PERSISTENT != 0,
        priority,
        ..MessageDescriptor::default()
    };
    if flags & FLAG_MESSAGE_ID != 0 {
        descriptor
            .message_id
            .copy_from_slice(decoder.raw(IDENTIFIER_LENGTH)?);
    }
    if flags & FLAG_CORRELATION_ID != 0 {
        descriptor
            .correlation_id
            .copy_from_slice(decoder.raw(IDENTIFIER_LENGTH)?);
    }
    if flags & FLAG_GROUP_ID != 0 {
        descriptor
            .group_id
            .copy_from_slice(decoder.raw(IDENTIFIER_LENGTH)?);
        // The encoder writes a group only for a group id that is not null; a null one here
        // would come back with a sequence number the encoder cannot keep (found by fuzzing).
        if descriptor.group_id == NO_IDENTIFIER {
            return Err(DecodeError("group id flag with a null group id"));
        }
        descriptor.sequence_in_group = decoder.varint_u32()?;
    }
    if flags & FLAG_SEGMENTATION != 0 {
        descriptor.message_flags = decoder.varint_u32()?;
        descriptor.segment_offset = decoder.varint_u32()?;
        // The encoder sets the flag only when one of them is not zero.
        if descriptor.message_flags == 0 && descriptor.segment_offset == 0 {
            return Err(DecodeError("segmentation flag without flags or offset"));
        }
    }
    let expiry = decoder.varint()?;
    descriptor.expiry_tenths = if expiry == 0 {
        None
    } else {
        Some(u32::try_from(expiry - 1).map_err(|_| DecodeError("expiry too large"))?)
    };
    descriptor.put_time_ms = decoder.varint()?;
    let extension = decoder.bytes(DESCRIPTOR_EXTENSION_BYTES_MAX)?;
    if with_extension {
        descriptor.descriptor_extension = extension.to_vec();
    }
    let data_offset = image.len() - decoder.remaining();
    Ok((descriptor, data_offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_parts_copy_any_range_across_the_head_and_the_data() {
        let whole: Vec<u8> = (0..40u8).collect();
        for split in [0, 1, 17, 39, 40] {
            let parts = ImageParts {
                head: &whole[..split],
                data: &whole[split..],
            };
            assert_eq!(parts.len(), 40);
            for start in 0..=40 {
                for length in 0..=40 - start {
                    let mut target = vec![0xEE; length];
                    parts.copy_to(start, &mut target);
                    assert_eq!(
                        target,
                        whole[start..start + length],
                        "split {split} start {start}"
                    );
                }
            }
        }
    }

    #[test]
    fn an_image_is_its_head_followed_by_the_data() {
        let descriptor = MessageDescriptor {
            persistent: true,
            priority: 4,
            message_id: [7; IDENTIFIER_LENGTH],
            descriptor_extension: vec![1, 2, 3],
            ..MessageDescriptor::default()
        };
        let data = [9u8; 300];
        let mut joined = encode_image_head(&descriptor);
        joined.extend_from_slice(&data);
        assert_eq!(joined, encode_image(&descriptor, &data));
        let (decoded, offset) = decode_descriptor(&joined).unwrap();
        assert_eq!(decoded.message_id, descriptor.message_id);
        assert_eq!(&joined[offset..], &data[..]);
    }

    #[test]
    fn image_round_trip_and_compactness() {
        let descriptor = MessageDescriptor {
            persistent: true,
            priority: 4,
            message_id: [7u8; 24],
            put_time_ms: 1_700_000_000_000,
            ..MessageDescriptor::default()
        };
        let image = encode_image(&descriptor, &[1u8; 1024]);
        assert!(
            image.len() < 1024 + 40,
            "image overhead {}",
            image.len() - 1024
        );
        let (decoded, offset) = decode_descriptor(&image).unwrap();
        assert_eq!(decoded, descriptor);
        assert_eq!(&image[offset..], &[1u8; 1024][..]);
    }

    #[test]
    fn truncated_images_are_refused() {
        let descriptor = MessageDescriptor {
            correlation_id: [9u8; 24],
            group_id: [3u8; 24],
            expiry_tenths: Some(50),
            descriptor_extension: vec![5; 10],
            ..MessageDescriptor::default()
        };
        let image = encode_image(&descriptor, b"");
        for cut in 0..image.len() {
            assert!(decode_descriptor(&image[..cut]).is_err(), "cut {cut}");
        }
    }
}
