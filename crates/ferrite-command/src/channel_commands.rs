//! The commands answered by the channel initiator: DISPLAY CHSTATUS, STOP CHANNEL, START
//! LISTENER, STOP LISTENER, DISPLAY LSSTATUS and DISPLAY CHINIT. Each is checked completely
//! first (syntax, the channel definition); then, without a channel initiator attached, it
//! fails with `CSQM131I ... CHANNEL INITIATOR NOT ACTIVE, COMMAND NOT PROCESSED`, as MQ for
//! z/OS answers while the CHIN address space is down.
//!
//! Responses (z/OS message ids where MQ for z/OS has the message, in its style otherwise):
//! - DISPLAY CHSTATUS: `CSQM293I ... n CHSTATUS FOUND MATCHING REQUEST CRITERIA`, then per
//!   instance `CSQM201I ... DISPLAY CHSTATUS DETAILS` ... `END CHSTATUS DETAILS`; none:
//!   `CSQM297I ... NO CHSTATUS FOUND MATCHING REQUEST CRITERIA`.
//! - STOP CHANNEL: `CSQM134I ... STOP CHANNEL(name) COMMAND ACCEPTED` and `CSQX501I Channel
//!   name is no longer active (n instances)`; no instance running: `CSQX533I Channel name is
//!   not currently active` (a failure).
//! - START / STOP LISTENER: `CSQM134I ... COMMAND ACCEPTED`, then `CSQX023I Listener started
//!   for port p address a` or `CSQX021I Listener stopped for port p address a`.
//! - DISPLAY LSSTATUS: one `CSQM201I ... DISPLAY LSSTATUS DETAILS` block for the TCP listener,
//!   named [`LISTENER_NAME`] as on MQ for Multiplatforms.
//! - DISPLAY CHINIT: `CSQM137I`, `CSQX830I Channel initiator active`, `CSQX847I` (the TCP
//!   listener), `CSQX845I` (channel instances and conversations).
//!
//! - START CHANNEL (a SDR channel): `CSQM134I ... START CHANNEL(name) COMMAND ACCEPTED`;
//!   STOP CHANNEL takes MODE(QUIESCE | FORCE); PING CHANNEL: `CSQM134I ... COMMAND
//!   ACCEPTED` and `AMQ8020I Ping channel name complete`; DISPLAY CHSTATUS shows message
//!   channels too (XMITQ, MSGS, BATCHES, CURSEQNO, LSTSEQNO, INDOUBT, BYTSSENT, BYTSRCVD);
//!   RESOLVE CHANNEL ACTION(COMMIT | BACKOUT): `CSQM134I ... COMMAND ACCEPTED` and how many
//!   messages the in-doubt batch held; RESET CHANNEL SEQNUM(n): `CSQM134I ... COMMAND
//!   ACCEPTED`.
//!
//! A failure the channel initiator reports is `CSQM134E ... verb FAILED: reason`.

use ferrite_queue_manager::objects::message_channel::{
    compression_list_text, HEADER_COMPRESSION_KEYWORDS, MESSAGE_COMPRESSION_KEYWORDS,
};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::attributes::{date_time, generic_match, AttributeValue};
use crate::channel_initiator::{
    ChannelInitiator, ChannelInstanceStatus, ListenerStatus, MessageChannelStatus,
};
use crate::context::{
    choice, is_generic, keywords, no_object_value, number, object_name, value_error, Context,
    Failure, Outcome, Output, Selection, Takes,
};

/// The name DISPLAY LSSTATUS gives the one TCP listener.
pub const LISTENER_NAME: &str = "SYSTEM.LISTENER.TCP.1";

fn initiator<'a>(context: &Context<'a>, csect: &str) -> Result<&'a dyn ChannelInitiator, Failure> {
    context.initiator.ok_or_else(|| {
        Failure(vec![format!(
            "CSQM131I {} {csect} CHANNEL INITIATOR NOT ACTIVE, COMMAND NOT PROCESSED",
            context.name
        )])
    })
}

fn milliseconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

fn date(time: Option<SystemTime>, clock: bool) -> AttributeValue {
    match time {
        None => AttributeValue::Blank,
        Some(time) => {
            let (date, time) = date_time(milliseconds(time));
            AttributeValue::Text(if clock { time } else { date })
        }
    }
}

