//! MQGET: the get options, which messages match, browsing, destructive gets and delivering
//! the message into the caller's MQMD, MQGMO and buffer.

use std::sync::Arc;
use std::time::Duration;

use ferrite_constants::{
    get_options::*,
    ids::{MQCI_NONE, MQMI_NONE},
    match_options::*,
    open_options::*,
    reason::*,
    structs::MQGMO_VERSION_2,
    wait::MQWI_UNLIMITED,
};
use ferrite_queue_manager::{
    now_ms, GetControls, GetOutcome, LocalQueue, MessageKey, MessageSelector, RetrievedMessage,
};

use super::get_buffer::GetBuffer;
use super::group_get::GroupGet;
use super::verb_accounting::Verb;
use super::{
    failed, key_of_message_token, message_token, set_text, Connection, Hobj, ObjectHandle, Target,
};

use crate::descriptor;
use crate::error::{MqError, MqResult};
use crate::groups;
use crate::queue_manager_put;
use crate::selection::Selection;
use crate::structures::{Mqgmo, Mqmd};
use ferrite_mqi_types::GetResult;

/// Every MQGMO_* bit MQGET knows.
const KNOWN_GET_OPTIONS: i32 = MQGMO_WAIT
    | MQGMO_MARK_SKIP_BACKOUT
    | MQGMO_LOCK
    | MQGMO_UNLOCK
    | MQGMO_SYNCPOINT
    | MQGMO_NO_SYNCPOINT
    | MQGMO_BROWSE_FIRST
    | MQGMO_BROWSE_NEXT
    | MQGMO_ACCEPT_TRUNCATED_MSG
    | MQGMO_MSG_UNDER_CURSOR
    | MQGMO_BROWSE_MSG_UNDER_CURSOR
    | MQGMO_SYNCPOINT_IF_PERSISTENT
    | MQGMO_FAIL_IF_QUIESCING
    | MQGMO_CONVERT
    // Where properties go: message_handles.rs with the queue's PROPCTL.
    | MQGMO_NO_PROPERTIES
    | MQGMO_PROPERTIES_FORCE_MQRFH2
    | MQGMO_PROPERTIES_COMPATIBILITY
    | MQGMO_PROPERTIES_IN_HANDLE
    // Groups and segments (groups.rs).
    | MQGMO_LOGICAL_ORDER
    | MQGMO_COMPLETE_MSG
    | MQGMO_ALL_MSGS_AVAILABLE
    | MQGMO_ALL_SEGMENTS_AVAILABLE
    | UNSUPPORTED_GET_OPTIONS;

/// MQGMO options recognised but not implemented yet (MQRC_FUNCTION_NOT_SUPPORTED).
const UNSUPPORTED_GET_OPTIONS: i32 = MQGMO_SET_SIGNAL
    | MQGMO_MARK_BROWSE_HANDLE
    | MQGMO_MARK_BROWSE_CO_OP
    | MQGMO_UNMARK_BROWSE_CO_OP
    | MQGMO_UNMARK_BROWSE_HANDLE
    | MQGMO_UNMARKED_BROWSE_MSG;

/// The time MQGET's Expiry (the lifetime left) is computed at: the clock, read only for a
/// message that can expire (the descriptor's other fields do not need it).
fn expiry_now(message: &RetrievedMessage) -> u64 {
    if message.descriptor.expiry_tenths.is_some() {
        now_ms()
    } else {
        0
    }
}

impl Connection {
    /// MQGET: get or browse a message into `buffer`.
    ///
    /// Matching: with MQGMO version 1, on the MQMD's MsgId and CorrelId when they are not none;
    /// from version 2, on those MatchOptions names (MQMO_MATCH_MSG_ID, MQMO_MATCH_CORREL_ID).
    /// MQMO_MATCH_GROUP_ID / MSG_SEQ_NUMBER / OFFSET / MSG_TOKEN with a value to match are not
    /// supported yet (MQRC_FUNCTION_NOT_SUPPORTED).
    ///
    /// A message longer than the buffer: with MQGMO_ACCEPT_TRUNCATED_MSG it is got and the
    /// result carries the MQRC_TRUNCATED_MSG_ACCEPTED warning; without, the call fails with
    /// MQRC_TRUNCATED_MSG_FAILED, the message stays on the queue and the MQMD and DataLength
    /// (in the error) describe it. A browse that fails so still moves the browse cursor to the
    /// message, so MQGMO_BROWSE_MSG_UNDER_CURSOR can fetch it with a bigger buffer.
    pub fn get(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut [u8],
    ) -> MqResult<GetResult> {
        self.get_into(hobj, md, gmo, &mut GetBuffer::Slice(buffer))
    }

