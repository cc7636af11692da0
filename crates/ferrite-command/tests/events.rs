//! Command events (CMDEV) and configuration events (CONFIGEV): what each command puts on
//! SYSTEM.ADMIN.COMMAND.EVENT and SYSTEM.ADMIN.CONFIG.EVENT, read back and decoded as a
//! monitoring program would (events.rs documents the messages).

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_command::pcf::{decode_event, ByteOrder, Parameter, PcfMessage};
use ferrite_command::{run_command, CommandOrigin, CommandProcessor, CommandServer};
use ferrite_constants::{
    close_options::MQCO_DELETE, format::MQFMT_EVENT, get_options::*, message_type::*, misc::*,
    object_type::*, open_options::*, pcf::*, pcf_reason::*, pcf_selector::*, put_options::*,
    queue_type::*, reason::*, selector::*, shareability::*,
};
use ferrite_mqi::{AttributeValue, Connection, Hobj, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::QueueManager;

const COMMAND_EVENTS: &str = "SYSTEM.ADMIN.COMMAND.EVENT";
const CONFIG_EVENTS: &str = "SYSTEM.ADMIN.CONFIG.EVENT";

fn setup() -> (tempfile::TempDir, Arc<QueueManager>) {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    ferrite_command::define_default_objects(&queue_manager).unwrap();
    (directory, queue_manager)
}

fn ok(queue_manager: &Arc<QueueManager>, command: &str) {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}: {:?}", response.lines);
}

/// Every message on `queue` (got, so the queue is empty after), with its MQMD, decoded.
fn drain(queue_manager: &Arc<QueueManager>, queue: &str) -> Vec<(Mqmd, PcfMessage)> {
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue(queue), MQOO_INPUT_EXCLUSIVE)
        .unwrap();
    let mut events = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let mut md = Mqmd::default();
        let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT);
        match connection.get(hobj, &mut md, &mut gmo, &mut buffer) {
            Ok(got) => {
                let message = decode_event(
                    &buffer[..got.data_length],
                    ByteOrder::of_encoding(md.encoding),
                )
                .expect("a valid PCF event");
                events.push((md, message));
            }
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
            Err(error) => panic!("get from {queue}: {error:?}"),
        }
    }
    connection.close(hobj, 0).unwrap();
    connection.disconnect().unwrap();
    events
}

fn find(parameters: &[Parameter], id: i32) -> Option<&Parameter> {
    parameters.iter().find(|parameter| parameter.id() == id)
}

fn integer(parameters: &[Parameter], id: i32) -> i32 {
    match find(parameters, id) {
        Some(Parameter::Integer { value, .. }) => *value,
        other => panic!("integer {id}: {other:?} in {parameters:?}"),
    }
}

fn string(parameters: &[Parameter], id: i32) -> String {
    match find(parameters, id) {
        Some(Parameter::String { value, .. }) => value.trim_end().to_string(),
        other => panic!("string {id}: {other:?} in {parameters:?}"),
    }
}

fn group(parameters: &[Parameter], id: i32) -> &[Parameter] {
    match find(parameters, id) {
        Some(Parameter::Group { parameters, .. }) => parameters,
        other => panic!("group {id}: {other:?}"),
    }
}

/// (Reason, Command of the context, the command data) of each command event.
fn command_events(queue_manager: &Arc<QueueManager>) -> Vec<(i32, i32, Vec<Parameter>)> {
    drain(queue_manager, COMMAND_EVENTS)
        .into_iter()
        .map(|(md, message)| {
            assert_eq!(md.format, MQFMT_EVENT);
            assert_eq!(md.msg_type, MQMT_DATAGRAM);
            assert_eq!(message.header.kind, MQCFT_EVENT);
            assert_eq!(message.header.version, MQCFH_VERSION_3);
            assert_eq!(message.header.command, MQCMD_COMMAND_EVENT);
            assert_eq!(message.header.parameter_count, 2, "two groups");
            let context = group(&message.parameters, MQGACF_COMMAND_CONTEXT);
            let data = group(&message.parameters, MQGACF_COMMAND_DATA);
            (
                message.header.reason,
                integer(context, MQIACF_COMMAND),
                data.to_vec(),
            )
        })
        .collect()
}

