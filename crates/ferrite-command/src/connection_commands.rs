//! DISPLAY CONN: the queue manager's connections (in-process, bindings and client), from the
//! registry the MQI keeps (`ferrite_storage::queue_manager::connections`).
//!
//! `DISPLAY CONN(generic) [TYPE(CONN)] [ALL | attributes] [WHERE(...)]` answers, as MQ for
//! z/OS does, `CSQM293I ... n CONN FOUND MATCHING REQUEST CRITERIA` then one
//! `CSQM201I ... DISPLAY CONN DETAILS` block per connection: CONN (the connection's identifier,
//! 16 hexadecimal digits), TYPE(CONN), APPLTAG, APPLTYPE, USERID, CHANNEL, CONNAME, UOWSTATE
//! (ACTIVE or NONE), NOPENS (object handles open: Ferrite's own attribute), CONNDATE and
//! CONNTIME. TYPE(HANDLE) and TYPE(ALL) (the handles of each connection) are not available yet.

use ferrite_constants::appl_type::{MQAT_JAVA, MQAT_UNIX};
use ferrite_storage::queue_manager::ConnectionRecord;

use crate::attributes::{date_time, generic_match, AttributeValue};
use crate::commands::{choice, object_name, Context, Failure, Outcome, Output, Selection, Takes};
use crate::parser::Token;

fn appl_type(value: i32) -> AttributeValue {
    match value {
        MQAT_UNIX => AttributeValue::Keyword("UNIX"),
        MQAT_JAVA => AttributeValue::Keyword("JAVA"),
        other => AttributeValue::Integer(other as i64),
    }
}

fn attributes(record: Option<&ConnectionRecord>) -> Vec<(&'static str, AttributeValue)> {
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
    for (token, value) in extras {
        let value = value.expect("checked");
        if choice(token, value, &["CONN", "HANDLE", "ALL"]).map_err(|e| context.syntax(e))? != 0 {
            return Err(Failure(vec![format!(
                "CSQ9032E {} CSQMDRTC Requested function is not available: TYPE(HANDLE) and TYPE(ALL) need the handle details of each connection",
                context.name
            )]));
        }
    }
    let mut details = Vec::new();
    for record in context.queue_manager.connections().all() {
        let attributes = attributes(Some(&record));
        let id = format!("{:016X}", record.id);
        if generic_match(&pattern, &id) && selection.passes(&attributes) {
            details.push(selection.render(&attributes, 2));
        }
    }
    let mut output = Output::default();
    if details.is_empty() {
        output.line(format!(
            "CSQM297I {} CSQMDRTC NO CONN FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
        return Ok(output);
    }
    output.line(format!(
        "CSQM293I {} CSQMDRTC {} CONN FOUND MATCHING REQUEST CRITERIA",
        context.name,
        details.len()
    ));
    for attributes in details {
        output.details(
            format!("CSQM201I {} CSQMDRTC DISPLAY CONN DETAILS", context.name),
            attributes,
            "END CONN DETAILS",
        );
    }
    Ok(output)
}
