//! The MQI calls one by one, and every reason code the MQI returns.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_constants::{
    close_options::*, completion::*, connect_options::*, format::MQFMT_STRING, get_options::*,
    match_options::*, message_type::*, object_type::*, open_options::*, persistence::*,
    put_options::*, reason::*, selector::*, shareability::*,
};
use ferrite_mqi::descriptor::{self, QUEUE_MANAGER_CCSID};
use ferrite_mqi::*;
use ferrite_queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

const ALL: i32 = MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE | MQOO_INQUIRE | MQOO_SET;

#[test]
fn connect_checks_name_options_and_state() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    assert!(Connection::connect(qm.clone(), "").is_ok());
    assert!(Connection::connect(qm.clone(), "QM1  ").is_ok());
    assert_eq!(
        reason(Connection::connect(qm.clone(), "QM2")),
        MQRC_Q_MGR_NAME_ERROR
    );
    let cno = Mqcno {
        options: MQCNO_HANDLE_SHARE_BLOCK | MQCNO_HANDLE_SHARE_NONE,
        ..Mqcno::default()
    };
    assert_eq!(
        reason(Connection::connect_with(qm.clone(), "", &cno)),
        MQRC_OPTIONS_ERROR
    );
    let cno = Mqcno {
        options: MQCNO_CLIENT_BINDING,
        ..Mqcno::default()
    };
    assert_eq!(
        reason(Connection::connect_with(qm.clone(), "", &cno)),
        MQRC_ENVIRONMENT_ERROR
    );
    let cno = Mqcno {
        appl_name: "PAYROLL".into(),
        ..Mqcno::default()
    };
    let mut connection = Connection::connect_with(qm.clone(), "", &cno).unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    assert_eq!(
        put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, b"x").put_appl_name,
        "PAYROLL"
    );
    // PutApplName keeps the last 28 bytes of a longer name, in whole characters ("é" is two
    // bytes: the 28th byte from the end is inside one, so 27 are kept).
    let cno = Mqcno {
        appl_name: format!("{}{}TAILX", "A".repeat(10), "é".repeat(15)),
        ..Mqcno::default()
    };
    let mut connection = Connection::connect_with(qm.clone(), "", &cno).unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    let put_appl_name = put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, b"x").put_appl_name;
    assert_eq!(put_appl_name, format!("{}TAILX", "é".repeat(11)));
    assert!(!put_appl_name.is_cut());
    qm.quiesce();
    assert_eq!(
        reason(Connection::connect(qm.clone(), "")),
        MQRC_Q_MGR_QUIESCING
    );
    qm.shutdown().unwrap();
    assert_eq!(
        reason(Connection::connect(qm.clone(), "")),
        MQRC_Q_MGR_NOT_AVAILABLE
    );
}

