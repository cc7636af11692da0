//! MQCMIT over a client channel without a thread waiting for the log: the commit is logged,
//! the conversation registers for the log's notice and gives its thread back; the reply goes
//! out once the log is durable through the commit's record. The same for MQDISC's implicit
//! commit; MQBACK never waits for the log. The active logs' syncs are held (or failed) at a
//! gate ([`ferrite_test_kit::gated_log`]) to show what happens meanwhile.

mod support;

use std::sync::mpsc;
use std::sync::{Arc, Barrier};
use std::time::Duration;

use ferrite_client::Connection;
use ferrite_constants::{
    get_options::*, open_options::*, persistence::*, put_options::*, reason::*,
};
use ferrite_mqi::{Hobj, MqResult, Mqod};
use ferrite_server::channel_initiator::ChannelInitiatorConfig;
use ferrite_server::ServerConfig;
use ferrite_test_kit::gated_log::GatedLogFileSystem;

use support::Listener;

/// How long a test waits for what must happen (never a measure of speed).
const BOUND: Duration = Duration::from_secs(60);

/// QM1 with Q1 on `gate`, its channel initiator with one dispatcher and one adapter.
fn start(gate: &GatedLogFileSystem, dispatchers: usize) -> Listener {
    let fixture = support::start_on(
        gate.shared(),
        &["Q1"],
        ServerConfig::default(),
        support::small_config("QM1"),
    );
    support::listen_with(
        fixture,
        ChannelInitiatorConfig {
            dispatchers,
            adapters: 1,
            ..ChannelInitiatorConfig::default()
        },
    )
}

fn open(connection: &mut Connection, options: i32) -> Hobj {
    connection.open(&mut Mqod::queue("Q1"), options).unwrap()
}

/// MQPUT of a persistent message under syncpoint (logged, not forced).
fn put_persistent(connection: &mut Connection, hobj: Hobj, data: &[u8]) {
    let mut md = ferrite_test_kit::with_persistence(MQPER_PERSISTENT);
    ferrite_test_kit::put_md(connection, hobj, &mut md, MQPMO_SYNCPOINT, data).unwrap();
}

/// MQCMIT on a thread of its own: its outcome comes on the channel, then the connection.
fn commit_on_a_thread(mut connection: Connection) -> mpsc::Receiver<(MqResult<()>, Connection)> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let result = connection.commit();
        let _ = sender.send((result, connection));
    });
    receiver
}

fn get_no_wait(connection: &mut Connection, hobj: Hobj) -> MqResult<Vec<u8>> {
    ferrite_test_kit::get(connection, hobj, MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT)
        .map(|(_, data)| data)
}

#[test]
fn a_commit_is_answered_and_its_messages_seen_only_once_the_log_is_durable() {
    let gate = GatedLogFileSystem::new();
    let listener = start(&gate, 1);
    let mut committer = listener.connect_app();
    let output = open(&mut committer, MQOO_OUTPUT);
    put_persistent(&mut committer, output, b"held");
    let mut watcher = listener.connect_app();
    let input = open(&mut watcher, MQOO_INPUT_SHARED);

    gate.close();
    let committed = commit_on_a_thread(committer);
    assert!(
        gate.wait_until_held(BOUND),
        "the commit's force reaches the log's sync"
    );
    // The log's writer is held in its sync: the commit is not durable. Its message is not
    // seen, and the dispatcher and the only adapter serve other conversations meanwhile (an
    // MQOPEN goes to the adapter, which no commit holds).
    assert_eq!(
        ferrite_test_kit::reason(get_no_wait(&mut watcher, input)),
        MQRC_NO_MSG_AVAILABLE
    );
    let (opened_sender, opened) = mpsc::channel();
    let mut other = listener.connect_app();
    std::thread::spawn(move || {
        let result = other.open(&mut Mqod::queue("Q1"), MQOO_INQUIRE).map(|_| ());
        let _ = opened_sender.send(result);
    });
    opened
        .recv_timeout(BOUND)
        .expect("an MQOPEN is served while a commit waits for the log")
        .unwrap();
    assert!(
        committed.try_recv().is_err(),
        "MQCMIT answered while its commit record is not durable"
    );
    assert_eq!(
        ferrite_test_kit::reason(get_no_wait(&mut watcher, input)),
        MQRC_NO_MSG_AVAILABLE
    );

    gate.open();
    let (result, _committer) = committed
        .recv_timeout(BOUND)
        .expect("MQCMIT answered once the log is durable");
    result.unwrap();
    assert!(gate.synced() > 0);
    assert_eq!(get_no_wait(&mut watcher, input).unwrap(), b"held");
}

