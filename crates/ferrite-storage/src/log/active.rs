//! Active log files: the ring of pre-allocated files the logger writes (MQ's active log data
//! sets), one ring per copy (two copies with TWOACTV).
//!
//! Names: `active/LOGCOPY<c>.DS<nn>` for copy c (1 or 2) and data set number nn (01 ..= 310).
//!
//! ## Active log file layout (format version 2)
//!
//! A 4 KiB header page, then the data area of `active_log_size_mib` MiB, then two ping-pong
//! slots of [`PING_PONG_SLOT_BYTES`] each, all reserved at creation (`set_len`, which
//! pre-allocates blocks so a log write never fails for space, then zero writes over the data
//! area and the slots, as MQ's CSQ4LFMT pre-formats). The data area holds the log bytes of the
//! file's current use: log RBA `r` is at file offset `4096 + (r − start_rba)`. Because every use
//! starts on a 4 KiB RBA boundary, log pages are file pages.
//!
//! **A log page is written in place once per use, when it is final** (full, or the last page of
//! the file's use). The partially filled current page is written instead to one of the two
//! ping-pong slots, alternately (see [`PingPongSlot`]): so no write ever overwrites the only
//! durable image of a record, the last synced image of the current page always survives in the
//! other slot, and both dual copies can be written and synced in parallel. Readers (restart's
//! scan, `ferrite log print/verify`, the log manager's own readers) lay the valid slot images
//! over the pages they read (`log/current_page.rs`). Archives copy the data area only: every
//! page of a full file is final, in place.
//!
//! Format version 1 (no slots; the partial page rewritten in place) is converted when a log
//! manager opens it for writing: the file is extended by the two slots, zeroed (no slot image:
//! the partial page of a version 1 log is in place, where version 1 wrote it), and its header
//! rewritten as version 2. Read-only opens read a version 1 file as it is.
//!
//! ## Header page (little-endian), rewritten and synced each time the file is (re)used
//!
//! Laid out by [`ACTIVE_LOG_HEADER_LAYOUT`] and described field by field in `docs/formats.md`
//! ("Active log file"): magic [`ACTIVE_LOG_MAGIC`], format version, copy number, data set
//! number, the size of the data area, the start RBA of the current use ([`RBA_NEVER_USED`] if
//! never used), the BSDS's creation time (ties the file to its queue manager) and a CRC-32C of
//! the bytes before it; the rest of the page is zero.
//!
//! The header of the next file is written and synced only after every byte of the previous file
//! is durable, and before any byte of the new use is written. So at restart the file whose header
//! has the highest start RBA is the current one, every other file's range ends where its ring
//! successor's begins, and a bad record can only be the end of the log in the current file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{StorageError, StorageResult};
use crate::vfs::{FileSystem, OpenMode, StorageFile};

use super::LOG_PAGE_BYTES;
use crate::layout::{layout_bytes, Field};

/// Fields of the active log header page (see `docs/formats.md`).
pub mod header {
    use crate::layout::{Encoding, Field};

    /// [`super::ACTIVE_LOG_MAGIC`].
    pub const MAGIC: Field = Field::new("magic", 0, 8, Encoding::Bytes);
    /// [`super::ACTIVE_LOG_FORMAT_VERSION`] (1 is converted on open for writing).
    pub const FORMAT_VERSION: Field = Field::new("format version", 8, 4, Encoding::U32Le);
    /// 1 or 2.
    pub const COPY_NUMBER: Field = Field::new("copy number", 12, 4, Encoding::U32Le);
    /// 1 ..= active log count.
    pub const DATA_SET_NUMBER: Field = Field::new("data set number", 16, 4, Encoding::U32Le);
    pub const RESERVED: Field = Field::new("reserved", 20, 4, Encoding::Bytes);
    /// Size of the data area in bytes.
    pub const DATA_BYTES: Field = Field::new("data bytes", 24, 8, Encoding::U64Le);
    /// RBA of the first byte of the current use; [`super::RBA_NEVER_USED`] if never used.
    pub const START_RBA: Field = Field::new("start RBA", 32, 8, Encoding::U64Le);
    /// The BSDS's `created_unix_seconds`.
    pub const CREATION_TIME: Field = Field::new("creation time", 40, 8, Encoding::U64Le);
    /// CRC-32C of bytes 0..48.
    pub const CHECKSUM: Field = Field::new("checksum", 48, 4, Encoding::U32Le);
    pub const ZERO: Field = Field::new("zero", 52, 4044, Encoding::Bytes);
}

