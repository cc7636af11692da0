//! Driving the storage engine: the benchmark configuration, fresh queue managers, messages,
//! and an operator-message sink that timestamps every line (restart phases are timed from it).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use ferrite_queue_manager::{MessageSink, QueueManager};
use ferrite_storage::buffer_pool::BufferPoolStatistics;
use ferrite_storage::config::{Expand, PageClass, QueueManagerConfig};
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::log::LogStatistics;
use ferrite_storage::vfs::{FileSystem, RealFileSystem};

/// The configuration every benchmark starts from; each benchmark states what it changes.
pub fn bench_config(name: &str) -> QueueManagerConfig {
    let mut config = QueueManagerConfig::with_defaults(name);
    config.system.logload = 500_000; // MQ's CSQ6SYSP default
    config.system.maxumsgs = 10_000;
    config.log.outbuff_kib = 4000; // OUTBUFF maximum, as MP16 recommends
    config.log.wrthrsh = 20;
    config.log.twoactv = false;
    config.log.active_log_count = 4;
    config.log.active_log_size_mib = 256;
    // FERRITE_BENCH_PAGECLAS=FIXED4KB: every pool's buffers locked in memory (BENCHMARKS.md,
    // "Group commit": the put-only window).
    let page_class = match std::env::var("FERRITE_BENCH_PAGECLAS").as_deref() {
        Ok("FIXED4KB") => PageClass::Fixed,
        Ok("4KB") | Err(_) => PageClass::Pageable,
        Ok(other) => panic!("FERRITE_BENCH_PAGECLAS={other}: 4KB or FIXED4KB"),
    };
    for pool in &mut config.buffer_pools {
        pool.buffers = match pool.id {
            0 | 1 => 1050,
            2 => 200_000,
            _ => 50_000,
        };
        pool.page_class = page_class;
    }
    for page_set in &mut config.page_sets {
        page_set.primary_pages = match page_set.id {
            0 | 1 => 2048,
            _ => 262_144, // 1 GiB
        };
        page_set.secondary_pages = 65_536;
        page_set.expand = Expand::System;
    }
    config
}

/// [`bench_config`], with smaller active logs and page sets in smoke runs (creating the full-size
/// files takes seconds, and CI runs the smoke suite on every change).
pub fn config_for(name: &str, mode: crate::Mode) -> QueueManagerConfig {
    let mut config = bench_config(name);
    if mode == crate::Mode::Smoke {
        config.log.active_log_size_mib = 16;
        for page_set in &mut config.page_sets {
            page_set.primary_pages = page_set.primary_pages.min(8_192); // 32 MiB
        }
    }
    config
}

/// One line describing a configuration, for the output.
pub fn describe(config: &QueueManagerConfig) -> String {
    let pools: Vec<String> = config
        .buffer_pools
        .iter()
        .map(|p| match p.page_class {
            PageClass::Pageable => format!("BP{}={}", p.id, p.buffers),
            PageClass::Fixed => format!("BP{}={} FIXED4KB", p.id, p.buffers),
        })
        .collect();
    let page_sets: Vec<String> = config
        .page_sets
        .iter()
        .map(|p| format!("PS{:02}={}p/BP{}", p.id, p.primary_pages, p.buffer_pool))
        .collect();
    format!(
        "LOGLOAD={} MAXUMSGS={} OUTBUFF={}K WRTHRSH={} TWOACTV={} active logs={}x{}MiB {} {}",
        config.system.logload,
        config.system.maxumsgs,
        config.log.outbuff_kib,
        config.log.wrthrsh,
        if config.log.twoactv { "YES" } else { "NO" },
        config.log.active_log_count,
        config.log.active_log_size_mib,
        pools.join(","),
        page_sets.join(",")
    )
}

pub fn fs() -> Arc<dyn FileSystem> {
    Arc::new(RealFileSystem)
}

