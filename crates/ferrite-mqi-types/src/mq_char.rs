//! MQ's fixed-length character fields (`MQCHAR12`, `MQCHAR48`, ...) held inline.
//!
//! An [`MqChar<N>`] holds at most `N` bytes of UTF-8 text in place: no allocation, so an MQPUT
//! that fills in the context fields of the caller's MQMD (UserIdentifier, PutApplName,
//! PutDate, PutTime) and an MQGET that returns a whole MQMD allocate nothing for them. As in
//! the structures' other text (see `structures.rs`), the text is kept without MQ's trailing
//! blank padding by the MQI's own code; a caller's blanks are kept as given.
//!
//! `N` is MQ's length of the field in bytes. A text longer than that cannot be held, as it
//! cannot in MQ's C structures, and is never cut silently where an application gave it:
//! - [`MqChar::new`] refuses it ([`TextTooLong`]); the wire path (`md_from_wire` in
//!   ferrite-protocol's `wire`) builds the fields with it from the wire's fixed-length bytes,
//!   which always fit, and refuses bytes that are not UTF-8 with MQRC_MD_ERROR rather than
//!   replacing them.
//! - The `From` conversions (how a Rust application fills in an MQMD: `"REPLY.Q".into()`)
//!   keep the longest prefix that fits, cut at a character boundary, and mark the field as
//!   cut ([`MqChar::is_cut`]): MQPUT and MQPUT1 refuse an MQMD with a cut field with
//!   MQRC_MD_ERROR, as they refused the over-long text before the fields were fixed-length
//!   (a cut ReplyToQ could name another, existing queue), and so does the client library
//!   before it sends one.
//! - [`MqChar::truncating`] and [`MqChar::last_fitting`] cut without marking, for the
//!   queue manager's own text where MQ cuts too (a user ID to 12 bytes, a program's name to
//!   its last 28 bytes for PutApplName).

use std::fmt;

