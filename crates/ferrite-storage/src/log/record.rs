//! Log record framing.
//!
//! The recovery log is one logical byte stream. A position in it is an RBA (relative byte
//! address, 8 bytes): the number of log bytes that precede it since the log was created, so
//! the RBA difference across an operation is exactly the log volume it cost (what MQ's
//! `DISPLAY LOG` RBA deltas measure).
//!
//! The stream is a sequence of self-checking records laid end to end, with no gaps inside a
//! log page and no per-page header. A record may span 4 KiB log pages; a *physical* record
//! never spans two active log files (see [`RECORD_KIND_END_OF_FILE`]). A *logical* record
//! larger than one active log is written as a chain of segments, one per file it touches (see
//! [`RECORD_KIND_SEGMENT`]), as MQ spans a log record across log control intervals and data
//! sets.
//!
//! ## Record format (little-endian), header 9 bytes
//!
//! Each record is a 9-byte header ([`RECORD_HEADER_LAYOUT`]: length, checksum, kind) followed
//! by `length − 9` payload bytes, described field by field in `docs/formats.md` ("Log record
//! framing"). `length` counts the whole record, header included (9 ..= 9 +
//! [`LOG_RECORD_BYTES_MAX`]); the checksum is CRC-32C over the record's own RBA (u64 LE) ‖
//! length (u32 LE) ‖ kind ‖ payload; the kind is chosen by the caller (0x00 ..= 0xFD), 0xFE
//! being a segment and 0xFF the end-of-file marker.
//!
//! **Why the RBA is in the checksum.** Active log files are reused in a ring. After a file is
//! reused, the bytes beyond the current end of the log are records of the file's previous use.
//! They are well formed, but they were written at other RBAs, so their checksums fail when they
//! are verified at the RBA of the position they occupy now. The end of the log is therefore the
//! first position whose record fails verification (or whose length is zero: a never-written
//! region). No per-page header is needed to tell stale pages from current ones, which keeps the
//! log overhead at 9 bytes per record.
//!
//! **End-of-file marker.** A record must fit in the active log file where it starts. When it
//! does not fit in the rest of the current file, the logger writes a marker record (kind
//! [`RECORD_KIND_END_OF_FILE`]) whose `length` is the distance to the end of the file's RBA
//! range, and the record goes to the start of the next file. The marker's checksum covers only
//! its RBA, length and kind (the bytes after its header are not part of the log and are never
//! written). A file that is filled exactly needs no marker. `ARCHIVE LOG` truncates the current
//! file with a marker that reaches the next 4 KiB page boundary, so every file's RBA range
//! starts on a page boundary and log pages keep RBA ≡ file offset (mod 4096).
//!
//! **Spanned records (segments).** A record longer than an active log's data area cannot fit
//! in any one file. The logger then writes it as consecutive physical records of kind
//! [`RECORD_KIND_SEGMENT`]: the first fills the rest of the current file, each following one
//! fills a whole file (or, the last, as much as is left), each file switch in between. Every
//! segment is a normal record (own length, own checksum over its own RBA) whose payload starts
//! with a segment header ([`SEGMENT_HEADER_LAYOUT`]: the logical record's RBA, its payload
//! length, this segment's offset in it and the logical record's kind), followed by the
//! segment's piece of the logical payload.
//!
//! Readers reassemble the chain and return one logical record at the first segment's RBA, ending
//! where the last segment ends, so the RBA range of a spanned record is as contiguous as any
//! other's (only the file switches' end-of-file markers, if any, sit inside it). A chain cut by
//! a failure (its first segments durable, the rest never written) is an *orphan*: restart ends
//! the log at the first missing segment, later records follow it, and readers drop the orphan
//! when the next record is not its continuation. Nothing was ever acknowledged for it, since a
//! force through its end would have needed every segment durable.

use crate::layout::{layout_bytes, Encoding, Field};
use crate::types::Rba;

