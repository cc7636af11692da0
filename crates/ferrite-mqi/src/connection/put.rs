//! MQPUT and MQPUT1: the put options, the descriptor the message is stored with, segmentation,
//! and what a put sets off (reports, triggers, depth events).

use ferrite_queue_manager::statistics::MqiCounter;
use std::sync::Arc;

use ferrite_constants::{
    appl_type::MQAT_DEFAULT,
    ccsid::MQCCSI_Q_MGR,
    expiry::MQEI_UNLIMITED,
    ids::{MQGI_NONE, MQMI_NONE},
    message_type::{MQMT_APPL_FIRST, MQMT_APPL_LAST, MQMT_REQUEST},
    object_type::{MQOT_Q, MQOT_TOPIC},
    open_options::*,
    persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENCE_AS_Q_DEF, MQPER_PERSISTENT},
    priority::MQPRI_PRIORITY_AS_Q_DEF,
    put_options::*,
    reason::*,
};
use ferrite_queue_manager::{now_ms, LocalQueue, ObjectType, UnitOfWork};

use super::verb_accounting::Verb;
use super::{failed, set_text, Connection, Hobj, Target};

use crate::async_status::PutTarget;
use crate::descriptor::{self, trim, QUEUE_MANAGER_CCSID};
use crate::error::{MqError, MqResult};
use crate::groups::{self, Position};
use crate::identifiers::new_identifier;
use crate::inquire::MAX_PRIORITY;
use crate::mq_char::MqChar;
use crate::name_resolution::RemoteDestination;
use crate::structures::{Mqmd, Mqod, Mqpmo};
use crate::transmission_queue::transmission_message;
use crate::{depth_events, queue_manager_events, queue_manager_put, triggering};

/// Every MQPMO_* bit MQPUT knows.
const KNOWN_PUT_OPTIONS: i32 = MQPMO_SYNCPOINT
    | MQPMO_NO_SYNCPOINT
    | MQPMO_DEFAULT_CONTEXT
    | MQPMO_NEW_MSG_ID
    | MQPMO_NEW_CORREL_ID
    | MQPMO_PASS_IDENTITY_CONTEXT
    | MQPMO_PASS_ALL_CONTEXT
    | MQPMO_SET_IDENTITY_CONTEXT
    | MQPMO_SET_ALL_CONTEXT
    | MQPMO_ALTERNATE_USER_AUTHORITY
    | MQPMO_FAIL_IF_QUIESCING
    | MQPMO_NO_CONTEXT
    | MQPMO_LOGICAL_ORDER
    | MQPMO_ASYNC_RESPONSE
    | MQPMO_SYNC_RESPONSE
    | MQPMO_RESOLVE_LOCAL_Q
    | MQPMO_WARN_IF_NO_SUBS_MATCHED
    | MQPMO_RETAIN
    | MQPMO_MD_FOR_OUTPUT_ONLY
    | MQPMO_SCOPE_QMGR
    | MQPMO_SUPPRESS_REPLYTO
    | MQPMO_NOT_OWN_SUBS;

/// MQPMO options recognised but not implemented yet (MQRC_FUNCTION_NOT_SUPPORTED).
const UNSUPPORTED_PUT_OPTIONS: i32 = MQPMO_RETAIN | MQPMO_MD_FOR_OUTPUT_ONLY;

