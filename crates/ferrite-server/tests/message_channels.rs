//! Message channels over loopback TCP between two queue managers in this process, each with
//! its channel initiator listening on a free port: QM1's SDR channel (started by START
//! CHANNEL) negotiates INITIAL_DATA with QM2's listener, whose RCVR channel puts what arrives.
//! Messages put to a remote queue on QM1 arrive on QM2's local queue in order with their
//! descriptors; a receiver whose listener and channel are stopped and started again gets the
//! rest, nothing lost and nothing twice; CHLAUTH applies to the RCVR channel's MCA user.

mod support;

use std::sync::Arc;
use std::time::Duration;

use ferrite_constants::{
    format::MQFMT_STRING, get_options::*, open_options::*, persistence::*, put_options::*,
    reason::*,
};
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::QueueManager;
use ferrite_server::message_channel::sender_mca::{SenderStatus, StopMode};
use ferrite_server::message_channel::SendingAgent;
use ferrite_server::ServerConfig;
use ferrite_test_kit::mqsc_ok;
use support::{listen, small_config, start_configured, Listener};

const CHANNEL: &str = "QM1.TO.QM2";
/// The longest the test waits for something that must happen (never asserted as a time).
const PATIENCE: Duration = Duration::from_secs(60);

/// QM2 listening with APP.IN and the RCVR channel (`receiver_attributes` added to its
/// DEFINE); QM1 with the remote queue TO.QM2, its transmission queue and the SDR channel
/// whose CONNAME lists a closed port, then QM2's.
fn pair(receiver_attributes: &str, sender_attributes: &str) -> (Listener, Listener) {
    let qm2 = listen(start_configured(
        &["APP.IN"],
        ServerConfig::default(),
        small_config("QM2"),
    ));
    mqsc_ok(
        &qm2.fixture.queue_manager,
        &format!("DEFINE CHANNEL({CHANNEL}) CHLTYPE(RCVR) {receiver_attributes}"),
    );
    let qm1 = listen(start_configured(
        &[],
        ServerConfig::default(),
        small_config("QM1"),
    ));
    let qm = &qm1.fixture.queue_manager;
    mqsc_ok(qm, "DEFINE QLOCAL(QM2) USAGE(XMITQ)");
    mqsc_ok(
        qm,
        "DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)",
    );
    mqsc_ok(
        qm,
        &format!(
            "DEFINE CHANNEL({CHANNEL}) CHLTYPE(SDR) CONNAME('127.0.0.1({}),127.0.0.1({})') XMITQ(QM2) BATCHSZ(4) SHORTRTY(1000) SHORTTMR(1) DISCINT(0) {sender_attributes}",
            closed_port(),
            qm2.port()
        ),
    );
    (qm1, qm2)
}

/// A loopback port nothing listens on (CONNAME's first entry, which the sender passes over).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Put message `index` to TO.QM2: persistent when even, with its own MsgId and CorrelId.
fn put_numbered(qm: &Arc<QueueManager>, indexes: std::ops::Range<u8>) {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    for index in indexes {
        let mut md = numbered_md(index);
        connection
            .put1(
                &mut Mqod::queue("TO.QM2"),
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID),
                format!("message {index}").as_bytes(),
            )
            .unwrap();
    }
}

fn numbered_md(index: u8) -> Mqmd {
    Mqmd {
        persistence: if index.is_multiple_of(2) {
            MQPER_PERSISTENT
        } else {
            MQPER_NOT_PERSISTENT
        },
        format: MQFMT_STRING,
        correl_id: [index; 24],
        ..Mqmd::default()
    }
}

