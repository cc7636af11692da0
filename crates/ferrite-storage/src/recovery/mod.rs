//! The recovery manager: log record formats, units of recovery, checkpoints and restart.

pub mod codec;
pub mod log_records;
pub mod restart;
