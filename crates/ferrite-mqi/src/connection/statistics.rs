//! The message manager's statistics hook: each MQI call counted in the connection's own
//! record (ferrite-queue-manager's statistics/mqi.rs: relaxed atomics no other connection
//! writes), once per call, with its failure.

use ferrite_constants::ids::{MQCI_NONE, MQMI_NONE};
use ferrite_constants::match_options::{MQMO_MATCH_CORREL_ID, MQMO_MATCH_MSG_ID};
use ferrite_constants::persistence::MQPER_PERSISTENT;
use ferrite_mqi_types::GetResult;
use ferrite_queue_manager::statistics::MqiCounter;

use super::Connection;
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
}
