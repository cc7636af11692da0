//! Queue and queue manager attributes through the MQI: MQINQ of every attribute a local queue
//! and the queue manager carry, MQSET of the trigger attributes, and the attributes that change
//! behaviour (SHARE/NOSHARE, DEFSOPT, MSGDLVSQ, MAXUMSGS from ALTER QMGR).

use ferrite_constants::{
    get_options::*, message_delivery_sequence::*, misc::*, object_type::MQOT_Q_MGR,
    open_options::*, put_options::*, reason::*, selector::*, shareability::*, trigger_type::*,
};
use ferrite_mqi::*;
use ferrite_queue_manager::{QueueDefinition, QueueManagerAttributes};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

fn reason<T: std::fmt::Debug>(result: MqResult<T>) -> i32 {
    result.expect_err("the call should fail").reason
}

fn integer(value: i32) -> AttributeValue {
    AttributeValue::Integer(value)
}

fn text(value: &str) -> AttributeValue {
    AttributeValue::Text(value.to_string())
}

#[test]
fn inquire_returns_every_queue_attribute_and_set_changes_the_trigger_ones() {
    let (_directory, queue_manager) = queue_manager(&[]);
    let mut definition = QueueDefinition::local("APP.Q", PageSetId(1));
    definition.backout_threshold = 4;
    definition.backout_requeue_queue = "APP.BACKOUT".into();
    definition.hardened_backout = true;
    definition.message_delivery_fifo = true;
    definition.default_read_ahead = "YES".into();
    definition.default_put_response = "ASYNC".into();
    definition.property_control = "NONE".into();
    definition.trigger_control = true;
    definition.trigger_type = "EVERY".into();
    definition.initiation_queue = "APP.INITQ".into();
    definition.process_name = "APP.PROC".into();
    definition.trigger_data = "data".into();
    definition.monitoring_queue = "HIGH".into();
    definition.queue_depth_high_event = true;
    define(&queue_manager, definition);
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("APP.Q"), MQOO_INQUIRE | MQOO_SET)
        .unwrap();
    let selectors = [
        MQIA_BACKOUT_THRESHOLD,
        MQCA_BACKOUT_REQ_Q_NAME,
        MQIA_HARDEN_GET_BACKOUT,
        MQIA_SHAREABILITY,
        MQIA_DEF_INPUT_OPEN_OPTION,
        MQIA_MSG_DELIVERY_SEQUENCE,
        MQIA_DEF_READ_AHEAD,
        MQIA_DEF_PUT_RESPONSE_TYPE,
        MQIA_PROPERTY_CONTROL,
        MQIA_TRIGGER_CONTROL,
        MQIA_TRIGGER_TYPE,
        MQIA_TRIGGER_DEPTH,
        MQIA_TRIGGER_MSG_PRIORITY,
        MQCA_INITIATION_Q_NAME,
        MQCA_PROCESS_NAME,
        MQCA_TRIGGER_DATA,
        MQIA_MONITORING_Q,
        MQIA_Q_DEPTH_HIGH_EVENT,
        MQIA_Q_DEPTH_HIGH_LIMIT,
        MQIA_USAGE,
    ];
    assert_eq!(
        connection.inquire(hobj, &selectors).unwrap().values,
        vec![
            integer(4),
            text("APP.BACKOUT"),
            integer(MQQA_BACKOUT_HARDENED),
            integer(MQQA_SHAREABLE),
            integer(MQOO_INPUT_SHARED),
            integer(MQMDS_FIFO),
            integer(MQREADA_YES),
            integer(MQPRT_ASYNC_RESPONSE),
            integer(MQPROP_NONE),
            integer(MQTC_ON),
            integer(MQTT_EVERY),
            integer(1),
            integer(0),
            text("APP.INITQ"),
            text("APP.PROC"),
            text("data"),
            integer(MQMON_HIGH),
            integer(MQEVR_ENABLED),
            integer(80),
            integer(MQUS_NORMAL),
        ]
    );

    // MQSET: the trigger attributes, all or nothing.
    connection
        .set(
            hobj,
            &[
                (MQIA_TRIGGER_CONTROL, integer(MQTC_OFF)),
                (MQIA_TRIGGER_TYPE, integer(MQTT_DEPTH)),
                (MQIA_TRIGGER_DEPTH, integer(7)),
                (MQIA_TRIGGER_MSG_PRIORITY, integer(5)),
                (MQCA_TRIGGER_DATA, text("new data")),
            ],
        )
        .unwrap();
    let stored = queue_manager.queue("APP.Q").unwrap().definition();
    assert!(!stored.trigger_control);
    assert_eq!(
        (stored.trigger_type.as_str(), stored.trigger_depth),
        ("DEPTH", 7)
    );
    assert_eq!(stored.trigger_message_priority, 5);
    assert_eq!(stored.trigger_data, "new data");
    for (attribute, expected) in [
        (
            (MQIA_TRIGGER_CONTROL, integer(2)),
            MQRC_TRIGGER_CONTROL_ERROR,
        ),
        ((MQIA_TRIGGER_TYPE, integer(9)), MQRC_TRIGGER_TYPE_ERROR),
        ((MQIA_TRIGGER_DEPTH, integer(0)), MQRC_TRIGGER_DEPTH_ERROR),
        (
            (MQIA_TRIGGER_MSG_PRIORITY, integer(10)),
            MQRC_TRIGGER_MSG_PRIORITY_ERR,
        ),
        ((MQIA_BACKOUT_THRESHOLD, integer(1)), MQRC_SELECTOR_ERROR),
    ] {
        assert_eq!(
            reason(connection.set(hobj, &[(MQIA_TRIGGER_DEPTH, integer(3)), attribute])),
            expected
        );
    }
    // Nothing of a refused MQSET was applied.
    assert_eq!(
        queue_manager
            .queue("APP.Q")
            .unwrap()
            .definition()
            .trigger_depth,
        7
    );
}

