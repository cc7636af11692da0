//! `ferrite stats`: `--now` closes a running queue manager's statistics interval and reports
//! it (the persistent puts made through `ferrite put` counted exactly), `--json` prints the
//! records as stored, `--csv` writes one file per record type, `--svg` draws the day's
//! intervals, and `--now` on a stopped queue manager fails with MQRC_Q_MGR_NOT_AVAILABLE.

mod support;

use support::{ferrite_with_input, ok, run, stop_on_drop};

const Q: &str = "SYSTEM.DEFAULT.LOCAL.QUEUE";

#[test]
fn stats_now_reports_the_running_queue_managers_interval() {
    let home = tempfile::tempdir().unwrap();
    ok(
        home.path(),
        &["start", "SQM", "--background", "--port", "0"],
        "",
    );
    let _running = stop_on_drop(home.path(), "SQM");
    let put = ferrite_with_input(
        home.path(),
        &["put", "SQM", Q, "--persistent"],
        "one\ntwo\nthree\nfour\nfive\n",
    );
    assert!(put.status.success());

    let report = ok(home.path(), &["stats", "SQM", "--now"], "");
    assert!(report.contains("SQM statistics interval"), "{report}");
    assert!(report.contains("(5 persistent,"), "{report}");
    for section in [
        "Message manager (QMST)",
        "Buffer pool 0 (QPST)",
        "Log manager (QJST)",
        "Page sets (QIS1)",
    ] {
        assert!(report.contains(section), "{section} in {report}");
    }
    assert!(report.contains("MB/s copy 1"), "{report}");

    // The same interval as stored: a QMST with the five puts.
    let json = ok(home.path(), &["stats", "SQM", "--json"], "");
    let records: Vec<serde_json::Value> = json
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let qmst = records.iter().find(|r| r["Record"] == "QMST").unwrap();
    assert_eq!(qmst["PersPuts"], 5);
    assert_eq!(qmst["PersPutBytes"], 3 + 3 + 5 + 4 + 4);

    let csv = home.path().join("csv");
    let written = ok(
        home.path(),
        &["stats", "SQM", "--all", "--csv", csv.to_str().unwrap()],
        "",
    );
    // QMST, QPST, QJST, QIS1, and the channel initiator's dispatchers and adapters.
    assert_eq!(written.lines().count(), 6, "{written}");
    assert!(written.contains("QCTDSP.csv"), "{written}");
    let qpst = std::fs::read_to_string(csv.join("QPST.csv")).unwrap();
    assert!(qpst.starts_with("Record,Version,QMgr,"), "{qpst}");

    ok(home.path(), &["stop", "SQM"], "");
    let (stopped, output) = run(home.path(), &["stats", "SQM", "--now"]);
    assert!(!stopped);
    assert!(output.contains("2059"), "{output}");
    // The records stay readable while it is stopped.
    let (read, output) = run(home.path(), &["stats", "SQM"]);
    assert!(read, "{output}");
    // The day's intervals as a chart: the interval's five puts in its first panel.
    let chart = home.path().join("day.svg");
    ok(
        home.path(),
        &["stats", "SQM", "--svg", chart.to_str().unwrap()],
        "",
    );
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("messages put / s (QMST)"),
        "{svg}"
    );

    // ferrite plan from the measured interval: the log bytes per message measured.
    let plan = ok(home.path(), &["plan", "SQM"], "");
    assert!(plan.contains("Workload measured"), "{plan}");
    assert!(plan.contains("persistent, 1 per commit"), "{plan}");
    assert!(plan.contains("measured: "), "{plan}");
    assert!(plan.contains("The first bottleneck"), "{plan}");
    // --check: a workload the default configuration cannot take falls short.
    let (fits, output) = run(
        home.path(),
        &[
            "plan",
            "SQM",
            "--messages-per-second",
            "20000",
            "--persistent",
            "--depth",
            "2000000",
            "--check",
        ],
    );
    assert!(!fits, "{output}");
    assert!(output.contains("!! active log size"), "{output}");
    assert!(output.contains("falls short of the plan"), "{output}");
}
