//! The MQI side of one conversation, independent of the socket that carries it: an MQI flow
//! (MQCONN ... MQDISC) in, its reply flow out. Bindings conversations (`conversation`) and
//! client conversations over TCP (`channel_initiator`) both serve their MQI calls here, so
//! options, semantics and reason codes are the in-process MQI's (`ferrite_mqi::Connection`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_constants::{
    completion::*,
    get_options::{MQGMO_PROPERTIES_FORCE_MQRFH2, MQGMO_PROPERTIES_IN_HANDLE, MQGMO_WAIT},
    persistence::MQPER_PERSISTENT,
    put_options::MQPMO_NO_SYNCPOINT,
    reason::*,
    structs::MQCNO_VERSION_7,
    wait::MQWI_UNLIMITED,
};
use ferrite_mqi::{AttributeValue, Connection, Hobj, MqError, MqResult, Mqcno};
use ferrite_protocol::api::{
    ApiBody, ApiFlow, ApiHeader, MqConn, MqGet, MqInq, MqOpen, MqPut, MqPut1,
};
use ferrite_protocol::mqi::{Gmo, Od, Pmo};
use ferrite_protocol::segment::{Segment, SegmentType};
use ferrite_protocol::wire::{self, chars};
use ferrite_queue_manager::QueueManager;
use ferrite_storage::log::DurableNotice;
use ferrite_storage::{Rba, StorageResult};

mod subscribe;

/// How long a waiting MQGET waits at a time before asking its caller whether the client is
/// still there and the listener is not stopping. A client that goes away while waiting is
/// noticed within this time, before a message is taken for it.
pub const WAIT_SLICE: Duration = Duration::from_millis(200);

/// The most integer attributes one MQINQ may ask room for (MQ allows 256 selectors).
pub const INQUIRE_INTEGERS_MAX: u32 = 256;
/// The most character attribute bytes one MQINQ may ask room for.
pub const INQUIRE_CHARACTER_BYTES_MAX: u32 = 256 * 1024;

/// Why an MQI flow could not be served: the conversation must end.
#[derive(Debug)]
pub enum SessionEnd {
    /// The client went away (or the listener is stopping) during a waiting call.
    Gone,
    /// The flow broke the protocol.
    Protocol(String),
    /// The call was not made: it may wait for the log (a commit of persistent work, a
    /// persistent put outside syncpoint), and its caller must not wait.
    WouldWait,
}

/// What an MQCMIT made without waiting for the log came to.
pub enum CommitStart {
    /// Complete (or failed): its reply.
    Reply(Vec<u8>),
    /// Logged: it completes once the log is durable through this RBA.
    Logged(Rba),
}

/// The reply to an MQCMIT flow: its API header with the commit's outcome, its body echoed.
fn commit_reply(
    flow: &Segment,
    reply_header_length: usize,
    result: MqResult<()>,
) -> Result<Vec<u8>, SessionEnd> {
    let order = flow.header.byte_order;
    let request = ApiFlow::decode(SegmentType::MqCmit, order, &flow.payload).map_err(protocol)?;
    let payload = ApiFlow {
        header: api_header(0, outcome(&result)),
        body: request.body,
    }
    .encode(order)
    .map_err(cannot_encode)?;
    Ok(with_reply_length(payload, reply_header_length))
}

fn protocol(what: impl std::fmt::Display) -> SessionEnd {
    SessionEnd::Protocol(format!("protocol error: {what}"))
}

/// One conversation's MQI state: its connection (after MQCONN) and what the handshake told.
pub struct MqiSession {
    queue_manager: Arc<QueueManager>,
    connection: Option<Connection>,
    /// The user identifier from USERID_DATA (long user id preferred), given to MQCONN.
    pub user: String,
    /// The negotiated MaxMessageSize: the largest message a get returns.
    pub max_message_size: u32,
    /// Security hook: set by connection authentication, MQCONN fails with this reason.
    pub refuse_connect: Option<i32>,
    /// The head of the MQGET reply being built (API header, MQMD, MQGMO, Length), kept
    /// between gets.
    get_reply_head: Vec<u8>,
    /// The ReturnedLength of the previous MQGET: room for that much data (at most
    /// [`GET_REPLY_DATA_RESERVED_MAX`]) is reserved in the next reply.
    previous_returned_length: usize,
}

/// The most room for message data an MQGET reply reserves before the get says how much it
/// returns (the reply grows beyond it for a longer message).
const GET_REPLY_DATA_RESERVED_MAX: usize = 64 * 1024;

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

impl MqiSession {
    /// A session before MQCONN.
    pub fn new(queue_manager: Arc<QueueManager>, max_message_size: u32) -> MqiSession {
        MqiSession {
            queue_manager,
            connection: None,
            user: String::new(),
            max_message_size,
            refuse_connect: None,
            get_reply_head: Vec::new(),
            previous_returned_length: 0,
        }
    }

