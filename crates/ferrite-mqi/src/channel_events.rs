//! Channel events (QMGR CHLEV): the Channel Blocked event, put on SYSTEM.ADMIN.CHANNEL.EVENT
//! when a channel authentication record refuses an inbound channel (MQRC_CHANNEL_BLOCKED,
//! 2577) or would have refused it but says WARN(YES) (MQRC_CHANNEL_BLOCKED_WARNING, 2578).
//! MQ generates it with CHLEV(EXCEPTION) and CHLEV(ENABLED); CHLEV(DISABLED), MQ's default,
//! generates none. Like every event, it is discarded when the event queue is not defined or the
//! put fails (the refusal itself is logged either way).
//!
//! ## The message
//! MQMD Format MQFMT_EVENT, from the queue manager's context ([`put_as_queue_manager`]), data
//! one PCF message in the queue manager's native encoding:
//!
//! | structure | parameter | value |
//! |---|---|---|
//! | MQCFH | Type MQCFT_EVENT, Version 1, Command MQCMD_CHANNEL_EVENT (46), MsgSeqNumber 1, Control MQCFC_LAST, CompCode MQCC_WARNING, Reason 2577 or 2578 | ParameterCount 3-5 |
//! | MQCFST | MQCA_Q_MGR_NAME (2015) | the queue manager, 48 characters |
//! | MQCFIN | MQIACF_REASON_QUALIFIER (1020) | MQRQ_CHANNEL_BLOCKED_ADDRESS (21), _USERID (22) or _NOACCESS (23) |
//! | MQCFST | MQCACH_CHANNEL_NAME (3501) | the channel, 20 characters; not for _ADDRESS (MQ blocks an address before it knows the channel) |
//! | MQCFST | MQCACF_USER_IDENTIFIER (3025) | the blocked user ID, 12 characters; only for _USERID |
//! | MQCFST | MQCACH_CONNECTION_NAME (3506) | the partner's address, 264 characters |
//!
//! ## Message channel events
//! Message channels (SDR, SVR, RCVR, RQSTR; never client connections) report their life in
//! the same way ([`write_message_channel_event`]), MQCFH Command MQCMD_CHANNEL_EVENT,
//! CompCode MQCC_WARNING:
//!
//! | event | Reason | parameters, in order | CHLEV |
//! |---|---|---|---|
//! | Channel Started | 2282 MQRC_CHANNEL_STARTED | QMgrName, ChannelName, XmitQName (SDR and SVR only), ConnectionName | ENABLED |
//! | Channel Stopped | 2283 MQRC_CHANNEL_STOPPED | QMgrName, ReasonQualifier, ChannelName, ErrorIdentifier, AuxErrorDataInt1, AuxErrorDataInt2, XmitQName (SDR and SVR only), ConnectionName | qualifier MQRQ_CHANNEL_STOPPED_OK (7): ENABLED; _ERROR (8), _RETRY (9), _DISABLED (10): EXCEPTION or ENABLED |
//! | Channel Stopped By User | 2279 MQRC_CHANNEL_STOPPED_BY_USER | QMgrName, ReasonQualifier MQRQ_CHANNEL_STOPPED_DISABLED (10), ChannelName | EXCEPTION or ENABLED |
//! | Channel Not Activated | 2296 MQRC_CHANNEL_NOT_ACTIVATED | QMgrName, ChannelName, XmitQName (SDR and SVR only), ConnectionName | EXCEPTION or ENABLED |
//! | Channel Activated | 2295 MQRC_CHANNEL_ACTIVATED | QMgrName, ChannelName, XmitQName (SDR and SVR only), ConnectionName | EXCEPTION or ENABLED |
//!
//! ErrorIdentifier (MQIACF_ERROR_IDENTIFIER 1013) is the number of the AMQ message that
//! reports the error (9526 a sequence number error, 9999 any other end in error), 0 when the
//! channel ended normally; AuxErrorDataInt1 (1070) the MQ reason the partner gave, if any,
//! and AuxErrorDataInt2 (1071) 0. XmitQName is MQCACH_XMIT_Q_NAME (3505), 48 characters.
//! Channel Stopped follows only a Channel Started of the same instance, as in MQ.
//!
//! Each MQCFST is Type MQCFT_STRING (4), StrucLength 20 + the field's length, Parameter,
//! CodedCharSetId (the queue manager's), StringLength, the string blank padded; an MQCFIN is
//! Type MQCFT_INTEGER (3), StrucLength 16, Parameter, Value.

