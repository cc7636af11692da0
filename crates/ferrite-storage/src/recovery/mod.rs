//! The recovery manager: units of recovery, checkpoints and the four-phase restart. It stands
//! above the data manager (restart redoes and backs out through it) and reads the log record
//! formats of [`crate::log_records`].

pub mod restart;
