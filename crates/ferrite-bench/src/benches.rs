//! The benchmarks. Each prints its progress and configuration, and pushes its figures to the
//! report with the reference it is judged against.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use ferrite_queue_manager::{
    LocalQueue, MessageSelector, QueueDefinition, QueueManager, UnitOfWork,
};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::PageSetId;

use crate::engine::{self, LogDelta};
use crate::physical::{self, Preparation};
use crate::report::Row;
use crate::stats::Latencies;
use crate::{Context, Mode};

const MB: f64 = 1_000_000.0;
const MP16_LOG_BYTES: &str = "MQ V9 local (MP16 ch1 L703-758)";

/// Physical limits measured in this run.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Synced sequential write bandwidth, 512 KiB writes, pre-written file (bytes/s).
    pub sequential: Option<f64>,
    /// 4 KiB write+fdatasync rate on a pre-written file (syncs/s): the most commits one
    /// committer could make if each cost exactly one sync.
    pub sync_rate: Option<f64>,
    /// Loopback TCP round trips per second, 1,000 bytes each way (one client, one echo thread).
    pub loopback_rate: Option<f64>,
}

// ----- machine ------------------------------------------------------------------------------

pub fn machine_description(dir: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split(':').nth(1))
                .map(|model| model.trim().to_string())
        })
        .unwrap_or_default();
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| text.lines().next().map(|line| line.to_string()))
        .unwrap_or_default();
    lines.push(format!("cpus: {cpus} ({model}); {memory}"));
    lines.push(format!(
        "benchmark directory: {} on {}",
        dir.display(),
        filesystem_of(dir)
    ));
    lines
}

fn filesystem_of(dir: &Path) -> String {
    // The longest mount point that prefixes the directory.
    let Ok(mounts) = std::fs::read_to_string("/proc/mounts") else {
        return "unknown file system".to_string();
    };
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut best: Option<(usize, String)> = None;
    for line in mounts.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            continue;
        }
        if dir.starts_with(fields[1]) && best.as_ref().is_none_or(|(len, _)| fields[1].len() > *len)
        {
            best = Some((
                fields[1].len(),
                format!("{} ({} {}, {})", fields[1], fields[0], fields[2], fields[3]),
            ));
        }
    }
    best.map_or("unknown file system".to_string(), |(_, text)| text)
}

pub fn is_tmpfs(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    let mut stat: libc::statfs = unsafe { std::mem::zeroed() };
    let result = unsafe { libc::statfs(path.as_ptr(), &mut stat) };
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    const RAMFS_MAGIC: i64 = 0x8584_58f6;
    result == 0 && matches!(stat.f_type as i64, TMPFS_MAGIC | RAMFS_MAGIC)
}

fn io<T>(result: std::io::Result<T>) -> T {
    result.unwrap_or_else(|error| panic!("benchmark file I/O failed: {error}"))
}

fn heading(title: &str) {
    println!("\n== {title} ==");
}

// ----- physical -----------------------------------------------------------------------------

/// Raw 4 KiB write+fdatasync at consecutive offsets: (latencies, label).
fn raw_sync_4k(context: &Context, preparation: Preparation) -> Latencies {
    let count = context.mode.pick(200, 1000, 3000);
    io(physical::synced_writes(
        &context.dir,
        4096,
        count,
        preparation,
    ))
}

fn sequential_bandwidth(context: &mut Context) -> f64 {
    if let Some(bandwidth) = context.limits.sequential {
        return bandwidth;
    }
    let total = context.mode.pick(16u64, 128, 256) << 20;
    let bandwidth = io(physical::synced_bandwidth(
        &context.dir,
        512 * 1024,
        total,
        Preparation::Formatted,
    ));
    context.limits.sequential = Some(bandwidth);
    bandwidth
}

pub fn physical(context: &mut Context) {
    heading("physical: this machine's limits on the benchmark file system");
    for preparation in [Preparation::Formatted, Preparation::Fallocated] {
        println!("  4 KiB write+fdatasync, {} ...", preparation.label());
        let mut latencies = raw_sync_4k(context, preparation);
        let label = preparation.label();
        context.report.push(Row::new(
            "physical",
            format!("4K write+fdatasync p50 ({label})"),
            latencies.percentile_us(50.0),
            "us",
        ));
        context.report.push(Row::new(
            "physical",
            format!("4K write+fdatasync mean ({label})"),
            latencies.mean_us(),
            "us",
        ));
        context.report.push(Row::new(
            "physical",
            format!("4K write+fdatasync p99 ({label})"),
            latencies.percentile_us(99.0),
            "us",
        ));
        if preparation == Preparation::Formatted {
            context.limits.sync_rate = Some(latencies.rate());
        }
        context.report.push(Row::new(
            "physical",
            format!("4K write+fdatasync rate ({label})"),
            latencies.rate(),
            "ops/s",
        ));
    }
    println!("  4 KiB page rewritten 4 times then next page (the log's partial-page pattern) ...");
    let mut rewrite = io(physical::rewrite_same_page(
        &context.dir,
        4,
        context.mode.pick(200, 1000, 3000),
    ));
    context.report.push(Row::new(
        "physical",
        "4K same-page rewrite+fdatasync p50",
        rewrite.percentile_us(50.0),
        "us",
    ));
    let total = context.mode.pick(16u64, 128, 256) << 20;
    for (write_kib, preparation) in [
        (512usize, Preparation::Formatted),
        (512, Preparation::Fallocated),
        (64, Preparation::Formatted),
    ] {
        println!(
            "  synced sequential writes of {write_kib} KiB, {} ({} MiB) ...",
            preparation.label(),
            total >> 20
        );
        let bandwidth = io(physical::synced_bandwidth(
            &context.dir,
            write_kib * 1024,
            total,
            preparation,
        ));
        if write_kib == 512 && preparation == Preparation::Formatted {
            context.limits.sequential = Some(bandwidth);
        }
        context.report.push(Row::new(
            "physical",
            format!(
                "synced sequential write {write_kib}K+fdatasync ({})",
                preparation.label()
            ),
            bandwidth / MB,
            "MB/s",
        ));
    }
    println!(
        "  loopback TCP round trips, {} B each way ...",
        physical::LOOPBACK_MESSAGE_BYTES
    );
    let mut loopback = io(physical::loopback_round_trips(
        context.mode.pick(2_000, 20_000, 100_000),
    ));
    context.limits.loopback_rate = Some(loopback.rate());
    context.report.push(Row::new(
        "physical",
        "loopback TCP round trip p50 (1,000 B each way)",
        loopback.percentile_us(50.0),
        "us",
    ));
    context.report.push(Row::new(
        "physical",
        "loopback TCP round trip mean (1,000 B each way)",
        loopback.mean_us(),
        "us",
    ));
    context.report.push(Row::new(
        "physical",
        "loopback TCP round trips (1,000 B each way, 1 client)",
        loopback.rate(),
        "ops/s",
    ));
    println!("  memory copy ...");
    let copy = physical::memory_copy_bandwidth(64 << 20, context.mode.pick(4, 16, 32));
    context.report.push(Row::new(
        "physical",
        "memory copy (1 thread)",
        copy / MB,
        "MB/s",
    ));
}

// ----- log bytes per message ----------------------------------------------------------------

/// MP16 ch1 §3.1 (L703–758): PUT oos, PUT+commit, PUT×10+commit, GET oos, GET+commit,
/// GET×10+commit, local queues.
const MQ_LOG_BYTES: [(usize, [f64; 6]); 4] = [
    (0, [1057.0, 1057.0, 751.0, 481.0, 481.0, 186.0]),
    (1, [1060.0, 1060.0, 751.0, 481.0, 481.0, 186.0]),
    (1024, [2088.0, 2088.0, 1789.0, 492.0, 492.0, 178.0]),
    (4096, [5331.0, 5331.0, 5052.0, 527.0, 527.0, 192.0]),
];
const OPERATIONS: [&str; 6] = [
    "PUT out of syncpoint",
    "PUT+commit",
    "PUTx10+commit",
    "GET out of syncpoint",
    "GET+commit",
    "GETx10+commit",
];

pub fn log_bytes(context: &mut Context) {
    heading("log-bytes: log bytes per persistent message (end RBA delta / count, as DISPLAY LOG)");
    let mut config = engine::bench_config("LOGBYTES");
    config.system.logload = 16_000_000; // no checkpoint record inside a measurement
    println!("  config: {}", engine::describe(&config));
    let count = context.mode.pick(20usize, 200, 1000);
    println!("  {count} messages per cell; descriptor: persistent, MSGID set, put time set, no extension");
    let (queue_manager, directory) = engine::fresh(&context.dir, "logbytes", &config);
    let selector = MessageSelector::default();
    let mut tag = 0u64;
    let mut ours_table = Vec::new();
    for (size, mq) in MQ_LOG_BYTES {
        let queue = queue_manager
            .define_queue(
                QueueDefinition::local(&format!("LOGBYTES.{size}"), PageSetId(2)),
                false,
            )
            .expect("define queue");
        let data = engine::payload(size);
        let measure = |operation: &mut dyn FnMut()| -> f64 {
            let before = queue_manager.log().end_rba().0;
            operation();
            let after = queue_manager.log().end_rba().0;
            (after - before) as f64 / count as f64
        };
        let mut put = |unit: Option<&mut UnitOfWork>| {
            tag += 1;
            queue_manager
                .put(unit, &queue, &engine::descriptor(true, tag), &data)
                .expect("put");
        };
        let mut results = [0.0f64; 6];
        results[0] = measure(&mut || {
            for _ in 0..count {
                put(None);
            }
        });
        let mut get = |unit: Option<&mut UnitOfWork>| {
            queue_manager
                .get(unit, &queue, &selector, None)
                .expect("get")
                .expect("a message is there");
        };
        results[3] = measure(&mut || {
            for _ in 0..count {
                get(None);
            }
        });
        // `count` operations in units of `per_unit`, each unit committed.
        let in_units = |per_unit: usize, operation: &mut dyn FnMut(Option<&mut UnitOfWork>)| {
            for _ in 0..count / per_unit {
                let mut unit = UnitOfWork::new();
                for _ in 0..per_unit {
                    operation(Some(&mut unit));
                }
                queue_manager.commit(&mut unit).expect("commit");
            }
        };
        results[1] = measure(&mut || in_units(1, &mut put));
        results[4] = measure(&mut || in_units(1, &mut get));
        results[2] = measure(&mut || in_units(10, &mut put));
        results[5] = measure(&mut || in_units(10, &mut get));
        for (index, operation) in OPERATIONS.iter().enumerate() {
            let mut row = Row::new(
                "log-bytes",
                format!("{size} B {operation}"),
                results[index],
                "bytes/msg",
            )
            .against(MP16_LOG_BYTES, mq[index]);
            if size == 1024 && index == 1 {
                row = row.goal("<= 1300 bytes", results[index] <= 1300.0);
            }
            if size == 1024 && index == 4 {
                row = row.goal("<= 200 bytes", results[index] <= 200.0);
            }
            context.report.push(row);
        }
        ours_table.push((size, results, mq));
    }
    println!("\n  log bytes per message: ours / MQ (ratio)");
    println!("  {:>6} | {}", "size", OPERATIONS.join(" | "));
    for (size, ours, mq) in ours_table {
        let cells: Vec<String> = (0..6)
            .map(|i| format!("{:.0}/{:.0} ({:.2})", ours[i], mq[i], ours[i] / mq[i]))
            .collect();
        println!("  {size:>6} | {}", cells.join(" | "));
    }
    queue_manager.shutdown().expect("shutdown");
    drop(queue_manager);
    engine::remove(&directory);
}

