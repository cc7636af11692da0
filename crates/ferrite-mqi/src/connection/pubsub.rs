//! Publish/subscribe in the MQI: MQOPEN of a topic (MQOT_TOPIC) for output, MQPUT and MQPUT1
//! on it as a publish, MQSUB, and MQCLOSE of a subscription handle. The topic tree, its
//! inherited attributes and the subscriptions are the queue manager's (`ferrite_queue_manager::
//! pubsub`); publications are ordinary messages on the subscribers' queues.
//!
//! **Publish.** A publication goes to every subscription whose topic string selects its topic
//! string (and whose selector it passes), as one copy per subscription: a new MsgId, the
//! subscription's CorrelId (SubCorrelId), its PUBPRTY, the publisher's context (the
//! subscription's PUBACCT and PUBAPPID in place of its AccountingToken and ApplIdentityData
//! when they are set), and the properties MQ adds as the subscription's PSPROP says: MSGPROP
//! as message properties (`mqps.Top`, MQTopicString; `mqps.Sud`, MQSubUserData; `mqps.Ret`,
//! MQIsRetained), RFH2 in a `psc` folder of its MQRFH2 ([`command_folder`]), COMPAT in an
//! MQRFH version 1 ahead of it ([`compatible_name_values`]), NONE not at all. All or nothing:
//! outside syncpoint the copies are put in a unit of work of the publish's own, committed
//! before MQPUT returns; inside, in the connection's. A copy that cannot be put fails the
//! publish when the topic's PMSGDLV/NPMSGDLV require it (ALL; ALLDUR for a durable
//! subscription): outside syncpoint nothing is delivered; inside, the unit of work is backed out
//! (MQRC_BACKED_OUT), so no subscriber is left with part of it. Other copies that cannot be put
//! are skipped (ALLAVAIL). Before either, with the topic's USEDLQ(YES), a copy that cannot be
//! put goes to the dead-letter queue (behind an MQDLH with the reason), in the same unit of
//! work, and counts as delivered. A persistent publication reaches a temporary dynamic (managed
//! non-durable) queue as a non-persistent message, since such a queue holds no others.
//!
//! **Retained publications** (MQPMO_RETAIN, MQSUBRQ): `retained.rs`.
//!
//! **PSMODE(DISABLED)** on the queue manager: MQOPEN of a topic, MQPUT and MQPUT1 on one, and
//! MQSUB fail with MQRC_PUBSUB_INHIBITED.
//!
//! **Expiry.** A subscription whose EXPIRY (ALTER SUB, DEFINE SUB) has run out gets no more
//! publications, and MQSUB of its name removes it first (with a managed queue, the queue)
//! unless a handle still has it open.
//!
//! **Subscribe.** MQSUB makes (MQSO_CREATE), resumes (MQSO_RESUME) or changes (MQSO_ALTER)
//! a subscription, durable (MQSO_DURABLE, named by SubName, stored) or not (it ends with its
//! handle or connection). MQSO_MANAGED makes its queue from the topic's MDURMDL or MNDURMDL
//! model (a permanent dynamic queue for a durable subscription, deleted with it; a temporary
//! one for a non-durable subscription, which lives as long as the handle MQSUB returns for it);
//! otherwise the application's Hobj names the queue.
//!
//! **Shared subscriptions** ([`Connection::subscribe_shared`], JMS 2.0's shared consumers).
//! One handle at a time has a subscription open (MQRC_SUBSCRIPTION_IN_USE for another) unless
//! it and every handle that has it open share it: then several handles, on any connections,
//! have it open at once and get from its one queue, so each publication reaches one of them.
//! A shared non-durable subscription ends when the last of its handles closes, and its
//! managed queue with it (the queue is the subscription's, not the first handle's). MQCLOSE
//! with MQCO_REMOVE_SUB of a durable one while other handles have it open is
//! MQRC_SUBSCRIPTION_IN_USE, and the handle stays open.

use std::sync::Arc;

use ferrite_constants::structs::{MQRFH_STRUC_ID, MQRFH_VERSION_1};
use ferrite_constants::{
    close_options::{MQCO_KEEP_SUB, MQCO_REMOVE_SUB},
    format::{MQFMT_RF_HEADER_1, MQFMT_RF_HEADER_2},
    misc::*,
    object_type::MQOT_TOPIC,
    open_options::*,
    persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENT},
    put_options::*,
    reason::*,
};
use ferrite_message::folder::{Content, Element, Folder};
use ferrite_message::properties::{MessageProperties, PropertyValue};
use ferrite_message::property_control::{join_message_data, split_message_data};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::objects::authority_record::{
    AuthorityObjectType, MQZAO_PUBLISH, MQZAO_RESUME, MQZAO_SUBSCRIBE,
};
use ferrite_queue_manager::objects::subscription::{
    hex, PublicationProperties, SubscriptionDefinition, PRIORITY_AS_PUBLISHED,
    PRIORITY_AS_QUEUE_DEFAULT, SUBSCRIPTION_LEVEL_MAX,
};
use ferrite_queue_manager::objects::topic::{MessageDelivery, SYSTEM_BASE_TOPIC};
use ferrite_queue_manager::pubsub::subscriptions::{
    intercepted, PUBLICATION_LEVEL_DEFAULT, RETAINED_PUBLICATION_LEVEL,
};
use ferrite_queue_manager::pubsub::topic_string::{check_topic_string, combine};
use ferrite_queue_manager::pubsub::{TopicTree, WildcardScheme};
use ferrite_queue_manager::statistics::MqiCounter;
use ferrite_queue_manager::{
    now_ms, AliasDefinition, AliasTargetType, DefinitionType, LocalQueue, Principal, UnitOfWork,
};

use super::{failed, Connection, Hobj, ObjectHandle, Target};
use crate::descriptor::{self, trim};
use crate::error::{MqError, MqResult};
use crate::identifiers::new_identifier;
use crate::queue_manager_put::{put_to_dead_letter_queue, InUnit};
use crate::selection::Selection;
use crate::structures::{Mqmd, Mqod, Mqpmo, Mqsd};
use crate::triggering;

/// The MQOO_* options a topic handle takes.
const TOPIC_OPEN_OPTIONS: i32 = MQOO_OUTPUT
    | MQOO_FAIL_IF_QUIESCING
    | MQOO_ALTERNATE_USER_AUTHORITY
    | MQOO_PASS_IDENTITY_CONTEXT
    | MQOO_PASS_ALL_CONTEXT
    | MQOO_SET_IDENTITY_CONTEXT
    | MQOO_SET_ALL_CONTEXT
    | MQOO_NO_MULTICAST
    | MQOO_BIND_AS_Q_DEF;

/// The MQSO_* options MQSUB knows.
const KNOWN_SUBSCRIBE_OPTIONS: i32 = MQSO_ALTER
    | MQSO_CREATE
    | MQSO_RESUME
    | MQSO_DURABLE
    | MQSO_MANAGED
    | MQSO_NO_MULTICAST
    | MQSO_ANY_USERID
    | MQSO_FIXED_USERID
    | MQSO_NEW_PUBLICATIONS_ONLY
    | MQSO_FAIL_IF_QUIESCING
    | MQSO_ALTERNATE_USER_AUTHORITY
    | MQSO_WILDCARD_CHAR
    | MQSO_WILDCARD_TOPIC
    | MQSO_SET_CORREL_ID
    | MQSO_SCOPE_QMGR
    | MQSO_NO_READ_AHEAD
    | MQSO_READ_AHEAD
    | MQSO_PUBLICATIONS_ON_REQUEST;

