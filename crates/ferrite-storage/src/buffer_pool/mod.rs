//! Buffer pools: the buffer manager of MP16 chapter 5 §1.1–1.4 and chapter 1 §1.3.
//!
//! A pool has a number of preallocated 4 KiB buffers (frames), which cache pages of the page
//! sets attached to it; ALTER BUFFPOOL changes that number while the pool serves
//! ([`BufferPool::resize`], `resize.rs`). The data manager uses MQ's protocol:
//! - **GETP** ([`BufferPool::get_page`]): the page's contents are needed. A hit pins the frame.
//!   A miss steals a stealable frame, reads the page into it (QPSTRIO) and pins it.
//! - **GETN** ([`BufferPool::get_new_page`]): the contents will be overwritten. A miss steals a
//!   frame and zeroes it instead of reading.
//! - **SET WRITE** ([`PageGuard::update`]): change the page. It becomes "changed & in use".
//! - **Release**: drop the [`PageGuard`]. With no other user, the page becomes "not in use".
//!
//! ## Page states and thresholds (MP16 ch. 5 §1.2)
//!
//! The five states are unused, changed & in use, changed & not in use, unchanged & in use, and
//! unchanged & not in use. *Stealable* means unused, or unchanged & not in use. Only changed
//! pages are written. A completed write makes a page unchanged.
//!
//! | Rule | Condition | Action |
//! |---|---|---|
//! | Deferred write start | stealable < 15% or changed > 85% | wake the pool's deferred write thread; QPSTDWT + 1 |
//! | Deferred write stop | stealable ≥ 25% | the thread goes back to sleep |
//! | Synchronous write | a changed page is released while stealable < 5% or changed > 95% | the releasing thread writes it; QPSTDMC + 1, QPSTIMW + 1 |
//! | Checkpoint | persistent pages first changed ≥ 2 checkpoints ago | written in runs; pages in use are written when released (QPSTIMW) |
//! | Short on storage | a miss finds no stealable frame | QPSTSOS + 1; the thread writes the oldest changed page not in use itself (QPSTIMW), then retries |
//!
//! ## The write-ahead rule
//!
//! A page's RBA ([`PageBytes::page_rba`]) is the *start* RBA of the last logged change applied
//! to it. Before the pool writes a page whose latest change was logged, it calls
//! `write_ahead.force_through(Rba(page_rba + 1))`. `force_through(x)` must return only when
//! the log is durable up to at least byte `x` (exclusive). Durable bounds always fall on record
//! ends, so any RBA inside a record makes the whole record durable: `start + 1` forces the
//! whole record that starts at `page_rba`. A batch makes one call, with the highest page RBA in
//! the batch. The bytes written are the bytes whose RBA was forced: they are copied under the
//! latch before the force.
//!
//! ## Concurrency design
//!
//! - The **page table** maps (page set, page) to a frame. It is split into 64 shards, each a
//!   mutex-protected hash map. There is no pool-wide lock on the get/release path. A hit
//!   locks one shard, pins the frame with one CAS on its state word, and unlocks.
//! - Each frame has a **state word** (see [`frame`]). Pin count, changed, writing, reserved
//!   and write-on-release are all changed by CAS, and each successful CAS adjusts the pool's
//!   stealable and changed counts exactly. Those counts drive every threshold.
//! - Each frame's **latch** (`RwLock<()>`) protects its bytes: shared for [`PageGuard::read`]
//!   and for copying out to write, exclusive for [`PageGuard::update`]. No latch is held
//!   during I/O, except that a frame being loaded is latched exclusively while it is read.
//!   Nobody else can reach it then.
//! - **Stealing** uses a clock scan with a reference bit. A victim is claimed by CAS, from
//!   stealable to `RESERVED`, without any lock, and then unmapped under its shard's lock.
//!   Anyone who finds a `RESERVED` frame in the table waits on the shard's condition
//!   variable. Loads and unmaps signal it under the shard lock, so no wake-up is lost.
//! - **Writes** copy the page under the shared latch into a staging buffer, record the frame's
//!   change version, force the log, write, and sync the page set. Only then is the frame made
//!   unchanged, and only if its version did not move meanwhile. A frame changed during its
//!   write stays changed, and nothing is lost. A failed write leaves the frame changed.
//! - **Lock order**: shard lock → frame state (atomic). The frame latch is never held while
//!   taking a shard lock. The batch-writer mutex is held across batch I/O but never while
//!   taking a latch exclusively.
//! - The hot path allocates nothing. Frames (in chunks that never move, `frame_table.rs`),
//!   staging buffers and candidate lists are allocated when the pool is created or grows.

mod deferred_write;
mod frame;
mod frame_table;
mod read_ahead;
mod resize;
mod statistics;

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::{StorageError, StorageResult};
use crate::page::{PageBytes, PAGE_FLAG_NONPERSISTENT};
use crate::page_set::PageSet;
use crate::types::{BufferPoolId, PageNumber, PageSetId, Rba};

use deferred_write::{BatchWriter, DeferredWriteControl, SynchronousWriteReason};
use frame::{
    is_changed, is_stealable, key_page_set, page_key, pin_count, shard_index, Frame, Shard,
    CHANGED, NO_KEY, NO_RECOVERY_RBA, PAGE_TABLE_SHARDS, PIN_COUNT_MAX, RESERVED, WRITE_ON_RELEASE,
    WRITING,
};
use frame_table::FrameTable;
use read_ahead::ReadAheadRequest;
use statistics::Counters;

