//! `ferrite auth` (setmqaut, dspmqaut, dmpmqaut for scripts): authorities granted, shown,
//! revoked, listed and deleted on a running queue manager (through its command server) and
//! on a stopped one (in the command's own process); wrong requests fail with a message and a
//! non-zero exit status.

mod support;

use std::path::Path;
use std::process::Output;

use ferrite_test_kit::process::{in_home, run_with_stdin, succeeded, text};
use support::{stop_on_drop, FERRITE};

fn ferrite(home: &Path, arguments: &[&str]) -> Output {
    let mut command = in_home(FERRITE, home);
    command.env_remove("MQSERVER").args(arguments);
    run_with_stdin(command, "")
}

fn ok(home: &Path, arguments: &[&str]) -> String {
    succeeded(arguments, &ferrite(home, arguments))
}

fn fails(home: &Path, arguments: &[&str], hint: &str) {
    let output = ferrite(home, arguments);
    let said = text(&output);
    assert!(!output.status.success(), "ferrite {arguments:?}: {said}");
    assert!(said.contains(hint), "ferrite {arguments:?}: {said}");
}

#[test]
fn setmqaut_dspmqaut_and_dmpmqaut_for_scripts() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    ok(home, &["start", "AQM", "--background"]);
    let running = stop_on_drop(home, "AQM");
    let app = ["-t", "queue", "-n", "APP.**", "-p", "app"];
    let set = |extra: &[&str]| {
        let mut arguments = vec!["auth", "set", "AQM"];
        arguments.extend(app);
        arguments.extend(extra);
        ok(home, &arguments);
    };
    let show = || {
        ok(
            home,
            &[
                "auth",
                "show",
                "AQM",
                "-t",
                "queue",
                "-n",
                "APP.ORDERS",
                "-p",
                "app",
            ],
        )
    };
    set(&["--add", "put,get,browse"]);
    assert!(show().contains("AUTHLIST(BROWSE,GET,PUT)"), "{}", show());
    set(&["--remove", "get"]);
    assert!(show().contains("AUTHLIST(BROWSE,PUT)"), "{}", show());
    ok(
        home,
        &[
            "auth",
            "set",
            "AQM",
            "-t",
            "qmgr",
            "-g",
            "apps",
            "--add",
            "connect,inq",
        ],
    );

    fails(
        home,
        &[
            "auth", "set", "AQM", "-t", "queue", "-n", "APP.**", "-p", "app", "--add", "connect",
        ],
        "does not apply to OBJTYPE(QUEUE)",
    );
    fails(
        home,
        &["auth", "show", "AQM", "-t", "queue", "-n", "APP.Q"],
        "-p",
    );
    fails(
        home,
        &[
            "auth", "set", "AQM", "-t", "queue", "-n", "APP.**", "-p", "app",
        ],
        "--add or --remove",
    );

    // Stopped: the records were kept, and the command opens the queue manager itself.
    drop(running);
    let listed = ok(home, &["auth", "list", "AQM", "-p", "app"]);
    assert!(listed.contains("PROFILE(APP.**)"), "{listed}");
    assert!(listed.contains("AUTHLIST(BROWSE,PUT)"), "{listed}");
    let group = ok(home, &["auth", "list", "AQM", "-t", "qmgr"]);
    assert!(group.contains("ENTITY(apps)"), "{group}");
    assert!(group.contains("AUTHLIST(CONNECT,INQ)"), "{group}");
    let mut delete = vec!["auth", "delete", "AQM"];
    delete.extend(app);
    ok(home, &delete);
    assert!(ok(home, &["auth", "list", "AQM", "-p", "app"]).contains("NO AUTHREC FOUND"));
    fails(home, &delete, "MQRC_UNKNOWN_OBJECT_NAME");
}