    /// MQGET with a buffer of `buffer_length` bytes at the end of `data`: exactly
    /// [`get`](Self::get) with a buffer of that length (truncation, MQGMO_ACCEPT_TRUNCATED_MSG,
    /// DataLength, conversion, browsing, properties, groups and segments), except that the
    /// data returned is appended to `data`, which grows only by the bytes returned
    /// (ReturnedLength). `data` is as it was when the call returns no data (an error).
    pub fn get_appending(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        data: &mut Vec<u8>,
        buffer_length: usize,
    ) -> MqResult<GetResult> {
        self.get_into(
            hobj,
            md,
            gmo,
            &mut GetBuffer::appending(data, buffer_length),
        )
    }

    /// MQGET into `buffer`, however the caller holds it.
    fn get_into(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut GetBuffer<'_>,
    ) -> MqResult<GetResult> {
        let requested = crate::data_conversion::Requested::from_md(md);
        let kind = super::statistics::GetKind::of(md, gmo, gmo.options & BROWSE_OPTIONS != 0);
        // A bad MsgHandle fails the call before any message is taken.
        if let Some(hmsg) = gmo
            .msg_handle
            .filter(|hmsg| hmsg.0 != crate::message_handles::MQHM_NONE)
        {
            self.message_handles.properties(hmsg)?;
        }
        let verb_timing = self.verb_timing();
        let timing = self.accounting_timing();
        let result = self.with_lent_queue(hobj, |connection, lent| {
            connection.get_from_handle(hobj, lent, md, gmo, buffer)
        });
        self.count_get(kind, md, &result);
        self.verb_timed(Verb::Get, verb_timing);
        self.count_queue_get(hobj, kind, md, &result);
        if let Some(timing) = timing {
            self.account_get(hobj, timing, kind, md, &result);
        }
        self.inhibited_event(hobj, &result, MQRC_GET_INHIBITED);
        self.note_unit_of_work();
        if result.is_ok() && gmo.options & BROWSE_OPTIONS == 0 {
            // Depth event hook: a message left the queue.
            if let Some(Target::Queue(queue)) = self.handles.get(&hobj.0).map(|h| &h.target) {
                queue_manager_put::performance_events_after_get(&self.queue_manager, queue);
            }
        }
        if gmo.options & MQGMO_CONVERT != 0 {
            // Gets and browses alike: the data returned is the caller's copy.
            return crate::data_conversion::convert_got(requested, md, gmo, buffer, result);
        }
        result
    }

