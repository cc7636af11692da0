//! The channel initiator: client connections over TCP through server-connection (SVRCONN)
//! channels, speaking IBM MQ's client protocol, so that IBM's own MQ classes for Java and JMS
//! (and Ferrite's client) connect unmodified.
//!
//! - [`ChannelInitiator`]: the TCP listener (default port 1414) and the registry of running
//!   channel instances (one per socket), with their counters for DISPLAY CHSTATUS.
//! - [`crate::dispatcher`]: CHIDISPS dispatcher threads own the sockets (epoll); each accepted
//!   socket goes to the dispatcher serving the fewest.
//! - [`crate::channel`]: one socket: INITIAL_DATA negotiation against the SVRCONN channel's
//!   definition (MAXMSGL, HBINT, SHARECNV), heartbeats, DISCINT, conversations starting and
//!   ending, the socket's output.
//! - [`crate::channel_conversation`]: one conversation (one per TSHM ConversationId when
//!   sharing conversations, SHARECNV > 0): its MQI calls ([`crate::session::MqiSession`]),
//!   waiting MQGETs and asynchronous consumers.
//! - [`crate::adapter`]: CHIADAPS adapter threads run the MQI calls that may wait (MQCONN,
//!   MQOPEN, MQDISC, a backout or a put outside syncpoint of persistent work waiting for the
//!   log); a waiting MQGET or idle consumer holds no thread (it leaves an arrival watch on its
//!   queue), and neither does an MQCMIT waiting for the log (the log's notice hands the
//!   conversation back to its dispatcher once the commit is durable).
//! - [`crate::local_work`]: every other call runs on the dispatcher that read it, and a
//!   getter its put satisfies runs next on the same thread; replies leave in one write per
//!   socket per turn.
//!
//! Threads: one accept thread, CHIDISPS dispatchers, CHIADAPS adapters and one timer, however
//! many sockets and conversations there are. A flow that an MQI call answers at once crosses
//! no thread: the dispatcher that read it writes the reply.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::unix::io::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use crate::adapter::{AdapterPool, Timer};
use crate::dispatcher::Dispatcher;
use crate::message_channel::sender_mca::{SenderMca, StopMode};

use ferrite_queue_manager::QueueManager;

use ferrite_command::ChannelInstanceStatus;

use crate::MessageSink;

/// MQ's default listener port.
pub const DEFAULT_PORT: u16 = 1414;
/// Sockets (channel instances) served at once unless configured otherwise (z/OS MAXCHL).
pub const MAX_CHANNELS_DEFAULT: usize = 2048;
/// Stack size of the dispatcher, adapter and timer threads.
pub const CONVERSATION_STACK_BYTES: usize = 256 * 1024;
/// MQ's default CHIADAPS (MP16 ch. 3: 8 by default; 30 and more for heavy persistent
/// workloads, whose adapters wait for log writes).
pub const ADAPTERS_DEFAULT: usize = 8;
/// MQ's default CHIDISPS.
pub const DISPATCHERS_DEFAULT: usize = 5;
/// Adapters or dispatchers at most (MQ's range is 0 – 9,999; a thread each here).
pub const TASKS_MAX: usize = 9_999;
/// How long stopping the channel initiator waits for the adapters to end the conversations
/// (each backs out its unit of work) before it gives up on them.
pub const STOP_WAIT: Duration = Duration::from_secs(30);

/// Dispatchers for this machine when none are configured: MQ's CHIDISPS(5), but no more than
/// the processors (MP16: as few as possible without saturating any). A dispatcher runs the
/// MQI calls it reads, so it is busy while its clients are: fewer dispatchers find more flows
/// ready at each look at their sockets (fewer wake-ups), more keep serving while one is off
/// its processor (a preempted dispatcher holds up every socket it owns).
pub fn dispatchers_for_this_machine() -> usize {
    let processors = std::thread::available_parallelism().map_or(1, |count| count.get());
    DISPATCHERS_DEFAULT.min(processors).max(1)
}

/// The channel initiator's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelInitiatorConfig {
    /// Address the listener binds (127.0.0.1 unless configured; 0.0.0.0 to serve the network).
    pub address: IpAddr,
    /// TCP port; 0 picks a free one (see [`ChannelInitiator::local_address`]).
    pub port: u16,
    /// Channel instances (sockets) at once; more are refused.
    pub max_channels: usize,
    /// How long a socket may take from accept to a negotiated INITIAL_DATA.
    pub handshake_timeout: Duration,
    /// The largest segment agreed to.
    pub max_transmission_size: u32,
    /// CHIDISPS: dispatcher threads (own the sockets), 1 – [`TASKS_MAX`].
    pub dispatchers: usize,
    /// CHIADAPS: adapter threads (run MQI calls), 1 – [`TASKS_MAX`].
    pub adapters: usize,
    /// The key repository (MQ's SSLKEYR): a directory, relative to the queue manager's
    /// directory unless absolute, holding the TLS certificate and key (see `crate::tls`).
    pub ssl_key_repository: String,
}

