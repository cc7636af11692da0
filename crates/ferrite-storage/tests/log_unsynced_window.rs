//! One sync per write cycle: a crash that leaves a hole in the cycle's unsynced I/Os.
//!
//! A write cycle of several 128-page I/Os issues them all, then one `sync_data` per copy
//! (`log/writer.rs`). A power loss before that sync can leave any subset of the I/Os on disk:
//! here, a full cycle of 8 I/Os (the most `LOG_UNSYNCED_PAGES_MAX` allows, about 990 pages)
//! with only the last I/O and the slot durable, whose records have valid checksums and the
//! right RBAs. Restart must end the log at the hole (nothing after a missing record), and
//! must zero far enough past it (`RESTART_ZERO_AHEAD_PAGES`, which covers
//! `LOG_UNSYNCED_PAGES_MAX`) that the stale later records can never come back: the test then
//! fills the hole with new records of exactly the lost ones' lengths, so the next new record
//! would start exactly where a stale one does, forces them, loses power again and restarts
//! twice in a row. Every forced record is there each time, the stale ones never are.
//!
//! The crash is taken inside the cycle's first active log sync (a hook around the simulator
//! computes the crash image there: exactly the unsynced writes the scenario keeps survive), so
//! the writes it chooses from are the cycle's own.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use ferrite_storage::config::{ArchiveParameters, LogParameters};
use ferrite_storage::log::{LogManager, LOG_WRITE_PAGES_MAX};
use ferrite_storage::vfs::simulated::{CrashMode, SimulatedFileSystem};
use ferrite_storage::vfs::{FileSystem, StorageFile};
use ferrite_storage::Rba;

mod support;
use support::log::{active_log_copy, kept_archives, FileHooks, HookedFileSystem};

const DIRECTORY: &str = "/qm/UNSYNCED";
const ACTIVE_LOG_MIB: u32 = 8;
const HEADER_BYTES: u64 = 4096;
const IO_BYTES: u64 = (LOG_WRITE_PAGES_MAX * 4096) as u64;
/// Payload bytes of each record of the cycle (many records per page, none page-aligned).
const RECORD_PAYLOAD: usize = 3001;
/// Pages the crashing force's cycle reaches: under OUTBUFF and WRTHRSH (1000 pages, so only
/// the force writes it), over 7 I/Os of 128 pages, so the cycle has 8.
const CYCLE_PAGES: u64 = 990;
/// The cycle's last I/O (0-based), the only one of its in-place writes kept on disk.
const LAST_IO: u64 = 7;

fn parameters(twoactv: bool) -> (LogParameters, ArchiveParameters) {
    (
        LogParameters {
            // Large enough that nothing but the force writes the cycle (no buffer wait, no
            // WRTHRSH write): its I/Os are all unsynced when its sync starts.
            outbuff_kib: 4000,
            wrthrsh: 1000,
            twoactv,
            active_log_count: 2,
            active_log_size_mib: ACTIVE_LOG_MIB,
        },
        kept_archives(),
    )
}

fn body(tag: usize, length: usize) -> Vec<u8> {
    (0..length)
        .map(|i| (tag as u8).wrapping_mul(29) ^ (i as u8).wrapping_mul(31) ^ (tag >> 8) as u8)
        .collect()
}

fn open(fs: Arc<dyn FileSystem>, twoactv: bool) -> Arc<LogManager> {
    let (log, archive) = parameters(twoactv);
    LogManager::open(fs, Path::new(DIRECTORY), &log, &archive).unwrap()
}

/// Every record (RBA, payload) from the start of the log.
fn read_all(manager: &LogManager) -> Vec<(Rba, Vec<u8>)> {
    manager
        .read_forward(Rba::ZERO)
        .unwrap()
        .map(|record| {
            let record = record.unwrap();
            (record.rba, record.payload)
        })
        .collect()
}

/// Which unsynced writes of the cycle survive the crash, per copy: given the I/O's index in
/// the cycle (slot writes: `None`).
type Survivors = fn(usize, Option<usize>) -> bool;