#[test]
fn a_log_failure_answers_every_pending_commit_with_its_reason_and_loses_nothing_committed() {
    let gate = GatedLogFileSystem::new();
    let mut listener = start(&gate, 2);
    // A commit made durable before the failure.
    let mut first = listener.connect_app();
    let output = open(&mut first, MQOO_OUTPUT);
    put_persistent(&mut first, output, b"durable");
    first.commit().unwrap();

    gate.close();
    let mut pending = Vec::new();
    for index in 0..4 {
        let mut committer = listener.connect_app();
        let output = open(&mut committer, MQOO_OUTPUT);
        put_persistent(&mut committer, output, format!("failed {index}").as_bytes());
        pending.push(commit_on_a_thread(committer));
        if index == 0 {
            assert!(
                gate.wait_until_held(BOUND),
                "the commit's force reaches the log's sync"
            );
        }
    }
    for committed in &pending {
        assert!(
            committed.try_recv().is_err(),
            "MQCMIT answered while the log's sync is held"
        );
    }

    gate.open_failing();
    for committed in pending {
        let (result, _connection) = committed
            .recv_timeout(BOUND)
            .expect("every commit waiting for the failed log is answered");
        let reason = ferrite_test_kit::reason(result);
        assert!(
            [MQRC_RESOURCE_PROBLEM, MQRC_Q_MGR_NOT_AVAILABLE].contains(&reason),
            "a commit the log failed: reason {reason}"
        );
    }

    // Nothing committed before the failure is lost: restarted on the real file system, the
    // queue manager has the durable message.
    drop(first);
    let directory = std::mem::replace(
        &mut listener.fixture.directory,
        tempfile::tempdir().unwrap(),
    );
    drop(listener);
    let restarted = ferrite_test_kit::open(directory.path());
    let messages: Vec<Vec<u8>> = ferrite_test_kit::take_all(&restarted, "Q1", 4096)
        .into_iter()
        .map(|(_, data)| data)
        .collect();
    assert!(
        messages.iter().any(|data| data == b"durable"),
        "the commit answered before the failure survives it: {messages:?}"
    );
    let _ = restarted.shutdown();
}

