//! `ferrite start`, `status` and `stop` with real processes, around a queue manager killed with
//! SIGKILL: `status` names the process that holds the queue manager's lock and what it is doing
//! (Starting while restart is in progress), never the pid a killed instance left in qm.pid;
//! `stop` stops that process whatever it is doing; the commands that connect wait for a
//! queue manager that is starting instead of failing with 2059.
//!
//! Restart is made long enough to watch by its work, not by a pause in the product: the
//! queue manager is killed with many persistent messages in its log since the last
//! checkpoint. To look at a queue manager in the middle of restart without a race, a test
//! freezes it with SIGSTOP while `status` says Starting, and lets it go on with SIGCONT.

mod support;

use std::path::Path;

use support::{ferrite, ferrite_with_input, run, status, stop_on_drop, Watched};

/// Persistent messages in the log when the queue manager is killed: what restart replays.
const RESTART_MESSAGES: u64 = 5_000;
const MESSAGE_BYTES: &str = "1000";
const QUEUE: &str = "RESTART.Q";

/// A bound on how long anything here may hang; never a measure of speed.
const HANG_SECONDS: u64 = 300;

fn ok(home: &Path, arguments: &[&str]) -> String {
    let (success, output) = run(home, arguments);
    assert!(success, "ferrite {arguments:?} failed: {output}");
    output
}

fn ok_with_stdin(home: &Path, arguments: &[&str], stdin: &str) -> String {
    let output = ferrite_with_input(home, arguments, stdin);
    let text = ferrite_test_kit::process::text(&output);
    assert!(
        output.status.success(),
        "ferrite {arguments:?} failed: {text}"
    );
    text
}

/// `ferrite start NAME` in the foreground, stdin from /dev/null, watched until it serves.
fn start_in_foreground(home: &Path, name: &str) -> Watched {
    let mut command = ferrite(home);
    command.args(["start", name, "--port", "0"]);
    Watched::spawn(command)
}

/// The current depth of QUEUE, by MQSC (through the command server while the queue manager
/// runs, in-process while it is stopped).
fn depth(home: &Path, name: &str) -> String {
    let output = ok_with_stdin(
        home,
        &["mqsc", name],
        &format!("DISPLAY QLOCAL({QUEUE}) CURDEPTH\n"),
    );
    let start = output
        .find("CURDEPTH(")
        .unwrap_or_else(|| panic!("no CURDEPTH in {output}"));
    output[start..start + output[start..].find(')').unwrap() + 1].to_string()
}

