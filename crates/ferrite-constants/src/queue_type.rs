//! Queue types (`MQQT_*`, the `Q_TYPE` attribute).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQQT_LOCAL: i32 = 1;
pub const MQQT_MODEL: i32 = 2;
pub const MQQT_ALIAS: i32 = 3;
pub const MQQT_REMOTE: i32 = 6;
pub const MQQT_CLUSTER: i32 = 7;
pub const MQQT_ALL: i32 = 1001;
