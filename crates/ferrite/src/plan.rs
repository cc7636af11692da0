//! `ferrite plan`: capacity planning with MP16's model ("Capacity Planning and Tuning for IBM MQ
//! for z/OS"), for a described workload or for what a queue manager's statistics measured.
//!
//! The model, section by section (MP16's section names in the printed reasoning):
//! - **Log bytes per message** ("How much log space does my message use?"): a persistent put is
//!   the message plus a fixed cost and a cost per commit shared by the unit of work's
//!   messages, plus (MQ) 150 bytes per page beyond the first; a get is a fixed cost plus a
//!   share of its commit. Two cost models: `mp16` fits MP16's measured MQ V9 table exactly at
//!   1 and 10 messages per commit (1,060 / 751 bytes of overhead per put, 481 / 186 per get);
//!   `ferrite` is this build's own, as `ferrite-bench log-bytes` measures it (BENCHMARKS.md).
//!   From a queue manager's statistics the measured figure (log bytes written per persistent
//!   message) replaces both.
//! - **Log rate and maximum throughput**: log MB/s = messages/s × log bytes per message; the
//!   ceiling is the log device's sustainable rate over the log bytes per message, and MP16
//!   plans at no more than half of the measured peak.
//! - **Active log size and number**: one active log should take at least 30 minutes to fill at
//!   peak (4 GiB at most), and there should be at least 4.
//! - **Archive rate**: every active log filled is offloaded: log MB/hour per archive copy.
//! - **Checkpoints and LOGLOAD, restart time**: a checkpoint is taken every LOGLOAD log records
//!   (or at each active log switch); restart reads the log from the page sets' recovery RBA,
//!   within two checkpoints, and reads back up to a page per 4 KiB of it (about 140 µs a page,
//!   MP16's forward recovery figure); the queues' messages are then read from the page sets,
//!   a page each. The LOGLOAD that meets a restart goal follows.
//! - **Page set and buffer pool size** (MP16's page set capacity table): pages per message by
//!   size, the page set for the depth with 10% to spare (expansion starts at 90%), and a
//!   buffer pool that keeps the depth with 15% of its buffers stealable (the deferred write
//!   threshold).
//! - **The first bottleneck**: the resource the workload uses most of, against its limit.

use ferrite_storage::config::{QueueManagerConfig, PAGE_SET_PAGES_MAX};

/// MB as MP16 counts log rates: 1,048,576 bytes.
const MEGABYTE: f64 = 1_048_576.0;
/// MP16: one active log should take at least this long to fill at peak.
pub const ACTIVE_LOG_FILL_MINUTES_MIN: f64 = 30.0;
/// MP16: at least four active logs.
pub const ACTIVE_LOGS_MIN: u32 = 4;
/// The largest active log (MQ for z/OS: 4 GB; Ferrite's `active_log_size_mib` limit).
pub const ACTIVE_LOG_SIZE_MIB_MAX: u32 = 4096;
/// The smallest active log planned (MP16: logs that are too small fill often and cost
/// performance; Ferrite's default size).
pub const ACTIVE_LOG_SIZE_MIB_MIN: u32 = 64;
/// MP16: plan the log at no more than half of its measured peak rate.
pub const LOG_PLANNING_SHARE: f64 = 0.5;
/// MP16's forward recovery page read (DS8900F): about 140 µs a 4 KiB page.
pub const PAGE_READ_MICROSECONDS: f64 = 140.0;
/// LOGLOAD's range.
pub const LOGLOAD_MIN: u64 = 200;
pub const LOGLOAD_MAX: u64 = 16_000_000;
/// MP16: the best cost and throughput are at LOGLOAD 4 million or more.
pub const LOGLOAD_EFFICIENT: u64 = 4_000_000;
/// The deferred write process starts below 15% stealable buffers.
pub const STEALABLE_SHARE_MIN: f64 = 0.15;
/// A page set starts expanding at 90% full.
pub const PAGE_SET_FULL_SHARE: f64 = 0.9;

/// Whose costs the plan uses for log bytes and pages per message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CostModel {
    /// This build of Ferrite (BENCHMARKS.md "Log bytes per message", "Pages per message",
    /// measured on the engine's descriptor, plus [`MQI_DESCRIPTOR_EXTENSION_BYTES`] for the
    /// MQMD fields an application's message carries besides).
    Ferrite,
    /// IBM MQ for z/OS V9 as MP16 measured it.
    Mp16,
}

