//! MQDLH, the dead-letter header: what a queue manager (or channel, or application) puts in
//! front of a message it moves to the dead-letter queue, saying why and where it was going.
//!
//! # Layout (IBM MQ "MQDLH - Dead-letter header"), version 1, 172 bytes
//!
//! ```text
//! off len field            meaning
//!   0   4 StrucId          "DLH " (MQDLH_STRUC_ID)
//!   4   4 Version          1 (MQDLH_VERSION_1)
//!   8   4 Reason           why: an MQRC_* or MQFB_* value (MQRC_Q_FULL, MQFB_EXPIRATION ...)
//!  12  48 DestQName        the queue the message was for
//!  60  48 DestQMgrName     the queue manager it was for
//! 108   4 Encoding         encoding of the data after the MQDLH (the original MQMD.Encoding)
//! 112   4 CodedCharSetId   CCSID of that data (the original MQMD.CodedCharSetId)
//! 116   8 Format           format of that data (the original MQMD.Format)
//! 124   4 PutApplType      MQAT_* of the application that put it on the dead-letter queue
//! 128  28 PutApplName      its name
//! 156   8 PutDate          YYYYMMDD (GMT) it was put on the dead-letter queue
//! 164   8 PutTime          HHMMSSTH (GMT)
//! 172                      (end)
//! ```
//!
//! The integers are in the encoding of the MQMD that precedes the MQDLH, whose Format is
//! `MQFMT_DEAD_LETTER_HEADER` ("MQDEAD  "); the original message data follows it. Character
//! fields are single-byte ASCII, blank padded.

use std::fmt;

use ferrite_constants::{
    format::MQFMT_DEAD_LETTER_HEADER,
    reason::MQRC_FORMAT_ERROR,
    structs::{MQDLH_LENGTH_1, MQDLH_STRUC_ID, MQDLH_VERSION_1},
};
use ferrite_protocol::ByteOrder;

use crate::codec::{chars, put_i32, read_array, read_i32, trimmed};

/// Length of an MQDLH, version 1.
pub const DEAD_LETTER_HEADER_LENGTH: usize = MQDLH_LENGTH_1 as usize;

/// The MQMD.Format of a message that starts with an MQDLH.
pub const DEAD_LETTER_HEADER_FORMAT: [u8; 8] = MQFMT_DEAD_LETTER_HEADER;

/// An MQDLH. Names are kept without trailing blanks.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DeadLetterHeader {
    /// Reason: MQRC_* or MQFB_*.
    pub reason: i32,
    /// DestQName (≤ 48 characters).
    pub dest_q_name: String,
    /// DestQMgrName (≤ 48 characters).
    pub dest_q_mgr_name: String,
    /// Encoding of the data that follows.
    pub encoding: i32,
    /// CodedCharSetId of the data that follows.
    pub coded_char_set_id: i32,
    /// Format of the data that follows.
    pub format: [u8; 8],
    /// PutApplType: MQAT_*.
    pub put_appl_type: i32,
    /// PutApplName (≤ 28 characters).
    pub put_appl_name: String,
    /// PutDate, YYYYMMDD.
    pub put_date: String,
    /// PutTime, HHMMSSTH.
    pub put_time: String,
}

impl DeadLetterHeader {
    /// Decodes the MQDLH at the start of `data` (integers in `order`); the original message
    /// data follows at [`DEAD_LETTER_HEADER_LENGTH`].
    pub fn decode(data: &[u8], order: ByteOrder) -> Result<DeadLetterHeader, HeaderError> {
        if data.len() < DEAD_LETTER_HEADER_LENGTH {
            return Err(HeaderError::Truncated {
                structure: "MQDLH",
                length: DEAD_LETTER_HEADER_LENGTH,
                available: data.len(),
            });
        }
        let struc_id: [u8; 4] = read_array(data, 0).expect("length checked");
        if struc_id != MQDLH_STRUC_ID {
            return Err(HeaderError::BadStrucId {
                structure: "MQDLH",
                found: struc_id,
            });
        }
        let int = |offset| read_i32(data, offset, order).expect("length checked");
        let version = int(4);
        if version != MQDLH_VERSION_1 {
            return Err(HeaderError::UnsupportedVersion {
                structure: "MQDLH",
                version,
            });
        }
        Ok(DeadLetterHeader {
            reason: int(8),
            dest_q_name: trimmed(&data[12..60]),
            dest_q_mgr_name: trimmed(&data[60..108]),
            encoding: int(108),
            coded_char_set_id: int(112),
            format: read_array(data, 116).expect("length checked"),
            put_appl_type: int(124),
            put_appl_name: trimmed(&data[128..156]),
            put_date: trimmed(&data[156..164]),
            put_time: trimmed(&data[164..172]),
        })
    }

    /// Encodes the header (integers in `order`). Names longer than their fields, or not
    /// ASCII, are an error.
    pub fn encode(&self, order: ByteOrder) -> Result<Vec<u8>, HeaderError> {
        let mut out = Vec::with_capacity(DEAD_LETTER_HEADER_LENGTH);
        out.extend_from_slice(&MQDLH_STRUC_ID);
        put_i32(&mut out, MQDLH_VERSION_1, order);
        put_i32(&mut out, self.reason, order);
        out.extend_from_slice(&field::<48>("DestQName", &self.dest_q_name)?);
        out.extend_from_slice(&field::<48>("DestQMgrName", &self.dest_q_mgr_name)?);
        put_i32(&mut out, self.encoding, order);
        put_i32(&mut out, self.coded_char_set_id, order);
        out.extend_from_slice(&self.format);
        put_i32(&mut out, self.put_appl_type, order);
        out.extend_from_slice(&field::<28>("PutApplName", &self.put_appl_name)?);
        out.extend_from_slice(&field::<8>("PutDate", &self.put_date)?);
        out.extend_from_slice(&field::<8>("PutTime", &self.put_time)?);
        assert_eq!(out.len(), DEAD_LETTER_HEADER_LENGTH);
        Ok(out)
    }
}

