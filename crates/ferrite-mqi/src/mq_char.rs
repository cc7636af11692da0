//! MQ's fixed-length character fields (`MQCHAR12`, `MQCHAR48`, ...) held inline.
//!
//! An [`MqChar<N>`] holds at most `N` bytes of UTF-8 text in place: no allocation, so an MQPUT
//! that fills in the context fields of the caller's MQMD (UserIdentifier, PutApplName,
//! PutDate, PutTime) and an MQGET that returns a whole MQMD allocate nothing for them. As in
//! the structures' other text (see `structures.rs`), the text is kept without MQ's trailing
//! blank padding by the MQI's own code; a caller's blanks are kept as given.
//!
//! `N` is MQ's length of the field in bytes. A text longer than that cannot be held, as it
//! cannot in MQ's C structures: [`MqChar::new`] refuses it (the MQI maps that to
//! MQRC_MD_ERROR where the text comes from a caller), and the `From` conversions keep the
//! longest prefix that fits, cut at a character boundary (for text already known to fit, or
//! where MQ would cut it too).

use std::fmt;

/// A text field of at most `N` bytes, held inline (see the module's comment).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MqChar<const N: usize> {
    /// Invariant: `bytes[..length]` is UTF-8, `length <= N`, and the rest is zero.
    bytes: [u8; N],
    length: u8,
}

/// A text longer than its MQCHAR field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextTooLong {
    /// The text's length in bytes.
    pub length: usize,
    /// The field's length in bytes.
    pub field_length: usize,
}

impl fmt::Display for TextTooLong {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{} bytes of text do not fit a {}-byte MQCHAR field",
            self.length, self.field_length
        )
    }
}

impl std::error::Error for TextTooLong {}

impl<const N: usize> MqChar<N> {
    // Lengths are kept in a byte: MQ's longest MQMD text field is 48.
    const FITS_A_BYTE: () = assert!(N <= u8::MAX as usize);

    /// The empty (blank) field.
    pub const EMPTY: MqChar<N> = {
        #[allow(clippy::let_unit_value)]
        let () = Self::FITS_A_BYTE;
        MqChar {
            bytes: [0; N],
            length: 0,
        }
    };

    /// `text`, if it fits the field.
    pub fn new(text: &str) -> Result<MqChar<N>, TextTooLong> {
        if text.len() > N {
            return Err(TextTooLong {
                length: text.len(),
                field_length: N,
            });
        }
        let mut field = Self::EMPTY;
        field.bytes[..text.len()].copy_from_slice(text.as_bytes());
        field.length = text.len() as u8;
        Ok(field)
    }

    /// The longest prefix of `text` that fits, cut at a character boundary.
    pub fn truncating(text: &str) -> MqChar<N> {
        let mut end = text.len().min(N);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Self::new(&text[..end]).expect("a prefix of at most N bytes fits")
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.length)])
            .expect("an MqChar holds UTF-8 (its invariant)")
    }

    /// The text's bytes, without checking them again (the hot paths encode these).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.length)]
    }

    /// The text's bytes without MQ's trailing blank padding.
    pub fn trimmed_bytes(&self) -> &[u8] {
        let bytes = self.as_bytes();
        let end = bytes
            .iter()
            .rposition(|&byte| byte != b' ')
            .map_or(0, |last| last + 1);
        &bytes[..end]
    }

    /// `bytes` if they are ASCII and fit the field (PutDate and PutTime digits): no UTF-8
    /// decoding needed.
    pub fn from_ascii(bytes: &[u8]) -> Option<MqChar<N>> {
        if bytes.len() > N || !bytes.is_ascii() {
            return None;
        }
        let mut field = Self::EMPTY;
        field.bytes[..bytes.len()].copy_from_slice(bytes);
        field.length = bytes.len() as u8;
        Some(field)
    }

    /// Blank the field.
    pub fn clear(&mut self) {
        *self = Self::EMPTY;
    }

    /// The field's length in bytes (MQ's `N`).
    pub const fn field_length(&self) -> usize {
        N
    }
}

impl<const N: usize> Default for MqChar<N> {
    fn default() -> MqChar<N> {
        Self::EMPTY
    }
}

impl<const N: usize> std::ops::Deref for MqChar<N> {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> AsRef<str> for MqChar<N> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> fmt::Debug for MqChar<N> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), formatter)
    }
}

