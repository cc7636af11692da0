//! Inhibit events (INHIBTEV) and local events (LOCALEV) through the MQI: each failing call of
//! their reasons puts one event on SYSTEM.ADMIN.QMGR.EVENT (queue_manager_events.rs documents
//! the message), nothing while the switch is DISABLED, and the call's outcome never changes.

use ferrite_constants::{
    format::MQFMT_EVENT, get_options::*, message_type::MQMT_DATAGRAM, object_type::*,
    open_options::*, pcf::*, pcf_selector::*, put_options::*, queue_type::*, reason::*,
    selector::*,
};
use ferrite_mqi::queue_manager_events::QUEUE_MANAGER_EVENT_QUEUE;
use ferrite_mqi::*;
use ferrite_queue_manager::{
    AliasDefinition, ObjectDefinition, ObjectType, QueueDefinition, QueueManager,
};
use ferrite_test_kit::*;

#[derive(Debug, PartialEq)]
enum Value {
    Integer(i32),
    Text(String),
}

/// The reason and the parameters (id, value) of every event on the queue manager event queue,
/// taken off it. Checks the MQCFH of each.
fn events(queue_manager: &std::sync::Arc<QueueManager>) -> Vec<(i32, Vec<(i32, Value)>)> {
    let mut found = Vec::new();
    for (md, buffer) in take_all(queue_manager, QUEUE_MANAGER_EVENT_QUEUE, 4096) {
        assert_eq!(md.format, MQFMT_EVENT);
        assert_eq!(md.msg_type, MQMT_DATAGRAM);
        let data = &buffer;
        let int = |offset: usize| i32::from_ne_bytes(data[offset..offset + 4].try_into().unwrap());
        assert_eq!(int(0), MQCFT_EVENT);
        assert_eq!(int(8), MQCFH_VERSION_1);
        assert_eq!(int(12), MQCMD_Q_MGR_EVENT);
        assert_eq!(int(24), 1, "MQCC_WARNING");
        let mut parameters = Vec::new();
        let mut offset = 36;
        for _ in 0..int(32) {
            let (kind, length, parameter) = (int(offset), int(offset + 4), int(offset + 8));
            let value = match kind {
                MQCFT_INTEGER => Value::Integer(int(offset + 12)),
                MQCFT_STRING => {
                    let string_length = int(offset + 16) as usize;
                    let text = &data[offset + 20..offset + 20 + string_length];
                    Value::Text(String::from_utf8_lossy(text).trim_end().to_string())
                }
                other => panic!("structure type {other}"),
            };
            parameters.push((parameter, value));
            offset += length as usize;
        }
        assert_eq!(offset, data.len(), "ParameterCount covers the data");
        found.push((int(28), parameters));
    }
    found
}

fn text(value: &str) -> Value {
    Value::Text(value.to_string())
}

fn switch_events(queue_manager: &QueueManager, inhibit: bool, local: bool) {
    let mut attributes = queue_manager.queue_manager_attributes();
    attributes.inhibit_events = inhibit;
    attributes.local_events = local;
    queue_manager.alter_queue_manager(attributes).unwrap();
}

fn reason<T: std::fmt::Debug>(result: MqResult<T>) -> i32 {
    result.expect_err("the call fails").reason
}

