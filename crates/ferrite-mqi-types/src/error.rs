//! MQI call results: MQ's completion code and reason code pair.

use std::fmt;

use ferrite_constants::completion::{MQCC_FAILED, MQCC_WARNING};

/// A completion code and reason code, as every MQI call returns them. Calls that fail return it
/// as `Err` (`MQCC_FAILED`); calls that complete with a warning (`MQCC_WARNING`) return it
/// alongside their result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MqError {
    /// `MQCC_FAILED` (2) or `MQCC_WARNING` (1).
    pub completion_code: i32,
    /// The `MQRC_*` reason code.
    pub reason: i32,
    /// MQGET's DataLength output parameter when MQ sets it on a failure: the length of the
    /// message data with MQRC_TRUNCATED_MSG_FAILED (so the application can retry with a buffer
    /// that large). `None` otherwise.
    pub data_length: Option<usize>,
}

/// The result of an MQI call that can fail.
pub type MqResult<T> = Result<T, MqError>;

impl MqError {
    /// `MQCC_FAILED` with `reason`.
    pub const fn failed(reason: i32) -> MqError {
        MqError {
            completion_code: MQCC_FAILED,
            reason,
            data_length: None,
        }
    }

    /// `MQCC_WARNING` with `reason`.
    pub const fn warning(reason: i32) -> MqError {
        MqError {
            completion_code: MQCC_WARNING,
            reason,
            data_length: None,
        }
    }

    /// The reason code's symbolic name (`MQRC_NO_MSG_AVAILABLE`, ...).
    pub fn reason_name(&self) -> &'static str {
        ferrite_constants::reason_name(self.reason).unwrap_or("MQRC_UNKNOWN")
    }
}

impl fmt::Display for MqError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "MQCC={} MQRC={} ({})",
            self.completion_code,
            self.reason,
            self.reason_name()
        )
    }
}

impl std::error::Error for MqError {}
