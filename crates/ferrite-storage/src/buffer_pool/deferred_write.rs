//! Writing pages: the deferred write process (DWP), checkpoint and shutdown writes, and the
//! synchronous one-page writes made by application threads.
//!
//! ## Batches
//!
//! The DWP, checkpoint and shutdown all write in *batches*, one batch at a time per pool, under
//! the pool's batch-writer mutex:
//! 1. **Select** candidate frames:
//!    - DWP: changed & not in use, the oldest first changed first, as many as the pool needs to
//!      reach 25% stealable;
//!    - checkpoint: changed persistent frames first changed two or more checkpoints ago;
//!    - shutdown: every changed persistent frame.
//! 2. **Sort** the candidates by (page set, page), so contiguous pages form runs.
//! 3. **Claim** each candidate: set `WRITING` by CAS, so no other writer takes it. **Copy** its
//!    bytes under the shared latch into the batch's staging buffer, and note its change
//!    version. A batch holds at most [`DEFERRED_WRITE_BATCH_PAGES_MAX`] pages.
//! 4. **Force** the log once, through the highest page RBA of the batch's persistent pages
//!    (the write-ahead rule).
//! 5. **Write** runs of up to [`DEFERRED_WRITE_PAGES_PER_IO_MAX`] contiguous pages of one page
//!    set, each in one I/O. Up to [`DEFERRED_WRITE_WRITER_THREADS`] threads issue the I/Os
//!    concurrently. A batch has at most [`DEFERRED_WRITE_IOS_IN_FLIGHT_MAX`] full runs.
//! 6. **Sync** each page set written to, once.
//! 7. **Complete**: a frame whose write and sync succeeded, and whose change version has not
//!    moved, becomes unchanged. If it is not in use, it is now stealable. Every other frame
//!    stays changed.
//!
//! A page write becomes "done" only after the page set is synced. Until then the frame stays
//! changed, so its recovery RBA still holds back the page set's media recovery RBA.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

use super::frame::{
    allocate_staging_pages, is_changed, key_page, key_page_set, pin_count, CHANGED,
    NO_RECOVERY_RBA, WRITE_ON_RELEASE, WRITING,
};
use super::statistics::Counters;
use super::{
    lock, PoolShared, CHECKPOINT_AGE_CHECKPOINTS, DEFERRED_WRITE_BATCH_PAGES_MAX,
    DEFERRED_WRITE_IOS_IN_FLIGHT_MAX, DEFERRED_WRITE_PAGES_PER_IO_MAX,
    DEFERRED_WRITE_WRITER_THREADS,
};
use crate::error::{StorageError, StorageResult};
use crate::page::PageBytes;
use crate::types::{PageNumber, PageSetId, Rba};

/// How often an idle deferred write thread checks the thresholds by itself, in case a request
/// arrived while it was finishing its previous run.
const DEFERRED_WRITE_IDLE_CHECK_INTERVAL: Duration = Duration::from_millis(100);
/// Pause after a run that could write nothing, because every changed page was in use. This
/// stops a pool full of in-use pages from restarting the process on every release.
const DEFERRED_WRITE_FRUITLESS_PAUSE: Duration = Duration::from_millis(10);
/// Pause after a failed batch before the deferred write process tries again.
const DEFERRED_WRITE_ERROR_BACKOFF: Duration = Duration::from_millis(100);

const _: () = assert!(
    DEFERRED_WRITE_BATCH_PAGES_MAX / DEFERRED_WRITE_PAGES_PER_IO_MAX
        <= DEFERRED_WRITE_IOS_IN_FLIGHT_MAX
);

/// Why a page is written synchronously by an application thread (all count QPSTIMW).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum SynchronousWriteReason {
    /// Released while stealable < 5% or changed > 95% (also counts QPSTDMC).
    Threshold,
    /// Released after a checkpoint found it in use.
    MissedWrite,
    /// No stealable buffer for a get-page request (QPSTSOS): the oldest changed page not in use
    /// is written to make one.
    ShortOnStorage,
}

