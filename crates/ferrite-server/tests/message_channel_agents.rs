//! Message channel agents between two queue managers in this process: a sending agent on QM1
//! and a receiving agent on QM2, their batches carried through the message channel flows'
//! codec (MESSAGE_DATA segments of at most 4 KiB, encoded, decoded and reassembled). A message
//! put to a remote queue on QM1 arrives on QM2's queue with its descriptor; request and reply
//! cross both ways; batches follow BATCHSZ; an undeliverable message reaches the dead-letter
//! queue; a restart of either side at each step of a batch loses and duplicates nothing; and
//! NPMSPEED(FAST) non-persistent messages arrive at once and never twice.

use std::path::Path;
use std::sync::Arc;

use ferrite_constants::{
    format::*, get_options::*, match_options::*, message_type::*, open_options::*, persistence::*,
    put_options::*, reason::*,
};
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_protocol::message_channel::{message_flow_segments, MessageData};
use ferrite_protocol::segment::{ControlFlags1, Reassembler, Segment, SegmentHeader};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::QueueManager;
use ferrite_server::message_channel::{Batch, Delivery, ReceivingAgent, SendingAgent};
use ferrite_test_kit::{create, mqsc_ok, open};

/// The largest segment the test's channel carries, so that big messages are segmented.
const TRANSMISSION_SIZE: u32 = 4096;

struct Pair {
    directories: [tempfile::TempDir; 2],
    qm1: Arc<QueueManager>,
    qm2: Arc<QueueManager>,
}

/// QM1 sends to QM2 over QM1.TO.QM2 (transmission queue QM2); QM2 has APP.IN and a
/// dead-letter queue; `sender_attributes` are the sender's extra DEFINE attributes.
fn pair(sender_attributes: &str) -> Pair {
    let directories = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    create(directories[0].path(), "QM1");
    create(directories[1].path(), "QM2");
    let qm1 = open(directories[0].path());
    let qm2 = open(directories[1].path());
    for qm in [&qm1, &qm2] {
        // SYSTEM.CHANNEL.SYNCQ and the dead-letter queue among them.
        ferrite_command::define_default_objects(qm).unwrap();
    }

    mqsc_ok(&qm1, "DEFINE QLOCAL(QM2) USAGE(XMITQ)");
    mqsc_ok(
        &qm1,
        "DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)",
    );
    mqsc_ok(
        &qm1,
        &format!("DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1(1414)') XMITQ(QM2) {sender_attributes}"),
    );
    mqsc_ok(&qm1, "DEFINE QLOCAL(REPLY.Q)");
    mqsc_ok(&qm2, "DEFINE QLOCAL(APP.IN)");
    mqsc_ok(&qm2, "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)");
    Pair {
        directories,
        qm1,
        qm2,
    }
}

fn restart(queue_manager: Arc<QueueManager>, directory: &Path) -> Arc<QueueManager> {
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    open(directory)
}

fn sender(qm: &Arc<QueueManager>, channel: &str) -> SendingAgent {
    SendingAgent::open(qm.clone(), &qm.channel(channel).unwrap()).unwrap()
}

fn receiver(qm: &Arc<QueueManager>, channel: &str) -> ReceivingAgent {
    ReceivingAgent::open(qm.clone(), &qm.channel(channel).unwrap()).unwrap()
}

