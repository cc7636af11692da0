//! The group index of a local queue: message groups and segmented messages (MQ's "Message
//! groups" and "Segmentation of messages") as the MQGET options need to find them.
//!
//! A message whose GroupId is not MQGI_NONE is a *member* of the group that GroupId names,
//! at the position (MsgSeqNumber, Offset); a segment also has a length (its data). The index
//! keeps, per group, its members in position order and in delivery order, and keeps up to date
//! whether the group is *complete*: its last message (MQMF_LAST_MSG_IN_GROUP, or the one
//! message of a group of one) is present with every MsgSeqNumber from 1 to it, and each of
//! those logical messages is complete (segments contiguous from offset 0 to an
//! MQMF_LAST_SEGMENT). Only committed messages are on a queue's map, so *complete* also means
//! *every message committed*, as MQGMO_ALL_MSGS_AVAILABLE requires.
//!
//! Queue-wide, it keeps the keys the group options start from, so that no get walks through
//! group members it cannot take:
//!
//! | set | holds | used by |
//! |---|---|---|
//! | `ungrouped` | messages in no group (kept only while the queue holds a group member) | every group-aware get: the first candidate outside groups |
//! | `starts` | members at (1, 0): the first message of each group | MQGMO_LOGICAL_ORDER starting a group |
//! | `complete_starts` | (1, 0) member of each complete group | LOGICAL_ORDER with ALL_MSGS_AVAILABLE |
//! | `complete_heads` | first member, in delivery order, of each complete group | ALL_MSGS_AVAILABLE without LOGICAL_ORDER |
//!
//! Costs (n = queue depth, g = members of one group, s = segments of one logical message):
//! a member's arrival or departure is O(log n + log g + s) (the logical message it belongs to
//! is re-checked); finding the next message of a group by (GroupId, MsgSeqNumber, Offset) is a
//! hash lookup and an O(log g) range; starting a complete group is the first key of a set. None
//! depends on how many other messages the queue holds, whatever its INDXTYPE: the index exists
//! as soon as a queue holds a group member (INDXTYPE(GROUPID) is MQ's hint for it; here the
//! index is kept for every queue that needs it, and costs nothing on queues without groups).
//! [`GroupIndex::search_steps`] counts the candidates the searches look at, for tests.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Bound;

use ferrite_constants::message_flags::{
    MQMF_LAST_MSG_IN_GROUP, MQMF_LAST_SEGMENT, MQMF_MSG_IN_GROUP, MQMF_SEGMENT,
};

use ferrite_storage::data_manager::message::{Identifier, MessageDescriptor, NO_IDENTIFIER};

use super::queue::{MessageEntry, MessageKey, MessageSelector};

/// A message's place in its group (kept in its [`MessageEntry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupMember {
    /// GroupId (never MQGI_NONE).
    pub group_id: Identifier,
    /// MsgSeqNumber, from 1.
    pub sequence: u32,
    /// Offset of a segment's data in its logical message (0 for a message that is not a
    /// segment).
    pub offset: u32,
    /// MsgFlags (MQMF_*).
    pub flags: u32,
    /// Length of the message data (a segment's share of its logical message).
    pub length: u32,
}

impl GroupMember {
    /// The member a stored message is, or `None` for a message in no group.
    pub fn of(descriptor: &MessageDescriptor, data_length: usize) -> Option<GroupMember> {
        (descriptor.group_id != NO_IDENTIFIER).then(|| GroupMember {
            group_id: descriptor.group_id,
            sequence: descriptor.sequence_in_group,
            offset: descriptor.segment_offset,
            flags: descriptor.message_flags,
            length: u32::try_from(data_length).unwrap_or(u32::MAX),
        })
    }

    /// MQMF_SEGMENT or MQMF_LAST_SEGMENT.
    pub fn is_segment(&self) -> bool {
        self.flags & (MQMF_SEGMENT | MQMF_LAST_SEGMENT) as u32 != 0
    }

    /// The last segment of its logical message (or not a segment at all).
    pub fn is_last_segment(&self) -> bool {
        !self.is_segment() || self.flags & MQMF_LAST_SEGMENT as u32 != 0
    }

    /// The last logical message of its group (MQMF_LAST_MSG_IN_GROUP, or not flagged as in a
    /// group: a segmented message on its own is a group of one).
    pub fn is_last_in_group(&self) -> bool {
        self.flags & MQMF_LAST_MSG_IN_GROUP as u32 != 0
            || self.flags & MQMF_MSG_IN_GROUP as u32 == 0
    }
}

