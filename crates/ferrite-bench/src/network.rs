//! `network`: the network path (the channel initiator) through Ferrite's own Rust client, in the
//! shapes the JMS load generator (bench/java) drives against Ferrite, RabbitMQ and Artemis, and
//! the queue manager's cost per operation.
//!
//! - The limit: a 1,000-byte echo between two threads over loopback TCP, the best of three
//!   placements of its threads (the scheduler's, one processor, two), in the same run.
//! - A `ferrite start` queue manager in its own process (so its CPU and context switches are
//!   its own), 1,024-byte non-persistent messages, every application a TCP client through
//!   DEV.APP.SVRCONN with its own connection:
//!   - request/reply at 1 requester (1 replier), 8 and 32 requesters (4 repliers): a common
//!     server queue, each requester its own reply queue (as the JMS requesters); requesters put
//!     and get outside syncpoint, repliers get and put under syncpoint and commit (the JMS
//!     repliers' transacted session);
//!   - streaming, 4 putters + 4 getters on one queue, a commit after every put and every get, at
//!     most 200 messages in flight (the JMS stream cell).
//!
//! Each cell has a warm-up and a measured interval; over exactly the measured interval the
//! queue manager's CPU (utime + stime of /proc/PID/stat) and context switches (voluntary +
//! nonvoluntary over /proc/PID/task/*/status) are divided by the operations completed.
//!
//! `network-table` reads a results file and prints the ratios the network goals are stated in.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use ferrite_client::Connection;
use ferrite_constants::get_options::{
    MQGMO_FAIL_IF_QUIESCING, MQGMO_NO_SYNCPOINT, MQGMO_SYNCPOINT, MQGMO_WAIT,
};
use ferrite_constants::open_options::{MQOO_INPUT_SHARED, MQOO_OUTPUT};
use ferrite_constants::persistence::MQPER_NOT_PERSISTENT;
use ferrite_constants::put_options::{MQPMO_NEW_MSG_ID, MQPMO_NO_SYNCPOINT, MQPMO_SYNCPOINT};
use ferrite_mqi::{Mqgmo, Mqmd, Mqod, Mqpmo};

use crate::client::{self, ChildQueueManager};
use crate::report::{Report, Row};
use crate::{engine, Context};

/// The network cells' message size (the echo, the physical limit, uses 1,000 bytes).
pub const MESSAGE_BYTES: usize = 1_024;
const SERVER_QUEUE: &str = "BENCH.SERVER";
const STREAM_QUEUE: &str = "BENCH.STREAM";
const STREAM_DEPTH_CAP: u32 = 200;
/// Request/reply shapes: (repliers, requesters).
const REQUEST_REPLY_SHAPES: [(usize, usize); 3] = [(1, 1), (4, 8), (4, 32)];

fn reply_queue(requester: usize) -> String {
    format!("BENCH.REPLY.{requester}")
}

// ---------------------------------------------------------------- /proc

/// A process's CPU time and its threads' context switches at one moment.
pub struct ProcUsage {
    cpu_ticks: u64,
    switches_by_thread: HashMap<String, u64>,
}

/// What a process used between two snapshots.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UsageDelta {
    pub cpu_seconds: f64,
    pub context_switches: u64,
    /// Threads present at the start and gone at the end: their switches of the interval are lost.
    pub exited_threads: usize,
}

impl ProcUsage {
    /// Process `pid` now, or None if /proc cannot say.
    pub fn of(pid: u32) -> Option<ProcUsage> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let cpu_ticks = stat_cpu_ticks(&stat)?;
        let mut switches_by_thread = HashMap::new();
        for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
            let Ok(task) = task else { continue };
            if let Ok(status) = std::fs::read_to_string(task.path().join("status")) {
                switches_by_thread.insert(
                    task.file_name().to_string_lossy().into_owned(),
                    status_context_switches(&status),
                );
            }
        }
        Some(ProcUsage {
            cpu_ticks,
            switches_by_thread,
        })
    }

    pub fn since(&self, start: &ProcUsage) -> UsageDelta {
        let context_switches = self
            .switches_by_thread
            .iter()
            .map(|(thread, count)| {
                count.saturating_sub(start.switches_by_thread.get(thread).copied().unwrap_or(0))
            })
            .sum();
        let exited_threads = start
            .switches_by_thread
            .keys()
            .filter(|thread| !self.switches_by_thread.contains_key(*thread))
            .count();
        // SAFETY: sysconf has no preconditions.
        let ticks_per_second = match unsafe { libc::sysconf(libc::_SC_CLK_TCK) } {
            ticks if ticks > 0 => ticks as f64,
            _ => 100.0,
        };
        UsageDelta {
            cpu_seconds: self.cpu_ticks.saturating_sub(start.cpu_ticks) as f64 / ticks_per_second,
            context_switches,
            exited_threads,
        }
    }
}