impl Connection {
    /// MQPUT. Fills in MsgId (when MQMI_NONE or with MQPMO_NEW_MSG_ID), CorrelId (with
    /// MQPMO_NEW_CORREL_ID) and the context fields the put options make the queue manager set.
    /// Returns a warning (MQCC_WARNING) when MQ completes the put with one:
    /// MQRC_PRIORITY_EXCEEDS_MAXIMUM (the message is put with priority 9).
    pub fn put(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let with_properties = crate::message_handles::attach_properties(
            &self.message_handles,
            pmo.original_msg_handle,
            pmo.new_msg_handle,
            md,
            data,
        )?;
        let data = with_properties.as_deref().unwrap_or(data);
        let verb_timing = self.verb_timing();
        let timing = self.accounting_timing();
        let persistent_before = timing.map(|_| self.persistent_puts());
        let result = self.put_on_handle(hobj, md, pmo, data);
        self.count_call(MqiCounter::Put, MqiCounter::PutFailed, &result);
        self.verb_timed(Verb::Put, verb_timing);
        if result.is_err() {
            // STATQ's PutFailCount of the handle's queue.
            if let Some(Target::Queue(queue)) = self.handles.get(&hobj.0).map(|h| &h.target) {
                queue.count_put(None);
            }
        }
        if let (Some(timing), Some(before)) = (timing, persistent_before) {
            let stored = result.as_ref().ok().map(|_| data.len());
            self.account_put(hobj, timing, before, stored);
        }
        self.inhibited_event(hobj, &result, MQRC_PUT_INHIBITED);
        self.note_unit_of_work();
        let queue = match self.handles.get(&hobj.0).map(|handle| &handle.target) {
            Some(Target::Queue(queue)) => Some(queue),
            _ => None,
        };
        if self.put_is_asynchronous(queue, pmo) {
            let target = self.put_target(hobj);
            let queue_manager = self.queue_manager.name().to_string();
            self.async_status.record(&result, &target, &queue_manager);
        }
        result
    }

    /// Whether a put is asynchronous (its outcome counted for MQSTAT): MQPMO_ASYNC_RESPONSE,
    /// or MQPMO_RESPONSE_AS_Q_DEF (neither response option) on a queue defined
    /// DEFPRESP(ASYNC). `queue` is the queue the put went to, when known.
    fn put_is_asynchronous(&self, queue: Option<&Arc<LocalQueue>>, pmo: &Mqpmo) -> bool {
        if pmo.options & MQPMO_SYNC_RESPONSE != 0 {
            return false;
        }
        if pmo.options & MQPMO_ASYNC_RESPONSE != 0 {
            return true;
        }
        queue.is_some_and(|queue| {
            queue.with_definition(|definition| definition.default_put_response == "ASYNC")
        })
    }

    /// The object a put on `hobj` goes to, for the asynchronous put status.
    pub(super) fn put_target(&self, hobj: Hobj) -> PutTarget {
        let Some(handle) = self.handles.get(&hobj.0) else {
            return PutTarget::default();
        };
        let resolved_name = match &handle.target {
            Target::Queue(queue) => queue.name(),
            _ => String::new(),
        };
        PutTarget {
            object_name: handle
                .alias
                .clone()
                .unwrap_or_else(|| resolved_name.clone()),
            resolved_name,
        }
    }

    fn put_on_handle(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let shared = self.is_shared_handle(hobj);
        // Publish/subscribe hook: a topic handle publishes (pubsub.rs).
        if let Some((topic_string, open_options)) = self.topic_of(hobj) {
            // Opened through an alias queue (TARGTYPE(TOPIC)): its PUT inhibit and defaults.
            let alias = self.alias_of(self.handle(hobj)?);
            if alias.as_ref().is_some_and(|alias| alias.put_inhibited) {
                return failed(MQRC_PUT_INHIBITED);
            }
            let defaults = alias.map(|alias| (alias.default_priority, alias.default_persistent));
            return self.publish(&topic_string, open_options, defaults, md, pmo, data);
        }
        // Queue sharing group hook: a shared queue's structure (shared_queues.rs).
        if shared {
            return self.put_shared(hobj, md, pmo, data);
        }
        self.with_lent_queue(hobj, |connection, lent| {
            connection.put_on_lent(hobj, lent, md, pmo, data)
        })
    }

