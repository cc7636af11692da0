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
//! Format version [`PAGE_SET_FORMAT_VERSION`], all integers little-endian, laid out by
//! [`PAGE_SET_HEADER_LAYOUT`] and described field by field in `docs/formats.md` ("Page set
//! header page"): after the common page header, the eye-catcher [`PAGE_SET_HEADER_EYE_CATCHER`]
//! (tells a header page apart from a stray formatted page), the format version, the page set id,
//! the media recovery RBA, the page count, the expansion count, the owning queue manager's id
//! and the creation time; the rest of the page is zero.
//!
//! Every other page is all zeros when it is formatted or expanded. The page module treats an
//! all-zero page as valid and [`PageType::Unformatted`].
//!
//! ## Growth, crash safety and concurrency
//!
//! - **Formatting** creates the file (`CreateNew`) and reserves its space with `set_len`, in
//!   steps of [`FORMAT_PROGRESS_INTERVAL_PAGES`]. It then creates the double-write file (see
//!   below), writes and syncs the header page through it, and syncs the directory. If anything
//!   fails, the partial files are removed.
//! - **Expansion** ([`PageSet::expand`]) first grows the file and syncs it. Only then does it
//!   write and sync the header page with the new page count. After a crash between the two
//!   steps, the file is longer than its header says. [`PageSet::open`] accepts that: the header
//!   is authoritative, and the next expansion reuses the space. A file *shorter* than its header
//!   says is refused.
//! - **Deciding when to expand** (MQ starts at 90% full) belongs to the data manager, not here.
//! - **Concurrency.** Every method takes `&self`, and a `PageSet` is shared through [`Arc`].
//!   Reads are positioned and take no lock. Changes to the header page (expansion and the media
//!   recovery RBA) are serialised by one mutex; writes are serialised by the double-write mutex
//!   (below), but the runs of one staged batch may be written in place by several threads at
//!   once. Lock order: header mutex, then double-write mutex; several page sets' double-write
//!   mutexes are taken in ascending page set order.
//!
//! ## Torn page writes: the double-write file
//!
//! A 4 KiB page write is not atomic: the disk guarantees 512-byte sectors, so a power loss in
//! the middle of a page write can leave a page that is part old image, part new image. Its
//! checksum then fails, and without help restart could only refuse the page set. Redo from the
//! log cannot rebuild such a page either: redo needs a whole page (old or new) to apply records
//! to. So every page image is first made durable somewhere else: the page set's
//! *double-write file* `<page set file>.dw` (`PSIDnn.pageset.dw`), beside the page set.
//!
//! **Protocol** (every write of page images to the page set file: [`PageSet::write_pages`],
//! [`PageSet::write_staged_pages`], [`PageSet::stage_pages`] with [`StagedWrite`], and the
//! header page written by `format`, [`PageSet::expand`] and [`PageSet::set_recovery_rba`]):
//! 1. Under the page set's double-write mutex: if in-place writes of the previous batch were
//!    not synced (an error path), sync the page set first. Then seal the images and write the
//!    whole batch (batch header, descriptors, images) to the double-write file in **one** write
//!    call, and sync it.
//! 2. Write the pages in place (one write call per run of contiguous pages; the deferred write
//!    process issues the runs of a batch from several threads).
//! 3. Sync the page set, then release the mutex.
//!
//! A batch holds at most [`DOUBLE_WRITE_SLOTS`] pages (one deferred-write batch); larger
//! writes are split into several batches, each going through all three steps. Because the
//! page set is synced before the double-write area is reused, at most one batch can have
//! in-place writes that are not durable, and that batch is the one in the double-write file.
//!
//! **Repair at open.** [`PageSet::open`] reads the double-write file and checks each entry of
//! the batch it holds (its checksum covers the batch sequence number, the page number and the
//! image). For each valid entry whose in-place page fails [`PageBytes::verify`], the page is
//! rewritten from the entry; then the page set is synced. Each repair is reported on stderr
//! (`CSQP070W`) and listed by [`PageSet::repaired_pages`]. A valid in-place page is never
//! overwritten: it holds either the old or the new image, and redo from the log handles both.
//! An entry whose checksum fails was torn while being written to the double-write file, before
//! the in-place write began, so its in-place page is intact; it is ignored. The header page is
//! repaired the same way, before it is decoded, provided the double-write copy is a header of
//! the same page set incarnation (page set id, queue manager id and creation time match the
//! double-write file header). A damaged header page with no such copy is refused as before.
//! Every image in the file is the latest image written (or about to be written) to its page:
//! a later write of the page would be in a later batch, which would have replaced this one.
//!
//! A page set without a double-write file (formatted by an older release) opens: the file is
//! created. A double-write file with a damaged file header, or belonging to another
//! incarnation of the page set, is reinitialised (its entries are not used).
//!
//! **Cost.** One extra sequential write (the batch, about 4 KiB per page plus 16 bytes per
//! page of descriptors) and one extra sync per batch; the images are copied once into the
//! double-write buffer (kept per page set, grown to the largest batch written, at most about
//! 4 MiB). A synchronous one-page write costs two syncs instead of one.
//!
//! ### Double-write file format (version 1), all integers little-endian
//!
//! Block 0 (bytes 0..4096) is the file header, written when the file is created
//! ([`DOUBLE_WRITE_HEADER_LAYOUT`]): eye-catcher [`DOUBLE_WRITE_EYE_CATCHER`], the page set id,
//! the slot count and the page set incarnation (queue manager id and creation time, as in the
//! page set header). From byte 4096 is the *batch* last written, `N` entries (1 ≤ `N` ≤
//! slots), rewritten by each batch in one write call: the batch header
//! ([`DOUBLE_WRITE_BATCH_LAYOUT`], magic [`DOUBLE_WRITE_BATCH_MAGIC`]), then one 16-byte
//! descriptor per entry ([`DOUBLE_WRITE_DESCRIPTOR_LAYOUT`]: page number and entry checksum),
//! zero padding to the end of the descriptor area's `D = ceil((32 + 16 × N) / 4096)` blocks,
//! then the `N` sealed images at `4096 × (D + i)` from the batch's start, exactly as written in
//! place. Every field is described in `docs/formats.md` ("Double-write file").
//!
//! Entries are in ascending page number order. The sequence number is
//! max(previous + 1, current time in microseconds), so a batch written after a restart never
//! reuses the number of a batch that was torn before it: stale sectors of an older attempt
//! cannot pass the checksum of a newer batch. A batch whose header sector is stale (torn
//! write) is read with its own, older layout; the entries that still pass their checksums are
//! that older batch's, whose in-place writes were synced, so they only ever meet valid pages.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::config::{Expand, PAGE_SET_PAGES_MAX};
use crate::error::{StorageError, StorageResult};
use crate::layout::{layout_bytes, Field};
use crate::page::{PageBytes, PageType, PAGE_HEADER_SIZE, PAGE_MAGIC, PAGE_SIZE};
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

