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

use ferrite_constants::{appl_type::MQAT_QMGR, reason::*};
use ferrite_message::DeadLetterHeader;
use ferrite_queue_manager::{now_ms, QueueManager};

use crate::descriptor::{self, trim};
use crate::structures::Mqmd;
// The puts are the module above's, which holds the recursion; they keep their paths here.
pub use super::{put_to_dead_letter_queue, queue_manager_appl_name, undeliverable};

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