#[test]
fn open_validates_options_names_and_sharing() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut a = Connection::connect(qm.clone(), "").unwrap();
    let mut b = Connection::connect(qm.clone(), "").unwrap();
    let q1 = || Mqod::queue("Q1");
    assert_eq!(
        reason(a.open(&mut Mqod::queue("NOPE"), MQOO_OUTPUT)),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    assert_eq!(
        reason(a.open(&mut Mqod::queue(""), MQOO_OUTPUT)),
        MQRC_OBJECT_NAME_ERROR
    );
    let mut remote = Mqod {
        object_q_mgr_name: "OTHER".into(),
        ..q1()
    };
    // Another queue manager with no transmission queue to it (tests/name_resolution.rs).
    assert_eq!(
        reason(a.open(&mut remote, MQOO_OUTPUT)),
        MQRC_UNKNOWN_REMOTE_Q_MGR
    );
    for bad in [
        0,
        MQOO_FAIL_IF_QUIESCING,
        MQOO_INPUT_SHARED | MQOO_INPUT_EXCLUSIVE,
        MQOO_INPUT_AS_Q_DEF | MQOO_INPUT_SHARED,
        MQOO_INPUT_SHARED | MQOO_SET_ALL_CONTEXT,
        MQOO_OUTPUT | MQOO_SAVE_ALL_CONTEXT,
        MQOO_OUTPUT | 0x4000_0000,
    ] {
        assert_eq!(
            reason(a.open(&mut q1(), bad)),
            MQRC_OPTIONS_ERROR,
            "{bad:#x}"
        );
    }
    // A topic is opened through a TOPIC object: Q1 is none (tests/pubsub.rs opens topics).
    let mut topic = Mqod {
        object_type: MQOT_TOPIC,
        ..q1()
    };
    assert_eq!(
        reason(a.open(&mut topic, MQOO_OUTPUT)),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    let mut other = Mqod {
        object_type: MQOT_AUTH_INFO,
        ..q1()
    };
    assert_eq!(
        reason(a.open(&mut other, MQOO_INQUIRE)),
        MQRC_OBJECT_TYPE_ERROR
    );
    let mut qmgr = Mqod {
        object_type: MQOT_Q_MGR,
        object_name: String::new(),
        ..Mqod::default()
    };
    assert_eq!(
        reason(a.open(&mut qmgr, MQOO_OUTPUT)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );

    // Exclusive input excludes every other input opener; output is never excluded.
    let mut od = q1();
    let exclusive = a.open(&mut od, MQOO_INPUT_EXCLUSIVE).unwrap();
    assert_eq!(od.resolved_q_name, "Q1");
    assert_eq!(od.resolved_q_mgr_name, "QM1");
    assert_eq!(
        reason(b.open(&mut q1(), MQOO_INPUT_SHARED)),
        MQRC_OBJECT_IN_USE
    );
    assert_eq!(
        reason(b.open(&mut q1(), MQOO_INPUT_AS_Q_DEF)),
        MQRC_OBJECT_IN_USE
    );
    assert_eq!(
        reason(b.open(&mut q1(), MQOO_INPUT_EXCLUSIVE)),
        MQRC_OBJECT_IN_USE
    );
    let output = b.open(&mut q1(), MQOO_OUTPUT | MQOO_INQUIRE).unwrap();
    let counts = b
        .inquire(output, &[MQIA_OPEN_INPUT_COUNT, MQIA_OPEN_OUTPUT_COUNT])
        .unwrap()
        .values;
    assert_eq!(
        counts,
        vec![AttributeValue::Integer(1), AttributeValue::Integer(1)]
    );
    a.close(exclusive, MQCO_NONE).unwrap();
    let shared = b.open(&mut q1(), MQOO_INPUT_AS_Q_DEF).unwrap();
    assert_eq!(
        reason(a.open(&mut q1(), MQOO_INPUT_EXCLUSIVE)),
        MQRC_OBJECT_IN_USE
    );
    a.open(&mut q1(), MQOO_INPUT_SHARED).unwrap();
    b.close(shared, MQCO_NONE).unwrap();
    // Dropping a connection closes its handles.
    drop(a);
    let counts = b.inquire(output, &[MQIA_OPEN_INPUT_COUNT]).unwrap().values;
    assert_eq!(counts, vec![AttributeValue::Integer(0)]);
}

#[test]
fn close_checks_handle_and_options() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    assert_eq!(reason(connection.close(hobj, 0x100)), MQRC_OPTIONS_ERROR);
    assert_eq!(
        reason(connection.close(hobj, MQCO_DELETE)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    connection.close(hobj, MQCO_NONE).unwrap();
    assert_eq!(reason(connection.close(hobj, MQCO_NONE)), MQRC_HOBJ_ERROR);
    assert_eq!(
        reason(connection.put(hobj, &mut Mqmd::default(), &mut Mqpmo::default(), b"")),
        MQRC_HOBJ_ERROR
    );
    assert_eq!(reason(get(&mut connection, Hobj(99), 0)), MQRC_HOBJ_ERROR);
}

#[test]
fn put_fills_ids_context_and_defaults_from_the_queue() {
    let (_dir, qm) = queue_manager(&[]);
    let mut definition = QueueDefinition::local("Q1", PageSetId(1));
    definition.default_persistent = true;
    definition.default_priority = 4;
    define(&qm, definition);
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    let mut md = Mqmd {
        format: MQFMT_STRING,
        reply_to_q: "REPLY.Q".into(),
        msg_type: MQMT_REQUEST,
        ..Mqmd::default()
    };
    let mut pmo = Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_NEW_CORREL_ID);
    assert_eq!(
        connection.put(hobj, &mut md, &mut pmo, b"hello").unwrap(),
        None
    );
    assert_eq!(&md.msg_id[..4], b"CSQ ");
    assert_ne!(md.correl_id, [0; 24]);
    assert_eq!(md.put_date.len(), 8);
    assert_eq!(md.put_time.len(), 8);
    assert_eq!(md.reply_to_q_mgr, "QM1");
    assert_eq!(md.put_appl_type, ferrite_constants::appl_type::MQAT_DEFAULT);
    assert_eq!(pmo.resolved_q_name, "Q1");
    let (got, data) = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(data, b"hello");
    assert_eq!(got.persistence, MQPER_PERSISTENT);
    assert_eq!(got.priority, 4);
    assert_eq!(got.msg_id, md.msg_id);
    assert_eq!(got.correl_id, md.correl_id);
    assert_eq!(got.format, MQFMT_STRING);
    assert_eq!(got.msg_type, MQMT_REQUEST);
    assert_eq!(got.reply_to_q, "REPLY.Q");
    assert_eq!(got.reply_to_q_mgr, "QM1");
    assert_eq!(got.put_date, md.put_date);
    assert_eq!(got.put_time, md.put_time);
    assert_eq!(got.user_identifier, md.user_identifier);
    assert_eq!(got.coded_char_set_id, QUEUE_MANAGER_CCSID);
    // A given MsgId is kept unless MQPMO_NEW_MSG_ID; explicit priority and persistence win.
    let mut md = Mqmd {
        msg_id: [7; 24],
        priority: 8,
        persistence: MQPER_NOT_PERSISTENT,
        ..Mqmd::default()
    };
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"a",
        )
        .unwrap();
    assert_eq!(md.msg_id, [7; 24]);
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID),
            b"b",
        )
        .unwrap();
    assert_ne!(md.msg_id, [7; 24]);
    let (got, data) = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(
        (got.priority, got.persistence, data.as_slice()),
        (8, MQPER_NOT_PERSISTENT, &b"a"[..])
    );
}

