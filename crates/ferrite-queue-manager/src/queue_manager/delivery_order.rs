//! A queue's committed messages in delivery order: priority 9 first, then put sequence.
//!
//! One *lane* per priority, each a ring buffer (`VecDeque`) of slots in put-sequence order.
//! The common cases cost O(1) with no tree to walk or rebalance: a get takes the first live slot
//! of the highest non-empty lane, a commit appends to a lane's back (a put committed after a
//! later-numbered one is inserted a few slots from the back), a backout of a message got from
//! the front puts it back at the front. A message removed from the middle (a get by MSGID or
//! CORRELID, expiry, a locked message got) leaves its slot empty (*lazy removal*): empty slots
//! at either end are dropped at once, and a lane whose empty slots outnumber its live ones
//! (plus [`EMPTY_SLOTS_SLACK`]) is compacted, so the space and the cost of skipping them stay
//! bounded by the live messages. Finding a key is a binary search in its lane by sequence.
//!
//! The interface is the part of `BTreeMap<MessageKey, MessageEntry>` the queue used (get,
//! insert, remove, ordered iteration from a key), with the same results: the property test
//! below checks it against a `BTreeMap`.
//!
//! Entries live in their slots, not boxed: in MP16's single-queue workload a putter on one
//! processor would allocate every box and a getter on the other free it (a `malloc` and a
//! cross-arena `free` per message). A slot is [`SLOT_BYTES`] bytes, so the capacity a lane
//! keeps when drained ([`SLOT_CAPACITY_KEPT_BYTES`]) is counted in bytes.

use std::collections::VecDeque;
use std::ops::Bound;

use super::queue::{MessageEntry, MessageKey};

/// Priorities 0-9 (MQ's MQPRI range): one lane each.
const PRIORITY_LEVELS: usize = 10;

/// Empty slots a lane may hold beyond its live ones before it is compacted.
const EMPTY_SLOTS_SLACK: usize = 32;

/// Bytes of slot capacity a lane keeps however empty it gets; beyond this a lane used at a
/// quarter of its capacity or less shrinks to twice its length.
const SLOT_CAPACITY_KEPT_BYTES: usize = 16 * 1024;

/// Bytes one slot takes (an entry held in place, see the module's comment).
pub const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// Slots of capacity a lane keeps however empty it gets.
const SLOTS_KEPT_MIN: usize = SLOT_CAPACITY_KEPT_BYTES / SLOT_BYTES;

// An entry in place is about 150 bytes; a shallow queue's lane still never reallocates.
const _: () = assert!(SLOT_BYTES >= std::mem::size_of::<MessageEntry>() && SLOT_BYTES <= 256);
const _: () = assert!(SLOTS_KEPT_MIN >= 64);

struct Slot {
    sequence: u64,
    /// `None`: removed lazily, skipped by every search.
    entry: Option<MessageEntry>,
}

#[derive(Default)]
struct Lane {
    /// In increasing `sequence`, with no empty slot at either end.
    slots: VecDeque<Slot>,
    live: usize,
}

impl Lane {
    fn position(&self, sequence: u64) -> Result<usize, usize> {
        // Gets take from the front and commits append at the back: answer both without a
        // binary search, whose probes into a deep queue's slots are each a cache miss.
        let (Some(first), Some(last)) = (self.slots.front(), self.slots.back()) else {
            return Err(0);
        };
        if sequence > last.sequence {
            return Err(self.slots.len());
        }
        if sequence <= first.sequence {
            return if sequence == first.sequence {
                Ok(0)
            } else {
                Err(0)
            };
        }
        self.slots
            .binary_search_by_key(&sequence, |slot| slot.sequence)
    }

