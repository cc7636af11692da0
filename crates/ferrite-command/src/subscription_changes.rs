//! ALTER SUB and PCF Change Subscription (MQCMD_CHANGE_SUBSCRIPTION): what may change in a
//! subscription, checked the same way for both.
//!
//! As MQ: DEST, DESTCORL, DESTQMGR, EXPIRY, PSPROP, PUBACCT, PUBAPPID, PUBPRTY, REQONLY,
//! SUBUSER, USERDATA and VARUSER change; TOPICOBJ, TOPICSTR, WSCHEMA, SELECTOR and DESTCLAS do
//! not (MQSC's ALTER SUB does not take them; PCF takes them only with the value they have,
//! MQRC_TOPIC_NOT_ALTERABLE, MQRC_SELECTOR_NOT_ALTERABLE or MQRC_DEST_CLASS_NOT_ALTERABLE
//! otherwise). DEST is not checked to exist (publications name it when they are put). A
//! subscription is named by SUB, by SUBID, or by both (which must agree). The change takes
//! effect for the next publication, whether or not a handle has the subscription open; EXPIRY
//! counts from the change. Ferrite delivers only to this queue manager's queues: a DESTQMGR
//! other than blank or its own name is refused, and a managed subscription's DEST (its
//! managed queue) does not change (MQRC_DEST_CLASS_NOT_ALTERABLE).

use ferrite_constants::reason::*;
use ferrite_queue_manager::objects::subscription::{
    expiry_value, from_hex, from_hex32, priority_value, PublicationProperties,
    SubscriptionDefinition,
};
use ferrite_queue_manager::QueueManager;

use crate::context::{
    choice, keywords, value_error, Context, Failure, Found, Outcome, Output, Takes,
};
use crate::parser::{SyntaxError, Token, Value};

/// The keywords ALTER SUB takes.
const ALTER_SUB_KEYWORDS: &[(&str, Takes)] = &[
    ("SUBID", Takes::Value),
    ("DEST", Takes::Value),
    ("DESTCORL", Takes::Value),
    ("DESTQMGR", Takes::Value),
    ("EXPIRY", Takes::Value),
    ("PSPROP", Takes::Value),
    ("PUBACCT", Takes::Value),
    ("PUBAPPID", Takes::Value),
    ("PUBPRTY", Takes::Value),
    ("REQONLY", Takes::Value),
    ("SUBUSER", Takes::Value),
    ("USERDATA", Takes::Value),
    ("VARUSER", Takes::Value),
];

/// The changes an ALTER SUB or Change Subscription asks for (None: unchanged).
#[derive(Clone, Debug, Default)]
pub(crate) struct SubscriptionChanges {
    pub(crate) destination: Option<String>,
    pub(crate) destination_queue_manager: Option<String>,
    pub(crate) correl_id: Option<[u8; 24]>,
    pub(crate) user_data: Option<String>,
    pub(crate) publication_priority: Option<i32>,
    pub(crate) publications_on_request: Option<bool>,
    pub(crate) user: Option<String>,
    pub(crate) any_user: Option<bool>,
    pub(crate) accounting_token: Option<[u8; 32]>,
    pub(crate) application_id: Option<String>,
    pub(crate) properties: Option<PublicationProperties>,
    pub(crate) expiry: Option<i32>,
    /// What may not change: given, it must be the value the subscription has.
    pub(crate) topic_object: Option<String>,
    pub(crate) topic_string: Option<String>,
    pub(crate) wildcard_character: Option<bool>,
    pub(crate) selector: Option<String>,
    pub(crate) managed: Option<bool>,
}

/// Why a change was refused: MQ's reason, and which change.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    pub(crate) reason: i32,
    pub(crate) what: &'static str,
}

