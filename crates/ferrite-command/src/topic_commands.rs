//! TOPIC objects in MQSC: the attributes DEFINE and ALTER TOPIC take, and what DISPLAY TOPIC
//! shows (answered `AMQ8633I`, MQ's own number for this display; the z/OS one is not in
//! Ferrite's references). The generic DEFINE/ALTER/DELETE/DISPLAY of object_commands.rs runs
//! them.
//!
//! DEFINE TOPIC needs TOPICSTR (unique among topic objects); ALTER TOPIC cannot change it, as
//! in MQ. Every inheritable attribute takes ASPARENT (MDURMDL and MNDURMDL: blank), which
//! SYSTEM.BASE.TOPIC, the root, refuses.

use ferrite_queue_manager::objects::topic::{MessageDelivery, Scope, TopicDefinition};
use ferrite_queue_manager::objects::DESCRIPTION_LENGTH_MAX;

use crate::attributes::AttributeValue;
use crate::context::{checked_name_or_blank, choice, value_error};
use crate::parser::{SyntaxError, Token, Value};

/// The keywords DEFINE TOPIC takes (ALTER: all but TOPICSTR).
pub(crate) const TOPIC_KEYWORDS: &[&str] = &[
    "TOPICSTR", "DESCR", "TYPE", "DURSUB", "DEFPSIST", "DEFPRTY", "DEFPRESP", "PUB", "SUB",
    "WILDCARD", "MDURMDL", "MNDURMDL", "PMSGDLV", "NPMSGDLV", "USEDLQ", "PROXYSUB", "PUBSCOPE",
    "SUBSCOPE", "QSGDISP",
];

/// ASPARENT, or the value `choices` gives (first choice `true`).
fn switch(token: &Token, value: &Value, choices: [&str; 2]) -> Result<Option<bool>, SyntaxError> {
    Ok(
        match choice(token, value, &["ASPARENT", choices[0], choices[1]])? {
            0 => None,
            chosen => Some(chosen == 1),
        },
    )
}

fn delivery(token: &Token, value: &Value) -> Result<Option<MessageDelivery>, SyntaxError> {
    let choices = ["ASPARENT", "ALL", "ALLDUR", "ALLAVAIL"];
    Ok(MessageDelivery::from_keyword(
        choices[choice(token, value, &choices)?],
    ))
}

fn scope(token: &Token, value: &Value) -> Result<Option<Scope>, SyntaxError> {
    Ok(match choice(token, value, &["ASPARENT", "QMGR", "ALL"])? {
        0 => None,
        1 => Some(Scope::QueueManager),
        _ => Some(Scope::All),
    })
}

/// Apply one keyword's value to a topic's definition (checked; nothing stored).
pub(crate) fn apply_topic(
    topic: &mut TopicDefinition,
    token: &Token,
    value: &Value,
) -> Result<(), SyntaxError> {
    match token.keyword.as_str() {
        "TOPICSTR" => {
            ferrite_queue_manager::pubsub::topic_string::check_topic_string(&value.text)
                .map_err(|why| value_error(token, value, &why))?;
            topic.topic_string = value.text.clone();
        }
        "DESCR" => {
            if value.text.chars().count() > DESCRIPTION_LENGTH_MAX {
                return Err(value_error(
                    token,
                    value,
                    &format!("at most {DESCRIPTION_LENGTH_MAX} characters"),
                ));
            }
            topic.description = value.text.clone();
        }
        "TYPE" => {
            choice(token, value, &["LOCAL"])?;
        }
        "DURSUB" => topic.durable_subscriptions = switch(token, value, ["YES", "NO"])?,
        "DEFPSIST" => topic.default_persistent = switch(token, value, ["YES", "NO"])?,
        "DEFPRTY" => {
            topic.default_priority = if value.text == "ASPARENT" {
                None
            } else {
                Some(crate::context::number(token, value, 9)? as u8)
            }
        }
        "DEFPRESP" => topic.default_put_response_async = switch(token, value, ["ASYNC", "SYNC"])?,
        "PUB" => topic.publish_enabled = switch(token, value, ["ENABLED", "DISABLED"])?,
        "SUB" => topic.subscribe_enabled = switch(token, value, ["ENABLED", "DISABLED"])?,
        "WILDCARD" => topic.wildcard_block = choice(token, value, &["PASSTHRU", "BLOCK"])? == 1,
        "MDURMDL" => topic.durable_model_queue = checked_name_or_blank(token, value, &value.text)?,
        "MNDURMDL" => {
            topic.nondurable_model_queue = checked_name_or_blank(token, value, &value.text)?
        }
        "PMSGDLV" => topic.persistent_delivery = delivery(token, value)?,
        "NPMSGDLV" => topic.nonpersistent_delivery = delivery(token, value)?,
        "USEDLQ" => topic.use_dead_letter_queue = switch(token, value, ["YES", "NO"])?,
        "PROXYSUB" => {
            topic.proxy_subscriptions_force = choice(token, value, &["FIRSTUSE", "FORCE"])? == 1
        }
        "PUBSCOPE" => topic.publish_scope = scope(token, value)?,
        "SUBSCOPE" => topic.subscribe_scope = scope(token, value)?,
        _ => unreachable!("keywords checked against settable()"),
    }
    Ok(())
}

