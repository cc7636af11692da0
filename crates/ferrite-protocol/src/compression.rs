//! Compression on message channels: COMPHDR (header data) and COMPMSG (message data).
//!
//! # Negotiation
//!
//! Each end lists the techniques its channel definition allows, in order of preference, in
//! INITIAL_DATA ([`crate::initial_data`]: HdrCompList, 2 one-byte entries at offset 104, and
//! MsgCompList, 16 at offset 106, FAP 9 and later). An entry is an MQCOMPRESS_* value (NONE 0,
//! RLE 1, ZLIBFAST 2, ZLIBHIGH 4, SYSTEM 8); unused entries are MQCOMPRESS_NOT_AVAILABLE
//! (0xFF, -1 in a byte). The responder (the receiving MCA) chooses, for each list, the first
//! technique of the proposer's list that its own list allows (ANY allows every technique),
//! and answers with that one technique first in the list; NONE when none is shared, as MQ
//! falls back to no compression ([`choose`]).
//!
//! # Compressed segments
//!
//! Only MESSAGE_DATA flows are compressed, each TSH segment on its own after the flow has
//! been cut into segments of the negotiated transmission size, so the receiver decompresses
//! one segment into at most that size and a corrupt segment is found before it is
//! reassembled. ControlFlags2 says what a segment's payload holds ([`SegmentCompression`]):
//!
//! ```text
//! HDRCOMP (first segment only): 4 CompressedHeaderLength (segment byte order)
//!                               n the header region (MSH, MQXQH with its MQMD: at most
//!                                 HEADER_REGION_LENGTH bytes) compressed by RLE (SYSTEM)
//! then the body, the rest of the segment's bytes:
//! MSGCOMP set:   the body compressed by the negotiated COMPMSG technique
//! MSGCOMP clear: the body as it is
//! ```
//!
//! A segment whose compressed form would not be smaller is sent as it is, its flag clear
//! (incompressible data costs nothing on the wire). zlib is RFC 1950 (a zlib stream with its
//! Adler-32), level 1 for ZLIBFAST and 9 for ZLIBHIGH. IBM documents neither the byte layout
//! of its compressed segments nor the byte format of its RLE, so this layout and the RLE
//! below are Ferrite's: two Ferrite queue managers agree on them; a compressed channel to an
//! IBM MQ queue manager is not claimed to work (COMPHDR(NONE) COMPMSG(NONE) is).
//!
//! # RLE
//!
//! A run-length encoding of bytes (PackBits-like): a control byte `c` followed by
//! - `c` in 0..=127: `c + 1` literal bytes;
//! - `c` in 128..=255: one byte, repeated `c - 125` times (3 to 130).
//!
//! Runs shorter than three bytes are literals. Blank-padded MQ header fields and zero-filled
//! binary fields are long runs, which is where RLE pays.

use flate2::{Compress, Decompress, FlushCompress, FlushDecompress, Status};

use crate::codec::{ByteOrder, ProtocolError, Result};
use crate::message_channel::MSH_LENGTH;
use crate::segment::ControlFlags2;

/// MQCOMPRESS_NOT_AVAILABLE in a one-byte list entry.
pub const NOT_AVAILABLE: u8 = 0xFF;
/// MQCOMPRESS_ANY (a receiving channel's COMPHDR or COMPMSG accepting every technique).
pub const MQCOMPRESS_ANY: i32 = 0x0FFF_FFFF;
/// Entries in HdrCompList and in COMPHDR.
pub const HEADER_LIST_LENGTH: usize = 2;
/// Entries in MsgCompList and in COMPMSG.
pub const MESSAGE_LIST_LENGTH: usize = 16;
/// The length of an MQXQH (its MQMD is version 1).
const TRANSMISSION_HEADER_LENGTH: usize = 428;
/// The bytes COMPHDR(SYSTEM) compresses: the MSH and the MQXQH at the start of a
/// MESSAGE_DATA flow.
pub const HEADER_REGION_LENGTH: usize = MSH_LENGTH + TRANSMISSION_HEADER_LENGTH;
/// The zlib levels of ZLIBFAST and ZLIBHIGH.
const ZLIB_FAST_LEVEL: u32 = 1;
const ZLIB_HIGH_LEVEL: u32 = 9;
/// The longest literal and repeated run of one RLE control byte.
const RLE_LITERAL_MAX: usize = 128;
const RLE_RUN_MIN: usize = 3;
const RLE_RUN_MAX: usize = 130;