/// Most pages one double-write batch holds: one deferred-write batch. Larger writes are split.
pub const DOUBLE_WRITE_SLOTS: usize = 1024;
/// Format version of the double-write file (file header field at offset 12).
pub const DOUBLE_WRITE_FORMAT_VERSION: u32 = 1;
/// Eye-catcher at offset 4 of the double-write file header.
pub const DOUBLE_WRITE_EYE_CATCHER: [u8; 8] = *b"FRDWHDR\0";
/// Magic at offset 4 of a double-write batch header.
pub const DOUBLE_WRITE_BATCH_MAGIC: [u8; 4] = *b"FDWB";
/// Suffix appended to the page set file name to name its double-write file.
pub const DOUBLE_WRITE_SUFFIX: &str = ".dw";

/// Fields of page 0, the page set header page (see `docs/formats.md`).
pub mod header_page {
    use crate::layout::{Encoding, Field};

    /// The common page header of [`crate::page`]: page type 1, page number 0, page RBA 0.
    pub const COMMON_PAGE_HEADER: Field = Field::new("common page header", 0, 32, Encoding::Bytes);
    /// [`super::PAGE_SET_HEADER_EYE_CATCHER`].
    pub const EYE_CATCHER: Field = Field::new("eye-catcher", 32, 8, Encoding::Bytes);
    /// [`super::PAGE_SET_FORMAT_VERSION`].
    pub const FORMAT_VERSION: Field = Field::new("format version", 40, 4, Encoding::U32Le);
    /// 0–99, the same as the common header's.
    pub const PAGE_SET_ID: Field = Field::new("page set id", 44, 1, Encoding::U8);
    pub const RESERVED_1: Field = Field::new("reserved", 45, 3, Encoding::Bytes);
    /// Recovery of this page set from the log starts here (0 = none).
    pub const RECOVERY_RBA: Field = Field::new("media recovery RBA", 48, 8, Encoding::U64Le);
    /// Pages in the page set, page 0 included.
    pub const PAGE_COUNT: Field = Field::new("page count", 56, 4, Encoding::U32Le);
    /// Times the page set has been expanded since it was formatted.
    pub const EXPANSION_COUNT: Field = Field::new("expansion count", 60, 4, Encoding::U32Le);
    /// Unique id of the owning queue manager.
    pub const QUEUE_MANAGER_ID: Field = Field::new("queue manager id", 64, 8, Encoding::U64Le);
    /// When it was formatted: microseconds since the Unix epoch (UTC).
    pub const CREATION_TIME: Field = Field::new("creation time", 72, 8, Encoding::U64Le);
    pub const RESERVED_2: Field = Field::new("reserved", 80, 4016, Encoding::Bytes);
}

/// Page 0 of a page set, field by field in offset order.
pub const PAGE_SET_HEADER_LAYOUT: [Field; 11] = [
    header_page::COMMON_PAGE_HEADER,
    header_page::EYE_CATCHER,
    header_page::FORMAT_VERSION,
    header_page::PAGE_SET_ID,
    header_page::RESERVED_1,
    header_page::RECOVERY_RBA,
    header_page::PAGE_COUNT,
    header_page::EXPANSION_COUNT,
    header_page::QUEUE_MANAGER_ID,
    header_page::CREATION_TIME,
    header_page::RESERVED_2,
];
const _: () = assert!(layout_bytes(&PAGE_SET_HEADER_LAYOUT) == PAGE_SIZE);
const _: () = assert!(header_page::COMMON_PAGE_HEADER.size == PAGE_HEADER_SIZE);

/// Fields of the double-write file's header block, block 0 (see `docs/formats.md`).
pub mod double_write_header {
    use crate::layout::{Encoding, Field};

    /// CRC-32C of bytes 4..4096.
    pub const CHECKSUM: Field = Field::new("checksum", 0, 4, Encoding::U32Le);
    /// [`super::DOUBLE_WRITE_EYE_CATCHER`].
    pub const EYE_CATCHER: Field = Field::new("eye-catcher", 4, 8, Encoding::Bytes);
    /// [`super::DOUBLE_WRITE_FORMAT_VERSION`].
    pub const FORMAT_VERSION: Field = Field::new("format version", 12, 4, Encoding::U32Le);
    pub const PAGE_SET_ID: Field = Field::new("page set id", 16, 1, Encoding::U8);
    pub const RESERVED_1: Field = Field::new("reserved", 17, 3, Encoding::Bytes);
    /// Most pages one batch may hold.
    pub const SLOTS: Field = Field::new("slots", 20, 4, Encoding::U32Le);
    pub const QUEUE_MANAGER_ID: Field = Field::new("queue manager id", 24, 8, Encoding::U64Le);
    pub const CREATION_TIME: Field = Field::new("creation time", 32, 8, Encoding::U64Le);
    pub const RESERVED_2: Field = Field::new("reserved", 40, 4056, Encoding::Bytes);
}

/// The double-write file header block, field by field in offset order.
pub const DOUBLE_WRITE_HEADER_LAYOUT: [Field; 9] = [
    double_write_header::CHECKSUM,
    double_write_header::EYE_CATCHER,
    double_write_header::FORMAT_VERSION,
    double_write_header::PAGE_SET_ID,
    double_write_header::RESERVED_1,
    double_write_header::SLOTS,
    double_write_header::QUEUE_MANAGER_ID,
    double_write_header::CREATION_TIME,
    double_write_header::RESERVED_2,
];
const _: () = assert!(layout_bytes(&DOUBLE_WRITE_HEADER_LAYOUT) == PAGE_SIZE);

/// Fields of a double-write batch header, at file offset 4096 (see `docs/formats.md`).
pub mod double_write_batch {
    use crate::layout::{Encoding, Field};

    /// CRC-32C of bytes 4..32 of the batch header.
    pub const CHECKSUM: Field = Field::new("checksum", 0, 4, Encoding::U32Le);
    /// [`super::DOUBLE_WRITE_BATCH_MAGIC`].
    pub const MAGIC: Field = Field::new("magic", 4, 4, Encoding::Bytes);
    /// Strictly increasing per page set, never 0.
    pub const SEQUENCE: Field = Field::new("batch sequence number", 8, 8, Encoding::U64Le);
    /// Entries in the batch.
    pub const ENTRY_COUNT: Field = Field::new("entry count", 16, 4, Encoding::U32Le);
    pub const PAGE_SET_ID: Field = Field::new("page set id", 20, 1, Encoding::U8);
    pub const RESERVED: Field = Field::new("reserved", 21, 11, Encoding::Bytes);
}