pub use frame_table::BUFFERS_MAX;
pub use resize::{ResizeOutcome, SHRINK_WAIT_MAX};
pub use statistics::BufferPoolStatistics;

/// The deferred write process starts when stealable buffers fall below this share of the pool…
pub const DEFERRED_WRITE_START_STEALABLE_PERCENT: u64 = 15;
/// …or changed buffers rise above this share.
pub const DEFERRED_WRITE_START_CHANGED_PERCENT: u64 = 85;
/// The deferred write process stops once stealable buffers reach this share of the pool.
pub const DEFERRED_WRITE_STOP_STEALABLE_PERCENT: u64 = 25;
/// A changed page released while stealable buffers are below this share is written at once…
pub const SYNCHRONOUS_WRITE_STEALABLE_PERCENT: u64 = 5;
/// …or while changed buffers are above this share.
pub const SYNCHRONOUS_WRITE_CHANGED_PERCENT: u64 = 95;
/// Pages in one write I/O of the deferred write process, checkpoint or shutdown (MQ V8+: 16).
pub const DEFERRED_WRITE_PAGES_PER_IO_MAX: usize = 16;
/// Write I/Os one batch may have in flight (MQ V8+: 64, i.e. 4 MiB per pool).
pub const DEFERRED_WRITE_IOS_IN_FLIGHT_MAX: usize = 64;
/// Pages in one batch: the pages of the I/Os that may be in flight at once.
pub const DEFERRED_WRITE_BATCH_PAGES_MAX: usize =
    DEFERRED_WRITE_PAGES_PER_IO_MAX * DEFERRED_WRITE_IOS_IN_FLIGHT_MAX;
/// Threads that issue one batch's write I/Os concurrently (each has one I/O in flight). Must
/// not exceed [`DEFERRED_WRITE_IOS_IN_FLIGHT_MAX`].
pub const DEFERRED_WRITE_WRITER_THREADS: usize = 8;
/// A page is written at checkpoint once it was first changed this many checkpoints ago.
pub const CHECKPOINT_AGE_CHECKPOINTS: u64 = 2;
/// Read-ahead requests queued per pool. Requests beyond this are dropped.
pub const READ_AHEAD_QUEUE_PAGES_MAX: usize = 256;
/// How long a get-page request keeps trying for a stealable buffer before it fails. This is
/// what keeps a thread that holds every buffer itself from hanging forever.
pub const STEAL_WAIT_MAX: Duration = Duration::from_secs(2);
/// Pause between attempts to find a stealable buffer when none can be made stealable now.
pub const STEAL_RETRY_PAUSE: Duration = Duration::from_millis(1);
/// Longest wait on a frame another thread is loading before looking again.
const RESERVED_WAIT_SLICE: Duration = Duration::from_millis(10);

const _: () = assert!(DEFERRED_WRITE_WRITER_THREADS <= DEFERRED_WRITE_IOS_IN_FLIGHT_MAX);
const _: () = assert!(DEFERRED_WRITE_WRITER_THREADS >= 1);

/// The buffer manager asks the log manager to make the log durable through a page's RBA
/// before that page is written (the write-ahead rule).
pub trait WriteAheadLog: Send + Sync {
    /// Return once every log byte before `rba` is on stable storage.
    ///
    /// `rba` is an exclusive byte bound. The buffer pool passes `page_rba + 1`, where the page
    /// RBA is the start of the last log record applied to the page. The log manager makes
    /// durable the whole record that contains byte `rba - 1`, because durable bounds always
    /// fall on record ends.
    fn force_through(&self, rba: Rba) -> StorageResult<()>;
}

/// How an update changes a page.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PageChange {
    /// A logged (persistent) change whose log record starts at this RBA; the page RBA is set to it.
    Logged(Rba),
    /// A change that is not logged: the page holds non-persistent data only.
    NonPersistent,
}

/// How many frames are in each MP16 page state (see [`BufferPool::page_state_counts`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PageStateCounts {
    pub unused: u64,
    pub changed_in_use: u64,
    pub changed_not_in_use: u64,
    pub unchanged_in_use: u64,
    pub unchanged_not_in_use: u64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every structure behind these mutexes is left consistent at each step, so poisoning
    // (a panic in another thread) does not make it unusable.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Why a frame is being fetched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum GetKind {
    /// GETP: read the page on a miss, and pin it.
    Page,
    /// GETN: zero the frame on a miss, and pin it.
    NewPage,
    /// Read-ahead: read the page on a miss, and leave it unpinned.
    ReadAhead,
}

/// Everything the pool's users and background threads share.
struct PoolShared {
    id: BufferPoolId,
    /// The frames and their page bytes; scans cover `frames.len()`, which is at least
    /// `buffers` (more only while a shrink empties the frames it gives up).
    frames: FrameTable,
    /// The pool's size now (QPSTNBUF): the steal clock hands out frames `0..buffers`, and the
    /// thresholds are shares of it. Changed only by `resize.rs`, under `resize_lock`.
    buffers: AtomicUsize,
    /// Held by ALTER BUFFPOOL's resize and page class change, so that two do not overlap.
    resize_lock: Mutex<()>,
    /// PAGECLAS(FIXED4KB): the page bytes of frames `0..frames.len()` are locked in memory.
    /// Changed only under `resize_lock`.
    fixed: AtomicBool,
    shards: Box<[Shard]>,
    /// Attached page sets, indexed by page set id.
    page_sets: RwLock<Vec<Option<Arc<PageSet>>>>,
    write_ahead: Arc<dyn WriteAheadLog>,
    counters: Counters,
    /// Frames in a stealable state. May be briefly off by the transitions in progress; exact
    /// when the pool is quiet.
    stealable_frames: AtomicI64,
    /// Frames with `CHANGED` set, kept the same way.
    changed_frames: AtomicI64,
    clock_hand: AtomicUsize,
    /// The sequence number of the last checkpoint; stamped on a frame's first change.
    checkpoint_sequence: AtomicU64,
    /// Source of `Frame::first_change_order`.
    first_change_clock: AtomicU64,
    /// Staging buffers and work lists for the deferred write process, checkpoint and shutdown.
    batch_writer: Mutex<BatchWriter>,
    deferred_write: DeferredWriteControl,
    shutting_down: AtomicBool,
    /// The last error a background or release-time write met, for operators.
    last_write_error: Mutex<Option<String>>,
    /// Told of every such error (the queue manager reports it as CSQP004E).
    write_error_observer: RwLock<Option<WriteErrorObserver>>,
}

