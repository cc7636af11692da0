//! Messages the queue manager itself puts: trigger messages and event messages (one
//! non-persistent datagram outside any unit of work, with the queue manager's own context),
//! and report messages and dead letters (with the context they carry, in the application's
//! unit of work when its put or get was). Every one of them goes through
//! [`put_message`], so the target queue's trigger conditions are checked as for an
//! application's MQPUT: MQ's "Conditions for a trigger event" begin with "a message is put on
//! a queue", whoever puts it, and its event documentation says event queues "can have trigger
//! actions associated with them and can create trigger messages". The one exception is
//! [`crate::triggering`]'s rule that an initiation queue never triggers, so a trigger message
//! never causes another trigger message (no loop); a trigger message that goes to the
//! dead-letter queue instead is a dead letter and triggers like one.
//!
//! The same puts raise the target queue's depth events ([`crate::depth_events`]: Queue Depth
//! High after the put, Queue Full when MAXDEPTH refuses it) and start its service timer, as an
//! application's MQPUT does, so a reply queue filled by COA reports or a dead-letter queue
//! filling up is reported. MQ generates no performance events for the event queues themselves
//! ([`crate::depth_events::is_event_queue`]), so writing an event message never raises another
//! (no loop), and a full event queue loses the event without reporting it.
//!
//! # The module tree
//! The recursion (a put raises events and trigger messages, which are put again, with
//! dead-letter and exception fallbacks) is held here: this module does the putting and the
//! fallbacks that combine its children, and each child decides and builds its own messages,
//! importing only this module, never a sibling. They keep their crate-root paths
//! (`ferrite_mqi::triggering`, ...).
//!
//! - [`triggering`]: trigger conditions and trigger messages.
//! - [`depth_events`]: queue depth events and the performance event's PCF;
//!   [`service_interval_events`]: the queue service timer and its events.
//! - [`dead_letter`]: the dead-letter queue's MQDLH and why a message could not go there.
//! - [`reports`]: report messages (COA, COD, expiration, exception).

pub mod dead_letter;
pub mod depth_events;
pub mod reports;
pub mod service_interval_events;
pub mod triggering;

use std::sync::Arc;

use ferrite_constants::{
    appl_type::MQAT_QMGR, encoding::MQENC_NATIVE, format::MQFMT_DEAD_LETTER_HEADER,
    format::MQFMT_EVENT, message_type::MQMT_DATAGRAM, persistence::MQPER_NOT_PERSISTENT,
    reason::MQRC_MD_ERROR, report::MQRO_DISCARD_MSG, report::MQRO_EXPIRATION,
};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::{
    now_ms, ExpiryObserver, LocalQueue, MessageEntry, ObjectDefinition, ObjectType, QueueManager,
    QueueStatistics, RetrievedMessage, UnitOfWork,
};
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::StorageResult;

use crate::descriptor::{self, QUEUE_MANAGER_CCSID};
use crate::identifiers::new_identifier;
use crate::structures::Mqmd;
use dead_letter::{dead_letter_header, dead_letter_queue_name, DeadLetterError, Disposition};
use depth_events::{
    at_or_below_percent, event_message, is_event_queue, reaches_percent, DepthEvent,
    PERFORMANCE_EVENT_QUEUE,
};
use service_interval_events::ServiceIntervalSetting;
use triggering::{ArrivalWatch, PendingArrivals};

/// The application's unit of work a queue-manager put joins (a COA or COD report, a dead
/// letter), with the connection's trigger state: a trigger message that put causes is held
/// until the unit of work ends, as for the application's own puts.
pub struct InUnit<'a> {
    pub unit: &'a mut UnitOfWork,
    pub arrivals: &'a mut PendingArrivals,
}

impl InUnit<'_> {
    /// The same unit for one more put.
    pub fn reborrow(&mut self) -> InUnit<'_> {
        InUnit {
            unit: self.unit,
            arrivals: self.arrivals,
        }
    }
}

