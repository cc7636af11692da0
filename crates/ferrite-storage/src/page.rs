//! The 4 KiB page and the header every page set page carries.
//!
//! Every page starts with the 32-byte common page header (format version
//! [`PAGE_FORMAT_VERSION`], little-endian), laid out by [`PAGE_HEADER_LAYOUT`] and described
//! field by field in `docs/formats.md` ("The 4 KiB page"). The checksum is CRC-32C of bytes
//! 4..4096, set when the page is written ([`PageBytes::seal`]) and checked when it is read
//! ([`PageBytes::verify`]), together with the magic, the version, the page type, the page
//! number (catches misdirected writes) and the page set id. The 10 type-specific bytes belong
//! to the module that owns the page type.
//!
//! A page of all zero bytes is a page that was never written (a freshly formatted or expanded
//! region); it is valid and reads as [`PageType::Unformatted`].

use crate::layout::{layout_bytes, Encoding, Field};
use crate::types::{PageNumber, PageSetId, Rba};

pub const PAGE_SIZE: usize = 4096;
pub const PAGE_HEADER_SIZE: usize = 32;
pub const PAGE_MAGIC: [u8; 2] = *b"FP";
pub const PAGE_FORMAT_VERSION: u8 = 1;
/// Bit of the flags field: the page holds non-persistent data only (never written at
/// checkpoint or shutdown).
pub const PAGE_FLAG_NONPERSISTENT: u8 = 0x01;

/// Fields of the common page header (see `docs/formats.md`).
pub mod header {
    use super::{Encoding, Field};

    /// CRC-32C of bytes 4..4096 (0 on a never-written page).
    pub const CHECKSUM: Field = Field::new("checksum", 0, 4, Encoding::U32Le);
    /// [`super::PAGE_MAGIC`].
    pub const MAGIC: Field = Field::new("magic", 4, 2, Encoding::Bytes);
    /// [`super::PageType`].
    pub const PAGE_TYPE: Field = Field::new("page type", 6, 1, Encoding::U8);
    /// [`super::PAGE_FORMAT_VERSION`].
    pub const FORMAT_VERSION: Field = Field::new("format version", 7, 1, Encoding::U8);
    /// RBA of the last logged change applied to the page (0 if none).
    pub const PAGE_RBA: Field = Field::new("page RBA", 8, 8, Encoding::U64Le);
    /// The page's own number.
    pub const PAGE_NUMBER: Field = Field::new("page number", 16, 4, Encoding::U32Le);
    /// The page set's own number.
    pub const PAGE_SET_ID: Field = Field::new("page set id", 20, 1, Encoding::U8);
    /// Bit 0: [`super::PAGE_FLAG_NONPERSISTENT`].
    pub const FLAGS: Field = Field::new("flags", 21, 1, Encoding::U8);
    /// Owned by the module of the page type.
    pub const TYPE_SPECIFIC: Field = Field::new("type-specific", 22, 10, Encoding::Bytes);
}

/// The common page header, field by field in offset order.
pub const PAGE_HEADER_LAYOUT: [Field; 9] = [
    header::CHECKSUM,
    header::MAGIC,
    header::PAGE_TYPE,
    header::FORMAT_VERSION,
    header::PAGE_RBA,
    header::PAGE_NUMBER,
    header::PAGE_SET_ID,
    header::FLAGS,
    header::TYPE_SPECIFIC,
];
const _: () = assert!(layout_bytes(&PAGE_HEADER_LAYOUT) == PAGE_HEADER_SIZE);

/// The bytes of one page, aligned for direct I/O.
#[derive(Clone)]
#[repr(C, align(4096))]
pub struct PageBytes(pub [u8; PAGE_SIZE]);

impl PageBytes {
    pub fn zeroed() -> Box<PageBytes> {
        Box::new(PageBytes([0u8; PAGE_SIZE]))
    }
}

impl Default for PageBytes {
    fn default() -> Self {
        PageBytes([0u8; PAGE_SIZE])
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PageType {
    /// Never written: all zeros.
    Unformatted = 0,
    /// Page 0 of a page set (see `page_set`).
    PageSetHeader = 1,
    /// Allocation bitmap (see `data_manager::space_map`).
    SpaceMap = 2,
    /// Holds message or object records in slots (see `data_manager::data_page`).
    Data = 3,
    /// Holds the continuation of a record that did not fit in its first page.
    Continuation = 4,
}

impl PageType {
    pub fn from_u8(value: u8) -> Option<PageType> {
        Some(match value {
            0 => PageType::Unformatted,
            1 => PageType::PageSetHeader,
            2 => PageType::SpaceMap,
            3 => PageType::Data,
            4 => PageType::Continuation,
            _ => return None,
        })
    }
}

/// Why a page failed verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageDefect {
    Checksum { stored: u32, computed: u32 },
    Magic,
    Version(u8),
    PageType(u8),
    WrongPageNumber { expected: u32, found: u32 },
    WrongPageSet { expected: u8, found: u8 },
}

impl std::fmt::Display for PageDefect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PageDefect::Checksum { stored, computed } => {
                write!(
                    f,
                    "checksum {stored:08X} does not match contents {computed:08X}"
                )
            }
            PageDefect::Magic => write!(f, "not a Ferrite page (bad magic)"),
            PageDefect::Version(v) => write!(f, "unknown page format version {v}"),
            PageDefect::PageType(t) => write!(f, "unknown page type {t}"),
            PageDefect::WrongPageNumber { expected, found } => {
                write!(
                    f,
                    "page claims to be page {found}, expected {expected} (misdirected write)"
                )
            }
            PageDefect::WrongPageSet { expected, found } => {
                write!(f, "page claims page set {found}, expected {expected}")
            }
        }
    }
}