#[test]
fn the_queue_manager_object_answers_from_its_stored_attributes() {
    let (directory, queue_manager) = queue_manager(&["Q1"]);
    let mut attributes = queue_manager.queue_manager_attributes();
    assert_eq!(attributes.dead_letter_queue, "SYSTEM.DEAD.LETTER.QUEUE");
    attributes.description = "Test queue manager".into();
    attributes.dead_letter_queue = "APP.DLQ".into();
    attributes.max_uncommitted_messages = 2;
    attributes.trigger_interval = 1000;
    attributes.performance_events = true;
    queue_manager.alter_queue_manager(attributes).unwrap();

    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let mut od = Mqod {
        object_type: MQOT_Q_MGR,
        object_name: String::new(),
        ..Mqod::default()
    };
    let hobj = connection.open(&mut od, MQOO_INQUIRE).unwrap();
    assert_eq!(
        connection
            .inquire(
                hobj,
                &[
                    MQCA_Q_MGR_DESC,
                    MQCA_DEAD_LETTER_Q_NAME,
                    MQIA_MAX_UNCOMMITTED_MSGS,
                    MQIA_TRIGGER_INTERVAL,
                    MQIA_PERFORMANCE_EVENT,
                    MQIA_START_STOP_EVENT,
                ],
            )
            .unwrap()
            .values,
        vec![
            text("Test queue manager"),
            text("APP.DLQ"),
            integer(2),
            integer(1000),
            integer(MQEVR_ENABLED),
            integer(MQEVR_ENABLED),
        ]
    );
    // MAXUMSGS from ALTER QMGR limits units of work at once, and after a restart.
    let queue = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    let put = |connection: &mut Connection| {
        connection.put(
            queue,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_SYNCPOINT),
            b"x",
        )
    };
    put(&mut connection).unwrap();
    put(&mut connection).unwrap();
    assert_eq!(reason(put(&mut connection)), MQRC_SYNCPOINT_LIMIT_REACHED);
    connection.backout().unwrap();
    connection.disconnect().unwrap();
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = open(directory.path());
    assert_eq!(queue_manager.max_uncommitted_messages(), 2);
    let expected = QueueManagerAttributes {
        description: "Test queue manager".into(),
        dead_letter_queue: "APP.DLQ".into(),
        max_uncommitted_messages: 2,
        trigger_interval: 1000,
        performance_events: true,
        ..QueueManagerAttributes::new(
            "QM1",
            queue_manager.config().system.maxumsgs,
            queue_manager.config().system.expryint,
        )
    };
    assert_eq!(queue_manager.queue_manager_attributes(), expected);
    queue_manager.shutdown().unwrap();
}