pub(crate) fn status_attributes(
    status: Option<&ChannelInstanceStatus>,
) -> Vec<(&'static str, AttributeValue)> {
    let integer = |value: u64| AttributeValue::Integer(value as i64);
    let text = |value: &str| AttributeValue::Text(value.to_string());
    let started = status.map(|status| status.started);
    let last = status.and_then(|status| status.last_message);
    vec![
        (
            "CHSTATUS",
            text(status.map(|s| s.channel.as_str()).unwrap_or("")),
        ),
        ("CHLTYPE", AttributeValue::Keyword("SVRCONN")),
        (
            "CONNAME",
            text(status.map(|s| s.connection_name.as_str()).unwrap_or("")),
        ),
        ("CURRENT", AttributeValue::Blank),
        (
            "STATUS",
            match status.map(|s| s.status.as_str()) {
                Some("STOPPING") => AttributeValue::Keyword("STOPPING"),
                _ => AttributeValue::Keyword("RUNNING"),
            },
        ),
        ("MSGS", integer(status.map(|s| s.messages).unwrap_or(0))),
        (
            "BYTSSENT",
            integer(status.map(|s| s.bytes_sent).unwrap_or(0)),
        ),
        (
            "BYTSRCVD",
            integer(status.map(|s| s.bytes_received).unwrap_or(0)),
        ),
        ("CHSTADA", date(started, false)),
        ("CHSTATI", date(started, true)),
        ("LSTMSGDA", date(last, false)),
        ("LSTMSGTI", date(last, true)),
        (
            "HBINT",
            integer(status.map(|s| s.heartbeat_interval.into()).unwrap_or(0)),
        ),
        (
            "MAXMSGL",
            integer(status.map(|s| s.max_message_length.into()).unwrap_or(0)),
        ),
        (
            "MAXSHCNV",
            integer(
                status
                    .map(|s| s.max_shared_conversations.into())
                    .unwrap_or(0),
            ),
        ),
        (
            "CURSHCNV",
            integer(status.map(|s| s.current_conversations.into()).unwrap_or(0)),
        ),
    ]
}

/// A message channel's DISPLAY CHSTATUS attributes (the first five always shown).
pub(crate) fn message_status_attributes(
    status: &MessageChannelStatus,
) -> Vec<(&'static str, AttributeValue)> {
    let integer = |value: u64| AttributeValue::Integer(value as i64);
    let text = |value: &str| AttributeValue::Text(value.to_string());
    let indicators = &status.indicators;
    // MQ shows the indicators of a running channel only.
    let running = |pair: Option<(u64, u64)>| pair.filter(|_| status.status == "RUNNING");
    let status_keyword = match status.status.as_str() {
        "STARTING" => "STARTING",
        "BINDING" => "BINDING",
        "RETRYING" => "RETRYING",
        "STOPPING" => "STOPPING",
        "STOPPED" => "STOPPED",
        "INACTIVE" => "INACTIVE",
        _ => "RUNNING",
    };
    vec![
        ("CHSTATUS", text(&status.channel)),
        ("CHLTYPE", AttributeValue::Keyword(status.channel_type)),
        ("CONNAME", text(&status.connection_name)),
        ("CURRENT", AttributeValue::Blank),
        ("STATUS", AttributeValue::Keyword(status_keyword)),
        ("XMITQ", text(&status.transmission_queue)),
        ("MSGS", integer(status.messages)),
        ("BATCHES", integer(status.batches)),
        ("CURSEQNO", integer(status.current_sequence.into())),
        ("LSTSEQNO", integer(status.last_sequence.into())),
        (
            "INDOUBT",
            AttributeValue::Keyword(if status.in_doubt { "YES" } else { "NO" }),
        ),
        ("BYTSSENT", integer(status.bytes_sent)),
        ("BYTSRCVD", integer(status.bytes_received)),
        ("CHSTADA", date(Some(status.started), false)),
        ("CHSTATI", date(Some(status.started), true)),
        (
            "COMPHDR",
            compression_pair(HEADER_COMPRESSION_KEYWORDS, indicators.header_compression),
        ),
        (
            "COMPMSG",
            compression_pair(MESSAGE_COMPRESSION_KEYWORDS, indicators.message_compression),
        ),
        (
            "COMPRATE",
            AttributeValue::Pair(running(indicators.compression_rate)),
        ),
        (
            "COMPTIME",
            AttributeValue::Pair(running(indicators.compression_time_us)),
        ),
        (
            "XQTIME",
            AttributeValue::Pair(running(indicators.transmission_queue_time_us)),
        ),
        (
            "NETTIME",
            AttributeValue::Pair(running(indicators.network_time_us)),
        ),
    ]
}

