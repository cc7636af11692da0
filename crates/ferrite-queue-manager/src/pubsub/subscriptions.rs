//! The subscriptions of the queue manager: durable ones are stored objects (type SUB,
//! `objects/subscription.rs`), rebuilt with the other objects at restart; non-durable ones are
//! held here, in memory, and end with the connection that made them (the MQI removes them).
//! Subscription names are one name space across both.
//!
//! An MQSUB handle that has a subscription open holds a claim on its name. One handle at a
//! time may hold it (MQRC_SUBSCRIPTION_IN_USE for another) unless every handle is a shared
//! one (JMS 2.0 shared subscriptions): then several handles, on any connections, hold it
//! together and take turns at the subscription's one queue, and a non-durable subscription
//! lives while any of them is open.
//!
//! A publication's subscribers are the subscriptions whose topic string selects its topic
//! string in their wildcard scheme and that no WILDCARD(BLOCK) node keeps from it, but those
//! that take publications on request only (MQSO_PUBLICATIONS_ON_REQUEST, REQONLY(YES)) and
//! those whose EXPIRY has run out; of those, [`intercepted`] keeps the ones at the highest
//! SUBLEVEL not above the publication's PubLevel.
//!
//! A subscription whose EXPIRY has run out is removed ([`QueueManager::remove_expired_subscriptions`],
//! from the queue manager's timer), its stored record and a durable managed one's queue with
//! it, once no handle has it open.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ferrite_constants::reason;
use ferrite_storage::error::{StorageError, StorageResult};

use crate::objects::subscription::SubscriptionDefinition;
use crate::objects::{ObjectDefinition, ObjectType};
use crate::queue_manager::QueueManager;

use super::wildcards::{blocked_by, is_wildcard, matches};
use super::TopicTree;

/// The most subscriptions the queue manager holds (durable and non-durable together).
pub const SUBSCRIPTIONS_MAX: usize = 1_000_000;

/// The non-durable subscriptions and which subscriptions a handle has open.
#[derive(Debug, Default)]
pub struct SubscriptionRegistry {
    state: Mutex<RegistryState>,
    /// When the next subscription expires, milliseconds since 1970 (0: not known yet, scan;
    /// `u64::MAX`: none will).
    next_expiry_ms: AtomicU64,
    /// Bumped after every change to the set of subscriptions (define, replace, delete).
    generation: AtomicU64,
    /// Every subscription as of a generation, shared by the publications made while it is
    /// current: a publish reads it without copying one subscription.
    snapshot: std::sync::RwLock<Option<(u64, SubscriptionSnapshot)>>,
}

/// Every subscription at one moment, shared ([`QueueManager::subscription_snapshot`]).
pub type SubscriptionSnapshot = Arc<[Arc<SubscriptionDefinition>]>;

/// How long an expired subscription that a handle still has open waits before the timer
/// looks at it again.
pub const EXPIRED_IN_USE_RETRY_MS: u64 = 1_000;

/// The publication level of MQPUT and MQPUT1 (MQPMO_DEFAULT's PubLevel).
pub const PUBLICATION_LEVEL_DEFAULT: u8 = 9;
/// The publication level of a retained publication sent to a new subscription or on
/// MQSUBRQ: MQ republishes retained publications at PubLevel 1.
pub const RETAINED_PUBLICATION_LEVEL: u8 = 1;

/// Of a publication's subscribers, those it reaches at PubLevel `publication_level`: the
/// ones whose SUBLEVEL is the highest of theirs not above it (subscribers at a higher level
/// intercept it from those below).
pub fn intercepted(
    mut subscribers: Vec<Arc<SubscriptionDefinition>>,
    publication_level: u8,
) -> Vec<Arc<SubscriptionDefinition>> {
    let highest = subscribers
        .iter()
        .map(|subscription| subscription.level)
        .filter(|level| *level <= publication_level)
        .max();
    match highest {
        // The usual case, every subscriber at SUBLEVEL(1) and PubLevel 9: nothing to drop.
        Some(highest) if subscribers.iter().all(|s| s.level == highest) => subscribers,
        Some(highest) => {
            subscribers.retain(|subscription| subscription.level == highest);
            subscribers
        }
        None => Vec::new(),
    }
}

