//! Workloads through the in-process MQI (`ferrite-mqi`), as MP16 measures them.
//!
//! `single-queue`: MP16's single private queue, non-persistent: 4 putting and 4 getting
//! applications on one queue, each MQPUT and each MQGET in its own unit of work (commit per
//! message). MQ's figure: 114,060 msgs/s at 1,000 bytes on a 3-processor z/OS image (MP16
//! ch. 7, L7822); the MQI issue's goal is 1,000,000 msgs/s at 1 KiB on this 2-core machine.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_constants::get_options::{MQGMO_FAIL_IF_QUIESCING, MQGMO_SYNCPOINT, MQGMO_WAIT};
use ferrite_constants::open_options::{MQOO_INPUT_SHARED, MQOO_OUTPUT};
use ferrite_constants::persistence::MQPER_NOT_PERSISTENT;
use ferrite_constants::put_options::MQPMO_SYNCPOINT;
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_storage::queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;

use crate::report::Row;
use crate::{engine, Context};

/// MP16's published single private queue figures (msgs/s), ch. 7, L7818-7830: MQ 9.3, a
/// 3-processor z/OS image (3931-7K0 in the text, 8561-7G1 in the table header), 4 MQPUT/MQCMIT
/// and 4 MQGET/MQCMIT jobs, low depth. Sizes are MP16's (decimal bytes).
const MQ_SINGLE_QUEUE: [(usize, f64, &str); 5] = [
    (1_000, 114_060.0, "L7822"),
    (5_000, 107_230.0, "L7823"),
    (10_000, 102_600.0, "L7824"),
    (30_000, 82_720.0, "L7825"),
    (100_000, 49_520.0, "L7826"),
];

pub fn single_queue(context: &mut Context) {
    println!("\n== single-queue: MP16 single private queue, non-persistent, 4 putters + 4 getters, commit per message ==");
    let sizes: Vec<(usize, f64, &str)> = match context.mode {
        crate::Mode::Full => MQ_SINGLE_QUEUE.to_vec(),
        _ => MQ_SINGLE_QUEUE[..1].to_vec(),
    };
    let config = engine::bench_config("SINGLE");
    println!("  config: {}", engine::describe(&config));
    let (queue_manager, directory) = engine::fresh(&context.dir, "single", &config);
    queue_manager
        .define_queue(QueueDefinition::local("SINGLE.Q", PageSetId(2)), false)
        .expect("define");
    for (size, mq, line) in sizes {
        let stop = Arc::new(AtomicBool::new(false));
        let got = Arc::new(AtomicU64::new(0));
        let started = Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..4 {
                let queue_manager = queue_manager.clone();
                let stop = stop.clone();
                scope.spawn(move || {
                    let mut connection = Connection::connect(queue_manager, "").expect("MQCONN");
                    let hobj = connection
                        .open(&mut Mqod::queue("SINGLE.Q"), MQOO_OUTPUT)
                        .expect("MQOPEN");
                    let data = engine::payload(size);
                    while !stop.load(Ordering::Relaxed) {
                        let mut md = Mqmd {
                            persistence: MQPER_NOT_PERSISTENT,
                            ..Mqmd::default()
                        };
                        match connection.put(
                            hobj,
                            &mut md,
                            &mut Mqpmo::with_options(MQPMO_SYNCPOINT),
                            &data,
                        ) {
                            Ok(_) => connection.commit().expect("MQCMIT"),
                            // Queue full: let the getters catch up.
                            Err(_) => std::thread::sleep(Duration::from_micros(50)),
                        }
                    }
                    let _ = connection.disconnect();
                });
            }
            for _ in 0..4 {
                let queue_manager = queue_manager.clone();
                let stop = stop.clone();
                let got = got.clone();
                scope.spawn(move || {
                    let mut connection = Connection::connect(queue_manager, "").expect("MQCONN");
                    let hobj = connection
                        .open(&mut Mqod::queue("SINGLE.Q"), MQOO_INPUT_SHARED)
                        .expect("MQOPEN");
                    let mut buffer = vec![0u8; size + 1024];
                    while !stop.load(Ordering::Relaxed) {
                        let mut gmo = Mqgmo::with_options(
                            MQGMO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING,
                        );
                        gmo.wait_interval = 100;
                        if connection
                            .get(hobj, &mut Mqmd::default(), &mut gmo, &mut buffer)
                            .is_ok()
                        {
                            connection.commit().expect("MQCMIT");
                            got.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    let _ = connection.disconnect();
                });
            }
            std::thread::sleep(context.duration());
            stop.store(true, Ordering::Relaxed);
        });
        let seconds = started.elapsed().as_secs_f64();
        let rate = got.load(Ordering::Relaxed) as f64 / seconds;
        println!("  {size} B: {rate:.0} msgs/s got (each put and get committed)");
        let met = rate >= 1_000_000.0;
        let mut row = Row::new(
            "single-queue",
            format!("{size} B non-persistent, 4+4 apps, commit per message"),
            rate,
            "msgs/s",
        )
        .against(format!("MQ 9.3, 3-processor z/OS (MP16 ch7 {line})"), mq);
        if size == 1_000 {
            row = row.goal(">= 1,000,000 msgs/s (at 1 KiB)", met);
        }
        context.report.push(row);
        // Drain what the putters left, so the next size starts from an empty queue.
        let queue = queue_manager.queue("SINGLE.Q").expect("queue");
        let _ = queue_manager.clear_queue(&queue);
    }
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}