/// COMPHDR or COMPMSG of a channel's status: the technique negotiated and the last one used.
fn compression_pair(keywords: &[(&'static str, i32)], pair: [i32; 2]) -> AttributeValue {
    AttributeValue::Text(compression_list_text(keywords, &pair))
}

/// Every attribute name DISPLAY CHSTATUS takes: a client channel's and a message channel's.
fn status_attribute_sample() -> Vec<(&'static str, AttributeValue)> {
    let mut sample = status_attributes(None);
    let message = message_status_attributes(&MessageChannelStatus {
        channel: String::new(),
        channel_type: "SDR",
        connection_name: String::new(),
        status: String::new(),
        transmission_queue: String::new(),
        messages: 0,
        batches: 0,
        bytes_sent: 0,
        bytes_received: 0,
        current_sequence: 0,
        last_sequence: 0,
        in_doubt: false,
        started: SystemTime::UNIX_EPOCH,
        indicators: Default::default(),
    });
    for attribute in message {
        if !sample.iter().any(|(name, _)| *name == attribute.0) {
            sample.push(attribute);
        }
    }
    sample
}

/// DISPLAY CHSTATUS(generic) [ALL] [attributes] [WHERE(...)]
/// [CHLTYPE(SVRCONN|SDR|SVR|RCVR|RQSTR)].
pub(crate) fn display_channel_status(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    let pattern = object_name(object, true).map_err(|e| context.syntax(e))?;
    let sample = status_attribute_sample();
    let (selection, extras) = Selection::parse(rest, &sample, &[("CHLTYPE", Takes::Value)])
        .map_err(|e| context.syntax(e))?;
    const TYPES: [&str; 5] = ["SVRCONN", "SDR", "SVR", "RCVR", "RQSTR"];
    let mut channel_type = None;
    for (token, value) in extras {
        let chosen =
            choice(token, value.expect("checked"), &TYPES).map_err(|e| context.syntax(e))?;
        channel_type = Some(TYPES[chosen]);
    }
    let initiator = initiator(context, "CSQXDRTS")?;
    type Attributes = Vec<(&'static str, AttributeValue)>;
    let mut statuses: Vec<(String, SystemTime, Attributes)> = initiator
        .channel_statuses()
        .iter()
        .map(|status| {
            let attributes = status_attributes(Some(status));
            (status.channel.clone(), status.started, attributes)
        })
        .collect();
    statuses.extend(initiator.message_channel_statuses().iter().map(|status| {
        let attributes = message_status_attributes(status);
        (status.channel.clone(), status.started, attributes)
    }));
    statuses.sort_by(|a, b| (a.0.as_str(), a.1).cmp(&(b.0.as_str(), b.1)));
    let mut details = Vec::new();
    for (channel, _, attributes) in &statuses {
        if !generic_match(&pattern, channel) {
            continue;
        }
        let of_type = |wanted: &'static str| {
            attributes.iter().any(|(name, value)| {
                *name == "CHLTYPE" && *value == AttributeValue::Keyword(wanted)
            })
        };
        if channel_type.is_some_and(|wanted| !of_type(wanted)) {
            continue;
        }
        if !selection.passes(attributes) {
            continue;
        }
        let rendered: Vec<String> = selection
            .render(attributes, 5)
            .into_iter()
            .map(|attribute| {
                if attribute == "CURRENT( )" {
                    "CURRENT".to_string()
                } else {
                    attribute
                }
            })
            .collect();
        details.push(rendered);
    }
    Ok(Output::found_each(
        &context.name,
        "CSQXDRTS",
        "CHSTATUS",
        details,
    ))
}

/// STOP CHANNEL(name): every instance of a defined channel ends.
pub(crate) fn stop_channel(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    let found = keywords(
        rest,
        &[
            ("QSGDISP", Takes::Value),
            ("CHLTYPE", Takes::Value),
            ("MODE", Takes::Value),
        ],
    )
    .map_err(|e| context.syntax(e))?;
    let mut force = false;
    for (token, value) in found {
        let choices: &[&str] = match token.keyword.as_str() {
            "CHLTYPE" => &["SVRCONN", "SDR", "SVR", "RCVR", "RQSTR"],
            "MODE" => &["QUIESCE", "FORCE"],
            _ => &["QMGR"],
        };
        let chosen =
            choice(token, value.expect("checked"), choices).map_err(|e| context.syntax(e))?;
        force |= token.keyword == "MODE" && choices[chosen] == "FORCE";
    }
    if context.queue_manager.channel(&name).is_none() {
        return Err(context.not_found("CSQXCRPS", "CHANNEL", &name));
    }
    let initiator = initiator(context, "CSQXCRPS")?;
    let stopping = if force {
        initiator.stop_channel_forced(&name)
    } else {
        initiator.stop_channel(&name)
    };
    let stopped = stopping.map_err(|reason| {
        Failure(vec![format!(
            "CSQM134E {} CSQXCRPS STOP CHANNEL({name}) FAILED: {reason}",
            context.name
        )])
    })?;
    if stopped == 0 {
        return Err(Failure(vec![format!(
            "CSQX533I {} CSQXCRPS Channel {name} is not currently active",
            context.name
        )]));
    }
    let mut output = Output::default();
    output.line(format!(
        "CSQM134I {} CSQXCRPS STOP CHANNEL({name}) COMMAND ACCEPTED",
        context.name
    ));
    output.line(format!(
        "CSQX501I {} CSQXCRPS Channel {name} is no longer active ({stopped} instances)",
        context.name
    ));
    Ok(output)
}

/// The channel named by START, PING or RESOLVE CHANNEL(name) [CHLTYPE(SDR|SVR|RQSTR)], which
/// must be defined.
fn sending_channel(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
    extra: &[(&str, Takes)],
) -> Result<(String, Vec<(String, String)>), Failure> {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    let mut allowed = vec![("QSGDISP", Takes::Value), ("CHLTYPE", Takes::Value)];
    allowed.extend_from_slice(extra);
    let found = keywords(rest, &allowed).map_err(|e| context.syntax(e))?;
    let mut others = Vec::new();
    for (token, value) in found {
        let value = value.expect("checked");
        match token.keyword.as_str() {
            "CHLTYPE" => {
                choice(token, value, &["SDR", "SVR", "RQSTR"]).map_err(|e| context.syntax(e))?;
            }
            "QSGDISP" => {
                choice(token, value, &["QMGR"]).map_err(|e| context.syntax(e))?;
            }
            keyword => others.push((keyword.to_string(), value.text.clone())),
        }
    }
    if context.queue_manager.channel(&name).is_none() {
        return Err(context.not_found("CSQXCRPS", "CHANNEL", &name));
    }
    Ok((name, others))
}

fn channel_failure(context: &Context, verb: &str, name: &str, reason: String) -> Failure {
    Failure(vec![format!(
        "CSQM134E {} CSQXCRPS {verb} CHANNEL({name}) FAILED: {reason}",
        context.name
    )])
}

/// START CHANNEL(name): a sending channel's MCA starts.
pub(crate) fn start_channel(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    let (name, _) = sending_channel(context, object, rest, &[])?;
    let initiator = initiator(context, "CSQXCRPS")?;
    initiator
        .start_channel(&name)
        .map_err(|reason| channel_failure(context, "START", &name, reason))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQM134I {} CSQXCRPS START CHANNEL({name}) COMMAND ACCEPTED",
        context.name
    ));
    Ok(output)
}