    fn put_on_lent(
        &mut self,
        hobj: Hobj,
        lent: Option<&Arc<LocalQueue>>,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let handle = self.handle(hobj)?;
        self.check_quiescing(pmo.options & MQPMO_FAIL_IF_QUIESCING != 0)?;
        if !handle.output {
            return failed(MQRC_NOT_OPEN_FOR_OUTPUT);
        }
        let open_options = handle.options;
        let queue = self.lent_or_error(lent, handle)?;
        let alias = self.alias_of(handle);
        if alias.as_ref().is_some_and(|alias| alias.put_inhibited) {
            return failed(MQRC_PUT_INHIBITED);
        }
        let mut defaults = alias
            .as_ref()
            .map(|alias| (alias.default_priority, alias.default_persistent));
        let remote = handle.remote.clone();
        if let Some(definition) = remote.as_ref().and_then(|route| self.remote_of(route)) {
            // The QREMOTE opened: its PUT inhibit and message defaults, as an alias's.
            if definition.put_inhibited {
                return failed(MQRC_PUT_INHIBITED);
            }
            defaults = Some((definition.default_priority, definition.default_persistent));
        }
        let handle = self.handles.get_mut(&hobj.0).expect("open");
        let mut position = std::mem::take(&mut handle.groups.put);
        let destination = remote.as_ref().map(|route| &route.destination);
        let result = self.put_to(
            queue,
            open_options,
            defaults,
            destination,
            md,
            pmo,
            data,
            &mut position,
        );
        self.handles.get_mut(&hobj.0).expect("open").groups.put = position;
        result
    }

    /// A message a receiving message channel agent cannot deliver (unknown queue,
    /// put-inhibited, full ...): MQ's exception report and the dead-letter queue with an
    /// MQDLH giving `reason` and the destination, in this connection's unit of work, so that
    /// they commit or back out with the batch (`dead_letter::undeliverable`).
    pub fn put_undeliverable(
        &mut self,
        md: &Mqmd,
        data: &[u8],
        reason: i32,
        dest_q_name: &str,
        dest_q_mgr_name: &str,
    ) -> Result<crate::dead_letter::Disposition, crate::dead_letter::DeadLetterError> {
        let unit = crate::queue_manager_put::InUnit {
            unit: &mut self.unit,
            arrivals: &mut self.arrivals,
        };
        let result = crate::dead_letter::undeliverable(
            &self.queue_manager,
            Some(unit),
            md,
            data,
            reason,
            dest_q_name,
            dest_q_mgr_name,
        );
        self.note_unit_of_work();
        result
    }

    /// MQPUT1: open the queue for output, put one message, close it.
    pub fn put1(
        &mut self,
        od: &mut Mqod,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let persistent_before = self.persistent_puts();
        let verb_timing = self.verb_timing();
        let result = self.put1_inner(od, md, pmo, data);
        self.count_call(MqiCounter::Put1, MqiCounter::Put1Failed, &result);
        self.verb_timed(Verb::Put1, verb_timing);
        self.count_put1_message(persistent_before, result.is_ok());
        if let Err(error) = &result {
            // Inhibit events (INHIBTEV): Put Inhibited (the open's local events are raised by
            // the open).
            queue_manager_events::call_failed(
                &self.queue_manager,
                &self.record,
                trim(&od.object_name),
                error.reason,
            );
        }
        self.note_unit_of_work();
        self.note_handles();
        let queue = self.queue_manager.queue(trim(&od.resolved_q_name));
        if self.put_is_asynchronous(queue.as_ref(), pmo) {
            let target = PutTarget {
                object_name: trim(&od.object_name).to_string(),
                resolved_name: trim(&od.resolved_q_name).to_string(),
            };
            let queue_manager = self.queue_manager.name().to_string();
            self.async_status.record(&result, &target, &queue_manager);
        }
        result
    }

