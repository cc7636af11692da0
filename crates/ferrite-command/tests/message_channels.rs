//! Message channel definitions through MQSC: DEFINE, ALTER, DISPLAY and DELETE CHANNEL of
//! CHLTYPE(SDR), SVR, RCVR and RQSTR with MQ's defaults per type, the attributes each type
//! takes, a restart that keeps them, and ALTER QMGR DEFXMITQ.

use ferrite_queue_manager::objects::message_channel::{
    ChannelType, NonPersistentMessageSpeed, PutAuthority,
};
use ferrite_test_kit::{mqsc_fails as refused, mqsc_ok as ok};

#[test]
fn each_channel_type_has_mq_defaults_and_survives_restart() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    ok(
        &queue_manager,
        "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) TRPTYPE(TCP) CONNAME('127.0.0.1(1415),backup.example(1416)') XMITQ(QM2) BATCHSZ(20) BATCHINT(100) NPMSPEED(NORMAL) SHORTRTY(3)",
    );
    ok(
        &queue_manager,
        "DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR) PUTAUT(CTX) SEQWRAP(99999)",
    );
    ok(
        &queue_manager,
        "DEFINE CHANNEL(QM1.SVR) CHLTYPE(SVR) XMITQ(QM3)",
    );
    ok(
        &queue_manager,
        "DEFINE CHANNEL(QM1.RQSTR) CHLTYPE(RQSTR) CONNAME(qm3.example)",
    );
    let sender = queue_manager.channel("QM1.TO.QM2").unwrap();
    assert_eq!(sender.channel_type, ChannelType::Sender);
    assert_eq!(
        sender.message.connection_names,
        vec![
            "127.0.0.1(1415)".to_string(),
            "backup.example(1416)".to_string()
        ]
    );
    assert_eq!(sender.message.batch_size, 20);
    assert_eq!(sender.message.batch_interval_ms, 100);
    assert_eq!(
        sender.message.non_persistent_message_speed,
        NonPersistentMessageSpeed::Normal
    );
    // MQ's defaults for what was not given.
    assert_eq!(sender.message.batch_data_limit_kib, 5_000);
    assert_eq!(sender.message.short_retry_count, 3);
    assert_eq!(sender.message.short_retry_interval_seconds, 60);
    assert_eq!(sender.message.long_retry_count, 999_999_999);
    assert_eq!(sender.message.long_retry_interval_seconds, 1_200);
    assert_eq!(sender.disconnect_interval, 6_000);
    assert_eq!(sender.heartbeat_interval, 300);
    let receiver = queue_manager.channel("QM2.TO.QM1").unwrap();
    assert_eq!(receiver.message.put_authority, PutAuthority::Context);
    assert_eq!(receiver.message.sequence_number_wrap, 99_999);

    let display = ok(&queue_manager, "DISPLAY CHANNEL(QM1.TO.QM2) ALL");
    for shown in [
        "CHLTYPE(SDR)",
        "CONNAME(127.0.0.1(1415),backup.example(1416))",
        "XMITQ(QM2)",
        "BATCHSZ(20)",
        "BATCHLIM(5000)",
        "NPMSPEED(NORMAL)",
        "DISCINT(6000)",
        "SEQWRAP(999999999)",
    ] {
        assert!(display.contains(shown), "{shown} in\n{display}");
    }
    // Only the attributes of its type.
    for absent in ["PUTAUT", "SHARECNV", "MAXINST"] {
        assert!(!display.contains(absent), "{absent} in\n{display}");
    }
    let receiver = ok(&queue_manager, "DISPLAY CHANNEL(QM2.TO.QM1) ALL");
    assert!(receiver.contains("PUTAUT(CTX)"), "{receiver}");
    assert!(
        receiver.contains("COMPHDR(NONE)"),
        "MQ's default: {receiver}"
    );
    assert!(
        receiver.contains("COMPMSG(NONE)"),
        "MQ's default: {receiver}"
    );
    ok(
        &queue_manager,
        "ALTER CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR) COMPHDR(SYSTEM, NONE) COMPMSG(ANY)",
    );
    let receiver = ok(&queue_manager, "DISPLAY CHANNEL(QM2.TO.QM1) ALL");
    assert!(receiver.contains("COMPHDR(SYSTEM,NONE)"), "{receiver}");
    assert!(receiver.contains("COMPMSG(ANY)"), "{receiver}");
    assert!(!receiver.contains("XMITQ"), "{receiver}");
    assert!(!receiver.contains("DISCINT"), "{receiver}");

    // Selection by type and by the new attributes.
    let senders = ok(&queue_manager, "DISPLAY CHANNEL(*) CHLTYPE(SDR)");
    assert!(
        senders.contains("QM1.TO.QM2") && !senders.contains("QM2.TO.QM1"),
        "{senders}"
    );
    let by_xmitq = ok(&queue_manager, "DISPLAY CHANNEL(*) WHERE(XMITQ EQ QM3)");
    assert!(
        by_xmitq.contains("QM1.SVR") && !by_xmitq.contains("QM1.TO.QM2"),
        "{by_xmitq}"
    );

    let before = ok(&queue_manager, "DISPLAY CHANNEL(QM*) ALL");
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = ferrite_test_kit::open(directory.path());
    assert_eq!(ok(&queue_manager, "DISPLAY CHANNEL(QM*) ALL"), before);
}

