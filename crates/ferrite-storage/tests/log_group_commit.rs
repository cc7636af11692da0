//! Leader/follower group commit (`LogShared::lead_force`, `log/writer.rs`).
//!
//! A forcer that finds no log I/O in progress writes and syncs the log itself (the leader);
//! forcers arriving while an I/O is in progress park and are covered by the next I/O, which
//! the logger thread leads for all of them. These tests hold the leader inside its
//! `sync_data` (a gate in a file system wrapped around the simulator) to place followers
//! exactly where they matter. The gate holds the leader either before its sync or after it
//! (the data durable, `durable` not yet moved, the I/O lock still held), or fails it:
//!
//! - followers whose records are inside a leader's in-flight I/O return when it is durable,
//!   not before, and no second I/O is made for them;
//! - followers parked during a leader's I/O with records past it are all made durable and all
//!   woken, by one more I/O;
//! - a leader whose I/O fails (EIO, ENOSPC) fails every follower, inside its I/O or past it,
//!   with the log's error, and every record forced before is still there after a power loss;
//! - a lone forcer leads its own I/O (no hand-off to the logger thread);
//! - an open that fails after reading the log leaves no thread (copy 2 writer) holding it.
//!
//! No file operation follows the sync before the leader moves `durable`, wakes the forcers and
//! releases the I/O lock, so a gate cannot hold a leader in between: a forcer arriving there
//! is only met by chance, in `many_committers_all_durable_with_no_lost_wake_up`. Every wait is
//! bounded: a lost wake-up fails the test instead of hanging it.

use std::io;
use std::path::Path;
use std::sync::mpsc::{self, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use ferrite_storage::config::{ArchiveParameters, LogParameters};
use ferrite_storage::log::{LogManager, LogStatistics};
use ferrite_storage::vfs::simulated::{CrashMode, SimulatedFileSystem};
use ferrite_storage::vfs::{FileSystem, OpenMode, StorageFile};
use ferrite_storage::{Rba, StorageError};

mod support;
use support::log::{active_log_copy, one_mib_logs, FileHooks, HookedFileSystem};

const DIRECTORY: &str = "/qm/GROUPCOMMIT";
/// Longest any forcer may take once the gate is open (a lost wake-up would take forever).
const FORCE_TIMEOUT: Duration = Duration::from_secs(20);
/// Longest a forcer parked at the gate may take to return once it opens: below the logger's
/// 1 s safety-net poll (`LOGGER_IDLE_WAIT_MS`), which would otherwise hide a lost wake-up.
const WOKEN_WITHIN: Duration = Duration::from_millis(500);
const EIO: i32 = 5;
const ENOSPC: i32 = 28;
/// Followers started while the leader is held in its sync.
const FOLLOWERS: usize = 12;
/// How long a test that counts write cycles waits after its forcers return for a cycle still
/// being counted (the logger counts one after its I/O has woken them).
const SETTLE: Duration = Duration::from_millis(100);

fn parameters(twoactv: bool) -> (LogParameters, ArchiveParameters) {
    // Only forces write: the logger never starts a threshold write of its own.
    one_mib_logs(1024, 256, twoactv, 3)
}

/// What the gate does to the next active log `sync_data` it catches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Catch {
    /// Hold it before the sync until opened; then sync.
    Before,
    /// Hold it after the sync, before returning to the log manager, until opened: the data is
    /// durable, the writer has not yet moved `durable` and still holds the I/O lock.
    After,
    /// Hold it, then fail it with this OS error (no sync).
    Fail(i32),
}

#[derive(Default)]
struct GateState {
    armed: Option<Catch>,
    /// The active log copy (1 or 2) whose sync is caught; `None`: the first of either.
    copy: Option<usize>,
    /// A sync is held at the gate.
    holding: bool,
    open: bool,
}

/// A gate on active log syncs, shared by the wrapper and the test.
#[derive(Default)]
struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
}

