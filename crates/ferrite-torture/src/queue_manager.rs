//! A queue manager run as the real `ferrite` binary in a FERRITE_HOME of its own: created
//! with a configuration that makes checkpoints, log switches, archiving and page set
//! expansion happen often, started in the foreground as a child process, killed with SIGKILL
//! or stopped with SIGTERM, and checked with `ferrite pageset verify` and `ferrite log verify`.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_queue_manager::QueueManager;
use ferrite_storage::config::{Expand, QueueManagerConfig};
use ferrite_storage::vfs::RealFileSystem;

/// How long a start may take before the harness gives up on it (a watchdog against a hang,
/// not a timing assertion: restarts take well under a second).
pub const START_WAIT_SECONDS: u64 = 300;
/// How long a clean stop may take.
pub const STOP_WAIT_SECONDS: u64 = 300;
/// Lines of the queue manager's output kept for error reports.
const OUTPUT_LINES_KEPT: usize = 200;

/// The queue manager configuration of the torture: LOGLOAD at its minimum (a checkpoint every
/// 200 log records), three 1 MiB active logs (a log switch and an archive every MiB), buffer
/// pools at MQ's minimum of 100 buffers (deferred writes and page steals), and page sets of
/// 512 pages that expand.
pub fn torture_config(name: &str) -> QueueManagerConfig {
    let mut config = QueueManagerConfig::small(name);
    config.system.logload = 200;
    config.log.outbuff_kib = 400;
    for pool in &mut config.buffer_pools {
        pool.buffers = 100;
    }
    for page_set in &mut config.page_sets {
        page_set.primary_pages = 512;
        page_set.secondary_pages = 512;
        page_set.expand = Expand::User;
    }
    config
}

/// The objects `ferrite create` defines, which a queue manager created from a custom
/// configuration needs too.
const DEFAULT_OBJECTS: &str = "\
DEFINE QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) STGCLASS(SYSTEM) DESCR('Default local queue')
DEFINE QLOCAL(SYSTEM.DEAD.LETTER.QUEUE) STGCLASS(SYSTEM) DESCR('Dead-letter queue')
DEFINE QLOCAL(SYSTEM.COMMAND.INPUT) STGCLASS(SYSTEM) DESCR('Command server input')
DEFINE QLOCAL(SYSTEM.ADMIN.COMMAND.QUEUE) STGCLASS(SYSTEM) DESCR('PCF command input')
DEFINE QLOCAL(SYSTEM.MQSC.REPLY.QUEUE) STGCLASS(SYSTEM) DESCR('Replies to the MQSC console')
";

/// A queue manager's home: the `ferrite` binary, FERRITE_HOME and the queue manager name.
#[derive(Clone, Debug)]
pub struct QueueManagerHome {
    pub ferrite: PathBuf,
    pub home: PathBuf,
    pub name: String,
    /// The TCP listener's port (`ferrite start --port`), for message channels; none: the
    /// bindings socket only.
    pub listener_port: Option<u16>,
}

impl QueueManagerHome {
    pub fn directory(&self) -> PathBuf {
        self.home.join("qmgrs").join(&self.name)
    }

