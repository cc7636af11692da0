//! The channel initiator over TCP with Ferrite's Rust client and with raw, hostile peers:
//! MQI verbs through a SVRCONN channel, channel names, shared conversations, split messages,
//! a client that dies in a unit of work, and peers that break the protocol.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use ferrite_client::{ClientOptions, Connection};
use ferrite_constants::{
    get_options::*, open_options::*, persistence::*, put_options::*, reason::*,
};
use ferrite_mqi::{Hobj, MqResult, Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_protocol::initial_data::InitialData;
use ferrite_protocol::segment::{
    ControlFlags1, HeaderKind, Segment, SegmentDecoder, SegmentHeader, SegmentType,
};
use ferrite_protocol::ByteOrder;
use ferrite_server::ServerConfig;

use ferrite_test_kit::{get_sized, put_md, with_persistence};
use support::{listen, Listener};

/// Ferrite's Rust client through DEV.APP.SVRCONN.
fn connect(listener: &Listener) -> Connection {
    listener.connect_app()
}

/// Changes the stored definition of DEV.APP.SVRCONN (new instances use it).
fn redefine_channel(
    listener: &Listener,
    change: impl FnOnce(&mut ferrite_queue_manager::ChannelDefinition),
) {
    let queue_manager = &listener.fixture.queue_manager;
    let mut channel = queue_manager.channel("DEV.APP.SVRCONN").unwrap();
    change(&mut channel);
    queue_manager
        .define_object(
            ferrite_queue_manager::ObjectDefinition::Channel(channel),
            true,
        )
        .unwrap();
}

fn start(queues: &[&str]) -> Listener {
    listen(support::start_with(queues, ServerConfig::default()))
}

fn put(connection: &mut Connection, hobj: Hobj, options: i32, data: &[u8]) {
    let mut md = with_persistence(MQPER_PERSISTENT);
    put_md(connection, hobj, &mut md, options, data).unwrap();
}

fn get(connection: &mut Connection, hobj: Hobj, options: i32) -> MqResult<Vec<u8>> {
    get_sized(connection, hobj, options, 2 * 1024 * 1024).map(|(_, data)| data)
}

#[test]
fn rust_client_over_tcp_put_get_commit_and_long_messages() {
    let listener = start(&["Q1"]);
    let mut connection = connect(&listener);
    assert_eq!(connection.q_mgr_name(), "QM1");
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    put(&mut connection, hobj, MQPMO_SYNCPOINT, b"over tcp");
    connection.backout().unwrap();
    assert_eq!(
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)
            .unwrap_err()
            .reason,
        MQRC_NO_MSG_AVAILABLE
    );
    put(&mut connection, hobj, MQPMO_SYNCPOINT, b"over tcp");
    connection.commit().unwrap();
    assert_eq!(
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap(),
        b"over tcp"
    );
    // Longer than the negotiated transmission size: split into segments both ways.
    let long: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
    put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, &long);
    assert_eq!(
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap(),
        long
    );
    connection.disconnect().unwrap();
}

#[test]
fn channel_names_and_unreachable_hosts_have_reason_codes() {
    let listener = start(&["Q1"]);
    let unknown = Connection::connect_client(
        &listener.address(),
        "NO.SUCH.CHANNEL",
        "QM1",
        &Mqcno::default(),
        &ClientOptions::default(),
    );
    assert_eq!(unknown.unwrap_err().reason, MQRC_UNKNOWN_CHANNEL_NAME);
    // A message channel's name is not a client's.
    ferrite_test_kit::mqsc_ok(
        &listener.fixture.queue_manager,
        "DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR)",
    );
    let receiver = Connection::connect_client(
        &listener.address(),
        "QM2.TO.QM1",
        "QM1",
        &Mqcno::default(),
        &ClientOptions::default(),
    );
    assert_eq!(receiver.unwrap_err().reason, MQRC_CHANNEL_CONFIG_ERROR);
    assert!(listener
        .log
        .lock()
        .unwrap()
        .iter()
        .any(|line| line.contains("CSQX547E") && line.contains("CHLTYPE(RCVR)")));
    // A port nothing listens on (the listener's, after it stopped).
    let address = listener.address();
    drop(listener);
    let nobody = Connection::connect_client(
        &address,
        "DEV.APP.SVRCONN",
        "QM1",
        &Mqcno::default(),
        &ClientOptions::default(),
    );
    assert_eq!(nobody.unwrap_err().reason, MQRC_HOST_NOT_AVAILABLE);
}

