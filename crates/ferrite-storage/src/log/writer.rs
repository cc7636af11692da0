//! Active log writes: the write state ([`LogIo`]) and the logger thread (MQ's logger task).
//!
//! **Who writes.** Whoever holds `LogShared::io` is the only writer of active logs: the logger
//! thread, or a forcer leading its own I/O (`LogShared::lead_force` in `mod.rs`: a forcer that
//! finds no I/O in progress and no log switch pending writes and syncs everything appended so
//! far itself, so a lone commit has no thread hand-off). Forcers that arrive during an I/O ask
//! the logger thread, which takes the write state when that I/O ends and covers all of them.
//! Every rule below holds whichever thread writes: each I/O runs entirely under the lock, and
//! reads `durable` under it.
//!
//! Logger thread loop (MP16 §1.7–1.8):
//! 1. Wait for work: a force (log check) beyond the durable RBA; at least WRTHRSH full pages not
//!    yet written; an appender waiting for a free buffer; or a log switch whose old file is
//!    complete.
//! 2. Target = the highest forced RBA (the partial current page included), or else the end of the
//!    last full page. Write from the page holding `durable` to the target in write cycles of
//!    at most [`LOG_UNSYNCED_PAGES_MAX`](super::LOG_UNSYNCED_PAGES_MAX) pages. A cycle issues
//!    its I/Os (at most [`LOG_WRITE_PAGES_MAX`] pages each, on every copy), and frees each
//!    I/O's buffer space as soon as every copy has it (`LogShared::written`: appenders refill
//!    OUTBUFF while the writer waits in the sync; readers read the files, never the buffer).
//!    Then one `sync_data` per copy, then `durable` advances to the cycle's end and the
//!    forcers it satisfies are woken (only those: see `ForceWaiters`). A sync that fails fails
//!    the log and every forcer: `durable` never passes a byte that was not synced. Forcers
//!    that arrived meanwhile are covered by the next cycle, which starts at once and takes the
//!    highest RBA then requested (group commit).
//! 3. **Ping-pong (active log format 2).** A page is written in place once, when it is final
//!    (full, or the last page of its file). The partial page an I/O ends with goes to one of
//!    the file's two ping-pong slots instead, alternately, so the previous synced image of that
//!    page stays intact in the other slot: no write ever overwrites the only durable image of a
//!    record, and a torn write can damage only records never reported durable. The slot write
//!    and the I/O's in-place pages are covered by one `sync_data`. The logger publishes the new
//!    image for readers (`current_page.rs`) before it advances `durable`.
//! 4. **Dual logging.** Copy 2 gets exactly the same writes. When both copies of the file share
//!    one device flush (`StorageFile::shared_flush_device`), the logger writes both itself,
//!    writes copy 1 back without a flush and syncs copy 2, whose device flush makes both
//!    durable (`write_shared_flush`: one flush, not two the device would serialise). Otherwise
//!    a second, persistent thread (the copy 2 writer) writes and syncs copy 2 in parallel with
//!    the logger writing copy 1: since no write exposes a committed record's only image,
//!    nothing is serial. Either way `durable` moves when both copies are durable.
//! 5. A log switch is carried out when the old file is durable through its last byte: the new
//!    file's header (start RBA of its new use) is written and synced on every copy, the old file
//!    is handed to the offload thread, and `durable` jumps over the old file's end-of-file padding.
//!
//! An I/O's full pages are written to the files straight from the ring buffer (two writes where
//! the ring wraps; no copy). Only a partial last page is copied into a private one-page staging
//! area (allocated once) with its unused tail zeroed, for its slot or, at a log switch, its
//! final image in place. The writer never reads bytes an appender may be writing (appenders
//! reuse a page only once `written` has passed it), and never holds the append lock.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::{StorageError, StorageResult};
use crate::types::Rba;
use crate::vfs::StorageFile;

