//! MQTM, the trigger message a queue manager puts on an initiation queue when a trigger event
//! occurs on an application queue, and MQTMC2, its character form that a trigger monitor
//! passes to the application it starts.
//!
//! # MQTM layout (IBM MQ "MQTM - Trigger message"), version 1, 684 bytes
//!
//! ```text
//! off len field        meaning
//!   0   4 StrucId      "TM  " (MQTM_STRUC_ID)
//!   4   4 Version      1 (MQTM_VERSION_1)
//!   8  48 QName        the application queue on which the trigger event occurred
//!  56  48 ProcessName  the queue's PROCESS (blank when it names none)
//! 104  64 TriggerData  the queue's TRIGDATA
//! 168   4 ApplType     the process's APPLTYPE as an MQAT_* value
//! 172 256 ApplId       the process's APPLICID (the program to start)
//! 428 128 EnvData      the process's ENVRDATA
//! 556 128 UserData     the process's USERDATA
//! 684                  (end)
//! ```
//!
//! The message's MQMD.Format is `MQFMT_TRIGGER` ("MQTRIG  "); the two integers are in the
//! encoding of that MQMD. MQTM has no queue manager name: the trigger monitor knows which
//! queue manager it serves and adds it to the MQTMC2.
//!
//! # MQTMC2 layout (IBM MQ "MQTMC2 - Trigger message 2 (character format)"), 732 bytes
//!
//! ```text
//! off len field        meaning
//!   0   4 StrucId      "TMC " (MQTMC_STRUC_ID)
//!   4   4 Version      "   2" (MQTMC_VERSION_2)
//!   8  48 QName        as MQTM
//!  56  48 ProcessName  as MQTM
//! 104  64 TriggerData  as MQTM
//! 168   4 ApplType     MQTM's ApplType in character form: the decimal number, right-aligned
//!                      and blank padded ("   6" for MQAT_UNIX)
//! 172 256 ApplId       as MQTM
//! 428 128 EnvData      as MQTM
//! 556 128 UserData     as MQTM
//! 684  48 QMgrName     the queue manager the trigger monitor is connected to
//! 732                  (end)
//! ```
//!
//! Every field is character data (single-byte ASCII here), blank padded, so the whole
//! structure can be passed as one command-line argument, as runmqtrm does.

use ferrite_constants::{
    format::MQFMT_TRIGGER,
    structs::{
        MQTMC2_LENGTH_2, MQTMC_STRUC_ID, MQTMC_VERSION_2, MQTM_LENGTH_1, MQTM_STRUC_ID,
        MQTM_VERSION_1,
    },
};
use ferrite_protocol::ByteOrder;

use crate::codec::{put_i32, read_array, read_i32, trimmed};
use crate::dead_letter_header::{field, HeaderError};

/// Length of an MQTM, version 1.
pub const TRIGGER_MESSAGE_LENGTH: usize = MQTM_LENGTH_1 as usize;

/// Length of an MQTMC2, version 2.
pub const TRIGGER_MESSAGE_CHARACTER_LENGTH: usize = MQTMC2_LENGTH_2 as usize;

/// The MQMD.Format of a trigger message.
pub const TRIGGER_MESSAGE_FORMAT: [u8; 8] = MQFMT_TRIGGER;

/// An MQTM (and, with a queue manager name, an MQTMC2). Character fields are kept without
/// trailing blanks.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TriggerMessage {
    /// QName (≤ 48 characters): the queue that triggered.
    pub q_name: String,
    /// ProcessName (≤ 48 characters).
    pub process_name: String,
    /// TriggerData (≤ 64 characters).
    pub trigger_data: String,
    /// ApplType: MQAT_*.
    pub appl_type: i32,
    /// ApplId (≤ 256 characters).
    pub appl_id: String,
    /// EnvData (≤ 128 characters).
    pub env_data: String,
    /// UserData (≤ 128 characters).
    pub user_data: String,
}

