//! One client socket of the channel initiator: a running instance of a SVRCONN channel, as
//! its dispatcher sees it (reading, negotiation, conversations starting and ending,
//! heartbeats, disconnect interval) and as the adapters see it (its output).
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
//! TSH with CONFIRM_REQUEST) are answered by the dispatcher at once. Every other flow goes to
//! its conversation ([`crate::channel_conversation`]), which an adapter serves.
//!
//! ## Output
//! Replies go onto the socket's output and are written by the thread that produced them (the
//! dispatcher that ran the MQI call, or an adapter) once it has done what it had in hand, so
//! replies produced together leave in one write ([`crate::local_work`]). What the socket does
//! not take at once waits in the output buffer, which the dispatcher drains when the socket
//! becomes writable.
//! A conversation does not run while more than [`CHANNEL_OUTPUT_BYTES_MAX`] wait (a slow
//! reader holds back only its own conversations, never an adapter or the dispatcher), and a
//! socket whose output has not moved for [`WRITE_TIMEOUT`] is ended. Reading stops while a
//! conversation has [`CONVERSATION_INBOX_FLOWS_MAX`] flows waiting, so a client that sends
//! without reading meets TCP's flow control instead of filling the queue manager's memory.
//!
//! A peer that breaks the protocol has its socket closed; its conversations end, their MQI
//! connections are dropped (units of work backed out, handles closed), and the queue manager
//! and every other socket carry on.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::io::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_constants::reason::*;
use ferrite_protocol::control::{socket_action_type, status_code, SocketAction, Status};
use ferrite_protocol::initial_data::*;
use ferrite_protocol::segment::{
    encode_segments, ControlFlags1, HeaderKind, Reassembler, Segment, SegmentDecoder,
    SegmentHeader, SegmentType, DEFAULT_MAX_TRANSMISSION_SIZE,
};
use ferrite_protocol::transport::{Stream, TransportError};
use ferrite_protocol::wire::{self, FLOW_OVERHEAD};
use ferrite_protocol::ByteOrder;

use crate::authentication::{self, PasswordTransport};
use crate::channel_conversation::Conversation;
use crate::channel_initiator::{ChannelInstance, ChinitShared};
use crate::dispatcher::Completions;
use crate::flows::{
    answer_initial_data, initial_data_reply_header, protocol, reply_header, Acceptable, End,
};
use crate::tls::{self, SocketSecurity};
use crate::trace;

/// Proposals refused this many times end the socket.
const NEGOTIATION_ATTEMPTS: u32 = 3;
/// Conversations one socket may carry at most, whatever SHARECNV says (MQ's limit is 999).
pub const CONVERSATIONS_PER_SOCKET_MAX: u32 = 999;
/// The highest FAP level Ferrite speaks on client channels.
pub const CLIENT_FAP_LEVEL: u8 = 13;

/// How long a socket's output may stay blocked (a client that stopped reading) before the
/// channel ends.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(60);
/// Output bytes waiting for a slow reader beyond which its conversations stop running.
pub const CHANNEL_OUTPUT_BYTES_MAX: usize = 256 * 1024;
/// Flows waiting for one conversation beyond which its socket is not read.
pub const CONVERSATION_INBOX_FLOWS_MAX: usize = 64;
/// Bytes a dispatcher reads from one socket before it turns to the others.
pub const READ_BYTES_PER_TURN_MAX: usize = 256 * 1024;
/// An output buffer larger than this is given back once drained (idle sockets stay small).
const OUTPUT_BUFFER_KEPT_BYTES: usize = 16 * 1024;

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

/// Sets an integer socket option (failures leave the system's value: nothing depends on it).
pub(crate) fn set_socket_option(fd: RawFd, level: libc::c_int, name: libc::c_int, value: i32) {
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
        ferrite_queue_manager::KEEPALIVE_AUTO if heartbeat_interval > 0 => {
            Some(heartbeat_interval.saturating_add(60).min(i32::MAX as u32) as i32)
        }
        seconds if seconds > 0 => Some(seconds),
        _ => None,
    }
}

/// What the negotiation settled.
#[derive(Clone, Debug)]
struct Agreed {
    max_message_size: u32,
    conversations_per_socket: u32,
}

/// What connection authentication needs to know about the socket and its channel.
#[derive(Debug)]
pub(crate) struct ChannelSecurity {
    pub(crate) socket: SocketSecurity,
    pub(crate) password_transport: PasswordTransport,
    pub(crate) channel: ferrite_queue_manager::ChannelDefinition,
}

/// The socket as the adapters share it with its dispatcher: where replies go.
pub(crate) struct ChannelSocket {
    pub(crate) instance: Arc<ChannelInstance>,
    pub(crate) stream: TcpStream,
    /// The epoll instance of the socket's dispatcher, and the socket's token in it.
    epoll: RawFd,
    token: u64,
    /// Its dispatcher's hand-in for conversations whose commit the log made durable.
    pub(crate) completions: Arc<Completions>,
    /// Reading stopped: a conversation has too many flows waiting.
    reading_paused: AtomicBool,
    output: Mutex<Output>,
}