#[derive(Debug, Default)]
struct RegistryState {
    nondurable: BTreeMap<String, SubscriptionDefinition>,
    /// Subscriptions MQSUB handles have open, by name.
    in_use: HashMap<String, SubscriptionClaim>,
}

/// The MQSUB handles that have one subscription open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubscriptionClaim {
    /// How many handles have it open (at least 1 while claimed).
    pub handles: u32,
    /// Whether they share it: set by the first handle, and every other must share it too.
    pub shared: bool,
}

/// The most MQSUB handles that share one subscription.
pub const SHARED_SUBSCRIPTION_HANDLES_MAX: u32 = 100_000;

impl RegistryState {
    fn claim(&mut self, name: &str, shared: bool) -> bool {
        match self.in_use.get_mut(name) {
            None => {
                let claim = SubscriptionClaim { handles: 1, shared };
                self.in_use.insert(name.to_string(), claim);
                true
            }
            Some(claim) if claim.shared && shared => {
                if claim.handles >= SHARED_SUBSCRIPTION_HANDLES_MAX {
                    return false;
                }
                claim.handles += 1;
                true
            }
            Some(_) => false,
        }
    }

    fn release(&mut self, name: &str) -> SubscriptionClaim {
        let claim = self
            .in_use
            .get_mut(name)
            .expect("a subscription handle holds a claim");
        assert!(claim.handles >= 1, "a claim has a handle");
        let before = *claim;
        claim.handles -= 1;
        if claim.handles == 0 {
            self.in_use.remove(name);
        }
        before
    }
}

fn already_exists(name: &str) -> StorageError {
    StorageError::mq(
        reason::MQRC_SUB_ALREADY_EXISTS,
        format!("subscription '{name}' already exists"),
    )
}

fn no_subscription(name: &str) -> StorageError {
    StorageError::mq(
        reason::MQRC_NO_SUBSCRIPTION,
        format!("no subscription is called '{name}'"),
    )
}

impl QueueManager {
    /// The subscription called `name`, durable or not.
    pub fn subscription(&self, name: &str) -> Option<SubscriptionDefinition> {
        if let Some(ObjectDefinition::Subscription(durable)) =
            self.object(ObjectType::Subscription, name)
        {
            return Some(durable);
        }
        let state = self.subscription_registry().state.lock().unwrap();
        state.nondurable.get(name).cloned()
    }

    /// Every subscription, durable ones first, each by name.
    pub fn subscriptions(&self) -> Vec<SubscriptionDefinition> {
        let mut all: Vec<SubscriptionDefinition> = self
            .objects(ObjectType::Subscription)
            .into_iter()
            .filter_map(|definition| match definition {
                ObjectDefinition::Subscription(durable) => Some(durable),
                _ => None,
            })
            .collect();
        let state = self.subscription_registry().state.lock().unwrap();
        all.extend(state.nondurable.values().cloned());
        all
    }

    /// Make a subscription (`replace`: change the existing one of that name, which must have
    /// the same durability). A durable one is stored and the log forced before this returns.
    pub fn define_subscription(
        &self,
        subscription: SubscriptionDefinition,
        replace: bool,
    ) -> StorageResult<()> {
        subscription.validate()?;
        let existing = self.subscription(&subscription.name);
        match (&existing, replace) {
            (Some(_), false) => return Err(already_exists(&subscription.name)),
            (Some(existing), true) if existing.durable != subscription.durable => {
                return Err(StorageError::mq(
                    reason::MQRC_DURABILITY_NOT_ALTERABLE,
                    "a subscription's durability cannot change",
                ))
            }
            (None, true) => return Err(no_subscription(&subscription.name)),
            _ => {}
        }
        if existing.is_none() && self.subscription_count() >= SUBSCRIPTIONS_MAX {
            return Err(StorageError::mq(
                reason::MQRC_STORAGE_NOT_AVAILABLE,
                format!("the queue manager holds {SUBSCRIPTIONS_MAX} subscriptions already"),
            ));
        }
        let expires_at_ms = subscription.expires_at_ms;
        if subscription.durable {
            self.define_object(ObjectDefinition::Subscription(subscription), replace)?;
        } else {
            let mut state = self.subscription_registry().state.lock().unwrap();
            // Checked again under the lock: a concurrent MQSUB may have made it meanwhile.
            if !replace && state.nondurable.contains_key(&subscription.name) {
                return Err(already_exists(&subscription.name));
            }
            state
                .nondurable
                .insert(subscription.name.clone(), subscription);
        }
        self.subscriptions_changed();
        // After the definition is in place: a scan that set the next expiry before it may not
        // have seen it, and this lowers it again.
        if expires_at_ms != 0 {
            self.subscription_registry()
                .next_expiry_ms
                .fetch_min(expires_at_ms, Ordering::SeqCst);
        }
        Ok(())
    }

