//! The local workloads that the other modules do not cover, through the in-process MQI:
//!
//! - `request-reply-matrix`: MP16's local request/reply table (ch. 7, L7846-7862): 1 to 4 queue
//!   pairs, each a common server queue and a common reply queue indexed by MSGID, with its
//!   repliers (MQGET, MQPUT, MQCMIT) and requesters (out-of-syncpoint MQPUT, then MQGET by MsgId),
//!   1,000-byte non-persistent messages.
//! - `request-reply-persistent`: the workload 3 in-process: persistent requests and
//!   replies, every MQPUT and MQGET committed, 1 KB and 10 KB, 1 to 64 requesters with 4 repliers,
//!   and MP16's strict-ordering case (1 replier, 12 requesters, 10 KB; ch. 7, L7920-7935).
//! - `common-correlid`: many messages sharing one CORRELID on a deep queue indexed by CORRELID,
//!   got by that CORRELID (MP16 ch. 6, L7211-7248: MQ's get cost rises in steps at about 50,
//!   1,100 and each further 1,000 sharers, to more than 9 times a unique-key get).
//! - `large-uow`: units of work of 10,000 persistent puts, then 10,000 gets, per commit (MP16
//!   ch. 6, L7171-7182: MQPUT and MQGET cost flat up to 10,000 messages per unit of work).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_constants::get_options::{
    MQGMO_FAIL_IF_QUIESCING, MQGMO_NO_SYNCPOINT, MQGMO_SYNCPOINT, MQGMO_WAIT,
};
use ferrite_constants::match_options::{MQMO_MATCH_CORREL_ID, MQMO_MATCH_MSG_ID};
use ferrite_constants::open_options::{MQOO_INPUT_SHARED, MQOO_OUTPUT};
use ferrite_constants::persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENT};
use ferrite_constants::put_options::{MQPMO_NEW_MSG_ID, MQPMO_NO_SYNCPOINT, MQPMO_SYNCPOINT};
use ferrite_mqi::{Connection, Hobj, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::PageSetId;

use crate::report::Row;
use crate::stats::Latencies;
use crate::{engine, Context, Mode};

// ----- request/reply matrix ------------------------------------------------------------------

/// One row of MP16's local request/reply table (ch. 7, L7846-7862): queue pairs, repliers per
/// pair, requesters per pair, MQ's transactions/s, and the z/OS LPAR it ran on.
#[derive(Copy, Clone, Debug)]
pub struct MatrixRow {
    pub pairs: usize,
    pub repliers: usize,
    pub requesters: usize,
    pub mq_transactions: f64,
    pub lpar: &'static str,
}

const fn row(
    pairs: usize,
    repliers: usize,
    requesters: usize,
    mq_transactions: f64,
    lpar: &'static str,
) -> MatrixRow {
    MatrixRow {
        pairs,
        repliers,
        requesters,
        mq_transactions,
        lpar,
    }
}

/// MP16's table. Its 3-way 1/1/1 row (28,846 tx/s) repeats the 6-way shape and is left out.
pub const MP16_REQUEST_REPLY: [MatrixRow; 12] = [
    row(1, 1, 1, 33_332.0, "6-way"),
    row(1, 4, 1, 32_598.0, "6-way"),
    row(1, 4, 2, 53_986.0, "6-way"),
    row(1, 4, 3, 67_165.0, "6-way"),
    row(1, 4, 4, 76_923.0, "6-way"),
    row(1, 1, 4, 48_647.0, "6-way"),
    row(2, 2, 4, 67_264.0, "6-way"),
    row(3, 3, 4, 78_362.0, "6-way"),
    row(4, 4, 4, 79_269.0, "6-way"),
    row(2, 1, 1, 50_613.0, "3-way"),
    row(3, 1, 1, 72_039.0, "3-way"),
    row(4, 1, 1, 72_845.0, "3-way"),
];

/// The messages of a request/reply cell.
#[derive(Copy, Clone, Debug)]
pub struct Exchange {
    /// Bytes of each request and reply.
    pub size: usize,
    /// Persistent messages, every put and get committed (workload 3); else MP16's
    /// non-persistent shape (requests out of syncpoint, replier commits get+put).
    pub persistent: bool,
}

/// MP16's local request/reply messages: 1,000 bytes, non-persistent.
pub const MP16_EXCHANGE: Exchange = Exchange {
    size: 1_000,
    persistent: false,
};

/// Reply wait of a requester before it counts a lost transaction (ms).
const REPLY_WAIT_MS: i32 = 5_000;

/// What one request/reply cell measured.
pub struct RequestReplyRun {
    pub transactions: u64,
    pub elapsed: Duration,
    pub cpu_seconds: f64,
    pub round_trip: Latencies,
}

pub fn request_reply_matrix(context: &mut Context) {
    println!("\n== request-reply-matrix: MP16's local request/reply table, 1,000 B non-persistent, reply queues indexed by MSGID ==");
    let rows: Vec<MatrixRow> = match context.mode {
        Mode::Full => MP16_REQUEST_REPLY.to_vec(),
        Mode::Quick => [0, 4, 5, 6, 8, 11]
            .iter()
            .map(|&i| MP16_REQUEST_REPLY[i])
            .collect(),
        Mode::Smoke => vec![MP16_REQUEST_REPLY[6]],
    };
    let config = engine::config_for("RRMATRIX", context.mode);
    println!("  config: {}", engine::describe(&config));
    let (queue_manager, directory) = engine::fresh(&context.dir, "rrmatrix", &config);
    for pair in 0..4 {
        queue_manager
            .define_queue(
                QueueDefinition::local(&server_queue(pair), PageSetId(2)),
                false,
            )
            .expect("define server queue");
        let mut reply = QueueDefinition::local(&reply_queue(pair), PageSetId(2));
        reply.index_type = "MSGID".to_string();
        queue_manager
            .define_queue(reply, false)
            .expect("define reply queue");
    }
    for shape in rows {
        let mut run = run_request_reply(&queue_manager, shape, MP16_EXCHANGE, context.duration());
        let seconds = run.elapsed.as_secs_f64();
        let rate = run.transactions as f64 / seconds;
        let cpu_us = run.cpu_seconds * 1e6 / run.transactions.max(1) as f64;
        let label = format!(
            "{} pair(s) x {} replier(s) x {} requester(s)",
            shape.pairs, shape.repliers, shape.requesters
        );
        println!(
            "  {label}: {rate:.0} tx/s, {cpu_us:.1} CPU us/tx, round trip p50 {:.1} us p99 {:.1} us",
            run.round_trip.percentile_us(50.0),
            run.round_trip.percentile_us(99.0)
        );
        let with_fields = |row: Row| {
            row.field("pairs", shape.pairs as f64)
                .field("repliers", shape.repliers as f64)
                .field("requesters", shape.requesters as f64)
                .field("size", 1_000.0)
        };
        let rate_row = Row::new(
            "request-reply-matrix",
            format!("{label}: transactions/s"),
            rate,
            "tx/s",
        )
        .against(
            format!("MQ 9.3, {} z/OS (MP16 ch7 L7846-7862)", shape.lpar),
            shape.mq_transactions,
        );
        context.report.push(with_fields(rate_row));
        context.report.push(with_fields(Row::new(
            "request-reply-matrix",
            format!("{label}: CPU per transaction (whole process)"),
            cpu_us,
            "us",
        )));
        for row in round_trip_rows("request-reply-matrix", &label, &mut run.round_trip) {
            context.report.push(with_fields(row));
        }
    }
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}

/// A request/reply run's round trip p50 and p99 rows.
fn round_trip_rows(bench: &'static str, label: &str, round_trip: &mut Latencies) -> [Row; 2] {
    [(50.0, "p50"), (99.0, "p99")].map(|(percentile, name)| {
        Row::new(
            bench,
            format!("{label}: round trip {name}"),
            round_trip.percentile_us(percentile),
            "us",
        )
    })
}

fn server_queue(pair: usize) -> String {
    format!("SERVER.Q{pair}")
}

fn reply_queue(pair: usize) -> String {
    format!("REPLY.Q{pair}")
}

/// Run one shape of MP16's table for `duration` and count completed transactions.
pub fn run_request_reply(
    queue_manager: &Arc<QueueManager>,
    shape: MatrixRow,
    exchange: Exchange,
    duration: Duration,
) -> RequestReplyRun {
    let stop_requesters = Arc::new(AtomicBool::new(false));
    let stop_repliers = Arc::new(AtomicBool::new(false));
    let transactions = Arc::new(AtomicU64::new(0));
    let round_trip = Arc::new(Mutex::new(Latencies::default()));
    let cpu_before = process_cpu_seconds();
    let started = Instant::now();
    let mut elapsed = Duration::ZERO;
    std::thread::scope(|scope| {
        for pair in 0..shape.pairs {
            for _ in 0..shape.repliers {
                let queue_manager = queue_manager.clone();
                let stop = stop_repliers.clone();
                scope.spawn(move || replier(queue_manager, pair, exchange, &stop));
            }
        }
        let mut requesters = Vec::new();
        for pair in 0..shape.pairs {
            for _ in 0..shape.requesters {
                let queue_manager = queue_manager.clone();
                let stop = stop_requesters.clone();
                let transactions = transactions.clone();
                let round_trip = round_trip.clone();
                requesters.push(scope.spawn(move || {
                    let mine = requester(queue_manager, pair, exchange, &stop, &transactions);
                    round_trip.lock().expect("latencies").merge(mine);
                }));
            }
        }
        std::thread::sleep(duration);
        stop_requesters.store(true, Ordering::Relaxed);
        elapsed = started.elapsed();
        for handle in requesters {
            handle.join().expect("requester");
        }
        stop_repliers.store(true, Ordering::Relaxed);
    });
    let round_trip = std::mem::take(&mut *round_trip.lock().expect("latencies"));
    RequestReplyRun {
        transactions: transactions.load(Ordering::Relaxed),
        elapsed,
        cpu_seconds: process_cpu_seconds() - cpu_before,
        round_trip,
    }
}

/// MP16's replier: MQGET from the server queue, MQPUT the reply with the request's MsgId to
/// the pair's reply queue, MQCMIT.
fn replier(queue_manager: Arc<QueueManager>, pair: usize, exchange: Exchange, stop: &AtomicBool) {
    let mut connection = Connection::connect(queue_manager, "").expect("MQCONN");
    let input = open(&mut connection, &server_queue(pair), MQOO_INPUT_SHARED);
    let output = open(&mut connection, &reply_queue(pair), MQOO_OUTPUT);
    let replies = Replies {
        input,
        output,
        buffer_bytes: exchange.size + 1024,
        persistence: persistence(exchange),
    };
    replies.serve(connection, stop);
}

/// A replier's queues and replies: MQGET a request from `input` in syncpoint, MQPUT the reply
/// with the request's MsgId to `output`, MQCMIT, until `stop`.
pub(crate) struct Replies {
    pub(crate) input: Hobj,
    pub(crate) output: Hobj,
    pub(crate) buffer_bytes: usize,
    pub(crate) persistence: i32,
}

impl Replies {
    pub(crate) fn serve(&self, mut connection: Connection, stop: &AtomicBool) {
        let Replies {
            input,
            output,
            buffer_bytes,
            persistence,
        } = *self;
        let mut buffer = vec![0u8; buffer_bytes];
        while !stop.load(Ordering::Relaxed) {
            let mut md = Mqmd::default();
            let mut gmo =
                Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING);
            gmo.wait_interval = 100;
            let Ok(result) = connection.get(input, &mut md, &mut gmo, &mut buffer) else {
                continue;
            };
            let mut reply = Mqmd {
                msg_id: md.msg_id,
                persistence,
                ..Mqmd::default()
            };
            connection
                .put(
                    output,
                    &mut reply,
                    &mut Mqpmo::with_options(MQPMO_SYNCPOINT),
                    &buffer[..result.returned_length],
                )
                .expect("MQPUT reply");
            connection.commit().expect("MQCMIT");
        }
        let _ = connection.disconnect();
    }
}

