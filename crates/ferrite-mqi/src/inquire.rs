//! MQINQ's answers for a local (or model-made) queue and for the queue manager object, and
//! the queue attributes MQSET may change: one selector at a time, MQ's MQIA_*/MQCA_* values.

use ferrite_constants::{
    index_type::{MQIT_CORREL_ID, MQIT_GROUP_ID, MQIT_MSG_ID, MQIT_MSG_TOKEN, MQIT_NONE},
    message_delivery_sequence::{MQMDS_FIFO, MQMDS_PRIORITY},
    misc::*,
    open_options::{MQOO_INPUT_EXCLUSIVE, MQOO_INPUT_SHARED},
    pcf::MQCMDL_CURRENT_LEVEL,
    persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENT},
    platform::MQPL_UNIX,
    queue_type::MQQT_LOCAL,
    reason::*,
    selector::*,
    shareability::*,
    syncpoint::MQSP_AVAILABLE,
    trigger_type::*,
};
use ferrite_queue_manager::{QueueDefinition, QueueManager, QueueStatus};

use crate::descriptor::QUEUE_MANAGER_CCSID;
use crate::error::{MqError, MqResult};

pub use ferrite_mqi_types::AttributeValue;

/// The greatest message priority (the queue manager's MAXPRTY).
pub const MAX_PRIORITY: i32 = 9;

fn selector_error<T>() -> MqResult<T> {
    Err(MqError::failed(MQRC_SELECTOR_ERROR))
}

/// Every queue attribute selector Ferrite answers for some type of queue (local, alias or
/// remote). MQINQ on a queue of another type answers such a selector with MQ's "not
/// applicable" value and MQRC_SELECTOR_NOT_FOR_TYPE (MQCC_WARNING); any other selector fails
/// the call with MQRC_SELECTOR_ERROR, as for MQ.
pub const QUEUE_ATTRIBUTE_SELECTORS: &[i32] = &[
    MQCA_Q_NAME,
    MQCA_Q_DESC,
    MQCA_CREATION_DATE,
    MQCA_CREATION_TIME,
    MQCA_ALTERATION_DATE,
    MQCA_ALTERATION_TIME,
    MQCA_STORAGE_CLASS,
    MQCA_BACKOUT_REQ_Q_NAME,
    MQCA_BASE_Q_NAME,
    MQCA_INITIATION_Q_NAME,
    MQCA_PROCESS_NAME,
    MQCA_TRIGGER_DATA,
    MQCA_REMOTE_Q_NAME,
    MQCA_REMOTE_Q_MGR_NAME,
    MQCA_XMIT_Q_NAME,
    MQIA_Q_TYPE,
    MQIA_CURRENT_Q_DEPTH,
    MQIA_MAX_Q_DEPTH,
    MQIA_MAX_MSG_LENGTH,
    MQIA_DEF_PERSISTENCE,
    MQIA_DEF_PRIORITY,
    MQIA_INHIBIT_PUT,
    MQIA_INHIBIT_GET,
    MQIA_OPEN_INPUT_COUNT,
    MQIA_OPEN_OUTPUT_COUNT,
    MQIA_SHAREABILITY,
    MQIA_DEF_INPUT_OPEN_OPTION,
    MQIA_MSG_DELIVERY_SEQUENCE,
    MQIA_RETENTION_INTERVAL,
    MQIA_INDEX_TYPE,
    MQIA_PAGESET_ID,
    MQIA_BACKOUT_THRESHOLD,
    MQIA_HARDEN_GET_BACKOUT,
    MQIA_DEFINITION_TYPE,
    MQIA_USAGE,
    MQIA_DEF_READ_AHEAD,
    MQIA_DEF_PUT_RESPONSE_TYPE,
    MQIA_PROPERTY_CONTROL,
    MQIA_ACCOUNTING_Q,
    MQIA_MONITORING_Q,
    MQIA_STATISTICS_Q,
    MQIA_TRIGGER_CONTROL,
    MQIA_TRIGGER_TYPE,
    MQIA_TRIGGER_DEPTH,
    MQIA_TRIGGER_MSG_PRIORITY,
    MQIA_Q_DEPTH_HIGH_EVENT,
    MQIA_Q_DEPTH_HIGH_LIMIT,
    MQIA_Q_DEPTH_LOW_EVENT,
    MQIA_Q_DEPTH_LOW_LIMIT,
    MQIA_Q_DEPTH_MAX_EVENT,
    MQIA_Q_SERVICE_INTERVAL_EVENT,
    MQIA_Q_SERVICE_INTERVAL,
];