#[test]
fn put_context_options() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let plain = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    let identity = connection
        .open(
            &mut Mqod::queue("Q1"),
            MQOO_OUTPUT | MQOO_SET_IDENTITY_CONTEXT,
        )
        .unwrap();
    let all = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_SET_ALL_CONTEXT)
        .unwrap();
    let md = Mqmd {
        user_identifier: "ALICE".into(),
        appl_identity_data: "ID".into(),
        put_appl_name: "ORIGIN".into(),
        put_date: "20200102".into(),
        put_time: "03040506".into(),
        appl_origin_data: "OD".into(),
        ..Mqmd::default()
    };
    let nsp = MQPMO_NO_SYNCPOINT;
    let mut pmo = Mqpmo::with_options(nsp | MQPMO_SET_ALL_CONTEXT);
    assert_eq!(
        reason(connection.put(plain, &mut md.clone(), &mut pmo, b"")),
        MQRC_NOT_OPEN_FOR_SET_ALL
    );
    assert_eq!(
        reason(connection.put(identity, &mut md.clone(), &mut pmo, b"")),
        MQRC_NOT_OPEN_FOR_SET_ALL
    );
    let mut pmo_identity = Mqpmo::with_options(nsp | MQPMO_SET_IDENTITY_CONTEXT);
    assert_eq!(
        reason(connection.put(plain, &mut md.clone(), &mut pmo_identity, b"")),
        MQRC_NOT_OPEN_FOR_SET_IDENT
    );
    let mut both = Mqpmo::with_options(nsp | MQPMO_SET_ALL_CONTEXT | MQPMO_NO_CONTEXT);
    assert_eq!(
        reason(connection.put(all, &mut md.clone(), &mut both, b"")),
        MQRC_OPTIONS_ERROR
    );
    // MQPMO.Context must name a handle opened with MQOO_SAVE_ALL_CONTEXT (tests/context.rs).
    let mut pass = Mqpmo::with_options(nsp | MQPMO_PASS_ALL_CONTEXT);
    assert_eq!(
        reason(connection.put(all, &mut md.clone(), &mut pass, b"")),
        MQRC_CONTEXT_HANDLE_ERROR
    );

    connection
        .put(all, &mut md.clone(), &mut pmo, b"all")
        .unwrap();
    connection
        .put(identity, &mut md.clone(), &mut pmo_identity, b"identity")
        .unwrap();
    connection
        .put(
            plain,
            &mut md.clone(),
            &mut Mqpmo::with_options(nsp | MQPMO_NO_CONTEXT),
            b"none",
        )
        .unwrap();
    let (got, _) = get(&mut connection, plain, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(
        (
            got.user_identifier.as_str(),
            got.put_appl_name.as_str(),
            got.put_date.as_str(),
            got.put_time.as_str(),
            got.appl_origin_data.as_str()
        ),
        ("ALICE", "ORIGIN", "20200102", "03040506", "OD")
    );
    let (got, _) = get(&mut connection, plain, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(got.user_identifier, "ALICE");
    assert_eq!(got.appl_identity_data, "ID");
    assert_ne!(got.put_appl_name, "ORIGIN");
    assert_ne!(got.put_date, "20200102");
    let (got, _) = get(&mut connection, plain, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(
        (
            got.user_identifier.as_str(),
            got.put_date.as_str(),
            got.put_time.as_str(),
            got.put_appl_type
        ),
        ("", "", "", 0)
    );
}

#[test]
fn put_refusals() {
    let (_dir, qm) = queue_manager(&[]);
    let mut definition = QueueDefinition::local("SMALL", PageSetId(1));
    definition.max_depth = 1;
    definition.max_message_length = 10;
    define(&qm, definition);
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("SMALL"), MQOO_OUTPUT | MQOO_SET)
        .unwrap();
    let input_only = connection
        .open(&mut Mqod::queue("SMALL"), MQOO_INPUT_SHARED)
        .unwrap();
    let nsp = || Mqpmo::with_options(MQPMO_NO_SYNCPOINT);
    let try_put = |connection: &mut Connection, md: Mqmd, data: &[u8]| {
        connection.put(hobj, &mut md.clone(), &mut nsp(), data)
    };
    assert_eq!(
        reason(connection.put(input_only, &mut Mqmd::default(), &mut nsp(), b"")),
        MQRC_NOT_OPEN_FOR_OUTPUT
    );
    assert_eq!(
        reason(try_put(&mut connection, Mqmd::default(), &[0; 11])),
        MQRC_MSG_TOO_BIG_FOR_Q
    );
    let bad = |f: fn(&mut Mqmd)| {
        let mut md = Mqmd::default();
        f(&mut md);
        md
    };
    assert_eq!(
        reason(try_put(&mut connection, bad(|md| md.persistence = 3), b"")),
        MQRC_PERSISTENCE_ERROR
    );
    assert_eq!(
        reason(try_put(&mut connection, bad(|md| md.priority = -2), b"")),
        MQRC_PRIORITY_ERROR
    );
    assert_eq!(
        reason(try_put(&mut connection, bad(|md| md.expiry = 0), b"")),
        MQRC_EXPIRY_ERROR
    );
    assert_eq!(
        reason(try_put(&mut connection, bad(|md| md.msg_type = 3), b"")),
        MQRC_MSG_TYPE_ERROR
    );
    assert_eq!(
        reason(try_put(
            &mut connection,
            bad(|md| md.msg_type = MQMT_REQUEST),
            b""
        )),
        MQRC_MISSING_REPLY_TO_Q
    );
    // A descriptor MQ cannot take: an unknown version.
    assert_eq!(
        reason(try_put(&mut connection, bad(|md| md.version = 3), b"")),
        MQRC_MD_ERROR
    );
    // A text longer than its field: MqChar::new refuses it, and `.into()` cuts it to fit and
    // marks it, so that MQPUT and MQPUT1 refuse it rather than put a ReplyToQ that may name
    // another queue, or a UserIdentifier that is someone else's.
    assert!(ferrite_mqi::MqChar::<12>::new(&"X".repeat(13)).is_err());
    assert_eq!(
        reason(try_put(
            &mut connection,
            bad(|md| md.reply_to_q = "R".repeat(49).into()),
            b""
        )),
        MQRC_MD_ERROR
    );
    assert_eq!(
        reason(try_put(
            &mut connection,
            bad(|md| md.user_identifier = "X".repeat(13).into()),
            b""
        )),
        MQRC_MD_ERROR
    );
    let mut long_reply_to_q = Mqmd {
        reply_to_q: "R".repeat(49).into(),
        ..Mqmd::default()
    };
    assert_eq!(
        reason(connection.put1(
            &mut Mqod::queue("SMALL"),
            &mut long_reply_to_q,
            &mut nsp(),
            b""
        )),
        MQRC_MD_ERROR
    );
    let mut conflicting = Mqpmo::with_options(MQPMO_SYNCPOINT | MQPMO_NO_SYNCPOINT);
    assert_eq!(
        reason(connection.put(hobj, &mut Mqmd::default(), &mut conflicting, b"")),
        MQRC_OPTIONS_ERROR
    );
    let mut unknown = Mqpmo::with_options(0x4000_0000);
    assert_eq!(
        reason(connection.put(hobj, &mut Mqmd::default(), &mut unknown, b"")),
        MQRC_OPTIONS_ERROR
    );
    // Priority above MAXPRTY: put at 9 with a warning.
    let warning = try_put(&mut connection, bad(|md| md.priority = 12), b"").unwrap();
    assert_eq!(
        warning,
        Some(MqError::warning(MQRC_PRIORITY_EXCEEDS_MAXIMUM))
    );
    assert_eq!(
        reason(try_put(&mut connection, Mqmd::default(), b"")),
        MQRC_Q_FULL
    );
    connection
        .set(
            hobj,
            &[(
                MQIA_INHIBIT_PUT,
                AttributeValue::Integer(MQQA_PUT_INHIBITED),
            )],
        )
        .unwrap();
    assert_eq!(
        reason(try_put(&mut connection, Mqmd::default(), b"")),
        MQRC_PUT_INHIBITED
    );
    let mut od = Mqod::queue("SMALL");
    assert_eq!(
        reason(connection.put1(&mut od, &mut Mqmd::default(), &mut nsp(), b"")),
        MQRC_PUT_INHIBITED
    );
}

#[test]
fn put1_puts_one_message() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let mut md = Mqmd::default();
    connection
        .put1(
            &mut Mqod::queue("Q1"),
            &mut md,
            &mut Mqpmo::default(),
            b"one",
        )
        .unwrap();
    assert_eq!(
        reason(connection.put1(
            &mut Mqod::queue("NOPE"),
            &mut Mqmd::default(),
            &mut Mqpmo::default(),
            b""
        )),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED | MQOO_INQUIRE)
        .unwrap();
    // Syncpoint by default (z/OS): invisible until commit, even to the same connection's get.
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(
        connection
            .inquire(hobj, &[MQIA_OPEN_OUTPUT_COUNT])
            .unwrap()
            .values,
        vec![AttributeValue::Integer(0)]
    );
    connection.commit().unwrap();
    let (got, data) = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!((got.msg_id, data.as_slice()), (md.msg_id, &b"one"[..]));
}

