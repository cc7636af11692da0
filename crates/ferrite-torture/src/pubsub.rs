//! Crash torture of publish/subscribe: durable subscriptions and publications under syncpoint.
//!
//! Two durable administrative subscriptions (one through a `#` wildcard with MQ's properties
//! added, one through `+` with PSPROP(NONE)) route a topic's publications to two local queues.
//! One client connection publishes numbered persistent publications in units of work (1-4
//! publications, committed or backed out) and consumes from the subscribers' queues in units
//! of work; the queue manager is SIGKILLed at seeded random moments and restarted. After every
//! restart each subscriber's queue is browsed and checked against the model:
//!
//! - every publication whose MQCMIT was acknowledged is, for each subscriber, either consumed
//!   (its get's MQCMIT acknowledged) or on the queue exactly once: none lost, none doubled;
//! - a publication of a unit that was backed out or never reached MQCMIT is on no queue;
//! - a unit whose MQCMIT was in flight at the kill is all there, for every subscriber, or all
//!   absent (all or nothing across subscribers and publications);
//! - a consumer's get whose MQCMIT was in flight left its message consumed or on the queue,
//!   not both; nothing is on a queue that was never published.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_client::{Connection, Hobj, MqError, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_constants::{
    get_options::*, object_type::MQOT_TOPIC, open_options::*, persistence::MQPER_PERSISTENT,
    put_options::*, reason::*,
};

use crate::queue_manager::{torture_config, QueueManagerHome, RunningQueueManager};
use crate::random::Random;

/// The queue manager under this torture.
pub const QUEUE_MANAGER_NAME: &str = "PSTORTURE";
/// The topic string publications go to.
pub const TOPIC_STRING: &str = "Torture/Prices";
/// The subscribers' queues, one per durable subscription.
pub const SUBSCRIBER_QUEUES: [&str; 2] = ["TORTURE.SUB.WILD", "TORTURE.SUB.PLAIN"];

/// What a publication's data ends with: this marker and its number, big-endian.
const MARKER: &[u8; 4] = b"PUB:";
/// Most publications in one unit of work.
const UNIT_PUBLICATIONS_MAX: u64 = 4;
/// Most messages one consumer unit gets.
const UNIT_GETS_MAX: u64 = 3;
/// Buffer for a delivered publication (its MQRFH2 and the numbered data).
const GET_BUFFER_BYTES: usize = 4096;
/// Most messages one verification browses on a queue.
const BROWSE_MESSAGES_MAX: usize = 10_000_000;

/// The MQSC of the subscriptions and their queues.
pub fn definitions() -> String {
    let mut mqsc = String::new();
    for queue in SUBSCRIBER_QUEUES {
        mqsc.push_str(&format!(
            "DEFINE QLOCAL({queue}) DEFPSIST(YES) MAXDEPTH(999999999)\n"
        ));
    }
    mqsc.push_str(&format!(
        "DEFINE SUB(TORTURE.WILD) TOPICSTR('Torture/#') DEST({})\n",
        SUBSCRIBER_QUEUES[0]
    ));
    mqsc.push_str(&format!(
        "DEFINE SUB(TORTURE.PLAIN) TOPICSTR('Torture/+') DEST({}) PSPROP(NONE)\n",
        SUBSCRIBER_QUEUES[1]
    ));
    mqsc
}

#[derive(Clone, Debug)]
pub struct PubSubTortureOptions {
    pub crashes: u64,
    pub seed: u64,
    pub ferrite: PathBuf,
    /// Directory for the FERRITE_HOME (default: the system's temporary directory).
    pub work_directory: Option<PathBuf>,
    /// Longest workload between a restart and the next kill.
    pub run_ms_max: u64,
}

#[derive(Clone, Debug, Default)]
pub struct PubSubTortureReport {
    pub crashes_survived: u64,
    pub verifications: u64,
    pub publications_committed: u64,
    pub publications_backed_out: u64,
    pub gets_committed: u64,
    /// Deliveries checked: (publication, subscriber) pairs found consumed or on the queue as
    /// the model says, summed over verifications.
    pub deliveries_verified: u64,
    pub uncertain_units: u64,
    pub uncertain_units_committed: u64,
    pub lost: u64,
    pub duplicated: u64,
    pub phantom: u64,
    /// Uncertain units found partly delivered (some publications or subscribers only).
    pub partial_units: u64,
    /// Problems the workload saw while it ran (a get of a message it should not have had).
    pub workload_violations: Vec<String>,
}

