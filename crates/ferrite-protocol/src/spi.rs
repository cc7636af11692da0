//! SPI flows (segment type 0x8C, reply 0x9C): IBM's "service provider interface" verbs that the
//! Java and JMS clients use beside the MQI verbs. Sources: Wireshark `packet-mq.c` (structure
//! names and verb numbers) and traffic observed from the 9.4.5 Java client.
//!
//! ```text
//! After the 16-byte API header, in the segment's byte order:
//!   0 4 Verb            (1 QUERYSPI, 2 PUT, 3 GET, 4 ACTIVATE, 5 SYNCPOINT, 6 RESERVE,
//!                        7 SUBSCRIBE, 8 UNSUBSCRIBE, 11 NOTIFY, 12 OPEN)
//!   4 4 Version         (of the verb's structures; 1 from the 9.4.5 client for QUERYSPI)
//!   8 4 MaxReplySize    (the most the client accepts back)
//!  12 . the verb's structures, each opening with StrucId(4) Version(4) Length(4):
//!       request: "SPxU" (in/out) then "SPxI" (in); reply: "SPxU" then "SPxO" (out)
//!
//! QUERYSPI reply "SPQO": StrucId "SPQO", Version 1, Length (16 + 20 * NumVerbs),
//!   NumVerbs(4), then per verb 5 integers: Verb, and four version/capability numbers
//!   (observed canned replies list e.g. OPEN as 12,1,2,2,1). Ferrite lists none; the client
//!   then uses the MQI verbs for everything but OPEN and RESERVE, which it sends regardless.
//!
//! What the 9.4.5 Java and JMS clients use (observed 2026-11, QUERYSPI answered once with no
//! verb and once with every verb 1-8, 11, 12 at the versions a z/OS queue manager lists): the
//! same flows either way. Sends and receives (persistent, non-persistent, transacted, client
//! acknowledge, selectors, MessageListener, request/reply with temporary queues) use QUERYSPI,
//! OPEN and the MQI verbs; asynchronous puts add RESERVE. SPI PUT (2), GET (3), ACTIVATE (4),
//! SYNCPOINT (5), SUBSCRIBE (7), UNSUBSCRIBE (8) and NOTIFY (11) were never sent, so Ferrite
//! does not serve them (MQRC_FUNCTION_NOT_SUPPORTED).
//!
//! RESERVE (verb 6), observed from the 9.4.5 Java client before its first asynchronous put
//! (a client learns no MsgId from an asynchronous put's reply, so it reserves a range of
//! message identifiers and stamps them itself):
//!   request "SPRU" (12, header only), "SPRI" version 1, Length 20:
//!       12 4 TagSize (24: an MQMD MsgId)   16 4 TagReservation (how many; 0x00FFFFFF)
//!   reply   "SPRU" echoed, "SPRO" version 1, Length 20 + TagSize:
//!       12 4 ActualReservation (how many granted, at most TagReservation)
//!       16 4 TagIncrementOffset: 1 + the index of the counter's first byte in the tag; the
//!            counter is big-endian and as many bytes long as ActualReservation needs (3 for
//!            0x00FFFFFF; 2 for 65536), and the client refuses a base whose counter would wrap
//!       20 TagSize BaseTag: the first identifier (counter 0); the client numbers its puts
//!            0, 1, 2 ... in the counter bytes and reserves again when the range is used up.
//! ```

use crate::codec::{ByteOrder, ProtocolError, Reader, Result, Writer};

/// SPI verbs (IBM `rfpVB_*`).
pub mod verb {
    #![allow(missing_docs)]
    pub const QUERYSPI: i32 = 1;
    pub const PUT: i32 = 2;
    pub const GET: i32 = 3;
    pub const ACTIVATE: i32 = 4;
    pub const SYNCPOINT: i32 = 5;
    pub const RESERVE: i32 = 6;
    pub const SUBSCRIBE: i32 = 7;
    pub const UNSUBSCRIBE: i32 = 8;
    pub const NOTIFY: i32 = 11;
    pub const OPEN: i32 = 12;
}

/// Length of the SPI header (Verb, Version, MaxReplySize).
pub const SPI_HEADER_LENGTH: usize = 12;
/// Length of a structure header (StrucId, Version, Length).
pub const SPI_STRUCTURE_HEADER_LENGTH: usize = 12;
/// Most structures one SPI flow may carry (the limit keeps a hostile flow cheap).
pub const SPI_STRUCTURES_MAX: usize = 8;

/// One structure of an SPI flow: its id, version and whole bytes (header included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpiStructure {
    /// StrucId, e.g. `SPQU`.
    pub struct_id: [u8; 4],
    /// Version.
    pub version: i32,
    /// The structure's bytes, header included (Length bytes).
    pub bytes: Vec<u8>,
}

