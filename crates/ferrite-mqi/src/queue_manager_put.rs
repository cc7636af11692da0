//! Messages the queue manager itself puts (trigger messages, event messages): one
//! non-persistent datagram outside any unit of work, with the queue manager's own context.

use std::sync::Arc;

use ferrite_constants::{
    appl_type::MQAT_QMGR, encoding::MQENC_NATIVE, message_type::MQMT_DATAGRAM,
    persistence::MQPER_NOT_PERSISTENT,
};
use ferrite_storage::queue_manager::{now_ms, LocalQueue, QueueManager};

use crate::connection::new_identifier;
use crate::descriptor::{self, QUEUE_MANAGER_CCSID};
use crate::structures::Mqmd;

/// The MQMD of a message the queue manager puts with `format`: a non-persistent datagram at the
/// queue's default priority, integers in MQENC_NATIVE, characters in the queue manager's CCSID,
/// PutApplType MQAT_QMGR and PutApplName the queue manager's name (at most 28 characters).
pub fn queue_manager_descriptor(
    queue_manager: &QueueManager,
    queue: &LocalQueue,
    format: [u8; 8],
    now: u64,
) -> Mqmd {
    let (put_date, put_time) = descriptor::put_date_time(now);
    Mqmd {
        msg_type: MQMT_DATAGRAM,
        format,
        encoding: MQENC_NATIVE,
        coded_char_set_id: QUEUE_MANAGER_CCSID,
        priority: queue.with_definition(|definition| definition.default_priority) as i32,
        persistence: MQPER_NOT_PERSISTENT,
        msg_id: new_identifier(queue_manager.name()),
        put_appl_type: MQAT_QMGR,
        put_appl_name: crate::dead_letter::queue_manager_appl_name(queue_manager),
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
    let result = queue_manager
        .put(None, queue, &engine, data)
        .map(|_| ())
        .map_err(|error| error.reason_code());
    (md, result)
}
