//! Log buffer space is freed once an I/O is written, not once it is synced.
//!
//! The writer hands every copy an I/O's bytes, frees their buffer pages (`LogShared::written`:
//! the bytes are in the files, which is where readers read them), and only then waits in the
//! sync. So an appender that needs that space proceeds while the sync is in progress, instead
//! of waiting for a free buffer (QJSTWTB). The tests hold one copy's write of the I/O at a gate
//! (the second copy's, with dual logging) and check that an append needing the space waits
//! meanwhile (the space is not freed before every copy has the bytes); then hold the sync at
//! another gate and check that the append completes meanwhile, that nothing becomes durable
//! before the sync returns, and that a sync that then fails still fails the log and every
//! forcer, and a power loss keeps exactly what was forced before (the I/O's record intact).

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::thread;
use std::time::Duration;

use ferrite_storage::config::{ArchiveParameters, LogParameters};
use ferrite_storage::log::LogManager;
use ferrite_storage::vfs::simulated::{CrashMode, SimulatedFileSystem};
use ferrite_storage::vfs::StorageFile;
use ferrite_storage::Rba;

mod support;
use support::log::{active_log_copy, one_mib_logs, FileHooks, HookedFileSystem, WriteCall};

const DIRECTORY: &str = "/qm/RELEASE";
/// How long an append that must not wait for the sync is given.
const APPEND_TIMEOUT: Duration = Duration::from_secs(5);
/// How long an append that must wait for the held write is watched.
const BLOCKED_FOR: Duration = Duration::from_millis(300);
/// End of the active logs' data (header, then 1 MiB): the ping-pong slots follow.
const DATA_END: u64 = 4096 + 1024 * 1024;

fn parameters(twoactv: bool) -> (LogParameters, ArchiveParameters) {
    // The smallest buffer (2 pages): a second record fits only once the first I/O's full
    // page is free.
    one_mib_logs(8, 1000, twoactv, 2)
}

/// A point a file operation waits at, once reached, until the test opens it.
#[derive(Default)]
struct Gate {
    state: Mutex<(bool, bool)>, // (holding, open)
    changed: Condvar,
}

impl Gate {
    fn hold(&self) {
        let mut state = self.state.lock().unwrap();
        state.0 = true;
        self.changed.notify_all();
        while !state.1 {
            state = self.changed.wait(state).unwrap();
        }
    }

    fn wait_holding(&self) {
        let mut state = self.state.lock().unwrap();
        while !state.0 {
            state = self.changed.wait_timeout(state, APPEND_TIMEOUT).unwrap().0;
        }
    }

    fn open(&self) {
        self.state.lock().unwrap().1 = true;
        self.changed.notify_all();
    }
}

/// Once armed: the first in-place write to active log copy `write_copy` waits at `write`;
/// active log syncs wait at `sync`, then sync or fail.
#[derive(Default)]
struct Gates {
    armed: AtomicBool,
    write_copy: AtomicUsize,
    write_taken: AtomicBool,
    write: Gate,
    sync: Gate,
    fail: AtomicBool,
}

impl FileHooks for Gates {
    fn write_at(&self, call: WriteCall<'_>) -> io::Result<()> {
        if self.armed.load(Ordering::SeqCst)
            && active_log_copy(call.name) == Some(self.write_copy.load(Ordering::SeqCst))
            && call.offset < DATA_END
            && !self.write_taken.swap(true, Ordering::SeqCst)
        {
            self.write.hold();
        }
        call.run()
    }

    fn sync_data(&self, name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        if active_log_copy(name).is_none() || !self.armed.load(Ordering::SeqCst) {
            return inner.sync_data();
        }
        self.sync.hold();
        if self.fail.load(Ordering::SeqCst) {
            Err(io::Error::from_raw_os_error(5))
        } else {
            inner.sync_data()
        }
    }
}

fn body(tag: u8, length: usize) -> Vec<u8> {
    (0..length)
        .map(|i| tag ^ (i as u8).wrapping_mul(31))
        .collect()
}