#[test]
fn syncpoint_visibility_commit_and_backout() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut a = Connection::connect(qm.clone(), "").unwrap();
    let mut b = Connection::connect(qm.clone(), "").unwrap();
    let ha = a.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    let hb = b.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    put(&mut a, ha, MQPMO_SYNCPOINT, b"m1");
    assert_eq!(
        reason(get(&mut b, hb, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(
        a.inquire(ha, &[MQIA_CURRENT_Q_DEPTH]).unwrap().values,
        vec![AttributeValue::Integer(1)]
    );
    a.backout().unwrap();
    assert_eq!(
        reason(get(&mut b, hb, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    put(&mut a, ha, MQPMO_SYNCPOINT, b"m2");
    a.commit().unwrap();
    let (md, _) = get(&mut b, hb, MQGMO_SYNCPOINT).unwrap();
    assert_eq!(md.backout_count, 0);
    assert_eq!(
        reason(get(&mut a, ha, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    b.backout().unwrap();
    let (md, data) = get(&mut a, ha, 0).unwrap(); // default: in the unit of work
    assert_eq!((md.backout_count, data.as_slice()), (1, &b"m2"[..]));
    a.backout().unwrap();
    let (md, _) = get(&mut a, ha, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(md.backout_count, 2);
    // MQDISC commits; dropping without MQDISC backs out.
    put(&mut a, ha, MQPMO_SYNCPOINT, b"kept");
    a.disconnect().unwrap();
    put(&mut b, hb, MQPMO_SYNCPOINT, b"lost");
    assert!(b.in_unit_of_work());
    drop(b);
    let mut c = Connection::connect(qm, "").unwrap();
    let hc = c.open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED).unwrap();
    assert_eq!(get(&mut c, hc, MQGMO_NO_SYNCPOINT).unwrap().1, b"kept");
    assert_eq!(
        reason(get(&mut c, hc, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
}

#[test]
fn syncpoint_if_persistent() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    for persistence in [MQPER_PERSISTENT, MQPER_NOT_PERSISTENT] {
        let mut md = Mqmd {
            persistence,
            ..Mqmd::default()
        };
        connection
            .put(
                hobj,
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                b"x",
            )
            .unwrap();
    }
    get(&mut connection, hobj, MQGMO_SYNCPOINT_IF_PERSISTENT).unwrap();
    get(&mut connection, hobj, MQGMO_SYNCPOINT_IF_PERSISTENT).unwrap();
    connection.backout().unwrap();
    // Only the persistent one was in the unit of work.
    let (md, _) = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!((md.persistence, md.backout_count), (MQPER_PERSISTENT, 1));
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    let both = MQGMO_SYNCPOINT | MQGMO_SYNCPOINT_IF_PERSISTENT;
    assert_eq!(reason(get(&mut connection, hobj, both)), MQRC_OPTIONS_ERROR);
}

#[test]
fn priority_then_fifo_and_matching() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    for (priority, correl, data) in [(0, 1, "a"), (5, 2, "b"), (0, 2, "c"), (5, 1, "d")] {
        let mut md = Mqmd {
            priority,
            correl_id: [correl; 24],
            ..Mqmd::default()
        };
        connection
            .put(
                hobj,
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                data.as_bytes(),
            )
            .unwrap();
    }
    let mut buffer = [0u8; 10];
    // Version 1: the MQMD's CorrelId selects.
    let mut md = Mqmd {
        correl_id: [1; 24],
        ..Mqmd::default()
    };
    connection
        .get(
            hobj,
            &mut md,
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut buffer,
        )
        .unwrap();
    assert_eq!(&buffer[..1], b"d");
    // Version 2 without MQMO_MATCH_CORREL_ID: the CorrelId is ignored.
    let mut md = Mqmd {
        correl_id: [1; 24],
        ..Mqmd::default()
    };
    let mut gmo = Mqgmo::matching(MQGMO_NO_SYNCPOINT, MQMO_NONE);
    connection
        .get(hobj, &mut md, &mut gmo, &mut buffer)
        .unwrap();
    assert_eq!(&buffer[..1], b"b");
    // By MsgId.
    let (first, _) = {
        let mut md = Mqmd::default();
        let mut gmo = Mqgmo::with_options(MQGMO_BROWSE_FIRST);
        connection
            .get(hobj, &mut md, &mut gmo, &mut buffer)
            .unwrap();
        (md, ())
    };
    let mut md = Mqmd {
        msg_id: first.msg_id,
        ..Mqmd::default()
    };
    let mut gmo = Mqgmo::matching(MQGMO_NO_SYNCPOINT, MQMO_MATCH_MSG_ID);
    connection
        .get(hobj, &mut md, &mut gmo, &mut buffer)
        .unwrap();
    assert_eq!(&buffer[..1], b"a");
    let mut md = Mqmd {
        msg_id: first.msg_id,
        ..Mqmd::default()
    };
    assert_eq!(
        reason(connection.get(hobj, &mut md, &mut gmo, &mut buffer)),
        MQRC_NO_MSG_AVAILABLE
    );
    let mut bad = Mqgmo::matching(MQGMO_NO_SYNCPOINT, 0x1000);
    assert_eq!(
        reason(connection.get(hobj, &mut Mqmd::default(), &mut bad, &mut buffer)),
        MQRC_MATCH_OPTIONS_ERROR
    );
    let mut token = Mqgmo::matching(MQGMO_NO_SYNCPOINT, MQMO_MATCH_MSG_TOKEN);
    token.msg_token = *b"not a real token";
    assert_eq!(
        reason(connection.get(hobj, &mut Mqmd::default(), &mut token, &mut buffer)),
        MQRC_NO_MSG_AVAILABLE,
        "a token the queue manager never issued matches nothing"
    );
    let mut version = Mqgmo {
        version: 9,
        ..Mqgmo::default()
    };
    assert_eq!(
        reason(connection.get(hobj, &mut Mqmd::default(), &mut version, &mut buffer)),
        MQRC_GMO_ERROR
    );
}

#[test]
fn message_token_names_one_message() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    for data in [b"one", b"two", b"six"] {
        put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, data);
    }
    // A get too small for the message fails and returns the message's token (what IBM's Java
    // client does before it asks again with a bigger buffer).
    let mut small = [0u8; 1];
    let mut browse = Mqgmo::matching(MQGMO_BROWSE_FIRST, 0);
    browse.version = 3;
    connection
        .get(hobj, &mut Mqmd::default(), &mut browse, &mut [0u8; 16])
        .unwrap();
    let mut next = Mqgmo::matching(MQGMO_BROWSE_NEXT, 0);
    next.version = 3;
    connection
        .get(hobj, &mut Mqmd::default(), &mut next, &mut [0u8; 16])
        .unwrap();
    assert_ne!(
        browse.msg_token, next.msg_token,
        "tokens differ per message"
    );
    let mut first_try = Mqgmo::matching(MQGMO_NO_SYNCPOINT, 0);
    first_try.version = 3;
    assert_eq!(
        reason(connection.get(hobj, &mut Mqmd::default(), &mut first_try, &mut small)),
        MQRC_TRUNCATED_MSG_FAILED
    );
    assert_eq!(
        first_try.msg_token, browse.msg_token,
        "the failed get names the first message"
    );
    let mut by_token = Mqgmo::matching(MQGMO_NO_SYNCPOINT, MQMO_MATCH_MSG_TOKEN);
    by_token.version = 3;
    by_token.msg_token = next.msg_token;
    let mut buffer = [0u8; 16];
    let got = connection
        .get(hobj, &mut Mqmd::default(), &mut by_token, &mut buffer)
        .unwrap();
    assert_eq!(
        &buffer[..got.returned_length],
        b"two",
        "the second message, by its token"
    );
    assert_eq!(
        reason(connection.get(hobj, &mut Mqmd::default(), &mut by_token, &mut buffer)),
        MQRC_NO_MSG_AVAILABLE,
        "a token names its message only while it is on the queue"
    );
}

#[test]
fn browse_first_next_and_under_cursor() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    let input_only = connection
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    let output_only = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    assert_eq!(
        reason(get(&mut connection, input_only, MQGMO_BROWSE_FIRST)),
        MQRC_NOT_OPEN_FOR_BROWSE
    );
    assert_eq!(
        reason(get(&mut connection, output_only, MQGMO_NO_SYNCPOINT)),
        MQRC_NOT_OPEN_FOR_INPUT
    );
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_BROWSE_FIRST)),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_BROWSE_MSG_UNDER_CURSOR)),
        MQRC_NO_MSG_UNDER_CURSOR
    );
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_MSG_UNDER_CURSOR)),
        MQRC_NO_MSG_UNDER_CURSOR
    );
    for data in ["one", "two", "three"] {
        put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, data.as_bytes());
    }
    let browse =
        |connection: &mut Connection, options| get(connection, hobj, options).map(|(_, d)| d);
    assert_eq!(browse(&mut connection, MQGMO_BROWSE_NEXT).unwrap(), b"one");
    assert_eq!(browse(&mut connection, MQGMO_BROWSE_NEXT).unwrap(), b"two");
    assert_eq!(
        browse(&mut connection, MQGMO_BROWSE_MSG_UNDER_CURSOR).unwrap(),
        b"two"
    );
    assert_eq!(
        browse(&mut connection, MQGMO_MSG_UNDER_CURSOR | MQGMO_NO_SYNCPOINT).unwrap(),
        b"two"
    );
    assert_eq!(
        reason(browse(&mut connection, MQGMO_BROWSE_MSG_UNDER_CURSOR)),
        MQRC_NO_MSG_UNDER_CURSOR
    );
    assert_eq!(
        browse(&mut connection, MQGMO_BROWSE_NEXT).unwrap(),
        b"three"
    );
    assert_eq!(
        reason(browse(&mut connection, MQGMO_BROWSE_NEXT)),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(browse(&mut connection, MQGMO_BROWSE_FIRST).unwrap(), b"one");
    // Browsing leaves the messages; browse options do not combine with syncpoint.
    assert_eq!(
        reason(browse(
            &mut connection,
            MQGMO_BROWSE_FIRST | MQGMO_SYNCPOINT
        )),
        MQRC_OPTIONS_ERROR
    );
    assert_eq!(
        reason(browse(
            &mut connection,
            MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT
        )),
        MQRC_OPTIONS_ERROR
    );
    // MQGMO_LOCK goes with a browse option (tests/locking.rs covers locking).
    assert_eq!(
        reason(browse(&mut connection, MQGMO_NO_SYNCPOINT | MQGMO_LOCK)),
        MQRC_OPTIONS_ERROR
    );
    assert_eq!(browse(&mut connection, MQGMO_NO_SYNCPOINT).unwrap(), b"one");
}

