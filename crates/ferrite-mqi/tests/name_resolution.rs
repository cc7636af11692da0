//! Distributed queuing's name resolution at MQOPEN, MQPUT and MQPUT1: remote queue
//! definitions, ObjectQMgrName, queue manager aliases, the transmission queue named after the
//! remote queue manager, DEFXMITQ, reply-to queue aliases, and the MQXQH message each leaves on
//! its transmission queue, with MQ's reason codes for every misconfiguration.

use ferrite_constants::{
    format::*, get_options::*, message_flags::*, object_type::MQOT_Q_MGR, open_options::*,
    persistence::*, put_options::*, reason::*, selector::MQCA_DEF_XMIT_Q_NAME,
};
use ferrite_message::TransmissionHeader;
use ferrite_mqi::transmission_queue::{MD_EXTENSION_LENGTH, TRANSMISSION_BYTE_ORDER};
use ferrite_mqi::*;
use ferrite_queue_manager::{ObjectDefinition, QueueDefinition, QueueManager, RemoteDefinition};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

fn define_transmission_queue(queue_manager: &QueueManager, name: &str) {
    let mut definition = QueueDefinition::local(name, PageSetId(1));
    definition.usage_transmission = true;
    define(queue_manager, definition);
}

fn define_remote(
    queue_manager: &QueueManager,
    name: &str,
    rname: &str,
    rqmname: &str,
    xmitq: &str,
) {
    queue_manager
        .define_object(
            ObjectDefinition::Remote(RemoteDefinition {
                remote_name: rname.into(),
                remote_queue_manager: rqmname.into(),
                transmission_queue: xmitq.into(),
                ..RemoteDefinition::new(name)
            }),
            false,
        )
        .unwrap();
}

fn od(name: &str, q_mgr_name: &str) -> Mqod {
    let mut od = Mqod::queue(name);
    od.object_q_mgr_name = q_mgr_name.into();
    od
}

