//! Page set files: the analogue of MQ for z/OS's VSAM linear data sets PSID00–PSID99 (MP16
//! §1.2 of chapter 1).
//!
//! A page set is one file made of 4 KiB pages. Page *n* is at byte offset *n* × 4096. Every page
//! carries the common 32-byte header of [`crate::page`]. Its checksum is set when the page is
//! written ([`PageBytes::seal`]) and checked when it is read ([`PageBytes::verify`]). A page that
//! fails the check is reported as [`StorageError::CorruptPage`], and its bytes never reach a
//! caller.
//!
//! ## Page 0: the page set header page (page type [`PageType::PageSetHeader`])
//!
//! All integers are little-endian.
//!
//! | Offset | Size | Field | Meaning |
//! |---|---|---|---|
//! | 0 | 32 | common page header | page type 1, page number 0, page set id, page RBA 0, flags 0 |
//! | 32 | 8 | eye-catcher | `"FRPSHDR\0"`: tells a header page apart from a stray formatted page |
//! | 40 | 4 | format version | [`PAGE_SET_FORMAT_VERSION`] (1) |
//! | 44 | 1 | page set id | 0–99; the same as byte 20 of the common header |
//! | 45 | 3 | reserved | zero |
//! | 48 | 8 | media recovery RBA | recovery of this page set from the log starts here (0 = none) |
//! | 56 | 4 | page count | pages in the page set, page 0 included |
//! | 60 | 4 | expansion count | times the page set has been expanded since it was formatted |
//! | 64 | 8 | queue manager id | unique id of the owning queue manager |
//! | 72 | 8 | creation time | when it was formatted: microseconds since the Unix epoch (UTC) |
//! | 80 | 4016 | reserved | zero |
//!
//! Every other page is all zeros when it is formatted or expanded. The page module treats an
//! all-zero page as valid and [`PageType::Unformatted`].
//!
//! ## Growth, crash safety and concurrency
//!
//! - **Formatting** creates the file (`CreateNew`) and reserves its space with `set_len`, in
//!   steps of [`FORMAT_PROGRESS_INTERVAL_PAGES`]. It then writes and syncs the header page and
//!   syncs the directory. If anything fails, the partial file is removed.
//! - **Expansion** ([`PageSet::expand`]) first grows the file and syncs it. Only then does it
//!   write and sync the header page with the new page count. After a crash between the two
//!   steps, the file is longer than its header says. [`PageSet::open`] accepts that: the header
//!   is authoritative, and the next expansion reuses the space. A file *shorter* than its header
//!   says is refused.
//! - **Deciding when to expand** (MQ starts at 90% full) belongs to the data manager, not here.
//! - **Concurrency.** Every method takes `&self`, and a `PageSet` is shared through [`Arc`].
//!   Page I/O is positioned, so it needs no lock. Changes to the header page (expansion and the
//!   media recovery RBA) are serialised by one mutex.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::config::{Expand, PAGE_SET_PAGES_MAX};
use crate::error::{StorageError, StorageResult};
use crate::page::{PageBytes, PageType, PAGE_MAGIC, PAGE_SIZE};
use crate::types::{PageNumber, PageSetId, Rba};
use crate::vfs::{FileSystem, OpenMode, StorageFile};

/// Format version of the page set header page (field at offset 40).
pub const PAGE_SET_FORMAT_VERSION: u32 = 1;
/// Eye-catcher at offset 32 of page 0.
pub const PAGE_SET_HEADER_EYE_CATCHER: [u8; 8] = *b"FRPSHDR\0";
/// The page that holds the page set header.
pub const PAGE_SET_HEADER_PAGE: PageNumber = PageNumber(0);
/// The smallest page set that can be formatted: the header page plus one data page.
pub const PAGE_SET_PAGES_MIN: u32 = 2;
/// `format` reserves space and reports progress in steps of this many pages (4 MiB).
pub const FORMAT_PROGRESS_INTERVAL_PAGES: u32 = 1024;
/// EXPAND(SYSTEM) grows by this percentage of the current size, or by the secondary extent if
/// that is larger.
pub const EXPAND_SYSTEM_GROWTH_PERCENT: u64 = 10;

