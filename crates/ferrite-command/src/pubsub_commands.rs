//! Publish/subscribe commands: DEFINE, DELETE and DISPLAY SUB, DISPLAY SBSTATUS, DISPLAY
//! TPSTATUS and DISPLAY PUBSUB, with MQ's keywords. The subscriptions are the queue manager's
//! (`ferrite_queue_manager::pubsub`); TOPIC objects are generic objects (topic_commands.rs).
//!
//! | command          | message  |
//! |------------------|----------|
//! | DISPLAY SUB      | AMQ8096I |
//! | DISPLAY SBSTATUS | AMQ8099I |
//! | DISPLAY TPSTATUS | AMQ8754I |
//! | DISPLAY PUBSUB   | AMQ8723I |
//!
//! (MQ's own numbers for these displays; the z/OS ones are not in Ferrite's references.)
//!
//! DEFINE SUB makes a durable administrative subscription (SUBTYPE(ADMIN)) to a local queue
//! (DEST, DESTCLAS(PROVIDED)), from MQ's defaults or, with LIKE, from another subscription's
//! attributes ([`new_subscription`], shared with PCF Create and Copy Subscription); SUBSCOPE
//! takes ALL or QMGR, SUBLEVEL 0-9; PSPROP takes MSGPROP, RFH2, COMPAT
//! or NONE; PUBACCT, PUBAPPID, EXPIRY, REQONLY, SUBUSER and VARUSER are as ALTER SUB takes
//! them (subscription_changes.rs).
//! A subscription's name (SUB) is text as given, up to 10,240 bytes; generic names end in `*`.

use ferrite_queue_manager::objects::subscription::{
    hex, hex32, priority_keyword, SubscriptionDefinition, EXPIRY_UNLIMITED, SUBSCRIPTION_LEVEL_MAX,
};
use ferrite_queue_manager::pubsub::topic_string::combine;
use ferrite_queue_manager::pubsub::WildcardScheme;
use ferrite_queue_manager::{ObjectType, TopicDefinition};

use crate::attributes::{generic_match, AttributeValue};
use crate::context::{
    choice, keywords, value_error, yes_no, Context, Failure, Found, Outcome, Output, Selection,
    Takes,
};
use crate::parser::{SyntaxError, Token, Value};
use crate::subscription_changes::SubscriptionChanges;

/// The keywords DEFINE SUB takes.
const DEFINE_SUB_KEYWORDS: &[(&str, Takes)] = &[
    ("TOPICSTR", Takes::Value),
    ("TOPICOBJ", Takes::Value),
    ("DEST", Takes::Value),
    ("DESTQMGR", Takes::Value),
    ("DESTCLAS", Takes::Value),
    ("DESTCORL", Takes::Value),
    ("USERDATA", Takes::Value),
    ("SELECTOR", Takes::Value),
    ("PUBPRTY", Takes::Value),
    ("WSCHEMA", Takes::Value),
    ("PSPROP", Takes::Value),
    ("PUBACCT", Takes::Value),
    ("PUBAPPID", Takes::Value),
    ("EXPIRY", Takes::Value),
    ("REQONLY", Takes::Value),
    ("SUBUSER", Takes::Value),
    ("VARUSER", Takes::Value),
    ("SUBSCOPE", Takes::Value),
    ("SUBLEVEL", Takes::Value),
    ("LIKE", Takes::Value),
    ("REPLACE", Takes::Nothing),
    ("NOREPLACE", Takes::Nothing),
];

/// The subscription's name as given (text, not an object name): required.
fn subscription_name(object: &Token, generic: bool) -> Result<String, SyntaxError> {
    let value = crate::context::required_name_value(object)?;
    let limit = ferrite_queue_manager::objects::subscription::SUBSCRIPTION_TEXT_LENGTH_MAX;
    if value.text.is_empty() || value.text.len() > limit || (!generic && value.text.contains('*')) {
        return Err(value_error(
            object,
            value,
            &format!("a subscription name of 1 to {limit} bytes is needed"),
        ));
    }
    Ok(value.text.clone())
}

