//! Compact byte encoding for log record payloads (and the message images a PUT carries): LEB128
//! varints and fixed fields.
//! Decoding never panics on hostile input: every read is bounds-checked.

/// Appends values to a byte vector.
#[derive(Default)]
pub struct Encoder {
    pub bytes: Vec<u8>,
}

impl Encoder {
    pub fn with_capacity(capacity: usize) -> Encoder {
        Encoder {
            bytes: Vec::with_capacity(capacity),
        }
    }
    pub fn u8(&mut self, value: u8) -> &mut Self {
        self.bytes.push(value);
        self
    }
    pub fn u16(&mut self, value: u16) -> &mut Self {
        self.bytes.extend_from_slice(&value.to_le_bytes());
        self
    }
    pub fn u32(&mut self, value: u32) -> &mut Self {
        self.bytes.extend_from_slice(&value.to_le_bytes());
        self
    }
    pub fn u64(&mut self, value: u64) -> &mut Self {
        self.bytes.extend_from_slice(&value.to_le_bytes());
        self
    }
    pub fn varint(&mut self, mut value: u64) -> &mut Self {
        loop {
            let byte = (value & 0x7F) as u8;
            value >>= 7;
            if value == 0 {
                self.bytes.push(byte);
                return self;
            }
            self.bytes.push(byte | 0x80);
        }
    }
    pub fn bytes(&mut self, value: &[u8]) -> &mut Self {
        self.varint(value.len() as u64);
        self.bytes.extend_from_slice(value);
        self
    }
    pub fn raw(&mut self, value: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(value);
        self
    }
}

/// Why a payload could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub &'static str);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// Reads values from a byte slice.
pub struct Decoder<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Decoder<'a> {
    pub fn new(bytes: &'a [u8]) -> Decoder<'a> {
        Decoder { bytes, position: 0 }
    }
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.position
    }
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }
    fn take(&mut self, length: usize) -> Result<&'a [u8], DecodeError> {
        if self.remaining() < length {
            return Err(DecodeError("payload truncated"));
        }
        let slice = &self.bytes[self.position..self.position + length];
        self.position += length;
        Ok(slice)
    }
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }
    pub fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    pub fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    pub fn u64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    pub fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.u8()?;
            value |= ((byte & 0x7F) as u64) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(DecodeError("varint longer than 10 bytes"))
    }
    pub fn varint_u32(&mut self) -> Result<u32, DecodeError> {
        u32::try_from(self.varint()?).map_err(|_| DecodeError("value exceeds 32 bits"))
    }
    pub fn bytes(&mut self, maximum: usize) -> Result<&'a [u8], DecodeError> {
        let length = self.varint()?;
        if length > maximum as u64 {
            return Err(DecodeError("length field exceeds its limit"));
        }
        self.take(length as usize)
    }
    pub fn raw(&mut self, length: usize) -> Result<&'a [u8], DecodeError> {
        self.take(length)
    }
    pub fn rest(&mut self) -> &'a [u8] {
        let slice = &self.bytes[self.position..];
        self.position = self.bytes.len();
        slice
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        for value in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut encoder = Encoder::default();
            encoder.varint(value);
            assert_eq!(Decoder::new(&encoder.bytes).varint().unwrap(), value);
        }
    }

    #[test]
    fn truncated_input_is_an_error() {
        let mut encoder = Encoder::default();
        encoder.u64(7).bytes(b"hello");
        for cut in 0..encoder.bytes.len() {
            let mut decoder = Decoder::new(&encoder.bytes[..cut]);
            let result = decoder.u64().and_then(|_| decoder.bytes(100).map(|_| ()));
            assert!(result.is_err());
        }
    }
}