pub use ferrite_mqi_types::calls::{character_attribute_length, is_integer_selector};

/// MQ's value for a queue attribute that does not apply to the queue's type (with
/// MQRC_SELECTOR_NOT_FOR_TYPE): MQIAV_NOT_APPLICABLE for an integer attribute, and a string
/// of asterisks as long as the attribute for a character one.
pub fn not_applicable(selector: i32) -> AttributeValue {
    if is_integer_selector(selector) {
        AttributeValue::Integer(MQIAV_NOT_APPLICABLE)
    } else {
        AttributeValue::Text("*".repeat(character_attribute_length(selector)))
    }
}

/// One selector's answer for a queue: `answer` is what the queue's own type gives (Err with
/// MQRC_SELECTOR_ERROR when the selector is not one of its attributes). A queue attribute of
/// another queue type becomes [`not_applicable`] and sets `warning` to
/// MQRC_SELECTOR_NOT_FOR_TYPE; anything else is returned as it is.
pub fn queue_answer(
    selector: i32,
    answer: MqResult<AttributeValue>,
    warning: &mut Option<MqError>,
) -> MqResult<AttributeValue> {
    match answer {
        Err(error)
            if error.reason == MQRC_SELECTOR_ERROR
                && QUEUE_ATTRIBUTE_SELECTORS.contains(&selector) =>
        {
            *warning = Some(MqError::warning(MQRC_SELECTOR_NOT_FOR_TYPE));
            Ok(not_applicable(selector))
        }
        answer => answer,
    }
}

/// MQMON_* of a queue's MONQ keyword.
fn monitoring(keyword: &str) -> i32 {
    match keyword {
        "OFF" => MQMON_OFF,
        "NONE" => MQMON_NONE,
        "LOW" => MQMON_LOW,
        "MEDIUM" => MQMON_MEDIUM,
        "HIGH" => MQMON_HIGH,
        "ON" => MQMON_ON,
        _ => MQMON_Q_MGR,
    }
}

fn trigger_type(keyword: &str) -> i32 {
    match keyword {
        "NONE" => MQTT_NONE,
        "EVERY" => MQTT_EVERY,
        "DEPTH" => MQTT_DEPTH,
        _ => MQTT_FIRST,
    }
}

fn event(enabled: bool) -> i32 {
    if enabled {
        MQEVR_ENABLED
    } else {
        MQEVR_DISABLED
    }
}

