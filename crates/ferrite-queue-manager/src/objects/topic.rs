//! The TOPIC object (DEFINE TOPIC): an administered node of the topic tree, named by its
//! topic string, whose attributes apply to its topic and, where its descendants say
//! ASPARENT, to theirs (`crate::pubsub` resolves them).
//!
//! An inheritable attribute holds `None` for ASPARENT. SYSTEM.BASE.TOPIC, the root (its
//! TOPICSTR is blank), may not say ASPARENT: it is where inheritance ends. The only other
//! topic object with a blank TOPICSTR is SYSTEM.DEFAULT.TOPIC, DEFINE TOPIC's model, which is
//! no node of the tree.
//!
//! ## Stored image (`FERRITE-OBJECT 2 TOPIC`)
//! `TOPIC DESCR TOPICSTR TOPICTYPE DURSUB DEFPSIST DEFPRTY DEFPRESP PUB SUB WILDCARD MDURMDL
//! MNDURMDL PMSGDLV NPMSGDLV USEDLQ PROXYSUB PUBSCOPE SUBSCOPE`, MQSC's keywords as values
//! (`ASPARENT` where inherited; MDURMDL and MNDURMDL blank where inherited; DEFPRTY a digit).

use ferrite_storage::error::{StorageError, StorageResult};

use super::{
    check_description, check_name, number, unknown, ImageWriter, ObjectImage, ObjectType,
    OBJECT_NAME_LENGTH_MAX,
};

/// Longest topic string (MQ_TOPIC_STR_LENGTH).
pub const TOPIC_STRING_LENGTH_MAX: usize = 10_240;

/// The root of the topic tree: its attributes are what every topic inherits last.
pub const SYSTEM_BASE_TOPIC: &str = "SYSTEM.BASE.TOPIC";

/// The model of DEFINE TOPIC (every attribute ASPARENT).
pub const SYSTEM_DEFAULT_TOPIC: &str = "SYSTEM.DEFAULT.TOPIC";

/// The model queues MQ names for managed subscriptions' queues.
pub const SYSTEM_DURABLE_MODEL_QUEUE: &str = "SYSTEM.DURABLE.MODEL.QUEUE";
pub const SYSTEM_NDURABLE_MODEL_QUEUE: &str = "SYSTEM.NDURABLE.MODEL.QUEUE";

/// PMSGDLV and NPMSGDLV: which subscribers must receive a publication for the publish to
/// succeed (MQDLV_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageDelivery {
    /// ALL: every subscriber, or the publish fails.
    All,
    /// ALLDUR: every durable subscriber; a non-durable one that cannot take it misses it.
    AllDurable,
    /// ALLAVAIL: every subscriber that can take it.
    AllAvailable,
}

impl MessageDelivery {
    pub const KEYWORDS: [&'static str; 3] = ["ALL", "ALLDUR", "ALLAVAIL"];

    pub fn keyword(self) -> &'static str {
        match self {
            MessageDelivery::All => "ALL",
            MessageDelivery::AllDurable => "ALLDUR",
            MessageDelivery::AllAvailable => "ALLAVAIL",
        }
    }

    pub fn from_keyword(keyword: &str) -> Option<MessageDelivery> {
        match keyword {
            "ALL" => Some(MessageDelivery::All),
            "ALLDUR" => Some(MessageDelivery::AllDurable),
            "ALLAVAIL" => Some(MessageDelivery::AllAvailable),
            _ => None,
        }
    }
}

/// PUBSCOPE and SUBSCOPE: whether publications and subscriptions reach other queue managers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    QueueManager,
    All,
}

impl Scope {
    pub const KEYWORDS: [&'static str; 2] = ["QMGR", "ALL"];

    pub fn keyword(self) -> &'static str {
        match self {
            Scope::QueueManager => "QMGR",
            Scope::All => "ALL",
        }
    }
}

