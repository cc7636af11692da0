//! Property-based model test: random sequences of MQPUT, MQGET (by CorrelId or not), browse,
//! MQCMIT, MQBACK and queue manager restarts over three connections and two queues, persistent
//! and not, must agree with a simple reference model of MQ's semantics:
//! - uncommitted puts are invisible (to every connection, their own included);
//! - delivery is priority (9 first) then put order; a get by CorrelId takes the first match;
//! - MQBACK returns got messages to their places with BackoutCount + 1 and discards puts;
//! - a browse cursor moves forward in delivery order and is not moved when nothing is found;
//! - a restart keeps committed persistent messages, drops non-persistent ones, and backs out
//!   every unit of work (persistent messages got in one come back with BackoutCount + 1).

use std::path::Path;
use std::sync::Arc;

use ferrite_constants::{
    get_options::*, open_options::*, persistence::*, put_options::*, reason::*,
};
use ferrite_mqi::*;
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::PageSetId;
use proptest::prelude::*;

const CONNECTIONS: usize = 3;
const QUEUES: [&str; 2] = ["MODEL.Q1", "MODEL.Q2"];

#[derive(Clone, Debug)]
enum Op {
    Put {
        connection: usize,
        queue: usize,
        persistent: bool,
        priority: u8,
        /// 0 = MQCI_NONE.
        correl: u8,
        syncpoint: bool,
    },
    Get {
        connection: usize,
        queue: usize,
        /// Some(1..=3): get by CorrelId.
        correl: Option<u8>,
        syncpoint: bool,
    },
    BrowseFirst {
        connection: usize,
        queue: usize,
    },
    BrowseNext {
        connection: usize,
        queue: usize,
    },
    Commit {
        connection: usize,
    },
    Backout {
        connection: usize,
    },
    Restart,
}

