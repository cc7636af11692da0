//! The message manager's counters (MQ for z/OS's QMST, SMF 115): MQI calls by verb, the
//! persistent and non-persistent messages put and their bytes, with what MQ distributed's
//! MQCMD_STATISTICS_MQI adds (failures, browses, get-specific and get-next, commits).
//!
//! Each connection counts its own calls in its [`ConnectionRecord`](crate::ConnectionRecord)
//! (relaxed atomics only that connection writes, with a plain load and store: no locked
//! instruction and no shared cache line on the MQI path); the
//! registry adds a connection's counts to its totals when the connection ends, so the queue
//! manager's counts are those totals plus every live connection's.

use std::sync::atomic::{AtomicU64, Ordering};

/// One counter of [`MqiCounters`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum MqiCounter {
    Conn,
    ConnFailed,
    Disc,
    Open,
    OpenFailed,
    Close,
    CloseFailed,
    Put,
    PutFailed,
    Put1,
    Put1Failed,
    PersistentPuts,
    NonPersistentPuts,
    PersistentPutBytes,
    NonPersistentPutBytes,
    Get,
    GetFailed,
    GetSpecific,
    GetNext,
    Browse,
    NonPersistentGetBytes,
    Inq,
    InqFailed,
    Set,
    SetFailed,
    Commit,
    CommitFailed,
    Backout,
    Status,
    Put1Persistent,
    Put1NonPersistent,
    PersistentGets,
    NonPersistentGets,
    PersistentBrowses,
    NonPersistentBrowses,
    NonPersistentBrowseBytes,
    PersistentGetBytes,
    PersistentBrowseBytes,
    // Publish/subscribe (MQ distributed's STATMQI pub/sub fields).
    SubscribeDurableCreate,
    SubscribeDurableAlter,
    SubscribeDurableResume,
    SubscribeNonDurableCreate,
    SubscribeNonDurableAlter,
    SubscribeNonDurableResume,
    SubscribeFailed,
    UnsubscribeDurable,
    UnsubscribeNonDurable,
    PersistentTopicPuts,
    NonPersistentTopicPuts,
    TopicPutFailed,
    PersistentPublished,
    NonPersistentPublished,
}

/// Every counter with its name in the statistics records: MQSMF's and mq-smf-csv's QMST names
/// where MQ for z/OS has the field (Open, Close, Get, Put, Put1, Inq, Set, Status, PersPuts,
/// NonPersPuts, PersPutBytes, NonPersPutBytes), otherwise the MQCMD_STATISTICS_MQI
/// parameter's meaning in the same style.
pub const MQI_COUNTERS: [(MqiCounter, &str); MQI_COUNTER_COUNT] = [
    (MqiCounter::Conn, "Conn"),
    (MqiCounter::ConnFailed, "Conn_Failed"),
    (MqiCounter::Disc, "Disc"),
    (MqiCounter::Open, "Open"),
    (MqiCounter::OpenFailed, "Open_Failed"),
    (MqiCounter::Close, "Close"),
    (MqiCounter::CloseFailed, "Close_Failed"),
    (MqiCounter::Put, "Put"),
    (MqiCounter::PutFailed, "Put_Failed"),
    (MqiCounter::Put1, "Put1"),
    (MqiCounter::Put1Failed, "Put1_Failed"),
    (MqiCounter::PersistentPuts, "PersPuts"),
    (MqiCounter::NonPersistentPuts, "NonPersPuts"),
    (MqiCounter::PersistentPutBytes, "PersPutBytes"),
    (MqiCounter::NonPersistentPutBytes, "NonPersPutBytes"),
    (MqiCounter::Get, "Get"),
    (MqiCounter::GetFailed, "Get_Failed"),
    (MqiCounter::GetSpecific, "Get_Specific"),
    (MqiCounter::GetNext, "Get_Next"),
    (MqiCounter::Browse, "Browse"),
    (MqiCounter::NonPersistentGetBytes, "NonPersGetBytes"),
    (MqiCounter::Inq, "Inq"),
    (MqiCounter::InqFailed, "Inq_Failed"),
    (MqiCounter::Set, "Set"),
    (MqiCounter::SetFailed, "Set_Failed"),
    (MqiCounter::Commit, "Commit"),
    (MqiCounter::CommitFailed, "Commit_Failed"),
    (MqiCounter::Backout, "Backout"),
    (MqiCounter::Status, "Status"),
    (MqiCounter::Put1Persistent, "Put1_Pers"),
    (MqiCounter::Put1NonPersistent, "Put1_NonPers"),
    (MqiCounter::PersistentGets, "PersGets"),
    (MqiCounter::NonPersistentGets, "NonPersGets"),
    (MqiCounter::PersistentBrowses, "PersBrowses"),
    (MqiCounter::NonPersistentBrowses, "NonPersBrowses"),
    (MqiCounter::NonPersistentBrowseBytes, "NonPersBrowseBytes"),
    (MqiCounter::PersistentGetBytes, "PersGetBytes"),
    (MqiCounter::PersistentBrowseBytes, "PersBrowseBytes"),
    (MqiCounter::SubscribeDurableCreate, "Sub_Dur_Create"),
    (MqiCounter::SubscribeDurableAlter, "Sub_Dur_Alter"),
    (MqiCounter::SubscribeDurableResume, "Sub_Dur_Resume"),
    (MqiCounter::SubscribeNonDurableCreate, "Sub_NDur_Create"),
    (MqiCounter::SubscribeNonDurableAlter, "Sub_NDur_Alter"),
    (MqiCounter::SubscribeNonDurableResume, "Sub_NDur_Resume"),
    (MqiCounter::SubscribeFailed, "Sub_Failed"),
    (MqiCounter::UnsubscribeDurable, "Unsub_Dur"),
    (MqiCounter::UnsubscribeNonDurable, "Unsub_NDur"),
    (MqiCounter::PersistentTopicPuts, "PersTopicPuts"),
    (MqiCounter::NonPersistentTopicPuts, "NonPersTopicPuts"),
    (MqiCounter::TopicPutFailed, "TopicPut_Failed"),
    (MqiCounter::PersistentPublished, "PersPublished"),
    (MqiCounter::NonPersistentPublished, "NonPersPublished"),
];

