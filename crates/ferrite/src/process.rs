//! Running a queue manager as a process: where it lives, the lock that says who has it open,
//! the state it records for `ferrite status` (Starting, Running, Ending, Ended normally),
//! foreground and background start, and stop.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_queue_manager::QueueManager;
use ferrite_storage::vfs::RealFileSystem;

/// How long `ferrite stop` and `ferrite start --background` wait for the queue manager.
pub const STOP_WAIT_SECONDS: u64 = 120;
pub const START_WAIT_SECONDS: u64 = 300;

/// `$FERRITE_HOME` (default `~/.ferrite`).
pub fn home() -> Result<PathBuf, String> {
    if let Some(home) = std::env::var_os("FERRITE_HOME") {
        return Ok(PathBuf::from(home));
    }
    let user_home =
        std::env::var_os("HOME").ok_or("ferrite: neither FERRITE_HOME nor HOME is set")?;
    Ok(PathBuf::from(user_home).join(".ferrite"))
}

pub fn queue_manager_directory(name: &str) -> Result<PathBuf, String> {
    if name.is_empty()
        || name.len() > 48
        || !name
            .chars()
            .all(ferrite_storage::config::is_object_name_char)
    {
        return Err(format!(
            "ferrite: '{name}' is not a valid queue manager name (1-48 of A-Z a-z 0-9 . / _ %) [reason 2058 MQRC_Q_MGR_NAME_ERROR]"
        ));
    }
    Ok(home()?.join("qmgrs").join(name.replace('/', "&")))
}

/// The lock on `qm.lock` that says who has the queue manager open: a POSIX write lock (fcntl
/// F_SETLK), released by the kernel when its process ends, however it ends.
///
/// Byte 0 is the queue manager itself: whoever has it open (a running queue manager, or a
/// command that opened a stopped one in its own process) holds a lock on it, so at most one
/// process does. A running queue manager (`ferrite start`) locks bytes 0 and 1 in the same
/// call, so its lock says what it is the moment it is taken.
///
/// Record locks rather than flock(2) because any process can ask the kernel who holds one
/// (F_GETLK answers with the holder's pid and range) without taking it: `ferrite status`, `stop`
/// and the commands that connect never disturb a queue manager that is starting, and never
/// trust a pid file left by a killed instance. Their price: closing *any* descriptor of
/// `qm.lock` in the holding process drops its lock, so this process never opens `qm.lock`
/// again while it holds it ([`HELD_HERE`]).
pub struct QueueManagerLock {
    _file: File,
    identity: FileIdentity,
}

/// Who holds a queue manager's lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockHolder {
    /// The holder's process id; 0 when it runs in another pid namespace.
    pub pid: u32,
    /// A running queue manager (`ferrite start`); otherwise a command that opened the stopped
    /// queue manager in its own process (put, get, mqsc, the utilities).
    pub queue_manager: bool,
}

/// (device, inode) of a `qm.lock` file.
type FileIdentity = (u64, u64);

/// The `qm.lock` files this process holds (and whether to run the queue manager), so that it
/// never opens one of them again.
static HELD_HERE: Mutex<Vec<(FileIdentity, bool)>> = Mutex::new(Vec::new());

/// Bytes of `qm.lock` locked by whoever has the queue manager open, and by a running one.
const LOCK_BYTES_OPEN: libc::off_t = 1;
const LOCK_BYTES_RUNNING: libc::off_t = 2;

fn identity_of(path: &Path) -> std::io::Result<FileIdentity> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(path)?;
    Ok((metadata.dev(), metadata.ino()))
}

fn held_here() -> std::sync::MutexGuard<'static, Vec<(FileIdentity, bool)>> {
    HELD_HERE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `Some(to run it)` when this process holds the lock of `path`.
fn held_here_to_run(path: &Path) -> Option<bool> {
    let identity = identity_of(path).ok()?;
    held_here()
        .iter()
        .find(|(held, _)| *held == identity)
        .map(|(_, to_run)| *to_run)
}

/// A write lock on the first `length` bytes of a file, for F_SETLK and F_GETLK.
fn write_lock(length: libc::off_t) -> libc::flock {
    // SAFETY: libc::flock is plain data, for which all zeroes is a valid value.
    let mut lock: libc::flock = unsafe { std::mem::zeroed() };
    lock.l_type = libc::F_WRLCK as _;
    lock.l_whence = libc::SEEK_SET as _;
    lock.l_start = 0;
    lock.l_len = length;
    lock
}

