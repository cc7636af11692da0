//! MQSC commands run for a REST caller through the queue manager's command processor (the
//! same code `ferrite mqsc`, the command server and PCF use), and their responses read back.
//!
//! Whose authority a command runs with follows mqweb: MQWebAdmin and MQWebAdminRO run it as
//! the queue manager's own user (MQWebAdminRO only DISPLAY), MQWebUser as the user itself, so
//! that its authority records decide (command_authority.rs in ferrite-command, CSQ9016E and
//! 2035 when refused).

use ferrite_command::{CommandOrigin, CommandProcessor, CommandResponse};
use ferrite_constants::misc::{MQEVO_CONSOLE, MQEVO_MSG};
use ferrite_constants::pcf_reason::{MQRCCF_COMMAND_FAILED, MQRCCF_OBJECT_ALREADY_EXISTS};
use ferrite_constants::reason::{MQRC_NOT_AUTHORIZED, MQRC_UNKNOWN_OBJECT_NAME};

use crate::authentication::Caller;
use crate::errors::{RestError, RestResult};
use crate::roles::Role;

/// Longest MQSC command the API accepts, bytes (MQ's limit for a command is 32,762).
pub const COMMAND_BYTES_MAX: usize = 32_762;
/// The user ID in a command's origin (MQ's MQ_USER_ID_LENGTH).
const USER_ID_LENGTH: usize = 12;

/// The origin a caller's command runs with: the queue manager's own user for MQWebAdmin and
/// MQWebAdminRO, the caller for MQWebUser; `None` when the caller has no administrative role.
fn origin(caller: &Caller) -> Option<CommandOrigin> {
    let user_id: String = caller.user.chars().take(USER_ID_LENGTH).collect();
    let origin = if caller.has(Role::MqWebAdmin) || caller.has(Role::MqWebAdminRo) {
        MQEVO_CONSOLE
    } else if caller.has(Role::MqWebUser) {
        MQEVO_MSG
    } else {
        return None;
    };
    Some(CommandOrigin {
        origin,
        user_id,
        message: None,
    })
}

/// Whether `command` only displays (the one kind of command MQWebAdminRO may run).
pub fn is_display(command: &str) -> bool {
    let verb = command
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    matches!(verb.as_str(), "DISPLAY" | "DIS")
}

/// Run `command` for `caller`: 403 when its roles do not allow it; the response otherwise
/// (which may report the command's own failure).
pub fn run(
    processor: &CommandProcessor,
    caller: &Caller,
    command: &str,
) -> RestResult<CommandResponse> {
    let origin = origin(caller).ok_or_else(|| RestError::not_authorized("run MQSC commands"))?;
    let full_rights = caller.has(Role::MqWebAdmin) || caller.has(Role::MqWebUser);
    if !full_rights && !is_display(command) {
        return Err(RestError::not_authorized(
            "run commands other than DISPLAY (MQWebAdminRO)",
        ));
    }
    if command.len() > COMMAND_BYTES_MAX {
        return Err(RestError::bad_request(
            "MQWB0110E",
            format!("The command is longer than {COMMAND_BYTES_MAX} bytes."),
            ferrite_constants::reason::MQRC_DATA_LENGTH_ERROR,
        ));
    }
    Ok(processor.run_from(&origin, command))
}

/// Run `command` and turn a failure into the REST error its reason calls for.
pub fn run_checked(
    processor: &CommandProcessor,
    caller: &Caller,
    command: &str,
) -> RestResult<CommandResponse> {
    let response = run(processor, caller, command)?;
    if response.success {
        Ok(response)
    } else {
        Err(RestError::command_failed(
            reason(&response),
            &response.lines,
        ))
    }
}

/// The MQ reason a failed command's response stands for.
pub fn reason(response: &CommandResponse) -> i32 {
    for line in &response.lines {
        if line.starts_with("CSQ9016E") {
            return MQRC_NOT_AUTHORIZED;
        }
        if line.contains("X'00D44002'") || line.contains("WAS NOT FOUND") {
            return MQRC_UNKNOWN_OBJECT_NAME;
        }
        if line.contains("X'00D44003'") {
            return MQRCCF_OBJECT_ALREADY_EXISTS;
        }
    }
    MQRCCF_COMMAND_FAILED
}

/// MQSC's quoted string: `'...'` with each quote doubled.
pub fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

