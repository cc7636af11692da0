//! One bindings connection: its conversation from INITIAL_DATA to the end of the socket.
//!
//! States: *negotiating* (only INITIAL_DATA is accepted; an unacceptable proposal is answered
//! with ERROR and the IniErrFlags1 bits, and the peer may try again, three times in all), then
//! *established* (USERID_DATA, CONAUTH_INFO, HEARTBEAT, SOCKET_ACTION END_CONV and the MQI
//! verbs). MQI verbs before MQCONN fail with MQRC_HCONN_ERROR; a second MQCONN completes with
//! MQCC_WARNING and MQRC_ALREADY_CONNECTED; MQDISC ends the MQI connection but not the
//! conversation. Verbs the MQI does not have (SPI, MQSTAT, MQSUB, MQSUBRQ) fail with
//! MQRC_FUNCTION_NOT_SUPPORTED; anything else ends the connection as a protocol error.
//!
//! ## Connection authentication (CHCKLOCL)
//! A bindings application's MQCSP arrives in CONAUTH_INFO (the CAUT IBM's client sends,
//! answered with STATUS_DATA code 0; the socket never leaves the machine, so the password is
//! sent in clear). At the first MQCONN the queue manager's CHCKLOCL decides
//! (`QueueManager::authenticate_local`) with the peer's user and group IDs, which the kernel
//! reports for the socket (SO_PEERCRED) and the peer cannot forge: a refusal answers
//! MQRC_NOT_AUTHORIZED after FAILDLAY (only this connection's thread waits) and ends the
//! connection, as MQ does; an accepted connection runs under the authenticated user ID with
//! ADOPTCTX(YES), else, as MQ's bindings applications run, under the peer's own user (the
//! kernel's, which authority checks can trust), and under the user ID of USERID_DATA only
//! when the kernel does not name the peer.

use std::os::unix::io::AsRawFd;
use std::os::unix::net::UnixStream;
use std::sync::atomic::Ordering;
use std::time::Duration;

use ferrite_constants::reason::*;
use ferrite_protocol::control::{socket_action_type, status_code, SocketAction, Status};
use ferrite_protocol::initial_data::*;
use ferrite_protocol::segment::{ControlFlags1, HeaderKind, Segment, SegmentHeader, SegmentType};
use ferrite_protocol::transport::{Stream, Transport, TransportError};
use ferrite_protocol::uid::Caut;
use ferrite_protocol::wire;
use ferrite_protocol::ByteOrder;

use crate::authentication::{credentials_from_caut, Credentials};
use crate::Shared;
use ferrite_queue_manager::{ConnectingUser, LocalAuthentication};

use crate::flows::{
    answer_initial_data, conauth_accepted, initial_data_reply_header, protocol, reply_header,
    user_id_data_user, Acceptable, End,
};
pub use crate::session::WAIT_SLICE;
use crate::session::{MqiSession, SessionEnd};

/// Proposals refused this many times end the connection.
const NEGOTIATION_ATTEMPTS: u32 = 3;

/// Refuses a connection: STATUS_DATA with `reason` in Value, then close.
pub(crate) fn refuse(stream: impl Into<Stream>, reason: i32) {
    let stream: Stream = stream.into();
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let mut transport = Transport::new(stream);
    let _ = send_status(&mut transport, HeaderKind::Tsh, native_order(), reason);
    let _ = transport.stream().shutdown(std::net::Shutdown::Both);
}

fn native_order() -> ByteOrder {
    if cfg!(target_endian = "big") {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    }
}

fn send_status(
    transport: &mut Transport,
    kind: HeaderKind,
    order: ByteOrder,
    reason: i32,
) -> Result<(), TransportError> {
    let code = match reason {
        MQRC_MAX_CONNS_LIMIT_REACHED => status_code::CHANNEL_UNAVAILABLE,
        MQRC_Q_MGR_NOT_AVAILABLE | MQRC_Q_MGR_STOPPING => status_code::QM_UNAVAILABLE,
        _ => status_code::NEGOTIATION_FAILED,
    };
    let status = Status {
        code,
        value: Some(reason),
        extra: Vec::new(),
        trailing: Vec::new(),
    };
    let header = SegmentHeader::new(kind, SegmentType::StatusData, order);
    transport.write_flow(&header, &status.encode(order))
}

