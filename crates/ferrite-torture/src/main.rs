//! `ferrite-torture`: crash torture (the default) and soak of real `ferrite` queue manager
//! processes. See the crate documentation (src/lib.rs) and RELIABILITY.md.
//!
//! ```sh
//! cargo run --release -p ferrite-torture -- --crashes 2000          # the long torture
//! cargo run --release -p ferrite-torture -- --crashes 50 --seed 7   # replay seed 7
//! cargo run --release -p ferrite-torture -- soak --minutes 60       # the soak
//! cargo run --release -p ferrite-torture -- channels --rounds 500   # message channel kills
//! cargo run --release -p ferrite-torture -- pubsub --crashes 500    # durable subscriptions
//! ```
//!
//! Exits non-zero at the first lost, duplicated or phantom message, order violation, failed
//! storage check or unexpected MQI reason, keeping the FERRITE_HOME and printing the seed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Args, Parser, Subcommand};

use ferrite_torture::channel_torture::{self, ChannelTortureOptions};
use ferrite_torture::queue_manager::locate_ferrite;
use ferrite_torture::soak::{self, SoakOptions};
use ferrite_torture::torture::{self, TortureOptions};

#[derive(Parser)]
#[command(
    name = "ferrite-torture",
    about = "Crash torture (SIGKILL at random moments, restart, verify) and soak of real ferrite queue managers",
    args_conflicts_with_subcommands = true
)]
struct Arguments {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    torture: TortureArguments,
}

#[derive(Subcommand)]
enum Command {
    /// One queue manager under the mixed load for a long time; memory, threads and file
    /// descriptors must stay flat after the warm-up.
    Soak(SoakArguments),
    /// Two queue managers and a message channel between them; the sender or the receiver
    /// SIGKILLed at seeded flows (mid-batch, mid-confirm) every round, every arrival checked
    /// against the model.
    Channels(ChannelArguments),
    /// Durable subscriptions fed by publications under syncpoint: SIGKILL, restart, and no
    /// publication lost or doubled for any subscriber.
    Pubsub(PubSubArguments),
}