#[test]
fn truncation_accepted_or_failed() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, b"0123456789");
    put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, b"next");
    let mut small = [0u8; 4];
    let mut md = Mqmd::default();
    for options in [MQGMO_NO_SYNCPOINT, MQGMO_SYNCPOINT, MQGMO_BROWSE_FIRST] {
        let error = connection
            .get(hobj, &mut md, &mut Mqgmo::with_options(options), &mut small)
            .unwrap_err();
        assert_eq!(
            (error.completion_code, error.reason, error.data_length),
            (MQCC_FAILED, MQRC_TRUNCATED_MSG_FAILED, Some(10))
        );
        assert_ne!(md.msg_id, [0; 24], "the MQMD describes the message");
    }
    // Still first on the queue; the failed browse left the cursor on it.
    let mut big = [0u8; 16];
    let result = connection
        .get(
            hobj,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(MQGMO_BROWSE_MSG_UNDER_CURSOR),
            &mut big,
        )
        .unwrap();
    assert_eq!(result.data_length, 10);
    connection.commit().unwrap();
    let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_ACCEPT_TRUNCATED_MSG);
    let result = connection
        .get(hobj, &mut Mqmd::default(), &mut gmo, &mut small)
        .unwrap();
    assert_eq!(
        result.warning,
        Some(MqError::warning(MQRC_TRUNCATED_MSG_ACCEPTED))
    );
    assert_eq!(
        (
            result.data_length,
            result.returned_length,
            gmo.returned_length
        ),
        (10, 4, 4)
    );
    assert_eq!(&small, b"0123");
    assert_eq!(
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap().1,
        b"next"
    );
}

