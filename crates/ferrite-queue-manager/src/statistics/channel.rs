//! Channel statistics (STATCHL): what MQ distributed's channel statistics message
//! (MQCMD_STATISTICS_CHANNEL) reports of each message channel instance for a statistics
//! interval: messages and bytes moved, full and incomplete batches and their average size,
//! put retries, and the network time of a sending channel's batch confirmations.
//!
//! A message channel asks for its counters when it starts ([`QueueManager::channel_statistics`]):
//! it gets a [`ChannelStatistics`] when its STATCHL (or, with STATCHL(QMGR), the queue
//! manager's) asks for statistics, and `None` otherwise (then it counts nothing, as MQ reads
//! STATCHL at channel start). The channel's MCA thread is the only writer of its counters
//! (relaxed atomics, a few per batch); each interval takes and zeroes them
//! ([`ChannelStatistics::take_interval`]). The queue manager keeps every instance started
//! since the last interval closed; an instance its channel no longer holds (the channel
//! ended) is reported for the last time, then forgotten.
//!
//! As in MQ, server-connection (client) channels write no channel statistics: STATCHL
//! belongs to message channels only.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::objects::message_channel::ChannelType;
use crate::queue_manager::QueueManager;
use crate::ChannelDefinition;

/// The most channel instances kept between two intervals (MQ's MAXCHL range ends at 9,999).
/// Past it, the ended instances are forgotten; an instance started while this many run
/// counts nothing.
pub const CHANNEL_STATISTICS_INSTANCES_MAX: usize = 9_999;

/// The counters of one running message channel instance.
#[derive(Debug)]
pub struct ChannelStatistics {
    pub channel: String,
    pub channel_type: ChannelType,
    /// The partner queue manager's name (RemoteQmgr).
    pub remote_queue_manager: String,
    /// The partner's address, `host(port)` (ConnectionName).
    pub connection_name: String,
    messages: AtomicU64,
    bytes: AtomicU64,
    full_batches: AtomicU64,
    incomplete_batches: AtomicU64,
    put_retries: AtomicU64,
    net_time_total_us: AtomicU64,
    net_time_count: AtomicU64,
    net_time_min_us: AtomicU64,
    net_time_max_us: AtomicU64,
}

/// One channel instance's figures for one interval.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChannelIntervalRecord {
    pub channel: String,
    /// MQCHT_* of the channel.
    pub channel_type: i32,
    /// The CHLTYPE keyword.
    pub channel_type_keyword: String,
    pub remote_queue_manager: String,
    pub connection_name: String,
    /// Messages sent or received.
    pub messages: u64,
    /// Bytes of those messages (their transmission queue headers included).
    pub bytes: u64,
    /// Batches ended because BATCHSZ or BATCHLIM was reached.
    pub full_batches: u64,
    /// Batches ended before either was reached.
    pub incomplete_batches: u64,
    /// Times a receiving MCA retried a put that failed (MRRTY).
    pub put_retries: u64,
    /// A sending channel's batch round trips (min, average, max µs), when it confirmed one.
    pub net_time_us: Option<(u64, u64, u64)>,
}

impl ChannelIntervalRecord {
    /// Messages per batch (MQ's AverageBatchSize), 0 without batches.
    pub fn average_batch_size(&self) -> u64 {
        let batches = self.full_batches + self.incomplete_batches;
        self.messages.checked_div(batches).unwrap_or(0)
    }
}

impl ChannelStatistics {
    fn new(
        definition: &ChannelDefinition,
        remote_queue_manager: &str,
        connection_name: &str,
    ) -> ChannelStatistics {
        assert!(definition.channel_type.is_message_channel());
        ChannelStatistics {
            channel: definition.name.clone(),
            channel_type: definition.channel_type,
            remote_queue_manager: remote_queue_manager.to_string(),
            connection_name: connection_name.to_string(),
            messages: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            full_batches: AtomicU64::new(0),
            incomplete_batches: AtomicU64::new(0),
            put_retries: AtomicU64::new(0),
            net_time_total_us: AtomicU64::new(0),
            net_time_count: AtomicU64::new(0),
            net_time_min_us: AtomicU64::new(u64::MAX),
            net_time_max_us: AtomicU64::new(0),
        }
    }

