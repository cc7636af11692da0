//! The crash torture: start the queue manager, check everything it holds against the model,
//! run the workload from several connections, SIGKILL the queue manager at a seeded random
//! moment, and again, thousands of times. One kill in ten (by default) lands while the queue
//! manager is still restarting. Every few crashes the page sets and logs left by the kill are checked
//! with `ferrite pageset verify` and `ferrite log verify`; every
//! `crashes_per_queue_manager` crashes the queue manager is stopped cleanly, checked,
//! restarted, checked again, drained message by message and replaced by a new one (so the
//! archive logs of a long run do not fill the disk).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::model::{Model, Totals, Verification};
use crate::queue_manager::{torture_config, QueueManagerHome, RunningQueueManager};
use crate::random::Random;
use crate::workload::{self, Worker, WorkerEnd, WorkloadSettings};

/// Name of the queue manager under torture.
pub const QUEUE_MANAGER_NAME: &str = "TORTURE";
/// Longest a kill during restart waits after the process starts.
const KILL_DURING_RESTART_MS_MAX: u64 = 400;

#[derive(Clone, Debug)]
pub struct TortureOptions {
    pub crashes: u64,
    pub seed: u64,
    pub connections: u16,
    pub ferrite: PathBuf,
    /// Directory for the FERRITE_HOMEs (default: the system's temporary directory).
    pub work_directory: Option<PathBuf>,
    /// Longest workload between a restart and the next kill.
    pub run_ms_max: u64,
    pub crashes_per_queue_manager: u64,
    /// Run `ferrite pageset verify` and `ferrite log verify` on the killed queue manager
    /// every this many crashes.
    pub storage_check_every: u64,
    pub deep_depth_target: usize,
    /// Percentage of kills that land during a restart (0–100).
    pub kill_during_restart_percent: u64,
    /// Set (by a signal handler) to end the run early: the current queue manager still ends
    /// its life with the full checks, and the report covers the crashes survived so far.
    pub interrupt: &'static AtomicBool,
}

#[derive(Clone, Debug, Default)]
pub struct TortureReport {
    /// The run ended early on `interrupt`.
    pub interrupted: bool,
    pub crashes_survived: u64,
    pub kills_during_restart: u64,
    pub queue_managers: u64,
    /// Restart verifications: every message checked present or absent as the model says.
    pub verifications: u64,
    pub messages_verified: u64,
    pub messages_drained: u64,
    pub lost: u64,
    pub duplicated: u64,
    pub phantom: u64,
    pub order_violations: u64,
    pub uncertain_units: u64,
    pub uncertain_units_committed: u64,
    /// The workload's totals over all queue managers.
    pub totals: Totals,
    pub checkpoints: u64,
    pub archive_logs: u64,
    pub storage_checks: u64,
    pub restart_seconds_max: f64,
    pub restart_seconds_total: f64,
    pub restarts: u64,
    pub elapsed: Duration,
}

impl TortureReport {
    fn add_verification(&mut self, verification: &Verification) {
        self.verifications += 1;
        self.messages_verified += verification.messages_verified;
        self.lost += verification.lost;
        self.duplicated += verification.duplicated;
        self.phantom += verification.phantom;
        self.order_violations += verification.order_violations;
        self.uncertain_units += verification.uncertain_units;
        self.uncertain_units_committed += verification.uncertain_units_committed;
    }

    fn add_restart(&mut self, took: Duration) {
        let seconds = took.as_secs_f64();
        self.restarts += 1;
        self.restart_seconds_total += seconds;
        self.restart_seconds_max = self.restart_seconds_max.max(seconds);
    }

