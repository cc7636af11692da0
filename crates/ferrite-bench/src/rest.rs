//! `rest`: round trips through the messaging REST API (ferrite-web) of an in-process queue
//! manager: one HTTP/1.1 client on a kept-alive connection POSTs a non-persistent text
//! message and DELETEs (gets) it, over and over, for the run's seconds. The figure is round
//! trips (put + get) per second, for comparison with other brokers' HTTP messaging APIs.

use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use ferrite_queue_manager::security::users::UserRegistry;
use ferrite_web::limits::RateLimit;
use ferrite_web::roles::{Role, RoleRegistry};
use ferrite_web::{WebOptions, WebServer};

use crate::engine;
use crate::report::Row;
use crate::Context;

const QUEUE: &str = "REST.BENCH";
const USER: &str = "bench";
const PASSWORD: &str = "bench-password";
const MESSAGE_BYTES: usize = 32;

/// The queue manager's MQSC that lets the benchmark's user put and get on the queue.
const SETUP: [&str; 3] = [
    "DEFINE QLOCAL(REST.BENCH) DEFPSIST(NO)",
    "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bench') AUTHADD(CONNECT)",
    "SET AUTHREC PROFILE(REST.BENCH) OBJTYPE(QUEUE) PRINCIPAL('bench') AUTHADD(PUT,GET)",
];

pub fn rest_round_trips(context: &mut Context) {
    println!("\n== rest: messaging REST API put+get round trips (one client, HTTP/1.1 kept alive, non-persistent {MESSAGE_BYTES} bytes) ==");
    let (queue_manager, directory) =
        engine::fresh(&context.dir, "rest", &engine::bench_config("RESTQM"));
    ferrite_command::define_default_objects(&queue_manager).expect("default objects");
    for command in SETUP {
        let response = ferrite_command::run_command(&queue_manager, command);
        assert!(response.success, "{command}: {}", response.text());
    }
    UserRegistry::new(&directory)
        .add(USER, PASSWORD.as_bytes(), false)
        .expect("the benchmark's user");
    RoleRegistry::new(&directory)
        .set(USER, &[Role::MqWebUser])
        .expect("the benchmark's role");
    let processor = Arc::new(ferrite_command::CommandProcessor::new(
        queue_manager.clone(),
    ));
    // No rate limit: the benchmark is the one client, and measures the server's limit.
    let options = WebOptions {
        rate_limit: RateLimit {
            requests: u32::MAX,
            period: Duration::from_secs(1),
        },
        ..WebOptions::http("127.0.0.1:0".parse().unwrap())
    };
    let server = WebServer::start(processor, options).expect("the web server starts");
    let url = format!(
        "{}ibmmq/rest/v3/messaging/qmgr/RESTQM/queue/{QUEUE}/message",
        server.url()
    );
    let authorization = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"))
    );
    let agent = ureq::Agent::new();
    let body = "x".repeat(MESSAGE_BYTES);
    let round_trip = || {
        let put = agent
            .post(&url)
            .set("Authorization", &authorization)
            .set("ibm-mq-rest-csrf-token", "")
            .set("Content-Type", "text/plain")
            .send_string(&body)
            .expect("REST put");
        assert_eq!(put.status(), 201);
        let got = agent
            .delete(&url)
            .set("Authorization", &authorization)
            .set("ibm-mq-rest-csrf-token", "")
            .call()
            .expect("REST get");
        assert_eq!(got.status(), 200);
        assert_eq!(got.into_string().expect("the message").len(), MESSAGE_BYTES);
    };
    // The first request pays the password hash; the measured ones find it remembered.
    round_trip();
    let started = Instant::now();
    let mut round_trips = 0u64;
    while started.elapsed() < context.duration() {
        round_trip();
        round_trips += 1;
    }
    let rate = round_trips as f64 / started.elapsed().as_secs_f64();
    println!(
        "  {round_trips} round trips in {:.1} s: {rate:.0} round trips/s",
        started.elapsed().as_secs_f64()
    );
    context.report.push(Row::new(
        "rest",
        "messaging REST API put+get round trips, 1 client, non-persistent",
        rate,
        "rt/s",
    ));
    server.stop();
    queue_manager.shutdown().expect("shutdown");
}
