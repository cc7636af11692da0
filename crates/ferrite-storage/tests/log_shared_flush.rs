//! Dual logging with one device flush (`log/writer.rs`, `write_shared_flush`).
//!
//! When both copies of an active log are on one device, the logger writes both, writes copy 1
//! back without a flush (`write_back`, sync_file_range) and syncs copy 2, whose device cache
//! flush makes copy 1 durable too. The simulator models that (rule 7 of `vfs/simulated.rs`: a
//! write that reached the device is still volatile until any file's sync). These tests check
//! the model itself, that the logger uses the scheme only when the files share a flush, and
//! TWOACTV's promise under it: after a crash at every step of a force, **each copy alone**
//! (the other destroyed) recovers every record whose force returned.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ferrite_storage::config::{ArchiveParameters, LogParameters};
use ferrite_storage::log::LogManager;
use ferrite_storage::vfs::simulated::{
    CrashEffect, CrashMode, CrashPoint, OpClass, PathFilter, SimulatedFileSystem,
};
use ferrite_storage::vfs::{FileSystem, OpenMode, StorageFile};
use ferrite_storage::Rba;

mod support;
use support::log::{
    active_log_copy, kept_archives, one_mib_logs, open_log, FileHooks, HookedFileSystem,
};

const DIRECTORY: &str = "/qm/FLUSHQM";
/// The active log header page, left intact when a copy is destroyed (its data area and slots
/// are what a lost disk would take).
const HEADER_BYTES: u64 = 4096;

/// Dual logging: two 1 MiB active logs, 64 KiB OUTBUFF, WRTHRSH 4.
fn parameters() -> (LogParameters, ArchiveParameters) {
    one_mib_logs(64, 4, true, 2)
}

fn body(tag: u8, length: usize) -> Vec<u8> {
    (0..length)
        .map(|i| tag ^ (i as u8).wrapping_mul(29))
        .collect()
}

fn open(fs: &SimulatedFileSystem) -> Arc<LogManager> {
    open_log(fs, DIRECTORY, &parameters())
}

fn created(seed: u64, shared_flush: bool) -> SimulatedFileSystem {
    let fs = SimulatedFileSystem::new(seed);
    fs.set_shared_flush(shared_flush);
    let (log, archive) = parameters();
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    LogManager::create(shared, Path::new(DIRECTORY), &log, &archive).unwrap();
    fs
}

fn active_files(copy: usize) -> Vec<PathBuf> {
    (1..=2)
        .map(|number| {
            PathBuf::from(format!(
                "{DIRECTORY}/active/LOGCOPY{}.DS{number:02}",
                copy + 1
            ))
        })
        .collect()
}

/// Replace the data area and slots of every active log of `copy` with garbage.
fn destroy_copy(fs: &SimulatedFileSystem, copy: usize) {
    for path in active_files(copy) {
        let length = fs.durable_contents(&path).unwrap().len() as u64;
        fs.corrupt_range(&path, HEADER_BYTES, length - HEADER_BYTES)
            .unwrap();
    }
}

#[test]
fn a_flush_makes_written_back_data_of_every_file_durable() {
    for shared_flush in [true, false] {
        let fs = SimulatedFileSystem::new(3);
        fs.set_shared_flush(shared_flush);
        fs.create_dir_all(Path::new("/d")).unwrap();
        let [one, two, three] = ["/d/one", "/d/two", "/d/three"]
            .map(|path| fs.open(Path::new(path), OpenMode::CreateNew).unwrap());
        fs.sync_directory(Path::new("/d")).unwrap();
        assert_eq!(
            one.shared_flush_device().unwrap().is_some(),
            shared_flush,
            "shared_flush_device follows the setting"
        );
        one.write_at(b"written back", 0).unwrap();
        one.write_back().unwrap();
        one.write_at(b"!", 12).unwrap(); // after the write-back: not covered
        three.write_at(b"never written back", 0).unwrap();
        two.write_at(b"synced", 0).unwrap();
        two.sync_data().unwrap();
        let after = fs.crash_with(CrashMode::LoseAllUnsynced);
        let contents = |path: &str| after.durable_contents(Path::new(path)).unwrap();
        assert_eq!(contents("/d/two"), b"synced");
        assert_eq!(contents("/d/three"), b"", "no write-back, no durability");
        if shared_flush {
            assert_eq!(
                contents("/d/one"),
                b"written back",
                "the other file's flush covers what reached the device, and only that"
            );
        } else {
            assert_eq!(
                contents("/d/one"),
                b"",
                "no shared flush: only its own sync"
            );
        }
    }
}

