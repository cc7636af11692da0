//! The bootstrap data set (BSDS): the log's inventory and the restart anchor.
//!
//! It maps RBA ranges to active log files and archives and records where the recent
//! checkpoints are, so restart knows where to begin reading the log. It is kept in two copies,
//! `bsds/BSDS01` and `bsds/BSDS02` (MQ's dual BSDS), updated one after the other: each copy is
//! written to `BSDS0n.tmp`, synced, renamed over `BSDS0n` and its directory synced, so at every
//! instant at least one copy is complete. Reading takes the valid copy with the higher update
//! sequence number; a damaged, missing or older copy is rewritten from the good one.
//!
//! ## File format (version 1)
//!
//! A 24-byte binary frame ([`BSDS_FRAME_LAYOUT`], magic [`BSDS_MAGIC`], version
//! [`BSDS_FORMAT_VERSION`]: the body's length and CRC-32C, then a CRC-32C of the frame's first
//! 20 bytes) followed by the body, a UTF-8 TOML serialisation of [`Bsds`] (human readable:
//! `tail -c +25 BSDS01`). The frame and every key of the body are described in
//! `docs/formats.md` ("Bootstrap data set"); the body's fields are also documented on [`Bsds`]
//! and the entry types below.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::{StorageError, StorageResult};
use crate::layout::{layout_bytes, Field};
use crate::types::Rba;
use crate::vfs::{FileSystem, OpenMode};

use super::CheckpointLocation;

pub const BSDS_MAGIC: [u8; 8] = *b"FERBSDS1";
pub const BSDS_FORMAT_VERSION: u32 = 1;
/// Bytes of the binary frame before the TOML body.
pub const BSDS_FRAME_BYTES: usize = layout_bytes(&BSDS_FRAME_LAYOUT);

/// Fields of the binary frame at the start of a BSDS copy (see `docs/formats.md`).
pub mod frame {
    use crate::layout::{Encoding, Field};

    /// [`super::BSDS_MAGIC`].
    pub const MAGIC: Field = Field::new("magic", 0, 8, Encoding::Bytes);
    /// [`super::BSDS_FORMAT_VERSION`].
    pub const FORMAT_VERSION: Field = Field::new("format version", 8, 4, Encoding::U32Le);
    /// Bytes of the body.
    pub const BODY_LENGTH: Field = Field::new("body length", 12, 4, Encoding::U32Le);
    /// CRC-32C of the body.
    pub const BODY_CHECKSUM: Field = Field::new("body checksum", 16, 4, Encoding::U32Le);
    /// CRC-32C of bytes 0..20.
    pub const FRAME_CHECKSUM: Field = Field::new("frame checksum", 20, 4, Encoding::U32Le);
}

/// The BSDS frame, field by field in offset order; the TOML body follows it.
pub const BSDS_FRAME_LAYOUT: [Field; 5] = [
    frame::MAGIC,
    frame::FORMAT_VERSION,
    frame::BODY_LENGTH,
    frame::BODY_CHECKSUM,
    frame::FRAME_CHECKSUM,
];
/// Sub-directory of the data directory holding the BSDS copies.
pub const BSDS_DIRECTORY: &str = "bsds";
/// File names of the two copies.
pub const BSDS_FILE_NAMES: [&str; 2] = ["BSDS01", "BSDS02"];
/// Checkpoints remembered (MQ keeps the last 100 in the BSDS checkpoint queue).
pub const CHECKPOINT_HISTORY_MAX: usize = 100;
/// Archive entries remembered (MQ's MAXARCH default is 500, maximum 1000). The oldest entry is
/// dropped from the inventory (its files stay on disk) when the limit is passed.
pub const ARCHIVE_INVENTORY_MAX: usize = 1000;
/// Largest BSDS file accepted when reading (protects against a corrupted length).
const BSDS_BYTES_MAX: u64 = 64 * 1024 * 1024;

/// State of one active log file (both copies share it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ActiveLogStatus {
    /// Archived (or never used): may be overwritten when the ring comes round.
    Reusable,
    /// The file the log is being written to.
    Current,
    /// Full (or truncated by ARCHIVE LOG) and not yet archived: may not be reused.
    NotArchived,
}

