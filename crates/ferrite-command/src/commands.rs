//! The commands: parse and check everything, then act, then answer in MQ for z/OS's style.

use std::sync::Arc;

use ferrite_constants::reason;
use ferrite_queue_manager::{
    now_ms, LocalQueue, MessageSelector, ObjectType, QueueDefinition, QueueManager,
    ACCOUNTING_VALUES, MONITORING_VALUES, PROPERTY_CONTROL_VALUES, PUT_RESPONSE_VALUES,
    READ_AHEAD_VALUES, SERVICE_INTERVAL_EVENT_VALUES, TRIGGER_DATA_LENGTH_MAX, TRIGGER_TYPE_VALUES,
};
use ferrite_storage::{PageSetId, StorageError};

use crate::attributes::{date_time, generic_match, AttributeValue, Filter};
use crate::channel_commands;
use crate::channel_initiator::ChannelInitiator;
use crate::connection_commands;
use crate::events::{self, CommandOrigin, CommandReport, ConfigWatch, Target};
use crate::object_commands;
use crate::parser::{split_commands, tokenize, SyntaxError, Token, Value};
use crate::qmgr_commands;
use crate::{storage_class_page_set, CommandResponse};

/// Verbs with MQ's synonyms.
pub(crate) const VERBS: &[(&str, &str)] = &[
    ("ALTER", "ALT"),
    ("ARCHIVE", "ARC"),
    ("CLEAR", "CLEAR"),
    ("DEFINE", "DEF"),
    ("DELETE", "DELETE"),
    ("DISPLAY", "DIS"),
    ("REFRESH", "REF"),
    ("RESET", "RESET"),
    ("SET", "SET"),
    ("START", "STA"),
    ("STOP", "STOP"),
];

/// Object keywords with MQ's synonyms.
pub(crate) const OBJECTS: &[(&str, &str)] = &[
    ("QLOCAL", "QL"),
    ("QUEUE", "Q"),
    ("QSTATUS", "QS"),
    ("QSTATS", "QSTATS"),
    ("QMGR", "QMGR"),
    ("USAGE", "USAGE"),
    ("LOG", "LOG"),
    ("SYSTEM", "SYSTEM"),
    ("CONN", "CONN"),
    ("QMODEL", "QM"),
    ("QALIAS", "QA"),
    ("QREMOTE", "QR"),
    ("STGCLASS", "STGCLASS"),
    ("PROCESS", "PRO"),
    ("NAMELIST", "NL"),
    ("CHANNEL", "CHL"),
    ("TOPIC", "TOPIC"),
    ("SUB", "SUB"),
    ("PSID", "PSID"),
    ("BUFFPOOL", "BUFFPOOL"),
    ("CMDSERV", "CMDSERV"),
    ("CHSTATUS", "CHS"),
    ("THREAD", "THREAD"),
    ("TRACE", "TRACE"),
    ("LISTENER", "LSTR"),
    ("LSSTATUS", "LSSTATUS"),
    ("CHINIT", "CHI"),
    ("AUTHINFO", "AUTHINFO"),
    ("SECURITY", "SEC"),
    ("CHLAUTH", "CHLAUTH"),
];

fn canonical(table: &[(&'static str, &'static str)], word: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(full, synonym)| word == *full || word == *synonym)
        .map(|(full, _)| *full)
}

/// What a command produces before its completion message.
#[derive(Default)]
pub(crate) struct Output {
    pub(crate) messages: Vec<Message>,
}

pub(crate) enum Message {
    /// `head` then the attributes: on the console the first attribute follows the head and the
    /// others are on lines of their own; for a program, one line. `tail` ends the block.
    Attributes {
        head: String,
        attributes: Vec<String>,
        tail: Option<String>,
    },
    /// As `Attributes`, but on the console every attribute is on a line of its own
    /// (`CSQM201I ... DISPLAY QSTATUS DETAILS`, then `QSTATUS(name)`, ...).
    Details {
        head: String,
        attributes: Vec<String>,
        tail: String,
    },
    /// A multi-line report.
    Text(Vec<String>),
}

impl Output {
    pub(crate) fn line(&mut self, line: String) {
        self.messages.push(Message::Text(vec![line]));
    }

    /// A report from the storage engine: one message per line that starts with a message id.
    pub(crate) fn report(&mut self, text: &str) {
        for line in text.lines() {
            let starts_message =
                line.starts_with("CSQ") || !matches!(self.messages.last(), Some(Message::Text(_)));
            if starts_message {
                self.messages.push(Message::Text(vec![line.to_string()]));
            } else if let Some(Message::Text(lines)) = self.messages.last_mut() {
                lines.push(line.to_string());
            }
        }
    }

    pub(crate) fn attributes(
        &mut self,
        head: String,
        attributes: Vec<String>,
        tail: Option<String>,
    ) {
        self.messages.push(Message::Attributes {
            head,
            attributes,
            tail,
        });
    }

    pub(crate) fn details(&mut self, head: String, attributes: Vec<String>, tail: &str) {
        self.messages.push(Message::Details {
            head,
            attributes,
            tail: tail.to_string(),
        });
    }

    pub(crate) fn finish(self, completion: String, success: bool) -> CommandResponse {
        let mut lines = Vec::new();
        let mut messages = Vec::new();
        for message in self.messages {
            match message {
                Message::Attributes {
                    head,
                    attributes,
                    tail,
                } => {
                    let mut iterator = attributes.iter();
                    match iterator.next() {
                        Some(first) => lines.push(format!("{head} {first}")),
                        None => lines.push(head.clone()),
                    }
                    lines.extend(iterator.map(|attribute| format!(" {attribute}")));
                    let mut one = head;
                    for attribute in &attributes {
                        one.push(' ');
                        one.push_str(attribute);
                    }
                    if let Some(tail) = tail {
                        lines.push(format!(" {tail}"));
                        one.push(' ');
                        one.push_str(&tail);
                    }
                    messages.push(one);
                }
                Message::Details {
                    head,
                    attributes,
                    tail,
                } => {
                    lines.push(head.clone());
                    lines.extend(attributes.iter().map(|attribute| format!(" {attribute}")));
                    lines.push(format!(" {tail}"));
                    messages.push(format!("{head} {} {tail}", attributes.join(" ")));
                }
                Message::Text(text) => {
                    messages.push(text.join("\n"));
                    lines.extend(text);
                }
            }
        }
        lines.push(completion.clone());
        messages.push(completion);
        CommandResponse {
            lines,
            messages,
            success,
        }
    }
}

/// Why a command failed: messages before the CSQ9023E.
pub(crate) struct Failure(pub(crate) Vec<String>);

impl From<String> for Failure {
    fn from(line: String) -> Failure {
        Failure(vec![line])
    }
}

pub(crate) type Outcome = Result<Output, Failure>;

/// Keywords found in a command, with their values, in the order given.
pub(crate) type Found<'t> = Vec<(&'t Token, Option<&'t Value>)>;

pub(crate) struct Context<'a> {
    pub(crate) queue_manager: &'a Arc<QueueManager>,
    pub(crate) name: String,
    /// The channel initiator, when one is attached (channel status and listener commands).
    pub(crate) initiator: Option<&'a dyn ChannelInitiator>,
    /// Where the command came from (its command and configuration events say).
    pub(crate) origin: &'a CommandOrigin,
}