#[test]
fn noshare_and_defsopt_excl_open_exclusively() {
    let (_directory, queue_manager) = queue_manager(&[]);
    let mut noshare = QueueDefinition::local("APP.NOSHARE", PageSetId(1));
    noshare.shareable = false;
    define(&queue_manager, noshare);
    let mut exclusive_default = QueueDefinition::local("APP.EXCL", PageSetId(1));
    exclusive_default.default_input_shared = false;
    define(&queue_manager, exclusive_default);
    let mut a = Connection::connect(queue_manager.clone(), "").unwrap();
    let mut b = Connection::connect(queue_manager.clone(), "").unwrap();

    // NOSHARE: even MQOO_INPUT_SHARED is exclusive.
    let first = a
        .open(&mut Mqod::queue("APP.NOSHARE"), MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(
        reason(b.open(&mut Mqod::queue("APP.NOSHARE"), MQOO_INPUT_SHARED)),
        MQRC_OBJECT_IN_USE
    );
    a.close(first, 0).unwrap();
    b.open(&mut Mqod::queue("APP.NOSHARE"), MQOO_INPUT_SHARED)
        .unwrap();

    // DEFSOPT(EXCL): MQOO_INPUT_AS_Q_DEF is exclusive, MQOO_INPUT_SHARED is not.
    let shared = a
        .open(&mut Mqod::queue("APP.EXCL"), MQOO_INPUT_SHARED)
        .unwrap();
    b.open(&mut Mqod::queue("APP.EXCL"), MQOO_INPUT_SHARED)
        .unwrap();
    a.close(shared, 0).unwrap();
    assert_eq!(
        reason(a.open(&mut Mqod::queue("APP.EXCL"), MQOO_INPUT_AS_Q_DEF)),
        MQRC_OBJECT_IN_USE
    );
}

#[test]
fn msgdlvsq_fifo_ignores_priority_also_after_restart() {
    let (directory, queue_manager) = queue_manager(&[]);
    let mut fifo = QueueDefinition::local("APP.FIFO", PageSetId(1));
    fifo.message_delivery_fifo = true;
    define(&queue_manager, fifo);
    define(
        &queue_manager,
        QueueDefinition::local("APP.PRIORITY", PageSetId(1)),
    );
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    for queue in ["APP.FIFO", "APP.PRIORITY"] {
        let hobj = connection
            .open(&mut Mqod::queue(queue), MQOO_OUTPUT)
            .unwrap();
        for (priority, data) in [(1, b"first"), (9, b"secnd"), (5, b"third")] {
            let mut md = Mqmd {
                priority,
                persistence: ferrite_constants::persistence::MQPER_PERSISTENT,
                ..Mqmd::default()
            };
            connection
                .put(
                    hobj,
                    &mut md,
                    &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                    data,
                )
                .unwrap();
        }
    }
    connection.disconnect().unwrap();
    let order = |queue_manager: &std::sync::Arc<ferrite_queue_manager::QueueManager>,
                 queue: &str| {
        let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
        let hobj = connection
            .open(&mut Mqod::queue(queue), MQOO_BROWSE)
            .unwrap();
        let mut seen = Vec::new();
        let mut options = MQGMO_BROWSE_FIRST;
        loop {
            let mut md = Mqmd::default();
            let mut buffer = [0u8; 16];
            match connection.get(
                hobj,
                &mut md,
                &mut Mqgmo::with_options(options | MQGMO_NO_WAIT),
                &mut buffer,
            ) {
                Ok(result) => {
                    seen.push((
                        md.priority,
                        String::from_utf8_lossy(&buffer[..result.returned_length]).to_string(),
                    ));
                }
                Err(error) => {
                    assert_eq!(error.reason, MQRC_NO_MSG_AVAILABLE);
                    break;
                }
            }
            options = MQGMO_BROWSE_NEXT;
        }
        seen
    };
    let fifo_order = vec![
        (1, "first".to_string()),
        (9, "secnd".to_string()),
        (5, "third".to_string()),
    ];
    let priority_order = vec![
        (9, "secnd".to_string()),
        (5, "third".to_string()),
        (1, "first".to_string()),
    ];
    assert_eq!(order(&queue_manager, "APP.FIFO"), fifo_order);
    assert_eq!(order(&queue_manager, "APP.PRIORITY"), priority_order);
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = open(directory.path());
    assert_eq!(order(&queue_manager, "APP.FIFO"), fifo_order);
    assert_eq!(order(&queue_manager, "APP.PRIORITY"), priority_order);
    queue_manager.shutdown().unwrap();
}
