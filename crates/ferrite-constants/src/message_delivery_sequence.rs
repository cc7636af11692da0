//! Message delivery sequence (`MQMDS_*`, the `MSGDLVSQ` attribute).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQMDS_PRIORITY: i32 = 0;
pub const MQMDS_FIFO: i32 = 1;
