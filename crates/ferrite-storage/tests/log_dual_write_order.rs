//! Dual logging (TWOACTV) write order under crashes, on the simulated file system.
//!
//! A force whose first page is the partial page already written by an earlier force extends
//! records already reported durable. With the ping-pong slots of active log format 2, that page
//! is never rewritten in place: its new image goes to the other slot, and the page is written in
//! place only once, when final. Both copies are written in parallel. A crash at any I/O step of
//! such a write, with the operation applied, not applied or torn, and with every unsynced write
//! kept, lost or (randomly) kept and torn, must never lose a record whose force returned.
//!
//! The simulator tears writes at sector granularity with whole sectors (what drives
//! guarantee), so rewriting a page with the same leading bytes can never damage them there. The
//! rule itself is therefore also checked directly, on a recording file system: no write, on
//! either copy, touches the slot holding the last synced image of the partial page.
//! (`log_ping_pong.rs` tears writes into garbage, on one copy and on both.)

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ferrite_storage::config::{ArchiveParameters, LogParameters};
use ferrite_storage::log::LogManager;
use ferrite_storage::vfs::simulated::{
    CrashEffect, CrashMode, CrashPoint, OpClass, PathFilter, SimulatedFileSystem,
};
use ferrite_storage::vfs::{FileSystem, RealFileSystem, StorageFile};
use ferrite_storage::Rba;

mod support;
use support::log::{one_mib_logs, open_log, FileHooks, HookedFileSystem, WriteCall};

const DIRECTORY: &str = "/qm/DUALQM";

/// Dual logging: two 1 MiB active logs, 64 KiB OUTBUFF, WRTHRSH 4.
fn parameters() -> (LogParameters, ArchiveParameters) {
    one_mib_logs(64, 4, true, 2)
}

fn body(tag: u8, length: usize) -> Vec<u8> {
    (0..length)
        .map(|i| tag ^ (i as u8).wrapping_mul(31))
        .collect()
}

fn open(fs: &SimulatedFileSystem) -> Arc<LogManager> {
    open_log(fs, DIRECTORY, &parameters())
}

/// A log with one forced record `A` ending part-way into the first page. Returns the file
/// system and `A`.
fn with_partial_page(seed: u64) -> (SimulatedFileSystem, Arc<LogManager>, (Rba, Vec<u8>)) {
    let fs = SimulatedFileSystem::new(seed);
    let (log, archive) = parameters();
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    LogManager::create(shared, Path::new(DIRECTORY), &log, &archive).unwrap();
    let manager = open(&fs);
    let first = body(1, 1500);
    let (start, end) = manager.append(1, &[&first]).unwrap();
    manager.force(end).unwrap();
    (fs, manager, (start, first))
}

/// Crash at `step` (counted over the active logs' mutating operations) of the force of a record
/// of `length` bytes appended after `A`; then restart and check.
fn crash_during_rewrite(seed: u64, length: usize, step: u64, effect: CrashEffect, mode: CrashMode) {
    let (fs, manager, first) = with_partial_page(seed);
    fs.set_crash_point(CrashPoint {
        after: step,
        class: OpClass::Mutating,
        paths: PathFilter::prefix(format!("{DIRECTORY}/active/")),
        effect,
    });
    let second = body(2, length);
    let (start, end) = manager.append(2, &[&second]).unwrap();
    let forced = manager.force(end).is_ok();
    let after = fs.crash_with(mode);
    manager.abandon();
    drop(manager);
    let context = format!(
        "seed {seed}, second record {length} bytes, crash at step {step} ({effect:?}, {mode:?}), force {}",
        if forced { "returned" } else { "failed" }
    );
    let manager = open(&after);
    let records: Vec<_> = manager
        .read_forward(Rba::ZERO)
        .unwrap_or_else(|error| panic!("{context}: {error}"))
        .map(|record| record.unwrap_or_else(|error| panic!("{context}: {error}")))
        .collect();
    assert!(
        !records.is_empty(),
        "{context}: record A (forced before the crash) lost"
    );
    assert_eq!(
        (records[0].rba, &records[0].payload),
        (first.0, &first.1),
        "{context}: record A damaged"
    );
    if forced {
        assert_eq!(records.len(), 2, "{context}: forced record B lost");
    }
    if records.len() > 1 {
        assert_eq!(
            (records[1].rba, &records[1].payload),
            (start, &second),
            "{context}: record B damaged"
        );
    }
    assert!(
        records.len() <= 2,
        "{context}: records that were never written"
    );
    manager.shutdown().unwrap();
}

