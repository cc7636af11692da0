//! The MCA of a channel started from this queue manager: a SDR (or a SVR with a CONNAME)
//! started by START CHANNEL, a trigger or a requester's callback, a RQSTR started by START
//! CHANNEL, or a SVR a requester connected to. One thread per running channel (as MQ's
//! channel initiator runs an MCA per channel).
//!
//! A sender connects to CONNAME (each address of the list in turn), negotiates INITIAL_DATA,
//! resolves its in-doubt batch with the receiver's committed sequence number, then sends
//! batches while the transmission queue has messages, each confirmed before the next, waiting
//! on the queue for arrivals in between, and asking the partner to answer a HEARTBEAT every
//! HBINT seconds (negotiated) of idleness, and before a batch when nothing has come from it
//! for BATCHHB milliseconds (so that a partner gone quietly is found before messages are
//! taken into doubt). A batch stays open up to BATCHINT milliseconds for more messages
//! (`SendingAgent::next_batch`). After DISCINT seconds with nothing to send it ends
//! (INACTIVE). A lost connection, or one that cannot be made, is retried SHORTRTY times every
//! SHORTTMR seconds, then LONGRTY times every LONGTMR seconds (RETRYING), then the channel
//! stops (STOPPED). STOP CHANNEL MODE(QUIESCE) ends it after the batch in flight; MODE(FORCE)
//! at once (the batch in flight stays in doubt and is resolved at the next start).
//!
//! A requester connects, asks for the partner's SVR to send on the connection (or its SDR to
//! call back) and then receives as a RCVR does; it does not retry. A SVR a requester
//! connected to runs one session on that connection. Each reports Channel Started, Channel
//! Stopped and Channel Stopped By User events as QMGR CHLEV asks.

use std::net::{TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};

use ferrite_constants::misc::{
    MQRQ_CHANNEL_STOPPED_DISABLED, MQRQ_CHANNEL_STOPPED_ERROR, MQRQ_CHANNEL_STOPPED_OK,
    MQRQ_CHANNEL_STOPPED_RETRY,
};
use ferrite_mqi::channel_events::MessageChannelEvent;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime};

use ferrite_protocol::compression::{SegmentCompression, ZlibState};
use ferrite_protocol::initial_data::InitialData;
use ferrite_protocol::message_channel::{
    channel_header, message_flow_segments, PingData, ResetData,
};
use ferrite_protocol::segment::{ControlFlags1, ControlFlags2, SegmentType};
use ferrite_protocol::transport::{Stream, Transport};
use ferrite_queue_manager::objects::message_channel::{parse_connection_name, ChannelType};
use ferrite_queue_manager::{ChannelDefinition, QueueManager};

use super::active::{ActiveChannels, ActiveSlot};
use super::indicators::ChannelIndicators;
use super::negotiation::{self, Agreed};
use super::session::{
    confirmed_sequence, send_flow, serve_receiver, ReceiverProgress, FLOW_CCSID, FLOW_ENCODING,
    FLOW_ORDER,
};
use super::SendingAgent;

/// How long a connection attempt to one address may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the sender waits for the partner's answer to INITIAL_DATA or a batch.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest single wait on the transmission queue (a STOP CHANNEL is noticed within it).
const IDLE_WAIT_SLICE: Duration = Duration::from_millis(200);

/// A channel's state as DISPLAY CHSTATUS shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenderStatus {
    Starting,
    Binding,
    Running,
    Retrying,
    Stopping,
    Stopped,
    Inactive,
}

impl SenderStatus {
    /// The STATUS keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            SenderStatus::Starting => "STARTING",
            SenderStatus::Binding => "BINDING",
            SenderStatus::Running => "RUNNING",
            SenderStatus::Retrying => "RETRYING",
            SenderStatus::Stopping => "STOPPING",
            SenderStatus::Stopped => "STOPPED",
            SenderStatus::Inactive => "INACTIVE",
        }
    }
}

/// STOP CHANNEL's MODE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopMode {
    Quiesce,
    Force,
}

const RUN: u8 = 0;
const QUIESCE: u8 = 1;
const FORCE: u8 = 2;

/// A sender's shared state: what its thread does and what DISPLAY CHSTATUS and STOP CHANNEL
/// see.
pub struct SenderMca {
    pub channel: String,
    /// SDR or SVR (sending), or RQSTR (asking its partner to send).
    pub channel_type: ChannelType,
    pub transmission_queue: String,
    pub started: SystemTime,
    status: Mutex<SenderStatus>,
    wake: Condvar,
    stop: AtomicU8,
    /// The socket in use, shut down by MODE(FORCE).
    socket: Mutex<Option<TcpStream>>,
    connection_name: Mutex<String>,
    pub messages: AtomicU64,
    pub batches: AtomicU64,
    pub bytes_sent: AtomicU64,
    pub bytes_received: AtomicU64,
    /// Batch heartbeats (BATCHHB) the partner answered.
    pub batch_heartbeats: AtomicU64,
    /// CURSEQNO: the last sequence number sent.
    pub current_sequence: AtomicU32,
    /// LSTSEQNO: the last sequence number confirmed.
    pub last_sequence: AtomicU32,
    /// INDOUBT: a batch is sent and not confirmed.
    in_doubt: AtomicU8,
    /// Channel Started was reported for the current session.
    announced: AtomicBool,
    /// STOP CHANNEL (not the channel initiator's end) stopped it.
    user_stop: AtomicBool,
    /// COMPHDR, COMPMSG, COMPRATE, COMPTIME, XQTIME, NETTIME.
    pub indicators: ChannelIndicators,
    /// The queue manager's key repository (a channel with SSLCIPH runs TLS with it).
    key_repository: std::path::PathBuf,
    /// ACTCHL's slots: a session holds one.
    active_channels: Arc<ActiveChannels>,
    log: crate::MessageSink,
}

