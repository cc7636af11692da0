//! INITIAL_DATA between two queue managers: the sending MCA proposes its channel's name and
//! limits in the `ID` structure (`ferrite_protocol::initial_data`), the receiving MCA answers
//! with each value negotiated down to what its own definition of the channel allows, as MQ
//! does: the lower batch size (BATCHSZ), message length (MAXMSGL, 0 meaning the queue
//! manager's limit), transmission size and sequence wrap (SEQWRAP), and the higher heartbeat
//! interval (HBINT). The sender runs with the answer's values.
//!
//! Compression (`ferrite_protocol::compression`): the proposal lists the sender's COMPHDR and
//! COMPMSG in order of preference; the answer names, first in each list, the proposer's
//! first technique the receiver's own COMPHDR or COMPMSG allows (ANY allows all), or NONE
//! when they share none.

use ferrite_protocol::codec::MqChars;
use ferrite_protocol::compression::{
    choose, decode_list, encode_list, Compression, SegmentCompression, HEADER_TECHNIQUES,
    MESSAGE_TECHNIQUES,
};
use ferrite_protocol::initial_data::*;
use ferrite_protocol::wire::{self, chars};
use ferrite_queue_manager::objects::message_channel::{ChannelType, NonPersistentMessageSpeed};
use ferrite_queue_manager::{ChannelDefinition, QueueManager};

/// The FAP level Ferrite proposes and accepts on message channels.
pub const MESSAGE_CHANNEL_FAP_LEVEL: u8 = 10;

/// CapFlags1 a message channel offers: message sequence numbers and split messages.
const MESSAGE_CHANNEL_CAPABILITIES1: u8 = CAP1_MSG_SEQ | CAP1_SPLIT_MESSAGES;

/// What both ends of a message channel run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agreed {
    pub batch_size: u32,
    pub max_message_length: u32,
    pub max_transmission_size: u32,
    pub sequence_wrap: u32,
    pub heartbeat_interval: u32,
    /// COMPHDR and COMPMSG in force.
    pub compression: SegmentCompression,
    /// NPMSPEED(FAST) at both ends (CapFlags2 FAST_MESSAGES_REQUIRED proposed and answered);
    /// otherwise both run NPMSPEED(NORMAL), as MQ does on a mismatch.
    pub fast_messages: bool,
}

impl Agreed {
    /// `channel` as both ends run it: BATCHSZ, SEQWRAP and NPMSPEED as agreed.
    pub fn apply(&self, channel: &mut ChannelDefinition) {
        channel.message.batch_size = self.batch_size;
        channel.message.sequence_number_wrap = self.sequence_wrap;
        channel.message.non_persistent_message_speed = if self.fast_messages {
            NonPersistentMessageSpeed::Fast
        } else {
            NonPersistentMessageSpeed::Normal
        };
    }
}

/// Whether `channel` asks for NPMSPEED(FAST).
fn fast(channel: &ChannelDefinition) -> bool {
    channel.message.non_persistent_message_speed == NonPersistentMessageSpeed::Fast
}

/// A channel's COMPHDR or COMPMSG (MQCOMPRESS_* values) as techniques.
fn techniques(list: &[i32]) -> Vec<Compression> {
    list.iter()
        .filter_map(|value| Compression::from_mqcompress(*value))
        .collect()
}

/// The technique an answer's list names first (NONE when it names none).
fn answered(entries: &[u8]) -> Compression {
    decode_list(entries)
        .first()
        .copied()
        .unwrap_or(Compression::None)
}

/// A channel's MAXMSGL as a number (0: the queue manager's limit).
fn max_message_length(channel: &ChannelDefinition) -> u32 {
    match channel.max_message_length {
        0 => wire::MAX_MESSAGE_SIZE,
        length => length.min(wire::MAX_MESSAGE_SIZE),
    }
}