impl Gate {
    /// Catch the next active log sync of `copy` (1 or 2; `None`: of either copy).
    fn arm(&self, catch: Catch, copy: Option<usize>) {
        let mut state = self.state.lock().unwrap();
        *state = GateState {
            armed: Some(catch),
            copy,
            holding: false,
            open: false,
        };
    }

    /// Wait until a sync is held at the gate.
    fn wait_holding(&self) {
        let deadline = Instant::now() + FORCE_TIMEOUT;
        let mut state = self.state.lock().unwrap();
        while !state.holding {
            let left = deadline
                .checked_duration_since(Instant::now())
                .expect("no active log sync reached the gate");
            state = self.changed.wait_timeout(state, left).unwrap().0;
        }
    }

    fn open(&self) {
        self.state.lock().unwrap().open = true;
        self.changed.notify_all();
    }

    /// Called by a sync of active log copy `copy`: take the armed catch (if it is for this
    /// copy) and hold until opened.
    fn pass(&self, copy: usize, sync: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
        let catch = {
            let mut state = self.state.lock().unwrap();
            let wanted = state.copy.is_none_or(|wanted| wanted == copy);
            match state.armed.take_if(|_| wanted) {
                None => None,
                Some(catch) => {
                    state.holding = true;
                    self.changed.notify_all();
                    Some(catch)
                }
            }
        };
        let hold = || {
            let mut state = self.state.lock().unwrap();
            while !state.open {
                state = self.changed.wait(state).unwrap();
            }
        };
        match catch {
            None => sync(),
            Some(Catch::Before) => {
                hold();
                sync()
            }
            Some(Catch::After) => {
                let result = sync();
                hold();
                result
            }
            Some(Catch::Fail(code)) => {
                hold();
                Err(io::Error::from_raw_os_error(code))
            }
        }
    }
}

/// Active log syncs pass the gate; with `fail_bsds_writes`, creating a BSDS file fails with
/// ENOSPC (so does every BSDS write).
struct GateHooks {
    gate: Arc<Gate>,
    fail_bsds_writes: bool,
}

impl FileHooks for GateHooks {
    fn open(&self, name: &str, mode: OpenMode) -> io::Result<()> {
        if self.fail_bsds_writes && name.starts_with("BSDS") && mode == OpenMode::CreateNew {
            return Err(io::Error::from_raw_os_error(ENOSPC));
        }
        Ok(())
    }
    fn sync_data(&self, name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        match active_log_copy(name) {
            Some(copy) => self.gate.pass(copy + 1, || inner.sync_data()),
            None => inner.sync_data(),
        }
    }
    // Not gated: with both copies on one device only copy 2's sync flushes, and is caught.
    fn forwards_shared_flush(&self) -> bool {
        true
    }
}

fn gated(
    fs: &SimulatedFileSystem,
    gate: &Arc<Gate>,
    fail_bsds_writes: bool,
) -> Arc<dyn FileSystem> {
    Arc::new(HookedFileSystem::new(
        Arc::new(fs.clone()),
        Arc::new(GateHooks {
            gate: gate.clone(),
            fail_bsds_writes,
        }),
    ))
}

struct Fixture {
    fs: SimulatedFileSystem,
    gate: Arc<Gate>,
    twoactv: bool,
}

impl Fixture {
    fn new(twoactv: bool, shared_flush: bool) -> Fixture {
        let fs = SimulatedFileSystem::new(7).with_crash_mode(CrashMode::LoseAllUnsynced);
        fs.set_shared_flush(shared_flush);
        let (log, archive) = parameters(twoactv);
        LogManager::create(Arc::new(fs.clone()), Path::new(DIRECTORY), &log, &archive).unwrap();
        Fixture {
            fs,
            gate: Arc::new(Gate::default()),
            twoactv,
        }
    }

    /// The log, its idle logger waiting far longer than any test here: a forcer, appender or
    /// switch that fails to wake the logger when it has work hangs the test (and `collect`
    /// fails it) instead of being served by the one-second safety net.
    fn open(&self) -> Arc<LogManager> {
        let (log, archive) = parameters(self.twoactv);
        let gated = gated(&self.fs, &self.gate, false);
        let manager = LogManager::open(gated, Path::new(DIRECTORY), &log, &archive).unwrap();
        manager.set_logger_idle_wait(Duration::from_secs(600));
        manager
    }

