//! The channel initiator's task statistics: what MQ for z/OS's SMF 115 channel initiator
//! records give of each dispatcher and adapter task (MQSMF's task report: requests, busy %,
//! CPU used, CPU %, average CPU and elapsed µs per request), as `QCTDSP` and `QCTADP` records.
//!
//! A task (one thread) registers itself when it starts ([`QueueManager::task_statistics`]) and
//! counts each request it serves with its elapsed time ([`TaskStatistics::request`]: two
//! monotonic clock reads, no system call). Its CPU time is not measured per request: the
//! thread's CPU clock (`pthread_getcpuclockid`, read by the thread at registration) is read
//! once per interval by the thread that closes it, and the interval's CPU is the difference.
//! An interval takes and zeroes the counts; a task whose thread no longer holds its counters
//! (it ended) is reported for its last interval, then forgotten.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::queue_manager::QueueManager;

/// The most tasks kept (MQ's CHIDISPS and CHIADAPS ranges end at 9,999 each).
pub const TASKS_MAX: usize = 2 * 9_999;

/// The kinds of channel initiator task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskKind {
    /// A dispatcher (CHIDISPS): owns sockets, reads and writes flows, runs the MQI calls
    /// that complete at once (and TLS, which runs on the dispatchers).
    Dispatcher,
    /// An adapter (CHIADAPS): runs the MQI calls that may wait.
    Adapter,
}

impl TaskKind {
    /// The record's name (the SMF 115 channel initiator section's).
    pub fn record(self) -> &'static str {
        match self {
            TaskKind::Dispatcher => "QCTDSP",
            TaskKind::Adapter => "QCTADP",
        }
    }
}

/// One task's counters.
#[derive(Debug)]
pub struct TaskStatistics {
    pub kind: TaskKind,
    /// The task's number among those of its kind, from 0.
    pub index: u32,
    requests: AtomicU64,
    busy_nanos: AtomicU64,
    /// The thread's CPU clock (a `clockid_t`), if the system gave one.
    cpu_clock: Option<libc::clockid_t>,
    /// The CPU clock's reading when the last interval closed.
    cpu_nanos_read: AtomicU64,
}

/// One task's figures for one interval.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskIntervalRecord {
    pub record: &'static str,
    pub index: u32,
    pub requests: u64,
    /// Time spent serving requests.
    pub busy_us: u64,
    /// The thread's CPU time in the interval (None: its clock could not be read).
    pub cpu_us: Option<u64>,
}

/// A thread's CPU clock, read now, in nanoseconds.
fn cpu_clock_nanos(clock: libc::clockid_t) -> Option<u64> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: reading a clock into a timespec we own; an ended thread's clock fails (EINVAL).
    let result = unsafe { libc::clock_gettime(clock, &mut time) };
    (result == 0).then(|| time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64)
}

/// The calling thread's CPU clock.
fn own_cpu_clock() -> Option<libc::clockid_t> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: asking for the calling thread's CPU clock id into a variable we own.
    let result = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
    (result == 0).then_some(clock)
}

impl TaskStatistics {
    fn for_this_thread(kind: TaskKind, index: u32) -> TaskStatistics {
        let cpu_clock = own_cpu_clock();
        TaskStatistics {
            kind,
            index,
            requests: AtomicU64::new(0),
            busy_nanos: AtomicU64::new(0),
            cpu_clock,
            cpu_nanos_read: AtomicU64::new(cpu_clock.and_then(cpu_clock_nanos).unwrap_or(0)),
        }
    }