impl Default for ChannelInitiatorConfig {
    fn default() -> ChannelInitiatorConfig {
        ChannelInitiatorConfig {
            address: IpAddr::from([127, 0, 0, 1]),
            port: DEFAULT_PORT,
            max_channels: MAX_CHANNELS_DEFAULT,
            handshake_timeout: Duration::from_secs(30),
            max_transmission_size: ferrite_protocol::wire::MAX_TRANSMISSION_SIZE,
            dispatchers: dispatchers_for_this_machine(),
            adapters: ADAPTERS_DEFAULT,
            ssl_key_repository: crate::tls::KEY_REPOSITORY_DEFAULT.to_string(),
        }
    }
}

/// A running channel instance (one socket) and its counters.
#[derive(Debug)]
pub struct ChannelInstance {
    /// Registry key.
    pub id: u64,
    /// The client's address.
    pub peer: SocketAddr,
    /// When the socket was accepted.
    pub started: SystemTime,
    pub(crate) channel_name: Mutex<String>,
    pub(crate) conversations: AtomicU32,
    pub(crate) max_conversations: AtomicU32,
    pub(crate) heartbeat_interval: AtomicU32,
    pub(crate) max_message_length: AtomicU32,
    pub(crate) messages: AtomicU64,
    pub(crate) bytes_received: AtomicU64,
    pub(crate) bytes_sent: AtomicU64,
    /// Milliseconds since the epoch of the last MQI call, 0 if none.
    pub(crate) last_message_ms: AtomicU64,
    pub(crate) stopping: AtomicBool,
    /// Conversations in an MQI call or waiting for messages (heartbeats flow only then).
    pub(crate) busy_conversations: AtomicU32,
    /// A RCVR channel's committed batches and last committed sequence number.
    pub(crate) batches: AtomicU64,
    pub(crate) last_sequence: AtomicU32,
    /// Whether the instance is a RCVR channel's (not a client's).
    pub(crate) receiver: AtomicBool,
    /// A RCVR channel's COMPHDR, COMPMSG, COMPRATE and COMPTIME.
    pub(crate) indicators: crate::message_channel::indicators::ChannelIndicators,
    /// A receiving channel's ACTCHL slot, held until the instance is forgotten.
    pub(crate) active_slot: Mutex<Option<crate::message_channel::active::ActiveSlot>>,
    socket: TcpStream,
}

impl ChannelInstance {
    /// What DISPLAY CHSTATUS shows of it.
    pub fn snapshot(&self) -> ChannelInstanceStatus {
        let last = self.last_message_ms.load(Ordering::Relaxed);
        ChannelInstanceStatus {
            channel: self.channel_name.lock().unwrap().clone(),
            connection_name: format!("{}({})", self.peer.ip(), self.peer.port()),
            status: if self.stopping.load(Ordering::Relaxed) {
                "STOPPING"
            } else {
                "RUNNING"
            }
            .to_string(),
            current_conversations: self.conversations.load(Ordering::Relaxed),
            max_shared_conversations: self.max_conversations.load(Ordering::Relaxed),
            messages: self.messages.load(Ordering::Relaxed),
            bytes_sent: self.bytes_sent.load(Ordering::Relaxed),
            bytes_received: self.bytes_received.load(Ordering::Relaxed),
            started: self.started,
            last_message: (last != 0).then(|| SystemTime::UNIX_EPOCH + Duration::from_millis(last)),
            heartbeat_interval: self.heartbeat_interval.load(Ordering::Relaxed),
            max_message_length: self.max_message_length.load(Ordering::Relaxed),
        }
    }

    /// The TCP keepalive idle time of the socket (KAINT), in seconds, as the system reports it.
    pub fn keepalive_idle_seconds(&self) -> Option<i32> {
        use std::os::unix::io::AsRawFd;
        let mut value: libc::c_int = 0;
        let mut length = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
        // SAFETY: reading an integer socket option into a variable we own.
        let result = unsafe {
            libc::getsockopt(
                self.socket.as_raw_fd(),
                libc::IPPROTO_TCP,
                libc::TCP_KEEPIDLE,
                &mut value as *mut libc::c_int as *mut libc::c_void,
                &mut length,
            )
        };
        (result == 0).then_some(value)
    }

    /// Ends the instance: its socket is shut down, its conversations end and their units of
    /// work are backed out.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::Release);
        let _ = self.socket.shutdown(Shutdown::Both);
    }

    pub(crate) fn note_message(&self) {
        self.messages.fetch_add(1, Ordering::Relaxed);
        let now = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(1, |since| since.as_millis() as u64);
        self.last_message_ms.store(now, Ordering::Relaxed);
    }
}

/// State the accept thread and the channel threads share.
pub(crate) struct ChinitShared {
    pub(crate) queue_manager: Arc<QueueManager>,
    pub(crate) config: ChannelInitiatorConfig,
    pub(crate) log: MessageSink,
    pub(crate) stopping: AtomicBool,
    instances: Mutex<HashMap<u64, Arc<ChannelInstance>>>,
    next_id: AtomicU64,
    pub(crate) adapters: Arc<AdapterPool>,
    pub(crate) timer: Arc<Timer>,
    dispatchers: Vec<Arc<Dispatcher>>,
    /// Conversations whose sessions are not dropped yet (and receiving MCA threads).
    pub(crate) live_conversations: AtomicUsize,
    /// Sending MCAs started by START CHANNEL, by channel name (ended ones until restarted).
    senders: Mutex<HashMap<String, Arc<SenderMca>>>,
    /// The thread serving SYSTEM.CHANNEL.INITQ (`message_channel::trigger`), if the queue
    /// exists.
    trigger_monitor: Mutex<Option<JoinHandle<()>>>,
    /// Message channels STOP CHANNEL left STOPPED (kept on SYSTEM.CHANNEL.SYNCQ, so a restart
    /// keeps them stopped until START CHANNEL).
    stopped: Mutex<std::collections::BTreeSet<String>>,
    /// ACTCHL's slots, held by active message channels.
    pub(crate) active_channels: Arc<crate::message_channel::active::ActiveChannels>,
}

