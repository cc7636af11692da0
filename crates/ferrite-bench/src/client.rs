//! Client connections over TCP (the channel initiator), as the client connections issue asks:
//!
//! - `client-request-reply`: MP16's request/reply with every application a client over
//!   loopback TCP through DEV.APP.SVRCONN: requesters put a 1,000-byte non-persistent request to
//!   SERVER.Q and wait for the reply by CorrelId on REPLY.Q (INDXTYPE(CORRELID)); repliers get
//!   requests and put the replies. Round trips per second at 1, 8 and 64 requesters, and CPU
//!   µs per round trip (this process: queue manager and clients together). The physical limit
//!   measured in the same run is a 1,000-byte echo over loopback TCP between two threads.
//! - `client-connections`: memory per idle client connection (the queue manager runs as a
//!   separate `ferrite` process, so only its memory is counted), and 10,000 conversations held
//!   open at once over 1,000 sockets with SHARECNV(10), through raw FAP flows (START_CONV on
//!   each socket).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_client::{ClientOptions, Connection, Hobj};
use ferrite_constants::get_options::{MQGMO_FAIL_IF_QUIESCING, MQGMO_NO_SYNCPOINT, MQGMO_WAIT};
use ferrite_constants::match_options::MQMO_MATCH_CORREL_ID;
use ferrite_constants::open_options::{MQOO_INPUT_SHARED, MQOO_OUTPUT};
use ferrite_constants::persistence::MQPER_NOT_PERSISTENT;
use ferrite_constants::put_options::{MQPMO_NEW_MSG_ID, MQPMO_NO_SYNCPOINT};
use ferrite_mqi::{Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_server::channel_initiator::{ChannelInitiator, ChannelInitiatorConfig};
use ferrite_storage::PageSetId;

use crate::report::Row;
use crate::{engine, Context, Mode};

const MESSAGE_BYTES: usize = 1_000;
pub(crate) const CHANNEL: &str = "DEV.APP.SVRCONN";

pub(crate) fn connect(address: &str) -> Connection {
    Connection::connect_client(
        address,
        CHANNEL,
        "",
        &Mqcno::default(),
        &ClientOptions::default(),
    )
    .expect("MQCONN over TCP")
}

/// A connection with two queues opened, in order, each with its open options.
fn connect_and_open(address: &str, queues: [(&str, i32); 2]) -> (Connection, [Hobj; 2]) {
    let mut connection = connect(address);
    let handles = queues.map(|(queue, options)| {
        connection
            .open(&mut Mqod::queue(queue), options)
            .expect("MQOPEN")
    });
    (connection, handles)
}

/// Round trips per second of a 1,000-byte echo between two threads over loopback TCP: the
/// fastest of its placements (the scheduler's, one processor, two), each for a third of
/// `duration` (on a virtual machine the scheduler's choice alone may be four times slower than
/// what the machine can do).
pub(crate) fn loopback_echo_rate(duration: Duration) -> f64 {
    [
        EchoPlacement::Scheduler,
        EchoPlacement::SameProcessor,
        EchoPlacement::TwoProcessors,
    ]
    .into_iter()
    .map(|placement| loopback_echo_placed(duration / 3, placement).rate)
    .fold(0.0, f64::max)
}

/// A loopback echo's measure: round trips per second, and the CPU of this process (both
/// threads: the kernel's work for both ends of the socket) per round trip.
pub(crate) struct Echo {
    pub rate: f64,
    pub cpu_us_per_round_trip: f64,
}

/// This process's CPU so far (user and system), microseconds.
fn process_cpu_us() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let us = |time: libc::timeval| time.tv_sec as f64 * 1e6 + time.tv_usec as f64;
    us(usage.ru_utime) + us(usage.ru_stime)
}

/// Where the echo's two threads run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EchoPlacement {
    /// Wherever the scheduler puts them.
    Scheduler,
    /// Both on the first processor: each wake-up is a switch on that processor.
    SameProcessor,
    /// One on each of the first two processors: each wake-up crosses processors (on a virtual
    /// machine, an interrupt between virtual processors).
    TwoProcessors,
}