/// Armed: the first active log sync takes the crash image (keeping what `survivors` picks of
/// the writes since `cycle_start`) and fails; a sync of the other copy waits for it.
struct CrashAtCycleSync {
    /// Set once the log is open (restart's own syncs pass).
    armed: AtomicBool,
    fs: SimulatedFileSystem,
    cycle_start: u64,
    survivors: Survivors,
    /// The highest I/O index among the cycle's unsynced writes when the image was taken.
    highest_io: AtomicU64,
    crashed: Mutex<Option<Option<SimulatedFileSystem>>>,
    taken: Condvar,
}

impl CrashAtCycleSync {
    fn take_image(&self) {
        let cycle_start = self.cycle_start;
        let survivors = self.survivors;
        let image = self.fs.crash_keeping(|path, offset, _length| {
            let name = path.file_name().unwrap().to_string_lossy();
            let Some(copy) = active_log_copy(&name) else {
                return false;
            };
            let data_end = HEADER_BYTES + u64::from(ACTIVE_LOG_MIB) * 1024 * 1024;
            if offset >= data_end {
                return survivors(copy, None);
            }
            let rba = offset - HEADER_BYTES;
            assert!(rba >= cycle_start, "a write before the cycle was unsynced");
            let io = (rba - cycle_start) / IO_BYTES;
            self.highest_io.fetch_max(io, Ordering::SeqCst);
            survivors(copy, Some(io as usize))
        });
        *self.crashed.lock().unwrap() = Some(Some(image));
        self.taken.notify_all();
    }
}

impl FileHooks for CrashAtCycleSync {
    fn sync_data(&self, name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        let Some(copy) = active_log_copy(name).filter(|_| self.armed.load(Ordering::SeqCst)) else {
            return inner.sync_data();
        };
        let mut crashed = self.crashed.lock().unwrap();
        match &*crashed {
            None if copy == 0 => {
                *crashed = Some(None);
                drop(crashed);
                self.take_image();
            }
            None | Some(None) => {
                while !matches!(&*crashed, Some(Some(_))) {
                    crashed = self.taken.wait(crashed).unwrap();
                }
            }
            Some(Some(_)) => {}
        }
        Err(io::Error::other("power lost during this sync"))
    }
}

