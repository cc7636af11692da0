//! `ferrite`: the command line of a Ferrite queue manager.
//!
//! `ferrite start QM` creates the queue manager on first use and runs it; `ferrite stop QM`
//! stops it cleanly; `ferrite mqsc QM` runs MQSC commands; `ferrite put/get/browse` are the
//! sample programs (amqsput, amqsget, amqsbcg); `ferrite pageset …` and `ferrite log …` are the
//! storage utilities (CSQUTIL, CSQ1LOGP). Queue managers live under `$FERRITE_HOME/qmgrs/`
//! (default `~/.ferrite`). Every failure exits non-zero with MQ's reason code in the message.

mod authority;
mod credentials;
mod mqsc;
mod plan;
mod process;
mod security;
mod sharing;
mod statistics;
mod statistics_plot;
mod trigger_monitor;
mod utilities;

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand};
use ferrite_constants::{
    get_options::*, open_options::*, persistence::*, put_options::*, reason::*,
};
use ferrite_mqi::{Hobj, MqError, Mqcsp, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::{MessageSelector, QueueManager, UnitOfWork};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::StorageError;

#[derive(Parser)]
#[command(
    name = "ferrite",
    version,
    about = "Ferrite: a queue manager built as IBM MQ for z/OS is built"
)]
struct Arguments {
    #[command(subcommand)]
    command: Command,
}

/// Where a command connects when it does not use the local queue manager: MQ's client mode.
#[derive(clap::Args, Clone, Debug, Default)]
struct RemoteArguments {
    /// Connect in client mode to a queue manager's listener at HOST:PORT (or MQ's HOST(PORT))
    /// instead of the local one. The MQSERVER environment variable (CHANNEL/TCP/HOST(PORT))
    /// does the same, as for IBM's sample programs.
    #[arg(long, value_name = "HOST:PORT")]
    client: Option<String>,
    /// The server-connection channel for --client.
    #[arg(long, default_value = "DEV.APP.SVRCONN")]
    channel: String,
    /// Connect with this user ID and a password (runmqsc -u): the password is prompted for on
    /// a terminal, otherwise read from the first line of standard input; never given on the
    /// command line. put, get and browse also take the user from MQSAMP_USER_ID.
    #[arg(short = 'u', long = "user", value_name = "USER")]
    user: Option<String>,
}

/// Which records `ferrite auth` addresses (setmqaut's -t, -n, -p and -g).
#[derive(clap::Args)]
struct AuthTarget {
    queue_manager: String,
    /// The object type: qmgr, queue, process, namelist, channel, authinfo, ...
    #[arg(short = 't', long = "type")]
    object_type: Option<String>,
    /// The object name or generic profile (`*`, `**`, `?`); none for qmgr.
    #[arg(short = 'n', long = "name")]
    name: Option<String>,
    /// A user.
    #[arg(short = 'p', long)]
    principal: Option<String>,
    /// An operating-system group.
    #[arg(short = 'g', long)]
    group: Option<String>,
    #[command(flatten)]
    remote: RemoteArguments,
}

