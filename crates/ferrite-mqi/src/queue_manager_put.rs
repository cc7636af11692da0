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

use std::sync::Arc;

use ferrite_constants::{
    appl_type::MQAT_QMGR, encoding::MQENC_NATIVE, message_type::MQMT_DATAGRAM,
    persistence::MQPER_NOT_PERSISTENT,
};
use ferrite_queue_manager::{now_ms, LocalQueue, MessageEntry, QueueManager, UnitOfWork};
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::StorageResult;

use crate::depth_events;
use crate::descriptor::{self, QUEUE_MANAGER_CCSID};
use crate::identifiers::new_identifier;
use crate::structures::Mqmd;
use crate::triggering::{ArrivalWatch, PendingArrivals};

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
        Ok(_) => depth_events::after_put(queue_manager, queue),
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
        put_appl_name: crate::dead_letter::queue_manager_appl_name(queue_manager).into(),
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
