//! One interval's statistics records, and their JSON form (docs/formats.md "Statistics
//! records"): one object per record, named as MQSMF and mq-smf-csv name SMF 115's sections
//! (`QMST`, `QPST`, `QJST`, `QIS1`) and their fields, and MQ distributed's queue
//! statistics (`STATISTICS_Q`, STATQ) and channel statistics (`STATISTICS_CHL`, STATCHL), and
//! the channel initiator's task records (`QCTDSP`, `QCTADP`).

use ferrite_storage::buffer_pool::BufferPoolStatistics;
use ferrite_storage::log::LogStatistics;
use serde_json::{json, Map, Value};

use super::tasks::TaskIntervalRecord;
use super::{ChannelIntervalRecord, MqiStatistics, PageSetStatistics, StatisticsSnapshot};
use crate::QueueIntervalStatistics;

/// The version of the records' layout, in every record as `Version`.
pub const STATISTICS_RECORD_VERSION: u32 = 1;

/// One interval's records.
#[derive(Clone, Debug, PartialEq)]
pub struct IntervalRecords {
    pub queue_manager: String,
    pub start_ms: u64,
    pub end_ms: u64,
    pub message_manager: MqiStatistics,
    pub buffer_pools: Vec<(u8, BufferPoolStatistics)>,
    pub log: LogStatistics,
    pub dual_logging: bool,
    pub page_sets: Vec<PageSetStatistics>,
    /// STATQ: the queues whose statistics were asked for, by name.
    pub queues: Vec<QueueIntervalRecord>,
    /// STATCHL: the message channel instances that asked for statistics.
    pub channels: Vec<ChannelIntervalRecord>,
    /// The channel initiator's dispatchers and adapters.
    pub tasks: Vec<TaskIntervalRecord>,
}

/// One queue's statistics for an interval (STATQ).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueIntervalRecord {
    pub queue: String,
    pub statistics: QueueIntervalStatistics,
}

impl IntervalRecords {
    /// The interval from `opened` to `closing` (snapshots of one queue manager, in order).
    pub fn between(
        queue_manager: &str,
        opened: &StatisticsSnapshot,
        closing: &StatisticsSnapshot,
    ) -> IntervalRecords {
        assert!(opened.taken_ms <= closing.taken_ms, "intervals run forward");
        let buffer_pools = closing
            .buffer_pools
            .iter()
            .map(|(pool, now)| {
                let then = opened
                    .buffer_pools
                    .iter()
                    .find(|(earlier, _)| earlier == pool)
                    .map(|(_, then)| then.clone())
                    // A pool defined during the interval counted from zero.
                    .unwrap_or_default();
                (*pool, now.since(&then))
            })
            .collect();
        IntervalRecords {
            queue_manager: queue_manager.to_string(),
            start_ms: opened.taken_ms,
            end_ms: closing.taken_ms,
            message_manager: closing.message_manager.since(&opened.message_manager),
            buffer_pools,
            log: closing.log.since(&opened.log),
            dual_logging: closing.dual_logging,
            page_sets: closing.page_sets.clone(),
            queues: Vec::new(),
            channels: Vec::new(),
            tasks: Vec::new(),
        }
    }

    /// The interval's length in seconds (at least a millisecond).
    pub fn seconds(&self) -> f64 {
        (self.end_ms.saturating_sub(self.start_ms)).max(1) as f64 / 1000.0
    }

    /// Every record as a JSON object, in order: QMST, a QPST per pool, QJST, a QIS1 per
    /// page set, a STATISTICS_Q per queue whose STATQ asked, a STATISTICS_CHL per channel
    /// instance whose STATCHL asked, a QCTDSP per dispatcher and a QCTADP per adapter.
    pub fn json_records(&self) -> Vec<Value> {
        let mut records = vec![self.record("QMST", qmst_fields(&self.message_manager))];
        for (pool, statistics) in &self.buffer_pools {
            records.push(self.record("QPST", qpst_fields(*pool, statistics)));
        }
        records.push(self.record("QJST", qjst_fields(&self.log, self.dual_logging)));
        for page_set in &self.page_sets {
            records.push(self.record("QIS1", qis1_fields(page_set)));
        }
        for queue in &self.queues {
            records.push(self.record("STATISTICS_Q", statistics_q_fields(queue)));
        }
        for channel in &self.channels {
            records.push(self.record("STATISTICS_CHL", statistics_chl_fields(channel)));
        }
        let interval = std::time::Duration::from_millis(self.end_ms.saturating_sub(self.start_ms));
        for task in &self.tasks {
            records.push(self.record(task.record, task_fields(task, interval)));
        }
        records
    }