/// The sending MCA's proposal for `channel` (SDR or SVR) from `queue_manager`.
pub fn proposal(
    channel: &ChannelDefinition,
    queue_manager: &QueueManager,
    max_transmission_size: u32,
) -> InitialData {
    debug_assert!(channel.channel_type.sends());
    own_initial_data(channel, queue_manager, max_transmission_size)
}

/// A requester's (RQSTR) INITIAL_DATA: its channel's name and limits with
/// CAP1_REQUEST_INITIATION, asking the partner's SVR to send on this connection (or its SDR
/// to call back, starting itself to this queue manager).
pub fn request(
    channel: &ChannelDefinition,
    queue_manager: &QueueManager,
    max_transmission_size: u32,
) -> InitialData {
    debug_assert_eq!(channel.channel_type, ChannelType::Requester);
    let mut id = own_initial_data(channel, queue_manager, max_transmission_size);
    id.cap_flags1 |= CAP1_REQUEST_INITIATION;
    id
}

/// Whether an INITIAL_DATA asks for initiation (a requester's).
pub fn is_request(id: &InitialData) -> bool {
    id.cap_flags1 & CAP1_REQUEST_INITIATION != 0 && id.cap_flags1 & CAP1_MQREQUEST == 0
}

/// The answer of a SVR or SDR to a requester's `request`: the request's flags echoed, the
/// channel's name, this queue manager's name and identity. A FAP level below the lowest
/// spoken is answered with the IniErrFlags1 bit. The limits are negotiated afterwards, when
/// the sending end proposes them.
pub fn answer_request(request: &InitialData, queue_manager: &QueueManager) -> InitialData {
    let mut fap_level = request.fap_level.min(MESSAGE_CHANNEL_FAP_LEVEL);
    let mut errors = 0;
    if fap_level < wire::MIN_FAP_LEVEL {
        errors |= ERR1_FAP_LEVEL;
        fap_level = MESSAGE_CHANNEL_FAP_LEVEL;
    }
    let mut reply = InitialData::new(fap_level);
    reply.cap_flags1 =
        request.cap_flags1 & (MESSAGE_CHANNEL_CAPABILITIES1 | CAP1_REQUEST_INITIATION);
    reply.ini_err_flags1 = errors;
    reply.max_msgs_per_batch = request.max_msgs_per_batch;
    reply.max_transmission_size = request.max_transmission_size;
    reply.max_message_size = request.max_message_size;
    reply.sequence_wrap_value = request.sequence_wrap_value;
    reply.channel_name = request.channel_name;
    reply.ccsid = 1208;
    reply.qmgr_name = chars(queue_manager.name());
    reply.heartbeat_interval = request.heartbeat_interval;
    reply.process_id = std::process::id();
    reply.product_id = chars(wire::PRODUCT_ID);
    reply.qmgr_id = chars(&ferrite_mqi::queue_manager_identifier(queue_manager));
    reply
}

/// INITIAL_DATA carrying `channel`'s own name and limits.
fn own_initial_data(
    channel: &ChannelDefinition,
    queue_manager: &QueueManager,
    max_transmission_size: u32,
) -> InitialData {
    let mut id = InitialData::new(MESSAGE_CHANNEL_FAP_LEVEL);
    id.cap_flags1 = MESSAGE_CHANNEL_CAPABILITIES1;
    if fast(channel) {
        id.cap_flags2 |= CAP2_FAST_MESSAGES_REQUIRED;
    }
    id.max_msgs_per_batch = channel.message.batch_size.min(u32::from(u16::MAX)) as u16;
    id.max_transmission_size = max_transmission_size;
    id.max_message_size = max_message_length(channel);
    id.sequence_wrap_value = channel.message.sequence_number_wrap;
    id.channel_name = chars(&channel.name);
    id.ccsid = 1208;
    id.qmgr_name = chars(queue_manager.name());
    id.heartbeat_interval = channel.heartbeat_interval;
    id.hdr_comp_list = encode_list(
        &techniques(&channel.message.header_compression),
        &HEADER_TECHNIQUES,
    );
    id.msg_comp_list = encode_list(
        &techniques(&channel.message.message_compression),
        &MESSAGE_TECHNIQUES,
    );
    id.process_id = std::process::id();
    id.product_id = chars(wire::PRODUCT_ID);
    id.qmgr_id = chars(&ferrite_mqi::queue_manager_identifier(queue_manager));
    id
}

