//! `ferrite put/get/browse` against a running queue manager go through its bindings socket:
//! the same output as in embedded mode, messages that survive a stop/start, and a stale socket
//! left by a killed queue manager that does not prevent the next start.

mod support;

use std::process::Command;

use support::{ferrite_with_input, ok, stop_on_drop};

const Q: &str = "SYSTEM.DEFAULT.LOCAL.QUEUE";

#[test]
fn put_get_browse_while_running_match_embedded_mode() {
    let home = tempfile::tempdir().unwrap();
    let socket = home.path().join("qmgrs/BQM/qm.sock");
    ok(home.path(), &["start", "BQM", "--background"], "");
    let _running = stop_on_drop(home.path(), "BQM");
    assert!(
        socket.exists(),
        "the running queue manager listens on qm.sock"
    );
    // STRSTPEV(ENABLED): the start put a Queue Manager Active event.
    let depth = ok(
        home.path(),
        &["mqsc", "BQM"],
        "DISPLAY QLOCAL(SYSTEM.ADMIN.QMGR.EVENT) CURDEPTH\n",
    );
    assert!(depth.contains("CURDEPTH(1)"), "{depth}");
    let put = ferrite_with_input(
        home.path(),
        &["put", "BQM", Q, "--persistent"],
        "one\ntwo\nthree\n",
    );
    assert!(put.status.success());
    assert_eq!(
        String::from_utf8_lossy(&put.stderr),
        format!("3 messages put to {Q}\n")
    );
    let echoed = ok(
        home.path(),
        &[
            "put",
            "BQM",
            Q,
            "--count",
            "4",
            "--size",
            "70000",
            "--persistent",
            "--syncpoint",
            "2",
            "--echo",
        ],
        "",
    );
    assert_eq!(echoed, "0\n1\n2\n3\n");
    let running = ok(home.path(), &["browse", "BQM", Q], "");
    assert_eq!(running.matches("Message ").count(), 7, "{running}");
    assert!(running.contains("Length 70000"));
    assert_eq!(
        ok(home.path(), &["get", "BQM", Q, "--count", "1"], ""),
        "one\n"
    );
    let missing = ferrite_with_input(home.path(), &["get", "BQM", "NO.SUCH.Q"], "");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("2085"));
    let browse_before_stop = ok(home.path(), &["browse", "BQM", Q], "");
    ok(home.path(), &["stop", "BQM"], "");
    assert!(!socket.exists(), "qm.sock removed at stop");
    // Embedded mode shows exactly what the client showed.
    assert_eq!(
        ok(home.path(), &["browse", "BQM", Q], ""),
        browse_before_stop
    );
    ok(home.path(), &["start", "BQM", "--background"], "");
    assert_eq!(
        ok(home.path(), &["get", "BQM", Q, "--count", "2"], ""),
        "two\nthree\n"
    );
    assert_eq!(ok(home.path(), &["get", "BQM", Q], "").lines().count(), 4);
    let empty = ferrite_with_input(home.path(), &["get", "BQM", Q], "");
    assert!(!empty.status.success());
    assert!(String::from_utf8_lossy(&empty.stderr).contains("2033"));
    ok(home.path(), &["stop", "BQM"], "");
}

#[test]
fn a_stale_socket_from_a_killed_queue_manager_is_replaced() {
    let home = tempfile::tempdir().unwrap();
    let directory = home.path().join("qmgrs/SQM");
    ok(home.path(), &["start", "SQM", "--background"], "");
    let _running = stop_on_drop(home.path(), "SQM");
    ok(home.path(), &["put", "SQM", Q, "--persistent"], "kept\n");
    let pid: i32 = std::fs::read_to_string(directory.join("qm.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let status = Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // Dead once its lock is free (the group leader turns zombie before the other threads
    // have closed their files).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while ok(home.path(), &["status", "SQM"], "").contains("STATUS(Running)") {
        assert!(
            std::time::Instant::now() < deadline,
            "the queue manager did not die"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        directory.join("qm.sock").exists(),
        "a killed queue manager leaves its socket"
    );
    ok(home.path(), &["start", "SQM", "--background"], "");
    assert_eq!(ok(home.path(), &["get", "SQM", Q], ""), "kept\n");
    ok(home.path(), &["stop", "SQM"], "");
}
