//! Log manager statistics: the QJST fields of MQ's log manager SMF record, as cheap atomic
//! counters. [`LogCounters::snapshot`] copies them into the public [`LogStatistics`].

use std::sync::atomic::{AtomicU64, Ordering};

use super::LogStatistics;

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
        }
    }
}
