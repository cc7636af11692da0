//! A fast hasher for the hot path's hash maps: message and correlation identifiers in a queue's
//! indexes, object handles in a connection.
//!
//! The standard library's SipHash resists collision attacks from untrusted keys at about
//! 20 ns per 24-byte identifier; these maps hash once or twice per MQPUT and MQGET, so that
//! was a few per cent of a message's processor time. The keys here are identifiers the queue
//! manager generates (a counter in a fixed layout) or ones the application chose for its own
//! messages, and handles the connection numbered: an application can only slow its own
//! queue's index by choosing colliding identifiers, never reach another's data. Each 8-byte
//! word is folded in with a multiply-rotate step (as FxHash does) and the result goes through
//! MurmurHash3's 64-bit finaliser, so a counter in any byte reaches every bit of the hash
//! (hashbrown takes the bucket from the low bits and the tag from the top 7).

use std::hash::{BuildHasherDefault, Hasher};

/// `HashMap<K, V, FastHashing>`: a map whose keys are hashed with [`FastHasher`].
pub type FastHashing = BuildHasherDefault<FastHasher>;

/// See the module documentation.
#[derive(Default, Clone, Copy, Debug)]
pub struct FastHasher {
    state: u64,
}

/// FxHash's multiplier (an odd constant with well-spread bits).
const FOLD_MULTIPLIER: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    fn fold(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(FOLD_MULTIPLIER);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.fold(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            // The length keeps "ab" and "ab\0" apart.
            self.fold(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.fold(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.fold(u64::from(value));
    }

    fn write_i32(&mut self, value: i32) {
        self.fold(value as u32 as u64);
    }

    fn write_u64(&mut self, value: u64) {
        self.fold(value);
    }

    fn write_usize(&mut self, value: usize) {
        self.fold(value as u64);
    }

    /// MurmurHash3's fmix64: every input bit affects every output bit.
    fn finish(&self) -> u64 {
        let mut hash = self.state;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        hash ^= hash >> 33;
        hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::hash::{BuildHasher, Hash};

    fn hash_of(value: impl Hash) -> u64 {
        FastHashing::default().hash_one(value)
    }

    #[test]
    fn a_counter_in_any_byte_spreads_over_buckets_and_tags() {
        // Identifiers that differ only in one byte (a counter), as generated MsgIds do: both
        // the low bits (bucket) and the top 7 bits (tag) must take many values.
        for byte in [0usize, 7, 8, 15, 16, 23] {
            let mut buckets = HashSet::new();
            let mut tags = HashSet::new();
            for counter in 0..=255u8 {
                let mut identifier = [b'A'; 24];
                identifier[byte] = counter;
                let hash = hash_of(identifier);
                buckets.insert(hash & 0xff);
                tags.insert(hash >> 57);
            }
            assert!(
                buckets.len() > 140,
                "byte {byte}: {} buckets",
                buckets.len()
            );
            assert!(tags.len() > 100, "byte {byte}: {} tags", tags.len());
        }
    }

    #[test]
    fn equal_keys_hash_equal_and_lengths_differ() {
        assert_eq!(hash_of([7u8; 24]), hash_of([7u8; 24]));
        assert_ne!(hash_of(&b"ab"[..]), hash_of(&b"ab\0"[..]));
        assert_ne!(hash_of(1i32), hash_of(2i32));
    }
}
