//! Shared queues through the MQI: two in-process members of one group (a Redis server and a
//! throw-away PostgreSQL cluster started by the test) put on and get from a queue defined
//! QSGDISP(SHARED) on one of them, outside syncpoint.

mod support;

use std::sync::Arc;

use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::QueueManager;
use ferrite_test_kit::mqi::{connect, get_sized, get_with, put_md, reason};
use ferrite_test_kit::servers::Server;
use support::{member, member_and_group, ok, rejoin};

const NO_SYNCPOINT_PUT: i32 = MQPMO_NO_SYNCPOINT;
const BUFFER: usize = 1024;

/// Two members of QSG1, their servers and directories, with the shared queue ORDERS in
/// structure APP1, defined on the first.
struct Group {
    first: Arc<QueueManager>,
    second: Arc<QueueManager>,
    _directories: [tempfile::TempDir; 2],
    _servers: [Server; 2],
}

impl Group {
    fn start() -> Group {
        let (redis, postgres) = (Server::redis(), Server::postgres());
        let directories = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
        let first = member(directories[0].path(), "QM1", &redis, &postgres);
        let second = member(directories[1].path(), "QM2", &redis, &postgres);
        // RECOVER(YES): it takes persistent messages.
        ok(&first, "DEFINE CFSTRUCT(APP1) RECOVER(YES)");
        ok(
            &first,
            "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)",
        );
        // The first use allocates the structure in the coupling facility.
        ok(&first, "DISPLAY QLOCAL(ORDERS) CURDEPTH");
        Group {
            first,
            second,
            _directories: directories,
            _servers: [redis, postgres],
        }
    }

    fn stop(self) {
        self.first.shutdown().unwrap();
        self.second.shutdown().unwrap();
    }
}

fn open(connection: &mut Connection, options: i32) -> ferrite_mqi::Hobj {
    connection
        .open(&mut Mqod::queue("ORDERS"), options)
        .unwrap()
}

#[test]
fn a_message_put_on_one_member_is_got_whole_on_another() {
    let group = Group::start();
    let (first, second) = (&group.first, &group.second);
    let mut putter = connect(first);
    let mut getter = connect(second);
    let output = open(&mut putter, MQOO_OUTPUT);
    let input = open(&mut getter, MQOO_INPUT_SHARED | MQOO_BROWSE);

    let mut md = Mqmd {
        priority: 3,
        correl_id: [7; 24],
        format: *b"MQSTR   ",
        ..Mqmd::default()
    };
    md.reply_to_q = "REPLIES".into();
    put_md(&mut putter, output, &mut md, NO_SYNCPOINT_PUT, b"order 1").unwrap();
    assert_ne!(md.msg_id, [0; 24], "MQPUT gave the message an id");

    // Browsing leaves it; the get takes it with its descriptor as put.
    let (browsed, data) = get_sized(&mut getter, input, MQGMO_BROWSE_FIRST, BUFFER).unwrap();
    assert_eq!(data, b"order 1");
    assert_eq!(browsed.msg_id, md.msg_id);
    let shown = ok(second, "DISPLAY QLOCAL(ORDERS) CURDEPTH");
    assert!(shown.contains("CURDEPTH(1)"), "{shown}");
    let refused = support::fails(second, "DELETE QLOCAL(ORDERS) QSGDISP(SHARED)");
    assert!(refused.contains("has 1 messages"), "{refused}");
    let (got, data) = get_sized(&mut getter, input, MQGMO_NO_SYNCPOINT, BUFFER).unwrap();
    assert_eq!(data, b"order 1");
    assert_eq!(got.msg_id, md.msg_id);
    assert_eq!(got.correl_id, [7; 24]);
    assert_eq!(got.priority, 3);
    assert_eq!(&got.format, b"MQSTR   ");
    assert_eq!(got.reply_to_q.to_string().trim(), "REPLIES");
    assert_eq!(got.reply_to_q_mgr.to_string().trim(), "QM1");
    assert_eq!(got.put_date, md.put_date);
    assert_eq!(got.user_identifier, md.user_identifier);
    let empty = get_sized(&mut getter, input, MQGMO_NO_SYNCPOINT, BUFFER);
    assert_eq!(reason(empty), MQRC_NO_MSG_AVAILABLE);
    group.stop();
}