/// A TOPIC object. `None` is ASPARENT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicDefinition {
    pub name: String,
    pub description: String,
    /// TOPICSTR: the node of the tree this object administers (blank only for the root).
    pub topic_string: String,
    /// DURSUB: whether durable subscriptions may be made.
    pub durable_subscriptions: Option<bool>,
    /// DEFPSIST: a publication's persistence when it says MQPER_PERSISTENCE_AS_TOPIC_DEF.
    pub default_persistent: Option<bool>,
    /// DEFPRTY: 0-9.
    pub default_priority: Option<u8>,
    /// DEFPRESP: SYNC (false) or ASYNC (true).
    pub default_put_response_async: Option<bool>,
    /// PUB: ENABLED (true) or DISABLED.
    pub publish_enabled: Option<bool>,
    /// SUB: ENABLED (true) or DISABLED.
    pub subscribe_enabled: Option<bool>,
    /// WILDCARD: BLOCK (true) hides this node from wildcard subscriptions above it;
    /// PASSTHRU (false, the default). Not inherited.
    pub wildcard_block: bool,
    /// MDURMDL: the model queue of managed durable subscriptions; blank is ASPARENT.
    pub durable_model_queue: String,
    /// MNDURMDL: the model queue of managed non-durable subscriptions; blank is ASPARENT.
    pub nondurable_model_queue: String,
    /// PMSGDLV: delivery of persistent publications.
    pub persistent_delivery: Option<MessageDelivery>,
    /// NPMSGDLV: delivery of non-persistent publications.
    pub nonpersistent_delivery: Option<MessageDelivery>,
    /// USEDLQ: whether a publication that cannot be delivered goes to the dead-letter queue.
    pub use_dead_letter_queue: Option<bool>,
    /// PROXYSUB: FORCE (true) or FIRSTUSE (false). Not inherited.
    pub proxy_subscriptions_force: bool,
    /// PUBSCOPE.
    pub publish_scope: Option<Scope>,
    /// SUBSCOPE.
    pub subscribe_scope: Option<Scope>,
}

impl TopicDefinition {
    /// A topic object with MQ's defaults for DEFINE TOPIC (SYSTEM.DEFAULT.TOPIC's: everything
    /// ASPARENT).
    pub fn new(name: &str, topic_string: &str) -> TopicDefinition {
        TopicDefinition {
            name: name.to_string(),
            description: String::new(),
            topic_string: topic_string.to_string(),
            durable_subscriptions: None,
            default_persistent: None,
            default_priority: None,
            default_put_response_async: None,
            publish_enabled: None,
            subscribe_enabled: None,
            wildcard_block: false,
            durable_model_queue: String::new(),
            nondurable_model_queue: String::new(),
            persistent_delivery: None,
            nonpersistent_delivery: None,
            use_dead_letter_queue: None,
            proxy_subscriptions_force: false,
            publish_scope: None,
            subscribe_scope: None,
        }
    }

    /// SYSTEM.BASE.TOPIC as MQ supplies it: the root, with every attribute explicit.
    pub fn system_base() -> TopicDefinition {
        TopicDefinition {
            description: "Base topic for attribute inheritance".to_string(),
            durable_subscriptions: Some(true),
            default_persistent: Some(false),
            default_priority: Some(0),
            default_put_response_async: Some(false),
            publish_enabled: Some(true),
            subscribe_enabled: Some(true),
            durable_model_queue: SYSTEM_DURABLE_MODEL_QUEUE.to_string(),
            nondurable_model_queue: SYSTEM_NDURABLE_MODEL_QUEUE.to_string(),
            persistent_delivery: Some(MessageDelivery::AllDurable),
            nonpersistent_delivery: Some(MessageDelivery::AllAvailable),
            use_dead_letter_queue: Some(true),
            publish_scope: Some(Scope::All),
            subscribe_scope: Some(Scope::All),
            ..TopicDefinition::new(SYSTEM_BASE_TOPIC, "")
        }
    }

    /// Whether this object is a node of the tree: it has a topic string, or is the root.
    pub fn is_node(&self) -> bool {
        self.is_root() || !self.topic_string.is_empty()
    }

    /// Whether this is the root of the tree (SYSTEM.BASE.TOPIC).
    pub fn is_root(&self) -> bool {
        self.name == SYSTEM_BASE_TOPIC
    }

    pub fn validate(&self) -> StorageResult<()> {
        check_name("topic", &self.name, OBJECT_NAME_LENGTH_MAX)?;
        check_description(&self.description)?;
        crate::pubsub::topic_string::check_topic_string(&self.topic_string)
            .map_err(|detail| StorageError::invalid(format!("TOPICSTR: {detail}")))?;
        if crate::pubsub::topic_string::has_wildcard_level(&self.topic_string) {
            return Err(StorageError::invalid(
                "TOPICSTR of a topic object may not contain a wildcard level (# or +)",
            ));
        }
        let may_be_blank = self.is_root() || self.name == SYSTEM_DEFAULT_TOPIC;
        if self.topic_string.is_empty() && !may_be_blank {
            return Err(StorageError::invalid(
                "TOPICSTR must not be blank (only SYSTEM.BASE.TOPIC and SYSTEM.DEFAULT.TOPIC have a blank one)",
            ));
        }
        if self.is_root() && !self.topic_string.is_empty() {
            return Err(StorageError::invalid(format!(
                "{SYSTEM_BASE_TOPIC} is the root of the topic tree: its TOPICSTR is blank"
            )));
        }
        if self.default_priority.is_some_and(|priority| priority > 9) {
            return Err(StorageError::invalid("DEFPRTY must be ASPARENT or 0-9"));
        }
        for (what, queue) in [
            ("MDURMDL", &self.durable_model_queue),
            ("MNDURMDL", &self.nondurable_model_queue),
        ] {
            if !queue.is_empty() {
                check_name(what, queue, OBJECT_NAME_LENGTH_MAX)?;
            }
        }
        if self.is_root() && self.has_as_parent() {
            return Err(StorageError::invalid(format!(
                "{SYSTEM_BASE_TOPIC} is the root of the topic tree: none of its attributes may be ASPARENT"
            )));
        }
        Ok(())
    }