/// The active log header page, field by field in offset order.
pub const ACTIVE_LOG_HEADER_LAYOUT: [Field; 10] = [
    header::MAGIC,
    header::FORMAT_VERSION,
    header::COPY_NUMBER,
    header::DATA_SET_NUMBER,
    header::RESERVED,
    header::DATA_BYTES,
    header::START_RBA,
    header::CREATION_TIME,
    header::CHECKSUM,
    header::ZERO,
];
const _: () = assert!(layout_bytes(&ACTIVE_LOG_HEADER_LAYOUT) == LOG_PAGE_BYTES);

/// Fields of a ping-pong slot's header (see `docs/formats.md`).
pub mod slot {
    use crate::layout::{Encoding, Field};

    /// [`super::PING_PONG_MAGIC`].
    pub const MAGIC: Field = Field::new("magic", 0, 8, Encoding::Bytes);
    /// RBA of the log page this is an image of (4 KiB aligned).
    pub const PAGE_RBA: Field = Field::new("page RBA", 8, 8, Encoding::U64Le);
    /// Log bytes in the image, 1 ..= 4095.
    pub const BYTES: Field = Field::new("bytes", 16, 4, Encoding::U32Le);
    pub const RESERVED_1: Field = Field::new("reserved", 20, 4, Encoding::Bytes);
    /// CRC-32C of bytes 0..24 ‖ the image.
    pub const CHECKSUM: Field = Field::new("checksum", 24, 4, Encoding::U32Le);
    /// Zero, checked on reading.
    pub const RESERVED_2: Field = Field::new("reserved", 28, 4, Encoding::Bytes);
}

/// A ping-pong slot's header, field by field in offset order; the image follows it.
pub const PING_PONG_HEADER_LAYOUT: [Field; 6] = [
    slot::MAGIC,
    slot::PAGE_RBA,
    slot::BYTES,
    slot::RESERVED_1,
    slot::CHECKSUM,
    slot::RESERVED_2,
];

/// Sub-directory of the data directory holding the active logs.
pub const ACTIVE_DIRECTORY: &str = "active";
pub const ACTIVE_LOG_MAGIC: [u8; 8] = *b"FERLOGAC";
pub const ACTIVE_LOG_FORMAT_VERSION: u32 = 2;
/// The format before ping-pong slots, converted on open.
pub const ACTIVE_LOG_FORMAT_VERSION_1: u32 = 1;
/// Bytes of one ping-pong slot: a partial page (up to 4095 bytes) and its 32-byte header.
pub const PING_PONG_SLOT_BYTES: u64 = 2 * LOG_PAGE_BYTES as u64;
/// Ping-pong slots per active log file (written alternately).
pub const PING_PONG_SLOTS: usize = 2;
/// Magic of a ping-pong slot image.
pub const PING_PONG_MAGIC: [u8; 8] = *b"FERLOGPP";
/// Bytes of a ping-pong slot's header.
pub const PING_PONG_HEADER_BYTES: usize = layout_bytes(&PING_PONG_HEADER_LAYOUT);
/// Bytes of the header page at the start of every active log file.
pub const ACTIVE_LOG_HEADER_BYTES: u64 = LOG_PAGE_BYTES as u64;
/// Start RBA stored in the header of a file that has never been used.
pub const RBA_NEVER_USED: u64 = u64::MAX;

/// File name of copy `copy` (0-based) of data set `number` (0-based).
pub fn active_log_name(copy: usize, number: usize) -> String {
    format!("LOGCOPY{}.DS{:02}", copy + 1, number + 1)
}

/// Path relative to the data directory, as recorded in the BSDS.
pub fn active_log_relative_path(copy: usize, number: usize) -> String {
    format!("{ACTIVE_DIRECTORY}/{}", active_log_name(copy, number))
}

pub fn active_log_path(directory: &Path, copy: usize, number: usize) -> PathBuf {
    directory
        .join(ACTIVE_DIRECTORY)
        .join(active_log_name(copy, number))
}

/// The decoded header page.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ActiveLogHeader {
    pub copy_number: u32,
    pub data_set_number: u32,
    pub data_bytes: u64,
    /// `None` if the file has never been used.
    pub start_rba: Option<u64>,
    pub created_unix_seconds: u64,
}

