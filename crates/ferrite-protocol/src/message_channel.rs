//! The message channel protocol between queue managers: the flows a sending MCA and a
//! receiving MCA exchange after INITIAL_DATA ([`crate::initial_data`], which already carries
//! the message-channel fields MaxMsgsPerBatch and SeqWrapValue).
//!
//! # Layouts
//!
//! Source: Wireshark `epan/dissectors/packet-mq.c` (`dissect_mq_pdu`: the `MSH` branch, the
//! STATUS, PING and RESET branches, and its comment "TSH MSH XQH MD [ PAYLOAD ]"). All
//! integers are in the segment's byte order; the segments are `TSH ` (28 bytes, no
//! conversation ids).
//!
//! ```text
//! MESSAGE_DATA (0x04): MSH, then the transmission-queue message (MQXQH with its MQMD, an
//! optional MQMDE, the data: docs/formats.md "Messages on a transmission queue")
//!  MSH, 20 bytes
//!   0 4 StrucId "MSH "
//!   4 4 SequenceNumber   the message's sequence number on the channel
//!   8 4 DataLength       bytes of the message carried by this flow (after the MSH)
//!  12 4 Reserved         0 (the dissector names it unknown1)
//!  16 4 MsgLength        the message's whole length (what the dissector reads as payload)
//!
//! RESET_DATA (0x03), 8 bytes              PING_DATA (0x07)
//!   0 4 Length (8)                          0 4 Length (of this structure)
//!   4 4 SequenceNumber (the next one)       4 . Data (echoed by the partner)
//!
//! STATUS_DATA (0x05): crate::control::Status (Length, Code, optional Value).
//! ```
//!
//! A message larger than the negotiated maximum transmission size travels in several TSH
//! segments of one MESSAGE_DATA flow, FIRST on the first and LAST on the last
//! ([`message_flow_segments`]); the MSH is only in the first. The last message of a batch asks
//! for the partner's confirmation with ControlFlags1 CONFIRM_REQUEST on its last segment.
//!
//! Confirmed by the dissector: the 20-byte MSH, the offsets of its five fields, which of them
//! is the payload length, and the RESET and PING layouts. Inferred (not visible in the
//! dissector): that DataLength counts the bytes in this flow and Reserved is written 0.

use crate::codec::{ByteOrder, ProtocolError, Reader, Result, Writer};
use crate::segment::{
    split_into_segments, ControlFlags1, HeaderKind, Segment, SegmentHeader, SegmentType,
};

/// `"MSH "`: the message segment header of a MESSAGE_DATA flow.
pub const MSH_STRUC_ID: [u8; 4] = *b"MSH ";
/// Length of an MSH.
pub const MSH_LENGTH: usize = 20;
/// Length of a RESET_DATA payload.
pub const RESET_DATA_LENGTH: usize = 8;
/// Longest PING_DATA payload this codec accepts (a ping's data is small: MQ sends a few
/// hundred bytes at most).
pub const PING_DATA_LENGTH_MAX: usize = 32 * 1024;

/// The MSH at the start of a MESSAGE_DATA flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageSegmentHeader {
    /// SequenceNumber.
    pub sequence_number: u32,
    /// DataLength: the message bytes this flow carries after the MSH.
    pub data_length: u32,
    /// Reserved (kept as read).
    pub reserved: u32,
    /// MsgLength: the whole message's length.
    pub message_length: u32,
}

impl MessageSegmentHeader {
    /// The MSH of a whole message of `length` bytes with `sequence_number`.
    pub fn for_message(sequence_number: u32, length: usize) -> Result<MessageSegmentHeader> {
        let length = u32::try_from(length).map_err(|_| ProtocolError::InvalidLength {
            what: "MESSAGE_DATA message length",
            value: length as i64,
        })?;
        Ok(MessageSegmentHeader {
            sequence_number,
            data_length: length,
            reserved: 0,
            message_length: length,
        })
    }

    /// Decodes the MSH at the start of `payload`.
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<MessageSegmentHeader> {
        let mut r = Reader::new(payload, order, "MSH");
        let id = r.array::<4>()?;
        if id != MSH_STRUC_ID {
            return Err(ProtocolError::BadStructId {
                what: "MSH",
                found: id,
            });
        }
        Ok(MessageSegmentHeader {
            sequence_number: r.u32()?,
            data_length: r.u32()?,
            reserved: r.u32()?,
            message_length: r.u32()?,
        })
    }

    /// Appends the 20-byte MSH.
    pub fn encode_into(&self, w: &mut Writer) {
        w.bytes(&MSH_STRUC_ID);
        w.u32(self.sequence_number);
        w.u32(self.data_length);
        w.u32(self.reserved);
        w.u32(self.message_length);
    }
}

