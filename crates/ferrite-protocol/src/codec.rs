//! Low-level building blocks shared by every structure codec: the byte order, a bounds-checked
//! reader, a writer, MQ's fixed-length blank-padded character fields and the error type.
//!
//! Every decoder in this crate goes through [`Reader`], which never indexes past the end of its
//! input: a short buffer is reported as [`ProtocolError::Truncated`], never as a panic.

use std::fmt;

/// Integer byte order of a segment, from the `ByteOrder` byte of the TSH (1 = big-endian,
/// 2 = little-endian; Wireshark `packet-mq.c` `mq_byteorder_vals`).
///
/// The byte order governs every integer after the segment header's length fields (the TSH
/// `Encoding` and `CCSID`, the API header's completion/reason codes and object handle, and the
/// MQI structures); the `SegmentLength`, the TSHM `ConversationId`/`RequestId` and the API header
/// `ReplyLength` are always big-endian.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// `1`: big-endian ("normal", `MQENC_INTEGER_NORMAL`).
    Big,
    /// `2`: little-endian ("reversed", `MQENC_INTEGER_REVERSED`; x86-64, ARM64 Linux).
    Little,
}

impl ByteOrder {
    /// The wire value of the TSH `ByteOrder` byte.
    pub const fn to_wire(self) -> u8 {
        match self {
            ByteOrder::Big => 1,
            ByteOrder::Little => 2,
        }
    }

    /// Parses the TSH `ByteOrder` byte; anything but 1 or 2 is an error.
    pub fn from_wire(value: u8) -> Result<Self> {
        match value {
            1 => Ok(ByteOrder::Big),
            2 => Ok(ByteOrder::Little),
            other => Err(ProtocolError::BadByteOrder(other)),
        }
    }

    /// The byte order implied by the integer part of an `MQENC_*` encoding value, if any.
    pub fn from_mq_encoding(encoding: i32) -> Option<Self> {
        use ferrite_constants::encoding::*;
        match encoding & MQENC_INTEGER_MASK {
            MQENC_INTEGER_NORMAL => Some(ByteOrder::Big),
            MQENC_INTEGER_REVERSED => Some(ByteOrder::Little),
            _ => None,
        }
    }

    /// The conventional `MQENC_*` value for this byte order: `MQENC_NORMAL` (0x111) for big-endian,
    /// `MQENC_REVERSED` (0x222, `MQENC_NATIVE` on x86-64 Linux) for little-endian.
    pub fn mq_encoding(self) -> i32 {
        use ferrite_constants::encoding::*;
        match self {
            ByteOrder::Big => MQENC_NORMAL,
            ByteOrder::Little => MQENC_REVERSED,
        }
    }
}

/// Everything that can go wrong while decoding (or, for a few checks, encoding) protocol data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProtocolError {
    /// The input ended before a structure was complete.
    Truncated {
        /// Structure being decoded.
        what: &'static str,
        /// Offset (within that decoder's input) at which more bytes were needed.
        offset: usize,
        /// Bytes needed at that offset.
        needed: usize,
        /// Bytes that were available from that offset.
        available: usize,
    },
    /// A structure started with the wrong 4-byte eye-catcher.
    BadStructId {
        /// Structure expected.
        what: &'static str,
        /// The four bytes found.
        found: [u8; 4],
    },
    /// The segment starts with an EBCDIC `TSH`/`TSHC`/`TSHM` eye-catcher (z/OS peers);
    /// recognised but not supported yet.
    EbcdicNotSupported,
    /// The TSH `ByteOrder` byte is neither 1 nor 2.
    BadByteOrder(u8),
    /// A structure carries a version this codec does not know.
    UnsupportedVersion {
        /// Structure.
        what: &'static str,
        /// Version found.
        version: i32,
    },
    /// `SegmentLength` is smaller than the segment header it must include.
    SegmentTooShort {
        /// Declared length.
        length: u32,
        /// Minimum for this header kind.
        minimum: u32,
    },
    /// `SegmentLength` exceeds the negotiated maximum transmission size (or the hard cap).
    SegmentTooLong {
        /// Declared length.
        length: u32,
        /// Limit in force.
        maximum: u32,
    },
    /// A length or count field holds a value that cannot be right (negative, larger than the
    /// data that follows, smaller than a fixed part, ...).
    InvalidLength {
        /// Field.
        what: &'static str,
        /// The value found.
        value: i64,
    },
    /// A character value does not fit its fixed-length field, or is not ASCII.
    BadCharField {
        /// Field length.
        length: usize,
        /// Reason.
        reason: &'static str,
    },
    /// A feature of the wire format that this codec recognises but does not implement.
    Unsupported(&'static str),
    /// A segment of a split message arrived out of order (see [`crate::segment::Reassembler`]).
    Reassembly(&'static str),
    /// A compressed segment (ControlFlags2 HDRCOMP or MSGCOMP) does not decompress: corrupt,
    /// truncated, larger than a segment can hold, or compressed without an agreement.
    CompressedData(&'static str),
    /// A reassembled message would exceed the configured limit.
    MessageTooLarge {
        /// Size reached.
        size: usize,
        /// Limit in force.
        maximum: usize,
    },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Truncated { what, offset, needed, available } => write!(
                f,
                "{what} truncated: needed {needed} byte(s) at offset {offset}, only {available} available"
            ),
            ProtocolError::BadStructId { what, found } => write!(
                f,
                "bad structure identifier for {what}: {:?} ({:02X?})",
                String::from_utf8_lossy(found),
                found
            ),
            ProtocolError::EbcdicNotSupported => {
                write!(f, "EBCDIC segment header (z/OS peer) is not supported")
            }
            ProtocolError::BadByteOrder(b) => {
                write!(f, "unknown segment byte order {b:#04x} (expected 1 or 2)")
            }
            ProtocolError::UnsupportedVersion { what, version } => {
                write!(f, "unsupported {what} version {version}")
            }
            ProtocolError::SegmentTooShort { length, minimum } => write!(
                f,
                "segment length {length} is smaller than its header ({minimum} bytes)"
            ),
            ProtocolError::SegmentTooLong { length, maximum } => write!(
                f,
                "segment length {length} exceeds the maximum transmission size {maximum}"
            ),
            ProtocolError::InvalidLength { what, value } => {
                write!(f, "invalid {what}: {value}")
            }
            ProtocolError::BadCharField { length, reason } => {
                write!(f, "bad value for a {length}-byte character field: {reason}")
            }
            ProtocolError::Unsupported(what) => write!(f, "not supported: {what}"),
            ProtocolError::Reassembly(what) => write!(f, "segment reassembly error: {what}"),
            ProtocolError::CompressedData(what) => {
                write!(f, "compressed segment cannot be decompressed: {what}")
            }
            ProtocolError::MessageTooLarge { size, maximum } => write!(
                f,
                "reassembled message of at least {size} bytes exceeds the limit of {maximum}"
            ),
        }
    }
}

