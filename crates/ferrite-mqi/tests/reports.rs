//! Report messages (COA, COD, expiration, exception), the dead-letter queue and its MQDLH.

use std::sync::Arc;
use std::time::Duration;

use ferrite_constants::{
    appl_type::MQAT_QMGR, expiry::MQEI_UNLIMITED, feedback::*, format::MQFMT_STRING,
    get_options::*, message_type::*, open_options::*, persistence::*, put_options::*, reason::*,
    report::*,
};
use ferrite_message::dead_letter_header::DEAD_LETTER_HEADER_LENGTH;
use ferrite_message::DeadLetterHeader;
use ferrite_mqi::dead_letter::{self, Disposition, DEFAULT_DEAD_LETTER_QUEUE};
use ferrite_mqi::*;
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

const DLQ: &str = DEFAULT_DEAD_LETTER_QUEUE;

fn open(connection: &mut Connection, name: &str) -> Hobj {
    connection
        .open(
            &mut Mqod::queue(name),
            MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE | MQOO_INQUIRE,
        )
        .unwrap()
}

/// A message asking for `report`, replies to REPLY.
fn asking(report: i32) -> Mqmd {
    Mqmd {
        report,
        reply_to_q: "REPLY".into(),
        format: MQFMT_STRING,
        persistence: MQPER_PERSISTENT,
        priority: 4,
        ..Mqmd::default()
    }
}

fn put(connection: &mut Connection, hobj: Hobj, md: &mut Mqmd, options: i32, data: &[u8]) {
    put_md(connection, hobj, md, options, data).unwrap();
}

fn get(connection: &mut Connection, hobj: Hobj, options: i32) -> MqResult<(Mqmd, Vec<u8>)> {
    get_sized(connection, hobj, options, 8192)
}

fn depth(qm: &QueueManager, name: &str) -> u64 {
    qm.queue(name).unwrap().depth()
}

fn payload(length: usize) -> Vec<u8> {
    (0..length).map(|i| b'a' + (i % 26) as u8).collect()
}

#[test]
fn coa_outside_syncpoint_has_mq_report_descriptor() {
    let (_dir, qm) = queue_manager(&["Q1", "REPLY"]);
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    let reply = open(&mut c, "REPLY");
    let mut md = asking(MQRO_COA);
    md.correl_id = [7; 24];
    md.expiry = 600;
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, &payload(300));
    let (report, data) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report.msg_type, MQMT_REPORT);
    assert_eq!(report.feedback, MQFB_COA);
    assert_eq!(
        report.correl_id, md.msg_id,
        "CorrelId is the original MsgId"
    );
    assert_ne!(report.msg_id, md.msg_id, "a new MsgId");
    assert!(data.is_empty(), "plain MQRO_COA carries no data");
    assert_eq!(report.report, MQRO_NONE);
    assert_eq!(report.expiry, MQEI_UNLIMITED);
    assert_eq!(report.persistence, MQPER_PERSISTENT);
    assert_eq!(report.priority, 4);
    assert_eq!(report.format, MQFMT_STRING);
    assert_eq!(report.put_appl_type, MQAT_QMGR);
    assert_eq!(report.put_appl_name, "QM1");
    assert_eq!(report.reply_to_q, "");
    assert_eq!(report.reply_to_q_mgr, "QM1");
    assert_eq!(report.user_identifier, md.user_identifier);
    // The original is there, untouched.
    assert_eq!(depth(&qm, "Q1"), 1);
}