/// The double-write batch header, field by field in offset order.
pub const DOUBLE_WRITE_BATCH_LAYOUT: [Field; 6] = [
    double_write_batch::CHECKSUM,
    double_write_batch::MAGIC,
    double_write_batch::SEQUENCE,
    double_write_batch::ENTRY_COUNT,
    double_write_batch::PAGE_SET_ID,
    double_write_batch::RESERVED,
];

/// Fields of an entry descriptor of a double-write batch (see `docs/formats.md`).
pub mod double_write_descriptor {
    use crate::layout::{Encoding, Field};

    /// Where the image goes in the page set.
    pub const PAGE_NUMBER: Field = Field::new("page number", 0, 4, Encoding::U32Le);
    /// CRC-32C of: sequence number (u64 LE) ‖ page number (u32 LE) ‖ image.
    pub const CHECKSUM: Field = Field::new("entry checksum", 4, 4, Encoding::U32Le);
    pub const RESERVED: Field = Field::new("reserved", 8, 8, Encoding::Bytes);
}

/// A double-write entry descriptor, field by field in offset order.
pub const DOUBLE_WRITE_DESCRIPTOR_LAYOUT: [Field; 3] = [
    double_write_descriptor::PAGE_NUMBER,
    double_write_descriptor::CHECKSUM,
    double_write_descriptor::RESERVED,
];

const DW_CHECKSUM_OFFSET: usize = double_write_header::CHECKSUM.offset;
const DW_EYE_CATCHER: std::ops::Range<usize> = double_write_header::EYE_CATCHER.range();
const DW_FORMAT_VERSION_OFFSET: usize = double_write_header::FORMAT_VERSION.offset;
const DW_PAGE_SET_OFFSET: usize = double_write_header::PAGE_SET_ID.offset;
const DW_SLOTS_OFFSET: usize = double_write_header::SLOTS.offset;
const DW_QUEUE_MANAGER_ID_OFFSET: usize = double_write_header::QUEUE_MANAGER_ID.offset;
const DW_CREATION_TIME_OFFSET: usize = double_write_header::CREATION_TIME.offset;
/// The batch starts after the file header block.
const DW_BATCH_OFFSET: u64 = PAGE_SIZE as u64;
const DW_BATCH_HEADER_SIZE: usize = layout_bytes(&DOUBLE_WRITE_BATCH_LAYOUT);
const DW_BATCH_CHECKSUM_OFFSET: usize = double_write_batch::CHECKSUM.offset;
const DW_BATCH_MAGIC: std::ops::Range<usize> = double_write_batch::MAGIC.range();
const DW_BATCH_SEQUENCE_OFFSET: usize = double_write_batch::SEQUENCE.offset;
const DW_BATCH_COUNT_OFFSET: usize = double_write_batch::ENTRY_COUNT.offset;
const DW_BATCH_PAGE_SET_OFFSET: usize = double_write_batch::PAGE_SET_ID.offset;
const DW_DESCRIPTOR_SIZE: usize = layout_bytes(&DOUBLE_WRITE_DESCRIPTOR_LAYOUT);
const DW_DESCRIPTOR_PAGE_OFFSET: usize = double_write_descriptor::PAGE_NUMBER.offset;
const DW_DESCRIPTOR_CHECKSUM_OFFSET: usize = double_write_descriptor::CHECKSUM.offset;

