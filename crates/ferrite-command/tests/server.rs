//! The command server round trip through the in-process MQI: a command put to
//! SYSTEM.COMMAND.INPUT with a ReplyToQ; its replies got by CorrelId.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_command::{run_command, CommandServer};
use ferrite_constants::{
    get_options::*, match_options::*, message_type::*, open_options::*, persistence::*,
    put_options::*, reason::*, report::*,
};
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::QueueManager;

fn setup() -> (tempfile::TempDir, Arc<QueueManager>) {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    for command in [
        "DEFINE QLOCAL(SYSTEM.COMMAND.INPUT) STGCLASS(SYSTEM)",
        "DEFINE QLOCAL(ADMIN.REPLY) INDXTYPE(CORRELID)",
        "DEFINE QLOCAL(APP.Q) DESCR('application queue')",
    ] {
        assert!(run_command(&queue_manager, command).success, "{command}");
    }
    (directory, queue_manager)
}

/// Put `command` as a request; returns its MsgId and CorrelId.
fn request(connection: &mut Connection, command: &str, report: i32, persistent: bool) -> Mqmd {
    let mut md = Mqmd {
        msg_type: MQMT_REQUEST,
        reply_to_q: "ADMIN.REPLY".into(),
        report,
        persistence: if persistent {
            MQPER_PERSISTENT
        } else {
            MQPER_NOT_PERSISTENT
        },
        correl_id: *b"MY-OWN-CORRELATION-ID-24",
        ..Mqmd::default()
    };
    connection
        .put1(
            &mut Mqod::queue("SYSTEM.COMMAND.INPUT"),
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID),
            command.as_bytes(),
        )
        .unwrap();
    md
}

/// Get every reply with `correl_id` (waiting up to `first_wait_ms` for the first, 500 ms for
/// each of the rest).
fn replies_within(
    connection: &mut Connection,
    correl_id: [u8; 24],
    first_wait_ms: i32,
) -> Vec<(String, Mqmd)> {
    let hobj = connection
        .open(&mut Mqod::queue("ADMIN.REPLY"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut replies = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let mut md = Mqmd {
            correl_id,
            ..Mqmd::default()
        };
        let mut gmo = Mqgmo::matching(MQGMO_WAIT | MQGMO_NO_SYNCPOINT, MQMO_MATCH_CORREL_ID);
        gmo.wait_interval = if replies.is_empty() {
            first_wait_ms
        } else {
            500
        };
        match connection.get(hobj, &mut md, &mut gmo, &mut buffer) {
            Ok(got) => replies.push((
                String::from_utf8(buffer[..got.data_length].to_vec()).unwrap(),
                md,
            )),
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
            Err(error) => panic!("get reply: {error:?}"),
        }
    }
    connection.close(hobj, 0).unwrap();
    replies
}

fn replies(connection: &mut Connection, correl_id: [u8; 24]) -> Vec<(String, Mqmd)> {
    replies_within(connection, correl_id, 10_000)
}

#[test]
fn commands_round_trip_with_replies_by_correl_id() {
    let (_directory, queue_manager) = setup();
    let server = CommandServer::start(queue_manager.clone());
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();

    // DEFINE: CSQN205I then CSQ9022I, CorrelId = the request's MsgId (the default).
    let sent = request(
        &mut connection,
        "DEFINE QLOCAL(REMOTE.ADMIN.Q) MAXDEPTH(7)",
        0,
        true,
    );
    let got = replies(&mut connection, sent.msg_id);
    let texts: Vec<&str> = got.iter().map(|(text, _)| text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "CSQN205I    COUNT=       2, RETURN=00000000, REASON=00000000",
            "CSQ9022I QM1 CSQMMSGP ' DEFINE QLOCAL' NORMAL COMPLETION",
        ]
    );
    for (_, md) in &got {
        assert_eq!(md.msg_type, MQMT_REPLY);
        assert_eq!(
            md.persistence, MQPER_PERSISTENT,
            "persistence as the request"
        );
        assert_eq!(&md.format, b"MQSTR   ");
        assert_ne!(md.msg_id, sent.msg_id);
    }
    assert_eq!(
        queue_manager
            .queue("REMOTE.ADMIN.Q")
            .unwrap()
            .definition()
            .max_depth,
        7
    );

    // DISPLAY: one message per object, attributes on one line; non-persistent like the request.
    let sent = request(
        &mut connection,
        "DISPLAY QLOCAL(*) WHERE(MAXDEPTH LT 100) MAXDEPTH",
        0,
        false,
    );
    let got = replies(&mut connection, sent.msg_id);
    let texts: Vec<&str> = got.iter().map(|(text, _)| text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "CSQN205I    COUNT=       3, RETURN=00000000, REASON=00000000",
            "CSQM401I QM1 QUEUE(REMOTE.ADMIN.Q) TYPE(QLOCAL) QSGDISP(QMGR) MAXDEPTH(7)",
            "CSQ9022I QM1 CSQMDRTS ' DISPLAY QLOCAL' NORMAL COMPLETION",
        ]
    );
    assert!(got
        .iter()
        .all(|(_, md)| md.persistence == MQPER_NOT_PERSISTENT));

    // A failing command: RETURN=0000000C, REASON=00000008; MQRO_PASS_CORREL_ID keeps the
    // request's CorrelId on the replies.
    let sent = request(
        &mut connection,
        "DELETE QLOCAL(NO.SUCH.Q)",
        MQRO_PASS_CORREL_ID,
        false,
    );
    let got = replies(&mut connection, sent.correl_id);
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(
        got[0].0,
        "CSQN205I    COUNT=       4, RETURN=0000000C, REASON=00000008"
    );
    assert!(got[1]
        .0
        .starts_with("CSQM125I QM1 CSQMUQLC QLOCAL(NO.SUCH.Q)"));
    assert!(got[3].0.starts_with("CSQ9023E"));
    assert!(replies_within(&mut connection, sent.msg_id, 0).is_empty());

    // No ReplyToQ: the command runs, the reply is discarded.
    let mut md = Mqmd::default();
    connection
        .put1(
            &mut Mqod::queue("SYSTEM.COMMAND.INPUT"),
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"ALTER QLOCAL(APP.Q) MAXDEPTH(42)",
        )
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while queue_manager.queue("APP.Q").unwrap().definition().max_depth != 42 {
        assert!(
            Instant::now() < deadline,
            "the command server did not run the request"
        );
        std::thread::sleep(Duration::from_millis(10));
    }

    // Every request consumed, in syncpoint, and committed.
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.requests_processed() < 4 {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(10));
    }
    let status = queue_manager
        .queue("SYSTEM.COMMAND.INPUT")
        .unwrap()
        .status();
    assert_eq!((status.current_depth, status.uncommitted), (0, 0));
    assert_eq!(
        status.open_input_count, 1,
        "the server holds the queue open"
    );
    assert_eq!(queue_manager.queue("ADMIN.REPLY").unwrap().depth(), 0);

    // Stop: the server's get waits a short interval, so stop returns (no timing asserted:
    // machines are noisy), and the queue is released.
    server.stop();
    let status = queue_manager
        .queue("SYSTEM.COMMAND.INPUT")
        .unwrap()
        .status();
    assert_eq!(status.open_input_count, 0);
    connection.disconnect().unwrap();
    queue_manager.shutdown().unwrap();
}