impl TriggerMessage {
    /// Decodes the MQTM at the start of `data` (integers in `order`).
    pub fn decode(data: &[u8], order: ByteOrder) -> Result<TriggerMessage, HeaderError> {
        if data.len() < TRIGGER_MESSAGE_LENGTH {
            return Err(HeaderError::Truncated {
                structure: "MQTM",
                length: TRIGGER_MESSAGE_LENGTH,
                available: data.len(),
            });
        }
        let struc_id: [u8; 4] = read_array(data, 0).expect("length checked");
        if struc_id != MQTM_STRUC_ID {
            return Err(HeaderError::BadStrucId {
                structure: "MQTM",
                found: struc_id,
            });
        }
        let version = read_i32(data, 4, order).expect("length checked");
        if version != MQTM_VERSION_1 {
            return Err(HeaderError::UnsupportedVersion {
                structure: "MQTM",
                version,
            });
        }
        Ok(TriggerMessage {
            q_name: trimmed(&data[8..56]),
            process_name: trimmed(&data[56..104]),
            trigger_data: trimmed(&data[104..168]),
            appl_type: read_i32(data, 168, order).expect("length checked"),
            appl_id: trimmed(&data[172..428]),
            env_data: trimmed(&data[428..556]),
            user_data: trimmed(&data[556..684]),
        })
    }

    /// Encodes the MQTM (integers in `order`). A value longer than its field, or not ASCII,
    /// is an error naming the field.
    pub fn encode(&self, order: ByteOrder) -> Result<Vec<u8>, HeaderError> {
        let mut out = Vec::with_capacity(TRIGGER_MESSAGE_LENGTH);
        out.extend_from_slice(&MQTM_STRUC_ID);
        put_i32(&mut out, MQTM_VERSION_1, order);
        self.put_character_fields(&mut out, |out| put_i32(out, self.appl_type, order))?;
        assert_eq!(out.len(), TRIGGER_MESSAGE_LENGTH);
        Ok(out)
    }

    /// The MQTMC2 a trigger monitor builds from this MQTM for the queue manager `q_mgr_name`.
    pub fn character_form(&self, q_mgr_name: &str) -> Result<Vec<u8>, HeaderError> {
        let mut out = Vec::with_capacity(TRIGGER_MESSAGE_CHARACTER_LENGTH);
        out.extend_from_slice(&MQTMC_STRUC_ID);
        out.extend_from_slice(&MQTMC_VERSION_2);
        let appl_type = format!("{:>4}", self.appl_type);
        let appl_type = field::<4>("ApplType", &appl_type)?;
        self.put_character_fields(&mut out, |out| out.extend_from_slice(&appl_type))?;
        out.extend_from_slice(&field::<48>("QMgrName", q_mgr_name)?);
        assert_eq!(out.len(), TRIGGER_MESSAGE_CHARACTER_LENGTH);
        Ok(out)
    }

    /// Decodes an MQTMC2 (version 2): the trigger message and the queue manager name.
    pub fn decode_character_form(data: &[u8]) -> Result<(TriggerMessage, String), HeaderError> {
        if data.len() < TRIGGER_MESSAGE_CHARACTER_LENGTH {
            return Err(HeaderError::Truncated {
                structure: "MQTMC2",
                length: TRIGGER_MESSAGE_CHARACTER_LENGTH,
                available: data.len(),
            });
        }
        let struc_id: [u8; 4] = read_array(data, 0).expect("length checked");
        if struc_id != MQTMC_STRUC_ID {
            return Err(HeaderError::BadStrucId {
                structure: "MQTMC2",
                found: struc_id,
            });
        }
        if data[4..8] != MQTMC_VERSION_2 {
            return Err(HeaderError::UnsupportedVersion {
                structure: "MQTMC2",
                version: trimmed(&data[4..8]).trim().parse().unwrap_or(-1),
            });
        }
        let appl_type = trimmed(&data[168..172]);
        let appl_type = appl_type
            .trim()
            .parse()
            .map_err(|_| HeaderError::BadField {
                field: "ApplType",
                length: 4,
            })?;
        let message = TriggerMessage {
            q_name: trimmed(&data[8..56]),
            process_name: trimmed(&data[56..104]),
            trigger_data: trimmed(&data[104..168]),
            appl_type,
            appl_id: trimmed(&data[172..428]),
            env_data: trimmed(&data[428..556]),
            user_data: trimmed(&data[556..684]),
        };
        Ok((message, trimmed(&data[684..732])))
    }