#[test]
fn command_events_follow_cmdev() {
    let (_directory, queue_manager) = setup();
    ok(&queue_manager, "DEFINE QLOCAL(APP.BEFORE)");
    assert!(command_events(&queue_manager).is_empty(), "CMDEV(DISABLED)");

    // Switching them on is itself reported.
    ok(&queue_manager, "ALTER QMGR CMDEV(ENABLED)");
    ok(&queue_manager, "DEFINE QLOCAL(APP.Q) MAXDEPTH(10)");
    ok(&queue_manager, "DISPLAY QLOCAL(APP.Q)");
    assert!(!run_command(&queue_manager, "DEFINE QLOCAL(APP.Q)").success);
    let events = command_events(&queue_manager);
    let summary: Vec<(i32, i32, String)> = events
        .iter()
        .map(|(reason, command, data)| (*reason, *command, string(data, MQCACF_COMMAND_MQSC)))
        .collect();
    assert_eq!(
        summary,
        [
            (
                MQRC_COMMAND_MQSC,
                MQCMD_CHANGE_Q_MGR,
                "ALTER QMGR CMDEV(ENABLED)".to_string()
            ),
            (
                MQRC_COMMAND_MQSC,
                MQCMD_CREATE_Q,
                "DEFINE QLOCAL(APP.Q) MAXDEPTH(10)".to_string()
            ),
            (
                MQRC_COMMAND_MQSC,
                MQCMD_INQUIRE_Q,
                "DISPLAY QLOCAL(APP.Q)".to_string()
            ),
        ],
        "the failed DEFINE gives no event"
    );

    // NODISPLAY: all but DISPLAY.
    ok(&queue_manager, "ALTER QMGR CMDEV(NODISPLAY)");
    ok(&queue_manager, "DISPLAY QMGR CMDEV");
    ok(&queue_manager, "ALTER QLOCAL(APP.Q) MAXDEPTH(11)");
    let commands: Vec<i32> = command_events(&queue_manager)
        .iter()
        .map(|(_, command, _)| *command)
        .collect();
    assert_eq!(commands, [MQCMD_CHANGE_Q_MGR, MQCMD_CHANGE_Q]);
    let display = run_command(&queue_manager, "DISPLAY QMGR CMDEV");
    assert!(
        display
            .lines
            .iter()
            .any(|line| line.contains("CMDEV(NODISPLAY)")),
        "{:?}",
        display.lines
    );
    let processor = CommandProcessor::new(queue_manager.clone());
    let inquiry = support::send_pcf(
        &processor,
        MQCMD_INQUIRE_Q_MGR,
        vec![Parameter::IntegerList {
            parameter: MQIACF_Q_MGR_ATTRS,
            values: vec![MQIA_COMMAND_EVENT],
        }],
    );
    assert_eq!(
        integer(&inquiry[0].parameters, MQIA_COMMAND_EVENT),
        MQEVR_NO_DISPLAY
    );
    let _ = command_events(&queue_manager);

    // Switching them off is reported; after that, nothing.
    ok(&queue_manager, "ALTER QMGR CMDEV(DISABLED)");
    ok(&queue_manager, "ALTER QLOCAL(APP.Q) MAXDEPTH(12)");
    let commands: Vec<i32> = command_events(&queue_manager)
        .iter()
        .map(|(_, command, _)| *command)
        .collect();
    assert_eq!(commands, [MQCMD_CHANGE_Q_MGR]);
}

#[test]
fn command_event_context_is_the_console_or_the_command_message() {
    let (_directory, queue_manager) = setup();
    ok(&queue_manager, "ALTER QMGR CMDEV(ENABLED)");
    let _ = drain(&queue_manager, COMMAND_EVENTS);

    // The console: EventOrigin MQEVO_CONSOLE, no message context.
    ok(&queue_manager, "DEFINE QLOCAL(APP.Q)");
    let (_, message) = drain(&queue_manager, COMMAND_EVENTS).remove(0);
    let context = group(&message.parameters, MQGACF_COMMAND_CONTEXT);
    assert_eq!(integer(context, MQIACF_EVENT_ORIGIN), MQEVO_CONSOLE);
    assert_eq!(string(context, MQCACF_EVENT_Q_MGR), "QM1");
    assert!(find(context, MQBACF_EVENT_ACCOUNTING_TOKEN).is_none());
    assert_eq!(
        context.len(),
        4,
        "UserId, Origin, QMgr, Command: {context:?}"
    );

    // A PCF command message: MQEVO_MSG, the message's context, the command's parameters. It
    // runs for opsuser, an operator granted every authority.
    ferrite_test_kit::grant_all(&queue_manager, "opsuser");
    let processor = CommandProcessor::new(queue_manager.clone());
    let request_md = Mqmd {
        user_identifier: "opsuser".into(),
        accounting_token: [7; 32],
        appl_identity_data: "ident".into(),
        put_appl_type: 28,
        put_appl_name: "admin-tool".into(),
        appl_origin_data: "ORIG".into(),
        ..Mqmd::default()
    };
    let parameters = vec![
        Parameter::string(MQCA_Q_NAME, "APP.Q"),
        Parameter::integer(MQIA_Q_TYPE, MQQT_LOCAL),
        Parameter::integer(MQIA_MAX_Q_DEPTH, 77),
    ];
    let request = support::pcf_request(MQCMD_CHANGE_Q, parameters.clone());
    let responses = ferrite_command::pcf_commands::execute_message_from(
        &processor,
        &CommandOrigin::message(&request_md),
        &request,
    );
    assert_eq!(responses[0].header.comp_code, 0, "{responses:?}");
    let events = drain(&queue_manager, COMMAND_EVENTS);
    assert_eq!(events.len(), 1);
    let message = &events[0].1;
    assert_eq!(message.header.reason, MQRC_COMMAND_PCF);
    let context = group(&message.parameters, MQGACF_COMMAND_CONTEXT);
    assert_eq!(integer(context, MQIACF_EVENT_ORIGIN), MQEVO_MSG);
    assert_eq!(string(context, MQCACF_EVENT_USER_ID), "opsuser");
    assert_eq!(
        find(context, MQBACF_EVENT_ACCOUNTING_TOKEN),
        Some(&Parameter::ByteString {
            parameter: MQBACF_EVENT_ACCOUNTING_TOKEN,
            value: vec![7; 32]
        })
    );
    assert_eq!(string(context, MQCACF_EVENT_APPL_IDENTITY), "ident");
    assert_eq!(integer(context, MQIACF_EVENT_APPL_TYPE), 28);
    assert_eq!(string(context, MQCACF_EVENT_APPL_NAME), "admin-tool");
    assert_eq!(string(context, MQCACF_EVENT_APPL_ORIGIN), "ORIG");
    assert_eq!(integer(context, MQIACF_COMMAND), MQCMD_CHANGE_Q);
    assert_eq!(context.len(), 9, "{context:?}");
    assert_eq!(
        group(&message.parameters, MQGACF_COMMAND_DATA),
        &parameters[..],
        "the command's parameters as they came"
    );

    // A PCF command that fails gives no event.
    let missing = support::pcf_request(
        MQCMD_CHANGE_Q,
        vec![
            Parameter::string(MQCA_Q_NAME, "NO.SUCH.Q"),
            Parameter::integer(MQIA_Q_TYPE, MQQT_LOCAL),
        ],
    );
    let responses = ferrite_command::pcf_commands::execute_message_from(
        &processor,
        &CommandOrigin::message(&request_md),
        &missing,
    );
    assert_eq!(responses[0].header.reason, MQRC_UNKNOWN_OBJECT_NAME);
    assert!(drain(&queue_manager, COMMAND_EVENTS).is_empty());
}

