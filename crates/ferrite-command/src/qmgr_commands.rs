//! The queue manager object: ALTER QMGR and DISPLAY QMGR.
//!
//! The alterable attributes live in the stored QMGR object
//! ([`QueueManagerAttributes`], page set 0); the rest of DISPLAY QMGR (platform, command
//! level, CCSID, identifier) is fixed by the build.
//!
//! CONNAUTH names the AUTHINFO connection authentication uses (after REFRESH SECURITY
//! TYPE(CONNAUTH), as in MQ). CHCKCLNT on the queue manager is Ferrite's attribute from before
//! AUTHINFO objects, kept as a compatibility alias: ALTER QMGR CHCKCLNT(x) alters CHCKCLNT of
//! the AUTHINFO CONNAUTH names and refreshes at once (when CONNAUTH names none, it is stored on
//! the QMGR object as before); DISPLAY QMGR CHCKCLNT shows the value in force
//! (`QueueManager::client_check_in_force`).

use ferrite_queue_manager::objects::{
    AUTH_INFO_CHECK_VALUES, QMGR_CHANNEL_EVENT_VALUES, QMGR_CHECK_CLIENT_VALUES,
    QMGR_COMMAND_EVENT_VALUES, QMGR_PUBSUB_MODE_VALUES,
};
use ferrite_queue_manager::{ObjectDefinition, ObjectType};
use ferrite_queue_manager::{
    QueueManagerAttributes, QMGR_ACCOUNTING_VALUES, QMGR_MONITORING_VALUES,
    QMGR_MQI_MONITORING_VALUES,
};

use crate::attributes::AttributeValue;
use crate::context::{
    choice, keywords, name_or_blank, no_object_value, number, value_error, Context, Outcome,
    Output, Selection, Takes,
};
use crate::parser::{SyntaxError, Token};

/// The keywords ALTER QMGR takes.
pub(crate) const ALTERABLE: &[(&str, Takes)] = &[
    ("DESCR", Takes::Value),
    ("DEADQ", Takes::Value),
    ("TRIGINT", Takes::Value),
    ("MAXUMSGS", Takes::Value),
    ("EXPRYINT", Takes::Value),
    ("PERFMEV", Takes::Value),
    ("INHIBTEV", Takes::Value),
    ("LOCALEV", Takes::Value),
    ("AUTHOREV", Takes::Value),
    ("CMDEV", Takes::Value),
    ("CONFIGEV", Takes::Value),
    ("STRSTPEV", Takes::Value),
    ("CHLEV", Takes::Value),
    ("ACCTQ", Takes::Value),
    ("MONQ", Takes::Value),
    ("STATQ", Takes::Value),
    ("STATMQI", Takes::Value),
    ("ACCTMQI", Takes::Value),
    ("STATCHL", Takes::Value),
    ("CHCKCLNT", Takes::Value),
    ("CONNAUTH", Takes::Value),
    ("CHLAUTH", Takes::Value),
    ("DEFXMITQ", Takes::Value),
    ("ACTCHL", Takes::Value),
    ("PSMODE", Takes::Value),
    ("QSGDISP", Takes::Value),
];

fn enabled(on: bool) -> AttributeValue {
    AttributeValue::Keyword(if on { "ENABLED" } else { "DISABLED" })
}

