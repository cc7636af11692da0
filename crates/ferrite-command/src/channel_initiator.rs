//! The command processor's view of the channel initiator: what DISPLAY CHSTATUS, STOP
//! CHANNEL, START/STOP LISTENER, DISPLAY LSSTATUS and DISPLAY CHINIT ask of it.
//!
//! The channel initiator itself (the TCP listener and the SVRCONN channel instances) lives in
//! the server and implements [`ChannelInitiator`]; it is given to the command processor with
//! [`crate::CommandProcessor::set_channel_initiator`]. Until one is attached, those commands
//! answer as MQ for z/OS does when the channel initiator address space is not started:
//! `CSQM131I ... CHANNEL INITIATOR NOT ACTIVE, COMMAND NOT PROCESSED`.
//!
//! Channel definitions (DEFINE CHANNEL ...) do not need the channel initiator: they are objects
//! of the queue manager (`QueueManager::channel`).

use std::time::SystemTime;

/// One running instance of a channel, as DISPLAY CHSTATUS shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelInstanceStatus {
    /// CHSTATUS: the channel's name.
    pub channel: String,
    /// CONNAME: the partner's address (`192.0.2.7(51234)`).
    pub connection_name: String,
    /// STATUS: RUNNING or STOPPING.
    pub status: String,
    /// CURSHCNV: conversations sharing this instance.
    pub current_conversations: u32,
    /// MSGS: MQI calls that moved a message (puts and gets).
    pub messages: u64,
    /// BYTSSENT.
    pub bytes_sent: u64,
    /// BYTSRCVD.
    pub bytes_received: u64,
    /// CHSTADA and CHSTATI: when the instance started.
    pub started: SystemTime,
    /// LSTMSGDA and LSTMSGTI: when it last moved a message.
    pub last_message: Option<SystemTime>,
    /// HBINT negotiated with the partner, seconds.
    pub heartbeat_interval: u32,
    /// MAXMSGL negotiated with the partner.
    pub max_message_length: u32,
    /// MAXSHCNV: SHARECNV negotiated with the partner.
    pub max_shared_conversations: u32,
}

/// A message channel (SDR or RCVR) as DISPLAY CHSTATUS shows it: a sender started by START
/// CHANNEL (running, retrying, or ended), or a receiver's running instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageChannelStatus {
    /// CHSTATUS.
    pub channel: String,
    /// CHLTYPE: SDR or RCVR.
    pub channel_type: &'static str,
    /// CONNAME: the CONNAME entry connected to, or the partner's address.
    pub connection_name: String,
    /// STATUS: STARTING, BINDING, RUNNING, RETRYING, STOPPING, STOPPED or INACTIVE.
    pub status: String,
    /// XMITQ (senders).
    pub transmission_queue: String,
    /// MSGS: messages sent or received in confirmed batches.
    pub messages: u64,
    /// BATCHES: batches confirmed.
    pub batches: u64,
    /// BYTSSENT.
    pub bytes_sent: u64,
    /// BYTSRCVD.
    pub bytes_received: u64,
    /// CURSEQNO: the last sequence number sent or received.
    pub current_sequence: u32,
    /// LSTSEQNO: the last sequence number confirmed (committed).
    pub last_sequence: u32,
    /// INDOUBT: a batch is sent and not yet confirmed.
    pub in_doubt: bool,
    /// CHSTADA and CHSTATI.
    pub started: SystemTime,
    /// COMPHDR, COMPMSG, COMPRATE, COMPTIME, XQTIME and NETTIME.
    pub indicators: MessageChannelIndicators,
}

