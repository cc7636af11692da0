//! The mixed persistent workload one client connection runs: units of work of puts and gets
//! ending in MQCMIT or MQBACK, out-of-syncpoint puts and gets (by CorrelId), and browses,
//! over shallow queues, a deep queue and a queue indexed by CorrelId, with priorities 0–9 and
//! messages of 0 B to 100 KB. Every call is reported to the [`Model`] around the call, and
//! every message a get or browse returns is checked by it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrite_client::{Connection, Hobj, MqError, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_constants::{
    get_options::*, match_options::*, open_options::*, persistence::*, put_options::*, reason::*,
};

use crate::message::{self, MessageIdentity};
use crate::model::{observe, Model, Observed, UnitOfWork};
use crate::random::Random;

/// What an MQGET got, as the model checks it: `md` as the get left it and the data.
fn observe_got(md: &Mqmd, data: &[u8]) -> Observed {
    observe(md.msg_id, md.correl_id, md.priority, md.persistence, data)
}

/// The queues of the workload: what each is for, and its MQSC definition.
#[derive(Clone, Debug)]
pub struct QueueSpec {
    pub name: &'static str,
    pub role: QueueRole,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum QueueRole {
    /// Got from about as often as put to: stays a few messages deep.
    Shallow,
    /// Put to more than got from until it holds `deep_depth_target` messages.
    Deep,
    /// INDXTYPE(CORRELID); got from by CorrelId.
    Indexed,
}

pub const QUEUES: &[QueueSpec] = &[
    QueueSpec {
        name: "TORTURE.SHALLOW.A",
        role: QueueRole::Shallow,
    },
    QueueSpec {
        name: "TORTURE.SHALLOW.B",
        role: QueueRole::Shallow,
    },
    QueueSpec {
        name: "TORTURE.DEEP",
        role: QueueRole::Deep,
    },
    QueueSpec {
        name: "TORTURE.INDEXED",
        role: QueueRole::Indexed,
    },
];

/// The MQSC that defines the workload's queues.
pub fn queue_definitions() -> String {
    QUEUES
        .iter()
        .map(|queue| {
            let index = if queue.role == QueueRole::Indexed {
                " INDXTYPE(CORRELID)"
            } else {
                ""
            };
            format!(
                "DEFINE QLOCAL({}) DEFPSIST(YES) MAXDEPTH(999999999) MAXMSGL(4194304){index}\n",
                queue.name
            )
        })
        .collect()
}

pub fn queue_names() -> Vec<String> {
    QUEUES.iter().map(|queue| queue.name.to_string()).collect()
}

/// Depth around which the shallow queues stay.
const SHALLOW_DEPTH_TARGET: usize = 20;
/// Depth around which the indexed queue stays.
const INDEXED_DEPTH_TARGET: usize = 200;
/// Largest number of operations in one unit of work.
const UNIT_OPERATIONS_MAX: u64 = 6;
/// Buffer for MQGET: the largest message and some.
const GET_BUFFER_BYTES: usize = message::MESSAGE_BYTES_MAX + 4096;
/// Messages one browse operation looks at, at most.
const BROWSE_MESSAGES_MAX: u64 = 8;

#[derive(Clone, Debug)]
pub struct WorkloadSettings {
    pub socket: PathBuf,
    pub queue_manager: String,
    /// Depth the deep queue is filled to before it is got from as much as put to.
    pub deep_depth_target: usize,
    /// Reconnect after this many operations (0: never); the soak uses it to show that
    /// connections do not leak.
    pub reconnect_every: u64,
    /// Pause between operations (the soak's rate limit); zero in the torture.
    pub pause: Duration,
}

/// How a worker ended.
#[derive(Debug)]
pub enum WorkerEnd {
    /// Asked to stop; its last unit of work is finished and it disconnected.
    Stopped,
    /// The queue manager went away (killed, or stopping).
    ConnectionLost,
    /// An MQI call failed with a reason the workload does not expect.
    Failed(String),
}

pub struct Worker {
    pub slot: u16,
    pub random: Random,
    pub settings: WorkloadSettings,
    pub model: Arc<Mutex<Model>>,
    pub stop: Arc<AtomicBool>,
    /// Operations done by all workers (for progress and the soak's rate column).
    pub operations: Arc<AtomicU64>,
}

enum Outcome {
    Lost,
    Failed(String),
}

fn classify(call: &str, queue: &str, error: MqError) -> Outcome {
    match error.reason {
        MQRC_CONNECTION_BROKEN
        | MQRC_Q_MGR_NOT_AVAILABLE
        | MQRC_Q_MGR_QUIESCING
        | MQRC_Q_MGR_STOPPING
        | MQRC_CONNECTION_QUIESCING
        | MQRC_CONNECTION_STOPPING => Outcome::Lost,
        _ => Outcome::Failed(format!(
            "{call} on {queue} failed with MQCC={} reason {} {}",
            error.completion_code,
            error.reason,
            error.reason_name()
        )),
    }
}

struct Session {
    connection: Connection,
    handles: Vec<Hobj>,
}

impl Worker {
    pub fn run(mut self) -> WorkerEnd {
        let mut unit = UnitOfWork::default();
        let result = self.run_sessions(&mut unit);
        match result {
            Ok(()) => WorkerEnd::Stopped,
            Err(outcome) => {
                // Whatever the unit held is backed out by the queue manager (at disconnect or
                // at restart), unless its MQCMIT was in flight: then the model has it as
                // committing, and the restart decides.
                let mut model = self.model.lock().expect("model lock");
                if !unit.is_empty() {
                    model.backout_begin(&unit);
                }
                match outcome {
                    Outcome::Lost => WorkerEnd::ConnectionLost,
                    Outcome::Failed(text) => WorkerEnd::Failed(text),
                }
            }
        }
    }