#[test]
fn shared_gets_go_by_priority_and_select_by_correlid() {
    let group = Group::start();
    let (first, second) = (&group.first, &group.second);
    let mut putter = connect(first);
    let mut getter = connect(second);
    let output = open(&mut putter, MQOO_OUTPUT);
    let input = open(&mut getter, MQOO_INPUT_AS_Q_DEF | MQOO_BROWSE);
    for (priority, correl, data) in [
        (1, 1u8, &b"low"[..]),
        (8, 2, b"high"),
        (5, 3, b"middle"),
        (8, 4, b"high second"),
    ] {
        let mut md = Mqmd {
            priority,
            correl_id: [correl; 24],
            ..Mqmd::default()
        };
        put_md(&mut putter, output, &mut md, NO_SYNCPOINT_PUT, data).unwrap();
    }

    // By CORRELID, whatever its place.
    let mut wanted = Mqgmo::with_options(MQGMO_NO_SYNCPOINT);
    let mut md = Mqmd {
        correl_id: [3; 24],
        ..Mqmd::default()
    };
    let mut buffer = vec![0; BUFFER];
    let result = getter
        .get(input, &mut md, &mut wanted, &mut buffer)
        .unwrap();
    assert_eq!(&buffer[..result.returned_length], b"middle");

    // Browsing goes by priority, then arrival, without taking.
    let mut browsed = Vec::new();
    let mut options = MQGMO_BROWSE_FIRST;
    while let Ok((_, data)) = get_sized(&mut getter, input, options, BUFFER) {
        browsed.push(data);
        options = MQGMO_BROWSE_NEXT;
    }
    assert_eq!(browsed, [&b"high"[..], b"high second", b"low"]);

    // A buffer too short: the message stays unless truncation is accepted.
    let short = get_sized(&mut getter, input, MQGMO_NO_SYNCPOINT, 2);
    let error = short.expect_err("too long for the buffer");
    assert_eq!(error.reason, MQRC_TRUNCATED_MSG_FAILED);
    assert_eq!(error.data_length, Some(4));
    let mut accept = Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_ACCEPT_TRUNCATED_MSG);
    let (_, data) = get_with(&mut getter, input, &mut accept, 2).unwrap();
    assert_eq!(data, b"hi");
    let rest: Vec<Vec<u8>> = (0..2)
        .map(|_| {
            get_sized(&mut getter, input, MQGMO_NO_SYNCPOINT, BUFFER)
                .unwrap()
                .1
        })
        .collect();
    assert_eq!(rest, [&b"high second"[..], b"low"]);
    group.stop();
}

#[test]
fn a_getter_waiting_on_one_member_gets_a_message_put_on_another() {
    let group = Group::start();
    let (first, second) = (&group.first, &group.second);
    let waiter = std::thread::spawn({
        let second = second.clone();
        move || {
            let mut getter = connect(&second);
            let input = open(&mut getter, MQOO_INPUT_SHARED);
            let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
            gmo.wait_interval = 120_000;
            get_with(&mut getter, input, &mut gmo, BUFFER).map(|(_, data)| data)
        }
    });
    // The put comes whenever the waiter is waiting or not: either way it gets it.
    let mut putter = connect(first);
    let output = open(&mut putter, MQOO_OUTPUT);
    let mut md = Mqmd::default();
    putter
        .put(
            output,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"wake",
        )
        .unwrap();
    assert_eq!(waiter.join().unwrap().unwrap(), b"wake");
    group.stop();
}

