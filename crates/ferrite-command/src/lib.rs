//! # ferrite-command
//!
//! The command processor of a Ferrite queue manager: MQSC commands with IBM MQ's syntax and
//! semantics and MQ for z/OS's response messages (`CSQM401I`, `CSQ9022I`, ...), and the
//! command server that runs commands arriving as messages on SYSTEM.COMMAND.INPUT.
//!
//! - [`run_command`]: one MQSC command against an in-process queue manager.
//! - [`parser`]: scripts into commands (comments, `+`/`-` continuation), commands into
//!   keywords and values; syntax errors name the token and its position.
//! - [`server`]: [`CommandServer::start`] and its [`CommandServerHandle`].
//!
//! A command is parsed and checked completely before anything is changed: a command that fails
//! has changed nothing.
//!
//! ```no_run
//! # use std::sync::Arc;
//! # fn demo(queue_manager: Arc<ferrite_storage::queue_manager::QueueManager>) {
//! let response = ferrite_command::run_command(&queue_manager, "DISPLAY QLOCAL(APP.*) CURDEPTH");
//! for line in &response.lines {
//!     println!("{line}");
//! }
//! assert!(response.success);
//! # }
//! ```

mod attributes;
mod commands;
pub mod parser;
pub mod server;

use std::sync::Arc;

use ferrite_storage::queue_manager::QueueManager;

pub use parser::{split_commands, ScriptCommand, SyntaxError};
pub use server::{CommandServer, CommandServerHandle, COMMAND_QUEUE};

/// Storage classes and their page sets, as MQ's supplied CSQ4INYS sample defines them.
pub const STORAGE_CLASSES: [(&str, u8); 4] = [
    ("SYSTEM", 0),
    ("DEFAULT", 1),
    ("NODEFINE", 1),
    ("REMOTE", 3),
];

/// The page set of storage class `name`, if it is defined.
pub fn storage_class_page_set(name: &str) -> Option<u8> {
    STORAGE_CLASSES
        .iter()
        .find(|(class, _)| *class == name)
        .map(|(_, page_set)| *page_set)
}

/// The response to one command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandResponse {
    /// The response as an operator console shows it: each object's attributes on lines of
    /// their own (continuation lines start with a blank), ending with `CSQ9022I ... NORMAL
    /// COMPLETION` or `CSQ9023E ... ABNORMAL COMPLETION`.
    pub lines: Vec<String>,
    /// The response as MQ's command server returns it to a program: one user message per
    /// element, each object's attributes on one line (`CSQM401I QM1 QUEUE(A) TYPE(QLOCAL) ...`),
    /// multi-line reports (DISPLAY USAGE, DISPLAY LOG) as one message with `\n` between lines.
    pub messages: Vec<String>,
    /// Whether the command completed normally.
    pub success: bool,
}

impl CommandResponse {
    /// The console lines joined with newlines.
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }
}

/// Run one MQSC command (continuation lines allowed; comment lines ignored) against
/// `queue_manager`. An empty command (only blanks or comments) succeeds with no output.
pub fn run_command(queue_manager: &Arc<QueueManager>, command: &str) -> CommandResponse {
    commands::run(queue_manager, command)
}
