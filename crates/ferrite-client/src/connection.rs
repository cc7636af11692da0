//! A connection (MQHCONN) to a running queue manager over its bindings socket, with the
//! methods and types of `ferrite_mqi::Connection`.

use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use ferrite_constants::{
    appl_type::MQAT_DEFAULT,
    completion::*,
    get_options::{
        MQGMO_NO_PROPERTIES, MQGMO_PROPERTIES_COMPATIBILITY, MQGMO_PROPERTIES_FORCE_MQRFH2,
        MQGMO_PROPERTIES_IN_HANDLE,
    },
    ids::MQMI_NONE,
    put_options::{
        MQPMO_ASYNC_RESPONSE, MQPMO_NEW_MSG_ID, MQPMO_RESPONSE_AS_Q_DEF, MQPMO_SYNC_RESPONSE,
    },
    reason::*,
};
use ferrite_message::message_handles::{
    attach_pmo_properties, deliver_properties, Hmsg, MessageHandles, PropertyControl,
    PropertyValue, MQHM_NONE,
};
use ferrite_mqi_types::{
    AttributeValue, GetResult, Hobj, Inquired, MqError, MqResult, Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo,
};
use ferrite_protocol::api::{
    ApiBody, ApiFlow, ApiHeader, Fcno, MqClose, MqConn, MqGet, MqInq, MqOpen, MqPut, MqPut1,
};
use ferrite_protocol::control::{status_code, Status};
use ferrite_protocol::initial_data::{
    InitialData, ERR1_FAP_LEVEL, ERR1_MAX_MSG_SIZE, ERR1_MAX_TRANSMISSION_SIZE,
};
use ferrite_protocol::segment::{ControlFlags1, HeaderKind, SegmentHeader, SegmentType};
use ferrite_protocol::transport::{Stream, Transport};
use ferrite_protocol::uid::{Uid, UidExtension};
use ferrite_protocol::wire::{self, chars};
use ferrite_protocol::ByteOrder;

use crate::async_put::MessageIdRange;

/// The channel name a bindings connection gives in INITIAL_DATA.
pub const BINDINGS_CHANNEL: &str = "FERRITE.BINDINGS";

/// How long the handshake (INITIAL_DATA, UID, MQCONN) may take before the connection is given
/// up with MQRC_Q_MGR_NOT_AVAILABLE.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// What the client proposes in INITIAL_DATA. The defaults are Ferrite's limits; tests lower
/// them (a small MaxTransmissionSize makes every flow split across segments).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientOptions {
    /// MaxTransmissionSize proposed (bytes per segment, header included).
    pub max_transmission_size: u32,
    /// MaxMessageSize proposed.
    pub max_message_size: u32,
    /// FAP level proposed.
    pub fap_level: u8,
    /// The byte order of the connection's flows and of the MQI structures in them: the
    /// machine's own unless set (tests use both; the queue manager answers in the order it
    /// receives).
    pub byte_order: Option<ByteOrder>,
}

impl Default for ClientOptions {
    fn default() -> ClientOptions {
        ClientOptions {
            max_transmission_size: wire::MAX_TRANSMISSION_SIZE,
            max_message_size: wire::MAX_MESSAGE_SIZE,
            fap_level: wire::FAP_LEVEL,
            byte_order: None,
        }
    }
}

/// What a client connection adds for security: TLS on the channel (its SSLCIPH) and the user
/// ID and password of an MQCSP, sent in CONAUTH_INFO for the queue manager's CHCKCLNT.
#[derive(Clone, Debug, Default)]
pub struct ClientSecurity {
    /// TLS from the first byte of the socket.
    pub tls: Option<ferrite_protocol::tls::ClientTls>,
    /// MQCSP user ID and password. Sent only inside TLS: over plaintext TCP the connection
    /// fails with MQRC_PASSWORD_PROTECTION_ERROR (2594) rather than expose the password (the
    /// queue manager could not check a protected one either).
    pub credentials: Option<(String, String)>,
}

/// What INITIAL_DATA settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Negotiated {
    /// FAP level.
    pub fap_level: u8,
    /// Largest segment, header included.
    pub max_transmission_size: u32,
    /// Largest message.
    pub max_message_size: u32,
    /// Conversations per socket (1: flows after INITIAL_DATA use TSHM conversation 1).
    pub conversations_per_socket: i32,
}

/// A connection to a running queue manager over its bindings socket. One thread uses it at a
/// time (as MQCNO_HANDLE_SHARE_NONE); it may move between threads.
///
/// Semantics are the MQI's (`ferrite_mqi::Connection`): the queue manager runs each call on
/// an in-process MQI connection of its own. MQDISC commits; a connection dropped without
/// MQDISC (or whose process ends) is backed out by the queue manager. Once the socket fails,
/// every call returns MQRC_CONNECTION_BROKEN (2009).
#[derive(Debug)]
pub struct Connection {
    transport: Option<Transport>,
    conversation: bool,
    byte_order: ByteOrder,
    ccsid: u16,
    next_request_id: u32,
    negotiated: Negotiated,
    q_mgr_name: String,
    /// Message identifiers reserved for asynchronous puts (`async_put`).
    pub(crate) message_ids: Option<MessageIdRange>,
    /// Message handles live in the client, as in MQ's client libraries: a put sends their
    /// properties in an MQRFH2, a get into a handle asks for the MQRFH2 and takes it apart.
    message_handles: MessageHandles,
    /// Handles whose queue's DEFPRESP is ASYNC (`open_defaults`): their MQPUTs with
    /// MQPMO_RESPONSE_AS_Q_DEF are asynchronous.
    asynchronous_handles: std::collections::HashSet<i32>,
}