/// Fields of a record header (see `docs/formats.md`).
pub mod record_header {
    use super::{Encoding, Field};

    /// Bytes in the whole record, header included.
    pub const LENGTH: Field = Field::new("length", 0, 4, Encoding::U32Le);
    /// CRC-32C over the record's RBA ‖ length ‖ kind ‖ payload.
    pub const CHECKSUM: Field = Field::new("checksum", 4, 4, Encoding::U32Le);
    /// The record kind.
    pub const KIND: Field = Field::new("kind", 8, 1, Encoding::U8);
}

/// A record header, field by field in offset order.
pub const RECORD_HEADER_LAYOUT: [Field; 3] = [
    record_header::LENGTH,
    record_header::CHECKSUM,
    record_header::KIND,
];

/// Fields of the segment header at the start of a segment's payload (see `docs/formats.md`).
pub mod segment_header {
    use super::{Encoding, Field};

    /// RBA of the first segment: the logical record's RBA.
    pub const RECORD_RBA: Field = Field::new("record RBA", 0, 8, Encoding::U64Le);
    /// The logical record's payload length.
    pub const TOTAL_BYTES: Field = Field::new("total bytes", 8, 4, Encoding::U32Le);
    /// Where this segment's bytes go in the logical payload.
    pub const OFFSET: Field = Field::new("offset", 12, 4, Encoding::U32Le);
    /// The logical record's kind.
    pub const KIND: Field = Field::new("kind", 16, 1, Encoding::U8);
}

/// A segment header, field by field in offset order.
pub const SEGMENT_HEADER_LAYOUT: [Field; 4] = [
    segment_header::RECORD_RBA,
    segment_header::TOTAL_BYTES,
    segment_header::OFFSET,
    segment_header::KIND,
];

/// Bytes in a record header.
pub const LOG_RECORD_HEADER_BYTES: usize = layout_bytes(&RECORD_HEADER_LAYOUT);
/// Largest payload one record may carry: 128 MiB + 4 KiB (a 100 MB message plus its
/// descriptors fits). A record must also fit in one active log file.
pub const LOG_RECORD_BYTES_MAX: usize = 128 * 1024 * 1024 + 4096;
/// Kind of the end-of-file marker record (reserved; callers may not append it).
pub const RECORD_KIND_END_OF_FILE: u8 = 0xFF;
/// Kind of a segment of a record spanning active logs (reserved; callers may not append it).
pub const RECORD_KIND_SEGMENT: u8 = 0xFE;
/// Bytes of the segment header at the start of a segment's payload.
pub const SEGMENT_HEADER_BYTES: usize = layout_bytes(&SEGMENT_HEADER_LAYOUT);

/// The header at the start of a segment's payload (see "Spanned records" above).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SegmentHeader {
    /// RBA of the chain's first segment: the logical record's RBA.
    pub record_rba: u64,
    /// Length of the logical record's payload.
    pub total_bytes: u32,
    /// Offset of this segment's bytes in the logical payload.
    pub offset: u32,
    /// Kind of the logical record.
    pub kind: u8,
}

impl SegmentHeader {
    pub fn encode(&self) -> [u8; SEGMENT_HEADER_BYTES] {
        let mut bytes = [0u8; SEGMENT_HEADER_BYTES];
        segment_header::RECORD_RBA.put(&mut bytes, self.record_rba);
        segment_header::TOTAL_BYTES.put(&mut bytes, u64::from(self.total_bytes));
        segment_header::OFFSET.put(&mut bytes, u64::from(self.offset));
        segment_header::KIND.put(&mut bytes, u64::from(self.kind));
        bytes
    }

