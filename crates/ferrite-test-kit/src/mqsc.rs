//! MQSC commands run in-process for a test, which must succeed or must fail.

use std::sync::Arc;

use ferrite_command::run_command;
use ferrite_queue_manager::QueueManager;

/// Run the MQSC `command`, which must succeed: its response text.
pub fn mqsc_ok(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}\n{}", response.text());
    response.text()
}

/// Run the MQSC `command`, which must fail: its response text.
pub fn mqsc_fails(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(
        !response.success,
        "{command} should fail\n{}",
        response.text()
    );
    response.text()
}