/// A compression technique (MQ's COMPHDR and COMPMSG keywords).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// NONE.
    None,
    /// RLE (message data).
    Rle,
    /// ZLIBFAST (message data).
    ZlibFast,
    /// ZLIBHIGH (message data).
    ZlibHigh,
    /// SYSTEM (header data).
    System,
    /// ANY: on a receiving channel, every technique the queue manager has.
    Any,
}

/// The techniques COMPMSG may name, in MQ's order.
pub const MESSAGE_TECHNIQUES: [Compression; 5] = [
    Compression::None,
    Compression::Rle,
    Compression::ZlibFast,
    Compression::ZlibHigh,
    Compression::Any,
];
/// The techniques COMPHDR may name.
pub const HEADER_TECHNIQUES: [Compression; 2] = [Compression::None, Compression::System];

impl Compression {
    /// The MQSC keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Compression::None => "NONE",
            Compression::Rle => "RLE",
            Compression::ZlibFast => "ZLIBFAST",
            Compression::ZlibHigh => "ZLIBHIGH",
            Compression::System => "SYSTEM",
            Compression::Any => "ANY",
        }
    }

    /// The technique a keyword names.
    pub fn from_keyword(keyword: &str) -> Option<Compression> {
        [
            Compression::None,
            Compression::Rle,
            Compression::ZlibFast,
            Compression::ZlibHigh,
            Compression::System,
            Compression::Any,
        ]
        .into_iter()
        .find(|technique| technique.keyword() == keyword)
    }

    /// MQCOMPRESS_* (PCF's value).
    pub fn mqcompress(self) -> i32 {
        match self {
            Compression::None => 0,
            Compression::Rle => 1,
            Compression::ZlibFast => 2,
            Compression::ZlibHigh => 4,
            Compression::System => 8,
            Compression::Any => MQCOMPRESS_ANY,
        }
    }

    /// The technique of an MQCOMPRESS_* value.
    pub fn from_mqcompress(value: i32) -> Option<Compression> {
        match value {
            0 => Some(Compression::None),
            1 => Some(Compression::Rle),
            2 => Some(Compression::ZlibFast),
            4 => Some(Compression::ZlibHigh),
            8 => Some(Compression::System),
            MQCOMPRESS_ANY => Some(Compression::Any),
            _ => None,
        }
    }

    /// The one-byte list entry of a technique that travels (ANY never does).
    fn wire_code(self) -> u8 {
        debug_assert_ne!(self, Compression::Any, "ANY is not sent in INITIAL_DATA");
        self.mqcompress() as u8
    }
}

/// A list as INITIAL_DATA carries it: the techniques in order, then NOT_AVAILABLE. ANY
/// stands for every technique of `techniques` (NONE last).
pub fn encode_list<const N: usize>(list: &[Compression], techniques: &[Compression]) -> [u8; N] {
    let mut entries = [NOT_AVAILABLE; N];
    let expanded = expand_any(list, techniques);
    for (entry, technique) in entries.iter_mut().zip(expanded) {
        *entry = technique.wire_code();
    }
    entries
}

/// The techniques of a received list, in order; entries this end does not know (and
/// NOT_AVAILABLE) are passed over.
pub fn decode_list(entries: &[u8]) -> Vec<Compression> {
    entries
        .iter()
        .filter(|entry| **entry != NOT_AVAILABLE)
        .filter_map(|entry| Compression::from_mqcompress(i32::from(*entry)))
        .filter(|technique| *technique != Compression::Any)
        .collect()
}

/// `list` with ANY replaced by every technique of `techniques` it does not already name
/// (the compressing ones first, NONE last).
fn expand_any(list: &[Compression], techniques: &[Compression]) -> Vec<Compression> {
    let mut expanded = Vec::with_capacity(techniques.len());
    for technique in list {
        let add: Vec<Compression> = if *technique == Compression::Any {
            let mut all: Vec<Compression> = techniques
                .iter()
                .copied()
                .filter(|t| *t != Compression::Any && *t != Compression::None)
                .collect();
            all.push(Compression::None);
            all
        } else {
            vec![*technique]
        };
        for technique in add {
            if !expanded.contains(&technique) {
                expanded.push(technique);
            }
        }
    }
    expanded
}

