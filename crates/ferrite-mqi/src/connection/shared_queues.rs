//! Shared queues (QSGDISP(SHARED)) through the MQI: a handle on a shared queue is a
//! [`Target::Shared`], whose MQPUT, MQGET and browse go to the queue's CF list structure
//! through the queue manager's [`QueueSharingGroup`], never to a page set. The message kept
//! in the structure is the same image a private queue stores (descriptor and data,
//! docs/formats.md), so every member reads every other member's messages whole.
//!
//! Units of work: a put or get in syncpoint (MQPMO_SYNCPOINT, MQGMO_SYNCPOINT or
//! MQGMO_SYNCPOINT_IF_PERSISTENT, or neither: z/OS's default) is staged in the connection's
//! unit on the structure under this member's name ([`SharedUnitOfWork`]), and MQCMIT or
//! MQBACK (MQDISC, an abnormal end) applies or drops it in one script. A unit spans one
//! structure (work on a second fails with MQRC_SYNCPOINT_NOT_AVAILABLE) and any private
//! queues: a unit with both commits in two phases ([`Connection::commit_with_shared_unit`]),
//! the coupling facility's atomic commit being the decision. Persistent messages go only
//! to RECOVER(YES) structures (MQRC_PERSISTENT_NOT_ALLOWED elsewhere, as MQ), and the member
//! logs each it puts and gets, and the end of each unit that held them, in its own log
//! (`QueueManager::log_shared`; RECOVER CFSTRUCT reads them back): an out-of-syncpoint put
//! or get of one, and a commit of a unit that logged any, is forced before the call returns.
//! Non-persistent messages are never logged. MQGMO_WAIT waits for the
//! queue's next arrival (its depth going from 0 to 1 on any member, which the group's
//! arrivals listener counts), looking again at least every [`WAIT_SLICE_MS`] (selective
//! getters whose message comes to a non-empty queue, a quiescing queue manager), until a
//! message comes or the wait interval ends. Selection by
//! MSGID and CORRELID; other match options, MQGMO_LOCK, groups, browse under cursor and
//! message handles fail with MQRC_FUNCTION_NOT_SUPPORTED, as do context-passing opens.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_constants::{
    get_options::*, ids::MQCI_NONE, ids::MQMI_NONE, match_options::*, open_options::*,
    put_options::*, reason::*, wait::MQWI_UNLIMITED,
};
use ferrite_mqi_types::GetResult;
use ferrite_queue_manager::objects::authority_record::AuthorityObjectType;
use ferrite_queue_manager::queue_manager::cf_structure_recovery::is_persistent;
use ferrite_queue_manager::{
    now_ms, BrowseCursor, QueueDefinition, QueueSharingGroup, RetrievedSharedMessage,
    SharedMessage, SharedSelection, SharingError,
};
use ferrite_storage::data_manager::message::{decode_descriptor, encode_image, Identifier};
use ferrite_storage::log_records::kind as log_kind;
use ferrite_storage::log_records::shared::{SharedEntry, SharedQueueRecord, SharedUnitEnd};
use ferrite_storage::types::Rba;

use super::get::return_data;
use super::get_buffer::GetBuffer;
use super::put::{check_put_descriptor, check_put_options};
use super::{failed, set_text, Connection, Hobj, Target};
use crate::descriptor;
use crate::error::{MqError, MqResult};
use crate::structures::{Mqgmo, Mqmd, Mqod, Mqpmo};

/// The longest a waiting MQGET waits for an arrival before it looks at the structure again
/// and checks for a quiescing queue manager (arrivals wake it at once).
pub const WAIT_SLICE_MS: u64 = 200;

/// The open options a shared queue takes.
const SHARED_OPEN_OPTIONS: i32 = MQOO_INPUT_AS_Q_DEF
    | MQOO_INPUT_SHARED
    | MQOO_INPUT_EXCLUSIVE
    | MQOO_BROWSE
    | MQOO_OUTPUT
    | MQOO_FAIL_IF_QUIESCING
    | MQOO_BIND_AS_Q_DEF
    | MQOO_READ_AHEAD_AS_Q_DEF;