/// One sender's DISPLAY CHSTATUS values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SenderSnapshot {
    pub channel: String,
    pub channel_type: ChannelType,
    pub connection_name: String,
    pub status: SenderStatus,
    pub messages: u64,
    pub batches: u64,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub current_sequence: u32,
    pub last_sequence: u32,
    pub in_doubt: bool,
    pub started: SystemTime,
    pub indicators: ferrite_command::MessageChannelIndicators,
}

impl SenderMca {
    /// Start the MCA of `channel` (SDR, SVR or RQSTR with a CONNAME) on its own thread.
    pub fn start(
        queue_manager: Arc<QueueManager>,
        channel: ChannelDefinition,
        log: crate::MessageSink,
        key_repository: std::path::PathBuf,
        active_channels: Arc<ActiveChannels>,
    ) -> std::io::Result<Arc<SenderMca>> {
        assert!(channel.channel_type.sends() || channel.channel_type == ChannelType::Requester);
        let mca = SenderMca::new(&channel, log, key_repository, active_channels);
        let running = mca.clone();
        std::thread::Builder::new()
            .name(format!("mca-{}", channel.name))
            .spawn(move || running.run(&queue_manager, &channel))?;
        Ok(mca)
    }

    /// Start the SVR channel `channel` on `stream`, accepted from a requester (RQSTR) that
    /// asked it to send: one session on that connection, no retries (the requester starts
    /// the channel again).
    pub fn start_requested(
        queue_manager: Arc<QueueManager>,
        channel: ChannelDefinition,
        log: crate::MessageSink,
        stream: Stream,
        partner: String,
        active_channels: Arc<ActiveChannels>,
    ) -> std::io::Result<Arc<SenderMca>> {
        assert_eq!(channel.channel_type, ChannelType::Server);
        let mca = SenderMca::new(&channel, log, std::path::PathBuf::new(), active_channels);
        *mca.connection_name.lock().unwrap() = partner;
        let running = mca.clone();
        std::thread::Builder::new()
            .name(format!("mca-{}", channel.name))
            .spawn(move || running.run_requested(&queue_manager, &channel, stream))?;
        Ok(mca)
    }

    fn new(
        channel: &ChannelDefinition,
        log: crate::MessageSink,
        key_repository: std::path::PathBuf,
        active_channels: Arc<ActiveChannels>,
    ) -> Arc<SenderMca> {
        Arc::new(SenderMca {
            channel: channel.name.clone(),
            channel_type: channel.channel_type,
            transmission_queue: channel.message.transmission_queue.clone(),
            started: SystemTime::now(),
            status: Mutex::new(SenderStatus::Starting),
            wake: Condvar::new(),
            stop: AtomicU8::new(RUN),
            socket: Mutex::new(None),
            connection_name: Mutex::new(String::new()),
            messages: AtomicU64::new(0),
            batches: AtomicU64::new(0),
            bytes_sent: AtomicU64::new(0),
            bytes_received: AtomicU64::new(0),
            batch_heartbeats: AtomicU64::new(0),
            current_sequence: AtomicU32::new(0),
            last_sequence: AtomicU32::new(0),
            in_doubt: AtomicU8::new(0),
            announced: AtomicBool::new(false),
            user_stop: AtomicBool::new(false),
            indicators: ChannelIndicators::default(),
            key_repository,
            active_channels,
            log,
        })
    }

    /// The channel's state.
    pub fn status(&self) -> SenderStatus {
        *self.status.lock().unwrap()
    }

    /// Whether the thread has ended (STOPPED or INACTIVE).
    pub fn ended(&self) -> bool {
        matches!(
            self.status(),
            SenderStatus::Stopped | SenderStatus::Inactive
        )
    }

    /// What DISPLAY CHSTATUS shows.
    pub fn snapshot(&self) -> SenderSnapshot {
        SenderSnapshot {
            channel: self.channel.clone(),
            channel_type: self.channel_type,
            connection_name: self.connection_name.lock().unwrap().clone(),
            status: self.status(),
            messages: self.messages.load(Ordering::Relaxed),
            batches: self.batches.load(Ordering::Relaxed),
            bytes_sent: self.bytes_sent.load(Ordering::Relaxed),
            bytes_received: self.bytes_received.load(Ordering::Relaxed),
            current_sequence: self.current_sequence.load(Ordering::Relaxed),
            last_sequence: self.last_sequence.load(Ordering::Relaxed),
            in_doubt: self.in_doubt.load(Ordering::Relaxed) != 0,
            started: self.started,
            indicators: self.indicators.values(),
        }
    }

    /// STOP CHANNEL: QUIESCE ends after the batch in flight, FORCE at once. A requester
    /// receiving batches ends at once either way (its open batch is backed out, and sent
    /// again by its partner).
    pub fn stop(&self, mode: StopMode) {
        let value = match mode {
            StopMode::Quiesce => QUIESCE,
            StopMode::Force => FORCE,
        };
        self.stop.fetch_max(value, Ordering::AcqRel);
        let mut status = self.status.lock().unwrap();
        if !matches!(*status, SenderStatus::Stopped | SenderStatus::Inactive) {
            *status = SenderStatus::Stopping;
        }
        self.wake.notify_all();
        drop(status);
        if mode == StopMode::Force || self.channel_type == ChannelType::Requester {
            if let Some(socket) = self.socket.lock().unwrap().as_ref() {
                let _ = socket.shutdown(std::net::Shutdown::Both);
            }
        }
    }

    /// STOP CHANNEL from an operator: as [`SenderMca::stop`], reported as Channel Stopped By
    /// User.
    pub fn stop_by_user(&self, mode: StopMode) {
        self.user_stop.store(true, Ordering::Release);
        self.stop(mode);
    }

