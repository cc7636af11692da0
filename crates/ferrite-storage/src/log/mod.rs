//! The log manager: MQ's recovery log (MP16 §1.5–1.12) on Linux files.
//!
//! ```text
//!  appenders ──append()──▶ log output buffer (OUTBUFF KiB = ring of 4 KiB log pages)
//!                               │ logger thread: WRTHRSH full pages, or force(), or no free buffer
//!                               ▼
//!              active log ring  LOGCOPY1.DS01 … DSnn   (+ LOGCOPY2.* with TWOACTV)
//!                               │ log switch: file full, or ARCHIVE LOG
//!                               ▼ offload thread
//!              archive logs     A<start RBA>.1.log[.z]  (+ .2 with TWOARCH)
//!              bootstrap (BSDS) bsds/BSDS01, bsds/BSDS02: inventory + checkpoint history
//! ```
//!
//! Module map: [`record`] framing; `buffer` the output buffer; `writer` the logger thread;
//! [`active`] active log files; [`archive`] archive files and the offload thread; [`bsds`] the
//! bootstrap data set; `restart` log initialisation (finding the end of the log, repairing
//! dual copies); [`reader`] forward reading and offline verification; `statistics` the QJST
//! counters.
//!
//! ## Threads and locks
//!
//! - **Appenders** (any thread) take the append lock only to reserve RBAs and copy bytes into the
//!   buffer. They never do I/O under it. They wait (still holding it, since every later record
//!   would have to wait too) only when the buffer is full (QJSTWTB) or when the next active log
//!   is not yet archived.
//! - **Writers.** Active log writes are made by whoever holds the write state (`LogShared::io`):
//!   the logger thread, or a forcer leading its own I/O. Writers never take the append lock;
//!   they learn how far the buffer is filled from an atomic, and about log switches from a
//!   queue under the logger's small lock. One write I/O carries at most [`LOG_WRITE_PAGES_MAX`]
//!   pages (512 KiB). The logger thread does WRTHRSH writes, writes for appenders waiting for a
//!   buffer, log switches, and the writes forcers ask it for.
//! - **Forcers** (commit, log check): a forcer that finds no I/O in progress leads one itself,
//!   through everything appended so far (leader/follower: no hand-off to the logger thread on a
//!   lone commit; `LogShared::lead_force`). Otherwise it waits for `durable_rba`, and asks the
//!   logger, which writes for all forcers that arrived during an I/O as soon as it ends (group
//!   commit, MP16's "coat-tailing"). Each parks on its own
//!   (`ForceWaiters`, sorted by the RBA it needs); after each write exactly the forcers that
//!   write made durable are woken, never the others, and not by the logger: it unparks the
//!   first and starts its next write, and each woken forcer wakes the next ones (a tree).
//! - **The offload thread** archives full active logs and updates the BSDS.
//!
//! Lock order: append → ring → (nothing); append → logger; bsds → ring; io → each of logger,
//! force-waiter list, offload, current-page images (`sources.current_pages`) and the copy 2
//! writer's state, one at a time; logger → force-waiter list (wake-ups under it); force-waiter
//! list → a waiter's duty. Apart from the list taking its waiters' duties, nobody holding the
//! ring, force-waiter, offload, current-page or copy 2 writer locks takes another lock, and
//! the io lock is taken only by a thread holding no other lock.
//!
//! ## Durability rules
//!
//! - Every write I/O is followed by `sync_data` before `durable_rba` moves past it.
//! - **Ping-pong (active log format 2, `active.rs`).** A log page is written in place once per
//!   use of its file, when it is final (full, or the file's last page). The partially filled
//!   current page a force ends in goes to one of the file's two ping-pong slots instead,
//!   alternately, so the other slot keeps the previous synced image: no write ever overwrites
//!   the only durable image of a record, and a torn write (even one that leaves garbage) can
//!   damage only records never reported durable. Readers lay the current image over what they
//!   read in place (`current_page`); restart lays the valid slots over its scan, writes them in
//!   place and resets the slots before the logger starts.
//! - **Dual logging (TWOACTV)** therefore writes both copies in parallel, every page and every
//!   slot: copy 2 has its own persistent writer thread, and `durable` moves when both copies are
//!   synced. When both copies share one device flush (same ext4/xfs block device, files fully
//!   written), one flush makes both durable instead (`writer.rs`, `write_shared_flush`;
//!   RELIABILITY.md, "Dual logging with one device flush"). (Format 1 rewrote the partial page in place, so a rewrite had to go to copy 1, be
//!   synced, and only then go to copy 2: two syncs in series, MP16's "a rewrite is serial".)
//! - **Single logging** gets the same protection from the slots: a torn write of the partial
//!   page no longer needs the device to write 4 KiB atomically.
//! - An active log's header is rewritten (start RBA of its new use) and synced only after every
//!   byte of the previous file is durable, before any byte of the new use is written.

pub mod active;
pub mod archive;
pub mod bsds;
mod buffer;
mod current_page;
pub mod reader;
pub mod record;
mod restart;
pub mod retention;
mod statistics;
mod writer;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, RwLock};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

use crate::buffer_pool::WriteAheadLog;
use crate::config::{ArchiveParameters, LogParameters};
use crate::error::{StorageError, StorageResult};
use crate::types::Rba;
use crate::vfs::{FileSystem, OpenMode};

use self::active::{active_log_relative_path, ActiveLogFiles, ACTIVE_DIRECTORY};
use self::bsds::{bsds_paths, ActiveLogEntry, ActiveLogStatus, ArchiveEntry, Bsds, BSDS_DIRECTORY};
use self::buffer::LogBuffer;
use self::current_page::CurrentPages;
use self::reader::{LogSources, ReadLimit};
use self::record::{LOG_RECORD_BYTES_MAX, LOG_RECORD_HEADER_BYTES, RECORD_KIND_SEGMENT};
use self::statistics::{bump, LogCounters};

pub use self::reader::{LogReader, LogRecordRef, LogVerifyReport, OfflineLog};
pub use self::statistics::{measure_throughput, ThroughputMeasurement};

/// Bytes in a log page (MQ's 4 KiB log buffer / VSAM CI).
pub const LOG_PAGE_BYTES: usize = 4096;
/// Most log pages written by one write I/O (MQ: "up to 128 log buffers at a time", 512 KiB).
pub const LOG_WRITE_PAGES_MAX: usize = 128;
/// How long appenders wait for an active log to be archived before failing with
/// [`StorageError::ActiveLogsFull`], by default.
pub const ACTIVE_LOG_FULL_WAIT_MS: u64 = 30_000;
/// How often a waiting appender looks again for a reusable active log.
pub const ACTIVE_LOG_FULL_RETRY_MS: u64 = 10;
/// Most log pages one write cycle writes before it syncs (4 MiB: 8 I/Os of
/// [`LOG_WRITE_PAGES_MAX`]; MQ's largest OUTBUFF, 4,000 KiB, fits). A cycle issues its I/Os,
/// freeing each one's buffer space once written (`LogShared::written`), then one `sync_data`
/// per copy; a longer cycle syncs after each such window. A crash can leave any subset of a
/// window's unsynced I/Os on disk, a hole followed by later records with valid checksums and
/// the right RBAs included: restart zeroes more than this beyond the end it finds
/// ([`RESTART_ZERO_AHEAD_PAGES`]).
pub const LOG_UNSYNCED_PAGES_MAX: usize = 8 * LOG_WRITE_PAGES_MAX;
/// [`LOG_UNSYNCED_PAGES_MAX`] in bytes.
pub(crate) const LOG_UNSYNCED_BYTES_MAX: u64 = (LOG_UNSYNCED_PAGES_MAX * LOG_PAGE_BYTES) as u64;
/// Pages zeroed beyond the end of the log at restart: more than the largest unsynced window
/// (the end restart finds is at or past the window's first page, which was durable before the
/// window was written), so no record left by a write that was not synced at the failure can
/// be mistaken for a later one once new records reach exactly its RBA
/// (`tests/log_unsynced_window.rs`).
pub const RESTART_ZERO_AHEAD_PAGES: usize = LOG_UNSYNCED_PAGES_MAX + 1;
/// Smallest log output buffer, in pages.
pub const LOG_BUFFER_PAGES_MIN: usize = 2;
/// Safety-net timeout of the logger's idle wait (it is always woken explicitly; tests make it
/// long with [`LogManager::set_logger_idle_wait`], so that a missed wake-up hangs them).
const LOGGER_IDLE_WAIT_MS: u64 = 1000;
/// How long the offload thread waits before retrying a failed offload.
const OFFLOAD_RETRY_MS: u64 = 1000;

/// One record read back from the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRecord {
    pub rba: Rba,
    /// RBA just past this record.
    pub end_rba: Rba,
    pub kind: u8,
    pub payload: Vec<u8>,
}

/// One log copy's write I/Os of one size class, MQ's QJSTIO entry (MQSMF's per-copy I/O
/// table): the I/Os (one `write_pages` of a job on that copy, its in-place pages and its
/// ping-pong slot), their pages (CIs), the time in their writes, the time after them until
/// the copy was durable (its sync, for the I/O that ends a write cycle: MQ's suspend time),
/// and the longest write since the statistics interval began.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogCopyIo {
    pub count: u64,
    pub pages: u64,
    pub io_nanos: u64,
    pub suspend_nanos: u64,
    pub max_io_nanos: u64,
}