#[test]
fn a_client_that_dies_in_a_unit_of_work_is_backed_out() {
    let listener = start(&["Q1"]);
    let mut setup = connect(&listener);
    let s = setup
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    put(&mut setup, s, MQPMO_NO_SYNCPOINT, b"survivor");
    {
        let mut doomed = connect(&listener);
        let d = doomed
            .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
            .unwrap();
        assert_eq!(get(&mut doomed, d, MQGMO_SYNCPOINT).unwrap(), b"survivor");
        put(&mut doomed, d, MQPMO_SYNCPOINT, b"never committed");
        // Dropped without MQDISC: the socket closes abruptly.
    }
    let mut found = None;
    for _ in 0..200 {
        if let Ok(data) = get(&mut setup, s, MQGMO_NO_SYNCPOINT) {
            found = Some(data);
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert_eq!(
        found.as_deref(),
        Some(&b"survivor"[..]),
        "the got message came back"
    );
    assert_eq!(
        get(&mut setup, s, MQGMO_NO_SYNCPOINT).unwrap_err().reason,
        MQRC_NO_MSG_AVAILABLE,
        "the uncommitted put vanished"
    );
    let log = listener.log.lock().unwrap().join("\n");
    assert!(
        !log.contains("CSQX208E"),
        "a client going away is not an error: {log}"
    );
}

fn initial_data_segment(channel: &str) -> Vec<u8> {
    let mut id = InitialData::new(13);
    id.max_transmission_size = 8 * 1024;
    id.max_message_size = 1024 * 1024;
    id.ccsid = 819;
    id.conv_per_socket = 10;
    id.channel_name = ferrite_protocol::wire::chars(channel);
    let mut header = SegmentHeader::new(HeaderKind::Tsh, SegmentType::InitialData, ByteOrder::Big);
    header.flags1 = ControlFlags1(0x31);
    Segment::new(header, id.encode(ByteOrder::Big))
        .encode()
        .unwrap()
}

fn tshm_segment(
    conversation_id: u32,
    segment_type: u8,
    declared_length: Option<u32>,
    payload: &[u8],
) -> Vec<u8> {
    let header = SegmentHeader::new(
        HeaderKind::Tshm {
            conversation_id,
            request_id: 1,
        },
        SegmentType::from_u8(segment_type),
        ByteOrder::Big,
    );
    let mut bytes = Segment::new(header, payload.to_vec()).encode().unwrap();
    if let Some(length) = declared_length {
        bytes[4..8].copy_from_slice(&length.to_be_bytes());
    }
    bytes
}

fn read_one_segment(stream: &mut TcpStream) -> Segment {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut decoder = SegmentDecoder::default();
    let mut buffer = [0u8; 4096];
    loop {
        if let Some(segment) = decoder.next_segment().unwrap() {
            return segment;
        }
        let read = stream.read(&mut buffer).unwrap();
        assert!(read > 0, "closed before a segment");
        decoder.push(&buffer[..read]);
    }
}

fn assert_closed_by_queue_manager(mut stream: TcpStream) {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return,
            Ok(_) => continue,
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => return,
            Err(error) => panic!("the queue manager did not close the connection: {error}"),
        }
    }
}