/// The workload to plan for.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// Messages put (and got) per second at peak.
    pub messages_per_second: f64,
    /// User data bytes per message.
    pub message_bytes: u64,
    pub persistent: bool,
    /// Messages per unit of work (1: each put and get committed alone).
    pub messages_per_commit: u32,
    /// Messages held on queues at the deepest point.
    pub depth: u64,
    /// Log bytes per message measured by a queue manager's statistics, replacing the model's.
    pub measured_log_bytes: Option<f64>,
}

/// What the plan is for and what it may use.
#[derive(Clone, Debug, PartialEq)]
pub struct Resources {
    /// The log device's sustainable write rate, MB/s (measure it: `ferrite-bench` limits).
    pub log_device_mb_per_second: f64,
    /// The log read rate at restart, MB/s.
    pub log_read_mb_per_second: f64,
    /// The longest acceptable restart, seconds.
    pub restart_goal_seconds: f64,
    pub dual_logging: bool,
    /// Archive copies written (0: no archiving planned).
    pub archive_copies: u32,
}

impl Default for Resources {
    fn default() -> Resources {
        Resources {
            log_device_mb_per_second: 100.0,
            log_read_mb_per_second: 200.0,
            restart_goal_seconds: 120.0,
            dual_logging: false,
            archive_copies: 1,
        }
    }
}

/// The descriptor extension an MQPUT with a default MQMD stores besides the engine's own
/// fields (the queue manager's context: user, application, put date; the format): measured
/// by `measured` below as the log bytes an MQI put writes beyond `ferrite-bench log-bytes`'s
/// engine puts, the same at every size.
pub const MQI_DESCRIPTOR_EXTENSION_BYTES: u64 = 32;

/// Pages a message of `bytes` occupies (a fraction when several share a page).
pub fn pages_per_message(model: CostModel, bytes: u64) -> f64 {
    match model {
        // MQ V7.0.1+ as shipped: a message starts a new page; 3,635 bytes in the first, 4,048
        // in each further page.
        CostModel::Mp16 => {
            if bytes <= 3635 {
                1.0
            } else {
                1.0 + (bytes - 3635).div_ceil(4048) as f64
            }
        }
        // Ferrite: images (message + 36-byte descriptor) share pages when several fit; a
        // larger one starts a new page (data_manager::data_page::pages_for_image).
        CostModel::Ferrite => {
            use ferrite_storage::data_manager::data_page::{pages_for_image, SLOT_HEADER_SIZE};
            const FERRITE_DESCRIPTOR_BYTES: u64 = 36 + MQI_DESCRIPTOR_EXTENSION_BYTES;
            const PAGE_SPACE: u64 = 4064;
            let image = bytes + FERRITE_DESCRIPTOR_BYTES;
            let per_page = PAGE_SPACE / (image + SLOT_HEADER_SIZE as u64);
            if per_page >= 2 {
                1.0 / per_page as f64
            } else {
                pages_for_image(image as usize) as f64
            }
        }
    }
}

/// Log bytes of one persistent MQPUT in a unit of work of `per_commit` messages.
pub fn log_bytes_put(model: CostModel, bytes: u64, per_commit: u32) -> f64 {
    let per_commit = f64::from(per_commit.max(1));
    match model {
        // 716.7 + 343.3/u: 1,060 at u = 1, 751 at u = 10 (MP16 ch1 table); +150 a page.
        CostModel::Mp16 => {
            let extra_pages = pages_per_message(model, bytes) - 1.0;
            bytes as f64 + 716.7 + 343.3 / per_commit + 150.0 * extra_pages
        }
        // 58 + 10/u: 68 at u = 1, 59 at u = 10 (BENCHMARKS.md, the engine's descriptor),
        // plus the MQMD fields an application's MQPUT stores besides.
        CostModel::Ferrite => {
            bytes as f64 + 58.0 + MQI_DESCRIPTOR_EXTENSION_BYTES as f64 + 10.0 / per_commit
        }
    }
}

/// Log bytes of one persistent MQGET in a unit of work of `per_commit` messages.
pub fn log_bytes_get(model: CostModel, bytes: u64, per_commit: u32) -> f64 {
    let per_commit = f64::from(per_commit.max(1));
    match model {
        // 153.2 + 327.8/u: 481 at u = 1, 186 at u = 10; above 10 KB rising to 1,300 at 100 KB.
        CostModel::Mp16 => {
            let large = if bytes > 10_240 {
                800.0 * ((bytes - 10_240) as f64 / 92_160.0).min(1.0)
            } else {
                0.0
            };
            153.2 + 327.8 / per_commit + large
        }
        // 19 + 10/u: 29 at u = 1, 20 at u = 10.
        CostModel::Ferrite => 19.0 + 10.0 / per_commit,
    }
}

