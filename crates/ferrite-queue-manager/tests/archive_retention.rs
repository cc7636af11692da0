//! Archive retention at the queue manager level (simulated file system): ARCRETN and MAXARCH
//! delete the oldest archives, never one that restart or media recovery of a page set from
//! its last registered backup still needs; DISPLAY LOG shows what is kept; a restart after a
//! power loss still finds every committed message.

mod support;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use ferrite_queue_manager::{page_set_path, MessageSelector, QueueDefinition, QueueManager};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::vfs::simulated::{CrashMode, SimulatedFileSystem};
use ferrite_storage::vfs::FileSystem;
use ferrite_storage::PageSetId;

fn config(name: &str, retention_days: u32, max_archives: u32) -> QueueManagerConfig {
    let mut config = QueueManagerConfig::small(name);
    config.log.outbuff_kib = 64;
    config.log.wrthrsh = 4;
    config.archive.retention_days = retention_days;
    config.archive.max_archives = max_archives;
    config
}

fn descriptor(tag: u32) -> MessageDescriptor {
    support::tagged_descriptor(tag, true)
}

fn start(
    name: &str,
    retention_days: u32,
    max_archives: u32,
) -> (SimulatedFileSystem, Arc<QueueManager>) {
    let fs = SimulatedFileSystem::new(7);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = format!("/qm/{name}");
    QueueManager::create(
        shared.clone(),
        Path::new(&directory),
        &config(name, retention_days, max_archives),
        &mut |_, _, _| {},
    )
    .unwrap();
    let queue_manager =
        QueueManager::open(shared, Path::new(&directory), Arc::new(|_: &str| {})).unwrap();
    queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    (fs, queue_manager)
}

/// Put four messages and get three, then ARCHIVE LOG (a log switch, an offload, a checkpoint
/// that applies retention): each round leaves one more message on the queue.
fn rounds(queue_manager: &QueueManager, first_round: u32, count: u32) {
    let queue = queue_manager.queue("Q").unwrap();
    for round in first_round..first_round + count {
        for index in 0..4 {
            let tag = round * 10 + index;
            queue_manager
                .put(None, &queue, &descriptor(tag), &vec![round as u8; 3000])
                .unwrap();
        }
        for _ in 0..3 {
            queue_manager
                .get(None, &queue, &MessageSelector::default(), None)
                .unwrap()
                .unwrap();
        }
        queue_manager.archive_log().unwrap();
        assert!(queue_manager
            .log()
            .wait_for_offload(Duration::from_secs(30)));
    }
}

fn archive_starts(queue_manager: &QueueManager) -> Vec<u64> {
    queue_manager
        .log()
        .archives()
        .iter()
        .map(|archive| archive.start_rba)
        .collect()
}

/// Restart after a power loss: the queue holds `expected` messages.
fn restart_and_count(fs: SimulatedFileSystem, name: &str, expected: usize) {
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    let queue_manager = QueueManager::open(
        Arc::new(after),
        Path::new(&format!("/qm/{name}")),
        Arc::new(|_: &str| {}),
    )
    .unwrap_or_else(|error| panic!("restart failed after archive deletion: {error}"));
    let queue = queue_manager.queue("Q").unwrap();
    let mut count = 0;
    while queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
        .is_some()
    {
        count += 1;
    }
    assert_eq!(count, expected);
    queue_manager.shutdown().unwrap();
}

