//! Log manager statistics: the QJST fields of MQ's log manager SMF record, as cheap atomic
//! counters. [`LogCounters::snapshot`] copies them into the public [`LogStatistics`].

use std::sync::atomic::{AtomicU64, Ordering};

use super::{LogCopyIo, LogStatistics};

/// The live counters. Every update is a relaxed atomic add: the counters are statistics, not
/// synchronisation.
#[derive(Default, Debug)]
pub(crate) struct LogCounters {
    pub qjstwrw: AtomicU64,
    pub qjstwrnw: AtomicU64,
    pub qjstwrf: AtomicU64,
    pub qjstwtb: AtomicU64,
    pub qjstbffl: AtomicU64,
    pub qjstbfwr: AtomicU64,
    pub qjstlogw: [AtomicU64; 2],
    pub qjstciof: AtomicU64,
    pub qjstllcp: AtomicU64,
    pub qjstbsds: AtomicU64,
    pub qjstlsus: AtomicU64,
    pub qjstalr: AtomicU64,
    pub qjstalw: AtomicU64,
    pub bytes_written: [AtomicU64; 2],
    pub write_ios: [AtomicU64; 2],
    pub qjstract: AtomicU64,
    pub qjstthrw: AtomicU64,
    pub qjstserw: AtomicU64,
    pub qjstciwr: AtomicU64,
    pub active_log_switches: AtomicU64,
    pub io_busy_nanos: AtomicU64,
    pub shared_flush_ios: AtomicU64,
    pub leader_ios: AtomicU64,
    pub write_syncs: AtomicU64,
    pub sync_nanos: AtomicU64,
    /// QJSTIO: [copy][one page, more than one page].
    pub copy_io: [[LogCopyIoCounters; 2]; 2],
}

/// One log copy's write I/Os of one class (QJSTIO's entries).
#[derive(Default, Debug)]
pub(crate) struct LogCopyIoCounters {
    pub count: AtomicU64,
    pub pages: AtomicU64,
    pub io_nanos: AtomicU64,
    pub suspend_nanos: AtomicU64,
    /// The longest I/O since the last [`LogCounters::reset_interval`].
    pub max_io_nanos: AtomicU64,
}

/// QJSTIO's class of a write of `pages` pages: 0 for one page, 1 for more.
pub(crate) fn io_class(pages: u64) -> usize {
    usize::from(pages > 1)
}

impl LogCopyIoCounters {
    /// One write I/O of `pages` pages that took `nanos`.
    pub fn write(&self, pages: u64, nanos: u64) {
        bump(&self.count, 1);
        bump(&self.pages, pages);
        bump(&self.io_nanos, nanos);
        self.max_io_nanos.fetch_max(nanos, Ordering::Relaxed);
    }

    fn snapshot(&self) -> LogCopyIo {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        LogCopyIo {
            count: get(&self.count),
            pages: get(&self.pages),
            io_nanos: get(&self.io_nanos),
            suspend_nanos: get(&self.suspend_nanos),
            max_io_nanos: get(&self.max_io_nanos),
        }
    }
}

/// Add to a counter.
#[inline]
pub(crate) fn bump(counter: &AtomicU64, by: u64) {
    counter.fetch_add(by, Ordering::Relaxed);
}

impl LogCounters {
    pub fn snapshot(&self) -> LogStatistics {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        LogStatistics {
            qjstwrw: get(&self.qjstwrw),
            qjstwrnw: get(&self.qjstwrnw),
            qjstwrf: get(&self.qjstwrf),
            qjstwtb: get(&self.qjstwtb),
            qjstbffl: get(&self.qjstbffl),
            qjstbfwr: get(&self.qjstbfwr),
            qjstlogw: [get(&self.qjstlogw[0]), get(&self.qjstlogw[1])],
            qjstciof: get(&self.qjstciof),
            qjstllcp: get(&self.qjstllcp),
            qjstbsds: get(&self.qjstbsds),
            qjstlsus: get(&self.qjstlsus),
            qjstalr: get(&self.qjstalr),
            qjstalw: get(&self.qjstalw),
            bytes_written: [get(&self.bytes_written[0]), get(&self.bytes_written[1])],
            write_ios: [get(&self.write_ios[0]), get(&self.write_ios[1])],
            qjstract: get(&self.qjstract),
            qjstthrw: get(&self.qjstthrw),
            qjstserw: get(&self.qjstserw),
            qjstciwr: get(&self.qjstciwr),
            active_log_switches: get(&self.active_log_switches),
            io_busy_nanos: get(&self.io_busy_nanos),
            shared_flush_ios: get(&self.shared_flush_ios),
            leader_ios: get(&self.leader_ios),
            write_syncs: get(&self.write_syncs),
            sync_nanos: get(&self.sync_nanos),
            copy_io: self
                .copy_io
                .each_ref()
                .map(|classes| classes.each_ref().map(LogCopyIoCounters::snapshot)),
        }
    }

