//! Triggered channels: the channel initiator serves SYSTEM.CHANNEL.INITQ as MQ's does. A
//! transmission queue defined with TRIGGER, INITQ(SYSTEM.CHANNEL.INITQ) and a TRIGTYPE gets a
//! trigger message there when messages arrive; the monitor (one thread of the channel
//! initiator, holding the queue open for input so that the queue manager triggers at all)
//! starts the sending channel the message names in its TriggerData, or, when that is blank,
//! the SDR channel whose XMITQ is the triggering queue. A channel already running is left as
//! it is. A queue manager without SYSTEM.CHANNEL.INITQ has no triggered channels.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use ferrite_constants::{encoding::MQENC_NATIVE, get_options::*, open_options::*, reason::*};
use ferrite_message::trigger_message::TriggerMessage;
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::objects::{ObjectDefinition, ObjectType};
use ferrite_queue_manager::QueueManager;

use crate::channel_initiator::ChinitShared;

/// The channel initiator's initiation queue.
pub const CHANNEL_INITIATION_QUEUE: &str = "SYSTEM.CHANNEL.INITQ";

/// The longest single wait for a trigger message (a stopping channel initiator is noticed
/// within it).
const WAIT_SLICE_MS: i32 = 500;
/// The longest trigger message read (an MQTM is 684 bytes).
const TRIGGER_MESSAGE_MAX: usize = 4096;

/// Starts the monitor's thread when the queue exists; None otherwise.
pub(crate) fn start_monitor(shared: Arc<ChinitShared>) -> Option<std::thread::JoinHandle<()>> {
    shared.queue_manager.queue(CHANNEL_INITIATION_QUEUE)?;
    std::thread::Builder::new()
        .name("chinit-trigger".to_string())
        .spawn(move || {
            if let Err(error) = serve(&shared) {
                if !shared.stopping.load(Ordering::Acquire) {
                    (shared.log)(&format!(
                        "ferrite channel initiator: {CHANNEL_INITIATION_QUEUE} no longer served: {error}"
                    ));
                }
            }
        })
        .ok()
}

fn serve(shared: &Arc<ChinitShared>) -> ferrite_mqi::MqResult<()> {
    let mut connection = Connection::connect(shared.queue_manager.clone(), "")?;
    let hobj = connection.open(
        &mut Mqod::queue(CHANNEL_INITIATION_QUEUE),
        MQOO_INPUT_SHARED | MQOO_FAIL_IF_QUIESCING,
    )?;
    let order = ByteOrder::from_mq_encoding(MQENC_NATIVE).expect("MQENC_NATIVE is an encoding");
    while !shared.stopping.load(Ordering::Acquire) {
        let mut md = Mqmd::default();
        let mut gmo =
            Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING);
        gmo.wait_interval = WAIT_SLICE_MS;
        let mut data = Vec::new();
        match connection.get_appending(hobj, &mut md, &mut gmo, &mut data, TRIGGER_MESSAGE_MAX) {
            Ok(_) => {}
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => continue,
            Err(error) => return Err(error),
        }
        let Ok(trigger) = TriggerMessage::decode(&data, order) else {
            (shared.log)(&format!(
                "ferrite channel initiator: a message on {CHANNEL_INITIATION_QUEUE} is not a trigger message; ignored"
            ));
            continue;
        };
        start_triggered(shared, &trigger);
    }
    Ok(())
}

/// The channel a trigger message asks for: its TriggerData, else the SDR channel serving the
/// triggering transmission queue.
fn triggered_channel(queue_manager: &QueueManager, trigger: &TriggerMessage) -> Option<String> {
    let named = trigger.trigger_data.trim();
    if !named.is_empty() {
        return Some(named.to_string());
    }
    queue_manager
        .objects(ObjectType::Channel)
        .into_iter()
        .find_map(|definition| match definition {
            ObjectDefinition::Channel(channel)
                if channel.channel_type.sends()
                    && !channel.message.connection_names.is_empty()
                    && channel.message.transmission_queue == trigger.q_name =>
            {
                Some(channel.name)
            }
            _ => None,
        })
}

fn start_triggered(shared: &Arc<ChinitShared>, trigger: &TriggerMessage) {
    let Some(name) = triggered_channel(&shared.queue_manager, trigger) else {
        (shared.log)(&format!(
            "ferrite channel initiator: no sending channel for triggered transmission queue {}",
            trigger.q_name
        ));
        return;
    };
    match shared.start_sender(&name) {
        Ok(_) => (shared.log)(&format!(
            "CSQX500I ferrite channel {name} started by a trigger on {}",
            trigger.q_name
        )),
        Err(error) if error.contains("already running") => {}
        Err(error) => (shared.log)(&format!(
            "ferrite channel initiator: trigger on {} could not start {name}: {error}",
            trigger.q_name
        )),
    }
}