impl QueueManagerLock {
    /// Take the lock to open a stopped queue manager in this process; `WouldBlock` when
    /// another process (or this one) has it open.
    pub fn acquire(directory: &Path) -> std::io::Result<QueueManagerLock> {
        QueueManagerLock::lock(directory, LOCK_BYTES_OPEN)
    }

    /// Take the lock to run the queue manager (`ferrite start`).
    pub fn acquire_to_run(directory: &Path) -> std::io::Result<QueueManagerLock> {
        QueueManagerLock::lock(directory, LOCK_BYTES_RUNNING)
    }

    fn lock(directory: &Path, length: libc::off_t) -> std::io::Result<QueueManagerLock> {
        std::fs::create_dir_all(directory)?;
        let path = directory.join("qm.lock");
        // Checked before opening: closing a second descriptor would drop the lock we hold.
        if held_here_to_run(&path).is_some() {
            return Err(std::io::Error::from(std::io::ErrorKind::WouldBlock));
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)?;
        let lock = write_lock(length);
        // SAFETY: fcntl on a descriptor we own, with a valid struct flock.
        if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLK, &lock) } != 0 {
            let error = std::io::Error::last_os_error();
            return Err(match error.raw_os_error() {
                Some(libc::EAGAIN) | Some(libc::EACCES) => {
                    std::io::Error::from(std::io::ErrorKind::WouldBlock)
                }
                _ => error,
            });
        }
        let identity = identity_of(&path)?;
        held_here().push((identity, length == LOCK_BYTES_RUNNING));
        Ok(QueueManagerLock {
            _file: file,
            identity,
        })
    }

    /// Who holds the lock, or `None` when no process has the queue manager open: the kernel's
    /// answer, not a file's.
    pub fn holder(directory: &Path) -> std::io::Result<Option<LockHolder>> {
        let path = directory.join("qm.lock");
        if let Some(to_run) = held_here_to_run(&path) {
            return Ok(Some(LockHolder {
                pid: std::process::id(),
                queue_manager: to_run,
            }));
        }
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error),
        };
        let mut lock = write_lock(LOCK_BYTES_OPEN);
        // SAFETY: fcntl on a descriptor we own, with a valid struct flock.
        if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETLK, &mut lock) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if lock.l_type == libc::F_UNLCK as libc::c_short {
            return Ok(None);
        }
        // F_GETLK describes the lock in the way: a running queue manager's covers byte 1.
        let end = lock.l_start + lock.l_len;
        Ok(Some(LockHolder {
            pid: lock.l_pid.max(0) as u32,
            queue_manager: lock.l_len == 0 || end >= LOCK_BYTES_RUNNING,
        }))
    }

    /// Whether some process has the queue manager open (or whether that cannot be told).
    pub fn is_held(directory: &Path) -> bool {
        !matches!(QueueManagerLock::holder(directory), Ok(None))
    }
}

impl Drop for QueueManagerLock {
    fn drop(&mut self) {
        // The kernel releases the lock when the descriptor closes, just after this.
        let mut held = held_here();
        if let Some(position) = held.iter().position(|(held, _)| *held == self.identity) {
            held.swap_remove(position);
        }
    }
}

/// What a queue manager is doing, in dspmq's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum QueueManagerState {
    /// Restart in progress: the lock is taken, the queue manager does not serve yet.
    Starting,
    /// Serving: bindings socket, command server and channel initiator started.
    Running,
    /// A stop was accepted; it ends once restart (if in progress) and shutdown are done.
    Ending,
    /// Shut down cleanly (or never started).
    EndedNormally,
    /// Ended without a clean shutdown: killed, crashed, or its start failed.
    EndedUnexpectedly,
    /// Not running: a command (put, get, mqsc, a utility) has it open in its own process.
    InUseByCommand,
}

impl QueueManagerState {
    pub fn text(self) -> &'static str {
        match self {
            QueueManagerState::Starting => "Starting",
            QueueManagerState::Running => "Running",
            QueueManagerState::Ending => "Ending",
            QueueManagerState::EndedNormally => "Ended normally",
            QueueManagerState::EndedUnexpectedly => "Ended unexpectedly",
            QueueManagerState::InUseByCommand => "In use by a command",
        }
    }

    /// The states a running queue manager records in `qm.status`.
    fn recorded(text: &str) -> Option<QueueManagerState> {
        [
            QueueManagerState::Starting,
            QueueManagerState::Running,
            QueueManagerState::Ending,
            QueueManagerState::EndedNormally,
        ]
        .into_iter()
        .find(|state| state.text() == text)
    }
}

