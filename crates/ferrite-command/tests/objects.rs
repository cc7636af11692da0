//! Objects beyond QLOCAL through MQSC: every type survives a restart exactly as displayed,
//! the default objects, and the command server on SYSTEM.ADMIN.COMMAND.QUEUE (MQSC and PCF
//! requests) with a channel initiator attached.

mod support;

use std::sync::Arc;

use ferrite_command::{
    define_default_objects, run_command, CommandProcessor, CommandServer, ADMIN_COMMAND_QUEUE,
    COMMAND_QUEUE,
};
use ferrite_constants::{
    completion::MQCC_FAILED,
    encoding::MQENC_NATIVE,
    format::{MQFMT_ADMIN, MQFMT_STRING},
    get_options::*,
    match_options::*,
    message_type::*,
    open_options::*,
    pcf::{MQCFC_LAST, MQCFT_COMMAND, MQCFT_INTEGER, MQCFT_RESPONSE},
    pcf_reason::{MQRCCF_CFH_TYPE_ERROR, MQRCCF_PARM_COUNT_TOO_SMALL},
    pcf_selector::MQIACF_PARAMETER_ID,
    put_options::*,
    reason::*,
    selector::MQCA_Q_NAME,
};
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::{ObjectType, QueueManager, KEEPALIVE_AUTO};
use ferrite_storage::vfs::RealFileSystem;

fn reopen(directory: &std::path::Path) -> Arc<QueueManager> {
    QueueManager::open(Arc::new(RealFileSystem), directory, Arc::new(|_: &str| {})).unwrap()
}

fn ok(queue_manager: &Arc<QueueManager>, command: &str) -> Vec<String> {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}\n{}", response.text());
    response.lines
}

#[test]
fn every_object_type_is_recovered_at_restart_as_it_was_displayed() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    for command in [
        "DEFINE STGCLASS(FAST) PSID(02) DESCR('Page set two')",
        "DEFINE QLOCAL(APP.LOCAL) STGCLASS(FAST) MAXDEPTH(77) DEFPSIST(YES) INDXTYPE(CORRELID)",
        "DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN) MAXMSGL(1000) DESCR('line\\one')",
        "DEFINE QALIAS(APP.ALIAS) TARGET(APP.LOCAL) GET(DISABLED) DEFPRTY(8)",
        "DEFINE QREMOTE(APP.REMOTE) RNAME(THEIRS) RQMNAME(QM2) XMITQ(QM2.XMIT) PUT(DISABLED)",
        "DEFINE CHANNEL(APP.CHL) CHLTYPE(SVRCONN) HBINT(20) KAINT(15) SHARECNV(3) MAXINST(9) MAXINSTC(2) DISCINT(600) MONCHL(LOW) MAXMSGL(65536)",
        "DEFINE PROCESS(APP.PROC) APPLICID('/bin/app --flag') APPLTYPE(7) USERDATA('u') ENVRDATA('e')",
        "DEFINE NAMELIST(APP.LIST) NAMES(A.ONE, B.TWO, C.THREE)",
        // Replaced and altered objects come back with their last image.
        "ALTER QALIAS(APP.ALIAS) DESCR('altered')",
        "DEFINE PROCESS(APP.PROC) LIKE(APP.PROC) REPLACE DESCR('replaced')",
        "DEFINE PROCESS(APP.GONE)",
        "DELETE PROCESS(APP.GONE)",
    ] {
        ok(&queue_manager, command);
    }
    let displays = [
        "DISPLAY QUEUE(APP.*) ALL",
        "DISPLAY CHANNEL(*) ALL",
        "DISPLAY PROCESS(*) ALL",
        "DISPLAY NAMELIST(*) ALL",
        "DISPLAY STGCLASS(*) ALL",
    ];
    let before: Vec<Vec<String>> = displays.iter().map(|c| ok(&queue_manager, c)).collect();
    queue_manager.shutdown().unwrap();
    drop(queue_manager);

    let queue_manager = reopen(directory.path());
    let after: Vec<Vec<String>> = displays.iter().map(|c| ok(&queue_manager, c)).collect();
    assert_eq!(before, after);
    assert!(before[0].iter().any(|line| line.contains("TYPE(QREMOTE)")));
    assert!(before[2]
        .iter()
        .any(|line| line.contains("DESCR(replaced)")));
    assert!(!before[2].iter().any(|line| line.contains("APP.GONE")));
    let channel = queue_manager.channel("APP.CHL").unwrap();
    assert_eq!(channel.keepalive_interval, 15);
    assert_eq!(channel.max_instances_per_client, 2);
    assert_eq!(channel.monitoring, "LOW");
    // The storage class still places queues and still refuses to go while used.
    assert_eq!(
        queue_manager
            .queue("APP.LOCAL")
            .unwrap()
            .definition()
            .page_set
            .0,
        2
    );
    let response = run_command(&queue_manager, "DELETE STGCLASS(FAST)");
    assert!(!response.success);
    assert!(
        response.text().contains("MQRC_OBJECT_IN_USE 2042"),
        "{}",
        response.text()
    );

    // A second restart after a crash-free shutdown with nothing changed reads the same images.
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = reopen(directory.path());
    let again: Vec<Vec<String>> = displays.iter().map(|c| ok(&queue_manager, c)).collect();
    assert_eq!(before, again);
    queue_manager.shutdown().unwrap();
}