use super::active::{
    encode_slot, ping_pong_slot_offset, ActiveLogHeader, ACTIVE_LOG_HEADER_BYTES, PING_PONG_SLOTS,
    PING_PONG_SLOT_BYTES,
};
use super::current_page::PageImage;
use super::statistics::{bump, io_class};
use super::{
    page_ceil, page_floor, FileSwitch, LogShared, OffloadJob, LOG_PAGE_BYTES,
    LOG_UNSYNCED_BYTES_MAX, LOG_WRITE_PAGES_MAX,
};

/// The log's write state: the active log being written, the ping-pong slot rotation, the
/// staging buffer and the copy 2 writer. It lives behind `LogShared::io`; whoever holds that
/// lock is the only writer of active logs: the logger thread, or a committer leading its own
/// I/O (`LogShared::lead_force`). Every write, sync, slot rotation and `durable` advance
/// happens under it, so the two kinds of writer are serialised exactly as one thread was.
pub(crate) struct LogIo {
    /// The active log being written and the RBA its current use starts at.
    file: usize,
    file_start: u64,
    staging: Staging,
    /// The copy 2 writer (TWOACTV only).
    second: Option<(Arc<CopyWriter>, JoinHandle<()>)>,
    /// The ping-pong slot the next partial page goes to.
    next_slot: usize,
    /// The partial page last written to a slot (page RBA, bytes), until the page is final in
    /// place: a log switch writes it in place if the file ends in it.
    slot_image: Option<(u64, Vec<u8>)>,
    /// Per active log file (TWOACTV): both copies share one device flush, so an I/O is made
    /// durable on both by one (see `write_shared_flush`).
    shared_flush: Vec<bool>,
    /// I/Os of the current write cycle written by `write_shared_flush`: counted in
    /// `shared_flush_ios` once the cycle's one flush makes them durable.
    shared_flush_unsynced: u64,
    /// Set when the logger thread has stopped (shutdown, abandon or a write failure): the copy
    /// 2 writer is gone and nobody may write any more.
    closed: bool,
}

/// Whether both copies of every active log file are on one device whose cache flush makes
/// written-back data durable (`StorageFile::shared_flush_device`). Any doubt answers `false`.
fn shared_flush_files(shared: &LogShared) -> Vec<bool> {
    let files = &shared.sources.files.files;
    files
        .iter()
        .map(|copies| {
            if copies.len() != 2 {
                return false;
            }
            match (
                copies[0].shared_flush_device(),
                copies[1].shared_flush_device(),
            ) {
                (Ok(Some(first)), Ok(Some(second))) => first == second,
                _ => false,
            }
        })
        .collect()
}

impl LogIo {
    /// The write state of a log whose current active log is `file` (its use starting at
    /// `file_start`), the next partial page going to ping-pong slot `next_slot`. Starts the
    /// copy 2 writer thread with TWOACTV.
    pub(crate) fn new(
        shared: &Arc<LogShared>,
        file: usize,
        file_start: u64,
        next_slot: usize,
    ) -> StorageResult<LogIo> {
        let second = if shared.copies() == 2 {
            let writer = Arc::new(CopyWriter::default());
            let thread = {
                let (thread_shared, writer) = (shared.clone(), writer.clone());
                std::thread::Builder::new()
                    .name("ferrite-logcopy2".into())
                    .spawn(move || writer.run(&thread_shared, 1))
                    .map_err(|error| {
                        StorageError::io(
                            &shared.directory,
                            "start the copy 2 log writer thread",
                            error,
                        )
                    })?
            };
            Some((writer, thread))
        } else {
            None
        };
        let shared_flush = if shared.copies() == 2 {
            shared_flush_files(shared)
        } else {
            Vec::new()
        };
        Ok(LogIo {
            file,
            file_start,
            staging: Staging::new(),
            second,
            next_slot,
            slot_image: None,
            shared_flush,
            shared_flush_unsynced: 0,
            closed: false,
        })
    }