/// MQSO_* options MQSUB recognises but Ferrite does not offer yet (MQRC_FUNCTION_NOT_SUPPORTED).
const UNSUPPORTED_SUBSCRIBE_OPTIONS: i32 = MQSO_GROUP_SUB | MQSO_SET_IDENTITY_CONTEXT;

/// The property a delivered publication carries its topic string in (MQTopicString).
pub const TOPIC_STRING_PROPERTY: &str = "mqps.Top";
/// The property a delivered publication carries its subscription's SubUserData in
/// (MQSubUserData).
pub const SUB_USER_DATA_PROPERTY: &str = "mqps.Sud";

/// What a subscription handle (Hsub) refers to.
pub(super) struct SubscriptionHandle {
    /// The subscription's name.
    pub(super) name: String,
    /// Whether it is durable (MQCLOSE keeps it unless MQCO_REMOVE_SUB).
    pub(super) durable: bool,
}

/// The property a retained publication's copies carry (MQIsRetained).
pub const IS_RETAINED_PROPERTY: &str = "mqps.Ret";

/// A publication being delivered: its descriptor and data as published, and where.
pub(super) struct Publication<'a> {
    pub(super) topic_string: &'a str,
    pub(super) descriptor: &'a Mqmd,
    pub(super) data: &'a [u8],
    pub(super) put_time_ms: u64,
    pub(super) delivery: MessageDelivery,
    /// USEDLQ: a copy that cannot be put goes to the dead-letter queue instead.
    pub(super) use_dead_letter_queue: bool,
    /// A retained publication sent to a new subscription or on MQSUBRQ (MQIsRetained).
    pub(super) retained: bool,
    /// The copy data of the subscriptions without SubUserData, with its Format: the same for
    /// each of them, so made once per publication.
    pub(super) plain_copy: std::cell::OnceCell<([u8; 8], Vec<u8>)>,
}

impl Publication<'_> {
    /// The data of `subscription`'s copy (`copy`, the publication's descriptor, takes its
    /// Format): the publication with its properties (`publication_data`).
    fn copy_data(
        &self,
        copy: &mut Mqmd,
        subscription: &SubscriptionDefinition,
    ) -> MqResult<std::borrow::Cow<'_, [u8]>> {
        match subscription.publication_properties {
            // PSPROP(NONE): as published, Format and all.
            PublicationProperties::None => return Ok(std::borrow::Cow::Borrowed(self.data)),
            PublicationProperties::Rfh2 => {
                let data = command_folder_data(copy, self.data, self.topic_string, self.retained)?;
                return Ok(std::borrow::Cow::Owned(data));
            }
            PublicationProperties::Compatible => {
                let data = rfh1_data(copy, self.data, self.topic_string, self.retained);
                return Ok(std::borrow::Cow::Owned(data));
            }
            PublicationProperties::MessageProperties => {}
        }
        let plain = subscription.user_data.is_empty();
        if let Some((format, data)) = self.plain_copy.get().filter(|_| plain) {
            copy.format = *format;
            return Ok(std::borrow::Cow::Borrowed(data));
        }
        let data = publication_data(
            copy,
            self.data,
            self.topic_string,
            &subscription.user_data,
            self.retained,
        )?;
        if !plain {
            return Ok(std::borrow::Cow::Owned(data));
        }
        let (_, data) = self.plain_copy.get_or_init(|| (copy.format, data));
        Ok(std::borrow::Cow::Borrowed(data))
    }
}

/// What a topic is opened for, and the call's options, for its authority check.
#[derive(Clone, Copy, Debug)]
enum TopicAccess {
    /// MQOPEN for output: pub.
    Publish(i32),
    /// MQSUB: sub.
    Subscribe(i32),
    /// MQSUB with MQSO_RESUME: resume.
    Resume(i32),
}

impl TopicAccess {
    fn authority(self) -> u32 {
        match self {
            TopicAccess::Publish(_) => MQZAO_PUBLISH,
            TopicAccess::Subscribe(_) => MQZAO_SUBSCRIBE,
            TopicAccess::Resume(_) => MQZAO_RESUME,
        }
    }
}

impl Connection {
    // ----- MQOPEN of a topic -------------------------------------------------------------

    /// PSMODE(DISABLED): MQOPEN of a topic, MQPUT and MQPUT1 on one, and MQSUB fail with
    /// MQRC_PUBSUB_INHIBITED. PSMODE(COMPAT) inhibits only MQ's queued publish/subscribe
    /// interface, which Ferrite does not have.
    fn check_publish_subscribe_mode(&self) -> MqResult<()> {
        match self.queue_manager.publish_subscribe_inhibited() {
            true => failed(MQRC_PUBSUB_INHIBITED),
            false => Ok(()),
        }
    }

    /// MQOPEN of MQOT_TOPIC: the handle's target is the full topic string (the TOPIC object's
    /// TOPICSTR and the ObjectString joined), checked for publish authority.
    pub(super) fn open_topic(&mut self, od: &mut Mqod, options: i32) -> MqResult<Target> {
        if options & !TOPIC_OPEN_OPTIONS != 0 || options & MQOO_OUTPUT == 0 {
            return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
        }
        self.check_publish_subscribe_mode()?;
        let topic_string = self.topic_string_of(trim(&od.object_name), &od.object_string)?;
        let tree = self.queue_manager.topic_tree();
        self.authorize_topic(&tree, &topic_string, TopicAccess::Publish(options))?;
        Ok(Target::Topic(topic_string))
    }

    /// MQOPEN of an alias queue whose TARGTYPE is TOPIC: the alias's own authority (as for
    /// any alias), then its TARGET as a TOPIC object opened for output
    /// (MQRC_UNKNOWN_ALIAS_BASE_Q when there is none; MQRC_OPTION_NOT_VALID_FOR_TYPE for
    /// anything but output).
    pub(super) fn open_alias_topic(
        &mut self,
        od: &Mqod,
        alias: &AliasDefinition,
        options: i32,
    ) -> MqResult<Target> {
        debug_assert_eq!(alias.target_type, AliasTargetType::Topic);
        self.authorize_open(od, AuthorityObjectType::Queue, &alias.name, options)?;
        if self.queue_manager.topic_object(&alias.target).is_err() {
            return failed(MQRC_UNKNOWN_ALIAS_BASE_Q);
        }
        let mut topic = Mqod {
            object_type: MQOT_TOPIC,
            object_name: alias.target.clone(),
            ..Mqod::default()
        };
        self.open_topic(&mut topic, options)
    }

