//! Platforms (`MQPL_*`, the queue manager `PLATFORM` attribute).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQPL_MVS: i32 = 1;
pub const MQPL_OS390: i32 = 1;
pub const MQPL_ZOS: i32 = 1;
pub const MQPL_OS2: i32 = 2;
pub const MQPL_AIX: i32 = 3;
pub const MQPL_UNIX: i32 = 3;
pub const MQPL_OS400: i32 = 4;
pub const MQPL_WINDOWS: i32 = 5;
pub const MQPL_WINDOWS_NT: i32 = 11;
pub const MQPL_VMS: i32 = 12;
pub const MQPL_NSK: i32 = 13;
pub const MQPL_NSS: i32 = 13;
pub const MQPL_OPEN_TP1: i32 = 15;
pub const MQPL_VM: i32 = 18;
pub const MQPL_TPF: i32 = 23;
pub const MQPL_VSE: i32 = 27;
pub const MQPL_APPLIANCE: i32 = 28;