/// Log manager statistics, named as MQ's QJST fields (CSQDQJST).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogStatistics {
    /// Appends that had to wait (for a buffer or a reusable active log).
    pub qjstwrw: u64,
    /// Appends that did not wait.
    pub qjstwrnw: u64,
    /// Force (log check) requests.
    pub qjstwrf: u64,
    /// Waits because no log buffer was free. Should be 0: raise OUTBUFF otherwise.
    pub qjstwtb: u64,
    /// Log pages (CIs) created (first byte put in a page).
    pub qjstbffl: u64,
    /// Calls to the log writer: write cycles that wrote, by the logger thread or by a forcer
    /// leading its own I/O (`leader_ios` of them).
    pub qjstbfwr: u64,
    /// Write I/Os per active log copy.
    pub qjstlogw: [u64; 2],
    /// Log pages (CIs) offloaded to archives.
    pub qjstciof: u64,
    /// Checkpoints recorded in the BSDS.
    pub qjstllcp: u64,
    /// BSDS accesses (reads and writes).
    pub qjstbsds: u64,
    /// Force requests that found their RBA not yet durable. Each then either led the write
    /// itself (leader/follower group commit, counted in `leader_ios` too when it wrote) or was
    /// suspended until a write made it durable: unlike MQ's QJSTLSUS, not only suspensions.
    pub qjstlsus: u64,
    /// Archive log read allocations (archive files opened for reading).
    pub qjstalr: u64,
    /// Archive log write allocations (archive copies written).
    pub qjstalw: u64,
    /// Bytes written per active log copy (including rewrites of the partial page).
    pub bytes_written: [u64; 2],
    /// Every write call on each copy (log writes, headers, restart zeroing and repairs).
    pub write_ios: [u64; 2],
    /// Records read from active logs.
    pub qjstract: u64,
    /// Logger write cycles started by WRTHRSH (not by a force).
    pub qjstthrw: u64,
    /// Log pages written serially to the two copies. Always 0 since active log format 2: the
    /// partial page is never rewritten in place (ping-pong slots), so nothing is serial.
    pub qjstserw: u64,
    /// Log pages written (including rewrites), per copy 1.
    pub qjstciwr: u64,
    /// Active log switches (new active logs started).
    pub active_log_switches: u64,
    /// Nanoseconds spent in write I/Os (writes and syncs of every copy), by whichever thread
    /// wrote: the logger thread or a forcer leading its own I/O (one writer at a time, so they
    /// never overlap). Over a run's wall time, how busy the log's I/O pipeline was.
    pub io_busy_nanos: u64,
    /// Dual logging write I/Os made durable on both copies by one device flush (both copies on
    /// one device: `writer.rs`, `write_shared_flush`).
    pub shared_flush_ios: u64,
    /// Syncs that ended a write cycle (or a [`LOG_UNSYNCED_PAGES_MAX`] window of one): one
    /// `sync_data` of every copy, or one device flush for both, counted once. Log bytes
    /// written per sync is what the device's synced bandwidth must be compared at.
    pub write_syncs: u64,
    /// Nanoseconds of `io_busy_nanos` spent in the syncs that end write cycles: from the end of
    /// every copy's writes (one flush: from copy 1's write-back) until the writer runs again
    /// with every copy durable. Not the device's time alone: it includes the writer's wake-up
    /// and run-queue wait after the last sync returns, and with dual logging copy 2's sync may
    /// already have started during the writes. The rest of `io_busy_nanos` is the cycles'
    /// `write` calls (and waiting for copy 2's). Counted only for cycles that succeed, as
    /// `io_busy_nanos` is.
    pub sync_nanos: u64,
    /// Write cycles a forcer led itself (leader/follower group commit: it found no I/O in
    /// progress, so it wrote and synced the log instead of waking the logger thread).
    pub leader_ios: u64,
    /// QJSTIO: each copy's write I/Os, [copy][one page, more than one page].
    pub copy_io: [[LogCopyIo; 2]; 2],
}

/// Checkpoint location recorded in the BSDS.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CheckpointLocation {
    pub begin_rba: Rba,
    pub end_rba: Rba,
}

/// Where the first CSQJ110E check of a file whose use starts at `start` is due.
fn first_warning(start: u64, data_bytes: u64) -> u64 {
    start + (data_bytes * LAST_ACTIVE_LOG_WARNING_PERCENT).div_ceil(100)
}

/// Round down to a log page boundary.
pub(crate) fn page_floor(rba: u64) -> u64 {
    rba & !(LOG_PAGE_BYTES as u64 - 1)
}

/// Round up to a log page boundary.
pub(crate) fn page_ceil(rba: u64) -> u64 {
    page_floor(rba + LOG_PAGE_BYTES as u64 - 1)
}

/// In-memory state of one active log file (both copies).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct RingEntry {
    pub status: ActiveLogStatus,
    pub start: Option<u64>,
    /// End of the file's RBA range; `None` while current or never used.
    pub end: Option<u64>,
}

/// Where appends go. Guarded by the append lock.
#[derive(Debug)]
pub(crate) struct AppendState {
    /// RBA the next record gets.
    pub next_rba: u64,
    /// Current active log (ring index) and its RBA range.
    pub file: usize,
    pub file_start: u64,
    /// End of the current file's RBA range: start + data bytes, or the truncation point set by
    /// ARCHIVE LOG (or found at restart after an end-of-file marker).
    pub file_limit: u64,
    /// End of the real log bytes in the current file (before an end-of-file marker's padding).
    pub used_end: u64,
    /// Where the next CSQJ110E check is due (`LogShared::last_log_warning`): the next
    /// [`LAST_ACTIVE_LOG_WARNING_PERCENT`] step of the current file, or `u64::MAX` once the
    /// next file is known reusable.
    pub warn_at: u64,
}

/// What a log switch that waits for a reusable active log does with the append lock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Waiting {
    /// Release it between tries (other appenders may run, and may carry the switch out).
    Release,
    /// Keep it (a chain of segments: nothing may come between two of them).
    Hold,
}

/// A log switch the logger must carry out once the old file is durable through `used_end`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct FileSwitch {
    pub old_file: usize,
    pub old_start: u64,
    pub used_end: u64,
    /// End of the old file's range = start of the new file's use.
    pub end: u64,
    pub new_file: usize,
}

/// Logger work and results. Guarded by the logger lock.
#[derive(Debug, Default)]
pub(crate) struct LoggerState {
    /// Highest RBA a forcer waits for.
    pub force_target: u64,
    /// Full pages appenders waiting for buffer space want written.
    pub space_target: u64,
    pub switches: VecDeque<FileSwitch>,
    pub shutdown: bool,
    /// A write failed: the log is unusable (MQ would terminate the queue manager).
    pub failure: Option<String>,
}

/// A full active log to archive.
#[derive(Copy, Clone, Debug)]
pub(crate) struct OffloadJob {
    pub file: usize,
    pub start: u64,
    pub end: u64,
    pub used_end: u64,
    /// The switch to record in the BSDS first (new file and its start), if not yet recorded.
    pub new_current: Option<(usize, u64)>,
}

#[derive(Debug, Default)]
pub(crate) struct OffloadQueue {
    pub jobs: VecDeque<OffloadJob>,
    pub shutdown: bool,
    /// Last offload failure, reported in ActiveLogsFull errors.
    pub last_error: Option<String>,
    pub busy: bool,
}

/// How many forcers each woken forcer wakes in turn (see [`ForceWaiters`]).
pub(crate) const FORCE_WAKE_FANOUT: usize = 2;

/// The forcers one write woke, in RBA order (the tree [`ForceWaiters`] wakes them in).
type WakeBatch = Arc<[Arc<ForceWaiter>]>;

/// One forcer parked in `force`.
pub(crate) struct ForceWaiter {
    through: u64,
    thread: Thread,
    /// Set (under the list lock, after `duty`) when a wake-up takes the waiter out of the list.
    woken: AtomicBool,
    /// The forcers this one must wake when it leaves `force`: the batch it was woken with and
    /// its index there (its children are `index * FANOUT + 1 ..= index * FANOUT + FANOUT`).
    /// Taken when carried out, which also ends the reference cycle batch → waiter → batch.
    duty: Mutex<Option<(WakeBatch, usize)>>,
}

/// Forcers waiting for the log to be durable, sorted by the RBA each needs.
///
/// A write wakes exactly the forcers it made durable, and not from the logger: the logger
/// unparks only the first of them (one wake-up, then it starts the next write at once); every
/// woken forcer, as it leaves `force`, unparks the next [`FORCE_WAKE_FANOUT`] of the batch (a
/// tree: 64 forcers are all awake after 6 levels). With the logger unparking all 64 itself, 23% of
/// a 64-committer run was scheduler work on the logger's critical path (docs/performance-notes.md,
/// "Group commit"): the next I/O waited for 64 wake-ups.
///
/// Contract: every waiter taken out of the list is given its duty under the list lock before
/// `woken` is set, and leaves `force` only through [`ForceWaiters::leave`], which carries the
/// duty out (a waiter that saw `durable` by itself still does: nobody else would wake its
/// children).
#[derive(Default)]
pub(crate) struct ForceWaiters {
    list: Mutex<Vec<Arc<ForceWaiter>>>,
    /// Durability notices ([`LogManager::notify_when_durable`]): callers that wait for the
    /// log without a thread. Kept apart from the parked forcers (a notice is called, not
    /// unparked, and wakes nobody in turn).
    notices: Mutex<Notices>,
}