/// A whole MESSAGE_DATA flow: the MSH and the transmission-queue message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageData {
    /// The MSH.
    pub header: MessageSegmentHeader,
    /// The message (MQXQH ... data), exactly `header.message_length` bytes.
    pub message: Vec<u8>,
}

impl MessageData {
    /// Decodes a reassembled flow's payload: the MSH, then exactly MsgLength message bytes.
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<MessageData> {
        let header = MessageSegmentHeader::decode(payload, order)?;
        let message = &payload[MSH_LENGTH..];
        if header.message_length as usize != message.len()
            || header.data_length as usize != message.len()
        {
            return Err(ProtocolError::InvalidLength {
                what: "MSH MsgLength (the message bytes that follow)",
                value: header.message_length.into(),
            });
        }
        Ok(MessageData {
            header,
            message: message.to_vec(),
        })
    }

    /// The flow's payload: MSH then the message.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        debug_assert_eq!(self.header.message_length as usize, self.message.len());
        let mut w = Writer::new(order);
        self.header.encode_into(&mut w);
        w.bytes(&self.message);
        w.into_bytes()
    }
}

/// The TSH segments of one MESSAGE_DATA flow carrying `message` as number `sequence_number`,
/// each at most `max_transmission_size` bytes; `end_of_batch` asks the partner to confirm the
/// batch (CONFIRM_REQUEST on the last segment only).
pub fn message_flow_segments(
    sequence_number: u32,
    message: &[u8],
    order: ByteOrder,
    encoding: i32,
    ccsid: u16,
    max_transmission_size: u32,
    end_of_batch: bool,
) -> Result<Vec<Segment>> {
    let flow = MessageData {
        header: MessageSegmentHeader::for_message(sequence_number, message.len())?,
        message: message.to_vec(),
    };
    let template = channel_header(SegmentType::MessageData, order, encoding, ccsid, 0);
    let mut segments = split_into_segments(&template, &flow.encode(order), max_transmission_size)?;
    if end_of_batch {
        let last = segments
            .last_mut()
            .expect("a flow has at least one segment");
        last.header.flags1 = ControlFlags1(last.header.flags1.0 | ControlFlags1::CONFIRM_REQUEST);
    }
    Ok(segments)
}

/// The `TSH ` header a message channel's flows use (a single segment: FIRST|LAST, plus
/// `flags1`).
pub fn channel_header(
    segment_type: SegmentType,
    order: ByteOrder,
    encoding: i32,
    ccsid: u16,
    flags1: u8,
) -> SegmentHeader {
    let mut header = SegmentHeader::new(HeaderKind::Tsh, segment_type, order);
    header.flags1 = ControlFlags1(header.flags1.0 | flags1);
    header.encoding = encoding;
    header.ccsid = ccsid;
    header
}

/// RESET_DATA: the sequence number the partner is to expect next (RESET CHANNEL SEQNUM).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResetData {
    /// SequenceNumber.
    pub sequence_number: u32,
}

impl ResetData {
    /// Decodes a payload (Length must be 8).
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<ResetData> {
        let mut r = Reader::new(payload, order, "RESET_DATA");
        let length = r.u32()?;
        if length as usize != RESET_DATA_LENGTH {
            return Err(ProtocolError::InvalidLength {
                what: "RESET_DATA length",
                value: length.into(),
            });
        }
        Ok(ResetData {
            sequence_number: r.u32()?,
        })
    }

    /// Encodes the 8-byte payload.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut w = Writer::new(order);
        w.u32(RESET_DATA_LENGTH as u32);
        w.u32(self.sequence_number);
        w.into_bytes()
    }
}

/// PING_DATA: data the partner sends back unchanged (PING CHANNEL).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PingData {
    /// The data.
    pub data: Vec<u8>,
}

impl PingData {
    /// Decodes a payload (Length covers the whole structure, at most
    /// [`PING_DATA_LENGTH_MAX`]).
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<PingData> {
        let mut r = Reader::new(payload, order, "PING_DATA");
        let length = r.u32()? as usize;
        if length < 4 || length > payload.len() || length > PING_DATA_LENGTH_MAX {
            return Err(ProtocolError::InvalidLength {
                what: "PING_DATA length",
                value: length as i64,
            });
        }
        Ok(PingData {
            data: r.bytes(length - 4)?.to_vec(),
        })
    }

    /// Encodes Length and the data.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        assert!(self.data.len() + 4 <= PING_DATA_LENGTH_MAX);
        let mut w = Writer::new(order);
        w.u32((self.data.len() + 4) as u32);
        w.bytes(&self.data);
        w.into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::{Reassembler, TSH_LENGTH};

