//! A message channel's flows after INITIAL_DATA, on a blocking socket owned by the channel's
//! MCA thread, for both ends.
//!
//! The partner's last committed sequence number travels in STATUS_DATA with Code 0 and Value
//! the number: the receiving MCA sends it once as soon as it has opened its agent (the
//! sender resolves its in-doubt batch with it, `SendingAgent::resolve`) and again to confirm
//! each batch (answering the CONFIRM_REQUEST of the batch's last message). A refusal is
//! STATUS_DATA with a non-zero Code (`ferrite_protocol::control::status_code`), Value the MQ
//! reason, and CLOSE_CHANNEL; a message numbered beyond any batch that can follow the last
//! committed one is refused with Code MSG_SEQUENCE_ERROR and Value the number expected
//! (AMQ9526 at both ends). HEARTBEAT with CONFIRM_REQUEST is answered, PING_DATA echoed,
//! and RESET_DATA (a RESET CHANNEL at the sender) sets the number the receiver expects next,
//! answered with STATUS_DATA Code 0 and the new committed number.

use std::sync::Arc;

use ferrite_protocol::compression::SegmentCompression;
use ferrite_protocol::control::{status_code, Status};
use ferrite_protocol::message_channel::{channel_header, MessageData, PingData, ResetData};
use ferrite_protocol::segment::{ControlFlags1, Segment, SegmentType};
use ferrite_protocol::transport::Transport;
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::statistics::ChannelStatistics;
use ferrite_queue_manager::{ChannelDefinition, QueueManager};

use super::indicators::ChannelIndicators;
use super::negotiation::Agreed;
use super::sender_mca::segments_used;
use super::ReceivingAgent;

/// The encoding of the flows Ferrite sends (MQENC_NATIVE on little-endian machines).
pub const FLOW_ENCODING: i32 = 546;
/// The CCSID of the flows Ferrite sends.
pub const FLOW_CCSID: u16 = 1208;
/// The byte order of the flows Ferrite sends.
pub const FLOW_ORDER: ByteOrder = ByteOrder::Little;

/// Writes one flow of `segment_type` (no flags beyond FIRST|LAST).
pub fn send_flow(
    transport: &mut Transport,
    segment_type: SegmentType,
    payload: &[u8],
) -> Result<(), String> {
    let header = channel_header(segment_type, FLOW_ORDER, FLOW_ENCODING, FLOW_CCSID, 0);
    transport
        .write_flow(&header, payload)
        .map_err(|e| e.to_string())
}

/// Writes STATUS_DATA `code` with `value` (`close`: CLOSE_CHANNEL).
pub fn send_status(
    transport: &mut Transport,
    code: i32,
    value: i32,
    close: bool,
) -> Result<(), String> {
    let flags = if close {
        ControlFlags1::CLOSE_CHANNEL
    } else {
        0
    };
    let header = channel_header(
        SegmentType::StatusData,
        FLOW_ORDER,
        FLOW_ENCODING,
        FLOW_CCSID,
        flags,
    );
    let status = Status {
        code,
        value: Some(value),
        extra: Vec::new(),
        trailing: Vec::new(),
    };
    transport
        .write_flow(&header, &status.encode(FLOW_ORDER))
        .map_err(|error| error.to_string())
}

/// The sequence number a STATUS_DATA flow confirms, or why the partner refused.
pub fn confirmed_sequence(flow: &Segment) -> Result<u32, String> {
    if flow.header.segment_type != SegmentType::StatusData {
        return Err(format!(
            "{:?} where STATUS_DATA was expected",
            flow.header.segment_type
        ));
    }
    let status =
        Status::decode(&flow.payload, flow.header.byte_order).map_err(|e| e.to_string())?;
    match (status.code, status.value) {
        (0, Some(sequence)) => Ok(sequence as u32),
        (status_code::MSG_SEQUENCE_ERROR, expected) => Err(format!(
            "AMQ9526E message sequence number error: the partner expected {}; RESET CHANNEL at both ends",
            expected.unwrap_or(0)
        )),
        (code, value) => Err(format!(
            "the partner refused: status {code}, reason {}",
            value.unwrap_or(0)
        )),
    }
}

/// Counters a running receiving MCA keeps (DISPLAY CHSTATUS).
pub trait ReceiverProgress {
    fn indicators(&self) -> &ChannelIndicators;
    fn message_received(&self, bytes: usize);
    fn batch_committed(&self, sequence: u32);
}