    fn connect(&self) -> Result<Session, Outcome> {
        let mut connection =
            Connection::connect(&self.settings.socket, &self.settings.queue_manager)
                .map_err(|error| classify("MQCONN", &self.settings.queue_manager, error))?;
        let mut handles = Vec::new();
        for queue in QUEUES {
            let options = MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE | MQOO_FAIL_IF_QUIESCING;
            let handle = connection
                .open(&mut Mqod::queue(queue.name), options)
                .map_err(|error| classify("MQOPEN", queue.name, error))?;
            handles.push(handle);
        }
        Ok(Session {
            connection,
            handles,
        })
    }

    fn run_sessions(&mut self, unit: &mut UnitOfWork) -> Result<(), Outcome> {
        loop {
            let mut session = self.connect()?;
            let mut done = 0u64;
            loop {
                if self.stop.load(Ordering::SeqCst) {
                    session
                        .connection
                        .disconnect()
                        .map_err(|error| classify("MQDISC", "", error))?;
                    return Ok(());
                }
                self.one_step(&mut session, unit)?;
                done += 1;
                self.operations.fetch_add(1, Ordering::Relaxed);
                if !self.settings.pause.is_zero() {
                    std::thread::sleep(self.settings.pause);
                }
                if self.settings.reconnect_every > 0 && done >= self.settings.reconnect_every {
                    session
                        .connection
                        .disconnect()
                        .map_err(|error| classify("MQDISC", "", error))?;
                    break;
                }
            }
        }
    }

    /// One step of the mix: a whole unit of work, one out-of-syncpoint call, or a browse.
    fn one_step(&mut self, session: &mut Session, unit: &mut UnitOfWork) -> Result<(), Outcome> {
        match self.random.below(100) {
            0..=54 => self.unit_of_work(session, unit),
            55..=74 if !self.over_target() => {
                let queue = self.queue_to_put();
                self.put(session, None, queue)
            }
            55..=74 => self.get_no_sync_by_correl_id(session),
            75..=87 => self.get_no_sync_by_correl_id(session),
            _ => self.browse(session),
        }
    }

    fn unit_of_work(
        &mut self,
        session: &mut Session,
        unit: &mut UnitOfWork,
    ) -> Result<(), Outcome> {
        *unit = self.model.lock().expect("model lock").new_unit();
        let operations = self.random.between(1, UNIT_OPERATIONS_MAX);
        let put_percent = if self.over_target() { 35 } else { 55 };
        for _ in 0..operations {
            if self.random.percent(put_percent) {
                let queue = self.queue_to_put();
                self.put(session, Some(unit), queue)?;
            } else if let Some(queue) = self.queue_to_get() {
                self.get_in_unit(session, unit, queue)?;
            }
        }
        if unit.is_empty() {
            return Ok(());
        }
        if self.random.percent(75) {
            self.model.lock().expect("model lock").commit_begin(unit);
            match session.connection.commit() {
                Ok(()) => self.model.lock().expect("model lock").commit_done(unit),
                Err(error) if error.reason == MQRC_BACKED_OUT => self
                    .model
                    .lock()
                    .expect("model lock")
                    .commit_backed_out(unit),
                Err(error) => {
                    // Lost or failed with MQCMIT in flight: the model keeps the unit as
                    // committing; it must not be backed out in the model.
                    *unit = UnitOfWork::default();
                    return Err(classify("MQCMIT", "", error));
                }
            }
        } else {
            self.model.lock().expect("model lock").backout_begin(unit);
            let result = session.connection.backout();
            *unit = UnitOfWork::default();
            result.map_err(|error| classify("MQBACK", "", error))?;
        }
        *unit = UnitOfWork::default();
        Ok(())
    }