    pub fn socket(&self) -> PathBuf {
        self.directory().join("qm.sock")
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.ferrite);
        command.env("FERRITE_HOME", &self.home);
        command
    }

    /// Create the queue manager with `config`, then define the default objects and
    /// `definitions` (MQSC) with `ferrite mqsc` while it is stopped.
    pub fn create(&self, config: &QueueManagerConfig, definitions: &str) -> Result<(), String> {
        QueueManager::create(
            Arc::new(RealFileSystem),
            &self.directory(),
            config,
            &mut |_, _, _| {},
        )
        .map_err(|error| format!("creating {} failed: {error}", self.name))?;
        self.run(
            &["mqsc", &self.name],
            &format!("{DEFAULT_OBJECTS}{definitions}"),
        )?;
        Ok(())
    }

    /// Run `ferrite <arguments>` with `stdin`; its output, or an error with it.
    pub fn run(&self, arguments: &[&str], stdin: &str) -> Result<String, String> {
        let mut child = self
            .command()
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("cannot run {}: {error}", self.ferrite.display()))?;
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(stdin.as_bytes())
            .map_err(|error| format!("ferrite {arguments:?}: stdin: {error}"))?;
        let output = child
            .wait_with_output()
            .map_err(|error| format!("ferrite {arguments:?}: {error}"))?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        if !output.status.success() {
            return Err(format!(
                "ferrite {} failed ({}):\n{text}",
                arguments.join(" "),
                output.status
            ));
        }
        Ok(text)
    }

    /// `ferrite pageset verify` and `ferrite log verify` (queue manager stopped).
    pub fn verify_storage(&self) -> Result<(), String> {
        self.run(&["pageset", "verify", &self.name], "")?;
        self.run(&["log", "verify", &self.name], "")?;
        Ok(())
    }

    /// Start `ferrite start NAME` in the foreground as a child process.
    pub fn spawn(&self) -> Result<RunningQueueManager, String> {
        let mut command = self.command();
        use std::os::unix::process::CommandExt;
        // SAFETY: in the child before exec: prctl sets its parent-death signal, so that a
        // harness stopped by a signal does not leave its queue manager running; setpgid puts
        // it in a process group of its own, so that Ctrl-C at the harness's terminal reaches
        // the harness (which then finishes cleanly) and not the queue manager.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                libc::setpgid(0, 0);
                Ok(())
            });
        }
        let mut child = command
            .args(["start", &self.name])
            .args(self.listener_port.map(|port| format!("--port={port}")))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("cannot start {}: {error}", self.ferrite.display()))?;
        let output = Arc::new(Mutex::new(VecDeque::new()));
        let checkpoints = Arc::new(AtomicU64::new(0));
        let (ready_sender, ready) = mpsc::channel();
        let mut readers = Vec::new();
        for (stream, is_stdout) in [
            (
                Box::new(child.stdout.take().expect("piped")) as Box<dyn std::io::Read + Send>,
                true,
            ),
            (Box::new(child.stderr.take().expect("piped")), false),
        ] {
            let output = output.clone();
            let checkpoints = checkpoints.clone();
            let ready_sender = ready_sender.clone();
            readers.push(std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if is_stdout && line.contains("CSQY022I") {
                        let _ = ready_sender.send(());
                    }
                    if line.contains("CSQP018I") {
                        checkpoints.fetch_add(1, Ordering::Relaxed);
                    }
                    let mut output = output.lock().expect("output lock");
                    if output.len() == OUTPUT_LINES_KEPT {
                        output.pop_front();
                    }
                    output.push_back(line);
                }
            }));
        }
        Ok(RunningQueueManager {
            child,
            started: Instant::now(),
            ready,
            output,
            checkpoints,
            readers,
        })
    }

    /// Start and wait until it accepts connections; also how long that took.
    pub fn start(&self) -> Result<(RunningQueueManager, Duration), String> {
        let mut running = self.spawn()?;
        let took = running.wait_ready()?;
        Ok((running, took))
    }

    /// Archive log files written so far.
    pub fn archive_count(&self) -> u64 {
        std::fs::read_dir(self.directory().join("archive"))
            .map(|entries| entries.count() as u64)
            .unwrap_or(0)
    }

    /// Pages of all page sets (grows when page sets expand).
    pub fn page_set_bytes(&self) -> u64 {
        std::fs::read_dir(self.directory().join("pagesets"))
            .map(|entries| {
                entries
                    .filter_map(|entry| entry.ok()?.metadata().ok())
                    .map(|metadata| metadata.len())
                    .sum()
            })
            .unwrap_or(0)
    }
}

/// A `ferrite start` child process.
pub struct RunningQueueManager {
    child: Child,
    started: Instant,
    ready: Receiver<()>,
    output: Arc<Mutex<VecDeque<String>>>,
    checkpoints: Arc<AtomicU64>,
    readers: Vec<std::thread::JoinHandle<()>>,
}

