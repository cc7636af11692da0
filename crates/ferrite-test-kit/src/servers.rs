//! The servers a queue sharing group's tests need, each started by the test on a free port
//! of 127.0.0.1 in a temporary directory and stopped by its process id when dropped: Redis
//! (Debian's `redis-server`, the coupling facility) and a throw-away PostgreSQL cluster
//! (`initdb` and `postgres` from Debian's `postgresql`, the shared repository). `scripts/test`
//! installs both packages; run elsewhere, a missing one fails the test naming the package.
//!
//! PostgreSQL refuses to run as root: as root, the cluster is made and run as the user
//! `nobody` (through `setpriv`), in a directory given to that user.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use crate::process::{free_port, signal};

/// How long a server may take to say it is ready: a bound on a hang, not a measure of speed.
pub const SERVER_START_SECONDS_MAX: u64 = 120;
/// How long a server may take to stop before it is killed.
pub const SERVER_STOP_SECONDS_MAX: u64 = 30;

/// A server process the test started, with its output lines as they come.
struct ServerProcess {
    name: &'static str,
    child: Option<Child>,
    lines: Receiver<String>,
    /// The signal that stops it cleanly and quickly.
    stop_signal: libc::c_int,
}

impl ServerProcess {
    fn spawn(name: &'static str, mut command: Command, stop_signal: libc::c_int) -> ServerProcess {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {name}: {error}"));
        let (sender, lines) = channel();
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let sender = sender.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        ServerProcess {
            name,
            child: Some(child),
            lines,
            stop_signal,
        }
    }

    /// Wait for a line containing `text`; panics with what it printed otherwise.
    fn wait_for(&mut self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(SERVER_START_SECONDS_MAX);
        let mut seen = Vec::new();
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(remaining) {
                Ok(line) if line.contains(text) => return,
                Ok(line) => seen.push(line),
                Err(_) => panic!("{} never said '{text}'; it printed {seen:#?}", self.name),
            }
        }
    }

    fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// Stop it by its pid: the clean signal, then SIGKILL past the bound.
    fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        if let Ok(None) = child.try_wait() {
            signal(child.id(), self.stop_signal);
            let deadline = Instant::now() + Duration::from_secs(SERVER_STOP_SECONDS_MAX);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
        }
        let _ = child.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The path of `program` on PATH or in `extra` directories; panics naming the Debian
/// package that provides it when absent.
fn program(program: &str, extra: &[PathBuf], package: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(extra.iter().cloned())
        .map(|directory| directory.join(program))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| {
            panic!(
                "{program} is not installed: install Debian's {package} (apt-get install {package}; scripts/test does)"
            )
        })
}

/// A server a test started: where it listens and how to stop it. Stopped by its pid when
/// dropped.
pub struct Server {
    kind: Kind,
    process: ServerProcess,
    port: u16,
    url: String,
    directory: tempfile::TempDir,
}

#[derive(Clone, Copy)]
enum Kind {
    Redis,
    Postgres,
}

/// The user the PostgreSQL cluster's superuser is named as.
pub const POSTGRES_USER: &str = "ferrite";

impl Server {
    /// A Redis server (the coupling facility): no persistence, loopback only.
    pub fn redis() -> Server {
        let directory = tempfile::tempdir().unwrap();
        let port = free_port();
        Server {
            kind: Kind::Redis,
            process: Server::spawn(Kind::Redis, directory.path(), port),
            port,
            url: format!("redis://127.0.0.1:{port}/"),
            directory,
        }
    }