/// MP16's requester: out-of-syncpoint MQPUT of a request with a new MsgId, then MQGET of the
/// reply by that MsgId from the pair's common reply queue. Persistent: the put and the get are
/// each in syncpoint and committed.
fn requester(
    queue_manager: Arc<QueueManager>,
    pair: usize,
    exchange: Exchange,
    stop: &AtomicBool,
    transactions: &AtomicU64,
) -> Latencies {
    let mut connection = Connection::connect(queue_manager, "").expect("MQCONN");
    let output = open(&mut connection, &server_queue(pair), MQOO_OUTPUT);
    let input = open(&mut connection, &reply_queue(pair), MQOO_INPUT_SHARED);
    let request = engine::payload(exchange.size);
    let mut buffer = vec![0u8; exchange.size + 1024];
    let mut latencies = Latencies::with_capacity(1 << 16);
    let (put_syncpoint, get_syncpoint) = if exchange.persistent {
        (MQPMO_SYNCPOINT, MQGMO_SYNCPOINT)
    } else {
        (MQPMO_NO_SYNCPOINT, MQGMO_NO_SYNCPOINT)
    };
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        let mut md = Mqmd {
            persistence: persistence(exchange),
            ..Mqmd::default()
        };
        connection
            .put(
                output,
                &mut md,
                &mut Mqpmo::with_options(put_syncpoint | MQPMO_NEW_MSG_ID),
                &request,
            )
            .expect("MQPUT request");
        if exchange.persistent {
            connection.commit().expect("MQCMIT request");
        }
        let mut reply = Mqmd {
            msg_id: md.msg_id,
            ..Mqmd::default()
        };
        let mut gmo = Mqgmo::with_options(get_syncpoint | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING);
        gmo.match_options = MQMO_MATCH_MSG_ID;
        gmo.wait_interval = REPLY_WAIT_MS;
        let got = connection.get(input, &mut reply, &mut gmo, &mut buffer);
        if exchange.persistent {
            connection.commit().expect("MQCMIT reply");
        }
        if got.is_ok() {
            transactions.fetch_add(1, Ordering::Relaxed);
            latencies.record(started.elapsed());
        }
    }
    let _ = connection.disconnect();
    latencies
}