    /// No more writes: stop the copy 2 writer. Called by the logger thread as it ends, and by
    /// `LogManager::open` if the logger thread cannot be started.
    pub(crate) fn close(&mut self) {
        self.closed = true;
        if let Some((writer, thread)) = self.second.take() {
            writer.state.lock().unwrap().shutdown = true;
            writer.work.notify_all();
            let _ = thread.join();
        }
    }
}

/// The logger thread's body: write whatever no committer writes itself (WRTHRSH, forces that
/// arrive while an I/O is in progress, buffer waits, log switches) until shutdown or failure.
pub(crate) fn run_logger(shared: Arc<LogShared>) {
    let logger = Logger {
        shared: shared.clone(),
    };
    logger.run();
    if let Some(io) = shared.io.lock().unwrap().as_mut() {
        io.close();
    }
}

struct Logger {
    shared: Arc<LogShared>,
}

/// One write I/O, the same on every copy.
#[derive(Copy, Clone, Debug)]
struct WriteJob {
    file: usize,
    /// Log bytes `[start, end)`, `start` on a page boundary.
    start: u64,
    end: u64,
    /// File offset of `start`.
    offset: u64,
    /// Bytes from `start` written in place: whole pages, every one final.
    in_place: usize,
    /// The partial last page `[page, end)` goes to this ping-pong slot: (slot, page RBA).
    slot: Option<(usize, u64)>,
}

/// A writer's private buffers (allocated once). The I/O's full pages are written from the ring
/// buffer itself (`LogBuffer::slices`), not copied.
struct Staging {
    /// The I/O's last page when it ends part-way into it, zero-padded: the bytes of its slot
    /// image, or of its final image in place at the end of a file.
    data: Vec<u8>,
    /// The encoded ping-pong slot.
    slot: Vec<u8>,
}

impl Staging {
    fn new() -> Staging {
        Staging {
            data: vec![0u8; LOG_PAGE_BYTES],
            slot: vec![0u8; PING_PONG_SLOT_BYTES as usize],
        }
    }
}

/// Copy `job`'s last page, if the job ends part-way into it, from the ring buffer into
/// `staging`, zero-padded (the ring holds older bytes past the end).
fn stage(shared: &LogShared, job: WriteJob, staging: &mut Staging) {
    let page = page_floor(job.end);
    if page == job.end {
        return;
    }
    debug_assert!(page >= job.start);
    let length = (job.end - page) as usize;
    // SAFETY: [page, end) is inside [start, end), below `filled` and at or above
    // page_floor(written): live bytes no appender writes until `written` advances past them,
    // which waits for this job's writes on every copy (`write_job`).
    unsafe { shared.buffer.read(page, &mut staging.data[..length]) };
    staging.data[length..].fill(0);
}

/// Count the time since `started` as a write cycle's sync (`LogStatistics::sync_nanos`).
fn count_sync(shared: &LogShared, started: Instant) {
    bump(
        &shared.counters().sync_nanos,
        started.elapsed().as_nanos() as u64,
    );
}

