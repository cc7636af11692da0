//! Expiry interval (`MQEI_*`, the `MQMD.Expiry` field, in tenths of a second).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQEI_UNLIMITED: i32 = -1;
