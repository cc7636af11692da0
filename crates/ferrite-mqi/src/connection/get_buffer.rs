//! Where MQGET puts the message data it returns: the caller's buffer of BufferLength bytes,
//! or the end of the caller's `Vec`, which then grows only by the bytes returned (a
//! BufferLength of megabytes costs nothing for a small message). Every get path writes through
//! [`GetBuffer`], so both forms have the same semantics (truncation, DataLength, conversion).

/// The destination of one MQGET's message data.
pub(crate) enum GetBuffer<'a> {
    /// The caller's buffer: BufferLength is its length, the data goes to its start.
    Slice(&'a mut [u8]),
    /// The end of `data` as it was before the get (`start`): at most `length` (BufferLength)
    /// bytes go there, and `data` ends with them.
    Appended {
        data: &'a mut Vec<u8>,
        start: usize,
        length: usize,
    },
}

impl<'a> GetBuffer<'a> {
    /// The end of `data`, as a buffer of `length` bytes.
    pub(crate) fn appending(data: &'a mut Vec<u8>, length: usize) -> GetBuffer<'a> {
        let start = data.len();
        GetBuffer::Appended {
            data,
            start,
            length,
        }
    }

    /// BufferLength: the most bytes the get may return.
    pub(crate) fn length(&self) -> usize {
        match self {
            GetBuffer::Slice(buffer) => buffer.len(),
            GetBuffer::Appended { length, .. } => *length,
        }
    }

    /// Returns `returned` (at most [`length`](Self::length) bytes) as the data, in place of
    /// what an earlier call put there.
    pub(crate) fn put(&mut self, returned: &[u8]) {
        debug_assert!(returned.len() <= self.length());
        match self {
            GetBuffer::Slice(buffer) => buffer[..returned.len()].copy_from_slice(returned),
            GetBuffer::Appended { data, start, .. } => {
                data.truncate(*start);
                data.extend_from_slice(returned);
            }
        }
    }

    /// The first `returned_length` bytes returned by [`put`](Self::put).
    pub(crate) fn returned(&self, returned_length: usize) -> &[u8] {
        match self {
            GetBuffer::Slice(buffer) => &buffer[..returned_length],
            GetBuffer::Appended { data, start, .. } => &data[*start..*start + returned_length],
        }
    }
}