/// Operations; `mixed` allows non-persistent puts, `restart_weight` how often restarts come.
fn op(mixed: bool, restart_weight: u32) -> impl Strategy<Value = Op> {
    let connection = 0..CONNECTIONS;
    let queue = 0..QUEUES.len();
    prop_oneof![
        6 => (connection.clone(), queue.clone(), any::<bool>().prop_map(move |p| p || !mixed), 0u8..4, 0u8..4, any::<bool>()).prop_map(
            |(connection, queue, persistent, priority, correl, syncpoint)| Op::Put {
                connection, queue, persistent, priority, correl, syncpoint
            }
        ),
        5 => (connection.clone(), queue.clone(), prop::option::weighted(0.3, 1u8..4), any::<bool>()).prop_map(
            |(connection, queue, correl, syncpoint)| Op::Get { connection, queue, correl, syncpoint }
        ),
        1 => (connection.clone(), queue.clone()).prop_map(|(connection, queue)| Op::BrowseFirst { connection, queue }),
        2 => (connection.clone(), queue.clone()).prop_map(|(connection, queue)| Op::BrowseNext { connection, queue }),
        2 => connection.clone().prop_map(|connection| Op::Commit { connection }),
        1 => connection.prop_map(|connection| Op::Backout { connection }),
        restart_weight => Just(Op::Restart),
    ]
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Message {
    id: u64,
    priority: u8,
    sequence: u64,
    correl: u8,
    persistent: bool,
    backout_count: i32,
}

impl Message {
    fn key(&self) -> (u8, u64) {
        (9 - self.priority, self.sequence)
    }
}

#[derive(Default)]
struct Model {
    /// Committed, available messages of each queue in delivery order.
    queues: [Vec<Message>; 2],
    pending_puts: [Vec<(usize, Message)>; CONNECTIONS],
    pending_gets: [Vec<(usize, Message)>; CONNECTIONS],
    cursors: [[Option<(u8, u64)>; 2]; CONNECTIONS],
    next_id: u64,
}

impl Model {
    fn insert(&mut self, queue: usize, message: Message) {
        let messages = &mut self.queues[queue];
        let at = messages.partition_point(|m| m.key() < message.key());
        messages.insert(at, message);
    }

    fn commit(&mut self, connection: usize) {
        for (queue, message) in std::mem::take(&mut self.pending_puts[connection]) {
            self.insert(queue, message);
        }
        self.pending_gets[connection].clear();
    }

    fn backout(&mut self, connection: usize) {
        self.pending_puts[connection].clear();
        for (queue, mut message) in std::mem::take(&mut self.pending_gets[connection]) {
            message.backout_count += 1;
            self.insert(queue, message);
        }
    }

    fn restart(&mut self) {
        for connection in 0..CONNECTIONS {
            self.pending_puts[connection].clear();
            for (queue, mut message) in std::mem::take(&mut self.pending_gets[connection]) {
                if message.persistent {
                    message.backout_count += 1;
                    self.insert(queue, message);
                }
            }
        }
        for queue in &mut self.queues {
            queue.retain(|message| message.persistent);
        }
        self.cursors = Default::default();
    }
}

struct System {
    queue_manager: Arc<QueueManager>,
    connections: Vec<Connection>,
    handles: Vec<Vec<Hobj>>,
}

fn start(directory: &Path) -> System {
    let queue_manager = ferrite_test_kit::open(directory);
    let mut connections = Vec::new();
    let mut handles = Vec::new();
    for _ in 0..CONNECTIONS {
        let mut connection = Connection::connect(queue_manager.clone(), "QM1").unwrap();
        let hobjs = QUEUES
            .iter()
            .map(|name| {
                connection
                    .open(
                        &mut Mqod::queue(name),
                        MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE,
                    )
                    .unwrap()
            })
            .collect();
        connections.push(connection);
        handles.push(hobjs);
    }
    System {
        queue_manager,
        connections,
        handles,
    }
}

/// What a get or browse returned, in the model's terms.
fn observed(md: &Mqmd, data: &[u8]) -> (u64, u8, u8, bool, i32) {
    (
        u64::from_le_bytes(data.try_into().expect("8-byte payload")),
        md.priority as u8,
        md.correl_id[0],
        md.persistence == MQPER_PERSISTENT,
        md.backout_count,
    )
}

fn expected(message: &Message) -> (u64, u8, u8, bool, i32) {
    (
        message.id,
        message.priority,
        message.correl,
        message.persistent,
        message.backout_count,
    )
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let directory = tempfile::tempdir().unwrap();
    create_queue_manager(directory.path());
    let mut system = start(directory.path());
    let mut model = Model::default();
    let mut sequence = 0u64;
    for (step, op) in ops.iter().enumerate() {
        let context = format!("step {step}: {op:?}");
        match *op {
            Op::Put { .. } => put(&mut system, &mut model, &mut sequence, op, &context)?,
            Op::Get { .. } => get(&mut system, &mut model, op, &context)?,
            Op::BrowseFirst { .. } | Op::BrowseNext { .. } => {
                browse(&mut system, &mut model, op, &context)?
            }
            Op::Commit { connection } => {
                system.connections[connection].commit().unwrap();
                model.commit(connection);
            }
            Op::Backout { connection } => {
                system.connections[connection].backout().unwrap();
                model.backout(connection);
            }
            Op::Restart => {
                system.queue_manager.shutdown().unwrap();
                drop(system);
                model.restart();
                system = start(directory.path());
            }
        }
    }
    // Finally everything committed must be there, in order, for a fresh connection.
    drain_and_compare(&mut system, &mut model)?;
    system.queue_manager.shutdown().unwrap();
    Ok(())
}

/// Creates QM1 with the model's queues, and stops it.
fn create_queue_manager(directory: &Path) {
    ferrite_test_kit::create(directory, "QM1");
    let queue_manager = ferrite_test_kit::open(directory);
    for name in QUEUES {
        ferrite_test_kit::define(&queue_manager, QueueDefinition::local(name, PageSetId(1)));
    }
    queue_manager.shutdown().unwrap();
}

fn put(
    system: &mut System,
    model: &mut Model,
    sequence: &mut u64,
    op: &Op,
    context: &str,
) -> Result<(), TestCaseError> {
    let Op::Put {
        connection,
        queue,
        persistent,
        priority,
        correl,
        syncpoint,
    } = *op
    else {
        unreachable!("{context} is not a put");
    };
    model.next_id += 1;
    *sequence += 1;
    let message = Message {
        id: model.next_id,
        priority,
        sequence: *sequence,
        correl,
        persistent,
        backout_count: 0,
    };
    let mut md = Mqmd {
        persistence: if persistent {
            MQPER_PERSISTENT
        } else {
            MQPER_NOT_PERSISTENT
        },
        priority: priority as i32,
        correl_id: [correl; 24],
        ..Mqmd::default()
    };
    let options = if syncpoint {
        MQPMO_SYNCPOINT
    } else {
        MQPMO_NO_SYNCPOINT
    };
    let hobj = system.handles[connection][queue];
    system.connections[connection]
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(options),
            &message.id.to_le_bytes(),
        )
        .map_err(|e| TestCaseError::fail(format!("{context}: {e}")))?;
    if syncpoint {
        model.pending_puts[connection].push((queue, message));
    } else {
        model.insert(queue, message);
    }
    Ok(())
}

