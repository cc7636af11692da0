//! Archive retention: which archive logs may be deleted (MQ's ARCRETN and MAXARCH), and the
//! registry of page set backups that keeps the log their media recovery needs.
//!
//! ## Rule
//!
//! An archive may be deleted only when its whole RBA range lies below the *retention floor*,
//! the lowest RBA anything may still read:
//! - **restart**: the begin RBA of the newest checkpoint at or before the lowest page set
//!   recovery RBA (the page sets' headers), where forward recovery starts (`recovery/restart.rs`);
//! - **media recovery**: the recovery RBA of the last registered backup of each page set
//!   (`ferrite pageset backup` registers it): restoring that backup replays the log from there.
//!
//! Below the floor, an archive is deleted when it is older than ARCRETN days, or when more than
//! MAXARCH archives are kept, oldest first and only the oldest, so the archives kept always
//! cover one contiguous RBA range. The BSDS forgets an archive first, then its files are
//! removed: a crash in between leaves only unreferenced files.
//!
//! ## Backup registry: `<data directory>/backups/PSIDnn.backup`
//!
//! One small text file per page set, `<recovery RBA, 16 hex digits>\n`, replaced atomically
//! (written to `.tmp`, synced, renamed, directory synced) by each backup. A backup made by other
//! means is not known: register it with [`record_page_set_backup`].

use std::path::{Path, PathBuf};

use crate::config::ArchiveParameters;
use crate::error::{StorageError, StorageResult};
use crate::types::{PageSetId, Rba};
use crate::vfs::{FileSystem, OpenMode};

use super::bsds::ArchiveEntry;

/// Sub-directory of the data directory holding the backup registry.
pub const BACKUP_REGISTRY_DIRECTORY: &str = "backups";
/// Seconds in a day (ARCRETN is in days).
pub const SECONDS_PER_DAY: u64 = 86_400;

/// Why an archive is deleted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DeletionReason {
    /// Older than ARCRETN days.
    Age { retention_days: u32 },
    /// More than MAXARCH archives kept.
    Count { max_archives: u32 },
}

impl std::fmt::Display for DeletionReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeletionReason::Age { retention_days } => {
                write!(f, "older than ARCRETN {retention_days} days")
            }
            DeletionReason::Count { max_archives } => {
                write!(f, "more than MAXARCH {max_archives} archives")
            }
        }
    }
}

/// The archives (indexes into `archives`, oldest first) that may be deleted now, with why.
/// `archives` is the BSDS inventory (sorted by start RBA); `floor` the retention floor.
pub fn archives_to_delete(
    archives: &[ArchiveEntry],
    parameters: &ArchiveParameters,
    floor: Rba,
    now_unix_seconds: u64,
) -> Vec<(usize, DeletionReason)> {
    let retention_seconds = u64::from(parameters.retention_days) * SECONDS_PER_DAY;
    let mut excess = archives
        .len()
        .saturating_sub(parameters.max_archives as usize);
    let mut deleted = Vec::new();
    for (index, archive) in archives.iter().enumerate() {
        if archive.end_rba > floor.0 {
            // Still needed, and so is every later archive.
            break;
        }
        let expired = archive.created_unix_seconds != 0
            && now_unix_seconds.saturating_sub(archive.created_unix_seconds) >= retention_seconds;
        if excess > 0 {
            excess -= 1;
            deleted.push((
                index,
                DeletionReason::Count {
                    max_archives: parameters.max_archives,
                },
            ));
        } else if expired {
            deleted.push((
                index,
                DeletionReason::Age {
                    retention_days: parameters.retention_days,
                },
            ));
        } else {
            // Only the oldest are deleted: the archives kept stay one contiguous RBA range.
            break;
        }
    }
    deleted
}

fn registry_path(directory: &Path, page_set: PageSetId) -> PathBuf {
    directory
        .join(BACKUP_REGISTRY_DIRECTORY)
        .join(format!("PSID{:02}.backup", page_set.0))
}