/// What a caller that does not wait for the log asks to be called with once its RBA is durable
/// (or the log failed or stopped). It runs on the thread that learns it, the writer of the
/// log included: it must be short and take no lock of the log.
pub type DurableNotice = Box<dyn FnOnce() + Send>;

/// Registered durability notices, in registration order.
#[derive(Default)]
struct Notices {
    pending: Vec<(u64, u64, DurableNotice)>,
    sequence: u64,
}

impl ForceWaiters {
    /// Add the calling thread, waiting for `through`.
    fn register(&self, through: u64) -> Arc<ForceWaiter> {
        let waiter = Arc::new(ForceWaiter {
            through,
            thread: std::thread::current(),
            woken: AtomicBool::new(false),
            duty: Mutex::new(None),
        });
        let mut list = self.list.lock().unwrap();
        let at = list.partition_point(|other| other.through <= through);
        list.insert(at, waiter.clone());
        waiter
    }

    /// The waiter leaves `force`: out of the list if a wake-up has not taken it already,
    /// otherwise wake its share of the batch it was woken with.
    fn leave(&self, waiter: &Arc<ForceWaiter>) {
        if !waiter.woken.load(Ordering::Acquire) {
            let mut list = self.list.lock().unwrap();
            if let Some(at) = list.iter().position(|other| Arc::ptr_eq(other, waiter)) {
                list.remove(at);
                return;
            }
            // Taken out by a wake-up between the load and the lock: its duty was set under
            // the lock, so it is visible now.
        }
        let duty = waiter.duty.lock().unwrap().take();
        let (batch, index) = duty.expect("a waiter taken out of the list has its wake-up duty");
        let first = index * FORCE_WAKE_FANOUT + 1;
        for child in batch.iter().skip(first).take(FORCE_WAKE_FANOUT) {
            child.thread.unpark();
        }
    }

    /// Wake every waiter whose RBA is at or below `durable` (`u64::MAX`: all of them): call
    /// the durability notices it satisfies, then take the parked forcers out of the list, give
    /// each its duty, and unpark the first (the rest are woken in a tree by those already
    /// woken).
    pub fn wake_through(&self, durable: u64) {
        self.call_notices(durable);
        let root = {
            let mut list = self.list.lock().unwrap();
            let count = list.partition_point(|waiter| waiter.through <= durable);
            if count == 0 {
                return;
            }
            let batch: WakeBatch = list.drain(..count).collect();
            for (index, waiter) in batch.iter().enumerate() {
                *waiter.duty.lock().unwrap() = Some((batch.clone(), index));
                waiter.woken.store(true, Ordering::Release);
            }
            batch[0].thread.clone()
        };
        root.unpark();
    }

    pub fn wake_all(&self) {
        self.wake_through(u64::MAX);
    }

    /// Keep `notice` until `through` is durable; returns its ticket (for `withdraw_notice`).
    fn register_notice(&self, through: u64, notice: DurableNotice) -> u64 {
        let mut notices = self.notices.lock().unwrap();
        notices.sequence += 1;
        let ticket = notices.sequence;
        notices.pending.push((through, ticket, notice));
        ticket
    }

    /// Takes back the notice of `ticket` if no wake-up has taken it yet.
    fn withdraw_notice(&self, ticket: u64) -> Option<DurableNotice> {
        let mut notices = self.notices.lock().unwrap();
        let at = notices.pending.iter().position(|(_, t, _)| *t == ticket)?;
        Some(notices.pending.swap_remove(at).2)
    }

    /// Calls every notice whose RBA is at or below `durable` (`u64::MAX`: all of them),
    /// outside the notice lock.
    fn call_notices(&self, durable: u64) {
        let due: Vec<DurableNotice> = {
            let mut notices = self.notices.lock().unwrap();
            if notices.pending.is_empty() {
                return;
            }
            let mut due = Vec::new();
            let mut index = 0;
            while index < notices.pending.len() {
                if notices.pending[index].0 <= durable {
                    due.push(notices.pending.swap_remove(index).2);
                } else {
                    index += 1;
                }
            }
            due
        };
        for notice in due {
            notice();
        }
    }
}

/// Everything the log manager's threads share.
pub(crate) struct LogShared {
    pub fs: Arc<dyn FileSystem>,
    pub directory: PathBuf,
    pub archive_directory: PathBuf,
    pub log: LogParameters,
    pub archive: ArchiveParameters,
    pub sources: Arc<LogSources>,
    pub data_bytes: u64,
    pub created_unix_seconds: u64,
    pub buffer: LogBuffer,
    pub append: Mutex<AppendState>,
    /// End of the bytes copied into the buffer (logger may write below it).
    pub filled: AtomicU64,
    /// End RBA of the last completed append (`end_rba()`).
    pub end: AtomicU64,
    /// Every byte below is written and synced on every copy.
    pub durable: Arc<AtomicU64>,
    /// Every byte below has been written (handed to the kernel) on every copy, synced or not:
    /// the buffer space of the full pages below it is free for appenders, who may fill it
    /// while the writer waits in its sync (`durable <= written <= filled`). Readers never
    /// read the buffer (they read the files up to `durable`), and the page holding `written`
    /// stays in the buffer until it is final: the next I/O starts there.
    pub written: AtomicU64,
    /// Mirror of `LoggerState::force_target` readable without the lock.
    pub force_wanted: AtomicU64,
    pub logger: Mutex<LoggerState>,
    pub logger_work: Condvar,
    /// Appenders waiting for buffer space (and anyone waiting for a log switch) wait here.
    pub progress: Condvar,
    /// Appenders waiting on `progress` for buffer space: the logger notifies only when some do.
    pub space_waiters: AtomicUsize,
    /// Forcers, each parked until `durable` reaches its RBA.
    pub waiters: ForceWaiters,
    pub logger_idle: AtomicBool,
    pub bsds: Mutex<Bsds>,
    pub offload: Mutex<OffloadQueue>,
    pub offload_work: Condvar,
    pub offload_suspended: AtomicBool,
    pub active_log_full_wait_ms: AtomicU64,
    /// How long the idle logger waits before it looks for work unwoken
    /// (default [`LOGGER_IDLE_WAIT_MS`]).
    pub logger_idle_wait_ms: AtomicU64,
    pub checkpoint_requested: AtomicBool,
    /// Set (never cleared) when `LoggerState::failure` is set: lets appends check it cheaply.
    pub failed: AtomicBool,
    /// Archive retention: the last floor applied, and archives deleted since start.
    pub retention: Mutex<RetentionState>,
    /// The log's write state; its holder is the only writer of active logs (the logger thread,
    /// or a committer leading its own I/O: `lead_force`). `None` only until `open` builds it,
    /// just before it starts the logger thread. Lock order: its holder may take the logger,
    /// force-waiter list, offload, current-page and copy 2 writer locks, one at a time (a
    /// waiter's duty under the list); it is taken only by a thread holding no other lock.
    pub io: Mutex<Option<writer::LogIo>>,
    /// Where the log's operator messages go (CSQJ001I, CSQJ002I, CSQJ003I, CSQJ110E,
    /// CSQJ111A): set once by the queue manager (`LogManager::set_operator_messages`);
    /// until then they are dropped.
    pub operator: OnceLock<OperatorMessages>,
    /// CSQJ111A was issued for the appenders now waiting for a reusable active log: not again
    /// until a switch succeeds.
    pub out_of_space_reported: AtomicBool,
}

/// A sink for the log's operator messages. Each message is its MQ message number, a space
/// and its text ("CSQJ001I CURRENT COPY 1 ACTIVE LOG DATA SET IS ..."); the queue manager
/// adds its name after the number, as in its own messages.
pub type OperatorMessages = Arc<dyn Fn(&str) + Send + Sync>;

/// The last available active log is reported (CSQJ110E) at every this many percent of it
/// filled, from the first (MQ: "when the last available active log data set is 5% full and
/// after each additional 5%").
pub const LAST_ACTIVE_LOG_WARNING_PERCENT: u64 = 5;

/// What archive retention last did (DISPLAY LOG shows it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RetentionState {
    /// The retention floor last applied: no archive reaching at or above it is deleted.
    /// `None` until the queue manager first sets it (nothing is deleted before).
    pub floor: Option<Rba>,
    /// Archives deleted since the log manager started.
    pub deleted: u64,
}

impl LogShared {
    /// CSQJ110E: an appender (holding the append lock) has filled the current active log up to
    /// `warn_at`. If the next file of the ring is not reusable, the current one is the last
    /// available: return the percentage step reached (reported by the caller once the lock is
    /// released, `report_last_log_full`) and move `warn_at` to the next step. Once the next
    /// file is reusable, no more checks until the next switch.
    fn last_log_warning(&self, state: &mut AppendState) -> Option<u64> {
        let next = (state.file + 1) % self.sources.files.count();
        if self.sources.ring.lock().unwrap()[next].status == ActiveLogStatus::Reusable {
            state.warn_at = u64::MAX;
            return None;
        }
        let step = LAST_ACTIVE_LOG_WARNING_PERCENT;
        let used = state.next_rba - state.file_start;
        let reached = (used * 100 / self.data_bytes).min(100) / step * step;
        state.warn_at = state.file_start + (self.data_bytes * (reached + step)).div_ceil(100);
        (reached >= step).then_some(reached)
    }

