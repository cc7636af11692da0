//! IBM MQ constants with MQ's own names and numeric values (cmqc.h), shared by the storage
//! engine, the MQI and the client protocol so that every layer speaks the same numbers.

/// Reason codes (MQRC_*).
pub mod reason {
    pub const MQRC_NONE: i32 = 0;
    pub const MQRC_SYNCPOINT_LIMIT_REACHED: i32 = 2024;
    pub const MQRC_Q_MGR_STOPPING: i32 = 2162;
    pub const MQRC_STORAGE_MEDIUM_FULL: i32 = 2192;
    pub const MQRC_UNEXPECTED_ERROR: i32 = 2195;
    pub const MQRC_RESOURCE_PROBLEM: i32 = 2102;
}
