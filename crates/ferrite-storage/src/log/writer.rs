//! The logger thread: the only writer of active logs (MQ's single logger task).
//!
//! Loop (MP16 §1.7–1.8):
//! 1. Wait for work: a force (log check) beyond the durable RBA; at least WRTHRSH full pages not
//!    yet written; an appender waiting for a free buffer; or a log switch whose old file is
//!    complete.
//! 2. Target = the highest forced RBA (the partial current page included), or else the end of the
//!    last full page. Write from the page holding `durable` to the target in I/Os of at most
//!    [`LOG_WRITE_PAGES_MAX`] pages, each followed by `sync_data` on every copy, then advance
//!    `durable` and wake the forcers it satisfies (only those: see `ForceWaiters`). Forcers
//!    that arrived meanwhile are covered by the next cycle, which starts at once and takes the
//!    highest RBA then requested (group commit).
//! 3. Dual logging: copy 2 is written by a second, persistent thread (the copy 2 writer), in
//!    parallel with the logger writing copy 1. An I/O that starts with a previously written
//!    (partial) page is a rewrite: only that first page is serial. Copy 1 gets the whole I/O
//!    and is synced; meanwhile copy 2 gets the I/O's other pages (never written before); once
//!    copy 1 is synced, copy 2 gets the rewritten page, then one sync covers all of copy 2's
//!    writes. So at every moment at least one copy holds a synced, unwritten-to image of the
//!    records already reported durable in that page (see the module documentation of `log`).
//! 4. A log switch is carried out when the old file is durable through its last byte: the new
//!    file's header (start RBA of its new use) is written and synced on every copy, the old file
//!    is handed to the offload thread, and `durable` jumps over the old file's end-of-file padding.
//!
//! The bytes of one I/O are copied from the ring buffer into a private staging area (allocated
//! once), with the unused tail of a partial page zeroed: the logger never reads bytes an appender
//! may be writing, and never holds the append lock.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::error::{StorageError, StorageResult};
use crate::vfs::StorageFile;

use super::active::{ActiveLogHeader, ACTIVE_LOG_HEADER_BYTES};
use super::statistics::bump;
use super::{
    page_ceil, page_floor, FileSwitch, LogShared, OffloadJob, LOGGER_IDLE_WAIT_MS, LOG_PAGE_BYTES,
    LOG_WRITE_PAGES_MAX,
};

struct Logger {
    shared: Arc<LogShared>,
    /// The active log being written and the RBA its current use starts at.
    file: usize,
    file_start: u64,
    staging: Vec<u8>,
    /// The copy 2 writer (TWOACTV only).
    second: Option<(Arc<CopyWriter>, JoinHandle<()>)>,
}

pub(crate) fn run_logger(shared: Arc<LogShared>, file: usize, file_start: u64) {
    let second = (shared.copies() == 2).then(|| {
        let writer = Arc::new(CopyWriter::default());
        let thread = {
            let (shared, writer) = (shared.clone(), writer.clone());
            std::thread::Builder::new()
                .name("ferrite-logcopy2".into())
                .spawn(move || writer.run(&shared, 1))
                .expect("cannot start the copy 2 log writer thread")
        };
        (writer, thread)
    });
    let mut logger = Logger {
        shared,
        file,
        file_start,
        staging: vec![0u8; LOG_WRITE_PAGES_MAX * LOG_PAGE_BYTES],
        second,
    };
    logger.run();
    if let Some((writer, thread)) = logger.second.take() {
        writer.state.lock().unwrap().shutdown = true;
        writer.work.notify_all();
        let _ = thread.join();
    }
}

/// One write I/O for the copy 2 writer.
#[derive(Copy, Clone, Debug)]
struct CopyJob {
    file: usize,
    /// Log bytes `[start, end)`, `start` on a page boundary; written as whole pages.
    start: u64,
    end: u64,
    /// File offset of `start`.
    offset: u64,
    /// The first page holds records already reported durable: write it only after copy 1 is
    /// synced.
    rewrite: bool,
}

