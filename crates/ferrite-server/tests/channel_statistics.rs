//! Channel statistics (STATCHL) of message channels, counted against known work: ten
//! messages sent in batches of BATCHSZ(4) are two full batches and one incomplete at both
//! ends, the bytes the sender counts are those the receiver counts, a sender measures its
//! batches' network time; each end's interval gives a STATISTICS_CHL record in
//! statistics.jsonl and an MQCMD_STATISTICS_CHANNEL message on SYSTEM.ADMIN.STATISTICS.QUEUE.
//! A channel whose STATCHL (or the queue manager's, through STATCHL(QMGR)) does not ask counts
//! nothing; a channel that ended is reported for its last interval, then no more. IBM's PCF
//! classes parse every statistics and accounting message of such work.

mod support;

use std::sync::Arc;
use std::time::Duration;

use ferrite_command::pcf::{decode_statistics, ByteOrder, Parameter, PcfMessage};
use ferrite_constants::selector::MQCA_REMOTE_Q_MGR_NAME;
use ferrite_constants::{open_options::*, pcf::*, pcf_selector::*, put_options::*};
use ferrite_mqi::statistics_messages::STATISTICS_QUEUE;
use ferrite_mqi::{Connection, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::statistics::{ChannelIntervalRecord, STATISTICS_FILE};
use ferrite_queue_manager::QueueManager;
use ferrite_server::message_channel::sender_mca::StopMode;
use ferrite_server::ServerConfig;
use ferrite_test_kit::{get_until_empty, mqsc_ok};
use support::{listen, small_config, start_configured, Listener};

const CHANNEL: &str = "QM1.TO.QM2";
const QUIET: &str = "QUIET.TO.QM2";
/// The longest the test waits for something that must happen (never asserted as a time).
const PATIENCE: Duration = Duration::from_secs(60);

fn wait_until(what: &str, condition: impl Fn() -> bool) {
    let started = std::time::Instant::now();
    while !condition() {
        assert!(started.elapsed() < PATIENCE, "{what} never happened");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// QM2 with the RCVR channel STATCHL(HIGH) under the queue manager's STATCHL(OFF); QM1 with
/// STATCHL(LOW), the SDR channel STATCHL(QMGR) BATCHSZ(4), and a second SDR channel
/// STATCHL(OFF).
fn pair() -> (Listener, Listener) {
    let qm2 = listen(start_configured(
        &["APP.IN"],
        ServerConfig::default(),
        small_config("QM2"),
    ));
    let qm = &qm2.fixture.queue_manager;
    mqsc_ok(
        qm,
        &format!("DEFINE CHANNEL({CHANNEL}) CHLTYPE(RCVR) STATCHL(HIGH)"),
    );
    mqsc_ok(qm, &format!("DEFINE CHANNEL({QUIET}) CHLTYPE(RCVR)"));
    let qm1 = listen(start_configured(
        &[],
        ServerConfig::default(),
        small_config("QM1"),
    ));
    let qm = &qm1.fixture.queue_manager;
    mqsc_ok(qm, "ALTER QMGR STATCHL(LOW)");
    mqsc_ok(qm, "DEFINE QLOCAL(QM2) USAGE(XMITQ)");
    mqsc_ok(qm, "DEFINE QLOCAL(QUIET) USAGE(XMITQ)");
    mqsc_ok(
        qm,
        "DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)",
    );
    let port = qm2.port();
    mqsc_ok(
        qm,
        &format!("DEFINE CHANNEL({CHANNEL}) CHLTYPE(SDR) CONNAME('127.0.0.1({port})') XMITQ(QM2) BATCHSZ(4) NPMSPEED(NORMAL) DISCINT(0)"),
    );
    mqsc_ok(
        qm,
        &format!("DEFINE CHANNEL({QUIET}) CHLTYPE(SDR) CONNAME('127.0.0.1({port})') XMITQ(QUIET) DISCINT(0) STATCHL(OFF)"),
    );
    (qm1, qm2)
}

/// Ten messages of 100 bytes put to TO.QM2 before the channel starts.
fn put_ten(qm: &Arc<QueueManager>) {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    for _ in 0..10 {
        connection
            .put1(
                &mut Mqod::queue("TO.QM2"),
                &mut Mqmd::default(),
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                &[5u8; 100],
            )
            .unwrap();
    }
}

/// The channels' records of the interval that closes now.
fn close_interval(qm: &Arc<QueueManager>) -> Vec<ChannelIntervalRecord> {
    qm.close_statistics_interval().unwrap().channels
}

fn record_of(records: &[ChannelIntervalRecord], channel: &str) -> Option<ChannelIntervalRecord> {
    records
        .iter()
        .find(|record| record.channel == channel)
        .cloned()
}

/// The MQCMD_STATISTICS_CHANNEL messages on the statistics queue, decoded.
fn channel_messages(qm: &Arc<QueueManager>) -> Vec<PcfMessage> {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue(STATISTICS_QUEUE), MQOO_INPUT_SHARED)
        .unwrap();
    get_until_empty(&mut connection, hobj, 1 << 20, STATISTICS_QUEUE)
        .into_iter()
        .map(|(md, data)| decode_statistics(&data, ByteOrder::of_encoding(md.encoding)).unwrap())
        .filter(|message| message.header.command == MQCMD_STATISTICS_CHANNEL)
        .collect()
}

fn find(parameters: &[Parameter], id: i32) -> &Parameter {
    parameters
        .iter()
        .find(|p| p.id() == id)
        .unwrap_or_else(|| panic!("no parameter {id}"))
}

fn integer(parameters: &[Parameter], id: i32) -> i64 {
    match find(parameters, id) {
        Parameter::Integer { value, .. } => i64::from(*value),
        Parameter::Integer64 { value, .. } => *value,
        other => panic!("{other:?}"),
    }
}

fn text(parameters: &[Parameter], id: i32) -> String {
    match find(parameters, id) {
        Parameter::String { value, .. } => value.trim_end().to_string(),
        other => panic!("{other:?}"),
    }
}

/// The ChlStatisticsData group of `channel` in the one channel statistics message.
fn channel_group(qm: &Arc<QueueManager>, channel: &str) -> Vec<Parameter> {
    let messages = channel_messages(qm);
    assert_eq!(messages.len(), 1, "one MQCMD_STATISTICS_CHANNEL message");
    let message = &messages[0];
    assert_eq!(message.header.kind, MQCFT_STATISTICS);
    let groups: Vec<Vec<Parameter>> = message
        .parameters
        .iter()
        .filter_map(|p| match p {
            Parameter::Group {
                parameter,
                parameters,
            } if *parameter == MQGACF_CHL_STATISTICS_DATA => Some(parameters.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        integer(&message.parameters, MQIAMO_OBJECT_COUNT),
        groups.len() as i64
    );
    groups
        .into_iter()
        .find(|group| text(group, MQCACH_CHANNEL_NAME) == channel)
        .expect("the channel's group")
}

fn statistics_records(qm: &Arc<QueueManager>) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(qm.directory().join(STATISTICS_FILE)).unwrap();
    text.lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|record| record["Record"] == "STATISTICS_CHL")
        .collect()
}

#[test]
fn message_channels_count_their_messages_batches_and_network_time() {
    let (qm1, qm2) = pair();
    let (sending, receiving) = (&qm1.fixture.queue_manager, &qm2.fixture.queue_manager);
    put_ten(sending);
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    let quiet = qm1.chinit.start_channel(QUIET).unwrap();
    wait_until("ten messages confirmed", || {
        sender.snapshot().messages == 10
    });
    wait_until("ten messages committed", || {
        receiving.queue("APP.IN").unwrap().depth() == 10
    });
    wait_until("the quiet channel runs", || {
        quiet.status().keyword() == "RUNNING"
    });

    let records = close_interval(sending);
    let sent = record_of(&records, CHANNEL).expect("the sender's record");
    assert_eq!(sent.channel_type_keyword, "SDR");
    assert_eq!(sent.remote_queue_manager, "QM2");
    assert_eq!(sent.connection_name, format!("127.0.0.1({})", qm2.port()));
    assert_eq!(sent.messages, 10);
    assert_eq!((sent.full_batches, sent.incomplete_batches), (2, 1));
    assert_eq!(sent.average_batch_size(), 3);
    assert_eq!(sent.put_retries, 0);
    let (min, average, max) = sent.net_time_us.expect("three confirmations timed");
    assert!(min <= average && average <= max);
    assert!(
        sent.bytes > 10 * 100,
        "each message with its transmission queue header: {sent:?}"
    );
    assert!(
        record_of(&records, QUIET).is_none(),
        "STATCHL(OFF) counts nothing"
    );
    let group = channel_group(sending, CHANNEL);
    assert_eq!(integer(&group, MQIACH_CHANNEL_TYPE), 1);
    assert_eq!(integer(&group, MQIAMO_MSGS), 10);
    assert_eq!(integer(&group, MQIAMO64_BYTES), sent.bytes as i64);
    assert_eq!(integer(&group, MQIAMO_FULL_BATCHES), 2);
    assert_eq!(integer(&group, MQIAMO_INCOMPLETE_BATCHES), 1);
    assert_eq!(integer(&group, MQIAMO_AVG_BATCH_SIZE), 3);
    assert_eq!(integer(&group, MQIAMO_NET_TIME_MAX), max as i64);
    assert_eq!(text(&group, MQCA_REMOTE_Q_MGR_NAME), "QM2");

    let received = record_of(&close_interval(receiving), CHANNEL).expect("the receiver's record");
    assert_eq!(received.channel_type_keyword, "RCVR");
    assert_eq!(received.remote_queue_manager, "QM1");
    assert_eq!(received.messages, 10);
    assert_eq!(received.bytes, sent.bytes, "both ends count the same bytes");
    assert_eq!((received.full_batches, received.incomplete_batches), (2, 1));
    assert_eq!(received.net_time_us, None, "a receiver times no round trip");
    let records = statistics_records(receiving);
    assert_eq!(records.len(), 1, "one STATISTICS_CHL record: {records:?}");
    assert_eq!(records[0]["MsgCount"], 10);
    assert_eq!(records[0]["FullBatchCount"], 2);
    assert_eq!(records[0]["RemoteQmgr"], "QM1");
    // QUIET's receiving end has STATCHL(QMGR) under QM2's STATCHL(OFF).
    assert_eq!(records[0]["ChannelName"], CHANNEL);

    // An idle interval reports the running channel with nothing counted; after it ends,
    // its last interval once, then nothing.
    let idle = record_of(&close_interval(sending), CHANNEL).expect("a running channel is reported");
    assert_eq!((idle.messages, idle.full_batches), (0, 0));
    assert!(qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce));
    assert!(sender.wait_ended(PATIENCE));
    assert!(
        record_of(&close_interval(sending), CHANNEL).is_some(),
        "its last interval"
    );
    assert!(
        record_of(&close_interval(sending), CHANNEL).is_none(),
        "then no more"
    );
    qm1.chinit.stop_sender(QUIET, StopMode::Quiesce);
}

/// IBM's PCF classes (`tests/java`'s PcfStatistics, com.ibm.mq.headers.pcf.PCFMessage from
/// IBM's allclient jar, fetched by Maven at test time) parse every statistics and accounting
/// message QM1 wrote for known work: ten messages put with MQPUT1 to a remote queue and sent
/// over the channel in batches of four. Needs a JDK (17 or later) and Maven on the PATH.
#[test]
fn ibm_pcf_classes_parse_the_statistics_and_accounting_messages() {
    let (qm1, _qm2) = pair();
    let sending = &qm1.fixture.queue_manager;
    mqsc_ok(
        sending,
        "ALTER QMGR STATMQI(ON) ACCTMQI(ON) STATQ(ON) ACCTQ(ON)",
    );
    put_ten(sending);
    let sender = qm1.chinit.start_channel(CHANNEL).unwrap();
    wait_until("ten messages confirmed", || {
        sender.snapshot().messages == 10
    });
    sending.close_statistics_interval().unwrap();
    let output = support::java::run_java(
        "PcfStatistics",
        &support::java::channel_arguments(&qm1, &[]),
    );
    assert!(output.contains("2 passed, 0 failed"), "every check ran");
    let lines: Vec<&str> = output.lines().collect();
    let has = |command: &str, parameter: &str| {
        lines
            .iter()
            .any(|line| line.starts_with(command) && line.ends_with(parameter))
    };
    // The channel's group: ten messages in two full batches and one incomplete.
    for parameter in [
        "MQCACH_CHANNEL_NAME=QM1.TO.QM2",
        "MQIACH_CHANNEL_TYPE=1",
        "MQCA_REMOTE_Q_MGR_NAME=QM2",
        "MQIAMO_MSGS=10",
        "MQIAMO_FULL_BATCHES=2",
        "MQIAMO_INCOMPLETE_BATCHES=1",
        "MQIAMO_AVG_BATCH_SIZE=3",
        "MQIAMO_PUT_RETRIES=0",
    ] {
        assert!(has("STATISTICS_CHANNEL", parameter), "{parameter}");
    }
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("STATISTICS_CHANNEL") && line.contains("MQIAMO64_BYTES=")),
        "TotalBytes, an MQCFIN64"
    );
    // The transmission queue's statistics: ten non-persistent messages put.
    assert!(has("STATISTICS_Q", "MQCA_Q_NAME=QM2"));
    assert!(has("STATISTICS_Q", "MQIAMO_PUTS=[10, 0]"));
    assert!(lines
        .iter()
        .any(|line| line.starts_with("STATISTICS_MQI") && line.contains("MQIAMO_PUT1S=")));
    // The putting connection's accounting: its ten MQPUT1 calls, and its queue's.
    assert!(has("ACCOUNTING_MQI", "MQIAMO_PUT1S=[10, 0]"));
    assert!(has("ACCOUNTING_Q", "MQCA_Q_NAME=QM2"));
    qm1.chinit.stop_sender(CHANNEL, StopMode::Quiesce);
}
