//! A log switch whose new header's sync fails, then a restart in the same boot.
//!
//! At a log switch the writer writes the new file's header (the start RBA of its new use) on
//! every copy and syncs it (writer.rs, step 5). When that sync fails, Linux marks the header's
//! page clean without its reaching the disk, and reads still return it from the page cache
//! (the simulator's rule 4). A restart without a reboot then reads the new header, takes the
//! new file as current and appends there. Unless restart rewrites and syncs the current file's
//! header on every copy (restart.rs, step 3), the disk still holds the file's old header, and
//! at the next power loss restart would end the log in the previous file: every record
//! acknowledged after the restart would be lost. A force that failed is not acknowledged; only
//! the records whose force returned `Ok` must survive, and after the power loss the log must
//! hold exactly what the restart found plus what it acknowledged after.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ferrite_storage::log::active::ACTIVE_LOG_HEADER_BYTES;
use ferrite_storage::log::LogManager;
use ferrite_storage::vfs::simulated::{CrashMode, PathFilter, SimulatedFileSystem};
use ferrite_storage::Rba;

mod support;
use support::log::{kept_archives, two_small_active_logs};

const DIRECTORY: &str = "/qm/SWITCHSYNC";
/// Bytes per record: 40 of them are more than one 1 MiB active log.
const RECORD_BYTES: usize = 30_000;
/// Records appended (each forced) before giving up on reaching the switch.
const RECORDS_MAX: u8 = 80;

fn body(tag: u8, length: usize) -> Vec<u8> {
    (0..length)
        .map(|i| tag ^ (i as u8).wrapping_mul(31))
        .collect()
}

const HEADER_BYTES: usize = ACTIVE_LOG_HEADER_BYTES as usize;

/// The second active log of copy `copy` (0 or 1).
fn second_file(copy: usize) -> PathBuf {
    PathBuf::from(DIRECTORY)
        .join("active")
        .join(format!("LOGCOPY{}.DS02", copy + 1))
}

fn all_records(manager: &LogManager) -> Vec<Vec<u8>> {
    manager
        .read_forward(Rba::ZERO)
        .unwrap()
        .map(|record| record.unwrap().payload)
        .collect()
}

/// Fill the first active log until the switch to the second, whose header sync on copy
/// `failing_copy` (0 or 1) fails; restart in the same boot, append and force, lose power.
fn switch_with_failed_header_sync(twoactv: bool, failing_copy: usize) {
    let context = format!("TWOACTV {twoactv}, copy {} fails", failing_copy + 1);
    let fs = SimulatedFileSystem::new(23).with_crash_mode(CrashMode::LoseAllUnsynced);
    fs.set_shared_flush(false);
    let log = two_small_active_logs(twoactv);
    let archive = kept_archives();
    LogManager::create(Arc::new(fs.clone()), Path::new(DIRECTORY), &log, &archive).unwrap();
    let new_file = second_file(failing_copy);
    let manager =
        LogManager::open(Arc::new(fs.clone()), Path::new(DIRECTORY), &log, &archive).unwrap();
    // Nothing writes the second file before the switch: its first sync is the header's.
    fs.fsync_error_at_matching(0, PathFilter::exact(&new_file));

    let mut acknowledged = Vec::new();
    let mut failed = false;
    for tag in 0..RECORDS_MAX {
        let record = body(tag, RECORD_BYTES);
        let Ok((_, end)) = manager.append(1, &[&record]) else {
            failed = true;
            break;
        };
        if manager.force(end).is_err() {
            failed = true;
            break;
        }
        acknowledged.push(record);
    }
    assert!(
        failed,
        "{context}: {RECORDS_MAX} records of {RECORD_BYTES} bytes never reached the switch"
    );
    assert_eq!(
        manager.statistics().active_log_switches,
        0,
        "{context}: the switch completed although its header sync failed"
    );
    manager.abandon();
    drop(manager);
    // The precondition: the page cache holds the new header, the disk the old one.
    let cached = fs.contents(&new_file).unwrap();
    let durable = fs.durable_contents(&new_file).unwrap();
    assert_ne!(
        cached[..HEADER_BYTES],
        durable[..HEADER_BYTES],
        "{context}: the failed sync did not lose the new header (the test injects nothing)"
    );

    // Restart on the same (not crashed) file system: it reads the new header from the page
    // cache and appends to the second file.
    let manager =
        LogManager::open(Arc::new(fs.clone()), Path::new(DIRECTORY), &log, &archive).unwrap();
    let found = all_records(&manager);
    assert!(
        found.starts_with(&acknowledged),
        "{context}: the restart lost acknowledged records ({} found, {} acknowledged)",
        found.len(),
        acknowledged.len()
    );
    // Every copy's header is durable before anything is appended behind it (with dual
    // logging a power loss would otherwise leave the log relying on the other copy alone).
    for copy in 0..if twoactv { 2 } else { 1 } {
        let path = second_file(copy);
        assert!(
            fs.durable_contents(&path).unwrap()[..HEADER_BYTES]
                == fs.contents(&path).unwrap()[..HEADER_BYTES],
            "{context}: after the restart copy {}'s current header is not durable",
            copy + 1
        );
    }
    let mut expected = found;
    for tag in 0..3u8 {
        let record = body(200 + tag, RECORD_BYTES / 3);
        let (_, end) = manager.append(1, &[&record]).unwrap();
        manager.force(end).unwrap();
        expected.push(record);
    }
    manager.abandon();
    drop(manager);

    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    let manager = LogManager::open(Arc::new(after), Path::new(DIRECTORY), &log, &archive).unwrap();
    let survived = all_records(&manager);
    assert!(
        survived == expected,
        "{context}: after the power loss the log holds {} records, not the {} the restart found \
         and acknowledged (the records forced after the restart sit in the second file, whose \
         header only the page cache held)",
        survived.len(),
        expected.len()
    );
    manager.shutdown().unwrap();
}

#[test]
fn a_restart_after_a_failed_switch_header_sync_makes_the_header_durable() {
    switch_with_failed_header_sync(false, 0);
    switch_with_failed_header_sync(true, 0);
    switch_with_failed_header_sync(true, 1);
}
