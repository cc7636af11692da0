//! The PCF data of an event message the queue manager writes (MQCFH, then MQCFIN and MQCFST
//! parameters), in one byte order. Strings are MQ's fixed-length fields: cut to their length
//! and blank padded, so StrucLength stays a multiple of four.
//!
//! | structure | fields (each an MQLONG unless said) |
//! |---|---|
//! | MQCFH (36 bytes) | Type MQCFT_EVENT, StrucLength 36, Version, Command, MsgSeqNumber 1, Control MQCFC_LAST, CompCode MQCC_WARNING, Reason, ParameterCount |
//! | MQCFIN (16 bytes) | Type MQCFT_INTEGER, StrucLength 16, Parameter, Value |
//! | MQCFST (20 + length) | Type MQCFT_STRING, StrucLength, Parameter, CodedCharSetId (the queue manager's), StringLength, the string |
//! | MQCFIL (16 + 4n) | Type MQCFT_INTEGER_LIST, StrucLength, Parameter, Count, the values |
//! | MQCFIL64 (16 + 8n) | Type MQCFT_INTEGER64_LIST, StrucLength, Parameter, Count, the values (MQINT64) |
//!
//! Statistics and accounting messages (statistics_messages.rs) have the same layout with
//! MQCFH Type MQCFT_STATISTICS or MQCFT_ACCOUNTING and CompCode MQCC_OK, Reason 0.

use ferrite_constants::{completion::MQCC_WARNING, pcf::*};
use ferrite_protocol::ByteOrder;

use crate::descriptor::QUEUE_MANAGER_CCSID;

/// Offset of MQCFH ParameterCount, written when the message is finished.
const PARAMETER_COUNT_OFFSET: usize = 32;

/// An event message being written.
pub struct EventWriter {
    out: Vec<u8>,
    order: ByteOrder,
    parameters: i32,
}

impl EventWriter {
    /// An event with MQCFH `version`, `command` (MQCMD_*_EVENT) and `reason`.
    pub fn new(version: i32, command: i32, reason: i32, order: ByteOrder) -> EventWriter {
        EventWriter::with_header(MQCFT_EVENT, version, command, MQCC_WARNING, reason, order)
    }

    /// A PCF message of MQCFH `cfh_type` (MQCFT_EVENT, MQCFT_STATISTICS, MQCFT_ACCOUNTING).
    pub fn with_header(
        cfh_type: i32,
        version: i32,
        command: i32,
        completion_code: i32,
        reason: i32,
        order: ByteOrder,
    ) -> EventWriter {
        let mut writer = EventWriter {
            out: Vec::with_capacity(512),
            order,
            parameters: 0,
        };
        for value in [
            cfh_type,
            MQCFH_STRUC_LENGTH,
            version,
            command,
            1,
            MQCFC_LAST,
            completion_code,
            reason,
            0,
        ] {
            writer.int(value);
        }
        debug_assert_eq!(writer.out.len(), MQCFH_STRUC_LENGTH as usize);
        writer
    }

    /// MQCFH MsgSeqNumber (from 1) and Control (MQCFC_LAST on the last of a sequence).
    pub fn sequence(&mut self, number: i32, last: bool) -> &mut EventWriter {
        assert!(number >= 1, "sequence numbers start at 1");
        let control = if last { MQCFC_LAST } else { MQCFC_NOT_LAST };
        for (offset, value) in [(16, number), (20, control)] {
            let bytes = match self.order {
                ByteOrder::Big => value.to_be_bytes(),
                ByteOrder::Little => value.to_le_bytes(),
            };
            self.out[offset..offset + 4].copy_from_slice(&bytes);
        }
        self
    }

    fn int(&mut self, value: i32) {
        match self.order {
            ByteOrder::Big => self.out.extend_from_slice(&value.to_be_bytes()),
            ByteOrder::Little => self.out.extend_from_slice(&value.to_le_bytes()),
        }
    }

    /// An MQCFIN.
    pub fn integer(&mut self, parameter: i32, value: i32) -> &mut EventWriter {
        for field in [MQCFT_INTEGER, MQCFIN_STRUC_LENGTH, parameter, value] {
            self.int(field);
        }
        self.parameters += 1;
        self
    }

