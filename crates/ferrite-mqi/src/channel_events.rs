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
//! Each MQCFST is Type MQCFT_STRING (4), StrucLength 20 + the field's length, Parameter,
//! CodedCharSetId (the queue manager's), StringLength, the string blank padded; an MQCFIN is
//! Type MQCFT_INTEGER (3), StrucLength 16, Parameter, Value.

use ferrite_constants::{
    encoding::MQENC_NATIVE,
    format::MQFMT_EVENT,
    lengths::{
        MQ_CHANNEL_NAME_LENGTH, MQ_CONN_NAME_LENGTH, MQ_Q_MGR_NAME_LENGTH, MQ_USER_ID_LENGTH,
    },
    misc::{
        MQRQ_CHANNEL_BLOCKED_ADDRESS, MQRQ_CHANNEL_BLOCKED_NOACCESS, MQRQ_CHANNEL_BLOCKED_USERID,
    },
    pcf::*,
    pcf_selector::{
        MQCACF_USER_IDENTIFIER, MQCACH_CHANNEL_NAME, MQCACH_CONNECTION_NAME,
        MQIACF_REASON_QUALIFIER,
    },
    reason::{MQRC_CHANNEL_BLOCKED, MQRC_CHANNEL_BLOCKED_WARNING},
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
