//! Queue index types (`MQIT_*`, the z/OS `INDXTYPE` attribute).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQIT_NONE: i32 = 0;
pub const MQIT_INTEGER: i32 = 1;
pub const MQIT_MSG_ID: i32 = 1;
pub const MQIT_CORREL_ID: i32 = 2;
pub const MQIT_STRING: i32 = 2;
pub const MQIT_BAG: i32 = 3;
pub const MQIT_MSG_TOKEN: i32 = 4;
pub const MQIT_GROUP_ID: i32 = 5;