/// Every message of `batch` through the flows' codec to `receiver` (the first `count` only
/// when given): the deliveries.
fn carry(batch: &Batch, receiver: &mut ReceivingAgent, count: Option<usize>) -> Vec<Delivery> {
    let count = count.unwrap_or(batch.messages.len());
    let mut deliveries = Vec::new();
    for (index, message) in batch.messages.iter().take(count).enumerate() {
        let last = index + 1 == batch.messages.len();
        let segments = message_flow_segments(
            message.sequence_number,
            &message.message,
            ByteOrder::Little,
            546,
            1208,
            TRANSMISSION_SIZE,
            last,
        )
        .unwrap();
        let mut reassembler = Reassembler::new(1 << 24);
        let mut whole = None;
        let mut confirm_requested = false;
        for segment in segments {
            let bytes = segment.encode().unwrap();
            assert!(bytes.len() <= TRANSMISSION_SIZE as usize);
            let header = SegmentHeader::decode(&bytes).unwrap();
            confirm_requested |= header.flags1.0 & ControlFlags1::CONFIRM_REQUEST != 0;
            let payload = bytes[header.header_length()..].to_vec();
            whole = reassembler.push(Segment::new(header, payload)).unwrap();
        }
        assert_eq!(
            confirm_requested, last,
            "only the batch's last message asks"
        );
        let whole = whole.expect("the flow is complete");
        let flow = MessageData::decode(&whole.payload, whole.header.byte_order).unwrap();
        deliveries.push(receiver.receive(&flow).unwrap());
    }
    deliveries
}

/// One whole batch from `sender` to `receiver`, confirmed: its deliveries.
fn transfer(sender: &mut SendingAgent, receiver: &mut ReceivingAgent) -> Vec<Delivery> {
    let batch = sender.next_batch().unwrap().expect("messages wait");
    let deliveries = carry(&batch, receiver, None);
    assert_eq!(receiver.end_of_batch().unwrap(), batch.last_sequence());
    sender.confirmed().unwrap();
    deliveries
}

/// Put `count` persistent messages of `size` bytes (each byte its index) to TO.QM2 on `qm`.
fn put_numbered(qm: &Arc<QueueManager>, count: u8, size: usize) {
    for index in 0..count {
        let (mut md, data) = persistent(&vec![index; size]);
        put_remote(qm, "TO.QM2", &mut md, &data);
    }
}

/// Every batch until the transmission queue is empty, each checked to be numbered in order:
/// their sizes.
fn transfer_all(sending: &mut SendingAgent, receiving: &mut ReceivingAgent) -> Vec<usize> {
    let mut sizes = Vec::new();
    while let Some(batch) = sending.next_batch().unwrap() {
        sizes.push(batch.messages.len());
        let numbers: Vec<u32> = batch.messages.iter().map(|m| m.sequence_number).collect();
        let first = numbers[0];
        assert_eq!(
            numbers,
            (first..first + numbers.len() as u32).collect::<Vec<_>>()
        );
        carry(&batch, receiving, None);
        receiving.end_of_batch().unwrap();
        sending.confirmed().unwrap();
    }
    sizes
}

fn put_remote(qm: &Arc<QueueManager>, queue: &str, md: &mut Mqmd, data: &[u8]) {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    connection
        .put1(
            &mut Mqod::queue(queue),
            md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            data,
        )
        .unwrap();
}

/// Every message on `queue`, got destructively.
fn drain(qm: &Arc<QueueManager>, queue: &str) -> Vec<(Mqmd, Vec<u8>)> {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue(queue), MQOO_INPUT_SHARED)
        .unwrap();
    let mut messages = Vec::new();
    loop {
        let mut md = Mqmd::default();
        let mut data = Vec::new();
        let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT);
        match connection.get_appending(hobj, &mut md, &mut gmo, &mut data, 1 << 20) {
            Ok(_) => messages.push((md, data)),
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => return messages,
            Err(error) => panic!("{error}"),
        }
    }
}

fn persistent(body: &[u8]) -> (Mqmd, Vec<u8>) {
    (
        Mqmd {
            persistence: MQPER_PERSISTENT,
            format: MQFMT_STRING,
            ..Mqmd::default()
        },
        body.to_vec(),
    )
}

