//! Message groups and segmentation in the MQI: what MQPUT and MQGET do with MQMD's GroupId,
//! MsgSeqNumber, Offset, MsgFlags and OriginalLength, MQPMO_LOGICAL_ORDER, MQGMO_LOGICAL_ORDER,
//! MQGMO_ALL_MSGS_AVAILABLE, MQGMO_ALL_SEGMENTS_AVAILABLE and MQGMO_COMPLETE_MSG, with MQ's
//! reason codes (IBM MQ's "Message groups", "Segmentation of messages" and the MQPMO, MQGMO
//! and MQMD field descriptions).
//!
//! ## Design
//! - A *group* is the messages sharing a GroupId, numbered by MsgSeqNumber from 1, the last
//!   flagged MQMF_LAST_MSG_IN_GROUP. A *logical message* may be split into *segments*
//!   (MQMF_SEGMENT, the last MQMF_LAST_SEGMENT) at increasing Offsets; a segmented message in
//!   no group still has a GroupId that ties its segments together (a group of one).
//! - The storage engine keeps GroupId, MsgSeqNumber, MsgFlags and Offset in every message
//!   image, so the queue's group index (`ferrite_queue_manager::queue_manager::groups`) is rebuilt by
//!   restart like the MsgId and CorrelId indexes. The index answers "the message at (GroupId,
//!   MsgSeqNumber, Offset)", "the first message of a complete group" and "is this group
//!   complete" without looking at other messages, whatever the depth.
//! - *Logical order* is a position per object handle ([`Position`]): for MQPUT, the group
//!   and logical message being put (the queue manager assigns GroupId, MsgSeqNumber and
//!   Offset); for MQGET and for browsing, separately, the group and logical message being
//!   read, from which the next get's selector is made. It lives only in the handle, so it does
//!   not survive MQCLOSE or a restart (as in MQ); the messages do.
//! - *Whole groups*: MQGMO_ALL_MSGS_AVAILABLE starts a group only when the index says it is
//!   complete. Only committed messages are on a queue's map and a get takes its message off
//!   the map at once, so the first getter to take a message of a complete group makes it
//!   incomplete for every other getter with the option: two such getters never split a group.
//!   A getter continuing its group in logical order matches by GroupId and MsgSeqNumber.
//! - *Waiting*: a waiting get parks with its selector; a member's arrival wakes the getters
//!   its group's completion may satisfy, so no getter polls.
//! - *Segmentation by the queue manager*: a message longer than the queue's MAXMSGL with
//!   MQMF_SEGMENTATION_ALLOWED is put as segments of at most MAXMSGL bytes, all in one unit of
//!   work (the application's, or one of the call's own that is committed before MQPUT
//!   returns), so no half-segmented message is ever visible.
//! - *Reassembly* (MQGMO_COMPLETE_MSG): the first segment is found with the whole-message
//!   condition, the others are browsed by position to size the message (MQRC_TRUNCATED_MSG_
//!   FAILED leaves them all on the queue), then each is got by its key in one unit of work.
//!   It needs no MQGMO_LOGICAL_ORDER: without it the first segment (offset 0) of the next
//!   complete logical message in physical order is found through the same whole-message
//!   condition, wherever its other segments are. The reassembled message then goes through
//!   the queue's PROPCTL (its MQRFH2 is at the start of the first segment), as MQ applies
//!   PROPCTL to whatever MQGET returns.
//! - *MQGMO_ALL_SEGMENTS_AVAILABLE without logical order*: each MQGET returns one segment, in
//!   physical order, of a logical message whose segments are all on the queue. After one of
//!   them is taken the rest are no longer a complete logical message, so they are passed
//!   over too; MQ ignores the option only for the segments after the first in logical order,
//!   which is what MQGMO_LOGICAL_ORDER is for.

use ferrite_constants::{
    get_options::{
        MQGS_LAST_MSG_IN_GROUP, MQGS_MSG_IN_GROUP, MQGS_NOT_IN_GROUP, MQSEG_ALLOWED,
        MQSEG_INHIBITED, MQSS_LAST_SEGMENT, MQSS_NOT_A_SEGMENT, MQSS_SEGMENT,
    },
    ids::MQGI_NONE,
    message_flags::{
        MQMF_LAST_MSG_IN_GROUP, MQMF_LAST_SEGMENT, MQMF_MSG_IN_GROUP, MQMF_REJECT_UNSUP_MASK,
        MQMF_SEGMENT, MQMF_SEGMENTATION_ALLOWED,
    },
    misc::MQOL_UNDEFINED,
    reason::*,
};
use ferrite_storage::data_manager::message::Identifier;