    /// Whether MQCONN has succeeded (and MQDISC not yet come).
    pub fn is_connected(&self) -> bool {
        self.connection.is_some()
    }

    /// The MQI connection, once connected.
    pub fn connection_mut(&mut self) -> Option<&mut Connection> {
        self.connection.as_mut()
    }

    /// Serves one MQI flow (a request type with an API header) and returns the reply's type
    /// and payload (API header with ReplyLength filled in for a header of
    /// `reply_header_length` bytes, then the body), or `None` when the flow gets no reply: an
    /// asynchronous MQPUT or MQPUT1 (MQPMO_ASYNC_RESPONSE in its PMO; the client resolved
    /// MQPMO_RESPONSE_AS_Q_DEF from the SPI OPEN reply's DefPutResponseType), whose outcome
    /// the connection counts for MQSTAT instead. `gone` is asked between the slices of a
    /// waiting MQGET whether the client is still there.
    ///
    /// `may_wait` false: a call that may wait for the log is not made
    /// ([`SessionEnd::WouldWait`]); every other call is.
    pub fn call(
        &mut self,
        flow: &Segment,
        reply_header_length: usize,
        gone: &mut dyn FnMut() -> bool,
        may_wait: bool,
    ) -> Result<Option<(SegmentType, Vec<u8>)>, SessionEnd> {
        let segment_type = flow.header.segment_type;
        let order = flow.header.byte_order;
        // An MQPUT's message data is put from the flow as it came, not copied out of it first
        // (before MQCONN the flow is echoed in the MQRC_HCONN_ERROR reply, data and all).
        let (request, put_data) = if self.connection.is_some() {
            ApiFlow::decode_borrowing_put_data(segment_type, order, &flow.payload)
        } else {
            ApiFlow::decode(segment_type, order, &flow.payload).map(|request| (request, &[][..]))
        }
        .map_err(protocol)?;
        if !may_wait && self.may_wait_for_log(segment_type, &request.body) {
            return Err(SessionEnd::WouldWait);
        }
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
            (SegmentType::Spi, ApiBody::Raw(body)) => {
                self.spi(hobj, &body, order).map_err(protocol)?
            }
            (SegmentType::MqStat, ApiBody::Raw(body)) => {
                self.mqstat(&body, order).map_err(protocol)?
            }
            (SegmentType::MqSub | SegmentType::MqSubRq, _) => (
                api_header(hobj, Some(MqError::failed(MQRC_FUNCTION_NOT_SUPPORTED))),
                ApiBody::Empty(Vec::new()),
            ),
            (_, body) if self.connection.is_none() => (
                api_header(hobj, Some(MqError::failed(MQRC_HCONN_ERROR))),
                body,
            ),
            (SegmentType::MqOpen, ApiBody::Open(open)) => self.mqopen(
                open,
                flow.payload.get(API_HEADER_LENGTH..).unwrap_or_default(),
            ),
            (SegmentType::MqClose, body) => {
                let connection = self.connection.as_mut().expect("connected");
                let options = match &body {
                    ApiBody::Close(close) => close.options,
                    _ => 0,
                };
                let result = connection.close(Hobj(hobj), options);
                (api_header(hobj, outcome(&result)), body)
            }
            (SegmentType::MqPut, ApiBody::Put(put)) => {
                let asynchronous = is_asynchronous(&put.pmo);
                let reply = self.mqput(hobj, put, put_data);
                if asynchronous {
                    return Ok(None);
                }
                reply
            }
            (SegmentType::MqPut1, ApiBody::Put1(put1)) => {
                let asynchronous = is_asynchronous(&put1.pmo);
                let reply = self.mqput1(put1, put_data);
                if asynchronous {
                    return Ok(None);
                }
                reply
            }
            (SegmentType::MqGet, ApiBody::Get(get)) => {
                let payload = self.mqget(hobj, get, order, gone)?;
                return Ok(Some((
                    reply_type,
                    with_reply_length(payload, reply_header_length),
                )));
            }
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
        let payload = ApiFlow { header, body }
            .encode(order)
            .map_err(cannot_encode)?;
        Ok(Some((
            reply_type,
            with_reply_length(payload, reply_header_length),
        )))
    }

