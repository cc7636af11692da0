//! A member whose coupling facility or shared repository goes away: the calls made meanwhile
//! fail with MQ's reason codes (2373 on the connection that broke, 2345 while Redis cannot be
//! reached, 2342 for PostgreSQL) and change nothing, and the member connects again by itself
//! once the server is back.

mod support;

use ferrite_sharing::coupling_facility::CouplingFacility;
use ferrite_sharing::list_structure::{
    is_not_allocated, ListStructure, SharedMessage, SharedSelection,
};
use ferrite_test_kit::servers::Server;
use support::{fails, member, ok};

#[test]
fn a_define_while_the_repository_is_down_fails_and_the_member_reconnects() {
    let redis = Server::redis();
    let mut postgres = Server::postgres();
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = member(directory.path(), "QM1", &redis, &postgres);

    postgres.stop();
    let down = fails(&queue_manager, "DEFINE CFSTRUCT(APP1) RECOVER(YES)");
    assert!(down.contains("2342 MQRC_DB2_NOT_AVAILABLE"), "{down}");
    let display = fails(&queue_manager, "DISPLAY GROUP");
    assert!(display.contains("2342 MQRC_DB2_NOT_AVAILABLE"), "{display}");

    postgres.restart();
    let none = ok(&queue_manager, "DISPLAY CFSTRUCT(*)");
    assert!(
        none.contains("NO CFSTRUCT FOUND"),
        "the failed DEFINE stored nothing: {none}"
    );
    ok(&queue_manager, "DEFINE CFSTRUCT(APP1) RECOVER(YES)");
    let shown = ok(&queue_manager, "DISPLAY CFSTRUCT(APP1) RECOVER");
    assert!(shown.contains("RECOVER(YES)"), "{shown}");
    let group = ok(&queue_manager, "DISPLAY GROUP");
    assert!(group.contains("ACTIVE"), "{group}");
    queue_manager.shutdown().unwrap();
}

#[test]
fn a_lost_coupling_facility_is_reported_then_connected_again() {
    let mut redis = Server::redis();
    let postgres = Server::postgres();
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = member(directory.path(), "QM1", &redis, &postgres);
    let mut structure = ListStructure::new(
        CouplingFacility::connect(&redis.url()).unwrap(),
        "QSG1",
        "APP1",
    );
    structure.allocate(0).unwrap();
    let message = SharedMessage {
        priority: 5,
        message_id: [1; 24],
        correlation_id: [0; 24],
        data: b"before".to_vec(),
    };
    structure.put("Q1", &message).unwrap();

    redis.stop();
    let status = ok(&queue_manager, "DISPLAY CFSTATUS(CSQ_ADMIN)");
    assert!(status.contains("STATUS(FAILED)"), "{status}");
    assert!(
        status.contains("REASON(2373)"),
        "the connection in use broke: {status}"
    );
    let status = ok(&queue_manager, "DISPLAY CFSTATUS(CSQ_ADMIN)");
    assert!(
        status.contains("REASON(2345)"),
        "no server to connect to: {status}"
    );
    let lost = structure.put("Q1", &message).unwrap_err();
    assert_eq!(
        lost.reason,
        ferrite_constants::reason::MQRC_CF_STRUC_FAILED,
        "{lost}"
    );
    let unreachable = structure.get("Q1", SharedSelection::First).unwrap_err();
    assert_eq!(
        unreachable.reason,
        ferrite_constants::reason::MQRC_CF_NOT_AVAILABLE,
        "{unreachable}"
    );

    // Redis back, empty (it keeps nothing): both connections are made again, and the
    // structure is known lost rather than taken for an empty one.
    redis.restart();
    let status = ok(&queue_manager, "DISPLAY CFSTATUS(CSQ_ADMIN)");
    assert!(status.contains("STATUS(ACTIVE)"), "{status}");
    let lost = structure.depth("Q1").unwrap_err();
    assert!(is_not_allocated(&lost), "{lost}");
    structure.allocate(0).unwrap();
    assert_eq!(structure.depth("Q1").unwrap(), 0);
    structure.put("Q1", &message).unwrap();
    let got = structure
        .get("Q1", SharedSelection::First)
        .unwrap()
        .unwrap();
    assert_eq!(got.message, message);
    queue_manager.shutdown().unwrap();
}

/// CFCONLOS: while Redis is down, MQI calls on shared queues fail (MQRC_CF_STRUC_FAILED on
/// the connection that broke, MQRC_CF_NOT_AVAILABLE while no connection can be made) and
/// private queues work on; when Redis is back on its port the member connects again by itself,
/// and the RECOVER(NO) structure, lost with the server's data, is allocated anew, empty.
#[test]
fn mqi_calls_on_shared_queues_fail_while_redis_is_down_and_work_again_after() {
    use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
    use ferrite_mqi::Mqod;
    use ferrite_test_kit::mqi::{connect, get, put_md, reason};

    let mut redis = Server::redis();
    let postgres = Server::postgres();
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = member(directory.path(), "QM1", &redis, &postgres);
    ok(&queue_manager, "DEFINE CFSTRUCT(APP1) CFCONLOS(TOLERATE)");
    ok(
        &queue_manager,
        "DEFINE QLOCAL(SHARED.Q) QSGDISP(SHARED) CFSTRUCT(APP1)",
    );
    ok(&queue_manager, "DEFINE QLOCAL(PRIVATE.Q)");
    let mut app = connect(&queue_manager);
    let options = MQOO_OUTPUT | MQOO_INPUT_SHARED;
    let shared = app.open(&mut Mqod::queue("SHARED.Q"), options).unwrap();
    let private = app.open(&mut Mqod::queue("PRIVATE.Q"), options).unwrap();
    let put = |app: &mut ferrite_mqi::Connection, hobj, data: &[u8]| {
        put_md(
            app,
            hobj,
            &mut ferrite_mqi::Mqmd::default(),
            MQPMO_NO_SYNCPOINT,
            data,
        )
    };
    put(&mut app, shared, b"before").unwrap();

    redis.stop();
    assert_eq!(reason(put(&mut app, shared, b"lost")), MQRC_CF_STRUC_FAILED);
    assert_eq!(
        reason(get(&mut app, shared, MQGMO_NO_SYNCPOINT)),
        MQRC_CF_NOT_AVAILABLE
    );
    assert_eq!(
        reason(put(&mut app, shared, b"lost")),
        MQRC_CF_NOT_AVAILABLE
    );
    put(&mut app, private, b"private work goes on").unwrap();
    let (_, data) = get(&mut app, private, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(data, b"private work goes on");

    redis.restart();
    // The structure's connection was dropped when it broke: the next call connects again.
    put(&mut app, shared, b"after").unwrap();
    let (_, data) = get(&mut app, shared, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(
        data, b"after",
        "the non-persistent message put before went with Redis"
    );
    assert_eq!(
        reason(get(&mut app, shared, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    drop(app);
    queue_manager.shutdown().unwrap();
}
