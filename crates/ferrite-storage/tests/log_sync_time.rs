//! `LogStatistics::sync_nanos`: the part of a write cycle spent in its sync, on each of the
//! writer's three paths (one copy; two copies, copy 2 on its own writer thread; two copies
//! sharing one device flush). The benchmark's per-cycle breakdown (writes, sync, between
//! cycles) rests on it.

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use ferrite_storage::config::LogParameters;
use ferrite_storage::log::LogManager;
use ferrite_storage::vfs::simulated::SimulatedFileSystem;
use ferrite_storage::vfs::{FileSystem, StorageFile};
use ferrite_storage::Rba;

mod log_support;
use log_support::{kept_archives, FileHooks, HookedFileSystem};

const DIRECTORY: &str = "/qm/SYNCTIME";
/// How long each active log sync takes here.
const SYNC_DELAY: Duration = Duration::from_millis(20);

/// Active log syncs take [`SYNC_DELAY`]; with `shared_flush` the files pass the one-flush
/// interface through.
struct SlowSync {
    shared_flush: bool,
}

impl FileHooks for SlowSync {
    fn sync_data(&self, name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        if name.starts_with("LOGCOPY") {
            std::thread::sleep(SYNC_DELAY);
        }
        inner.sync_data()
    }
    fn forwards_shared_flush(&self) -> bool {
        self.shared_flush
    }
}

fn sync_time_is_counted(twoactv: bool, shared_flush: bool) {
    let context = format!("TWOACTV {twoactv}, one flush {shared_flush}");
    let log = LogParameters {
        outbuff_kib: 512,
        wrthrsh: 1000,
        twoactv,
        active_log_count: 2,
        active_log_size_mib: 4,
    };
    let archive = kept_archives();
    let fs = SimulatedFileSystem::new(5);
    fs.set_shared_flush(shared_flush);
    let hooked: Arc<dyn FileSystem> = Arc::new(HookedFileSystem::new(
        Arc::new(fs),
        Arc::new(SlowSync { shared_flush }),
    ));
    LogManager::create(hooked.clone(), Path::new(DIRECTORY), &log, &archive).unwrap();
    let manager = LogManager::open(hooked, Path::new(DIRECTORY), &log, &archive).unwrap();
    let before = manager.statistics();
    let mut end = Rba::ZERO;
    for round in 0..3u8 {
        end = manager.append(1, &[&vec![round; 5000]]).unwrap().1;
        manager.force(end).unwrap();
    }
    let after = manager.statistics();
    let syncs = after.write_syncs - before.write_syncs;
    let sync_nanos = after.sync_nanos - before.sync_nanos;
    let busy_nanos = after.io_busy_nanos - before.io_busy_nanos;
    assert!(syncs >= 3, "{context}: {syncs} write syncs for 3 forces");
    assert!(
        sync_nanos >= syncs * SYNC_DELAY.as_nanos() as u64,
        "{context}: {sync_nanos} ns counted in {syncs} syncs of at least {SYNC_DELAY:?} each"
    );
    assert!(
        sync_nanos <= busy_nanos,
        "{context}: {sync_nanos} ns in syncs, more than the {busy_nanos} ns the cycles took"
    );
    manager.shutdown().unwrap();
    let _ = end;
}

#[test]
fn the_sync_time_of_every_write_cycle_is_counted() {
    sync_time_is_counted(false, false);
    sync_time_is_counted(true, false);
    sync_time_is_counted(true, true);
}
