//! MQXQH, the transmission queue header: what a queue manager puts in front of a message bound
//! for a remote queue manager while it waits on a transmission queue (and what a sender channel
//! strips off at the other end).
//!
//! # Layout (IBM MQ "MQXQH - Transmission-queue header"), version 1, 428 bytes
//!
//! ```text
//! off len field            meaning
//!   0   4 StrucId          "XQH " (MQXQH_STRUC_ID)
//!   4   4 Version          1 (MQXQH_VERSION_1)
//!   8  48 RemoteQName      destination queue on the remote queue manager
//!  56  48 RemoteQMgrName   destination queue manager
//! 104 324 MsgDesc          the message's own MQMD, version 1 (MQMD1); see
//!                          ferrite_protocol::mqi::Md for its field layout
//! 428                      (end; the application message data follows)
//! ```
//!
//! The message on the transmission queue has its own MQMD with Format `MQFMT_XMIT_Q_HEADER`
//! ("MQXMIT  "); the MQXQH's integers (its own and the embedded MQMD's) are in that MQMD's
//! encoding. Version-2 MQMD fields of the original message (GroupId, MsgSeqNumber, Offset,
//! MsgFlags, OriginalLength) travel in an MQMDE after the MQXQH when they are not defaults;
//! that MQMDE is the caller's business.

use ferrite_constants::{
    format::MQFMT_XMIT_Q_HEADER,
    structs::{MQMD_VERSION_1, MQXQH_LENGTH_1, MQXQH_STRUC_ID, MQXQH_VERSION_1},
};
use ferrite_protocol::{
    codec::{Reader, Writer},
    mqi::Md,
    ByteOrder,
};

use crate::codec::{put_i32, read_array, read_i32, trimmed};
use crate::dead_letter_header::{field, HeaderError};

/// Length of an MQXQH, version 1 (including the 324-byte MQMD version 1).
pub const TRANSMISSION_HEADER_LENGTH: usize = MQXQH_LENGTH_1 as usize;

/// Offset of the embedded MQMD.
const MSG_DESC_OFFSET: usize = 104;

/// The MQMD.Format of a message that starts with an MQXQH.
pub const TRANSMISSION_HEADER_FORMAT: [u8; 8] = MQFMT_XMIT_Q_HEADER;

/// An MQXQH.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransmissionHeader {
    /// RemoteQName (≤ 48 characters, without trailing blanks).
    pub remote_q_name: String,
    /// RemoteQMgrName (≤ 48 characters).
    pub remote_q_mgr_name: String,
    /// The original message's MQMD; always encoded as version 1.
    pub msg_desc: Md,
}

impl TransmissionHeader {
    /// Decodes the MQXQH at the start of `data` (integers in `order`).
    pub fn decode(data: &[u8], order: ByteOrder) -> Result<TransmissionHeader, HeaderError> {
        if data.len() < TRANSMISSION_HEADER_LENGTH {
            return Err(HeaderError::Truncated {
                structure: "MQXQH",
                length: TRANSMISSION_HEADER_LENGTH,
                available: data.len(),
            });
        }
        let struc_id: [u8; 4] = read_array(data, 0).expect("length checked");
        if struc_id != MQXQH_STRUC_ID {
            return Err(HeaderError::BadStrucId {
                structure: "MQXQH",
                found: struc_id,
            });
        }
        let version = read_i32(data, 4, order).expect("length checked");
        if version != MQXQH_VERSION_1 {
            return Err(HeaderError::UnsupportedVersion {
                structure: "MQXQH",
                version,
            });
        }
        let mut reader = Reader::new(
            &data[MSG_DESC_OFFSET..TRANSMISSION_HEADER_LENGTH],
            order,
            "MQXQH.MsgDesc",
        );
        let msg_desc =
            Md::decode(&mut reader).map_err(|e| HeaderError::Descriptor(e.to_string()))?;
        if msg_desc.version != MQMD_VERSION_1 {
            return Err(HeaderError::Descriptor(format!(
                "MsgDesc Version is {}, an MQXQH holds an MQMD version 1",
                msg_desc.version
            )));
        }
        Ok(TransmissionHeader {
            remote_q_name: trimmed(&data[8..56]),
            remote_q_mgr_name: trimmed(&data[56..104]),
            msg_desc,
        })
    }

