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
//! 5. **Stage** the pages of each page set in the batch in that page set's double-write file
//!    ([`PageSet::stage_pages`]: one write and one sync per page set; see `page_set` for the
//!    torn-write protection). The page sets are staged in ascending order, and each stays
//!    locked for double-write until its sync in step 7.
//! 6. **Write** runs of up to [`DEFERRED_WRITE_PAGES_PER_IO_MAX`] contiguous pages of one page
//!    set in place, each in one I/O. Up to [`DEFERRED_WRITE_WRITER_THREADS`] threads issue the
//!    I/Os concurrently. A batch has at most [`DEFERRED_WRITE_IOS_IN_FLIGHT_MAX`] full runs.
//! 7. **Sync** each page set written to, once.
//! 8. **Complete**: a frame whose write and sync succeeded, and whose change version has not
//!    moved, becomes unchanged. If it is not in use, it is now stealable. Every other frame
//!    stays changed.
//!
//! A page write becomes "done" only after the page set is synced. Until then the frame stays
//! changed, so its recovery RBA still holds back the page set's media recovery RBA.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
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
use crate::page_set::{PageSet, StagedWrite, DOUBLE_WRITE_SLOTS};
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
// A batch's pages of one page set are staged in its double-write file in one piece.
const _: () = assert!(DEFERRED_WRITE_BATCH_PAGES_MAX <= DOUBLE_WRITE_SLOTS);

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
    /// Index of the run's page set in the batch's groups.
    group: usize,
    first: PageNumber,
    outcome: RunOutcome,
}

/// What became of a run's in-place write.
#[derive(Debug, Default)]
enum RunOutcome {
    /// Not written: its page set was not staged.
    #[default]
    NotIssued,
    Written,
    Failed(StorageError),
}

impl RunOutcome {
    fn take(&mut self) -> RunOutcome {
        std::mem::take(self)
    }
}

/// The pages of one page set in a batch: staging slots `start..end`.
#[derive(Debug)]
struct Group {
    page_set: PageSetId,
    start: usize,
    end: usize,
}

/// Preallocated buffers for batch writes.
pub(super) struct BatchWriter {
    staging: Box<[PageBytes]>,
    candidates: Vec<Candidate>,
    slots: Vec<Slot>,
    runs: Vec<Run>,
    /// Page number of each staging slot.
    numbers: Vec<PageNumber>,
    groups: Vec<Group>,
}

impl BatchWriter {
    pub fn new(frame_count: usize) -> BatchWriter {
        let staging_pages = frame_count.clamp(1, DEFERRED_WRITE_BATCH_PAGES_MAX);
        BatchWriter {
            staging: allocate_staging_pages(staging_pages),
            candidates: Vec::with_capacity(frame_count),
            slots: Vec::with_capacity(staging_pages),
            runs: Vec::with_capacity(staging_pages),
            numbers: Vec::with_capacity(staging_pages),
            groups: Vec::with_capacity(usize::from(PageSetId::MAX) + 1),
        }
    }
}

impl BatchWriter {
    /// Whether a pool of `frame_count` buffers would get a larger batch writer than this one.
    pub fn smaller_than_for(&self, frame_count: usize) -> bool {
        self.staging.len() < frame_count.clamp(1, DEFERRED_WRITE_BATCH_PAGES_MAX)
    }
}