/// The command server reports a command that arrived on SYSTEM.COMMAND.INPUT with the
/// message's context.
#[test]
fn the_command_server_reports_the_request_messages_context() {
    let (_directory, queue_manager) = setup();
    ok(&queue_manager, "ALTER QMGR CMDEV(ENABLED)");
    ok(&queue_manager, "DEFINE QLOCAL(ADMIN.REPLY)");
    let _ = drain(&queue_manager, COMMAND_EVENTS);
    let server = CommandServer::start(queue_manager.clone());
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let mut md = Mqmd {
        msg_type: MQMT_REQUEST,
        reply_to_q: "ADMIN.REPLY".into(),
        ..Mqmd::default()
    };
    connection
        .put1(
            &mut Mqod::queue("SYSTEM.COMMAND.INPUT"),
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"DEFINE QLOCAL(REMOTE.ADMIN.Q)",
        )
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let events = loop {
        let events = drain(&queue_manager, COMMAND_EVENTS);
        if !events.is_empty() || Instant::now() > deadline {
            break events;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    server.stop();
    assert_eq!(events.len(), 1, "{events:?}");
    let context = group(&events[0].1.parameters, MQGACF_COMMAND_CONTEXT);
    assert_eq!(integer(context, MQIACF_EVENT_ORIGIN), MQEVO_MSG);
    assert_eq!(
        string(context, MQCACF_EVENT_USER_ID),
        md.user_identifier.trim_end()
    );
    assert_eq!(
        string(context, MQCACF_EVENT_APPL_NAME),
        md.put_appl_name.trim_end()
    );
    let data = group(&events[0].1.parameters, MQGACF_COMMAND_DATA);
    assert_eq!(
        string(data, MQCACF_COMMAND_MQSC),
        "DEFINE QLOCAL(REMOTE.ADMIN.Q)"
    );
    connection.disconnect().unwrap();
}

/// (Reason, MsgSeqNumber, Control, ObjectType, ObjectName, CorrelId, parameters) of each
/// configuration event.
type ConfigEvent = (i32, i32, i32, i32, String, [u8; 24], Vec<Parameter>);

fn config_events(queue_manager: &Arc<QueueManager>) -> Vec<ConfigEvent> {
    drain(queue_manager, CONFIG_EVENTS)
        .into_iter()
        .map(|(md, message)| {
            assert_eq!(md.format, MQFMT_EVENT);
            assert_eq!(message.header.version, MQCFH_VERSION_2);
            assert_eq!(message.header.command, MQCMD_CONFIG_EVENT);
            assert_eq!(
                message.header.parameter_count as usize,
                message.parameters.len()
            );
            let object_type = integer(&message.parameters, MQIACF_OBJECT_TYPE);
            let name_parameter = match object_type {
                MQOT_Q => MQCA_Q_NAME,
                MQOT_Q_MGR => MQCA_Q_MGR_NAME,
                MQOT_CHANNEL => MQCACH_CHANNEL_NAME,
                MQOT_PROCESS => MQCA_PROCESS_NAME,
                MQOT_NAMELIST => MQCA_NAMELIST_NAME,
                MQOT_STORAGE_CLASS => MQCA_STORAGE_CLASS,
                MQOT_AUTH_INFO => MQCA_AUTH_INFO_NAME,
                MQOT_TOPIC => MQCA_TOPIC_NAME,
                other => panic!("object type {other}"),
            };
            let name = string(&message.parameters, name_parameter);
            assert_eq!(
                message
                    .parameters
                    .iter()
                    .filter(|parameter| parameter.id() == name_parameter)
                    .count(),
                1,
                "the name once"
            );
            (
                message.header.reason,
                message.header.msg_seq_number,
                message.header.control,
                object_type,
                name,
                md.correl_id,
                message.parameters,
            )
        })
        .collect()
}

#[test]
fn configuration_events_for_define_alter_replace_and_delete() {
    let (_directory, queue_manager) = setup();
    ok(&queue_manager, "DEFINE QLOCAL(APP.EARLY)");
    assert!(
        config_events(&queue_manager).is_empty(),
        "CONFIGEV(DISABLED)"
    );
    enabling_reports_the_queue_manager_then_refreshes_every_object(&queue_manager);
    define_reports_create_object(&queue_manager);
    alter_reports_change_object_before_and_after(&queue_manager);
    define_replace_reports_change_or_create(&queue_manager);
    // A failed command changes nothing and reports nothing.
    assert!(!run_command(&queue_manager, "DEFINE QLOCAL(APP.Q)").success);
    assert!(!run_command(&queue_manager, "ALTER QLOCAL(APP.Q) MAXDEPTH(-1)").success);
    assert!(config_events(&queue_manager).is_empty());
    delete_reports_delete_object(&queue_manager);
    other_object_types_are_reported(&queue_manager);
    disabling_is_reported_then_nothing(&queue_manager);
}

fn enabling_reports_the_queue_manager_then_refreshes_every_object(
    queue_manager: &Arc<QueueManager>,
) {
    // Enabling them: the change of the queue manager object (before, after), then a refresh
    // of every object.
    ok(queue_manager, "ALTER QMGR CONFIGEV(ENABLED)");
    let events = config_events(queue_manager);
    let (reason, sequence, control, object_type, _, correl_before, parameters) = &events[0];
    assert_eq!(
        (*reason, *sequence, *control, *object_type),
        (MQRC_CONFIG_CHANGE_OBJECT, 1, MQCFC_NOT_LAST, MQOT_Q_MGR)
    );
    assert_eq!(
        integer(parameters, MQIA_CONFIGURATION_EVENT),
        MQEVR_DISABLED
    );
    assert!(
        find(parameters, MQIA_QSG_DISP).is_none(),
        "no disposition for the QMGR"
    );
    let (reason, sequence, control, _, _, correl_after, parameters) = &events[1];
    assert_eq!(
        (*reason, *sequence, *control),
        (MQRC_CONFIG_CHANGE_OBJECT, 2, MQCFC_LAST)
    );
    assert_eq!(correl_before, correl_after);
    assert_ne!(*correl_before, [0u8; 24]);
    assert_eq!(integer(parameters, MQIA_CONFIGURATION_EVENT), MQEVR_ENABLED);
    let refreshed: Vec<&ConfigEvent> = events[2..].iter().collect();
    assert!(refreshed
        .iter()
        .all(|event| event.0 == MQRC_CONFIG_REFRESH_OBJECT));
    let names: Vec<&str> = refreshed.iter().map(|event| event.4.as_str()).collect();
    assert!(names.contains(&"APP.EARLY"), "{names:?}");
    assert!(names.contains(&"SYSTEM.DEF.SVRCONN"), "{names:?}");
    assert!(names.contains(&"QM1"), "{names:?}");
    assert!(
        names.contains(&CONFIG_EVENTS),
        "a refresh reports the event queue too"
    );
    let expected = queue_manager.queues().len()
        + [
            ferrite_queue_manager::ObjectType::ModelQueue,
            ferrite_queue_manager::ObjectType::AliasQueue,
            ferrite_queue_manager::ObjectType::RemoteQueue,
            ferrite_queue_manager::ObjectType::Namelist,
            ferrite_queue_manager::ObjectType::Process,
            ferrite_queue_manager::ObjectType::StorageClass,
            ferrite_queue_manager::ObjectType::Channel,
            ferrite_queue_manager::ObjectType::AuthInfo,
            ferrite_queue_manager::ObjectType::Topic,
        ]
        .iter()
        .map(|object_type| queue_manager.objects(*object_type).len())
        .sum::<usize>()
        + 1;
    assert_eq!(refreshed.len(), expected, "one per object and the QMGR");
}

fn define_reports_create_object(queue_manager: &Arc<QueueManager>) {
    // DEFINE: Create object, with the attributes of an Inquire.
    ok(
        queue_manager,
        "DEFINE QLOCAL(APP.Q) MAXDEPTH(10) DESCR('orders')",
    );
    let events = config_events(queue_manager);
    assert_eq!(events.len(), 1);
    let (reason, sequence, control, object_type, name, correl, parameters) = &events[0];
    assert_eq!(
        (*reason, *sequence, *control, *object_type, name.as_str()),
        (MQRC_CONFIG_CREATE_OBJECT, 1, MQCFC_LAST, MQOT_Q, "APP.Q")
    );
    assert_eq!(*correl, [0u8; 24]);
    assert_eq!(integer(parameters, MQIA_Q_TYPE), MQQT_LOCAL);
    assert_eq!(integer(parameters, MQIA_MAX_Q_DEPTH), 10);
    assert_eq!(string(parameters, MQCA_Q_DESC), "orders");
    assert_eq!(integer(parameters, MQIA_QSG_DISP), 0);
    assert_eq!(integer(parameters, MQIACF_EVENT_ORIGIN), MQEVO_CONSOLE);
    assert!(
        find(parameters, MQIA_CURRENT_Q_DEPTH).is_none(),
        "status is not an attribute"
    );
}

fn alter_reports_change_object_before_and_after(queue_manager: &Arc<QueueManager>) {
    // ALTER: Change object, before and after, even when nothing changes.
    ok(queue_manager, "ALTER QLOCAL(APP.Q) MAXDEPTH(20)");
    ok(queue_manager, "ALTER QLOCAL(APP.Q) MAXDEPTH(20)");
    let events = config_events(queue_manager);
    let depths: Vec<(i32, i32, i32)> = events
        .iter()
        .map(|event| (event.0, event.1, integer(&event.6, MQIA_MAX_Q_DEPTH)))
        .collect();
    assert_eq!(
        depths,
        [
            (MQRC_CONFIG_CHANGE_OBJECT, 1, 10),
            (MQRC_CONFIG_CHANGE_OBJECT, 2, 20),
            (MQRC_CONFIG_CHANGE_OBJECT, 1, 20),
            (MQRC_CONFIG_CHANGE_OBJECT, 2, 20),
        ]
    );
    assert_eq!(events[0].5, events[1].5);
    assert_ne!(events[1].5, events[2].5, "each change has its own CorrelId");
}

fn define_replace_reports_change_or_create(queue_manager: &Arc<QueueManager>) {
    // DEFINE REPLACE of an existing object: a change; of a new one: a create.
    ok(queue_manager, "DEFINE QLOCAL(APP.Q) MAXDEPTH(30) REPLACE");
    ok(
        queue_manager,
        "DEFINE PROCESS(APP.P) APPLICID('run') REPLACE",
    );
    let reasons: Vec<(i32, String)> = config_events(queue_manager)
        .into_iter()
        .map(|event| (event.0, event.4))
        .collect();
    assert_eq!(
        reasons,
        [
            (MQRC_CONFIG_CHANGE_OBJECT, "APP.Q".to_string()),
            (MQRC_CONFIG_CHANGE_OBJECT, "APP.Q".to_string()),
            (MQRC_CONFIG_CREATE_OBJECT, "APP.P".to_string()),
        ]
    );
}

fn delete_reports_delete_object(queue_manager: &Arc<QueueManager>) {
    // DELETE: Delete object with the last attributes.
    ok(queue_manager, "DELETE QLOCAL(APP.Q)");
    ok(queue_manager, "DELETE PROCESS(APP.P)");
    let events = config_events(queue_manager);
    assert_eq!(events.len(), 2);
    assert_eq!(
        (events[0].0, events[0].3, events[0].4.as_str()),
        (MQRC_CONFIG_DELETE_OBJECT, MQOT_Q, "APP.Q")
    );
    assert_eq!(integer(&events[0].6, MQIA_MAX_Q_DEPTH), 30);
    assert_eq!(
        (events[1].0, events[1].3, string(&events[1].6, MQCA_APPL_ID)),
        (MQRC_CONFIG_DELETE_OBJECT, MQOT_PROCESS, "run".to_string())
    );
}

fn other_object_types_are_reported(queue_manager: &Arc<QueueManager>) {
    // The other object types.
    ok(
        queue_manager,
        "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)",
    );
    ok(queue_manager, "DEFINE NAMELIST(APP.N) NAMES(A,B)");
    ok(queue_manager, "DEFINE STGCLASS(APPSC) PSID(1)");
    ok(queue_manager, "DEFINE QALIAS(APP.ALIAS) TARGET(APP.EARLY)");
    let created: Vec<(i32, i32, String)> = config_events(queue_manager)
        .into_iter()
        .map(|event| (event.0, event.3, event.4))
        .collect();
    assert_eq!(
        created,
        [
            (
                MQRC_CONFIG_CREATE_OBJECT,
                MQOT_CHANNEL,
                "APP.SVRCONN".into()
            ),
            (MQRC_CONFIG_CREATE_OBJECT, MQOT_NAMELIST, "APP.N".into()),
            (
                MQRC_CONFIG_CREATE_OBJECT,
                MQOT_STORAGE_CLASS,
                "APPSC".into()
            ),
            (MQRC_CONFIG_CREATE_OBJECT, MQOT_Q, "APP.ALIAS".into()),
        ]
    );
}

fn disabling_is_reported_then_nothing(queue_manager: &Arc<QueueManager>) {
    // Switching them off is reported (the queue manager object), then nothing.
    ok(queue_manager, "ALTER QMGR CONFIGEV(DISABLED)");
    ok(queue_manager, "ALTER QLOCAL(APP.EARLY) MAXDEPTH(9)");
    let events = config_events(queue_manager);
    assert_eq!(events.len(), 2);
    assert!(events.iter().all(|event| event.3 == MQOT_Q_MGR));
    assert_eq!(
        integer(&events[1].6, MQIA_CONFIGURATION_EVENT),
        MQEVR_DISABLED
    );
}

#[test]
fn pcf_changes_and_temporary_dynamic_queues() {
    let (_directory, queue_manager) = setup();
    ok(&queue_manager, "ALTER QMGR CONFIGEV(ENABLED)");
    let _ = config_events(&queue_manager);
    let processor = CommandProcessor::new(queue_manager.clone());

    // PCF Copy makes a new object; Change changes it.
    let responses = support::send_pcf(
        &processor,
        MQCMD_COPY_Q,
        vec![
            Parameter::string(MQCACF_FROM_Q_NAME, "SYSTEM.DEFAULT.LOCAL.QUEUE"),
            Parameter::string(MQCACF_TO_Q_NAME, "PCF.Q"),
            Parameter::integer(MQIA_Q_TYPE, MQQT_LOCAL),
        ],
    );
    assert_eq!(responses[0].header.comp_code, 0, "{responses:?}");
    let responses = support::send_pcf(
        &processor,
        MQCMD_CHANGE_Q,
        vec![
            Parameter::string(MQCA_Q_NAME, "PCF.Q"),
            Parameter::integer(MQIA_Q_TYPE, MQQT_LOCAL),
            Parameter::integer(MQIA_MAX_Q_DEPTH, 3),
        ],
    );
    assert_eq!(responses[0].header.comp_code, 0, "{responses:?}");
    let events: Vec<(i32, String, i32)> = config_events(&queue_manager)
        .into_iter()
        .map(|event| (event.0, event.4, integer(&event.6, MQIA_MAX_Q_DEPTH)))
        .collect();
    assert_eq!(
        events,
        [
            (MQRC_CONFIG_CREATE_OBJECT, "PCF.Q".to_string(), 999_999_999),
            (MQRC_CONFIG_CHANGE_OBJECT, "PCF.Q".to_string(), 999_999_999),
            (MQRC_CONFIG_CHANGE_OBJECT, "PCF.Q".to_string(), 3),
        ]
    );

    // A temporary dynamic queue is never reported: not when a command alters it (MQ allows
    // that; the change is not stored), not by a refresh.
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let mut od = Mqod::queue("SYSTEM.DEFAULT.MODEL.QUEUE");
    od.dynamic_q_name = "TEMP.*".to_string();
    let hobj = connection.open(&mut od, MQOO_INPUT_EXCLUSIVE).unwrap();
    let temporary = od.object_name.trim_end().to_string();
    ok(
        &queue_manager,
        &format!("ALTER QLOCAL({temporary}) MAXDEPTH(17)"),
    );
    assert_eq!(
        queue_manager
            .queue(&temporary)
            .unwrap()
            .definition()
            .max_depth,
        17
    );
    ok(&queue_manager, "REFRESH QMGR TYPE(CONFIGEV) NAME(TEMP.*)");
    connection.close(hobj, 0).unwrap();
    connection.disconnect().unwrap();
    assert!(
        queue_manager.queue(&temporary).is_none(),
        "still temporary after the ALTER: gone with its handle"
    );
    assert!(
        config_events(&queue_manager).is_empty(),
        "temporary dynamic"
    );
}

#[test]
fn refresh_qmgr_type_configev_selects_objects() {
    let (_directory, queue_manager) = setup();
    ok(&queue_manager, "DEFINE QLOCAL(APP.ONE)");
    ok(&queue_manager, "DEFINE QLOCAL(APP.TWO)");
    ok(&queue_manager, "DEFINE QALIAS(APP.ALIAS) TARGET(APP.ONE)");
    ok(&queue_manager, "DEFINE PROCESS(APP.PROC)");

    // Configuration events must be enabled.
    let refused = run_command(&queue_manager, "REFRESH QMGR TYPE(CONFIGEV)");
    assert!(!refused.success);
    assert!(
        refused
            .lines
            .iter()
            .any(|line| line.contains("MQRCCF_EVENTS_DISABLED")),
        "{:?}",
        refused.lines
    );
    let processor = CommandProcessor::new(queue_manager.clone());
    let responses = support::send_pcf(
        &processor,
        MQCMD_REFRESH_Q_MGR,
        vec![Parameter::integer(MQIACF_REFRESH_TYPE, MQRT_CONFIGURATION)],
    );
    assert_eq!(responses[0].header.reason, MQRCCF_EVENTS_DISABLED);

    ok(&queue_manager, "ALTER QMGR CONFIGEV(ENABLED)");
    let _ = config_events(&queue_manager);

    ok(
        &queue_manager,
        "REFRESH QMGR TYPE(CONFIGEV) OBJECT(QLOCAL) NAME(APP.*)",
    );
    let names: Vec<(i32, String)> = config_events(&queue_manager)
        .into_iter()
        .map(|event| (event.0, event.4))
        .collect();
    assert_eq!(
        names,
        [
            (MQRC_CONFIG_REFRESH_OBJECT, "APP.ONE".to_string()),
            (MQRC_CONFIG_REFRESH_OBJECT, "APP.TWO".to_string()),
        ]
    );
    ok(
        &queue_manager,
        "REFRESH QMGR TYPE(CONFIGEV) OBJECT(QUEUE) NAME(APP.*)",
    );
    assert_eq!(
        config_events(&queue_manager).len(),
        3,
        "QUEUE covers every type"
    );
    ok(&queue_manager, "REFRESH QMGR TYPE(CONFIGEV) OBJECT(QMGR)");
    let events = config_events(&queue_manager);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].3, MQOT_Q_MGR);

    // PCF: ObjectType and ObjectName (and RefreshInterval, below).
    let refresh = |more: Vec<Parameter>| {
        let mut parameters = vec![Parameter::integer(MQIACF_REFRESH_TYPE, MQRT_CONFIGURATION)];
        parameters.extend(more);
        support::send_pcf(&processor, MQCMD_REFRESH_Q_MGR, parameters)
    };
    let processes = |more: &[Parameter]| {
        let mut parameters = vec![
            Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_PROCESS),
            Parameter::string(MQCACF_OBJECT_NAME, "APP.*"),
        ];
        parameters.extend_from_slice(more);
        parameters
    };
    let responses = refresh(processes(&[]));
    assert_eq!(responses[0].header.comp_code, 0, "{responses:?}");
    let events = config_events(&queue_manager);
    assert_eq!(events.len(), 1);
    assert_eq!(
        (events[0].3, events[0].4.as_str()),
        (MQOT_PROCESS, "APP.PROC")
    );

    // INCLINT: objects altered within that many minutes (all of these were, just now);
    // MQ's range is 0-999999 minutes.
    ok(
        &queue_manager,
        "REFRESH QMGR TYPE(CONFIGEV) OBJECT(QLOCAL) NAME(APP.*) INCLINT(1)",
    );
    assert_eq!(
        config_events(&queue_manager).len(),
        2,
        "altered within a minute"
    );
    assert!(
        !run_command(
            &queue_manager,
            "REFRESH QMGR TYPE(CONFIGEV) INCLINT(1000000)"
        )
        .success
    );
    for interval in [-1, 1_000_000] {
        let responses = refresh(vec![Parameter::integer(MQIACF_REFRESH_INTERVAL, interval)]);
        assert_eq!(
            responses[0].header.reason, MQRCCF_PARM_VALUE_ERROR,
            "{interval}"
        );
    }
    let responses = refresh(processes(&[Parameter::integer(MQIACF_REFRESH_INTERVAL, 5)]));
    assert_eq!(responses[0].header.comp_code, 0, "{responses:?}");
    assert_eq!(config_events(&queue_manager).len(), 1);
    // OBJECT belongs to TYPE(CONFIGEV).
    assert!(!run_command(&queue_manager, "REFRESH QMGR TYPE(EXPIRY) OBJECT(QLOCAL)").success);
}

