//! Messages the queue manager puts itself go through the trigger conditions like an
//! application's MQPUT: report messages (outside and inside the unit of work of the put that
//! asked for them), dead letters, and event messages trigger their queues; a trigger message
//! on an initiation queue never triggers (no loop).

use ferrite_constants::{format::MQFMT_TRIGGER, open_options::*, put_options::*, report::*};
use ferrite_message::trigger_message::TriggerMessage;
use ferrite_mqi::depth_events::PERFORMANCE_EVENT_QUEUE;
use ferrite_mqi::*;
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;
use std::sync::Arc;

const INITQ: &str = "APP.INITQ";
const DEADQ: &str = "SYSTEM.DEAD.LETTER.QUEUE";

struct Setup {
    _directory: tempfile::TempDir,
    queue_manager: Arc<QueueManager>,
    monitor: Connection,
    initq: Hobj,
    application: Connection,
}

fn setup(queues: &[&str]) -> Setup {
    let (directory, queue_manager) = queue_manager(&[INITQ]);
    for name in queues {
        define(&queue_manager, QueueDefinition::local(name, PageSetId(1)));
    }
    let mut monitor = Connection::connect(queue_manager.clone(), "").unwrap();
    let initq = monitor
        .open(&mut Mqod::queue(INITQ), MQOO_INPUT_SHARED)
        .unwrap();
    let application = Connection::connect(queue_manager.clone(), "").unwrap();
    Setup {
        _directory: directory,
        queue_manager,
        monitor,
        initq,
        application,
    }
}

impl Setup {
    /// TRIGGER TRIGTYPE(FIRST) INITQ(APP.INITQ) on `name`, keeping its other attributes.
    fn trigger(&self, name: &str) {
        let mut definition = self.queue_manager.queue(name).unwrap().definition();
        definition.trigger_control = true;
        definition.trigger_type = "FIRST".into();
        definition.initiation_queue = INITQ.into();
        self.queue_manager.alter_queue(definition).unwrap();
    }

    fn put(&mut self, queue: &str, md: &mut Mqmd, options: i32) {
        put_to_queue(&mut self.application, queue, md, options, b"work");
    }

    /// The queues named by the trigger messages on the initiation queue (taken off it).
    fn triggered_queues(&mut self) -> Vec<String> {
        let mut found = Vec::new();
        for (md, buffer) in
            get_until_empty(&mut self.monitor, self.initq, 2048, "the initiation queue")
        {
            assert_eq!(md.format, MQFMT_TRIGGER);
            let order = ByteOrder::from_mq_encoding(md.encoding).unwrap();
            let trigger = TriggerMessage::decode(&buffer, order).unwrap();
            found.push(trigger.q_name);
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
fn a_report_message_triggers_its_reply_queue() {
    let mut s = setup(&["APP.Q", "APP.REPLY"]);
    s.trigger("APP.REPLY");
    s.put(
        "APP.Q",
        &mut asking(MQRO_COA, "APP.REPLY"),
        MQPMO_NO_SYNCPOINT,
    );
    assert_eq!(s.queue_manager.queue("APP.REPLY").unwrap().depth(), 1);
    assert_eq!(s.triggered_queues(), ["APP.REPLY"]);
}

#[test]
fn a_report_in_a_unit_of_work_triggers_when_the_unit_ends() {
    let mut s = setup(&["APP.Q", "APP.REPLY"]);
    s.trigger("APP.REPLY");
    s.put("APP.Q", &mut asking(MQRO_COA, "APP.REPLY"), MQPMO_SYNCPOINT);
    assert!(s.triggered_queues().is_empty(), "held until the unit ends");
    s.application.commit().unwrap();
    assert_eq!(s.triggered_queues(), ["APP.REPLY"]);
}

#[test]
fn a_dead_letter_triggers_the_dead_letter_queue() {
    // The reply queue refuses the report, so it goes to DEADQ, whose TRIGGER is on.
    let mut s = setup(&["APP.Q", "APP.REPLY", DEADQ]);
    s.trigger(DEADQ);
    let mut reply = s.queue_manager.queue("APP.REPLY").unwrap().definition();
    reply.put_inhibited = true;
    s.queue_manager.alter_queue(reply).unwrap();
    s.put(
        "APP.Q",
        &mut asking(MQRO_COA, "APP.REPLY"),
        MQPMO_NO_SYNCPOINT,
    );
    assert_eq!(s.queue_manager.queue(DEADQ).unwrap().depth(), 1);
    assert_eq!(s.triggered_queues(), [DEADQ]);
}

#[test]
fn an_event_message_triggers_the_event_queue() {
    let mut s = setup(&["APP.Q", PERFORMANCE_EVENT_QUEUE]);
    s.trigger(PERFORMANCE_EVENT_QUEUE);
    let mut attributes = s.queue_manager.queue_manager_attributes();
    attributes.performance_events = true;
    s.queue_manager.alter_queue_manager(attributes).unwrap();
    let mut queue = s.queue_manager.queue("APP.Q").unwrap().definition();
    queue.max_depth = 2;
    queue.queue_depth_high_event = true;
    queue.queue_depth_high_limit = 100;
    s.queue_manager.alter_queue(queue).unwrap();
    s.put("APP.Q", &mut Mqmd::default(), MQPMO_NO_SYNCPOINT);
    s.put("APP.Q", &mut Mqmd::default(), MQPMO_NO_SYNCPOINT); // Queue Depth High
    assert_eq!(
        s.queue_manager
            .queue(PERFORMANCE_EVENT_QUEUE)
            .unwrap()
            .depth(),
        1
    );
    assert_eq!(s.triggered_queues(), [PERFORMANCE_EVENT_QUEUE]);
}

#[test]
fn a_trigger_message_on_a_triggered_initiation_queue_triggers_nothing() {
    // APP.INITQ has TRIGGER on with its own initiation queue (APP.INITQ2, served); the trigger
    // message it receives for APP.Q must not start a chain of trigger messages.
    let mut s = setup(&["APP.Q", "APP.INITQ2"]);
    s.trigger("APP.Q");
    let mut initq = s.queue_manager.queue(INITQ).unwrap().definition();
    initq.trigger_control = true;
    initq.trigger_type = "EVERY".into();
    initq.initiation_queue = "APP.INITQ2".into();
    s.queue_manager.alter_queue(initq).unwrap();
    let second = s
        .monitor
        .open(&mut Mqod::queue("APP.INITQ2"), MQOO_INPUT_SHARED)
        .unwrap();
    s.put("APP.Q", &mut Mqmd::default(), MQPMO_NO_SYNCPOINT);
    assert_eq!(s.triggered_queues(), ["APP.Q"]);
    assert_eq!(s.queue_manager.queue("APP.INITQ2").unwrap().depth(), 0);
    s.monitor.close(second, 0).unwrap();
}