/// The objects of a DISPLAY's response: for each message that reports attributes (`CSQM401I
/// QM1 QUEUE(A) TYPE(QLOCAL) ...`), its keywords in order with their values (a keyword shown
/// without a value, such as NOSHARE, has an empty one).
pub fn displayed_objects(response: &CommandResponse) -> Vec<Vec<(String, String)>> {
    response
        .messages
        .iter()
        .filter(|message| !is_completion(message))
        .map(|message| attributes(message))
        .filter(|attributes| !attributes.is_empty())
        .collect()
}

fn is_completion(message: &str) -> bool {
    ["CSQ9022I", "CSQ9023E", "CSQN205I"]
        .iter()
        .any(|id| message.starts_with(id))
}

/// The `KEYWORD(value)` pairs and bare keywords of one response message, after its message
/// identifier and queue manager name.
pub fn attributes(message: &str) -> Vec<(String, String)> {
    let body = skip_prefix(message);
    let bytes = body.as_bytes();
    let mut found = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index].is_ascii_whitespace() {
            index += 1;
            continue;
        }
        let start = index;
        while index < bytes.len() && !bytes[index].is_ascii_whitespace() && bytes[index] != b'(' {
            index += 1;
        }
        let keyword = body[start..index].to_string();
        if index < bytes.len() && bytes[index] == b'(' {
            let (value, end) = parenthesised(body, index);
            found.push((keyword, value));
            index = end;
        } else if found.is_empty() {
            // Words before the first attribute (a CSECT, `DISPLAY QSTATUS DETAILS`).
            continue;
        } else if keyword == "END" {
            // `END QSTATUS DETAILS` closes a status report.
            break;
        } else if keyword.chars().all(|c| c.is_ascii_uppercase()) {
            found.push((keyword, String::new()));
        } else {
            // Free text (a report line): not an attribute list.
            return Vec::new();
        }
    }
    found
}

/// The message without its identifier (`CSQM401I`) and queue manager name.
fn skip_prefix(message: &str) -> &str {
    let mut rest = message.trim_start();
    let first = rest.split_whitespace().next().unwrap_or("");
    let is_message_id = first.len() == 8
        && first.starts_with("CSQ")
        && first.ends_with(|c: char| c.is_ascii_uppercase());
    if is_message_id {
        rest = rest[first.len()..].trim_start();
        let name = rest.split_whitespace().next().unwrap_or("");
        if !name.contains('(') {
            rest = rest[name.len()..].trim_start();
        }
    }
    rest
}

/// The value inside the parenthesis that opens at `open` (quotes and nested parentheses
/// kept whole), trimmed, and the index after its closing parenthesis.
fn parenthesised(text: &str, open: usize) -> (String, usize) {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut quoted = false;
    for (index, &byte) in bytes.iter().enumerate().skip(open) {
        match byte {
            b'\'' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted => {
                depth -= 1;
                if depth == 0 {
                    return (text[open + 1..index].trim().to_string(), index + 1);
                }
            }
            _ => {}
        }
    }
    (text[open + 1..].trim().to_string(), bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_read_from_a_display_message() {
        let found = attributes(
            "CSQM401I QM1 QUEUE(APP.ONE) TYPE(QLOCAL) DESCR(a (b) 'c') NOSHARE CURDEPTH(3)",
        );
        assert_eq!(
            found,
            vec![
                ("QUEUE".into(), "APP.ONE".into()),
                ("TYPE".into(), "QLOCAL".into()),
                ("DESCR".into(), "a (b) 'c'".into()),
                ("NOSHARE".into(), String::new()),
                ("CURDEPTH".into(), "3".into()),
            ]
        );
        assert!(attributes("CSQI010I QM1 Page set usage ...").is_empty());
        assert!(
            attributes("CSQM297I QM1 CSQMDRTS NO QUEUE FOUND MATCHING REQUEST CRITERIA").is_empty()
        );
        assert_eq!(
            attributes("CSQM201I QM1 CSQMDRTC DISPLAY QSTATUS DETAILS QSTATUS(A) CURDEPTH(2) MSGAGE( ) END QSTATUS DETAILS"),
            vec![
                ("QSTATUS".into(), "A".into()),
                ("CURDEPTH".into(), "2".into()),
                ("MSGAGE".into(), String::new()),
            ]
        );
    }

    #[test]
    fn display_is_recognised_and_values_quoted() {
        assert!(is_display("  dis ql(*)"));
        assert!(is_display("DISPLAY QMGR"));
        assert!(!is_display("DEFINE QLOCAL(A)"));
        assert_eq!(quote("it's"), "'it''s'");
    }
}