    /// Every record payload after a power loss (unsynced writes lost), in log order.
    fn after_power_loss(&self) -> Vec<Vec<u8>> {
        let crashed = self.fs.crash();
        let (log, archive) = parameters(self.twoactv);
        let manager =
            LogManager::open(Arc::new(crashed), Path::new(DIRECTORY), &log, &archive).unwrap();
        let records = manager
            .read_forward(Rba::ZERO)
            .unwrap()
            .map(|record| record.unwrap().payload)
            .collect();
        manager.abandon();
        records
    }
}

/// A forcer's tag and what its force returned (the RBA it forced through, or the error).
type Outcome = (usize, Result<Rba, StorageError>);

fn payload(tag: usize) -> Vec<u8> {
    format!("record {tag:04} ").repeat(20).into_bytes()
}

/// Append record `tag` and force it, on a new thread; the result arrives on the channel.
fn spawn_committer(manager: &Arc<LogManager>, tag: usize, results: &mpsc::Sender<Outcome>) {
    let (manager, results) = (manager.clone(), results.clone());
    thread::spawn(move || {
        let result = manager
            .append(1, &[&payload(tag)])
            .and_then(|(_, end)| manager.force(end).map(|()| end));
        let _ = results.send((tag, result));
    });
}

/// Wait until `count` force calls (QJSTWRF) have been made since `base`, then give the last of
/// them time to park.
fn wait_forces_started(manager: &LogManager, base: u64, count: u64) {
    let deadline = Instant::now() + FORCE_TIMEOUT;
    while manager.statistics().qjstwrf < base + count {
        assert!(
            Instant::now() < deadline,
            "only {} of {count} forcers reached force",
            manager.statistics().qjstwrf - base
        );
        thread::sleep(Duration::from_millis(1));
    }
    thread::sleep(Duration::from_millis(50));
}

/// The results of `count` forcers, every one arriving within `within` from now.
fn collect(results: &mpsc::Receiver<Outcome>, count: usize, within: Duration) -> Vec<Outcome> {
    let deadline = Instant::now() + within;
    (0..count)
        .map(|_| {
            let left = deadline.saturating_duration_since(Instant::now());
            results
                .recv_timeout(left)
                .expect("a forcer was not woken in time (lost wake-up)")
        })
        .collect()
}

/// Force `through` on a new thread, as forcer `tag`; the result arrives on the channel.
fn spawn_forcer(
    manager: &Arc<LogManager>,
    tag: usize,
    through: Rba,
    results: &mpsc::Sender<Outcome>,
) {
    let (manager, results) = (manager.clone(), results.clone());
    thread::spawn(move || {
        let _ = results.send((tag, manager.force(through).map(|()| through)));
    });
}

/// A leader held at the gate (`catch`) in the I/O of its force, with followers: `inside`
/// forcers (tags `1..=inside`) whose records were appended before the leader's (tag 0), so its
/// I/O carries them, and `past` forcers (the next tags) who append theirs while it is held.
/// Checks that while the leader is held nobody has returned and `durable` has not reached any
/// forcer's record, then opens the gate. Returns every forcer's result, each arriving within
/// [`WOKEN_WITHIN`] of the opening, and the statistics from before the leader's force.
fn hold_a_leader_with_followers(
    manager: &Arc<LogManager>,
    gate: &Gate,
    catch: Catch,
    copy: Option<usize>,
    inside: usize,
    past: usize,
) -> (Vec<Outcome>, LogStatistics) {
    let inside_ends: Vec<Rba> = (1..=inside)
        .map(|tag| manager.append(1, &[&payload(tag)]).unwrap().1)
        .collect();
    let (_, leader_end) = manager.append(1, &[&payload(0)]).unwrap();
    let (sender, results) = mpsc::channel();
    let base = manager.statistics();
    gate.arm(catch, copy);
    spawn_forcer(manager, 0, leader_end, &sender);
    gate.wait_holding();
    for (index, end) in inside_ends.iter().enumerate() {
        spawn_forcer(manager, index + 1, *end, &sender);
    }
    for tag in inside + 1..=inside + past {
        spawn_committer(manager, tag, &sender);
    }
    wait_forces_started(manager, base.qjstwrf, (1 + inside + past) as u64);
    match results.try_recv() {
        Err(TryRecvError::Empty) => {}
        other => panic!("{catch:?}: a forcer returned while the leader was held: {other:?}"),
    }
    let smallest = inside_ends.first().copied().unwrap_or(leader_end);
    assert!(
        manager.durable_rba() < smallest,
        "{catch:?}: durable {} reached a forcer's record (ends at {smallest}) while the leader was held",
        manager.durable_rba()
    );
    gate.open();
    (collect(&results, 1 + inside + past, WOKEN_WITHIN), base)
}