/// Write `job` to one copy (no sync): the final pages in place (full pages straight from the
/// ring buffer, a final partial page from `staging`), the partial page to its slot. Counts the
/// copy's I/O and bytes. `staging` holds the job's last page (`stage`).
fn write_pages(
    shared: &LogShared,
    copy: usize,
    job: WriteJob,
    staging: &mut Staging,
) -> StorageResult<()> {
    let file: &Arc<dyn StorageFile> = &shared.sources.files.files[job.file][copy];
    let counters = shared.counters();
    let started = Instant::now();
    let mut written = 0u64;
    let write = |bytes: &[u8], offset: u64| {
        file.write_at(bytes, offset)
            .map_err(|error| StorageError::io(file.path(), "write active log", error))?;
        bump(&counters.write_ios[copy], 1);
        Ok::<(), StorageError>(())
    };
    let full = (job.in_place as u64).min(page_floor(job.end) - job.start) as usize;
    if full > 0 {
        // SAFETY: [start, start + full) is inside [start, end): see `stage`.
        let (first, second) = unsafe { shared.buffer.slices(job.start, full) };
        write(first, job.offset)?;
        if !second.is_empty() {
            write(second, job.offset + first.len() as u64)?;
        }
    }
    if job.in_place > full {
        // The file's last page, final though partial (a log switch): zero-padded.
        debug_assert_eq!(job.in_place - full, LOG_PAGE_BYTES);
        write(&staging.data, job.offset + full as u64)?;
    }
    written += job.in_place as u64;
    if let Some((slot, page)) = job.slot {
        let length = (job.end - page) as usize;
        let bytes = encode_slot(page, &staging.data[..length], &mut staging.slot);
        file.write_at(
            &staging.slot[..bytes],
            ping_pong_slot_offset(shared.data_bytes, slot),
        )
        .map_err(|error| StorageError::io(file.path(), "write ping-pong slot", error))?;
        bump(&counters.write_ios[copy], 1);
        written += bytes as u64;
    }
    bump(&counters.qjstlogw[copy], 1);
    bump(&counters.bytes_written[copy], written);
    let pages = job_pages(job);
    counters.copy_io[copy][io_class(pages)].write(pages, started.elapsed().as_nanos() as u64);
    Ok(())
}

/// The pages (CIs) one I/O of `job` writes on a copy: in place, and the slot's page.
fn job_pages(job: WriteJob) -> u64 {
    (job.in_place / LOG_PAGE_BYTES) as u64 + u64::from(job.slot.is_some())
}

/// QJSTIO's suspend time: the time since `started` until `copy`, written by `job`, was
/// durable.
fn count_suspend(shared: &LogShared, copy: usize, job: WriteJob, started: Instant) {
    bump(
        &shared.counters().copy_io[copy][io_class(job_pages(job))].suspend_nanos,
        started.elapsed().as_nanos() as u64,
    );
}

#[derive(Default)]
struct CopyWriterState {
    /// The job to carry out, and whether to sync the copy after its writes.
    job: Option<(WriteJob, bool)>,
    /// The result of the job's writes (set before its sync starts).
    wrote: Option<Result<(), String>>,
    /// The result of the whole job, the sync included.
    result: Option<Result<(), String>>,
    shutdown: bool,
}

/// The persistent writer thread of copy 2 (no thread is started per I/O).
#[derive(Default)]
struct CopyWriter {
    state: Mutex<CopyWriterState>,
    /// The writer waits here for a job.
    work: Condvar,
    /// The logger waits here for the job's results.
    done: Condvar,
}

impl CopyWriter {
    fn run(&self, shared: &LogShared, copy: usize) {
        let mut staging = Staging::new();
        loop {
            let (job, sync) = {
                let mut state = self.state.lock().unwrap();
                loop {
                    if let Some(job) = state.job {
                        break job;
                    }
                    if state.shutdown {
                        return;
                    }
                    state = self.work.wait(state).unwrap();
                }
            };
            stage(shared, job, &mut staging);
            let wrote = write_pages(shared, copy, job, &mut staging);
            let failed = wrote.is_err();
            {
                let mut state = self.state.lock().unwrap();
                state.wrote = Some(wrote.map_err(|error| error.to_string()));
                self.done.notify_all();
            }
            // After a failed write the job's result is that failure (reported by `wrote`).
            let result = if sync && !failed {
                let synced = Instant::now();
                let result = shared.sources.files.sync(job.file, copy);
                count_suspend(shared, copy, job, synced);
                result.map_err(|error| error.to_string())
            } else {
                Ok(())
            };
            let mut state = self.state.lock().unwrap();
            state.job = None;
            state.result = Some(result);
            self.done.notify_all();
        }
    }

    fn start(&self, job: WriteJob, sync: bool) {
        let mut state = self.state.lock().unwrap();
        debug_assert!(state.job.is_none() && state.result.is_none() && state.wrote.is_none());
        state.job = Some((job, sync));
        self.work.notify_all();
    }

