//! Asynchronous put on the client side: MQPUT and MQPUT1 with MQPMO_ASYNC_RESPONSE are sent
//! and not answered, MQSTAT reads their outcome back.
//!
//! An asynchronous put returns as soon as its flow is written. It learns no MsgId from a
//! reply, so, as IBM's clients do, the connection reserves a range of message identifiers
//! from the queue manager with the SPI RESERVE verb (`ferrite_protocol::spi` documents it) and
//! stamps them itself: the base identifier with a big-endian counter in its last bytes. A
//! range lasts 0x00FFFFFF puts; the next put after it reserves another.
//!
//! MQPMO_RESPONSE_AS_Q_DEF follows the queue's DEFPRESP, which this client learns when it
//! opens a queue for output through SPI OPEN (`open_defaults`), as IBM's Java client does; an
//! MQPUT1 (no handle, so no DEFPRESP learnt) is synchronous.

use ferrite_constants::{completion::MQCC_OK, reason::*};
use ferrite_mqi_types::{MqError, MqResult, Mqsts};
use ferrite_protocol::api::ApiBody;
use ferrite_protocol::codec::Reader;
use ferrite_protocol::segment::SegmentType;
use ferrite_protocol::spi::{verb, SpiFlow, SpiStructure, SPI_STRUCTURE_HEADER_LENGTH};
use ferrite_protocol::stat::MqStat;
use ferrite_protocol::wire;
use ferrite_protocol::ByteOrder;

use crate::connection::Connection;

/// How many message identifiers one reservation asks for (what IBM's Java client asks).
pub const MESSAGE_ID_RESERVATION: u32 = 0x00FF_FFFF;
/// Length of a message identifier (MQMD MsgId), the tag size asked for.
const MESSAGE_ID_LENGTH: usize = 24;

/// A reserved range of message identifiers.
#[derive(Clone, Debug)]
pub struct MessageIdRange {
    base: [u8; MESSAGE_ID_LENGTH],
    /// Index of the counter's first byte in the identifier.
    counter_at: usize,
    /// The next counter value to issue.
    next: u32,
    /// How many the range holds.
    count: u32,
}

impl MessageIdRange {
    /// Decodes a RESERVE reply's SPRO structure.
    fn from_reply(spro: &SpiStructure, order: ByteOrder) -> Option<MessageIdRange> {
        let mut reader = Reader::new(
            spro.bytes.get(SPI_STRUCTURE_HEADER_LENGTH..)?,
            order,
            "SPRO",
        );
        let count = reader.u32().ok()?;
        let offset = reader.u32().ok()? as usize;
        let base: [u8; MESSAGE_ID_LENGTH] = reader.array().ok()?;
        let counter_bytes = ferrite_protocol::spi::tag_counter_bytes(count);
        let counter_at = offset.checked_sub(1)?;
        if count == 0 || counter_at + counter_bytes > MESSAGE_ID_LENGTH {
            return None;
        }
        Some(MessageIdRange {
            base,
            counter_at,
            next: 0,
            count,
        })
    }

    /// The next identifier, or `None` once the range is used up.
    fn issue(&mut self) -> Option<[u8; MESSAGE_ID_LENGTH]> {
        if self.next >= self.count {
            return None;
        }
        let counter_bytes = ferrite_protocol::spi::tag_counter_bytes(self.count);
        let mut id = self.base;
        let value = self.next.to_be_bytes();
        let counter = &mut id[self.counter_at..self.counter_at + counter_bytes];
        // Added to the base's counter bytes (zero from Ferrite; kept general).
        let mut carry = 0u16;
        for (slot, add) in counter.iter_mut().rev().zip(value.iter().rev()) {
            let sum = *slot as u16 + *add as u16 + carry;
            *slot = sum as u8;
            carry = sum >> 8;
        }
        self.next += 1;
        Some(id)
    }
}

