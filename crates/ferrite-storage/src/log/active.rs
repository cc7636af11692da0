//! Active log files: the ring of pre-allocated files the logger writes (MQ's active log data
//! sets), one ring per copy (two copies with TWOACTV).
//!
//! Names: `active/LOGCOPY<c>.DS<nn>` for copy c (1 or 2) and data set number nn (01 ..= 310).
//!
//! ## Active log file layout
//!
//! A 4 KiB header page, then the data area of `active_log_size_mib` MiB, reserved at creation
//! (`set_len`, which pre-allocates blocks so a log write never fails for space, then zero writes
//! over the data area, as MQ's CSQ4LFMT pre-formats). The data area
//! holds the log bytes of the file's current use: log RBA `r` is at file offset
//! `4096 + (r − start_rba)`. Because every use starts on a 4 KiB RBA boundary, log pages are
//! file pages.
//!
//! ## Header page (little-endian), rewritten and synced each time the file is (re)used
//!
//! | Offset | Size | Field | Meaning |
//! |---|---|---|---|
//! | 0 | 8 | magic | `FERLOGAC` |
//! | 8 | 4 | format version | 1 |
//! | 12 | 4 | copy number | 1 or 2 |
//! | 16 | 4 | data set number | 1 ..= active_log_count |
//! | 20 | 4 | reserved | 0 |
//! | 24 | 8 | data bytes | size of the data area (active_log_size_mib × 1 MiB) |
//! | 32 | 8 | start RBA | RBA of the first byte of the current use; `u64::MAX` = never used |
//! | 40 | 8 | creation time | the BSDS's `created_unix_seconds`: ties the file to its queue manager |
//! | 48 | 4 | checksum | CRC-32C of bytes 0..48 |
//! | 52 | 4044 | zero | |
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

/// Sub-directory of the data directory holding the active logs.
pub const ACTIVE_DIRECTORY: &str = "active";
pub const ACTIVE_LOG_MAGIC: [u8; 8] = *b"FERLOGAC";
pub const ACTIVE_LOG_FORMAT_VERSION: u32 = 1;
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
        page[0..8].copy_from_slice(&ACTIVE_LOG_MAGIC);
        page[8..12].copy_from_slice(&ACTIVE_LOG_FORMAT_VERSION.to_le_bytes());
        page[12..16].copy_from_slice(&self.copy_number.to_le_bytes());
        page[16..20].copy_from_slice(&self.data_set_number.to_le_bytes());
        page[24..32].copy_from_slice(&self.data_bytes.to_le_bytes());
        page[32..40].copy_from_slice(&self.start_rba.unwrap_or(RBA_NEVER_USED).to_le_bytes());
        page[40..48].copy_from_slice(&self.created_unix_seconds.to_le_bytes());
        let checksum = crc32c::crc32c(&page[0..48]);
        page[48..52].copy_from_slice(&checksum.to_le_bytes());
        page
    }

    pub fn decode(page: &[u8]) -> Result<ActiveLogHeader, String> {
        if page.len() < 52 || page[0..8] != ACTIVE_LOG_MAGIC {
            return Err("not an active log (bad magic)".to_string());
        }
        let word = |at: usize| u32::from_le_bytes(page[at..at + 4].try_into().unwrap());
        let double = |at: usize| u64::from_le_bytes(page[at..at + 8].try_into().unwrap());
        if crc32c::crc32c(&page[0..48]) != word(48) {
            return Err("header checksum mismatch".to_string());
        }
        if word(8) != ACTIVE_LOG_FORMAT_VERSION {
            return Err(format!("format version {} is not supported", word(8)));
        }
        let start = double(32);
        Ok(ActiveLogHeader {
            copy_number: word(12),
            data_set_number: word(16),
            data_bytes: double(24),
            start_rba: (start != RBA_NEVER_USED).then_some(start),
            created_unix_seconds: double(40),
        })
    }
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
                file.set_len(ACTIVE_LOG_HEADER_BYTES + data_bytes)
                    .map_err(|error| StorageError::io(&path, "allocate active log", error))?;
                // Pre-format (MQ's CSQ4LFMT): write zeros over the whole data area, so a log
                // write never converts unwritten extents, which would add file system journal
                // I/O to every commit (MP16: up to 50% of the data rate lost on first use).
                let zeros = vec![0u8; PREFORMAT_CHUNK_BYTES];
                let mut offset = 0u64;
                while offset < data_bytes {
                    let length = (data_bytes - offset).min(PREFORMAT_CHUNK_BYTES as u64) as usize;
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
                let length = file
                    .len()
                    .map_err(|error| StorageError::io(&path, "size active log", error))?;
                if length != ACTIVE_LOG_HEADER_BYTES + data_bytes {
                    return Err(StorageError::CorruptMetadata {
                        path,
                        detail: format!(
                            "active log is {length} bytes; expected {} (the active log size may have been changed)",
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
