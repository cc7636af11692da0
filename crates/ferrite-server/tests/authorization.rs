//! Authority checks for connections from other processes: a bindings connection that
//! authenticated as `app` (ADOPTCTX(YES)) and a client channel whose MCAUSER is `app` are
//! checked as `app`: 2035 at MQCONN without connect authority, at MQOPEN without the
//! authority the open asks for, and through once an administrator grants it.

mod support;

use ferrite_constants::{open_options::*, reason::*};
use ferrite_mqi::{MqResult, Mqcno, Mqcsp, Mqod};
use ferrite_queue_manager::objects::authority_record::*;
use ferrite_queue_manager::security::users::UserRegistry;
use ferrite_queue_manager::QueueManager;

fn run(queue_manager: &std::sync::Arc<QueueManager>, command: &str) {
    let response = ferrite_command::run_command(queue_manager, command);
    assert!(response.success, "{command}: {}", response.text());
}

fn grant(queue_manager: &QueueManager, profile: &str, kind: AuthorityObjectType, authorities: u32) {
    queue_manager
        .set_authority_record(
            profile,
            kind,
            Entity::Principal("app".into()),
            authorities,
            0,
        )
        .unwrap();
}

fn reason<T>(result: MqResult<T>) -> i32 {
    result.map_or_else(|error| error.reason, |_| MQRC_NONE)
}

/// MQOPEN's reason over `connection`; a handle it opens is closed again.
fn open_reason(connection: &mut ferrite_client::Connection, queue: &str, options: i32) -> i32 {
    let result = connection.open(&mut Mqod::queue(queue), options);
    if let Ok(hobj) = &result {
        connection.close(*hobj, 0).unwrap();
    }
    reason(result)
}

/// Checks every step of `connect` as `app`, granted more at each step.
fn app_is_checked(
    queue_manager: &QueueManager,
    connect: impl Fn() -> MqResult<ferrite_client::Connection>,
) {
    assert_eq!(reason(connect()), MQRC_NOT_AUTHORIZED);
    grant(
        queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        MQZAO_CONNECT,
    );
    let mut connection = connect().unwrap();
    assert_eq!(
        open_reason(&mut connection, "APP.Q", MQOO_OUTPUT),
        MQRC_NOT_AUTHORIZED
    );
    grant(
        queue_manager,
        "APP.*",
        AuthorityObjectType::Queue,
        MQZAO_OUTPUT,
    );
    assert_eq!(
        open_reason(&mut connection, "APP.Q", MQOO_OUTPUT),
        MQRC_NONE
    );
    assert_eq!(
        open_reason(&mut connection, "APP.Q", MQOO_INPUT_AS_Q_DEF),
        MQRC_NOT_AUTHORIZED
    );
    // The queue manager's own queues stay out of reach: the command queues (so PCF and MQSC
    // requests cannot even be put), the dead-letter queue, the event queues, and its model
    // queues (no dynamic queue is made).
    for queue in [
        "SYSTEM.ADMIN.COMMAND.QUEUE",
        "SYSTEM.COMMAND.INPUT",
        "SYSTEM.DEAD.LETTER.QUEUE",
        "SYSTEM.ADMIN.QMGR.EVENT",
    ] {
        assert_eq!(
            open_reason(&mut connection, queue, MQOO_OUTPUT),
            MQRC_NOT_AUTHORIZED,
            "{queue}"
        );
    }
    let queues_before = queue_manager.queues().len();
    assert_eq!(
        open_reason(
            &mut connection,
            "SYSTEM.DEFAULT.MODEL.QUEUE",
            MQOO_INPUT_EXCLUSIVE
        ),
        MQRC_NOT_AUTHORIZED
    );
    assert_eq!(
        queue_manager.queues().len(),
        queues_before,
        "no dynamic queue"
    );
    connection.disconnect().unwrap();
}

#[test]
fn a_bindings_connection_is_checked_as_the_user_it_authenticated() {
    let fixture = support::start(&["APP.Q"]);
    let queue_manager = &fixture.queue_manager;
    UserRegistry::new(queue_manager.directory())
        .add("app", b"passw0rd", false)
        .unwrap();
    run(
        queue_manager,
        "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKLOCL(OPTIONAL) ADOPTCTX(YES)",
    );
    run(queue_manager, "REFRESH SECURITY TYPE(CONNAUTH)");
    let cno = Mqcno {
        security_parms: Some(Mqcsp::user_and_password("app", "passw0rd")),
        ..Mqcno::default()
    };
    app_is_checked(queue_manager, || {
        ferrite_client::Connection::connect_with(&fixture.socket, "QM1", &cno)
    });
}

#[test]
fn a_client_channel_is_checked_as_its_mcauser() {
    let listener = support::listen(support::start(&["APP.Q"]));
    let queue_manager = &listener.fixture.queue_manager;
    run(
        queue_manager,
        "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL)",
    );
    run(queue_manager, "REFRESH SECURITY TYPE(CONNAUTH)");
    run(
        queue_manager,
        "ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('app')",
    );
    app_is_checked(queue_manager, || listener.connect_client("DEV.APP.SVRCONN"));
}

#[test]
fn a_bindings_connection_runs_as_its_operating_system_user_not_the_one_it_asserts() {
    // Ferrite's client asserts $USER: make it a name that is not this process's user. (The
    // other tests here run as MCAUSER or as an adopted user, whatever $USER says.)
    std::env::set_var("USER", "someone.else");
    let fixture = support::start(&["APP.Q"]);
    let mut connection = ferrite_client::Connection::connect(&fixture.socket, "QM1").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("APP.Q"), MQOO_OUTPUT | MQOO_INPUT_AS_Q_DEF)
        .unwrap();
    ferrite_test_kit::put(
        &mut connection,
        hobj,
        ferrite_constants::put_options::MQPMO_NO_SYNCPOINT,
        b"x",
    );
    let (md, _) = ferrite_test_kit::get(
        &mut connection,
        hobj,
        ferrite_constants::get_options::MQGMO_NO_SYNCPOINT,
    )
    .unwrap();
    assert_eq!(md.user_identifier.trim(), ferrite_test_kit::this_user());
    connection.disconnect().unwrap();
}
