//! Message priority special values (`MQPRI_*`, the `MQMD.Priority` field).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQPRI_PRIORITY_AS_PUBLISHED: i32 = -3;
pub const MQPRI_PRIORITY_AS_PARENT: i32 = -2;
pub const MQPRI_PRIORITY_AS_Q_DEF: i32 = -1;
pub const MQPRI_PRIORITY_AS_TOPIC_DEF: i32 = -1;