/// One active log file (data set number n, both copies).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActiveLogEntry {
    /// 1-based number in the ring (DS01, DS02, ...).
    pub data_set_number: u32,
    /// File path of each copy, relative to the data directory (`active/LOGCOPY1.DS01`, ...).
    pub copies: Vec<String>,
    pub status: ActiveLogStatus,
    /// RBA of the first byte of the file's current use (absent if never used).
    pub start_rba: Option<u64>,
    /// RBA just past the file's range (absent while current or never used).
    pub end_rba: Option<u64>,
}

/// One archive log (all copies of one offloaded active log).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveEntry {
    pub start_rba: u64,
    /// RBA just past the archived range (the next log's start).
    pub end_rba: u64,
    /// Bytes of log content actually stored (≤ end − start: an end-of-file marker's padding
    /// is not stored).
    pub content_bytes: u64,
    pub compressed: bool,
    /// File name of each copy inside the archive directory.
    pub copies: Vec<String>,
    /// When the archive was written, seconds since the Unix epoch (ARCRETN counts from it);
    /// 0 in a BSDS written before it was recorded: such an archive never expires by age.
    #[serde(default)]
    pub created_unix_seconds: u64,
}

/// A checkpoint's begin and end RBAs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointEntry {
    pub begin_rba: u64,
    pub end_rba: u64,
}

/// The BSDS contents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bsds {
    /// Format version of the body ([`BSDS_FORMAT_VERSION`]).
    pub format_version: u32,
    /// Incremented at every update; the copy with the higher number is the newer.
    pub update_sequence: u64,
    /// When the log (the queue manager) was created, seconds since the Unix epoch. Also stamped
    /// in every active log header, so files of another queue manager are refused.
    pub created_unix_seconds: u64,
    /// Log shape fixed at creation (ring size, file size, copies).
    pub active_log_count: u32,
    pub active_log_size_mib: u32,
    pub twoactv: bool,
    /// Highest RBA written to the active logs when the BSDS was last updated.
    pub highest_written_rba: u64,
    /// Active log inventory, in data set number order.
    pub active_logs: Vec<ActiveLogEntry>,
    /// Archive inventory, oldest first.
    pub archives: Vec<ArchiveEntry>,
    /// Checkpoint history, oldest first, at most [`CHECKPOINT_HISTORY_MAX`].
    pub checkpoints: Vec<CheckpointEntry>,
}

/// What reading the two copies found.
#[derive(Clone, Debug)]
pub struct BsdsReadOutcome {
    pub bsds: Bsds,
    /// Copies that could not be used (missing, damaged or older), with the reason.
    pub damaged: Vec<(PathBuf, String)>,
}

/// Paths of the two BSDS copies for a data directory.
pub fn bsds_paths(directory: &Path) -> [PathBuf; 2] {
    let bsds = directory.join(BSDS_DIRECTORY);
    [bsds.join(BSDS_FILE_NAMES[0]), bsds.join(BSDS_FILE_NAMES[1])]
}

impl Bsds {
    /// A BSDS for a newly created log.
    pub fn new(active_log_count: u32, active_log_size_mib: u32, twoactv: bool) -> Bsds {
        let created_unix_seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Bsds {
            format_version: BSDS_FORMAT_VERSION,
            update_sequence: 0,
            created_unix_seconds,
            active_log_count,
            active_log_size_mib,
            twoactv,
            highest_written_rba: 0,
            active_logs: Vec::new(),
            archives: Vec::new(),
            checkpoints: Vec::new(),
        }
    }

    /// The most recent checkpoint.
    pub fn last_checkpoint(&self) -> Option<CheckpointLocation> {
        self.checkpoints.last().map(|entry| CheckpointLocation {
            begin_rba: Rba(entry.begin_rba),
            end_rba: Rba(entry.end_rba),
        })
    }

    /// Add a checkpoint, keeping the last [`CHECKPOINT_HISTORY_MAX`].
    pub fn add_checkpoint(&mut self, location: CheckpointLocation) {
        self.checkpoints.push(CheckpointEntry {
            begin_rba: location.begin_rba.0,
            end_rba: location.end_rba.0,
        });
        if self.checkpoints.len() > CHECKPOINT_HISTORY_MAX {
            let excess = self.checkpoints.len() - CHECKPOINT_HISTORY_MAX;
            self.checkpoints.drain(..excess);
        }
    }

    /// Add an archive, keeping the last [`ARCHIVE_INVENTORY_MAX`].
    pub fn add_archive(&mut self, entry: ArchiveEntry) {
        self.archives
            .retain(|existing| existing.start_rba != entry.start_rba);
        self.archives.push(entry);
        self.archives.sort_by_key(|archive| archive.start_rba);
        if self.archives.len() > ARCHIVE_INVENTORY_MAX {
            let excess = self.archives.len() - ARCHIVE_INVENTORY_MAX;
            self.archives.drain(..excess);
        }
    }

