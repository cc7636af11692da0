//! A local (or model) queue's attributes: the keywords DEFINE / ALTER QLOCAL and QMODEL take
//! and their checks, and what DISPLAY QUEUE and DISPLAY QSTATUS show, shared by the MQSC
//! commands, the PCF commands and the configuration events.

use std::sync::Arc;

use ferrite_queue_manager::{
    now_ms, LocalQueue, MessageSelector, QueueDefinition, ACCOUNTING_VALUES, MONITORING_VALUES,
    PROPERTY_CONTROL_VALUES, PUT_RESPONSE_VALUES, READ_AHEAD_VALUES, SERVICE_INTERVAL_EVENT_VALUES,
    TRIGGER_DATA_LENGTH_MAX, TRIGGER_TYPE_VALUES,
};
use ferrite_storage::PageSetId;

use crate::attributes::{date_time, AttributeValue};
use crate::context::{choice, enabled, name_or_blank, number, value_error, yes_no, Context, Takes};
use crate::parser::{SyntaxError, Token, Value};
use crate::storage_class_page_set;

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
