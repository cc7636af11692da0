//! Channel authentication records (CHLAUTH) end to end over TCP with Ferrite's client: MQ's
//! default records block the SYSTEM.* channels (but SYSTEM.ADMIN.SVRCONN) and the privileged
//! users on every channel; a more specific BLOCKUSER lets them in on one; USERMAP maps the
//! client's user ID to an MCAUSER; BLOCKADDR refuses an address, WARN(YES) only logs; QMGR
//! CHLAUTH(DISABLED) turns the records off. Each refusal is 2035 with the rule in the log.

mod support;

use std::time::Duration;

use ferrite_client::Connection;
use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_mqi::{MqResult, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_server::ServerConfig;

use ferrite_test_kit::get_until_empty;
use support::{listen, Listener};

fn connect(listener: &Listener, channel: &str) -> MqResult<Connection> {
    listener.connect_client(channel)
}

fn refused(listener: &Listener, channel: &str) -> i32 {
    match connect(listener, channel) {
        Ok(_) => panic!("the connection to {channel} was accepted"),
        Err(error) => error.reason,
    }
}

fn log_line(listener: &Listener, needle: &str) -> String {
    // The refusal is logged by the channel's thread, possibly just after the client saw it.
    for _ in 0..100 {
        if let Some(line) = listener
            .log
            .lock()
            .unwrap()
            .iter()
            .find(|line| line.contains(needle))
        {
            return line.clone();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!(
        "no log line with {needle}: {:?}",
        listener.log.lock().unwrap()
    );
}

/// Puts and gets one message; returns the UserIdentifier the queue manager gave it.
fn round_trip(connection: &mut Connection) -> String {
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    let mut md = Mqmd::default();
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"chlauth",
        )
        .unwrap();
    let mut md = Mqmd::default();
    let mut buffer = [0u8; 64];
    connection
        .get(
            hobj,
            &mut md,
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut buffer,
        )
        .unwrap();
    connection.close(hobj, 0).unwrap();
    md.user_identifier.trim().to_string()
}

#[test]
fn chlauth_records_block_map_and_warn_over_tcp() {
    // The client asserts $USER; make it a known name that is a privileged user here.
    let user = match std::env::var("USER") {
        Ok(user) if !user.trim().is_empty() => user,
        _ => {
            std::env::set_var("USER", "chlauthtest");
            "chlauthtest".to_string()
        }
    };
    let mut config = support::small_config("QM1");
    config.security.privileged_users = vec![user.clone()];
    let listener = listen(support::start_configured(
        &["Q1"],
        ServerConfig::default(),
        config,
    ));
    let processor = ferrite_command::CommandProcessor::new(listener.fixture.queue_manager.clone());
    let run = |command: &str| {
        let response = processor.run(command);
        assert!(response.success, "{command}: {}", response.text());
        response.text()
    };
    // Passwords are not what this test is about: CHLAUTH decides before them.
    run("ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL)");
    run("REFRESH SECURITY TYPE(CONNAUTH)");
    // MQ's default records, which a new queue manager has.
    let records = run("DISPLAY CHLAUTH(*) ALL");
    for default in [
        "CHLAUTH(SYSTEM.*)",
        "CHLAUTH(SYSTEM.ADMIN.SVRCONN)",
        "USERLIST('*MQADMIN')",
    ] {
        assert!(records.contains(default), "{default} in {records}");
    }

    // A privileged user on an application channel: '*' BLOCKUSER *MQADMIN.
    assert_eq!(refused(&listener, "DEV.APP.SVRCONN"), MQRC_NOT_AUTHORIZED);
    let line = log_line(&listener, "AMQ9776E");
    assert!(line.contains("'*MQADMIN'"), "{line}");
    assert!(line.contains("CHLAUTH('*') TYPE(BLOCKUSER)"), "{line}");
    // SYSTEM.DEF.SVRCONN: NOACCESS.
    assert_eq!(
        refused(&listener, "SYSTEM.DEF.SVRCONN"),
        MQRC_NOT_AUTHORIZED
    );
    let line = log_line(&listener, "AMQ9777E");
    assert!(
        line.contains("CHLAUTH('SYSTEM.*') TYPE(ADDRESSMAP)"),
        "{line}"
    );
    // SYSTEM.ADMIN.SVRCONN is allowed by its own record, but the administrator still is not.
    assert_eq!(
        refused(&listener, "SYSTEM.ADMIN.SVRCONN"),
        MQRC_NOT_AUTHORIZED
    );

    // MQ's way to let administrators in on one channel: a BLOCKUSER of its own.
    run("SET CHLAUTH('SYSTEM.ADMIN.SVRCONN') TYPE(BLOCKUSER) USERLIST('nobody')");
    let mut admin = connect(&listener, "SYSTEM.ADMIN.SVRCONN").unwrap();
    assert_eq!(round_trip(&mut admin), user);
    admin.disconnect().unwrap();
    assert_eq!(refused(&listener, "DEV.APP.SVRCONN"), MQRC_NOT_AUTHORIZED);

    // USERMAP: the client's user ID runs as another MCAUSER (which no BLOCKUSER lists),
    // whom an administrator has granted what the application needs.
    ferrite_test_kit::grant_all_mqi(&listener.fixture.queue_manager, "appuser");
    run(&format!(
        "SET CHLAUTH('DEV.*') TYPE(USERMAP) CLNTUSER('{user}') USERSRC(MAP) MCAUSER('appuser')"
    ));
    let mut mapped = connect(&listener, "DEV.APP.SVRCONN").unwrap();
    assert_eq!(round_trip(&mut mapped), "appuser");
    mapped.disconnect().unwrap();

    // BLOCKADDR, then WARN(YES) which only logs, then removed.
    run("SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('127.0.0.*','10.9.9.9')");
    assert_eq!(refused(&listener, "DEV.APP.SVRCONN"), MQRC_NOT_AUTHORIZED);
    let line = log_line(&listener, "AMQ9782E");
    assert!(line.contains("'127.0.0.*'"), "{line}");
    run("SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('127.0.0.*','10.9.9.9') WARN(YES) ACTION(REPLACE)");
    connect(&listener, "DEV.APP.SVRCONN")
        .unwrap()
        .disconnect()
        .unwrap();
    log_line(&listener, "AMQ9787W");
    run("SET CHLAUTH('*') TYPE(BLOCKADDR) ACTION(REMOVE)");

    // QMGR CHLAUTH(DISABLED): no record applies.
    run("ALTER QMGR CHLAUTH(DISABLED)");
    connect(&listener, "SYSTEM.DEF.SVRCONN")
        .unwrap()
        .disconnect()
        .unwrap();
    run("ALTER QMGR CHLAUTH(ENABLED)");
    assert_eq!(
        refused(&listener, "SYSTEM.DEF.SVRCONN"),
        MQRC_NOT_AUTHORIZED
    );
}

/// The Channel Blocked events on SYSTEM.ADMIN.CHANNEL.EVENT (taken off it): each one's reason
/// and parameters, decoded from its PCF.
fn channel_events(
    queue_manager: &std::sync::Arc<ferrite_queue_manager::QueueManager>,
) -> Vec<(i32, Vec<ferrite_command::pcf::Parameter>)> {
    use ferrite_command::pcf::{decode_event, ByteOrder};
    use ferrite_constants::{encoding::MQENC_NATIVE, format::MQFMT_EVENT};
    let mut monitor = ferrite_mqi::Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = monitor
        .open(
            &mut Mqod::queue("SYSTEM.ADMIN.CHANNEL.EVENT"),
            MQOO_INPUT_SHARED,
        )
        .unwrap();
    let mut events = Vec::new();
    for (md, buffer) in get_until_empty(&mut monitor, hobj, 4096, "the channel event queue") {
        assert_eq!(md.format, MQFMT_EVENT);
        let order = ByteOrder::of_encoding(MQENC_NATIVE);
        let event = decode_event(&buffer, order).expect("a PCF event");
        // MQCFT_EVENT (7), MQCMD_CHANNEL_EVENT (46), MQCC_WARNING.
        assert_eq!(
            (
                event.header.kind,
                event.header.command,
                event.header.comp_code
            ),
            (7, 46, 1)
        );
        assert_eq!(
            event.header.parameter_count as usize,
            event.parameters.len()
        );
        events.push((event.header.reason, event.parameters));
    }
    monitor.close(hobj, 0).unwrap();
    monitor.disconnect().unwrap();
    events
}

fn event_text(parameters: &[ferrite_command::pcf::Parameter], id: i32) -> Option<String> {
    parameters.iter().find_map(|p| match p {
        ferrite_command::pcf::Parameter::String { parameter, value } if *parameter == id => {
            Some(value.trim_end().to_string())
        }
        _ => None,
    })
}

fn event_integer(parameters: &[ferrite_command::pcf::Parameter], id: i32) -> Option<i32> {
    parameters.iter().find_map(|p| match p {
        ferrite_command::pcf::Parameter::Integer { parameter, value } if *parameter == id => {
            Some(*value)
        }
        _ => None,
    })
}

#[test]
fn blocked_channels_put_channel_blocked_events_as_chlev_says() {
    use ferrite_constants::{misc::*, pcf_selector::*, selector::MQCA_Q_MGR_NAME};
    let user = match std::env::var("USER") {
        Ok(user) if !user.trim().is_empty() => user,
        _ => {
            std::env::set_var("USER", "chlauthtest");
            "chlauthtest".to_string()
        }
    };
    let listener = listen(support::start_configured(
        &["Q1"],
        ServerConfig::default(),
        support::small_config("QM1"),
    ));
    let queue_manager = listener.fixture.queue_manager.clone();
    let processor = ferrite_command::CommandProcessor::new(queue_manager.clone());
    let run = |command: &str| {
        let response = processor.run(command);
        assert!(response.success, "{command}: {}", response.text());
    };
    run("ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL)");
    run("REFRESH SECURITY TYPE(CONNAUTH)");
    run(&format!(
        "SET CHLAUTH('APP.*') TYPE(BLOCKUSER) USERLIST('{user}')"
    ));
    run("SET CHLAUTH('NONE.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)");
    run("DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)");
    run("DEFINE CHANNEL(NONE.SVRCONN) CHLTYPE(SVRCONN)");

    // CHLEV(DISABLED), MQ's default: refused, no event.
    assert_eq!(refused(&listener, "APP.SVRCONN"), MQRC_NOT_AUTHORIZED);
    log_line(&listener, "AMQ9776E");
    assert!(channel_events(&queue_manager).is_empty());

    // CHLEV(EXCEPTION): BLOCKUSER names the channel and the user.
    run("ALTER QMGR CHLEV(EXCEPTION)");
    assert_eq!(refused(&listener, "APP.SVRCONN"), MQRC_NOT_AUTHORIZED);
    let events = channel_events(&queue_manager);
    assert_eq!(events.len(), 1, "{events:?}");
    let (reason, parameters) = &events[0];
    assert_eq!(*reason, MQRC_CHANNEL_BLOCKED);
    assert_eq!(
        event_text(parameters, MQCA_Q_MGR_NAME).as_deref(),
        Some("QM1")
    );
    assert_eq!(
        event_integer(parameters, MQIACF_REASON_QUALIFIER),
        Some(MQRQ_CHANNEL_BLOCKED_USERID)
    );
    assert_eq!(
        event_text(parameters, MQCACH_CHANNEL_NAME).as_deref(),
        Some("APP.SVRCONN")
    );
    assert_eq!(
        event_text(parameters, MQCACF_USER_IDENTIFIER).as_deref(),
        Some(user.as_str())
    );
    assert_eq!(
        event_text(parameters, MQCACH_CONNECTION_NAME).as_deref(),
        Some("127.0.0.1")
    );

    // CHLEV(ENABLED): NOACCESS, then BLOCKADDR (no channel name: MQ blocks an address before
    // it knows the channel), then the same BLOCKADDR with WARN(YES): the warning event.
    run("ALTER QMGR CHLEV(ENABLED)");
    assert_eq!(refused(&listener, "NONE.SVRCONN"), MQRC_NOT_AUTHORIZED);
    run("SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('127.0.0.*')");
    assert_eq!(refused(&listener, "NONE.SVRCONN"), MQRC_NOT_AUTHORIZED);
    run("SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('127.0.0.*') WARN(YES) ACTION(REPLACE)");
    run("SET CHLAUTH('NONE.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') ACTION(REMOVE)");
    connect(&listener, "NONE.SVRCONN")
        .unwrap()
        .disconnect()
        .unwrap();
    let events = channel_events(&queue_manager);
    let summary: Vec<(i32, Option<i32>, Option<String>)> = events
        .iter()
        .map(|(reason, parameters)| {
            (
                *reason,
                event_integer(parameters, MQIACF_REASON_QUALIFIER),
                event_text(parameters, MQCACH_CHANNEL_NAME),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                MQRC_CHANNEL_BLOCKED,
                Some(MQRQ_CHANNEL_BLOCKED_NOACCESS),
                Some("NONE.SVRCONN".to_string())
            ),
            (
                MQRC_CHANNEL_BLOCKED,
                Some(MQRQ_CHANNEL_BLOCKED_ADDRESS),
                None
            ),
            (
                MQRC_CHANNEL_BLOCKED_WARNING,
                Some(MQRQ_CHANNEL_BLOCKED_ADDRESS),
                None
            ),
        ]
    );
    // DISPLAY QMGR shows the switch; MQINQ answers it as MQEVR_*.
    let display = processor.run("DISPLAY QMGR CHLEV");
    assert!(
        display.text().contains("CHLEV(ENABLED)"),
        "{}",
        display.text()
    );
    run("ALTER QMGR CHLEV(EXCEPTION)");
    let mut inquirer = ferrite_mqi::Connection::connect(queue_manager.clone(), "").unwrap();
    let mut od = Mqod {
        object_type: ferrite_constants::object_type::MQOT_Q_MGR,
        object_name: String::new(),
        ..Mqod::default()
    };
    let hobj = inquirer.open(&mut od, MQOO_INQUIRE).unwrap();
    assert_eq!(
        inquirer
            .inquire(hobj, &[ferrite_constants::selector::MQIA_CHANNEL_EVENT])
            .unwrap()
            .values,
        [ferrite_mqi::connection::AttributeValue::Integer(
            MQEVR_EXCEPTION
        )]
    );
    inquirer.disconnect().unwrap();
}