use crate::error::{MqError, MqResult};
use crate::structures::{Mqgmo, Mqmd};

/// Every MsgFlags bit this queue manager knows; others within MQMF_REJECT_UNSUP_MASK are
/// refused (MQRC_MSG_FLAGS_ERROR), others outside it are kept and ignored, as MQ does.
pub const KNOWN_MESSAGE_FLAGS: i32 = MQMF_SEGMENTATION_ALLOWED
    | MQMF_SEGMENT
    | MQMF_LAST_SEGMENT
    | MQMF_MSG_IN_GROUP
    | MQMF_LAST_MSG_IN_GROUP;

/// The greatest Offset MQ allows (999 999 999).
pub const OFFSET_MAX: i64 = 999_999_999;

/// The group facts of a descriptor.
fn in_group(flags: i32) -> bool {
    flags & (MQMF_MSG_IN_GROUP | MQMF_LAST_MSG_IN_GROUP) != 0
}

fn is_segment(flags: i32) -> bool {
    flags & (MQMF_SEGMENT | MQMF_LAST_SEGMENT) != 0
}

/// Where a handle is in a group and logical message, for one direction (put, get or browse).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// The group (or segmented message) in progress.
    pub group_id: Identifier,
    /// MsgSeqNumber of the logical message last put or got.
    pub sequence: u32,
    /// Offset where the next segment of that logical message starts.
    pub next_offset: u32,
    /// A group is in progress: its last message has not been put or got yet.
    pub group_open: bool,
    /// A logical message is in progress: its last segment has not been put or got yet.
    pub message_open: bool,
    /// The messages of the group so far were in a unit of work.
    pub syncpoint: bool,
    /// The messages of the group so far were persistent.
    pub persistent: bool,
    /// MsgFlags of the logical message in progress (its segments must all agree on being in
    /// the group and on being its last message).
    pub message_flags: i32,
}

impl Position {
    /// Nothing in progress.
    pub fn is_idle(&self) -> bool {
        !self.group_open && !self.message_open
    }

    /// The warning MQ gives when logical order is abandoned with something in progress
    /// (MQRC_INCOMPLETE_MSG takes precedence over MQRC_INCOMPLETE_GROUP).
    pub fn incomplete(&self) -> Option<MqError> {
        if self.message_open {
            Some(MqError::warning(MQRC_INCOMPLETE_MSG))
        } else if self.group_open {
            Some(MqError::warning(MQRC_INCOMPLETE_GROUP))
        } else {
            None
        }
    }

    /// Move past a message (put or got in logical order) described by `md` whose data is
    /// `length` bytes long, in a unit of work or not.
    pub fn advance(&mut self, md: &Mqmd, length: usize, syncpoint: bool) {
        let flags = md.msg_flags;
        self.group_id = md.group_id;
        self.sequence = md.msg_seq_number.max(1) as u32;
        self.message_open = is_segment(flags) && flags & MQMF_LAST_SEGMENT == 0;
        self.next_offset = if self.message_open {
            (md.offset.max(0) as u64 + length as u64).min(u32::MAX as u64) as u32
        } else {
            0
        };
        // Open until the last segment of the message flagged last in the group.
        self.group_open =
            in_group(flags) && (flags & MQMF_LAST_MSG_IN_GROUP == 0 || self.message_open);
        self.syncpoint = syncpoint;
        self.persistent = md.persistence == ferrite_constants::persistence::MQPER_PERSISTENT;
        self.message_flags = flags;
        if self.is_idle() {
            *self = Position::default();
        }
    }
}

/// The group and segment state of one object handle.
#[derive(Clone, Debug, Default)]
pub struct HandleGroups {
    /// MQPUT with MQPMO_LOGICAL_ORDER.
    pub put: Position,
    /// MQGET (destructive) with MQGMO_LOGICAL_ORDER.
    pub get: Position,
    /// Browsing with MQGMO_LOGICAL_ORDER.
    pub browse: Position,
    /// Whether the last browse used MQGMO_LOGICAL_ORDER (MQRC_INCONSISTENT_BROWSE when a
    /// BROWSE_NEXT changes it).
    pub browse_logical: Option<bool>,
    /// The first message of the group a logical-order browse is in (the next group starts
    /// after it in delivery order).
    pub browse_group_start: Option<ferrite_queue_manager::MessageKey>,
    /// The last logical-order browse returned a message that began a group.
    pub browse_started: bool,
}

impl HandleGroups {
    /// MQCLOSE of the handle: MQRC_INCOMPLETE_MSG or MQRC_INCOMPLETE_GROUP (warnings) when
    /// a logical-order put left a group or logical message unfinished.
    pub fn close_warning(&self) -> Option<MqError> {
        self.put.incomplete()
    }
}