#[test]
fn coa_data_variants_and_pass_options() {
    let (_dir, qm) = queue_manager(&["Q1", "REPLY"]);
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    let reply = open(&mut c, "REPLY");
    let data = payload(300);

    let mut md = asking(MQRO_COA_WITH_DATA);
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, &data);
    let (_, report_data) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report_data, data[..100], "_WITH_DATA: the first 100 bytes");

    let mut md = asking(MQRO_COA_WITH_FULL_DATA | MQRO_PASS_MSG_ID | MQRO_PASS_CORREL_ID);
    md.correl_id = [9; 24];
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, &data);
    let (report, report_data) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report_data, data, "_WITH_FULL_DATA: all of it");
    assert_eq!(report.msg_id, md.msg_id, "MQRO_PASS_MSG_ID");
    assert_eq!(report.correl_id, [9; 24], "MQRO_PASS_CORREL_ID");

    // A short message _WITH_DATA: all of it.
    let mut md = asking(MQRO_COA_WITH_DATA);
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, b"short");
    assert_eq!(get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap().1, b"short");

    // MQRO_PASS_DISCARD_AND_EXPIRY: the report inherits MQRO_DISCARD_MSG and the expiry.
    let mut md = asking(MQRO_COA | MQRO_PASS_DISCARD_AND_EXPIRY | MQRO_DISCARD_MSG);
    md.expiry = 100_000;
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, b"x");
    let (report, _) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report.report, MQRO_DISCARD_MSG);
    assert!(
        report.expiry > 99_000 && report.expiry <= 100_000,
        "{}",
        report.expiry
    );

    // PAN and NAN are for applications: the queue manager sends nothing.
    let mut md = asking(MQRO_PAN | MQRO_NAN);
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, b"x");
    assert_eq!(depth(&qm, "REPLY"), 0);
}

#[test]
fn coa_in_syncpoint_appears_at_commit_and_not_after_backout() {
    let (_dir, qm) = queue_manager(&["Q1", "REPLY"]);
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    put(&mut c, q, &mut asking(MQRO_COA), MQPMO_SYNCPOINT, b"one");
    assert_eq!(depth(&qm, "REPLY"), 0, "no report before commit");
    c.backout().unwrap();
    assert_eq!(depth(&qm, "REPLY"), 0, "a backed-out put has no COA");
    assert_eq!(depth(&qm, "Q1"), 0);
    put(&mut c, q, &mut asking(MQRO_COA), MQPMO_SYNCPOINT, b"two");
    assert_eq!(depth(&qm, "REPLY"), 0);
    c.commit().unwrap();
    assert_eq!(depth(&qm, "REPLY"), 1, "the COA appears at commit");
}

#[test]
fn cod_on_destructive_get_only() {
    let (_dir, qm) = queue_manager(&["Q1", "REPLY"]);
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    let reply = open(&mut c, "REPLY");
    let data = payload(150);
    let mut md = asking(MQRO_COD_WITH_DATA);
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, &data);
    get(&mut c, q, MQGMO_BROWSE_FIRST).unwrap();
    assert_eq!(depth(&qm, "REPLY"), 0, "a browse sends no COD");
    assert_eq!(depth(&qm, "Q1"), 1);

    // In syncpoint: backed out, no report (and the message is back).
    get(&mut c, q, MQGMO_SYNCPOINT).unwrap();
    assert_eq!(depth(&qm, "REPLY"), 0, "not before commit");
    c.backout().unwrap();
    assert_eq!(depth(&qm, "REPLY"), 0, "a backed-out get has no COD");
    assert_eq!(depth(&qm, "Q1"), 1);

    // In syncpoint, committed.
    get(&mut c, q, MQGMO_SYNCPOINT).unwrap();
    c.commit().unwrap();
    let (report, report_data) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report.feedback, MQFB_COD);
    assert_eq!(report.msg_type, MQMT_REPORT);
    assert_eq!(report.correl_id, md.msg_id);
    assert_eq!(report_data, data[..100]);

    // Outside syncpoint: at once.
    let mut md = asking(MQRO_COD);
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, b"x");
    get(&mut c, q, MQGMO_NO_SYNCPOINT).unwrap();
    let (report, report_data) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report.feedback, MQFB_COD);
    assert!(report_data.is_empty());
}

