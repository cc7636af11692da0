//! A unit of work as an application (connection) holds it: the messages it put and got, and
//! its unit of recovery in the log once it has done something persistent.

use std::sync::{Arc, Mutex};

use crate::recovery::log_records::UrReference;
use crate::types::Urid;

use super::{PendingGet, PendingPut, UrRecord};

/// Everything one connection did since its last commit or backout.
#[derive(Default)]
pub struct UnitOfWork {
    /// Set by the first persistent operation: the RBA of its log record.
    pub(crate) urid: Option<Urid>,
    pub(crate) record: Option<Arc<Mutex<UrRecord>>>,
    pub(crate) puts: Vec<PendingPut>,
    pub(crate) gets: Vec<PendingGet>,
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

    pub(crate) fn reset(&mut self) {
        *self = UnitOfWork::default();
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