#[test]
fn a_message_put_to_a_remote_queue_arrives_with_its_descriptor() {
    let pair = pair("");
    let mut md = Mqmd {
        persistence: MQPER_PERSISTENT,
        priority: 6,
        format: MQFMT_STRING,
        correl_id: [4; 24],
        msg_type: MQMT_REQUEST,
        reply_to_q: "REPLY.Q".into(),
        ..Mqmd::default()
    };
    put_remote(&pair.qm1, "TO.QM2", &mut md, b"hello QM2");
    let large: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
    put_remote(&pair.qm1, "TO.QM2", &mut persistent(&large).0, &large);
    let mut sending = sender(&pair.qm1, "QM1.TO.QM2");
    let mut receiving = receiver(&pair.qm2, "QM1.TO.QM2");
    assert_eq!(
        transfer(&mut sending, &mut receiving),
        vec![Delivery::Delivered, Delivery::Delivered]
    );
    assert!(
        sending.next_batch().unwrap().is_none(),
        "the transmission queue is empty"
    );
    assert_eq!(receiving.last_committed(), 2);
    let arrived = drain(&pair.qm2, "APP.IN");
    assert_eq!(arrived.len(), 2);
    let (got, data) = &arrived[0];
    assert_eq!(data, b"hello QM2");
    assert_eq!(got.msg_id, md.msg_id);
    assert_eq!(got.correl_id, [4; 24]);
    assert_eq!((got.priority, got.persistence), (6, MQPER_PERSISTENT));
    assert_eq!((got.format, got.msg_type), (MQFMT_STRING, MQMT_REQUEST));
    assert_eq!(got.reply_to_q.trim(), "REPLY.Q");
    assert_eq!(got.reply_to_q_mgr.trim(), "QM1");
    assert_eq!(got.put_appl_name, md.put_appl_name);
    assert_eq!(got.put_date, md.put_date);
    assert_eq!(got.user_identifier, md.user_identifier);
    assert_eq!(arrived[1].1, large, "a segmented message arrives whole");
}

#[test]
fn request_and_reply_cross_two_queue_managers() {
    let pair = pair("");
    mqsc_ok(&pair.qm2, "DEFINE QLOCAL(QM1) USAGE(XMITQ)");
    mqsc_ok(
        &pair.qm2,
        "DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(SDR) CONNAME('127.0.0.1(1414)') XMITQ(QM1)",
    );
    mqsc_ok(&pair.qm1, "DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR)");
    let mut request = Mqmd {
        msg_type: MQMT_REQUEST,
        reply_to_q: "REPLY.Q".into(),
        ..Mqmd::default()
    };
    put_remote(&pair.qm1, "TO.QM2", &mut request, b"what time is it?");
    transfer(
        &mut sender(&pair.qm1, "QM1.TO.QM2"),
        &mut receiver(&pair.qm2, "QM1.TO.QM2"),
    );
    // The responder on QM2 answers where the request says, by name resolution alone.
    let (got, _) = drain(&pair.qm2, "APP.IN").remove(0);
    let mut reply_od = Mqod::queue(got.reply_to_q.trim());
    reply_od.object_q_mgr_name = got.reply_to_q_mgr.trim().into();
    let mut reply = Mqmd {
        msg_type: MQMT_REPLY,
        correl_id: got.msg_id,
        ..Mqmd::default()
    };
    let mut responder = Connection::connect(pair.qm2.clone(), "").unwrap();
    responder
        .put1(
            &mut reply_od,
            &mut reply,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"noon",
        )
        .unwrap();
    transfer(
        &mut sender(&pair.qm2, "QM2.TO.QM1"),
        &mut receiver(&pair.qm1, "QM2.TO.QM1"),
    );
    let mut requester = Connection::connect(pair.qm1.clone(), "").unwrap();
    let hobj = requester
        .open(&mut Mqod::queue("REPLY.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut md = Mqmd {
        correl_id: request.msg_id,
        ..Mqmd::default()
    };
    let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT);
    gmo.match_options = MQMO_MATCH_CORREL_ID;
    let mut buffer = [0u8; 64];
    let result = requester.get(hobj, &mut md, &mut gmo, &mut buffer).unwrap();
    assert_eq!(&buffer[..result.returned_length], b"noon");
    assert_eq!(md.msg_type, MQMT_REPLY);
}