#[test]
fn expiration_report_at_get_and_by_the_expiry_scan() {
    let (_dir, qm) = queue_manager(&["Q1", "REPLY"]);
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    let reply = open(&mut c, "REPLY");
    let data = payload(120);
    let mut md = asking(MQRO_EXPIRATION_WITH_FULL_DATA);
    md.expiry = 1; // a tenth of a second
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, &data);
    std::thread::sleep(Duration::from_millis(150));
    assert_eq!(
        reason(get(&mut c, q, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    let (report, report_data) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report.feedback, MQFB_EXPIRATION);
    assert_eq!(report.msg_type, MQMT_REPORT);
    assert_eq!(report.correl_id, md.msg_id);
    assert_eq!(report.expiry, MQEI_UNLIMITED);
    assert_eq!(report_data, data);

    // The expiry scan (EXPRYINT, REFRESH QMGR TYPE(EXPIRY)).
    let mut md = asking(MQRO_EXPIRATION);
    md.expiry = 1;
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, &data);
    std::thread::sleep(Duration::from_millis(150));
    assert_eq!(qm.expire_messages().unwrap(), 1);
    let (report, report_data) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report.feedback, MQFB_EXPIRATION);
    assert_eq!(report.correl_id, md.msg_id);
    assert!(report_data.is_empty());

    // Without MQRO_EXPIRATION nothing is sent.
    let mut md = Mqmd {
        expiry: 1,
        ..Mqmd::default()
    };
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, &data);
    std::thread::sleep(Duration::from_millis(150));
    assert_eq!(qm.expire_messages().unwrap(), 1);
    assert_eq!(depth(&qm, "REPLY"), 0);
}

#[test]
fn put_checks_report_options_and_reply_to_queue() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    for report in [MQRO_COA, MQRO_COD, MQRO_EXPIRATION, MQRO_EXCEPTION] {
        let mut md = Mqmd {
            report,
            ..Mqmd::default()
        };
        assert_eq!(
            reason(c.put(q, &mut md, &mut Mqpmo::default(), b"x")),
            MQRC_MISSING_REPLY_TO_Q
        );
    }
    let mut md = Mqmd {
        report: 0x0004_0000, // in MQRO_REJECT_UNSUP_MASK, defined by no option
        ..Mqmd::default()
    };
    assert_eq!(
        reason(c.put(q, &mut md, &mut Mqpmo::default(), b"x")),
        MQRC_REPORT_OPTIONS_ERROR
    );
    assert_eq!(depth(&qm, "Q1"), 0);
}