    /// CSQJ110E on every copy: the last available active log is `percent` full.
    fn report_last_log_full(&self, percent: u64) {
        for copy in 1..=self.copies() {
            self.say(&format!(
                "CSQJ110E LAST COPY{copy} ACTIVE LOG DATA SET IS {percent} PERCENT FULL"
            ));
        }
    }

    /// Issue an operator message (dropped until the queue manager sets the sink).
    pub fn say(&self, text: &str) {
        if let Some(operator) = self.operator.get() {
            operator(text);
        }
    }

    pub fn counters(&self) -> &LogCounters {
        &self.sources.counters
    }

    pub fn copies(&self) -> usize {
        self.sources.files.copies()
    }

    /// Write the BSDS (both copies), stamping the highest written RBA.
    pub fn write_bsds(&self, bsds: &mut Bsds) -> StorageResult<()> {
        bsds.highest_written_rba = self.durable.load(Ordering::Acquire);
        bump(&self.counters().qjstbsds, 1);
        bsds.write(&*self.fs, &self.directory)
    }

    fn failure(&self) -> Option<StorageError> {
        if !self.failed.load(Ordering::Acquire) {
            return None;
        }
        let state = self.logger.lock().unwrap();
        state
            .failure
            .as_ref()
            .map(|failure| StorageError::CorruptLog {
                path: self.directory.join(ACTIVE_DIRECTORY),
                rba: Rba(self.durable.load(Ordering::Acquire)),
                detail: format!("the log is unusable after a write failure: {failure}"),
            })
    }

    /// Run `work` with the write state, waiting for whoever holds it (one I/O at most). A
    /// failure of `work` is recorded before the lock is released (`record_write_failure`).
    pub fn with_io<T>(
        &self,
        work: impl FnOnce(&mut writer::LogIo) -> StorageResult<T>,
    ) -> StorageResult<T> {
        let mut io = self.io.lock().unwrap();
        let io = io
            .as_mut()
            .expect("the log's write state exists once the log is open");
        // A writer that failed while this one waited for the lock has made the log unusable:
        // no later write may move `durable` (after a failed sync, a later successful one says
        // nothing about the pages the failed one dropped).
        if let Some(error) = self.failure() {
            return Err(error);
        }
        let result = work(&mut *io);
        if let Err(error) = &result {
            self.record_write_failure(io, error);
        }
        result
    }

    /// A write, sync or log switch failed: the log is unusable (MQ would terminate the queue
    /// manager). The first failure is the one reported (a later one may only say that the log
    /// had already failed). `_held` is the write state, so the failing writer calls this while
    /// it still holds the I/O lock: no other writer can take the lock between the failure and
    /// its recording and move `durable` with a later write+sync that says nothing about the
    /// pages the failed one dropped (`with_io` and `lead_force` look for a failure under the
    /// lock). Wakes the logger thread (which stops), every forcer and every appender waiting
    /// for buffer space: each fails with the log's error.
    fn record_write_failure(&self, _held: &mut writer::LogIo, error: &StorageError) {
        {
            let mut state = self.logger.lock().unwrap();
            state.failure.get_or_insert_with(|| error.to_string());
            self.failed.store(true, Ordering::Release);
            self.logger_work.notify_all();
        }
        self.wake_everyone();
    }

    /// Leader/follower group commit: a forcer whose RBA is not durable and who finds no I/O in
    /// progress does the write+sync itself, through everything appended so far, instead of
    /// handing the force to the logger thread and waiting to be woken (two thread hand-offs,
    /// 10-40 µs on a lone commit: docs/performance-notes.md, "Group commit"). Forcers that arrive
    /// during its I/O find the I/O lock taken and park as before; the logger (woken by their force
    /// request) leads the next I/O for all of them as soon as this one ends, so concurrency still
    /// gives group commit. Returns `None` when this forcer must park instead: an I/O is in
    /// progress, a log
    /// switch is pending (the logger carries switches out), or the log has stopped or failed.
    /// A failed I/O is recorded as the logger records one (every forcer fails with the log's
    /// error) and returned.
    fn lead_force(&self, through: u64) -> Option<StorageResult<()>> {
        let mut guard = match self.io.try_lock() {
            Ok(guard) => guard,
            Err(_) => return None,
        };
        // The write state is closed only by the logger thread as it stops, after it saw a
        // shutdown or a failure: both are looked for below, under the logger lock.
        let io = guard.as_mut()?;
        let target = {
            let state = self.logger.lock().unwrap();
            if state.failure.is_some() || state.shutdown || !state.switches.is_empty() {
                return None;
            }
            // Read under the logger lock: an appender queues a switch (under it) before it
            // publishes any byte of the new file, so `filled` is inside the file `io` writes.
            self.filled.load(Ordering::SeqCst)
        };
        if target < through {
            return None;
        }
        match io.write_through(self, target, None) {
            Ok(wrote) => {
                if wrote {
                    bump(&self.counters().qjstbfwr, 1);
                    bump(&self.counters().leader_ios, 1);
                }
                Some(Ok(()))
            }
            Err(error) => {
                self.record_write_failure(io, &error);
                drop(guard);
                Some(Err(self.failure().unwrap_or(error)))
            }
        }
    }

    /// `durable` has moved to `durable`: wake the forcers it satisfies, and appenders waiting
    /// for buffer space if there are any.
    pub fn wake_durable(&self, durable: u64) {
        self.waiters.wake_through(durable);
        if self.space_waiters.load(Ordering::SeqCst) > 0 {
            let _logger = self.logger.lock().unwrap();
            self.progress.notify_all();
        }
    }

    /// Log bytes through `written` have been written to every copy (not yet synced): free the
    /// buffer space of the full pages below it, and wake appenders waiting for space.
    pub fn release_written(&self, written: u64) {
        debug_assert!(written >= self.written.load(Ordering::SeqCst));
        debug_assert!(written <= self.filled.load(Ordering::SeqCst));
        self.written.store(written, Ordering::SeqCst);
        if self.space_waiters.load(Ordering::SeqCst) > 0 {
            let _logger = self.logger.lock().unwrap();
            self.progress.notify_all();
        }
    }

    /// The logger stopped (shut down or failed): wake everyone.
    pub fn wake_everyone(&self) {
        self.waiters.wake_all();
        self.progress.notify_all();
    }

    /// Publish that the buffer is filled to `filled`; wake the logger if it is idle and has work.
    fn publish_filled(&self, filled: u64) {
        self.filled.store(filled, Ordering::SeqCst);
        if self.logger_idle.load(Ordering::SeqCst) {
            let durable = self.durable.load(Ordering::SeqCst);
            let full_pages =
                (page_floor(filled).saturating_sub(page_floor(durable))) / LOG_PAGE_BYTES as u64;
            if full_pages >= u64::from(self.log.wrthrsh)
                || self.force_wanted.load(Ordering::SeqCst) > durable
            {
                let _logger = self.logger.lock().unwrap();
                self.logger_work.notify_one();
            }
        }
    }

    /// Ask the logger to write (and sync) the log through `through`, without waiting.
    fn request_write_through(&self, through: u64) {
        if self.durable.load(Ordering::SeqCst) >= through {
            return;
        }
        self.raise_force_target(through);
    }

    /// Raise the logger's force target to `through`, and wake the logger if it waits for work.
    fn raise_force_target(&self, through: u64) {
        let mut logger = self.logger.lock().unwrap();
        if logger.force_target < through {
            logger.force_target = through;
            self.force_wanted.store(through, Ordering::SeqCst);
        }
        self.wake_idle_logger(&logger);
    }

    /// Wake the logger thread if it is waiting for work. Called with the logger lock held: the
    /// logger sets `logger_idle` under that lock before it waits and clears it under it when it
    /// wakes, so a logger not idle now looks at the logger state again, under the lock, before
    /// it can wait, and needs no wake-up. (A condvar notify is a system call every time: 64
    /// forcers made one per commit while the logger was busy in its write and sync.)
    fn wake_idle_logger(&self, _held: &MutexGuard<'_, LoggerState>) {
        if self.logger_idle.load(Ordering::SeqCst) {
            self.logger_work.notify_one();
        }
    }

    /// Wait until the buffer has room at `rba` (the logger has written enough).
    fn wait_for_buffer(&self, rba: u64) -> StorageResult<()> {
        bump(&self.counters().qjstwtb, 1);
        let mut logger = self.logger.lock().unwrap();
        logger.space_target = logger
            .space_target
            .max(page_floor(self.filled.load(Ordering::SeqCst)));
        self.wake_idle_logger(&logger);
        self.space_waiters.fetch_add(1, Ordering::SeqCst);
        let result = loop {
            if page_floor(self.written.load(Ordering::SeqCst)) + self.buffer.capacity() as u64 > rba
            {
                break Ok(());
            }
            if logger.failure.is_some() {
                drop(logger);
                self.space_waiters.fetch_sub(1, Ordering::SeqCst);
                return Err(self.failure().unwrap());
            }
            if logger.shutdown {
                break Err(StorageError::Stopping);
            }
            logger = self.progress.wait(logger).unwrap();
        };
        self.space_waiters.fetch_sub(1, Ordering::SeqCst);
        result
    }

