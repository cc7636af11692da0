//! Wait interval (`MQWI_*`, `MQGMO.WaitInterval` in milliseconds) and signal event codes (`MQEC_*`).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

// MQWI_*
pub const MQWI_UNLIMITED: i32 = -1;

// MQEC_*
pub const MQEC_MSG_ARRIVED: i32 = 2;
pub const MQEC_WAIT_INTERVAL_EXPIRED: i32 = 3;
pub const MQEC_WAIT_CANCELED: i32 = 4;
pub const MQEC_Q_MGR_QUIESCING: i32 = 5;
pub const MQEC_CONNECTION_QUIESCING: i32 = 6;
