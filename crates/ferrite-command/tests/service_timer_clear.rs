//! CLEAR QLOCAL (MQSC) and MQCMD_CLEAR_Q's path are get operations for the queue service
//! timer, as MQ defines them: a clear within QSVCINT gives the OK event when OK is enabled,
//! and a cleared (empty) queue's timer is off, so no High event follows.

use std::sync::Arc;
use std::thread::sleep;
use std::time::Duration;

use ferrite_command::run_command;
use ferrite_queue_manager::QueueManager;

const EVENTS: &str = "SYSTEM.ADMIN.PERFM.EVENT";

fn ok(queue_manager: &Arc<QueueManager>, command: &str) {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}\n{}", response.text());
}

fn events(queue_manager: &QueueManager) -> u64 {
    queue_manager.queue(EVENTS).unwrap().current_depth()
}

fn setting(queue_manager: &QueueManager, queue: &str) -> String {
    queue_manager
        .queue(queue)
        .unwrap()
        .definition()
        .queue_service_interval_event
}

fn setup(event: &str, interval_ms: u32) -> (tempfile::TempDir, Arc<QueueManager>) {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    for command in [
        format!("DEFINE QLOCAL({EVENTS}) REPLACE"),
        "ALTER QMGR PERFMEV(ENABLED)".to_string(),
        format!("DEFINE QLOCAL(APP.Q) QSVCIEV({event}) QSVCINT({interval_ms})"),
    ] {
        ok(&queue_manager, &command);
    }
    (directory, queue_manager)
}

#[test]
fn clear_qlocal_within_the_interval_gives_the_ok_event() {
    let (_directory, queue_manager) = setup("OK", 10_000);
    ferrite_test_kit::put_messages(&queue_manager, "APP.Q", 3, false);
    assert_eq!(events(&queue_manager), 0);
    ok(&queue_manager, "CLEAR QLOCAL(APP.Q)");
    assert_eq!(events(&queue_manager), 1, "Queue Service Interval OK");
    assert_eq!(setting(&queue_manager, "APP.Q"), "HIGH");
}

#[test]
fn clear_qlocal_switches_the_timer_off() {
    let (_directory, queue_manager) = setup("HIGH", 500);
    ferrite_test_kit::put_messages(&queue_manager, "APP.Q", 2, false);
    ok(&queue_manager, "CLEAR QLOCAL(APP.Q)");
    // Without the clear the timer would raise High after 500 ms.
    sleep(Duration::from_millis(1_500));
    assert_eq!(events(&queue_manager), 0);
    assert_eq!(setting(&queue_manager, "APP.Q"), "HIGH");
}