use ferrite_constants::{
    encoding::MQENC_NATIVE,
    format::MQFMT_EVENT,
    lengths::{
        MQ_CHANNEL_NAME_LENGTH, MQ_CONN_NAME_LENGTH, MQ_Q_MGR_NAME_LENGTH, MQ_Q_NAME_LENGTH,
        MQ_USER_ID_LENGTH,
    },
    misc::{
        MQRQ_CHANNEL_BLOCKED_ADDRESS, MQRQ_CHANNEL_BLOCKED_NOACCESS, MQRQ_CHANNEL_BLOCKED_USERID,
        MQRQ_CHANNEL_STOPPED_DISABLED, MQRQ_CHANNEL_STOPPED_OK,
    },
    pcf::*,
    pcf_selector::{
        MQCACF_USER_IDENTIFIER, MQCACH_CHANNEL_NAME, MQCACH_CONNECTION_NAME, MQCACH_XMIT_Q_NAME,
        MQIACF_AUX_ERROR_DATA_INT_1, MQIACF_AUX_ERROR_DATA_INT_2, MQIACF_ERROR_IDENTIFIER,
        MQIACF_REASON_QUALIFIER,
    },
    reason::{
        MQRC_CHANNEL_ACTIVATED, MQRC_CHANNEL_BLOCKED, MQRC_CHANNEL_BLOCKED_WARNING,
        MQRC_CHANNEL_NOT_ACTIVATED, MQRC_CHANNEL_STARTED, MQRC_CHANNEL_STOPPED,
        MQRC_CHANNEL_STOPPED_BY_USER,
    },
    selector::MQCA_Q_MGR_NAME,
};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::security::channel_authentication::{Refusal, RefusalCause};
use ferrite_queue_manager::QueueManager;

use crate::event_writer::EventWriter;
use crate::queue_manager_put::put_as_queue_manager;

/// The queue channel events go to.
pub const CHANNEL_EVENT_QUEUE: &str = "SYSTEM.ADMIN.CHANNEL.EVENT";

/// The facts of one blocked (or, with WARN(YES), warned) inbound channel.
pub struct ChannelBlocked<'a> {
    pub refusal: &'a Refusal,
    /// Whether the record only warned (WARN(YES)): the connection went ahead.
    pub warning: bool,
    pub channel: &'a str,
    /// The partner's address (MQ's ConnectionName of an inbound channel).
    pub connection_name: &'a str,
}

/// Whether the queue manager's CHLEV asks for Channel Blocked events (EXCEPTION or ENABLED).
pub fn channel_blocked_events_enabled(queue_manager: &QueueManager) -> bool {
    matches!(
        queue_manager
            .queue_manager_attributes()
            .channel_events
            .as_str(),
        "EXCEPTION" | "ENABLED"
    )
}

/// Put a Channel Blocked event for `blocked` when CHLEV asks for one; returns whether one was
/// put. A put that fails is reported through `log` and the event discarded.
pub fn write_channel_blocked(
    queue_manager: &QueueManager,
    blocked: &ChannelBlocked<'_>,
    log: &dyn Fn(&str),
) -> bool {
    if !channel_blocked_events_enabled(queue_manager) {
        return false;
    }
    let Some(event_queue) = queue_manager.queue(CHANNEL_EVENT_QUEUE) else {
        return false;
    };
    let order = ByteOrder::from_mq_encoding(MQENC_NATIVE).expect("native integer encoding");
    let data = channel_blocked_message(queue_manager.name(), blocked, order);
    match put_as_queue_manager(queue_manager, &event_queue, MQFMT_EVENT, &data) {
        (_, Ok(())) => true,
        (_, Err(reason)) => {
            log(&format!(
                "the channel blocked event for channel '{}' could not be put on {CHANNEL_EVENT_QUEUE} (reason {reason}); it is discarded",
                blocked.channel
            ));
            false
        }
    }
}

