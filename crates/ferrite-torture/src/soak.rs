//! The soak: one queue manager under the torture's mixed workload for a long time (no
//! kills), with connections that disconnect and reconnect, sampling the queue manager's
//! resident memory, threads and open file descriptors every interval. After the warm-up
//! (the first fifth of the run, at least one interval) none of them may grow beyond its
//! bound over the last warm-up sample. At the end the workload stops cleanly, every message
//! is checked against the model, the queue manager stops cleanly and its page sets and logs
//! are verified.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::model::{Model, Totals};
use crate::process_stats::{self, ProcessStats};
use crate::queue_manager::{torture_config, QueueManagerHome, RunningQueueManager};
use crate::random::Random;
use crate::torture::{start_workers, TortureOptions, TortureReport, Workers};
use crate::workload::{self, WorkloadSettings};

#[derive(Clone, Debug)]
pub struct SoakOptions {
    pub minutes: f64,
    pub interval_seconds: u64,
    pub connections: u16,
    /// Operations per second over all connections (0: as fast as they go).
    pub rate: u64,
    pub seed: u64,
    pub ferrite: PathBuf,
    pub work_directory: Option<PathBuf>,
    pub deep_depth_target: usize,
    /// Connections reconnect after this many operations.
    pub reconnect_every: u64,
    /// Bounds on growth after the warm-up.
    pub rss_growth_kib_max: u64,
    pub fd_growth_max: u64,
    pub thread_growth_max: u64,
}

static NEVER: AtomicBool = AtomicBool::new(false);

/// RSS may grow this much over the warm-up figure: buffer pools and log buffers are
/// allocated at start, so what grows is queue indexes and caches, bounded by the workload's
/// depth targets.
pub const RSS_GROWTH_KIB_MAX: u64 = 64 * 1024;
/// Open file descriptors may grow this much (connections in the middle of reconnecting).
pub const FD_GROWTH_MAX: u64 = 16;
/// Threads may grow this much (one per connection, reconnecting).
pub const THREAD_GROWTH_MAX: u64 = 16;

#[derive(Clone, Debug)]
pub struct Sample {
    pub elapsed: Duration,
    pub stats: ProcessStats,
    pub operations_per_second: f64,
    pub messages_held: usize,
    pub archive_logs: u64,
    pub page_set_mib: u64,
}

pub struct SoakReport {
    pub samples: Vec<Sample>,
    pub warmup_samples: usize,
    pub baseline: ProcessStats,
    pub peak_after_warmup: ProcessStats,
    pub operations: u64,
    pub messages_verified: u64,
    pub totals: Totals,
    pub violations: Vec<String>,
}

pub fn header() -> String {
    format!(
        "{:>8} {:>10} {:>8} {:>8} {:>10} {:>9} {:>8} {:>10}",
        "minute", "RSS MiB", "threads", "fds", "ops/s", "messages", "archives", "pagesets MiB"
    )
}

pub fn row(sample: &Sample) -> String {
    format!(
        "{:>8.1} {:>10.1} {:>8} {:>8} {:>10.0} {:>9} {:>8} {:>10}",
        sample.elapsed.as_secs_f64() / 60.0,
        sample.stats.rss_kib as f64 / 1024.0,
        sample.stats.threads,
        sample.stats.open_fds,
        sample.operations_per_second,
        sample.messages_held,
        sample.archive_logs,
        sample.page_set_mib
    )
}

pub fn run(options: &SoakOptions, progress: &mut dyn FnMut(&str)) -> Result<SoakReport, String> {
    let directory = match &options.work_directory {
        Some(directory) => tempfile::Builder::new()
            .prefix("ferrite-soak-")
            .tempdir_in(directory),
        None => tempfile::Builder::new().prefix("ferrite-soak-").tempdir(),
    }
    .map_err(|error| format!("cannot create a FERRITE_HOME: {error}"))?;
    let home = QueueManagerHome {
        ferrite: options.ferrite.clone(),
        home: directory.path().to_path_buf(),
        name: "SOAK".to_string(),
        listener_port: None,
    };
    let result = soak(options, &home, progress);
    if result.is_err() {
        let _ = directory.keep();
    }
    result.map_err(|error| format!("{error}\n(FERRITE_HOME kept at {})", home.home.display()))
}