#[test]
fn queue_and_queue_manager_attributes_survive_restart_and_take_effect() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    for command in [
        "DEFINE PROCESS(APP.TRIGGERED.PROC) APPLICID('/bin/true')",
        "DEFINE QLOCAL(APP.TRIGGERED) TRIGGER TRIGTYPE(DEPTH) TRIGDPTH(5) TRIGMPRI(3) \
         INITQ(SYSTEM.DEFAULT.INITIATION.QUEUE) PROCESS(APP.TRIGGERED.PROC) TRIGDATA('go now') \
         BOTHRESH(3) BOQNAME(APP.BACKOUT) HARDENBO NOSHARE DEFSOPT(EXCL) MSGDLVSQ(FIFO) \
         RETINTVL(48) DEFREADA(YES) DEFPRESP(ASYNC) PROPCTL(FORCE) ACCTQ(ON) MONQ(LOW) \
         STATQ(OFF) QDPHIEV(ENABLED) QDEPTHHI(90) QDPLOEV(ENABLED) QDEPTHLO(10) \
         QDPMAXEV(DISABLED) QSVCIEV(HIGH) QSVCINT(5000)",
        "DEFINE QMODEL(APP.MODEL.TRIGGERED) TRIGGER TRIGTYPE(EVERY) INITQ(APP.INITQ)",
        "DEFINE QLOCAL(APP.XMITQ) USAGE(XMITQ)",
        "ALTER QMGR DESCR('Ferrite test') DEADQ(APP.DLQ) TRIGINT(5000) MAXUMSGS(77) \
         EXPRYINT(30) PERFMEV(ENABLED) CMDEV(ENABLED) STRSTPEV(DISABLED) ACCTQ(ON) MONQ(LOW)",
    ] {
        ok(&queue_manager, command);
    }
    let displays = ["DISPLAY QUEUE(APP.*) ALL", "DISPLAY QMGR ALL"];
    let before: Vec<Vec<String>> = displays.iter().map(|c| ok(&queue_manager, c)).collect();
    let text = before.concat().join("\n");
    for expected in [
        "TRIGGER",
        "TRIGTYPE(DEPTH)",
        "TRIGDPTH(5)",
        "TRIGMPRI(3)",
        "TRIGDATA(go now)",
        "BOTHRESH(3)",
        "BOQNAME(APP.BACKOUT)",
        "HARDENBO",
        "NOSHARE",
        "DEFSOPT(EXCL)",
        "MSGDLVSQ(FIFO)",
        "RETINTVL(48)",
        "DEFREADA(YES)",
        "DEFPRESP(ASYNC)",
        "PROPCTL(FORCE)",
        "ACCTQ(ON)",
        "MONQ(LOW)",
        "QDEPTHHI(90)",
        "QSVCIEV(HIGH)",
        "USAGE(XMITQ)",
        "DEADQ(APP.DLQ)",
        "TRIGINT(5000)",
        "MAXUMSGS(77)",
        "EXPRYINT(30)",
        "PERFMEV(ENABLED)",
        "STRSTPEV(DISABLED)",
        "DESCR(Ferrite test)",
    ] {
        assert!(
            text.contains(&format!(" {expected}\n")) || text.ends_with(expected),
            "{expected} in {text}"
        );
    }
    assert_eq!(queue_manager.max_uncommitted_messages(), 77);
    queue_manager.shutdown().unwrap();
    drop(queue_manager);

    let queue_manager = reopen(directory.path());
    let after: Vec<Vec<String>> = displays.iter().map(|c| ok(&queue_manager, c)).collect();
    assert_eq!(before[0], after[0]);
    // DISPLAY QMGR's QMID is the same too: the whole output matches.
    assert_eq!(before[1], after[1]);
    let attributes = queue_manager.queue_manager_attributes();
    assert_eq!(attributes.dead_letter_queue, "APP.DLQ");
    assert_eq!(attributes.trigger_interval, 5000);
    assert_eq!(queue_manager.max_uncommitted_messages(), 77);
    assert_eq!(queue_manager.expiry_interval_seconds(), 30);
    let definition = queue_manager.queue("APP.TRIGGERED").unwrap().definition();
    assert!(
        definition.trigger_control && !definition.shareable && definition.message_delivery_fifo
    );

    // Contradictions and bad values are refused and change nothing.
    for (command, error) in [
        ("ALTER QLOCAL(APP.TRIGGERED) TRIGGER NOTRIGGER", "CSQ9011E"),
        ("ALTER QLOCAL(APP.TRIGGERED) TRIGDPTH(0)", "CSQ9004E"),
        (
            "ALTER QLOCAL(APP.TRIGGERED) TRIGTYPE(SOMETIMES)",
            "CSQ9004E",
        ),
        ("ALTER QLOCAL(APP.TRIGGERED) INITQ('BAD NAME')", "CSQ9004E"),
        ("ALTER QMGR MAXUMSGS(0)", "CSQ9004E"),
        ("ALTER QMGR DEADQ('NOT A NAME')", "CSQ9004E"),
        ("ALTER QMGR TRIGINT(5) NOSUCH(1)", "CSQ9001E"),
        ("DEFINE QMGR", "CSQ9001E"),
    ] {
        let response = run_command(&queue_manager, command);
        assert!(!response.success, "{command}");
        assert!(
            response.text().contains(error),
            "{command}: {}",
            response.text()
        );
    }
    assert_eq!(
        queue_manager.queue_manager_attributes().trigger_interval,
        5000
    );
    assert_eq!(
        queue_manager
            .queue("APP.TRIGGERED")
            .unwrap()
            .definition()
            .trigger_depth,
        5
    );
    queue_manager.shutdown().unwrap();
}