// ----- pages per message --------------------------------------------------------------------

/// MQ V7.0.1+ as shipped: one message per page up to 3,635 bytes, then 4,048 per page.
fn mq_pages(size: usize) -> f64 {
    if size <= 3635 {
        1.0
    } else {
        1.0 + (size - 3635).div_ceil(4048) as f64
    }
}

/// MQ V7.0.1+ with MAXSHORTMSGS 0: messages per page (MP16 ch1 L857–878).
fn mq_short_messages_per_page(size: usize) -> f64 {
    match size {
        0..=46 => 8.0,
        47..=118 => 7.0,
        119..=215 => 6.0,
        216..=350 => 5.0,
        351..=553 => 4.0,
        554..=891 => 3.0,
        892..=1567 => 2.0,
        _ => 1.0,
    }
}

fn used_pages(queue_manager: &QueueManager, page_set: u8) -> u64 {
    let space = queue_manager
        .data_manager()
        .spaces()
        .find(|space| space.id().0 == page_set)
        .expect("page set defined");
    let (total, unused) = space.usage();
    (total - unused) as u64
}

pub fn pages_per_message(context: &mut Context) {
    heading("pages-per-message: page set pages used per message (DISPLAY USAGE delta)");
    let config = engine::bench_config("PAGES");
    println!("  config: {}", engine::describe(&config));
    let (queue_manager, directory) = engine::fresh(&context.dir, "pages", &config);
    let sizes = [
        0usize, 1, 46, 100, 200, 500, 1000, 1567, 2000, 3000, 3635, 3636, 4000, 4036, 4096, 7683,
        7684, 10_000, 32_000, 100_000, 1_000_000,
    ];
    let base_count = context.mode.pick(20usize, 200, 1000);
    let selector = MessageSelector::default();
    let mut tag = 0u64;
    for size in sizes {
        let count = base_count.min((40 << 20) / size.max(1)).max(10);
        let queue = queue_manager
            .define_queue(
                QueueDefinition::local(&format!("PAGES.{size}"), PageSetId(3)),
                false,
            )
            .expect("define");
        let data = engine::payload(size);
        let before = used_pages(&queue_manager, 3);
        let mut unit = UnitOfWork::new();
        for _ in 0..count {
            tag += 1;
            queue_manager
                .put(
                    Some(&mut unit),
                    &queue,
                    &engine::descriptor(true, tag),
                    &data,
                )
                .expect("put");
        }
        queue_manager.commit(&mut unit).expect("commit");
        let after = used_pages(&queue_manager, 3);
        let pages = (after - before) as f64;
        let per_message = pages / count as f64;
        context.report.push(
            Row::new(
                "pages-per-message",
                format!("{size} B pages/msg ({count} msgs)"),
                per_message,
                "pages",
            )
            .against("MQ V7.0.1+ as shipped (MP16 ch1 L857-878)", mq_pages(size)),
        );
        if size <= 3635 {
            context.report.push(
                Row::new(
                    "pages-per-message",
                    format!("{size} B msgs/page"),
                    count as f64 / pages.max(1.0),
                    "msgs/page",
                )
                .against(
                    "MQ MAXSHORTMSGS 0 (MP16 ch1 L857-878)",
                    mq_short_messages_per_page(size),
                ),
            );
        }
        let mut unit = UnitOfWork::new();
        while queue_manager
            .get(Some(&mut unit), &queue, &selector, None)
            .expect("get")
            .is_some()
        {
            if unit.message_count() >= 1000 {
                queue_manager.commit(&mut unit).expect("commit");
            }
        }
        queue_manager.commit(&mut unit).expect("commit");
    }
    println!(
        "{}",
        ferrite_command::run_command(&queue_manager, "DISPLAY USAGE").text()
    );
    queue_manager.shutdown().expect("shutdown");
    drop(queue_manager);
    engine::remove(&directory);
}

// ----- committers -----------------------------------------------------------------------------

/// This process's CPU time and context switches (getrusage), to take a run's share.
pub use crate::mqi_workloads::ProcessUsage;

pub struct CommitterRun {
    pub messages: u64,
    /// The process's CPU and context switches during the window (every thread: committers,
    /// logger, deferred writer).
    pub usage: ProcessUsage,
    pub log_bytes: u64,
    pub elapsed: Duration,
    pub commit: Latencies,
    pub put_commit: Latencies,
    pub log: LogDelta,
}

impl CommitterRun {
    pub fn messages_per_second(&self) -> f64 {
        self.messages as f64 / self.elapsed.as_secs_f64()
    }
    pub fn log_bytes_per_second(&self) -> f64 {
        self.log_bytes as f64 / self.elapsed.as_secs_f64()
    }
}

/// What each committer's unit of work holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CommitterUnit {
    /// One persistent put: the queues grow, so the deferred write process writes their pages
    /// to the page set while the log is measured.
    Put,
    /// A get of the message the previous unit put, then a put (each queue holds one message):
    /// a message-moving workload, whose pages are freed before they need writing, so the
    /// device serves the log alone.
    GetAndPut,
}

/// The device measured between the segments of a goal row's window rather than once after
/// it (BENCHMARKS.md, "Method"): the window is cut into `segments` of equal length; after each, the
/// committers pause (each finishes its unit of work and waits), and the device writes as many bytes
/// as the log wrote in that segment, at the segment's bytes per sync, into a pre-written file (on
/// from where the last burst ended, wrapping at its end), with nothing
/// else running. This virtual disk's synced bandwidth drifts by tens of percent within
/// seconds; a figure taken right after each part of the log it is compared with, over as
/// many bytes, sees the same drift and the same sustained volume.
pub struct DeviceInterleave {
    segments: usize,
    file: physical::BurstFile,
    /// One entry per segment, in order.
    pub figures: Vec<SegmentFigures>,
}

/// One segment of an interleaved window and the device burst after it.
#[derive(Clone, Copy, Debug)]
pub struct SegmentFigures {
    /// RBA advance (log bytes) and length of the segment (from the committers' start to the
    /// last one's pause: the drain of the units in flight is counted against the log).
    pub log_bytes: u64,
    pub seconds: f64,
    /// Bytes the log wrote (copy 1) and its write cycles' syncs in the segment.
    pub written: u64,
    pub syncs: u64,
    /// The burst: bytes per write+fdatasync, bytes written, seconds taken.
    pub device_write_bytes: usize,
    pub device_bytes: u64,
    pub device_seconds: f64,
}

impl DeviceInterleave {
    /// `file_bytes`: the size of the pre-written file the bursts write in turn.
    pub fn new(
        directory: &Path,
        segments: usize,
        file_bytes: u64,
    ) -> std::io::Result<DeviceInterleave> {
        assert!(segments >= 1, "a window has at least one segment");
        Ok(DeviceInterleave {
            segments,
            file: physical::BurstFile::create(directory, file_bytes)?,
            figures: Vec::with_capacity(segments),
        })
    }

    /// The device's synced bandwidth over the window, bytes/s: each burst's rate weighted by
    /// the length of the segment before it, what the device could have written in the time
    /// the log had (the log's own figure is its bytes over the segments' time, which weighs
    /// each segment by its length in the same way). A burst's own volume does not weigh: a
    /// slow burst after a slow segment would otherwise count for more than its share of time.
    pub fn device_bandwidth(&self) -> f64 {
        let seconds: f64 = self.figures.iter().map(|f| f.seconds).sum();
        let bytes: f64 = self
            .figures
            .iter()
            .map(|f| f.device_bytes as f64 / f.device_seconds.max(1e-9) * f.seconds)
            .sum();
        bytes / seconds.max(1e-9)
    }

    /// A burst after a segment that wrote `written` bytes in `syncs` syncs.
    fn burst(&mut self, written: u64, syncs: u64) -> (usize, u64, Duration) {
        let per_sync = written.checked_div(syncs).unwrap_or(4096);
        let write_bytes = (per_sync.div_ceil(4096) * 4096).max(4096) as usize;
        let total = written.max(16 * write_bytes as u64);
        let (bytes, took) = io(self.file.burst(write_bytes, total));
        (write_bytes, bytes, took)
    }
}

/// Where the committers of a window stand: running, or paused between two segments.
struct PauseGate {
    /// Read by every committer before each unit of work; set by the controller.
    requested: AtomicBool,
    /// Committers waiting in the gate.
    state: std::sync::Mutex<usize>,
    changed: std::sync::Condvar,
}

impl PauseGate {
    /// A committer: wait here while a pause is requested and the window goes on.
    fn wait_if_paused(&self, stop: &AtomicBool) {
        if !self.requested.load(Ordering::Acquire) {
            return;
        }
        let mut waiting = self.state.lock().expect("gate");
        *waiting += 1;
        self.changed.notify_all();
        while self.requested.load(Ordering::Acquire) && !stop.load(Ordering::Acquire) {
            waiting = self.changed.wait(waiting).expect("gate");
        }
        *waiting -= 1;
    }

    /// The controller: ask every committer to pause and wait until all `threads` have.
    fn pause(&self, threads: usize) {
        let mut waiting = self.state.lock().expect("gate");
        self.requested.store(true, Ordering::Release);
        while *waiting < threads {
            waiting = self.changed.wait(waiting).expect("gate");
        }
    }

    /// The controller: let the committers go on (or out, once `stop` is set).
    fn resume(&self) {
        let _waiting = self.state.lock().expect("gate");
        self.requested.store(false, Ordering::Release);
        self.changed.notify_all();
    }
}

/// What one committer window runs: `threads` committers, each with its own queue (named
/// `label.NNN`) and unit of work, doing persistent put of `size` bytes + commit until
/// `duration` has passed or, with `log_limit`, until that many bytes of log have been written
/// in the window (whichever comes first: the goal rows keep the window inside one active log
/// however fast the device is).
struct CommitterWindow<'a> {
    threads: usize,
    size: usize,
    duration: Duration,
    log_limit: Option<u64>,
    label: &'a str,
    shape: CommitterUnit,
}