    /// MQCMIT without waiting for the log ([`Connection::commit_logged`]): the reply at once
    /// when there is nothing to wait for, or the RBA that must be durable before
    /// [`MqiSession::commit_durable`] completes the commit and makes its reply.
    pub fn commit_logged(
        &mut self,
        flow: &Segment,
        reply_header_length: usize,
    ) -> Result<CommitStart, SessionEnd> {
        debug_assert_eq!(flow.header.segment_type, SegmentType::MqCmit);
        let Some(connection) = self.connection.as_mut() else {
            let reply = self.call(flow, reply_header_length, &mut || false, true)?;
            let (_, payload) = reply.ok_or_else(|| protocol("MQCMIT without a reply"))?;
            return Ok(CommitStart::Reply(payload));
        };
        match connection.commit_logged() {
            Ok(Some(end)) => Ok(CommitStart::Logged(end)),
            result => {
                commit_reply(flow, reply_header_length, result.map(|_| ())).map(CommitStart::Reply)
            }
        }
    }

    /// Completes the MQCMIT [`MqiSession::commit_logged`] logged through `end`, `forced`
    /// being how the log's force through it ended, and makes its reply.
    pub fn commit_durable(
        &mut self,
        flow: &Segment,
        reply_header_length: usize,
        end: Rba,
        forced: StorageResult<()>,
    ) -> Result<Vec<u8>, SessionEnd> {
        let connection = self
            .connection
            .as_mut()
            .expect("a commit logged by a connection that has not disconnected since");
        let result = connection.commit_durable(end, forced);
        commit_reply(flow, reply_header_length, result)
    }

    /// Asks the log to call `notice` once `end` is durable (or the log failed or stopped);
    /// returns it back when that is so already ([`LogManager::notify_when_durable`]).
    pub fn notify_when_durable(&self, end: Rba, notice: DurableNotice) -> Option<DurableNotice> {
        self.queue_manager.log().notify_when_durable(end, notice)
    }

    /// Whether the connection's unit of work has logged: its commit waits for the log.
    pub fn unit_of_work_is_logged(&self) -> bool {
        self.connection
            .as_ref()
            .is_some_and(Connection::unit_of_work_is_logged)
    }

    /// The handles an MQDISC closes and the commit it makes, logged without waiting for the
    /// log ([`Connection::disconnect_commit_logged`]): the RBA that must be durable before
    /// [`MqiSession::disconnect_commit_durable`] completes the commit; the MQDISC flow is then
    /// served, with nothing left to wait for. `None`: nothing to wait for.
    pub fn disconnect_commit_logged(&mut self) -> Option<Rba> {
        self.connection.as_mut()?.disconnect_commit_logged()
    }

    /// Completes the commit [`MqiSession::disconnect_commit_logged`] logged through `end`.
    pub fn disconnect_commit_durable(&mut self, end: Rba, forced: StorageResult<()>) {
        if let Some(connection) = self.connection.as_mut() {
            connection.disconnect_commit_durable(end, forced);
        }
    }

    /// How the force through `end` ended, `None` while it is still to be written.
    pub fn durable_outcome(&self, end: Rba) -> Option<StorageResult<()>> {
        self.queue_manager.log().durable_outcome(end)
    }

    /// Whether serving `body` may wait for the log to be forced: a put of an MQPER_PERSISTENT
    /// message outside syncpoint, a commit of a unit of work that logged. A backout logs its
    /// record without forcing it (a unit whose backout record is lost is backed out by
    /// restart), so it never waits for the log.
    ///
    /// Two calls force the log without being told here, and are made wherever they come: a
    /// get outside syncpoint that finds a persistent message (which message it finds is not
    /// known before), and a put outside syncpoint of MQPER_PERSISTENCE_AS_Q_DEF to a queue
    /// defined DEFPSIST(YES) (the queue's default is resolved by the put). Both are rare next
    /// to calls under syncpoint or of non-persistent messages.
    fn may_wait_for_log(&self, segment_type: SegmentType, body: &ApiBody) -> bool {
        let persistent_outside_syncpoint = |md: &ferrite_protocol::mqi::Md, pmo: &Pmo| {
            pmo.options & MQPMO_NO_SYNCPOINT != 0 && md.persistence == MQPER_PERSISTENT
        };
        match (segment_type, body) {
            (_, ApiBody::Put(put)) => persistent_outside_syncpoint(&put.md, &put.pmo),
            (_, ApiBody::Put1(put1)) => persistent_outside_syncpoint(&put1.md, &put1.pmo),
            (SegmentType::MqCmit, _) => self
                .connection
                .as_ref()
                .is_some_and(|connection| connection.unit_of_work_is_logged()),
            _ => false,
        }
    }

