//! One bindings connection: its conversation from INITIAL_DATA to the end of the socket.
//!
//! States: *negotiating* (only INITIAL_DATA is accepted; an unacceptable proposal is answered
//! with ERROR and the IniErrFlags1 bits, and the peer may try again, three times in all), then
//! *established* (USERID_DATA, CONAUTH_INFO, HEARTBEAT, SOCKET_ACTION END_CONV and the MQI
//! verbs). MQI verbs before MQCONN fail with MQRC_HCONN_ERROR; a second MQCONN completes with
//! MQCC_WARNING and MQRC_ALREADY_CONNECTED; MQDISC ends the MQI connection but not the
//! conversation. Verbs the MQI does not have (SPI, MQSTAT, MQSUB, MQSUBRQ) fail with
//! MQRC_FUNCTION_NOT_SUPPORTED; anything else ends the connection as a protocol error.

use std::os::unix::io::AsRawFd;
use std::os::unix::net::UnixStream;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ferrite_client::transport::{Transport, TransportError};
use ferrite_client::wire::{self, chars};
use ferrite_constants::{
    completion::*, get_options::MQGMO_WAIT, reason::*, structs::MQCNO_VERSION_7,
    wait::MQWI_UNLIMITED,
};
use ferrite_mqi::{AttributeValue, Connection, Hobj, MqError, MqResult, Mqcno};
use ferrite_protocol::api::{
    ApiBody, ApiFlow, ApiHeader, MqConn, MqGet, MqInq, MqOpen, MqPut, MqPut1,
};
use ferrite_protocol::control::{socket_action_type, status_code, SocketAction, Status};
use ferrite_protocol::initial_data::*;
use ferrite_protocol::mqi::{Gmo, Od, Pmo};
use ferrite_protocol::segment::{ControlFlags1, HeaderKind, Segment, SegmentHeader, SegmentType};
use ferrite_protocol::uid::{Caut, Uid};
use ferrite_protocol::ByteOrder;

use crate::Shared;

/// How long a waiting MQGET waits at a time before checking that its client is still there
/// and the listener is not stopping. A client that goes away while waiting is noticed within
/// this time, before a message is taken for it.
pub const WAIT_SLICE: Duration = Duration::from_millis(200);

/// Proposals refused this many times end the connection.
const NEGOTIATION_ATTEMPTS: u32 = 3;

/// Why a conversation ended.
#[derive(Debug)]
enum End {
    /// The peer closed, ended the conversation, or the listener is stopping.
    Closed,
    /// The peer broke the protocol (or the socket failed).
    Error(String),
}

impl From<TransportError> for End {
    fn from(error: TransportError) -> End {
        match error {
            TransportError::Closed => End::Closed,
            other => End::Error(other.to_string()),
        }
    }
}

fn protocol(what: impl std::fmt::Display) -> End {
    End::Error(format!("protocol error: {what}"))
}

/// Refuses a connection: STATUS_DATA with `reason` in Value, then close.
pub(crate) fn refuse(stream: UnixStream, reason: i32) {
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
        max_message_size: 0,
        user: String::new(),
        connection: None,
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
    max_message_size: u32,
    user: String,
    connection: Option<Connection>,
}

/// The reply header for a request: same header kind and ids, the reply's type, FIRST|LAST.
fn reply_header(request: &SegmentHeader, segment_type: SegmentType) -> SegmentHeader {
    let mut header = SegmentHeader::new(request.kind, segment_type, request.byte_order);
    header.ccsid = request.ccsid;
    header
}

fn api_header(hobj: i32, outcome: Option<MqError>) -> ApiHeader {
    let (comp_code, reason) = match outcome {
        None => (MQCC_OK, MQRC_NONE),
        Some(error) => (error.completion_code, error.reason),
    };
    ApiHeader {
        reply_length: 0,
        comp_code,
        reason,
        hobj,
    }
}

