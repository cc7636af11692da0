//! Queue attribute values (`MQQA_*`): shareability (`SHARE`/`NOSHARE`), get/put inhibition and
//! backout hardening.

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQQA_BACKOUT_NOT_HARDENED: i32 = 0;
pub const MQQA_GET_ALLOWED: i32 = 0;
pub const MQQA_NOT_SHAREABLE: i32 = 0;
pub const MQQA_PUT_ALLOWED: i32 = 0;
pub const MQQA_BACKOUT_HARDENED: i32 = 1;
pub const MQQA_GET_INHIBITED: i32 = 1;
pub const MQQA_PUT_INHIBITED: i32 = 1;
pub const MQQA_SHAREABLE: i32 = 1;