    /// SPI verbs. QUERYSPI is answered with the verbs Ferrite serves (none listed: the client
    /// then uses the MQI verbs, and still sends OPEN and RESERVE, which are served); any other
    /// verb fails with MQRC_FUNCTION_NOT_SUPPORTED.
    fn spi(
        &mut self,
        hobj: i32,
        body: &[u8],
        order: ferrite_protocol::ByteOrder,
    ) -> Result<(ApiHeader, ApiBody), ferrite_protocol::ProtocolError> {
        use ferrite_protocol::spi::{query_reply_structure, verb, SpiFlow};
        let request = SpiFlow::decode(body, order)?;
        if request.verb == verb::OPEN {
            return self.spi_open(request, order);
        }
        if request.verb == verb::RESERVE {
            return Ok(self.spi_reserve(hobj, request, order));
        }
        if request.verb == verb::SUBSCRIBE && self.connection.is_some() {
            return self.spi_subscribe(request, order);
        }
        if request.verb != verb::QUERYSPI {
            return Ok((
                api_header(hobj, Some(MqError::failed(MQRC_FUNCTION_NOT_SUPPORTED))),
                ApiBody::Empty(Vec::new()),
            ));
        }
        let mut reply = SpiFlow {
            structures: request
                .structures
                .into_iter()
                .filter(|structure| &structure.struct_id == b"SPQU")
                .collect(),
            ..request
        };
        reply.structures.push(query_reply_structure(
            &[ferrite_protocol::spi::SpiVerbSupport {
                verb: verb::RESERVE,
                versions: [1, 1, 1, 0],
            }],
            order,
        ));
        Ok((api_header(hobj, None), ApiBody::Empty(reply.encode(order))))
    }

    /// SPI OPEN: MQOPEN plus the queue's defaults the client resolves itself (LPOO).
    ///
    /// ```text
    /// request:  SPOU(12) SPOI: "SPOI" Version Length, then LPOO, then MQOD (version 1-4)
    /// LPOO v1 (32 bytes, observed from the 9.4.5 Java client):
    ///   0 4 "LPOO"   4 4 Version   8 4 open Options (MQOO_*)   12 4 LPI options
    ///  16 4 DefPersistence  20 4 DefPutResponseType  24 4 DefReadAhead  28 4 PropertyControl
    ///   (the four defaults are -1 in the request: "tell me")
    /// reply:    SPOU(12) SPOO: "SPOO" 1 Length, then the LPOO with the defaults filled in,
    ///           then the MQOD with the resolved names; the Hobj in the API header.
    /// ```
    fn spi_open(
        &mut self,
        request: ferrite_protocol::spi::SpiFlow,
        order: ferrite_protocol::ByteOrder,
    ) -> Result<(ApiHeader, ApiBody), ferrite_protocol::ProtocolError> {
        use ferrite_constants::misc::{MQPRT_ASYNC_RESPONSE, MQPRT_SYNC_RESPONSE};
        use ferrite_protocol::codec::{Reader, Writer};
        use ferrite_protocol::spi::{SpiFlow, SpiStructure, SPI_STRUCTURE_HEADER_LENGTH};
        use ferrite_protocol::ProtocolError;
        const LPOO_FIXED_LENGTH: usize = 32;
        let malformed = |what: &'static str| ProtocolError::InvalidLength { what, value: 0 };
        let spoi = request
            .structures
            .iter()
            .find(|structure| &structure.struct_id == b"SPOI")
            .ok_or(malformed("SPI OPEN without SPOI"))?;
        let inner = &spoi.bytes[SPI_STRUCTURE_HEADER_LENGTH..];
        if inner.len() < LPOO_FIXED_LENGTH || &inner[..4] != b"LPOO" {
            return Err(malformed("SPI OPEN: LPOO"));
        }
        let od_at = inner
            .windows(4)
            .position(|window| window == b"OD  ")
            .filter(|&at| at >= LPOO_FIXED_LENGTH)
            .ok_or(malformed("SPI OPEN: MQOD"))?;
        let mut lpoo = inner[..od_at].to_vec();
        let mut reader = Reader::new(&lpoo, order, "LPOO");
        reader.bytes(8)?;
        let mut options = reader.i32()?;
        // LpiOpts: LPOO_SAVE_IDENTITY_CTXT (1) / LPOO_SAVE_ORIGIN_CTXT (2) ask the handle to
        // save the context of what it gets, as MQOO_SAVE_ALL_CONTEXT does (IBM's JMS client
        // passes it on when it requeues a poison message).
        const LPOO_SAVE_CONTEXT: i32 = 0x1 | 0x2;
        let input = ferrite_constants::open_options::MQOO_INPUT_AS_Q_DEF
            | ferrite_constants::open_options::MQOO_INPUT_SHARED
            | ferrite_constants::open_options::MQOO_INPUT_EXCLUSIVE;
        if reader.i32()? & LPOO_SAVE_CONTEXT != 0 && options & input != 0 {
            options |= ferrite_constants::open_options::MQOO_SAVE_ALL_CONTEXT;
        }
        let mut od_reader = Reader::new(&inner[od_at..], order, "MQOD");
        let mut wire_od = Od::decode(&mut od_reader)?;
        let connection = self.connection.as_mut().expect("connected");
        let mut od = wire::od_from_wire(&wire_od);
        let result = with_selection(&mut od, &wire_od, &inner[od_at..])
            .and_then(|()| connection.open(&mut od, options));
        // The reply's MQOD carries no string data.
        without_strings(&mut wire_od);
        set_resolved(&mut wire_od, &od);
        let hobj = result.as_ref().map_or(-1, |hobj| hobj.0);
        let (default_persistence, default_put_response) = self
            .queue_manager
            .queue(&od.resolved_q_name)
            .map_or((0, MQPRT_SYNC_RESPONSE), |queue| {
                queue.with_definition(|definition| {
                    let response = if definition.default_put_response == "ASYNC" {
                        MQPRT_ASYNC_RESPONSE
                    } else {
                        MQPRT_SYNC_RESPONSE
                    };
                    (definition.default_persistent as i32, response)
                })
            });
        let mut defaults = Writer::new(order);
        defaults.i32(default_persistence);
        // The client resolves MQPMO_RESPONSE_AS_Q_DEF with this (DEFPRESP): ASYNC makes IBM's
        // JMS client put non-persistent messages outside a unit of work asynchronously.
        defaults.i32(default_put_response);
        defaults.i32(default_read_ahead(&self.queue_manager, &od.resolved_q_name));
        defaults.i32(ferrite_constants::misc::MQPROP_COMPATIBILITY);
        lpoo[16..32].copy_from_slice(&defaults.into_bytes());
        let mut od_bytes = Writer::new(order);
        wire_od.encode(&mut od_bytes)?;
        let od_bytes = od_bytes.into_bytes();
        let mut spoo = Writer::new(order);
        spoo.bytes(b"SPOO");
        spoo.i32(1);
        spoo.u32((SPI_STRUCTURE_HEADER_LENGTH + lpoo.len() + od_bytes.len()) as u32);
        spoo.bytes(&lpoo);
        spoo.bytes(&od_bytes);
        let mut structures: Vec<SpiStructure> = request
            .structures
            .iter()
            .filter(|structure| &structure.struct_id == b"SPOU")
            .cloned()
            .collect();
        structures.push(SpiStructure {
            struct_id: *b"SPOO",
            version: 1,
            bytes: spoo.into_bytes(),
        });
        let reply = SpiFlow {
            structures,
            ..request
        };
        Ok((
            api_header(hobj, outcome(&result)),
            ApiBody::Empty(reply.encode(order)),
        ))
    }