/// Runs `window`'s committers on `queue_manager`. With `interleave`, the window is cut into
/// segments with the device measured between them (see [`DeviceInterleave`]); the run's
/// figures then cover the segments only.
fn run_committers(
    queue_manager: &Arc<QueueManager>,
    window: &CommitterWindow,
    interleave: Option<&mut DeviceInterleave>,
) -> CommitterRun {
    let queues = define_committer_queues(queue_manager, window);
    let data = engine::payload(window.size);
    warm_up_committers(queue_manager, &queues, &data);
    let control = WindowControl {
        barrier: Barrier::new(window.threads + 1),
        stop: AtomicBool::new(false),
        gate: PauseGate {
            requested: AtomicBool::new(false),
            state: std::sync::Mutex::new(0),
            changed: std::sync::Condvar::new(),
        },
    };
    let segments = interleave.as_ref().map_or(1, |i| i.segments);
    let mut controller = WindowController {
        queue_manager,
        window,
        control: &control,
        segments,
        segment_duration: window.duration / segments as u32,
        rba_start: 0,
        log: LogDelta::default(),
        usage: ProcessUsage::default(),
        elapsed: Duration::ZERO,
        log_bytes: 0,
    };
    let results = std::thread::scope(|scope| {
        let workers: Vec<_> = queues
            .iter()
            .enumerate()
            .map(|(index, queue)| {
                let control = &control;
                let data = &data;
                scope.spawn(move || {
                    commit_until_stopped(queue_manager, control, queue, index, window.shape, data)
                })
            })
            .collect();
        controller.run_segments(workers, interleave)
    });
    let mut commit = Latencies::default();
    let mut put_commit = Latencies::default();
    for (c, p) in results {
        commit.merge(c);
        put_commit.merge(p);
    }
    CommitterRun {
        messages: commit.count() as u64,
        usage: controller.usage,
        log_bytes: controller.log_bytes,
        elapsed: controller.elapsed,
        commit,
        put_commit,
        log: controller.log,
    }
}

/// The local queues of a window's committers, one each, on page set 2.
fn define_committer_queues(
    queue_manager: &QueueManager,
    window: &CommitterWindow,
) -> Vec<Arc<LocalQueue>> {
    (0..window.threads)
        .map(|index| {
            queue_manager
                .define_queue(
                    QueueDefinition::local(&format!("{}.{index:03}", window.label), PageSetId(2)),
                    false,
                )
                .expect("define")
        })
        .collect()
}

/// Before a window: the page cache flushed, and one commit per committer's queue.
fn warm_up_committers(queue_manager: &QueueManager, queues: &[Arc<LocalQueue>], data: &[u8]) {
    // Creating the queue manager pre-formatted its active logs and page sets (GiBs of zeros)
    // through the page cache: flush them now, or their writeback competes with the log writes
    // measured (and more so after the larger dual logging creation).
    // SAFETY: sync() takes no arguments and cannot fail.
    unsafe { libc::sync() };
    // Warm-up: one commit per thread's queue, outside the measurement.
    for (index, queue) in queues.iter().enumerate() {
        let mut unit = UnitOfWork::new();
        queue_manager
            .put(
                Some(&mut unit),
                queue,
                &engine::descriptor(true, index as u64),
                data,
            )
            .expect("put");
        queue_manager.commit(&mut unit).expect("commit");
    }
}

/// What the controller of a window and its committers share: the start barrier, the stop
/// flag and the gate of the pauses between segments.
struct WindowControl {
    barrier: Barrier,
    stop: AtomicBool,
    gate: PauseGate,
}

/// One committer of a window: units of work of shape `shape` on `queue` from the barrier
/// until stopped, pausing at the gate between segments: (commit, put+commit) latencies.
fn commit_until_stopped(
    queue_manager: &QueueManager,
    control: &WindowControl,
    queue: &Arc<LocalQueue>,
    index: usize,
    shape: CommitterUnit,
    data: &[u8],
) -> (Latencies, Latencies) {
    let mut commit = Latencies::with_capacity(1 << 16);
    let mut put_commit = Latencies::with_capacity(1 << 16);
    let mut tag = (index as u64) << 40;
    control.barrier.wait();
    while !control.stop.load(Ordering::Relaxed) {
        control.gate.wait_if_paused(&control.stop);
        if control.stop.load(Ordering::Relaxed) {
            break;
        }
        tag += 1;
        let t0 = Instant::now();
        let mut unit = UnitOfWork::new();
        if shape == CommitterUnit::GetAndPut {
            let previous = queue_manager
                .get(Some(&mut unit), queue, &MessageSelector::default(), None)
                .expect("get");
            assert!(previous.is_some(), "each queue holds the last message put");
        }
        queue_manager
            .put(Some(&mut unit), queue, &engine::descriptor(true, tag), data)
            .expect("put");
        let t1 = Instant::now();
        queue_manager.commit(&mut unit).expect("commit");
        let t2 = Instant::now();
        commit.record(t2 - t1);
        put_commit.record(t2 - t0);
    }
    (commit, put_commit)
}

/// The controller's side of a window: it starts the committers, times each segment, pauses
/// them between segments (for the device bursts), stops them at the end, and adds up what
/// the segments measured.
struct WindowController<'a> {
    queue_manager: &'a QueueManager,
    window: &'a CommitterWindow<'a>,
    control: &'a WindowControl,
    segments: usize,
    segment_duration: Duration,
    /// The log's end RBA when the window started.
    rba_start: u64,
    /// Totals over the segments so far.
    log: LogDelta,
    usage: ProcessUsage,
    elapsed: Duration,
    log_bytes: u64,
}

/// Where a segment started from.
struct SegmentStart {
    log: ferrite_storage::log::LogStatistics,
    rba: u64,
    usage: ProcessUsage,
    at: Instant,
}

impl WindowController<'_> {
    /// Every segment of the window in turn; returns each committer's latencies once they
    /// have stopped.
    fn run_segments(
        &mut self,
        workers: Vec<std::thread::ScopedJoinHandle<'_, (Latencies, Latencies)>>,
        mut interleave: Option<&mut DeviceInterleave>,
    ) -> Vec<(Latencies, Latencies)> {
        self.rba_start = self.end_rba();
        println!(
            "    window starts: {} committers, {} bytes per message",
            self.window.threads, self.window.size
        );
        let mut results = Vec::new();
        let mut workers = Some(workers);
        let mut next_report = Instant::now() + Duration::from_secs(2);
        for segment in 0..self.segments {
            let last = segment + 1 == self.segments;
            let start = SegmentStart {
                log: self.queue_manager.log_statistics(),
                rba: self.end_rba(),
                usage: ProcessUsage::now(),
                at: Instant::now(),
            };
            if segment == 0 {
                self.control.barrier.wait();
            } else {
                self.control.gate.resume();
            }
            let limit_reached = self.wait_out_segment(start.at, &mut next_report);
            let ending = last || limit_reached;
            if ending {
                self.control.stop.store(true, Ordering::Relaxed);
                self.control.gate.resume();
                results = workers
                    .take()
                    .expect("joined once")
                    .into_iter()
                    .map(|w| w.join().expect("committer"))
                    .collect();
            } else {
                self.control.gate.pause(self.window.threads);
            }
            self.record_segment(&start, interleave.as_deref_mut());
            if ending {
                break;
            }
        }
        results
    }

    fn end_rba(&self) -> u64 {
        self.queue_manager.log().end_rba().0
    }

    /// Waits until the segment started at `started` has lasted its length, printing the log
    /// written every 2 s; true if the window's log limit was reached first.
    fn wait_out_segment(&self, started: Instant, next_report: &mut Instant) -> bool {
        let log_limit = self.window.log_limit;
        let within_limit = || log_limit.is_none_or(|limit| self.end_rba() - self.rba_start < limit);
        while started.elapsed() < self.segment_duration {
            if !within_limit() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(if log_limit.is_some() {
                5
            } else {
                20
            }));
            if Instant::now() >= *next_report {
                *next_report += Duration::from_secs(2);
                println!(
                    "    {:.0} s: {:.1} MB of log",
                    (self.elapsed + started.elapsed()).as_secs_f64(),
                    (self.end_rba() - self.rba_start) as f64 / MB
                );
            }
        }
        false
    }

    /// Adds the segment begun at `start` to the window's totals and, when interleaved, runs
    /// the device burst after it.
    fn record_segment(&mut self, start: &SegmentStart, interleave: Option<&mut DeviceInterleave>) {
        let took = start.at.elapsed();
        let segment_usage = ProcessUsage::now().since(&start.usage);
        let rba_after = self.end_rba();
        let segment_log = engine::log_delta(&start.log, &self.queue_manager.log_statistics());
        self.elapsed += took;
        self.usage = self.usage.plus(&segment_usage);
        self.log_bytes += rba_after - start.rba;
        if let Some(interleave) = interleave {
            let (write_bytes, device_bytes, device_took) =
                interleave.burst(segment_log.bytes_written[0], segment_log.syncs);
            interleave.figures.push(SegmentFigures {
                log_bytes: rba_after - start.rba,
                seconds: took.as_secs_f64(),
                written: segment_log.bytes_written[0],
                syncs: segment_log.syncs,
                device_write_bytes: write_bytes,
                device_bytes,
                device_seconds: device_took.as_secs_f64(),
            });
        }
        self.log.add(&segment_log);
    }
}

fn committer_config(name: &str, twoactv: bool) -> QueueManagerConfig {
    let mut config = engine::bench_config(name);
    config.log.twoactv = twoactv;
    config
}

pub fn commit(context: &mut Context) {
    heading("commit: persistent 1 KiB put+commit against raw write+fdatasync");
    println!("  raw 4 KiB write+fdatasync (pre-written and fallocated files), this run ...");
    // Measured just before and just after the committer run (this machine's disk drifts).
    let mut raw = RawSyncs {
        formatted: raw_sync_4k(context, Preparation::Formatted),
        fallocated: raw_sync_4k(context, Preparation::Fallocated),
    };
    let (raw_mean, raw_p50, raw_p99) = raw.formatted_figures();
    println!(
        "    pre-written: mean {raw_mean:.1} us p50 {raw_p50:.1} us p99 {raw_p99:.1} us; fallocated: mean {:.1} us p50 {:.1} us",
        raw.fallocated.mean_us(),
        raw.fallocated.percentile_us(50.0)
    );
    let config = committer_config("COMMIT1", false);
    println!("  config: {}", engine::describe(&config));
    let mut single = one_committer(context, &config, &mut raw);
    report_one_committer(context, &mut single, &mut raw);
    let sequential = sequential_bandwidth(context);
    let many = many_committers(context, &config, sequential);
    report_log_io_size(context, &many);
    commit_sizes(context, &config, sequential);
}

/// Raw 4 KiB write+fdatasync latencies on a pre-written and on a fallocated file.
struct RawSyncs {
    formatted: Latencies,
    fallocated: Latencies,
}