#[test]
fn put_and_get_inhibited_events() {
    let (_directory, queue_manager) = queue_manager(&[QUEUE_MANAGER_EVENT_QUEUE]);
    define(
        &queue_manager,
        QueueDefinition {
            put_inhibited: true,
            get_inhibited: true,
            ..QueueDefinition::local("APP.Q", ferrite_storage::PageSetId(1))
        },
    );
    queue_manager
        .define_object(
            ObjectDefinition::Alias(AliasDefinition::new("APP.ALIAS", "APP.Q")),
            false,
        )
        .unwrap();
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = connection
        .open(
            &mut Mqod::queue("APP.Q"),
            MQOO_OUTPUT | MQOO_INPUT_SHARED | MQOO_BROWSE,
        )
        .unwrap();
    let put = |connection: &mut Connection, hobj| {
        connection.put(
            hobj,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"x",
        )
    };
    let get = |connection: &mut Connection, hobj, options| {
        connection.get(
            hobj,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(options),
            &mut [0u8; 16],
        )
    };

    // INHIBTEV(DISABLED), MQ's default: the calls fail, no event.
    assert_eq!(reason(put(&mut connection, hobj)), MQRC_PUT_INHIBITED);
    assert!(events(&queue_manager).is_empty());

    switch_events(&queue_manager, true, false);
    assert_eq!(reason(put(&mut connection, hobj)), MQRC_PUT_INHIBITED);
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_GET_INHIBITED
    );
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_BROWSE_FIRST)),
        MQRC_GET_INHIBITED,
        "a browse too"
    );
    // MQPUT1 through the alias: QName is the alias the application named.
    let mut od = Mqod::queue("APP.ALIAS");
    assert_eq!(
        reason(connection.put1(
            &mut od,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"x"
        )),
        MQRC_PUT_INHIBITED
    );
    // Other failures give no inhibit event.
    assert_eq!(
        reason(get(&mut connection, Hobj(9_999), MQGMO_NO_SYNCPOINT)),
        MQRC_HOBJ_ERROR
    );
    let found = events(&queue_manager);
    let reasons: Vec<(i32, &Value)> = found
        .iter()
        .map(|(reason, parameters)| (*reason, &parameters[1].1))
        .collect();
    assert_eq!(
        reasons,
        [
            (MQRC_PUT_INHIBITED, &text("APP.Q")),
            (MQRC_GET_INHIBITED, &text("APP.Q")),
            (MQRC_GET_INHIBITED, &text("APP.Q")),
            (MQRC_PUT_INHIBITED, &text("APP.ALIAS")),
        ]
    );
    let ids: Vec<i32> = found[0].1.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        ids,
        [
            MQCA_Q_MGR_NAME,
            MQCA_Q_NAME,
            MQIA_APPL_TYPE,
            MQCACF_APPL_NAME
        ],
        "no ConnName or ChannelName for an in-process connection"
    );
    assert_eq!(found[0].1[0].1, text("QM1"));
    connection.disconnect().unwrap();
}