impl ActiveLogHeader {
    pub fn encode(&self) -> Vec<u8> {
        let mut page = vec![0u8; ACTIVE_LOG_HEADER_BYTES as usize];
        page[header::MAGIC.range()].copy_from_slice(&ACTIVE_LOG_MAGIC);
        header::FORMAT_VERSION.put(&mut page, u64::from(ACTIVE_LOG_FORMAT_VERSION));
        header::COPY_NUMBER.put(&mut page, u64::from(self.copy_number));
        header::DATA_SET_NUMBER.put(&mut page, u64::from(self.data_set_number));
        header::DATA_BYTES.put(&mut page, self.data_bytes);
        header::START_RBA.put(&mut page, self.start_rba.unwrap_or(RBA_NEVER_USED));
        header::CREATION_TIME.put(&mut page, self.created_unix_seconds);
        let checksum = crc32c::crc32c(&page[..header::CHECKSUM.offset]);
        header::CHECKSUM.put(&mut page, u64::from(checksum));
        page
    }

    pub fn decode(page: &[u8]) -> Result<ActiveLogHeader, String> {
        if page.len() < header::CHECKSUM.end() || page[header::MAGIC.range()] != ACTIVE_LOG_MAGIC {
            return Err("not an active log (bad magic)".to_string());
        }
        if u64::from(crc32c::crc32c(&page[..header::CHECKSUM.offset])) != header::CHECKSUM.get(page)
        {
            return Err("header checksum mismatch".to_string());
        }
        let version = header::FORMAT_VERSION.get(page) as u32;
        if version != ACTIVE_LOG_FORMAT_VERSION && version != ACTIVE_LOG_FORMAT_VERSION_1 {
            return Err(format!("format version {version} is not supported"));
        }
        let start = header::START_RBA.get(page);
        Ok(ActiveLogHeader {
            copy_number: header::COPY_NUMBER.get(page) as u32,
            data_set_number: header::DATA_SET_NUMBER.get(page) as u32,
            data_bytes: header::DATA_BYTES.get(page),
            start_rba: (start != RBA_NEVER_USED).then_some(start),
            created_unix_seconds: header::CREATION_TIME.get(page),
        })
    }
}

/// One image of the partially filled current page in a ping-pong slot.
///
/// ## Slot format (little-endian), at file offset `4096 + data bytes + slot × 8192`
///
/// A 32-byte header ([`PING_PONG_HEADER_LAYOUT`], magic [`PING_PONG_MAGIC`]: the page RBA, the
/// number of log bytes in the image, a CRC-32C of the header's first 24 bytes ‖ the image) and
/// then the image, log bytes `[page RBA, page RBA + bytes)`. Described field by field in
/// `docs/formats.md` ("Ping-pong slot").
///
/// Written as one or two whole 4 KiB pages (header and image rounded up). A slot is *valid*
/// for a file's current use when its checksum holds and its page lies in the use's RBA range
/// (a slot left by an earlier use has a lower RBA). A torn slot write fails its checksum; the
/// other slot then still holds the previous synced image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PingPongSlot {
    pub page_rba: u64,
    pub image: Vec<u8>,
}

impl PingPongSlot {
    /// The slot's bytes, padded to whole pages.
    pub fn encode(&self) -> Vec<u8> {
        assert!(
            !self.image.is_empty()
                && self.image.len() < LOG_PAGE_BYTES
                && self.page_rba.is_multiple_of(LOG_PAGE_BYTES as u64),
            "ping-pong slot image of {} bytes at {:#X}: must be a partial page",
            self.image.len(),
            self.page_rba
        );
        let used = PING_PONG_HEADER_BYTES + self.image.len();
        let mut bytes = vec![0u8; used.div_ceil(LOG_PAGE_BYTES) * LOG_PAGE_BYTES];
        encode_slot(self.page_rba, &self.image, &mut bytes);
        bytes
    }

