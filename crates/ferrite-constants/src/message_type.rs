//! Message types (`MQMT_*`, the `MQMD.MsgType` field).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQMT_REQUEST: i32 = 1;
pub const MQMT_SYSTEM_FIRST: i32 = 1;
pub const MQMT_REPLY: i32 = 2;
pub const MQMT_REPORT: i32 = 4;
pub const MQMT_DATAGRAM: i32 = 8;
pub const MQMT_MQE_FIELDS_FROM_MQE: i32 = 112;
pub const MQMT_MQE_FIELDS: i32 = 113;
pub const MQMT_SYSTEM_LAST: i32 = 65535;
pub const MQMT_APPL_FIRST: i32 = 65536;
pub const MQMT_APPL_LAST: i32 = 999999999;