/// The next message on APP.IN, waiting for it (None: nothing came within PATIENCE, or within
/// `wait` when given).
fn get_next(connection: &mut Connection, wait: Option<Duration>) -> Option<(Mqmd, String)> {
    let hobj = connection
        .open(&mut Mqod::queue("APP.IN"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut md = Mqmd::default();
    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.wait_interval = wait.unwrap_or(PATIENCE).as_millis() as i32;
    let mut data = Vec::new();
    let got = connection.get_appending(hobj, &mut md, &mut gmo, &mut data, 1 << 20);
    connection.close(hobj, 0).unwrap();
    match got {
        Ok(_) => Some((md, String::from_utf8(data).unwrap())),
        Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => None,
        Err(error) => panic!("{error}"),
    }
}

/// Gets messages `indexes` from APP.IN on `qm`, in order, each with its descriptor.
fn expect_numbered(qm: &Arc<QueueManager>, indexes: std::ops::Range<u8>) {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    for index in indexes {
        let (md, data) = get_next(&mut connection, None).expect("the message arrives");
        assert_eq!(data, format!("message {index}"), "in order");
        let sent = numbered_md(index);
        assert_eq!(md.persistence, sent.persistence, "message {index}");
        assert_eq!(md.correl_id, sent.correl_id, "message {index}");
        assert_eq!(md.format, MQFMT_STRING);
        assert_ne!(md.msg_id, [0; 24]);
    }
}

/// Waits (at most PATIENCE) until `condition` holds.
fn wait_until(what: &str, condition: impl Fn() -> bool) {
    let started = std::time::Instant::now();
    while !condition() {
        assert!(started.elapsed() < PATIENCE, "{what} never happened");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn depth(qm: &Arc<QueueManager>, queue: &str) -> u64 {
    qm.queue(queue).unwrap().depth()
}

#[test]
fn messages_put_to_a_remote_queue_cross_the_channel_in_order_with_their_descriptors() {
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    put_numbered(&qm1.fixture.queue_manager, 0..10);
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    assert!(
        qm1.chinit.start_channel(CHANNEL).is_err(),
        "a running channel is not started twice"
    );
    expect_numbered(&qm2.fixture.queue_manager, 0..10);
    // Messages put while the channel runs follow.
    put_numbered(&qm1.fixture.queue_manager, 10..21);
    expect_numbered(&qm2.fixture.queue_manager, 10..21);
    wait_until("the last batch confirmed", || {
        sender.snapshot().messages == 21
    });
    let status = sender.snapshot();
    assert_eq!(status.status, SenderStatus::Running);
    assert_eq!(status.last_sequence, 21);
    assert_eq!(status.current_sequence, 21);
    assert!(!status.in_doubt);
    assert!(status.batches >= 6, "BATCHSZ(4): {status:?}");
    assert_eq!(depth(&qm1.fixture.queue_manager, "QM2"), 0);
    // QM2's side of the channel.
    let receiver = qm2
        .chinit
        .instances()
        .into_iter()
        .find(|instance| instance.snapshot().channel == CHANNEL)
        .expect("the RCVR instance runs");
    assert_eq!(receiver.snapshot().messages, 21);

    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(sender.wait_ended(PATIENCE));
    assert_eq!(sender.status(), SenderStatus::Stopped);
    wait_until("the receiving end ended", || {
        qm2.chinit
            .instances()
            .iter()
            .all(|instance| instance.snapshot().channel != CHANNEL)
    });
}

#[test]
fn a_receiver_stopped_and_started_again_gets_the_rest_once() {
    // NPMSPEED(NORMAL): non-persistent messages are in the batch's unit of work too (with
    // FAST, one in a batch that the failure catches in transit is lost, as MQ documents).
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    let port = qm2.port();
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    put_numbered(&qm1.fixture.queue_manager, 0..8);
    expect_numbered(&qm2.fixture.queue_manager, 0..8);

    // The receiving queue manager's listener and channel stop.
    assert!(qm2.chinit.stop_listener());
    assert_eq!(qm2.chinit.stop_channel(CHANNEL), 1);
    put_numbered(&qm1.fixture.queue_manager, 8..20);
    wait_until("the sender retries", || {
        sender.status() == SenderStatus::Retrying
    });
    assert_eq!(
        depth(&qm2.fixture.queue_manager, "APP.IN"),
        0,
        "nothing arrives while the receiver is down"
    );

    qm2.chinit.start_listener(Some(port)).unwrap();
    expect_numbered(&qm2.fixture.queue_manager, 8..20);
    wait_until("every batch confirmed", || {
        let status = sender.snapshot();
        status.status == SenderStatus::Running && !status.in_doubt && status.last_sequence == 20
    });
    assert_eq!(depth(&qm1.fixture.queue_manager, "QM2"), 0);
    let mut connection = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    assert!(
        get_next(&mut connection, Some(Duration::from_millis(200))).is_none(),
        "no message arrives twice"
    );
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn chlauth_blockuser_applies_to_the_receiving_channels_mca_user() {
    let (qm1, qm2) = pair("MCAUSER('NOBODY')", "");
    mqsc_ok(
        &qm2.fixture.queue_manager,
        &format!("SET CHLAUTH('{CHANNEL}') TYPE(BLOCKUSER) USERLIST('NOBODY')"),
    );
    put_numbered(&qm1.fixture.queue_manager, 0..1);
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    wait_until("the receiver refuses", || {
        qm2.log
            .lock()
            .unwrap()
            .iter()
            .any(|line| line.contains("AMQ9776E"))
    });
    wait_until("the sender retries", || {
        sender.status() == SenderStatus::Retrying
    });
    assert_eq!(depth(&qm1.fixture.queue_manager, "QM2"), 1, "nothing moved");
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
}

/// The MQSC commands of `listener`'s queue manager, its channel initiator attached.
fn console(listener: &Listener) -> ferrite_command::CommandProcessor {
    let processor = ferrite_command::CommandProcessor::new(listener.fixture.queue_manager.clone());
    processor.set_channel_initiator(Some(listener.chinit.clone()));
    processor
}

fn run_ok(processor: &ferrite_command::CommandProcessor, command: &str) -> String {
    let response = processor.run(command);
    assert!(response.success, "{command}\n{}", response.text());
    response.text()
}

#[test]
fn mqsc_starts_pings_displays_and_stops_message_channels() {
    let (qm1, qm2) = pair("", "");
    let (mqsc1, mqsc2) = (console(&qm1), console(&qm2));
    let ping = run_ok(&mqsc1, &format!("PING CHANNEL({CHANNEL}) DATALEN(5000)"));
    assert!(ping.contains("AMQ8020I"), "{ping}");
    assert!(
        !mqsc1
            .run(&format!("PING CHANNEL({CHANNEL}) DATALEN(15)"))
            .success
    );

    run_ok(&mqsc1, &format!("START CHANNEL({CHANNEL})"));
    let again = mqsc1.run(&format!("START CHANNEL({CHANNEL})"));
    assert!(!again.success && again.text().contains("already running"));
    put_numbered(&qm1.fixture.queue_manager, 0..6);
    // NPMSPEED(FAST): non-persistent messages may overtake persistent ones of their batch.
    let mut connection = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    for _ in 0..6 {
        get_next(&mut connection, None).expect("the message arrives");
    }
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("the batches confirmed", || sender.snapshot().messages == 6);

    let display = run_ok(&mqsc1, &format!("DISPLAY CHSTATUS({CHANNEL}) ALL"));
    let connected = format!("CONNAME(127.0.0.1({}))", qm2.port());
    for expected in [
        connected.as_str(),
        "CHLTYPE(SDR)",
        "STATUS(RUNNING)",
        "XMITQ(QM2)",
        "MSGS(6)",
        "CURSEQNO(6)",
        "LSTSEQNO(6)",
        "INDOUBT(NO)",
    ] {
        assert!(display.contains(expected), "{expected}:\n{display}");
    }
    let display = run_ok(&mqsc2, "DISPLAY CHSTATUS(*) CHLTYPE(RCVR) ALL");
    for expected in ["CHLTYPE(RCVR)", "STATUS(RUNNING)", "MSGS(6)", "LSTSEQNO(6)"] {
        assert!(display.contains(expected), "{expected}:\n{display}");
    }
    let none = run_ok(&mqsc2, "DISPLAY CHSTATUS(*) CHLTYPE(SVRCONN)");
    assert!(!none.contains(CHANNEL), "{none}");
    assert!(
        !mqsc1.run(&format!("PING CHANNEL({CHANNEL})")).success,
        "a running channel is not pinged"
    );

    run_ok(&mqsc1, &format!("STOP CHANNEL({CHANNEL}) MODE(FORCE)"));
    assert!(sender.wait_ended(PATIENCE));
    let display = run_ok(&mqsc1, &format!("DISPLAY CHSTATUS({CHANNEL})"));
    assert!(display.contains("STATUS(STOPPED)"), "{display}");
    // Started again, it carries on from its sequence number.
    run_ok(&mqsc1, &format!("START CHANNEL({CHANNEL})"));
    put_numbered(&qm1.fixture.queue_manager, 6..7);
    assert_eq!(
        get_next(&mut connection, None)
            .expect("the message arrives")
            .1,
        "message 6"
    );
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("the batch confirmed", || {
        sender.snapshot().last_sequence == 7
    });
    run_ok(&mqsc1, &format!("STOP CHANNEL({CHANNEL}) MODE(QUIESCE)"));
    assert!(sender.wait_ended(PATIENCE));
}

/// A batch QM1's sending agent took from the transmission queue and never had confirmed
/// (the channel stopped in the middle of it): in doubt, as a crash leaves it.
fn leave_batch_in_doubt(qm: &Arc<QueueManager>, messages: usize) {
    let channel = qm.channel(CHANNEL).unwrap();
    let mut agent = SendingAgent::open(qm.clone(), &channel).unwrap();
    assert_eq!(
        agent.next_batch().unwrap().unwrap().messages.len(),
        messages
    );
}

#[test]
fn resolve_channel_backs_out_or_commits_an_in_doubt_batch() {
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    let mqsc1 = console(&qm1);
    let qm = &qm1.fixture.queue_manager;
    put_numbered(qm, 0..3);
    leave_batch_in_doubt(qm, 3);
    assert_eq!(depth(qm, "QM2"), 0);
    let resolved = run_ok(
        &mqsc1,
        &format!("RESOLVE CHANNEL({CHANNEL}) ACTION(BACKOUT)"),
    );
    assert!(
        resolved.contains("batch of 3 messages backed out"),
        "{resolved}"
    );
    assert_eq!(depth(qm, "QM2"), 3, "back on the transmission queue");
    run_ok(&mqsc1, &format!("START CHANNEL({CHANNEL})"));
    let resolving = mqsc1.run(&format!("RESOLVE CHANNEL({CHANNEL}) ACTION(COMMIT)"));
    assert!(!resolving.success, "a running channel is not resolved");
    expect_numbered(&qm2.fixture.queue_manager, 0..3);
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("the batch confirmed", || sender.snapshot().messages == 3);
    run_ok(&mqsc1, &format!("STOP CHANNEL({CHANNEL}) MODE(FORCE)"));
    assert!(sender.wait_ended(PATIENCE));

    // COMMIT: the operator knows the batch arrived; it is not sent again.
    put_numbered(qm, 3..5);
    leave_batch_in_doubt(qm, 2);
    let resolved = run_ok(
        &mqsc1,
        &format!("RESOLVE CHANNEL({CHANNEL}) ACTION(COMMIT)"),
    );
    assert!(
        resolved.contains("batch of 2 messages committed"),
        "{resolved}"
    );
    assert_eq!(depth(qm, "QM2"), 0);
    assert!(
        !mqsc1.run(&format!("RESOLVE CHANNEL({CHANNEL})")).success,
        "ACTION is required"
    );
    run_ok(&mqsc1, &format!("START CHANNEL({CHANNEL})"));
    put_numbered(qm, 5..6);
    expect_numbered(&qm2.fixture.queue_manager, 5..6);
    let mut connection = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    assert!(get_next(&mut connection, Some(Duration::from_millis(200))).is_none());
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    run_ok(&mqsc1, &format!("STOP CHANNEL({CHANNEL})"));
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn a_triggered_transmission_queue_starts_its_channel() {
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    let qm = &qm1.fixture.queue_manager;
    mqsc_ok(
        qm,
        &format!("ALTER QLOCAL(QM2) TRIGGER TRIGTYPE(FIRST) INITQ(SYSTEM.CHANNEL.INITQ) TRIGDATA({CHANNEL})"),
    );
    assert!(qm1.chinit.sender(CHANNEL).is_none(), "not started by hand");
    put_numbered(qm, 0..3);
    expect_numbered(&qm2.fixture.queue_manager, 0..3);
    let sender = qm1.chinit.sender(CHANNEL).expect("started by its trigger");
    wait_until("the batch confirmed", || sender.snapshot().messages == 3);
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(sender.wait_ended(PATIENCE));

    // Blank TRIGDATA: the SDR channel whose XMITQ is the queue.
    mqsc_ok(qm, "ALTER QLOCAL(QM2) TRIGDATA(' ')");
    put_numbered(qm, 3..5);
    expect_numbered(&qm2.fixture.queue_manager, 3..5);
    let restarted = qm1.chinit.sender(CHANNEL).unwrap();
    assert!(
        !Arc::ptr_eq(&restarted, &sender),
        "started again by its trigger"
    );
    assert!(qm1
        .log
        .lock()
        .unwrap()
        .iter()
        .any(|line| line.contains("started by a trigger")));
}

#[test]
fn an_idle_sender_finds_a_receiver_gone() {
    let (qm1, qm2) = pair("HBINT(1)", "HBINT(1)");
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    put_numbered(&qm1.fixture.queue_manager, 0..1);
    expect_numbered(&qm2.fixture.queue_manager, 0..1);
    wait_until("running", || sender.snapshot().messages == 1);
    // The receiver goes while nothing is to be sent: its connection closing is noticed
    // between batches (a partner gone without closing is the heartbeat's: below).
    assert!(qm2.chinit.stop_listener());
    assert_eq!(qm2.chinit.stop_channel(CHANNEL), 1);
    wait_until("the sender retries", || {
        sender.status() == SenderStatus::Retrying
    });
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn sequence_numbers_out_of_step_stop_the_channel_until_reset_channel() {
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    let (mqsc1, mqsc2) = (console(&qm1), console(&qm2));
    run_ok(&mqsc1, &format!("START CHANNEL({CHANNEL})"));
    put_numbered(&qm1.fixture.queue_manager, 0..2);
    expect_numbered(&qm2.fixture.queue_manager, 0..2);
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("confirmed", || sender.snapshot().last_sequence == 2);
    run_ok(&mqsc1, &format!("STOP CHANNEL({CHANNEL}) MODE(FORCE)"));
    assert!(sender.wait_ended(PATIENCE));
    wait_until("the receiving end ended", || {
        qm2.chinit.instances().is_empty()
    });

    // The receiver is reset ahead of the sender: messages would be taken for duplicates.
    run_ok(&mqsc2, &format!("RESET CHANNEL({CHANNEL}) SEQNUM(10)"));
    run_ok(&mqsc1, &format!("START CHANNEL({CHANNEL})"));
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("the sequence error", || {
        qm1.log
            .lock()
            .unwrap()
            .iter()
            .any(|line| line.contains("AMQ9526E"))
    });
    assert!(
        !mqsc1.run(&format!("RESET CHANNEL({CHANNEL})")).success,
        "a running channel is not reset"
    );
    run_ok(&mqsc1, &format!("STOP CHANNEL({CHANNEL}) MODE(FORCE)"));
    assert!(sender.wait_ended(PATIENCE));

    // RESET CHANNEL at the sender: its partner is told at the next start.
    run_ok(&mqsc1, &format!("RESET CHANNEL({CHANNEL}) SEQNUM(1)"));
    run_ok(&mqsc1, &format!("START CHANNEL({CHANNEL})"));
    put_numbered(&qm1.fixture.queue_manager, 2..4);
    expect_numbered(&qm2.fixture.queue_manager, 2..4);
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("confirmed", || sender.snapshot().last_sequence == 2);
    let display = run_ok(
        &mqsc1,
        &format!("DISPLAY CHSTATUS({CHANNEL}) CURSEQNO LSTSEQNO"),
    );
    assert!(
        display.contains("CURSEQNO(2)") && display.contains("LSTSEQNO(2)"),
        "{display}"
    );
    run_ok(&mqsc1, &format!("STOP CHANNEL({CHANNEL})"));
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn a_large_message_crosses_in_segments_and_an_unknown_queue_goes_to_the_dead_letter_queue() {
    let (qm1, qm2) = pair("", "");
    let qm = &qm1.fixture.queue_manager;
    // Larger than the 1 MiB transmission size both ends propose: several TSH segments.
    let large: Vec<u8> = (0..(2 * 1024 * 1024 + 17))
        .map(|i| (i % 253) as u8)
        .collect();
    mqsc_ok(
        qm,
        "DEFINE QREMOTE(TO.NOWHERE) RNAME(NO.SUCH.Q) RQMNAME(QM2) XMITQ(QM2)",
    );
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    for (queue, data) in [("TO.NOWHERE", &b"lost"[..]), ("TO.QM2", &large[..])] {
        let mut md = Mqmd {
            persistence: MQPER_PERSISTENT,
            ..Mqmd::default()
        };
        let options = Mqpmo::with_options(MQPMO_NO_SYNCPOINT);
        connection
            .put1(&mut Mqod::queue(queue), &mut md, &mut { options }, data)
            .unwrap();
    }
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    let mut receiving = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    let hobj = receiving
        .open(&mut Mqod::queue("APP.IN"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.wait_interval = PATIENCE.as_millis() as i32;
    let mut data = Vec::new();
    receiving
        .get_appending(hobj, &mut Mqmd::default(), &mut gmo, &mut data, 4 << 20)
        .unwrap();
    assert!(data == large, "the large message arrives whole");
    wait_until("confirmed", || sender.snapshot().messages == 2);
    assert_eq!(
        depth(&qm2.fixture.queue_manager, "SYSTEM.DEAD.LETTER.QUEUE"),
        1
    );
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(sender.wait_ended(PATIENCE));
}

/// QM1 listening with the remote queue TO.QM2, its transmission queue QM2 and the SVR channel
/// (blank CONNAME unless `server_attributes` gives one); QM2 listening with APP.IN and the
/// RQSTR channel whose CONNAME is QM1's listener.
fn requester_pair(server_attributes: &str) -> (Listener, Listener) {
    let qm1 = listen(start_configured(
        &[],
        ServerConfig::default(),
        small_config("QM1"),
    ));
    let qm = &qm1.fixture.queue_manager;
    mqsc_ok(qm, "DEFINE QLOCAL(QM2) USAGE(XMITQ)");
    mqsc_ok(
        qm,
        "DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)",
    );
    mqsc_ok(
        qm,
        &format!("DEFINE CHANNEL({CHANNEL}) CHLTYPE(SVR) XMITQ(QM2) BATCHSZ(4) NPMSPEED(NORMAL) DISCINT(0) {server_attributes}"),
    );
    let qm2 = listen(start_configured(
        &["APP.IN"],
        ServerConfig::default(),
        small_config("QM2"),
    ));
    mqsc_ok(
        &qm2.fixture.queue_manager,
        &format!(
            "DEFINE CHANNEL({CHANNEL}) CHLTYPE(RQSTR) CONNAME('127.0.0.1({})') NPMSPEED(NORMAL)",
            qm1.port()
        ),
    );
    (qm1, qm2)
}

fn logged(listener: &Listener, text: &str) -> bool {
    listener
        .log
        .lock()
        .unwrap()
        .iter()
        .any(|line| line.contains(text))
}

#[test]
fn a_started_requester_receives_the_servers_transmission_queue_on_its_connection() {
    let (qm1, qm2) = requester_pair("");
    let (mqsc1, mqsc2) = (console(&qm1), console(&qm2));
    put_numbered(&qm1.fixture.queue_manager, 0..6);
    assert!(
        !mqsc1.run(&format!("START CHANNEL({CHANNEL})")).success,
        "a SVR without a CONNAME waits for its requester"
    );
    run_ok(&mqsc2, &format!("START CHANNEL({CHANNEL})"));
    expect_numbered(&qm2.fixture.queue_manager, 0..6);
    let server = qm1
        .chinit
        .sender(CHANNEL)
        .expect("the requester started the SVR");
    wait_until("the batches confirmed", || {
        server.snapshot().last_sequence == 6
    });
    let requester = qm2.chinit.sender(CHANNEL).unwrap();
    wait_until("the requester committed", || {
        requester.snapshot().last_sequence == 6
    });
    let display = run_ok(&mqsc1, &format!("DISPLAY CHSTATUS({CHANNEL}) ALL"));
    for expected in [
        "CHLTYPE(SVR)",
        "STATUS(RUNNING)",
        "XMITQ(QM2)",
        "MSGS(6)",
        "LSTSEQNO(6)",
    ] {
        assert!(display.contains(expected), "{expected}:\n{display}");
    }
    let display = run_ok(&mqsc2, &format!("DISPLAY CHSTATUS({CHANNEL}) ALL"));
    for expected in [
        "CHLTYPE(RQSTR)",
        "STATUS(RUNNING)",
        "MSGS(6)",
        "LSTSEQNO(6)",
    ] {
        assert!(display.contains(expected), "{expected}:\n{display}");
    }
    assert!(
        !mqsc2.run(&format!("START CHANNEL({CHANNEL})")).success,
        "a running requester is not started twice"
    );

    // The requester stops; the server's session ends with it. Started again, the sequence
    // numbers carry on from both ends' records.
    run_ok(&mqsc2, &format!("STOP CHANNEL({CHANNEL})"));
    assert!(requester.wait_ended(PATIENCE));
    assert!(server.wait_ended(PATIENCE));
    put_numbered(&qm1.fixture.queue_manager, 6..9);
    run_ok(&mqsc2, &format!("START CHANNEL({CHANNEL})"));
    expect_numbered(&qm2.fixture.queue_manager, 6..9);
    let server = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("the batch confirmed", || {
        server.snapshot().last_sequence == 9
    });
    let mut connection = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    assert!(get_next(&mut connection, Some(Duration::from_millis(200))).is_none());
    run_ok(&mqsc1, &format!("STOP CHANNEL({CHANNEL}) MODE(FORCE)"));
    assert!(server.wait_ended(PATIENCE));
}

#[test]
fn a_servers_in_doubt_batch_is_resolved_when_its_requester_connects() {
    let (qm1, qm2) = requester_pair("");
    let qm = &qm1.fixture.queue_manager;
    put_numbered(qm, 0..3);
    leave_batch_in_doubt(qm, 3);
    put_numbered(qm, 3..5);
    qm2.chinit.start_channel(CHANNEL).unwrap();
    expect_numbered(&qm2.fixture.queue_manager, 0..5);
    let server = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("confirmed", || {
        let status = server.snapshot();
        !status.in_doubt && status.last_sequence == 5
    });
    let mut connection = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    assert!(
        get_next(&mut connection, Some(Duration::from_millis(200))).is_none(),
        "no message arrives twice"
    );
    assert_eq!(depth(qm, "QM2"), 0);
    assert!(qm2.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(server.wait_ended(PATIENCE));
}

#[test]
fn a_server_with_a_conname_starts_like_a_sender_and_its_requester_receives() {
    let (qm1, qm2) = requester_pair("");
    mqsc_ok(
        &qm1.fixture.queue_manager,
        &format!(
            "ALTER CHANNEL({CHANNEL}) CHLTYPE(SVR) CONNAME('127.0.0.1({})')",
            qm2.port()
        ),
    );
    put_numbered(&qm1.fixture.queue_manager, 0..5);
    let server = qm1.chinit.start_channel(CHANNEL).unwrap();
    expect_numbered(&qm2.fixture.queue_manager, 0..5);
    wait_until("confirmed", || server.snapshot().last_sequence == 5);
    let display = run_ok(&console(&qm2), "DISPLAY CHSTATUS(*) ALL");
    assert!(
        display.contains("CHLTYPE(RQSTR)") && display.contains("LSTSEQNO(5)"),
        "{display}"
    );
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(server.wait_ended(PATIENCE));
}

#[test]
fn a_requester_asking_a_sender_is_called_back() {
    let (qm1, qm2) = requester_pair("");
    let qm = &qm1.fixture.queue_manager;
    mqsc_ok(qm, &format!("DELETE CHANNEL({CHANNEL})"));
    mqsc_ok(
        qm,
        &format!(
            "DEFINE CHANNEL({CHANNEL}) CHLTYPE(SDR) XMITQ(QM2) CONNAME('127.0.0.1({})') NPMSPEED(NORMAL) DISCINT(0)",
            qm2.port()
        ),
    );
    put_numbered(qm, 0..4);
    qm2.chinit.start_channel(CHANNEL).unwrap();
    expect_numbered(&qm2.fixture.queue_manager, 0..4);
    let sender = qm1.chinit.sender(CHANNEL).expect("called back");
    assert_eq!(sender.snapshot().channel_type.keyword(), "SDR");
    wait_until("confirmed", || sender.snapshot().last_sequence == 4);
    assert!(logged(&qm1, "callback"));
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn a_requester_naming_an_unknown_or_unsuitable_channel_is_refused_with_mqs_reason() {
    let (qm1, qm2) = requester_pair("");
    let qm = &qm2.fixture.queue_manager;
    put_numbered(&qm1.fixture.queue_manager, 0..2);
    for (name, reason) in [
        ("NO.SUCH.CHANNEL", "reason 2540"),
        ("SOME.RCVR", "reason 2539"),
    ] {
        mqsc_ok(
            qm,
            &format!(
                "DEFINE CHANNEL({name}) CHLTYPE(RQSTR) CONNAME('127.0.0.1({})')",
                qm1.port()
            ),
        );
        mqsc_ok(
            &qm1.fixture.queue_manager,
            "DEFINE CHANNEL(SOME.RCVR) CHLTYPE(RCVR) REPLACE",
        );
        let requester = qm2.chinit.start_channel(name).unwrap();
        assert!(requester.wait_ended(PATIENCE));
        assert_eq!(requester.status(), SenderStatus::Stopped, "{name}");
        assert!(logged(&qm2, reason), "{name}: {reason}");
    }
    assert_eq!(depth(&qm1.fixture.queue_manager, "QM2"), 2, "nothing moved");
    assert!(qm1.chinit.sender(CHANNEL).is_none());
}

#[test]
fn a_requester_that_answers_the_server_with_garbage_loses_nothing() {
    use ferrite_protocol::segment::SegmentType;
    use ferrite_protocol::transport::Transport;
    use ferrite_server::message_channel::negotiation;
    use ferrite_server::message_channel::session::{send_flow, FLOW_ORDER};
    use std::io::Write;
    let (qm1, qm2) = requester_pair("");
    let qm = &qm1.fixture.queue_manager;
    put_numbered(qm, 0..3);
    let stream = std::net::TcpStream::connect(("127.0.0.1", qm1.port())).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut raw = stream.try_clone().unwrap();
    let mut transport = Transport::new(stream);
    let requester = qm2.fixture.queue_manager.channel(CHANNEL).unwrap();
    let request = negotiation::request(&requester, &qm2.fixture.queue_manager, 32768);
    send_flow(
        &mut transport,
        SegmentType::InitialData,
        &request.encode(FLOW_ORDER),
    )
    .unwrap();
    let answer = transport.read_flow().unwrap();
    assert_eq!(answer.header.segment_type, SegmentType::InitialData);
    let proposal = transport.read_flow().unwrap();
    assert_eq!(
        proposal.header.segment_type,
        SegmentType::InitialData,
        "the server proposes as a sender on the requester's connection"
    );
    raw.write_all(b"not a transmission segment header at all")
        .unwrap();
    wait_until("the server ended", || {
        qm1.chinit
            .sender(CHANNEL)
            .is_some_and(|server| server.ended())
    });
    assert_eq!(depth(qm, "QM2"), 3, "nothing was taken");
    // The real requester gets every message once.
    qm2.chinit.start_channel(CHANNEL).unwrap();
    expect_numbered(&qm2.fixture.queue_manager, 0..3);
    let mut connection = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    assert!(get_next(&mut connection, Some(Duration::from_millis(200))).is_none());
    assert!(qm2.chinit.stop_sender(CHANNEL, StopMode::Force));
}

/// Whether the transmission queue QM2 on `qm` shows no message to a browse (a message a
/// sending agent got in its open batch is locked).
fn transmission_queue_looks_empty(qm: &Arc<QueueManager>) -> bool {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("QM2"), MQOO_BROWSE)
        .unwrap();
    let mut gmo = Mqgmo::with_options(MQGMO_BROWSE_FIRST | MQGMO_NO_WAIT);
    let got = connection.get_appending(
        hobj,
        &mut Mqmd::default(),
        &mut gmo,
        &mut Vec::new(),
        1 << 20,
    );
    matches!(got, Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE)
}

#[test]
fn batchint_keeps_a_batch_open_for_more_messages() {
    // BATCHINT of a minute: the batch that took message 0 waits for 1 to 3 and ends at
    // BATCHSZ(4), one batch of four where BATCHINT(0) would have sent two.
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL) BATCHINT(60000)");
    let qm = &qm1.fixture.queue_manager;
    put_numbered(qm, 0..1);
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    wait_until("the batch took message 0", || {
        transmission_queue_looks_empty(qm)
    });
    assert_eq!(
        depth(&qm2.fixture.queue_manager, "APP.IN"),
        0,
        "the batch is open"
    );
    put_numbered(qm, 1..4);
    expect_numbered(&qm2.fixture.queue_manager, 0..4);
    wait_until("confirmed", || sender.snapshot().last_sequence == 4);
    assert_eq!(sender.snapshot().batches, 1, "{:?}", sender.snapshot());
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn batchhb_checks_the_receiver_is_there_before_a_batch_after_a_quiet_spell() {
    for (attribute, expect_heartbeat) in [("BATCHHB(5)", true), ("BATCHHB(0)", false)] {
        let (qm1, qm2) = pair("NPMSPEED(NORMAL)", &format!("NPMSPEED(NORMAL) {attribute}"));
        let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
        put_numbered(&qm1.fixture.queue_manager, 0..1);
        expect_numbered(&qm2.fixture.queue_manager, 0..1);
        wait_until("confirmed", || sender.snapshot().last_sequence == 1);
        // Longer than BATCHHB without a flow: the next batch is preceded by a heartbeat.
        std::thread::sleep(Duration::from_millis(50));
        put_numbered(&qm1.fixture.queue_manager, 1..2);
        expect_numbered(&qm2.fixture.queue_manager, 1..2);
        wait_until("confirmed", || sender.snapshot().last_sequence == 2);
        let heartbeats = sender
            .batch_heartbeats
            .load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(
            heartbeats >= 1,
            expect_heartbeat,
            "{attribute}: {heartbeats}"
        );
        assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
        assert!(sender.wait_ended(PATIENCE));
    }
}

/// The channel events on `listener`'s SYSTEM.ADMIN.CHANNEL.EVENT, taken off it in order:
/// each one's reason and its parameters as (parameter, integer or trimmed string) pairs.
fn take_channel_events(listener: &Listener) -> Vec<(i32, Vec<(i32, String)>)> {
    use ferrite_command::pcf::{decode_event, ByteOrder, Parameter};
    use ferrite_constants::{encoding::MQENC_NATIVE, format::MQFMT_EVENT};
    let mut connection = Connection::connect(listener.fixture.queue_manager.clone(), "").unwrap();
    let hobj = connection
        .open(
            &mut Mqod::queue("SYSTEM.ADMIN.CHANNEL.EVENT"),
            MQOO_INPUT_SHARED,
        )
        .unwrap();
    let mut events = Vec::new();
    loop {
        let mut md = Mqmd::default();
        let mut data = Vec::new();
        let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT);
        match connection.get_appending(hobj, &mut md, &mut gmo, &mut data, 1 << 16) {
            Ok(_) => {}
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
            Err(error) => panic!("{error}"),
        }
        assert_eq!(md.format, MQFMT_EVENT);
        let event = decode_event(&data, ByteOrder::of_encoding(MQENC_NATIVE)).unwrap();
        // MQCFT_EVENT, MQCMD_CHANNEL_EVENT, MQCC_WARNING.
        assert_eq!(
            (
                event.header.kind,
                event.header.command,
                event.header.comp_code
            ),
            (7, 46, 1)
        );
        let parameters = event
            .parameters
            .iter()
            .map(|parameter| match parameter {
                Parameter::Integer { parameter, value } => (*parameter, value.to_string()),
                Parameter::String { parameter, value } => (*parameter, value.trim().to_string()),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        events.push((event.header.reason, parameters));
    }
    events
}

/// Waits until `listener` has put as many channel events as `reasons` has, and checks they
/// end with `reasons`: all events taken.
fn wait_for_channel_events(listener: &Listener, reasons: &[i32]) -> Vec<(i32, Vec<(i32, String)>)> {
    let events = std::cell::RefCell::new(Vec::new());
    wait_until("the channel events", || {
        let mut events = events.borrow_mut();
        events.extend(take_channel_events(listener));
        events.len() >= reasons.len()
    });
    let events = events.into_inner();
    let got: Vec<i32> = events.iter().map(|(reason, _)| *reason).collect();
    assert!(got.ends_with(reasons), "{got:?}");
    events
}

#[test]
fn channel_events_report_started_stopped_and_stopped_by_user_as_chlev_asks() {
    use ferrite_constants::{pcf_selector::*, selector::MQCA_Q_MGR_NAME};
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    for listener in [&qm1, &qm2] {
        mqsc_ok(&listener.fixture.queue_manager, "ALTER QMGR CHLEV(ENABLED)");
    }
    let mqsc1 = console(&qm1);
    run_ok(&mqsc1, &format!("START CHANNEL({CHANNEL})"));
    put_numbered(&qm1.fixture.queue_manager, 0..2);
    expect_numbered(&qm2.fixture.queue_manager, 0..2);
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    run_ok(&mqsc1, &format!("STOP CHANNEL({CHANNEL})"));
    assert!(sender.wait_ended(PATIENCE));

    // The sender: Channel Started (with its transmission queue and the address it reached),
    // then Channel Stopped By User.
    let events = wait_for_channel_events(&qm1, &[2282, 2279]);
    let reached = format!("127.0.0.1({})", qm2.port());
    assert_eq!(
        events,
        vec![
            (
                2282,
                vec![
                    (MQCA_Q_MGR_NAME, "QM1".to_string()),
                    (MQCACH_CHANNEL_NAME, CHANNEL.to_string()),
                    (MQCACH_XMIT_Q_NAME, "QM2".to_string()),
                    (MQCACH_CONNECTION_NAME, reached),
                ]
            ),
            (
                2279,
                vec![
                    (MQCA_Q_MGR_NAME, "QM1".to_string()),
                    (MQIACF_REASON_QUALIFIER, "10".to_string()),
                    (MQCACH_CHANNEL_NAME, CHANNEL.to_string()),
                ]
            ),
        ]
    );
    // The receiver: Channel Started, then Channel Stopped OK when the sender closed.
    let events = wait_for_channel_events(&qm2, &[2282, 2283]);
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0].0, 2282);
    assert!(
        !events[0]
            .1
            .iter()
            .any(|(parameter, _)| *parameter == MQCACH_XMIT_Q_NAME),
        "a receiver has no transmission queue: {events:?}"
    );
    assert_eq!(events[1].0, 2283);
    assert_eq!(events[1].1[1], (MQIACF_REASON_QUALIFIER, "7".to_string()));
    assert_eq!(events[1].1[3], (MQIACF_ERROR_IDENTIFIER, "0".to_string()));

    // CHLEV(EXCEPTION): no Channel Started; a sender whose receiver goes is stopped into
    // retry (MQRQ_CHANNEL_STOPPED_RETRY), and the receiver's STOP CHANNEL is by user.
    for listener in [&qm1, &qm2] {
        mqsc_ok(
            &listener.fixture.queue_manager,
            "ALTER QMGR CHLEV(EXCEPTION)",
        );
    }
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    put_numbered(&qm1.fixture.queue_manager, 2..3);
    expect_numbered(&qm2.fixture.queue_manager, 2..3);
    assert!(qm2.chinit.stop_listener());
    run_ok(&console(&qm2), &format!("STOP CHANNEL({CHANNEL})"));
    wait_until("the sender retries", || {
        sender.status() == SenderStatus::Retrying
    });
    let events = wait_for_channel_events(&qm1, &[2283]);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].0, 2283);
    assert_eq!(events[0].1[1], (MQIACF_REASON_QUALIFIER, "9".to_string()));
    assert_eq!(
        events[0].1[3],
        (MQIACF_ERROR_IDENTIFIER, "9999".to_string())
    );
    let events = wait_for_channel_events(&qm2, &[2279]);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].0, 2279);
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
}

/// PCF `command` with `parameters` run by `listener`'s command processor: the reason of the
/// first response (0: success) and every response's parameters.
fn pcf(
    listener: &Listener,
    command: i32,
    parameters: Vec<ferrite_command::pcf::Parameter>,
) -> (i32, Vec<Vec<ferrite_command::pcf::Parameter>>) {
    use ferrite_command::pcf::{PcfHeader, PcfMessage};
    use ferrite_constants::pcf::*;
    let request = PcfMessage {
        header: PcfHeader {
            kind: MQCFT_COMMAND,
            version: MQCFH_VERSION_1,
            command,
            msg_seq_number: 1,
            control: MQCFC_LAST,
            comp_code: 0,
            reason: 0,
            parameter_count: parameters.len() as i32,
        },
        parameters,
    };
    let responses = ferrite_command::pcf_commands::execute_message(&console(listener), &request);
    assert!(!responses.is_empty());
    (
        responses[0].header.reason,
        responses
            .into_iter()
            .map(|response| response.parameters)
            .collect(),
    )
}

#[test]
fn pcf_starts_pings_inquires_stops_resets_and_resolves_message_channels() {
    use ferrite_command::pcf::Parameter;
    use ferrite_constants::{channel::*, misc::*, pcf::*, pcf_reason::*, pcf_selector::*};
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    let name = |channel: &str| Parameter::string(MQCACH_CHANNEL_NAME, channel);
    let int = Parameter::integer;
    let reason = |listener, command, parameters| pcf(listener, command, parameters).0;

    assert_eq!(
        reason(
            &qm1,
            MQCMD_PING_CHANNEL,
            vec![name(CHANNEL), int(MQIACH_DATA_COUNT, 5)]
        ),
        MQRCCF_PING_DATA_COUNT_ERROR
    );
    assert_eq!(
        reason(
            &qm1,
            MQCMD_PING_CHANNEL,
            vec![name(CHANNEL), int(MQIACH_DATA_COUNT, 500)]
        ),
        0
    );
    assert_eq!(
        reason(&qm1, MQCMD_START_CHANNEL, vec![name("NO.SUCH.CHANNEL")]),
        MQRCCF_CHANNEL_NOT_FOUND
    );
    assert_eq!(
        reason(&qm2, MQCMD_START_CHANNEL, vec![name(CHANNEL)]),
        MQRCCF_CHANNEL_TYPE_ERROR,
        "a RCVR is not started"
    );
    assert_eq!(reason(&qm1, MQCMD_START_CHANNEL, vec![name(CHANNEL)]), 0);
    assert_eq!(
        reason(&qm1, MQCMD_START_CHANNEL, vec![name(CHANNEL)]),
        MQRCCF_CHANNEL_IN_USE
    );
    put_numbered(&qm1.fixture.queue_manager, 0..3);
    expect_numbered(&qm2.fixture.queue_manager, 0..3);
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("confirmed", || sender.snapshot().last_sequence == 3);

    let (status, responses) = pcf(&qm1, MQCMD_INQUIRE_CHANNEL_STATUS, vec![name("QM1.*")]);
    assert_eq!(status, 0);
    let value = |id: i32| {
        responses[0]
            .iter()
            .find(|parameter| parameter.id() == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id} in {responses:?}"))
    };
    assert_eq!(
        value(MQIACH_CHANNEL_TYPE),
        int(MQIACH_CHANNEL_TYPE, MQCHT_SENDER)
    );
    assert_eq!(
        value(MQIACH_CHANNEL_STATUS),
        int(MQIACH_CHANNEL_STATUS, MQCHS_RUNNING)
    );
    assert_eq!(
        value(MQIACH_LAST_SEQ_NUMBER),
        int(MQIACH_LAST_SEQ_NUMBER, 3)
    );
    assert_eq!(
        value(MQIACH_INDOUBT_STATUS),
        int(MQIACH_INDOUBT_STATUS, MQCHIDS_NOT_INDOUBT)
    );
    assert!(
        matches!(value(MQCACH_XMIT_Q_NAME), Parameter::String { value, .. } if value.trim() == "QM2")
    );
    let (status, responses) = pcf(&qm2, MQCMD_INQUIRE_CHANNEL_STATUS, vec![name(CHANNEL)]);
    assert_eq!(status, 0);
    assert!(responses[0].contains(&int(MQIACH_CHANNEL_TYPE, MQCHT_RECEIVER)));
    assert_eq!(
        reason(
            &qm1,
            MQCMD_INQUIRE_CHANNEL_STATUS,
            vec![name("*"), int(MQIACH_CHANNEL_TYPE, MQCHT_SVRCONN)]
        ),
        MQRCCF_CHL_STATUS_NOT_FOUND
    );

    // A running channel is not pinged, reset or resolved.
    for (command, extra) in [
        (MQCMD_PING_CHANNEL, None),
        (MQCMD_RESET_CHANNEL, None),
        (
            MQCMD_RESOLVE_CHANNEL,
            Some(int(MQIACH_IN_DOUBT, MQIDO_COMMIT)),
        ),
    ] {
        let parameters = std::iter::once(name(CHANNEL)).chain(extra).collect();
        assert_eq!(
            reason(&qm1, command, parameters),
            MQRCCF_CHANNEL_IN_USE,
            "{command}"
        );
    }
    assert_eq!(
        reason(
            &qm1,
            MQCMD_RESOLVE_CHANNEL,
            vec![name(CHANNEL), int(MQIACH_IN_DOUBT, 7)]
        ),
        MQRCCF_INDOUBT_VALUE_ERROR
    );
    assert_eq!(
        reason(
            &qm1,
            MQCMD_STOP_CHANNEL,
            vec![name(CHANNEL), int(MQIACF_MODE, 9)]
        ),
        MQRCCF_MODE_VALUE_ERROR
    );
    assert_eq!(
        reason(
            &qm1,
            MQCMD_STOP_CHANNEL,
            vec![name(CHANNEL), int(MQIACF_MODE, MQMODE_FORCE)]
        ),
        0
    );
    assert!(sender.wait_ended(PATIENCE));
    wait_until("the receiving end ended", || {
        qm2.chinit.instances().is_empty()
    });
    assert_eq!(
        reason(&qm1, MQCMD_STOP_CHANNEL, vec![name(CHANNEL)]),
        MQRCCF_CHANNEL_NOT_ACTIVE
    );
    assert_eq!(
        reason(
            &qm1,
            MQCMD_RESOLVE_CHANNEL,
            vec![name(CHANNEL), int(MQIACH_IN_DOUBT, MQIDO_BACKOUT)]
        ),
        0
    );
    assert_eq!(
        reason(
            &qm1,
            MQCMD_RESET_CHANNEL,
            vec![name(CHANNEL), int(MQIACH_MSG_SEQUENCE_NUMBER, 0)]
        ),
        MQRCCF_MSG_SEQ_NUMBER_ERROR
    );
    // Both ends reset to 1; the channel carries on from there.
    for listener in [&qm1, &qm2] {
        assert_eq!(
            reason(
                listener,
                MQCMD_RESET_CHANNEL,
                vec![name(CHANNEL), int(MQIACH_MSG_SEQUENCE_NUMBER, 1)]
            ),
            0
        );
    }
    assert_eq!(reason(&qm1, MQCMD_START_CHANNEL, vec![name(CHANNEL)]), 0);
    put_numbered(&qm1.fixture.queue_manager, 3..4);
    expect_numbered(&qm2.fixture.queue_manager, 3..4);
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("confirmed", || sender.snapshot().last_sequence == 1);
    assert_eq!(reason(&qm1, MQCMD_STOP_CHANNEL, vec![name(CHANNEL)]), 0);
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn a_sender_that_breaks_off_a_batch_with_garbage_has_its_open_batch_backed_out() {
    use ferrite_mqi::name_resolution::RemoteDestination;
    use ferrite_mqi::transmission_queue::transmission_message;
    use ferrite_protocol::message_channel::message_flow_segments;
    use ferrite_protocol::segment::SegmentType;
    use ferrite_protocol::transport::Transport;
    use ferrite_server::message_channel::negotiation;
    use ferrite_server::message_channel::session::{
        confirmed_sequence, send_flow, FLOW_CCSID, FLOW_ENCODING, FLOW_ORDER,
    };
    use std::io::Write;
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    let qm = &qm1.fixture.queue_manager;
    // A sending MCA of QM1's channel, by hand: negotiation, then one message of a batch
    // (not its end), then bytes that are no flow at all.
    let stream = std::net::TcpStream::connect(("127.0.0.1", qm2.port())).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut raw = stream.try_clone().unwrap();
    let mut transport = Transport::new(stream);
    let proposal = negotiation::proposal(&qm.channel(CHANNEL).unwrap(), qm, 32768);
    send_flow(
        &mut transport,
        SegmentType::InitialData,
        &proposal.encode(FLOW_ORDER),
    )
    .unwrap();
    assert_eq!(
        transport.read_flow().unwrap().header.segment_type,
        SegmentType::InitialData
    );
    assert_eq!(confirmed_sequence(&transport.read_flow().unwrap()), Ok(0));
    let destination = RemoteDestination {
        transmission_queue: "QM2".into(),
        remote_q_name: "APP.IN".into(),
        remote_q_mgr_name: "QM2".into(),
    };
    let (_, transmitted) = transmission_message(&numbered_md(0), &destination, b"message 0");
    for segment in message_flow_segments(
        1,
        &transmitted,
        FLOW_ORDER,
        FLOW_ENCODING,
        FLOW_CCSID,
        32768,
        false,
    )
    .unwrap()
    {
        raw.write_all(&segment.encode().unwrap()).unwrap();
    }
    raw.write_all(b"garbage where a transmission segment header belongs")
        .unwrap();
    wait_until("the receiving end ended", || {
        qm2.chinit.instances().is_empty()
    });
    assert_eq!(
        depth(&qm2.fixture.queue_manager, "APP.IN"),
        0,
        "the unconfirmed batch was backed out"
    );
    // The real sender: the receiver's sequence number did not move; everything arrives once.
    put_numbered(qm, 0..3);
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    expect_numbered(&qm2.fixture.queue_manager, 0..3);
    wait_until("confirmed", || sender.snapshot().last_sequence == 3);
    let mut connection = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    assert!(get_next(&mut connection, Some(Duration::from_millis(200))).is_none());
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn a_sender_numbering_beyond_any_batch_is_refused_with_a_sequence_error() {
    use ferrite_mqi::name_resolution::RemoteDestination;
    use ferrite_mqi::transmission_queue::transmission_message;
    use ferrite_protocol::control::{status_code, Status};
    use ferrite_protocol::message_channel::message_flow_segments;
    use ferrite_protocol::segment::SegmentType;
    use ferrite_protocol::transport::Transport;
    use ferrite_server::message_channel::negotiation;
    use ferrite_server::message_channel::session::{
        confirmed_sequence, send_flow, FLOW_CCSID, FLOW_ENCODING, FLOW_ORDER,
    };
    use std::io::Write;
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    let qm = &qm1.fixture.queue_manager;
    let stream = std::net::TcpStream::connect(("127.0.0.1", qm2.port())).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut raw = stream.try_clone().unwrap();
    let mut transport = Transport::new(stream);
    let proposal = negotiation::proposal(&qm.channel(CHANNEL).unwrap(), qm, 32768);
    send_flow(
        &mut transport,
        SegmentType::InitialData,
        &proposal.encode(FLOW_ORDER),
    )
    .unwrap();
    transport.read_flow().unwrap();
    assert_eq!(confirmed_sequence(&transport.read_flow().unwrap()), Ok(0));
    let destination = RemoteDestination {
        transmission_queue: "QM2".into(),
        remote_q_name: "APP.IN".into(),
        remote_q_mgr_name: "QM2".into(),
    };
    let (_, transmitted) = transmission_message(&numbered_md(0), &destination, b"message 0");
    // Sequence number 50000 where 1 is expected: more than MQ's largest batch ahead.
    for segment in message_flow_segments(
        50_000,
        &transmitted,
        FLOW_ORDER,
        FLOW_ENCODING,
        FLOW_CCSID,
        32768,
        true,
    )
    .unwrap()
    {
        raw.write_all(&segment.encode().unwrap()).unwrap();
    }
    let refusal = transport.read_flow().unwrap();
    assert_eq!(refusal.header.segment_type, SegmentType::StatusData);
    let status = Status::decode(&refusal.payload, refusal.header.byte_order).unwrap();
    assert_eq!(
        (status.code, status.value),
        (status_code::MSG_SEQUENCE_ERROR, Some(1)),
        "the number the receiver expects"
    );
    assert!(confirmed_sequence(&refusal)
        .unwrap_err()
        .contains("AMQ9526E"));
    wait_until("the receiving end ended", || {
        qm2.chinit.instances().is_empty()
    });
    assert_eq!(depth(&qm2.fixture.queue_manager, "APP.IN"), 0);
    assert!(logged(&qm2, "AMQ9526E"));
    // The real sender, in step, delivers.
    put_numbered(qm, 0..2);
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    expect_numbered(&qm2.fixture.queue_manager, 0..2);
    wait_until("confirmed", || sender.snapshot().last_sequence == 2);
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
}

/// A receiving end on a port of its own, standing in for QM2's RCVR channel: it negotiates
/// (heartbeat interval 1 s), reports nothing committed, answers a HEARTBEAT when `answers()`
/// says so, and otherwise reads on without answering anything: a partner gone quietly, its
/// connection still open.
fn quiet_receiver(
    qm2: &Arc<QueueManager>,
    answers: impl Fn() -> bool + Send + 'static,
) -> (u16, std::thread::JoinHandle<()>) {
    use ferrite_protocol::initial_data::InitialData;
    use ferrite_protocol::segment::SegmentType;
    use ferrite_protocol::transport::Transport;
    use ferrite_server::message_channel::negotiation;
    use ferrite_server::message_channel::session::{send_flow, send_status, FLOW_ORDER};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let channel = qm2.channel(CHANNEL).unwrap();
    let qm = qm2.clone();
    let thread = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut transport = Transport::new(stream);
        let flow = transport.read_flow().unwrap();
        let proposal = InitialData::decode(&flow.payload, flow.header.byte_order).unwrap();
        let mut reply = negotiation::answer(&proposal, &channel, &qm, 32768);
        reply.heartbeat_interval = 1;
        send_flow(
            &mut transport,
            SegmentType::InitialData,
            &reply.encode(FLOW_ORDER),
        )
        .unwrap();
        send_status(&mut transport, 0, 0, false).unwrap();
        while let Ok(flow) = transport.read_flow() {
            if flow.header.segment_type == SegmentType::Heartbeat && answers() {
                send_flow(&mut transport, SegmentType::Heartbeat, &[]).unwrap();
            }
        }
    });
    (port, thread)
}

#[test]
fn batchhb_leaves_messages_on_the_transmission_queue_when_the_partner_has_gone_quietly() {
    for (batch_heartbeat, taken_into_doubt) in [("BATCHHB(1)", false), ("BATCHHB(0)", true)] {
        let (qm1, qm2) = pair("HBINT(1)", &format!("HBINT(1) {batch_heartbeat}"));
        // The partner goes quiet once a message waits to be sent: idle heartbeats before it
        // are answered, the batch heartbeat is not.
        let sending = qm1.fixture.queue_manager.clone();
        let (port, receiver) = quiet_receiver(&qm2.fixture.queue_manager, move || {
            depth(&sending, "QM2") == 0
        });
        let qm = &qm1.fixture.queue_manager;
        mqsc_ok(
            qm,
            &format!("ALTER CHANNEL({CHANNEL}) CHLTYPE(SDR) CONNAME('127.0.0.1({port})')"),
        );
        let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
        wait_until("running", || sender.status() == SenderStatus::Running);
        put_numbered(qm, 0..1);
        if taken_into_doubt {
            // Without BATCHHB the message is taken into doubt and sent into the void.
            wait_until("the batch in doubt", || sender.snapshot().in_doubt);
            assert_eq!(depth(qm, "QM2"), 0);
        } else {
            // With it, the unanswered heartbeat ends the session before the batch starts.
            wait_until("the session ended", || {
                logged(&qm1, "no answer to a HEARTBEAT")
            });
            assert!(!sender.snapshot().in_doubt);
            assert_eq!(
                depth(qm, "QM2"),
                1,
                "the message stays on the transmission queue"
            );
        }
        assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
        assert!(sender.wait_ended(PATIENCE));
        receiver.join().unwrap();
    }
}

#[test]
fn an_idle_senders_heartbeat_finds_a_partner_gone_quietly() {
    // The partner keeps its connection open and answers nothing: only a heartbeat finds it.
    let (qm1, qm2) = pair("HBINT(1)", "HBINT(1)");
    let (port, receiver) = quiet_receiver(&qm2.fixture.queue_manager, || false);
    mqsc_ok(
        &qm1.fixture.queue_manager,
        &format!("ALTER CHANNEL({CHANNEL}) CHLTYPE(SDR) CONNAME('127.0.0.1({port})')"),
    );
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    wait_until("the unanswered heartbeat", || {
        logged(&qm1, "no answer to a HEARTBEAT")
    });
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
    receiver.join().unwrap();
}

/// Puts `data` to TO.QM2 on `qm` as a persistent message.
fn put_data(qm: &Arc<QueueManager>, data: &[u8]) {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let mut md = Mqmd {
        persistence: MQPER_PERSISTENT,
        ..Mqmd::default()
    };
    connection
        .put1(
            &mut Mqod::queue("TO.QM2"),
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            data,
        )
        .unwrap();
}

/// The next message's data on APP.IN of `qm`.
fn get_data(qm: &Arc<QueueManager>) -> Vec<u8> {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("APP.IN"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut md = Mqmd::default();
    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.wait_interval = PATIENCE.as_millis() as i32;
    let mut data = Vec::new();
    connection
        .get_appending(hobj, &mut md, &mut gmo, &mut data, 1 << 22)
        .expect("the message arrives");
    data
}

/// Fixed-width records (blank-padded text, zero-padded numbers) that every technique
/// compresses well, RLE included, `length` bytes.
fn compressible(length: usize) -> Vec<u8> {
    let mut record = b"ORDER 42".to_vec();
    record.resize(48, b' ');
    record.extend_from_slice(b"000000000000000000100");
    record.resize(96, b' ');
    record.iter().copied().cycle().take(length).collect()
}

/// Bytes no technique can shrink (xorshift), `length` bytes.
fn incompressible(length: usize) -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..length)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// The value of `attribute` in a DISPLAY CHSTATUS answer (`NAME(value)`).
fn shown<'a>(display: &'a str, attribute: &str) -> &'a str {
    let start = display
        .find(&format!("{attribute}("))
        .unwrap_or_else(|| panic!("{attribute} in {display}"))
        + attribute.len()
        + 1;
    let end = start + display[start..].find(')').unwrap();
    &display[start..end]
}

#[test]
fn every_compression_technique_carries_messages_between_two_queue_managers() {
    let large = compressible(300_000);
    let small = compressible(600);
    let noise = incompressible(70_000);
    for (header, message) in [
        ("SYSTEM", "RLE"),
        ("NONE", "ZLIBFAST"),
        ("SYSTEM", "ZLIBHIGH"),
    ] {
        let (qm1, qm2) = pair(
            "COMPHDR(NONE,SYSTEM) COMPMSG(ANY)",
            &format!("COMPHDR({header}) COMPMSG({message},NONE)"),
        );
        let (mqsc1, mqsc2) = (console(&qm1), console(&qm2));
        let (sending, receiving) = (&qm1.fixture.queue_manager, &qm2.fixture.queue_manager);
        let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
        put_data(sending, &large);
        put_data(sending, &small);
        assert_eq!(get_data(receiving), large, "{message}: a segmented message");
        assert_eq!(get_data(receiving), small, "{message}");
        wait_until("confirmed", || sender.snapshot().last_sequence == 2);
        let display = run_ok(&mqsc1, &format!("DISPLAY CHSTATUS({CHANNEL}) ALL"));
        assert_eq!(shown(&display, "COMPHDR"), format!("{header},{header}"));
        assert_eq!(shown(&display, "COMPMSG"), format!("{message},{message}"));
        let (rate, _) = shown(&display, "COMPRATE").split_once(',').unwrap();
        assert!(rate.trim().parse::<u64>().unwrap() > 50, "{display}");
        assert!(shown(&display, "COMPTIME").contains(','), "{display}");
        // A sender's time indicators: on the transmission queue, and the confirm round trip.
        for indicator in ["XQTIME", "NETTIME"] {
            let (short, long) = shown(&display, indicator).split_once(',').unwrap();
            assert!(short.trim().parse::<u64>().is_ok(), "{display}");
            assert!(long.trim().parse::<u64>().is_ok(), "{display}");
        }
        pcf_shows_compression_and_time_indicators(&qm1, header, message);
        let sent_bytes: u64 = shown(&display, "BYTSSENT").parse().unwrap();
        assert!(
            sent_bytes < (large.len() / 2) as u64,
            "compressed on the wire: {display}"
        );
        let display = run_ok(&mqsc2, "DISPLAY CHSTATUS(*) CHLTYPE(RCVR) ALL");
        assert_eq!(shown(&display, "COMPMSG"), format!("{message},{message}"));
        let (rate, _) = shown(&display, "COMPRATE").split_once(',').unwrap();
        assert!(rate.trim().parse::<u64>().unwrap() > 50, "{display}");

        // Incompressible data travels as it is (only a first segment holding the headers
        // shrinks), and arrives intact.
        put_data(sending, &noise);
        assert_eq!(get_data(receiving), noise, "{message}: incompressible");
        wait_until("confirmed", || sender.snapshot().last_sequence == 3);
        let display = run_ok(&mqsc1, &format!("DISPLAY CHSTATUS({CHANNEL}) ALL"));
        let noise_bytes = shown(&display, "BYTSSENT").parse::<u64>().unwrap() - sent_bytes;
        assert!(noise_bytes > noise.len() as u64, "{display}");
        if header == "SYSTEM" {
            // The headers went with COMPHDR; the message data, which did not shrink, as it is.
            assert_eq!(shown(&display, "COMPMSG"), format!("{message},NONE"));
        }
        assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
        assert!(sender.wait_ended(PATIENCE));
    }
}

/// PCF Inquire Channel Status: COMPHDR and COMPMSG as MQCFIL of MQCOMPRESS_* values,
/// COMPRATE, COMPTIME, XQTIME and NETTIME as MQCFIL pairs.
fn pcf_shows_compression_and_time_indicators(qm1: &Listener, header: &str, message: &str) {
    use ferrite_command::pcf::Parameter;
    use ferrite_constants::{channel::*, pcf::*, pcf_selector::*};
    let (status, responses) = pcf(
        qm1,
        MQCMD_INQUIRE_CHANNEL_STATUS,
        vec![Parameter::string(MQCACH_CHANNEL_NAME, CHANNEL)],
    );
    assert_eq!(status, 0);
    let list = |id: i32| match responses[0].iter().find(|p| p.id() == id) {
        Some(Parameter::IntegerList { values, .. }) => values.clone(),
        other => panic!("{id}: {other:?}"),
    };
    let technique = |keyword: &str| match keyword {
        "SYSTEM" => MQCOMPRESS_SYSTEM,
        "RLE" => MQCOMPRESS_RLE,
        "ZLIBFAST" => MQCOMPRESS_ZLIBFAST,
        "ZLIBHIGH" => MQCOMPRESS_ZLIBHIGH,
        _ => MQCOMPRESS_NONE,
    };
    assert_eq!(list(MQIACH_HDR_COMPRESSION), vec![technique(header); 2]);
    assert_eq!(list(MQIACH_MSG_COMPRESSION), vec![technique(message); 2]);
    for id in [
        MQIACH_COMPRESSION_RATE,
        MQIACH_COMPRESSION_TIME,
        MQIACH_XMITQ_TIME_INDICATOR,
        MQIACH_NETWORK_TIME_INDICATOR,
    ] {
        let pair = list(id);
        assert_eq!(pair.len(), 2, "{id}");
        assert!(pair.iter().all(|value| *value >= 0), "{id}: {pair:?}");
    }
    assert!(list(MQIACH_COMPRESSION_RATE)[0] > 50);
}

#[test]
fn ends_that_share_no_compression_technique_fall_back_to_none() {
    let (qm1, qm2) = pair(
        "COMPHDR(NONE) COMPMSG(RLE)",
        "COMPHDR(SYSTEM) COMPMSG(ZLIBHIGH,ZLIBFAST)",
    );
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    let data = compressible(50_000);
    put_data(&qm1.fixture.queue_manager, &data);
    assert_eq!(get_data(&qm2.fixture.queue_manager), data);
    wait_until("confirmed", || sender.snapshot().last_sequence == 1);
    let display = run_ok(&console(&qm1), &format!("DISPLAY CHSTATUS({CHANNEL}) ALL"));
    assert_eq!(shown(&display, "COMPHDR"), "NONE,NONE");
    assert_eq!(shown(&display, "COMPMSG"), "NONE,NONE");
    assert_eq!(shown(&display, "COMPRATE"), " , ", "nothing compressed");
    let sent_bytes: u64 = shown(&display, "BYTSSENT").parse().unwrap();
    assert!(sent_bytes > data.len() as u64, "{display}");
    // The definitions' lists are what DISPLAY CHANNEL shows.
    let definition = run_ok(&console(&qm1), &format!("DISPLAY CHANNEL({CHANNEL}) ALL"));
    assert!(
        definition.contains("COMPMSG(ZLIBHIGH,ZLIBFAST)"),
        "{definition}"
    );
    assert!(definition.contains("COMPHDR(SYSTEM)"), "{definition}");
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn a_corrupt_compressed_segment_ends_the_channel_and_loses_nothing() {
    use ferrite_mqi::name_resolution::RemoteDestination;
    use ferrite_mqi::transmission_queue::transmission_message;
    use ferrite_protocol::message_channel::message_flow_segments;
    use ferrite_protocol::segment::{ControlFlags2, SegmentType};
    use ferrite_protocol::transport::Transport;
    use ferrite_server::message_channel::negotiation;
    use ferrite_server::message_channel::session::{
        confirmed_sequence, send_flow, FLOW_CCSID, FLOW_ENCODING, FLOW_ORDER,
    };
    use std::io::Write;
    let (qm1, qm2) = pair(
        "NPMSPEED(NORMAL) COMPMSG(ANY)",
        "NPMSPEED(NORMAL) COMPMSG(ZLIBFAST)",
    );
    let qm = &qm1.fixture.queue_manager;
    // A hostile sending MCA of QM1's channel: negotiation (ZLIBFAST agreed), one good
    // message of a batch, then one whose MSGCOMP segment is no zlib stream.
    let stream = std::net::TcpStream::connect(("127.0.0.1", qm2.port())).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut raw = stream.try_clone().unwrap();
    let mut transport = Transport::new(stream);
    let proposal = negotiation::proposal(&qm.channel(CHANNEL).unwrap(), qm, 32768);
    send_flow(
        &mut transport,
        SegmentType::InitialData,
        &proposal.encode(FLOW_ORDER),
    )
    .unwrap();
    let answer = transport.read_flow().unwrap();
    assert_eq!(answer.header.segment_type, SegmentType::InitialData);
    assert_eq!(answer.payload[106], 2, "ZLIBFAST chosen");
    assert_eq!(confirmed_sequence(&transport.read_flow().unwrap()), Ok(0));
    let destination = RemoteDestination {
        transmission_queue: "QM2".into(),
        remote_q_name: "APP.IN".into(),
        remote_q_mgr_name: "QM2".into(),
    };
    for (sequence, corrupt) in [(1, false), (2, true)] {
        let (_, transmitted) = transmission_message(&numbered_md(0), &destination, b"message");
        for mut segment in message_flow_segments(
            sequence,
            &transmitted,
            FLOW_ORDER,
            FLOW_ENCODING,
            FLOW_CCSID,
            32768,
            corrupt,
        )
        .unwrap()
        {
            if corrupt {
                segment.header.flags2 = ControlFlags2(ControlFlags2::MSGCOMP);
                segment.payload = b"x\x01 this is not deflate data".to_vec();
            }
            raw.write_all(&segment.encode().unwrap()).unwrap();
        }
    }
    wait_until("the receiving end ended", || {
        qm2.chinit.instances().is_empty()
    });
    assert!(logged(&qm2, "AMQ9504E"), "{:?}", qm2.log.lock().unwrap());
    assert_eq!(
        depth(&qm2.fixture.queue_manager, "APP.IN"),
        0,
        "the batch with the corrupt segment was backed out"
    );
    // The real sender: nothing was committed; everything arrives once.
    put_numbered(qm, 0..3);
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    expect_numbered(&qm2.fixture.queue_manager, 0..3);
    wait_until("confirmed", || sender.snapshot().last_sequence == 3);
    let mut connection = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    assert!(get_next(&mut connection, Some(Duration::from_millis(200))).is_none());
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
}

/// A self-signed certificate for each queue manager (`CN=QM1,O=Ferrite`, `CN=QM2,O=Ferrite`,
/// naming 127.0.0.1), each trusting the other's through its key repository's ca.crt.
fn exchange_certificates(qm1: &Listener, qm2: &Listener) {
    let repository = |listener: &Listener| listener.fixture.directory.path().join("tls");
    for (listener, name) in [(qm1, "QM1"), (qm2, "QM2")] {
        ferrite_server::tls::create_self_signed(&repository(listener), name).unwrap();
    }
    for (from, to) in [(qm1, qm2), (qm2, qm1)] {
        std::fs::copy(
            repository(from).join("qm.crt"),
            repository(to).join("ca.crt"),
        )
        .unwrap();
    }
}

#[test]
fn tls_message_channels_check_cipher_specs_and_peer_names_at_both_ends() {
    let (qm1, qm2) = pair(
        "NPMSPEED(NORMAL) SSLCIPH(TLS_AES_256_GCM_SHA384) SSLCAUTH(REQUIRED) SSLPEER('CN=QM1') COMPMSG(ANY)",
        "NPMSPEED(NORMAL) SSLCIPH(TLS_AES_256_GCM_SHA384) SSLPEER('CN=QM2, O=Ferrite') COMPMSG(ZLIBFAST)",
    );
    exchange_certificates(&qm1, &qm2);
    let (mqsc1, mqsc2) = (console(&qm1), console(&qm2));
    let ping = run_ok(&mqsc1, &format!("PING CHANNEL({CHANNEL})"));
    assert!(ping.contains("AMQ8020I"), "{ping}");
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    put_numbered(&qm1.fixture.queue_manager, 0..5);
    expect_numbered(&qm2.fixture.queue_manager, 0..5);
    let large = compressible(200_000);
    put_data(&qm1.fixture.queue_manager, &large);
    assert_eq!(
        get_data(&qm2.fixture.queue_manager),
        large,
        "segments inside TLS"
    );
    wait_until("confirmed", || sender.snapshot().last_sequence == 6);
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(sender.wait_ended(PATIENCE));

    // Each refusal leaves the sender retrying, nothing delivered, and says why at the end
    // that refused (MQ's AMQ9631E, AMQ9639E, AMQ9636E).
    let cases = [
        // CipherSpecs that differ: the handshake agrees a suite the receiver does not accept.
        (
            "SSLCIPH(TLS_AES_256_GCM_SHA384) SSLPEER('CN=QM1')",
            "SSLCIPH(TLS_AES_128_GCM_SHA256) SSLPEER(' ')",
            &qm2,
            "AMQ9631E",
        ),
        // TLS at one end only.
        (
            "SSLCIPH(' ') SSLPEER(' ')",
            "SSLCIPH(TLS_AES_128_GCM_SHA256)",
            &qm2,
            "AMQ9639E",
        ),
        (
            "SSLCIPH(TLS_AES_128_GCM_SHA256)",
            "SSLCIPH(' ') SSLPEER(' ')",
            &qm2,
            "AMQ9639E",
        ),
        // The receiver's SSLPEER does not name the sender's certificate.
        (
            "SSLCIPH(TLS_AES_128_GCM_SHA256) SSLPEER('CN=SOMEONE.ELSE')",
            "SSLCIPH(TLS_AES_128_GCM_SHA256)",
            &qm2,
            "AMQ9636E",
        ),
        // The sender's SSLPEER does not name the receiver's certificate.
        (
            "SSLCIPH(TLS_AES_128_GCM_SHA256) SSLPEER(' ')",
            "SSLCIPH(TLS_AES_128_GCM_SHA256) SSLPEER('CN=NOT.QM2')",
            &qm1,
            "AMQ9636E",
        ),
    ];
    for (receiver, sending, refusing, message) in cases {
        run_ok(
            &mqsc2,
            &format!("ALTER CHANNEL({CHANNEL}) CHLTYPE(RCVR) {receiver}"),
        );
        run_ok(
            &mqsc1,
            &format!("ALTER CHANNEL({CHANNEL}) CHLTYPE(SDR) {sending}"),
        );
        refusing.log.lock().unwrap().clear();
        put_numbered(&qm1.fixture.queue_manager, 0..1);
        let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
        wait_until("the refusal", || logged(refusing, message));
        wait_until("retrying", || sender.status() == SenderStatus::Retrying);
        assert_eq!(depth(&qm2.fixture.queue_manager, "APP.IN"), 0, "{message}");
        assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
        assert!(sender.wait_ended(PATIENCE));
    }
    // Agreeing again, the waiting messages arrive once.
    run_ok(
        &mqsc2,
        &format!("ALTER CHANNEL({CHANNEL}) CHLTYPE(RCVR) SSLPEER('CN=QM1')"),
    );
    run_ok(
        &mqsc1,
        &format!("ALTER CHANNEL({CHANNEL}) CHLTYPE(SDR) SSLPEER('CN=QM2')"),
    );
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    expect_numbered(&qm2.fixture.queue_manager, 0..1);
    wait_until("all sent", || {
        transmission_queue_looks_empty(&qm1.fixture.queue_manager)
    });
    for _ in 1..cases.len() {
        expect_numbered(&qm2.fixture.queue_manager, 0..1);
    }
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(sender.wait_ended(PATIENCE));
}

#[test]
fn a_requester_and_its_server_run_tls_on_the_requesters_connection() {
    let (qm1, qm2) = requester_pair("SSLCIPH(ANY_TLS13) SSLCAUTH(REQUIRED) SSLPEER('CN=QM2')");
    exchange_certificates(&qm1, &qm2);
    run_ok(
        &console(&qm2),
        &format!("ALTER CHANNEL({CHANNEL}) CHLTYPE(RQSTR) SSLCIPH(TLS_CHACHA20_POLY1305_SHA256) SSLPEER('CN=QM1')"),
    );
    put_numbered(&qm1.fixture.queue_manager, 0..4);
    run_ok(&console(&qm2), &format!("START CHANNEL({CHANNEL})"));
    expect_numbered(&qm2.fixture.queue_manager, 0..4);
    let server = qm1
        .chinit
        .sender(CHANNEL)
        .expect("the requester started the SVR");
    wait_until("confirmed", || server.snapshot().last_sequence == 4);
    let requester = qm2.chinit.sender(CHANNEL).unwrap();
    assert!(qm2.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(requester.wait_ended(PATIENCE));
    assert!(server.wait_ended(PATIENCE));
}

/// A second channel initiator for `listener`'s queue manager (the first one stopped), on a
/// new port, logging into `listener`'s log: a restart of the channel initiator.
fn restart_channel_initiator(
    listener: &Listener,
) -> Arc<ferrite_server::channel_initiator::ChannelInitiator> {
    use ferrite_server::channel_initiator::{ChannelInitiator, ChannelInitiatorConfig};
    listener.chinit.stop();
    let sink = listener.log.clone();
    ChannelInitiator::start(
        listener.fixture.queue_manager.clone(),
        ChannelInitiatorConfig {
            address: [127, 0, 0, 1].into(),
            port: 0,
            ..ChannelInitiatorConfig::default()
        },
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
    )
    .expect("the channel initiator starts again")
}

#[test]
fn a_stopped_channel_stays_stopped_across_a_restart_until_start_channel() {
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    put_numbered(&qm1.fixture.queue_manager, 0..1);
    expect_numbered(&qm2.fixture.queue_manager, 0..1);

    // STOP CHANNEL of the receiver: its instance ends and the channel is STOPPED; the
    // sender's reconnections are refused (AMQ9534E) and it retries.
    run_ok(&console(&qm2), &format!("STOP CHANNEL({CHANNEL})"));
    wait_until("the receiving end ended", || {
        qm2.chinit.instances().is_empty()
    });
    let display = run_ok(&console(&qm2), &format!("DISPLAY CHSTATUS({CHANNEL})"));
    assert!(
        display.contains("CHLTYPE(RCVR)") && display.contains("STATUS(STOPPED)"),
        "{display}"
    );
    wait_until("the refusal", || logged(&qm2, "AMQ9534E"));
    wait_until("retrying", || sender.status() == SenderStatus::Retrying);
    put_numbered(&qm1.fixture.queue_manager, 1..2);

    // The channel initiator restarts: the channel is still STOPPED, and still refused.
    let chinit2 = restart_channel_initiator(&qm2);
    let port = chinit2.local_address().unwrap().port();
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Force));
    assert!(sender.wait_ended(PATIENCE));
    mqsc_ok(
        &qm1.fixture.queue_manager,
        &format!("ALTER CHANNEL({CHANNEL}) CHLTYPE(SDR) CONNAME('127.0.0.1({port})')"),
    );
    let mqsc2 = ferrite_command::CommandProcessor::new(qm2.fixture.queue_manager.clone());
    mqsc2.set_channel_initiator(Some(chinit2.clone()));
    let display = run_ok(&mqsc2, &format!("DISPLAY CHSTATUS({CHANNEL})"));
    assert!(display.contains("STATUS(STOPPED)"), "{display}");
    qm2.log.lock().unwrap().clear();
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    wait_until("the refusal after the restart", || logged(&qm2, "AMQ9534E"));
    assert_eq!(depth(&qm2.fixture.queue_manager, "APP.IN"), 0);

    // START CHANNEL enables the receiver; the sender's next attempt delivers.
    run_ok(&mqsc2, &format!("START CHANNEL({CHANNEL})"));
    expect_numbered(&qm2.fixture.queue_manager, 1..2);
    wait_until("confirmed", || sender.snapshot().last_sequence == 2);

    // A sender STOPPED by STOP CHANNEL is shown STOPPED after its channel initiator restarts.
    run_ok(&console(&qm1), &format!("STOP CHANNEL({CHANNEL})"));
    assert!(sender.wait_ended(PATIENCE));
    let chinit1 = restart_channel_initiator(&qm1);
    let mqsc1 = ferrite_command::CommandProcessor::new(qm1.fixture.queue_manager.clone());
    mqsc1.set_channel_initiator(Some(chinit1.clone()));
    let display = run_ok(&mqsc1, &format!("DISPLAY CHSTATUS({CHANNEL})"));
    assert!(
        display.contains("CHLTYPE(SDR)") && display.contains("STATUS(STOPPED)"),
        "{display}"
    );
    run_ok(&mqsc1, &format!("START CHANNEL({CHANNEL})"));
    let display = run_ok(&mqsc1, &format!("DISPLAY CHSTATUS({CHANNEL})"));
    assert!(!display.contains("STATUS(STOPPED)"), "{display}");
    assert!(chinit1.stop_sender(CHANNEL, StopMode::Force));
    chinit1.stop();
    chinit2.stop();
}

#[test]
fn actchl_holds_a_channel_back_until_an_active_one_ends() {
    use ferrite_constants::pcf_selector::MQCACH_CHANNEL_NAME;
    const SECOND: &str = "QM1.TO.QM2.B";
    let (qm1, qm2) = pair("NPMSPEED(NORMAL)", "NPMSPEED(NORMAL)");
    mqsc_ok(
        &qm2.fixture.queue_manager,
        &format!("DEFINE CHANNEL({SECOND}) CHLTYPE(RCVR) NPMSPEED(NORMAL)"),
    );
    let qm = &qm1.fixture.queue_manager;
    for command in [
        "DEFINE QLOCAL(XQ.B) USAGE(XMITQ)".to_string(),
        "DEFINE QREMOTE(TO.QM2.B) RNAME(APP.IN) RQMNAME(QM2) XMITQ(XQ.B)".to_string(),
        format!(
            "DEFINE CHANNEL({SECOND}) CHLTYPE(SDR) CONNAME('127.0.0.1({})') XMITQ(XQ.B) NPMSPEED(NORMAL) DISCINT(0) SHORTTMR(1)",
            qm2.port()
        ),
        "ALTER QMGR ACTCHL(1) CHLEV(EXCEPTION)".to_string(),
    ] {
        mqsc_ok(qm, &command);
    }
    let shown = run_ok(&console(&qm1), "DISPLAY QMGR ACTCHL");
    assert!(shown.contains("ACTCHL(1)"), "{shown}");
    let first = qm1.chinit.start_channel(CHANNEL).unwrap();
    wait_until("the first channel runs", || {
        first.status() == SenderStatus::Running
    });
    // The second waits, not activated, while the first is active.
    let second = qm1.chinit.start_channel(SECOND).unwrap();
    let events = wait_for_channel_events(&qm1, &[2296]);
    assert!(
        events[0]
            .1
            .contains(&(MQCACH_CHANNEL_NAME, SECOND.to_string())),
        "{events:?}"
    );
    assert_eq!(second.status(), SenderStatus::Starting);
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    connection
        .put1(
            &mut Mqod::queue("TO.QM2.B"),
            &mut numbered_md(0),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"message 0",
        )
        .unwrap();
    assert!(logged(&qm1, "not activated, ACTCHL(1)"));
    assert_eq!(qm2.chinit.instances().len(), 1, "only the first connected");
    // The first ends: the second becomes active and delivers.
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(first.wait_ended(PATIENCE));
    let events = std::cell::RefCell::new(Vec::new());
    wait_until("Channel Activated", || {
        let mut events = events.borrow_mut();
        events.extend(take_channel_events(&qm1));
        events.iter().any(|(reason, parameters)| {
            *reason == 2295 && parameters.contains(&(MQCACH_CHANNEL_NAME, SECOND.to_string()))
        })
    });
    expect_numbered(&qm2.fixture.queue_manager, 0..1);
    assert!(qm1.chinit.stop_sender(SECOND, StopMode::Force));
    assert!(second.wait_ended(PATIENCE));
    // ACTCHL's range.
    assert!(!console(&qm1).run("ALTER QMGR ACTCHL(0)").success);
    assert!(!console(&qm1).run("ALTER QMGR ACTCHL(10000)").success);
}

/// Force (log check) requests `listener`'s log has had (QJSTWRF).
fn log_forces(listener: &Listener) -> u64 {
    listener.fixture.queue_manager.log_statistics().qjstwrf
}

/// Puts `count` messages of `persistence` to TO.QM2 on QM1 outside syncpoint, gets them from
/// APP.IN on QM2 and waits until the sender has had their batches confirmed (`moved` in all).
fn move_messages(qm1: &Listener, qm2: &Listener, persistence: i32, count: usize, moved: u64) {
    let mut connection = Connection::connect(qm1.fixture.queue_manager.clone(), "").unwrap();
    for index in 0..count {
        let mut md = Mqmd {
            persistence,
            ..Mqmd::default()
        };
        connection
            .put1(
                &mut Mqod::queue("TO.QM2"),
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                format!("moved {index}").as_bytes(),
            )
            .unwrap();
    }
    let mut receiver = Connection::connect(qm2.fixture.queue_manager.clone(), "").unwrap();
    for index in 0..count {
        let (md, data) = get_next(&mut receiver, None).expect("the message arrives");
        assert_eq!(data, format!("moved {index}"), "in order");
        assert_eq!(md.persistence, persistence);
    }
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    wait_until("the batches confirmed", || {
        sender.snapshot().messages == moved
    });
}

#[test]
fn batches_of_fast_non_persistent_messages_only_force_no_log_at_either_end() {
    // BATCHSZ(1) at the receiving end: the agreed batch size is the smaller.
    let (qm1, qm2) = pair("BATCHSZ(1)", "");
    qm1.chinit.start_channel(CHANNEL).unwrap();
    move_messages(&qm1, &qm2, MQPER_PERSISTENT, 1, 1);
    let (sender_forces, receiver_forces) = (log_forces(&qm1), log_forces(&qm2));
    move_messages(&qm1, &qm2, MQPER_NOT_PERSISTENT, 20, 21);
    assert_eq!(log_forces(&qm1), sender_forces, "the sending end");
    assert_eq!(log_forces(&qm2), receiver_forces, "the receiving end");

    // Stopped and started after batches that saved no sequence number, the channel is in
    // step and persistent messages force the log at both ends, a batch each.
    let sender = qm1.chinit.sender(CHANNEL).unwrap();
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(sender.wait_ended(PATIENCE));
    wait_until("the receiving end ended", || {
        qm2.chinit.instances().is_empty()
    });
    qm1.chinit.start_channel(CHANNEL).unwrap();
    let (sender_forces, receiver_forces) = (log_forces(&qm1), log_forces(&qm2));
    move_messages(&qm1, &qm2, MQPER_PERSISTENT, 3, 3);
    // Each message: its put, and its batch moved to the in-doubt record.
    assert!(log_forces(&qm1) >= sender_forces + 6, "the sending end");
    assert!(log_forces(&qm2) >= receiver_forces + 3, "the receiving end");
    assert!(qm1
        .log
        .lock()
        .unwrap()
        .iter()
        .all(|line| !line.contains("AMQ9526E")));
}

#[test]
fn npmspeed_normal_at_either_end_makes_both_ends_log_non_persistent_batches() {
    for (receiver, sender) in [("NPMSPEED(NORMAL)", ""), ("", "NPMSPEED(NORMAL)")] {
        let (qm1, qm2) = pair(&format!("BATCHSZ(1) {receiver}"), sender);
        qm1.chinit.start_channel(CHANNEL).unwrap();
        move_messages(&qm1, &qm2, MQPER_PERSISTENT, 1, 1);
        let (sender_forces, receiver_forces) = (log_forces(&qm1), log_forces(&qm2));
        move_messages(&qm1, &qm2, MQPER_NOT_PERSISTENT, 3, 4);
        assert!(log_forces(&qm1) >= sender_forces + 3, "{receiver}/{sender}");
        assert!(
            log_forces(&qm2) >= receiver_forces + 3,
            "{receiver}/{sender}"
        );
        let sender = qm1.chinit.sender(CHANNEL).unwrap();
        assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
        assert!(sender.wait_ended(PATIENCE));
    }
}