/// Bytes on their way to the client.
struct Output {
    pending: Vec<u8>,
    /// Bytes of `pending` already written.
    written: usize,
    max_transmission_size: u32,
    /// Since when the socket has taken nothing although bytes wait.
    blocked_since: Option<Instant>,
    /// Conversations to run again once the output has room.
    waiting_for_room: Vec<Arc<Conversation>>,
    /// The epoll events registered now.
    interest: u32,
    /// A thread has promised to write the output once it has done what it has in hand.
    flush_deferred: bool,
    closed: bool,
    /// The socket's TLS session (SSLCIPH channels), shared by its dispatcher (which reads,
    /// and drives the handshake) and the adapters (which write): `pending` holds plaintext,
    /// handed to the session [`TLS_PLAINTEXT_CHUNK_BYTES`] at a time as the socket takes the
    /// records of the last chunk.
    tls: Option<rustls::ServerConnection>,
}

impl Output {
    /// Plaintext bytes not yet written (or, with TLS, not yet handed to the session).
    fn waiting_bytes(&self) -> usize {
        self.pending.len() - self.written
    }

    /// Whether anything waits for the socket: plaintext, or TLS records the session holds.
    fn has_output(&self) -> bool {
        self.waiting_bytes() > 0 || self.tls.as_ref().is_some_and(|tls| tls.wants_write())
    }
}

/// How a socket's bytes are carried, decided by its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SocketMode {
    /// Nothing read yet.
    FirstByte,
    /// Plaintext TSH segments.
    Plain,
    /// TLS records ([`Output::tls`]); `handshaking` until the handshake completes.
    Tls { handshaking: bool },
}

/// Plaintext handed to a TLS session at a time (one full TLS record): the session holds at
/// most this much encrypted output beyond what `Output::pending` counts.
pub const TLS_PLAINTEXT_CHUNK_BYTES: usize = 16 * 1024;

/// The epoll events a socket is registered for when it is read and nothing waits to be written.
pub(crate) const READ_INTEREST: u32 = (libc::EPOLLIN | libc::EPOLLRDHUP) as u32;

impl ChannelSocket {
    /// A non-blocking socket registered with `epoll` under `token`.
    pub(crate) fn new(
        instance: Arc<ChannelInstance>,
        stream: TcpStream,
        epoll: RawFd,
        token: u64,
        completions: Arc<Completions>,
    ) -> ChannelSocket {
        ChannelSocket {
            instance,
            stream,
            epoll,
            token,
            completions,
            reading_paused: AtomicBool::new(false),
            output: Mutex::new(Output {
                pending: Vec::new(),
                written: 0,
                max_transmission_size: DEFAULT_MAX_TRANSMISSION_SIZE,
                blocked_since: None,
                waiting_for_room: Vec::new(),
                interest: READ_INTEREST,
                flush_deferred: false,
                closed: false,
                tls: None,
            }),
        }
    }

    fn set_max_transmission_size(&self, max_transmission_size: u32) {
        self.output.lock().unwrap().max_transmission_size = max_transmission_size;
    }

    /// Sends a flow: split into segments of the negotiated size onto the output. On a thread
    /// that keeps its own work ([`crate::local_work`]) the socket is written once that thread
    /// has done what it had in hand, with whatever else it sent meanwhile; elsewhere it is
    /// written at once as far as the socket takes it. The rest is left for the dispatcher.
    /// Fails once the socket is closed.
    pub(crate) fn send(
        self: &Arc<Self>,
        header: &SegmentHeader,
        payload: &[u8],
    ) -> Result<(), TransportError> {
        trace::flow(self.instance.id, "send", header, payload);
        let mut output = self.output.lock().unwrap();
        if output.closed {
            return Err(TransportError::Closed);
        }
        let before = output.pending.len();
        let idle = !output.has_output();
        let max_transmission_size = output.max_transmission_size;
        encode_segments(&mut output.pending, header, payload, max_transmission_size)?;
        self.instance
            .bytes_sent
            .fetch_add((output.pending.len() - before) as u64, Ordering::Relaxed);
        if output.flush_deferred || !idle {
            // Written by the flush already promised, or by the dispatcher when writable.
            return Ok(());
        }
        match crate::local_work::defer_flush(self.clone()) {
            Ok(()) => output.flush_deferred = true,
            Err(_) => self.write_pending(&mut output)?,
        }
        Ok(())
    }

    /// The thread that deferred this socket's write ([`ChannelSocket::send`]) writes it now. A
    /// socket that fails is shut down: its dispatcher sees it and ends the channel.
    pub(crate) fn flush_deferred(&self) {
        if self.flush_and_wake(true).is_err() {
            let _ = self.stream.shutdown(std::net::Shutdown::Both);
        }
    }

    /// Writes what waits until the socket would block; registers for writability then.
    fn write_pending(&self, output: &mut Output) -> Result<(), TransportError> {
        let blocked = if output.tls.is_some() {
            self.write_pending_tls(output)?
        } else {
            self.write_pending_plain(output)?
        };
        if blocked {
            output.blocked_since.get_or_insert_with(Instant::now);
        } else {
            output.blocked_since = None;
        }
        if output.written == output.pending.len() {
            output.pending.clear();
            output.written = 0;
            if output.pending.capacity() > OUTPUT_BUFFER_KEPT_BYTES {
                output.pending = Vec::new();
            }
        }
        self.update_interest(output);
        Ok(())
    }

    /// Writes plaintext until the socket would block (true) or nothing waits (false).
    fn write_pending_plain(&self, output: &mut Output) -> Result<bool, TransportError> {
        while output.written < output.pending.len() {
            match (&self.stream).write(&output.pending[output.written..]) {
                Ok(0) => return Err(TransportError::Closed),
                Ok(written) => {
                    output.written += written;
                    output.blocked_since = None;
                }
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => return Ok(true),
                Err(error) => return Err(error.into()),
            }
        }
        Ok(false)
    }