    fn put1_inner(
        &mut self,
        od: &mut Mqod,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let mut options = MQOO_OUTPUT;
        if pmo.options & MQPMO_FAIL_IF_QUIESCING != 0 {
            options |= MQOO_FAIL_IF_QUIESCING;
        }
        if pmo.options & MQPMO_ALTERNATE_USER_AUTHORITY != 0 {
            options |= MQOO_ALTERNATE_USER_AUTHORITY;
        }
        if pmo.options & MQPMO_SET_ALL_CONTEXT != 0 {
            options |= MQOO_SET_ALL_CONTEXT;
        } else if pmo.options & MQPMO_SET_IDENTITY_CONTEXT != 0 {
            options |= MQOO_SET_IDENTITY_CONTEXT;
        } else if pmo.options & MQPMO_PASS_ALL_CONTEXT != 0 {
            options |= MQOO_PASS_ALL_CONTEXT;
        } else if pmo.options & MQPMO_PASS_IDENTITY_CONTEXT != 0 {
            options |= MQOO_PASS_IDENTITY_CONTEXT;
        }
        if od.object_type != MQOT_Q && od.object_type != MQOT_TOPIC {
            return failed(MQRC_OBJECT_TYPE_ERROR);
        }
        if self.queue_manager.queue_object_type(trim(&od.object_name))
            == Some(ObjectType::ModelQueue)
        {
            return failed(MQRC_Q_TYPE_ERROR);
        }
        let hobj = self.open_reporting(od, options)?;
        // put_on_handle, not put: MQPUT1 counts an asynchronous outcome once, itself.
        let result = self.put_on_handle(hobj, md, pmo, data);
        // A group MQPUT1 began is not finished by it: no MQRC_INCOMPLETE_GROUP warning.
        if let Err(error) = self.close_handle(hobj, 0) {
            if error.completion_code != ferrite_constants::completion::MQCC_WARNING {
                return Err(error);
            }
        }
        result
    }

    /// MQPUT of one message to `queue` (the handle's, resolved): check the put options and
    /// the descriptor, build the descriptor the message is stored with, assign its group
    /// fields, store it, then what a put sets off (reports, triggers, depth events) and the
    /// output fields.
    #[allow(clippy::too_many_arguments)]
    fn put_to(
        &mut self,
        queue: &Arc<LocalQueue>,
        open_options: i32,
        defaults: Option<(u8, bool)>,
        remote: Option<&RemoteDestination>,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
        position: &mut Position,
    ) -> MqResult<Option<MqError>> {
        let options = pmo.options;
        check_put_options(options, open_options)?;
        let passed = self.passed_context(pmo, open_options)?;
        check_put_descriptor(md)?;
        // DEFPRTY and DEFPSIST of the first definition in the name resolution (an alias's).
        let defaults = defaults.unwrap_or_else(|| {
            queue.with_definition(|definition| {
                (definition.default_priority, definition.default_persistent)
            })
        });
        let put_time_ms = now_ms();
        let (mut stored, mut warning) = self.stored_descriptor(md, options, defaults);
        self.set_put_context(&mut stored, options, passed.as_ref(), put_time_ms);
        let syncpoint = options & MQPMO_NO_SYNCPOINT == 0;
        // Trigger hook: the queue's state before the put (None unless its triggering is on).
        let watch = triggering::ArrivalWatch::before(queue);
        let logical_order = options & MQPMO_LOGICAL_ORDER != 0;
        // Groups and segments: check and assign GroupId, MsgSeqNumber and Offset.
        groups::check_put_fields(&mut stored, logical_order, data.len())?;
        let persistent = stored.persistence == MQPER_PERSISTENT;
        let group_warning = groups::assign_put_fields(
            position,
            &mut stored,
            logical_order,
            syncpoint,
            persistent,
            data.len(),
            || new_identifier(self.queue_manager.name()),
        )?;
        warning = warning.or(group_warning);
        if let Some(destination) = remote {
            // Distributed queuing: the message waits on the transmission queue behind its
            // MQXQH; its reports are the destination queue manager's to make.
            let (mut xmit, message) = transmission_message(&stored, destination, data);
            self.store_message(queue, &mut xmit, &message, syncpoint, put_time_ms)?;
            self.count_message_put(persistent, data.len());
            queue.count_put(Some((persistent, message.len())));
            self.after_put(queue, xmit.priority as u8, syncpoint, watch);
            if logical_order {
                position.advance(&stored, data.len(), syncpoint);
            }
            self.return_put_outputs(md, pmo, &stored, queue);
            set_text(&mut pmo.resolved_q_name, &destination.remote_q_name);
            set_text(&mut pmo.resolved_q_mgr_name, &destination.remote_q_mgr_name);
            return Ok(warning);
        }
        self.store_message(queue, &mut stored, data, syncpoint, put_time_ms)?;
        self.count_message_put(persistent, data.len());
        queue.count_put(Some((persistent, data.len())));
        if stored.report & crate::reports::QUEUE_MANAGER_REPORTS != 0 {
            let unit = syncpoint.then_some(crate::queue_manager_put::InUnit {
                unit: &mut self.unit,
                arrivals: &mut self.arrivals,
            });
            crate::reports::on_put(&self.queue_manager, unit, &stored, data);
        }
        self.after_put(queue, stored.priority as u8, syncpoint, watch);
        if logical_order {
            position.advance(&stored, data.len(), syncpoint);
        }
        self.return_put_outputs(md, pmo, &stored, queue);
        Ok(warning)
    }

