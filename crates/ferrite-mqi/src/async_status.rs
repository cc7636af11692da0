//! Asynchronous put status: what MQSTAT(MQSTAT_TYPE_ASYNC_ERROR) reports.
//!
//! An MQPUT or MQPUT1 whose put response is asynchronous (MQPMO_ASYNC_RESPONSE, or
//! MQPMO_RESPONSE_AS_Q_DEF on a queue defined DEFPRESP(ASYNC)) is not answered: a client
//! goes on without waiting, so the connection keeps the outcome instead, as MQ does, and the
//! next MQSTAT returns it and starts counting again:
//!
//! - PutSuccessCount, PutWarningCount, PutFailureCount: how many asynchronous puts completed
//!   with MQCC_OK, MQCC_WARNING and MQCC_FAILED since the last MQSTAT;
//! - CompCode and Reason: the first failure's (or, when nothing failed, the first warning's);
//!   MQCC_OK and MQRC_NONE when every put succeeded;
//! - ObjectType, ObjectName, ObjectQMgrName, ResolvedObjectName, ResolvedQMgrName: the queue
//!   of that first failure or warning.
//!
//! A client resolves MQPMO_RESPONSE_AS_Q_DEF itself (IBM's from the SPI OPEN reply's
//! DefPutResponseType); the queue manager serves a put it answers as synchronous.
//!
//! In-process, an asynchronous put still returns its outcome to the caller (the call is in the
//! caller's thread; there is no reply to save) and is counted here as well, so MQSTAT reports
//! the same numbers for an in-process connection as for a client's.
//!
//! This module also reserves the message identifiers a client stamps on its asynchronous puts
//! itself (it learns no MsgId from a reply): [`reserve_message_ids`].

use ferrite_constants::{
    completion::{MQCC_FAILED, MQCC_OK, MQCC_WARNING},
    object_type::MQOT_Q,
    reason::MQRC_STAT_TYPE_ERROR,
    status::{MQSTAT_TYPE_ASYNC_ERROR, MQSTAT_TYPE_RECONNECTION, MQSTAT_TYPE_RECONNECTION_ERROR},
};
use ferrite_storage::data_manager::message::Identifier;

use crate::connection::Connection;
use crate::error::{MqError, MqResult};
pub use ferrite_mqi_types::Mqsts;

/// The object an asynchronous put went to, for the status of its first problem.
#[derive(Clone, Debug, Default)]
pub struct PutTarget {
    /// ObjectName as opened.
    pub object_name: String,
    /// The local queue it resolved to (blank when it did not resolve).
    pub resolved_name: String,
}

/// Counts of asynchronous put outcomes since the last MQSTAT, and the first problem.
#[derive(Clone, Debug, Default)]
pub struct AsyncPutStatus {
    status: Mqsts,
}

impl AsyncPutStatus {
    /// Records one asynchronous put's outcome (`Ok(None)` success, `Ok(Some(warning))`, or a
    /// failure) on `target` of `queue_manager`.
    pub fn record(
        &mut self,
        outcome: &MqResult<Option<MqError>>,
        target: &PutTarget,
        queue_manager: &str,
    ) {
        let status = &mut self.status;
        let problem = match outcome {
            Ok(None) => {
                status.put_success_count = status.put_success_count.saturating_add(1);
                return;
            }
            Ok(Some(warning)) => {
                status.put_warning_count = status.put_warning_count.saturating_add(1);
                warning
            }
            Err(error) => {
                status.put_failure_count = status.put_failure_count.saturating_add(1);
                error
            }
        };
        debug_assert_ne!(problem.completion_code, MQCC_OK);
        // The first failure wins over any warning before it; otherwise the first problem stays.
        let replace = status.comp_code == MQCC_OK
            || (status.comp_code == MQCC_WARNING && problem.completion_code == MQCC_FAILED);
        if replace {
            status.comp_code = problem.completion_code;
            status.reason = problem.reason;
            status.object_type = MQOT_Q;
            status.object_name = target.object_name.clone();
            status.object_q_mgr_name = queue_manager.to_string();
            status.resolved_object_name = target.resolved_name.clone();
            status.resolved_q_mgr_name = if target.resolved_name.is_empty() {
                String::new()
            } else {
                queue_manager.to_string()
            };
        }
    }

    /// The status so far, without resetting it.
    pub fn peek(&self) -> &Mqsts {
        &self.status
    }

    /// Returns the status and starts again from zero (what a successful MQSTAT does).
    pub fn take(&mut self) -> Mqsts {
        std::mem::take(&mut self.status)
    }
}