/// MP16's capacity ceiling: messages a second a log device of `mb_per_second` sustains.
pub fn maximum_rate(mb_per_second: f64, log_bytes_per_message: f64) -> f64 {
    mb_per_second * MEGABYTE / log_bytes_per_message
}

/// Seconds to read `pages` pages at MP16's forward recovery rate.
pub fn page_read_seconds(pages: f64) -> f64 {
    pages * PAGE_READ_MICROSECONDS / 1e6
}

/// The plan's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    pub log_bytes_per_message: f64,
    pub log_mb_per_second: f64,
    pub log_mb_per_hour: f64,
    /// The share of the log device's rate used.
    pub log_utilisation: f64,
    /// Messages a second at MP16's planning share of the device.
    pub planned_maximum_rate: f64,
    pub active_log_size_mib: u32,
    pub active_logs: u32,
    pub archive_mb_per_hour: f64,
    /// Log records per message (put and get, with their commits).
    pub log_records_per_message: f64,
    /// The highest LOGLOAD that meets the restart goal.
    pub logload_for_goal: u64,
    pub pages_per_message: f64,
    /// Restart: seconds to read the queues' messages at the depth.
    pub restart_depth_seconds: f64,
    pub page_set_pages: u64,
    pub page_sets: u64,
    pub buffers: u64,
    /// The resource closest to its limit, and how close (1.0 = at it).
    pub bottleneck: (String, f64),
}

/// A plan: its figures and its reasoning, section by section.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub figures: Figures,
    pub sections: Vec<(String, Vec<String>)>,
}

/// Restart seconds for a checkpoint interval of `interval_bytes` of log: the log from the page
/// sets' recovery RBA (up to two checkpoints back) read, and a page read per 4 KiB of it.
pub fn restart_log_seconds(interval_bytes: f64, resources: &Resources) -> f64 {
    let range = 2.0 * interval_bytes;
    range / (resources.log_read_mb_per_second * MEGABYTE) + page_read_seconds(range / 4096.0)
}