    /// MQPMO_PASS_*_CONTEXT: the context saved by the handle in MQPMO.Context. Opening for a
    /// wider context (SET_ALL > PASS_ALL > PASS_IDENTITY) allows the narrower ones. `None`
    /// when the put passes no context.
    pub(super) fn passed_context(&self, pmo: &Mqpmo, open_options: i32) -> MqResult<Option<Mqmd>> {
        let options = pmo.options;
        if options & (MQPMO_PASS_ALL_CONTEXT | MQPMO_PASS_IDENTITY_CONTEXT) == 0 {
            return Ok(None);
        }
        if options & MQPMO_PASS_ALL_CONTEXT != 0
            && open_options & (MQOO_PASS_ALL_CONTEXT | MQOO_SET_ALL_CONTEXT) == 0
        {
            return failed(MQRC_NOT_OPEN_FOR_PASS_ALL);
        }
        if open_options
            & (MQOO_PASS_IDENTITY_CONTEXT | MQOO_PASS_ALL_CONTEXT | MQOO_SET_ALL_CONTEXT)
            == 0
        {
            return failed(MQRC_NOT_OPEN_FOR_PASS_IDENT);
        }
        match self.handles.get(&pmo.context) {
            Some(handle) if handle.options & MQOO_SAVE_ALL_CONTEXT != 0 => Ok(Some(
                handle.saved_context.as_deref().cloned().unwrap_or_default(),
            )),
            _ => failed(MQRC_CONTEXT_HANDLE_ERROR),
        }
    }

