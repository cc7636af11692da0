//! Queue service interval events: the performance events that say whether a queue's messages
//! are taken off it within QSVCINT milliseconds. IBM MQ documents them in "Queue service
//! interval events", "Rules for queue service interval events" and the event references
//! "Queue Service Interval High" / "Queue Service Interval OK"; this module is those rules.
//!
//! # The service timer
//!
//! Each queue whose QSVCIEV is HIGH or OK (and the queue manager's PERFMEV ENABLED) has a
//! service timer, kept here (not stored: MQ restarts it at queue manager startup):
//!
//! - an MQPUT to an empty queue (CURDEPTH 1 after it, uncommitted puts counted as MQ's
//!   CURDEPTH counts them) starts it from zero; a put to a queue that is not empty leaves it;
//! - an MQGET that leaves the queue not empty restarts it from zero; one that leaves it empty
//!   switches it off;
//! - the resets happen "whether or not an event has been generated";
//! - at queue manager startup (when the MQI is first used on it: [`install`]) every non-empty
//!   queue with QSVCIEV HIGH or OK has its timer started, as MQ sets it "to startup time if
//!   the queue depth is greater than zero"; a queue first seen later with messages on it
//!   (QSVCIEV switched on meanwhile) has its timer started at that operation.
//!
//! A get operation is, as MQ defines it, "an MQGET call or an activity that removes a
//! message from a queue": a destructive MQGET, the removal of an expired message (at get or
//! by the EXPRYINT scan: [`after_removal`] from the expiry observer, [`super::install_expiry_observer`]),
//! and CLEAR QLOCAL (ferrite-command calls [`after_removal`]).
//!
//! The service time is the time since the timer started.
//!
//! # The events
//!
//! | QSVCIEV | checked at       | event when                  | reason                                | then        |
//! |---------|------------------|-----------------------------|---------------------------------------|-------------|
//! | HIGH    | the timer tick, an MQPUT or get | the service time > QSVCINT | MQRC_Q_SERVICE_INTERVAL_HIGH (2226) | QSVCIEV(OK) |
//! | OK      | a get operation   | the service time <= QSVCINT | MQRC_Q_SERVICE_INTERVAL_OK (2227)    | QSVCIEV(HIGH) |
//!
//! MQ generates the High event "on, or before, the next MQPUT or get operation". Ferrite
//! generates it from a timer: [`tick`] runs on the queue manager's background task (the one
//! that takes checkpoints and runs the EXPRYINT scan, no thread per queue) every
//! [`TIMER_RESOLUTION_MS`], so a High event comes at most that long after QSVCINT has passed
//! (later only while that task is busy with a checkpoint or an expiry scan). A put or get that
//! comes first still raises it, before the operation's own timer reset. Only a get can give an OK event, and a get after the interval has passed
//! gives none (MQ's example 2: "the service interval has now been exceeded and therefore an
//! OK event is not generated"). The switch flips are stored as ALTER QLOCAL stores them, so
//! DISPLAY QLOCAL shows QSVCIEV(OK) after a High event. Like every performance event, each
//! resets the queue's statistics and reports them (as RESET QSTATS does): the event message
//! is the depth events' PCF layout ([`super::depth_events`]) with the reason above —
//! QMgrName, QName (MQCA_BASE_Q_NAME), TimeSinceReset (seconds), HighQDepth, MsgEnqCount,
//! MsgDeqCount — put on SYSTEM.ADMIN.PERFM.EVENT.
//!
//! The timers live in memory (MQ keeps them in storage too); the High/OK switch they flip is
//! stored.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use ferrite_constants::reason::{MQRC_Q_SERVICE_INTERVAL_HIGH, MQRC_Q_SERVICE_INTERVAL_OK};
use ferrite_queue_manager::{
    now_ms, LocalQueue, QueueDefinition, QueueManager, TimerObserver, CHECKPOINT_POLL_INTERVAL_MS,
};

/// The service timer's resolution: [`tick`] runs at the background task's poll interval.
pub const TIMER_RESOLUTION_MS: u64 = CHECKPOINT_POLL_INTERVAL_MS;

/// A queue's QSVCIEV when it is HIGH or OK, with its QSVCINT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceIntervalSetting {
    /// QSVCIEV(HIGH): a High event is enabled; otherwise (OK) an OK event is.
    pub high_enabled: bool,
    /// QSVCINT, milliseconds.
    pub interval_ms: u32,
}