impl ChinitShared {
    /// Running instances of channel `name`, in all and from `ip` (MAXINST, MAXINSTC). The
    /// instance asking counts itself once it has named its channel.
    pub(crate) fn instance_counts(&self, name: &str, ip: IpAddr) -> (u32, u32) {
        let instances = self.instances.lock().unwrap();
        let mut all = 0;
        let mut from_client = 0;
        for instance in instances.values() {
            if *instance.channel_name.lock().unwrap() == name {
                all += 1;
                if instance.peer.ip() == ip {
                    from_client += 1;
                }
            }
        }
        (all, from_client)
    }

    /// The STOPPED channels recorded on SYSTEM.CHANNEL.SYNCQ (none when it cannot be read:
    /// said in the log).
    fn load_stopped(&self) {
        let stopped = ferrite_mqi::Connection::connect(self.queue_manager.clone(), "").and_then(
            |mut connection| crate::message_channel::sync_queue::stopped_channels(&mut connection),
        );
        match stopped {
            Ok(names) => self.stopped.lock().unwrap().extend(names),
            Err(error) if error.reason == ferrite_constants::reason::MQRC_UNKNOWN_OBJECT_NAME => {}
            Err(error) => (self.log)(&format!(
                "ferrite channel initiator: the STOPPED channels on SYSTEM.CHANNEL.SYNCQ cannot be read: {error}"
            )),
        }
    }

    /// Whether STOP CHANNEL left channel `name` STOPPED.
    pub(crate) fn is_stopped(&self, name: &str) -> bool {
        self.stopped.lock().unwrap().contains(name)
    }

    /// Records channel `name` STOPPED (STOP CHANNEL) or not (START CHANNEL), on
    /// SYSTEM.CHANNEL.SYNCQ first.
    pub(crate) fn set_stopped(&self, name: &str, stopped: bool) -> Result<(), String> {
        use crate::message_channel::sync_queue::{RecordKind, SyncQueue, STOPPED_RECORD};
        if self.is_stopped(name) == stopped {
            return Ok(());
        }
        // Recorded (a persistent put or get and a commit) without holding the set, which
        // dispatchers read.
        let record = || -> ferrite_mqi::MqResult<()> {
            let mut connection = ferrite_mqi::Connection::connect(self.queue_manager.clone(), "")?;
            let sync = SyncQueue::open(&mut connection, name)?;
            if stopped {
                sync.replace(&mut connection, RecordKind::Stopped, STOPPED_RECORD)?;
            } else {
                sync.remove(&mut connection, RecordKind::Stopped)?;
            }
            connection.commit()
        };
        record().map_err(|error| format!("SYSTEM.CHANNEL.SYNCQ: {error}"))?;
        let mut set = self.stopped.lock().unwrap();
        if stopped {
            set.insert(name.to_string());
        } else {
            set.remove(name);
        }
        Ok(())
    }

    /// START CHANNEL ([`ChannelInitiator::start_channel`]; also the channel trigger monitor
    /// and a requester's callback). A STOPPED channel is started by START CHANNEL only.
    pub(crate) fn start_sender(&self, name: &str) -> Result<Arc<SenderMca>, String> {
        let channel = self
            .queue_manager
            .channel(name)
            .ok_or_else(|| format!("channel {name} is not defined"))?;
        if self.is_stopped(name) {
            return Err(format!(
                "channel {name} is STOPPED (AMQ9534E): START CHANNEL enables it"
            ));
        }
        let starts = channel.channel_type.sends()
            || channel.channel_type
                == ferrite_queue_manager::objects::message_channel::ChannelType::Requester;
        if !starts || channel.message.connection_names.is_empty() {
            return Err(format!(
                "channel {name} is CHLTYPE({}) without a CONNAME to start from this queue manager",
                channel.channel_type.keyword()
            ));
        }
        let mut senders = self.senders.lock().unwrap();
        if senders.get(name).is_some_and(|sender| !sender.ended()) {
            return Err(format!("channel {name} is already running"));
        }
        let sender = SenderMca::start(
            self.queue_manager.clone(),
            channel,
            self.log.clone(),
            self.key_repository(),
            self.active_channels.clone(),
        )
        .map_err(|error| format!("cannot start the channel's MCA: {error}"))?;
        senders.insert(name.to_string(), sender.clone());
        Ok(sender)
    }

    /// The queue manager's key repository (SSLKEYR).
    pub(crate) fn key_repository(&self) -> std::path::PathBuf {
        crate::tls::key_repository(
            self.queue_manager.directory(),
            &self.config.ssl_key_repository,
        )
    }

