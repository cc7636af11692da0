//! What the `ferrite` command's tests share.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A queue manager a test started with `ferrite start --background`: stopped (`ferrite stop`)
/// when the guard drops, so a test that fails half-way leaves no queue manager running. A stop
/// of one already stopped fails harmlessly.
pub struct StopOnDrop {
    home: PathBuf,
    name: &'static str,
}

impl StopOnDrop {
    pub fn new(home: &Path, name: &'static str) -> StopOnDrop {
        StopOnDrop {
            home: home.to_path_buf(),
            name,
        }
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let _ = Command::new(env!("CARGO_BIN_EXE_ferrite"))
            .env("FERRITE_HOME", &self.home)
            .args(["stop", self.name])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// `ferrite` with FERRITE_HOME set to `home` and stdin from /dev/null.
#[allow(dead_code)]
pub fn ferrite(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ferrite"));
    command.env("FERRITE_HOME", home).stdin(Stdio::null());
    command
}

/// Run `ferrite arguments` to its end: whether it succeeded, and its stdout and stderr.
#[allow(dead_code)]
pub fn run(home: &Path, arguments: &[&str]) -> (bool, String) {
    let output = ferrite(home).args(arguments).output().unwrap();
    (
        output.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

/// `ferrite status NAME`: the STATUS(...) and PID(...) it shows.
#[allow(dead_code)]
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

/// A `ferrite` process a test watches as it runs: its stdout and stderr lines, as they come.
/// Killed (SIGCONT first, in case the test froze it) if the test ends while it runs.
#[allow(dead_code)]
pub struct Watched {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

#[allow(dead_code)]
impl Watched {
    /// Start `command` with its stdout and stderr piped to the test.
    pub fn spawn(mut command: Command) -> Watched {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (sender, lines) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let forward = |stream: Box<dyn std::io::Read + Send>,
                       sender: std::sync::mpsc::Sender<String>| {
            std::thread::spawn(move || {
                use std::io::BufRead;
                for line in std::io::BufReader::new(stream)
                    .lines()
                    .map_while(Result::ok)
                {
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            });
        };
        forward(Box::new(stdout), sender.clone());
        forward(Box::new(stderr), sender);
        Watched {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Send `signal` to the process.
    pub fn signal(&self, signal: libc::c_int) {
        // SAFETY: signalling our own child, which has not been reaped while `self` lives.
        assert_eq!(
            unsafe { libc::kill(self.child.id() as libc::pid_t, signal) },
            0
        );
    }

    /// Wait until a line contains `text`; panics, with what it printed, if the process ends
    /// first or after `timeout_seconds` (a bound on a hang, not a measure of speed).
    pub fn wait_for(&mut self, text: &str, timeout_seconds: u64) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(timeout_seconds);
        loop {
            let remaining = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(remaining) {
                Ok(line) => {
                    let found = line.contains(text);
                    self.seen.push(line);
                    if found {
                        return;
                    }
                }
                Err(_) => panic!("never printed '{text}'; printed {:#?}", self.seen),
            }
        }
    }

    /// Wait for the process to end: whether it succeeded, and everything it printed.
    pub fn finish(mut self) -> (bool, String) {
        let status = self.child.wait().unwrap();
        // Its output ends when it does (and the reader threads with it).
        while let Ok(line) = self.lines.recv() {
            self.seen.push(line);
        }
        (status.success(), self.seen.join("\n"))
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // SAFETY: signalling our own child, not yet reaped.
            unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGCONT) };
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