/// A queue manager's state and the process that has it open (none once it has ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueManagerStatus {
    pub state: QueueManagerState,
    pub pid: Option<u32>,
}

/// `qm.status`: the state the running queue manager last recorded, one line, written whole (a
/// temporary file renamed over it) and only by the process that holds the lock to run it:
///
/// ```text
/// STATUS(Running) PID(4242)
/// ```
///
/// STATUS is Starting, Running, Ending or Ended normally ([`QueueManagerState`]); PID is the
/// writer's. The file outlives its writer, so it is only believed for the lock's holder:
/// see [`queue_manager_status`].
const STATUS_FILE: &str = "qm.status";

/// What `qm.status` says: nothing (no file: never started), a state and its writer's pid, or
/// something unreadable (`None`).
fn read_status_file(directory: &Path) -> Option<Option<(QueueManagerState, u32)>> {
    let text = match std::fs::read_to_string(directory.join(STATUS_FILE)) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Some(None),
        Err(_) => return None,
    };
    let field = |keyword: &str| -> Option<&str> {
        let start = text.find(keyword)? + keyword.len();
        let length = text[start..].find(')')?;
        Some(&text[start..start + length])
    };
    let state = QueueManagerState::recorded(field("STATUS(")?)?;
    let pid = field("PID(")?.parse().ok()?;
    Some(Some((state, pid)))
}

/// Write `name` in `directory` whole: a reader sees the old text or the new, never a part.
fn write_whole(directory: &Path, name: &str, text: &str) -> std::io::Result<()> {
    let temporary = directory.join(format!("{name}.new"));
    std::fs::write(&temporary, text)?;
    std::fs::rename(&temporary, directory.join(name))
}

/// How many times [`queue_manager_status`] reads `qm.status` while its holder changes.
const STATUS_READ_ATTEMPTS: usize = 10;

/// The state of the queue manager in `directory`, from its lock and `qm.status`. The lock's
/// holder is asked before and after the record is read, so that the two belong together even
/// while one instance ends and another starts.
pub fn queue_manager_status(directory: &Path) -> std::io::Result<QueueManagerStatus> {
    let mut holder = QueueManagerLock::holder(directory)?;
    let mut attempts = 1;
    loop {
        let read = read_status_file(directory);
        let holder_after = QueueManagerLock::holder(directory)?;
        if holder_after == holder || attempts == STATUS_READ_ATTEMPTS {
            return Ok(status_from(holder_after, read));
        }
        holder = holder_after;
        attempts += 1;
    }
}

/// The state of a queue manager whose lock `holder` holds, with `read` from its `qm.status`.
fn status_from(
    holder: Option<LockHolder>,
    read: Option<Option<(QueueManagerState, u32)>>,
) -> QueueManagerStatus {
    let Some(holder) = holder else {
        // Nobody has it open: how did the last run end? (A record that cannot be read is no
        // evidence of a clean end.)
        let state = match read {
            Some(None) | Some(Some((QueueManagerState::EndedNormally, _))) => {
                QueueManagerState::EndedNormally
            }
            _ => QueueManagerState::EndedUnexpectedly,
        };
        return QueueManagerStatus { state, pid: None };
    };
    if !holder.queue_manager {
        return QueueManagerStatus {
            state: QueueManagerState::InUseByCommand,
            pid: Some(holder.pid),
        };
    }
    let state = match read.flatten() {
        // Shut down, about to release the lock.
        Some((QueueManagerState::EndedNormally, pid)) if pid == holder.pid => {
            QueueManagerState::Ending
        }
        Some((state, pid)) if pid == holder.pid => state,
        // A holder we cannot name (another pid namespace): its record is all there is.
        Some((state, pid)) if holder.pid == 0 => {
            return QueueManagerStatus {
                state: state.min(QueueManagerState::Ending),
                pid: Some(pid),
            }
        }
        // The record is a previous instance's: this one has just taken the lock.
        _ => QueueManagerState::Starting,
    };
    QueueManagerStatus {
        state,
        pid: Some(holder.pid),
    }
}