/// The MQDLH and data of a message on the dead-letter queue.
fn dead_letter(c: &mut Connection, dlq: Hobj) -> (Mqmd, DeadLetterHeader, Vec<u8>) {
    let (md, data) = get(c, dlq, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(&md.format, b"MQDEAD  ");
    let header = DeadLetterHeader::decode(&data, ByteOrder::Little).unwrap();
    (md, header, data[DEAD_LETTER_HEADER_LENGTH..].to_vec())
}

#[test]
fn undeliverable_reports_go_to_the_dead_letter_queue() {
    let (_dir, qm) = queue_manager(&["Q1", DLQ]);
    let mut inhibited = QueueDefinition::local("INHIBITED", PageSetId(1));
    inhibited.put_inhibited = true;
    define(&qm, inhibited);
    let mut full = QueueDefinition::local("FULL", PageSetId(1));
    full.max_depth = 1;
    define(&qm, full);
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    let dlq = open(&mut c, DLQ);
    let filler = open(&mut c, "FULL");
    put(
        &mut c,
        filler,
        &mut Mqmd::default(),
        MQPMO_NO_SYNCPOINT,
        b"f",
    );

    for (reply_to_q, reply_to_q_mgr, expected) in [
        ("NO.SUCH.QUEUE", "", MQRC_UNKNOWN_OBJECT_NAME),
        ("INHIBITED", "", MQRC_PUT_INHIBITED),
        ("FULL", "", MQRC_Q_FULL),
        ("Q1", "OTHER.QM", MQRC_UNKNOWN_REMOTE_Q_MGR),
    ] {
        let mut md = asking(MQRO_COA_WITH_DATA);
        md.reply_to_q = reply_to_q.into();
        md.reply_to_q_mgr = reply_to_q_mgr.into();
        put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, b"original");
        let (dlq_md, header, data) = dead_letter(&mut c, dlq);
        assert_eq!(header.reason, expected, "{reply_to_q}");
        assert_eq!(header.dest_q_name, reply_to_q);
        let expected_q_mgr = if reply_to_q_mgr.is_empty() {
            "QM1"
        } else {
            reply_to_q_mgr
        };
        assert_eq!(header.dest_q_mgr_name, expected_q_mgr);
        assert_eq!(header.format, MQFMT_STRING, "the report's own format");
        assert_eq!(header.put_appl_type, MQAT_QMGR);
        assert_eq!(header.put_appl_name, "QM1");
        assert_eq!(header.put_date.len(), 8);
        assert_eq!(header.put_time.len(), 8);
        assert_eq!(dlq_md.msg_type, MQMT_REPORT);
        assert_eq!(dlq_md.feedback, MQFB_COA);
        assert_eq!(dlq_md.correl_id, md.msg_id);
        assert_eq!(data, b"original");
    }
    assert_eq!(depth(&qm, "Q1"), 4, "the originals were all put");

    // A report that inherits MQRO_DISCARD_MSG is discarded instead.
    let mut md = asking(MQRO_COA | MQRO_PASS_DISCARD_AND_EXPIRY | MQRO_DISCARD_MSG);
    md.reply_to_q = "NO.SUCH.QUEUE".into();
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, b"x");
    assert_eq!(depth(&qm, DLQ), 0);
}

#[test]
fn without_a_dead_letter_queue_the_report_is_discarded_and_logged() {
    let directory = tempfile::tempdir().unwrap();
    create(directory.path(), "QM1");
    let log = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = log.clone();
    let qm = QueueManager::open(
        fs(),
        directory.path(),
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
    )
    .unwrap();
    define(&qm, QueueDefinition::local("Q1", PageSetId(1)));
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    let mut md = asking(MQRO_COA);
    md.reply_to_q = "NO.SUCH.QUEUE".into();
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, b"x");
    assert_eq!(depth(&qm, "Q1"), 1, "the put itself succeeds");
    let lines = log.lock().unwrap().clone();
    assert!(
        lines
            .iter()
            .any(|line| line.contains("discarded") && line.contains(DLQ)),
        "{lines:?}"
    );
}

#[test]
fn exception_report_and_dead_letter_for_an_undeliverable_message() {
    let (_dir, qm) = queue_manager(&["REPLY", DLQ]);
    let mut c = connect(&qm);
    let reply = open(&mut c, "REPLY");
    let dlq = open(&mut c, DLQ);
    let data = payload(200);
    let mut md = asking(MQRO_EXCEPTION_WITH_DATA);
    md.msg_id = [3; 24];
    md.coded_char_set_id = 819;
    md.encoding = 0x111;
    let disposition =
        dead_letter::undeliverable(&qm, None, &md, &data, MQRC_Q_FULL, "TARGET.Q", "").unwrap();
    assert_eq!(disposition, Disposition::DeadLettered(DLQ.to_string()));
    let (report, report_data) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report.msg_type, MQMT_REPORT);
    assert_eq!(report.feedback, MQRC_Q_FULL);
    assert_eq!(report.correl_id, [3; 24]);
    assert_eq!(report_data, data[..100]);
    let (dlq_md, header, dlq_data) = dead_letter(&mut c, dlq);
    assert_eq!(header.reason, MQRC_Q_FULL);
    assert_eq!(header.dest_q_name, "TARGET.Q");
    assert_eq!(header.coded_char_set_id, 819, "the original CCSID");
    assert_eq!(header.encoding, 0x111, "the original encoding");
    assert_eq!(header.format, MQFMT_STRING);
    assert_eq!(dlq_md.msg_id, [3; 24], "the original MsgId");
    assert_eq!(dlq_data, data);

    // MQRO_DISCARD_MSG: discarded, the exception report still sent.
    let mut md = asking(MQRO_EXCEPTION | MQRO_DISCARD_MSG);
    md.msg_id = [4; 24];
    let disposition =
        dead_letter::undeliverable(&qm, None, &md, &data, MQRC_Q_FULL, "TARGET.Q", "").unwrap();
    assert_eq!(disposition, Disposition::Discarded);
    assert_eq!(depth(&qm, DLQ), 0);
    let (report, report_data) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(report.correl_id, [4; 24]);
    assert!(report_data.is_empty());
}

