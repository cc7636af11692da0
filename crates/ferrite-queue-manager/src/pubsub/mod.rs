//! Publish/subscribe: the topic tree over the queue manager's TOPIC objects
//! (`objects/topic.rs`).
//!
//! - [`topic_string`]: topic strings, their levels, ancestry and how MQOPEN/MQSUB combine a
//!   topic object's TOPICSTR with an ObjectString.
//! - [`wildcards`]: the topic-based and character-based wildcard schemes, and WILDCARD(BLOCK).
//! - [`attributes`]: a topic's attributes in force, inherited from the nearest administered
//!   node that does not say ASPARENT, up to SYSTEM.BASE.TOPIC.
//! - [`subscriptions`]: the subscriptions (durable ones stored as SUB objects, non-durable ones
//!   in memory) and the subscribers of a publication.

pub mod attributes;
pub mod subscriptions;
pub mod topic_string;
pub mod wildcards;

pub use attributes::{TopicAttributes, TopicTree};
pub use subscriptions::{SubscriptionClaim, SubscriptionRegistry};
pub use wildcards::WildcardScheme;