    /// TLS: writes the records the session holds, then encrypts the next chunk of plaintext,
    /// until the socket would block (true) or nothing waits (false). Plaintext waits while the
    /// handshake runs (the dispatcher writes it once the handshake is over).
    fn write_pending_tls(&self, output: &mut Output) -> Result<bool, TransportError> {
        let Output {
            tls,
            pending,
            written,
            blocked_since,
            ..
        } = output;
        let tls = tls.as_mut().expect("a TLS socket");
        loop {
            while tls.wants_write() {
                match tls.write_tls(&mut &self.stream) {
                    Ok(0) => return Err(TransportError::Closed),
                    Ok(_) => *blocked_since = None,
                    Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                        return Ok(true)
                    }
                    Err(error) => return Err(error.into()),
                }
            }
            if *written == pending.len() || tls.is_handshaking() {
                return Ok(false);
            }
            let end = (*written + TLS_PLAINTEXT_CHUNK_BYTES).min(pending.len());
            let taken = tls.writer().write(&pending[*written..end])?;
            if taken == 0 {
                // The session takes no more until its records are written (never expected:
                // they were all written just above).
                return Ok(true);
            }
            *written += taken;
        }
    }

    fn update_interest(&self, output: &mut Output) {
        if output.closed {
            return;
        }
        let mut interest = (libc::EPOLLRDHUP) as u32;
        if !self.reading_paused.load(Ordering::Acquire) {
            interest |= libc::EPOLLIN as u32;
        }
        if output.has_output() {
            interest |= libc::EPOLLOUT as u32;
        }
        if interest != output.interest {
            output.interest = interest;
            let mut event = libc::epoll_event {
                events: interest,
                u64: self.token,
            };
            // SAFETY: modifying the registration of a socket we own in an epoll instance that
            // outlives it (the dispatcher removes the socket before closing either).
            unsafe {
                libc::epoll_ctl(
                    self.epoll,
                    libc::EPOLL_CTL_MOD,
                    self.stream.as_raw_fd(),
                    &mut event,
                );
            }
        }
    }

    /// Whether `conversation` may run: the output has room. If not, it is run again when the
    /// output drains.
    pub(crate) fn has_room(&self, conversation: &Arc<Conversation>) -> bool {
        let mut output = self.output.lock().unwrap();
        if output.closed || output.waiting_bytes() <= CHANNEL_OUTPUT_BYTES_MAX {
            return true;
        }
        if !output
            .waiting_for_room
            .iter()
            .any(|waiting| Arc::ptr_eq(waiting, conversation))
        {
            output.waiting_for_room.push(conversation.clone());
        }
        false
    }

    /// The dispatcher, the socket being writable: writes what waits and wakes the
    /// conversations that waited for room.
    fn flush(&self) -> Result<(), TransportError> {
        self.flush_and_wake(false)
    }

    /// Writes what waits (unless the socket is closed) and wakes the conversations that
    /// waited for room; `deferred`: the write promised by [`ChannelSocket::send`].
    fn flush_and_wake(&self, deferred: bool) -> Result<(), TransportError> {
        let mut output = self.output.lock().unwrap();
        if deferred {
            output.flush_deferred = false;
        }
        if output.closed {
            return Ok(());
        }
        self.write_pending(&mut output)?;
        let ready = if output.waiting_bytes() <= CHANNEL_OUTPUT_BYTES_MAX {
            std::mem::take(&mut output.waiting_for_room)
        } else {
            Vec::new()
        };
        drop(output);
        for conversation in ready {
            conversation.wake();
        }
        Ok(())
    }

    /// How long the output has been blocked, if it is.
    fn write_blocked_for(&self) -> Option<Duration> {
        let output = self.output.lock().unwrap();
        output.blocked_since.map(|since| since.elapsed())
    }

    /// Stops reading the socket (a conversation has too many flows waiting).
    fn pause_reading(&self) {
        if !self.reading_paused.swap(true, Ordering::AcqRel) {
            let mut output = self.output.lock().unwrap();
            self.update_interest(&mut output);
        }
    }

    /// Reads the socket again (called by a conversation whose flows have been taken).
    pub(crate) fn resume_reading(&self) {
        if self.reading_paused.load(Ordering::Acquire)
            && self.reading_paused.swap(false, Ordering::AcqRel)
        {
            let mut output = self.output.lock().unwrap();
            self.update_interest(&mut output);
        }
    }

    pub(crate) fn reading_paused(&self) -> bool {
        self.reading_paused.load(Ordering::Acquire)
    }

    fn leave_epoll(&self) {
        // SAFETY: removing a socket we own from the dispatcher's epoll instance.
        unsafe {
            libc::epoll_ctl(
                self.epoll,
                libc::EPOLL_CTL_DEL,
                self.stream.as_raw_fd(),
                std::ptr::null_mut(),
            );
        }
    }

    /// The socket leaves the dispatcher whole: out of the epoll instance, blocking, what
    /// waited to be written written; a second handle to it for its new owner.
    fn detach(&self) -> Option<Stream> {
        let mut output = self.output.lock().unwrap();
        self.leave_epoll();
        self.stream.set_nonblocking(false).ok()?;
        let waiting = output.pending[output.written..].to_vec();
        output.closed = true;
        output.pending = Vec::new();
        output.written = 0;
        let Some(mut tls) = output.tls.take() else {
            (&self.stream).write_all(&waiting).ok()?;
            return Some(Stream::Tcp(self.stream.try_clone().ok()?));
        };
        // A TLS socket: its session goes with it, the output written through it first.
        tls.writer().write_all(&waiting).ok()?;
        while tls.wants_write() {
            tls.write_tls(&mut &self.stream).ok()?;
        }
        let socket = self.stream.try_clone().ok()?;
        ferrite_protocol::tls::TlsStream::handshake(rustls::Connection::Server(tls), socket)
            .ok()
            .map(Stream::Tls)
    }

    /// The dispatcher, closing: no more output; the socket leaves the epoll instance.
    fn close(&self) {
        let mut output = self.output.lock().unwrap();
        if output.has_output() && !output.closed {
            // Best effort: what was sent before the end (a refusal's STATUS_DATA, replies whose
            // write was deferred) goes if the socket takes it now.
            let _ = self.write_pending(&mut output);
        }
        if let Some(tls) = output.tls.as_mut() {
            // Best effort: tell a TLS peer the session ends (close_notify).
            tls.send_close_notify();
            let _ = tls.write_tls(&mut &self.stream);
        }
        output.closed = true;
        output.pending = Vec::new();
        output.written = 0;
        output.waiting_for_room.clear();
        drop(output);
        self.leave_epoll();
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// One socket as its dispatcher holds it.
pub(crate) struct Channel {
    chinit: Arc<ChinitShared>,
    pub(crate) socket: Arc<ChannelSocket>,
    decoder: SegmentDecoder,
    reassembler: Reassembler,
    agreed: Option<Agreed>,
    attempts: u32,
    conversations: HashMap<u32, Arc<Conversation>>,
    accepted: Instant,
    last_received: Instant,
    heartbeat_sent: Option<Instant>,
    /// HBINT negotiated, seconds (0: none).
    heartbeat_seconds: u64,
    /// DISCINT of the channel, seconds (0: never).
    disconnect_seconds: u64,
    /// Plaintext or TLS, once the first byte has told.
    mode: SocketMode,
    /// TLS of the socket (security hook).
    socket_security: SocketSecurity,
    /// Set by the negotiation (security hook).
    security: Option<Arc<ChannelSecurity>>,
    /// A negotiated RCVR channel, whose socket goes to its MCA's thread at close.
    handoff: Option<crate::message_channel::inbound::Handoff>,
}

impl Channel {
    pub(crate) fn new(chinit: Arc<ChinitShared>, socket: Arc<ChannelSocket>) -> Channel {
        Channel {
            chinit,
            socket,
            decoder: SegmentDecoder::new(DEFAULT_MAX_TRANSMISSION_SIZE),
            reassembler: Reassembler::new(FLOW_OVERHEAD + DEFAULT_MAX_TRANSMISSION_SIZE as usize),
            agreed: None,
            attempts: 0,
            conversations: HashMap::new(),
            accepted: Instant::now(),
            last_received: Instant::now(),
            heartbeat_sent: None,
            heartbeat_seconds: 0,
            disconnect_seconds: 0,
            mode: SocketMode::FirstByte,
            socket_security: SocketSecurity::default(),
            security: None,
            handoff: None,
        }
    }

    /// The socket is readable (or closed): reads what is there, up to
    /// [`READ_BYTES_PER_TURN_MAX`], and handles every whole flow. With TLS, the bytes are
    /// records: they drive the handshake, and their plaintext is what is decoded.
    pub(crate) fn on_readable(&mut self, buffer: &mut [u8]) -> Result<(), End> {
        if self.mode == SocketMode::FirstByte && !self.choose_mode()? {
            return Ok(());
        }
        let mut total = 0;
        loop {
            let may_read_socket = total < READ_BYTES_PER_TURN_MAX && !self.socket.reading_paused();
            let read = match self.mode {
                SocketMode::Tls { .. } => match self.read_tls(buffer, may_read_socket)? {
                    Some(read) => read,
                    None => break,
                },
                _ if !may_read_socket => break,
                _ => match (&self.socket.stream).read(buffer) {
                    Ok(0) => return Err(End::Closed),
                    Ok(read) => read,
                    Err(error) => match error.kind() {
                        std::io::ErrorKind::WouldBlock => break,
                        std::io::ErrorKind::Interrupted => continue,
                        std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe => {
                            return Err(End::Closed)
                        }
                        _ => return Err(End::Error(error.to_string())),
                    },
                },
            };
            total += read;
            let drained = read < buffer.len();
            self.decoder.push(&buffer[..read]);
            while let Some(segment) = self
                .decoder
                .next_segment()
                .map_err(|error| End::from(TransportError::from(error)))?
            {
                if let Some(flow) = self
                    .reassembler
                    .push(segment)
                    .map_err(|error| End::from(TransportError::from(error)))?
                {
                    self.received(flow)?;
                }
            }
            if drained && self.mode == SocketMode::Plain {
                // Most likely all there was; level-triggered epoll reports the rest, if any.
                // (A TLS session's plaintext is read to its end: epoll cannot see it.)
                break;
            }
        }
        if total > FLOW_OVERHEAD && self.decoder.buffered() == 0 {
            // Give back the buffer a long flow grew (idle sockets stay small).
            self.decoder = SegmentDecoder::new(self.decoder.max_segment_length());
        }
        Ok(())
    }

    /// Looks at the socket's first byte (without taking it): a TLS handshake record makes the
    /// socket a TLS one, anything else a plaintext one. Returns false while nothing has come.
    fn choose_mode(&mut self) -> Result<bool, End> {
        let mut first = [0u8; 1];
        match self.socket.stream.peek(&mut first) {
            Ok(0) => return Err(End::Closed),
            Ok(_) => {}
            Err(error) => {
                return match error.kind() {
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted => Ok(false),
                    _ => Err(End::Closed),
                }
            }
        }
        if !tls::starts_tls(first[0]) {
            self.mode = SocketMode::Plain;
            return Ok(true);
        }
        let connection = tls::server_connection(
            self.chinit.queue_manager.directory(),
            &self.chinit.config.ssl_key_repository,
        )
        .map_err(|error| self.refuse_tls(&error))?;
        self.socket.output.lock().unwrap().tls = Some(connection);
        self.mode = SocketMode::Tls { handshaking: true };
        Ok(true)
    }

    /// Logs why a TLS client is refused (MQ's AMQ9637E) and ends the socket.
    fn refuse_tls(&self, error: &str) -> End {
        (self.chinit.log)(&format!(
            "AMQ9637E ferrite listener: client {}: {error}",
            self.socket.instance.peer
        ));
        End::Closed
    }

    /// TLS: the next plaintext into `buffer`, reading records from the socket when the session
    /// has none (if `may_read_socket`), processing them (the handshake's records answered at
    /// once) and writing what the session wants to send. `None`: nothing more for now.
    /// Never blocks: a peer that sends half a record leaves it in the session until the rest
    /// comes, or the handshake timeout ends the socket.
    fn read_tls(&mut self, buffer: &mut [u8], may_read_socket: bool) -> Result<Option<usize>, End> {
        let handshake_failed =
            |error: &dyn std::fmt::Display| format!("TLS handshake failed: {error}");
        let mut output = self.socket.output.lock().unwrap();
        loop {
            let handshaking = self.mode == (SocketMode::Tls { handshaking: true });
            let tls = output.tls.as_mut().expect("a TLS socket");
            match tls.reader().read(buffer) {
                Ok(0) => return Err(End::Closed),
                Ok(read) => return Ok(Some(read)),
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => {
                    return Err(End::Closed)
                }
                Err(error) => return Err(End::Error(format!("TLS: {error}"))),
            }
            if !may_read_socket {
                return Ok(None);
            }
            match tls.read_tls(&mut &self.socket.stream) {
                Ok(0) if handshaking => {
                    drop(output);
                    return Err(self.refuse_tls(&handshake_failed(&"the client closed the socket")));
                }
                Ok(0) => return Err(End::Closed),
                Ok(_) => {}
                Err(error) => match error.kind() {
                    std::io::ErrorKind::WouldBlock => return Ok(None),
                    std::io::ErrorKind::Interrupted => continue,
                    std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe => {
                        return Err(End::Closed)
                    }
                    _ => return Err(End::Error(format!("TLS: {error}"))),
                },
            }
            if let Err(error) = tls.process_new_packets() {
                // The session has queued an alert that tells the peer why: best effort.
                let _ = self.socket.write_pending(&mut output);
                drop(output);
                if handshaking {
                    return Err(self.refuse_tls(&handshake_failed(&error)));
                }
                return Err(End::Error(format!("TLS: {error}")));
            }
            if handshaking && !tls.is_handshaking() {
                self.socket_security = tls::session_security(tls);
                self.mode = SocketMode::Tls { handshaking: false };
            }
            // Handshake records, alerts, key updates; plaintext held back by the handshake.
            if output.has_output() {
                self.socket.write_pending(&mut output).map_err(End::from)?;
            }
        }
    }

    /// The socket is writable: sends what waits.
    pub(crate) fn on_writable(&mut self) -> Result<(), End> {
        self.socket.flush().map_err(End::from)
    }

    fn received(&mut self, flow: Segment) -> Result<(), End> {
        self.heartbeat_sent = None;
        self.last_received = Instant::now();
        self.socket.instance.bytes_received.fetch_add(
            (flow.header.header_length() + flow.payload.len()) as u64,
            Ordering::Relaxed,
        );
        trace::flow(self.socket.instance.id, "recv", &flow.header, &flow.payload);
        self.handle(flow)
    }

    /// Every dispatcher tick: the handshake timeout, STOP CHANNEL, the write timeout,
    /// heartbeats and the disconnect interval.
    ///
    /// Heartbeats: after a heartbeat interval with nothing from the client, the queue manager
    /// sends a HEARTBEAT asking for confirmation; a second interval of silence means the client
    /// (or the network to it) is gone, and the channel ends. As MQ, heartbeats flow only while
    /// the client waits for the queue manager (a waiting MQGET, a consumer waiting for
    /// messages). Disconnect interval: a channel whose conversations made no MQI call for
    /// DISCINT seconds, and are not waiting on the queue manager, is ended (as MQ's SVRCONN).
    pub(crate) fn tick(&mut self) -> Result<(), End> {
        if self.chinit.stopping.load(Ordering::Acquire)
            || self.socket.instance.stopping.load(Ordering::Acquire)
        {
            return Err(End::Closed);
        }
        if self.agreed.is_none() {
            if self.accepted.elapsed() >= self.chinit.config.handshake_timeout {
                return Err(End::Error(format!(
                    "no INITIAL_DATA negotiated within {} s",
                    self.chinit.config.handshake_timeout.as_secs()
                )));
            }
            return Ok(());
        }
        if let Some(blocked) = self.socket.write_blocked_for() {
            if blocked >= WRITE_TIMEOUT {
                return Err(End::Error(format!(
                    "the client has read nothing for {} s (write timeout)",
                    WRITE_TIMEOUT.as_secs()
                )));
            }
        }
        let busy = self
            .socket
            .instance
            .busy_conversations
            .load(Ordering::Acquire)
            > 0;
        if !busy && self.disconnect_interval_expired() {
            (self.chinit.log)(&format!(
                "CSQX259E ferrite channel {} from {}: no MQI call for DISCINT({}) seconds, channel ended",
                self.socket.instance.channel_name.lock().unwrap(),
                self.socket.instance.peer,
                self.disconnect_seconds
            ));
            return Err(End::Closed);
        }
        let heartbeat = Duration::from_secs(self.heartbeat_seconds);
        if !busy || self.heartbeat_seconds == 0 {
            self.heartbeat_sent = None;
            return Ok(());
        }
        if let Some(sent) = self.heartbeat_sent {
            if sent.elapsed() >= heartbeat {
                return Err(End::Error(format!(
                    "no answer to a heartbeat within {} s: the client is gone",
                    self.heartbeat_seconds
                )));
            }
            return Ok(());
        }
        if self.last_received.elapsed() < heartbeat {
            return Ok(());
        }
        let mut header =
            SegmentHeader::new(HeaderKind::Tshc, SegmentType::Heartbeat, ByteOrder::Big);
        header.flags1 = ControlFlags1(
            ControlFlags1::CONFIRM_REQUEST | ControlFlags1::FIRST | ControlFlags1::LAST,
        );
        self.send(&header, &[])?;
        self.heartbeat_sent = Some(Instant::now());
        Ok(())
    }

    /// Whether DISCINT has passed since the channel's last MQI call (or its start).
    fn disconnect_interval_expired(&self) -> bool {
        if self.disconnect_seconds == 0 {
            return false;
        }
        let instance = &self.socket.instance;
        let last_ms = instance.last_message_ms.load(Ordering::Relaxed);
        let last = if last_ms == 0 {
            instance.started
        } else {
            std::time::SystemTime::UNIX_EPOCH + Duration::from_millis(last_ms)
        };
        last.elapsed()
            .is_ok_and(|idle| idle >= Duration::from_secs(self.disconnect_seconds))
    }

    /// Ends the socket: every conversation ends (its adapter drops its MQI connection, which
    /// backs out its unit of work) and the socket is shut down.
    /// Returns whether the socket went on to a receiving MCA's thread instead (its instance
    /// then stays known until that thread ends).
    pub(crate) fn close(mut self, end: End) -> bool {
        use crate::message_channel::inbound::{self, Handoff};
        match self.handoff.take() {
            Some(Handoff::Receiver(handoff)) => {
                if let Some(stream) = self.socket.detach() {
                    inbound::start_receiver(
                        self.chinit.clone(),
                        self.socket.instance.clone(),
                        stream,
                        handoff,
                    );
                    return true;
                }
            }
            Some(Handoff::Server(channel)) => {
                if let Some(stream) = self.socket.detach() {
                    inbound::start_server(&self.chinit, &self.socket.instance, stream, channel);
                    return true;
                }
            }
            Some(Handoff::Callback(name)) => {
                self.socket.close();
                inbound::call_back(&self.chinit, &name);
                return false;
            }
            None => {}
        }
        let instance = &self.socket.instance;
        if let End::Error(error) = end {
            if !self.chinit.stopping.load(Ordering::Acquire)
                && !instance.stopping.load(Ordering::Acquire)
            {
                (self.chinit.log)(&format!(
                    "CSQX208E ferrite channel {} from {}: ended: {error}",
                    instance.channel_name.lock().unwrap(),
                    instance.peer
                ));
            }
        }
        for (_, conversation) in self.conversations.drain() {
            conversation.end();
        }
        self.socket.close();
        false
    }

    fn send(&self, header: &SegmentHeader, payload: &[u8]) -> Result<(), End> {
        self.socket.send(header, payload).map_err(End::from)
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
        match conversation.push_flow(flow) {
            Some(waiting) => {
                if waiting >= CONVERSATION_INBOX_FLOWS_MAX {
                    self.socket.pause_reading();
                }
                Ok(())
            }
            None => {
                // The conversation has ended (a protocol error of its own).
                self.conversations.remove(&conversation_id);
                Err(protocol(format!("conversation {conversation_id} failed")))
            }
        }
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
                    conversation.end();
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
        let conversation = Conversation::start(
            id,
            self.socket.clone(),
            self.chinit.clone(),
            max_message_size,
            self.security.clone().expect("negotiated"),
        );
        self.conversations.insert(id, conversation);
        Ok(())
    }

    fn negotiate(&mut self, flow: &Segment) -> Result<(), End> {
        if self.agreed.is_some() {
            return Err(protocol("INITIAL_DATA after the negotiation"));
        }
        let order = flow.header.byte_order;
        let proposal = InitialData::decode(&flow.payload, order).map_err(protocol)?;
        let channel_name = proposal.channel_name.trimmed();
        let Some(channel) = self.chinit.queue_manager.channel(&channel_name) else {
            (self.chinit.log)(&format!(
                "CSQX520E ferrite listener: remote channel {channel_name} not defined (client {})",
                self.socket.instance.peer
            ));
            self.status(flow, status_code::NO_CHANNEL, MQRC_UNKNOWN_CHANNEL_NAME)?;
            return Err(End::Closed);
        };
        // A sending MCA's proposal (a client's asks for MQI flows: CAP1_MQREQUEST), or a
        // requester's request (CAP1_REQUEST_INITIATION).
        use ferrite_queue_manager::objects::message_channel::ChannelType;
        let from_sender = proposal.cap_flags1 & CAP1_MQREQUEST == 0;
        if crate::message_channel::negotiation::is_request(&proposal)
            && matches!(
                channel.channel_type,
                ChannelType::Server | ChannelType::Sender
            )
        {
            return self.negotiate_request(flow, &proposal, channel);
        }
        if from_sender
            && proposal.cap_flags1 & CAP1_REQUEST_INITIATION == 0
            && matches!(
                channel.channel_type,
                ChannelType::Receiver | ChannelType::Requester
            )
        {
            return self.negotiate_receiver(flow, &proposal, channel);
        }
        if channel.channel_type.is_message_channel() {
            // A message channel's name is not a client's (MQ: AMQ9547E, the channel's type).
            (self.chinit.log)(&format!(
                "CSQX547E ferrite listener: remote channel {channel_name} is CHLTYPE({}), not SVRCONN (client {})",
                channel.channel_type.keyword(),
                self.socket.instance.peer
            ));
            self.status(
                flow,
                status_code::CHANNEL_WRONG_TYPE,
                MQRC_CHANNEL_CONFIG_ERROR,
            )?;
            return Err(End::Closed);
        }
        // Security hook: the socket's TLS against the channel's SSLCIPH, SSLCAUTH, SSLPEER.
        if let Err(refusal) = tls::check_channel(&channel, &self.socket_security) {
            (self.chinit.log)(&format!(
                "{} (client {})",
                refusal.message, self.socket.instance.peer
            ));
            self.status(flow, refusal.status, refusal.reason)?;
            return Err(End::Closed);
        }
        let (instances, from_client) = self
            .chinit
            .instance_counts(&channel.name, self.socket.instance.peer.ip());
        if instances >= channel.max_instances || from_client >= channel.max_instances_per_client {
            (self.chinit.log)(&format!(
                "CSQX209E ferrite channel {} from {}: MAXINST({}) or MAXINSTC({}) reached, reason 2025 MQRC_MAX_CONNS_LIMIT_REACHED",
                channel.name, self.socket.instance.peer, channel.max_instances, channel.max_instances_per_client
            ));
            self.status(
                flow,
                status_code::CHANNEL_UNAVAILABLE,
                MQRC_MAX_CONNS_LIMIT_REACHED,
            )?;
            return Err(End::Closed);
        }
        *self.socket.instance.channel_name.lock().unwrap() = channel.name.clone();
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
                max_transmission_size: self.chinit.config.max_transmission_size,
                max_message_size: channel_max_message_length,
                heartbeat_interval,
                conversations_per_socket,
            },
            &self.chinit.queue_manager,
        );
        reply.pal = password_protection_reply(&proposal.pal);
        let errors = reply.ini_err_flags1;
        let (max_transmission_size, max_message_size) =
            (reply.max_transmission_size, reply.max_message_size);
        let header = initial_data_reply_header(&flow.header, errors);
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
        self.decoder.set_max_segment_length(max_transmission_size);
        self.reassembler = Reassembler::new(max_message_size as usize + FLOW_OVERHEAD);
        self.socket.set_max_transmission_size(max_transmission_size);
        if let Some(seconds) = keepalive_seconds(channel.keepalive_interval, heartbeat_interval) {
            let fd = self.socket.stream.as_raw_fd();
            set_socket_option(fd, libc::IPPROTO_TCP, libc::TCP_KEEPIDLE, seconds);
            set_socket_option(fd, libc::IPPROTO_TCP, libc::TCP_KEEPINTVL, seconds);
        }
        self.heartbeat_seconds = u64::from(heartbeat_interval);
        self.disconnect_seconds = u64::from(channel.disconnect_interval);
        let instance = &self.socket.instance;
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

    /// The checks every inbound message channel passes before its INITIAL_DATA is answered:
    /// the socket's TLS against the channel's SSLCIPH, SSLCAUTH and SSLPEER (as a client
    /// channel's, `tls::check_channel`) and its CHLAUTH records, applied to the user its MCA
    /// runs as. A refusal is answered with a status flow and ends the socket.
    fn admit_message_channel(
        &mut self,
        flow: &Segment,
        channel: &ferrite_queue_manager::ChannelDefinition,
    ) -> Result<(), End> {
        use crate::message_channel::inbound;
        let peer = self.socket.instance.peer;
        if self.chinit.is_stopped(&channel.name) {
            // STOP CHANNEL left it STOPPED: the partner is refused until START CHANNEL.
            (self.chinit.log)(&format!(
                "AMQ9534E ferrite listener: channel {} from {peer} is STOPPED; START CHANNEL enables it",
                channel.name
            ));
            self.status(
                flow,
                status_code::CHANNEL_UNAVAILABLE,
                MQRC_CHANNEL_STOPPED_BY_USER,
            )?;
            return Err(End::Closed);
        }
        if let Err(refusal) = tls::check_channel(channel, &self.socket_security) {
            (self.chinit.log)(&format!("{} (partner {peer})", refusal.message));
            self.status(flow, refusal.status, refusal.reason)?;
            return Err(End::Closed);
        }
        let mut as_user = channel.clone();
        as_user.mca_user = inbound::running_user(channel);
        let log = |line: &str| (self.chinit.log)(line);
        if let Err(reason) = crate::channel_authentication::check(
            &self.chinit.queue_manager,
            &as_user,
            peer.ip(),
            "",
            &log,
        ) {
            self.status(flow, status_code::SECURITY_FAILURE, reason)?;
            return Err(End::Closed);
        }
        Ok(())
    }

    /// INITIAL_DATA naming a RCVR channel (`message_channel::inbound`): negotiated here, then
    /// the socket is handed to the receiving MCA's thread when the dispatcher lets it go
    /// ([`Channel::close`]).
    fn negotiate_receiver(
        &mut self,
        flow: &Segment,
        proposal: &InitialData,
        channel: ferrite_queue_manager::ChannelDefinition,
    ) -> Result<(), End> {
        use crate::message_channel::{inbound, negotiation};
        let peer = self.socket.instance.peer;
        self.admit_message_channel(flow, &channel)?;
        let (instances, _) = self.chinit.instance_counts(&channel.name, peer.ip());
        if instances > 0 {
            (self.chinit.log)(&format!(
                "CSQX514E ferrite listener: channel {} from {peer} is already running",
                channel.name
            ));
            self.status(
                flow,
                status_code::CHANNEL_UNAVAILABLE,
                MQRC_CHANNEL_NOT_AVAILABLE,
            )?;
            return Err(End::Closed);
        }
        let limit = self.chinit.active_channel_limit();
        let Some(slot) = self.chinit.active_channels.try_acquire(limit) else {
            (self.chinit.log)(&format!(
                "ferrite listener: channel {} from {peer} not activated: ACTCHL({limit}) channels are active",
                channel.name
            ));
            crate::message_channel::channel_event(
                &self.chinit.queue_manager,
                ferrite_mqi::channel_events::MessageChannelEvent::NotActivated {
                    channel: &channel.name,
                    transmission_queue: None,
                    connection_name: &format!("{}({})", peer.ip(), peer.port()),
                },
                &self.chinit.log,
            );
            self.status(
                flow,
                status_code::CHANNEL_UNAVAILABLE,
                MQRC_CHANNEL_NOT_ACTIVATED,
            )?;
            return Err(End::Closed);
        };
        *self.socket.instance.active_slot.lock().unwrap() = Some(slot);
        *self.socket.instance.channel_name.lock().unwrap() = channel.name.clone();
        let reply = negotiation::answer(
            proposal,
            &channel,
            &self.chinit.queue_manager,
            self.chinit.config.max_transmission_size,
        );
        let header = initial_data_reply_header(&flow.header, reply.ini_err_flags1);
        self.send(&header, &reply.encode(flow.header.byte_order))?;
        let Some(agreed) = negotiation::agreed(proposal, &reply) else {
            return Err(End::Error(format!(
                "INITIAL_DATA of message channel {} refused (IniErrFlags1 {:#04x})",
                channel.name, reply.ini_err_flags1
            )));
        };
        let instance = &self.socket.instance;
        instance.receiver.store(true, Ordering::Release);
        instance
            .heartbeat_interval
            .store(agreed.heartbeat_interval, Ordering::Relaxed);
        instance
            .max_message_length
            .store(agreed.max_message_length, Ordering::Relaxed);
        self.handoff = Some(inbound::Handoff::Receiver(inbound::ReceiverHandoff {
            channel,
            agreed,
            partner_queue_manager: negotiation::partner_queue_manager(proposal),
        }));
        Err(End::Closed)
    }

    /// A requester's INITIAL_DATA naming a SVR or SDR channel: the same checks as a
    /// receiver's (plain socket, CHLAUTH, one running instance), the request answered, then a
    /// SVR sends on this socket and a SDR calls back ([`Channel::close`]).
    fn negotiate_request(
        &mut self,
        flow: &Segment,
        request: &InitialData,
        channel: ferrite_queue_manager::ChannelDefinition,
    ) -> Result<(), End> {
        use crate::message_channel::{inbound, negotiation};
        use ferrite_queue_manager::objects::message_channel::ChannelType;
        let peer = self.socket.instance.peer;
        self.admit_message_channel(flow, &channel)?;
        if self.chinit.sender_running(&channel.name) {
            (self.chinit.log)(&format!(
                "CSQX514E ferrite listener: channel {} requested by {peer} is already running",
                channel.name
            ));
            self.status(
                flow,
                status_code::CHANNEL_UNAVAILABLE,
                MQRC_CHANNEL_NOT_AVAILABLE,
            )?;
            return Err(End::Closed);
        }
        if channel.channel_type == ChannelType::Sender
            && channel.message.connection_names.is_empty()
        {
            (self.chinit.log)(&format!(
                "CSQX547E ferrite listener: channel {} requested by {peer} is a SDR without a CONNAME to call back",
                channel.name
            ));
            self.status(
                flow,
                status_code::CHANNEL_WRONG_TYPE,
                MQRC_CHANNEL_CONFIG_ERROR,
            )?;
            return Err(End::Closed);
        }
        let reply = negotiation::answer_request(request, &self.chinit.queue_manager);
        let header = initial_data_reply_header(&flow.header, reply.ini_err_flags1);
        self.send(&header, &reply.encode(flow.header.byte_order))?;
        if reply.ini_err_flags1 != 0 {
            return Err(End::Error(format!(
                "the request of channel {} was refused (IniErrFlags1 {:#04x})",
                channel.name, reply.ini_err_flags1
            )));
        }
        *self.socket.instance.channel_name.lock().unwrap() = channel.name.clone();
        self.handoff = Some(match channel.channel_type {
            ChannelType::Server => inbound::Handoff::Server(channel),
            _ => inbound::Handoff::Callback(channel.name),
        });
        Err(End::Closed)
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