/// Put a message the queue manager makes on `queue`, in `unit` when given, and check
/// `queue`'s trigger conditions and depth events as for an application's MQPUT of a message
/// of `priority`.
pub fn put_message(
    queue_manager: &QueueManager,
    unit: Option<InUnit<'_>>,
    queue: &Arc<LocalQueue>,
    descriptor: &MessageDescriptor,
    data: &[u8],
) -> StorageResult<MessageEntry> {
    let result = put_and_trigger(queue_manager, unit, queue, descriptor, data);
    // Depth events after the trigger check, in the order of an application's MQPUT; within
    // a unit of work at once, since MQ raises them "regardless of whether the unit of work is
    // committed or backed out".
    match &result {
        Ok(_) => performance_events_after_put(queue_manager, queue),
        Err(error) => depth_events::put_failed(queue_manager, queue, error.reason_code()),
    }
    result
}

fn put_and_trigger(
    queue_manager: &QueueManager,
    unit: Option<InUnit<'_>>,
    queue: &Arc<LocalQueue>,
    descriptor: &MessageDescriptor,
    data: &[u8],
) -> StorageResult<MessageEntry> {
    let watch = ArrivalWatch::before(queue);
    match unit {
        Some(InUnit { unit, arrivals }) => {
            let entry = queue_manager.put(Some(unit), queue, descriptor, data)?;
            arrivals.put(queue_manager, watch, descriptor.priority, true);
            Ok(entry)
        }
        None => {
            let entry = queue_manager.put(None, queue, descriptor, data)?;
            // Outside a unit of work the trigger message is written at once.
            PendingArrivals::default().put(queue_manager, watch, descriptor.priority, false);
            Ok(entry)
        }
    }
}

/// The MQMD of a message the queue manager puts with `format`: a non-persistent datagram at the
/// queue's default priority, integers in MQENC_NATIVE, characters in the queue manager's CCSID,
/// PutApplType MQAT_QMGR and PutApplName the queue manager's name (at most 28 characters).
pub fn queue_manager_descriptor(
    queue_manager: &QueueManager,
    queue: &LocalQueue,
    format: [u8; 8],
    now: u64,
) -> Mqmd {
    let (put_date, put_time) = descriptor::put_date_time_fields(now);
    Mqmd {
        msg_type: MQMT_DATAGRAM,
        format,
        encoding: MQENC_NATIVE,
        coded_char_set_id: QUEUE_MANAGER_CCSID,
        priority: queue.with_definition(|definition| definition.default_priority) as i32,
        persistence: MQPER_NOT_PERSISTENT,
        msg_id: new_identifier(queue_manager.name()),
        put_appl_type: MQAT_QMGR,
        put_appl_name: queue_manager_appl_name(queue_manager).into(),
        put_date,
        put_time,
        ..Mqmd::default()
    }
}

/// Put `data` with `format` on `queue` as the queue manager, outside any unit of work. Returns
/// the MQMD it was put with, and the reason it could not be put (MQRC_Q_FULL,
/// MQRC_PUT_INHIBITED, ...) if it could not, for the caller's fallback.
pub fn put_as_queue_manager(
    queue_manager: &QueueManager,
    queue: &Arc<LocalQueue>,
    format: [u8; 8],
    data: &[u8],
) -> (Mqmd, Result<(), i32>) {
    let now = now_ms();
    let md = queue_manager_descriptor(queue_manager, queue, format, now);
    let engine = descriptor::to_engine(&md, now);
    let result = put_message(queue_manager, None, queue, &engine, data)
        .map(|_| ())
        .map_err(|error| error.reason_code());
    (md, result)
}

/// PutApplName of what the queue manager itself puts: its name (at most 28 characters).
pub fn queue_manager_appl_name(queue_manager: &QueueManager) -> String {
    queue_manager.name().chars().take(28).collect()
}