#[test]
fn hostile_peers_are_closed_and_others_carry_on() {
    let listener = start(&["Q1"]);
    let mut bystander = connect(&listener);
    let b = bystander
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    put(&mut bystander, b, MQPMO_SYNCPOINT, b"in flight");
    let address = listener.address();

    // Garbage instead of a segment header.
    let mut stream = TcpStream::connect(&address).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert_closed_by_queue_manager(stream);

    // A length beyond every limit, and one shorter than its own header.
    for length in [0x7fff_ffffu32, 10] {
        let mut stream = TcpStream::connect(&address).unwrap();
        let mut segment = initial_data_segment("DEV.APP.SVRCONN");
        segment[4..8].copy_from_slice(&length.to_be_bytes());
        stream.write_all(&segment[..40]).unwrap();
        assert_closed_by_queue_manager(stream);
    }

    // A truncated segment, then the peer goes away.
    let mut stream = TcpStream::connect(&address).unwrap();
    let segment = initial_data_segment("DEV.APP.SVRCONN");
    stream.write_all(&segment[..segment.len() / 2]).unwrap();
    drop(stream);

    // An MQI verb before INITIAL_DATA; an unknown channel.
    let mut stream = TcpStream::connect(&address).unwrap();
    stream
        .write_all(&tshm_segment(1, 0x8A, None, &[0; 16]))
        .unwrap();
    assert_closed_by_queue_manager(stream);
    let mut stream = TcpStream::connect(&address).unwrap();
    stream
        .write_all(&initial_data_segment("NO.SUCH.CHANNEL"))
        .unwrap();
    let status = read_one_segment(&mut stream);
    assert_eq!(
        status.header.segment_type,
        SegmentType::StatusData,
        "refused with STATUS_DATA"
    );
    assert_closed_by_queue_manager(stream);

    // After a good INITIAL_DATA: an unknown segment type, a malformed MQOPEN, a segment longer
    // than the negotiated 8 KiB, a reply type sent as a request, a flow for a conversation
    // that was never started, a malformed SOCKET_ACTION.
    for bad in [
        tshm_segment(1, 0x42, None, b"????"),
        tshm_segment(1, 0x83, None, &[0xAB; 40]),
        tshm_segment(1, 0x86, Some(16 * 1024), &[0; 100]),
        tshm_segment(1, 0x91, None, &[0; 16]),
        tshm_segment(7, 0x8A, None, &[0; 16]),
        tshm_segment(1, 0x0C, None, &[1, 2, 3]),
    ] {
        let mut stream = TcpStream::connect(&address).unwrap();
        stream
            .write_all(&initial_data_segment("DEV.APP.SVRCONN"))
            .unwrap();
        let reply = read_one_segment(&mut stream);
        assert_eq!(reply.header.segment_type, SegmentType::InitialData);
        assert!(
            !reply.header.flags1.contains(ControlFlags1::ERROR),
            "proposal accepted"
        );
        stream.write_all(&bad).unwrap();
        assert_closed_by_queue_manager(stream);
    }

    // A peer that goes quiet after connecting does not stop others.
    let _quiet = TcpStream::connect(&address).unwrap();

    bystander.commit().unwrap();
    let mut other = connect(&listener);
    let o = other
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(
        get(&mut other, o, MQGMO_NO_SYNCPOINT).unwrap(),
        b"in flight"
    );
    bystander.disconnect().unwrap();
    other.disconnect().unwrap();
    let log = listener.log.lock().unwrap().join("\n");
    assert!(
        log.contains("protocol error"),
        "protocol errors are logged: {log}"
    );
    assert!(
        log.contains("NO.SUCH.CHANNEL"),
        "unknown channels are logged: {log}"
    );
}