/// Called with the pool and the error each time a deferred, synchronous or checkpoint write
/// of the pool fails (the pages stay changed and are written again later).
pub type WriteErrorObserver = Arc<dyn Fn(BufferPoolId, &StorageError) + Send + Sync>;

/// A buffer pool. Create it with [`BufferPool::new`], attach its page sets, and share it
/// through the returned `Arc`.
pub struct BufferPool {
    shared: Arc<PoolShared>,
    read_ahead_queue: Mutex<Option<SyncSender<ReadAheadRequest>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

/// A page pinned "in use". Dropping it releases the page (in use -> not in use).
///
/// Do not drop a guard inside a [`PageGuard::read`] or [`PageGuard::update`] closure of a
/// guard for the same page. The release may write the page, which needs its latch.
pub struct PageGuard {
    pool: Arc<PoolShared>,
    frame: u32,
    page_set: PageSetId,
    page: PageNumber,
}

impl std::fmt::Debug for PageGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageGuard")
            .field("buffer_pool", &self.pool.id)
            .field("page_set", &self.page_set)
            .field("page", &self.page)
            .field("frame", &self.frame)
            .finish()
    }
}

impl PageGuard {
    /// Read the page under the frame's shared latch.
    pub fn read<R>(&self, f: impl FnOnce(&PageBytes) -> R) -> R {
        let frame = self.pool.frame(self.frame);
        let _latch = frame.latch.read().unwrap_or_else(PoisonError::into_inner);
        // SAFETY: the shared latch is held, so no thread has mutable access to the bytes.
        f(unsafe { self.pool.page_ref(self.frame) })
    }

    /// SET WRITE: change the page under the frame's exclusive latch. The page becomes changed.
    ///
    /// - `PageChange::Logged(rba)`: after `f` runs, the page RBA is set to `rba` (the start of
    ///   the log record that describes the change) and the non-persistent flag is cleared. The
    ///   frame's recovery RBA becomes the lowest logged RBA since the page was last written.
    /// - `PageChange::NonPersistent`: after `f` runs, the page's non-persistent flag
    ///   ([`PAGE_FLAG_NONPERSISTENT`]) is set and its RBA is left alone. Checkpoint and
    ///   shutdown do not write such pages, unless logged changes made before are still
    ///   unwritten (then the page is written, with its non-persistent flag).
    ///
    /// The kind of the latest change decides which one the page is.
    pub fn update<R>(&self, change: PageChange, f: impl FnOnce(&mut PageBytes) -> R) -> R {
        let pool = &self.pool;
        let frame = pool.frame(self.frame);
        let _latch = frame.latch.write().unwrap_or_else(PoisonError::into_inner);
        // SAFETY: the exclusive latch is held, so this is the only reference to the bytes.
        let page = unsafe { pool.page_mut(self.frame) };
        let result = f(page);
        match change {
            PageChange::Logged(rba) => {
                debug_assert!(
                    page.page_rba() <= rba,
                    "log RBAs applied to page {} of page set {} went backwards: {} after {}",
                    self.page,
                    self.page_set,
                    rba,
                    page.page_rba()
                );
                page.set_page_rba(rba);
                page.set_flags(page.flags() & !PAGE_FLAG_NONPERSISTENT);
                frame.nonpersistent.store(false, Ordering::Relaxed);
                frame.recovery_rba.fetch_min(rba.0, Ordering::Relaxed);
            }
            PageChange::NonPersistent => {
                page.set_flags(page.flags() | PAGE_FLAG_NONPERSISTENT);
                // A page whose logged changes are not yet on disk (say, the GET that freed its
                // last persistent message) and that is now reused for non-persistent data must
                // still be written at checkpoint and shutdown, and keep holding back the
                // page set's recovery RBA: otherwise the stale persistent image on disk would
                // outlive the log records that empty it. Written, it carries the
                // non-persistent flag, which restart discards.
                if frame.recovery_rba.load(Ordering::Relaxed) == NO_RECOVERY_RBA {
                    frame.nonpersistent.store(true, Ordering::Relaxed);
                }
            }
        }
        frame.change_version.fetch_add(1, Ordering::Relaxed);
        // CHANGED is set only here and cleared only under a shared latch, so it cannot move
        // while this exclusive latch is held.
        let first_change = !is_changed(frame.state.load(Ordering::Acquire));
        if first_change {
            frame.first_change_checkpoint.store(
                pool.checkpoint_sequence.load(Ordering::Relaxed),
                Ordering::Relaxed,
            );
            frame.first_change_order.store(
                pool.first_change_clock.fetch_add(1, Ordering::Relaxed),
                Ordering::Relaxed,
            );
        }
        pool.transition(self.frame as usize, |state| Some(state | CHANGED))
            .expect("setting CHANGED always succeeds");
        Counters::count(
            &pool.shards[self.frame as usize % PAGE_TABLE_SHARDS].set_writes,
            1,
        );
        if first_change {
            pool.check_deferred_write_thresholds();
        }
        result
    }