/// Create `name` with QUEUE, run it in the foreground, put RESTART_MESSAGES persistent
/// messages through its bindings socket and kill it with SIGKILL; its pid.
fn killed_with_a_full_log(home: &Path, name: &str) -> u32 {
    ok(home, &["create", name]);
    ok_with_stdin(
        home,
        &["mqsc", name],
        &format!("DEFINE QLOCAL({QUEUE}) MAXDEPTH(999999999) DEFPSIST(YES)\n"),
    );
    let mut queue_manager = start_in_foreground(home, name);
    queue_manager.wait_for("CSQY022I", HANG_SECONDS);
    ok(
        home,
        &[
            "put",
            name,
            QUEUE,
            "--count",
            &RESTART_MESSAGES.to_string(),
            "--size",
            MESSAGE_BYTES,
            "--persistent",
            "--syncpoint",
            "50",
        ],
    );
    let pid = queue_manager.pid();
    queue_manager.signal(libc::SIGKILL);
    let (success, _) = queue_manager.finish();
    assert!(
        !success,
        "a queue manager killed with SIGKILL does not succeed"
    );
    let (state, shown_pid) = status(home, name);
    assert_eq!(state, "Ended unexpectedly", "after SIGKILL");
    assert_eq!(shown_pid, None, "no live process to show");
    let stale: u32 = std::fs::read_to_string(home.join("qmgrs").join(name).join("qm.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(stale, pid, "the killed instance leaves its qm.pid");
    pid
}

/// Freeze `queue_manager` (SIGSTOP) once it has recorded `state`, as `ferrite status` then
/// shows; it goes on with SIGCONT.
fn freeze_once_recorded(home: &Path, name: &str, queue_manager: &Watched, state: &str) {
    let status_file = home.join("qmgrs").join(name).join("qm.status");
    let recorded = format!("STATUS({state}) PID({})", queue_manager.pid());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(HANG_SECONDS);
    while !std::fs::read_to_string(&status_file).is_ok_and(|text| text.contains(&recorded)) {
        assert!(
            std::time::Instant::now() < deadline,
            "the queue manager never recorded {recorded}"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    queue_manager.signal(libc::SIGSTOP);
    assert_eq!(
        status(home, name),
        (state.to_string(), Some(queue_manager.pid())),
        "restart of {RESTART_MESSAGES} persistent messages completed before the queue manager \
         could be frozen in it; raise RESTART_MESSAGES"
    );
}

/// Start `name` again in the foreground and freeze it while restart is in progress (qm.status
/// is the first thing a new instance writes, before restart begins).
fn frozen_in_restart(home: &Path, name: &str) -> Watched {
    let queue_manager = start_in_foreground(home, name);
    freeze_once_recorded(home, name, &queue_manager, "Starting");
    queue_manager
}

#[test]
fn status_mqsc_and_stop_at_once_after_a_restart_from_sigkill() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let killed = killed_with_a_full_log(home, "RESTARTQM");
    let _stop = stop_on_drop(home, "RESTARTQM");
    let queue_manager = start_in_foreground(home, "RESTARTQM");
    let pid = queue_manager.pid();
    // At once, whatever restart has reached: the new instance, never the killed one (and
    // nothing, if asked before the new instance has taken the lock).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(HANG_SECONDS);
    loop {
        let (state, shown_pid) = status(home, "RESTARTQM");
        assert_ne!(shown_pid, Some(killed), "status shows the killed instance");
        match state.as_str() {
            "Starting" | "Running" => {
                assert_eq!(shown_pid, Some(pid), "status shows the live instance");
                break;
            }
            "Ended unexpectedly" => assert_eq!(shown_pid, None),
            _ => panic!("STATUS({state}) during restart"),
        }
        assert!(
            std::time::Instant::now() < deadline,
            "it never took the lock"
        );
    }
    assert_eq!(
        depth(home, "RESTARTQM"),
        format!("CURDEPTH({RESTART_MESSAGES})")
    );
    assert_eq!(
        status(home, "RESTARTQM"),
        ("Running".to_string(), Some(pid))
    );
    let stopped = ok(home, &["stop", "RESTARTQM"]);
    assert!(stopped.contains(&format!("(pid {pid})")), "{stopped}");
    assert!(stopped.contains("ended normally"), "{stopped}");
    let (success, output) = queue_manager.finish();
    assert!(
        success,
        "the restarted queue manager ends cleanly: {output}"
    );
    assert!(output.contains("CSQY009I"), "{output}");
    assert_eq!(
        status(home, "RESTARTQM"),
        ("Ended normally".to_string(), None)
    );
    let (success, output) = run(home, &["stop", "RESTARTQM"]);
    assert!(!success && output.contains("is not running"), "{output}");
}

#[test]
fn commands_that_connect_wait_for_restart_to_complete() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    killed_with_a_full_log(home, "WAITQM");
    let _stop = stop_on_drop(home, "WAITQM");
    let queue_manager = frozen_in_restart(home, "WAITQM");
    let mut command = ferrite(home);
    command
        .args(["mqsc", "WAITQM", "-f"])
        .arg(write_mqsc(home, "DISPLAY QLOCAL(RESTART.Q) CURDEPTH\n"));
    let mut mqsc = Watched::spawn(command);
    mqsc.wait_for("is starting (restart in progress); waiting", HANG_SECONDS);
    queue_manager.signal(libc::SIGCONT);
    let (success, output) = mqsc.finish();
    assert!(success, "{output}");
    assert!(
        output.contains(&format!("CURDEPTH({RESTART_MESSAGES})")),
        "{output}"
    );
    assert!(!output.contains("2059"), "{output}");
    ok(home, &["stop", "WAITQM"]);
    let (success, output) = queue_manager.finish();
    assert!(success, "{output}");
}

/// An MQSC file in `home` (mqsc's stdin is /dev/null here).
fn write_mqsc(home: &Path, text: &str) -> std::path::PathBuf {
    let path = home.join("commands.mqsc");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn stop_during_restart_ends_the_queue_manager_once_restart_completes() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    killed_with_a_full_log(home, "STOPQM");
    let _stop = stop_on_drop(home, "STOPQM");
    let queue_manager = frozen_in_restart(home, "STOPQM");
    let pid = queue_manager.pid();
    let mut command = ferrite(home);
    command.args(["stop", "STOPQM"]);
    let mut stop = Watched::spawn(command);
    stop.wait_for(
        &format!("STOPQM (pid {pid}) is starting (restart in progress)"),
        HANG_SECONDS,
    );
    // The stop is accepted at once (Ending), while restart goes on.
    queue_manager.signal(libc::SIGCONT);
    freeze_once_recorded(home, "STOPQM", &queue_manager, "Ending");
    let commands = write_mqsc(home, "DISPLAY QMGR\n");
    let (success, output) = run(home, &["mqsc", "STOPQM", "-f", commands.to_str().unwrap()]);
    assert!(!success, "{output}");
    assert!(output.contains("is ending"), "{output}");
    assert!(output.contains("2162"), "{output}");
    let mut command = ferrite(home);
    command.args(["stop", "STOPQM"]);
    let mut second_stop = Watched::spawn(command);
    second_stop.wait_for(
        &format!("STOPQM (pid {pid}) is already ending"),
        HANG_SECONDS,
    );
    queue_manager.signal(libc::SIGCONT);
    for stop in [stop, second_stop] {
        let (success, output) = stop.finish();
        assert!(success, "{output}");
        assert!(output.contains("ended normally"), "{output}");
    }
    let (success, output) = queue_manager.finish();
    assert!(success, "{output}");
    assert!(output.contains("CSQY009I"), "{output}");
    assert!(
        output.contains("CSQR002I"),
        "restart completed first: {output}"
    );
    assert!(!output.contains("CSQY022I"), "it never served: {output}");
    assert_eq!(status(home, "STOPQM"), ("Ended normally".to_string(), None));
    // Nothing was lost: restart completed before the clean shutdown.
    assert_eq!(
        depth(home, "STOPQM"),
        format!("CURDEPTH({RESTART_MESSAGES})")
    );
}

/// A process of the test's own that a stale qm.pid or qm.status names.
struct Bystander(std::process::Child);

impl Bystander {
    fn start() -> Bystander {
        Bystander(
            std::process::Command::new("sleep")
                .arg(HANG_SECONDS.to_string())
                .spawn()
                .unwrap(),
        )
    }

    fn assert_alive(&mut self) {
        assert!(
            self.0.try_wait().unwrap().is_none(),
            "a process named by a stale pid file was signalled"
        );
    }
}

impl Drop for Bystander {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn stale_pid_and_status_files_are_never_trusted() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let directory = home.join("qmgrs").join("STALEQM");
    let mut bystander = Bystander::start();
    let stranger = bystander.0.id();
    ok(home, &["start", "STALEQM", "--background", "--port", "0"]);
    let _stop = stop_on_drop(home, "STALEQM");
    let (state, Some(pid)) = status(home, "STALEQM") else {
        panic!("a running queue manager shows its pid");
    };
    assert_eq!(state, "Running");
    // Files that name another process, as a killed instance's would.
    std::fs::write(directory.join("qm.pid"), format!("{stranger}\n")).unwrap();
    std::fs::write(
        directory.join("qm.status"),
        format!("STATUS(Running) PID({stranger})\n"),
    )
    .unwrap();
    // The lock's holder is asked, not the files: the holder has not recorded its state.
    assert_eq!(status(home, "STALEQM"), ("Starting".to_string(), Some(pid)));
    let stopped = ok(home, &["stop", "STALEQM"]);
    assert!(stopped.contains(&format!("(pid {pid})")), "{stopped}");
    bystander.assert_alive();
    assert_eq!(
        status(home, "STALEQM"),
        ("Ended normally".to_string(), None)
    );
    // Stopped, with files that say it runs as the bystander.
    std::fs::write(directory.join("qm.pid"), format!("{stranger}\n")).unwrap();
    std::fs::write(
        directory.join("qm.status"),
        format!("STATUS(Running) PID({stranger})\n"),
    )
    .unwrap();
    assert_eq!(
        status(home, "STALEQM"),
        ("Ended unexpectedly".to_string(), None)
    );
    let (success, output) = run(home, &["stop", "STALEQM"]);
    assert!(!success, "{output}");
    assert!(output.contains("is not running"), "{output}");
    bystander.assert_alive();
    // A damaged status file is not believed either.
    std::fs::write(directory.join("qm.status"), "STATUS(Runn").unwrap();
    assert_eq!(
        status(home, "STALEQM"),
        ("Ended unexpectedly".to_string(), None)
    );
    // The next start replaces both files with its own.
    ok(home, &["start", "STALEQM", "--background", "--port", "0"]);
    let (state, Some(pid)) = status(home, "STALEQM") else {
        panic!("a running queue manager shows its pid");
    };
    assert_eq!(state, "Running");
    assert_eq!(
        std::fs::read_to_string(directory.join("qm.pid")).unwrap(),
        format!("{pid}\n")
    );
    ok(home, &["stop", "STALEQM"]);
    bystander.assert_alive();
    let (success, output) = run(home, &["stop", "NOSUCHQM"]);
    assert!(!success && output.contains("does not exist"), "{output}");
}

#[test]
fn background_start_sigkill_and_start_again() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    ok(home, &["start", "BACKQM", "--background", "--port", "0"]);
    let _stop = stop_on_drop(home, "BACKQM");
    let (state, Some(killed)) = status(home, "BACKQM") else {
        panic!("a running queue manager shows its pid");
    };
    assert_eq!(state, "Running");
    ok_with_stdin(
        home,
        &[
            "put",
            "BACKQM",
            "SYSTEM.DEFAULT.LOCAL.QUEUE",
            "--persistent",
        ],
        "kept\n",
    );
    // SAFETY: SIGKILL to the queue manager this test started.
    assert_eq!(
        unsafe { libc::kill(killed as libc::pid_t, libc::SIGKILL) },
        0
    );
    // Its lock goes once the kernel has closed all its files.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(HANG_SECONDS);
    while status(home, "BACKQM").0 == "Running" {
        assert!(std::time::Instant::now() < deadline, "it did not die");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(
        status(home, "BACKQM"),
        ("Ended unexpectedly".to_string(), None)
    );
    ok(home, &["start", "BACKQM", "--background", "--port", "0"]);
    let (state, Some(pid)) = status(home, "BACKQM") else {
        panic!("a running queue manager shows its pid");
    };
    assert_eq!(state, "Running");
    assert_ne!(pid, killed);
    let (success, output) = run(home, &["pageset", "verify", "BACKQM"]);
    assert!(!success, "{output}");
    assert!(
        output.contains(&format!(
            "is running: STATUS(Running) PID({pid}); stop it first"
        )),
        "{output}"
    );
    assert_eq!(
        ok(home, &["get", "BACKQM", "SYSTEM.DEFAULT.LOCAL.QUEUE"]).trim(),
        "kept"
    );
    let stopped = ok(home, &["stop", "BACKQM"]);
    assert!(stopped.contains(&format!("(pid {pid})")), "{stopped}");
    assert_eq!(status(home, "BACKQM"), ("Ended normally".to_string(), None));
}

#[test]
fn foreground_with_stdin_closed() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let mut command = ferrite(home);
    command.args(["start", "CLOSEDQM", "--port", "0"]);
    use std::os::unix::process::CommandExt;
    // SAFETY: close(2) in the child before exec; no allocation.
    unsafe {
        command.pre_exec(|| {
            libc::close(0);
            Ok(())
        });
    }
    let mut queue_manager = Watched::spawn(command);
    let _stop = stop_on_drop(home, "CLOSEDQM");
    queue_manager.wait_for("CSQY022I", HANG_SECONDS);
    assert_eq!(
        status(home, "CLOSEDQM"),
        ("Running".to_string(), Some(queue_manager.pid()))
    );
    ok_with_stdin(
        home,
        &["put", "CLOSEDQM", "SYSTEM.DEFAULT.LOCAL.QUEUE"],
        "through the socket\n",
    );
    assert_eq!(
        ok(home, &["get", "CLOSEDQM", "SYSTEM.DEFAULT.LOCAL.QUEUE"]).trim(),
        "through the socket"
    );
    ok(home, &["stop", "CLOSEDQM"]);
    let (success, output) = queue_manager.finish();
    assert!(success, "{output}");
    assert_eq!(
        status(home, "CLOSEDQM"),
        ("Ended normally".to_string(), None)
    );
}

#[test]
fn a_command_with_the_stopped_queue_manager_open_is_not_stopped() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    ok(home, &["create", "OPENQM"]);
    // An in-process get that waits holds the queue manager open.
    let mut command = ferrite(home);
    command.args([
        "get",
        "OPENQM",
        "SYSTEM.DEFAULT.LOCAL.QUEUE",
        "--wait",
        &(HANG_SECONDS * 1000).to_string(),
    ]);
    let get = Watched::spawn(command);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(HANG_SECONDS);
    while status(home, "OPENQM").0 != "In use by a command" {
        assert!(std::time::Instant::now() < deadline, "get never opened it");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(status(home, "OPENQM").1, Some(get.pid()));
    let (success, output) = run(home, &["stop", "OPENQM"]);
    assert!(!success, "{output}");
    assert!(output.contains("is not running"), "{output}");
    let _stop = stop_on_drop(home, "OPENQM");
    let (success, output) = run(home, &["start", "OPENQM", "--background", "--port", "0"]);
    assert!(!success, "{output}");
    assert!(output.contains("in use by a command"), "{output}");
    // A utility that needs the page sets to itself says who has them.
    let (success, output) = run(home, &["pageset", "verify", "OPENQM"]);
    assert!(!success, "{output}");
    assert!(output.contains("in use by a command"), "{output}");
    assert!(output.contains(&format!("pid {}", get.pid())), "{output}");
    drop(get);
    assert_eq!(status(home, "OPENQM"), ("Ended normally".to_string(), None));
}