    /// Serialise into the framed file format.
    pub fn encode(&self) -> Vec<u8> {
        let body = toml::to_string(self).expect("the BSDS serialises");
        let body = body.as_bytes();
        let mut bytes = Vec::with_capacity(BSDS_FRAME_BYTES + body.len());
        bytes.resize(BSDS_FRAME_BYTES, 0);
        bytes[frame::MAGIC.range()].copy_from_slice(&BSDS_MAGIC);
        frame::FORMAT_VERSION.put(&mut bytes, u64::from(BSDS_FORMAT_VERSION));
        frame::BODY_LENGTH.put(&mut bytes, body.len() as u64);
        frame::BODY_CHECKSUM.put(&mut bytes, u64::from(crc32c::crc32c(body)));
        let frame_crc = crc32c::crc32c(&bytes[..frame::FRAME_CHECKSUM.offset]);
        frame::FRAME_CHECKSUM.put(&mut bytes, u64::from(frame_crc));
        bytes.extend_from_slice(body);
        bytes
    }

    /// Parse and verify the framed file format.
    pub fn decode(bytes: &[u8]) -> Result<Bsds, String> {
        if bytes.len() < BSDS_FRAME_BYTES {
            return Err(format!(
                "file is {} bytes, shorter than the {BSDS_FRAME_BYTES}-byte frame",
                bytes.len()
            ));
        }
        if bytes[frame::MAGIC.range()] != BSDS_MAGIC {
            return Err("not a BSDS (bad magic)".to_string());
        }
        let get = |field: Field| field.get(bytes);
        if u64::from(crc32c::crc32c(&bytes[..frame::FRAME_CHECKSUM.offset]))
            != get(frame::FRAME_CHECKSUM)
        {
            return Err("frame checksum mismatch".to_string());
        }
        let version = get(frame::FORMAT_VERSION);
        if version != u64::from(BSDS_FORMAT_VERSION) {
            return Err(format!(
                "format version {version} is not supported (expected {BSDS_FORMAT_VERSION})"
            ));
        }
        let length = get(frame::BODY_LENGTH) as usize;
        if bytes.len() != BSDS_FRAME_BYTES + length {
            return Err(format!(
                "body is {} bytes, the frame says {length}",
                bytes.len() - BSDS_FRAME_BYTES
            ));
        }
        let body = &bytes[BSDS_FRAME_BYTES..];
        if u64::from(crc32c::crc32c(body)) != get(frame::BODY_CHECKSUM) {
            return Err("body checksum mismatch".to_string());
        }
        let text =
            std::str::from_utf8(body).map_err(|error| format!("body is not UTF-8: {error}"))?;
        let bsds: Bsds =
            toml::from_str(text).map_err(|error| format!("body does not parse: {error}"))?;
        if bsds.format_version != BSDS_FORMAT_VERSION {
            return Err(format!(
                "body format version {} is not supported",
                bsds.format_version
            ));
        }
        Ok(bsds)
    }

    /// Read one copy.
    fn read_copy(fs: &dyn FileSystem, path: &Path) -> Result<Bsds, String> {
        if !fs.exists(path) {
            return Err("missing".to_string());
        }
        let file = fs
            .open(path, OpenMode::ReadOnly)
            .map_err(|error| format!("cannot open: {error}"))?;
        let length = file
            .len()
            .map_err(|error| format!("cannot size: {error}"))?;
        if length > BSDS_BYTES_MAX {
            return Err(format!("{length} bytes is too large for a BSDS"));
        }
        let mut bytes = vec![0u8; length as usize];
        file.read_at(&mut bytes, 0)
            .map_err(|error| format!("cannot read: {error}"))?;
        Bsds::decode(&bytes)
    }

    /// Read the BSDS of `directory` without changing anything (for utilities): the valid copy
    /// with the higher update sequence. Fails with `CorruptMetadata` naming both files if
    /// neither copy is usable.
    pub fn read(fs: &dyn FileSystem, directory: &Path) -> StorageResult<Bsds> {
        Ok(Bsds::read_with_damage(fs, directory)?.bsds)
    }

