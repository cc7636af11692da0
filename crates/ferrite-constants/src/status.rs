//! MQSTAT status types (`MQSTAT_TYPE_*`).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQSTAT_TYPE_ASYNC_ERROR: i32 = 0;
pub const MQSTAT_TYPE_RECONNECTION: i32 = 1;
pub const MQSTAT_TYPE_RECONNECTION_ERROR: i32 = 2;