#[test]
fn default_objects_are_defined_once_with_mq_defaults() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let defined = define_default_objects(&queue_manager).unwrap();
    for name in [
        "SYSTEM.DEFAULT.LOCAL.QUEUE",
        "SYSTEM.DEFAULT.MODEL.QUEUE",
        "SYSTEM.DEFAULT.ALIAS.QUEUE",
        "SYSTEM.DEFAULT.REMOTE.QUEUE",
        "SYSTEM.DEAD.LETTER.QUEUE",
        "SYSTEM.COMMAND.INPUT",
        "SYSTEM.ADMIN.COMMAND.QUEUE",
        "SYSTEM.DEF.SVRCONN",
        "SYSTEM.ADMIN.SVRCONN",
        "DEV.APP.SVRCONN",
        "SYSTEM.DEFAULT.PROCESS",
        "SYSTEM.DEFAULT.NAMELIST",
        "SYSTEM.CHANNEL.SYNCQ",
        "SYSTEM.CHANNEL.INITQ",
        "DEFAULT",
    ] {
        assert!(defined.iter().any(|d| d == name), "{name} in {defined:?}");
    }
    // MQ's default CHLAUTH records, set with the first default objects, as crtmqm sets them.
    let lines = ok(&queue_manager, "DISPLAY CHLAUTH(*) ALL");
    for expected in [
        "CHLAUTH(SYSTEM.ADMIN.SVRCONN)",
        "CHLAUTH(SYSTEM.*)",
        "USERSRC(NOACCESS)",
        "USERLIST('*MQADMIN')",
    ] {
        assert!(
            lines.iter().any(|line| line.contains(expected)),
            "{expected} in {lines:?}"
        );
    }
    assert_eq!(queue_manager.channel_authentication_records().len(), 3);
    // An operator's removal of one is kept: the records are not set again at the next start.
    ok(
        &queue_manager,
        "SET CHLAUTH('*') TYPE(BLOCKUSER) ACTION(REMOVEALL)",
    );
    assert_eq!(queue_manager.channel_authentication_records().len(), 2);
    // A second run changes nothing, and keeps what an operator altered.
    ok(&queue_manager, "ALTER CHANNEL(DEV.APP.SVRCONN) SHARECNV(1)");
    assert!(define_default_objects(&queue_manager).unwrap().is_empty());
    let channel = queue_manager.channel("DEV.APP.SVRCONN").unwrap();
    assert_eq!(channel.sharing_conversations, 1);
    // The channel defaults the brief and MQ give.
    let channel = queue_manager.channel("SYSTEM.DEF.SVRCONN").unwrap();
    assert_eq!(
        (
            channel.max_message_length,
            channel.heartbeat_interval,
            channel.keepalive_interval,
            channel.sharing_conversations,
            channel.max_instances,
            channel.max_instances_per_client,
            channel.disconnect_interval,
            channel.monitoring.as_str()
        ),
        (
            4_194_304,
            300,
            KEEPALIVE_AUTO,
            10,
            999_999_999,
            999_999_999,
            0,
            "QMGR"
        )
    );
    let lines = ok(
        &queue_manager,
        "DISPLAY QMODEL(SYSTEM.DEFAULT.MODEL.QUEUE) DEFTYPE",
    );
    assert!(
        lines.iter().any(|line| line.contains("DEFTYPE(TEMPDYN)")),
        "{lines:?}"
    );
    // JMS temporary queues: MQOPEN of the default model with AMQ.*.
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let mut od = Mqod {
        dynamic_q_name: "AMQ.*".into(),
        ..Mqod::queue("SYSTEM.DEFAULT.MODEL.QUEUE")
    };
    connection.open(&mut od, MQOO_INPUT_EXCLUSIVE).unwrap();
    assert!(od.object_name.starts_with("AMQ."));
    let lines = ok(&queue_manager, "DISPLAY QLOCAL(AMQ.*) DEFTYPE");
    assert!(
        lines.iter().any(|line| line.contains("DEFTYPE(TEMPDYN)")),
        "{lines:?}"
    );
    // The default alias has no target: opening it says so.
    let error = connection
        .open(&mut Mqod::queue("SYSTEM.DEFAULT.ALIAS.QUEUE"), MQOO_OUTPUT)
        .unwrap_err();
    assert_eq!(error.reason, MQRC_UNKNOWN_ALIAS_BASE_Q);
    connection.disconnect().unwrap();
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = reopen(directory.path());
    assert!(define_default_objects(&queue_manager).unwrap().is_empty());
    assert_eq!(queue_manager.channel_authentication_records().len(), 2);
    assert!(queue_manager
        .object(ObjectType::RemoteQueue, "SYSTEM.DEFAULT.REMOTE.QUEUE")
        .is_some());
    queue_manager.shutdown().unwrap();
}