    /// Whether the MCA of channel `name` started from this end (or requested) is running.
    pub(crate) fn sender_running(&self, name: &str) -> bool {
        self.senders
            .lock()
            .unwrap()
            .get(name)
            .is_some_and(|sender| !sender.ended())
    }

    /// A requester connected and asked SVR channel `channel` to send on `stream`.
    pub(crate) fn start_requested_server(
        &self,
        channel: ferrite_queue_manager::ChannelDefinition,
        stream: ferrite_protocol::transport::Stream,
        partner: String,
    ) -> Result<Arc<SenderMca>, String> {
        let name = channel.name.clone();
        let mut senders = self.senders.lock().unwrap();
        if senders.get(&name).is_some_and(|sender| !sender.ended()) {
            return Err(format!("channel {name} is already running"));
        }
        let sender = SenderMca::start_requested(
            self.queue_manager.clone(),
            channel,
            self.log.clone(),
            stream,
            partner,
            self.active_channels.clone(),
        )
        .map_err(|error| format!("cannot start the channel's MCA: {error}"))?;
        senders.insert(name, sender.clone());
        Ok(sender)
    }

    /// The instance's socket has closed.
    pub(crate) fn forget_instance(&self, id: u64) {
        if let Some(instance) = self.instances.lock().unwrap().remove(&id) {
            instance.active_slot.lock().unwrap().take();
        }
    }

    /// ACTCHL now.
    pub(crate) fn active_channel_limit(&self) -> u32 {
        self.queue_manager
            .queue_manager_attributes()
            .active_channels
    }
}

/// The channel initiator: a TCP listener (which START/STOP LISTENER start and stop) and its
/// channel instances. Stop it with [`ChannelInitiator::stop`] before the queue manager shuts
/// down.
pub struct ChannelInitiator {
    shared: Arc<ChinitShared>,
    listener: Mutex<Option<RunningListener>>,
}

/// A listening socket and its accept thread.
struct RunningListener {
    local_address: SocketAddr,
    started: SystemTime,
    stop: Arc<AtomicBool>,
    accept_thread: JoinHandle<()>,
}

impl RunningListener {
    fn stop(self) {
        self.stop.store(true, Ordering::Release);
        let wake_address = match self.local_address.ip() {
            ip if ip.is_unspecified() => {
                SocketAddr::from(([127, 0, 0, 1], self.local_address.port()))
            }
            _ => self.local_address,
        };
        drop(TcpStream::connect_timeout(
            &wake_address,
            Duration::from_secs(1),
        ));
        let _ = self.accept_thread.join();
    }
}

impl ChannelInitiator {
    /// Starts the channel initiator with its listener on the configured address and port.
    pub fn start(
        queue_manager: Arc<QueueManager>,
        config: ChannelInitiatorConfig,
        log: MessageSink,
    ) -> io::Result<Arc<ChannelInitiator>> {
        let port = config.port;
        let chinit = ChannelInitiator::new(queue_manager, config, log);
        chinit.start_listener(Some(port))?;
        Ok(chinit)
    }

    /// The channel initiator without a listener (START LISTENER starts one).
    ///
    /// Panics if the dispatcher and adapter threads cannot be started (the process is out of
    /// threads or descriptors) or their counts are outside 1 – [`TASKS_MAX`].
    pub fn new(
        queue_manager: Arc<QueueManager>,
        config: ChannelInitiatorConfig,
        log: MessageSink,
    ) -> Arc<ChannelInitiator> {
        ChannelInitiator::try_new(queue_manager, config, log)
            .unwrap_or_else(|error| panic!("cannot start the channel initiator: {error}"))
    }

