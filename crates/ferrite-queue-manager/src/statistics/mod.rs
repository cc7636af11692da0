//! Statistics records: what MQ for z/OS writes to SMF 115 at every STATIME interval (the
//! message manager QMST, buffer manager QPST per pool, log manager QJST, page sets QIS1), as
//! JSON lines in the queue manager's directory (`writer.rs`; docs/formats.md "Statistics
//! records"); message channels' STATISTICS_CHL (`channel.rs`); the channel initiator's
//! dispatcher and adapter tasks, QCTDSP and QCTADP (`tasks.rs`).
//!
//! The counters themselves live where the work is counted, as relaxed atomics: QPST in each
//! buffer pool, QJST in the log manager, the message manager's in each connection's record
//! (`mqi.rs`). [`QueueManager::statistics_snapshot`] copies them all at one moment into a
//! [`StatisticsSnapshot`] (the figures since start, the type other readers such as a
//! metrics endpoint use); an interval's records are the difference between the snapshot that
//! closes it and the one that opened it ([`IntervalRecords`]).
//!
//! An interval closes when STATIME minutes have passed (the checkpoint task polls
//! [`QueueManager::statistics_tick`]; STATIME 0 writes no interval records) or on demand
//! (RESET QMGR TYPE(STATISTICS), `ferrite stats --now`: [`QueueManager::close_statistics_interval`]).

pub mod channel;
pub mod mqi;
pub mod records;
pub mod tasks;
pub mod writer;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use ferrite_storage::buffer_pool::BufferPoolStatistics;
use ferrite_storage::log::LogStatistics;

use crate::queue_manager::{now_ms, QueueManager};

pub use channel::{ChannelIntervalRecord, ChannelStatistics};
pub use mqi::{MqiCounter, MqiCounters, MqiStatistics, MQI_COUNTERS};
pub use records::{IntervalRecords, QueueIntervalRecord};
pub use writer::{StatisticsWriter, STATISTICS_FILE, STATISTICS_FILE_BYTES_MAX};

/// STATIME's range in minutes (CSQ6SYSP; 0 = no interval records, only on demand).
pub const STATIME_MINUTES_MAX: u32 = 1440;

/// One page set's figures (QIS1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageSetStatistics {
    pub page_set: u8,
    pub buffer_pool: u8,
    pub total_pages: u32,
    pub unused_pages: u32,
    /// Expansions since the queue manager started.
    pub expansions: u64,
}

/// Every statistic of the queue manager at one moment, counted since it started (QPSTCBSL:
/// since the current interval began; QPSTNBUF, QPSTCBS and the page set pages: now).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatisticsSnapshot {
    /// When it was taken (ms since the epoch).
    pub taken_ms: u64,
    /// The message manager (QMST and MQI counts), over every connection ever made.
    pub message_manager: MqiStatistics,
    /// Each buffer pool's QPST, by pool number.
    pub buffer_pools: Vec<(u8, BufferPoolStatistics)>,
    /// The log manager's QJST.
    pub log: LogStatistics,
    /// Dual logging (TWOACTV): whether copy 2's figures are real.
    pub dual_logging: bool,
    pub page_sets: Vec<PageSetStatistics>,
    /// Checkpoints taken since start.
    pub checkpoints: u64,
    /// Connections now.
    pub connections: u64,
}

/// The state of the statistics interval: STATIME and the snapshot that opened the current
/// interval. One per queue manager.
/// Told of each interval's records once they are written (set once, by the MQI layer, which
/// puts MQ's PCF statistics messages).
pub type IntervalObserver = std::sync::Arc<dyn Fn(&QueueManager, &IntervalRecords) + Send + Sync>;

/// The accounting file's name in the queue manager's directory (MQI accounting records, one
/// a connection: docs/formats.md "Accounting records").
pub const ACCOUNTING_FILE: &str = "accounting.jsonl";

