//! Queue definition types (`MQQDT_*`, the `DEFTYPE` attribute of local and model queues).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQQDT_PREDEFINED: i32 = 1;
pub const MQQDT_PERMANENT_DYNAMIC: i32 = 2;
pub const MQQDT_TEMPORARY_DYNAMIC: i32 = 3;
pub const MQQDT_SHARED_DYNAMIC: i32 = 4;