#[test]
fn unknown_object_and_alias_base_events() {
    let (_directory, queue_manager) = queue_manager(&[QUEUE_MANAGER_EVENT_QUEUE]);
    for (alias, target) in [
        ("ALIAS.OF.NOTHING", "NO.SUCH.BASE"),
        ("ALIAS.OF.MODEL", "SYSTEM.DEFAULT.MODEL.QUEUE"),
    ] {
        queue_manager
            .define_object(
                ObjectDefinition::Alias(AliasDefinition::new(alias, target)),
                false,
            )
            .unwrap();
    }
    if queue_manager
        .object(ObjectType::ModelQueue, "SYSTEM.DEFAULT.MODEL.QUEUE")
        .is_none()
    {
        queue_manager
            .define_object(
                ObjectDefinition::Model(QueueDefinition::model(
                    "SYSTEM.DEFAULT.MODEL.QUEUE",
                    ferrite_storage::PageSetId(1),
                )),
                false,
            )
            .unwrap();
    }
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let open = |connection: &mut Connection, name: &str| {
        connection.open(&mut Mqod::queue(name), MQOO_OUTPUT)
    };

    assert_eq!(
        reason(open(&mut connection, "NO.SUCH.Q")),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    assert!(events(&queue_manager).is_empty(), "LOCALEV(DISABLED)");

    switch_events(&queue_manager, false, true);
    assert_eq!(
        reason(open(&mut connection, "NO.SUCH.Q")),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    let mut process = Mqod::queue("NO.SUCH.PROCESS");
    process.object_type = MQOT_PROCESS;
    assert_eq!(
        reason(connection.open(&mut process, MQOO_INQUIRE)),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    assert_eq!(
        reason(open(&mut connection, "ALIAS.OF.NOTHING")),
        MQRC_UNKNOWN_ALIAS_BASE_Q
    );
    assert_eq!(
        reason(connection.put1(
            &mut Mqod::queue("ALIAS.OF.MODEL"),
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"x"
        )),
        MQRC_ALIAS_BASE_Q_TYPE_ERROR
    );
    let found = events(&queue_manager);
    assert_eq!(found.len(), 4, "one event per failing call: {found:?}");
    let ids = |index: usize| -> Vec<i32> { found[index].1.iter().map(|(id, _)| *id).collect() };

    assert_eq!(found[0].0, MQRC_UNKNOWN_OBJECT_NAME);
    assert_eq!(
        ids(0),
        [
            MQCA_Q_MGR_NAME,
            MQIA_APPL_TYPE,
            MQCACF_APPL_NAME,
            MQCA_Q_NAME
        ],
        "ApplType and ApplName come before the name"
    );
    assert_eq!(found[0].1[3].1, text("NO.SUCH.Q"));

    assert_eq!(found[1].0, MQRC_UNKNOWN_OBJECT_NAME);
    assert_eq!(found[1].1[3], (MQCA_PROCESS_NAME, text("NO.SUCH.PROCESS")));

    assert_eq!(found[2].0, MQRC_UNKNOWN_ALIAS_BASE_Q);
    assert_eq!(
        ids(2),
        [
            MQCA_Q_MGR_NAME,
            MQCA_Q_NAME,
            MQCA_BASE_OBJECT_NAME,
            MQIA_APPL_TYPE,
            MQCACF_APPL_NAME,
            MQIA_BASE_TYPE
        ]
    );
    assert_eq!(found[2].1[1].1, text("ALIAS.OF.NOTHING"));
    assert_eq!(found[2].1[2].1, text("NO.SUCH.BASE"));
    assert_eq!(found[2].1[5].1, Value::Integer(MQOT_Q));

    assert_eq!(found[3].0, MQRC_ALIAS_BASE_Q_TYPE_ERROR);
    assert_eq!(
        ids(3),
        [
            MQCA_Q_MGR_NAME,
            MQCA_Q_NAME,
            MQCA_BASE_OBJECT_NAME,
            MQIA_Q_TYPE,
            MQIA_APPL_TYPE,
            MQCACF_APPL_NAME
        ]
    );
    assert_eq!(found[3].1[3].1, Value::Integer(MQQT_MODEL));

    // Without the event queue the event is lost and the call's outcome is the same.
    queue_manager
        .delete_queue(QUEUE_MANAGER_EVENT_QUEUE, true)
        .unwrap();
    assert_eq!(
        reason(open(&mut connection, "NO.SUCH.Q")),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    connection.disconnect().unwrap();
}

#[test]
fn queue_manager_active_follows_strstpev() {
    let (_directory, queue_manager) = queue_manager(&[QUEUE_MANAGER_EVENT_QUEUE]);
    assert!(
        queue_manager.queue_manager_attributes().start_stop_events,
        "STRSTPEV(ENABLED) is MQ's default"
    );
    assert!(queue_manager_events::queue_manager_active(&queue_manager));
    let found = events(&queue_manager);
    assert_eq!(
        found,
        [(MQRC_Q_MGR_ACTIVE, vec![(MQCA_Q_MGR_NAME, text("QM1"))])]
    );
    let mut attributes = queue_manager.queue_manager_attributes();
    attributes.start_stop_events = false;
    queue_manager.alter_queue_manager(attributes).unwrap();
    assert!(!queue_manager_events::queue_manager_active(&queue_manager));
    assert!(events(&queue_manager).is_empty());
}