#[derive(Subcommand)]
enum AuthAction {
    /// Grant (--add) and revoke (--remove) authorities: setmqaut.
    Set {
        #[command(flatten)]
        target: AuthTarget,
        /// Authorities to grant, separated by commas (put,get,browse,inq,connect,dsp,...).
        #[arg(long, value_delimiter = ',')]
        add: Vec<String>,
        /// Authorities to revoke, separated by commas.
        #[arg(long, value_delimiter = ',')]
        remove: Vec<String>,
    },
    /// What a principal or group may do to an object: dspmqaut.
    Show {
        #[command(flatten)]
        target: AuthTarget,
    },
    /// The authority records (those matching -t, -n, -p or -g): dmpmqaut.
    List {
        #[command(flatten)]
        target: AuthTarget,
    },
    /// Delete the record of a profile for a principal or group.
    Delete {
        #[command(flatten)]
        target: AuthTarget,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Create a queue manager with default parameters (qm.toml can be edited before first start).
    Create {
        queue_manager: String,
        /// Make it a member of this queue sharing group (1-4 characters); the first member
        /// creates the group's tables in the shared repository. Needs --cf and --db.
        #[arg(long, value_name = "NAME", requires_all = ["cf", "db"])]
        qsg: Option<String>,
        /// The group's coupling facility: a Redis 7 or Valkey server (redis://HOST:PORT).
        #[arg(long, value_name = "URL", requires = "qsg")]
        cf: Option<String>,
        /// The group's shared repository: a PostgreSQL database (postgresql://...).
        #[arg(long, value_name = "URL", requires = "qsg")]
        db: Option<String>,
    },
    /// Start a queue manager (creating it on first use); runs in the foreground unless --background.
    Start {
        queue_manager: String,
        #[arg(long)]
        background: bool,
        /// TCP port of the client listener (default: channel_initiator.port in qm.toml, 1414;
        /// 0 picks a free port, written to listener.port in the queue manager's directory).
        #[arg(long)]
        port: Option<u16>,
        /// TCP port of the web server (REST API, metrics; default: the port of web.address in
        /// qm.toml, 9443; 0 picks a free port, written to web.port in the queue manager's
        /// directory).
        #[arg(long)]
        web_port: Option<u16>,
    },
    /// Stop a running queue manager cleanly (shutdown checkpoint, buffer pools written).
    Stop { queue_manager: String },
    /// Show whether queue managers are running.
    Status { queue_manager: Option<String> },
    /// Run MQSC commands from a file, stdin, or an interactive prompt.
    Mqsc {
        queue_manager: String,
        #[arg(short = 'f', long = "file")]
        file: Option<PathBuf>,
        #[command(flatten)]
        remote: RemoteArguments,
    },
    /// Authorities (setmqaut, dspmqaut, dmpmqaut): SET AUTHREC, DISPLAY ENTAUTH, DISPLAY
    /// AUTHREC and DELETE AUTHREC for scripts.
    Auth {
        #[command(subcommand)]
        action: AuthAction,
    },
    /// Put messages (lines of stdin, or --count generated messages of --size bytes).
    Put {
        queue_manager: String,
        queue: String,
        #[arg(long)]
        count: Option<u64>,
        #[arg(long, default_value_t = 1024)]
        size: usize,
        #[arg(long)]
        persistent: bool,
        /// Commit every N messages (0: out of syncpoint).
        #[arg(long, default_value_t = 0)]
        syncpoint: u64,
        /// Print each generated message's number once its put (or its commit) has returned;
        /// generated messages start with their number, so a test can check what survived.
        #[arg(long)]
        echo: bool,
        #[command(flatten)]
        remote: RemoteArguments,
    },
    /// Get (destructively) and print messages.
    Get {
        queue_manager: String,
        queue: String,
        /// Wait this many milliseconds for a message.
        #[arg(long, default_value_t = 0)]
        wait: u64,
        #[arg(long)]
        count: Option<u64>,
        #[command(flatten)]
        remote: RemoteArguments,
    },
    /// Browse messages without removing them, printing their descriptors and data.
    Browse {
        queue_manager: String,
        queue: String,
        #[command(flatten)]
        remote: RemoteArguments,
    },
    /// Trigger monitor (runmqtrm): start the application of each trigger message on an initiation queue.
    Trigmon {
        queue_manager: String,
        /// The initiation queue to serve.
        #[arg(long, default_value = trigger_monitor::DEFAULT_INITIATION_QUEUE)]
        initq: String,
        #[command(flatten)]
        remote: RemoteArguments,
    },
    /// Page set utilities (CSQUTIL analogues).
    #[command(subcommand)]
    Pageset(utilities::PageSetCommand),
    /// Log utilities (CSQ1LOGP analogue).
    #[command(subcommand)]
    Log(utilities::LogCommand),
    /// The users connection authentication (CHCKCLNT) accepts.
    #[command(subcommand)]
    User(security::UserCommand),
    /// TLS for client channels (SSLCIPH): the queue manager's certificate.
    #[command(subcommand)]
    Tls(security::TlsCommand),
    /// Statistics records (SMF 115 as MQSMF prints them) with MP16's derived figures.
    Stats(StatsArguments),
    /// Capacity planning with MP16's model, for a described workload or for what a queue
    /// manager's statistics measured; --check compares its configuration with the plan.
    Plan(PlanArguments),
}

/// `ferrite plan`: the workload and the resources to plan for.
#[derive(clap::Args)]
struct PlanArguments {
    /// Plan from this queue manager's statistics (its busiest interval) unless
    /// --messages-per-second describes the workload; its qm.toml for --check.
    queue_manager: Option<String>,
    /// Messages put (and got) per second at peak.
    #[arg(long, value_name = "N")]
    messages_per_second: Option<f64>,
    /// User data bytes per message.
    #[arg(long, value_name = "BYTES", default_value_t = 1024)]
    size: u64,
    /// The messages are persistent (logged).
    #[arg(long)]
    persistent: bool,
    /// Messages per unit of work.
    #[arg(long, value_name = "N", default_value_t = 1)]
    messages_per_commit: u32,
    /// Messages on the queues at the deepest point.
    #[arg(long, value_name = "MESSAGES", default_value_t = 0)]
    depth: u64,
    /// The log device's sustainable write rate, MB/s.
    #[arg(long, value_name = "MB", default_value_t = 100.0)]
    log_mb_per_second: f64,
    /// The log read rate at restart, MB/s.
    #[arg(long, value_name = "MB", default_value_t = 200.0)]
    log_read_mb_per_second: f64,
    /// The longest acceptable restart, seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 120.0)]
    restart_goal: f64,
    /// Dual logging (from qm.toml when a queue manager is named).
    #[arg(long)]
    dual: bool,
    /// Archive copies written.
    #[arg(long, value_name = "N", default_value_t = 1)]
    archive_copies: u32,
    /// Whose costs: this build of Ferrite's, or MQ for z/OS's as MP16 measured them.
    #[arg(long, value_enum, default_value_t = plan::CostModel::Ferrite)]
    model: plan::CostModel,
    /// Compare the queue manager's configuration with the plan.
    #[arg(long, requires = "queue_manager")]
    check: bool,
}

/// `ferrite stats`: which intervals, and how to print them.
#[derive(clap::Args)]
struct StatsArguments {
    queue_manager: String,
    /// Close the running queue manager's current interval first (RESET QMGR TYPE(STATISTICS)).
    #[arg(long)]
    now: bool,
    /// Every SECONDS: close the running queue manager's interval and print it, until
    /// interrupted.
    #[arg(long, value_name = "SECONDS")]
    watch: Option<u64>,
    /// Every interval recorded (default: the latest).
    #[arg(long, conflicts_with = "last")]
    all: bool,
    /// The latest N intervals.
    #[arg(long, value_name = "N")]
    last: Option<usize>,
    /// Print the records as stored (JSON lines) instead of the report.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Write one CSV file per record type (QMST.csv, QPST.csv, ...) in DIRECTORY.
    #[arg(long, value_name = "DIRECTORY")]
    csv: Option<PathBuf>,
    /// Draw the intervals as an SVG chart in FILE (by default the last day's intervals).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "csv"])]
    svg: Option<PathBuf>,
    /// Connect with this user ID (for --now and --watch); the password as for `ferrite mqsc`.
    #[arg(short = 'u', long = "user", value_name = "USER")]
    user: Option<String>,
}

fn main() -> ExitCode {
    let arguments = Arguments::parse();
    match run(arguments.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn failure(error: StorageError) -> String {
    format!("ferrite: {error} [reason {}]", error.reason_code())
}

fn print_line(line: &str) {
    println!("{line}");
}

/// Open a stopped queue manager in this process (the embedded mode, like SQLite).
fn open_embedded(name: &str) -> Result<(Arc<QueueManager>, process::QueueManagerLock), String> {
    let directory = process::queue_manager_directory(name)?;
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    if !QueueManager::exists(fs.as_ref(), &directory) {
        return Err(format!(
            "ferrite: queue manager {name} does not exist [reason 2058 MQRC_Q_MGR_NAME_ERROR]"
        ));
    }
    let lock = process::QueueManagerLock::acquire(&directory).map_err(|_| {
        format!(
            "ferrite: queue manager {name} started while this command was opening it in-process; \
             run the command again to connect through its bindings socket \
             [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"
        )
    })?;
    let queue_manager =
        QueueManager::open(fs, &directory, Arc::new(|_: &str| {})).map_err(failure)?;
    sharing::join(&queue_manager)?;
    Ok((queue_manager, lock))
}

/// Run a command on queue manager `name` with the user `remote` names (if any): `connected`
/// when it runs (its bindings socket) or a client channel is asked for, else `embedded` on it
/// opened in this process (stopped), once the credentials pass the CHCKLOCL check; the
/// embedded queue manager is shut down afterwards, whatever the outcome.
/// `ferrite auth`: the MQSC command the action stands for, run as `ferrite mqsc` runs one.
fn run_auth(action: AuthAction) -> Result<(), String> {
    let (target, command) = {
        fn request(target: &AuthTarget) -> authority::AuthRequest<'_> {
            authority::AuthRequest {
                object_type: target.object_type.as_deref(),
                profile: target.name.as_deref(),
                principal: target.principal.as_deref(),
                group: target.group.as_deref(),
            }
        }
        match &action {
            AuthAction::Set {
                target,
                add,
                remove,
            } => (target, request(target).set(add, remove)?),
            AuthAction::Show { target } => (target, request(target).show()?),
            AuthAction::List { target } => (target, request(target).list()?),
            AuthAction::Delete { target } => (target, request(target).delete()?),
        }
    };
    let name = &target.queue_manager;
    let report = |result: Result<String, String>| match result {
        Ok(output) => {
            println!("{output}");
            Ok(())
        }
        Err(output) => Err(output),
    };
    on_queue_manager(
        name,
        &target.remote,
        credentials::Asker::Console,
        |socket, credentials| {
            let mut console = RemoteConsole::connect(&socket, name, credentials)?;
            let result = console.run(&command);
            console.close()?;
            report(result)
        },
        |embedded| report(mqsc::run_command(embedded, &command)),
    )
}

fn on_queue_manager(
    name: &str,
    remote: &RemoteArguments,
    asker: credentials::Asker,
    connected: impl FnOnce(Endpoint, Option<&Mqcsp>) -> Result<(), String>,
    embedded: impl FnOnce(&Arc<QueueManager>) -> Result<(), String>,
) -> Result<(), String> {
    let target = endpoint(name, remote)?;
    let credentials = credentials::read(remote, asker)?;
    let credentials = credentials.as_ref();
    if let Some(socket) = target {
        return connected(socket, credentials);
    }
    let (queue_manager, _lock) = open_embedded(name)?;
    let result = credentials::check_embedded(&queue_manager, credentials)
        .and_then(|()| embedded(&queue_manager));
    queue_manager.shutdown().map_err(failure)?;
    result
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Create {
            queue_manager,
            qsg,
            cf,
            db,
        } => {
            let directory = process::queue_manager_directory(&queue_manager)?;
            let group = sharing::parameters(qsg, cf, db);
            create(&queue_manager, &directory, group)?;
            println!(
                "Ferrite queue manager {queue_manager} created in {}",
                directory.display()
            );
            Ok(())
        }
        Command::Start {
            queue_manager,
            background,
            port,
            web_port,
        } => {
            let directory = process::queue_manager_directory(&queue_manager)?;
            if !QueueManager::exists(&RealFileSystem, &directory) {
                create(&queue_manager, &directory, None)?;
                println!(
                    "Ferrite queue manager {queue_manager} created in {}",
                    directory.display()
                );
            }
            let ports = process::Ports {
                listener: port,
                web: web_port,
            };
            if background {
                process::start_in_background(&queue_manager, &directory, ports)
            } else {
                process::run_in_foreground(&queue_manager, &directory, ports)
            }
        }
        Command::Stop { queue_manager } => {
            let directory = process::queue_manager_directory(&queue_manager)?;
            process::stop(&queue_manager, &directory)
        }
        Command::Status { queue_manager } => process::status(queue_manager.as_deref()),
        Command::Mqsc {
            queue_manager,
            file,
            remote,
        } => on_queue_manager(
            &queue_manager,
            &remote,
            credentials::Asker::Console,
            |socket, credentials| {
                // The queue manager runs: send each command to its command server.
                let mut console = RemoteConsole::connect(&socket, &queue_manager, credentials)?;
                let result = run_mqsc(&queue_manager, file.clone(), &mut |command| {
                    console.run(command)
                });
                console.close()?;
                result
            },
            |embedded| {
                run_mqsc(embedded.name(), file.clone(), &mut |command| {
                    mqsc::run_command(embedded, command)
                })
            },
        ),
        Command::Auth { action } => run_auth(action),
        Command::Put {
            queue_manager,
            queue,
            count,
            size,
            persistent,
            syncpoint,
            echo,
            remote,
        } => {
            let options = PutOptions {
                count,
                size,
                persistent,
                syncpoint,
                echo,
            };
            on_queue_manager(
                &queue_manager,
                &remote,
                credentials::Asker::Sample,
                |socket, credentials| {
                    client_put(&socket, &queue_manager, credentials, &queue, &options)
                },
                |embedded| put(embedded, &queue, &options),
            )
        }
        Command::Get {
            queue_manager,
            queue,
            wait,
            count,
            remote,
        } => on_queue_manager(
            &queue_manager,
            &remote,
            credentials::Asker::Sample,
            |socket, credentials| {
                client_get(&socket, &queue_manager, credentials, &queue, wait, count)
            },
            |embedded| get(embedded, &queue, wait, count),
        ),
        Command::Browse {
            queue_manager,
            queue,
            remote,
        } => on_queue_manager(
            &queue_manager,
            &remote,
            credentials::Asker::Sample,
            |socket, credentials| client_browse(&socket, &queue_manager, credentials, &queue),
            |embedded| browse(embedded, &queue),
        ),
        Command::Trigmon {
            queue_manager,
            initq,
            remote,
        } => trigger_monitor::run(&queue_manager, &initq, &remote),
        Command::Pageset(command) => utilities::page_set_command(command),
        Command::Log(command) => utilities::log_command(command),
        Command::User(command) => security::user_command(command),
        Command::Tls(command) => security::tls_command(command),
        Command::Stats(arguments) => run_stats(&arguments),
        Command::Plan(arguments) => run_plan(&arguments),
    }
}

fn create(
    name: &str,
    directory: &std::path::Path,
    group: Option<ferrite_storage::config::QueueSharingGroupParameters>,
) -> Result<(), String> {
    let mut config = QueueManagerConfig::with_defaults(name);
    config.queue_sharing_group = group.clone();
    config.validate().map_err(failure)?;
    let Some(group) = group else {
        return create_local(directory, &config);
    };
    // Before the group records a member that could not be made.
    if QueueManager::exists(&RealFileSystem, directory) {
        return Err(format!(
            "ferrite: queue manager {name} already exists in {} [reason 2100 MQRC_OBJECT_ALREADY_EXISTS]",
            directory.display()
        ));
    }
    let number = sharing::add_member(name, &group)?;
    if let Err(error) = create_local(directory, &config) {
        sharing::remove_member(name, &group);
        return Err(error);
    }
    println!(
        "Ferrite queue manager {name} is member {number} of queue sharing group {}",
        group.name
    );
    Ok(())
}

/// The queue manager's own directory: configuration, page sets, logs, default objects.
fn create_local(directory: &std::path::Path, config: &QueueManagerConfig) -> Result<(), String> {
    let progress = utilities::ProgressBars::new();
    QueueManager::create(
        Arc::new(RealFileSystem),
        directory,
        config,
        &mut |label, done, total| progress.update(label, done, total),
    )
    .map_err(failure)?;
    progress.finish();
    // The default objects a queue manager has from the start.
    let lock = process::QueueManagerLock::acquire(directory)
        .map_err(|error| format!("ferrite: {error}"))?;
    let queue_manager =
        QueueManager::open(Arc::new(RealFileSystem), directory, Arc::new(|_: &str| {}))
            .map_err(failure)?;
    ferrite_command::define_default_objects(&queue_manager)
        .map_err(|error| format!("ferrite: cannot define the default objects: {error}"))?;
    queue_manager.shutdown().map_err(failure)?;
    drop(lock);
    Ok(())
}

/// The MQSC console: commands from a file, stdin or an interactive prompt, each run by
/// `runner` (in-process, or through the command server of a running queue manager).
fn run_mqsc(
    name: &str,
    file: Option<PathBuf>,
    runner: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<(), String> {
    let mut text = String::new();
    let interactive = file.is_none() && is_terminal_stdin();
    if let Some(path) = &file {
        text = std::fs::read_to_string(path)
            .map_err(|error| format!("ferrite: cannot read {}: {error}", path.display()))?;
    } else if !interactive {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|error| format!("ferrite: stdin: {error}"))?;
    }
    let mut failures = 0;
    let mut run_one = |command: &str| {
        let command = command.trim();
        if command.is_empty() || command.starts_with('*') {
            return;
        }
        println!("{command}");
        match runner(command) {
            Ok(output) => println!("{output}"),
            Err(output) => {
                failures += 1;
                println!("{output}");
            }
        }
    };
    if interactive {
        println!("Starting MQSC for queue manager {name}. End with END or Ctrl-D.");
        // Line editing, with the history kept across sessions in $FERRITE_HOME/mqsc_history.
        let history = process::home().ok().map(|home| home.join("mqsc_history"));
        let mut editor = rustyline::DefaultEditor::new()
            .map_err(|error| format!("ferrite: cannot start the console: {error}"))?;
        if let Some(history) = &history {
            let _ = editor.load_history(history);
        }
        let mut pending = String::new();
        loop {
            let prompt = if pending.is_empty() {
                format!("{name}> ")
            } else {
                "   ...> ".to_string()
            };
            let line = match editor.readline(&prompt) {
                Ok(line) => line,
                Err(rustyline::error::ReadlineError::Interrupted) => {
                    pending.clear();
                    continue;
                }
                Err(_) => break,
            };
            if pending.is_empty() && line.trim().eq_ignore_ascii_case("END") {
                break;
            }
            if add_line(&mut pending, &line) {
                continue;
            }
            let command = std::mem::take(&mut pending);
            if !command.trim().is_empty() {
                let _ = editor.add_history_entry(command.trim());
            }
            run_one(&command);
        }
        if let Some(history) = &history {
            let _ = editor.save_history(history);
        }
    } else {
        for command in join_continuations(&text) {
            run_one(&command);
        }
    }
    if failures > 0 {
        return Err(format!("ferrite: {failures} MQSC commands failed"));
    }
    Ok(())
}

/// Adds `line` to the MQSC command in `pending`: true when it ends in '+' or '-', the
/// continuation characters (the command goes on on the next line; a blank stands for them).
fn add_line(pending: &mut String, line: &str) -> bool {
    let trimmed = line.trim_end();
    if let Some(stripped) = trimmed
        .strip_suffix('+')
        .or_else(|| trimmed.strip_suffix('-'))
    {
        pending.push_str(stripped);
        pending.push(' ');
        true
    } else {
        pending.push_str(trimmed);
        false
    }
}

/// MQSC continuation: a line ending in '+' or '-' continues on the next.
fn join_continuations(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if !add_line(&mut current, line) {
            commands.push(std::mem::take(&mut current));
        }
    }
    if !current.trim().is_empty() {
        commands.push(current);
    }
    commands
}