#[test]
fn mqset_and_mqclose_of_a_permanent_dynamic_queue_are_reported() {
    let (_directory, queue_manager) = setup();
    ok(&queue_manager, "DEFINE QLOCAL(APP.Q)");
    ok(&queue_manager, "DEFINE QALIAS(APP.ALIAS) TARGET(APP.Q)");
    ok(&queue_manager, "DEFINE QMODEL(PERM.MODEL) DEFTYPE(PERMDYN)");
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    // The connection runs as appuser, granted what an application uses.
    ferrite_test_kit::grant_all_mqi(&queue_manager, "appuser");
    connection.set_user_identifier("appuser");
    let local = connection
        .open(&mut Mqod::queue("APP.Q"), MQOO_SET)
        .unwrap();

    // CONFIGEV(DISABLED), the default: MQSET reports nothing.
    connection
        .set(local, &inhibit_put(MQQA_PUT_INHIBITED))
        .unwrap();
    ok(&queue_manager, "ALTER QMGR CONFIGEV(ENABLED)");
    let _ = config_events(&queue_manager);
    mqset_reports_change_object_for_the_user(&queue_manager, &mut connection, local);
    // A failed MQSET (a selector MQSET cannot set) changes nothing and reports nothing.
    let failed = connection.set(local, &[(MQIA_MAX_Q_DEPTH, AttributeValue::Integer(5))]);
    assert!(failed.is_err());
    assert!(config_events(&queue_manager).is_empty(), "a failed MQSET");
    mqset_through_an_alias_reports_the_alias(&queue_manager, &mut connection);
    permanent_dynamic_queue_changed_and_deleted(&queue_manager, &mut connection);
    temporary_dynamic_queue_is_never_reported(&queue_manager, &mut connection);
    connection.disconnect().unwrap();
}

