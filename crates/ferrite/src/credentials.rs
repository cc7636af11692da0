//! The user ID and password a command connects with, as IBM MQ's tools take them:
//! `runmqsc -u USER` and the samples' MQSAMP_USER_ID (amqsputc, amqsgetc, amqsbcgc).
//!
//! `-u USER` on `mqsc`, `put`, `get`, `browse` and `trigmon`; for the sample programs
//! (`put`, `get`, `browse`) the environment variable MQSAMP_USER_ID names the user when `-u`
//! does not. The password is never on the command line: on a terminal it is prompted for
//! without echo ("Enter password:", as runmqsc prompts); otherwise it is the first line of
//! standard input, and the rest of standard input is what the command reads as usual (MQSC
//! commands, lines to put), as with `runmqsc -u USER QM < file`.
//!
//! The pair goes in MQCNO's MQCSP, so the queue manager's connection authentication judges
//! it (CHCKLOCL for the bindings socket, CHCKCLNT in client mode). A stopped queue manager is
//! opened in-process by the command itself; the pair is then checked as an in-process
//! MQCONN's is (CHCKLOCL), so a wrong password fails the same way, with
//! MQRC_NOT_AUTHORIZED (2035).

use ferrite_constants::reason::MQRC_NOT_AUTHORIZED;
use ferrite_mqi::{MqError, Mqcno, Mqcsp};
use ferrite_queue_manager::{ConnectingUser, LocalAuthentication, QueueManager};

use crate::RemoteArguments;

/// The environment variable IBM's client samples read their user ID from.
pub const SAMPLE_USER_VARIABLE: &str = "MQSAMP_USER_ID";

/// Which command asks: the samples also honour [`SAMPLE_USER_VARIABLE`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Asker {
    Console,
    Sample,
}

/// The user ID and password to connect with (see the module docs), `None` when no user is
/// named. Reads the password now, before the command reads anything else from stdin.
pub fn read(remote: &RemoteArguments, asker: Asker) -> Result<Option<Mqcsp>, String> {
    let from_environment = || {
        (asker == Asker::Sample)
            .then(|| std::env::var(SAMPLE_USER_VARIABLE).ok())
            .flatten()
    };
    let Some(user) = remote.user.clone().or_else(from_environment) else {
        return Ok(None);
    };
    let user = user.trim().to_string();
    if user.is_empty() {
        return Err(format!(
            "ferrite: the user ID given (-u or {SAMPLE_USER_VARIABLE}) is blank; name a user of the queue manager's registry (`ferrite user list QM`)"
        ));
    }
    let password = crate::security::read_password("Enter password: ")
        .map_err(|error| format!("{error} (for user ID '{user}')"))?;
    Ok(Some(Mqcsp::user_and_password(&user, &password)))
}

/// MQCNO carrying `credentials` (a plain MQCNO without them).
pub fn connect_options(credentials: Option<&Mqcsp>) -> Mqcno {
    Mqcno {
        security_parms: credentials.cloned(),
        ..Mqcno::default()
    }
}

/// The message for a failed MQCONN: MQ's reason, and for MQRC_NOT_AUTHORIZED what to do.
pub fn connect_failure(error: MqError, credentials: Option<&Mqcsp>) -> String {
    let reason = error.reason;
    let message = crate::mq_failure("MQCONN", error);
    if reason != MQRC_NOT_AUTHORIZED {
        return message;
    }
    match credentials {
        Some(credentials) => format!(
            "{message}: user ID '{}' and its password were not accepted by the queue manager's connection authentication (CHCKLOCL or CHCKCLNT of the AUTHINFO CONNAUTH names; its log says why, AMQ5534E)",
            credentials.user_id
        ),
        None => format!(
            "{message}: the queue manager's connection authentication asks for a user ID and password; give them with -u USER"
        ),
    }
}

/// For a queue manager this command opened in-process: check `credentials` as an in-process
/// MQCONN's are (CHCKLOCL). Without credentials the command acts as the queue manager's
/// owner on its files, as the storage utilities do, and nothing is checked.
pub fn check_embedded(
    queue_manager: &QueueManager,
    credentials: Option<&Mqcsp>,
) -> Result<(), String> {
    let Some(credentials) = credentials else {
        return Ok(());
    };
    match queue_manager.authenticate_local(
        "in-process",
        &ConnectingUser::this_process(),
        Some((&credentials.user_id, credentials.password.as_bytes())),
    ) {
        LocalAuthentication::Accepted { .. } => Ok(()),
        LocalAuthentication::Refused { reason, fail_delay } => {
            std::thread::sleep(fail_delay);
            Err(connect_failure(MqError::failed(reason), Some(credentials)))
        }
    }
}