/// Binds the calling thread to `processor` (best effort: a machine with one processor, or a
/// refusal, leaves it where it is). Returns the mask it had, to give back.
fn bind_to_processor(processor: usize) -> Option<libc::cpu_set_t> {
    // SAFETY: sched_getaffinity and sched_setaffinity on the calling thread (pid 0) with a
    // cpu_set_t of the size given.
    unsafe {
        let mut previous: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut previous) != 0 {
            return None;
        }
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(processor, &mut set);
        (libc::sched_setaffinity(0, size, &set) == 0).then_some(previous)
    }
}

fn restore_processors(previous: Option<libc::cpu_set_t>) {
    if let Some(previous) = previous {
        // SAFETY: as in bind_to_processor.
        unsafe {
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &previous);
        }
    }
}

/// A 1,000-byte echo between two threads of this process over loopback TCP, for `duration`,
/// its threads placed as `placement` says (nothing else of this process may be busy
/// meanwhile: its CPU is counted whole).
pub(crate) fn loopback_echo_placed(duration: Duration, placement: EchoPlacement) -> Echo {
    let (echo_processor, client_processor) = match placement {
        EchoPlacement::Scheduler => (None, None),
        EchoPlacement::SameProcessor => (Some(0), Some(0)),
        EchoPlacement::TwoProcessors => (Some(1), Some(0)),
    };
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    let echo = std::thread::spawn(move || {
        if let Some(processor) = echo_processor {
            bind_to_processor(processor);
        }
        let (mut stream, _) = listener.accept().expect("accept");
        let _ = stream.set_nodelay(true);
        let mut buffer = [0u8; MESSAGE_BYTES];
        while stream.read_exact(&mut buffer).is_ok() {
            if stream.write_all(&buffer).is_err() {
                break;
            }
        }
    });
    let mut stream = TcpStream::connect(address).expect("connect");
    let _ = stream.set_nodelay(true);
    let previous = client_processor.and_then(bind_to_processor);
    let mut buffer = [7u8; MESSAGE_BYTES];
    let cpu_before = process_cpu_us();
    let started = Instant::now();
    let mut count = 0u64;
    while started.elapsed() < duration {
        stream.write_all(&buffer).expect("write");
        stream.read_exact(&mut buffer).expect("read");
        count += 1;
    }
    let rate = count as f64 / started.elapsed().as_secs_f64();
    let cpu_us_per_round_trip = (process_cpu_us() - cpu_before) / count.max(1) as f64;
    restore_processors(previous);
    drop(stream);
    let _ = echo.join();
    Echo {
        rate,
        cpu_us_per_round_trip,
    }
}

/// How the benchmark opens DEV.APP.SVRCONN to its clients, which assert the user that runs the
/// queue manager, a privileged one, as an MQ development queue manager is opened: no password
/// (MQ's default CHCKCLNT(REQDADM) would ask for one) and a BLOCKUSER record of the channel's
/// own in place of MQ's default `'*'` record that refuses `*MQADMIN`.
pub(crate) const OPEN_TO_THIS_USER: &[&str] = &[
    "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL)",
    "REFRESH SECURITY TYPE(CONNAUTH)",
    "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(BLOCKUSER) USERLIST('nobody')",
];

fn open_to_clients_without_passwords(queue_manager: &Arc<QueueManager>) {
    for command in OPEN_TO_THIS_USER {
        let response = ferrite_command::run_command(queue_manager, command);
        assert!(response.success, "{command}: {}", response.text());
    }
}