/// One group's members.
#[derive(Default)]
struct Group {
    /// Members in position order (MsgSeqNumber, Offset); the key breaks ties between
    /// duplicates an application put without MQPMO_LOGICAL_ORDER.
    positions: BTreeMap<(u32, u32, MessageKey), GroupMember>,
    /// Members in delivery order.
    delivery: BTreeSet<MessageKey>,
    /// MsgSeqNumbers of members flagged last in the group, with how many carry each.
    last_in_group: BTreeMap<u32, u32>,
    /// MsgSeqNumbers whose logical message is complete.
    complete_sequences: BTreeSet<u32>,
}

impl Group {
    /// Whether the logical message `sequence` is all here: segments contiguous from offset 0
    /// up to its last segment (a message that is not a segment is complete by itself).
    fn logical_message_complete(&self, sequence: u32) -> bool {
        let range = (sequence, 0, MessageKey::MIN)..=(sequence, u32::MAX, MessageKey::MAX);
        let mut expected = 0u64;
        for (&(_, offset, _), member) in self.positions.range(range) {
            let offset = offset as u64;
            if offset < expected {
                continue; // a duplicate of a segment already counted
            }
            if offset > expected || (!member.is_segment() && offset != 0) {
                return false;
            }
            if member.is_last_segment() {
                return true;
            }
            expected = offset + member.length as u64;
        }
        false
    }

    fn complete(&self) -> bool {
        let mut last = self.last_in_group.keys();
        let (Some(&last), None) = (last.next(), last.next()) else {
            return false;
        };
        let highest = self
            .positions
            .keys()
            .next_back()
            .map(|&(sequence, _, _)| sequence);
        highest == Some(last) && self.complete_sequences.len() as u64 == last as u64
    }

    fn head(&self) -> Option<MessageKey> {
        self.delivery.first().copied()
    }

    fn start(&self) -> Option<MessageKey> {
        self.positions
            .range((1, 0, MessageKey::MIN)..=(1, 0, MessageKey::MAX))
            .next()
            .map(|(&(_, _, key), _)| key)
    }
}

/// A queue's groups and the sets the group options search (see the module documentation).
#[derive(Default)]
pub struct GroupIndex {
    groups: HashMap<Identifier, Group>,
    /// Messages in no group, in delivery order; `None` while the queue holds no group member
    /// (then every message is in no group and the queue's own map serves).
    ungrouped: Option<BTreeSet<MessageKey>>,
    starts: BTreeSet<MessageKey>,
    complete_starts: BTreeSet<MessageKey>,
    complete_heads: BTreeSet<MessageKey>,
    /// Candidates looked at by group-aware searches since the queue was created.
    search_steps: Cell<u64>,
}

