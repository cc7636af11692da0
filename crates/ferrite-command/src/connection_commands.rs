//! DISPLAY CONN: the queue manager's connections (in-process, bindings and client), from the
//! registry the MQI keeps (`ferrite_queue_manager::queue_manager::connections`).
//!
//! `DISPLAY CONN(generic) [TYPE(CONN)] [ALL | attributes] [WHERE(...)]` answers, as MQ for
//! z/OS does, `CSQM293I ... n CONN FOUND MATCHING REQUEST CRITERIA` then one
//! `CSQM201I ... DISPLAY CONN DETAILS` block per connection: CONN (the connection's identifier,
//! 16 hexadecimal digits), TYPE(CONN), APPLTAG, APPLTYPE, USERID, CHANNEL, CONNAME, UOWSTATE
//! (ACTIVE or NONE), NOPENS (object handles open: Ferrite's own attribute), CONNDATE and
//! CONNTIME. TYPE(HANDLE) and TYPE(ALL) (the handles of each connection) are not available yet.

use ferrite_constants::appl_type::{MQAT_JAVA, MQAT_UNIX};
use ferrite_constants::object_type::*;
use ferrite_constants::open_options::*;
use ferrite_queue_manager::{ConnectionRecord, HandleRecord};

use crate::attributes::{date_time, generic_match, AttributeValue};
use crate::context::{choice, object_name, Context, Outcome, Output, Selection, Takes};
use crate::parser::Token;

fn appl_type(value: i32) -> AttributeValue {
    match value {
        MQAT_UNIX => AttributeValue::Keyword("UNIX"),
        MQAT_JAVA => AttributeValue::Keyword("JAVA"),
        other => AttributeValue::Integer(other as i64),
    }
}

pub(crate) fn attributes(record: Option<&ConnectionRecord>) -> Vec<(&'static str, AttributeValue)> {
    let text = |value: String| AttributeValue::Text(value);
    let (date, time) = record
        .map(|record| date_time(record.started_ms))
        .unwrap_or_default();
    vec![
        (
            "CONN",
            text(
                record
                    .map(|record| format!("{:016X}", record.id))
                    .unwrap_or_default(),
            ),
        ),
        ("TYPE", AttributeValue::Keyword("CONN")),
        (
            "APPLTAG",
            text(
                record
                    .map(|record| record.appl_tag.clone())
                    .unwrap_or_default(),
            ),
        ),
        (
            "APPLTYPE",
            appl_type(record.map_or(MQAT_UNIX, |record| record.appl_type)),
        ),
        (
            "USERID",
            text(record.map(|record| record.user()).unwrap_or_default()),
        ),
        (
            "CHANNEL",
            text(record.map(|record| record.channel()).unwrap_or_default()),
        ),
        (
            "CONNAME",
            text(
                record
                    .map(|record| record.connection_name())
                    .unwrap_or_default(),
            ),
        ),
        (
            "UOWSTATE",
            AttributeValue::Keyword(
                if record.is_some_and(|record| record.unit_of_work_active()) {
                    "ACTIVE"
                } else {
                    "NONE"
                },
            ),
        ),
        (
            "NOPENS",
            AttributeValue::Integer(record.map_or(0, |record| record.open_handles() as i64)),
        ),
        ("CONNDATE", text(date)),
        ("CONNTIME", text(time)),
    ]
}

pub(crate) fn display_connections(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let pattern = object_name(object, true).map_err(|e| context.syntax(e))?;
    let sample = attributes(None);
    let (selection, extras) = Selection::parse(rest, &sample, &[("TYPE", Takes::Value)])
        .map_err(|e| context.syntax(e))?;
    // 0: CONN, 1: HANDLE, 2: ALL.
    let mut kind = 0;
    for (token, value) in extras {
        let value = value.expect("checked");
        kind = choice(token, value, &["CONN", "HANDLE", "ALL"]).map_err(|e| context.syntax(e))?;
    }
    let mut details = Vec::new();
    let mut count = 0;
    for record in context.queue_manager.connections().all() {
        let attributes = attributes(Some(&record));
        let id = format!("{:016X}", record.id);
        if !(generic_match(&pattern, &id) && selection.passes(&attributes)) {
            continue;
        }
        count += 1;
        if kind != 1 {
            details.push(selection.render(&attributes, 2));
        }
        if kind != 0 {
            for handle in record.handles() {
                details.push(
                    handle_attributes(&record, &handle)
                        .iter()
                        .map(|(name, value)| value.render(name))
                        .collect(),
                );
            }
        }
    }
    Ok(Output::found_details(
        &context.name,
        "CSQMDRTC",
        "CONN",
        count,
        details,
    ))
}