fn broken() -> MqError {
    MqError::failed(MQRC_CONNECTION_BROKEN)
}

/// The reason code a STATUS_DATA refusal carries: Ferrite puts MQ's reason in Value; other
/// servers' codes are mapped.
fn status_reason(status: &Status) -> i32 {
    match (status.value, status.code) {
        (Some(value), _) if value >= 2000 => value,
        (_, status_code::QM_UNAVAILABLE | status_code::QM_TERMINATING) => MQRC_Q_MGR_NOT_AVAILABLE,
        (_, status_code::SECURITY_FAILURE) => MQRC_NOT_AUTHORIZED,
        _ => MQRC_CONNECTION_ERROR,
    }
}

impl Connection {
    /// MQCONN to the queue manager listening on `socket_path` (its `qm.sock`). `q_mgr_name`
    /// must be blank or its name. MQRC_Q_MGR_NOT_AVAILABLE (2059) when nothing listens there.
    pub fn connect(socket_path: impl AsRef<Path>, q_mgr_name: &str) -> MqResult<Connection> {
        Self::connect_with(socket_path, q_mgr_name, &Mqcno::default())
    }

    /// MQCONNX: connect with connect options.
    pub fn connect_with(
        socket_path: impl AsRef<Path>,
        q_mgr_name: &str,
        cno: &Mqcno,
    ) -> MqResult<Connection> {
        Self::connect_with_options(socket_path, q_mgr_name, cno, &ClientOptions::default())
    }

    /// MQCONNX proposing `options` in INITIAL_DATA.
    pub fn connect_with_options(
        socket_path: impl AsRef<Path>,
        q_mgr_name: &str,
        cno: &Mqcno,
        options: &ClientOptions,
    ) -> MqResult<Connection> {
        wire::check_length(q_mgr_name, 48, MQRC_Q_MGR_NAME_ERROR)?;
        wire::check_length(&cno.appl_name, 28, MQRC_CNO_ERROR)?;
        let stream = UnixStream::connect(socket_path.as_ref())
            .map_err(|_| MqError::failed(MQRC_Q_MGR_NOT_AVAILABLE))?;
        // MQCNO's MQCSP goes in CONAUTH_INFO for the queue manager's CHCKLOCL; the socket
        // does not leave the machine.
        let credentials = cno
            .security_parms
            .as_ref()
            .map(|csp| (csp.user_id.as_str(), csp.password.as_bytes()));
        Self::establish(
            Stream::Unix(stream),
            BINDINGS_CHANNEL,
            q_mgr_name,
            cno,
            options,
            credentials,
        )
    }

    /// MQCONNX in client mode: over TCP to a queue manager's listener at `address`
    /// (`host:port`, MQ's CONNAME `host(port)` written the Rust way) through the
    /// server-connection channel `channel` (e.g. `DEV.APP.SVRCONN`). MQRC_HOST_NOT_AVAILABLE
    /// (2538) when nothing listens there, MQRC_UNKNOWN_CHANNEL_NAME (2540) for a channel the
    /// queue manager does not define.
    pub fn connect_client(
        address: &str,
        channel: &str,
        q_mgr_name: &str,
        cno: &Mqcno,
        options: &ClientOptions,
    ) -> MqResult<Connection> {
        Self::connect_client_secure(
            address,
            channel,
            q_mgr_name,
            cno,
            options,
            &ClientSecurity::default(),
        )
    }

