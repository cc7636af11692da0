//! A restart in the same boot after a failed log sync makes the log it found durable.
//!
//! When `sync_data` fails, Linux marks the file's dirty pages clean without their reaching the
//! disk, and reads still return them from the page cache (the simulator's rule 4). A restart
//! without a reboot then finds the end of the log after bytes the disk may not have. If new
//! records were appended after them and forced, a later power loss would leave a hole before
//! those acknowledged records, and restart would end the log at the hole. Restart therefore
//! rewrites and syncs the last unsynced window before the end (and the current file's header)
//! on every copy.

use std::path::Path;
use std::sync::Arc;

use ferrite_storage::log::LogManager;
use ferrite_storage::vfs::simulated::{CrashMode, SimulatedFileSystem};
use ferrite_storage::Rba;

mod support;
use support::log::{kept_archives, two_small_active_logs};

const DIRECTORY: &str = "/qm/RESYNC";

fn body(tag: u8, length: usize) -> Vec<u8> {
    (0..length)
        .map(|i| tag ^ (i as u8).wrapping_mul(29))
        .collect()
}

fn restart_after_failed_sync(twoactv: bool) {
    let context = format!("TWOACTV {twoactv}");
    let fs = SimulatedFileSystem::new(11).with_crash_mode(CrashMode::LoseAllUnsynced);
    fs.set_shared_flush(false);
    let log = two_small_active_logs(twoactv);
    let archive = kept_archives();
    LogManager::create(Arc::new(fs.clone()), Path::new(DIRECTORY), &log, &archive).unwrap();
    let manager =
        LogManager::open(Arc::new(fs.clone()), Path::new(DIRECTORY), &log, &archive).unwrap();
    let first = body(1, 700);
    let (_, end) = manager.append(1, &[&first]).unwrap();
    manager.force(end).unwrap();

    // The second record spans several pages; the sync of its write cycle fails.
    let lost_sync = body(2, 20_000);
    let (_, lost_end) = manager.append(1, &[&lost_sync]).unwrap();
    fs.fsync_error_at(0);
    assert!(
        manager.force(lost_end).is_err(),
        "{context}: a force returned after its sync failed"
    );
    manager.abandon();
    drop(manager);

    // Restart on the same (not crashed) file system: the page cache still holds the record.
    let manager =
        LogManager::open(Arc::new(fs.clone()), Path::new(DIRECTORY), &log, &archive).unwrap();
    let acknowledged = body(3, 9_000);
    let (_, acknowledged_end) = manager.append(1, &[&acknowledged]).unwrap();
    manager.force(acknowledged_end).unwrap();
    manager.abandon();
    drop(manager);

    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    let manager = LogManager::open(Arc::new(after), Path::new(DIRECTORY), &log, &archive).unwrap();
    let found: Vec<Vec<u8>> = manager
        .read_forward(Rba::ZERO)
        .unwrap()
        .map(|record| record.unwrap().payload)
        .collect();
    let lengths: Vec<usize> = found.iter().map(Vec::len).collect();
    assert!(
        found == [first, lost_sync, acknowledged],
        "{context}: records after the power loss have lengths {lengths:?}, not [700, 20000, \
         9000] (the restart found the second record, so the record forced after it must survive)"
    );
    manager.shutdown().unwrap();
}

#[test]
fn a_restart_after_a_failed_sync_makes_what_it_found_durable() {
    for twoactv in [false, true] {
        restart_after_failed_sync(twoactv);
    }
}
