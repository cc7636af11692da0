//! Queue service interval events through the MQI: MQ's three documented examples ("Queue
//! service interval events: example 1/2/3"), the QSVCIEV flips, the event message's PCF
//! parameters and the statistics reset, and the cases that must give no event (PERFMEV
//! disabled, QSVCIEV(NONE), a get within the interval while High is enabled, a put while OK
//! is enabled, a timer switched off by a get that empties the queue), the High event raised by
//! the timer with no operation on the queue, and expiry as a get operation.

use std::thread::sleep;
use std::time::Duration;

use ferrite_constants::reason::*;
use ferrite_constants::{get_options::*, open_options::*, put_options::*};
use ferrite_mqi::depth_events::PERFORMANCE_EVENT_QUEUE;
use ferrite_mqi::*;
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

const Q: &str = "APP.Q";
/// QSVCINT in these tests; the sleeps that pass it are twice as long.
const INTERVAL_MS: u32 = 150;

fn past_the_interval() {
    sleep(Duration::from_millis(u64::from(INTERVAL_MS) * 2));
}

/// One event message's MQCFH reason and its parameters, by parameter id.
#[derive(Debug)]
struct Event {
    reason: i32,
    queue_manager: String,
    queue: String,
    integers: Vec<(i32, i32)>,
}

impl Event {
    fn integer(&self, parameter: i32) -> i32 {
        self.integers
            .iter()
            .find(|(id, _)| *id == parameter)
            .unwrap_or_else(|| panic!("parameter {parameter} in {self:?}"))
            .1
    }
}

struct Setup {
    _directory: tempfile::TempDir,
    queue_manager: std::sync::Arc<QueueManager>,
    monitor: Connection,
    event_queue: Hobj,
    application: Connection,
    hobj: Hobj,
}

fn setup(event: &str, performance_events: bool) -> Setup {
    setup_with_interval(event, performance_events, INTERVAL_MS)
}

