//! # ferrite-client
//!
//! Connections from another process to a running Ferrite queue manager, in bindings mode: over
//! the queue manager's Unix domain socket (`<queue manager directory>/qm.sock`), speaking IBM
//! MQ's client protocol ("FAP": TSH segments and the MQI flows, as `ferrite-protocol` codes
//! them). [`Connection`] has the methods and types of the in-process `ferrite_mqi::Connection`
//! (MQCONN(X), MQOPEN, MQCLOSE, MQPUT, MQPUT1, MQGET, MQINQ, MQSET, MQCMIT, MQBACK, MQDISC with
//! `ferrite-mqi-types`' `Mqmd`, `Mqod`, `Mqpmo`, `Mqgmo`, `Mqcno`, `Hobj`, `AttributeValue`,
//! `GetResult` and `MqError`, the types the in-process MQI uses too), and the queue manager
//! runs each call on an in-process MQI connection, so semantics and reason codes are the
//! MQI's. The transport adds two reasons: MQRC_Q_MGR_NOT_AVAILABLE (2059) when no queue
//! manager listens on the socket, and MQRC_CONNECTION_BROKEN (2009) once the connection is
//! lost.
//!
//! The crate sits above `ferrite-protocol` (the codec, the negotiated values and structure
//! mapping it shares with the queue manager's listeners, the socket transport and TLS),
//! `ferrite-mqi-types` and `ferrite-message` (message handles): it compiles without the
//! queue manager's storage engine and the in-process MQI (`ferrite-mqi`), and
//! `tests/crate_boundaries.rs` keeps it so.
//!
//! ```no_run
//! # use ferrite_client::*;
//! # use ferrite_constants::{open_options::*, put_options::*};
//! # fn demo() -> MqResult<()> {
//! let mut connection = Connection::connect("/home/me/.ferrite/qmgrs/QM1/qm.sock", "QM1")?;
//! let hobj = connection.open(&mut Mqod::queue("APP.Q"), MQOO_OUTPUT)?;
//! connection.put(hobj, &mut Mqmd::default(), &mut Mqpmo::with_options(MQPMO_SYNCPOINT), b"hello")?;
//! connection.commit()?;
//! connection.disconnect()
//! # }
//! ```
//!
//! # Wire usage
//!
//! One socket carries one conversation. In order:
//!
//! 1. **INITIAL_DATA** (0x01) on a `"TSH "` header, ControlFlags1 CONFIRM_REQUEST|FIRST|LAST,
//!    in the client's native byte order (the queue manager answers in the order it receives).
//!    The client's ID (FAP level 13, the 240-byte layout) proposes: CapFlags1 SPLIT_MESSAGES |
//!    MQREQUEST, MaxTransmissionSize 1 MiB, MaxMessageSize 100 MiB, CCSID 1208, heartbeat
//!    interval 0, ConvPerSocket 1, channel name `FERRITE.BINDINGS`, ProductId `FRT000000100`.
//!    The queue manager answers with the negotiated values: the lower FAP level (9 to 13
//!    accepted), the smaller MaxTransmissionSize (at least 2 KiB) and MaxMessageSize,
//!    ConvPerSocket at most 1, heartbeat interval 0, CapFlags1 the intersection with its
//!    own, and its name in QMgrName. A proposal it cannot accept (FAP level below 9,
//!    MaxTransmissionSize below 2 KiB, a CCSID that is not ASCII-based) is answered with
//!    ControlFlags1 ERROR, the IniErrFlags1 bits of the offending fields and its own values
//!    in them; the client may send a corrected ID (on TSH or TSHM), up to three times in all.
//! 2. Every later flow uses a `TSHM` header with ConversationId 1 when ConvPerSocket is 1
//!    (`"TSH "` when 0). MQI requests carry RequestId 1, 2, 3 ...; replies echo it.
//! 3. **USERID_DATA** (0x08): the 132-byte UID with the user name ($USER) and no password;
//!    the queue manager echoes it (the form IBM's Java client accepts) and uses the user id
//!    as the connection's UserIdentifier. Authentication is future work: the queue manager
//!    trusts the socket's file permissions.
//! 4. **MQCONN** (0x81) with the 120-byte MQCONN part (Options 3 = MQCONNX, ApplName the last
//!    28 characters of the program name) and an FCNO version 1 whose Options field carries
//!    MQCNO.Options (a Ferrite convention: what IBM's clients put there is not public) →
//!    **MQCONN_REPLY** (0x91) echoing the request with the queue manager's name.
//! 5. MQI verbs, each answered by its `| 0x10` reply with the completion and reason code in
//!    the API header: MQOPEN (MQOD sent as version 3 or 4 so the reply carries the resolved
//!    names; the Hobj returns in the API header), MQCLOSE (Hobj in the API header), MQPUT and
//!    MQPUT1 (the reply carries the updated MQMD and MQPMO and DataLength, without the data),
//!    MQGET (the request's length field is the buffer length; the reply's is the message's
//!    DataLength, followed by the returned bytes; MQGMO travels as version 3 or 4), MQINQ
//!    (IntAttrCount and CharAttrLength sized for the selectors, character attributes at MQ's
//!    field lengths), MQSET, MQCMIT, MQBACK, MQDISC. The API header's ReplyLength holds the
//!    flow's total length.
//! 6. A flow longer than MaxTransmissionSize is split into FIRST ... LAST segments with the
//!    same header; the API header appears once, in the first.
//! 7. HEARTBEAT (0x09) with CONFIRM_REQUEST is answered by the same segment without it
//!    (neither side sends heartbeats of its own yet).
//!
//! 8. **Asynchronous put** (`async_put`): an MQPUT or MQPUT1 with MQPMO_ASYNC_RESPONSE is
//!    sent and gets no reply; its MsgId comes from a range reserved with SPI (0x8C) verb
//!    RESERVE; **MQSTAT** (0x8D, MQSTS version 1) returns the outcomes and resets them.
//!
//! A queue manager that refuses a connection (too many connections, protocol error during the
//! handshake) sends **STATUS_DATA** (0x05) and closes; Ferrite puts MQ's reason code in its
//! Value (MQRC_MAX_CONNS_LIMIT_REACHED 2025 for the connection limit).

pub mod async_put;
pub mod connection;
pub mod open_defaults;
pub mod subscribe;

pub use connection::{ClientOptions, Connection, Negotiated};
pub use ferrite_mqi_types::{
    AttributeValue, GetResult, Hobj, MqError, MqResult, Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo, Mqsts,
};
pub use ferrite_protocol::tls::ClientTls;