/// The running queue manager's side of `qm.status` (and `qm.pid`): its state only moves
/// forward, Starting, Running, Ending, Ended normally, whichever thread records it.
struct StatusRecorder {
    directory: PathBuf,
    state: Mutex<QueueManagerState>,
}

impl StatusRecorder {
    /// Record Starting and write `qm.pid`: the first thing the lock's new holder does.
    fn start(directory: &Path) -> std::io::Result<StatusRecorder> {
        let recorder = StatusRecorder {
            directory: directory.to_path_buf(),
            state: Mutex::new(QueueManagerState::Starting),
        };
        recorder.write(QueueManagerState::Starting)?;
        write_whole(directory, "qm.pid", &format!("{}\n", std::process::id()))?;
        Ok(recorder)
    }

    /// Record `state` unless a later one is recorded; whether it was recorded.
    fn record(&self, state: QueueManagerState) -> bool {
        let mut current = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if state <= *current {
            return false;
        }
        *current = state;
        if let Err(error) = self.write(state) {
            println!(
                "ferrite: cannot record STATUS({}) in {}: {error}; ferrite status shows the previous state",
                state.text(),
                self.directory.join(STATUS_FILE).display()
            );
        }
        true
    }

    fn current(&self) -> QueueManagerState {
        *self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn write(&self, state: QueueManagerState) -> std::io::Result<()> {
        write_whole(
            &self.directory,
            STATUS_FILE,
            &format!("STATUS({}) PID({})\n", state.text(), std::process::id()),
        )
    }
}

/// Why `name` cannot be started or opened now, from who has it open.
pub fn not_available(name: &str, directory: &Path) -> String {
    match queue_manager_status(directory) {
        Ok(QueueManagerStatus {
            state: QueueManagerState::InUseByCommand,
            pid,
        }) => format!(
            "ferrite: queue manager {name} is in use by a command that has it open in its own process (pid {}); try again when that command ends [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]",
            pid.unwrap_or(0)
        ),
        Ok(QueueManagerStatus {
            state,
            pid: Some(pid),
        }) => format!(
            "ferrite: queue manager {name} is already running: STATUS({}) PID({pid}) [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]",
            state.text()
        ),
        _ => format!(
            "ferrite: queue manager {name} is already running [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"
        ),
    }
}

static STOP_REQUESTED: AtomicBool = AtomicBool::new(false);

/// SIGTERM (`ferrite stop`) and SIGINT (Ctrl-C), taken by a thread of their own rather than a
/// handler, so that accepting a stop can record Ending and say so at once, even while restart
/// keeps the main thread busy.
struct StopSignals {
    signals: libc::sigset_t,
}

impl StopSignals {
    /// Block the stop signals in this thread and in every thread it starts from now on; call
    /// before starting any thread.
    fn block() -> StopSignals {
        // SAFETY: sigset_t is plain data, initialised by sigemptyset before use; the mask
        // changes only this thread's (and its future threads') signal delivery.
        unsafe {
            let mut signals: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut signals);
            libc::sigaddset(&mut signals, libc::SIGTERM);
            libc::sigaddset(&mut signals, libc::SIGINT);
            libc::pthread_sigmask(libc::SIG_BLOCK, &signals, std::ptr::null_mut());
            StopSignals { signals }
        }
    }

    /// Accept the stop signals from now on: each sets STOP_REQUESTED and records Ending.
    fn accept(self, name: &str, status: Arc<StatusRecorder>) {
        let name = name.to_string();
        std::thread::spawn(move || loop {
            let mut signal: libc::c_int = 0;
            // SAFETY: waiting for signals of a valid set that every thread blocks.
            if unsafe { libc::sigwait(&self.signals, &mut signal) } != 0 {
                continue;
            }
            let starting = !STOP_REQUESTED.swap(true, Ordering::SeqCst)
                && status.current() == QueueManagerState::Starting;
            if status.record(QueueManagerState::Ending) {
                println!("CSQY009I {name} ' STOP QMGR' COMMAND ACCEPTED");
                if starting {
                    println!(
                        "ferrite: restart of {name} is in progress; the queue manager ends cleanly once it completes"
                    );
                }
                std::io::stdout().flush().ok();
            }
        });
    }
}

