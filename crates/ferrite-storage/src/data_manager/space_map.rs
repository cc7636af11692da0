//! Space map pages: which pages of a page set are allocated.
//!
//! ## Space map page (page type 2), format version 1
//! Common 32-byte header, then a bitmap from offset 32 to 4096: bit `i` (byte `i / 8`, bit
//! `i % 8`) is 1 when data page `first_covered + i` is allocated. One space map page covers
//! [`PAGES_PER_SPACE_MAP`] pages; space map `k` is page `1 + k × (1 + PAGES_PER_SPACE_MAP)` and
//! covers the pages that follow it. Page 0 is the page set header.
//!
//! On disk the space map is a *superset* of the allocated pages: allocations are written (as
//! logged changes, following the write-ahead rule) before a page's contents can matter, and
//! restart verifies every page the space map marks by reading it, freeing the ones that hold no
//! live record. In memory, [`SpaceAllocator`] is exact.

use crate::page::{PAGE_HEADER_SIZE, PAGE_SIZE};

pub const PAGES_PER_SPACE_MAP: u32 = ((PAGE_SIZE - PAGE_HEADER_SIZE) * 8) as u32;
const SPACE_MAP_STRIDE: u32 = PAGES_PER_SPACE_MAP + 1;

/// True for page 0 and the space map pages.
pub fn is_reserved_page(page: u32) -> bool {
    page == 0 || (page - 1).is_multiple_of(SPACE_MAP_STRIDE)
}

/// The space map page that covers `page`, and the bit index of `page` in it.
pub fn space_map_position(page: u32) -> (u32, usize) {
    assert!(!is_reserved_page(page), "page {page} is not a data page");
    let index = (page - 1) / SPACE_MAP_STRIDE;
    let space_map_page = 1 + index * SPACE_MAP_STRIDE;
    (space_map_page, (page - space_map_page - 1) as usize)
}

/// Space map pages of a page set of `page_count` pages.
pub fn space_map_pages(page_count: u32) -> impl Iterator<Item = u32> {
    (0..)
        .map(|k| 1 + k * SPACE_MAP_STRIDE)
        .take_while(move |&page| page < page_count)
}

/// Bit operations on a space map page's bitmap.
pub fn bitmap_get(page: &[u8; PAGE_SIZE], bit: usize) -> bool {
    page[PAGE_HEADER_SIZE + bit / 8] & (1 << (bit % 8)) != 0
}

pub fn bitmap_set(page: &mut [u8; PAGE_SIZE], bit: usize, allocated: bool) {
    let byte = &mut page[PAGE_HEADER_SIZE + bit / 8];
    if allocated {
        *byte |= 1 << (bit % 8);
    } else {
        *byte &= !(1 << (bit % 8));
    }
}

/// The exact in-memory allocation state of one page set.
pub struct SpaceAllocator {
    words: Vec<u64>,
    page_count: u32,
    data_pages: u32,
    allocated_data_pages: u32,
    cursor: u32,
}

impl SpaceAllocator {
    /// A page set of `page_count` pages with nothing allocated but the reserved pages.
    pub fn new(page_count: u32) -> SpaceAllocator {
        let mut allocator = SpaceAllocator {
            words: Vec::new(),
            page_count: 0,
            data_pages: 0,
            allocated_data_pages: 0,
            cursor: 1,
        };
        allocator.grow(page_count);
        allocator
    }

    /// The page set grew to `page_count` pages.
    pub fn grow(&mut self, page_count: u32) {
        assert!(page_count >= self.page_count, "a page set never shrinks");
        self.words.resize((page_count as usize).div_ceil(64), 0);
        for page in self.page_count..page_count {
            if is_reserved_page(page) {
                self.words[page as usize / 64] |= 1 << (page % 64);
            } else {
                self.data_pages += 1;
            }
        }
        self.page_count = page_count;
    }

    pub fn page_count(&self) -> u32 {
        self.page_count
    }

    pub fn data_pages(&self) -> u32 {
        self.data_pages
    }

    pub fn allocated_data_pages(&self) -> u32 {
        self.allocated_data_pages
    }

    pub fn is_allocated(&self, page: u32) -> bool {
        page < self.page_count && self.words[page as usize / 64] & (1 << (page % 64)) != 0
    }

    /// Fraction of data pages in use, in percent.
    pub fn percent_used(&self) -> u32 {
        if self.data_pages == 0 {
            100
        } else {
            (self.allocated_data_pages as u64 * 100 / self.data_pages as u64) as u32
        }
    }

    /// Allocate a free data page, or `None` when the page set is full.
    pub fn allocate(&mut self) -> Option<u32> {
        if self.allocated_data_pages == self.data_pages {
            return None;
        }
        let word_count = self.words.len();
        let start_word = self.cursor as usize / 64;
        for step in 0..=word_count {
            let index = (start_word + step) % word_count;
            let word = self.words[index];
            if word != u64::MAX {
                let bit = (!word).trailing_zeros();
                let page = index as u32 * 64 + bit;
                if page >= self.page_count {
                    continue;
                }
                self.words[index] |= 1 << bit;
                self.allocated_data_pages += 1;
                self.cursor = page;
                return Some(page);
            }
        }
        unreachable!("allocation count says a page is free but none was found");
    }

    /// Mark `page` allocated (restart: a record or the on-disk space map says so).
    pub fn mark_allocated(&mut self, page: u32) {
        assert!(
            page < self.page_count && !is_reserved_page(page),
            "page {page} out of range"
        );
        let word = &mut self.words[page as usize / 64];
        if *word & (1 << (page % 64)) == 0 {
            *word |= 1 << (page % 64);
            self.allocated_data_pages += 1;
        }
    }

    pub fn free(&mut self, page: u32) {
        assert!(
            page < self.page_count && !is_reserved_page(page),
            "page {page} out of range"
        );
        let word = &mut self.words[page as usize / 64];
        assert!(*word & (1 << (page % 64)) != 0, "page {page} freed twice");
        *word &= !(1 << (page % 64));
        self.allocated_data_pages -= 1;
        if page < self.cursor {
            self.cursor = page;
        }
    }

    /// Allocated data pages, ascending.
    pub fn allocated_pages(&self) -> Vec<u32> {
        (1..self.page_count)
            .filter(|&page| !is_reserved_page(page) && self.is_allocated(page))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_pages_and_positions() {
        assert!(is_reserved_page(0));
        assert!(is_reserved_page(1));
        assert!(!is_reserved_page(2));
        assert!(is_reserved_page(1 + SPACE_MAP_STRIDE));
        assert_eq!(space_map_position(2), (1, 0));
        assert_eq!(
            space_map_position(1 + SPACE_MAP_STRIDE + 5),
            (1 + SPACE_MAP_STRIDE, 4)
        );
        assert_eq!(space_map_pages(100).collect::<Vec<_>>(), vec![1]);
    }

    #[test]
    fn allocate_free_and_fill() {
        let mut allocator = SpaceAllocator::new(100);
        assert_eq!(allocator.data_pages(), 98);
        let mut pages = Vec::new();
        while let Some(page) = allocator.allocate() {
            assert!(!is_reserved_page(page));
            pages.push(page);
        }
        assert_eq!(pages.len(), 98);
        assert_eq!(allocator.percent_used(), 100);
        allocator.free(50);
        assert_eq!(allocator.allocate(), Some(50));
        allocator.grow(200);
        assert_eq!(allocator.data_pages(), 198);
        assert!(allocator.allocate().unwrap() >= 100);
    }
}