impl RawSyncs {
    /// The pre-written file's (mean, p50, p99), us.
    fn formatted_figures(&mut self) -> (f64, f64, f64) {
        (
            self.formatted.mean_us(),
            self.formatted.percentile_us(50.0),
            self.formatted.percentile_us(99.0),
        )
    }
}

/// One committer's latency on a fresh queue manager, with where a lone commit's time goes;
/// `raw` gets its second sample (after the run) while the queue manager is still up.
fn one_committer(
    context: &mut Context,
    config: &QueueManagerConfig,
    raw: &mut RawSyncs,
) -> CommitterRun {
    println!("  1 committer for {:.0} s ...", context.seconds);
    let (queue_manager, directory) = engine::fresh(&context.dir, "commit1", config);
    let single = run_committers(
        &queue_manager,
        &CommitterWindow {
            threads: 1,
            size: 1024,
            duration: context.duration(),
            log_limit: None,
            label: "ONE",
            shape: CommitterUnit::Put,
        },
        None,
    );
    println!("    {}", single.log.describe());
    if single.log.write_cycles > 0 {
        // Where a lone commit's time goes: the log's write+fdatasync (timed around the I/O by
        // whichever thread does it) and the rest (the engine's commit path, and any hand-off
        // to and from the logger thread: none when the committer leads its own I/O).
        let io_us = single.log.io_busy_seconds * 1e6 / single.log.write_cycles as f64;
        println!(
            "    breakdown of the mean commit ({:.1} us): write+fdatasync in the log {io_us:.1} us per cycle, the rest {:.1} us; {} of {} cycles led by the committer itself",
            single.commit.mean_us(),
            single.commit.mean_us() - io_us,
            single.log.leader_ios,
            single.log.write_cycles
        );
    }
    raw.formatted
        .merge(raw_sync_4k(context, Preparation::Formatted));
    raw.fallocated
        .merge(raw_sync_4k(context, Preparation::Fallocated));
    let (raw_mean, raw_p50, _) = raw.formatted_figures();
    println!(
        "    raw 4K before+after: pre-written mean {raw_mean:.1} us p50 {raw_p50:.1} us; fallocated mean {:.1} us",
        raw.fallocated.mean_us()
    );
    queue_manager.shutdown().expect("shutdown");
    drop(queue_manager);
    engine::remove(&directory);
    single
}

/// The one committer's rows: its commit latency against the raw device's (the goals), its
/// put+commit latency and rate.
fn report_one_committer(context: &mut Context, single: &mut CommitterRun, raw: &mut RawSyncs) {
    let (raw_mean, raw_p50, raw_p99) = raw.formatted_figures();
    let raw_label = "raw 4K write+fdatasync, pre-written (this run)";
    let mean = single.commit.mean_us();
    context.report.push(
        Row::new("commit", "1 committer: commit latency mean", mean, "us")
            .against(raw_label, raw_mean)
            .goal("ratio <= 1.2", mean / raw_mean <= 1.2),
    );
    let p50 = single.commit.percentile_us(50.0);
    context.report.push(
        Row::new("commit", "1 committer: commit latency p50", p50, "us")
            .against(raw_label, raw_p50)
            .goal("ratio <= 1.2", p50 / raw_p50 <= 1.2),
    );
    context.report.push(
        Row::new(
            "commit",
            "1 committer: commit latency p99",
            single.commit.percentile_us(99.0),
            "us",
        )
        .against(raw_label, raw_p99),
    );
    context.report.push(
        Row::new("commit", "1 committer: commit latency mean", mean, "us").against(
            "raw 4K write+fdatasync, fallocated (this run)",
            raw.fallocated.mean_us(),
        ),
    );
    context.report.push(Row::new(
        "commit",
        "1 committer: put+commit latency mean",
        single.put_commit.mean_us(),
        "us",
    ));
    context.report.push(Row::new(
        "commit",
        "1 committer: messages/s",
        single.messages_per_second(),
        "msgs/s",
    ));
}

/// `context.committers` committers on a fresh queue manager: their log throughput against
/// the device's synced sequential bandwidth (the goal), their rate and latencies.
fn many_committers(
    context: &mut Context,
    config: &QueueManagerConfig,
    sequential: f64,
) -> CommitterRun {
    let threads = context.committers;
    println!("  {threads} committers for {:.0} s ...", context.seconds);
    let (queue_manager, directory) = engine::fresh(&context.dir, "commitn", config);
    let mut many = run_committers(
        &queue_manager,
        &CommitterWindow {
            threads,
            size: 1024,
            duration: context.duration(),
            log_limit: None,
            label: "MANY",
            shape: CommitterUnit::Put,
        },
        None,
    );
    println!("    {}", many.log.describe());
    println!(
        "    log in write I/Os (the logger or a committer leading) {:.0}% of the run",
        100.0 * many.log.io_busy_seconds / many.elapsed.as_secs_f64()
    );
    queue_manager.shutdown().expect("shutdown");
    drop(queue_manager);
    engine::remove(&directory);
    let rate = many.log_bytes_per_second() / MB;
    context.report.push(
        Row::new(
            "commit",
            format!("{threads} committers: log throughput"),
            rate,
            "MB/s",
        )
        .against(
            "synced seq write 512K, pre-written (this run)",
            sequential / MB,
        )
        .goal("ratio >= 0.8", rate / (sequential / MB) >= 0.8),
    );
    context.report.push(Row::new(
        "commit",
        format!("{threads} committers: messages/s"),
        many.messages_per_second(),
        "msgs/s",
    ));
    context.report.push(Row::new(
        "commit",
        format!("{threads} committers: commit latency mean"),
        many.commit.mean_us(),
        "us",
    ));
    context.report.push(Row::new(
        "commit",
        format!("{threads} committers: commit latency p99"),
        many.commit.percentile_us(99.0),
        "us",
    ));
    many
}

/// The device at the I/O size the committers' log writers actually achieved: separates the
/// engine's share from the device's per-I/O cost.
fn report_log_io_size(context: &mut Context, many: &CommitterRun) {
    let threads = context.committers;
    if let Some(per_io) = many.log.bytes_written[0].checked_div(many.log.write_ios[0]) {
        let write_bytes = (per_io.div_ceil(4096) * 4096).max(4096) as usize;
        let total = context.mode.pick(8u64, 64, 128) << 20;
        println!(
            "  synced sequential writes at the log's average I/O size ({} KiB) ...",
            write_bytes / 1024
        );
        let at_size = io(physical::synced_bandwidth(
            &context.dir,
            write_bytes,
            total,
            Preparation::Fallocated,
        ));
        context.report.push(
            Row::new(
                "commit",
                format!("{threads} committers: log bytes written (incl. page rewrites)"),
                many.log.bytes_written[0] as f64 / many.elapsed.as_secs_f64() / MB,
                "MB/s",
            )
            .against(
                format!(
                    "synced seq write {}K, fallocated (this run)",
                    write_bytes / 1024
                ),
                at_size / MB,
            ),
        );
        context.report.push(Row::new(
            "commit",
            format!("{threads} committers: log write I/Os per second"),
            many.log.write_ios[0] as f64 / many.elapsed.as_secs_f64(),
            "I/O/s",
        ));
    }
}

/// Message sizes of the committer table by size. The goal (64 committers: log
/// throughput at least 80% of the device's synced sequential write bandwidth) cannot be reached
/// with 1 KiB commits: a group of 64 of them is only about 70 KB of log.
const COMMIT_TABLE_SIZES: [usize; 4] = [1024, 16 * 1024, 64 * 1024, 256 * 1024];

/// Active logs of the goal rows of [`commit_sizes`]: the largest MQ allows (4 GiB), two of
/// them, so a quick run's window (at most [`DEDICATED_LOG_SECONDS`]) fits in the first and no
/// log switch, offload or switch checkpoint shares the device with the log writes measured.
/// MP16's tuning advice sizes active logs so that switches are rare; the benchmark's usual 4 x
/// 256 MiB switch every fraction of a second at these rates.
const DEDICATED_ACTIVE_LOG_MIB: u32 = 4096;
const DEDICATED_ACTIVE_LOGS: u32 = 2;
/// Longest window of a goal row: at this device's 1.1-1.7 GB/s, what fits in one 4 GiB log.
const DEDICATED_LOG_SECONDS: f64 = 2.5;
/// A goal row's window also ends once the log has written this share of one active log, so
/// that it stays in the first log when the device is faster (1.9 GB/s filled a 4 GiB log in
/// 2.3 s in one run, and that run's log switch disqualified the row).
const DEDICATED_LOG_PERCENT_MAX: u64 = 85;
/// Most bytes the device writes for a goal row's comparison (it writes as many as the log
/// wrote in the window, up to this): at 2-3 GB/s about half a second, long enough that a
/// short burst of the virtual disk does not set the figure.
const DEVICE_GOAL_VOLUME_MAX: u64 = 1 << 30;
/// Segments of a goal row's window, each followed by a device burst ([`DeviceInterleave`]).
const GOAL_SEGMENTS: usize = 4;

/// The committer workload at each size of [`COMMIT_TABLE_SIZES`] (each unit of work gets the
/// previous message and puts the next, so the page sets do not share the device with the log:
/// a put-only run at 16-256 KiB measured 0.29-0.45 of the device, its page set writes taking
/// the rest), each followed by the device's synced sequential bandwidth at the write size the
/// log's writers issued in that run (pre-written file, as active logs are), printed as one table.
///
/// Each size runs twice. The goal row gives the log the device to itself: active logs large
/// enough that no switch happens in the window ([`DEDICATED_ACTIVE_LOG_MIB`]; the row prints
/// the window's switches and offloads, and the goal counts as met only with none). The second,
/// informational row keeps the benchmark's usual configuration (`config`, 4 x 256 MiB), where
/// a run switches logs several times and each switch's offload (reading the full log and
/// writing its archive) and checkpoint share the device with the log: the device then does
/// about twice the log's bytes. Smoke runs (CI) use the usual logs for both, without the 8 GiB
/// of formatting, and say so in the goal row's label.
fn commit_sizes(context: &mut Context, config: &QueueManagerConfig, sequential: f64) {
    let threads = context.committers;
    let mut dedicated = config.clone();
    let mut dedicated_duration = context.duration();
    let mut dedicated_log_limit = None;
    if context.mode != crate::Mode::Smoke {
        dedicated.log.active_log_size_mib = DEDICATED_ACTIVE_LOG_MIB;
        dedicated.log.active_log_count = DEDICATED_ACTIVE_LOGS;
        dedicated_duration = dedicated_duration.min(Duration::from_secs_f64(DEDICATED_LOG_SECONDS));
        dedicated_log_limit =
            Some((u64::from(DEDICATED_ACTIVE_LOG_MIB) << 20) / 100 * DEDICATED_LOG_PERCENT_MAX);
    }
    println!(
        "  {threads} committers by message size, then the device at the log's I/O size; \
         each size twice: the log alone ({} x {} MiB active logs, {:.1} s) and with switches \
         ({} x {} MiB, {:.0} s) ...",
        dedicated.log.active_log_count,
        dedicated.log.active_log_size_mib,
        dedicated_duration.as_secs_f64(),
        config.log.active_log_count,
        config.log.active_log_size_mib,
        context.seconds
    );
    let mut lines = Vec::new();
    let sizes = if context.commit_sizes.is_empty() {
        COMMIT_TABLE_SIZES.to_vec()
    } else {
        context.commit_sizes.clone()
    };
    for size in sizes {
        for (alone, run_config, duration, log_limit) in [
            (true, &dedicated, dedicated_duration, dedicated_log_limit),
            (false, config, context.duration(), None),
        ] {
            let plan = SizeRun {
                size,
                alone,
                config: run_config,
                duration,
                log_limit,
            };
            let (run, interleave) = run_at_size(context, &plan);
            let device = DeviceAtSize::measure(context, &run);
            let interleaved = interleave.as_ref().map(DeviceInterleave::device_bandwidth);
            report_size_run(context, &plan, &run, interleave.as_ref(), &device);
            lines.push(size_table_line(
                &plan,
                &run,
                &device,
                interleaved,
                sequential,
            ));
        }
    }
    println!(
        "  | message | active logs | msgs/s | log MB/s | written MB/s | KiB/I/O | KiB/sync | log in I/O | switches / offloads | device MB/s at the I/O size | ratio | device MB/s at the bytes per sync, between segments (goal) | ratio (goal) | device MB/s at the bytes per sync, after the window | ratio | device MB/s of log, the log's pattern | ratio | ratio to 512K ({:.0} MB/s) |",
        sequential / MB
    );
    for line in lines {
        println!("{line}");
    }
}