const HEADER_EYE_CATCHER: std::ops::Range<usize> = header_page::EYE_CATCHER.range();
const HEADER_FORMAT_VERSION_OFFSET: usize = header_page::FORMAT_VERSION.offset;
const HEADER_PAGE_SET_OFFSET: usize = header_page::PAGE_SET_ID.offset;
const HEADER_RECOVERY_RBA_OFFSET: usize = header_page::RECOVERY_RBA.offset;
const HEADER_PAGE_COUNT_OFFSET: usize = header_page::PAGE_COUNT.offset;
const HEADER_EXPANSION_COUNT_OFFSET: usize = header_page::EXPANSION_COUNT.offset;
const HEADER_QUEUE_MANAGER_ID_OFFSET: usize = header_page::QUEUE_MANAGER_ID.offset;
const HEADER_CREATION_TIME_OFFSET: usize = header_page::CREATION_TIME.offset;
const HEADER_FIELDS_END: usize = header_page::CREATION_TIME.end();

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
        bytes[HEADER_EYE_CATCHER].copy_from_slice(&PAGE_SET_HEADER_EYE_CATCHER);
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
    pub(crate) fn decode(page: &PageBytes) -> Result<PageSetHeader, String> {
        let bytes = &page.0;
        if page.page_type() != Some(PageType::PageSetHeader) {
            return Err(format!(
                "page 0 has page type {} and is not a page set header",
                bytes[6]
            ));
        }
        if bytes[HEADER_EYE_CATCHER] != PAGE_SET_HEADER_EYE_CATCHER {
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

/// The double-write file of the page set file at `page_set_path`: the same name with
/// [`DOUBLE_WRITE_SUFFIX`] appended (`PSID01.pageset` → `PSID01.pageset.dw`).
pub fn double_write_path(page_set_path: &Path) -> PathBuf {
    let mut name = page_set_path.as_os_str().to_owned();
    name.push(DOUBLE_WRITE_SUFFIX);
    PathBuf::from(name)
}

/// Blocks taken by the batch header and the descriptors of a batch of `entries` pages.
fn dw_descriptor_blocks(entries: usize) -> usize {
    (DW_BATCH_HEADER_SIZE + entries * DW_DESCRIPTOR_SIZE).div_ceil(PAGE_SIZE)
}

/// Bytes of a batch of `entries` pages (descriptor blocks and images).
fn dw_batch_bytes(entries: usize) -> usize {
    (dw_descriptor_blocks(entries) + entries) * PAGE_SIZE
}

/// Length of a double-write file with room for `slots` pages.
fn dw_file_length(slots: usize) -> u64 {
    DW_BATCH_OFFSET + dw_batch_bytes(slots) as u64
}

/// Checksum of a double-write entry: sequence number, page number, image.
fn dw_entry_checksum(sequence: u64, page: u32, image: &[u8]) -> u32 {
    let crc = crc32c::crc32c(&sequence.to_le_bytes());
    let crc = crc32c::crc32c_append(crc, &page.to_le_bytes());
    crc32c::crc32c_append(crc, image)
}

fn now_micros() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// The sequence number of the batch after one numbered `previous` (see the module
/// documentation: never reused across restarts).
fn next_dw_sequence(previous: u64) -> u64 {
    previous.saturating_add(1).max(now_micros())
}

/// Which incarnation of which page set a double-write file belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct DoubleWriteIdentity {
    page_set: PageSetId,
    queue_manager_id: u64,
    creation_time_micros: u64,
}

impl DoubleWriteIdentity {
    fn of(header: &PageSetHeader) -> DoubleWriteIdentity {
        DoubleWriteIdentity {
            page_set: header.page_set,
            queue_manager_id: header.queue_manager_id,
            creation_time_micros: header.creation_time_micros,
        }
    }

    /// The double-write file header block.
    fn encode(&self, slots: usize) -> Box<PageBytes> {
        let mut block = PageBytes::zeroed();
        let bytes = &mut block.0;
        bytes[DW_EYE_CATCHER].copy_from_slice(&DOUBLE_WRITE_EYE_CATCHER);
        put_u32(bytes, DW_FORMAT_VERSION_OFFSET, DOUBLE_WRITE_FORMAT_VERSION);
        bytes[DW_PAGE_SET_OFFSET] = self.page_set.0;
        put_u32(bytes, DW_SLOTS_OFFSET, slots as u32);
        put_u64(bytes, DW_QUEUE_MANAGER_ID_OFFSET, self.queue_manager_id);
        put_u64(bytes, DW_CREATION_TIME_OFFSET, self.creation_time_micros);
        let checksum = crc32c::crc32c(&bytes[DW_EYE_CATCHER.start..]);
        put_u32(bytes, DW_CHECKSUM_OFFSET, checksum);
        block
    }

    /// Decode a double-write file header block: the identity and the slot count.
    fn decode(block: &PageBytes) -> Option<(DoubleWriteIdentity, usize)> {
        let bytes = &block.0;
        if get_u32(bytes, DW_CHECKSUM_OFFSET) != crc32c::crc32c(&bytes[DW_EYE_CATCHER.start..])
            || bytes[DW_EYE_CATCHER] != DOUBLE_WRITE_EYE_CATCHER
            || get_u32(bytes, DW_FORMAT_VERSION_OFFSET) != DOUBLE_WRITE_FORMAT_VERSION
        {
            return None;
        }
        let slots = get_u32(bytes, DW_SLOTS_OFFSET) as usize;
        if slots == 0 {
            return None;
        }
        Some((
            DoubleWriteIdentity {
                page_set: PageSetId(bytes[DW_PAGE_SET_OFFSET]),
                queue_manager_id: get_u64(bytes, DW_QUEUE_MANAGER_ID_OFFSET),
                creation_time_micros: get_u64(bytes, DW_CREATION_TIME_OFFSET),
            },
            slots,
        ))
    }
}

/// A page set's double-write area: the open file and the state of the protocol. Guarded by
/// the page set's double-write mutex.
struct DoubleWriteArea {
    file: Arc<dyn StorageFile>,
    /// Most pages a batch may hold.
    slots: usize,
    /// Sequence number of the last batch written (or found at open).
    sequence: u64,
    /// In-place writes were issued since the page set was last synced under this mutex: the
    /// page set must be synced before the area is overwritten.
    in_place_unsynced: bool,
    /// The batch being written: header, descriptors and images, in file layout. Grown to the
    /// largest batch written and kept.
    buffer: Vec<u8>,
    /// Page numbers of the batch staged now, ascending (empty when none is).
    staged: Vec<u32>,
}

impl DoubleWriteArea {
    fn new(file: Arc<dyn StorageFile>, sequence: u64) -> DoubleWriteArea {
        DoubleWriteArea {
            file,
            slots: DOUBLE_WRITE_SLOTS,
            sequence,
            in_place_unsynced: false,
            buffer: Vec::new(),
            staged: Vec::new(),
        }
    }

    /// Step 1 of the protocol: seal `pages` (`pages[i]` is page `numbers[i]`, ascending),
    /// write them as one batch to the double-write file and sync it. The caller has checked
    /// that the pages belong where they go. On success the batch is *staged*: the caller must
    /// write it in place and sync the page set (`in_place_unsynced` is set).
    fn stage(
        &mut self,
        page_set_file: &dyn StorageFile,
        page_set: PageSetId,
        pages: &mut [PageBytes],
        numbers: &[PageNumber],
    ) -> StorageResult<()> {
        assert_eq!(pages.len(), numbers.len(), "one page number per page");
        assert!(
            !pages.is_empty() && pages.len() <= self.slots,
            "a double-write batch holds 1..={} pages, not {}",
            self.slots,
            pages.len()
        );
        if self.in_place_unsynced {
            // The previous batch's in-place writes may not be durable (its sync failed or was
            // never reached). Its images are about to be overwritten here, so make them
            // durable first.
            page_set_file
                .sync_data()
                .map_err(|error| StorageError::io(page_set_file.path(), "sync page set", error))?;
            self.in_place_unsynced = false;
        }
        self.staged.clear();
        let sequence = next_dw_sequence(self.sequence);
        self.sequence = sequence;
        let entries = pages.len();
        let head_bytes = dw_descriptor_blocks(entries) * PAGE_SIZE;
        let total = head_bytes + entries * PAGE_SIZE;
        if self.buffer.len() < total {
            self.buffer.resize(total, 0);
        }
        let (head, images) = self.buffer[..total].split_at_mut(head_bytes);
        head.fill(0);
        head[DW_BATCH_MAGIC].copy_from_slice(&DOUBLE_WRITE_BATCH_MAGIC);
        put_u64(head, DW_BATCH_SEQUENCE_OFFSET, sequence);
        put_u32(head, DW_BATCH_COUNT_OFFSET, entries as u32);
        head[DW_BATCH_PAGE_SET_OFFSET] = page_set.0;
        let checksum = crc32c::crc32c(&head[DW_BATCH_MAGIC.start..DW_BATCH_HEADER_SIZE]);
        put_u32(head, DW_BATCH_CHECKSUM_OFFSET, checksum);
        for (index, (page, number)) in pages.iter_mut().zip(numbers).enumerate() {
            page.seal();
            let descriptor = DW_BATCH_HEADER_SIZE + index * DW_DESCRIPTOR_SIZE;
            put_u32(head, descriptor + DW_DESCRIPTOR_PAGE_OFFSET, number.0);
            put_u32(
                head,
                descriptor + DW_DESCRIPTOR_CHECKSUM_OFFSET,
                dw_entry_checksum(sequence, number.0, &page.0),
            );
            images[index * PAGE_SIZE..(index + 1) * PAGE_SIZE].copy_from_slice(&page.0);
        }
        self.file
            .write_at(&self.buffer[..total], DW_BATCH_OFFSET)
            .map_err(|error| {
                StorageError::io(self.file.path(), "write double-write batch", error)
            })?;
        self.file
            .sync_data()
            .map_err(|error| StorageError::io(self.file.path(), "sync double-write file", error))?;
        self.staged.extend(numbers.iter().map(|number| number.0));
        self.in_place_unsynced = true;
        Ok(())
    }

    /// The staged image of page `number`, if it is staged.
    fn staged_image(&self, number: u32) -> Option<&[u8]> {
        let index = self.staged.binary_search(&number).ok()?;
        let offset = (dw_descriptor_blocks(self.staged.len()) + index) * PAGE_SIZE;
        Some(&self.buffer[offset..offset + PAGE_SIZE])
    }

    /// Steps 2 and 3 for a writer that writes the staged batch in place itself: write `pages`
    /// (staged, contiguous from `first`) in place and sync the page set.
    fn write_in_place_and_sync(
        &mut self,
        page_set_file: &dyn StorageFile,
        first: PageNumber,
        pages: &[PageBytes],
    ) -> StorageResult<()> {
        page_set_file
            .write_at(pages_as_bytes(pages), page_offset(first.0))
            .map_err(|error| StorageError::io(page_set_file.path(), "write pages", error))?;
        page_set_file
            .sync_data()
            .map_err(|error| StorageError::io(page_set_file.path(), "sync page set", error))?;
        self.in_place_unsynced = false;
        self.staged.clear();
        Ok(())
    }

    /// The whole protocol for a run of contiguous pages from `first`, split into batches of at
    /// most `slots` pages.
    fn write_protected(
        &mut self,
        page_set_file: &dyn StorageFile,
        page_set: PageSetId,
        first: PageNumber,
        pages: &mut [PageBytes],
    ) -> StorageResult<()> {
        let slots = self.slots;
        for (chunk_index, chunk) in pages.chunks_mut(slots).enumerate() {
            let chunk_first = first.0 + (chunk_index * slots) as u32;
            let numbers: Vec<PageNumber> = (chunk_first..chunk_first + chunk.len() as u32)
                .map(PageNumber)
                .collect();
            self.stage(page_set_file, page_set, chunk, &numbers)?;
            self.write_in_place_and_sync(page_set_file, PageNumber(chunk_first), chunk)?;
        }
        Ok(())
    }

    /// Write a fresh file header (and an empty batch area) and sync: the file then holds no
    /// entries.
    fn initialise(
        file: &dyn StorageFile,
        identity: &DoubleWriteIdentity,
        slots: usize,
    ) -> StorageResult<()> {
        let mut blocks = vec![0u8; 2 * PAGE_SIZE];
        blocks[..PAGE_SIZE].copy_from_slice(&identity.encode(slots).0);
        file.set_len(dw_file_length(slots))
            .map_err(|error| StorageError::io(file.path(), "reserve double-write file", error))?;
        file.write_at(&blocks, 0).map_err(|error| {
            StorageError::io(file.path(), "write double-write file header", error)
        })?;
        file.sync_data()
            .map_err(|error| StorageError::io(file.path(), "sync double-write file", error))
    }
}

/// What `open` found in a double-write file.
struct DoubleWriteContents {
    file: Arc<dyn StorageFile>,
    /// The file header, if it is valid.
    header: Option<(DoubleWriteIdentity, usize)>,
    /// Sequence number of the batch found (0 if none).
    sequence: u64,
    /// Valid entries of that batch: page number and image.
    entries: Vec<(PageNumber, Box<PageBytes>)>,
}

impl DoubleWriteContents {
    fn read(fs: &dyn FileSystem, path: &Path) -> StorageResult<DoubleWriteContents> {
        let file = fs
            .open(path, OpenMode::Existing)
            .map_err(|error| StorageError::io(path, "open double-write file", error))?;
        let length = file
            .len()
            .map_err(|error| StorageError::io(path, "size double-write file", error))?;
        let mut contents = DoubleWriteContents {
            file,
            header: None,
            sequence: 0,
            entries: Vec::new(),
        };
        if length < DW_BATCH_OFFSET + PAGE_SIZE as u64 {
            return Ok(contents);
        }
        let mut block = PageBytes::zeroed();
        contents
            .file
            .read_at(&mut block.0, 0)
            .map_err(|error| StorageError::io(path, "read double-write file", error))?;
        contents.header = DoubleWriteIdentity::decode(&block);
        let Some((_, slots)) = contents.header else {
            return Ok(contents);
        };
        contents
            .file
            .read_at(&mut block.0, DW_BATCH_OFFSET)
            .map_err(|error| StorageError::io(path, "read double-write file", error))?;
        let head = &block.0;
        let entries = get_u32(head, DW_BATCH_COUNT_OFFSET) as usize;
        if get_u32(head, DW_BATCH_CHECKSUM_OFFSET)
            != crc32c::crc32c(&head[DW_BATCH_MAGIC.start..DW_BATCH_HEADER_SIZE])
            || head[DW_BATCH_MAGIC] != DOUBLE_WRITE_BATCH_MAGIC
            || entries == 0
            || entries > slots
        {
            return Ok(contents);
        }
        let sequence = get_u64(head, DW_BATCH_SEQUENCE_OFFSET);
        contents.sequence = sequence;
        // Entries whose image lies past the end of the file were never written.
        let available = usize::try_from(length - DW_BATCH_OFFSET)
            .unwrap_or(usize::MAX)
            .min(dw_batch_bytes(entries));
        let mut batch = vec![0u8; available];
        contents
            .file
            .read_at(&mut batch, DW_BATCH_OFFSET)
            .map_err(|error| StorageError::io(path, "read double-write file", error))?;
        let head_bytes = dw_descriptor_blocks(entries) * PAGE_SIZE;
        for index in 0..entries {
            let descriptor = DW_BATCH_HEADER_SIZE + index * DW_DESCRIPTOR_SIZE;
            let image_offset = head_bytes + index * PAGE_SIZE;
            if descriptor + DW_DESCRIPTOR_SIZE > batch.len()
                || image_offset + PAGE_SIZE > batch.len()
            {
                break;
            }
            let number = get_u32(&batch, descriptor + DW_DESCRIPTOR_PAGE_OFFSET);
            let stored = get_u32(&batch, descriptor + DW_DESCRIPTOR_CHECKSUM_OFFSET);
            let image = &batch[image_offset..image_offset + PAGE_SIZE];
            if stored != dw_entry_checksum(sequence, number, image) {
                continue;
            }
            let mut page = PageBytes::zeroed();
            page.0.copy_from_slice(image);
            contents.entries.push((PageNumber(number), page));
        }
        Ok(contents)
    }

    /// The valid entry for page `number` (the last, if the batch named it twice).
    fn entry(&self, number: PageNumber) -> Option<&PageBytes> {
        self.entries
            .iter()
            .rev()
            .find(|(page, _)| *page == number)
            .map(|(_, image)| image.as_ref())
    }
}

/// A batch of page images made durable in the page set's double-write file
/// ([`PageSet::stage_pages`]), to be written in place. Holds the page set's double-write
/// mutex until [`StagedWrite::finish`] or drop. Shared by reference, several threads may
/// write its runs at once.
pub struct StagedWrite<'a> {
    page_set: &'a PageSet,
    area: MutexGuard<'a, DoubleWriteArea>,
}

