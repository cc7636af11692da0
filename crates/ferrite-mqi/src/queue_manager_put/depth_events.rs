//! Queue depth events: the performance events MQ writes when a queue fills up or drains.
//!
//! With the queue manager's PERFMEV enabled, a local queue reports:
//!
//! | event            | reason                   | when                                        | then                                  |
//! |------------------|--------------------------|---------------------------------------------|---------------------------------------|
//! | Queue Depth High | MQRC_Q_DEPTH_HIGH (2224) | QDPHIEV enabled and an MQPUT brings CURDEPTH to QDEPTHHI % of MAXDEPTH or more | QDPHIEV disabled; QDPLOEV and QDPMAXEV enabled |
//! | Queue Depth Low  | MQRC_Q_DEPTH_LOW (2225)  | QDPLOEV enabled and an MQGET brings CURDEPTH to QDEPTHLO % of MAXDEPTH or less | QDPLOEV disabled; QDPHIEV and QDPMAXEV enabled |
//! | Queue Full       | MQRC_Q_FULL (2053)       | QDPMAXEV enabled and an MQPUT is refused because the queue is at MAXDEPTH       | QDPMAXEV disabled; QDPLOEV enabled            |
//!
//! The flips are stored like an ALTER, so DISPLAY QLOCAL shows them. Like every performance
//! event, each one also resets the queue's statistics (as RESET QSTATS does) and reports them.
//! CURDEPTH counts uncommitted puts, as MQ's does.
//!
//! Whoever puts: an application's MQPUT and the messages the queue manager puts itself
//! (reports, dead letters, trigger and event messages, through
//! [`crate::queue_manager_put::put_message`]) raise the same events. As MQ documents,
//! performance events "are not generated for the event queues themselves"
//! ([`EVENT_QUEUES`]): so writing an event never raises another, and an event lost to a full
//! event queue is not reported ("another event is not created").
//!
//! # The event message
//!
//! Put on SYSTEM.ADMIN.PERFM.EVENT (when it exists; otherwise the event is discarded, as MQ
//! discards events whose queue is not defined), non-persistent, outside any unit of work,
//! with MQMD Format MQFMT_EVENT ("MQEVENT "), MsgType datagram, Encoding MQENC_NATIVE. The
//! data is PCF, integers in that encoding:
//!
//! ```text
//! off len  structure  field           value
//!   0  36  MQCFH      Type            MQCFT_EVENT (7)
//!                     StrucLength     36
//!                     Version         MQCFH_VERSION_1 (1)
//!                     Command         MQCMD_PERFM_EVENT (45)
//!                     MsgSeqNumber    1
//!                     Control         MQCFC_LAST (1)
//!                     CompCode        MQCC_WARNING (1)
//!                     Reason          2224, 2225 or 2053
//!                     ParameterCount  6
//!  36  68  MQCFST     QMgrName        MQCA_Q_MGR_NAME (2015), 48 characters
//! 104  68  MQCFST     BaseObjectName  MQCA_BASE_OBJECT_NAME (2002): the queue, 48 characters
//! 172  16  MQCFIN     TimeSinceReset  MQIA_TIME_SINCE_RESET (35): seconds since statistics reset
//! 188  16  MQCFIN     HighQDepth      MQIA_HIGH_Q_DEPTH (36): greatest depth since then
//! 204  16  MQCFIN     MsgEnqCount     MQIA_MSG_ENQ_COUNT (37): messages put since then
//! 220  16  MQCFIN     MsgDeqCount     MQIA_MSG_DEQ_COUNT (38): messages got since then
//! 236                 (end)
//! ```
//!
//! An MQCFST is Type MQCFT_STRING (4), StrucLength (20 + string length), Parameter,
//! CodedCharSetId (the queue manager's), StringLength, then the string blank padded; an
//! MQCFIN is Type MQCFT_INTEGER (3), StrucLength 16, Parameter, Value.

use std::sync::Arc;

use ferrite_constants::{
    completion::MQCC_WARNING,
    pcf::*,
    reason::{MQRC_Q_DEPTH_HIGH, MQRC_Q_DEPTH_LOW, MQRC_Q_FULL},
    selector::*,
};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::{now_ms, LocalQueue, QueueManager, QueueStatistics};

use super::write_performance_event;
use crate::descriptor::QUEUE_MANAGER_CCSID;