    /// Waits until the thread has ended, at most `limit`: whether it has.
    pub fn wait_ended(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        let mut status = self.status.lock().unwrap();
        while !matches!(*status, SenderStatus::Stopped | SenderStatus::Inactive) {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            status = self.wake.wait_timeout(status, deadline - now).unwrap().0;
        }
        true
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Acquire) != RUN
    }

    fn set_status(&self, status: SenderStatus) {
        let mut current = self.status.lock().unwrap();
        if *current != SenderStatus::Stopping || status == SenderStatus::Stopped {
            *current = status;
        }
        self.wake.notify_all();
    }

    /// Sleeps `duration` unless STOP CHANNEL comes first: whether it came.
    fn pause(&self, duration: Duration) -> bool {
        let deadline = Instant::now() + duration;
        let mut status = self.status.lock().unwrap();
        while !self.stopping() {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            status = self.wake.wait_timeout(status, deadline - now).unwrap().0;
        }
        true
    }

    /// The MCA's thread: sessions and retries until the channel stops or goes inactive.
    fn run(&self, queue_manager: &Arc<QueueManager>, channel: &ChannelDefinition) {
        let mut attempts: u64 = 0;
        loop {
            if self.stopping() {
                break;
            }
            let Some(slot) = self.activate(queue_manager, channel) else {
                break;
            };
            self.set_status(SenderStatus::Binding);
            let outcome = self.session(queue_manager, channel, &mut attempts);
            // Not active while retrying (nor once ended): the slot goes back.
            drop(slot);
            if self.stopping() {
                self.announce_ended(queue_manager, MQRQ_CHANNEL_STOPPED_OK, None);
                break;
            }
            let error = match outcome {
                Ok(()) => {
                    self.announce_ended(queue_manager, MQRQ_CHANNEL_STOPPED_OK, None);
                    (self.log)(&format!(
                        "CSQX501I ferrite channel {} is no longer active (DISCINT({}) seconds idle, or the partner ended it)",
                        channel.name, channel.disconnect_interval
                    ));
                    self.set_status(SenderStatus::Inactive);
                    return;
                }
                Err(error) => error,
            };
            (self.log)(&format!(
                "CSQX599E ferrite channel {}: {error}",
                channel.name
            ));
            attempts += 1;
            let Some(interval) = retry_interval(channel, attempts) else {
                if channel.channel_type != ChannelType::Requester {
                    (self.log)(&format!(
                        "ferrite channel {}: retries exhausted (SHORTRTY({}), LONGRTY({})), channel stopped",
                        channel.name,
                        channel.message.short_retry_count,
                        channel.message.long_retry_count
                    ));
                }
                self.announce_ended(queue_manager, MQRQ_CHANNEL_STOPPED_DISABLED, Some(&error));
                break;
            };
            self.announce_ended(queue_manager, MQRQ_CHANNEL_STOPPED_RETRY, Some(&error));
            self.set_status(SenderStatus::Retrying);
            if self.pause(Duration::from_secs(u64::from(interval))) {
                break;
            }
        }
        self.socket.lock().unwrap().take();
        self.announce_stopped_by_user(queue_manager);
        self.set_status(SenderStatus::Stopped);
    }

    /// An ACTCHL slot for the next session, waiting (STARTING, Channel Not Activated then
    /// Channel Activated) while ACTCHL channels are active; `None` when STOP CHANNEL comes
    /// first.
    fn activate(
        &self,
        queue_manager: &QueueManager,
        channel: &ChannelDefinition,
    ) -> Option<ActiveSlot> {
        let limit = || queue_manager.queue_manager_attributes().active_channels;
        if let Some(slot) = self.active_channels.try_acquire(limit()) {
            return Some(slot);
        }
        self.set_status(SenderStatus::Starting);
        self.not_activated(queue_manager, channel, limit());
        loop {
            if self.stopping() {
                return None;
            }
            self.active_channels.wait_freed(IDLE_WAIT_SLICE);
            if let Some(slot) = self.active_channels.try_acquire(limit()) {
                (self.log)(&format!(
                    "ferrite channel {}: activated (an active channel ended)",
                    channel.name
                ));
                super::channel_event(
                    queue_manager,
                    MessageChannelEvent::Activated {
                        channel: &self.channel,
                        transmission_queue: self.sent_from(),
                        connection_name: &planned_connection_name(channel),
                    },
                    &self.log,
                );
                return Some(slot);
            }
        }
    }

    /// Channel Not Activated: ACTCHL(`limit`) channels are active.
    fn not_activated(&self, queue_manager: &QueueManager, channel: &ChannelDefinition, limit: u32) {
        (self.log)(&format!(
            "ferrite channel {}: not activated, ACTCHL({limit}) channels are active; it waits for one to end",
            channel.name
        ));
        let connection_name = match self.connection_name.lock().unwrap().clone() {
            name if name.is_empty() => planned_connection_name(channel),
            name => name,
        };
        super::channel_event(
            queue_manager,
            MessageChannelEvent::NotActivated {
                channel: &self.channel,
                transmission_queue: self.sent_from(),
                connection_name: &connection_name,
            },
            &self.log,
        );
    }

    /// Channel Started: the session is negotiated and resynchronized (RUNNING).
    fn announce_started(&self, queue_manager: &QueueManager) {
        self.set_status(SenderStatus::Running);
        self.announced.store(true, Ordering::Release);
        let connection_name = self.connection_name.lock().unwrap().clone();
        super::channel_event(
            queue_manager,
            MessageChannelEvent::Started {
                channel: &self.channel,
                transmission_queue: self.sent_from(),
                connection_name: &connection_name,
            },
            &self.log,
        );
    }

    /// Channel Stopped with `qualifier` for a session that had started (one a STOP CHANNEL
    /// ended is reported as Channel Stopped By User instead, once the thread ends).
    fn announce_ended(&self, queue_manager: &QueueManager, qualifier: i32, error: Option<&str>) {
        if !self.announced.swap(false, Ordering::AcqRel) || self.user_stop.load(Ordering::Acquire) {
            return;
        }
        let (error_identifier, reason) = error.map_or((0, 0), super::error_identifiers);
        let connection_name = self.connection_name.lock().unwrap().clone();
        super::channel_event(
            queue_manager,
            MessageChannelEvent::Stopped {
                qualifier,
                channel: &self.channel,
                error_identifier,
                reason,
                transmission_queue: self.sent_from(),
                connection_name: &connection_name,
            },
            &self.log,
        );
    }

    /// Channel Stopped By User when a STOP CHANNEL ended the thread.
    fn announce_stopped_by_user(&self, queue_manager: &QueueManager) {
        if self.user_stop.load(Ordering::Acquire) {
            super::channel_event(
                queue_manager,
                MessageChannelEvent::StoppedByUser {
                    channel: &self.channel,
                },
                &self.log,
            );
        }
    }

    /// The transmission queue of a sending channel (events name it).
    fn sent_from(&self) -> Option<&str> {
        self.channel_type
            .sends()
            .then_some(self.transmission_queue.as_str())
    }

    /// A SVR's thread on a connection a requester made: one session, then INACTIVE (the
    /// partner or DISCINT ended it) or STOPPED.
    fn run_requested(
        &self,
        queue_manager: &Arc<QueueManager>,
        channel: &ChannelDefinition,
        stream: Stream,
    ) {
        let limit = queue_manager.queue_manager_attributes().active_channels;
        let Some(_slot) = self.active_channels.try_acquire(limit) else {
            // A requester's connection does not wait: it is closed, the channel not activated.
            self.not_activated(queue_manager, channel, limit);
            self.set_status(SenderStatus::Stopped);
            return;
        };
        self.set_status(SenderStatus::Binding);
        let outcome = self.send_on(queue_manager, channel, stream, &mut 0);
        self.socket.lock().unwrap().take();
        match outcome {
            Ok(()) if !self.stopping() => {
                self.announce_ended(queue_manager, MQRQ_CHANNEL_STOPPED_OK, None);
                (self.log)(&format!(
                    "CSQX501I ferrite channel {} is no longer active",
                    channel.name
                ));
                self.set_status(SenderStatus::Inactive);
                return;
            }
            Err(error) if !self.stopping() => {
                self.announce_ended(queue_manager, MQRQ_CHANNEL_STOPPED_ERROR, Some(&error));
                (self.log)(&format!(
                    "CSQX599E ferrite channel {}: {error}",
                    channel.name
                ));
            }
            _ => self.announce_ended(queue_manager, MQRQ_CHANNEL_STOPPED_OK, None),
        }
        self.announce_stopped_by_user(queue_manager);
        self.set_status(SenderStatus::Stopped);
    }

    /// A requester's connection: INITIAL_DATA with CAP1_REQUEST_INITIATION, answered by the
    /// partner's SVR or SDR. A SVR then sends on this connection: it proposes INITIAL_DATA,
    /// this end answers as the receiving MCA and takes its batches until the partner ends
    /// the channel (Ok). A SDR instead closes the connection and calls back, starting itself
    /// to this queue manager's listener, where the RQSTR channel receives (Ok here).
    fn request(
        &self,
        queue_manager: &Arc<QueueManager>,
        channel: &ChannelDefinition,
        stream: Stream,
    ) -> Result<(), String> {
        let socket = raw_socket(&stream)?;
        let _ = socket.set_nodelay(true);
        socket
            .set_read_timeout(Some(ANSWER_TIMEOUT))
            .map_err(|e| e.to_string())?;
        *self.socket.lock().unwrap() = Some(socket);
        if self.stopping() {
            return Ok(());
        }
        let mut transport = Transport::new(stream);
        let request = negotiation::request(
            channel,
            queue_manager,
            ferrite_protocol::wire::MAX_TRANSMISSION_SIZE,
        );
        send_flow(
            &mut transport,
            SegmentType::InitialData,
            &request.encode(FLOW_ORDER),
        )?;
        initial_data_answer(&read_flow(&mut transport)?)?;
        let proposal = match transport.read_flow() {
            Ok(flow) if flow.header.segment_type == SegmentType::InitialData => {
                InitialData::decode(&flow.payload, flow.header.byte_order)
                    .map_err(|e| e.to_string())?
            }
            Ok(flow) => {
                return Err(format!(
                    "{:?} where the server's INITIAL_DATA was expected",
                    flow.header.segment_type
                ))
            }
            Err(ferrite_protocol::transport::TransportError::Closed) => {
                (self.log)(&format!(
                    "CSQX500I ferrite channel {}: the partner's sender calls back",
                    channel.name
                ));
                return Ok(());
            }
            Err(error) => return Err(error.to_string()),
        };
        let reply = negotiation::answer(
            &proposal,
            channel,
            queue_manager,
            ferrite_protocol::wire::MAX_TRANSMISSION_SIZE,
        );
        let flags = if reply.ini_err_flags1 != 0 {
            ControlFlags1::ERROR
        } else {
            0
        };
        let header = channel_header(
            SegmentType::InitialData,
            FLOW_ORDER,
            FLOW_ENCODING,
            FLOW_CCSID,
            flags,
        );
        transport
            .write_flow(&header, &reply.encode(FLOW_ORDER))
            .map_err(|e| e.to_string())?;
        let agreed = negotiation::agreed(&proposal, &reply).ok_or_else(|| {
            format!(
                "the server's INITIAL_DATA was refused (IniErrFlags1 {:#04x})",
                reply.ini_err_flags1
            )
        })?;
        transport.set_limits(agreed.max_transmission_size, agreed.max_message_length);
        // The sender's heartbeats keep an idle channel's socket alive: no read timeout.
        transport
            .stream()
            .set_read_timeout(None)
            .map_err(|e| e.to_string())?;
        self.announce_started(queue_manager);
        let partner = negotiation::partner_queue_manager(&proposal);
        let connection_name = self.connection_name.lock().unwrap().clone();
        serve_receiver(
            transport,
            queue_manager.clone(),
            channel,
            agreed,
            self,
            (&partner, &connection_name),
        )
    }

    /// One connection: negotiation, resolution of the in-doubt batch, batches until idle
    /// for DISCINT (Ok) or until the connection fails (Err).
    fn session(
        &self,
        queue_manager: &Arc<QueueManager>,
        channel: &ChannelDefinition,
        attempts: &mut u64,
    ) -> Result<(), String> {
        let (stream, entry) = connect(channel, &self.key_repository)?;
        *self.connection_name.lock().unwrap() = entry;
        if channel.channel_type == ChannelType::Requester {
            return self.request(queue_manager, channel, stream);
        }
        self.send_on(queue_manager, channel, stream, attempts)
    }

    /// The sending side of one connection (made by this end, or accepted from a requester):
    /// negotiation as the proposer, the in-doubt batch resolved, batches until idle for
    /// DISCINT (Ok) or until the connection fails (Err).
    fn send_on(
        &self,
        queue_manager: &Arc<QueueManager>,
        channel: &ChannelDefinition,
        stream: Stream,
        attempts: &mut u64,
    ) -> Result<(), String> {
        let socket = raw_socket(&stream)?;
        let _ = socket.set_nodelay(true);
        socket
            .set_read_timeout(Some(ANSWER_TIMEOUT))
            .map_err(|e| e.to_string())?;
        *self.socket.lock().unwrap() = Some(socket.try_clone().map_err(|e| e.to_string())?);
        // Message segments are written as they are cut (CONFIRM_REQUEST on the last only).
        let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
        if self.stop.load(Ordering::Acquire) == FORCE {
            return Ok(());
        }
        let mut transport = Transport::new(stream);
        let (agreed, partner) = negotiate(&mut transport, queue_manager, channel)?;
        let mut channel = channel.clone();
        agreed.apply(&mut channel);
        let mut agent =
            SendingAgent::open(queue_manager.clone(), &channel).map_err(|e| e.to_string())?;
        let mut partner_committed = confirmed_sequence(&read_flow(&mut transport)?)?;
        if let Some(next) = agent.pending_reset().map_err(|e| e.to_string())? {
            partner_committed = send_reset(&mut transport, next)?;
            agent.reset_sent().map_err(|e| e.to_string())?;
        }
        check_in_step(
            &agent,
            partner_committed,
            channel.message.sequence_number_wrap,
        )?;
        agent
            .resolve(partner_committed)
            .map_err(|e| e.to_string())?;
        self.last_sequence
            .store(partner_committed, Ordering::Relaxed);
        self.announce_started(queue_manager);
        *attempts = 0;
        let statistics = queue_manager.channel_statistics(
            &channel,
            &partner,
            &self.connection_name.lock().unwrap(),
        );
        let session = Session {
            agreed,
            statistics: statistics.as_deref(),
        };
        self.indicators.negotiated(agreed.compression);
        self.send_batches(
            &mut transport,
            &socket,
            &mut writer,
            &mut agent,
            &channel,
            session,
        )
    }

    /// Batches while the transmission queue has messages; Ok after DISCINT idle or at STOP.
    fn send_batches(
        &self,
        transport: &mut Transport,
        socket: &TcpStream,
        writer: &mut Stream,
        agent: &mut SendingAgent,
        channel: &ChannelDefinition,
        session: Session,
    ) -> Result<(), String> {
        let agreed = session.agreed;
        let mut idle_since = Instant::now();
        let disconnect = Duration::from_secs(u64::from(channel.disconnect_interval));
        let heartbeat = Duration::from_secs(u64::from(agreed.heartbeat_interval));
        let mut last_flow = Instant::now();
        // A compressed segment's payload and zlib's state (kept between segments).
        let mut compressed = (Vec::new(), ZlibState::default());
        loop {
            if self.stopping() {
                return Ok(());
            }
            self.in_doubt
                .store(u8::from(agent.in_doubt().is_some()), Ordering::Relaxed);
            if self.batch_heartbeat_due(agent, channel, last_flow)? {
                // BATCHHB: the partner is asked to answer before messages leave the
                // transmission queue; if it has gone they stay there, not in doubt.
                exchange_heartbeat(transport, socket, heartbeat)?;
                self.batch_heartbeats.fetch_add(1, Ordering::Relaxed);
                last_flow = Instant::now();
            }
            let Some(batch) = agent.next_batch().map_err(|e| e.to_string())? else {
                if channel.disconnect_interval != 0 && idle_since.elapsed() >= disconnect {
                    return Ok(());
                }
                if agreed.heartbeat_interval != 0 && last_flow.elapsed() >= heartbeat {
                    exchange_heartbeat(transport, socket, heartbeat)?;
                    last_flow = Instant::now();
                }
                agent
                    .wait_for_message(IDLE_WAIT_SLICE)
                    .map_err(|e| e.to_string())?;
                partner_still_there(transport, socket)?;
                continue;
            };
            self.in_doubt.store(1, Ordering::Relaxed);
            let count = batch.messages.len();
            for microseconds in &batch.queue_times_us {
                self.indicators
                    .transmission_queue_time_us
                    .record(*microseconds);
            }
            let mut batch_bytes = 0;
            for (index, message) in batch.messages.iter().enumerate() {
                batch_bytes += message.message.len();
                self.send_message(writer, message, agreed, index + 1 == count, &mut compressed)?;
            }
            // NETTIME: from the batch's end on the socket to the partner's confirmation.
            let sent = Instant::now();
            let confirmed = confirmed_sequence(&read_flow(transport)?)?;
            let network_time = sent.elapsed();
            self.indicators
                .network_time_us
                .record(network_time.as_micros() as u64);
            if let Some(statistics) = session.statistics {
                statistics.net_time(network_time);
            }
            if confirmed != batch.last_sequence() {
                return Err(format!(
                    "the partner confirmed sequence number {confirmed}, the batch ended at {}: sequence numbers out of step (RESET CHANNEL)",
                    batch.last_sequence()
                ));
            }
            agent.confirmed().map_err(|e| e.to_string())?;
            self.in_doubt.store(0, Ordering::Relaxed);
            self.last_sequence.store(confirmed, Ordering::Relaxed);
            self.messages.fetch_add(count as u64, Ordering::Relaxed);
            self.batches.fetch_add(1, Ordering::Relaxed);
            if let Some(statistics) = session.statistics {
                count_sent_batch(statistics, &batch, batch_bytes, channel);
            }
            idle_since = Instant::now();
            last_flow = idle_since;
        }
    }
}