/// One run of the committer table by size: `size`-byte messages, the log alone on the device
/// (the goal row) or not, with its configuration, window length and log limit.
struct SizeRun<'a> {
    size: usize,
    alone: bool,
    config: &'a QueueManagerConfig,
    duration: Duration,
    log_limit: Option<u64>,
}

/// The get+put committers of `plan` on a fresh queue manager, the goal row's window
/// interleaved with device bursts, with where a write cycle's and a commit's time went.
fn run_at_size(context: &Context, plan: &SizeRun) -> (CommitterRun, Option<DeviceInterleave>) {
    let (queue_manager, directory) = engine::fresh(&context.dir, "commitsize", plan.config);
    let label = format!("SIZE{}K", plan.size / 1024);
    // The goal row's device figure is taken between the segments of its window.
    let mut interleave = plan.alone.then(|| {
        let segments = context.mode.pick(2, GOAL_SEGMENTS, GOAL_SEGMENTS);
        let file_bytes = if context.mode == crate::Mode::Smoke {
            8 << 20
        } else {
            DEVICE_GOAL_VOLUME_MAX
        };
        io(DeviceInterleave::new(&context.dir, segments, file_bytes))
    });
    let run = run_committers(
        &queue_manager,
        &CommitterWindow {
            threads: context.committers,
            size: plan.size,
            duration: plan.duration,
            log_limit: plan.log_limit,
            label: &label,
            shape: CommitterUnit::GetAndPut,
        },
        interleave.as_mut(),
    );
    println!(
        "    {} KiB, {}: {}",
        plan.size / 1024,
        if plan.alone {
            "log alone"
        } else {
            "with switches"
        },
        run.log.describe()
    );
    // Where a write cycle's time goes: the writer's `write` calls, its sync, and the
    // time between a cycle's end and the next one's start (forcers woken, appending).
    let cycles = run.log.syncs.max(1) as f64;
    println!(
        "      per write cycle ({} cycles, {:.1} KiB): writes {:.1} us, sync {:.1} us, between cycles {:.1} us",
        run.log.syncs,
        run.log.bytes_written[0] as f64 / cycles / 1024.0,
        (run.log.io_busy_seconds - run.log.sync_seconds) / cycles * 1e6,
        run.log.sync_seconds / cycles * 1e6,
        (run.elapsed.as_secs_f64() - run.log.io_busy_seconds).max(0.0) / cycles * 1e6,
    );
    let commits = run.messages.max(1) as f64;
    println!(
        "      per commit ({} commits, {:.1} per cycle): CPU {:.1} us (user {:.1}, system {:.1}), context switches {:.2} voluntary, {:.2} involuntary",
        run.messages,
        commits / cycles,
        (run.usage.user_seconds + run.usage.system_seconds) / commits * 1e6,
        run.usage.user_seconds / commits * 1e6,
        run.usage.system_seconds / commits * 1e6,
        run.usage.voluntary_switches as f64 / commits,
        run.usage.involuntary_switches as f64 / commits,
    );
    queue_manager.shutdown().expect("shutdown");
    drop(queue_manager);
    engine::remove(&directory);
    (run, interleave)
}

/// The device after a run of the table by size, at the sizes the log's writers used: its
/// synced sequential bandwidth at the log's I/O size and at its bytes per sync, the log's own
/// write pattern, and the bytes per sync again with every CPU busy (bytes/s).
struct DeviceAtSize {
    /// The log's bytes per write I/O and per sync, and the device's write sizes for them.
    per_io: u64,
    write_bytes: usize,
    per_sync: u64,
    sync_bytes: usize,
    /// Bytes the device wrote for the comparisons at the bytes per sync.
    device_volume: u64,
    device: f64,
    device_per_sync: f64,
    /// The log's pattern: bytes in place per sync and the ping-pong slot's.
    pattern_in_place: usize,
    pattern_slot: usize,
    device_pattern: f64,
    device_busy: f64,
    busy_threads: usize,
}

impl DeviceAtSize {
    fn measure(context: &Context, run: &CommitterRun) -> DeviceAtSize {
        let per_io = run.log.bytes_written[0]
            .checked_div(run.log.write_ios[0])
            .unwrap_or(4096);
        let write_bytes = (per_io.div_ceil(4096) * 4096).max(4096) as usize;
        let total = context.mode.pick(8u64, 64, 128) << 20;
        let device = io(physical::synced_bandwidth(
            &context.dir,
            write_bytes,
            total.max(16 * write_bytes as u64),
            Preparation::Formatted,
        ));
        // The goal's comparison: the device writing the log's bytes per fdatasync, each
        // synced (a write cycle of several I/Os ends with one sync, and a bigger sync is
        // cheaper for the raw device too).
        let per_sync = run.log.bytes_written[0]
            .checked_div(run.log.syncs)
            .unwrap_or(per_io);
        let sync_bytes = (per_sync.div_ceil(4096) * 4096).max(4096) as usize;
        // Over as many bytes as the log wrote in its window (at least `total`, at most
        // DEVICE_GOAL_VOLUME_MAX): the log's figure is a sustained one (1-2.5 s), and a
        // 64 MiB sample (25 ms at 2.5 GB/s) measures the device's bursts.
        let device_volume = if context.mode == crate::Mode::Smoke {
            total
        } else {
            run.log.bytes_written[0].clamp(total, DEVICE_GOAL_VOLUME_MAX)
        };
        let device_per_sync = if sync_bytes == write_bytes && device_volume == total {
            device
        } else {
            io(physical::synced_bandwidth(
                &context.dir,
                sync_bytes,
                device_volume.max(16 * sync_bytes as u64),
                Preparation::Formatted,
            ))
        };
        // The device doing the log's own write pattern: each sync's RBA advance in place
        // plus one ping-pong slot far from it (the partial page a cycle ends with). What
        // the log loses against this is the engine's own cost (its CPU and hand-offs); what
        // this loses against `device_per_sync` is the pattern's (docs/performance-notes.md,
        // "The log's write cycle").
        let rba_per_sync = run.log_bytes.checked_div(run.log.syncs).unwrap_or(per_sync);
        let pattern_in_place = ((rba_per_sync + 2048) / 4096 * 4096).max(4096) as usize;
        // A slot is one page, or two when the partial page is fuller than a page less
        // the slot's header (rare): the bytes written beyond the RBA advance, to a page.
        let pattern_slot = ((per_sync.saturating_sub(rba_per_sync) + 2048) / 4096 * 4096)
            .clamp(4096, 8192) as usize;
        let device_pattern = io(physical::log_pattern_synced_bandwidth(
            &context.dir,
            pattern_in_place,
            pattern_slot,
            device_volume.max(16 * pattern_in_place as u64),
        ));
        // The same writes while a thread of this process keeps every CPU busy
        // (informational: whether busy CPUs alone slow the device, docs/performance-notes.md,
        // "The device").
        let (device_busy, busy_threads) = physical::with_every_cpu_busy(|| {
            io(physical::synced_bandwidth(
                &context.dir,
                sync_bytes,
                device_volume.max(16 * sync_bytes as u64),
                Preparation::Formatted,
            ))
        });
        DeviceAtSize {
            per_io,
            write_bytes,
            per_sync,
            sync_bytes,
            device_volume,
            device,
            device_per_sync,
            pattern_in_place,
            pattern_slot,
            device_pattern,
            device_busy,
            busy_threads,
        }
    }
}

/// A run of the table by size against the device: the goal row (against the device between
/// the window's segments, each segment printed) or the row against the device after the
/// window, then the rows against the log's write pattern, busy CPUs and the log's I/O size.
fn report_size_run(
    context: &mut Context,
    plan: &SizeRun,
    run: &CommitterRun,
    interleave: Option<&DeviceInterleave>,
    device: &DeviceAtSize,
) {
    let threads = context.committers;
    let rate = run.log_bytes_per_second();
    let logs = format!(
        "{} x {} MiB active logs, {} switches and {} offloads in the window",
        plan.config.log.active_log_count,
        plan.config.log.active_log_size_mib,
        run.log.switches,
        run.log.offloads
    );
    let metric = format!(
        "{threads} committers, {} KiB messages (get+put per commit): log throughput, {} ({logs})",
        plan.size / 1024,
        if plan.alone && plan.config.log.active_log_size_mib == DEDICATED_ACTIVE_LOG_MIB {
            "the log alone on the device"
        } else if plan.alone {
            "goal configuration, smoke: the usual active logs"
        } else {
            "sharing the device with offloads and checkpoints"
        }
    );
    let after_window = format!(
        "synced seq write {}K, one fdatasync each (the log's bytes per sync), pre-written, {} MiB (this run)",
        device.sync_bytes / 1024,
        device.device_volume >> 20
    );
    if let Some(interleave) = interleave {
        report_goal_row(context, run, interleave, &metric);
        context.report.push(
            Row::new(
                "commit",
                format!("{metric}, against the device after the window"),
                rate / MB,
                "MB/s",
            )
            .against(after_window, device.device_per_sync / MB),
        );
    } else {
        context.report.push(
            Row::new("commit", metric.clone(), rate / MB, "MB/s")
                .against(after_window, device.device_per_sync / MB),
        );
    }
    context.report.push(
        Row::new(
            "commit",
            format!("{metric}, against the log's write pattern"),
            rate / MB,
            "MB/s",
        )
        .against(
            format!(
                "synced writes of {}K in place + a {}K ping-pong slot, one fdatasync each, pre-written (this run)",
                device.pattern_in_place / 1024,
                device.pattern_slot / 1024
            ),
            device.device_pattern / MB,
        ),
    );
    context.report.push(
        Row::new(
            "commit",
            format!("{metric}, against the device with every CPU busy in this process"),
            rate / MB,
            "MB/s",
        )
        .against(
            format!(
                "synced seq write {}K, one fdatasync each (the log's bytes per sync), pre-written, {} MiB, {} threads of this process counting (this run)",
                device.sync_bytes / 1024,
                device.device_volume >> 20,
                device.busy_threads
            ),
            device.device_busy / MB,
        ),
    );
    context.report.push(
        Row::new(
            "commit",
            format!("{metric}, at the log's I/O size"),
            rate / MB,
            "MB/s",
        )
        .against(
            format!(
                "synced seq write {}K (the log's I/O size), pre-written (this run)",
                device.write_bytes / 1024
            ),
            device.device / MB,
        ),
    );
}