#[test]
fn the_logger_uses_one_flush_only_when_the_copies_share_it() {
    for shared_flush in [true, false] {
        let fs = created(5, shared_flush);
        let manager = open(&fs);
        let before = manager.statistics();
        for round in 0..10u8 {
            let (_, end) = manager.append(1, &[&body(round, 3000)]).unwrap();
            manager.force(end).unwrap();
        }
        let after = manager.statistics();
        let ios = after.qjstlogw[0] - before.qjstlogw[0];
        assert_eq!(ios, 10);
        assert_eq!(after.qjstlogw[1] - before.qjstlogw[1], 10);
        let expected = if shared_flush { ios } else { 0 };
        assert_eq!(after.shared_flush_ios - before.shared_flush_ios, expected);
        manager.shutdown().unwrap();
    }
}

#[test]
fn every_io_of_a_write_cycle_counts_as_made_durable_by_one_flush() {
    // One force of about 300 pages: a write cycle of 3 I/Os of at most LOG_WRITE_PAGES_MAX
    // (128) pages and one flush. OUTBUFF and WRTHRSH are large enough that only the force
    // writes them.
    let log = LogParameters {
        outbuff_kib: 2000,
        wrthrsh: 1000,
        twoactv: true,
        active_log_count: 2,
        active_log_size_mib: 4,
    };
    let archive = kept_archives();
    let fs = SimulatedFileSystem::new(9);
    fs.set_shared_flush(true);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    LogManager::create(shared.clone(), Path::new(DIRECTORY), &log, &archive).unwrap();
    let manager = LogManager::open(shared, Path::new(DIRECTORY), &log, &archive).unwrap();
    let before = manager.statistics();
    let mut end = Rba::ZERO;
    for round in 0..400u32 {
        end = manager.append(1, &[&body(round as u8, 3000)]).unwrap().1;
    }
    manager.force(end).unwrap();
    let after = manager.statistics();
    assert_eq!(after.write_syncs - before.write_syncs, 1, "one write cycle");
    let ios = after.qjstlogw[0] - before.qjstlogw[0];
    assert_eq!(ios, 3, "the cycle's I/Os");
    assert_eq!(
        after.shared_flush_ios - before.shared_flush_ios,
        ios,
        "every I/O of the cycle was made durable on both copies by its one flush"
    );
    manager.shutdown().unwrap();
}

/// Every active log write-back hint fails.
#[derive(Default)]
struct FailingWriteBackHint {
    calls: AtomicU64,
}

impl FileHooks for FailingWriteBackHint {
    fn start_write_back(&self, name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        if active_log_copy(name).is_none() {
            return inner.start_write_back();
        }
        self.calls.fetch_add(1, Ordering::SeqCst);
        Err(io::Error::from_raw_os_error(5))
    }

    fn forwards_shared_flush(&self) -> bool {
        true
    }
}

#[test]
fn a_failed_write_back_hint_does_not_fail_the_log() {
    // `start_write_back` only starts the device early; the write-back and sync after it
    // report any error that matters.
    let fs = created(13, true);
    let hooks = Arc::new(FailingWriteBackHint::default());
    let (log, archive) = parameters();
    let hooked = Arc::new(HookedFileSystem::new(Arc::new(fs.clone()), hooks.clone()));
    let manager = LogManager::open(hooked, Path::new(DIRECTORY), &log, &archive).unwrap();
    let payload = body(7, 3000);
    let (rba, end) = manager.append(1, &[&payload]).unwrap();
    manager
        .force(end)
        .expect("a force failed on a failed write-back hint");
    assert!(hooks.calls.load(Ordering::SeqCst) > 0, "no hint was given");
    assert!(
        manager.statistics().shared_flush_ios > 0,
        "the one-flush path"
    );
    manager.abandon();
    drop(manager);
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    let manager = open(&after);
    let found: Vec<_> = manager
        .read_forward(rba)
        .unwrap()
        .map(|record| record.unwrap().payload)
        .collect();
    assert_eq!(found, vec![payload], "the forced record after a power loss");
    manager.shutdown().unwrap();
}

