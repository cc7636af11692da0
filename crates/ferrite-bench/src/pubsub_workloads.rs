//! `fan-out`: publish/subscribe in-process. One thread publishes 2 KiB publications to a topic
//! with 1, 10 and 100 subscribers (provided destinations: a local queue each), non-persistent
//! outside syncpoint and persistent in syncpoint (a commit per publication, so every copy of
//! one publication is one unit of work), and gets every copy again between batches so the
//! queues stay shallow. The figure is the publishing thread's CPU per delivered message
//! during the publishes (MQPUT to the topic, every copy put), beside the V7.0 report's local
//! anchors (z10: 104 µs a publish to 1 subscriber, 1,294 µs to 32, without properties) and
//! the goal: at most 2 CPU µs per delivered message at 100 subscribers.

use std::time::Instant;

use ferrite_constants::get_options::{MQGMO_NO_SYNCPOINT, MQGMO_NO_WAIT};
use ferrite_constants::misc::MQSO_CREATE;
use ferrite_constants::object_type::MQOT_TOPIC;
use ferrite_constants::open_options::{MQOO_INPUT_SHARED, MQOO_OUTPUT};
use ferrite_constants::persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENT};
use ferrite_constants::put_options::{MQPMO_NO_SYNCPOINT, MQPMO_SYNCPOINT};
use ferrite_constants::reason::MQRC_NO_MSG_AVAILABLE;
use ferrite_mqi::{Connection, Hobj, Mqgmo, Mqmd, Mqod, Mqpmo, Mqsd};
use ferrite_queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;

use crate::mqi_workloads::thread_cpu_ns;
use crate::report::Row;
use crate::{engine, Context};

/// Publication size (the 2 KiB).
const PUBLICATION_BYTES: usize = 2048;
/// Publications between two drains of the subscribers' queues.
const BATCH_PUBLICATIONS: usize = 20;
/// The subscriber counts measured.
const SUBSCRIBER_COUNTS: [usize; 3] = [1, 10, 100];
/// The goal at 100 subscribers, CPU µs per delivered message.
const GOAL_CPU_MICROS_PER_DELIVERY: f64 = 2.0;

pub fn fan_out(context: &mut Context) {
    println!("\n== fan-out: 2 KiB publications to 1, 10, 100 subscribers in-process ==");
    for persistent in [false, true] {
        for subscribers in SUBSCRIBER_COUNTS {
            fan_out_cell(context, persistent, subscribers);
        }
    }
}

/// One cell: a fresh queue manager, `subscribers` queues and subscriptions, publications for
/// the run's duration.
fn fan_out_cell(context: &mut Context, persistent: bool, subscribers: usize) {
    let config = engine::bench_config("FANOUT");
    let (queue_manager, directory) = engine::fresh(&context.dir, "fan-out", &config);
    let mut connection = Connection::connect(queue_manager.clone(), "").expect("MQCONN");
    let queues: Vec<Hobj> = (0..subscribers)
        .map(|index| subscribe(&queue_manager, &mut connection, index))
        .collect();
    let mut od = Mqod {
        object_type: MQOT_TOPIC,
        object_string: "Bench/FanOut".to_string(),
        ..Mqod::default()
    };
    let topic = connection.open(&mut od, MQOO_OUTPUT).expect("MQOPEN topic");
    let data = vec![b'p'; PUBLICATION_BYTES];
    let duration = context.duration();
    let started = Instant::now();
    let (mut publications, mut publish_cpu_ns) = (0u64, 0u64);
    while started.elapsed() < duration {
        let before = thread_cpu_ns();
        for _ in 0..BATCH_PUBLICATIONS {
            publish(&mut connection, topic, persistent, &data);
        }
        publish_cpu_ns += thread_cpu_ns() - before;
        publications += BATCH_PUBLICATIONS as u64;
        let got = drain(&mut connection, &queues);
        assert_eq!(
            got,
            BATCH_PUBLICATIONS * subscribers,
            "every copy delivered"
        );
    }
    let deliveries = publications * subscribers as u64;
    let micros = publish_cpu_ns as f64 / 1e3 / deliveries as f64;
    let kind = if persistent {
        "persistent, syncpoint"
    } else {
        "non-persistent"
    };
    println!(
        "  {kind}, {subscribers} subscribers: {publications} publications, {micros:.2} CPU µs per delivered message ({:.1} per publish)",
        publish_cpu_ns as f64 / 1e3 / publications as f64
    );
    let mut row = Row::new(
        "fan-out",
        format!("2 KiB {kind} to {subscribers} subscribers, publisher CPU per delivered message"),
        micros,
        "us",
    );
    if subscribers == 100 {
        row = row.goal(
            format!("<= {GOAL_CPU_MICROS_PER_DELIVERY} us"),
            micros <= GOAL_CPU_MICROS_PER_DELIVERY,
        );
    }
    context.report.push(row);
    connection.disconnect().expect("MQDISC");
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}

/// Define subscriber `index`'s queue and subscribe it (provided destination) to the topic;
/// its handle, open for input.
fn subscribe(
    queue_manager: &ferrite_queue_manager::QueueManager,
    connection: &mut Connection,
    index: usize,
) -> Hobj {
    let name = format!("FANOUT.SUB.{index:03}");
    let mut definition = QueueDefinition::local(&name, PageSetId(1));
    definition.max_depth = 100_000;
    queue_manager
        .define_queue(definition, false)
        .expect("define a subscriber's queue");
    let mut hobj = connection
        .open(&mut Mqod::queue(&name), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .expect("MQOPEN");
    let mut sd = Mqsd {
        options: MQSO_CREATE,
        object_string: "Bench/FanOut".to_string(),
        ..Mqsd::default()
    };
    connection.subscribe(&mut sd, &mut hobj).expect("MQSUB");
    hobj
}

fn publish(connection: &mut Connection, topic: Hobj, persistent: bool, data: &[u8]) {
    let mut md = Mqmd {
        persistence: if persistent {
            MQPER_PERSISTENT
        } else {
            MQPER_NOT_PERSISTENT
        },
        ..Mqmd::default()
    };
    let options = if persistent {
        MQPMO_SYNCPOINT
    } else {
        MQPMO_NO_SYNCPOINT
    };
    connection
        .put(topic, &mut md, &mut Mqpmo::with_options(options), data)
        .expect("publish");
    if persistent {
        connection.commit().expect("MQCMIT");
    }
}

/// Get every copy waiting on the subscribers' queues; how many.
fn drain(connection: &mut Connection, queues: &[Hobj]) -> usize {
    let mut buffer = vec![0u8; PUBLICATION_BYTES + 1024];
    let mut got = 0;
    for queue in queues {
        loop {
            let mut md = Mqmd::default();
            let mut gmo = Mqgmo::with_options(MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT);
            match connection.get(*queue, &mut md, &mut gmo, &mut buffer) {
                Ok(_) => got += 1,
                Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
                Err(error) => panic!("MQGET: {error}"),
            }
        }
    }
    got
}
