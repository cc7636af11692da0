//! Command authority: an unprivileged user's MQSC and PCF commands (as the command server
//! runs them, for the request message's UserIdentifier) are refused until an administrator
//! grants the authority each needs (crt, chg, dlt, clr, dsp, ctrl) on the object it names or
//! on the queue manager; the console runs as the process's user, an administrator here.

mod support;

use ferrite_command::pcf::{ByteOrder, Parameter};
use ferrite_command::{CommandOrigin, CommandProcessor};
use ferrite_constants::{
    close_options::MQCO_REMOVE_SUB, encoding::MQENC_NATIVE, misc::*, object_type::*,
    open_options::*, pcf::*, pcf_selector::*, queue_type::MQQT_LOCAL, reason::*, selector::*,
};
use ferrite_mqi::queue_manager_events::QUEUE_MANAGER_EVENT_QUEUE;
use ferrite_mqi::{Connection, Hobj, Mqcno, Mqmd, Mqod, Mqsd};
use ferrite_queue_manager::QueueManager as QueueManagerHandle;

/// Where a command put by `user` comes from (the command server's origin for it).
fn from(user: &str) -> CommandOrigin {
    CommandOrigin::message(&Mqmd {
        user_identifier: user.into(),
        ..Mqmd::default()
    })
}

fn mqsc(processor: &CommandProcessor, user: &str, command: &str) -> (bool, String) {
    let response = processor.run_from(&from(user), command);
    (response.success, response.text())
}

fn refused(processor: &CommandProcessor, user: &str, command: &str) {
    let (success, text) = mqsc(processor, user, command);
    assert!(!success, "{command}: {text}");
    assert!(text.contains("CSQ9016E"), "{command}: {text}");
}

fn accepted(processor: &CommandProcessor, user: &str, command: &str) {
    let (success, text) = mqsc(processor, user, command);
    assert!(success, "{command}: {text}");
}

fn console(processor: &CommandProcessor, command: &str) {
    let response = processor.run(command);
    assert!(response.success, "{command}: {}", response.text());
}

#[test]
fn an_unprivileged_user_cannot_administer_the_queue_manager() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.Q"]);
    ferrite_command::define_default_objects(&queue_manager).unwrap();
    let processor = CommandProcessor::new(queue_manager.clone());
    // What an application's user may do to its queue does not make it an administrator.
    ferrite_test_kit::grant_all_mqi(&queue_manager, "app");
    for command in [
        "DEFINE QLOCAL(APP.NEW)",
        "DELETE QLOCAL(SYSTEM.DEAD.LETTER.QUEUE)",
        "ALTER QMGR CHCKCLNT(OPTIONAL)",
        "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(NONE)",
        "REFRESH SECURITY TYPE(CONNAUTH)",
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(ALL)",
        "DELETE AUTHREC OBJTYPE(QMGR) PRINCIPAL('app')",
        "SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('nobody') ACTION(REPLACE)",
        "DISPLAY QMGR",
        "DISPLAY QLOCAL(*)",
        "DISPLAY AUTHREC",
        "CLEAR QLOCAL(APP.Q)",
        "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)",
        "STOP CHANNEL(DEV.APP.SVRCONN)",
    ] {
        refused(&processor, "app", command);
    }
    assert!(queue_manager.queue("APP.NEW").is_none());
    assert!(queue_manager.queue("SYSTEM.DEAD.LETTER.QUEUE").is_some());
    assert!(queue_manager
        .authority_records()
        .records()
        .iter()
        .all(|record| record.entity.name() != "app"
            || record.authorities
                & ferrite_queue_manager::objects::authority_record::MQZAO_ALL_ADMIN
                == 0));
    // The console (this process's user, the queue manager's) may.
    console(&processor, "DISPLAY QMGR");
}

#[test]
fn each_command_needs_its_authority_on_the_object_it_names() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.Q", "OTHER.Q"]);
    let processor = CommandProcessor::new(queue_manager.clone());
    let steps = [
        ("DEFINE QLOCAL(APP.NEW)", "CRT"),
        ("ALTER QLOCAL(APP.NEW) MAXDEPTH(10)", "CHG"),
        ("DISPLAY QLOCAL(APP.NEW)", "DSP"),
        ("CLEAR QLOCAL(APP.NEW)", "CLR"),
        ("DELETE QLOCAL(APP.NEW)", "DLT"),
    ];
    for (command, authority) in steps {
        refused(&processor, "app", command);
        // crt is granted on the queue manager, the others on the queues' profile.
        let grant = if authority == "CRT" {
            "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CRT)".to_string()
        } else {
            format!(
                "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD({authority})"
            )
        };
        console(&processor, &grant);
        accepted(&processor, "app", command);
    }
    // Only where granted: another queue, and the queue manager, stay refused.
    refused(&processor, "app", "ALTER QLOCAL(OTHER.Q) MAXDEPTH(10)");
    refused(&processor, "app", "DISPLAY QMGR");
    console(
        &processor,
        "SET AUTHREC OBJTYPE(QMGR) GROUP('admins') AUTHADD(DSP)",
    );
    refused(&processor, "app", "DISPLAY QMGR");
    console(
        &processor,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(DSP)",
    );
    accepted(&processor, "app", "DISPLAY QMGR");
    accepted(&processor, "app", "DISPLAY QLOCAL(*)");
    refused(&processor, "app", "ALTER QMGR DESCR('mine')");
}