/// The queue performance events go to.
pub const PERFORMANCE_EVENT_QUEUE: &str = "SYSTEM.ADMIN.PERFM.EVENT";

/// MQ's event queues, for which no performance event is generated (nor a service timer
/// kept): the queue manager, performance, configuration, command, channel, logger and
/// publish/subscribe event queues.
pub const EVENT_QUEUES: [&str; 7] = [
    "SYSTEM.ADMIN.QMGR.EVENT",
    PERFORMANCE_EVENT_QUEUE,
    "SYSTEM.ADMIN.CONFIG.EVENT",
    "SYSTEM.ADMIN.COMMAND.EVENT",
    "SYSTEM.ADMIN.CHANNEL.EVENT",
    "SYSTEM.ADMIN.LOGGER.EVENT",
    "SYSTEM.ADMIN.PUBSUB.EVENT",
];

/// `name` is one of MQ's event queues.
pub fn is_event_queue(name: &str) -> bool {
    EVENT_QUEUES.contains(&name)
}

/// Length of an object name in a PCF event (MQ_Q_NAME_LENGTH, MQ_Q_MGR_NAME_LENGTH).
const NAME_LENGTH: usize = 48;

/// Which depth event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthEvent {
    High,
    Low,
    Full,
}

impl DepthEvent {
    /// The event's reason code.
    pub fn reason(self) -> i32 {
        match self {
            DepthEvent::High => MQRC_Q_DEPTH_HIGH,
            DepthEvent::Low => MQRC_Q_DEPTH_LOW,
            DepthEvent::Full => MQRC_Q_FULL,
        }
    }
}

/// An MQPUT to `queue` failed with `reason`: Queue Full, if that is why and it is enabled.
pub fn put_failed(queue_manager: &QueueManager, queue: &Arc<LocalQueue>, reason: i32) {
    if reason == MQRC_Q_FULL
        && queue.with_definition(|d| d.queue_depth_max_event && !is_event_queue(&d.name))
    {
        raise(queue_manager, queue, DepthEvent::Full);
    }
}

/// `depth` is at least `percent` % of `max_depth`.
pub(super) fn reaches_percent(depth: u64, percent: u32, max_depth: u32) -> bool {
    depth * 100 >= u64::from(percent) * u64::from(max_depth)
}

/// `depth` is at most `percent` % of `max_depth`.
pub(super) fn at_or_below_percent(depth: u64, percent: u32, max_depth: u32) -> bool {
    depth * 100 <= u64::from(percent) * u64::from(max_depth)
}

/// Flip the queue's event switches as MQ does after `event`, then write the event message.
/// Nothing happens when PERFMEV is disabled, or when a concurrent call flipped them first.
pub fn raise(queue_manager: &QueueManager, queue: &Arc<LocalQueue>, event: DepthEvent) {
    if !queue_manager.queue_manager_attributes().performance_events {
        return;
    }
    let flipped = queue_manager.update_queue_definition(queue, |definition| {
        let enabled = match event {
            DepthEvent::High => &mut definition.queue_depth_high_event,
            DepthEvent::Low => &mut definition.queue_depth_low_event,
            DepthEvent::Full => &mut definition.queue_depth_max_event,
        };
        if !*enabled {
            return Ok(false);
        }
        *enabled = false;
        match event {
            DepthEvent::High => {
                definition.queue_depth_low_event = true;
                definition.queue_depth_max_event = true;
            }
            DepthEvent::Low => {
                definition.queue_depth_high_event = true;
                definition.queue_depth_max_event = true;
            }
            DepthEvent::Full => definition.queue_depth_low_event = true,
        }
        Ok(true)
    });
    match flipped {
        // A concurrent call flipped them first (and raised the event).
        Ok(false) => return,
        Ok(true) => {}
        Err(error) => log(&format!(
            "could not store the event switches of {} after {event:?}: {error}",
            queue.name_str()
        )),
    }
    let statistics = queue.reset_statistics(now_ms());
    write_performance_event(queue_manager, queue, event.reason(), &statistics);
}

