//! Message format names (`MQFMT_*`, the 8-byte `MQMD.Format` field), blank padded as they appear
//! on the wire and in the message descriptor.

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQFMT_ADMIN: [u8; 8] = *b"MQADMIN ";
pub const MQFMT_AMQP: [u8; 8] = *b"MQAMQP  ";
pub const MQFMT_CHANNEL_COMPLETED: [u8; 8] = *b"MQCHCOM ";
pub const MQFMT_CICS: [u8; 8] = *b"MQCICS  ";
pub const MQFMT_COMMAND_1: [u8; 8] = *b"MQCMD1  ";
pub const MQFMT_COMMAND_2: [u8; 8] = *b"MQCMD2  ";
pub const MQFMT_DEAD_LETTER_HEADER: [u8; 8] = *b"MQDEAD  ";
pub const MQFMT_DIST_HEADER: [u8; 8] = *b"MQHDIST ";
pub const MQFMT_EMBEDDED_PCF: [u8; 8] = *b"MQHEPCF ";
pub const MQFMT_EVENT: [u8; 8] = *b"MQEVENT ";
pub const MQFMT_IMS: [u8; 8] = *b"MQIMS   ";
pub const MQFMT_IMS_VAR_STRING: [u8; 8] = *b"MQIMSVS ";
pub const MQFMT_MD_EXTENSION: [u8; 8] = *b"MQHMDE  ";
pub const MQFMT_NONE: [u8; 8] = *b"        ";
pub const MQFMT_PCF: [u8; 8] = *b"MQPCF   ";
pub const MQFMT_REF_MSG_HEADER: [u8; 8] = *b"MQHREF  ";
pub const MQFMT_RF_HEADER: [u8; 8] = *b"MQHRF   ";
pub const MQFMT_RF_HEADER_1: [u8; 8] = *b"MQHRF   ";
pub const MQFMT_RF_HEADER_2: [u8; 8] = *b"MQHRF2  ";
pub const MQFMT_STRING: [u8; 8] = *b"MQSTR   ";
pub const MQFMT_TRIGGER: [u8; 8] = *b"MQTRIG  ";
pub const MQFMT_WORK_INFO_HEADER: [u8; 8] = *b"MQHWIH  ";
pub const MQFMT_XMIT_Q_HEADER: [u8; 8] = *b"MQXMIT  ";