pub struct StatisticsState {
    /// When the queue manager started: the first interval's beginning.
    started_ms: u64,
    statime_minutes: AtomicU32,
    opened: Mutex<Option<StatisticsSnapshot>>,
    writer: Mutex<Option<StatisticsWriter>>,
    accounting_writer: Mutex<Option<StatisticsWriter>>,
    observer: std::sync::OnceLock<IntervalObserver>,
    /// The QMGR object's ACCTQ, read at each MQOPEN without the object store's lock.
    queue_accounting: std::sync::atomic::AtomicU8,
    /// STATCHL: the message channel instances counting for the current interval.
    channels: channel::ChannelStatisticsRegistry,
    /// The channel initiator's tasks.
    tasks: tasks::TaskStatisticsRegistry,
}

/// The QMGR object's ACCTQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueManagerAccounting {
    /// Queues with ACCTQ(QMGR) are not accounted (MQ's default).
    Off,
    /// Queues with ACCTQ(QMGR) are accounted.
    On,
    /// No queue is accounted, whatever its ACCTQ.
    None,
}

impl StatisticsState {
    pub fn new(statime_minutes: u32) -> StatisticsState {
        assert!(statime_minutes <= STATIME_MINUTES_MAX);
        StatisticsState {
            started_ms: now_ms(),
            statime_minutes: AtomicU32::new(statime_minutes),
            opened: Mutex::new(None),
            writer: Mutex::new(None),
            accounting_writer: Mutex::new(None),
            observer: std::sync::OnceLock::new(),
            queue_accounting: std::sync::atomic::AtomicU8::new(0),
            channels: channel::ChannelStatisticsRegistry::default(),
            tasks: tasks::TaskStatisticsRegistry::default(),
        }
    }
}

impl QueueManager {
    /// Every statistic now (see [`StatisticsSnapshot`]).
    pub fn statistics_snapshot(&self) -> StatisticsSnapshot {
        let pools = self.pools();
        StatisticsSnapshot {
            taken_ms: now_ms(),
            message_manager: self.connections().mqi_statistics(),
            buffer_pools: pools
                .iter()
                .map(|pool| (pool.id().0, pool.statistics()))
                .collect(),
            log: self.log_statistics(),
            dual_logging: self.config().log.twoactv,
            page_sets: self
                .data_manager()
                .spaces()
                .map(|space| {
                    let (total_pages, unused_pages) = space.usage();
                    PageSetStatistics {
                        page_set: space.id().0,
                        buffer_pool: space.pool.id().0,
                        total_pages,
                        unused_pages,
                        expansions: space.expansions_this_run(),
                    }
                })
                .collect(),
            checkpoints: self.checkpoints_taken(),
            connections: self.connections().all().len() as u64,
        }
    }

    /// STATIME in minutes (0: no interval records).
    pub fn statistics_interval_minutes(&self) -> u32 {
        self.statistics_state()
            .statime_minutes
            .load(Ordering::Relaxed)
    }

    /// SET SYSTEM STATIME(minutes): the current interval closes when the new STATIME has
    /// passed since it began.
    pub fn set_statistics_interval_minutes(&self, minutes: u32) -> Result<(), String> {
        if minutes > STATIME_MINUTES_MAX {
            return Err(format!(
                "STATIME {minutes} is outside 0-{STATIME_MINUTES_MAX} minutes"
            ));
        }
        self.statistics_state()
            .statime_minutes
            .store(minutes, Ordering::Relaxed);
        Ok(())
    }

    /// Open the first interval if none is open (at start).
    fn statistics_opened(&self) -> StatisticsSnapshot {
        let state = self.statistics_state();
        let mut opened = state.opened.lock().unwrap();
        opened
            .get_or_insert_with(|| StatisticsSnapshot {
                taken_ms: state.started_ms,
                ..StatisticsSnapshot::default()
            })
            .clone()
    }

    /// Close the interval if STATIME has passed since it opened (the checkpoint task's poll).
    pub fn statistics_tick(&self) {
        let minutes = self.statistics_interval_minutes();
        if minutes == 0 {
            return;
        }
        let opened = self.statistics_opened();
        if now_ms().saturating_sub(opened.taken_ms) >= u64::from(minutes) * 60_000 {
            if let Err(error) = self.close_statistics_interval() {
                self.say(&format!(
                    "CSQW133E {} STATISTICS RECORDS NOT WRITTEN: {error}",
                    self.name()
                ));
            }
        }
    }