    /// Whether any inheritable attribute is ASPARENT.
    fn has_as_parent(&self) -> bool {
        self.durable_subscriptions.is_none()
            || self.default_persistent.is_none()
            || self.default_priority.is_none()
            || self.default_put_response_async.is_none()
            || self.publish_enabled.is_none()
            || self.subscribe_enabled.is_none()
            || self.durable_model_queue.is_empty()
            || self.nondurable_model_queue.is_empty()
            || self.persistent_delivery.is_none()
            || self.nonpersistent_delivery.is_none()
            || self.use_dead_letter_queue.is_none()
            || self.publish_scope.is_none()
            || self.subscribe_scope.is_none()
    }

    pub(super) fn encode(&self) -> Vec<u8> {
        let mut image = ImageWriter::new(ObjectType::Topic);
        image
            .line("TOPIC", &self.name)
            .line("DESCR", &self.description)
            .line("TOPICSTR", &self.topic_string)
            .line("TOPICTYPE", "LOCAL")
            .line("DURSUB", yes_no_inherited(self.durable_subscriptions))
            .line("DEFPSIST", yes_no_inherited(self.default_persistent))
            .line(
                "DEFPRTY",
                &inherited(self.default_priority, |p| p.to_string()),
            )
            .line(
                "DEFPRESP",
                &inherited(self.default_put_response_async, |asynchronous| {
                    if asynchronous { "ASYNC" } else { "SYNC" }.to_string()
                }),
            )
            .line("PUB", enabled_inherited(self.publish_enabled))
            .line("SUB", enabled_inherited(self.subscribe_enabled))
            .line(
                "WILDCARD",
                if self.wildcard_block {
                    "BLOCK"
                } else {
                    "PASSTHRU"
                },
            )
            .line("MDURMDL", &self.durable_model_queue)
            .line("MNDURMDL", &self.nondurable_model_queue)
            .line(
                "PMSGDLV",
                &inherited(self.persistent_delivery, |d| d.keyword().to_string()),
            )
            .line(
                "NPMSGDLV",
                &inherited(self.nonpersistent_delivery, |d| d.keyword().to_string()),
            )
            .line("USEDLQ", yes_no_inherited(self.use_dead_letter_queue))
            .line(
                "PROXYSUB",
                if self.proxy_subscriptions_force {
                    "FORCE"
                } else {
                    "FIRSTUSE"
                },
            )
            .line(
                "PUBSCOPE",
                &inherited(self.publish_scope, |s| s.keyword().to_string()),
            )
            .line(
                "SUBSCOPE",
                &inherited(self.subscribe_scope, |s| s.keyword().to_string()),
            );
        image.finish()
    }

    /// The definition a stored image of this type holds.
    pub(super) fn from_image(image: &ObjectImage) -> StorageResult<TopicDefinition> {
        let mut d = TopicDefinition::new("", "");
        for (key, value) in &image.attributes {
            let bad = || unknown(image.object_type, &format!("{key}={value}"));
            let as_parent = value == "ASPARENT";
            match key.as_str() {
                "TOPIC" => d.name = value.clone(),
                "DESCR" => d.description = value.clone(),
                "TOPICSTR" => d.topic_string = value.clone(),
                "TOPICTYPE" if value == "LOCAL" => {}
                "DURSUB" => d.durable_subscriptions = yes_no_value(value).ok_or_else(bad)?,
                "DEFPSIST" => d.default_persistent = yes_no_value(value).ok_or_else(bad)?,
                "DEFPRTY" if as_parent => d.default_priority = None,
                "DEFPRTY" => d.default_priority = Some(number(key, value)?.min(255) as u8),
                "DEFPRESP" => {
                    d.default_put_response_async = match value.as_str() {
                        "ASPARENT" => None,
                        "SYNC" => Some(false),
                        "ASYNC" => Some(true),
                        _ => return Err(bad()),
                    }
                }
                "PUB" => d.publish_enabled = enabled_value(value).ok_or_else(bad)?,
                "SUB" => d.subscribe_enabled = enabled_value(value).ok_or_else(bad)?,
                "WILDCARD" => d.wildcard_block = value == "BLOCK",
                "MDURMDL" => d.durable_model_queue = value.clone(),
                "MNDURMDL" => d.nondurable_model_queue = value.clone(),
                "PMSGDLV" if as_parent => d.persistent_delivery = None,
                "PMSGDLV" => {
                    d.persistent_delivery =
                        Some(MessageDelivery::from_keyword(value).ok_or_else(bad)?)
                }
                "NPMSGDLV" if as_parent => d.nonpersistent_delivery = None,
                "NPMSGDLV" => {
                    d.nonpersistent_delivery =
                        Some(MessageDelivery::from_keyword(value).ok_or_else(bad)?)
                }
                "USEDLQ" => d.use_dead_letter_queue = yes_no_value(value).ok_or_else(bad)?,
                "PROXYSUB" => d.proxy_subscriptions_force = value == "FORCE",
                "PUBSCOPE" => d.publish_scope = scope_value(value).ok_or_else(bad)?,
                "SUBSCOPE" => d.subscribe_scope = scope_value(value).ok_or_else(bad)?,
                _ => return Err(unknown(image.object_type, key)),
            }
        }
        Ok(d)
    }
}