    fn trim_and_compact(&mut self) {
        while self.slots.front().is_some_and(|slot| slot.entry.is_none()) {
            self.slots.pop_front();
        }
        while self.slots.back().is_some_and(|slot| slot.entry.is_none()) {
            self.slots.pop_back();
        }
        if self.slots.len() - self.live > self.live + EMPTY_SLOTS_SLACK {
            self.slots.retain(|slot| slot.entry.is_some());
        }
        // A drained deep queue gives its slots' memory back (a quarter full at most).
        let capacity = self.slots.capacity();
        if capacity > SLOTS_KEPT_MIN && capacity > 4 * self.slots.len() {
            self.slots
                .shrink_to(SLOTS_KEPT_MIN.max(2 * self.slots.len()));
        }
        debug_assert!(self.slots.len() - self.live <= self.live + EMPTY_SLOTS_SLACK);
    }

    fn iter_from(&self, start: usize) -> impl Iterator<Item = &MessageEntry> {
        self.slots
            .range(start..)
            .filter_map(|slot| slot.entry.as_ref())
    }
}

/// The committed messages of one queue, by [`MessageKey`] in delivery order.
#[derive(Default)]
pub struct DeliveryOrder {
    /// Index = priority (lane 9 is delivered first).
    lanes: [Lane; PRIORITY_LEVELS],
    len: usize,
}

impl DeliveryOrder {
    fn lane_of(key: &MessageKey) -> Option<usize> {
        let priority = 9usize.checked_sub(usize::from(key.inverted_priority))?;
        Some(priority)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, key: &MessageKey) -> Option<&MessageEntry> {
        let lane = &self.lanes[Self::lane_of(key)?];
        let index = lane.position(key.sequence).ok()?;
        lane.slots[index].entry.as_ref()
    }

    pub fn contains_key(&self, key: &MessageKey) -> bool {
        self.get(key).is_some()
    }

    /// Add a message under `key` (its entry's own key). A key is on the queue at most once:
    /// inserting one that is there is a bug, and stops the process.
    pub fn insert(&mut self, key: MessageKey, entry: MessageEntry) {
        assert_eq!(key, entry.key, "a message is kept under its own key");
        let lane_index = Self::lane_of(&key).expect("a message's priority is 0-9");
        let lane = &mut self.lanes[lane_index];
        match lane.position(key.sequence) {
            Ok(index) => {
                let slot = &mut lane.slots[index];
                assert!(
                    slot.entry.is_none(),
                    "message {key:?} is already on the queue"
                );
                slot.entry = Some(entry);
            }
            Err(index) => lane.slots.insert(
                index,
                Slot {
                    sequence: key.sequence,
                    entry: Some(entry),
                },
            ),
        }
        lane.live += 1;
        self.len += 1;
    }

    pub fn remove(&mut self, key: &MessageKey) -> Option<MessageEntry> {
        let lane = &mut self.lanes[Self::lane_of(key)?];
        let index = lane.position(key.sequence).ok()?;
        let entry = lane.slots[index].entry.take()?;
        lane.live -= 1;
        self.len -= 1;
        lane.trim_and_compact();
        Some(entry)
    }

    /// Every message in delivery order.
    pub fn iter(&self) -> impl Iterator<Item = (&MessageKey, &MessageEntry)> {
        self.range((Bound::Unbounded, Bound::Unbounded))
    }

    pub fn keys(&self) -> impl Iterator<Item = &MessageKey> {
        self.iter().map(|(key, _)| key)
    }

    pub fn values(&self) -> impl Iterator<Item = &MessageEntry> {
        self.iter().map(|(_, entry)| entry)
    }

    /// The messages after a lower bound, in delivery order (the upper bound must be
    /// `Unbounded`: the queue only ever searches forward from a point).
    pub fn range(
        &self,
        (lower, upper): (Bound<MessageKey>, Bound<MessageKey>),
    ) -> impl Iterator<Item = (&MessageKey, &MessageEntry)> {
        assert!(matches!(upper, Bound::Unbounded), "ranges run to the end");
        // (first lane to look at, index in it to start from); later lanes from their start.
        let start = match lower {
            Bound::Unbounded => Some((9, 0)),
            Bound::Included(key) | Bound::Excluded(key) => Self::lane_of(&key).map(|lane| {
                let slots = &self.lanes[lane].slots;
                let index = match lower {
                    Bound::Included(_) => slots.partition_point(|s| s.sequence < key.sequence),
                    _ => slots.partition_point(|s| s.sequence <= key.sequence),
                };
                (lane, index)
            }),
        };
        start.into_iter().flat_map(move |(first_lane, index)| {
            (0..=first_lane).rev().flat_map(move |lane| {
                let from = if lane == first_lane { index } else { 0 };
                self.lanes[lane]
                    .iter_from(from)
                    .map(|entry| (&entry.key, entry))
            })
        })
    }

