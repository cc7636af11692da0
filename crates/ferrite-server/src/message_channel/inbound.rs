//! An inbound socket whose INITIAL_DATA names a RCVR channel (or a RQSTR channel that a
//! sender calls back, which receives as a RCVR does). Its dispatcher negotiates
//! (`negotiation::answer`), applies CHLAUTH (BLOCKUSER against the user the channel runs
//! as: its MCAUSER, or the queue manager's own user when MCAUSER is blank, as MQ does) and
//! allows one running instance of the channel; the socket then leaves the dispatcher for the
//! receiving MCA's own thread, where the agent's puts and commits (which may wait for the
//! log) block nothing but that channel. The instance stays in the channel initiator's list
//! (DISPLAY CHSTATUS, STOP CHANNEL) until the thread ends.
//!
//! A requester's INITIAL_DATA (CAP1_REQUEST_INITIATION) names a SVR channel, whose sending
//! MCA then runs on the requester's socket ([`start_server`]), or a SDR channel, which closes
//! the socket and starts itself to its CONNAME ([`call_back`]).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use ferrite_constants::misc::{MQRQ_CHANNEL_STOPPED_ERROR, MQRQ_CHANNEL_STOPPED_OK};
use ferrite_mqi::channel_events::MessageChannelEvent;
use ferrite_protocol::transport::{Stream, Transport};
use ferrite_queue_manager::ChannelDefinition;

use super::negotiation::Agreed;
use super::session::{serve_receiver, ReceiverProgress};
use crate::channel_initiator::{ChannelInstance, ChinitShared};

/// A negotiated RCVR socket on its way to its MCA thread.
pub(crate) struct ReceiverHandoff {
    pub channel: ChannelDefinition,
    pub agreed: Agreed,
    /// The sending queue manager's name (from its INITIAL_DATA).
    pub partner_queue_manager: String,
}

/// What becomes of a message channel's socket when the dispatcher lets it go.
pub(crate) enum Handoff {
    /// A sender's socket, to the receiving MCA (RCVR, or RQSTR called back).
    Receiver(ReceiverHandoff),
    /// A requester's socket, to the SVR channel's sending MCA ([`start_server`]).
    Server(ChannelDefinition),
    /// A requester asked a SDR channel: the socket closes and the SDR starts itself
    /// (callback) to its CONNAME.
    Callback(String),
}

/// Runs the SVR channel `channel`'s sending MCA on `stream`, which a requester connected and
/// asked it to send on; the listener's instance of the socket is forgotten (the MCA is listed
/// among the channel initiator's senders).
pub(crate) fn start_server(
    chinit: &Arc<ChinitShared>,
    instance: &ChannelInstance,
    stream: Stream,
    channel: ChannelDefinition,
) {
    let name = channel.name.clone();
    let partner = format!("{}({})", instance.peer.ip(), instance.peer.port());
    chinit.forget_instance(instance.id);
    if let Err(error) = chinit.start_requested_server(channel, stream, partner) {
        (chinit.log)(&format!(
            "CSQX599E ferrite channel {name}: the requested server cannot start: {error}"
        ));
    }
}

/// A SDR channel a requester asked for starts itself to its CONNAME (MQ's callback).
pub(crate) fn call_back(chinit: &Arc<ChinitShared>, name: &str) {
    match chinit.start_sender(name) {
        Ok(_) => (chinit.log)(&format!(
            "CSQX500I ferrite channel {name} started at its requester's request (callback)"
        )),
        Err(error) => (chinit.log)(&format!(
            "CSQX599E ferrite channel {name}: callback to the requester failed: {error}"
        )),
    }
}

/// The user a receiving channel runs as: its MCAUSER, else the queue manager's (the user
/// running this process).
pub(crate) fn running_user(channel: &ChannelDefinition) -> String {
    let mca_user = channel.mca_user.trim();
    if !mca_user.is_empty() {
        return mca_user.to_string();
    }
    process_user().unwrap_or_default()
}