    /// Decode the header of a segment's payload (already checksum-verified) and return it with
    /// the segment's piece of the logical payload. Refuses what no logger writes.
    pub fn decode(payload: &[u8]) -> Result<(SegmentHeader, &[u8]), String> {
        if payload.len() < SEGMENT_HEADER_BYTES {
            return Err(format!(
                "segment of {} bytes is shorter than its {SEGMENT_HEADER_BYTES}-byte header",
                payload.len()
            ));
        }
        let header = SegmentHeader {
            record_rba: segment_header::RECORD_RBA.get(payload),
            total_bytes: segment_header::TOTAL_BYTES.get(payload) as u32,
            offset: segment_header::OFFSET.get(payload) as u32,
            kind: segment_header::KIND.get(payload) as u8,
        };
        let piece = &payload[SEGMENT_HEADER_BYTES..];
        if header.total_bytes as usize > LOG_RECORD_BYTES_MAX
            || header.kind >= RECORD_KIND_SEGMENT
            || u64::from(header.offset) + piece.len() as u64 > u64::from(header.total_bytes)
        {
            return Err(format!(
                "impossible segment: kind {:#04X}, bytes {}..{} of {}",
                header.kind,
                header.offset,
                u64::from(header.offset) + piece.len() as u64,
                header.total_bytes
            ));
        }
        Ok((header, piece))
    }
}

/// A decoded, structurally plausible record header (not yet checksum-verified).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RecordHeader {
    /// Whole record length, header included.
    pub length: u32,
    pub checksum: u32,
    pub kind: u8,
}

impl RecordHeader {
    pub fn payload_len(&self) -> usize {
        self.length as usize - LOG_RECORD_HEADER_BYTES
    }
    pub fn is_end_of_file(&self) -> bool {
        self.kind == RECORD_KIND_END_OF_FILE
    }
}

/// Why a record failed verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordDefect {
    /// Length 0: a never-written (zero-filled) region.
    Empty,
    /// Length outside 9 ..= 9 + max, or the record would run past the bytes available.
    BadLength(u32),
    /// Checksum mismatch: damaged, or a stale record from an earlier use of the space.
    Checksum { stored: u32, computed: u32 },
}

impl std::fmt::Display for RecordDefect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordDefect::Empty => write!(f, "no record (zero length: end of written log)"),
            RecordDefect::BadLength(length) => write!(f, "impossible record length {length}"),
            RecordDefect::Checksum { stored, computed } => write!(
                f,
                "checksum mismatch (stored {stored:08X}, computed {computed:08X}): damaged or stale record"
            ),
        }
    }
}

/// CRC-32C of the fields that precede the payload in the checksum input.
fn prefix_checksum(rba: Rba, length: u32, kind: u8) -> u32 {
    let mut prefix = [0u8; 13];
    prefix[0..8].copy_from_slice(&rba.0.to_le_bytes());
    prefix[8..12].copy_from_slice(&length.to_le_bytes());
    prefix[12] = kind;
    crc32c::crc32c(&prefix)
}

/// Payloads up to this size are checksummed directly once their RBA is known, under the append
/// lock (hardware CRC-32C). Larger ones are checksummed before the RBA is known, outside the append
/// lock, and joined to the prefix's CRC by [`crc32c_join`].
pub const INLINE_CHECKSUM_BYTES_MAX: usize = 16 * 1024;

/// Encode a header, checksumming the payload (given in parts) in place: the fast path for small
/// records. Same result as [`encode_header`] with [`payload_checksum`].
pub fn encode_header_inline(
    rba: Rba,
    kind: u8,
    parts: &[&[u8]],
    payload_len: usize,
) -> [u8; LOG_RECORD_HEADER_BYTES] {
    assert!(
        payload_len <= LOG_RECORD_BYTES_MAX,
        "log record payload {payload_len} bytes exceeds the maximum"
    );
    let length = (payload_len + LOG_RECORD_HEADER_BYTES) as u32;
    let checksum = parts
        .iter()
        .fold(prefix_checksum(rba, length, kind), |crc, part| {
            crc32c::crc32c_append(crc, part)
        });
    header_bytes(length, checksum, kind)
}