/// The get options a shared queue takes (the syncpoint ones to refuse them so).
const SHARED_GET_OPTIONS: i32 = MQGMO_WAIT
    | MQGMO_NO_WAIT
    | MQGMO_NO_SYNCPOINT
    | MQGMO_SYNCPOINT
    | MQGMO_SYNCPOINT_IF_PERSISTENT
    | MQGMO_BROWSE_FIRST
    | MQGMO_BROWSE_NEXT
    | MQGMO_ACCEPT_TRUNCATED_MSG
    | MQGMO_FAIL_IF_QUIESCING
    | MQGMO_CONVERT
    | MQGMO_PROPERTIES_AS_Q_DEF;

/// The connection's unit of work on shared queues: the structure it is staged in and its
/// name there (unique to this member: the time it began and a counter).
#[derive(Default)]
pub(super) struct SharedUnitOfWork {
    active: Option<(String, String)>,
    /// The unit logged a persistent message's put or get: its end is logged too.
    logged: bool,
}

/// The number of this process's next shared unit of work.
static NEXT_UNIT: AtomicU64 = AtomicU64::new(1);

/// A handle's shared queue: its definition as the group had it at MQOPEN, and the browse
/// cursor.
pub(super) struct SharedTarget {
    name: String,
    structure: String,
    /// The structure is RECOVER(YES): it takes persistent messages.
    recoverable: bool,
    definition: QueueDefinition,
    cursor: BrowseCursor,
}

impl SharedTarget {
    /// The shared queue's name.
    pub(super) fn name(&self) -> &str {
        &self.name
    }
}

fn group_error(error: SharingError) -> MqError {
    MqError::failed(error.reason)
}

impl Connection {
    fn group(&self) -> MqResult<Arc<dyn QueueSharingGroup>> {
        self.queue_manager
            .queue_sharing_group()
            .cloned()
            .ok_or_else(|| MqError::failed(MQRC_UNKNOWN_OBJECT_NAME))
    }

    /// MQOPEN of `name` when it is a shared queue of this member's group (a queue of this
    /// queue manager's own of that name comes first): the handle's target, or `None`.
    pub(super) fn open_shared_queue(
        &mut self,
        od: &Mqod,
        name: &str,
        q_mgr_name: &str,
        options: i32,
    ) -> MqResult<Option<Target>> {
        let Some(group) = self.queue_manager.queue_sharing_group().cloned() else {
            return Ok(None);
        };
        let local = q_mgr_name.is_empty() || q_mgr_name == self.queue_manager.name();
        if !local || self.queue_manager.queue_object_type(name).is_some() {
            return Ok(None);
        }
        let shared = group.shared_queues().map_err(group_error)?;
        let Some(shared) = shared.into_iter().find(|shared| shared.queue.name == name) else {
            return Ok(None);
        };
        if options & !SHARED_OPEN_OPTIONS != 0 {
            return failed(MQRC_FUNCTION_NOT_SUPPORTED);
        }
        self.authorize_open(od, AuthorityObjectType::Queue, name, options)?;
        let recoverable = group
            .structures()
            .map_err(group_error)?
            .iter()
            .any(|structure| structure.name == shared.structure && structure.recover);
        Ok(Some(Target::Shared(Box::new(SharedTarget {
            name: name.to_string(),
            structure: shared.structure,
            recoverable,
            definition: shared.queue,
            cursor: BrowseCursor::START,
        }))))
    }

    fn shared_target(&self, hobj: Hobj) -> Option<&SharedTarget> {
        match &self.handles.get(&hobj.0)?.target {
            Target::Shared(shared) => Some(shared),
            _ => None,
        }
    }

    /// Whether `hobj` is a handle on a shared queue.
    pub(super) fn is_shared_handle(&self, hobj: Hobj) -> bool {
        self.shared_target(hobj).is_some()
    }