#[test]
fn many_clients_at_once() {
    let listener = start(&["Q1"]);
    let address = listener.address();
    const CLIENTS: usize = 16;
    const MESSAGES: usize = 50;
    let threads: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let address = address.clone();
            std::thread::spawn(move || {
                let mut connection = Connection::connect_client(
                    &address,
                    "DEV.APP.SVRCONN",
                    "QM1",
                    &Mqcno::default(),
                    &ClientOptions::default(),
                )
                .unwrap();
                let hobj = connection
                    .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
                    .unwrap();
                for message in 0..MESSAGES {
                    put(
                        &mut connection,
                        hobj,
                        MQPMO_NO_SYNCPOINT,
                        format!("{client}:{message}").as_bytes(),
                    );
                }
                connection.disconnect().unwrap();
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let depth = listener
        .fixture
        .queue_manager
        .queue("Q1")
        .unwrap()
        .status()
        .current_depth;
    assert_eq!(depth, (CLIENTS * MESSAGES) as u64);
    let mut reader = connect(&listener);
    let r = reader
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut count = 0;
    while get(&mut reader, r, MQGMO_NO_SYNCPOINT).is_ok() {
        count += 1;
    }
    assert_eq!(count, CLIENTS * MESSAGES);
    reader.disconnect().unwrap();
}

#[test]
fn channel_commands_see_and_stop_running_channels() {
    let listener = start(&["Q1"]);
    let processor = ferrite_command::CommandProcessor::new(listener.fixture.queue_manager.clone());
    let none = processor.run("DISPLAY CHSTATUS(*)");
    assert!(
        !none.success && none.text().contains("CSQM131I"),
        "without a channel initiator: {}",
        none.text()
    );
    processor.set_channel_initiator(Some(listener.chinit.clone()));
    let mut client = connect(&listener);
    let hobj = client.open(&mut Mqod::queue("Q1"), MQOO_OUTPUT).unwrap();
    put(&mut client, hobj, MQPMO_NO_SYNCPOINT, b"counted");
    let status = processor.run("DISPLAY CHSTATUS(DEV.*) ALL").text();
    assert!(status.contains("CHSTATUS(DEV.APP.SVRCONN)"), "{status}");
    assert!(status.contains("CONNAME(127.0.0.1("), "{status}");
    assert!(status.contains("STATUS(RUNNING)"), "{status}");
    let listener_status = processor.run("DISPLAY LSSTATUS(*)").text();
    assert!(listener_status.contains("RUNNING"), "{listener_status}");
    let stopped = processor.run("STOP CHANNEL(DEV.APP.SVRCONN)");
    assert!(stopped.success, "{}", stopped.text());
    let mut md = Mqmd::default();
    let broken = client.put(
        hobj,
        &mut md,
        &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
        b"x",
    );
    assert_eq!(
        broken.unwrap_err().reason,
        MQRC_CONNECTION_BROKEN,
        "a stopped channel's client sees 2009"
    );
    // STOP LISTENER: no new connections; START LISTENER: new ones again.
    let stop = processor.run("STOP LISTENER");
    assert!(stop.success, "{}", stop.text());
    assert!(listener.chinit.local_address().is_none());
    // Without PORT, the configured port (0 here: any free port).
    let start = processor.run("START LISTENER");
    assert!(start.success, "{}", start.text());
    let again = connect(&listener);
    again.disconnect().unwrap();
}

/// Starts a listener whose DEV.APP.SVRCONN has HBINT(1).
fn start_with_heartbeat_of_one_second() -> Listener {
    let listener = start(&["Q1"]);
    redefine_channel(&listener, |channel| channel.heartbeat_interval = 1);
    listener
}

#[test]
fn heartbeats_during_a_waiting_get_keep_a_live_client_and_end_a_dead_one() {
    use ferrite_protocol::api::{ApiBody, ApiFlow, ApiHeader, MqConn, MqGet, MqOpen};
    use ferrite_protocol::mqi::{Gmo, Md, Od};

    let listener = start_with_heartbeat_of_one_second();
    // A live client: its waiting get outlasts several heartbeat intervals; it answers the
    // queue manager's heartbeats and the get ends normally.
    let mut live = connect(&listener);
    let hobj = live
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.wait_interval = 3_500;
    let mut buffer = [0u8; 16];
    let waited = live.get(hobj, &mut Mqmd::default(), &mut gmo, &mut buffer);
    assert_eq!(waited.unwrap_err().reason, MQRC_NO_MSG_AVAILABLE);
    live.disconnect().unwrap();

    // A dead client: it starts a waiting get and never reads again; after an unanswered
    // heartbeat the queue manager ends the channel.
    let mut stream = TcpStream::connect(listener.address()).unwrap();
    stream
        .write_all(&initial_data_segment("DEV.APP.SVRCONN"))
        .unwrap();
    let reply = read_one_segment(&mut stream);
    assert_eq!(reply.header.segment_type, SegmentType::InitialData);
    let flow = |segment_type: SegmentType, body: ApiBody, hobj: i32| {
        let header = SegmentHeader::new(
            HeaderKind::Tshm {
                conversation_id: 1,
                request_id: 1,
            },
            segment_type,
            ByteOrder::Big,
        );
        let api = ApiFlow {
            header: ApiHeader {
                reply_length: 0,
                comp_code: 0,
                reason: 0,
                hobj,
            },
            body,
        };
        Segment::new(header, api.encode(ByteOrder::Big).unwrap())
            .encode()
            .unwrap()
    };
    let conn = MqConn {
        qmgr_name: ferrite_protocol::wire::chars("QM1"),
        appl_name: ferrite_protocol::wire::chars("dead client"),
        appl_type: 0,
        accounting_token: [0; 32],
        options: 3,
        x_options: 0,
        fcno: None,
        trailing: Vec::new(),
    };
    stream
        .write_all(&flow(SegmentType::MqConn, ApiBody::Conn(conn), 0))
        .unwrap();
    assert_eq!(
        read_one_segment(&mut stream).header.segment_type,
        SegmentType::MqConnReply
    );
    let od = Od {
        object_name: ferrite_protocol::wire::chars("Q1"),
        ..Od::default()
    };
    let open = MqOpen {
        od,
        options: MQOO_INPUT_SHARED,
        fopa: None,
        fcmi: None,
        trailing: Vec::new(),
    };
    stream
        .write_all(&flow(SegmentType::MqOpen, ApiBody::Open(open), 0))
        .unwrap();
    let opened = read_one_segment(&mut stream);
    assert_eq!(opened.header.segment_type, SegmentType::MqOpenReply);
    let hobj = i32::from_be_bytes(opened.payload[12..16].try_into().unwrap());
    let gmo = Gmo {
        options: MQGMO_WAIT | MQGMO_NO_SYNCPOINT,
        wait_interval: -1,
        ..Gmo::default()
    };
    let get = MqGet {
        md: Md::default(),
        gmo,
        length: 100,
        data: Vec::new(),
    };
    stream
        .write_all(&flow(SegmentType::MqGet, ApiBody::Get(get), hobj))
        .unwrap();
    // Read nothing, answer nothing: the queue manager sends a heartbeat, then closes.
    let started = std::time::Instant::now();
    assert_closed_by_queue_manager(stream);
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "closed after about two intervals"
    );
    let log = listener.log.lock().unwrap().join("\n");
    assert!(log.contains("no answer to a heartbeat"), "{log}");
}

#[test]
fn an_idle_channel_ends_after_its_disconnect_interval() {
    let listener = start(&["Q1"]);
    redefine_channel(&listener, |channel| channel.disconnect_interval = 1);
    let mut idle = connect(&listener);
    let hobj = idle.open(&mut Mqod::queue("Q1"), MQOO_OUTPUT).unwrap();
    put(&mut idle, hobj, MQPMO_NO_SYNCPOINT, b"before the interval");
    // No MQI call for DISCINT(1): the queue manager ends the channel.
    let mut ended = false;
    for _ in 0..100 {
        if listener.chinit.instances().is_empty() {
            ended = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(ended, "the idle channel instance ended");
    let mut md = Mqmd::default();
    let broken = idle.put(
        hobj,
        &mut md,
        &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
        b"after",
    );
    assert_eq!(broken.unwrap_err().reason, MQRC_CONNECTION_BROKEN);
    let log = listener.log.lock().unwrap().join("\n");
    assert!(log.contains("DISCINT(1)"), "{log}");
    // A client that keeps calling (more often than DISCINT) is not ended.
    let mut busy = connect(&listener);
    let b = busy
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(100));
        match get(&mut busy, b, MQGMO_NO_SYNCPOINT) {
            Ok(_) => {}
            Err(error) => assert_eq!(error.reason, MQRC_NO_MSG_AVAILABLE, "still connected"),
        }
    }
    busy.disconnect().unwrap();
}

#[test]
fn display_conn_shows_client_connections_and_their_units_of_work() {
    let listener = start(&["Q1"]);
    let processor = ferrite_command::CommandProcessor::new(listener.fixture.queue_manager.clone());
    let mut client = connect(&listener);
    let hobj = client.open(&mut Mqod::queue("Q1"), MQOO_OUTPUT).unwrap();
    put(&mut client, hobj, MQPMO_SYNCPOINT, b"uncommitted");
    let shown = processor
        .run("DISPLAY CONN(*) ALL WHERE(CHANNEL EQ DEV.APP.SVRCONN)")
        .text();
    assert!(shown.contains("1 CONN FOUND"), "{shown}");
    assert!(shown.contains("CONNAME(127.0.0.1("), "{shown}");
    assert!(shown.contains("UOWSTATE(ACTIVE)"), "{shown}");
    assert!(shown.contains("NOPENS(1)"), "{shown}");
    client.commit().unwrap();
    let committed = processor
        .run("DISPLAY CONN(*) UOWSTATE WHERE(CHANNEL EQ DEV.APP.SVRCONN)")
        .text();
    assert!(committed.contains("UOWSTATE(NONE)"), "{committed}");
    client.disconnect().unwrap();
    let mut gone = false;
    for _ in 0..100 {
        let after = processor
            .run("DISPLAY CONN(*) WHERE(CHANNEL EQ DEV.APP.SVRCONN)")
            .text();
        if after.contains("NO CONN FOUND") {
            gone = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(gone, "a disconnected client leaves the registry");
    // With no connection left, DISPLAY CONN TYPE(HANDLE) finds nothing to show.
    let handles = processor.run("DISPLAY CONN(*) TYPE(HANDLE)");
    assert!(handles.success, "{}", handles.text());
    assert!(
        !handles.text().contains("DEV.APP.SVRCONN"),
        "{}",
        handles.text()
    );
}

#[test]
fn kaint_sets_the_tcp_keepalive_timing() {
    let listener = start(&["Q1"]);
    // KAINT(AUTO) with HBINT(300): 300 + 60 seconds, as MQ derives it.
    let auto = connect(&listener);
    let instance = listener.chinit.instances().pop().expect("one instance");
    assert_eq!(instance.keepalive_idle_seconds(), Some(360));
    drop(auto);
    redefine_channel(&listener, |channel| channel.keepalive_interval = 45);
    let explicit = connect(&listener);
    let newest = listener
        .chinit
        .instances()
        .into_iter()
        .max_by_key(|instance| instance.id)
        .expect("an instance");
    assert_eq!(newest.keepalive_idle_seconds(), Some(45));
    drop(explicit);
}