/// What one sending session runs with: the negotiated values and, when STATCHL asks, the
/// channel's statistics counters.
struct Session<'a> {
    agreed: Agreed,
    statistics: Option<&'a ferrite_queue_manager::statistics::ChannelStatistics>,
}

/// STATCHL: a confirmed batch's messages and bytes, full when BATCHSZ (as negotiated) or
/// BATCHLIM ended it.
fn count_sent_batch(
    statistics: &ferrite_queue_manager::statistics::ChannelStatistics,
    batch: &super::sending::Batch,
    batch_bytes: usize,
    channel: &ChannelDefinition,
) {
    for message in &batch.messages {
        statistics.message(message.message.len());
    }
    let limit_kib = channel.message.batch_data_limit_kib as usize;
    let full = batch.messages.len() >= channel.message.batch_size as usize
        || (limit_kib != 0 && batch_bytes >= limit_kib * 1024);
    statistics.batch(full);
}

impl SenderMca {
    /// One message's MESSAGE_DATA segments, each compressed on its own as COMPHDR and COMPMSG
    /// agreed (`end_of_batch`: the last asks for confirmation); COMPRATE and COMPTIME count
    /// it.
    fn send_message(
        &self,
        writer: &mut Stream,
        message: &super::sync_queue::BatchMessage,
        agreed: Agreed,
        end_of_batch: bool,
        compressed: &mut (Vec<u8>, ZlibState),
    ) -> Result<(), String> {
        let (compressed, zlib) = compressed;
        let segments = message_flow_segments(
            message.sequence_number,
            &message.message,
            FLOW_ORDER,
            FLOW_ENCODING,
            FLOW_CCSID,
            agreed.max_transmission_size,
            end_of_batch,
        )
        .map_err(|e| e.to_string())?;
        let (mut raw, mut wire, mut nanoseconds) = (0u64, 0u64, 0u64);
        let mut used = SegmentCompression::NONE;
        for (position, mut segment) in segments.into_iter().enumerate() {
            raw += segment.payload.len() as u64;
            if agreed.compression.is_active() {
                let started = Instant::now();
                let flags = agreed.compression.compress(
                    position == 0,
                    &segment.payload,
                    FLOW_ORDER,
                    compressed,
                    zlib,
                );
                nanoseconds += started.elapsed().as_nanos() as u64;
                if flags != 0 {
                    std::mem::swap(&mut segment.payload, compressed);
                    segment.header.flags2 = ControlFlags2(flags);
                    used = segments_used(used, flags, agreed.compression);
                }
            }
            wire += segment.payload.len() as u64;
            let bytes = segment.encode().map_err(|e| e.to_string())?;
            write_all(writer, &bytes)?;
            self.bytes_sent
                .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        }
        self.indicators.message_moved(used, raw, wire, nanoseconds);
        self.current_sequence
            .store(message.sequence_number, Ordering::Relaxed);
        Ok(())
    }