    /// MQPUT to a shared queue, outside syncpoint: the descriptor resolved as for a private
    /// queue (defaults, ids, context), then one put to the structure.
    pub(super) fn put_shared(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let handle = self.handle(hobj)?;
        self.check_quiescing(pmo.options & MQPMO_FAIL_IF_QUIESCING != 0)?;
        if !handle.output {
            return failed(MQRC_NOT_OPEN_FOR_OUTPUT);
        }
        check_put_options(pmo.options, handle.options)?;
        if pmo.options
            & (MQPMO_LOGICAL_ORDER | MQPMO_PASS_ALL_CONTEXT | MQPMO_PASS_IDENTITY_CONTEXT)
            != 0
        {
            return failed(MQRC_FUNCTION_NOT_SUPPORTED);
        }
        check_put_descriptor(md)?;
        let shared = self.shared_target(hobj).expect("a shared handle");
        let definition = &shared.definition;
        if definition.put_inhibited {
            return failed(MQRC_PUT_INHIBITED);
        }
        if data.len() > definition.max_message_length as usize {
            return failed(MQRC_MSG_TOO_BIG_FOR_Q);
        }
        let defaults = (definition.default_priority, definition.default_persistent);
        let (structure, name) = (shared.structure.clone(), shared.name.clone());
        let recoverable = shared.recoverable;
        let put_time_ms = now_ms();
        let (mut stored, warning) = self.stored_descriptor(md, pmo.options, defaults);
        self.set_put_context(&mut stored, pmo.options, None, put_time_ms);
        let engine = descriptor::to_engine(&stored, put_time_ms);
        if engine.persistent && !recoverable {
            return failed(MQRC_PERSISTENT_NOT_ALLOWED);
        }
        let message = SharedMessage {
            priority: engine.priority,
            message_id: stored.msg_id,
            correlation_id: stored.correl_id,
            data: encode_image(&engine, data),
        };
        let group = self.group()?;
        if pmo.options & MQPMO_NO_SYNCPOINT == 0 {
            let unit = self.shared_unit_name(&structure)?;
            let entry = group
                .put_shared_in_unit(&structure, &unit, &name, &message)
                .map_err(group_error)?;
            self.shared_unit.active = Some((structure.clone(), unit.clone()));
            if engine.persistent {
                let entry = shared_entry(&structure, &name, entry);
                self.log_shared_put(&unit, entry, &message)?;
            }
        } else {
            let entry = group
                .put_shared(&structure, &name, &message)
                .map_err(group_error)?;
            if engine.persistent {
                let end =
                    self.log_shared_put("", shared_entry(&structure, &name, entry), &message)?;
                self.queue_manager.force_shared(end).map_err(group_error)?;
            }
        }
        self.return_put_descriptor(md, &stored);
        set_text(&mut pmo.resolved_q_name, &name);
        set_text(&mut pmo.resolved_q_mgr_name, self.queue_manager.name());
        Ok(warning)
    }