impl Context<'_> {
    pub(crate) fn syntax(&self, error: SyntaxError) -> Failure {
        Failure(vec![error.line(&self.name)])
    }

    pub(crate) fn not_found(&self, csect: &str, object: &str, name: &str) -> Failure {
        Failure(vec![
            format!(
                "CSQM125I {} {csect} {object}({name}) QSGDISP(QMGR) WAS NOT FOUND",
                self.name
            ),
            format!(
                "CSQM090E {} {csect} FAILURE REASON CODE X'00D44002'",
                self.name
            ),
        ])
    }

    pub(crate) fn storage(&self, csect: &str, error: StorageError) -> Failure {
        let code = error.reason_code();
        Failure(vec![format!(
            "CSQM090E {} {csect} FAILURE REASON CODE X'{code:08X}': {error}",
            self.name
        )])
    }
}

pub fn run(
    queue_manager: &Arc<QueueManager>,
    initiator: Option<&dyn ChannelInitiator>,
    origin: &CommandOrigin,
    text: &str,
) -> CommandResponse {
    crate::events::install_configuration_observer(queue_manager);
    let context = Context {
        queue_manager,
        name: queue_manager.name().to_string(),
        initiator,
        origin,
    };
    let commands = split_commands(text);
    let command = match commands.as_slice() {
        [] => {
            return CommandResponse {
                success: true,
                ..CommandResponse::default()
            }
        }
        [command] => command.text.clone(),
        [_, second, ..] => {
            let mut output = Output::default();
            output.line(format!(
                "CSQ9001E {} Only one command is allowed; a second starts on line {}",
                context.name, second.line
            ));
            return output.finish(
                format!("CSQ9023E {} CSQ9SCND ' ' ABNORMAL COMPLETION", context.name),
                false,
            );
        }
    };
    let tokens = match tokenize(&command) {
        Ok(tokens) => tokens,
        Err(error) => {
            // The verb and object as far as they can be recognised.
            let label = command
                .split_whitespace()
                .take(2)
                .map(|word| {
                    let word = word.split('(').next().unwrap_or("").to_uppercase();
                    canonical(VERBS, &word)
                        .or_else(|| canonical(OBJECTS, &word))
                        .map(str::to_string)
                        .unwrap_or(word)
                })
                .filter(|word| !word.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            return fail(&context, "CSQ9SCND", &label, context.syntax(error));
        }
    };
    let Some(verb_token) = tokens.first() else {
        return CommandResponse {
            success: true,
            ..CommandResponse::default()
        };
    };
    let Some(verb) = canonical(VERBS, &verb_token.keyword).filter(|_| verb_token.value.is_none())
    else {
        return fail(
            &context,
            "CSQ9SCND",
            &verb_token.keyword,
            context.syntax(SyntaxError::new(
                format!("CSQ9001E '{}' is invalid", verb_token.keyword),
                verb_token.position,
            )),
        );
    };
    let Some(object_token) = tokens.get(1) else {
        return fail(
            &context,
            "CSQ9SCND",
            verb,
            context.syntax(SyntaxError::new(
                format!("CSQ9010E Required parameter for '{verb}' is missing"),
                verb_token.position + verb_token.keyword.chars().count(),
            )),
        );
    };
    let Some(object) = canonical(OBJECTS, &object_token.keyword) else {
        return fail(
            &context,
            "CSQ9SCND",
            verb,
            context.syntax(SyntaxError::new(
                format!("CSQ9001E '{}' is invalid", object_token.keyword),
                object_token.position,
            )),
        );
    };
    let rest = &tokens[2..];
    let label = format!("{verb} {object}");
    let object_type = ObjectType::from_keyword(object);
    // What the command's events need from before it runs (events.rs).
    let command_events_before = queue_manager.queue_manager_attributes().command_events;
    let watch = match configuration_target(verb, object_type, object_token) {
        Some(target) => ConfigWatch::begin(&context, target),
        None => ConfigWatch::none(),
    };
    let (csect, outcome): (&str, Outcome) = match (verb, object, object_type) {
        ("ALTER", "QMGR", _) => (
            "CSQMAMMS",
            qmgr_commands::alter_qmgr(&context, object_token, rest),
        ),
        ("DISPLAY", "QMGR", _) => (
            "CSQMDRTS",
            qmgr_commands::display_qmgr(&context, object_token, rest),
        ),
        ("SET", "CHLAUTH", _) => (
            "CSQMSCA",
            crate::channel_authentication_commands::set(&context, object_token, rest),
        ),
        ("DISPLAY", "CHLAUTH", _) => (
            "CSQMDRTS",
            crate::channel_authentication_commands::display(&context, object_token, rest),
        ),
        ("DEFINE" | "ALTER" | "DELETE", "CHLAUTH", _) => (
            "CSQ9SCND",
            Err(context.syntax(SyntaxError::new(
                format!(
                    "CSQ9001E '{}' is invalid: channel authentication records are made and removed by SET CHLAUTH",
                    object_token.keyword
                ),
                object_token.position,
            ))),
        ),
        ("DEFINE" | "DELETE", "QMGR", _) => (
            "CSQ9SCND",
            Err(context.syntax(SyntaxError::new(
                format!("CSQ9001E '{}' is invalid", object_token.keyword),
                object_token.position,
            ))),
        ),
        ("DEFINE" | "ALTER", _, Some(object_type)) => (
            "CSQMMSGP",
            object_commands::define_or_alter(
                &context,
                verb == "ALTER",
                object_type,
                object_token,
                rest,
            ),
        ),
        ("DELETE", "QLOCAL", _) => ("CSQMUQLC", delete(&context, object_token, rest)),
        ("DELETE", _, Some(object_type)) => (
            "CSQMUQLC",
            object_commands::delete(&context, object_type, object_token, rest),
        ),
        ("CLEAR", "QLOCAL", _) => ("CSQMUQLC", clear(&context, object_token, rest)),
        ("DISPLAY", "QUEUE", _) => (
            "CSQMDRTS",
            display_queue(&context, None, object_token, rest),
        ),
        ("DISPLAY", _, Some(object_type)) if object_type.is_queue() => (
            "CSQMDRTS",
            display_queue(&context, Some(object_type), object_token, rest),
        ),
        ("DISPLAY", _, Some(object_type)) => (
            "CSQMDRTS",
            object_commands::display(&context, object_type, object_token, rest),
        ),
        ("DISPLAY", "CHSTATUS", _) => (
            "CSQXDRTS",
            channel_commands::display_channel_status(&context, object_token, rest),
        ),
        ("STOP", "CHANNEL", _) => (
            "CSQXCRPS",
            channel_commands::stop_channel(&context, object_token, rest),
        ),
        ("START", "LISTENER", _) => (
            "CSQXCRPS",
            channel_commands::start_listener(&context, object_token, rest),
        ),
        ("STOP", "LISTENER", _) => (
            "CSQXCRPS",
            channel_commands::stop_listener(&context, object_token, rest),
        ),
        ("DISPLAY", "LSSTATUS", _) => (
            "CSQXDRTS",
            channel_commands::display_listener_status(&context, object_token, rest),
        ),
        ("DISPLAY", "CHINIT", _) => (
            "CSQXCRPS",
            channel_commands::display_channel_initiator(&context, object_token, rest),
        ),
        ("DISPLAY", "QSTATUS", _) => ("CSQMDRTC", display_status(&context, object_token, rest)),
        ("DISPLAY", "CONN", _) => (
            "CSQMDRTC",
            connection_commands::display_connections(&context, object_token, rest),
        ),
        ("DISPLAY", "USAGE", _) => (
            "CSQIDUSE",
            crate::usage::display_usage(&context, object_token, rest),
        ),
        ("DISPLAY", "LOG", _) => ("CSQJC001", display_log(&context, object_token, rest)),
        ("DISPLAY", "SYSTEM", _) => ("CSQJC001", display_system(&context, object_token, rest)),
        ("ARCHIVE", "LOG", _) => ("CSQJC001", archive_log(&context, object_token, rest)),
        ("REFRESH", "QMGR", _) => ("CSQMREFR", refresh_qmgr(&context, object_token, rest)),
        ("DEFINE" | "ALTER" | "DELETE", "BUFFPOOL", _) => (
            "CSQPCMDS",
            crate::storage_commands::buffer_pool(&context, verb, object_token, rest),
        ),
        ("DEFINE" | "ALTER" | "DELETE", "PSID", _) => (
            "CSQPCMDS",
            crate::storage_commands::page_set(&context, verb, object_token, rest),
        ),
        ("REFRESH", "SECURITY", _) => (
            "CSQHREFR",
            crate::security_commands::refresh_security(&context, object_token, rest),
        ),
        ("RESET", "QSTATS", _) => ("CSQMRQST", reset_qstats(&context, object_token, rest)),
        _ => (
            "CSQ9SCND",
            Err(Failure(vec![format!(
                "CSQ9032E {} CSQ9SCND Requested function is not available: '{label}' is not implemented yet",
                context.name
            )])),
        ),
    };
    match outcome {
        Ok(output) => {
            watch.finish(&context);
            events::report_command(
                &context,
                &CommandReport::mqsc(verb, object, command.trim()),
                &command_events_before,
            );
            output.finish(
                format!(
                    "CSQ9022I {} {csect} ' {label}' NORMAL COMPLETION",
                    context.name
                ),
                true,
            )
        }
        Err(failure) => fail(&context, csect, &label, failure),
    }
}

/// The object a configuration event would report for MQSC `verb` of `object_type` (DEFINE,
/// ALTER and DELETE of the object types MQ reports, and ALTER QMGR); `None` for any other
/// command, and for a name that is not valid (the command fails).
fn configuration_target(
    verb: &str,
    object_type: Option<ObjectType>,
    object: &Token,
) -> Option<Target> {
    if !matches!(verb, "DEFINE" | "ALTER" | "DELETE") {
        return None;
    }
    match object_type? {
        ObjectType::QueueManager => (verb == "ALTER").then_some(Target::QueueManager),
        ObjectType::ChannelAuthentication => None,
        object_type => {
            let name = object_name(object, false).ok()?;
            Some(if object_type.is_queue() {
                Target::Queue(name)
            } else {
                Target::Object(object_type, name)
            })
        }
    }
}

pub(crate) fn fail(
    context: &Context,
    csect: &str,
    label: &str,
    failure: Failure,
) -> CommandResponse {
    let mut output = Output::default();
    for line in failure.0 {
        output.line(line);
    }
    output.finish(
        format!(
            "CSQ9023E {} {csect} ' {label}' ABNORMAL COMPLETION",
            context.name
        ),
        false,
    )
}

// ----- keyword checking -----------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Takes {
    Value,
    Nothing,
}