    /// Wait for the job's writes (its sync may still be running).
    fn wait_written(&self) -> Result<(), String> {
        let mut state = self.state.lock().unwrap();
        loop {
            if let Some(result) = state.wrote.take() {
                return result;
            }
            state = self.done.wait(state).unwrap();
        }
    }

    /// Wait for the whole job, its sync included. Called after `wait_written`, always (the
    /// writer is ready for the next job only then).
    fn wait(&self) -> Result<(), String> {
        let mut state = self.state.lock().unwrap();
        loop {
            if let Some(result) = state.result.take() {
                return result;
            }
            state = self.done.wait(state).unwrap();
        }
    }
}

impl Logger {
    fn run(&self) {
        let shared = self.shared.clone();
        let mut state = shared.logger.lock().unwrap();
        loop {
            if state.failure.is_some() {
                shared.wake_everyone();
                return;
            }
            let filled = shared.filled.load(Ordering::SeqCst);
            let durable = shared.durable.load(Ordering::SeqCst);
            if let Some(switch) = state.switches.front().copied() {
                if durable >= switch.used_end {
                    drop(state);
                    // A failure is recorded by `with_io` (the loop then stops on it).
                    let result = shared.with_io(|io| io.switch_file(&shared, switch));
                    state = shared.logger.lock().unwrap();
                    if result.is_ok() {
                        state.switches.pop_front();
                        shared.written.store(switch.end, Ordering::SeqCst);
                        shared.durable.store(switch.end, Ordering::SeqCst);
                        shared.waiters.wake_through(switch.end);
                    }
                    shared.progress.notify_all();
                    continue;
                }
            }
            let full_pages =
                (page_floor(filled).saturating_sub(page_floor(durable))) / LOG_PAGE_BYTES as u64;
            let threshold = full_pages >= u64::from(shared.log.wrthrsh);
            let requested = state.force_target.max(state.space_target);
            let mut target = requested;
            if threshold {
                target = target.max(page_floor(filled));
            }
            target = target.min(filled);
            let final_end = state.switches.front().map(|switch| switch.used_end);
            if let Some(used_end) = final_end {
                target = target.min(used_end);
            }
            if target > durable {
                drop(state);
                let by_threshold = requested <= durable;
                // A committer may have led an I/O since `durable` was read: `write_through`
                // starts from `durable` as it is under the I/O lock.
                // A failure is recorded by `with_io` (the loop then stops on it).
                let result = shared.with_io(|io| io.write_through(&shared, target, final_end));
                if result.is_ok_and(|wrote| wrote) {
                    bump(&shared.counters().qjstbfwr, 1);
                    if by_threshold {
                        bump(&shared.counters().qjstthrw, 1);
                    }
                }
                state = shared.logger.lock().unwrap();
                continue;
            }
            if state.shutdown {
                shared.wake_everyone();
                return;
            }
            // Idle. Announce it, then look once more at `filled` (appenders publish it before
            // reading `logger_idle`, so one of the two sides sees the other).
            shared.logger_idle.store(true, Ordering::SeqCst);
            if shared.filled.load(Ordering::SeqCst) != filled {
                shared.logger_idle.store(false, Ordering::SeqCst);
                continue;
            }
            state = shared
                .logger_work
                .wait_timeout(
                    state,
                    Duration::from_millis(shared.logger_idle_wait_ms.load(Ordering::Relaxed)),
                )
                .unwrap()
                .0;
            shared.logger_idle.store(false, Ordering::SeqCst);
        }
    }
}