    /// Remove the subscription called `name` (its managed queue is the caller's to delete).
    pub fn delete_subscription(&self, name: &str) -> StorageResult<SubscriptionDefinition> {
        let existing = self
            .subscription(name)
            .ok_or_else(|| no_subscription(name))?;
        if existing.durable {
            self.delete_object(ObjectType::Subscription, name)?;
        } else {
            let mut state = self.subscription_registry().state.lock().unwrap();
            state.nondurable.remove(name);
        }
        self.subscriptions_changed();
        Ok(existing)
    }

    /// Remove every subscription whose EXPIRY has run out by `now_ms` and that no handle has
    /// open (a durable one's stored record, and a durable managed one's queue, go with it), as
    /// MQ removes expired subscriptions. Costs one comparison until the next one expires.
    /// Returns the names removed.
    pub fn remove_expired_subscriptions(&self, now_ms: u64) -> StorageResult<Vec<String>> {
        let registry = self.subscription_registry();
        if now_ms < registry.next_expiry_ms.load(Ordering::Relaxed) {
            return Ok(Vec::new());
        }
        // Anything defined from here on lowers it again.
        registry.next_expiry_ms.store(u64::MAX, Ordering::SeqCst);
        let mut removed = Vec::new();
        let mut next_ms = u64::MAX;
        for subscription in self.subscriptions() {
            if !subscription.expired(now_ms) {
                if subscription.expires_at_ms != 0 {
                    next_ms = next_ms.min(subscription.expires_at_ms);
                }
                continue;
            }
            if self.subscription_in_use(&subscription.name) {
                next_ms = next_ms.min(now_ms + EXPIRED_IN_USE_RETRY_MS);
                continue;
            }
            match self.delete_subscription(&subscription.name) {
                Ok(gone) => {
                    if gone.managed && gone.durable {
                        let _ = self.delete_queue(&gone.destination, true);
                    }
                    removed.push(gone.name);
                }
                // Removed meanwhile by a command or an MQSUB of its name.
                Err(error) if error.reason_code() == reason::MQRC_NO_SUBSCRIPTION => {}
                Err(error) => {
                    registry.next_expiry_ms.fetch_min(now_ms, Ordering::Relaxed);
                    return Err(error);
                }
            }
        }
        registry
            .next_expiry_ms
            .fetch_min(next_ms, Ordering::Relaxed);
        Ok(removed)
    }

    fn subscription_count(&self) -> usize {
        let nondurable = self
            .subscription_registry()
            .state
            .lock()
            .unwrap()
            .nondurable
            .len();
        nondurable + self.objects(ObjectType::Subscription).len()
    }

    /// Claim the subscription `name` for one MQSUB handle, `shared` or not: false when
    /// handles have it open already and either they or this one do not share it
    /// (MQRC_SUBSCRIPTION_IN_USE).
    pub fn claim_subscription(&self, name: &str, shared: bool) -> bool {
        let mut state = self.subscription_registry().state.lock().unwrap();
        state.claim(name, shared)
    }

    /// Give back one handle's claim of [`QueueManager::claim_subscription`]: the claim as it
    /// was before (`handles` 1 when this was the last handle).
    pub fn release_subscription(&self, name: &str) -> SubscriptionClaim {
        let mut state = self.subscription_registry().state.lock().unwrap();
        state.release(name)
    }