/// The keywords after the object, checked against what the command allows: each known,
/// given once, with a value exactly when it takes one. Returns them in the order given.
pub(crate) fn keywords<'t>(
    tokens: &'t [Token],
    allowed: &[(&str, Takes)],
) -> Result<Found<'t>, SyntaxError> {
    let mut seen: Vec<&str> = Vec::new();
    let mut result = Vec::new();
    for token in tokens {
        let Some((name, takes)) = allowed.iter().find(|(name, _)| *name == token.keyword) else {
            return Err(SyntaxError::new(
                format!("CSQ9001E '{}' is invalid", token.keyword),
                token.position,
            ));
        };
        if seen.contains(name) {
            return Err(SyntaxError::new(
                format!("CSQ9000E '{}' repeated", token.keyword),
                token.position,
            ));
        }
        seen.push(name);
        match (takes, &token.value) {
            (Takes::Value, None) => {
                return Err(SyntaxError::new(
                    format!("CSQ9004E '{}' needs a value in parentheses", token.keyword),
                    token.position + token.keyword.chars().count(),
                ))
            }
            (Takes::Nothing, Some(value)) => {
                return Err(SyntaxError::new(
                    format!("CSQ9004E '{}' does not take a value", token.keyword),
                    value.position.saturating_sub(1),
                ))
            }
            _ => {}
        }
        result.push((token, token.value.as_ref()));
    }
    Ok(result)
}

pub(crate) fn exclusive(
    found: &[(&Token, Option<&Value>)],
    a: &str,
    b: &str,
) -> Result<(), SyntaxError> {
    let has = |name: &str| found.iter().find(|(token, _)| token.keyword == name);
    if let (Some(_), Some((second, _))) = (has(a), has(b)) {
        return Err(SyntaxError::new(
            format!("CSQ9011E '{a}' and '{b}' cannot both be specified"),
            second.position,
        ));
    }
    Ok(())
}

/// The object's name: required, a valid MQ object name (a trailing `*` when `generic`).
pub(crate) fn object_name(object: &Token, generic: bool) -> Result<String, SyntaxError> {
    let Some(value) = &object.value else {
        return Err(SyntaxError::new(
            format!(
                "CSQ9010E Required parameter '{}' name is missing",
                object.keyword
            ),
            object.position + object.keyword.chars().count(),
        ));
    };
    let name = value.text.as_str();
    let stem = if generic {
        name.strip_suffix('*').unwrap_or(name)
    } else {
        name
    };
    let valid = name.len() <= 48
        && (!stem.is_empty() || (generic && name == "*"))
        && stem
            .chars()
            .all(ferrite_storage::config::is_object_name_char);
    if !valid {
        return Err(SyntaxError::new(
            format!(
                "CSQ9004E '{}' value '{name}' is not a valid {}name",
                object.keyword,
                if generic { "or generic " } else { "" }
            ),
            value.position,
        ));
    }
    Ok(name.to_string())
}

pub(crate) fn value_error(token: &Token, value: &Value, why: &str) -> SyntaxError {
    SyntaxError::new(
        format!(
            "CSQ9004E '{}' value '{}' is not valid: {why}",
            token.keyword, value.text
        ),
        value.position,
    )
}

pub(crate) fn number(token: &Token, value: &Value, limit: u64) -> Result<u64, SyntaxError> {
    value
        .text
        .parse::<u64>()
        .ok()
        .filter(|number| *number <= limit)
        .ok_or_else(|| {
            value_error(
                token,
                value,
                &format!("a number from 0 to {limit} is needed"),
            )
        })
}

pub(crate) fn choice(token: &Token, value: &Value, choices: &[&str]) -> Result<usize, SyntaxError> {
    choices
        .iter()
        .position(|choice| *choice == value.text)
        .ok_or_else(|| {
            value_error(
                token,
                value,
                &format!("one of {} is needed", choices.join(", ")),
            )
        })
}