#[test]
fn arcretn_zero_deletes_what_restart_no_longer_needs_but_keeps_a_backups_log() {
    let (fs, queue_manager) = start("RETAIN1", 0, 10);
    rounds(&queue_manager, 0, 3);
    // A backup of page set 1 taken now: its media recovery needs the log from here.
    let backup_rba = queue_manager.log().end_rba();
    queue_manager
        .record_page_set_backup(PageSetId(1), backup_rba)
        .unwrap();
    rounds(&queue_manager, 3, 8);
    queue_manager.checkpoint().unwrap();
    let (floor, restart, media) = queue_manager.archive_retention_floor().unwrap();
    assert_eq!(media, Some(backup_rba));
    assert_eq!(floor, backup_rba.min(restart));
    let archives = queue_manager.log().archives();
    // Everything the backup needs is kept; what only came before it is gone.
    assert!(
        archives
            .first()
            .is_some_and(|first| first.start_rba <= backup_rba.0),
        "the archive holding the backup's recovery RBA {backup_rba} was deleted: {archives:?}"
    );
    assert!(queue_manager.log().retention_state().deleted > 0);
    assert!(archives.iter().all(|archive| archive.end_rba > floor.0));
    let listing = queue_manager.display_log();
    assert!(
        listing.contains("Archive logs kept") && listing.contains("MAXARCH 10, ARCRETN 0 days"),
        "{listing}"
    );
    assert!(
        listing.contains(&format!("media recovery {backup_rba}")),
        "{listing}"
    );
    // A later backup releases the older archives; restart still needs none of them.
    queue_manager
        .record_page_set_backup(PageSetId(1), queue_manager.log().end_rba())
        .unwrap();
    queue_manager.checkpoint().unwrap();
    let remaining = archive_starts(&queue_manager);
    assert!(
        remaining.iter().all(|first| *first > backup_rba.0),
        "archives before the new backup kept: {remaining:X?}"
    );
    let (floor, _, _) = queue_manager.archive_retention_floor().unwrap();
    for archive in queue_manager.log().archives() {
        assert!(archive.end_rba > floor.0);
    }
    // The files of the deleted archives are gone; the kept ones are there.
    let archive_files: Vec<String> = fs
        .files()
        .iter()
        .filter(|path| path.starts_with("/qm/RETAIN1/archive"))
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let kept: Vec<String> = queue_manager
        .log()
        .archives()
        .iter()
        .flat_map(|archive| archive.copies.clone())
        .collect();
    let mut sorted_files = archive_files.clone();
    sorted_files.sort();
    let mut sorted_kept = kept.clone();
    sorted_kept.sort();
    assert_eq!(sorted_files, sorted_kept);
    // `ferrite pageset backup` registers a copy from its header (here: the live page set).
    let directory = Path::new("/qm/RETAIN1");
    let recovery_rba = ferrite_storage::log::retention::register_backup_file(
        &fs,
        directory,
        PageSetId(1),
        &page_set_path(directory, 1),
    )
    .unwrap();
    let (_, _, media) = queue_manager.archive_retention_floor().unwrap();
    assert_eq!(media, Some(recovery_rba));
    assert!(ferrite_storage::log::retention::register_backup_file(
        &fs,
        directory,
        PageSetId(2),
        &page_set_path(directory, 1),
    )
    .is_err());
    drop(queue_manager);
    restart_and_count(fs, "RETAIN1", 11);
}

#[test]
fn maxarch_keeps_at_most_that_many_archives() {
    let (fs, queue_manager) = start("RETAIN2", 9999, 10);
    rounds(&queue_manager, 0, 16);
    queue_manager.checkpoint().unwrap();
    // The checkpoint's own records may fill the active log: the switch's archive can land after
    // the checkpoint applied retention. Once offload is idle, retention applied again (as the
    // next checkpoint would) leaves exactly MAXARCH.
    assert!(queue_manager
        .log()
        .wait_for_offload(Duration::from_secs(30)));
    let (floor, _, _) = queue_manager.archive_retention_floor().unwrap();
    queue_manager.log().apply_archive_retention(floor).unwrap();
    let archives = queue_manager.log().archives();
    assert_eq!(archives.len(), 10, "floor {floor} {archives:?}");
    // Contiguous: each archive starts where the one before ended.
    for pair in archives.windows(2) {
        assert_eq!(pair[0].end_rba, pair[1].start_rba);
    }
    // Each round switched the log at least once: at least 16 archives, 6 or more deleted.
    let deleted = queue_manager.log().retention_state().deleted;
    assert!(deleted >= 6, "{deleted} deleted");
    let listing = queue_manager.display_log();
    assert!(
        listing.contains(&format!(
            "Archive logs kept 10 (MAXARCH 10, ARCRETN 9999 days), {deleted} deleted"
        )),
        "{listing}"
    );
    drop(queue_manager);
    restart_and_count(fs, "RETAIN2", 16);
}