    /// Whether an MQSUB handle has the subscription `name` open.
    pub fn subscription_in_use(&self, name: &str) -> bool {
        let state = self.subscription_registry().state.lock().unwrap();
        state.in_use.contains_key(name)
    }

    /// The handles that have the subscription `name` open (None when none has).
    pub fn subscription_claim(&self, name: &str) -> Option<SubscriptionClaim> {
        let state = self.subscription_registry().state.lock().unwrap();
        state.in_use.get(name).copied()
    }

    /// A subscription was made, changed or removed: the next snapshot is taken afresh.
    fn subscriptions_changed(&self) {
        self.subscription_registry()
            .generation
            .fetch_add(1, Ordering::SeqCst);
    }

    /// Every subscription, shared: the snapshot of the current generation, taken once per
    /// change rather than once per publication. A snapshot taken while a change was made is
    /// kept only for the generation it began in, so it is never mistaken for a later one.
    pub fn subscription_snapshot(&self) -> SubscriptionSnapshot {
        let registry = self.subscription_registry();
        let generation = registry.generation.load(Ordering::SeqCst);
        if let Some((taken, snapshot)) = registry.snapshot.read().unwrap().as_ref() {
            if *taken == generation {
                return snapshot.clone();
            }
        }
        let snapshot: SubscriptionSnapshot =
            self.subscriptions().into_iter().map(Arc::new).collect();
        let mut cached = registry.snapshot.write().unwrap();
        let newer = cached
            .as_ref()
            .is_some_and(|(taken, _)| *taken > generation);
        if !newer {
            *cached = Some((generation, snapshot.clone()));
        }
        snapshot
    }

    /// The subscriptions a publication on `topic_string` goes to.
    pub fn subscribers(
        &self,
        tree: &TopicTree,
        topic_string: &str,
    ) -> Vec<Arc<SubscriptionDefinition>> {
        let blocking: Vec<&str> = tree
            .ancestors(topic_string)
            .filter(|node| node.wildcard_block)
            .map(|node| node.topic_string.as_str())
            .collect();
        let now_ms = crate::now_ms();
        self.subscription_snapshot()
            .iter()
            .filter(|subscription| {
                if subscription.publications_on_request || subscription.expired(now_ms) {
                    return false;
                }
                let scheme = subscription.wildcard_scheme;
                let pattern = subscription.topic_string.as_str();
                matches(scheme, pattern, topic_string)
                    && !(is_wildcard(scheme, pattern)
                        && blocking
                            .iter()
                            .any(|blocked| blocked_by(scheme, pattern, blocked)))
            })
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::topic::TopicDefinition;
    use crate::pubsub::WildcardScheme;

    #[test]
    fn wildcard_block_keeps_publications_from_wildcards_above_the_node() {
        let mut fruit = TopicDefinition::new("FRUIT", "Price/Fruit");
        fruit.wildcard_block = true;
        let tree = TopicTree::new([fruit]);
        let blocking: Vec<&str> = tree
            .ancestors("Price/Fruit/Apples")
            .filter(|node| node.wildcard_block)
            .map(|node| node.topic_string.as_str())
            .collect();
        assert_eq!(blocking, vec!["Price/Fruit"]);
        let scheme = WildcardScheme::Topic;
        assert!(blocked_by(scheme, "Price/#", blocking[0]));
        assert!(!blocked_by(scheme, "Price/Fruit/+", blocking[0]));
    }

    #[test]
    fn shared_handles_hold_a_subscription_together_and_others_are_refused() {
        let mut state = RegistryState::default();
        let mut claim = |name: &str, shared: bool| state.claim(name, shared);
        assert!(claim("S", true));
        assert!(claim("S", true));
        assert!(!claim("S", false), "an unshared handle is refused");
        assert!(claim("U", false));
        assert!(
            !claim("U", false),
            "a second handle on an unshared one is refused"
        );
        assert!(!claim("U", true), "and so is a shared one");
        let before = state.release("S");
        assert_eq!(
            before,
            SubscriptionClaim {
                handles: 2,
                shared: true
            }
        );
        assert_eq!(state.release("S").handles, 1, "the last handle");
        assert!(!state.in_use.contains_key("S"), "no handle has it open");
        assert!(state.claim("S", false), "now an unshared handle may");
    }
}