// ----- DEFINE / ALTER / DELETE / CLEAR QLOCAL --------------------------------------------------

pub(crate) const QLOCAL_ATTRIBUTES: &[(&str, Takes)] = &[
    ("DESCR", Takes::Value),
    ("STGCLASS", Takes::Value),
    ("MAXDEPTH", Takes::Value),
    ("MAXMSGL", Takes::Value),
    ("DEFPSIST", Takes::Value),
    ("DEFPRTY", Takes::Value),
    ("INDXTYPE", Takes::Value),
    ("PUT", Takes::Value),
    ("GET", Takes::Value),
    ("QSGDISP", Takes::Value),
    ("BOTHRESH", Takes::Value),
    ("BOQNAME", Takes::Value),
    ("HARDENBO", Takes::Nothing),
    ("NOHARDENBO", Takes::Nothing),
    ("SHARE", Takes::Nothing),
    ("NOSHARE", Takes::Nothing),
    ("DEFSOPT", Takes::Value),
    ("MSGDLVSQ", Takes::Value),
    ("RETINTVL", Takes::Value),
    ("DEFREADA", Takes::Value),
    ("DEFPRESP", Takes::Value),
    ("PROPCTL", Takes::Value),
    ("ACCTQ", Takes::Value),
    ("MONQ", Takes::Value),
    ("STATQ", Takes::Value),
    ("USAGE", Takes::Value),
    ("TRIGGER", Takes::Nothing),
    ("NOTRIGGER", Takes::Nothing),
    ("TRIGTYPE", Takes::Value),
    ("TRIGDPTH", Takes::Value),
    ("TRIGMPRI", Takes::Value),
    ("INITQ", Takes::Value),
    ("PROCESS", Takes::Value),
    ("TRIGDATA", Takes::Value),
    ("QDPHIEV", Takes::Value),
    ("QDEPTHHI", Takes::Value),
    ("QDPLOEV", Takes::Value),
    ("QDEPTHLO", Takes::Value),
    ("QDPMAXEV", Takes::Value),
    ("QSVCIEV", Takes::Value),
    ("QSVCINT", Takes::Value),
];

/// Keyword pairs of QLOCAL/QMODEL of which at most one may be given.
pub(crate) const QLOCAL_EXCLUSIVE_FLAGS: &[(&str, &str)] = &[
    ("HARDENBO", "NOHARDENBO"),
    ("SHARE", "NOSHARE"),
    ("TRIGGER", "NOTRIGGER"),
];

/// A queue or queue manager name, or blank (BOQNAME, INITQ, PROCESS, DEADQ).
pub(crate) fn name_or_blank(token: &Token, value: &Value) -> Result<String, SyntaxError> {
    let name = value.text.trim();
    let valid = name.is_empty()
        || (name.len() <= 48
            && name
                .chars()
                .all(ferrite_storage::config::is_object_name_char));
    if !valid {
        return Err(value_error(token, value, "not a valid MQ object name"));
    }
    Ok(name.to_string())
}

/// One of `choices` (MQ's keywords for the attribute), as the stored text.
fn keyword_value(token: &Token, value: &Value, choices: &[&str]) -> Result<String, SyntaxError> {
    Ok(choices[choice(token, value, choices)?].to_string())
}

/// Apply the attributes to `definition`; every value is checked (nothing is stored here).
pub(crate) fn apply_attributes(
    context: &Context,
    definition: &mut QueueDefinition,
    found: &[(&Token, Option<&Value>)],
) -> Result<(), SyntaxError> {
    for (token, value) in found {
        match token.keyword.as_str() {
            "HARDENBO" => definition.hardened_backout = true,
            "NOHARDENBO" => definition.hardened_backout = false,
            "SHARE" => definition.shareable = true,
            "NOSHARE" => definition.shareable = false,
            "TRIGGER" => definition.trigger_control = true,
            "NOTRIGGER" => definition.trigger_control = false,
            _ => {}
        }
        let Some(value) = value else { continue };
        let enabled_choice = |token, value| -> Result<bool, SyntaxError> {
            Ok(choice(token, value, &["ENABLED", "DISABLED"])? == 0)
        };
        match token.keyword.as_str() {
            "BOTHRESH" => definition.backout_threshold = number(token, value, 999_999_999)? as u32,
            "BOQNAME" => definition.backout_requeue_queue = name_or_blank(token, value)?,
            "DEFSOPT" => {
                definition.default_input_shared = choice(token, value, &["SHARED", "EXCL"])? == 0
            }
            "MSGDLVSQ" => {
                definition.message_delivery_fifo = choice(token, value, &["PRIORITY", "FIFO"])? == 1
            }
            "RETINTVL" => definition.retention_interval = number(token, value, 999_999_999)? as u32,
            "DEFREADA" => {
                definition.default_read_ahead = keyword_value(token, value, &READ_AHEAD_VALUES)?
            }
            "DEFPRESP" => {
                definition.default_put_response = keyword_value(token, value, &PUT_RESPONSE_VALUES)?
            }
            "PROPCTL" => {
                definition.property_control = keyword_value(token, value, &PROPERTY_CONTROL_VALUES)?
            }
            "ACCTQ" => {
                definition.accounting_queue = keyword_value(token, value, &ACCOUNTING_VALUES)?
            }
            "MONQ" => {
                definition.monitoring_queue = keyword_value(token, value, &MONITORING_VALUES)?
            }
            "STATQ" => {
                definition.statistics_queue = keyword_value(token, value, &ACCOUNTING_VALUES)?
            }
            "USAGE" => {
                definition.usage_transmission = choice(token, value, &["NORMAL", "XMITQ"])? == 1
            }
            "TRIGTYPE" => {
                definition.trigger_type = keyword_value(token, value, &TRIGGER_TYPE_VALUES)?
            }
            "TRIGDPTH" => {
                let depth = number(token, value, 999_999_999)? as u32;
                if depth == 0 {
                    return Err(value_error(
                        token,
                        value,
                        "a number from 1 to 999999999 is needed",
                    ));
                }
                definition.trigger_depth = depth;
            }
            "TRIGMPRI" => definition.trigger_message_priority = number(token, value, 9)? as u8,
            "INITQ" => definition.initiation_queue = name_or_blank(token, value)?,
            "PROCESS" => definition.process_name = name_or_blank(token, value)?,
            "TRIGDATA" => {
                if value.text.chars().count() > TRIGGER_DATA_LENGTH_MAX {
                    return Err(value_error(
                        token,
                        value,
                        &format!("at most {TRIGGER_DATA_LENGTH_MAX} characters"),
                    ));
                }
                definition.trigger_data = value.text.clone();
            }
            "QDPHIEV" => definition.queue_depth_high_event = enabled_choice(token, value)?,
            "QDEPTHHI" => definition.queue_depth_high_limit = number(token, value, 100)? as u32,
            "QDPLOEV" => definition.queue_depth_low_event = enabled_choice(token, value)?,
            "QDEPTHLO" => definition.queue_depth_low_limit = number(token, value, 100)? as u32,
            "QDPMAXEV" => definition.queue_depth_max_event = enabled_choice(token, value)?,
            "QSVCIEV" => {
                definition.queue_service_interval_event =
                    keyword_value(token, value, &SERVICE_INTERVAL_EVENT_VALUES)?
            }
            "QSVCINT" => {
                definition.queue_service_interval = number(token, value, 999_999_999)? as u32
            }
            _ => {}
        }
        match token.keyword.as_str() {
            "DESCR" => {
                if value.text.chars().count() > 64 {
                    return Err(value_error(token, value, "at most 64 characters"));
                }
                definition.description = value.text.clone();
            }
            "STGCLASS" => {
                let page_set = context
                    .queue_manager
                    .storage_class_page_set(&value.text)
                    .map(|page_set| page_set.0)
                    .or_else(|| storage_class_page_set(&value.text))
                    .ok_or_else(|| value_error(token, value, "storage class not defined"))?;
                let configured = context.queue_manager.page_set_defined(page_set);
                if !configured {
                    return Err(value_error(
                        token,
                        value,
                        &format!("its page set {page_set:02} is not defined"),
                    ));
                }
                definition.storage_class = value.text.clone();
                definition.page_set = PageSetId(page_set);
            }
            "MAXDEPTH" => definition.max_depth = number(token, value, 999_999_999)? as u32,
            "MAXMSGL" => definition.max_message_length = number(token, value, 104_857_600)? as u32,
            "DEFPSIST" => {
                definition.default_persistent = choice(token, value, &["NO", "YES"])? == 1
            }
            "DEFPRTY" => definition.default_priority = number(token, value, 9)? as u8,
            "INDXTYPE" => {
                let choices = ["NONE", "MSGID", "CORRELID", "GROUPID", "MSGTOKEN"];
                definition.index_type = choices[choice(token, value, &choices)?].to_string();
            }
            "PUT" => {
                definition.put_inhibited = choice(token, value, &["ENABLED", "DISABLED"])? == 1
            }
            "GET" => {
                definition.get_inhibited = choice(token, value, &["ENABLED", "DISABLED"])? == 1
            }
            "QSGDISP" => {
                choice(token, value, &["QMGR"])?;
            }
            _ => {}
        }
    }
    Ok(())
}