/// Which frames a write pass takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum WriteMode {
    /// Changed & not in use, persistent or not.
    DeferredWrite,
    /// Changed persistent frames first changed at or before this checkpoint sequence. Frames in
    /// use are marked to be written on release instead.
    Checkpoint { first_changed_at_or_before: u64 },
    /// Changed persistent frames, in use or not.
    Shutdown,
    /// One changed frame, whatever its state.
    Synchronous,
}

/// Start and stop signalling for the pool's deferred write thread.
#[derive(Default)]
pub(super) struct DeferredWriteControl {
    /// Set when a start is requested, cleared when the run ends.
    active: AtomicBool,
    requested: Mutex<bool>,
    wake: Condvar,
}

impl DeferredWriteControl {
    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::Acquire)
    }

    /// Start the deferred write process unless it is already running.
    pub fn request(&self) {
        if !self.active.swap(true, Ordering::AcqRel) {
            *lock(&self.requested) = true;
            self.wake.notify_one();
        }
    }

    pub fn wake_for_shutdown(&self) {
        let _requested = lock(&self.requested);
        self.wake.notify_all();
    }
}

/// A candidate frame for a write pass.
#[derive(Copy, Clone, Debug)]
struct Candidate {
    /// First-change order (DWP: oldest first).
    order: u64,
    /// Page key when selected (for sorting into runs).
    key: u64,
    frame: u32,
}

/// A frame claimed and copied into staging slot `position` of a batch.
#[derive(Copy, Clone, Debug)]
struct Slot {
    frame: u32,
    key: u64,
    version: u64,
    persistent: bool,
    page_rba: u64,
}

/// One write I/O: `length` contiguous pages of one page set, from staging slot `start`.
#[derive(Debug)]
struct Run {
    start: usize,
    length: usize,
    page_set: PageSetId,
    first: PageNumber,
    error: Option<StorageError>,
}

/// Preallocated buffers for batch writes.
pub(super) struct BatchWriter {
    staging: Box<[PageBytes]>,
    candidates: Vec<Candidate>,
    slots: Vec<Slot>,
    runs: Vec<Run>,
}

impl BatchWriter {
    pub fn new(frame_count: usize) -> BatchWriter {
        let staging_pages = frame_count.clamp(1, DEFERRED_WRITE_BATCH_PAGES_MAX);
        BatchWriter {
            staging: allocate_staging_pages(staging_pages),
            candidates: Vec::with_capacity(frame_count),
            slots: Vec::with_capacity(staging_pages),
            runs: Vec::with_capacity(staging_pages),
        }
    }
}

impl PoolShared {
    /// The body of the pool's deferred write thread.
    pub(super) fn run_deferred_write_process(&self) {
        let control = &self.deferred_write;
        loop {
            {
                let mut requested = lock(&control.requested);
                while !*requested && !self.shutting_down.load(Ordering::Acquire) {
                    let (guard, wait) = control
                        .wake
                        .wait_timeout(requested, DEFERRED_WRITE_IDLE_CHECK_INTERVAL)
                        .unwrap_or_else(PoisonError::into_inner);
                    requested = guard;
                    if wait.timed_out()
                        && !control.is_active()
                        && self.past_deferred_write_threshold()
                        && self.oldest_changed_not_in_use().is_some()
                    {
                        control.active.store(true, Ordering::Release);
                        *requested = true;
                    }
                }
                if self.shutting_down.load(Ordering::Acquire) {
                    control.active.store(false, Ordering::Release);
                    return;
                }
                *requested = false;
            }
            Counters::count(&self.counters.deferred_write_starts, 1);
            let mut wrote_any = false;
            while !self.shutting_down.load(Ordering::Acquire) && !self.reached_deferred_write_stop()
            {
                let needed = self
                    .deferred_write_shortfall()
                    .clamp(1, DEFERRED_WRITE_BATCH_PAGES_MAX as u64);
                match self.deferred_write_batch(needed as usize) {
                    Ok(0) => break,
                    Ok(_) => wrote_any = true,
                    Err(error) => {
                        self.record_write_error(&error);
                        std::thread::sleep(DEFERRED_WRITE_ERROR_BACKOFF);
                        break;
                    }
                }
            }
            if !wrote_any {
                std::thread::sleep(DEFERRED_WRITE_FRUITLESS_PAUSE);
            }
            control.active.store(false, Ordering::Release);
        }
    }