fn is_terminal_stdin() -> bool {
    // SAFETY: isatty only inspects the file descriptor.
    unsafe { libc::isatty(0) == 1 }
}

fn unknown_queue(queue: &str) -> String {
    format!("ferrite: queue {queue} does not exist [reason 2085 MQRC_UNKNOWN_OBJECT_NAME]")
}

/// Puts one message of the put sample: its number and its data.
type PutOne<'a> = dyn FnMut(u64, &[u8]) -> Result<(), String> + 'a;

/// The messages of the put sample: `count` generated messages of `size` bytes (at least 10),
/// each starting with its number in 10 digits, or one message per line of stdin. Returns how
/// many were passed to `put_one`.
fn for_each_message(
    count: Option<u64>,
    size: usize,
    put_one: &mut PutOne<'_>,
) -> Result<u64, String> {
    let mut total = 0u64;
    match count {
        Some(count) => {
            let mut data = vec![b'F'; size.max(10)];
            for number in 0..count {
                let digits = format!("{number:010}");
                data[..10].copy_from_slice(digits.as_bytes());
                put_one(number, &data)?;
                total += 1;
            }
        }
        None => {
            for line in std::io::stdin().lock().lines() {
                let line = line.map_err(|error| format!("ferrite: stdin: {error}"))?;
                put_one(total, line.as_bytes())?;
                total += 1;
            }
        }
    }
    Ok(total)
}