#[test]
fn wait_is_woken_by_a_put_and_times_out() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut getter = Connection::connect(qm.clone(), "").unwrap();
    let hobj = getter
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    let start = Instant::now();
    let mut gmo = Mqgmo {
        options: MQGMO_WAIT | MQGMO_NO_SYNCPOINT,
        wait_interval: 50,
        ..Mqgmo::default()
    };
    assert_eq!(
        reason(getter.get(hobj, &mut Mqmd::default(), &mut gmo, &mut [0; 8])),
        MQRC_NO_MSG_AVAILABLE
    );
    assert!(start.elapsed() >= Duration::from_millis(50));
    gmo.wait_interval = -5;
    assert_eq!(
        reason(getter.get(hobj, &mut Mqmd::default(), &mut gmo, &mut [0; 8])),
        MQRC_WAIT_INTERVAL_ERROR
    );
    let putter = {
        let qm = qm.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            let mut connection = Connection::connect(qm, "").unwrap();
            let hobj = connection
                .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
                .unwrap();
            put(&mut connection, hobj, MQPMO_SYNCPOINT, b"late");
            connection.commit().unwrap();
        })
    };
    gmo.wait_interval = -1; // MQWI_UNLIMITED
    let mut buffer = [0u8; 8];
    let result = getter
        .get(hobj, &mut Mqmd::default(), &mut gmo, &mut buffer)
        .unwrap();
    assert_eq!(&buffer[..result.data_length], b"late");
    putter.join().unwrap();
}

#[test]
fn quiescing_and_stopping_end_calls_and_waits() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    let waiter = {
        let qm = qm.clone();
        std::thread::spawn(move || {
            let mut connection = Connection::connect(qm, "").unwrap();
            let hobj = connection
                .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
                .unwrap();
            let mut gmo = Mqgmo {
                options: MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING,
                wait_interval: -1,
                ..Mqgmo::default()
            };
            connection
                .get(hobj, &mut Mqmd::default(), &mut gmo, &mut [0; 8])
                .map(|_| ())
        })
    };
    std::thread::sleep(Duration::from_millis(50));
    qm.quiesce();
    assert_eq!(reason(waiter.join().unwrap()), MQRC_Q_MGR_QUIESCING);
    let fiq = MQOO_OUTPUT | MQOO_FAIL_IF_QUIESCING;
    assert_eq!(
        reason(connection.open(&mut Mqod::queue("Q1"), fiq)),
        MQRC_Q_MGR_QUIESCING
    );
    let mut pmo = Mqpmo::with_options(MQPMO_FAIL_IF_QUIESCING);
    assert_eq!(
        reason(connection.put(hobj, &mut Mqmd::default(), &mut pmo, b"")),
        MQRC_Q_MGR_QUIESCING
    );
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_FAIL_IF_QUIESCING)),
        MQRC_Q_MGR_QUIESCING
    );
    // Without FAIL_IF_QUIESCING work goes on until the queue manager stops.
    put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, b"still");
    // A waiting get without FAIL_IF_QUIESCING ends when the queue manager stops.
    let waiter = std::thread::spawn(move || {
        let mut gmo = Mqgmo {
            options: MQGMO_WAIT,
            wait_interval: -1,
            ..Mqgmo::default()
        };
        let mut md = Mqmd {
            correl_id: [9; 24],
            ..Mqmd::default()
        };
        let result = connection
            .get(hobj, &mut md, &mut gmo, &mut [0; 8])
            .map(|_| ());
        (result, connection)
    });
    std::thread::sleep(Duration::from_millis(50));
    qm.shutdown().unwrap();
    let (result, mut connection) = waiter.join().unwrap();
    assert_eq!(reason(result), MQRC_Q_MGR_STOPPING);
    assert_eq!(reason(connection.commit()), MQRC_Q_MGR_STOPPING);
    assert_eq!(
        reason(connection.open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)),
        MQRC_Q_MGR_STOPPING
    );
    assert_eq!(reason(connection.disconnect()), MQRC_Q_MGR_STOPPING);
}