    /// SPI RESERVE: message identifiers for the client's asynchronous puts
    /// (`ferrite_protocol::spi` documents the structures). Tags other than 24-byte MsgIds are
    /// not known: MQRC_FUNCTION_NOT_SUPPORTED.
    fn spi_reserve(
        &mut self,
        hobj: i32,
        request: ferrite_protocol::spi::SpiFlow,
        order: ferrite_protocol::ByteOrder,
    ) -> (ApiHeader, ApiBody) {
        use ferrite_protocol::spi::{reserve_reply_structure, ReserveRequest};
        const MESSAGE_ID_LENGTH: u32 = 24;
        let wanted = request
            .structures
            .iter()
            .find(|structure| &structure.struct_id == b"SPRI")
            .and_then(|spri| ReserveRequest::decode(spri, order).ok())
            .filter(|wanted| wanted.tag_size == MESSAGE_ID_LENGTH);
        let Some(wanted) = wanted else {
            return (
                api_header(hobj, Some(MqError::failed(MQRC_FUNCTION_NOT_SUPPORTED))),
                ApiBody::Empty(Vec::new()),
            );
        };
        let (base, count) = ferrite_mqi::async_status::reserve_message_ids(
            self.queue_manager.name(),
            wanted.tag_reservation,
        );
        let mut structures: Vec<_> = request
            .structures
            .iter()
            .filter(|structure| &structure.struct_id == b"SPRU")
            .cloned()
            .collect();
        structures.push(reserve_reply_structure(count, &base, order));
        let reply = ferrite_protocol::spi::SpiFlow {
            structures,
            ..request
        };
        (api_header(hobj, None), ApiBody::Empty(reply.encode(order)))
    }

    /// MQSTAT: the connection's status of the requested type (`ferrite_protocol::stat`).
    fn mqstat(
        &mut self,
        body: &[u8],
        order: ferrite_protocol::ByteOrder,
    ) -> Result<(ApiHeader, ApiBody), ferrite_protocol::ProtocolError> {
        use ferrite_protocol::stat::MqStat;
        let mut stat = MqStat::decode(body, order)?;
        let result = match self.connection.as_mut() {
            None => Err(MqError::failed(MQRC_HCONN_ERROR)),
            Some(connection) => connection.stat(stat.status_type),
        };
        if let Ok(status) = &result {
            stat.sts = wire::sts_to_wire(status);
        }
        Ok((
            api_header(0, outcome(&result)),
            ApiBody::Empty(stat.encode(order)),
        ))
    }

