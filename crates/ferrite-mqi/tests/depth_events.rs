//! Queue depth performance events through the MQI: Queue Depth High at QDEPTHHI, Queue Full
//! at MAXDEPTH, Queue Depth Low at QDEPTHLO, the enable/disable flips MQ makes after each, and
//! nothing while the queue manager's PERFMEV is disabled.

use ferrite_constants::reason::*;
use ferrite_constants::{get_options::*, open_options::*, put_options::*};
use ferrite_mqi::depth_events::PERFORMANCE_EVENT_QUEUE;
use ferrite_mqi::*;
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

const Q: &str = "APP.Q";

fn enable_performance_events(queue_manager: &QueueManager, enabled: bool) {
    let mut attributes = queue_manager.queue_manager_attributes();
    attributes.performance_events = enabled;
    queue_manager.alter_queue_manager(attributes).unwrap();
}

/// The reasons of the events on the event queue (taken off it), with the queue each names.
fn events(connection: &mut Connection, hobj: Hobj) -> Vec<(i32, String)> {
    let mut found = Vec::new();
    for buffer in performance_events(connection, hobj) {
        let int =
            |offset: usize| i32::from_le_bytes(buffer[offset..offset + 4].try_into().unwrap());
        assert_eq!((int(0), int(12)), (7, 45), "MQCFT_EVENT, MQCMD_PERFM_EVENT");
        let queue = String::from_utf8_lossy(&buffer[124..172])
            .trim_end()
            .to_string();
        found.push((int(28), queue));
    }
    found
}

fn switches(queue_manager: &QueueManager) -> (bool, bool, bool) {
    let definition = queue_manager.queue(Q).unwrap().definition();
    (
        definition.queue_depth_high_event,
        definition.queue_depth_low_event,
        definition.queue_depth_max_event,
    )
}

#[test]
fn depth_high_full_and_low_events_flip_their_switches() {
    let (_directory, queue_manager) = queue_manager(&[PERFORMANCE_EVENT_QUEUE]);
    define(
        &queue_manager,
        QueueDefinition {
            max_depth: 10,
            queue_depth_high_event: true,
            queue_depth_high_limit: 50,
            queue_depth_low_event: false,
            queue_depth_low_limit: 20,
            queue_depth_max_event: true,
            ..QueueDefinition::local(Q, PageSetId(1))
        },
    );
    let mut monitor = Connection::connect(queue_manager.clone(), "").unwrap();
    let event_queue = monitor
        .open(&mut Mqod::queue(PERFORMANCE_EVENT_QUEUE), MQOO_INPUT_SHARED)
        .unwrap();
    let mut application = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = application
        .open(&mut Mqod::queue(Q), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    let put = |application: &mut Connection| {
        application.put(
            hobj,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"m",
        )
    };
    let get = |application: &mut Connection| {
        application
            .get(
                hobj,
                &mut Mqmd::default(),
                &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
                &mut [0u8; 16],
            )
            .unwrap();
    };

    // PERFMEV disabled: crossing QDEPTHHI reports nothing and flips nothing.
    for _ in 0..5 {
        put(&mut application).unwrap();
    }
    assert!(events(&mut monitor, event_queue).is_empty());
    assert_eq!(switches(&queue_manager), (true, false, true));
    for _ in 0..5 {
        get(&mut application);
    }

    enable_performance_events(&queue_manager, true);
    for _ in 0..4 {
        put(&mut application).unwrap();
    }
    assert!(
        events(&mut monitor, event_queue).is_empty(),
        "4 of 10 is below 50%"
    );
    put(&mut application).unwrap();
    assert_eq!(
        events(&mut monitor, event_queue),
        [(MQRC_Q_DEPTH_HIGH, Q.to_string())]
    );
    assert_eq!(switches(&queue_manager), (false, true, true));
    for _ in 0..5 {
        put(&mut application).unwrap();
    }
    assert!(
        events(&mut monitor, event_queue).is_empty(),
        "QDPHIEV is off now"
    );
    assert_eq!(put(&mut application).unwrap_err().reason, MQRC_Q_FULL);
    assert_eq!(
        events(&mut monitor, event_queue),
        [(MQRC_Q_FULL, Q.to_string())]
    );
    assert_eq!(switches(&queue_manager), (false, true, false));
    assert_eq!(put(&mut application).unwrap_err().reason, MQRC_Q_FULL);
    assert!(
        events(&mut monitor, event_queue).is_empty(),
        "QDPMAXEV is off now"
    );

    for _ in 0..7 {
        get(&mut application);
    }
    assert!(
        events(&mut monitor, event_queue).is_empty(),
        "3 of 10 is above 20%"
    );
    get(&mut application);
    assert_eq!(
        events(&mut monitor, event_queue),
        [(MQRC_Q_DEPTH_LOW, Q.to_string())]
    );
    assert_eq!(switches(&queue_manager), (true, false, true));
    get(&mut application);
    assert!(
        events(&mut monitor, event_queue).is_empty(),
        "QDPLOEV is off now"
    );
}
