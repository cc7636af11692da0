//! `statistics-cost`: what statistics and accounting cost the MQI path, measured in one run.
//! One thread puts and gets a non-persistent 100-byte message (outside syncpoint, in-process)
//! on a queue with ACCTQ(OFF) and on one with ACCTQ(ON) (queue accounting: every call counted
//! and timed, elapsed and CPU), in alternating rounds so that both see the same machine; the
//! queue manager's STATMQI and ACCTMQI are ON throughout. The message manager's counts
//! (QMST) are kept whatever the settings, so they are in both figures: their cost is one
//! relaxed add to the connection's own record per call. The row is the ratio of the mean time
//! per put+get pair with accounting to without; the goal is at most 3% more.

use std::time::{Duration, Instant};

use ferrite_constants::get_options::MQGMO_NO_SYNCPOINT;
use ferrite_constants::open_options::{MQOO_INPUT_SHARED, MQOO_OUTPUT};
use ferrite_constants::put_options::MQPMO_NO_SYNCPOINT;
use ferrite_mqi::{Connection, Hobj, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;

use crate::report::Row;
use crate::{engine, Context};

/// The goal: accounting adds at most this share.
const COST_RATIO_GOAL: f64 = 1.03;

/// Put and get one message on `hobj`, `pairs` times: the time taken.
fn pairs(connection: &mut Connection, hobj: Hobj, pairs: u64) -> Duration {
    let data = [0x5Au8; 100];
    let mut buffer = [0u8; 128];
    let started = Instant::now();
    for _ in 0..pairs {
        connection
            .put(
                hobj,
                &mut Mqmd::default(),
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                &data,
            )
            .expect("MQPUT");
        connection
            .get(
                hobj,
                &mut Mqmd::default(),
                &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
                &mut buffer,
            )
            .expect("MQGET");
    }
    started.elapsed()
}

pub fn statistics_cost(context: &mut Context) {
    println!("\n== statistics-cost: put+get with queue accounting on and off, one thread ==");
    let config = engine::bench_config("STATCOST");
    let (queue_manager, directory) = engine::fresh(&context.dir, "statistics-cost", &config);
    for (name, accounting) in [("ACCT.OFF.Q", "OFF"), ("ACCT.ON.Q", "ON")] {
        let mut definition = QueueDefinition::local(name, PageSetId(1));
        definition.accounting_queue = accounting.to_string();
        queue_manager
            .define_queue(definition, false)
            .expect("define the queue");
    }
    let mut attributes = queue_manager.queue_manager_attributes();
    attributes.statistics_mqi = "ON".to_string();
    attributes.accounting_mqi = "ON".to_string();
    queue_manager
        .alter_queue_manager(attributes)
        .expect("ALTER QMGR");
    let mut connection = Connection::connect(queue_manager.clone(), "").expect("MQCONN");
    let mut open = |name: &str| {
        connection
            .open(&mut Mqod::queue(name), MQOO_OUTPUT | MQOO_INPUT_SHARED)
            .expect("MQOPEN")
    };
    let (off, on) = (open("ACCT.OFF.Q"), open("ACCT.ON.Q"));
    let rounds = context.mode.pick(2u32, 6, 10);
    let per_round = context.mode.pick(2_000u64, 50_000, 200_000);
    // Warm both paths first.
    pairs(&mut connection, off, per_round / 4);
    pairs(&mut connection, on, per_round / 4);
    let (mut without, mut with) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..rounds {
        without += pairs(&mut connection, off, per_round);
        with += pairs(&mut connection, on, per_round);
    }
    connection.disconnect().expect("MQDISC");
    let count = f64::from(rounds) * per_round as f64;
    let micros = |total: Duration| total.as_secs_f64() * 1e6 / count;
    let ratio = with.as_secs_f64() / without.as_secs_f64();
    println!(
        "  {count:.0} pairs each: {:.3} µs without queue accounting, {:.3} µs with (ratio {ratio:.3})",
        micros(without),
        micros(with)
    );
    context.report.push(
        Row::new(
            "statistics-cost",
            "put+get non-persistent in-process, ACCTQ(ON) / ACCTQ(OFF), same run (ratio)",
            ratio,
            "x",
        )
        .goal("<= 1.03", ratio <= COST_RATIO_GOAL),
    );
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}