    pub fn page_number(&self) -> PageNumber {
        self.page
    }

    pub fn page_set(&self) -> PageSetId {
        self.page_set
    }
}

impl Drop for PageGuard {
    fn drop(&mut self) {
        self.pool.release(self.frame as usize);
    }
}

impl BufferPool {
    /// Create a pool of `buffers` 4 KiB buffers, all allocated now, and start its deferred
    /// write and read-ahead threads.
    pub fn new(
        id: BufferPoolId,
        buffers: u32,
        write_ahead: Arc<dyn WriteAheadLog>,
    ) -> Arc<BufferPool> {
        assert!(buffers >= 1, "buffer pool {id} needs at least one buffer");
        let frame_count = buffers as usize;
        let shard_capacity = frame_count / PAGE_TABLE_SHARDS * 2 + 8;
        let shared = Arc::new(PoolShared {
            id,
            frames: FrameTable::new(frame_count),
            buffers: AtomicUsize::new(frame_count),
            resize_lock: Mutex::new(()),
            fixed: AtomicBool::new(false),
            shards: (0..PAGE_TABLE_SHARDS)
                .map(|_| Shard::new(shard_capacity))
                .collect(),
            page_sets: RwLock::new(vec![None; usize::from(PageSetId::MAX) + 1]),
            write_ahead,
            counters: Counters {
                lowest_stealable: AtomicI64::new(frame_count as i64),
                ..Counters::default()
            },
            stealable_frames: AtomicI64::new(frame_count as i64),
            changed_frames: AtomicI64::new(0),
            clock_hand: AtomicUsize::new(0),
            checkpoint_sequence: AtomicU64::new(0),
            first_change_clock: AtomicU64::new(1),
            batch_writer: Mutex::new(BatchWriter::new(frame_count)),
            deferred_write: DeferredWriteControl::default(),
            shutting_down: AtomicBool::new(false),
            last_write_error: Mutex::new(None),
            write_error_observer: RwLock::new(None),
        });
        let (read_ahead_queue, read_ahead_receiver) =
            std::sync::mpsc::sync_channel(READ_AHEAD_QUEUE_PAGES_MAX);
        let deferred_write_thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(format!("ferrite-bp{id}-dwp"))
                .spawn(move || shared.run_deferred_write_process())
                .expect("start the deferred write thread")
        };
        let read_ahead_thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(format!("ferrite-bp{id}-read-ahead"))
                .spawn(move || shared.run_read_ahead(read_ahead_receiver))
                .expect("start the read-ahead thread")
        };
        Arc::new(BufferPool {
            shared,
            read_ahead_queue: Mutex::new(Some(read_ahead_queue)),
            threads: Mutex::new(vec![deferred_write_thread, read_ahead_thread]),
        })
    }

    pub fn id(&self) -> BufferPoolId {
        self.shared.id
    }

    /// Serve `page_set` from this pool. Attaching a page set with the id of one already
    /// attached replaces it. A restore should call [`BufferPool::discard_page_set`] first.
    pub fn attach(&self, page_set: Arc<PageSet>) {
        let mut page_sets = self
            .shared
            .page_sets
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let index = usize::from(page_set.id().0);
        page_sets[index] = Some(page_set);
    }

    /// GETP: pin `page` of `page_set`, reading it from the page set if it is not in the pool.
    /// A page that fails verification is reported as [`StorageError::CorruptPage`] and never
    /// served. Page 0, the page set header, belongs to [`PageSet`] and cannot be got here.
    pub fn get_page(&self, page_set: PageSetId, page: PageNumber) -> StorageResult<PageGuard> {
        self.get(page_set, page, GetKind::Page)
    }

    /// GETN: pin `page` of `page_set` for the caller to format. On a miss the frame is zeroed
    /// and the page set is not read. On a hit the current contents are kept.
    pub fn get_new_page(&self, page_set: PageSetId, page: PageNumber) -> StorageResult<PageGuard> {
        self.get(page_set, page, GetKind::NewPage)
    }

    fn get(
        &self,
        page_set: PageSetId,
        page: PageNumber,
        kind: GetKind,
    ) -> StorageResult<PageGuard> {
        let frame = self
            .shared
            .fetch(page_set, page, kind)?
            .expect("a get pins its frame");
        Ok(PageGuard {
            pool: Arc::clone(&self.shared),
            frame: frame as u32,
            page_set,
            page,
        })
    }

    /// Ask the read-ahead thread to bring `pages` of `page_set` into the pool, unpinned.
    /// Requests are dropped when the queue is full, and skipped while the pool is below its
    /// deferred write threshold. Read-ahead is a hint and its failures are ignored: a damaged
    /// page is reported to the GETP that needs it.
    pub fn read_ahead(&self, page_set: PageSetId, pages: &[PageNumber]) {
        let queue = lock(&self.read_ahead_queue);
        let Some(queue) = queue.as_ref() else { return };
        for &page in pages {
            if queue.try_send(ReadAheadRequest { page_set, page }).is_err() {
                return;
            }
        }
    }

    /// Checkpoint: from now on, first changes are stamped with `checkpoint_sequence`. Then write,
    /// in runs, every changed persistent page first changed at checkpoint sequence
    /// `checkpoint_sequence − 2` or earlier, and sync the page sets.
    ///
    /// Non-persistent pages are never written here. A qualifying page that is in use is not
    /// written now. It is marked, and the thread that releases it writes it synchronously
    /// (QPSTIMW), which is MP16's "missed write". If that write fails, the next checkpoint
    /// writes it. Returns the number of pages written now.
    pub fn checkpoint(&self, checkpoint_sequence: u64) -> StorageResult<u64> {
        let result = self.shared.checkpoint(checkpoint_sequence);
        if let Err(error) = &result {
            self.shared.record_write_error(error);
        }
        result
    }

    /// Write every changed persistent page, whether or not it is in use, and sync. Returns the
    /// number of pages written. Non-persistent pages are not written: their messages do not
    /// survive a restart.
    pub fn flush_for_shutdown(&self) -> StorageResult<u64> {
        self.shared.flush_for_shutdown()
    }

    /// The lowest recovery RBA among the changed, not yet written, persistent frames of
    /// `page_set`, or `None` if there are none. The page set's media recovery RBA is
    /// min(this, the checkpoint's RBA), computed by the caller.
    pub fn recovery_rba(&self, page_set: PageSetId) -> Option<Rba> {
        self.shared.recovery_rba(page_set)
    }

    /// Drop every frame of `page_set` without writing it (for restore and reset utilities).
    ///
    /// Contract: no page of `page_set` is in use, and none is requested while this runs. A write
    /// already in progress is waited for.
    pub fn discard_page_set(&self, page_set: PageSetId) {
        self.shared.discard_page_set(page_set)
    }

    /// A snapshot of the QPST statistics.
    pub fn statistics(&self) -> BufferPoolStatistics {
        self.shared.statistics()
    }

    /// Start a new statistics interval: QPSTCBSL restarts from the current stealable count.
    /// The other counters count from the creation of the pool (see [`statistics`]).
    pub fn reset_interval_statistics(&self) {
        let shared = &self.shared;
        shared
            .counters
            .lowest_stealable
            .store(shared.stealable().max(0), Ordering::Relaxed);
    }

    /// Counts of frames in each MP16 page state. Scans the pool, for displays and tests.
    pub fn page_state_counts(&self) -> PageStateCounts {
        self.shared.page_state_counts()
    }

    /// Whether the deferred write process is running now.
    pub fn deferred_write_active(&self) -> bool {
        self.shared.deferred_write.is_active()
    }

    /// The last error a background or release-time write met, if any. Such a write leaves the
    /// page changed, so it is retried later.
    pub fn last_write_error(&self) -> Option<String> {
        lock(&self.shared.last_write_error).clone()
    }

    /// Have `observer` told of every failed page write of this pool (deferred write process,
    /// synchronous writes, checkpoint writes), as it happens.
    pub fn set_write_error_observer(&self, observer: WriteErrorObserver) {
        *self
            .shared
            .write_error_observer
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Some(observer);
    }

    /// Stop the deferred write and read-ahead threads and wait for them. Pages changed after
    /// this are still written by synchronous writes, checkpoints and
    /// [`BufferPool::flush_for_shutdown`]. Calling it again does nothing.
    pub fn shutdown(&self) {
        self.shared.shutting_down.store(true, Ordering::Release);
        self.shared.deferred_write.wake_for_shutdown();
        lock(&self.read_ahead_queue).take();
        let threads = std::mem::take(&mut *lock(&self.threads));
        for thread in threads {
            // A background thread that panicked has already reported it. The pool's state stays
            // consistent, so shutdown goes on.
            let _ = thread.join();
        }
    }
}