/// Plan `workload` on `resources` with `model`'s costs.
pub fn plan(workload: &Workload, resources: &Resources, model: CostModel) -> Plan {
    assert!(workload.messages_per_second >= 0.0 && resources.log_device_mb_per_second > 0.0);
    let mut sections = Vec::new();
    let (log_bytes, mut text) = log_bytes_section(workload, model);
    sections.push((
        "Log bytes per message".to_string(),
        std::mem::take(&mut text),
    ));
    let rate = workload.messages_per_second;
    let log_mb_per_second = rate * log_bytes / MEGABYTE;
    let copies = if resources.dual_logging { 2.0 } else { 1.0 };
    let log_utilisation = log_mb_per_second / resources.log_device_mb_per_second;
    let planned_maximum_rate = if log_bytes > 0.0 {
        maximum_rate(
            resources.log_device_mb_per_second * LOG_PLANNING_SHARE,
            log_bytes,
        )
    } else {
        f64::INFINITY
    };
    sections.push((
        "Log rate and maximum throughput".to_string(),
        vec![
            format!(
                "{rate:.0} messages/s x {log_bytes:.0} bytes = {log_mb_per_second:.2} MB/s ({:.0} MB/hour) per log copy{}",
                log_mb_per_second * 3600.0,
                if resources.dual_logging { ", written to both copies" } else { "" }
            ),
            format!(
                "the log device sustains {:.0} MB/s (--log-mb-per-second): {:.0}% used; MP16 plans at no more than {:.0}% of the peak, {} messages/s",
                resources.log_device_mb_per_second,
                log_utilisation * 100.0,
                LOG_PLANNING_SHARE * 100.0,
                if planned_maximum_rate.is_finite() { format!("{planned_maximum_rate:.0}") } else { "no log limit on".to_string() }
            ),
        ],
    ));
    // Active logs: 30 minutes to fill one at peak.
    let fill_bytes = log_mb_per_second * MEGABYTE * ACTIVE_LOG_FILL_MINUTES_MIN * 60.0;
    let active_log_size_mib = ((fill_bytes / MEGABYTE).ceil() as u32)
        .clamp(ACTIVE_LOG_SIZE_MIB_MIN, ACTIVE_LOG_SIZE_MIB_MAX);
    let active_logs = ACTIVE_LOGS_MIN;
    sections.push((
        "Active log size and number".to_string(),
        vec![format!(
            "30 minutes at {log_mb_per_second:.2} MB/s fill {:.0} MiB: active logs of {active_log_size_mib} MiB{}, at least {active_logs} of them (more when archiving cannot keep up)",
            fill_bytes / MEGABYTE,
            if fill_bytes / MEGABYTE > f64::from(ACTIVE_LOG_SIZE_MIB_MAX) { " (the largest; more logs instead)" } else { "" }
        )],
    ));
    let archive_mb_per_hour = log_mb_per_second * 3600.0 * f64::from(resources.archive_copies);
    sections.push((
        "Archive rate".to_string(),
        vec![format!(
            "{archive_mb_per_hour:.0} MB/hour archived ({} archive cop{}); the device writes {:.0} MB per MB logged (active copies, archive copies) and reads 1 to offload",
            resources.archive_copies,
            if resources.archive_copies == 1 { "y" } else { "ies" },
            copies + f64::from(resources.archive_copies)
        )],
    ));
    let pages = pages_per_message(model, workload.message_bytes);
    let depth_pages = (workload.depth as f64 * pages).ceil();
    let restart_depth_seconds = page_read_seconds(depth_pages);
    let (records, logload_for_goal, restart_text) =
        restart_section(workload, resources, log_bytes, restart_depth_seconds);
    sections.push((
        "Checkpoints and LOGLOAD, restart time".to_string(),
        restart_text,
    ));
    let page_set_pages = (depth_pages / PAGE_SET_FULL_SHARE).ceil() as u64;
    let page_sets = page_set_pages
        .div_ceil(u64::from(PAGE_SET_PAGES_MAX))
        .max(1);
    let buffers = ((depth_pages / (1.0 - STEALABLE_SHARE_MIN)).ceil() as u64).max(1000);
    sections.push((
        "Page set and buffer pool size".to_string(),
        vec![
            format!(
                "{} bytes a message: {pages:.3} pages; {} messages deep: {depth_pages:.0} pages",
                workload.message_bytes, workload.depth
            ),
            format!(
                "page set: {page_set_pages} pages ({:.0} MiB) so that the depth stays under the 90% expansion threshold{}",
                page_set_pages as f64 * 4096.0 / MEGABYTE,
                if page_sets > 1 { format!(", over {page_sets} page sets of at most 64 GiB") } else { String::new() }
            ),
            format!(
                "buffer pool: {buffers} buffers ({:.0} MiB) keep the depth with 15% stealable (no deferred writes, no page set reads); for long-lived messages that do not fit, expect RIO = TPW over the cycle, or size the pool at 105% of the page set",
                buffers as f64 * 4096.0 / MEGABYTE
            ),
        ],
    ));
    let bottleneck = bottleneck(
        log_utilisation,
        restart_depth_seconds,
        resources,
        page_sets,
        workload.persistent,
    );
    sections.push((
        "The first bottleneck".to_string(),
        vec![format!(
            "{} ({:.0}% of its limit)",
            bottleneck.0,
            bottleneck.1 * 100.0
        )],
    ));
    Plan {
        figures: Figures {
            log_bytes_per_message: log_bytes,
            log_mb_per_second,
            log_mb_per_hour: log_mb_per_second * 3600.0,
            log_utilisation,
            planned_maximum_rate,
            active_log_size_mib,
            active_logs,
            archive_mb_per_hour,
            log_records_per_message: records,
            logload_for_goal,
            pages_per_message: pages,
            restart_depth_seconds,
            page_set_pages,
            page_sets,
            buffers,
            bottleneck,
        },
        sections,
    }
}

fn log_bytes_section(workload: &Workload, model: CostModel) -> (f64, Vec<String>) {
    if !workload.persistent {
        return (
            0.0,
            vec![
                "non-persistent messages are not logged: no log bandwidth, no restart log"
                    .to_string(),
            ],
        );
    }
    if let Some(measured) = workload.measured_log_bytes {
        return (
            measured,
            vec![format!("measured: {measured:.0} log bytes written per persistent message (QJST Log_Bytes_1 / QMST PersPuts)")],
        );
    }
    let put = log_bytes_put(model, workload.message_bytes, workload.messages_per_commit);
    let get = log_bytes_get(model, workload.message_bytes, workload.messages_per_commit);
    (
        put + get,
        vec![format!(
            "{} model, {} bytes, {} message(s) per commit: MQPUT {put:.0} + MQGET {get:.0} = {:.0} log bytes per message",
            match model {
                CostModel::Ferrite => "Ferrite's",
                CostModel::Mp16 => "MP16's (MQ for z/OS V9)",
            },
            workload.message_bytes,
            workload.messages_per_commit,
            put + get
        )],
    )
}