fn get(
    system: &mut System,
    model: &mut Model,
    op: &Op,
    context: &str,
) -> Result<(), TestCaseError> {
    let Op::Get {
        connection,
        queue,
        correl,
        syncpoint,
    } = *op
    else {
        unreachable!("{context} is not a get");
    };
    let position = model.queues[queue]
        .iter()
        .position(|m| correl.is_none_or(|c| m.correl == c));
    let mut md = Mqmd {
        correl_id: [correl.unwrap_or(0); 24],
        ..Mqmd::default()
    };
    let options = if syncpoint {
        MQGMO_SYNCPOINT
    } else {
        MQGMO_NO_SYNCPOINT
    };
    let mut buffer = [0u8; 8];
    let hobj = system.handles[connection][queue];
    let result = system.connections[connection].get(
        hobj,
        &mut md,
        &mut Mqgmo::with_options(options),
        &mut buffer,
    );
    match position {
        None => {
            let error = result.expect_err(context);
            prop_assert_eq!(error.reason, MQRC_NO_MSG_AVAILABLE, "{}", context);
        }
        Some(position) => {
            let got = result.map_err(|e| TestCaseError::fail(format!("{context}: {e}")))?;
            let message = model.queues[queue].remove(position);
            prop_assert_eq!(
                observed(&md, &buffer[..got.data_length]),
                expected(&message),
                "{}",
                context
            );
            if syncpoint {
                model.pending_gets[connection].push((queue, message));
            }
        }
    }
    Ok(())
}

fn browse(
    system: &mut System,
    model: &mut Model,
    op: &Op,
    context: &str,
) -> Result<(), TestCaseError> {
    let (Op::BrowseFirst { connection, queue } | Op::BrowseNext { connection, queue }) = *op else {
        unreachable!("{context} is not a browse");
    };
    let first = matches!(op, Op::BrowseFirst { .. });
    let cursor = if first {
        None
    } else {
        model.cursors[connection][queue]
    };
    let next = model.queues[queue]
        .iter()
        .find(|m| cursor.is_none_or(|c| m.key() > c))
        .cloned();
    let mut md = Mqmd::default();
    let mut buffer = [0u8; 8];
    let options = if first {
        MQGMO_BROWSE_FIRST
    } else {
        MQGMO_BROWSE_NEXT
    };
    let hobj = system.handles[connection][queue];
    let result = system.connections[connection].get(
        hobj,
        &mut md,
        &mut Mqgmo::with_options(options),
        &mut buffer,
    );
    match next {
        None => {
            let error = result.expect_err(context);
            prop_assert_eq!(error.reason, MQRC_NO_MSG_AVAILABLE, "{}", context);
        }
        Some(message) => {
            let got = result.map_err(|e| TestCaseError::fail(format!("{context}: {e}")))?;
            prop_assert_eq!(
                observed(&md, &buffer[..got.data_length]),
                expected(&message),
                "{}",
                context
            );
            model.cursors[connection][queue] = Some(message.key());
        }
    }
    Ok(())
}

/// Backs out every connection, then gets each queue empty on the first connection, comparing
/// what comes with what the model holds.
fn drain_and_compare(system: &mut System, model: &mut Model) -> Result<(), TestCaseError> {
    for connection in 0..CONNECTIONS {
        system.connections[connection].backout().unwrap();
        model.backout(connection);
    }
    for (queue, messages) in model.queues.iter().enumerate() {
        for message in messages {
            let mut md = Mqmd::default();
            let mut buffer = [0u8; 8];
            let hobj = system.handles[0][queue];
            let got = system.connections[0]
                .get(
                    hobj,
                    &mut md,
                    &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
                    &mut buffer,
                )
                .map_err(|e| TestCaseError::fail(format!("final drain: {e}")))?;
            prop_assert_eq!(
                observed(&md, &buffer[..got.data_length]),
                expected(message),
                "final drain"
            );
        }
        let mut md = Mqmd::default();
        let mut buffer = [0u8; 8];
        let rest = system.connections[0].get(
            system.handles[0][queue],
            &mut md,
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut buffer,
        );
        if let Ok(got) = rest {
            let extra = observed(&md, &buffer[..got.data_length]);
            prop_assert!(false, "extra message on queue {}: {:?}", queue, extra);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Persistent and non-persistent messages, no restarts.
    #[test]
    fn mqi_agrees_with_the_model(ops in prop::collection::vec(op(true, 0), 1..60)) {
        run(&ops)?;
    }

    /// Restarts, with persistent messages only (see the next test for why).
    #[test]
    fn mqi_agrees_with_the_model_across_restarts(ops in prop::collection::vec(op(false, 1), 1..60)) {
        run(&ops)?;
    }

    /// Restarts with persistent and non-persistent messages. This test found the engine bug
    /// where a page freed by a persistent get and reused for non-persistent data brought the
    /// got message back at restart (regression test in tests/mqi.rs).
    #[test]
    fn mqi_agrees_with_the_model_mixed_persistence_across_restarts(ops in prop::collection::vec(op(true, 1), 1..60)) {
        run(&ops)?;
    }
}