impl Drop for BufferPool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl PoolShared {
    /// The pool's size now (see `buffers`).
    fn frame_count(&self) -> u64 {
        self.buffers.load(Ordering::Relaxed) as u64
    }

    fn frame(&self, index: u32) -> &Frame {
        self.frames.frame(index as usize)
    }

    /// # Safety
    /// The caller holds the frame's latch (shared or exclusive), or owns the frame as
    /// `RESERVED` while holding its exclusive latch.
    unsafe fn page_ref(&self, index: u32) -> &PageBytes {
        &*self.frames.page(index as usize).0.get()
    }

    /// # Safety
    /// The caller holds the frame's exclusive latch.
    #[allow(clippy::mut_from_ref)]
    unsafe fn page_mut(&self, index: u32) -> &mut PageBytes {
        &mut *self.frames.page(index as usize).0.get()
    }

    fn stealable(&self) -> i64 {
        self.stealable_frames.load(Ordering::Relaxed)
    }

    fn changed(&self) -> i64 {
        self.changed_frames.load(Ordering::Relaxed)
    }

    /// Change a frame's state word with `change`, which returns the new state or `None` to give
    /// up. Returns (old, new), or the state that made `change` give up. Keeps the stealable and
    /// changed counts, and the QPSTCBSL low-water mark, in step.
    fn transition(
        &self,
        index: usize,
        mut change: impl FnMut(u64) -> Option<u64>,
    ) -> Result<(u64, u64), u64> {
        let state = &self.frames.frame(index).state;
        let mut current = state.load(Ordering::Acquire);
        loop {
            let new = change(current).ok_or(current)?;
            match state.compare_exchange_weak(current, new, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => {
                    let stealable_delta =
                        i64::from(is_stealable(new)) - i64::from(is_stealable(current));
                    if stealable_delta != 0 {
                        let now = self
                            .stealable_frames
                            .fetch_add(stealable_delta, Ordering::Relaxed)
                            + stealable_delta;
                        if stealable_delta < 0 {
                            self.counters.note_stealable(now);
                        }
                    }
                    let changed_delta = i64::from(is_changed(new)) - i64::from(is_changed(current));
                    if changed_delta != 0 {
                        self.changed_frames
                            .fetch_add(changed_delta, Ordering::Relaxed);
                    }
                    return Ok((current, new));
                }
                Err(actual) => current = actual,
            }
        }
    }

