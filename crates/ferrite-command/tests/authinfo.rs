//! AUTHINFO objects and the queue manager's CONNAUTH through MQSC: MQ's defaults, the default
//! object a new queue manager's CONNAUTH names, REFRESH SECURITY TYPE(CONNAUTH) as the moment a
//! change takes effect, the objects in use that cannot be deleted, the QMGR CHCKCLNT alias,
//! and everything surviving a restart.

use std::sync::Arc;

use ferrite_command::{define_default_objects, run_command};
use ferrite_queue_manager::objects::DEFAULT_CONNECTION_AUTH_INFO;
use ferrite_queue_manager::{ObjectDefinition, ObjectType, QueueManager};
use ferrite_storage::vfs::RealFileSystem;

fn ok(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}: {}", response.text());
    response.text()
}

fn fails(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(
        !response.success,
        "{command} should fail: {}",
        response.text()
    );
    response.text()
}

/// The CHCKCLNT and ADOPTCTX in force.
fn in_force(queue_manager: &QueueManager) -> (String, Option<bool>) {
    (
        queue_manager.client_check_in_force(),
        queue_manager
            .connection_authentication()
            .definition
            .map(|definition| definition.adopt_context),
    )
}

#[test]
fn authinfo_defaults_refresh_and_in_use() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    // No default objects yet: CONNAUTH names a missing object, nothing is checked.
    assert_eq!(
        queue_manager
            .queue_manager_attributes()
            .connection_authentication,
        DEFAULT_CONNECTION_AUTH_INFO
    );
    assert_eq!(in_force(&queue_manager), ("NONE".to_string(), None));
    fails(&queue_manager, "REFRESH SECURITY TYPE(CONNAUTH)");

    let defined = define_default_objects(&queue_manager).unwrap();
    assert!(defined
        .iter()
        .any(|name| name == DEFAULT_CONNECTION_AUTH_INFO));
    // Defining the default object put it in force: MQ's CHCKCLNT(REQDADM).
    assert_eq!(
        in_force(&queue_manager),
        ("REQDADM".to_string(), Some(true))
    );
    let shown = ok(&queue_manager, "DISPLAY AUTHINFO(*) ALL");
    assert!(
        shown.contains("AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS)"),
        "{shown}"
    );
    assert!(shown.contains("AUTHTYPE(IDPWOS)") && shown.contains("ADOPTCTX(YES)"));
    assert!(shown.contains("CHCKLOCL(OPTIONAL)") && shown.contains("FAILDLAY(1)"));

    // MQ's defaults for a new object; AUTHTYPE is required and only IDPWOS exists.
    let missing = fails(&queue_manager, "DEFINE AUTHINFO(APP.AUTH)");
    assert!(
        missing.contains("CSQ9010E") && missing.contains("AUTHTYPE"),
        "{missing}"
    );
    let ldap = fails(
        &queue_manager,
        "DEFINE AUTHINFO(APP.AUTH) AUTHTYPE(IDPWLDAP)",
    );
    assert!(ldap.contains("only AUTHTYPE(IDPWOS)"), "{ldap}");
    assert!(queue_manager
        .object(ObjectType::AuthInfo, "APP.AUTH")
        .is_none());
    ok(&queue_manager, "DEFINE AUTHINFO(APP.AUTH) AUTHTYPE(IDPWOS)");
    let shown = ok(&queue_manager, "DISPLAY AUTHINFO(APP.AUTH) ALL");
    for attribute in [
        "CHCKCLNT(REQDADM)",
        "CHCKLOCL(OPTIONAL)",
        "ADOPTCTX(NO)",
        "FAILDLAY(1)",
    ] {
        assert!(shown.contains(attribute), "{attribute} in {shown}");
    }
    let bad = fails(&queue_manager, "ALTER AUTHINFO(APP.AUTH) FAILDLAY(61)");
    assert!(bad.contains("FAILDLAY"), "{bad}");
    fails(
        &queue_manager,
        "ALTER AUTHINFO(APP.AUTH) CHCKCLNT(SOMETIMES)",
    );
    ok(
        &queue_manager,
        "ALTER AUTHINFO(APP.AUTH) CHCKCLNT(REQUIRED) FAILDLAY(0) DESCR('apps')",
    );

    // CONNAUTH must name an AUTHINFO; naming one changes nothing until REFRESH SECURITY.
    let unknown = fails(&queue_manager, "ALTER QMGR CONNAUTH(NO.SUCH.AUTHINFO)");
    assert!(unknown.contains("NO.SUCH.AUTHINFO"), "{unknown}");
    ok(&queue_manager, "ALTER QMGR CONNAUTH(APP.AUTH)");
    assert!(ok(&queue_manager, "DISPLAY QMGR CONNAUTH").contains("CONNAUTH(APP.AUTH)"));
    assert_eq!(
        in_force(&queue_manager),
        ("REQDADM".to_string(), Some(true))
    );
    let refreshed = ok(&queue_manager, "REFRESH SECURITY TYPE(CONNAUTH)");
    assert!(refreshed.contains("CONNAUTH(APP.AUTH) in force: CHCKCLNT(REQUIRED)"));
    assert_eq!(
        in_force(&queue_manager),
        ("REQUIRED".to_string(), Some(false))
    );
    assert!(ok(&queue_manager, "DISPLAY QMGR CHCKCLNT").contains("CHCKCLNT(REQUIRED)"));
    // An ALTER waits for the next refresh, as in MQ.
    ok(
        &queue_manager,
        "ALTER AUTHINFO(APP.AUTH) CHCKCLNT(OPTIONAL)",
    );
    assert_eq!(queue_manager.client_check_in_force(), "REQUIRED");
    ok(&queue_manager, "REFRESH SECURITY");
    assert_eq!(queue_manager.client_check_in_force(), "OPTIONAL");
    let other_type = fails(&queue_manager, "REFRESH SECURITY TYPE(SSL)");
    assert!(other_type.contains("CSQ9032E"), "{other_type}");

    // The object CONNAUTH names is in use; another can go.
    let in_use = fails(&queue_manager, "DELETE AUTHINFO(APP.AUTH)");
    assert!(in_use.contains("CONNAUTH"), "{in_use}");
    ok(
        &queue_manager,
        "DEFINE AUTHINFO(SPARE) AUTHTYPE(IDPWOS) LIKE(APP.AUTH)",
    );
    ok(&queue_manager, "DELETE AUTHINFO(SPARE)");
    fails(&queue_manager, "DISPLAY AUTHINFO(SPARE)");

    // The QMGR CHCKCLNT alias alters the AUTHINFO CONNAUTH names and refreshes at once.
    ok(&queue_manager, "ALTER QMGR CHCKCLNT(REQUIRED)");
    assert_eq!(queue_manager.client_check_in_force(), "REQUIRED");
    assert_eq!(
        queue_manager.queue_manager_attributes().check_client,
        "NONE"
    );
    assert!(
        ok(&queue_manager, "DISPLAY AUTHINFO(APP.AUTH) CHCKCLNT").contains("CHCKCLNT(REQUIRED)")
    );

    // Everything survives a restart, and what CONNAUTH names is in force again.
    drop(queue_manager);
    let queue_manager = QueueManager::open(
        Arc::new(RealFileSystem),
        directory.path(),
        Arc::new(|_: &str| {}),
    )
    .unwrap();
    assert_eq!(
        in_force(&queue_manager),
        ("REQUIRED".to_string(), Some(false))
    );
    let Some(ObjectDefinition::AuthInfo(definition)) =
        queue_manager.object(ObjectType::AuthInfo, "APP.AUTH")
    else {
        panic!("APP.AUTH survives a restart")
    };
    assert_eq!(definition.description, "apps");
    assert_eq!(definition.fail_delay_seconds, 0);
    assert!(define_default_objects(&queue_manager).unwrap().is_empty());
    // A blank CONNAUTH: nothing checked after the refresh.
    ok(&queue_manager, "ALTER QMGR CONNAUTH(' ')");
    ok(&queue_manager, "REFRESH SECURITY(*) TYPE(CONNAUTH)");
    assert_eq!(in_force(&queue_manager), ("NONE".to_string(), None));
}

#[test]
fn a_stored_qmgr_chckclnt_still_applies_when_stricter() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    define_default_objects(&queue_manager).unwrap();
    ok(
        &queue_manager,
        &format!("ALTER AUTHINFO({DEFAULT_CONNECTION_AUTH_INFO}) CHCKCLNT(NONE)"),
    );
    ok(&queue_manager, "REFRESH SECURITY TYPE(CONNAUTH)");
    // What Ferrite's earlier versions stored, or an embedder sets through the storage API.
    let mut attributes = queue_manager.queue_manager_attributes();
    attributes.check_client = "OPTIONAL".to_string();
    queue_manager.alter_queue_manager(attributes).unwrap();
    assert_eq!(queue_manager.client_check_in_force(), "OPTIONAL");
    ok(
        &queue_manager,
        &format!("ALTER AUTHINFO({DEFAULT_CONNECTION_AUTH_INFO}) CHCKCLNT(REQDADM)"),
    );
    ok(&queue_manager, "REFRESH SECURITY TYPE(CONNAUTH)");
    assert_eq!(queue_manager.client_check_in_force(), "REQDADM");
}