/// The receiving MCA's answer to `proposal` for its `channel` (RCVR or RQSTR): every value
/// negotiated down (HBINT up). Values it cannot run with at all (a FAP level below the
/// lowest it speaks, a transmission size below MQ's minimum, a zero batch size, message
/// length or sequence wrap) are answered with its own value and the IniErrFlags1 bit.
pub fn answer(
    proposal: &InitialData,
    channel: &ChannelDefinition,
    queue_manager: &QueueManager,
    max_transmission_size: u32,
) -> InitialData {
    let mut errors = 0u8;
    let mut lower = |proposed: u32, own: u32, bit: u8| {
        if proposed == 0 {
            errors |= bit;
            own
        } else {
            proposed.min(own)
        }
    };
    let batch_size = lower(
        u32::from(proposal.max_msgs_per_batch),
        channel.message.batch_size.min(u32::from(u16::MAX)),
        ERR1_MAX_MSG_PER_BATCH,
    );
    let max_message_size = lower(
        proposal.max_message_size,
        max_message_length(channel),
        ERR1_MAX_MSG_SIZE,
    );
    let mut transmission_size = lower(
        proposal.max_transmission_size,
        max_transmission_size,
        ERR1_MAX_TRANSMISSION_SIZE,
    );
    let sequence_wrap = lower(
        proposal.sequence_wrap_value,
        channel.message.sequence_number_wrap,
        ERR1_SEQ_WRAP,
    );
    if transmission_size < wire::MIN_TRANSMISSION_SIZE {
        errors |= ERR1_MAX_TRANSMISSION_SIZE;
        transmission_size = wire::MIN_TRANSMISSION_SIZE;
    }
    let mut fap_level = proposal.fap_level.min(MESSAGE_CHANNEL_FAP_LEVEL);
    if fap_level < wire::MIN_FAP_LEVEL {
        errors |= ERR1_FAP_LEVEL;
        fap_level = MESSAGE_CHANNEL_FAP_LEVEL;
    }
    let mut reply = InitialData::new(fap_level);
    reply.cap_flags1 = proposal.cap_flags1 & MESSAGE_CHANNEL_CAPABILITIES1;
    reply.ini_err_flags1 = errors;
    if fast(channel) {
        reply.cap_flags2 = proposal.cap_flags2 & CAP2_FAST_MESSAGES_REQUIRED;
    }
    reply.max_msgs_per_batch = batch_size as u16;
    reply.max_transmission_size = transmission_size;
    reply.max_message_size = max_message_size;
    reply.sequence_wrap_value = sequence_wrap;
    reply.channel_name = proposal.channel_name;
    reply.ccsid = 1208;
    reply.qmgr_name = chars(queue_manager.name());
    reply.heartbeat_interval = proposal.heartbeat_interval.max(channel.heartbeat_interval);
    let header = choose(
        &decode_list(&proposal.hdr_comp_list),
        &techniques(&channel.message.header_compression),
    );
    let message = choose(
        &decode_list(&proposal.msg_comp_list),
        &techniques(&channel.message.message_compression),
    );
    reply.hdr_comp_list = encode_list(&[header], &HEADER_TECHNIQUES);
    reply.msg_comp_list = encode_list(&[message], &MESSAGE_TECHNIQUES);
    reply.process_id = std::process::id();
    reply.product_id = chars(wire::PRODUCT_ID);
    reply.qmgr_id = chars(&ferrite_mqi::queue_manager_identifier(queue_manager));
    reply
}

