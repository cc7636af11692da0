//! Authority checks of the in-process MQI (MQ's object authority manager): MQCONN needs
//! connect, MQOPEN and MQPUT1 need the authority of each access they ask for on the object
//! they name (an alias or a model queue, not what it resolves to), alternate user authority,
//! dynamic queues' creators. The user is one ADOPTCTX(YES) adopts from the MQCSP, as on MQ;
//! the process's own user (the queue manager's) is an administrator.

use std::sync::Arc;

use ferrite_constants::{
    close_options::*, object_type::*, open_options::*, put_options::*, reason::*,
};
use ferrite_mqi::{Connection, Mqcno, Mqcsp, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::objects::authority_record::*;
use ferrite_queue_manager::security::users::UserRegistry;
use ferrite_queue_manager::{
    AliasDefinition, AuthInfoDefinition, ObjectDefinition, ProcessDefinition, QueueDefinition,
    QueueManager,
};
use ferrite_storage::PageSetId;

const PASSWORD: &str = "passw0rd";

/// QM1 with APP.Q, SYSTEM.SECRET, APP.ALIAS (of SYSTEM.SECRET), APP.MODEL, process APP.PRO,
/// users `app` and `bob` in its registry and an AUTHINFO that checks and adopts their IDs.
fn queue_manager() -> (tempfile::TempDir, Arc<QueueManager>) {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.Q", "SYSTEM.SECRET"]);
    for definition in [
        ObjectDefinition::Alias(AliasDefinition::new("APP.ALIAS", "SYSTEM.SECRET")),
        ObjectDefinition::Model(QueueDefinition::model("APP.MODEL", PageSetId(1))),
        ObjectDefinition::Process(ProcessDefinition::new("APP.PRO")),
        ObjectDefinition::AuthInfo(AuthInfoDefinition {
            adopt_context: true,
            ..AuthInfoDefinition::new("SYSTEM.DEFAULT.AUTHINFO.IDPWOS")
        }),
    ] {
        queue_manager.define_object(definition, false).unwrap();
    }
    queue_manager.refresh_connection_authentication().unwrap();
    for user in ["app", "bob"] {
        UserRegistry::new(directory.path())
            .add(user, PASSWORD.as_bytes(), false)
            .unwrap();
    }
    (directory, queue_manager)
}

fn connect_as(queue_manager: &Arc<QueueManager>, user: &str) -> Result<Connection, i32> {
    let cno = Mqcno {
        security_parms: Some(Mqcsp::user_and_password(user, PASSWORD)),
        ..Mqcno::default()
    };
    Connection::connect_with(queue_manager.clone(), "", &cno).map_err(|error| error.reason)
}

fn grant(
    queue_manager: &QueueManager,
    profile: &str,
    kind: AuthorityObjectType,
    user: &str,
    authorities: u32,
) {
    queue_manager
        .set_authority_record(
            profile,
            kind,
            Entity::Principal(user.to_string()),
            authorities,
            0,
        )
        .unwrap();
}

/// The reason of a call: MQRC_NONE when it completed.
fn reason<T>(result: ferrite_mqi::MqResult<T>) -> i32 {
    result.map_or_else(|error| error.reason, |_| MQRC_NONE)
}

/// MQOPEN's reason; a handle it opens is closed again.
fn open_reason(connection: &mut Connection, od: &mut Mqod, options: i32) -> i32 {
    let result = connection.open(od, options);
    if let Ok(hobj) = &result {
        connection.close(*hobj, 0).unwrap();
    }
    reason(result)
}

#[test]
fn connect_needs_connect_authority_on_the_queue_manager() {
    let (_directory, queue_manager) = queue_manager();
    assert_eq!(
        connect_as(&queue_manager, "app").err(),
        Some(MQRC_NOT_AUTHORIZED)
    );
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        "app",
        MQZAO_INQUIRE,
    );
    assert_eq!(
        connect_as(&queue_manager, "app").err(),
        Some(MQRC_NOT_AUTHORIZED)
    );
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        "app",
        MQZAO_CONNECT,
    );
    assert!(connect_as(&queue_manager, "app").is_ok());
    // The queue manager's own user needs no record.
    assert!(Connection::connect(queue_manager.clone(), "").is_ok());
}