/// The responder's choice: the first technique of `proposed` that `allowed` (this end's
/// COMPHDR or COMPMSG; ANY allows all) names; NONE when they share none.
pub fn choose(proposed: &[Compression], allowed: &[Compression]) -> Compression {
    proposed
        .iter()
        .copied()
        .find(|technique| {
            *technique != Compression::Any
                && (allowed.contains(technique) || allowed.contains(&Compression::Any))
        })
        .unwrap_or(Compression::None)
}

/// zlib's stream state, made once per channel instance and reset for each segment (a zlib
/// compressor's tables are large: allocating them per segment would cost more than the
/// compression).
#[derive(Default)]
pub struct ZlibState {
    fast: Option<Compress>,
    high: Option<Compress>,
    decompress: Option<Decompress>,
}

impl std::fmt::Debug for ZlibState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZlibState").finish_non_exhaustive()
    }
}

impl ZlibState {
    /// The compressor of `level`, reset.
    fn compressor(&mut self, level: u32) -> &mut Compress {
        let slot = if level == ZLIB_FAST_LEVEL {
            &mut self.fast
        } else {
            &mut self.high
        };
        let compressor =
            slot.get_or_insert_with(|| Compress::new(flate2::Compression::new(level), true));
        compressor.reset();
        compressor
    }

    /// The decompressor, reset.
    fn decompressor(&mut self) -> &mut Decompress {
        let decompressor = self.decompress.get_or_insert_with(|| Decompress::new(true));
        decompressor.reset(true);
        decompressor
    }
}

/// What a channel instance compresses with, as negotiated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentCompression {
    /// COMPHDR: NONE or SYSTEM.
    pub header: Compression,
    /// COMPMSG: NONE, RLE, ZLIBFAST or ZLIBHIGH.
    pub message: Compression,
}

impl SegmentCompression {
    /// No compression either way.
    pub const NONE: SegmentCompression = SegmentCompression {
        header: Compression::None,
        message: Compression::None,
    };

    /// Whether anything is compressed.
    pub fn is_active(self) -> bool {
        self != SegmentCompression::NONE
    }

    /// Compresses one MESSAGE_DATA segment's payload (`first`: the flow's first segment,
    /// which holds the header region) into `out`: the ControlFlags2 bits that say what `out`
    /// holds (0: `payload` as it is, compression not being worth it).
    pub fn compress(
        self,
        first: bool,
        payload: &[u8],
        order: ByteOrder,
        out: &mut Vec<u8>,
        zlib: &mut ZlibState,
    ) -> u8 {
        debug_assert!(self.header != Compression::Any && self.message != Compression::Any);
        out.clear();
        let mut flags = 0u8;
        let mut body = payload;
        if first && self.header == Compression::System {
            let (header, rest) = payload.split_at(payload.len().min(HEADER_REGION_LENGTH));
            out.extend_from_slice(&[0; 4]);
            if rle_encode(header, out, header.len().saturating_sub(5)) {
                let length = (out.len() - 4) as u32;
                out[..4].copy_from_slice(&match order {
                    ByteOrder::Big => length.to_be_bytes(),
                    ByteOrder::Little => length.to_le_bytes(),
                });
                flags |= ControlFlags2::HDRCOMP;
                body = rest;
            } else {
                out.clear();
            }
        }
        let prefix = out.len();
        let body_budget = body.len().saturating_sub(1);
        let compressed = !body.is_empty()
            && match self.message {
                Compression::Rle => rle_encode(body, out, prefix + body_budget),
                Compression::ZlibFast => {
                    zlib_encode(zlib.compressor(ZLIB_FAST_LEVEL), body, out, body_budget)
                }
                Compression::ZlibHigh => {
                    zlib_encode(zlib.compressor(ZLIB_HIGH_LEVEL), body, out, body_budget)
                }
                _ => false,
            };
        if compressed {
            flags |= ControlFlags2::MSGCOMP;
        } else {
            out.truncate(prefix);
            out.extend_from_slice(body);
        }
        if flags == 0 {
            out.clear();
        }
        debug_assert!(flags == 0 || out.len() < payload.len());
        flags
    }