    /// Whether the queues hold more than their targets together (then gets win over puts).
    fn over_target(&self) -> bool {
        let model = self.model.lock().expect("model lock");
        model.message_count()
            > self.settings.deep_depth_target + 2 * SHALLOW_DEPTH_TARGET + INDEXED_DEPTH_TARGET
    }

    fn queue_to_put(&mut self) -> usize {
        let model = self.model.lock().expect("model lock");
        let weights: Vec<u64> = QUEUES
            .iter()
            .enumerate()
            .map(|(index, queue)| {
                let depth = model.depth(index);
                match queue.role {
                    QueueRole::Deep if depth < self.settings.deep_depth_target => 40,
                    QueueRole::Shallow if depth < SHALLOW_DEPTH_TARGET => 20,
                    QueueRole::Indexed if depth < INDEXED_DEPTH_TARGET => 20,
                    _ => 5,
                }
            })
            .collect();
        drop(model);
        self.weighted(&weights)
    }

    fn queue_to_get(&mut self) -> Option<usize> {
        let model = self.model.lock().expect("model lock");
        let weights: Vec<u64> = QUEUES
            .iter()
            .enumerate()
            .map(|(index, queue)| match queue.role {
                _ if model.depth(index) == 0 => 0,
                QueueRole::Deep if model.depth(index) < self.settings.deep_depth_target => 5,
                QueueRole::Deep => 20,
                _ => 25,
            })
            .collect();
        drop(model);
        if weights.iter().all(|weight| *weight == 0) {
            return None;
        }
        Some(self.weighted(&weights))
    }

    fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        let mut pick = self.random.below(total);
        for (index, weight) in weights.iter().enumerate() {
            if pick < *weight {
                return index;
            }
            pick -= weight;
        }
        unreachable!("pick below the total weight")
    }

    fn put(
        &mut self,
        session: &mut Session,
        unit: Option<&mut UnitOfWork>,
        queue: usize,
    ) -> Result<(), Outcome> {
        let length = message::random_length(&mut self.random);
        let priority = self.random.below(10) as u8;
        let number = self.model.lock().expect("model lock").new_number();
        let identity = MessageIdentity {
            number,
            priority,
            length: length as u32,
            worker: self.slot,
        };
        let data = message::data(number, length);
        let mut md = Mqmd {
            msg_id: message::message_id(&identity),
            correl_id: message::correl_id(number),
            priority: i32::from(priority),
            persistence: MQPER_PERSISTENT,
            ..Mqmd::default()
        };
        let in_unit = unit.is_some();
        let options = if in_unit {
            MQPMO_SYNCPOINT
        } else {
            MQPMO_NO_SYNCPOINT
        } | MQPMO_FAIL_IF_QUIESCING;
        let mut unit = unit;
        {
            let mut model = self.model.lock().expect("model lock");
            match unit.as_deref_mut() {
                Some(unit) => model.put_in_unit(unit, queue, identity),
                None => model.put_no_sync_begin(queue, identity),
            }
        }
        let result = session.connection.put(
            session.handles[queue],
            &mut md,
            &mut Mqpmo::with_options(options),
            &data,
        );
        match result {
            Ok(_warning) => {
                if !in_unit {
                    self.model
                        .lock()
                        .expect("model lock")
                        .put_no_sync_done(number);
                }
                Ok(())
            }
            Err(error) => {
                let outcome = classify("MQPUT", QUEUES[queue].name, error);
                if let Outcome::Failed(_) = outcome {
                    self.model
                        .lock()
                        .expect("model lock")
                        .put_refused(unit, number);
                }
                // Lost: in a unit it is backed out with the unit; out of syncpoint it stays
                // pending and the restart decides.
                Err(outcome)
            }
        }
    }

