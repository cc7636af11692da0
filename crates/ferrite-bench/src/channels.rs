//! `channels`: message channels between two `ferrite start` queue managers on this machine
//! (distributed queuing, MP16 chapter 3's channel figures).
//!
//! CHSEND's SDR channels CH.B1 (BATCHSZ(1)) and CH.B50 (BATCHSZ(50)), both NPMSPEED(FAST),
//! move what was put to the remote queues TO.B1 and TO.B50 to CHRECV's local queues ARRIVE.B1
//! and ARRIVE.B50. A cell (message size 1 KiB or 32 KiB, non-persistent or persistent, BATCHSZ
//! 1 or 50) puts its messages to the remote queue while the channel is stopped, so that they
//! wait on the transmission queue, then starts the channel and watches the destination's
//! depth (MQINQ every few milliseconds). The measured interval runs from a tenth of the
//! messages arrived to nine tenths (at most 3, 10 or 30 s by mode; what is left is then
//! cleared): messages moved per second over it, and each queue
//! manager process's CPU (utime + stime of /proc/PID/stat) over it divided by the messages
//! moved, so no application's MQPUT or MQGET is in either figure.
//!
//! In the same run, CHRECV's local persistent put+get rate at each size: one putter
//! (MQPUT + MQCMIT per message) and one getter (MQGET + MQCMIT per message) on one local
//! queue, over the bindings socket, the rate the goal "persistent BATCHSZ(50) forwarding
//! ≥ 80% of one queue manager's local persistent put+get rate" divides by.
//!
//! Anchors: MP16's z16 CPU per message for both ends together, S the message size in bytes:
//! NPMSPEED(FAST) non-persistent (22.16 + 0.00058·S) µs at BATCHSZ(50) and (38.53 + 0.0007·S)
//! µs per transaction at BATCHSZ(1), persistent (223 + 0.003·S) µs at BATCHSZ(1).
//! The peers' forwarding rates (a RabbitMQ shovel, an Artemis core bridge) come from
//! scripts/bench's peer rows of the same run (`channels-table`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_client::{AttributeValue, Connection, Hobj, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_constants::get_options::{MQGMO_SYNCPOINT, MQGMO_WAIT};
use ferrite_constants::open_options::{MQOO_INPUT_SHARED, MQOO_INQUIRE, MQOO_OUTPUT};
use ferrite_constants::persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENT};
use ferrite_constants::put_options::{MQPMO_NEW_MSG_ID, MQPMO_NO_SYNCPOINT, MQPMO_SYNCPOINT};
use ferrite_constants::selector::MQIA_CURRENT_Q_DEPTH;

use crate::client::{self, ChildQueueManager};
use crate::network::ProcUsage;
use crate::report::Row;
use crate::{Context, Mode};

const SENDER: &str = "CHSEND";
const RECEIVER: &str = "CHRECV";
const SIZES: [usize; 2] = [1024, 32 * 1024];
const BATCH_SIZES: [u32; 2] = [50, 1];
/// The local put+get queue on CHRECV.
const LOCAL_QUEUE: &str = "LOCAL.PUTGET";
/// Preloaded messages put per MQCMIT.
const PRELOAD_UNIT: u64 = 100;
/// How often the destination's depth is asked.
const DEPTH_POLL: Duration = Duration::from_millis(5);
/// A bound on one cell's wait for its messages (a watchdog, not a measure).
const CELL_PATIENCE: Duration = Duration::from_secs(600);

/// One cell of the channel table.
#[derive(Clone, Copy, Debug)]
struct Cell {
    size: usize,
    persistent: bool,
    batch_size: u32,
}

impl Cell {
    fn name(&self) -> String {
        format!(
            "{}-{}k-b{}",
            if self.persistent { "p" } else { "np" },
            self.size / 1024,
            self.batch_size
        )
    }

    fn describe(&self) -> String {
        format!(
            "{} KiB {}, BATCHSZ({})",
            self.size / 1024,
            if self.persistent {
                "persistent"
            } else {
                "NP FAST"
            },
            self.batch_size
        )
    }

