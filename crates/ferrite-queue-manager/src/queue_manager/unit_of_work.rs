//! A unit of work as an application (connection) holds it: the messages it put and got, and
//! its unit of recovery in the log once it has done something persistent.

use std::sync::{Arc, Mutex};

use ferrite_storage::log_records::UrReference;
use ferrite_storage::types::Urid;

use super::{PendingGet, PendingPut, UrRecord};

/// Everything one connection did since its last commit or backout.
#[derive(Default)]
pub struct UnitOfWork {
    /// Set by the first persistent operation: the RBA of its log record.
    pub(crate) urid: Option<Urid>,
    pub(crate) record: Option<Arc<Mutex<UrRecord>>>,
    pub(crate) puts: Vec<PendingPut>,
    pub(crate) gets: Vec<PendingGet>,
    /// The queue reference the last commit released, kept for the next put or get to the same
    /// queue ([`UnitOfWork::queue_reference`]): a connection committing every message then
    /// changes the queue's reference count — a cache line every putter and getter of the
    /// queue writes — not at all, rather than once at the put and once at the commit. It only
    /// delays freeing a queue deleted meanwhile until this unit moves on or ends.
    pub(crate) spare_queue: Option<Arc<super::LocalQueue>>,
    /// Messages put or got so far (MAXUMSGS applies to it).
    pub(crate) message_count: u32,
    pub(crate) prepared: bool,
}

impl UnitOfWork {
    pub fn new() -> UnitOfWork {
        UnitOfWork::default()
    }

    pub(crate) fn in_doubt(urid: Urid) -> UnitOfWork {
        UnitOfWork {
            urid: Some(urid),
            prepared: true,
            ..UnitOfWork::default()
        }
    }

    /// How the next persistent log record refers to this unit of recovery.
    pub(crate) fn ur_reference(&self) -> UrReference {
        match self.urid {
            None => UrReference::Begins,
            Some(urid) => UrReference::Continues(urid),
        }
    }

    /// A reference to `queue` for the unit's pending lists: the spare one when it is the same
    /// queue, otherwise a new one.
    pub(crate) fn queue_reference(
        &mut self,
        queue: &Arc<super::LocalQueue>,
    ) -> Arc<super::LocalQueue> {
        match self.spare_queue.take() {
            Some(spare) if Arc::ptr_eq(&spare, queue) => spare,
            _ => {
                #[cfg(test)]
                tests::REFERENCES_TAKEN.with(|taken| taken.set(taken.get() + 1));
                queue.clone()
            }
        }
    }

    pub fn urid(&self) -> Option<Urid> {
        self.urid
    }

    pub fn message_count(&self) -> u32 {
        self.message_count
    }

    /// The queues and priorities of the messages this unit of work got that a backout returns
    /// to their queues (not one got with MQGMO_MARK_SKIP_BACKOUT): triggering checks them.
    pub fn reinstated_on_backout(&self) -> impl Iterator<Item = (&Arc<super::LocalQueue>, u8)> {
        self.gets
            .iter()
            .filter(|get| !get.skip_backout)
            .map(|get| (&get.queue, get.entry.key.priority()))
    }

    pub fn is_empty(&self) -> bool {
        self.puts.is_empty() && self.gets.is_empty() && self.urid.is_none()
    }

    /// Start afresh, keeping the lists' memory: a connection committing every message
    /// allocates them once, not twice per unit of work.
    ///
    /// Field by field in place (every field named, so a new one cannot be forgotten), rather
    /// than building a new unit and moving it over this one.
    pub(crate) fn reset(&mut self) {
        let UnitOfWork {
            urid,
            record,
            puts,
            gets,
            spare_queue: _,
            message_count,
            prepared,
        } = self;
        *urid = None;
        *record = None;
        puts.clear();
        gets.clear();
        *message_count = 0;
        *prepared = false;
    }
}