/// Register a backup of `page_set` whose media recovery starts at `recovery_rba` (its header's
/// recovery RBA): archives from there on are kept until a later backup is registered.
pub fn record_page_set_backup(
    fs: &dyn FileSystem,
    directory: &Path,
    page_set: PageSetId,
    recovery_rba: Rba,
) -> StorageResult<()> {
    let registry = directory.join(BACKUP_REGISTRY_DIRECTORY);
    fs.create_dir_all(&registry)
        .map_err(|error| StorageError::io(&registry, "create directory", error))?;
    let path = registry_path(directory, page_set);
    let temporary = path.with_extension("tmp");
    if fs.exists(&temporary) {
        fs.remove_file(&temporary)
            .map_err(|error| StorageError::io(&temporary, "remove", error))?;
    }
    let file = fs
        .open(&temporary, OpenMode::CreateNew)
        .map_err(|error| StorageError::io(&temporary, "create", error))?;
    file.write_at(format!("{:016X}\n", recovery_rba.0).as_bytes(), 0)
        .map_err(|error| StorageError::io(&temporary, "write", error))?;
    file.sync_data()
        .map_err(|error| StorageError::io(&temporary, "sync", error))?;
    drop(file);
    fs.rename(&temporary, &path)
        .map_err(|error| StorageError::io(&path, "rename", error))?;
    fs.sync_directory(&registry)
        .map_err(|error| StorageError::io(&registry, "sync directory", error))
}

/// Register the backup copy at `backup` of page set `page_set`: its page 0 (verified) gives the
/// recovery RBA its media recovery starts from, which is returned. `ferrite pageset backup`
/// calls this after copying.
pub fn register_backup_file(
    fs: &dyn FileSystem,
    directory: &Path,
    page_set: PageSetId,
    backup: &Path,
) -> StorageResult<Rba> {
    let file = fs
        .open(backup, OpenMode::ReadOnly)
        .map_err(|error| StorageError::io(backup, "open backup", error))?;
    let mut page = crate::page::PageBytes::zeroed();
    file.read_at(&mut page.0, 0)
        .map_err(|error| StorageError::io(backup, "read backup header", error))?;
    let refuse = |detail: String| StorageError::CorruptMetadata {
        path: backup.to_path_buf(),
        detail: format!("not a backup of page set {:02}: {detail}", page_set.0),
    };
    page.verify(page_set, crate::types::PageNumber(0))
        .map_err(|defect| refuse(defect.to_string()))?;
    let header = crate::page_set::PageSetHeader::decode(&page).map_err(refuse)?;
    record_page_set_backup(fs, directory, page_set, header.recovery_rba)?;
    Ok(header.recovery_rba)
}