    fn attached(&self, page_set: PageSetId) -> StorageResult<Arc<PageSet>> {
        let page_sets = self
            .page_sets
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        page_sets
            .get(usize::from(page_set.0))
            .and_then(Option::clone)
            .ok_or_else(|| {
                StorageError::invalid(format!(
                    "page set {page_set} is not attached to buffer pool {}",
                    self.id
                ))
            })
    }

    /// Find or load a page. Returns the pinned frame for GETP and GETN, and `None` for
    /// read-ahead.
    fn fetch(
        &self,
        page_set_id: PageSetId,
        page: PageNumber,
        kind: GetKind,
    ) -> StorageResult<Option<usize>> {
        let key = page_key(page_set_id, page);
        let shard = &self.shards[shard_index(key)];
        let mut counted = false;
        loop {
            // Hit?
            {
                let mut table = lock(&shard.table);
                if !counted {
                    match kind {
                        GetKind::Page => table.get_page_requests += 1,
                        GetKind::NewPage => table.get_new_page_requests += 1,
                        GetKind::ReadAhead => {}
                    }
                    counted = true;
                }
                if let Some(&index) = table.map.get(&key) {
                    let index = index as usize;
                    if kind == GetKind::ReadAhead {
                        return Ok(None);
                    }
                    let pinned = self.transition(index, |state| {
                        (state & RESERVED == 0).then(|| {
                            assert!(pin_count(state) < PIN_COUNT_MAX, "pin count overflow");
                            state + 1
                        })
                    });
                    if pinned.is_ok() {
                        let frame = self.frames.frame(index);
                        if !frame.referenced.load(Ordering::Relaxed) {
                            frame.referenced.store(true, Ordering::Relaxed);
                        }
                        return Ok(Some(index));
                    }
                    // Being loaded, stolen or discarded: wait until that is over, then look again.
                    let _ = shard
                        .reserved_released
                        .wait_timeout(table, RESERVED_WAIT_SLICE)
                        .unwrap_or_else(PoisonError::into_inner);
                    continue;
                }
            }
            // Miss.
            let page_set = self.attached(page_set_id)?;
            let page_count = page_set.page_count();
            if page.0 == 0 || page.0 >= page_count {
                return Err(StorageError::invalid(format!(
                    "page {page} is not a data page of page set {page_set_id}, which has pages \
                     1..{page_count}"
                )));
            }
            let index = if kind == GetKind::ReadAhead {
                match self.steal_frame() {
                    Some(index) => index,
                    None => return Ok(None),
                }
            } else {
                self.acquire_stealable_frame()?
            };
            {
                let mut table = lock(&shard.table);
                if table.map.contains_key(&key) {
                    // Another thread loaded the page while this one looked for a buffer.
                    Counters::count(&self.counters.steal_contention, 1);
                    self.transition(index, |state| Some(state & !RESERVED))
                        .expect("unreserve");
                    drop(table);
                    if kind == GetKind::ReadAhead {
                        return Ok(None);
                    }
                    continue;
                }
                table.map.insert(key, index as u32);
                self.frames.frame(index).key.store(key, Ordering::Release);
            }
            return self
                .load(index, key, &page_set, page, kind)
                .map(|()| (kind != GetKind::ReadAhead).then_some(index));
        }
    }

    /// Fill a reserved, freshly mapped frame, then pin it (GETP, GETN) or leave it unpinned
    /// (read-ahead). On failure the frame is unmapped and freed, and its bytes are zero.
    fn load(
        &self,
        index: usize,
        key: u64,
        page_set: &PageSet,
        page: PageNumber,
        kind: GetKind,
    ) -> StorageResult<()> {
        let frame = self.frames.frame(index);
        let result = {
            let _latch = frame.latch.write().unwrap_or_else(PoisonError::into_inner);
            // SAFETY: exclusive latch held, and the frame is RESERVED by this thread.
            let bytes = unsafe { self.page_mut(index as u32) };
            match kind {
                GetKind::NewPage => {
                    bytes.0.fill(0);
                    Ok(())
                }
                GetKind::Page | GetKind::ReadAhead => page_set.read_page(page, bytes),
            }
        };
        frame.nonpersistent.store(false, Ordering::Relaxed);
        frame.recovery_rba.store(NO_RECOVERY_RBA, Ordering::Relaxed);
        let shard = &self.shards[shard_index(key)];
        let table = lock(&shard.table);
        match result {
            Ok(()) => {
                let pins = u64::from(kind != GetKind::ReadAhead);
                self.transition(index, |state| {
                    debug_assert_eq!(state, RESERVED);
                    Some(pins)
                })
                .expect("finish load");
                frame.referenced.store(true, Ordering::Relaxed);
                shard.reserved_released.notify_all();
                drop(table);
                if kind != GetKind::NewPage {
                    Counters::count(&self.counters.pages_read, 1);
                }
                Ok(())
            }
            Err(error) => {
                let mut table = table;
                table.map.remove(&key);
                frame.key.store(NO_KEY, Ordering::Release);
                self.transition(index, |_| Some(0)).expect("free frame");
                shard.reserved_released.notify_all();
                Err(error)
            }
        }
    }