    /// An MQCFGR holding the parameters `fill` writes (counted in the group, not in the
    /// message's ParameterCount).
    pub fn group(
        &mut self,
        parameter: i32,
        fill: impl FnOnce(&mut EventWriter),
    ) -> &mut EventWriter {
        let header = self.out.len();
        for field in [MQCFT_GROUP, MQCFGR_STRUC_LENGTH, parameter, 0] {
            self.int(field);
        }
        let outside = self.parameters;
        fill(self);
        let inside = self.parameters - outside;
        let count = match self.order {
            ByteOrder::Big => inside.to_be_bytes(),
            ByteOrder::Little => inside.to_le_bytes(),
        };
        self.out[header + 12..header + 16].copy_from_slice(&count);
        self.parameters = outside + 1;
        self
    }

    /// An MQCFIL.
    pub fn integer_list(&mut self, parameter: i32, values: &[i32]) -> &mut EventWriter {
        let count = i32::try_from(values.len()).expect("a short list");
        for field in [
            MQCFT_INTEGER_LIST,
            MQCFIL_STRUC_LENGTH_FIXED + 4 * count,
            parameter,
            count,
        ] {
            self.int(field);
        }
        for value in values {
            self.int(*value);
        }
        self.parameters += 1;
        self
    }

    /// An MQCFIN64 (its Reserved field zero).
    pub fn integer64(&mut self, parameter: i32, value: i64) -> &mut EventWriter {
        for field in [MQCFT_INTEGER64, MQCFIN64_STRUC_LENGTH, parameter, 0] {
            self.int(field);
        }
        match self.order {
            ByteOrder::Big => self.out.extend_from_slice(&value.to_be_bytes()),
            ByteOrder::Little => self.out.extend_from_slice(&value.to_le_bytes()),
        }
        self.parameters += 1;
        self
    }

    /// An MQCFIL64.
    pub fn integer64_list(&mut self, parameter: i32, values: &[i64]) -> &mut EventWriter {
        let count = i32::try_from(values.len()).expect("a short list");
        for field in [
            MQCFT_INTEGER64_LIST,
            MQCFIL64_STRUC_LENGTH_FIXED + 8 * count,
            parameter,
            count,
        ] {
            self.int(field);
        }
        for value in values {
            match self.order {
                ByteOrder::Big => self.out.extend_from_slice(&value.to_be_bytes()),
                ByteOrder::Little => self.out.extend_from_slice(&value.to_le_bytes()),
            }
        }
        self.parameters += 1;
        self
    }

    /// An MQCFST of an MQ field `length` bytes long (a multiple of four): `text` cut to it and
    /// blank padded.
    pub fn string(&mut self, parameter: i32, text: &str, length: i32) -> &mut EventWriter {
        assert!(
            length > 0 && length % 4 == 0,
            "MQCFST field lengths stay multiples of 4 ({length})"
        );
        for value in [
            MQCFT_STRING,
            MQCFST_STRUC_LENGTH_FIXED + length,
            parameter,
            QUEUE_MANAGER_CCSID,
            length,
        ] {
            self.int(value);
        }
        let start = self.out.len();
        self.out.resize(start + length as usize, b' ');
        for (slot, byte) in self.out[start..].iter_mut().zip(text.bytes()) {
            *slot = byte;
        }
        self.parameters += 1;
        self
    }

    /// The message's data, ParameterCount filled in.
    pub fn finish(mut self) -> Vec<u8> {
        let count = match self.order {
            ByteOrder::Big => self.parameters.to_be_bytes(),
            ByteOrder::Little => self.parameters.to_le_bytes(),
        };
        self.out[PARAMETER_COUNT_OFFSET..PARAMETER_COUNT_OFFSET + 4].copy_from_slice(&count);
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structures_have_their_lengths_and_the_count() {
        let mut writer = EventWriter::new(1, MQCMD_Q_MGR_EVENT, 2051, ByteOrder::Big);
        writer.string(2015, "QM1", 48).integer(1, 28);
        let data = writer.finish();
        assert_eq!(data.len(), 36 + 20 + 48 + 16);
        let word =
            |index: usize| i32::from_be_bytes(data[index * 4..index * 4 + 4].try_into().unwrap());
        assert_eq!(word(0), MQCFT_EVENT);
        assert_eq!(word(3), MQCMD_Q_MGR_EVENT);
        assert_eq!(word(7), 2051);
        assert_eq!(word(8), 2, "ParameterCount");
        assert_eq!(word(10), 68, "MQCFST StrucLength");
        assert_eq!(&data[56..60], b"QM1 ");
        assert!(data[59..104].iter().all(|byte| *byte == b' '));
        assert_eq!(word(26), MQCFT_INTEGER);
        assert_eq!(word(29), 28);
    }
}
