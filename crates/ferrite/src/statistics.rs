//! `ferrite stats QM1`: the statistics records of a queue manager (its `statistics.jsonl`,
//! docs/formats.md "Statistics records") as MQSMF prints SMF 115, with the figures MP16 derives
//! from them: log MB/s per copy, log pages per I/O, the logger's I/O busy %, each buffer
//! pool's hit ratio and stealable low against the deferred write (15%) and synchronous write
//! (5%) thresholds, pages per page set write I/O and page set I/O per second, and MP16's rules
//! applied ("SOS, STLA or DMC > 0: enlarge the pool").
//!
//! `--now` closes the running queue manager's current interval first (RESET QMGR
//! TYPE(STATISTICS)); `--watch N` does so every N seconds and prints each interval; `--json`
//! prints the records as they are stored; `--csv DIR` writes one CSV file per record type, as
//! mq-smf-csv does; `--svg FILE` draws the intervals (statistics_plot.rs).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use ferrite_queue_manager::statistics::STATISTICS_FILE;
use ferrite_storage::buffer_pool::{
    DEFERRED_WRITE_START_STEALABLE_PERCENT, SYNCHRONOUS_WRITE_STEALABLE_PERCENT,
};
use serde_json::Value;

/// Rotated statistics files read, oldest first (`statistics.jsonl.4` ... `.1`).
const ROTATED_FILES_READ: u32 = 4;
/// `--watch`'s interval bounds, seconds.
pub const WATCH_SECONDS_MAX: u64 = 3600;

/// One statistics interval: its records, in the order written.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    pub start_ms: u64,
    pub end_ms: u64,
    pub records: Vec<Value>,
}

impl Interval {
    pub fn seconds(&self) -> f64 {
        (self.end_ms.saturating_sub(self.start_ms)).max(1) as f64 / 1000.0
    }

    /// The records of type `kind` (`QMST`, `QPST`, `QJST`, `QIS1`).
    pub fn records<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.records
            .iter()
            .filter(move |record| record["Record"] == kind)
    }

    /// The one record of type `kind`, if there is one.
    pub fn record(&self, kind: &str) -> Option<&Value> {
        self.records.iter().find(|record| record["Record"] == kind)
    }
}

/// A record's counter `name` (0 when absent: an older record layout).
pub fn count(record: &Value, name: &str) -> u64 {
    record[name].as_u64().unwrap_or(0)
}

/// The statistics files of the queue manager in `directory`, oldest first.
fn statistics_files(directory: &Path) -> Vec<PathBuf> {
    let current = directory.join(STATISTICS_FILE);
    let mut files: Vec<PathBuf> = (1..=ROTATED_FILES_READ)
        .rev()
        .map(|generation| {
            let mut name = current.as_os_str().to_owned();
            name.push(format!(".{generation}"));
            PathBuf::from(name)
        })
        .collect();
    files.push(current);
    files.into_iter().filter(|file| file.exists()).collect()
}

/// Every interval recorded in `directory`, oldest first.
pub fn read_intervals(directory: &Path) -> Result<Vec<Interval>, String> {
    let mut intervals: Vec<Interval> = Vec::new();
    for file in statistics_files(directory) {
        let text = std::fs::read_to_string(&file)
            .map_err(|error| format!("ferrite: cannot read {}: {error}", file.display()))?;
        for (number, line) in text.lines().enumerate() {
            let record: Value = serde_json::from_str(line).map_err(|error| {
                format!(
                    "ferrite: {} line {}: not a statistics record: {error}",
                    file.display(),
                    number + 1
                )
            })?;
            let start_ms = count(&record, "Interval_Start_ms");
            let end_ms = count(&record, "Interval_End_ms");
            match intervals.last_mut() {
                Some(last) if last.end_ms == end_ms && last.start_ms == start_ms => {
                    last.records.push(record)
                }
                _ => intervals.push(Interval {
                    start_ms,
                    end_ms,
                    records: vec![record],
                }),
            }
        }
    }
    Ok(intervals)
}

/// MB as MQSMF and MP16 print log rates: 1,048,576 bytes.
const MEGABYTE: f64 = 1_048_576.0;