/// The state of one page set's part of a batch while it is written.
enum GroupWrite<'a> {
    /// Staged in the double-write file: its runs may be written in place.
    Staged(StagedWrite<'a>),
    /// Not attached, not staged, or its sync failed: none of its pages is durable.
    Failed,
    /// Written and synced.
    Done,
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
        self.write_oldest_changed_in(0..self.frames.len(), needed)
    }

    /// Write the changed frames among `range` that are not in use, in batches as the deferred
    /// write process writes (for a shrink, `resize.rs`). Returns the pages written.
    pub(super) fn write_changed_frames_in(
        &self,
        range: std::ops::Range<usize>,
    ) -> StorageResult<u64> {
        self.write_oldest_changed_in(range, usize::MAX)
    }

    /// Write the `needed` oldest changed frames among `range` that are not in use, in page
    /// order.
    fn write_oldest_changed_in(
        &self,
        range: std::ops::Range<usize>,
        needed: usize,
    ) -> StorageResult<u64> {
        let mut writer = lock(&self.batch_writer);
        let writer = &mut *writer;
        writer.candidates.clear();
        for index in range {
            let frame = self.frames.frame(index);
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
        for (index, frame) in self.frames.iter() {
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
        for (index, frame) in self.frames.iter() {
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
            numbers,
            groups,
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
            match self.write_slots(&mut staging[..slots.len()], slots, runs, numbers, groups) {
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
        let frame = self.frames.frame(index);
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

    /// Force the log, stage each page set's pages in its double-write file, write the runs,
    /// sync, and complete every slot. Returns pages written.
    fn write_slots(
        &self,
        staging: &mut [PageBytes],
        slots: &[Slot],
        runs: &mut Vec<Run>,
        numbers: &mut Vec<PageNumber>,
        groups: &mut Vec<Group>,
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
        numbers.clear();
        groups.clear();
        for (position, slot) in slots.iter().enumerate() {
            let page_set = key_page_set(slot.key);
            let page = key_page(slot.key);
            numbers.push(page);
            match groups.last_mut() {
                Some(group) if group.page_set == page_set => group.end = position + 1,
                _ => groups.push(Group {
                    page_set,
                    start: position,
                    end: position + 1,
                }),
            }
            let group = groups.len() - 1;
            match runs.last_mut() {
                Some(run)
                    if run.group == group
                        && u64::from(run.first.0) + run.length as u64 == u64::from(page.0)
                        && run.length < DEFERRED_WRITE_PAGES_PER_IO_MAX =>
                {
                    run.length += 1;
                }
                _ => runs.push(Run {
                    start: position,
                    length: 1,
                    group,
                    first: page,
                    outcome: RunOutcome::NotIssued,
                }),
            }
        }
        let mut first_error = None;
        // Slots are in (page set, page) order, so each page set is one group, and groups are
        // staged (their double-write mutexes taken) in ascending page set order.
        let mut page_sets: Vec<Option<Arc<PageSet>>> = Vec::with_capacity(groups.len());
        for (index, group) in groups.iter().enumerate() {
            let attached = if index > 0 && groups[index - 1].page_set >= group.page_set {
                Err(StorageError::invalid(format!(
                    "buffer pool {}: a write batch is not in page set order",
                    self.id
                )))
            } else {
                self.attached(group.page_set)
            };
            match attached {
                Ok(page_set) => page_sets.push(Some(page_set)),
                Err(error) => {
                    first_error.get_or_insert(error);
                    page_sets.push(None);
                }
            }
        }
        let mut writes: Vec<GroupWrite<'_>> = Vec::with_capacity(groups.len());
        for (group, page_set) in groups.iter().zip(&page_sets) {
            let Some(page_set) = page_set else {
                writes.push(GroupWrite::Failed);
                continue;
            };
            match page_set.stage_pages(
                &mut staging[group.start..group.end],
                &numbers[group.start..group.end],
            ) {
                Ok(staged) => writes.push(GroupWrite::Staged(staged)),
                Err(error) => {
                    first_error.get_or_insert(error);
                    writes.push(GroupWrite::Failed);
                }
            }
        }
        self.issue_runs(staging, runs, &writes);
        // Sync each staged page set (this also releases its double-write area), even if some of
        // its runs failed: the others are then durable.
        for write in writes.iter_mut() {
            if let GroupWrite::Staged(_) = write {
                let GroupWrite::Staged(staged) = std::mem::replace(write, GroupWrite::Failed)
                else {
                    unreachable!("matched above")
                };
                match staged.finish() {
                    Ok(()) => *write = GroupWrite::Done,
                    Err(error) => {
                        first_error.get_or_insert(error);
                    }
                }
            }
        }
        let mut written = 0;
        for run in runs.iter_mut() {
            let issued = match run.outcome.take() {
                RunOutcome::NotIssued => false,
                RunOutcome::Written => {
                    Counters::count(&self.counters.write_ios, 1);
                    true
                }
                RunOutcome::Failed(error) => {
                    first_error.get_or_insert(error);
                    false
                }
            };
            let durable = issued && matches!(writes[run.group], GroupWrite::Done);
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

    /// Issue the runs' in-place write I/Os, up to [`DEFERRED_WRITE_WRITER_THREADS`] at a time.
    /// A run whose page set was not staged is not issued. Each run's outcome is left in
    /// `run.outcome`.
    fn issue_runs(&self, staging: &[PageBytes], runs: &mut [Run], writes: &[GroupWrite<'_>]) {
        fn write(run: &mut Run, staged: &StagedWrite<'_>, pages: &[PageBytes]) {
            run.outcome = match staged.write_in_place(run.first, pages) {
                Ok(()) => RunOutcome::Written,
                Err(error) => RunOutcome::Failed(error),
            };
        }
        let mut work: Vec<(&mut Run, &StagedWrite<'_>, &[PageBytes])> =
            Vec::with_capacity(runs.len());
        for run in runs.iter_mut() {
            run.outcome = RunOutcome::NotIssued;
            if let GroupWrite::Staged(staged) = &writes[run.group] {
                let pages = &staging[run.start..run.start + run.length];
                work.push((run, staged, pages));
            }
        }
        let threads = work.len().min(DEFERRED_WRITE_WRITER_THREADS);
        if threads <= 1 {
            for (run, staged, pages) in work {
                write(run, staged, pages);
            }
            return;
        }
        let queue = Mutex::new(work.into_iter());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let next = lock(&queue).next();
                    let Some((run, staged, pages)) = next else {
                        break;
                    };
                    write(run, staged, pages);
                });
            }
        });
    }

    /// End a frame's write. If the page reached disk durably and was not changed meanwhile,
    /// the frame becomes unchanged.
    fn complete_write(&self, slot: &Slot, durable: bool) {
        let index = slot.frame as usize;
        let frame = self.frames.frame(index);
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

    /// Write one changed frame now, on this thread: claim, copy, force the log, then write it
    /// with the page set's double-write protocol (double-write file, sync, in place, sync).
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
            // The whole double-write protocol: staged, written in place and synced.
            let page_set = self.attached(key_page_set(slot.key))?;
            page_set.write_staged_pages(key_page(slot.key), std::slice::from_mut(&mut staging))?;
            Counters::count(&self.counters.write_ios, 1);
            Ok(())
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
