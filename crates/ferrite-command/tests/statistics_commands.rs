//! The statistics commands: SET SYSTEM STATIME and DISPLAY SYSTEM's STATIME, and RESET QMGR
//! TYPE(STATISTICS) closing the interval on demand with its records written to the
//! statistics file.

use ferrite_command::run_command;
use ferrite_queue_manager::statistics::STATISTICS_FILE;
use ferrite_test_kit::{put_messages_with, queue_manager};

#[test]
fn statime_is_set_and_displayed() {
    let (_directory, queue_manager) = queue_manager(&[]);
    assert_eq!(
        queue_manager.statistics_interval_minutes(),
        30,
        "MQ's default"
    );
    let response = run_command(&queue_manager, "SET SYSTEM STATIME(0)");
    assert!(response.success, "{}", response.text());
    assert_eq!(queue_manager.statistics_interval_minutes(), 0);
    let display = run_command(&queue_manager, "DISPLAY SYSTEM").text();
    assert!(
        display
            .lines()
            .any(|line| line.split_whitespace().collect::<Vec<_>>() == ["STATIME", "0"]),
        "{display}"
    );
    let refused = run_command(&queue_manager, "SET SYSTEM STATIME(1441)");
    assert!(!refused.success);
    assert!(refused.text().contains("CSQ9004E"), "{}", refused.text());
    assert_eq!(queue_manager.statistics_interval_minutes(), 0, "unchanged");
}

#[test]
fn reset_qmgr_type_statistics_writes_the_interval() {
    let (directory, queue_manager) = queue_manager(&["Q1"]);
    put_messages_with(&queue_manager, "Q1", 7, true, |_| vec![b'x'; 100]);
    let response = run_command(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    assert!(response.success, "{}", response.text());
    assert!(response.text().contains("CSQW132I"), "{}", response.text());
    let text = std::fs::read_to_string(directory.path().join(STATISTICS_FILE)).unwrap();
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let qmst = records.iter().find(|r| r["Record"] == "QMST").unwrap();
    assert_eq!(qmst["PersPuts"], 7);
    assert_eq!(qmst["PersPutBytes"], 700);
    // A second interval holds only what happened since.
    run_command(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    let text = std::fs::read_to_string(directory.path().join(STATISTICS_FILE)).unwrap();
    let last_qmst: serde_json::Value = text
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .rfind(|r| r["Record"] == "QMST")
        .unwrap();
    assert_eq!(last_qmst["PersPuts"], 0);
    assert_eq!(last_qmst["Interval_Start_ms"], qmst["Interval_End_ms"]);
}