struct PutOptions {
    count: Option<u64>,
    size: usize,
    persistent: bool,
    syncpoint: u64,
    echo: bool,
}

/// The message numbers committed (or put outside a unit) since the last call: printed one a
/// line with --echo, else forgotten.
fn acknowledge(echo: bool, numbers: &mut Vec<u64>) {
    if echo {
        let mut out = std::io::stdout().lock();
        for number in numbers.drain(..) {
            let _ = writeln!(out, "{number}");
        }
        let _ = out.flush();
    } else {
        numbers.clear();
    }
}

fn put(queue_manager: &Arc<QueueManager>, queue: &str, options: &PutOptions) -> Result<(), String> {
    let PutOptions {
        count,
        size,
        persistent,
        syncpoint,
        echo,
    } = *options;
    let queue = queue_manager
        .queue(queue)
        .ok_or_else(|| unknown_queue(queue))?;
    let mut unit = UnitOfWork::new();
    let mut in_unit = 0u64;
    let mut uncommitted: Vec<u64> = Vec::new();
    let (default_persistent, default_priority) = queue
        .with_definition(|definition| (definition.default_persistent, definition.default_priority));
    let mut put_one = |number: u64, data: &[u8]| -> Result<(), String> {
        let descriptor = MessageDescriptor {
            persistent: persistent || default_persistent,
            priority: default_priority,
            message_id: new_message_id(),
            put_time_ms: ferrite_queue_manager::now_ms(),
            ..MessageDescriptor::default()
        };
        uncommitted.push(number);
        if syncpoint == 0 {
            queue_manager
                .put(None, &queue, &descriptor, data)
                .map_err(failure)?;
            acknowledge(echo, &mut uncommitted);
        } else {
            queue_manager
                .put(Some(&mut unit), &queue, &descriptor, data)
                .map_err(failure)?;
            in_unit += 1;
            if in_unit == syncpoint {
                queue_manager.commit(&mut unit).map_err(failure)?;
                acknowledge(echo, &mut uncommitted);
                in_unit = 0;
            }
        }
        Ok(())
    };
    let total = for_each_message(count, size, &mut put_one)?;
    queue_manager.commit(&mut unit).map_err(failure)?;
    acknowledge(echo, &mut uncommitted);
    eprintln!("{total} messages put to {}", queue.name());
    Ok(())
}