    /// A throw-away PostgreSQL cluster (the shared repository): user `ferrite`, trust
    /// authentication, loopback only; its URL names the `postgres` database.
    pub fn postgres() -> Server {
        let directory = tempfile::tempdir().unwrap();
        let owner = RunAs::for_postgres(directory.path());
        let initdb = program("initdb", &postgres_binaries(), "postgresql");
        let output = owner
            .command(&initdb)
            .arg("-D")
            .arg(directory.path().join("data"))
            .args([
                "-U",
                POSTGRES_USER,
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
            ])
            .output()
            .expect("initdb runs");
        assert!(
            output.status.success(),
            "initdb failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let port = free_port();
        Server {
            kind: Kind::Postgres,
            process: Server::spawn(Kind::Postgres, directory.path(), port),
            port,
            url: format!("postgresql://{POSTGRES_USER}@127.0.0.1:{port}/postgres"),
            directory,
        }
    }

    /// Start the server in `directory` on `port` and wait until it serves.
    fn spawn(kind: Kind, directory: &Path, port: u16) -> ServerProcess {
        let mut process = match kind {
            Kind::Redis => {
                let mut command = Command::new(program("redis-server", &[], "redis-server"));
                command
                    .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                    .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
                    .arg("--dir")
                    .arg(directory);
                ServerProcess::spawn("redis-server", command, libc::SIGTERM)
            }
            Kind::Postgres => {
                let owner = RunAs::for_postgres(directory);
                let postgres = program("postgres", &postgres_binaries(), "postgresql");
                let mut command = owner.command(&postgres);
                command
                    .arg("-D")
                    .arg(directory.join("data"))
                    .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1"])
                    .arg("-c")
                    .arg(format!("unix_socket_directories={}", directory.display()))
                    .args(["-c", "fsync=off"]);
                // SIGINT: PostgreSQL's fast shutdown (SIGTERM's smart one waits for clients).
                ServerProcess::spawn("postgres", command, libc::SIGINT)
            }
        };
        process.wait_for(match kind {
            Kind::Redis => "Ready to accept connections",
            Kind::Postgres => "ready to accept connections",
        });
        process
    }

    /// Start it again after [`Server::stop`], on the same port: Redis empty (it keeps
    /// nothing), PostgreSQL with its databases.
    pub fn restart(&mut self) {
        self.process.stop();
        self.process = Server::spawn(self.kind, self.directory.path(), self.port);
    }

    pub fn url(&self) -> String {
        self.url.clone()
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// Stop it now (a test of a member whose server went away).
    pub fn stop(&mut self) {
        self.process.stop();
    }
}

/// Debian keeps PostgreSQL's server programs in /usr/lib/postgresql/VERSION/bin.
fn postgres_binaries() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path().join("bin"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found.reverse();
    found
}

/// Who runs the cluster: this user, or `nobody` when this is root (PostgreSQL refuses root).
struct RunAs {
    user: Option<(libc::uid_t, libc::gid_t)>,
}

impl RunAs {
    fn for_postgres(directory: &Path) -> RunAs {
        // SAFETY: geteuid has no arguments and touches no memory of ours.
        if unsafe { libc::geteuid() } != 0 {
            return RunAs { user: None };
        }
        let (uid, gid) = nobody();
        let path = std::ffi::CString::new(directory.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: chown(2) reads the NUL-terminated path, which outlives the call.
        let changed = unsafe { libc::chown(path.as_ptr(), uid, gid) };
        assert_eq!(changed, 0, "chown {}", directory.display());
        RunAs {
            user: Some((uid, gid)),
        }
    }

    fn command(&self, program: &Path) -> Command {
        match self.user {
            None => Command::new(program),
            Some((uid, gid)) => {
                let mut command = Command::new("setpriv");
                command
                    .arg(format!("--reuid={uid}"))
                    .arg(format!("--regid={gid}"))
                    .arg("--clear-groups")
                    .arg(program)
                    .current_dir("/");
                command
            }
        }
    }
}

/// The user and group ids of `nobody`.
fn nobody() -> (libc::uid_t, libc::gid_t) {
    let name = std::ffi::CString::new("nobody").unwrap();
    // SAFETY: getpwnam reads the NUL-terminated name; the record it returns is read at once,
    // before any other call could overwrite it.
    let entry = unsafe { libc::getpwnam(name.as_ptr()) };
    assert!(!entry.is_null(), "no user 'nobody' to run PostgreSQL as");
    // SAFETY: non-null, checked above.
    unsafe { ((*entry).pw_uid, (*entry).pw_gid) }
}
