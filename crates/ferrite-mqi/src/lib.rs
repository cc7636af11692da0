//! # ferrite-mqi
//!
//! The MQI of a Ferrite queue manager, in-process: an application embeds the queue manager (as
//! it would SQLite) and calls MQCONN, MQOPEN, MQPUT, MQPUT1, MQGET, MQINQ, MQSET, MQCMIT,
//! MQBACK, MQCLOSE and MQDISC on it with IBM MQ's structures, options, completion and reason
//! codes and semantics (z/OS's where they differ).
//!
//! - [`structures`]: MQMD (version 2), MQOD, MQPMO, MQGMO, MQCNO with MQ's defaults; they,
//!   [`mq_char`], [`error`] and the handles are `ferrite-mqi-types`', re-exported here.
//! - [`descriptor`]: MQMD to and from the storage engine's message descriptor, and the
//!   documented encoding of the MQMD fields the engine does not keep itself.
//! - [`connection`]: [`Connection`] (an MQHCONN) and the calls.
//! - [`data_conversion`]: MQGMO_CONVERT on MQGET.
//! - [`async_status`]: asynchronous put outcomes and MQSTAT ([`Connection::stat`]).
//! - [`error`]: [`MqError`], a completion code and reason code.
//! - [`selection`]: message selectors (MQOD SelectionString) on a handle.
//! - [`groups`]: message groups and segmentation (logical order, whole groups, reassembly).
//! - [`reports`]: the report messages the queue manager generates (COA, COD, expiration,
//!   exception).
//! - [`dead_letter`]: the dead-letter queue (DEADQ) and its MQDLH.
//! - [`locking`]: MQGMO_LOCK / MQGMO_UNLOCK and waiting browses.
//! - [`name_resolution`]: where a queue name and queue manager name resolve (a queue here, or
//!   another queue manager's through a transmission queue); [`transmission_queue`]: the MQXQH
//!   message a put for another queue manager leaves there.
//! - [`triggering`]: trigger conditions and trigger messages; [`depth_events`]: queue depth
//!   performance events; [`queue_manager_put`]: the messages the queue manager puts itself.
//!
//! ```no_run
//! # use std::sync::Arc;
//! # use ferrite_mqi::*;
//! # use ferrite_constants::{open_options::*, put_options::*, get_options::*};
//! # fn demo(queue_manager: Arc<ferrite_queue_manager::QueueManager>) -> MqResult<()> {
//! let mut connection = Connection::connect(queue_manager, "")?;
//! let hobj = connection.open(&mut Mqod::queue("APP.Q"), MQOO_OUTPUT | MQOO_INPUT_SHARED)?;
//! connection.put(hobj, &mut Mqmd::default(), &mut Mqpmo::with_options(MQPMO_SYNCPOINT), b"hello")?;
//! connection.commit()?;
//! let mut buffer = [0u8; 100];
//! let got = connection.get(hobj, &mut Mqmd::default(), &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT), &mut buffer)?;
//! assert_eq!(&buffer[..got.data_length], b"hello");
//! connection.disconnect()
//! # }
//! ```

pub mod async_status;
pub mod channel_events;
pub mod connection;
pub mod data_conversion;
pub mod descriptor;
pub mod event_writer;
pub mod groups;
mod identifiers;
pub mod inquire;
pub mod locking;
pub mod name_resolution;
pub mod queue_manager_events;
pub mod queue_manager_put;
pub mod selection;
pub mod statistics_messages;
pub mod transmission_queue;
// The modules of the queue manager's own messages are one tree under `queue_manager_put`,
// which does the putting; they keep their paths at the crate root.
pub use queue_manager_put::{
    dead_letter, depth_events, reports, service_interval_events, triggering,
};

// The MQI's data types live in `ferrite-mqi-types` (shared with the client library and the
// listeners); they keep their paths here.
pub use ferrite_mqi_types::{error, mq_char, structures};
// Message handles are `ferrite-message`'s (shared with the client library); the calls on a
// connection are in `connection/message_handles.rs`.
pub use ferrite_message::message_handles;

pub use async_status::Mqsts;
pub use connection::{
    reserve_identifiers, retained_topic_strings, AttributeValue, Connection, GetResult, Hobj,
    Inquired, NextMessage,
};
pub use error::{MqError, MqResult};
pub use message_handles::Hmsg;
pub use mq_char::{MqChar, TextTooLong};
pub use structures::{Mqcno, Mqcsp, Mqgmo, Mqmd, Mqod, Mqpmo, Mqsd};

/// The queue manager's identifier (MQCA_Q_MGR_IDENTIFIER, and QMgrId in a client channel's
/// INITIAL_DATA) in MQ's form, the name and a creation time stamp:
/// `QM1_2026-11-21_08.21.29`. The time stamp is derived from the queue manager's 64-bit
/// identity (fixed at creation), so it is stable across restarts and differs between queue
/// managers of the same name.
pub fn queue_manager_identifier(queue_manager: &ferrite_queue_manager::QueueManager) -> String {
    const SECONDS_PER_DAY: u64 = 86_400;
    const YEAR_2000_DAYS: u64 = 10_957;
    // A day in 2000-2099 and a second of that day, both from the identity.
    let identity = queue_manager.identity();
    let days = YEAR_2000_DAYS + (identity >> 20) % 36_524;
    let seconds = (identity >> 4) % SECONDS_PER_DAY;
    let (date, time) = descriptor::put_date_time((days * SECONDS_PER_DAY + seconds) * 1000);
    format!(
        "{}_{}-{}-{}_{}.{}.{}",
        queue_manager.name(),
        &date[..4],
        &date[4..6],
        &date[6..8],
        &time[..2],
        &time[2..4],
        &time[4..6]
    )
}