fn soak(
    options: &SoakOptions,
    home: &QueueManagerHome,
    progress: &mut dyn FnMut(&str),
) -> Result<SoakReport, String> {
    home.create(&torture_config(&home.name), &workload::queue_definitions())?;
    let (mut running, _) = home.start()?;
    let model = Arc::new(Mutex::new(Model::new(
        workload::queue_names(),
        Totals::default(),
    )));
    let stop = Arc::new(AtomicBool::new(false));
    let workers = start_soak_workers(options, home, &model, &stop);
    let schedule = SampleSchedule::new(options);
    let (samples, early_end) =
        sample_intervals(&schedule, home, &mut running, &workers, &model, progress)?;
    let operations = workers.operations.load(Ordering::Relaxed);
    stop.store(true, Ordering::SeqCst);
    let mut report = TortureReport::default();
    let exited = running.has_exited();
    workers.finish(&model, &mut report, false)?;
    if exited || early_end.is_some() {
        return Err(format!(
            "the soak ended early (interval {:?}): the queue manager {}; its output:\n{}",
            early_end,
            if exited {
                "ended by itself"
            } else {
                "is running"
            },
            running.output()
        ));
    }
    let queues = workload::read_all_queues(&home.socket(), &home.name, false)?;
    let verification = model.lock().expect("model lock").verify_restart(&queues);
    if !verification.is_clean() {
        return Err(format!(
            "after the soak the queue manager does not hold what was committed:\n  {}",
            verification.problems.join("\n  ")
        ));
    }
    running.stop()?;
    home.verify_storage()?;
    let growth = check_growth(options, &samples, schedule.warmup_samples);
    let totals = model.lock().expect("model lock").totals.clone();
    Ok(SoakReport {
        samples,
        warmup_samples: schedule.warmup_samples,
        baseline: growth.baseline,
        peak_after_warmup: growth.peak,
        operations,
        messages_verified: verification.messages_verified,
        totals,
        violations: growth.violations,
    })
}

/// The torture's workers on `options.connections` connections, paced to `options.rate`,
/// running until `stop` is set.
fn start_soak_workers(
    options: &SoakOptions,
    home: &QueueManagerHome,
    model: &Arc<Mutex<Model>>,
    stop: &Arc<AtomicBool>,
) -> Workers {
    let pause = if options.rate == 0 {
        Duration::ZERO
    } else {
        Duration::from_secs_f64(f64::from(options.connections) / options.rate as f64)
    };
    let settings = WorkloadSettings {
        socket: home.socket(),
        queue_manager: home.name.clone(),
        deep_depth_target: options.deep_depth_target,
        reconnect_every: options.reconnect_every,
        pause,
    };
    let worker_options = TortureOptions {
        crashes: 0,
        seed: options.seed,
        connections: options.connections,
        ferrite: options.ferrite.clone(),
        work_directory: None,
        run_ms_max: 0,
        crashes_per_queue_manager: 1,
        storage_check_every: 0,
        deep_depth_target: options.deep_depth_target,
        kill_during_restart_percent: 0,
        interrupt: &NEVER,
    };
    let mut random = Random::new(options.seed);
    start_workers(
        &worker_options,
        &settings,
        model,
        &mut random,
        0,
        Some(stop.clone()),
    )
}

/// When the soak samples: every `interval`, `intervals` times; the first `warmup_samples`
/// are the warm-up.
struct SampleSchedule {
    interval: Duration,
    intervals: usize,
    warmup_samples: usize,
}