pub fn client_request_reply(context: &mut Context) {
    println!("\n== client-request-reply: request/reply over loopback TCP (SVRCONN), 1,000 B non-persistent ==");
    let limit = loopback_echo_rate(context.duration().min(Duration::from_secs(3)));
    println!("  limit: {limit:.0} round trips/s (1,000 B echo over loopback TCP, two threads)");
    let config = engine::bench_config("CLIENTRR");
    let (queue_manager, directory) = engine::fresh(&context.dir, "client-rr", &config);
    ferrite_command::define_default_objects(&queue_manager).expect("default objects");
    open_to_clients_without_passwords(&queue_manager);
    queue_manager
        .define_queue(QueueDefinition::local("SERVER.Q", PageSetId(2)), false)
        .expect("define");
    let mut reply_queue = QueueDefinition::local("REPLY.Q", PageSetId(2));
    reply_queue.index_type = "CORRELID".to_string();
    queue_manager
        .define_queue(reply_queue, false)
        .expect("define");
    let chinit = ChannelInitiator::start(
        queue_manager.clone(),
        ChannelInitiatorConfig {
            address: [127, 0, 0, 1].into(),
            port: 0,
            ..ChannelInitiatorConfig::default()
        },
        Arc::new(|_: &str| {}),
    )
    .expect("listener");
    let address = chinit.local_address().expect("listening").to_string();
    let loads: &[usize] = match context.mode {
        Mode::Smoke => &[1, 8],
        _ => &[1, 8, 64],
    };
    for &requesters in loads {
        let repliers = requesters.clamp(1, 4);
        let (rate, cpu_us) = run_request_reply(&address, requesters, repliers, context.duration());
        println!(
            "  {requesters:>2} requesters, {repliers} repliers: {rate:.0} round trips/s, {cpu_us:.1} CPU µs per round trip ({:.3} of the loopback echo)",
            rate / limit
        );
        context.report.push(
            Row::new(
                "client-request-reply",
                format!(
                    "{requesters} requesters, {repliers} repliers (TCP clients): round trips/s"
                ),
                rate,
                "rt/s",
            )
            .against("loopback TCP echo, same run", limit),
        );
        context.report.push(Row::new(
            "client-request-reply",
            format!("{requesters} requesters: CPU per round trip (queue manager and clients)"),
            cpu_us,
            "us",
        ));
    }
    idle_consumers(context, &queue_manager, &address);
    chinit.stop();
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}

/// Idle asynchronous consumers (REQUEST_MSGS outstanding on an empty queue, as a JMS
/// MessageListener leaves them): the CPU they cost while nothing arrives, and how long a put
/// takes to reach a consumer as an ASYNC_MESSAGE.
const IDLE_CONSUMERS: usize = 100;