/// MQ's names of the open options set in `options`, in MQ's order (OPENOPTS).
pub(crate) fn open_option_names(options: i32) -> String {
    const NAMES: &[(i32, &str)] = &[
        (MQOO_INPUT_AS_Q_DEF, "MQOO_INPUT_AS_Q_DEF"),
        (MQOO_INPUT_SHARED, "MQOO_INPUT_SHARED"),
        (MQOO_INPUT_EXCLUSIVE, "MQOO_INPUT_EXCLUSIVE"),
        (MQOO_BROWSE, "MQOO_BROWSE"),
        (MQOO_OUTPUT, "MQOO_OUTPUT"),
        (MQOO_INQUIRE, "MQOO_INQUIRE"),
        (MQOO_SET, "MQOO_SET"),
        (MQOO_SAVE_ALL_CONTEXT, "MQOO_SAVE_ALL_CONTEXT"),
        (MQOO_PASS_IDENTITY_CONTEXT, "MQOO_PASS_IDENTITY_CONTEXT"),
        (MQOO_PASS_ALL_CONTEXT, "MQOO_PASS_ALL_CONTEXT"),
        (MQOO_SET_IDENTITY_CONTEXT, "MQOO_SET_IDENTITY_CONTEXT"),
        (MQOO_SET_ALL_CONTEXT, "MQOO_SET_ALL_CONTEXT"),
        (
            MQOO_ALTERNATE_USER_AUTHORITY,
            "MQOO_ALTERNATE_USER_AUTHORITY",
        ),
        (MQOO_FAIL_IF_QUIESCING, "MQOO_FAIL_IF_QUIESCING"),
        (MQOO_BIND_ON_OPEN, "MQOO_BIND_ON_OPEN"),
        (MQOO_BIND_NOT_FIXED, "MQOO_BIND_NOT_FIXED"),
        (MQOO_BIND_ON_GROUP, "MQOO_BIND_ON_GROUP"),
        (MQOO_NO_READ_AHEAD, "MQOO_NO_READ_AHEAD"),
        (MQOO_READ_AHEAD, "MQOO_READ_AHEAD"),
    ];
    NAMES
        .iter()
        .filter(|(bit, _)| options & bit != 0)
        .map(|(_, name)| *name)
        .collect::<Vec<_>>()
        .join(",")
}

fn object_type_keyword(object_type: i32) -> AttributeValue {
    AttributeValue::Keyword(match object_type {
        MQOT_Q => "QUEUE",
        MQOT_Q_MGR => "QMGR",
        MQOT_PROCESS => "PROCESS",
        MQOT_NAMELIST => "NAMELIST",
        MQOT_TOPIC => "TOPIC",
        _ => "NONE",
    })
}

/// One handle as DISPLAY CONN TYPE(HANDLE) shows it.
pub(crate) fn handle_attributes(
    record: &ConnectionRecord,
    handle: &HandleRecord,
) -> Vec<(&'static str, AttributeValue)> {
    vec![
        ("CONN", AttributeValue::Text(format!("{:016X}", record.id))),
        ("TYPE", AttributeValue::Keyword("HANDLE")),
        ("OBJNAME", AttributeValue::Text(handle.object_name.clone())),
        ("OBJTYPE", object_type_keyword(handle.object_type)),
        (
            "OPENOPTS",
            AttributeValue::Text(open_option_names(handle.open_options)),
        ),
        ("ASTATE", AttributeValue::Keyword("NONE")),
        ("QSGDISP", AttributeValue::Keyword("QMGR")),
    ]
}

