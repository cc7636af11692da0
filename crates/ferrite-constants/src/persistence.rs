//! Message persistence (`MQPER_*`, the `MQMD.Persistence` field and the `DEFPSIST` queue attribute).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQPER_PERSISTENCE_AS_PARENT: i32 = -1;
pub const MQPER_NOT_PERSISTENT: i32 = 0;
pub const MQPER_PERSISTENT: i32 = 1;
pub const MQPER_PERSISTENCE_AS_Q_DEF: i32 = 2;
pub const MQPER_PERSISTENCE_AS_TOPIC_DEF: i32 = 2;
