//! The bindings listener and the Rust client against a real queue manager: the MQI verbs over
//! the socket, waits, concurrency, limits, and hostile peers.

mod support;

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use ferrite_client::{ClientOptions, Connection};
use ferrite_constants::{
    get_options::*, match_options::*, object_type::MQOT_Q_MGR, open_options::*, persistence::*,
    put_options::*, reason::*, selector::*,
};
use ferrite_mqi::{AttributeValue, Hobj, MqError, MqResult, Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_server::ServerConfig;
use ferrite_test_kit::{get_sized, put_md, reason, with_persistence};
use support::*;

const ALL: i32 = MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE | MQOO_INQUIRE | MQOO_SET;

fn connect(fixture: &Fixture) -> Connection {
    Connection::connect(&fixture.socket, "QM1").unwrap()
}

fn open(connection: &mut Connection, queue: &str, options: i32) -> Hobj {
    connection.open(&mut Mqod::queue(queue), options).unwrap()
}

fn put(
    connection: &mut Connection,
    hobj: Hobj,
    options: i32,
    persistence: i32,
    data: &[u8],
) -> Mqmd {
    let mut md = with_persistence(persistence);
    put_md(connection, hobj, &mut md, options, data).unwrap();
    md
}

fn get(connection: &mut Connection, hobj: Hobj, options: i32) -> MqResult<(Mqmd, Vec<u8>)> {
    get_sized(connection, hobj, options, 64 * 1024)
}

fn depth(connection: &mut Connection, queue: &str) -> i32 {
    let hobj = open(connection, queue, MQOO_INQUIRE);
    let values = connection
        .inquire(hobj, &[MQIA_CURRENT_Q_DEPTH])
        .unwrap()
        .values;
    connection.close(hobj, 0).unwrap();
    match values[0] {
        AttributeValue::Integer(depth) => depth,
        ref other => panic!("depth {other:?}"),
    }
}

/// Polls `condition` for up to 10 s.
fn eventually(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn put_and_get_persistent_and_non_persistent() {
    let fixture = start(&["Q1"]);
    let mut connection = connect(&fixture);
    assert_eq!(connection.q_mgr_name(), "QM1");
    let hobj = open(&mut connection, "Q1", ALL);
    let sent = put(
        &mut connection,
        hobj,
        MQPMO_NO_SYNCPOINT,
        MQPER_PERSISTENT,
        b"persistent",
    );
    assert_ne!(sent.msg_id, [0; 24], "the queue manager fills in MsgId");
    assert!(!sent.put_date.is_empty() && !sent.put_appl_name.is_empty());
    put(
        &mut connection,
        hobj,
        MQPMO_NO_SYNCPOINT,
        MQPER_NOT_PERSISTENT,
        b"transient",
    );
    let (md, data) = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(data, b"persistent");
    assert_eq!(md.persistence, MQPER_PERSISTENT);
    assert_eq!(md.msg_id, sent.msg_id);
    // A bindings connection runs as its process's operating-system user (the kernel's), not
    // the $USER its client asserts.
    assert_eq!(
        md.user_identifier,
        ferrite_test_kit::this_user()
            .chars()
            .take(12)
            .collect::<String>()
    );
    let (md, data) = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(data, b"transient");
    assert_eq!(md.persistence, MQPER_NOT_PERSISTENT);
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    // Errors of the MQI come back with their reason codes.
    assert_eq!(
        reason(connection.open(&mut Mqod::queue("NO.SUCH.Q"), MQOO_OUTPUT)),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    assert_eq!(
        reason(connection.open(&mut Mqod::queue(&"Q".repeat(49)), MQOO_OUTPUT)),
        MQRC_OBJECT_NAME_ERROR
    );
    assert_eq!(reason(connection.close(Hobj(999), 0)), MQRC_HOBJ_ERROR);
    connection.close(hobj, 0).unwrap();
    connection.disconnect().unwrap();
}

#[test]
fn persistent_messages_survive_a_restart() {
    let fixture = start(&["Q1"]);
    let mut connection = connect(&fixture);
    let hobj = open(&mut connection, "Q1", MQOO_OUTPUT);
    put(
        &mut connection,
        hobj,
        MQPMO_SYNCPOINT,
        MQPER_PERSISTENT,
        b"kept",
    );
    put(
        &mut connection,
        hobj,
        MQPMO_SYNCPOINT,
        MQPER_NOT_PERSISTENT,
        b"lost",
    );
    connection.commit().unwrap();
    connection.disconnect().unwrap();
    let mut fixture = fixture;
    fixture.server.take().unwrap().stop();
    fixture.queue_manager.shutdown().unwrap();
    let queue_manager = ferrite_queue_manager::QueueManager::open(
        Arc::new(ferrite_storage::vfs::RealFileSystem),
        fixture.directory.path(),
        Arc::new(|_: &str| {}),
    )
    .unwrap();
    fixture.queue_manager = queue_manager.clone();
    fixture.server = Some(
        ferrite_server::Server::start(
            queue_manager,
            &fixture.socket,
            ServerConfig::default(),
            Arc::new(|_: &str| {}),
        )
        .unwrap(),
    );
    let mut connection = connect(&fixture);
    let hobj = open(&mut connection, "Q1", MQOO_INPUT_SHARED);
    assert_eq!(
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap().1,
        b"kept"
    );
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
}

#[test]
fn syncpoint_commit_and_backout() {
    let fixture = start(&["Q1"]);
    let mut writer = connect(&fixture);
    let mut reader = connect(&fixture);
    let w = open(&mut writer, "Q1", MQOO_OUTPUT);
    let r = open(&mut reader, "Q1", MQOO_INPUT_SHARED);
    put(&mut writer, w, MQPMO_SYNCPOINT, MQPER_PERSISTENT, b"one");
    assert_eq!(
        reason(get(&mut reader, r, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE,
        "uncommitted put invisible"
    );
    writer.backout().unwrap();
    assert_eq!(
        reason(get(&mut reader, r, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE,
        "backed out put gone"
    );
    put(&mut writer, w, MQPMO_SYNCPOINT, MQPER_PERSISTENT, b"two");
    writer.commit().unwrap();
    let (md, data) = get(&mut reader, r, MQGMO_SYNCPOINT).unwrap();
    assert_eq!((data.as_slice(), md.backout_count), (&b"two"[..], 0));
    reader.backout().unwrap();
    let (md, data) = get(&mut reader, r, MQGMO_SYNCPOINT).unwrap();
    assert_eq!(
        (data.as_slice(), md.backout_count),
        (&b"two"[..], 1),
        "backed out get returns with BackoutCount 1"
    );
    reader.commit().unwrap();
    assert_eq!(
        reason(get(&mut reader, r, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    // MQDISC commits.
    put(&mut writer, w, MQPMO_SYNCPOINT, MQPER_PERSISTENT, b"three");
    writer.disconnect().unwrap();
    assert_eq!(get(&mut reader, r, MQGMO_NO_SYNCPOINT).unwrap().1, b"three");
}

#[test]
fn get_by_correl_id_waits_and_is_woken_by_another_client() {
    let fixture = start(&["REPLY.Q"]);
    let mut waiter = connect(&fixture);
    let hobj = open(&mut waiter, "REPLY.Q", MQOO_INPUT_SHARED);
    let socket = fixture.socket.clone();
    let putter = std::thread::spawn(move || {
        let mut connection = Connection::connect(&socket, "QM1").unwrap();
        let hobj = open(&mut connection, "REPLY.Q", MQOO_OUTPUT);
        std::thread::sleep(Duration::from_millis(300));
        // Another correlation id first: the waiter must not take it.
        let mut md = Mqmd {
            correl_id: [1; 24],
            ..Mqmd::default()
        };
        connection
            .put(
                hobj,
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                b"other",
            )
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let mut md = Mqmd {
            correl_id: [7; 24],
            ..Mqmd::default()
        };
        connection
            .put(
                hobj,
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                b"mine",
            )
            .unwrap();
        connection.disconnect().unwrap();
    });
    let started = Instant::now();
    let mut md = Mqmd {
        correl_id: [7; 24],
        ..Mqmd::default()
    };
    let mut gmo = Mqgmo::matching(MQGMO_WAIT | MQGMO_NO_SYNCPOINT, MQMO_MATCH_CORREL_ID);
    gmo.wait_interval = 10_000;
    let mut buffer = [0u8; 100];
    let result = waiter.get(hobj, &mut md, &mut gmo, &mut buffer).unwrap();
    let waited = started.elapsed();
    putter.join().unwrap();
    assert_eq!(&buffer[..result.returned_length], b"mine");
    assert_eq!(md.correl_id, [7; 24]);
    assert_eq!(
        gmo.wait_interval, 10_000,
        "the caller's MQGMO keeps its WaitInterval"
    );
    assert!(
        waited >= Duration::from_millis(500) && waited < Duration::from_secs(10),
        "{waited:?}"
    );
    // A wait that expires: MQRC_NO_MSG_AVAILABLE after about the interval.
    let started = Instant::now();
    let mut md = Mqmd {
        correl_id: [9; 24],
        ..Mqmd::default()
    };
    let mut gmo = Mqgmo::matching(MQGMO_WAIT | MQGMO_NO_SYNCPOINT, MQMO_MATCH_CORREL_ID);
    gmo.wait_interval = 450;
    assert_eq!(
        reason(waiter.get(hobj, &mut md, &mut gmo, &mut buffer)),
        MQRC_NO_MSG_AVAILABLE
    );
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(440) && waited < Duration::from_secs(30),
        "{waited:?}"
    );
    assert_eq!(
        get(&mut waiter, hobj, MQGMO_NO_SYNCPOINT).unwrap().1,
        b"other"
    );
}

#[test]
fn browse_inquire_set_and_truncation() {
    let fixture = start(&["Q1"]);
    let mut connection = connect(&fixture);
    let hobj = open(&mut connection, "Q1", ALL);
    for text in ["first", "second", "third"] {
        put(
            &mut connection,
            hobj,
            MQPMO_NO_SYNCPOINT,
            MQPER_PERSISTENT,
            text.as_bytes(),
        );
    }
    let mut seen = Vec::new();
    let mut options = MQGMO_BROWSE_FIRST;
    while let Ok((_, data)) = get(&mut connection, hobj, options) {
        seen.push(String::from_utf8(data).unwrap());
        options = MQGMO_BROWSE_NEXT;
    }
    assert_eq!(seen, ["first", "second", "third"]);
    assert_eq!(
        depth(&mut connection, "Q1"),
        3,
        "browsing leaves the messages"
    );
    let values = connection
        .inquire(
            hobj,
            &[
                MQCA_Q_NAME,
                MQIA_CURRENT_Q_DEPTH,
                MQIA_MAX_Q_DEPTH,
                MQCA_Q_DESC,
                MQIA_INHIBIT_PUT,
            ],
        )
        .unwrap()
        .values;
    assert_eq!(values[0], AttributeValue::Text("Q1".into()));
    assert_eq!(values[1], AttributeValue::Integer(3));
    assert!(matches!(values[2], AttributeValue::Integer(n) if n > 0));
    assert_eq!(values[3], AttributeValue::Text(String::new()));
    assert_eq!(values[4], AttributeValue::Integer(0));
    assert_eq!(
        reason(connection.inquire(hobj, &[MQIA_CLWL_Q_RANK])),
        MQRC_SELECTOR_ERROR
    );
    let mut od = Mqod {
        object_type: MQOT_Q_MGR,
        object_name: String::new(),
        ..Mqod::default()
    };
    let qmgr = connection.open(&mut od, MQOO_INQUIRE).unwrap();
    assert_eq!(
        connection.inquire(qmgr, &[MQCA_Q_MGR_NAME]).unwrap().values,
        vec![AttributeValue::Text("QM1".into())]
    );
    connection
        .set(hobj, &[(MQIA_INHIBIT_PUT, AttributeValue::Integer(1))])
        .unwrap();
    let mut md = Mqmd::default();
    assert_eq!(
        reason(connection.put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"x"
        )),
        MQRC_PUT_INHIBITED
    );
    connection
        .set(hobj, &[(MQIA_INHIBIT_PUT, AttributeValue::Integer(0))])
        .unwrap();
    // A buffer too small: the message stays, and the error says how long it is.
    let mut small = [0u8; 3];
    let error = connection
        .get(
            hobj,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut small,
        )
        .unwrap_err();
    assert_eq!(
        (error.reason, error.data_length),
        (MQRC_TRUNCATED_MSG_FAILED, Some(5))
    );
    let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_ACCEPT_TRUNCATED_MSG);
    let result = connection
        .get(hobj, &mut Mqmd::default(), &mut gmo, &mut small)
        .unwrap();
    assert_eq!((result.data_length, result.returned_length), (5, 3));
    assert_eq!(
        result.warning.map(|w| w.reason),
        Some(MQRC_TRUNCATED_MSG_ACCEPTED)
    );
    assert_eq!(&small, b"fir");
    // MQPUT1.
    let mut od = Mqod::queue("Q1");
    let mut md = Mqmd::default();
    connection
        .put1(
            &mut od,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"put1",
        )
        .unwrap();
    assert_eq!(od.resolved_q_name, "Q1");
    assert_eq!(depth(&mut connection, "Q1"), 3);
}

#[test]
fn long_messages_split_across_segments() {
    let fixture = start(&["Q1"]);
    let options = ClientOptions {
        max_transmission_size: 4096,
        ..ClientOptions::default()
    };
    let mut connection =
        Connection::connect_with_options(&fixture.socket, "QM1", &Mqcno::default(), &options)
            .unwrap();
    assert_eq!(connection.negotiated().max_transmission_size, 4096);
    let hobj = open(&mut connection, "Q1", MQOO_OUTPUT | MQOO_INPUT_SHARED);
    let message: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
    put(
        &mut connection,
        hobj,
        MQPMO_NO_SYNCPOINT,
        MQPER_PERSISTENT,
        &message,
    );
    let mut buffer = vec![0u8; 2_000_000];
    let result = connection
        .get(
            hobj,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut buffer,
        )
        .unwrap();
    assert_eq!(result.data_length, message.len());
    assert!(buffer[..result.returned_length] == message[..]);
}

#[test]
fn renegotiates_unacceptable_proposals() {
    let fixture = start(&["Q1"]);
    // Too small a MaxTransmissionSize and too old a FAP level: the queue manager answers
    // with ERROR and its values, the client adopts them.
    let options = ClientOptions {
        max_transmission_size: 100,
        fap_level: 5,
        ..ClientOptions::default()
    };
    let mut connection =
        Connection::connect_with_options(&fixture.socket, "QM1", &Mqcno::default(), &options)
            .unwrap();
    let negotiated = connection.negotiated();
    assert_eq!(
        negotiated.max_transmission_size,
        ferrite_protocol::wire::MIN_TRANSMISSION_SIZE
    );
    assert_eq!(negotiated.fap_level, ferrite_protocol::wire::MIN_FAP_LEVEL);
    let hobj = open(&mut connection, "Q1", MQOO_OUTPUT | MQOO_INPUT_SHARED);
    put(
        &mut connection,
        hobj,
        MQPMO_NO_SYNCPOINT,
        MQPER_PERSISTENT,
        &[5; 10_000],
    );
    assert_eq!(
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap().1,
        vec![5; 10_000]
    );
}

#[test]
fn connection_failures_have_mq_reason_codes() {
    let fixture = start(&["Q1"]);
    let missing = fixture.directory.path().join("nothing.sock");
    assert_eq!(
        reason(Connection::connect(&missing, "QM1")),
        MQRC_Q_MGR_NOT_AVAILABLE
    );
    assert_eq!(
        reason(Connection::connect(&fixture.socket, "QM2")),
        MQRC_Q_MGR_NAME_ERROR
    );
    let mut connection = connect(&fixture);
    let hobj = open(&mut connection, "Q1", MQOO_OUTPUT);
    let mut fixture = fixture;
    fixture.server.take().unwrap().stop();
    assert!(
        !fixture.socket.exists(),
        "the socket file is removed at stop"
    );
    let mut md = Mqmd::default();
    assert_eq!(
        reason(connection.put(hobj, &mut md, &mut Mqpmo::default(), b"x")),
        MQRC_CONNECTION_BROKEN
    );
    assert_eq!(reason(connection.commit()), MQRC_CONNECTION_BROKEN);
    assert_eq!(
        reason(Connection::connect(&fixture.socket, "QM1")),
        MQRC_Q_MGR_NOT_AVAILABLE
    );
}

#[test]
fn connections_beyond_the_limit_are_refused() {
    let fixture = start_with(
        &["Q1"],
        ServerConfig {
            max_connections: 2,
            ..ServerConfig::default()
        },
    );
    let first = connect(&fixture);
    let second = connect(&fixture);
    assert_eq!(
        reason(Connection::connect(&fixture.socket, "QM1")),
        MQRC_MAX_CONNS_LIMIT_REACHED
    );
    drop(first);
    eventually("a connection slot frees", || {
        Connection::connect(&fixture.socket, "QM1").is_ok()
    });
    second.disconnect().unwrap();
}

#[test]
fn many_concurrent_clients() {
    let fixture = start(&["Q1"]);
    const CLIENTS: usize = 24;
    const MESSAGES: usize = 40;
    let barrier = Arc::new(Barrier::new(CLIENTS * 2));
    let mut threads = Vec::new();
    for client in 0..CLIENTS {
        let socket = fixture.socket.clone();
        let start = barrier.clone();
        threads.push(std::thread::spawn(move || {
            let mut connection = Connection::connect(&socket, "QM1").unwrap();
            let hobj = open(&mut connection, "Q1", MQOO_OUTPUT);
            let barrier = start;
            barrier.wait();
            for n in 0..MESSAGES {
                let persistence = if n % 2 == 0 {
                    MQPER_PERSISTENT
                } else {
                    MQPER_NOT_PERSISTENT
                };
                put(
                    &mut connection,
                    hobj,
                    MQPMO_SYNCPOINT,
                    persistence,
                    format!("{client}:{n}").as_bytes(),
                );
                if n % 5 == 4 {
                    connection.commit().unwrap();
                }
            }
            connection.disconnect().unwrap();
            0usize
        }));
        let socket = fixture.socket.clone();
        let start = barrier.clone();
        threads.push(std::thread::spawn(move || {
            let mut connection = Connection::connect(&socket, "QM1").unwrap();
            let hobj = open(&mut connection, "Q1", MQOO_INPUT_SHARED);
            let barrier = start;
            barrier.wait();
            let mut got = 0;
            let mut buffer = [0u8; 64];
            loop {
                let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_SYNCPOINT);
                gmo.wait_interval = 1500;
                match connection.get(hobj, &mut Mqmd::default(), &mut gmo, &mut buffer) {
                    Ok(_) => {
                        got += 1;
                        connection.commit().unwrap();
                    }
                    Err(MqError {
                        reason: MQRC_NO_MSG_AVAILABLE,
                        ..
                    }) => break,
                    Err(error) => panic!("{error}"),
                }
            }
            connection.disconnect().unwrap();
            got
        }));
    }
    let total: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(total, CLIENTS * MESSAGES);
    let mut connection = connect(&fixture);
    assert_eq!(depth(&mut connection, "Q1"), 0);
}

/// A raw peer: the queue manager must close it, and keep serving everyone else.
fn assert_closed_by_queue_manager(mut stream: UnixStream) {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return,
            Ok(_) => continue, // a STATUS_DATA or a reply before the close
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => return,
            Err(error) => panic!("the queue manager did not close the connection: {error}"),
        }
    }
}

/// The INITIAL_DATA a client sends, as raw bytes.
fn initial_data_segment() -> Vec<u8> {
    use ferrite_protocol::initial_data::InitialData;
    use ferrite_protocol::segment::{
        ControlFlags1, HeaderKind, Segment, SegmentHeader, SegmentType,
    };
    use ferrite_protocol::ByteOrder;
    let mut id = InitialData::new(13);
    id.max_transmission_size = 8 * 1024;
    id.max_message_size = 1024 * 1024;
    id.ccsid = 819;
    id.conv_per_socket = 1;
    let mut header = SegmentHeader::new(HeaderKind::Tsh, SegmentType::InitialData, ByteOrder::Big);
    header.flags1 = ControlFlags1(0x31);
    Segment::new(header, id.encode(ByteOrder::Big))
        .encode()
        .unwrap()
}

fn tshm_segment(segment_type: u8, declared_length: Option<u32>, payload: &[u8]) -> Vec<u8> {
    use ferrite_protocol::segment::{HeaderKind, Segment, SegmentHeader, SegmentType};
    use ferrite_protocol::ByteOrder;
    let header = SegmentHeader::new(
        HeaderKind::Tshm {
            conversation_id: 1,
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

fn read_one_segment(stream: &mut UnixStream) -> ferrite_protocol::segment::Segment {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut decoder = ferrite_protocol::segment::SegmentDecoder::default();
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

#[test]
fn hostile_peers_are_closed_and_others_carry_on() {
    let fixture = start(&["Q1"]);
    let mut bystander = connect(&fixture);
    let b = open(&mut bystander, "Q1", MQOO_OUTPUT | MQOO_INPUT_SHARED);
    put(
        &mut bystander,
        b,
        MQPMO_SYNCPOINT,
        MQPER_PERSISTENT,
        b"in flight",
    );

    // Garbage instead of a segment header.
    let mut stream = UnixStream::connect(&fixture.socket).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert_closed_by_queue_manager(stream);

    // A segment header claiming more than the hard cap / the transmission size.
    let mut stream = UnixStream::connect(&fixture.socket).unwrap();
    let mut oversized = initial_data_segment();
    oversized[4..8].copy_from_slice(&0x7fff_ffffu32.to_be_bytes());
    stream.write_all(&oversized[..40]).unwrap();
    assert_closed_by_queue_manager(stream);

    // A length shorter than its own header.
    let mut stream = UnixStream::connect(&fixture.socket).unwrap();
    let mut short = initial_data_segment();
    short[4..8].copy_from_slice(&10u32.to_be_bytes());
    stream.write_all(&short).unwrap();
    assert_closed_by_queue_manager(stream);

    // A truncated segment, then the peer goes away.
    let mut stream = UnixStream::connect(&fixture.socket).unwrap();
    let segment = initial_data_segment();
    stream.write_all(&segment[..segment.len() / 2]).unwrap();
    drop(stream);

    // An MQI verb before INITIAL_DATA.
    let mut stream = UnixStream::connect(&fixture.socket).unwrap();
    stream
        .write_all(&tshm_segment(0x8A, None, &[0; 16]))
        .unwrap();
    assert_closed_by_queue_manager(stream);

    // After a good INITIAL_DATA: an unknown segment type, a malformed MQOPEN, a segment
    // longer than the negotiated 8 KiB (within the 32 KiB in force before negotiation), a reply type sent as a request.
    for bad in [
        tshm_segment(0x42, None, b"????"),
        tshm_segment(0x83, None, &[0xAB; 40]),
        tshm_segment(0x86, Some(16 * 1024), &[0; 100]),
        tshm_segment(0x91, None, &[0; 16]),
    ] {
        let mut stream = UnixStream::connect(&fixture.socket).unwrap();
        stream.write_all(&initial_data_segment()).unwrap();
        let reply = read_one_segment(&mut stream);
        assert_eq!(
            reply.header.segment_type.to_u8(),
            0x01,
            "INITIAL_DATA answered"
        );
        assert!(
            !reply.header.flags1.contains(0x02),
            "the proposal was acceptable"
        );
        stream.write_all(&bad).unwrap();
        assert_closed_by_queue_manager(stream);
    }

    // A peer that never completes the handshake holds its slot until the timeout only: it is
    // checked by the handshake timeout test below; here, a peer that goes quiet after
    // connecting does not stop others.
    let _quiet = UnixStream::connect(&fixture.socket).unwrap();

    // Everyone else carried on.
    bystander.commit().unwrap();
    let mut other = connect(&fixture);
    let o = open(&mut other, "Q1", MQOO_INPUT_SHARED);
    assert_eq!(
        get(&mut other, o, MQGMO_NO_SYNCPOINT).unwrap().1,
        b"in flight"
    );
    bystander.disconnect().unwrap();
    let log = fixture.log.lock().unwrap().join("\n");
    assert!(
        log.contains("protocol error"),
        "protocol errors are logged: {log}"
    );
}

#[test]
fn handshake_timeout_frees_the_slot() {
    let fixture = start_with(
        &["Q1"],
        ServerConfig {
            max_connections: 1,
            handshake_timeout: Duration::from_millis(300),
            ..ServerConfig::default()
        },
    );
    let quiet = UnixStream::connect(&fixture.socket).unwrap();
    assert_closed_by_queue_manager(quiet);
    eventually("the slot frees", || {
        Connection::connect(&fixture.socket, "QM1").is_ok()
    });
}

#[test]
fn a_client_that_dies_in_a_unit_of_work_is_backed_out() {
    let fixture = start(&["Q1"]);
    let mut setup = connect(&fixture);
    let s = open(&mut setup, "Q1", MQOO_OUTPUT | MQOO_INPUT_SHARED);
    put(
        &mut setup,
        s,
        MQPMO_NO_SYNCPOINT,
        MQPER_PERSISTENT,
        b"precious",
    );

    // Dies holding a got message and an uncommitted put.
    let mut dying = connect(&fixture);
    let d = open(&mut dying, "Q1", MQOO_OUTPUT | MQOO_INPUT_SHARED);
    assert_eq!(get(&mut dying, d, MQGMO_SYNCPOINT).unwrap().1, b"precious");
    put(
        &mut dying,
        d,
        MQPMO_SYNCPOINT,
        MQPER_PERSISTENT,
        b"never committed",
    );
    assert_eq!(
        depth(&mut setup, "Q1"),
        1,
        "uncommitted put counted, got message not"
    );
    drop(dying);

    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.wait_interval = 10_000;
    let mut md = Mqmd::default();
    let mut buffer = [0u8; 100];
    let result = setup.get(s, &mut md, &mut gmo, &mut buffer).unwrap();
    assert_eq!(&buffer[..result.returned_length], b"precious");
    assert_eq!(md.backout_count, 1);
    eventually("the uncommitted put is backed out", || {
        depth(&mut setup, "Q1") == 0
    });
    assert_eq!(
        reason(get(&mut setup, s, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
}

/// Run by `a_killed_client_is_backed_out_even_while_waiting` as a child process: puts in a
/// unit of work, then waits forever for a message, until it is killed.
#[test]
#[ignore = "a child process of a_killed_client_is_backed_out_even_while_waiting"]
fn child_waits_forever() {
    let Ok(socket) = std::env::var("FERRITE_CHILD_SOCKET") else {
        return;
    };
    let mut connection = Connection::connect(&socket, "QM1").unwrap();
    let hobj = open(&mut connection, "Q1", MQOO_INPUT_SHARED | MQOO_OUTPUT);
    put(
        &mut connection,
        hobj,
        MQPMO_SYNCPOINT,
        MQPER_PERSISTENT,
        b"never committed",
    );
    println!("CHILD WAITING");
    std::io::stdout().flush().unwrap();
    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.wait_interval = ferrite_constants::wait::MQWI_UNLIMITED;
    let mut md = Mqmd {
        correl_id: [3; 24],
        ..Mqmd::default()
    };
    let _ = connection.get(hobj, &mut md, &mut gmo, &mut [0u8; 16]);
    panic!("the get should wait until the process is killed");
}

#[test]
fn a_killed_client_is_backed_out_even_while_waiting() {
    use std::io::BufRead;
    let fixture = start(&["Q1"]);
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_waits_forever",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("FERRITE_CHILD_SOCKET", &fixture.socket)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = std::io::BufReader::new(stdout).lines();
    assert!(
        lines.any(|line| line.unwrap().contains("CHILD WAITING")),
        "the child reached its get"
    );
    let server = fixture.server.as_ref().unwrap();
    assert_eq!(server.connection_count(), 1);
    let mut other = connect(&fixture);
    assert_eq!(depth(&mut other, "Q1"), 1, "the child's uncommitted put");
    std::thread::sleep(Duration::from_millis(100));
    child.kill().unwrap(); // SIGKILL: no MQDISC, no close by the application
    child.wait().unwrap();
    // The queue manager notices while the get is still waiting, backs the unit out and
    // frees the connection.
    eventually("the killed client's connection ends", || {
        server.connection_count() == 1
    });
    assert_eq!(
        depth(&mut other, "Q1"),
        0,
        "the uncommitted put is backed out"
    );
    // A matching message put now is not taken by the dead client's get.
    let o = open(&mut other, "Q1", MQOO_OUTPUT | MQOO_INPUT_SHARED);
    let mut md = Mqmd {
        correl_id: [3; 24],
        ..Mqmd::default()
    };
    other
        .put(
            o,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"for the living",
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        get(&mut other, o, MQGMO_NO_SYNCPOINT).unwrap().1,
        b"for the living"
    );
    other.disconnect().unwrap();
}

#[test]
fn a_model_queue_opened_over_the_socket_returns_the_dynamic_queue_name() {
    // SYSTEM.DEFAULT.MODEL.QUEUE is one of the default objects the fixture defines.
    let fixture = start(&[]);
    let mut connection = connect(&fixture);
    let mut od = Mqod {
        dynamic_q_name: "AMQ.*".into(),
        ..Mqod::queue("SYSTEM.DEFAULT.MODEL.QUEUE")
    };
    let hobj = connection
        .open(&mut od, MQOO_INPUT_EXCLUSIVE | MQOO_OUTPUT)
        .unwrap();
    assert!(od.object_name.starts_with("AMQ."), "{}", od.object_name);
    assert_eq!(od.resolved_q_name, od.object_name);
    assert!(fixture.queue_manager.queue(&od.object_name).is_some());
    put(
        &mut connection,
        hobj,
        MQPMO_NO_SYNCPOINT,
        MQPER_NOT_PERSISTENT,
        b"reply",
    );
    assert_eq!(
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap().1,
        b"reply"
    );
    // The client's end deletes its temporary dynamic queue.
    connection.disconnect().unwrap();
    eventually("the temporary dynamic queue is deleted", || {
        fixture.queue_manager.queue(&od.object_name).is_none()
    });
}