/// A fresh data directory under the benchmark directory.
pub fn fresh_directory(base: &Path, label: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let directory = base.join(format!("qm-{label}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    directory
}

pub fn create(directory: &Path, config: &QueueManagerConfig) {
    QueueManager::create(fs(), directory, config, &mut |_, _, _| {})
        .unwrap_or_else(|error| panic!("create queue manager in {}: {error}", directory.display()));
}

/// Create and open a queue manager in a fresh directory.
pub fn fresh(
    base: &Path,
    label: &str,
    config: &QueueManagerConfig,
) -> (Arc<QueueManager>, PathBuf) {
    let directory = fresh_directory(base, label);
    create(&directory, config);
    let queue_manager = QueueManager::open(fs(), &directory, quiet())
        .unwrap_or_else(|error| panic!("open queue manager: {error}"));
    (queue_manager, directory)
}

pub fn quiet() -> MessageSink {
    Arc::new(|_line: &str| {})
}

/// Operator messages with the instant each was issued.
pub type Transcript = Arc<Mutex<Vec<(Instant, String)>>>;

pub fn recording() -> (MessageSink, Transcript) {
    let lines: Transcript = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    (
        Arc::new(move |line: &str| {
            sink.lock()
                .unwrap()
                .push((Instant::now(), line.to_string()))
        }),
        lines,
    )
}

/// A persistent message descriptor as the MQI layer would pass it: MQ always generates a
/// MSGID, and every message has a put time.
pub fn descriptor(persistent: bool, tag: u64) -> MessageDescriptor {
    let mut message_id = [0u8; 24];
    message_id[..4].copy_from_slice(b"FBEN");
    message_id[8..16].copy_from_slice(&tag.to_be_bytes());
    MessageDescriptor {
        persistent,
        message_id,
        put_time_ms: ferrite_queue_manager::now_ms(),
        ..MessageDescriptor::default()
    }
}

pub fn payload(size: usize) -> Vec<u8> {
    (0..size).map(|i| (i * 13 + 5) as u8).collect()
}

/// Remove a data directory (ignore failures: it is scratch space).
pub fn remove(directory: &Path) {
    let _ = std::fs::remove_dir_all(directory);
}

/// Buffer pool statistics of pool `id`: after − before, except the gauges.
pub fn pool_delta(
    before: &BufferPoolStatistics,
    after: &BufferPoolStatistics,
) -> BufferPoolStatistics {
    BufferPoolStatistics {
        qpstnbuf: after.qpstnbuf,
        qpstcbsl: after.qpstcbsl,
        qpstcbs: after.qpstcbs,
        qpstgetp: after.qpstgetp - before.qpstgetp,
        qpstgetn: after.qpstgetn - before.qpstgetn,
        qpststw: after.qpststw - before.qpststw,
        qpstrio: after.qpstrio - before.qpstrio,
        qpstdwt: after.qpstdwt - before.qpstdwt,
        qpsttpw: after.qpsttpw - before.qpsttpw,
        qpstwio: after.qpstwio - before.qpstwio,
        qpstimw: after.qpstimw - before.qpstimw,
        qpstdmc: after.qpstdmc - before.qpstdmc,
        qpststl: after.qpststl - before.qpststl,
        qpststla: after.qpststla - before.qpststla,
        qpstsos: after.qpstsos - before.qpstsos,
    }
}

pub fn pool_statistics(queue_manager: &QueueManager, id: u8) -> BufferPoolStatistics {
    queue_manager
        .buffer_pool_statistics()
        .into_iter()
        .find(|(pool, _)| pool.0 == id)
        .map(|(_, statistics)| statistics)
        .unwrap_or_default()
}

/// The log counters that matter for throughput, after − before.
#[derive(Clone, Debug, Default)]
pub struct LogDelta {
    pub forces: u64,
    /// Forces that found their RBA not yet durable (QJSTLSUS): they led their own I/O or
    /// were suspended.
    pub suspended: u64,
    pub write_cycles: u64,
    pub write_ios: [u64; 2],
    pub bytes_written: [u64; 2],
    /// Syncs that ended a write cycle (one per copy or one device flush for both, counted
    /// once): what the device's synced bandwidth must be compared at is bytes per sync.
    pub syncs: u64,
    pub buffer_waits: u64,
    pub switches: u64,
    pub checkpoints: u64,
    /// Pages written to the copies one after the other (dual logging rewrites, QJSTSERW).
    pub serialised_pages: u64,
    /// Time the log spent in write I/Os (writes and syncs), by the logger thread or a committer
    /// leading its own I/O, in seconds.
    pub io_busy_seconds: f64,
    /// The part of `io_busy_seconds` spent in the syncs that end write cycles.
    pub sync_seconds: f64,

    /// Dual logging I/Os made durable on both copies by one device flush.
    pub shared_flush_ios: u64,
    /// Write cycles a committer led itself (no hand-off to the logger thread).
    pub leader_ios: u64,
    /// Archive copies written (QJSTALW): offloads of full active logs.
    pub offloads: u64,
}

pub fn log_delta(before: &LogStatistics, after: &LogStatistics) -> LogDelta {
    LogDelta {
        forces: after.qjstwrf - before.qjstwrf,
        suspended: after.qjstlsus - before.qjstlsus,
        write_cycles: after.qjstbfwr - before.qjstbfwr,
        write_ios: [
            after.qjstlogw[0] - before.qjstlogw[0],
            after.qjstlogw[1] - before.qjstlogw[1],
        ],
        bytes_written: [
            after.bytes_written[0] - before.bytes_written[0],
            after.bytes_written[1] - before.bytes_written[1],
        ],
        syncs: after.write_syncs - before.write_syncs,
        buffer_waits: after.qjstwtb - before.qjstwtb,
        switches: after.active_log_switches - before.active_log_switches,
        checkpoints: after.qjstllcp - before.qjstllcp,
        serialised_pages: after.qjstserw - before.qjstserw,
        io_busy_seconds: (after.io_busy_nanos - before.io_busy_nanos) as f64 / 1e9,
        sync_seconds: (after.sync_nanos - before.sync_nanos) as f64 / 1e9,
        shared_flush_ios: after.shared_flush_ios - before.shared_flush_ios,
        leader_ios: after.leader_ios - before.leader_ios,
        offloads: after.qjstalw - before.qjstalw,
    }
}

impl LogDelta {
    /// Add another interval's counters (the segments of one window).
    pub fn add(&mut self, other: &LogDelta) {
        self.forces += other.forces;
        self.suspended += other.suspended;
        self.write_cycles += other.write_cycles;
        for copy in 0..2 {
            self.write_ios[copy] += other.write_ios[copy];
            self.bytes_written[copy] += other.bytes_written[copy];
        }
        self.syncs += other.syncs;
        self.buffer_waits += other.buffer_waits;
        self.switches += other.switches;
        self.checkpoints += other.checkpoints;
        self.serialised_pages += other.serialised_pages;
        self.io_busy_seconds += other.io_busy_seconds;
        self.sync_seconds += other.sync_seconds;
        self.shared_flush_ios += other.shared_flush_ios;
        self.leader_ios += other.leader_ios;
        self.offloads += other.offloads;
    }

    pub fn describe(&self) -> String {
        let per_io = if self.write_ios[0] == 0 {
            0.0
        } else {
            self.bytes_written[0] as f64 / self.write_ios[0] as f64 / 1024.0
        };
        format!(
            "log: forces={} not yet durable={} write cycles={} I/Os={:?} syncs={} bytes written={:?} ({per_io:.1} KiB/I/O) buffer waits(QJSTWTB)={} switches={} offloads={} checkpoints={} serialised pages(QJSTSERW)={} log in I/O={:.2} s (in syncs {:.2} s) one-flush dual I/Os={} cycles led by a committer={}",
            self.forces,
            self.suspended,
            self.write_cycles,
            self.write_ios,
            self.syncs,
            self.bytes_written,
            self.buffer_waits,
            self.switches,
            self.offloads,
            self.checkpoints,
            self.serialised_pages,
            self.io_busy_seconds,
            self.sync_seconds,
            self.shared_flush_ios,
            self.leader_ios
        )
    }
}
