//! The group and segment parts of MQGET on a [`Connection`]: the selector the group options
//! make (logical order, MQMO_MATCH_GROUP_ID / MSG_SEQ_NUMBER / OFFSET, ALL_MSGS_AVAILABLE,
//! ALL_SEGMENTS_AVAILABLE), the handle's logical-order position after a message, and
//! MQGMO_COMPLETE_MSG's reassembly. The rules are in [`crate::groups`]; this module applies
//! them to a connection's handles and unit of work.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_constants::{
    get_options::*, ids::MQGI_NONE, match_options::*, message_flags::MQMF_LAST_SEGMENT, reason::*,
};
use ferrite_queue_manager::{
    now_ms, GetControls, GetOutcome, LocalQueue, MessageKey, MessageSelector, RetrievedMessage,
    UnitOfWork,
};

use super::get_buffer::GetBuffer;
use super::{failed, message_token, Connection, GetResult, Hobj};
use crate::descriptor;
use crate::error::{MqError, MqResult};
use crate::groups::{self, next_in_order};
use crate::structures::{Mqgmo, Mqmd};

/// What [`Connection::plan_group_get`] decided for one MQGET.
#[derive(Clone, Debug, Default)]
pub(super) struct GroupGet {
    /// MQGMO_LOGICAL_ORDER.
    pub logical: bool,
    /// Browsing (the browse position moves, not the get position).
    pub browsing: bool,
    /// The call is in a unit of work.
    pub in_unit: bool,
    /// The message sought starts a group (or is in none): nothing was in progress.
    pub starting: bool,
    /// Where a BROWSE_NEXT in logical order searches from instead of the cursor (`Some(None)`:
    /// anywhere, the next message of the group in progress).
    pub after: Option<Option<MessageKey>>,
    /// The warning MQ gives for abandoning logical order mid-group.
    pub warning: Option<MqError>,
    /// The message browsed (a group's first message is remembered as where it starts).
    pub key: Option<MessageKey>,
}

impl Connection {
    /// Add the group conditions of an MQGET to `selector` and say how the handle's positions
    /// move. Errors in MQ's terms: MQRC_MATCH_OPTIONS_ERROR (MsgSeqNumber or Offset matching
    /// with logical order), MQRC_MSG_SEQ_NUMBER_ERROR and MQRC_OFFSET_ERROR (values to match
    /// that no message can have), MQRC_INCONSISTENT_UOW (a group continued with another
    /// syncpoint option), MQRC_INCONSISTENT_BROWSE (BROWSE_NEXT switching logical order).
    pub(super) fn plan_group_get(
        &mut self,
        hobj: Hobj,
        gmo: &Mqgmo,
        md: &Mqmd,
        match_options: i32,
        selector: &mut MessageSelector,
        in_unit: bool,
    ) -> MqResult<GroupGet> {
        let options = gmo.options;
        let logical = options & MQGMO_LOGICAL_ORDER != 0;
        let browsing =
            options & (MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT | MQGMO_BROWSE_MSG_UNDER_CURSOR) != 0;
        if gmo.version >= ferrite_constants::structs::MQGMO_VERSION_2 {
            if logical && match_options & (MQMO_MATCH_MSG_SEQ_NUMBER | MQMO_MATCH_OFFSET) != 0 {
                return failed(MQRC_MATCH_OPTIONS_ERROR);
            }
            if match_options & MQMO_MATCH_GROUP_ID != 0 && md.group_id != MQGI_NONE {
                selector.group_id = Some(md.group_id);
            }
            if match_options & MQMO_MATCH_MSG_SEQ_NUMBER != 0 {
                if md.msg_seq_number < 1 {
                    return failed(MQRC_MSG_SEQ_NUMBER_ERROR);
                }
                selector.sequence_in_group = Some(md.msg_seq_number as u32);
            }
            if match_options & MQMO_MATCH_OFFSET != 0 {
                if md.offset < 0 {
                    return failed(MQRC_OFFSET_ERROR);
                }
                selector.segment_offset = Some(md.offset as u32);
            }
        }
        let whole_groups = options & MQGMO_ALL_MSGS_AVAILABLE != 0;
        let whole_messages = options & (MQGMO_ALL_SEGMENTS_AVAILABLE | MQGMO_COMPLETE_MSG) != 0;
        let handle = self.handles.get_mut(&hobj.0).expect("open");
        let state = &mut handle.groups;
        let mut plan = GroupGet {
            logical,
            browsing,
            in_unit,
            ..GroupGet::default()
        };
        if browsing
            && options & MQGMO_BROWSE_NEXT != 0
            && state
                .browse_logical
                .is_some_and(|previous| previous != logical)
        {
            return failed(MQRC_INCONSISTENT_BROWSE);
        }
        if browsing && options & MQGMO_BROWSE_FIRST != 0 {
            state.browse = groups::Position::default();
            state.browse_group_start = None;
        }
        if !logical {
            selector.whole_groups = whole_groups;
            selector.whole_messages = whole_messages;
            if options & MQGMO_COMPLETE_MSG != 0 {
                // A logical message is found by its first segment.
                selector.segment_offset.get_or_insert(0);
            }
            if !browsing {
                plan.warning = state.get.incomplete();
                state.get = groups::Position::default();
            }
            return Ok(plan);
        }
        let position = if browsing { &state.browse } else { &state.get };
        match next_in_order(position) {
            Some((group_id, sequence, offset)) => {
                if !browsing && position.syncpoint != in_unit {
                    return failed(MQRC_INCONSISTENT_UOW);
                }
                // The next message of the group in progress, wherever it is on the queue.
                *selector = MessageSelector {
                    group_id: Some(group_id),
                    sequence_in_group: Some(sequence),
                    segment_offset: Some(offset),
                    ..MessageSelector::default()
                };
                plan.after = Some(None);
            }
            None => {
                selector.sequence_in_group = Some(1);
                selector.segment_offset = Some(0);
                selector.whole_groups = whole_groups;
                selector.whole_messages = whole_messages;
                plan.starting = true;
                if browsing && options & MQGMO_BROWSE_NEXT != 0 {
                    if let Some(start) = state.browse_group_start {
                        plan.after = Some(Some(start));
                    }
                }
            }
        }
        Ok(plan)
    }