/// Log records per persistent message (its PUT and GET records and their share of two
/// commits), the LOGLOAD that meets the restart goal, and the section's reasoning.
fn restart_section(
    workload: &Workload,
    resources: &Resources,
    log_bytes: f64,
    restart_depth_seconds: f64,
) -> (f64, u64, Vec<String>) {
    let records = if workload.persistent {
        2.0 + 2.0 / f64::from(workload.messages_per_commit.max(1))
    } else {
        0.0
    };
    let mut text = vec![format!(
        "reading the queues' messages at restart: {restart_depth_seconds:.1} s ({PAGE_READ_MICROSECONDS:.0} us a page)"
    )];
    if records == 0.0 {
        text.push("no log records: LOGLOAD does not bound this workload's restart".to_string());
        return (0.0, LOGLOAD_MAX, text);
    }
    let bytes_per_record = log_bytes / records;
    let budget = resources.restart_goal_seconds - restart_depth_seconds;
    let per_interval_byte = restart_log_seconds(1.0, resources);
    let logload = if budget <= 0.0 {
        LOGLOAD_MIN
    } else {
        ((budget / per_interval_byte / bytes_per_record) as u64).clamp(LOGLOAD_MIN, LOGLOAD_MAX)
    };
    let interval_seconds = logload as f64 / (records * workload.messages_per_second.max(1e-9));
    text.push(format!(
        "{records:.1} log records per message ({bytes_per_record:.0} bytes each): LOGLOAD {logload} keeps the restart within {:.0} s (the log from two checkpoints back read at {:.0} MB/s, and a page read per 4 KiB of it); a checkpoint every {:.0} s",
        resources.restart_goal_seconds, resources.log_read_mb_per_second, interval_seconds
    ));
    if budget <= 0.0 {
        text.push(format!(
            "the depth alone takes longer than the {:.0} s goal: fewer messages on the queues, or a longer goal",
            resources.restart_goal_seconds
        ));
    } else if logload < LOGLOAD_EFFICIENT {
        text.push(format!(
            "MP16: LOGLOAD of {LOGLOAD_EFFICIENT} or more costs least; the restart goal needs less"
        ));
    }
    (records, logload, text)
}

fn bottleneck(
    log_utilisation: f64,
    restart_depth_seconds: f64,
    resources: &Resources,
    page_sets: u64,
    persistent: bool,
) -> (String, f64) {
    let mut candidates = vec![(
        "restart time of the depth against the goal".to_string(),
        restart_depth_seconds / resources.restart_goal_seconds,
    )];
    if persistent {
        candidates.push((
            "log bandwidth (against the device's rate; MP16 plans at half)".to_string(),
            log_utilisation / LOG_PLANNING_SHARE,
        ));
    } else {
        candidates.push((
            "CPU (non-persistent messages: measure with ferrite-bench)".to_string(),
            0.0,
        ));
    }
    candidates.push((
        "page set size (64 GiB each)".to_string(),
        page_sets as f64 / 100.0,
    ));
    candidates
        .into_iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("candidates")
}

/// One finding of `--check`: what the configuration has against what the plan needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub ok: bool,
    pub text: String,
}

/// Compare `config` with `plan` (`ferrite plan QM --check`): active log size and count,
/// LOGLOAD against the restart goal, the buffer pool of the application page sets.
pub fn check(config: &QueueManagerConfig, plan: &Plan) -> Vec<Finding> {
    let figures = &plan.figures;
    let log = &config.log;
    let mut findings = vec![
        Finding {
            ok: log.active_log_size_mib >= figures.active_log_size_mib,
            text: format!(
                "active log size {} MiB (plan: {} MiB, 30 minutes at peak)",
                log.active_log_size_mib, figures.active_log_size_mib
            ),
        },
        Finding {
            ok: log.active_log_count >= figures.active_logs,
            text: format!(
                "active logs {} (plan: at least {})",
                log.active_log_count, figures.active_logs
            ),
        },
        Finding {
            ok: config.system.logload <= figures.logload_for_goal,
            text: format!(
                "LOGLOAD {} (plan: at most {} for the restart goal)",
                config.system.logload, figures.logload_for_goal
            ),
        },
    ];
    // The pools of the application page sets (all but page set 0).
    let pools: std::collections::BTreeSet<u8> = config
        .page_sets
        .iter()
        .filter(|page_set| page_set.id != 0)
        .map(|page_set| page_set.buffer_pool)
        .collect();
    let largest = config
        .buffer_pools
        .iter()
        .filter(|pool| pools.contains(&pool.id))
        .map(|pool| u64::from(pool.buffers))
        .max()
        .unwrap_or(0);
    findings.push(Finding {
        ok: largest >= figures.buffers,
        text: format!(
            "largest application buffer pool {largest} buffers (plan: {} for the depth)",
            figures.buffers
        ),
    });
    findings
}