fn value_of<'f>(found: &'f Found, keyword: &str) -> Option<(&'f Token, &'f Value)> {
    found
        .iter()
        .find(|(token, _)| token.keyword == keyword)
        .and_then(|(token, value)| value.map(|value| (*token, value)))
}

/// DEFINE SUB(name): a durable administrative subscription, from LIKE's attributes when
/// given.
pub(crate) fn define_subscription(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = subscription_name(object, false).map_err(|e| context.syntax(e))?;
    let found = keywords(rest, DEFINE_SUB_KEYWORDS).map_err(|e| context.syntax(e))?;
    let replace = found.iter().any(|(token, _)| token.keyword == "REPLACE");
    let request =
        request_from(&found, context.queue_manager.name()).map_err(|e| context.syntax(e))?;
    let queue_manager = context.queue_manager;
    let like = match value_of(&found, "LIKE") {
        Some((_, value)) => Some(
            queue_manager
                .subscription(&value.text)
                .ok_or_else(|| context.not_found("CSQMMSGP", "SUB", &value.text))?,
        ),
        None => None,
    };
    let subscription =
        new_subscription(context, &name, like.as_ref(), &request).map_err(|refusal| {
            match refusal {
                NotDefined::UnknownTopicObject(topic_object) => {
                    context.not_found("CSQMMSGP", "TOPIC", &topic_object)
                }
                NotDefined::UnknownDestination(queue) => {
                    context.not_found("CSQMMSGP", "QLOCAL", &queue)
                }
                NotDefined::Missing(keyword) => context.syntax(SyntaxError::new(
                    format!("CSQ9010E Required parameter '{keyword}' is missing"),
                    0,
                )),
                NotDefined::Refused { reason, what } => Failure(vec![format!(
                    "CSQM090E {} CSQMMSGP FAILURE REASON CODE X'{reason:08X}': {what} of SUB({name}) cannot be so",
                    context.name
                )]),
            }
        })?;
    // REPLACE of a subscription that does not exist defines it.
    let replace = replace && queue_manager.subscription(&name).is_some();
    queue_manager
        .define_subscription(subscription, replace)
        .map_err(|error| context.storage("CSQMMSGP", error))?;
    Ok(Output::default())
}

/// What DEFINE SUB, PCF Create Subscription or Copy Subscription asks of a new
/// administrative subscription (None: as LIKE's, or MQ's default).
#[derive(Clone, Debug, Default)]
pub(crate) struct NewSubscription {
    pub(crate) topic_object: Option<String>,
    pub(crate) topic_string: Option<String>,
    pub(crate) correl_id: Option<[u8; 24]>,
    pub(crate) selector: Option<String>,
    pub(crate) wildcard_character: Option<bool>,
    pub(crate) scope_queue_manager: Option<bool>,
    pub(crate) level: Option<u8>,
    /// DEST, DESTQMGR, USERDATA, PUBPRTY, PSPROP, PUBACCT, PUBAPPID, EXPIRY, REQONLY, SUBUSER
    /// and VARUSER, as ALTER SUB takes them (its unalterable fields unset).
    pub(crate) changes: SubscriptionChanges,
}