#[test]
fn pcf_commands_are_checked_as_mqsc_commands_are() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.Q"]);
    let processor = CommandProcessor::new(queue_manager.clone());
    let send = |command: i32, parameters: Vec<Parameter>| {
        let request = support::pcf_request(command, parameters);
        let responses =
            ferrite_command::pcf_commands::execute_message_from(&processor, &from("app"), &request);
        responses[0].header.reason
    };
    let create = || {
        vec![
            Parameter::string(MQCA_Q_NAME, "APP.PCF"),
            Parameter::integer(MQIA_Q_TYPE, MQQT_LOCAL),
        ]
    };
    assert_eq!(send(MQCMD_CREATE_Q, create()), MQRC_NOT_AUTHORIZED);
    assert_eq!(
        send(
            MQCMD_CHANGE_Q_MGR,
            vec![Parameter::string(MQCA_Q_MGR_DESC, "x")]
        ),
        MQRC_NOT_AUTHORIZED
    );
    assert_eq!(
        send(
            MQCMD_SET_AUTH_REC,
            vec![
                Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q_MGR),
                Parameter::StringList {
                    parameter: MQCACF_PRINCIPAL_ENTITY_NAMES,
                    values: vec!["app".into()],
                },
                Parameter::IntegerList {
                    parameter: MQIACF_AUTH_ADD_AUTHS,
                    values: vec![ferrite_constants::misc::MQAUTH_ALL],
                },
            ],
        ),
        MQRC_NOT_AUTHORIZED
    );
    assert_eq!(
        send(
            MQCMD_INQUIRE_Q,
            vec![Parameter::string(MQCA_Q_NAME, "APP.Q")]
        ),
        MQRC_NOT_AUTHORIZED
    );
    for command in [
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CRT)",
        "SET AUTHREC PROFILE('APP.*') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(DSP)",
    ] {
        let response = processor.run(command);
        assert!(response.success, "{}", response.text());
    }
    assert_eq!(send(MQCMD_CREATE_Q, create()), MQRC_NONE);
    assert!(queue_manager.queue("APP.PCF").is_some());
    assert_eq!(
        send(
            MQCMD_INQUIRE_Q,
            vec![Parameter::string(MQCA_Q_NAME, "APP.Q")]
        ),
        MQRC_NONE
    );
}

/// The Not Authorized events on SYSTEM.ADMIN.QMGR.EVENT, taken off it: each one's parameters.
fn authority_events(queue_manager: &std::sync::Arc<QueueManagerHandle>) -> Vec<Vec<Parameter>> {
    let order = ByteOrder::of_encoding(MQENC_NATIVE);
    ferrite_test_kit::take_all(queue_manager, QUEUE_MANAGER_EVENT_QUEUE, 4096)
        .into_iter()
        .map(|(_, data)| ferrite_command::pcf::decode_event(&data, order).unwrap())
        .inspect(|event| {
            assert_eq!(event.header.command, MQCMD_Q_MGR_EVENT);
            assert_eq!(event.header.reason, MQRC_NOT_AUTHORIZED);
        })
        .map(|event| event.parameters)
        .collect()
}

fn integer(parameter: i32, value: i32) -> Parameter {
    Parameter::Integer { parameter, value }
}

fn string(parameter: i32, value: &str) -> Parameter {
    Parameter::String {
        parameter,
        value: value.to_string(),
    }
}