#[test]
fn get_inhibited_and_deleted_queue() {
    let (_dir, qm) = queue_manager(&["Q1", "Q2"]);
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, b"x");
    connection
        .set(
            hobj,
            &[(
                MQIA_INHIBIT_GET,
                AttributeValue::Integer(MQQA_GET_INHIBITED),
            )],
        )
        .unwrap();
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_GET_INHIBITED
    );
    connection
        .set(
            hobj,
            &[(MQIA_INHIBIT_GET, AttributeValue::Integer(MQQA_GET_ALLOWED))],
        )
        .unwrap();
    get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    let q2 = connection
        .open(&mut Mqod::queue("Q2"), MQOO_OUTPUT)
        .unwrap();
    qm.delete_queue("Q2", true).unwrap();
    assert_eq!(
        reason(connection.put(q2, &mut Mqmd::default(), &mut Mqpmo::default(), b"")),
        MQRC_Q_DELETED
    );
    connection.close(q2, MQCO_NONE).unwrap();
}

#[test]
fn maxumsgs_limits_a_unit_of_work() {
    let directory = tempfile::tempdir().unwrap();
    let mut config = small_config("QM1");
    config.system.maxumsgs = 2;
    ferrite_queue_manager::QueueManager::create(fs(), directory.path(), &config, &mut |_, _, _| {})
        .unwrap();
    let qm = open(directory.path());
    define(&qm, QueueDefinition::local("Q1", PageSetId(1)));
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    put(&mut connection, hobj, MQPMO_SYNCPOINT, b"1");
    put(&mut connection, hobj, MQPMO_SYNCPOINT, b"2");
    let result = connection.put(
        hobj,
        &mut Mqmd::default(),
        &mut Mqpmo::with_options(MQPMO_SYNCPOINT),
        b"3",
    );
    assert_eq!(reason(result), MQRC_SYNCPOINT_LIMIT_REACHED);
}

#[test]
fn inquire_and_set() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    let output = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, b"x");
    let values = connection
        .inquire(
            hobj,
            &[
                MQCA_Q_NAME,
                MQIA_CURRENT_Q_DEPTH,
                MQIA_MAX_Q_DEPTH,
                MQIA_DEF_PERSISTENCE,
                MQIA_INHIBIT_PUT,
                MQIA_INHIBIT_GET,
                MQIA_Q_TYPE,
                MQIA_OPEN_INPUT_COUNT,
                MQIA_OPEN_OUTPUT_COUNT,
            ],
        )
        .unwrap()
        .values;
    use AttributeValue::*;
    assert_eq!(
        values,
        vec![
            Text("Q1".into()),
            Integer(1),
            Integer(999_999_999),
            Integer(0),
            Integer(0),
            Integer(0),
            Integer(1),
            Integer(1),
            Integer(2)
        ]
    );
    for &selector in ferrite_mqi::connection::QUEUE_SELECTORS {
        let inquired = connection.inquire(hobj, &[selector]).unwrap();
        assert_eq!(inquired.warning, None, "selector {selector}");
    }
    assert_eq!(
        reason(connection.inquire(output, &[MQIA_CURRENT_Q_DEPTH])),
        MQRC_NOT_OPEN_FOR_INQUIRE
    );
    assert_eq!(
        reason(connection.inquire(hobj, &[MQCA_Q_MGR_NAME])),
        MQRC_SELECTOR_ERROR
    );
    assert_eq!(
        reason(connection.inquire(hobj, &[0; 257])),
        MQRC_SELECTOR_COUNT_ERROR
    );
    let mut qmgr = Mqod {
        object_type: MQOT_Q_MGR,
        ..Mqod::default()
    };
    let qmgr = connection.open(&mut qmgr, MQOO_INQUIRE).unwrap();
    assert_eq!(
        connection
            .inquire(qmgr, &[MQCA_Q_MGR_NAME, MQIA_MAX_PRIORITY])
            .unwrap()
            .values,
        vec![Text("QM1".into()), Integer(9)]
    );
    for &selector in ferrite_mqi::connection::QUEUE_MANAGER_SELECTORS {
        connection.inquire(qmgr, &[selector]).unwrap();
    }
    assert_eq!(
        reason(connection.inquire(qmgr, &[MQIA_CURRENT_Q_DEPTH])),
        MQRC_SELECTOR_ERROR
    );
    // MQSET
    assert_eq!(
        reason(connection.set(output, &[(MQIA_INHIBIT_PUT, Integer(1))])),
        MQRC_NOT_OPEN_FOR_SET
    );
    assert_eq!(
        reason(connection.set(hobj, &[(MQIA_INHIBIT_PUT, Integer(2))])),
        MQRC_INHIBIT_VALUE_ERROR
    );
    assert_eq!(
        reason(connection.set(hobj, &[(MQIA_INHIBIT_PUT, Text("Y".into()))])),
        MQRC_INHIBIT_VALUE_ERROR
    );
    assert_eq!(
        reason(connection.set(
            hobj,
            &[
                (MQIA_INHIBIT_GET, Integer(1)),
                (MQIA_MAX_Q_DEPTH, Integer(5))
            ]
        )),
        MQRC_SELECTOR_ERROR
    );
    assert_eq!(
        connection
            .inquire(hobj, &[MQIA_INHIBIT_GET])
            .unwrap()
            .values,
        vec![Integer(0)],
        "nothing half-applied"
    );
    assert_eq!(
        reason(connection.set(hobj, &vec![(0, Integer(1)); 257])),
        MQRC_SELECTOR_COUNT_ERROR
    );
    connection
        .set(hobj, &[(MQIA_INHIBIT_PUT, Integer(1))])
        .unwrap();
    assert_eq!(
        connection
            .inquire(hobj, &[MQIA_INHIBIT_PUT])
            .unwrap()
            .values,
        vec![Integer(1)]
    );
}