#[test]
fn each_open_option_needs_its_authority() {
    let (_directory, queue_manager) = queue_manager();
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        "app",
        MQZAO_CONNECT,
    );
    let cases = [
        (MQOO_INPUT_AS_Q_DEF, MQZAO_INPUT),
        (MQOO_INPUT_SHARED, MQZAO_INPUT),
        (MQOO_INPUT_EXCLUSIVE, MQZAO_INPUT),
        (MQOO_BROWSE, MQZAO_BROWSE),
        (MQOO_OUTPUT, MQZAO_OUTPUT),
        (MQOO_INQUIRE, MQZAO_INQUIRE),
        (MQOO_SET, MQZAO_SET),
        (
            MQOO_OUTPUT | MQOO_PASS_IDENTITY_CONTEXT,
            MQZAO_PASS_IDENTITY_CONTEXT,
        ),
        (MQOO_OUTPUT | MQOO_PASS_ALL_CONTEXT, MQZAO_PASS_ALL_CONTEXT),
        (
            MQOO_OUTPUT | MQOO_SET_IDENTITY_CONTEXT,
            MQZAO_SET_IDENTITY_CONTEXT,
        ),
        (MQOO_OUTPUT | MQOO_SET_ALL_CONTEXT, MQZAO_SET_ALL_CONTEXT),
    ];
    // Authentication is slow by design: one connection, its authorities changed between opens.
    let mut connection = connect_as(&queue_manager, "app").unwrap();
    for (options, authority) in cases {
        let profile = "APP.Q";
        queue_manager
            .set_authority_record(
                profile,
                AuthorityObjectType::Queue,
                Entity::Principal("app".into()),
                0,
                AUTHORITY_BITS,
            )
            .unwrap();
        if options & MQOO_OUTPUT != 0 && authority != MQZAO_OUTPUT {
            grant(
                &queue_manager,
                profile,
                AuthorityObjectType::Queue,
                "app",
                MQZAO_OUTPUT,
            );
        }
        let without = open_reason(&mut connection, &mut Mqod::queue("APP.Q"), options);
        assert_eq!(
            without, MQRC_NOT_AUTHORIZED,
            "options {options:#x} without {authority:#x}"
        );
        grant(
            &queue_manager,
            profile,
            AuthorityObjectType::Queue,
            "app",
            authority,
        );
        let with = open_reason(&mut connection, &mut Mqod::queue("APP.Q"), options);
        assert_eq!(with, MQRC_NONE, "options {options:#x} with {authority:#x}");
    }
}

#[test]
fn an_alias_is_checked_by_its_own_name_not_its_target() {
    let (_directory, queue_manager) = queue_manager();
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        "app",
        MQZAO_CONNECT,
    );
    grant(
        &queue_manager,
        "APP.**",
        AuthorityObjectType::Queue,
        "app",
        MQZAO_OUTPUT,
    );
    let mut connection = connect_as(&queue_manager, "app").unwrap();
    assert_eq!(
        open_reason(
            &mut connection,
            &mut Mqod::queue("SYSTEM.SECRET"),
            MQOO_OUTPUT
        ),
        MQRC_NOT_AUTHORIZED
    );
    let mut od = Mqod::queue("APP.ALIAS");
    assert_eq!(
        open_reason(&mut connection, &mut od, MQOO_OUTPUT),
        MQRC_NONE
    );
    assert_eq!(od.resolved_q_name, "SYSTEM.SECRET");
    // Put only: getting through the alias is refused.
    assert_eq!(
        open_reason(
            &mut connection,
            &mut Mqod::queue("APP.ALIAS"),
            MQOO_INPUT_AS_Q_DEF
        ),
        MQRC_NOT_AUTHORIZED
    );
}