    /// The descriptor the message is stored with, before its context: the queue's defaults
    /// (`defaults`: DEFPRTY, DEFPSIST) for the AS_Q_DEF values, the queue manager's CCSID,
    /// new ids, the reply-to queue manager; with MQRC_PRIORITY_EXCEEDS_MAXIMUM's warning
    /// when the priority was cut to MAXPRTY.
    pub(super) fn stored_descriptor(
        &self,
        md: &Mqmd,
        options: i32,
        (default_priority, default_persistent): (u8, bool),
    ) -> (Mqmd, Option<MqError>) {
        let mut warning = None;
        let mut stored = md.clone();
        if md.priority == MQPRI_PRIORITY_AS_Q_DEF {
            stored.priority = default_priority as i32;
        } else if md.priority > MAX_PRIORITY {
            stored.priority = MAX_PRIORITY;
            warning = Some(MqError::warning(MQRC_PRIORITY_EXCEEDS_MAXIMUM));
        }
        if md.persistence == MQPER_PERSISTENCE_AS_Q_DEF {
            stored.persistence = if default_persistent {
                MQPER_PERSISTENT
            } else {
                MQPER_NOT_PERSISTENT
            };
        }
        if md.coded_char_set_id == MQCCSI_Q_MGR {
            stored.coded_char_set_id = QUEUE_MANAGER_CCSID;
        }
        if md.msg_id == MQMI_NONE || options & MQPMO_NEW_MSG_ID != 0 {
            stored.msg_id = new_identifier(self.queue_manager.name());
        }
        if options & MQPMO_NEW_CORREL_ID != 0 {
            stored.correl_id = new_identifier(self.queue_manager.name());
        }
        if !trim(&md.reply_to_q).is_empty() && trim(&md.reply_to_q_mgr).is_empty() {
            // A reply-to queue alias (a QREMOTE named by ReplyToQ) names where replies go.
            let (queue, q_mgr) =
                crate::name_resolution::resolve_reply_to(&self.queue_manager, trim(&md.reply_to_q));
            stored.reply_to_q = MqChar::from(queue.as_str());
            stored.reply_to_q_mgr = MqChar::from(q_mgr.as_str());
        }
        (stored, warning)
    }

    /// The context fields of the stored descriptor, as the put's context option says: none,
    /// passed from a handle (`passed`), set by the application (kept as given), or the
    /// queue manager's default context of this connection at `put_time_ms`.
    pub(super) fn set_put_context(
        &self,
        stored: &mut Mqmd,
        options: i32,
        passed: Option<&Mqmd>,
        put_time_ms: u64,
    ) {
        let (date, time) = descriptor::put_date_time_fields(put_time_ms);
        if options & MQPMO_NO_CONTEXT != 0 {
            stored.user_identifier.clear();
            stored.accounting_token = [0; 32];
            stored.appl_identity_data.clear();
            stored.put_appl_type = ferrite_constants::appl_type::MQAT_NO_CONTEXT;
            stored.put_appl_name.clear();
            stored.put_date.clear();
            stored.put_time.clear();
            stored.appl_origin_data.clear();
        } else if let Some(saved) = passed {
            stored.user_identifier = saved.user_identifier;
            stored.accounting_token = saved.accounting_token;
            stored.appl_identity_data = saved.appl_identity_data;
            if options & MQPMO_PASS_ALL_CONTEXT != 0 {
                stored.put_appl_type = saved.put_appl_type;
                stored.put_appl_name = saved.put_appl_name;
                stored.put_date = saved.put_date;
                stored.put_time = saved.put_time;
                stored.appl_origin_data = saved.appl_origin_data;
            } else {
                stored.put_appl_type = MQAT_DEFAULT;
                stored.put_appl_name = self.appl_name;
                stored.put_date = date;
                stored.put_time = time;
                stored.appl_origin_data.clear();
            }
        } else if options & MQPMO_SET_ALL_CONTEXT == 0 {
            if options & MQPMO_SET_IDENTITY_CONTEXT == 0 {
                stored.user_identifier = self.user_identifier;
                stored.accounting_token = [0; 32];
                stored.appl_identity_data.clear();
            }
            stored.put_appl_type = MQAT_DEFAULT;
            stored.put_appl_name = self.appl_name;
            stored.put_date = date;
            stored.put_time = time;
            stored.appl_origin_data.clear();
        }
    }