    /// One message of `bytes` sent or received.
    #[inline]
    pub fn message(&self, bytes: usize) {
        self.messages.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// One batch committed (received) or confirmed (sent); `full` when BATCHSZ or BATCHLIM
    /// ended it.
    #[inline]
    pub fn batch(&self, full: bool) {
        let counter = if full {
            &self.full_batches
        } else {
            &self.incomplete_batches
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// A put retried (MRRTY).
    pub fn put_retry(&self) {
        self.put_retries.fetch_add(1, Ordering::Relaxed);
    }

    /// One round trip: a batch's last message sent to its confirmation read.
    #[inline]
    pub fn net_time(&self, elapsed: Duration) {
        let us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        self.net_time_total_us.fetch_add(us, Ordering::Relaxed);
        self.net_time_count.fetch_add(1, Ordering::Relaxed);
        self.net_time_min_us.fetch_min(us, Ordering::Relaxed);
        self.net_time_max_us.fetch_max(us, Ordering::Relaxed);
    }

    /// The figures since the last call, and zero them (the interval closes).
    pub fn take_interval(&self) -> ChannelIntervalRecord {
        let take = |counter: &AtomicU64| counter.swap(0, Ordering::Relaxed);
        let count = take(&self.net_time_count);
        let total = take(&self.net_time_total_us);
        let min = self.net_time_min_us.swap(u64::MAX, Ordering::Relaxed);
        let max = take(&self.net_time_max_us);
        ChannelIntervalRecord {
            channel: self.channel.clone(),
            channel_type: self.channel_type.mqcht(),
            channel_type_keyword: self.channel_type.keyword().to_string(),
            remote_queue_manager: self.remote_queue_manager.clone(),
            connection_name: self.connection_name.clone(),
            messages: take(&self.messages),
            bytes: take(&self.bytes),
            full_batches: take(&self.full_batches),
            incomplete_batches: take(&self.incomplete_batches),
            put_retries: take(&self.put_retries),
            net_time_us: (count > 0).then(|| (min.min(max), total / count, max)),
        }
    }
}

/// The channel instances started since the last interval closed.
#[derive(Default)]
pub struct ChannelStatisticsRegistry {
    instances: Mutex<Vec<Arc<ChannelStatistics>>>,
}

impl ChannelStatisticsRegistry {
    fn register(&self, statistics: Arc<ChannelStatistics>) -> bool {
        let mut instances = self.instances.lock().unwrap();
        if instances.len() >= CHANNEL_STATISTICS_INSTANCES_MAX {
            // No interval closed for long (STATIME 0): the ended channels' last figures give
            // way to the running ones.
            instances.retain(|instance| Arc::strong_count(instance) > 1);
        }
        if instances.len() >= CHANNEL_STATISTICS_INSTANCES_MAX {
            return false;
        }
        instances.push(statistics);
        true
    }

    /// Every instance's figures for the interval that closes; the instances whose channel
    /// ended are forgotten.
    pub fn take_interval(&self) -> Vec<ChannelIntervalRecord> {
        let mut instances = self.instances.lock().unwrap();
        let records: Vec<ChannelIntervalRecord> = instances
            .iter()
            .map(|instance| instance.take_interval())
            .collect();
        instances.retain(|instance| Arc::strong_count(instance) > 1);
        records
    }
}

/// Whether a channel with STATCHL `channel` collects statistics under the queue manager's
/// STATCHL `queue_manager`.
pub fn channel_statistics_asked(channel: &str, queue_manager: &str) -> bool {
    match channel {
        "OFF" => false,
        "QMGR" => !matches!(queue_manager, "OFF" | "NONE"),
        _ => queue_manager != "NONE",
    }
}

impl QueueManager {
    /// A message channel instance starts (its partner `remote_queue_manager` at
    /// `connection_name`): its counters when its STATCHL asks for statistics. The channel
    /// holds them while it runs.
    pub fn channel_statistics(
        &self,
        definition: &ChannelDefinition,
        remote_queue_manager: &str,
        connection_name: &str,
    ) -> Option<Arc<ChannelStatistics>> {
        if !definition.channel_type.is_message_channel() {
            return None;
        }
        let queue_manager = self.queue_manager_attributes().statistics_channel;
        if !channel_statistics_asked(&definition.message.statistics, &queue_manager) {
            return None;
        }
        let statistics = Arc::new(ChannelStatistics::new(
            definition,
            remote_queue_manager,
            connection_name,
        ));
        self.statistics_state()
            .channels
            .register(statistics.clone())
            .then_some(statistics)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statchl_of_the_channel_and_the_queue_manager() {
        assert!(!channel_statistics_asked("QMGR", "OFF"));
        assert!(channel_statistics_asked("QMGR", "LOW"));
        assert!(channel_statistics_asked("HIGH", "OFF"));
        assert!(!channel_statistics_asked("HIGH", "NONE"));
        assert!(!channel_statistics_asked("OFF", "HIGH"));
    }

    #[test]
    fn an_interval_takes_the_counts_and_ended_channels_are_reported_once() {
        let registry = ChannelStatisticsRegistry::default();
        let definition = ChannelDefinition::of_type("TO.QM2", ChannelType::Sender);
        let statistics = Arc::new(ChannelStatistics::new(&definition, "QM2", "h(1)"));
        assert!(registry.register(statistics.clone()));
        for _ in 0..5 {
            statistics.message(100);
        }
        statistics.batch(true);
        statistics.batch(false);
        statistics.net_time(Duration::from_micros(300));
        statistics.net_time(Duration::from_micros(100));
        let records = registry.take_interval();
        assert_eq!(records.len(), 1);
        let record = &records[0];
        assert_eq!((record.messages, record.bytes), (5, 500));
        assert_eq!((record.full_batches, record.incomplete_batches), (1, 1));
        assert_eq!(record.average_batch_size(), 2);
        assert_eq!(record.net_time_us, Some((100, 200, 300)));
        assert_eq!(record.channel_type, 1);
        drop(statistics);
        let records = registry.take_interval();
        assert_eq!(records.len(), 1, "the ended channel's last interval");
        assert_eq!(records[0].messages, 0);
        assert_eq!(records[0].net_time_us, None);
        assert!(registry.take_interval().is_empty());
    }
}