    /// A statistics interval begins: the longest I/Os start again from zero.
    pub fn reset_interval(&self) {
        for class in self.copy_io.iter().flatten() {
            class.max_io_nanos.store(0, Ordering::Relaxed);
        }
    }
}

impl LogStatistics {
    /// What was counted since `earlier`, a snapshot of the same log manager (a statistics
    /// interval, a benchmark run). Every field is a counter that only grows.
    pub fn since(&self, earlier: &LogStatistics) -> LogStatistics {
        let pair = |a: [u64; 2], b: [u64; 2]| [a[0] - b[0], a[1] - b[1]];
        LogStatistics {
            qjstwrw: self.qjstwrw - earlier.qjstwrw,
            qjstwrnw: self.qjstwrnw - earlier.qjstwrnw,
            qjstwrf: self.qjstwrf - earlier.qjstwrf,
            qjstwtb: self.qjstwtb - earlier.qjstwtb,
            qjstbffl: self.qjstbffl - earlier.qjstbffl,
            qjstbfwr: self.qjstbfwr - earlier.qjstbfwr,
            qjstlogw: pair(self.qjstlogw, earlier.qjstlogw),
            qjstciof: self.qjstciof - earlier.qjstciof,
            qjstllcp: self.qjstllcp - earlier.qjstllcp,
            qjstbsds: self.qjstbsds - earlier.qjstbsds,
            qjstlsus: self.qjstlsus - earlier.qjstlsus,
            qjstalr: self.qjstalr - earlier.qjstalr,
            qjstalw: self.qjstalw - earlier.qjstalw,
            bytes_written: pair(self.bytes_written, earlier.bytes_written),
            write_ios: pair(self.write_ios, earlier.write_ios),
            qjstract: self.qjstract - earlier.qjstract,
            qjstthrw: self.qjstthrw - earlier.qjstthrw,
            qjstserw: self.qjstserw - earlier.qjstserw,
            qjstciwr: self.qjstciwr - earlier.qjstciwr,
            active_log_switches: self.active_log_switches - earlier.active_log_switches,
            io_busy_nanos: self.io_busy_nanos - earlier.io_busy_nanos,
            shared_flush_ios: self.shared_flush_ios - earlier.shared_flush_ios,
            leader_ios: self.leader_ios - earlier.leader_ios,
            write_syncs: self.write_syncs - earlier.write_syncs,
            sync_nanos: self.sync_nanos - earlier.sync_nanos,
            copy_io: std::array::from_fn(|copy| {
                std::array::from_fn(|class| {
                    let (now, then) = (self.copy_io[copy][class], earlier.copy_io[copy][class]);
                    LogCopyIo {
                        count: now.count - then.count,
                        pages: now.pages - then.pages,
                        io_nanos: now.io_nanos - then.io_nanos,
                        suspend_nanos: now.suspend_nanos - then.suspend_nanos,
                        // Since the interval's reset: not a difference.
                        max_io_nanos: now.max_io_nanos,
                    }
                })
            }),
        }
    }
}

/// What [`measure_throughput`] measured.
#[derive(Clone, Debug)]
pub struct ThroughputMeasurement {
    pub records: u64,
    /// Log bytes appended (RBA delta), headers included.
    pub log_bytes: u64,
    pub elapsed: std::time::Duration,
    /// Statistics accumulated during the run (the difference of two snapshots).
    pub statistics: LogStatistics,
}

impl ThroughputMeasurement {
    pub fn records_per_second(&self) -> f64 {
        self.records as f64 / self.elapsed.as_secs_f64()
    }
    pub fn mib_per_second(&self) -> f64 {
        self.log_bytes as f64 / (1024.0 * 1024.0) / self.elapsed.as_secs_f64()
    }
}

/// A small benchmark: `threads` appenders each append `records_per_thread` records of
/// `payload_bytes`, forcing after every `records_per_force` records (a commit), as a
/// put-and-commit workload does.
pub fn measure_throughput(
    manager: &super::LogManager,
    threads: usize,
    records_per_thread: usize,
    payload_bytes: usize,
    records_per_force: usize,
) -> crate::error::StorageResult<ThroughputMeasurement> {
    assert!(
        threads >= 1 && records_per_force >= 1,
        "at least one thread and one record per force"
    );
    let before = manager.statistics();
    let start_rba = manager.end_rba();
    let payload = vec![0x5Au8; payload_bytes];
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> crate::error::StorageResult<()> {
                    for index in 0..records_per_thread {
                        let (_, end) = manager.append(1, &[&payload])?;
                        if (index + 1) % records_per_force == 0 || index + 1 == records_per_thread {
                            manager.force(end)?;
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|worker| worker.join().expect("benchmark thread panicked"))
    })?;
    let elapsed = started.elapsed();
    let after = manager.statistics();
    let statistics = after.since(&before);
    Ok(ThroughputMeasurement {
        records: (threads * records_per_thread) as u64,
        log_bytes: manager.end_rba().0 - start_rba.0,
        elapsed,
        statistics,
    })
}