fn per_second(value: u64, seconds: f64) -> f64 {
    value as f64 / seconds
}

fn ratio(numerator: u64, denominator: u64) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

fn or_dash(value: Option<f64>, decimals: usize) -> String {
    value.map_or("-".to_string(), |value| format!("{value:.decimals$}"))
}

/// The interval report (MQSMF's layout, MP16's derived figures and rules).
pub fn report(interval: &Interval) -> String {
    let seconds = interval.seconds();
    let name = interval
        .records
        .first()
        .and_then(|record| record["QMgr"].as_str())
        .unwrap_or("?");
    let first = interval.records.first().cloned().unwrap_or(Value::Null);
    let mut text = format!(
        "{name} statistics interval {} to {} ({seconds:.1} s)\n",
        first["Interval_Start"].as_str().unwrap_or("?"),
        first["Interval_End"].as_str().unwrap_or("?"),
    );
    if let Some(qmst) = interval.record("QMST") {
        text.push_str(&message_manager_report(qmst, seconds));
    }
    for qpst in interval.records("QPST") {
        text.push_str(&buffer_pool_report(qpst, seconds));
    }
    if let Some(qjst) = interval.record("QJST") {
        text.push_str(&log_report(qjst, seconds));
    }
    let page_sets: Vec<&Value> = interval.records("QIS1").collect();
    if !page_sets.is_empty() {
        text.push_str(&page_set_report(&page_sets));
    }
    let queues: Vec<&Value> = interval.records("STATISTICS_Q").collect();
    if !queues.is_empty() {
        text.push_str(&queue_report(&queues, seconds));
    }
    let channels: Vec<&Value> = interval.records("STATISTICS_CHL").collect();
    if !channels.is_empty() {
        text.push_str(&channel_report(&channels, seconds));
    }
    let tasks: Vec<&Value> = interval
        .records
        .iter()
        .filter(|record| matches!(record["Record"].as_str(), Some("QCTDSP" | "QCTADP")))
        .collect();
    if !tasks.is_empty() {
        text.push_str(&task_report(&tasks));
    }
    text
}

/// The channel initiator's tasks, as MQSMF's task report: requests, busy %, CPU used, CPU %,
/// average CPU and elapsed µs per request.
fn task_report(tasks: &[&Value]) -> String {
    let mut text = format!(
        "Channel initiator tasks\n  {:<12} {:>10} {:>7} {:>12} {:>7} {:>9} {:>9}\n",
        "task", "requests", "busy %", "CPU s", "CPU %", "avg CPU", "avg ET"
    );
    for task in tasks {
        let c = |name| count(task, name);
        let kind = match task["Record"].as_str() {
            Some("QCTDSP") => "dispatcher",
            _ => "adapter",
        };
        let cpu = |name: &str, scale: f64, decimals: usize| {
            or_dash(task[name].as_f64().map(|value| value / scale), decimals)
        };
        text.push_str(&format!(
            "  {:<12} {:>10} {:>7.1} {:>12} {:>7} {:>9} {:>9}\n",
            format!("{kind} {}", c("Task")),
            c("Requests"),
            task["Busy_Pct"].as_f64().unwrap_or(0.0),
            cpu("CPU_Time_us", 1e6, 6),
            cpu("CPU_Pct", 1.0, 1),
            cpu("Avg_CPU_us", 1.0, 0),
            c("Avg_ET_us"),
        ));
    }
    text
}

/// The message channels whose STATCHL asked (MQ distributed's channel statistics), one line
/// each: messages and their rate, bytes, full and incomplete batches, the average batch and
/// (a sender's) average network time.
fn channel_report(channels: &[&Value], seconds: f64) -> String {
    let mut text = format!(
        "Channels (STATISTICS_CHL)\n  {:<20} {:<5} {:<12} {:>9} {:>9} {:>12} {:>6} {:>6} {:>5} {:>9}\n",
        "channel", "type", "remote", "messages", "msgs/s", "bytes", "full", "part", "avg", "net µs"
    );
    for channel in channels {
        let c = |name| count(channel, name);
        let net = channel["NetTimeAvg_us"]
            .as_u64()
            .map_or("-".to_string(), |net| net.to_string());
        text.push_str(&format!(
            "  {:<20} {:<5} {:<12} {:>9} {:>9.1} {:>12} {:>6} {:>6} {:>5} {:>9}\n",
            channel["ChannelName"].as_str().unwrap_or("?"),
            channel["ChannelType"].as_str().unwrap_or("?"),
            channel["RemoteQmgr"].as_str().unwrap_or("?"),
            c("MsgCount"),
            per_second(c("MsgCount"), seconds),
            c("TotalBytes"),
            c("FullBatchCount"),
            c("IncmplBatchCount"),
            c("AverageBatchSize"),
            net,
        ));
    }
    text
}