#[test]
fn dropping_the_handle_stops_the_server_and_a_missing_queue_is_waited_for() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let server = CommandServer::start(queue_manager.clone());
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        server.is_running(),
        "waits for SYSTEM.COMMAND.INPUT to be defined"
    );
    assert!(run_command(&queue_manager, "DEFINE QLOCAL(SYSTEM.COMMAND.INPUT)").success);
    assert!(run_command(&queue_manager, "DEFINE QLOCAL(R)").success);
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let mut md = Mqmd {
        reply_to_q: "R".into(),
        ..Mqmd::default()
    };
    connection
        .put1(
            &mut Mqod::queue("SYSTEM.COMMAND.INPUT"),
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"DISPLAY QMGR MAXUMSGS",
        )
        .unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("R"), MQOO_INPUT_SHARED)
        .unwrap();
    let mut buffer = [0u8; 1024];
    let mut reply = Mqmd::default();
    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.wait_interval = 10_000;
    let got = connection
        .get(hobj, &mut reply, &mut gmo, &mut buffer)
        .unwrap();
    assert!(std::str::from_utf8(&buffer[..got.data_length])
        .unwrap()
        .starts_with("CSQN205I"));
    assert_eq!(reply.correl_id, md.msg_id);
    connection.close(hobj, 0).unwrap();
    drop(server);
    let status = queue_manager
        .queue("SYSTEM.COMMAND.INPUT")
        .unwrap()
        .status();
    assert_eq!(
        status.open_input_count, 0,
        "dropping the handle stopped the server"
    );
    connection.disconnect().unwrap();
    queue_manager.shutdown().unwrap();
}

#[test]
fn the_server_ends_when_the_queue_manager_stops() {
    let (_directory, queue_manager) = setup();
    let server = CommandServer::start(queue_manager.clone());
    std::thread::sleep(Duration::from_millis(50));
    queue_manager.shutdown().unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.is_running() {
        assert!(Instant::now() < deadline, "still running after shutdown");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_command_server_runs_a_request_for_the_user_that_put_it() {
    let (_directory, queue_manager) = setup();
    let server = CommandServer::start(queue_manager.clone());
    // An application's user allowed to send requests and read replies, nothing more.
    for command in [
        "SET AUTHREC PROFILE('SYSTEM.COMMAND.INPUT') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT)",
        "SET AUTHREC PROFILE('ADMIN.REPLY') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(GET)",
    ] {
        assert!(run_command(&queue_manager, command).success, "{command}");
    }
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    connection.set_user_identifier("app");
    let sent = request(&mut connection, "DEFINE QLOCAL(SNEAKY.Q)", 0, false);
    let got = replies(&mut connection, sent.msg_id);
    let texts: Vec<&str> = got.iter().map(|(text, _)| text.as_str()).collect();
    assert!(
        texts.iter().any(|text| text.contains("CSQ9016E")),
        "{texts:?}"
    );
    assert!(queue_manager.queue("SNEAKY.Q").is_none());
    // Claiming another user's identity for the request needs setid, which app lacks.
    let mut md = Mqmd {
        user_identifier: ferrite_test_kit::this_user().as_str().into(),
        reply_to_q: "ADMIN.REPLY".into(),
        msg_type: MQMT_REQUEST,
        ..Mqmd::default()
    };
    let error = connection
        .put1(
            &mut Mqod::queue("SYSTEM.COMMAND.INPUT"),
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_SET_IDENTITY_CONTEXT),
            b"DEFINE QLOCAL(SNEAKY.Q)",
        )
        .unwrap_err();
    assert_eq!(error.reason, MQRC_NOT_AUTHORIZED);
    connection.disconnect().unwrap();
    server.stop();
}