    /// Decompresses a segment's payload whose ControlFlags2 are `flags` into `out`, at most
    /// `limit` bytes (what one segment of the negotiated size holds).
    pub fn decompress(
        self,
        flags: u8,
        payload: &[u8],
        order: ByteOrder,
        limit: usize,
        out: &mut Vec<u8>,
        zlib: &mut ZlibState,
    ) -> Result<()> {
        out.clear();
        let mut body = payload;
        if flags & ControlFlags2::HDRCOMP != 0 {
            if self.header != Compression::System {
                return Err(ProtocolError::CompressedData(
                    "HDRCOMP without COMPHDR(SYSTEM) agreed",
                ));
            }
            if payload.len() < 4 {
                return Err(ProtocolError::CompressedData("compressed header truncated"));
            }
            let field: [u8; 4] = payload[..4].try_into().expect("four bytes");
            let length = match order {
                ByteOrder::Big => u32::from_be_bytes(field),
                ByteOrder::Little => u32::from_le_bytes(field),
            } as usize;
            let Some(header) = payload.get(4..4 + length) else {
                return Err(ProtocolError::CompressedData(
                    "compressed header length beyond the segment",
                ));
            };
            rle_decode(header, out, HEADER_REGION_LENGTH.min(limit))?;
            body = &payload[4 + length..];
        }
        if flags & ControlFlags2::MSGCOMP != 0 {
            match self.message {
                Compression::Rle => rle_decode(body, out, limit)?,
                Compression::ZlibFast | Compression::ZlibHigh => {
                    zlib_decode(zlib.decompressor(), body, out, limit)?
                }
                _ => {
                    return Err(ProtocolError::CompressedData(
                        "MSGCOMP without a COMPMSG technique agreed",
                    ))
                }
            }
        } else {
            if out.len() + body.len() > limit {
                return Err(ProtocolError::CompressedData(
                    "decompressed segment exceeds the transmission size",
                ));
            }
            out.extend_from_slice(body);
        }
        Ok(())
    }
}

/// Appends the RLE form of `input` to `out`, unless it would make `out` longer than `limit`
/// bytes: whether it fit (on false, `out` holds a partial encoding for the caller to drop).
pub fn rle_encode(input: &[u8], out: &mut Vec<u8>, limit: usize) -> bool {
    let mut index = 0;
    let mut literal_start = 0;
    while index < input.len() {
        let byte = input[index];
        let run = input[index..]
            .iter()
            .take(RLE_RUN_MAX)
            .take_while(|b| **b == byte)
            .count();
        if run >= RLE_RUN_MIN {
            if !flush_literals(&input[literal_start..index], out, limit) {
                return false;
            }
            if out.len() + 2 > limit {
                return false;
            }
            out.push((run - RLE_RUN_MIN + 128) as u8);
            out.push(byte);
            index += run;
            literal_start = index;
        } else {
            index += run;
        }
    }
    flush_literals(&input[literal_start..], out, limit)
}

fn flush_literals(literals: &[u8], out: &mut Vec<u8>, limit: usize) -> bool {
    for chunk in literals.chunks(RLE_LITERAL_MAX) {
        if out.len() + 1 + chunk.len() > limit {
            return false;
        }
        out.push((chunk.len() - 1) as u8);
        out.extend_from_slice(chunk);
    }
    true
}

/// Appends the bytes `input` encodes to `out`, which may not grow beyond `limit` bytes.
pub fn rle_decode(input: &[u8], out: &mut Vec<u8>, limit: usize) -> Result<()> {
    let mut index = 0;
    while index < input.len() {
        let control = usize::from(input[index]);
        index += 1;
        if control < 128 {
            let count = control + 1;
            let Some(literals) = input.get(index..index + count) else {
                return Err(ProtocolError::CompressedData("RLE literal run truncated"));
            };
            if out.len() + count > limit {
                return Err(ProtocolError::CompressedData(
                    "RLE data expands beyond the segment",
                ));
            }
            out.extend_from_slice(literals);
            index += count;
        } else {
            let count = control - 128 + RLE_RUN_MIN;
            let Some(byte) = input.get(index) else {
                return Err(ProtocolError::CompressedData("RLE repeat truncated"));
            };
            if out.len() + count > limit {
                return Err(ProtocolError::CompressedData(
                    "RLE data expands beyond the segment",
                ));
            }
            out.resize(out.len() + count, *byte);
            index += 1;
        }
    }
    Ok(())
}

