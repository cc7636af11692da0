//! `ferrite create --qsg` and the start of a member, with the test's own Redis server and
//! PostgreSQL cluster (ferrite-test-kit's servers): members join in order, record their
//! membership in qm.toml, show each other in DISPLAY GROUP, and a member whose coupling
//! facility or repository is missing does not start, saying why with MQ's reason code.

mod support;

use std::path::Path;

use ferrite_test_kit::process::free_port;
use ferrite_test_kit::servers::Server;
use support::{ferrite, ok, run, Watched};

/// A bound on how long anything here may hang; never a measure of speed.
const HANG_SECONDS: u64 = 300;

fn create_member(home: &Path, name: &str, redis: &str, postgres: &str) -> (bool, String) {
    run(
        home,
        &[
            "create", name, "--qsg", "QSG1", "--cf", redis, "--db", postgres,
        ],
    )
}

fn display_group(home: &Path, name: &str) -> String {
    ok(home, &["mqsc", name], "DISPLAY GROUP\n")
}

/// The line of the DISPLAY GROUP report that names `member`.
fn member_line<'a>(report: &'a str, member: &str) -> &'a str {
    report
        .lines()
        .find(|line| line.split_whitespace().next() == Some(member))
        .unwrap_or_else(|| panic!("{member} not in {report}"))
}

#[test]
fn members_are_created_joined_and_displayed() {
    let redis = Server::redis();
    let postgres = Server::postgres();
    let home = tempfile::tempdir().unwrap();
    let (created, output) = create_member(home.path(), "QM1", &redis.url(), &postgres.url());
    assert!(created, "{output}");
    assert!(
        output.contains("member 1 of queue sharing group QSG1"),
        "{output}"
    );
    let (created, output) = create_member(home.path(), "QM2", &redis.url(), &postgres.url());
    assert!(created, "{output}");
    assert!(
        output.contains("member 2 of queue sharing group QSG1"),
        "{output}"
    );
    let config = std::fs::read_to_string(home.path().join("qmgrs/QM2/qm.toml")).unwrap();
    assert!(config.contains("[queue_sharing_group]"), "{config}");
    assert!(config.contains(&redis.url()), "{config}");

    // QM1 runs; QM2, opened in-process for the command, is active while it runs too.
    let mut first = Watched::spawn({
        let mut command = ferrite(home.path());
        command.args(["start", "QM1", "--port", "0"]);
        command
    });
    first.wait_for(
        "CSQ5001I QM1 CSQ5CONN Connected to queue sharing group QSG1 as member 1",
        HANG_SECONDS,
    );
    first.wait_for("CSQY022I", HANG_SECONDS);
    let report = display_group(home.path(), "QM2");
    assert!(
        report.contains("CSQ5102I QM2 CSQ5DQSG Queue managers in group QSG1"),
        "{report}"
    );
    assert!(
        member_line(&report, "QM1").contains(" 1 ACTIVE "),
        "{report}"
    );
    assert!(
        member_line(&report, "QM2").contains(" 2 ACTIVE "),
        "{report}"
    );
    assert!(report.contains("coupling facility redis://"), "{report}");
    assert!(
        report.contains("CSQ9022I QM2 CSQ5DQSG ' DISPLAY GROUP' NORMAL COMPLETION"),
        "{report}"
    );
    // The running member answers through its command server; QM2 has stopped since.
    let report = display_group(home.path(), "QM1");
    assert!(
        member_line(&report, "QM2").contains(" 2 INACTIVE "),
        "{report}"
    );
    ok(home.path(), &["stop", "QM1"], "");
    let (stopped, output) = first.finish();
    assert!(stopped, "{output}");
}

#[test]
fn a_member_without_its_servers_neither_joins_nor_starts() {
    let mut redis = Server::redis();
    let mut postgres = Server::postgres();
    let home = tempfile::tempdir().unwrap();
    let closed = format!("redis://127.0.0.1:{}/", free_port());
    let (created, output) = create_member(home.path(), "QM3", &closed, &postgres.url());
    assert!(!created);
    assert!(
        output.contains("[reason 2345 MQRC_CF_NOT_AVAILABLE]"),
        "{output}"
    );
    assert!(
        !home.path().join("qmgrs/QM3").exists(),
        "nothing made for a member not added"
    );
    let (created, output) = run(home.path(), &["create", "QM3", "--qsg", "QSG1"]);
    assert!(!created);
    assert!(
        output.contains("--cf <URL>") && output.contains("--db <URL>"),
        "{output}"
    );

    let (created, output) = create_member(home.path(), "QM1", &redis.url(), &postgres.url());
    assert!(created, "{output}");
    postgres.stop();
    let (started, output) = run(home.path(), &["start", "QM1", "--port", "0"]);
    assert!(!started);
    assert!(
        output.contains("[reason 2342 MQRC_DB2_NOT_AVAILABLE]"),
        "{output}"
    );
    redis.stop();
    let (started, output) = run(home.path(), &["start", "QM1", "--port", "0"]);
    assert!(!started);
    assert!(
        output.contains("cannot connect to queue sharing group QSG1"),
        "{output}"
    );
    assert!(
        output.contains("[reason 2345 MQRC_CF_NOT_AVAILABLE]"),
        "{output}"
    );
}

#[test]
fn display_group_outside_a_group_says_so() {
    let home = tempfile::tempdir().unwrap();
    ok(home.path(), &["create", "QM9"], "");
    let output = ferrite_test_kit::process::text(&support::ferrite_with_input(
        home.path(),
        &["mqsc", "QM9"],
        "DISPLAY GROUP\n",
    ));
    assert!(
        output.contains(
            "CSQ5112E QM9 CSQ5DQSG DISPLAY GROUP: queue manager is not in a queue sharing group"
        ),
        "{output}"
    );
    assert!(
        output.contains("CSQ9023E QM9 CSQ5DQSG ' DISPLAY GROUP' ABNORMAL COMPLETION"),
        "{output}"
    );
}