fn get(
    queue_manager: &Arc<QueueManager>,
    queue: &str,
    wait: u64,
    count: Option<u64>,
) -> Result<(), String> {
    let queue = queue_manager
        .queue(queue)
        .ok_or_else(|| unknown_queue(queue))?;
    let mut got = 0u64;
    while count.is_none_or(|count| got < count) {
        let wait = (wait > 0).then(|| Duration::from_millis(wait));
        match queue_manager
            .get(None, &queue, &MessageSelector::default(), wait)
            .map_err(failure)?
        {
            Some(message) => {
                print_line(&String::from_utf8_lossy(&message.data));
                got += 1;
            }
            None => break,
        }
    }
    if got == 0 {
        return Err(
            "ferrite: no message available [reason 2033 MQRC_NO_MSG_AVAILABLE]".to_string(),
        );
    }
    Ok(())
}

fn browse(queue_manager: &Arc<QueueManager>, queue: &str) -> Result<(), String> {
    let queue = queue_manager
        .queue(queue)
        .ok_or_else(|| unknown_queue(queue))?;
    let mut after = None;
    let mut index = 0;
    while let Some(message) = queue_manager
        .browse(&queue, &MessageSelector::default(), after)
        .map_err(failure)?
    {
        index += 1;
        println!(
            "Message {index}: MsgId X'{}' CorrelId X'{}' Priority {} Persistence {} BackoutCount {} Length {}",
            hex(&message.descriptor.message_id),
            hex(&message.descriptor.correlation_id),
            message.descriptor.priority,
            message.descriptor.persistent as u8,
            message.backout_count,
            message.data.len()
        );
        println!("  {}", String::from_utf8_lossy(&message.data));
        after = Some(message.key);
    }
    if index == 0 {
        println!("No more messages");
    }
    Ok(())
}

// ----- MQSC through the command server of a running queue manager ----------------------------

/// The queue the console's replies come back on (MQ for z/OS's CSQUTIL uses a model queue of
/// this name; here it is a local queue, and each console takes its own replies by CorrelId).
pub const MQSC_REPLY_QUEUE: &str = "SYSTEM.MQSC.REPLY.QUEUE";
/// How long the console waits for the command server's first reply.
const MQSC_REPLY_WAIT_MS: i32 = 60_000;

/// A console connected through the bindings socket: puts each command on
/// SYSTEM.COMMAND.INPUT and gets the command server's replies by CorrelId.
struct RemoteConsole {
    connection: ferrite_client::Connection,
    command_queue: Hobj,
    reply_queue: Hobj,
}

impl RemoteConsole {
    fn connect(
        socket: &Endpoint,
        name: &str,
        credentials: Option<&Mqcsp>,
    ) -> Result<RemoteConsole, String> {
        let (mut connection, command_queue) = client_open(
            socket,
            name,
            credentials,
            "SYSTEM.COMMAND.INPUT",
            MQOO_OUTPUT,
        )?;
        let reply_queue = connection
            .open(
                &mut Mqod::queue(MQSC_REPLY_QUEUE),
                MQOO_INPUT_SHARED | MQOO_FAIL_IF_QUIESCING,
            )
            .map_err(|e| mq_failure("MQOPEN", e))?;
        Ok(RemoteConsole {
            connection,
            command_queue,
            reply_queue,
        })
    }

