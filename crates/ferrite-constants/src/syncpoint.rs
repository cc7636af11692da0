//! Syncpoint availability (`MQSP_*`, the queue manager `SYNCPT` attribute).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQSP_NOT_AVAILABLE: i32 = 0;
pub const MQSP_AVAILABLE: i32 = 1;