    /// Close the current interval now: its records (the difference since the interval
    /// opened) are appended to the statistics file and returned, and a new interval opens.
    pub fn close_statistics_interval(&self) -> std::io::Result<IntervalRecords> {
        let state = self.statistics_state();
        // One closer at a time, so intervals neither overlap nor leave gaps.
        let mut writer = state.writer.lock().unwrap();
        let opened = self.statistics_opened();
        let closing = self.statistics_snapshot();
        for pool in self.pools() {
            pool.reset_interval_statistics();
        }
        self.reset_log_interval_statistics();
        let mut records = IntervalRecords::between(self.name(), &opened, &closing);
        records.queues = self.queue_interval_statistics();
        records.channels = state.channels.take_interval();
        records.tasks = state.tasks.take_interval();
        let writer = match writer.as_mut() {
            Some(writer) => writer,
            None => writer.insert(StatisticsWriter::new(self.directory())),
        };
        writer.append(&records.json_lines())?;
        *state.opened.lock().unwrap() = Some(closing);
        if let Some(observer) = state.observer.get() {
            observer(self, &records);
        }
        Ok(records)
    }

    /// STATQ: every local queue's figures for the interval that ends now (each queue starts a
    /// new interval), kept for the queues whose STATQ asks for statistics: ON, or QMGR with
    /// the queue manager's STATQ ON; none while the queue manager's STATQ is NONE.
    fn queue_interval_statistics(&self) -> Vec<QueueIntervalRecord> {
        let queue_manager = self.queue_manager_attributes().statistics_queue;
        let mut records = Vec::new();
        for queue in self.queues() {
            let statistics = queue.take_interval_statistics();
            let asked =
                queue.with_definition(|definition| match definition.statistics_queue.as_str() {
                    "ON" => queue_manager != "NONE",
                    "OFF" => false,
                    _ => queue_manager == "ON",
                });
            if asked {
                records.push(QueueIntervalRecord {
                    queue: queue.name().to_string(),
                    statistics,
                });
            }
        }
        records.sort_by(|a, b| a.queue.cmp(&b.queue));
        records
    }

    /// The QMGR object's ACCTQ now.
    pub fn queue_manager_accounting(&self) -> QueueManagerAccounting {
        match self
            .statistics_state()
            .queue_accounting
            .load(Ordering::Relaxed)
        {
            1 => QueueManagerAccounting::On,
            2 => QueueManagerAccounting::None,
            _ => QueueManagerAccounting::Off,
        }
    }

    /// The QMGR object changed (ALTER QMGR, restart): note its ACCTQ.
    pub(crate) fn note_queue_manager_accounting(&self, accounting_queue: &str) {
        let value = match accounting_queue {
            "ON" => 1,
            "NONE" => 2,
            _ => 0,
        };
        self.statistics_state()
            .queue_accounting
            .store(value, Ordering::Relaxed);
    }

    /// Install the observer of closed intervals. Only the first call installs one.
    pub fn set_statistics_observer(&self, observer: IntervalObserver) -> bool {
        self.statistics_state().observer.set(observer).is_ok()
    }

    /// Append an accounting record (one JSON object) to the accounting file, rotated as the
    /// statistics file is.
    pub fn append_accounting_record(&self, record: &serde_json::Value) -> std::io::Result<()> {
        let mut writer = self.statistics_state().accounting_writer.lock().unwrap();
        let writer = match writer.as_mut() {
            Some(writer) => writer,
            None => writer.insert(StatisticsWriter::named(self.directory(), ACCOUNTING_FILE)),
        };
        writer.append(&format!("{record}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statime_is_bounded() {
        let state = StatisticsState::new(30);
        assert_eq!(state.statime_minutes.load(Ordering::Relaxed), 30);
        assert!(std::panic::catch_unwind(|| StatisticsState::new(1441)).is_err());
    }
}