/// How many counters there are.
pub const MQI_COUNTER_COUNT: usize = 52;

/// The live counters of one connection (or the totals of ended ones).
#[derive(Debug)]
pub struct MqiCounters {
    counts: [AtomicU64; MQI_COUNTER_COUNT],
}

impl Default for MqiCounters {
    fn default() -> MqiCounters {
        MqiCounters {
            counts: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

impl MqiCounters {
    /// Add `by` to `counter`. Contract: one writer, the connection that owns these counters
    /// (readers may be many): a load and a store rather than a locked read-modify-write, which
    /// costs the MQI path several nanoseconds a counter. Counters that many threads add to
    /// (the totals of ended connections) take [`MqiCounters::absorb`].
    #[inline]
    pub fn add(&self, counter: MqiCounter, by: u64) {
        let count = &self.counts[counter as usize];
        count.store(
            count.load(Ordering::Relaxed).wrapping_add(by),
            Ordering::Relaxed,
        );
    }

    /// Count one call of `call`, and one failure in `failed` when it did not complete.
    #[inline]
    pub fn call(&self, call: MqiCounter, failed: MqiCounter, completed: bool) {
        self.add(call, 1);
        if !completed {
            self.add(failed, 1);
        }
    }

    /// One message stored by MQPUT or MQPUT1, of `bytes` bytes.
    #[inline]
    pub fn message_put(&self, persistent: bool, bytes: usize) {
        let (messages, byte_counter) = if persistent {
            (MqiCounter::PersistentPuts, MqiCounter::PersistentPutBytes)
        } else {
            (
                MqiCounter::NonPersistentPuts,
                MqiCounter::NonPersistentPutBytes,
            )
        };
        self.add(messages, 1);
        self.add(byte_counter, bytes as u64);
    }

    /// One counter now.
    pub fn snapshot_of(&self, counter: MqiCounter) -> u64 {
        self.counts[counter as usize].load(Ordering::Relaxed)
    }

    /// The counts now.
    pub fn snapshot(&self) -> MqiStatistics {
        MqiStatistics {
            counts: std::array::from_fn(|index| self.counts[index].load(Ordering::Relaxed)),
        }
    }

    /// Add another's counts to these (a connection that ended, into the registry's totals).
    pub fn absorb(&self, other: &MqiStatistics) {
        for (count, value) in self.counts.iter().zip(other.counts) {
            count.fetch_add(value, Ordering::Relaxed);
        }
    }
}

/// A snapshot of [`MqiCounters`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MqiStatistics {
    pub counts: [u64; MQI_COUNTER_COUNT],
}

impl Default for MqiStatistics {
    fn default() -> MqiStatistics {
        MqiStatistics {
            counts: [0; MQI_COUNTER_COUNT],
        }
    }
}

impl MqiStatistics {
    pub fn get(&self, counter: MqiCounter) -> u64 {
        self.counts[counter as usize]
    }

    /// The sum of two snapshots.
    pub fn plus(&self, other: &MqiStatistics) -> MqiStatistics {
        MqiStatistics {
            counts: std::array::from_fn(|index| self.counts[index] + other.counts[index]),
        }
    }

    /// What was counted since `earlier` (counters only grow).
    pub fn since(&self, earlier: &MqiStatistics) -> MqiStatistics {
        MqiStatistics {
            counts: std::array::from_fn(|index| {
                self.counts[index].saturating_sub(earlier.counts[index])
            }),
        }
    }

    /// Every counter with its record name, in [`MQI_COUNTERS`] order.
    pub fn named(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        MQI_COUNTERS
            .iter()
            .map(|(counter, name)| (*name, self.get(*counter)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_every_counter_in_order() {
        for (index, (counter, _)) in MQI_COUNTERS.iter().enumerate() {
            assert_eq!(*counter as usize, index);
        }
        let mut names: Vec<&str> = MQI_COUNTERS.iter().map(|(_, name)| *name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), MQI_COUNTER_COUNT);
    }

    #[test]
    fn calls_failures_and_messages_are_counted() {
        let counters = MqiCounters::default();
        counters.call(MqiCounter::Put, MqiCounter::PutFailed, true);
        counters.call(MqiCounter::Put, MqiCounter::PutFailed, false);
        counters.message_put(true, 100);
        counters.message_put(false, 7);
        let first = counters.snapshot();
        assert_eq!(first.get(MqiCounter::Put), 2);
        assert_eq!(first.get(MqiCounter::PutFailed), 1);
        assert_eq!(first.get(MqiCounter::PersistentPuts), 1);
        assert_eq!(first.get(MqiCounter::PersistentPutBytes), 100);
        assert_eq!(first.get(MqiCounter::NonPersistentPutBytes), 7);
        counters.call(MqiCounter::Get, MqiCounter::GetFailed, true);
        let second = counters.snapshot();
        let interval = second.since(&first);
        assert_eq!(interval.get(MqiCounter::Get), 1);
        assert_eq!(interval.get(MqiCounter::Put), 0);
        let totals = MqiCounters::default();
        totals.absorb(&second);
        assert_eq!(totals.snapshot(), second);
        assert_eq!(second.plus(&first).get(MqiCounter::Put), 4);
    }
}