impl PubSubTortureReport {
    pub fn clean(&self) -> bool {
        self.lost == 0
            && self.duplicated == 0
            && self.phantom == 0
            && self.partial_units == 0
            && self.workload_violations.is_empty()
    }
}

/// What the workload knows of one publication.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Publication {
    /// Committed: every subscriber has it, consumed or on its queue.
    Committed,
    /// Backed out, or its unit never reached MQCMIT: no subscriber has it.
    Absent,
    /// Its unit's MQCMIT was in flight at the kill (the unit's number).
    Uncertain(u64),
}

/// The model: every publication, and what each subscriber has consumed.
#[derive(Debug, Default)]
struct Model {
    publications: BTreeMap<u64, Publication>,
    /// Per subscriber queue: publications whose get was committed.
    consumed: [BTreeSet<u64>; 2],
    /// Per subscriber queue: gets whose MQCMIT was in flight at the kill.
    uncertain_gets: [BTreeSet<u64>; 2],
    next_publication: u64,
    next_unit: u64,
}

/// The workload's connection and handles.
struct Session {
    connection: Connection,
    topic: Hobj,
    queues: [Hobj; 2],
}

fn lost(error: &MqError) -> bool {
    matches!(
        error.reason,
        MQRC_CONNECTION_BROKEN
            | MQRC_Q_MGR_NOT_AVAILABLE
            | MQRC_Q_MGR_QUIESCING
            | MQRC_Q_MGR_STOPPING
            | MQRC_CONNECTION_QUIESCING
            | MQRC_CONNECTION_STOPPING
    )
}

/// A failure the workload does not expect, as text; None when the queue manager went away.
fn unexpected(call: &str, error: MqError) -> Option<String> {
    (!lost(&error)).then(|| format!("{call} failed: {error}"))
}

fn open_session(home: &QueueManagerHome) -> Result<Session, MqError> {
    let mut connection = Connection::connect(home.socket(), &home.name)?;
    let mut topic = Mqod {
        object_type: MQOT_TOPIC,
        object_string: TOPIC_STRING.to_string(),
        ..Mqod::default()
    };
    let topic = connection.open(&mut topic, MQOO_OUTPUT | MQOO_FAIL_IF_QUIESCING)?;
    let options = MQOO_INPUT_SHARED | MQOO_BROWSE | MQOO_FAIL_IF_QUIESCING;
    let first = connection.open(&mut Mqod::queue(SUBSCRIBER_QUEUES[0]), options)?;
    let second = connection.open(&mut Mqod::queue(SUBSCRIBER_QUEUES[1]), options)?;
    Ok(Session {
        connection,
        topic,
        queues: [first, second],
    })
}

/// The publication number a delivered copy carries (its data's last 12 bytes), if any.
fn publication_number(data: &[u8]) -> Option<u64> {
    let tail = data.len().checked_sub(MARKER.len() + 8)?;
    if &data[tail..tail + MARKER.len()] != MARKER {
        return None;
    }
    let number: [u8; 8] = data[tail + MARKER.len()..].try_into().ok()?;
    Some(u64::from_be_bytes(number))
}

impl Model {
    /// Publish one unit: Ok(()) when it was committed or backed out as asked; Err when the
    /// connection was lost (the model left as the unit's fate is known) or a call failed.
    fn publish_unit(
        &mut self,
        session: &mut Session,
        random: &mut Random,
        report: &mut PubSubTortureReport,
    ) -> Result<(), Option<String>> {
        let count = random.between(1, UNIT_PUBLICATIONS_MAX);
        let unit = self.next_unit;
        self.next_unit += 1;
        let mut numbers = Vec::new();
        for _ in 0..count {
            let number = self.next_publication;
            self.next_publication += 1;
            // Not yet committed: absent whatever happens before MQCMIT.
            self.publications.insert(number, Publication::Absent);
            numbers.push(number);
            let mut data = vec![b'p'; random.below(200) as usize];
            data.extend_from_slice(MARKER);
            data.extend_from_slice(&number.to_be_bytes());
            let mut md = Mqmd {
                persistence: MQPER_PERSISTENT,
                ..Mqmd::default()
            };
            let mut pmo = Mqpmo::with_options(MQPMO_SYNCPOINT | MQPMO_FAIL_IF_QUIESCING);
            session
                .connection
                .put(session.topic, &mut md, &mut pmo, &data)
                .map_err(|error| unexpected("MQPUT (publish)", error))?;
        }
        if random.percent(20) {
            session
                .connection
                .backout()
                .map_err(|error| unexpected("MQBACK", error))?;
            report.publications_backed_out += count;
            return Ok(());
        }
        for number in &numbers {
            self.publications
                .insert(*number, Publication::Uncertain(unit));
        }
        session
            .connection
            .commit()
            .map_err(|error| unexpected("MQCMIT (publish)", error))?;
        for number in &numbers {
            self.publications.insert(*number, Publication::Committed);
        }
        report.publications_committed += count;
        Ok(())
    }