    /// BATCHHB: whether a batch is about to start (a message waits, nothing is in doubt)
    /// after more than BATCHHB milliseconds without a flow from the partner.
    fn batch_heartbeat_due(
        &self,
        agent: &mut SendingAgent,
        channel: &ChannelDefinition,
        last_flow: Instant,
    ) -> Result<bool, String> {
        let interval = channel.message.batch_heartbeat_ms;
        if interval == 0
            || agent.in_doubt().is_some()
            || last_flow.elapsed() < Duration::from_millis(u64::from(interval))
        {
            return Ok(false);
        }
        agent
            .wait_for_message(Duration::ZERO)
            .map_err(|e| e.to_string())
    }
}

/// The connection name a channel not yet connected will use first (its first CONNAME entry).
fn planned_connection_name(channel: &ChannelDefinition) -> String {
    channel
        .message
        .connection_names
        .first()
        .cloned()
        .unwrap_or_default()
}

/// The techniques a message's segments used so far, with a segment's ControlFlags2 `flags`.
pub(crate) fn segments_used(
    used: SegmentCompression,
    flags: u8,
    agreed: SegmentCompression,
) -> SegmentCompression {
    SegmentCompression {
        header: if flags & ControlFlags2::HDRCOMP != 0 {
            agreed.header
        } else {
            used.header
        },
        message: if flags & ControlFlags2::MSGCOMP != 0 {
            agreed.message
        } else {
            used.message
        },
    }
}