fn persistence(exchange: Exchange) -> i32 {
    if exchange.persistent {
        MQPER_PERSISTENT
    } else {
        MQPER_NOT_PERSISTENT
    }
}

/// MP16's persistent single-replier case (ch. 7, L7920-7935): 12 requesters, 10 KB, one reply
/// application for strict ordering, every MQPUT and MQGET committed; 2,216 tx/s on a 3931-703
/// with DS8900F, bounded by the 425 µs log force per commit.
const MQ_PERSISTENT_SINGLE_REPLIER: f64 = 2_216.0;

pub fn request_reply_persistent(context: &mut Context) {
    println!("\n== request-reply-persistent: persistent request/reply, commit per put and per get, reply queue indexed by MSGID ==");
    let requester_counts: Vec<usize> =
        context
            .mode
            .pick(vec![1, 4], vec![1, 4, 16, 64], vec![1, 2, 4, 8, 16, 32, 64]);
    let sizes: Vec<usize> =
        context
            .mode
            .pick(vec![1_000], vec![1_000, 10_000], vec![1_000, 10_000]);
    let config = engine::config_for("RRPERSIST", context.mode);
    println!("  config: {}", engine::describe(&config));
    let (queue_manager, directory) = engine::fresh(&context.dir, "rrpersist", &config);
    queue_manager
        .define_queue(
            QueueDefinition::local(&server_queue(0), PageSetId(2)),
            false,
        )
        .expect("define server queue");
    let mut reply = QueueDefinition::local(&reply_queue(0), PageSetId(2));
    reply.index_type = "MSGID".to_string();
    queue_manager
        .define_queue(reply, false)
        .expect("define reply queue");
    let mut cells: Vec<(usize, usize, usize)> = Vec::new();
    for &size in &sizes {
        for &requesters in &requester_counts {
            cells.push((size, 4, requesters));
        }
    }
    cells.push((10_000, 1, context.mode.pick(2, 12, 12)));
    for (size, repliers, requesters) in cells {
        let shape = row(1, repliers, requesters, 0.0, "");
        let exchange = Exchange {
            size,
            persistent: true,
        };
        let mut run = run_request_reply(&queue_manager, shape, exchange, context.duration());
        let rate = run.transactions as f64 / run.elapsed.as_secs_f64();
        let label = format!(
            "{size} B persistent, commit per put and get, {repliers} replier(s), {requesters} requester(s)"
        );
        println!(
            "  {label}: {rate:.0} tx/s, round trip p50 {:.0} us p99 {:.0} us",
            run.round_trip.percentile_us(50.0),
            run.round_trip.percentile_us(99.0)
        );
        let with_fields = |row: Row| {
            row.field("size", size as f64)
                .field("repliers", repliers as f64)
                .field("requesters", requesters as f64)
        };
        let mut rate_row = Row::new(
            "request-reply-persistent",
            format!("{label}: transactions/s"),
            rate,
            "tx/s",
        );
        if repliers == 1 && size == 10_000 {
            rate_row = rate_row.against(
                "MQ 9.3 single replier, 12 requesters, 10 KB (MP16 ch7 L7920-7935)",
                MQ_PERSISTENT_SINGLE_REPLIER,
            );
        } else if let Some(sync_rate) = context.limits.sync_rate {
            rate_row = rate_row.against("4K write+fdatasync/s, pre-written (this run)", sync_rate);
        }
        context.report.push(with_fields(rate_row));
        for row in round_trip_rows("request-reply-persistent", &label, &mut run.round_trip) {
            context.report.push(with_fields(row));
        }
    }
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}