/// What an answer without IniErrFlags1 agrees; `None` when the answer refused a value or
/// raised one above the proposal (a partner that breaks the negotiation).
pub fn agreed(proposal: &InitialData, answer: &InitialData) -> Option<Agreed> {
    let lowered = |answered: u32, proposed: u32| answered >= 1 && answered <= proposed;
    let acceptable = answer.ini_err_flags1 == 0
        && lowered(
            u32::from(answer.max_msgs_per_batch),
            u32::from(proposal.max_msgs_per_batch),
        )
        && lowered(answer.max_message_size, proposal.max_message_size)
        && lowered(answer.max_transmission_size, proposal.max_transmission_size)
        && lowered(answer.sequence_wrap_value, proposal.sequence_wrap_value)
        && answer.max_transmission_size >= wire::MIN_TRANSMISSION_SIZE;
    // The answer may choose NONE or a technique the proposal offered, nothing else.
    let header = answered(&answer.hdr_comp_list);
    let message = answered(&answer.msg_comp_list);
    let offered = |chosen: Compression, list: &[u8]| {
        chosen == Compression::None || decode_list(list).contains(&chosen)
    };
    let acceptable = acceptable
        && offered(header, &proposal.hdr_comp_list)
        && offered(message, &proposal.msg_comp_list)
        && matches!(header, Compression::None | Compression::System)
        && !matches!(message, Compression::System | Compression::Any);
    acceptable.then_some(Agreed {
        batch_size: u32::from(answer.max_msgs_per_batch),
        max_message_length: answer.max_message_size,
        max_transmission_size: answer.max_transmission_size,
        sequence_wrap: answer.sequence_wrap_value,
        heartbeat_interval: answer.heartbeat_interval,
        compression: SegmentCompression { header, message },
        fast_messages: proposal.cap_flags2 & answer.cap_flags2 & CAP2_FAST_MESSAGES_REQUIRED != 0,
    })
}