/// The PCF data of a Channel Blocked event (layout in the module documentation).
pub fn channel_blocked_message(
    queue_manager_name: &str,
    blocked: &ChannelBlocked<'_>,
    order: ByteOrder,
) -> Vec<u8> {
    let refusal = blocked.refusal;
    let qualifier = match refusal.cause {
        RefusalCause::Address => MQRQ_CHANNEL_BLOCKED_ADDRESS,
        RefusalCause::UserId => MQRQ_CHANNEL_BLOCKED_USERID,
        RefusalCause::NoAccess => MQRQ_CHANNEL_BLOCKED_NOACCESS,
    };
    let mut strings: Vec<(i32, &str, i32)> = Vec::with_capacity(4);
    if refusal.cause != RefusalCause::Address {
        strings.push((MQCACH_CHANNEL_NAME, blocked.channel, MQ_CHANNEL_NAME_LENGTH));
    }
    if refusal.cause == RefusalCause::UserId {
        strings.push((MQCACF_USER_IDENTIFIER, &refusal.user, MQ_USER_ID_LENGTH));
    }
    strings.push((
        MQCACH_CONNECTION_NAME,
        blocked.connection_name,
        MQ_CONN_NAME_LENGTH,
    ));
    let reason = if blocked.warning {
        MQRC_CHANNEL_BLOCKED_WARNING
    } else {
        MQRC_CHANNEL_BLOCKED
    };
    let mut event = EventWriter::new(MQCFH_VERSION_1, MQCMD_CHANNEL_EVENT, reason, order);
    event
        .string(MQCA_Q_MGR_NAME, queue_manager_name, MQ_Q_MGR_NAME_LENGTH)
        .integer(MQIACF_REASON_QUALIFIER, qualifier);
    for (parameter, text, length) in strings {
        event.string(parameter, text, length);
    }
    event.finish()
}

/// One event of a message channel's life (layouts in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageChannelEvent<'a> {
    /// Negotiated and resynchronized: messages can flow.
    Started {
        channel: &'a str,
        /// SDR and SVR channels only.
        transmission_queue: Option<&'a str>,
        connection_name: &'a str,
    },
    /// An instance that had started has ended.
    Stopped {
        /// MQRQ_CHANNEL_STOPPED_OK, _ERROR, _RETRY or _DISABLED.
        qualifier: i32,
        channel: &'a str,
        /// The AMQ message number of the error (0: none).
        error_identifier: i32,
        /// The MQ reason behind the error, if any (0: none).
        reason: i32,
        transmission_queue: Option<&'a str>,
        connection_name: &'a str,
    },
    /// STOP CHANNEL ended the channel.
    StoppedByUser { channel: &'a str },
    /// The channel cannot become active: ACTCHL channels are active already. It waits.
    NotActivated {
        channel: &'a str,
        transmission_queue: Option<&'a str>,
        connection_name: &'a str,
    },
    /// A channel that was not activated has become active.
    Activated {
        channel: &'a str,
        transmission_queue: Option<&'a str>,
        connection_name: &'a str,
    },
}