/// Run the queue manager until SIGTERM or SIGINT, then shut it down cleanly.
pub fn run_in_foreground(
    name: &str,
    directory: &Path,
    listener_port: Option<u16>,
) -> Result<(), String> {
    let stop_signals = StopSignals::block();
    let _lock = QueueManagerLock::acquire_to_run(directory).map_err(|error| {
        if error.kind() == std::io::ErrorKind::WouldBlock {
            not_available(name, directory)
        } else {
            format!(
                "ferrite: cannot lock {}: {error}",
                directory.join("qm.lock").display()
            )
        }
    })?;
    let status = Arc::new(StatusRecorder::start(directory).map_err(|error| {
        format!(
            "ferrite: cannot record the state of {name} in {}: {error}",
            directory.display()
        )
    })?);
    stop_signals.accept(name, status.clone());
    println!(
        "Ferrite queue manager {name} starting (pid {})",
        std::process::id()
    );
    std::io::stdout().flush().ok();
    let sink: Arc<dyn Fn(&str) + Send + Sync> = Arc::new(|line: &str| {
        println!("{line}");
        std::io::stdout().flush().ok();
    });
    let queue_manager = QueueManager::open(Arc::new(RealFileSystem), directory, sink.clone())
        .map_err(|error| {
            format!(
                "ferrite: queue manager {name} could not start: {error} [reason {}]",
                error.reason_code()
            )
        })?;
    if STOP_REQUESTED.load(Ordering::SeqCst) {
        // Stopped during restart: restart is complete and the queue manager consistent, so it
        // ends now, without serving anyone.
        return end_normally(name, directory, &status, queue_manager.shutdown());
    }
    // The default objects (ferrite_command::default_objects), including the command queues:
    // the command server reads requests from SYSTEM.COMMAND.INPUT (the console of `ferrite
    // mqsc` uses it while the queue manager runs, replying on SYSTEM.MQSC.REPLY.QUEUE) and
    // SYSTEM.ADMIN.COMMAND.QUEUE (remote administration: MQSC, and PCF answered with an error).
    ferrite_command::define_default_objects(&queue_manager)
        .map_err(|error| format!("ferrite: cannot define the default objects: {error}"))?;
    // STRSTPEV: the Queue Manager Active event (MQ for z/OS: every start but the first, which
    // for Ferrite is `ferrite create`'s).
    ferrite_mqi::queue_manager_events::queue_manager_active(&queue_manager);
    let command_processor = Arc::new(ferrite_command::CommandProcessor::new(
        queue_manager.clone(),
    ));
    let command_server = ferrite_command::CommandServer::start_processor(
        command_processor.clone(),
        &[
            ferrite_command::COMMAND_QUEUE,
            ferrite_command::ADMIN_COMMAND_QUEUE,
        ],
        sink.clone(),
    );
    // The bindings socket: connections from other processes (ferrite put/get/browse, the
    // ferrite-client library). The lock on qm.lock proves no other process serves this queue
    // manager, so a socket file left by one that ended abnormally is stale.
    let socket_path = directory.join("qm.sock");
    let _ = std::fs::remove_file(&socket_path);
    let server = match ferrite_server::Server::start(
        queue_manager.clone(),
        &socket_path,
        ferrite_server::ServerConfig::default(),
        sink.clone(),
    ) {
        Ok(server) => Some(server),
        // A Unix socket path holds at most 107 bytes: a queue manager in a deeper directory
        // runs without the bindings socket rather than not at all.
        Err(error) if error.kind() == std::io::ErrorKind::InvalidInput => {
            println!(
                "ferrite: no bindings socket for {name} ({}: {error}); put/get/browse cannot connect while it runs",
                socket_path.display()
            );
            None
        }
        Err(error) => {
            let _ = queue_manager.shutdown();
            return Err(format!(
                "ferrite: queue manager {name} cannot listen on {}: {error}",
                socket_path.display()
            ));
        }
    };
    let listener_port_file = directory.join("listener.port");
    let channel_initiator = start_channel_initiator(
        name,
        &queue_manager,
        listener_port,
        &listener_port_file,
        sink.clone(),
    );
    command_processor.set_channel_initiator(Some(channel_initiator.clone()));
    status.record(QueueManagerState::Running);
    println!("CSQY022I {name} QUEUE MANAGER INITIALIZATION COMPLETE");
    println!(
        "Ferrite queue manager {name} running (pid {}); stop it with: ferrite stop {name}",
        std::process::id()
    );
    std::io::stdout().flush().ok();
    while !STOP_REQUESTED.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
    }
    // Connections end first: their units of work are backed out while the queue manager runs.
    command_processor.set_channel_initiator(None);
    channel_initiator.stop();
    let _ = std::fs::remove_file(&listener_port_file);
    if let Some(server) = server {
        server.stop();
    }
    command_server.stop();
    end_normally(name, directory, &status, queue_manager.shutdown())
}

