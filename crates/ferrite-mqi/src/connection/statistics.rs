//! The message manager's statistics hook: each MQI call counted in the connection's own
//! record (ferrite-queue-manager's statistics/mqi.rs: relaxed atomics no other connection
//! writes), once per call, with its failure.

use ferrite_constants::ids::{MQCI_NONE, MQMI_NONE};
use ferrite_constants::match_options::{MQMO_MATCH_CORREL_ID, MQMO_MATCH_MSG_ID};
use ferrite_constants::persistence::MQPER_PERSISTENT;
use ferrite_mqi_types::GetResult;
use ferrite_queue_manager::statistics::MqiCounter;

use std::sync::Arc;

use ferrite_queue_manager::statistics::QueueManagerAccounting;
use ferrite_queue_manager::LocalQueue;

use super::queue_accounting::{CallTiming, QueueAccounting};
use super::verb_accounting::Verb;
use super::{Connection, Hobj, ObjectHandle};
use crate::error::MqResult;
use crate::structures::{Mqgmo, Mqmd};

/// What kind of MQGET a call is, decided before it runs (its MQMD is output afterwards).
#[derive(Clone, Copy)]
pub(super) struct GetKind {
    browse: bool,
    /// By MsgId or CorrelId (MP16's get-specific), otherwise get-next.
    specific: bool,
}

impl GetKind {
    pub(super) fn of(md: &Mqmd, gmo: &Mqgmo, browse: bool) -> GetKind {
        let match_options = if gmo.version < 2 {
            MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID
        } else {
            gmo.match_options
        };
        let specific = (match_options & MQMO_MATCH_MSG_ID != 0 && md.msg_id != MQMI_NONE)
            || (match_options & MQMO_MATCH_CORREL_ID != 0 && md.correl_id != MQCI_NONE);
        GetKind { browse, specific }
    }
}

impl Connection {
    /// Count a call and, if it failed, its failure.
    pub(super) fn count_call<T>(&self, call: MqiCounter, failed: MqiCounter, result: &MqResult<T>) {
        self.record.mqi.call(call, failed, result.is_ok());
    }

    /// Count an MQGET: the call, a browse or a get, specific or next, and the message's
    /// persistence and bytes returned (`md` is the MQMD the call returned).
    pub(super) fn count_get(&self, kind: GetKind, md: &Mqmd, result: &MqResult<GetResult>) {
        let counters = &self.record.mqi;
        counters.call(MqiCounter::Get, MqiCounter::GetFailed, result.is_ok());
        if kind.browse {
            counters.add(MqiCounter::Browse, 1);
        }
        counters.add(
            if kind.specific {
                MqiCounter::GetSpecific
            } else {
                MqiCounter::GetNext
            },
            1,
        );
        if let Ok(got) = result {
            let persistent = md.persistence == MQPER_PERSISTENT;
            let (messages, bytes) = match (kind.browse, persistent) {
                (false, true) => (MqiCounter::PersistentGets, MqiCounter::PersistentGetBytes),
                (false, false) => (
                    MqiCounter::NonPersistentGets,
                    MqiCounter::NonPersistentGetBytes,
                ),
                (true, true) => (
                    MqiCounter::PersistentBrowses,
                    MqiCounter::PersistentBrowseBytes,
                ),
                (true, false) => (
                    MqiCounter::NonPersistentBrowses,
                    MqiCounter::NonPersistentBrowseBytes,
                ),
            };
            counters.add(messages, 1);
            counters.add(bytes, got.returned_length as u64);
        }
    }

    /// STATQ: an MQGET's browse or failure on the handle's local queue (a destructive get's
    /// message is counted by the queue itself).
    pub(super) fn count_queue_get(
        &self,
        hobj: Hobj,
        kind: GetKind,
        md: &Mqmd,
        result: &MqResult<GetResult>,
    ) {
        if let Some(super::Target::Queue(queue)) = self.handles.get(&hobj.0).map(|h| &h.target) {
            let returned = result
                .as_ref()
                .ok()
                .map(|got| (md.persistence == MQPER_PERSISTENT, got.returned_length));
            queue.count_get_call(kind.browse, returned);
        }
    }

    /// Class 1 accounting: the timing of a verb's call that starts (None without ACCTMQI).
    #[inline]
    pub(super) fn verb_timing(&mut self) -> Option<CallTiming> {
        self.verb_accounting
            .as_mut()
            .map(|accounting| accounting.start())
    }