    /// MQGET on the handle `hobj` (its queue lent as `lent`): check the get options, how long
    /// to wait and what the handle allows, decide which messages match (the match fields,
    /// groups, a message token, the cursor), then browse or get the message that way.
    fn get_from_handle(
        &mut self,
        hobj: Hobj,
        lent: Option<&Arc<LocalQueue>>,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut GetBuffer<'_>,
    ) -> MqResult<GetResult> {
        // Queue sharing group hook: a shared queue's structure (shared_queues.rs).
        if self.is_shared_handle(hobj) {
            check_get_options(gmo)?;
            return self.get_shared(hobj, md, gmo, buffer);
        }
        let handle = self.handle(hobj)?;
        let options = gmo.options;
        self.check_quiescing(options & MQGMO_FAIL_IF_QUIESCING != 0)?;
        check_get_options(gmo)?;
        if options & MQGMO_UNLOCK != 0 {
            return crate::locking::unlock(self.lent_or_error(lent, handle)?, handle.lock_holder);
        }
        let wait = wait_interval(gmo)?;
        let browsing = options & BROWSE_OPTIONS != 0;
        self.check_get_access(handle, lent, browsing)?;
        // Which messages match.
        let match_options = match_options(gmo)?;
        let mut selector = match_selector(md, match_options);
        // Groups and segments: the match fields, logical order and whole-group conditions.
        let in_unit = options & MQGMO_NO_SYNCPOINT == 0 && !browsing;
        let group_get =
            self.plan_group_get(hobj, gmo, md, match_options, &mut selector, in_unit)?;
        let handle = self.handle(hobj)?;
        if match_options & MQMO_MATCH_MSG_TOKEN != 0 && gmo.msg_token != [0; 16] {
            // A token names one message; one this queue manager never issued matches nothing.
            let Some(key) = key_of_message_token(&gmo.msg_token) else {
                return failed(MQRC_NO_MSG_AVAILABLE);
            };
            selector.key = Some(key);
        }
        let queue = self.lent_or_error(lent, handle)?;
        let cursor = handle.cursor;
        let lock_holder = handle.lock_holder;
        let under_cursor = options & (MQGMO_MSG_UNDER_CURSOR | MQGMO_BROWSE_MSG_UNDER_CURSOR) != 0;
        if under_cursor {
            if handle.options & MQOO_BROWSE == 0 {
                return failed(MQRC_NOT_OPEN_FOR_BROWSE);
            }
            let Some(key) = cursor else {
                return failed(MQRC_NO_MSG_UNDER_CURSOR);
            };
            // The message under the cursor, whatever the match fields say.
            selector = MessageSelector {
                key: Some(key),
                ..MessageSelector::default()
            };
        }
        if let Some(selection) = handle.selection.clone() {
            if !under_cursor {
                return self.get_selected(hobj, queue, &selection, selector, md, gmo, buffer, wait);
            }
        }
        // Where BROWSE_NEXT searches from (BROWSE_FIRST from the start; under the cursor, the
        // key selector finds the message).
        let after = match options & BROWSE_OPTIONS {
            MQGMO_BROWSE_NEXT => group_get.after.unwrap_or(cursor),
            _ => None,
        };
        if options & MQGMO_COMPLETE_MSG != 0 && !under_cursor {
            let result = self.get_complete_message(
                hobj, queue, &selector, after, wait, in_unit, md, gmo, buffer,
            );
            return self.after_group_get(hobj, &group_get, md, result);
        }
        let sought = Sought {
            queue,
            selector: &selector,
            wait,
            lock_holder,
        };
        if browsing {
            return self.browse_message(hobj, &sought, after, md, gmo, buffer, group_get);
        }
        self.get_message(hobj, &sought, in_unit, md, gmo, buffer, &group_get)
    }

    /// The handle allows the call: open for browse or for input, and gets not inhibited on
    /// the alias it was opened through nor, for a browse, on the queue. InhibitGet fails
    /// browses as well as gets (MQ: "including MQGET calls that specify MQGMO_BROWSE_FIRST or
    /// MQGMO_BROWSE_NEXT"), on an alias and on the queue itself; the engine's get checks the
    /// queue for a destructive get.
    fn check_get_access(
        &self,
        handle: &ObjectHandle,
        lent: Option<&Arc<LocalQueue>>,
        browsing: bool,
    ) -> MqResult<()> {
        if browsing {
            if handle.options & MQOO_BROWSE == 0 {
                return failed(MQRC_NOT_OPEN_FOR_BROWSE);
            }
        } else if handle.input.is_none() {
            return failed(MQRC_NOT_OPEN_FOR_INPUT);
        }
        if self
            .alias_of(handle)
            .is_some_and(|alias| alias.get_inhibited)
            || (browsing
                && self
                    .lent_or_error(lent, handle)?
                    .with_definition(|definition| definition.get_inhibited))
        {
            return failed(MQRC_GET_INHIBITED);
        }
        Ok(())
    }