    pub fn summary(&self) -> String {
        let average = if self.restarts > 0 {
            self.restart_seconds_total / self.restarts as f64
        } else {
            0.0
        };
        format!(
            "{}crashes survived: {} ({} during restart) on {} queue managers in {:.0} s\n\
             messages verified: {} in {} restart checks, plus {} drained one by one at the end of each queue manager and {} checked as the workload got or browsed them\n\
             lost: {}, duplicated: {}, phantom: {}, order violations: {}\n\
             acknowledged: {} puts, {} gets, {} commits; {} backouts; {} browsed messages\n\
             units of work with MQCMIT in flight at a kill: {} ({} of them had committed)\n\
             checkpoints: {}, archive logs written: {}, storage checks (pageset verify + log verify): {}\n\
             restart time: average {:.2} s, longest {:.2} s",
            if self.interrupted {
                "interrupted; "
            } else {
                ""
            },
            self.crashes_survived,
            self.kills_during_restart,
            self.queue_managers,
            self.elapsed.as_secs_f64(),
            self.messages_verified,
            self.verifications,
            self.messages_drained,
            self.totals.messages_checked_in_flight,
            self.lost,
            self.duplicated,
            self.phantom,
            self.order_violations,
            self.totals.puts_acknowledged,
            self.totals.gets_acknowledged,
            self.totals.commits,
            self.totals.backouts,
            self.totals.browses,
            self.uncertain_units,
            self.uncertain_units_committed,
            self.checkpoints,
            self.archive_logs,
            self.storage_checks,
            average,
            self.restart_seconds_max
        )
    }
}

/// A failure, with where to look: the kept FERRITE_HOME and the seed to replay.
fn failure(home: &QueueManagerHome, seed: u64, what: String) -> String {
    format!(
        "{what}\n(FERRITE_HOME kept at {}; replay with --seed {seed})",
        home.home.display()
    )
}