    /// Store the message on the queue, in the unit of work with `syncpoint`: as segments when
    /// it is longer than the queue's MAXMSGL and may be segmented, otherwise whole (a failed
    /// put raises the queue's depth event when it was full).
    fn store_message(
        &mut self,
        queue: &Arc<LocalQueue>,
        stored: &mut Mqmd,
        data: &[u8],
        syncpoint: bool,
        put_time_ms: u64,
    ) -> MqResult<()> {
        let max_message_length = queue.with_definition(|d| d.max_message_length) as usize;
        let segmentation_allowed =
            stored.msg_flags & ferrite_constants::message_flags::MQMF_SEGMENTATION_ALLOWED != 0;
        if data.len() > max_message_length && segmentation_allowed && max_message_length > 0 {
            return self.put_segmented(
                queue,
                stored,
                data,
                max_message_length,
                syncpoint,
                put_time_ms,
            );
        }
        let engine = descriptor::to_engine(stored, put_time_ms);
        let unit = syncpoint.then_some(&mut self.unit);
        if let Err(error) = self.queue_manager.put(unit, queue, &engine, data) {
            depth_events::put_failed(&self.queue_manager, queue, error.reason_code());
            return Err(error.into());
        }
        Ok(())
    }

    /// The put's output fields: the group fields, ids and context the queue manager set in
    /// the MQMD (Priority and Persistence are input only), the resolved names in the MQPMO.
    fn return_put_outputs(
        &self,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        stored: &Mqmd,
        queue: &LocalQueue,
    ) {
        self.return_put_descriptor(md, stored);
        set_text(&mut pmo.resolved_q_name, queue.name_str());
        set_text(&mut pmo.resolved_q_mgr_name, self.queue_manager.name());
    }

    /// The fields of the caller's MQMD a put sets: the ids, group fields and context.
    pub(super) fn return_put_descriptor(&self, md: &mut Mqmd, stored: &Mqmd) {
        md.group_id = stored.group_id;
        md.msg_seq_number = stored.msg_seq_number;
        md.offset = stored.offset;
        md.msg_id = stored.msg_id;
        md.correl_id = stored.correl_id;
        md.coded_char_set_id = stored.coded_char_set_id;
        md.reply_to_q_mgr = stored.reply_to_q_mgr;
        md.user_identifier = stored.user_identifier;
        md.accounting_token = stored.accounting_token;
        md.appl_identity_data = stored.appl_identity_data;
        md.put_appl_type = stored.put_appl_type;
        md.put_appl_name = stored.put_appl_name;
        md.put_date = stored.put_date;
        md.put_time = stored.put_time;
        md.appl_origin_data = stored.appl_origin_data;
    }

    /// Queue-manager segmentation: put `data`, longer than the queue's MAXMSGL, as segments
    /// of at most `max_segment` bytes, all in one unit of work (the connection's with
    /// syncpoint; otherwise one of this call's own, committed before it returns), so no part
    /// of the message is visible before all of it is.
    fn put_segmented(
        &mut self,
        queue: &Arc<LocalQueue>,
        stored: &mut Mqmd,
        data: &[u8],
        max_segment: usize,
        syncpoint: bool,
        put_time_ms: u64,
    ) -> MqResult<()> {
        if stored.group_id == MQGI_NONE {
            stored.group_id = new_identifier(self.queue_manager.name());
        }
        if stored.original_length == ferrite_constants::misc::MQOL_UNDEFINED {
            stored.original_length = data.len().min(i32::MAX as usize) as i32;
        }
        let plan = groups::segment_plan(data.len(), max_segment);
        let mut own = UnitOfWork::new();
        let unit = if syncpoint { &mut self.unit } else { &mut own };
        for (index, &(start, length)) in plan.iter().enumerate() {
            let segment = groups::segment_descriptor(stored, index, plan.len(), start);
            let engine = descriptor::to_engine(&segment, put_time_ms);
            let result = self.queue_manager.put(
                Some(&mut *unit),
                queue,
                &engine,
                &data[start..start + length],
            );
            if let Err(error) = result {
                if !syncpoint {
                    let _ = self.queue_manager.backout(&mut own);
                }
                return Err(error.into());
            }
        }
        if !syncpoint {
            self.queue_manager.commit(&mut own)?;
        }
        Ok(())
    }