/// RESOLVE CHANNEL(name) ACTION(COMMIT | BACKOUT): a stopped sending channel's in-doubt
/// batch taken as delivered, or put back on its transmission queue.
pub(crate) fn resolve_channel(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    let (name, others) = sending_channel(context, object, rest, &[("ACTION", Takes::Value)])?;
    let commit = match others.first().map(|(_, text)| text.as_str()) {
        Some("COMMIT") => true,
        Some("BACKOUT") => false,
        _ => {
            return Err(Failure(vec![format!(
            "CSQ9012E {} CSQ9SCND RESOLVE CHANNEL({name}) needs ACTION(COMMIT) or ACTION(BACKOUT)",
            context.name
        )]))
        }
    };
    let initiator = initiator(context, "CSQXCRPS")?;
    let messages = initiator
        .resolve_channel(&name, commit)
        .map_err(|reason| channel_failure(context, "RESOLVE", &name, reason))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQM134I {} CSQXCRPS RESOLVE CHANNEL({name}) COMMAND ACCEPTED",
        context.name
    ));
    output.line(format!(
        "{} CSQXCRPS Channel {name}: in-doubt batch of {messages} messages {}",
        context.name,
        if commit { "committed" } else { "backed out" }
    ));
    Ok(output)
}

/// RESET CHANNEL(name) [SEQNUM(1-999999999)]: a stopped message channel's next sequence
/// number (1 when not given).
pub(crate) fn reset_channel(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    let found = keywords(rest, &[("SEQNUM", Takes::Value), ("QSGDISP", Takes::Value)])
        .map_err(|e| context.syntax(e))?;
    let mut next = 1u64;
    for (token, value) in found {
        let value = value.expect("checked");
        if token.keyword == "QSGDISP" {
            choice(token, value, &["QMGR"]).map_err(|e| context.syntax(e))?;
            continue;
        }
        next = number(token, value, 999_999_999).map_err(|e| context.syntax(e))?;
        if next == 0 {
            return Err(context.syntax(value_error(token, value, "a number from 1 is needed")));
        }
    }
    if context.queue_manager.channel(&name).is_none() {
        return Err(context.not_found("CSQXCRPS", "CHANNEL", &name));
    }
    let initiator = initiator(context, "CSQXCRPS")?;
    initiator
        .reset_channel(&name, next as u32)
        .map_err(|reason| channel_failure(context, "RESET", &name, reason))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQM134I {} CSQXCRPS RESET CHANNEL({name}) COMMAND ACCEPTED",
        context.name
    ));
    Ok(output)
}

