//! Messages the queue manager puts itself raise queue depth events like an application's
//! MQPUT: COA reports fill a reply queue to QDEPTHHI (outside and inside the unit of work of
//! the put that asked for them), dead letters fill the dead-letter queue to QDEPTHHI and then
//! MAXDEPTH (Queue Full), and the event queue itself raises nothing (MQ: performance events
//! "are not generated for the event queues themselves"), so an event never loops.

use ferrite_constants::{open_options::*, put_options::*, reason::*, report::*};
use ferrite_mqi::depth_events::PERFORMANCE_EVENT_QUEUE;
use ferrite_mqi::*;
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;
use std::sync::Arc;

const DEADQ: &str = "SYSTEM.DEAD.LETTER.QUEUE";

struct Setup {
    _directory: tempfile::TempDir,
    queue_manager: Arc<QueueManager>,
    monitor: Connection,
    event_queue: Hobj,
    application: Connection,
}

/// QM1 with PERFMEV enabled, the performance event queue served by `monitor`, and `queues`.
fn setup(queues: &[&str]) -> Setup {
    let (directory, queue_manager) = queue_manager(&[PERFORMANCE_EVENT_QUEUE]);
    for name in queues {
        define(&queue_manager, QueueDefinition::local(name, PageSetId(1)));
    }
    let mut attributes = queue_manager.queue_manager_attributes();
    attributes.performance_events = true;
    queue_manager.alter_queue_manager(attributes).unwrap();
    let mut monitor = Connection::connect(queue_manager.clone(), "").unwrap();
    let event_queue = monitor
        .open(&mut Mqod::queue(PERFORMANCE_EVENT_QUEUE), MQOO_INPUT_SHARED)
        .unwrap();
    let application = Connection::connect(queue_manager.clone(), "").unwrap();
    Setup {
        _directory: directory,
        queue_manager,
        monitor,
        event_queue,
        application,
    }
}

impl Setup {
    /// MAXDEPTH(`max_depth`) QDEPTHHI(`high_percent`) QDPHIEV(ENABLED) QDPMAXEV(ENABLED).
    fn depth_events(&self, name: &str, max_depth: u32, high_percent: u32) {
        let mut definition = self.queue_manager.queue(name).unwrap().definition();
        definition.max_depth = max_depth;
        definition.queue_depth_high_event = true;
        definition.queue_depth_high_limit = high_percent;
        definition.queue_depth_max_event = true;
        self.queue_manager.alter_queue(definition).unwrap();
    }

    fn put(&mut self, queue: &str, md: &mut Mqmd, options: i32) {
        put_to_queue(&mut self.application, queue, md, options, b"work");
    }

    /// The (reason, queue) of each event on the event queue, taken off it.
    fn events(&mut self) -> Vec<(i32, String)> {
        let mut found = Vec::new();
        for buffer in performance_events(&mut self.monitor, self.event_queue) {
            let int =
                |offset: usize| i32::from_le_bytes(buffer[offset..offset + 4].try_into().unwrap());
            let queue = String::from_utf8_lossy(&buffer[124..172])
                .trim_end()
                .to_string();
            found.push((int(28), queue));
        }
        found
    }
}

fn asking(report: i32, reply_to_q: &str) -> Mqmd {
    Mqmd {
        report,
        reply_to_q: reply_to_q.into(),
        ..Mqmd::default()
    }
}

#[test]
fn report_messages_raise_queue_depth_high_on_their_reply_queue() {
    let mut s = setup(&["APP.Q", "APP.REPLY"]);
    s.depth_events("APP.REPLY", 4, 50);
    s.put(
        "APP.Q",
        &mut asking(MQRO_COA, "APP.REPLY"),
        MQPMO_NO_SYNCPOINT,
    );
    assert!(s.events().is_empty(), "1 of 4 is below 50%");
    s.put(
        "APP.Q",
        &mut asking(MQRO_COA, "APP.REPLY"),
        MQPMO_NO_SYNCPOINT,
    );
    assert_eq!(s.events(), [(MQRC_Q_DEPTH_HIGH, "APP.REPLY".to_string())]);
    let reply = s.queue_manager.queue("APP.REPLY").unwrap().definition();
    assert!(!reply.queue_depth_high_event, "flipped as after an MQPUT");
    assert!(reply.queue_depth_low_event);
}

#[test]
fn a_report_in_a_unit_of_work_raises_its_event_at_the_put() {
    // MQ: puts in a unit of work raise performance events whether it commits or backs out.
    let mut s = setup(&["APP.Q", "APP.REPLY"]);
    s.depth_events("APP.REPLY", 1, 100);
    s.put("APP.Q", &mut asking(MQRO_COA, "APP.REPLY"), MQPMO_SYNCPOINT);
    assert_eq!(s.events(), [(MQRC_Q_DEPTH_HIGH, "APP.REPLY".to_string())]);
    s.application.backout().unwrap();
    assert_eq!(s.queue_manager.queue("APP.REPLY").unwrap().depth(), 0);
}

#[test]
fn dead_letters_raise_depth_high_then_queue_full_on_the_dead_letter_queue() {
    // The reply queue refuses the reports, so they go to DEADQ (MAXDEPTH 2).
    let mut s = setup(&["APP.Q", "APP.REPLY", DEADQ]);
    let mut reply = s.queue_manager.queue("APP.REPLY").unwrap().definition();
    reply.put_inhibited = true;
    s.queue_manager.alter_queue(reply).unwrap();
    s.depth_events(DEADQ, 2, 100);
    for _ in 0..2 {
        s.put(
            "APP.Q",
            &mut asking(MQRO_COA, "APP.REPLY"),
            MQPMO_NO_SYNCPOINT,
        );
    }
    assert_eq!(s.events(), [(MQRC_Q_DEPTH_HIGH, DEADQ.to_string())]);
    // The third report finds DEADQ full: it is discarded (and logged), and Queue Full raised.
    s.put(
        "APP.Q",
        &mut asking(MQRO_COA, "APP.REPLY"),
        MQPMO_NO_SYNCPOINT,
    );
    assert_eq!(s.queue_manager.queue(DEADQ).unwrap().depth(), 2);
    assert_eq!(s.events(), [(MQRC_Q_FULL, DEADQ.to_string())]);
}

#[test]
fn the_event_queue_itself_raises_no_performance_event() {
    let mut s = setup(&["APP.Q"]);
    s.depth_events("APP.Q", 10, 10);
    // The event queue holds one message and would report reaching it, and being full.
    s.depth_events(PERFORMANCE_EVENT_QUEUE, 1, 100);
    s.put("APP.Q", &mut Mqmd::default(), MQPMO_NO_SYNCPOINT); // Queue Depth High for APP.Q
    let event_queue = s.queue_manager.queue(PERFORMANCE_EVENT_QUEUE).unwrap();
    assert_eq!(event_queue.depth(), 1, "only APP.Q's event");
    let definition = event_queue.definition();
    assert!(
        definition.queue_depth_high_event && definition.queue_depth_max_event,
        "no event flipped the event queue's switches"
    );
    // An application's put to the full event queue raises no Queue Full either.
    let hobj = s
        .application
        .open(&mut Mqod::queue(PERFORMANCE_EVENT_QUEUE), MQOO_OUTPUT)
        .unwrap();
    let refused = s
        .application
        .put(
            hobj,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"x",
        )
        .unwrap_err();
    assert_eq!(refused.reason, MQRC_Q_FULL);
    assert!(event_queue.definition().queue_depth_max_event);
    assert_eq!(s.events(), [(MQRC_Q_DEPTH_HIGH, "APP.Q".to_string())]);
}