    /// [`Connection::connect_client`] with TLS and/or a user ID and password. A TLS
    /// handshake that fails gives MQRC_SSL_INITIALIZATION_ERROR (2393); the queue manager's
    /// refusals come with its reason (2393 for a CipherSpec the channel does not take, 2035
    /// MQRC_NOT_AUTHORIZED for credentials, 2398/2399 for the client certificate).
    pub fn connect_client_secure(
        address: &str,
        channel: &str,
        q_mgr_name: &str,
        cno: &Mqcno,
        options: &ClientOptions,
        security: &ClientSecurity,
    ) -> MqResult<Connection> {
        wire::check_length(q_mgr_name, 48, MQRC_Q_MGR_NAME_ERROR)?;
        wire::check_length(&cno.appl_name, 28, MQRC_CNO_ERROR)?;
        wire::check_length(channel, 20, MQRC_CHANNEL_CONFIG_ERROR)?;
        if security.credentials.is_some() && security.tls.is_none() {
            return Err(MqError::failed(MQRC_PASSWORD_PROTECTION_ERROR));
        }
        let addresses: Vec<std::net::SocketAddr> =
            std::net::ToSocketAddrs::to_socket_addrs(address)
                .map_err(|_| MqError::failed(MQRC_HOST_NOT_AVAILABLE))?
                .collect();
        let stream = addresses
            .iter()
            .find_map(|address| {
                std::net::TcpStream::connect_timeout(address, HANDSHAKE_TIMEOUT).ok()
            })
            .ok_or(MqError::failed(MQRC_HOST_NOT_AVAILABLE))?;
        let _ = stream.set_nodelay(true);
        let stream = match &security.tls {
            None => Stream::Tcp(stream),
            Some(tls) => {
                let host = address
                    .rsplit_once(':')
                    .map_or(address, |(host, _)| host)
                    .trim_start_matches('[')
                    .trim_end_matches(']');
                let _ = stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT));
                let _ = stream.set_write_timeout(Some(HANDSHAKE_TIMEOUT));
                Stream::Tls(
                    tls.connect(stream, host)
                        .map_err(|_| MqError::failed(MQRC_SSL_INITIALIZATION_ERROR))?,
                )
            }
        };
        let credentials = security
            .credentials
            .as_ref()
            .map(|(user, password)| (user.as_str(), password.as_bytes()));
        Self::establish(stream, channel, q_mgr_name, cno, options, credentials)
    }

    /// INITIAL_DATA, USERID_DATA and MQCONN over a connected socket.
    fn establish(
        stream: Stream,
        channel: &str,
        q_mgr_name: &str,
        cno: &Mqcno,
        options: &ClientOptions,
        credentials: Option<(&str, &[u8])>,
    ) -> MqResult<Connection> {
        stream
            .set_read_timeout(Some(HANDSHAKE_TIMEOUT))
            .map_err(|_| MqError::failed(MQRC_Q_MGR_NOT_AVAILABLE))?;
        let byte_order = options
            .byte_order
            .unwrap_or(if cfg!(target_endian = "big") {
                ByteOrder::Big
            } else {
                ByteOrder::Little
            });
        let mut connection = Connection {
            transport: Some(Transport::new(stream)),
            conversation: false,
            byte_order,
            ccsid: 1208,
            next_request_id: 1,
            negotiated: Negotiated {
                fap_level: options.fap_level,
                max_transmission_size: options.max_transmission_size,
                max_message_size: options.max_message_size,
                conversations_per_socket: 1,
            },
            q_mgr_name: String::new(),
            message_ids: None,
            asynchronous_handles: std::collections::HashSet::new(),
            message_handles: MessageHandles::default(),
        };
        connection.negotiate(options, channel)?;
        connection.identify()?;
        if let Some((user, password)) = credentials {
            connection.authenticate(user, password)?;
        }
        connection.mqconn(q_mgr_name, cno)?;
        if let Some(transport) = &connection.transport {
            transport
                .stream()
                .set_read_timeout(None)
                .map_err(|_| broken())?;
        }
        Ok(connection)
    }

    /// The byte order of this connection's flows.
    pub(crate) fn byte_order(&self) -> ByteOrder {
        self.byte_order
    }

    /// What INITIAL_DATA settled.
    pub fn negotiated(&self) -> Negotiated {
        self.negotiated
    }

    /// The name of the queue manager connected to (from the MQCONN reply).
    pub fn q_mgr_name(&self) -> &str {
        &self.q_mgr_name
    }

    fn header(&mut self, segment_type: SegmentType, with_request_id: bool) -> SegmentHeader {
        let kind = if self.conversation {
            let request_id = if with_request_id {
                let id = self.next_request_id;
                self.next_request_id = self.next_request_id.wrapping_add(1).max(1);
                id
            } else {
                0
            };
            HeaderKind::Tshm {
                conversation_id: wire::CONVERSATION_ID,
                request_id,
            }
        } else {
            HeaderKind::Tsh
        };
        let mut header = SegmentHeader::new(kind, segment_type, self.byte_order);
        header.ccsid = self.ccsid;
        header
    }

    fn fail(&mut self) -> MqError {
        self.transport = None;
        broken()
    }

    /// Writes a flow and reads until the flow of `expect` arrives, answering heartbeats.
    /// A STATUS_DATA refusal ends the connection with the reason it carries.
    fn exchange(
        &mut self,
        header: &SegmentHeader,
        payload: &[u8],
        expect: SegmentType,
    ) -> MqResult<ferrite_protocol::segment::Segment> {
        let Some(transport) = self.transport.as_mut() else {
            return Err(broken());
        };
        // A queue manager refusing the connection may already have closed it: read its
        // STATUS_DATA even when the write failed.
        let written = transport.write_flow(header, payload);
        loop {
            let Some(transport) = self.transport.as_mut() else {
                return Err(broken());
            };
            let flow = match transport.read_flow() {
                Ok(flow) => flow,
                Err(_) => return Err(self.fail()),
            };
            match flow.header.segment_type {
                t if t == expect && written.is_ok() => return Ok(flow),
                SegmentType::StatusData => {
                    let reason = Status::decode(&flow.payload, flow.header.byte_order)
                        .map(|status| status_reason(&status))
                        .unwrap_or(MQRC_CONNECTION_BROKEN);
                    self.transport = None;
                    return Err(MqError::failed(reason));
                }
                SegmentType::Heartbeat
                    if flow.header.flags1.contains(ControlFlags1::CONFIRM_REQUEST) =>
                {
                    let mut reply = flow.header.clone();
                    reply.flags1 = ControlFlags1(ControlFlags1::FIRST | ControlFlags1::LAST);
                    if transport.write_flow(&reply, &flow.payload).is_err() {
                        return Err(self.fail());
                    }
                }
                SegmentType::Heartbeat => {}
                _ => return Err(self.fail()),
            }
        }
    }

    /// INITIAL_DATA: propose, accept the queue manager's values, renegotiate once if asked.
    fn negotiate(&mut self, options: &ClientOptions, channel: &str) -> MqResult<()> {
        let not_available = || MqError::failed(MQRC_Q_MGR_NOT_AVAILABLE);
        let mut proposal = InitialData::new(options.fap_level);
        proposal.cap_flags1 = wire::CAPABILITIES1;
        proposal.max_msgs_per_batch = 1;
        proposal.max_transmission_size = options.max_transmission_size;
        proposal.max_message_size = options.max_message_size;
        proposal.sequence_wrap_value = 999_999_999;
        proposal.channel_name = chars(channel);
        proposal.ccsid = self.ccsid;
        proposal.heartbeat_interval = 0;
        proposal.conv_per_socket = 1;
        proposal.process_id = std::process::id();
        proposal.product_id = chars(wire::PRODUCT_ID);
        for _attempt in 0..2 {
            let mut header = self.header(SegmentType::InitialData, false);
            header.flags1 = ControlFlags1(
                ControlFlags1::CONFIRM_REQUEST | ControlFlags1::FIRST | ControlFlags1::LAST,
            );
            let payload = proposal.encode(self.byte_order);
            let flow = self
                .exchange(&header, &payload, SegmentType::InitialData)
                .map_err(|error| {
                    if error.reason == MQRC_CONNECTION_BROKEN {
                        not_available()
                    } else {
                        error
                    }
                })?;
            let answer = InitialData::decode(&flow.payload, flow.header.byte_order)
                .map_err(|_| self.fail())?;
            if flow.header.flags1.contains(ControlFlags1::ERROR) {
                // The queue manager's values are what it can accept: take them if we can.
                let flags = answer.ini_err_flags1;
                if flags & ERR1_FAP_LEVEL != 0 {
                    if !(wire::MIN_FAP_LEVEL..=wire::FAP_LEVEL).contains(&answer.fap_level) {
                        return Err(MqError::failed(MQRC_CONNECTION_ERROR));
                    }
                    proposal = InitialData {
                        fap_level: answer.fap_level,
                        wire_length: InitialData::length_for_fap_level(answer.fap_level),
                        ..proposal
                    };
                }
                if flags & ERR1_MAX_TRANSMISSION_SIZE != 0 {
                    proposal.max_transmission_size = answer.max_transmission_size;
                }
                if flags & ERR1_MAX_MSG_SIZE != 0 {
                    proposal.max_message_size = answer.max_message_size;
                }
                if flags & !(ERR1_FAP_LEVEL | ERR1_MAX_TRANSMISSION_SIZE | ERR1_MAX_MSG_SIZE) != 0 {
                    return Err(MqError::failed(MQRC_CONNECTION_ERROR));
                }
                continue;
            }
            if answer.fap_level < wire::MIN_FAP_LEVEL
                || answer.fap_level > proposal.fap_level
                || answer.max_transmission_size < wire::MIN_TRANSMISSION_SIZE
                || answer.max_transmission_size > proposal.max_transmission_size
                || answer.max_message_size > proposal.max_message_size
            {
                self.transport = None;
                return Err(MqError::failed(MQRC_CONNECTION_ERROR));
            }
            self.negotiated = Negotiated {
                fap_level: answer.fap_level,
                max_transmission_size: answer.max_transmission_size,
                max_message_size: answer.max_message_size,
                conversations_per_socket: answer.conv_per_socket,
            };
            self.conversation = answer.conv_per_socket >= 1;
            if let Some(transport) = self.transport.as_mut() {
                transport.set_limits(answer.max_transmission_size, answer.max_message_size);
            }
            return Ok(());
        }
        self.transport = None;
        Err(MqError::failed(MQRC_CONNECTION_ERROR))
    }

    /// USERID_DATA: the user this process runs as (no password: security is a later issue).
    fn identify(&mut self) -> MqResult<()> {
        let user = std::env::var("USER").unwrap_or_default();
        let uid = Uid {
            user_id: chars(&user),
            password: chars(""),
            extension: Some(UidExtension {
                long_user_id: chars(&user),
                security_id: [0; 40],
            }),
        };
        let header = self.header(SegmentType::UseridData, false);
        let payload = uid.encode(self.byte_order);
        // No reply comes (as with IBM MQ): MQCONN follows at once.
        let transport = self.transport.as_mut().ok_or_else(broken)?;
        if transport.write_flow(&header, &payload).is_err() {
            return Err(self.fail());
        }
        Ok(())
    }

    /// CONAUTH_INFO: the MQCSP user ID and password (CAUT as IBM's Java client lays it out);
    /// the queue manager answers with a STATUS_DATA of code 0 and decides at MQCONN.
    fn authenticate(&mut self, user: &str, password: &[u8]) -> MqResult<()> {
        let mut writer = ferrite_protocol::codec::Writer::new(self.byte_order);
        writer.bytes(b"CAUT");
        writer.i32(1); // MQCSP_AUTH_USER_ID_AND_PWD
        for _ in 0..2 {
            writer.i32(user.len() as i32);
            writer.i32(password.len() as i32);
        }
        writer.bytes(&[0u8; 8]); // reserved, as the Java client sends
        writer.bytes(user.as_bytes());
        writer.bytes(password);
        let payload = writer.into_bytes();
        let header = self.header(SegmentType::ConauthInfo, false);
        let transport = self.transport.as_mut().ok_or_else(broken)?;
        if transport.write_flow(&header, &payload).is_err() {
            return Err(self.fail());
        }
        loop {
            let transport = self.transport.as_mut().ok_or_else(broken)?;
            let flow = match transport.read_flow() {
                Ok(flow) => flow,
                Err(_) => return Err(self.fail()),
            };
            match flow.header.segment_type {
                SegmentType::StatusData => {
                    let status = Status::decode(&flow.payload, flow.header.byte_order)
                        .map_err(|_| self.fail())?;
                    if status.code == 0 {
                        return Ok(());
                    }
                    self.transport = None;
                    return Err(MqError::failed(status_reason(&status)));
                }
                SegmentType::Heartbeat => {}
                _ => return Err(self.fail()),
            }
        }
    }

    fn mqconn(&mut self, q_mgr_name: &str, cno: &Mqcno) -> MqResult<()> {
        let appl_name = if cno.appl_name.is_empty() {
            std::env::current_exe()
                .ok()
                .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_default()
        } else {
            cno.appl_name.clone()
        };
        // The last 28 characters, as MQ keeps of a program name.
        let skip = appl_name.chars().count().saturating_sub(28);
        let appl_name: String = appl_name.chars().skip(skip).collect();
        let body = ApiBody::Conn(MqConn {
            qmgr_name: chars(q_mgr_name),
            appl_name: chars(&appl_name),
            appl_type: MQAT_DEFAULT,
            accounting_token: [0; 32],
            options: 3,
            x_options: 0,
            fcno: Some(Fcno {
                version: 1,
                cap_flags: cno.options,
                conn_tag: Some([0; 128]),
                ret_conn_tag: None,
                rest: Vec::new(),
            }),
            trailing: Vec::new(),
        });
        let (header, body) = self.call(SegmentType::MqConn, 0, body)?;
        check(&header)?;
        if let ApiBody::Conn(reply) = body {
            self.q_mgr_name = reply.qmgr_name.trimmed();
        }
        Ok(())
    }

    /// One MQI flow and its reply. Fails only for transport failures (MQRC_CONNECTION_BROKEN)
    /// and replies that are not the request's; the reply's completion code is the caller's.
    pub(crate) fn call(
        &mut self,
        request: SegmentType,
        hobj: i32,
        body: ApiBody,
    ) -> MqResult<(ApiHeader, ApiBody)> {
        self.call_with_message(request, hobj, body, &[])
    }

    /// As [`Connection::call`], the request followed by `data`: the message data of an MQPUT
    /// or MQPUT1 whose body holds none (see `ApiFlow::encode_followed_by`).
    fn call_with_message(
        &mut self,
        request: SegmentType,
        hobj: i32,
        body: ApiBody,
        data: &[u8],
    ) -> MqResult<(ApiHeader, ApiBody)> {
        let (header, payload) = self.request_flow(request, hobj, body, data)?;
        let Some(expect) = request.reply() else {
            return Err(MqError::failed(MQRC_UNEXPECTED_ERROR));
        };
        let reply = self.exchange(&header, &payload, expect)?;
        if let (
            HeaderKind::Tshm { request_id, .. },
            HeaderKind::Tshm {
                request_id: answered,
                ..
            },
        ) = (header.kind, reply.header.kind)
        {
            if request_id != answered {
                return Err(self.fail());
            }
        }
        match ApiFlow::decode(expect, reply.header.byte_order, &reply.payload) {
            Ok(flow) => Ok((flow.header, flow.body)),
            Err(_) => Err(self.fail()),
        }
    }

    /// The header and payload of an MQI request flow, its body followed by `data`.
    fn request_flow(
        &mut self,
        request: SegmentType,
        hobj: i32,
        body: ApiBody,
        data: &[u8],
    ) -> MqResult<(SegmentHeader, Vec<u8>)> {
        if self.transport.is_none() {
            return Err(broken());
        }
        let header = self.header(request, true);
        let flow = ApiFlow {
            header: ApiHeader {
                reply_length: 0,
                comp_code: MQCC_OK,
                reason: MQRC_NONE,
                hobj,
            },
            body,
        };
        let mut payload = flow
            .encode_followed_by(self.byte_order, data)
            .map_err(|_| MqError::failed(MQRC_UNEXPECTED_ERROR))?;
        // ReplyLength: the length of the whole flow, as Wireshark's reassembly reads it.
        let total = (header.header_length() + payload.len()) as u32;
        payload[..4].copy_from_slice(&total.to_be_bytes());
        Ok((header, payload))
    }

    /// Writes an MQI flow that gets no reply (an asynchronous put of `data`).
    fn send_without_reply(
        &mut self,
        request: SegmentType,
        hobj: i32,
        body: ApiBody,
        data: &[u8],
    ) -> MqResult<()> {
        let (header, payload) = self.request_flow(request, hobj, body, data)?;
        let transport = self.transport.as_mut().ok_or_else(broken)?;
        if transport.write_flow(&header, &payload).is_err() {
            return Err(self.fail());
        }
        Ok(())
    }

    /// Prepares an asynchronous put (MQPMO_ASYNC_RESPONSE, or MQPMO_RESPONSE_AS_Q_DEF on a
    /// queue whose DEFPRESP is ASYNC: `queue_default_async`): stamps a reserved MsgId when
    /// the queue manager would have generated one, since no reply brings it back.
    fn prepare_asynchronous(
        &mut self,
        md: &mut Mqmd,
        pmo: &Mqpmo,
        queue_default_async: bool,
    ) -> MqResult<Option<i32>> {
        let response = pmo.options & (MQPMO_ASYNC_RESPONSE | MQPMO_SYNC_RESPONSE);
        let asynchronous = response == MQPMO_ASYNC_RESPONSE
            || (response == MQPMO_RESPONSE_AS_Q_DEF && queue_default_async);
        if !asynchronous {
            return Ok(None);
        }
        // Resolved here: the queue manager is told the put is asynchronous.
        let mut wire_options = pmo.options | MQPMO_ASYNC_RESPONSE;
        if md.msg_id == MQMI_NONE || pmo.options & MQPMO_NEW_MSG_ID != 0 {
            md.msg_id = self.next_message_id()?;
            wire_options &= !MQPMO_NEW_MSG_ID;
        }
        Ok(Some(wire_options))
    }

    /// MQOPEN. A queue opened for output is opened as IBM's clients open it, through SPI OPEN
    /// (`open_defaults`), to learn its DEFPRESP for MQPMO_RESPONSE_AS_Q_DEF.
    pub fn open(&mut self, od: &mut Mqod, options: i32) -> MqResult<Hobj> {
        wire::check_od(od)?;
        if options & ferrite_constants::open_options::MQOO_OUTPUT != 0
            && od.selection_string.is_empty()
        {
            match self.spi_open(od, options) {
                Ok(opened) => {
                    if opened.asynchronous_puts() {
                        self.asynchronous_handles.insert(opened.hobj.0);
                    }
                    return Ok(opened.hobj);
                }
                // A queue manager without SPI OPEN: MQOPEN, puts as queue default synchronous.
                Err(error) if error.reason == MQRC_FUNCTION_NOT_SUPPORTED => {}
                Err(error) => return Err(error),
            }
        }
        let body = ApiBody::Open(MqOpen {
            od: wire::od_to_wire(od),
            options,
            fopa: None,
            fcmi: None,
            trailing: Vec::new(),
        });
        let (header, body) = self.call(SegmentType::MqOpen, 0, body)?;
        check(&header)?;
        if let ApiBody::Open(reply) = body {
            let resolved = wire::od_from_wire(&reply.od);
            // A model queue's MQOPEN returns the dynamic queue's name in ObjectName.
            od.object_name = resolved.object_name;
            od.resolved_q_name = resolved.resolved_q_name;
            od.resolved_q_mgr_name = resolved.resolved_q_mgr_name;
        }
        Ok(Hobj(header.hobj))
    }

    /// MQCLOSE.
    pub fn close(&mut self, hobj: Hobj, options: i32) -> MqResult<()> {
        let body = ApiBody::Close(MqClose {
            od: None,
            options,
            trailing: Vec::new(),
        });
        let (header, _) = self.call(SegmentType::MqClose, hobj.0, body)?;
        check(&header)?;
        self.asynchronous_handles.remove(&hobj.0);
        Ok(())
    }

    /// MQPUT's and MQPUT1's message data: a new buffer with the properties of the PMO's
    /// message handles attached when it names any (None: `data` as it is), checked against
    /// the channel's maximum message length.
    fn put_message_data(
        &self,
        md: &mut Mqmd,
        pmo: &Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<Vec<u8>>> {
        let with_properties = attach_pmo_properties(&self.message_handles, pmo, md, data)?;
        self.check_message(with_properties.as_deref().unwrap_or(data))?;
        Ok(with_properties)
    }

    fn check_message(&self, data: &[u8]) -> MqResult<()> {
        if data.len() > self.negotiated.max_message_size as usize {
            return Err(MqError::failed(MQRC_MSG_TOO_BIG_FOR_CHANNEL));
        }
        Ok(())
    }

    /// MQPUT. Fills in the MQMD (MsgId, context) and MQPMO outputs as the MQI does.
    ///
    /// With MQPMO_ASYNC_RESPONSE the put is sent and not answered (`async_put`): it returns
    /// MQCC_OK at once with the MsgId set (from a reserved range when the queue manager would
    /// have generated it) and no other output; MQSTAT reports how it went.
    pub fn put(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        wire::check_put_md(md)?;
        let with_properties = self.put_message_data(md, pmo, data)?;
        let data = with_properties.as_deref().unwrap_or(data);
        let queue_default_async = self.asynchronous_handles.contains(&hobj.0);
        if let Some(options) = self.prepare_asynchronous(md, pmo, queue_default_async)? {
            let mut wire_pmo = wire::pmo_to_wire(pmo);
            wire_pmo.options = options;
            let body = ApiBody::Put(MqPut {
                md: wire::md_to_wire(md),
                pmo: wire_pmo,
                data_length: data.len() as i32,
                data: Vec::new(),
            });
            self.send_without_reply(SegmentType::MqPut, hobj.0, body, data)?;
            return Ok(None);
        }
        let body = ApiBody::Put(MqPut {
            md: wire::md_to_wire(md),
            pmo: wire::pmo_to_wire(pmo),
            data_length: data.len() as i32,
            data: Vec::new(),
        });
        // The message data follows the body in the flow, not copied into it first.
        let (header, body) = self.call_with_message(SegmentType::MqPut, hobj.0, body, data)?;
        let warning = check_warning(&header)?;
        if let ApiBody::Put(reply) = body {
            *md = wire::output_md_from_wire(&reply.md);
            update_pmo(pmo, &reply.pmo);
        }
        Ok(warning)
    }

    /// MQPUT1.
    pub fn put1(
        &mut self,
        od: &mut Mqod,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        wire::check_od(od)?;
        wire::check_put_md(md)?;
        let with_properties = self.put_message_data(md, pmo, data)?;
        let data = with_properties.as_deref().unwrap_or(data);
        // MQPUT1 opens no handle here, so it learns no DEFPRESP: as queue default is synchronous.
        if let Some(options) = self.prepare_asynchronous(md, pmo, false)? {
            let mut wire_pmo = wire::pmo_to_wire(pmo);
            wire_pmo.options = options;
            let body = ApiBody::Put1(MqPut1 {
                od: wire::od_to_wire(od),
                md: wire::md_to_wire(md),
                pmo: wire_pmo,
                data_length: data.len() as i32,
                data: Vec::new(),
            });
            self.send_without_reply(SegmentType::MqPut1, 0, body, data)?;
            return Ok(None);
        }
        let body = ApiBody::Put1(MqPut1 {
            od: wire::od_to_wire(od),
            md: wire::md_to_wire(md),
            pmo: wire::pmo_to_wire(pmo),
            data_length: data.len() as i32,
            data: Vec::new(),
        });
        let (header, body) = self.call_with_message(SegmentType::MqPut1, 0, body, data)?;
        let warning = check_warning(&header)?;
        if let ApiBody::Put1(reply) = body {
            let resolved = wire::od_from_wire(&reply.od);
            od.resolved_q_name = resolved.resolved_q_name;
            od.resolved_q_mgr_name = resolved.resolved_q_mgr_name;
            *md = wire::output_md_from_wire(&reply.md);
            update_pmo(pmo, &reply.pmo);
        }
        Ok(warning)
    }

    /// MQGET (and browse). A wait (MQGMO_WAIT) blocks this connection only; the queue
    /// manager serves its other connections meanwhile. With MQRC_TRUNCATED_MSG_FAILED the
    /// error carries the message's length, as the MQI's does.
    pub fn get(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut [u8],
    ) -> MqResult<GetResult> {
        wire::check_md(md)?;
        // A handle is filled here: the queue manager is asked for the MQRFH2 as put.
        let handle = gmo.msg_handle.filter(|hmsg| hmsg.0 != MQHM_NONE);
        if let Some(hmsg) = handle {
            self.message_handles.properties(hmsg)?;
        }
        let mut wire_gmo = wire::gmo_to_wire(gmo);
        if handle.is_some() || gmo.options & MQGMO_PROPERTIES_IN_HANDLE != 0 {
            wire_gmo.options = (gmo.options
                & !(MQGMO_PROPERTIES_IN_HANDLE
                    | MQGMO_NO_PROPERTIES
                    | MQGMO_PROPERTIES_COMPATIBILITY))
                | MQGMO_PROPERTIES_FORCE_MQRFH2;
        }
        let body = ApiBody::Get(MqGet {
            md: wire::md_to_wire(md),
            gmo: wire_gmo,
            length: buffer.len().min(i32::MAX as usize) as i32,
            data: Vec::new(),
        });
        let (header, body) = self.call(SegmentType::MqGet, hobj.0, body)?;
        let ApiBody::Get(reply) = body else {
            return Err(self.fail());
        };
        let delivered =
            header.comp_code != MQCC_FAILED || header.reason == MQRC_TRUNCATED_MSG_FAILED;
        if delivered {
            let version = md.version;
            *md = wire::output_md_from_wire(&reply.md);
            md.version = version;
            let output = wire::gmo_from_wire(&reply.gmo);
            gmo.resolved_q_name = output.resolved_q_name;
            gmo.group_status = output.group_status;
            gmo.segment_status = output.segment_status;
            gmo.segmentation = output.segmentation;
            gmo.msg_token = output.msg_token;
        }
        if header.comp_code == MQCC_FAILED {
            if header.reason == MQRC_TRUNCATED_MSG_FAILED {
                gmo.returned_length = 0;
            }
            return Err(MqError {
                data_length: (header.reason == MQRC_TRUNCATED_MSG_FAILED)
                    .then_some(reply.length.max(0) as usize),
                ..MqError::failed(header.reason)
            });
        }
        let mut data_length = reply.length.max(0) as usize;
        let (data, properties) = match handle {
            Some(_) => deliver_properties(
                MQGMO_PROPERTIES_IN_HANDLE,
                true,
                || PropertyControl::Compatibility,
                md,
                &reply.data,
            ),
            None => (std::borrow::Cow::Borrowed(&reply.data[..]), None),
        };
        if let (Some(hmsg), Some(properties)) = (handle, properties) {
            self.message_handles.replace_properties(hmsg, properties)?;
            data_length -= reply.data.len() - data.len();
        }
        let returned_length = data.len().min(buffer.len());
        buffer[..returned_length].copy_from_slice(&data[..returned_length]);
        gmo.returned_length = returned_length as i32;
        Ok(GetResult {
            data_length,
            returned_length,
            warning: (header.comp_code == MQCC_WARNING).then_some(MqError::warning(header.reason)),
        })
    }

    /// MQCRTMH: a message handle (kept in this client).
    pub fn create_message_handle(&mut self, options: i32) -> MqResult<Hmsg> {
        self.message_handles.create(options)
    }

    /// MQDLTMH.
    pub fn delete_message_handle(&mut self, hmsg: Hmsg) -> MqResult<()> {
        self.message_handles.delete(hmsg)
    }

    /// MQSETMP.
    pub fn set_message_property(
        &mut self,
        hmsg: Hmsg,
        name: &str,
        value: PropertyValue,
    ) -> MqResult<()> {
        self.message_handles.set_property(hmsg, name, value)
    }

    /// MQINQMP.
    pub fn inquire_message_property(
        &mut self,
        hmsg: Hmsg,
        pattern: &str,
        options: i32,
        wanted_type: i32,
    ) -> MqResult<(String, PropertyValue)> {
        self.message_handles
            .inquire_property(hmsg, pattern, options, wanted_type)
    }

    /// MQDLTMP.
    pub fn delete_message_property(&mut self, hmsg: Hmsg, name: &str) -> MqResult<()> {
        self.message_handles.delete_property(hmsg, name)
    }

    /// MQCMIT.
    pub fn commit(&mut self) -> MqResult<()> {
        let (header, _) = self.call(SegmentType::MqCmit, 0, ApiBody::Empty(Vec::new()))?;
        check(&header)
    }

    /// MQBACK.
    pub fn backout(&mut self) -> MqResult<()> {
        let (header, _) = self.call(SegmentType::MqBack, 0, ApiBody::Empty(Vec::new()))?;
        check(&header)
    }

    /// MQDISC: the queue manager closes the handles and commits the unit of work.
    pub fn disconnect(mut self) -> MqResult<()> {
        let (header, _) = self.call(SegmentType::MqDisc, 0, ApiBody::Empty(Vec::new()))?;
        self.transport = None;
        check(&header)
    }

    /// MQINQ. The queue manager's warning (MQRC_SELECTOR_NOT_FOR_TYPE, ...) is in
    /// [`Inquired::warning`].
    pub fn inquire(&mut self, hobj: Hobj, selectors: &[i32]) -> MqResult<Inquired> {
        let (integers, characters) = wire::attribute_space(selectors);
        let body = ApiBody::Inq(MqInq {
            selectors: selectors.to_vec(),
            int_attr_count: integers as u32,
            char_attr_length: characters as u32,
            with_values: false,
            int_attrs: Vec::new(),
            char_attrs: Vec::new(),
            trailing: Vec::new(),
        });
        let (header, body) = self.call(SegmentType::MqInq, hobj.0, body)?;
        let warning = check_warning(&header)?;
        let ApiBody::Inq(reply) = body else {
            return Err(self.fail());
        };
        let mut integers = reply.int_attrs.iter();
        let mut characters = &reply.char_attrs[..];
        let mut values = Vec::with_capacity(selectors.len());
        for &selector in selectors {
            if wire::is_integer_selector(selector) {
                let Some(value) = integers.next() else {
                    return Err(self.fail());
                };
                values.push(AttributeValue::Integer(*value));
            } else {
                let length = wire::character_attribute_length(selector).min(characters.len());
                let (field, rest) = characters.split_at(length);
                characters = rest;
                values.push(AttributeValue::Text(wire::attribute_text(field)));
            }
        }
        Ok(Inquired { values, warning })
    }

    /// MQSET. A text value for an integer selector fails with MQRC_INT_ATTR_COUNT_ERROR, an
    /// integer for a character selector with MQRC_CHAR_ATTR_LENGTH_ERROR (the wire carries
    /// the two kinds in separate arrays).
    pub fn set(&mut self, hobj: Hobj, attributes: &[(i32, AttributeValue)]) -> MqResult<()> {
        let mut int_attrs = Vec::new();
        let mut char_attrs = Vec::new();
        for (selector, value) in attributes {
            match (wire::is_integer_selector(*selector), value) {
                (true, AttributeValue::Integer(value)) => int_attrs.push(*value),
                (false, AttributeValue::Text(text)) => {
                    char_attrs.extend(wire::character_attribute(*selector, text))
                }
                (true, _) => return Err(MqError::failed(MQRC_INT_ATTR_COUNT_ERROR)),
                (false, _) => return Err(MqError::failed(MQRC_CHAR_ATTR_LENGTH_ERROR)),
            }
        }
        let body = ApiBody::Inq(MqInq {
            selectors: attributes.iter().map(|(selector, _)| *selector).collect(),
            int_attr_count: int_attrs.len() as u32,
            char_attr_length: char_attrs.len() as u32,
            with_values: true,
            int_attrs,
            char_attrs,
            trailing: Vec::new(),
        });
        let (header, _) = self.call(SegmentType::MqSet, hobj.0, body)?;
        check(&header)
    }
}

fn update_pmo(pmo: &mut Mqpmo, reply: &ferrite_protocol::mqi::Pmo) {
    let output = wire::pmo_from_wire(reply);
    pmo.resolved_q_name = output.resolved_q_name;
    pmo.resolved_q_mgr_name = output.resolved_q_mgr_name;
}

/// `Err` for MQCC_FAILED.
fn check(header: &ApiHeader) -> MqResult<()> {
    check_warning(header).map(|_| ())
}

/// `Err` for MQCC_FAILED, the warning for MQCC_WARNING.
fn check_warning(header: &ApiHeader) -> MqResult<Option<MqError>> {
    match header.comp_code {
        MQCC_OK => Ok(None),
        MQCC_WARNING => Ok(Some(MqError::warning(header.reason))),
        _ => Err(MqError::failed(header.reason)),
    }
}