    /// As [`Bsds::read`], also saying which copies are damaged, missing or out of date.
    pub fn read_with_damage(
        fs: &dyn FileSystem,
        directory: &Path,
    ) -> StorageResult<BsdsReadOutcome> {
        let paths = bsds_paths(directory);
        let copies = [
            Bsds::read_copy(fs, &paths[0]),
            Bsds::read_copy(fs, &paths[1]),
        ];
        let best = match (&copies[0], &copies[1]) {
            (Ok(first), Ok(second)) => {
                if second.update_sequence > first.update_sequence {
                    1
                } else {
                    0
                }
            }
            (Ok(_), Err(_)) => 0,
            (Err(_), Ok(_)) => 1,
            (Err(first), Err(second)) => {
                return Err(StorageError::CorruptMetadata {
                    path: paths[0].clone(),
                    detail: format!(
                        "both BSDS copies are unusable: {}: {first}; {}: {second}",
                        paths[0].display(),
                        paths[1].display()
                    ),
                })
            }
        };
        let bsds = copies[best].as_ref().unwrap().clone();
        let mut damaged = Vec::new();
        for (index, copy) in copies.iter().enumerate() {
            match copy {
                Err(reason) => damaged.push((paths[index].clone(), reason.clone())),
                Ok(other) if other.update_sequence != bsds.update_sequence => damaged.push((
                    paths[index].clone(),
                    format!(
                        "out of date (update {} < {})",
                        other.update_sequence, bsds.update_sequence
                    ),
                )),
                Ok(_) => {}
            }
        }
        Ok(BsdsReadOutcome { bsds, damaged })
    }

    /// Write both copies, copy 1 completely (temp file, sync, rename, directory sync), then
    /// copy 2. Increments the update sequence first.
    pub fn write(&mut self, fs: &dyn FileSystem, directory: &Path) -> StorageResult<()> {
        self.update_sequence += 1;
        let bytes = self.encode();
        for path in bsds_paths(directory) {
            write_copy(fs, &path, &bytes)?;
        }
        Ok(())
    }

    /// Rewrite only the named copy with the current contents (repair after a damaged read).
    pub fn repair_copy(&self, fs: &dyn FileSystem, path: &Path) -> StorageResult<()> {
        write_copy(fs, path, &self.encode())
    }
}