    /// The full topic string an MQOPEN or MQSUB names: the TOPIC object `object_name`'s
    /// TOPICSTR (MQRC_UNKNOWN_OBJECT_NAME) joined with `object_string`.
    fn topic_string_of(&self, object_name: &str, object_string: &str) -> MqResult<String> {
        let object_topic_string = match object_name {
            "" => String::new(),
            name => self.queue_manager.topic_object(name)?.topic_string,
        };
        if object_name.is_empty() && object_string.is_empty() {
            return failed(MQRC_UNKNOWN_OBJECT_NAME);
        }
        let topic_string = combine(&object_topic_string, object_string);
        check_topic_string(&topic_string).map_err(|_| MqError::failed(MQRC_TOPIC_STRING_ERROR))?;
        Ok(topic_string)
    }

    /// Topic authority (pub for a publisher's MQOPEN, sub for MQSUB), as MQ grants it: on any
    /// TOPIC object at or above the topic string, SYSTEM.BASE.TOPIC last. A refusal is
    /// MQRC_NOT_AUTHORIZED, logged once for the nearest TOPIC object, and a Not Authorized
    /// event (AUTHOREV).
    fn authorize_topic(
        &self,
        tree: &TopicTree,
        topic_string: &str,
        access: TopicAccess,
    ) -> MqResult<()> {
        if self.principal.administrator {
            return Ok(());
        }
        let authority = access.authority();
        let mut names: Vec<&str> = tree
            .ancestors(topic_string)
            .map(|node| node.name.as_str())
            .collect();
        if !names.contains(&SYSTEM_BASE_TOPIC) {
            names.push(SYSTEM_BASE_TOPIC);
        }
        let granted = names.iter().any(|name| {
            let held =
                self.queue_manager
                    .authority_of(&self.principal, AuthorityObjectType::Topic, name);
            held & authority == authority
        });
        if granted {
            return Ok(());
        }
        let refused = self.queue_manager.check_authority(
            &self.principal,
            AuthorityObjectType::Topic,
            names[0],
            authority,
        );
        debug_assert!(refused.is_err(), "no TOPIC object granted {authority:#x}");
        let applicant = crate::queue_manager_events::Refused {
            user_identifier: &self.principal.name,
            appl_type: self.record.appl_type,
            appl_name: self.appl_name.as_str(),
        };
        match access {
            TopicAccess::Publish(options) => crate::queue_manager_events::open_not_authorized(
                &self.queue_manager,
                &applicant,
                options,
                MQOT_TOPIC,
                topic_string,
            ),
            TopicAccess::Subscribe(options) | TopicAccess::Resume(options) => {
                crate::queue_manager_events::subscribe_not_authorized(
                    &self.queue_manager,
                    &applicant,
                    options,
                    topic_string,
                )
            }
        };
        failed(MQRC_NOT_AUTHORIZED)
    }

    // ----- publish -----------------------------------------------------------------------

    /// The topic string of handle `hobj` when it is a topic handle.
    pub(super) fn topic_of(&self, hobj: Hobj) -> Option<(String, i32)> {
        match self.handles.get(&hobj.0) {
            Some(ObjectHandle {
                target: Target::Topic(topic_string),
                options,
                ..
            }) => Some((topic_string.clone(), *options)),
            _ => None,
        }
    }

    /// MQPUT on a topic handle: publish to every subscriber, all or nothing (module docs).
    /// Warns MQRC_NO_SUBS_MATCHED with MQPMO_WARN_IF_NO_SUBS_MATCHED when none matched.
    /// `alias_defaults`: the DEFPRTY and DEFPSIST of the alias queue the topic was opened
    /// through, in place of the topic's.
    pub(super) fn publish(
        &mut self,
        topic_string: &str,
        open_options: i32,
        alias_defaults: Option<(u8, bool)>,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let published =
            self.publish_once(topic_string, open_options, alias_defaults, md, pmo, data);
        if published.is_err() {
            self.record.mqi.add(MqiCounter::TopicPutFailed, 1);
        }
        published
    }

    fn publish_once(
        &mut self,
        topic_string: &str,
        open_options: i32,
        alias_defaults: Option<(u8, bool)>,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let options = pmo.options;
        self.check_quiescing(options & MQPMO_FAIL_IF_QUIESCING != 0)?;
        self.check_publish_subscribe_mode()?;
        // MQPMO_RETAIN is a publish's option (the queue put refuses it).
        super::put::check_put_options(options & !MQPMO_RETAIN, open_options)?;
        let passed = self.passed_context(pmo, open_options)?;
        super::put::check_put_descriptor(md)?;
        let tree = self.queue_manager.topic_tree();
        let attributes = tree.attributes(topic_string);
        if !attributes.publish_enabled {
            return failed(MQRC_PUT_INHIBITED);
        }
        let put_time_ms = now_ms();
        let defaults =
            alias_defaults.unwrap_or((attributes.default_priority, attributes.default_persistent));
        let (mut published, mut warning) = self.stored_descriptor(md, options, defaults);
        self.set_put_context(&mut published, options, passed.as_ref(), put_time_ms);
        let persistent = published.persistence == MQPER_PERSISTENT;
        let publication = Publication {
            topic_string,
            descriptor: &published,
            data,
            put_time_ms,
            delivery: if persistent {
                attributes.persistent_delivery
            } else {
                attributes.nonpersistent_delivery
            },
            use_dead_letter_queue: attributes.use_dead_letter_queue,
            retained: false,
            plain_copy: Default::default(),
        };
        let subscribers = intercepted(
            self.queue_manager.subscribers(&tree, topic_string),
            PUBLICATION_LEVEL_DEFAULT,
        );
        let syncpoint = options & MQPMO_NO_SYNCPOINT == 0;
        let retain = options & MQPMO_RETAIN != 0;
        let delivered = self.deliver_all(&publication, &subscribers, syncpoint, retain)?;
        let (puts, copies) = if persistent {
            (
                MqiCounter::PersistentTopicPuts,
                MqiCounter::PersistentPublished,
            )
        } else {
            (
                MqiCounter::NonPersistentTopicPuts,
                MqiCounter::NonPersistentPublished,
            )
        };
        self.record.mqi.add(puts, 1);
        self.record.mqi.add(copies, delivered as u64);
        if subscribers.is_empty() && options & MQPMO_WARN_IF_NO_SUBS_MATCHED != 0 {
            warning = warning.or(Some(MqError::warning(MQRC_NO_SUBS_MATCHED)));
        }
        return_publish_outputs(md, pmo, &published, self.queue_manager.name());
        Ok(warning)
    }