    /// A browse (BROWSE_FIRST, BROWSE_NEXT after `after`, or under the cursor): the first
    /// matching message that has not expired, locked for the handle with MQGMO_LOCK (its
    /// previous lock released, found or not); the browse cursor moves to it.
    #[allow(clippy::too_many_arguments)]
    fn browse_message(
        &mut self,
        hobj: Hobj,
        sought: &Sought,
        after: Option<MessageKey>,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut GetBuffer<'_>,
        group_get: GroupGet,
    ) -> MqResult<GetResult> {
        let options = gmo.options;
        let queue = sought.queue;
        let lock = options & MQGMO_LOCK != 0;
        if lock {
            queue.unlock(sought.lock_holder);
        }
        let browsed = crate::locking::Browse {
            holder: sought.lock_holder,
            wait: sought.wait,
            fail_if_quiescing: options & MQGMO_FAIL_IF_QUIESCING != 0,
            lock,
        };
        let now = now_ms();
        let message = self.browse_unexpired(queue, sought.selector, after, now, &browsed)?;
        let Some(message) = message else {
            return failed(if options & MQGMO_BROWSE_MSG_UNDER_CURSOR != 0 {
                MQRC_NO_MSG_UNDER_CURSOR
            } else {
                MQRC_NO_MSG_AVAILABLE
            });
        };
        self.handles.get_mut(&hobj.0).expect("open").cursor = Some(message.key);
        let result = Self::deliver(
            &mut self.message_handles,
            &message,
            md,
            gmo,
            buffer,
            options & MQGMO_ACCEPT_TRUNCATED_MSG != 0,
            now,
            queue,
        );
        let group_get = GroupGet {
            key: Some(message.key),
            ..group_get
        };
        self.after_group_get(hobj, &group_get, md, result)
    }

    /// A destructive get: in the unit of work with `in_unit` (z/OS default: syncpoint). A
    /// message too long for the buffer without MQGMO_ACCEPT_TRUNCATED_MSG is left on the
    /// queue and described.
    #[allow(clippy::too_many_arguments)]
    fn get_message(
        &mut self,
        hobj: Hobj,
        sought: &Sought,
        in_unit: bool,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut GetBuffer<'_>,
        group_get: &GroupGet,
    ) -> MqResult<GetResult> {
        let options = gmo.options;
        let queue = sought.queue;
        let controls = get_controls(options, buffer.length(), sought.lock_holder);
        let unit = in_unit.then_some(&mut self.unit);
        let outcome =
            self.queue_manager
                .get_with(unit, queue, sought.selector, sought.wait, &controls)?;
        match outcome {
            GetOutcome::Got {
                message,
                in_unit_of_work,
            } => {
                let result = Self::deliver(
                    &mut self.message_handles,
                    &message,
                    md,
                    gmo,
                    buffer,
                    true,
                    expiry_now(&message),
                    queue,
                );
                self.after_destructive_get(hobj, md, &message, in_unit_of_work);
                self.after_group_get(hobj, group_get, md, result)
            }
            GetOutcome::LeftOnQueue(message) => Self::deliver(
                &mut self.message_handles,
                &message,
                md,
                gmo,
                buffer,
                false,
                expiry_now(&message),
                queue,
            ),
            GetOutcome::NoMessage => failed(if options & MQGMO_MSG_UNDER_CURSOR != 0 {
                MQRC_NO_MSG_UNDER_CURSOR
            } else {
                MQRC_NO_MSG_AVAILABLE
            }),
        }
    }