impl LogIo {
    /// Write and sync log bytes `[durable, target)` (whole pages from the page holding
    /// `durable`) in write cycles: I/Os of up to `LOG_WRITE_PAGES_MAX` pages, at most
    /// `LOG_UNSYNCED_PAGES_MAX` pages in all, then one sync of every copy, after which
    /// `durable` advances to the cycle's end. `final_end` is where the current file's
    /// log bytes end, if a switch is pending: a page ending there is final. Returns whether
    /// any I/O was done (another writer may have made `target` durable already).
    pub(crate) fn write_through(
        &mut self,
        shared: &LogShared,
        target: u64,
        final_end: Option<u64>,
    ) -> StorageResult<bool> {
        assert!(!self.closed, "log write after the logger stopped");
        let mut durable = shared.durable.load(Ordering::SeqCst);
        let wrote = durable < target;
        while durable < target {
            // One write cycle: I/Os of at most LOG_WRITE_PAGES_MAX pages through `cycle_end`,
            // each freeing its buffer space once written, then one sync of every copy.
            let cycle_end = target.min(page_floor(durable) + LOG_UNSYNCED_BYTES_MAX);
            let counters = shared.counters();
            let io_started = Instant::now();
            let mut position = durable;
            // The partial page the cycle's last I/O wrote to a slot: (slot, page RBA, bytes).
            let mut new_image: Option<(usize, u64, Vec<u8>)> = None;
            while position < cycle_end {
                let start = page_floor(position);
                let end = cycle_end.min(start + (LOG_WRITE_PAGES_MAX * LOG_PAGE_BYTES) as u64);
                assert!(
                    start >= self.file_start && end <= self.file_start + shared.data_bytes,
                    "log write {start:#X}..{end:#X} outside active log {} ({:#X}+{:#X})",
                    self.file + 1,
                    self.file_start,
                    shared.data_bytes
                );
                let last = end == cycle_end;
                let partial = end != page_floor(end) && Some(end) != final_end;
                // Only the cycle's last I/O may end part-way into a page: the others end on
                // LOG_WRITE_PAGES_MAX boundaries, so the cycle writes at most one slot.
                assert!(
                    last || !partial,
                    "a write cycle's I/O before its last is partial"
                );
                let in_place_end = if partial {
                    page_floor(end)
                } else {
                    page_ceil(end)
                };
                let slot = partial.then_some((self.next_slot, page_floor(end)));
                let job = WriteJob {
                    file: self.file,
                    start,
                    end,
                    offset: ACTIVE_LOG_HEADER_BYTES + (start - self.file_start),
                    in_place: (in_place_end - start) as usize,
                    slot,
                };
                self.write_job(shared, job, last)?;
                if last {
                    bump(&counters.write_syncs, 1);
                }
                let pages = (job.in_place / LOG_PAGE_BYTES) as u64 + u64::from(partial);
                bump(&counters.qjstciwr, pages);
                if let Some((slot, page)) = slot {
                    let bytes = self.staging.data[..(end - page) as usize].to_vec();
                    new_image = Some((slot, page, bytes));
                }
                position = end;
            }
            bump(
                &counters.io_busy_nanos,
                io_started.elapsed().as_nanos() as u64,
            );
            // Readers take the partial page from the new image (or, once final, in place)
            // before `durable` lets them read it.
            if let Some((slot, page, bytes)) = new_image {
                shared.sources.current_pages.replace(vec![PageImage {
                    copy: None,
                    page_rba: page,
                    bytes: bytes.clone(),
                }]);
                self.slot_image = Some((page, bytes));
                self.next_slot = (slot + 1) % PING_PONG_SLOTS;
            } else if self.slot_image.take().is_some() {
                shared.sources.current_pages.replace(Vec::new());
            }
            durable = cycle_end;
            shared.durable.store(cycle_end, Ordering::SeqCst);
            shared.wake_durable(cycle_end);
        }
        Ok(wrote)
    }