    /// The end of an append of the record at `rba`: the logger and readers may see through the
    /// new end, the append lock is released, and the call is counted as a write that did or did
    /// not wait for a free buffer (QJSTWRW / QJSTWRNW). Returns the record's RBA range.
    fn finish_append(
        &self,
        state: std::sync::MutexGuard<'_, AppendState>,
        waited: bool,
        rba: u64,
    ) -> (Rba, Rba) {
        let end = state.next_rba;
        self.publish_filled(end);
        self.end.store(end, Ordering::SeqCst);
        drop(state);
        bump(
            if waited {
                &self.counters().qjstwrw
            } else {
                &self.counters().qjstwrnw
            },
            1,
        );
        (Rba(rba), Rba(end))
    }

    /// Copy `bytes` into the buffer at the append position, waiting for space as needed (records
    /// larger than the buffer stream through it).
    fn copy_in(
        &self,
        state: &mut AppendState,
        bytes: &[u8],
        waited: &mut bool,
    ) -> StorageResult<()> {
        let capacity = self.buffer.capacity() as u64;
        let mut done = 0usize;
        while done < bytes.len() {
            let limit = page_floor(self.written.load(Ordering::Acquire)) + capacity;
            if limit <= state.next_rba {
                self.publish_filled(state.next_rba);
                self.wait_for_buffer(state.next_rba)?;
                *waited = true;
                continue;
            }
            let count = ((limit - state.next_rba) as usize).min(bytes.len() - done);
            // SAFETY: [next_rba, next_rba + count) is at or above `filled` and below the free
            // limit; the append lock is held.
            unsafe {
                self.buffer
                    .write(state.next_rba, &bytes[done..done + count])
            };
            let pages_started = page_ceil(state.next_rba + count as u64) / LOG_PAGE_BYTES as u64
                - page_ceil(state.next_rba) / LOG_PAGE_BYTES as u64;
            bump(&self.counters().qjstbffl, pages_started);
            state.next_rba += count as u64;
            done += count;
        }
        Ok(())
    }

    /// Switch the current active log: end the current file at the append position (with an
    /// end-of-file marker unless it is exactly full), and move to the next file of the ring once
    /// it is reusable, waiting up to the active-log-full time.
    ///
    /// While it waits, the append lock is released between tries (`Waiting::Release`), and
    /// other appenders whose records do not fit wait here too. The first to find the next file
    /// reusable carries the switch out; every other one then finds the current file changed
    /// and returns at once, so that its caller looks again at whether its record fits in the
    /// new file. (If each ended the new file in its turn, a queue of waiting appenders would switch
    /// through the ring with nearly empty files: docs/performance-notes.md, "Log switches and
    /// offload".) A chain of segments (`append_spanned`) keeps the lock while it waits
    /// (`Waiting::Hold`): no other record may come between two of its segments.
    fn switch_active_log<'a>(
        &'a self,
        mut state: MutexGuard<'a, AppendState>,
        waited: &mut bool,
        waiting: Waiting,
    ) -> StorageResult<MutexGuard<'a, AppendState>> {
        let mut deadline: Option<Instant> = None;
        let switching_from = state.file_start;
        loop {
            if state.file_start != switching_from {
                return Ok(state);
            }
            if state.next_rba < state.file_limit {
                let rba = state.next_rba;
                let marker =
                    record::encode_end_of_file_marker(Rba(rba), (state.file_limit - rba) as u32);
                self.copy_in(&mut state, &marker, waited)?;
                state.used_end = state.next_rba;
                state.next_rba = state.file_limit;
                self.publish_filled(state.used_end);
            }
            let count = self.sources.files.count();
            let next = (state.file + 1) % count;
            {
                let mut ring = self.sources.ring.lock().unwrap();
                if ring[next].status == ActiveLogStatus::Reusable {
                    let end = state.file_limit;
                    ring[state.file].status = ActiveLogStatus::NotArchived;
                    ring[state.file].end = Some(end);
                    ring[next] = RingEntry {
                        status: ActiveLogStatus::Current,
                        start: Some(end),
                        end: None,
                    };
                    drop(ring);
                    let switch = FileSwitch {
                        old_file: state.file,
                        old_start: state.file_start,
                        used_end: state.used_end,
                        end,
                        new_file: next,
                    };
                    self.logger.lock().unwrap().switches.push_back(switch);
                    state.file = next;
                    state.file_start = end;
                    state.file_limit = end + self.data_bytes;
                    state.used_end = end;
                    state.warn_at = first_warning(end, self.data_bytes);
                    self.out_of_space_reported.store(false, Ordering::SeqCst);
                    self.publish_filled(end);
                    self.checkpoint_requested.store(true, Ordering::SeqCst);
                    return Ok(state);
                }
            }
            *waited = true;
            if !self.out_of_space_reported.swap(true, Ordering::SeqCst) {
                self.say("CSQJ111A OUT OF SPACE IN ACTIVE LOG DATA SETS");
            }
            // The next file's offload needs the switches before it carried out, which needs
            // their files durable: have the logger write everything filled so far (a spanned
            // record may have filled whole files without any force or WRTHRSH write).
            self.request_write_through(self.filled.load(Ordering::SeqCst));
            let wait = Duration::from_millis(self.active_log_full_wait_ms.load(Ordering::Relaxed));
            let deadline = *deadline.get_or_insert_with(|| Instant::now() + wait);
            if Instant::now() >= deadline {
                return Err(self.active_logs_full(next, wait));
            }
            let retry = Duration::from_millis(ACTIVE_LOG_FULL_RETRY_MS);
            match waiting {
                Waiting::Release => {
                    drop(state);
                    std::thread::sleep(retry);
                    state = self.append.lock().unwrap();
                }
                Waiting::Hold => std::thread::sleep(retry),
            }
            if let Some(error) = self.failure() {
                return Err(error);
            }
        }
    }

    fn active_logs_full(&self, stuck: usize, waited: Duration) -> StorageError {
        let entry = self.sources.ring.lock().unwrap()[stuck];
        let offload = self.offload.lock().unwrap();
        let why = match (
            &offload.last_error,
            self.offload_suspended.load(Ordering::Relaxed),
        ) {
            (_, true) => "offload is suspended".to_string(),
            (Some(error), _) => format!("the last offload failed: {error}"),
            (None, _) => format!(
                "offload is {} with {} logs queued",
                if offload.busy { "busy" } else { "idle" },
                offload.jobs.len()
            ),
        };
        StorageError::ActiveLogsFull {
            detail: format!(
                "active log {} (RBA {:016X}-{:016X}) is still not archived to {} after {} ms ({why}); \
                 updates are suspended until it is archived: check the archive directory's space and \
                 permissions, or add active logs",
                self.sources.files.path(stuck, 0).display(),
                entry.start.unwrap_or(0),
                entry.end.unwrap_or(0),
                self.archive_directory.display(),
                waited.as_millis(),
            ),
        }
    }
}

/// The log manager of one queue manager.
pub struct LogManager {
    shared: Arc<LogShared>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    stopped: AtomicBool,
}

/// Resolve the archive directory (relative paths are inside the data directory).
pub fn archive_directory(directory: &Path, archive: &ArchiveParameters) -> PathBuf {
    let configured = Path::new(&archive.directory);
    if configured.is_absolute() {
        configured.to_path_buf()
    } else {
        directory.join(configured)
    }
}

/// Read the BSDS, rewriting a damaged copy from the other, and check that the log it describes
/// is the one `log` configures.
fn read_bsds(fs: &dyn FileSystem, directory: &Path, log: &LogParameters) -> StorageResult<Bsds> {
    let outcome = Bsds::read_with_damage(fs, directory)?;
    let bsds = outcome.bsds;
    for (path, reason) in &outcome.damaged {
        eprintln!(
            "warning: BSDS copy {} is not usable ({reason}); rewriting it from the other copy",
            path.display()
        );
        bsds.repair_copy(fs, path)?;
    }
    if bsds.active_log_count != log.active_log_count
        || bsds.active_log_size_mib != log.active_log_size_mib
        || bsds.twoactv != log.twoactv
    {
        return Err(StorageError::invalid(format!(
            "the log parameters differ from the log's: it has {} active logs of {} MiB, TWOACTV {}; \
             the configuration asks for {} of {} MiB, TWOACTV {} (changing them is not supported)",
            bsds.active_log_count,
            bsds.active_log_size_mib,
            bsds.twoactv,
            log.active_log_count,
            log.active_log_size_mib,
            log.twoactv
        )));
    }
    Ok(bsds)
}

fn check_parameters(log: &LogParameters) -> StorageResult<()> {
    if !(2..=310).contains(&log.active_log_count) {
        return Err(StorageError::invalid(format!(
            "{} active logs is outside 2-310",
            log.active_log_count
        )));
    }
    if !(1..=4096).contains(&log.active_log_size_mib) {
        return Err(StorageError::invalid(format!(
            "active log size {} MiB is outside 1-4096",
            log.active_log_size_mib
        )));
    }
    if (log.outbuff_kib as usize) < LOG_BUFFER_PAGES_MIN * 4 || log.outbuff_kib & 3 != 0 {
        return Err(StorageError::invalid(format!(
            "OUTBUFF {} KiB must be a multiple of 4, at least 8",
            log.outbuff_kib
        )));
    }
    if log.wrthrsh == 0 {
        return Err(StorageError::invalid("WRTHRSH must be at least 1"));
    }
    Ok(())
}