#[test]
fn a_crash_during_a_dual_rewrite_never_loses_a_forced_record() {
    // The I/O counts of the second force: a rewrite of the partial page alone (500 bytes), and
    // a rewrite followed by new pages (9,000 bytes: the rewritten page is serial, the others
    // parallel).
    for length in [500usize, 9000] {
        let (fs, manager, _) = with_partial_page(0);
        let counter = fs.count_operations(
            OpClass::Mutating,
            PathFilter::prefix(format!("{DIRECTORY}/active/")),
        );
        let (_, end) = manager.append(2, &[&body(2, length)]).unwrap();
        manager.force(end).unwrap();
        let steps = counter.get();
        // Copy 1 write(s) + sync; copy 2 write(s) + sync.
        assert!(steps >= 4, "{steps} I/O steps for a dual write");
        manager.shutdown().unwrap();
        for step in 0..=steps {
            for effect in [
                CrashEffect::Torn,
                CrashEffect::NotApplied,
                CrashEffect::Applied,
            ] {
                for mode in [
                    CrashMode::LoseAllUnsynced,
                    CrashMode::KeepAllUnsynced,
                    CrashMode::Random,
                ] {
                    let seeds = if mode == CrashMode::Random {
                        0..12
                    } else {
                        0..1
                    };
                    for seed in seeds {
                        crash_during_rewrite(seed, length, step, effect, mode);
                    }
                }
            }
        }
    }
}

/// No page is serial (QJSTSERW stays 0), and both copies get every page.
#[test]
fn no_page_is_serial_with_ping_pong_slots() {
    let (_fs, manager, _) = with_partial_page(7);
    let before = manager.statistics();
    for round in 0..20u8 {
        let (_, end) = manager.append(3, &[&body(round, 6000)]).unwrap();
        manager.force(end).unwrap();
    }
    let after = manager.statistics();
    let ios = after.qjstlogw[0] - before.qjstlogw[0];
    assert_eq!(ios, 20);
    assert_eq!(after.qjstlogw[1] - before.qjstlogw[1], 20);
    assert_eq!(
        after.bytes_written[0] - before.bytes_written[0],
        after.bytes_written[1] - before.bytes_written[1]
    );
    // Each force extends the page the previous one ended in, through a slot: nothing serial.
    assert_eq!(after.qjstserw - before.qjstserw, 0);
    assert!(after.qjstciwr - before.qjstciwr >= 20 * 2);
    // QJSTIO: every I/O of each copy in the per-copy table, all of more than one page (6000
    // bytes from a partial page span two at least), with the pages QJSTCIWR counts.
    let table = after.since(&before).copy_io;
    for (copy, classes) in table.iter().enumerate() {
        assert_eq!(classes[0].count, 0, "copy {copy}: {classes:?}");
        assert_eq!(classes[1].count, 20, "copy {copy}: {classes:?}");
        assert_eq!(classes[1].pages, after.qjstciwr - before.qjstciwr);
        assert!(classes[1].max_io_nanos <= classes[1].io_nanos);
    }
    manager.shutdown().unwrap();
}

/// One operation on an active log, in the order the file system saw them.
#[derive(Clone, Debug)]
enum Recorded {
    /// Copy (0 or 1), file offset, length; `done` is false at the start of the call.
    Write(usize, u64, u64, bool),
    Sync(usize, bool),
}

#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Recorded>>>);

impl FileHooks for Recorder {
    fn write_at(&self, call: WriteCall<'_>) -> io::Result<()> {
        let copy = first_log_copy(call.name);
        let record = |done| {
            if let Some(copy) = copy {
                let entry = Recorded::Write(copy, call.offset, call.buffer.len() as u64, done);
                self.0.lock().unwrap().push(entry);
            }
        };
        record(false);
        // Widen the window in which a concurrent write of the other copy would overlap.
        std::thread::sleep(std::time::Duration::from_micros(200));
        let result = call.run();
        record(true);
        result
    }
    fn sync_data(&self, name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        let copy = first_log_copy(name);
        let record = |done| {
            if let Some(copy) = copy {
                self.0.lock().unwrap().push(Recorded::Sync(copy, done));
            }
        };
        record(false);
        let result = inner.sync_data();
        record(true);
        result
    }
}