#[test]
fn shared_units_of_work_commit_and_back_out_across_members() {
    let group = Group::start();
    let (first, second) = (&group.first, &group.second);
    ok(first, "DEFINE QLOCAL(PRIVATE.Q)");
    let mut putter = connect(first);
    let mut getter = connect(second);
    let output = open(&mut putter, MQOO_OUTPUT);
    let input = open(&mut getter, MQOO_INPUT_SHARED);
    let take = |getter: &mut Connection, options| get_sized(getter, input, options, BUFFER);

    // Neither syncpoint option: z/OS's default, in the unit of work.
    for data in [&b"one"[..], b"two"] {
        put_md(&mut putter, output, &mut Mqmd::default(), 0, data).unwrap();
    }
    let nothing_yet = take(&mut getter, MQGMO_NO_SYNCPOINT);
    assert_eq!(reason(nothing_yet), MQRC_NO_MSG_AVAILABLE);
    putter.commit().unwrap();

    // A get backed out puts the message back, its backout count raised.
    let (_, data) = take(&mut getter, MQGMO_SYNCPOINT).unwrap();
    assert_eq!(data, b"one");
    let mut other = connect(first);
    let other_input = open(&mut other, MQOO_BROWSE);
    let (_, hidden) = get_sized(&mut other, other_input, MQGMO_BROWSE_FIRST, BUFFER).unwrap();
    assert_eq!(hidden, b"two", "a message got in a unit is hidden at once");
    getter.backout().unwrap();
    let (md, data) = take(&mut getter, MQGMO_SYNCPOINT).unwrap();
    assert_eq!((data.as_slice(), md.backout_count), (&b"one"[..], 1));
    getter.commit().unwrap();

    // A put backed out never appears.
    put_md(
        &mut putter,
        output,
        &mut Mqmd::default(),
        MQPMO_SYNCPOINT,
        b"never",
    )
    .unwrap();
    putter.backout().unwrap();
    let (_, data) = take(&mut getter, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(data, b"two");
    let empty = take(&mut getter, MQGMO_NO_SYNCPOINT);
    assert_eq!(reason(empty), MQRC_NO_MSG_AVAILABLE);
    drop(other);
    group.stop();
}

/// Script calls (one per look at a structure) the Redis server has run so far.
fn script_calls(redis: &Server) -> u64 {
    let mut connection = redis::Client::open(redis.url())
        .unwrap()
        .get_connection()
        .unwrap();
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query(&mut connection)
        .unwrap();
    info.lines()
        .filter(|line| line.starts_with("cmdstat_evalsha:") || line.starts_with("cmdstat_eval:"))
        .filter_map(|line| {
            let calls = line.split_once("calls=")?.1;
            calls.split(',').next()?.parse::<u64>().ok()
        })
        .sum()
}

#[test]
fn a_waiting_getter_looks_again_on_arrivals_not_in_a_tight_loop() {
    let group = Group::start();
    let mut getter = connect(&group.second);
    let input = open(&mut getter, MQOO_INPUT_SHARED);
    let before = script_calls(&group._servers[0]);
    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.wait_interval = 3_000;
    assert_eq!(
        reason(get_with(&mut getter, input, &mut gmo, BUFFER)),
        MQRC_NO_MSG_AVAILABLE
    );
    // One look, then one per WAIT_SLICE_MS at most (a loaded machine looks less often, never
    // more); polling every 20 ms would have looked about 150 times.
    let looks = script_calls(&group._servers[0]) - before;
    let slices = 3_000 / ferrite_mqi::connection::WAIT_SLICE_MS;
    assert!(looks <= slices + 2, "{looks} looks in a 3 s wait");
    drop(getter);
    group.stop();
}

/// A connection to `queue_manager` whose unit of work on ORDERS holds a got message "kept"
/// (put outside syncpoint, so hidden from every other getter now) and a staged put "never".
fn unit_in_flight(queue_manager: &Arc<QueueManager>) -> Connection {
    let mut app = connect(queue_manager);
    let shared = open(&mut app, MQOO_OUTPUT | MQOO_INPUT_SHARED);
    put_md(
        &mut app,
        shared,
        &mut persistent(),
        MQPMO_NO_SYNCPOINT,
        b"kept",
    )
    .unwrap();
    put_md(
        &mut app,
        shared,
        &mut persistent(),
        MQPMO_SYNCPOINT,
        b"never",
    )
    .unwrap();
    let (_, got) = get_sized(&mut app, shared, MQGMO_SYNCPOINT, BUFFER).unwrap();
    assert_eq!(got, b"kept");
    app
}

fn persistent() -> Mqmd {
    Mqmd {
        persistence: ferrite_constants::persistence::MQPER_PERSISTENT,
        ..Mqmd::default()
    }
}

#[test]
fn a_unit_of_work_on_private_and_shared_queues_commits_and_backs_out_whole() {
    let group = Group::start();
    let (first, second) = (&group.first, &group.second);
    ok(first, "DEFINE QLOCAL(PRIVATE.Q)");
    let mut app = connect(first);
    let shared = open(&mut app, MQOO_OUTPUT);
    let private = app
        .open(&mut Mqod::queue("PRIVATE.Q"), MQOO_OUTPUT)
        .unwrap();
    let mut watcher = connect(first);
    let private_input = watcher
        .open(&mut Mqod::queue("PRIVATE.Q"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut remote = connect(second);
    let shared_input = open(&mut remote, MQOO_INPUT_SHARED);

    // Private first, then shared: either order joins one unit.
    put_md(
        &mut app,
        private,
        &mut persistent(),
        MQPMO_SYNCPOINT,
        b"private 1",
    )
    .unwrap();
    put_md(
        &mut app,
        shared,
        &mut persistent(),
        MQPMO_SYNCPOINT,
        b"shared 1",
    )
    .unwrap();
    put_md(
        &mut app,
        private,
        &mut Mqmd::default(),
        MQPMO_SYNCPOINT,
        b"private 2",
    )
    .unwrap();
    for (connection, input) in [(&mut watcher, private_input), (&mut remote, shared_input)] {
        let invisible = get_sized(connection, input, MQGMO_NO_SYNCPOINT, BUFFER);
        assert_eq!(reason(invisible), MQRC_NO_MSG_AVAILABLE);
    }
    app.commit().unwrap();
    let take = |connection: &mut Connection, input| {
        get_sized(connection, input, MQGMO_NO_SYNCPOINT, BUFFER).map(|(_, data)| data)
    };
    assert_eq!(take(&mut remote, shared_input).unwrap(), b"shared 1");
    assert_eq!(take(&mut watcher, private_input).unwrap(), b"private 1");
    assert_eq!(take(&mut watcher, private_input).unwrap(), b"private 2");

    // Backed out: neither half appears.
    put_md(
        &mut app,
        shared,
        &mut persistent(),
        MQPMO_SYNCPOINT,
        b"shared 2",
    )
    .unwrap();
    put_md(
        &mut app,
        private,
        &mut persistent(),
        MQPMO_SYNCPOINT,
        b"private 3",
    )
    .unwrap();
    app.backout().unwrap();
    assert_eq!(
        reason(take(&mut remote, shared_input)),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(
        reason(take(&mut watcher, private_input)),
        MQRC_NO_MSG_AVAILABLE
    );

    // Gets too: a shared and a private message got in one unit, committed together.
    put_md(
        &mut app,
        shared,
        &mut persistent(),
        MQPMO_NO_SYNCPOINT,
        b"shared 3",
    )
    .unwrap();
    put_md(
        &mut app,
        private,
        &mut persistent(),
        MQPMO_NO_SYNCPOINT,
        b"private 4",
    )
    .unwrap();
    let (_, got) = get_sized(&mut watcher, private_input, MQGMO_SYNCPOINT, BUFFER).unwrap();
    assert_eq!(got, b"private 4");
    let watcher_shared = open(&mut watcher, MQOO_INPUT_SHARED);
    let (_, got) = get_sized(&mut watcher, watcher_shared, MQGMO_SYNCPOINT, BUFFER).unwrap();
    assert_eq!(got, b"shared 3");
    watcher.commit().unwrap();
    assert_eq!(
        reason(take(&mut remote, shared_input)),
        MQRC_NO_MSG_AVAILABLE
    );
    drop((app, watcher, remote));
    group.stop();
}

#[test]
fn a_restarted_member_finishes_its_shared_work_the_way_it_went() {
    use ferrite_queue_manager::{MessageSelector, UnitOfWork};
    use ferrite_storage::data_manager::message::MessageDescriptor;
    let redis = Server::redis();
    let postgres = Server::postgres();
    let directories = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let first = member(directories[0].path(), "QM1", &redis, &postgres);
    let second = member(directories[1].path(), "QM2", &redis, &postgres);
    ok(&first, "DEFINE CFSTRUCT(APP1) RECOVER(YES)");
    ok(
        &first,
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)",
    );
    ok(&first, "DEFINE QLOCAL(PRIVATE.Q)");
    let group = first.queue_sharing_group().unwrap().clone();

    // A shared unit left staged: a message put in it (never visible), one got in it (hidden).
    let app = unit_in_flight(&first);
    // The process "ends" without MQDISC or backout.
    std::mem::forget(app);

    // Two mixed units whose private halves are prepared: one whose shared half committed
    // (the decision recorded), one whose shared half did not.
    let queue = first.queue("PRIVATE.Q").unwrap();
    let descriptor = MessageDescriptor {
        persistent: true,
        ..MessageDescriptor::default()
    };
    let prepared = |data: &[u8], shared_unit: &str| {
        let mut unit = UnitOfWork::new();
        first
            .put(Some(&mut unit), &queue, &descriptor, data)
            .unwrap();
        let urid = unit.urid().unwrap().to_string();
        group.prepare_mixed(&urid, shared_unit).unwrap();
        first.prepare(&mut unit).unwrap();
        std::mem::forget(unit);
        urid
    };
    let decided = prepared(b"decided", "u.decided");
    let undecided = prepared(b"undecided", "u.undecided");
    // The shared half holds work (a unit with none has nothing to commit), on a queue of
    // its own.
    let shared_half = ferrite_queue_manager::SharedMessage {
        priority: 0,
        message_id: [9; 24],
        correlation_id: [0; 24],
        data: b"shared half".to_vec(),
    };
    group
        .put_shared_in_unit("APP1", "u.decided", "DECIDED.Q", &shared_half)
        .unwrap();
    group
        .commit_shared_deciding("APP1", "u.decided", &decided)
        .unwrap();
    drop(group);
    first.shutdown().unwrap();
    drop(first);

    let first = rejoin(directories[0].path(), "QM1", &redis, &postgres);
    assert!(
        first.in_doubt_units().is_empty(),
        "every mixed unit resolved"
    );
    let queue = first.queue("PRIVATE.Q").unwrap();
    let mut private = Vec::new();
    while let Some(message) = first
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
    {
        private.push(message.data);
    }
    assert_eq!(private, vec![b"decided".to_vec()]);
    // The staged unit was backed out: the got message is back, the staged put never came.
    let mut other = connect(&second);
    let input = open(&mut other, MQOO_INPUT_SHARED);
    let (md, got) = get_sized(&mut other, input, MQGMO_NO_SYNCPOINT, BUFFER).unwrap();
    assert_eq!((got.as_slice(), md.backout_count), (&b"kept"[..], 1));
    assert_eq!(
        reason(get_sized(&mut other, input, MQGMO_NO_SYNCPOINT, BUFFER)),
        MQRC_NO_MSG_AVAILABLE
    );
    // Nothing is left to recover.
    let group = first.queue_sharing_group().unwrap().clone();
    let again = group.recover_member(&[decided, undecided]).unwrap();
    assert_eq!(again, ferrite_queue_manager::MemberRecovery::default());
    drop((other, group));
    first.shutdown().unwrap();
    second.shutdown().unwrap();
}

#[test]
fn a_failed_members_units_of_work_are_backed_out_by_its_peers() {
    let redis = Server::redis();
    let postgres = Server::postgres();
    let directories = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let (first, first_group) = member_and_group(directories[0].path(), "QM1", &redis, &postgres);
    let (second, second_group) = member_and_group(directories[1].path(), "QM2", &redis, &postgres);
    ok(&first, "DEFINE CFSTRUCT(APP1) RECOVER(YES)");
    ok(
        &first,
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)",
    );

    // QM1's unit of work holds a got message (hidden from everyone) and a staged put.
    let mut app = unit_in_flight(&first);

    // QM1 fails as far as its group can tell: its lease is no longer renewed.
    first_group.halt();
    let mut other = connect(&second);
    let input = open(&mut other, MQOO_INPUT_SHARED | MQOO_BROWSE);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let (md, data) = loop {
        match get_sized(
            &mut other,
            input,
            MQGMO_BROWSE_FIRST | MQGMO_NO_SYNCPOINT,
            BUFFER,
        ) {
            Ok(found) => break found,
            Err(error) => assert_eq!(error.reason, MQRC_NO_MSG_AVAILABLE),
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no peer recovered QM1"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!((data.as_slice(), md.backout_count), (&b"kept"[..], 1));
    assert_eq!(second_group.peer_units_backed_out(), 1);
    let (_, got) = get_sized(&mut other, input, MQGMO_NO_SYNCPOINT, BUFFER).unwrap();
    assert_eq!(got, b"kept");
    assert_eq!(
        reason(get_sized(&mut other, input, MQGMO_NO_SYNCPOINT, BUFFER)),
        MQRC_NO_MSG_AVAILABLE,
        "the staged put never appears"
    );
    // QM1 was only cut off: its MQCMIT of the unit its peers backed out backs out.
    assert_eq!(reason(app.commit()), MQRC_BACKED_OUT);
    drop((app, other));
    first.shutdown().unwrap();
    second.shutdown().unwrap();
}