fn keyword(value: &str, choices: &[&'static str]) -> AttributeValue {
    choices
        .iter()
        .find(|choice| **choice == value)
        .map(|choice| AttributeValue::Keyword(choice))
        .unwrap_or_else(|| AttributeValue::Text(value.to_string()))
}

/// The stored (alterable) attributes, in DISPLAY QMGR's order.
pub(crate) fn stored_attributes(
    attributes: &QueueManagerAttributes,
) -> Vec<(&'static str, AttributeValue)> {
    vec![
        ("QMNAME", AttributeValue::Text(attributes.name.clone())),
        (
            "DESCR",
            AttributeValue::Text(attributes.description.clone()),
        ),
        (
            "DEADQ",
            AttributeValue::Text(attributes.dead_letter_queue.clone()),
        ),
        (
            "MAXMSGL",
            AttributeValue::Integer(attributes.max_message_length.into()),
        ),
        (
            "MAXUMSGS",
            AttributeValue::Integer(attributes.max_uncommitted_messages.into()),
        ),
        (
            "EXPRYINT",
            if attributes.expiry_interval == 0 {
                AttributeValue::Keyword("OFF")
            } else {
                AttributeValue::Integer(attributes.expiry_interval.into())
            },
        ),
        (
            "TRIGINT",
            AttributeValue::Integer(attributes.trigger_interval.into()),
        ),
        ("PERFMEV", enabled(attributes.performance_events)),
        ("INHIBTEV", enabled(attributes.inhibit_events)),
        ("LOCALEV", enabled(attributes.local_events)),
        ("AUTHOREV", enabled(attributes.authority_events)),
        (
            "CMDEV",
            keyword(&attributes.command_events, &QMGR_COMMAND_EVENT_VALUES),
        ),
        ("CONFIGEV", enabled(attributes.config_events)),
        ("STRSTPEV", enabled(attributes.start_stop_events)),
        (
            "CHLEV",
            keyword(&attributes.channel_events, &QMGR_CHANNEL_EVENT_VALUES),
        ),
        (
            "ACCTQ",
            keyword(&attributes.accounting_queue, &QMGR_ACCOUNTING_VALUES),
        ),
        (
            "MONQ",
            keyword(&attributes.monitoring_queue, &QMGR_MONITORING_VALUES),
        ),
        (
            "STATQ",
            keyword(&attributes.statistics_queue, &QMGR_ACCOUNTING_VALUES),
        ),
        (
            "STATMQI",
            keyword(&attributes.statistics_mqi, &QMGR_MQI_MONITORING_VALUES),
        ),
        (
            "ACCTMQI",
            keyword(&attributes.accounting_mqi, &QMGR_MQI_MONITORING_VALUES),
        ),
        (
            "STATCHL",
            keyword(&attributes.statistics_channel, &QMGR_MONITORING_VALUES),
        ),
        (
            "CONNAUTH",
            AttributeValue::Text(attributes.connection_authentication.clone()),
        ),
        ("CHLAUTH", enabled(attributes.channel_authentication)),
        (
            "DEFXMITQ",
            AttributeValue::Text(attributes.default_transmission_queue.clone()),
        ),
        (
            "ACTCHL",
            AttributeValue::Integer(attributes.active_channels.into()),
        ),
        (
            "PSMODE",
            keyword(&attributes.publish_subscribe_mode, &QMGR_PUBSUB_MODE_VALUES),
        ),
    ]
}

/// Every attribute DISPLAY QMGR shows (the stored ones, then those fixed by the build).
pub(crate) fn all_attributes(context: &Context) -> Vec<(&'static str, AttributeValue)> {
    let queue_manager = context.queue_manager;
    let mut attributes = stored_attributes(&queue_manager.queue_manager_attributes());
    attributes.extend([
        (
            "CHCKCLNT",
            keyword(
                &queue_manager.client_check_in_force(),
                &AUTH_INFO_CHECK_VALUES,
            ),
        ),
        ("PLATFORM", AttributeValue::Keyword("UNIX")),
        (
            "CMDLEVEL",
            AttributeValue::Integer(ferrite_constants::pcf::MQCMDL_CURRENT_LEVEL.into()),
        ),
        (
            "CCSID",
            AttributeValue::Integer(ferrite_mqi::descriptor::QUEUE_MANAGER_CCSID.into()),
        ),
        (
            "QMID",
            AttributeValue::Text(format!("{:016X}", queue_manager.identity())),
        ),
        (
            "COMMANDQ",
            AttributeValue::Text(crate::COMMAND_QUEUE.to_string()),
        ),
        ("MAXPRTY", AttributeValue::Integer(9)),
        ("SYNCPT", AttributeValue::Flag("SYNCPT")),
    ]);
    // Blank until the first ALTER QMGR stores the queue manager object.
    attributes.extend(crate::attributes::time_attributes(false));
    if let Some(times) = queue_manager.object_times(ObjectType::QueueManager, queue_manager.name())
    {
        crate::attributes::fill_times(&mut attributes, times);
    }
    attributes
}

pub(crate) fn display_qmgr(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    let attributes = all_attributes(context);
    let (mut selection, _) =
        Selection::parse(rest, &attributes, &[]).map_err(|e| context.syntax(e))?;
    // DISPLAY QMGR with no attributes named shows them all, as MQ does.
    if selection.named.is_empty() {
        selection.all = true;
    }
    let mut output = Output::default();
    if selection.passes(&attributes) {
        output.attributes(
            format!("CSQM409I {}", context.name),
            selection.render(&attributes, 1),
            None,
        );
    }
    Ok(output)
}

/// ALTER QMGR: every value is checked before the one store of the QMGR object.
pub(crate) fn alter_qmgr(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    let found = keywords(rest, ALTERABLE).map_err(|e| context.syntax(e))?;
    let queue_manager = context.queue_manager;
    let before = queue_manager.queue_manager_attributes();
    let mut attributes = before.clone();
    for (token, value) in &found {
        let value = value.expect("every ALTER QMGR keyword takes a value");
        apply_qmgr_attribute(&mut attributes, token, value).map_err(|e| context.syntax(e))?;
    }
    attributes
        .validate()
        .map_err(|error| context.storage("CSQMAMMS", error))?;
    // The CHCKCLNT alias: to the AUTHINFO CONNAUTH names, when there is one.
    let mut auth_info = None;
    if found.iter().any(|(token, _)| token.keyword == "CHCKCLNT") {
        let named = queue_manager
            .auth_info(&attributes.connection_authentication)
            .ok()
            .flatten();
        if let Some(mut definition) = named {
            definition.check_client = std::mem::replace(
                &mut attributes.check_client,
                QMGR_CHECK_CLIENT_VALUES[0].to_string(),
            );
            auth_info = Some(definition);
        }
    }
    if attributes != before {
        queue_manager
            .alter_queue_manager(attributes)
            .map_err(|error| context.storage("CSQMAMMS", error))?;
    }
    if let Some(definition) = auth_info {
        queue_manager
            .alter_object(ObjectDefinition::AuthInfo(definition))
            .and_then(|_| queue_manager.refresh_connection_authentication())
            .map_err(|error| context.storage("CSQMAMMS", error))?;
    }
    Ok(Output::default())
}

/// Apply one ALTER QMGR keyword's value to `attributes` (checked, nothing stored).
pub(crate) fn apply_qmgr_attribute(
    attributes: &mut QueueManagerAttributes,
    token: &Token,
    value: &crate::parser::Value,
) -> Result<(), SyntaxError> {
    let event = |token, value| -> Result<bool, SyntaxError> {
        Ok(choice(token, value, &["DISABLED", "ENABLED"])? == 1)
    };
    match token.keyword.as_str() {
        "DESCR" => {
            if value.text.chars().count() > 64 {
                return Err(value_error(token, value, "at most 64 characters"));
            }
            attributes.description = value.text.clone();
        }
        "DEADQ" => attributes.dead_letter_queue = name_or_blank(token, value)?,
        "TRIGINT" => attributes.trigger_interval = number(token, value, 999_999_999)? as u32,
        "MAXUMSGS" => {
            let limit = number(token, value, 999_999_999)? as u32;
            if limit == 0 {
                return Err(value_error(
                    token,
                    value,
                    "a number from 1 to 999999999 is needed",
                ));
            }
            attributes.max_uncommitted_messages = limit;
        }
        "EXPRYINT" => {
            attributes.expiry_interval = if value.text == "OFF" {
                0
            } else {
                number(token, value, 99_999_999)? as u32
            }
        }
        "PERFMEV" => attributes.performance_events = event(token, value)?,
        "INHIBTEV" => attributes.inhibit_events = event(token, value)?,
        "LOCALEV" => attributes.local_events = event(token, value)?,
        "AUTHOREV" => attributes.authority_events = event(token, value)?,
        "CMDEV" => {
            attributes.command_events = QMGR_COMMAND_EVENT_VALUES
                [choice(token, value, &QMGR_COMMAND_EVENT_VALUES)?]
            .to_string()
        }
        "CONFIGEV" => attributes.config_events = event(token, value)?,
        "STRSTPEV" => attributes.start_stop_events = event(token, value)?,
        "CHLEV" => {
            attributes.channel_events = QMGR_CHANNEL_EVENT_VALUES
                [choice(token, value, &QMGR_CHANNEL_EVENT_VALUES)?]
            .to_string()
        }
        "ACCTQ" => {
            attributes.accounting_queue =
                QMGR_ACCOUNTING_VALUES[choice(token, value, &QMGR_ACCOUNTING_VALUES)?].to_string()
        }
        "MONQ" => {
            attributes.monitoring_queue =
                QMGR_MONITORING_VALUES[choice(token, value, &QMGR_MONITORING_VALUES)?].to_string()
        }
        "STATQ" => {
            attributes.statistics_queue =
                QMGR_ACCOUNTING_VALUES[choice(token, value, &QMGR_ACCOUNTING_VALUES)?].to_string()
        }
        "STATMQI" => {
            attributes.statistics_mqi = QMGR_MQI_MONITORING_VALUES
                [choice(token, value, &QMGR_MQI_MONITORING_VALUES)?]
            .to_string()
        }
        "ACCTMQI" => {
            attributes.accounting_mqi = QMGR_MQI_MONITORING_VALUES
                [choice(token, value, &QMGR_MQI_MONITORING_VALUES)?]
            .to_string()
        }
        "STATCHL" => {
            attributes.statistics_channel =
                QMGR_MONITORING_VALUES[choice(token, value, &QMGR_MONITORING_VALUES)?].to_string()
        }
        "CHCKCLNT" => {
            attributes.check_client = QMGR_CHECK_CLIENT_VALUES
                [choice(token, value, &QMGR_CHECK_CLIENT_VALUES)?]
            .to_string()
        }
        "CONNAUTH" => attributes.connection_authentication = name_or_blank(token, value)?,
        "CHLAUTH" => attributes.channel_authentication = event(token, value)?,
        "DEFXMITQ" => attributes.default_transmission_queue = name_or_blank(token, value)?,
        "ACTCHL" => {
            let limit = ferrite_queue_manager::objects::ACTIVE_CHANNELS_MAX;
            let count = number(token, value, limit.into())? as u32;
            if count == 0 {
                return Err(value_error(
                    token,
                    value,
                    "a number from 1 to 9999 is needed",
                ));
            }
            attributes.active_channels = count;
        }
        "PSMODE" => {
            attributes.publish_subscribe_mode =
                QMGR_PUBSUB_MODE_VALUES[choice(token, value, &QMGR_PUBSUB_MODE_VALUES)?].to_string()
        }
        "QSGDISP" => {
            choice(token, value, &["QMGR"])?;
        }
        _ => unreachable!("keywords checked against ALTERABLE"),
    }
    Ok(())
}