/// An SPI request or reply body (after the API header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpiFlow {
    /// Verb.
    pub verb: i32,
    /// Version.
    pub version: i32,
    /// MaxReplySize.
    pub max_reply_size: u32,
    /// The structures, in order.
    pub structures: Vec<SpiStructure>,
}

impl SpiFlow {
    /// Decodes an SPI body: the header and each structure by its Length.
    pub fn decode(body: &[u8], order: ByteOrder) -> Result<SpiFlow> {
        let mut reader = Reader::new(body, order, "SPI");
        let verb = reader.i32()?;
        let version = reader.i32()?;
        let max_reply_size = reader.u32()?;
        let mut structures = Vec::new();
        while reader.remaining() > 0 {
            if structures.len() == SPI_STRUCTURES_MAX {
                return Err(ProtocolError::InvalidLength {
                    what: "SPI structure count",
                    value: structures.len() as i64 + 1,
                });
            }
            let start = reader.position();
            let struct_id = reader.array::<4>()?;
            let version = reader.i32()?;
            let length = reader.u32()? as usize;
            if length < SPI_STRUCTURE_HEADER_LENGTH {
                return Err(ProtocolError::InvalidLength {
                    what: "SPI structure Length",
                    value: length as i64,
                });
            }
            reader.bytes(length - SPI_STRUCTURE_HEADER_LENGTH)?;
            structures.push(SpiStructure {
                struct_id,
                version,
                bytes: body[start..start + length].to_vec(),
            });
        }
        Ok(SpiFlow {
            verb,
            version,
            max_reply_size,
            structures,
        })
    }

    /// Encodes the body.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut writer = Writer::new(order);
        writer.i32(self.verb);
        writer.i32(self.version);
        writer.u32(self.max_reply_size);
        for structure in &self.structures {
            writer.bytes(&structure.bytes);
        }
        writer.into_bytes()
    }
}

/// Length of the SPRI structure (header, TagSize, TagReservation).
pub const SPRI_LENGTH: usize = 20;

/// The SPRI structure of a RESERVE request: what the client wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReserveRequest {
    /// TagSize: the bytes of one tag (24, a MsgId).
    pub tag_size: u32,
    /// TagReservation: how many tags.
    pub tag_reservation: u32,
}

impl ReserveRequest {
    /// Decodes the SPRI structure (header included).
    pub fn decode(spri: &SpiStructure, order: ByteOrder) -> Result<ReserveRequest> {
        if &spri.struct_id != b"SPRI" || spri.bytes.len() < SPRI_LENGTH {
            return Err(ProtocolError::InvalidLength {
                what: "SPI RESERVE SPRI",
                value: spri.bytes.len() as i64,
            });
        }
        let mut reader = Reader::new(&spri.bytes[SPI_STRUCTURE_HEADER_LENGTH..], order, "SPRI");
        Ok(ReserveRequest {
            tag_size: reader.u32()?,
            tag_reservation: reader.u32()?,
        })
    }
}

/// Bytes of a big-endian counter that numbers `count` tags (0 .. count-1): at least 1.
pub fn tag_counter_bytes(count: u32) -> usize {
    let highest = count.saturating_sub(1);
    (((32 - highest.leading_zeros()) as usize).div_ceil(8)).max(1)
}

/// The SPRO structure granting `count` tags numbered from `base_tag`, whose last
/// [`tag_counter_bytes`]`(count)` bytes are the counter (zero in the base).
pub fn reserve_reply_structure(count: u32, base_tag: &[u8], order: ByteOrder) -> SpiStructure {
    let counter_bytes = tag_counter_bytes(count);
    assert!(
        counter_bytes <= base_tag.len(),
        "the counter fits in the tag"
    );
    debug_assert!(base_tag[base_tag.len() - counter_bytes..]
        .iter()
        .all(|&byte| byte == 0));
    let mut writer = Writer::new(order);
    writer.bytes(b"SPRO");
    writer.i32(1);
    writer.u32((20 + base_tag.len()) as u32);
    writer.u32(count);
    writer.u32((base_tag.len() - counter_bytes + 1) as u32);
    writer.bytes(base_tag);
    SpiStructure {
        struct_id: *b"SPRO",
        version: 1,
        bytes: writer.into_bytes(),
    }
}

/// One verb a queue manager serves, as listed in SPQO.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpiVerbSupport {
    /// Verb.
    pub verb: i32,
    /// The four version/capability numbers that follow the verb.
    pub versions: [i32; 4],
}