#[test]
fn put1_needs_put_and_the_context_authority_it_asks_for() {
    let (_directory, queue_manager) = queue_manager();
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        "app",
        MQZAO_CONNECT,
    );
    let mut connection = connect_as(&queue_manager, "app").unwrap();
    let mut put1 = |options: i32| {
        reason(connection.put1(
            &mut Mqod::queue("APP.Q"),
            &mut Mqmd::default(),
            &mut Mqpmo {
                options: options | MQPMO_NO_SYNCPOINT,
                ..Mqpmo::default()
            },
            b"x",
        ))
    };
    assert_eq!(put1(0), MQRC_NOT_AUTHORIZED);
    grant(
        &queue_manager,
        "APP.Q",
        AuthorityObjectType::Queue,
        "app",
        MQZAO_OUTPUT,
    );
    assert_eq!(put1(0), MQRC_NONE);
    assert_eq!(put1(MQPMO_SET_IDENTITY_CONTEXT), MQRC_NOT_AUTHORIZED);
    grant(
        &queue_manager,
        "APP.Q",
        AuthorityObjectType::Queue,
        "app",
        MQZAO_SET_IDENTITY_CONTEXT,
    );
    assert_eq!(put1(MQPMO_SET_IDENTITY_CONTEXT), MQRC_NONE);
    assert_eq!(
        queue_manager.queue("APP.Q").unwrap().status().current_depth,
        2
    );
}

#[test]
fn the_queue_manager_processes_and_namelists_need_inquire() {
    let (_directory, queue_manager) = queue_manager();
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        "app",
        MQZAO_CONNECT,
    );
    let mut connection = connect_as(&queue_manager, "app").unwrap();
    let qmgr = || Mqod {
        object_type: MQOT_Q_MGR,
        object_name: String::new(),
        ..Mqod::default()
    };
    let process = || Mqod {
        object_type: MQOT_PROCESS,
        object_name: "APP.PRO".into(),
        ..Mqod::default()
    };
    assert_eq!(
        open_reason(&mut connection, &mut qmgr(), MQOO_INQUIRE),
        MQRC_NOT_AUTHORIZED
    );
    assert_eq!(
        open_reason(&mut connection, &mut process(), MQOO_INQUIRE),
        MQRC_NOT_AUTHORIZED
    );
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        "app",
        MQZAO_INQUIRE,
    );
    grant(
        &queue_manager,
        "APP.*",
        AuthorityObjectType::Process,
        "app",
        MQZAO_INQUIRE,
    );
    assert_eq!(
        open_reason(&mut connection, &mut qmgr(), MQOO_INQUIRE),
        MQRC_NONE
    );
    assert_eq!(
        open_reason(&mut connection, &mut process(), MQOO_INQUIRE),
        MQRC_NONE
    );
}

#[test]
fn alternate_user_authority_checks_the_alternate_user() {
    let (_directory, queue_manager) = queue_manager();
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        "app",
        MQZAO_CONNECT,
    );
    grant(
        &queue_manager,
        "APP.Q",
        AuthorityObjectType::Queue,
        "bob",
        MQZAO_OUTPUT,
    );
    let mut connection = connect_as(&queue_manager, "app").unwrap();
    let od = || Mqod {
        alternate_user_id: "bob".into(),
        ..Mqod::queue("APP.Q")
    };
    let options = MQOO_OUTPUT | MQOO_ALTERNATE_USER_AUTHORITY;
    // app may not act for another user yet.
    assert_eq!(
        open_reason(&mut connection, &mut od(), options),
        MQRC_NOT_AUTHORIZED
    );
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        "app",
        MQZAO_ALTERNATE_USER_AUTHORITY,
    );
    // bob may put: so may app as bob, though app itself may not.
    assert_eq!(open_reason(&mut connection, &mut od(), options), MQRC_NONE);
    assert_eq!(
        open_reason(&mut connection, &mut Mqod::queue("APP.Q"), MQOO_OUTPUT),
        MQRC_NOT_AUTHORIZED
    );
    assert_eq!(
        open_reason(&mut connection, &mut od(), options | MQOO_INPUT_AS_Q_DEF),
        MQRC_NOT_AUTHORIZED
    );
}