impl StagedWrite<'_> {
    /// Step 2: write a run of staged pages, contiguous from `first`, in place in one write
    /// call. Every page must have been staged, with exactly the bytes staged (the sealed
    /// pages [`PageSet::stage_pages`] left in the caller's buffer); a page that was not staged
    /// is refused.
    pub fn write_in_place(&self, first: PageNumber, pages: &[PageBytes]) -> StorageResult<()> {
        for (index, page) in pages.iter().enumerate() {
            let number = first.0 + index as u32;
            match self.area.staged_image(number) {
                Some(image) => debug_assert!(
                    image == page.0.as_slice(),
                    "page {number} differs from its double-write image"
                ),
                None => {
                    return Err(StorageError::invalid(format!(
                        "page {number} of page set {} was not staged in its double-write file; \
                         refusing to write it in place in {}",
                        self.page_set.id,
                        self.page_set.path.display()
                    )))
                }
            }
        }
        self.page_set
            .file
            .write_at(pages_as_bytes(pages), page_offset(first.0))
            .map_err(|error| StorageError::io(&self.page_set.path, "write pages", error))
    }

    /// Step 3: sync the page set, then release the double-write area. If this fails (or the
    /// staged write is dropped instead), the next batch syncs the page set before it reuses
    /// the area.
    pub fn finish(mut self) -> StorageResult<()> {
        self.page_set.sync()?;
        self.area.in_place_unsynced = false;
        self.area.staged.clear();
        Ok(())
    }
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
    /// EXPAND, changed at run time by ALTER PSID (read under the header lock by `expand`).
    expand: Mutex<Expand>,
    secondary_pages: u32,
    maximum_pages: u32,
    /// The in-memory copy of page 0, replaced only after the disk copy is written and synced.
    /// Holding this lock serialises every change to page 0.
    header: Mutex<PageSetHeader>,
    /// `header.page_count`, readable without the lock.
    page_count: AtomicU32,
    /// The double-write area. Holding this lock serialises every write to the page set file.
    double_write: Mutex<DoubleWriteArea>,
    /// Pages `open` rewrote from the double-write file.
    repaired: Vec<PageNumber>,
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
        let dw_path = double_write_path(path);
        let result = Self::format_file(
            fs,
            file.as_ref(),
            &dw_path,
            page_set,
            pages,
            queue_manager_id,
            progress,
        )
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
            let _ = fs.remove_file(&dw_path);
        }
        result
    }

    fn format_file(
        fs: &dyn FileSystem,
        file: &dyn StorageFile,
        dw_path: &Path,
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
        let creation_time_micros = now_micros();
        let header = PageSetHeader {
            page_set,
            format_version: PAGE_SET_FORMAT_VERSION,
            recovery_rba: Rba::ZERO,
            page_count: pages,
            expansion_count: 0,
            queue_manager_id,
            creation_time_micros,
        };
        // A double-write file left behind by an earlier page set of this name belongs to
        // another incarnation: start afresh.
        if fs.exists(dw_path) {
            fs.remove_file(dw_path).map_err(|error| {
                StorageError::io(dw_path, "remove old double-write file", error)
            })?;
        }
        let dw_file = create_double_write_file(fs, dw_path, &DoubleWriteIdentity::of(&header))?;
        let mut area = DoubleWriteArea::new(dw_file, 0);
        write_header(&mut area, file, &header)
    }

    /// Open a formatted page set and check that it is page set `page_set`.
    /// `expand`, `secondary_pages` and `maximum_pages` govern [`PageSet::expand`].
    ///
    /// Two phases: read (and if torn, repair) the header page, then restore the pages the
    /// double-write file holds and make the double-write area ready for reuse.
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
        let length = file
            .len()
            .map_err(|error| StorageError::io(path, "size page set", error))?;
        if length < PAGE_SIZE as u64 {
            return Err(not_usable(
                path,
                page_set,
                format!("the file is {length} bytes, shorter than one page"),
            ));
        }
        let dw_path = double_write_path(path);
        let double_write = if fs.exists(&dw_path) {
            Some(DoubleWriteContents::read(fs, &dw_path)?)
        } else {
            None
        };
        let mut repaired = Vec::new();
        let header = read_header_page(
            file.as_ref(),
            path,
            page_set,
            length,
            double_write.as_ref(),
            &mut repaired,
        )?;
        let area = match double_write {
            Some(contents) => restore_double_write(
                file.as_ref(),
                path,
                &dw_path,
                &header,
                length,
                contents,
                &mut repaired,
            )?,
            None => DoubleWriteArea::new(
                create_double_write_file(fs, &dw_path, &DoubleWriteIdentity::of(&header))?,
                0,
            ),
        };
        debug_assert!(
            repaired
                .iter()
                .skip(1)
                .all(|number| *number != PAGE_SET_HEADER_PAGE),
            "the header page is repaired first or not at all"
        );
        Ok(Arc::new(PageSet {
            id: page_set,
            path: path.to_path_buf(),
            file,
            expand: Mutex::new(expand),
            secondary_pages,
            maximum_pages: maximum_pages.min(PAGE_SET_PAGES_MAX),
            page_count: AtomicU32::new(header.page_count),
            header: Mutex::new(header),
            double_write: Mutex::new(area),
            repaired,
        }))
    }

    /// Pages [`PageSet::open`] found damaged by an interrupted write and rewrote from the
    /// double-write file, in the order repaired (page 0 first, if it was one).
    pub fn repaired_pages(&self) -> &[PageNumber] {
        &self.repaired
    }

    /// The page set's double-write file.
    pub fn double_write_path(&self) -> PathBuf {
        double_write_path(&self.path)
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
        *lock(&self.expand)
    }

    /// ALTER PSID EXPAND: the policy the next expansion uses.
    pub fn set_expand_policy(&self, expand: Expand) {
        *lock(&self.expand) = expand;
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

    /// Write a run of contiguous pages, starting at `first`, with the double-write protocol
    /// (module documentation): to the double-write file, then in place in one write call, then
    /// sync. Each page is sealed into a staging copy, so the caller's bytes are not modified.
    /// The pages are durable when this returns `Ok`.
    pub fn write_pages(&self, first: PageNumber, pages: &[&PageBytes]) -> StorageResult<()> {
        let mut staging: Vec<PageBytes> = pages.iter().map(|&page| page.clone()).collect();
        self.write_staged_pages(first, &mut staging)
    }

    /// Like [`PageSet::write_pages`], for a caller that has already copied the pages into its
    /// own staging buffer (the buffer pool does). The pages are sealed in place, then written
    /// with the double-write protocol (batches of at most [`DOUBLE_WRITE_SLOTS`] pages, each
    /// staged in the double-write file, written in place in one call and synced).
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
            let formatted_as_itself = page.0[crate::page::header::MAGIC.range()] == PAGE_MAGIC
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
        }
        lock(&self.double_write).write_protected(self.file.as_ref(), self.id, first, pages)
    }

    /// Step 1 of the write protocol for a writer that writes the in-place runs itself, possibly
    /// from several threads (the deferred write process): check and seal `pages`, where
    /// `pages[i]` is page `numbers[i]` (strictly ascending, at most [`DOUBLE_WRITE_SLOTS`]),
    /// write them to the double-write file and sync it. The caller then writes runs of the
    /// sealed pages with [`StagedWrite::write_in_place`] and ends with
    /// [`StagedWrite::finish`], which syncs the page set. The returned value holds this page
    /// set's double-write mutex: a writer staging batches of several page sets stages them in
    /// ascending page set order.
    ///
    /// The contract of [`PageSet::write_staged_pages`] applies to each page.
    pub fn stage_pages(
        &self,
        pages: &mut [PageBytes],
        numbers: &[PageNumber],
    ) -> StorageResult<StagedWrite<'_>> {
        if pages.len() != numbers.len() || pages.is_empty() || pages.len() > DOUBLE_WRITE_SLOTS {
            return Err(StorageError::invalid(format!(
                "a double-write batch of page set {} holds 1-{DOUBLE_WRITE_SLOTS} pages, each with \
                 its page number ({} pages, {} numbers)",
                self.id,
                pages.len(),
                numbers.len()
            )));
        }
        let page_count = self.page_count();
        for (index, (page, number)) in pages.iter().zip(numbers).enumerate() {
            let ascending = index == 0 || numbers[index - 1].0 < number.0;
            if !ascending || number.0 == PAGE_SET_HEADER_PAGE.0 || number.0 >= page_count {
                return Err(StorageError::invalid(format!(
                    "page {number} is out of order or outside the data pages 1..{page_count} of \
                     page set {} ({})",
                    self.id,
                    self.path.display()
                )));
            }
            let formatted_as_itself = page.0[crate::page::header::MAGIC.range()] == PAGE_MAGIC
                && page.page_number() == *number
                && page.0[20] == self.id.0;
            if !formatted_as_itself && !page.is_all_zero() {
                return Err(StorageError::invalid(format!(
                    "page {number} of page set {} is not formatted as page {number} of that page \
                     set; refusing to write it to {}",
                    self.id,
                    self.path.display()
                )));
            }
        }
        let mut area = lock(&self.double_write);
        area.stage(self.file.as_ref(), self.id, pages, numbers)?;
        Ok(StagedWrite {
            page_set: self,
            area,
        })
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
        let growth = match self.expand_policy() {
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
        write_header(&mut lock(&self.double_write), self.file.as_ref(), &expanded)?;
        *header = expanded;
        self.page_count.store(new_count, Ordering::Release);
        Ok(new_count)
    }

    /// Record the media recovery RBA in the header page, and sync it.
    pub fn set_recovery_rba(&self, rba: Rba) -> StorageResult<()> {
        let mut header = lock(&self.header);
        let mut updated = header.clone();
        updated.recovery_rba = rba;
        write_header(&mut lock(&self.double_write), self.file.as_ref(), &updated)?;
        *header = updated;
        Ok(())
    }
}

