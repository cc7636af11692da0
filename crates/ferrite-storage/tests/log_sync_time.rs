//! `LogStatistics::sync_nanos`: the part of a write cycle spent in its sync, on each of the
//! writer's three paths (one copy; two copies, copy 2 on its own writer thread; two copies
//! sharing one device flush). The benchmark's per-cycle breakdown (writes, sync, between
//! cycles) rests on it.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ferrite_storage::config::LogParameters;
use ferrite_storage::log::LogManager;
use ferrite_storage::vfs::simulated::SimulatedFileSystem;
use ferrite_storage::vfs::{FileSystem, StorageFile};

mod support;
use support::log::{active_log_copy, kept_archives, FileHooks, HookedFileSystem, WriteCall};

const DIRECTORY: &str = "/qm/SYNCTIME";
/// How long each active log sync takes here (copy 1's).
const SYNC_DELAY: Duration = Duration::from_millis(20);
/// How long copy 2's syncs take: longer than copy 1's, so a cycle's sync time must run until
/// the last copy is durable, not the first.
const COPY_2_SYNC_DELAY: Duration = Duration::from_millis(40);
// The dual logging check below tells "until copy 2 is durable" from "until copy 1 is" only if
// copy 2's sync, less the part that may fall before the count starts, outlasts copy 1's.
const _: () =
    assert!(COPY_2_SYNC_DELAY.as_nanos() - WRITE_DELAY.as_nanos() > SYNC_DELAY.as_nanos());
/// How long each active log write takes here (the simulator's take next to nothing, so without
/// it a cycle's writes could not be told from its sync).
const WRITE_DELAY: Duration = Duration::from_millis(10);

/// Active log writes take [`WRITE_DELAY`] and syncs [`SYNC_DELAY`] (copy 2's
/// [`COPY_2_SYNC_DELAY`]); once `failing` is set the syncs then fail; with `shared_flush` the files pass the one-flush interface through.
struct SlowSync {
    shared_flush: bool,
    failing: AtomicBool,
}

impl SlowSync {
    fn new(shared_flush: bool) -> SlowSync {
        SlowSync {
            shared_flush,
            failing: AtomicBool::new(false),
        }
    }
}

impl FileHooks for SlowSync {
    fn write_at(&self, call: WriteCall<'_>) -> io::Result<()> {
        if call.name.starts_with("LOGCOPY") {
            std::thread::sleep(WRITE_DELAY);
        }
        call.run()
    }
    fn sync_data(&self, name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        if let Some(copy) = active_log_copy(name) {
            std::thread::sleep(if copy == 1 {
                COPY_2_SYNC_DELAY
            } else {
                SYNC_DELAY
            });
            if self.failing.load(Ordering::SeqCst) {
                return Err(io::Error::other(format!("{name}: injected sync failure")));
            }
        }
        inner.sync_data()
    }
    fn forwards_shared_flush(&self) -> bool {
        self.shared_flush
    }
}

/// A log on the simulator whose active log syncs are `hooks`, with TWOACTV `twoactv`.
fn open_log(twoactv: bool, hooks: Arc<SlowSync>) -> Arc<LogManager> {
    let log = LogParameters {
        outbuff_kib: 512,
        wrthrsh: 1000,
        twoactv,
        active_log_count: 2,
        active_log_size_mib: 4,
    };
    let archive = kept_archives();
    let fs = SimulatedFileSystem::new(5);
    fs.set_shared_flush(hooks.shared_flush);
    let hooked: Arc<dyn FileSystem> = Arc::new(HookedFileSystem::new(Arc::new(fs), hooks));
    LogManager::create(hooked.clone(), Path::new(DIRECTORY), &log, &archive).unwrap();
    LogManager::open(hooked, Path::new(DIRECTORY), &log, &archive).unwrap()
}

fn sync_time_is_counted(twoactv: bool, shared_flush: bool) {
    let context = format!("TWOACTV {twoactv}, one flush {shared_flush}");
    let manager = open_log(twoactv, Arc::new(SlowSync::new(shared_flush)));
    let before = manager.statistics();
    for round in 0..3u8 {
        let end = manager.append(1, &[&vec![round; 5000]]).unwrap().1;
        manager.force(end).unwrap();
    }
    let after = manager.statistics();
    let syncs = after.write_syncs - before.write_syncs;
    let sync_nanos = after.sync_nanos - before.sync_nanos;
    let busy_nanos = after.io_busy_nanos - before.io_busy_nanos;
    assert!(syncs >= 3, "{context}: {syncs} write syncs for 3 forces");
    // The case ran the path it names: the one-flush path counts its I/Os, the others none.
    assert_eq!(
        after.shared_flush_ios > before.shared_flush_ios,
        shared_flush,
        "{context}: the writer path run"
    );
    // Every cycle's sync lasts until the slowest copy is durable. On the dual-thread path copy
    // 2's writer starts its sync as soon as its own write is done, while copy 1 may still be
    // writing, and the count starts once both are written: up to about one write of copy 2's
    // sync falls before it. Stopping at copy 1's durable instead would count SYNC_DELAY.
    let least = if twoactv {
        COPY_2_SYNC_DELAY - WRITE_DELAY
    } else {
        SYNC_DELAY
    };
    assert!(
        sync_nanos >= syncs * least.as_nanos() as u64,
        "{context}: {sync_nanos} ns counted in {syncs} syncs of at least {least:?} each"
    );
    assert!(
        sync_nanos <= busy_nanos,
        "{context}: {sync_nanos} ns in syncs, more than the {busy_nanos} ns the cycles took"
    );
    // Each cycle writes before it syncs: that time is in io_busy_nanos, not in sync_nanos.
    assert!(
        busy_nanos - sync_nanos >= syncs * WRITE_DELAY.as_nanos() as u64,
        "{context}: {} ns of the cycles outside their syncs, less than {syncs} writes of {WRITE_DELAY:?}",
        busy_nanos - sync_nanos
    );
    manager.shutdown().unwrap();
}

#[test]
fn the_sync_time_of_every_write_cycle_is_counted() {
    sync_time_is_counted(false, false);
    sync_time_is_counted(true, false);
    sync_time_is_counted(true, true);
}

/// A cycle whose sync fails counts nothing in `sync_nanos`, as it counts nothing in
/// `io_busy_nanos`: `sync_nanos` stays a part of `io_busy_nanos` after a failure.
fn a_failed_sync_is_not_counted(twoactv: bool, shared_flush: bool) {
    let context = format!("TWOACTV {twoactv}, one flush {shared_flush}");
    let hooks = Arc::new(SlowSync::new(shared_flush));
    let manager = open_log(twoactv, hooks.clone());
    let before = manager.statistics();
    hooks.failing.store(true, Ordering::SeqCst);
    let end = manager.append(1, &[&[7u8; 5000]]).unwrap().1;
    assert!(
        manager.force(end).is_err(),
        "{context}: a force whose sync failed returned"
    );
    let after = manager.statistics();
    let sync_nanos = after.sync_nanos - before.sync_nanos;
    let busy_nanos = after.io_busy_nanos - before.io_busy_nanos;
    assert!(
        sync_nanos <= busy_nanos,
        "{context}: {sync_nanos} ns in failed syncs counted, more than the {busy_nanos} ns of cycles"
    );
    manager.abandon();
}

#[test]
fn a_failed_sync_adds_no_sync_time() {
    a_failed_sync_is_not_counted(false, false);
    a_failed_sync_is_not_counted(true, false);
    a_failed_sync_is_not_counted(true, true);
}