    fn run(&mut self, command: &str) -> Result<String, String> {
        let mut md = Mqmd {
            reply_to_q: MQSC_REPLY_QUEUE.into(),
            format: *b"MQSTR   ",
            msg_type: ferrite_constants::message_type::MQMT_REQUEST,
            ..Mqmd::default()
        };
        let mut pmo =
            Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID | MQPMO_FAIL_IF_QUIESCING);
        self.connection
            .put(self.command_queue, &mut md, &mut pmo, command.as_bytes())
            .map_err(|e| mq_failure("MQPUT", e))?;
        let correlation = md.msg_id;
        let mut replies: Vec<String> = Vec::new();
        let mut expected = 1usize;
        let mut success = true;
        let mut buffer = vec![0u8; 256 * 1024];
        while replies.len() < expected {
            let mut reply = Mqmd {
                correl_id: correlation,
                ..Mqmd::default()
            };
            let mut gmo =
                Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING);
            gmo.version = 2;
            gmo.match_options = ferrite_constants::match_options::MQMO_MATCH_CORREL_ID;
            gmo.wait_interval = MQSC_REPLY_WAIT_MS;
            let result = self
                .connection
                .get(self.reply_queue, &mut reply, &mut gmo, &mut buffer)
                .map_err(|error| {
                    if error.reason == MQRC_NO_MSG_AVAILABLE {
                        "ferrite: the command server did not reply within 60 s [reason 2033 MQRC_NO_MSG_AVAILABLE]".to_string()
                    } else {
                        mq_failure("MQGET", error)
                    }
                })?;
            let text = String::from_utf8_lossy(&buffer[..result.returned_length]).to_string();
            if replies.is_empty() {
                // CSQN205I COUNT=n, RETURN=rrrrrrrr, REASON=ssssssss: n replies in all.
                expected = text
                    .split("COUNT=")
                    .nth(1)
                    .and_then(|rest| rest.split(',').next())
                    .and_then(|count| count.trim().parse().ok())
                    .unwrap_or(1);
                success = text.contains("RETURN=00000000");
            }
            replies.push(text);
        }
        let output = replies[1..].join("\n");
        if success {
            Ok(output)
        } else {
            Err(output)
        }
    }

    fn close(self) -> Result<(), String> {
        self.connection
            .disconnect()
            .map_err(|e| mq_failure("MQDISC", e))
    }
}

// ----- put/get/browse through the bindings socket of a running queue manager ---------------

/// How a command reaches a running queue manager.
#[derive(Clone, Debug)]
enum Endpoint {
    /// The bindings socket of a local queue manager.
    Bindings(PathBuf),
    /// Client mode: a listener at `address` (HOST:PORT) through `channel`.
    Client { address: String, channel: String },
}

impl Endpoint {
    /// MQCONNX to queue manager `name`, with `credentials` in MQCNO's MQCSP when given;
    /// a failure is reported with [`credentials::connect_failure`].
    fn connect(
        &self,
        name: &str,
        credentials: Option<&Mqcsp>,
    ) -> Result<ferrite_client::Connection, String> {
        let cno = credentials::connect_options(credentials);
        match self {
            Endpoint::Bindings(socket) => {
                ferrite_client::Connection::connect_with(socket, name, &cno)
            }
            Endpoint::Client { address, channel } => ferrite_client::Connection::connect_client(
                address,
                channel,
                name,
                &cno,
                &ferrite_client::ClientOptions::default(),
            ),
        }
        .map_err(|error| credentials::connect_failure(error, credentials))
    }
}

/// `HOST(PORT)` (MQ's CONNAME) or `HOST:PORT` as `HOST:PORT`.
fn socket_address(connection_name: &str) -> Result<String, String> {
    let text = connection_name.trim();
    if let Some((host, rest)) = text.split_once('(') {
        let port = rest.trim_end_matches(')');
        if port.parse::<u16>().is_ok() && !host.is_empty() {
            return Ok(format!("{host}:{port}"));
        }
    } else if let Some((host, port)) = text.rsplit_once(':') {
        if port.parse::<u16>().is_ok() && !host.is_empty() {
            return Ok(text.to_string());
        }
    }
    Err(format!(
        "ferrite: '{connection_name}' is not HOST:PORT or HOST(PORT) [reason 2538 MQRC_HOST_NOT_AVAILABLE]"
    ))
}

/// Where a command on `name` connects: a remote listener (--client, or MQSERVER), the
/// bindings socket of `name` when it runs here (once it serves, if it is starting), or `None`
/// when it is stopped (the commands then open it in-process).
fn endpoint(name: &str, remote: &RemoteArguments) -> Result<Option<Endpoint>, String> {
    if let Some(address) = &remote.client {
        return Ok(Some(Endpoint::Client {
            address: socket_address(address)?,
            channel: remote.channel.clone(),
        }));
    }
    if let Ok(server) = std::env::var("MQSERVER") {
        // CHANNEL/TCP/HOST(PORT)
        let parts: Vec<&str> = server.splitn(3, '/').collect();
        if parts.len() != 3 || !parts[1].eq_ignore_ascii_case("TCP") {
            return Err(format!(
                "ferrite: MQSERVER '{server}' is not CHANNEL/TCP/HOST(PORT) [reason 2058 MQRC_Q_MGR_NAME_ERROR]"
            ));
        }
        return Ok(Some(Endpoint::Client {
            address: socket_address(parts[2])?,
            channel: parts[0].to_string(),
        }));
    }
    let directory = process::queue_manager_directory(name)?;
    if !QueueManager::exists(&RealFileSystem, &directory) {
        return Err(format!(
            "ferrite: queue manager {name} does not exist [reason 2058 MQRC_Q_MGR_NAME_ERROR]"
        ));
    }
    Ok(process::wait_until_serving(name, &directory)?
        .then(|| Endpoint::Bindings(directory.join("qm.sock"))))
}

fn mq_failure(call: &str, error: MqError) -> String {
    format!(
        "ferrite: {call} failed with MQCC={} [reason {} {}]",
        error.completion_code,
        error.reason,
        error.reason_name()
    )
}

fn client_open(
    socket: &Endpoint,
    name: &str,
    credentials: Option<&Mqcsp>,
    queue: &str,
    options: i32,
) -> Result<(ferrite_client::Connection, Hobj), String> {
    let mut connection = socket.connect(name, credentials)?;
    let hobj = connection
        .open(&mut Mqod::queue(queue), options | MQOO_FAIL_IF_QUIESCING)
        .map_err(|error| {
            if error.reason == MQRC_UNKNOWN_OBJECT_NAME {
                unknown_queue(queue)
            } else {
                mq_failure("MQOPEN", error)
            }
        })?;
    Ok((connection, hobj))
}