    /// After an MQGET that returned `result` into `md`: move the handle's logical-order
    /// position and add the group warning.
    pub(super) fn after_group_get(
        &mut self,
        hobj: Hobj,
        plan: &GroupGet,
        md: &Mqmd,
        result: MqResult<GetResult>,
    ) -> MqResult<GetResult> {
        let Ok(mut got) = result else {
            return result;
        };
        if let Some(handle) = self.handles.get_mut(&hobj.0) {
            let state = &mut handle.groups;
            if plan.browsing {
                state.browse_logical = Some(plan.logical);
                if plan.logical {
                    state.browse.advance(md, got.data_length, false);
                    if plan.starting {
                        state.browse_group_start = plan.key;
                    }
                }
            } else if plan.logical {
                state.get.advance(md, got.data_length, plan.in_unit);
            }
        }
        if got.warning.is_none() {
            got.warning = plan.warning;
        }
        Ok(got)
    }

    /// MQGMO_COMPLETE_MSG: the next logical message `selector` selects (its first segment,
    /// with every segment present), reassembled into `buffer`. Segments are browsed by
    /// position to size the message, then got by key in one unit of work (the connection's
    /// in syncpoint, otherwise one of this call's own). A message that is not segmented is
    /// returned as it is. Segments whose CodedCharSetId or Encoding differ from the first's
    /// end the reassembly with MQRC_INCONSISTENT_CCSIDS / MQRC_INCONSISTENT_ENCODINGS
    /// (warnings; the rest stays on the queue), as MQ does. With or without
    /// MQGMO_LOGICAL_ORDER: without it the logical messages come in the physical order of
    /// their first segments, whatever order the other segments arrived in. The reassembled
    /// message then goes through the queue's PROPCTL and the getter's MsgHandle like any
    /// message MQGET returns (DataLength is the length delivered).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn get_complete_message(
        &mut self,
        hobj: Hobj,
        queue: &Arc<LocalQueue>,
        selector: &MessageSelector,
        after: Option<MessageKey>,
        wait: Option<Duration>,
        in_unit: bool,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut GetBuffer<'_>,
    ) -> MqResult<GetResult> {
        let options = gmo.options;
        let browsing = options & (MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT) != 0;
        let accept_truncated = options & MQGMO_ACCEPT_TRUNCATED_MSG != 0;
        let deadline = wait.map(|wait| Instant::now() + wait);
        let holder = self.handles.get(&hobj.0).expect("open").lock_holder;
        let browse = crate::locking::Browse {
            holder,
            wait: None,
            fail_if_quiescing: options & MQGMO_FAIL_IF_QUIESCING != 0,
            lock: false,
        };
        loop {
            let now = now_ms();
            let Some(first) = self.browse_unexpired(queue, selector, after, now, &browse)? else {
                let remaining = deadline
                    .map(|deadline| deadline.saturating_duration_since(Instant::now()))
                    .unwrap_or_default();
                if remaining.is_zero() {
                    return failed(MQRC_NO_MSG_AVAILABLE);
                }
                let queue_manager = self.queue_manager.clone();
                let fail_if_quiescing = options & MQGMO_FAIL_IF_QUIESCING != 0;
                queue.wait_for(selector, remaining, holder, || {
                    queue_manager.is_stopping()
                        || queue.is_deleted()
                        || (fail_if_quiescing && queue_manager.is_quiescing())
                });
                self.check_quiescing(fail_if_quiescing)?;
                if queue.is_deleted() {
                    return failed(MQRC_Q_DELETED);
                }
                continue;
            };
            let first_md = Self::message_descriptor(&first, now)?;
            let (parts, warning) = self.segments_of(queue, first, &first_md, now, &browse)?;
            let Some(parts) = parts else {
                continue; // a segment went meanwhile: look again
            };
            let whole_length: usize = parts.iter().map(|part| part.data.len()).sum();
            let key = parts[0].key;
            if browsing {
                self.handles.get_mut(&hobj.0).expect("open").cursor = Some(key);
            }
            // The reassembled message goes through the queue's PROPCTL like any other: its
            // MQRFH2 (at the start of the first segment) is left in the data, moved into the
            // getter's message handle, or dropped ("Message properties and message handles"
            // in ARCHITECTURE.md; MQ applies PROPCTL to the message the MQGET returns).
            let mut whole = Vec::with_capacity(whole_length);
            for part in &parts {
                whole.extend_from_slice(&part.data);
            }
            let mut delivered_md = Self::reassembled(&first_md, &parts, whole_length);
            let hmsg = gmo
                .msg_handle
                .filter(|hmsg| hmsg.0 != crate::message_handles::MQHM_NONE);
            let (data, properties) = crate::message_handles::deliver_properties(
                options,
                hmsg.is_some(),
                || {
                    queue.with_definition(|definition| {
                        crate::message_handles::property_control(&definition.property_control)
                    })
                },
                &mut delivered_md,
                &whole,
            );
            let total = data.len();
            if total > buffer.length() && !accept_truncated {
                *md = delivered_md;
                groups::status_fields(gmo, md.msg_flags);
                crate::connection::set_text(&mut gmo.resolved_q_name, queue.name_str());
                // The token names the first segment: a retry with a bigger buffer matching it
                // (as IBM's Java client does) finds the same logical message.
                gmo.msg_token = message_token(key);
                gmo.returned_length = 0;
                return Err(MqError {
                    data_length: Some(total),
                    ..MqError::failed(MQRC_TRUNCATED_MSG_FAILED)
                });
            }
            if !browsing && !self.take_segments(queue, &parts, in_unit, options, holder)? {
                continue; // another getter took the first segment first
            }
            if let (Some(hmsg), Some(properties)) = (hmsg, properties) {
                self.message_handles.replace_properties(hmsg, properties)?;
            }
            *md = delivered_md;
            groups::status_fields(gmo, md.msg_flags);
            crate::connection::set_text(&mut gmo.resolved_q_name, queue.name_str());
            gmo.msg_token = message_token(key);
            let returned_length = total.min(buffer.length());
            buffer.put(&data[..returned_length]);
            gmo.returned_length = returned_length as i32;
            return Ok(GetResult {
                data_length: total,
                returned_length,
                warning: (returned_length < total)
                    .then_some(MqError::warning(MQRC_TRUNCATED_MSG_ACCEPTED))
                    .or(warning),
            });
        }
    }

    fn message_descriptor(message: &RetrievedMessage, now: u64) -> MqResult<Mqmd> {
        descriptor::from_engine(
            &message.descriptor,
            message.backout_count,
            now,
            ferrite_constants::structs::MQMD_VERSION_2,
        )
        .map_err(|_| MqError::failed(MQRC_UNEXPECTED_ERROR))
    }

    /// The segments of `first`'s logical message from `first` on, browsed by position, or
    /// `None` when one is missing. A message that is not a segment is its own only part.
    #[allow(clippy::type_complexity)]
    fn segments_of(
        &self,
        queue: &Arc<LocalQueue>,
        first: RetrievedMessage,
        first_md: &Mqmd,
        now: u64,
        browse: &crate::locking::Browse,
    ) -> MqResult<(Option<Vec<RetrievedMessage>>, Option<MqError>)> {
        let segment = |md: &Mqmd| {
            md.msg_flags & (ferrite_constants::message_flags::MQMF_SEGMENT | MQMF_LAST_SEGMENT) != 0
        };
        let mut last_md = first_md.clone();
        let mut next_offset = first_md.offset as i64 + first.data.len() as i64;
        let mut parts = vec![first];
        /// A logical message has at most this many segments (a 100 MB message in 1-byte
        /// segments would be more; no application does that).
        const SEGMENTS_MAX: usize = 1_000_000;
        while segment(&last_md) && last_md.msg_flags & MQMF_LAST_SEGMENT == 0 {
            if parts.len() >= SEGMENTS_MAX {
                return failed(MQRC_INCOMPLETE_MSG);
            }
            let next_selector = MessageSelector {
                group_id: Some(first_md.group_id),
                sequence_in_group: Some(first_md.msg_seq_number as u32),
                segment_offset: Some(next_offset.clamp(0, u32::MAX as i64) as u32),
                ..MessageSelector::default()
            };
            let Some(next) = self.browse_unexpired(queue, &next_selector, None, now, browse)?
            else {
                return Ok((None, None));
            };
            let next_md = Self::message_descriptor(&next, now)?;
            if next_md.coded_char_set_id != first_md.coded_char_set_id {
                return Ok((
                    Some(parts),
                    Some(MqError::warning(MQRC_INCONSISTENT_CCSIDS)),
                ));
            }
            if next_md.encoding != first_md.encoding {
                return Ok((
                    Some(parts),
                    Some(MqError::warning(MQRC_INCONSISTENT_ENCODINGS)),
                ));
            }
            next_offset = next_md.offset as i64 + next.data.len() as i64;
            parts.push(next);
            last_md = next_md;
        }
        Ok((Some(parts), None))
    }

    /// The descriptor of reassembled `parts`: the first segment's, as the only segment when
    /// the whole logical message is there.
    fn reassembled(first_md: &Mqmd, parts: &[RetrievedMessage], total: usize) -> Mqmd {
        if parts.len() == 1 && first_md.msg_flags & MQMF_LAST_SEGMENT == 0 {
            return first_md.clone(); // not a segment, or a part cut short by a warning
        }
        groups::reassembled_descriptor(first_md, total)
    }

    /// Get `parts` by key, all in one unit of work. False (nothing got) when the first was
    /// taken by another getter meanwhile; MQRC_INCOMPLETE_MSG when a later one was (only a
    /// getter without MQGMO_COMPLETE_MSG or ALL_SEGMENTS_AVAILABLE can do that).
    fn take_segments(
        &mut self,
        queue: &Arc<LocalQueue>,
        parts: &[RetrievedMessage],
        in_unit: bool,
        options: i32,
        lock_holder: u64,
    ) -> MqResult<bool> {
        let controls = GetControls {
            fail_if_quiescing: options & MQGMO_FAIL_IF_QUIESCING != 0,
            lock_holder,
            ..GetControls::default()
        };
        let mut own = UnitOfWork::new();
        for (index, part) in parts.iter().enumerate() {
            let keyed = MessageSelector {
                key: Some(part.key),
                ..MessageSelector::default()
            };
            let unit = if in_unit { &mut self.unit } else { &mut own };
            let outcome = self
                .queue_manager
                .get_with(Some(unit), queue, &keyed, None, &controls);
            match outcome {
                Ok(GetOutcome::Got { .. }) => {}
                other => {
                    if !in_unit {
                        self.queue_manager.backout(&mut own)?;
                    }
                    other?;
                    if index == 0 || !in_unit {
                        return Ok(false);
                    }
                    return failed(MQRC_INCOMPLETE_MSG);
                }
            }
        }
        if !in_unit {
            self.queue_manager.commit(&mut own)?;
        }
        Ok(true)
    }
}
