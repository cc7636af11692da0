//! Binary identifier special values: message, correlation and group ids (24 bytes), message
//! tokens (16 bytes), accounting tokens (32 bytes) and related "none" values.

/// No message id (`MQMD.MsgId`): on MQPUT asks the queue manager to generate one; on MQGET matches any.
pub const MQMI_NONE: [u8; 24] = [0; 24];
/// No correlation id (`MQMD.CorrelId`).
pub const MQCI_NONE: [u8; 24] = [0; 24];
/// Correlation id that asks the CICS bridge to start a new session.
pub const MQCI_NEW_SESSION: [u8; 24] = *b"AMQ!NEW_SESSION_CORRELID";
/// No group id (`MQMD.GroupId`).
pub const MQGI_NONE: [u8; 24] = [0; 24];
/// No message token (`MQGMO.MsgToken`).
pub const MQMTOK_NONE: [u8; 16] = [0; 16];
/// No accounting token (`MQMD.AccountingToken`).
pub const MQACT_NONE: [u8; 32] = [0; 32];
/// No connection id.
pub const MQCONNID_NONE: [u8; 24] = [0; 24];
/// No object instance id.
pub const MQOII_NONE: [u8; 24] = [0; 24];
/// No security id (`MQSID`, 40 bytes).
pub const MQSID_NONE: [u8; 40] = [0; 40];