fn setup_with_interval(event: &str, performance_events: bool, interval_ms: u32) -> Setup {
    let (directory, queue_manager) = queue_manager(&[PERFORMANCE_EVENT_QUEUE]);
    define(
        &queue_manager,
        QueueDefinition {
            queue_service_interval_event: event.into(),
            queue_service_interval: interval_ms,
            ..QueueDefinition::local(Q, PageSetId(1))
        },
    );
    let mut attributes = queue_manager.queue_manager_attributes();
    attributes.performance_events = performance_events;
    queue_manager.alter_queue_manager(attributes).unwrap();
    let mut monitor = Connection::connect(queue_manager.clone(), "").unwrap();
    let event_queue = monitor
        .open(&mut Mqod::queue(PERFORMANCE_EVENT_QUEUE), MQOO_INPUT_SHARED)
        .unwrap();
    let mut application = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = application
        .open(&mut Mqod::queue(Q), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    Setup {
        _directory: directory,
        queue_manager,
        monitor,
        event_queue,
        application,
        hobj,
    }
}

impl Setup {
    fn put(&mut self) {
        self.application
            .put(
                self.hobj,
                &mut Mqmd::default(),
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                b"m",
            )
            .unwrap();
    }

    fn put_expiring(&mut self, expiry_tenths: i32) {
        self.application
            .put(
                self.hobj,
                &mut Mqmd {
                    expiry: expiry_tenths,
                    ..Mqmd::default()
                },
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                b"m",
            )
            .unwrap();
    }

    /// Waits up to `limit` for an event message to arrive, and leaves it on the queue.
    fn wait_for_event(&mut self, limit: Duration) {
        let event_queue = self.queue_manager.queue(PERFORMANCE_EVENT_QUEUE).unwrap();
        let started = std::time::Instant::now();
        while event_queue.current_depth() == 0 {
            assert!(started.elapsed() < limit, "no event within {limit:?}");
            sleep(Duration::from_millis(5));
        }
    }

    fn get(&mut self) {
        self.application
            .get(
                self.hobj,
                &mut Mqmd::default(),
                &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
                &mut [0u8; 16],
            )
            .unwrap();
    }

    fn setting(&self) -> String {
        self.queue_manager
            .queue(Q)
            .unwrap()
            .definition()
            .queue_service_interval_event
    }

    /// The events on SYSTEM.ADMIN.PERFM.EVENT (taken off it), decoded from their PCF.
    fn events(&mut self) -> Vec<Event> {
        let mut found = Vec::new();
        for buffer in performance_events(&mut self.monitor, self.event_queue) {
            let int =
                |offset: usize| i32::from_le_bytes(buffer[offset..offset + 4].try_into().unwrap());
            // MQCFH: MQCFT_EVENT, length 36, version 1, MQCMD_PERFM_EVENT, ...,
            // CompCode MQCC_WARNING, Reason, ParameterCount 6.
            assert_eq!(
                [int(0), int(4), int(8), int(12), int(24), int(32)],
                [7, 36, 1, 45, 1, 6]
            );
            let text = |offset: usize| {
                String::from_utf8_lossy(&buffer[offset..offset + 48])
                    .trim_end()
                    .to_string()
            };
            // MQCA_Q_MGR_NAME then MQCA_BASE_Q_NAME (2002).
            assert_eq!((int(44), int(112)), (2015, 2002));
            let integers = (0..4)
                .map(|i| (int(172 + i * 16 + 8), int(172 + i * 16 + 12)))
                .collect();
            found.push(Event {
                reason: int(28),
                queue_manager: text(56),
                queue: text(124),
                integers,
            });
        }
        found
    }

    fn reasons(&mut self) -> Vec<i32> {
        self.events()
            .into_iter()
            .map(|event| event.reason)
            .collect()
    }
}

#[test]
fn example_1_high_at_a_late_get_then_ok_at_a_prompt_one() {
    let mut s = setup("HIGH", true);
    s.put(); // P1: the timer starts
             // The timer raises High once QSVCINT has passed, "on, or before" G1.
    s.wait_for_event(Duration::from_secs(10));
    s.get(); // G1: later than QSVCINT: no OK event
    let events = s.events();
    assert_eq!(events.len(), 1);
    let high = &events[0];
    assert_eq!(high.reason, MQRC_Q_SERVICE_INTERVAL_HIGH);
    assert_eq!(high.queue, Q);
    assert_eq!(high.queue_manager, s.queue_manager.name());
    use ferrite_constants::selector::*;
    assert_eq!(high.integer(MQIA_MSG_ENQ_COUNT), 1);
    assert_eq!(high.integer(MQIA_MSG_DEQ_COUNT), 0, "raised before G1");
    assert_eq!(high.integer(MQIA_HIGH_Q_DEPTH), 1);
    assert!(high.integer(MQIA_TIME_SINCE_RESET) >= 0);
    assert_eq!(s.setting(), "OK", "a High event enables OK events");
    s.put(); // P2: the timer starts again
    s.get(); // G2: within QSVCINT
    let events = s.events();
    assert_eq!(
        events.iter().map(|e| e.reason).collect::<Vec<_>>(),
        [MQRC_Q_SERVICE_INTERVAL_OK]
    );
    // The High event reset the statistics: the OK event counts from there.
    assert_eq!(events[0].integer(MQIA_MSG_ENQ_COUNT), 1);
    assert_eq!(events[0].integer(MQIA_MSG_DEQ_COUNT), 2);
    assert_eq!(s.setting(), "HIGH", "an OK event enables High events");
}

#[test]
fn example_2_no_ok_event_for_a_get_after_the_interval() {
    let mut s = setup("OK", true);
    s.put(); // P1 starts the timer
    s.put(); // P2: a put never gives an OK event
    assert!(s.reasons().is_empty());
    past_the_interval();
    s.get(); // G1: the interval was exceeded, so no OK event; the timer restarts
    assert!(s.reasons().is_empty());
    assert_eq!(s.setting(), "OK");
    s.get(); // G2: within the interval of G1
    assert_eq!(s.reasons(), [MQRC_Q_SERVICE_INTERVAL_OK]);
    assert_eq!(s.setting(), "HIGH");
}

#[test]
fn example_3_high_at_a_late_put_then_ok_once_gets_keep_up() {
    let mut s = setup("HIGH", true);
    s.put(); // P1 starts the timer
    s.put(); // P2 within the interval: nothing
    assert!(s.reasons().is_empty());
    past_the_interval();
    s.put(); // P3: no get within the interval, so High at this put
    assert_eq!(s.reasons(), [MQRC_Q_SERVICE_INTERVAL_HIGH]);
    assert_eq!(s.setting(), "OK");
    s.get(); // G1: still timed from P1, too late for OK; restarts the timer
    assert!(s.reasons().is_empty());
    s.get(); // G2 within the interval of G1: OK
    assert_eq!(s.reasons(), [MQRC_Q_SERVICE_INTERVAL_OK]);
    s.get(); // G3 empties the queue: High is enabled again, and in time
    assert!(s.reasons().is_empty());
}

#[test]
fn an_empty_queue_stops_the_timer() {
    let mut s = setup("HIGH", true);
    s.put();
    s.get(); // in time, and the queue is empty: the timer is off
    past_the_interval();
    s.put(); // a put to an empty queue starts it afresh: no High for the idle time
    s.get();
    assert!(s.reasons().is_empty());
    // A put to a queue that is not empty does not restart it.
    s.put();
    past_the_interval();
    s.put();
    assert_eq!(s.reasons(), [MQRC_Q_SERVICE_INTERVAL_HIGH]);
}

#[test]
fn no_event_without_perfmev_or_with_qsvciev_none() {
    for (event, performance_events) in [("HIGH", false), ("NONE", true)] {
        let mut s = setup(event, performance_events);
        s.put();
        past_the_interval();
        s.put();
        s.get();
        s.get();
        assert!(
            s.reasons().is_empty(),
            "QSVCIEV({event}) with PERFMEV {performance_events}"
        );
        assert_eq!(s.setting(), event, "nothing flips");
    }
}

#[test]
fn the_timer_raises_high_with_no_operation_on_the_queue() {
    let mut s = setup("HIGH", true);
    s.put(); // the timer starts; nothing else touches the queue
    let started = std::time::Instant::now();
    s.wait_for_event(Duration::from_secs(10));
    assert!(started.elapsed() >= Duration::from_millis(u64::from(INTERVAL_MS)));
    assert_eq!(s.reasons(), [MQRC_Q_SERVICE_INTERVAL_HIGH]);
    assert_eq!(s.setting(), "OK");
    // High once: the timer does not raise it again while QSVCIEV is OK.
    past_the_interval();
    assert!(s.reasons().is_empty());
}

#[test]
fn the_timer_stays_quiet_within_the_interval_and_when_high_is_not_enabled() {
    let mut s = setup("OK", true);
    s.put();
    past_the_interval();
    assert!(s.reasons().is_empty(), "the timer gives no OK event");
    let mut s = setup("HIGH", false);
    s.put();
    past_the_interval();
    assert!(s.reasons().is_empty(), "PERFMEV disabled");
    assert_eq!(s.setting(), "HIGH");
}

#[test]
fn an_expired_message_removed_is_a_get_operation() {
    // QSVCINT 1.5 s; the message expires after 0.2 s and its removal empties the queue, so
    // the timer goes off and no High event follows.
    let mut s = setup_with_interval("HIGH", true, 1_500);
    s.put_expiring(2);
    sleep(Duration::from_millis(300));
    let error = s
        .application
        .get(
            s.hobj,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut [0u8; 16],
        )
        .unwrap_err();
    assert_eq!(error.reason, MQRC_NO_MSG_AVAILABLE, "the message expired");
    sleep(Duration::from_millis(2_000));
    assert!(s.reasons().is_empty(), "the removal stopped the timer");
    assert_eq!(s.setting(), "HIGH");

    // With OK enabled, the removal within the interval is the get that gives the OK event.
    let mut s = setup_with_interval("OK", true, 5_000);
    s.put_expiring(2);
    sleep(Duration::from_millis(300));
    s.application
        .get(
            s.hobj,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut [0u8; 16],
        )
        .unwrap_err();
    assert_eq!(s.reasons(), [MQRC_Q_SERVICE_INTERVAL_OK]);
    assert_eq!(s.setting(), "HIGH");
}

#[test]
fn a_queue_with_messages_at_startup_has_its_timer_started() {
    let mut s = setup("HIGH", true);
    s.application
        .put(
            s.hobj,
            &mut Mqmd {
                persistence: ferrite_constants::persistence::MQPER_PERSISTENT,
                ..Mqmd::default()
            },
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"kept",
        )
        .unwrap();
    // Restart before the interval passes: the timer is in memory only.
    let Setup {
        _directory: directory,
        queue_manager,
        monitor,
        application,
        ..
    } = s;
    monitor.disconnect().unwrap();
    application.disconnect().unwrap();
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = open(directory.path());
    assert_eq!(queue_manager.queue(Q).unwrap().current_depth(), 1);
    // The first MQCONN starts the MQI's timers; nothing touches APP.Q after it.
    let monitor = Connection::connect(queue_manager.clone(), "").unwrap();
    let event_queue = queue_manager.queue(PERFORMANCE_EVENT_QUEUE).unwrap();
    let started = std::time::Instant::now();
    while event_queue.current_depth() == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no High event for the queue non-empty since startup"
        );
        sleep(Duration::from_millis(5));
    }
    assert_eq!(
        queue_manager
            .queue(Q)
            .unwrap()
            .definition()
            .queue_service_interval_event,
        "OK"
    );
    monitor.disconnect().unwrap();
}