/// Put a message the queue manager could not deliver on the dead-letter queue (DEADQ), behind
/// an MQDLH with `reason` (MQRC_* or MQFB_*), `dest_q_name` and `dest_q_mgr_name` (blank:
/// this queue manager). `md` is the message's resolved descriptor (MsgId set, Priority 0–9,
/// Persistence 0 or 1, CodedCharSetId not MQCCSI_Q_MGR), `data` its data.
///
/// In `unit` (a unit of work) the dead-letter message appears when it commits; outside, at
/// once (and on disk first when persistent). Returns the dead-letter queue's name, or why
/// there is no usable one; the caller applies MQ's fallback and logs the error.
pub fn put_to_dead_letter_queue(
    queue_manager: &QueueManager,
    unit: Option<InUnit<'_>>,
    md: &Mqmd,
    data: &[u8],
    reason: i32,
    dest_q_name: &str,
    dest_q_mgr_name: &str,
) -> Result<String, DeadLetterError> {
    let name = dead_letter_queue_name(queue_manager);
    if name.is_empty() {
        return Err(DeadLetterError::NotDefined);
    }
    let Some(queue) = resolve_local_queue(queue_manager, &name) else {
        return Err(DeadLetterError::UnknownQueue { queue: name });
    };
    let header = dead_letter_header(queue_manager, md, reason, dest_q_name, dest_q_mgr_name)
        .encode(ByteOrder::Little)
        .map_err(|_| DeadLetterError::PutFailed {
            queue: name.clone(),
            reason: MQRC_MD_ERROR,
        })?;
    debug_assert_eq!(
        MQENC_NATIVE & 0xf,
        2,
        "MQENC_NATIVE integers are little-endian"
    );
    let mut dead_letter_md = md.clone();
    dead_letter_md.format = MQFMT_DEAD_LETTER_HEADER;
    dead_letter_md.encoding = MQENC_NATIVE;
    dead_letter_md.coded_char_set_id = QUEUE_MANAGER_CCSID;
    let mut message = Vec::with_capacity(header.len() + data.len());
    message.extend_from_slice(&header);
    message.extend_from_slice(data);
    let now = now_ms();
    // The original PutDate/PutTime stay in the MQMD; the engine stores them when they differ.
    let engine = descriptor::to_engine(&dead_letter_md, now);
    put_message(queue_manager, unit, &queue, &engine, &message).map_err(|error| {
        DeadLetterError::PutFailed {
            queue: name.clone(),
            reason: error.reason_code(),
        }
    })?;
    Ok(name)
}

/// A message the queue manager cannot deliver to `dest_q_name`, for `reason`: discarded when
/// its Report has MQRO_DISCARD_MSG, otherwise put on the dead-letter queue. Before that, the
/// exception report its Report asks for (MQRO_EXCEPTION*) is sent with Feedback = `reason`.
/// When there is no usable dead-letter queue the error is returned (the caller keeps the
/// message or discards it, and logs the error).
pub fn undeliverable(
    queue_manager: &QueueManager,
    mut unit: Option<InUnit<'_>>,
    md: &Mqmd,
    data: &[u8],
    reason: i32,
    dest_q_name: &str,
    dest_q_mgr_name: &str,
) -> Result<Disposition, DeadLetterError> {
    reports::send_exception(
        queue_manager,
        unit.as_mut().map(InUnit::reborrow),
        md,
        data,
        reason,
    );
    if md.report & MQRO_DISCARD_MSG != 0 {
        return Ok(Disposition::Discarded);
    }
    put_to_dead_letter_queue(
        queue_manager,
        unit,
        md,
        data,
        reason,
        dest_q_name,
        dest_q_mgr_name,
    )
    .map(Disposition::DeadLettered)
}

/// The local queue a name resolves to for a put by the queue manager itself: the queue, or
/// an alias's target. `None` for anything else.
pub(crate) fn resolve_local_queue(
    queue_manager: &QueueManager,
    name: &str,
) -> Option<Arc<LocalQueue>> {
    match queue_manager.queue_object_type(name)? {
        ObjectType::LocalQueue => queue_manager.queue(name),
        ObjectType::AliasQueue => match queue_manager.object(ObjectType::AliasQueue, name)? {
            ObjectDefinition::Alias(alias)
                if queue_manager.queue_object_type(&alias.target)
                    == Some(ObjectType::LocalQueue) =>
            {
                queue_manager.queue(&alias.target)
            }
            _ => None,
        },
        _ => None,
    }
}