impl ServiceIntervalSetting {
    /// `None` for QSVCIEV(NONE): the put and get paths then do nothing more.
    pub fn of(definition: &QueueDefinition) -> Option<ServiceIntervalSetting> {
        let high_enabled = match definition.queue_service_interval_event.as_str() {
            "HIGH" => true,
            "OK" => false,
            _ => return None,
        };
        Some(ServiceIntervalSetting {
            high_enabled,
            interval_ms: definition.queue_service_interval,
        })
    }
}

/// Which operation reached the timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Put,
    Get,
}

/// Which service interval event is due, if any: pure, from the setting, the operation and
/// the service time (`None`: the timer is off).
pub fn event_due(
    setting: ServiceIntervalSetting,
    operation: Operation,
    service_time_ms: Option<u64>,
) -> Option<i32> {
    let service_time = service_time_ms?;
    let exceeded = service_time > u64::from(setting.interval_ms);
    match (setting.high_enabled, operation) {
        (true, _) if exceeded => Some(MQRC_Q_SERVICE_INTERVAL_HIGH),
        (false, Operation::Get) if !exceeded => Some(MQRC_Q_SERVICE_INTERVAL_OK),
        _ => None,
    }
}

/// Queue identity (its address) → the queue and when its service timer started (`None`: off).
type Timers = HashMap<usize, (Weak<LocalQueue>, Option<u64>)>;

fn timers() -> &'static Mutex<Timers> {
    static TIMERS: OnceLock<Mutex<Timers>> = OnceLock::new();
    TIMERS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The bound on the timer table: entries for queues that no longer exist are dropped when it
/// grows past this.
const TIMERS_PRUNE_AT: usize = 1024;

/// After a successful MQPUT to `queue`, whose QSVCIEV is HIGH or OK.
pub fn after_put(
    queue_manager: &QueueManager,
    queue: &Arc<LocalQueue>,
    setting: ServiceIntervalSetting,
) {
    operation(queue_manager, queue, setting, Operation::Put);
}

/// After a successful destructive MQGET from `queue`, whose QSVCIEV is HIGH or OK.
pub fn after_get(
    queue_manager: &QueueManager,
    queue: &Arc<LocalQueue>,
    setting: ServiceIntervalSetting,
) {
    operation(queue_manager, queue, setting, Operation::Get);
}

/// After a get operation other than MQGET removed messages from `queue` (an expired message
/// discarded, CLEAR QLOCAL): the service timer and events as for a get, when its QSVCIEV is
/// HIGH or OK.
pub fn after_removal(queue_manager: &QueueManager, queue: &Arc<LocalQueue>) {
    if let Some(setting) = queue.with_definition(ServiceIntervalSetting::of) {
        operation(queue_manager, queue, setting, Operation::Get);
    }
}

/// Run the service timers of `queue_manager` from its background task ([`tick`]) and start
/// the timers of its non-empty queues, as MQ does at startup. Idempotent: MQCONN calls it.
pub fn install(queue_manager: &QueueManager) {
    // One observer for every queue manager: MQCONN clones it (no allocation per connect).
    static OBSERVER: OnceLock<TimerObserver> = OnceLock::new();
    let observer = OBSERVER.get_or_init(|| Arc::new(tick)).clone();
    if !queue_manager.set_timer_observer(observer) {
        return;
    }
    let now = now_ms();
    let started: Vec<Arc<LocalQueue>> = queue_manager
        .queues()
        .into_iter()
        .filter(|queue| {
            queue.current_depth() > 0 && queue.with_definition(ServiceIntervalSetting::of).is_some()
        })
        .collect();
    let mut timers = timers().lock().unwrap();
    for queue in started {
        // The entry's `Weak` keeps the queue's allocation, so its address is its identity
        // while the entry exists.
        timers
            .entry(Arc::as_ptr(&queue) as usize)
            .or_insert_with(|| (Arc::downgrade(&queue), Some(now)));
    }
}

