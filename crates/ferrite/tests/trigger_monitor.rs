//! `ferrite trigmon` end to end: a running queue manager writes a trigger message when a
//! message arrives on a triggered queue, and the trigger monitor starts the process's
//! application (a shell script) with the MQTMC2 as its first argument and ENVRDATA after it.
//! An application that fails is logged and the monitor carries on.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use support::{ferrite, ok, stop_on_drop, Watched};

/// `ferrite trigmon QUEUE_MANAGER`, watched; killed when the test ends however it ends.
fn start_trigger_monitor(home: &Path, queue_manager: &str) -> Watched {
    let mut command = ferrite(home);
    command.args(["trigmon", queue_manager]);
    Watched::spawn(command)
}

fn wait_for_file(path: &PathBuf, timeout: Duration) -> Vec<u8> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Ok(bytes) = std::fs::read(path) {
            if !bytes.is_empty() {
                return bytes;
            }
        }
        assert!(
            Instant::now() < deadline,
            "{} was never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn trigmon_starts_the_application_with_the_mqtmc2() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let received = work.path().join("mqtmc2");
    let environment = work.path().join("envrdata");
    let script = work.path().join("triggered.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf '%s' \"$1\" > '{}.tmp'\nmv '{}.tmp' '{}'\nprintf '%s' \"$2 $3\" > '{}'\n",
            received.display(),
            received.display(),
            received.display(),
            environment.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();

    ok(home.path(), &["start", "TQM", "--background"], "");
    let _running = stop_on_drop(home.path(), "TQM");
    let mqsc = format!(
        "DEFINE PROCESS(FAILING.PROC) APPLTYPE(UNIX) APPLICID('{}/does-not-exist')\n\
         DEFINE QLOCAL(FAILING.Q) TRIGGER TRIGTYPE(FIRST) INITQ(SYSTEM.DEFAULT.INITIATION.QUEUE) PROCESS(FAILING.PROC)\n\
         DEFINE PROCESS(APP.PROC) APPLTYPE(UNIX) APPLICID('{}') ENVRDATA('one two') USERDATA('user data')\n\
         DEFINE QLOCAL(APP.Q) TRIGGER TRIGTYPE(FIRST) INITQ(SYSTEM.DEFAULT.INITIATION.QUEUE) PROCESS(APP.PROC) TRIGDATA('trigger data')\n",
        work.path().display(),
        script.display()
    );
    ok(home.path(), &["mqsc", "TQM"], &mqsc);

    let mut monitor = start_trigger_monitor(home.path(), "TQM");
    monitor.wait_for("waiting for trigger messages", 30);

    // An application that cannot be started is logged; the monitor carries on.
    ok(home.path(), &["put", "TQM", "FAILING.Q"], "first\n");
    monitor.wait_for("does-not-exist", 30);
    monitor.wait_for("FAILING.Q ended with", 30);

    ok(home.path(), &["put", "TQM", "APP.Q"], "hello\n");
    let mqtmc2 = wait_for_file(&received, Duration::from_secs(30));
    assert_eq!(mqtmc2.len(), 732, "{}", String::from_utf8_lossy(&mqtmc2));
    let field = |from: usize, to: usize| {
        String::from_utf8_lossy(&mqtmc2[from..to])
            .trim_end()
            .to_string()
    };
    assert_eq!(&mqtmc2[0..8], b"TMC    2");
    assert_eq!(field(8, 56), "APP.Q");
    assert_eq!(field(56, 104), "APP.PROC");
    assert_eq!(field(104, 168), "trigger data");
    assert_eq!(&mqtmc2[168..172], b"   6");
    assert_eq!(field(172, 428), script.display().to_string());
    assert_eq!(field(428, 556), "one two");
    assert_eq!(field(556, 684), "user data");
    assert_eq!(field(684, 732), "TQM");
    // The script writes the ENVRDATA file after the MQTMC2 one: read it once the script ended.
    monitor.wait_for("APP.Q ended normally", 30);
    assert_eq!(
        std::fs::read_to_string(&environment).unwrap(),
        "one two",
        "ENVRDATA follows the MQTMC2 as further arguments"
    );

    // The message is still there for the application; a second one triggers nothing (FIRST).
    std::fs::remove_file(&received).unwrap();
    ok(home.path(), &["put", "TQM", "APP.Q"], "again\n");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !received.exists(),
        "FIRST triggers on empty to non-empty only"
    );

    drop(monitor);
    ok(home.path(), &["stop", "TQM"], "");
}