/// Check an MQMD's group and segment fields for MQPUT (MQ's order of checks), normalising
/// the implied flags (LAST_MSG_IN_GROUP implies MSG_IN_GROUP, LAST_SEGMENT implies SEGMENT).
/// `data_length` is the message data's length.
pub fn check_put_fields(md: &mut Mqmd, logical_order: bool, data_length: usize) -> MqResult<()> {
    if md.version < 2 {
        // Version 1 has none of these fields: the message is in no group.
        md.group_id = MQGI_NONE;
        md.msg_seq_number = 1;
        md.offset = 0;
        md.msg_flags = 0;
        md.original_length = MQOL_UNDEFINED;
        return Ok(());
    }
    if md.msg_flags & MQMF_REJECT_UNSUP_MASK & !KNOWN_MESSAGE_FLAGS != 0 {
        return Err(MqError::failed(MQRC_MSG_FLAGS_ERROR));
    }
    if md.msg_flags & MQMF_LAST_MSG_IN_GROUP != 0 {
        md.msg_flags |= MQMF_MSG_IN_GROUP;
    }
    if md.msg_flags & MQMF_LAST_SEGMENT != 0 {
        md.msg_flags |= MQMF_SEGMENT;
    }
    if logical_order {
        return Ok(()); // the queue manager sets GroupId, MsgSeqNumber and Offset
    }
    if md.msg_seq_number < 1 {
        return Err(MqError::failed(MQRC_MSG_SEQ_NUMBER_ERROR));
    }
    if md.offset < 0
        || md.offset as i64 > OFFSET_MAX
        || (md.offset != 0 && !is_segment(md.msg_flags))
    {
        return Err(MqError::failed(MQRC_OFFSET_ERROR));
    }
    if is_segment(md.msg_flags) && md.msg_flags & MQMF_LAST_SEGMENT == 0 && data_length == 0 {
        return Err(MqError::failed(MQRC_SEGMENT_LENGTH_ZERO));
    }
    Ok(())
}

/// MQPUT: assign the group fields of `md` (already checked by [`check_put_fields`]) from the
/// handle's put position. With MQPMO_LOGICAL_ORDER, GroupId, MsgSeqNumber and Offset are the
/// queue manager's: a new GroupId (`new_group_id`) for a group's first message, the next
/// number, the next offset. Without it, the application's values stand; a group or segment
/// with GroupId MQGI_NONE is given a new one. Returns the warning MQ gives when logical order
/// is abandoned mid-group.
pub fn assign_put_fields(
    position: &mut Position,
    md: &mut Mqmd,
    logical_order: bool,
    syncpoint: bool,
    persistent: bool,
    data_length: usize,
    new_group_id: impl FnOnce() -> Identifier,
) -> MqResult<Option<MqError>> {
    let flags = md.msg_flags;
    let grouped = in_group(flags) || is_segment(flags);
    if !logical_order {
        let warning = position.incomplete();
        *position = Position::default();
        if grouped && md.group_id == MQGI_NONE {
            md.group_id = new_group_id();
        }
        return Ok(warning);
    }
    if position.message_open {
        // The next segment: same group setting as the segments before it.
        let group_flags = MQMF_MSG_IN_GROUP | MQMF_LAST_MSG_IN_GROUP;
        if !is_segment(flags) || flags & group_flags != position.message_flags & group_flags {
            return Err(MqError::failed(MQRC_INCOMPLETE_MSG));
        }
    } else if position.group_open && !in_group(flags) {
        return Err(MqError::failed(MQRC_INCOMPLETE_GROUP));
    }
    if !position.is_idle() {
        if position.syncpoint != syncpoint {
            return Err(MqError::failed(MQRC_INCONSISTENT_UOW));
        }
        if position.persistent != persistent {
            return Err(MqError::failed(MQRC_INCONSISTENT_PERSISTENCE));
        }
    }
    if position.message_open {
        md.group_id = position.group_id;
        md.msg_seq_number = position.sequence as i32;
        md.offset = position.next_offset as i32;
    } else if position.group_open {
        md.group_id = position.group_id;
        md.msg_seq_number = position.sequence as i32 + 1;
        md.offset = 0;
    } else {
        md.group_id = if grouped { new_group_id() } else { MQGI_NONE };
        md.msg_seq_number = 1;
        md.offset = 0;
    }
    if is_segment(flags) && flags & MQMF_LAST_SEGMENT == 0 && data_length == 0 {
        return Err(MqError::failed(MQRC_SEGMENT_LENGTH_ZERO));
    }
    Ok(None)
}