impl Connection {
    /// MQSTAT. MQSTAT_TYPE_ASYNC_ERROR returns the outcome of the asynchronous puts since the
    /// last MQSTAT and resets it. MQSTAT_TYPE_RECONNECTION and MQSTAT_TYPE_RECONNECTION_ERROR
    /// describe a reconnecting client connection; this connection never reconnects, so they
    /// return an empty status. Any other type: MQRC_STAT_TYPE_ERROR.
    pub fn stat(&mut self, status_type: i32) -> MqResult<Mqsts> {
        match status_type {
            MQSTAT_TYPE_ASYNC_ERROR => Ok(self.async_status.take()),
            MQSTAT_TYPE_RECONNECTION | MQSTAT_TYPE_RECONNECTION_ERROR => Ok(Mqsts::default()),
            _ => Err(MqError::failed(MQRC_STAT_TYPE_ERROR)),
        }
    }
}

/// How many message identifiers one reservation hands out: the low three bytes of the
/// identifier are the client's counter.
pub const MESSAGE_ID_RESERVATION_MAX: u32 = 0x00FF_FFFF;
/// Bytes of the counter a reservation leaves to the client (big-endian, at the identifier's end).
pub const MESSAGE_ID_COUNTER_BYTES: usize = 3;

/// Reserves up to `wanted` message identifiers for a client's asynchronous puts (SPI RESERVE)
/// and returns (base identifier, how many): the client numbers its puts base, base+1, ...
/// in the identifier's last [`MESSAGE_ID_COUNTER_BYTES`] bytes (big-endian), which are zero in
/// the base. No identifier of the range is ever generated by the queue manager for another
/// message (the range comes from the same counter as every MsgId it generates).
pub fn reserve_message_ids(queue_manager: &str, wanted: u32) -> (Identifier, u32) {
    let count = wanted.clamp(1, MESSAGE_ID_RESERVATION_MAX);
    let base = crate::connection::reserve_identifier_range(
        queue_manager,
        8 * MESSAGE_ID_COUNTER_BYTES as u32,
    );
    debug_assert!(base[24 - MESSAGE_ID_COUNTER_BYTES..]
        .iter()
        .all(|&byte| byte == 0));
    (base, count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_constants::reason::{MQRC_PRIORITY_EXCEEDS_MAXIMUM, MQRC_PUT_INHIBITED};

    fn target(name: &str) -> PutTarget {
        PutTarget {
            object_name: name.to_string(),
            resolved_name: name.to_string(),
        }
    }

    #[test]
    fn counts_and_first_failure_then_reset() {
        let mut status = AsyncPutStatus::default();
        status.record(&Ok(None), &target("A"), "QM1");
        status.record(
            &Ok(Some(MqError::warning(MQRC_PRIORITY_EXCEEDS_MAXIMUM))),
            &target("B"),
            "QM1",
        );
        status.record(
            &Err(MqError::failed(MQRC_PUT_INHIBITED)),
            &target("C"),
            "QM1",
        );
        status.record(
            &Err(MqError::failed(MQRC_PUT_INHIBITED)),
            &target("D"),
            "QM1",
        );
        let got = status.take();
        assert_eq!(
            (
                got.put_success_count,
                got.put_warning_count,
                got.put_failure_count
            ),
            (1, 1, 2)
        );
        assert_eq!(
            (got.comp_code, got.reason),
            (MQCC_FAILED, MQRC_PUT_INHIBITED)
        );
        assert_eq!(got.object_name, "C", "the first failure's object");
        assert_eq!(got.resolved_q_mgr_name, "QM1");
        assert_eq!(status.take(), Mqsts::default(), "MQSTAT resets");
    }

    #[test]
    fn a_warning_alone_is_reported() {
        let mut status = AsyncPutStatus::default();
        status.record(
            &Ok(Some(MqError::warning(MQRC_PRIORITY_EXCEEDS_MAXIMUM))),
            &target("B"),
            "QM1",
        );
        let got = status.peek();
        assert_eq!(
            (got.comp_code, got.reason),
            (MQCC_WARNING, MQRC_PRIORITY_EXCEEDS_MAXIMUM)
        );
    }

    #[test]
    fn reservations_do_not_overlap() {
        let (first, count) = reserve_message_ids("QM1", u32::MAX);
        assert_eq!(count, MESSAGE_ID_RESERVATION_MAX);
        let (second, _) = reserve_message_ids("QM1", 10);
        assert_ne!(first[..21], second[..21]);
        assert_eq!(&first[21..], &[0, 0, 0]);
        assert_eq!(&first[..4], b"CSQ ");
    }
}
