//! Get-message options (`MQGMO_*`, the `MQGMO.Options` bit mask), plus the single-character group status
//! (`MQGS_*`), segment status (`MQSS_*`) and segmentation (`MQSEG_*`) values returned in `MQGMO`.

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

// MQGMO_*
pub const MQGMO_NONE: i32 = 0x00000000;
pub const MQGMO_NO_WAIT: i32 = 0x00000000;
pub const MQGMO_PROPERTIES_AS_Q_DEF: i32 = 0x00000000;
pub const MQGMO_WAIT: i32 = 0x00000001;
pub const MQGMO_SYNCPOINT: i32 = 0x00000002;
pub const MQGMO_NO_SYNCPOINT: i32 = 0x00000004;
pub const MQGMO_SET_SIGNAL: i32 = 0x00000008;
pub const MQGMO_BROWSE_FIRST: i32 = 0x00000010;
pub const MQGMO_BROWSE_NEXT: i32 = 0x00000020;
pub const MQGMO_ACCEPT_TRUNCATED_MSG: i32 = 0x00000040;
pub const MQGMO_MARK_SKIP_BACKOUT: i32 = 0x00000080;
pub const MQGMO_MSG_UNDER_CURSOR: i32 = 0x00000100;
pub const MQGMO_LOCK: i32 = 0x00000200;
pub const MQGMO_UNLOCK: i32 = 0x00000400;
pub const MQGMO_BROWSE_MSG_UNDER_CURSOR: i32 = 0x00000800;
pub const MQGMO_SYNCPOINT_IF_PERSISTENT: i32 = 0x00001000;
pub const MQGMO_FAIL_IF_QUIESCING: i32 = 0x00002000;
pub const MQGMO_CONVERT: i32 = 0x00004000;
pub const MQGMO_LOGICAL_ORDER: i32 = 0x00008000;
pub const MQGMO_COMPLETE_MSG: i32 = 0x00010000;
pub const MQGMO_ALL_MSGS_AVAILABLE: i32 = 0x00020000;
pub const MQGMO_ALL_SEGMENTS_AVAILABLE: i32 = 0x00040000;
pub const MQGMO_MARK_BROWSE_HANDLE: i32 = 0x00100000;
pub const MQGMO_MARK_BROWSE_CO_OP: i32 = 0x00200000;
pub const MQGMO_UNMARK_BROWSE_CO_OP: i32 = 0x00400000;
pub const MQGMO_UNMARK_BROWSE_HANDLE: i32 = 0x00800000;
pub const MQGMO_UNMARKED_BROWSE_MSG: i32 = 0x01000000;
pub const MQGMO_BROWSE_HANDLE: i32 = 0x01100010;
pub const MQGMO_BROWSE_CO_OP: i32 = 0x01200010;
pub const MQGMO_PROPERTIES_FORCE_MQRFH2: i32 = 0x02000000;
pub const MQGMO_NO_PROPERTIES: i32 = 0x04000000;
pub const MQGMO_PROPERTIES_IN_HANDLE: i32 = 0x08000000;
pub const MQGMO_PROPERTIES_COMPATIBILITY: i32 = 0x10000000;

// Single-character MQGMO output fields (MQCHAR), as bytes.
pub const MQGS_NOT_IN_GROUP: u8 = b' ';
pub const MQGS_MSG_IN_GROUP: u8 = b'G';
pub const MQGS_LAST_MSG_IN_GROUP: u8 = b'L';
pub const MQSS_NOT_A_SEGMENT: u8 = b' ';
pub const MQSS_SEGMENT: u8 = b'S';
pub const MQSS_LAST_SEGMENT: u8 = b'L';
pub const MQSEG_INHIBITED: u8 = b' ';
pub const MQSEG_ALLOWED: u8 = b'A';