/// The receiving MCA of `channel` on a negotiated socket, until the partner closes or the
/// socket ends (STOP CHANNEL shuts it down). A batch not confirmed when it ends is backed out.
/// `partner`: the partner queue manager's name and address, for the channel's statistics
/// (STATCHL).
pub fn serve_receiver(
    mut transport: Transport,
    queue_manager: Arc<QueueManager>,
    channel: &ChannelDefinition,
    agreed: Agreed,
    progress: &dyn ReceiverProgress,
    partner: (&str, &str),
) -> Result<(), String> {
    transport.set_compression(agreed.compression);
    progress.indicators().negotiated(agreed.compression);
    let mut channel = channel.clone();
    agreed.apply(&mut channel);
    let mut agent = match ReceivingAgent::open(queue_manager.clone(), &channel) {
        Ok(agent) => agent,
        Err(error) => {
            let _ = send_status(
                &mut transport,
                status_code::CHANNEL_UNAVAILABLE,
                error.reason,
                true,
            );
            return Err(format!("cannot start the receiving agent: {error}"));
        }
    };
    send_status(&mut transport, 0, agent.last_committed() as i32, false)?;
    let statistics = queue_manager.channel_statistics(&channel, partner.0, partner.1);
    let counted = Counted {
        progress,
        statistics: statistics.as_deref(),
        batch_size: agreed.batch_size,
    };
    let outcome = receive_flows(&mut transport, &mut agent, &counted, agreed);
    if outcome.is_err() {
        let _ = agent.abandon();
    }
    outcome
}

/// Where a receiving MCA counts: its DISPLAY CHSTATUS progress and, when STATCHL asks, its
/// statistics (a batch is full when it has the negotiated BATCHSZ messages).
struct Counted<'a> {
    progress: &'a dyn ReceiverProgress,
    statistics: Option<&'a ChannelStatistics>,
    batch_size: u32,
}

fn receive_flows(
    transport: &mut Transport,
    agent: &mut ReceivingAgent,
    counted: &Counted,
    agreed: Agreed,
) -> Result<(), String> {
    let progress = counted.progress;
    let mut batch_messages = 0u32;
    loop {
        let before = transport.decompression();
        let flow = match transport.read_flow() {
            Ok(flow) => flow,
            Err(ferrite_protocol::transport::TransportError::Closed) => return Ok(()),
            Err(ferrite_protocol::transport::TransportError::Protocol(error)) => {
                // A segment that breaks the protocol (one that does not decompress among
                // them) ends the channel; the open batch is backed out and sent again.
                let _ = send_status(transport, status_code::REMOTE_PROTOCOL_ERROR, 0, true);
                return Err(format!(
                    "AMQ9504E a protocol error was detected for the channel: {error}"
                ));
            }
            Err(error) => return Err(error.to_string()),
        };
        if flow.header.segment_type == SegmentType::MessageData {
            let after = transport.decompression();
            let flags = transport.take_compression_flags();
            let raw = flow.payload.len() as u64;
            let expanded = (after.decompressed_bytes - before.decompressed_bytes)
                .saturating_sub(after.compressed_bytes - before.compressed_bytes);
            progress.indicators().message_moved(
                segments_used(SegmentCompression::NONE, flags, agreed.compression),
                raw,
                raw.saturating_sub(expanded),
                after.nanoseconds - before.nanoseconds,
            );
        }
        let order = flow.header.byte_order;
        let confirm = flow.header.flags1.contains(ControlFlags1::CONFIRM_REQUEST);
        match flow.header.segment_type {
            SegmentType::MessageData => {
                let message =
                    MessageData::decode(&flow.payload, order).map_err(|e| e.to_string())?;
                let sequence = message.header.sequence_number;
                if let Err(expected) = agent.check_sequence(sequence) {
                    let _ = send_status(
                        transport,
                        status_code::MSG_SEQUENCE_ERROR,
                        expected as i32,
                        true,
                    );
                    return Err(format!(
                        "AMQ9526E message sequence number error: received {sequence}, expected {expected}; RESET CHANNEL at both ends"
                    ));
                }
                if let Err(error) = agent.receive(&message) {
                    let _ = send_status(transport, status_code::CAN_NOT_STORE, error.reason, true);
                    return Err(format!("a message could not be put: {error}"));
                }
                progress.message_received(message.message.len());
                batch_messages += 1;
                if let Some(statistics) = counted.statistics {
                    statistics.message(message.message.len());
                }
                if confirm {
                    match agent.end_of_batch() {
                        Ok(sequence) => {
                            progress.batch_committed(sequence);
                            if let Some(statistics) = counted.statistics {
                                statistics.batch(batch_messages >= counted.batch_size);
                            }
                            batch_messages = 0;
                            send_status(transport, 0, sequence as i32, false)?;
                        }
                        Err(error) => {
                            let _ = send_status(
                                transport,
                                status_code::CAN_NOT_STORE,
                                error.reason,
                                true,
                            );
                            return Err(format!("the batch could not be committed: {error}"));
                        }
                    }
                }
            }
            SegmentType::Heartbeat if confirm => {
                send_flow(transport, SegmentType::Heartbeat, &[])?;
            }
            SegmentType::Heartbeat => {}
            SegmentType::PingData => {
                let ping = PingData::decode(&flow.payload, order).map_err(|e| e.to_string())?;
                send_flow(transport, SegmentType::PingData, &ping.encode(FLOW_ORDER))?;
            }
            SegmentType::ResetData => {
                let reset = ResetData::decode(&flow.payload, order).map_err(|e| e.to_string())?;
                let committed = agent
                    .reset_sequence(reset.sequence_number)
                    .map_err(|e| e.to_string())?;
                progress.batch_committed(committed);
                send_status(transport, 0, committed as i32, false)?;
            }
            SegmentType::StatusData => return Ok(()),
            other => return Err(format!("protocol error: {other:?} on a message channel")),
        }
    }
}