impl LogManager {
    /// Create a new, empty recovery log in `directory`: pre-allocated active logs, the archive
    /// directory and both BSDS copies. Fails if a log already exists there.
    pub fn create(
        fs: Arc<dyn FileSystem>,
        directory: &Path,
        log: &LogParameters,
        archive: &ArchiveParameters,
    ) -> StorageResult<()> {
        check_parameters(log)?;
        let bsds_files = bsds_paths(directory);
        let first_log = active::active_log_path(directory, 0, 0);
        for existing in [&bsds_files[0], &bsds_files[1], &first_log] {
            if fs.exists(existing) {
                return Err(StorageError::invalid(format!(
                    "a recovery log already exists in {} ({} is present); refusing to overwrite it",
                    directory.display(),
                    existing.display()
                )));
            }
        }
        let archive_dir = archive_directory(directory, archive);
        for path in [
            directory.to_path_buf(),
            directory.join(ACTIVE_DIRECTORY),
            directory.join(BSDS_DIRECTORY),
            archive_dir,
        ] {
            fs.create_dir_all(&path)
                .map_err(|error| StorageError::io(&path, "create directory", error))?;
        }
        let copies = if log.twoactv { 2 } else { 1 };
        let mut bsds = Bsds::new(log.active_log_count, log.active_log_size_mib, log.twoactv);
        let data_bytes = u64::from(log.active_log_size_mib) * 1024 * 1024;
        ActiveLogFiles::create(
            &*fs,
            directory,
            log.active_log_count as usize,
            copies,
            data_bytes,
            bsds.created_unix_seconds,
        )?;
        for number in 0..log.active_log_count as usize {
            bsds.active_logs.push(ActiveLogEntry {
                data_set_number: number as u32 + 1,
                copies: (0..copies)
                    .map(|copy| active_log_relative_path(copy, number))
                    .collect(),
                status: if number == 0 {
                    ActiveLogStatus::Current
                } else {
                    ActiveLogStatus::Reusable
                },
                start_rba: (number == 0).then_some(0),
                end_rba: None,
            });
        }
        bsds.write(&*fs, directory)?;
        fs.sync_directory(directory)
            .map_err(|error| StorageError::io(directory, "sync directory", error))?;
        Ok(())
    }

    /// Restart phase 1, log initialisation: read the BSDS (repairing a damaged copy), find the
    /// end of the log (repairing a damaged dual copy), and start the logger and offload threads.
    pub fn open(
        fs: Arc<dyn FileSystem>,
        directory: &Path,
        log: &LogParameters,
        archive: &ArchiveParameters,
    ) -> StorageResult<Arc<LogManager>> {
        check_parameters(log)?;
        let mut bsds = read_bsds(&*fs, directory, log)?;
        let copies = if log.twoactv { 2 } else { 1 };
        let data_bytes = u64::from(log.active_log_size_mib) * 1024 * 1024;
        let files = ActiveLogFiles::open(
            &*fs,
            directory,
            log.active_log_count as usize,
            copies,
            data_bytes,
            OpenMode::Existing,
        )?;
        let counters = LogCounters::default();
        bump(&counters.qjstbsds, 1);
        let recovered = restart::recover(&files, &bsds, true, &counters)?;
        restart::reconcile_bsds(&mut bsds, &recovered);
        let archive_dir = archive_directory(directory, archive);
        if !fs.exists(&archive_dir) {
            fs.create_dir_all(&archive_dir)
                .map_err(|error| StorageError::io(&archive_dir, "create directory", error))?;
        }
        let buffer_pages = (log.outbuff_kib as usize / 4).max(LOG_BUFFER_PAGES_MIN);
        let buffer = LogBuffer::new(buffer_pages);
        let end = recovered.end_rba;
        // SAFETY: no other thread exists yet.
        unsafe { buffer.write(page_floor(end), &recovered.partial_page) };
        let sources = Arc::new(LogSources {
            fs: fs.clone(),
            archive_directory: archive_dir.clone(),
            files,
            ring: Mutex::new(recovered.ring.clone()),
            archives: RwLock::new(bsds.archives.clone()),
            counters,
            current_pages: CurrentPages::default(),
        });
        sources.current_pages.replace(recovered.images.clone());
        let created_unix_seconds = bsds.created_unix_seconds;
        let shared = Arc::new(LogShared {
            fs,
            directory: directory.to_path_buf(),
            archive_directory: archive_dir,
            log: log.clone(),
            archive: archive.clone(),
            sources,
            data_bytes,
            created_unix_seconds,
            buffer,
            append: Mutex::new(AppendState {
                next_rba: end,
                file: recovered.current,
                file_start: recovered.ring[recovered.current].start.unwrap_or(0),
                file_limit: recovered.file_limit,
                used_end: recovered.used_end,
                warn_at: first_warning(
                    recovered.ring[recovered.current].start.unwrap_or(0),
                    data_bytes,
                ),
            }),
            filled: AtomicU64::new(end),
            end: AtomicU64::new(end),
            durable: Arc::new(AtomicU64::new(end)),
            written: AtomicU64::new(end),
            force_wanted: AtomicU64::new(0),
            logger: Mutex::new(LoggerState::default()),
            logger_work: Condvar::new(),
            progress: Condvar::new(),
            space_waiters: AtomicUsize::new(0),
            waiters: ForceWaiters::default(),
            logger_idle: AtomicBool::new(false),
            bsds: Mutex::new(bsds),
            offload: Mutex::new(OffloadQueue {
                jobs: recovered.offload_jobs.iter().copied().collect(),
                ..Default::default()
            }),
            offload_work: Condvar::new(),
            offload_suspended: AtomicBool::new(false),
            active_log_full_wait_ms: AtomicU64::new(ACTIVE_LOG_FULL_WAIT_MS),
            logger_idle_wait_ms: AtomicU64::new(LOGGER_IDLE_WAIT_MS),
            checkpoint_requested: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            retention: Mutex::new(RetentionState::default()),
            io: Mutex::new(None),
            operator: OnceLock::new(),
            out_of_space_reported: AtomicBool::new(false),
        });
        {
            let mut bsds = shared.bsds.lock().unwrap();
            let mut copy = bsds.clone();
            shared.write_bsds(&mut copy)?;
            *bsds = copy;
        }
        LogManager::start(shared, directory, &recovered)
    }

    /// The end of log initialisation: open the write state at the end of the log and start the
    /// logger and offload threads.
    fn start(
        shared: Arc<LogShared>,
        directory: &Path,
        recovered: &restart::RecoveredLog,
    ) -> StorageResult<Arc<LogManager>> {
        // The write state last, just before the logger that closes it: with TWOACTV it starts
        // the copy 2 writer thread, which holds `shared` (and so every file) until closed. Each
        // failure from here on closes it or stops the logger, which closes it.
        *shared.io.lock().unwrap() = Some(writer::LogIo::new(
            &shared,
            recovered.current,
            recovered.ring[recovered.current].start.unwrap_or(0),
            recovered.next_slot,
        )?);
        let logger = {
            let thread_shared = shared.clone();
            std::thread::Builder::new()
                .name("ferrite-logger".into())
                .spawn(move || writer::run_logger(thread_shared))
        };
        let logger = match logger {
            Ok(logger) => logger,
            Err(error) => {
                if let Some(io) = shared.io.lock().unwrap().as_mut() {
                    io.close();
                }
                return Err(StorageError::io(
                    directory,
                    "start the logger thread",
                    error,
                ));
            }
        };
        let manager = Arc::new(LogManager {
            shared: shared.clone(),
            threads: Mutex::new(vec![logger]),
            stopped: AtomicBool::new(false),
        });
        let offload = std::thread::Builder::new()
            .name("ferrite-offload".into())
            .spawn(move || archive::run_offload(shared));
        match offload {
            Ok(offload) => manager.threads.lock().unwrap().push(offload),
            Err(error) => {
                // Nothing was appended: stop the logger (which closes the write state) without
                // the shutdown's force and BSDS update.
                manager.stop_threads();
                return Err(StorageError::io(
                    directory,
                    "start the offload thread",
                    error,
                ));
            }
        }
        Ok(manager)
    }

    /// Frame one record (payload = the concatenation of `parts`) into the log buffer. Returns its
    /// RBA range. Waits only if no buffer is free or the next active log is not yet archived.
    pub fn append(&self, kind: u8, parts: &[&[u8]]) -> StorageResult<(Rba, Rba)> {
        let shared = &*self.shared;
        if kind >= RECORD_KIND_SEGMENT {
            return Err(StorageError::invalid(format!(
                "log record kind {kind:#04X} is reserved (segments and end-of-file markers)"
            )));
        }
        let payload_len: usize = parts.iter().map(|part| part.len()).sum();
        if payload_len > LOG_RECORD_BYTES_MAX {
            return Err(StorageError::invalid(format!(
                "log record of {payload_len} bytes exceeds the maximum of {LOG_RECORD_BYTES_MAX} bytes"
            )));
        }
        let length = (payload_len + LOG_RECORD_HEADER_BYTES) as u64;
        if self.stopped.load(Ordering::Acquire) {
            return Err(StorageError::Stopping);
        }
        if let Some(error) = shared.failure() {
            return Err(error);
        }
        if length > shared.data_bytes {
            // Larger than any active log: a chain of segments across log switches.
            return self.append_spanned(kind, parts, payload_len);
        }
        let inline_checksum = payload_len <= record::INLINE_CHECKSUM_BYTES_MAX;
        let payload_crc = if inline_checksum {
            0
        } else {
            record::payload_checksum(parts)
        };
        let mut waited = false;
        let mut state = shared.append.lock().unwrap();
        loop {
            let fits = state.next_rba + length == state.file_limit
                || state.next_rba + length + LOG_RECORD_HEADER_BYTES as u64 <= state.file_limit;
            if fits {
                break;
            }
            state = shared.switch_active_log(state, &mut waited, Waiting::Release)?;
        }
        let rba = state.next_rba;
        // `copy_in` fails only when the logger has failed or the log manager is stopping; then no
        // later append succeeds, so a partly copied record is never followed by another.
        let header = if inline_checksum {
            record::encode_header_inline(Rba(rba), kind, parts, payload_len)
        } else {
            record::encode_header(Rba(rba), kind, payload_len, payload_crc)
        };
        shared.copy_in(&mut state, &header, &mut waited)?;
        for part in parts {
            shared.copy_in(&mut state, part, &mut waited)?;
        }
        state.used_end = state.next_rba;
        let warning = if state.next_rba >= state.warn_at {
            shared.last_log_warning(&mut state)
        } else {
            None
        };
        let range = shared.finish_append(state, waited, rba);
        if let Some(percent) = warning {
            shared.report_last_log_full(percent);
        }
        Ok(range)
    }