/// The wait before retry `attempt` (from 1) of `channel`: SHORTTMR for the first SHORTRTY,
/// LONGTMR for the next LONGRTY, then none (the channel stops). A requester does not retry
/// (MQ's RQSTR has no retry attributes).
fn retry_interval(channel: &ChannelDefinition, attempt: u64) -> Option<u32> {
    let attributes = &channel.message;
    let short = u64::from(attributes.short_retry_count);
    let long = u64::from(attributes.long_retry_count);
    if channel.channel_type == ChannelType::Requester {
        None
    } else if attempt <= short {
        Some(attributes.short_retry_interval_seconds)
    } else if attempt <= short + long {
        Some(attributes.long_retry_interval_seconds)
    } else {
        None
    }
}

/// RESET_DATA: the partner is to expect `next`; its answer is its new committed number.
fn send_reset(transport: &mut Transport, next: u32) -> Result<u32, String> {
    let reset = ResetData {
        sequence_number: next,
    };
    send_flow(transport, SegmentType::ResetData, &reset.encode(FLOW_ORDER))?;
    confirmed_sequence(&read_flow(transport)?)
}

/// With nothing in doubt, the partner cannot have committed a number this end never sent
/// (its state, or this end's, was reset or recreated): the channel stops rather than have
/// every message taken for a duplicate, as MQ does (AMQ9526), until RESET CHANNEL.
fn check_in_step(agent: &SendingAgent, partner_committed: u32, wrap: u32) -> Result<(), String> {
    let sent = agent.last_sequence();
    let ahead = partner_committed != sent
        && super::is_at_or_after(partner_committed, super::next_sequence(sent, wrap), wrap);
    if agent.in_doubt().is_none() && ahead {
        return Err(format!(
            "AMQ9526E message sequence number error: the partner committed {partner_committed}, this end has sent up to {sent}; RESET CHANNEL SEQNUM at both ends"
        ));
    }
    Ok(())
}

