//! Field tables of Ferrite's fixed-layout on-disk structures.
//!
//! Each structure's module declares one [`Field`] constant per field and a table of them (for
//! example [`crate::page::PAGE_HEADER_LAYOUT`]); its encoder and decoder address the bytes
//! through those constants, so the table is the layout the code writes. `docs/formats.md`
//! describes every table field by field, and `tests/formats_doc.rs` checks the document against
//! the tables (names, offsets, sizes, types), the magic numbers and the versions.

use std::ops::Range;

/// How a field's bytes are interpreted. All integers on disk are little-endian.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Encoding {
    U8,
    U16Le,
    U32Le,
    U64Le,
    /// Uninterpreted bytes: a magic number, an eye-catcher, reserved space, a nested header.
    Bytes,
}

impl Encoding {
    /// The name `docs/formats.md` uses in its Type column.
    pub const fn doc_name(self) -> &'static str {
        match self {
            Encoding::U8 => "u8",
            Encoding::U16Le => "u16 LE",
            Encoding::U32Le => "u32 LE",
            Encoding::U64Le => "u64 LE",
            Encoding::Bytes => "bytes",
        }
    }

    /// Bytes an integer of this encoding takes (`None` for [`Encoding::Bytes`]).
    pub const fn integer_size(self) -> Option<usize> {
        match self {
            Encoding::U8 => Some(1),
            Encoding::U16Le => Some(2),
            Encoding::U32Le => Some(4),
            Encoding::U64Le => Some(8),
            Encoding::Bytes => None,
        }
    }
}

/// One field of a fixed-layout structure.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name, as `docs/formats.md` spells it.
    pub name: &'static str,
    /// Byte offset from the start of the structure.
    pub offset: usize,
    /// Bytes the field takes.
    pub size: usize,
    pub encoding: Encoding,
}

impl Field {
    /// A field; an integer field's size must match its encoding (checked at compile time when
    /// used in a `const`).
    pub const fn new(name: &'static str, offset: usize, size: usize, encoding: Encoding) -> Field {
        if let Some(integer_size) = encoding.integer_size() {
            assert!(
                size == integer_size,
                "integer field size does not match its encoding"
            );
        }
        Field {
            name,
            offset,
            size,
            encoding,
        }
    }

    /// Byte offset just past the field.
    pub const fn end(self) -> usize {
        self.offset + self.size
    }

    /// The field's bytes within the structure.
    pub const fn range(self) -> Range<usize> {
        self.offset..self.offset + self.size
    }

    /// Read an integer field from `bytes` (the structure's bytes).
    #[inline]
    pub fn get(self, bytes: &[u8]) -> u64 {
        let value = &bytes[self.range()];
        match self.encoding {
            Encoding::U8 => u64::from(value[0]),
            Encoding::U16Le => u64::from(u16::from_le_bytes(value.try_into().unwrap())),
            Encoding::U32Le => u64::from(u32::from_le_bytes(value.try_into().unwrap())),
            Encoding::U64Le => u64::from_le_bytes(value.try_into().unwrap()),
            Encoding::Bytes => panic!("field {} is not an integer", self.name),
        }
    }

    /// Write an integer field into `bytes`; the value must fit the field.
    #[inline]
    pub fn put(self, bytes: &mut [u8], value: u64) {
        let size = self.size;
        let target = &mut bytes[self.range()];
        match self.encoding {
            Encoding::Bytes => panic!("field {} is not an integer", self.name),
            _ => {
                assert!(
                    size == 8 || value >> (8 * size) == 0,
                    "value {value} does not fit field {} ({size} bytes)",
                    self.name
                );
                target.copy_from_slice(&value.to_le_bytes()[..size]);
            }
        }
    }
}

/// Bytes a layout covers: the end of its last field. Layout tables list their fields in offset
/// order with no gaps (checked by [`check_contiguous`] in every module's tests and by
/// `tests/formats_doc.rs`).
pub const fn layout_bytes(layout: &[Field]) -> usize {
    if layout.is_empty() {
        0
    } else {
        layout[layout.len() - 1].end()
    }
}

/// Whether `layout` starts at 0 and each field starts where the previous one ends.
pub fn check_contiguous(layout: &[Field]) -> Result<(), String> {
    let mut expected = 0;
    for field in layout {
        if field.offset != expected {
            return Err(format!(
                "field {} at offset {} but the previous field ends at {expected}",
                field.name, field.offset
            ));
        }
        if field.size == 0 {
            return Err(format!("field {} has size 0", field.name));
        }
        expected = field.end();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_round_trip_little_endian() {
        let field = Field::new("x", 2, 4, Encoding::U32Le);
        let mut bytes = [0u8; 8];
        field.put(&mut bytes, 0x0102_0304);
        assert_eq!(bytes, [0, 0, 4, 3, 2, 1, 0, 0]);
        assert_eq!(field.get(&bytes), 0x0102_0304);
    }

    #[test]
    fn gaps_and_overlaps_are_reported() {
        let a = Field::new("a", 0, 4, Encoding::U32Le);
        let b = Field::new("b", 4, 1, Encoding::U8);
        assert!(check_contiguous(&[a, b]).is_ok());
        assert_eq!(layout_bytes(&[a, b]), 5);
        assert!(check_contiguous(&[a, Field::new("b", 5, 1, Encoding::U8)]).is_err());
        assert!(check_contiguous(&[a, Field::new("b", 3, 1, Encoding::U8)]).is_err());
    }
}
