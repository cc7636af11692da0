//! Running a queue manager as a process: where it lives, the lock that says it is running,
//! foreground and background start, and stop.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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

/// An exclusive lock on `qm.lock`: held by the process that has the queue manager open.
pub struct QueueManagerLock {
    _file: File,
}

impl QueueManagerLock {
    pub fn acquire(directory: &Path) -> std::io::Result<QueueManagerLock> {
        std::fs::create_dir_all(directory)?;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(directory.join("qm.lock"))?;
        // SAFETY: flock on a file descriptor we own.
        let result = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if result != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(QueueManagerLock { _file: file })
    }

    pub fn is_held(directory: &Path) -> bool {
        if !directory.join("qm.lock").exists() {
            return false;
        }
        QueueManagerLock::acquire(directory).is_err()
    }
}

static STOP_REQUESTED: AtomicBool = AtomicBool::new(false);

extern "C" fn request_stop(_signal: libc::c_int) {
    STOP_REQUESTED.store(true, Ordering::SeqCst);
}

/// Run the queue manager until SIGTERM or SIGINT, then shut it down cleanly.
pub fn run_in_foreground(
    name: &str,
    directory: &Path,
    listener_port: Option<u16>,
) -> Result<(), String> {
    let _lock = QueueManagerLock::acquire(directory)
        .map_err(|_| format!("ferrite: queue manager {name} is already running [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"))?;
    // SAFETY: installing a handler that only stores to an atomic.
    unsafe {
        libc::signal(
            libc::SIGTERM,
            request_stop as *const () as libc::sighandler_t,
        );
        libc::signal(
            libc::SIGINT,
            request_stop as *const () as libc::sighandler_t,
        );
    }
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
    // ferrite-client library). The qm.lock flock proves no other process serves this queue
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
    // The channel initiator's listener: client connections over TCP (IBM's MQ classes for Java
    // and JMS, the ferrite client in client mode). A port in use leaves the queue manager
    // running without it, as MQ does when a listener cannot start.
    let chinit_parameters = &queue_manager.config().channel_initiator;
    let listener_port_file = directory.join("listener.port");
    let _ = std::fs::remove_file(&listener_port_file);
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
        sink.clone(),
    );
    command_processor.set_channel_initiator(Some(channel_initiator.clone()));
    if chinit_parameters.listener {
        match channel_initiator.start_listener(Some(port)) {
            Ok(address) => {
                let _ = std::fs::write(&listener_port_file, format!("{}\n", address.port()));
            }
            Err(error) => println!(
                "CSQX028E {name} ferrite listener cannot listen on port {port}: {error}; client connections cannot connect until START LISTENER succeeds (or set channel_initiator.port in qm.toml, or use --port)"
            ),
        }
    }
    std::fs::write(
        directory.join("qm.pid"),
        format!("{}\n", std::process::id()),
    )
    .map_err(|error| format!("ferrite: cannot write qm.pid: {error}"))?;
    println!("CSQY022I {name} QUEUE MANAGER INITIALIZATION COMPLETE");
    println!(
        "Ferrite queue manager {name} running (pid {}); stop it with: ferrite stop {name}",
        std::process::id()
    );
    std::io::stdout().flush().ok();
    while !STOP_REQUESTED.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
    }
    println!("CSQY009I {name} ' STOP QMGR' COMMAND ACCEPTED");
    // Connections end first: their units of work are backed out while the queue manager runs.
    command_processor.set_channel_initiator(None);
    channel_initiator.stop();
    let _ = std::fs::remove_file(&listener_port_file);
    if let Some(server) = server {
        server.stop();
    }
    command_server.stop();
    let result = queue_manager.shutdown();
    std::fs::remove_file(directory.join("qm.pid")).ok();
    result.map_err(|error| {
        format!(
            "ferrite: shutdown of {name} failed: {error} [reason {}]",
            error.reason_code()
        )
    })
}

/// Start `ferrite start QM` detached, its output in `qmgr.log`, and wait for it to be ready.
pub fn start_in_background(
    name: &str,
    directory: &Path,
    listener_port: Option<u16>,
) -> Result<(), String> {
    if QueueManagerLock::is_held(directory) {
        return Err(format!("ferrite: queue manager {name} is already running [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"));
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

pub fn stop(name: &str, directory: &Path) -> Result<(), String> {
    if !QueueManagerLock::is_held(directory) {
        return Err(format!(
            "ferrite: queue manager {name} is not running [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"
        ));
    }
    let pid_text = std::fs::read_to_string(directory.join("qm.pid")).map_err(|error| {
        format!("ferrite: queue manager {name} is running but its qm.pid cannot be read: {error}")
    })?;
    let pid: libc::pid_t = pid_text
        .trim()
        .parse()
        .map_err(|_| format!("ferrite: qm.pid of {name} is damaged"))?;
    // SAFETY: sending a signal to a process id.
    if unsafe { libc::kill(pid, libc::SIGTERM) } != 0 {
        return Err(format!(
            "ferrite: cannot signal process {pid}: {}",
            std::io::Error::last_os_error()
        ));
    }
    let deadline = Instant::now() + Duration::from_secs(STOP_WAIT_SECONDS);
    while QueueManagerLock::is_held(directory) {
        if Instant::now() > deadline {
            return Err(format!(
                "ferrite: queue manager {name} did not stop within {STOP_WAIT_SECONDS} s"
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    println!("Ferrite queue manager {name} ended");
    Ok(())
}

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
        let state = if QueueManagerLock::is_held(&directory) {
            "Running"
        } else {
            "Ended normally or not started"
        };
        println!(
            "QMNAME({name})    STATUS({state})    DIRECTORY({})",
            directory.display()
        );
    }
    Ok(())
}
