//! MQOPEN, MQPUT1, MQCLOSE and MQINQ on objects other than local queues: dynamic queues made
//! from model queues (temporary and permanent, across restart), alias queues, remote queue
//! definitions, processes and namelists.

use ferrite_constants::{
    close_options::*, definition_type::*, get_options::*, object_type::*, open_options::*,
    persistence::*, put_options::*, queue_type::*, reason::*, selector::*,
};
use ferrite_mqi::*;
use ferrite_queue_manager::{
    AliasDefinition, DefinitionType, NamelistDefinition, ObjectDefinition, ObjectType,
    ProcessDefinition, QueueDefinition, RemoteDefinition,
};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

fn put(connection: &mut Connection, hobj: Hobj, persistence: i32, data: &[u8]) -> MqResult<()> {
    let md = &mut with_persistence(persistence);
    put_md(connection, hobj, md, MQPMO_NO_SYNCPOINT, data).map(|_| ())
}

fn get(connection: &mut Connection, hobj: Hobj) -> MqResult<(Mqmd, Vec<u8>)> {
    get_sized(connection, hobj, MQGMO_NO_SYNCPOINT, 1024)
}

fn define_model(
    queue_manager: &ferrite_queue_manager::QueueManager,
    name: &str,
    kind: DefinitionType,
) {
    let model = QueueDefinition {
        definition_type: kind,
        ..QueueDefinition::model(name, PageSetId(1))
    };
    queue_manager
        .define_object(ObjectDefinition::Model(model), false)
        .unwrap();
}

fn model_od(model: &str, dynamic: &str) -> Mqod {
    Mqod {
        dynamic_q_name: dynamic.to_string(),
        ..Mqod::queue(model)
    }
}

