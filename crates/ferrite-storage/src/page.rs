//! The 4 KiB page and the header every page set page carries.
//!
//! ## Common page header (format version 1), 32 bytes, little-endian
//!
//! | Offset | Size | Field | Meaning |
//! |---|---|---|---|
//! | 0 | 4 | checksum | CRC-32C of bytes 4..4096, set when the page is written, checked when read |
//! | 4 | 2 | magic | `0x46 0x50` ("FP") |
//! | 6 | 1 | page type | [`PageType`] |
//! | 7 | 1 | format version | 1 |
//! | 8 | 8 | page RBA | RBA of the last logged change applied to the page (0 if none) |
//! | 16 | 4 | page number | the page's own number, checked on read (catches misdirected writes) |
//! | 20 | 1 | page set id | the page set's own number, checked on read |
//! | 21 | 1 | flags | bit 0: holds non-persistent data only (never written at checkpoint or shutdown) |
//! | 22 | 10 | type-specific | see the module that owns the page type |
//!
//! A page of all zero bytes is a page that was never written (a freshly formatted or expanded
//! region); it is valid and reads as [`PageType::Unformatted`].

use crate::types::{PageNumber, PageSetId, Rba};

pub const PAGE_SIZE: usize = 4096;
pub const PAGE_HEADER_SIZE: usize = 32;
pub const PAGE_MAGIC: [u8; 2] = *b"FP";
pub const PAGE_FORMAT_VERSION: u8 = 1;
pub const PAGE_FLAG_NONPERSISTENT: u8 = 0x01;

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

fn read_u32(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap())
}

fn read_u64(bytes: &[u8], offset: usize) -> u64 {
    u64::from_le_bytes(bytes[offset..offset + 8].try_into().unwrap())
}

impl PageBytes {
    pub fn is_all_zero(&self) -> bool {
        self.0.iter().all(|&b| b == 0)
    }

    pub fn page_type(&self) -> Option<PageType> {
        PageType::from_u8(self.0[6])
    }

    pub fn page_rba(&self) -> Rba {
        Rba(read_u64(&self.0, 8))
    }

    pub fn set_page_rba(&mut self, rba: Rba) {
        self.0[8..16].copy_from_slice(&rba.0.to_le_bytes());
    }

    pub fn flags(&self) -> u8 {
        self.0[21]
    }

    pub fn set_flags(&mut self, flags: u8) {
        self.0[21] = flags;
    }

    pub fn page_number(&self) -> PageNumber {
        PageNumber(read_u32(&self.0, 16))
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
        self.0[4..6].copy_from_slice(&PAGE_MAGIC);
        self.0[6] = page_type as u8;
        self.0[7] = PAGE_FORMAT_VERSION;
        self.0[16..20].copy_from_slice(&page.0.to_le_bytes());
        self.0[20] = page_set.0;
    }

    /// Set the checksum. Called on the copy that goes to disk, just before the write.
    pub fn seal(&mut self) {
        if self.0[4..].iter().all(|&b| b == 0) {
            self.0[0..4].fill(0);
            return;
        }
        let checksum = crc32c::crc32c(&self.0[4..]);
        self.0[0..4].copy_from_slice(&checksum.to_le_bytes());
    }

    /// Check a page just read from disk. An all-zero page is valid (never written).
    pub fn verify(&self, page_set: PageSetId, page: PageNumber) -> Result<(), PageDefect> {
        if self.is_all_zero() {
            return Ok(());
        }
        let stored = read_u32(&self.0, 0);
        let computed = crc32c::crc32c(&self.0[4..]);
        if stored != computed {
            return Err(PageDefect::Checksum { stored, computed });
        }
        if self.0[4..6] != PAGE_MAGIC {
            return Err(PageDefect::Magic);
        }
        if self.0[7] != PAGE_FORMAT_VERSION {
            return Err(PageDefect::Version(self.0[7]));
        }
        if PageType::from_u8(self.0[6]).is_none() {
            return Err(PageDefect::PageType(self.0[6]));
        }
        let found = read_u32(&self.0, 16);
        if found != page.0 {
            return Err(PageDefect::WrongPageNumber {
                expected: page.0,
                found,
            });
        }
        if self.0[20] != page_set.0 {
            return Err(PageDefect::WrongPageSet {
                expected: page_set.0,
                found: self.0[20],
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