/// Why a new subscription was not made.
#[derive(Debug)]
pub(crate) enum NotDefined {
    /// TOPICOBJ names no TOPIC object.
    UnknownTopicObject(String),
    /// DEST names no queue of this queue manager.
    UnknownDestination(String),
    /// A required keyword (TOPICSTR or TOPICOBJ, DEST) was given neither itself nor by LIKE.
    Missing(&'static str),
    /// An attribute MQ refuses so (its reason, and which attribute).
    Refused { reason: i32, what: &'static str },
}

/// The subscription `name` that `request` describes, starting from `like` (a copy of its
/// attributes but its name, SUBID, and, when it is its SUBID, DESTCORL) or from MQ's
/// defaults for DEFINE SUB. Checked: TOPICOBJ and DEST exist, the selector parses, and what
/// MQ refuses of the attributes together (SUBLEVEL above 1 with REQONLY(YES)).
pub(crate) fn new_subscription(
    context: &Context,
    name: &str,
    like: Option<&SubscriptionDefinition>,
    request: &NewSubscription,
) -> Result<SubscriptionDefinition, NotDefined> {
    let queue_manager = context.queue_manager;
    let id = new_subscription_id(context);
    let mut subscription = match like {
        Some(like) => SubscriptionDefinition {
            name: name.to_string(),
            id,
            correl_id: if like.correl_id == like.id {
                id
            } else {
                like.correl_id
            },
            managed: false,
            administrative: true,
            durable: true,
            ..like.clone()
        },
        None => SubscriptionDefinition {
            name: name.to_string(),
            id,
            correl_id: id,
            administrative: true,
            // DEFINE SUB's VARUSER defaults to ANY.
            any_user: true,
            ..SubscriptionDefinition::blank()
        },
    };
    if request.topic_object.is_some() || request.topic_string.is_some() {
        let topic_object = request.topic_object.clone().unwrap_or_default();
        let object_topic_string = match topic_object.as_str() {
            "" => String::new(),
            object => match queue_manager.topic_object(object) {
                Ok(TopicDefinition { topic_string, .. }) => topic_string,
                Err(_) => return Err(NotDefined::UnknownTopicObject(topic_object)),
            },
        };
        let topic_string = request.topic_string.as_deref().unwrap_or_default();
        subscription.topic_string = combine(&object_topic_string, topic_string);
        subscription.topic_object = topic_object;
    }
    if subscription.topic_string.is_empty() {
        return Err(NotDefined::Missing("TOPICSTR"));
    }
    if let Some(correl_id) = request.correl_id {
        subscription.correl_id = correl_id;
    }
    if let Some(selector) = &request.selector {
        if !selector.is_empty() && ferrite_mqi::selection::Selection::parse(selector).is_err() {
            let reason = ferrite_constants::reason::MQRC_SELECTION_STRING_ERROR;
            return Err(NotDefined::Refused {
                reason,
                what: "SELECTOR",
            });
        }
        subscription.selector.clone_from(selector);
    }
    if let Some(character) = request.wildcard_character {
        subscription.wildcard_scheme = match character {
            true => WildcardScheme::Character,
            false => WildcardScheme::Topic,
        };
    }
    if let Some(scope) = request.scope_queue_manager {
        subscription.scope_queue_manager = scope;
    }
    if let Some(level) = request.level {
        subscription.level = level;
    }
    let now_ms = ferrite_queue_manager::now_ms();
    // LIKE's EXPIRY counts from now, as a new setting does.
    let expiry = subscription.expiry;
    subscription.set_expiry(expiry, now_ms);
    let mut subscription = request
        .changes
        .apply(queue_manager, subscription, now_ms)
        .map_err(|refused| NotDefined::Refused {
            reason: refused.reason,
            what: refused.what,
        })?;
    if subscription.destination.is_empty() {
        return Err(NotDefined::Missing("DEST"));
    }
    if queue_manager.queue(&subscription.destination).is_none() {
        return Err(NotDefined::UnknownDestination(std::mem::take(
            &mut subscription.destination,
        )));
    }
    if subscription.level > 1 && subscription.publications_on_request {
        let reason = ferrite_constants::reason::MQRC_OPTIONS_ERROR;
        return Err(NotDefined::Refused {
            reason,
            what: "SUBLEVEL",
        });
    }
    Ok(subscription)
}

/// What DEFINE SUB's keywords ask for, each value checked.
fn request_from(found: &Found, queue_manager_name: &str) -> Result<NewSubscription, SyntaxError> {
    let text = |keyword: &str| value_of(found, keyword).map(|(_, value)| value.text.clone());
    let mut request = NewSubscription {
        topic_object: text("TOPICOBJ"),
        topic_string: text("TOPICSTR"),
        selector: text("SELECTOR"),
        // DEST, DESTQMGR, PSPROP, PUBACCT, PUBAPPID, PUBPRTY, EXPIRY, REQONLY, SUBUSER,
        // USERDATA and VARUSER as ALTER SUB takes them.
        changes: crate::subscription_changes::changes_from(found)?,
        ..NewSubscription::default()
    };
    if let Some((token, value)) = value_of(found, "WSCHEMA") {
        request.wildcard_character = Some(choice(token, value, &["TOPIC", "CHAR"])? == 1);
    }
    if let Some((token, value)) = value_of(found, "DESTCLAS") {
        choice(token, value, &["PROVIDED"])?;
    }
    if let Some((token, value)) = value_of(found, "DESTCORL") {
        request.correl_id = Some(
            ferrite_queue_manager::objects::subscription::from_hex(&value.text)
                .ok_or_else(|| value_error(token, value, "48 hexadecimal digits are needed"))?,
        );
    }
    if let Some((token, value)) = value_of(found, "DESTQMGR") {
        if !value.text.is_empty() && value.text != queue_manager_name {
            return Err(value_error(token, value, "only this queue manager"));
        }
    }
    if let Some((token, value)) = value_of(found, "SELECTOR") {
        if !value.text.is_empty() && ferrite_mqi::selection::Selection::parse(&value.text).is_err()
        {
            return Err(value_error(token, value, "not a valid selector"));
        }
    }
    if let Some((token, value)) = value_of(found, "SUBSCOPE") {
        request.scope_queue_manager = Some(choice(token, value, &["ALL", "QMGR"])? == 1);
    }
    if let Some((token, value)) = value_of(found, "SUBLEVEL") {
        let level = value
            .text
            .parse::<u8>()
            .ok()
            .filter(|level| *level <= SUBSCRIPTION_LEVEL_MAX)
            .ok_or_else(|| value_error(token, value, "0-9 is needed"))?;
        request.level = Some(level);
    }
    Ok(request)
}

/// A new SUBID: 24 bytes unique in this queue manager (the MQI's identifier scheme).
pub(crate) fn new_subscription_id(context: &Context) -> [u8; 24] {
    ferrite_mqi::reserve_identifiers(context.queue_manager.name(), 1).0
}

/// DELETE SUB(name): MQRC_SUBSCRIPTION_IN_USE while a handle has it open.
pub(crate) fn delete_subscription(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = subscription_name(object, false).map_err(|e| context.syntax(e))?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    let queue_manager = context.queue_manager;
    if queue_manager.subscription(&name).is_none() {
        return Err(context.not_found("CSQMUQLC", "SUB", &name));
    }
    if queue_manager.subscription_in_use(&name) {
        return Err(Failure(vec![format!(
            "CSQM090E {} CSQMUQLC FAILURE REASON CODE X'{:08X}': SUB({name}) is in use",
            context.name,
            ferrite_constants::reason::MQRC_SUBSCRIPTION_IN_USE
        )]));
    }
    let removed = queue_manager
        .delete_subscription(&name)
        .map_err(|error| context.storage("CSQMUQLC", error))?;
    if removed.managed && removed.durable {
        let _ = queue_manager.delete_queue(&removed.destination, true);
    }
    Ok(Output::default())
}

/// A subscription's attributes for DISPLAY SUB (SUB and SUBID always shown).
pub(crate) fn subscription_attributes(
    s: &SubscriptionDefinition,
) -> Vec<(&'static str, AttributeValue)> {
    let text = |value: &str| AttributeValue::Text(value.to_string());
    let keyword = AttributeValue::Keyword;
    vec![
        ("SUB", text(&s.name)),
        ("SUBID", text(&hex(&s.id))),
        ("TOPICSTR", text(&s.topic_string)),
        ("TOPICOBJ", text(&s.topic_object)),
        ("DEST", text(&s.destination)),
        ("DESTQMGR", text(&s.destination_queue_manager)),
        (
            "DESTCLAS",
            keyword(if s.managed { "MANAGED" } else { "PROVIDED" }),
        ),
        ("DESTCORL", text(&hex(&s.correl_id))),
        ("USERDATA", text(&s.user_data)),
        ("SELECTOR", text(&s.selector)),
        ("PUBPRTY", text(&priority_keyword(s.publication_priority))),
        ("WSCHEMA", keyword(s.wildcard_scheme.keyword())),
        ("SUBTYPE", subscription_type(s)),
        ("DURABLE", yes_no(s.durable)),
        ("PSPROP", keyword(s.publication_properties.keyword())),
        (
            "REQONLY",
            keyword(if s.publications_on_request {
                "YES"
            } else {
                "NO"
            }),
        ),
        (
            "EXPIRY",
            match s.expiry {
                EXPIRY_UNLIMITED => keyword("UNLIMITED"),
                tenths => AttributeValue::Integer(tenths.into()),
            },
        ),
        ("PUBACCT", text(&hex32(&s.publication_accounting_token))),
        ("PUBAPPID", text(&s.publication_application_id)),
        ("SUBUSER", text(&s.user)),
        ("VARUSER", keyword(if s.any_user { "ANY" } else { "FIXED" })),
        ("SUBSCOPE", keyword(s.scope_keyword())),
        ("SUBLEVEL", AttributeValue::Integer(s.level.into())),
    ]
}

/// A subscription's status for DISPLAY SBSTATUS.
pub(crate) fn status_attributes(
    context: &Context,
    s: &SubscriptionDefinition,
) -> Vec<(&'static str, AttributeValue)> {
    let depth = context
        .queue_manager
        .queue(&s.destination)
        .map(|queue| queue.status().current_depth as i64)
        .unwrap_or(0);
    vec![
        ("SUB", AttributeValue::Text(s.name.clone())),
        ("SUBID", AttributeValue::Text(hex(&s.id))),
        ("DURABLE", yes_no(s.durable)),
        ("SUBTYPE", subscription_type(s)),
        (
            "ACTIVE",
            yes_no(context.queue_manager.subscription_in_use(&s.name)),
        ),
        ("DESTDPTH", AttributeValue::Integer(depth)),
    ]
}

/// DISPLAY SUB(generic) and DISPLAY SBSTATUS(generic), with SUBTYPE(API|ADMIN|ALL|USER) and
/// DURABLE(YES|NO|ALL) selecting.
pub(crate) fn display_subscriptions(
    context: &Context,
    status: bool,
    object: &Token,
    rest: &[Token],
) -> Outcome {
    let pattern = subscription_name(object, true).map_err(|e| context.syntax(e))?;
    let sample_definition = SubscriptionDefinition::blank();
    let sample = if status {
        status_attributes(context, &sample_definition)
    } else {
        subscription_attributes(&sample_definition)
    };
    let extra = [("SUBTYPE", Takes::Value), ("DURABLE", Takes::Value)];
    let extra: &[(&str, Takes)] = if status { &extra } else { &extra[..0] };
    let (selection, extras) =
        Selection::parse(rest, &sample, extra).map_err(|e| context.syntax(e))?;
    let mut wanted_type = None;
    let mut wanted_durable = None;
    for (token, value) in extras {
        let value = value.expect("checked");
        if token.keyword == "SUBTYPE" {
            let types = ["API", "ADMIN", "PROXY", "USER", "ALL"];
            wanted_type = Some(types[choice(token, value, &types).map_err(|e| context.syntax(e))?]);
        } else {
            let choices = ["YES", "NO", "ALL"];
            wanted_durable =
                Some(choices[choice(token, value, &choices).map_err(|e| context.syntax(e))?]);
        }
    }
    let (message, csect) = if status {
        ("AMQ8099I", "SBSTATUS")
    } else {
        ("AMQ8096I", "SUB")
    };
    let mut output = Output::default();
    let mut count = 0;
    for subscription in selected_subscriptions(context, &pattern, wanted_type, wanted_durable) {
        let attributes = if status {
            status_attributes(context, &subscription)
        } else {
            subscription_attributes(&subscription)
        };
        if !selection.passes(&attributes) {
            continue;
        }
        count += 1;
        output.attributes(
            format!("{message} {}", context.name),
            selection.render(&attributes, 2),
            None,
        );
    }
    if count == 0 {
        if !pattern.ends_with('*') && selection.filter.is_none() {
            return Err(context.not_found("CSQMDRTS", csect, &pattern));
        }
        output.line(format!(
            "CSQM297I {} CSQMDRTS NO {csect} FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
    }
    Ok(output)
}

/// The subscriptions whose name matches `pattern`, of SUBTYPE `wanted_type` (API, ADMIN,
/// PROXY, USER, ALL; `None`: all) and DURABLE `wanted_durable` (YES, NO, ALL).
pub(crate) fn selected_subscriptions(
    context: &Context,
    pattern: &str,
    wanted_type: Option<&str>,
    wanted_durable: Option<&str>,
) -> Vec<SubscriptionDefinition> {
    let mut selected: Vec<SubscriptionDefinition> = context
        .queue_manager
        .subscriptions()
        .into_iter()
        .filter(|subscription| {
            let type_wanted = match wanted_type {
                None | Some("ALL") => true,
                Some("ADMIN") => subscription.administrative,
                Some("API") | Some("USER") => !subscription.administrative,
                Some(_) => false,
            };
            let durability_wanted = match wanted_durable {
                None | Some("ALL") => true,
                Some(yes) => (yes == "YES") == subscription.durable,
            };
            type_wanted && durability_wanted && generic_match(pattern, &subscription.name)
        })
        .collect();
    selected.sort_by(|a, b| a.name.cmp(&b.name));
    selected
}

/// The topic strings DISPLAY TPSTATUS knows: the administered nodes', the subscriptions' and
/// those with a retained publication.
fn known_topic_strings(context: &Context) -> Vec<String> {
    let mut strings: Vec<String> = context
        .queue_manager
        .objects(ObjectType::Topic)
        .into_iter()
        .filter_map(|definition| match definition {
            ferrite_queue_manager::ObjectDefinition::Topic(topic) if topic.is_node() => {
                Some(topic.topic_string)
            }
            _ => None,
        })
        .chain(
            context
                .queue_manager
                .subscriptions()
                .into_iter()
                .map(|subscription| subscription.topic_string),
        )
        .chain(ferrite_mqi::retained_topic_strings(context.queue_manager).unwrap_or_default())
        .collect();
    strings.sort();
    strings.dedup();
    strings
}

/// DISPLAY TPSTATUS('topic string') [TYPE(TOPIC|SUB|PUB)]: the attributes in force at a topic
/// string (TYPE(TOPIC)) or the subscriptions made there (TYPE(SUB)); `#` selects every topic
/// string Ferrite knows (administered nodes and subscriptions' strings). TYPE(PUB) answers
/// nothing: publisher handles are not tracked.
pub(crate) fn display_topic_status(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let Some(value) = &object.value else {
        return Err(context.syntax(SyntaxError::new(
            "CSQ9010E Required parameter 'TPSTATUS' topic string is missing".to_string(),
            object.position,
        )));
    };
    let pattern = value.text.clone();
    let mut sample = topic_status_attributes(&context.queue_manager.topic_tree(), "", 0);
    sample.push(("RETAINED", yes_no(false)));
    let (selection, extras) = Selection::parse(rest, &sample, &[("TYPE", Takes::Value)])
        .map_err(|e| context.syntax(e))?;
    let mut kind = "TOPIC";
    for (token, value) in extras {
        let kinds = ["TOPIC", "SUB", "PUB"];
        kind =
            kinds[choice(token, value.expect("checked"), &kinds).map_err(|e| context.syntax(e))?];
    }
    let mut output = Output::default();
    for attributes in topic_status_rows(context, &pattern, kind) {
        if selection.passes(&attributes) {
            output.attributes(
                format!("AMQ8754I {}", context.name),
                selection.render(&attributes, 1),
                None,
            );
        }
    }
    Ok(output)
}

/// The rows of DISPLAY TPSTATUS (and PCF Inquire Topic Status) for `pattern` (a topic string,
/// or `#` for every one known) and `kind` (TOPIC, SUB or PUB).
pub(crate) fn topic_status_rows(
    context: &Context,
    pattern: &str,
    kind: &str,
) -> Vec<Vec<(&'static str, AttributeValue)>> {
    let tree = context.queue_manager.topic_tree();
    let strings: Vec<String> = if pattern == "#" {
        known_topic_strings(context)
    } else {
        vec![pattern.to_string()]
    };
    let subscriptions = context.queue_manager.subscriptions();
    let retained = ferrite_mqi::retained_topic_strings(context.queue_manager).unwrap_or_default();
    let mut rows = Vec::new();
    for topic_string in strings {
        let here: Vec<&SubscriptionDefinition> = subscriptions
            .iter()
            .filter(|subscription| subscription.topic_string == topic_string)
            .collect();
        match kind {
            "TOPIC" => {
                let mut attributes = topic_status_attributes(&tree, &topic_string, here.len());
                let has_retained = retained.binary_search(&topic_string).is_ok();
                attributes.push(("RETAINED", yes_no(has_retained)));
                rows.push(attributes);
            }
            "SUB" => rows.extend(here.iter().map(|subscription| {
                vec![
                    ("TOPICSTR", AttributeValue::Text(topic_string.clone())),
                    ("SUBID", AttributeValue::Text(hex(&subscription.id))),
                    ("DURABLE", yes_no(subscription.durable)),
                    ("SUBTYPE", subscription_type(subscription)),
                ]
            })),
            _ => {}
        }
    }
    rows
}

/// SUBTYPE(API|ADMIN).
fn subscription_type(subscription: &SubscriptionDefinition) -> AttributeValue {
    AttributeValue::Keyword(if subscription.administrative {
        "ADMIN"
    } else {
        "API"
    })
}

fn topic_status_attributes(
    tree: &ferrite_queue_manager::pubsub::TopicTree,
    topic_string: &str,
    subscriptions: usize,
) -> Vec<(&'static str, AttributeValue)> {
    let a = tree.attributes(topic_string);
    let keyword = AttributeValue::Keyword;
    let enabled = |on: bool| keyword(if on { "ENABLED" } else { "DISABLED" });
    vec![
        ("TOPICSTR", AttributeValue::Text(topic_string.to_string())),
        ("ADMIN", AttributeValue::Text(a.admin_topic.clone())),
        ("DURSUB", yes_no(a.durable_subscriptions)),
        ("PUB", enabled(a.publish_enabled)),
        ("SUB", enabled(a.subscribe_enabled)),
        ("DEFPSIST", yes_no(a.default_persistent)),
        (
            "DEFPRTY",
            AttributeValue::Integer(a.default_priority.into()),
        ),
        (
            "DEFPRESP",
            keyword(if a.default_put_response_async {
                "ASYNC"
            } else {
                "SYNC"
            }),
        ),
        (
            "MDURMDL",
            AttributeValue::Text(a.durable_model_queue.clone()),
        ),
        (
            "MNDURMDL",
            AttributeValue::Text(a.nondurable_model_queue.clone()),
        ),
        ("PMSGDLV", keyword(a.persistent_delivery.keyword())),
        ("NPMSGDLV", keyword(a.nonpersistent_delivery.keyword())),
        ("USEDLQ", yes_no(a.use_dead_letter_queue)),
        ("SUBCOUNT", AttributeValue::Integer(subscriptions as i64)),
    ]
}

/// DISPLAY PUBSUB: the queue manager's publish/subscribe engine: STATUS(ACTIVE) with
/// PSMODE(ENABLED), COMPAT with PSMODE(COMPAT), INACTIVE with PSMODE(DISABLED).
pub(crate) fn display_pubsub(context: &Context, _object: &Token, rest: &[Token]) -> Outcome {
    let mode = context
        .queue_manager
        .queue_manager_attributes()
        .publish_subscribe_mode;
    let status = match mode.as_str() {
        "COMPAT" => "COMPAT",
        "DISABLED" => "INACTIVE",
        _ => "ACTIVE",
    };
    let attributes = vec![
        ("QMNAME", AttributeValue::Text(context.name.to_string())),
        ("TYPE", AttributeValue::Keyword("LOCAL")),
        ("STATUS", AttributeValue::Keyword(status)),
        (
            "SUBCOUNT",
            AttributeValue::Integer(context.queue_manager.subscriptions().len() as i64),
        ),
        (
            "TPCOUNT",
            AttributeValue::Integer(known_topic_strings(context).len() as i64),
        ),
    ];
    let (selection, _) = Selection::parse(rest, &attributes, &[("TYPE", Takes::Value)])
        .map_err(|e| context.syntax(e))?;
    let mut output = Output::default();
    output.attributes(
        format!("AMQ8723I {}", context.name),
        selection.render(&attributes, 3),
        None,
    );
    Ok(output)
}