    /// Class 1 accounting: a call of `verb` timed by `timing` ended.
    #[inline]
    pub(super) fn verb_timed(&mut self, verb: Verb, timing: Option<CallTiming>) {
        if let (Some(accounting), Some(timing)) = (self.verb_accounting.as_mut(), timing) {
            accounting.ended(verb, timing);
        }
    }

    /// An MQPUT1 that stored its message: persistent if this call counted a persistent
    /// message (`persistent_before` is the count before the call; only this connection's
    /// thread writes its record).
    pub(super) fn count_put1_message(&self, persistent_before: u64, completed: bool) {
        if !completed {
            return;
        }
        let counters = &self.record.mqi;
        let persistent = counters.snapshot_of(MqiCounter::PersistentPuts) > persistent_before;
        counters.add(
            if persistent {
                MqiCounter::Put1Persistent
            } else {
                MqiCounter::Put1NonPersistent
            },
            1,
        );
    }

    /// The persistent messages this connection has put so far.
    pub(super) fn persistent_puts(&self) -> u64 {
        self.record.mqi.snapshot_of(MqiCounter::PersistentPuts)
    }

    /// A message stored by MQPUT or MQPUT1.
    pub(super) fn count_message_put(&self, persistent: bool, bytes: usize) {
        self.record.mqi.message_put(persistent, bytes);
    }

    // ----- queue accounting (ACCTQ, queue_accounting.rs) --------------------------------------

    /// The accounting a new handle on `queue` keeps: the queue's ACCTQ(ON), or ACCTQ(QMGR)
    /// with the queue manager's ACCTQ(ON); never with the queue manager's ACCTQ(NONE).
    pub(super) fn queue_accounting_for(
        &mut self,
        queue: &Arc<LocalQueue>,
    ) -> Option<Box<QueueAccounting>> {
        let queue_manager = self.queue_manager.queue_manager_accounting();
        if queue_manager == QueueManagerAccounting::None {
            return None;
        }
        let accounted =
            queue.with_definition(|definition| match definition.accounting_queue.as_str() {
                "ON" => true,
                "OFF" => false,
                _ => queue_manager == QueueManagerAccounting::On,
            });
        accounted.then(|| {
            self.accounted_handles += 1;
            Box::new(QueueAccounting::opened(&queue.name()))
        })
    }

    /// `handle` is closing: its accounting joins the connection's totals.
    pub(super) fn account_closed(&mut self, handle: &mut ObjectHandle) {
        if let Some(accounting) = handle.accounting.take() {
            self.accounted_handles -= 1;
            self.queue_accounting.closed(*accounting);
        }
    }

    /// The timing of a call when any handle of the connection keeps accounting (one comparison
    /// when none does): a sample of the calls is timed (queue_accounting.rs), so the handle is
    /// looked up only once, when the call has run.
    #[inline]
    pub(super) fn accounting_timing(&mut self) -> Option<CallTiming> {
        if self.accounted_handles == 0 {
            return None;
        }
        Some(self.accounting_sampler.start())
    }

    /// An MQPUT on `hobj` timed by `timing`: stored persistent if this connection's persistent
    /// puts grew from `persistent_before`.
    pub(super) fn account_put(
        &mut self,
        hobj: Hobj,
        timing: CallTiming,
        persistent_before: u64,
        stored: Option<usize>,
    ) {
        let persistent = self.persistent_puts() > persistent_before;
        if let Some(accounting) = self
            .handles
            .get_mut(&hobj.0)
            .and_then(|handle| handle.accounting.as_mut())
        {
            accounting.put(stored.map(|bytes| (persistent, bytes)), timing);
        }
    }

    /// An MQGET on `hobj` timed by `timing`.
    pub(super) fn account_get(
        &mut self,
        hobj: Hobj,
        timing: CallTiming,
        kind: GetKind,
        md: &Mqmd,
        result: &MqResult<GetResult>,
    ) {
        let got = result
            .as_ref()
            .ok()
            .map(|got| (md.persistence == MQPER_PERSISTENT, got.returned_length));
        if let Some(accounting) = self
            .handles
            .get_mut(&hobj.0)
            .and_then(|handle| handle.accounting.as_mut())
        {
            accounting.get(kind.browse, kind.specific, got, timing);
        }
    }
}