/// After a successful MQPUT to `queue`, an application's or the queue manager's: Queue Depth
/// High, if due ([`depth_events`]), and the queue service interval events
/// ([`service_interval_events`]), read from the definition at once.
pub fn performance_events_after_put(queue_manager: &QueueManager, queue: &Arc<LocalQueue>) {
    // One read of the definition, the event-queue check included (no name copied).
    let (enabled, limit, max_depth, service_interval, event_queue) =
        queue.with_definition(|definition| {
            (
                definition.queue_depth_high_event,
                definition.queue_depth_high_limit,
                definition.max_depth,
                ServiceIntervalSetting::of(definition),
                is_event_queue(&definition.name),
            )
        });
    if !enabled && service_interval.is_none() || event_queue {
        return;
    }
    if enabled && reaches_percent(queue.current_depth(), limit, max_depth) {
        depth_events::raise(queue_manager, queue, DepthEvent::High);
    }
    if let Some(setting) = service_interval {
        service_interval_events::after_put(queue_manager, queue, setting);
    }
}

/// After a successful destructive MQGET from `queue`: Queue Depth Low, if due, and the queue
/// service interval events.
pub fn performance_events_after_get(queue_manager: &QueueManager, queue: &Arc<LocalQueue>) {
    // One read of the definition, the event-queue check included (no name copied).
    let (enabled, limit, max_depth, service_interval, event_queue) =
        queue.with_definition(|definition| {
            (
                definition.queue_depth_low_event,
                definition.queue_depth_low_limit,
                definition.max_depth,
                ServiceIntervalSetting::of(definition),
                is_event_queue(&definition.name),
            )
        });
    if !enabled && service_interval.is_none() || event_queue {
        return;
    }
    if enabled && at_or_below_percent(queue.current_depth(), limit, max_depth) {
        depth_events::raise(queue_manager, queue, DepthEvent::Low);
    }
    if let Some(setting) = service_interval {
        service_interval_events::after_get(queue_manager, queue, setting);
    }
}

/// Put a queue performance event (`reason` says which) reporting `statistics` on
/// SYSTEM.ADMIN.PERFM.EVENT; discarded, as MQ does, when that queue is not defined or the put
/// fails. The depth events and the queue service interval events share it.
pub fn write_performance_event(
    queue_manager: &QueueManager,
    queue: &LocalQueue,
    reason: i32,
    statistics: &QueueStatistics,
) {
    let Some(event_queue) = queue_manager.queue(PERFORMANCE_EVENT_QUEUE) else {
        return;
    };
    let order = ByteOrder::from_mq_encoding(MQENC_NATIVE).expect("native integer encoding");
    let data = event_message(
        queue_manager.name(),
        &queue.name(),
        reason,
        statistics,
        now_ms(),
        order,
    );
    if let (_, Err(put_reason)) =
        put_as_queue_manager(queue_manager, &event_queue, MQFMT_EVENT, &data)
    {
        eprintln!(
            "ferrite depth events: performance event {reason} for {} could not be put on \
             {PERFORMANCE_EVENT_QUEUE} (reason {put_reason}); it is discarded",
            queue.name()
        );
    }
}

/// Make the queue manager send expiration reports and tell the service timer of each expired
/// message removed (idempotent; MQCONN calls it, so every queue manager an application uses
/// has it before any message of its can expire).
pub fn install_expiry_observer(queue_manager: &QueueManager) {
    if queue_manager.has_expiry_observer() {
        return;
    }
    let observer: ExpiryObserver = Arc::new(
        |queue_manager: &QueueManager, queue: &LocalQueue, message: &RetrievedMessage| {
            // Removing an expired message is a get operation for the service timer.
            let timed = queue
                .with_definition(service_interval_events::ServiceIntervalSetting::of)
                .is_some();
            if let Some(queue) = timed
                .then(|| queue_manager.queue(queue.name_str()))
                .flatten()
                .filter(|own| std::ptr::eq(Arc::as_ptr(own), queue))
            {
                service_interval_events::after_removal(queue_manager, &queue);
            }
            let Ok(original) = descriptor::from_engine(
                &message.descriptor,
                message.backout_count,
                now_ms(),
                ferrite_constants::structs::MQMD_VERSION_2,
            ) else {
                return;
            };
            if original.report & MQRO_EXPIRATION != 0 {
                reports::on_expiry(queue_manager, &original, &message.data);
            }
        },
    );
    queue_manager.set_expiry_observer(observer);
}