    /// Put a copy for each subscriber in one unit of work (the connection's with `syncpoint`,
    /// otherwise one committed here), all or nothing; with `retain`, the publication becomes
    /// its topic's retained one in the same unit (MQRC_PUT_NOT_RETAINED when it cannot).
    /// Returns how many copies were put on subscribers' queues.
    fn deliver_all(
        &mut self,
        publication: &Publication,
        subscribers: &[Arc<SubscriptionDefinition>],
        syncpoint: bool,
        retain: bool,
    ) -> MqResult<usize> {
        let mut own = UnitOfWork::new();
        if retain {
            let unit = if syncpoint { &mut self.unit } else { &mut own };
            let kept = super::retained::retain(
                &self.queue_manager,
                unit,
                publication.topic_string,
                publication.descriptor,
                publication.data,
                publication.put_time_ms,
            );
            if kept.is_err() {
                if !syncpoint {
                    self.queue_manager.backout(&mut own)?;
                }
                return failed(MQRC_PUT_NOT_RETAINED);
            }
        }
        let mut delivered: Vec<Delivered> = Vec::new();
        // Trigger messages of dead-lettered copies outside syncpoint are not made (their
        // arrivals are not the connection's unit of work's).
        let mut own_arrivals = triggering::PendingArrivals::default();
        for subscription in subscribers {
            let (unit, arrivals) = if syncpoint {
                (&mut self.unit, &mut self.arrivals)
            } else {
                (&mut own, &mut own_arrivals)
            };
            let outcome = match deliver(&self.queue_manager, unit, publication, subscription) {
                Err(error) => {
                    let unit = InUnit { unit, arrivals };
                    dead_letter(&self.queue_manager, unit, publication, subscription, error)
                }
                delivered => delivered,
            };
            match outcome {
                Ok(Some(copy)) => delivered.push(copy),
                Ok(None) => {}
                Err(error) if required(publication.delivery, subscription) => {
                    if syncpoint {
                        self.backout_unit()?;
                        return failed(MQRC_BACKED_OUT);
                    }
                    self.queue_manager.backout(&mut own)?;
                    return Err(error);
                }
                // ALLAVAIL (or ALLDUR for a non-durable subscription): this one misses it.
                Err(_) => {}
            }
        }
        if !syncpoint {
            self.queue_manager.commit(&mut own)?;
        }
        let copies = delivered.len();
        for (queue, priority, watch) in delivered {
            self.after_put(&queue, priority, syncpoint, watch);
        }
        Ok(copies)
    }

    // ----- MQSUB -------------------------------------------------------------------------

    /// MQSUB: make, resume or alter a subscription (module docs). `hobj` is the destination
    /// queue's handle (input, opened for output) or, with MQSO_MANAGED, set to the handle of the
    /// managed queue (output). Returns the subscription handle (Hsub); `sd` returns
    /// SubCorrelId and ResObjectString.
    pub fn subscribe(&mut self, sd: &mut Mqsd, hobj: &mut Hobj) -> MqResult<Hobj> {
        self.subscribe_as(sd, hobj, false)
    }

    /// MQSUB of a shared subscription (module docs): as [`Connection::subscribe`], but other
    /// shared handles may have the subscription open too, and this one shares it with them.
    /// MQ's MQSD has no option for it: IBM's JMS client asks for it in the LPI subscription
    /// descriptor of its SPI SUBSCRIBE.
    pub fn subscribe_shared(&mut self, sd: &mut Mqsd, hobj: &mut Hobj) -> MqResult<Hobj> {
        self.subscribe_as(sd, hobj, true)
    }

    fn subscribe_as(&mut self, sd: &mut Mqsd, hobj: &mut Hobj, shared: bool) -> MqResult<Hobj> {
        let subscribed = self.subscribe_once(sd, hobj, shared);
        if subscribed.is_err() {
            self.record.mqi.add(MqiCounter::SubscribeFailed, 1);
        }
        subscribed
    }

    fn subscribe_once(&mut self, sd: &mut Mqsd, hobj: &mut Hobj, shared: bool) -> MqResult<Hobj> {
        check_subscribe_options(sd.options)?;
        check_subscription_level(sd)?;
        self.check_publish_subscribe_mode()?;
        self.check_quiescing(sd.options & MQSO_FAIL_IF_QUIESCING != 0)?;
        let durable = sd.options & MQSO_DURABLE != 0;
        let name = trim(&sd.sub_name).to_string();
        if durable && name.is_empty() {
            return failed(MQRC_SUB_NAME_ERROR);
        }
        let existing = (!name.is_empty())
            .then(|| self.queue_manager.subscription(&name))
            .flatten();
        let existing = match existing {
            // An expired subscription that no handle has open ends now, as MQ removes it.
            Some(expired)
                if expired.expired(now_ms())
                    && !self.queue_manager.subscription_in_use(&expired.name) =>
            {
                self.remove_subscription(&expired.name, false)?;
                None
            }
            existing => existing,
        };
        let (subscription, counter) = match existing {
            Some(existing) => {
                let alter = sd.options & MQSO_ALTER != 0;
                let counter = match (durable, alter) {
                    (true, true) => MqiCounter::SubscribeDurableAlter,
                    (true, false) => MqiCounter::SubscribeDurableResume,
                    (false, true) => MqiCounter::SubscribeNonDurableAlter,
                    (false, false) => MqiCounter::SubscribeNonDurableResume,
                };
                (
                    self.resume_subscription(sd, existing, hobj, shared)?,
                    counter,
                )
            }
            None if sd.options & MQSO_CREATE == 0 => return failed(MQRC_NO_SUBSCRIPTION),
            None => {
                let counter = match durable {
                    true => MqiCounter::SubscribeDurableCreate,
                    false => MqiCounter::SubscribeNonDurableCreate,
                };
                (self.create_subscription(sd, name, hobj, shared)?, counter)
            }
        };
        self.record.mqi.add(counter, 1);
        sd.sub_correl_id = subscription.correl_id;
        sd.res_object_string = subscription.topic_string.clone();
        sd.sub_level = subscription.level.into();
        Ok(self.subscription_handle(&subscription, sd.options))
    }

    /// A new subscription: its topic, checks, destination, then the definition made and
    /// claimed for the handle MQSUB returns.
    fn create_subscription(
        &mut self,
        sd: &Mqsd,
        name: String,
        hobj: &mut Hobj,
        shared: bool,
    ) -> MqResult<SubscriptionDefinition> {
        let durable = sd.options & MQSO_DURABLE != 0;
        let topic_object = trim(&sd.object_name).to_string();
        let topic_string = self.topic_string_of(&topic_object, &sd.object_string)?;
        let tree = self.queue_manager.topic_tree();
        let attributes = tree.attributes(&topic_string);
        if !attributes.subscribe_enabled {
            return failed(MQRC_SUB_INHIBITED);
        }
        if durable && !attributes.durable_subscriptions {
            return failed(MQRC_DURABILITY_NOT_ALLOWED);
        }
        if !sd.selection_string.is_empty() {
            Selection::parse(&sd.selection_string).map_err(MqError::failed)?;
        }
        self.authorize_topic(&tree, &topic_string, TopicAccess::Subscribe(sd.options))?;
        let id = new_identifier(self.queue_manager.name());
        let managed = sd.options & MQSO_MANAGED != 0;
        let destination = if managed {
            let model = if durable {
                &attributes.durable_model_queue
            } else {
                &attributes.nondurable_model_queue
            };
            *hobj = self.open_managed_queue(model, durable)?;
            self.handles[&hobj.0]
                .queue_name()
                .expect("a managed queue handle has its queue")
        } else {
            self.provided_destination(*hobj)?
        };
        let subscription = SubscriptionDefinition {
            name: if name.is_empty() { hex(&id) } else { name },
            id,
            topic_object,
            topic_string,
            wildcard_scheme: wildcard_scheme(sd.options),
            destination,
            destination_queue_manager: String::new(),
            managed,
            correl_id: if sd.options & MQSO_SET_CORREL_ID != 0 {
                sd.sub_correl_id
            } else {
                id
            },
            user_data: sd.sub_user_data.clone(),
            selector: sd.selection_string.clone(),
            publication_priority: PRIORITY_AS_PUBLISHED,
            administrative: false,
            publications_on_request: sd.options & MQSO_PUBLICATIONS_ON_REQUEST != 0,
            user: self.principal.name.clone(),
            any_user: sd.options & MQSO_ANY_USERID != 0,
            durable,
            scope_queue_manager: sd.options & MQSO_SCOPE_QMGR != 0,
            level: sd.sub_level as u8,
            ..SubscriptionDefinition::blank()
        };
        // Claimed before it is defined, so that no other handle resumes it in between.
        let claimed = self
            .queue_manager
            .claim_subscription(&subscription.name, shared);
        let defined = match claimed {
            true => self
                .queue_manager
                .define_subscription(subscription.clone(), false)
                .map_err(MqError::from),
            false => failed(MQRC_SUBSCRIPTION_IN_USE),
        };
        if let Err(error) = defined {
            if claimed {
                self.queue_manager.release_subscription(&subscription.name);
            }
            if managed {
                self.remove_managed_queue(*hobj, subscription.durable);
                *hobj = Hobj(0);
            }
            return Err(error);
        }
        if managed && shared && !durable {
            // The temporary queue lives as long as the subscription, which outlives this
            // handle while other shared handles have it open.
            self.disown_temporary_queue(*hobj);
        }
        let on_request = sd.options & MQSO_PUBLICATIONS_ON_REQUEST != 0;
        if sd.options & MQSO_NEW_PUBLICATIONS_ONLY == 0 && !on_request {
            // Retained publications reach a new subscription; one that cannot be put is
            // skipped, as MQ skips it.
            let _ = super::retained::send_retained(&self.queue_manager, &subscription);
        }
        Ok(subscription)
    }

