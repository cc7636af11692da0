//! Small connection-control payloads (source: Wireshark `packet-mq.c`, `dissect_mq_pdu`).
//! All integers are in the segment byte order.
//!
//! ```text
//! SOCKET_ACTION (0x0C), 20 bytes:       NOTIFICATION (0x0F), 16 bytes:
//!  0 4 ConversationId                    0 4 Version
//!  4 4 RequestId                         4 4 Hobj
//!  8 4 Type (SAT_*)                      8 4 Code (NC_*)
//! 12 4 Parm1                            12 4 Value
//! 16 4 Parm2
//!
//! STATUS_DATA (0x05):                   PING_DATA (0x07):
//!  0 4 Length (of this structure)        0 4 Length
//!  4 4 Code (STATUS_ERR_*)               4 . buffer
//!  8 4 Value (if Length >= 12)
//!
//! REQUEST_MSGS (0x0E), fixed part 40 bytes (selection part, RequestFlags & 0x80000000...,
//! kept raw):
//!  0 4 Version   8 4 RecvBytes  16 4 MaxMsgLen    24 4 WaitInterval  32 4 RequestFlags
//!  4 4 Hobj     12 4 RqstBytes  20 4 GMO Options  28 4 QueueStatus   36 4 GlobalMsgIndex
//! ```
//!
//! Trailing bytes (SOCKET_ACTION may carry a queue manager name/id for reconnection) are kept.
//! The REQUEST_MSGS selection flag value and the ASYNC_MESSAGE layout are not implemented yet.

use crate::codec::{ByteOrder, ProtocolError, Reader, Result, Writer};

/// SOCKET_ACTION types (IBM `rfpSAT_*`, as the Wireshark dissector names them).
pub mod socket_action_type {
    /// Start a new conversation on the socket.
    pub const START_CONV: i32 = 1;
    /// End a conversation.
    pub const END_CONV: i32 = 2;
    /// Stop, quiescing.
    pub const STOP_QUIESCE: i32 = 3;
    /// Pause data sends.
    pub const PAUSE_DATA_SENDS: i32 = 4;
    /// Data sends paused.
    pub const DATA_SENDS_PAUSED: i32 = 5;
    /// Resume data sends.
    pub const RESUME_DATA_SENDS: i32 = 6;
    /// Queue manager quiescing.
    pub const QM_QUIESCE: i32 = 7;
    /// Accept a conversation (server's answer to START_CONV).
    pub const ACCEPT_CONV: i32 = 8;
    /// Reconnect clients.
    pub const RECONNECT_CLIENTS: i32 = 9;
}

/// NOTIFICATION codes (Wireshark `mq_notifcode_vals`).
pub mod notification_code {
    #![allow(missing_docs)]
    pub const GET_INHIBITED: i32 = 1;
    pub const GET_ALLOWED: i32 = 2;
    pub const CONN_STATE: i32 = 3;
    pub const CONN_STATE_REPLY: i32 = 4;
    pub const Q_STATE: i32 = 5;
    pub const Q_STATE_REPLY: i32 = 6;
    pub const QM_QUIESCING: i32 = 7;
    pub const TXN_ALLOWED: i32 = 8;
    pub const TXN_REVOKE: i32 = 9;
    pub const TXN_REVOKE_REPLY: i32 = 10;
    pub const CHECK_MSG: i32 = 11;
    pub const BROWSE_FIRST: i32 = 12;
    pub const MESSAGE_TOO_LARGE: i32 = 13;
    pub const STREAMING_FAILURE: i32 = 14;
    pub const CLIENT_ASYNC_EMPTY: i32 = 15;
    pub const STREAMING_TXN_PAUSED: i32 = 16;
    pub const RECONNECTION_COMPLETE: i32 = 17;
}

/// STATUS_DATA codes (Wireshark `mq_status_vals`; several names there look shifted, so only
/// the ones the loopback captures corroborate are listed).
pub mod status_code {
    #![allow(missing_docs)]
    pub const NO_CHANNEL: i32 = 1;
    pub const CHANNEL_WRONG_TYPE: i32 = 2;
    pub const QM_UNAVAILABLE: i32 = 3;
    pub const MSG_SEQUENCE_ERROR: i32 = 4;
    pub const QM_TERMINATING: i32 = 5;
    pub const CAN_NOT_STORE: i32 = 6;
    pub const USER_CLOSED: i32 = 7;
    /// The dissector's MQ_STATUS_E_REMOTE_PROTOCOL_ERROR (0x0A).
    pub const REMOTE_PROTOCOL_ERROR: i32 = 10;
    pub const SECURITY_FAILURE: i32 = 20;
    pub const CHANNEL_UNAVAILABLE: i32 = 22;
    pub const CIPHER_SPEC: i32 = 24;
    pub const CONV_ID_ERROR: i32 = 30;
    pub const SOCKET_ACTION_TYPE: i32 = 31;
    pub const CCSID_NOT_SUPPORTED: i32 = 240;
    pub const ENCODING_INVALID: i32 = 241;
    pub const FAP_LEVEL: i32 = 242;
    pub const NEGOTIATION_FAILED: i32 = 243;
}