/// Every forcer failed with the log's error, naming OS error `code`.
fn assert_all_failed(done: &[Outcome], code: i32, case: &str) {
    for (tag, result) in done {
        match result {
            Err(StorageError::CorruptLog { detail, .. }) => assert!(
                detail.contains("unusable after a write failure")
                    && detail.contains(&io::Error::from_raw_os_error(code).to_string()),
                "{case}: forcer {tag}: {detail}"
            ),
            other => panic!("{case}: forcer {tag} got {other:?}"),
        }
    }
}

#[test]
fn followers_inside_a_leaders_io_return_with_it_and_not_before() {
    for ((twoactv, shared_flush), catch) in [(false, true), (true, true), (true, false)]
        .into_iter()
        .flat_map(|configuration| {
            [
                (configuration, Catch::Before),
                (configuration, Catch::After),
            ]
        })
    {
        let case = format!("TWOACTV {twoactv}, shared flush {shared_flush}, held {catch:?}");
        let fixture = Fixture::new(twoactv, shared_flush);
        let manager = fixture.open();
        let (done, base) =
            hold_a_leader_with_followers(&manager, &fixture.gate, catch, None, FOLLOWERS, 0);
        for (tag, result) in &done {
            let end = result
                .as_ref()
                .unwrap_or_else(|error| panic!("{case}: forcer {tag}: {error}"));
            assert!(
                manager.durable_rba() >= *end,
                "{case}: forcer {tag} woken early"
            );
        }
        // A logger cycle is counted after its I/O has woken its forcers: give one that
        // should not have happened time to show.
        thread::sleep(SETTLE);
        let after = manager.statistics();
        assert_eq!(
            (
                after.qjstlogw[0] - base.qjstlogw[0],
                after.qjstbfwr - base.qjstbfwr,
                after.leader_ios - base.leader_ios
            ),
            (1, 1, 1),
            "{case}: the leader's I/O carried every follower's record: (write I/Os, write \
             cycles, led)"
        );
        manager.abandon();
        // Log order: the followers' records, then the leader's.
        let expected: Vec<Vec<u8>> = (1..=FOLLOWERS).chain([0]).map(payload).collect();
        assert_eq!(fixture.after_power_loss(), expected, "{case}");
    }
}

#[test]
fn a_lone_forcer_leads_its_own_io() {
    for (twoactv, shared_flush) in [(false, true), (true, true), (true, false)] {
        let fixture = Fixture::new(twoactv, shared_flush);
        let manager = fixture.open();
        let before = manager.statistics();
        for tag in 0..20 {
            let (_, end) = manager.append(1, &[&payload(tag)]).unwrap();
            manager.force(end).unwrap();
            assert!(manager.durable_rba() >= end);
        }
        let after = manager.statistics();
        assert_eq!(
            after.leader_ios - before.leader_ios,
            20,
            "TWOACTV {twoactv}: every lone force should be led by its forcer"
        );
        assert_eq!(after.qjstbfwr - before.qjstbfwr, 20);
        // The gated files pass the simulator's device on: both copies on one device take
        // the one-flush path, on two devices the copy 2 writer's.
        assert_eq!(
            after.shared_flush_ios - before.shared_flush_ios,
            if twoactv && shared_flush { 20 } else { 0 },
            "TWOACTV {twoactv}, shared flush {shared_flush}"
        );
        manager.abandon();
        let expected: Vec<Vec<u8>> = (0..20).map(payload).collect();
        assert_eq!(fixture.after_power_loss(), expected, "TWOACTV {twoactv}");
    }
}