/// The goal row of a size: the log's throughput against the device in bursts between the
/// window's segments (each segment and its burst printed), met at 0.8 with no log switch.
fn report_goal_row(
    context: &mut Context,
    run: &CommitterRun,
    interleave: &DeviceInterleave,
    metric: &str,
) {
    let rate = run.log_bytes_per_second();
    let device_between = interleave.device_bandwidth();
    for (index, figures) in interleave.figures.iter().enumerate() {
        let log_rate = figures.log_bytes as f64 / figures.seconds.max(1e-9);
        let device_rate = figures.device_bytes as f64 / figures.device_seconds.max(1e-9);
        println!(
            "      segment {}: log {:.1} MB/s in {:.2} s ({:.1} KiB written per sync); then the device at {}K per sync: {:.1} MB/s over {} MiB; ratio {:.2}",
            index + 1,
            log_rate / MB,
            figures.seconds,
            figures.written as f64 / figures.syncs.max(1) as f64 / 1024.0,
            figures.device_write_bytes / 1024,
            device_rate / MB,
            figures.device_bytes >> 20,
            log_rate / device_rate,
        );
    }
    let bytes: u64 = interleave.figures.iter().map(|f| f.device_bytes).sum();
    context.report.push(
        Row::new("commit", metric.to_string(), rate / MB, "MB/s")
            .against(
                format!(
                    "synced seq write at the log's bytes per sync, one fdatasync each, pre-written, {} MiB in bursts between the window's {} segments (this run)",
                    bytes >> 20,
                    interleave.figures.len()
                ),
                device_between / MB,
            )
            .goal(
                "ratio >= 0.8, no switch in the window",
                rate / device_between >= 0.8 && run.log.switches == 0,
            ),
    );
}

/// A run's line of the table by size (`interleaved`: the device between the goal window's
/// segments; `sequential`: the 512 KiB synced sequential bandwidth).
fn size_table_line(
    plan: &SizeRun,
    run: &CommitterRun,
    device: &DeviceAtSize,
    interleaved: Option<f64>,
    sequential: f64,
) -> String {
    let rate = run.log_bytes_per_second();
    format!(
        "  | {:>4} KiB | {:<13} | {:>9.0} | {:>8.1} | {:>8.1} | {:>6.1} | {:>7.1} | {:>5.0}% | {:>3} / {:>3} | {:>9.1} | {:>5.2} | {:>9} | {:>5} | {:>9.1} | {:>5.2} | {:>9.1} | {:>5.2} | {:>5.2} |",
        plan.size / 1024,
        if plan.alone { "log alone" } else { "with switches" },
        run.messages_per_second(),
        rate / MB,
        run.log.bytes_written[0] as f64 / run.elapsed.as_secs_f64() / MB,
        device.per_io as f64 / 1024.0,
        device.per_sync as f64 / 1024.0,
        100.0 * run.log.io_busy_seconds / run.elapsed.as_secs_f64(),
        run.log.switches,
        run.log.offloads,
        device.device / MB,
        rate / device.device,
        interleaved.map_or("-".to_string(), |d| format!("{:.1}", d / MB)),
        interleaved.map_or("-".to_string(), |d| format!("{:.2}", rate / d)),
        device.device_per_sync / MB,
        rate / device.device_per_sync,
        device.device_pattern / MB,
        rate / device.device_pattern,
        rate / sequential,
    )
}

pub fn dual(context: &mut Context) {
    heading("dual: the committer workload with TWOACTV=YES against NO");
    let threads = context.committers;
    let [(single, single_one), (dual, dual_one)] = alternate_dual_rounds(context);
    let ratio = dual.messages_per_second() / single.messages_per_second();
    context.report.push(
        Row::new(
            "dual",
            format!("{threads} committers TWOACTV=YES: messages/s"),
            dual.messages_per_second(),
            "msgs/s",
        )
        .against("TWOACTV=NO (this run)", single.messages_per_second())
        .goal("ratio >= 0.9", ratio >= 0.9),
    );
    context.report.push(
        Row::new(
            "dual",
            format!("{threads} committers TWOACTV=YES: log throughput"),
            dual.log_bytes_per_second() / MB,
            "MB/s",
        )
        .against("TWOACTV=NO (this run)", single.log_bytes_per_second() / MB),
    );
    context.report.push(
        Row::new(
            "dual",
            format!("{threads} committers TWOACTV=YES: commit latency mean"),
            dual.commit.mean_us(),
            "us",
        )
        .against("TWOACTV=NO (this run)", single.commit.mean_us()),
    );
    dual_device_bound(context);
    report_dual_one_committer(context, single_one, dual_one);
}

/// The rounds of the dual logging comparison: `[NO, YES]`, each (the committers' run, the
/// one committer's run) summed over the rounds.
fn alternate_dual_rounds(context: &Context) -> [(CommitterRun, CommitterRun); 2] {
    // This machine's disk is shared and its speed drifts by several times within minutes, so
    // single and dual runs alternate (NO first in odd rounds, YES first in even ones) and the
    // ratio is taken over the sums.
    let rounds = context.mode.pick(1, 2, 4);
    let mut singles = Vec::new();
    let mut duals = Vec::new();
    let (mut singles_one, mut duals_one) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        // Alternate which mode goes first, so a drift within a round favours neither.
        let order = if round % 2 == 0 {
            [false, true]
        } else {
            [true, false]
        };
        for twoactv in order {
            let (run, one) = dual_round(context, round, rounds, twoactv);
            if twoactv {
                duals.push(run);
                duals_one.push(one);
            } else {
                singles.push(run);
                singles_one.push(one);
            }
        }
    }
    [
        (combine_runs(singles), combine_runs(singles_one)),
        (combine_runs(duals), combine_runs(duals_one)),
    ]
}

/// One round's run with TWOACTV=`twoactv` on a fresh queue manager: the committers, then one
/// committer.
fn dual_round(
    context: &Context,
    round: usize,
    rounds: usize,
    twoactv: bool,
) -> (CommitterRun, CommitterRun) {
    let threads = context.committers;
    let config = committer_config(if twoactv { "DUAL" } else { "SINGLE" }, twoactv);
    if round == 0 {
        println!("  config: {}", engine::describe(&config));
    }
    println!(
        "  round {}/{rounds}: {threads} committers, TWOACTV={} for {:.0} s ...",
        round + 1,
        if twoactv { "YES" } else { "NO" },
        context.seconds
    );
    let (queue_manager, directory) = engine::fresh(&context.dir, "dual", &config);
    let run = run_committers(
        &queue_manager,
        &CommitterWindow {
            threads,
            size: 1024,
            duration: context.duration(),
            log_limit: None,
            label: "DUAL",
            shape: CommitterUnit::Put,
        },
        None,
    );
    println!(
        "    {:.0} msgs/s; {}",
        run.messages_per_second(),
        run.log.describe()
    );
    // One committer on the same queue manager: the latency of one log I/O on both
    // copies, which the CPU load of 64 committers does not hide.
    let mut one = run_committers(
        &queue_manager,
        &CommitterWindow {
            threads: 1,
            size: 1024,
            duration: context.duration() / 2,
            log_limit: None,
            label: "DUAL1",
            shape: CommitterUnit::Put,
        },
        None,
    );
    println!(
        "    1 committer: commit mean {:.1} us p50 {:.1} us; {}",
        one.commit.mean_us(),
        one.commit.percentile_us(50.0),
        one.log.describe()
    );
    queue_manager.shutdown().expect("shutdown");
    drop(queue_manager);
    engine::remove(&directory);
    (run, one)
}

/// The sum of `runs`: messages, log bytes, time and commit latencies.
fn combine_runs(runs: Vec<CommitterRun>) -> CommitterRun {
    let mut total = CommitterRun {
        messages: 0,
        usage: ProcessUsage::default(),
        log_bytes: 0,
        elapsed: Duration::ZERO,
        commit: Latencies::default(),
        put_commit: Latencies::default(),
        log: LogDelta::default(),
    };
    for run in runs {
        total.messages += run.messages;
        total.log_bytes += run.log_bytes;
        total.elapsed += run.elapsed;
        total.commit.merge(run.commit);
    }
    total
}

/// The device's own bound for dual logging: the same 4 KiB write+fdatasync on one file and
/// on two files at once (both copies of the active log are on this one disk here, where MQ
/// advises separate volumes).
fn dual_device_bound(context: &mut Context) {
    let rounds_device = context.mode.pick(200, 1000, 3000);
    let mut one_file = io(physical::synced_writes(
        &context.dir,
        4096,
        rounds_device,
        Preparation::Formatted,
    ));
    let mut two_files = io(physical::paired_synced_writes(
        &context.dir,
        4096,
        rounds_device,
    ));
    let mut one_flush = io(physical::paired_shared_flush_writes(
        &context.dir,
        4096,
        rounds_device,
    ));
    println!(
        "  device: 4 KiB write+fdatasync p50 {:.1} us on one file, {:.1} us on two files at once, {:.1} us on two files with one flush (sync_file_range + fdatasync)",
        one_file.percentile_us(50.0),
        two_files.percentile_us(50.0),
        one_flush.percentile_us(50.0)
    );
    context.report.push(
        Row::new(
            "dual",
            "device: 4K write on two files, one flush (sync_file_range, fdatasync), p50",
            one_flush.percentile_us(50.0),
            "us",
        )
        .against("one file (this run)", one_file.percentile_us(50.0)),
    );
    context.report.push(
        Row::new(
            "dual",
            "device: 4K write+fdatasync on two files at once, p50",
            two_files.percentile_us(50.0),
            "us",
        )
        .against("one file (this run)", one_file.percentile_us(50.0)),
    );
}