/// The plan as text: each section's reasoning under MP16's section name.
pub fn render(plan: &Plan) -> String {
    let mut text = String::new();
    for (title, lines) in &plan.sections {
        text.push_str(title);
        text.push('\n');
        for line in lines {
            text.push_str("  ");
            text.push_str(line);
            text.push('\n');
        }
    }
    text
}

/// The workload a statistics interval measured: messages put per second, their average size,
/// persistent if most were, messages per commit, the depth from the application page sets'
/// used pages, and the log bytes written per persistent message.
pub fn measured_workload(
    interval: &crate::statistics::Interval,
    model: CostModel,
) -> Result<Workload, String> {
    use crate::statistics::count;
    let qmst = interval
        .record("QMST")
        .ok_or("the interval has no QMST record")?;
    let persistent_puts = count(qmst, "PersPuts");
    let puts = persistent_puts + count(qmst, "NonPersPuts");
    if puts == 0 {
        return Err(
            "the interval has no puts to plan from: choose a busier one (--interval)".to_string(),
        );
    }
    let bytes = (count(qmst, "PersPutBytes") + count(qmst, "NonPersPutBytes")) / puts;
    let gets = count(qmst, "Get").saturating_sub(count(qmst, "Browse") + count(qmst, "Get_Failed"));
    let qjst = interval.record("QJST");
    // A persistent put or get commits either in a unit of work (MQCMIT) or alone: each forces
    // the log once, so the forces count the commits of both kinds.
    let forces = qjst.map_or(0, |qjst| count(qjst, "WRT_Request_Force"));
    let commits = if persistent_puts > 0 {
        forces.max(count(qmst, "Commit")).max(1)
    } else {
        count(qmst, "Commit").max(1)
    };
    let used_pages: u64 = interval
        .records("QIS1")
        .filter(|page_set| count(page_set, "Pageset") != 0)
        .map(|page_set| {
            count(page_set, "Total_Pages").saturating_sub(count(page_set, "Unused_Pages"))
        })
        .sum();
    let log_bytes = qjst.map_or(0, |qjst| count(qjst, "Log_Bytes_1"));
    Ok(Workload {
        messages_per_second: puts as f64 / interval.seconds(),
        message_bytes: bytes,
        persistent: persistent_puts * 2 >= puts,
        // Puts and gets both commit: the calls per force.
        messages_per_commit: ((puts + gets) / commits).clamp(1, 10_000) as u32,
        depth: (used_pages as f64 / pages_per_message(model, bytes)) as u64,
        measured_log_bytes: (persistent_puts > 0)
            .then(|| log_bytes as f64 / persistent_puts as f64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn within(value: f64, expected: f64, share: f64) -> bool {
        (value - expected).abs() <= expected * share
    }

    #[test]
    fn mp16_log_bytes_table_is_reproduced() {
        // MP16 ch1 "log bytes per persistent message", local queues.
        for (bytes, put_commit, put10, get_commit, get10) in [
            (0u64, 1057.0, 751.0, 481.0, 186.0),
            (1024, 2088.0, 1789.0, 492.0, 178.0),
            (4096, 5331.0, 5052.0, 527.0, 192.0),
        ] {
            let model = CostModel::Mp16;
            assert!(
                within(log_bytes_put(model, bytes, 1), put_commit, 0.01),
                "{bytes}"
            );
            assert!(
                within(log_bytes_put(model, bytes, 10), put10, 0.03),
                "{bytes}"
            );
            assert!(
                within(log_bytes_get(model, bytes, 1), get_commit, 0.1),
                "{bytes}"
            );
            assert!(
                within(log_bytes_get(model, bytes, 10), get10, 0.05),
                "{bytes}"
            );
        }
    }

    #[test]
    fn mp16_request_reply_example_logs_9_mb_a_second() {
        // 1000 tx/s, 1 KB request put out of syncpoint and got with a commit, 5 KB reply put
        // with a commit and got out of syncpoint: 9,550 bytes a transaction, 9.11 MB/s.
        let model = CostModel::Mp16;
        let per_transaction = log_bytes_put(model, 1024, 1)
            + log_bytes_get(model, 1024, 1)
            + log_bytes_put(model, 5120, 1)
            + log_bytes_get(model, 5120, 1);
        assert!(within(per_transaction, 9550.0, 0.03), "{per_transaction}");
        assert!(within(1000.0 * per_transaction / MEGABYTE, 9.11, 0.03));
    }

    #[test]
    fn mp16_capacity_and_log_rate_examples() {
        // 112 MB/s over 2,300 bytes a message: 51,061 persistent messages a second.
        assert!(within(maximum_rate(112.0, 2300.0), 51_061.0, 0.001));
        // 100 messages/s of 1 KB with 1.3 KB of overhead: about 800 MB an hour.
        let workload = Workload {
            messages_per_second: 100.0,
            message_bytes: 1000,
            persistent: true,
            messages_per_commit: 1,
            depth: 0,
            measured_log_bytes: Some(2300.0),
        };
        let plan = plan(&workload, &Resources::default(), CostModel::Mp16);
        assert!(
            within(plan.figures.log_mb_per_hour, 790.0, 0.02),
            "{}",
            plan.figures.log_mb_per_hour
        );
    }

    #[test]
    fn mp16_page_set_capacity_table() {
        let model = CostModel::Mp16;
        for (bytes, pages) in [
            (0, 1.0),
            (3635, 1.0),
            (3636, 2.0),
            (7683, 2.0),
            (7684, 3.0),
            (32_000, 9.0),
            (100_000, 25.0),
            (1_000_000, 248.0),
        ] {
            assert_eq!(pages_per_message(model, bytes), pages, "{bytes}");
        }
        // Ferrite's own layout (BENCHMARKS.md "Pages per message", the engine's descriptor)
        // for an MQI message, whose descriptor is MQI_DESCRIPTOR_EXTENSION_BYTES longer.
        let ferrite = CostModel::Ferrite;
        for (bytes, pages) in [
            (1000, 1.0 / 3.0),
            (500, 1.0 / 6.0),
            (3968, 1.0),
            (4000, 2.0),
            (4036, 2.0),
            (10_000, 3.0),
            (100_000, 25.0),
            (1_000_000, 247.0),
        ] {
            assert!(
                within(pages_per_message(ferrite, bytes), pages, 0.001),
                "{bytes}"
            );
        }
    }

    #[test]
    fn mp16_index_rebuild_restart_example() {
        // 8 million 100-byte messages, 8 a page: about a million page reads, 147 s measured.
        assert!(within(page_read_seconds(1_000_000.0), 147.0, 0.06));
    }

    #[test]
    fn plan_sizes_logs_pools_and_names_the_bottleneck() {
        let workload = Workload {
            messages_per_second: 2000.0,
            message_bytes: 1024,
            persistent: true,
            messages_per_commit: 1,
            depth: 100_000,
            measured_log_bytes: None,
        };
        let resources = Resources::default();
        let plan = plan(&workload, &resources, CostModel::Mp16);
        let figures = &plan.figures;
        // 2000 x 2,580 bytes = 4.92 MB/s; 30 minutes of it = 8,858 MiB: the largest log.
        assert!(within(figures.log_mb_per_second, 4.92, 0.01));
        assert_eq!(figures.active_log_size_mib, ACTIVE_LOG_SIZE_MIB_MAX);
        assert_eq!(figures.buffers, (100_000f64 / 0.85).ceil() as u64);
        assert_eq!(figures.page_set_pages, (100_000f64 / 0.9).ceil() as u64);
        // The LOGLOAD found meets the goal.
        let interval_bytes = figures.logload_for_goal as f64 * figures.log_bytes_per_message
            / figures.log_records_per_message;
        let restart =
            restart_log_seconds(interval_bytes, &resources) + figures.restart_depth_seconds;
        assert!(
            restart <= resources.restart_goal_seconds * 1.001,
            "{restart}"
        );
        assert!(
            figures.bottleneck.0.starts_with("restart"),
            "{:?}",
            figures.bottleneck
        );
        let text = render(&plan);
        for section in [
            "Log bytes per message",
            "Active log size and number",
            "Checkpoints and LOGLOAD",
            "The first bottleneck",
        ] {
            assert!(text.contains(section), "{section}");
        }
        let mut config = QueueManagerConfig::with_defaults("QM1");
        config.system.logload = LOGLOAD_MAX;
        let findings = check(&config, &plan);
        assert!(findings
            .iter()
            .any(|f| !f.ok && f.text.starts_with("LOGLOAD")));
        assert!(findings
            .iter()
            .any(|f| !f.ok && f.text.starts_with("active log size")));
        // Twice the rate on a device of a tenth: the log is the bottleneck.
        let busy = Workload {
            messages_per_second: 4000.0,
            depth: 0,
            ..workload
        };
        let slow = Resources {
            log_device_mb_per_second: 10.0,
            ..Resources::default()
        };
        let plan = super::plan(&busy, &slow, CostModel::Mp16);
        assert!(
            plan.figures.bottleneck.0.starts_with("log bandwidth"),
            "{:?}",
            plan.figures.bottleneck
        );
    }
}

/// The plan against a measured run: persistent messages put and got through the MQI, one per
/// unit of work, on a queue manager of this build. Counts, not times (a shared machine's
/// timings are noise): the log bytes each message wrote (the end RBA's advance, as DISPLAY LOG
/// shows it), from which the log MB/s at any rate follows, and the page set pages the queue's
/// depth took. Each must be within 20% of what the plan predicts for that workload.
#[cfg(test)]
mod measured {
    use super::*;
    use ferrite_mqi::Mqod;
    use ferrite_queue_manager::QueueManager;
    use ferrite_test_kit::{
        connect, get_sized, persistence, put_md, queue_manager, with_persistence,
    };

    /// Messages of each size: enough pages for a page's rounding to vanish.
    const MESSAGES: usize = 400;

    fn end_rba(queue_manager: &QueueManager) -> u64 {
        queue_manager.log().end_rba().0
    }

    fn used_pages(queue_manager: &QueueManager) -> u64 {
        queue_manager
            .statistics_snapshot()
            .page_sets
            .iter()
            .map(|page_set| u64::from(page_set.total_pages - page_set.unused_pages))
            .sum()
    }

    fn within_a_fifth(measured: f64, predicted: f64, what: &str) {
        assert!(
            (measured - predicted).abs() <= predicted * 0.2,
            "{what}: measured {measured:.1}, the plan predicts {predicted:.1}"
        );
    }

    #[test]
    fn log_bytes_and_pages_per_message_are_what_the_plan_predicts() {
        for size in [100usize, 1_000, 3_000, 10_000] {
            let (_directory, queue_manager) = queue_manager(&["PLAN.Q"]);
            let mut connection = connect(&queue_manager);
            let hobj = connection
                .open(
                    &mut Mqod::queue("PLAN.Q"),
                    ferrite_constants::open_options::MQOO_OUTPUT
                        | ferrite_constants::open_options::MQOO_INPUT_SHARED,
                )
                .unwrap();
            let data = vec![7u8; size];
            let (rba, pages) = (end_rba(&queue_manager), used_pages(&queue_manager));
            for _ in 0..MESSAGES {
                let mut md = with_persistence(persistence(true));
                let options = ferrite_constants::put_options::MQPMO_SYNCPOINT;
                put_md(&mut connection, hobj, &mut md, options, &data).unwrap();
                connection.commit().unwrap();
            }
            let put_bytes = (end_rba(&queue_manager) - rba) as f64 / MESSAGES as f64;
            let depth_pages = (used_pages(&queue_manager) - pages) as f64;
            let rba = end_rba(&queue_manager);
            for _ in 0..MESSAGES {
                get_sized(
                    &mut connection,
                    hobj,
                    ferrite_constants::get_options::MQGMO_SYNCPOINT,
                    size,
                )
                .unwrap();
                connection.commit().unwrap();
            }
            let get_bytes = (end_rba(&queue_manager) - rba) as f64 / MESSAGES as f64;
            let model = CostModel::Ferrite;
            let bytes = size as u64;
            within_a_fifth(
                put_bytes,
                log_bytes_put(model, bytes, 1),
                &format!("{size} B put"),
            );
            within_a_fifth(
                get_bytes,
                log_bytes_get(model, bytes, 1),
                &format!("{size} B get"),
            );
            within_a_fifth(
                depth_pages,
                pages_per_message(model, bytes) * MESSAGES as f64,
                &format!("{size} B pages for {MESSAGES} messages"),
            );
            connection.close(hobj, 0).unwrap();
            drop(connection);
            queue_manager.shutdown().unwrap();
        }
    }
}