const HEADER_EYE_CATCHER_OFFSET: usize = 32;
const HEADER_FORMAT_VERSION_OFFSET: usize = 40;
const HEADER_PAGE_SET_OFFSET: usize = 44;
const HEADER_RECOVERY_RBA_OFFSET: usize = 48;
const HEADER_PAGE_COUNT_OFFSET: usize = 56;
const HEADER_EXPANSION_COUNT_OFFSET: usize = 60;
const HEADER_QUEUE_MANAGER_ID_OFFSET: usize = 64;
const HEADER_CREATION_TIME_OFFSET: usize = 72;
const HEADER_FIELDS_END: usize = 80;

// The page set header fields must fit on page 0 after the common header.
const _: () = assert!(HEADER_FIELDS_END <= PAGE_SIZE);
// Pages are written from slices of `PageBytes`; the slice must be exactly the file's bytes.
const _: () = assert!(std::mem::size_of::<PageBytes>() == PAGE_SIZE);

/// What page 0 of a page set records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageSetHeader {
    pub page_set: PageSetId,
    pub format_version: u32,
    /// Media recovery RBA: recovery of this page set from the log starts here.
    pub recovery_rba: Rba,
    /// Pages in the file, including page 0.
    pub page_count: u32,
    pub expansion_count: u32,
    /// Unique id of the queue manager that owns it (guards against a foreign page set).
    pub queue_manager_id: u64,
    /// When the page set was formatted, in microseconds since the Unix epoch (UTC).
    pub creation_time_micros: u64,
}

impl PageSetHeader {
    /// Write this header into `page`, replacing its contents. The caller seals the page before
    /// writing it.
    fn encode(&self, page: &mut PageBytes) {
        page.format(PageType::PageSetHeader, self.page_set, PAGE_SET_HEADER_PAGE);
        let bytes = &mut page.0;
        bytes[HEADER_EYE_CATCHER_OFFSET..HEADER_EYE_CATCHER_OFFSET + 8]
            .copy_from_slice(&PAGE_SET_HEADER_EYE_CATCHER);
        put_u32(bytes, HEADER_FORMAT_VERSION_OFFSET, self.format_version);
        bytes[HEADER_PAGE_SET_OFFSET] = self.page_set.0;
        put_u64(bytes, HEADER_RECOVERY_RBA_OFFSET, self.recovery_rba.0);
        put_u32(bytes, HEADER_PAGE_COUNT_OFFSET, self.page_count);
        put_u32(bytes, HEADER_EXPANSION_COUNT_OFFSET, self.expansion_count);
        put_u64(bytes, HEADER_QUEUE_MANAGER_ID_OFFSET, self.queue_manager_id);
        put_u64(
            bytes,
            HEADER_CREATION_TIME_OFFSET,
            self.creation_time_micros,
        );
    }

    /// Read the header fields from a page 0 that has already passed [`PageBytes::verify`].
    fn decode(page: &PageBytes) -> Result<PageSetHeader, String> {
        let bytes = &page.0;
        if page.page_type() != Some(PageType::PageSetHeader) {
            return Err(format!(
                "page 0 has page type {} and is not a page set header",
                bytes[6]
            ));
        }
        if bytes[HEADER_EYE_CATCHER_OFFSET..HEADER_EYE_CATCHER_OFFSET + 8]
            != PAGE_SET_HEADER_EYE_CATCHER
        {
            return Err("page 0 lacks the page set header eye-catcher".to_string());
        }
        let format_version = get_u32(bytes, HEADER_FORMAT_VERSION_OFFSET);
        if format_version != PAGE_SET_FORMAT_VERSION {
            return Err(format!(
                "page set format version {format_version} is not supported (this build reads \
                 version {PAGE_SET_FORMAT_VERSION})"
            ));
        }
        Ok(PageSetHeader {
            page_set: PageSetId(bytes[HEADER_PAGE_SET_OFFSET]),
            format_version,
            recovery_rba: Rba(get_u64(bytes, HEADER_RECOVERY_RBA_OFFSET)),
            page_count: get_u32(bytes, HEADER_PAGE_COUNT_OFFSET),
            expansion_count: get_u32(bytes, HEADER_EXPANSION_COUNT_OFFSET),
            queue_manager_id: get_u64(bytes, HEADER_QUEUE_MANAGER_ID_OFFSET),
            creation_time_micros: get_u64(bytes, HEADER_CREATION_TIME_OFFSET),
        })
    }
}