#[test]
fn batches_follow_batchsz_and_are_numbered_in_order() {
    let pair = pair("BATCHSZ(3)");
    put_numbered(&pair.qm1, 7, 1);
    let mut sending = sender(&pair.qm1, "QM1.TO.QM2");
    let mut receiving = receiver(&pair.qm2, "QM1.TO.QM2");
    let sizes = transfer_all(&mut sending, &mut receiving);
    assert_eq!(sizes, vec![3, 3, 1]);
    assert_eq!(receiving.last_committed(), 7);
    let bodies: Vec<Vec<u8>> = drain(&pair.qm2, "APP.IN")
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    assert_eq!(bodies, (0..7u8).map(|i| vec![i]).collect::<Vec<_>>());
}

#[test]
fn an_undeliverable_message_goes_to_the_dead_letter_queue_with_an_mqdlh() {
    let pair = pair("");
    mqsc_ok(&pair.qm2, "DEFINE QLOCAL(FULL.Q) PUT(DISABLED)");
    for queue in ["NO.SUCH.Q", "FULL.Q", "APP.IN"] {
        let (mut md, data) = persistent(queue.as_bytes());
        let mut connection = Connection::connect(pair.qm1.clone(), "").unwrap();
        let mut od = Mqod::queue(queue);
        od.object_q_mgr_name = "QM2".into();
        connection
            .put1(
                &mut od,
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                &data,
            )
            .unwrap();
    }
    let deliveries = transfer(
        &mut sender(&pair.qm1, "QM1.TO.QM2"),
        &mut receiver(&pair.qm2, "QM1.TO.QM2"),
    );
    assert_eq!(
        deliveries,
        vec![
            Delivery::DeadLettered(MQRC_UNKNOWN_OBJECT_NAME),
            Delivery::DeadLettered(MQRC_PUT_INHIBITED),
            Delivery::Delivered
        ]
    );
    let dead = drain(&pair.qm2, "SYSTEM.DEAD.LETTER.QUEUE");
    assert_eq!(dead.len(), 2);
    for ((md, data), (reason_code, queue)) in dead.iter().zip([
        (MQRC_UNKNOWN_OBJECT_NAME, "NO.SUCH.Q"),
        (MQRC_PUT_INHIBITED, "FULL.Q"),
    ]) {
        assert_eq!(md.format, MQFMT_DEAD_LETTER_HEADER);
        assert_eq!(&data[..4], b"DLH ");
        assert_eq!(
            i32::from_le_bytes(data[8..12].try_into().unwrap()),
            reason_code
        );
        assert_eq!(String::from_utf8_lossy(&data[12..60]).trim(), queue);
        assert_eq!(String::from_utf8_lossy(&data[60..108]).trim(), "QM2");
        assert_eq!(&data[172..], queue.as_bytes());
    }
    assert_eq!(drain(&pair.qm2, "APP.IN").len(), 1);
}