/// CRC-32C of a payload given in parts (the concatenation is the payload).
pub fn payload_checksum(parts: &[&[u8]]) -> u32 {
    parts
        .iter()
        .fold(0u32, |crc, part| crc32c::crc32c_append(crc, part))
}

/// The record checksum, from the payload's own CRC-32C (so the payload can be summed before the
/// RBA is known, outside the append lock; [`crc32c_join`] joins the two).
pub fn record_checksum(rba: Rba, length: u32, kind: u8, payload_crc: u32) -> u32 {
    let payload_len = length as usize - LOG_RECORD_HEADER_BYTES;
    let prefix = prefix_checksum(rba, length, kind);
    if kind == RECORD_KIND_END_OF_FILE {
        return prefix;
    }
    crc32c_join(prefix, payload_crc, payload_len as u64)
}

/// CRC-32C's polynomial, bit-reflected (as the hardware instruction and the crc32c crate use it).
const CRC32C_POLYNOMIAL_REFLECTED: u32 = 0x82F6_3B78;

/// Product of two polynomials modulo CRC-32C's, both in the reflected bit order (bit 31 is x^0).
const fn multiply_modulo(a: u32, mut b: u32) -> u32 {
    let mut product = 0u32;
    let mut bit = 1u32 << 31;
    while bit != 0 {
        if a & bit != 0 {
            product ^= b;
        }
        bit >>= 1;
        b = if b & 1 != 0 {
            (b >> 1) ^ CRC32C_POLYNOMIAL_REFLECTED
        } else {
            b >> 1
        };
    }
    product
}

/// `X_POWER_TWO_POWER[k]` = x^(2^k) modulo CRC-32C's polynomial, reflected.
const X_POWER_TWO_POWER: [u32; 64] = {
    let mut table = [0u32; 64];
    let mut power = 1u32 << 30; // x^1
    let mut k = 0;
    while k < 64 {
        table[k] = power;
        power = multiply_modulo(power, power);
        k += 1;
    }
    table
};

/// CRC-32C of `a` followed by `b`, from `crc(a)`, `crc(b)` and `b`'s length: `crc(a)` times
/// x^(8 * length) modulo the polynomial, plus `crc(b)` (the CRC's initial and final inversions
/// cancel). Same result as `crc32c::crc32c_combine`, which squares 32 x 32 bit matrices for
/// every bit of the length; here it is one table entry and one multiplication per set bit.
fn crc32c_join(crc_a: u32, crc_b: u32, length_b: u64) -> u32 {
    let mut shift = 1u32 << 31; // x^0
    let mut bits = length_b;
    let mut k = 3; // a byte is x^8 = x^(2^3)
    while bits != 0 {
        if bits & 1 != 0 {
            shift = multiply_modulo(X_POWER_TWO_POWER[k], shift);
        }
        bits >>= 1;
        k += 1;
    }
    multiply_modulo(shift, crc_a) ^ crc_b
}

/// The bytes of a record header.
fn header_bytes(length: u32, checksum: u32, kind: u8) -> [u8; LOG_RECORD_HEADER_BYTES] {
    let mut header = [0u8; LOG_RECORD_HEADER_BYTES];
    record_header::LENGTH.put(&mut header, u64::from(length));
    record_header::CHECKSUM.put(&mut header, u64::from(checksum));
    record_header::KIND.put(&mut header, u64::from(kind));
    header
}

/// Encode a header for a record of `payload_len` bytes at `rba`.
pub fn encode_header(
    rba: Rba,
    kind: u8,
    payload_len: usize,
    payload_crc: u32,
) -> [u8; LOG_RECORD_HEADER_BYTES] {
    assert!(
        payload_len <= LOG_RECORD_BYTES_MAX,
        "log record payload {payload_len} bytes exceeds the maximum"
    );
    let length = (payload_len + LOG_RECORD_HEADER_BYTES) as u32;
    let checksum = record_checksum(rba, length, kind, payload_crc);
    header_bytes(length, checksum, kind)
}