#[test]
fn define_needs_crt_on_the_class_profile_of_its_type() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let processor = CommandProcessor::new(queue_manager.clone());
    refused(&processor, "app", "DEFINE QLOCAL(APP.NEW)");
    // MQ's setmqaut -n @class -t queue +crt: queues only.
    console(
        &processor,
        "SET AUTHREC PROFILE('@class') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(CRT)",
    );
    let records = processor
        .run("DISPLAY AUTHREC PROFILE('@class') OBJTYPE(QUEUE)")
        .text();
    assert!(records.contains("PROFILE(@class)"), "{records}");
    accepted(&processor, "app", "DEFINE QLOCAL(APP.NEW)");
    accepted(
        &processor,
        "app",
        "DEFINE QALIAS(APP.ALIAS) TARGET(APP.NEW)",
    );
    refused(&processor, "app", "DEFINE PROCESS(APP.PROC)");
    // PCF Create Queue too.
    let request = support::pcf_request(
        MQCMD_CREATE_Q,
        vec![
            Parameter::string(MQCA_Q_NAME, "APP.PCF"),
            Parameter::integer(MQIA_Q_TYPE, MQQT_LOCAL),
        ],
    );
    let responses =
        ferrite_command::pcf_commands::execute_message_from(&processor, &from("app"), &request);
    assert_eq!(
        responses[0].header.reason, 0,
        "PCF Create Queue with @class crt"
    );
    console(
        &processor,
        "SET AUTHREC PROFILE('@class') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHRMV(CRT)",
    );
    refused(&processor, "app", "DEFINE QLOCAL(APP.NEWER)");
}

#[test]
fn refusals_are_not_authorized_events_while_authorev_is_enabled() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.Q"]);
    ferrite_command::define_default_objects(&queue_manager).unwrap();
    let processor = CommandProcessor::new(queue_manager.clone());
    let connect = || Connection::connect_as(queue_manager.clone(), "", &Mqcno::default(), "app");
    // DISABLED, MQ's default: refused, and no event.
    assert_eq!(connect().err().map(|e| e.reason), Some(MQRC_NOT_AUTHORIZED));
    assert!(authority_events(&queue_manager).is_empty());
    console(&processor, "ALTER QMGR AUTHOREV(ENABLED)");
    let display = processor.run("DISPLAY QMGR AUTHOREV").text();
    assert!(display.contains("AUTHOREV(ENABLED)"), "{display}");

    // Type 1: MQCONN without connect.
    assert_eq!(connect().err().map(|e| e.reason), Some(MQRC_NOT_AUTHORIZED));
    let events = authority_events(&queue_manager);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0][0], string(MQCA_Q_MGR_NAME, "QM1"));
    assert_eq!(
        events[0][1],
        integer(MQIACF_REASON_QUALIFIER, MQRQ_CONN_NOT_AUTHORIZED)
    );
    assert_eq!(events[0][2], string(MQCACF_USER_IDENTIFIER, "app"));

    // Type 2: MQOPEN without the authority an option needs.
    console(
        &processor,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CONNECT)",
    );
    let mut connection = connect().unwrap();
    let error = connection
        .open(&mut Mqod::queue("APP.Q"), MQOO_OUTPUT)
        .unwrap_err();
    assert_eq!(error.reason, MQRC_NOT_AUTHORIZED);
    let events = authority_events(&queue_manager);
    assert_eq!(events.len(), 1, "{events:?}");
    let event = &events[0];
    assert_eq!(
        event[1],
        integer(MQIACF_REASON_QUALIFIER, MQRQ_OPEN_NOT_AUTHORIZED)
    );
    assert_eq!(event[2], integer(MQIACF_OPEN_OPTIONS, MQOO_OUTPUT));
    assert_eq!(event[3], string(MQCACF_USER_IDENTIFIER, "app"));
    assert_eq!(event.last(), Some(&string(MQCA_Q_NAME, "APP.Q")));
    connection.disconnect().unwrap();

    // Type 4: a command refused for its user.
    refused(&processor, "app", "DEFINE QLOCAL(APP.NEW)");
    let events = authority_events(&queue_manager);
    assert_eq!(
        events,
        vec![vec![
            string(MQCA_Q_MGR_NAME, "QM1"),
            integer(MQIACF_REASON_QUALIFIER, MQRQ_CMD_NOT_AUTHORIZED),
            integer(MQIACF_COMMAND, MQCMD_CREATE_Q),
            string(MQCACF_USER_IDENTIFIER, "app"),
        ]]
    );

    // DISABLED again: refusals go on, events stop.
    console(&processor, "ALTER QMGR AUTHOREV(DISABLED)");
    refused(&processor, "app", "DEFINE QLOCAL(APP.NEW)");
    assert!(authority_events(&queue_manager).is_empty());
}

