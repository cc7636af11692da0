//! Message selection (MQOD SelectionString, a JMS message selector): which messages an MQGET
//! on a handle opened with a selector may return.
//!
//! The selector is parsed at MQOPEN (`ferrite_message::Selector`; MQRC_SELECTOR_SYNTAX_ERROR
//! for one that does not parse, MQRC_SELECTOR_ALWAYS_FALSE for one that can never match). At
//! MQGET the candidates are the queue's messages in delivery order; when the selector's
//! top-level terms fix the CorrelId (`JMSCorrelationID = '...'`) or the MsgId, only messages
//! with that id are candidates, found through the queue's index as for a get by CORRELID. A
//! candidate is eligible when the selector is true for its MQMD and the properties of its
//! MQRFH2 (unknown properties are NULL, so comparisons with them are not true).

use std::sync::Arc;

use ferrite_message::property_control::split_message_data;
use ferrite_message::{MessageProperties, MessageView, Selector};

use crate::structures::Mqmd;

/// A parsed selection string, as a handle keeps it.
#[derive(Debug, Clone)]
pub struct Selection {
    /// The selector.
    pub selector: Arc<Selector>,
    /// The CorrelId every selected message has, if the selector fixes it.
    pub correlation_id: Option<[u8; 24]>,
    /// The MsgId every selected message has, if the selector fixes it.
    pub message_id: Option<[u8; 24]>,
}

impl Selection {
    /// Parses `text`; `Err(reason)` with MQ's reason code when it cannot be used.
    pub fn parse(text: &str) -> Result<Selection, i32> {
        let selector = Selector::parse(text)
            .map_err(|_| ferrite_constants::reason::MQRC_SELECTOR_SYNTAX_ERROR)?;
        if selector.constant_value() == Some(false) {
            return Err(ferrite_constants::reason::MQRC_SELECTOR_ALWAYS_FALSE);
        }
        Ok(Selection {
            correlation_id: selector.correlation_id_equality(),
            message_id: selector.message_id_equality(),
            selector: Arc::new(selector),
        })
    }

    /// Whether the message (its MQMD and data) is selected.
    pub fn matches(&self, md: &Mqmd, data: &[u8]) -> bool {
        let descriptor = ferrite_protocol::wire::md_to_wire(md);
        let properties = split_message_data(md.encoding, md.coded_char_set_id, md.format, data)
            .map(|split| split.properties)
            .unwrap_or_else(|_| MessageProperties::default());
        self.selector.matches(&MessageView {
            descriptor: &descriptor,
            properties: &properties,
        })
    }
}