/// One MQINQ selector of a local queue.
pub fn local_queue_attribute(
    definition: &QueueDefinition,
    status: &QueueStatus,
    selector: i32,
) -> MqResult<AttributeValue> {
    let integer = |value: i64| Ok(AttributeValue::Integer(value as i32));
    let text = |value: &str| Ok(AttributeValue::Text(value.to_string()));
    match selector {
        MQCA_Q_NAME => text(&definition.name),
        MQCA_Q_DESC => text(&definition.description),
        MQCA_STORAGE_CLASS => text(&definition.storage_class),
        MQIA_Q_TYPE => integer(MQQT_LOCAL as i64),
        MQIA_CURRENT_Q_DEPTH => integer(status.current_depth as i64),
        MQIA_MAX_Q_DEPTH => integer(definition.max_depth as i64),
        MQIA_MAX_MSG_LENGTH => integer(definition.max_message_length as i64),
        MQIA_DEF_PERSISTENCE => integer(if definition.default_persistent {
            MQPER_PERSISTENT as i64
        } else {
            MQPER_NOT_PERSISTENT as i64
        }),
        MQIA_DEF_PRIORITY => integer(definition.default_priority as i64),
        MQIA_INHIBIT_PUT => integer(definition.put_inhibited as i64),
        MQIA_INHIBIT_GET => integer(definition.get_inhibited as i64),
        MQIA_OPEN_INPUT_COUNT => integer(status.open_input_count as i64),
        MQIA_OPEN_OUTPUT_COUNT => integer(status.open_output_count as i64),
        MQIA_SHAREABILITY => integer(if definition.shareable {
            MQQA_SHAREABLE
        } else {
            MQQA_NOT_SHAREABLE
        } as i64),
        MQIA_DEF_INPUT_OPEN_OPTION => integer(if definition.default_input_shared {
            MQOO_INPUT_SHARED
        } else {
            MQOO_INPUT_EXCLUSIVE
        } as i64),
        MQIA_MSG_DELIVERY_SEQUENCE => integer(if definition.message_delivery_fifo {
            MQMDS_FIFO
        } else {
            MQMDS_PRIORITY
        } as i64),
        MQIA_RETENTION_INTERVAL => integer(definition.retention_interval as i64),
        MQIA_INDEX_TYPE => integer(match definition.index_type.as_str() {
            "MSGID" => MQIT_MSG_ID,
            "CORRELID" => MQIT_CORREL_ID,
            "GROUPID" => MQIT_GROUP_ID,
            "MSGTOKEN" => MQIT_MSG_TOKEN,
            _ => MQIT_NONE,
        } as i64),
        MQIA_PAGESET_ID => integer(definition.page_set.0 as i64),
        MQIA_BACKOUT_THRESHOLD => integer(definition.backout_threshold as i64),
        MQCA_BACKOUT_REQ_Q_NAME => text(&definition.backout_requeue_queue),
        MQIA_HARDEN_GET_BACKOUT => integer(if definition.hardened_backout {
            MQQA_BACKOUT_HARDENED
        } else {
            MQQA_BACKOUT_NOT_HARDENED
        } as i64),
        MQIA_DEFINITION_TYPE => integer(definition.definition_type.mqqdt() as i64),
        MQIA_USAGE => integer(if definition.usage_transmission {
            MQUS_TRANSMISSION
        } else {
            MQUS_NORMAL
        } as i64),
        MQIA_DEF_READ_AHEAD => integer(match definition.default_read_ahead.as_str() {
            "YES" => MQREADA_YES,
            "DISABLED" => MQREADA_DISABLED,
            _ => MQREADA_NO,
        } as i64),
        MQIA_DEF_PUT_RESPONSE_TYPE => integer(if definition.default_put_response == "ASYNC" {
            MQPRT_ASYNC_RESPONSE
        } else {
            MQPRT_SYNC_RESPONSE
        } as i64),
        MQIA_PROPERTY_CONTROL => integer(match definition.property_control.as_str() {
            "ALL" => MQPROP_ALL,
            "FORCE" => MQPROP_FORCE_MQRFH2,
            "NONE" => MQPROP_NONE,
            "V6COMPAT" => MQPROP_V6COMPAT,
            _ => MQPROP_COMPATIBILITY,
        } as i64),
        MQIA_ACCOUNTING_Q => integer(monitoring(&definition.accounting_queue) as i64),
        MQIA_MONITORING_Q => integer(monitoring(&definition.monitoring_queue) as i64),
        MQIA_STATISTICS_Q => integer(monitoring(&definition.statistics_queue) as i64),
        MQIA_TRIGGER_CONTROL => integer(if definition.trigger_control {
            MQTC_ON
        } else {
            MQTC_OFF
        } as i64),
        MQIA_TRIGGER_TYPE => integer(trigger_type(&definition.trigger_type) as i64),
        MQIA_TRIGGER_DEPTH => integer(definition.trigger_depth as i64),
        MQIA_TRIGGER_MSG_PRIORITY => integer(definition.trigger_message_priority as i64),
        MQCA_INITIATION_Q_NAME => text(&definition.initiation_queue),
        MQCA_PROCESS_NAME => text(&definition.process_name),
        MQCA_TRIGGER_DATA => text(&definition.trigger_data),
        MQIA_Q_DEPTH_HIGH_EVENT => integer(event(definition.queue_depth_high_event) as i64),
        MQIA_Q_DEPTH_HIGH_LIMIT => integer(definition.queue_depth_high_limit as i64),
        MQIA_Q_DEPTH_LOW_EVENT => integer(event(definition.queue_depth_low_event) as i64),
        MQIA_Q_DEPTH_LOW_LIMIT => integer(definition.queue_depth_low_limit as i64),
        MQIA_Q_DEPTH_MAX_EVENT => integer(event(definition.queue_depth_max_event) as i64),
        MQIA_Q_SERVICE_INTERVAL_EVENT => {
            integer(match definition.queue_service_interval_event.as_str() {
                "HIGH" => MQQSIE_HIGH,
                "OK" => MQQSIE_OK,
                _ => MQQSIE_NONE,
            } as i64)
        }
        MQIA_Q_SERVICE_INTERVAL => integer(definition.queue_service_interval as i64),
        _ => selector_error(),
    }
}