/// A running message channel's compression and time indicators, as DISPLAY CHSTATUS shows
/// them. Each pair is MQ's short-term and long-term value (`None`: nothing measured yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MessageChannelIndicators {
    /// COMPHDR: the technique negotiated and the one the last message used (MQCOMPRESS_*).
    pub header_compression: [i32; 2],
    /// COMPMSG: the technique negotiated and the one the last message used.
    pub message_compression: [i32; 2],
    /// COMPRATE: the percentage by which compression reduced the data.
    pub compression_rate: Option<(u64, u64)>,
    /// COMPTIME: microseconds per message spent compressing or decompressing.
    pub compression_time_us: Option<(u64, u64)>,
    /// XQTIME (senders): microseconds messages spent on the transmission queue.
    pub transmission_queue_time_us: Option<(u64, u64)>,
    /// NETTIME (senders): microseconds of the end-of-batch confirmation's round trip.
    pub network_time_us: Option<(u64, u64)>,
}

/// The TCP listener's state, as DISPLAY LSSTATUS and DISPLAY CHINIT show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListenerStatus {
    /// PORT.
    pub port: u16,
    /// IPADDR: the address listened on (blank or `*` for every address).
    pub ip_address: String,
    /// STATUS(RUNNING) when true, STOPPED otherwise.
    pub running: bool,
    /// STARTDA and STARTTI.
    pub started: Option<SystemTime>,
}

/// The channel initiator's threads, as DISPLAY CHINIT shows them (CSQX831I, CSQX832I).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelInitiatorTasks {
    /// CHIDISPS asked for.
    pub dispatchers_requested: usize,
    /// Dispatchers running.
    pub dispatchers_started: usize,
    /// CHIADAPS asked for.
    pub adapters_requested: usize,
    /// Adapters running.
    pub adapters_started: usize,
}

/// What the command processor asks of the channel initiator. Implementations are called from
/// the thread running a command and must not block for long.
pub trait ChannelInitiator: Send + Sync {
    /// Every running channel instance.
    fn channel_statuses(&self) -> Vec<ChannelInstanceStatus>;
    /// STOP CHANNEL(name): end every instance of the channel; returns how many were stopped
    /// (0 when none was running), or why the request failed.
    fn stop_channel(&self, name: &str) -> Result<usize, String>;
    /// START LISTENER: start listening, on `port` or the configured port.
    fn start_listener(&self, port: Option<u16>) -> Result<ListenerStatus, String>;
    /// STOP LISTENER.
    fn stop_listener(&self) -> Result<(), String>;
    /// The listener's state.
    fn listener_status(&self) -> ListenerStatus;
    /// Its dispatchers and adapters (CHIDISPS, CHIADAPS), if it has such threads.
    fn tasks(&self) -> Option<ChannelInitiatorTasks> {
        None
    }
    /// Message channels (distributed queuing) for DISPLAY CHSTATUS.
    fn message_channel_statuses(&self) -> Vec<MessageChannelStatus> {
        Vec::new()
    }
    /// START CHANNEL(name) of a sending channel.
    fn start_channel(&self, name: &str) -> Result<(), String> {
        Err(format!("channel {name} cannot be started here"))
    }
    /// STOP CHANNEL(name) MODE(FORCE): as `stop_channel`, a sender's batch in flight left in
    /// doubt.
    fn stop_channel_forced(&self, name: &str) -> Result<usize, String> {
        self.stop_channel(name)
    }
    /// RESOLVE CHANNEL(name) ACTION(COMMIT when `commit`, else BACKOUT) of a sending channel
    /// that is not running: how many messages its in-doubt batch held.
    fn resolve_channel(&self, name: &str, commit: bool) -> Result<usize, String> {
        let _ = commit;
        Err(format!("channel {name} cannot be resolved here"))
    }
    /// RESET CHANNEL(name) SEQNUM(next) of a message channel that is not running.
    fn reset_channel(&self, name: &str, next: u32) -> Result<(), String> {
        let _ = next;
        Err(format!("channel {name} cannot be reset here"))
    }
    /// PING CHANNEL(name) DATALEN(length) of a sending channel that is not running.
    fn ping_channel(&self, name: &str, data_length: usize) -> Result<(), String> {
        let _ = data_length;
        Err(format!("channel {name} cannot be pinged here"))
    }
}
