//! `ferrite trigmon QM [--initq NAME]`: the trigger monitor, MQ's runmqtrm.
//!
//! It connects to a running queue manager (through its bindings socket, or in client mode with
//! `--client HOST:PORT --channel CH`; with `-u USER` and a password as `ferrite mqsc` takes
//! them, see credentials.rs), opens the initiation queue for input (which is what
//! lets the queue manager write trigger messages to it: a trigger event needs a trigger
//! monitor on the initiation queue) and waits for trigger messages. For each MQTM it starts
//! the process's ApplId as runmqtrm does for APPLTYPE(UNIX): through the shell, with the
//! MQTMC2 (the trigger message in character form, with the queue manager's name) as the
//! first argument and EnvData after it:
//!
//! ```text
//! /bin/sh -c '<ApplId> "$1" <EnvData>' ferrite-trigmon '<MQTMC2, 732 characters>'
//! ```
//!
//! so ApplId may carry arguments of its own, and an EnvData ending in `&` runs the
//! application in the background. Otherwise the monitor waits for the application to end,
//! as runmqtrm does. Each start and its outcome are logged on standard output; an application
//! that cannot be started or fails is logged and the monitor carries on. A message that is not
//! a trigger message (Format not MQTRIG, or a malformed MQTM), or one for an application type
//! this monitor does not start, is logged and discarded.
//!
//! The monitor ends when the queue manager quiesces or stops (exit status 0) or when the
//! connection breaks (non-zero, with MQ's reason code).

use std::process::Command;

use ferrite_constants::{
    appl_type::MQAT_UNIX, format::MQFMT_TRIGGER, get_options::*, open_options::*, reason::*,
};
use ferrite_message::trigger_message::TriggerMessage;
use ferrite_mqi::{MqError, Mqgmo, Mqmd, Mqod};
use ferrite_protocol::ByteOrder;

use crate::{endpoint, mq_failure, RemoteArguments};

/// The initiation queue a trigger monitor serves unless told otherwise (MQ's default).
pub const DEFAULT_INITIATION_QUEUE: &str = "SYSTEM.DEFAULT.INITIATION.QUEUE";

/// How long one MQGET waits before the monitor waits again; bounds how long a stopped
/// queue manager goes unnoticed on a connection that cannot report it.
const GET_WAIT_INTERVAL_MS: i32 = 60_000;

/// Trigger messages are 684 bytes; room for anything a little larger that arrives by mistake.
const MESSAGE_BUFFER_BYTES: usize = 4096;

/// The shell that runs ApplId.
const SHELL: &str = "/bin/sh";

/// `ferrite trigmon`: serve `initiation_queue` of `queue_manager` until it ends.
pub fn run(
    queue_manager: &str,
    initiation_queue: &str,
    remote: &RemoteArguments,
) -> Result<(), String> {
    let Some(endpoint) = endpoint(queue_manager, remote)? else {
        return Err(format!(
            "ferrite: queue manager {queue_manager} is not running; start it with \
             'ferrite start {queue_manager}' [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"
        ));
    };
    let credentials = crate::credentials::read(remote, crate::credentials::Asker::Console)?;
    let mut connection = endpoint.connect(queue_manager, credentials.as_ref())?;
    let q_mgr_name = connection.q_mgr_name().to_string();
    let hobj = connection
        .open(
            &mut Mqod::queue(initiation_queue),
            MQOO_INPUT_AS_Q_DEF | MQOO_FAIL_IF_QUIESCING,
        )
        .map_err(|error| {
            format!(
                "{} (initiation queue {initiation_queue})",
                mq_failure("MQOPEN", error)
            )
        })?;
    log(&format!(
        "waiting for trigger messages on {initiation_queue} of {q_mgr_name}"
    ));
    let mut buffer = vec![0u8; MESSAGE_BUFFER_BYTES];
    loop {
        let mut md = Mqmd::default();
        let mut gmo = Mqgmo::with_options(
            MQGMO_WAIT | MQGMO_NO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING | MQGMO_ACCEPT_TRUNCATED_MSG,
        );
        gmo.wait_interval = GET_WAIT_INTERVAL_MS;
        let result = match connection.get(hobj, &mut md, &mut gmo, &mut buffer) {
            Ok(result) => result,
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => continue,
            Err(error) if ends_monitor_cleanly(&error) => {
                log(&format!(
                    "queue manager {q_mgr_name} is ending ({}); trigger monitor ends",
                    error.reason_name()
                ));
                let _ = connection.disconnect();
                return Ok(());
            }
            Err(error) => return Err(mq_failure("MQGET", error)),
        };
        let data = &buffer[..result.returned_length];
        match trigger_message_of(&md, data) {
            Ok(trigger) => start_application(&trigger, &q_mgr_name),
            Err(problem) => log(&format!("discarded a message: {problem}")),
        }
    }
}

