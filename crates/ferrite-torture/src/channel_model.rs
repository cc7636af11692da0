//! What the channel torture's producer put to the remote queue, and the check of what arrived
//! on the other queue manager's local queue against it.
//!
//! A persistent message whose put was acknowledged (out of syncpoint) or whose unit of work's
//! MQCMIT returned is *committed*: it must arrive exactly once. One whose MQCMIT was in flight
//! when the sending queue manager was killed is *uncertain*: its unit arrives whole or not at
//! all. One whose unit was never committed must never arrive. Persistent messages of one
//! priority arrive in the order they were put (one producer, one channel: the order MQ keeps
//! for a channel's messages of a priority). A non-persistent message (the channel is
//! NPMSPEED(FAST)) never arrives twice and never unless put; it may be lost only when a queue
//! manager was killed while it was on its way, and must arrive when nothing was killed after
//! its put.

use std::collections::{BTreeMap, HashMap};

use crate::message::{data_matches, parse_message_id, MessageIdentity};

/// Where a message stands in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Persistent, acknowledged: arrives exactly once.
    Committed,
    /// Persistent, MQCMIT in flight at a kill: its unit arrives whole or not at all.
    Uncertain,
    /// Persistent, never committed: never arrives.
    BackedOut,
    /// Non-persistent, put acknowledged: arrives at most once; must arrive unless
    /// `may_be_lost`.
    NonPersistent,
    /// Non-persistent, the put in flight at a kill: at most once.
    NonPersistentUncertain,
}

#[derive(Clone, Debug)]
struct Expected {
    fate: Fate,
    priority: u8,
    /// The unit of work (0: out of syncpoint).
    unit: u64,
    /// A kill came after its put (non-persistent messages may then be lost).
    may_be_lost: bool,
    arrived: u32,
}

/// What one round's check found.
#[derive(Clone, Debug, Default)]
pub struct RoundCheck {
    pub arrived: u64,
    pub lost: u64,
    pub duplicated: u64,
    pub phantom: u64,
    pub order_violations: u64,
    pub torn_units: u64,
    pub non_persistent_lost: u64,
    pub uncertain_resolved: u64,
    pub problems: Vec<String>,
}

impl RoundCheck {
    pub fn is_clean(&self) -> bool {
        self.lost + self.duplicated + self.phantom + self.order_violations + self.torn_units == 0
            && self.problems.is_empty()
    }

    fn problem(&mut self, text: String) {
        if self.problems.len() < 20 {
            self.problems.push(text);
        }
    }
}

/// The model of the producer's messages that have not been checked off yet.
#[derive(Default)]
pub struct ChannelModel {
    next_number: u64,
    next_unit: u64,
    open: BTreeMap<u64, Expected>,
    /// Numbers checked off in earlier rounds (a later arrival of one is a duplicate).
    done: HashMap<u64, Fate>,
    /// The last persistent message number arrived, per priority.
    last_arrived: [Option<u64>; 10],
}

impl ChannelModel {
    pub fn new_number(&mut self) -> u64 {
        self.next_number += 1;
        self.next_number
    }

    pub fn new_unit(&mut self) -> u64 {
        self.next_unit += 1;
        self.next_unit
    }

    /// A put is about to be made: persistent in `unit` (0: out of syncpoint), or not.
    pub fn putting(&mut self, identity: &MessageIdentity, persistent: bool, unit: u64) {
        assert!(identity.priority <= 9);
        let fate = match (persistent, unit) {
            (true, 0) => Fate::Uncertain,
            (true, _) => Fate::BackedOut,
            (false, _) => Fate::NonPersistentUncertain,
        };
        let previous = self.open.insert(
            identity.number,
            Expected {
                fate,
                priority: identity.priority,
                unit,
                may_be_lost: false,
                arrived: 0,
            },
        );
        assert!(previous.is_none(), "message numbers are unique");
    }