#[derive(Default)]
struct CopyWriterState {
    job: Option<CopyJob>,
    /// Copy 1 of the current job is written and synced (`Some(true)`), or failed (`Some(false)`).
    first_done: Option<bool>,
    result: Option<Result<(), String>>,
    shutdown: bool,
}

/// The persistent writer thread of copy 2 (no thread is started per I/O).
#[derive(Default)]
struct CopyWriter {
    state: Mutex<CopyWriterState>,
    /// The writer waits here for a job and for copy 1's sync.
    work: Condvar,
    /// The logger waits here for the job's result.
    done: Condvar,
}

impl CopyWriter {
    fn run(&self, shared: &LogShared, copy: usize) {
        let mut staging = vec![0u8; LOG_WRITE_PAGES_MAX * LOG_PAGE_BYTES];
        loop {
            let job = {
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
            let result = self.write(shared, copy, job, &mut staging);
            let mut state = self.state.lock().unwrap();
            state.job = None;
            state.result = Some(result.map_err(|error| error.to_string()));
            self.done.notify_all();
        }
    }

    fn write(
        &self,
        shared: &LogShared,
        copy: usize,
        job: CopyJob,
        staging: &mut [u8],
    ) -> StorageResult<()> {
        let length = (job.end - job.start) as usize;
        let padded = page_ceil(job.end - job.start) as usize;
        // SAFETY: as for the logger's own copy: [start, end) stays live until the logger
        // advances `durable`, which it does only after this job's result.
        unsafe { shared.buffer.read(job.start, &mut staging[..length]) };
        staging[length..padded].fill(0);
        let file: &Arc<dyn StorageFile> = &shared.sources.files.files[job.file][copy];
        let counters = shared.counters();
        let write = |bytes: &[u8], offset: u64| -> StorageResult<()> {
            file.write_at(bytes, offset)
                .map_err(|error| StorageError::io(file.path(), "write active log", error))?;
            bump(&counters.write_ios[copy], 1);
            Ok(())
        };
        if job.rewrite {
            // Pages never written before go out at once, in parallel with copy 1.
            if padded > LOG_PAGE_BYTES {
                write(
                    &staging[LOG_PAGE_BYTES..padded],
                    job.offset + LOG_PAGE_BYTES as u64,
                )?;
            }
            // The rewritten page only once copy 1 holds it, synced.
            let first_ok = {
                let mut state = self.state.lock().unwrap();
                loop {
                    if let Some(ok) = state.first_done {
                        break ok;
                    }
                    state = self.work.wait(state).unwrap();
                }
            };
            if !first_ok {
                return Err(StorageError::invalid(
                    "copy 1 of the log write failed; copy 2's rewrite of the partial page is not done",
                ));
            }
            write(&staging[..LOG_PAGE_BYTES], job.offset)?;
            bump(&counters.qjstserw, 1);
        } else {
            write(&staging[..padded], job.offset)?;
        }
        file.sync_data()
            .map_err(|error| StorageError::io(file.path(), "sync active log", error))?;
        bump(&counters.qjstlogw[copy], 1);
        bump(&counters.bytes_written[copy], padded as u64);
        Ok(())
    }

    fn start(&self, job: CopyJob) {
        let mut state = self.state.lock().unwrap();
        debug_assert!(state.job.is_none() && state.result.is_none());
        state.job = Some(job);
        state.first_done = None;
        self.work.notify_all();
    }

    fn first_done(&self, ok: bool) {
        let mut state = self.state.lock().unwrap();
        state.first_done = Some(ok);
        self.work.notify_all();
    }

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
    fn run(&mut self) {
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
                    let result = self.switch_file(switch);
                    state = shared.logger.lock().unwrap();
                    match result {
                        Ok(()) => {
                            state.switches.pop_front();
                            shared.durable.store(switch.end, Ordering::SeqCst);
                            shared.waiters.wake_through(switch.end);
                        }
                        Err(error) => {
                            state.failure = Some(error.to_string());
                            shared.failed.store(true, Ordering::Release);
                            shared.waiters.wake_all();
                        }
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
            if let Some(switch) = state.switches.front() {
                target = target.min(switch.used_end);
            }
            if target > durable {
                drop(state);
                let by_threshold = requested <= durable;
                let result = self.write_through(durable, target);
                bump(&shared.counters().qjstbfwr, 1);
                if by_threshold {
                    bump(&shared.counters().qjstthrw, 1);
                }
                state = shared.logger.lock().unwrap();
                if let Err(error) = result {
                    state.failure = Some(error.to_string());
                    shared.failed.store(true, Ordering::Release);
                    shared.wake_everyone();
                }
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
                .wait_timeout(state, Duration::from_millis(LOGGER_IDLE_WAIT_MS))
                .unwrap()
                .0;
            shared.logger_idle.store(false, Ordering::SeqCst);
        }
    }

    /// Write and sync log bytes `[durable, target)` (whole pages from the page holding
    /// `durable`), advancing `durable` after each I/O.
    fn write_through(&mut self, mut durable: u64, target: u64) -> StorageResult<()> {
        let shared = self.shared.clone();
        while durable < target {
            let start = page_floor(durable);
            let end = target.min(start + (LOG_WRITE_PAGES_MAX * LOG_PAGE_BYTES) as u64);
            assert!(
                start >= self.file_start && end <= self.file_start + shared.data_bytes,
                "log write {start:#X}..{end:#X} outside active log {} ({:#X}+{:#X})",
                self.file + 1,
                self.file_start,
                shared.data_bytes
            );
            let length = (end - start) as usize;
            let padded = page_ceil(end - start) as usize;
            // SAFETY: [start, end) is below `filled` and at or above page_floor(durable): live
            // bytes no appender writes until `durable` advances past them.
            unsafe { shared.buffer.read(start, &mut self.staging[..length]) };
            self.staging[length..padded].fill(0);
            let bytes = &self.staging[..padded];
            let offset = ACTIVE_LOG_HEADER_BYTES + (start - self.file_start);
            let rewrite = durable != start;
            let files = &shared.sources.files.files[self.file];
            let pages = (padded / LOG_PAGE_BYTES) as u64;
            let counters = shared.counters();
            if let Some((second, _)) = &self.second {
                second.start(CopyJob {
                    file: self.file,
                    start,
                    end,
                    offset,
                    rewrite,
                });
            }
            let first: StorageResult<()> = (|| {
                let file: &Arc<dyn StorageFile> = &files[0];
                file.write_at(bytes, offset)
                    .map_err(|error| StorageError::io(file.path(), "write active log", error))?;
                file.sync_data()
                    .map_err(|error| StorageError::io(file.path(), "sync active log", error))?;
                bump(&counters.qjstlogw[0], 1);
                bump(&counters.write_ios[0], 1);
                bump(&counters.bytes_written[0], padded as u64);
                Ok(())
            })();
            if let Some((second, _)) = &self.second {
                second.first_done(first.is_ok());
                let result = second.wait();
                first?;
                result.map_err(|detail| StorageError::CorruptLog {
                    path: shared.sources.files.path(self.file, 1).to_path_buf(),
                    rba: crate::types::Rba(start),
                    detail: format!("copy 2 log write failed: {detail}"),
                })?;
            } else {
                first?;
            }
            bump(&counters.qjstciwr, pages);
            durable = end;
            shared.durable.store(end, Ordering::SeqCst);
            shared.wake_durable(end);
        }
        Ok(())
    }

    /// Start the new file of a log switch and hand the old one to the offload thread.
    fn switch_file(&mut self, switch: FileSwitch) -> StorageResult<()> {
        let shared = self.shared.clone();
        let files = &shared.sources.files;
        debug_assert_eq!(switch.old_file, self.file);
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