    /// Append a record larger than one active log as a chain of segments (see "Spanned
    /// records" in [`record`]), holding the append lock throughout so that nothing interleaves
    /// with the chain. Each segment fills the rest of its file exactly (the last one may end
    /// anywhere that leaves room for an end-of-file marker), and each file switch in between
    /// waits, like any switch, for the next active log to be reusable.
    fn append_spanned(
        &self,
        kind: u8,
        parts: &[&[u8]],
        payload_len: usize,
    ) -> StorageResult<(Rba, Rba)> {
        let shared = &*self.shared;
        let overhead = (LOG_RECORD_HEADER_BYTES + record::SEGMENT_HEADER_BYTES) as u64;
        let marker = LOG_RECORD_HEADER_BYTES as u64;
        let mut waited = false;
        let mut state = shared.append.lock().unwrap();
        let mut record_rba: Option<u64> = None;
        let mut offset = 0usize;
        // Where the logical payload's next byte is: (part index, offset in it).
        let mut cursor = (0usize, 0usize);
        let mut segments = 0u64;
        while offset < payload_len {
            let room = state.file_limit - state.next_rba;
            let rest = (payload_len - offset) as u64;
            let take = if room < overhead + 1 {
                0
            } else if overhead + rest == room || overhead + rest + marker <= room {
                rest
            } else if overhead + rest > room {
                room - overhead
            } else {
                // The whole rest would leave 1-8 bytes, too few for an end-of-file marker:
                // leave exactly a marker's room, the last bytes go to the next file.
                rest.saturating_sub(marker - (room - overhead - rest))
            };
            if take == 0 {
                state = shared.switch_active_log(state, &mut waited, Waiting::Hold)?;
                continue;
            }
            let rba = state.next_rba;
            let record_start = *record_rba.get_or_insert(rba);
            let segment = record::SegmentHeader {
                record_rba: record_start,
                total_bytes: payload_len as u32,
                offset: offset as u32,
                kind,
            }
            .encode();
            // The segment's piece of the logical payload, as slices of the caller's parts.
            let mut pieces: Vec<&[u8]> = vec![&segment];
            let mut wanted = take as usize;
            while wanted > 0 {
                let part = parts[cursor.0];
                let count = (part.len() - cursor.1).min(wanted);
                if count > 0 {
                    pieces.push(&part[cursor.1..cursor.1 + count]);
                }
                wanted -= count;
                cursor.1 += count;
                if cursor.1 == part.len() {
                    cursor = (cursor.0 + 1, 0);
                }
            }
            let segment_len = record::SEGMENT_HEADER_BYTES + take as usize;
            let header =
                record::encode_header_inline(Rba(rba), RECORD_KIND_SEGMENT, &pieces, segment_len);
            shared.copy_in(&mut state, &header, &mut waited)?;
            for piece in &pieces {
                shared.copy_in(&mut state, piece, &mut waited)?;
            }
            state.used_end = state.next_rba;
            debug_assert!(
                state.next_rba == state.file_limit || state.next_rba + marker <= state.file_limit,
                "segment left {} bytes in its file, too few for an end-of-file marker",
                state.file_limit - state.next_rba
            );
            offset += take as usize;
            segments += 1;
        }
        let rba = record_rba.expect("a spanned record has at least one segment");
        assert!(
            segments >= 2,
            "a record larger than an active log was written as {segments} segment"
        );
        Ok(shared.finish_append(state, waited, rba))
    }

    /// Return once every log byte before `through` is written and synced on every active log
    /// copy. Forcers that arrive during a write share the next one (group commit).
    pub fn force(&self, through: Rba) -> StorageResult<()> {
        let shared = &*self.shared;
        bump(&shared.counters().qjstwrf, 1);
        let end = shared.end.load(Ordering::SeqCst);
        debug_assert!(
            through.0 <= end,
            "force through {through} beyond the end of the log {}",
            Rba(end)
        );
        let through = through.0.min(end);
        if shared.durable.load(Ordering::Acquire) >= through {
            return Ok(());
        }
        bump(&shared.counters().qjstlsus, 1);
        if !self.stopped.load(Ordering::SeqCst) {
            match shared.lead_force(through) {
                Some(Ok(())) if shared.durable.load(Ordering::SeqCst) >= through => {
                    return Ok(());
                }
                Some(Err(error)) => return Err(error),
                _ => {}
            }
        }
        // Park in the waiter list first, then ask the logger: it cannot complete the write and
        // miss this waiter.
        let waiter = shared.waiters.register(through);
        if shared.force_wanted.load(Ordering::SeqCst) < through {
            shared.raise_force_target(through);
        }
        let result = loop {
            if shared.durable.load(Ordering::SeqCst) >= through {
                break Ok(());
            }
            if let Some(error) = shared.failure() {
                break Err(error);
            }
            if self.stopped.load(Ordering::SeqCst) {
                break Err(StorageError::Stopping);
            }
            std::thread::park();
        };
        shared.waiters.leave(&waiter);
        result
    }

    /// A force without a waiting thread: asks the logger to write and sync the log through
    /// `through`, and keeps `notice` to be called by whichever thread learns that it is durable
    /// (the writer whose sync made it so), or that the log failed or stopped. Returns `notice`
    /// back, not called, when there is nothing to wait for: the caller goes on at once. Either
    /// way [`LogManager::durable_outcome`] then tells how it ended. The caller never does the
    /// I/O itself (a thread that owns sockets must not wait for a sync): forcers arriving while
    /// the logger writes share its next write, as parked forcers do.
    pub fn notify_when_durable(
        &self,
        through: Rba,
        notice: DurableNotice,
    ) -> Option<DurableNotice> {
        let shared = &*self.shared;
        bump(&shared.counters().qjstwrf, 1);
        let through = through.0.min(shared.end.load(Ordering::SeqCst));
        if self.durable_outcome(Rba(through)).is_some() {
            return Some(notice);
        }
        bump(&shared.counters().qjstlsus, 1);
        // Registered first, then the logger asked: it cannot complete the write and miss it.
        let ticket = shared.waiters.register_notice(through, notice);
        if shared.force_wanted.load(Ordering::SeqCst) < through {
            shared.raise_force_target(through);
        }
        // A failure or stop recorded before the registration woke nobody for it.
        if self.durable_outcome(Rba(through)).is_some() {
            return shared.waiters.withdraw_notice(ticket);
        }
        None
    }

    /// How a force through `through` ended, without waiting: `Ok` once it is durable on every
    /// copy, the log's error once it failed or stopped, `None` while it is still to be written.
    pub fn durable_outcome(&self, through: Rba) -> Option<StorageResult<()>> {
        let shared = &*self.shared;
        let through = through.0.min(shared.end.load(Ordering::SeqCst));
        if shared.durable.load(Ordering::SeqCst) >= through {
            return Some(Ok(()));
        }
        if let Some(error) = shared.failure() {
            return Some(Err(error));
        }
        if self.stopped.load(Ordering::SeqCst) {
            return Some(Err(StorageError::Stopping));
        }
        None
    }

    /// RBA the next record will get.
    pub fn end_rba(&self) -> Rba {
        Rba(self.shared.end.load(Ordering::SeqCst))
    }

    /// Every log byte before this RBA is on stable storage.
    pub fn durable_rba(&self) -> Rba {
        Rba(self.shared.durable.load(Ordering::Acquire))
    }

    /// Read records forward from `from`, which must be the start of a record (or the end of the
    /// log), through the current durable end of the log, from active logs or, where they have
    /// been reused, from archives.
    pub fn read_forward(&self, from: Rba) -> StorageResult<LogReader> {
        LogReader::start(
            self.shared.sources.clone(),
            ReadLimit::Moving(self.shared.durable.clone()),
            from,
        )
    }

    /// The most recent checkpoint recorded in the BSDS.
    pub fn last_checkpoint(&self) -> Option<CheckpointLocation> {
        self.shared.bsds.lock().unwrap().last_checkpoint()
    }

    /// Every checkpoint the BSDS remembers, oldest first (restart picks the one to start from).
    pub fn checkpoint_history(&self) -> Vec<CheckpointLocation> {
        self.shared
            .bsds
            .lock()
            .unwrap()
            .checkpoints
            .iter()
            .map(|entry| CheckpointLocation {
                begin_rba: Rba(entry.begin_rba),
                end_rba: Rba(entry.end_rba),
            })
            .collect()
    }