    /// MQGET or browse of a shared queue, outside syncpoint.
    pub(super) fn get_shared(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut GetBuffer<'_>,
    ) -> MqResult<GetResult> {
        let handle = self.handle(hobj)?;
        let options = gmo.options;
        self.check_quiescing(options & MQGMO_FAIL_IF_QUIESCING != 0)?;
        let browse = options & (MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT) != 0;
        if options & !SHARED_GET_OPTIONS != 0
            || gmo.match_options & !(MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID) != 0
        {
            return failed(MQRC_FUNCTION_NOT_SUPPORTED);
        }
        if browse && handle.options & MQOO_BROWSE == 0 {
            return failed(MQRC_NOT_OPEN_FOR_BROWSE);
        }
        if !browse && handle.input.is_none() {
            return failed(MQRC_NOT_OPEN_FOR_INPUT);
        }
        let shared = self.shared_target(hobj).expect("a shared handle");
        if shared.definition.get_inhibited {
            return failed(MQRC_GET_INHIBITED);
        }
        let structure = shared.structure.clone();
        let unit = match !browse && options & MQGMO_NO_SYNCPOINT == 0 {
            true => Some(self.shared_unit_name(&structure)?),
            false => None,
        };
        let selection = selection(md, gmo.match_options);
        let deadline = wait_deadline(gmo);
        let group = self.group()?;
        let queue = self
            .shared_target(hobj)
            .expect("a shared handle")
            .name
            .clone();
        loop {
            let seen = group.arrivals_seen(&queue);
            let length = buffer.length();
            if let Some(found) = self.take_shared(hobj, selection, options, length, &unit)? {
                if let Some(unit) = &unit {
                    self.shared_unit.active = Some((structure, unit.clone()));
                    // Its get was logged (take_shared): the unit's end is logged too.
                    self.shared_unit.logged |= is_persistent(&found.message);
                }
                return self.deliver_shared(hobj, found, md, gmo, buffer);
            }
            match deadline {
                Some(deadline) if Instant::now() < deadline => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let slice = left.min(Duration::from_millis(WAIT_SLICE_MS));
                    group.wait_for_arrival(&queue, seen, slice);
                    self.check_quiescing(options & MQGMO_FAIL_IF_QUIESCING != 0)?;
                }
                _ => return failed(MQRC_NO_MSG_AVAILABLE),
            }
        }
    }

    /// One look at the structure: the message browsed, or got. A get into a buffer shorter
    /// than the queue's MAXMSGL browses first, so that a message too long for it
    /// (MQRC_TRUNCATED_MSG_FAILED) stays on the queue, then gets that message by its ids.
    fn take_shared(
        &mut self,
        hobj: Hobj,
        selection: SharedSelection,
        options: i32,
        buffer_length: usize,
        unit: &Option<String>,
    ) -> MqResult<Option<RetrievedSharedMessage>> {
        let group = self.group()?;
        let shared = self.shared_target(hobj).expect("a shared handle");
        let (structure, name) = (shared.structure.as_str(), shared.name.as_str());
        let browse_from = |after| group.browse_shared(structure, name, selection, after);
        let get = |selection| {
            let found = match unit {
                Some(unit) => group.get_shared_in_unit(structure, unit, name, selection),
                None => group.get_shared(structure, name, selection),
            }?;
            if let Some(found) = &found {
                self.log_shared_get(structure, name, unit.as_deref(), found)?;
            }
            Ok(found)
        };
        if options & MQGMO_BROWSE_FIRST != 0 {
            return browse_from(BrowseCursor::START).map_err(group_error);
        }
        if options & MQGMO_BROWSE_NEXT != 0 {
            return browse_from(shared.cursor).map_err(group_error);
        }
        let whole = buffer_length >= shared.definition.max_message_length as usize
            || options & MQGMO_ACCEPT_TRUNCATED_MSG != 0;
        if whole {
            return get(selection).map_err(group_error);
        }
        let Some(first) = browse_from(BrowseCursor::START).map_err(group_error)? else {
            return Ok(None);
        };
        if first.message.data.len() > buffer_length {
            // Too long for the buffer whatever its descriptor: it stays (reported whole).
            return Ok(Some(first));
        }
        let exact = SharedSelection::Both(first.message.message_id, first.message.correlation_id);
        get(exact).map_err(group_error)
    }

    /// The name of the connection's shared unit of work on `structure`: the one it has, or a
    /// new one. MQRC_SYNCPOINT_NOT_AVAILABLE when the unit of work already holds another
    /// structure's work.
    fn shared_unit_name(&self, structure: &str) -> MqResult<String> {
        match &self.shared_unit.active {
            Some((active, unit)) if active == structure => Ok(unit.clone()),
            Some(_) => failed(MQRC_SYNCPOINT_NOT_AVAILABLE),
            None => {
                let number = NEXT_UNIT.fetch_add(1, Ordering::Relaxed);
                Ok(format!("{:x}.{number:x}", now_ms()))
            }
        }
    }

    /// Log the put of a persistent message (`unit` empty out of syncpoint); the record's end.
    fn log_shared_put(
        &mut self,
        unit: &str,
        entry: SharedEntry,
        message: &SharedMessage,
    ) -> MqResult<Rba> {
        let record = SharedQueueRecord {
            unit: unit.to_string(),
            entry,
            time_ms: now_ms(),
        };
        let payload = record.encode_put_fields(
            message.priority,
            &message.message_id,
            &message.correlation_id,
            &message.data,
        );
        let end = self
            .queue_manager
            .log_shared(log_kind::SHARED_PUT, &payload)
            .map_err(group_error)?;
        self.shared_unit.logged |= !unit.is_empty();
        Ok(end)
    }

    /// Log the get of `found` when it is persistent (forced out of syncpoint). A failure of
    /// the log leaves the message got: the call fails all the same.
    fn log_shared_get(
        &self,
        structure: &str,
        queue: &str,
        unit: Option<&str>,
        found: &RetrievedSharedMessage,
    ) -> Result<(), SharingError> {
        if !is_persistent(&found.message) {
            return Ok(());
        }
        let record = SharedQueueRecord {
            unit: unit.unwrap_or("").to_string(),
            entry: shared_entry(structure, queue, found.entry),
            time_ms: now_ms(),
        };
        let end = self
            .queue_manager
            .log_shared(log_kind::SHARED_GET, &record.encode_get())?;
        if unit.is_none() {
            self.queue_manager.force_shared(end)?;
        }
        Ok(())
    }

    /// Log the end of the shared unit `unit` on `structure` if it logged anything; the
    /// record's end (to force for a commit).
    fn log_shared_end(
        &mut self,
        structure: &str,
        unit: &str,
        commit: bool,
    ) -> MqResult<Option<Rba>> {
        if !std::mem::take(&mut self.shared_unit.logged) {
            return Ok(None);
        }
        let end = SharedUnitEnd {
            unit: unit.to_string(),
            structure: structure.to_string(),
            time_ms: now_ms(),
        };
        let record_kind = match commit {
            true => log_kind::SHARED_COMMIT,
            false => log_kind::SHARED_BACKOUT,
        };
        let end = self
            .queue_manager
            .log_shared(record_kind, &end.encode())
            .map_err(group_error)?;
        Ok(Some(end))
    }

    /// Whether the unit of work holds shared queues' work.
    pub(super) fn shared_unit_active(&self) -> bool {
        self.shared_unit.active.is_some()
    }

    /// Commit or back out the shared unit of work, if there is one.
    /// MQCMIT of a unit of work that holds shared queues' work, and perhaps private queues'
    /// too. With logged private work it commits in two phases: the URID is marked prepared in
    /// the group, the private half is prepared (its PREPARE record forced), the shared half
    /// commits in one script that also records the decision, then the private half commits
    /// and the decision is forgotten. A crash at any step leaves the member's restart to
    /// finish the same way (`QueueManager::attach_queue_sharing_group`). Private work that
    /// logged nothing (non-persistent only) survives no restart, so it just commits after
    /// the shared half.
    pub(super) fn commit_with_shared_unit(&mut self) -> MqResult<()> {
        let Some(urid) = self.unit.urid() else {
            self.end_shared_unit(true).inspect_err(|_| {
                let _ = self.backout_unit();
            })?;
            return self.commit_private_half();
        };
        let (structure, unit) = self.shared_unit.active.take().expect("a shared unit");
        let group = self.group()?;
        let urid = urid.to_string();
        let prepared = group
            .prepare_mixed(&urid, &unit)
            .map_err(group_error)
            .and_then(|()| {
                self.queue_manager
                    .prepare(&mut self.unit)
                    .map_err(MqError::from)
            });
        if let Err(error) = prepared {
            let _ = self.backout_unit();
            let _ = group.backout_shared(&structure, &unit);
            let _ = group.forget_mixed(&urid);
            let _ = self.log_shared_end(&structure, &unit, false);
            return Err(error);
        }
        let decided = match group.commit_shared_deciding(&structure, &unit, &urid) {
            Ok(()) => true,
            // The script is atomic: the decision is there exactly when the commit happened.
            Err(error) => match group.mixed_decided(&urid) {
                Ok(decided) => decided,
                Err(_) => {
                    // Unknown: the private half stays in doubt until the member's restart
                    // reads the decision.
                    self.queue_manager
                        .keep_in_doubt(std::mem::take(&mut self.unit));
                    return Err(group_error(error));
                }
            },
        };
        if !decided {
            let _ = self.backout_unit();
            let _ = group.backout_shared(&structure, &unit);
            let _ = group.forget_mixed(&urid);
            let _ = self.log_shared_end(&structure, &unit, false);
            return failed(MQRC_BACKED_OUT);
        }
        // Forced with the private half's commit.
        self.log_shared_end(&structure, &unit, true)?;
        self.commit_private_half()?;
        let _ = group.forget_mixed(&urid);
        Ok(())
    }

    /// Commit the private queues' half of the unit of work, with its trigger hooks.
    fn commit_private_half(&mut self) -> MqResult<()> {
        let result = self.queue_manager.commit(&mut self.unit);
        self.note_unit_of_work();
        result?;
        self.arrivals.resolved(&self.queue_manager, true);
        Ok(())
    }

    pub(super) fn end_shared_unit(&mut self, commit: bool) -> MqResult<()> {
        let Some((structure, unit)) = self.shared_unit.active.take() else {
            return Ok(());
        };
        let group = self.group()?;
        let ended = match commit {
            true => group.commit_shared(&structure, &unit),
            false => group.backout_shared(&structure, &unit),
        };
        // A commit that failed is logged as a backout: the structure backed it out, or lost it.
        let logged = self.log_shared_end(&structure, &unit, commit && ended.is_ok())?;
        ended.map_err(group_error)?;
        if let (true, Some(end)) = (commit, logged) {
            self.queue_manager.force_shared(end).map_err(group_error)?;
        }
        Ok(())
    }

    /// The message found, into the MQMD and the buffer.
    fn deliver_shared(
        &mut self,
        hobj: Hobj,
        found: RetrievedSharedMessage,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut GetBuffer<'_>,
    ) -> MqResult<GetResult> {
        let image = &found.message.data;
        let damaged = |_| MqError::failed(MQRC_CF_STRUC_FAILED);
        let (engine, offset) = decode_descriptor(image).map_err(|_| damaged(()))?;
        let backout = found.backout_count.min(u32::from(u16::MAX)) as u16;
        *md = descriptor::from_engine(&engine, backout, now_ms(), md.version)
            .map_err(|_| damaged(()))?;
        let handle = self.handles.get_mut(&hobj.0).expect("open");
        let Target::Shared(shared) = &mut handle.target else {
            unreachable!("a shared handle")
        };
        if gmo.options & (MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT) != 0 {
            shared.cursor = found.cursor;
        }
        set_text(&mut gmo.resolved_q_name, &shared.name);
        let accept_truncated = gmo.options & MQGMO_ACCEPT_TRUNCATED_MSG != 0;
        return_data(&image[offset..], accept_truncated, gmo, buffer)
    }
}