#[test]
fn a_dynamic_queue_belongs_to_its_creator() {
    let (_directory, queue_manager) = queue_manager();
    for user in ["app", "bob"] {
        grant(
            &queue_manager,
            "QM1",
            AuthorityObjectType::QueueManager,
            user,
            MQZAO_CONNECT,
        );
    }
    let mut app = connect_as(&queue_manager, "app").unwrap();
    let model = || Mqod {
        dynamic_q_name: "APP.REPLY.*".into(),
        ..Mqod::queue("APP.MODEL")
    };
    let mut od = model();
    assert_eq!(
        open_reason(&mut app, &mut od, MQOO_INPUT_EXCLUSIVE),
        MQRC_NOT_AUTHORIZED
    );
    assert!(
        queue_manager
            .queues()
            .iter()
            .all(|queue| !queue.name().starts_with("APP.REPLY.")),
        "a refused open creates no queue"
    );
    grant(
        &queue_manager,
        "APP.MODEL",
        AuthorityObjectType::Queue,
        "app",
        MQZAO_INPUT,
    );
    let mut od = model();
    // The handle stays open: closing it would delete the temporary queue.
    app.open(&mut od, MQOO_INPUT_EXCLUSIVE).unwrap();
    let dynamic = od.object_name.clone();
    assert!(dynamic.starts_with("APP.REPLY."), "{dynamic}");
    // Its creator may use it by name; another user may not.
    assert_eq!(
        open_reason(
            &mut app,
            &mut Mqod::queue(&dynamic),
            MQOO_OUTPUT | MQOO_BROWSE
        ),
        MQRC_NONE
    );
    let mut bob = connect_as(&queue_manager, "bob").unwrap();
    assert_eq!(
        open_reason(&mut bob, &mut Mqod::queue(&dynamic), MQOO_OUTPUT),
        MQRC_NOT_AUTHORIZED
    );
}

#[test]
fn deleting_a_permanent_dynamic_queue_at_close_needs_delete_unless_it_is_yours() {
    let (_directory, queue_manager) = queue_manager();
    queue_manager
        .define_object(
            ObjectDefinition::Model(QueueDefinition {
                definition_type: ferrite_queue_manager::DefinitionType::PermanentDynamic,
                ..QueueDefinition::model("APP.PERM.MODEL", PageSetId(1))
            }),
            false,
        )
        .unwrap();
    for user in ["app", "bob"] {
        grant(
            &queue_manager,
            "QM1",
            AuthorityObjectType::QueueManager,
            user,
            MQZAO_CONNECT,
        );
    }
    grant(
        &queue_manager,
        "APP.PERM.MODEL",
        AuthorityObjectType::Queue,
        "app",
        MQZAO_INPUT,
    );
    let mut app = connect_as(&queue_manager, "app").unwrap();
    let mut od = Mqod {
        dynamic_q_name: "APP.KEPT.*".into(),
        ..Mqod::queue("APP.PERM.MODEL")
    };
    let hobj = app.open(&mut od, MQOO_INPUT_EXCLUSIVE).unwrap();
    app.close(hobj, 0).unwrap();
    let kept = od.object_name.clone();
    // Another user may read it when granted, but not delete it without dlt.
    grant(
        &queue_manager,
        &kept,
        AuthorityObjectType::Queue,
        "bob",
        MQZAO_INPUT,
    );
    let mut bob = connect_as(&queue_manager, "bob").unwrap();
    let hobj = bob
        .open(&mut Mqod::queue(&kept), MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(reason(bob.close(hobj, MQCO_DELETE)), MQRC_NOT_AUTHORIZED);
    assert!(queue_manager.queue(&kept).is_some(), "not deleted");
    bob.close(hobj, 0).unwrap();
    // Its creator may.
    let hobj = app
        .open(&mut Mqod::queue(&kept), MQOO_INPUT_SHARED)
        .unwrap();
    app.close(hobj, MQCO_DELETE).unwrap();
    assert!(
        queue_manager.queue(&kept).is_none(),
        "deleted by its creator"
    );
}
