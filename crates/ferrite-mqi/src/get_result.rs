//! What MQGET returns besides the message data, shared by the get paths (plain, locking,
//! converting) below the connection.

use crate::error::MqError;

/// What MQGET returned besides the message data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GetResult {
    /// DataLength: the length of the message data (more than was returned if truncated).
    pub data_length: usize,
    /// Bytes placed in the buffer.
    pub returned_length: usize,
    /// MQCC_WARNING and its reason (MQRC_TRUNCATED_MSG_ACCEPTED), or `None` for MQCC_OK.
    pub warning: Option<MqError>,
}
