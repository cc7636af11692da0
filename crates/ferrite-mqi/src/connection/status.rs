//! MQSTAT on a connection: the status [`crate::async_status`] keeps.

use ferrite_constants::{
    reason::MQRC_STAT_TYPE_ERROR,
    status::{MQSTAT_TYPE_ASYNC_ERROR, MQSTAT_TYPE_RECONNECTION, MQSTAT_TYPE_RECONNECTION_ERROR},
};

use super::Connection;
use crate::async_status::Mqsts;
use crate::error::{MqError, MqResult};

impl Connection {
    /// MQSTAT. MQSTAT_TYPE_ASYNC_ERROR returns the outcome of the asynchronous puts since the
    /// last MQSTAT and resets it. MQSTAT_TYPE_RECONNECTION and MQSTAT_TYPE_RECONNECTION_ERROR
    /// describe a reconnecting client connection; this connection never reconnects, so they
    /// return an empty status. Any other type: MQRC_STAT_TYPE_ERROR.
    pub fn stat(&mut self, status_type: i32) -> MqResult<Mqsts> {
        self.record
            .mqi
            .add(ferrite_queue_manager::statistics::MqiCounter::Status, 1);
        match status_type {
            MQSTAT_TYPE_ASYNC_ERROR => Ok(self.async_status.take()),
            MQSTAT_TYPE_RECONNECTION | MQSTAT_TYPE_RECONNECTION_ERROR => Ok(Mqsts::default()),
            _ => Err(MqError::failed(MQRC_STAT_TYPE_ERROR)),
        }
    }
}