impl<const N: usize> fmt::Display for MqChar<N> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

impl<const N: usize> From<&str> for MqChar<N> {
    fn from(text: &str) -> MqChar<N> {
        Self::truncating(text)
    }
}

impl<const N: usize> From<&String> for MqChar<N> {
    fn from(text: &String) -> MqChar<N> {
        Self::truncating(text)
    }
}

impl<const N: usize> From<String> for MqChar<N> {
    fn from(text: String) -> MqChar<N> {
        Self::truncating(&text)
    }
}

impl<const N: usize> From<MqChar<N>> for String {
    fn from(field: MqChar<N>) -> String {
        field.as_str().to_string()
    }
}

impl<const N: usize> PartialEq<str> for MqChar<N> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<const N: usize> PartialEq<&str> for MqChar<N> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl<const N: usize> PartialEq<String> for MqChar<N> {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl<const N: usize> PartialEq<MqChar<N>> for str {
    fn eq(&self, other: &MqChar<N>) -> bool {
        self == other.as_str()
    }
}

impl<const N: usize> PartialEq<MqChar<N>> for &str {
    fn eq(&self, other: &MqChar<N>) -> bool {
        *self == other.as_str()
    }
}

impl<const N: usize> PartialEq<MqChar<N>> for String {
    fn eq(&self, other: &MqChar<N>) -> bool {
        self == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_that_fits_is_held_exactly_and_a_longer_one_is_refused() {
        let field = MqChar::<12>::new("mqm").unwrap();
        assert_eq!(field, "mqm");
        assert_eq!(field.len(), 3);
        assert_eq!(MqChar::<12>::new("ABCDEFGHIJKL").unwrap(), "ABCDEFGHIJKL");
        assert_eq!(
            MqChar::<12>::new("ABCDEFGHIJKLM"),
            Err(TextTooLong {
                length: 13,
                field_length: 12
            })
        );
        // Blanks given are kept; the empty field is MQ's blank field.
        assert_eq!(MqChar::<8>::new("A  ").unwrap(), "A  ");
        assert!(MqChar::<8>::default().is_empty());
        assert_eq!(MqChar::<48>::EMPTY, MqChar::<48>::new("").unwrap());
    }

    #[test]
    fn bytes_come_as_held_and_trimmed_of_blanks_only_at_the_end() {
        let field = MqChar::<12>::from(" A B  ");
        assert_eq!(field.as_bytes(), b" A B  ");
        assert_eq!(field.trimmed_bytes(), b" A B");
        assert_eq!(MqChar::<12>::from("    ").trimmed_bytes(), b"");
        assert_eq!(MqChar::<12>::EMPTY.trimmed_bytes(), b"");
        assert_eq!(
            MqChar::<8>::from_ascii(b"20261122"),
            Some(MqChar::from("20261122"))
        );
        assert_eq!(
            MqChar::<8>::from_ascii(b"202611220"),
            None,
            "longer than the field"
        );
        assert_eq!(MqChar::<8>::from_ascii(&[0xc3, 0xa9]), None, "not ASCII");
    }

    #[test]
    fn truncation_keeps_whole_characters() {
        assert_eq!(MqChar::<4>::from("ABCDEF"), "ABCD");
        // "é" is two bytes: a cut inside it keeps the characters before it.
        assert_eq!(MqChar::<4>::from("ABCé"), "ABC");
        assert_eq!(MqChar::<5>::from("ABCé"), "ABCé");
        assert_eq!(MqChar::<4>::from(String::from("éé")), "éé");
        assert_eq!(MqChar::<3>::from("éé"), "é");
    }

    #[test]
    fn a_field_compares_and_clears_as_its_text() {
        let mut field = MqChar::<28>::from("amqsput");
        assert_eq!(field, "amqsput");
        assert_eq!("amqsput", field);
        assert_eq!("amqsput".to_string(), field);
        assert_eq!(String::from(field), "amqsput".to_string());
        assert_eq!(format!("{field}/{field:?}"), "amqsput/\"amqsput\"");
        assert_ne!(field, MqChar::<28>::from("amqsget"));
        field.clear();
        assert_eq!(field, "");
        assert_eq!(field.field_length(), 28);
    }
}