impl std::error::Error for ProtocolError {}

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, ProtocolError>;

/// Bounds-checked cursor over a byte slice. Integers are read in the reader's [`ByteOrder`]
/// unless the method name says `_be`.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    order: ByteOrder,
    what: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader over `buf`; `what` names the structure in errors.
    pub fn new(buf: &'a [u8], order: ByteOrder, what: &'static str) -> Self {
        Reader {
            buf,
            pos: 0,
            order,
            what,
        }
    }

    /// Changes the structure name used in errors.
    pub fn set_what(&mut self, what: &'static str) {
        self.what = what;
    }

    /// The byte order in use.
    pub fn order(&self) -> ByteOrder {
        self.order
    }

    /// Current offset.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// The next `n` bytes without consuming them, if available.
    pub fn peek(&self, n: usize) -> Option<&'a [u8]> {
        self.buf.get(self.pos..self.pos.checked_add(n)?)
    }

    /// Consumes `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        match self.peek(n) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(ProtocolError::Truncated {
                what: self.what,
                offset: self.pos,
                needed: n,
                available: self.remaining(),
            }),
        }
    }

    /// Consumes everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        let s = &self.buf[self.pos..];
        self.pos = self.buf.len();
        s
    }

    /// Consumes a fixed-size array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes(N)?);
        Ok(out)
    }

    /// Consumes a fixed-length character field.
    pub fn chars<const N: usize>(&mut self) -> Result<MqChars<N>> {
        Ok(MqChars(self.array()?))
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.bytes(1)?[0])
    }

    /// 16-bit unsigned in the reader's byte order.
    pub fn u16(&mut self) -> Result<u16> {
        let b = self.array::<2>()?;
        Ok(match self.order {
            ByteOrder::Big => u16::from_be_bytes(b),
            ByteOrder::Little => u16::from_le_bytes(b),
        })
    }

    /// 32-bit unsigned in the reader's byte order.
    pub fn u32(&mut self) -> Result<u32> {
        let b = self.array::<4>()?;
        Ok(match self.order {
            ByteOrder::Big => u32::from_be_bytes(b),
            ByteOrder::Little => u32::from_le_bytes(b),
        })
    }

    /// 32-bit signed (MQ's `MQLONG`) in the reader's byte order.
    pub fn i32(&mut self) -> Result<i32> {
        Ok(self.u32()? as i32)
    }

    /// 64-bit signed (`MQINT64`, message handles) in the reader's byte order.
    pub fn i64(&mut self) -> Result<i64> {
        let b = self.array::<8>()?;
        Ok(match self.order {
            ByteOrder::Big => i64::from_be_bytes(b),
            ByteOrder::Little => i64::from_le_bytes(b),
        })
    }

    /// 32-bit unsigned, always big-endian.
    pub fn u32_be(&mut self) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array::<4>()?))
    }

    /// Checks a 4-byte structure identifier.
    pub fn expect_struct_id(&mut self, id: &[u8; 4]) -> Result<()> {
        let found = self.array::<4>()?;
        if &found == id {
            Ok(())
        } else {
            Err(ProtocolError::BadStructId {
                what: self.what,
                found,
            })
        }
    }
}