    /// After a successful MQPUT: the trigger conditions (the trigger message written at once
    /// outside syncpoint, at the unit of work's end inside) and Queue Depth High.
    pub(super) fn after_put(
        &mut self,
        queue: &Arc<LocalQueue>,
        priority: u8,
        syncpoint: bool,
        watch: Option<triggering::ArrivalWatch>,
    ) {
        if watch.is_some() {
            self.arrivals
                .put(&self.queue_manager, watch, priority, syncpoint);
        }
        queue_manager_put::performance_events_after_put(&self.queue_manager, queue);
    }
}

/// The MQPMO options alone and against the handle's open options: known, not contradicting
/// each other, at most one context option, and a SET context the handle was opened for.
pub(super) fn check_put_options(options: i32, open_options: i32) -> MqResult<()> {
    let context = options
        & (MQPMO_DEFAULT_CONTEXT
            | MQPMO_NO_CONTEXT
            | MQPMO_SET_IDENTITY_CONTEXT
            | MQPMO_SET_ALL_CONTEXT
            | MQPMO_PASS_IDENTITY_CONTEXT
            | MQPMO_PASS_ALL_CONTEXT);
    if options & !KNOWN_PUT_OPTIONS != 0
        || (options & MQPMO_SYNCPOINT != 0 && options & MQPMO_NO_SYNCPOINT != 0)
        || (options & MQPMO_ASYNC_RESPONSE != 0 && options & MQPMO_SYNC_RESPONSE != 0)
        || context.count_ones() > 1
    {
        return failed(MQRC_OPTIONS_ERROR);
    }
    if options & UNSUPPORTED_PUT_OPTIONS != 0 {
        return failed(MQRC_FUNCTION_NOT_SUPPORTED);
    }
    if options & MQPMO_SET_ALL_CONTEXT != 0 && open_options & MQOO_SET_ALL_CONTEXT == 0 {
        return failed(MQRC_NOT_OPEN_FOR_SET_ALL);
    }
    if options & MQPMO_SET_IDENTITY_CONTEXT != 0
        && open_options & (MQOO_SET_IDENTITY_CONTEXT | MQOO_SET_ALL_CONTEXT) == 0
    {
        return failed(MQRC_NOT_OPEN_FOR_SET_IDENT);
    }
    Ok(())
}

/// Descriptor checks, in MQ's terms. The text fields are MQ's fixed lengths; a longer text
/// the application gave was cut to fit and marked (mq_char.rs), and is refused here, not put
/// cut.
pub(super) fn check_put_descriptor(md: &Mqmd) -> MqResult<()> {
    if md.has_cut_text() || !md.format.is_ascii() || md.version < 1 || md.version > 2 {
        return failed(MQRC_MD_ERROR);
    }
    if ![
        MQPER_NOT_PERSISTENT,
        MQPER_PERSISTENT,
        MQPER_PERSISTENCE_AS_Q_DEF,
    ]
    .contains(&md.persistence)
    {
        return failed(MQRC_PERSISTENCE_ERROR);
    }
    if md.priority < MQPRI_PRIORITY_AS_Q_DEF {
        return failed(MQRC_PRIORITY_ERROR);
    }
    if md.expiry <= 0 && md.expiry != MQEI_UNLIMITED {
        return failed(MQRC_EXPIRY_ERROR);
    }
    let known_type = [1, 2, 4, 8, 112, 113].contains(&md.msg_type)
        || (MQMT_APPL_FIRST..=MQMT_APPL_LAST).contains(&md.msg_type);
    if !known_type {
        return failed(MQRC_MSG_TYPE_ERROR);
    }
    if crate::reports::unsupported_report_options(md.report) {
        return failed(MQRC_REPORT_OPTIONS_ERROR);
    }
    if (md.msg_type == MQMT_REQUEST || md.report & crate::reports::QUEUE_MANAGER_REPORTS != 0)
        && trim(&md.reply_to_q).is_empty()
    {
        return failed(MQRC_MISSING_REPLY_TO_Q);
    }
    Ok(())
}
