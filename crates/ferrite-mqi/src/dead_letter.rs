//! The dead-letter queue: where the queue manager puts a message it cannot deliver, behind an
//! MQDLH that says why (Reason) and where it was going (DestQName, DestQMgrName).
//!
//! The queue is the queue manager's DEADQ attribute (ALTER QMGR DEADQ; a new queue manager has
//! SYSTEM.DEAD.LETTER.QUEUE, defined as a default object). It is resolved like any queue name:
//! a local queue, or an alias whose target is one. A blank DEADQ, or one that names no such
//! queue, or a put to it that fails (PUT(DISABLED), MAXDEPTH, MAXMSGL) means there is no usable
//! dead-letter queue: [`put_to_dead_letter_queue`] returns a [`DeadLetterError`] and the caller
//! applies MQ's fallback (a report message is discarded; a message the queue manager was
//! moving stays where it was), logging the error's text.
//!
//! ## The message put on the dead-letter queue
//! The MQMD is the original one (MsgId, CorrelId, context, Priority, Persistence, the remaining
//! Expiry) except Format = `MQDEAD  `, Encoding = MQENC_NATIVE and CodedCharSetId = the queue
//! manager's (the MQDLH's own); the data is the MQDLH (`ferrite_message::dead_letter_header`
//! documents its 172 bytes) followed by the original data. The MQDLH carries the original
//! Format, Encoding and CodedCharSetId, and PutApplType MQAT_QMGR, PutApplName the queue
//! manager's name, PutDate/PutTime of the move.

use std::fmt;

use ferrite_constants::{
    appl_type::MQAT_QMGR, encoding::MQENC_NATIVE, format::MQFMT_DEAD_LETTER_HEADER, reason::*,
    report::MQRO_DISCARD_MSG,
};
use ferrite_message::DeadLetterHeader;
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::{now_ms, LocalQueue, ObjectDefinition, ObjectType, QueueManager};
use std::sync::Arc;

use crate::descriptor::{self, trim, QUEUE_MANAGER_CCSID};
use crate::queue_manager_put::{put_message, InUnit};
use crate::structures::Mqmd;

/// The dead-letter queue a new queue manager names in DEADQ.
pub use ferrite_queue_manager::objects::DEFAULT_DEAD_LETTER_QUEUE;

/// Why a message could not be put on the dead-letter queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeadLetterError {
    /// DEADQ is blank.
    NotDefined,
    /// DEADQ names no local queue (nor an alias of one).
    UnknownQueue { queue: String },
    /// The put to it failed with this reason (MQRC_PUT_INHIBITED, MQRC_Q_FULL,
    /// MQRC_MSG_TOO_BIG_FOR_Q, ...).
    PutFailed { queue: String, reason: i32 },
}

impl DeadLetterError {
    /// The MQRC_* that describes the failure.
    pub fn reason(&self) -> i32 {
        match self {
            DeadLetterError::NotDefined => MQRC_UNKNOWN_OBJECT_NAME,
            DeadLetterError::UnknownQueue { .. } => MQRC_UNKNOWN_OBJECT_NAME,
            DeadLetterError::PutFailed { reason, .. } => *reason,
        }
    }
}

impl fmt::Display for DeadLetterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |reason: i32| ferrite_constants::reason_name(reason).unwrap_or("MQRC_UNKNOWN");
        match self {
            DeadLetterError::NotDefined => write!(
                f,
                "the queue manager has no dead-letter queue (DEADQ is blank; set it with ALTER QMGR DEADQ)"
            ),
            DeadLetterError::UnknownQueue { queue } => write!(
                f,
                "dead-letter queue {queue} (DEADQ) is not a local queue (define it, or ALTER QMGR DEADQ)"
            ),
            DeadLetterError::PutFailed { queue, reason } => write!(
                f,
                "put to dead-letter queue {queue} failed with {reason} ({}); check its PUT, MAXDEPTH and MAXMSGL",
                name(*reason)
            ),
        }
    }
}

impl std::error::Error for DeadLetterError {}

/// What happened to a message the queue manager could not deliver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disposition {
    /// Put on the dead-letter queue of this name.
    DeadLettered(String),
    /// Discarded, as its MQRO_DISCARD_MSG asked.
    Discarded,
}

/// The queue manager's DEADQ, blank when it has none.
pub fn dead_letter_queue_name(queue_manager: &QueueManager) -> String {
    trim(&queue_manager.queue_manager_attributes().dead_letter_queue).to_string()
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

/// The MQDLH the queue manager puts in front of a message `md` it could not deliver to
/// `dest_q_name` at `dest_q_mgr_name`, for `reason` (MQRC_* or MQFB_*).
pub fn dead_letter_header(
    queue_manager: &QueueManager,
    md: &Mqmd,
    reason: i32,
    dest_q_name: &str,
    dest_q_mgr_name: &str,
) -> DeadLetterHeader {
    let (put_date, put_time) = descriptor::put_date_time(now_ms());
    DeadLetterHeader {
        reason,
        dest_q_name: trim(dest_q_name).to_string(),
        dest_q_mgr_name: if trim(dest_q_mgr_name).is_empty() {
            queue_manager.name().to_string()
        } else {
            trim(dest_q_mgr_name).to_string()
        },
        encoding: md.encoding,
        coded_char_set_id: md.coded_char_set_id,
        format: md.format,
        put_appl_type: MQAT_QMGR,
        put_appl_name: queue_manager_appl_name(queue_manager),
        put_date,
        put_time,
    }
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
    crate::reports::send_exception(
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