fn open(connection: &mut Connection, queue: &str, options: i32) -> Hobj {
    connection
        .open(&mut Mqod::queue(queue), options)
        .unwrap_or_else(|error| panic!("MQOPEN {queue}: reason {}", error.reason))
}

// ----- common CORRELID on a deep queue -------------------------------------------------------

/// The CORRELID every sharer carries; other messages get unique ones.
const COMMON_CORREL_ID: [u8; 24] = *b"FERRITE.BENCH.COMMON.KEY";

pub fn common_correlid(context: &mut Context) {
    println!("\n== common-correlid: messages sharing one CORRELID on a deep queue indexed by CORRELID, got by CORRELID ==");
    let background = context.mode.pick(1_000u64, 20_000, 100_000);
    let sharer_counts: Vec<u64> = context.mode.pick(
        vec![100],
        vec![100, 10_000],
        vec![10, 100, 1_100, 10_000, 25_000],
    );
    let gets_per_cell = context.mode.pick(100u64, 2_000, 10_000);
    let mut config = engine::config_for("CORRELID", context.mode);
    // The sharers are put, and the last of them got, in one unit of work each: up to 25,000
    // messages, beyond MQ's default MAXUMSGS of 10,000 (MQRC_SYNCPOINT_LIMIT_REACHED).
    config.system.maxumsgs = config.system.maxumsgs.max(100_000);
    println!("  config: {}", engine::describe(&config));
    let (queue_manager, directory) = engine::fresh(&context.dir, "correlid", &config);
    let mut definition = QueueDefinition::local("DEEP.CORREL.Q", PageSetId(2));
    definition.index_type = "CORRELID".to_string();
    queue_manager
        .define_queue(definition, false)
        .expect("define");
    let mut connection = Connection::connect(queue_manager.clone(), "").expect("MQCONN");
    let output = open(&mut connection, "DEEP.CORREL.Q", MQOO_OUTPUT);
    let input = open(&mut connection, "DEEP.CORREL.Q", MQOO_INPUT_SHARED);
    let data = engine::payload(1_000);
    // The deep part: messages with unique CORRELIDs, put in units of work of 100.
    println!("  filling {background} messages with unique CORRELIDs ...");
    for index in 0..background {
        put_with_correl_id(&mut connection, output, unique_correl_id(index), &data);
        if index % 100 == 99 {
            connection.commit().expect("MQCMIT");
        }
    }
    connection.commit().expect("MQCMIT");
    // Baseline: a get by a CORRELID that one message carries.
    let unique_rate = {
        let count = gets_per_cell.min(background);
        let started = Instant::now();
        for index in 0..count {
            get_by_correl_id(&mut connection, input, unique_correl_id(index));
            connection.commit().expect("MQCMIT");
        }
        let rate = count as f64 / started.elapsed().as_secs_f64();
        println!("  unique CORRELID (1 match): {rate:.0} gets/s, each committed");
        context.report.push(
            Row::new(
                "common-correlid",
                format!("get by CORRELID, 1 match, depth {background}: gets/s (commit per get)"),
                rate,
                "gets/s",
            )
            .field("sharers", 1.0)
            .field("depth", background as f64),
        );
        rate
    };
    for sharers in sharer_counts {
        for _ in 0..sharers {
            put_with_correl_id(&mut connection, output, COMMON_CORREL_ID, &data);
        }
        connection.commit().expect("MQCMIT");
        let count = gets_per_cell.min(sharers);
        let started = Instant::now();
        for _ in 0..count {
            get_by_correl_id(&mut connection, input, COMMON_CORREL_ID);
            connection.commit().expect("MQCMIT");
        }
        let rate = count as f64 / started.elapsed().as_secs_f64();
        println!("  {sharers} sharers: {rate:.0} gets/s, each committed");
        // The rest in one unit of work: MP16 says MQ's cost rises past 1,000 gets per unit of
        // work when many messages share the key.
        let remaining = sharers - count;
        if remaining > 0 {
            let started = Instant::now();
            for _ in 0..remaining {
                get_by_correl_id(&mut connection, input, COMMON_CORREL_ID);
            }
            connection.commit().expect("MQCMIT");
            let uow_rate = remaining as f64 / started.elapsed().as_secs_f64();
            println!("    the other {remaining} in one unit of work: {uow_rate:.0} gets/s");
            context.report.push(
                Row::new(
                    "common-correlid",
                    format!(
                        "{sharers} sharers: the last {remaining} got in one unit of work: gets/s"
                    ),
                    uow_rate,
                    "gets/s",
                )
                .against(
                    "same queue, 1 match, commit per get (this run)",
                    unique_rate,
                )
                .field("sharers", sharers as f64)
                .field("depth", background as f64),
            );
        }
        context.report.push(
            Row::new(
                "common-correlid",
                format!("{sharers} sharers, depth {background}: gets/s by the common CORRELID (commit per get)"),
                rate,
                "gets/s",
            )
            .against("same queue, 1 match (this run); MQ: > 6,000 sharers cost > 9x a unique get (MP16 ch6 L7211)", unique_rate)
            .goal(">= 0.5 (no step with the number of sharers)", rate >= 0.5 * unique_rate)
            .field("sharers", sharers as f64)
            .field("depth", background as f64),
        );
    }
    let _ = connection.disconnect();
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}