impl std::fmt::Debug for UnitOfWork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UnitOfWork")
            .field("urid", &self.urid)
            .field("puts", &self.puts.len())
            .field("gets", &self.gets.len())
            .field("prepared", &self.prepared)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue_manager::{LocalQueue, QueueDefinition};
    use ferrite_storage::types::PageSetId;

    thread_local! {
        /// New references `queue_reference` took on this thread (the reuse itself leaves no
        /// other trace: a clone and the spare's drop balance the count).
        pub(super) static REFERENCES_TAKEN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    fn taken() -> u64 {
        REFERENCES_TAKEN.with(|taken| taken.get())
    }

    fn pending_entry(sequence: u64) -> crate::queue_manager::MessageEntry {
        crate::queue_manager::MessageEntry {
            key: crate::queue_manager::MessageKey::new(0, sequence),
            storage: crate::queue_manager::MessageStorage::Pages(
                ferrite_storage::log_records::MessageLocation {
                    page_set: PageSetId(1),
                    page: ferrite_storage::types::PageNumber(2),
                    offset: 32,
                },
            ),
            persistent: false,
            message_id: [sequence as u8; 24],
            correlation_id: [0; 24],
            expires_at_ms: None,
            backout_count: 0,
            group: None,
        }
    }

    #[test]
    fn a_reset_unit_is_empty_and_keeps_its_lists_memory_and_spare_queue() {
        let queue = Arc::new(LocalQueue::new(
            1,
            QueueDefinition::local("A", PageSetId(1)),
        ));
        let mut unit = UnitOfWork::in_doubt(Urid(ferrite_storage::types::Rba(7)));
        unit.message_count = 3;
        unit.record = Some(Arc::new(Mutex::new(crate::queue_manager::UrRecord {
            state: crate::queue_manager::UrState::InFlight,
            operations: Vec::new(),
        })));
        unit.puts.reserve(8);
        unit.gets.reserve(8);
        // One pending put and one pending get, so a reset that forgot either list leaves the
        // unit non-empty.
        unit.puts.push(PendingPut {
            queue: queue.clone(),
            entry: pending_entry(1),
            put_time_ms: 0,
        });
        unit.gets.push(PendingGet {
            queue: queue.clone(),
            entry: pending_entry(2),
            skip_backout: false,
        });
        unit.spare_queue = Some(queue.clone());
        unit.reset();
        assert!(unit.puts.is_empty() && unit.gets.is_empty());
        assert!(unit.is_empty());
        assert_eq!(
            (unit.urid, unit.message_count, unit.prepared),
            (None, 0, false)
        );
        assert!(unit.record.is_none());
        assert!(unit.puts.capacity() >= 8 && unit.gets.capacity() >= 8);
        assert!(unit
            .spare_queue
            .as_ref()
            .is_some_and(|spare| Arc::ptr_eq(spare, &queue)));
    }

    #[test]
    fn the_spare_queue_reference_is_reused_for_the_same_queue_only() {
        let queue = Arc::new(LocalQueue::new(
            1,
            QueueDefinition::local("A", PageSetId(1)),
        ));
        let other = Arc::new(LocalQueue::new(
            2,
            QueueDefinition::local("B", PageSetId(1)),
        ));
        let mut unit = UnitOfWork::new();
        let first = unit.queue_reference(&queue);
        assert_eq!(Arc::strong_count(&queue), 2);
        // A commit leaves the reference as the spare; a reset keeps it.
        unit.spare_queue = Some(first);
        unit.reset();
        assert!(unit.is_empty(), "a spare reference is no work");
        let taken_before = taken();
        let again = unit.queue_reference(&queue);
        assert_eq!(taken(), taken_before, "the spare was reused, not cloned");
        assert_eq!(Arc::strong_count(&queue), 2);
        assert!(unit.spare_queue.is_none());
        // Another queue: a new reference, and the spare for the first one is let go.
        unit.spare_queue = Some(again);
        let for_other = unit.queue_reference(&other);
        assert_eq!(taken(), taken_before + 1);
        assert!(Arc::ptr_eq(&for_other, &other));
        assert_eq!(Arc::strong_count(&queue), 1);
        assert_eq!(Arc::strong_count(&other), 2);
    }
}