impl GroupIndex {
    /// A message arrives (before it enters the queue's map, whose keys are `existing`).
    pub fn insert<'a>(
        &mut self,
        key: MessageKey,
        member: Option<&GroupMember>,
        existing: impl FnOnce() -> Box<dyn Iterator<Item = MessageKey> + 'a>,
    ) {
        let Some(member) = member else {
            if let Some(ungrouped) = &mut self.ungrouped {
                ungrouped.insert(key);
            }
            return;
        };
        if self.ungrouped.is_none() {
            // The queue's first group member: from now on messages in no group are kept apart.
            self.ungrouped = Some(existing().collect());
        }
        self.change(member, |group| {
            group
                .positions
                .insert((member.sequence, member.offset, key), *member);
            group.delivery.insert(key);
            if member.is_last_in_group() {
                *group.last_in_group.entry(member.sequence).or_default() += 1;
            }
        });
        if member.sequence == 1 && member.offset == 0 {
            self.starts.insert(key);
        }
    }

    /// A message leaves the queue's map.
    pub fn remove(&mut self, key: MessageKey, member: Option<&GroupMember>) {
        let Some(member) = member else {
            if let Some(ungrouped) = &mut self.ungrouped {
                ungrouped.remove(&key);
            }
            return;
        };
        self.change(member, |group| {
            group
                .positions
                .remove(&(member.sequence, member.offset, key));
            group.delivery.remove(&key);
            if member.is_last_in_group() {
                if let Some(count) = group.last_in_group.get_mut(&member.sequence) {
                    *count -= 1;
                    if *count == 0 {
                        group.last_in_group.remove(&member.sequence);
                    }
                }
            }
        });
        self.starts.remove(&key);
        if self.groups.is_empty() {
            self.ungrouped = None;
            debug_assert!(self.starts.is_empty() && self.complete_heads.is_empty());
        }
    }

    /// Apply `change` to `member`'s group and bring its completeness and the queue-wide sets
    /// up to date.
    fn change(&mut self, member: &GroupMember, change: impl FnOnce(&mut Group)) {
        let group = self.groups.entry(member.group_id).or_default();
        let before = group.complete().then(|| (group.head(), group.start()));
        change(group);
        if group.logical_message_complete(member.sequence) {
            group.complete_sequences.insert(member.sequence);
        } else {
            group.complete_sequences.remove(&member.sequence);
        }
        let after = group.complete().then(|| (group.head(), group.start()));
        let empty = group.delivery.is_empty();
        if before != after {
            if let Some((head, start)) = before {
                head.map(|key| self.complete_heads.remove(&key));
                start.map(|key| self.complete_starts.remove(&key));
            }
            if let Some((head, start)) = after {
                head.map(|key| self.complete_heads.insert(key));
                start.map(|key| self.complete_starts.insert(key));
            }
        }
        if empty {
            self.groups.remove(&member.group_id);
        }
    }

    /// CLEAR QLOCAL: every message leaves.
    pub fn clear(&mut self) {
        *self = GroupIndex {
            search_steps: Cell::new(self.search_steps.get()),
            ..GroupIndex::default()
        };
    }

    /// Whether `group_id`'s group is complete (every message present and committed).
    pub fn group_complete(&self, group_id: &Identifier) -> bool {
        self.groups.get(group_id).is_some_and(Group::complete)
    }

    /// The conditions on a whole group or logical message a selector adds to matching
    /// `entry` (MQGMO_ALL_MSGS_AVAILABLE, MQGMO_ALL_SEGMENTS_AVAILABLE).
    pub fn eligible(&self, selector: &MessageSelector, entry: &MessageEntry) -> bool {
        if !selector.whole_groups && !selector.whole_messages {
            return true;
        }
        let Some(member) = &entry.group else {
            return true;
        };
        let Some(group) = self.groups.get(&member.group_id) else {
            return false;
        };
        if selector.whole_groups && !group.complete() {
            return false;
        }
        !selector.whole_messages
            || !member.is_segment()
            || group.complete_sequences.contains(&member.sequence)
    }

    /// Candidates looked at by group-aware searches so far (tests assert that the work of a
    /// group lookup does not grow with the queue's depth).
    pub fn search_steps(&self) -> u64 {
        self.search_steps.get()
    }

    /// Count `steps` candidates looked at.
    pub fn count_steps(&self, steps: u64) {
        self.search_steps.set(self.search_steps.get() + steps);
    }

    /// The first message after `after`, in delivery order, that `selector` selects and
    /// `visible` lets this getter see (MQGMO_LOCK), found through the group index; `None` when the index has no fast way to answer (the caller
    /// searches as for any selector, checking [`GroupIndex::eligible`]).
    pub fn first(
        &self,
        selector: &MessageSelector,
        after: Option<MessageKey>,
        messages: &super::queue::QueueMessages,
        visible: impl Fn(&MessageKey) -> bool,
    ) -> Option<Option<MessageKey>> {
        let steps = Cell::new(0u64);
        let accept = |key: &MessageKey| {
            steps.set(steps.get() + 1);
            after.is_none_or(|after| *key > after)
                && messages
                    .get(key)
                    .is_some_and(|entry| selector.matches(entry) && self.eligible(selector, entry))
                && visible(key)
        };
        let lower = match after {
            Some(key) => Bound::Excluded(key),
            None => Bound::Unbounded,
        };
        let found = if let Some(group_id) = selector.group_id {
            let Some(group) = self.groups.get(&group_id) else {
                return Some(None);
            };
            match selector.sequence_in_group {
                Some(sequence) => {
                    let (low, high) = match selector.segment_offset {
                        Some(offset) => (offset, offset),
                        None => (0, u32::MAX),
                    };
                    let range =
                        (sequence, low, MessageKey::MIN)..=(sequence, high, MessageKey::MAX);
                    group
                        .positions
                        .range(range)
                        .map(|(&(_, _, key), _)| key)
                        .filter(|key| accept(key))
                        .min()
                }
                None => group
                    .delivery
                    .range((lower, Bound::Unbounded))
                    .find(|key| accept(key))
                    .copied(),
            }
        } else {
            if selector.message_id.is_some() || selector.correlation_id.is_some() {
                return None; // the identifier indexes are narrower
            }
            let starts_only =
                selector.sequence_in_group == Some(1) && selector.segment_offset == Some(0);
            if !starts_only
                && (selector.sequence_in_group.is_some() || selector.segment_offset.is_some())
            {
                return None;
            }
            let ungrouped = self.ungrouped.as_ref()?;
            let candidates = match (starts_only, selector.whole_groups) {
                (true, true) => &self.complete_starts,
                (true, false) => &self.starts,
                // A complete group's members after a browse cursor need not follow its head.
                (false, true) if after.is_none() => &self.complete_heads,
                _ => return None,
            };
            let outside = ungrouped
                .range((lower, Bound::Unbounded))
                .find(|key| accept(key))
                .copied();
            let inside = candidates
                .range((lower, Bound::Unbounded))
                .find(|key| accept(key))
                .copied();
            match (outside, inside) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        };
        self.count_steps(steps.get());
        Some(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_storage::data_manager::message::{decode_descriptor, encode_image};

    fn member(sequence: u32, offset: u32, flags: i32, length: u32) -> GroupMember {
        GroupMember {
            group_id: [1; 24],
            sequence,
            offset,
            flags: flags as u32,
            length,
        }
    }

    #[test]
    fn completeness_follows_arrivals_and_departures() {
        let mut index = GroupIndex::default();
        let none = || Box::new(std::iter::empty()) as Box<dyn Iterator<Item = MessageKey>>;
        let key = |sequence| MessageKey::new(0, sequence);
        // Message 1 in two segments, message 2 last in the group.
        let parts = [
            (key(1), member(1, 0, MQMF_MSG_IN_GROUP | MQMF_SEGMENT, 10)),
            (
                key(2),
                member(2, 0, MQMF_MSG_IN_GROUP | MQMF_LAST_MSG_IN_GROUP, 5),
            ),
            (
                key(3),
                member(
                    1,
                    10,
                    MQMF_MSG_IN_GROUP | MQMF_SEGMENT | MQMF_LAST_SEGMENT,
                    3,
                ),
            ),
        ];
        for (step, (key, member)) in parts.iter().enumerate() {
            assert!(
                !index.group_complete(&[1; 24]),
                "incomplete before part {step}"
            );
            index.insert(*key, Some(member), none);
        }
        assert!(index.group_complete(&[1; 24]));
        assert_eq!(index.complete_heads.first(), Some(&key(1)));
        assert_eq!(index.complete_starts.first(), Some(&key(1)));
        // A duplicate of a segment changes nothing; a gap makes the message incomplete.
        index.insert(
            key(4),
            Some(&member(1, 10, MQMF_MSG_IN_GROUP | MQMF_SEGMENT, 3)),
            none,
        );
        assert!(index.group_complete(&[1; 24]));
        index.remove(key(1), Some(&parts[0].1));
        assert!(!index.group_complete(&[1; 24]));
        assert!(index.complete_heads.is_empty() && index.complete_starts.is_empty());
        for (key, member) in &parts[1..] {
            index.remove(*key, Some(member));
        }
        index.remove(
            key(4),
            Some(&member(1, 10, MQMF_MSG_IN_GROUP | MQMF_SEGMENT, 3)),
        );
        assert!(index.groups.is_empty() && index.ungrouped.is_none());
    }

    #[test]
    fn message_flags_and_offset_round_trip_in_the_image() {
        let descriptor = MessageDescriptor {
            group_id: [4; 24],
            sequence_in_group: 3,
            message_flags: (MQMF_SEGMENT | MQMF_MSG_IN_GROUP) as u32,
            segment_offset: 4096,
            ..MessageDescriptor::default()
        };
        let image = encode_image(&descriptor, b"data");
        let (decoded, offset) = decode_descriptor(&image).unwrap();
        assert_eq!(decoded, descriptor);
        assert_eq!(&image[offset..], b"data");
        let member = GroupMember::of(&decoded, 4).unwrap();
        assert!(member.is_segment() && !member.is_last_segment() && !member.is_last_in_group());
    }
}