/// Write and sync page 0, with the double-write protocol.
fn write_header(
    area: &mut DoubleWriteArea,
    file: &dyn StorageFile,
    header: &PageSetHeader,
) -> StorageResult<()> {
    let mut page = PageBytes::zeroed();
    header.encode(&mut page);
    area.write_protected(
        file,
        header.page_set,
        PAGE_SET_HEADER_PAGE,
        std::slice::from_mut(&mut page),
    )
}

/// Create, initialise and sync a double-write file, and sync its directory.
fn create_double_write_file(
    fs: &dyn FileSystem,
    path: &Path,
    identity: &DoubleWriteIdentity,
) -> StorageResult<Arc<dyn StorageFile>> {
    let file = fs
        .open(path, OpenMode::CreateNew)
        .map_err(|error| StorageError::io(path, "create double-write file", error))?;
    DoubleWriteArea::initialise(file.as_ref(), identity, DOUBLE_WRITE_SLOTS)?;
    if let Some(directory) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs.sync_directory(directory)
            .map_err(|error| StorageError::io(directory, "sync directory", error))?;
    }
    Ok(file)
}

/// The double-write copy of page 0, if the file holds one that is a valid header page of the
/// incarnation of page set `page_set` the double-write file belongs to.
fn header_copy(contents: &DoubleWriteContents, page_set: PageSetId) -> Option<&PageBytes> {
    let (identity, _) = contents.header?;
    let copy = contents.entry(PAGE_SET_HEADER_PAGE)?;
    copy.verify(page_set, PAGE_SET_HEADER_PAGE).ok()?;
    let decoded = PageSetHeader::decode(copy).ok()?;
    (DoubleWriteIdentity::of(&decoded) == identity).then_some(copy)
}