    /// The records as JSON lines (each ends with a newline).
    pub fn json_lines(&self) -> String {
        let mut text = String::new();
        for record in self.json_records() {
            text.push_str(&record.to_string());
            text.push('\n');
        }
        text
    }

    fn record(&self, kind: &str, fields: Map<String, Value>) -> Value {
        let mut record = Map::new();
        record.insert("Record".into(), json!(kind));
        record.insert("Version".into(), json!(STATISTICS_RECORD_VERSION));
        record.insert("QMgr".into(), json!(self.queue_manager));
        record.insert("Interval_Start".into(), json!(iso_time(self.start_ms)));
        record.insert("Interval_End".into(), json!(iso_time(self.end_ms)));
        record.insert("Interval_Start_ms".into(), json!(self.start_ms));
        record.insert("Interval_End_ms".into(), json!(self.end_ms));
        record.extend(fields);
        Value::Object(record)
    }
}

/// A queue's STATISTICS_Q fields: MQ distributed's queue statistics (amqsmon's names).
fn statistics_q_fields(record: &QueueIntervalRecord) -> Map<String, Value> {
    let s = &record.statistics;
    let average = s.average_time_on_queue_us();
    let fields = json!({
        "QName": record.queue,
        "QMinDepth": s.depth_min,
        "QMaxDepth": s.depth_max,
        "NonPersPuts": s.puts[0],
        "PersPuts": s.puts[1],
        "NonPersGets": s.gets[0],
        "PersGets": s.gets[1],
        "NonPersGetBytes": s.get_bytes[0],
        "PersGetBytes": s.get_bytes[1],
        "NonPersAvgQTime_us": average[0],
        "PersAvgQTime_us": average[1],
        "ExpiredMsgCount": s.expired,
        "NonPersPutBytes": s.put_bytes[0],
        "PersPutBytes": s.put_bytes[1],
        "PutFailCount": s.puts_failed,
        "GetFailCount": s.gets_failed,
        "NonPersBrowses": s.browses[0],
        "PersBrowses": s.browses[1],
        "NonPersBrowseBytes": s.browse_bytes[0],
        "PersBrowseBytes": s.browse_bytes[1],
        "BrowseFailCount": s.browses_failed,
        "PurgeCount": s.purged,
    });
    match fields {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object"),
    }
}

/// A channel instance's STATISTICS_CHL fields: MQ distributed's channel statistics
/// (amqsmon's names); the network times only when a batch was confirmed in the interval.
fn statistics_chl_fields(record: &ChannelIntervalRecord) -> Map<String, Value> {
    let mut fields = json!({
        "ChannelName": record.channel,
        "ChannelType": record.channel_type_keyword,
        "RemoteQmgr": record.remote_queue_manager,
        "ConnectionName": record.connection_name,
        "MsgCount": record.messages,
        "TotalBytes": record.bytes,
        "FullBatchCount": record.full_batches,
        "IncmplBatchCount": record.incomplete_batches,
        "AverageBatchSize": record.average_batch_size(),
        "PutRetryCount": record.put_retries,
    });
    if let Some((min, average, max)) = record.net_time_us {
        let map = fields.as_object_mut().expect("a JSON object");
        map.insert("NetTimeMin_us".into(), json!(min));
        map.insert("NetTimeAvg_us".into(), json!(average));
        map.insert("NetTimeMax_us".into(), json!(max));
    }
    match fields {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object"),
    }
}

/// A channel initiator task's fields: MQSMF's task report (the CPU figures only when the
/// thread's CPU clock could be read).
fn task_fields(task: &TaskIntervalRecord, interval: std::time::Duration) -> Map<String, Value> {
    let (busy_percent, cpu_percent, average_cpu, average_elapsed) = task.derived(interval);
    let mut map = Map::new();
    map.insert("Task".into(), json!(task.index));
    map.insert("Requests".into(), json!(task.requests));
    map.insert("Busy_Time_us".into(), json!(task.busy_us));
    map.insert("Busy_Pct".into(), json!(round2(busy_percent)));
    map.insert("Avg_ET_us".into(), json!(average_elapsed.unwrap_or(0)));
    if let Some(cpu_us) = task.cpu_us {
        map.insert("CPU_Time_us".into(), json!(cpu_us));
        map.insert("CPU_Pct".into(), json!(round2(cpu_percent.unwrap_or(0.0))));
        map.insert("Avg_CPU_us".into(), json!(average_cpu.unwrap_or(0)));
    }
    map
}

