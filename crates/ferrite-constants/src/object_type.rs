//! Object types (`MQOT_*`, `MQOD.ObjectType` and PCF object-type parameters).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQOT_NONE: i32 = 0;
pub const MQOT_Q: i32 = 1;
pub const MQOT_NAMELIST: i32 = 2;
pub const MQOT_PROCESS: i32 = 3;
pub const MQOT_STORAGE_CLASS: i32 = 4;
pub const MQOT_Q_MGR: i32 = 5;
pub const MQOT_CHANNEL: i32 = 6;
pub const MQOT_AUTH_INFO: i32 = 7;
pub const MQOT_TOPIC: i32 = 8;
pub const MQOT_COMM_INFO: i32 = 9;
pub const MQOT_CF_STRUC: i32 = 10;
pub const MQOT_LISTENER: i32 = 11;
pub const MQOT_SERVICE: i32 = 12;
pub const MQOT_RESERVED_1: i32 = 999;
pub const MQOT_ALL: i32 = 1001;
pub const MQOT_ALIAS_Q: i32 = 1002;
pub const MQOT_MODEL_Q: i32 = 1003;
pub const MQOT_LOCAL_Q: i32 = 1004;
pub const MQOT_REMOTE_Q: i32 = 1005;
pub const MQOT_SENDER_CHANNEL: i32 = 1007;
pub const MQOT_SERVER_CHANNEL: i32 = 1008;
pub const MQOT_REQUESTER_CHANNEL: i32 = 1009;
pub const MQOT_RECEIVER_CHANNEL: i32 = 1010;
pub const MQOT_CURRENT_CHANNEL: i32 = 1011;
pub const MQOT_SAVED_CHANNEL: i32 = 1012;
pub const MQOT_SVRCONN_CHANNEL: i32 = 1013;
pub const MQOT_CLNTCONN_CHANNEL: i32 = 1014;
pub const MQOT_SHORT_CHANNEL: i32 = 1015;
pub const MQOT_CHLAUTH: i32 = 1016;
pub const MQOT_REMOTE_Q_MGR_NAME: i32 = 1017;
pub const MQOT_PROT_POLICY: i32 = 1019;
pub const MQOT_TT_CHANNEL: i32 = 1020;
pub const MQOT_AMQP_CHANNEL: i32 = 1021;
pub const MQOT_AUTH_REC: i32 = 1022;