    /// Messages preloaded: enough for a measured interval of a few seconds at this
    /// machine's rates.
    fn messages(&self, mode: Mode) -> u64 {
        let quick: u64 = match (self.persistent, self.batch_size, self.size > 1024) {
            (false, 50, false) => 20_000,
            (false, 50, true) => 4_000,
            (false, _, false) => 5_000,
            (false, _, true) => 2_000,
            (true, 50, false) => 5_000,
            (true, 50, true) => 2_000,
            (true, _, false) => 1_000,
            (true, _, true) => 500,
        };
        mode.pick((quick / 10).max(200), quick, quick * 4)
    }

    /// MP16's z16 CPU µs per message, both ends, where MP16 gives one.
    fn mp16_cpu_us(&self) -> Option<f64> {
        let size = self.size as f64;
        match (self.persistent, self.batch_size) {
            (false, 50) => Some(22.16 + 0.00058 * size),
            (false, 1) => Some(38.53 + 0.0007 * size),
            (true, 1) => Some(223.0 + 0.003 * size),
            _ => None,
        }
    }

    fn remote_queue(&self) -> String {
        format!("TO.B{}", self.batch_size)
    }

    fn destination(&self) -> String {
        format!("ARRIVE.B{}", self.batch_size)
    }

    fn channel(&self) -> String {
        format!("CH.B{}", self.batch_size)
    }
}

/// What a cell measured.
struct Moved {
    messages: u64,
    seconds: f64,
    sender_cpu_us: f64,
    receiver_cpu_us: f64,
}

pub fn channels(context: &mut Context) {
    println!(
        "\n== channels: two `ferrite start` queue managers, SDR -> RCVR over loopback TCP, messages moved from the remote queue on {SENDER} to the local queue on {RECEIVER} =="
    );
    let Some(binary) = client::ferrite_binary() else {
        println!("  skipped: no ferrite binary beside ferrite-bench (cargo build --release -p ferrite first)");
        return;
    };
    let Some((sender, receiver)) = start_pair(&binary, context) else {
        return;
    };
    println!(
        "  {SENDER} pid {} and {RECEIVER} pid {} (listening on 127.0.0.1:{})",
        sender.pid, receiver.pid, receiver.port
    );
    let measured_seconds = context.mode.pick(1.0, 3.0, 10.0);
    for size in SIZES {
        let local_rate = local_put_get(&receiver, size, measured_seconds);
        println!(
            "  {RECEIVER} local persistent put+get, {} KiB, 1 putter + 1 getter, MQCMIT per message: {local_rate:.0} msgs/s",
            size / 1024
        );
        context.report.push(
            Row::new(
                "channels",
                format!("local persistent put+get {} KiB: msgs/s", size / 1024),
                local_rate,
                "msgs/s",
            )
            .system("ferrite")
            .label("cell", format!("local-p-{}k", size / 1024))
            .label("quantity", "rate")
            .field("size", size as f64),
        );
        for persistent in [false, true] {
            for batch_size in BATCH_SIZES {
                let cell = Cell {
                    size,
                    persistent,
                    batch_size,
                };
                match move_cell(&sender, &receiver, cell, context.mode) {
                    Ok(moved) => push_cell(context, cell, &moved, local_rate),
                    Err(error) => println!("  {}: failed: {error}", cell.describe()),
                }
            }
        }
    }
}