fn outcome<T>(result: &MqResult<T>) -> Option<MqError> {
    result.as_ref().err().copied()
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
                let uid = Uid::decode(&flow.payload, order).map_err(protocol)?;
                let long = uid
                    .extension
                    .as_ref()
                    .map(|extension| extension.long_user_id.trimmed())
                    .unwrap_or_default();
                self.user = if long.is_empty() {
                    uid.user_id.trimmed()
                } else {
                    long
                };
                let header = reply_header(&flow.header, SegmentType::UseridData);
                self.transport.write_flow(&header, &flow.payload)?;
                Ok(())
            }
            SegmentType::ConauthInfo => {
                // Accepted and not checked: authentication is future work.
                Caut::decode(&flow.payload, order).map_err(protocol)?;
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
        let mut errors = 0u8;
        let mut fap_level = proposal.fap_level.min(wire::FAP_LEVEL);
        if fap_level < wire::MIN_FAP_LEVEL {
            errors |= ERR1_FAP_LEVEL;
            fap_level = wire::MIN_FAP_LEVEL;
        }
        let mut max_transmission_size = proposal
            .max_transmission_size
            .min(config.max_transmission_size);
        if max_transmission_size < wire::MIN_TRANSMISSION_SIZE {
            errors |= ERR1_MAX_TRANSMISSION_SIZE;
            max_transmission_size = wire::MIN_TRANSMISSION_SIZE;
        }
        let mut max_message_size = proposal.max_message_size.min(config.max_message_size);
        if max_message_size == 0 {
            errors |= ERR1_MAX_MSG_SIZE;
            max_message_size = config.max_message_size;
        }
        let mut ccsid = proposal.ccsid;
        if ccsid != 0 && !wire::ACCEPTED_CCSIDS.contains(&ccsid) {
            errors |= ERR1_CCSID;
            ccsid = 1208;
        }
        let queue_manager = &self.shared.queue_manager;
        let mut reply = InitialData::new(fap_level);
        reply.cap_flags1 = proposal.cap_flags1 & wire::CAPABILITIES1;
        reply.ini_err_flags1 = errors;
        reply.max_msgs_per_batch = proposal.max_msgs_per_batch;
        reply.max_transmission_size = max_transmission_size;
        reply.max_message_size = max_message_size;
        reply.sequence_wrap_value = proposal.sequence_wrap_value;
        reply.channel_name = proposal.channel_name;
        reply.ccsid = ccsid;
        reply.qmgr_name = chars(queue_manager.name());
        reply.heartbeat_interval = 0;
        reply.conv_per_socket = proposal.conv_per_socket.clamp(0, 1);
        reply.process_id = std::process::id();
        reply.product_id = chars(wire::PRODUCT_ID);
        reply.qmgr_id = chars(&format!(
            "{}_{:016X}",
            queue_manager.name(),
            queue_manager.identity()
        ));
        let mut header = reply_header(&flow.header, SegmentType::InitialData);
        if errors != 0 {
            header.flags1 = ControlFlags1(header.flags1.0 | ControlFlags1::ERROR);
        }
        self.transport.write_flow(&header, &reply.encode(order))?;
        if errors == 0 {
            self.negotiated = true;
            self.max_message_size = max_message_size;
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
        let segment_type = flow.header.segment_type;
        let order = flow.header.byte_order;
        let request = ApiFlow::decode(segment_type, order, &flow.payload).map_err(protocol)?;
        let hobj = request.header.hobj;
        let Some(reply_type) = segment_type.reply() else {
            return Err(protocol(format!("{segment_type:?} has no reply")));
        };
        let (header, body) = match (segment_type, request.body) {
            (SegmentType::MqConn, ApiBody::Conn(conn)) => self.mqconn(conn),
            (SegmentType::MqDisc, body) => match self.connection.take() {
                Some(connection) => (api_header(0, outcome(&connection.disconnect())), body),
                None => (api_header(0, Some(MqError::failed(MQRC_HCONN_ERROR))), body),
            },
            (
                SegmentType::Spi | SegmentType::MqStat | SegmentType::MqSub | SegmentType::MqSubRq,
                _,
            ) => (
                api_header(hobj, Some(MqError::failed(MQRC_FUNCTION_NOT_SUPPORTED))),
                ApiBody::Empty(Vec::new()),
            ),
            (_, body) if self.connection.is_none() => (
                api_header(hobj, Some(MqError::failed(MQRC_HCONN_ERROR))),
                body,
            ),
            (SegmentType::MqOpen, ApiBody::Open(open)) => self.mqopen(open),
            (SegmentType::MqClose, body) => {
                let connection = self.connection.as_mut().expect("connected");
                let options = match &body {
                    ApiBody::Close(close) => close.options,
                    _ => 0,
                };
                let result = connection.close(Hobj(hobj), options);
                (api_header(hobj, outcome(&result)), body)
            }
            (SegmentType::MqPut, ApiBody::Put(put)) => self.mqput(hobj, put),
            (SegmentType::MqPut1, ApiBody::Put1(put1)) => self.mqput1(put1),
            (SegmentType::MqGet, ApiBody::Get(get)) => self.mqget(hobj, get)?,
            (SegmentType::MqInq, ApiBody::Inq(inq)) => self.mqinq(hobj, inq),
            (SegmentType::MqSet, ApiBody::Inq(set)) => {
                let result = self.mqset(hobj, &set);
                (
                    api_header(hobj, outcome(&result)),
                    ApiBody::Empty(Vec::new()),
                )
            }
            (SegmentType::MqCmit, body) => {
                let connection = self.connection.as_mut().expect("connected");
                (api_header(0, outcome(&connection.commit())), body)
            }
            (SegmentType::MqBack, body) => {
                let connection = self.connection.as_mut().expect("connected");
                (api_header(0, outcome(&connection.backout())), body)
            }
            (other, _) => return Err(protocol(format!("{other:?} body"))),
        };
        let mut payload = ApiFlow { header, body }
            .encode(order)
            .map_err(|error| End::Error(format!("cannot encode a reply: {error}")))?;
        let header = reply_header(&flow.header, reply_type);
        let total = (header.header_length() + payload.len()) as u32;
        payload[..4].copy_from_slice(&total.to_be_bytes());
        self.transport.write_flow(&header, &payload)?;
        Ok(())
    }

    fn mqconn(&mut self, mut conn: MqConn) -> (ApiHeader, ApiBody) {
        let queue_manager = &self.shared.queue_manager;
        let result = if self.connection.is_some() {
            Err(MqError::warning(MQRC_ALREADY_CONNECTED))
        } else {
            let cno = Mqcno {
                version: MQCNO_VERSION_7,
                options: conn.fcno.as_ref().map_or(0, |fcno| fcno.cap_flags),
                appl_name: conn.appl_name.trimmed(),
            };
            Connection::connect_with(queue_manager.clone(), &conn.qmgr_name.trimmed(), &cno).map(
                |mut connection| {
                    if !self.user.is_empty() {
                        connection.set_user_identifier(&self.user);
                    }
                    self.connection = Some(connection);
                    let _ = self.transport.stream().set_read_timeout(None);
                },
            )
        };
        conn.qmgr_name = chars(queue_manager.name());
        (api_header(0, outcome(&result)), ApiBody::Conn(conn))
    }

    fn mqopen(&mut self, mut open: MqOpen) -> (ApiHeader, ApiBody) {
        let connection = self.connection.as_mut().expect("connected");
        let mut od = wire::od_from_wire(&open.od);
        let result = connection.open(&mut od, open.options);
        set_resolved(&mut open.od, &od);
        let hobj = result.as_ref().map_or(-1, |hobj| hobj.0);
        (api_header(hobj, outcome(&result)), ApiBody::Open(open))
    }

    fn mqput(&mut self, hobj: i32, mut put: MqPut) -> (ApiHeader, ApiBody) {
        let connection = self.connection.as_mut().expect("connected");
        let result = if put.data_length as usize != put.data.len() {
            Err(MqError::failed(MQRC_BUFFER_LENGTH_ERROR))
        } else {
            let mut md = wire::md_from_wire(&put.md);
            let mut pmo = wire::pmo_from_wire(&put.pmo);
            let result = connection.put(Hobj(hobj), &mut md, &mut pmo, &put.data);
            put.md = wire::md_to_wire(&md);
            set_pmo_outputs(&mut put.pmo, &pmo);
            result
        };
        put.data = Vec::new();
        (
            api_header(hobj, warning_outcome(&result)),
            ApiBody::Put(put),
        )
    }

    fn mqput1(&mut self, mut put1: MqPut1) -> (ApiHeader, ApiBody) {
        let connection = self.connection.as_mut().expect("connected");
        let result = if put1.data_length as usize != put1.data.len() {
            Err(MqError::failed(MQRC_BUFFER_LENGTH_ERROR))
        } else {
            let mut od = wire::od_from_wire(&put1.od);
            let mut md = wire::md_from_wire(&put1.md);
            let mut pmo = wire::pmo_from_wire(&put1.pmo);
            let result = connection.put1(&mut od, &mut md, &mut pmo, &put1.data);
            set_resolved(&mut put1.od, &od);
            put1.md = wire::md_to_wire(&md);
            set_pmo_outputs(&mut put1.pmo, &pmo);
            result
        };
        put1.data = Vec::new();
        (api_header(0, warning_outcome(&result)), ApiBody::Put1(put1))
    }

    /// MQGET. A wait is served in slices of [`WAIT_SLICE`], checking between slices that the
    /// client is still connected and the listener is not stopping: a get never takes a message
    /// for a client that has gone.
    fn mqget(&mut self, hobj: i32, mut get: MqGet) -> Result<(ApiHeader, ApiBody), End> {
        let connection = self.connection.as_mut().expect("connected");
        let requested = get.length.max(0) as usize;
        let capped = requested.min(self.max_message_size as usize);
        let mut buffer = vec![0u8; capped];
        let mut md = wire::md_from_wire(&get.md);
        let mut gmo = wire::gmo_from_wire(&get.gmo);
        let wait_interval = gmo.wait_interval;
        let sliced =
            gmo.options & MQGMO_WAIT != 0 && (wait_interval > 0 || wait_interval == MQWI_UNLIMITED);
        let result = if !sliced {
            connection.get(Hobj(hobj), &mut md, &mut gmo, &mut buffer)
        } else {
            let deadline = (wait_interval != MQWI_UNLIMITED)
                .then(|| Instant::now() + Duration::from_millis(wait_interval as u64));
            let original = md.clone();
            loop {
                let slice = match deadline {
                    None => WAIT_SLICE,
                    Some(deadline) => deadline
                        .saturating_duration_since(Instant::now())
                        .min(WAIT_SLICE),
                };
                gmo.wait_interval = slice.as_millis() as i32;
                md = original.clone();
                let result = connection.get(Hobj(hobj), &mut md, &mut gmo, &mut buffer);
                match &result {
                    Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => {
                        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                            break result;
                        }
                        if self.shared.stopping.load(Ordering::Acquire) {
                            return Err(End::Closed);
                        }
                        if !peer_connected(self.transport.stream()) {
                            return Err(End::Closed);
                        }
                    }
                    _ => break result,
                }
            }
        };
        gmo.wait_interval = wait_interval;
        let delivered = match &result {
            Ok(_) => true,
            Err(error) => error.reason == MQRC_TRUNCATED_MSG_FAILED,
        };
        if delivered {
            get.md = wire::md_to_wire(&md);
            set_gmo_outputs(&mut get.gmo, &gmo);
        }
        let header;
        match result {
            Ok(got) => {
                header = api_header(hobj, got.warning);
                get.length = got.data_length as i32;
                buffer.truncate(got.returned_length);
                get.data = buffer;
            }
            Err(mut error) => {
                get.length = error.data_length.unwrap_or(0) as i32;
                if error.reason == MQRC_TRUNCATED_MSG_FAILED && requested > capped {
                    // The client's buffer was large enough; the channel's limit was not.
                    error = MqError::failed(MQRC_MSG_TOO_BIG_FOR_CHANNEL);
                }
                header = api_header(hobj, Some(error));
                get.data = Vec::new();
            }
        }
        Ok((header, ApiBody::Get(get)))
    }

    fn mqinq(&mut self, hobj: i32, mut inq: MqInq) -> (ApiHeader, ApiBody) {
        let connection = self.connection.as_mut().expect("connected");
        inq.with_values = true;
        inq.int_attrs.clear();
        inq.char_attrs.clear();
        let result = connection.inquire(Hobj(hobj), &inq.selectors);
        let outcome = match result {
            Err(error) => {
                inq.int_attr_count = 0;
                inq.char_attr_length = 0;
                Some(error)
            }
            Ok(values) => {
                let mut warning = None;
                for (selector, value) in inq.selectors.iter().zip(values) {
                    match value {
                        AttributeValue::Integer(value) => inq.int_attrs.push(value),
                        AttributeValue::Text(text) => inq
                            .char_attrs
                            .extend(wire::character_attribute(*selector, &text)),
                    }
                }
                if inq.int_attrs.len() > inq.int_attr_count as usize {
                    inq.int_attrs.truncate(inq.int_attr_count as usize);
                    warning = Some(MqError::warning(MQRC_INT_ATTR_COUNT_TOO_SMALL));
                }
                if inq.char_attrs.len() > inq.char_attr_length as usize {
                    inq.char_attrs.truncate(inq.char_attr_length as usize);
                    warning = Some(MqError::warning(MQRC_CHAR_ATTRS_TOO_SHORT));
                }
                inq.int_attr_count = inq.int_attrs.len() as u32;
                inq.char_attr_length = inq.char_attrs.len() as u32;
                warning
            }
        };
        (api_header(hobj, outcome), ApiBody::Inq(inq))
    }

    fn mqset(&mut self, hobj: i32, set: &MqInq) -> MqResult<()> {
        let connection = self.connection.as_mut().expect("connected");
        let mut integers = set.int_attrs.iter();
        let mut characters = &set.char_attrs[..];
        let mut attributes = Vec::with_capacity(set.selectors.len());
        for &selector in &set.selectors {
            if wire::is_integer_selector(selector) {
                let value = integers
                    .next()
                    .ok_or(MqError::failed(MQRC_INT_ATTR_COUNT_ERROR))?;
                attributes.push((selector, AttributeValue::Integer(*value)));
            } else {
                let length = wire::character_attribute_length(selector);
                if characters.len() < length {
                    return Err(MqError::failed(MQRC_CHAR_ATTR_LENGTH_ERROR));
                }
                let (field, rest) = characters.split_at(length);
                characters = rest;
                attributes.push((selector, AttributeValue::Text(wire::attribute_text(field))));
            }
        }
        connection.set(Hobj(hobj), &attributes)
    }
}

