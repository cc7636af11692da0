//! Bounds-checked integer and fixed-field access in either byte order, shared by the header
//! codecs of this crate. Nothing here indexes past the end of its input: every read returns
//! `None` when the bytes are not there, and the caller turns that into its own error with the
//! structure's name and offset.

use ferrite_protocol::ByteOrder;

/// Reads the `MQLONG` at `offset` in `order`, or `None` if fewer than 4 bytes remain.
pub(crate) fn read_i32(buf: &[u8], offset: usize, order: ByteOrder) -> Option<i32> {
    let end = offset.checked_add(4)?;
    let bytes: [u8; 4] = buf.get(offset..end)?.try_into().ok()?;
    Some(match order {
        ByteOrder::Big => i32::from_be_bytes(bytes),
        ByteOrder::Little => i32::from_le_bytes(bytes),
    })
}

/// Appends `value` as an `MQLONG` in `order`.
pub(crate) fn put_i32(out: &mut Vec<u8>, value: i32, order: ByteOrder) {
    match order {
        ByteOrder::Big => out.extend_from_slice(&value.to_be_bytes()),
        ByteOrder::Little => out.extend_from_slice(&value.to_le_bytes()),
    }
}

/// The `N` bytes at `offset`, or `None` if they are not all there.
pub(crate) fn read_array<const N: usize>(buf: &[u8], offset: usize) -> Option<[u8; N]> {
    let end = offset.checked_add(N)?;
    buf.get(offset..end)?.try_into().ok()
}

/// Blank-pads `text` into an `N`-byte MQ character field. `None` if it is longer than `N` bytes
/// or not ASCII (MQ's names are single-byte characters of the queue-name character set).
pub(crate) fn chars<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() > N || !text.is_ascii() {
        return None;
    }
    let mut field = [b' '; N];
    field[..text.len()].copy_from_slice(text.as_bytes());
    Some(field)
}

/// An MQ character field without its trailing blanks and NULs (lossy for non-UTF-8 bytes).
pub(crate) fn trimmed(field: &[u8]) -> String {
    let end = field
        .iter()
        .rposition(|&c| c != b' ' && c != 0)
        .map_or(0, |p| p + 1);
    String::from_utf8_lossy(&field[..end]).into_owned()
}

/// The byte order that `encoding` (an `MQENC_*` value) gives integers, or `None` if its integer
/// part is undefined or unknown.
pub(crate) fn byte_order_of(encoding: i32) -> Option<ByteOrder> {
    ByteOrder::from_mq_encoding(encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_in_both_orders() {
        let mut out = Vec::new();
        put_i32(&mut out, 0x0102_0304, ByteOrder::Big);
        put_i32(&mut out, 0x0102_0304, ByteOrder::Little);
        assert_eq!(out, [1, 2, 3, 4, 4, 3, 2, 1]);
        assert_eq!(read_i32(&out, 0, ByteOrder::Big), Some(0x0102_0304));
        assert_eq!(read_i32(&out, 4, ByteOrder::Little), Some(0x0102_0304));
        assert_eq!(read_i32(&out, 5, ByteOrder::Big), None);
        assert_eq!(read_i32(&out, usize::MAX, ByteOrder::Big), None);
    }

    #[test]
    fn character_fields() {
        assert_eq!(chars::<4>("AB"), Some(*b"AB  "));
        assert_eq!(chars::<2>("ABC"), None);
        assert_eq!(chars::<4>("é"), None);
        assert_eq!(trimmed(b"AB \0 "), "AB");
        assert_eq!(trimmed(b"    "), "");
    }
}