    /// Record a completed checkpoint in the BSDS (forcing the log through its end first).
    pub fn record_checkpoint(&self, location: CheckpointLocation) -> StorageResult<()> {
        if location.begin_rba > location.end_rba || location.end_rba > self.end_rba() {
            return Err(StorageError::invalid(format!(
                "checkpoint {}-{} is not inside the log (end {})",
                location.begin_rba,
                location.end_rba,
                self.end_rba()
            )));
        }
        self.force(location.end_rba)?;
        let mut bsds = self.shared.bsds.lock().unwrap();
        let mut updated = bsds.clone();
        updated.add_checkpoint(location);
        self.shared.write_bsds(&mut updated)?;
        *bsds = updated;
        bump(&self.shared.counters().qjstllcp, 1);
        Ok(())
    }

    /// True once after each log switch (a switch asks for a checkpoint).
    pub fn take_checkpoint_request(&self) -> bool {
        self.shared
            .checkpoint_requested
            .swap(false, Ordering::SeqCst)
    }

    /// The ARCHIVE LOG command: truncate the current active log at the current end of the log,
    /// switch to the next one, have the truncated one archived, and request a checkpoint.
    /// Returns once the switch is durable (the offload continues in the background).
    pub fn archive_log(&self) -> StorageResult<()> {
        let shared = &*self.shared;
        if self.stopped.load(Ordering::Acquire) {
            return Err(StorageError::Stopping);
        }
        let mut waited = false;
        let mut state = shared.append.lock().unwrap();
        if state.next_rba == state.file_start {
            // Nothing written to the current log since the last switch: nothing to archive.
            drop(state);
            shared.checkpoint_requested.store(true, Ordering::SeqCst);
            return Ok(());
        }
        if state.next_rba < state.file_limit {
            state.file_limit = page_ceil(state.next_rba + LOG_RECORD_HEADER_BYTES as u64);
        }
        state = shared.switch_active_log(state, &mut waited, Waiting::Release)?;
        let new_start = state.file_start;
        shared.end.store(new_start, Ordering::SeqCst);
        drop(state);
        self.force(Rba(new_start))
    }

    /// The QJST statistics.
    pub fn statistics(&self) -> LogStatistics {
        self.shared.counters().snapshot()
    }

    /// A statistics interval begins: the longest I/O of each copy's class starts from zero.
    pub fn reset_interval_statistics(&self) {
        self.shared.counters().reset_interval();
    }

    /// Force everything, stop the logger, finish queued offloads (unless offload is suspended),
    /// and record the end of the log in the BSDS.
    pub fn shutdown(&self) -> StorageResult<()> {
        if self.stopped.load(Ordering::Acquire) {
            return Ok(());
        }
        let forced = self.force(self.end_rba());
        self.stop_threads();
        forced?;
        let mut bsds = self.shared.bsds.lock().unwrap();
        let mut updated = bsds.clone();
        self.shared.write_bsds(&mut updated)?;
        *bsds = updated;
        Ok(())
    }

    /// Stop the threads without forcing the log (a test hook simulating a failure: records not
    /// yet forced may or may not be on disk).
    #[doc(hidden)]
    pub fn abandon(&self) {
        self.shared.offload_suspended.store(true, Ordering::SeqCst);
        self.stop_threads();
    }

    fn stop_threads(&self) {
        if self.stopped.swap(true, Ordering::AcqRel) {
            return;
        }
        {
            let mut logger = self.shared.logger.lock().unwrap();
            logger.shutdown = true;
            self.shared.logger_work.notify_all();
            self.shared.wake_everyone();
        }
        {
            let mut offload = self.shared.offload.lock().unwrap();
            offload.shutdown = true;
            self.shared.offload_work.notify_all();
        }
        for thread in self.threads.lock().unwrap().drain(..) {
            let _ = thread.join();
        }
    }

    /// Test hook: suspend (or resume) the offload thread, so active logs stay unarchived.
    #[doc(hidden)]
    pub fn set_offload_suspended(&self, suspended: bool) {
        self.shared
            .offload_suspended
            .store(suspended, Ordering::SeqCst);
        let _offload = self.shared.offload.lock().unwrap();
        self.shared.offload_work.notify_all();
    }

    /// Where the log's operator messages go from now on (the queue manager's console). Set
    /// once; later calls are ignored.
    pub fn set_operator_messages(&self, operator: OperatorMessages) {
        let _ = self.shared.operator.set(operator);
    }

    /// How long appenders wait for a reusable active log before `ActiveLogsFull`
    /// (default [`ACTIVE_LOG_FULL_WAIT_MS`]).
    pub fn set_active_log_full_wait(&self, wait: Duration) {
        self.shared
            .active_log_full_wait_ms
            .store(wait.as_millis() as u64, Ordering::Relaxed);
    }

    /// How long the idle logger thread waits before it looks for work without being woken
    /// (default 1 s). Every appender, forcer and switch wakes it when it has work; tests set
    /// this long so that a missed wake-up shows as a hang, not as a one-second delay.
    pub fn set_logger_idle_wait(&self, wait: Duration) {
        self.shared
            .logger_idle_wait_ms
            .store(wait.as_millis() as u64, Ordering::Relaxed);
    }

    /// Wait until every log switch asked for so far is archived: no switch waits for the
    /// logger, no offload is queued or running (tests, orderly shutdown tooling). A force may
    /// return before the logger carried out a switch (the old file's last page can be durable
    /// first), and the switch queues its offload only when carried out.
    pub fn wait_for_offload(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut logger = self.shared.logger.lock().unwrap();
        while !logger.switches.is_empty() && logger.failure.is_none() {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            logger = self
                .shared
                .progress
                .wait_timeout(logger, (deadline - now).min(Duration::from_millis(10)))
                .unwrap()
                .0;
        }
        drop(logger);
        let mut offload = self.shared.offload.lock().unwrap();
        while !offload.jobs.is_empty() || offload.busy {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            offload = self
                .shared
                .offload_work
                .wait_timeout(offload, deadline - now)
                .unwrap()
                .0;
        }
        true
    }

    /// Apply archive retention (ARCRETN, MAXARCH; see [`retention`]) below `floor`, the lowest
    /// RBA restart or media recovery may still read: the BSDS forgets the archives deleted, then
    /// their files are removed. Returns each archive deleted and why.
    pub fn apply_archive_retention(
        &self,
        floor: Rba,
    ) -> StorageResult<Vec<(ArchiveEntry, retention::DeletionReason)>> {
        let shared = &*self.shared;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        let deleted = {
            let mut bsds = shared.bsds.lock().unwrap();
            let chosen = retention::archives_to_delete(&bsds.archives, &shared.archive, floor, now);
            shared.retention.lock().unwrap().floor = Some(floor);
            if chosen.is_empty() {
                return Ok(Vec::new());
            }
            let deleted: Vec<(ArchiveEntry, retention::DeletionReason)> = chosen
                .iter()
                .map(|(index, reason)| (bsds.archives[*index].clone(), *reason))
                .collect();
            let mut updated = bsds.clone();
            updated.archives.retain(|archive| {
                !deleted
                    .iter()
                    .any(|(gone, _)| gone.start_rba == archive.start_rba)
            });
            shared.write_bsds(&mut updated)?;
            *shared.sources.archives.write().unwrap() = updated.archives.clone();
            *bsds = updated;
            deleted
        };
        for (archive, _) in &deleted {
            for name in &archive.copies {
                let path = shared.archive_directory.join(name);
                shared
                    .fs
                    .remove_file(&path)
                    .map_err(|error| StorageError::io(&path, "delete archive log", error))?;
            }
        }
        shared
            .fs
            .sync_directory(&shared.archive_directory)
            .map_err(|error| {
                StorageError::io(&shared.archive_directory, "sync archive directory", error)
            })?;
        shared.retention.lock().unwrap().deleted += deleted.len() as u64;
        Ok(deleted)
    }

    /// What archive retention last did.
    pub fn retention_state(&self) -> RetentionState {
        self.shared.retention.lock().unwrap().clone()
    }

    /// The archive parameters (ARCRETN, MAXARCH, ...) the log manager runs with.
    pub fn archive_parameters(&self) -> &ArchiveParameters {
        &self.shared.archive
    }

    /// A copy of the BSDS as the log manager last wrote it.
    pub fn bsds(&self) -> Bsds {
        self.shared.bsds.lock().unwrap().clone()
    }

    /// The archive inventory.
    pub fn archives(&self) -> Vec<ArchiveEntry> {
        self.shared.sources.archives.read().unwrap().clone()
    }

    /// Verify a log offline (the CSQ1LOGP analogue's check): read the BSDS, every active log and
    /// every archive, and check every record from the oldest available RBA to the end.
    pub fn verify(
        fs: Arc<dyn FileSystem>,
        directory: &Path,
        log: &LogParameters,
        archive: &ArchiveParameters,
    ) -> StorageResult<LogVerifyReport> {
        let _ = log;
        Ok(OfflineLog::open(fs, directory, archive)?.verify())
    }
}

impl Drop for LogManager {
    fn drop(&mut self) {
        if !self.stopped.load(Ordering::Acquire) {
            let _ = self.shutdown();
        }
    }
}

impl WriteAheadLog for LogManager {
    /// The buffer manager's write-ahead rule: the log is durable before `rba`.
    fn force_through(&self, rba: Rba) -> StorageResult<()> {
        self.force(rba)
    }
}