/// The queues whose STATQ asked (MQ distributed's queue statistics), one line each.
fn queue_report(queues: &[&Value], seconds: f64) -> String {
    let mut text = format!(
        "Queues (STATISTICS_Q)\n  {:<48} {:>9} {:>9} {:>8} {:>8} {:>9} {:>9} {:>7}\n",
        "queue", "puts", "gets", "min", "max", "qtime µs", "gets/s", "expired"
    );
    for queue in queues {
        let c = |name| count(queue, name);
        let gets = c("PersGets") + c("NonPersGets");
        // The average time on queue over both persistences, weighted by their gets.
        let qtime = (c("PersAvgQTime_us") * c("PersGets")
            + c("NonPersAvgQTime_us") * c("NonPersGets"))
        .checked_div(gets);
        text.push_str(&format!(
            "  {:<48} {:>9} {:>9} {:>8} {:>8} {:>9} {:>9.1} {:>7}\n",
            queue["QName"].as_str().unwrap_or("?"),
            c("PersPuts") + c("NonPersPuts"),
            gets,
            c("QMinDepth"),
            c("QMaxDepth"),
            qtime.map_or("-".to_string(), |qtime| qtime.to_string()),
            per_second(gets, seconds),
            c("ExpiredMsgCount"),
        ));
    }
    text
}

fn message_manager_report(qmst: &Value, seconds: f64) -> String {
    let c = |name| count(qmst, name);
    let puts = c("PersPuts") + c("NonPersPuts");
    let put_bytes = c("PersPutBytes") + c("NonPersPutBytes");
    format!(
        "Message manager (QMST)\n\
         \x20 MQOPEN {} MQCLOSE {} MQPUT {} MQPUT1 {} MQGET {} MQINQ {} MQSET {} MQCMIT {} MQBACK {} MQSTAT {}\n\
         \x20 failed: MQOPEN {} MQPUT {} MQPUT1 {} MQGET {} MQCMIT {}\n\
         \x20 messages put {puts} ({} persistent, {} non-persistent), {:.1}/s, average {} bytes\n\
         \x20 MQGET: {} get-next, {} get-specific, {} browses, {:.1}/s\n\
         \x20 connections: {} MQCONN, {} MQDISC\n",
        c("Open"),
        c("Close"),
        c("Put"),
        c("Put1"),
        c("Get"),
        c("Inq"),
        c("Set"),
        c("Commit"),
        c("Backout"),
        c("Status"),
        c("Open_Failed"),
        c("Put_Failed"),
        c("Put1_Failed"),
        c("Get_Failed"),
        c("Commit_Failed"),
        c("PersPuts"),
        c("NonPersPuts"),
        per_second(puts, seconds),
        put_bytes.checked_div(puts).unwrap_or(0),
        c("Get_Next"),
        c("Get_Specific"),
        c("Browse"),
        per_second(c("Get"), seconds),
        c("Conn"),
        c("Disc"),
    )
}

/// MP16's figures for one buffer pool's interval.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferPoolFigures {
    /// 1 − RIO/GETP: the share of get-page requests found in the pool.
    pub hit_ratio: Option<f64>,
    /// CBSL/NBUF as a percentage.
    pub stealable_low_percent: Option<f64>,
    /// TPW/WIO.
    pub pages_per_write_io: Option<f64>,
    /// (RIO + WIO) per second.
    pub page_set_ios_per_second: f64,
    /// MP16's rules that the interval breaks.
    pub advice: Vec<String>,
}