/// The error for a file that cannot serve as page set `page_set`.
fn not_usable(path: &Path, page_set: PageSetId, detail: String) -> StorageError {
    StorageError::CorruptMetadata {
        path: path.to_path_buf(),
        detail: format!("not usable as page set {page_set}: {detail}"),
    }
}

/// [`PageSet::open`]'s first phase: read page 0, repair it from the double-write file's copy
/// if an interrupted write tore it (recorded in `repaired`), and check that its header names
/// `page_set` and fits the file's `length`.
fn read_header_page(
    file: &dyn StorageFile,
    path: &Path,
    page_set: PageSetId,
    length: u64,
    double_write: Option<&DoubleWriteContents>,
    repaired: &mut Vec<PageNumber>,
) -> StorageResult<PageSetHeader> {
    let unusable = |detail: String| not_usable(path, page_set, detail);
    let mut page = PageBytes::zeroed();
    file.read_at(&mut page.0, 0)
        .map_err(|error| StorageError::io(path, "read page set header", error))?;
    if page.is_all_zero() {
        return Err(unusable(
            "page 0 is empty; the page set was never formatted".to_string(),
        ));
    }
    let found_page_set = page.0[20];
    if page.0[crate::page::header::MAGIC.range()] == PAGE_MAGIC && found_page_set != page_set.0 {
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
        let Some(copy) = double_write.and_then(|contents| header_copy(contents, page_set)) else {
            return Err(StorageError::CorruptPage {
                page_set,
                page: PAGE_SET_HEADER_PAGE,
                path: path.to_path_buf(),
                detail: defect.to_string(),
            });
        };
        repair_page(file, page_set, PAGE_SET_HEADER_PAGE, copy, &defect)?;
        repaired.push(PAGE_SET_HEADER_PAGE);
        page.0.copy_from_slice(&copy.0);
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
    Ok(header)
}

/// [`PageSet::open`]'s second phase: rewrite every torn page the double-write file holds a
/// good image of (recorded in `repaired`, made durable before the area may be reused), and
/// return the area ready for reuse. A double-write file of another page set or format, or
/// with a damaged header, is reinitialised (CSQP071W).
fn restore_double_write(
    file: &dyn StorageFile,
    path: &Path,
    dw_path: &Path,
    header: &PageSetHeader,
    length: u64,
    contents: DoubleWriteContents,
    repaired: &mut Vec<PageNumber>,
) -> StorageResult<DoubleWriteArea> {
    let page_set = header.page_set;
    let identity = DoubleWriteIdentity::of(header);
    if !contents.header.is_some_and(|(found, _)| found == identity) {
        eprintln!(
            "CSQP071W page set {page_set}: double-write file {} {}; reinitialising it",
            dw_path.display(),
            if contents.header.is_some() {
                "belongs to another page set or an earlier format of this one"
            } else {
                "has a damaged or incomplete header"
            }
        );
        DoubleWriteArea::initialise(contents.file.as_ref(), &identity, DOUBLE_WRITE_SLOTS)?;
        return Ok(DoubleWriteArea::new(contents.file, 0));
    }
    let file_pages = length / PAGE_SIZE as u64;
    let mut page = PageBytes::zeroed();
    for (number, image) in &contents.entries {
        if number.0 == PAGE_SET_HEADER_PAGE.0
            || number.0 >= header.page_count
            || u64::from(number.0) >= file_pages
        {
            continue;
        }
        file.read_at(&mut page.0, page_offset(number.0))
            .map_err(|error| StorageError::io(path, "read page", error))?;
        let Err(defect) = page.verify(page_set, *number) else {
            continue;
        };
        if image.verify(page_set, *number).is_err() {
            continue;
        }
        repair_page(file, page_set, *number, image, &defect)?;
        repaired.push(*number);
    }
    if !repaired.is_empty() {
        // The repairs must be durable before the double-write area may be reused.
        file.sync_data()
            .map_err(|error| StorageError::io(path, "sync repaired page set", error))?;
    }
    if contents
        .header
        .is_some_and(|(_, slots)| slots != DOUBLE_WRITE_SLOTS)
    {
        DoubleWriteArea::initialise(contents.file.as_ref(), &identity, DOUBLE_WRITE_SLOTS)?;
    }
    Ok(DoubleWriteArea::new(contents.file, contents.sequence))
}

/// Rewrite a damaged page from its double-write copy (not synced: the caller syncs) and
/// report it.
fn repair_page(
    file: &dyn StorageFile,
    page_set: PageSetId,
    page: PageNumber,
    copy: &PageBytes,
    defect: &crate::page::PageDefect,
) -> StorageResult<()> {
    file.write_at(&copy.0, page_offset(page.0))
        .map_err(|error| StorageError::io(file.path(), "repair page", error))?;
    eprintln!(
        "CSQP070W page set {page_set} page {page} in {} was damaged by an interrupted write \
         ({defect}); repaired from its double-write copy",
        file.path().display()
    );
    Ok(())
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

    /// Every field of `layout` holds, in `bytes`, the value `expected` gives for its name
    /// (integers), or the given bytes.
    fn assert_fields(layout: &[Field], bytes: &[u8], expected: impl Fn(&str) -> FieldValue) {
        crate::layout::check_contiguous(layout).unwrap();
        let mut reserved_seen = 0;
        for field in layout {
            match expected(field.name) {
                FieldValue::Integer(value) => assert_eq!(field.get(bytes), value, "{}", field.name),
                FieldValue::Bytes(value) => {
                    assert_eq!(&bytes[field.range()], value, "{}", field.name)
                }
                FieldValue::Zero => {
                    reserved_seen += 1;
                    assert!(
                        bytes[field.range()].iter().all(|&b| b == 0),
                        "{}",
                        field.name
                    )
                }
                FieldValue::Skip => {}
            }
        }
        assert!(
            reserved_seen > 0,
            "the layout's reserved fields were checked"
        );
    }

    enum FieldValue {
        Integer(u64),
        Bytes(&'static [u8]),
        Zero,
        Skip,
    }

    #[test]
    fn header_page_layout_is_where_the_encoder_writes() {
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
        assert_fields(&PAGE_SET_HEADER_LAYOUT, &page.0, |name| match name {
            "common page header" => FieldValue::Skip,
            "eye-catcher" => FieldValue::Bytes(b"FRPSHDR\0"),
            "format version" => FieldValue::Integer(1),
            "page set id" => FieldValue::Integer(7),
            "reserved" => FieldValue::Zero,
            "media recovery RBA" => FieldValue::Integer(0x1122_3344_5566_7788),
            "page count" => FieldValue::Integer(4096),
            "expansion count" => FieldValue::Integer(3),
            "queue manager id" => FieldValue::Integer(0xDEAD_BEEF_0000_0001),
            "creation time" => FieldValue::Integer(1_700_000_000_000_000),
            other => panic!("field {other} not checked"),
        });
    }

    #[test]
    fn double_write_header_layout_is_where_the_encoder_writes() {
        let identity = DoubleWriteIdentity {
            page_set: PageSetId(12),
            queue_manager_id: 0x0102_0304_0506_0708,
            creation_time_micros: 1_700_000_000_000_001,
        };
        let block = identity.encode(DOUBLE_WRITE_SLOTS);
        let checksum = u64::from(crc32c::crc32c(&block.0[4..]));
        assert_fields(&DOUBLE_WRITE_HEADER_LAYOUT, &block.0, |name| match name {
            "checksum" => FieldValue::Integer(checksum),
            "eye-catcher" => FieldValue::Bytes(b"FRDWHDR\0"),
            "format version" => FieldValue::Integer(1),
            "page set id" => FieldValue::Integer(12),
            "reserved" => FieldValue::Zero,
            "slots" => FieldValue::Integer(DOUBLE_WRITE_SLOTS as u64),
            "queue manager id" => FieldValue::Integer(0x0102_0304_0506_0708),
            "creation time" => FieldValue::Integer(1_700_000_000_000_001),
            other => panic!("field {other} not checked"),
        });
        assert_eq!(
            DoubleWriteIdentity::decode(&block),
            Some((identity, DOUBLE_WRITE_SLOTS))
        );
    }
}