    /// MQSO_RESUME or MQSO_ALTER of an existing subscription (MQRC_SUB_ALREADY_EXISTS with
    /// MQSO_CREATE alone). A managed subscription's queue is opened for the application again.
    fn resume_subscription(
        &mut self,
        sd: &Mqsd,
        mut subscription: SubscriptionDefinition,
        hobj: &mut Hobj,
        shared: bool,
    ) -> MqResult<SubscriptionDefinition> {
        if sd.options & (MQSO_RESUME | MQSO_ALTER) == 0 {
            return failed(MQRC_SUB_ALREADY_EXISTS);
        }
        if subscription.durable != (sd.options & MQSO_DURABLE != 0) {
            return failed(MQRC_DURABILITY_NOT_ALTERABLE);
        }
        let alter = sd.options & MQSO_ALTER != 0;
        self.authorize_resume(sd, &mut subscription, alter)?;
        if alter {
            if subscription.managed != (sd.options & MQSO_MANAGED != 0) {
                return failed(MQRC_ALTER_SUB_ERROR);
            }
            if sd.selection_string != subscription.selector {
                return failed(MQRC_SELECTOR_NOT_ALTERABLE);
            }
            if sd.sub_level != i32::from(subscription.level) {
                return failed(MQRC_SUBLEVEL_NOT_ALTERABLE);
            }
            subscription.user_data = sd.sub_user_data.clone();
            if !subscription.managed {
                subscription.destination = self.provided_destination(*hobj)?;
            }
            if sd.options & MQSO_SET_CORREL_ID != 0 {
                subscription.correl_id = sd.sub_correl_id;
            }
        }
        // One handle at a time has a subscription open, or shared handles together; the claim
        // is the check.
        if !self
            .queue_manager
            .claim_subscription(&subscription.name, shared)
        {
            return failed(MQRC_SUBSCRIPTION_IN_USE);
        }
        let resumed = self.reopen_subscription(&subscription, alter, hobj);
        if resumed.is_err() {
            self.queue_manager.release_subscription(&subscription.name);
        }
        resumed.map(|()| subscription)
    }

    /// Who may resume or alter `subscription`: its owner, or with VARUSER(ANY) anyone
    /// (MQRC_IDENTITY_MISMATCH otherwise), with resume authority on its topic to resume it and
    /// sub to alter it. An alter with MQSO_ANY_USERID or MQSO_FIXED_USERID changes VARUSER;
    /// MQSO_FIXED_USERID makes the altering user the owner.
    fn authorize_resume(
        &self,
        sd: &Mqsd,
        subscription: &mut SubscriptionDefinition,
        alter: bool,
    ) -> MqResult<()> {
        let user = &self.principal.name;
        let owner = subscription.user.is_empty() || subscription.user == *user;
        if !owner && !subscription.any_user {
            return failed(MQRC_IDENTITY_MISMATCH);
        }
        let tree = self.queue_manager.topic_tree();
        let access = if alter {
            TopicAccess::Subscribe(sd.options)
        } else {
            TopicAccess::Resume(sd.options)
        };
        self.authorize_topic(&tree, &subscription.topic_string, access)?;
        if alter && sd.options & MQSO_ANY_USERID != 0 {
            subscription.any_user = true;
        }
        if alter && sd.options & MQSO_FIXED_USERID != 0 {
            subscription.any_user = false;
            subscription.user = user.clone();
        }
        Ok(())
    }

    /// Store an altered subscription, and open a managed one's queue for the application.
    fn reopen_subscription(
        &mut self,
        subscription: &SubscriptionDefinition,
        alter: bool,
        hobj: &mut Hobj,
    ) -> MqResult<()> {
        if alter {
            self.queue_manager
                .define_subscription(subscription.clone(), true)?;
        }
        if subscription.managed {
            let mut od = Mqod::queue(&subscription.destination);
            *hobj = self.open_managed(&mut od)?;
        }
        Ok(())
    }

    /// The queue an application's handle `hobj` names as a subscription's destination
    /// (MQRC_HOBJ_ERROR when it is no queue handle of this connection).
    fn provided_destination(&self, hobj: Hobj) -> MqResult<String> {
        let handle = self.handle(hobj)?;
        if !handle.output {
            return failed(MQRC_NOT_OPEN_FOR_OUTPUT);
        }
        handle.queue_name().ok_or(MqError::failed(MQRC_HOBJ_ERROR))
    }

    /// Open a new managed queue from `model` for input: SYSTEM.MANAGED.DURABLE.* (permanent)
    /// or SYSTEM.MANAGED.NDURABLE.* (temporary, gone with the handle).
    fn open_managed_queue(&mut self, model: &str, durable: bool) -> MqResult<Hobj> {
        let mut od = Mqod {
            dynamic_q_name: if durable {
                "SYSTEM.MANAGED.DURABLE.*"
            } else {
                "SYSTEM.MANAGED.NDURABLE.*"
            }
            .to_string(),
            ..Mqod::queue(model)
        };
        let hobj = self.open_managed(&mut od)?;
        let kind = self.handles[&hobj.0]
            .queue_definition_type()
            .expect("a queue was opened");
        let expected = if durable {
            DefinitionType::PermanentDynamic
        } else {
            DefinitionType::TemporaryDynamic
        };
        if kind != expected {
            // The topic's model makes the wrong kind of queue for this subscription.
            self.remove_managed_queue(hobj, durable);
            return failed(MQRC_Q_TYPE_ERROR);
        }
        Ok(hobj)
    }