fn put_u32(bytes: &mut [u8], offset: usize, value: u32) {
    bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
}

fn put_u64(bytes: &mut [u8], offset: usize, value: u64) {
    bytes[offset..offset + 8].copy_from_slice(&value.to_le_bytes());
}

fn get_u32(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().expect("4 bytes"))
}

fn get_u64(bytes: &[u8], offset: usize) -> u64 {
    u64::from_le_bytes(bytes[offset..offset + 8].try_into().expect("8 bytes"))
}

/// Byte offset of a page in the file.
fn page_offset(page: u32) -> u64 {
    u64::from(page) * PAGE_SIZE as u64
}

/// The bytes of a run of pages, as one buffer for one write call.
fn pages_as_bytes(pages: &[PageBytes]) -> &[u8] {
    // SAFETY: `PageBytes` is `repr(C)` around `[u8; PAGE_SIZE]`, and its size is exactly
    // PAGE_SIZE (checked at compile time above), so a slice of pages is a contiguous, fully
    // initialised byte array of `pages.len() * PAGE_SIZE` bytes with the lifetime of `pages`.
    unsafe { std::slice::from_raw_parts(pages.as_ptr().cast::<u8>(), std::mem::size_of_val(pages)) }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while the header lock is held cannot leave the header half-updated: the in-memory
    // copy is replaced only after the disk write succeeds. So a poisoned lock is still usable.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An open page set. Shared between threads through `Arc`.
pub struct PageSet {
    id: PageSetId,
    path: PathBuf,
    file: Arc<dyn StorageFile>,
    expand: Expand,
    secondary_pages: u32,
    maximum_pages: u32,
    /// The in-memory copy of page 0, replaced only after the disk copy is written and synced.
    /// Holding this lock serialises every change to page 0.
    header: Mutex<PageSetHeader>,
    /// `header.page_count`, readable without the lock.
    page_count: AtomicU32,
}

impl std::fmt::Debug for PageSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageSet")
            .field("id", &self.id)
            .field("path", &self.path)
            .field("page_count", &self.page_count())
            .finish()
    }
}

impl PageSet {
    /// Create and format a page set file of `pages` pages (page 0 = header, rest zero).
    /// `progress(pages_done, pages_total)` is called as formatting proceeds. It is called at
    /// least once, with `pages_done == pages_total`, when the page set is complete.
    ///
    /// The file must not already exist. On failure the partial file is removed.
    pub fn format(
        fs: &dyn FileSystem,
        path: &Path,
        page_set: PageSetId,
        pages: u32,
        queue_manager_id: u64,
        progress: &mut dyn FnMut(u64, u64),
    ) -> StorageResult<()> {
        if page_set.0 > PageSetId::MAX {
            return Err(StorageError::invalid(format!(
                "page set id {} is outside 0-99",
                page_set.0
            )));
        }
        if !(PAGE_SET_PAGES_MIN..=PAGE_SET_PAGES_MAX).contains(&pages) {
            return Err(StorageError::invalid(format!(
                "page set {page_set}: {pages} pages is outside \
                 {PAGE_SET_PAGES_MIN}-{PAGE_SET_PAGES_MAX}"
            )));
        }
        let file = fs
            .open(path, OpenMode::CreateNew)
            .map_err(|error| StorageError::io(path, "create page set", error))?;
        let result = Self::format_file(file.as_ref(), page_set, pages, queue_manager_id, progress)
            .and_then(|()| match path.parent() {
                Some(directory) if !directory.as_os_str().is_empty() => fs
                    .sync_directory(directory)
                    .map_err(|error| StorageError::io(directory, "sync directory", error)),
                _ => Ok(()),
            });
        if result.is_err() {
            drop(file);
            // Best effort: a half-formatted page set must not be mistaken for a good one later.
            // If the removal fails too, `open` refuses the file (no valid header page).
            let _ = fs.remove_file(path);
        }
        result
    }