    /// One DWP batch: write the `needed` oldest changed pages that are not in use.
    fn deferred_write_batch(&self, needed: usize) -> StorageResult<u64> {
        let mut writer = lock(&self.batch_writer);
        let writer = &mut *writer;
        writer.candidates.clear();
        for (index, frame) in self.frames.iter().enumerate() {
            let state = frame.state.load(Ordering::Acquire);
            if is_changed(state) && pin_count(state) == 0 && state & WRITING == 0 {
                writer.candidates.push(Candidate {
                    order: frame.first_change_order.load(Ordering::Relaxed),
                    key: frame.key.load(Ordering::Acquire),
                    frame: index as u32,
                });
            }
        }
        if writer.candidates.len() > needed {
            writer
                .candidates
                .select_nth_unstable_by_key(needed, |candidate| candidate.order);
            writer.candidates.truncate(needed);
        }
        writer
            .candidates
            .sort_unstable_by_key(|candidate| (candidate.key, candidate.frame));
        self.write_candidates(writer, WriteMode::DeferredWrite)
    }

    pub(super) fn checkpoint(&self, sequence: u64) -> StorageResult<u64> {
        let previous = self
            .checkpoint_sequence
            .fetch_max(sequence, Ordering::AcqRel);
        assert!(
            sequence >= previous,
            "buffer pool {}: checkpoint sequence went backwards ({sequence} after {previous})",
            self.id
        );
        let Some(first_changed_at_or_before) = sequence.checked_sub(CHECKPOINT_AGE_CHECKPOINTS)
        else {
            return Ok(0);
        };
        let mut writer = lock(&self.batch_writer);
        let writer = &mut *writer;
        writer.candidates.clear();
        for (index, frame) in self.frames.iter().enumerate() {
            let state = frame.state.load(Ordering::Acquire);
            if is_changed(state)
                && !frame.nonpersistent.load(Ordering::Relaxed)
                && frame.first_change_checkpoint.load(Ordering::Relaxed)
                    <= first_changed_at_or_before
            {
                writer.candidates.push(Candidate {
                    order: 0,
                    key: frame.key.load(Ordering::Acquire),
                    frame: index as u32,
                });
            }
        }
        writer
            .candidates
            .sort_unstable_by_key(|candidate| (candidate.key, candidate.frame));
        self.write_candidates(
            writer,
            WriteMode::Checkpoint {
                first_changed_at_or_before,
            },
        )
    }

    pub(super) fn flush_for_shutdown(&self) -> StorageResult<u64> {
        let mut writer = lock(&self.batch_writer);
        let writer = &mut *writer;
        writer.candidates.clear();
        for (index, frame) in self.frames.iter().enumerate() {
            let state = frame.state.load(Ordering::Acquire);
            if is_changed(state) && !frame.nonpersistent.load(Ordering::Relaxed) {
                writer.candidates.push(Candidate {
                    order: 0,
                    key: frame.key.load(Ordering::Acquire),
                    frame: index as u32,
                });
            }
        }
        writer
            .candidates
            .sort_unstable_by_key(|candidate| (candidate.key, candidate.frame));
        self.write_candidates(writer, WriteMode::Shutdown)
    }

