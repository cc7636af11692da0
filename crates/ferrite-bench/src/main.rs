//! `ferrite-bench`: the storage engine measured against this machine's physical limits (measured
//! in the same run, on the same file system) and against IBM MQ for z/OS's published figures
//! (MP16). See BENCHMARKS.md at the repository root for the figures and how to read them.

mod benches;
mod channels;
mod client;
mod engine;
mod local_workloads;
mod mqi_workloads;
mod network;
mod physical;
mod pubsub_workloads;
mod queue_bound;
mod report;
mod rest;
mod statistics_cost;
mod stats;

use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::{Parser, ValueEnum};

use report::Report;

#[derive(Parser, Debug)]
#[command(
    name = "ferrite-bench",
    about = "Storage-engine benchmarks against this machine's limits and MQ's published figures"
)]
struct Cli {
    /// Which benchmark to run.
    #[arg(value_enum, default_value = "all")]
    bench: Bench,
    /// Short runs: the whole suite in a couple of minutes.
    #[arg(long)]
    quick: bool,
    /// Tiny counts for CI (< 30 s); the figures mean little.
    #[arg(long, conflicts_with = "quick")]
    smoke: bool,
    /// Scratch directory for queue managers and test files (not tmpfs). Default:
    /// $FERRITE_BENCH_DIR, else $TMPDIR, else /var/tmp.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Append machine-readable results (JSON lines) here.
    #[arg(long, default_value = "ferrite-bench-results.jsonl")]
    results: PathBuf,
    /// The run id written to every result line (default: start time and process id). scripts/bench
    /// passes one id to ferrite-bench and to the JMS load generator, so one run reads as one.
    #[arg(long)]
    run: Option<String>,
    /// Messages for the restart benchmark (default: 1,000,000 full, 100,000 quick, 5,000 smoke).
    #[arg(long)]
    restart_messages: Option<u64>,
    /// Seconds each throughput phase of `commit` and `dual` runs (default 10 full, 3 quick).
    #[arg(long)]
    seconds: Option<f64>,
    /// Concurrent committers in `commit` and `dual`.
    #[arg(long, default_value_t = 64)]
    committers: usize,
    /// Message sizes (KiB) of `commit`'s table of committers by size, comma separated: rerun
    /// one row of it (default: every size of the table, 1,16,64,256).
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=4096))]
    commit_sizes: Vec<u32>,
    /// `single-queue` also measures, on one thread, N MQPUT+MQCMIT then N MQGET+MQCMIT and
    /// prints the thread's CPU per call pair: the floor without contention.
    #[arg(long)]
    breakdown: bool,
    /// `single-queue`: how many nice levels below the getters the putters run. MP16 (ch. 7,
    /// L7832) gives the getters "equal or higher priority than the putting application
    /// otherwise there is a risk that the queue depth will increase"; 0 runs all eight alike.
    #[arg(long, default_value_t = mqi_workloads::PUTTER_NICE_DEFAULT)]
    putter_nice: i32,
    /// `rest`: also measure RabbitMQ's management HTTP API (publish and get) at this base URL,
    /// e.g. http://127.0.0.1:15672, as user guest (password $RABBITMQ_PASSWORD, else guest).
    #[arg(long)]
    rabbitmq_management: Option<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Bench {
    All,
    Physical,
    LogBytes,
    PagesPerMessage,
    Commit,
    Dual,
    Restart,
    DeepQueue,
    SingleQueue,
    Connect,
    OpenClose,
    /// Statistics and accounting on against off (queue accounting's cost on the MQI path).
    StatisticsCost,
    RequestReply,
    RequestReplyMatrix,
    RequestReplyPersistent,
    CommonCorrelid,
    LargeUow,
    ClientRequestReply,
    ClientConnections,
    /// Publish/subscribe fan-out in-process: 2 KiB to 1, 10, 100 subscribers.
    FanOut,
    /// The network path through Ferrite's Rust client, with the queue manager's CPU and
    /// context switches per operation (and the loopback echo).
    Network,
    /// Put+get round trips through the messaging REST API (ferrite-web) of an in-process
    /// queue manager.
    Rest,
    /// Message channels between two `ferrite start` queue managers: msgs/s moved and CPU per
    /// message on each side, 1 and 32 KiB, NP FAST and persistent, BATCHSZ 1 and 50, against
    /// MP16's CPU and the receiver's local persistent put+get rate. Not part of `all`.
    Channels,
    /// Not a workload: print the channel goals' ratios from --results (the run --run, else the
    /// last run with channel figures), Ferrite's rows against the peers' (scripts/bench
    /// --channels) and MP16's CPU, and append them to it. Not part of `all`.
    ChannelsTable,
    /// Not a workload: print the network goals' ratios from --results (the run --run, else the
    /// last run with network figures) and append them to it. Not part of `all`.
    NetworkTable,
}