    /// The first message in delivery order: the front slot of the highest non-empty lane (a
    /// lane's end slots are never empty), found without walking an iterator over the lanes.
    /// Every plain MQGET (no match fields, no lock) takes this one.
    pub fn first(&self) -> Option<&MessageEntry> {
        let lane = self.lanes.iter().rev().find(|lane| lane.live > 0)?;
        let entry = lane.slots.front()?.entry.as_ref();
        assert!(entry.is_some(), "a lane's front slot is live");
        entry
    }

    /// The message put first (smallest put sequence), whatever its priority: the first live
    /// slot of each lane is its oldest, so this looks at ten slots, not the whole queue.
    pub fn oldest(&self) -> Option<&MessageEntry> {
        self.lanes
            .iter()
            .filter_map(|lane| lane.iter_from(0).next())
            .min_by_key(|entry| entry.key.sequence)
    }

    /// Every message, in delivery order, leaving the queue empty.
    pub fn into_values(self) -> impl Iterator<Item = MessageEntry> {
        self.lanes
            .into_iter()
            .rev()
            .flat_map(|lane| lane.slots.into_iter().filter_map(|slot| slot.entry))
    }

    /// Slots held, live or empty (tests: the lazy removal's bookkeeping stays bounded).
    #[cfg(test)]
    fn slots(&self) -> usize {
        self.lanes.iter().map(|lane| lane.slots.len()).sum()
    }
}

impl std::ops::Index<&MessageKey> for DeliveryOrder {
    type Output = MessageEntry;