/// MQSET's attribute list setting InhibitPut to `value`.
fn inhibit_put(value: i32) -> [(i32, AttributeValue); 1] {
    [(MQIA_INHIBIT_PUT, AttributeValue::Integer(value))]
}

fn mqset_reports_change_object_for_the_user(
    queue_manager: &Arc<QueueManager>,
    connection: &mut Connection,
    local: Hobj,
) {
    // MQSET on a local queue: a Change object pair for the connection's user, EventOrigin
    // MQEVO_MQSET, before then after, one CorrelId.
    connection
        .set(local, &inhibit_put(MQQA_PUT_ALLOWED))
        .unwrap();
    let events = config_events(queue_manager);
    let summary: Vec<(i32, i32, i32, String, i32, i32, String)> = events
        .iter()
        .map(|event| {
            (
                event.0,
                event.1,
                event.2,
                event.4.clone(),
                integer(&event.6, MQIACF_EVENT_ORIGIN),
                integer(&event.6, MQIA_INHIBIT_PUT),
                string(&event.6, MQCACF_EVENT_USER_ID),
            )
        })
        .collect();
    let change = |sequence, control, value| {
        (
            MQRC_CONFIG_CHANGE_OBJECT,
            sequence,
            control,
            "APP.Q".to_string(),
            MQEVO_MQSET,
            value,
            "appuser".to_string(),
        )
    };
    assert_eq!(
        summary,
        [
            change(1, MQCFC_NOT_LAST, MQQA_PUT_INHIBITED),
            change(2, MQCFC_LAST, MQQA_PUT_ALLOWED),
        ]
    );
    assert_eq!(events[0].5, events[1].5, "one CorrelId");
    // The after image carries the alteration's date and time as MQ shows them.
    let altered = string(&events[1].6, MQCA_ALTERATION_DATE);
    assert!(
        altered.len() == 10 && altered.as_bytes()[4] == b'-',
        "ALTDATE {altered:?}"
    );
    assert_eq!(string(&events[1].6, MQCA_ALTERATION_TIME).len(), 8);
    assert!(
        find(&events[0].6, MQCACF_EVENT_APPL_NAME).is_none(),
        "not MQEVO_MSG"
    );
}

