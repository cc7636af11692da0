//! Membership of a queue sharing group against real servers: a Redis server and a throw-away
//! PostgreSQL cluster started by the test (ferrite-test-kit's servers).

use ferrite_constants::reason::*;
use ferrite_sharing::{add_member, join, remove_member, QueueSharingGroup};
use ferrite_storage::config::QueueSharingGroupParameters;
use ferrite_test_kit::process::free_port;
use ferrite_test_kit::servers::Server;

fn parameters(redis: &str, postgres: &str) -> QueueSharingGroupParameters {
    QueueSharingGroupParameters {
        name: "QSG1".to_string(),
        coupling_facility: redis.to_string(),
        repository: postgres.to_string(),
    }
}

#[test]
fn members_join_in_number_order_and_are_recorded_active_while_they_run() {
    let redis = Server::redis();
    let postgres = Server::postgres();
    let group = parameters(&redis.url(), &postgres.url());
    assert_eq!(add_member("QM1", &group).unwrap(), 1);
    assert_eq!(add_member("QM2", &group).unwrap(), 2);
    let again = add_member("QM1", &group).unwrap_err();
    assert_eq!(again.reason, MQRC_OBJECT_ALREADY_EXISTS, "{again}");

    let first = join("QM1", &group).unwrap();
    assert_eq!((first.name(), first.member_number()), ("QSG1", 1));
    let members = first.members().unwrap();
    let summary: Vec<(String, u32, bool)> = members
        .iter()
        .map(|member| (member.name.clone(), member.number, member.active))
        .collect();
    assert_eq!(
        summary,
        vec![("QM1".to_string(), 1, true), ("QM2".to_string(), 2, false)]
    );
    let status = first.coupling_facility_status().unwrap();
    assert!(status.server.starts_with("redis 7") || status.server.starts_with("valkey"));
    assert!(status.used_bytes > 0);

    first.leave().unwrap();
    assert!(first.members().unwrap().iter().all(|member| !member.active));
    // A member removed (while inactive) frees its number for the next one.
    remove_member("QM1", &group).unwrap();
    assert_eq!(add_member("QM3", &group).unwrap(), 1);
}

#[test]
fn a_group_holds_at_most_32_members() {
    let redis = Server::redis();
    let postgres = Server::postgres();
    let group = parameters(&redis.url(), &postgres.url());
    for number in 1..=32 {
        assert_eq!(add_member(&format!("QM{number}"), &group).unwrap(), number);
    }
    let full = add_member("QM33", &group).unwrap_err();
    assert_eq!(full.reason, MQRC_RESOURCE_PROBLEM, "{full}");
    assert!(full.text.contains("32 members"), "{full}");
}

#[test]
fn a_missing_server_fails_the_start_with_mq_reason_codes() {
    let mut redis = Server::redis();
    let mut postgres = Server::postgres();
    let group = parameters(&redis.url(), &postgres.url());
    add_member("QM1", &group).unwrap();

    // Not a member of the group the repository holds.
    let stranger = join("QM9", &group).err().unwrap();
    assert_eq!(stranger.reason, MQRC_Q_MGR_NAME_ERROR, "{stranger}");
    assert!(stranger.text.contains("ferrite create --qsg"), "{stranger}");

    // Nothing listens where the coupling facility should be.
    let closed = format!("redis://127.0.0.1:{}/", free_port());
    let no_cf = join("QM1", &parameters(&closed, &postgres.url()))
        .err()
        .unwrap();
    assert_eq!(no_cf.reason, MQRC_CF_NOT_AVAILABLE, "{no_cf}");
    assert!(
        no_cf.to_string().contains("2345 MQRC_CF_NOT_AVAILABLE"),
        "{no_cf}"
    );

    postgres.stop();
    let no_db = join("QM1", &group).err().unwrap();
    assert_eq!(no_db.reason, MQRC_DB2_NOT_AVAILABLE, "{no_db}");
    assert!(
        no_db.text.contains("start the PostgreSQL server"),
        "{no_db}"
    );

    redis.stop();
    let neither = add_member("QM2", &group).unwrap_err();
    assert_eq!(neither.reason, MQRC_CF_NOT_AVAILABLE, "{neither}");
}