/// One committer's commit latency with TWOACTV=YES against NO.
fn report_dual_one_committer(
    context: &mut Context,
    mut single_one: CommitterRun,
    mut dual_one: CommitterRun,
) {
    context.report.push(
        Row::new(
            "dual",
            "1 committer TWOACTV=YES: commit latency mean",
            dual_one.commit.mean_us(),
            "us",
        )
        .against("TWOACTV=NO (this run)", single_one.commit.mean_us()),
    );
    context.report.push(
        Row::new(
            "dual",
            "1 committer TWOACTV=YES: commit latency p50",
            dual_one.commit.percentile_us(50.0),
            "us",
        )
        .against(
            "TWOACTV=NO (this run)",
            single_one.commit.percentile_us(50.0),
        ),
    );
}

// ----- restart ------------------------------------------------------------------------------

/// Seconds between the first lines starting with `from` and `to` in a transcript.
fn between(lines: &[(Instant, String)], from: &str, to: &str) -> Option<f64> {
    let find = |prefix: &str| {
        lines
            .iter()
            .find(|(_, line)| line.starts_with(prefix))
            .map(|(at, _)| *at)
    };
    Some(find(to)?.duration_since(find(from)?).as_secs_f64())
}

/// The CSQR030I range: (from, to).
fn forward_range(lines: &[(Instant, String)]) -> Option<(u64, u64)> {
    let line = &lines
        .iter()
        .find(|(_, line)| line.starts_with("CSQR030I"))?
        .1;
    let rba = |key: &str| {
        let start = line.find(key)? + key.len();
        u64::from_str_radix(&line[start..start + 16], 16).ok()
    };
    let from = rba("FROM RBA=")?;
    let to = rba("TO RBA=")?;
    Some((from, to))
}

struct Restarted {
    queue_manager: Arc<QueueManager>,
    seconds: f64,
    lines: Vec<(Instant, String)>,
}

fn timed_open(directory: &Path) -> Restarted {
    let (sink, transcript) = engine::recording();
    let started = Instant::now();
    let queue_manager = QueueManager::open(engine::fs(), directory, sink).expect("restart");
    let seconds = started.elapsed().as_secs_f64();
    let lines = transcript.lock().unwrap().clone();
    Restarted {
        queue_manager,
        seconds,
        lines,
    }
}

pub fn restart(context: &mut Context) {
    heading("restart: crash restart with a deep MSGID-indexed queue");
    let messages = context.restart_messages;
    let size = 100usize; // MP16 ch1 §3.9 used 100-byte messages
    let mut config = engine::bench_config("RESTART");
    for pool in &mut config.buffer_pools {
        if pool.id == 2 {
            pool.buffers = 50_000; // MP16's production suggestion for BP2
        }
    }
    println!("  config: {}", engine::describe(&config));
    let directory = engine::fresh_directory(&context.dir, "restart");
    engine::create(&directory, &config);
    let queue_manager =
        QueueManager::open(engine::fs(), &directory, engine::quiet()).expect("open");
    let mut definition = QueueDefinition::local("RESTART.Q", PageSetId(2));
    definition.index_type = "MSGID".to_string();
    let queue = queue_manager
        .define_queue(definition, false)
        .expect("define");
    fill_restart_queue(context, &queue_manager, &queue, size);
    // The crash: no shutdown, so no shutdown checkpoint and no page writes beyond those done.
    drop(queue);
    drop(queue_manager);
    println!("  dropped without shutdown (simulated crash); restarting ...");
    let restarted = timed_open(&directory);
    print_transcript(&restarted.lines);
    let depth = restarted
        .queue_manager
        .queue("RESTART.Q")
        .map(|queue| queue.status().current_depth)
        .unwrap_or(0);
    assert_eq!(
        depth, messages,
        "every committed message must be back after restart"
    );
    report_crash_restart(context, &restarted);
    get_by_msgid(
        &restarted.queue_manager,
        messages / 2 / RESTART_FILL_THREADS,
    );
    println!("  clean shutdown, then restart ...");
    let shutdown_started = Instant::now();
    restarted.queue_manager.shutdown().expect("shutdown");
    let shutdown_seconds = shutdown_started.elapsed().as_secs_f64();
    drop(restarted);
    context.report.push(Row::new(
        "restart",
        "clean shutdown time",
        shutdown_seconds,
        "s",
    ));
    let clean = timed_open(&directory);
    print_transcript(&clean.lines);
    context.report.push(Row::new(
        "restart",
        format!("clean restart, {} msgs: total open time", messages - 1),
        clean.seconds,
        "s",
    ));
    compare_index_builds(context, &directory, clean);
    engine::remove(&directory);
}

/// Threads filling the restart benchmark's queue.
const RESTART_FILL_THREADS: u64 = 2;

/// The restart benchmark's queue filled with `context.restart_messages` persistent
/// `size`-byte messages, [`RESTART_FILL_THREADS`] threads putting 100 per unit of work.
fn fill_restart_queue(
    context: &mut Context,
    queue_manager: &QueueManager,
    queue: &Arc<LocalQueue>,
    size: usize,
) {
    let messages = context.restart_messages;
    println!("  filling {messages} persistent {size}-byte messages (2 threads, 100 per unit of work) ...");
    let data = engine::payload(size);
    let started = Instant::now();
    let threads = RESTART_FILL_THREADS;
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let data = &data;
            scope.spawn(move || {
                let mine = messages / threads + u64::from(thread < messages % threads);
                let mut unit = UnitOfWork::new();
                for index in 0..mine {
                    let tag = thread << 40 | index;
                    queue_manager
                        .put(Some(&mut unit), queue, &engine::descriptor(true, tag), data)
                        .expect("put");
                    if unit.message_count() == 100 {
                        queue_manager.commit(&mut unit).expect("commit");
                    }
                    if thread == 0 && index % 100_000 == 0 && index > 0 {
                        println!(
                            "    {} messages, {:.1} s",
                            index * threads,
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
                queue_manager.commit(&mut unit).expect("commit");
            });
        }
    });
    let fill_seconds = started.elapsed().as_secs_f64();
    let log_end = queue_manager.log().end_rba().0;
    println!(
        "  filled in {fill_seconds:.1} s ({:.0} msgs/s), log end RBA {log_end:#X}, {} checkpoints",
        messages as f64 / fill_seconds,
        queue_manager.checkpoints_taken()
    );
    context.report.push(Row::new(
        "restart",
        format!("fill {messages} x {size} B (2 threads, UOW of 100)"),
        messages as f64 / fill_seconds,
        "msgs/s",
    ));
}

/// A restart's messages, each with its time from the first.
fn print_transcript(lines: &[(Instant, String)]) {
    for (at, line) in lines {
        let since = at.duration_since(lines[0].0).as_secs_f64();
        println!("    +{since:7.3}s {line}");
    }
}

/// The crash restart's rows: its open time, forward recovery (range, time, rate: the goal),
/// the restart phases from its messages, and the extrapolation to MP16's 8 million messages.
fn report_crash_restart(context: &mut Context, restarted: &Restarted) {
    let messages = context.restart_messages;
    let lines = &restarted.lines;
    let total = restarted.seconds;
    context.report.push(Row::new(
        "restart",
        format!("crash restart, {messages} msgs: total open time"),
        total,
        "s",
    ));
    if let Some((from, to)) = forward_range(lines) {
        let bytes = (to - from) as f64;
        let forward = between(lines, "CSQR030I", "CSQR005I").unwrap_or(0.0);
        context.report.push(Row::new(
            "restart",
            "forward recovery log range (CSQR030I)",
            bytes / MB,
            "MB",
        ));
        context.report.push(Row::new(
            "restart",
            "forward recovery time (CSQR030I->CSQR005I)",
            forward,
            "s",
        ));
        let rate = if forward > 0.0 {
            bytes / forward / MB
        } else {
            0.0
        };
        context.report.push(
            Row::new("restart", "forward recovery rate", rate, "MB/s")
                .against("MQ active log read, DS8900F (MP16 ch1 L1360)", 800.0)
                .goal(">= 200 MB/s", rate >= 200.0),
        );
    }
    let phases = [
        ("phase 1-2 (CSQR001I->CSQR004I)", "CSQR001I", "CSQR004I"),
        ("phase 4 (CSQR005I->CSQR006I)", "CSQR005I", "CSQR006I"),
        (
            "page scan + queue/index rebuild (CSQR006I->CSQI006I)",
            "CSQR006I",
            "CSQI006I",
        ),
    ];
    for (label, from, to) in phases {
        if let Some(seconds) = between(lines, from, to) {
            context
                .report
                .push(Row::new("restart", label.to_string(), seconds, "s"));
        }
    }
    context.report.push(Row::new(
        "restart",
        "crash restart: messages available per second",
        messages as f64 / total,
        "msgs/s",
    ));
    report_extrapolated_restart(context, lines, total);
}

/// Extrapolation to MP16's 8 million: the page scan and index rebuild grow with depth; the
/// forward recovery range is bounded by LOGLOAD/checkpoints, not by depth.
fn report_extrapolated_restart(context: &mut Context, lines: &[(Instant, String)], total: f64) {
    let messages = context.restart_messages;
    let scale = 8_000_000.0 / messages as f64;
    let depth_part = between(lines, "CSQR006I", "CSQR002I").unwrap_or(total);
    let fixed_part = (total - depth_part).max(0.0);
    let extrapolated = fixed_part + depth_part * scale;
    let naive = total * scale;
    let label = if messages >= 8_000_000 {
        "8M msgs crash restart (measured)".to_string()
    } else {
        format!("8M msgs crash restart (EXTRAPOLATED from {messages}: depth-proportional part x{scale:.1})")
    };
    context.report.push(
        Row::new("restart", label, extrapolated, "s")
            .against(
                "MQ 8M indexed msgs, z16 + DS8950 (MP16 ch1 L2170-2202)",
                147.0,
            )
            .goal("<= 15 s", extrapolated <= 15.0),
    );
    if messages < 8_000_000 {
        context.report.push(Row::new(
            "restart",
            format!("8M msgs crash restart (EXTRAPOLATED, whole restart x{scale:.1}, pessimistic)"),
            naive,
            "s",
        ));
    }
}

/// A selective get through the MSGID index after restart: message `wanted` of thread 0.
fn get_by_msgid(queue_manager: &QueueManager, wanted: u64) {
    let queue = queue_manager.queue("RESTART.Q").expect("queue");
    let wanted = engine::descriptor(true, wanted).message_id;
    let selector = MessageSelector {
        message_id: Some(wanted),
        ..MessageSelector::default()
    };
    let started = Instant::now();
    let got = queue_manager
        .get(None, &queue, &selector, None)
        .expect("get by MSGID");
    assert!(got.is_some(), "get by MSGID after restart");
    println!(
        "  get by MSGID after restart: {:.1} us",
        started.elapsed().as_secs_f64() * 1e6
    );
}