impl SubscriptionChanges {
    /// `subscription` with the changes made (at `now_ms`), or why not.
    pub(crate) fn apply(
        &self,
        queue_manager: &QueueManager,
        mut subscription: SubscriptionDefinition,
        now_ms: u64,
    ) -> Result<SubscriptionDefinition, Refused> {
        self.check_unalterable(&subscription)?;
        let refuse = |reason, what| Err(Refused { reason, what });
        if let Some(destination) = &self.destination {
            if subscription.managed && *destination != subscription.destination {
                return refuse(MQRC_DEST_CLASS_NOT_ALTERABLE, "DEST");
            }
            subscription.destination = destination.clone();
        }
        if let Some(queue_manager_name) = &self.destination_queue_manager {
            if !queue_manager_name.is_empty() && queue_manager_name != queue_manager.name() {
                return refuse(MQRC_UNKNOWN_REMOTE_Q_MGR, "DESTQMGR");
            }
            subscription.destination_queue_manager = queue_manager_name.clone();
        }
        let copy = |from: &Option<String>, to: &mut String| {
            if let Some(value) = from {
                to.clone_from(value);
            }
        };
        copy(&self.user_data, &mut subscription.user_data);
        copy(&self.user, &mut subscription.user);
        copy(
            &self.application_id,
            &mut subscription.publication_application_id,
        );
        if let Some(correl_id) = self.correl_id {
            subscription.correl_id = correl_id;
        }
        if let Some(priority) = self.publication_priority {
            subscription.publication_priority = priority;
        }
        if let Some(on_request) = self.publications_on_request {
            subscription.publications_on_request = on_request;
        }
        if let Some(any_user) = self.any_user {
            subscription.any_user = any_user;
        }
        if let Some(token) = self.accounting_token {
            subscription.publication_accounting_token = token;
        }
        if let Some(properties) = self.properties {
            subscription.publication_properties = properties;
        }
        if let Some(expiry) = self.expiry {
            subscription.set_expiry(expiry, now_ms);
        }
        Ok(subscription)
    }

    /// TOPICOBJ, TOPICSTR, WSCHEMA, SELECTOR and DESTCLAS only as they are.
    fn check_unalterable(&self, subscription: &SubscriptionDefinition) -> Result<(), Refused> {
        let differs = |given: &Option<String>, current: &str| {
            given.as_deref().is_some_and(|given| given != current)
        };
        let refuse = |reason, what| Err(Refused { reason, what });
        if differs(&self.topic_object, &subscription.topic_object) {
            return refuse(MQRC_TOPIC_NOT_ALTERABLE, "TOPICOBJ");
        }
        if differs(&self.topic_string, &subscription.topic_string) {
            return refuse(MQRC_TOPIC_NOT_ALTERABLE, "TOPICSTR");
        }
        let character = subscription.wildcard_scheme
            == ferrite_queue_manager::pubsub::WildcardScheme::Character;
        if self
            .wildcard_character
            .is_some_and(|given| given != character)
        {
            return refuse(MQRC_TOPIC_NOT_ALTERABLE, "WSCHEMA");
        }
        if differs(&self.selector, &subscription.selector) {
            return refuse(MQRC_SELECTOR_NOT_ALTERABLE, "SELECTOR");
        }
        if self
            .managed
            .is_some_and(|given| given != subscription.managed)
        {
            return refuse(MQRC_DEST_CLASS_NOT_ALTERABLE, "DESTCLAS");
        }
        Ok(())
    }
}

/// The subscription a change names: by `name`, by `id`, or by both, which must agree.
pub(crate) fn named_subscription(
    queue_manager: &QueueManager,
    name: Option<&str>,
    id: Option<[u8; 24]>,
) -> Option<SubscriptionDefinition> {
    let found = match name {
        Some(name) => queue_manager.subscription(name),
        None => queue_manager
            .subscriptions()
            .into_iter()
            .find(|subscription| Some(subscription.id) == id),
    };
    found.filter(|subscription| id.is_none_or(|id| subscription.id == id))
}

fn value_of<'f>(found: &'f Found, keyword: &str) -> Option<(&'f Token, &'f Value)> {
    found
        .iter()
        .find(|(token, _)| token.keyword == keyword)
        .and_then(|(token, value)| value.map(|value| (*token, value)))
}

