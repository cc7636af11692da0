//! One client socket of the channel initiator: a running instance of a SVRCONN channel.
//!
//! ## States
//! *Negotiating*: only INITIAL_DATA is accepted. The proposal names the channel; an unknown
//! name gets STATUS_DATA NO_CHANNEL (the client reports MQRC_UNKNOWN_CHANNEL_NAME, 2540). Values
//! Ferrite cannot accept are answered with ERROR and the IniErrFlags1 bits, and the client may
//! propose again, [`NEGOTIATION_ATTEMPTS`] times in all. Agreed: FAP level (the lower of the
//! two), MaxTransmissionSize (the lower), MaxMessageSize (the lower of the client's and the
//! channel's MAXMSGL), heartbeat interval (the higher of the client's and the channel's HBINT,
//! as MQ does), conversations per socket (the lower of the client's and the channel's SHARECNV).
//!
//! *Running*: with SHARECNV > 0 every conversation flow comes in a TSHM header carrying its
//! ConversationId; the first conversation (id 1) exists from the negotiation on, others are
//! started by SOCKET_ACTION START_CONV (answered ACCEPT_CONV) and ended by END_CONV. With
//! SHARECNV 0, flows come in TSH headers and there is one conversation. Heartbeats (TSHC or
//! TSH with CONFIRM_REQUEST) are answered by the receiver thread at once. Every other flow goes
//! to its conversation's thread, which serves USERID_DATA, CONAUTH_INFO and the MQI verbs in
//! order and writes the replies.
//!
//! A peer that breaks the protocol has its socket closed; its conversations end, their MQI
//! connections are dropped (units of work backed out, handles closed), and the queue manager
//! and every other socket carry on.

use std::collections::HashMap;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_client::transport::{FlowWriter, Transport, TransportError};
use ferrite_client::wire;
use ferrite_constants::reason::*;
use ferrite_protocol::control::{
    socket_action_type, status_code, Notification, RequestMsgs, SocketAction, Status,
};
use ferrite_protocol::initial_data::*;
use ferrite_protocol::segment::{ControlFlags1, HeaderKind, Segment, SegmentHeader, SegmentType};
use ferrite_protocol::uid::Uid;
use ferrite_protocol::ByteOrder;

use crate::async_consume::{Consumers, CONSUMER_WAIT_SLICE};
use crate::authentication::{self, Credentials, PasswordTransport};
use crate::channel_initiator::{ChannelInstance, ChinitShared, CONVERSATION_STACK_BYTES};
use crate::flows::{answer_initial_data, protocol, reply_header, Acceptable, End};
use crate::session::{MqiSession, SessionEnd};
use crate::tls::{self, SocketSecurity};
use crate::trace;

/// Proposals refused this many times end the socket.
const NEGOTIATION_ATTEMPTS: u32 = 3;
/// Conversations one socket may carry at most, whatever SHARECNV says (MQ's limit is 999).
pub const CONVERSATIONS_PER_SOCKET_MAX: u32 = 999;
/// The highest FAP level Ferrite speaks on client channels.
pub const CLIENT_FAP_LEVEL: u8 = 13;

/// The password protection algorithm list (PAL) of the server's ID: ten 2-byte big-endian
/// entries, unused ones 0xFFFF. The client lists the algorithms it offers, preferred first (the
/// 9.4.5 Java client offers 1, then 0); the server answers with the one it chose. Observed: an
/// answer of 0 alone, or of no entry, fails the client's check (MQRC 2594), an answer of its
/// first entry is accepted. Ferrite answers the client's first entry: 0 (no protection) on a
/// TLS socket, where that is all the client offers, and its algorithm (1) over plaintext TCP,
/// where the password then arrives protected and cannot be checked (never in clear over the
/// network; see `crate::authentication`).
fn password_protection_reply(offered: &[u8; 20]) -> [u8; 20] {
    let mut pal = [0xFF; 20];
    pal[..2].copy_from_slice(&offered[..2]);
    pal
}

