//! Completion codes (`MQCC_*`), returned by every MQI call alongside a reason code.

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQCC_UNKNOWN: i32 = -1;
pub const MQCC_OK: i32 = 0;
pub const MQCC_WARNING: i32 = 1;
pub const MQCC_FAILED: i32 = 2;