/// The SPQO structure listing `verbs`.
pub fn query_reply_structure(verbs: &[SpiVerbSupport], order: ByteOrder) -> SpiStructure {
    let mut writer = Writer::new(order);
    writer.bytes(b"SPQO");
    writer.i32(1);
    writer.u32((16 + 20 * verbs.len()) as u32);
    writer.u32(verbs.len() as u32);
    for support in verbs {
        writer.i32(support.verb);
        for value in support.versions {
            writer.i32(value);
        }
    }
    SpiStructure {
        struct_id: *b"SPQO",
        version: 1,
        bytes: writer.into_bytes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_request_as_the_java_client_sends_it_round_trips() {
        // Observed from the 9.4.5 Java client (big-endian): QUERYSPI, version 1, 256 bytes back,
        // SPQU and SPQI of 12 bytes each.
        let body = [
            0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, b'S', b'P', b'Q', b'U', 0, 0, 0, 1, 0, 0, 0, 12,
            b'S', b'P', b'Q', b'I', 0, 0, 0, 1, 0, 0, 0, 12,
        ];
        let flow = SpiFlow::decode(&body, ByteOrder::Big).unwrap();
        assert_eq!(flow.verb, verb::QUERYSPI);
        assert_eq!(flow.max_reply_size, 256);
        assert_eq!(flow.structures.len(), 2);
        assert_eq!(&flow.structures[0].struct_id, b"SPQU");
        assert_eq!(flow.encode(ByteOrder::Big), body);
    }

    #[test]
    fn hostile_lengths_are_refused() {
        let short = [
            0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, b'S', b'P', b'Q', b'U', 0, 0, 0, 1, 0, 0, 0, 4,
        ];
        assert!(SpiFlow::decode(&short, ByteOrder::Big).is_err());
        let long = [
            0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, b'S', b'P', b'Q', b'U', 0, 0, 0, 1, 0, 0, 0, 99,
        ];
        assert!(SpiFlow::decode(&long, ByteOrder::Big).is_err());
        assert!(SpiFlow::decode(&[0, 0, 0], ByteOrder::Big).is_err());
    }

    #[test]
    fn reserve_as_the_java_client_sends_it() {
        // Observed from the 9.4.5 Java client (big-endian) before its first asynchronous put.
        let body = [
            0, 0, 0, 6, 0, 0, 0, 1, 0, 0, 0, 44, b'S', b'P', b'R', b'U', 0, 0, 0, 1, 0, 0, 0, 12,
            b'S', b'P', b'R', b'I', 0, 0, 0, 1, 0, 0, 0, 20, 0, 0, 0, 24, 0, 255, 255, 255,
        ];
        let flow = SpiFlow::decode(&body, ByteOrder::Big).unwrap();
        assert_eq!(flow.verb, verb::RESERVE);
        let request = ReserveRequest::decode(&flow.structures[1], ByteOrder::Big).unwrap();
        assert_eq!(request.tag_size, 24);
        assert_eq!(request.tag_reservation, 0x00FF_FFFF);
        assert!(ReserveRequest::decode(&flow.structures[0], ByteOrder::Big).is_err());
    }

    #[test]
    fn reserve_reply_places_the_counter_where_the_client_expects_it() {
        // The offsets the 9.4.5 Java client accepted: 3 counter bytes for 0x00FFFFFF tags at
        // index 21 (offset 22); 2 bytes for 65536.
        assert_eq!(tag_counter_bytes(0x00FF_FFFF), 3);
        assert_eq!(tag_counter_bytes(65536), 2);
        assert_eq!(tag_counter_bytes(65537), 3);
        assert_eq!(tag_counter_bytes(1), 1);
        let mut base = [b'A'; 24];
        base[21..].fill(0);
        let structure = reserve_reply_structure(0x00FF_FFFF, &base, ByteOrder::Little);
        assert_eq!(structure.bytes.len(), 44);
        assert_eq!(&structure.bytes[8..12], &44u32.to_le_bytes());
        assert_eq!(&structure.bytes[12..16], &0x00FF_FFFFu32.to_le_bytes());
        assert_eq!(&structure.bytes[16..20], &22u32.to_le_bytes());
        assert_eq!(&structure.bytes[20..], &base);
    }

    #[test]
    fn query_reply_lists_verbs() {
        let structure = query_reply_structure(
            &[SpiVerbSupport {
                verb: verb::OPEN,
                versions: [1, 2, 2, 1],
            }],
            ByteOrder::Little,
        );
        assert_eq!(structure.bytes.len(), 36);
        assert_eq!(&structure.bytes[..4], b"SPQO");
        assert_eq!(&structure.bytes[8..12], &36u32.to_le_bytes());
        assert_eq!(&structure.bytes[12..16], &1u32.to_le_bytes());
    }
}
