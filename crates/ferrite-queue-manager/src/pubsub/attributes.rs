//! A topic's attributes in force. Each attribute comes from the nearest administered node (a
//! TOPIC object whose TOPICSTR is the topic string itself or one of its ancestors) that does
//! not say ASPARENT; SYSTEM.BASE.TOPIC, the root, says nothing ASPARENT. Without a
//! SYSTEM.BASE.TOPIC the root's values are MQ's as supplied
//! ([`TopicDefinition::system_base`]).

use std::collections::HashMap;
use std::sync::Arc;

use ferrite_storage::error::{StorageError, StorageResult};

use crate::objects::topic::{MessageDelivery, Scope, TopicDefinition};
use crate::objects::{ObjectDefinition, ObjectType};
use crate::queue_manager::QueueManager;

use super::topic_string::ancestry;

/// The attributes in force at one topic string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicAttributes {
    pub topic_string: String,
    /// The nearest administered node's object name (DISPLAY TPSTATUS ADMIN; blank when the
    /// topic string has no object of its own or above it but the root).
    pub admin_topic: String,
    pub durable_subscriptions: bool,
    pub default_persistent: bool,
    pub default_priority: u8,
    pub default_put_response_async: bool,
    pub publish_enabled: bool,
    pub subscribe_enabled: bool,
    pub durable_model_queue: String,
    pub nondurable_model_queue: String,
    pub persistent_delivery: MessageDelivery,
    pub nonpersistent_delivery: MessageDelivery,
    pub use_dead_letter_queue: bool,
    pub publish_scope: Scope,
    pub subscribe_scope: Scope,
}

/// The administered nodes of the tree, by topic string (a snapshot of the TOPIC objects).
#[derive(Clone, Debug, Default)]
pub struct TopicTree {
    nodes: HashMap<String, Arc<TopicDefinition>>,
}

impl TopicTree {
    pub fn new(topics: impl IntoIterator<Item = TopicDefinition>) -> TopicTree {
        TopicTree {
            nodes: topics
                .into_iter()
                .filter(TopicDefinition::is_node)
                .map(|topic| (topic.topic_string.clone(), Arc::new(topic)))
                .collect(),
        }
    }

    /// The TOPIC object administering exactly `topic_string`.
    pub fn node(&self, topic_string: &str) -> Option<&TopicDefinition> {
        self.nodes.get(topic_string).map(|node| &**node)
    }

    /// Every administered node, in no order.
    pub fn nodes(&self) -> impl Iterator<Item = &TopicDefinition> {
        self.nodes.values().map(|node| &**node)
    }

    /// The administered nodes on the way from `topic_string` to the root, nearest first.
    pub fn ancestors<'a>(
        &'a self,
        topic_string: &'a str,
    ) -> impl Iterator<Item = &'a TopicDefinition> + 'a {
        ancestry(topic_string).filter_map(|ancestor| self.node(ancestor))
    }

    /// The attributes in force at `topic_string`.
    pub fn attributes(&self, topic_string: &str) -> TopicAttributes {
        let base = TopicDefinition::system_base();
        let chain: Vec<&TopicDefinition> = self
            .ancestors(topic_string)
            .chain(std::iter::once(&base))
            .collect();
        fn first<T: Clone>(
            chain: &[&TopicDefinition],
            field: impl Fn(&TopicDefinition) -> Option<T>,
        ) -> T {
            chain
                .iter()
                .find_map(|node| field(node))
                .expect("the supplied base topic says nothing ASPARENT")
        }
        let named = |queue: &String| (!queue.is_empty()).then(|| queue.clone());
        TopicAttributes {
            topic_string: topic_string.to_string(),
            admin_topic: chain
                .first()
                .filter(|node| !node.is_root())
                .map(|node| node.name.clone())
                .unwrap_or_default(),
            durable_subscriptions: first(&chain, |n| n.durable_subscriptions),
            default_persistent: first(&chain, |n| n.default_persistent),
            default_priority: first(&chain, |n| n.default_priority),
            default_put_response_async: first(&chain, |n| n.default_put_response_async),
            publish_enabled: first(&chain, |n| n.publish_enabled),
            subscribe_enabled: first(&chain, |n| n.subscribe_enabled),
            durable_model_queue: first(&chain, |n| named(&n.durable_model_queue)),
            nondurable_model_queue: first(&chain, |n| named(&n.nondurable_model_queue)),
            persistent_delivery: first(&chain, |n| n.persistent_delivery),
            nonpersistent_delivery: first(&chain, |n| n.nonpersistent_delivery),
            use_dead_letter_queue: first(&chain, |n| n.use_dead_letter_queue),
            publish_scope: first(&chain, |n| n.publish_scope),
            subscribe_scope: first(&chain, |n| n.subscribe_scope),
        }
    }
}