/// `put` through the bindings socket (amqsput as a client): same messages, same output.
fn client_put(
    socket: &Endpoint,
    name: &str,
    credentials: Option<&Mqcsp>,
    queue: &str,
    options: &PutOptions,
) -> Result<(), String> {
    let PutOptions {
        count,
        size,
        persistent,
        syncpoint,
        echo,
    } = *options;
    let (mut connection, hobj) = client_open(socket, name, credentials, queue, MQOO_OUTPUT)?;
    let mut in_unit = 0u64;
    let mut uncommitted: Vec<u64> = Vec::new();
    let put_options = if syncpoint == 0 {
        MQPMO_NO_SYNCPOINT
    } else {
        MQPMO_SYNCPOINT
    } | MQPMO_FAIL_IF_QUIESCING;
    let mut put_one = |connection: &mut ferrite_client::Connection,
                       number: u64,
                       data: &[u8]|
     -> Result<(), String> {
        let mut md = Mqmd {
            persistence: if persistent {
                MQPER_PERSISTENT
            } else {
                MQPER_PERSISTENCE_AS_Q_DEF
            },
            ..Mqmd::default()
        };
        uncommitted.push(number);
        connection
            .put(hobj, &mut md, &mut Mqpmo::with_options(put_options), data)
            .map_err(|e| mq_failure("MQPUT", e))?;
        if syncpoint == 0 {
            acknowledge(echo, &mut uncommitted);
        } else {
            in_unit += 1;
            if in_unit == syncpoint {
                connection.commit().map_err(|e| mq_failure("MQCMIT", e))?;
                acknowledge(echo, &mut uncommitted);
                in_unit = 0;
            }
        }
        Ok(())
    };
    let total = for_each_message(count, size, &mut |number, data| {
        put_one(&mut connection, number, data)
    })?;
    connection.commit().map_err(|e| mq_failure("MQCMIT", e))?;
    acknowledge(echo, &mut uncommitted);
    connection
        .disconnect()
        .map_err(|e| mq_failure("MQDISC", e))?;
    eprintln!("{total} messages put to {queue}");
    Ok(())
}

/// `get` through the bindings socket (amqsget as a client).
fn client_get(
    socket: &Endpoint,
    name: &str,
    credentials: Option<&Mqcsp>,
    queue: &str,
    wait: u64,
    count: Option<u64>,
) -> Result<(), String> {
    let (mut connection, hobj) =
        client_open(socket, name, credentials, queue, MQOO_INPUT_AS_Q_DEF)?;
    let mut buffer = vec![0u8; 64 * 1024];
    let mut got = 0u64;
    while count.is_none_or(|count| got < count) {
        let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING);
        if wait > 0 {
            gmo.options |= MQGMO_WAIT;
            gmo.wait_interval = wait.min(i32::MAX as u64) as i32;
        }
        match connection.get(hobj, &mut Mqmd::default(), &mut gmo, &mut buffer) {
            Ok(result) => {
                print_line(&String::from_utf8_lossy(&buffer[..result.returned_length]));
                got += 1;
            }
            Err(error) if error.reason == MQRC_TRUNCATED_MSG_FAILED => {
                let length = error.data_length.unwrap_or(buffer.len() * 2);
                buffer.resize(length.max(buffer.len() + 1), 0);
            }
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
            Err(error) => return Err(mq_failure("MQGET", error)),
        }
    }
    connection
        .disconnect()
        .map_err(|e| mq_failure("MQDISC", e))?;
    if got == 0 {
        return Err(
            "ferrite: no message available [reason 2033 MQRC_NO_MSG_AVAILABLE]".to_string(),
        );
    }
    Ok(())
}

/// `browse` through the bindings socket (amqsbcg as a client).
fn client_browse(
    socket: &Endpoint,
    name: &str,
    credentials: Option<&Mqcsp>,
    queue: &str,
) -> Result<(), String> {
    let (mut connection, hobj) = client_open(socket, name, credentials, queue, MQOO_BROWSE)?;
    let mut buffer = vec![0u8; 64 * 1024];
    let mut position = MQGMO_BROWSE_FIRST;
    let mut index = 0;
    loop {
        let mut md = Mqmd::default();
        let mut gmo = Mqgmo::with_options(position | MQGMO_ACCEPT_TRUNCATED_MSG);
        let mut result = match connection.get(hobj, &mut md, &mut gmo, &mut buffer) {
            Ok(result) => result,
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
            Err(error) => return Err(mq_failure("MQGET", error)),
        };
        if result.returned_length < result.data_length {
            // Longer than the buffer: browse the same message again with room for it.
            buffer.resize(result.data_length, 0);
            md = Mqmd::default();
            gmo = Mqgmo::with_options(MQGMO_BROWSE_MSG_UNDER_CURSOR | MQGMO_ACCEPT_TRUNCATED_MSG);
            result = connection
                .get(hobj, &mut md, &mut gmo, &mut buffer)
                .map_err(|e| mq_failure("MQGET", e))?;
        }
        index += 1;
        println!(
            "Message {index}: MsgId X'{}' CorrelId X'{}' Priority {} Persistence {} BackoutCount {} Length {}",
            hex(&md.msg_id),
            hex(&md.correl_id),
            md.priority,
            md.persistence,
            md.backout_count,
            result.data_length
        );
        println!(
            "  {}",
            String::from_utf8_lossy(&buffer[..result.returned_length])
        );
        position = MQGMO_BROWSE_NEXT;
    }
    if index == 0 {
        println!("No more messages");
    }
    connection.disconnect().map_err(|e| mq_failure("MQDISC", e))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02X}")).collect()
}

/// A message id unique in this queue manager's life: "FRT " + time + counter, as MQ builds
/// its ids from the queue manager name and a clock.
fn new_message_id() -> [u8; 24] {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut id = [0u8; 24];
    id[..4].copy_from_slice(b"FRT ");
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    id[4..12].copy_from_slice(&nanos.to_be_bytes());
    id[12..16].copy_from_slice(&std::process::id().to_be_bytes());
    id[16..24].copy_from_slice(&COUNTER.fetch_add(1, Ordering::Relaxed).to_be_bytes());
    id
}

/// `ferrite stats` (statistics.rs): close the interval if asked, then print the intervals.
fn run_stats(arguments: &StatsArguments) -> Result<(), String> {
    let name = &arguments.queue_manager;
    let directory = process::queue_manager_directory(name)?;
    if !QueueManager::exists(&RealFileSystem, &directory) {
        return Err(format!(
            "ferrite: queue manager {name} does not exist [reason 2058 MQRC_Q_MGR_NAME_ERROR]"
        ));
    }
    let Some(seconds) = arguments.watch else {
        if arguments.now {
            close_statistics_interval(arguments)?;
        }
        return print_statistics(arguments, &directory);
    };
    if !(1..=statistics::WATCH_SECONDS_MAX).contains(&seconds) {
        return Err(format!(
            "ferrite: --watch {seconds} is outside 1-{} seconds",
            statistics::WATCH_SECONDS_MAX
        ));
    }
    loop {
        std::thread::sleep(Duration::from_secs(seconds));
        close_statistics_interval(arguments)?;
        print_statistics(arguments, &directory)?;
    }
}

