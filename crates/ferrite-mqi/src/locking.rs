//! Browsing with MQGMO_LOCK and MQGMO_UNLOCK, and waiting browses (MQGMO_WAIT with
//! MQGMO_BROWSE_FIRST / BROWSE_NEXT / BROWSE_MSG_UNDER_CURSOR).
//!
//! Each object handle is a *lock holder* (a process-unique number). A browse with MQGMO_LOCK
//! locks the message it returns for its handle: the message stays on the queue but every
//! other handle's gets and browses pass over it, until
//! - MQGMO_UNLOCK on the handle (MQRC_NO_MSG_LOCKED, a warning, when nothing is locked),
//! - the handle's next browse with MQGMO_LOCK (the previous lock is released first),
//! - MQCLOSE of the handle (or the end of its connection),
//! - the handle's destructive get of it (under the cursor or by any match), or its expiry.
//!
//! One message per handle is locked at a time. A waiting browse parks on the queue like a
//! waiting getter, woken by an arrival (or an unlock) it can see; it never polls and never
//! takes the message.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_constants::reason::MQRC_NO_MSG_LOCKED;
use ferrite_queue_manager::{
    LocalQueue, MessageKey, MessageSelector, QueueManager, RetrievedMessage,
};

use crate::error::{MqError, MqResult};
use ferrite_mqi_types::GetResult;

/// How a browse looks for its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Browse {
    /// The browsing handle's lock holder number.
    pub holder: u64,
    /// MQGMO_WAIT: how long to wait for a matching message.
    pub wait: Option<Duration>,
    /// MQGMO_FAIL_IF_QUIESCING.
    pub fail_if_quiescing: bool,
    /// MQGMO_LOCK: lock the message found for the handle.
    pub lock: bool,
}

/// MQGMO_UNLOCK: release the message `holder` locked on `queue`. MQCC_WARNING with
/// MQRC_NO_MSG_LOCKED when there is none.
pub fn unlock(queue: &LocalQueue, holder: u64) -> MqResult<GetResult> {
    let released = queue.unlock(holder);
    Ok(GetResult {
        data_length: 0,
        returned_length: 0,
        warning: released
            .is_none()
            .then_some(MqError::warning(MQRC_NO_MSG_LOCKED)),
    })
}

/// The next message after `after` matching `selector` that is visible to `browse.holder` and
/// has not expired by `now`, waiting for one up to `browse.wait`; locked for the holder when
/// `browse.lock`. `None` when there is none (within the wait).
pub fn browse_unexpired(
    queue_manager: &QueueManager,
    queue: &Arc<LocalQueue>,
    selector: &MessageSelector,
    mut after: Option<MessageKey>,
    now: u64,
    browse: &Browse,
) -> MqResult<Option<RetrievedMessage>> {
    let deadline = browse.wait.map(|wait| Instant::now() + wait);
    loop {
        let wait = deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
        let Some(message) = queue_manager.browse_with(
            queue,
            selector,
            after,
            browse.holder,
            wait,
            browse.fail_if_quiescing,
        )?
        else {
            return Ok(None);
        };
        if message
            .descriptor
            .expires_at_ms()
            .is_some_and(|at| at <= now.max(ferrite_queue_manager::now_ms()))
        {
            after = Some(message.key);
            continue;
        }
        if browse.lock && !queue.lock(browse.holder, message.key) {
            // Got or locked by another handle since the browse found it: look again from
            // the same place.
            continue;
        }
        return Ok(Some(message));
    }
}
