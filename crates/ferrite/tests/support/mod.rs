//! What the `ferrite` command's tests share beyond `ferrite_test_kit`: the command itself, run
//! with FERRITE_HOME set to a test's own directory.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

#[allow(unused_imports)] // used by some of the test files only
pub use ferrite_test_kit::process::Watched;
use ferrite_test_kit::process::{in_home, run_with_stdin, succeeded, RunOnDrop};

/// The `ferrite` binary this crate built.
pub const FERRITE: &str = env!("CARGO_BIN_EXE_ferrite");

/// A queue manager a test started with `ferrite start --background`: stopped (`ferrite stop`)
/// when the guard drops, so a test that fails half-way leaves no queue manager running. A stop
/// of one already stopped fails harmlessly.
pub fn stop_on_drop(home: &Path, name: &str) -> RunOnDrop {
    let mut stop = in_home(FERRITE, home);
    stop.args(["stop", name]);
    RunOnDrop::new(stop)
}

/// `ferrite` with FERRITE_HOME set to `home` and stdin from /dev/null.
pub fn ferrite(home: &Path) -> Command {
    let mut command = in_home(FERRITE, home);
    command.stdin(Stdio::null());
    command
}

/// Run `ferrite arguments` to its end with `stdin` as its standard input.
pub fn ferrite_with_input(home: &Path, arguments: &[&str], stdin: &str) -> Output {
    let mut command = in_home(FERRITE, home);
    command.args(arguments);
    run_with_stdin(command, stdin)
}

/// The stdout of `ferrite arguments` with `stdin` as its standard input, which must succeed.
pub fn ok(home: &Path, arguments: &[&str], stdin: &str) -> String {
    succeeded(arguments, &ferrite_with_input(home, arguments, stdin))
}

/// Run `ferrite arguments` to its end: whether it succeeded, and its stdout and stderr.
pub fn run(home: &Path, arguments: &[&str]) -> (bool, String) {
    let output = ferrite(home).args(arguments).output().unwrap();
    (
        output.status.success(),
        ferrite_test_kit::process::text(&output),
    )
}

/// `ferrite status NAME`: the STATUS(...) and PID(...) it shows.
pub fn status(home: &Path, name: &str) -> (String, Option<u32>) {
    let (success, output) = run(home, &["status", name]);
    assert!(success, "ferrite status {name} failed: {output}");
    let field = |keyword: &str| {
        let start = output.find(keyword)? + keyword.len();
        Some(output[start..start + output[start..].find(')')?].to_string())
    };
    let state = field("STATUS(").unwrap_or_else(|| panic!("no STATUS in {output}"));
    (state, field("PID(").map(|pid| pid.parse().unwrap()))
}