#[test]
fn many_conversations_committing_at_once_all_complete() {
    const COMMITTERS: usize = 16;
    const COMMITS: usize = 25;
    let gate = GatedLogFileSystem::new();
    let listener = Arc::new(start(&gate, 2));
    let start_together = Arc::new(Barrier::new(COMMITTERS));
    let threads: Vec<_> = (0..COMMITTERS)
        .map(|committer| {
            let listener = listener.clone();
            let start_together = start_together.clone();
            std::thread::spawn(move || {
                let mut connection = listener.connect_app();
                let output = open(&mut connection, MQOO_OUTPUT);
                start_together.wait();
                for commit in 0..COMMITS {
                    put_persistent(
                        &mut connection,
                        output,
                        format!("{committer}.{commit}").as_bytes(),
                    );
                    connection.commit().unwrap();
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("a committer failed");
    }
    let mut reader = listener.connect_app();
    let input = open(&mut reader, MQOO_INPUT_SHARED);
    let mut seen: Vec<String> = Vec::new();
    while let Ok(data) = get_no_wait(&mut reader, input) {
        seen.push(String::from_utf8(data).unwrap());
    }
    seen.sort();
    let mut expected: Vec<String> = (0..COMMITTERS)
        .flat_map(|committer| (0..COMMITS).map(move |commit| format!("{committer}.{commit}")))
        .collect();
    expected.sort();
    assert_eq!(seen, expected);
}

/// MQOPEN (which runs on the channel initiator's only adapter) from a new connection, on a
/// thread of its own: its outcome comes on the channel.
fn open_elsewhere(listener: &Listener) -> mpsc::Receiver<MqResult<()>> {
    let (sender, receiver) = mpsc::channel();
    let mut other = listener.connect_app();
    std::thread::spawn(move || {
        let result = other.open(&mut Mqod::queue("Q1"), MQOO_INQUIRE).map(|_| ());
        let _ = sender.send(result);
    });
    receiver
}

#[test]
fn a_disconnect_with_logged_work_commits_it_without_holding_a_thread() {
    let gate = GatedLogFileSystem::new();
    let listener = start(&gate, 1);
    let mut disconnecting = listener.connect_app();
    let output = open(&mut disconnecting, MQOO_OUTPUT);
    put_persistent(&mut disconnecting, output, b"committed by MQDISC");
    let mut watcher = listener.connect_app();
    let input = open(&mut watcher, MQOO_INPUT_SHARED);

    gate.close();
    let (sender, disconnected) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(disconnecting.disconnect());
    });
    assert!(
        gate.wait_until_held(BOUND),
        "the implicit commit's force reaches the log's sync"
    );
    // The log's writer is held: the MQDISC waits for its commit on no thread. The only
    // adapter serves an MQOPEN meanwhile, and the unit's message is not seen yet. (The gate
    // opens before the assertions: a failure must not leave the log held.)
    let opened = open_elsewhere(&listener).recv_timeout(BOUND);
    let answered_early = disconnected.try_recv().is_ok();
    let seen_early = get_no_wait(&mut watcher, input);
    gate.open();
    opened
        .expect("an MQOPEN is served while an MQDISC's commit waits for the log")
        .unwrap();
    assert!(
        !answered_early,
        "MQDISC answered while its commit record is not durable"
    );
    assert_eq!(ferrite_test_kit::reason(seen_early), MQRC_NO_MSG_AVAILABLE);

    disconnected
        .recv_timeout(BOUND)
        .expect("MQDISC answered once the log is durable")
        .unwrap();
    assert_eq!(
        get_no_wait(&mut watcher, input).unwrap(),
        b"committed by MQDISC"
    );
}

#[test]
fn a_backout_of_logged_work_is_answered_on_the_dispatcher_while_the_log_is_held() {
    let gate = GatedLogFileSystem::new();
    let listener = start(&gate, 1);
    let mut committer = listener.connect_app();
    let output = open(&mut committer, MQOO_OUTPUT);
    put_persistent(&mut committer, output, b"committed");
    let mut backer = listener.connect_app();
    let backer_output = open(&mut backer, MQOO_OUTPUT);
    put_persistent(&mut backer, backer_output, b"backed out");
    let mut watcher = listener.connect_app();
    let input = open(&mut watcher, MQOO_INPUT_SHARED);
    let adapter_runs = listener.chinit.adapter_runs();

    // The log's writer held in its sync by another conversation's commit.
    gate.close();
    let committed = commit_on_a_thread(committer);
    assert!(
        gate.wait_until_held(BOUND),
        "the commit's force reaches the log's sync"
    );
    let (sender, backed_out) = mpsc::channel();
    std::thread::spawn(move || {
        let result = backer.backout();
        let _ = sender.send((result, backer));
    });
    let backout = backed_out.recv_timeout(BOUND);
    let runs_after_backout = listener.chinit.adapter_runs();
    let committed_early = committed.try_recv().is_ok();
    // Opened before the assertions: a failure must not leave the log held.
    gate.open();
    let (result, _backer) =
        backout.expect("MQBACK of logged work answered while the log's sync is held");
    result.unwrap();
    assert_eq!(
        runs_after_backout, adapter_runs,
        "MQBACK ran on the dispatcher"
    );
    assert!(!committed_early, "MQCMIT answered before the log's sync");
    let (result, _committer) = committed
        .recv_timeout(BOUND)
        .expect("MQCMIT answered once the log is durable");
    result.unwrap();
    assert_eq!(get_no_wait(&mut watcher, input).unwrap(), b"committed");
    assert_eq!(
        ferrite_test_kit::reason(get_no_wait(&mut watcher, input)),
        MQRC_NO_MSG_AVAILABLE
    );
}