/// The PCF data of a queue performance event with `reason` (layout in the module
/// documentation).
pub fn event_message(
    queue_manager_name: &str,
    queue_name: &str,
    reason: i32,
    statistics: &QueueStatistics,
    now_ms: u64,
    order: ByteOrder,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(236);
    let int = |out: &mut Vec<u8>, value: i32| match order {
        ByteOrder::Big => out.extend_from_slice(&value.to_be_bytes()),
        ByteOrder::Little => out.extend_from_slice(&value.to_le_bytes()),
    };
    for value in [
        MQCFT_EVENT,
        MQCFH_STRUC_LENGTH,
        MQCFH_VERSION_1,
        MQCMD_PERFM_EVENT,
        1,
        MQCFC_LAST,
        MQCC_WARNING,
        reason,
        6,
    ] {
        int(&mut out, value);
    }
    for (parameter, text) in [
        (MQCA_Q_MGR_NAME, queue_manager_name),
        (MQCA_BASE_OBJECT_NAME, queue_name),
    ] {
        for value in [
            MQCFT_STRING,
            MQCFST_STRUC_LENGTH_FIXED + NAME_LENGTH as i32,
            parameter,
            QUEUE_MANAGER_CCSID,
            NAME_LENGTH as i32,
        ] {
            int(&mut out, value);
        }
        let mut field = [b' '; NAME_LENGTH];
        for (slot, byte) in field.iter_mut().zip(text.bytes()) {
            *slot = byte;
        }
        out.extend_from_slice(&field);
    }
    let saturate = |value: u64| value.min(i32::MAX as u64) as i32;
    for (parameter, value) in [
        (
            MQIA_TIME_SINCE_RESET,
            saturate(now_ms.saturating_sub(statistics.reset_ms) / 1000),
        ),
        (MQIA_HIGH_Q_DEPTH, saturate(statistics.high_depth)),
        (MQIA_MSG_ENQ_COUNT, saturate(statistics.messages_in)),
        (MQIA_MSG_DEQ_COUNT, saturate(statistics.messages_out)),
    ] {
        for field in [MQCFT_INTEGER, MQCFIN_STRUC_LENGTH, parameter, value] {
            int(&mut out, field);
        }
    }
    debug_assert_eq!(out.len(), 236);
    out
}

fn log(text: &str) {
    eprintln!("ferrite depth events: {text}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_percentages_of_max_depth() {
        assert!(reaches_percent(8, 80, 10));
        assert!(!reaches_percent(7, 80, 10));
        assert!(at_or_below_percent(2, 20, 10));
        assert!(!at_or_below_percent(3, 20, 10));
        assert!(reaches_percent(999_999_999, 100, 999_999_999));
    }

    #[test]
    fn event_queues_are_mqs_system_admin_event_queues() {
        assert!(is_event_queue("SYSTEM.ADMIN.PERFM.EVENT"));
        assert!(is_event_queue("SYSTEM.ADMIN.QMGR.EVENT"));
        assert!(!is_event_queue("SYSTEM.DEAD.LETTER.QUEUE"));
        assert!(!is_event_queue("SYSTEM.ADMIN.PERFM.EVENTS"));
    }

    #[test]
    fn event_message_layout() {
        let statistics = QueueStatistics {
            messages_in: 12,
            messages_out: 3,
            high_depth: 9,
            reset_ms: 10_000,
        };
        let data = event_message(
            "QM1",
            "APP.Q",
            DepthEvent::High.reason(),
            &statistics,
            75_000,
            ByteOrder::Big,
        );
        assert_eq!(data.len(), 236);
        let int = |offset: usize| i32::from_be_bytes(data[offset..offset + 4].try_into().unwrap());
        assert_eq!(
            (0..9).map(|i| int(i * 4)).collect::<Vec<_>>(),
            [7, 36, 1, 45, 1, 1, 1, 2224, 6]
        );
        assert_eq!([int(36), int(40), int(44), int(52)], [4, 68, 2015, 48]);
        assert_eq!(&data[56..59], b"QM1");
        assert_eq!([int(104), int(112)], [4, 2002]);
        assert_eq!(&data[124..129], b"APP.Q");
        assert!(data[129..172].iter().all(|&b| b == b' '));
        assert_eq!([int(172), int(176), int(180), int(184)], [3, 16, 35, 65]);
        assert_eq!([int(188 + 8), int(188 + 12)], [36, 9]);
        assert_eq!([int(204 + 8), int(204 + 12)], [37, 12]);
        assert_eq!([int(220 + 8), int(220 + 12)], [38, 3]);
    }
}
