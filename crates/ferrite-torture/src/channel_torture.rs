//! Crash torture of a message channel: two real `ferrite` queue manager processes, QMA's SDR
//! channel (NPMSPEED(FAST)) moving what a producer puts to a remote queue onto QMB's local
//! queue through a [`ChannelProxy`], and in every round one of them SIGKILLed at a seeded
//! flow of the channel: mid-batch (before or just after a message reaches the receiver),
//! mid-confirm (the receiver's confirmation of a committed batch held back from the sender),
//! or a seeded number of microseconds after the sender got it. The producer puts persistent
//! messages of priorities 0-9, in units of work and out of syncpoint, and non-persistent ones,
//! of 0 B to 100 KB (segmented beyond the 32 KiB transmission size).
//!
//! A round: the producer runs and the kill fires; the victim is restarted (a killed sender
//! may get another BATCHSZ while it is down) and its channel started; the producer runs again
//! with nothing killed; then the channel is drained (transmission queue empty, stopped with
//! nothing in doubt) and every message on QMB's queue is got and checked against the
//! [`ChannelModel`]: committed persistent messages exactly once and in order per priority,
//! uncertain units whole or not at all, non-persistent messages never twice and lost only
//! across the kill. A failure names the seed that replays the run's choices.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ferrite_client::{Connection, MqError, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_constants::{
    get_options::*, open_options::*, persistence::*, put_options::*, reason::*,
};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_test_kit::channel_pair::ChannelPair;

use crate::channel_model::{ChannelModel, RoundCheck};
use crate::channel_proxy::{ChannelProxy, KillPlan, KillPoint};
use crate::message::{self, MessageIdentity};
use crate::queue_manager::{QueueManagerHome, RunningQueueManager};
use crate::random::Random;

const SENDER: &str = "QMA";
const RECEIVER: &str = "QMB";
const PAIR: ChannelPair<'static> = ChannelPair {
    channel: "QMA.TO.QMB",
    receiver: RECEIVER,
    remote_queue: "TO.QMB",
    destination: "ARRIVALS",
};
/// The BATCHSZ values a round may give the channel.
const BATCH_SIZES: [u64; 5] = [1, 3, 10, 25, 50];
/// Largest unit of work the producer commits.
const UNIT_MESSAGES_MAX: u64 = 8;
/// A bound on anything the harness waits for (a watchdog against a hang, never a measure).
const PATIENCE: Duration = Duration::from_secs(300);
/// Buffer for MQGET: the largest message and some.
const GET_BUFFER_BYTES: usize = message::MESSAGE_BYTES_MAX + 4096;

pub struct ChannelTortureOptions {
    pub rounds: u64,
    pub seed: u64,
    pub ferrite: PathBuf,
    pub work_directory: Option<PathBuf>,
    /// Most messages the producer puts in each half of a round.
    pub messages_max: u64,
    pub interrupt: &'static AtomicBool,
}

#[derive(Clone, Debug, Default)]
pub struct ChannelTortureReport {
    pub rounds: u64,
    pub sender_kills: u64,
    pub receiver_kills: u64,
    pub mid_batch_kills: u64,
    pub held_confirmation_kills: u64,
    pub after_confirmation_kills: u64,
    pub messages_put: u64,
    pub arrived: u64,
    pub lost: u64,
    pub duplicated: u64,
    pub phantom: u64,
    pub order_violations: u64,
    pub torn_units: u64,
    pub non_persistent_lost: u64,
    pub uncertain_units_resolved: u64,
    pub elapsed: Duration,
}

impl ChannelTortureReport {
    pub fn summary(&self) -> String {
        format!(
            "{} rounds in {:.1} s: killed the sender {} and the receiver {} times ({} mid-batch, {} with a confirmation held back, {} just after a confirmation); {} messages put, {} arrived, {} non-persistent lost across kills, {} uncertain units resolved; lost {}, duplicated {}, phantom {}, order violations {}, torn units {}",
            self.rounds,
            self.elapsed.as_secs_f64(),
            self.sender_kills,
            self.receiver_kills,
            self.mid_batch_kills,
            self.held_confirmation_kills,
            self.after_confirmation_kills,
            self.messages_put,
            self.arrived,
            self.non_persistent_lost,
            self.uncertain_units_resolved,
            self.lost,
            self.duplicated,
            self.phantom,
            self.order_violations,
            self.torn_units
        )
    }