/// One MQINQ selector of the queue manager object.
pub fn queue_manager_attribute(
    queue_manager: &QueueManager,
    identifier: impl Fn() -> String,
    selector: i32,
) -> MqResult<AttributeValue> {
    let attributes = queue_manager.queue_manager_attributes();
    let integer = |value: i32| Ok(AttributeValue::Integer(value));
    let text = |value: &str| Ok(AttributeValue::Text(value.to_string()));
    match selector {
        MQCA_Q_MGR_NAME => text(queue_manager.name()),
        MQCA_Q_MGR_DESC => text(&attributes.description),
        MQCA_Q_MGR_IDENTIFIER => text(&identifier()),
        MQCA_DEAD_LETTER_Q_NAME => text(&attributes.dead_letter_queue),
        MQCA_DEF_XMIT_Q_NAME => text(&attributes.default_transmission_queue),
        MQCA_COMMAND_INPUT_Q_NAME => text("SYSTEM.COMMAND.INPUT"),
        MQIA_CODED_CHAR_SET_ID => integer(QUEUE_MANAGER_CCSID),
        MQIA_MAX_PRIORITY => integer(MAX_PRIORITY),
        MQIA_SYNCPOINT => integer(MQSP_AVAILABLE),
        MQIA_MAX_UNCOMMITTED_MSGS => integer(attributes.max_uncommitted_messages as i32),
        MQIA_MAX_MSG_LENGTH => integer(attributes.max_message_length as i32),
        MQIA_EXPIRY_INTERVAL => integer(attributes.expiry_interval as i32),
        MQIA_TRIGGER_INTERVAL => integer(attributes.trigger_interval as i32),
        MQIA_PLATFORM => integer(MQPL_UNIX),
        MQIA_COMMAND_LEVEL => integer(MQCMDL_CURRENT_LEVEL),
        MQIA_PERFORMANCE_EVENT => integer(event(attributes.performance_events)),
        MQIA_INHIBIT_EVENT => integer(event(attributes.inhibit_events)),
        MQIA_LOCAL_EVENT => integer(event(attributes.local_events)),
        MQIA_AUTHORITY_EVENT => integer(event(attributes.authority_events)),
        MQIA_COMMAND_EVENT => integer(match attributes.command_events.as_str() {
            "ENABLED" => MQEVR_ENABLED,
            "NODISPLAY" => MQEVR_NO_DISPLAY,
            _ => MQEVR_DISABLED,
        }),
        MQIA_CONFIGURATION_EVENT => integer(event(attributes.config_events)),
        MQIA_START_STOP_EVENT => integer(event(attributes.start_stop_events)),
        MQIA_CHANNEL_EVENT => integer(match attributes.channel_events.as_str() {
            "ENABLED" => MQEVR_ENABLED,
            "EXCEPTION" => MQEVR_EXCEPTION,
            _ => MQEVR_DISABLED,
        }),
        MQIA_ACCOUNTING_Q => integer(monitoring(&attributes.accounting_queue)),
        MQIA_MONITORING_Q => integer(monitoring(&attributes.monitoring_queue)),
        MQIA_STATISTICS_Q => integer(monitoring(&attributes.statistics_queue)),
        // Advanced Message Security and the like: not supported (MQCAP_NOT_SUPPORTED).
        MQIA_ADVANCED_CAPABILITY => integer(0),
        MQIA_DIST_LISTS => integer(MQDL_NOT_SUPPORTED),
        _ => selector_error(),
    }
}