    fn mqconn(&mut self, mut conn: MqConn) -> (ApiHeader, ApiBody) {
        let queue_manager = &self.queue_manager;
        let result = if self.connection.is_some() {
            Err(MqError::warning(MQRC_ALREADY_CONNECTED))
        } else if let Some(reason) = self.refuse_connect {
            Err(MqError::failed(reason))
        } else {
            let cno = Mqcno {
                version: MQCNO_VERSION_7,
                options: conn.fcno.as_ref().map_or(0, |fcno| fcno.cap_flags),
                appl_name: conn.appl_name.trimmed(),
                security_parms: None,
            };
            // The listener authenticated the peer (CHCKLOCL or CHCKCLNT) before this MQCONN;
            // the connection runs as its user, whose connect authority is checked.
            Connection::connect_as(
                queue_manager.clone(),
                &conn.qmgr_name.trimmed(),
                &cno,
                &self.user,
            )
            .map(|connection| {
                self.connection = Some(connection);
            })
        };
        conn.qmgr_name = chars(queue_manager.name());
        (api_header(0, outcome(&result)), ApiBody::Conn(conn))
    }

    /// MQOPEN; `od_and_after` is the flow from the MQOD on (its strings follow it).
    fn mqopen(&mut self, mut open: MqOpen, od_and_after: &[u8]) -> (ApiHeader, ApiBody) {
        let connection = self.connection.as_mut().expect("connected");
        let mut od = wire::od_from_wire(&open.od);
        let result = with_selection(&mut od, &open.od, od_and_after)
            .and_then(|()| connection.open(&mut od, open.options));
        without_strings(&mut open.od);
        set_resolved(&mut open.od, &od);
        let hobj = result.as_ref().map_or(-1, |hobj| hobj.0);
        (api_header(hobj, outcome(&result)), ApiBody::Open(open))
    }

    /// MQPUT of `data` (what followed DataLength in the flow).
    fn mqput(&mut self, hobj: i32, mut put: MqPut, data: &[u8]) -> (ApiHeader, ApiBody) {
        let connection = self.connection.as_mut().expect("connected");
        let result = if let Some(data) = without_padding(data, put.data_length) {
            // A text field that is not UTF-8 fails the put (MQRC_MD_ERROR), the MQMD as sent.
            wire::md_from_wire(&put.md).and_then(|mut md| {
                let mut pmo = answered_as_synchronous(wire::pmo_from_wire(&put.pmo));
                let result = connection.put(Hobj(hobj), &mut md, &mut pmo, data);
                put.md = wire::md_to_wire(&md);
                set_pmo_outputs(&mut put.pmo, &pmo);
                result
            })
        } else {
            Err(MqError::failed(MQRC_BUFFER_LENGTH_ERROR))
        };
        (
            api_header(hobj, warning_outcome(&result)),
            ApiBody::Put(put),
        )
    }

    /// MQPUT1 of `data` (what followed DataLength in the flow).
    fn mqput1(&mut self, mut put1: MqPut1, data: &[u8]) -> (ApiHeader, ApiBody) {
        let connection = self.connection.as_mut().expect("connected");
        let result = if let Some(data) = without_padding(data, put1.data_length) {
            // A text field that is not UTF-8 fails the put (MQRC_MD_ERROR), the MQMD as sent.
            wire::md_from_wire(&put1.md).and_then(|mut md| {
                let mut od = wire::od_from_wire(&put1.od);
                let mut pmo = answered_as_synchronous(wire::pmo_from_wire(&put1.pmo));
                let result = connection.put1(&mut od, &mut md, &mut pmo, data);
                set_resolved(&mut put1.od, &od);
                put1.md = wire::md_to_wire(&md);
                set_pmo_outputs(&mut put1.pmo, &pmo);
                result
            })
        } else {
            Err(MqError::failed(MQRC_BUFFER_LENGTH_ERROR))
        };
        (api_header(0, warning_outcome(&result)), ApiBody::Put1(put1))
    }