    /// MQGET on a handle opened with a selector: the first message in delivery order (after
    /// the browse cursor for BROWSE_NEXT) that the selector and the match fields select. The
    /// candidates are browsed (through the CorrelId or MsgId index when the selector fixes
    /// one) and the chosen one is then got by its key; if another getter took it meanwhile the
    /// search starts again. A wait parks until a message arrives on the queue (never polls),
    /// then searches again.
    #[allow(clippy::too_many_arguments)]
    fn get_selected(
        &mut self,
        hobj: Hobj,
        queue: &Arc<LocalQueue>,
        selection: &Selection,
        mut selector: MessageSelector,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut GetBuffer<'_>,
        wait: Option<Duration>,
    ) -> MqResult<GetResult> {
        let options = gmo.options;
        for (fixed, matched) in [
            (selection.correlation_id, &mut selector.correlation_id),
            (selection.message_id, &mut selector.message_id),
        ] {
            if let Some(id) = fixed {
                if matched.is_some_and(|wanted| wanted != id) {
                    return failed(MQRC_NO_MSG_AVAILABLE);
                }
                *matched = Some(id);
            }
        }
        let browsing = options & (MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT) != 0;
        let accept_truncated = options & MQGMO_ACCEPT_TRUNCATED_MSG != 0;
        let deadline = wait.map(|wait| std::time::Instant::now() + wait);
        loop {
            // Counted before the search: an arrival during it ends the wait below at once.
            let seen = queue.arrivals();
            let now = now_ms();
            let mut after = if options & MQGMO_BROWSE_NEXT != 0 {
                self.handle(hobj)?.cursor
            } else {
                None
            };
            let holder = self.handle(hobj)?.lock_holder;
            let browsed = crate::locking::Browse {
                holder,
                wait: None,
                fail_if_quiescing: false,
                lock: false,
            };
            let chosen = loop {
                let Some(message) =
                    self.browse_unexpired(queue, &selector, after, now, &browsed)?
                else {
                    break None;
                };
                let candidate = descriptor::from_engine(
                    &message.descriptor,
                    message.backout_count,
                    now,
                    ferrite_constants::structs::MQMD_VERSION_2,
                )
                .map_err(|_| MqError::failed(MQRC_UNEXPECTED_ERROR))?;
                if selection.matches(&candidate, &message.data) {
                    break Some(message);
                }
                after = Some(message.key);
            };
            if let Some(message) = chosen {
                if browsing {
                    if options & MQGMO_LOCK != 0 {
                        queue.unlock(holder);
                        if !queue.lock(holder, message.key) {
                            // Got or locked by another handle meanwhile: look again.
                            continue;
                        }
                    }
                    self.handles.get_mut(&hobj.0).expect("open").cursor = Some(message.key);
                    return Self::deliver(
                        &mut self.message_handles,
                        &message,
                        md,
                        gmo,
                        buffer,
                        accept_truncated,
                        now,
                        queue,
                    );
                }
                let keyed = MessageSelector {
                    key: Some(message.key),
                    ..MessageSelector::default()
                };
                let controls = get_controls(options, buffer.length(), holder);
                let unit = (options & MQGMO_NO_SYNCPOINT == 0).then_some(&mut self.unit);
                match self
                    .queue_manager
                    .get_with(unit, queue, &keyed, None, &controls)?
                {
                    GetOutcome::Got {
                        message,
                        in_unit_of_work,
                    } => {
                        let result = Self::deliver(
                            &mut self.message_handles,
                            &message,
                            md,
                            gmo,
                            buffer,
                            true,
                            expiry_now(&message),
                            queue,
                        );
                        self.after_destructive_get(hobj, md, &message, in_unit_of_work);
                        return result;
                    }
                    GetOutcome::LeftOnQueue(message) => {
                        return Self::deliver(
                            &mut self.message_handles,
                            &message,
                            md,
                            gmo,
                            buffer,
                            false,
                            expiry_now(&message),
                            queue,
                        );
                    }
                    // Another getter took it between the browse and the get: look again.
                    GetOutcome::NoMessage => continue,
                }
            }
            let remaining = deadline
                .map(|deadline| deadline.saturating_duration_since(std::time::Instant::now()))
                .unwrap_or_default();
            if remaining.is_zero() {
                return failed(MQRC_NO_MSG_AVAILABLE);
            }
            self.check_quiescing(options & MQGMO_FAIL_IF_QUIESCING != 0)?;
            let queue_manager = &self.queue_manager;
            let fail_if_quiescing = options & MQGMO_FAIL_IF_QUIESCING != 0;
            queue.wait_for_arrival(seen, remaining, || {
                queue_manager.is_stopping()
                    || queue.is_deleted()
                    || (fail_if_quiescing && queue_manager.is_quiescing())
            });
        }
    }

    /// The next matching message after `after` that has not expired, visible to the
    /// browsing handle, waiting for one as `browse.wait` says, locked for the handle with
    /// `browse.lock`.
    pub(super) fn browse_unexpired(
        &self,
        queue: &Arc<LocalQueue>,
        selector: &MessageSelector,
        after: Option<MessageKey>,
        now: u64,
        browse: &crate::locking::Browse,
    ) -> MqResult<Option<RetrievedMessage>> {
        crate::locking::browse_unexpired(&self.queue_manager, queue, selector, after, now, browse)
    }