/// CHRECV with its local queues and RCVR channels, CHSEND with its transmission queues,
/// remote queues and SDR channels (not started).
fn start_pair(
    binary: &std::path::Path,
    context: &Context,
) -> Option<(ChildQueueManager, ChildQueueManager)> {
    let Some(receiver) = ChildQueueManager::start(binary, &context.dir, RECEIVER) else {
        println!("  skipped: {RECEIVER} did not start");
        return None;
    };
    let mut commands = vec![format!("DEFINE QLOCAL({LOCAL_QUEUE}) MAXDEPTH(999999999)")];
    for batch_size in BATCH_SIZES {
        commands.extend([
            format!("DEFINE QLOCAL(ARRIVE.B{batch_size}) MAXDEPTH(999999999)"),
            format!("DEFINE CHANNEL(CH.B{batch_size}) CHLTYPE(RCVR) NPMSPEED(FAST) BATCHSZ(50)"),
            format!("SET CHLAUTH('CH.B{batch_size}') TYPE(BLOCKUSER) USERLIST('nobody')"),
        ]);
    }
    if let Err(output) = receiver.mqsc(&commands) {
        println!("  skipped: defining {RECEIVER}'s objects failed:\n{output}");
        return None;
    }
    let Some(sender) = ChildQueueManager::start(binary, &context.dir, SENDER) else {
        println!("  skipped: {SENDER} did not start");
        return None;
    };
    let mut commands = Vec::new();
    for batch_size in BATCH_SIZES {
        commands.extend([
            format!("DEFINE QLOCAL(XQ.B{batch_size}) USAGE(XMITQ) MAXDEPTH(999999999)"),
            format!(
                "DEFINE QREMOTE(TO.B{batch_size}) RNAME(ARRIVE.B{batch_size}) RQMNAME({RECEIVER}) XMITQ(XQ.B{batch_size})"
            ),
            format!(
                "DEFINE CHANNEL(CH.B{batch_size}) CHLTYPE(SDR) CONNAME('127.0.0.1({})') XMITQ(XQ.B{batch_size}) BATCHSZ({batch_size}) NPMSPEED(FAST) DISCINT(0) SHORTRTY(10) SHORTTMR(1)",
                receiver.port
            ),
        ]);
    }
    if let Err(output) = sender.mqsc(&commands) {
        println!("  skipped: defining {SENDER}'s objects failed:\n{output}");
        return None;
    }
    Some((sender, receiver))
}

fn depth(connection: &mut Connection, queue: Hobj) -> Result<u64, String> {
    let inquired = connection
        .inquire(queue, &[MQIA_CURRENT_Q_DEPTH])
        .map_err(|error| format!("MQINQ: {error}"))?;
    match inquired.values.first() {
        Some(AttributeValue::Integer(depth)) => Ok(*depth as u64),
        other => Err(format!("MQINQ CURDEPTH answered {other:?}")),
    }
}

/// Put `count` messages of `cell` to its remote queue on CHSEND (the channel stopped).
fn preload(sender: &ChildQueueManager, cell: Cell, count: u64) -> Result<(), String> {
    let mut connection = Connection::connect(sender.socket(), SENDER)
        .map_err(|error| format!("MQCONN {SENDER}: {error}"))?;
    let queue = connection
        .open(&mut Mqod::queue(&cell.remote_queue()), MQOO_OUTPUT)
        .map_err(|error| format!("MQOPEN {}: {error}", cell.remote_queue()))?;
    let data = vec![b'c'; cell.size];
    let options = if cell.persistent {
        MQPMO_SYNCPOINT
    } else {
        MQPMO_NO_SYNCPOINT
    } | MQPMO_NEW_MSG_ID;
    for index in 1..=count {
        let mut md = Mqmd {
            persistence: if cell.persistent {
                MQPER_PERSISTENT
            } else {
                MQPER_NOT_PERSISTENT
            },
            ..Mqmd::default()
        };
        connection
            .put(queue, &mut md, &mut Mqpmo::with_options(options), &data)
            .map_err(|error| format!("MQPUT: {error}"))?;
        if cell.persistent && (index % PRELOAD_UNIT == 0 || index == count) {
            connection
                .commit()
                .map_err(|error| format!("MQCMIT: {error}"))?;
        }
    }
    connection
        .disconnect()
        .map_err(|error| format!("MQDISC: {error}"))
}

