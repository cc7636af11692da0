//! Read-ahead: one background thread per pool reads pages the data manager expects to need
//! soon, so the read overlaps other work (MP16 ch. 5 §1.1). Pages are read into stealable
//! buffers and left unpinned. Requests wait in a bounded queue of
//! [`super::READ_AHEAD_QUEUE_PAGES_MAX`] pages. When it is full, new requests are dropped.
//! Read-ahead is skipped while the pool is past its deferred write threshold, because it would
//! evict pages that are being used.

use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;

use super::{GetKind, PoolShared};
use crate::types::{PageNumber, PageSetId};

/// One page to read ahead.
#[derive(Copy, Clone, Debug)]
pub(super) struct ReadAheadRequest {
    pub page_set: PageSetId,
    pub page: PageNumber,
}

impl PoolShared {
    /// The body of the read-ahead thread. It ends when the pool drops the queue's sender.
    pub(super) fn run_read_ahead(&self, requests: Receiver<ReadAheadRequest>) {
        for request in requests {
            if self.shutting_down.load(Ordering::Acquire) {
                break;
            }
            if self.past_deferred_write_threshold() {
                continue;
            }
            // A failed read-ahead is not an error anyone waits for. A damaged page is reported
            // to the GETP that needs it.
            let _ = self.fetch(request.page_set, request.page, GetKind::ReadAhead);
        }
    }
}