/// Start the channel initiator and, if qm.toml asks for it, its TCP listener, recording the
/// port it listens on in `listener_port_file` (tests and tools read it).
fn start_channel_initiator(
    name: &str,
    queue_manager: &Arc<QueueManager>,
    listener_port: Option<u16>,
    listener_port_file: &Path,
    sink: Arc<dyn Fn(&str) + Send + Sync>,
) -> Arc<ferrite_server::channel_initiator::ChannelInitiator> {
    // The channel initiator's listener: client connections over TCP (IBM's MQ classes for Java
    // and JMS, the ferrite client in client mode). A port in use leaves the queue manager
    // running without it, as MQ does when a listener cannot start.
    let chinit_parameters = &queue_manager.config().channel_initiator;
    let _ = std::fs::remove_file(listener_port_file);
    let config = ferrite_server::channel_initiator::ChannelInitiatorConfig {
        address: chinit_parameters
            .address
            .parse()
            .expect("address validated with the configuration"),
        port: listener_port.unwrap_or(chinit_parameters.port),
        max_channels: chinit_parameters.max_channels as usize,
        dispatchers: match chinit_parameters.dispatchers {
            0 => ferrite_server::channel_initiator::dispatchers_for_this_machine(),
            count => count as usize,
        },
        adapters: chinit_parameters.adapters as usize,
        ssl_key_repository: chinit_parameters.ssl_key_repository.clone(),
        ..Default::default()
    };
    let port = config.port;
    let channel_initiator = ferrite_server::channel_initiator::ChannelInitiator::new(
        queue_manager.clone(),
        config,
        sink,
    );
    if chinit_parameters.listener {
        match channel_initiator.start_listener(Some(port)) {
            Ok(address) => {
                let _ = std::fs::write(listener_port_file, format!("{}\n", address.port()));
                if address.ip().is_loopback() {
                    println!(
                        "ferrite: {name}'s listener accepts clients on this machine only ({address}); to accept them from the network, set channel_initiator.address = \"0.0.0.0\" (or one address) in {}",
                        queue_manager.directory().join("qm.toml").display()
                    );
                }
            }
            Err(error) => println!(
                "CSQX028E {name} ferrite listener cannot listen on port {port}: {error}; client connections cannot connect until START LISTENER succeeds (or set channel_initiator.port in qm.toml, or use --port)"
            ),
        }
    }
    channel_initiator
}

/// After shutdown: record Ended normally (the lock is released when the caller returns), or
/// leave the record as it is, which reads Ended unexpectedly once the lock is released.
fn end_normally(
    name: &str,
    directory: &Path,
    status: &StatusRecorder,
    shutdown: Result<(), ferrite_storage::StorageError>,
) -> Result<(), String> {
    shutdown.map_err(|error| {
        format!(
            "ferrite: shutdown of {name} failed: {error} [reason {}]",
            error.reason_code()
        )
    })?;
    std::fs::remove_file(directory.join("qm.pid")).ok();
    status.record(QueueManagerState::EndedNormally);
    Ok(())
}