#[test]
fn a_restart_of_either_side_loses_and_duplicates_nothing() {
    let Pair {
        directories,
        mut qm1,
        mut qm2,
    } = pair("BATCHSZ(3)");
    let put_three = |qm: &Arc<QueueManager>, first: u8| {
        for index in first..first + 3 {
            let (mut md, data) = persistent(&[index]);
            put_remote(qm, "TO.QM2", &mut md, &data);
        }
    };
    // 1. The receiver commits the batch; the sender restarts before it hears so.
    put_three(&qm1, 0);
    let mut sending = sender(&qm1, "QM1.TO.QM2");
    let mut receiving = receiver(&qm2, "QM1.TO.QM2");
    let batch = sending.next_batch().unwrap().unwrap();
    carry(&batch, &mut receiving, None);
    receiving.end_of_batch().unwrap();
    drop(sending);
    qm1 = restart(qm1, directories[0].path());
    let mut sending = sender(&qm1, "QM1.TO.QM2");
    assert!(
        sending.in_doubt().is_some(),
        "the batch is in doubt after the restart"
    );
    sending.resolve(receiving.last_committed()).unwrap();
    assert!(
        sending.in_doubt().is_none(),
        "the receiver had it: nothing to send again"
    );
    assert!(sending.next_batch().unwrap().is_none());

    // 2. The receiver restarts mid-batch: the sender sends the batch again.
    put_three(&qm1, 3);
    let batch = sending.next_batch().unwrap().unwrap();
    carry(&batch, &mut receiving, Some(2));
    drop(receiving);
    qm2 = restart(qm2, directories[1].path());
    let mut receiving = receiver(&qm2, "QM1.TO.QM2");
    sending.resolve(receiving.last_committed()).unwrap();
    let again = sending.next_batch().unwrap().unwrap();
    assert_eq!(again.messages, batch.messages);
    carry(&again, &mut receiving, None);
    receiving.end_of_batch().unwrap();
    sending.confirmed().unwrap();

    // 3. The sender restarts after taking a batch off the transmission queue, before sending.
    put_three(&qm1, 6);
    sending.next_batch().unwrap().unwrap();
    drop(sending);
    qm1 = restart(qm1, directories[0].path());
    let mut sending = sender(&qm1, "QM1.TO.QM2");
    sending.resolve(receiving.last_committed()).unwrap();
    transfer(&mut sending, &mut receiving);
    assert!(sending.next_batch().unwrap().is_none());
    drop(sending);

    // 4. A batch sent again after its receiver committed it is skipped message by message.
    let bodies: Vec<Vec<u8>> = drain(&qm2, "APP.IN").into_iter().map(|(_, d)| d).collect();
    assert_eq!(bodies, (0..9u8).map(|i| vec![i]).collect::<Vec<_>>());
    assert_eq!(
        carry(&again, &mut receiving, None),
        vec![Delivery::Duplicate; 3]
    );
    assert!(drain(&qm2, "APP.IN").is_empty());
    assert!(
        drain(&qm1, "QM2").is_empty(),
        "nothing left on the transmission queue"
    );
}

#[test]
fn fast_non_persistent_messages_arrive_at_once_and_never_twice() {
    let pair = pair("");
    let mut np = Mqmd {
        persistence: MQPER_NOT_PERSISTENT,
        ..Mqmd::default()
    };
    put_remote(&pair.qm1, "TO.QM2", &mut np, b"fast");
    let (mut md, data) = persistent(b"safe");
    put_remote(&pair.qm1, "TO.QM2", &mut md, &data);
    let mut sending = sender(&pair.qm1, "QM1.TO.QM2");
    let mut receiving = receiver(&pair.qm2, "QM1.TO.QM2");
    let batch = sending.next_batch().unwrap().unwrap();
    assert_eq!(batch.messages.len(), 2);
    carry(&batch, &mut receiving, Some(1));
    // Visible before the batch ends: it was put outside the batch's unit of work.
    let early = drain(&pair.qm2, "APP.IN");
    assert_eq!(early.len(), 1);
    assert_eq!(early[0].1, b"fast");
    // The receiver fails before the end of the batch: only the persistent message is sent
    // again.
    receiving.abandon().unwrap();
    sending.resolve(receiving.last_committed()).unwrap();
    let again = sending.next_batch().unwrap().unwrap();
    assert_eq!(again.messages.len(), 1);
    carry(&again, &mut receiving, None);
    receiving.end_of_batch().unwrap();
    sending.confirmed().unwrap();
    let late = drain(&pair.qm2, "APP.IN");
    assert_eq!(late.len(), 1);
    assert_eq!(late[0].1, b"safe");
}

#[test]
fn batchlim_ends_a_batch_once_its_kilobytes_are_reached() {
    // Each transmission-queue message is 428 bytes of MQXQH and 300 of data: two pass 1 KiB.
    let pair = pair("BATCHLIM(1)");
    put_numbered(&pair.qm1, 3, 300);
    let mut sending = sender(&pair.qm1, "QM1.TO.QM2");
    let mut receiving = receiver(&pair.qm2, "QM1.TO.QM2");
    let sizes = transfer_all(&mut sending, &mut receiving);
    assert_eq!(sizes, vec![2, 1]);
    assert_eq!(drain(&pair.qm2, "APP.IN").len(), 3);
}
