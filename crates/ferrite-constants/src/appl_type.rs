//! Application types (`MQAT_*`, the `MQMD.PutApplType` field and the process `APPLTYPE` attribute).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQAT_UNKNOWN: i32 = -1;
pub const MQAT_NO_CONTEXT: i32 = 0;
pub const MQAT_CICS: i32 = 1;
pub const MQAT_MVS: i32 = 2;
pub const MQAT_OS390: i32 = 2;
pub const MQAT_ZOS: i32 = 2;
pub const MQAT_IMS: i32 = 3;
pub const MQAT_OS2: i32 = 4;
pub const MQAT_DOS: i32 = 5;
pub const MQAT_AIX: i32 = 6;
pub const MQAT_DEFAULT: i32 = 6;
pub const MQAT_UNIX: i32 = 6;
pub const MQAT_QMGR: i32 = 7;
pub const MQAT_OS400: i32 = 8;
pub const MQAT_WINDOWS: i32 = 9;
pub const MQAT_CICS_VSE: i32 = 10;
pub const MQAT_WINDOWS_NT: i32 = 11;
pub const MQAT_VMS: i32 = 12;
pub const MQAT_GUARDIAN: i32 = 13;
pub const MQAT_NSK: i32 = 13;
pub const MQAT_VOS: i32 = 14;
pub const MQAT_OPEN_TP1: i32 = 15;
pub const MQAT_VM: i32 = 18;
pub const MQAT_IMS_BRIDGE: i32 = 19;
pub const MQAT_XCF: i32 = 20;
pub const MQAT_CICS_BRIDGE: i32 = 21;
pub const MQAT_NOTES_AGENT: i32 = 22;
pub const MQAT_TPF: i32 = 23;
pub const MQAT_USER: i32 = 25;
pub const MQAT_BROKER: i32 = 26;
pub const MQAT_QMGR_PUBLISH: i32 = 26;
pub const MQAT_JAVA: i32 = 28;
pub const MQAT_DQM: i32 = 29;
pub const MQAT_CHANNEL_INITIATOR: i32 = 30;
pub const MQAT_WLM: i32 = 31;
pub const MQAT_BATCH: i32 = 32;
pub const MQAT_RRS_BATCH: i32 = 33;
pub const MQAT_SIB: i32 = 34;
pub const MQAT_SYSTEM_EXTENSION: i32 = 35;
pub const MQAT_MCAST_PUBLISH: i32 = 36;
pub const MQAT_AMQP: i32 = 37;
pub const MQAT_USER_FIRST: i32 = 65536;
pub const MQAT_USER_LAST: i32 = 999999999;