    /// QName to UserData, with ApplType written by `appl_type`: the part MQTM and MQTMC2 share.
    fn put_character_fields(
        &self,
        out: &mut Vec<u8>,
        appl_type: impl FnOnce(&mut Vec<u8>),
    ) -> Result<(), HeaderError> {
        out.extend_from_slice(&field::<48>("QName", &self.q_name)?);
        out.extend_from_slice(&field::<48>("ProcessName", &self.process_name)?);
        out.extend_from_slice(&field::<64>("TriggerData", &self.trigger_data)?);
        appl_type(out);
        out.extend_from_slice(&field::<256>("ApplId", &self.appl_id)?);
        out.extend_from_slice(&field::<128>("EnvData", &self.env_data)?);
        out.extend_from_slice(&field::<128>("UserData", &self.user_data)?);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TriggerMessage {
        TriggerMessage {
            q_name: "APP.REQUEST".into(),
            process_name: "APP.PROCESS".into(),
            trigger_data: "some trigger data".into(),
            appl_type: 6,
            appl_id: "/usr/local/bin/server".into(),
            env_data: "--verbose".into(),
            user_data: "user data".into(),
        }
    }

    #[test]
    fn mqtm_layout_at_documented_offsets() {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let bytes = sample().encode(order).unwrap();
            assert_eq!(bytes.len(), 684);
            assert_eq!(&bytes[0..4], b"TM  ");
            let int = |offset: usize| {
                let raw: [u8; 4] = bytes[offset..offset + 4].try_into().unwrap();
                match order {
                    ByteOrder::Big => i32::from_be_bytes(raw),
                    ByteOrder::Little => i32::from_le_bytes(raw),
                }
            };
            assert_eq!(int(4), 1);
            assert_eq!(&bytes[8..19], b"APP.REQUEST");
            assert!(bytes[19..56].iter().all(|&b| b == b' '));
            assert_eq!(&bytes[56..67], b"APP.PROCESS");
            assert_eq!(&bytes[104..121], b"some trigger data");
            assert!(bytes[121..168].iter().all(|&b| b == b' '));
            assert_eq!(int(168), 6);
            assert_eq!(&bytes[172..193], b"/usr/local/bin/server");
            assert_eq!(&bytes[428..437], b"--verbose");
            assert_eq!(&bytes[556..565], b"user data");
            assert!(bytes[565..684].iter().all(|&b| b == b' '));
            assert_eq!(TriggerMessage::decode(&bytes, order), Ok(sample()));
        }
    }

    #[test]
    fn mqtmc2_layout_at_documented_offsets() {
        let bytes = sample().character_form("QM1").unwrap();
        assert_eq!(bytes.len(), 732);
        assert_eq!(&bytes[0..8], b"TMC    2");
        assert_eq!(&bytes[8..19], b"APP.REQUEST");
        assert_eq!(&bytes[56..67], b"APP.PROCESS");
        assert_eq!(&bytes[104..121], b"some trigger data");
        assert_eq!(&bytes[168..172], b"   6");
        assert_eq!(&bytes[172..193], b"/usr/local/bin/server");
        assert_eq!(&bytes[428..437], b"--verbose");
        assert_eq!(&bytes[556..565], b"user data");
        assert_eq!(&bytes[684..687], b"QM1");
        assert!(bytes[687..732].iter().all(|&b| b == b' '));
        assert!(bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' '));
        assert_eq!(
            TriggerMessage::decode_character_form(&bytes),
            Ok((sample(), "QM1".to_string()))
        );
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let bytes = sample().encode(ByteOrder::Big).unwrap();
        assert!(matches!(
            TriggerMessage::decode(&bytes[..683], ByteOrder::Big),
            Err(HeaderError::Truncated { .. })
        ));
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(matches!(
            TriggerMessage::decode(&wrong, ByteOrder::Big),
            Err(HeaderError::BadStrucId { .. })
        ));
        assert!(matches!(
            TriggerMessage::decode(&bytes, ByteOrder::Little),
            Err(HeaderError::UnsupportedVersion { .. })
        ));
        let too_long = TriggerMessage {
            trigger_data: "x".repeat(65),
            ..sample()
        };
        assert_eq!(
            too_long.encode(ByteOrder::Big),
            Err(HeaderError::BadField {
                field: "TriggerData",
                length: 64
            })
        );
        assert!(TriggerMessage::decode_character_form(&bytes).is_err());
    }
}
