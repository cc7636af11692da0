//! `rest`: the messaging REST API (ferrite-web) of an in-process queue manager.
//!
//! 1. Round trips: one HTTP/1.1 client on a kept-alive connection POSTs a non-persistent
//!    text message and DELETEs (gets) it, over and over, for the run's seconds: round trips
//!    (put + get) per second.
//! 2. The same against RabbitMQ's management HTTP API, when `--rabbitmq-management URL`
//!    names one (scripts/bench --rest starts a RabbitMQ node with the management plugin):
//!    `POST /api/exchanges/%2F/amq.default/publish` then `POST /api/queues/%2F/{queue}/get`
//!    (ackmode ack_requeue_false), same body, same client, in the same run.
//! 3. What the web server costs the message path: MP16's single-queue workload (1,000 B
//!    non-persistent, 4 putters + 4 getters, commit per message) on the same queue manager
//!    with no web server, with the web server idle, and with it serving a steady REST load
//!    ([`REST_LOAD_ROUND_TRIPS_PER_SECOND`] put+get round trips a second on another queue),
//!    the three alternated round by round; then the REST load alone, for the CPU it takes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use ferrite_queue_manager::security::users::UserRegistry;
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::PageSetId;
use ferrite_web::limits::RateLimit;
use ferrite_web::roles::{Role, RoleRegistry};
use ferrite_web::{WebOptions, WebServer};

use crate::engine;
use crate::mqi_workloads::{self, ProcessUsage};
use crate::report::Row;
use crate::Context;

const QUEUE: &str = "REST.BENCH";
const USER: &str = "bench";
const PASSWORD: &str = "bench-password";
const MESSAGE_BYTES: usize = 32;
/// The single-queue workload's message size for the web server's cost.
const SINGLE_QUEUE_BYTES: usize = 1_000;
/// The steady REST load while the single-queue workload runs: put+get round trips a second.
pub const REST_LOAD_ROUND_TRIPS_PER_SECOND: u64 = 100;
/// RabbitMQ's queue for its round trips (a durable classic queue, as the JMS cells use).
const RABBITMQ_QUEUE: &str = "rest.bench";
/// RabbitMQ's default user, which its default configuration admits from loopback only.
const RABBITMQ_USER: &str = "guest";

/// The queue manager's MQSC that lets the benchmark's user put and get on the queue.
const SETUP: [&str; 3] = [
    "DEFINE QLOCAL(REST.BENCH) DEFPSIST(NO)",
    "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bench') AUTHADD(CONNECT)",
    "SET AUTHREC PROFILE(REST.BENCH) OBJTYPE(QUEUE) PRINCIPAL('bench') AUTHADD(PUT,GET)",
];