/// Serves one connection until it ends.
pub(crate) fn serve(shared: &Shared, stream: UnixStream) {
    if stream
        .set_read_timeout(Some(shared.config.handshake_timeout))
        .is_err()
    {
        return;
    }
    let mut conversation = Conversation {
        shared,
        transport: Transport::new(stream),
        negotiated: false,
        attempts: 0,
        session: MqiSession::new(shared.queue_manager.clone(), 0),
        credentials: None,
        peer: None,
    };
    let end = conversation.run();
    if let End::Error(error) = end {
        if !shared.stopping.load(Ordering::Acquire) {
            (shared.log)(&format!("ferrite bindings: connection closed: {error}"));
        }
    }
    // Dropping the MQI connection without MQDISC backs its unit of work out.
    drop(conversation);
}

struct Conversation<'a> {
    shared: &'a Shared,
    transport: Transport,
    negotiated: bool,
    attempts: u32,
    session: MqiSession,
    /// Security hook: the CONAUTH_INFO user ID and password, checked at MQCONN.
    credentials: Option<Credentials>,
    /// The peer's user and group IDs (SO_PEERCRED), read at the first MQCONN.
    peer: Option<ConnectingUser>,
}

impl Conversation<'_> {
    fn run(&mut self) -> End {
        loop {
            if self.shared.stopping.load(Ordering::Acquire) {
                return End::Closed;
            }
            let flow = match self.transport.read_flow() {
                Ok(flow) => flow,
                Err(error) => return error.into(),
            };
            if let Err(end) = self.handle(flow) {
                return end;
            }
        }
    }

    fn handle(&mut self, flow: Segment) -> Result<(), End> {
        let segment_type = flow.header.segment_type;
        if !self.negotiated {
            if segment_type != SegmentType::InitialData {
                return Err(protocol(format!("{segment_type:?} before INITIAL_DATA")));
            }
            return self.negotiate(&flow);
        }
        if let HeaderKind::Tshm {
            conversation_id, ..
        } = flow.header.kind
        {
            if conversation_id != wire::CONVERSATION_ID {
                return Err(protocol(format!(
                    "conversation {conversation_id} (one conversation per socket)"
                )));
            }
        }
        let order = flow.header.byte_order;
        match segment_type {
            SegmentType::UseridData => {
                self.session.user = user_id_data_user(&flow.payload, order)?;
                // No reply, as IBM MQ: the client goes straight on to MQCONN.
                Ok(())
            }
            SegmentType::ConauthInfo => {
                // Security hook: kept for MQCONN's CHCKLOCL; the client goes on after a
                // STATUS_DATA with code 0.
                Caut::decode(&flow.payload, order).map_err(protocol)?;
                self.credentials = credentials_from_caut(&flow.payload, order).map_err(protocol)?;
                let (header, status) = conauth_accepted(&flow.header, order);
                self.transport.write_flow(&header, &status)?;
                Ok(())
            }
            SegmentType::Heartbeat => {
                if flow.header.flags1.contains(ControlFlags1::CONFIRM_REQUEST) {
                    let header = reply_header(&flow.header, SegmentType::Heartbeat);
                    self.transport.write_flow(&header, &flow.payload)?;
                }
                Ok(())
            }
            SegmentType::SocketAction => {
                let action = SocketAction::decode(&flow.payload, order).map_err(protocol)?;
                if action.action_type == socket_action_type::END_CONV {
                    return Err(End::Closed);
                }
                Err(protocol(format!(
                    "SOCKET_ACTION type {} (one conversation per socket)",
                    action.action_type
                )))
            }
            t if t.has_api_header() && !t.is_reply() => self.api(&flow),
            other => Err(protocol(format!("unexpected segment type {other:?}"))),
        }
    }

    fn negotiate(&mut self, flow: &Segment) -> Result<(), End> {
        let order = flow.header.byte_order;
        let proposal = InitialData::decode(&flow.payload, order).map_err(protocol)?;
        let config = &self.shared.config;
        let reply = answer_initial_data(
            &proposal,
            &Acceptable {
                fap_level: wire::FAP_LEVEL,
                max_transmission_size: config.max_transmission_size,
                max_message_size: config.max_message_size,
                heartbeat_interval: 0,
                conversations_per_socket: proposal.conv_per_socket.clamp(0, 1) as u32,
            },
            &self.shared.queue_manager,
        );
        let errors = reply.ini_err_flags1;
        let (max_transmission_size, max_message_size) =
            (reply.max_transmission_size, reply.max_message_size);
        let header = initial_data_reply_header(&flow.header, errors);
        self.transport.write_flow(&header, &reply.encode(order))?;
        if errors == 0 {
            self.negotiated = true;
            self.session.max_message_size = max_message_size;
            self.transport
                .set_limits(max_transmission_size, max_message_size);
            return Ok(());
        }
        self.attempts += 1;
        if self.attempts >= NEGOTIATION_ATTEMPTS {
            let _ = send_status(
                &mut self.transport,
                flow.header.kind,
                order,
                MQRC_CONNECTION_ERROR,
            );
            return Err(End::Error(format!(
                "INITIAL_DATA negotiation failed {NEGOTIATION_ATTEMPTS} times (IniErrFlags1 {errors:#04x})"
            )));
        }
        Ok(())
    }

    fn api(&mut self, flow: &Segment) -> Result<(), End> {
        let Some(reply_type) = flow.header.segment_type.reply() else {
            return Err(protocol(format!(
                "{:?} has no reply",
                flow.header.segment_type
            )));
        };
        let header = reply_header(&flow.header, reply_type);
        let was_connected = self.session.is_connected();
        // Security hook: CHCKLOCL decides the first MQCONN.
        let refused = flow.header.segment_type == SegmentType::MqConn
            && !was_connected
            && !self.authorize_connection();
        let shared = self.shared;
        let stream = self.transport.stream();
        let mut gone = || shared.stopping.load(Ordering::Acquire) || !peer_connected(stream);
        let (reply_type, payload) =
            match self
                .session
                .call(flow, header.header_length(), &mut gone, true)
            {
                Ok(Some(reply)) => reply,
                // An asynchronous put: no reply.
                Ok(None) => return Ok(()),
                Err(SessionEnd::Gone) => return Err(End::Closed),
                Err(SessionEnd::Protocol(error)) => return Err(End::Error(error)),
                Err(SessionEnd::WouldWait) => unreachable!("a bindings call may wait"),
            };
        debug_assert_eq!(reply_type, header.segment_type);
        if !was_connected && self.session.is_connected() {
            // Connected: calls may now wait as long as the application likes.
            let _ = self.transport.stream().set_read_timeout(None);
        }
        self.transport.write_flow(&header, &payload)?;
        if refused {
            // As MQ: a connection refused for its credentials ends.
            return Err(End::Closed);
        }
        Ok(())
    }

    /// CHCKLOCL at MQCONN (see the module docs): sets the session's user ID, or makes its
    /// MQCONN fail. Returns whether it may go ahead.
    fn authorize_connection(&mut self) -> bool {
        let peer = self
            .peer
            .get_or_insert_with(|| peer_user(self.transport.stream()))
            .clone();
        let credentials = self.credentials.take();
        let outcome = self.shared.queue_manager.authenticate_local(
            "bindings",
            &peer,
            credentials
                .as_ref()
                .map(|credentials| (credentials.user.as_str(), &credentials.password[..])),
        );
        match outcome {
            LocalAuthentication::Accepted { adopted_user } => {
                match adopted_user {
                    Some(user) => self.session.user = user,
                    None if !peer.name.is_empty() => self.session.user = peer.name.clone(),
                    None => {}
                }
                self.session.refuse_connect = None;
                true
            }
            LocalAuthentication::Refused { reason, fail_delay } => {
                // FAILDLAY: only this connection's thread waits.
                std::thread::sleep(fail_delay);
                self.session.refuse_connect = Some(reason);
                false
            }
        }
    }
}