pub fn buffer_pool_figures(qpst: &Value, seconds: f64) -> BufferPoolFigures {
    let c = |name| count(qpst, name);
    let stealable_low_percent = ratio(c("CBSL") * 100, c("NBUF"));
    let mut advice = Vec::new();
    if c("SOS") + c("STLA") + c("DMC") > 0 {
        advice.push(format!(
            "SOS {}, STLA {}, DMC {} > 0: enlarge the pool or move page sets to other pools",
            c("SOS"),
            c("STLA"),
            c("DMC")
        ));
    }
    match stealable_low_percent {
        Some(low) if low < SYNCHRONOUS_WRITE_STEALABLE_PERCENT as f64 => advice.push(format!(
            "stealable low {low:.1}% < {SYNCHRONOUS_WRITE_STEALABLE_PERCENT}%: changed pages were written synchronously"
        )),
        Some(low) if low < DEFERRED_WRITE_START_STEALABLE_PERCENT as f64 => advice.push(format!(
            "stealable low {low:.1}% < {DEFERRED_WRITE_START_STEALABLE_PERCENT}%: the deferred write process ran (size short-lived pools for HWM / 0.85)"
        )),
        _ => {}
    }
    if c("RIO") > 0 && c("TPW") > 0 && c("RIO") > 2 * c("TPW") {
        advice.push(format!(
            "RIO {} >> TPW {}: pages are read again and again (MQGET by MSGID/CORRELID, browse, selectors): a bigger pool, INDXTYPE, or separate pools",
            c("RIO"),
            c("TPW")
        ));
    }
    BufferPoolFigures {
        hit_ratio: (c("GETP") > 0).then(|| 1.0 - c("RIO").min(c("GETP")) as f64 / c("GETP") as f64),
        stealable_low_percent,
        pages_per_write_io: ratio(c("TPW"), c("WIO")),
        page_set_ios_per_second: per_second(c("RIO") + c("WIO"), seconds),
        advice,
    }
}

fn buffer_pool_report(qpst: &Value, seconds: f64) -> String {
    let c = |name| count(qpst, name);
    let figures = buffer_pool_figures(qpst, seconds);
    let mut text = format!(
        "Buffer pool {} (QPST)\n\
         \x20 #buff {} #low {} #now {} getp {} getn {} STW {} RIO {} TPW {} WIO {} IMW {} DWT {} DMC {} STL {} STLA {} SOS {}\n\
         \x20 hit ratio {}%, stealable low {}% (DWP below {DEFERRED_WRITE_START_STEALABLE_PERCENT}%, synchronous writes below {SYNCHRONOUS_WRITE_STEALABLE_PERCENT}%), {} pages per write I/O, page set I/O {:.1}/s\n",
        c("POOL"),
        c("NBUF"),
        c("CBSL"),
        c("CBS"),
        c("GETP"),
        c("GETN"),
        c("STW"),
        c("RIO"),
        c("TPW"),
        c("WIO"),
        c("IMW"),
        c("DWT"),
        c("DMC"),
        c("STL"),
        c("STLA"),
        c("SOS"),
        or_dash(figures.hit_ratio.map(|r| r * 100.0), 1),
        or_dash(figures.stealable_low_percent, 1),
        or_dash(figures.pages_per_write_io, 1),
        figures.page_set_ios_per_second,
    );
    for advice in figures.advice {
        text.push_str(&format!("  ! {advice}\n"));
    }
    text
}

/// MP16's figures for the log manager's interval.
#[derive(Clone, Debug, PartialEq)]
pub struct LogFigures {
    /// MB (2^20 bytes) written per second, per copy (copy 2: with dual logging only).
    pub megabytes_per_second: [Option<f64>; 2],
    /// Log pages (CIs) per write I/O of copy 1.
    pub pages_per_io: Option<f64>,
    /// The logger's I/O busy %: the I/O time over the interval.
    pub io_busy_percent: f64,
    /// Log bytes per force (per commit, roughly).
    pub bytes_per_force: Option<f64>,
    pub advice: Vec<String>,
}

