//! Channel authentication records are stored on page set 0 with the other objects: SET
//! CHLAUTH's records (and a removal) and QMGR CHLAUTH survive a restart.

use std::sync::Arc;

use ferrite_command::run_command;
use ferrite_queue_manager::QueueManager;

fn run(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}: {}", response.text());
    response.text()
}

#[test]
fn chlauth_records_survive_a_restart() {
    let directory = tempfile::tempdir().unwrap();
    ferrite_test_kit::create(directory.path(), "QM1");
    let queue_manager = ferrite_test_kit::open(directory.path());
    run(
        &queue_manager,
        "SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('*MQADMIN','guest') DESCR('no admins')",
    );
    run(
        &queue_manager,
        "SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(MAP) MCAUSER('app')",
    );
    run(
        &queue_manager,
        "SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('10.2.*') USERSRC(NOACCESS)",
    );
    run(
        &queue_manager,
        "SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('10.2.*') ACTION(REMOVE)",
    );
    run(&queue_manager, "ALTER QMGR CHLAUTH(DISABLED)");
    let before = run(&queue_manager, "DISPLAY CHLAUTH(*)");
    queue_manager.shutdown().unwrap();
    drop(queue_manager);

    let queue_manager = ferrite_test_kit::open(directory.path());
    let after = run(&queue_manager, "DISPLAY CHLAUTH(*)");
    assert_eq!(after, before);
    assert!(after.contains("USERLIST('*MQADMIN','guest')"), "{after}");
    assert!(after.contains("DESCR(no admins)"), "{after}");
    assert!(after.contains("ADDRESS(10.1.*)"), "{after}");
    assert!(
        !after.contains("10.2.*"),
        "the removed record stays removed: {after}"
    );
    assert!(!queue_manager.channel_authentication_enabled());
    queue_manager.shutdown().unwrap();
}