/// Start `ferrite start QM` detached, its output in `qmgr.log`, and wait for it to be ready.
pub fn start_in_background(
    name: &str,
    directory: &Path,
    listener_port: Option<u16>,
) -> Result<(), String> {
    if QueueManagerLock::is_held(directory) {
        return Err(not_available(name, directory));
    }
    let log_path = directory.join("qmgr.log");
    let log = File::create(&log_path)
        .map_err(|error| format!("ferrite: cannot create {}: {error}", log_path.display()))?;
    let executable = std::env::current_exe().map_err(|error| format!("ferrite: {error}"))?;
    let mut command = std::process::Command::new(executable);
    command
        .arg("start")
        .arg(name)
        .args(listener_port.map(|port| format!("--port={port}")))
        .stdin(std::process::Stdio::null())
        .stdout(
            log.try_clone()
                .map_err(|error| format!("ferrite: {error}"))?,
        )
        .stderr(log);
    use std::os::unix::process::CommandExt;
    // SAFETY: setsid in the child only detaches it from our session.
    unsafe {
        command.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let mut child = command
        .spawn()
        .map_err(|error| format!("ferrite: cannot start {name}: {error}"))?;
    let deadline = Instant::now() + Duration::from_secs(START_WAIT_SECONDS);
    loop {
        if let Ok(file) = File::open(&log_path) {
            for line in BufReader::new(file).lines().map_while(Result::ok) {
                if line.contains("CSQY022I") {
                    println!(
                        "Ferrite queue manager {name} started (pid {}); output in {}",
                        child.id(),
                        log_path.display()
                    );
                    return Ok(());
                }
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            if status.success() {
                return Err(format!(
                    "ferrite: queue manager {name} was stopped (ferrite stop) before it finished starting; its output is in {}",
                    log_path.display()
                ));
            }
            let output = std::fs::read_to_string(&log_path).unwrap_or_default();
            return Err(format!(
                "ferrite: queue manager {name} ended during start ({status}):\n{output}"
            ));
        }
        if Instant::now() > deadline {
            return Err(format!("ferrite: queue manager {name} did not finish starting in {START_WAIT_SECONDS} s; see {}", log_path.display()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The state of `name` for a command's messages; an error says what could not be read.
fn status_of(name: &str, directory: &Path) -> Result<QueueManagerStatus, String> {
    queue_manager_status(directory).map_err(|error| {
        format!(
            "ferrite: cannot tell whether queue manager {name} runs: {}: {error}",
            directory.join("qm.lock").display()
        )
    })
}

/// `ferrite stop`: stop the queue manager that holds the lock, whatever it is doing (one that
/// is starting ends once restart completes), and wait for it to end.
pub fn stop(name: &str, directory: &Path) -> Result<(), String> {
    if !QueueManager::exists(&RealFileSystem, directory) {
        return Err(format!(
            "ferrite: queue manager {name} does not exist [reason 2058 MQRC_Q_MGR_NAME_ERROR]"
        ));
    }
    let status = status_of(name, directory)?;
    let pid = match (status.state, status.pid) {
        (QueueManagerState::InUseByCommand, pid) => {
            return Err(format!(
                "ferrite: queue manager {name} is not running; a command has it open in its own process (pid {}) and ends it when done [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]",
                pid.unwrap_or(0)
            ))
        }
        (_, None) => {
            return Err(format!(
                "ferrite: queue manager {name} is not running: STATUS({}) [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]",
                status.state.text()
            ))
        }
        (_, Some(0)) => {
            return Err(format!(
                "ferrite: queue manager {name} runs in a process this one cannot see (another pid namespace); stop it from there"
            ))
        }
        (_, Some(pid)) => pid,
    };
    // Signalled before saying so: once the message is out, the stop is on its way.
    // SAFETY: sending a signal to the process the kernel names as the lock's holder.
    if unsafe { libc::kill(pid as libc::pid_t, libc::SIGTERM) } != 0 {
        let error = std::io::Error::last_os_error();
        // ESRCH: it ended between the question and the signal, which the wait below sees.
        if error.raw_os_error() != Some(libc::ESRCH) {
            return Err(format!(
                "ferrite: cannot signal queue manager {name} (pid {pid}): {error}; stop it as the user it runs as"
            ));
        }
    }
    match status.state {
        QueueManagerState::Starting => println!(
            "Queue manager {name} (pid {pid}) is starting (restart in progress) and ends cleanly once restart completes: waiting up to {STOP_WAIT_SECONDS} s for it to end."
        ),
        QueueManagerState::Ending => println!(
            "Queue manager {name} (pid {pid}) is already ending: waiting up to {STOP_WAIT_SECONDS} s for it to end."
        ),
        _ => println!(
            "Queue manager {name} (pid {pid}) is stopping: waiting up to {STOP_WAIT_SECONDS} s for it to end."
        ),
    }
    std::io::stdout().flush().ok();
    let deadline = Instant::now() + Duration::from_secs(STOP_WAIT_SECONDS);
    let ended = loop {
        let status = status_of(name, directory)?;
        if status.pid != Some(pid) {
            break status;
        }
        if Instant::now() > deadline {
            return Err(format!(
                "ferrite: queue manager {name} (pid {pid}) has not ended within {STOP_WAIT_SECONDS} s: STATUS({}); it ends on its own, and ferrite stop {name} waits again",
                status.state.text()
            ));
        }
        std::thread::sleep(Duration::from_millis(STATUS_POLL_INTERVAL_MS));
    };
    match ended.state {
        QueueManagerState::EndedNormally => {
            println!("Ferrite queue manager {name} ended normally");
            Ok(())
        }
        QueueManagerState::EndedUnexpectedly => Err(format!(
            "ferrite: queue manager {name} (pid {pid}) ended unexpectedly, without a clean shutdown; see its output ({} when started with --background); the next start recovers it",
            directory.join("qmgr.log").display()
        )),
        state => {
            println!(
                "Ferrite queue manager {name} (pid {pid}) ended; another process (pid {}) has it open now: STATUS({})",
                ended.pid.unwrap_or(0),
                state.text()
            );
            Ok(())
        }
    }
}

/// How often `stop` and the commands that wait for a starting queue manager look again.
const STATUS_POLL_INTERVAL_MS: u64 = 50;

/// How long a command that connects (mqsc, put, get, browse, trigmon) waits for a queue
/// manager that is starting to serve.
pub const CONNECT_START_WAIT_SECONDS: u64 = 60;

/// For a command that connects to `name` here: `true` once it serves (waiting while it starts,
/// at most [`CONNECT_START_WAIT_SECONDS`]), `false` when no process has it open (the command
/// opens it in-process); an error when it is ending, in use by another command, or still
/// starting at the end of the wait.
pub fn wait_until_serving(name: &str, directory: &Path) -> Result<bool, String> {
    let deadline = Instant::now() + Duration::from_secs(CONNECT_START_WAIT_SECONDS);
    let mut said_starting = false;
    loop {
        let status = status_of(name, directory)?;
        let pid = status.pid.unwrap_or(0);
        match status.state {
            QueueManagerState::Running => return Ok(true),
            QueueManagerState::EndedNormally | QueueManagerState::EndedUnexpectedly
                if !said_starting =>
            {
                return Ok(false)
            }
            QueueManagerState::EndedNormally | QueueManagerState::EndedUnexpectedly => {
                return Err(format!(
                    "ferrite: queue manager {name} ended while starting: STATUS({}); start it again with ferrite start {name} [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]",
                    status.state.text()
                ))
            }
            QueueManagerState::Ending => {
                return Err(format!(
                    "ferrite: queue manager {name} (pid {pid}) is ending; start it again once it has ended (ferrite status {name}) [reason 2162 MQRC_Q_MGR_STOPPING]"
                ))
            }
            QueueManagerState::InUseByCommand => {
                return Err(format!(
                    "ferrite: queue manager {name} is not running, and a command has it open in its own process (pid {pid}); try again when that command ends [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"
                ))
            }
            QueueManagerState::Starting => {}
        }
        if Instant::now() > deadline {
            return Err(format!(
                "ferrite: queue manager {name} (pid {pid}) is still starting (restart in progress) after {CONNECT_START_WAIT_SECONDS} s; try again when ferrite status {name} shows STATUS(Running) [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"
            ));
        }
        if !said_starting {
            eprintln!(
                "ferrite: queue manager {name} (pid {pid}) is starting (restart in progress); waiting up to {CONNECT_START_WAIT_SECONDS} s for it to serve"
            );
            said_starting = true;
        }
        std::thread::sleep(Duration::from_millis(STATUS_POLL_INTERVAL_MS));
    }
}

/// `ferrite status [QM]`: dspmq's answer for one queue manager or all, with the pid of the
/// process that has it open.
pub fn status(name: Option<&str>) -> Result<(), String> {
    let root = home()?.join("qmgrs");
    let names: Vec<String> = match name {
        Some(name) => vec![name.to_string()],
        None => {
            let mut names: Vec<String> = std::fs::read_dir(&root)
                .map(|entries| {
                    entries
                        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                        .collect()
                })
                .unwrap_or_default();
            names.sort();
            names
        }
    };
    if names.is_empty() {
        println!("No queue managers under {}", root.display());
    }
    for name in names {
        let directory = queue_manager_directory(&name)?;
        if !QueueManager::exists(&RealFileSystem, &directory) {
            return Err(format!(
                "ferrite: queue manager {name} does not exist [reason 2058 MQRC_Q_MGR_NAME_ERROR]"
            ));
        }
        let status = status_of(&name, &directory)?;
        let pid = status
            .pid
            .map(|pid| format!("PID({pid})    "))
            .unwrap_or_default();
        println!(
            "QMNAME({name})    STATUS({})    {pid}DIRECTORY({})",
            status.state.text(),
            directory.display()
        );
    }
    Ok(())
}
