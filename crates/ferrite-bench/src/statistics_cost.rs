//! `statistics-cost`: what statistics and accounting cost the MQI path, measured in one run.
//! One thread puts and gets a non-persistent 100-byte message (outside syncpoint, in-process)
//! on a queue with ACCTQ(OFF) and on one with ACCTQ(ON) (queue accounting: every call counted
//! and timed, elapsed and CPU), in alternating rounds so that both see the same machine; the
//! queue manager's STATMQI and ACCTMQI are ON throughout. The message manager's counts
//! (QMST) are kept whatever the settings, so they are in both figures: their cost is one
//! plain add to the connection's own record per call. The rounds are short and many, so
//! that another process's burst of work on a shared machine lands on a few rounds of either
//! kind, and each round is measured by the thread's CPU time (not the wall clock, which
//! counts the time other processes held the processor); the row is the ratio of the median round with accounting to the median round
//! without (the mean ratio is printed beside it); the goal is at most 3% more.

use std::time::Duration;

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

/// The CPU time the calling thread has used (a round's cost without the time another
/// process held the processor).
fn thread_cpu_time() -> Duration {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own.
    let result = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    assert_eq!(result, 0, "the thread CPU clock");
    Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
}

/// Put and get one message on `hobj`, `pairs` times: the thread's CPU time taken.
fn pairs(connection: &mut Connection, hobj: Hobj, pairs: u64) -> Duration {
    let data = [0x5Au8; 100];
    let mut buffer = [0u8; 128];
    let started = thread_cpu_time();
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
    thread_cpu_time() - started
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
    let rounds = context.mode.pick(4usize, 60, 200);
    let per_round = context.mode.pick(1_000u64, 5_000, 10_000);
    // Warm both paths first.
    pairs(&mut connection, off, per_round * 4);
    pairs(&mut connection, on, per_round * 4);
    let (mut without, mut with) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        without.push(pairs(&mut connection, off, per_round));
        with.push(pairs(&mut connection, on, per_round));
    }
    connection.disconnect().expect("MQDISC");
    let micros = |round: Duration| round.as_secs_f64() * 1e6 / per_round as f64;
    let (mean_without, mean_with) = (mean(&without), mean(&with));
    let (median_without, median_with) = (median(&mut without), median(&mut with));
    let ratio = median_with.as_secs_f64() / median_without.as_secs_f64();
    println!(
        "  {rounds} rounds of {per_round} pairs each: median {:.3} CPU µs per pair without queue accounting, {:.3} µs with (ratio {ratio:.3}); mean {:.3} and {:.3} (ratio {:.3})",
        micros(median_without),
        micros(median_with),
        micros(mean_without),
        micros(mean_with),
        mean_with.as_secs_f64() / mean_without.as_secs_f64(),
    );
    context.report.push(
        Row::new(
            "statistics-cost",
            "put+get non-persistent in-process, ACCTQ(ON) / ACCTQ(OFF), median rounds of one run (ratio)",
            ratio,
            "x",
        )
        .goal("<= 1.03", ratio <= COST_RATIO_GOAL),
    );
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}

fn mean(rounds: &[Duration]) -> Duration {
    assert!(!rounds.is_empty());
    rounds.iter().sum::<Duration>() / rounds.len() as u32
}

fn median(rounds: &mut [Duration]) -> Duration {
    assert!(!rounds.is_empty());
    rounds.sort_unstable();
    rounds[rounds.len() / 2]
}
