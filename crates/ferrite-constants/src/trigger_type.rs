//! Trigger types (`MQTT_*`, the `TRIGTYPE` attribute) and trigger control (`MQTC_*`, `TRIGGER`/`NOTRIGGER`).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

// MQTT_*
pub const MQTT_NONE: i32 = 0;
pub const MQTT_FIRST: i32 = 1;
pub const MQTT_EVERY: i32 = 2;
pub const MQTT_DEPTH: i32 = 3;

// MQTC_*
pub const MQTC_OFF: i32 = 0;
pub const MQTC_ON: i32 = 1;