fn yes_no(value: bool) -> AttributeValue {
    AttributeValue::Keyword(if value { "YES" } else { "NO" })
}

/// One handle open on `queue` as DISPLAY QSTATUS TYPE(HANDLE) shows it (`None`: the sample
/// of attributes, for WHERE and attribute names).
pub(crate) fn queue_handle_attributes(
    queue: &str,
    handle: Option<(&ConnectionRecord, &HandleRecord)>,
) -> Vec<(&'static str, AttributeValue)> {
    let text = |value: String| AttributeValue::Text(value);
    let options = handle.map_or(0, |(_, handle)| handle.open_options);
    let input = if options & MQOO_INPUT_EXCLUSIVE != 0 {
        "EXCL"
    } else if options & (MQOO_INPUT_SHARED | MQOO_INPUT_AS_Q_DEF) != 0 {
        "SHARED"
    } else {
        "NO"
    };
    let record = handle.map(|(record, _)| record);
    vec![
        ("QSTATUS", text(queue.to_string())),
        ("TYPE", AttributeValue::Keyword("HANDLE")),
        ("QSGDISP", AttributeValue::Keyword("QMGR")),
        (
            "APPLTAG",
            text(record.map(|r| r.appl_tag.clone()).unwrap_or_default()),
        ),
        (
            "APPLTYPE",
            appl_type(record.map_or(MQAT_UNIX, |r| r.appl_type)),
        ),
        ("ASTATE", AttributeValue::Keyword("NONE")),
        ("BROWSE", yes_no(options & MQOO_BROWSE != 0)),
        (
            "CHANNEL",
            text(record.map(|r| r.channel()).unwrap_or_default()),
        ),
        (
            "CONN",
            text(record.map(|r| format!("{:016X}", r.id)).unwrap_or_default()),
        ),
        (
            "CONNAME",
            text(record.map(|r| r.connection_name()).unwrap_or_default()),
        ),
        ("INPUT", AttributeValue::Keyword(input)),
        ("INQUIRE", yes_no(options & MQOO_INQUIRE != 0)),
        ("OUTPUT", yes_no(options & MQOO_OUTPUT != 0)),
        (
            "PID",
            AttributeValue::Integer(record.map_or(0, |r| r.process_id().into())),
        ),
        ("SET", yes_no(options & MQOO_SET != 0)),
        (
            "TID",
            AttributeValue::Integer(handle.map_or(0, |(_, h)| h.thread as i64)),
        ),
        (
            "UOWSTATE",
            AttributeValue::Keyword(if record.is_some_and(|r| r.unit_of_work_active()) {
                "ACTIVE"
            } else {
                "NONE"
            }),
        ),
        ("URTYPE", AttributeValue::Keyword("QMGR")),
        ("USERID", text(record.map(|r| r.user()).unwrap_or_default())),
    ]
}

/// Every handle open on a local queue whose name matches `pattern`, by queue name then
/// connection then Hobj: (queue, connection, handle).
pub(crate) fn queue_handles(
    context: &Context,
    pattern: &str,
) -> Vec<(String, std::sync::Arc<ConnectionRecord>, HandleRecord)> {
    let mut found = Vec::new();
    for record in context.queue_manager.connections().all() {
        for handle in record.handles() {
            if !handle.queue.is_empty() && generic_match(pattern, &handle.queue) {
                found.push((handle.queue.clone(), record.clone(), handle));
            }
        }
    }
    found.sort_by(|a, b| (&a.0, a.1.id, a.2.hobj).cmp(&(&b.0, b.1.id, b.2.hobj)));
    found
}

/// DISPLAY QSTATUS(generic) TYPE(HANDLE).
pub(crate) fn display_handle_status(
    context: &Context,
    pattern: &str,
    selection: &Selection,
) -> Outcome {
    let mut details = Vec::new();
    for (queue, record, handle) in queue_handles(context, pattern) {
        let attributes = queue_handle_attributes(&queue, Some((&record, &handle)));
        if selection.passes(&attributes) {
            details.push(selection.render(&attributes, 3));
        }
    }
    Ok(Output::found_each(
        &context.name,
        "CSQMDRTC",
        "QSTATUS",
        details,
    ))
}