fn write_copy(fs: &dyn FileSystem, path: &Path, bytes: &[u8]) -> StorageResult<()> {
    let directory = path.parent().expect("a BSDS path has a parent");
    let temporary = path.with_extension("tmp");
    if fs.exists(&temporary) {
        fs.remove_file(&temporary)
            .map_err(|error| StorageError::io(&temporary, "remove stale BSDS temp", error))?;
    }
    let file = fs
        .open(&temporary, OpenMode::CreateNew)
        .map_err(|error| StorageError::io(&temporary, "create BSDS", error))?;
    file.write_at(bytes, 0)
        .map_err(|error| StorageError::io(&temporary, "write BSDS", error))?;
    file.sync_data()
        .map_err(|error| StorageError::io(&temporary, "sync BSDS", error))?;
    drop(file);
    fs.rename(&temporary, path)
        .map_err(|error| StorageError::io(path, "rename BSDS", error))?;
    fs.sync_directory(directory)
        .map_err(|error| StorageError::io(directory, "sync BSDS directory", error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vfs::RealFileSystem;

    fn sample() -> Bsds {
        let mut bsds = Bsds::new(3, 1, true);
        for number in 1..=3u32 {
            bsds.active_logs.push(ActiveLogEntry {
                data_set_number: number,
                copies: vec![
                    format!("active/LOGCOPY1.DS{number:02}"),
                    format!("active/LOGCOPY2.DS{number:02}"),
                ],
                status: if number == 1 {
                    ActiveLogStatus::Current
                } else {
                    ActiveLogStatus::Reusable
                },
                start_rba: (number == 1).then_some(0),
                end_rba: None,
            });
        }
        bsds.add_archive(ArchiveEntry {
            start_rba: 0,
            end_rba: 4096,
            content_bytes: 4000,
            compressed: true,
            copies: vec!["A0000000000000000.1.log.z".into()],
            created_unix_seconds: 1_700_000_000,
        });
        bsds.add_checkpoint(CheckpointLocation {
            begin_rba: Rba(10),
            end_rba: Rba(20),
        });
        bsds
    }

    fn setup() -> (tempfile::TempDir, RealFileSystem) {
        let directory = tempfile::tempdir().unwrap();
        RealFileSystem
            .create_dir_all(&directory.path().join(BSDS_DIRECTORY))
            .unwrap();
        (directory, RealFileSystem)
    }

    #[test]
    fn round_trip_through_both_copies() {
        let (directory, fs) = setup();
        let mut bsds = sample();
        bsds.write(&fs, directory.path()).unwrap();
        let outcome = Bsds::read_with_damage(&fs, directory.path()).unwrap();
        assert_eq!(outcome.bsds, bsds);
        assert!(outcome.damaged.is_empty());
        assert_eq!(
            outcome.bsds.last_checkpoint(),
            Some(CheckpointLocation {
                begin_rba: Rba(10),
                end_rba: Rba(20)
            })
        );
        assert_eq!(Bsds::decode(&bsds.encode()).unwrap(), bsds);
    }

    #[test]
    fn one_corrupt_copy_is_ignored_and_repaired() {
        for damaged_copy in 0..2 {
            let (directory, fs) = setup();
            let mut bsds = sample();
            bsds.write(&fs, directory.path()).unwrap();
            let paths = bsds_paths(directory.path());
            // Flip one byte in the body of the damaged copy.
            let file = fs.open(&paths[damaged_copy], OpenMode::Existing).unwrap();
            let mut byte = [0u8; 1];
            file.read_at(&mut byte, 40).unwrap();
            file.write_at(&[byte[0] ^ 0x10], 40).unwrap();
            drop(file);
            let outcome = Bsds::read_with_damage(&fs, directory.path()).unwrap();
            assert_eq!(outcome.bsds, bsds);
            assert_eq!(outcome.damaged.len(), 1);
            assert_eq!(outcome.damaged[0].0, paths[damaged_copy]);
            assert!(
                outcome.damaged[0].1.contains("checksum"),
                "{}",
                outcome.damaged[0].1
            );
            outcome.bsds.repair_copy(&fs, &paths[damaged_copy]).unwrap();
            assert!(Bsds::read_with_damage(&fs, directory.path())
                .unwrap()
                .damaged
                .is_empty());
        }
    }

    #[test]
    fn a_missing_or_older_copy_is_reported() {
        let (directory, fs) = setup();
        let mut bsds = sample();
        bsds.write(&fs, directory.path()).unwrap();
        let paths = bsds_paths(directory.path());
        // Copy 2 left one update behind (crash between the two copies).
        let older = std::fs::read(&paths[1]).unwrap();
        bsds.add_checkpoint(CheckpointLocation {
            begin_rba: Rba(30),
            end_rba: Rba(40),
        });
        bsds.write(&fs, directory.path()).unwrap();
        std::fs::write(&paths[1], older).unwrap();
        let outcome = Bsds::read_with_damage(&fs, directory.path()).unwrap();
        assert_eq!(outcome.bsds, bsds);
        assert!(outcome.damaged[0].1.contains("out of date"));
        fs.remove_file(&paths[0]).unwrap();
        let outcome = Bsds::read_with_damage(&fs, directory.path()).unwrap();
        assert_eq!(outcome.bsds.checkpoints.len(), 1);
        assert_eq!(outcome.damaged[0].1, "missing");
    }

    #[test]
    fn both_copies_corrupt_is_a_clear_error() {
        let (directory, fs) = setup();
        let mut bsds = sample();
        bsds.write(&fs, directory.path()).unwrap();
        let paths = bsds_paths(directory.path());
        std::fs::write(&paths[0], b"garbage").unwrap();
        let mut bytes = std::fs::read(&paths[1]).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&paths[1], bytes).unwrap();
        let error = Bsds::read(&fs, directory.path()).unwrap_err();
        let text = error.to_string();
        assert!(matches!(error, StorageError::CorruptMetadata { .. }));
        assert!(text.contains("BSDS01") && text.contains("BSDS02"), "{text}");
        assert!(
            text.contains("shorter") && text.contains("body checksum"),
            "{text}"
        );
    }

    #[test]
    fn history_is_bounded() {
        let mut bsds = sample();
        for index in 0..250u64 {
            bsds.add_checkpoint(CheckpointLocation {
                begin_rba: Rba(index),
                end_rba: Rba(index + 1),
            });
        }
        assert_eq!(bsds.checkpoints.len(), CHECKPOINT_HISTORY_MAX);
        assert_eq!(bsds.last_checkpoint().unwrap().begin_rba, Rba(249));
    }
}
