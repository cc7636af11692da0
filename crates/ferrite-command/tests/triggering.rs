//! ALTER QLOCAL switching triggering on while the trigger condition already holds writes the
//! trigger message, as MQ's "Conditions for a trigger event" require; ALTER of anything else
//! does not.

use ferrite_command::run_command;
use ferrite_constants::{get_options::*, open_options::*, reason::MQRC_NO_MSG_AVAILABLE};
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod};

fn ok(queue_manager: &std::sync::Arc<ferrite_queue_manager::QueueManager>, command: &str) {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}: {}", response.text());
}

#[test]
fn alter_trigger_on_with_messages_waiting_triggers() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    ferrite_command::define_default_objects(&queue_manager).unwrap();
    ok(
        &queue_manager,
        "DEFINE PROCESS(APP.PROC) APPLTYPE(UNIX) APPLICID('/bin/true')",
    );
    ok(
        &queue_manager,
        "DEFINE QLOCAL(APP.Q) NOTRIGGER TRIGTYPE(FIRST) \
         INITQ(SYSTEM.DEFAULT.INITIATION.QUEUE) PROCESS(APP.PROC)",
    );
    let mut monitor = Connection::connect(queue_manager.clone(), "").unwrap();
    let initq = monitor
        .open(
            &mut Mqod::queue("SYSTEM.DEFAULT.INITIATION.QUEUE"),
            MQOO_INPUT_SHARED,
        )
        .unwrap();
    let mut trigger_messages = || {
        let mut count = 0;
        loop {
            let mut buffer = [0u8; 1024];
            match monitor.get(
                initq,
                &mut Mqmd::default(),
                &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
                &mut buffer,
            ) {
                Ok(_) => count += 1,
                Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => return count,
                Err(error) => panic!("{error}"),
            }
        }
    };
    ferrite_test_kit::put_messages(&queue_manager, "APP.Q", 2, false);
    assert_eq!(trigger_messages(), 0, "NOTRIGGER");
    ok(&queue_manager, "ALTER QLOCAL(APP.Q) DESCR('still off')");
    assert_eq!(trigger_messages(), 0);
    ok(&queue_manager, "ALTER QLOCAL(APP.Q) TRIGGER");
    assert_eq!(trigger_messages(), 1, "switched on with messages waiting");
    ok(&queue_manager, "ALTER QLOCAL(APP.Q) DESCR('already on')");
    assert_eq!(trigger_messages(), 0, "already on: no new condition");
}