    /// Decode a slot; `Ok(None)` for an empty (zero) slot, `Err` for a damaged or torn one.
    pub fn decode(bytes: &[u8]) -> Result<Option<PingPongSlot>, String> {
        if bytes.len() < PING_PONG_HEADER_BYTES {
            return Err("slot shorter than its header".to_string());
        }
        if bytes[slot::MAGIC.range()] != PING_PONG_MAGIC {
            return if bytes[0..PING_PONG_HEADER_BYTES].iter().all(|b| *b == 0) {
                Ok(None)
            } else {
                Err("bad magic (torn or damaged slot)".to_string())
            };
        }
        let page_rba = slot::PAGE_RBA.get(bytes);
        let length = slot::BYTES.get(bytes) as usize;
        if length == 0 || length >= LOG_PAGE_BYTES || PING_PONG_HEADER_BYTES + length > bytes.len()
        {
            return Err(format!("bad image length {length}"));
        }
        if !page_rba.is_multiple_of(LOG_PAGE_BYTES as u64) {
            return Err(format!("page RBA {page_rba:#X} is not page aligned"));
        }
        if bytes[slot::RESERVED_2.range()] != [0; 4] {
            return Err("reserved header bytes are not zero (damaged slot)".to_string());
        }
        let image = &bytes[PING_PONG_HEADER_BYTES..PING_PONG_HEADER_BYTES + length];
        let stored = slot::CHECKSUM.get(bytes) as u32;
        if slot_checksum(&bytes[..slot::CHECKSUM.offset], image) != stored {
            return Err("checksum mismatch (torn or damaged slot)".to_string());
        }
        Ok(Some(PingPongSlot {
            page_rba,
            image: image.to_vec(),
        }))
    }
}

/// Encode a slot holding `image` (log bytes from `page_rba`) into `bytes` (at least
/// [`PING_PONG_SLOT_BYTES`]); returns how many bytes to write (whole pages).
pub fn encode_slot(page_rba: u64, image: &[u8], bytes: &mut [u8]) -> usize {
    debug_assert!(!image.is_empty() && image.len() < LOG_PAGE_BYTES);
    let used = PING_PONG_HEADER_BYTES + image.len();
    let padded = used.div_ceil(LOG_PAGE_BYTES) * LOG_PAGE_BYTES;
    bytes[slot::MAGIC.range()].copy_from_slice(&PING_PONG_MAGIC);
    slot::PAGE_RBA.put(bytes, page_rba);
    slot::BYTES.put(bytes, image.len() as u64);
    bytes[slot::RESERVED_1.offset..PING_PONG_HEADER_BYTES].fill(0);
    bytes[PING_PONG_HEADER_BYTES..used].copy_from_slice(image);
    bytes[used..padded].fill(0);
    let checksum = slot_checksum(&bytes[..slot::CHECKSUM.offset], image);
    slot::CHECKSUM.put(bytes, u64::from(checksum));
    padded
}

fn slot_checksum(header: &[u8], image: &[u8]) -> u32 {
    crc32c::crc32c_append(crc32c::crc32c(header), image)
}

/// File offset of ping-pong slot `slot` in an active log with `data_bytes` of data area.
pub fn ping_pong_slot_offset(data_bytes: u64, slot: usize) -> u64 {
    ACTIVE_LOG_HEADER_BYTES + data_bytes + slot as u64 * PING_PONG_SLOT_BYTES
}

/// Length of an active log file of format version 2.
pub fn active_log_file_bytes(data_bytes: u64) -> u64 {
    ACTIVE_LOG_HEADER_BYTES + data_bytes + PING_PONG_SLOTS as u64 * PING_PONG_SLOT_BYTES
}

/// Size of each zero write when pre-formatting an active log.
pub const PREFORMAT_CHUNK_BYTES: usize = 1024 * 1024;

/// The open files of the ring: `files[number][copy]`.
pub struct ActiveLogFiles {
    pub files: Vec<Vec<Arc<dyn StorageFile>>>,
    pub data_bytes: u64,
}

impl ActiveLogFiles {
    pub fn copies(&self) -> usize {
        self.files[0].len()
    }
    pub fn count(&self) -> usize {
        self.files.len()
    }

