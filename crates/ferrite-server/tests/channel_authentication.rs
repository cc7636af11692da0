//! Channel authentication records (CHLAUTH) end to end over TCP with Ferrite's client: MQ's
//! default records block the SYSTEM.* channels (but SYSTEM.ADMIN.SVRCONN) and the privileged
//! users on every channel; a more specific BLOCKUSER lets them in on one; USERMAP maps the
//! client's user ID to an MCAUSER; BLOCKADDR refuses an address, WARN(YES) only logs; QMGR
//! CHLAUTH(DISABLED) turns the records off. Each refusal is 2035 with the rule in the log.

mod support;

use std::time::Duration;

use ferrite_client::{ClientOptions, Connection};
use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_mqi::{MqResult, Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_server::ServerConfig;

use support::{listen, Listener};

fn connect(listener: &Listener, channel: &str) -> MqResult<Connection> {
    Connection::connect_client(
        &listener.address(),
        channel,
        "QM1",
        &Mqcno::default(),
        &ClientOptions::default(),
    )
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
    run("SET CHLAUTH('SYSTEM.*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) DESCR('Default rule to disable all SYSTEM channels')");
    run("SET CHLAUTH('SYSTEM.ADMIN.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL)");
    run("SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('*MQADMIN')");

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

    // USERMAP: the client's user ID runs as another MCAUSER (which no BLOCKUSER lists).
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