    /// Write the writer's candidates in batches. Returns the pages written, or the first error
    /// (after finishing every batch that can be finished).
    fn write_candidates(&self, writer: &mut BatchWriter, mode: WriteMode) -> StorageResult<u64> {
        let BatchWriter {
            staging,
            candidates,
            slots,
            runs,
        } = writer;
        let mut written = 0;
        let mut first_error = None;
        let mut next = 0;
        while next < candidates.len() {
            slots.clear();
            while next < candidates.len() && slots.len() < staging.len() {
                let index = candidates[next].frame as usize;
                next += 1;
                if !self.claim_for_write(index, mode) {
                    continue;
                }
                if let Some(slot) = self.copy_for_write(index, &mut staging[slots.len()], mode) {
                    slots.push(slot);
                }
            }
            if slots.is_empty() {
                continue;
            }
            match self.write_slots(&mut staging[..slots.len()], slots, runs) {
                Ok(pages) => written += pages,
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        first_error.map_or(Ok(written), Err)
    }

    /// Set `WRITING` on a changed frame that no other writer owns. A checkpoint that finds the
    /// frame in use marks it to be written on release instead, and does not claim it.
    fn claim_for_write(&self, index: usize, mode: WriteMode) -> bool {
        let mut left_for_release = false;
        let claimed = self.transition(index, |state| {
            left_for_release = false;
            if !is_changed(state) || state & WRITING != 0 {
                return None;
            }
            if pin_count(state) > 0 {
                match mode {
                    WriteMode::DeferredWrite => return None,
                    WriteMode::Checkpoint { .. } => {
                        left_for_release = true;
                        return Some(state | WRITE_ON_RELEASE);
                    }
                    WriteMode::Shutdown | WriteMode::Synchronous => {}
                }
            }
            Some((state | WRITING) & !WRITE_ON_RELEASE)
        });
        claimed.is_ok() && !left_for_release
    }

    /// Copy a claimed frame into `staging` under its shared latch. Returns `None`, and gives the
    /// claim back, if the frame no longer qualifies for `mode`.
    fn copy_for_write(
        &self,
        index: usize,
        staging: &mut PageBytes,
        mode: WriteMode,
    ) -> Option<Slot> {
        let frame = &self.frames[index];
        let _latch = frame.latch.read().unwrap_or_else(PoisonError::into_inner);
        let persistent = !frame.nonpersistent.load(Ordering::Relaxed);
        let qualifies = match mode {
            WriteMode::DeferredWrite | WriteMode::Synchronous => true,
            WriteMode::Checkpoint {
                first_changed_at_or_before,
            } => {
                persistent
                    && frame.first_change_checkpoint.load(Ordering::Relaxed)
                        <= first_changed_at_or_before
            }
            WriteMode::Shutdown => persistent,
        };
        if !qualifies {
            self.transition(index, |state| Some(state & !WRITING))
                .expect("give back claim");
            return None;
        }
        // SAFETY: the shared latch is held.
        staging
            .0
            .copy_from_slice(&unsafe { self.page_ref(index as u32) }.0);
        Some(Slot {
            frame: index as u32,
            key: frame.key.load(Ordering::Acquire),
            version: frame.change_version.load(Ordering::Relaxed),
            persistent,
            page_rba: staging.page_rba().0,
        })
    }

    /// Force the log, write the runs, sync, and complete every slot. Returns pages written.
    fn write_slots(
        &self,
        staging: &mut [PageBytes],
        slots: &[Slot],
        runs: &mut Vec<Run>,
    ) -> StorageResult<u64> {
        debug_assert_eq!(staging.len(), slots.len());
        if let Some(highest) = slots
            .iter()
            .filter(|slot| slot.persistent)
            .map(|slot| slot.page_rba)
            .max()
        {
            if let Err(error) = self
                .write_ahead
                .force_through(Rba(highest.saturating_add(1)))
            {
                for slot in slots {
                    self.complete_write(slot, false);
                }
                return Err(error);
            }
        }
        runs.clear();
        for (position, slot) in slots.iter().enumerate() {
            let page_set = key_page_set(slot.key);
            let page = key_page(slot.key);
            match runs.last_mut() {
                Some(run)
                    if run.page_set == page_set
                        && u64::from(run.first.0) + run.length as u64 == u64::from(page.0)
                        && run.length < DEFERRED_WRITE_PAGES_PER_IO_MAX =>
                {
                    run.length += 1;
                }
                _ => runs.push(Run {
                    start: position,
                    length: 1,
                    page_set,
                    first: page,
                    error: None,
                }),
            }
        }
        self.issue_runs(staging, runs);
        let mut first_error = None;
        let mut synced = [false; PageSetId::MAX as usize + 1];
        let mut sync_failed = [false; PageSetId::MAX as usize + 1];
        for run in runs.iter() {
            let id = usize::from(run.page_set.0);
            if run.error.is_none() && !synced[id] {
                synced[id] = true;
                if let Err(error) = self
                    .attached(run.page_set)
                    .and_then(|page_set| page_set.sync())
                {
                    sync_failed[id] = true;
                    first_error.get_or_insert(error);
                }
            }
        }
        let mut written = 0;
        for run in runs.iter_mut() {
            let write_error = run.error.take();
            let durable = write_error.is_none() && !sync_failed[usize::from(run.page_set.0)];
            if let Some(error) = write_error {
                first_error.get_or_insert(error);
            } else {
                Counters::count(&self.counters.write_ios, 1);
            }
            if durable {
                Counters::count(&self.counters.pages_written, run.length as u64);
                written += run.length as u64;
            }
            for slot in &slots[run.start..run.start + run.length] {
                self.complete_write(slot, durable);
            }
        }
        first_error.map_or(Ok(written), Err)
    }

    /// Issue the runs' write I/Os, up to [`DEFERRED_WRITE_WRITER_THREADS`] at a time. Each run's
    /// outcome is left in `run.error`.
    fn issue_runs(&self, staging: &mut [PageBytes], runs: &mut [Run]) {
        let mut work: Vec<(&mut Run, &mut [PageBytes])> = Vec::with_capacity(runs.len());
        let mut rest = staging;
        for run in runs.iter_mut() {
            let (pages, tail) = std::mem::take(&mut rest).split_at_mut(run.length);
            work.push((run, pages));
            rest = tail;
        }
        let threads = work.len().min(DEFERRED_WRITE_WRITER_THREADS);
        if threads <= 1 {
            for (run, pages) in work {
                run.error = self.write_run(run, pages).err();
            }
            return;
        }
        let queue = Mutex::new(work.into_iter());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let next = lock(&queue).next();
                    let Some((run, pages)) = next else { break };
                    run.error = self.write_run(run, pages).err();
                });
            }
        });
    }

    fn write_run(&self, run: &Run, pages: &mut [PageBytes]) -> StorageResult<()> {
        self.attached(run.page_set)?
            .write_staged_pages(run.first, pages)
    }

    /// End a frame's write. If the page reached disk durably and was not changed meanwhile,
    /// the frame becomes unchanged.
    fn complete_write(&self, slot: &Slot, durable: bool) {
        let index = slot.frame as usize;
        let frame = &self.frames[index];
        let _latch = frame.latch.read().unwrap_or_else(PoisonError::into_inner);
        let clean = durable && frame.change_version.load(Ordering::Relaxed) == slot.version;
        self.transition(index, |state| {
            debug_assert!(
                state & WRITING != 0,
                "completing a write that was not claimed"
            );
            Some(if clean {
                state & !(WRITING | CHANGED | WRITE_ON_RELEASE)
            } else {
                state & !WRITING
            })
        })
        .expect("complete write");
        if clean {
            frame.recovery_rba.store(NO_RECOVERY_RBA, Ordering::Relaxed);
        }
    }

    /// Write one changed frame now, on this thread: claim, copy, force the log, write, sync.
    /// Returns `Ok(false)` if another writer owns the frame or it is no longer changed.
    pub(super) fn write_frame_synchronously(
        &self,
        index: usize,
        reason: SynchronousWriteReason,
    ) -> StorageResult<bool> {
        if !self.claim_for_write(index, WriteMode::Synchronous) {
            return Ok(false);
        }
        let mut staging = PageBytes::default();
        let slot = self
            .copy_for_write(index, &mut staging, WriteMode::Synchronous)
            .expect("a synchronous write takes any changed frame");
        let result = (|| {
            if slot.persistent {
                self.write_ahead
                    .force_through(Rba(slot.page_rba.saturating_add(1)))?;
            }
            let page_set = self.attached(key_page_set(slot.key))?;
            page_set.write_staged_pages(key_page(slot.key), std::slice::from_mut(&mut staging))?;
            Counters::count(&self.counters.write_ios, 1);
            page_set.sync()
        })();
        self.complete_write(&slot, result.is_ok());
        result?;
        Counters::count(&self.counters.pages_written, 1);
        Counters::count(&self.counters.immediate_writes, 1);
        if reason == SynchronousWriteReason::Threshold {
            Counters::count(&self.counters.threshold_synchronous_writes, 1);
        }
        Ok(true)
    }
}