/// The copy (0 or 1) of the first active log a file is, if it is one.
fn first_log_copy(name: &str) -> Option<usize> {
    if name.starts_with("LOGCOPY1.DS01") {
        Some(0)
    } else if name.starts_with("LOGCOPY2.DS01") {
        Some(1)
    } else {
        None
    }
}

/// Active log data area in these tests (1 MiB): the ping-pong slots follow it.
const SLOTS_OFFSET: u64 = 4096 + 1024 * 1024;
const SLOT_BYTES: u64 = 8192;

/// The slot (0 or 1) of the last write to a slot in `operations`, if any.
fn last_slot_written(operations: &[Recorded]) -> Option<u64> {
    operations
        .iter()
        .rev()
        .find_map(|operation| match *operation {
            Recorded::Write(_, offset, _, true) if offset >= SLOTS_OFFSET => {
                Some((offset - SLOTS_OFFSET) / SLOT_BYTES)
            }
            _ => None,
        })
}

/// No write on either copy touches `slot` (which holds the only synced image of the partial
/// page).
fn assert_slot_untouched(operations: &[Recorded], slot: u64, context: &str) {
    let start = SLOTS_OFFSET + slot * SLOT_BYTES;
    for (index, operation) in operations.iter().enumerate() {
        if let Recorded::Write(copy, offset, length, false) = *operation {
            assert!(
                offset + length <= start || start + SLOT_BYTES <= offset,
                "{context}: operation {index}: copy {} writes slot {} holding the durable image \
                 of the partial page: {operations:?}",
                copy + 1,
                slot + 1
            );
        }
    }
}

#[test]
fn the_durable_image_of_the_partial_page_is_never_overwritten() {
    let temporary = tempfile::tempdir().unwrap();
    let directory: PathBuf = temporary.path().join("QM");
    let recorder = Recorder::default();
    let fs: Arc<dyn FileSystem> = Arc::new(HookedFileSystem::new(
        Arc::new(RealFileSystem),
        Arc::new(recorder.clone()),
    ));
    let (log, archive) = parameters();
    LogManager::create(fs.clone(), &directory, &log, &archive).unwrap();
    let manager = LogManager::open(fs, &directory, &log, &archive).unwrap();
    let mut serial = 0;
    let mut holding: Option<u64> = None;
    let mut checked = 0;
    for (round, length) in [700usize, 300, 9000, 5000, 20, 13_000, 4087, 1]
        .into_iter()
        .enumerate()
    {
        let durable = manager.durable_rba().0;
        recorder.0.lock().unwrap().clear();
        let (_, end) = manager.append(4, &[&body(round as u8, length)]).unwrap();
        let before = manager.statistics().qjstserw;
        manager.force(end).unwrap();
        serial += manager.statistics().qjstserw - before;
        let operations = recorder.0.lock().unwrap().clone();
        let context = format!("round {round} ({length} bytes after durable {durable:#X})");
        assert!(
            operations
                .iter()
                .any(|operation| matches!(operation, Recorded::Write(1, ..))),
            "{context}: copy 2 not written"
        );
        for copy in 0..2 {
            assert!(
                operations.iter().any(
                    |operation| matches!(operation, Recorded::Sync(synced, true) if *synced == copy)
                ),
                "{context}: copy {} not synced",
                copy + 1
            );
        }
        if let (Some(slot), false) = (holding, durable.is_multiple_of(4096)) {
            assert_slot_untouched(&operations, slot, &context);
            checked += 1;
        }
        // The partial page the force ended in is in the slot it wrote last.
        holding = if end.0.is_multiple_of(4096) {
            None
        } else {
            Some(last_slot_written(&operations).unwrap_or_else(|| {
                panic!("{context}: a force ending mid-page wrote no slot: {operations:?}")
            }))
        };
    }
    assert!(checked >= 6, "forces extending a partial page ({checked})");
    assert_eq!(serial, 0, "no serial writes with ping-pong slots");
    manager.shutdown().unwrap();
}