impl SampleSchedule {
    fn new(options: &SoakOptions) -> SampleSchedule {
        let duration = Duration::from_secs_f64(options.minutes * 60.0);
        let interval = Duration::from_secs(options.interval_seconds.max(1));
        let intervals = (duration.as_secs_f64() / interval.as_secs_f64())
            .ceil()
            .max(1.0) as usize;
        SampleSchedule {
            interval,
            intervals,
            warmup_samples: (intervals / 5).max(1),
        }
    }
}

/// One sample of the queue manager's process and the workload at the end of each interval,
/// each printed as a row; stops early (with the interval's number) once a worker or the queue
/// manager has ended.
fn sample_intervals(
    schedule: &SampleSchedule,
    home: &QueueManagerHome,
    running: &mut RunningQueueManager,
    workers: &Workers,
    model: &Mutex<Model>,
    progress: &mut dyn FnMut(&str),
) -> Result<(Vec<Sample>, Option<usize>), String> {
    let pid = running.pid();
    let started = Instant::now();
    let mut samples: Vec<Sample> = Vec::new();
    let mut last_operations = 0u64;
    let mut last_time = started;
    progress(&header());
    let mut early_end = None;
    for index in 1..=schedule.intervals {
        let due = started + schedule.interval * index as u32;
        while Instant::now() < due {
            if workers.handles.iter().any(|handle| handle.is_finished()) || running.has_exited() {
                early_end = Some(index);
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        if early_end.is_some() {
            break;
        }
        let stats = process_stats::sample(pid)?;
        let operations = workers.operations.load(Ordering::Relaxed);
        let now = Instant::now();
        let sample = Sample {
            elapsed: now - started,
            stats,
            operations_per_second: (operations - last_operations) as f64
                / (now - last_time).as_secs_f64(),
            messages_held: model.lock().expect("model lock").message_count(),
            archive_logs: home.archive_count(),
            page_set_mib: home.page_set_bytes() / (1024 * 1024),
        };
        last_operations = operations;
        last_time = now;
        let mut line = row(&sample);
        if index == schedule.warmup_samples {
            line.push_str("   <- end of warm-up (baseline)");
        }
        progress(&line);
        samples.push(sample);
    }
    Ok((samples, early_end))
}

/// The process's growth after the warm-up against the last warm-up sample.
struct Growth {
    baseline: ProcessStats,
    peak: ProcessStats,
    /// Each sample over a bound, described.
    violations: Vec<String>,
}

/// Each sample after the warm-up against the bounds of `options` over the baseline (the last
/// warm-up sample), and the peaks after the warm-up.
fn check_growth(options: &SoakOptions, samples: &[Sample], warmup_samples: usize) -> Growth {
    let baseline = samples
        .get(warmup_samples - 1)
        .map(|sample| sample.stats)
        .unwrap_or_default();
    let mut peak = ProcessStats::default();
    let mut violations = Vec::new();
    for sample in samples.iter().skip(warmup_samples) {
        peak.rss_kib = peak.rss_kib.max(sample.stats.rss_kib);
        peak.threads = peak.threads.max(sample.stats.threads);
        peak.open_fds = peak.open_fds.max(sample.stats.open_fds);
        let minute = sample.elapsed.as_secs_f64() / 60.0;
        if sample.stats.rss_kib > baseline.rss_kib + options.rss_growth_kib_max {
            violations.push(format!(
                "minute {minute:.1}: RSS {} KiB exceeds the warm-up {} KiB by more than {} KiB",
                sample.stats.rss_kib, baseline.rss_kib, options.rss_growth_kib_max
            ));
        }
        if sample.stats.open_fds > baseline.open_fds + options.fd_growth_max {
            violations.push(format!(
                "minute {minute:.1}: {} open file descriptors, more than the warm-up {} + {}",
                sample.stats.open_fds, baseline.open_fds, options.fd_growth_max
            ));
        }
        if sample.stats.threads > baseline.threads + options.thread_growth_max {
            violations.push(format!(
                "minute {minute:.1}: {} threads, more than the warm-up {} + {}",
                sample.stats.threads, baseline.threads, options.thread_growth_max
            ));
        }
    }
    Growth {
        baseline,
        peak,
        violations,
    }
}