    /// Steal a stealable frame by clock scan. Returns it `RESERVED` and unmapped, or `None` if
    /// two turns of the clock found nothing to steal.
    fn steal_frame(&self) -> Option<usize> {
        let count = self.frame_count() as usize;
        for _ in 0..2 * count {
            let index = self.clock_hand.fetch_add(1, Ordering::Relaxed) % count;
            let frame = self.frames.frame(index);
            if !is_stealable(frame.state.load(Ordering::Relaxed)) {
                continue;
            }
            if frame.referenced.load(Ordering::Relaxed) {
                frame.referenced.store(false, Ordering::Relaxed);
                continue;
            }
            if self
                .transition(index, |state| is_stealable(state).then_some(RESERVED))
                .is_err()
            {
                Counters::count(&self.counters.steal_contention, 1);
                continue;
            }
            self.unmap_reserved(index);
            Counters::count(&self.counters.steals, 1);
            self.check_deferred_write_thresholds();
            return Some(index);
        }
        None
    }

    /// Take a frame this thread has made `RESERVED` out of the page table (the page it held
    /// is no longer cached).
    fn unmap_reserved(&self, index: usize) {
        let frame = self.frames.frame(index);
        debug_assert!(frame.state.load(Ordering::Acquire) & RESERVED != 0);
        let old_key = frame.key.load(Ordering::Acquire);
        if old_key != NO_KEY {
            let shard = &self.shards[shard_index(old_key)];
            let mut table = lock(&shard.table);
            if table.map.get(&old_key) == Some(&(index as u32)) {
                table.map.remove(&old_key);
            }
            frame.key.store(NO_KEY, Ordering::Release);
            shard.reserved_released.notify_all();
        }
    }

    /// Steal a frame for GETP or GETN. If none is stealable (QPSTSOS), wake the deferred
    /// write process and write the oldest changed page not in use synchronously, then try again.
    /// Gives up after [`STEAL_WAIT_MAX`] if every buffer stays in use.
    fn acquire_stealable_frame(&self) -> StorageResult<usize> {
        let mut short_since: Option<Instant> = None;
        loop {
            if let Some(index) = self.steal_frame() {
                return Ok(index);
            }
            let since = *short_since.get_or_insert_with(|| {
                Counters::count(&self.counters.short_on_storage, 1);
                Instant::now()
            });
            self.deferred_write.request();
            let written = match self.oldest_changed_not_in_use() {
                Some(index) => {
                    self.write_frame_synchronously(index, SynchronousWriteReason::ShortOnStorage)?
                }
                None => false,
            };
            if !written {
                if since.elapsed() >= STEAL_WAIT_MAX {
                    return Err(StorageError::invalid(format!(
                        "buffer pool {} has no stealable buffer: all {} buffers stayed in use or \
                         could not be written for {} ms (QPSTSOS); enlarge the pool or release \
                         pages",
                        self.id,
                        self.frame_count(),
                        STEAL_WAIT_MAX.as_millis()
                    )));
                }
                std::thread::sleep(STEAL_RETRY_PAUSE);
            }
        }
    }

    /// Release one pin. If this was the last pin of a changed page and the pool is past its
    /// synchronous write threshold, or a checkpoint missed the page, write it first, while it
    /// is still in use.
    fn release(&self, index: usize) {
        let state = self.frames.frame(index).state.load(Ordering::Acquire);
        if pin_count(state) == 1 && is_changed(state) && state & WRITING == 0 {
            let reason = if self.past_synchronous_write_threshold() {
                Some(SynchronousWriteReason::Threshold)
            } else if state & WRITE_ON_RELEASE != 0 {
                Some(SynchronousWriteReason::MissedWrite)
            } else {
                None
            };
            if let Some(reason) = reason {
                if let Err(error) = self.write_frame_synchronously(index, reason) {
                    self.record_write_error(&error);
                }
            }
        }
        let (_, new) = self
            .transition(index, |state| {
                assert!(pin_count(state) > 0, "release of a page that is not in use");
                Some(state - 1)
            })
            .expect("release");
        if pin_count(new) == 0 && is_changed(new) {
            self.check_deferred_write_thresholds();
        }
    }

    fn past_synchronous_write_threshold(&self) -> bool {
        let frames = self.frame_count() as i64;
        self.stealable() * 100 < frames * SYNCHRONOUS_WRITE_STEALABLE_PERCENT as i64
            || self.changed() * 100 > frames * SYNCHRONOUS_WRITE_CHANGED_PERCENT as i64
    }

    fn past_deferred_write_threshold(&self) -> bool {
        let frames = self.frame_count() as i64;
        self.stealable() * 100 < frames * DEFERRED_WRITE_START_STEALABLE_PERCENT as i64
            || self.changed() * 100 > frames * DEFERRED_WRITE_START_CHANGED_PERCENT as i64
    }

    fn reached_deferred_write_stop(&self) -> bool {
        let frames = self.frame_count() as i64;
        self.stealable() * 100 >= frames * DEFERRED_WRITE_STOP_STEALABLE_PERCENT as i64
    }

    /// Stealable buffers the deferred write process still has to make to reach its stop
    /// threshold.
    fn deferred_write_shortfall(&self) -> u64 {
        let target =
            (self.frame_count() * DEFERRED_WRITE_STOP_STEALABLE_PERCENT).div_ceil(100) as i64;
        (target - self.stealable()).max(0) as u64
    }