/// A lone follower parks while a committer leads an I/O and the logger thread is idle: nothing
/// but its force request can wake the logger (its append found no force pending, and the
/// leader's I/O ends without looking at the logger), so the request must, even though forcers
/// skip the wake-up while the logger is busy. The fixture's idle logger waits 10 minutes, so a
/// missed wake-up fails `collect`.
#[test]
fn a_follower_parked_while_the_logger_is_idle_wakes_it() {
    for catch in [Catch::Before, Catch::After] {
        let fixture = Fixture::new(false, true);
        let manager = fixture.open();
        let (done, _) = hold_a_leader_with_followers(&manager, &fixture.gate, catch, None, 0, 1);
        for (tag, result) in &done {
            let end = result
                .as_ref()
                .unwrap_or_else(|error| panic!("{catch:?}: forcer {tag}: {error}"));
            assert!(manager.durable_rba() >= *end, "{catch:?}: forcer {tag}");
        }
        manager.abandon();
        let mut found = fixture.after_power_loss();
        found.sort();
        assert_eq!(found, vec![payload(0), payload(1)], "{catch:?}");
    }
}

#[test]
fn followers_parked_during_a_leaders_io_are_all_durable_and_woken() {
    for ((twoactv, shared_flush), catch) in [(false, true), (true, true), (true, false)]
        .into_iter()
        .flat_map(|configuration| {
            [
                (configuration, Catch::Before),
                (configuration, Catch::After),
            ]
        })
    {
        let case = format!("TWOACTV {twoactv}, shared flush {shared_flush}, held {catch:?}");
        let fixture = Fixture::new(twoactv, shared_flush);
        let manager = fixture.open();
        let (mut done, base) =
            hold_a_leader_with_followers(&manager, &fixture.gate, catch, None, 0, FOLLOWERS);
        done.sort_by_key(|(tag, _)| *tag);
        for (tag, result) in &done {
            let end = result
                .as_ref()
                .unwrap_or_else(|error| panic!("{case}: forcer {tag}: {error}"));
            assert!(
                manager.durable_rba() >= *end,
                "{case}: forcer {tag} woken early"
            );
        }
        let after = manager.statistics();
        // The leader's I/O, then one I/O for every follower parked during it (group commit);
        // a third only if the logger's cycle raced a follower that led once the lock was free.
        // Counted as write I/Os (QJSTLOGW, counted before `durable` moves), not write cycles
        // (QJSTBFWR, counted after the I/O has woken its forcers).
        let ios = after.qjstlogw[0] - base.qjstlogw[0];
        assert!(
            (2..=3).contains(&ios),
            "{case}: {ios} write I/Os for {FOLLOWERS} followers parked during one I/O"
        );
        manager.abandon();
        let mut found = fixture.after_power_loss();
        found.sort();
        let mut expected: Vec<Vec<u8>> = (0..=FOLLOWERS).map(payload).collect();
        expected.sort();
        assert_eq!(found, expected, "{case}");
    }
}