    fn format_file(
        file: &dyn StorageFile,
        page_set: PageSetId,
        pages: u32,
        queue_manager_id: u64,
        progress: &mut dyn FnMut(u64, u64),
    ) -> StorageResult<()> {
        let total = u64::from(pages);
        let mut done: u32 = 0;
        while done < pages {
            done = done
                .saturating_add(FORMAT_PROGRESS_INTERVAL_PAGES)
                .min(pages);
            file.set_len(page_offset(done))
                .map_err(|error| StorageError::io(file.path(), "reserve page set space", error))?;
            progress(u64::from(done), total);
        }
        let creation_time_micros = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|elapsed| u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX))
            .unwrap_or(0);
        let header = PageSetHeader {
            page_set,
            format_version: PAGE_SET_FORMAT_VERSION,
            recovery_rba: Rba::ZERO,
            page_count: pages,
            expansion_count: 0,
            queue_manager_id,
            creation_time_micros,
        };
        write_header(file, &header)
    }

    /// Open a formatted page set and check that it is page set `page_set`.
    /// `expand`, `secondary_pages` and `maximum_pages` govern [`PageSet::expand`].
    pub fn open(
        fs: &dyn FileSystem,
        path: &Path,
        page_set: PageSetId,
        expand: Expand,
        secondary_pages: u32,
        maximum_pages: u32,
    ) -> StorageResult<Arc<PageSet>> {
        let file = fs
            .open(path, OpenMode::Existing)
            .map_err(|error| StorageError::io(path, "open page set", error))?;
        let unusable = |detail: String| StorageError::CorruptMetadata {
            path: path.to_path_buf(),
            detail: format!("not usable as page set {page_set}: {detail}"),
        };
        let length = file
            .len()
            .map_err(|error| StorageError::io(path, "size page set", error))?;
        if length < PAGE_SIZE as u64 {
            return Err(unusable(format!(
                "the file is {length} bytes, shorter than one page"
            )));
        }
        let mut page = PageBytes::zeroed();
        file.read_at(&mut page.0, 0)
            .map_err(|error| StorageError::io(path, "read page set header", error))?;
        if page.is_all_zero() {
            return Err(unusable(
                "page 0 is empty; the page set was never formatted".to_string(),
            ));
        }
        let found_page_set = page.0[20];
        if page.0[4..6] == PAGE_MAGIC && found_page_set != page_set.0 {
            // Checked before the checksum, so a page set opened under the wrong id gets the
            // clearer message (its checksum is correct).
            if page
                .verify(PageSetId(found_page_set), PAGE_SET_HEADER_PAGE)
                .is_ok()
            {
                return Err(unusable(format!(
                    "the file is page set {found_page_set:02}"
                )));
            }
        }
        if let Err(defect) = page.verify(page_set, PAGE_SET_HEADER_PAGE) {
            return Err(StorageError::CorruptPage {
                page_set,
                page: PAGE_SET_HEADER_PAGE,
                path: path.to_path_buf(),
                detail: defect.to_string(),
            });
        }
        let header = PageSetHeader::decode(&page).map_err(unusable)?;
        if header.page_set != page_set {
            return Err(unusable(format!(
                "the header names page set {}",
                header.page_set
            )));
        }
        if header.page_count < PAGE_SET_PAGES_MIN {
            return Err(unusable(format!(
                "the header says {} pages",
                header.page_count
            )));
        }
        if length < page_offset(header.page_count) {
            return Err(unusable(format!(
                "the file is {length} bytes but its header says {} pages; it was truncated",
                header.page_count
            )));
        }
        Ok(Arc::new(PageSet {
            id: page_set,
            path: path.to_path_buf(),
            file,
            expand,
            secondary_pages,
            maximum_pages: maximum_pages.min(PAGE_SET_PAGES_MAX),
            page_count: AtomicU32::new(header.page_count),
            header: Mutex::new(header),
        }))
    }

    pub fn id(&self) -> PageSetId {
        self.id
    }

    pub fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// A copy of the header as last written to disk.
    pub fn header(&self) -> PageSetHeader {
        lock(&self.header).clone()
    }

    /// Pages in the page set, page 0 included. Valid page numbers are `1..page_count` for data.
    pub fn page_count(&self) -> u32 {
        self.page_count.load(Ordering::Acquire)
    }

    /// The EXPAND policy this page set was opened with.
    pub fn expand_policy(&self) -> Expand {
        self.expand
    }

    /// The largest size, in pages, [`PageSet::expand`] may grow the page set to.
    pub fn maximum_pages(&self) -> u32 {
        self.maximum_pages
    }

    /// Read and verify one page. A page that fails verification is reported as
    /// [`StorageError::CorruptPage`], and `into` is zeroed so the damaged bytes are never used.
    /// Reading at or past the end of the page set is an error.
    pub fn read_page(&self, page: PageNumber, into: &mut PageBytes) -> StorageResult<()> {
        let page_count = self.page_count();
        if page.0 >= page_count {
            return Err(StorageError::invalid(format!(
                "page {page} is beyond the end of page set {} ({}), which has {page_count} pages",
                self.id,
                self.path.display()
            )));
        }
        if let Err(error) = self.file.read_at(&mut into.0, page_offset(page.0)) {
            into.0.fill(0);
            return Err(StorageError::io(&self.path, "read page", error));
        }
        if let Err(defect) = into.verify(self.id, page) {
            into.0.fill(0);
            return Err(StorageError::CorruptPage {
                page_set: self.id,
                page,
                path: self.path.clone(),
                detail: defect.to_string(),
            });
        }
        Ok(())
    }

    /// Write a run of contiguous pages, starting at `first`, in one write call. Each page is
    /// sealed into a staging copy, so the caller's bytes are not modified. The write is not
    /// durable until [`PageSet::sync`] returns.
    pub fn write_pages(&self, first: PageNumber, pages: &[&PageBytes]) -> StorageResult<()> {
        let mut staging: Vec<PageBytes> = pages.iter().map(|&page| page.clone()).collect();
        self.write_staged_pages(first, &mut staging)
    }

    /// Like [`PageSet::write_pages`], for a caller that has already copied the pages into its
    /// own staging buffer (the buffer pool does). The pages are sealed in place, then written in
    /// one call.
    ///
    /// Contract: the run is inside the page set, does not touch page 0 (the header page is
    /// written only by this module), and every page is either all zero or formatted as its own
    /// page of this page set. A page that breaks the contract is refused rather than written,
    /// because it could never be read back.
    pub fn write_staged_pages(
        &self,
        first: PageNumber,
        pages: &mut [PageBytes],
    ) -> StorageResult<()> {
        if pages.is_empty() {
            return Ok(());
        }
        let page_count = u64::from(self.page_count());
        let end = u64::from(first.0) + pages.len() as u64;
        if first.0 == PAGE_SET_HEADER_PAGE.0 || end > page_count {
            return Err(StorageError::invalid(format!(
                "write of pages {first}..{end} is outside the data pages 1..{page_count} of page \
                 set {} ({})",
                self.id,
                self.path.display()
            )));
        }
        for (index, page) in pages.iter_mut().enumerate() {
            let number = first.0 + index as u32;
            let formatted_as_itself = page.0[4..6] == PAGE_MAGIC
                && page.page_number().0 == number
                && page.0[20] == self.id.0;
            if !formatted_as_itself && !page.is_all_zero() {
                return Err(StorageError::invalid(format!(
                    "page {number} of page set {} is not formatted as page {number} of that page \
                     set; refusing to write it to {}",
                    self.id,
                    self.path.display()
                )));
            }
            page.seal();
        }
        self.file
            .write_at(pages_as_bytes(pages), page_offset(first.0))
            .map_err(|error| StorageError::io(&self.path, "write pages", error))
    }

    /// Make every earlier write to this page set durable.
    pub fn sync(&self) -> StorageResult<()> {
        self.file
            .sync_data()
            .map_err(|error| StorageError::io(&self.path, "sync page set", error))
    }

    /// Grow the page set by its EXPAND policy, up to its maximum size. Returns the new page
    /// count.
    ///
    /// - EXPAND(USER) grows by the secondary extent.
    /// - EXPAND(SYSTEM) grows by max(secondary extent, 10% of the current size).
    /// - EXPAND(NONE) never grows.
    ///
    /// The growth is capped at `maximum_pages`. The new space reads as unformatted (zero) pages.
    /// Fails with [`StorageError::StorageMediumFull`] if the page set cannot grow: EXPAND(NONE),
    /// already at its maximum, or the file system is out of space. In every such case nothing
    /// changes.
    pub fn expand(&self) -> StorageResult<u32> {
        let mut header = lock(&self.header);
        let current = header.page_count;
        let growth = match self.expand {
            Expand::None => 0,
            Expand::User => u64::from(self.secondary_pages),
            Expand::System => u64::from(self.secondary_pages)
                .max(u64::from(current) * EXPAND_SYSTEM_GROWTH_PERCENT / 100),
        };
        let new_count = (u64::from(current) + growth).min(u64::from(self.maximum_pages)) as u32;
        if new_count <= current {
            return Err(StorageError::StorageMediumFull { page_set: self.id });
        }
        if let Err(error) = self.file.set_len(page_offset(new_count)) {
            // Give back whatever part of the growth was reserved.
            let _ = self.file.set_len(page_offset(current));
            if error.raw_os_error() == Some(libc::ENOSPC) {
                return Err(StorageError::StorageMediumFull { page_set: self.id });
            }
            return Err(StorageError::io(&self.path, "expand page set", error));
        }
        // The new length must be durable before the header claims the pages.
        self.sync()?;
        let mut expanded = header.clone();
        expanded.page_count = new_count;
        expanded.expansion_count = expanded.expansion_count.saturating_add(1);
        write_header(self.file.as_ref(), &expanded)?;
        *header = expanded;
        self.page_count.store(new_count, Ordering::Release);
        Ok(new_count)
    }

    /// Record the media recovery RBA in the header page, and sync it.
    pub fn set_recovery_rba(&self, rba: Rba) -> StorageResult<()> {
        let mut header = lock(&self.header);
        let mut updated = header.clone();
        updated.recovery_rba = rba;
        write_header(self.file.as_ref(), &updated)?;
        *header = updated;
        Ok(())
    }
}

