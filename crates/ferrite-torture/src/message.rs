//! What a torture message carries, so that any message seen on a queue can be checked on its
//! own: its number in the MsgId, the same number in the CorrelId (for gets by CorrelId and the
//! CORRELID index), and data whose length and bytes are a function of the number.
//!
//! MsgId (24 bytes): `"TRTM"`, the message number (8 bytes, big-endian), the priority it was
//! put with (1 byte), the data length (4 bytes, big-endian), the worker slot that put it
//! (2 bytes, big-endian), 5 zero bytes. CorrelId: `"TRTC"`, the message number (8 bytes,
//! big-endian), 12 zero bytes. Data: byte `i` is [`data_byte`]`(number, i)`.

use crate::random::Random;

/// Largest message the workload puts: 100 KB.
pub const MESSAGE_BYTES_MAX: usize = 100 * 1024;

const MSG_ID_TAG: &[u8; 4] = b"TRTM";
const CORREL_ID_TAG: &[u8; 4] = b"TRTC";

/// Everything the MsgId of a torture message says about it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MessageIdentity {
    pub number: u64,
    pub priority: u8,
    pub length: u32,
    pub worker: u16,
}

pub fn message_id(identity: &MessageIdentity) -> [u8; 24] {
    let mut id = [0u8; 24];
    id[..4].copy_from_slice(MSG_ID_TAG);
    id[4..12].copy_from_slice(&identity.number.to_be_bytes());
    id[12] = identity.priority;
    id[13..17].copy_from_slice(&identity.length.to_be_bytes());
    id[17..19].copy_from_slice(&identity.worker.to_be_bytes());
    id
}

/// The identity in a MsgId, or `None` when it is not a torture message's MsgId.
pub fn parse_message_id(id: &[u8; 24]) -> Option<MessageIdentity> {
    if &id[..4] != MSG_ID_TAG || id[19..].iter().any(|byte| *byte != 0) {
        return None;
    }
    Some(MessageIdentity {
        number: u64::from_be_bytes(id[4..12].try_into().expect("8 bytes")),
        priority: id[12],
        length: u32::from_be_bytes(id[13..17].try_into().expect("4 bytes")),
        worker: u16::from_be_bytes(id[17..19].try_into().expect("2 bytes")),
    })
}

pub fn correl_id(number: u64) -> [u8; 24] {
    let mut id = [0u8; 24];
    id[..4].copy_from_slice(CORREL_ID_TAG);
    id[4..12].copy_from_slice(&number.to_be_bytes());
    id
}

pub fn data_byte(number: u64, index: usize) -> u8 {
    let mixed = number.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((mixed >> ((index % 8) * 8)) as u8).wrapping_add((index / 8) as u8)
}

pub fn data(number: u64, length: usize) -> Vec<u8> {
    (0..length).map(|index| data_byte(number, index)).collect()
}

/// Whether `bytes` are the data of message `number` with the length its MsgId names.
pub fn data_matches(identity: &MessageIdentity, bytes: &[u8]) -> bool {
    bytes.len() == identity.length as usize
        && bytes
            .iter()
            .enumerate()
            .all(|(index, byte)| *byte == data_byte(identity.number, index))
}

/// A message length from the workload's mix: 5% empty, 55% up to 256 B, 30% up to 4 KiB,
/// 9% up to 32 KiB, 1% up to 100 KB.
pub fn random_length(random: &mut Random) -> usize {
    match random.below(100) {
        0..=4 => 0,
        5..=59 => random.between(1, 256) as usize,
        60..=89 => random.between(257, 4096) as usize,
        90..=98 => random.between(4097, 32 * 1024) as usize,
        _ => random.between(32 * 1024 + 1, MESSAGE_BYTES_MAX as u64) as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_round_trips_and_data_is_checked() {
        let identity = MessageIdentity {
            number: 0x0102_0304_0506_0708,
            priority: 9,
            length: 300,
            worker: 7,
        };
        assert_eq!(parse_message_id(&message_id(&identity)), Some(identity));
        assert_eq!(parse_message_id(&[0u8; 24]), None);
        let mut bytes = data(identity.number, 300);
        assert!(data_matches(&identity, &bytes));
        bytes[299] ^= 1;
        assert!(!data_matches(&identity, &bytes));
        assert!(!data_matches(&identity, &bytes[..299]));
    }
}