pub(crate) fn field<const N: usize>(
    name: &'static str,
    value: &str,
) -> Result<[u8; N], HeaderError> {
    chars::<N>(value).ok_or(HeaderError::BadField {
        field: name,
        length: N,
    })
}

/// What is wrong with an MQDLH or MQXQH.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// Fewer bytes than the structure's length.
    Truncated {
        /// MQDLH or MQXQH.
        structure: &'static str,
        /// Its length.
        length: usize,
        /// Bytes present.
        available: usize,
    },
    /// The StrucId is wrong.
    BadStrucId {
        /// MQDLH or MQXQH.
        structure: &'static str,
        /// The bytes found.
        found: [u8; 4],
    },
    /// The Version is not 1.
    UnsupportedVersion {
        /// MQDLH or MQXQH.
        structure: &'static str,
        /// Version found.
        version: i32,
    },
    /// A character value is longer than its field or not ASCII.
    BadField {
        /// Field name.
        field: &'static str,
        /// Its length.
        length: usize,
    },
    /// The embedded MQMD is malformed.
    Descriptor(String),
}

impl HeaderError {
    /// MQ's reason code: MQRC_FORMAT_ERROR (2110), the message is not in the format its
    /// MQMD.Format names.
    pub fn reason_code(&self) -> i32 {
        MQRC_FORMAT_ERROR
    }
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::Truncated {
                structure,
                length,
                available,
            } => write!(
                f,
                "{structure} needs {length} bytes, only {available} present"
            ),
            HeaderError::BadStrucId { structure, found } => write!(
                f,
                "{structure} StrucId is {:?} (does the MQMD.Format name the right header?)",
                String::from_utf8_lossy(found)
            ),
            HeaderError::UnsupportedVersion { structure, version } => {
                write!(f, "{structure} Version is {version}, expected 1")
            }
            HeaderError::BadField { field, length } => write!(
                f,
                "{field} is longer than its {length} characters or is not ASCII"
            ),
            HeaderError::Descriptor(problem) => write!(f, "embedded MQMD: {problem}"),
        }?;
        write!(f, " (MQRC_FORMAT_ERROR)")
    }
}

impl std::error::Error for HeaderError {}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample() -> DeadLetterHeader {
        DeadLetterHeader {
            reason: 2053,
            dest_q_name: "APP.INPUT".into(),
            dest_q_mgr_name: "QM1".into(),
            encoding: 273,
            coded_char_set_id: 1208,
            format: *b"MQSTR   ",
            put_appl_type: 28,
            put_appl_name: "ferrite".into(),
            put_date: "20240102".into(),
            put_time: "03040506".into(),
        }
    }

    #[test]
    fn golden_layout_big_endian() {
        let bytes = sample().encode(ByteOrder::Big).unwrap();
        assert_eq!(bytes.len(), 172);
        assert_eq!(&bytes[0..4], b"DLH ");
        assert_eq!(&bytes[4..8], &[0, 0, 0, 1]);
        assert_eq!(&bytes[8..12], &2053i32.to_be_bytes());
        assert_eq!(&bytes[12..21], b"APP.INPUT");
        assert!(bytes[21..60].iter().all(|&b| b == b' '));
        assert_eq!(&bytes[60..63], b"QM1");
        assert_eq!(&bytes[108..112], &273i32.to_be_bytes());
        assert_eq!(&bytes[112..116], &1208i32.to_be_bytes());
        assert_eq!(&bytes[116..124], b"MQSTR   ");
        assert_eq!(&bytes[124..128], &28i32.to_be_bytes());
        assert_eq!(&bytes[128..135], b"ferrite");
        assert_eq!(&bytes[156..164], b"20240102");
        assert_eq!(&bytes[164..172], b"03040506");
    }

    #[test]
    fn round_trip_in_both_orders() {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let bytes = sample().encode(order).unwrap();
            assert_eq!(DeadLetterHeader::decode(&bytes, order).unwrap(), sample());
        }
        let little = sample().encode(ByteOrder::Little).unwrap();
        assert_eq!(&little[8..12], &2053i32.to_le_bytes());
    }

    #[test]
    fn malformed_headers() {
        let bytes = sample().encode(ByteOrder::Little).unwrap();
        let error = DeadLetterHeader::decode(&bytes[..171], ByteOrder::Little).unwrap_err();
        assert!(matches!(
            error,
            HeaderError::Truncated { available: 171, .. }
        ));
        assert_eq!(error.reason_code(), 2110);
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(matches!(
            DeadLetterHeader::decode(&bad, ByteOrder::Little),
            Err(HeaderError::BadStrucId { .. })
        ));
        let error = DeadLetterHeader::decode(&bytes, ByteOrder::Big).unwrap_err();
        assert!(matches!(
            error,
            HeaderError::UnsupportedVersion {
                version: 0x0100_0000,
                ..
            }
        ));
        let long = DeadLetterHeader {
            dest_q_name: "Q".repeat(49),
            ..sample()
        };
        assert_eq!(
            long.encode(ByteOrder::Big).unwrap_err(),
            HeaderError::BadField {
                field: "DestQName",
                length: 48
            }
        );
    }
}
