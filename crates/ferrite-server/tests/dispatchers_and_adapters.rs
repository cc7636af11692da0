//! The channel initiator's threads as MQ's: CHIDISPS dispatchers own the sockets, CHIADAPS
//! adapters run the MQI calls, a waiting MQGET holds no adapter, a client that stops reading
//! holds back only itself, and an idle asynchronous consumer is pushed a message as soon as it
//! arrives.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_client::Connection;
use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_mqi::{Hobj, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_protocol::api::{ApiBody, ApiFlow, ApiHeader, MqConn, MqGet, MqOpen};
use ferrite_protocol::control::{Notification, RequestMsgs};
use ferrite_protocol::initial_data::InitialData;
use ferrite_protocol::mqi::{Gmo, Md, Od};
use ferrite_protocol::segment::{
    ControlFlags1, HeaderKind, Segment, SegmentDecoder, SegmentHeader, SegmentType,
};
use ferrite_protocol::wire::chars;
use ferrite_protocol::ByteOrder;
use ferrite_server::channel_initiator::{ChannelInitiator, ChannelInitiatorConfig};
use ferrite_server::ServerConfig;

use support::Listener;

/// QM1 with `queues`, its channel initiator with `dispatchers` and `adapters`.
fn start(queues: &[&str], dispatchers: usize, adapters: usize) -> Listener {
    let fixture = support::start_with(queues, ServerConfig::default());
    support::listen_with(
        fixture,
        ChannelInitiatorConfig {
            dispatchers,
            adapters,
            ..ChannelInitiatorConfig::default()
        },
    )
}

fn connect(listener: &Listener) -> Connection {
    listener.connect_app()
}

fn put(connection: &mut Connection, queue: &str, data: &[u8]) {
    let md = &mut Mqmd::default();
    ferrite_test_kit::put_to_queue(connection, queue, md, MQPMO_NO_SYNCPOINT, data);
}

fn get_waiting(connection: &mut Connection, hobj: Hobj, wait_ms: i32) -> Result<Vec<u8>, i32> {
    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.wait_interval = wait_ms;
    ferrite_test_kit::get_with(connection, hobj, &mut gmo, 256 * 1024)
        .map(|(_, data)| data)
        .map_err(|error| error.reason)
}

#[test]
fn display_chinit_shows_the_dispatchers_and_adapters_configured() {
    let listener = start(&["Q1"], 3, 2);
    assert_eq!(listener.chinit.dispatcher_count(), 3);
    assert_eq!(listener.chinit.adapter_count(), 2);
    let processor = ferrite_command::CommandProcessor::new(listener.fixture.queue_manager.clone());
    processor.set_channel_initiator(Some(listener.chinit.clone()));
    let text = processor.run("DISPLAY CHINIT").text();
    assert!(
        text.contains("CSQX831I QM1 CSQXRDQM 2 adapter subtasks started, 2 requested"),
        "{text}"
    );
    assert!(
        text.contains("CSQX832I QM1 CSQXRDQM 3 dispatchers started, 3 requested"),
        "{text}"
    );
    // Sockets are spread over the dispatchers.
    let clients: Vec<Connection> = (0..6).map(|_| connect(&listener)).collect();
    let deadline = Instant::now() + Duration::from_secs(5);
    while listener.chinit.channels_per_dispatcher() != [2, 2, 2] && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(listener.chinit.channels_per_dispatcher(), [2, 2, 2]);
    drop(clients);
    // Counts outside MQ's range are refused with a reason.
    let error = ChannelInitiator::try_new(
        listener.fixture.queue_manager.clone(),
        ChannelInitiatorConfig {
            adapters: 0,
            ..ChannelInitiatorConfig::default()
        },
        Arc::new(|_: &str| {}),
    )
    .err()
    .expect("0 adapters refused");
    assert!(error.to_string().contains("CHIADAPS"), "{error}");
}

#[test]
fn waiting_gets_do_not_hold_adapters() {
    // Two adapters, six clients waiting on an empty queue: other clients' calls still run.
    let listener = start(&["WAIT.Q", "WORK.Q"], 1, 2);
    let waiters: Vec<_> = (0..6)
        .map(|_| {
            let mut client = connect(&listener);
            std::thread::spawn(move || {
                let hobj = client
                    .open(&mut Mqod::queue("WAIT.Q"), MQOO_INPUT_SHARED)
                    .unwrap();
                let got = get_waiting(&mut client, hobj, 30_000);
                client.disconnect().unwrap();
                got
            })
        })
        .collect();
    // Let them all park.
    let deadline = Instant::now() + Duration::from_secs(10);
    while listener
        .chinit
        .instances()
        .iter()
        .map(|instance| instance.snapshot().messages)
        .sum::<u64>()
        < 12
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        listener.chinit.busy_adapters(),
        0,
        "parked gets hold no adapter"
    );
    let mut worker = connect(&listener);
    let started = Instant::now();
    let hobj = worker
        .open(&mut Mqod::queue("WORK.Q"), MQOO_INPUT_SHARED | MQOO_OUTPUT)
        .unwrap();
    for round in 0..100u32 {
        worker
            .put(
                hobj,
                &mut Mqmd::default(),
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                &round.to_be_bytes(),
            )
            .unwrap();
        assert_eq!(
            get_waiting(&mut worker, hobj, 1_000).unwrap(),
            round.to_be_bytes()
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "other calls ran while six gets waited: {:?}",
        started.elapsed()
    );
    // Each waiting get is woken by a message of its own.
    for index in 0..6u8 {
        put(&mut worker, "WAIT.Q", &[index]);
    }
    let mut got: Vec<u8> = waiters
        .into_iter()
        .map(|waiter| waiter.join().unwrap().expect("a message")[0])
        .collect();
    got.sort();
    assert_eq!(got, [0, 1, 2, 3, 4, 5]);
    // A wait that runs out is answered 2033, not early, by the timer, not an adapter (the
    // upper bound only catches a timer that never fires: no tight timing, machines are noisy).
    let hobj = worker
        .open(&mut Mqod::queue("WAIT.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    let started = Instant::now();
    assert_eq!(
        get_waiting(&mut worker, hobj, 300),
        Err(MQRC_NO_MSG_AVAILABLE)
    );
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(300) && waited < Duration::from_secs(30),
        "{waited:?}"
    );
    // Many short waits in a row each end on time (a timer that fired a little early once left
    // a get watching for ever).
    let started = Instant::now();
    for _ in 0..50 {
        assert_eq!(
            get_waiting(&mut worker, hobj, 7),
            Err(MQRC_NO_MSG_AVAILABLE)
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "a short wait was left watching: {:?}",
        started.elapsed()
    );
    worker.disconnect().unwrap();
}

/// Raw flows on one socket (SHARECNV 1), big-endian.
struct RawClient {
    stream: TcpStream,
    decoder: SegmentDecoder,
}

const ORDER: ByteOrder = ByteOrder::Big;

fn conversation() -> HeaderKind {
    HeaderKind::Tshm {
        conversation_id: 1,
        request_id: 0,
    }
}

fn api_flow(body: ApiBody) -> Vec<u8> {
    ApiFlow {
        header: ApiHeader {
            reply_length: 0,
            comp_code: 0,
            reason: 0,
            hobj: 0,
        },
        body,
    }
    .encode(ORDER)
    .unwrap()
}

impl RawClient {
    fn connect(listener: &Listener) -> RawClient {
        let stream = TcpStream::connect(listener.address()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut client = RawClient {
            stream,
            decoder: SegmentDecoder::new(1024 * 1024),
        };
        let mut id = InitialData::new(13);
        id.max_transmission_size = 32 * 1024;
        id.max_message_size = 4 * 1024 * 1024;
        id.ccsid = 819;
        id.conv_per_socket = 1;
        id.channel_name = chars("DEV.APP.SVRCONN");
        let mut header = SegmentHeader::new(HeaderKind::Tsh, SegmentType::InitialData, ORDER);
        header.flags1 = ControlFlags1(0x31);
        client.send(header, id.encode(ORDER));
        client.receive();
        let conn = MqConn {
            qmgr_name: chars(""),
            appl_name: chars("raw"),
            appl_type: 0,
            accounting_token: [0; 32],
            options: 3,
            x_options: 0,
            fcno: None,
            trailing: Vec::new(),
        };
        client.call(SegmentType::MqConn, api_flow(ApiBody::Conn(conn)));
        client
    }

    fn send(&mut self, header: SegmentHeader, payload: Vec<u8>) {
        let bytes = Segment::new(header, payload).encode().unwrap();
        self.stream.write_all(&bytes).unwrap();
    }

    /// The next whole flow (segments of a split flow joined).
    fn receive(&mut self) -> Segment {
        let mut buffer = [0u8; 64 * 1024];
        let mut flow: Option<Segment> = None;
        loop {
            while let Some(segment) = self.decoder.next_segment().unwrap() {
                let last = segment.header.flags1.last();
                match flow.as_mut() {
                    None => flow = Some(segment),
                    Some(flow) => flow.payload.extend_from_slice(&segment.payload),
                }
                if last {
                    return flow.unwrap();
                }
            }
            let read = self.stream.read(&mut buffer).unwrap();
            assert!(read > 0, "closed");
            self.decoder.push(&buffer[..read]);
        }
    }

    fn call(&mut self, segment_type: SegmentType, payload: Vec<u8>) -> ApiFlow {
        self.send(
            SegmentHeader::new(conversation(), segment_type, ORDER),
            payload,
        );
        let reply = self.receive();
        ApiFlow::decode(reply.header.segment_type, ORDER, &reply.payload).unwrap()
    }

    fn open(&mut self, queue: &str, options: i32) -> i32 {
        let open = MqOpen {
            od: Od {
                object_name: chars(queue),
                ..Od::default()
            },
            options,
            fopa: None,
            fcmi: None,
            trailing: Vec::new(),
        };
        let reply = self.call(SegmentType::MqOpen, api_flow(ApiBody::Open(open)));
        assert_eq!(reply.header.reason, 0, "MQOPEN {queue}");
        reply.header.hobj
    }

    fn get_flow(hobj: i32, buffer_length: i32) -> Vec<u8> {
        let gmo = Gmo {
            options: MQGMO_NO_SYNCPOINT,
            ..Gmo::default()
        };
        ApiFlow {
            header: ApiHeader {
                reply_length: 0,
                comp_code: 0,
                reason: 0,
                hobj,
            },
            body: ApiBody::Get(MqGet {
                md: Md::default(),
                gmo,
                length: buffer_length,
                data: Vec::new(),
            }),
        }
        .encode(ORDER)
        .unwrap()
    }
}

#[test]
fn a_client_that_stops_reading_holds_back_only_itself() {
    const MESSAGES: usize = 64;
    const MESSAGE_BYTES: usize = 128 * 1024;
    let listener = start(&["BIG.Q", "OTHER.Q"], 1, 1);
    let mut loader = connect(&listener);
    for index in 0..MESSAGES {
        put(&mut loader, "BIG.Q", &vec![index as u8; MESSAGE_BYTES]);
    }
    // The slow reader asks for every message and reads nothing: 8 MiB of replies, far more
    // than the socket buffers and the channel's output bound hold.
    let mut slow = RawClient::connect(&listener);
    {
        use std::os::unix::io::AsRawFd;
        let size: libc::c_int = 16 * 1024;
        // SAFETY: setting an integer socket option on our socket.
        unsafe {
            libc::setsockopt(
                slow.stream.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_RCVBUF,
                &size as *const libc::c_int as *const libc::c_void,
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    }
    let hobj = slow.open("BIG.Q", MQOO_INPUT_SHARED);
    for _ in 0..MESSAGES {
        slow.send(
            SegmentHeader::new(conversation(), SegmentType::MqGet, ORDER),
            RawClient::get_flow(hobj, MESSAGE_BYTES as i32),
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    // With one dispatcher and one adapter, everyone else carries on.
    let started = Instant::now();
    let mut other = connect(&listener);
    let other_hobj = other
        .open(&mut Mqod::queue("OTHER.Q"), MQOO_INPUT_SHARED | MQOO_OUTPUT)
        .unwrap();
    for round in 0..50u32 {
        other
            .put(
                other_hobj,
                &mut Mqmd::default(),
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                &round.to_be_bytes(),
            )
            .unwrap();
        get_waiting(&mut other, other_hobj, 1_000).unwrap();
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // Not all of its messages were taken while it did not read (the conversation waits for
    // room), and nothing is lost once it reads.
    let depth = listener
        .fixture
        .queue_manager
        .queue("BIG.Q")
        .unwrap()
        .depth();
    assert!(
        depth > 0,
        "the slow reader's conversation stopped taking messages"
    );
    for index in 0..MESSAGES {
        let reply = slow.receive();
        let flow = ApiFlow::decode(SegmentType::MqGetReply, ORDER, &reply.payload).unwrap();
        assert_eq!(flow.header.reason, 0);
        let ApiBody::Get(get) = flow.body else {
            panic!("MQGET reply")
        };
        assert_eq!(get.data.len(), MESSAGE_BYTES);
        assert_eq!(get.data[0], index as u8);
    }
    other.disconnect().unwrap();
}

#[test]
fn an_idle_consumer_costs_no_adapter_and_is_pushed_a_message_at_once() {
    let listener = start(&["PUSH.Q"], 1, 1);
    let mut consumer = RawClient::connect(&listener);
    let hobj = consumer.open("PUSH.Q", MQOO_INPUT_SHARED);
    let request = RequestMsgs {
        version: 1,
        hobj,
        recv_bytes: 0,
        rqst_bytes: 1024 * 1024,
        max_msg_length: 64 * 1024,
        gmo_options: MQGMO_NO_SYNCPOINT,
        wait_interval: -1,
        queue_status: 0,
        request_flags: 0,
        global_msg_index: 0,
        trailing: Vec::new(),
    };
    consumer.send(
        SegmentHeader::new(conversation(), SegmentType::RequestMsgs, ORDER),
        request.encode(ORDER),
    );
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        listener.chinit.busy_adapters(),
        0,
        "an idle consumer runs nowhere"
    );
    let mut producer = connect(&listener);
    for round in 0..20u8 {
        let started = Instant::now();
        put(&mut producer, "PUSH.Q", &[round]);
        let pushed = consumer.receive();
        assert_eq!(pushed.header.segment_type, SegmentType::AsyncMessage);
        assert_eq!(pushed.payload.last(), Some(&round));
        // Pushed when put, not found by a later poll: the consumer's read times out at 20 s;
        // this bound only names a push that came from something else (no tight timing).
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }
    producer.disconnect().unwrap();
}

/// Puts `data` to `queue`, persistent or not.
fn put_with_persistence(connection: &mut Connection, queue: &str, data: &[u8], persistent: bool) {
    let mut md = ferrite_test_kit::with_persistence(ferrite_test_kit::persistence(persistent));
    ferrite_test_kit::put_to_queue(connection, queue, &mut md, MQPMO_NO_SYNCPOINT, data);
}

/// A REQUEST_MSGS for `hobj` (IBM's client's GMO options for read-ahead).
fn request_messages(client: &mut RawClient, hobj: i32, flags: u32, recv: u32, rqst: u32) {
    let request = RequestMsgs {
        version: 1,
        hobj,
        recv_bytes: recv,
        rqst_bytes: rqst,
        max_msg_length: 64 * 1024,
        gmo_options: MQGMO_NO_SYNCPOINT,
        wait_interval: -1,
        queue_status: 0,
        request_flags: flags,
        global_msg_index: 0,
        trailing: Vec::new(),
    };
    client.send(
        SegmentHeader::new(conversation(), SegmentType::RequestMsgs, ORDER),
        request.encode(ORDER),
    );
}

impl RawClient {
    /// The data (last byte) of `count` ASYNC_MESSAGEs, waited for as long as the connection's
    /// read timeout (a loaded machine may be slow to push), then of any more that arrive
    /// within `quiet` of the last: an expected count is never judged by a timer, only the
    /// absence of extra pushes is.
    fn pushed(&mut self, count: usize, quiet: Duration) -> Vec<u8> {
        let mut pushed = Vec::with_capacity(count);
        for _ in 0..count {
            let flow = self.receive();
            assert_eq!(flow.header.segment_type, SegmentType::AsyncMessage);
            pushed.push(*flow.payload.last().unwrap());
        }
        pushed.extend(self.pushed_until_quiet(quiet));
        pushed
    }

    /// The data (last byte) of each ASYNC_MESSAGE that arrives within `quiet` of the last.
    fn pushed_until_quiet(&mut self, quiet: Duration) -> Vec<u8> {
        let mut pushed = Vec::new();
        loop {
            let flow = if self.decoder.buffered() > 0 {
                self.receive()
            } else {
                self.stream.set_read_timeout(Some(quiet)).unwrap();
                let mut byte = [0u8; 1];
                let peeked = self.stream.peek(&mut byte);
                self.stream
                    .set_read_timeout(Some(Duration::from_secs(20)))
                    .unwrap();
                match peeked {
                    Ok(read) if read > 0 => self.receive(),
                    _ => return pushed,
                }
            };
            assert_eq!(flow.header.segment_type, SegmentType::AsyncMessage);
            pushed.push(*flow.payload.last().unwrap());
        }
    }
}

/// Read-ahead as MQ documents it: only non-persistent messages are sent ahead; a persistent
/// one waits at the head of the queue for the client's next request (which IBM's client makes
/// when an MQGET finds nothing read ahead), and is that request's first message.
#[test]
fn read_ahead_sends_only_non_persistent_messages_ahead() {
    const READ_AHEAD_FIRST: u32 = 0x18;
    const READ_AHEAD: u32 = 0x08;
    let listener = start(&["AHEAD.Q"], 1, 1);
    let mut producer = connect(&listener);
    for (body, persistent) in [
        (0u8, false),
        (1, false),
        (2, true),
        (3, false),
        (4, true),
        (5, true),
    ] {
        put_with_persistence(&mut producer, "AHEAD.Q", &[body], persistent);
    }
    let mut consumer = RawClient::connect(&listener);
    let hobj = consumer.open("AHEAD.Q", MQOO_INPUT_SHARED);
    request_messages(&mut consumer, hobj, READ_AHEAD_FIRST, 0, 1024 * 1024);
    let quiet = Duration::from_millis(300);
    assert_eq!(consumer.pushed(2, quiet), vec![0, 1]);
    let depth = || {
        listener
            .fixture
            .queue_manager
            .queue("AHEAD.Q")
            .unwrap()
            .status()
            .current_depth
    };
    assert_eq!(depth(), 4, "the persistent message was not taken");
    request_messages(&mut consumer, hobj, READ_AHEAD, 730, 1024 * 1024);
    assert_eq!(consumer.pushed(2, quiet), vec![2, 3]);
    request_messages(&mut consumer, hobj, READ_AHEAD, 730, 1024 * 1024);
    assert_eq!(consumer.pushed(1, quiet), vec![4]);
    request_messages(&mut consumer, hobj, READ_AHEAD, 365, 1024 * 1024);
    assert_eq!(consumer.pushed(1, quiet), vec![5]);
    // An asynchronous consumer (no READ_AHEAD flag) is pushed persistent messages too.
    for body in 6..9u8 {
        put_with_persistence(&mut producer, "AHEAD.Q", &[body], true);
    }
    request_messages(&mut consumer, hobj, 0, 0, 1024 * 1024);
    assert_eq!(consumer.pushed(3, quiet), vec![6, 7, 8]);
    producer.disconnect().unwrap();
}

/// The REQUEST_MSGS window: RqstBytes less what was sent and not yet reported received in
/// RecvBytes (each message counting its 364-byte MQMD and its data); at least one message per
/// request.
#[test]
fn read_ahead_honours_the_clients_window() {
    const MESSAGE: usize = 100;
    const COUNTED: u32 = 364 + MESSAGE as u32;
    let listener = start(&["WINDOW.Q"], 1, 1);
    let mut producer = connect(&listener);
    for body in 0..12u8 {
        put_with_persistence(&mut producer, "WINDOW.Q", &[body; MESSAGE], false);
    }
    let mut consumer = RawClient::connect(&listener);
    let hobj = consumer.open("WINDOW.Q", MQOO_INPUT_SHARED);
    let quiet = Duration::from_millis(300);
    // A window of two and a bit messages: sent while some of it is left (three).
    request_messages(&mut consumer, hobj, 0x18, 0, 2 * COUNTED + 10);
    assert_eq!(consumer.pushed(3, quiet), vec![0, 1, 2]);
    // Only one of the three reported received: two still count against the window, which
    // has room for one more.
    request_messages(&mut consumer, hobj, 0x08, COUNTED, 2 * COUNTED + 10);
    assert_eq!(consumer.pushed(1, quiet), vec![3]);
    // Everything reported received (the other two and the fourth): the whole window again.
    request_messages(&mut consumer, hobj, 0x08, 3 * COUNTED, 2 * COUNTED + 10);
    assert_eq!(consumer.pushed(3, quiet), vec![4, 5, 6]);
    // A window smaller than one message still brings one.
    request_messages(&mut consumer, hobj, 0x08, 3 * COUNTED, 1);
    assert_eq!(consumer.pushed(1, quiet), vec![7]);
    producer.disconnect().unwrap();
}

impl RawClient {
    /// MQCLOSE of `hobj` with `options`: the reply's (CompCode, Reason).
    fn close_with(&mut self, hobj: i32, options: i32) -> (i32, i32) {
        let payload = ApiFlow {
            header: ApiHeader {
                reply_length: 0,
                comp_code: 0,
                reason: 0,
                hobj,
            },
            body: ApiBody::Close(ferrite_protocol::api::MqClose {
                od: None,
                options,
                trailing: Vec::new(),
            }),
        }
        .encode(ORDER)
        .unwrap();
        let reply = self.call(SegmentType::MqClose, payload);
        (reply.header.comp_code, reply.header.reason)
    }
}

impl RawClient {
    /// A REQUEST_MSGS for `hobj` on request id `request_id`, with CONFIRM_REQUEST if
    /// `confirm` (as IBM's client sends them: its stream on id 1, confirmed ones on id 3).
    fn request_on(
        &mut self,
        request_id: u32,
        confirm: bool,
        hobj: i32,
        flags: u32,
        wait_interval: i32,
    ) {
        let request = RequestMsgs {
            version: 1,
            hobj,
            recv_bytes: 0,
            rqst_bytes: 1024 * 1024,
            max_msg_length: 64 * 1024,
            gmo_options: MQGMO_NO_SYNCPOINT | MQGMO_WAIT,
            wait_interval,
            queue_status: 1,
            request_flags: flags,
            global_msg_index: 0,
            trailing: Vec::new(),
        };
        let kind = HeaderKind::Tshm {
            conversation_id: 1,
            request_id,
        };
        let mut header = SegmentHeader::new(kind, SegmentType::RequestMsgs, ORDER);
        if confirm {
            header.flags1 = ControlFlags1(ControlFlags1::CONFIRM_REQUEST | 0x30);
        }
        self.send(header, request.encode(ORDER));
    }

    /// The next flow, a NOTIFICATION confirming a request on `request_id` for `hobj`: its
    /// value (the request's reason).
    fn confirmation(&mut self, request_id: u32, hobj: i32) -> i32 {
        let flow = self.receive();
        assert_eq!(flow.header.segment_type, SegmentType::Notification);
        assert_eq!(
            flow.header.kind,
            HeaderKind::Tshm {
                conversation_id: 1,
                request_id
            }
        );
        let notification = Notification::decode(&flow.payload, ORDER).unwrap();
        assert_eq!(notification.hobj, hobj);
        notification.value
    }

    /// The next flow, an ASYNC_MESSAGE on `request_id`: its data's last byte.
    fn pushed_on(&mut self, request_id: u32) -> u8 {
        let flow = self.receive();
        assert_eq!(flow.header.segment_type, SegmentType::AsyncMessage);
        assert_eq!(
            flow.header.kind,
            HeaderKind::Tshm {
                conversation_id: 1,
                request_id
            }
        );
        *flow.payload.last().unwrap()
    }
}

/// Read-ahead MQGETs that find nothing, as IBM's JMS client makes them: a REQUEST_MSGS with
/// the MQGET's WaitInterval on its stream, then, when the wait is over with nothing read ahead,
/// one with CONFIRM_REQUEST and the immediate flag, answered by a NOTIFICATION (MQRC_NO_MSG_AVAILABLE)
/// on its own request id. Messages are pushed on the stream's id; a persistent one waits for
/// the next request, which a confirmation answers after it. A confirmed request with a
/// WaitInterval is answered when it is over (from the channel initiator's timer).
#[test]
fn read_ahead_requests_that_find_nothing_are_answered() {
    const STREAM: u32 = 1;
    const CONFIRMED: u32 = 3;
    let listener = start(&["EMPTY.Q"], 1, 1);
    let mut producer = connect(&listener);
    let mut consumer = RawClient::connect(&listener);
    let hobj = consumer.open("EMPTY.Q", MQOO_INPUT_SHARED);
    let quiet = Duration::from_millis(300);
    // The MQGET's wait, then its confirmation: answered, and by nothing else.
    consumer.request_on(STREAM, false, hobj, 0x18, 300);
    consumer.request_on(CONFIRMED, true, hobj, 0x0a, 0);
    assert_eq!(
        consumer.confirmation(CONFIRMED, hobj),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(consumer.pushed_until_quiet(quiet), Vec::<u8>::new());
    // The stream goes on: a non-persistent message is read ahead, on the stream's id.
    put_with_persistence(&mut producer, "EMPTY.Q", &[1], false);
    assert_eq!(consumer.pushed_on(STREAM), 1);
    // A persistent one is not; the next confirmed request brings it, then its answer.
    put_with_persistence(&mut producer, "EMPTY.Q", &[2], true);
    assert_eq!(consumer.pushed_until_quiet(quiet), Vec::<u8>::new());
    consumer.request_on(CONFIRMED, true, hobj, 0x0a, 0);
    assert_eq!(consumer.pushed_on(STREAM), 2);
    assert_eq!(consumer.confirmation(CONFIRMED, hobj), MQRC_NONE);
    // A confirmed request that waits is answered when its wait is over.
    consumer.request_on(CONFIRMED, true, hobj, 0x08, 200);
    assert_eq!(
        consumer.confirmation(CONFIRMED, hobj),
        MQRC_NO_MSG_AVAILABLE
    );
    // A handle whose first request is confirmed (receiveNoWait): its messages come on the
    // stream's id all the same.
    let other = consumer.open("EMPTY.Q", MQOO_INPUT_SHARED);
    consumer.request_on(CONFIRMED, true, other, 0x1a, 0);
    assert_eq!(
        consumer.confirmation(CONFIRMED, other),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(consumer.close_with(hobj, 0), (0, 0));
    put_with_persistence(&mut producer, "EMPTY.Q", &[3], false);
    assert_eq!(consumer.pushed_on(STREAM), 3);
    producer.disconnect().unwrap();
}

/// MQCLOSE with MQCO_QUIESCE while messages read ahead may still wait in the client: MQ's
/// MQCC_WARNING MQRC_READ_AHEAD_MSGS, the handle left open and nothing more sent ahead; the
/// next MQCLOSE closes it. Without read-ahead, or with nothing sent, it closes at once.
#[test]
fn mqclose_quiesce_with_messages_read_ahead_keeps_the_handle_open() {
    use ferrite_constants::close_options::MQCO_QUIESCE;
    let listener = start(&["QUIESCE.Q"], 1, 1);
    let mut producer = connect(&listener);
    for body in 0..3u8 {
        put_with_persistence(&mut producer, "QUIESCE.Q", &[body], false);
    }
    let mut consumer = RawClient::connect(&listener);
    let hobj = consumer.open("QUIESCE.Q", MQOO_INPUT_SHARED);
    let quiet = Duration::from_millis(300);
    request_messages(&mut consumer, hobj, 0x18, 0, 2 * 365);
    assert_eq!(consumer.pushed(2, quiet), vec![0, 1]);
    assert_eq!(
        consumer.close_with(hobj, MQCO_QUIESCE),
        (1, MQRC_READ_AHEAD_MSGS)
    );
    // Still open, and quiesced: a new request brings nothing more.
    request_messages(&mut consumer, hobj, 0x08, 2 * 365, 1024 * 1024);
    assert_eq!(consumer.pushed_until_quiet(quiet), Vec::<u8>::new());
    assert_eq!(consumer.close_with(hobj, MQCO_QUIESCE), (0, 0));
    assert_eq!(consumer.close_with(hobj, 0), (2, MQRC_HOBJ_ERROR));
    // A handle nothing was read ahead on closes at once.
    let other = consumer.open("QUIESCE.Q", MQOO_INPUT_SHARED);
    assert_eq!(consumer.close_with(other, MQCO_QUIESCE), (0, 0));
    producer.disconnect().unwrap();
}

#[test]
fn calls_that_cannot_wait_run_on_the_dispatcher_and_commits_of_persistent_work_hold_no_adapter() {
    let listener = start(&["Q1", "Q2"], 1, 1);
    let mut putter = connect(&listener);
    let mut getter = connect(&listener);
    let output = putter.open(&mut Mqod::queue("Q1"), MQOO_OUTPUT).unwrap();
    let input = getter
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    // Connecting and opening ran on the adapter.
    let after_opens = listener.chinit.adapter_runs();
    assert!(after_opens >= 4, "{after_opens} adapter runs");

    // Non-persistent puts and gets, in and outside syncpoint, and their commits: on the
    // dispatcher.
    for round in 0..50u32 {
        let data = round.to_be_bytes();
        let syncpoint = round % 2 == 0;
        let put_options = if syncpoint {
            MQPMO_SYNCPOINT
        } else {
            MQPMO_NO_SYNCPOINT
        };
        ferrite_test_kit::put(&mut putter, output, put_options, &data);
        if syncpoint {
            putter.commit().unwrap();
        }
        let get_options = if syncpoint {
            MQGMO_SYNCPOINT
        } else {
            MQGMO_NO_SYNCPOINT
        };
        let mut gmo = Mqgmo::with_options(get_options);
        let (_, got) = ferrite_test_kit::get_with(&mut getter, input, &mut gmo, 64).unwrap();
        assert_eq!(got, data);
        if syncpoint {
            getter.commit().unwrap();
        }
    }
    assert_eq!(listener.chinit.adapter_runs(), after_opens);

    // A waiting get answered by another client's put runs on the putter's dispatcher.
    let calls = |listener: &Listener| -> u64 {
        let instances = listener.chinit.instances();
        instances
            .iter()
            .map(|instance| instance.snapshot().messages)
            .sum()
    };
    let before_wait = calls(&listener);
    let waiter = std::thread::spawn(move || {
        let got = get_waiting(&mut getter, input, 30_000);
        (getter, got)
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while calls(&listener) == before_wait && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    ferrite_test_kit::put(&mut putter, output, MQPMO_NO_SYNCPOINT, b"woken");
    let (mut getter, got) = waiter.join().unwrap();
    assert_eq!(got.unwrap(), b"woken");
    assert_eq!(listener.chinit.adapter_runs(), after_opens);

    // A commit of persistent work waits for the log on no thread: it is logged on the
    // dispatcher and answered there once the log's writer hands the conversation back. A
    // persistent put outside syncpoint waits for the log on the adapter, and still completes.
    let mut md = Mqmd {
        persistence: ferrite_constants::persistence::MQPER_PERSISTENT,
        ..Mqmd::default()
    };
    ferrite_test_kit::put_md(&mut putter, output, &mut md, MQPMO_SYNCPOINT, b"p1").unwrap();
    assert_eq!(listener.chinit.adapter_runs(), after_opens);
    putter.commit().unwrap();
    let after_commit = listener.chinit.adapter_runs();
    assert_eq!(after_commit, after_opens);
    let mut md = Mqmd {
        persistence: ferrite_constants::persistence::MQPER_PERSISTENT,
        ..Mqmd::default()
    };
    ferrite_test_kit::put_md(&mut putter, output, &mut md, MQPMO_NO_SYNCPOINT, b"p2").unwrap();
    assert!(listener.chinit.adapter_runs() > after_commit);
    for expected in [b"p1", b"p2"] {
        let mut gmo = Mqgmo::with_options(MQGMO_SYNCPOINT);
        let (_, got) = ferrite_test_kit::get_with(&mut getter, input, &mut gmo, 64).unwrap();
        assert_eq!(got, expected);
    }
    getter.commit().unwrap();
    putter.disconnect().unwrap();
    getter.disconnect().unwrap();
}

#[test]
fn the_task_statistics_count_every_adapter_run_and_the_dispatchers_turns() {
    let listener = start(&["Q1"], 2, 3);
    let queue_manager = &listener.fixture.queue_manager;
    // Wait for every task to register (each thread does as it starts), then open an interval.
    let deadline = Instant::now() + Duration::from_secs(60);
    while queue_manager
        .close_statistics_interval()
        .unwrap()
        .tasks
        .len()
        < 5
    {
        assert!(Instant::now() < deadline, "the five tasks never registered");
        std::thread::sleep(Duration::from_millis(10));
    }
    let runs_before = listener.chinit.adapter_runs();
    let mut client = connect(&listener);
    for _ in 0..10 {
        put(&mut client, "Q1", b"counted");
    }
    client.disconnect().unwrap();
    // The adapters' requests are their runs; the last run counts once its reply is out, so
    // the intervals are summed until they account for every run.
    let mut adapter_requests = 0;
    let mut dispatcher_requests = 0;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let records = queue_manager.close_statistics_interval().unwrap();
        let dispatchers: Vec<_> = records
            .tasks
            .iter()
            .filter(|t| t.record == "QCTDSP")
            .collect();
        let adapters: Vec<_> = records
            .tasks
            .iter()
            .filter(|t| t.record == "QCTADP")
            .collect();
        assert_eq!(
            dispatchers.iter().map(|t| t.index).collect::<Vec<_>>(),
            [0, 1]
        );
        assert_eq!(
            adapters.iter().map(|t| t.index).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert!(records.tasks.iter().all(|task| task.cpu_us.is_some()));
        adapter_requests += adapters.iter().map(|t| t.requests).sum::<u64>();
        dispatcher_requests += dispatchers.iter().map(|t| t.requests).sum::<u64>();
        if adapter_requests == listener.chinit.adapter_runs() - runs_before {
            break;
        }
        assert!(Instant::now() < deadline, "adapter runs never all counted");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(adapter_requests >= 2, "MQCONN and MQDISC run on adapters");
    // Each of the ten MQPUTs (and the other calls) reached a dispatcher as a socket event.
    assert!(dispatcher_requests >= 10, "{dispatcher_requests}");
    // The JSON records carry MQSMF's task report.
    let text = std::fs::read_to_string(
        queue_manager
            .directory()
            .join(ferrite_queue_manager::statistics::STATISTICS_FILE),
    )
    .unwrap();
    let adapter = text
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|record| record["Record"] == "QCTADP")
        .expect("a QCTADP record");
    for field in [
        "Task",
        "Requests",
        "Busy_Pct",
        "Avg_ET_us",
        "CPU_Time_us",
        "Avg_CPU_us",
    ] {
        assert!(adapter.get(field).is_some(), "{field} in {adapter}");
    }
}