    fn add(&mut self, check: &RoundCheck) {
        self.arrived += check.arrived;
        self.lost += check.lost;
        self.duplicated += check.duplicated;
        self.phantom += check.phantom;
        self.order_violations += check.order_violations;
        self.torn_units += check.torn_units;
        self.non_persistent_lost += check.non_persistent_lost;
        self.uncertain_units_resolved += check.uncertain_resolved;
    }
}

/// Run the rounds; a failure says what was wrong, where the FERRITE_HOME was kept and the
/// seed that replays it.
pub fn run(
    options: &ChannelTortureOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<ChannelTortureReport, String> {
    let directory = match &options.work_directory {
        Some(directory) => {
            std::fs::create_dir_all(directory)
                .map_err(|error| format!("cannot create {}: {error}", directory.display()))?;
            tempfile::Builder::new()
                .prefix("ferrite-channel-torture-")
                .tempdir_in(directory)
        }
        None => tempfile::Builder::new()
            .prefix("ferrite-channel-torture-")
            .tempdir(),
    }
    .map_err(|error| format!("cannot create a FERRITE_HOME: {error}"))?;
    let started = Instant::now();
    let mut report = ChannelTortureReport::default();
    match torture(options, directory.path(), &mut report, progress) {
        Ok(()) => {
            report.elapsed = started.elapsed();
            Ok(report)
        }
        Err(error) => {
            report.elapsed = started.elapsed();
            let kept = directory.keep();
            Err(format!(
                "{error}\n{}\n(FERRITE_HOME kept at {}; replay with ferrite-torture channels --seed {} --rounds {})",
                report.summary(),
                kept.display(),
                options.seed,
                options.rounds
            ))
        }
    }
}

/// The two queue managers, the relay between them, and the model.
struct Pair {
    homes: [QueueManagerHome; 2],
    running: [Option<RunningQueueManager>; 2],
    proxy: ChannelProxy,
    model: Arc<Mutex<ChannelModel>>,
    /// The kind of kill of round 0 (then each in turn).
    first_kind: u64,
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

fn torture(
    options: &ChannelTortureOptions,
    home: &std::path::Path,
    report: &mut ChannelTortureReport,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let mut random = Random::new(options.seed);
    let home_of = |name: &str, port: u16| QueueManagerHome {
        ferrite: options.ferrite.clone(),
        home: home.to_path_buf(),
        name: name.to_string(),
        listener_port: Some(port),
    };
    let homes = [
        home_of(SENDER, free_port()?),
        home_of(RECEIVER, free_port()?),
    ];
    let receiver_port = homes[1].listener_port.expect("a port");
    let proxy = ChannelProxy::start(receiver_port).map_err(|e| format!("the relay: {e}"))?;
    let batch_size = BATCH_SIZES[random.below(BATCH_SIZES.len() as u64) as usize];
    homes[0].create(
        &QueueManagerConfig::small(SENDER),
        &PAIR.sender_definitions(
            proxy.port(),
            &format!(
                "BATCHSZ({batch_size}) NPMSPEED(FAST) SHORTRTY(999999999) SHORTTMR(1) DISCINT(0)"
            ),
        ),
    )?;
    homes[1].create(
        &QueueManagerConfig::small(RECEIVER),
        &PAIR.receiver_definitions("NPMSPEED(FAST)"),
    )?;
    let mut pair = Pair {
        homes,
        running: [None, None],
        proxy,
        model: Arc::new(Mutex::new(ChannelModel::default())),
        first_kind: random.below(KILL_KINDS),
    };
    pair.start(1)?;
    pair.start(0)?;
    pair.start_channel()?;
    progress(&format!(
        "channel torture, seed {}: BATCHSZ({batch_size}) to begin with",
        options.seed
    ));
    while report.rounds < options.rounds && !options.interrupt.load(Ordering::SeqCst) {
        report.rounds += 1;
        let line = round(options, &mut pair, &mut random, report)
            .map_err(|error| format!("round {}: {error}", report.rounds))?;
        progress(&format!(
            "round {}/{}: {line}",
            report.rounds, options.rounds
        ));
    }
    for index in [0, 1] {
        if let Some(running) = pair.running[index].take() {
            running.stop()?;
        }
    }
    Ok(())
}

impl Pair {
    fn start(&mut self, index: usize) -> Result<(), String> {
        let (running, _) = self.homes[index].start()?;
        self.running[index] = Some(running);
        Ok(())
    }

    fn pid(&self, index: usize) -> u32 {
        self.running[index].as_ref().expect("running").pid()
    }

    /// An MQSC command on QMA: its output, whether it succeeded or not (a command refused,
    /// or DISPLAY CHSTATUS of a channel with no status, says so in its output).
    fn mqsc(&self, command: &str) -> Result<String, String> {
        self.homes[0]
            .run(&["mqsc", SENDER], &format!("{command}\n"))
            .or_else(|output| {
                if output.contains("cannot run") {
                    Err(output)
                } else {
                    Ok(output)
                }
            })
    }

    /// START CHANNEL on QMA (refused harmlessly when it runs already).
    fn start_channel(&self) -> Result<(), String> {
        let _ = self.mqsc(&format!("START CHANNEL({})", PAIR.channel));
        Ok(())
    }

    fn transmission_depth(&self) -> Result<u64, String> {
        let output = self.mqsc(&format!("DISPLAY QLOCAL({RECEIVER}) CURDEPTH"))?;
        field(&output, "CURDEPTH")
            .and_then(|depth| depth.parse().ok())
            .ok_or_else(|| format!("no CURDEPTH in {output}"))
    }

    /// Every message of the transmission queue sent and confirmed: the queue empty, the
    /// channel stopped with nothing in doubt.
    fn drain_channel(&self) -> Result<(), String> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            while self.transmission_depth()? > 0 {
                if Instant::now() > deadline {
                    return Err(format!(
                        "the channel does not empty its transmission queue ({} left)",
                        self.transmission_depth()?
                    ));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = self.mqsc(&format!("STOP CHANNEL({}) MODE(QUIESCE)", PAIR.channel));
            let status = loop {
                let status = self.mqsc(&format!("DISPLAY CHSTATUS({}) ALL", PAIR.channel))?;
                if matches!(
                    field(&status, "STATUS").as_deref(),
                    Some("STOPPED") | Some("INACTIVE") | None
                ) {
                    break status;
                }
                if Instant::now() > deadline {
                    return Err(format!("the channel does not stop: {status}"));
                }
                std::thread::sleep(Duration::from_millis(20));
            };
            let in_doubt = field(&status, "INDOUBT").is_some_and(|value| value == "YES");
            if !in_doubt && self.transmission_depth()? == 0 {
                return Ok(());
            }
            self.start_channel()?;
        }
    }
}

/// The value of `keyword(...)` in MQSC output (the keyword not the tail of a longer one).
fn field(output: &str, keyword: &str) -> Option<String> {
    let key = format!("{keyword}(");
    let start = output.match_indices(&key).find_map(|(at, _)| {
        let before = output[..at].chars().next_back();
        (!before.is_some_and(|c| c.is_ascii_alphanumeric())).then_some(at + key.len())
    })?;
    let end = start + output[start..].find(')')?;
    Some(output[start..end].to_string())
}

/// Kinds of kill: the victim (sender, receiver) times the four points; consecutive rounds
/// take them in turn from a seeded start, so that any eight rounds have each once.
const KILL_KINDS: u64 = 8;

/// The kill of a round: who, and at which flow (its numbers seeded).
fn choose_kill(
    random: &mut Random,
    kind: u64,
    messages: u64,
    batch_size: u64,
) -> (usize, KillPoint) {
    let victim = (kind % 2) as usize;
    let batches = messages.div_ceil(batch_size).max(1);
    let point = match (kind / 2) % 4 {
        0 => KillPoint::MidBatch {
            message: random.between(1, messages.max(1)),
            forwarded: false,
        },
        1 => KillPoint::MidBatch {
            message: random.between(1, messages.max(1)),
            forwarded: true,
        },
        2 => KillPoint::HeldConfirmation {
            confirmation: random.between(1, batches),
        },
        _ => KillPoint::AfterConfirmation {
            confirmation: random.between(1, batches),
            delay_us: random.below(3000),
        },
    };
    (victim, point)
}

fn round(
    options: &ChannelTortureOptions,
    pair: &mut Pair,
    random: &mut Random,
    report: &mut ChannelTortureReport,
) -> Result<String, String> {
    let batch_size = current_batch_size(pair)?;
    let messages = random.between(1, options.messages_max);
    let kind = (pair.first_kind + report.rounds) % KILL_KINDS;
    let (victim, point) = choose_kill(random, kind, messages, batch_size);
    pair.proxy.arm(KillPlan {
        point,
        pid: pair.pid(victim),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let producer = start_producer(pair, random.next_u64(), messages, &stop);
    let fired = pair.proxy.wait_fired(PATIENCE);
    let plan = pair.proxy.disarm();
    if !fired || plan.is_none() {
        stop.store(true, Ordering::SeqCst);
        let _ = producer.join();
        return Err(format!(
            "the kill ({}) never came: the channel moved fewer flows than planned",
            point.describe()
        ));
    }
    pair.model.lock().expect("model lock").killed();
    pair.running[victim]
        .take()
        .expect("running")
        .kill()
        .map_err(|error| format!("the kill: {error}"))?;
    stop.store(true, Ordering::SeqCst);
    report.messages_put += join_producer(producer)?;
    match point {
        KillPoint::MidBatch { .. } => report.mid_batch_kills += 1,
        KillPoint::HeldConfirmation { .. } => report.held_confirmation_kills += 1,
        KillPoint::AfterConfirmation { .. } => report.after_confirmation_kills += 1,
    }
    let mut altered = String::new();
    if victim == 0 {
        report.sender_kills += 1;
        if random.percent(30) {
            let size = BATCH_SIZES[random.below(BATCH_SIZES.len() as u64) as usize];
            pair.homes[0].run(
                &["mqsc", SENDER],
                &format!(
                    "ALTER CHANNEL({}) CHLTYPE(SDR) BATCHSZ({size})\n",
                    PAIR.channel
                ),
            )?;
            altered = format!(", BATCHSZ({size}) from now on");
        }
    } else {
        report.receiver_kills += 1;
    }
    pair.start(victim)?;
    pair.start_channel()?;
    // The second half: nothing killed, so every message of it must arrive.
    let calm = random.between(1, options.messages_max);
    let never = Arc::new(AtomicBool::new(false));
    report.messages_put += join_producer(start_producer(pair, random.next_u64(), calm, &never))?;
    pair.drain_channel()?;
    let check = check_arrivals(pair)?;
    report.add(&check);
    if !check.is_clean() {
        return Err(format!(
            "after killing {} {}: lost {}, duplicated {}, phantom {}, order violations {}, torn units {}:\n  {}",
            [SENDER, RECEIVER][victim],
            point.describe(),
            check.lost,
            check.duplicated,
            check.phantom,
            check.order_violations,
            check.torn_units,
            check.problems.join("\n  ")
        ));
    }
    pair.start_channel()?;
    Ok(format!(
        "killed {} ({}) {} with BATCHSZ({batch_size}){altered}; {} messages arrived, {} non-persistent lost, {} uncertain units",
        [SENDER, RECEIVER][victim],
        ["sender", "receiver"][victim],
        point.describe(),
        check.arrived,
        check.non_persistent_lost,
        check.uncertain_resolved
    ))
}

fn current_batch_size(pair: &Pair) -> Result<u64, String> {
    let output = pair.mqsc(&format!("DISPLAY CHANNEL({}) BATCHSZ", PAIR.channel))?;
    field(&output, "BATCHSZ")
        .and_then(|size| size.parse().ok())
        .ok_or_else(|| format!("no BATCHSZ in {output}"))
}

/// Everything on QMB's destination queue, got in queue order and checked; then the model
/// settles the round.
fn check_arrivals(pair: &Pair) -> Result<RoundCheck, String> {
    let failure = |call: &str, error: MqError| format!("{call} on {RECEIVER}: {error}");
    let mut connection = Connection::connect(pair.homes[1].socket(), RECEIVER)
        .map_err(|error| failure("MQCONN", error))?;
    let handle = connection
        .open(&mut Mqod::queue(PAIR.destination), MQOO_INPUT_EXCLUSIVE)
        .map_err(|error| failure("MQOPEN", error))?;
    let mut buffer = vec![0u8; GET_BUFFER_BYTES];
    let mut check = RoundCheck::default();
    let mut model = pair.model.lock().expect("model lock");
    loop {
        let mut md = Mqmd::default();
        let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT);
        match connection.get(handle, &mut md, &mut gmo, &mut buffer) {
            Ok(got) => model.arrived(
                &md.msg_id,
                md.persistence == MQPER_PERSISTENT,
                md.priority,
                &buffer[..got.returned_length],
                &mut check,
            ),
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
            Err(error) => return Err(failure("MQGET", error)),
        }
    }
    model.settle(&mut check);
    drop(model);
    connection
        .disconnect()
        .map_err(|error| failure("MQDISC", error))?;
    Ok(check)
}

fn start_producer(
    pair: &Pair,
    seed: u64,
    messages: u64,
    stop: &Arc<AtomicBool>,
) -> JoinHandle<Result<u64, String>> {
    let producer = Producer {
        socket: pair.homes[0].socket(),
        random: Random::new(seed),
        model: pair.model.clone(),
        stop: stop.clone(),
        unit: 0,
    };
    std::thread::spawn(move || producer.run(messages))
}

/// The messages the producer put (acknowledged or not).
fn join_producer(producer: JoinHandle<Result<u64, String>>) -> Result<u64, String> {
    producer
        .join()
        .map_err(|_| "the producer panicked".to_string())?
}

/// Puts to the remote queue on QMA: units of persistent messages committed, persistent
/// messages out of syncpoint, and non-persistent ones, each told to the model around the
/// call.
struct Producer {
    socket: PathBuf,
    random: Random,
    model: Arc<Mutex<ChannelModel>>,
    stop: Arc<AtomicBool>,
    /// The unit of work open (0: none).
    unit: u64,
}

/// A reason that means the queue manager went away (killed).
fn lost(error: &MqError) -> bool {
    matches!(
        error.reason,
        MQRC_CONNECTION_BROKEN
            | MQRC_Q_MGR_NOT_AVAILABLE
            | MQRC_Q_MGR_QUIESCING
            | MQRC_Q_MGR_STOPPING
            | MQRC_CONNECTION_QUIESCING
            | MQRC_CONNECTION_STOPPING
    )
}

impl Producer {
    fn run(mut self, messages: u64) -> Result<u64, String> {
        let mut put = 0;
        let outcome = self.put_messages(messages, &mut put);
        if self.unit != 0 {
            // Lost before MQCMIT: the queue manager backs the unit out.
            self.model.lock().expect("model lock").backed_out(self.unit);
        }
        match outcome {
            Ok(()) => Ok(put),
            Err(error) if lost(&error) => Ok(put),
            Err(error) => Err(format!("the producer: {error}")),
        }
    }

    fn put_messages(&mut self, messages: u64, put: &mut u64) -> Result<(), MqError> {
        let mut connection = Connection::connect(&self.socket, SENDER)?;
        let handle = connection.open(
            &mut Mqod::queue(PAIR.remote_queue),
            MQOO_OUTPUT | MQOO_FAIL_IF_QUIESCING,
        )?;
        while *put < messages && !self.stop.load(Ordering::SeqCst) {
            match self.random.below(10) {
                0..=4 => {
                    let count = self
                        .random
                        .between(1, UNIT_MESSAGES_MAX)
                        .min(messages - *put);
                    self.unit = self.model.lock().expect("model lock").new_unit();
                    for _ in 0..count {
                        self.put_one(&mut connection, handle, true, put)?;
                    }
                    let unit = self.unit;
                    self.model.lock().expect("model lock").commit_begin(unit);
                    // MQCMIT in flight: whatever happens, the model has it as uncertain.
                    self.unit = 0;
                    connection.commit()?;
                    self.model.lock().expect("model lock").commit_done(unit);
                }
                5..=6 => self.put_one(&mut connection, handle, true, put)?,
                _ => self.put_one(&mut connection, handle, false, put)?,
            }
        }
        connection.disconnect()
    }

    fn put_one(
        &mut self,
        connection: &mut Connection,
        handle: ferrite_client::Hobj,
        persistent: bool,
        put: &mut u64,
    ) -> Result<(), MqError> {
        let length = message::random_length(&mut self.random);
        let priority = self.random.below(10) as u8;
        let number = self.model.lock().expect("model lock").new_number();
        let identity = MessageIdentity {
            number,
            priority,
            length: length as u32,
            worker: 0,
        };
        let unit = if persistent { self.unit } else { 0 };
        self.model
            .lock()
            .expect("model lock")
            .putting(&identity, persistent, unit);
        let mut md = Mqmd {
            msg_id: message::message_id(&identity),
            correl_id: message::correl_id(number),
            priority: i32::from(priority),
            persistence: if persistent {
                MQPER_PERSISTENT
            } else {
                MQPER_NOT_PERSISTENT
            },
            ..Mqmd::default()
        };
        let syncpoint = if unit != 0 {
            MQPMO_SYNCPOINT
        } else {
            MQPMO_NO_SYNCPOINT
        };
        *put += 1;
        connection.put(
            handle,
            &mut md,
            &mut Mqpmo::with_options(syncpoint | MQPMO_FAIL_IF_QUIESCING),
            &message::data(number, length),
        )?;
        self.model.lock().expect("model lock").put_done(number);
        Ok(())
    }
}