pub fn log_figures(qjst: &Value, seconds: f64) -> LogFigures {
    let c = |name| count(qjst, name);
    let dual = qjst["Dual_Logging"].as_bool().unwrap_or(false);
    let mut advice = Vec::new();
    if c("Unavailable_Buffer_Count") > 0 {
        advice.push(format!(
            "{} waits for a log buffer (QJSTWTB should be 0): raise OUTBUFF",
            c("Unavailable_Buffer_Count")
        ));
    }
    if c("WRT_Request_Wait") > 0 {
        advice.push(format!(
            "{} log writes waited (for a buffer or a reusable active log): check OUTBUFF and that archiving keeps up",
            c("WRT_Request_Wait")
        ));
    }
    let io_busy_percent = c("IO_Busy_Time_us") as f64 / (seconds * 1e6) * 100.0;
    if io_busy_percent > 50.0 {
        advice.push(format!(
            "logger I/O busy {io_busy_percent:.0}% > 50%: MP16 plans at half the measured peak; faster log devices or striping raise the ceiling"
        ));
    }
    LogFigures {
        megabytes_per_second: [
            Some(c("Log_Bytes_1") as f64 / MEGABYTE / seconds),
            dual.then(|| c("Log_Bytes_2") as f64 / MEGABYTE / seconds),
        ],
        pages_per_io: ratio(c("Log_CI"), c("Log_Writes_1")),
        io_busy_percent,
        bytes_per_force: ratio(c("Log_Bytes_1"), c("WRT_Request_Force")),
        advice,
    }
}

fn log_report(qjst: &Value, seconds: f64) -> String {
    let c = |name| count(qjst, name);
    let figures = log_figures(qjst, seconds);
    let mut text = format!(
        "Log manager (QJST)\n\
         \x20 Write_Wait {} Write_Nowait {} Write_Force {} WTB {} Write_Susp {} BFWR {} Write_Thrsh {}\n\
         \x20 CIs_Created {} CI_Writes {} Write_Reqs {:?} Read_Active {} BSDS_Reqs {} CIs_Offload {} Checkpoints {} New logs {}\n\
         \x20 Log write rate {} MB/s copy 1, {} MB/s copy 2; {} pages per I/O; logger I/O busy {:.1}%; {} bytes per force\n",
        c("WRT_Request_Wait"),
        c("WRT_Request_NoWait"),
        c("WRT_Request_Force"),
        c("Unavailable_Buffer_Count"),
        c("Log_Request_Suspends"),
        c("Buffer_Writes"),
        c("Log_Write_Threshold"),
        c("Active_Log_CI"),
        c("Log_CI"),
        [c("Log_Writes_1"), c("Log_Writes_2")],
        c("Log_Read_Active_Log"),
        c("BSDS_Access"),
        c("CI_Offloads"),
        c("Checkpoints"),
        c("Copy1_New_Logs"),
        or_dash(figures.megabytes_per_second[0], 2),
        or_dash(figures.megabytes_per_second[1], 2),
        or_dash(figures.pages_per_io, 1),
        figures.io_busy_percent,
        or_dash(figures.bytes_per_force, 0),
    );
    text.push_str(&log_copy_table(qjst));
    for advice in figures.advice {
        text.push_str(&format!("  ! {advice}\n"));
    }
    text
}

/// MQSMF's per-copy I/O table (QJSTIO): for each copy that wrote, its one-page and
/// more-than-one-page I/Os: requests, CIs, average I/O and suspend µs, pages per I/O, longest.
fn log_copy_table(qjst: &Value) -> String {
    let mut text = String::new();
    for copy in [1, 2] {
        for (class, label) in [("1Page", "1 page"), ("NPage", ">1 page")] {
            let c = |name: &str| count(qjst, &format!("Copy{copy}_{class}_{name}"));
            let requests = c("IO_Count");
            if requests == 0 {
                continue;
            }
            text.push_str(&format!(
                "  Log {copy}, {label:<7}: requests {requests}, CIs {}, average I/O {} µs, after I/O {} µs, {:.1} pages/IO, longest {} µs\n",
                c("IO_CI"),
                c("IO_Total_Time_us") / requests,
                c("IO_Total_Suspend_Time_us") / requests,
                c("IO_CI") as f64 / requests as f64,
                c("IO_Max_Duration_us"),
            ));
        }
    }
    text
}