/// The timer tick: a Queue Service Interval High event for each queue of `queue_manager`
/// whose service time has passed its QSVCINT while QSVCIEV is HIGH. Cheap when no timer
/// runs: one lock of the timer table.
pub fn tick(queue_manager: &QueueManager) {
    let now = now_ms();
    let running: Vec<(Arc<LocalQueue>, u64)> = {
        let timers = timers().lock().unwrap();
        timers
            .values()
            .filter_map(|(weak, started)| Some((weak.upgrade()?, (*started)?)))
            .collect()
    };
    let due: Vec<Arc<LocalQueue>> = running
        .into_iter()
        .filter(|(queue, started)| {
            queue
                .with_definition(ServiceIntervalSetting::of)
                .is_some_and(|setting| {
                    event_due(setting, Operation::Put, Some(now.saturating_sub(*started)))
                        == Some(MQRC_Q_SERVICE_INTERVAL_HIGH)
                })
        })
        .map(|(queue, _)| queue)
        // The table is shared by every queue manager in the process: only this one's queues.
        .filter(|queue| {
            queue_manager
                .queue(queue.name_str())
                .is_some_and(|own| Arc::ptr_eq(&own, queue))
        })
        .collect();
    if due.is_empty() || !queue_manager.queue_manager_attributes().performance_events {
        return;
    }
    for queue in due {
        raise(queue_manager, &queue, MQRC_Q_SERVICE_INTERVAL_HIGH);
    }
}

fn operation(
    queue_manager: &QueueManager,
    queue: &Arc<LocalQueue>,
    setting: ServiceIntervalSetting,
    operation: Operation,
) {
    if !queue_manager.queue_manager_attributes().performance_events {
        return;
    }
    let now = now_ms();
    let depth = queue.current_depth();
    let due = {
        let mut timers = timers().lock().unwrap();
        if timers.len() >= TIMERS_PRUNE_AT {
            timers.retain(|_, (weak, _)| weak.strong_count() > 0);
        }
        let key = Arc::as_ptr(queue) as usize;
        let started = timers.get(&key).map(|(_, started)| *started);
        let service_time = started.flatten().map(|at| now.saturating_sub(at));
        let due = event_due(setting, operation, service_time);
        let restarted = match (operation, started) {
            // First seen: started now if the queue holds messages.
            (_, None) => (depth > 0).then_some(now),
            (Operation::Put, Some(None)) => Some(now),
            (Operation::Put, Some(Some(at))) => Some(if depth <= 1 { now } else { at }),
            (Operation::Get, Some(_)) => (depth > 0).then_some(now),
        };
        timers.insert(key, (Arc::downgrade(queue), restarted));
        due
    };
    if let Some(reason) = due {
        raise(queue_manager, queue, reason);
    }
}

/// Flip QSVCIEV as MQ does after the event `reason` (High → OK, OK → High), reset the
/// statistics and write the event message. Nothing when a concurrent call flipped it first.
fn raise(queue_manager: &QueueManager, queue: &Arc<LocalQueue>, reason: i32) {
    let (expected, next) = if reason == MQRC_Q_SERVICE_INTERVAL_HIGH {
        ("HIGH", "OK")
    } else {
        ("OK", "HIGH")
    };
    let flipped = queue_manager.update_queue_definition(queue, |definition| {
        if definition.queue_service_interval_event != expected {
            return Ok(false);
        }
        definition.queue_service_interval_event = next.to_string();
        Ok(true)
    });
    match flipped {
        // A concurrent call flipped it first (and raised the event).
        Ok(false) => return,
        Ok(true) => {}
        Err(error) => eprintln!(
            "ferrite service interval events: could not store QSVCIEV({next}) on {} \
             after event {reason}: {error}",
            queue.name_str()
        ),
    }
    let statistics = queue.reset_statistics(now_ms());
    super::write_performance_event(queue_manager, queue, reason, &statistics);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(high_enabled: bool) -> ServiceIntervalSetting {
        ServiceIntervalSetting {
            high_enabled,
            interval_ms: 100,
        }
    }

    #[test]
    fn high_on_put_or_get_past_the_interval() {
        let high = setting(true);
        assert_eq!(
            event_due(high, Operation::Put, Some(101)),
            Some(MQRC_Q_SERVICE_INTERVAL_HIGH)
        );
        assert_eq!(
            event_due(high, Operation::Get, Some(5_000)),
            Some(MQRC_Q_SERVICE_INTERVAL_HIGH)
        );
        assert_eq!(
            event_due(high, Operation::Get, Some(100)),
            None,
            "not greater"
        );
        assert_eq!(event_due(high, Operation::Put, None), None, "timer off");
    }

    #[test]
    fn ok_only_on_a_get_within_the_interval() {
        let ok = setting(false);
        assert_eq!(
            event_due(ok, Operation::Get, Some(100)),
            Some(MQRC_Q_SERVICE_INTERVAL_OK)
        );
        assert_eq!(event_due(ok, Operation::Get, Some(101)), None, "too late");
        assert_eq!(event_due(ok, Operation::Put, Some(1)), None, "a put never");
        assert_eq!(event_due(ok, Operation::Get, None), None, "timer off");
    }
}