    /// The put of `number` was acknowledged (out of syncpoint: committed; in a unit: its
    /// commit decides).
    pub fn put_done(&mut self, number: u64) {
        let expected = self.open.get_mut(&number).expect("put recorded");
        expected.fate = match (expected.fate, expected.unit) {
            (Fate::Uncertain, 0) => Fate::Committed,
            (Fate::NonPersistentUncertain, _) => Fate::NonPersistent,
            (fate, _) => fate,
        };
    }

    fn set_unit(&mut self, unit: u64, fate: Fate) {
        assert_ne!(unit, 0);
        for expected in self.open.values_mut().filter(|e| e.unit == unit) {
            expected.fate = fate;
        }
    }

    /// MQCMIT of `unit` is about to be called.
    pub fn commit_begin(&mut self, unit: u64) {
        self.set_unit(unit, Fate::Uncertain);
    }

    /// MQCMIT of `unit` returned.
    pub fn commit_done(&mut self, unit: u64) {
        self.set_unit(unit, Fate::Committed);
    }

    /// `unit` was backed out, or its connection was lost before MQCMIT.
    pub fn backed_out(&mut self, unit: u64) {
        self.set_unit(unit, Fate::BackedOut);
    }

    /// A queue manager was killed: what is on its way may be lost if non-persistent.
    pub fn killed(&mut self) {
        for expected in self.open.values_mut() {
            expected.may_be_lost = true;
        }
    }

    /// Messages the model waits for: at least this many must arrive.
    pub fn certain_arrivals(&self) -> u64 {
        self.open
            .values()
            .filter(|e| {
                e.arrived == 0
                    && (e.fate == Fate::Committed
                        || (e.fate == Fate::NonPersistent && !e.may_be_lost))
            })
            .count() as u64
    }

    /// One message got from the destination queue (in get order).
    pub fn arrived(
        &mut self,
        msg_id: &[u8; 24],
        persistent: bool,
        priority: i32,
        data: &[u8],
        check: &mut RoundCheck,
    ) {
        check.arrived += 1;
        let Some(identity) = parse_message_id(msg_id) else {
            check.phantom += 1;
            check.problem(format!(
                "a message nobody put arrived (MsgId {msg_id:02x?})"
            ));
            return;
        };
        let number = identity.number;
        if !data_matches(&identity, data) || i32::from(identity.priority) != priority {
            check.problem(format!(
                "message {number} arrived with other data or priority ({priority})"
            ));
        }
        if let Some(fate) = self.done.get(&number) {
            match fate {
                Fate::BackedOut | Fate::NonPersistentUncertain | Fate::Uncertain => {
                    check.phantom += 1;
                    check.problem(format!(
                        "message {number} arrived after it was settled as never delivered ({fate:?})"
                    ));
                }
                _ => {
                    check.duplicated += 1;
                    check.problem(format!("message {number} arrived again in a later round"));
                }
            }
            return;
        }
        let Some(expected) = self.open.get_mut(&number) else {
            check.phantom += 1;
            check.problem(format!("message {number} arrived but was never put"));
            return;
        };
        expected.arrived += 1;
        if expected.arrived > 1 {
            check.duplicated += 1;
            check.problem(format!(
                "message {number} ({:?}) arrived {} times",
                expected.fate, expected.arrived
            ));
        }
        let expected_persistent = matches!(
            expected.fate,
            Fate::Committed | Fate::Uncertain | Fate::BackedOut
        );
        if persistent != expected_persistent {
            check.problem(format!("message {number} arrived with another persistence"));
        }
        if expected.fate == Fate::BackedOut {
            check.phantom += 1;
            check.problem(format!(
                "message {number} of unit {} arrived though the unit was never committed",
                expected.unit
            ));
        }
        if expected_persistent && expected.arrived == 1 {
            let last = &mut self.last_arrived[usize::from(expected.priority)];
            if last.is_some_and(|last| last > number) {
                check.order_violations += 1;
                check.problem(format!(
                    "priority {}: message {number} arrived after message {}",
                    expected.priority,
                    last.unwrap_or_default()
                ));
            }
            *last = Some(number.max(last.unwrap_or_default()));
        }
    }