    /// Open a managed queue (or make one from its model) for input, as the queue manager: MQ
    /// checks no authority on a managed destination or its model, the subscription's sub
    /// authority on its topic is what lets its user have the publications.
    fn open_managed(&mut self, od: &mut Mqod) -> MqResult<Hobj> {
        let queue_manager_user = Principal {
            name: self.principal.name.clone(),
            administrator: true,
            groups: Vec::new(),
        };
        let user = std::mem::replace(&mut self.principal, queue_manager_user);
        let opened = self.open(od, MQOO_INPUT_AS_Q_DEF | MQOO_FAIL_IF_QUIESCING);
        self.principal = user;
        opened
    }

    /// Close a managed queue's handle and, for a durable subscription's, delete the queue
    /// (a temporary one goes with its handle).
    fn remove_managed_queue(&mut self, hobj: Hobj, durable: bool) {
        let name = self.handles.get(&hobj.0).and_then(ObjectHandle::queue_name);
        let _ = self.close(hobj, 0);
        if let (true, Some(name)) = (durable, name) {
            let _ = self.queue_manager.delete_queue(&name, true);
        }
    }

    /// The handle MQSUB returns for `subscription`, which it now has open (claimed by
    /// [`Connection::create_subscription`] or [`Connection::resume_subscription`]).
    fn subscription_handle(&mut self, subscription: &SubscriptionDefinition, options: i32) -> Hobj {
        debug_assert!(self.queue_manager.subscription_in_use(&subscription.name));
        let hsub = self.next_handle;
        self.next_handle += 1;
        let target = Target::Subscription(SubscriptionHandle {
            name: subscription.name.clone(),
            durable: subscription.durable,
        });
        self.handles
            .insert(hsub, ObjectHandle::new(target, options));
        self.note_handles();
        Hobj(hsub)
    }

    // ----- MQCLOSE of a subscription ----------------------------------------------------

    /// Whether `hobj` is a subscription handle.
    pub(super) fn is_subscription_handle(&self, hobj: Hobj) -> bool {
        matches!(
            self.handles.get(&hobj.0),
            Some(ObjectHandle {
                target: Target::Subscription(_),
                ..
            })
        )
    }

    /// MQCLOSE of a subscription handle: a durable subscription stays unless MQCO_REMOVE_SUB
    /// (then its managed queue goes too); a non-durable one ends (MQCO_KEEP_SUB for one is
    /// MQRC_OPTION_NOT_VALID_FOR_TYPE).
    pub(super) fn close_subscription(&mut self, hsub: Hobj, options: i32) -> MqResult<()> {
        if options & !(MQCO_KEEP_SUB | MQCO_REMOVE_SUB) != 0
            || options & MQCO_KEEP_SUB != 0 && options & MQCO_REMOVE_SUB != 0
        {
            return failed(MQRC_OPTIONS_ERROR);
        }
        let Some(Target::Subscription(subscription)) =
            self.handles.get(&hsub.0).map(|handle| &handle.target)
        else {
            return failed(MQRC_HOBJ_ERROR);
        };
        if !subscription.durable && options & MQCO_KEEP_SUB != 0 {
            return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
        }
        let durable = subscription.durable;
        let remove = !durable || options & MQCO_REMOVE_SUB != 0;
        let name = subscription.name.clone();
        let others_open = self
            .queue_manager
            .subscription_claim(&name)
            .is_some_and(|claim| claim.handles > 1);
        if durable && remove && others_open {
            return failed(MQRC_SUBSCRIPTION_IN_USE);
        }
        self.handles.remove(&hsub.0);
        self.note_handles();
        let claim = self.queue_manager.release_subscription(&name);
        if remove && claim.handles == 1 {
            self.remove_subscription(&name, claim.shared)?;
            self.record.mqi.add(
                match durable {
                    true => MqiCounter::UnsubscribeDurable,
                    false => MqiCounter::UnsubscribeNonDurable,
                },
                1,
            );
        }
        Ok(())
    }

    /// End a subscription: its definition, a durable managed one's queue, and a shared
    /// non-durable managed one's (a temporary queue no handle owns).
    fn remove_subscription(&mut self, name: &str, shared: bool) -> MqResult<()> {
        let removed = self.queue_manager.delete_subscription(name)?;
        if removed.managed && removed.durable {
            let _ = self.queue_manager.delete_queue(&removed.destination, true);
        }
        if removed.managed && !removed.durable && shared {
            let queue = self.queue_manager.queue(&removed.destination);
            let temporary = queue.filter(|queue| {
                queue.with_definition(|d| d.definition_type) == DefinitionType::TemporaryDynamic
            });
            if let Some(queue) = temporary {
                let _ = self.queue_manager.delete_temporary_queue(&queue);
            }
        }
        Ok(())
    }

    /// At the end of the connection: its non-durable subscriptions end, its durable ones are
    /// released for other handles.
    pub(super) fn end_subscription_handles(&mut self) {
        let subscriptions: Vec<(String, bool)> = self
            .handles
            .values()
            .filter_map(|handle| match &handle.target {
                Target::Subscription(subscription) => {
                    Some((subscription.name.clone(), subscription.durable))
                }
                _ => None,
            })
            .collect();
        for (name, durable) in subscriptions {
            let claim = self.queue_manager.release_subscription(&name);
            if !durable && claim.handles == 1 && !self.queue_manager.is_stopping() {
                let _ = self.remove_subscription(&name, claim.shared);
            }
        }
    }
}

/// The subscription's wildcard scheme from MQSUB's options (topic-based unless
/// MQSO_WILDCARD_CHAR).
fn wildcard_scheme(options: i32) -> WildcardScheme {
    if options & MQSO_WILDCARD_CHAR != 0 {
        WildcardScheme::Character
    } else {
        WildcardScheme::Topic
    }
}

/// MQSUB's options alone (MQRC_OPTIONS_ERROR).
fn check_subscribe_options(options: i32) -> MqResult<()> {
    if options & UNSUPPORTED_SUBSCRIBE_OPTIONS != 0 {
        return failed(MQRC_FUNCTION_NOT_SUPPORTED);
    }
    let contradicting = [
        MQSO_WILDCARD_CHAR | MQSO_WILDCARD_TOPIC,
        MQSO_ANY_USERID | MQSO_FIXED_USERID,
        MQSO_READ_AHEAD | MQSO_NO_READ_AHEAD,
    ];
    if options & !KNOWN_SUBSCRIBE_OPTIONS != 0
        || options & (MQSO_CREATE | MQSO_RESUME | MQSO_ALTER) == 0
        || contradicting.iter().any(|pair| options & pair == *pair)
    {
        return failed(MQRC_OPTIONS_ERROR);
    }
    Ok(())
}

/// MQSD's SubLevel: 0-9 (MQRC_SD_ERROR), and 0 or 1 with MQSO_PUBLICATIONS_ON_REQUEST
/// (MQRC_OPTIONS_ERROR), as MQ allows it.
fn check_subscription_level(sd: &Mqsd) -> MqResult<()> {
    if !(0..=i32::from(SUBSCRIPTION_LEVEL_MAX)).contains(&sd.sub_level) {
        return failed(MQRC_SD_ERROR);
    }
    if sd.sub_level > 1 && sd.options & MQSO_PUBLICATIONS_ON_REQUEST != 0 {
        return failed(MQRC_OPTIONS_ERROR);
    }
    Ok(())
}