impl MessageChannelEvent<'_> {
    /// Whether the queue manager's CHLEV value asks for this event.
    pub fn wanted(&self, channel_events: &str) -> bool {
        let informational = match self {
            MessageChannelEvent::Started { .. } => true,
            MessageChannelEvent::Stopped { qualifier, .. } => *qualifier == MQRQ_CHANNEL_STOPPED_OK,
            MessageChannelEvent::StoppedByUser { .. }
            | MessageChannelEvent::NotActivated { .. }
            | MessageChannelEvent::Activated { .. } => false,
        };
        match channel_events {
            "ENABLED" => true,
            "EXCEPTION" => !informational,
            _ => false,
        }
    }

    fn channel(&self) -> &str {
        match self {
            MessageChannelEvent::Started { channel, .. }
            | MessageChannelEvent::Stopped { channel, .. }
            | MessageChannelEvent::NotActivated { channel, .. }
            | MessageChannelEvent::Activated { channel, .. }
            | MessageChannelEvent::StoppedByUser { channel } => channel,
        }
    }
}

/// Put `event` on SYSTEM.ADMIN.CHANNEL.EVENT when CHLEV asks for it; returns whether one was
/// put. A put that fails is reported through `log` and the event discarded.
pub fn write_message_channel_event(
    queue_manager: &QueueManager,
    event: &MessageChannelEvent<'_>,
    log: &dyn Fn(&str),
) -> bool {
    if !event.wanted(&queue_manager.queue_manager_attributes().channel_events) {
        return false;
    }
    let Some(event_queue) = queue_manager.queue(CHANNEL_EVENT_QUEUE) else {
        return false;
    };
    let order = ByteOrder::from_mq_encoding(MQENC_NATIVE).expect("native integer encoding");
    let data = message_channel_event_message(queue_manager.name(), event, order);
    match put_as_queue_manager(queue_manager, &event_queue, MQFMT_EVENT, &data) {
        (_, Ok(())) => true,
        (_, Err(reason)) => {
            log(&format!(
                "a channel event for channel '{}' could not be put on {CHANNEL_EVENT_QUEUE} (reason {reason}); it is discarded",
                event.channel()
            ));
            false
        }
    }
}

/// The PCF data of a message channel event (layouts in the module documentation).
pub fn message_channel_event_message(
    queue_manager_name: &str,
    event: &MessageChannelEvent<'_>,
    order: ByteOrder,
) -> Vec<u8> {
    let reason = match event {
        MessageChannelEvent::Started { .. } => MQRC_CHANNEL_STARTED,
        MessageChannelEvent::Stopped { .. } => MQRC_CHANNEL_STOPPED,
        MessageChannelEvent::StoppedByUser { .. } => MQRC_CHANNEL_STOPPED_BY_USER,
        MessageChannelEvent::NotActivated { .. } => MQRC_CHANNEL_NOT_ACTIVATED,
        MessageChannelEvent::Activated { .. } => MQRC_CHANNEL_ACTIVATED,
    };
    let mut writer = EventWriter::new(MQCFH_VERSION_1, MQCMD_CHANNEL_EVENT, reason, order);
    writer.string(MQCA_Q_MGR_NAME, queue_manager_name, MQ_Q_MGR_NAME_LENGTH);
    match *event {
        MessageChannelEvent::Started {
            channel,
            transmission_queue,
            connection_name,
        }
        | MessageChannelEvent::NotActivated {
            channel,
            transmission_queue,
            connection_name,
        }
        | MessageChannelEvent::Activated {
            channel,
            transmission_queue,
            connection_name,
        } => {
            writer.string(MQCACH_CHANNEL_NAME, channel, MQ_CHANNEL_NAME_LENGTH);
            partner(&mut writer, transmission_queue, connection_name);
        }
        MessageChannelEvent::Stopped {
            qualifier,
            channel,
            error_identifier,
            reason,
            transmission_queue,
            connection_name,
        } => {
            writer
                .integer(MQIACF_REASON_QUALIFIER, qualifier)
                .string(MQCACH_CHANNEL_NAME, channel, MQ_CHANNEL_NAME_LENGTH)
                .integer(MQIACF_ERROR_IDENTIFIER, error_identifier)
                .integer(MQIACF_AUX_ERROR_DATA_INT_1, reason)
                .integer(MQIACF_AUX_ERROR_DATA_INT_2, 0);
            partner(&mut writer, transmission_queue, connection_name);
        }
        MessageChannelEvent::StoppedByUser { channel } => {
            writer
                .integer(MQIACF_REASON_QUALIFIER, MQRQ_CHANNEL_STOPPED_DISABLED)
                .string(MQCACH_CHANNEL_NAME, channel, MQ_CHANNEL_NAME_LENGTH);
        }
    }
    writer.finish()
}

