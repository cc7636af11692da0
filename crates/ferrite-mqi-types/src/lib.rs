//! # ferrite-mqi-types
//!
//! The MQI's data types as IBM MQ's `cmqc.h` defines them, and nothing else: the structures an
//! application passes to the calls (MQMD, MQOD, MQPMO, MQGMO, MQCNO, MQCSP, MQSTS) with MQ's
//! defaults, MQ's fixed-length text fields, the handles (MQHOBJ, MQHMSG), what MQGET and MQINQ
//! return besides them, and the completion and reason code pair every call ends with.
//!
//! Three crates speak the MQI and share these types, so that an application written against one
//! runs against the others unchanged:
//!
//! - `ferrite-mqi`, the MQI in-process over the storage engine (it re-exports everything here
//!   under its own paths: `ferrite_mqi::Mqmd` is this crate's `Mqmd`);
//! - `ferrite-client`, the same calls from another process over IBM MQ's client protocol;
//! - `ferrite-server`, which serves those flows on in-process connections.
//!
//! Their form on the wire, and the one mapping between the two forms, is `ferrite-protocol`'s
//! (`ferrite_protocol::wire`). This crate depends on `ferrite-constants` only: a client compiles
//! it without the queue manager.
//!
//! - [`structures`]: the structures, with MQ's field names in Rust case.
//! - [`mq_char`]: [`MqChar<N>`], MQ's `MQCHARn` fields held inline (the MQMD's text).
//! - [`calls`]: [`Hobj`], [`Hmsg`], [`GetResult`], [`AttributeValue`], [`Inquired`], and the
//!   MQINQ selectors' kinds and lengths.
//! - [`error`]: [`MqError`], a completion code and reason code; [`MqResult`].

pub mod calls;
pub mod error;
pub mod mq_char;
pub mod structures;

pub use calls::{AttributeValue, GetResult, Hmsg, Hobj, Inquired, MQHM_NONE};
pub use error::{MqError, MqResult};
pub use mq_char::{MqChar, TextTooLong};
pub use structures::{Mqcno, Mqcsp, Mqgmo, Mqmd, Mqod, Mqpmo, Mqsd, Mqsts};