/// `value` to two decimals.
fn round2(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

fn qmst_fields(statistics: &MqiStatistics) -> Map<String, Value> {
    statistics
        .named()
        .map(|(name, value)| (name.to_string(), json!(value)))
        .collect()
}

/// QPST's fields with mq-smf-csv's names.
pub const QPST_FIELDS: [&str; 16] = [
    "POOL", "NBUF", "CBSL", "CBS", "GETP", "GETN", "RIO", "STW", "TPW", "WIO", "IMW", "DWT", "DMC",
    "STL", "STLA", "SOS",
];

fn qpst_fields(pool: u8, s: &BufferPoolStatistics) -> Map<String, Value> {
    let values = [
        u64::from(pool),
        s.qpstnbuf,
        s.qpstcbsl,
        s.qpstcbs,
        s.qpstgetp,
        s.qpstgetn,
        s.qpstrio,
        s.qpststw,
        s.qpsttpw,
        s.qpstwio,
        s.qpstimw,
        s.qpstdwt,
        s.qpstdmc,
        s.qpststl,
        s.qpststla,
        s.qpstsos,
    ];
    QPST_FIELDS
        .iter()
        .zip(values)
        .map(|(name, value)| (name.to_string(), json!(value)))
        .collect()
}

fn qjst_fields(s: &LogStatistics, dual_logging: bool) -> Map<String, Value> {
    let copy2_new_logs = if dual_logging {
        s.active_log_switches
    } else {
        0
    };
    let fields = [
        // mq-smf-csv's QJST names.
        ("WRT_Request_Wait", s.qjstwrw),
        ("WRT_Request_NoWait", s.qjstwrnw),
        ("WRT_Request_Force", s.qjstwrf),
        ("Unavailable_Buffer_Count", s.qjstwtb),
        ("Log_Read_Active_Log", s.qjstract),
        ("BSDS_Access", s.qjstbsds),
        ("Active_Log_CI", s.qjstbffl),
        ("Buffer_Writes", s.qjstbfwr),
        ("Archive_Read", s.qjstalr),
        ("Archive_Write", s.qjstalw),
        ("CI_Offloads", s.qjstciof),
        ("Checkpoints", s.qjstllcp),
        ("Log_Request_Suspends", s.qjstlsus),
        ("Log_Writes", s.qjstlogw[0]),
        ("Log_CI", s.qjstciwr),
        ("Log_CI_Serial", s.qjstserw),
        ("Log_Write_Threshold", s.qjstthrw),
        ("Copy1_New_Logs", s.active_log_switches),
        ("Copy2_New_Logs", copy2_new_logs),
        // Per copy: write I/Os (QJSTLOGW), bytes written, every write call.
        ("Log_Writes_1", s.qjstlogw[0]),
        ("Log_Writes_2", s.qjstlogw[1]),
        ("Log_Bytes_1", s.bytes_written[0]),
        ("Log_Bytes_2", s.bytes_written[1]),
        ("Write_Calls_1", s.write_ios[0]),
        ("Write_Calls_2", s.write_ios[1]),
        // The logger's time: every write cycle's I/O, and the syncs that end them.
        ("IO_Busy_Time_us", s.io_busy_nanos / 1000),
        ("Write_Syncs", s.write_syncs),
        ("Sync_Time_us", s.sync_nanos / 1000),
        ("Shared_Flush_IOs", s.shared_flush_ios),
        ("Leader_IOs", s.leader_ios),
    ];
    let mut map: Map<String, Value> = fields
        .iter()
        .map(|(name, value)| (name.to_string(), json!(value)))
        .collect();
    map.insert("Dual_Logging".into(), json!(dual_logging));
    // QJSTIO: MQSMF's per-copy I/O table, with mq-smf-csv's IO_* names.
    for (copy, classes) in s.copy_io.iter().enumerate() {
        for (class, io) in classes.iter().enumerate() {
            let prefix = format!("Copy{}_{}", copy + 1, ["1Page", "NPage"][class]);
            for (name, value) in [
                ("IO_Count", io.count),
                ("IO_CI", io.pages),
                ("IO_Total_Time_us", io.io_nanos / 1000),
                ("IO_Total_Suspend_Time_us", io.suspend_nanos / 1000),
                ("IO_Max_Duration_us", io.max_io_nanos / 1000),
            ] {
                map.insert(format!("{prefix}_{name}"), json!(value));
            }
        }
    }
    map
}

fn qis1_fields(p: &PageSetStatistics) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("Pageset".into(), json!(p.page_set));
    map.insert("BufferPool".into(), json!(p.buffer_pool));
    map.insert("Total_Pages".into(), json!(p.total_pages));
    map.insert("Unused_Pages".into(), json!(p.unused_pages));
    map.insert("Expansions".into(), json!(p.expansions));
    map
}