fn unique_correl_id(index: u64) -> [u8; 24] {
    let mut id = [0u8; 24];
    id[..8].copy_from_slice(b"UNIQUE.K");
    id[8..16].copy_from_slice(&index.to_be_bytes());
    id
}

fn put_with_correl_id(connection: &mut Connection, hobj: Hobj, correl_id: [u8; 24], data: &[u8]) {
    let mut md = Mqmd {
        correl_id,
        persistence: MQPER_NOT_PERSISTENT,
        ..Mqmd::default()
    };
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_SYNCPOINT | MQPMO_NEW_MSG_ID),
            data,
        )
        .unwrap_or_else(|error| panic!("MQPUT: reason {}", error.reason));
}

fn get_by_correl_id(connection: &mut Connection, hobj: Hobj, correl_id: [u8; 24]) {
    let mut md = Mqmd {
        correl_id,
        ..Mqmd::default()
    };
    let mut gmo = Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING);
    gmo.match_options = MQMO_MATCH_CORREL_ID;
    let mut buffer = [0u8; 2048];
    connection
        .get(hobj, &mut md, &mut gmo, &mut buffer)
        .unwrap_or_else(|error| panic!("MQGET by CORRELID: reason {}", error.reason));
    assert_eq!(md.correl_id, correl_id, "MQGET returned another CORRELID");
}