    /// Encodes the header (integers in `order`); the MQMD is written as version 1 whatever
    /// its `version` says.
    pub fn encode(&self, order: ByteOrder) -> Result<Vec<u8>, HeaderError> {
        let mut out = Vec::with_capacity(TRANSMISSION_HEADER_LENGTH);
        out.extend_from_slice(&MQXQH_STRUC_ID);
        put_i32(&mut out, MQXQH_VERSION_1, order);
        out.extend_from_slice(&field::<48>("RemoteQName", &self.remote_q_name)?);
        out.extend_from_slice(&field::<48>("RemoteQMgrName", &self.remote_q_mgr_name)?);
        let msg_desc = Md {
            version: MQMD_VERSION_1,
            ..self.msg_desc.clone()
        };
        let mut writer = Writer::with_buffer(out, order);
        msg_desc
            .encode(&mut writer)
            .map_err(|e| HeaderError::Descriptor(e.to_string()))?;
        let out = writer.into_bytes();
        assert_eq!(out.len(), TRANSMISSION_HEADER_LENGTH);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_protocol::MqChars;

    fn sample() -> TransmissionHeader {
        TransmissionHeader {
            remote_q_name: "REMOTE.Q".into(),
            remote_q_mgr_name: "QM2".into(),
            msg_desc: Md {
                msg_id: [7; 24],
                correl_id: [9; 24],
                format: MqChars(*b"MQSTR   "),
                persistence: 1,
                priority: 5,
                reply_to_q: MqChars::new("REPLY").unwrap(),
                ..Md::default()
            },
        }
    }

    #[test]
    fn golden_layout_and_round_trip() {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let bytes = sample().encode(order).unwrap();
            assert_eq!(bytes.len(), 428);
            assert_eq!(&bytes[0..4], b"XQH ");
            assert_eq!(read_i32(&bytes, 4, order), Some(1));
            assert_eq!(&bytes[8..16], b"REMOTE.Q");
            assert_eq!(&bytes[56..59], b"QM2");
            assert_eq!(&bytes[104..108], b"MD  ");
            assert_eq!(read_i32(&bytes, 108, order), Some(1), "MQMD version 1");
            assert_eq!(&bytes[104 + 32..104 + 40], b"MQSTR   ");
            assert_eq!(read_i32(&bytes, 104 + 40, order), Some(5), "Priority");
            assert_eq!(&bytes[104 + 48..104 + 72], &[7; 24], "MsgId");
            assert_eq!(&bytes[104 + 72..104 + 96], &[9; 24], "CorrelId");
            assert_eq!(TransmissionHeader::decode(&bytes, order).unwrap(), sample());
        }
    }

    #[test]
    fn version_two_descriptor_is_written_as_version_one() {
        let mut header = sample();
        header.msg_desc.version = 2;
        let bytes = header.encode(ByteOrder::Little).unwrap();
        assert_eq!(bytes.len(), 428);
        assert_eq!(
            TransmissionHeader::decode(&bytes, ByteOrder::Little).unwrap(),
            sample()
        );
    }

    #[test]
    fn malformed_headers() {
        let bytes = sample().encode(ByteOrder::Little).unwrap();
        assert!(matches!(
            TransmissionHeader::decode(&bytes[..427], ByteOrder::Little),
            Err(HeaderError::Truncated { .. })
        ));
        let mut bad = bytes.clone();
        bad[104] = b'X';
        assert!(matches!(
            TransmissionHeader::decode(&bad, ByteOrder::Little),
            Err(HeaderError::Descriptor(_))
        ));
        let mut v2 = bytes.clone();
        v2[108] = 2;
        assert!(matches!(
            TransmissionHeader::decode(&v2, ByteOrder::Little),
            Err(HeaderError::Descriptor(_))
        ));
        bad = bytes;
        bad[4] = 9;
        assert!(matches!(
            TransmissionHeader::decode(&bad, ByteOrder::Little),
            Err(HeaderError::UnsupportedVersion { version: 9, .. })
        ));
    }
}