/// HBINT: an idle sender asks the partner to answer a HEARTBEAT, so that a partner (or a
/// network) that has gone is found while nothing is sent, and the channel retries; BATCHHB
/// asks the same before a batch. The answer is awaited for the negotiated heartbeat interval
/// (at least a second), as MQ bases the wait on HBINT.
fn exchange_heartbeat(
    transport: &mut Transport,
    socket: &TcpStream,
    heartbeat: Duration,
) -> Result<(), String> {
    let wait = heartbeat.max(Duration::from_secs(1));
    socket
        .set_read_timeout(Some(wait))
        .map_err(|e| e.to_string())?;
    let answered = heartbeat_answered(transport);
    socket
        .set_read_timeout(Some(ANSWER_TIMEOUT))
        .map_err(|e| e.to_string())?;
    answered.map_err(|error| {
        format!(
            "no answer to a HEARTBEAT within {} s: {error}",
            wait.as_secs()
        )
    })
}

fn heartbeat_answered(transport: &mut Transport) -> Result<(), String> {
    let header = channel_header(
        SegmentType::Heartbeat,
        FLOW_ORDER,
        FLOW_ENCODING,
        FLOW_CCSID,
        ControlFlags1::CONFIRM_REQUEST,
    );
    transport
        .write_flow(&header, &[])
        .map_err(|e| e.to_string())?;
    let answer = read_flow(transport)?;
    if answer.header.segment_type != SegmentType::Heartbeat {
        return Err(format!(
            "{:?} in answer to a HEARTBEAT",
            answer.header.segment_type
        ));
    }
    Ok(())
}

/// Connects to the first address of CONNAME that answers: the stream and the entry. With
/// SSLCIPH the stream runs TLS with the key repository `key_repository`
/// (`tls::message_channel_client`): a handshake that fails (no CipherSpec in common, a
/// certificate the partner does not trust) or a partner certificate that does not match
/// SSLPEER is an error, and the channel retries as after any failed connection.
fn connect(
    channel: &ChannelDefinition,
    key_repository: &std::path::Path,
) -> Result<(Stream, String), String> {
    let (socket, entry, host) = connect_tcp(channel)?;
    if channel.ssl_cipher_spec.is_empty() {
        return Ok((Stream::Tcp(socket), entry));
    }
    let name = &channel.name;
    let client = crate::tls::message_channel_client(key_repository, &channel.ssl_cipher_spec)
        .map_err(|error| {
            format!("AMQ9642E channel {name}: no usable TLS key repository: {error}")
        })?;
    socket
        .set_read_timeout(Some(ANSWER_TIMEOUT))
        .and_then(|()| socket.set_write_timeout(Some(ANSWER_TIMEOUT)))
        .map_err(|e| e.to_string())?;
    let tls = client.connect(socket, &host).map_err(|error| {
        format!(
            "AMQ9631E channel {name}: the TLS handshake with {entry} failed ({error}); SSLCIPH({}) must be a CipherSpec the partner's channel accepts, with certificates each end trusts",
            channel.ssl_cipher_spec
        )
    })?;
    let _ = tls.set_write_timeout(None);
    crate::tls::check_partner(channel, &crate::tls::stream_security(&tls))?;
    Ok((Stream::Tls(tls), entry))
}

/// The TCP connection to the first address of CONNAME that answers: the socket, the entry
/// and its host.
fn connect_tcp(channel: &ChannelDefinition) -> Result<(TcpStream, String, String), String> {
    let mut failures = Vec::new();
    for entry in &channel.message.connection_names {
        let Some((host, port)) = parse_connection_name(entry) else {
            failures.push(format!("{entry}: not a connection name"));
            continue;
        };
        let addresses = match (host.as_str(), port).to_socket_addrs() {
            Ok(addresses) => addresses,
            Err(error) => {
                failures.push(format!("{entry}: {error}"));
                continue;
            }
        };
        for address in addresses {
            match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
                Ok(stream) => return Ok((stream, entry.clone(), host)),
                Err(error) => failures.push(format!("{entry}: {error}")),
            }
        }
    }
    Err(format!(
        "no address of CONNAME answered ({})",
        failures.join("; ")
    ))
}

/// PING CHANNEL: connect and negotiate as the channel would, send PING_DATA of
/// `data_length` bytes and check the partner echoes it; nothing is sent or resolved.
pub fn ping(
    queue_manager: &Arc<QueueManager>,
    channel: &ChannelDefinition,
    data_length: usize,
    key_repository: &std::path::Path,
) -> Result<(), String> {
    let (stream, _) = connect(channel, key_repository)?;
    stream
        .set_read_timeout(Some(ANSWER_TIMEOUT))
        .map_err(|e| e.to_string())?;
    let mut transport = Transport::new(stream);
    negotiate(&mut transport, queue_manager, channel)?;
    confirmed_sequence(&read_flow(&mut transport)?)?;
    let data: Vec<u8> = (0..data_length).map(|index| (index % 251) as u8).collect();
    let ping = PingData { data };
    send_flow(
        &mut transport,
        SegmentType::PingData,
        &ping.encode(FLOW_ORDER),
    )?;
    let echo = read_flow(&mut transport)?;
    if echo.header.segment_type != SegmentType::PingData {
        return Err(format!(
            "{:?} in answer to PING_DATA",
            echo.header.segment_type
        ));
    }
    let echoed =
        PingData::decode(&echo.payload, echo.header.byte_order).map_err(|e| e.to_string())?;
    if echoed != ping {
        return Err("the partner's PING_DATA differs from what was sent (AMQ9512)".to_string());
    }
    let _ = transport.stream().shutdown(std::net::Shutdown::Both);
    Ok(())
}