impl Connection {
    /// The MsgId of the next asynchronous put, reserving a new range when needed.
    pub(crate) fn next_message_id(&mut self) -> MqResult<[u8; MESSAGE_ID_LENGTH]> {
        if let Some(id) = self.message_ids.as_mut().and_then(MessageIdRange::issue) {
            return Ok(id);
        }
        let order = self.byte_order();
        let mut spri = ferrite_protocol::codec::Writer::new(order);
        spri.bytes(b"SPRI");
        spri.i32(1);
        spri.u32(ferrite_protocol::spi::SPRI_LENGTH as u32);
        spri.u32(MESSAGE_ID_LENGTH as u32);
        spri.u32(MESSAGE_ID_RESERVATION);
        let mut spru = ferrite_protocol::codec::Writer::new(order);
        spru.bytes(b"SPRU");
        spru.i32(1);
        spru.u32(SPI_STRUCTURE_HEADER_LENGTH as u32);
        let request = SpiFlow {
            verb: verb::RESERVE,
            version: 1,
            max_reply_size: 256,
            structures: vec![
                SpiStructure {
                    struct_id: *b"SPRU",
                    version: 1,
                    bytes: spru.into_bytes(),
                },
                SpiStructure {
                    struct_id: *b"SPRI",
                    version: 1,
                    bytes: spri.into_bytes(),
                },
            ],
        };
        let (header, body) = self.call(SegmentType::Spi, 0, ApiBody::Raw(request.encode(order)))?;
        if header.comp_code != MQCC_OK {
            return Err(MqError::failed(header.reason));
        }
        let ApiBody::Raw(body) = body else {
            return Err(MqError::failed(MQRC_UNEXPECTED_ERROR));
        };
        let range = SpiFlow::decode(&body, order)
            .ok()
            .and_then(|reply| {
                reply
                    .structures
                    .into_iter()
                    .find(|structure| &structure.struct_id == b"SPRO")
            })
            .and_then(|spro| MessageIdRange::from_reply(&spro, order))
            .ok_or(MqError::failed(MQRC_UNEXPECTED_ERROR))?;
        let range = self.message_ids.insert(range);
        range.issue().ok_or(MqError::failed(MQRC_UNEXPECTED_ERROR))
    }

    /// MQSTAT: with MQSTAT_TYPE_ASYNC_ERROR, the outcome of this connection's asynchronous
    /// puts since the last MQSTAT (the counters then start again from zero). The queue manager
    /// serves the flows of a connection in order, so every asynchronous put sent before is
    /// counted.
    pub fn stat(&mut self, status_type: i32) -> MqResult<Mqsts> {
        let order = self.byte_order();
        let request = MqStat::request(status_type);
        let (header, body) =
            self.call(SegmentType::MqStat, 0, ApiBody::Raw(request.encode(order)))?;
        if header.comp_code != MQCC_OK {
            return Err(MqError::failed(header.reason));
        }
        let ApiBody::Raw(body) = body else {
            return Err(MqError::failed(MQRC_UNEXPECTED_ERROR));
        };
        let reply =
            MqStat::decode(&body, order).map_err(|_| MqError::failed(MQRC_UNEXPECTED_ERROR))?;
        Ok(wire::sts_from_wire(&reply.sts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_numbers_its_identifiers_in_the_counter_bytes() {
        let mut base = [b'B'; 24];
        base[21..].fill(0);
        let spro = ferrite_protocol::spi::reserve_reply_structure(3, &base, ByteOrder::Big);
        let mut range = MessageIdRange::from_reply(&spro, ByteOrder::Big).unwrap();
        // 3 tags need one counter byte: the last.
        assert_eq!(range.issue().unwrap()[23], 0);
        assert_eq!(range.issue().unwrap()[23], 1);
        let third = range.issue().unwrap();
        assert_eq!((&third[..21], third[23]), (&base[..21], 2));
        assert!(range.issue().is_none(), "used up");
    }

    #[test]
    fn a_reply_whose_counter_leaves_the_identifier_is_refused() {
        let base = [0u8; 24];
        let mut spro =
            ferrite_protocol::spi::reserve_reply_structure(0x00FF_FFFF, &base, ByteOrder::Big);
        spro.bytes[16..20].copy_from_slice(&23u32.to_be_bytes());
        assert!(MessageIdRange::from_reply(&spro, ByteOrder::Big).is_none());
    }
}