fn idle_consumers(
    context: &mut Context,
    queue_manager: &Arc<ferrite_queue_manager::QueueManager>,
    address: &str,
) {
    let mut consumers: Vec<raw::Consumer> = (0..IDLE_CONSUMERS)
        .map(|index| {
            let name = format!("IDLE.Q{index}");
            queue_manager
                .define_queue(QueueDefinition::local(&name, PageSetId(2)), false)
                .expect("define");
            raw::Consumer::start(address, &name).expect("consumer")
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let idle = Duration::from_secs(2);
    let cpu_before = crate::mqi_workloads::process_cpu_seconds();
    std::thread::sleep(idle);
    let cpu_percent =
        (crate::mqi_workloads::process_cpu_seconds() - cpu_before) * 100.0 / idle.as_secs_f64();
    let mut producer = ferrite_mqi::Connection::connect(queue_manager.clone(), "").expect("MQCONN");
    let mut latencies = Vec::new();
    for round in 0..200 {
        let index = round % IDLE_CONSUMERS;
        let hobj = producer
            .open(&mut Mqod::queue(&format!("IDLE.Q{index}")), MQOO_OUTPUT)
            .expect("MQOPEN");
        let started = Instant::now();
        producer
            .put(
                hobj,
                &mut Mqmd {
                    persistence: MQPER_NOT_PERSISTENT,
                    ..Mqmd::default()
                },
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                b"pushed",
            )
            .expect("MQPUT");
        consumers[index].next_message().expect("ASYNC_MESSAGE");
        latencies.push(started.elapsed().as_secs_f64() * 1e6);
        producer.close(hobj, 0).expect("MQCLOSE");
    }
    latencies.sort_by(f64::total_cmp);
    let median = latencies[latencies.len() / 2];
    println!(
        "  {IDLE_CONSUMERS} idle consumers: {cpu_percent:.1}% of a core while nothing arrives; a put reaches its consumer in {median:.0} µs (median of 200)"
    );
    context.report.push(Row::new(
        "client-request-reply",
        format!("{IDLE_CONSUMERS} idle asynchronous consumers: CPU while nothing arrives"),
        cpu_percent,
        "% core",
    ));
    context.report.push(Row::new(
        "client-request-reply",
        "put to ASYNC_MESSAGE at an idle consumer (median)".to_string(),
        median,
        "us",
    ));
}

fn run_request_reply(
    address: &str,
    requesters: usize,
    repliers: usize,
    duration: Duration,
) -> (f64, f64) {
    let stop = Arc::new(AtomicBool::new(false));
    let round_trips = Arc::new(AtomicU64::new(0));
    let cpu_before = crate::mqi_workloads::process_cpu_seconds();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..repliers {
            let stop = stop.clone();
            scope.spawn(move || {
                let (mut connection, [input, output]) = connect_and_open(
                    address,
                    [("SERVER.Q", MQOO_INPUT_SHARED), ("REPLY.Q", MQOO_OUTPUT)],
                );
                let mut buffer = vec![0u8; 2 * MESSAGE_BYTES];
                while !stop.load(Ordering::Relaxed) {
                    let mut md = Mqmd::default();
                    let mut gmo = Mqgmo::with_options(
                        MQGMO_NO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING,
                    );
                    gmo.wait_interval = 100;
                    let Ok(result) = connection.get(input, &mut md, &mut gmo, &mut buffer) else {
                        continue;
                    };
                    let mut reply = Mqmd {
                        correl_id: md.msg_id,
                        persistence: MQPER_NOT_PERSISTENT,
                        ..Mqmd::default()
                    };
                    connection
                        .put(
                            output,
                            &mut reply,
                            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                            &buffer[..result.returned_length],
                        )
                        .expect("MQPUT reply");
                }
                let _ = connection.disconnect();
            });
        }
        for _ in 0..requesters {
            let stop = stop.clone();
            let round_trips = round_trips.clone();
            scope.spawn(move || {
                let (mut connection, [output, input]) = connect_and_open(
                    address,
                    [("SERVER.Q", MQOO_OUTPUT), ("REPLY.Q", MQOO_INPUT_SHARED)],
                );
                let request = engine::payload(MESSAGE_BYTES);
                let mut buffer = vec![0u8; 2 * MESSAGE_BYTES];
                while !stop.load(Ordering::Relaxed) {
                    let mut md = Mqmd {
                        persistence: MQPER_NOT_PERSISTENT,
                        reply_to_q: "REPLY.Q".into(),
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
                    let mut reply = Mqmd {
                        correl_id: md.msg_id,
                        ..Mqmd::default()
                    };
                    let mut gmo = Mqgmo::with_options(
                        MQGMO_NO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING,
                    );
                    gmo.version = 2;
                    gmo.match_options = MQMO_MATCH_CORREL_ID;
                    gmo.wait_interval = 5_000;
                    if connection
                        .get(input, &mut reply, &mut gmo, &mut buffer)
                        .is_ok()
                    {
                        round_trips.fetch_add(1, Ordering::Relaxed);
                    }
                }
                let _ = connection.disconnect();
            });
        }
        std::thread::sleep(duration);
        stop.store(true, Ordering::Relaxed);
    });
    let seconds = started.elapsed().as_secs_f64();
    let cpu = crate::mqi_workloads::process_cpu_seconds() - cpu_before;
    let count = round_trips.load(Ordering::Relaxed).max(1) as f64;
    (count / seconds, cpu * 1e6 / count)
}

/// Resident memory of process `pid`, in KiB.
fn resident_kib(pid: u32) -> u64 {
    status_resident_kib(&format!("/proc/{pid}/status"))
}

/// The resident memory (VmRSS) a /proc status file gives, in KiB; 0 where it does not say.
pub(crate) fn status_resident_kib(status_path: &str) -> u64 {
    std::fs::read_to_string(status_path)
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmRSS:"))
                .and_then(|line| line.split_whitespace().nth(1))
                .and_then(|value| value.parse().ok())
        })
        .unwrap_or(0)
}

/// The `ferrite` binary beside this one (built by the same cargo command).
pub(crate) fn ferrite_binary() -> Option<std::path::PathBuf> {
    let here = std::env::current_exe().ok()?;
    let candidate = here.parent()?.join("ferrite");
    candidate.exists().then_some(candidate)
}

/// A queue manager in a child `ferrite` process (`ferrite start NAME --background`), stopped
/// when dropped. `pid` is the queue manager's process, from its pid file.
pub(crate) struct ChildQueueManager {
    binary: std::path::PathBuf,
    home: std::path::PathBuf,
    name: String,
    pub(crate) pid: u32,
    pub(crate) port: u16,
}