/// A shared message's identity in the log.
fn shared_entry(structure: &str, queue: &str, entry: u64) -> SharedEntry {
    SharedEntry {
        structure: structure.to_string(),
        queue: queue.to_string(),
        entry,
    }
}

/// Which message the MQMD's ids and the match options select.
fn selection(md: &Mqmd, match_options: i32) -> SharedSelection {
    let message_id: Option<Identifier> =
        (match_options & MQMO_MATCH_MSG_ID != 0 && md.msg_id != MQMI_NONE).then_some(md.msg_id);
    let correlation_id: Option<Identifier> = (match_options & MQMO_MATCH_CORREL_ID != 0
        && md.correl_id != MQCI_NONE)
        .then_some(md.correl_id);
    match (message_id, correlation_id) {
        (None, None) => SharedSelection::First,
        (Some(message_id), None) => SharedSelection::MessageId(message_id),
        (None, Some(correlation_id)) => SharedSelection::CorrelationId(correlation_id),
        (Some(message_id), Some(correlation_id)) => {
            SharedSelection::Both(message_id, correlation_id)
        }
    }
}

/// When a waiting get gives up: `None` without MQGMO_WAIT, far away for MQWI_UNLIMITED.
fn wait_deadline(gmo: &Mqgmo) -> Option<Instant> {
    if gmo.options & MQGMO_WAIT == 0 {
        return None;
    }
    let wait_ms = match gmo.wait_interval {
        MQWI_UNLIMITED => u64::from(u32::MAX),
        interval => interval.max(0) as u64,
    };
    Some(Instant::now() + Duration::from_millis(wait_ms))
}