/// Size of the run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Smoke,
    Quick,
    Full,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Smoke => "smoke",
            Mode::Quick => "quick",
            Mode::Full => "full",
        }
    }
    /// Pick the value for this mode.
    pub fn pick<T>(self, smoke: T, quick: T, full: T) -> T {
        match self {
            Mode::Smoke => smoke,
            Mode::Quick => quick,
            Mode::Full => full,
        }
    }
}

/// What every benchmark gets.
pub struct Context {
    pub mode: Mode,
    pub dir: PathBuf,
    pub seconds: f64,
    pub committers: usize,
    /// `--commit-sizes`: the message sizes (bytes) of `commit`'s table (empty: the whole table).
    pub commit_sizes: Vec<usize>,
    pub restart_messages: u64,
    /// `--breakdown`: single-queue's uncontended per-call cost as well.
    pub breakdown: bool,
    /// `--putter-nice`: single-queue's putters run this many nice levels below the getters.
    pub putter_nice: i32,
    /// `--rabbitmq-management`: the RabbitMQ management API `rest` compares with.
    pub rabbitmq_management: Option<String>,
    pub report: Report,
    /// Physical limits measured so far in this run, reused by later benchmarks.
    pub limits: benches::Limits,
}

impl Context {
    pub fn duration(&self) -> Duration {
        Duration::from_secs_f64(self.seconds)
    }
}