/// The partner queue manager's name in an ID.
pub fn partner_queue_manager(id: &InitialData) -> String {
    let name: MqChars<48> = id.qmgr_name;
    name.trimmed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_protocol::ByteOrder;
    use ferrite_test_kit::{create, mqsc_ok, open};

    fn queue_manager(directory: &std::path::Path, name: &str) -> std::sync::Arc<QueueManager> {
        create(directory, name);
        open(directory)
    }

    #[test]
    fn the_receiver_negotiates_each_value_down_and_heartbeat_up() {
        let directories = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
        let qm1 = queue_manager(directories[0].path(), "QM1");
        let qm2 = queue_manager(directories[1].path(), "QM2");
        mqsc_ok(&qm1, "DEFINE QLOCAL(XQ) USAGE(XMITQ)");
        mqsc_ok(
            &qm1,
            "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1(1414)') XMITQ(XQ) BATCHSZ(50) MAXMSGL(65536) SEQWRAP(999999) HBINT(30)",
        );
        mqsc_ok(
            &qm2,
            "DEFINE CHANNEL(TO.QM2) CHLTYPE(RCVR) BATCHSZ(20) MAXMSGL(8192) SEQWRAP(5000) HBINT(300)",
        );
        let sender = qm1.channel("TO.QM2").unwrap();
        let receiver = qm2.channel("TO.QM2").unwrap();
        let proposal = proposal(&sender, &qm1, 32768);

        // The proposal's bytes at the offsets of Wireshark's dissect_mq_id (little endian).
        let bytes = proposal.encode(ByteOrder::Little);
        assert_eq!(&bytes[0..4], b"ID  ");
        assert_eq!(bytes[4], MESSAGE_CHANNEL_FAP_LEVEL);
        assert_eq!(
            u16::from_le_bytes([bytes[10], bytes[11]]),
            50,
            "MaxMsgsPerBatch"
        );
        assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 32768);
        assert_eq!(u32::from_le_bytes(bytes[16..20].try_into().unwrap()), 65536);
        assert_eq!(
            u32::from_le_bytes(bytes[20..24].try_into().unwrap()),
            999_999
        );
        assert_eq!(&bytes[24..44], b"TO.QM2              ");
        assert_eq!(&bytes[48..51], b"QM1");
        assert_eq!(u32::from_le_bytes(bytes[96..100].try_into().unwrap()), 30);

        let reply = answer(&proposal, &receiver, &qm2, 16384);
        assert_eq!(reply.ini_err_flags1, 0);
        assert_eq!(partner_queue_manager(&reply), "QM2");
        assert_eq!(
            agreed(&proposal, &reply),
            Some(Agreed {
                batch_size: 20,
                max_message_length: 8192,
                max_transmission_size: 16384,
                sequence_wrap: 5000,
                heartbeat_interval: 300,
                compression: SegmentCompression::NONE,
                fast_messages: true,
            })
        );

        // A proposal the receiver cannot run with is answered with its own value and the bit.
        let mut broken = proposal.clone();
        broken.max_msgs_per_batch = 0;
        let reply = answer(&broken, &receiver, &qm2, 16384);
        assert_eq!(reply.ini_err_flags1, ERR1_MAX_MSG_PER_BATCH);
        assert_eq!(reply.max_msgs_per_batch, 20);
        assert_eq!(agreed(&broken, &reply), None);

        // An answer that raises a value is not agreed to.
        let mut raised = answer(&proposal, &receiver, &qm2, 16384);
        raised.max_message_size = 1 << 20;
        assert_eq!(agreed(&proposal, &raised), None);
        for qm in [qm1, qm2] {
            qm.shutdown().unwrap();
        }
    }

    /// COMPHDR and COMPMSG: the sender's lists at offsets 104 and 106 (one byte per entry,
    /// 0xFF for the unused ones); the receiver answers with its choice first.
    #[test]
    fn compression_is_the_senders_first_technique_the_receiver_allows() {
        let directories = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
        let qm1 = queue_manager(directories[0].path(), "QM1");
        let qm2 = queue_manager(directories[1].path(), "QM2");
        mqsc_ok(&qm1, "DEFINE QLOCAL(XQ) USAGE(XMITQ)");
        mqsc_ok(
            &qm1,
            "DEFINE CHANNEL(C) CHLTYPE(SDR) CONNAME('127.0.0.1(1414)') XMITQ(XQ) COMPHDR(SYSTEM) COMPMSG(ZLIBHIGH,RLE)",
        );
        let sender = qm1.channel("C").unwrap();
        let proposal = proposal(&sender, &qm1, 32768);
        let bytes = proposal.encode(ByteOrder::Little);
        assert_eq!(&bytes[104..106], &[8, 0xFF]);
        assert_eq!(&bytes[106..109], &[4, 1, 0xFF]);
        let cases = [
            (
                "COMPHDR(SYSTEM) COMPMSG(RLE)",
                Compression::System,
                Compression::Rle,
            ),
            ("COMPMSG(ANY)", Compression::None, Compression::ZlibHigh),
            (
                "COMPHDR(NONE) COMPMSG(ZLIBFAST)",
                Compression::None,
                Compression::None,
            ),
        ];
        for (attributes, header, message) in cases {
            mqsc_ok(
                &qm2,
                &format!("DEFINE CHANNEL(C) CHLTYPE(RCVR) REPLACE {attributes}"),
            );
            let receiver = qm2.channel("C").unwrap();
            let reply = answer(&proposal, &receiver, &qm2, 32768);
            let agreed = agreed(&proposal, &reply).expect("agreed");
            assert_eq!(
                agreed.compression,
                SegmentCompression { header, message },
                "{attributes}"
            );
        }
        // An answer choosing a technique the proposal did not offer is refused.
        let receiver = qm2.channel("C").unwrap();
        let mut reply = answer(&proposal, &receiver, &qm2, 32768);
        reply.msg_comp_list[0] = 2;
        assert_eq!(agreed(&proposal, &reply), None);
        for qm in [qm1, qm2] {
            qm.shutdown().unwrap();
        }
    }
}