/// Whether retained publications reach `subscription`: MQ republishes them at PubLevel 1,
/// so a subscription above SUBLEVEL 1 (an interceptor) does not get them.
pub(super) fn sends_retained(subscription: &SubscriptionDefinition) -> bool {
    subscription.level <= RETAINED_PUBLICATION_LEVEL
}

/// A copy put: its queue, its priority and the trigger watch taken before the put (what
/// MQPUT's trigger and depth checks need once the unit of work is settled).
pub(super) type Delivered = (Arc<LocalQueue>, u8, Option<triggering::ArrivalWatch>);

/// With USEDLQ(YES), put the publication a subscriber's copy of which could not be put
/// (`error`) on the dead-letter queue instead (`Ok(None)`, delivered there); otherwise, or
/// when that fails too, `error`.
fn dead_letter(
    queue_manager: &ferrite_queue_manager::QueueManager,
    unit: InUnit,
    publication: &Publication,
    subscription: &SubscriptionDefinition,
    error: MqError,
) -> MqResult<Option<Delivered>> {
    if !publication.use_dead_letter_queue {
        return Err(error);
    }
    let mut copy = publication.descriptor.clone();
    let data = publication.copy_data(&mut copy, subscription)?;
    put_to_dead_letter_queue(
        queue_manager,
        Some(unit),
        &copy,
        &data,
        error.reason,
        &subscription.destination,
        &subscription.destination_queue_manager,
    )
    .map(|_| None)
    .map_err(|_| error)
}

/// Whether a copy that cannot be put fails the publish (PMSGDLV/NPMSGDLV).
fn required(delivery: MessageDelivery, subscription: &SubscriptionDefinition) -> bool {
    match delivery {
        MessageDelivery::All => true,
        MessageDelivery::AllDurable => subscription.durable,
        MessageDelivery::AllAvailable => false,
    }
}

/// Put one subscriber's copy in `unit`: `None` when its selector rejects the publication;
/// otherwise the queue, the copy's priority and the trigger watch taken before the put.
pub(super) fn deliver(
    queue_manager: &ferrite_queue_manager::QueueManager,
    unit: &mut UnitOfWork,
    publication: &Publication,
    subscription: &SubscriptionDefinition,
) -> MqResult<Option<Delivered>> {
    if !subscription.selector.is_empty() {
        let selection = Selection::parse(&subscription.selector).map_err(MqError::failed)?;
        if !selection.matches(publication.descriptor, publication.data) {
            return Ok(None);
        }
    }
    let queue = queue_manager
        .queue(&subscription.destination)
        .ok_or(MqError::failed(MQRC_UNKNOWN_OBJECT_NAME))?;
    let mut copy = publication.descriptor.clone();
    copy.msg_id = new_identifier(queue_manager.name());
    copy.correl_id = subscription.correl_id;
    // PUBACCT and PUBAPPID, when set, replace the publisher's identity context.
    if subscription.publication_accounting_token != [0; 32] {
        copy.accounting_token = subscription.publication_accounting_token;
    }
    if !subscription.publication_application_id.is_empty() {
        copy.appl_identity_data =
            crate::mq_char::MqChar::new(&subscription.publication_application_id)
                .map_err(|_| MqError::failed(MQRC_UNEXPECTED_ERROR))?;
    }
    let (default_priority, temporary) = queue.with_definition(|definition| {
        (
            definition.default_priority,
            definition.definition_type == DefinitionType::TemporaryDynamic,
        )
    });
    copy.priority = match subscription.publication_priority {
        PRIORITY_AS_PUBLISHED => copy.priority,
        PRIORITY_AS_QUEUE_DEFAULT => default_priority.into(),
        priority => priority,
    };
    if temporary {
        copy.persistence = MQPER_NOT_PERSISTENT;
    }
    let data = publication.copy_data(&mut copy, subscription)?;
    let engine = descriptor::to_engine(&copy, publication.put_time_ms);
    let watch = triggering::ArrivalWatch::before(&queue);
    queue_manager.put(Some(unit), &queue, &engine, &data)?;
    Ok(Some((queue, copy.priority as u8, watch)))
}

/// The data of a subscriber's copy: the publication with MQ's publish/subscribe properties
/// added to its MQRFH2 (made when it has none); `md`'s Format follows.
pub(super) fn publication_data(
    md: &mut Mqmd,
    data: &[u8],
    topic_string: &str,
    user_data: &str,
    retained: bool,
) -> MqResult<Vec<u8>> {
    let (mut properties, other_folders, body) = publication_parts(md, data)?;
    let set = |properties: &mut MessageProperties, name: &str, value: &str| {
        properties
            .set(name, PropertyValue::String(value.to_string()))
            .map_err(|error| MqError::failed(error.reason_code()))
    };
    set(&mut properties, TOPIC_STRING_PROPERTY, topic_string)?;
    if !user_data.is_empty() {
        set(&mut properties, SUB_USER_DATA_PROPERTY, user_data)?;
    }
    if retained {
        properties
            .set(IS_RETAINED_PROPERTY, PropertyValue::Boolean(true))
            .map_err(|error| MqError::failed(error.reason_code()))?;
    }
    join(md, &properties, &other_folders, body)
}

/// The `psc` folder PSPROP(RFH2) adds: `<Command>Publish</Command>`, `<Topic>`, and
/// `<PubOpt>IsRetainedPub</PubOpt>` for a retained publication.
pub fn command_folder(topic_string: &str, retained: bool) -> Folder {
    let element = |name: &str, value: &str| Element {
        name: name.to_string(),
        attributes: Vec::new(),
        content: Content::Value(value.to_string()),
    };
    let mut elements = vec![
        element("Command", "Publish"),
        element("Topic", topic_string),
    ];
    if retained {
        elements.push(element("PubOpt", "IsRetainedPub"));
    }
    Folder {
        name: "psc".to_string(),
        attributes: Vec::new(),
        elements,
    }
}

/// The data of a PSPROP(RFH2) subscriber's copy: the publication's MQRFH2 (made when it has
/// none) with the `psc` folder ([`command_folder`]) first; `md`'s Format follows.
fn command_folder_data(
    md: &mut Mqmd,
    data: &[u8],
    topic_string: &str,
    retained: bool,
) -> MqResult<Vec<u8>> {
    let (properties, mut folders, body) = publication_parts(md, data)?;
    folders.insert(0, command_folder(topic_string, retained));
    join(md, &properties, &folders, body)
}

/// The NameValueString PSPROP(COMPAT) puts in its MQRFH version 1: `MQPSCommand Publish
/// MQPSTopic topic`, and `MQPSPubOpt IsRetainedPub` for a retained publication. A value with
/// a blank or a double quote is quoted, its double quotes doubled.
pub fn compatible_name_values(topic_string: &str, retained: bool) -> String {
    let mut text = String::from("MQPSCommand Publish MQPSTopic ");
    if topic_string.is_empty() || topic_string.contains([' ', '"']) {
        text.push('"');
        text.push_str(&topic_string.replace('"', "\"\""));
        text.push('"');
    } else {
        text.push_str(topic_string);
    }
    if retained {
        text.push_str(" MQPSPubOpt IsRetainedPub");
    }
    text
}

