//! Triggering through the MQI: every condition of MQ's "Conditions for a trigger event" that
//! Ferrite applies, the trigger message's content, the cases that must not trigger, syncpoint
//! (uncommitted messages counted, trigger messages held until the unit of work ends, FIRST
//! and DEPTH delivered at backout too), messages a backout returns, DEPTH resetting TRIGGER,
//! TRIGINT, and who counts as having a queue open for input.

use ferrite_constants::{
    encoding::MQENC_NATIVE, format::*, get_options::*, open_options::*, persistence::*,
    put_options::*, reason::*,
};
use ferrite_message::trigger_message::TriggerMessage;
use ferrite_mqi::*;
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::{ObjectDefinition, ProcessDefinition, QueueDefinition, QueueManager};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;
use std::sync::Arc;

const INITQ: &str = "APP.INITQ";
const PROCESS: &str = "APP.PROCESS";

/// A queue manager with an initiation queue, a process, and a trigger monitor connection that
/// has the initiation queue open for input.
struct Setup {
    _directory: tempfile::TempDir,
    queue_manager: Arc<QueueManager>,
    monitor: Connection,
    initq: Hobj,
    application: Connection,
}

fn setup() -> Setup {
    let (directory, queue_manager) = queue_manager(&[INITQ]);
    queue_manager
        .define_object(
            ObjectDefinition::Process(ProcessDefinition {
                application_type: "UNIX".into(),
                application_id: "/opt/app/server".into(),
                environment_data: "env data".into(),
                user_data: "user data".into(),
                ..ProcessDefinition::new(PROCESS)
            }),
            false,
        )
        .unwrap();
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

fn triggered(name: &str, trigger_type: &str) -> QueueDefinition {
    QueueDefinition {
        trigger_control: true,
        trigger_type: trigger_type.into(),
        initiation_queue: INITQ.into(),
        process_name: PROCESS.into(),
        trigger_data: format!("data for {name}"),
        ..QueueDefinition::local(name, PageSetId(1))
    }
}

impl Setup {
    fn define(&self, definition: QueueDefinition) {
        define(&self.queue_manager, definition);
    }

    fn open_output(&mut self, name: &str) -> Hobj {
        self.application
            .open(&mut Mqod::queue(name), MQOO_OUTPUT)
            .unwrap()
    }

    fn put(&mut self, hobj: Hobj, priority: i32, options: i32) {
        let mut md = Mqmd {
            priority,
            persistence: MQPER_NOT_PERSISTENT,
            ..Mqmd::default()
        };
        self.application
            .put(hobj, &mut md, &mut Mqpmo::with_options(options), b"work")
            .unwrap();
    }

    fn put_now(&mut self, name: &str) {
        let hobj = self.open_output(name);
        self.put(hobj, 0, MQPMO_NO_SYNCPOINT);
        self.application.close(hobj, 0).unwrap();
    }

    /// Every trigger message on the initiation queue (taken off it), checking each one's MQMD.
    fn trigger_messages(&mut self) -> Vec<TriggerMessage> {
        let mut found = Vec::new();
        for (md, buffer) in
            get_until_empty(&mut self.monitor, self.initq, 2048, "the initiation queue")
        {
            assert_eq!(md.format, MQFMT_TRIGGER);
            assert_eq!(md.persistence, MQPER_NOT_PERSISTENT);
            assert_eq!(md.encoding, MQENC_NATIVE);
            assert_eq!(buffer.len(), 684);
            let order = ByteOrder::from_mq_encoding(md.encoding).unwrap();
            found.push(TriggerMessage::decode(&buffer, order).unwrap());
        }
        found
    }

    fn trigger_count(&mut self) -> usize {
        self.trigger_messages().len()
    }
}

#[test]
fn first_triggers_when_the_queue_goes_from_empty_to_one_message() {
    let mut s = setup();
    s.define(triggered("APP.Q", "FIRST"));
    s.put_now("APP.Q");
    let messages = s.trigger_messages();
    assert_eq!(
        messages,
        [TriggerMessage {
            q_name: "APP.Q".into(),
            process_name: PROCESS.into(),
            trigger_data: "data for APP.Q".into(),
            appl_type: ferrite_constants::appl_type::MQAT_UNIX,
            appl_id: "/opt/app/server".into(),
            env_data: "env data".into(),
            user_data: "user data".into(),
        }]
    );
    // Not empty any more: no trigger (TRIGINT's default is over eleven days).
    s.put_now("APP.Q");
    assert_eq!(s.trigger_count(), 0);
}

#[test]
fn conditions_that_prevent_a_trigger() {
    let mut s = setup();
    // NOTRIGGER.
    s.define(QueueDefinition {
        trigger_control: false,
        ..triggered("OFF.Q", "FIRST")
    });
    // TRIGTYPE(NONE).
    s.define(triggered("NONE.Q", "NONE"));
    // A message below TRIGMPRI.
    s.define(QueueDefinition {
        trigger_message_priority: 5,
        ..triggered("PRIORITY.Q", "FIRST")
    });
    // GET(DISABLED).
    s.define(QueueDefinition {
        get_inhibited: true,
        ..triggered("GETOFF.Q", "FIRST")
    });
    // INITQ names no queue; INITQ blank.
    s.define(QueueDefinition {
        initiation_queue: "NO.SUCH.INITQ".into(),
        ..triggered("NOINITQ.Q", "FIRST")
    });
    s.define(QueueDefinition {
        initiation_queue: String::new(),
        ..triggered("BLANKINITQ.Q", "FIRST")
    });
    // PROCESS names no process.
    s.define(QueueDefinition {
        process_name: "NO.SUCH.PROCESS".into(),
        ..triggered("NOPROCESS.Q", "FIRST")
    });
    for name in [
        "OFF.Q",
        "NONE.Q",
        "GETOFF.Q",
        "NOINITQ.Q",
        "BLANKINITQ.Q",
        "NOPROCESS.Q",
    ] {
        s.put_now(name);
        assert_eq!(s.trigger_count(), 0, "{name} must not trigger");
    }
    let hobj = s.open_output("PRIORITY.Q");
    s.put(hobj, 4, MQPMO_NO_SYNCPOINT);
    assert_eq!(s.trigger_count(), 0, "priority 4 is below TRIGMPRI 5");
    // Eligible messages are counted from TRIGMPRI: the queue holds none yet, so this is FIRST.
    s.put(hobj, 5, MQPMO_NO_SYNCPOINT);
    assert_eq!(s.trigger_count(), 1, "priority 5 reaches TRIGMPRI 5");

    // A queue open for input by a server does not trigger (FIRST, DEPTH).
    s.define(triggered("SERVED.Q", "FIRST"));
    let mut server = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let served = server
        .open(&mut Mqod::queue("SERVED.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    s.put_now("SERVED.Q");
    assert_eq!(s.trigger_count(), 0, "a server has SERVED.Q open");
    // ... until the server closes it with the message still there.
    server.close(served, 0).unwrap();
    assert_eq!(s.trigger_count(), 1, "the last input handle closed");

    // An initiation queue never triggers, even when its own attributes would.
    s.define(QueueDefinition {
        initiation_queue: INITQ.into(),
        ..triggered("OTHER.INITQ", "EVERY")
    });
    s.define(QueueDefinition {
        initiation_queue: "OTHER.INITQ".into(),
        ..triggered("USES.OTHER.Q", "FIRST")
    });
    s.put_now("OTHER.INITQ");
    assert_eq!(s.trigger_count(), 0, "OTHER.INITQ is an initiation queue");
}

#[test]
fn no_trigger_without_a_trigger_monitor_until_one_opens_the_initiation_queue() {
    let mut s = setup();
    s.monitor.close(s.initq, 0).unwrap();
    s.define(triggered("APP.Q", "FIRST"));
    s.put_now("APP.Q");
    assert_eq!(s.queue_manager.queue(INITQ).unwrap().depth(), 0);
    // The monitor comes back: the pending FIRST condition triggers now.
    s.initq = s
        .monitor
        .open(&mut Mqod::queue(INITQ), MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(s.trigger_count(), 1);
    // Opening it again while nothing changed triggers again: MQ checks at every open.
    let again = s
        .monitor
        .open(&mut Mqod::queue(INITQ), MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(s.trigger_count(), 1);
    s.monitor.close(again, 0).unwrap();
}

#[test]
fn a_unit_of_work_holds_its_trigger_messages_until_it_ends() {
    // MQ, "Trigger messages and units of work": a trigger event caused by a put in a unit of
    // work is made available when the unit is resolved, committed or (FIRST and DEPTH)
    // backed out.
    let mut s = setup();
    s.define(triggered("APP.Q", "FIRST"));
    s.define(triggered("EVERY.Q", "EVERY"));
    s.define(QueueDefinition {
        trigger_depth: 2,
        ..triggered("DEPTH.Q", "DEPTH")
    });
    let hobj = s.open_output("APP.Q");
    let every = s.open_output("EVERY.Q");
    let depth = s.open_output("DEPTH.Q");
    s.put(hobj, 0, MQPMO_SYNCPOINT);
    s.put(every, 0, MQPMO_SYNCPOINT);
    s.put(every, 0, MQPMO_SYNCPOINT);
    s.put(depth, 0, MQPMO_SYNCPOINT);
    s.put(depth, 0, MQPMO_SYNCPOINT);
    assert_eq!(
        s.trigger_count(),
        0,
        "nothing is available before the unit ends"
    );
    assert!(
        !s.queue_manager
            .queue("DEPTH.Q")
            .unwrap()
            .definition()
            .trigger_control,
        "DEPTH's trigger event happened at the put: NOTRIGGER is set already"
    );
    s.application.backout().unwrap();
    let mut queues: Vec<String> = s.trigger_messages().into_iter().map(|m| m.q_name).collect();
    queues.sort();
    assert_eq!(
        queues,
        ["APP.Q", "DEPTH.Q"],
        "FIRST and DEPTH trigger messages survive the backout; EVERY's do not"
    );
    s.put(hobj, 0, MQPMO_SYNCPOINT);
    s.put(hobj, 0, MQPMO_SYNCPOINT);
    s.put(every, 0, MQPMO_SYNCPOINT);
    s.put(every, 0, MQPMO_SYNCPOINT);
    s.application.commit().unwrap();
    let queues: Vec<String> = s.trigger_messages().into_iter().map(|m| m.q_name).collect();
    assert_eq!(queues.iter().filter(|q| *q == "APP.Q").count(), 1);
    assert_eq!(queues.iter().filter(|q| *q == "EVERY.Q").count(), 2);
}

#[test]
fn uncommitted_messages_count_for_first() {
    // MQ's own example: a FIRST trigger from one unit of work's put; another unit's put sees
    // the queue holding one (uncommitted) message and does not trigger; the first unit backs
    // out and the second commits: the one trigger message is still delivered.
    let mut s = setup();
    s.define(triggered("APP.Q", "FIRST"));
    let first = s.open_output("APP.Q");
    let mut other = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let second = other.open(&mut Mqod::queue("APP.Q"), MQOO_OUTPUT).unwrap();
    s.put(first, 0, MQPMO_SYNCPOINT);
    put_with(&mut other, second, 0, MQPMO_SYNCPOINT);
    // A put outside syncpoint on a queue holding only uncommitted messages: not empty.
    put_with(&mut other, second, 0, MQPMO_NO_SYNCPOINT);
    assert_eq!(s.trigger_count(), 0);
    s.application.backout().unwrap();
    assert_eq!(
        s.trigger_count(),
        1,
        "the FIRST trigger survives the backout"
    );
    other.commit().unwrap();
    assert_eq!(
        s.trigger_count(),
        0,
        "the second unit's put was no trigger event"
    );
}

#[test]
fn uncommitted_messages_count_for_depth_and_trigmpri() {
    let mut s = setup();
    s.define(QueueDefinition {
        trigger_depth: 3,
        trigger_message_priority: 5,
        ..triggered("DEPTH.Q", "DEPTH")
    });
    let hobj = s.open_output("DEPTH.Q");
    s.put(hobj, 5, MQPMO_SYNCPOINT);
    s.put(hobj, 9, MQPMO_SYNCPOINT);
    let mut other = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let theirs = other
        .open(&mut Mqod::queue("DEPTH.Q"), MQOO_OUTPUT)
        .unwrap();
    put_with(&mut other, theirs, 4, MQPMO_NO_SYNCPOINT);
    assert_eq!(s.trigger_count(), 0, "priority 4 is below TRIGMPRI");
    put_with(&mut other, theirs, 6, MQPMO_NO_SYNCPOINT);
    assert_eq!(
        s.trigger_count(),
        1,
        "two uncommitted and one committed eligible message reach TRIGDPTH 3"
    );
    s.application.commit().unwrap();
    assert_eq!(s.trigger_count(), 0, "the commit is no trigger event");
}

#[test]
fn trigger_conditions_are_checked_at_the_put_in_a_unit_of_work() {
    // The put in the unit of work is the trigger event: a server that opens the queue for
    // input before the commit does not stop the trigger message the put caused.
    let mut s = setup();
    s.define(triggered("APP.Q", "FIRST"));
    let hobj = s.open_output("APP.Q");
    s.put(hobj, 0, MQPMO_SYNCPOINT);
    let mut server = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let served = server
        .open(&mut Mqod::queue("APP.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    s.application.commit().unwrap();
    assert_eq!(s.trigger_count(), 1);
    // While the server has it open, puts in a unit of work trigger nothing at commit.
    server.close(served, 0).unwrap();
    assert_eq!(
        s.trigger_count(),
        1,
        "the last input handle closed on a message"
    );
    let served = server
        .open(&mut Mqod::queue("APP.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    s.put(hobj, 0, MQPMO_SYNCPOINT);
    s.application.commit().unwrap();
    assert_eq!(s.trigger_count(), 0, "a server had APP.Q open at the put");
    server.close(served, 0).unwrap();
}

fn put_with(connection: &mut Connection, hobj: Hobj, priority: i32, options: i32) {
    let mut md = Mqmd {
        priority,
        persistence: MQPER_NOT_PERSISTENT,
        ..Mqmd::default()
    };
    connection
        .put(hobj, &mut md, &mut Mqpmo::with_options(options), b"work")
        .unwrap();
}

fn get_with(connection: &mut Connection, hobj: Hobj, options: i32) {
    get_sized(connection, hobj, options, 64).unwrap();
}

#[test]
fn messages_returned_by_a_backout_trigger_once_no_server_has_the_queue() {
    let mut s = setup();
    s.define(triggered("APP.Q", "FIRST"));
    s.put_now("APP.Q");
    assert_eq!(s.trigger_count(), 1);
    // A server takes the message in a unit of work and closes the queue: it is empty, so the
    // close does not trigger; the backout returns the message and that triggers.
    let mut server = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let served = server
        .open(&mut Mqod::queue("APP.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    get_with(&mut server, served, MQGMO_SYNCPOINT);
    server.close(served, 0).unwrap();
    assert_eq!(s.trigger_count(), 0, "the queue was empty at the close");
    server.backout().unwrap();
    assert_eq!(
        s.trigger_count(),
        1,
        "MQBACK made the message available again"
    );

    // Must not trigger: the backout while the server still has the queue open for input.
    let served = server
        .open(&mut Mqod::queue("APP.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    get_with(&mut server, served, MQGMO_SYNCPOINT);
    server.backout().unwrap();
    assert_eq!(s.trigger_count(), 0, "a server has APP.Q open");

    // Must not trigger: a message got with MARK_SKIP_BACKOUT is not returned.
    get_with(
        &mut server,
        served,
        MQGMO_SYNCPOINT | MQGMO_MARK_SKIP_BACKOUT,
    );
    server.close(served, 0).unwrap();
    server.backout().unwrap();
    assert_eq!(s.trigger_count(), 0, "the skipped get stays got");
    server.backout().unwrap();
    assert_eq!(s.trigger_count(), 1, "its own backout returns it");

    // An application that ends without committing (no MQDISC): its handles close, then its
    // unit of work is backed out and the message returns; that triggers.
    let served = server
        .open(&mut Mqod::queue("APP.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    get_with(&mut server, served, MQGMO_SYNCPOINT);
    drop(server);
    assert_eq!(
        s.trigger_count(),
        1,
        "the abnormal end's backout returned it"
    );
    assert_eq!(s.queue_manager.queue("APP.Q").unwrap().depth(), 1);
}

#[test]
fn every_triggers_for_each_message_a_backout_returns() {
    let mut s = setup();
    s.define(triggered("EVERY.Q", "EVERY"));
    let hobj = s.open_output("EVERY.Q");
    s.put(hobj, 0, MQPMO_NO_SYNCPOINT);
    s.put(hobj, 0, MQPMO_NO_SYNCPOINT);
    assert_eq!(s.trigger_count(), 2);
    let mut server = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let served = server
        .open(&mut Mqod::queue("EVERY.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    get_with(&mut server, served, MQGMO_SYNCPOINT);
    get_with(&mut server, served, MQGMO_SYNCPOINT);
    server.backout().unwrap();
    assert_eq!(s.trigger_count(), 2);
    // Committed gets return nothing: no trigger.
    get_with(&mut server, served, MQGMO_SYNCPOINT);
    server.commit().unwrap();
    assert_eq!(s.trigger_count(), 0);
}

#[test]
fn opening_for_input_decides_first_and_depth() {
    let mut s = setup();
    s.define(triggered("APP.Q", "FIRST"));
    // A browser is no server: MQOO_BROWSE does not count in OpenInputCount.
    let mut browser = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let browsing = browser
        .open(&mut Mqod::queue("APP.Q"), MQOO_BROWSE)
        .unwrap();
    s.put_now("APP.Q");
    assert_eq!(
        s.trigger_count(),
        1,
        "a browsing handle does not stop FIRST"
    );
    browser.close(browsing, 0).unwrap();
    assert_eq!(
        s.trigger_count(),
        0,
        "closing a browse handle is no trigger event"
    );
    // An exclusive input handle stops it like a shared one.
    s.define(QueueDefinition {
        trigger_depth: 1,
        ..triggered("DEPTH.Q", "DEPTH")
    });
    let exclusive = browser
        .open(&mut Mqod::queue("DEPTH.Q"), MQOO_INPUT_EXCLUSIVE)
        .unwrap();
    s.put_now("DEPTH.Q");
    assert_eq!(s.trigger_count(), 0, "DEPTH.Q is open for input");
    browser.close(exclusive, 0).unwrap();
    assert_eq!(s.trigger_count(), 1, "the close left TRIGDPTH messages");
    // A second input handle's close is not the last one: no trigger until the last.
    s.define(triggered("TWO.Q", "FIRST"));
    let one = browser
        .open(&mut Mqod::queue("TWO.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    let two = browser
        .open(&mut Mqod::queue("TWO.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    s.put_now("TWO.Q");
    browser.close(one, 0).unwrap();
    assert_eq!(s.trigger_count(), 0, "another handle still serves TWO.Q");
    browser.close(two, 0).unwrap();
    assert_eq!(s.trigger_count(), 1);
}

#[test]
fn an_initiation_queue_opened_only_to_browse_or_put_serves_nobody() {
    let mut s = setup();
    s.monitor.close(s.initq, 0).unwrap();
    s.define(triggered("APP.Q", "FIRST"));
    let mut other = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let browse = other
        .open(&mut Mqod::queue(INITQ), MQOO_BROWSE | MQOO_OUTPUT)
        .unwrap();
    s.put_now("APP.Q");
    assert_eq!(s.queue_manager.queue(INITQ).unwrap().depth(), 0);
    other.close(browse, 0).unwrap();
    // A monitor that opens it for input while a server has APP.Q open: FIRST stays quiet.
    let server = other
        .open(&mut Mqod::queue("APP.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    s.initq = s
        .monitor
        .open(&mut Mqod::queue(INITQ), MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(s.trigger_count(), 0, "APP.Q has a server");
    other.close(server, 0).unwrap();
    assert_eq!(s.trigger_count(), 1, "the server left the message behind");
}

#[test]
fn every_triggers_for_each_eligible_message() {
    let mut s = setup();
    s.define(QueueDefinition {
        trigger_message_priority: 3,
        ..triggered("EVERY.Q", "EVERY")
    });
    let hobj = s.open_output("EVERY.Q");
    for priority in [0, 3, 9, 2, 4] {
        s.put(hobj, priority, MQPMO_NO_SYNCPOINT);
    }
    assert_eq!(s.trigger_count(), 3);
    // EVERY triggers even while a server has the queue open.
    let mut server = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let served = server
        .open(&mut Mqod::queue("EVERY.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    s.put(hobj, 5, MQPMO_NO_SYNCPOINT);
    assert_eq!(s.trigger_count(), 1);
    server.close(served, 0).unwrap();
    assert_eq!(s.trigger_count(), 0, "EVERY does not trigger at close");
}

#[test]
fn depth_triggers_at_trigdpth_then_sets_notrigger_until_enabled_again() {
    let mut s = setup();
    s.define(QueueDefinition {
        trigger_depth: 3,
        ..triggered("DEPTH.Q", "DEPTH")
    });
    let hobj = s.open_output("DEPTH.Q");
    s.put(hobj, 0, MQPMO_NO_SYNCPOINT);
    s.put(hobj, 0, MQPMO_NO_SYNCPOINT);
    assert_eq!(s.trigger_count(), 0);
    s.put(hobj, 0, MQPMO_NO_SYNCPOINT);
    assert_eq!(s.trigger_count(), 1);
    let queue = s.queue_manager.queue("DEPTH.Q").unwrap();
    assert!(
        !queue.definition().trigger_control,
        "the queue manager set NOTRIGGER"
    );
    s.put(hobj, 0, MQPMO_NO_SYNCPOINT);
    assert_eq!(
        s.trigger_count(),
        0,
        "NOTRIGGER until the application enables it"
    );
    // NOTRIGGER is stored: it survives a restart of the definition (read back from the store).
    let stored = s
        .queue_manager
        .object(ferrite_queue_manager::ObjectType::LocalQueue, "DEPTH.Q");
    match stored {
        Some(ObjectDefinition::Local(definition)) => assert!(!definition.trigger_control),
        other => panic!("DEPTH.Q is {other:?}"),
    }
    // The application switches triggering on again with MQSET while 4 messages are on the
    // queue: the condition holds, so it triggers at once (and NOTRIGGER is set again).
    let set = s
        .application
        .open(&mut Mqod::queue("DEPTH.Q"), MQOO_SET)
        .unwrap();
    s.application
        .set(
            set,
            &[(
                ferrite_constants::selector::MQIA_TRIGGER_CONTROL,
                AttributeValue::Integer(ferrite_constants::trigger_type::MQTC_ON),
            )],
        )
        .unwrap();
    assert_eq!(s.trigger_count(), 1);
    let queue = s.queue_manager.queue("DEPTH.Q").unwrap();
    assert!(!queue.definition().trigger_control);
    // MQSET of something else while NOTRIGGER: nothing.
    s.application
        .set(
            set,
            &[(
                ferrite_constants::selector::MQIA_TRIGGER_DEPTH,
                AttributeValue::Integer(2),
            )],
        )
        .unwrap();
    assert_eq!(s.trigger_count(), 0);
}

#[test]
fn syncpoint_puts_reaching_trigdpth_trigger_at_commit() {
    let mut s = setup();
    s.define(QueueDefinition {
        trigger_depth: 2,
        ..triggered("DEPTH.Q", "DEPTH")
    });
    let hobj = s.open_output("DEPTH.Q");
    s.put(hobj, 0, MQPMO_SYNCPOINT);
    s.put(hobj, 0, MQPMO_SYNCPOINT);
    assert_eq!(s.trigger_count(), 0);
    s.application.commit().unwrap();
    assert_eq!(s.trigger_count(), 1);
}

#[test]
fn trigint_triggers_a_queue_that_stayed_non_empty() {
    let mut s = setup();
    let mut attributes = s.queue_manager.queue_manager_attributes();
    attributes.trigger_interval = 200;
    s.queue_manager.alter_queue_manager(attributes).unwrap();
    s.define(triggered("APP.Q", "FIRST"));
    s.put_now("APP.Q");
    assert_eq!(s.trigger_count(), 1);
    s.put_now("APP.Q");
    assert_eq!(s.trigger_count(), 0, "within TRIGINT");
    std::thread::sleep(std::time::Duration::from_millis(250));
    s.put_now("APP.Q");
    assert_eq!(
        s.trigger_count(),
        1,
        "TRIGINT has passed and the queue is not empty"
    );
    s.put_now("APP.Q");
    assert_eq!(s.trigger_count(), 0, "within TRIGINT of that trigger");
}

#[test]
fn trigint_applies_only_to_first_queues_without_a_server() {
    let mut s = setup();
    let mut attributes = s.queue_manager.queue_manager_attributes();
    attributes.trigger_interval = 0;
    s.queue_manager.alter_queue_manager(attributes).unwrap();
    s.define(triggered("APP.Q", "FIRST"));
    s.define(QueueDefinition {
        trigger_depth: 2,
        ..triggered("DEPTH.Q", "DEPTH")
    });
    s.put_now("APP.Q");
    s.put_now("APP.Q");
    assert_eq!(
        s.trigger_count(),
        2,
        "TRIGINT 0: every FIRST arrival triggers"
    );
    let mut server = Connection::connect(s.queue_manager.clone(), "").unwrap();
    let served = server
        .open(&mut Mqod::queue("APP.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    s.put_now("APP.Q");
    assert_eq!(s.trigger_count(), 0, "TRIGINT does not override a server");
    server.close(served, 0).unwrap();
    assert_eq!(s.trigger_count(), 1, "the last server closed on messages");
    // DEPTH ignores TRIGINT: NOTRIGGER after its trigger.
    s.put_now("DEPTH.Q");
    s.put_now("DEPTH.Q");
    s.put_now("DEPTH.Q");
    assert_eq!(s.trigger_count(), 1);
}

#[test]
fn a_trigger_message_that_cannot_be_put_goes_to_the_dead_letter_queue() {
    // PUT(DISABLED) on the initiation queue: the trigger message cannot be put there, so it
    // goes to DEADQ behind an MQDLH saying why and where it was going; the application's put
    // still succeeds.
    let mut s = setup();
    const DEADQ: &str = "SYSTEM.DEAD.LETTER.QUEUE";
    s.define(QueueDefinition::local(DEADQ, PageSetId(1)));
    s.define(triggered("APP.Q", "FIRST"));
    let mut initq = s.queue_manager.queue(INITQ).unwrap().definition();
    initq.put_inhibited = true;
    s.queue_manager.alter_queue(initq).unwrap();
    s.put_now("APP.Q");
    assert_eq!(s.queue_manager.queue(INITQ).unwrap().depth(), 0);
    assert_eq!(s.queue_manager.queue("APP.Q").unwrap().depth(), 1);
    let hobj = s
        .monitor
        .open(&mut Mqod::queue(DEADQ), MQOO_INPUT_SHARED)
        .unwrap();
    let mut md = Mqmd::default();
    let mut buffer = vec![0u8; 2048];
    let got = s
        .monitor
        .get(
            hobj,
            &mut md,
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut buffer,
        )
        .unwrap();
    assert_eq!(md.format, MQFMT_DEAD_LETTER_HEADER);
    let order = ByteOrder::from_mq_encoding(md.encoding).unwrap();
    let header =
        ferrite_message::DeadLetterHeader::decode(&buffer[..got.data_length], order).unwrap();
    assert_eq!(header.reason, MQRC_PUT_INHIBITED);
    assert_eq!(header.dest_q_name, INITQ);
    assert_eq!(header.format, MQFMT_TRIGGER);
    let trigger = TriggerMessage::decode(&buffer[172..got.data_length], order).unwrap();
    assert_eq!(trigger.q_name, "APP.Q");
}