fn mqset_through_an_alias_reports_the_alias(
    queue_manager: &Arc<QueueManager>,
    connection: &mut Connection,
) {
    // Through an alias MQSET changes the alias, and the alias is reported.
    let alias = connection
        .open(&mut Mqod::queue("APP.ALIAS"), MQOO_SET)
        .unwrap();
    connection
        .set(
            alias,
            &[(
                MQIA_INHIBIT_GET,
                AttributeValue::Integer(MQQA_GET_INHIBITED),
            )],
        )
        .unwrap();
    let events: Vec<(i32, i32, String, i32)> = config_events(queue_manager)
        .into_iter()
        .map(|event| {
            (
                event.0,
                event.3,
                event.4,
                integer(&event.6, MQIA_INHIBIT_GET),
            )
        })
        .collect();
    let alias_change = |value| {
        (
            MQRC_CONFIG_CHANGE_OBJECT,
            MQOT_Q,
            "APP.ALIAS".to_string(),
            value,
        )
    };
    assert_eq!(
        events,
        [
            alias_change(MQQA_GET_ALLOWED),
            alias_change(MQQA_GET_INHIBITED)
        ]
    );
}

fn permanent_dynamic_queue_changed_and_deleted(
    queue_manager: &Arc<QueueManager>,
    connection: &mut Connection,
) {
    // A permanent dynamic queue: created at MQOPEN without an event (MQ's list names only
    // DEFINE), changed by MQSET, deleted by MQCLOSE: a Delete object, MQEVO_OTHER.
    let mut od = Mqod::queue("PERM.MODEL");
    od.dynamic_q_name = "PERM.*".to_string();
    let dynamic = connection
        .open(&mut od, MQOO_SET | MQOO_INPUT_EXCLUSIVE)
        .unwrap();
    let name = od.object_name.trim_end().to_string();
    assert!(
        config_events(queue_manager).is_empty(),
        "MQOPEN creates silently"
    );
    connection
        .set(dynamic, &inhibit_put(MQQA_PUT_INHIBITED))
        .unwrap();
    connection.close(dynamic, MQCO_DELETE).unwrap();
    let events: Vec<(i32, String, i32, String)> = config_events(queue_manager)
        .into_iter()
        .map(|event| {
            (
                event.0,
                event.4,
                integer(&event.6, MQIACF_EVENT_ORIGIN),
                string(&event.6, MQCACF_EVENT_USER_ID),
            )
        })
        .collect();
    let event = |reason, origin| (reason, name.clone(), origin, "appuser".to_string());
    assert_eq!(
        events,
        [
            event(MQRC_CONFIG_CHANGE_OBJECT, MQEVO_MQSET),
            event(MQRC_CONFIG_CHANGE_OBJECT, MQEVO_MQSET),
            event(MQRC_CONFIG_DELETE_OBJECT, MQEVO_OTHER),
        ]
    );
}

fn temporary_dynamic_queue_is_never_reported(
    queue_manager: &Arc<QueueManager>,
    connection: &mut Connection,
) {
    // A temporary dynamic queue is never reported, by MQSET either.
    let mut od = Mqod::queue("SYSTEM.DEFAULT.MODEL.QUEUE");
    od.dynamic_q_name = "TEMP.*".to_string();
    let temporary = connection
        .open(&mut od, MQOO_SET | MQOO_INPUT_EXCLUSIVE)
        .unwrap();
    connection
        .set(temporary, &inhibit_put(MQQA_PUT_INHIBITED))
        .unwrap();
    connection.close(temporary, MQCO_DELETE).unwrap();
    assert!(config_events(queue_manager).is_empty(), "temporary dynamic");
}