pub(crate) fn delete(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    let found = keywords(
        rest,
        &[
            ("PURGE", Takes::Nothing),
            ("NOPURGE", Takes::Nothing),
            ("QSGDISP", Takes::Value),
        ],
    )
    .map_err(|e| context.syntax(e))?;
    exclusive(&found, "PURGE", "NOPURGE").map_err(|e| context.syntax(e))?;
    let purge = found.iter().any(|(token, _)| token.keyword == "PURGE");
    if context.queue_manager.queue(&name).is_none() {
        return Err(context.not_found("CSQMUQLC", "QLOCAL", &name));
    }
    context
        .queue_manager
        .delete_queue(&name, purge)
        .map_err(|error| context.storage("CSQMUQLC", error))?;
    Ok(Output::default())
}

pub(crate) fn clear(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    keywords(rest, &[("QSGDISP", Takes::Value)]).map_err(|e| context.syntax(e))?;
    let queue = context
        .queue_manager
        .queue(&name)
        .ok_or_else(|| context.not_found("CSQMUQLC", "QLOCAL", &name))?;
    // As MQ: not while an application has the queue open or messages are uncommitted.
    let status = queue.status();
    if status.open_input_count + status.open_output_count > 0 || status.uncommitted > 0 {
        return Err(context.storage(
            "CSQMUQLC",
            StorageError::mq(
                reason::MQRC_OBJECT_IN_USE,
                format!(
                    "queue {name} is open (IPPROCS {}, OPPROCS {}) or has uncommitted messages ({})",
                    status.open_input_count, status.open_output_count, status.uncommitted
                ),
            ),
        ));
    }
    context
        .queue_manager
        .clear_queue(&queue)
        .map_err(|error| context.storage("CSQMUQLC", error))?;
    // CLEAR QLOCAL is a get operation for the queue service timer (MQ).
    ferrite_mqi::service_interval_events::after_removal(context.queue_manager, &queue);
    Ok(Output::default())
}

// ----- DISPLAY QUEUE / QSTATUS / RESET QSTATS --------------------------------------------------

pub(crate) fn yes_no(value: bool) -> AttributeValue {
    AttributeValue::Keyword(if value { "YES" } else { "NO" })
}

pub(crate) fn enabled(inhibited: bool) -> AttributeValue {
    AttributeValue::Keyword(if inhibited { "DISABLED" } else { "ENABLED" })
}

pub(crate) fn index_type(text: &str) -> &'static str {
    match text {
        "MSGID" => "MSGID",
        "CORRELID" => "CORRELID",
        "GROUPID" => "GROUPID",
        "MSGTOKEN" => "MSGTOKEN",
        _ => "NONE",
    }
}

/// A local or model queue's definition for DISPLAY, in MQ's display order (`type_keyword`:
/// QLOCAL or QMODEL).
pub(crate) fn queue_definition_attributes(
    definition: &QueueDefinition,
    type_keyword: &'static str,
) -> Vec<(&'static str, AttributeValue)> {
    let text = |text: &str| AttributeValue::Text(text.to_string());
    let integer = |value: u32| AttributeValue::Integer(value.into());
    let keyword = |value: &str, choices: &[&'static str]| {
        choices
            .iter()
            .find(|choice| **choice == value)
            .map(|choice| AttributeValue::Keyword(choice))
            .unwrap_or_else(|| AttributeValue::Text(value.to_string()))
    };
    let flag = |on: bool, yes: &'static str, no: &'static str| {
        AttributeValue::Flag(if on { yes } else { no })
    };
    let mut attributes = vec![
        ("QUEUE", text(&definition.name)),
        ("TYPE", AttributeValue::Keyword(type_keyword)),
        ("QSGDISP", AttributeValue::Keyword("QMGR")),
        ("STGCLASS", text(&definition.storage_class)),
        ("DESCR", text(&definition.description)),
        ("PUT", enabled(definition.put_inhibited)),
        ("DEFPRTY", integer(definition.default_priority.into())),
        ("DEFPSIST", yes_no(definition.default_persistent)),
        (
            "DEFPRESP",
            keyword(&definition.default_put_response, &PUT_RESPONSE_VALUES),
        ),
        (
            "DEFREADA",
            keyword(&definition.default_read_ahead, &READ_AHEAD_VALUES),
        ),
        (
            "PROPCTL",
            keyword(&definition.property_control, &PROPERTY_CONTROL_VALUES),
        ),
        ("GET", enabled(definition.get_inhibited)),
        ("MAXDEPTH", integer(definition.max_depth)),
        ("MAXMSGL", integer(definition.max_message_length)),
        ("SHARE", flag(definition.shareable, "SHARE", "NOSHARE")),
        (
            "DEFSOPT",
            AttributeValue::Keyword(if definition.default_input_shared {
                "SHARED"
            } else {
                "EXCL"
            }),
        ),
        (
            "MSGDLVSQ",
            AttributeValue::Keyword(if definition.message_delivery_fifo {
                "FIFO"
            } else {
                "PRIORITY"
            }),
        ),
        ("RETINTVL", integer(definition.retention_interval)),
        (
            "USAGE",
            AttributeValue::Keyword(if definition.usage_transmission {
                "XMITQ"
            } else {
                "NORMAL"
            }),
        ),
        (
            "TRIGGER",
            flag(definition.trigger_control, "TRIGGER", "NOTRIGGER"),
        ),
        (
            "TRIGTYPE",
            keyword(&definition.trigger_type, &TRIGGER_TYPE_VALUES),
        ),
        ("TRIGDPTH", integer(definition.trigger_depth)),
        (
            "TRIGMPRI",
            integer(definition.trigger_message_priority.into()),
        ),
        ("TRIGDATA", text(&definition.trigger_data)),
        ("PROCESS", text(&definition.process_name)),
        ("INITQ", text(&definition.initiation_queue)),
        ("QDEPTHHI", integer(definition.queue_depth_high_limit)),
        ("QDEPTHLO", integer(definition.queue_depth_low_limit)),
        ("QDPMAXEV", enabled(!definition.queue_depth_max_event)),
        ("QDPHIEV", enabled(!definition.queue_depth_high_event)),
        ("QDPLOEV", enabled(!definition.queue_depth_low_event)),
        ("QSVCINT", integer(definition.queue_service_interval)),
        (
            "QSVCIEV",
            keyword(
                &definition.queue_service_interval_event,
                &SERVICE_INTERVAL_EVENT_VALUES,
            ),
        ),
        (
            "HARDENBO",
            flag(definition.hardened_backout, "HARDENBO", "NOHARDENBO"),
        ),
        ("BOTHRESH", integer(definition.backout_threshold)),
        ("BOQNAME", text(&definition.backout_requeue_queue)),
        (
            "DEFTYPE",
            AttributeValue::Keyword(definition.definition_type.keyword()),
        ),
        (
            "INDXTYPE",
            AttributeValue::Keyword(index_type(&definition.index_type)),
        ),
        (
            "ACCTQ",
            keyword(&definition.accounting_queue, &ACCOUNTING_VALUES),
        ),
        (
            "MONQ",
            keyword(&definition.monitoring_queue, &MONITORING_VALUES),
        ),
        (
            "STATQ",
            keyword(&definition.statistics_queue, &ACCOUNTING_VALUES),
        ),
    ];
    attributes.extend(crate::attributes::time_attributes(type_keyword == "QLOCAL"));
    attributes
}