fn basic_authorization(user: &str, password: &str) -> String {
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

/// One client of the messaging REST API on a kept-alive connection.
struct RestClient {
    agent: ureq::Agent,
    url: String,
    authorization: String,
    body: String,
}

impl RestClient {
    fn new(server: &WebServer) -> RestClient {
        RestClient {
            agent: ureq::Agent::new(),
            url: format!(
                "{}ibmmq/rest/v3/messaging/qmgr/RESTQM/queue/{QUEUE}/message",
                server.url()
            ),
            authorization: basic_authorization(USER, PASSWORD),
            body: "x".repeat(MESSAGE_BYTES),
        }
    }

    /// POST a message, then DELETE (get) it.
    fn round_trip(&self) {
        let put = self
            .agent
            .post(&self.url)
            .set("Authorization", &self.authorization)
            .set("ibm-mq-rest-csrf-token", "")
            .set("Content-Type", "text/plain")
            .send_string(&self.body)
            .expect("REST put");
        assert_eq!(put.status(), 201);
        let got = self
            .agent
            .delete(&self.url)
            .set("Authorization", &self.authorization)
            .set("ibm-mq-rest-csrf-token", "")
            .call()
            .expect("REST get");
        assert_eq!(got.status(), 200);
        assert_eq!(got.into_string().expect("the message").len(), MESSAGE_BYTES);
    }
}

/// Round trips per second of `round_trip` for `duration` (after one unmeasured, which pays
/// the password hash and the connection).
fn round_trips_per_second(duration: Duration, mut round_trip: impl FnMut()) -> (u64, f64) {
    round_trip();
    let started = Instant::now();
    let mut round_trips = 0u64;
    while started.elapsed() < duration {
        round_trip();
        round_trips += 1;
    }
    (
        round_trips,
        round_trips as f64 / started.elapsed().as_secs_f64(),
    )
}

fn start_web_server(queue_manager: &Arc<QueueManager>) -> WebServer {
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
    WebServer::start(processor, options).expect("the web server starts")
}

pub fn rest_round_trips(context: &mut Context) {
    println!("\n== rest: messaging REST API put+get round trips (one client, HTTP/1.1 kept alive, non-persistent {MESSAGE_BYTES} bytes) ==");
    let config = engine::bench_config("RESTQM");
    println!("  config: {}", engine::describe(&config));
    let (queue_manager, directory) = engine::fresh(&context.dir, "rest", &config);
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
    let server = start_web_server(&queue_manager);
    let client = RestClient::new(&server);
    let (round_trips, rate) = round_trips_per_second(context.duration(), || client.round_trip());
    println!("  ferrite: {round_trips} round trips: {rate:.0} round trips/s");
    context.report.push(Row::new(
        "rest",
        "messaging REST API put+get round trips, 1 client, non-persistent",
        rate,
        "rt/s",
    ));
    if let Some(management) = context.rabbitmq_management.clone() {
        rabbitmq_round_trips(context, &management, rate);
    }
    drop(client);
    server.stop();
    web_server_cost(context, &queue_manager);
    queue_manager.shutdown().expect("shutdown");
    engine::remove(&directory);
}

/// RabbitMQ's management HTTP API: publish to the default exchange, then get from the queue.
fn rabbitmq_round_trips(context: &mut Context, management: &str, ferrite_rate: f64) {
    let base = management.trim_end_matches('/');
    let agent = ureq::Agent::new();
    let password = std::env::var("RABBITMQ_PASSWORD").unwrap_or_else(|_| "guest".to_string());
    let authorization = basic_authorization(RABBITMQ_USER, &password);
    let queue_url = format!("{base}/api/queues/%2F/{RABBITMQ_QUEUE}");
    let declared = agent
        .put(&queue_url)
        .set("Authorization", &authorization)
        .set("Content-Type", "application/json")
        .send_string(r#"{"durable":true,"auto_delete":false}"#);
    if let Err(error) = declared {
        println!("  RabbitMQ management API at {base}: not available ({error})");
        return;
    }
    let payload = "x".repeat(MESSAGE_BYTES);
    let publish_url = format!("{base}/api/exchanges/%2F/amq.default/publish");
    let publish = format!(
        r#"{{"properties":{{"delivery_mode":1}},"routing_key":"{RABBITMQ_QUEUE}","payload":"{payload}","payload_encoding":"string"}}"#
    );
    let get_url = format!("{queue_url}/get");
    let get = r#"{"count":1,"ackmode":"ack_requeue_false","encoding":"auto"}"#;
    let expected = format!(r#""payload":"{payload}""#);
    let round_trip = || {
        let published = agent
            .post(&publish_url)
            .set("Authorization", &authorization)
            .set("Content-Type", "application/json")
            .send_string(&publish)
            .expect("RabbitMQ publish");
        assert!(published
            .into_string()
            .expect("publish's answer")
            .contains(r#""routed":true"#));
        let got = agent
            .post(&get_url)
            .set("Authorization", &authorization)
            .set("Content-Type", "application/json")
            .send_string(get)
            .expect("RabbitMQ get");
        assert!(got.into_string().expect("get's answer").contains(&expected));
    };
    let (round_trips, rate) = round_trips_per_second(context.duration(), round_trip);
    println!(
        "  RabbitMQ management API ({base}): {round_trips} round trips: {rate:.0} round trips/s (Ferrite {:.2}x)",
        ferrite_rate / rate.max(f64::MIN_POSITIVE)
    );
    context.report.push(
        Row::new(
            "rest",
            "HTTP put+get round trips, 1 client, non-persistent: Ferrite's messaging REST API against RabbitMQ's management API publish+get",
            ferrite_rate,
            "rt/s",
        )
        .against("RabbitMQ management HTTP API publish+get, same run", rate),
    );
    context.report.push(
        Row::new(
            "rest",
            "management HTTP API publish+get round trips, 1 client, non-persistent",
            rate,
            "rt/s",
        )
        .system("rabbitmq"),
    );
}

/// The web server's state during one single-queue run.
#[derive(Copy, Clone, PartialEq, Eq)]
enum WebState {
    Absent,
    Idle,
    Busy,
}

impl WebState {
    fn describe(self) -> String {
        match self {
            WebState::Absent => "no web server".to_string(),
            WebState::Idle => "web server idle".to_string(),
            WebState::Busy => format!(
                "web server serving {REST_LOAD_ROUND_TRIPS_PER_SECOND} REST put+get round trips/s"
            ),
        }
    }
}

/// A REST client thread making [`REST_LOAD_ROUND_TRIPS_PER_SECOND`] round trips a second
/// until stopped; its round trips counted.
struct RestLoad {
    stop: Arc<AtomicBool>,
    round_trips: Arc<AtomicU64>,
    thread: std::thread::JoinHandle<()>,
}

impl RestLoad {
    fn start(server: &WebServer) -> RestLoad {
        let client = RestClient::new(server);
        // The first round trip pays the password hash and the connection, before the run.
        client.round_trip();
        let stop = Arc::new(AtomicBool::new(false));
        let round_trips = Arc::new(AtomicU64::new(0));
        let thread = {
            let stop = stop.clone();
            let round_trips = round_trips.clone();
            std::thread::spawn(move || {
                let interval = Duration::from_secs(1) / REST_LOAD_ROUND_TRIPS_PER_SECOND as u32;
                let mut next = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    client.round_trip();
                    round_trips.fetch_add(1, Ordering::Relaxed);
                    next += interval;
                    let now = Instant::now();
                    if next > now {
                        std::thread::sleep(next - now);
                    } else {
                        next = now; // behind: steady from here, no burst to catch up
                    }
                }
            })
        };
        RestLoad {
            stop,
            round_trips,
            thread,
        }
    }

    /// Stop it; the round trips it made.
    fn stop(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the REST load");
        self.round_trips.load(Ordering::Relaxed)
    }
}

/// Single-queue 1,000 B with no web server, an idle one and a busy one, alternated.
fn web_server_cost(context: &mut Context, queue_manager: &Arc<QueueManager>) {
    println!("\n== rest: the web server's cost to the message path: single-queue {SINGLE_QUEUE_BYTES} B, 4+4 apps, commit per message, with no web server / idle / serving {REST_LOAD_ROUND_TRIPS_PER_SECOND} REST put+get/s, alternated ==");
    queue_manager
        .define_queue(QueueDefinition::local("SINGLE.Q", PageSetId(2)), false)
        .expect("define SINGLE.Q");
    let queue = queue_manager.queue("SINGLE.Q").expect("SINGLE.Q");
    let rounds = context.mode.pick(1, 2, 3);
    let states = [WebState::Absent, WebState::Idle, WebState::Busy];
    let mut rates = [0.0f64; 3];
    let mut cpu_pair_us = [0.0f64; 3];
    // The busy runs' REST round trips a second as served (under the target when the two
    // cores are saturated).
    let mut served_per_second = 0.0f64;
    for round in 1..=rounds {
        for (index, state) in states.iter().enumerate() {
            let server = (*state != WebState::Absent).then(|| start_web_server(queue_manager));
            let load = (*state == WebState::Busy)
                .then(|| RestLoad::start(server.as_ref().expect("a server")));
            let started = Instant::now();
            let run = mqi_workloads::single_queue_run(
                queue_manager,
                &queue,
                SINGLE_QUEUE_BYTES,
                context.putter_nice,
                context.duration(),
            );
            let served = load.map(RestLoad::stop);
            if let Some(served) = served {
                served_per_second +=
                    served as f64 / started.elapsed().as_secs_f64() / rounds as f64;
            }
            if let Some(server) = server {
                server.stop();
            }
            let _ = queue_manager.clear_queue(&queue);
            println!(
                "  round {round}, {}: {:.0} msgs/s got, {:.2} process CPU µs per put+get pair{}{}",
                state.describe(),
                run.rate,
                run.cpu_pair_us,
                served.map_or(String::new(), |served| format!(
                    ", {served} REST round trips served"
                )),
                if run.sustained { "" } else { "; NOT sustained" },
            );
            rates[index] += run.rate / rounds as f64;
            cpu_pair_us[index] += run.cpu_pair_us / rounds as f64;
        }
    }
    // The REST load alone, for the CPU it takes from the two cores the workload shares.
    let server = start_web_server(queue_manager);
    let load = RestLoad::start(&server);
    let before = ProcessUsage::now();
    let started = Instant::now();
    std::thread::sleep(context.duration());
    let served = load.stop();
    let load_cpu =
        ProcessUsage::now().since(&before).cpu_seconds() / started.elapsed().as_secs_f64();
    server.stop();
    println!(
        "  the REST load alone: {served} round trips, {:.1}% of one core (the process's CPU); while single-queue ran it was served at {served_per_second:.0} round trips/s",
        load_cpu * 100.0
    );
    for (index, state) in states.iter().enumerate() {
        let mut row = Row::new(
            "rest",
            format!(
                "single-queue {SINGLE_QUEUE_BYTES} B non-persistent, 4+4 apps, commit per message, {}",
                state.describe()
            ),
            rates[index],
            "msgs/s",
        )
        .field("cpu_pair_us", cpu_pair_us[index])
        .field("rounds", rounds as f64);
        if *state == WebState::Busy {
            row = row.field("rest_round_trips_per_second", served_per_second);
        }
        if index > 0 {
            row = row.against(
                format!("{}, same run", states[index - 1].describe()),
                rates[index - 1],
            );
        }
        context.report.push(row);
    }
    context.report.push(Row::new(
        "rest",
        format!("REST load of {REST_LOAD_ROUND_TRIPS_PER_SECOND} put+get round trips/s alone: process CPU"),
        load_cpu * 100.0,
        "% of a core",
    ));
}