/// Reasons after which the monitor ends with success: the queue manager is going away.
fn ends_monitor_cleanly(error: &MqError) -> bool {
    [
        MQRC_Q_MGR_QUIESCING,
        MQRC_Q_MGR_STOPPING,
        MQRC_CONNECTION_QUIESCING,
        MQRC_CONNECTION_STOPPING,
    ]
    .contains(&error.reason)
}

/// The MQTM in a message from the initiation queue, or why it is not one.
fn trigger_message_of(md: &Mqmd, data: &[u8]) -> Result<TriggerMessage, String> {
    if md.format != MQFMT_TRIGGER {
        return Err(format!(
            "Format is '{}', not MQTRIG (MQRC_FORMAT_ERROR)",
            String::from_utf8_lossy(&md.format).trim_end()
        ));
    }
    let order = ByteOrder::from_mq_encoding(md.encoding).ok_or_else(|| {
        format!(
            "Encoding {} gives no integer byte order (MQRC_FORMAT_ERROR)",
            md.encoding
        )
    })?;
    TriggerMessage::decode(data, order).map_err(|error| error.to_string())
}

/// Start the application a trigger message names (APPLTYPE UNIX), wait for it unless its
/// EnvData puts it in the background, and log what happened. Never fails: a trigger monitor
/// outlives the applications it starts.
fn start_application(trigger: &TriggerMessage, q_mgr_name: &str) {
    if trigger.appl_type != MQAT_UNIX {
        log(&format!(
            "trigger for queue {}: application type {} is not started by this trigger monitor \
             (APPLTYPE UNIX only) (MQFB_APPL_TYPE_ERROR)",
            trigger.q_name, trigger.appl_type
        ));
        return;
    }
    if trigger.appl_id.is_empty() {
        log(&format!(
            "trigger for queue {}: process {} has no APPLICID to start",
            trigger.q_name, trigger.process_name
        ));
        return;
    }
    let character_form = match trigger.character_form(q_mgr_name) {
        Ok(bytes) => String::from_utf8(bytes).expect("MQTMC2 fields are ASCII"),
        Err(error) => {
            log(&format!(
                "trigger for queue {}: cannot build MQTMC2: {error}",
                trigger.q_name
            ));
            return;
        }
    };
    let command_line = format!("{} \"$1\" {}", trigger.appl_id, trigger.env_data);
    log(&format!(
        "starting '{}' for queue {} (process {})",
        trigger.appl_id, trigger.q_name, trigger.process_name
    ));
    let status = Command::new(SHELL)
        .arg("-c")
        .arg(&command_line)
        .arg("ferrite-trigmon")
        .arg(&character_form)
        .status();
    match status {
        Ok(status) if status.success() => log(&format!(
            "'{}' for queue {} ended normally",
            trigger.appl_id, trigger.q_name
        )),
        Ok(status) => log(&format!(
            "'{}' for queue {} ended with {status}",
            trigger.appl_id, trigger.q_name
        )),
        Err(error) => log(&format!(
            "could not start '{}' for queue {}: {error}",
            trigger.appl_id, trigger.q_name
        )),
    }
}

fn log(line: &str) {
    println!("ferrite trigmon: {line}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_constants::encoding::MQENC_NATIVE;

    fn trigger() -> TriggerMessage {
        TriggerMessage {
            q_name: "APP.Q".into(),
            process_name: "APP.PROC".into(),
            appl_type: MQAT_UNIX,
            appl_id: "true".into(),
            ..TriggerMessage::default()
        }
    }

    #[test]
    fn only_trigger_messages_are_accepted() {
        let data = trigger()
            .encode(ByteOrder::from_mq_encoding(MQENC_NATIVE).unwrap())
            .unwrap();
        let md = Mqmd {
            format: MQFMT_TRIGGER,
            encoding: MQENC_NATIVE,
            ..Mqmd::default()
        };
        assert_eq!(trigger_message_of(&md, &data), Ok(trigger()));
        let not_trigger = Mqmd {
            format: *b"MQSTR   ",
            ..md.clone()
        };
        assert!(trigger_message_of(&not_trigger, &data)
            .unwrap_err()
            .contains("MQSTR"));
        assert!(trigger_message_of(&md, &data[..100]).is_err());
    }
}
