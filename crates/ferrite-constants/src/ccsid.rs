//! Coded character set identifier special values (`MQCCSI_*`).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQCCSI_AS_PUBLISHED: i32 = -4;
pub const MQCCSI_APPL: i32 = -3;
pub const MQCCSI_INHERIT: i32 = -2;
pub const MQCCSI_EMBEDDED: i32 = -1;
pub const MQCCSI_DEFAULT: i32 = 0;
pub const MQCCSI_Q_MGR: i32 = 0;
pub const MQCCSI_UNDEFINED: i32 = 0;