/// The changes ALTER SUB's keywords ask for, each checked.
pub(crate) fn changes_from(found: &Found) -> Result<SubscriptionChanges, SyntaxError> {
    let text = |keyword: &str| value_of(found, keyword).map(|(_, value)| value.text.clone());
    let mut changes = SubscriptionChanges {
        destination: text("DEST"),
        destination_queue_manager: text("DESTQMGR"),
        user_data: text("USERDATA"),
        user: text("SUBUSER"),
        application_id: text("PUBAPPID"),
        ..SubscriptionChanges::default()
    };
    if let Some((token, value)) = value_of(found, "DEST") {
        if value.text.is_empty() {
            return Err(value_error(token, value, "a queue name is needed"));
        }
    }
    if let Some((token, value)) = value_of(found, "DESTCORL") {
        changes.correl_id = Some(
            from_hex(&value.text)
                .ok_or_else(|| value_error(token, value, "48 hexadecimal digits are needed"))?,
        );
    }
    if let Some((token, value)) = value_of(found, "PUBACCT") {
        changes.accounting_token = Some(
            from_hex32(&value.text)
                .ok_or_else(|| value_error(token, value, "64 hexadecimal digits are needed"))?,
        );
    }
    if let Some((token, value)) = value_of(found, "PUBPRTY") {
        changes.publication_priority = Some(
            priority_value(&value.text)
                .ok_or_else(|| value_error(token, value, "ASPUB, ASQDEF or 0-9 is needed"))?,
        );
    }
    if let Some((token, value)) = value_of(found, "EXPIRY") {
        changes.expiry = Some(expiry_value(&value.text).ok_or_else(|| {
            value_error(token, value, "UNLIMITED or 0-999999999 tenths of a second")
        })?);
    }
    if let Some((token, value)) = value_of(found, "PSPROP") {
        changes.properties = Some(
            PublicationProperties::from_keyword(&value.text).ok_or_else(|| {
                value_error(token, value, "NONE, COMPAT, RFH2 or MSGPROP is needed")
            })?,
        );
    }
    if let Some((token, value)) = value_of(found, "REQONLY") {
        changes.publications_on_request = Some(choice(token, value, &["NO", "YES"])? == 1);
    }
    if let Some((token, value)) = value_of(found, "VARUSER") {
        changes.any_user = Some(choice(token, value, &["FIXED", "ANY"])? == 1);
    }
    Ok(changes)
}

/// ALTER SUB(name), ALTER SUB SUBID(id) or both.
pub(crate) fn alter_subscription(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let found = keywords(rest, ALTER_SUB_KEYWORDS).map_err(|e| context.syntax(e))?;
    let name = object.value.as_ref().map(|value| value.text.clone());
    let id = match value_of(&found, "SUBID") {
        Some((token, value)) => Some(from_hex(&value.text).ok_or_else(|| {
            context.syntax(value_error(
                token,
                value,
                "48 hexadecimal digits are needed",
            ))
        })?),
        None => None,
    };
    if name.is_none() && id.is_none() {
        return Err(context.syntax(SyntaxError::new(
            "CSQ9010E Required parameter 'SUB' or 'SUBID' is missing".to_string(),
            object.position + object.keyword.chars().count(),
        )));
    }
    let changes = changes_from(&found).map_err(|e| context.syntax(e))?;
    let queue_manager = context.queue_manager;
    let shown = name.clone().unwrap_or_else(|| {
        ferrite_queue_manager::objects::subscription::hex(&id.expect("a SUBID"))
    });
    let Some(subscription) = named_subscription(queue_manager, name.as_deref(), id) else {
        return Err(context.not_found("CSQMMSGP", "SUB", &shown));
    };
    let now_ms = ferrite_queue_manager::now_ms();
    let altered = changes
        .apply(queue_manager, subscription, now_ms)
        .map_err(|refused| {
            Failure(vec![format!(
                "CSQM090E {} CSQMMSGP FAILURE REASON CODE X'{:08X}': {} of SUB({shown}) cannot be changed so",
                context.name, refused.reason, refused.what
            )])
        })?;
    queue_manager
        .define_subscription(altered, true)
        .map_err(|error| context.storage("CSQMMSGP", error))?;
    Ok(Output::default())
}