/// The user and group of the process at the other end of a Unix socket (SO_PEERCRED); an
/// unnamed user with no IDs if the kernel does not say.
pub(crate) fn peer_user(stream: &impl AsRawFd) -> ConnectingUser {
    let mut credentials = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut length = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `credentials` is a ucred and `length` its size, as SO_PEERCRED requires.
    let status = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            &mut credentials as *mut libc::ucred as *mut libc::c_void,
            &mut length,
        )
    };
    if status != 0 {
        return ConnectingUser::default();
    }
    ConnectingUser::from_ids(credentials.uid, credentials.gid)
}

/// Whether the peer still holds its end of the socket (no end-of-stream or hang-up pending).
/// Data the peer sent meanwhile stays queued for the conversation.
pub(crate) fn peer_connected(stream: &impl AsRawFd) -> bool {
    let fd = stream.as_raw_fd();
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN | libc::POLLRDHUP,
        revents: 0,
    };
    // SAFETY: polling one descriptor we own, without waiting.
    let ready = unsafe { libc::poll(&mut poll, 1, 0) };
    if ready <= 0 {
        return true;
    }
    if poll.revents & (libc::POLLHUP | libc::POLLRDHUP | libc::POLLERR) != 0 {
        return false;
    }
    if poll.revents & libc::POLLIN != 0 {
        let mut byte = [0u8; 1];
        // SAFETY: peeking one byte into a buffer we own, without blocking.
        let read = unsafe {
            libc::recv(
                fd,
                byte.as_mut_ptr() as *mut libc::c_void,
                1,
                libc::MSG_PEEK | libc::MSG_DONTWAIT,
            )
        };
        return read != 0;
    }
    true
}