    /// Carry out `job` on every copy: the writes, then (the buffer space of its full pages
    /// freed: `release_written`) with `sync`, the sync of every copy. Returns once every copy
    /// is written and, with `sync`, synced.
    fn write_job(&mut self, shared: &LogShared, job: WriteJob, sync: bool) -> StorageResult<()> {
        if self.second.is_some() && self.shared_flush.get(self.file) == Some(&true) {
            return self.write_shared_flush(shared, job, sync);
        }
        let Some((second, _)) = &self.second else {
            stage(shared, job, &mut self.staging);
            write_pages(shared, 0, job, &mut self.staging)?;
            shared.release_written(job.end);
            if sync {
                let synced = Instant::now();
                shared.sources.files.sync(job.file, 0)?;
                count_sync(shared, synced);
                count_suspend(shared, 0, job, synced);
            }
            return Ok(());
        };
        let copy_2_failed = |detail: String| StorageError::CorruptLog {
            path: shared.sources.files.path(job.file, 1).to_path_buf(),
            rba: crate::types::Rba(job.start),
            detail: format!("copy 2 log write failed: {detail}"),
        };
        // Copy 2's writer stages from the buffer too: the space is released only once both
        // copies are written. Both results are always collected, so the writer is idle again
        // whatever fails.
        second.start(job, sync);
        stage(shared, job, &mut self.staging);
        let first = write_pages(shared, 0, job, &mut self.staging);
        let second_wrote = second.wait_written();
        if first.is_ok() && second_wrote.is_ok() {
            shared.release_written(job.end);
        }
        // The cycle's sync time is counted from here, once both copies' writes are done: copy
        // 1's sync starts here, copy 2's writer started its own as soon as its writes were done
        // (so part of it may fall before this point, counted as writes).
        let synced = Instant::now();
        let first = first.and_then(|()| {
            if sync {
                let result = shared.sources.files.sync(job.file, 0);
                count_suspend(shared, 0, job, synced);
                result
            } else {
                Ok(())
            }
        });
        let second_done = second.wait();
        first?;
        second_wrote.map_err(copy_2_failed)?;
        second_done.map_err(copy_2_failed)?;
        // Counted only once every copy is durable, as on the other paths: a failed cycle adds
        // nothing to io_busy_nanos either, and sync_nanos is a part of it.
        if sync {
            count_sync(shared, synced);
        }
        Ok(())
    }

    /// Carry out `job` on both copies with one device cache flush, when both copies of the
    /// file share the device (`shared_flush`): write copy 1 and copy 2 (page cache), write copy
    /// 1 back and wait until the device has completed it (`write_back`: no flush), then
    /// `sync_data` copy 2, whose fdatasync ends with the device cache flush.
    ///
    /// Why both copies are durable when this returns (RELIABILITY.md, "Dual logging with one
    /// device flush"): a cache flush makes durable every write the device completed before the
    /// flush was issued, on the whole device (ATA FLUSH CACHE, NVMe Flush, virtio FLUSH, passed
    /// to every device below by dm and md). Copy 1's writes completed before `write_back`
    /// returned, and copy 2's fdatasync issues its flush after that (it runs later on this
    /// thread), after writing and waiting for copy 2's own pages. Copy 1 needs no metadata to be
    /// read back: the condition `shared_flush_device` checks (ext4 or xfs, every byte of the
    /// file allocated and written, so an overwrite converts no extent and allocates nothing).
    /// Either copy alone still holds every committed byte: both got the same writes before
    /// `durable` moves, exactly as with two syncs. A crash before the flush may lose or tear
    /// either copy's unsynced writes, as before: ping-pong slots keep the last durable image.
    /// Measured here: one flush instead of two costs 1.0-1.5x a single copy's write+fdatasync
    /// instead of 1.5-1.9x (the device completes two flushes one after the other).
    fn write_shared_flush(
        &mut self,
        shared: &LogShared,
        job: WriteJob,
        sync: bool,
    ) -> StorageResult<()> {
        let [first, second] = [0, 1].map(|copy| &shared.sources.files.files[job.file][copy]);
        stage(shared, job, &mut self.staging);
        // Each copy's writeback is started as soon as it is in the page cache, so the device
        // works on copy 1 while copy 2 is copied, and on both at once. A hint: no durability
        // rests on it, so its error is ignored; `write_back` and `sync_data` below report any
        // write error of these pages.
        write_pages(shared, 0, job, &mut self.staging)?;
        let _ = first.start_write_back();
        write_pages(shared, 1, job, &mut self.staging)?;
        let _ = second.start_write_back();
        shared.release_written(job.end);
        self.shared_flush_unsynced += 1;
        if !sync {
            return Ok(());
        }
        let synced = Instant::now();
        first
            .write_back()
            .map_err(|error| StorageError::io(first.path(), "write back active log", error))?;
        count_suspend(shared, 0, job, synced);
        let flushed = Instant::now();
        second
            .sync_data()
            .map_err(|error| StorageError::io(second.path(), "sync active log", error))?;
        count_sync(shared, synced);
        count_suspend(shared, 1, job, flushed);
        let ios = std::mem::take(&mut self.shared_flush_unsynced);
        bump(&shared.counters().shared_flush_ios, ios);
        Ok(())
    }