impl QueueManager {
    /// The topic tree's administered nodes as the TOPIC objects are now.
    pub fn topic_tree(&self) -> TopicTree {
        TopicTree::new(
            self.objects(ObjectType::Topic)
                .into_iter()
                .filter_map(|definition| match definition {
                    ObjectDefinition::Topic(topic) => Some(topic),
                    _ => None,
                }),
        )
    }

    /// The TOPIC object called `name` (MQRC_UNKNOWN_OBJECT_NAME when there is none).
    pub fn topic_object(&self, name: &str) -> StorageResult<TopicDefinition> {
        match self.object(ObjectType::Topic, name) {
            Some(ObjectDefinition::Topic(topic)) => Ok(topic),
            _ => Err(StorageError::mq(
                ferrite_constants::reason::MQRC_UNKNOWN_OBJECT_NAME,
                format!("TOPIC({name}) does not exist"),
            )),
        }
    }

    /// Refuse a topic object whose TOPICSTR another topic object has (MQ keeps one object per
    /// node; MQRCCF_TOPICSTR_ALREADY_EXISTS).
    pub(crate) fn check_topic_string_free(&self, topic: &TopicDefinition) -> StorageResult<()> {
        let holder = self.objects(ObjectType::Topic).into_iter().find(|other| {
            matches!(other, ObjectDefinition::Topic(other)
                if topic.is_node() && other.is_node()
                    && other.topic_string == topic.topic_string && other.name != topic.name)
        });
        match holder {
            Some(holder) => Err(StorageError::mq(
                ferrite_constants::pcf_reason::MQRCCF_TOPICSTR_ALREADY_EXISTS,
                format!(
                    "TOPICSTR('{}') is already the topic string of TOPIC({})",
                    topic.topic_string,
                    holder.name()
                ),
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_come_from_the_nearest_node_that_sets_them() {
        let mut base = TopicDefinition::system_base();
        base.default_priority = Some(2);
        let mut sports = TopicDefinition::new("SPORTS", "Sports");
        sports.default_persistent = Some(true);
        sports.durable_subscriptions = Some(false);
        let mut football = TopicDefinition::new("FOOTBALL", "Sports/Football");
        football.durable_subscriptions = Some(true);
        football.default_priority = Some(6);
        let template = TopicDefinition::new("SYSTEM.DEFAULT.TOPIC", "");
        let tree = TopicTree::new([base, template, sports, football]);

        let results = tree.attributes("Sports/Football/Results");
        assert_eq!(results.admin_topic, "FOOTBALL");
        assert!(results.durable_subscriptions, "FOOTBALL says YES");
        assert!(results.default_persistent, "from SPORTS");
        assert_eq!(results.default_priority, 6);
        assert_eq!(results.durable_model_queue, "SYSTEM.DURABLE.MODEL.QUEUE");
        assert_eq!(
            results.nonpersistent_delivery,
            MessageDelivery::AllAvailable
        );

        let tennis = tree.attributes("Sports/Tennis");
        assert_eq!(tennis.admin_topic, "SPORTS");
        assert!(!tennis.durable_subscriptions);
        assert_eq!(tennis.default_priority, 2, "from the altered base");

        let other = tree.attributes("News");
        assert_eq!(other.admin_topic, "");
        assert!(!other.default_persistent);
        // A string that only starts like a node's is not below it.
        assert_eq!(tree.attributes("SportsCars").admin_topic, "");
    }

    #[test]
    fn without_a_base_topic_mqs_defaults_apply() {
        let tree = TopicTree::new([]);
        let attributes = tree.attributes("a/b");
        assert!(attributes.publish_enabled && attributes.subscribe_enabled);
        assert!(attributes.durable_subscriptions);
        assert_eq!(attributes.persistent_delivery, MessageDelivery::AllDurable);
        assert_eq!(
            attributes.nondurable_model_queue,
            "SYSTEM.NDURABLE.MODEL.QUEUE"
        );
    }
}