/// A day, in milliseconds (`ferrite stats --svg`'s default span).
const DAY_MS: u64 = 86_400_000;

/// RESET QMGR TYPE(STATISTICS) on the running queue manager.
fn close_statistics_interval(arguments: &StatsArguments) -> Result<(), String> {
    let name = &arguments.queue_manager;
    let remote = RemoteArguments {
        client: None,
        channel: "SYSTEM.DEF.SVRCONN".to_string(),
        user: arguments.user.clone(),
    };
    let Some(socket) = endpoint(name, &remote)? else {
        return Err(format!(
            "ferrite: queue manager {name} is not running: --now and --watch close a running \
             queue manager's interval [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"
        ));
    };
    let credentials = credentials::read(&remote, credentials::Asker::Console)?;
    let mut console = RemoteConsole::connect(&socket, name, credentials.as_ref())?;
    let result = console.run("RESET QMGR TYPE(STATISTICS)");
    console.close()?;
    result.map(|_| ())
}

/// Print the chosen intervals of the statistics file in `directory`.
fn print_statistics(arguments: &StatsArguments, directory: &std::path::Path) -> Result<(), String> {
    let intervals = statistics::read_intervals(directory)?;
    if intervals.is_empty() {
        return Err(format!(
            "ferrite: {} has no statistics records yet: they are written every STATIME minutes, \
             or now with `ferrite stats {} --now` while it runs",
            arguments.queue_manager, arguments.queue_manager
        ));
    }
    let wanted = if arguments.all {
        intervals.len()
    } else if let (Some(_), None) = (&arguments.svg, arguments.last) {
        // A chart's default: the day that ends with the latest interval.
        let end = intervals.last().map_or(0, |interval| interval.end_ms);
        intervals
            .iter()
            .filter(|interval| interval.end_ms + DAY_MS > end)
            .count()
    } else {
        arguments.last.unwrap_or(1).max(1)
    };
    let chosen = &intervals[intervals.len().saturating_sub(wanted)..];
    if let Some(svg) = &arguments.svg {
        std::fs::write(svg, statistics_plot::svg(chosen))
            .map_err(|error| format!("ferrite: cannot write {}: {error}", svg.display()))?;
        println!("{}", svg.display());
        return Ok(());
    }
    if let Some(csv) = &arguments.csv {
        for path in statistics::write_csv(chosen, csv)? {
            println!("{}", path.display());
        }
        return Ok(());
    }
    for interval in chosen {
        if arguments.json {
            for record in &interval.records {
                println!("{record}");
            }
        } else {
            println!("{}", statistics::report(interval));
        }
    }
    Ok(())
}

/// `ferrite plan` (plan.rs).
fn run_plan(arguments: &PlanArguments) -> Result<(), String> {
    if !(arguments.log_mb_per_second > 0.0
        && arguments.log_read_mb_per_second > 0.0
        && arguments.restart_goal > 0.0)
    {
        return Err("ferrite: --log-mb-per-second, --log-read-mb-per-second and --restart-goal must be positive".to_string());
    }
    let config = match &arguments.queue_manager {
        Some(name) => {
            let directory = process::queue_manager_directory(name)?;
            let path = directory.join(ferrite_storage::config::CONFIG_FILE_NAME);
            let text = std::fs::read_to_string(&path).map_err(|error| {
                format!(
                    "ferrite: queue manager {name}: cannot read {}: {error} [reason 2058 MQRC_Q_MGR_NAME_ERROR]",
                    path.display()
                )
            })?;
            Some((
                directory,
                QueueManagerConfig::from_toml(&text).map_err(failure)?,
            ))
        }
        None => None,
    };
    let workload = match (arguments.messages_per_second, &config) {
        (Some(rate), _) if rate >= 0.0 && rate.is_finite() => plan::Workload {
            messages_per_second: rate,
            message_bytes: arguments.size,
            persistent: arguments.persistent,
            messages_per_commit: arguments.messages_per_commit.max(1),
            depth: arguments.depth,
            measured_log_bytes: None,
        },
        (Some(rate), _) => return Err(format!("ferrite: --messages-per-second {rate} is not a rate")),
        (None, Some((directory, _))) => {
            let intervals = statistics::read_intervals(directory)?;
            let busiest = intervals
                .iter()
                .max_by_key(|interval| {
                    interval.record("QMST").map_or(0, |qmst| {
                        (statistics::count(qmst, "PersPuts") + statistics::count(qmst, "NonPersPuts"))
                            * 1000
                            / (interval.end_ms.saturating_sub(interval.start_ms).max(1))
                    })
                })
                .ok_or("ferrite: no statistics records to plan from: run the workload, then `ferrite stats QM --now`, or describe it with --messages-per-second")?;
            let workload = plan::measured_workload(busiest, arguments.model)?;
            println!(
                "Workload measured {}: {:.1} messages/s of {} bytes, {}, {} per commit; the application page sets' used pages hold about {} such messages\n",
                busiest.records[0]["Interval_End"].as_str().unwrap_or("?"),
                workload.messages_per_second,
                workload.message_bytes,
                if workload.persistent { "persistent" } else { "non-persistent" },
                workload.messages_per_commit,
                workload.depth
            );
            workload
        }
        (None, None) => {
            return Err("ferrite: name a queue manager to plan from its statistics, or describe the workload with --messages-per-second".to_string())
        }
    };
    let resources = plan::Resources {
        log_device_mb_per_second: arguments.log_mb_per_second,
        log_read_mb_per_second: arguments.log_read_mb_per_second,
        restart_goal_seconds: arguments.restart_goal,
        dual_logging: arguments.dual
            || config
                .as_ref()
                .is_some_and(|(_, config)| config.log.twoactv),
        archive_copies: arguments.archive_copies,
    };
    let plan = plan::plan(&workload, &resources, arguments.model);
    print!("{}", plan::render(&plan));
    if let (true, Some((_, config))) = (arguments.check, &config) {
        println!("Check of {}'s configuration", config.name);
        let findings = plan::check(config, &plan);
        for finding in &findings {
            println!(
                "  {} {}",
                if finding.ok { "ok" } else { "!!" },
                finding.text
            );
        }
        if findings.iter().any(|finding| !finding.ok) {
            return Err(format!(
                "ferrite: {}'s configuration falls short of the plan",
                config.name
            ));
        }
    }
    Ok(())
}