#[test]
fn a_leader_failing_its_io_fails_every_follower_and_loses_nothing() {
    // (TWOACTV, both copies on one device, the copy whose sync fails): with one device only
    // copy 2 is synced (its flush covers copy 1); on two devices either copy may fail.
    let configurations = [
        (false, true, 1),
        (true, true, 2),
        (true, false, 1),
        (true, false, 2),
    ];
    for ((twoactv, shared_flush, failing), code) in configurations
        .into_iter()
        .flat_map(|configuration| [(configuration, EIO), (configuration, ENOSPC)])
    {
        let case = format!(
            "TWOACTV {twoactv}, shared flush {shared_flush}, copy {failing} fails with {code}"
        );
        let fixture = Fixture::new(twoactv, shared_flush);
        let manager = fixture.open();
        // Committed before the failure: must survive it.
        let committed: Vec<Vec<u8>> = (100..103).map(payload).collect();
        for record in &committed {
            let (_, end) = manager.append(1, &[record]).unwrap();
            manager.force(end).unwrap();
        }
        assert_eq!(
            manager.statistics().shared_flush_ios > 0,
            twoactv && shared_flush,
            "{case}: the one-flush path is taken exactly when both copies share a device"
        );
        // Half the followers inside the failing I/O, half past it.
        let (inside, past) = (FOLLOWERS / 2, FOLLOWERS - FOLLOWERS / 2);
        let (done, _) = hold_a_leader_with_followers(
            &manager,
            &fixture.gate,
            Catch::Fail(code),
            Some(failing),
            inside,
            past,
        );
        assert_all_failed(&done, code, &case);
        assert!(
            manager.append(1, &[b"after"]).is_err(),
            "{case}: the log accepted an append after a failed write"
        );
        manager.abandon();
        let found = fixture.after_power_loss();
        assert_eq!(
            found[..committed.len()],
            committed[..],
            "{case}: a record forced before the failure was lost"
        );
        // What the failed I/O wrote may or may not have reached the device, but only whole
        // records of the failed forces, each once.
        let mut rest = found[committed.len()..].to_vec();
        let count = rest.len();
        rest.sort();
        rest.dedup();
        assert_eq!(rest.len(), count, "{case}: a record was duplicated");
        for record in rest {
            assert!((0..=FOLLOWERS).map(payload).any(|p| p == record));
        }
    }
}

#[test]
fn many_committers_all_durable_with_no_lost_wake_up() {
    let fixture = Fixture::new(false, true);
    let manager = fixture.open();
    let (sender, results) = mpsc::channel();
    const THREADS: usize = 8;
    const EACH: usize = 50;
    for thread_index in 0..THREADS {
        let (manager, sender) = (manager.clone(), sender.clone());
        thread::spawn(move || {
            for i in 0..EACH {
                let tag = thread_index * EACH + i;
                let result = manager
                    .append(1, &[&payload(tag)])
                    .and_then(|(_, end)| manager.force(end).map(|()| end));
                let _ = sender.send((tag, result));
            }
        });
    }
    for (tag, result) in collect(&results, THREADS * EACH, FORCE_TIMEOUT) {
        let end = result.unwrap_or_else(|error| panic!("forcer {tag}: {error}"));
        assert!(manager.durable_rba() >= end);
    }
    let statistics = manager.statistics();
    assert!(statistics.leader_ios > 0);
    manager.abandon();
    let mut found = fixture.after_power_loss();
    found.sort();
    let mut expected: Vec<Vec<u8>> = (0..THREADS * EACH).map(payload).collect();
    expected.sort();
    assert_eq!(found, expected);
}

#[test]
fn an_open_that_fails_leaves_no_thread_holding_the_log() {
    for twoactv in [false, true] {
        let fixture = Fixture::new(twoactv, false);
        let (log, archive) = parameters(twoactv);
        // Restart's BSDS update fails, after the log has been read and its write state could
        // have been built (with TWOACTV, the copy 2 writer thread).
        let gated = gated(&fixture.fs, &fixture.gate, true);
        match LogManager::open(gated.clone(), Path::new(DIRECTORY), &log, &archive) {
            Err(StorageError::Io { operation, .. }) => assert_eq!(operation, "create BSDS"),
            Err(other) => panic!("TWOACTV {twoactv}: open failed with {other}"),
            Ok(_) => panic!("TWOACTV {twoactv}: open succeeded without writing the BSDS"),
        }
        // Every thread `open` started has ended and dropped the log's shared state (which
        // holds the file system and every active log file open).
        assert_eq!(
            Arc::strong_count(&gated),
            1,
            "TWOACTV {twoactv}: something still holds the failed log's file system"
        );
        // The log is intact: it opens once the BSDS can be written.
        let manager = fixture.open();
        manager.shutdown().unwrap();
    }
}