/// Appends integers in a fixed byte order.
#[derive(Debug, Clone)]
pub struct Writer {
    buf: Vec<u8>,
    order: ByteOrder,
}

impl Writer {
    /// An empty writer.
    pub fn new(order: ByteOrder) -> Self {
        Writer {
            buf: Vec::new(),
            order,
        }
    }

    /// Appends to an existing buffer.
    pub fn with_buffer(buf: Vec<u8>, order: ByteOrder) -> Self {
        Writer { buf, order }
    }

    /// The byte order in use.
    pub fn order(&self) -> ByteOrder {
        self.order
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// True if nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The written bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// Raw bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// A fixed-length character field.
    pub fn chars<const N: usize>(&mut self, c: &MqChars<N>) {
        self.buf.extend_from_slice(&c.0);
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// 16-bit unsigned.
    pub fn u16(&mut self, v: u16) {
        match self.order {
            ByteOrder::Big => self.bytes(&v.to_be_bytes()),
            ByteOrder::Little => self.bytes(&v.to_le_bytes()),
        }
    }

    /// 32-bit unsigned.
    pub fn u32(&mut self, v: u32) {
        match self.order {
            ByteOrder::Big => self.bytes(&v.to_be_bytes()),
            ByteOrder::Little => self.bytes(&v.to_le_bytes()),
        }
    }

    /// 32-bit signed.
    pub fn i32(&mut self, v: i32) {
        self.u32(v as u32)
    }

    /// 64-bit signed.
    pub fn i64(&mut self, v: i64) {
        match self.order {
            ByteOrder::Big => self.bytes(&v.to_be_bytes()),
            ByteOrder::Little => self.bytes(&v.to_le_bytes()),
        }
    }

    /// 32-bit unsigned, always big-endian.
    pub fn u32_be(&mut self, v: u32) {
        self.bytes(&v.to_be_bytes())
    }

    /// `n` zero bytes (alignment padding).
    pub fn zeros(&mut self, n: usize) {
        self.buf.resize(self.buf.len() + n, 0);
    }
}

/// An MQ fixed-length character field (`MQCHAR48` object names, `MQCHAR8` formats, ...): exactly
/// `N` bytes on the wire, padded on the right with blanks (or, from some C programs, NULs).
///
/// The bytes are kept exactly as received, so a decode/encode round trip is byte-identical. Text
/// conversion assumes an ASCII-compatible CCSID (819, 1208, 437, ...); EBCDIC (CCSID 500, 037,
/// 1047 ... from z/OS peers) is future work, as is conversion of non-ASCII bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MqChars<const N: usize>(pub [u8; N]);

impl<const N: usize> MqChars<N> {
    /// All blanks: MQ's "no value" for names.
    pub const BLANK: Self = MqChars([b' '; N]);

    /// Blank-pads an ASCII string; longer than `N` bytes or non-ASCII is an error.
    pub fn new(s: &str) -> Result<Self> {
        if !s.is_ascii() {
            return Err(ProtocolError::BadCharField {
                length: N,
                reason: "not ASCII",
            });
        }
        if s.len() > N {
            return Err(ProtocolError::BadCharField {
                length: N,
                reason: "value too long",
            });
        }
        let mut b = [b' '; N];
        b[..s.len()].copy_from_slice(s.as_bytes());
        Ok(MqChars(b))
    }

    /// Blank-pads `text`, cutting it at `N` bytes on a character boundary: for values the
    /// caller has already checked or produced (names, dates), where cutting is the intent.
    pub fn padded(text: &str) -> Self {
        let mut bytes = [b' '; N];
        let mut end = text.len().min(N);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        bytes[..end].copy_from_slice(&text.as_bytes()[..end]);
        MqChars(bytes)
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8; N] {
        &self.0
    }

    /// The value with trailing blanks and NULs removed (lossy for non-UTF-8 bytes).
    pub fn trimmed(&self) -> String {
        let end = self
            .0
            .iter()
            .rposition(|&c| c != b' ' && c != 0)
            .map_or(0, |p| p + 1);
        String::from_utf8_lossy(&self.0[..end]).into_owned()
    }

    /// True if the field is all blanks or NULs.
    pub fn is_blank(&self) -> bool {
        self.0.iter().all(|&c| c == b' ' || c == 0)
    }
}

impl<const N: usize> Default for MqChars<N> {
    fn default() -> Self {
        Self::BLANK
    }
}

impl<const N: usize> fmt::Debug for MqChars<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.trimmed())
    }
}

impl<const N: usize> fmt::Display for MqChars<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.trimmed())
    }
}
