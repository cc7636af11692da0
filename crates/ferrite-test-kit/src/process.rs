//! Programs the tests run: the `ferrite` command to its end with its output checked, a
//! long-running child watched line by line, a child stopped by its process id when a test
//! ends however it ends, and free ports on 127.0.0.1 for servers the tests start.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `program` with FERRITE_HOME set to `home` (the `ferrite` command's home directory).
pub fn in_home(program: &str, home: &Path) -> Command {
    let mut command = Command::new(program);
    command.env("FERRITE_HOME", home);
    command
}

/// Run `command` to its end with `stdin` as its standard input: its status and output.
pub fn run_with_stdin(mut command: Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    // A program may end without reading its input (a refused argument): its closed pipe is
    // no failure of the test's.
    if let Err(error) = written {
        assert_eq!(
            error.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing the standard input: {error}"
        );
    }
    child.wait_with_output().unwrap()
}

/// Everything `output` printed: its stdout, then its stderr.
pub fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The stdout of `ferrite arguments`, which must have succeeded (else a panic with all it
/// printed).
pub fn succeeded(arguments: &[&str], output: &Output) -> String {
    assert!(
        output.status.success(),
        "ferrite {arguments:?} failed: {}",
        text(output)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A port on 127.0.0.1 that nothing listened on when asked (the system's choice of a free
/// one); for a program that takes its port as an argument, not for a server in the test's own
/// process (which binds port 0 and asks its listener which port it got).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Send `signal` to process `pid`; whether it was sent.
pub fn signal(pid: u32, signal: libc::c_int) -> bool {
    // SAFETY: kill(2) with a process id and a signal number touches no memory of ours.
    unsafe { libc::kill(pid as libc::pid_t, signal) == 0 }
}

/// A command run when the guard drops (a `ferrite stop`, say), so that a test that fails
/// half-way leaves nothing running; its failure (the thing already stopped) is harmless.
pub struct RunOnDrop(Command);

impl RunOnDrop {
    pub fn new(command: Command) -> RunOnDrop {
        RunOnDrop(command)
    }
}

impl Drop for RunOnDrop {
    fn drop(&mut self) {
        let _ = self
            .0
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// A child a test watches as it runs: its stdout and stderr lines, as they come. Killed
/// (SIGCONT first, in case the test froze it) if the test ends while it runs.
pub struct Watched {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

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
        // The child has not been reaped while `self` lives: its pid is still its own.
        assert!(self::signal(self.child.id(), signal));
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
            // Not yet reaped: the pid is still the child's.
            signal(self.child.id(), libc::SIGCONT);
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