    /// The dissector reads an MSH at the start of the payload: StructID at 0, seqnum at 4,
    /// datalength at 8, unknown1 at 12, msglength at 16, all in the TSH's byte order.
    #[test]
    fn msh_fields_sit_where_the_dissector_reads_them() {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let flow = MessageData {
                header: MessageSegmentHeader::for_message(7, 5).unwrap(),
                message: b"XQH .".to_vec(),
            };
            let bytes = flow.encode(order);
            let int = |offset: usize| {
                let field: [u8; 4] = bytes[offset..offset + 4].try_into().unwrap();
                match order {
                    ByteOrder::Big => u32::from_be_bytes(field),
                    ByteOrder::Little => u32::from_le_bytes(field),
                }
            };
            assert_eq!(&bytes[0..4], b"MSH ");
            assert_eq!(int(4), 7);
            assert_eq!(int(8), 5);
            assert_eq!(int(12), 0);
            assert_eq!(int(16), 5);
            assert_eq!(&bytes[20..], b"XQH .");
            assert_eq!(MessageData::decode(&bytes, order).unwrap(), flow);
        }
    }

    #[test]
    fn a_message_data_flow_must_hold_what_its_msh_says() {
        let order = ByteOrder::Little;
        let mut bytes = MessageData {
            header: MessageSegmentHeader::for_message(1, 3).unwrap(),
            message: b"abc".to_vec(),
        }
        .encode(order);
        bytes.push(b'!');
        assert!(MessageData::decode(&bytes, order).is_err());
        assert!(MessageData::decode(&bytes[..10], order).is_err());
        bytes[0] = b'X';
        assert!(MessageSegmentHeader::decode(&bytes, order).is_err());
    }

    #[test]
    fn reset_and_ping_layouts() {
        let reset = ResetData {
            sequence_number: 42,
        };
        let bytes = reset.encode(ByteOrder::Big);
        assert_eq!(bytes, [0, 0, 0, 8, 0, 0, 0, 42]);
        assert_eq!(ResetData::decode(&bytes, ByteOrder::Big).unwrap(), reset);
        assert!(ResetData::decode(&[0, 0, 0, 9, 0, 0, 0, 1], ByteOrder::Big).is_err());
        let ping = PingData {
            data: b"ping".to_vec(),
        };
        let bytes = ping.encode(ByteOrder::Little);
        assert_eq!(&bytes[..4], &[8, 0, 0, 0]);
        assert_eq!(PingData::decode(&bytes, ByteOrder::Little).unwrap(), ping);
        assert!(PingData::decode(&[200, 0, 0, 0, 1], ByteOrder::Little).is_err());
    }

    /// A message larger than the transmission size travels in several TSH segments whose
    /// payloads reassemble into the MSH and the message; only the last asks for confirmation.
    #[test]
    fn large_messages_are_segmented_and_the_batch_end_is_flagged_once() {
        let message: Vec<u8> = (0..10_000u32).map(|i| i as u8).collect();
        let segments =
            message_flow_segments(3, &message, ByteOrder::Little, 546, 1208, 4096, true).unwrap();
        assert_eq!(
            segments.len(),
            (MSH_LENGTH + message.len()).div_ceil(4096 - TSH_LENGTH)
        );
        for (index, segment) in segments.iter().enumerate() {
            let encoded = segment.encode().unwrap();
            assert!(encoded.len() <= 4096);
            assert_eq!(&encoded[..4], b"TSH ");
            assert_eq!(encoded[9], 0x04, "MESSAGE_DATA");
            let flags = encoded[10];
            assert_eq!(flags & ControlFlags1::FIRST != 0, index == 0);
            assert_eq!(
                flags & ControlFlags1::LAST != 0,
                index + 1 == segments.len()
            );
            assert_eq!(
                flags & ControlFlags1::CONFIRM_REQUEST != 0,
                index + 1 == segments.len()
            );
        }
        let mut reassembler = Reassembler::new(1 << 20);
        let mut whole = None;
        for segment in segments {
            whole = reassembler.push(segment).unwrap();
        }
        let whole = whole.expect("the last segment completes the flow");
        assert!(
            whole.header.flags1.contains(ControlFlags1::CONFIRM_REQUEST),
            "the reassembled flow asks for the batch's confirmation"
        );
        let flow = MessageData::decode(&whole.payload, ByteOrder::Little).unwrap();
        assert_eq!(flow.header.sequence_number, 3);
        assert_eq!(flow.message, message);
    }
}