/// Encode an end-of-file marker at `rba` that covers `length` bytes (to the end of the file's
/// RBA range). Only the header is written.
pub fn encode_end_of_file_marker(rba: Rba, length: u32) -> [u8; LOG_RECORD_HEADER_BYTES] {
    assert!(
        length as usize >= LOG_RECORD_HEADER_BYTES,
        "end-of-file marker shorter than a header"
    );
    let checksum = prefix_checksum(rba, length, RECORD_KIND_END_OF_FILE);
    header_bytes(length, checksum, RECORD_KIND_END_OF_FILE)
}

/// Decode a header and check its length is possible. `available` is how many bytes of log
/// remain from the record's start to the end of its file (the record must fit).
pub fn decode_header(
    bytes: &[u8; LOG_RECORD_HEADER_BYTES],
    available: u64,
) -> Result<RecordHeader, RecordDefect> {
    let length = record_header::LENGTH.get(bytes) as u32;
    let checksum = record_header::CHECKSUM.get(bytes) as u32;
    let kind = record_header::KIND.get(bytes) as u8;
    if length == 0 {
        return Err(RecordDefect::Empty);
    }
    let too_long = kind != RECORD_KIND_END_OF_FILE
        && length as usize > LOG_RECORD_BYTES_MAX + LOG_RECORD_HEADER_BYTES;
    if (length as usize) < LOG_RECORD_HEADER_BYTES || too_long || u64::from(length) > available {
        return Err(RecordDefect::BadLength(length));
    }
    Ok(RecordHeader {
        length,
        checksum,
        kind,
    })
}

/// Check a decoded header against the CRC-32C of its payload.
pub fn verify(rba: Rba, header: &RecordHeader, payload_crc: u32) -> Result<(), RecordDefect> {
    let computed = record_checksum(rba, header.length, header.kind, payload_crc);
    if computed != header.checksum {
        return Err(RecordDefect::Checksum {
            stored: header.checksum,
            computed,
        });
    }
    Ok(())
}

/// Check a decoded header against its payload, held whole in memory: the payload is appended
/// to the checksum of the fields before it (cheaper than [`verify`], which must combine two
/// checksums). An end-of-file marker's payload is empty.
pub fn verify_payload(rba: Rba, header: &RecordHeader, payload: &[u8]) -> Result<(), RecordDefect> {
    let prefix = prefix_checksum(rba, header.length, header.kind);
    let computed = if header.is_end_of_file() {
        prefix
    } else {
        crc32c::crc32c_append(prefix, payload)
    };
    if computed != header.checksum {
        return Err(RecordDefect::Checksum {
            stored: header.checksum,
            computed,
        });
    }
    Ok(())
}

/// Frame one record into a new vector (tools and tests; the log manager frames in place).
pub fn encode_record(rba: Rba, kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(LOG_RECORD_HEADER_BYTES + payload.len());
    bytes.extend_from_slice(&encode_header(
        rba,
        kind,
        payload.len(),
        crc32c::crc32c(payload),
    ));
    bytes.extend_from_slice(payload);
    bytes
}