/// Bytes a channel's receiver reads at a time: small, because an idle client socket keeps its
/// buffer (longer flows are read in several reads).
pub const CHANNEL_READ_BUFFER_BYTES: usize = 8 * 1024;

/// How long a write to a client may block before the channel ends.
pub const WRITE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

fn set_keepalive(stream: &TcpStream) {
    use std::os::unix::io::AsRawFd;
    set_socket_option(stream.as_raw_fd(), libc::SOL_SOCKET, libc::SO_KEEPALIVE, 1);
}

/// Sets an integer socket option (failures leave the system's value: nothing depends on it).
fn set_socket_option(
    fd: std::os::unix::io::RawFd,
    level: libc::c_int,
    name: libc::c_int,
    value: i32,
) {
    let value: libc::c_int = value;
    // SAFETY: setting an integer socket option on a socket we own.
    unsafe {
        libc::setsockopt(
            fd,
            level,
            name,
            &value as *const libc::c_int as *const libc::c_void,
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
}

/// KAINT: the seconds of silence before TCP probes the partner, and between probes. AUTO
/// (-1) is the negotiated heartbeat interval plus 60 seconds, as MQ does; 0 leaves the
/// system's keepalive timing.
fn keepalive_seconds(kaint: i32, heartbeat_interval: u32) -> Option<i32> {
    match kaint {
        ferrite_storage::queue_manager::KEEPALIVE_AUTO if heartbeat_interval > 0 => {
            Some(heartbeat_interval.saturating_add(60).min(i32::MAX as u32) as i32)
        }
        seconds if seconds > 0 => Some(seconds),
        _ => None,
    }
}

/// Marks a conversation as waiting on the queue manager while it lives.
struct Busy<'a>(&'a ChannelInstance);

impl<'a> Busy<'a> {
    fn new(instance: &'a ChannelInstance) -> Busy<'a> {
        instance.busy_conversations.fetch_add(1, Ordering::AcqRel);
        Busy(instance)
    }
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.busy_conversations.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What the negotiation settled.
#[derive(Clone, Debug)]
struct Agreed {
    max_message_size: u32,
    conversations_per_socket: u32,
}

/// A conversation as the receiver sees it: where its flows go.
struct ConversationHandle {
    flows: Sender<Segment>,
    gone: Arc<AtomicBool>,
}

/// Everything a conversation thread needs.
struct ConversationContext {
    shared: Arc<ChinitShared>,
    instance: Arc<ChannelInstance>,
    writer: Arc<Mutex<FlowWriter>>,
    gone: Arc<AtomicBool>,
    max_message_size: u32,
    /// Security hook: the socket's TLS and the channel's definition, for MQCONN's checks.
    security: Arc<ChannelSecurity>,
}

/// What connection authentication needs to know about the socket and its channel.
#[derive(Debug)]
struct ChannelSecurity {
    socket: SocketSecurity,
    password_transport: PasswordTransport,
    channel: ferrite_storage::queue_manager::ChannelDefinition,
}

struct Channel<'a> {
    shared: &'a Arc<ChinitShared>,
    instance: &'a Arc<ChannelInstance>,
    reader: Transport,
    writer: Arc<Mutex<FlowWriter>>,
    agreed: Option<Agreed>,
    attempts: u32,
    conversations: HashMap<u32, ConversationHandle>,
    /// HBINT negotiated, seconds (0: none).
    heartbeat_seconds: u64,
    /// DISCINT of the channel, seconds (0: never).
    disconnect_seconds: u64,
    /// TLS of the socket (security hook).
    socket_security: SocketSecurity,
    /// Set by the negotiation (security hook).
    security: Option<Arc<ChannelSecurity>>,
}

/// Serves one accepted socket until it ends.
pub(crate) fn serve(
    shared: &Arc<ChinitShared>,
    instance: &Arc<ChannelInstance>,
    stream: TcpStream,
) {
    let _ = stream.set_nodelay(true);
    // KAINT(AUTO): the operating system's TCP keepalive finds peers that vanished without a
    // FIN; a write that cannot complete in WRITE_TIMEOUT (a client that stopped reading)
    // ends the channel instead of holding its conversations for ever.
    set_keepalive(&stream);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    if stream
        .set_read_timeout(Some(shared.config.handshake_timeout))
        .is_err()
    {
        return;
    }
    // Security hook: TLS from the first byte when the client starts with a TLS handshake.
    let (stream, socket_security) = match tls::accept(
        stream,
        shared.queue_manager.directory(),
        &shared.config.ssl_key_repository,
        shared.config.handshake_timeout,
    ) {
        Ok(accepted) => accepted,
        Err(error) => {
            (shared.log)(&format!(
                "AMQ9637E ferrite listener: client {}: {error}",
                instance.peer
            ));
            return;
        }
    };
    let Ok(write_stream) = stream.try_clone() else {
        return;
    };
    let mut channel = Channel {
        shared,
        instance,
        reader: Transport::with_read_buffer(stream, CHANNEL_READ_BUFFER_BYTES),
        writer: Arc::new(Mutex::new(FlowWriter::new(write_stream))),
        agreed: None,
        attempts: 0,
        conversations: HashMap::new(),
        heartbeat_seconds: 0,
        disconnect_seconds: 0,
        socket_security,
        security: None,
    };
    let end = channel.run();
    if let End::Error(error) = end {
        if !shared.stopping.load(Ordering::Acquire) && !instance.stopping.load(Ordering::Acquire) {
            (shared.log)(&format!(
                "CSQX208E ferrite channel {} from {}: ended: {error}",
                instance.channel_name.lock().unwrap(),
                instance.peer
            ));
        }
    }
    for (_, conversation) in channel.conversations.drain() {
        conversation.gone.store(true, Ordering::Release);
    }
    let _ = channel.reader.stream().shutdown(std::net::Shutdown::Both);
}

fn write(
    writer: &Mutex<FlowWriter>,
    instance: &ChannelInstance,
    header: &SegmentHeader,
    payload: &[u8],
) -> Result<(), TransportError> {
    trace::flow(instance.id, "send", header, payload);
    let mut writer = writer.lock().unwrap();
    let before = writer.bytes_written();
    let result = writer.write_flow(header, payload);
    instance
        .bytes_sent
        .fetch_add(writer.bytes_written() - before, Ordering::Relaxed);
    result
}

impl Channel<'_> {
    fn run(&mut self) -> End {
        // Heartbeats: after a heartbeat interval with nothing from the client, the queue
        // manager sends a HEARTBEAT asking for confirmation; a second interval of silence
        // means the client (or the network to it) is gone, and the channel ends.
        // Disconnect interval: a channel whose conversations made no MQI call for DISCINT
        // seconds, and are not waiting on the queue manager, is ended (as MQ's SVRCONN).
        let mut heartbeat_sent: Option<Instant> = None;
        let mut last_received = Instant::now();
        loop {
            if self.shared.stopping.load(Ordering::Acquire)
                || self.instance.stopping.load(Ordering::Acquire)
            {
                return End::Closed;
            }
            let flow = match self.reader.read_flow() {
                Ok(flow) => flow,
                Err(TransportError::Io(error))
                    if self.agreed.is_some()
                        && matches!(
                            error.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                        ) =>
                {
                    let busy = self.instance.busy_conversations.load(Ordering::Acquire) > 0;
                    if !busy && self.disconnect_interval_expired() {
                        (self.shared.log)(&format!(
                            "CSQX259E ferrite channel {} from {}: no MQI call for DISCINT({}) seconds, channel ended",
                            self.instance.channel_name.lock().unwrap(),
                            self.instance.peer,
                            self.disconnect_seconds
                        ));
                        return End::Closed;
                    }
                    // As MQ: heartbeats flow only while the client waits for the queue
                    // manager (a waiting MQGET, a consumer waiting for messages).
                    let heartbeat = Duration::from_secs(self.heartbeat_seconds);
                    if !busy || self.heartbeat_seconds == 0 {
                        heartbeat_sent = None;
                        continue;
                    }
                    if let Some(sent) = heartbeat_sent {
                        if sent.elapsed() >= heartbeat {
                            return End::Error(format!(
                                "no answer to a heartbeat within {} s: the client is gone",
                                self.heartbeat_seconds
                            ));
                        }
                        continue;
                    }
                    if last_received.elapsed() < heartbeat {
                        continue;
                    }
                    let mut header = SegmentHeader::new(
                        HeaderKind::Tshc,
                        SegmentType::Heartbeat,
                        ByteOrder::Big,
                    );
                    header.flags1 = ControlFlags1(
                        ControlFlags1::CONFIRM_REQUEST | ControlFlags1::FIRST | ControlFlags1::LAST,
                    );
                    if let Err(end) = self.send(&header, &[]) {
                        return end;
                    }
                    heartbeat_sent = Some(Instant::now());
                    continue;
                }
                Err(error) => return error.into(),
            };
            heartbeat_sent = None;
            last_received = Instant::now();
            self.instance.bytes_received.fetch_add(
                (flow.header.header_length() + flow.payload.len()) as u64,
                Ordering::Relaxed,
            );
            trace::flow(self.instance.id, "recv", &flow.header, &flow.payload);
            if let Err(end) = self.handle(flow) {
                return end;
            }
        }
    }

    /// Whether DISCINT has passed since the channel's last MQI call (or its start).
    fn disconnect_interval_expired(&self) -> bool {
        if self.disconnect_seconds == 0 {
            return false;
        }
        let last_ms = self.instance.last_message_ms.load(Ordering::Relaxed);
        let last = if last_ms == 0 {
            self.instance.started
        } else {
            std::time::SystemTime::UNIX_EPOCH + Duration::from_millis(last_ms)
        };
        last.elapsed()
            .is_ok_and(|idle| idle >= Duration::from_secs(self.disconnect_seconds))
    }

    fn send(&self, header: &SegmentHeader, payload: &[u8]) -> Result<(), End> {
        write(&self.writer, self.instance, header, payload).map_err(End::from)
    }

    fn handle(&mut self, flow: Segment) -> Result<(), End> {
        let segment_type = flow.header.segment_type;
        let order = flow.header.byte_order;
        match segment_type {
            SegmentType::InitialData => return self.negotiate(&flow),
            _ if self.agreed.is_none() => {
                return Err(protocol(format!("{segment_type:?} before INITIAL_DATA")));
            }
            SegmentType::Heartbeat => {
                if flow.header.flags1.contains(ControlFlags1::CONFIRM_REQUEST) {
                    let header = reply_header(&flow.header, SegmentType::Heartbeat);
                    self.send(&header, &flow.payload)?;
                }
                return Ok(());
            }
            SegmentType::SocketAction => {
                let action = SocketAction::decode(&flow.payload, order).map_err(protocol)?;
                return self.socket_action(&flow.header, action);
            }
            _ => {}
        }
        let conversation_id = match flow.header.kind {
            HeaderKind::Tshm {
                conversation_id, ..
            } => conversation_id,
            HeaderKind::Tsh | HeaderKind::Tshc => 0,
        };
        let Some(conversation) = self.conversations.get(&conversation_id) else {
            return Err(protocol(format!(
                "{segment_type:?} for conversation {conversation_id}, which is not started"
            )));
        };
        if conversation.flows.send(flow).is_err() {
            // The conversation's thread has ended (a protocol error of its own).
            self.conversations.remove(&conversation_id);
            return Err(protocol(format!("conversation {conversation_id} failed")));
        }
        Ok(())
    }

    fn socket_action(&mut self, request: &SegmentHeader, action: SocketAction) -> Result<(), End> {
        let order = request.byte_order;
        match action.action_type {
            socket_action_type::START_CONV => {
                let agreed = self.agreed.clone().expect("negotiated");
                let id = action.conversation_id;
                if self.conversations.contains_key(&id)
                    || self.conversations.len() as u32 >= agreed.conversations_per_socket
                {
                    return Err(protocol(format!(
                        "START_CONV {id}: already started or SHARECNV({}) reached",
                        agreed.conversations_per_socket
                    )));
                }
                self.start_conversation(id, agreed.max_message_size)?;
                // Answered on the new conversation's TSHM (as observed of MQ servers), with
                // flags clear.
                let mut header = SegmentHeader::new(
                    HeaderKind::Tshm {
                        conversation_id: id,
                        request_id: action.request_id,
                    },
                    SegmentType::SocketAction,
                    order,
                );
                header.flags1 = ControlFlags1(0);
                header.ccsid = request.ccsid;
                header.encoding = request.encoding;
                let reply = SocketAction {
                    action_type: socket_action_type::ACCEPT_CONV,
                    ..action
                };
                self.send(&header, &reply.encode(order))
            }
            socket_action_type::END_CONV => {
                if let Some(conversation) = self.conversations.remove(&action.conversation_id) {
                    conversation.gone.store(true, Ordering::Release);
                }
                if self.conversations.is_empty() {
                    return Err(End::Closed);
                }
                Ok(())
            }
            other => Err(protocol(format!("SOCKET_ACTION type {other}"))),
        }
    }

    fn start_conversation(&mut self, id: u32, max_message_size: u32) -> Result<(), End> {
        let (flows, receiver) = mpsc::channel();
        let gone = Arc::new(AtomicBool::new(false));
        let context = ConversationContext {
            shared: self.shared.clone(),
            instance: self.instance.clone(),
            writer: self.writer.clone(),
            gone: gone.clone(),
            max_message_size,
            security: self.security.clone().expect("negotiated"),
        };
        let thread = std::thread::Builder::new()
            .name(format!("ferrite-conv-{}-{id}", self.instance.id))
            .stack_size(CONVERSATION_STACK_BYTES)
            .spawn(move || conversation_thread(context, receiver))
            .map_err(|error| End::Error(format!("cannot start a conversation thread: {error}")))?;
        self.shared.register_thread(thread);
        self.conversations
            .insert(id, ConversationHandle { flows, gone });
        self.instance.conversations.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    fn negotiate(&mut self, flow: &Segment) -> Result<(), End> {
        if self.agreed.is_some() {
            return Err(protocol("INITIAL_DATA after the negotiation"));
        }
        let order = flow.header.byte_order;
        let proposal = InitialData::decode(&flow.payload, order).map_err(protocol)?;
        let channel_name = proposal.channel_name.trimmed();
        let Some(channel) = self.shared.queue_manager.channel(&channel_name) else {
            (self.shared.log)(&format!(
                "CSQX520E ferrite listener: remote channel {channel_name} not defined (client {})",
                self.instance.peer
            ));
            self.status(flow, status_code::NO_CHANNEL, MQRC_UNKNOWN_CHANNEL_NAME)?;
            return Err(End::Closed);
        };
        // Security hook: the socket's TLS against the channel's SSLCIPH, SSLCAUTH, SSLPEER.
        if let Err(refusal) = tls::check_channel(&channel, &self.socket_security) {
            (self.shared.log)(&format!(
                "{} (client {})",
                refusal.message, self.instance.peer
            ));
            self.status(flow, refusal.status, refusal.reason)?;
            return Err(End::Closed);
        }
        let (instances, from_client) = self
            .shared
            .instance_counts(&channel.name, self.instance.peer.ip());
        if instances >= channel.max_instances || from_client >= channel.max_instances_per_client {
            (self.shared.log)(&format!(
                "CSQX209E ferrite channel {} from {}: MAXINST({}) or MAXINSTC({}) reached, reason 2025 MQRC_MAX_CONNS_LIMIT_REACHED",
                channel.name, self.instance.peer, channel.max_instances, channel.max_instances_per_client
            ));
            self.status(
                flow,
                status_code::CHANNEL_UNAVAILABLE,
                MQRC_MAX_CONNS_LIMIT_REACHED,
            )?;
            return Err(End::Closed);
        }
        *self.instance.channel_name.lock().unwrap() = channel.name.clone();
        // MAXMSGL(0) means the queue manager's limit.
        let channel_max_message_length = match channel.max_message_length {
            0 => wire::MAX_MESSAGE_SIZE,
            length => length,
        };
        let heartbeat_interval = proposal.heartbeat_interval.max(channel.heartbeat_interval);
        let conversations_per_socket = (proposal.conv_per_socket.max(0) as u32)
            .min(channel.sharing_conversations)
            .min(CONVERSATIONS_PER_SOCKET_MAX);
        let mut reply = answer_initial_data(
            &proposal,
            &Acceptable {
                fap_level: CLIENT_FAP_LEVEL,
                max_transmission_size: self.shared.config.max_transmission_size,
                max_message_size: channel_max_message_length,
                heartbeat_interval,
                conversations_per_socket,
            },
            &self.shared.queue_manager,
        );
        reply.pal = password_protection_reply(&proposal.pal);
        let errors = reply.ini_err_flags1;
        let (max_transmission_size, max_message_size) =
            (reply.max_transmission_size, reply.max_message_size);
        let mut header = reply_header(&flow.header, SegmentType::InitialData);
        if errors != 0 {
            header.flags1 = ControlFlags1(header.flags1.0 | ControlFlags1::ERROR);
        }
        self.send(&header, &reply.encode(order))?;
        if errors != 0 {
            self.attempts += 1;
            if self.attempts >= NEGOTIATION_ATTEMPTS {
                return Err(End::Error(format!(
                    "INITIAL_DATA negotiation failed {NEGOTIATION_ATTEMPTS} times (IniErrFlags1 {errors:#04x})"
                )));
            }
            return Ok(());
        }
        self.reader
            .set_limits(max_transmission_size, max_message_size);
        self.writer
            .lock()
            .unwrap()
            .set_max_transmission_size(max_transmission_size);
        // Reads wake at least every HBINT and DISCINT (the smaller one that is not 0) to send
        // heartbeats and end idle channels; with neither, they wait for ever (TCP keepalive
        // still applies).
        if let Some(seconds) = keepalive_seconds(channel.keepalive_interval, heartbeat_interval) {
            use std::os::unix::io::AsRawFd;
            let fd = self.reader.stream().as_raw_fd();
            set_socket_option(fd, libc::IPPROTO_TCP, libc::TCP_KEEPIDLE, seconds);
            set_socket_option(fd, libc::IPPROTO_TCP, libc::TCP_KEEPINTVL, seconds);
        }
        self.heartbeat_seconds = u64::from(heartbeat_interval);
        self.disconnect_seconds = u64::from(channel.disconnect_interval);
        let wake = [self.heartbeat_seconds, self.disconnect_seconds]
            .into_iter()
            .filter(|&seconds| seconds > 0)
            .min()
            .map(|seconds| {
                Duration::from_millis(seconds * 1000 / 2).max(Duration::from_millis(100))
            });
        let _ = self.reader.stream().set_read_timeout(wake);
        let instance = self.instance;
        instance
            .heartbeat_interval
            .store(heartbeat_interval, Ordering::Relaxed);
        instance
            .max_message_length
            .store(max_message_size, Ordering::Relaxed);
        instance
            .max_conversations
            .store(conversations_per_socket.max(1), Ordering::Relaxed);
        self.agreed = Some(Agreed {
            max_message_size,
            conversations_per_socket: conversations_per_socket.max(1),
        });
        // Security hook: how passwords travel on this socket.
        self.security = Some(Arc::new(ChannelSecurity {
            socket: self.socket_security.clone(),
            password_transport: authentication::password_transport(reply.fap_level, &reply.pal),
            channel: channel.clone(),
        }));
        let first = if conversations_per_socket == 0 { 0 } else { 1 };
        self.start_conversation(first, max_message_size)
    }

    fn status(&self, flow: &Segment, code: i32, reason: i32) -> Result<(), End> {
        let order = flow.header.byte_order;
        let status = Status {
            code,
            value: Some(reason),
            extra: Vec::new(),
            trailing: Vec::new(),
        };
        // CLOSE_CHANNEL: observed, IBM's Java client maps the status code to a reason only
        // with this flag (NO_CHANNEL -> 2540, CIPHER_SPEC and PEER_NAME -> 2397,
        // CHANNEL_UNAVAILABLE -> 2537); without it, it reports MQRC_UNEXPECTED_ERROR (2195).
        let mut header = SegmentHeader::new(flow.header.kind, SegmentType::StatusData, order);
        header.flags1 = ControlFlags1(
            ControlFlags1::CLOSE_CHANNEL | ControlFlags1::FIRST | ControlFlags1::LAST,
        );
        self.send(&header, &status.encode(order))
    }
}

/// A conversation's thread: serves its flows in order until the receiver drops its sender or
/// marks it gone. Dropping the session at the end backs out its unit of work.
fn conversation_thread(context: ConversationContext, flows: Receiver<Segment>) {
    let mut session = MqiSession::new(
        context.shared.queue_manager.clone(),
        context.max_message_size,
    );
    let mut consumers = Consumers::default();
    // Security hook: the CONAUTH_INFO credentials, checked at MQCONN.
    let mut credentials: Option<Credentials> = None;
    loop {
        let flow = if consumers.has_demand() {
            match flows.try_recv() {
                Ok(flow) => flow,
                Err(TryRecvError::Disconnected) => break,
                Err(TryRecvError::Empty) => {
                    if context.gone.load(Ordering::Acquire) {
                        break;
                    }
                    let busy = Busy::new(&context.instance);
                    let delivered = consumers.deliver(&mut session, CONSUMER_WAIT_SLICE);
                    drop(busy);
                    if let Some(outgoing) = delivered {
                        context.instance.note_message();
                        if write(
                            &context.writer,
                            &context.instance,
                            &outgoing.header,
                            &outgoing.payload,
                        )
                        .is_err()
                        {
                            break;
                        }
                    }
                    continue;
                }
            }
        } else {
            match flows.recv() {
                Ok(flow) => flow,
                Err(_) => break,
            }
        };
        if context.gone.load(Ordering::Acquire) {
            break;
        }
        let busy = Busy::new(&context.instance);
        let served = serve_flow(
            &context,
            &mut session,
            &mut consumers,
            &mut credentials,
            &flow,
        );
        drop(busy);
        match served {
            Ok(()) => {}
            Err(end) => {
                if let End::Error(error) = end {
                    if !context.gone.load(Ordering::Acquire) {
                        (context.shared.log)(&format!(
                            "CSQX208E ferrite channel {} from {}: conversation ended: {error}",
                            context.instance.channel_name.lock().unwrap(),
                            context.instance.peer
                        ));
                        // A broken conversation ends the socket: the peer cannot resynchronise.
                        context.instance.stop();
                    }
                }
                break;
            }
        }
    }
    context
        .instance
        .conversations
        .fetch_sub(1, Ordering::Relaxed);
    drop(session);
}

fn serve_flow(
    context: &ConversationContext,
    session: &mut MqiSession,
    consumers: &mut Consumers,
    credentials: &mut Option<Credentials>,
    flow: &Segment,
) -> Result<(), End> {
    let order: ByteOrder = flow.header.byte_order;
    let send = |header: &SegmentHeader, payload: &[u8]| {
        write(&context.writer, &context.instance, header, payload).map_err(End::from)
    };
    match flow.header.segment_type {
        SegmentType::UseridData => {
            let uid = Uid::decode(&flow.payload, order).map_err(protocol)?;
            let long = uid
                .extension
                .as_ref()
                .map(|extension| extension.long_user_id.trimmed())
                .unwrap_or_default();
            session.user = if long.is_empty() {
                uid.user_id.trimmed()
            } else {
                long
            };
            // No reply: the client goes straight on to CONAUTH_INFO or MQCONN.
            Ok(())
        }
        SegmentType::ConauthInfo => {
            // Security hook: keep the user ID and password for MQCONN; IBM's client goes on
            // after a STATUS_DATA with code 0 (see `crate::authentication`).
            *credentials =
                authentication::credentials_from_caut(&flow.payload, order).map_err(protocol)?;
            let header = reply_header(&flow.header, SegmentType::StatusData);
            let status = Status {
                code: 0,
                value: Some(0),
                extra: Vec::new(),
                trailing: Vec::new(),
            };
            send(&header, &status.encode(order))
        }
        SegmentType::Notification => {
            let notification = Notification::decode(&flow.payload, order).map_err(protocol)?;
            match consumers.notification(&flow.header, notification) {
                Some(reply) => send(&reply.header, &reply.payload),
                None => Ok(()),
            }
        }
        SegmentType::RequestMsgs => {
            let request = RequestMsgs::decode(&flow.payload, order).map_err(protocol)?;
            consumers.request(&flow.header, request).map_err(protocol)
        }
        t if t.has_api_header() && !t.is_reply() => {
            if t == SegmentType::MqClose && flow.payload.len() >= 16 {
                let mut hobj = [0u8; 4];
                hobj.copy_from_slice(&flow.payload[12..16]);
                consumers.remove(match order {
                    ByteOrder::Big => i32::from_be_bytes(hobj),
                    ByteOrder::Little => i32::from_le_bytes(hobj),
                });
            }
            let Some(reply_type) = t.reply() else {
                return Err(protocol(format!("{t:?} has no reply")));
            };
            context.instance.note_message();
            let header = reply_header(&flow.header, reply_type);
            let shared = &context.shared;
            let instance = &context.instance;
            let gone_flag = &context.gone;
            let mut gone = || {
                gone_flag.load(Ordering::Acquire)
                    || shared.stopping.load(Ordering::Acquire)
                    || instance.stopping.load(Ordering::Acquire)
            };
            // Security hook: connection authentication decides MQCONN and its user ID.
            let refused = t == SegmentType::MqConn
                && !session.is_connected()
                && !authorize_connection(context, session, credentials.take());
            let (_, payload) = match session.call(flow, header.header_length(), &mut gone) {
                Ok(Some(reply)) => reply,
                // An asynchronous put: no reply.
                Ok(None) => return Ok(()),
                Err(SessionEnd::Gone) => return Err(End::Closed),
                Err(SessionEnd::Protocol(error)) => return Err(End::Error(error)),
            };
            if t == SegmentType::MqConn {
                if let Some(connection) = session.connection_mut() {
                    let instance = &context.instance;
                    connection.record().set_channel(
                        &instance.channel_name.lock().unwrap(),
                        &format!("{}({})", instance.peer.ip(), instance.peer.port()),
                    );
                }
            }
            send(&header, &payload)?;
            if refused {
                // As MQ: a connection refused for its credentials ends; the client may not
                // try passwords again on the same conversation.
                return Err(End::Closed);
            }
            Ok(())
        }
        other => Err(protocol(format!("unexpected segment type {other:?}"))),
    }
}

/// Connection authentication at MQCONN: decides with the queue manager's CHCKCLNT, the
/// channel's MCAUSER and the conversation's credentials, sets the connection's user ID, or
/// makes the MQCONN fail with MQRC_NOT_AUTHORIZED (logged). Returns whether it may go ahead.
fn authorize_connection(
    context: &ConversationContext,
    session: &mut MqiSession,
    credentials: Option<Credentials>,
) -> bool {
    let security = &context.security;
    let queue_manager = &context.shared.queue_manager;
    let peer = format!(
        "{}({})",
        context.instance.peer.ip(),
        context.instance.peer.port()
    );
    let facts = authentication::ConnectionFacts {
        channel: &security.channel,
        peer: &peer,
        policy: authentication::policy(queue_manager),
        transport: security.password_transport,
        tls: security.socket.tls,
        asserted_user: &session.user,
    };
    let registry = ferrite_storage::users::UserRegistry::new(queue_manager.directory());
    match authentication::decide(&facts, credentials.as_ref(), &registry) {
        authentication::Outcome::Accepted { user_id, .. } => {
            session.user = user_id;
            session.refuse_connect = None;
            true
        }
        authentication::Outcome::Refused { reason, log } => {
            for line in log.lines() {
                (context.shared.log)(line);
            }
            session.refuse_connect = Some(reason);
            false
        }
    }
}