/// The scenario: records forced before, a cycle of 8 I/Os crashed at its sync with
/// `survivors` deciding which of its writes are on disk, then the checks described above.
fn hole_in_the_unsynced_window(twoactv: bool, survivors: Survivors, context: &str) {
    let fs = SimulatedFileSystem::new(11).with_crash_mode(CrashMode::LoseAllUnsynced);
    fs.set_shared_flush(false);
    let (log, archive) = parameters(twoactv);
    LogManager::create(Arc::new(fs.clone()), Path::new(DIRECTORY), &log, &archive).unwrap();
    let manager = open(Arc::new(fs.clone()), twoactv);
    // Forced before the cycle: must survive. The last one ends part-way into a page, so the
    // cycle starts by extending a page whose durable image is in a slot.
    let mut appended: Vec<(Rba, Vec<u8>)> = Vec::new();
    for tag in 0..7 {
        let payload = body(tag, 1000 + tag * 13);
        let (rba, end) = manager.append(1, &[&payload]).unwrap();
        manager.force(end).unwrap();
        appended.push((rba, payload));
    }
    let forced = appended.len();
    let durable = manager.durable_rba().0;
    manager.shutdown().unwrap();
    drop(manager);

    let hooks = Arc::new(CrashAtCycleSync {
        armed: AtomicBool::new(false),
        fs: fs.clone(),
        cycle_start: durable & !4095,
        survivors,
        highest_io: AtomicU64::new(0),
        crashed: Mutex::new(None),
        taken: Condvar::new(),
    });
    let manager = open(
        Arc::new(HookedFileSystem::new(Arc::new(fs.clone()), hooks.clone())),
        twoactv,
    );
    hooks.armed.store(true, Ordering::SeqCst);
    let cycle_start = durable & !4095;
    let mut end = Rba(durable);
    let mut tag = 1000;
    while end.0 - cycle_start < CYCLE_PAGES * 4096 {
        let payload = body(tag, RECORD_PAYLOAD);
        let (rba, record_end) = manager.append(1, &[&payload]).unwrap();
        appended.push((rba, payload));
        end = record_end;
        tag += 1;
    }
    assert!(
        end.0 - cycle_start > LAST_IO * IO_BYTES && end.0 - cycle_start < 1000 * 4096,
        "{context}: the cycle must have {} I/Os and stay under OUTBUFF",
        LAST_IO + 1
    );
    assert!(
        manager.force(end).is_err(),
        "{context}: the force returned although its sync failed"
    );
    manager.abandon();
    drop(manager);
    let image = hooks.crashed.lock().unwrap().take().flatten().unwrap();
    assert_eq!(
        hooks.highest_io.load(Ordering::SeqCst),
        LAST_IO,
        "{context}: the crash image must choose from every I/O of the cycle, its last included \
         (none of them synced before)"
    );

    // First restart: a prefix of what was appended, every forced record, nothing after a hole.
    let manager = open(Arc::new(image.clone()), twoactv);
    let found = read_all(&manager);
    assert!(
        found.len() >= forced && found.len() < appended.len(),
        "{context}: {} records after the crash, {forced} forced, {} appended",
        found.len(),
        appended.len()
    );
    assert_eq!(
        found[..],
        appended[..found.len()],
        "{context}: not a prefix"
    );
    let kept = found.len();
    // The stale records: the first one that starts in the last I/O (kept on disk) and the
    // records before it, whose lengths the new records repeat.
    // Beyond what zeroing one I/O's worth past the end would clear, so that only a zero-ahead
    // covering the whole unsynced window keeps it from coming back.
    let one_io_zeroed = (manager.end_rba().0 & !4095) + (LOG_WRITE_PAGES_MAX as u64 + 2) * 4096;
    let stale = appended
        .iter()
        .position(|(rba, _)| rba.0 >= (cycle_start + LAST_IO * IO_BYTES).max(one_io_zeroed))
        .unwrap();
    let mut expected = found.clone();
    for (index, (rba, old)) in appended[kept..stale].iter().enumerate() {
        let payload = body(5000 + index, old.len());
        let (new_rba, _) = manager.append(1, &[&payload]).unwrap();
        assert_eq!(
            new_rba, *rba,
            "{context}: the new records repeat the lost RBAs"
        );
        expected.push((new_rba, payload));
    }
    assert_eq!(
        manager.end_rba(),
        appended[stale].0,
        "{context}: hole filled"
    );
    manager.force(manager.end_rba()).unwrap();
    manager.abandon();
    drop(manager);

    // Power loss, then restart twice in a row: exactly the records forced, never a stale one.
    let mut fs = image.crash_with(CrashMode::LoseAllUnsynced);
    for round in 1..=2 {
        let manager = open(Arc::new(fs.clone()), twoactv);
        let found = read_all(&manager);
        assert_eq!(
            found.len(),
            expected.len(),
            "{context}: restart {round} found {} records, expected {} (a stale record after the \
             filled hole came back)",
            found.len(),
            expected.len()
        );
        assert_eq!(found, expected, "{context}: restart {round}");
        manager.abandon();
        drop(manager);
        fs = fs.crash_with(CrashMode::LoseAllUnsynced);
    }
}

#[test]
fn a_hole_in_the_unsynced_window_never_resurrects_later_records_single() {
    // Only the cycle's last I/O (and the slot) on disk.
    hole_in_the_unsynced_window(
        false,
        |_, io| io.is_none_or(|io| io == LAST_IO as usize),
        "single, I/O 8 kept",
    );
}

#[test]
fn a_hole_in_the_unsynced_window_never_resurrects_later_records_dual() {
    // Copy 1 kept only the last I/O, copy 2 also I/O 1: restart takes I/O 1's records from
    // copy 2, then ends at the hole both copies have (I/O 2).
    hole_in_the_unsynced_window(
        true,
        |copy, io| io.is_none_or(|io| io == LAST_IO as usize || (copy == 1 && io == 0)),
        "dual, I/O 8 kept, copy 2 kept I/O 1",
    );
}