/// A local queue's attributes for DISPLAY QUEUE, in display order: its definition, then
/// CURDEPTH, IPPROCS and OPPROCS.
pub(crate) fn queue_attributes(queue: Option<&LocalQueue>) -> Vec<(&'static str, AttributeValue)> {
    let definition = queue
        .map(|queue| queue.definition())
        .unwrap_or_else(|| QueueDefinition::local("", PageSetId(1)));
    let status = queue.map(|queue| queue.status()).unwrap_or_default();
    let mut attributes = queue_definition_attributes(&definition, "QLOCAL");
    attributes.extend([
        (
            "CURDEPTH",
            AttributeValue::Integer(status.current_depth as i64),
        ),
        (
            "IPPROCS",
            AttributeValue::Integer(status.open_input_count as i64),
        ),
        (
            "OPPROCS",
            AttributeValue::Integer(status.open_output_count as i64),
        ),
    ]);
    attributes
}

/// What a DISPLAY asks to see: ALL, named attributes, a WHERE filter.
pub(crate) struct Selection {
    pub(crate) all: bool,
    pub(crate) named: Vec<&'static str>,
    pub(crate) filter: Option<Filter>,
}

impl Selection {
    /// Parse the keywords after the object: `extra` are further keywords the command takes
    /// (returned with their values), the rest must be ALL, WHERE or attribute names.
    pub(crate) fn parse<'t>(
        rest: &'t [Token],
        attributes: &[(&'static str, AttributeValue)],
        extra: &[(&str, Takes)],
    ) -> Result<(Selection, Found<'t>), SyntaxError> {
        let mut allowed: Vec<(&str, Takes)> =
            vec![("ALL", Takes::Nothing), ("WHERE", Takes::Value)];
        allowed.extend_from_slice(extra);
        allowed.extend(
            attributes
                .iter()
                .filter(|(name, _)| !extra.iter().any(|(e, _)| e == name))
                .map(|(name, _)| (*name, Takes::Nothing)),
        );
        let found = keywords(rest, &allowed)?;
        let mut selection = Selection {
            all: false,
            named: Vec::new(),
            filter: None,
        };
        let mut extras = Vec::new();
        for (token, value) in found {
            match token.keyword.as_str() {
                "ALL" => selection.all = true,
                "WHERE" => {
                    let filter = Filter::parse(value.expect("checked"), attributes)?;
                    selection.named.push(filter.attribute);
                    selection.filter = Some(filter);
                }
                keyword => match attributes.iter().find(|(name, _)| *name == keyword) {
                    Some((name, _)) if !extra.iter().any(|(e, _)| *e == keyword) => {
                        selection.named.push(name)
                    }
                    _ => extras.push((token, value)),
                },
            }
        }
        Ok((selection, extras))
    }

    pub(crate) fn passes(&self, attributes: &[(&'static str, AttributeValue)]) -> bool {
        let Some(filter) = &self.filter else {
            return true;
        };
        attributes
            .iter()
            .find(|(name, _)| *name == filter.attribute)
            .is_some_and(|(_, value)| filter.matches(value))
    }

    pub(crate) fn render(
        &self,
        attributes: &[(&'static str, AttributeValue)],
        always: usize,
    ) -> Vec<String> {
        attributes
            .iter()
            .enumerate()
            .filter(|(index, (name, _))| *index < always || self.all || self.named.contains(name))
            .map(|(_, (name, value))| value.render(name))
            .collect()
    }

    pub(crate) fn wants(&self, attribute: &str) -> bool {
        self.all
            || self.named.contains(&attribute)
            || self
                .filter
                .as_ref()
                .is_some_and(|f| f.attribute == attribute)
    }
}

pub(crate) fn is_generic(name: &str) -> bool {
    name.ends_with('*')
}

/// Fill an object's CRDATE ... ALTTIME in its displayed attributes.
pub(crate) fn fill_object_times(
    context: &Context,
    object_type: ObjectType,
    name: &str,
    attributes: &mut [(&'static str, AttributeValue)],
) {
    if let Some(times) = context.queue_manager.object_times(object_type, name) {
        crate::attributes::fill_times(attributes, times);
    }
}

/// DISPLAY QUEUE (every queue type, or those TYPE names) and DISPLAY QLOCAL / QMODEL / QALIAS /
/// QREMOTE (`only` that type). Objects are listed by name.
pub(crate) fn display_queue(
    context: &Context,
    only: Option<ObjectType>,
    object: &Token,
    rest: &[Token],
) -> Outcome {
    let pattern = object_name(object, true).map_err(|e| context.syntax(e))?;
    let sample = match only {
        Some(ObjectType::LocalQueue) => queue_attributes(None),
        Some(object_type) => object_commands::queue_sample(object_type),
        None => object_commands::every_queue_sample(),
    };
    let extra: &[(&str, Takes)] = if only.is_some() {
        &[]
    } else {
        &[("TYPE", Takes::Value)]
    };
    let (selection, extras) =
        Selection::parse(rest, &sample, extra).map_err(|e| context.syntax(e))?;
    let mut wanted: Vec<ObjectType> = match only {
        Some(object_type) => vec![object_type],
        None => vec![
            ObjectType::LocalQueue,
            ObjectType::ModelQueue,
            ObjectType::AliasQueue,
            ObjectType::RemoteQueue,
        ],
    };
    for (token, value) in extras {
        if token.keyword == "TYPE" {
            let value = value.expect("checked");
            let types = ["QLOCAL", "ALL", "QALIAS", "QMODEL", "QREMOTE", "QCLUSTER"];
            let chosen = types[choice(token, value, &types).map_err(|e| context.syntax(e))?];
            wanted = match chosen {
                "ALL" => wanted,
                "QCLUSTER" => Vec::new(),
                keyword => ObjectType::from_keyword(keyword).into_iter().collect(),
            };
        }
    }
    let mut found: Vec<(String, Vec<(&'static str, AttributeValue)>)> = Vec::new();
    for object_type in &wanted {
        if *object_type == ObjectType::LocalQueue {
            for queue in context.queue_manager.queues() {
                if generic_match(&pattern, &queue.name()) {
                    let mut attributes = queue_attributes(Some(&queue));
                    fill_object_times(
                        context,
                        ObjectType::LocalQueue,
                        &queue.name(),
                        &mut attributes,
                    );
                    found.push((queue.name(), attributes));
                }
            }
            continue;
        }
        for definition in context.queue_manager.objects(*object_type) {
            if generic_match(&pattern, definition.name()) {
                let mut attributes = object_commands::attributes(&definition);
                fill_object_times(context, *object_type, definition.name(), &mut attributes);
                found.push((definition.name().to_string(), attributes));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    let mut output = Output::default();
    let mut count = 0;
    for (_, attributes) in found {
        if !selection.passes(&attributes) {
            continue;
        }
        count += 1;
        output.attributes(
            format!("CSQM401I {}", context.name),
            selection.render(&attributes, 3),
            None,
        );
    }
    if count == 0 {
        if !is_generic(&pattern) && selection.filter.is_none() && !wanted.is_empty() {
            return Err(context.not_found("CSQMDRTS", "QUEUE", &pattern));
        }
        output.line(format!(
            "CSQM297I {} CSQMDRTS NO QUEUE FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
    }
    Ok(output)
}

/// DISPLAY QSTATUS attributes of a queue; MSGAGE needs a read of the oldest message, done only
/// when `message_age` is true.
pub(crate) fn status_attributes(
    context: &Context,
    queue: Option<&Arc<LocalQueue>>,
    message_age: bool,
) -> Vec<(&'static str, AttributeValue)> {
    let status = queue.map(|queue| queue.status()).unwrap_or_default();
    let now = now_ms();
    let date = |ms: u64, time: bool| {
        if ms == 0 {
            return AttributeValue::Blank;
        }
        let (date, clock) = date_time(ms);
        AttributeValue::Text(if time { clock } else { date })
    };
    let age = match (queue, message_age) {
        (Some(queue), true) => queue
            .oldest_entry()
            .and_then(|entry| {
                let selector = MessageSelector {
                    key: Some(entry.key),
                    ..MessageSelector::default()
                };
                context
                    .queue_manager
                    .browse(queue, &selector, None)
                    .ok()
                    .flatten()
            })
            .map(|message| {
                AttributeValue::Integer(
                    (now.saturating_sub(message.descriptor.put_time_ms) / 1000) as i64,
                )
            })
            .unwrap_or(AttributeValue::Blank),
        (None, _) => AttributeValue::Integer(0),
        _ => AttributeValue::Blank,
    };
    vec![
        (
            "QSTATUS",
            AttributeValue::Text(queue.map(|queue| queue.name()).unwrap_or_default()),
        ),
        ("TYPE", AttributeValue::Keyword("QUEUE")),
        ("QSGDISP", AttributeValue::Keyword("QMGR")),
        (
            "CURDEPTH",
            AttributeValue::Integer(status.current_depth as i64),
        ),
        (
            "IPPROCS",
            AttributeValue::Integer(status.open_input_count as i64),
        ),
        (
            "OPPROCS",
            AttributeValue::Integer(status.open_output_count as i64),
        ),
        ("UNCOM", yes_no(status.uncommitted > 0)),
        ("MSGAGE", age),
        ("QTIME", AttributeValue::Pair(status.time_on_queue_us)),
        ("LPUTDATE", date(status.last_put_ms, false)),
        ("LPUTTIME", date(status.last_put_ms, true)),
        ("LGETDATE", date(status.last_get_ms, false)),
        ("LGETTIME", date(status.last_get_ms, true)),
    ]
}

pub(crate) fn display_status(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let pattern = object_name(object, true).map_err(|e| context.syntax(e))?;
    // TYPE(HANDLE) shows the handles open on the queues (connection_commands.rs).
    let handles = rest.iter().any(|token| {
        token.keyword == "TYPE" && token.value.as_ref().is_some_and(|v| v.text == "HANDLE")
    });
    let sample = if handles {
        connection_commands::queue_handle_attributes("", None)
    } else {
        status_attributes(context, None, false)
    };
    // TYPE is an attribute shown, and also the keyword choosing QUEUE or HANDLE status.
    let (mut selection, extras) = Selection::parse(rest, &sample, &[("TYPE", Takes::Value)])
        .map_err(|e| context.syntax(e))?;
    for (token, value) in extras {
        let value = value.expect("checked");
        choice(token, value, &["QUEUE", "HANDLE"]).map_err(|e| context.syntax(e))?;
    }
    if handles {
        // As MQ: a handle's attributes are all shown unless some are named.
        if selection.named.is_empty() {
            selection.all = true;
        }
        return connection_commands::display_handle_status(context, &pattern, &selection);
    }
    let message_age = selection.wants("MSGAGE");
    let mut details = Vec::new();
    for queue in context.queue_manager.queues() {
        if !generic_match(&pattern, &queue.name()) {
            continue;
        }
        let attributes = status_attributes(context, Some(&queue), message_age);
        if selection.passes(&attributes) {
            details.push(selection.render(&attributes, 4));
        }
    }
    let mut output = Output::default();
    if details.is_empty() {
        output.line(format!(
            "CSQM297I {} CSQMDRTC NO QSTATUS FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
        return Ok(output);
    }
    output.line(format!(
        "CSQM293I {} CSQMDRTC {} QSTATUS FOUND MATCHING REQUEST CRITERIA",
        context.name,
        details.len()
    ));
    for attributes in details {
        output.details(
            format!("CSQM201I {} CSQMDRTC DISPLAY QSTATUS DETAILS", context.name),
            attributes,
            "END QSTATUS DETAILS",
        );
    }
    Ok(output)
}

pub(crate) fn reset_qstats(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let pattern = object_name(object, true).map_err(|e| context.syntax(e))?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    let queues: Vec<_> = context
        .queue_manager
        .queues()
        .into_iter()
        .filter(|queue| generic_match(&pattern, &queue.name()))
        .collect();
    let mut output = Output::default();
    if queues.is_empty() {
        if !is_generic(&pattern) {
            return Err(context.not_found("CSQMRQST", "QLOCAL", &pattern));
        }
        output.line(format!(
            "CSQM297I {} CSQMRQST NO QLOCAL FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
        return Ok(output);
    }
    let now = now_ms();
    for queue in queues {
        let statistics = queue.reset_statistics(now);
        output.details(
            format!("CSQM201I {} CSQMRQST RESET QSTATS DETAILS", context.name),
            vec![
                format!("QSTATS({})", queue.name()),
                "QSGDISP(QMGR)".to_string(),
                format!(
                    "RESETINT({})",
                    now.saturating_sub(statistics.reset_ms) / 1000
                ),
                format!("HIQDEPTH({})", statistics.high_depth),
                format!("MSGSIN({})", statistics.messages_in),
                format!("MSGSOUT({})", statistics.messages_out),
            ],
            "END QSTATS DETAILS",
        );
    }
    Ok(output)
}

// ----- queue manager, usage, log, system -------------------------------------------------------

pub(crate) fn no_object_value(context: &Context, object: &Token) -> Result<(), Failure> {
    match &object.value {
        Some(value) => Err(context.syntax(SyntaxError::new(
            format!("CSQ9004E '{}' does not take a value", object.keyword),
            value.position.saturating_sub(1),
        ))),
        None => Ok(()),
    }
}

pub(crate) fn display_log(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    let mut output = Output::default();
    output.report(&context.queue_manager.display_log());
    Ok(output)
}

pub(crate) fn display_system(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    let config = context.queue_manager.config();
    let mut lines = vec![
        format!("CSQJ322I {} DISPLAY SYSTEM report ...", context.name),
        " Parameter                    Initial value".to_string(),
    ];
    let mut row = |name: &str, value: String| lines.push(format!(" {name:<28} {value}"));
    row("LOGLOAD", config.system.logload.to_string());
    row("MAXUMSGS", config.system.maxumsgs.to_string());
    row(
        "EXPRYINT",
        if config.system.expryint == 0 {
            "OFF".to_string()
        } else {
            config.system.expryint.to_string()
        },
    );
    row(
        "QMCCSID",
        ferrite_mqi::descriptor::QUEUE_MANAGER_CCSID.to_string(),
    );
    row("BUFFER POOLS", config.buffer_pools.len().to_string());
    row("PAGE SETS", config.page_sets.len().to_string());
    lines.push(" End of SYSTEM report".to_string());
    let mut output = Output::default();
    output.messages.push(Message::Text(lines));
    Ok(output)
}

pub(crate) fn archive_log(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    context
        .queue_manager
        .archive_log()
        .map_err(|error| context.storage("CSQJC001", error))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQJ311I {} CSQJC001 LOG ARCHIVE (OFFLOAD) TASK INITIATED",
        context.name
    ));
    Ok(output)
}

pub(crate) fn refresh_qmgr(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    let found = keywords(
        rest,
        &[
            ("TYPE", Takes::Value),
            ("NAME", Takes::Value),
            ("OBJECT", Takes::Value),
            ("INCLINT", Takes::Value),
        ],
    )
    .map_err(|e| context.syntax(e))?;
    let Some((token, Some(value))) = found.iter().find(|(token, _)| token.keyword == "TYPE") else {
        return Err(context.syntax(SyntaxError::new(
            "CSQ9010E Required parameter 'TYPE' is missing",
            object.position + object.keyword.chars().count(),
        )));
    };
    let types = ["EXPIRY", "CONFIGEV", "EARLY", "PROXYSUB"];
    let refresh_type = choice(token, value, &types).map_err(|e| context.syntax(e))?;
    if refresh_type == 1 {
        return refresh_configuration(context, &found);
    }
    if refresh_type != 0 {
        return Err(Failure(vec![format!(
            "CSQ9032E {} CSQMREFR Requested function is not available: TYPE({})",
            context.name, value.text
        )]));
    }
    for keyword in ["OBJECT", "INCLINT"] {
        if let Some((token, _)) = found.iter().find(|(token, _)| token.keyword == keyword) {
            return Err(context.syntax(SyntaxError::new(
                format!("CSQ9001E '{keyword}' is valid only with TYPE(CONFIGEV)"),
                token.position,
            )));
        }
    }
    if let Some((token, Some(value))) = found.iter().find(|(token, _)| token.keyword == "NAME") {
        if value.text != "*" {
            return Err(context.syntax(value_error(
                token,
                value,
                "the expiry scan covers every queue: only NAME(*) is supported",
            )));
        }
    }
    let deleted = context
        .queue_manager
        .expire_messages()
        .map_err(|error| context.storage("CSQMREFR", error))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQM572I {} CSQMREFR EXPIRY SCAN COMPLETE, {deleted} EXPIRED MESSAGES DELETED",
        context.name
    ));
    Ok(output)
}

/// OBJECT values of REFRESH QMGR TYPE(CONFIGEV) that Ferrite has objects for.
const REFRESH_OBJECTS: [&str; 12] = [
    "ALL", "QUEUE", "QLOCAL", "QMODEL", "QALIAS", "QREMOTE", "NAMELIST", "PROCESS", "STGCLASS",
    "CHANNEL", "AUTHINFO", "QMGR",
];

/// REFRESH QMGR TYPE(CONFIGEV) [OBJECT(type)] [NAME(generic)] [INCLINT(0)]: a Refresh object
/// configuration event for every object selected (events.rs). CONFIGEV must be ENABLED.
fn refresh_configuration(context: &Context, found: &Found) -> Outcome {
    let value_of = |keyword: &str| {
        found
            .iter()
            .find(|(token, _)| token.keyword == keyword)
            .and_then(|(token, value)| value.map(|value| (*token, value)))
    };
    let object = match value_of("OBJECT") {
        Some((token, value)) => {
            REFRESH_OBJECTS
                [choice(token, value, &REFRESH_OBJECTS).map_err(|e| context.syntax(e))?]
        }
        None => "ALL",
    };
    let name = match value_of("NAME") {
        Some((token, value)) => {
            let generic = Token {
                keyword: token.keyword.clone(),
                value: Some(value.clone()),
                position: token.position,
            };
            object_name(&generic, true).map_err(|e| context.syntax(e))?
        }
        None => "*".to_string(),
    };
    let include_interval_minutes = match value_of("INCLINT") {
        Some((token, value)) => number(token, value, events::INCLUDE_INTERVAL_MINUTES_MAX.into())
            .map_err(|e| context.syntax(e))? as u32,
        None => 0,
    };
    if !context
        .queue_manager
        .queue_manager_attributes()
        .config_events
    {
        return Err(Failure(vec![format!(
            "CSQM090E {} CSQMREFR FAILURE REASON CODE X'{:08X}': configuration events are disabled (MQRCCF_EVENTS_DISABLED); ALTER QMGR CONFIGEV(ENABLED) first",
            context.name,
            ferrite_constants::pcf_reason::MQRCCF_EVENTS_DISABLED
        )]));
    }
    let selection = events::RefreshSelection {
        types: match object {
            "ALL" => events::REFRESHED_TYPES.to_vec(),
            "QMGR" => Vec::new(),
            "QUEUE" => ObjectType::ALL
                .into_iter()
                .filter(|object_type| object_type.is_queue())
                .collect(),
            keyword => ObjectType::from_keyword(keyword).into_iter().collect(),
        },
        queue_manager: matches!(object, "ALL" | "QMGR"),
        name,
        include_interval_minutes,
    };
    let put = events::refresh(context, &selection);
    let mut output = Output::default();
    output.line(format!(
        "CSQM574I {} CSQMREFR {put} CONFIGURATION EVENT MESSAGES PUT ON {}",
        context.name,
        events::CONFIG_EVENT_QUEUE
    ));
    Ok(output)
}
