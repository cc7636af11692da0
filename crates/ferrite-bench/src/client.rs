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

use ferrite_client::{ClientOptions, Connection};
use ferrite_constants::get_options::{MQGMO_FAIL_IF_QUIESCING, MQGMO_NO_SYNCPOINT, MQGMO_WAIT};
use ferrite_constants::match_options::MQMO_MATCH_CORREL_ID;
use ferrite_constants::open_options::{MQOO_INPUT_SHARED, MQOO_OUTPUT};
use ferrite_constants::persistence::MQPER_NOT_PERSISTENT;
use ferrite_constants::put_options::{MQPMO_NEW_MSG_ID, MQPMO_NO_SYNCPOINT};
use ferrite_mqi::{Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_server::channel_initiator::{ChannelInitiator, ChannelInitiatorConfig};
use ferrite_storage::queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;

use crate::report::Row;
use crate::{engine, Context, Mode};

const MESSAGE_BYTES: usize = 1_000;
const CHANNEL: &str = "DEV.APP.SVRCONN";

fn connect(address: &str) -> Connection {
    Connection::connect_client(
        address,
        CHANNEL,
        "",
        &Mqcno::default(),
        &ClientOptions::default(),
    )
    .expect("MQCONN over TCP")
}

/// Round trips per second of a 1,000-byte echo between two threads over loopback TCP.
fn loopback_echo_rate(duration: Duration) -> f64 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    let echo = std::thread::spawn(move || {
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
    let mut buffer = [7u8; MESSAGE_BYTES];
    let started = Instant::now();
    let mut count = 0u64;
    while started.elapsed() < duration {
        stream.write_all(&buffer).expect("write");
        stream.read_exact(&mut buffer).expect("read");
        count += 1;
    }
    let rate = count as f64 / started.elapsed().as_secs_f64();
    drop(stream);
    let _ = echo.join();
    rate
}

pub fn client_request_reply(context: &mut Context) {
    println!("\n== client-request-reply: request/reply over loopback TCP (SVRCONN), 1,000 B non-persistent ==");
    let limit = loopback_echo_rate(context.duration().min(Duration::from_secs(3)));
    println!("  limit: {limit:.0} round trips/s (1,000 B echo over loopback TCP, two threads)");
    let config = engine::bench_config("CLIENTRR");
    let (queue_manager, directory) = engine::fresh(&context.dir, "client-rr", &config);
    ferrite_command::define_default_objects(&queue_manager).expect("default objects");
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
    chinit.stop();
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
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
                let mut connection = connect(address);
                let input = connection
                    .open(&mut Mqod::queue("SERVER.Q"), MQOO_INPUT_SHARED)
                    .expect("MQOPEN");
                let output = connection
                    .open(&mut Mqod::queue("REPLY.Q"), MQOO_OUTPUT)
                    .expect("MQOPEN");
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
                let mut connection = connect(address);
                let output = connection
                    .open(&mut Mqod::queue("SERVER.Q"), MQOO_OUTPUT)
                    .expect("MQOPEN");
                let input = connection
                    .open(&mut Mqod::queue("REPLY.Q"), MQOO_INPUT_SHARED)
                    .expect("MQOPEN");
                let request = engine::payload(MESSAGE_BYTES);
                let mut buffer = vec![0u8; 2 * MESSAGE_BYTES];
                while !stop.load(Ordering::Relaxed) {
                    let mut md = Mqmd {
                        persistence: MQPER_NOT_PERSISTENT,
                        reply_to_q: "REPLY.Q".to_string(),
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
    std::fs::read_to_string(format!("/proc/{pid}/status"))
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
fn ferrite_binary() -> Option<std::path::PathBuf> {
    let here = std::env::current_exe().ok()?;
    let candidate = here.parent()?.join("ferrite");
    candidate.exists().then_some(candidate)
}

/// A queue manager in a child `ferrite` process, stopped when dropped.
struct ChildQueueManager {
    binary: std::path::PathBuf,
    home: std::path::PathBuf,
    pid: u32,
    port: u16,
}

impl ChildQueueManager {
    fn start(binary: &std::path::Path, dir: &std::path::Path) -> Option<ChildQueueManager> {
        let home = dir.join("client-connections-home");
        let _ = std::fs::remove_dir_all(&home);
        let status = std::process::Command::new(binary)
            .args(["start", "CLIENTQM", "--background", "--port", "0"])
            .env("FERRITE_HOME", &home)
            .stdout(std::process::Stdio::null())
            .status()
            .ok()?;
        if !status.success() {
            return None;
        }
        let directory = home.join("qmgrs").join("CLIENTQM");
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
            pid,
            port,
        })
    }
}

impl Drop for ChildQueueManager {
    fn drop(&mut self) {
        let _ = std::process::Command::new(&self.binary)
            .args(["stop", "CLIENTQM"])
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
    let Some(child) = ChildQueueManager::start(&binary, &context.dir) else {
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

    use ferrite_client::wire::chars;
    use ferrite_protocol::api::{ApiBody, ApiFlow, ApiHeader, MqConn};
    use ferrite_protocol::control::{socket_action_type, SocketAction};
    use ferrite_protocol::initial_data::InitialData;
    use ferrite_protocol::segment::{
        ControlFlags1, HeaderKind, Segment, SegmentDecoder, SegmentHeader, SegmentType,
    };
    use ferrite_protocol::ByteOrder;

    const ORDER: ByteOrder = ByteOrder::Big;

    fn send(stream: &mut TcpStream, header: SegmentHeader, payload: Vec<u8>) -> Result<(), String> {
        let bytes = Segment::new(header, payload)
            .encode()
            .map_err(|error| error.to_string())?;
        stream.write_all(&bytes).map_err(|error| error.to_string())
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
            send(
                &mut stream,
                header,
                flow.encode(ORDER).map_err(|error| error.to_string())?,
            )?;
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