#[test]
fn dead_letter_errors_name_the_problem() {
    let (_dir, qm) = queue_manager(&[]);
    let md = asking(MQRO_NONE);
    let error = dead_letter::put_to_dead_letter_queue(&qm, None, &md, b"x", MQRC_Q_FULL, "Q", "")
        .unwrap_err();
    assert_eq!(error.reason(), MQRC_UNKNOWN_OBJECT_NAME);
    assert!(error.to_string().contains(DLQ), "{error}");
    let mut disabled = QueueDefinition::local(DLQ, PageSetId(1));
    disabled.put_inhibited = true;
    define(&qm, disabled);
    let error = dead_letter::put_to_dead_letter_queue(&qm, None, &md, b"x", MQRC_Q_FULL, "Q", "")
        .unwrap_err();
    assert_eq!(error.reason(), MQRC_PUT_INHIBITED);
    assert!(error.to_string().contains("MQRC_PUT_INHIBITED"), "{error}");
}

#[test]
fn dead_letter_in_a_unit_of_work_and_across_restart() {
    let directory = tempfile::tempdir().unwrap();
    create(directory.path(), "QM1");
    {
        let qm = ferrite_test_kit::open(directory.path());
        define(&qm, QueueDefinition::local(DLQ, PageSetId(1)));
        let c = connect(&qm);
        let mut md = asking(MQRO_NONE);
        md.msg_id = [5; 24];
        let mut resolved = md.clone();
        resolved.coded_char_set_id = 1208;
        // Syncpoint puts of the queue manager's own go with the unit.
        let mut unit = ferrite_queue_manager::UnitOfWork::new();
        let mut arrivals = ferrite_mqi::triggering::PendingArrivals::default();
        dead_letter::put_to_dead_letter_queue(
            &qm,
            Some(ferrite_mqi::queue_manager_put::InUnit {
                unit: &mut unit,
                arrivals: &mut arrivals,
            }),
            &resolved,
            b"persistent",
            MQRC_Q_FULL,
            "TARGET.Q",
            "",
        )
        .unwrap();
        assert_eq!(depth(&qm, DLQ), 0, "invisible until commit");
        qm.commit(&mut unit).unwrap();
        arrivals.resolved(&qm, true);
        assert_eq!(depth(&qm, DLQ), 1);
        c.disconnect().unwrap();
        qm.shutdown().unwrap();
    }
    let qm = ferrite_test_kit::open(directory.path());
    let mut c = connect(&qm);
    let dlq = open(&mut c, DLQ);
    let (md, header, data) = dead_letter(&mut c, dlq);
    assert_eq!(md.msg_id, [5; 24]);
    assert_eq!(md.persistence, MQPER_PERSISTENT);
    assert_eq!(header.reason, MQRC_Q_FULL);
    assert_eq!(header.dest_q_name, "TARGET.Q");
    assert_eq!(data, b"persistent");
}