/// Decode and verify the record at the start of `bytes`, which sits at `rba`.
/// Returns the header and the payload.
pub fn decode_record(rba: Rba, bytes: &[u8]) -> Result<(RecordHeader, &[u8]), RecordDefect> {
    if bytes.len() < LOG_RECORD_HEADER_BYTES {
        return Err(RecordDefect::BadLength(bytes.len() as u32));
    }
    let header = decode_header(
        bytes[..LOG_RECORD_HEADER_BYTES].try_into().unwrap(),
        bytes.len() as u64,
    )?;
    let payload: &[u8] = if header.is_end_of_file() {
        &[]
    } else {
        &bytes[LOG_RECORD_HEADER_BYTES..header.length as usize]
    };
    verify(rba, &header, crc32c::crc32c(payload))?;
    Ok((header, payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_join_is_the_crc_of_the_concatenation() {
        let bytes: Vec<u8> = (0..300_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for (split, end) in [
            (0, 0),
            (0, 1),
            (1, 1),
            (13, 13),
            (13, 14),
            (13, 4096),
            (5, 16 * 1024 + 13),
            (13, 65_536 + 13),
            (1000, 300_000),
        ] {
            let (a, b) = bytes[..end].split_at(split);
            let joined = crc32c_join(crc32c::crc32c(a), crc32c::crc32c(b), b.len() as u64);
            assert_eq!(
                joined,
                crc32c::crc32c(&bytes[..end]),
                "split {split} end {end}"
            );
            assert_eq!(
                joined,
                crc32c::crc32c_combine(crc32c::crc32c(a), crc32c::crc32c(b), b.len()),
                "as the crc32c crate joins them"
            );
        }
    }

    #[test]
    fn round_trip_including_empty_payload_and_parts() {
        for payload in [&b""[..], b"x", &[7u8; 5000][..]] {
            let bytes = encode_record(Rba(4096 + 17), 3, payload);
            assert_eq!(bytes.len(), LOG_RECORD_HEADER_BYTES + payload.len());
            let (header, decoded) = decode_record(Rba(4096 + 17), &bytes).unwrap();
            assert_eq!(header.kind, 3);
            assert_eq!(decoded, payload);
        }
        // A payload given in parts frames exactly like the concatenation.
        let crc = payload_checksum(&[b"abc", b"", b"defg"]);
        assert_eq!(crc, crc32c::crc32c(b"abcdefg"));
        assert_eq!(
            encode_header(Rba(9), 1, 7, crc),
            encode_record(Rba(9), 1, b"abcdefg")[..9]
        );
    }

    #[test]
    fn every_single_byte_corruption_is_detected() {
        let payload: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
        let rba = Rba(123_456);
        let original = encode_record(rba, 0x21, &payload);
        for index in 0..original.len() {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut damaged = original.clone();
                damaged[index] ^= flip;
                // Give the decoder room to read a longer (corrupted) length.
                damaged.extend_from_slice(&[0u8; 512]);
                assert!(
                    decode_record(rba, &damaged).is_err(),
                    "corruption at byte {index} (xor {flip:02X}) not detected"
                );
            }
        }
    }

    #[test]
    fn a_record_verified_at_another_rba_is_stale() {
        let bytes = encode_record(Rba(8192), 1, b"hello");
        assert!(decode_record(Rba(8192), &bytes).is_ok());
        for other in [0u64, 1, 8191, 8193, 8192 + 1024 * 1024] {
            assert!(matches!(
                decode_record(Rba(other), &bytes),
                Err(RecordDefect::Checksum { .. })
            ));
        }
    }

    #[test]
    fn zeros_are_the_end_of_the_log() {
        assert_eq!(
            decode_record(Rba(0), &[0u8; 64]).unwrap_err(),
            RecordDefect::Empty
        );
    }

    #[test]
    fn end_of_file_marker_verifies_without_its_padding() {
        let marker = encode_end_of_file_marker(Rba(1000), 3096);
        let mut bytes = marker.to_vec();
        bytes.resize(3096, 0xAB);
        let (header, payload) = decode_record(Rba(1000), &bytes).unwrap();
        assert!(header.is_end_of_file());
        assert_eq!(header.length, 3096);
        assert!(payload.is_empty());
        assert!(decode_record(Rba(1001), &bytes).is_err());
    }

    #[test]
    fn impossible_lengths_are_refused() {
        let bytes = encode_record(Rba(0), 1, b"abc");
        // Fewer bytes available than the length claims.
        assert!(matches!(
            decode_record(Rba(0), &bytes[..10]),
            Err(RecordDefect::BadLength(_))
        ));
        let mut short = bytes.clone();
        short[0..4].copy_from_slice(&5u32.to_le_bytes());
        assert!(matches!(
            decode_record(Rba(0), &short),
            Err(RecordDefect::BadLength(5))
        ));
    }
}