#[derive(Args)]
struct ChannelArguments {
    /// Rounds, each with one SIGKILL.
    #[arg(long, default_value_t = 100)]
    rounds: u64,
    /// Most messages the producer puts in each half of a round.
    #[arg(long, default_value_t = 200)]
    messages_max: u64,
    /// The ferrite binary (default: the one built beside this program).
    #[arg(long)]
    ferrite: Option<PathBuf>,
    /// Directory for the FERRITE_HOME (default: the system's temporary directory).
    #[arg(long)]
    work_directory: Option<PathBuf>,
    /// Seed of every random choice (default: from the clock; printed for replay).
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Args)]
struct PubSubArguments {
    /// Crashes (SIGKILLs) to survive.
    #[arg(long, default_value_t = 100)]
    crashes: u64,
    /// Longest workload between a restart and the next kill, in milliseconds.
    #[arg(long, default_value_t = 1500)]
    run_ms_max: u64,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct Common {
    /// The ferrite binary (default: the one built beside this program).
    #[arg(long)]
    ferrite: Option<PathBuf>,
    /// Directory for the FERRITE_HOMEs (default: the system's temporary directory).
    #[arg(long)]
    work_directory: Option<PathBuf>,
    /// Seed of every random choice (default: from the clock; printed for replay).
    #[arg(long)]
    seed: Option<u64>,
    /// Client connections running the workload.
    #[arg(long, default_value_t = 4)]
    connections: u16,
    /// Depth the deep queue is filled to.
    #[arg(long, default_value_t = 1000)]
    deep_depth: usize,
}

#[derive(Args)]
struct TortureArguments {
    /// Crashes (SIGKILLs) to survive.
    #[arg(long, default_value_t = 100)]
    crashes: u64,
    /// Longest workload between a restart and the next kill, in milliseconds.
    #[arg(long, default_value_t = 1500)]
    run_ms_max: u64,
    /// Crashes before the queue manager is stopped cleanly, drained, checked and replaced.
    #[arg(long, default_value_t = 200)]
    crashes_per_queue_manager: u64,
    /// Run `ferrite pageset verify` and `ferrite log verify` on the killed queue manager
    /// every this many crashes (0: only at the end of each queue manager).
    #[arg(long, default_value_t = 10)]
    storage_check_every: u64,
    /// Percentage of kills that land 0-400 ms into a restart instead of into the workload.
    #[arg(long, default_value_t = 10)]
    kill_during_restart_percent: u64,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct SoakArguments {
    #[arg(long, default_value_t = 60.0)]
    minutes: f64,
    /// Seconds between samples.
    #[arg(long, default_value_t = 30)]
    interval_seconds: u64,
    /// Operations per second over all connections (0: as fast as they go).
    #[arg(long, default_value_t = 400)]
    rate: u64,
    /// Connections disconnect and reconnect after this many operations.
    #[arg(long, default_value_t = 500)]
    reconnect_every: u64,
    /// Largest RSS growth allowed after the warm-up, in MiB.
    #[arg(long, default_value_t = soak::RSS_GROWTH_KIB_MAX / 1024)]
    rss_growth_mib: u64,
    /// Largest growth of open file descriptors allowed after the warm-up.
    #[arg(long, default_value_t = soak::FD_GROWTH_MAX)]
    fd_growth: u64,
    /// Largest growth of threads allowed after the warm-up.
    #[arg(long, default_value_t = soak::THREAD_GROWTH_MAX)]
    thread_growth: u64,
    #[command(flatten)]
    common: Common,
}

/// Set by SIGINT or SIGTERM: the torture ends after the current crash, with the full checks.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn interrupt(_signal: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    })
}

fn main() -> ExitCode {
    let arguments = Arguments::parse();
    let result = match arguments.command {
        Some(Command::Soak(soak_arguments)) => run_soak(soak_arguments),
        Some(Command::Channels(channel_arguments)) => run_channels(channel_arguments),
        Some(Command::Pubsub(pubsub_arguments)) => run_pubsub(pubsub_arguments),
        None => run_torture(arguments.torture),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("ferrite-torture: FAILED: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run_torture(arguments: TortureArguments) -> Result<(), String> {
    let ferrite = locate_ferrite(arguments.common.ferrite.as_deref())?;
    let seed = seed_or_clock(arguments.common.seed);
    let options = TortureOptions {
        crashes: arguments.crashes,
        seed,
        connections: arguments.common.connections,
        ferrite,
        work_directory: arguments.common.work_directory,
        run_ms_max: arguments.run_ms_max.max(1),
        crashes_per_queue_manager: arguments.crashes_per_queue_manager.max(1),
        storage_check_every: arguments.storage_check_every,
        deep_depth_target: arguments.common.deep_depth,
        kill_during_restart_percent: arguments.kill_during_restart_percent.min(100),
        interrupt: &INTERRUPTED,
    };
    install_interrupt_handler();
    println!(
        "ferrite-torture: {} crashes, seed {seed}, {} connections, ferrite at {}",
        options.crashes,
        options.connections,
        options.ferrite.display()
    );
    let report = torture::run(&options, &mut |line| println!("{line}"))?;
    println!("\n{}", report.summary());
    if report.interrupted {
        println!("seed {seed}: PASSED as far as it went (interrupted)");
    } else {
        println!("seed {seed}: PASSED");
    }
    Ok(())
}

fn install_interrupt_handler() {
    // SAFETY: installing a handler that only stores to an atomic.
    unsafe {
        libc::signal(libc::SIGINT, interrupt as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, interrupt as *const () as libc::sighandler_t);
    }
}

fn run_channels(arguments: ChannelArguments) -> Result<(), String> {
    let seed = seed_or_clock(arguments.seed);
    let options = ChannelTortureOptions {
        rounds: arguments.rounds,
        seed,
        ferrite: locate_ferrite(arguments.ferrite.as_deref())?,
        work_directory: arguments.work_directory,
        messages_max: arguments.messages_max.max(1),
        interrupt: &INTERRUPTED,
    };
    install_interrupt_handler();
    println!(
        "ferrite-torture channels: {} rounds, seed {seed}, ferrite at {}",
        options.rounds,
        options.ferrite.display()
    );
    let report = channel_torture::run(&options, &mut |line| println!("{line}"))?;
    println!("\n{}", report.summary());
    println!("seed {seed}: PASSED");
    Ok(())
}

fn run_pubsub(arguments: PubSubArguments) -> Result<(), String> {
    let ferrite = locate_ferrite(arguments.common.ferrite.as_deref())?;
    let seed = seed_or_clock(arguments.common.seed);
    let options = ferrite_torture::pubsub::PubSubTortureOptions {
        crashes: arguments.crashes,
        seed,
        ferrite,
        work_directory: arguments.common.work_directory,
        run_ms_max: arguments.run_ms_max.max(51),
    };
    println!(
        "ferrite-torture pubsub: {} crashes, seed {seed}, ferrite at {}",
        options.crashes,
        options.ferrite.display()
    );
    let report = ferrite_torture::pubsub::run(&options, &mut |line| println!("{line}"))?;
    println!("\n{report:?}");
    if report.clean() {
        println!("seed {seed}: PASSED");
        Ok(())
    } else {
        Err(format!("seed {seed}: {report:?}"))
    }
}

fn run_soak(arguments: SoakArguments) -> Result<(), String> {
    let ferrite = locate_ferrite(arguments.common.ferrite.as_deref())?;
    let seed = seed_or_clock(arguments.common.seed);
    let options = SoakOptions {
        minutes: arguments.minutes,
        interval_seconds: arguments.interval_seconds,
        connections: arguments.common.connections,
        rate: arguments.rate,
        seed,
        ferrite,
        work_directory: arguments.common.work_directory,
        deep_depth_target: arguments.common.deep_depth,
        reconnect_every: arguments.reconnect_every,
        rss_growth_kib_max: arguments.rss_growth_mib * 1024,
        fd_growth_max: arguments.fd_growth,
        thread_growth_max: arguments.thread_growth,
    };
    println!(
        "ferrite-torture soak: {} minutes, {} connections at {} ops/s, seed {seed}; bounds after warm-up: RSS +{} MiB, fds +{}, threads +{}",
        options.minutes,
        options.connections,
        options.rate,
        arguments.rss_growth_mib,
        options.fd_growth_max,
        options.thread_growth_max
    );
    let report = soak::run(&options, &mut |line| println!("{line}"))?;
    println!(
        "\nwarm-up baseline: RSS {:.1} MiB, {} threads, {} fds; peak after warm-up: RSS {:.1} MiB, {} threads, {} fds",
        report.baseline.rss_kib as f64 / 1024.0,
        report.baseline.threads,
        report.baseline.open_fds,
        report.peak_after_warmup.rss_kib as f64 / 1024.0,
        report.peak_after_warmup.threads,
        report.peak_after_warmup.open_fds
    );
    println!(
        "{} operations: {} puts and {} gets acknowledged, {} commits, {} backouts; {} messages verified at the end",
        report.operations,
        report.totals.puts_acknowledged,
        report.totals.gets_acknowledged,
        report.totals.commits,
        report.totals.backouts,
        report.messages_verified
    );
    if report.violations.is_empty() {
        println!("soak: PASSED (memory, threads and file descriptors within their bounds)");
        Ok(())
    } else {
        Err(report.violations.join("\n"))
    }
}