// ----- large units of work -------------------------------------------------------------------

/// Messages per unit of work: MP16's upper end of flat MQPUT/MQGET cost, and MQ's default
/// MAXUMSGS.
pub const LARGE_UOW_MESSAGES: u64 = 10_000;

pub fn large_uow(context: &mut Context) {
    println!("\n== large-uow: {LARGE_UOW_MESSAGES} persistent 1 KiB puts per commit, then {LARGE_UOW_MESSAGES} gets per commit ==");
    let units = context.mode.pick(1u64, 5, 20);
    let config = engine::config_for("LARGEUOW", context.mode);
    println!("  config: {}", engine::describe(&config));
    let (queue_manager, directory) = engine::fresh(&context.dir, "largeuow", &config);
    queue_manager
        .define_queue(QueueDefinition::local("LARGE.UOW.Q", PageSetId(2)), false)
        .expect("define");
    let mut connection = Connection::connect(queue_manager.clone(), "").expect("MQCONN");
    let output = open(&mut connection, "LARGE.UOW.Q", MQOO_OUTPUT);
    let input = open(&mut connection, "LARGE.UOW.Q", MQOO_INPUT_SHARED);
    let data = engine::payload(1_024);

    // The same messages one per unit of work, for the ratio.
    let single = context.mode.pick(200u64, 2_000, 10_000);
    let started = Instant::now();
    for _ in 0..single {
        put_persistent(&mut connection, output, &data);
        connection.commit().expect("MQCMIT");
    }
    let single_rate = single as f64 / started.elapsed().as_secs_f64();
    for _ in 0..single {
        get_next(&mut connection, input);
        connection.commit().expect("MQCMIT");
    }
    println!("  1 put per commit: {single_rate:.0} msgs/s");
    context.report.push(
        Row::new(
            "large-uow",
            "1 persistent 1 KiB put per commit: msgs/s",
            single_rate,
            "msgs/s",
        )
        .field("uow", 1.0),
    );

    let log_before = queue_manager.log().end_rba().0;
    let mut put_time = Duration::ZERO;
    let mut put_commits = Latencies::default();
    let mut get_time = Duration::ZERO;
    let mut get_commits = Latencies::default();
    for _ in 0..units {
        let started = Instant::now();
        for _ in 0..LARGE_UOW_MESSAGES {
            put_persistent(&mut connection, output, &data);
        }
        let committing = Instant::now();
        connection.commit().expect("MQCMIT of 10,000 puts");
        put_commits.record(committing.elapsed());
        put_time += started.elapsed();
    }
    let log_bytes = queue_manager.log().end_rba().0 - log_before;
    for _ in 0..units {
        let started = Instant::now();
        for _ in 0..LARGE_UOW_MESSAGES {
            get_next(&mut connection, input);
        }
        let committing = Instant::now();
        connection.commit().expect("MQCMIT of 10,000 gets");
        get_commits.record(committing.elapsed());
        get_time += started.elapsed();
    }
    let messages = (units * LARGE_UOW_MESSAGES) as f64;
    let put_rate = messages / put_time.as_secs_f64();
    let get_rate = messages / get_time.as_secs_f64();
    let log_rate = log_bytes as f64 / put_time.as_secs_f64();
    println!(
        "  {LARGE_UOW_MESSAGES} puts per commit: {put_rate:.0} msgs/s, commit mean {:.0} us, log {:.1} MB/s",
        put_commits.mean_us(),
        log_rate / 1e6
    );
    println!(
        "  {LARGE_UOW_MESSAGES} gets per commit: {get_rate:.0} msgs/s, commit mean {:.0} us",
        get_commits.mean_us()
    );
    let uow = LARGE_UOW_MESSAGES as f64;
    context.report.push(
        Row::new(
            "large-uow",
            "10,000 persistent 1 KiB puts per commit: msgs/s",
            put_rate,
            "msgs/s",
        )
        .against("1 put per commit (this run)", single_rate)
        .field("uow", uow),
    );
    let mut log_row = Row::new(
        "large-uow",
        "10,000 puts per commit: log MB/s while putting",
        log_rate / 1e6,
        "MB/s",
    )
    .field("uow", uow);
    if let Some(sequential) = context.limits.sequential {
        log_row = log_row.against(
            "synced sequential write 512K, pre-written (this run)",
            sequential / 1e6,
        );
    }
    context.report.push(log_row);
    context.report.push(
        Row::new(
            "large-uow",
            "commit of 10,000 puts: mean latency",
            put_commits.mean_us(),
            "us",
        )
        .against(
            "MQ commit of 1,000 msgs: 51 us elapsed (MP16 ch6 L7182)",
            51.0,
        )
        .field("uow", uow),
    );
    context.report.push(
        Row::new(
            "large-uow",
            "10,000 persistent gets per commit: msgs/s",
            get_rate,
            "msgs/s",
        )
        .field("uow", uow),
    );
    context.report.push(
        Row::new(
            "large-uow",
            "commit of 10,000 gets: mean latency",
            get_commits.mean_us(),
            "us",
        )
        .field("uow", uow),
    );
    let _ = connection.disconnect();
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}

fn put_persistent(connection: &mut Connection, hobj: Hobj, data: &[u8]) {
    let mut md = Mqmd {
        persistence: MQPER_PERSISTENT,
        ..Mqmd::default()
    };
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_SYNCPOINT),
            data,
        )
        .unwrap_or_else(|error| panic!("MQPUT: reason {}", error.reason));
}

fn get_next(connection: &mut Connection, hobj: Hobj) {
    let mut gmo = Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING);
    let mut buffer = [0u8; 2048];
    connection
        .get(hobj, &mut Mqmd::default(), &mut gmo, &mut buffer)
        .unwrap_or_else(|error| panic!("MQGET: reason {}", error.reason));
}

/// User plus system CPU time of this process, in seconds.
fn process_cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let seconds = |time: libc::timeval| time.tv_sec as f64 + time.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