pub fn run(
    options: &TortureOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<TortureReport, String> {
    assert!(options.connections > 0, "at least one connection");
    assert!(options.crashes_per_queue_manager > 0);
    let started = Instant::now();
    let mut random = Random::new(options.seed);
    let mut report = TortureReport::default();
    while report.crashes_survived < options.crashes && !options.interrupt.load(Ordering::SeqCst) {
        let crashes =
            (options.crashes - report.crashes_survived).min(options.crashes_per_queue_manager);
        let directory = match &options.work_directory {
            Some(directory) => {
                std::fs::create_dir_all(directory)
                    .map_err(|error| format!("cannot create {}: {error}", directory.display()))?;
                tempfile::Builder::new()
                    .prefix("ferrite-torture-")
                    .tempdir_in(directory)
            }
            None => tempfile::Builder::new()
                .prefix("ferrite-torture-")
                .tempdir(),
        }
        .map_err(|error| format!("cannot create a FERRITE_HOME: {error}"))?;
        let home = QueueManagerHome {
            ferrite: options.ferrite.clone(),
            home: directory.path().to_path_buf(),
            name: QUEUE_MANAGER_NAME.to_string(),
            listener_port: None,
        };
        report.queue_managers += 1;
        let result =
            torture_one_queue_manager(options, &home, crashes, &mut random, &mut report, progress);
        match result {
            Ok(()) => drop(directory),
            Err(error) => {
                let _ = directory.keep();
                return Err(failure(&home, options.seed, error));
            }
        }
    }
    report.interrupted = report.crashes_survived < options.crashes;
    report.elapsed = started.elapsed();
    Ok(report)
}

fn torture_one_queue_manager(
    options: &TortureOptions,
    home: &QueueManagerHome,
    crashes: u64,
    random: &mut Random,
    report: &mut TortureReport,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    home.create(&torture_config(&home.name), &workload::queue_definitions())?;
    let model = Arc::new(Mutex::new(Model::new(
        workload::queue_names(),
        report.totals.clone(),
    )));
    let settings = WorkloadSettings {
        socket: home.socket(),
        queue_manager: home.name.clone(),
        deep_depth_target: options.deep_depth_target,
        reconnect_every: 0,
        pause: Duration::ZERO,
    };
    let total = options.crashes;
    for _ in 0..crashes {
        if options.interrupt.load(Ordering::SeqCst) {
            progress("interrupted: ending the current queue manager with the full checks");
            break;
        }
        let crash = report.crashes_survived + 1;
        if random.percent(options.kill_during_restart_percent) {
            let mut running = home.spawn()?;
            let delay = random.below(KILL_DURING_RESTART_MS_MAX + 1);
            std::thread::sleep(Duration::from_millis(delay));
            if running.has_exited() {
                let error = running.wait_ready().err().unwrap_or_default();
                return Err(format!("crash {crash}: {error}"));
            }
            report.checkpoints += running.checkpoints();
            running.kill()?;
            report.crashes_survived += 1;
            report.kills_during_restart += 1;
            progress(&format!(
                "crash {crash}/{total}: killed {delay} ms into its restart"
            ));
        } else {
            let (mut running, took) = home.start()?;
            report.add_restart(took);
            let verification = verify(home, &model, report)
                .map_err(|error| format!("crash {crash}, before the workload: {error}"))?;
            let workload_ms = random.between(1, options.run_ms_max);
            let workers = start_workers(options, &settings, &model, random, crash, None);
            let ran = run_until(
                &mut running,
                Duration::from_millis(workload_ms),
                &workers.handles,
            );
            report.checkpoints += running.checkpoints();
            if running.has_exited() {
                return Err(format!(
                    "crash {crash}: the queue manager ended by itself during the workload; its output:\n{}",
                    running.output()
                ));
            }
            running.kill()?;
            workers
                .finish(&model, report, true)
                .map_err(|error| format!("crash {crash}: {error}"))?;
            report.crashes_survived += 1;
            progress(&format!(
                "crash {crash}/{total}: restart {:.2} s, {} messages verified ({} present, {} uncertain units resolved), killed after {} ms of workload{}",
                took.as_secs_f64(),
                verification.messages_verified,
                verification.present,
                verification.uncertain_units,
                ran.as_millis(),
                lost_line(report)
            ));
        }
        if options.storage_check_every > 0
            && report
                .crashes_survived
                .is_multiple_of(options.storage_check_every)
        {
            home.verify_storage().map_err(|error| {
                format!("after crash {crash}, on the killed queue manager: {error}")
            })?;
            report.storage_checks += 1;
        }
    }
    finish_queue_manager(options, home, &model, &settings, random, report, progress)
}

fn lost_line(report: &TortureReport) -> String {
    format!(
        "; lost {}, duplicated {} so far",
        report.lost, report.duplicated
    )
}

/// The end of one queue manager's life: a last workload stopped cleanly, a clean shutdown and
/// storage check, a clean restart that must keep everything, then every message drained in
/// queue order and checked.
fn finish_queue_manager(
    options: &TortureOptions,
    home: &QueueManagerHome,
    model: &Arc<Mutex<Model>>,
    settings: &WorkloadSettings,
    random: &mut Random,
    report: &mut TortureReport,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let (mut running, took) = home.start()?;
    report.add_restart(took);
    verify(home, model, report).map_err(|error| format!("final restart: {error}"))?;
    let stop = Arc::new(AtomicBool::new(false));
    let workers = start_workers(
        options,
        settings,
        model,
        random,
        u64::MAX,
        Some(stop.clone()),
    );
    run_until(
        &mut running,
        Duration::from_millis(options.run_ms_max),
        &workers.handles,
    );
    stop.store(true, Ordering::SeqCst);
    workers.finish(model, report, false)?;
    verify(home, model, report)
        .map_err(|error| format!("after a clean end of the workload: {error}"))?;
    report.checkpoints += running.checkpoints();
    running.stop()?;
    home.verify_storage()
        .map_err(|error| format!("after a clean shutdown: {error}"))?;
    report.storage_checks += 1;
    let (running, took) = home.start()?;
    report.add_restart(took);
    verify(home, model, report).map_err(|error| format!("after a clean restart: {error}"))?;
    let browsed = workload::read_all_queues(&home.socket(), &home.name, false)?;
    let drained = workload::read_all_queues(&home.socket(), &home.name, true)?;
    let mut model = model.lock().expect("model lock");
    for (queue, (browsed, drained)) in browsed.iter().zip(&drained).enumerate() {
        let name = &model.queue_names()[queue].clone();
        let browsed_ids: Vec<[u8; 24]> = browsed.iter().map(|m| m.msg_id).collect();
        let drained_ids: Vec<[u8; 24]> = drained.iter().map(|m| m.msg_id).collect();
        if browsed_ids != drained_ids {
            return Err(format!(
                "{name}: destructive gets returned {} messages in another order than a browse showed ({})",
                drained_ids.len(),
                browsed_ids.len()
            ));
        }
        for message in drained {
            if !message.data_ok || !model.drained(queue, message) {
                return Err(format!(
                    "{name}: a drained message does not match the model"
                ));
            }
            report.messages_drained += 1;
        }
    }
    if model.message_count() != 0 {
        return Err(format!(
            "{} messages of the model were not drained",
            model.message_count()
        ));
    }
    drop(model);
    report.checkpoints += running.checkpoints();
    report.archive_logs += home.archive_count();
    running.stop()?;
    home.verify_storage()
        .map_err(|error| format!("after the drain: {error}"))?;
    report.storage_checks += 1;
    progress(&format!(
        "queue manager {} done: stopped cleanly, restarted, drained and verified; {}",
        report.queue_managers,
        lost_line(report).trim_start_matches("; ")
    ));
    Ok(())
}

/// Browse every queue and check it against the model.
fn verify(
    home: &QueueManagerHome,
    model: &Arc<Mutex<Model>>,
    report: &mut TortureReport,
) -> Result<Verification, String> {
    let queues = workload::read_all_queues(&home.socket(), &home.name, false)?;
    let verification = model.lock().expect("model lock").verify_restart(&queues);
    report.add_verification(&verification);
    if !verification.is_clean() {
        return Err(format!(
            "the queue manager does not hold what was committed (lost {}, duplicated {}, phantom {}, order violations {}):\n  {}",
            verification.lost,
            verification.duplicated,
            verification.phantom,
            verification.order_violations,
            verification.problems.join("\n  ")
        ));
    }
    Ok(verification)
}

pub struct Workers {
    pub handles: Vec<JoinHandle<WorkerEnd>>,
    pub operations: Arc<AtomicU64>,
}

pub fn start_workers(
    options: &TortureOptions,
    settings: &WorkloadSettings,
    model: &Arc<Mutex<Model>>,
    random: &mut Random,
    cycle: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Workers {
    let stop = stop.unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    let operations = Arc::new(AtomicU64::new(0));
    let stream = random.next_u64();
    let handles = (0..options.connections)
        .map(|slot| {
            let worker = Worker {
                slot,
                random: Random::derive(stream, cycle, u64::from(slot)),
                settings: settings.clone(),
                model: model.clone(),
                stop: stop.clone(),
                operations: operations.clone(),
            };
            std::thread::spawn(move || worker.run())
        })
        .collect();
    Workers {
        handles,
        operations,
    }
}

impl Workers {
    /// Wait for every worker; the model must have no problem, and no worker may have failed
    /// (a lost connection is expected after a kill, not after a clean stop).
    pub fn finish(
        self,
        model: &Arc<Mutex<Model>>,
        report: &mut TortureReport,
        killed: bool,
    ) -> Result<(), String> {
        let mut failures = Vec::new();
        for handle in self.handles {
            match handle.join() {
                Ok(WorkerEnd::Stopped) => {}
                Ok(WorkerEnd::ConnectionLost) if killed => {}
                Ok(WorkerEnd::ConnectionLost) => {
                    failures.push("a worker lost its connection without a kill".to_string())
                }
                Ok(WorkerEnd::Failed(text)) => failures.push(text),
                Err(_) => failures.push("a worker panicked".to_string()),
            }
        }
        let model = model.lock().expect("model lock");
        let (problems, count) = model.problems();
        if count > 0 {
            failures.push(format!(
                "{count} problems seen while the workload ran:\n  {}",
                problems.join("\n  ")
            ));
        }
        report.totals = model.totals.clone();
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures.join("\n"))
        }
    }
}

/// Let the workload run for `duration`, or less if a worker ends early (it failed) or the
/// queue manager ends by itself. Returns how long it ran.
pub fn run_until(
    running: &mut RunningQueueManager,
    duration: Duration,
    handles: &[JoinHandle<WorkerEnd>],
) -> Duration {
    let started = Instant::now();
    while started.elapsed() < duration {
        if handles.iter().any(|handle| handle.is_finished()) || running.has_exited() {
            break;
        }
        std::thread::sleep(
            Duration::from_millis(5).min(duration.saturating_sub(started.elapsed())),
        );
    }
    started.elapsed()
}