#[test]
fn temporary_dynamic_queue_lives_as_long_as_its_creator() {
    let (directory, qm) = queue_manager(&[]);
    define_model(
        &qm,
        "SYSTEM.DEFAULT.MODEL.QUEUE",
        DefinitionType::TemporaryDynamic,
    );
    let mut creator = Connection::connect(qm.clone(), "").unwrap();
    let mut od = model_od("SYSTEM.DEFAULT.MODEL.QUEUE", "AMQ.*");
    let hobj = creator
        .open(&mut od, MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_INQUIRE)
        .unwrap();
    // ObjectName returns the created name: the prefix and 16 hexadecimal digits.
    let name = od.object_name.clone();
    assert!(name.starts_with("AMQ."), "{name}");
    assert_eq!(name.len(), 4 + 16);
    assert!(name[4..].chars().all(|c| c.is_ascii_hexdigit()), "{name}");
    assert_eq!(od.resolved_q_name, name);
    let values = creator
        .inquire(hobj, &[MQIA_DEFINITION_TYPE, MQIA_Q_TYPE, MQCA_Q_NAME])
        .unwrap()
        .values;
    assert_eq!(
        values,
        vec![
            AttributeValue::Integer(MQQDT_TEMPORARY_DYNAMIC),
            AttributeValue::Integer(MQQT_LOCAL),
            AttributeValue::Text(name.clone()),
        ]
    );
    // Non-persistent messages only.
    assert_eq!(
        reason(put(&mut creator, hobj, MQPER_PERSISTENT, b"kept?")),
        MQRC_PERSISTENT_NOT_ALLOWED
    );
    put(&mut creator, hobj, MQPER_NOT_PERSISTENT, b"reply").unwrap();
    // Another application can use it by name (a JMS temporary queue's replier does).
    let mut other = Connection::connect(qm.clone(), "").unwrap();
    let other_hobj = other.open(&mut Mqod::queue(&name), MQOO_OUTPUT).unwrap();
    put(&mut other, other_hobj, MQPER_NOT_PERSISTENT, b"from other").unwrap();
    // Only the creating handle may delete it explicitly.
    assert_eq!(
        reason(other.close(other_hobj, MQCO_DELETE)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    assert_eq!(get(&mut creator, hobj).unwrap().1, b"reply");
    // DEFINE ... REPLACE of the queue does not make it predefined (nor stored).
    qm.define_queue(
        QueueDefinition {
            max_depth: 10,
            ..QueueDefinition::local(&name, PageSetId(1))
        },
        true,
    )
    .unwrap();
    let replaced = qm.queue(&name).unwrap().definition();
    assert_eq!(replaced.max_depth, 10);
    assert_eq!(replaced.definition_type, DefinitionType::TemporaryDynamic);
    // A second queue from the same model gets another name.
    let mut second = model_od("SYSTEM.DEFAULT.MODEL.QUEUE", "AMQ.*");
    let second_hobj = creator.open(&mut second, MQOO_INPUT_SHARED).unwrap();
    assert_ne!(second.object_name, name);
    // Closing the creating handle deletes the queue and its messages.
    creator.close(hobj, MQCO_NONE).unwrap();
    assert!(qm.queue(&name).is_none());
    assert_eq!(
        reason(put(&mut other, other_hobj, MQPER_NOT_PERSISTENT, b"late")),
        MQRC_Q_DELETED
    );
    assert_eq!(
        reason(other.open(&mut Mqod::queue(&name), MQOO_OUTPUT)),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    // The connection's end deletes the queues it still has.
    let second_name = second.object_name.clone();
    assert!(qm.queue(&second_name).is_some());
    let _ = second_hobj;
    drop(creator);
    assert!(qm.queue(&second_name).is_none());
    // And so does MQDISC.
    let mut third = Connection::connect(qm.clone(), "").unwrap();
    let mut od = model_od("SYSTEM.DEFAULT.MODEL.QUEUE", "MY.TEMP.*");
    third.open(&mut od, MQOO_OUTPUT).unwrap();
    let third_name = od.object_name.clone();
    assert!(third_name.starts_with("MY.TEMP."));
    third.disconnect().unwrap();
    assert!(qm.queue(&third_name).is_none());
    // A temporary dynamic queue is never recovered at restart.
    let mut keeper = Connection::connect(qm.clone(), "").unwrap();
    let mut od = model_od("SYSTEM.DEFAULT.MODEL.QUEUE", "AMQ.*");
    let keep_hobj = keeper.open(&mut od, MQOO_OUTPUT).unwrap();
    put(
        &mut keeper,
        keep_hobj,
        MQPER_NOT_PERSISTENT,
        b"gone at restart",
    )
    .unwrap();
    let kept_name = od.object_name.clone();
    drop(other);
    // The queue manager stops while the queue still exists (its creator is still connected).
    qm.shutdown().unwrap();
    drop(keeper);
    drop(qm);
    let qm = open(directory.path());
    assert!(qm.queue(&kept_name).is_none());
    assert!(qm
        .object(ObjectType::ModelQueue, "SYSTEM.DEFAULT.MODEL.QUEUE")
        .is_some());
    qm.shutdown().unwrap();
}

#[test]
fn permanent_dynamic_queue_survives_restart_and_is_deleted_by_close_options() {
    let (directory, qm) = queue_manager(&["Q1"]);
    define_model(&qm, "PERM.MODEL", DefinitionType::PermanentDynamic);
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let mut od = model_od("PERM.MODEL", "APP.PERM.Q1");
    let hobj = connection
        .open(&mut od, MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_INQUIRE)
        .unwrap();
    assert_eq!(od.object_name, "APP.PERM.Q1");
    put(&mut connection, hobj, MQPER_PERSISTENT, b"durable").unwrap();
    assert_eq!(
        connection
            .inquire(hobj, &[MQIA_DEFINITION_TYPE])
            .unwrap()
            .values,
        vec![AttributeValue::Integer(MQQDT_PERMANENT_DYNAMIC)]
    );
    // The name is taken now.
    let mut again = model_od("PERM.MODEL", "APP.PERM.Q1");
    assert_eq!(
        reason(connection.open(&mut again, MQOO_OUTPUT)),
        MQRC_OBJECT_ALREADY_EXISTS
    );
    // Predefined queues are not deleted by MQCLOSE.
    let q1 = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    assert_eq!(
        reason(connection.close(q1, MQCO_DELETE)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    connection.close(hobj, MQCO_NONE).unwrap();
    connection.disconnect().unwrap();
    qm.shutdown().unwrap();
    drop(qm);

    let qm = open(directory.path());
    let queue = qm
        .queue("APP.PERM.Q1")
        .expect("a permanent dynamic queue survives");
    assert_eq!(
        queue.definition().definition_type,
        DefinitionType::PermanentDynamic
    );
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("APP.PERM.Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    // MQCO_DELETE of a queue with messages: MQRC_Q_NOT_EMPTY, and the handle stays usable.
    assert_eq!(
        reason(connection.close(hobj, MQCO_DELETE)),
        MQRC_Q_NOT_EMPTY
    );
    assert_eq!(get(&mut connection, hobj).unwrap().1, b"durable");
    put_one(&qm, "APP.PERM.Q1");
    connection.close(hobj, MQCO_DELETE_PURGE).unwrap();
    assert!(qm.queue("APP.PERM.Q1").is_none());
    // An empty one goes with MQCO_DELETE.
    let mut od = model_od("PERM.MODEL", "APP.PERM.*");
    let hobj = connection.open(&mut od, MQOO_INPUT_SHARED).unwrap();
    connection.close(hobj, MQCO_DELETE).unwrap();
    assert!(qm.queue(&od.object_name).is_none());
    connection.disconnect().unwrap();
    qm.shutdown().unwrap();
    drop(qm);
    let qm = open(directory.path());
    assert!(qm.queue("APP.PERM.Q1").is_none());
    qm.shutdown().unwrap();
}

fn put_one(qm: &std::sync::Arc<ferrite_queue_manager::QueueManager>, queue: &str) {
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue(queue), MQOO_OUTPUT)
        .unwrap();
    put(&mut connection, hobj, MQPER_PERSISTENT, b"another").unwrap();
    connection.disconnect().unwrap();
}

#[test]
fn dynamic_queue_names_and_model_misuse() {
    let (_directory, qm) = queue_manager(&["Q1"]);
    define_model(&qm, "MODEL", DefinitionType::TemporaryDynamic);
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    for bad in [
        "",
        "*",
        "A*B*",
        "BAD NAME*",
        &format!("{}*", "P".repeat(33)),
    ] {
        if bad == "*" {
            // A lone `*` is a valid pattern: the name is all generated.
            let mut od = model_od("MODEL", bad);
            connection.open(&mut od, MQOO_OUTPUT).unwrap();
            assert_eq!(od.object_name.len(), 16);
            continue;
        }
        let mut od = model_od("MODEL", bad);
        assert_eq!(
            reason(connection.open(&mut od, MQOO_OUTPUT)),
            MQRC_DYNAMIC_Q_NAME_ERROR,
            "DynamicQName '{bad}'"
        );
    }
    // A dynamic name that is already a queue.
    let mut od = model_od("MODEL", "Q1");
    assert_eq!(
        reason(connection.open(&mut od, MQOO_OUTPUT)),
        MQRC_OBJECT_ALREADY_EXISTS
    );
    // MQPUT1 to a model queue.
    assert_eq!(
        reason(connection.put1(
            &mut Mqod::queue("MODEL"),
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"x",
        )),
        MQRC_Q_TYPE_ERROR
    );
}

#[test]
fn alias_resolves_to_its_target_with_its_own_inhibits_and_defaults() {
    let (directory, qm) = queue_manager(&["TARGET.Q"]);
    qm.define_object(
        ObjectDefinition::Alias(AliasDefinition {
            default_persistent: true,
            default_priority: 6,
            ..AliasDefinition::new("APP.ALIAS", "TARGET.Q")
        }),
        false,
    )
    .unwrap();
    qm.define_object(
        ObjectDefinition::Alias(AliasDefinition::new("BROKEN.ALIAS", "NO.SUCH.Q")),
        false,
    )
    .unwrap();
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let mut od = Mqod::queue("APP.ALIAS");
    let hobj = connection
        .open(
            &mut od,
            MQOO_OUTPUT | MQOO_INPUT_SHARED | MQOO_INQUIRE | MQOO_SET,
        )
        .unwrap();
    assert_eq!(od.resolved_q_name, "TARGET.Q");
    assert_eq!(od.object_name, "APP.ALIAS");
    let mut md = Mqmd::default();
    let mut pmo = Mqpmo::with_options(MQPMO_NO_SYNCPOINT);
    connection
        .put(hobj, &mut md, &mut pmo, b"via alias")
        .unwrap();
    assert_eq!(pmo.resolved_q_name, "TARGET.Q");
    // The alias's DEFPSIST and DEFPRTY apply, not the target's.
    let (got, data) = get(&mut connection, hobj).unwrap();
    assert_eq!(data, b"via alias");
    assert_eq!(got.persistence, MQPER_PERSISTENT);
    assert_eq!(got.priority, 6);
    // MQINQ answers for the alias.
    assert_eq!(
        connection
            .inquire(hobj, &[MQIA_Q_TYPE, MQCA_BASE_Q_NAME, MQIA_DEF_PRIORITY])
            .unwrap()
            .values,
        vec![
            AttributeValue::Integer(MQQT_ALIAS),
            AttributeValue::Text("TARGET.Q".into()),
            AttributeValue::Integer(6),
        ]
    );
    // A local queue's attribute does not apply to an alias: MQ's warning, not a failure.
    assert_eq!(
        connection
            .inquire(hobj, &[MQIA_CURRENT_Q_DEPTH])
            .unwrap()
            .warning
            .map(|warning| warning.reason),
        Some(MQRC_SELECTOR_NOT_FOR_TYPE)
    );
    // The alias's own PUT/GET inhibits apply (set through the alias: the alias changes).
    connection
        .set(hobj, &[(MQIA_INHIBIT_PUT, AttributeValue::Integer(1))])
        .unwrap();
    assert_eq!(
        reason(put_result(&mut connection, hobj)),
        MQRC_PUT_INHIBITED
    );
    assert!(!qm.queue("TARGET.Q").unwrap().definition().put_inhibited);
    let mut alias = match qm.object(ObjectType::AliasQueue, "APP.ALIAS") {
        Some(ObjectDefinition::Alias(alias)) => alias,
        other => panic!("{other:?}"),
    };
    assert!(alias.put_inhibited);
    alias.put_inhibited = false;
    alias.get_inhibited = true;
    qm.alter_object(ObjectDefinition::Alias(alias)).unwrap();
    put_result(&mut connection, hobj).unwrap();
    assert_eq!(reason(get(&mut connection, hobj)), MQRC_GET_INHIBITED);
    // The target directly is not inhibited.
    let direct = connection
        .open(&mut Mqod::queue("TARGET.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    get(&mut connection, direct).unwrap();
    // MQPUT1 through the alias.
    let mut od = Mqod::queue("APP.ALIAS");
    let mut pmo = Mqpmo::with_options(MQPMO_NO_SYNCPOINT);
    connection
        .put1(&mut od, &mut Mqmd::default(), &mut pmo, b"put1")
        .unwrap();
    assert_eq!(pmo.resolved_q_name, "TARGET.Q");
    assert_eq!(get(&mut connection, direct).unwrap().1, b"put1");
    // An alias whose target is missing.
    assert_eq!(
        reason(connection.open(&mut Mqod::queue("BROKEN.ALIAS"), MQOO_OUTPUT)),
        MQRC_UNKNOWN_ALIAS_BASE_Q
    );
    assert_eq!(
        reason(connection.put1(
            &mut Mqod::queue("BROKEN.ALIAS"),
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"x"
        )),
        MQRC_UNKNOWN_ALIAS_BASE_Q
    );
    // Delete options do not apply to an alias.
    assert_eq!(
        reason(connection.close(hobj, MQCO_DELETE)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    connection.disconnect().unwrap();
    qm.shutdown().unwrap();
    drop(qm);
    // Aliases are recovered at restart.
    let qm = open(directory.path());
    match qm.object(ObjectType::AliasQueue, "APP.ALIAS") {
        Some(ObjectDefinition::Alias(alias)) => {
            assert_eq!(alias.target, "TARGET.Q");
            assert!(alias.get_inhibited);
            assert_eq!(alias.default_priority, 6);
        }
        other => panic!("{other:?}"),
    }
    qm.shutdown().unwrap();
}

fn put_result(connection: &mut Connection, hobj: Hobj) -> MqResult<Option<MqError>> {
    connection.put(
        hobj,
        &mut Mqmd::default(),
        &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
        b"x",
    )
}

#[test]
fn remote_queue_without_a_transmission_queue() {
    // No XMITQ, no queue named after RQMNAME, no DEFXMITQ (tests/name_resolution.rs has the
    // rest of distributed queuing's resolution).
    let (_directory, qm) = queue_manager(&[]);
    qm.define_object(
        ObjectDefinition::Remote(RemoteDefinition {
            remote_name: "THEIR.Q".into(),
            remote_queue_manager: "QM2".into(),
            ..RemoteDefinition::new("TO.QM2")
        }),
        false,
    )
    .unwrap();
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    assert_eq!(
        reason(connection.open(&mut Mqod::queue("TO.QM2"), MQOO_OUTPUT)),
        MQRC_UNKNOWN_REMOTE_Q_MGR
    );
    assert_eq!(
        reason(connection.open(&mut Mqod::queue("TO.QM2"), MQOO_INPUT_SHARED)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    assert_eq!(
        reason(connection.put1(
            &mut Mqod::queue("TO.QM2"),
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"x"
        )),
        MQRC_UNKNOWN_REMOTE_Q_MGR
    );
    // The name space is shared: no local queue of that name.
    let error = qm
        .define_queue(QueueDefinition::local("TO.QM2", PageSetId(1)), false)
        .err()
        .expect("the name is taken");
    assert_eq!(error.reason_code(), MQRC_OBJECT_ALREADY_EXISTS);
}

#[test]
fn inquire_on_process_and_namelist() {
    let (_directory, qm) = queue_manager(&[]);
    qm.define_object(
        ObjectDefinition::Process(ProcessDefinition {
            description: "Trigger me".into(),
            application_id: "/opt/app/bin/server".into(),
            user_data: "mode=fast".into(),
            ..ProcessDefinition::new("APP.PROCESS")
        }),
        false,
    )
    .unwrap();
    qm.define_object(
        ObjectDefinition::Namelist(NamelistDefinition {
            name: "APP.NAMES".into(),
            description: String::new(),
            names: vec!["Q.ONE".into(), "Q.TWO".into()],
        }),
        false,
    )
    .unwrap();
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let mut od = Mqod {
        object_type: MQOT_PROCESS,
        ..Mqod::queue("APP.PROCESS")
    };
    let hobj = connection.open(&mut od, MQOO_INQUIRE).unwrap();
    assert_eq!(
        connection
            .inquire(
                hobj,
                &[
                    MQCA_PROCESS_NAME,
                    MQCA_APPL_ID,
                    MQIA_APPL_TYPE,
                    MQCA_USER_DATA,
                    MQCA_PROCESS_DESC
                ]
            )
            .unwrap()
            .values,
        vec![
            AttributeValue::Text("APP.PROCESS".into()),
            AttributeValue::Text("/opt/app/bin/server".into()),
            AttributeValue::Integer(ferrite_constants::appl_type::MQAT_UNIX),
            AttributeValue::Text("mode=fast".into()),
            AttributeValue::Text("Trigger me".into()),
        ]
    );
    assert_eq!(
        reason(connection.inquire(hobj, &[MQIA_CURRENT_Q_DEPTH])),
        MQRC_SELECTOR_ERROR
    );
    let mut od = Mqod {
        object_type: MQOT_PROCESS,
        ..Mqod::queue("APP.PROCESS")
    };
    assert_eq!(
        reason(connection.open(&mut od, MQOO_OUTPUT)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    let mut od = Mqod {
        object_type: MQOT_PROCESS,
        ..Mqod::queue("NO.SUCH.PROCESS")
    };
    assert_eq!(
        reason(connection.open(&mut od, MQOO_INQUIRE)),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    let mut od = Mqod {
        object_type: MQOT_NAMELIST,
        ..Mqod::queue("APP.NAMES")
    };
    let hobj = connection.open(&mut od, MQOO_INQUIRE).unwrap();
    let values = connection
        .inquire(hobj, &[MQIA_NAME_COUNT, MQCA_NAMES])
        .unwrap()
        .values;
    assert_eq!(values[0], AttributeValue::Integer(2));
    assert_eq!(
        values[1],
        AttributeValue::Text(format!("{:<48}Q.TWO", "Q.ONE"))
    );
    // Put to a process handle: not open for output.
    assert_eq!(
        reason(put_result(&mut connection, hobj)),
        MQRC_NOT_OPEN_FOR_OUTPUT
    );
    let _ = MQOT_Q;
}

#[test]
fn a_getter_waiting_on_a_deleted_dynamic_queue_is_told_at_once() {
    let (_directory, qm) = queue_manager(&[]);
    define_model(&qm, "MODEL", DefinitionType::TemporaryDynamic);
    let mut creator = Connection::connect(qm.clone(), "").unwrap();
    let mut od = model_od("MODEL", "AMQ.*");
    let hobj = creator.open(&mut od, MQOO_OUTPUT).unwrap();
    let name = od.object_name.clone();
    let mut waiter = Connection::connect(qm.clone(), "").unwrap();
    let waiting_hobj = waiter
        .open(&mut Mqod::queue(&name), MQOO_INPUT_SHARED)
        .unwrap();
    let started = std::time::Instant::now();
    let getter = std::thread::spawn(move || {
        let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
        gmo.wait_interval = 30_000;
        let mut buffer = [0u8; 16];
        let result = waiter.get(waiting_hobj, &mut Mqmd::default(), &mut gmo, &mut buffer);
        result.map(|_| ()).map_err(|error| error.reason)
    });
    std::thread::sleep(std::time::Duration::from_millis(200));
    creator.close(hobj, MQCO_NONE).unwrap();
    assert_eq!(getter.join().unwrap(), Err(MQRC_Q_DELETED));
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}