impl ChildQueueManager {
    pub(crate) fn start(
        binary: &std::path::Path,
        dir: &std::path::Path,
        name: &str,
    ) -> Option<ChildQueueManager> {
        let home = dir.join(format!("{}-home", name.to_lowercase()));
        let _ = std::fs::remove_dir_all(&home);
        let status = std::process::Command::new(binary)
            .args(["start", name, "--background", "--port", "0"])
            .env("FERRITE_HOME", &home)
            .stdout(std::process::Stdio::null())
            .status()
            .ok()?;
        if !status.success() {
            return None;
        }
        let directory = home.join("qmgrs").join(name);
        let pid = std::fs::read_to_string(directory.join("qm.pid"))
            .ok()?
            .trim()
            .parse()
            .ok()?;
        let port = std::fs::read_to_string(directory.join("listener.port"))
            .ok()?
            .trim()
            .parse()
            .ok()?;
        Some(ChildQueueManager {
            binary: binary.to_path_buf(),
            home,
            name: name.to_string(),
            pid,
            port,
        })
    }

    /// The bindings socket of the queue manager (Ferrite's Rust client connects to it).
    pub(crate) fn socket(&self) -> std::path::PathBuf {
        self.home.join("qmgrs").join(&self.name).join("qm.sock")
    }

    /// Runs MQSC commands (`ferrite mqsc NAME`, the commands on its standard input); the
    /// command's output when it fails.
    pub(crate) fn mqsc(&self, commands: &[String]) -> Result<(), String> {
        self.mqsc_output(commands).map(|_| ())
    }

    /// Runs MQSC commands: their output, or the output when the command fails.
    pub(crate) fn mqsc_output(&self, commands: &[String]) -> Result<String, String> {
        use std::process::{Command, Stdio};
        let mut child = Command::new(&self.binary)
            .args(["mqsc", &self.name])
            .env("FERRITE_HOME", &self.home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| error.to_string())?;
        let mut input = child.stdin.take().ok_or("no stdin")?;
        input
            .write_all(commands.join("\n").as_bytes())
            .and_then(|()| input.write_all(b"\n"))
            .map_err(|error| error.to_string())?;
        drop(input);
        let output = child
            .wait_with_output()
            .map_err(|error| error.to_string())?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        if output.status.success() {
            Ok(text)
        } else {
            Err(text)
        }
    }
}