/// How a message longer than MAXMSGL is split: `(offset within the data, length)` of each
/// segment, each at most `max_segment` bytes.
pub fn segment_plan(data_length: usize, max_segment: usize) -> Vec<(usize, usize)> {
    assert!(
        max_segment > 0,
        "a queue's MAXMSGL is at least 1 when segmenting"
    );
    (0..data_length)
        .step_by(max_segment)
        .map(|start| (start, max_segment.min(data_length - start)))
        .collect()
}

/// The MQMD of segment `index` of `count` of a message the queue manager segments: `md` is
/// the message as put (perhaps itself a segment, or in a group), `start` the segment's
/// offset within its data.
pub fn segment_descriptor(md: &Mqmd, index: usize, count: usize, start: usize) -> Mqmd {
    let mut segment = md.clone();
    let last = index + 1 == count;
    let was_last_segment = !is_segment(md.msg_flags) || md.msg_flags & MQMF_LAST_SEGMENT != 0;
    segment.msg_flags = (md.msg_flags & !MQMF_LAST_SEGMENT) | MQMF_SEGMENT;
    if last && was_last_segment {
        segment.msg_flags |= MQMF_LAST_SEGMENT;
    }
    segment.offset = md.offset + start as i32;
    segment
}

/// MQGMO's GroupStatus, SegmentStatus and Segmentation for a message's MsgFlags.
pub fn status_fields(gmo: &mut Mqgmo, msg_flags: i32) {
    gmo.group_status = if msg_flags & MQMF_LAST_MSG_IN_GROUP != 0 {
        MQGS_LAST_MSG_IN_GROUP
    } else if msg_flags & MQMF_MSG_IN_GROUP != 0 {
        MQGS_MSG_IN_GROUP
    } else {
        MQGS_NOT_IN_GROUP
    };
    gmo.segment_status = if msg_flags & MQMF_LAST_SEGMENT != 0 {
        MQSS_LAST_SEGMENT
    } else if msg_flags & MQMF_SEGMENT != 0 {
        MQSS_SEGMENT
    } else {
        MQSS_NOT_A_SEGMENT
    };
    gmo.segmentation = if msg_flags & MQMF_SEGMENTATION_ALLOWED != 0 {
        MQSEG_ALLOWED
    } else {
        MQSEG_INHIBITED
    };
}

/// What an MQGET in logical order looks for next, from the handle's position: `None` to start
/// a group (or take a message in no group), or the (GroupId, MsgSeqNumber, Offset) of the
/// next message of the group in progress.
pub fn next_in_order(position: &Position) -> Option<(Identifier, u32, u32)> {
    if position.message_open {
        Some((position.group_id, position.sequence, position.next_offset))
    } else if position.group_open {
        Some((position.group_id, position.sequence + 1, 0))
    } else {
        None
    }
}

/// The MQMD of a reassembled logical message: the first segment's, with MsgFlags saying it is
/// the only segment, as MQ returns it.
pub fn reassembled_descriptor(first: &Mqmd, total_length: usize) -> Mqmd {
    let mut md = first.clone();
    md.msg_flags =
        (first.msg_flags & !(MQMF_SEGMENT | MQMF_LAST_SEGMENT)) | MQMF_SEGMENT | MQMF_LAST_SEGMENT;
    md.offset = 0;
    md.original_length = total_length.min(i32::MAX as usize) as i32;
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_plan_covers_the_data_in_maxmsgl_pieces() {
        assert_eq!(segment_plan(10, 4), vec![(0, 4), (4, 4), (8, 2)]);
        assert_eq!(segment_plan(8, 4), vec![(0, 4), (4, 4)]);
    }

    #[test]
    fn position_follows_groups_and_segments() {
        let mut position = Position::default();
        let md = Mqmd {
            group_id: [1; 24],
            msg_flags: MQMF_MSG_IN_GROUP | MQMF_SEGMENT,
            ..Mqmd::default()
        };
        position.advance(&md, 100, true);
        assert_eq!(next_in_order(&position), Some(([1; 24], 1, 100)));
        let md = Mqmd {
            offset: 100,
            msg_flags: MQMF_MSG_IN_GROUP | MQMF_SEGMENT | MQMF_LAST_SEGMENT,
            ..md
        };
        position.advance(&md, 5, true);
        assert_eq!(next_in_order(&position), Some(([1; 24], 2, 0)));
        let md = Mqmd {
            msg_seq_number: 2,
            offset: 0,
            msg_flags: MQMF_MSG_IN_GROUP | MQMF_LAST_MSG_IN_GROUP,
            ..md
        };
        position.advance(&md, 5, true);
        assert!(position.is_idle());
        assert_eq!(next_in_order(&position), None);
    }
}