/// Appends the zlib stream of `input` at `level` to `out` if it takes at most `budget`
/// bytes: whether it did (on false, `out` may hold a partial stream for the caller to drop).
fn zlib_encode(compressor: &mut Compress, input: &[u8], out: &mut Vec<u8>, budget: usize) -> bool {
    let start = out.len();
    out.reserve(budget);
    // compress_vec writes into the spare capacity only: a stream that does not end there
    // did not fit.
    let status = compressor.compress_vec(input, out, FlushCompress::Finish);
    matches!(status, Ok(Status::StreamEnd))
        && compressor.total_in() as usize == input.len()
        && out.len() - start <= budget
}

/// Appends the bytes of the zlib stream `input` to `out`, which may not grow beyond `limit`
/// bytes; the stream must end exactly at the end of `input`.
fn zlib_decode(
    decompressor: &mut Decompress,
    input: &[u8],
    out: &mut Vec<u8>,
    limit: usize,
) -> Result<()> {
    out.reserve(limit.saturating_sub(out.len()));
    // decompress_vec writes into the spare capacity only, so a stream expanding beyond it
    // stops short of its end.
    let status = decompressor
        .decompress_vec(input, out, FlushDecompress::Finish)
        .map_err(|_| ProtocolError::CompressedData("corrupt zlib stream"))?;
    if status != Status::StreamEnd || out.len() > limit {
        return Err(ProtocolError::CompressedData(
            "zlib stream truncated or expanding beyond the segment",
        ));
    }
    if decompressor.total_in() as usize != input.len() {
        return Err(ProtocolError::CompressedData(
            "bytes after the end of the zlib stream",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header_like() -> Vec<u8> {
        let mut bytes = b"MSH ".to_vec();
        bytes.extend_from_slice(&[1, 0, 0, 0, 200, 1, 0, 0, 0, 0, 0, 0, 200, 1, 0, 0]);
        bytes.extend_from_slice(b"XQH \x01\x00\x00\x00LOCAL.QUEUE");
        bytes.resize(HEADER_REGION_LENGTH, b' ');
        bytes
    }

    #[test]
    fn rle_round_trips_and_bounds_its_output() {
        let cases: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"a".to_vec(),
            b"aab".to_vec(),
            vec![b' '; 1000],
            (0..=255u8).cycle().take(1000).collect(),
            header_like(),
        ];
        for input in cases {
            let mut encoded = Vec::new();
            assert!(rle_encode(&input, &mut encoded, usize::MAX));
            let mut decoded = Vec::new();
            rle_decode(&encoded, &mut decoded, input.len()).unwrap();
            assert_eq!(decoded, input);
            if !input.is_empty() {
                let mut short = Vec::new();
                assert!(
                    rle_decode(&encoded, &mut short, input.len() - 1).is_err(),
                    "a limit below the data's length is refused"
                );
            }
        }
        // 1000 blanks: 7 runs of 130 and one of 90, two bytes each.
        let mut encoded = Vec::new();
        assert!(rle_encode(&[b' '; 1000], &mut encoded, usize::MAX));
        assert_eq!(encoded.len(), 16);
        assert_eq!(&encoded[..2], &[255, b' ']);
        // Incompressible data does not fit a budget below its length.
        let noise: Vec<u8> = (0..=255u8).collect();
        assert!(!rle_encode(&noise, &mut Vec::new(), noise.len()));
    }

    #[test]
    fn corrupt_rle_is_refused() {
        let mut out = Vec::new();
        assert!(
            rle_decode(&[5, b'a'], &mut out, 100).is_err(),
            "truncated literal"
        );
        assert!(
            rle_decode(&[200], &mut out, 100).is_err(),
            "truncated repeat"
        );
        assert!(
            rle_decode(&[255, b'x'], &mut out, 10).is_err(),
            "expands too far"
        );
    }

    #[test]
    fn negotiation_takes_the_proposers_first_shared_technique() {
        use Compression::*;
        assert_eq!(choose(&[ZlibHigh, Rle, None], &[Rle, None]), Rle);
        assert_eq!(choose(&[ZlibHigh, Rle], &[Any]), ZlibHigh);
        assert_eq!(choose(&[ZlibFast], &[Rle]), None, "nothing shared: NONE");
        assert_eq!(choose(&[System], &[None]), None);
        let list: [u8; MESSAGE_LIST_LENGTH] = encode_list(&[ZlibFast, Rle], &MESSAGE_TECHNIQUES);
        assert_eq!(&list[..3], &[2, 1, NOT_AVAILABLE]);
        assert_eq!(decode_list(&list), vec![ZlibFast, Rle]);
        let any: [u8; MESSAGE_LIST_LENGTH] = encode_list(&[Any], &MESSAGE_TECHNIQUES);
        assert_eq!(&any[..5], &[1, 2, 4, 0, NOT_AVAILABLE]);
        assert_eq!(decode_list(&[0, 0xFF, 0x7F, 4]), vec![None, ZlibHigh]);
    }

    #[test]
    fn every_technique_round_trips_a_segment() {
        let mut payload = header_like();
        payload.extend(std::iter::repeat_n(b"order 42 shipped; ".iter(), 200).flatten());
        for message in [
            Compression::None,
            Compression::Rle,
            Compression::ZlibFast,
            Compression::ZlibHigh,
        ] {
            for header in [Compression::None, Compression::System] {
                let agreed = SegmentCompression { header, message };
                for order in [ByteOrder::Big, ByteOrder::Little] {
                    let mut wire = Vec::new();
                    let mut zlib = ZlibState::default();
                    let flags = agreed.compress(true, &payload, order, &mut wire, &mut zlib);
                    assert_eq!(
                        flags & ControlFlags2::HDRCOMP != 0,
                        header == Compression::System
                    );
                    if message == Compression::None && header == Compression::None {
                        assert_eq!(flags, 0);
                        continue;
                    }
                    assert!(wire.len() < payload.len());
                    let mut back = Vec::new();
                    agreed
                        .decompress(flags, &wire, order, payload.len(), &mut back, &mut zlib)
                        .unwrap();
                    assert_eq!(back, payload, "{agreed:?}");
                }
            }
        }
    }

    #[test]
    fn incompressible_segments_travel_as_they_are() {
        // A pseudo-random byte stream (xorshift) neither RLE nor zlib can shrink.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        for message in [
            Compression::Rle,
            Compression::ZlibFast,
            Compression::ZlibHigh,
        ] {
            let agreed = SegmentCompression {
                header: Compression::None,
                message,
            };
            let mut wire = Vec::new();
            let mut zlib = ZlibState::default();
            assert_eq!(
                agreed.compress(false, &noise, ByteOrder::Little, &mut wire, &mut zlib),
                0
            );
            assert!(wire.is_empty());
        }
    }

    #[test]
    fn corrupt_or_oversized_segments_are_refused() {
        let agreed = SegmentCompression {
            header: Compression::System,
            message: Compression::ZlibFast,
        };
        let mut payload = header_like();
        payload.extend(vec![b'z'; 3000]);
        let mut wire = Vec::new();
        let mut zlib = ZlibState::default();
        let flags = agreed.compress(true, &payload, ByteOrder::Little, &mut wire, &mut zlib);
        assert_eq!(flags, ControlFlags2::HDRCOMP | ControlFlags2::MSGCOMP);
        let mut out = Vec::new();
        let last = wire.len() - 1;
        let mut corrupt = wire.clone();
        corrupt[last] ^= 0xFF;
        assert!(agreed
            .decompress(
                flags,
                &corrupt,
                ByteOrder::Little,
                1 << 20,
                &mut out,
                &mut zlib
            )
            .is_err());
        assert!(agreed
            .decompress(
                flags,
                &wire[..last],
                ByteOrder::Little,
                1 << 20,
                &mut out,
                &mut zlib
            )
            .is_err());
        assert!(agreed
            .decompress(
                flags,
                &wire,
                ByteOrder::Little,
                payload.len() - 1,
                &mut out,
                &mut zlib
            )
            .is_err());
        let mut long_header = wire.clone();
        long_header[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(agreed
            .decompress(
                flags,
                &long_header,
                ByteOrder::Little,
                1 << 20,
                &mut out,
                &mut zlib
            )
            .is_err());
        assert!(SegmentCompression::NONE
            .decompress(
                flags,
                &wire,
                ByteOrder::Little,
                1 << 20,
                &mut out,
                &mut zlib
            )
            .is_err());
    }
}
