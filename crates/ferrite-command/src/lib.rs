//! # ferrite-command
//!
//! The command processor of a Ferrite queue manager: MQSC commands with IBM MQ's syntax and
//! semantics and MQ for z/OS's response messages (`CSQM401I`, `CSQ9022I`, ...), and the
//! command server that runs commands arriving as messages on SYSTEM.COMMAND.INPUT and
//! SYSTEM.ADMIN.COMMAND.QUEUE (MQSC text, or PCF as IBM's administration tools send it). The objects it manages are those of the storage engine's object
//! store (QLOCAL, QMODEL, QALIAS, QREMOTE, CHANNEL, PROCESS, NAMELIST, STGCLASS, AUTHINFO).
//!
//! - [`run_command`]: one MQSC command against an in-process queue manager; a
//!   [`CommandProcessor`] does the same with a channel initiator attached
//!   ([`CommandProcessor::set_channel_initiator`]), for the channel commands.
//! - [`channel_initiator`]: the [`ChannelInitiator`] trait the server's channel initiator
//!   implements (DISPLAY CHSTATUS, STOP CHANNEL, START/STOP LISTENER, DISPLAY LSSTATUS,
//!   DISPLAY CHINIT).
//! - [`default_objects`]: the objects every queue manager has (SYSTEM.DEFAULT.*, the command
//!   queues, SYSTEM.DEF.SVRCONN, DEV.APP.SVRCONN, ...).
//! - [`parser`]: scripts into commands (comments, `+`/`-` continuation), commands into
//!   keywords and values; syntax errors name the token and its position.
//! - [`server`]: [`CommandServer::start`] and its [`CommandServerHandle`].
//! - [`pcf`]: the PCF codec (MQCFH and the parameter structures, both byte orders);
//!   [`pcf_commands`]: the PCF commands the server runs, on the same object layer as MQSC.
//!
//! A command is parsed and checked completely before anything is changed: a command that fails
//! has changed nothing.
//!
//! ```no_run
//! # use std::sync::Arc;
//! # fn demo(queue_manager: Arc<ferrite_queue_manager::QueueManager>) {
//! let response = ferrite_command::run_command(&queue_manager, "DISPLAY QLOCAL(APP.*) CURDEPTH");
//! for line in &response.lines {
//!     println!("{line}");
//! }
//! assert!(response.success);
//! # }
//! ```

mod attributes;
mod authority_commands;
mod cfstruct_commands;
mod channel_authentication_commands;
mod channel_commands;
pub mod channel_initiator;
mod command_authority;
mod commands;
mod connection_commands;
mod context;
pub mod default_objects;
pub mod events;
mod group_commands;
mod object_commands;
pub mod parser;
pub mod pcf;
mod pcf_attributes;
pub mod pcf_commands;
mod pubsub_commands;
mod qmgr_commands;
mod queue_attributes;
mod queue_commands;
mod security_commands;
pub mod server;
mod shared_queue_commands;
mod statistics_commands;
mod storage_commands;
mod subscription_changes;
mod topic_commands;
mod usage;

use std::sync::{Arc, RwLock};

use ferrite_queue_manager::QueueManager;

pub use channel_commands::LISTENER_NAME;
pub use channel_initiator::{
    ChannelInitiator, ChannelInitiatorTasks, ChannelInstanceStatus, ListenerStatus,
    MessageChannelIndicators, MessageChannelStatus,
};
pub use default_objects::define_default_objects;
pub use events::CommandOrigin;
pub use parser::{split_commands, ScriptCommand, SyntaxError};
pub use server::{CommandServer, CommandServerHandle, ADMIN_COMMAND_QUEUE, COMMAND_QUEUE};

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
    commands::run(queue_manager, None, &CommandOrigin::console(), command)
}

/// What runs MQSC commands for a queue manager: its command server and its console use one.
/// The channel commands need the channel initiator, which the server attaches once its
/// listener is built:
///
/// ```no_run
/// # use std::sync::Arc;
/// # fn demo(queue_manager: Arc<ferrite_queue_manager::QueueManager>,
/// #         initiator: Arc<dyn ferrite_command::ChannelInitiator>) {
/// let processor = Arc::new(ferrite_command::CommandProcessor::new(queue_manager.clone()));
/// processor.set_channel_initiator(Some(initiator));
/// let command_server = ferrite_command::CommandServer::start_processor(
///     processor.clone(),
///     &[ferrite_command::COMMAND_QUEUE, ferrite_command::ADMIN_COMMAND_QUEUE],
///     Arc::new(|line: &str| eprintln!("{line}")),
/// );
/// let response = processor.run("DISPLAY CHSTATUS(*)");
/// # }
/// ```
pub struct CommandProcessor {
    queue_manager: Arc<QueueManager>,
    initiator: RwLock<Option<Arc<dyn ChannelInitiator>>>,
}

impl CommandProcessor {
    /// A processor for `queue_manager` with no channel initiator attached.
    pub fn new(queue_manager: Arc<QueueManager>) -> CommandProcessor {
        // MQSET's and MQCLOSE's configuration events are put by this crate (it owns their
        // format): installed wherever commands can run.
        events::install_configuration_observer(&queue_manager);
        CommandProcessor {
            queue_manager,
            initiator: RwLock::new(None),
        }
    }

    /// Attach the channel initiator (`None` detaches it, as when the channel initiator
    /// stops: the channel commands then answer CSQM131I).
    pub fn set_channel_initiator(&self, initiator: Option<Arc<dyn ChannelInitiator>>) {
        *self.initiator.write().unwrap() = initiator;
    }

    /// The attached channel initiator.
    pub fn channel_initiator(&self) -> Option<Arc<dyn ChannelInitiator>> {
        self.initiator.read().unwrap().clone()
    }

    pub fn queue_manager(&self) -> &Arc<QueueManager> {
        &self.queue_manager
    }

    /// Run one MQSC command typed at this process's console, as [`run_command`] does.
    pub fn run(&self, command: &str) -> CommandResponse {
        self.run_from(&CommandOrigin::console(), command)
    }

    /// Run one MQSC command that came from `origin` (its events report it).
    pub fn run_from(&self, origin: &CommandOrigin, command: &str) -> CommandResponse {
        let initiator = self.channel_initiator();
        commands::run(&self.queue_manager, initiator.as_deref(), origin, command)
    }
}