    fn get_in_unit(
        &mut self,
        session: &mut Session,
        unit: &mut UnitOfWork,
        queue: usize,
    ) -> Result<(), Outcome> {
        let mut md = Mqmd::default();
        let mut gmo = Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING);
        if QUEUES[queue].role == QueueRole::Indexed {
            let pick = self.random.next_u64();
            let target = self
                .model
                .lock()
                .expect("model lock")
                .pick_available(queue, pick);
            if let Some(number) = target {
                md.correl_id = message::correl_id(number);
                gmo = Mqgmo::matching(
                    MQGMO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING,
                    MQMO_MATCH_CORREL_ID,
                );
            }
        }
        self.get_into_model(session, queue, &mut md, &mut gmo, Some(unit))?;
        Ok(())
    }

    /// MQGET from `queue` and the message got into the model (in `unit`, or out of
    /// syncpoint): true, or false when none was available.
    fn get_into_model(
        &self,
        session: &mut Session,
        queue: usize,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        unit: Option<&mut UnitOfWork>,
    ) -> Result<bool, Outcome> {
        let mut buffer = vec![0u8; GET_BUFFER_BYTES];
        match session
            .connection
            .get(session.handles[queue], md, gmo, &mut buffer)
        {
            Ok(result) => {
                let observed = observe_got(md, &buffer[..result.returned_length]);
                self.model
                    .lock()
                    .expect("model lock")
                    .got(unit, queue, &observed);
                Ok(true)
            }
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => Ok(false),
            Err(error) => Err(classify("MQGET", QUEUES[queue].name, error)),
        }
    }

    fn get_no_sync_by_correl_id(&mut self, session: &mut Session) -> Result<(), Outcome> {
        let Some(queue) = self.queue_to_get() else {
            return Ok(());
        };
        let pick = self.random.next_u64();
        let target = {
            let mut model = self.model.lock().expect("model lock");
            let target = model.pick_available(queue, pick);
            if let Some(number) = target {
                model.get_no_sync_begin(number);
            }
            target
        };
        let Some(number) = target else {
            return Ok(());
        };
        let mut md = Mqmd {
            correl_id: message::correl_id(number),
            ..Mqmd::default()
        };
        let mut gmo = Mqgmo::matching(
            MQGMO_NO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING,
            MQMO_MATCH_CORREL_ID,
        );
        if !self.get_into_model(session, queue, &mut md, &mut gmo, None)? {
            self.model
                .lock()
                .expect("model lock")
                .get_no_sync_not_found(number);
        }
        Ok(())
    }

    fn browse(&mut self, session: &mut Session) -> Result<(), Outcome> {
        let queue = self.random.below(QUEUES.len() as u64) as usize;
        let count = self.random.between(1, BROWSE_MESSAGES_MAX);
        let mut buffer = vec![0u8; GET_BUFFER_BYTES];
        let mut position = MQGMO_BROWSE_FIRST;
        for _ in 0..count {
            let mut md = Mqmd::default();
            let mut gmo = Mqgmo::with_options(position | MQGMO_FAIL_IF_QUIESCING);
            match session
                .connection
                .get(session.handles[queue], &mut md, &mut gmo, &mut buffer)
            {
                Ok(result) => {
                    let observed = observe_got(&md, &buffer[..result.returned_length]);
                    let mut model = self.model.lock().expect("model lock");
                    model.browsed(queue, &observed);
                    model.totals.browses += 1;
                }
                Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
                Err(error) => return Err(classify("MQGET(browse)", QUEUES[queue].name, error)),
            }
            position = MQGMO_BROWSE_NEXT;
        }
        Ok(())
    }
}

/// Browse every workload queue from a connection of its own, in queue order, checking each
/// message's data on the way; `drain` gets them destructively instead.
pub fn read_all_queues(
    socket: &std::path::Path,
    queue_manager: &str,
    drain: bool,
) -> Result<Vec<Vec<crate::model::Observed>>, String> {
    let failure = |call: &str, queue: &str, error: MqError| {
        format!(
            "{call} on {queue} failed with MQCC={} reason {} {}",
            error.completion_code,
            error.reason,
            error.reason_name()
        )
    };
    let mut connection = Connection::connect(socket, queue_manager)
        .map_err(|error| failure("MQCONN", queue_manager, error))?;
    let mut all = Vec::new();
    let mut buffer = vec![0u8; GET_BUFFER_BYTES];
    for queue in QUEUES {
        let options = if drain {
            MQOO_INPUT_EXCLUSIVE
        } else {
            MQOO_BROWSE
        };
        let handle = connection
            .open(&mut Mqod::queue(queue.name), options)
            .map_err(|error| failure("MQOPEN", queue.name, error))?;
        let mut observed = Vec::new();
        let mut position = MQGMO_BROWSE_FIRST;
        loop {
            let mut md = Mqmd::default();
            let options = if drain { MQGMO_NO_SYNCPOINT } else { position };
            match connection.get(
                handle,
                &mut md,
                &mut Mqgmo::with_options(options),
                &mut buffer,
            ) {
                Ok(result) => observed.push(observe_got(&md, &buffer[..result.returned_length])),
                Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
                Err(error) => return Err(failure("MQGET", queue.name, error)),
            }
            position = MQGMO_BROWSE_NEXT;
        }
        connection
            .close(handle, 0)
            .map_err(|error| failure("MQCLOSE", queue.name, error))?;
        all.push(observed);
    }
    connection
        .disconnect()
        .map_err(|error| failure("MQDISC", queue_manager, error))?;
    Ok(all)
}
