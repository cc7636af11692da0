//! MQSC for the `ferrite` command: the command processor lives in the `ferrite-command` crate
//! (parser, commands, command server); this keeps the CLI's interface to it.

use std::sync::Arc;

use ferrite_queue_manager::QueueManager;

/// Run one MQSC command; the response lines, `Err` when the command failed.
pub fn run_command(queue_manager: &Arc<QueueManager>, command: &str) -> Result<String, String> {
    let response = ferrite_command::run_command(queue_manager, command);
    if response.success {
        Ok(response.text())
    } else {
        Err(response.text())
    }
}