    /// After a destructive get through `hobj` (`md` is what the get returned): the handle
    /// saves the message's context when opened with MQOO_SAVE_ALL_CONTEXT, and the COD report
    /// the message asks for is sent, in the unit of work when the get was.
    fn after_destructive_get(
        &mut self,
        hobj: Hobj,
        md: &Mqmd,
        message: &RetrievedMessage,
        in_unit_of_work: bool,
    ) {
        if let Some(handle) = self.handles.get_mut(&hobj.0) {
            if handle.options & MQOO_SAVE_ALL_CONTEXT != 0 {
                handle.saved_context = Some(Box::new(md.clone()));
            }
        }
        if md.report & ferrite_constants::report::MQRO_COD == 0 {
            return;
        }
        let unit = in_unit_of_work.then_some(crate::queue_manager_put::InUnit {
            unit: &mut self.unit,
            arrivals: &mut self.arrivals,
        });
        crate::reports::on_get(&self.queue_manager, unit, md, &message.data);
    }

    /// Fill the MQMD, MQGMO outputs and the buffer from a message.
    #[allow(clippy::too_many_arguments)]
    fn deliver(
        message_handles: &mut crate::message_handles::MessageHandles,
        message: &RetrievedMessage,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut GetBuffer<'_>,
        accept_truncated: bool,
        now: u64,
        queue: &LocalQueue,
    ) -> MqResult<GetResult> {
        *md = descriptor::from_engine(&message.descriptor, message.backout_count, now, md.version)
            .map_err(|_| MqError::failed(MQRC_UNEXPECTED_ERROR))?;
        // Properties: left in the MQRFH2, into the getter's handle, or away (PROPCTL).
        // (MQGET checked the handle before taking the message.)
        let handle = gmo
            .msg_handle
            .filter(|hmsg| hmsg.0 != crate::message_handles::MQHM_NONE);
        let control = || {
            queue.with_definition(|definition| {
                crate::message_handles::property_control(&definition.property_control)
            })
        };
        let (data, properties) = crate::message_handles::deliver_properties(
            gmo.options,
            handle.is_some(),
            control,
            md,
            &message.data,
        );
        if let (Some(hmsg), Some(properties)) = (handle, properties) {
            message_handles.replace_properties(hmsg, properties)?;
        }
        let message_data: &[u8] = &data;
        set_text(&mut gmo.resolved_q_name, queue.name_str());
        gmo.msg_token = message_token(message.key);
        groups::status_fields(gmo, md.msg_flags);
        return_data(message_data, accept_truncated, gmo, buffer)
    }
}

/// The message's data into the caller's buffer: all of it, as much as fits with
/// MQRC_TRUNCATED_MSG_ACCEPTED's warning when `accept_truncated`, else (too long)
/// MQRC_TRUNCATED_MSG_FAILED with its length.
pub(super) fn return_data(
    message_data: &[u8],
    accept_truncated: bool,
    gmo: &mut Mqgmo,
    buffer: &mut GetBuffer<'_>,
) -> MqResult<GetResult> {
    let data_length = message_data.len();
    if data_length > buffer.length() && !accept_truncated {
        gmo.returned_length = 0;
        return Err(MqError {
            data_length: Some(data_length),
            ..MqError::failed(MQRC_TRUNCATED_MSG_FAILED)
        });
    }
    let returned_length = data_length.min(buffer.length());
    buffer.put(&message_data[..returned_length]);
    gmo.returned_length = returned_length as i32;
    Ok(GetResult {
        data_length,
        returned_length,
        warning: (returned_length < data_length)
            .then_some(MqError::warning(MQRC_TRUNCATED_MSG_ACCEPTED)),
    })
}

/// The browse options: MQGET browses rather than gets with one of them.
const BROWSE_OPTIONS: i32 = MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT | MQGMO_BROWSE_MSG_UNDER_CURSOR;

/// Where one MQGET looks, decided before it looks: the queue, which messages match, how long
/// to wait, and the handle as a lock holder.
struct Sought<'a> {
    queue: &'a Arc<LocalQueue>,
    selector: &'a MessageSelector,
    wait: Option<Duration>,
    lock_holder: u64,
}