/// SOCKET_ACTION payload.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub struct SocketAction {
    pub conversation_id: u32,
    pub request_id: u32,
    pub action_type: i32,
    pub parm1: i32,
    pub parm2: i32,
    pub trailing: Vec<u8>,
}

impl SocketAction {
    /// Decodes a payload.
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<Self> {
        let mut r = Reader::new(payload, order, "SOCKET_ACTION");
        Ok(SocketAction {
            conversation_id: r.u32()?,
            request_id: r.u32()?,
            action_type: r.i32()?,
            parm1: r.i32()?,
            parm2: r.i32()?,
            trailing: r.rest().to_vec(),
        })
    }

    /// Encodes.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut w = Writer::new(order);
        w.u32(self.conversation_id);
        w.u32(self.request_id);
        w.i32(self.action_type);
        w.i32(self.parm1);
        w.i32(self.parm2);
        w.bytes(&self.trailing);
        w.into_bytes()
    }
}

/// NOTIFICATION payload.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub struct Notification {
    pub version: i32,
    pub hobj: i32,
    pub code: i32,
    pub value: i32,
    pub trailing: Vec<u8>,
}

impl Notification {
    /// Decodes a payload.
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<Self> {
        let mut r = Reader::new(payload, order, "NOTIFICATION");
        Ok(Notification {
            version: r.i32()?,
            hobj: r.i32()?,
            code: r.i32()?,
            value: r.i32()?,
            trailing: r.rest().to_vec(),
        })
    }

    /// Encodes.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut w = Writer::new(order);
        w.i32(self.version);
        w.i32(self.hobj);
        w.i32(self.code);
        w.i32(self.value);
        w.bytes(&self.trailing);
        w.into_bytes()
    }
}

/// STATUS_DATA payload.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Status {
    /// Code (`status_code`).
    pub code: i32,
    /// Value, present when the structure is at least 12 bytes.
    pub value: Option<i32>,
    /// Bytes after Value up to Length, kept.
    pub extra: Vec<u8>,
    /// Bytes after Length, kept.
    pub trailing: Vec<u8>,
}

impl Status {
    /// Decodes a payload.
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<Self> {
        let mut r = Reader::new(payload, order, "STATUS_DATA");
        let length = r.i32()?;
        let len = usize::try_from(length)
            .ok()
            .filter(|&l| l >= 8 && l <= payload.len())
            .ok_or(ProtocolError::InvalidLength {
                what: "STATUS_DATA length",
                value: length.into(),
            })?;
        let code = r.i32()?;
        let value = if len >= 12 { Some(r.i32()?) } else { None };
        let used = if len >= 12 { 12 } else { 8 };
        let extra = r.bytes(len - used)?.to_vec();
        Ok(Status {
            code,
            value,
            extra,
            trailing: r.rest().to_vec(),
        })
    }

    /// Encodes (Length computed).
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut w = Writer::new(order);
        let len = 8 + if self.value.is_some() {
            4 + self.extra.len()
        } else {
            0
        };
        w.i32(len as i32);
        w.i32(self.code);
        if let Some(v) = self.value {
            w.i32(v);
            w.bytes(&self.extra);
        }
        w.bytes(&self.trailing);
        w.into_bytes()
    }
}

/// REQUEST_MSGS fixed part.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub struct RequestMsgs {
    pub version: i32,
    pub hobj: i32,
    pub recv_bytes: u32,
    pub rqst_bytes: u32,
    pub max_msg_length: u32,
    pub gmo_options: i32,
    pub wait_interval: i32,
    pub queue_status: i32,
    pub request_flags: u32,
    pub global_msg_index: u32,
    /// Selection fields and match ids (not decoded yet).
    pub trailing: Vec<u8>,
}

impl RequestMsgs {
    /// Decodes a payload.
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<Self> {
        let mut r = Reader::new(payload, order, "REQUEST_MSGS");
        Ok(RequestMsgs {
            version: r.i32()?,
            hobj: r.i32()?,
            recv_bytes: r.u32()?,
            rqst_bytes: r.u32()?,
            max_msg_length: r.u32()?,
            gmo_options: r.i32()?,
            wait_interval: r.i32()?,
            queue_status: r.i32()?,
            request_flags: r.u32()?,
            global_msg_index: r.u32()?,
            trailing: r.rest().to_vec(),
        })
    }

    /// Encodes.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut w = Writer::new(order);
        w.i32(self.version);
        w.i32(self.hobj);
        w.u32(self.recv_bytes);
        w.u32(self.rqst_bytes);
        w.u32(self.max_msg_length);
        w.i32(self.gmo_options);
        w.i32(self.wait_interval);
        w.i32(self.queue_status);
        w.u32(self.request_flags);
        w.u32(self.global_msg_index);
        w.bytes(&self.trailing);
        w.into_bytes()
    }
}