/// utime + stime (fields 14 and 15 of proc(5)) of a /proc/PID/stat line, in clock ticks.
fn stat_cpu_ticks(stat: &str) -> Option<u64> {
    // The command name may hold spaces and parentheses: count from the last ')'.
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // fields[0] is field 3 (state).
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// voluntary + nonvoluntary context switches of a /proc/PID/task/TID/status file.
fn status_context_switches(status: &str) -> u64 {
    status
        .lines()
        .filter(|line| {
            line.starts_with("voluntary_ctxt_switches:")
                || line.starts_with("nonvoluntary_ctxt_switches:")
        })
        .filter_map(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum()
}

// ---------------------------------------------------------------- the workloads

/// One cell's outcome: operations in the measured interval, its length, the queue manager's usage.
struct Measured {
    operations: u64,
    seconds: f64,
    usage: Option<UsageDelta>,
}

/// Flags the cell's threads watch.
struct Phase {
    stop: AtomicBool,
    measuring: AtomicBool,
    operations: AtomicU64,
}

impl Phase {
    fn new() -> Phase {
        Phase {
            stop: AtomicBool::new(false),
            measuring: AtomicBool::new(false),
            operations: AtomicU64::new(0),
        }
    }

    fn count(&self) {
        if self.measuring.load(Ordering::Relaxed) {
            self.operations.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Warm up, then measure (the queue manager `pid`'s usage over exactly that interval).
    fn run(&self, pid: u32, warmup: Duration, measured: Duration) -> Measured {
        std::thread::sleep(warmup);
        let before = ProcUsage::of(pid);
        let started = Instant::now();
        self.measuring.store(true, Ordering::Relaxed);
        std::thread::sleep(measured);
        self.measuring.store(false, Ordering::Relaxed);
        let seconds = started.elapsed().as_secs_f64();
        let after = ProcUsage::of(pid);
        self.stop.store(true, Ordering::Relaxed);
        Measured {
            operations: self.operations.load(Ordering::Relaxed),
            seconds,
            usage: before
                .zip(after)
                .map(|(before, after)| after.since(&before)),
        }
    }
}

fn open(connection: &mut Connection, queue: &str, options: i32) -> ferrite_client::Hobj {
    connection
        .open(&mut Mqod::queue(queue), options)
        .unwrap_or_else(|error| panic!("MQOPEN {queue}: {error:?}"))
}

fn request_reply_cell(
    address: &str,
    pid: u32,
    repliers: usize,
    requesters: usize,
    warmup: Duration,
    measured: Duration,
) -> Measured {
    let phase = Phase::new();
    let repliers_stop = AtomicBool::new(false);
    let mut outcome = None;
    std::thread::scope(|scope| {
        for _ in 0..repliers {
            let repliers_stop = &repliers_stop;
            scope.spawn(move || {
                let mut connection = client::connect(address);
                let input = open(&mut connection, SERVER_QUEUE, MQOO_INPUT_SHARED);
                let outputs: Vec<_> = (0..requesters)
                    .map(|index| open(&mut connection, &reply_queue(index), MQOO_OUTPUT))
                    .collect();
                let mut buffer = vec![0u8; 2 * MESSAGE_BYTES];
                while !repliers_stop.load(Ordering::Relaxed) {
                    let mut md = Mqmd::default();
                    let mut gmo =
                        Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING);
                    gmo.wait_interval = 100;
                    let Ok(result) = connection.get(input, &mut md, &mut gmo, &mut buffer) else {
                        continue;
                    };
                    let data = &buffer[..result.returned_length];
                    let index = data
                        .get(8..12)
                        .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
                        .min(requesters - 1);
                    let mut reply = Mqmd {
                        correl_id: md.msg_id,
                        persistence: MQPER_NOT_PERSISTENT,
                        ..Mqmd::default()
                    };
                    connection
                        .put(
                            outputs[index],
                            &mut reply,
                            &mut Mqpmo::with_options(MQPMO_SYNCPOINT),
                            data,
                        )
                        .expect("MQPUT reply");
                    connection.commit().expect("MQCMIT");
                }
                let _ = connection.disconnect();
            });
        }
        let handles: Vec<_> = (0..requesters)
            .map(|index| {
                let phase = &phase;
                scope.spawn(move || {
                    let mut connection = client::connect(address);
                    let output = open(&mut connection, SERVER_QUEUE, MQOO_OUTPUT);
                    let reply_name = reply_queue(index);
                    let input = open(&mut connection, &reply_name, MQOO_INPUT_SHARED);
                    let mut request = engine::payload(MESSAGE_BYTES);
                    request[8..12].copy_from_slice(&(index as u32).to_be_bytes());
                    let mut buffer = vec![0u8; 2 * MESSAGE_BYTES];
                    while !phase.stopped() {
                        let mut md = Mqmd {
                            persistence: MQPER_NOT_PERSISTENT,
                            reply_to_q: reply_name.as_str().into(),
                            ..Mqmd::default()
                        };
                        connection
                            .put(
                                output,
                                &mut md,
                                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID),
                                &request,
                            )
                            .expect("MQPUT request");
                        // The next reply on this requester's own queue; one to an earlier,
                        // timed-out request is skipped.
                        loop {
                            let mut reply = Mqmd::default();
                            let mut gmo = Mqgmo::with_options(
                                MQGMO_NO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING,
                            );
                            gmo.wait_interval = 10_000;
                            match connection.get(input, &mut reply, &mut gmo, &mut buffer) {
                                Ok(_) if reply.correl_id == md.msg_id => {
                                    phase.count();
                                    break;
                                }
                                Ok(_) => continue,
                                Err(_) => break,
                            }
                        }
                    }
                    let _ = connection.disconnect();
                })
            })
            .collect();
        outcome = Some(phase.run(pid, warmup, measured));
        for handle in handles {
            let _ = handle.join();
        }
        repliers_stop.store(true, Ordering::Relaxed);
    });
    outcome.expect("measured")
}

/// A counting semaphore: messages in flight between the putters and the getters.
struct InFlight {
    free: Mutex<u32>,
    changed: Condvar,
}

impl InFlight {
    fn acquire(&self, timeout: Duration) -> bool {
        let free = self.free.lock().expect("lock");
        let (mut free, _) = self
            .changed
            .wait_timeout_while(free, timeout, |free| *free == 0)
            .expect("lock");
        if *free == 0 {
            return false;
        }
        *free -= 1;
        true
    }

    fn release(&self) {
        *self.free.lock().expect("lock") += 1;
        self.changed.notify_one();
    }
}

fn stream_cell(address: &str, pid: u32, warmup: Duration, measured: Duration) -> Measured {
    let phase = Phase::new();
    let in_flight = InFlight {
        free: Mutex::new(STREAM_DEPTH_CAP),
        changed: Condvar::new(),
    };
    let mut outcome = None;
    std::thread::scope(|scope| {
        for _ in 0..4 {
            let (phase, in_flight) = (&phase, &in_flight);
            scope.spawn(move || {
                let mut connection = client::connect(address);
                let output = open(&mut connection, STREAM_QUEUE, MQOO_OUTPUT);
                let body = engine::payload(MESSAGE_BYTES);
                while !phase.stopped() {
                    if !in_flight.acquire(Duration::from_millis(100)) {
                        continue;
                    }
                    let mut md = Mqmd {
                        persistence: MQPER_NOT_PERSISTENT,
                        ..Mqmd::default()
                    };
                    connection
                        .put(
                            output,
                            &mut md,
                            &mut Mqpmo::with_options(MQPMO_SYNCPOINT | MQPMO_NEW_MSG_ID),
                            &body,
                        )
                        .expect("MQPUT");
                    connection.commit().expect("MQCMIT");
                }
                let _ = connection.disconnect();
            });
        }
        for _ in 0..4 {
            let (phase, in_flight) = (&phase, &in_flight);
            scope.spawn(move || {
                let mut connection = client::connect(address);
                let input = open(&mut connection, STREAM_QUEUE, MQOO_INPUT_SHARED);
                let mut buffer = vec![0u8; 2 * MESSAGE_BYTES];
                while !phase.stopped() {
                    let mut md = Mqmd::default();
                    let mut gmo =
                        Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING);
                    gmo.wait_interval = 100;
                    if connection
                        .get(input, &mut md, &mut gmo, &mut buffer)
                        .is_ok()
                    {
                        connection.commit().expect("MQCMIT");
                        in_flight.release();
                        phase.count();
                    }
                }
                let _ = connection.disconnect();
            });
        }
        outcome = Some(phase.run(pid, warmup, measured));
    });
    outcome.expect("measured")
}

/// The rows of one cell: its rate, and the queue manager's CPU and context switches per operation.
#[allow(clippy::too_many_arguments)]
fn push_cell(
    report: &mut Report,
    cell: &str,
    description: &str,
    unit: &'static str,
    operation: &str,
    measured: &Measured,
    echo: Option<f64>,
    fields: &[(&'static str, f64)],
) {
    let rate = measured.operations as f64 / measured.seconds;
    let with_fields = |mut row: Row, quantity: &str| {
        row = row
            .system("ferrite-client")
            .label("cell", cell)
            .label("quantity", quantity)
            .field("size", MESSAGE_BYTES as f64);
        for (name, value) in fields {
            row = row.field(name, *value);
        }
        row
    };
    let mut row = Row::new("network", format!("{description}: {unit}"), rate, unit);
    if let Some(echo) = echo {
        row = row
            .against("1,000 B loopback TCP echo, same run", echo)
            .goal(">= 0.5 of the echo", rate / echo >= 0.5);
    }
    report.push(with_fields(row, "rate"));
    let Some(usage) = measured.usage.filter(|_| measured.operations > 0) else {
        println!("  (queue manager usage not measured)");
        return;
    };
    let operations = measured.operations as f64;
    if usage.exited_threads > 0 {
        println!(
            "  ({} queue manager threads exited in the interval: their context switches are not counted)",
            usage.exited_threads
        );
    }
    report.push(with_fields(
        Row::new(
            "network",
            format!("{description}: queue manager CPU per {operation}"),
            usage.cpu_seconds * 1e6 / operations,
            "us",
        ),
        "cpu_us_per_op",
    ));
    report.push(with_fields(
        Row::new(
            "network",
            format!("{description}: queue manager context switches per {operation}"),
            usage.context_switches as f64 / operations,
            "switches",
        ),
        "ctxsw_per_op",
    ));
}

pub fn network(context: &mut Context) {
    let warmup = Duration::from_secs_f64(context.mode.pick(0.5, 2.0, 5.0));
    let measured = Duration::from_secs_f64(context.mode.pick(1.5, 5.0, 15.0));
    println!(
        "\n== network: Ferrite's Rust client over loopback TCP to a `ferrite` queue manager process; {} B, {:.1} s warm-up + {:.1} s measured ==",
        MESSAGE_BYTES,
        warmup.as_secs_f64(),
        measured.as_secs_f64()
    );
    // The limit is what the machine can do: the best of the echo's placements. On this
    // virtual machine an echo whose threads sit on two processors runs at a quarter of one
    // whose threads share a processor (each wake-up crosses virtual processors), and the
    // scheduler picks either from one run to the next.
    let slice = Duration::from_secs_f64(context.mode.pick(0.5, 1.0, 2.0));
    let placements = [
        client::EchoPlacement::Scheduler,
        client::EchoPlacement::SameProcessor,
        client::EchoPlacement::TwoProcessors,
    ];
    let echoes: Vec<(client::EchoPlacement, client::Echo)> = placements
        .into_iter()
        .map(|placement| (placement, client::loopback_echo_placed(slice, placement)))
        .collect();
    for (placement, echo) in &echoes {
        println!(
            "  echo, {placement:?}: {:.0} rt/s at {:.1} CPU µs per round trip",
            echo.rate, echo.cpu_us_per_round_trip
        );
    }
    let measured_echo = echoes
        .into_iter()
        .map(|(_, echo)| echo)
        .max_by(|a, b| a.rate.total_cmp(&b.rate))
        .expect("at least one echo");
    let echo = measured_echo.rate;
    push_echo(context, &measured_echo);
    let Some(binary) = client::ferrite_binary() else {
        println!("  skipped: no ferrite binary beside ferrite-bench (cargo build --release -p ferrite first)");
        return;
    };
    let Some(child) = ChildQueueManager::start(&binary, &context.dir, "NETQM") else {
        println!("  skipped: the ferrite queue manager did not start");
        return;
    };
    let mut commands: Vec<String> = client::OPEN_TO_THIS_USER
        .iter()
        .map(|command| command.to_string())
        .collect();
    commands.extend([
        format!("DEFINE QLOCAL({SERVER_QUEUE}) MAXDEPTH(999999999)"),
        format!("DEFINE QLOCAL({STREAM_QUEUE}) MAXDEPTH(999999999)"),
    ]);
    let most = REQUEST_REPLY_SHAPES.iter().map(|s| s.1).max().unwrap_or(1);
    commands.extend((0..most).map(|index| format!("DEFINE QLOCAL({})", reply_queue(index))));
    if let Err(output) = child.mqsc(&commands) {
        println!("  skipped: defining the queues failed:\n{output}");
        return;
    }
    let address = format!("127.0.0.1:{}", child.port);
    println!(
        "  queue manager NETQM: pid {}, listening on {address}",
        child.pid
    );
    for (repliers, requesters) in REQUEST_REPLY_SHAPES {
        let outcome =
            request_reply_cell(&address, child.pid, repliers, requesters, warmup, measured);
        push_cell(
            &mut context.report,
            &format!("rr-np-{requesters}"),
            &format!(
                "ferrite-client request/reply NP, {repliers} {}, {requesters} {}",
                if repliers == 1 { "replier" } else { "repliers" },
                if requesters == 1 {
                    "requester"
                } else {
                    "requesters"
                }
            ),
            "rt/s",
            "round trip",
            &outcome,
            Some(echo),
            &[
                ("requesters", requesters as f64),
                ("repliers", repliers as f64),
                ("persistent", 0.0),
            ],
        );
    }
    let outcome = stream_cell(&address, child.pid, warmup, measured);
    push_cell(
        &mut context.report,
        "stream-np-4x4",
        "ferrite-client stream NP, 4 putters + 4 getters, commit per message",
        "msgs/s",
        "message",
        &outcome,
        None,
        &[("putters", 4.0), ("getters", 4.0), ("persistent", 0.0)],
    );
    drop(child);
}

/// Exchanges (a flow to the queue manager and its answer) in one request/reply round trip of
/// the cells here, as IBM's JMS client makes them: the requester's MQPUT and MQGET, the
/// replier's MQGET, MQPUT and MQCMIT.
pub const EXCHANGES_PER_ROUND_TRIP: f64 = 5.0;

/// The echo's rate and CPU, and what they bound: a round trip of [`EXCHANGES_PER_ROUND_TRIP`]
/// exchanges, each costing at least one echo's CPU (the same writes, reads and wake-ups), can
/// go no faster on this machine's processors than the CPU allows, however little the queue
/// manager does.
fn push_echo(context: &mut Context, echo: &client::Echo) {
    let processors = std::thread::available_parallelism().map_or(1, |count| count.get()) as f64;
    let ceiling = processors * 1e6 / (EXCHANGES_PER_ROUND_TRIP * echo.cpu_us_per_round_trip);
    println!(
        "  echo: {:.0} rt/s at {:.1} CPU µs per round trip; a {EXCHANGES_PER_ROUND_TRIP}-exchange round trip on {processors} processors: at most {ceiling:.0} rt/s ({:.2} of the echo)",
        echo.rate,
        echo.cpu_us_per_round_trip,
        ceiling / echo.rate
    );
    for (metric, value, unit, quantity) in [
        (
            "1,000 B echo over loopback TCP, two threads: rt/s",
            echo.rate,
            "rt/s",
            "rate",
        ),
        (
            "1,000 B echo over loopback TCP: CPU per round trip (both ends)",
            echo.cpu_us_per_round_trip,
            "us",
            "cpu_us_per_op",
        ),
        (
            "request/reply of 5 exchanges at the echo's CPU per exchange, all processors: rt/s",
            ceiling,
            "rt/s",
            "ceiling",
        ),
    ] {
        context.report.push(
            Row::new("network", metric, value, unit)
                .system("loopback")
                .label("cell", "echo")
                .label("quantity", quantity)
                .field("size", 1_000.0),
        );
    }
}

// ---------------------------------------------------------------- the ratio table

/// One flat JSON object's fields (strings, numbers, booleans, null), or None if it is not one.
pub(crate) fn parse_flat_json(line: &str) -> Option<HashMap<String, Value>> {
    let mut chars = line.trim().chars().peekable();
    let mut fields = HashMap::new();
    let skip_spaces = |chars: &mut std::iter::Peekable<std::str::Chars>| {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
    };
    fn string(chars: &mut std::iter::Peekable<std::str::Chars>) -> Option<String> {
        if chars.next()? != '"' {
            return None;
        }
        let mut out = String::new();
        loop {
            match chars.next()? {
                '"' => return Some(out),
                '\\' => match chars.next()? {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'u' => {
                        let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                        out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                    }
                    other => out.push(other),
                },
                c => out.push(c),
            }
        }
    }
    if chars.next()? != '{' {
        return None;
    }
    loop {
        skip_spaces(&mut chars);
        if chars.peek() == Some(&'}') {
            return Some(fields);
        }
        let key = string(&mut chars)?;
        skip_spaces(&mut chars);
        if chars.next()? != ':' {
            return None;
        }
        skip_spaces(&mut chars);
        let value = if chars.peek() == Some(&'"') {
            Value::Text(string(&mut chars)?)
        } else {
            let mut text = String::new();
            while chars.peek().is_some_and(|c| *c != ',' && *c != '}') {
                text.push(chars.next()?);
            }
            match text.trim() {
                "null" => Value::Null,
                "true" => Value::Number(1.0),
                "false" => Value::Number(0.0),
                number => Value::Number(number.parse().ok()?),
            }
        };
        fields.insert(key, value);
        skip_spaces(&mut chars);
        match chars.next()? {
            ',' => continue,
            '}' => return Some(fields),
            _ => return None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Text(String),
    Number(f64),
    Null,
}

impl Value {
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Value::Text(text) => Some(text),
            _ => None,
        }
    }

    pub(crate) fn number(&self) -> Option<f64> {
        match self {
            Value::Number(number) => Some(*number),
            _ => None,
        }
    }
}

/// The cells of the table, in order: (cell, description).
const CELLS: [(&str, &str); 8] = [
    ("rr-np-1", "request/reply NP, 1 requester (1 replier)"),
    ("rr-np-8", "request/reply NP, 8 requesters (4 repliers)"),
    ("rr-np-32", "request/reply NP, 32 requesters (4 repliers)"),
    (
        "rr-p-1",
        "request/reply persistent, 1 requester (1 replier)",
    ),
    (
        "rr-p-8",
        "request/reply persistent, 8 requesters (4 repliers)",
    ),
    (
        "rr-p-32",
        "request/reply persistent, 32 requesters (4 repliers)",
    ),
    ("stream-np-4x4", "stream NP, 4 + 4"),
    (
        "stream-p-4x4",
        "stream persistent, commit per message, 4 + 4",
    ),
];
const PEERS: [&str; 2] = ["rabbitmq", "artemis"];
/// Above this share of the machine's CPU the load generator is taken to be what saturates the
/// machine, and the "2 × the best peer" goal does not apply.
const CLIENT_SATURATES: f64 = 0.5;

/// Figures of one run: (system, cell, quantity) -> value.
pub struct NetworkFigures {
    pub run: String,
    pub mode: String,
    values: HashMap<(String, String, String), f64>,
}

impl NetworkFigures {
    /// The `network` figures of run `run` in `text` (JSON lines), or of the last run that has
    /// some when `run` is None.
    pub fn read(text: &str, run: Option<&str>) -> Option<NetworkFigures> {
        let lines: Vec<HashMap<String, Value>> = text
            .lines()
            .filter_map(parse_flat_json)
            .filter(|line| line.get("bench").and_then(Value::text) == Some("network"))
            .collect();
        let run = match run {
            Some(run) => run.to_string(),
            None => lines.last()?.get("run").and_then(Value::text)?.to_string(),
        };
        let mut figures = NetworkFigures {
            run: run.clone(),
            mode: String::new(),
            values: HashMap::new(),
        };
        for line in &lines {
            if line.get("run").and_then(Value::text) != Some(run.as_str()) {
                continue;
            }
            let get = |name: &str| line.get(name).and_then(Value::text).map(str::to_string);
            let (Some(system), Some(cell), Some(quantity)) =
                (get("system"), get("cell"), get("quantity"))
            else {
                continue;
            };
            if let Some(value) = line.get("value").and_then(Value::number) {
                figures.values.insert((system, cell, quantity), value);
            }
            if let Some(mode) = get("mode") {
                figures.mode = mode;
            }
        }
        (!figures.values.is_empty()).then_some(figures)
    }

    fn get(&self, system: &str, cell: &str, quantity: &str) -> Option<f64> {
        self.values
            .get(&(system.to_string(), cell.to_string(), quantity.to_string()))
            .copied()
    }

    /// The best peer's throughput (highest) and CPU per operation (lowest) in `cell`.
    fn best_peer(&self, cell: &str, quantity: &str, highest: bool) -> Option<(f64, &'static str)> {
        PEERS
            .iter()
            .filter_map(|peer| Some((self.get(peer, cell, quantity)?, *peer)))
            .reduce(|a, b| if (b.0 > a.0) == highest { b } else { a })
    }

    /// The ratio rows (also appended to the results file) and the printed tables.
    pub fn ratios(&self) -> (Vec<Row>, String) {
        let mut rows = Vec::new();
        let mut text = String::new();
        let fmt = |value: Option<f64>| value.map_or("—".to_string(), crate::report::number);
        let ratio_cell = |ratio: Option<f64>, met: Option<bool>| match (ratio, met) {
            (Some(ratio), Some(true)) => format!("**{ratio:.2}** met"),
            (Some(ratio), Some(false)) => format!("{ratio:.2} NO"),
            (Some(ratio), None) => format!("{ratio:.2}"),
            _ => "—".to_string(),
        };
        text.push_str(&format!(
            "Network path, run {} ({}): Ferrite through IBM's JMS client against the best peer (RabbitMQ, Artemis), same run\n\n",
            self.run, self.mode
        ));
        text.push_str("| Workload | Ferrite/s | RabbitMQ/s | Artemis/s | Ferrite / best peer (≥ 1; ≥ 2 unless the client saturates) | generator's CPU share | generator-bound ceiling / best peer | Ferrite CPU µs/op | RabbitMQ | Artemis | Ferrite / lowest peer (≤ 0.5) | Ferrite switches/op (≤ 4 at 8 requesters) |\n");
        text.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (cell, description) in CELLS {
            let rate = self.get("ferrite", cell, "rate");
            let share = self.get("ferrite", cell, "client_cpu_share");
            let throughput_ratio = rate
                .zip(self.best_peer(cell, "rate", true))
                .map(|(rate, (best, _))| rate / best);
            let goal = if share.is_some_and(|share| share < CLIENT_SATURATES) {
                2.0
            } else {
                1.0
            };
            let throughput_met = throughput_ratio.map(|ratio| ratio >= goal);
            // The rate no broker could exceed with this load generator on this machine: the
            // generator's own CPU per operation (its share of every processor over the rate)
            // with the broker taking none, as a ratio to the best peer.
            let ceiling_ratio = rate
                .zip(share.filter(|share| *share > 0.0))
                .zip(self.best_peer(cell, "rate", true))
                .map(|((rate, share), (best, _))| rate / share / best);
            let cpu = self.get("ferrite", cell, "cpu_us_per_op");
            let cpu_ratio = cpu
                .zip(self.best_peer(cell, "cpu_us_per_op", false))
                .map(|(cpu, (best, _))| cpu / best);
            let cpu_met = cpu_ratio.map(|ratio| ratio <= 0.5);
            let switches = self.get("ferrite", cell, "ctxsw_per_op");
            let switches_met = (cell == "rr-np-8" || cell == "rr-p-8")
                .then(|| switches.map(|switches| switches <= 4.0))
                .flatten();
            text.push_str(&format!(
                "| {description} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                fmt(rate),
                fmt(self.get("rabbitmq", cell, "rate")),
                fmt(self.get("artemis", cell, "rate")),
                ratio_cell(throughput_ratio, throughput_met).replace(
                    " met",
                    if goal == 2.0 {
                        " met (≥ 2)"
                    } else {
                        " met (≥ 1)"
                    }
                ),
                share.map_or("—".to_string(), |share| format!("{:.0}%", share * 100.0)),
                ratio_cell(ceiling_ratio, None),
                fmt(cpu),
                fmt(self.get("rabbitmq", cell, "cpu_us_per_op")),
                fmt(self.get("artemis", cell, "cpu_us_per_op")),
                ratio_cell(cpu_ratio, cpu_met),
                match switches_met {
                    Some(met) => ratio_cell(switches, Some(met)),
                    None => fmt(switches),
                }
            ));
            let ratio_row = |metric: String, value: f64, goal: &str, met: Option<bool>| {
                let mut row = Row::new("network", metric, value, "ratio")
                    .system("ferrite")
                    .label("cell", cell)
                    .label("quantity", "ratio");
                if let Some(met) = met {
                    row = row.goal(goal, met);
                }
                row
            };
            if let Some(ratio) = throughput_ratio {
                rows.push(
                    ratio_row(
                        format!("{description}: Ferrite JMS throughput / best peer's"),
                        ratio,
                        if goal == 2.0 { ">= 2" } else { ">= 1" },
                        throughput_met,
                    )
                    .label("compares", "throughput_vs_best_peer"),
                );
            }
            if let Some(ratio) = ceiling_ratio {
                rows.push(
                    ratio_row(
                        format!(
                            "{description}: the generator-bound ceiling (broker at zero CPU) / best peer's throughput"
                        ),
                        ratio,
                        "",
                        None,
                    )
                    .label("compares", "generator_ceiling_vs_best_peer"),
                );
            }
            if let Some(ratio) = cpu_ratio {
                rows.push(
                    ratio_row(
                        format!("{description}: Ferrite broker CPU per op / lowest peer's"),
                        ratio,
                        "<= 0.5",
                        cpu_met,
                    )
                    .label("compares", "cpu_vs_lowest_peer"),
                );
            }
        }
        let echo = self.get("loopback", "echo", "rate");
        text.push_str(&format!(
            "\nFerrite's Rust client (ferrite-client) against a bare 1,000 B loopback TCP echo ({} rt/s), same run\n\n",
            fmt(echo)
        ));
        text.push_str("| Workload | ferrite-client/s | ferrite-client / echo (≥ 0.5) | Ferrite JMS / ferrite-client | queue manager CPU µs/op | switches/op (≤ 4 at 8 requesters) |\n");
        text.push_str("|---|---|---|---|---|---|\n");
        for (cell, description) in CELLS
            .iter()
            .filter(|(cell, _)| cell.starts_with("rr-np") || *cell == "stream-np-4x4")
        {
            let rate = self.get("ferrite-client", cell, "rate");
            let echo_ratio = cell
                .starts_with("rr-")
                .then(|| rate.zip(echo).map(|(rate, echo)| rate / echo))
                .flatten();
            let echo_met = echo_ratio.map(|ratio| ratio >= 0.5);
            let switches = self.get("ferrite-client", cell, "ctxsw_per_op");
            let switches_met = (*cell == "rr-np-8")
                .then(|| switches.map(|switches| switches <= 4.0))
                .flatten();
            text.push_str(&format!(
                "| {description} | {} | {} | {} | {} | {} |\n",
                fmt(rate),
                ratio_cell(echo_ratio, echo_met),
                ratio_cell(
                    self.get("ferrite", cell, "rate")
                        .zip(rate)
                        .map(|(jms, rust)| jms / rust),
                    None
                ),
                fmt(self.get("ferrite-client", cell, "cpu_us_per_op")),
                match switches_met {
                    Some(met) => ratio_cell(switches, Some(met)),
                    None => fmt(switches),
                }
            ));
            if let Some(ratio) = echo_ratio {
                rows.push(
                    Row::new(
                        "network",
                        format!("{description}: ferrite-client round trips / bare echo's"),
                        ratio,
                        "ratio",
                    )
                    .system("ferrite-client")
                    .label("cell", *cell)
                    .label("quantity", "ratio")
                    .label("compares", "vs_echo")
                    .goal(">= 0.5", ratio >= 0.5),
                );
            }
        }
        (rows, text)
    }
}

/// `network-table`: the ratios of the network goals from a results file.
pub fn network_table(results: &Path, run: Option<&str>) -> Option<(NetworkFigures, Vec<Row>)> {
    let text = std::fs::read_to_string(results).ok()?;
    let figures = NetworkFigures::read(&text, run)?;
    let (rows, table) = figures.ratios();
    println!("\n{table}");
    Some((figures, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_stat_times_count_from_the_last_parenthesis() {
        let stat = "1234 (a (b) c) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 8 0 100";
        assert_eq!(stat_cpu_ticks(stat), Some(300));
    }

    #[test]
    fn context_switches_add_voluntary_and_nonvoluntary() {
        let status = "Name:\tx\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n";
        assert_eq!(status_context_switches(status), 15);
    }

    #[test]
    fn a_thread_that_exits_is_reported_and_a_new_one_counts_in_full() {
        let start = ProcUsage {
            cpu_ticks: 0,
            switches_by_thread: [("1".to_string(), 10), ("2".to_string(), 5)].into(),
        };
        let end = ProcUsage {
            cpu_ticks: 0,
            switches_by_thread: [("1".to_string(), 14), ("3".to_string(), 7)].into(),
        };
        let delta = end.since(&start);
        assert_eq!(delta.context_switches, 11);
        assert_eq!(delta.exited_threads, 1);
    }

    #[test]
    fn the_table_divides_ferrite_by_the_best_peer() {
        let mut text = String::new();
        let line = |system: &str, cell: &str, quantity: &str, value: f64| {
            format!(
                "{{\"run\":\"r1\",\"mode\":\"quick\",\"bench\":\"network\",\"system\":\"{system}\",\"cell\":\"{cell}\",\"quantity\":\"{quantity}\",\"value\":{value},\"met\":null,\"persistent\":false}}\n"
            )
        };
        text.push_str(&line("ferrite", "rr-np-8", "rate", 3000.0));
        text.push_str(&line("rabbitmq", "rr-np-8", "rate", 1000.0));
        text.push_str(&line("artemis", "rr-np-8", "rate", 2000.0));
        text.push_str(&line("ferrite", "rr-np-8", "cpu_us_per_op", 40.0));
        text.push_str(&line("rabbitmq", "rr-np-8", "cpu_us_per_op", 100.0));
        text.push_str(&line("artemis", "rr-np-8", "cpu_us_per_op", 80.0));
        text.push_str(&line("ferrite", "rr-np-8", "client_cpu_share", 0.7));
        text.push_str(&line("loopback", "echo", "rate", 20000.0));
        text.push_str(&line("ferrite-client", "rr-np-8", "rate", 8000.0));
        text.push_str("{\"run\":\"r0\",\"bench\":\"network\",\"system\":\"ferrite\",\"cell\":\"rr-np-8\",\"quantity\":\"rate\",\"value\":1}\n");
        let figures = NetworkFigures::read(&text, Some("r1")).expect("figures");
        let (rows, table) = figures.ratios();
        let value = |ratio: &str| {
            rows.iter()
                .find(|row| {
                    row.labels
                        .iter()
                        .any(|(n, v)| *n == "compares" && v == ratio)
                })
                .map(|row| (row.value, row.met))
        };
        assert_eq!(value("throughput_vs_best_peer"), Some((1.5, Some(true))));
        assert_eq!(value("cpu_vs_lowest_peer"), Some((0.5, Some(true))));
        // 3,000/s with the generator at 70% of the machine: at most 4,286/s with a broker
        // that took no CPU, 2.14 × the best peer.
        let (ceiling, met) = value("generator_ceiling_vs_best_peer").expect("ceiling row");
        assert!((ceiling - 3000.0 / 0.7 / 2000.0).abs() < 1e-9);
        assert_eq!(met, None);
        assert_eq!(value("vs_echo"), Some((0.4, Some(false))));
        assert!(table.contains("| request/reply NP, 8 requesters (4 repliers) | 3000 |"));
        // Without a run, the last run's figures.
        assert_eq!(
            NetworkFigures::read(&text, None).map(|f| f.run),
            Some("r0".to_string())
        );
    }
}