    /// Write the file's last page in place if its last image is only in a slot (the write
    /// through the end of the file happened before the switch was queued), on every copy.
    fn finish_last_page(&mut self, shared: &LogShared) -> StorageResult<()> {
        let Some((page, bytes)) = self.slot_image.take() else {
            return Ok(());
        };
        let files = &shared.sources.files;
        let mut padded = bytes;
        padded.resize(LOG_PAGE_BYTES, 0);
        let offset = ACTIVE_LOG_HEADER_BYTES + (page - self.file_start);
        for copy in 0..files.copies() {
            let file = &files.files[self.file][copy];
            file.write_at(&padded, offset)
                .map_err(|error| StorageError::io(file.path(), "write active log", error))?;
            bump(&shared.counters().write_ios[copy], 1);
        }
        for copy in 0..files.copies() {
            files.sync(self.file, copy)?;
        }
        shared.sources.current_pages.replace(Vec::new());
        Ok(())
    }

    /// Start the new file of a log switch and hand the old one to the offload thread.
    fn switch_file(&mut self, shared: &LogShared, switch: FileSwitch) -> StorageResult<()> {
        assert!(!self.closed, "log switch after the logger stopped");
        let files = &shared.sources.files;
        debug_assert_eq!(switch.old_file, self.file);
        self.finish_last_page(shared)?;
        for copy in 0..files.copies() {
            let header = ActiveLogHeader {
                copy_number: copy as u32 + 1,
                data_set_number: switch.new_file as u32 + 1,
                data_bytes: shared.data_bytes,
                start_rba: Some(switch.end),
                created_unix_seconds: shared.created_unix_seconds,
            };
            files.write_header(switch.new_file, copy, &header)?;
            bump(&shared.counters().write_ios[copy], 1);
        }
        for copy in 0..files.copies() {
            files.sync(switch.new_file, copy)?;
        }
        self.file = switch.new_file;
        self.file_start = switch.end;
        bump(&shared.counters().active_log_switches, 1);
        for copy in 0..files.copies() {
            shared.say(&format!(
                "CSQJ002I END OF ACTIVE LOG DATA SET DSNAME={}, STARTRBA={} ENDRBA={}",
                files.path(switch.old_file, copy).display(),
                Rba(switch.old_start),
                Rba(switch.end - 1)
            ));
            shared.say(&format!(
                "CSQJ001I CURRENT COPY {} ACTIVE LOG DATA SET IS DSNAME={}, STARTRBA={} ENDRBA={}",
                copy + 1,
                files.path(switch.new_file, copy).display(),
                Rba(switch.end),
                Rba(switch.end + shared.data_bytes - 1)
            ));
        }
        let mut offload = shared.offload.lock().unwrap();
        offload.jobs.push_back(OffloadJob {
            file: switch.old_file,
            start: switch.old_start,
            end: switch.end,
            used_end: switch.used_end,
            new_current: Some((switch.new_file, switch.end)),
        });
        shared.offload_work.notify_all();
        Ok(())
    }
}