    /// The end of a round, when everything on its way has arrived and been got: every
    /// committed message must have come, every uncertain unit whole or not at all; then all
    /// of it is settled.
    pub fn settle(&mut self, check: &mut RoundCheck) {
        let mut units: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
        for (number, expected) in &self.open {
            match expected.fate {
                Fate::Committed if expected.arrived == 0 => {
                    check.lost += 1;
                    check.problem(format!(
                        "committed persistent message {number} (priority {}) never arrived",
                        expected.priority
                    ));
                }
                Fate::NonPersistent if expected.arrived == 0 && !expected.may_be_lost => {
                    check.lost += 1;
                    check.problem(format!(
                        "non-persistent message {number} never arrived though nothing was killed after its put"
                    ));
                }
                Fate::NonPersistent if expected.arrived == 0 => check.non_persistent_lost += 1,
                Fate::Uncertain if expected.unit != 0 => {
                    let unit = units.entry(expected.unit).or_default();
                    unit.0 += 1;
                    unit.1 += u64::from(expected.arrived.min(1));
                }
                _ => {}
            }
        }
        for (unit, (messages, arrived)) in units {
            check.uncertain_resolved += 1;
            if arrived != 0 && arrived != messages {
                check.torn_units += 1;
                check.problem(format!(
                    "unit of work {unit} (MQCMIT in flight at a kill) arrived in part: {arrived} of {messages} messages"
                ));
            }
        }
        for (number, expected) in std::mem::take(&mut self.open) {
            let fate = if expected.arrived == 0 {
                match expected.fate {
                    Fate::Committed | Fate::NonPersistent => Fate::NonPersistentUncertain,
                    fate => fate,
                }
            } else {
                Fate::Committed
            };
            self.done.insert(number, fate);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{data, message_id};

    fn identity(number: u64, priority: u8) -> MessageIdentity {
        MessageIdentity {
            number,
            priority,
            length: 10,
            worker: 0,
        }
    }

    fn arrive(model: &mut ChannelModel, number: u64, priority: u8, check: &mut RoundCheck) {
        let id = message_id(&identity(number, priority));
        model.arrived(&id, true, i32::from(priority), &data(number, 10), check);
    }

    #[test]
    fn the_model_finds_loss_duplicates_order_and_torn_units() {
        let mut model = ChannelModel::default();
        let unit = model.new_unit();
        for number in 1..=3 {
            model.putting(&identity(number, 4), true, unit);
        }
        model.commit_begin(unit);
        model.commit_done(unit);
        let torn = model.new_unit();
        for number in 4..=5 {
            model.putting(&identity(number, 4), true, torn);
        }
        model.commit_begin(torn);
        let mut check = RoundCheck::default();
        arrive(&mut model, 2, 4, &mut check);
        arrive(&mut model, 1, 4, &mut check);
        arrive(&mut model, 1, 4, &mut check);
        arrive(&mut model, 4, 4, &mut check);
        model.settle(&mut check);
        assert_eq!(check.order_violations, 1);
        assert_eq!(check.duplicated, 1);
        assert_eq!(check.lost, 1, "message 3");
        assert_eq!(check.torn_units, 1);
        assert!(!check.is_clean());
        let mut later = RoundCheck::default();
        arrive(&mut model, 5, 4, &mut later);
        assert_eq!(later.phantom, 1, "settled as never delivered");
    }

    #[test]
    fn non_persistent_messages_may_be_lost_only_across_a_kill() {
        let mut model = ChannelModel::default();
        model.putting(&identity(1, 0), false, 0);
        model.put_done(1);
        model.killed();
        model.putting(&identity(2, 0), false, 0);
        model.put_done(2);
        let mut check = RoundCheck::default();
        model.settle(&mut check);
        assert_eq!(check.non_persistent_lost, 1);
        assert_eq!(check.lost, 1, "message 2 was put after the kill");
    }
}
