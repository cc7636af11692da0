//! What the bindings conversation and the TCP channel share about flows: why a connection
//! ends, and how a reply's segment header follows its request's.

use ferrite_protocol::control::Status;
use ferrite_protocol::initial_data::*;
use ferrite_protocol::segment::{ControlFlags1, SegmentHeader, SegmentType};
use ferrite_protocol::transport::TransportError;
use ferrite_protocol::uid::Uid;
use ferrite_protocol::wire::{self, chars};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::QueueManager;

/// Why a connection (or one of its conversations) ended.
#[derive(Debug)]
pub(crate) enum End {
    /// The peer closed, ended the conversation, or the listener is stopping.
    Closed,
    /// The peer broke the protocol (or the socket failed): logged.
    Error(String),
}

impl From<TransportError> for End {
    fn from(error: TransportError) -> End {
        match error {
            TransportError::Closed => End::Closed,
            other => End::Error(other.to_string()),
        }
    }
}

/// A protocol error: the connection ends and the error is logged.
pub(crate) fn protocol(what: impl std::fmt::Display) -> End {
    End::Error(format!("protocol error: {what}"))
}

/// The header of the INITIAL_DATA answering `request`: flagged ERROR when `errors` (the
/// reply's IniErrFlags1) names anything the proposal got wrong.
pub(crate) fn initial_data_reply_header(request: &SegmentHeader, errors: u8) -> SegmentHeader {
    let mut header = reply_header(request, SegmentType::InitialData);
    if errors != 0 {
        header.flags1 = ControlFlags1(header.flags1.0 | ControlFlags1::ERROR);
    }
    header
}

/// The STATUS_DATA with code 0 that answers CONAUTH_INFO (the client goes on with MQCONN):
/// its header and its payload.
pub(crate) fn conauth_accepted(
    request: &SegmentHeader,
    order: ByteOrder,
) -> (SegmentHeader, Vec<u8>) {
    let header = reply_header(request, SegmentType::StatusData);
    let status = Status {
        code: 0,
        value: Some(0),
        extra: Vec::new(),
        trailing: Vec::new(),
    };
    (header, status.encode(order))
}

/// The user a USERID_DATA flow names: its long user ID when the extension carries one, else
/// its 12-character UserIdentifier.
pub(crate) fn user_id_data_user(payload: &[u8], order: ByteOrder) -> Result<String, End> {
    let uid = Uid::decode(payload, order).map_err(protocol)?;
    let long = uid
        .extension
        .as_ref()
        .map(|extension| extension.long_user_id.trimmed())
        .unwrap_or_default();
    Ok(if long.is_empty() {
        uid.user_id.trimmed()
    } else {
        long
    })
}

/// The reply header for a request: the same header kind and ids, byte order, encoding and
/// CCSID, the reply's type, FIRST|LAST.
pub(crate) fn reply_header(request: &SegmentHeader, segment_type: SegmentType) -> SegmentHeader {
    let mut header = SegmentHeader::new(request.kind, segment_type, request.byte_order);
    header.ccsid = request.ccsid;
    header.encoding = request.encoding;
    header
}

/// What a listener accepts in INITIAL_DATA.
pub(crate) struct Acceptable {
    /// The highest FAP level spoken.
    pub fap_level: u8,
    /// The largest segment.
    pub max_transmission_size: u32,
    /// The largest message (a channel's MAXMSGL).
    pub max_message_size: u32,
    /// HeartbeatInterval answered.
    pub heartbeat_interval: u32,
    /// Conversations per socket answered.
    pub conversations_per_socket: u32,
}

/// The queue manager's answer to an INITIAL_DATA proposal: the lower FAP level, transmission
/// and message sizes, the CCSID if it is one Ferrite reads; for each value it cannot accept,
/// its own value and the IniErrFlags1 bit (the answer then goes with ERROR and the client may
/// propose again).
pub(crate) fn answer_initial_data(
    proposal: &InitialData,
    acceptable: &Acceptable,
    queue_manager: &QueueManager,
) -> InitialData {
    let mut errors = 0u8;
    let mut fap_level = proposal.fap_level.min(acceptable.fap_level);
    if fap_level < wire::MIN_FAP_LEVEL {
        errors |= ERR1_FAP_LEVEL;
        fap_level = wire::MIN_FAP_LEVEL;
    }
    let mut max_transmission_size = proposal
        .max_transmission_size
        .min(acceptable.max_transmission_size);
    if max_transmission_size < wire::MIN_TRANSMISSION_SIZE {
        errors |= ERR1_MAX_TRANSMISSION_SIZE;
        max_transmission_size = wire::MIN_TRANSMISSION_SIZE;
    }
    let mut max_message_size = proposal.max_message_size.min(acceptable.max_message_size);
    if max_message_size == 0 {
        errors |= ERR1_MAX_MSG_SIZE;
        max_message_size = acceptable.max_message_size;
    }
    let mut ccsid = proposal.ccsid;
    if ccsid != 0 && !wire::ACCEPTED_CCSIDS.contains(&ccsid) {
        errors |= ERR1_CCSID;
        ccsid = 1208;
    }
    let mut reply = InitialData::new(fap_level);
    reply.cap_flags1 = proposal.cap_flags1 & wire::CAPABILITIES1;
    reply.ini_err_flags1 = errors;
    reply.max_msgs_per_batch = proposal.max_msgs_per_batch;
    reply.max_transmission_size = max_transmission_size;
    reply.max_message_size = max_message_size;
    reply.sequence_wrap_value = proposal.sequence_wrap_value;
    reply.channel_name = proposal.channel_name;
    reply.ccsid = ccsid;
    reply.qmgr_name = chars(queue_manager.name());
    reply.heartbeat_interval = acceptable.heartbeat_interval;
    reply.conv_per_socket = acceptable.conversations_per_socket as i32;
    reply.process_id = std::process::id();
    reply.product_id = chars(wire::PRODUCT_ID);
    reply.qmgr_id = chars(&ferrite_mqi::queue_manager_identifier(queue_manager));
    reply
}