/// QINDXBLD WAIT (`clean`, MQ's default) against NOWAIT: the time from the start of the open
/// to the first get of any message, and to the first get by MSGID (which, with NOWAIT,
/// builds the queue's index if the background builder has not yet).
fn compare_index_builds(context: &mut Context, directory: &Path, clean: Restarted) {
    let messages = context.restart_messages;
    let threads = RESTART_FILL_THREADS;
    let wait = first_gets(clean, messages / 3 / threads);
    let mut nowait_config = QueueManager::read_config(&*engine::fs(), directory).expect("config");
    nowait_config.system.qindxbld = ferrite_storage::config::IndexBuild::Nowait;
    std::fs::write(
        directory.join(ferrite_storage::config::CONFIG_FILE_NAME),
        nowait_config.to_toml(),
    )
    .expect("write qm.toml");
    let nowait = first_gets(timed_open(directory), messages / 4 / threads);
    for (label, (open, any, by_id)) in [("WAIT", wait), ("NOWAIT", nowait)] {
        println!(
            "  QINDXBLD({label}): open {open:.3} s, first get {any:.3} s, first get by MSGID {by_id:.3} s (from the start of the open)"
        );
        context.report.push(Row::new(
            "restart",
            format!("clean restart QINDXBLD({label}): time to the first get"),
            any,
            "s",
        ));
        context.report.push(Row::new(
            "restart",
            format!("clean restart QINDXBLD({label}): time to the first get by MSGID"),
            by_id,
            "s",
        ));
    }
}

/// From a timed open: (open seconds, seconds to the first get of any message, seconds to the
/// first get by MSGID of message `wanted` of thread 0), each from the start of the open. Shuts
/// the queue manager down.
fn first_gets(restarted: Restarted, wanted: u64) -> (f64, f64, f64) {
    let queue_manager = &restarted.queue_manager;
    let opened = Instant::now();
    let queue = queue_manager.queue("RESTART.Q").expect("queue");
    let any = queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .expect("get");
    assert!(any.is_some(), "a message after restart");
    let any_seconds = restarted.seconds + opened.elapsed().as_secs_f64();
    let wanted = engine::descriptor(true, wanted).message_id;
    let selector = MessageSelector {
        message_id: Some(wanted),
        ..MessageSelector::default()
    };
    let got = queue_manager
        .get(None, &queue, &selector, None)
        .expect("get by MSGID");
    assert!(got.is_some(), "get by MSGID after restart");
    let by_id_seconds = restarted.seconds + opened.elapsed().as_secs_f64();
    queue_manager.shutdown().expect("shutdown");
    (restarted.seconds, any_seconds, by_id_seconds)
}

// ----- deep queue -----------------------------------------------------------------------------

/// This process's resident memory (VmRSS), in KiB; 0 where /proc does not say.
fn own_resident_kib() -> u64 {
    crate::client::status_resident_kib("/proc/self/status")
}

pub fn deep_queue(context: &mut Context) {
    heading("deep-queue: fill far beyond the buffer pool, then drain");
    let buffers = context.mode.pick(1000u32, 10_000, 20_000);
    let messages = context.mode.pick(5_000u64, 100_000, 400_000);
    let size = 1024usize;
    let mut config = engine::bench_config("DEEP");
    for pool in &mut config.buffer_pools {
        if pool.id == 2 {
            pool.buffers = buffers;
        }
    }
    println!("  config: {}", engine::describe(&config));
    let (queue_manager, directory) = engine::fresh(&context.dir, "deep", &config);
    let queue = queue_manager
        .define_queue(QueueDefinition::local("DEEP.Q", PageSetId(2)), false)
        .expect("define");
    let deep = DeepQueue {
        queue_manager: &queue_manager,
        queue: &queue,
        data: engine::payload(size),
        messages,
        threads: 2,
        per_unit: 50,
        worst_put_us: AtomicU64::new(0),
        worst_commit_us: AtomicU64::new(0),
    };
    let pool_start = engine::pool_statistics(&queue_manager, 2);
    let (fill_seconds, _, fill_log) = deep.phase("fill", &|thread| deep.fill(thread));
    let pool_mid = engine::pool_statistics(&queue_manager, 2);
    let (worst_put_us, worst_commit_us) = (
        deep.worst_put_us.load(Ordering::Relaxed),
        deep.worst_commit_us.load(Ordering::Relaxed),
    );
    let full_kib = own_resident_kib();
    println!(
        "    worst MQPUT {worst_put_us} us, worst MQCMIT {worst_commit_us} us; \
         process RSS full {full_kib} KiB"
    );
    let (drain_seconds, _, drain_log) = deep.phase("drain", &|_thread| deep.drain());
    let drained_kib = own_resident_kib();
    println!("    process RSS drained {drained_kib} KiB");
    for (name, value, unit) in [
        ("fill: worst MQPUT", worst_put_us as f64, "us"),
        ("fill: worst MQCMIT", worst_commit_us as f64, "us"),
        ("process RSS, queue full", full_kib as f64, "KiB"),
        ("process RSS, queue drained", drained_kib as f64, "KiB"),
    ] {
        context.report.push(Row::new(
            "deep-queue",
            format!("{messages} x 1 KiB, BP2={buffers}: {name}"),
            value,
            unit,
        ));
    }
    let pool_end = engine::pool_statistics(&queue_manager, 2);
    let messages = (messages / deep.threads) * deep.threads;
    for (name, seconds, log_bytes, before, after) in [
        ("fill", fill_seconds, fill_log, &pool_start, &pool_mid),
        ("drain", drain_seconds, drain_log, &pool_mid, &pool_end),
    ] {
        let prefix = format!("{name} {messages} x 1 KiB, BP2={buffers}");
        let pool = engine::pool_delta(before, after);
        report_deep_queue_phase(context, &prefix, messages, seconds, log_bytes, &pool);
    }
    if context.mode == Mode::Smoke {
        println!("  (smoke: counts too small to mean anything)");
    }
    queue_manager.shutdown().expect("shutdown");
    drop(queue_manager);
    engine::remove(&directory);
}

/// The deep queue benchmark's queue and workload: `messages` persistent messages put by
/// `threads` threads in units of `per_unit`, then got the same way.
struct DeepQueue<'a> {
    queue_manager: &'a QueueManager,
    queue: &'a Arc<LocalQueue>,
    data: Vec<u8>,
    messages: u64,
    threads: u64,
    per_unit: u32,
    /// The longest single MQPUT and MQCMIT of the fill, in microseconds: a commit inserts its
    /// messages in the queue's delivery order, whose growth copies the lane under the lock.
    worst_put_us: AtomicU64,
    worst_commit_us: AtomicU64,
}

impl DeepQueue<'_> {
    /// `work` on each thread, timed, with the buffer pool's and the log's activity printed:
    /// (seconds, log activity, log bytes).
    fn phase(&self, name: &str, work: &(dyn Fn(u64) + Sync)) -> (f64, LogDelta, u64) {
        let queue_manager = self.queue_manager;
        let messages = self.messages;
        let pool_before = engine::pool_statistics(queue_manager, 2);
        let log_before = queue_manager.log_statistics();
        let rba_before = queue_manager.log().end_rba().0;
        let started = Instant::now();
        std::thread::scope(|scope| {
            for thread in 0..self.threads {
                scope.spawn(move || work(thread));
            }
        });
        let seconds = started.elapsed().as_secs_f64();
        let pool = engine::pool_delta(&pool_before, &engine::pool_statistics(queue_manager, 2));
        let log = engine::log_delta(&log_before, &queue_manager.log_statistics());
        println!(
            "  {name}: {messages} msgs in {seconds:.2} s ({:.0} msgs/s)",
            messages as f64 / seconds
        );
        println!("    BP2 QPST: {pool:?}");
        println!("    {}", log.describe());
        (seconds, log, queue_manager.log().end_rba().0 - rba_before)
    }

    /// One thread's share of the fill, keeping the worst MQPUT and MQCMIT.
    fn fill(&self, thread: u64) {
        let timed = |worst: &AtomicU64, call: &mut dyn FnMut()| {
            let started = Instant::now();
            call();
            worst.fetch_max(started.elapsed().as_micros() as u64, Ordering::Relaxed);
        };
        let mine = self.messages / self.threads;
        let mut unit = UnitOfWork::new();
        for index in 0..mine {
            timed(&self.worst_put_us, &mut || {
                self.queue_manager
                    .put(
                        Some(&mut unit),
                        self.queue,
                        &engine::descriptor(true, thread << 40 | index),
                        &self.data,
                    )
                    .expect("put");
            });
            if unit.message_count() == self.per_unit {
                timed(&self.worst_commit_us, &mut || {
                    self.queue_manager.commit(&mut unit).expect("commit")
                });
            }
        }
        self.queue_manager.commit(&mut unit).expect("commit");
    }

    /// Gets until the queue is empty.
    fn drain(&self) {
        let selector = MessageSelector::default();
        let mut unit = UnitOfWork::new();
        while self
            .queue_manager
            .get(Some(&mut unit), self.queue, &selector, None)
            .expect("get")
            .is_some()
        {
            if unit.message_count() == self.per_unit {
                self.queue_manager.commit(&mut unit).expect("commit");
            }
        }
        self.queue_manager.commit(&mut unit).expect("commit");
    }
}

/// A deep queue phase's rows: its rate, its log bandwidth and BP2's statistics over it.
fn report_deep_queue_phase(
    context: &mut Context,
    prefix: &str,
    messages: u64,
    seconds: f64,
    log_bytes: u64,
    pool: &ferrite_storage::buffer_pool::BufferPoolStatistics,
) {
    let bench = "deep-queue";
    context.report.push(Row::new(
        bench,
        format!("{prefix}: messages/s"),
        messages as f64 / seconds,
        "msgs/s",
    ));
    context.report.push(Row::new(
        bench,
        format!("{prefix}: log MB/s"),
        log_bytes as f64 / seconds / MB,
        "MB/s",
    ));
    for (field, value) in [
        ("QPSTDWT deferred write starts", pool.qpstdwt),
        ("QPSTTPW pages written", pool.qpsttpw),
        ("QPSTWIO write I/Os", pool.qpstwio),
        ("QPSTIMW synchronous writes", pool.qpstimw),
        ("QPSTDMC writes at >95% changed", pool.qpstdmc),
        ("QPSTRIO pages read", pool.qpstrio),
        ("QPSTSOS short on storage", pool.qpstsos),
        ("QPSTSTLA steal contention", pool.qpststla),
        ("QPSTCBSL lowest stealable", pool.qpstcbsl),
    ] {
        context.report.push(Row::new(
            bench,
            format!("{prefix}: {field}"),
            value as f64,
            "count",
        ));
    }
}