/// The one message on transmission queue `xmitq`: its own MQMD, its MQXQH and what follows.
fn transmitted(connection: &mut Connection, xmitq: &str) -> (Mqmd, TransmissionHeader, Vec<u8>) {
    let hobj = connection
        .open(&mut Mqod::queue(xmitq), MQOO_INPUT_SHARED)
        .unwrap();
    let (md, data) = get(connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(
        reason(get(connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    connection.close(hobj, 0).unwrap();
    assert_eq!(md.format, MQFMT_XMIT_Q_HEADER);
    let header = TransmissionHeader::decode(&data, TRANSMISSION_BYTE_ORDER).unwrap();
    (md, header, data[428..].to_vec())
}

fn put1(connection: &mut Connection, od: &mut Mqod, data: &[u8]) -> MqResult<Mqmd> {
    let mut md = Mqmd::default();
    connection.put1(
        od,
        &mut md,
        &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
        data,
    )?;
    Ok(md)
}

#[test]
fn a_remote_queue_puts_to_its_transmission_queue_behind_an_xqh() {
    let (_directory, qm) = queue_manager(&[]);
    define_transmission_queue(&qm, "QM2.XMIT");
    define_remote(&qm, "TO.QM2", "APP.IN", "QM2", "QM2.XMIT");
    let mut connection = connect(&qm);
    let mut od = Mqod::queue("TO.QM2");
    let hobj = connection.open(&mut od, MQOO_OUTPUT).unwrap();
    assert_eq!(od.resolved_q_name.trim(), "APP.IN");
    assert_eq!(od.resolved_q_mgr_name.trim(), "QM2");
    let mut md = Mqmd {
        format: MQFMT_STRING,
        priority: 7,
        persistence: MQPER_PERSISTENT,
        correl_id: [5; 24],
        reply_to_q: "APP.REPLY".into(),
        ..Mqmd::default()
    };
    let mut pmo = Mqpmo::with_options(MQPMO_SYNCPOINT);
    connection.put(hobj, &mut md, &mut pmo, b"across").unwrap();
    assert_eq!(pmo.resolved_q_name.trim(), "APP.IN");
    assert_eq!(pmo.resolved_q_mgr_name.trim(), "QM2");
    // In the unit of work until MQCMIT, like any put.
    let mut other = connect(&qm);
    let xmitq = other
        .open(&mut Mqod::queue("QM2.XMIT"), MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(
        reason(get(&mut other, xmitq, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    connection.commit().unwrap();
    other.close(xmitq, 0).unwrap();
    let (xmit_md, header, data) = transmitted(&mut other, "QM2.XMIT");
    assert_eq!(data, b"across");
    assert_eq!(header.remote_q_name, "APP.IN");
    assert_eq!(header.remote_q_mgr_name, "QM2");
    // The original MQMD travels in the MQXQH; the transmission message keeps its priority,
    // persistence and ids.
    let original = &header.msg_desc;
    assert_eq!(original.format.0, MQFMT_STRING);
    assert_eq!(original.priority, 7);
    assert_eq!(original.persistence, MQPER_PERSISTENT);
    assert_eq!(original.msg_id, md.msg_id);
    assert_eq!(original.correl_id, [5; 24]);
    assert_eq!(original.reply_to_q.trimmed(), "APP.REPLY");
    assert_eq!(original.reply_to_q_mgr.trimmed(), "QM1");
    assert_eq!(xmit_md.priority, 7);
    assert_eq!(xmit_md.persistence, MQPER_PERSISTENT);
    assert_eq!(xmit_md.msg_id, md.msg_id);
    connection.close(hobj, 0).unwrap();
}

#[test]
fn the_transmission_queue_is_named_after_the_remote_queue_manager_or_defxmitq() {
    let (_directory, qm) = queue_manager(&[]);
    define_transmission_queue(&qm, "QM2");
    define_remote(&qm, "TO.QM2", "APP.IN", "QM2", "");
    let mut connection = connect(&qm);
    put1(&mut connection, &mut Mqod::queue("TO.QM2"), b"a").unwrap();
    let (_, header, _) = transmitted(&mut connection, "QM2");
    assert_eq!(
        (
            header.remote_q_name.as_str(),
            header.remote_q_mgr_name.as_str()
        ),
        ("APP.IN", "QM2")
    );
    // ObjectQMgrName: the queue named after that queue manager.
    let mut by_name = od("ANY.Q", "QM2");
    put1(&mut connection, &mut by_name, b"b").unwrap();
    assert_eq!(by_name.resolved_q_mgr_name.trim(), "QM2");
    let (_, header, data) = transmitted(&mut connection, "QM2");
    assert_eq!(
        (
            header.remote_q_name.as_str(),
            header.remote_q_mgr_name.as_str()
        ),
        ("ANY.Q", "QM2")
    );
    assert_eq!(data, b"b");
    // No such queue and no DEFXMITQ: the remote queue manager is unknown.
    assert_eq!(
        reason(put1(&mut connection, &mut od("ANY.Q", "QM9"), b"c")),
        MQRC_UNKNOWN_REMOTE_Q_MGR
    );
    // DEFXMITQ takes what nothing else resolves.
    define_transmission_queue(&qm, "DEFAULT.XMIT");
    let mut attributes = qm.queue_manager_attributes();
    attributes.default_transmission_queue = "DEFAULT.XMIT".into();
    qm.alter_queue_manager(attributes).unwrap();
    put1(&mut connection, &mut od("ANY.Q", "QM9"), b"c").unwrap();
    let mut qmgr = Mqod {
        object_type: MQOT_Q_MGR,
        ..Mqod::default()
    };
    let qmgr = connection.open(&mut qmgr, MQOO_INQUIRE).unwrap();
    assert_eq!(
        connection
            .inquire(qmgr, &[MQCA_DEF_XMIT_Q_NAME])
            .unwrap()
            .values,
        vec![AttributeValue::Text("DEFAULT.XMIT".into())]
    );
    let (_, header, _) = transmitted(&mut connection, "DEFAULT.XMIT");
    assert_eq!(header.remote_q_mgr_name, "QM9");
    // This queue manager's own name is not remote.
    define_locals(&qm, &["LOCAL.Q"]);
    put1(&mut connection, &mut od("LOCAL.Q", "QM1"), b"here").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("LOCAL.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    let (md, data) = get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(
        (md.format, data.as_slice()),
        (Mqmd::default().format, &b"here"[..])
    );
}

#[test]
fn queue_manager_aliases_redirect_or_come_home() {
    let (_directory, qm) = queue_manager(&["LOCAL.Q"]);
    define_transmission_queue(&qm, "TO.HUB");
    // QMX is reached through the hub's transmission queue, as queue manager QM3.
    define_remote(&qm, "QMX", "", "QM3", "TO.HUB");
    // QMSELF is this queue manager.
    define_remote(&qm, "QMSELF", "", "QM1", "");
    let mut connection = connect(&qm);
    let mut aliased = od("APP.IN", "QMX");
    put1(&mut connection, &mut aliased, b"x").unwrap();
    assert_eq!(aliased.resolved_q_mgr_name.trim(), "QM3");
    let (_, header, _) = transmitted(&mut connection, "TO.HUB");
    assert_eq!(
        (
            header.remote_q_name.as_str(),
            header.remote_q_mgr_name.as_str()
        ),
        ("APP.IN", "QM3")
    );
    put1(&mut connection, &mut od("LOCAL.Q", "QMSELF"), b"home").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("LOCAL.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap().1,
        b"home"
    );
    // A queue manager alias is not a queue, nor a remote queue a queue manager alias.
    assert_eq!(
        reason(connection.open(&mut Mqod::queue("QMX"), MQOO_OUTPUT)),
        MQRC_REMOTE_Q_NAME_ERROR
    );
    define_remote(&qm, "A.REMOTE.Q", "THEIRS", "QM3", "TO.HUB");
    assert_eq!(
        reason(connection.open(&mut od("APP.IN", "A.REMOTE.Q"), MQOO_OUTPUT)),
        MQRC_UNKNOWN_REMOTE_Q_MGR
    );
}

#[test]
fn misconfigured_routes_fail_with_mq_reasons() {
    let (_directory, qm) = queue_manager(&["PLAIN.Q"]);
    define_transmission_queue(&qm, "GOOD.XMIT");
    define_remote(&qm, "NO.XMITQ", "Q", "QM2", "MISSING.XMIT");
    define_remote(&qm, "PLAIN.XMITQ", "Q", "QM2", "PLAIN.Q");
    define_remote(&qm, "NO.RQMNAME", "Q", "", "GOOD.XMIT");
    define_remote(&qm, "TO.SELF", "Q", "QM1", "GOOD.XMIT");
    define_remote(&qm, "ALIAS.XMITQ", "Q", "QM2", "SYSTEM.DEFAULT.ALIAS.QUEUE");
    // RQMNAME names a queue that is not a local queue, with XMITQ blank.
    define_remote(&qm, "QM.NAMED.LIKE.A.QREMOTE", "X", "QM9", "GOOD.XMIT");
    define_remote(&qm, "VIA.QREMOTE.NAME", "Q", "QM.NAMED.LIKE.A.QREMOTE", "");
    let mut connection = connect(&qm);
    let open = |connection: &mut Connection, name: &str, options: i32| {
        connection.open(&mut Mqod::queue(name), options)
    };
    for (name, expected) in [
        ("NO.XMITQ", MQRC_UNKNOWN_XMIT_Q),
        ("PLAIN.XMITQ", MQRC_XMIT_Q_USAGE_ERROR),
        ("NO.RQMNAME", MQRC_UNKNOWN_REMOTE_Q_MGR),
        ("TO.SELF", MQRC_UNKNOWN_REMOTE_Q_MGR),
        ("VIA.QREMOTE.NAME", MQRC_XMIT_Q_TYPE_ERROR),
    ] {
        assert_eq!(
            reason(open(&mut connection, name, MQOO_OUTPUT)),
            expected,
            "{name}"
        );
    }
    if qm.queue_object_type("SYSTEM.DEFAULT.ALIAS.QUEUE").is_some() {
        assert_eq!(
            reason(open(&mut connection, "ALIAS.XMITQ", MQOO_OUTPUT)),
            MQRC_XMIT_Q_TYPE_ERROR
        );
    }
    // ObjectQMgrName naming a local queue that is not a transmission queue.
    assert_eq!(
        reason(connection.open(&mut od("Q", "PLAIN.Q"), MQOO_OUTPUT)),
        MQRC_XMIT_Q_USAGE_ERROR
    );
    // A remote queue opens for output only.
    define_remote(&qm, "GOOD", "Q", "QM2", "GOOD.XMIT");
    for options in [MQOO_INPUT_SHARED, MQOO_BROWSE, MQOO_INQUIRE] {
        assert_eq!(
            reason(open(&mut connection, "GOOD", options)),
            MQRC_OPTION_NOT_VALID_FOR_TYPE
        );
    }
    assert_eq!(
        reason(connection.open(&mut od("Q", "GOOD.XMIT"), MQOO_INPUT_SHARED)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    // DEFXMITQ's own reasons.
    let mut attributes = qm.queue_manager_attributes();
    for (default, expected) in [
        ("NOT.THERE", MQRC_UNKNOWN_DEF_XMIT_Q),
        ("PLAIN.Q", MQRC_DEF_XMIT_Q_USAGE_ERROR),
        ("GOOD", MQRC_DEF_XMIT_Q_TYPE_ERROR),
    ] {
        attributes.default_transmission_queue = default.into();
        qm.alter_queue_manager(attributes.clone()).unwrap();
        assert_eq!(
            reason(connection.open(&mut od("Q", "QM7"), MQOO_OUTPUT)),
            expected,
            "DEFXMITQ({default})"
        );
    }
}

#[test]
fn a_remote_queues_put_inhibit_and_defaults_apply() {
    let (_directory, qm) = queue_manager(&[]);
    define_transmission_queue(&qm, "QM2");
    qm.define_object(
        ObjectDefinition::Remote(RemoteDefinition {
            remote_name: "APP.IN".into(),
            remote_queue_manager: "QM2".into(),
            default_priority: 6,
            default_persistent: true,
            ..RemoteDefinition::new("TO.QM2")
        }),
        false,
    )
    .unwrap();
    let mut connection = connect(&qm);
    put1(&mut connection, &mut Mqod::queue("TO.QM2"), b"d").unwrap();
    let (xmit_md, header, _) = transmitted(&mut connection, "QM2");
    assert_eq!(
        (header.msg_desc.priority, header.msg_desc.persistence),
        (6, MQPER_PERSISTENT)
    );
    assert_eq!(
        (xmit_md.priority, xmit_md.persistence),
        (6, MQPER_PERSISTENT)
    );
    let hobj = connection
        .open(&mut Mqod::queue("TO.QM2"), MQOO_OUTPUT)
        .unwrap();
    qm.alter_object(ObjectDefinition::Remote(RemoteDefinition {
        remote_name: "APP.IN".into(),
        remote_queue_manager: "QM2".into(),
        put_inhibited: true,
        ..RemoteDefinition::new("TO.QM2")
    }))
    .unwrap();
    assert_eq!(
        reason(connection.put(
            hobj,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"e"
        )),
        MQRC_PUT_INHIBITED
    );
}

#[test]
fn a_reply_to_queue_alias_names_where_replies_go() {
    let (_directory, qm) = queue_manager(&[]);
    define_transmission_queue(&qm, "QM2");
    define_remote(&qm, "TO.QM2", "APP.IN", "QM2", "");
    // Replies to MY.REPLIES come back to QM1 as APP.REPLIES, through a queue manager alias
    // the other side knows as QM1.ALIAS.
    define_remote(&qm, "MY.REPLIES", "APP.REPLIES", "QM1.ALIAS", "");
    let mut connection = connect(&qm);
    let mut md = Mqmd {
        reply_to_q: "MY.REPLIES".into(),
        ..Mqmd::default()
    };
    connection
        .put1(
            &mut Mqod::queue("TO.QM2"),
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"request",
        )
        .unwrap();
    assert_eq!(md.reply_to_q_mgr.trim(), "QM1.ALIAS");
    let (_, header, _) = transmitted(&mut connection, "QM2");
    assert_eq!(header.msg_desc.reply_to_q.trimmed(), "APP.REPLIES");
    assert_eq!(header.msg_desc.reply_to_q_mgr.trimmed(), "QM1.ALIAS");
}

#[test]
fn a_group_member_travels_with_its_md_extension() {
    let (_directory, qm) = queue_manager(&[]);
    define_transmission_queue(&qm, "QM2");
    let mut connection = connect(&qm);
    let hobj = connection
        .open(&mut od("APP.IN", "QM2"), MQOO_OUTPUT)
        .unwrap();
    let mut md = Mqmd {
        version: 2,
        format: MQFMT_STRING,
        msg_flags: MQMF_MSG_IN_GROUP | MQMF_LAST_MSG_IN_GROUP,
        ..Mqmd::default()
    };
    let mut pmo = Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_LOGICAL_ORDER);
    connection.put(hobj, &mut md, &mut pmo, b"only").unwrap();
    let (xmit_md, header, rest) = transmitted(&mut connection, "QM2");
    assert_eq!(xmit_md.msg_flags, MQMF_NONE);
    assert_eq!(header.msg_desc.format.0, MQFMT_MD_EXTENSION);
    let extension = &rest[..MD_EXTENSION_LENGTH];
    assert_eq!(&extension[..4], b"MDE ");
    assert_eq!(&extension[20..28], &MQFMT_STRING);
    assert_eq!(&extension[32..56], &md.group_id);
    assert_ne!(md.group_id, [0; 24]);
    assert_eq!(&rest[MD_EXTENSION_LENGTH..], b"only");
}