impl Drop for ChildQueueManager {
    fn drop(&mut self) {
        let _ = std::process::Command::new(&self.binary)
            .args(["stop", &self.name])
            .env("FERRITE_HOME", &self.home)
            .stdout(std::process::Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

pub fn client_connections(context: &mut Context) {
    println!("\n== client-connections: memory per idle client connection; 10,000 conversations over SHARECNV(10) ==");
    let Some(binary) = ferrite_binary() else {
        println!("  skipped: no ferrite binary beside ferrite-bench (cargo build --release -p ferrite first)");
        return;
    };
    let Some(child) = ChildQueueManager::start(&binary, &context.dir, "CLIENTQM") else {
        println!("  skipped: the ferrite queue manager did not start");
        return;
    };
    let address = format!("127.0.0.1:{}", child.port);
    // Idle connections, one conversation each (Ferrite's Rust client).
    let idle = context.mode.pick(20, 300, 1_000);
    let before = resident_kib(child.pid);
    let connections: Vec<Connection> = (0..idle)
        .map(|_| {
            Connection::connect_client(
                &address,
                CHANNEL,
                "",
                &Mqcno::default(),
                &ClientOptions::default(),
            )
            .expect("MQCONN")
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let after = resident_kib(child.pid);
    let per_connection = after.saturating_sub(before) as f64 / idle as f64;
    println!(
        "  {idle} idle client connections: queue manager RSS {before} -> {after} KiB, {per_connection:.1} KiB each"
    );
    context.report.push(
        Row::new(
            "client-connections",
            format!("memory per idle client connection ({idle} connections)"),
            per_connection,
            "KiB",
        )
        .against("MQ 9.x per channel, low end of 90-200 KiB", 90.0)
        .goal("<= 64 KiB", per_connection <= 64.0),
    );
    drop(connections);
    // Many conversations sharing sockets.
    let sockets = context.mode.pick(5, 100, 1_000);
    let per_socket = 10;
    let before = resident_kib(child.pid);
    let started = Instant::now();
    let held: Vec<TcpStream> = (0..sockets)
        .map(|_| raw::open_shared_socket(&address, per_socket).expect("conversations"))
        .collect();
    let opened = started.elapsed();
    std::thread::sleep(Duration::from_millis(500));
    let after = resident_kib(child.pid);
    let conversations = sockets * per_socket;
    let per_conversation = after.saturating_sub(before) as f64 / conversations as f64;
    println!(
        "  {conversations} conversations ({sockets} sockets, SHARECNV(10)) held open, connected in {:.1} s: queue manager RSS {before} -> {after} KiB, {per_conversation:.1} KiB per conversation",
        opened.as_secs_f64()
    );
    context.report.push(
        Row::new(
            "client-connections",
            format!("conversations held open at once ({sockets} sockets, SHARECNV(10))"),
            conversations as f64,
            "conv",
        )
        .goal(">= 10,000 (full run)", conversations >= 10_000),
    );
    context.report.push(Row::new(
        "client-connections",
        "memory per shared conversation",
        per_conversation,
        "KiB",
    ));
    drop(held);
    drop(child);
}

/// Raw FAP flows: one socket carrying several conversations (what IBM's clients do with
/// SHARECNV), each connected with MQCONN.
mod raw {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    use ferrite_protocol::api::{ApiBody, ApiFlow, ApiHeader, MqConn, MqOpen};
    use ferrite_protocol::control::{socket_action_type, RequestMsgs, SocketAction};
    use ferrite_protocol::initial_data::InitialData;
    use ferrite_protocol::mqi::Od;
    use ferrite_protocol::segment::{
        ControlFlags1, HeaderKind, Segment, SegmentDecoder, SegmentHeader, SegmentType,
    };
    use ferrite_protocol::wire::chars;
    use ferrite_protocol::ByteOrder;

    const ORDER: ByteOrder = ByteOrder::Big;

    fn send(stream: &mut TcpStream, header: SegmentHeader, payload: Vec<u8>) -> Result<(), String> {
        let bytes = Segment::new(header, payload)
            .encode()
            .map_err(|error| error.to_string())?;
        stream.write_all(&bytes).map_err(|error| error.to_string())
    }

    fn send_flow(
        stream: &mut TcpStream,
        header: SegmentHeader,
        flow: &ApiFlow,
    ) -> Result<(), String> {
        let payload = flow.encode(ORDER).map_err(|error| error.to_string())?;
        send(stream, header, payload)
    }

    fn receive(stream: &mut TcpStream, decoder: &mut SegmentDecoder) -> Result<Segment, String> {
        let mut buffer = [0u8; 4096];
        loop {
            if let Some(segment) = decoder.next_segment().map_err(|error| error.to_string())? {
                return Ok(segment);
            }
            let read = stream
                .read(&mut buffer)
                .map_err(|error| error.to_string())?;
            if read == 0 {
                return Err("closed".to_string());
            }
            decoder.push(&buffer[..read]);
        }
    }

    fn conversation(id: u32) -> HeaderKind {
        HeaderKind::Tshm {
            conversation_id: id,
            request_id: 0,
        }
    }

    fn api_header() -> ApiHeader {
        ApiHeader {
            reply_length: 0,
            comp_code: 0,
            reason: 0,
            hobj: 0,
        }
    }

    /// One asynchronous consumer on its own socket: MQCONN, MQOPEN for input, REQUEST_MSGS
    /// for as many messages as come.
    pub struct Consumer {
        stream: TcpStream,
        decoder: SegmentDecoder,
        hobj: i32,
    }

    impl Consumer {
        pub fn start(address: &str, queue: &str) -> Result<Consumer, String> {
            let mut stream = open_shared_socket(address, 1)?;
            let mut decoder = SegmentDecoder::default();
            let od = Od {
                object_name: chars(queue),
                ..Od::default()
            };
            let flow = ApiFlow {
                header: api_header(),
                body: ApiBody::Open(MqOpen {
                    od,
                    options: 2, // MQOO_INPUT_SHARED
                    fopa: None,
                    fcmi: None,
                    trailing: Vec::new(),
                }),
            };
            let header = SegmentHeader::new(conversation(1), SegmentType::MqOpen, ORDER);
            send_flow(&mut stream, header, &flow)?;
            let reply = receive(&mut stream, &mut decoder)?;
            let reply = ApiFlow::decode(SegmentType::MqOpenReply, ORDER, &reply.payload)
                .map_err(|error| error.to_string())?;
            if reply.header.reason != 0 {
                return Err(format!("MQOPEN {queue}: reason {}", reply.header.reason));
            }
            let hobj = reply.header.hobj;
            let request = RequestMsgs {
                version: 1,
                hobj,
                recv_bytes: 0,
                rqst_bytes: u32::MAX / 2,
                max_msg_length: 64 * 1024,
                gmo_options: 0x2000 | 4, // MQGMO_FAIL_IF_QUIESCING | MQGMO_NO_SYNCPOINT
                wait_interval: -1,
                queue_status: 0,
                request_flags: 0,
                global_msg_index: 0,
                trailing: Vec::new(),
            };
            let header = SegmentHeader::new(conversation(1), SegmentType::RequestMsgs, ORDER);
            send(&mut stream, header, request.encode(ORDER))?;
            Ok(Consumer {
                stream,
                decoder,
                hobj,
            })
        }

        /// Waits for the next ASYNC_MESSAGE.
        pub fn next_message(&mut self) -> Result<(), String> {
            loop {
                let flow = receive(&mut self.stream, &mut self.decoder)?;
                if flow.header.segment_type == SegmentType::AsyncMessage {
                    let hobj = flow
                        .payload
                        .get(4..8)
                        .map(|bytes| i32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
                    if hobj != Some(self.hobj) {
                        return Err(format!("ASYNC_MESSAGE for handle {hobj:?}"));
                    }
                    return Ok(());
                }
            }
        }
    }

    /// Opens a socket with `count` conversations, each past MQCONN.
    pub fn open_shared_socket(address: &str, count: u32) -> Result<TcpStream, String> {
        let mut stream = TcpStream::connect(address).map_err(|error| error.to_string())?;
        let mut decoder = SegmentDecoder::default();
        let mut id = InitialData::new(13);
        id.max_transmission_size = 32 * 1024;
        id.max_message_size = 1024 * 1024;
        id.ccsid = 819;
        id.conv_per_socket = count as i32;
        id.channel_name = chars(super::CHANNEL);
        let mut header = SegmentHeader::new(HeaderKind::Tsh, SegmentType::InitialData, ORDER);
        header.flags1 = ControlFlags1(0x31);
        send(&mut stream, header, id.encode(ORDER))?;
        let answer = receive(&mut stream, &mut decoder)?;
        let agreed =
            InitialData::decode(&answer.payload, ORDER).map_err(|error| error.to_string())?;
        if agreed.conv_per_socket < count as i32 {
            return Err(format!("SHARECNV({}) < {count}", agreed.conv_per_socket));
        }
        for index in 0..count {
            let conversation_id = 1 + 2 * index;
            if index > 0 {
                let action = SocketAction {
                    conversation_id,
                    request_id: 0,
                    action_type: socket_action_type::START_CONV,
                    parm1: 1,
                    parm2: 0,
                    trailing: Vec::new(),
                };
                let header = SegmentHeader::new(HeaderKind::Tshc, SegmentType::SocketAction, ORDER);
                send(&mut stream, header, action.encode(ORDER))?;
                let accepted = receive(&mut stream, &mut decoder)?;
                if accepted.header.segment_type != SegmentType::SocketAction {
                    return Err("START_CONV not accepted".to_string());
                }
            }
            let conn = MqConn {
                qmgr_name: chars(""),
                appl_name: chars("ferrite-bench"),
                appl_type: 0,
                accounting_token: [0; 32],
                options: 3,
                x_options: 0,
                fcno: None,
                trailing: Vec::new(),
            };
            let flow = ApiFlow {
                header: ApiHeader {
                    reply_length: 0,
                    comp_code: 0,
                    reason: 0,
                    hobj: 0,
                },
                body: ApiBody::Conn(conn),
            };
            let header =
                SegmentHeader::new(conversation(conversation_id), SegmentType::MqConn, ORDER);
            send_flow(&mut stream, header, &flow)?;
            let reply = receive(&mut stream, &mut decoder)?;
            if reply.header.segment_type != SegmentType::MqConnReply
                || reply.payload.get(4..8) != Some(&[0, 0, 0, 0])
            {
                return Err(format!("MQCONN on conversation {conversation_id} failed"));
            }
        }
        Ok(stream)
    }
}