/// Write and sync page 0.
fn write_header(file: &dyn StorageFile, header: &PageSetHeader) -> StorageResult<()> {
    let mut page = PageBytes::zeroed();
    header.encode(&mut page);
    page.seal();
    file.write_at(&page.0, page_offset(PAGE_SET_HEADER_PAGE.0))
        .map_err(|error| StorageError::io(file.path(), "write page set header", error))?;
    file.sync_data()
        .map_err(|error| StorageError::io(file.path(), "sync page set header", error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_encoding_round_trips_and_places_fields_as_documented() {
        let header = PageSetHeader {
            page_set: PageSetId(7),
            format_version: PAGE_SET_FORMAT_VERSION,
            recovery_rba: Rba(0x1122_3344_5566_7788),
            page_count: 4096,
            expansion_count: 3,
            queue_manager_id: 0xDEAD_BEEF_0000_0001,
            creation_time_micros: 1_700_000_000_000_000,
        };
        let mut page = PageBytes::zeroed();
        header.encode(&mut page);
        page.seal();
        assert_eq!(page.verify(PageSetId(7), PageNumber(0)), Ok(()));
        assert_eq!(&page.0[32..40], b"FRPSHDR\0");
        assert_eq!(get_u32(&page.0, 40), 1);
        assert_eq!(page.0[44], 7);
        assert_eq!(get_u64(&page.0, 48), 0x1122_3344_5566_7788);
        assert_eq!(get_u32(&page.0, 56), 4096);
        assert_eq!(get_u32(&page.0, 60), 3);
        assert_eq!(get_u64(&page.0, 64), 0xDEAD_BEEF_0000_0001);
        assert!(page.0[HEADER_FIELDS_END..].iter().all(|&b| b == 0));
        assert_eq!(PageSetHeader::decode(&page), Ok(header));
    }
}
