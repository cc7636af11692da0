//! A waiting MQGET without a thread: the channel initiator's adapters run a client's MQGET
//! with MQGMO_NO_WAIT and, when nothing is there, leave an [`ArrivalWatch`] on the handle's
//! queue instead of blocking a thread; its waker makes the get runnable again, and the adapter
//! simply tries once more (a message another getter took first means watching again).

use ferrite_constants::{get_options::*, ids::*, match_options::*, structs::MQGMO_VERSION_2};
use ferrite_queue_manager::{ArrivalWaker, ArrivalWatch, MessageSelector};

use super::{Connection, Hobj};
use crate::error::MqResult;
use crate::structures::{Mqgmo, Mqmd};

impl Connection {
    /// Watches the queue of `hobj` for a message the get described by `md` and `gmo` could
    /// take; `waker` is called when one arrives (at once if one is there), when the queue is
    /// deleted and when the queue manager quiesces. A handle opened with a SelectionString
    /// watches for any message (the selector is applied by the get itself). Errors are the
    /// get's: an unknown handle (MQRC_HOBJ_ERROR), a deleted queue (MQRC_Q_DELETED).
    pub fn watch_for_get(
        &self,
        hobj: Hobj,
        md: &Mqmd,
        gmo: &Mqgmo,
        waker: ArrivalWaker,
    ) -> MqResult<ArrivalWatch> {
        let handle = self.handle(hobj)?;
        let queue = self.queue_of(handle)?;
        let match_options = if gmo.version >= MQGMO_VERSION_2 {
            gmo.match_options
        } else {
            MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID
        };
        let by_key = gmo.options & (MQGMO_MSG_UNDER_CURSOR | MQGMO_BROWSE_MSG_UNDER_CURSOR) != 0;
        let selector = if handle.selection.is_some() || by_key {
            MessageSelector::default()
        } else {
            MessageSelector {
                message_id: (match_options & MQMO_MATCH_MSG_ID != 0 && md.msg_id != MQMI_NONE)
                    .then_some(md.msg_id),
                correlation_id: (match_options & MQMO_MATCH_CORREL_ID != 0
                    && md.correl_id != MQCI_NONE)
                    .then_some(md.correl_id),
                // Group conditions are the get's to apply: the watch wakes for any member
                // with these ids, and a get that still finds none looks again.
                ..MessageSelector::default()
            }
        };
        Ok(queue.watch_arrivals(selector, waker))
    }
}

/// The message a read-ahead get would send next ([`Connection::next_message_for_read_ahead`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextMessage {
    pub persistent: bool,
    /// Its MsgToken, for a handle without a SelectionString: a get with
    /// MQMO_MATCH_MSG_TOKEN takes exactly this message, so a persistent one that overtakes it
    /// by priority meanwhile stays on the queue. `None`: the handle's selector decides which
    /// message the get takes, so the answer is for the queue's first message only.
    pub token: Option<[u8; 16]>,
}

impl Connection {
    /// The message a get on `hobj` would take next (`None`: the queue holds none for it). For
    /// read-ahead, which sends only non-persistent messages ahead of the client's MQGETs.
    /// Looks at the queue in priority and arrival order, as the handle's lock holder sees it.
    pub fn next_message_for_read_ahead(&self, hobj: Hobj) -> MqResult<Option<NextMessage>> {
        let handle = self.handle(hobj)?;
        let queue = self.queue_of(handle)?;
        let exact = handle.selection.is_none();
        Ok(queue
            .browse_visible_to(handle.lock_holder, &MessageSelector::default(), None)
            .map(|entry| NextMessage {
                persistent: entry.persistent,
                token: exact.then(|| super::message_token(entry.key)),
            }))
    }
}