/// `ms` since the epoch as ISO 8601 UTC with milliseconds (2026-01-31T23:59:59.999Z).
pub fn iso_time(ms: u64) -> String {
    let seconds = ms / 1000;
    let (year, month, day) = civil_date(seconds / 86_400);
    let of_day = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60,
        ms % 1000
    )
}

/// The Gregorian (year, month, day) of day `days` since 1970-01-01.
fn civil_date(days: u64) -> (u64, u64, u64) {
    // Count from 0000-03-01 so that the leap day ends each 4-year cycle.
    let days = days + 719_468;
    let era = days / 146_097;
    let day_of_era = days % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field the code writes is named in docs/formats.md "Statistics records".
    #[test]
    fn every_field_is_documented() {
        let document = include_str!("../../../../docs/formats.md");
        let section = &document[document
            .find("## Statistics records")
            .expect("the section exists")..];
        let mut snapshot = StatisticsSnapshot::default();
        snapshot
            .buffer_pools
            .push((0, BufferPoolStatistics::default()));
        snapshot.page_sets.push(PageSetStatistics::default());
        let mut records = IntervalRecords::between("QM1", &snapshot, &snapshot);
        records.queues.push(QueueIntervalRecord {
            queue: "Q1".into(),
            statistics: QueueIntervalStatistics::default(),
        });
        records.channels.push(ChannelIntervalRecord {
            net_time_us: Some((1, 2, 3)),
            ..ChannelIntervalRecord::default()
        });
        records.tasks.push(TaskIntervalRecord {
            record: "QCTADP",
            cpu_us: Some(1),
            ..TaskIntervalRecord::default()
        });
        let json = records.json_records();
        assert_eq!(json.last().unwrap()["Record"], "QCTADP");
        for record in json {
            for field in record.as_object().unwrap().keys() {
                assert!(
                    section.contains(&format!("`{field}`")),
                    "{} field {field} is not in docs/formats.md",
                    record["Record"]
                );
            }
        }
    }

    #[test]
    fn times_are_iso_utc() {
        assert_eq!(iso_time(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_time(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_time(1_798_761_599_999), "2026-12-31T23:59:59.999Z");
    }

    #[test]
    fn an_interval_is_the_difference_of_its_snapshots() {
        let mut opened = StatisticsSnapshot {
            taken_ms: 1_000,
            ..Default::default()
        };
        opened.buffer_pools.push((
            0,
            BufferPoolStatistics {
                qpstgetp: 10,
                qpsttpw: 3,
                ..Default::default()
            },
        ));
        opened.log.qjstbffl = 5;
        let mut closing = opened.clone();
        closing.taken_ms = 61_000;
        closing.buffer_pools[0].1.qpstgetp = 25;
        closing.buffer_pools[0].1.qpstnbuf = 1050;
        closing.buffer_pools.push((
            1,
            BufferPoolStatistics {
                qpsttpw: 4,
                ..Default::default()
            },
        ));
        closing.log.qjstbffl = 12;
        let records = IntervalRecords::between("QM1", &opened, &closing);
        assert_eq!(records.seconds(), 60.0);
        let json = records.json_records();
        assert_eq!(json.len(), 4, "QMST, two QPST, QJST");
        assert_eq!(json[1]["Record"], "QPST");
        assert_eq!(json[1]["GETP"], 15);
        assert_eq!(json[1]["TPW"], 0);
        assert_eq!(json[1]["NBUF"], 1050);
        assert_eq!(json[2]["POOL"], 1);
        assert_eq!(json[2]["TPW"], 4);
        assert_eq!(json[3]["Active_Log_CI"], 7);
        assert_eq!(json[0]["Interval_Start"], "1970-01-01T00:00:01.000Z");
        let lines = records.json_lines();
        for line in lines.lines() {
            let parsed: Value = serde_json::from_str(line).unwrap();
            assert_eq!(parsed["QMgr"], "QM1");
        }
    }
}