/// Records forced before; record A's force held in its sync; record B appended meanwhile.
fn append_during_sync(twoactv: bool, sync_fails: bool) {
    let context = format!("TWOACTV {twoactv}, the held sync fails: {sync_fails}");
    let fs = SimulatedFileSystem::new(3).with_crash_mode(CrashMode::LoseAllUnsynced);
    fs.set_shared_flush(false);
    let (log, archive) = parameters(twoactv);
    LogManager::create(Arc::new(fs.clone()), Path::new(DIRECTORY), &log, &archive).unwrap();
    let gate = Arc::new(Gates::default());
    let hooked = Arc::new(HookedFileSystem::new(Arc::new(fs.clone()), gate.clone()));
    let manager = LogManager::open(hooked, Path::new(DIRECTORY), &log, &archive).unwrap();
    let before = body(1, 700);
    let (_, end) = manager.append(1, &[&before]).unwrap();
    manager.force(end).unwrap();
    gate.write_copy
        .store(usize::from(twoactv), Ordering::SeqCst);
    gate.fail.store(sync_fails, Ordering::SeqCst);
    gate.armed.store(true, Ordering::SeqCst);

    // Record A fills the rest of the first page and most of the second: its force writes both
    // and waits at the gate.
    let a = body(2, 6000);
    let (_, a_end) = manager.append(1, &[&a]).unwrap();
    let forcer = {
        let manager = manager.clone();
        thread::spawn(move || manager.force(a_end))
    };
    gate.write.wait_holding();
    // Record B needs the first page's space: free once A's I/O is written on every copy,
    // though not synced. While one copy's write is held, B waits.
    let b = body(3, 5000);
    let (sender, receiver) = mpsc::channel();
    let appender = {
        let (manager, b) = (manager.clone(), b.clone());
        thread::spawn(move || sender.send(manager.append(1, &[&b])).unwrap())
    };
    assert!(
        receiver.recv_timeout(BLOCKED_FOR).is_err(),
        "{context}: B was appended in space whose bytes a copy had not written yet"
    );
    gate.write.open();
    gate.sync.wait_holding();
    let appended = receiver.recv_timeout(APPEND_TIMEOUT);
    assert!(
        manager.durable_rba() < a_end,
        "{context}: A durable before its sync returned"
    );
    let statistics = manager.statistics();
    gate.sync.open();
    appender.join().unwrap();
    let forced = forcer.join().unwrap();
    let (_, b_end) = appended
        .unwrap_or_else(|_| panic!("{context}: the append waited for the held sync"))
        .unwrap();
    assert_eq!(
        statistics.qjstwtb, 1,
        "{context}: one wait for a free buffer (B's, while A's write was held)"
    );
    if sync_fails {
        assert!(
            forced.is_err(),
            "{context}: A's force returned after a failed sync"
        );
        assert!(
            manager.force(b_end).is_err(),
            "{context}: B's force returned after the log failed"
        );
        assert!(manager.durable_rba() < a_end, "{context}: durable moved");
    } else {
        forced.unwrap();
        manager.force(b_end).unwrap();
    }
    manager.abandon();
    drop(manager);
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    let manager = LogManager::open(Arc::new(after), Path::new(DIRECTORY), &log, &archive).unwrap();
    let found: Vec<Vec<u8>> = manager
        .read_forward(Rba::ZERO)
        .unwrap()
        .map(|record| record.unwrap().payload)
        .collect();
    let expected = if sync_fails {
        vec![before]
    } else {
        vec![before, a, b]
    };
    assert_eq!(found, expected, "{context}: records after the power loss");
    manager.shutdown().unwrap();
}

#[test]
fn an_append_uses_the_space_of_an_io_written_but_not_yet_synced() {
    for twoactv in [false, true] {
        append_during_sync(twoactv, false);
    }
}

#[test]
fn a_sync_failing_after_the_space_was_freed_still_fails_the_log() {
    for twoactv in [false, true] {
        append_during_sync(twoactv, true);
    }
}
