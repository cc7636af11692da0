//! MQCLOSE options (`MQCO_*`).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQCO_IMMEDIATE: i32 = 0x00000000;
pub const MQCO_NONE: i32 = 0x00000000;
pub const MQCO_DELETE: i32 = 0x00000001;
pub const MQCO_DELETE_PURGE: i32 = 0x00000002;
pub const MQCO_KEEP_SUB: i32 = 0x00000004;
pub const MQCO_REMOVE_SUB: i32 = 0x00000008;
pub const MQCO_QUIESCE: i32 = 0x00000020;