/// The registered backups: (page set, recovery RBA), by page set.
pub fn registered_backups(
    fs: &dyn FileSystem,
    directory: &Path,
) -> StorageResult<Vec<(PageSetId, Rba)>> {
    let registry = directory.join(BACKUP_REGISTRY_DIRECTORY);
    if !fs.exists(&registry) {
        return Ok(Vec::new());
    }
    let mut names = fs
        .list_directory(&registry)
        .map_err(|error| StorageError::io(&registry, "list directory", error))?;
    names.sort();
    let mut backups = Vec::new();
    for name in names {
        let Some(number) = name
            .strip_prefix("PSID")
            .and_then(|rest| rest.strip_suffix(".backup"))
            .and_then(|digits| digits.parse::<u8>().ok())
        else {
            continue;
        };
        let path = registry.join(&name);
        let file = fs
            .open(&path, OpenMode::ReadOnly)
            .map_err(|error| StorageError::io(&path, "open", error))?;
        let mut text = [0u8; 17];
        file.read_at(&mut text, 0)
            .map_err(|error| StorageError::io(&path, "read", error))?;
        let rba = std::str::from_utf8(&text[..16])
            .ok()
            .and_then(|hex| u64::from_str_radix(hex, 16).ok())
            .ok_or_else(|| StorageError::CorruptMetadata {
                path: path.clone(),
                detail: "not a backup registration (expected a 16-digit hex RBA)".to_string(),
            })?;
        backups.push((PageSetId(number), Rba(rba)));
    }
    Ok(backups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vfs::simulated::SimulatedFileSystem;

    fn archive(start: u64, end: u64, created: u64) -> ArchiveEntry {
        ArchiveEntry {
            start_rba: start,
            end_rba: end,
            content_bytes: end - start,
            compressed: false,
            copies: vec![format!("A{start:016X}.1.log")],
            created_unix_seconds: created,
        }
    }

    fn parameters(retention_days: u32, max_archives: u32) -> ArchiveParameters {
        ArchiveParameters {
            directory: "archive".to_string(),
            compress: false,
            twoarch: false,
            retention_days,
            max_archives,
        }
    }

    #[test]
    fn nothing_at_or_above_the_floor_is_deleted() {
        let day = SECONDS_PER_DAY;
        let now = 100 * day;
        let archives: Vec<ArchiveEntry> = (0..20u64)
            .map(|n| archive(n * 4096, (n + 1) * 4096, day * n))
            .collect();
        // Everything is old (ARCRETN 0) and far beyond MAXARCH 10, but the floor protects.
        let deleted = archives_to_delete(&archives, &parameters(0, 10), Rba(5 * 4096), now);
        assert_eq!(
            deleted.iter().map(|(index, _)| *index).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 4]
        );
        // An archive straddling the floor is kept.
        let deleted = archives_to_delete(&archives, &parameters(0, 10), Rba(5 * 4096 - 1), now);
        assert_eq!(deleted.len(), 4);
        assert!(archives_to_delete(&archives, &parameters(0, 10), Rba(0), now).is_empty());
    }

    #[test]
    fn age_and_count_each_delete_the_oldest() {
        let day = SECONDS_PER_DAY;
        let now = 100 * day;
        // Created on days 80..100: with ARCRETN 10, those of days 80..=90 are expired.
        let archives: Vec<ArchiveEntry> = (0..20u64)
            .map(|n| archive(n * 4096, (n + 1) * 4096, day * (80 + n)))
            .collect();
        let floor = Rba(u64::MAX);
        let deleted = archives_to_delete(&archives, &parameters(10, 1000), floor, now);
        assert_eq!(deleted.len(), 11);
        assert!(deleted
            .iter()
            .all(|(_, reason)| matches!(reason, DeletionReason::Age { .. })));
        // MAXARCH 15 with ARCRETN 9999: the 5 oldest go.
        let deleted = archives_to_delete(&archives, &parameters(9999, 15), floor, now);
        assert_eq!(
            deleted,
            (0..5)
                .map(|index| (index, DeletionReason::Count { max_archives: 15 }))
                .collect::<Vec<_>>()
        );
        // An archive of unknown age (an older BSDS) never expires by age, and the ones after
        // it are kept too (the archives kept stay contiguous).
        let mut unknown = archives.clone();
        unknown[3].created_unix_seconds = 0;
        let deleted = archives_to_delete(&unknown, &parameters(10, 1000), floor, now);
        assert_eq!(deleted.len(), 3);
    }

    #[test]
    fn backup_registry_round_trip_and_replacement() {
        let fs = SimulatedFileSystem::new(3);
        let directory = Path::new("/qm/REG");
        fs.create_dir_all(directory).unwrap();
        assert!(registered_backups(&fs, directory).unwrap().is_empty());
        record_page_set_backup(&fs, directory, PageSetId(3), Rba(0x1234)).unwrap();
        record_page_set_backup(&fs, directory, PageSetId(1), Rba(0x99)).unwrap();
        record_page_set_backup(&fs, directory, PageSetId(3), Rba(0x5000)).unwrap();
        assert_eq!(
            registered_backups(&fs, directory).unwrap(),
            vec![(PageSetId(1), Rba(0x99)), (PageSetId(3), Rba(0x5000))]
        );
    }
}