/// MQ's PING CHANNEL DATALEN range.
const PING_DATA_LENGTH: (u64, u64) = (16, 32_768);

/// PING CHANNEL(name) [DATALEN(16..32768)]: a sending channel that is not running exchanges
/// data with its partner.
pub(crate) fn ping_channel(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    let (name, others) = sending_channel(context, object, rest, &[("DATALEN", Takes::Value)])?;
    let mut data_length = PING_DATA_LENGTH.0;
    for (_, text) in others {
        data_length = text
            .parse::<u64>()
            .ok()
            .filter(|length| (PING_DATA_LENGTH.0..=PING_DATA_LENGTH.1).contains(length))
            .ok_or_else(|| {
                Failure(vec![format!(
                    "CSQ9012E {} CSQ9SCND DATALEN({text}) is invalid: a number from {} to {} is needed",
                    context.name, PING_DATA_LENGTH.0, PING_DATA_LENGTH.1
                )])
            })?;
    }
    let initiator = initiator(context, "CSQXCRPS")?;
    initiator
        .ping_channel(&name, data_length as usize)
        .map_err(|reason| channel_failure(context, "PING", &name, reason))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQM134I {} CSQXCRPS PING CHANNEL({name}) COMMAND ACCEPTED",
        context.name
    ));
    output.line(format!(
        "AMQ8020I {} Ping channel {name} complete ({data_length} bytes echoed)",
        context.name
    ));
    Ok(output)
}

fn listener_address(status: &ListenerStatus) -> &str {
    if status.ip_address.is_empty() {
        "*"
    } else {
        &status.ip_address
    }
}

/// START LISTENER [PORT(n)] [TRPTYPE(TCP)].
pub(crate) fn start_listener(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    no_object_value(context, object)?;
    let found = keywords(rest, &[("PORT", Takes::Value), ("TRPTYPE", Takes::Value)])
        .map_err(|e| context.syntax(e))?;
    let mut port = None;
    for (token, value) in found {
        let value = value.expect("checked");
        if token.keyword == "PORT" {
            let number = number(token, value, u16::MAX.into())
                .ok()
                .filter(|number| *number > 0)
                .ok_or_else(|| {
                    context.syntax(value_error(
                        token,
                        value,
                        "a port from 1 to 65535 is needed",
                    ))
                })?;
            port = Some(number as u16);
        } else {
            choice(token, value, &["TCP"]).map_err(|e| context.syntax(e))?;
        }
    }
    let initiator = initiator(context, "CSQXCRPS")?;
    let status = initiator.start_listener(port).map_err(|reason| {
        Failure(vec![format!(
            "CSQM134E {} CSQXCRPS START LISTENER FAILED: {reason}",
            context.name
        )])
    })?;
    let mut output = Output::default();
    output.line(format!(
        "CSQM134I {} CSQXCRPS START LISTENER COMMAND ACCEPTED",
        context.name
    ));
    output.line(format!(
        "CSQX023I {} CSQXCLSN Listener started for port {} address {}",
        context.name,
        status.port,
        listener_address(&status)
    ));
    Ok(output)
}