/// The MQGMO options alone: known, at most one positional and one syncpoint option, no
/// syncpoint with a browse, a known MQGMO version, and MQ's combinations for MQGMO_LOCK (with
/// a browse), MQGMO_UNLOCK (alone, NO_WAIT, NO_SYNCPOINT) and MQGMO_MARK_SKIP_BACKOUT (with
/// a get in the unit of work).
fn check_get_options(gmo: &Mqgmo) -> MqResult<()> {
    let options = gmo.options;
    let positional = options & (BROWSE_OPTIONS | MQGMO_MSG_UNDER_CURSOR);
    let syncpoint_options =
        options & (MQGMO_SYNCPOINT | MQGMO_NO_SYNCPOINT | MQGMO_SYNCPOINT_IF_PERSISTENT);
    let browsing = options & BROWSE_OPTIONS != 0;
    if options & !KNOWN_GET_OPTIONS != 0
        || positional.count_ones() > 1
        || syncpoint_options.count_ones() > 1
        || (browsing && options & (MQGMO_SYNCPOINT | MQGMO_SYNCPOINT_IF_PERSISTENT) != 0)
    {
        return failed(MQRC_OPTIONS_ERROR);
    }
    if gmo.version < 1 || gmo.version > 4 {
        return failed(MQRC_GMO_ERROR);
    }
    if options & UNSUPPORTED_GET_OPTIONS != 0 {
        return failed(MQRC_FUNCTION_NOT_SUPPORTED);
    }
    if (options & MQGMO_LOCK != 0 && (!browsing || options & MQGMO_UNLOCK != 0))
        || (options & MQGMO_UNLOCK != 0
            && options & !(MQGMO_UNLOCK | MQGMO_NO_SYNCPOINT | MQGMO_NO_WAIT) != 0)
        || (options & MQGMO_MARK_SKIP_BACKOUT != 0
            && (browsing || options & MQGMO_NO_SYNCPOINT != 0))
    {
        return failed(MQRC_OPTIONS_ERROR);
    }
    Ok(())
}

/// How long MQGMO_WAIT waits (WaitInterval, MQWI_UNLIMITED for ever); `None` without it.
fn wait_interval(gmo: &Mqgmo) -> MqResult<Option<Duration>> {
    if gmo.options & MQGMO_WAIT == 0 {
        return Ok(None);
    }
    if gmo.wait_interval < 0 && gmo.wait_interval != MQWI_UNLIMITED {
        return failed(MQRC_WAIT_INTERVAL_ERROR);
    }
    Ok(Some(if gmo.wait_interval == MQWI_UNLIMITED {
        Duration::from_secs(u32::MAX as u64)
    } else {
        Duration::from_millis(gmo.wait_interval as u64)
    }))
}

/// The match options in force: MatchOptions from MQGMO version 2, MsgId and CorrelId before.
fn match_options(gmo: &Mqgmo) -> MqResult<i32> {
    if gmo.version < MQGMO_VERSION_2 {
        return Ok(MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID);
    }
    if gmo.match_options
        & !(MQMO_MATCH_MSG_ID
            | MQMO_MATCH_CORREL_ID
            | MQMO_MATCH_GROUP_ID
            | MQMO_MATCH_MSG_SEQ_NUMBER
            | MQMO_MATCH_OFFSET
            | MQMO_MATCH_MSG_TOKEN)
        != 0
    {
        return failed(MQRC_MATCH_OPTIONS_ERROR);
    }
    Ok(gmo.match_options)
}

/// The MsgId and CorrelId to match: those the match options name, when not none.
fn match_selector(md: &Mqmd, match_options: i32) -> MessageSelector {
    MessageSelector {
        message_id: (match_options & MQMO_MATCH_MSG_ID != 0 && md.msg_id != MQMI_NONE)
            .then_some(md.msg_id),
        correlation_id: (match_options & MQMO_MATCH_CORREL_ID != 0 && md.correl_id != MQCI_NONE)
            .then_some(md.correl_id),
        ..MessageSelector::default()
    }
}

/// The engine's controls for a destructive get with `options` into a buffer of
/// `buffer_length` bytes by the lock holder `lock_holder`.
fn get_controls(options: i32, buffer_length: usize, lock_holder: u64) -> GetControls {
    GetControls {
        fail_if_quiescing: options & MQGMO_FAIL_IF_QUIESCING != 0,
        syncpoint_if_persistent: options & MQGMO_SYNCPOINT_IF_PERSISTENT != 0,
        leave_if_longer_than: (options & MQGMO_ACCEPT_TRUNCATED_MSG == 0).then_some(buffer_length),
        lock_holder,
        mark_skip_backout: options & MQGMO_MARK_SKIP_BACKOUT != 0,
    }
}