#[test]
fn topics_need_pub_and_sub_on_a_topic_object_at_or_above_them() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    ferrite_command::define_default_objects(&queue_manager).unwrap();
    let processor = CommandProcessor::new(queue_manager.clone());
    for command in [
        "DEFINE TOPIC(APP.ORDERS) TOPICSTR('app/orders')",
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CONNECT)",
        "ALTER QMGR AUTHOREV(ENABLED)",
    ] {
        console(&processor, command);
    }
    let mut connection =
        Connection::connect_as(queue_manager.clone(), "", &Mqcno::default(), "app").unwrap();
    let topic = |topic_string: &str| Mqod {
        object_type: MQOT_TOPIC,
        object_string: topic_string.to_string(),
        ..Mqod::default()
    };
    let subscribe = |connection: &mut Connection| {
        let mut sd = Mqsd {
            options: MQSO_CREATE | MQSO_MANAGED | MQSO_NON_DURABLE,
            object_string: "app/orders/#".into(),
            ..Mqsd::default()
        };
        connection.subscribe(&mut sd, &mut Hobj(0))
    };
    // Nothing granted: publishing and subscribing are refused, each an event.
    let error = connection
        .open(&mut topic("app/orders/new"), MQOO_OUTPUT)
        .unwrap_err();
    assert_eq!(error.reason, MQRC_NOT_AUTHORIZED);
    assert_eq!(
        subscribe(&mut connection).unwrap_err().reason,
        MQRC_NOT_AUTHORIZED
    );
    let events = authority_events(&queue_manager);
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(
        events[0][1],
        integer(MQIACF_REASON_QUALIFIER, MQRQ_OPEN_NOT_AUTHORIZED)
    );
    assert_eq!(
        events[0].last(),
        Some(&string(MQCA_TOPIC_STRING, "app/orders/new"))
    );
    assert_eq!(
        events[1][1],
        integer(MQIACF_REASON_QUALIFIER, MQRQ_SUB_NOT_AUTHORIZED)
    );
    assert_eq!(
        events[1].last(),
        Some(&string(MQCA_TOPIC_STRING, "app/orders/#"))
    );
    // Granted on the TOPIC object above the topic strings: both work.
    console(
        &processor,
        "SET AUTHREC PROFILE('APP.ORDERS') OBJTYPE(TOPIC) PRINCIPAL('app') AUTHADD(PUB,SUB)",
    );
    connection
        .open(&mut topic("app/orders/new"), MQOO_OUTPUT)
        .unwrap();
    subscribe(&mut connection).unwrap();
    // Not above another topic: still refused there.
    let error = connection
        .open(&mut topic("app/invoices"), MQOO_OUTPUT)
        .unwrap_err();
    assert_eq!(error.reason, MQRC_NOT_AUTHORIZED);
    connection.disconnect().unwrap();

    // A durable subscription is its owner's (SUBUSER, VARUSER(FIXED)); resuming needs resume.
    let durable = |options: i32| Mqsd {
        options: options | MQSO_DURABLE | MQSO_MANAGED,
        object_string: "app/orders/#".into(),
        sub_name: "ORDERS.AUDIT".into(),
        ..Mqsd::default()
    };
    let mut connection =
        Connection::connect_as(queue_manager.clone(), "", &Mqcno::default(), "app").unwrap();
    let hsub = connection
        .subscribe(&mut durable(MQSO_CREATE), &mut Hobj(0))
        .unwrap();
    connection.close(hsub, 0).unwrap();
    let resume = |connection: &mut Connection| {
        connection
            .subscribe(&mut durable(MQSO_RESUME), &mut Hobj(0))
            .map_err(|error| error.reason)
    };
    assert_eq!(resume(&mut connection).err(), Some(MQRC_NOT_AUTHORIZED));
    console(
        &processor,
        "SET AUTHREC PROFILE('APP.ORDERS') OBJTYPE(TOPIC) PRINCIPAL('app') AUTHADD(RESUME)",
    );
    let hsub = resume(&mut connection).unwrap();
    connection.close(hsub, 0).unwrap();
    let display = processor
        .run("DISPLAY SUB('ORDERS.AUDIT') SUBUSER VARUSER")
        .text();
    assert!(display.contains("SUBUSER(app)"), "{display}");
    assert!(display.contains("VARUSER(FIXED)"), "{display}");
    // Another user, granted the same, is not its owner.
    console(
        &processor,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('other') AUTHADD(CONNECT)",
    );
    console(
        &processor,
        "SET AUTHREC PROFILE('APP.ORDERS') OBJTYPE(TOPIC) PRINCIPAL('other') AUTHADD(SUB,RESUME)",
    );
    let mut other =
        Connection::connect_as(queue_manager.clone(), "", &Mqcno::default(), "other").unwrap();
    assert_eq!(resume(&mut other).err(), Some(MQRC_IDENTITY_MISMATCH));
    // Its owner lets anyone resume it (VARUSER(ANY)): then the other user may.
    let hsub = connection
        .subscribe(&mut durable(MQSO_ALTER | MQSO_ANY_USERID), &mut Hobj(0))
        .unwrap();
    connection.close(hsub, 0).unwrap();
    let hsub = resume(&mut other).unwrap();
    other.close(hsub, MQCO_REMOVE_SUB).unwrap();
    other.disconnect().unwrap();
    connection.disconnect().unwrap();
}
