//! Retained publications (MQPMO_RETAIN): the last retained publication of each topic string is
//! kept, as MQ keeps it, as a message on SYSTEM.RETAINED.PUB.QUEUE: the publication as
//! published with its MQTopicString property (`mqps.Top`), and a CorrelId derived from the
//! topic string ([`retained_correl_id`]) so that finding it reads only the messages with that
//! CorrelId (their topic string property decides). Replacing it is a get and a put in the
//! publish's unit of work, so a retained publication changes exactly when the publish commits;
//! a persistent one survives restarts and crashes, a non-persistent one does not, as in MQ.
//!
//! A new subscription gets the retained publications its topic string selects (unless
//! MQSO_NEW_PUBLICATIONS_ONLY), and MQSUBRQ(MQSR_ACTION_PUBLICATION) sends them again
//! (MQRC_NO_RETAINED_MSG when there are none). Each copy carries MQIsRetained (`mqps.Ret`).

use std::sync::Arc;

use ferrite_constants::{format::MQFMT_RF_HEADER_2, misc::MQSR_ACTION_PUBLICATION, reason::*};
use ferrite_message::properties::PropertyValue;
use ferrite_message::property_control::split_message_data;
use ferrite_queue_manager::objects::subscription::SubscriptionDefinition;
use ferrite_queue_manager::pubsub::wildcards::matches;
use ferrite_queue_manager::{
    now_ms, LocalQueue, MessageKey, MessageSelector, QueueManager, UnitOfWork,
};

use super::pubsub::{deliver, Publication};
use super::{failed, Connection, Hobj, Target};
use crate::descriptor;
use crate::error::{MqError, MqResult};
use crate::structures::Mqmd;
use ferrite_queue_manager::objects::topic::MessageDelivery;

/// The queue MQ keeps retained publications on.
pub const RETAINED_PUBLICATION_QUEUE: &str = "SYSTEM.RETAINED.PUB.QUEUE";

/// The most retained publications one MQSUB or MQSUBRQ reads to find those its subscription
/// selects.
pub const RETAINED_SCAN_MAX: usize = 1_000_000;