#[test]
fn attributes_outside_a_channels_type_are_refused() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    // A sender needs CONNAME and XMITQ; a requester CONNAME.
    let missing = refused(&queue_manager, "DEFINE CHANNEL(S) CHLTYPE(SDR) XMITQ(QM2)");
    assert!(missing.contains("CONNAME"), "{missing}");
    let missing = refused(
        &queue_manager,
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)')",
    );
    assert!(missing.contains("XMITQ"), "{missing}");
    refused(&queue_manager, "DEFINE CHANNEL(R) CHLTYPE(RQSTR)");
    for command in [
        "DEFINE CHANNEL(R) CHLTYPE(RCVR) XMITQ(QM2)",
        "DEFINE CHANNEL(R) CHLTYPE(RCVR) CONNAME('h(1)')",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) PUTAUT(CTX)",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) SHARECNV(1)",
        "DEFINE CHANNEL(C) CHLTYPE(SVRCONN) BATCHSZ(5)",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) BATCHSZ(0)",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) BATCHSZ(10000)",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) SEQWRAP(99)",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(99999)') XMITQ(Q)",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) NPMSPEED(SLOW)",
        "DEFINE CHANNEL(S) CHLTYPE(CLUSSDR) CONNAME('h(1)')",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) COMPMSG(ANY)",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) COMPMSG(LZ77)",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) COMPMSG(RLE,RLE)",
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) COMPHDR(RLE)",
        "DEFINE CHANNEL(C) CHLTYPE(SVRCONN) COMPMSG(RLE)",
    ] {
        refused(&queue_manager, command);
    }
    assert!(queue_manager.channel("S").is_none());
    assert!(queue_manager.channel("R").is_none());
    ok(
        &queue_manager,
        "DEFINE CHANNEL(S) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q)",
    );
    // ALTER keeps the type; CHLTYPE, when given, must be it.
    ok(
        &queue_manager,
        "ALTER CHANNEL(S) CHLTYPE(SDR) BATCHSZ(7) CONNAME('h(1),g(2)')",
    );
    let sender = queue_manager.channel("S").unwrap();
    assert_eq!(sender.message.batch_size, 7);
    assert_eq!(sender.message.connection_names.len(), 2);
    refused(&queue_manager, "ALTER CHANNEL(S) CHLTYPE(RCVR) BATCHSZ(7)");
    refused(&queue_manager, "ALTER CHANNEL(S) PUTAUT(CTX)");
    // LIKE copies a channel of the same type.
    ok(
        &queue_manager,
        "DEFINE CHANNEL(S2) CHLTYPE(SDR) LIKE(S) XMITQ(Q2)",
    );
    assert_eq!(queue_manager.channel("S2").unwrap().message.batch_size, 7);
    refused(&queue_manager, "DEFINE CHANNEL(R2) CHLTYPE(RCVR) LIKE(S)");
    refused(&queue_manager, "DELETE CHANNEL(S) CHLTYPE(RCVR)");
    ok(&queue_manager, "DELETE CHANNEL(S) CHLTYPE(SDR)");
    assert!(queue_manager.channel("S").is_none());
}

#[test]
fn defxmitq_is_a_queue_manager_attribute() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let display = ok(&queue_manager, "DISPLAY QMGR DEFXMITQ");
    assert!(display.contains("DEFXMITQ( )"), "{display}");
    ok(&queue_manager, "ALTER QMGR DEFXMITQ(TO.HUB)");
    assert_eq!(
        queue_manager
            .queue_manager_attributes()
            .default_transmission_queue,
        "TO.HUB"
    );
    let display = ok(&queue_manager, "DISPLAY QMGR DEFXMITQ");
    assert!(display.contains("DEFXMITQ(TO.HUB)"), "{display}");
    refused(&queue_manager, "ALTER QMGR DEFXMITQ('bad name!')");
    ok(&queue_manager, "ALTER QMGR DEFXMITQ(' ')");
    assert!(queue_manager
        .queue_manager_attributes()
        .default_transmission_queue
        .is_empty());
}