/// The data of a PSPROP(COMPAT) subscriber's copy: an MQRFH version 1 (32 bytes: StrucId,
/// Version 1, StrucLength, Encoding, CodedCharSetId and Format of what follows, Flags 0; then
/// [`compatible_name_values`] in UTF-8, blank-padded to a multiple of 4; integers in the byte
/// order `md`'s Encoding names) ahead of the publication as published. `md` takes Format
/// MQHRF and CodedCharSetId 1208 (the header's own character set).
fn rfh1_data(md: &mut Mqmd, data: &[u8], topic_string: &str, retained: bool) -> Vec<u8> {
    let mut name_values = compatible_name_values(topic_string, retained).into_bytes();
    while !name_values.len().is_multiple_of(4) {
        name_values.push(b' ');
    }
    let length = RFH1_FIXED_BYTES + name_values.len();
    let order = byte_order(md.encoding);
    let integer = |value: i32| match order {
        ByteOrder::Little => value.to_le_bytes(),
        ByteOrder::Big => value.to_be_bytes(),
    };
    let mut out = Vec::with_capacity(length + data.len());
    out.extend_from_slice(&MQRFH_STRUC_ID);
    out.extend_from_slice(&integer(MQRFH_VERSION_1));
    out.extend_from_slice(&integer(length as i32));
    out.extend_from_slice(&integer(md.encoding));
    out.extend_from_slice(&integer(md.coded_char_set_id));
    out.extend_from_slice(&md.format);
    out.extend_from_slice(&integer(0));
    debug_assert_eq!(out.len(), RFH1_FIXED_BYTES);
    out.extend_from_slice(&name_values);
    out.extend_from_slice(data);
    md.format = MQFMT_RF_HEADER_1;
    md.coded_char_set_id = 1208;
    out
}

/// The fixed part of an MQRFH version 1 (MQRFH_STRUC_LENGTH_FIXED).
const RFH1_FIXED_BYTES: usize = 32;

/// The byte order the MQMD's Encoding names (native when it names none), as MQPUT with a
/// message handle builds its MQRFH2.
fn byte_order(encoding: i32) -> ByteOrder {
    let native = if cfg!(target_endian = "little") {
        ByteOrder::Little
    } else {
        ByteOrder::Big
    };
    ByteOrder::from_mq_encoding(encoding).unwrap_or(native)
}

/// A publication taken apart: the properties and other folders of its MQRFH2 chain (none
/// when it has no MQRFH2), and its body with the body's Encoding, CodedCharSetId and Format.
type PublicationParts<'d> = (
    MessageProperties,
    Vec<Folder>,
    (i32, i32, [u8; 8], &'d [u8]),
);

fn publication_parts<'d>(md: &Mqmd, data: &'d [u8]) -> MqResult<PublicationParts<'d>> {
    if md.format != MQFMT_RF_HEADER_2 {
        let body = (md.encoding, md.coded_char_set_id, md.format, data);
        return Ok((MessageProperties::new(), Vec::new(), body));
    }
    let split = split_message_data(md.encoding, md.coded_char_set_id, md.format, data)
        .map_err(|error| MqError::failed(error.reason_code()))?;
    let body = (
        split.body_encoding,
        split.body_coded_char_set_id,
        split.body_format,
        &data[split.body_offset..],
    );
    Ok((split.properties, split.other_folders, body))
}

/// One MQRFH2 with `folders` then the property folders, ahead of `body`; `md`'s Format
/// follows.
fn join(
    md: &mut Mqmd,
    properties: &MessageProperties,
    folders: &[Folder],
    body: (i32, i32, [u8; 8], &[u8]),
) -> MqResult<Vec<u8>> {
    let order = byte_order(md.encoding);
    let (format, joined) =
        join_message_data(properties, folders, body.0, body.1, body.2, body.3, order)
            .map_err(|error| MqError::failed(error.reason_code()))?;
    md.format = format;
    Ok(joined)
}

/// MQPUT's output fields after a publish: the ids and context the queue manager set; no queue
/// was resolved.
fn return_publish_outputs(md: &mut Mqmd, pmo: &mut Mqpmo, published: &Mqmd, queue_manager: &str) {
    md.msg_id = published.msg_id;
    md.correl_id = published.correl_id;
    md.coded_char_set_id = published.coded_char_set_id;
    md.reply_to_q_mgr = published.reply_to_q_mgr;
    md.user_identifier = published.user_identifier;
    md.accounting_token = published.accounting_token;
    md.appl_identity_data = published.appl_identity_data;
    md.put_appl_type = published.put_appl_type;
    md.put_appl_name = published.put_appl_name;
    md.put_date = published.put_date;
    md.put_time = published.put_time;
    md.appl_origin_data = published.appl_origin_data;
    pmo.resolved_q_name.clear();
    super::set_text(&mut pmo.resolved_q_mgr_name, queue_manager);
}

impl ObjectHandle {
    /// A handle on `target` that is open neither for input nor for output (a subscription's).
    fn new(target: Target, options: i32) -> ObjectHandle {
        ObjectHandle {
            target,
            alias: None,
            created_temporary: false,
            options,
            input: None,
            output: false,
            cursor: None,
            selection: None,
            groups: Default::default(),
            lock_holder: super::new_lock_holder(),
            saved_context: None,
            accounting: None,
            remote: None,
        }
    }

    /// The name of the queue a queue handle has open.
    fn queue_name(&self) -> Option<String> {
        match &self.target {
            Target::Queue(queue) => Some(queue.name()),
            _ => None,
        }
    }

    /// The DEFTYPE of the queue a queue handle has open.
    fn queue_definition_type(&self) -> Option<DefinitionType> {
        match &self.target {
            Target::Queue(queue) => Some(queue.with_definition(|d| d.definition_type)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compatible_name_values_quote_what_needs_it() {
        assert_eq!(
            compatible_name_values("Sport/Football", false),
            "MQPSCommand Publish MQPSTopic Sport/Football"
        );
        assert_eq!(
            compatible_name_values("a \"b\" c", true),
            "MQPSCommand Publish MQPSTopic \"a \"\"b\"\" c\" MQPSPubOpt IsRetainedPub"
        );
    }

    #[test]
    fn rfh1_data_describes_what_follows() {
        let mut md = Mqmd {
            format: *b"MQSTR   ",
            encoding: 546,
            coded_char_set_id: 819,
            ..Mqmd::default()
        };
        let data = rfh1_data(&mut md, b"body", "t", true);
        assert_eq!(md.format, MQFMT_RF_HEADER_1);
        assert_eq!(md.coded_char_set_id, 1208);
        let length = u32::from_le_bytes(data[8..12].try_into().unwrap()) as usize;
        assert_eq!(length % 4, 0);
        assert_eq!(&data[12..16], &546i32.to_le_bytes());
        assert_eq!(&data[16..20], &819i32.to_le_bytes());
        assert_eq!(&data[20..28], b"MQSTR   ");
        assert_eq!(&data[length..], b"body");
        let folder = command_folder("t", true).to_xml();
        assert_eq!(
            folder,
            "<psc><Command>Publish</Command><Topic>t</Topic><PubOpt>IsRetainedPub</PubOpt></psc>"
        );
    }
}