    /// Create, pre-allocate and pre-format every file of the ring; file 1 starts at RBA 0, the others are
    /// marked never used.
    pub fn create(
        fs: &dyn FileSystem,
        directory: &Path,
        count: usize,
        copies: usize,
        data_bytes: u64,
        created_unix_seconds: u64,
    ) -> StorageResult<()> {
        for number in 0..count {
            for copy in 0..copies {
                let path = active_log_path(directory, copy, number);
                let file = fs
                    .open(&path, OpenMode::CreateNew)
                    .map_err(|error| StorageError::io(&path, "create active log", error))?;
                file.set_len(active_log_file_bytes(data_bytes))
                    .map_err(|error| StorageError::io(&path, "allocate active log", error))?;
                // Pre-format (MQ's CSQ4LFMT): write zeros over the whole data area, so a log
                // write never converts unwritten extents, which would add file system journal
                // I/O to every commit (MP16: up to 50% of the data rate lost on first use).
                let zeros = vec![0u8; PREFORMAT_CHUNK_BYTES];
                let mut offset = 0u64;
                let formatted = active_log_file_bytes(data_bytes) - ACTIVE_LOG_HEADER_BYTES;
                while offset < formatted {
                    let length = (formatted - offset).min(PREFORMAT_CHUNK_BYTES as u64) as usize;
                    file.write_at(&zeros[..length], ACTIVE_LOG_HEADER_BYTES + offset)
                        .map_err(|error| StorageError::io(&path, "pre-format active log", error))?;
                    offset += length as u64;
                }
                let header = ActiveLogHeader {
                    copy_number: copy as u32 + 1,
                    data_set_number: number as u32 + 1,
                    data_bytes,
                    start_rba: (number == 0).then_some(0),
                    created_unix_seconds,
                };
                file.write_at(&header.encode(), 0)
                    .map_err(|error| StorageError::io(&path, "write active log header", error))?;
                file.sync_data()
                    .map_err(|error| StorageError::io(&path, "sync active log", error))?;
            }
        }
        let active = directory.join(ACTIVE_DIRECTORY);
        fs.sync_directory(&active)
            .map_err(|error| StorageError::io(&active, "sync directory", error))?;
        Ok(())
    }

    /// Open every file of the ring.
    pub fn open(
        fs: &dyn FileSystem,
        directory: &Path,
        count: usize,
        copies: usize,
        data_bytes: u64,
        mode: OpenMode,
    ) -> StorageResult<ActiveLogFiles> {
        let mut files = Vec::with_capacity(count);
        for number in 0..count {
            let mut copy_files = Vec::with_capacity(copies);
            for copy in 0..copies {
                let path = active_log_path(directory, copy, number);
                let file = fs
                    .open(&path, mode)
                    .map_err(|error| StorageError::io(&path, "open active log", error))?;
                let mut length = file
                    .len()
                    .map_err(|error| StorageError::io(&path, "size active log", error))?;
                if length == ACTIVE_LOG_HEADER_BYTES + data_bytes && mode != OpenMode::ReadOnly {
                    convert_version_1(&*file, data_bytes)?;
                    length = active_log_file_bytes(data_bytes);
                }
                let version_1_read_only =
                    mode == OpenMode::ReadOnly && length == ACTIVE_LOG_HEADER_BYTES + data_bytes;
                if length != active_log_file_bytes(data_bytes) && !version_1_read_only {
                    return Err(StorageError::CorruptMetadata {
                        path,
                        detail: format!(
                            "active log is {length} bytes; expected {} (format version {ACTIVE_LOG_FORMAT_VERSION}: header, \
                             {data_bytes} data bytes, two ping-pong slots), or {} for format version 1 \
                             (the active log size may have been changed)",
                            active_log_file_bytes(data_bytes),
                            ACTIVE_LOG_HEADER_BYTES + data_bytes
                        ),
                    });
                }
                copy_files.push(file);
            }
            files.push(copy_files);
        }
        Ok(ActiveLogFiles { files, data_bytes })
    }

    pub fn read_header(&self, number: usize, copy: usize) -> Result<ActiveLogHeader, String> {
        let mut page = vec![0u8; ACTIVE_LOG_HEADER_BYTES as usize];
        self.files[number][copy]
            .read_at(&mut page, 0)
            .map_err(|error| format!("cannot read header: {error}"))?;
        let header = ActiveLogHeader::decode(&page)?;
        if header.data_set_number != number as u32 + 1 || header.copy_number != copy as u32 + 1 {
            return Err(format!(
                "header names copy {} data set {}, expected copy {} data set {}",
                header.copy_number,
                header.data_set_number,
                copy + 1,
                number + 1
            ));
        }
        if header.data_bytes != self.data_bytes {
            return Err(format!(
                "header says {} data bytes, expected {}",
                header.data_bytes, self.data_bytes
            ));
        }
        Ok(header)
    }