/// MQSET of one selector on a local queue's definition: the selectors MQ allows (inhibits and
/// the trigger attributes), each value checked with MQ's reason code.
pub fn set_local_queue_attribute(
    definition: &mut QueueDefinition,
    selector: i32,
    value: &AttributeValue,
) -> MqResult<()> {
    let failed = |reason| Err(MqError::failed(reason));
    match (selector, value) {
        (MQIA_INHIBIT_PUT | MQIA_INHIBIT_GET, AttributeValue::Integer(flag @ (0 | 1))) => {
            debug_assert_eq!(MQQA_PUT_INHIBITED, 1);
            debug_assert_eq!(MQQA_GET_INHIBITED, 1);
            if selector == MQIA_INHIBIT_PUT {
                definition.put_inhibited = *flag == 1;
            } else {
                definition.get_inhibited = *flag == 1;
            }
            Ok(())
        }
        (MQIA_INHIBIT_PUT | MQIA_INHIBIT_GET, _) => failed(MQRC_INHIBIT_VALUE_ERROR),
        (MQIA_TRIGGER_CONTROL, AttributeValue::Integer(control)) => {
            match *control {
                MQTC_OFF => definition.trigger_control = false,
                MQTC_ON => definition.trigger_control = true,
                _ => return failed(MQRC_TRIGGER_CONTROL_ERROR),
            }
            Ok(())
        }
        (MQIA_TRIGGER_TYPE, AttributeValue::Integer(kind)) => {
            definition.trigger_type = match *kind {
                MQTT_NONE => "NONE",
                MQTT_FIRST => "FIRST",
                MQTT_EVERY => "EVERY",
                MQTT_DEPTH => "DEPTH",
                _ => return failed(MQRC_TRIGGER_TYPE_ERROR),
            }
            .to_string();
            Ok(())
        }
        (MQIA_TRIGGER_DEPTH, AttributeValue::Integer(depth)) => {
            if *depth < 1 {
                return failed(MQRC_TRIGGER_DEPTH_ERROR);
            }
            definition.trigger_depth = *depth as u32;
            Ok(())
        }
        (MQIA_TRIGGER_MSG_PRIORITY, AttributeValue::Integer(priority)) => {
            if !(0..=MAX_PRIORITY).contains(priority) {
                return failed(MQRC_TRIGGER_MSG_PRIORITY_ERR);
            }
            definition.trigger_message_priority = *priority as u8;
            Ok(())
        }
        (MQCA_TRIGGER_DATA, AttributeValue::Text(data)) => {
            let data = data.trim_end();
            if data.chars().count() > ferrite_queue_manager::TRIGGER_DATA_LENGTH_MAX {
                return failed(MQRC_CHAR_ATTRS_TOO_SHORT);
            }
            definition.trigger_data = data.to_string();
            Ok(())
        }
        (
            MQIA_TRIGGER_CONTROL
            | MQIA_TRIGGER_TYPE
            | MQIA_TRIGGER_DEPTH
            | MQIA_TRIGGER_MSG_PRIORITY
            | MQCA_TRIGGER_DATA,
            _,
        ) => failed(MQRC_SELECTOR_ERROR),
        _ => failed(MQRC_SELECTOR_ERROR),
    }
}