/// The name of the user running this process.
fn process_user() -> Option<String> {
    let mut buffer = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: getpwuid_r writes an entry whose strings point into `buffer`, which outlives
    // the read of pw_name below.
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    let status = unsafe {
        libc::getpwuid_r(
            libc::geteuid(),
            &mut entry,
            buffer.as_mut_ptr(),
            buffer.len(),
            &mut found,
        )
    };
    if status != 0 || found.is_null() || entry.pw_name.is_null() {
        return None;
    }
    // SAFETY: a NUL-terminated string inside `buffer`.
    let name = unsafe { std::ffi::CStr::from_ptr(entry.pw_name) };
    Some(name.to_string_lossy().into_owned())
}

impl ReceiverProgress for ChannelInstance {
    fn indicators(&self) -> &super::indicators::ChannelIndicators {
        &self.indicators
    }

    fn message_received(&self, bytes: usize) {
        self.note_message();
        self.bytes_received
            .fetch_add(bytes as u64, Ordering::Relaxed);
    }

    fn batch_committed(&self, sequence: u32) {
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.last_sequence.store(sequence, Ordering::Relaxed);
    }
}

/// Channel Stopped of a receiving channel (no transmission queue).
fn stopped<'a>(
    channel: &'a str,
    qualifier: i32,
    (error_identifier, reason): (i32, i32),
    connection_name: &'a str,
) -> MessageChannelEvent<'a> {
    MessageChannelEvent::Stopped {
        qualifier,
        channel,
        error_identifier,
        reason,
        transmission_queue: None,
        connection_name,
    }
}

/// Runs the receiving MCA of `handoff` on its own thread over `stream` (blocking); Channel
/// Started and Channel Stopped (or Stopped By User) events as CHLEV asks.
pub(crate) fn start_receiver(
    chinit: Arc<ChinitShared>,
    instance: Arc<ChannelInstance>,
    stream: Stream,
    handoff: ReceiverHandoff,
) {
    chinit.live_conversations.fetch_add(1, Ordering::AcqRel);
    let id = instance.id;
    let name = format!("mca-{}", handoff.channel.name);
    let running = chinit.clone();
    let spawned = std::thread::Builder::new().name(name).spawn(move || {
        let chinit = running;
        let mut transport = Transport::new(stream);
        transport.set_limits(
            handoff.agreed.max_transmission_size,
            handoff.agreed.max_message_length,
        );
        let channel = &handoff.channel.name;
        let connection_name = format!("{}({})", instance.peer.ip(), instance.peer.port());
        super::channel_event(
            &chinit.queue_manager,
            MessageChannelEvent::Started {
                channel,
                transmission_queue: None,
                connection_name: &connection_name,
            },
            &chinit.log,
        );
        let outcome = serve_receiver(
            transport,
            chinit.queue_manager.clone(),
            &handoff.channel,
            handoff.agreed,
            instance.as_ref(),
            (&handoff.partner_queue_manager, &connection_name),
        );
        let stopped_by_user =
            instance.stopping.load(Ordering::Acquire) && !chinit.stopping.load(Ordering::Acquire);
        let event = match &outcome {
            _ if stopped_by_user => MessageChannelEvent::StoppedByUser { channel },
            Ok(()) => stopped(channel, MQRQ_CHANNEL_STOPPED_OK, (0, 0), &connection_name),
            Err(_) if instance.stopping.load(Ordering::Acquire) => {
                stopped(channel, MQRQ_CHANNEL_STOPPED_OK, (0, 0), &connection_name)
            }
            Err(error) => {
                (chinit.log)(&format!(
                    "CSQX208E ferrite channel {channel} from {}: ended: {error}",
                    instance.peer
                ));
                let identifiers = super::error_identifiers(error);
                stopped(
                    channel,
                    MQRQ_CHANNEL_STOPPED_ERROR,
                    identifiers,
                    &connection_name,
                )
            }
        };
        super::channel_event(&chinit.queue_manager, event, &chinit.log);
        chinit.forget_instance(instance.id);
        chinit.live_conversations.fetch_sub(1, Ordering::AcqRel);
    });
    if let Err(error) = spawned {
        (chinit.log)(&format!(
            "ferrite listener: cannot start a receiving MCA thread: {error}"
        ));
        chinit.forget_instance(id);
        chinit.live_conversations.fetch_sub(1, Ordering::AcqRel);
    }
}