    fn check_deferred_write_thresholds(&self) {
        if !self.deferred_write.is_active() && self.past_deferred_write_threshold() {
            self.deferred_write.request();
        }
    }

    fn record_write_error(&self, error: &StorageError) {
        *lock(&self.last_write_error) = Some(error.to_string());
        let observer = self
            .write_error_observer
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(observer) = observer {
            observer(self.id, error);
        }
    }

    fn oldest_changed_not_in_use(&self) -> Option<usize> {
        let mut oldest: Option<(u64, usize)> = None;
        for (index, frame) in self.frames.iter() {
            let state = frame.state.load(Ordering::Relaxed);
            if is_changed(state) && pin_count(state) == 0 && state & WRITING == 0 {
                let order = frame.first_change_order.load(Ordering::Relaxed);
                if oldest.is_none_or(|(best, _)| order < best) {
                    oldest = Some((order, index));
                }
            }
        }
        oldest.map(|(_, index)| index)
    }

    fn recovery_rba(&self, page_set: PageSetId) -> Option<Rba> {
        let mut lowest = NO_RECOVERY_RBA;
        for (_, frame) in self.frames.iter() {
            let state = frame.state.load(Ordering::Acquire);
            let key = frame.key.load(Ordering::Acquire);
            if !is_changed(state) || key == NO_KEY || key_page_set(key) != page_set {
                continue;
            }
            if !frame.nonpersistent.load(Ordering::Relaxed) {
                lowest = lowest.min(frame.recovery_rba.load(Ordering::Relaxed));
            }
        }
        (lowest != NO_RECOVERY_RBA).then_some(Rba(lowest))
    }

    fn discard_page_set(&self, page_set: PageSetId) {
        for index in 0..self.frames.len() {
            let frame = self.frames.frame(index);
            let key = frame.key.load(Ordering::Acquire);
            if key == NO_KEY || key_page_set(key) != page_set {
                continue;
            }
            // Claim the frame, waiting out a write or load in progress.
            let claimed = loop {
                let result = self.transition(index, |state| {
                    assert!(
                        pin_count(state) == 0,
                        "discard of page set {page_set} while one of its pages is in use"
                    );
                    (state & (WRITING | RESERVED) == 0).then_some(RESERVED)
                });
                match result {
                    Ok(_) => break true,
                    Err(_) if frame.key.load(Ordering::Acquire) != key => break false,
                    Err(_) => std::thread::sleep(STEAL_RETRY_PAUSE),
                }
            };
            if !claimed {
                continue;
            }
            let current_key = frame.key.load(Ordering::Acquire);
            if current_key != NO_KEY {
                let shard = &self.shards[shard_index(current_key)];
                let mut table = lock(&shard.table);
                if table.map.get(&current_key) == Some(&(index as u32)) {
                    table.map.remove(&current_key);
                }
                frame.key.store(NO_KEY, Ordering::Release);
                frame.recovery_rba.store(NO_RECOVERY_RBA, Ordering::Relaxed);
                frame.nonpersistent.store(false, Ordering::Relaxed);
                frame.referenced.store(false, Ordering::Relaxed);
                self.transition(index, |_| Some(0)).expect("free frame");
                shard.reserved_released.notify_all();
            } else {
                self.transition(index, |_| Some(0)).expect("free frame");
            }
        }
    }

    fn statistics(&self) -> BufferPoolStatistics {
        let mut statistics = BufferPoolStatistics {
            qpstnbuf: self.frame_count(),
            qpstcbsl: self
                .counters
                .lowest_stealable
                .load(Ordering::Relaxed)
                .max(0) as u64,
            qpstcbs: self.stealable().max(0) as u64,
            qpstrio: Counters::get(&self.counters.pages_read),
            qpstdwt: Counters::get(&self.counters.deferred_write_starts),
            qpsttpw: Counters::get(&self.counters.pages_written),
            qpstwio: Counters::get(&self.counters.write_ios),
            qpstimw: Counters::get(&self.counters.immediate_writes),
            qpstdmc: Counters::get(&self.counters.threshold_synchronous_writes),
            qpststl: Counters::get(&self.counters.steals),
            qpststla: Counters::get(&self.counters.steal_contention),
            qpstsos: Counters::get(&self.counters.short_on_storage),
            ..BufferPoolStatistics::default()
        };
        for shard in self.shards.iter() {
            let table = lock(&shard.table);
            statistics.qpstgetp += table.get_page_requests;
            statistics.qpstgetn += table.get_new_page_requests;
            drop(table);
            statistics.qpststw += Counters::get(&shard.set_writes);
        }
        statistics.qpstcbsl = statistics.qpstcbsl.min(statistics.qpstcbs);
        statistics
    }

    fn page_state_counts(&self) -> PageStateCounts {
        let mut counts = PageStateCounts::default();
        for (_, frame) in self.frames.iter() {
            let state = frame.state.load(Ordering::Acquire);
            let in_use = pin_count(state) > 0;
            if is_changed(state) {
                if in_use {
                    counts.changed_in_use += 1;
                } else {
                    counts.changed_not_in_use += 1;
                }
            } else if in_use {
                counts.unchanged_in_use += 1;
            } else if frame.key.load(Ordering::Acquire) == NO_KEY || state & RESERVED != 0 {
                counts.unused += 1;
            } else {
                counts.unchanged_not_in_use += 1;
            }
        }
        counts
    }
}