    /// Write (not sync) the header of one copy.
    pub fn write_header(
        &self,
        number: usize,
        copy: usize,
        header: &ActiveLogHeader,
    ) -> StorageResult<()> {
        let file = &self.files[number][copy];
        file.write_at(&header.encode(), 0)
            .map_err(|error| StorageError::io(file.path(), "write active log header", error))
    }

    pub fn sync(&self, number: usize, copy: usize) -> StorageResult<()> {
        let file = &self.files[number][copy];
        file.sync_data()
            .map_err(|error| StorageError::io(file.path(), "sync active log", error))
    }

    pub fn path(&self, number: usize, copy: usize) -> &Path {
        self.files[number][copy].path()
    }

    /// Read both ping-pong slots of one copy: `[slot 0, slot 1]`, each `Ok(None)` when empty
    /// (or absent: a version 1 file opened read-only), `Err` when torn or damaged.
    pub fn read_slots(
        &self,
        number: usize,
        copy: usize,
    ) -> [Result<Option<PingPongSlot>, String>; PING_PONG_SLOTS] {
        let file = &self.files[number][copy];
        let absent = file
            .len()
            .map(|length| length < active_log_file_bytes(self.data_bytes))
            .unwrap_or(true);
        std::array::from_fn(|slot| {
            if absent {
                return Ok(None);
            }
            let mut bytes = vec![0u8; PING_PONG_SLOT_BYTES as usize];
            file.read_at(&mut bytes, ping_pong_slot_offset(self.data_bytes, slot))
                .map_err(|error| format!("cannot read ping-pong slot {}: {error}", slot + 1))?;
            PingPongSlot::decode(&bytes)
        })
    }

    /// Write (not sync) ping-pong slot `slot` of one copy; `None` empties it.
    pub fn write_slot(
        &self,
        number: usize,
        copy: usize,
        slot: usize,
        image: Option<&PingPongSlot>,
    ) -> StorageResult<()> {
        let file = &self.files[number][copy];
        let bytes = match image {
            Some(image) => image.encode(),
            None => vec![0u8; LOG_PAGE_BYTES],
        };
        file.write_at(&bytes, ping_pong_slot_offset(self.data_bytes, slot))
            .map_err(|error| StorageError::io(file.path(), "write ping-pong slot", error))
    }
}

/// Convert an active log of format version 1 (no ping-pong slots) to version 2: extend it by the
/// slots, zeroed (empty), sync, then rewrite the header as version 2 and sync. A crash in
/// between leaves a file of version 2's length with a version 1 header, which is read the same
/// way (the length says the slots exist; empty slots change nothing) and gets a version 2
/// header the next time the file is reused.
fn convert_version_1(file: &dyn StorageFile, data_bytes: u64) -> StorageResult<()> {
    let path = file.path().to_path_buf();
    let mut page = vec![0u8; ACTIVE_LOG_HEADER_BYTES as usize];
    file.read_at(&mut page, 0)
        .map_err(|error| StorageError::io(&path, "read active log header", error))?;
    let header = ActiveLogHeader::decode(&page).ok();
    let zeros = vec![0u8; (PING_PONG_SLOTS as u64 * PING_PONG_SLOT_BYTES) as usize];
    file.write_at(&zeros, ACTIVE_LOG_HEADER_BYTES + data_bytes)
        .map_err(|error| StorageError::io(&path, "extend active log (format 1 to 2)", error))?;
    file.sync_data()
        .map_err(|error| StorageError::io(&path, "sync active log", error))?;
    if let Some(header) = header {
        file.write_at(&header.encode(), 0)
            .map_err(|error| StorageError::io(&path, "write active log header", error))?;
        file.sync_data()
            .map_err(|error| StorageError::io(&path, "sync active log", error))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip_and_damage() {
        let header = ActiveLogHeader {
            copy_number: 2,
            data_set_number: 7,
            data_bytes: 1 << 20,
            start_rba: Some(123 * 4096),
            created_unix_seconds: 1_700_000_000,
        };
        let mut page = header.encode();
        assert_eq!(ActiveLogHeader::decode(&page).unwrap(), header);
        page[33] ^= 1;
        assert!(ActiveLogHeader::decode(&page)
            .unwrap_err()
            .contains("checksum"));
        let never = ActiveLogHeader {
            start_rba: None,
            ..header
        };
        assert_eq!(
            ActiveLogHeader::decode(&never.encode()).unwrap().start_rba,
            None
        );
        assert_eq!(active_log_name(1, 9), "LOGCOPY2.DS10");
    }
}