fn keyword_or_parent(value: Option<&'static str>) -> AttributeValue {
    AttributeValue::Keyword(value.unwrap_or("ASPARENT"))
}

/// The first choice when `on`, else the second.
fn either(on: bool, choices: [&'static str; 2]) -> AttributeValue {
    AttributeValue::Keyword(if on { choices[0] } else { choices[1] })
}

fn switch_shown(value: Option<bool>, choices: [&'static str; 2]) -> AttributeValue {
    keyword_or_parent(value.map(|on| if on { choices[0] } else { choices[1] }))
}

/// A topic's attributes for DISPLAY TOPIC, in MQ's order (TOPIC and TYPE always shown).
pub(crate) fn topic_attributes(d: &TopicDefinition) -> Vec<(&'static str, AttributeValue)> {
    let text = |value: &str| AttributeValue::Text(value.to_string());
    vec![
        ("TOPIC", text(&d.name)),
        ("TYPE", AttributeValue::Keyword("LOCAL")),
        ("QSGDISP", AttributeValue::Keyword("QMGR")),
        ("TOPICSTR", text(&d.topic_string)),
        ("DESCR", text(&d.description)),
        (
            "DURSUB",
            switch_shown(d.durable_subscriptions, ["YES", "NO"]),
        ),
        (
            "DEFPSIST",
            switch_shown(d.default_persistent, ["YES", "NO"]),
        ),
        (
            "DEFPRTY",
            match d.default_priority {
                Some(priority) => AttributeValue::Integer(priority.into()),
                None => AttributeValue::Keyword("ASPARENT"),
            },
        ),
        (
            "DEFPRESP",
            switch_shown(d.default_put_response_async, ["ASYNC", "SYNC"]),
        ),
        (
            "PUB",
            switch_shown(d.publish_enabled, ["ENABLED", "DISABLED"]),
        ),
        (
            "SUB",
            switch_shown(d.subscribe_enabled, ["ENABLED", "DISABLED"]),
        ),
        ("WILDCARD", either(d.wildcard_block, ["BLOCK", "PASSTHRU"])),
        ("MDURMDL", text(&d.durable_model_queue)),
        ("MNDURMDL", text(&d.nondurable_model_queue)),
        (
            "PMSGDLV",
            keyword_or_parent(d.persistent_delivery.map(MessageDelivery::keyword)),
        ),
        (
            "NPMSGDLV",
            keyword_or_parent(d.nonpersistent_delivery.map(MessageDelivery::keyword)),
        ),
        (
            "USEDLQ",
            switch_shown(d.use_dead_letter_queue, ["YES", "NO"]),
        ),
        (
            "PROXYSUB",
            either(d.proxy_subscriptions_force, ["FORCE", "FIRSTUSE"]),
        ),
        (
            "PUBSCOPE",
            keyword_or_parent(d.publish_scope.map(Scope::keyword)),
        ),
        (
            "SUBSCOPE",
            keyword_or_parent(d.subscribe_scope.map(Scope::keyword)),
        ),
    ]
}
