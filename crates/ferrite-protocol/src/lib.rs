//! IBM MQ's client/bindings protocol ("FAP", formats and protocols): its codec, and the layer
//! both ends of a connection share on top of it.
//!
//! Most of this crate turns bytes into typed structures and back, with no networking; the
//! last three modules below are what Ferrite's client library (`ferrite-client`) and its queue
//! manager's listeners (`ferrite-server`) have in common, so that neither depends on the
//! other: the values they negotiate, the one mapping between the MQI's structures
//! (`ferrite-mqi-types`) and their wire form, and flows over a socket. It covers:
//!
//! - [`segment`]: the transmission segment headers (`TSH `, `TSHC`, `TSHM`), segment types,
//!   control flags, a streaming [`segment::SegmentDecoder`] with strict limits, an encoder and a
//!   [`segment::Reassembler`] for flows split into FIRST...LAST segments.
//! - [`initial_data`]: the `ID` structure exchanged by INITIAL_DATA (FAP level, capabilities,
//!   limits, channel and queue manager names, shared conversations ...).
//! - [`message_channel`]: the flows between queue managers' message channel agents (MSH and
//!   MESSAGE_DATA, RESET_DATA, PING_DATA; a message segmented over several TSH segments with
//!   the batch's CONFIRM_REQUEST on its last).
//! - [`compression`]: COMPHDR and COMPMSG on message channels: the algorithm lists of
//!   INITIAL_DATA, the choice, and each MESSAGE_DATA segment compressed on its own (RLE, zlib).
//! - [`uid`]: the USERID_DATA (`UID `) and CONAUTH_INFO (`CAUT`) structures.
//! - [`mqi`]: the MQI structures as they travel on the wire: `MQMD` v1-v2, `MQOD` v1-v4,
//!   `MQPMO` v1-v3, `MQGMO` v1-v4; and `MQCNO` v1-v8 / `MQCSP` v1-v3 in their native 64-bit layout.
//! - [`api`]: the 16-byte API header and the request/reply bodies of MQCONN(X), MQDISC, MQOPEN,
//!   MQCLOSE, MQPUT, MQPUT1, MQGET, MQINQ, MQSET, MQCMIT and MQBACK.
//! - [`stat`]: the MQSTAT flow (StatusType and MQSTS).
//! - [`spi`]: SPI flows (QUERYSPI, OPEN, RESERVE).
//! - [`control`]: small connection-control payloads (SOCKET_ACTION, STATUS, NOTIFICATION, PING,
//!   REQUEST_MSGS fixed part).
//! - [`wire`]: what Ferrite's two ends agree on: the values negotiated in INITIAL_DATA, and
//!   the MQI's structures (MQMD, MQOD, MQPMO, MQGMO, MQSTS) to and from their wire form.
//! - [`transport`]: flows over a stream socket (Unix domain, TCP or TLS): segments read with
//!   the negotiated limits, split flows reassembled, flows written in segments.
//! - [`tls`]: TLS under the protocol (rustls): the stream both sides read and write, MQ's
//!   CipherSpec names, and a client's configuration.
//!
//! Both byte orders are supported everywhere (the TSH `ByteOrder` byte decides); character
//! fields are MQ's fixed-length blank-padded fields, handled as raw bytes ([`codec::MqChars`])
//! and converted assuming an ASCII-compatible CCSID (819/1208). EBCDIC is future work.
//!
//! # Sources and confidence
//!
//! The client protocol is not documented by IBM. Layouts here come from the public Wireshark
//! dissector (`epan/dissectors/packet-mq.c`, GPL: read for facts, no code copied), from IBM's
//! public documentation of the MQI structures, and from segments the IBM MQ Java client 9.4.5.0
//! sent to a loopback stub (kept as the vectors in `tests/vectors.rs`). Each
//! module says what is confirmed and what is inferred. Fields whose meaning is unknown are
//! kept as `reserved`/`unknown`/`trailing` bytes and re-encoded unchanged, so a decode/encode
//! round trip is byte-identical.
//!
//! Every decoder is total: malformed or hostile input yields a [`ProtocolError`], never a panic.

pub mod api;
pub mod codec;
pub mod compression;
pub mod control;
pub mod initial_data;
pub mod message_channel;
pub mod mqi;
pub mod segment;
pub mod spi;
pub mod stat;
pub mod tls;
pub mod transport;
pub mod uid;
pub mod wire;

pub use codec::{ByteOrder, MqChars, ProtocolError, Result};

// Not done yet (see the crate report): ASYNC_MESSAGE and REQUEST_MSGS selection parts, SPI
// PUT/GET/ACTIVATE/SYNCPOINT, MQSUB/MQSUBRQ, XA flows, MQCHARV string resolution,
// distribution lists (MQOR/MQRR/MQPMR), EBCDIC peers, and a cargo-fuzz target (libfuzzer-sys is
// not available offline here; the proptest suites in `tests/hostile.rs` stand in for it).