#[test]
fn deadq_attribute_chooses_the_dead_letter_queue() {
    let (_dir, qm) = queue_manager(&["Q1", DLQ, "OTHER.DLQ"]);
    let error = |qm: &QueueManager| {
        dead_letter::put_to_dead_letter_queue(qm, None, &asking(MQRO_NONE), b"x", 1, "Q", "")
    };
    // ALTER QMGR DEADQ(OTHER.DLQ): the next dead letter goes there.
    let mut attributes = qm.queue_manager_attributes();
    attributes.dead_letter_queue = "OTHER.DLQ".to_string();
    qm.alter_queue_manager(attributes).unwrap();
    assert_eq!(error(&qm).unwrap(), "OTHER.DLQ");
    assert_eq!(depth(&qm, "OTHER.DLQ"), 1);
    assert_eq!(depth(&qm, DLQ), 0);
    // ALTER QMGR DEADQ(' '): no dead-letter queue; an undeliverable report is discarded.
    let mut attributes = qm.queue_manager_attributes();
    attributes.dead_letter_queue = String::new();
    qm.alter_queue_manager(attributes).unwrap();
    let failure = error(&qm).unwrap_err();
    assert_eq!(failure, dead_letter::DeadLetterError::NotDefined);
    assert!(
        failure.to_string().contains("ALTER QMGR DEADQ"),
        "{failure}"
    );
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    let mut md = asking(MQRO_COA);
    md.reply_to_q = "NO.SUCH.QUEUE".into();
    put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, b"x");
    assert_eq!(depth(&qm, "Q1"), 1);
    assert_eq!(depth(&qm, DLQ) + depth(&qm, "OTHER.DLQ"), 1, "nothing new");
}

#[test]
fn every_data_variant_of_cod_expiration_and_exception() {
    let (_dir, qm) = queue_manager(&["Q1", "REPLY", DLQ]);
    let mut c = connect(&qm);
    let q = open(&mut c, "Q1");
    let reply = open(&mut c, "REPLY");
    let data = payload(250);
    for (report, expected) in [
        (MQRO_COD, 0),
        (MQRO_COD_WITH_DATA, 100),
        (MQRO_COD_WITH_FULL_DATA, 250),
    ] {
        put(&mut c, q, &mut asking(report), MQPMO_NO_SYNCPOINT, &data);
        get(&mut c, q, MQGMO_NO_SYNCPOINT).unwrap();
        let (md, got) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
        assert_eq!(
            (md.feedback, got.len()),
            (MQFB_COD, expected),
            "{report:#x}"
        );
    }
    for (report, expected) in [
        (MQRO_EXPIRATION, 0),
        (MQRO_EXPIRATION_WITH_DATA, 100),
        (MQRO_EXPIRATION_WITH_FULL_DATA, 250),
    ] {
        let mut md = asking(report);
        md.expiry = 1;
        put(&mut c, q, &mut md, MQPMO_NO_SYNCPOINT, &data);
        std::thread::sleep(Duration::from_millis(120));
        assert_eq!(qm.expire_messages().unwrap(), 1);
        let (md, got) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
        assert_eq!(
            (md.feedback, got.len()),
            (MQFB_EXPIRATION, expected),
            "{report:#x}"
        );
    }
    for (report, expected) in [
        (MQRO_EXCEPTION, 0),
        (MQRO_EXCEPTION_WITH_DATA, 100),
        (MQRO_EXCEPTION_WITH_FULL_DATA, 250),
    ] {
        let mut md = asking(report);
        md.coded_char_set_id = 1208;
        md.msg_id = [8; 24];
        dead_letter::undeliverable(&qm, None, &md, &data, MQRC_Q_FULL, "T", "").unwrap();
        let (md, got) = get(&mut c, reply, MQGMO_NO_SYNCPOINT).unwrap();
        assert_eq!(
            (md.feedback, got.len()),
            (MQRC_Q_FULL, expected),
            "{report:#x}"
        );
    }
    assert_eq!(depth(&qm, DLQ), 3);
}