/// The outcome of a call that may complete with a warning.
fn warning_outcome(result: &MqResult<Option<MqError>>) -> Option<MqError> {
    match result {
        Ok(warning) => *warning,
        Err(error) => Some(*error),
    }
}

fn set_resolved(wire_od: &mut Od, od: &ferrite_mqi::Mqod) {
    // ObjectName is output too: the name of a dynamic queue MQOPEN created from a model.
    wire_od.object_name = chars(&od.object_name);
    wire_od.resolved_q_name = chars(&od.resolved_q_name);
    wire_od.resolved_q_mgr_name = chars(&od.resolved_q_mgr_name);
}

fn set_pmo_outputs(wire_pmo: &mut Pmo, pmo: &ferrite_mqi::Mqpmo) {
    wire_pmo.resolved_q_name = chars(&pmo.resolved_q_name);
    wire_pmo.resolved_q_mgr_name = chars(&pmo.resolved_q_mgr_name);
}

fn set_gmo_outputs(wire_gmo: &mut Gmo, gmo: &ferrite_mqi::Mqgmo) {
    wire_gmo.resolved_q_name = chars(&gmo.resolved_q_name);
    wire_gmo.group_status = gmo.group_status;
    wire_gmo.segment_status = gmo.segment_status;
    wire_gmo.segmentation = gmo.segmentation;
    wire_gmo.msg_token = gmo.msg_token;
    wire_gmo.returned_length = gmo.returned_length;
}

/// Whether the peer still holds its end of the socket (no end-of-stream or hang-up pending).
/// Data the peer sent meanwhile stays queued for the conversation.
fn peer_connected(stream: &UnixStream) -> bool {
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