impl RunningQueueManager {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The last lines the queue manager printed.
    pub fn output(&self) -> String {
        let output = self.output.lock().expect("output lock");
        output.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    /// Whether the process has ended (by itself: the harness has not killed it yet).
    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Checkpoints it has reported (CSQP018I) so far.
    pub fn checkpoints(&self) -> u64 {
        self.checkpoints.load(Ordering::Relaxed)
    }

    /// Wait for CSQY022I (initialization complete); how long the start took.
    pub fn wait_ready(&mut self) -> Result<Duration, String> {
        let deadline = self.started + Duration::from_secs(START_WAIT_SECONDS);
        loop {
            match self.ready.recv_timeout(Duration::from_millis(100)) {
                Ok(()) => return Ok(self.started.elapsed()),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {}
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                // Give the readers a moment to collect the last lines.
                std::thread::sleep(Duration::from_millis(100));
                return Err(format!(
                    "the queue manager ended during start ({status}); its output:\n{}",
                    self.output()
                ));
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "the queue manager did not finish starting in {START_WAIT_SECONDS} s; its output:\n{}",
                    self.output()
                ));
            }
        }
    }

    /// SIGKILL, and wait for the process to end.
    pub fn kill(mut self) -> Result<(), String> {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: sending a signal to our own child, which has not been waited for.
        if unsafe { libc::kill(pid, libc::SIGKILL) } != 0 {
            return Err(format!(
                "cannot SIGKILL the queue manager (pid {pid}): {}",
                std::io::Error::last_os_error()
            ));
        }
        self.child
            .wait()
            .map_err(|error| format!("waiting for the killed queue manager: {error}"))?;
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
        Ok(())
    }

    /// SIGTERM (`ferrite stop`): a clean shutdown, which must succeed.
    pub fn stop(mut self) -> Result<String, String> {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: sending a signal to our own child, which has not been waited for.
        if unsafe { libc::kill(pid, libc::SIGTERM) } != 0 {
            return Err(format!(
                "cannot SIGTERM the queue manager (pid {pid}): {}",
                std::io::Error::last_os_error()
            ));
        }
        let deadline = Instant::now() + Duration::from_secs(STOP_WAIT_SECONDS);
        let status = loop {
            if let Some(status) = self
                .child
                .try_wait()
                .map_err(|error| format!("waiting for the queue manager: {error}"))?
            {
                break status;
            }
            if Instant::now() > deadline {
                let output = self.output();
                let _ = self.kill();
                return Err(format!(
                    "the queue manager did not stop within {STOP_WAIT_SECONDS} s; its output:\n{output}"
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
        if !status.success() {
            return Err(format!(
                "the queue manager's shutdown failed ({status}); its output:\n{}",
                self.output()
            ));
        }
        Ok(self.output())
    }
}

impl Drop for RunningQueueManager {
    fn drop(&mut self) {
        // A harness that fails part-way never leaves a queue manager running.
        if let Ok(None) = self.child.try_wait() {
            // SAFETY: as in kill().
            unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGKILL) };
            let _ = self.child.wait();
        }
    }
}

/// The `ferrite` binary: `explicit` when given, otherwise the one of this build, which is
/// built (or found up to date) first with the same cargo and profile as this program, so that
/// `cargo run -p ferrite-torture` and `cargo test -p ferrite-torture` never test a stale or
/// missing queue manager. Cargo puts a profile's binaries, and its tests under `deps/`, in
/// one directory per profile.
pub fn locate_ferrite(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(path) = explicit {
        return Ok(path.to_path_buf());
    }
    let exe = std::env::current_exe().map_err(|error| format!("current_exe: {error}"))?;
    let mut profile_directory = exe.parent().map(Path::to_path_buf).unwrap_or_default();
    if profile_directory.ends_with("deps") {
        profile_directory.pop();
    }
    let candidate = profile_directory.join("ferrite");
    let manifest_directory = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let (Some(profile_name), Some(target_directory)) = (
        profile_directory.file_name().and_then(|name| name.to_str()),
        profile_directory.parent(),
    ) {
        if manifest_directory.is_dir() {
            let profile = if profile_name == "debug" {
                "dev"
            } else {
                profile_name
            };
            let status = Command::new(env!("CARGO"))
                .args(["build", "--quiet", "-p", "ferrite", "--profile", profile])
                .env("CARGO_TARGET_DIR", target_directory)
                .current_dir(manifest_directory)
                .status()
                .map_err(|error| format!("cannot run cargo to build ferrite: {error}"))?;
            if !status.success() {
                return Err(format!(
                    "building the ferrite binary failed ({status}); pass --ferrite PATH to use another"
                ));
            }
        }
    }
    if candidate.is_file() {
        Ok(candidate)
    } else {
        Err(format!(
            "no ferrite binary at {}: build it first (cargo build -p ferrite with the same profile) or pass --ferrite PATH",
            candidate.display()
        ))
    }
}
