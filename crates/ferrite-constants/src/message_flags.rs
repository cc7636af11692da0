//! Message flags (`MQMF_*`, the `MQMD.MsgFlags` bit mask used for grouping and segmentation).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQMF_ACCEPT_UNSUP_MASK: i32 = -1048576;
pub const MQMF_NONE: i32 = 0x00000000;
pub const MQMF_SEGMENTATION_INHIBITED: i32 = 0x00000000;
pub const MQMF_SEGMENTATION_ALLOWED: i32 = 0x00000001;
pub const MQMF_SEGMENT: i32 = 0x00000002;
pub const MQMF_LAST_SEGMENT: i32 = 0x00000004;
pub const MQMF_MSG_IN_GROUP: i32 = 0x00000008;
pub const MQMF_LAST_MSG_IN_GROUP: i32 = 0x00000010;
pub const MQMF_REJECT_UNSUP_MASK: i32 = 0x00000FFF;
pub const MQMF_ACCEPT_UNSUP_IF_XMIT_MASK: i32 = 0x000FF000;