    /// MQGET, answered with the MQGET_REPLY's payload (ReplyLength left 0). A wait is served in
    /// slices of [`WAIT_SLICE`], checking between slices that the client is still connected
    /// and the listener is not stopping: a get never takes a message for a client that has
    /// gone. The message data is got straight into the reply, after a head encoded as it
    /// would be without a message and encoded again once the get has filled it in.
    fn mqget(
        &mut self,
        hobj: i32,
        mut get: MqGet,
        order: ferrite_protocol::ByteOrder,
        gone: &mut dyn FnMut() -> bool,
    ) -> Result<Vec<u8>, SessionEnd> {
        let requested = get.length.max(0) as usize;
        let capped = requested.min(self.max_message_size as usize);
        // The text fields are output: the get replaces them.
        let mut md = wire::output_md_from_wire(&get.md);
        let mut gmo = wire::gmo_from_wire(&get.gmo);
        // A client's message handles live in the client: it takes the MQRFH2 apart itself.
        if gmo.options & MQGMO_PROPERTIES_IN_HANDLE != 0 {
            gmo.options =
                (gmo.options & !MQGMO_PROPERTIES_IN_HANDLE) | MQGMO_PROPERTIES_FORCE_MQRFH2;
        }
        let mut head = std::mem::take(&mut self.get_reply_head);
        head.clear();
        get.data = Vec::new();
        get.encode_reply_head(&api_header(hobj, None), order, &mut head)
            .map_err(cannot_encode)?;
        let reserved = capped.min(
            self.previous_returned_length
                .min(GET_REPLY_DATA_RESERVED_MAX),
        );
        let mut payload = Vec::with_capacity(head.len() + reserved);
        payload.extend_from_slice(&head);
        let wait_interval = gmo.wait_interval;
        let connection = self.connection.as_mut().expect("connected");
        let result = get_sliced(
            connection,
            hobj,
            &mut md,
            &mut gmo,
            &mut payload,
            capped,
            gone,
        )?;
        gmo.wait_interval = wait_interval;
        let delivered = match &result {
            Ok(_) => true,
            Err(error) => error.reason == MQRC_TRUNCATED_MSG_FAILED,
        };
        if delivered {
            get.md = wire::md_to_wire(&md);
            set_gmo_outputs(&mut get.gmo, &gmo);
        }
        let header = match result {
            Ok(got) => {
                get.length = got.data_length as i32;
                self.previous_returned_length = got.returned_length;
                api_header(hobj, got.warning)
            }
            Err(mut error) => {
                get.length = error.data_length.unwrap_or(0) as i32;
                if error.reason == MQRC_TRUNCATED_MSG_FAILED && requested > capped {
                    // The client's buffer was large enough; the channel's limit was not.
                    error = MqError::failed(MQRC_MSG_TOO_BIG_FOR_CHANNEL);
                }
                api_header(hobj, Some(error))
            }
        };
        let head_length = head.len();
        head.clear();
        get.encode_reply_head(&header, order, &mut head)
            .map_err(cannot_encode)?;
        if head.len() == head_length {
            payload[..head_length].copy_from_slice(&head);
        } else {
            payload.splice(..head_length, head.iter().copied());
        }
        self.get_reply_head = head;
        Ok(payload)
    }