    /// Consume from one subscriber's queue in a unit of work.
    fn consume_unit(
        &mut self,
        session: &mut Session,
        random: &mut Random,
        report: &mut PubSubTortureReport,
    ) -> Result<(), Option<String>> {
        let subscriber = random.below(2) as usize;
        let mut got = Vec::new();
        for _ in 0..random.between(1, UNIT_GETS_MAX) {
            let mut md = Mqmd::default();
            let mut gmo =
                Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_NO_WAIT | MQGMO_FAIL_IF_QUIESCING);
            let mut buffer = vec![0u8; GET_BUFFER_BYTES];
            match session
                .connection
                .get(session.queues[subscriber], &mut md, &mut gmo, &mut buffer)
            {
                Ok(result) => {
                    buffer.truncate(result.returned_length);
                    got.push(self.check_got(subscriber, &buffer, report));
                }
                Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
                Err(error) => return Err(unexpected("MQGET", error)),
            }
        }
        let got: Vec<u64> = got.into_iter().flatten().collect();
        if random.percent(20) {
            return session
                .connection
                .backout()
                .map_err(|error| unexpected("MQBACK", error));
        }
        self.uncertain_gets[subscriber].extend(&got);
        session
            .connection
            .commit()
            .map_err(|error| unexpected("MQCMIT (gets)", error))?;
        for number in got {
            self.uncertain_gets[subscriber].remove(&number);
            self.consumed[subscriber].insert(number);
            report.gets_committed += 1;
        }
        Ok(())
    }

    /// A got message must be a committed publication this subscriber has not consumed.
    fn check_got(
        &self,
        subscriber: usize,
        data: &[u8],
        report: &mut PubSubTortureReport,
    ) -> Option<u64> {
        let queue = SUBSCRIBER_QUEUES[subscriber];
        let Some(number) = publication_number(data) else {
            report
                .workload_violations
                .push(format!("{queue}: a message that is no publication"));
            return None;
        };
        if self.publications.get(&number) != Some(&Publication::Committed) {
            report.workload_violations.push(format!(
                "{queue}: publication {number} got while {:?}",
                self.publications.get(&number)
            ));
        }
        if self.consumed[subscriber].contains(&number) {
            report
                .workload_violations
                .push(format!("{queue}: publication {number} got twice"));
        }
        Some(number)
    }

    /// Check what the subscribers' queues hold (`on_queue[subscriber]`: how many copies of
    /// each publication) against the model, then settle what was uncertain as found.
    fn verify(&mut self, on_queue: &[HashMap<u64, u32>; 2], report: &mut PubSubTortureReport) {
        report.verifications += 1;
        for (subscriber, copies) in on_queue.iter().enumerate() {
            for (number, count) in copies {
                if *count > 1 {
                    report.duplicated += u64::from(*count - 1);
                }
                let consumed = self.consumed[subscriber].contains(number);
                match self.publications.get(number) {
                    None | Some(Publication::Absent) => report.phantom += 1,
                    Some(_) if consumed => report.duplicated += 1,
                    Some(_) => {}
                }
            }
        }
        // Uncertain units: all there for every subscriber, or all absent.
        let mut units: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
        for (number, publication) in &self.publications {
            if let Publication::Uncertain(unit) = publication {
                units.entry(*unit).or_default().push(*number);
            }
        }
        for numbers in units.values() {
            report.uncertain_units += 1;
            let present = numbers
                .iter()
                .flat_map(|number| {
                    on_queue
                        .iter()
                        .map(move |copies| copies.contains_key(number))
                })
                .filter(|here| *here)
                .count();
            let all = numbers.len() * on_queue.len();
            let outcome = match present {
                0 => Publication::Absent,
                here if here == all => {
                    report.uncertain_units_committed += 1;
                    Publication::Committed
                }
                _ => {
                    report.partial_units += 1;
                    Publication::Committed
                }
            };
            for number in numbers {
                self.publications.insert(*number, outcome);
            }
        }
        // Gets in flight: consumed when no longer on the queue.
        for (subscriber, copies) in on_queue.iter().enumerate() {
            let uncertain = std::mem::take(&mut self.uncertain_gets[subscriber]);
            for number in uncertain {
                if !copies.contains_key(&number) {
                    self.consumed[subscriber].insert(number);
                }
            }
        }
        // Every committed publication: consumed or on the queue, for every subscriber.
        for (number, publication) in &self.publications {
            if *publication != Publication::Committed {
                continue;
            }
            for (subscriber, copies) in on_queue.iter().enumerate() {
                let consumed = self.consumed[subscriber].contains(number);
                if consumed || copies.contains_key(number) {
                    report.deliveries_verified += 1;
                } else {
                    report.lost += 1;
                }
            }
        }
    }
}