/// XmitQName (sending channels) and ConnectionName.
fn partner(writer: &mut EventWriter, transmission_queue: Option<&str>, connection_name: &str) {
    if let Some(queue) = transmission_queue {
        writer.string(MQCACH_XMIT_Q_NAME, queue, MQ_Q_NAME_LENGTH);
    }
    writer.string(MQCACH_CONNECTION_NAME, connection_name, MQ_CONN_NAME_LENGTH);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_constants::misc::MQRQ_CHANNEL_STOPPED_RETRY;

    fn words(bytes: &[u8]) -> Vec<i32> {
        bytes
            .chunks(4)
            .map(|word| i32::from_le_bytes(word.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn chlev_chooses_which_message_channel_events_are_put() {
        let started = MessageChannelEvent::Started {
            channel: "A",
            transmission_queue: Some("XQ"),
            connection_name: "h(1)",
        };
        let stopped = |qualifier| MessageChannelEvent::Stopped {
            qualifier,
            channel: "A",
            error_identifier: 0,
            reason: 0,
            transmission_queue: None,
            connection_name: "h(1)",
        };
        let by_user = MessageChannelEvent::StoppedByUser { channel: "A" };
        let not_activated = MessageChannelEvent::NotActivated {
            channel: "A",
            transmission_queue: Some("XQ"),
            connection_name: "h(1)",
        };
        for (event, exception, enabled) in [
            (&not_activated, true, true),
            (&started, false, true),
            (&stopped(MQRQ_CHANNEL_STOPPED_OK), false, true),
            (&stopped(MQRQ_CHANNEL_STOPPED_RETRY), true, true),
            (&stopped(MQRQ_CHANNEL_STOPPED_DISABLED), true, true),
            (&by_user, true, true),
        ] {
            assert!(!event.wanted("DISABLED"), "{event:?}");
            assert_eq!(event.wanted("EXCEPTION"), exception, "{event:?}");
            assert_eq!(event.wanted("ENABLED"), enabled, "{event:?}");
        }
    }

    #[test]
    fn channel_stopped_by_user_is_laid_out_as_mq_documents_it() {
        let data = message_channel_event_message(
            "QM1",
            &MessageChannelEvent::StoppedByUser { channel: "TO.QM2" },
            ByteOrder::Little,
        );
        assert_eq!(data.len(), 36 + 68 + 16 + 40);
        // MQCFH: MQCFT_EVENT, 36, version 1, MQCMD_CHANNEL_EVENT, MsgSeqNumber 1,
        // MQCFC_LAST, MQCC_WARNING, MQRC_CHANNEL_STOPPED_BY_USER, three parameters.
        assert_eq!(words(&data[..36]), [7, 36, 1, 46, 1, 1, 1, 2279, 3]);
        // MQCFST QMgrName, 48 characters.
        assert_eq!(&words(&data[36..52])[..3], [4, 68, MQCA_Q_MGR_NAME]);
        assert_eq!(words(&data[52..56]), [48]);
        assert_eq!(&data[56..104], format!("{:48}", "QM1").as_bytes());
        // MQCFIN ReasonQualifier MQRQ_CHANNEL_STOPPED_DISABLED.
        assert_eq!(
            words(&data[104..120]),
            [
                3,
                16,
                MQIACF_REASON_QUALIFIER,
                MQRQ_CHANNEL_STOPPED_DISABLED
            ]
        );
        // MQCFST ChannelName, 20 characters.
        assert_eq!(&words(&data[120..132]), &[4, 40, MQCACH_CHANNEL_NAME]);
        assert_eq!(&data[140..160], b"TO.QM2              ");
    }
}
