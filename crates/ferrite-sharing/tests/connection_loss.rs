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