fn main() {
    let cli = Cli::parse();
    if cli.bench == Bench::NetworkTable {
        let Some((figures, rows)) = network::network_table(&cli.results, cli.run.as_deref()) else {
            eprintln!("no network figures in {}", cli.results.display());
            std::process::exit(1);
        };
        let report = Report { rows };
        if let Err(error) = report.append_json_lines(&cli.results, &figures.run, &figures.mode) {
            eprintln!("cannot write {}: {error}", cli.results.display());
        }
        return;
    }
    if cli.bench == Bench::ChannelsTable {
        let Some((run, rows)) = channels::channels_table(&cli.results, cli.run.as_deref()) else {
            eprintln!("no channel figures in {}", cli.results.display());
            std::process::exit(1);
        };
        let report = Report { rows };
        let mode = if cli.smoke {
            "smoke"
        } else if cli.quick {
            "quick"
        } else {
            "full"
        };
        if let Err(error) = report.append_json_lines(&cli.results, &run, mode) {
            eprintln!("cannot write {}: {error}", cli.results.display());
        }
        return;
    }
    let mode = if cli.smoke {
        Mode::Smoke
    } else if cli.quick {
        Mode::Quick
    } else {
        Mode::Full
    };
    let base = cli
        .dir
        .clone()
        .or_else(|| std::env::var_os("FERRITE_BENCH_DIR").map(PathBuf::from))
        .or_else(|| std::env::var_os("TMPDIR").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("/var/tmp"));
    let dir = base.join(format!("ferrite-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|error| panic!("create {}: {error}", dir.display()));
    let run = cli.run.clone().unwrap_or_else(|| {
        format!(
            "{}-{}",
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            std::process::id()
        )
    });
    println!("ferrite-bench {} run {run}", mode.name());
    for line in benches::machine_description(&dir) {
        println!("  {line}");
    }
    if benches::is_tmpfs(&dir) {
        eprintln!(
            "WARNING: {} is on tmpfs: fdatasync is free there and the figures mean nothing. Use --dir on a disk.",
            dir.display()
        );
    }
    let mut context = Context {
        mode,
        dir: dir.clone(),
        seconds: cli.seconds.unwrap_or(mode.pick(1.0, 3.0, 10.0)),
        committers: cli.committers,
        commit_sizes: cli
            .commit_sizes
            .iter()
            .map(|kib| *kib as usize * 1024)
            .collect(),
        restart_messages: cli
            .restart_messages
            .unwrap_or(mode.pick(5_000, 100_000, 1_000_000)),
        breakdown: cli.breakdown,
        putter_nice: cli.putter_nice,
        rabbitmq_management: cli.rabbitmq_management.clone(),
        report: Report::default(),
        limits: benches::Limits::default(),
    };
    let started = Instant::now();
    let all = cli.bench == Bench::All;
    let selected = |bench: Bench| all || cli.bench == bench;
    if selected(Bench::Physical) {
        benches::physical(&mut context);
    }
    if selected(Bench::LogBytes) {
        benches::log_bytes(&mut context);
    }
    if selected(Bench::PagesPerMessage) {
        benches::pages_per_message(&mut context);
    }
    if selected(Bench::Commit) {
        benches::commit(&mut context);
    }
    if selected(Bench::Dual) {
        benches::dual(&mut context);
    }
    if selected(Bench::Restart) {
        benches::restart(&mut context);
    }
    if selected(Bench::DeepQueue) {
        benches::deep_queue(&mut context);
    }
    if selected(Bench::Connect) {
        mqi_workloads::connect(&mut context);
    }
    if selected(Bench::OpenClose) {
        mqi_workloads::open_close(&mut context);
    }
    if selected(Bench::StatisticsCost) {
        statistics_cost::statistics_cost(&mut context);
    }
    if selected(Bench::SingleQueue) {
        mqi_workloads::single_queue(&mut context);
    }
    if selected(Bench::RequestReply) {
        mqi_workloads::request_reply(&mut context);
    }
    if selected(Bench::RequestReplyMatrix) {
        local_workloads::request_reply_matrix(&mut context);
    }
    if selected(Bench::RequestReplyPersistent) {
        local_workloads::request_reply_persistent(&mut context);
    }
    if selected(Bench::CommonCorrelid) {
        local_workloads::common_correlid(&mut context);
    }
    if selected(Bench::LargeUow) {
        local_workloads::large_uow(&mut context);
    }
    if selected(Bench::FanOut) {
        pubsub_workloads::fan_out(&mut context);
    }
    if selected(Bench::ClientRequestReply) {
        client::client_request_reply(&mut context);
    }
    if selected(Bench::ClientConnections) {
        client::client_connections(&mut context);
    }
    if selected(Bench::Network) {
        network::network(&mut context);
    }
    if selected(Bench::Rest) {
        rest::rest_round_trips(&mut context);
    }
    if cli.bench == Bench::Channels {
        channels::channels(&mut context);
    }
    println!(
        "\nferrite-bench {} finished in {:.1} s",
        mode.name(),
        started.elapsed().as_secs_f64()
    );
    context.report.print_table();
    match context
        .report
        .append_json_lines(&cli.results, &run, mode.name())
    {
        Ok(()) => println!(
            "{} result lines appended to {}",
            context.report.rows.len(),
            cli.results.display()
        ),
        Err(error) => eprintln!("cannot write {}: {error}", cli.results.display()),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