impl PageBytes {
    pub fn is_all_zero(&self) -> bool {
        self.0.iter().all(|&b| b == 0)
    }

    pub fn page_type(&self) -> Option<PageType> {
        PageType::from_u8(self.0[header::PAGE_TYPE.offset])
    }

    pub fn page_rba(&self) -> Rba {
        Rba(header::PAGE_RBA.get(&self.0))
    }

    pub fn set_page_rba(&mut self, rba: Rba) {
        header::PAGE_RBA.put(&mut self.0, rba.0);
    }

    pub fn flags(&self) -> u8 {
        self.0[header::FLAGS.offset]
    }

    pub fn set_flags(&mut self, flags: u8) {
        self.0[header::FLAGS.offset] = flags;
    }

    pub fn page_number(&self) -> PageNumber {
        PageNumber(header::PAGE_NUMBER.get(&self.0) as u32)
    }

    /// Write a fresh header: the page becomes a page of `page_type` with page RBA 0, every
    /// byte after the header zero.
    pub fn format(&mut self, page_type: PageType, page_set: PageSetId, page: PageNumber) {
        self.format_header(page_type, page_set, page);
        self.0[PAGE_HEADER_SIZE..].fill(0);
    }

    /// Write a fresh header only (page RBA 0, flags 0), leaving the bytes after it as they
    /// are: for a caller that writes every one of them itself
    /// (`data_page::format_continuation`: a long message's pages are each written once, not
    /// zeroed first and then overwritten).
    pub fn format_header(&mut self, page_type: PageType, page_set: PageSetId, page: PageNumber) {
        self.0[..PAGE_HEADER_SIZE].fill(0);
        self.0[header::MAGIC.range()].copy_from_slice(&PAGE_MAGIC);
        self.0[header::PAGE_TYPE.offset] = page_type as u8;
        self.0[header::FORMAT_VERSION.offset] = PAGE_FORMAT_VERSION;
        header::PAGE_NUMBER.put(&mut self.0, u64::from(page.0));
        self.0[header::PAGE_SET_ID.offset] = page_set.0;
    }

    /// Set the checksum. Called on the copy that goes to disk, just before the write.
    pub fn seal(&mut self) {
        let covered = header::CHECKSUM.end();
        if self.0[covered..].iter().all(|&b| b == 0) {
            self.0[header::CHECKSUM.range()].fill(0);
            return;
        }
        let checksum = crc32c::crc32c(&self.0[covered..]);
        header::CHECKSUM.put(&mut self.0, u64::from(checksum));
    }

    /// Check a page just read from disk. An all-zero page is valid (never written).
    pub fn verify(&self, page_set: PageSetId, page: PageNumber) -> Result<(), PageDefect> {
        if self.is_all_zero() {
            return Ok(());
        }
        let stored = header::CHECKSUM.get(&self.0) as u32;
        let computed = crc32c::crc32c(&self.0[header::CHECKSUM.end()..]);
        if stored != computed {
            return Err(PageDefect::Checksum { stored, computed });
        }
        if self.0[header::MAGIC.range()] != PAGE_MAGIC {
            return Err(PageDefect::Magic);
        }
        let version = self.0[header::FORMAT_VERSION.offset];
        if version != PAGE_FORMAT_VERSION {
            return Err(PageDefect::Version(version));
        }
        let page_type = self.0[header::PAGE_TYPE.offset];
        if PageType::from_u8(page_type).is_none() {
            return Err(PageDefect::PageType(page_type));
        }
        let found = header::PAGE_NUMBER.get(&self.0) as u32;
        if found != page.0 {
            return Err(PageDefect::WrongPageNumber {
                expected: page.0,
                found,
            });
        }
        let found_page_set = self.0[header::PAGE_SET_ID.offset];
        if found_page_set != page_set.0 {
            return Err(PageDefect::WrongPageSet {
                expected: page_set.0,
                found: found_page_set,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_page_verifies_and_any_bit_flip_is_caught() {
        let mut page = PageBytes::zeroed();
        page.format(PageType::Data, PageSetId(3), PageNumber(77));
        page.set_page_rba(Rba(0x1234));
        page.0[100] = 42;
        page.seal();
        assert_eq!(page.verify(PageSetId(3), PageNumber(77)), Ok(()));
        for bit in [0usize, 37, 8 * 100, 8 * 4095 + 7] {
            let mut damaged = page.clone();
            damaged.0[bit / 8] ^= 1 << (bit % 8);
            assert!(
                damaged.verify(PageSetId(3), PageNumber(77)).is_err(),
                "bit {bit}"
            );
        }
        assert!(matches!(
            page.verify(PageSetId(3), PageNumber(78)),
            Err(PageDefect::WrongPageNumber { .. })
        ));
    }

    #[test]
    fn zero_page_is_unformatted_and_valid() {
        let page = PageBytes::zeroed();
        assert_eq!(page.verify(PageSetId(0), PageNumber(5)), Ok(()));
        assert_eq!(page.page_type(), Some(PageType::Unformatted));
    }
}