/// STOP LISTENER [TRPTYPE(TCP)].
pub(crate) fn stop_listener(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    no_object_value(context, object)?;
    let found = keywords(rest, &[("TRPTYPE", Takes::Value)]).map_err(|e| context.syntax(e))?;
    for (token, value) in found {
        choice(token, value.expect("checked"), &["TCP"]).map_err(|e| context.syntax(e))?;
    }
    let initiator = initiator(context, "CSQXCRPS")?;
    let before = initiator.listener_status();
    initiator.stop_listener().map_err(|reason| {
        Failure(vec![format!(
            "CSQM134E {} CSQXCRPS STOP LISTENER FAILED: {reason}",
            context.name
        )])
    })?;
    let mut output = Output::default();
    output.line(format!(
        "CSQM134I {} CSQXCRPS STOP LISTENER COMMAND ACCEPTED",
        context.name
    ));
    output.line(format!(
        "CSQX021I {} CSQXCLSN Listener stopped for port {} address {}",
        context.name,
        before.port,
        listener_address(&before)
    ));
    Ok(output)
}

/// The listener's attributes as DISPLAY LSSTATUS shows them.
pub(crate) fn listener_attributes(status: &ListenerStatus) -> Vec<(&'static str, AttributeValue)> {
    vec![
        ("LISTENER", AttributeValue::Text(LISTENER_NAME.to_string())),
        (
            "STATUS",
            AttributeValue::Keyword(if status.running { "RUNNING" } else { "STOPPED" }),
        ),
        ("TRPTYPE", AttributeValue::Keyword("TCP")),
        ("PORT", AttributeValue::Integer(status.port.into())),
        (
            "IPADDR",
            AttributeValue::Text(listener_address(status).to_string()),
        ),
        ("STARTDA", date(status.started, false)),
        ("STARTTI", date(status.started, true)),
    ]
}

/// DISPLAY LSSTATUS[(generic)] [ALL]: the TCP listener.
pub(crate) fn display_listener_status(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    let pattern = match &object.value {
        Some(_) => object_name(object, true).map_err(|e| context.syntax(e))?,
        None => "*".to_string(),
    };
    let sample = listener_attributes(&ListenerStatus {
        port: 0,
        ip_address: String::new(),
        running: false,
        started: None,
    });
    let (selection, _) = Selection::parse(rest, &sample, &[]).map_err(|e| context.syntax(e))?;
    let initiator = initiator(context, "CSQXDRTS")?;
    let attributes = listener_attributes(&initiator.listener_status());
    let mut output = Output::default();
    if !generic_match(&pattern, LISTENER_NAME) || !selection.passes(&attributes) {
        if !is_generic(&pattern) && selection.filter.is_none() {
            return Err(context.not_found("CSQXDRTS", "LISTENER", &pattern));
        }
        output.line(format!(
            "CSQM297I {} CSQXDRTS NO LSSTATUS FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
        return Ok(output);
    }
    output.details(
        format!(
            "CSQM201I {} CSQXDRTS DISPLAY LSSTATUS DETAILS",
            context.name
        ),
        selection.render(&attributes, 4),
        "END LSSTATUS DETAILS",
    );
    Ok(output)
}

/// DISPLAY CHINIT: whether the channel initiator runs, its listener, its channel instances.
pub(crate) fn display_channel_initiator(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    no_object_value(context, object)?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    let initiator = initiator(context, "CSQXCRPS")?;
    let listener = initiator.listener_status();
    let statuses = initiator.channel_statuses();
    let conversations: u64 = statuses
        .iter()
        .map(|status| u64::from(status.current_conversations))
        .sum();
    let stopping = statuses
        .iter()
        .filter(|status| status.status == "STOPPING")
        .count();
    let mut output = Output::default();
    let name = &context.name;
    output.line(format!(
        "CSQM137I {name} CSQXCRPS DISPLAY CHINIT COMMAND ACCEPTED"
    ));
    output.line(format!("CSQX830I {name} CSQXRDQM Channel initiator active"));
    if let Some(tasks) = initiator.tasks() {
        output.line(format!(
            "CSQX831I {name} CSQXRDQM {} adapter subtasks started, {} requested",
            tasks.adapters_started, tasks.adapters_requested
        ));
        output.line(format!(
            "CSQX832I {name} CSQXRDQM {} dispatchers started, {} requested",
            tasks.dispatchers_started, tasks.dispatchers_requested
        ));
    }
    output.line(format!(
        "CSQX847I {name} CSQXRDQM TCP/IP listener INDISP=QMGR, port {} address {}, status {}",
        listener.port,
        listener_address(&listener),
        if listener.running {
            "RUNNING"
        } else {
            "STOPPED"
        }
    ));
    output.line(format!(
        "CSQX845I {name} CSQXRDQM {} current channel instances, {} stopping, {conversations} conversations",
        statuses.len(),
        stopping
    ));
    Ok(output)
}