/// Force `A`, then crash at `step` of the force of `B`; destroy `lost` copy; every record whose
/// force returned must be read back whole from the other copy alone.
fn crash_and_lose_a_copy(step: u64, effect: CrashEffect, mode: CrashMode, seed: u64, lost: usize) {
    let fs = created(seed, true);
    let manager = open(&fs);
    let first = body(1, 1500);
    let (first_rba, end) = manager.append(1, &[&first]).unwrap();
    manager.force(end).unwrap();
    fs.set_crash_point(CrashPoint {
        after: step,
        class: OpClass::Mutating,
        paths: PathFilter::prefix(format!("{DIRECTORY}/active/")),
        effect,
    });
    let second = body(2, 6000);
    let (second_rba, end) = manager.append(2, &[&second]).unwrap();
    let forced = manager.force(end).is_ok();
    let after = fs.crash_with(mode);
    manager.abandon();
    drop(manager);
    destroy_copy(&after, lost);
    let context = format!(
        "crash at step {step} ({effect:?}, {mode:?}, seed {seed}), copy {} destroyed, force {}",
        lost + 1,
        if forced { "returned" } else { "failed" }
    );
    let manager = open(&after);
    let records: Vec<_> = manager
        .read_forward(Rba::ZERO)
        .unwrap_or_else(|error| panic!("{context}: {error}"))
        .map(|record| record.unwrap_or_else(|error| panic!("{context}: {error}")))
        .collect();
    assert!(!records.is_empty(), "{context}: forced record A lost");
    assert_eq!(
        (records[0].rba, &records[0].payload),
        (first_rba, &first),
        "{context}: record A damaged"
    );
    if forced {
        assert!(records.len() >= 2, "{context}: forced record B lost");
    }
    if records.len() > 1 {
        assert_eq!(
            (records[1].rba, &records[1].payload),
            (second_rba, &second),
            "{context}: record B damaged"
        );
    }
    assert!(records.len() <= 2, "{context}: records never written");
    manager.shutdown().unwrap();
}

#[test]
fn each_copy_alone_recovers_every_forced_record_at_every_crash_step() {
    // The steps of B's force: copy 1's writes, copy 2's writes, copy 1's write-back, copy 2's
    // sync (and the step after, when the force has returned).
    let steps = {
        let fs = created(0, true);
        let manager = open(&fs);
        let (_, end) = manager.append(1, &[&body(1, 1500)]).unwrap();
        manager.force(end).unwrap();
        let counter = fs.count_operations(
            OpClass::Mutating,
            PathFilter::prefix(format!("{DIRECTORY}/active/")),
        );
        let (_, end) = manager.append(2, &[&body(2, 6000)]).unwrap();
        manager.force(end).unwrap();
        assert_eq!(manager.statistics().shared_flush_ios, 2);
        let steps = counter.get();
        manager.shutdown().unwrap();
        steps
    };
    assert!(steps >= 4, "{steps} steps for a one-flush dual write");
    for step in 0..=steps {
        for effect in [
            CrashEffect::NotApplied,
            CrashEffect::Applied,
            CrashEffect::Torn,
        ] {
            for mode in [
                CrashMode::LoseAllUnsynced,
                CrashMode::KeepAllUnsynced,
                CrashMode::Random,
            ] {
                let seeds = if mode == CrashMode::Random {
                    0..8
                } else {
                    0..1
                };
                for seed in seeds {
                    for lost in 0..2 {
                        crash_and_lose_a_copy(step, effect, mode, seed, lost);
                    }
                }
            }
        }
    }
}