fn page_set_report(page_sets: &[&Value]) -> String {
    let mut text = "Page sets (QIS1)\n  PSID pool   total  unused  used% expansions\n".to_string();
    for page_set in page_sets {
        let c = |name| count(page_set, name);
        text.push_str(&format!(
            "  {:>4} {:>4} {:>7} {:>7} {:>6} {:>10}\n",
            c("Pageset"),
            c("BufferPool"),
            c("Total_Pages"),
            c("Unused_Pages"),
            or_dash(
                ratio(
                    (c("Total_Pages") - c("Unused_Pages").min(c("Total_Pages"))) * 100,
                    c("Total_Pages")
                ),
                1
            ),
            c("Expansions"),
        ));
    }
    text
}

/// The records of `intervals` as CSV, one file per record type (`QMST.csv`, ...) in
/// `directory`, as mq-smf-csv writes one per SMF section: a header of every field the
/// records of that type have (in the order they first appear: a field only some records
/// carry, such as a sender's network times, comes after the others), then a row per record.
pub fn write_csv(intervals: &[Interval], directory: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(directory)
        .map_err(|error| format!("ferrite: cannot create {}: {error}", directory.display()))?;
    let kinds: BTreeSet<String> = intervals
        .iter()
        .flat_map(|interval| &interval.records)
        .filter_map(|record| record["Record"].as_str().map(str::to_string))
        .collect();
    let mut written = Vec::new();
    for kind in kinds {
        let records: Vec<&Value> = intervals
            .iter()
            .flat_map(|interval| interval.records(&kind))
            .collect();
        let mut header: Vec<String> = Vec::new();
        for field in records
            .iter()
            .filter_map(|record| record.as_object())
            .flat_map(|fields| fields.keys())
        {
            if !header.contains(field) {
                header.push(field.clone());
            }
        }
        let mut text = header.join(",");
        text.push('\n');
        for record in records {
            let row: Vec<String> = header
                .iter()
                .map(|field| match &record[field] {
                    Value::String(text) => format!("\"{}\"", text.replace('"', "\"\"")),
                    Value::Null => String::new(),
                    other => other.to_string(),
                })
                .collect();
            text.push_str(&row.join(","));
            text.push('\n');
        }
        let path = directory.join(format!("{kind}.csv"));
        std::fs::write(&path, text)
            .map_err(|error| format!("ferrite: cannot write {}: {error}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// MP16's bad-pool example (chapter 5, "Buffer pool statistics"): the problem interval of
    /// BP0, 30 minutes.
    fn mp16_problem_interval() -> Value {
        json!({"Record": "QPST", "POOL": 0, "NBUF": 1050, "CBSL": 154, "CBS": 225,
               "GETP": 23_000_000u64, "GETN": 13000, "RIO": 310_000, "STW": 432_000, "TPW": 1938,
               "WIO": 107, "IMW": 47, "DWT": 11, "DMC": 0, "STL": 732_000, "STLA": 421_000, "SOS": 0})
    }

    #[test]
    fn mp16_bad_pool_example_is_diagnosed() {
        let figures = buffer_pool_figures(&mp16_problem_interval(), 1800.0);
        // CBSL/NBUF = 154/1050 = 14.6%, below the deferred write threshold.
        assert!((figures.stealable_low_percent.unwrap() - 14.666).abs() < 0.01);
        // 310,000 reads (and 107 writes) in 30 minutes: about 172 I/Os a second.
        assert!((figures.page_set_ios_per_second - 172.28).abs() < 0.1);
        assert!(figures.advice.iter().any(|a| a.contains("STLA 421000")));
        assert!(figures.advice.iter().any(|a| a.contains("deferred write")));
        assert!(figures.advice.iter().any(|a| a.contains("read again")));
        let previous = json!({"Record": "QPST", "POOL": 0, "NBUF": 1050, "CBSL": 300, "CBS": 308,
               "GETP": 1_800_000, "GETN": 16000, "RIO": 0, "STW": 508_000, "TPW": 940, "WIO": 59,
               "IMW": 29, "DWT": 0, "DMC": 0, "STL": 84, "STLA": 0, "SOS": 0});
        let healthy = buffer_pool_figures(&previous, 1800.0);
        assert!(healthy.advice.is_empty(), "{:?}", healthy.advice);
        assert_eq!(healthy.hit_ratio, Some(1.0));
    }

    #[test]
    fn mp16_zhyperlink_log_example_gives_its_rate() {
        // MP16's 60 s single-copy example: 14,984,701 CIs written in 168,887 write I/Os,
        // "975 MB/Sec"; 55.13 s of I/O in the 60 s: 91.9% busy.
        let qjst = json!({"Record": "QJST", "Log_CI": 14_984_701u64, "Log_Writes_1": 168_887,
            "Log_Bytes_1": 14_984_701u64 * 4096, "IO_Busy_Time_us": 55_127_071u64,
            "WRT_Request_Force": 196, "Dual_Logging": false});
        let figures = log_figures(&qjst, 60.0);
        let rate = figures.megabytes_per_second[0].unwrap();
        assert!((rate - 975.5).abs() < 1.0, "{rate}");
        assert_eq!(figures.megabytes_per_second[1], None);
        assert!((figures.pages_per_io.unwrap() - 88.7).abs() < 0.1);
        assert!((figures.io_busy_percent - 91.9).abs() < 0.1);
        assert!(figures.advice.iter().any(|a| a.contains("half")));
        // The same interval's per-copy I/O table (MQSMF: "Log 1, 1 page 21218, 21218, 29"
        // and "Log 1,>1 page 147669, 14963483, 370": I/O times 629,572 and 54,497,499 µs).
        let mut qjst = qjst;
        let fields = qjst.as_object_mut().unwrap();
        for (class, count, cis, time) in [
            ("1Page", 21_218u64, 21_218u64, 629_572u64),
            ("NPage", 147_669, 14_963_483, 54_497_499),
        ] {
            fields.insert(format!("Copy1_{class}_IO_Count"), json!(count));
            fields.insert(format!("Copy1_{class}_IO_CI"), json!(cis));
            fields.insert(format!("Copy1_{class}_IO_Total_Time_us"), json!(time));
        }
        let table = log_copy_table(&qjst);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 2, "copy 2 wrote nothing: {table}");
        assert!(
            lines[0].contains("requests 21218, CIs 21218, average I/O 29 µs"),
            "{table}"
        );
        assert!(lines[1].contains("average I/O 369 µs"), "{table}");
        assert!(lines[1].contains("101.3 pages/IO"), "{table}");
    }

    #[test]
    fn intervals_are_grouped_and_reported_and_written_as_csv() {
        let directory = tempfile::tempdir().unwrap();
        let header = |start: u64, end: u64| {
            json!({"QMgr": "QM1", "Interval_Start_ms": start, "Interval_End_ms": end,
                   "Interval_Start": "a", "Interval_End": "b"})
        };
        let mut lines = String::new();
        for (start, end, puts) in [(0u64, 60_000u64, 6u64), (60_000, 120_000, 12)] {
            let mut qmst = header(start, end);
            qmst["Record"] = json!("QMST");
            qmst["PersPuts"] = json!(puts);
            let mut qpst = mp16_problem_interval();
            qpst.as_object_mut()
                .unwrap()
                .extend(header(start, end).as_object().unwrap().clone());
            lines.push_str(&format!("{qmst}\n{qpst}\n"));
        }
        let mut queue = header(60_000, 120_000);
        queue.as_object_mut().unwrap().extend(
            json!({"Record": "STATISTICS_Q", "QName": "APP.Q", "PersPuts": 30, "NonPersPuts": 10,
                   "PersGets": 30, "NonPersGets": 30, "QMinDepth": 0, "QMaxDepth": 7,
                   "PersAvgQTime_us": 100, "NonPersAvgQTime_us": 40, "ExpiredMsgCount": 0})
            .as_object()
            .unwrap()
            .clone(),
        );
        lines.push_str(&format!("{queue}\n"));
        for (name, net_time) in [("TO.QM2", Some(250)), ("FROM.QM2", None)] {
            let mut channel = header(60_000, 120_000);
            let fields = channel.as_object_mut().unwrap();
            fields.extend(
                json!({"Record": "STATISTICS_CHL", "ChannelName": name, "ChannelType": "SDR",
                       "RemoteQmgr": "QM2", "MsgCount": 120, "TotalBytes": 60_000,
                       "FullBatchCount": 2, "IncmplBatchCount": 1, "AverageBatchSize": 40})
                .as_object()
                .unwrap()
                .clone(),
            );
            if let Some(net_time) = net_time {
                fields.insert("NetTimeAvg_us".into(), json!(net_time));
            }
            lines.push_str(&format!("{channel}\n"));
        }
        let mut task = header(60_000, 120_000);
        task.as_object_mut().unwrap().extend(
            json!({"Record": "QCTADP", "Task": 0, "Requests": 78284, "Busy_Time_us": 15_840_000,
                   "Busy_Pct": 26.4, "Avg_ET_us": 202, "CPU_Time_us": 3_943_509,
                   "CPU_Pct": 6.6, "Avg_CPU_us": 50})
            .as_object()
            .unwrap()
            .clone(),
        );
        lines.push_str(&format!("{task}\n"));
        std::fs::write(directory.path().join(STATISTICS_FILE), lines).unwrap();
        let intervals = read_intervals(directory.path()).unwrap();
        assert_eq!(intervals.len(), 2);
        assert_eq!(intervals[1].records.len(), 6);
        let text = report(&intervals[1]);
        assert!(text.contains("messages put 12 (12 persistent"), "{text}");
        assert!(text.contains("0.2/s"), "{text}");
        assert!(text.contains("Buffer pool 0 (QPST)"), "{text}");
        let queue_line = text
            .lines()
            .find(|line| line.trim_start().starts_with("APP.Q"))
            .unwrap_or_else(|| panic!("the queue's line in {text}"));
        let columns: Vec<&str> = queue_line.split_whitespace().collect();
        // 40 puts, 60 gets, depth 0-7, (30 x 100 + 30 x 40) / 60 = 70 µs, 1.0 gets/s.
        assert_eq!(columns, ["APP.Q", "40", "60", "0", "7", "70", "1.0", "0"]);
        let channel_columns = |name: &str| -> Vec<String> {
            let line = text
                .lines()
                .find(|line| line.trim_start().starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("{name}'s line in {text}"));
            line.split_whitespace().map(str::to_string).collect()
        };
        // 120 messages in 60 s: 2.0/s.
        assert_eq!(
            channel_columns("TO.QM2"),
            ["TO.QM2", "SDR", "QM2", "120", "2.0", "60000", "2", "1", "40", "250"]
        );
        assert_eq!(channel_columns("FROM.QM2").last().unwrap(), "-");
        // MP16's SSL task example figures, as MQSMF prints them.
        let task_line = text
            .lines()
            .find(|line| line.trim_start().starts_with("adapter 0"))
            .unwrap_or_else(|| panic!("the adapter's line in {text}"));
        let columns: Vec<&str> = task_line.split_whitespace().collect();
        assert_eq!(
            columns,
            ["adapter", "0", "78284", "26.4", "3.943509", "6.6", "50", "202"]
        );
        let csv_directory = directory.path().join("csv");
        let written = write_csv(&intervals, &csv_directory).unwrap();
        assert_eq!(
            written.len(),
            5,
            "QMST, QPST, STATISTICS_Q, STATISTICS_CHL and QCTADP"
        );
        let channels = std::fs::read_to_string(csv_directory.join("STATISTICS_CHL.csv")).unwrap();
        let mut rows = channels.lines();
        assert!(
            rows.next().unwrap().ends_with(",NetTimeAvg_us"),
            "{channels}"
        );
        assert!(rows.next().unwrap().ends_with(",250"), "{channels}");
        assert!(rows.next().unwrap().ends_with(','), "{channels}");
        let qmst = std::fs::read_to_string(csv_directory.join("QMST.csv")).unwrap();
        assert_eq!(qmst.lines().count(), 3, "a header and two rows:\n{qmst}");
        std::fs::write(directory.path().join(STATISTICS_FILE), "not json\n").unwrap();
        assert!(read_intervals(directory.path())
            .unwrap_err()
            .contains("line 1"));
    }
}
