//! Buffer pool statistics: the QPST fields of MQ's CSQDQPST record (MP16 chapter 5 §1.4). Their
//! meanings are the same as MQ's, so MP16's tuning rules apply unchanged:
//! - SOS, STLA or DMC > 0 means the pool is too small;
//! - CBSL/NBUF < 15% means the deferred write process has run;
//! - RIO ≫ TPW means pages are read again and again.
//!
//! Every counter except QPSTCBSL counts from the creation of the pool. A statistics collector
//! reports the difference between two snapshots as the interval's value.
//! [`super::BufferPool::reset_interval_statistics`] starts a new interval for the low-water mark
//! QPSTCBSL.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// One snapshot of a pool's statistics. Field names are MQ's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BufferPoolStatistics {
    /// Buffers in the pool.
    pub qpstnbuf: u64,
    /// Lowest number of stealable buffers since the last `reset_interval_statistics`.
    pub qpstcbsl: u64,
    /// Stealable buffers now.
    pub qpstcbs: u64,
    /// Get-page requests (GETP: contents needed).
    pub qpstgetp: u64,
    /// Get-new-page requests (GETN: contents will be overwritten).
    pub qpstgetn: u64,
    /// SET WRITE requests (page updates).
    pub qpststw: u64,
    /// Pages read from page sets (GETP misses and read-ahead).
    pub qpstrio: u64,
    /// Times the deferred write process was started.
    pub qpstdwt: u64,
    /// Pages written to page sets.
    pub qpsttpw: u64,
    /// Write I/Os (one I/O writes a run of up to 16 contiguous pages).
    pub qpstwio: u64,
    /// Synchronous (immediate) writes: one page, written by the thread that needed it.
    pub qpstimw: u64,
    /// Synchronous writes because stealable < 5% or changed > 95% when a page was released.
    pub qpstdmc: u64,
    /// Page not in the pool, so a stealable buffer was used.
    pub qpststl: u64,
    /// Contention when getting a stealable buffer (another thread took it, or loaded the same
    /// page, first).
    pub qpststla: u64,
    /// A stealable buffer was needed and none was available.
    pub qpstsos: u64,
}

impl BufferPoolStatistics {
    /// What was counted since `earlier`, a snapshot of the same pool: the counters' growth,
    /// with QPSTNBUF, QPSTCBS and QPSTCBSL as they are now (QPSTCBSL is already the interval's
    /// low when the interval began with `reset_interval_statistics`).
    pub fn since(&self, earlier: &BufferPoolStatistics) -> BufferPoolStatistics {
        let grown = |now: u64, then: u64| now.saturating_sub(then);
        BufferPoolStatistics {
            qpstnbuf: self.qpstnbuf,
            qpstcbsl: self.qpstcbsl,
            qpstcbs: self.qpstcbs,
            qpstgetp: grown(self.qpstgetp, earlier.qpstgetp),
            qpstgetn: grown(self.qpstgetn, earlier.qpstgetn),
            qpststw: grown(self.qpststw, earlier.qpststw),
            qpstrio: grown(self.qpstrio, earlier.qpstrio),
            qpstdwt: grown(self.qpstdwt, earlier.qpstdwt),
            qpsttpw: grown(self.qpsttpw, earlier.qpsttpw),
            qpstwio: grown(self.qpstwio, earlier.qpstwio),
            qpstimw: grown(self.qpstimw, earlier.qpstimw),
            qpstdmc: grown(self.qpstdmc, earlier.qpstdmc),
            qpststl: grown(self.qpststl, earlier.qpststl),
            qpststla: grown(self.qpststla, earlier.qpststla),
            qpstsos: grown(self.qpstsos, earlier.qpstsos),
        }
    }
}

/// The pool's counters. QPSTGETP, QPSTGETN and QPSTSTW are kept in the page table shards (see
/// `frame::Shard`), where they cost no extra shared cache line.
#[derive(Default)]
pub(super) struct Counters {
    /// QPSTRIO
    pub pages_read: AtomicU64,
    /// QPSTDWT
    pub deferred_write_starts: AtomicU64,
    /// QPSTTPW
    pub pages_written: AtomicU64,
    /// QPSTWIO
    pub write_ios: AtomicU64,
    /// QPSTIMW
    pub immediate_writes: AtomicU64,
    /// QPSTDMC
    pub threshold_synchronous_writes: AtomicU64,
    /// QPSTSTL
    pub steals: AtomicU64,
    /// QPSTSTLA
    pub steal_contention: AtomicU64,
    /// QPSTSOS
    pub short_on_storage: AtomicU64,
    /// QPSTCBSL
    pub lowest_stealable: AtomicI64,
}

impl Counters {
    pub fn count(counter: &AtomicU64, by: u64) {
        counter.fetch_add(by, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    /// Lower the low-water mark of stealable buffers to `stealable` if it is lower.
    pub fn note_stealable(&self, stealable: i64) {
        if stealable < self.lowest_stealable.load(Ordering::Relaxed) {
            self.lowest_stealable
                .fetch_min(stealable.max(0), Ordering::Relaxed);
        }
    }
}