    fn index(&self, key: &MessageKey) -> &MessageEntry {
        self.get(key).expect("key on the queue")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue_manager::queue::MessageStorage;
    use ferrite_storage::log_records::MessageLocation;
    use ferrite_storage::types::{PageNumber, PageSetId};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn entry(priority: u8, sequence: u64) -> MessageEntry {
        MessageEntry {
            key: MessageKey::new(priority, sequence),
            storage: MessageStorage::Pages(MessageLocation {
                page_set: PageSetId(1),
                page: PageNumber(1),
                offset: 0,
            }),
            persistent: false,
            message_id: [0; 24],
            correlation_id: [0; 24],
            expires_at_ms: None,
            backout_count: 0,
            group: None,
        }
    }

    fn keys(order: &DeliveryOrder) -> Vec<(u8, u64)> {
        order
            .keys()
            .map(|key| (key.priority(), key.sequence))
            .collect()
    }

    #[test]
    fn priority_first_then_put_order_across_backouts() {
        let mut order = DeliveryOrder::default();
        // Commits out of put order (four putters), priorities mixed.
        for (priority, sequence) in [(4, 2), (4, 1), (9, 5), (0, 3), (4, 4), (9, 6)] {
            order.insert(
                MessageKey::new(priority, sequence),
                entry(priority, sequence),
            );
        }
        assert_eq!(
            keys(&order),
            [(9, 5), (9, 6), (4, 1), (4, 2), (4, 4), (0, 3)]
        );
        // Two gets from the front and one from the middle, then all three backed out: each
        // goes back to its place.
        let first = order.remove(&MessageKey::new(9, 5)).unwrap();
        let second = order.remove(&MessageKey::new(9, 6)).unwrap();
        let middle = order.remove(&MessageKey::new(4, 2)).unwrap();
        assert_eq!(keys(&order), [(4, 1), (4, 4), (0, 3)]);
        order.insert(middle.key, middle);
        order.insert(second.key, second);
        order.insert(first.key, first);
        assert_eq!(
            keys(&order),
            [(9, 5), (9, 6), (4, 1), (4, 2), (4, 4), (0, 3)]
        );
        assert_eq!(order.len(), 6);
        assert_eq!(order.oldest().unwrap().key.sequence, 1);
    }

    #[test]
    fn ranges_start_after_a_key_in_any_lane() {
        let mut order = DeliveryOrder::default();
        for (priority, sequence) in [(7, 1), (7, 3), (2, 2), (2, 4)] {
            order.insert(
                MessageKey::new(priority, sequence),
                entry(priority, sequence),
            );
        }
        let after = |key: MessageKey| -> Vec<u64> {
            order
                .range((Bound::Excluded(key), Bound::Unbounded))
                .map(|(key, _)| key.sequence)
                .collect()
        };
        assert_eq!(after(MessageKey::new(7, 1)), [3, 2, 4]);
        assert_eq!(after(MessageKey::new(7, 3)), [2, 4]);
        // A key no longer on the queue (got meanwhile) still bounds the range.
        assert_eq!(after(MessageKey::new(5, 0)), [2, 4]);
        assert_eq!(after(MessageKey::MIN), [1, 3, 2, 4]);
        assert!(after(MessageKey::MAX).is_empty());
    }

    #[test]
    fn lazy_removal_keeps_empty_slots_bounded_and_drops_them_at_the_ends() {
        let mut order = DeliveryOrder::default();
        for sequence in 0..1000 {
            order.insert(MessageKey::new(0, sequence), entry(0, sequence));
        }
        // Every other message got from the middle (gets by MSGID): their slots stay empty
        // until they outnumber the live ones by the slack.
        for sequence in (1..999).step_by(2) {
            order.remove(&MessageKey::new(0, sequence)).unwrap();
        }
        assert_eq!(order.len(), 501);
        assert!(order.slots() - order.len() <= order.len() + EMPTY_SLOTS_SLACK);
        // Now all but the last from the front: the empty slots go with them.
        for sequence in (0..998).step_by(2) {
            order.remove(&MessageKey::new(0, sequence)).unwrap();
        }
        assert_eq!(keys(&order), [(0, 998), (0, 999)]);
        assert!(order.slots() <= 2 + EMPTY_SLOTS_SLACK);
        order.remove(&MessageKey::new(0, 999)).unwrap();
        order.remove(&MessageKey::new(0, 998)).unwrap();
        assert_eq!(order.slots(), 0);
        // A deep lane drained gives its memory back.
        for sequence in 1000..101_000 {
            order.insert(MessageKey::new(0, sequence), entry(0, sequence));
        }
        for sequence in 1000..101_000 {
            order.remove(&MessageKey::new(0, sequence)).unwrap();
        }
        assert!(order.lanes[0].slots.capacity() <= 2 * SLOTS_KEPT_MIN);
        assert!(order.is_empty() && order.oldest().is_none());
        // Removing what is not there changes nothing.
        assert!(order.remove(&MessageKey::new(0, 998)).is_none());
    }

    #[test]
    fn first_is_the_front_of_the_highest_lane_whatever_was_removed() {
        let mut order = DeliveryOrder::default();
        assert!(order.first().is_none());
        for (priority, sequence) in [(0, 1), (4, 2), (4, 3), (9, 4), (4, 5)] {
            order.insert(
                MessageKey::new(priority, sequence),
                entry(priority, sequence),
            );
        }
        let first = |order: &DeliveryOrder| order.first().map(|entry| entry.key.sequence);
        assert_eq!(first(&order), Some(4));
        order.remove(&MessageKey::new(9, 4)).unwrap();
        assert_eq!(first(&order), Some(2));
        // A removal from the middle leaves the front; one at the front moves it past the
        // emptied slot.
        order.remove(&MessageKey::new(4, 3)).unwrap();
        assert_eq!(first(&order), Some(2));
        order.remove(&MessageKey::new(4, 2)).unwrap();
        assert_eq!(first(&order), Some(5));
        order.remove(&MessageKey::new(4, 5)).unwrap();
        assert_eq!(first(&order), Some(1));
        order.remove(&MessageKey::new(0, 1)).unwrap();
        assert!(order.first().is_none());
    }

    #[test]
    #[should_panic(expected = "already on the queue")]
    fn a_key_is_on_the_queue_once() {
        let mut order = DeliveryOrder::default();
        for sequence in [1, 2, 3] {
            order.insert(MessageKey::new(3, sequence), entry(3, sequence));
        }
        order.remove(&MessageKey::new(3, 2)).unwrap();
        order.insert(MessageKey::new(3, 2), entry(3, 2));
        order.insert(MessageKey::new(3, 2), entry(3, 2));
    }

    #[derive(Clone, Debug)]
    enum Operation {
        /// A commit: the next sequence, at this priority.
        Insert(u8),
        /// A backout: a removed message back at its own sequence (the n-th removed, modulo).
        Reinsert(usize),
        /// A get: the n-th message in delivery order (modulo), or a miss when it is empty.
        Remove(usize),
        RangeAfter(u8, u64),
    }

    fn operation() -> impl Strategy<Value = Operation> {
        // Sequences grow as the queue manager's do and gets take messages from anywhere, so
        // lanes lose enough of their middle for compaction to run against the model.
        prop_oneof![
            4 => (0u8..3).prop_map(Operation::Insert),
            1 => (0usize..1000).prop_map(Operation::Reinsert),
            4 => (0usize..1000).prop_map(Operation::Remove),
            1 => (0u8..10, 0u64..2000).prop_map(|(p, s)| Operation::RangeAfter(p, s)),
        ]
    }

    proptest! {
        /// Any sequence of inserts, removes and ranges gives what a BTreeMap gives.
        #[test]
        fn agrees_with_a_btree_map(operations in proptest::collection::vec(operation(), 1..1500)) {
            let mut order = DeliveryOrder::default();
            let mut model: BTreeMap<MessageKey, ()> = BTreeMap::new();
            let mut next_sequence = 0u64;
            let mut removed: Vec<MessageKey> = Vec::new();
            for operation in operations {
                match operation {
                    Operation::Insert(priority) => {
                        let key = MessageKey::new(priority, next_sequence);
                        next_sequence += 1;
                        model.insert(key, ());
                        order.insert(key, entry(priority, key.sequence));
                    }
                    Operation::Reinsert(index) => {
                        if removed.is_empty() {
                            continue;
                        }
                        let key = removed.swap_remove(index % removed.len());
                        model.insert(key, ());
                        order.insert(key, entry(key.priority(), key.sequence));
                    }
                    Operation::Remove(index) => {
                        let key = match model.len() {
                            0 => MessageKey::new(0, next_sequence),
                            len => *model.keys().nth(index % len).expect("in range"),
                        };
                        let present = model.remove(&key).is_some();
                        prop_assert_eq!(present, order.remove(&key).is_some());
                        if present {
                            removed.push(key);
                        }
                    }
                    Operation::RangeAfter(priority, sequence) => {
                        let key = MessageKey::new(priority, sequence);
                        let bound = (Bound::Excluded(key), Bound::Unbounded);
                        let expected: Vec<MessageKey> = model.range(bound).map(|(k, _)| *k).collect();
                        let got: Vec<MessageKey> = order.range(bound).map(|(k, _)| *k).collect();
                        prop_assert_eq!(expected, got);
                    }
                }
                prop_assert_eq!(order.len(), model.len());
                prop_assert!(order.keys().copied().eq(model.keys().copied()));
                prop_assert_eq!(order.first().map(|entry| entry.key), model.keys().next().copied());
                prop_assert_eq!(
                    order.oldest().map(|entry| entry.key),
                    model.keys().min_by_key(|key| key.sequence).copied()
                );
                prop_assert!(
                    order.slots() - order.len() <= order.len() + PRIORITY_LEVELS * EMPTY_SLOTS_SLACK
                );
            }
        }
    }
}
