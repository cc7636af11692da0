//! The MQI calls' parameters that are not structures: object and message handles (MQHOBJ,
//! MQHMSG), what MQGET returns besides the data, MQINQ's and MQSET's attribute values, and
//! which selectors name integer or character attributes, and how long the character ones are
//! in MQINQ's CharAttrs.

use ferrite_constants::selector::*;

use crate::error::MqError;

/// An object handle (MQHOBJ) returned by MQOPEN, valid on its connection until MQCLOSE.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hobj(pub i32);

/// What MQGET returned besides the message data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GetResult {
    /// DataLength: the length of the message data (more than was returned if truncated).
    pub data_length: usize,
    /// Bytes placed in the buffer.
    pub returned_length: usize,
    /// MQCC_WARNING and its reason (MQRC_TRUNCATED_MSG_ACCEPTED), or `None` for MQCC_OK.
    pub warning: Option<MqError>,
}

/// An attribute value for MQINQ and MQSET.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttributeValue {
    /// An MQIA_* integer attribute.
    Integer(i32),
    /// An MQCA_* character attribute, without trailing blanks.
    Text(String),
}

/// What MQINQ answers: the values in the order of the selectors, and MQCC_WARNING with
/// MQRC_SELECTOR_NOT_FOR_TYPE when a queue attribute does not apply to the queue's type
/// (`None` for MQCC_OK).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inquired {
    /// One value per selector, in order.
    pub values: Vec<AttributeValue>,
    /// MQCC_WARNING and its reason, or `None` for MQCC_OK.
    pub warning: Option<MqError>,
}

/// A message handle (MQHMSG), valid on its connection until MQDLTMH.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hmsg(pub i64);

/// MQHM_NONE: no message handle.
pub const MQHM_NONE: i64 = 0;

/// Whether `selector` names an integer attribute (MQIA_*) rather than a character one.
pub fn is_integer_selector(selector: i32) -> bool {
    (MQIA_FIRST..=MQIA_LAST).contains(&selector)
}

/// The length in bytes of a character attribute in MQINQ's CharAttrs: MQ's documented
/// MQ_*_LENGTH for the attributes Ferrite answers, 48 for the others.
pub fn character_attribute_length(selector: i32) -> usize {
    use ferrite_constants::lengths::*;
    (match selector {
        MQCA_Q_NAME => MQ_Q_NAME_LENGTH,
        MQCA_Q_DESC => MQ_Q_DESC_LENGTH,
        MQCA_STORAGE_CLASS => MQ_STORAGE_CLASS_LENGTH,
        MQCA_Q_MGR_NAME => MQ_Q_MGR_NAME_LENGTH,
        MQCA_Q_MGR_DESC => MQ_Q_MGR_DESC_LENGTH,
        MQCA_Q_MGR_IDENTIFIER => MQ_Q_MGR_IDENTIFIER_LENGTH,
        MQCA_TRIGGER_DATA => MQ_TRIGGER_DATA_LENGTH,
        MQCA_PROCESS_DESC => MQ_PROCESS_DESC_LENGTH,
        MQCA_APPL_ID => MQ_PROCESS_APPL_ID_LENGTH,
        MQCA_ENV_DATA => MQ_PROCESS_ENV_DATA_LENGTH,
        MQCA_USER_DATA => MQ_PROCESS_USER_DATA_LENGTH,
        MQCA_NAMELIST_DESC => MQ_NAMELIST_DESC_LENGTH,
        MQCA_CREATION_DATE => MQ_CREATION_DATE_LENGTH,
        MQCA_CREATION_TIME => MQ_CREATION_TIME_LENGTH,
        MQCA_ALTERATION_DATE => MQ_DATE_LENGTH,
        MQCA_ALTERATION_TIME => MQ_TIME_LENGTH,
        _ => 48,
    }) as usize
}