#[test]
fn expired_messages_are_never_returned() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection.open(&mut Mqod::queue("Q1"), ALL).unwrap();
    let mut md = Mqmd {
        expiry: 1, // a tenth of a second
        ..Mqmd::default()
    };
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"short",
        )
        .unwrap();
    let mut md = Mqmd {
        expiry: 600,
        ..Mqmd::default()
    };
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"long",
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(150));
    let (md, data) = get(&mut connection, hobj, MQGMO_BROWSE_FIRST).unwrap();
    assert_eq!(data, b"long");
    assert!(
        md.expiry > 0 && md.expiry <= 600,
        "remaining lifetime {}",
        md.expiry
    );
    let (_, data) = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(data, b"long");
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
}

#[test]
fn descriptor_extension_round_trip_and_compactness() {
    let md = Mqmd {
        priority: 3,
        persistence: MQPER_PERSISTENT,
        put_date: descriptor::put_date_time_fields(1_700_000_000_000).0,
        put_time: descriptor::put_date_time_fields(1_700_000_000_000).1,
        coded_char_set_id: QUEUE_MANAGER_CCSID,
        ..Mqmd::default()
    };
    let engine = descriptor::to_engine(&md, 1_700_000_000_000);
    assert!(
        engine.descriptor_extension.is_empty(),
        "defaults cost nothing"
    );
    assert_eq!(md.put_date, "20231114");
    assert_eq!(md.put_time, "22132000");
    let full = Mqmd {
        version: 2,
        report: ferrite_constants::report::MQRO_COA | ferrite_constants::report::MQRO_PASS_MSG_ID,
        msg_type: MQMT_REPLY,
        expiry: MQEI_UNLIMITED_VALUE,
        feedback: 259,
        encoding: 0x111,
        coded_char_set_id: 37,
        format: MQFMT_STRING,
        priority: 9,
        persistence: MQPER_NOT_PERSISTENT,
        msg_id: [1; 24],
        correl_id: [2; 24],
        backout_count: 3,
        reply_to_q: "REPLY".into(),
        reply_to_q_mgr: "QMX".into(),
        user_identifier: "BOB".into(),
        accounting_token: [4; 32],
        appl_identity_data: "identity".into(),
        put_appl_type: 28,
        put_appl_name: "program".into(),
        put_date: "".into(),
        put_time: "12000000".into(),
        appl_origin_data: "orig".into(),
        group_id: [5; 24],
        msg_seq_number: 7,
        offset: 100,
        msg_flags: 0x18,
        original_length: 5000,
    };
    let engine = descriptor::to_engine(&full, 1_700_000_000_000);
    let back = descriptor::from_engine(&engine, 3, 0, 2).unwrap();
    assert_eq!(back, full);
    // Without a group id, MsgSeqNumber travels in the extension.
    let ungrouped = Mqmd {
        group_id: [0; 24],
        msg_seq_number: 4,
        ..full.clone()
    };
    let engine = descriptor::to_engine(&ungrouped, 1);
    assert_eq!(
        descriptor::from_engine(&engine, 3, 0, 2).unwrap(),
        ungrouped
    );
    let mut damaged = engine.clone();
    damaged.descriptor_extension.push(99);
    assert!(descriptor::from_engine(&damaged, 0, 0, 2).is_err());
}

const MQEI_UNLIMITED_VALUE: i32 = -1;

#[test]
fn persistent_messages_survive_restart_through_the_mqi() {
    let (directory, qm) = queue_manager(&["Q1"]);
    {
        let mut connection = Connection::connect(qm.clone(), "").unwrap();
        let hobj = connection
            .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
            .unwrap();
        for (persistence, data) in [(MQPER_PERSISTENT, "p"), (MQPER_NOT_PERSISTENT, "n")] {
            let mut md = Mqmd {
                persistence,
                reply_to_q: "R".into(),
                ..Mqmd::default()
            };
            connection
                .put(
                    hobj,
                    &mut md,
                    &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                    data.as_bytes(),
                )
                .unwrap();
        }
        put(&mut connection, hobj, MQPMO_SYNCPOINT, b"uncommitted");
        qm.shutdown().unwrap();
    }
    drop(qm);
    let qm = open(directory.path());
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    let (md, data) = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!((data.as_slice(), md.reply_to_q.as_str()), (&b"p"[..], "R"));
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
}

#[allow(dead_code)]
fn assert_send(_: &Arc<Connection>) {}

/// Regression: a page freed by a persistent get and reused for non-persistent data must not
/// bring the got message back after restart.
#[test]
fn got_persistent_message_stays_gone_when_its_page_is_reused_for_nonpersistent_data() {
    let (directory, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    let mut md = Mqmd {
        persistence: MQPER_PERSISTENT,
        ..Mqmd::default()
    };
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"P1",
        )
        .unwrap();
    qm.shutdown().unwrap();
    drop((connection, qm));
    let qm = open(directory.path());
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap().1,
        b"P1"
    );
    let mut md = Mqmd {
        persistence: MQPER_NOT_PERSISTENT,
        ..Mqmd::default()
    };
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"N",
        )
        .unwrap();
    qm.shutdown().unwrap();
    drop((connection, qm));
    let qm = open(directory.path());
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    let result = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).map(|(_, data)| data);
    assert_eq!(
        reason(result),
        MQRC_NO_MSG_AVAILABLE,
        "the got message came back"
    );
}