    /// `requests` served since `started` (the task's thread only).
    #[inline]
    pub fn request(&self, requests: u64, started: Instant) {
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.requests.fetch_add(requests, Ordering::Relaxed);
        self.busy_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The figures since the last call, and start the next interval.
    pub fn take_interval(&self) -> TaskIntervalRecord {
        let cpu_us = self.cpu_clock.and_then(cpu_clock_nanos).map(|now| {
            let then = self.cpu_nanos_read.swap(now, Ordering::Relaxed);
            now.saturating_sub(then) / 1_000
        });
        TaskIntervalRecord {
            record: self.kind.record(),
            index: self.index,
            requests: self.requests.swap(0, Ordering::Relaxed),
            busy_us: self.busy_nanos.swap(0, Ordering::Relaxed) / 1_000,
            cpu_us,
        }
    }
}

impl TaskIntervalRecord {
    /// MQSMF's derived figures over an interval of `interval`: busy %, CPU %, average CPU
    /// and elapsed µs per request.
    pub fn derived(&self, interval: Duration) -> (f64, Option<f64>, Option<u64>, Option<u64>) {
        let interval_us = interval.as_micros().max(1) as f64;
        let busy_percent = self.busy_us as f64 * 100.0 / interval_us;
        let cpu_percent = self.cpu_us.map(|cpu| cpu as f64 * 100.0 / interval_us);
        let average_cpu = self.cpu_us.and_then(|cpu| cpu.checked_div(self.requests));
        let average_elapsed = self.busy_us.checked_div(self.requests);
        (busy_percent, cpu_percent, average_cpu, average_elapsed)
    }
}

/// The tasks registered since the last interval closed.
#[derive(Default)]
pub struct TaskStatisticsRegistry {
    tasks: Mutex<Vec<Arc<TaskStatistics>>>,
}

impl TaskStatisticsRegistry {
    /// Every task's figures for the interval that closes, dispatchers then adapters, each by
    /// number; the ended ones are forgotten.
    pub fn take_interval(&self) -> Vec<TaskIntervalRecord> {
        let mut tasks = self.tasks.lock().unwrap();
        let mut records: Vec<TaskIntervalRecord> =
            tasks.iter().map(|task| task.take_interval()).collect();
        tasks.retain(|task| Arc::strong_count(task) > 1);
        records.sort_by_key(|record| (record.record != "QCTDSP", record.index));
        records
    }
}

impl QueueManager {
    /// A channel initiator task starts: its counters, held by its thread (the caller) while
    /// it runs. `None` past [`TASKS_MAX`] tasks.
    pub fn task_statistics(&self, kind: TaskKind, index: u32) -> Option<Arc<TaskStatistics>> {
        let task = Arc::new(TaskStatistics::for_this_thread(kind, index));
        let mut tasks = self.statistics_state().tasks.tasks.lock().unwrap();
        if tasks.len() >= TASKS_MAX {
            // Ended tasks (a channel initiator restarted without an interval closing) give way.
            tasks.retain(|task| Arc::strong_count(task) > 1);
        }
        if tasks.len() >= TASKS_MAX {
            return None;
        }
        tasks.push(task.clone());
        Some(task)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_counts_its_requests_and_its_threads_cpu() {
        let registry = TaskStatisticsRegistry::default();
        let task = Arc::new(TaskStatistics::for_this_thread(TaskKind::Adapter, 3));
        registry.tasks.lock().unwrap().push(task.clone());
        let started = Instant::now();
        // Known work: spin on this thread's CPU until its clock has moved 5 ms.
        let clock = task.cpu_clock.expect("Linux gives threads a CPU clock");
        let from = cpu_clock_nanos(clock).unwrap();
        while cpu_clock_nanos(clock).unwrap() - from < 5_000_000 {
            std::hint::black_box(0u64);
        }
        task.request(4, started);
        let records = registry.take_interval();
        assert_eq!(records.len(), 1);
        let record = &records[0];
        assert_eq!(
            (record.record, record.index, record.requests),
            ("QCTADP", 3, 4)
        );
        assert!(record.cpu_us.unwrap() >= 5_000, "{record:?}");
        assert!(
            record.busy_us >= record.cpu_us.unwrap() - 1_000,
            "{record:?}"
        );
        let (_, _, average_cpu, average_elapsed) = record.derived(Duration::from_secs(1));
        assert!(average_cpu.unwrap() >= 1_250);
        assert_eq!(average_elapsed, Some(record.busy_us / 4));
        drop(task);
        let last = registry.take_interval();
        assert_eq!(last[0].requests, 0, "the ended task's last interval");
        assert!(registry.take_interval().is_empty());
    }

    #[test]
    fn another_threads_clock_is_read_and_an_ended_threads_is_not() {
        let task = std::thread::spawn(|| {
            Arc::new(TaskStatistics::for_this_thread(TaskKind::Dispatcher, 0))
        })
        .join()
        .unwrap();
        assert_eq!(task.take_interval().cpu_us, None, "the thread has ended");
    }
}