    fn mqinq(&mut self, hobj: i32, mut inq: MqInq) -> (ApiHeader, ApiBody) {
        let connection = self.connection.as_mut().expect("connected");
        inq.with_values = true;
        inq.int_attrs.clear();
        inq.char_attrs.clear();
        let result = if inq.int_attr_count > INQUIRE_INTEGERS_MAX {
            Err(MqError::failed(MQRC_INT_ATTR_COUNT_ERROR))
        } else if inq.char_attr_length > INQUIRE_CHARACTER_BYTES_MAX {
            Err(MqError::failed(MQRC_CHAR_ATTR_LENGTH_ERROR))
        } else {
            connection.inquire(Hobj(hobj), &inq.selectors)
        };
        let outcome = match result {
            Err(error) => {
                inq.int_attr_count = 0;
                inq.char_attr_length = 0;
                Some(error)
            }
            Ok(inquired) => {
                // MQRC_SELECTOR_NOT_FOR_TYPE, unless a count or length below gives a warning
                // that says values are missing.
                let mut warning = inquired.warning;
                for (selector, value) in inq.selectors.iter().zip(inquired.values) {
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
                // The reply carries IntAttrCount integers and CharAttrLength bytes, as asked:
                // the client reads the character data after that many integers.
                inq.int_attrs.resize(inq.int_attr_count as usize, 0);
                inq.char_attrs.resize(inq.char_attr_length as usize, b' ');
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

/// A put the session answers is synchronous whatever the queue's DEFPRESP: the client resolved
/// MQPMO_RESPONSE_AS_Q_DEF itself (or does not do asynchronous put) and waits for the reply.
fn answered_as_synchronous(mut pmo: ferrite_mqi::Mqpmo) -> ferrite_mqi::Mqpmo {
    use ferrite_constants::put_options::{MQPMO_ASYNC_RESPONSE, MQPMO_SYNC_RESPONSE};
    if pmo.options & MQPMO_ASYNC_RESPONSE == 0 {
        pmo.options |= MQPMO_SYNC_RESPONSE;
    }
    pmo
}

/// Whether a put's options ask for no reply (the client resolved them: MQPMO_ASYNC_RESPONSE).
fn is_asynchronous(pmo: &Pmo) -> bool {
    use ferrite_constants::put_options::{MQPMO_ASYNC_RESPONSE, MQPMO_SYNC_RESPONSE};
    pmo.options & MQPMO_ASYNC_RESPONSE != 0 && pmo.options & MQPMO_SYNC_RESPONSE == 0
}

/// The queue's DEFREADA as the LPOO of an SPI OPEN answers it (MQREADA_NO, _YES, _DISABLED):
/// with YES the client reads non-persistent messages ahead of its MQGETs (REQUEST_MSGS and
/// ASYNC_MESSAGE flows, served by `async_consume`) unless it opened with MQOO_NO_READ_AHEAD.
fn default_read_ahead(queue_manager: &QueueManager, queue: &str) -> i32 {
    use ferrite_constants::misc::{MQREADA_DISABLED, MQREADA_NO, MQREADA_YES};
    queue_manager.queue(queue).map_or(MQREADA_NO, |queue| {
        queue.with_definition(|definition| match definition.default_read_ahead.as_str() {
            "YES" => MQREADA_YES,
            "DISABLED" => MQREADA_DISABLED,
            _ => MQREADA_NO,
        })
    })
}

/// Length of the API header that opens every MQI flow.
const API_HEADER_LENGTH: usize = 16;

/// Copies an MQOD's SelectionString and ObjectString (version 4; their text follows the MQOD
/// in the flow, at VSOffset from the MQOD's start) into the MQI's MQOD. An ObjectString that
/// cannot be read fails with MQRC_OBJECT_STRING_ERROR.
fn with_selection(od: &mut ferrite_mqi::Mqod, wire_od: &Od, od_and_after: &[u8]) -> MqResult<()> {
    if wire_od.version >= 4 {
        od.selection_string = wire::od_string(od_and_after, &wire_od.selection_string)?;
        od.object_string =
            wire::od_string(od_and_after, &wire_od.object_string).map_err(|error| {
                match error.reason {
                    MQRC_SELECTION_STRING_ERROR => MqError::failed(MQRC_OBJECT_STRING_ERROR),
                    _ => error,
                }
            })?;
    }
    Ok(())
}

/// The MQOD of an MQOPEN reply: its strings' text does not travel back, so no string points
/// past it (ResObjectString is not returned).
fn without_strings(wire_od: &mut Od) {
    wire_od.selection_string.vs_length = 0;
    wire_od.object_string.vs_length = 0;
    wire_od.res_object_string.vs_length = 0;
}

/// One MQGET into the end of `data` with a buffer of `buffer_length` bytes. A wait (MQGMO_WAIT
/// with a WaitInterval that is not 0) is served in slices of [`WAIT_SLICE`], asking `gone`
/// between them whether the client is still there; `gmo`'s WaitInterval is then the last
/// slice's.
fn get_sliced(
    connection: &mut Connection,
    hobj: i32,
    md: &mut ferrite_mqi::Mqmd,
    gmo: &mut ferrite_mqi::Mqgmo,
    data: &mut Vec<u8>,
    buffer_length: usize,
    gone: &mut dyn FnMut() -> bool,
) -> Result<MqResult<ferrite_mqi::GetResult>, SessionEnd> {
    let wait_interval = gmo.wait_interval;
    let sliced =
        gmo.options & MQGMO_WAIT != 0 && (wait_interval > 0 || wait_interval == MQWI_UNLIMITED);
    if !sliced {
        return Ok(connection.get_appending(Hobj(hobj), md, gmo, data, buffer_length));
    }
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
        md.clone_from(&original);
        let result = connection.get_appending(Hobj(hobj), md, gmo, data, buffer_length);
        match &result {
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => {
                if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                    return Ok(result);
                }
                if gone() {
                    return Err(SessionEnd::Gone);
                }
            }
            _ => return Ok(result),
        }
    }
}

/// `payload` (an MQI reply) with its ReplyLength: the flow's length with a segment header of
/// `reply_header_length` bytes.
fn with_reply_length(mut payload: Vec<u8>, reply_header_length: usize) -> Vec<u8> {
    let total = (reply_header_length + payload.len()) as u32;
    payload[..4].copy_from_slice(&total.to_be_bytes());
    payload
}

fn cannot_encode(error: ferrite_protocol::ProtocolError) -> SessionEnd {
    SessionEnd::Protocol(format!("cannot encode a reply: {error}"))
}

/// Message data cut to its DataLength. IBM's Java client pads a flow to a multiple of four
/// bytes, so up to three bytes may follow the data; anything else is a length error (`None`).
fn without_padding(data: &[u8], data_length: i32) -> Option<&[u8]> {
    let length = data_length.max(0) as usize;
    if data.len() < length || data.len() - length > 3 {
        return None;
    }
    Some(&data[..length])
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