/// A text field of at most `N` bytes, held inline (see the module's comment).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MqChar<const N: usize> {
    /// Invariant: `bytes[..length]` is UTF-8, `length <= N`, and the rest is zero.
    bytes: [u8; N],
    length: u8,
    /// A longer text was given through `From` and cut to fit: MQPUT refuses the field.
    cut: bool,
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
            cut: false,
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

    /// The longest prefix of `text` that fits, cut at a character boundary, not marked as
    /// cut: for the queue manager's own text where MQ cuts it too.
    pub fn truncating(text: &str) -> MqChar<N> {
        let mut end = text.len().min(N);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Self::new(&text[..end]).expect("a prefix of at most N bytes fits")
    }

    /// The longest suffix of `text` that fits, cut at a character boundary, not marked as
    /// cut: MQ keeps the last 28 bytes of a program's name as PutApplName.
    pub fn last_fitting(text: &str) -> MqChar<N> {
        let mut start = text.len().saturating_sub(N);
        while !text.is_char_boundary(start) {
            start += 1;
        }
        Self::new(&text[start..]).expect("a suffix of at most N bytes fits")
    }

    /// `text`, or, when it is longer than the field, its longest prefix that fits marked as
    /// cut (the `From` conversions: see the module's comment).
    fn from_application(text: &str) -> MqChar<N> {
        match Self::new(text) {
            Ok(field) => field,
            Err(_) => MqChar {
                cut: true,
                ..Self::truncating(text)
            },
        }
    }

    /// Whether a longer text was given for this field and cut to fit it (through `From`):
    /// MQPUT and MQPUT1 refuse such a field with MQRC_MD_ERROR.
    pub fn is_cut(&self) -> bool {
        self.cut
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

    /// `bytes` without trailing blanks and NULs (MQ's padding), if they are UTF-8 (they fit:
    /// at most `N`). `None` for other bytes, which the field cannot hold as they are.
    pub fn from_padded_bytes(bytes: &[u8; N]) -> Option<MqChar<N>> {
        let text = std::str::from_utf8(unpadded(bytes)).ok()?;
        Some(Self::new(text).expect("at most N bytes fit"))
    }

    /// `bytes` without MQ's padding, each byte that is not part of UTF-8 text replaced by
    /// `?` (one byte for one, so the text still fits and nothing is cut): for fields that
    /// are output only (an MQGET's request, which the get overwrites) or that a queue manager
    /// filled in, where refusing the call would lose what it did.
    pub fn from_padded_bytes_substituting(bytes: &[u8; N]) -> MqChar<N> {
        let mut field = Self::EMPTY;
        let mut length = 0;
        for chunk in unpadded(bytes).utf8_chunks() {
            let valid = chunk.valid().as_bytes();
            field.bytes[length..length + valid.len()].copy_from_slice(valid);
            length += valid.len();
            for _ in chunk.invalid() {
                field.bytes[length] = b'?';
                length += 1;
            }
        }
        field.length = length as u8;
        field
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

/// `bytes` without trailing blanks and NULs.
fn unpadded(bytes: &[u8]) -> &[u8] {
    let end = bytes
        .iter()
        .rposition(|&byte| byte != b' ' && byte != 0)
        .map_or(0, |last| last + 1);
    &bytes[..end]
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
        Self::from_application(text)
    }
}

impl<const N: usize> From<&String> for MqChar<N> {
    fn from(text: &String) -> MqChar<N> {
        Self::from_application(text)
    }
}

impl<const N: usize> From<String> for MqChar<N> {
    fn from(text: String) -> MqChar<N> {
        Self::from_application(&text)
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
        assert_eq!(MqChar::<4>::truncating("ABCDEF"), "ABCD");
        // "é" is two bytes: a cut inside it keeps the characters before it.
        assert_eq!(MqChar::<4>::truncating("ABCé"), "ABC");
        assert_eq!(MqChar::<5>::truncating("ABCé"), "ABCé");
        assert_eq!(MqChar::<4>::truncating("éé"), "éé");
        assert_eq!(MqChar::<3>::truncating("éé"), "é");
        assert!(
            !MqChar::<3>::truncating("ABCDEF").is_cut(),
            "an intended cut"
        );
    }

    #[test]
    fn from_marks_a_text_it_had_to_cut_and_only_that() {
        let fits = MqChar::<4>::from("ABCD");
        assert!(!fits.is_cut());
        assert_eq!(fits, MqChar::<4>::new("ABCD").unwrap());
        for cut in [
            MqChar::<4>::from("ABCDE"),
            MqChar::<4>::from(&String::from("ABCDE")),
            MqChar::<4>::from(String::from("ABCDE")),
        ] {
            assert!(cut.is_cut());
            assert_eq!(cut, "ABCD", "its text is the prefix that fits");
            assert_ne!(cut, fits, "but it is not the field that fits");
        }
        assert!(MqChar::<3>::from("ABé").is_cut());
        assert_eq!(MqChar::<3>::from("ABé"), "AB");
    }

    #[test]
    fn last_fitting_keeps_the_end_at_a_character_boundary() {
        assert_eq!(MqChar::<4>::last_fitting("ABCDEF"), "CDEF");
        assert_eq!(MqChar::<4>::last_fitting("AB"), "AB");
        // "é" is two bytes: a cut inside it keeps the characters after it.
        assert_eq!(MqChar::<4>::last_fitting("éABC"), "ABC");
        assert_eq!(MqChar::<5>::last_fitting("XéABC"), "éABC");
        assert!(!MqChar::<4>::last_fitting("ABCDEF").is_cut());
    }

    #[test]
    fn padded_bytes_are_kept_as_they_are_when_utf8_and_refused_otherwise() {
        assert_eq!(
            MqChar::<8>::from_padded_bytes(b"mqm     "),
            Some(MqChar::new("mqm").unwrap())
        );
        assert_eq!(
            MqChar::<8>::from_padded_bytes(b" A\0B \0\0 "),
            Some(MqChar::new(" A\0B").unwrap()),
            "only trailing blanks and NULs are padding"
        );
        assert_eq!(
            MqChar::<4>::from_padded_bytes(&[0xc3, 0xa9, 0xc3, 0xa9]),
            Some(MqChar::new("éé").unwrap()),
            "a full field of UTF-8"
        );
        assert_eq!(
            MqChar::<4>::from_padded_bytes(&[b'J', b'O', b'S', 0xe9]),
            None,
            "Latin-1's é is not UTF-8, and U+FFFD would not fit"
        );
        assert_eq!(MqChar::<4>::from_padded_bytes(b"    "), Some(MqChar::EMPTY));
        // Substituting: one '?' per byte that is not UTF-8, never longer, never cut.
        assert_eq!(
            MqChar::<4>::from_padded_bytes_substituting(&[b'J', b'O', b'S', 0xe9]),
            "JOS?"
        );
        assert_eq!(
            MqChar::<6>::from_padded_bytes_substituting(&[0xff, 0xc3, 0xa9, 0xe9, b' ', 0]),
            "?é?"
        );
        assert_eq!(
            MqChar::<8>::from_padded_bytes_substituting(b"mqm     "),
            "mqm"
        );
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