/// Put a request to `queue` with ReplyToQ ADMIN.REPLY; returns its descriptor.
fn send(connection: &mut Connection, queue: &str, format: [u8; 8], data: &[u8]) -> Mqmd {
    let mut md = Mqmd {
        msg_type: MQMT_REQUEST,
        reply_to_q: "ADMIN.REPLY".into(),
        format,
        ..Mqmd::default()
    };
    connection
        .put1(
            &mut Mqod::queue(queue),
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID),
            data,
        )
        .unwrap();
    md
}

/// Every reply to `request`, waiting up to 10 s for the first.
fn replies(connection: &mut Connection, request: &Mqmd) -> Vec<(Vec<u8>, Mqmd)> {
    let hobj = connection
        .open(&mut Mqod::queue("ADMIN.REPLY"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut replies = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let mut md = Mqmd {
            correl_id: request.msg_id,
            ..Mqmd::default()
        };
        let mut gmo = Mqgmo::matching(MQGMO_WAIT | MQGMO_NO_SYNCPOINT, MQMO_MATCH_CORREL_ID);
        gmo.wait_interval = if replies.is_empty() { 10_000 } else { 500 };
        match connection.get(hobj, &mut md, &mut gmo, &mut buffer) {
            Ok(got) => replies.push((buffer[..got.data_length].to_vec(), md)),
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
            Err(error) => panic!("get reply: {error:?}"),
        }
    }
    connection.close(hobj, 0).unwrap();
    replies
}

fn pcf_fields(data: &[u8]) -> Vec<i32> {
    data.chunks(4)
        .map(|chunk| i32::from_le_bytes(chunk.try_into().unwrap()))
        .collect()
}

#[test]
fn command_server_serves_mqsc_and_answers_pcf_on_the_admin_queue() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    define_default_objects(&queue_manager).unwrap();
    ok(
        &queue_manager,
        "DEFINE QLOCAL(ADMIN.REPLY) INDXTYPE(CORRELID)",
    );
    let processor = Arc::new(CommandProcessor::new(queue_manager.clone()));
    processor.set_channel_initiator(Some(Arc::new(support::FakeInitiator::new(1414))));
    let server = CommandServer::start_processor(
        processor.clone(),
        &[COMMAND_QUEUE, ADMIN_COMMAND_QUEUE],
        Arc::new(|_: &str| {}),
    );
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();

    // MQSC on SYSTEM.ADMIN.COMMAND.QUEUE, with the channel initiator the processor holds.
    let request = send(
        &mut connection,
        ADMIN_COMMAND_QUEUE,
        MQFMT_STRING,
        b"DISPLAY CHSTATUS(DEV.*)",
    );
    let texts: Vec<String> = replies(&mut connection, &request)
        .into_iter()
        .map(|(data, _)| String::from_utf8(data).unwrap())
        .collect();
    assert_eq!(
        texts[0],
        "CSQN205I    COUNT=       3, RETURN=00000000, REASON=00000000"
    );
    assert!(
        texts[1].starts_with("CSQM297I QM1 CSQXDRTS NO CHSTATUS"),
        "{texts:?}"
    );
    let request = send(&mut connection, COMMAND_QUEUE, MQFMT_STRING, b"DIS CHS(*)");
    let texts: Vec<String> = replies(&mut connection, &request)
        .into_iter()
        .map(|(data, _)| String::from_utf8(data).unwrap())
        .collect();
    assert_eq!(texts.len(), 5, "{texts:?}");
    assert!(texts[2].contains("CONNAME(192.0.2.7(51234))"), "{texts:?}");

    // A PCF command without its required QName: one reply that says it failed and names
    // the parameter, in the request's encoding.
    let mut command = Vec::new();
    for field in [
        MQCFT_COMMAND,
        36,
        1,
        13, /* MQCMD_INQUIRE_Q */
        1,
        MQCFC_LAST,
        0,
        0,
        0,
    ] {
        command.extend_from_slice(&field.to_le_bytes());
    }
    let request = send(&mut connection, ADMIN_COMMAND_QUEUE, MQFMT_ADMIN, &command);
    assert_eq!(request.encoding, MQENC_NATIVE);
    let got = replies(&mut connection, &request);
    assert_eq!(got.len(), 1);
    let (data, md) = &got[0];
    assert_eq!(md.format, MQFMT_ADMIN);
    assert_eq!(md.msg_type, MQMT_REPLY);
    assert_eq!(
        pcf_fields(data),
        vec![
            MQCFT_RESPONSE,
            36,
            1,
            13,
            1,
            MQCFC_LAST,
            MQCC_FAILED,
            MQRCCF_PARM_COUNT_TOO_SMALL,
            1,
            MQCFT_INTEGER,
            16,
            MQIACF_PARAMETER_ID,
            MQCA_Q_NAME,
        ]
    );
    // A PCF message whose header is not a command.
    let request = send(
        &mut connection,
        ADMIN_COMMAND_QUEUE,
        MQFMT_ADMIN,
        b"not a header",
    );
    let got = replies(&mut connection, &request);
    assert_eq!(got.len(), 1);
    assert_eq!(pcf_fields(&got[0].0)[7], MQRCCF_CFH_TYPE_ERROR);
    assert_eq!(pcf_fields(&got[0].0)[6], MQCC_FAILED);

    connection.disconnect().unwrap();
    server.stop();
    queue_manager.shutdown().unwrap();
}