fn inherited<T>(value: Option<T>, show: impl Fn(T) -> String) -> String {
    value.map(show).unwrap_or_else(|| "ASPARENT".to_string())
}

fn yes_no_inherited(value: Option<bool>) -> &'static str {
    match value {
        None => "ASPARENT",
        Some(true) => "YES",
        Some(false) => "NO",
    }
}

fn enabled_inherited(value: Option<bool>) -> &'static str {
    match value {
        None => "ASPARENT",
        Some(true) => "ENABLED",
        Some(false) => "DISABLED",
    }
}

/// ASPARENT, YES or NO as stored; `None` for anything else.
fn yes_no_value(value: &str) -> Option<Option<bool>> {
    match value {
        "ASPARENT" => Some(None),
        "YES" => Some(Some(true)),
        "NO" => Some(Some(false)),
        _ => None,
    }
}

fn enabled_value(value: &str) -> Option<Option<bool>> {
    match value {
        "ASPARENT" => Some(None),
        "ENABLED" => Some(Some(true)),
        "DISABLED" => Some(Some(false)),
        _ => None,
    }
}

fn scope_value(value: &str) -> Option<Option<Scope>> {
    match value {
        "ASPARENT" => Some(None),
        "QMGR" => Some(Some(Scope::QueueManager)),
        "ALL" => Some(Some(Scope::All)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::ObjectDefinition;

    #[test]
    fn topics_round_trip_with_inherited_and_explicit_values() {
        let mut sports = TopicDefinition::new("SPORTS", "Sports/Results");
        sports.default_priority = Some(7);
        sports.publish_enabled = Some(false);
        sports.wildcard_block = true;
        sports.nonpersistent_delivery = Some(MessageDelivery::All);
        sports.durable_model_queue = "MY.DURABLE.MODEL".into();
        sports.publish_scope = Some(Scope::QueueManager);
        for definition in [
            ObjectDefinition::Topic(TopicDefinition::system_base()),
            ObjectDefinition::Topic(TopicDefinition::new("PLAIN", "a/b")),
            ObjectDefinition::Topic(sports),
        ] {
            definition.validate().unwrap();
            let image = definition.encode();
            assert!(image.starts_with(b"FERRITE-OBJECT 2 TOPIC\n"));
            assert_eq!(ObjectDefinition::decode(&image).unwrap(), definition);
        }
    }

    #[test]
    fn the_root_and_topic_strings_are_checked() {
        let mut base = TopicDefinition::system_base();
        base.default_persistent = None;
        assert!(base.validate().is_err(), "the root cannot inherit");
        assert!(TopicDefinition::new("BLANK", "").validate().is_err());
        TopicDefinition::new(SYSTEM_DEFAULT_TOPIC, "")
            .validate()
            .unwrap();
        assert!(!TopicDefinition::new(SYSTEM_DEFAULT_TOPIC, "").is_node());
        let mut moved_root = TopicDefinition::system_base();
        moved_root.topic_string = "a".into();
        assert!(moved_root.validate().is_err());
        assert!(TopicDefinition::new("WILD", "a/#").validate().is_err());
        assert!(TopicDefinition::new("WILD", "a/+/b").validate().is_err());
        // A level that merely contains # or + is an ordinary level.
        TopicDefinition::new("HASH", "a/b#c/+d").validate().unwrap();
        let long = "x".repeat(TOPIC_STRING_LENGTH_MAX);
        TopicDefinition::new("LONG", &long).validate().unwrap();
        let image = ObjectDefinition::Topic(TopicDefinition::new("LONG", &long)).encode();
        assert!(ObjectDefinition::decode(&image).is_ok());
        let too_long = "x".repeat(TOPIC_STRING_LENGTH_MAX + 1);
        assert!(TopicDefinition::new("LONG", &too_long).validate().is_err());
        let mut priority = TopicDefinition::new("P", "p");
        priority.default_priority = Some(10);
        assert!(priority.validate().is_err());
    }
}
