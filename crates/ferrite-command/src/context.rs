//! What every command shares: the context it runs in ([`Context`]), what it produces
//! ([`Output`], [`Failure`], [`Outcome`]) and the keyword checking and attribute helpers of
//! MQSC. The command modules build on this; `commands.rs` dispatches to them.

use std::sync::Arc;

use ferrite_queue_manager::{ObjectType, QueueManager};
use ferrite_storage::StorageError;

use crate::attributes::{AttributeValue, Filter};
use crate::channel_initiator::ChannelInitiator;
use crate::parser::{SyntaxError, Token, Value};
use crate::CommandResponse;
use ferrite_constants::{
    lengths::MQ_USER_ID_LENGTH,
    misc::{MQEVO_CONSOLE, MQEVO_INTERNAL, MQEVO_MSG},
};
use ferrite_mqi::Mqmd;

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

    /// [`Output::found_details`] counting one found for each of `details`.
    pub(crate) fn found_each(
        queue_manager: &str,
        module: &str,
        what: &str,
        details: Vec<Vec<String>>,
    ) -> Output {
        Output::found_details(queue_manager, module, what, details.len(), details)
    }

    /// A DISPLAY of status (CONN, QSTATUS, CHSTATUS) from `module`: `CSQM297I ... NO what
    /// FOUND` when `count` is 0, else `CSQM293I ... count what FOUND` and a
    /// `CSQM201I ... DISPLAY what DETAILS` block for each of `details`.
    pub(crate) fn found_details(
        queue_manager: &str,
        module: &str,
        what: &str,
        count: usize,
        details: Vec<Vec<String>>,
    ) -> Output {
        let mut output = Output::default();
        if count == 0 {
            output.line(format!(
                "CSQM297I {queue_manager} {module} NO {what} FOUND MATCHING REQUEST CRITERIA"
            ));
            return output;
        }
        output.line(format!(
            "CSQM293I {queue_manager} {module} {count} {what} FOUND MATCHING REQUEST CRITERIA"
        ));
        for attributes in details {
            output.details(
                format!("CSQM201I {queue_manager} {module} DISPLAY {what} DETAILS"),
                attributes,
                &format!("END {what} DETAILS"),
            );
        }
        output
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

/// Where a command came from, as its events report it (EventOrigin and the fields after it).
#[derive(Clone, Debug)]
pub struct CommandOrigin {
    /// MQEVO_*: MQEVO_CONSOLE, MQEVO_MSG or MQEVO_INTERNAL; for changes made by MQI calls
    /// MQEVO_MQSET or MQEVO_OTHER (MQCLOSE).
    pub origin: i32,
    /// The user the command ran for (at most 12 characters).
    pub user_id: String,
    /// The command message's context, for a command that came as a message (MQEVO_MSG).
    pub message: Option<MessageContext>,
}

/// The context fields of a command message that its events repeat.
#[derive(Clone, Debug)]
pub struct MessageContext {
    pub accounting_token: [u8; 32],
    pub appl_identity_data: String,
    pub put_appl_type: i32,
    pub put_appl_name: String,
    pub appl_origin_data: String,
}

impl CommandOrigin {
    /// A command typed at this process's console (or given to it in a file): MQEVO_CONSOLE,
    /// for the user running the process.
    pub fn console() -> CommandOrigin {
        CommandOrigin {
            origin: MQEVO_CONSOLE,
            user_id: std::env::var("USER")
                .unwrap_or_default()
                .chars()
                .take(MQ_USER_ID_LENGTH as usize)
                .collect(),
            message: None,
        }
    }

    /// A command that came as a message on a command queue: MQEVO_MSG, for the message's
    /// UserIdentifier, with its context.
    pub fn message(request: &Mqmd) -> CommandOrigin {
        CommandOrigin {
            origin: MQEVO_MSG,
            user_id: request.user_identifier.trim_end().to_string(),
            message: Some(MessageContext {
                accounting_token: request.accounting_token,
                appl_identity_data: request.appl_identity_data.to_string(),
                put_appl_type: request.put_appl_type,
                put_appl_name: request.put_appl_name.to_string(),
                appl_origin_data: request.appl_origin_data.to_string(),
            }),
        }
    }

    /// An action the queue manager takes itself (the refresh that follows CONFIGEV(ENABLED)).
    pub fn internal(user_id: &str) -> CommandOrigin {
        CommandOrigin {
            origin: MQEVO_INTERNAL,
            user_id: user_id.to_string(),
            message: None,
        }
    }
}

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

/// The value naming the object (`QLOCAL(name)`): CSQ9010E when there is none.
pub(crate) fn required_name_value(object: &Token) -> Result<&Value, SyntaxError> {
    object.value.as_ref().ok_or_else(|| {
        SyntaxError::new(
            format!(
                "CSQ9010E Required parameter '{}' name is missing",
                object.keyword
            ),
            object.position + object.keyword.chars().count(),
        )
    })
}

/// The object's name: required, a valid MQ object name (a trailing `*` when `generic`).
pub(crate) fn object_name(object: &Token, generic: bool) -> Result<String, SyntaxError> {
    let value = required_name_value(object)?;
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

/// A queue or queue manager name, or blank (BOQNAME, INITQ, PROCESS, DEADQ).
pub(crate) fn name_or_blank(token: &Token, value: &Value) -> Result<String, SyntaxError> {
    checked_name_or_blank(token, value, value.text.trim())
}

/// `name` (`value`'s text, trimmed or not as the caller's attribute wants) when it is a
/// queue or queue manager name or blank.
pub(crate) fn checked_name_or_blank(
    token: &Token,
    value: &Value,
    name: &str,
) -> Result<String, SyntaxError> {
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

pub(crate) fn yes_no(value: bool) -> AttributeValue {
    AttributeValue::Keyword(if value { "YES" } else { "NO" })
}

pub(crate) fn enabled(inhibited: bool) -> AttributeValue {
    AttributeValue::Keyword(if inhibited { "DISABLED" } else { "ENABLED" })
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

pub(crate) fn no_object_value(context: &Context, object: &Token) -> Result<(), Failure> {
    match &object.value {
        Some(value) => Err(context.syntax(SyntaxError::new(
            format!("CSQ9004E '{}' does not take a value", object.keyword),
            value.position.saturating_sub(1),
        ))),
        None => Ok(()),
    }
}