/// Start the cell's channel with its messages waiting, measure from a tenth of them arrived to
/// nine tenths, wait for the rest, stop the channel and clear the destination.
fn move_cell(
    sender: &ChildQueueManager,
    receiver: &ChildQueueManager,
    cell: Cell,
    mode: Mode,
) -> Result<Moved, String> {
    let count = cell.messages(mode);
    preload(sender, cell, count)?;
    let mut connection = Connection::connect(receiver.socket(), RECEIVER)
        .map_err(|error| format!("MQCONN {RECEIVER}: {error}"))?;
    let destination = connection
        .open(&mut Mqod::queue(&cell.destination()), MQOO_INQUIRE)
        .map_err(|error| format!("MQOPEN {}: {error}", cell.destination()))?;
    sender.mqsc(&[format!("START CHANNEL({})", cell.channel())])?;
    let (low, high) = (count / 10, count * 9 / 10);
    // Until `at_least` arrived; at `deadline`, an error, or (`soft`) the depth reached.
    let wait_for = |connection: &mut Connection,
                    at_least: u64,
                    deadline: Instant,
                    soft: bool|
     -> Result<u64, String> {
        loop {
            let now = depth(connection, destination)?;
            if now >= at_least || (soft && Instant::now() > deadline) {
                return Ok(now);
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "{now} of {count} messages arrived; the channel stalled"
                ));
            }
            std::thread::sleep(DEPTH_POLL);
        }
    };
    let start_depth = wait_for(&mut connection, low, Instant::now() + CELL_PATIENCE, false)?;
    let started = Instant::now();
    let (sender_start, receiver_start) = usage_pair(sender, receiver)?;
    let window_end = started + Duration::from_secs_f64(mode.pick(3.0, 10.0, 30.0));
    let end_depth = wait_for(&mut connection, high, window_end, true)?;
    let seconds = started.elapsed().as_secs_f64();
    let (sender_end, receiver_end) = usage_pair(sender, receiver)?;
    let _ = connection.disconnect();
    // What is left is not needed: the channel stopped at the end of its batch, both queues
    // cleared.
    sender.mqsc(&[format!("STOP CHANNEL({}) MODE(QUIESCE)", cell.channel())])?;
    wait_stopped(sender, &cell.channel())?;
    sender.mqsc(&[format!("CLEAR QLOCAL(XQ.B{})", cell.batch_size)])?;
    receiver.mqsc(&[format!("CLEAR QLOCAL({})", cell.destination())])?;
    let messages = end_depth.saturating_sub(start_depth).max(1);
    let per_message =
        |end: &ProcUsage, start: &ProcUsage| end.since(start).cpu_seconds * 1e6 / messages as f64;
    Ok(Moved {
        messages,
        seconds,
        sender_cpu_us: per_message(&sender_end, &sender_start),
        receiver_cpu_us: per_message(&receiver_end, &receiver_start),
    })
}

fn usage_pair(
    sender: &ChildQueueManager,
    receiver: &ChildQueueManager,
) -> Result<(ProcUsage, ProcUsage), String> {
    let of = |pid| ProcUsage::of(pid).ok_or_else(|| format!("/proc/{pid} unreadable"));
    Ok((of(sender.pid)?, of(receiver.pid)?))
}

