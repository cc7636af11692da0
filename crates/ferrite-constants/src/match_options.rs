//! Match options (`MQMO_*`, the `MQGMO.MatchOptions` bit mask) selecting which `MQMD` fields MQGET matches on.

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQMO_NONE: i32 = 0x00000000;
pub const MQMO_MATCH_MSG_ID: i32 = 0x00000001;
pub const MQMO_MATCH_CORREL_ID: i32 = 0x00000002;
pub const MQMO_MATCH_GROUP_ID: i32 = 0x00000004;
pub const MQMO_MATCH_MSG_SEQ_NUMBER: i32 = 0x00000008;
pub const MQMO_MATCH_OFFSET: i32 = 0x00000010;
pub const MQMO_MATCH_MSG_TOKEN: i32 = 0x00000020;