/// The CorrelId a topic string's retained publication is kept under: three FNV-1a hashes of
/// the topic string (different offsets), 8 bytes each. Stable across releases: it is stored.
pub fn retained_correl_id(topic_string: &str) -> [u8; 24] {
    let mut id = [0u8; 24];
    for (part, offset) in [
        0xcbf2_9ce4_8422_2325u64,
        0x6c62_272e_07bb_0142,
        0x1f3d_5b79_a4c2_e6f8,
    ]
    .into_iter()
    .enumerate()
    {
        let hash = topic_string.bytes().fold(offset, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        id[part * 8..part * 8 + 8].copy_from_slice(&hash.to_be_bytes());
    }
    id
}

/// A retained publication read from the queue: where it is, its descriptor and data, and its
/// topic string.
pub(super) struct Retained {
    key: MessageKey,
    pub(super) md: Mqmd,
    pub(super) data: Vec<u8>,
    pub(super) topic_string: String,
}

/// The retained publication queue (MQRC_RETAINED_MSG_Q_ERROR when it is missing).
fn retained_queue(queue_manager: &QueueManager) -> MqResult<Arc<LocalQueue>> {
    queue_manager
        .queue(RETAINED_PUBLICATION_QUEUE)
        .ok_or(MqError::failed(MQRC_RETAINED_MSG_Q_ERROR))
}

/// The retained publications on the queue, those with CorrelId `correl_id` only when given.
fn read_retained(
    queue_manager: &QueueManager,
    queue: &Arc<LocalQueue>,
    correl_id: Option<[u8; 24]>,
) -> MqResult<Vec<Retained>> {
    let selector = MessageSelector {
        correlation_id: correl_id,
        ..MessageSelector::default()
    };
    let mut found = Vec::new();
    let mut after = None;
    while found.len() < RETAINED_SCAN_MAX {
        let Some(message) = queue_manager.browse(queue, &selector, after)? else {
            break;
        };
        after = Some(message.key);
        let md = descriptor::from_engine(&message.descriptor, message.backout_count, now_ms(), 2)
            .map_err(|_| MqError::failed(MQRC_RETAINED_MSG_Q_ERROR))?;
        let data = message.data.as_slice().to_vec();
        if let Some(topic_string) = topic_string_of(&md, &data) {
            found.push(Retained {
                key: message.key,
                md,
                data,
                topic_string,
            });
        }
    }
    Ok(found)
}

/// The MQTopicString property of a stored publication.
fn topic_string_of(md: &Mqmd, data: &[u8]) -> Option<String> {
    if md.format != MQFMT_RF_HEADER_2 {
        return None;
    }
    let split = split_message_data(md.encoding, md.coded_char_set_id, md.format, data).ok()?;
    match split.properties.get(super::pubsub::TOPIC_STRING_PROPERTY) {
        Some(PropertyValue::String(topic_string)) => Some(topic_string.clone()),
        _ => None,
    }
}

/// In `unit`: take away the retained publication of `topic_string`, and keep `md`/`data`
/// (the publication as published, its MQTopicString added) in its place.
pub(super) fn retain(
    queue_manager: &QueueManager,
    unit: &mut UnitOfWork,
    topic_string: &str,
    md: &Mqmd,
    data: &[u8],
    put_time_ms: u64,
) -> MqResult<()> {
    let queue = retained_queue(queue_manager)?;
    let correl_id = retained_correl_id(topic_string);
    for old in read_retained(queue_manager, &queue, Some(correl_id))? {
        if old.topic_string != topic_string {
            continue;
        }
        let selector = MessageSelector {
            key: Some(old.key),
            ..MessageSelector::default()
        };
        queue_manager.get(Some(&mut *unit), &queue, &selector, None)?;
    }
    let mut kept = md.clone();
    kept.correl_id = correl_id;
    let kept_data = super::pubsub::publication_data(&mut kept, data, topic_string, "", false)?;
    let engine = descriptor::to_engine(&kept, put_time_ms);
    queue_manager.put(Some(unit), &queue, &engine, &kept_data)?;
    Ok(())
}

/// Send `subscription` the retained publications its topic string selects, in a unit of work
/// of their own; how many were sent. One that cannot be put is skipped.
pub(super) fn send_retained(
    queue_manager: &QueueManager,
    subscription: &SubscriptionDefinition,
) -> MqResult<usize> {
    let Ok(queue) = retained_queue(queue_manager) else {
        return Ok(0);
    };
    if !super::pubsub::sends_retained(subscription) {
        return Ok(0);
    }
    let mut unit = UnitOfWork::new();
    let mut sent = 0;
    for retained in read_retained(queue_manager, &queue, None)? {
        let selected = matches(
            subscription.wildcard_scheme,
            &subscription.topic_string,
            &retained.topic_string,
        );
        if !selected {
            continue;
        }
        let publication = Publication {
            topic_string: &retained.topic_string,
            descriptor: &retained.md,
            data: &retained.data,
            put_time_ms: now_ms(),
            delivery: MessageDelivery::AllAvailable,
            use_dead_letter_queue: false,
            retained: true,
            plain_copy: Default::default(),
        };
        if let Ok(Some(_)) = deliver(queue_manager, &mut unit, &publication, subscription) {
            sent += 1;
        }
    }
    queue_manager.commit(&mut unit)?;
    Ok(sent)
}

/// The topic strings that have a retained publication now (DISPLAY TPSTATUS RETAINED).
pub fn retained_topic_strings(queue_manager: &QueueManager) -> MqResult<Vec<String>> {
    let queue = retained_queue(queue_manager)?;
    let mut topic_strings: Vec<String> = read_retained(queue_manager, &queue, None)?
        .into_iter()
        .map(|retained| retained.topic_string)
        .collect();
    topic_strings.sort();
    topic_strings.dedup();
    Ok(topic_strings)
}

impl Connection {
    /// MQSUBRQ: with MQSR_ACTION_PUBLICATION, send the subscription `hsub` the retained
    /// publications it selects again; returns how many (MQSRO NumPubs). None:
    /// MQRC_NO_RETAINED_MSG.
    pub fn subscription_request(&mut self, hsub: Hobj, action: i32) -> MqResult<usize> {
        let Some(Target::Subscription(handle)) =
            self.handles.get(&hsub.0).map(|handle| &handle.target)
        else {
            return failed(MQRC_HOBJ_ERROR);
        };
        if action != MQSR_ACTION_PUBLICATION {
            return failed(MQRC_ACTION_ERROR);
        }
        let subscription = self
            .queue_manager
            .subscription(&handle.name)
            .ok_or(MqError::failed(MQRC_NO_SUBSCRIPTION))?;
        match send_retained(&self.queue_manager, &subscription)? {
            0 => failed(MQRC_NO_RETAINED_MSG),
            sent => Ok(sent),
        }
    }
}