/// Wait until DISPLAY CHSTATUS shows the channel stopped.
fn wait_stopped(sender: &ChildQueueManager, channel: &str) -> Result<(), String> {
    let deadline = Instant::now() + CELL_PATIENCE;
    loop {
        let output = sender
            .mqsc_output(&[format!("DISPLAY CHSTATUS({channel})")])
            .unwrap_or_else(|output| output);
        if output.contains("STATUS(STOPPED)") || !output.contains("STATUS(") {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{channel} does not stop: {output}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// One putter and one getter of persistent messages of `size` on CHRECV's local queue, each
/// committing every message, for `seconds` after a warm-up: messages got per second.
fn local_put_get(receiver: &ChildQueueManager, size: usize, seconds: f64) -> f64 {
    let stop = Arc::new(AtomicBool::new(false));
    let got = Arc::new(AtomicU64::new(0));
    let socket = receiver.socket();
    let putter = {
        let (stop, socket) = (stop.clone(), socket.clone());
        std::thread::spawn(move || {
            let mut connection = Connection::connect(&socket, RECEIVER).expect("MQCONN");
            let queue = connection
                .open(&mut Mqod::queue(LOCAL_QUEUE), MQOO_OUTPUT)
                .expect("MQOPEN");
            let data = vec![b'l'; size];
            while !stop.load(Ordering::Relaxed) {
                let mut md = Mqmd {
                    persistence: MQPER_PERSISTENT,
                    ..Mqmd::default()
                };
                let options = MQPMO_SYNCPOINT | MQPMO_NEW_MSG_ID;
                connection
                    .put(queue, &mut md, &mut Mqpmo::with_options(options), &data)
                    .expect("MQPUT");
                connection.commit().expect("MQCMIT");
            }
            let _ = connection.disconnect();
        })
    };
    let getter = {
        let (stop, got) = (stop.clone(), got.clone());
        std::thread::spawn(move || {
            let mut connection = Connection::connect(&socket, RECEIVER).expect("MQCONN");
            let queue = connection
                .open(&mut Mqod::queue(LOCAL_QUEUE), MQOO_INPUT_SHARED)
                .expect("MQOPEN");
            let mut buffer = vec![0u8; size + 1024];
            while !stop.load(Ordering::Relaxed) {
                let mut md = Mqmd::default();
                let mut gmo = Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_WAIT);
                gmo.wait_interval = 200;
                if connection
                    .get(queue, &mut md, &mut gmo, &mut buffer)
                    .is_ok()
                {
                    connection.commit().expect("MQCMIT");
                    got.fetch_add(1, Ordering::Relaxed);
                }
            }
            let _ = connection.disconnect();
        })
    };
    std::thread::sleep(Duration::from_secs_f64(seconds / 3.0));
    let (start_count, started) = (got.load(Ordering::Relaxed), Instant::now());
    std::thread::sleep(Duration::from_secs_f64(seconds));
    let rate = (got.load(Ordering::Relaxed) - start_count) as f64 / started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let _ = putter.join();
    let _ = getter.join();
    let _ = receiver.mqsc(&[format!("CLEAR QLOCAL({LOCAL_QUEUE})")]);
    rate
}

fn push_cell(context: &mut Context, cell: Cell, moved: &Moved, local_rate: f64) {
    let rate = moved.messages as f64 / moved.seconds;
    let total_cpu = moved.sender_cpu_us + moved.receiver_cpu_us;
    let anchor = cell.mp16_cpu_us();
    println!(
        "  {:<32} {rate:>8.0} msgs/s  CPU/msg sender {:>6.1} µs + receiver {:>6.1} µs = {total_cpu:>6.1} µs{}{}",
        cell.describe(),
        moved.sender_cpu_us,
        moved.receiver_cpu_us,
        anchor.map_or(String::new(), |anchor| format!(
            "  (MP16 z16 {anchor:.1} µs: {:.2}x, goal <= 1: {})",
            total_cpu / anchor,
            if total_cpu <= anchor { "met" } else { "not met" }
        )),
        if cell.persistent && cell.batch_size == 50 {
            format!(
                "  ({:.2} of the local persistent put+get rate, goal >= 0.80: {})",
                rate / local_rate,
                if rate >= 0.8 * local_rate { "met" } else { "not met" }
            )
        } else {
            String::new()
        }
    );
    let base = |metric: String, value: f64, unit: &'static str, quantity: &str| {
        Row::new("channels", metric, value, unit)
            .system("ferrite")
            .label("cell", cell.name())
            .label("quantity", quantity)
            .field("size", cell.size as f64)
            .field("batch_size", f64::from(cell.batch_size))
            .field("persistent", f64::from(u8::from(cell.persistent)))
    };
    let mut rate_row = base(
        format!("{}: msgs/s moved", cell.describe()),
        rate,
        "msgs/s",
        "rate",
    );
    if cell.persistent && cell.batch_size == 50 {
        rate_row = rate_row
            .against("local persistent put+get (this run)", local_rate)
            .goal(">= 0.80", rate >= 0.8 * local_rate);
    }
    context.report.push(rate_row);
    context.report.push(base(
        format!("{}: sender CPU per message", cell.describe()),
        moved.sender_cpu_us,
        "us",
        "cpu_us_sender",
    ));
    context.report.push(base(
        format!("{}: receiver CPU per message", cell.describe()),
        moved.receiver_cpu_us,
        "us",
        "cpu_us_receiver",
    ));
    let mut total_row = base(
        format!("{}: CPU per message, both ends", cell.describe()),
        total_cpu,
        "us",
        "cpu_us_total",
    );
    if let Some(anchor) = anchor {
        total_row = total_row
            .against("MP16 z16, both ends", anchor)
            .goal("<= 1", total_cpu <= anchor);
    }
    context.report.push(total_row);
}

// ---------------------------------------------------------------- the ratio table

/// The peers' forwarders, as their rows name them.
const PEERS: [&str; 2] = ["rabbitmq-shovel", "artemis-bridge"];

/// `channels-table`: Ferrite's channel rows of run `run` (the last run with channel rows when
/// None) against the peers' of the same run and MP16's CPU; printed, and returned as rows.
pub fn channels_table(results: &std::path::Path, run: Option<&str>) -> Option<(String, Vec<Row>)> {
    use crate::network::{parse_flat_json, Value};
    use std::collections::HashMap;
    let text = std::fs::read_to_string(results).ok()?;
    let lines: Vec<HashMap<String, Value>> = text
        .lines()
        .filter_map(parse_flat_json)
        .filter(|line| line.get("bench").and_then(Value::text) == Some("channels"))
        .collect();
    let run = match run {
        Some(run) => run.to_string(),
        None => lines.last()?.get("run").and_then(Value::text)?.to_string(),
    };
    let mut values: HashMap<(String, String, String), f64> = HashMap::new();
    for line in lines
        .iter()
        .filter(|line| line.get("run").and_then(Value::text) == Some(run.as_str()))
    {
        let get = |name: &str| line.get(name).and_then(Value::text).map(str::to_string);
        if let (Some(system), Some(cell), Some(quantity), Some(value)) = (
            get("system"),
            get("cell"),
            get("quantity"),
            line.get("value").and_then(Value::number),
        ) {
            values.insert((system, cell, quantity), value);
        }
    }
    let get = |system: &str, cell: &str, quantity: &str| {
        values
            .get(&(system.to_string(), cell.to_string(), quantity.to_string()))
            .copied()
    };
    let mut rows = Vec::new();
    println!(
        "\n== channels, run {run}: Ferrite's forwarding against the better peer (goal >= 2 at BATCHSZ(50)) and MP16's CPU (goal <= 1) =="
    );
    println!(
        "  {:<30} {:>9} {:>22} {:>7} {:>13} {:>9} {:>6}",
        "cell", "msgs/s", "better peer msgs/s", "ratio", "CPU µs/msg", "MP16 µs", "ratio"
    );
    for size in SIZES {
        for persistent in [false, true] {
            for batch_size in BATCH_SIZES {
                let cell = Cell {
                    size,
                    persistent,
                    batch_size,
                };
                let Some(rate) = get("ferrite", &cell.name(), "rate") else {
                    continue;
                };
                let peer_cell = format!("{}-{}k", if persistent { "p" } else { "np" }, size / 1024);
                let better_peer = PEERS
                    .iter()
                    .filter_map(|peer| Some((get(peer, &peer_cell, "rate")?, *peer)))
                    .reduce(|a, b| if b.0 > a.0 { b } else { a });
                let cpu = get("ferrite", &cell.name(), "cpu_us_total");
                let anchor = cell.mp16_cpu_us();
                let peer_ratio = better_peer.map(|(peer_rate, _)| rate / peer_rate);
                let cpu_ratio = cpu.zip(anchor).map(|(cpu, anchor)| cpu / anchor);
                println!(
                    "  {:<30} {rate:>9.0} {:>22} {:>7} {:>13} {:>9} {:>6}",
                    cell.describe(),
                    better_peer.map_or("—".to_string(), |(value, peer)| format!(
                        "{value:.0} {peer}"
                    )),
                    peer_ratio.map_or("—".to_string(), |ratio| format!("{ratio:.2}")),
                    cpu.map_or("—".to_string(), |cpu| format!("{cpu:.1}")),
                    anchor.map_or("—".to_string(), |anchor| format!("{anchor:.1}")),
                    cpu_ratio.map_or("—".to_string(), |ratio| format!("{ratio:.2}")),
                );
                if let (Some((peer_rate, peer)), 50) = (better_peer, batch_size) {
                    rows.push(
                        Row::new(
                            "channels-table",
                            format!("{}: msgs/s moved against the better peer", cell.describe()),
                            rate,
                            "msgs/s",
                        )
                        .system("ferrite")
                        .label("cell", cell.name())
                        .label("quantity", "peer_ratio")
                        .against(format!("{peer} (this run)"), peer_rate)
                        .goal(">= 2", rate >= 2.0 * peer_rate),
                    );
                }
            }
        }
    }
    Some((run, rows))
}