fn write_all(stream: &mut Stream, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    stream.write_all(bytes).map_err(|e| e.to_string())
}

/// The TCP socket under `stream` (timeouts, peeks, shutdown by STOP CHANNEL MODE(FORCE)).
pub(crate) fn raw_socket(stream: &Stream) -> Result<TcpStream, String> {
    match stream {
        Stream::Tcp(socket) => socket.try_clone(),
        Stream::Tls(tls) => tls.socket().try_clone(),
        Stream::Unix(_) => Err(std::io::Error::other("a message channel runs on TCP")),
    }
    .map_err(|e| e.to_string())
}

fn read_flow(transport: &mut Transport) -> Result<ferrite_protocol::segment::Segment, String> {
    transport.read_flow().map_err(|error| match error {
        ferrite_protocol::transport::TransportError::Closed => {
            "the partner closed the connection".to_string()
        }
        other => other.to_string(),
    })
}

/// Proposes INITIAL_DATA and takes the partner's answer: what was agreed, and the partner
/// queue manager's name.
fn negotiate(
    transport: &mut Transport,
    queue_manager: &QueueManager,
    channel: &ChannelDefinition,
) -> Result<(Agreed, String), String> {
    let proposal = negotiation::proposal(
        channel,
        queue_manager,
        ferrite_protocol::wire::MAX_TRANSMISSION_SIZE,
    );
    send_flow(
        transport,
        SegmentType::InitialData,
        &proposal.encode(FLOW_ORDER),
    )?;
    let answer = initial_data_answer(&read_flow(transport)?)?;
    let agreed = negotiation::agreed(&proposal, &answer)
        .ok_or_else(|| "the partner's INITIAL_DATA answer raised a limit".to_string())?;
    transport.set_limits(agreed.max_transmission_size, agreed.max_message_length);
    Ok((agreed, negotiation::partner_queue_manager(&answer)))
}

/// The partner's answer to this end's INITIAL_DATA: its ID, or why it refused (a STATUS_DATA
/// refusal carries MQ's reason, such as 2540 MQRC_UNKNOWN_CHANNEL_NAME).
fn initial_data_answer(flow: &ferrite_protocol::segment::Segment) -> Result<InitialData, String> {
    if flow.header.segment_type == SegmentType::StatusData {
        confirmed_sequence(flow)?;
        return Err("the partner answered INITIAL_DATA with STATUS_DATA".to_string());
    }
    if flow.header.segment_type != SegmentType::InitialData {
        return Err(format!(
            "{:?} in answer to INITIAL_DATA",
            flow.header.segment_type
        ));
    }
    let answer =
        InitialData::decode(&flow.payload, flow.header.byte_order).map_err(|e| e.to_string())?;
    if flow.header.flags1.contains(ControlFlags1::ERROR) || answer.ini_err_flags1 != 0 {
        return Err(format!(
            "the partner refused the proposal (IniErrFlags1 {:#04x})",
            answer.ini_err_flags1
        ));
    }
    Ok(answer)
}

impl ReceiverProgress for SenderMca {
    fn indicators(&self) -> &ChannelIndicators {
        &self.indicators
    }

    fn message_received(&self, bytes: usize) {
        self.messages.fetch_add(1, Ordering::Relaxed);
        self.bytes_received
            .fetch_add(bytes as u64, Ordering::Relaxed);
    }

    fn batch_committed(&self, sequence: u32) {
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.current_sequence.store(sequence, Ordering::Relaxed);
        self.last_sequence.store(sequence, Ordering::Relaxed);
    }
}

/// [`partner_still_there`] on a TLS session: bytes on the socket may be TLS records that
/// carry no flow (an alert, a key update), so the flow is read with a short timeout instead
/// of peeked at; a read that times out keeps what it had read in the transport.
fn tls_partner_still_there(transport: &mut Transport, socket: &TcpStream) -> Result<(), String> {
    const GLANCE: Duration = Duration::from_millis(1);
    socket
        .set_read_timeout(Some(GLANCE))
        .map_err(|e| e.to_string())?;
    let read = transport.read_flow();
    socket
        .set_read_timeout(Some(ANSWER_TIMEOUT))
        .map_err(|e| e.to_string())?;
    match read {
        Err(ferrite_protocol::transport::TransportError::Io(error))
            if matches!(
                error.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Ok(())
        }
        Err(ferrite_protocol::transport::TransportError::Closed) => {
            Err("the partner closed the connection".to_string())
        }
        Err(error) => Err(error.to_string()),
        Ok(flow) => match flow.header.segment_type {
            SegmentType::StatusData => Err(format!(
                "the partner ended the channel ({})",
                confirmed_sequence(&flow).err().unwrap_or_default()
            )),
            other => Err(format!(
                "protocol error: {other:?} from the partner between batches"
            )),
        },
    }
}

/// Between batches the partner sends nothing unasked: a connection it closed (a requester
/// or receiver stopped) or a flow it sent (STATUS_DATA ending the channel, or garbage) ends
/// the session, found without waiting for the next heartbeat.
fn partner_still_there(transport: &mut Transport, socket: &TcpStream) -> Result<(), String> {
    if matches!(transport.stream(), Stream::Tls(_)) {
        return tls_partner_still_there(transport, socket);
    }
    socket.set_nonblocking(true).map_err(|e| e.to_string())?;
    let mut byte = [0u8; 1];
    let peeked = socket.peek(&mut byte);
    socket.set_nonblocking(false).map_err(|e| e.to_string())?;
    match peeked {
        Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => Ok(()),
        Err(error) => Err(error.to_string()),
        Ok(0) => Err("the partner closed the connection".to_string()),
        Ok(_) => {
            let flow = read_flow(transport)?;
            match flow.header.segment_type {
                SegmentType::StatusData => Err(format!(
                    "the partner ended the channel ({})",
                    confirmed_sequence(&flow).err().unwrap_or_default()
                )),
                other => Err(format!(
                    "protocol error: {other:?} from the partner between batches"
                )),
            }
        }
    }
}