    /// As [`ChannelInitiator::new`], returning why the threads could not start.
    pub fn try_new(
        queue_manager: Arc<QueueManager>,
        config: ChannelInitiatorConfig,
        log: MessageSink,
    ) -> io::Result<Arc<ChannelInitiator>> {
        for (what, count) in [
            ("dispatchers (CHIDISPS)", config.dispatchers),
            ("adapters (CHIADAPS)", config.adapters),
        ] {
            if !(1..=TASKS_MAX).contains(&count) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{count} {what}: the channel initiator needs 1 - {TASKS_MAX}"),
                ));
            }
        }
        let adapters = AdapterPool::start(config.adapters, &queue_manager)?;
        let timer = Timer::start()?;
        let dispatchers = (0..config.dispatchers)
            .map(|_| Dispatcher::new())
            .collect::<io::Result<Vec<_>>>()?;
        let shared = Arc::new(ChinitShared {
            queue_manager,
            config,
            log,
            stopping: AtomicBool::new(false),
            instances: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            adapters,
            timer,
            dispatchers,
            live_conversations: AtomicUsize::new(0),
            senders: Mutex::new(HashMap::new()),
            trigger_monitor: Mutex::new(None),
            stopped: Mutex::new(std::collections::BTreeSet::new()),
            active_channels: Default::default(),
        });
        shared.load_stopped();
        let chinit = Arc::new(ChannelInitiator {
            shared: shared.clone(),
            listener: Mutex::new(None),
        });
        for (index, dispatcher) in shared.dispatchers.iter().enumerate() {
            dispatcher.spawn(index, shared.clone())?;
        }
        *shared.trigger_monitor.lock().unwrap() =
            crate::message_channel::trigger::start_monitor(shared.clone());
        Ok(chinit)
    }

    /// Dispatcher threads running (CHIDISPS).
    pub fn dispatcher_count(&self) -> usize {
        self.shared.dispatchers.len()
    }

    /// Adapter threads running (CHIADAPS).
    pub fn adapter_count(&self) -> usize {
        self.shared.adapters.started()
    }

    /// Adapters running a conversation now.
    pub fn busy_adapters(&self) -> usize {
        self.shared.adapters.busy()
    }

    /// Conversation runs the adapters have made since the channel initiator started: calls
    /// that may wait (MQCONN, MQOPEN, a backout of persistent work) and conversations woken by
    /// threads outside the channel initiator. Every other call runs on its dispatcher.
    pub fn adapter_runs(&self) -> u64 {
        self.shared.adapters.runs()
    }

    /// Sockets each dispatcher serves.
    pub fn channels_per_dispatcher(&self) -> Vec<usize> {
        self.shared
            .dispatchers
            .iter()
            .map(|dispatcher| dispatcher.channel_count())
            .collect()
    }

    /// START LISTENER: listens on `port` (the configured port when `None`; 0 picks a free
    /// one). Fails when a listener already runs or the port cannot be bound.
    pub fn start_listener(&self, port: Option<u16>) -> io::Result<SocketAddr> {
        let mut slot = self.listener.lock().unwrap();
        if let Some(running) = slot.as_ref() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "a listener already runs on port {}",
                    running.local_address.port()
                ),
            ));
        }
        let shared = &self.shared;
        let port = port.unwrap_or(shared.config.port);
        let listener = TcpListener::bind((shared.config.address, port))?;
        let local_address = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let accept_shared = shared.clone();
        let accept_stop = stop.clone();
        let accept_thread = std::thread::Builder::new()
            .name("ferrite-chinit-listener".into())
            .spawn(move || accept_loop(&accept_shared, &accept_stop, listener))?;
        (shared.log)(&format!(
            "CSQX022I {} ferrite listener started for port {} address {}",
            shared.queue_manager.name(),
            local_address.port(),
            local_address.ip()
        ));
        *slot = Some(RunningListener {
            local_address,
            started: SystemTime::now(),
            stop,
            accept_thread,
        });
        Ok(local_address)
    }

    /// STOP LISTENER: no new connections; running channel instances carry on.
    pub fn stop_listener(&self) -> bool {
        let running = self.listener.lock().unwrap().take();
        match running {
            Some(running) => {
                let port = running.local_address.port();
                running.stop();
                (self.shared.log)(&format!(
                    "CSQX023I {} ferrite listener stopped for port {port}",
                    self.shared.queue_manager.name()
                ));
                true
            }
            None => false,
        }
    }

    /// The address and port the listener is bound to, while it runs.
    pub fn local_address(&self) -> Option<SocketAddr> {
        self.listener
            .lock()
            .unwrap()
            .as_ref()
            .map(|running| running.local_address)
    }

    /// When the running listener started.
    pub fn listener_started(&self) -> Option<SystemTime> {
        self.listener
            .lock()
            .unwrap()
            .as_ref()
            .map(|running| running.started)
    }

    /// The running channel instances.
    pub fn instances(&self) -> Vec<Arc<ChannelInstance>> {
        let mut instances: Vec<_> = self
            .shared
            .instances
            .lock()
            .unwrap()
            .values()
            .cloned()
            .collect();
        instances.sort_by_key(|instance| instance.id);
        instances
    }

    /// START CHANNEL for a SDR, SVR or RQSTR channel with a CONNAME: its MCA starts on its
    /// own thread (`message_channel::sender_mca`). Refused when the channel is not defined,
    /// is of another type, or is running already.
    pub fn start_channel(&self, name: &str) -> Result<Arc<SenderMca>, String> {
        if self.shared.queue_manager.channel(name).is_some() {
            self.shared.set_stopped(name, false)?;
        }
        self.shared.start_sender(name)
    }

    /// STOP CHANNEL from an operator (MQSC, PCF): the channel's running instances stop
    /// (`force`: MODE(FORCE)) and a message channel is left STOPPED, across restarts, until
    /// START CHANNEL; a stopped receiving channel refuses its partner. Returns how many
    /// instances stopped (none: the channel was not active, and nothing changes).
    pub fn stop_channel_by_operator(&self, name: &str, force: bool) -> Result<usize, String> {
        let mut stopped = 0;
        if force {
            stopped += usize::from(self.stop_sender(name, StopMode::Force));
        }
        stopped += ChannelInitiator::stop_channel(self, name);
        let message_channel = self
            .shared
            .queue_manager
            .channel(name)
            .is_some_and(|channel| channel.channel_type.is_message_channel());
        if stopped > 0 && message_channel {
            self.shared.set_stopped(name, true)?;
        }
        Ok(stopped)
    }

    /// Message channels STOPPED with no instance to show them (after a restart, or a
    /// receiver), as DISPLAY CHSTATUS lists them.
    fn stopped_without_instance(&self) -> Vec<ferrite_command::MessageChannelStatus> {
        let names: Vec<String> = self
            .shared
            .stopped
            .lock()
            .unwrap()
            .iter()
            .cloned()
            .collect();
        names
            .into_iter()
            .filter(|name| self.sender(name).is_none() && self.running_instances(name) == 0)
            .filter_map(|name| {
                let channel = self.shared.queue_manager.channel(&name)?;
                Some(ferrite_command::MessageChannelStatus {
                    channel: name,
                    channel_type: channel.channel_type.keyword(),
                    connection_name: channel
                        .message
                        .connection_names
                        .first()
                        .cloned()
                        .unwrap_or_default(),
                    status: "STOPPED".to_string(),
                    transmission_queue: channel.message.transmission_queue.clone(),
                    messages: 0,
                    batches: 0,
                    bytes_sent: 0,
                    bytes_received: 0,
                    current_sequence: 0,
                    last_sequence: 0,
                    in_doubt: false,
                    started: SystemTime::now(),
                    indicators: Default::default(),
                })
            })
            .collect()
    }

    /// The definition of SDR or SVR channel `name`, which must not be running (AMQ9514).
    fn stopped_sending_channel(
        &self,
        name: &str,
    ) -> Result<ferrite_queue_manager::ChannelDefinition, String> {
        let channel = self
            .shared
            .queue_manager
            .channel(name)
            .filter(|channel| channel.channel_type.sends())
            .ok_or_else(|| format!("channel {name} is not a defined sending channel"))?;
        if self.sender(name).is_some_and(|sender| !sender.ended()) {
            return Err(format!(
                "channel {name} is running (AMQ9514): stop it first"
            ));
        }
        Ok(channel)
    }

    /// PING CHANNEL of a SDR channel that is not running (`sender_mca::ping`).
    pub fn ping_channel(&self, name: &str, data_length: usize) -> Result<(), String> {
        let channel = self.stopped_sending_channel(name)?;
        crate::message_channel::sender_mca::ping(
            &self.shared.queue_manager,
            &channel,
            data_length,
            &self.shared.key_repository(),
        )
    }

    /// RESOLVE CHANNEL(name) ACTION(COMMIT | BACKOUT) of a SDR or SVR channel that is not
    /// running: its in-doubt batch taken as delivered, or put back on the transmission
    /// queue (`SendingAgent::resolve_in_doubt`). Returns how many messages it held.
    pub fn resolve_channel(&self, name: &str, commit: bool) -> Result<usize, String> {
        let channel = self.stopped_sending_channel(name)?;
        let mut agent =
            crate::message_channel::SendingAgent::open(self.shared.queue_manager.clone(), &channel)
                .map_err(|error| error.to_string())?;
        agent
            .resolve_in_doubt(commit)
            .map_err(|error| error.to_string())
    }

    /// RESET CHANNEL(name) SEQNUM(next) of a message channel that is not running: a sender
    /// (nothing in doubt: RESOLVE CHANNEL first) numbers its next message `next` and tells
    /// its partner at the next start; a receiver expects `next`.
    pub fn reset_channel(&self, name: &str, next: u32) -> Result<(), String> {
        let queue_manager = &self.shared.queue_manager;
        let channel = queue_manager
            .channel(name)
            .filter(|channel| channel.channel_type.is_message_channel())
            .ok_or_else(|| format!("channel {name} is not a defined message channel"))?;
        if !channel.channel_type.sends() {
            if self.running_instances(name) > 0 || self.shared.sender_running(name) {
                return Err(format!(
                    "channel {name} is running (AMQ9514): stop it first"
                ));
            }
            let mut agent =
                crate::message_channel::ReceivingAgent::open(queue_manager.clone(), &channel)
                    .map_err(|error| error.to_string())?;
            return agent
                .reset_sequence(next)
                .map(|_| ())
                .map_err(|error| error.to_string());
        }
        let channel = self.stopped_sending_channel(name)?;
        let mut agent = crate::message_channel::SendingAgent::open(queue_manager.clone(), &channel)
            .map_err(|error| error.to_string())?;
        if agent.in_doubt().is_some() {
            return Err(format!(
                "channel {name} has a batch in doubt: RESOLVE CHANNEL first"
            ));
        }
        agent
            .reset_sequence(next)
            .map_err(|error| error.to_string())
    }

    /// Running instances of channel `name` (a RCVR channel's socket).
    fn running_instances(&self, name: &str) -> usize {
        self.instances()
            .iter()
            .filter(|instance| *instance.channel_name.lock().unwrap() == name)
            .count()
    }

    /// The MCA of channel `name` started by START CHANNEL or a requester (running or ended).
    pub fn sender(&self, name: &str) -> Option<Arc<SenderMca>> {
        self.shared.senders.lock().unwrap().get(name).cloned()
    }

    /// Every sending MCA started by START CHANNEL.
    pub fn senders(&self) -> Vec<Arc<SenderMca>> {
        let mut senders: Vec<_> = self
            .shared
            .senders
            .lock()
            .unwrap()
            .values()
            .cloned()
            .collect();
        senders.sort_by(|a, b| a.channel.cmp(&b.channel));
        senders
    }

    /// STOP CHANNEL(name) MODE(mode) of a sending channel: whether one was running.
    pub fn stop_sender(&self, name: &str, mode: StopMode) -> bool {
        match self.sender(name) {
            Some(sender) if !sender.ended() => {
                sender.stop_by_user(mode);
                true
            }
            _ => false,
        }
    }

    /// Stops every running instance of the channel `name` (a sending channel's MCA with
    /// MODE(QUIESCE)); returns how many.
    pub fn stop_channel(&self, name: &str) -> usize {
        let mut stopped = usize::from(self.stop_sender(name, StopMode::Quiesce));
        for instance in self.instances() {
            if *instance.channel_name.lock().unwrap() == name {
                instance.stop();
                stopped += 1;
            }
        }
        stopped
    }

    /// Stops listening, ends every channel instance and waits until every conversation's
    /// session is dropped (units of work backed out), then ends the dispatcher, adapter and
    /// timer threads. Idempotent.
    pub fn stop(&self) {
        self.stop_listener();
        self.shared.stopping.store(true, Ordering::Release);
        if let Some(monitor) = self.shared.trigger_monitor.lock().unwrap().take() {
            let _ = monitor.join();
        }
        for sender in self.senders() {
            sender.stop(StopMode::Force);
            sender.wait_ended(STOP_WAIT);
        }
        for instance in self.instances() {
            instance.stop();
        }
        for dispatcher in &self.shared.dispatchers {
            dispatcher.stop();
        }
        let started = std::time::Instant::now();
        while self.shared.live_conversations.load(Ordering::Acquire) > 0 {
            if started.elapsed() >= STOP_WAIT {
                (self.shared.log)(&format!(
                    "ferrite channel initiator: {} conversations still running after {} s; stopping without them",
                    self.shared.live_conversations.load(Ordering::Acquire),
                    STOP_WAIT.as_secs()
                ));
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.shared.adapters.stop();
        self.shared.timer.stop();
    }
}

impl Drop for ChannelInitiator {
    fn drop(&mut self) {
        self.stop();
    }
}

fn accept_loop(shared: &Arc<ChinitShared>, stop: &AtomicBool, listener: TcpListener) {
    for stream in listener.incoming() {
        if shared.stopping.load(Ordering::Acquire) || stop.load(Ordering::Acquire) {
            break;
        }
        let stream = match stream {
            Ok(stream) => stream,
            Err(error) => {
                (shared.log)(&format!("ferrite listener: accept failed: {error}"));
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        let Ok(peer) = stream.peer_addr() else {
            continue;
        };
        let count = shared.instances.lock().unwrap().len();
        if count >= shared.config.max_channels {
            (shared.log)(&format!(
                "CSQX014E ferrite listener: connection from {peer} refused, {count} channel instances already (MAXCHL), reason 2025 MQRC_MAX_CONNS_LIMIT_REACHED"
            ));
            crate::conversation::refuse(
                stream,
                ferrite_constants::reason::MQRC_MAX_CONNS_LIMIT_REACHED,
            );
            continue;
        }
        let Ok(socket) = stream.try_clone() else {
            continue;
        };
        let id = shared.next_id.fetch_add(1, Ordering::Relaxed);
        let instance = Arc::new(ChannelInstance {
            id,
            peer,
            started: SystemTime::now(),
            channel_name: Mutex::new(String::new()),
            conversations: AtomicU32::new(0),
            max_conversations: AtomicU32::new(0),
            heartbeat_interval: AtomicU32::new(0),
            max_message_length: AtomicU32::new(0),
            messages: AtomicU64::new(0),
            bytes_received: AtomicU64::new(0),
            bytes_sent: AtomicU64::new(0),
            last_message_ms: AtomicU64::new(0),
            stopping: AtomicBool::new(false),
            busy_conversations: AtomicU32::new(0),
            batches: AtomicU64::new(0),
            last_sequence: AtomicU32::new(0),
            receiver: AtomicBool::new(false),
            indicators: Default::default(),
            active_slot: Mutex::new(None),
            socket,
        });
        shared
            .instances
            .lock()
            .unwrap()
            .insert(id, instance.clone());
        let _ = stream.set_nodelay(true);
        // KAINT(AUTO): the operating system's TCP keepalive finds peers that vanished without
        // a FIN (negotiation sets its timing from the channel's KAINT).
        crate::channel::set_socket_option(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_KEEPALIVE,
            1,
        );
        let dispatcher = shared
            .dispatchers
            .iter()
            .min_by_key(|dispatcher| dispatcher.channel_count())
            .expect("at least one dispatcher");
        dispatcher.adopt(stream, instance);
    }
}

fn sender_status(
    snapshot: &crate::message_channel::sender_mca::SenderSnapshot,
    transmission_queue: &str,
) -> ferrite_command::MessageChannelStatus {
    ferrite_command::MessageChannelStatus {
        channel: snapshot.channel.clone(),
        channel_type: snapshot.channel_type.keyword(),
        connection_name: snapshot.connection_name.clone(),
        status: snapshot.status.keyword().to_string(),
        transmission_queue: transmission_queue.to_string(),
        messages: snapshot.messages,
        batches: snapshot.batches,
        bytes_sent: snapshot.bytes_sent,
        bytes_received: snapshot.bytes_received,
        current_sequence: snapshot.current_sequence,
        last_sequence: snapshot.last_sequence,
        in_doubt: snapshot.in_doubt,
        started: snapshot.started,
        indicators: snapshot.indicators,
    }
}

fn receiver_status(
    queue_manager: &QueueManager,
    instance: &ChannelInstance,
) -> ferrite_command::MessageChannelStatus {
    let snapshot = instance.snapshot();
    let last_sequence = instance.last_sequence.load(Ordering::Relaxed);
    let channel_type = queue_manager
        .channel(&snapshot.channel)
        .map_or("RCVR", |channel| channel.channel_type.keyword());
    ferrite_command::MessageChannelStatus {
        channel: snapshot.channel,
        channel_type,
        connection_name: snapshot.connection_name,
        status: snapshot.status,
        transmission_queue: String::new(),
        messages: snapshot.messages,
        batches: instance.batches.load(Ordering::Relaxed),
        bytes_sent: snapshot.bytes_sent,
        bytes_received: snapshot.bytes_received,
        current_sequence: last_sequence,
        last_sequence,
        in_doubt: false,
        started: snapshot.started,
        indicators: instance.indicators.values(),
    }
}

/// The command processor's view (DISPLAY CHSTATUS, STOP CHANNEL, START/STOP LISTENER,
/// DISPLAY LSSTATUS/CHINIT).
impl ferrite_command::ChannelInitiator for ChannelInitiator {
    fn channel_statuses(&self) -> Vec<ferrite_command::ChannelInstanceStatus> {
        self.instances()
            .iter()
            .filter(|instance| !instance.receiver.load(Ordering::Acquire))
            .map(|instance| instance.snapshot())
            .filter(|status| !status.channel.is_empty())
            .collect()
    }

    fn stop_channel(&self, name: &str) -> Result<usize, String> {
        self.stop_channel_by_operator(name, false)
    }

    fn message_channel_statuses(&self) -> Vec<ferrite_command::MessageChannelStatus> {
        let mut statuses: Vec<_> = self
            .senders()
            .iter()
            .map(|sender| sender_status(&sender.snapshot(), &sender.transmission_queue))
            .collect();
        statuses.extend(
            self.instances()
                .iter()
                .filter(|instance| instance.receiver.load(Ordering::Acquire))
                .map(|instance| receiver_status(&self.shared.queue_manager, instance)),
        );
        statuses.extend(self.stopped_without_instance());
        statuses
    }

    fn start_channel(&self, name: &str) -> Result<(), String> {
        use ferrite_queue_manager::objects::message_channel::ChannelType;
        let was_stopped = self.shared.is_stopped(name);
        let started = ChannelInitiator::start_channel(self, name).map(|_| ());
        let receives = self
            .shared
            .queue_manager
            .channel(name)
            .is_some_and(|channel| {
                channel.channel_type == ChannelType::Receiver
                    || channel.message.connection_names.is_empty()
            });
        // START CHANNEL of a STOPPED channel that this end does not start (a RCVR, a SVR
        // without CONNAME) enables it for its partner, as MQ does.
        match started {
            Err(_) if was_stopped && receives => Ok(()),
            outcome => outcome,
        }
    }

    fn stop_channel_forced(&self, name: &str) -> Result<usize, String> {
        self.stop_channel_by_operator(name, true)
    }

    fn ping_channel(&self, name: &str, data_length: usize) -> Result<(), String> {
        ChannelInitiator::ping_channel(self, name, data_length)
    }

    fn resolve_channel(&self, name: &str, commit: bool) -> Result<usize, String> {
        ChannelInitiator::resolve_channel(self, name, commit)
    }

    fn reset_channel(&self, name: &str, next: u32) -> Result<(), String> {
        ChannelInitiator::reset_channel(self, name, next)
    }

    fn start_listener(&self, port: Option<u16>) -> Result<ferrite_command::ListenerStatus, String> {
        ChannelInitiator::start_listener(self, port)
            .map_err(|error| format!("cannot listen: {error}"))?;
        Ok(ferrite_command::ChannelInitiator::listener_status(self))
    }

    fn stop_listener(&self) -> Result<(), String> {
        if ChannelInitiator::stop_listener(self) {
            Ok(())
        } else {
            Err("no listener is running".to_string())
        }
    }

    fn tasks(&self) -> Option<ferrite_command::ChannelInitiatorTasks> {
        Some(ferrite_command::ChannelInitiatorTasks {
            dispatchers_requested: self.shared.config.dispatchers,
            dispatchers_started: self.dispatcher_count(),
            adapters_requested: self.shared.config.adapters,
            adapters_started: self.adapter_count(),
        })
    }

    fn listener_status(&self) -> ferrite_command::ListenerStatus {
        let address = self.local_address();
        ferrite_command::ListenerStatus {
            port: address.map_or(self.shared.config.port, |address| address.port()),
            ip_address: address.map_or_else(
                || self.shared.config.address.to_string(),
                |address| address.ip().to_string(),
            ),
            running: address.is_some(),
            started: self.listener_started(),
        }
    }
}