/// Browse each subscriber's queue: how many copies of each publication it holds.
fn browse_all(session: &mut Session) -> Result<[HashMap<u64, u32>; 2], String> {
    let mut found = [HashMap::new(), HashMap::new()];
    for (subscriber, copies) in found.iter_mut().enumerate() {
        let mut position = MQGMO_BROWSE_FIRST;
        for _ in 0..BROWSE_MESSAGES_MAX {
            let mut md = Mqmd::default();
            let mut gmo = Mqgmo::with_options(position | MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT);
            let mut buffer = vec![0u8; GET_BUFFER_BYTES];
            match session
                .connection
                .get(session.queues[subscriber], &mut md, &mut gmo, &mut buffer)
            {
                Ok(result) => {
                    buffer.truncate(result.returned_length);
                    // A message that is no publication counts as a phantom (number u64::MAX).
                    let number = publication_number(&buffer).unwrap_or(u64::MAX);
                    *copies.entry(number).or_insert(0) += 1;
                }
                Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
                Err(error) => {
                    return Err(format!(
                        "browse of {}: {error}",
                        SUBSCRIBER_QUEUES[subscriber]
                    ))
                }
            }
            position = MQGMO_BROWSE_NEXT;
        }
    }
    Ok(found)
}

/// Run the workload on its own thread until the connection is lost (the kill) or `stop`.
fn start_workload(
    home: QueueManagerHome,
    mut model: Model,
    mut random: Random,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<(Model, Random, PubSubTortureReport, Option<String>)> {
    std::thread::spawn(move || {
        let mut report = PubSubTortureReport::default();
        let mut session = match open_session(&home) {
            Ok(session) => session,
            Err(error) => {
                let failure = unexpected("MQCONN/MQOPEN", error);
                return (model, random, report, failure);
            }
        };
        while !stop.load(Ordering::Relaxed) {
            let step = if random.percent(60) {
                model.publish_unit(&mut session, &mut random, &mut report)
            } else {
                model.consume_unit(&mut session, &mut random, &mut report)
            };
            if let Err(failure) = step {
                return (model, random, report, failure);
            }
        }
        let _ = session.connection.backout();
        (model, random, report, None)
    })
}

fn add(total: &mut PubSubTortureReport, part: PubSubTortureReport) {
    total.publications_committed += part.publications_committed;
    total.publications_backed_out += part.publications_backed_out;
    total.gets_committed += part.gets_committed;
    total.workload_violations.extend(part.workload_violations);
}

/// Restart, browse, check against the model; the running queue manager.
fn restart_and_verify(
    home: &QueueManagerHome,
    model: &mut Model,
    report: &mut PubSubTortureReport,
) -> Result<RunningQueueManager, String> {
    let (running, _) = home.start()?;
    let mut session = open_session(home).map_err(|error| format!("after restart: {error}"))?;
    let on_queue = browse_all(&mut session)?;
    model.verify(&on_queue, report);
    let _ = session.connection.disconnect();
    Ok(running)
}

/// The torture: create the queue manager with the subscriptions, then `crashes` times run the
/// workload, SIGKILL at a seeded moment, restart and verify; finally a clean stop, restart and
/// verification.
pub fn run(
    options: &PubSubTortureOptions,
    log: &mut dyn FnMut(&str),
) -> Result<PubSubTortureReport, String> {
    let work = match &options.work_directory {
        Some(directory) => tempfile::tempdir_in(directory),
        None => tempfile::tempdir(),
    }
    .map_err(|error| format!("temporary directory: {error}"))?;
    let home = QueueManagerHome {
        ferrite: options.ferrite.clone(),
        home: work.path().to_path_buf(),
        name: QUEUE_MANAGER_NAME.to_string(),
        listener_port: None,
    };
    home.create(&torture_config(QUEUE_MANAGER_NAME), &definitions())?;
    let mut report = PubSubTortureReport::default();
    let mut model = Model::default();
    let mut random = Random::new(options.seed);
    let mut schedule = Random::derive(options.seed, 1, 0);
    let (mut running, _) = home.start()?;
    for crash in 0..options.crashes {
        let stop = Arc::new(AtomicBool::new(false));
        let worker = start_workload(home.clone(), model, random, stop.clone());
        let run_ms = schedule.between(50, options.run_ms_max.max(51));
        let until = Instant::now() + Duration::from_millis(run_ms);
        while Instant::now() < until && !worker.is_finished() {
            std::thread::sleep(Duration::from_millis(5));
        }
        running.kill()?;
        let (returned_model, returned_random, part, failure) = worker
            .join()
            .map_err(|_| "the workload thread panicked".to_string())?;
        if let Some(failure) = failure {
            return Err(format!("crash {crash}: {failure}"));
        }
        (model, random) = (returned_model, returned_random);
        add(&mut report, part);
        running = restart_and_verify(&home, &mut model, &mut report)?;
        report.crashes_survived += 1;
        log(&format!(
            "crash {}: {} publications committed, {} deliveries verified, lost {} duplicated {} phantom {} partial {}",
            crash + 1,
            report.publications_committed,
            report.deliveries_verified,
            report.lost,
            report.duplicated,
            report.phantom,
            report.partial_units
        ));
    }
    running.stop()?;
    let running = restart_and_verify(&home, &mut model, &mut report)?;
    running.stop()?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_finds_lost_doubled_phantom_and_partial() {
        let mut model = Model::default();
        for (number, publication) in [
            (0, Publication::Committed),
            (1, Publication::Committed),
            (2, Publication::Absent),
            (3, Publication::Uncertain(7)),
            (4, Publication::Uncertain(7)),
        ] {
            model.publications.insert(number, publication);
        }
        model.consumed[0].insert(1);
        // The first subscriber has 0 twice, 2 (never committed), and only half of unit 7.
        let first = HashMap::from([(0, 2), (2, 1), (3, 1)]);
        let second = HashMap::from([(0, 1), (1, 1), (3, 1), (4, 1)]);
        let mut report = PubSubTortureReport::default();
        model.verify(&[first, second], &mut report);
        assert_eq!(report.duplicated, 1);
        assert_eq!(report.phantom, 1);
        assert_eq!(report.partial_units, 1);
        assert_eq!(report.lost, 1, "4 for the first subscriber");
        assert!(!report.clean());

        // As the queue manager should leave them: clean.
        let mut model = Model::default();
        model.publications.insert(0, Publication::Committed);
        model.publications.insert(1, Publication::Uncertain(3));
        model.uncertain_gets[1].insert(0);
        let mut report = PubSubTortureReport::default();
        model.verify(
            &[HashMap::from([(0, 1), (1, 1)]), HashMap::from([(1, 1)])],
            &mut report,
        );
        assert!(report.clean(), "{report:?}");
        assert_eq!(report.uncertain_units_committed, 1);
        assert!(
            model.consumed[1].contains(&0),
            "the get in flight was committed"
        );
        assert_eq!(publication_number(b"xxPUB:\0\0\0\0\0\0\0\x05"), Some(5));
        assert_eq!(publication_number(b"short"), None);
    }
}
