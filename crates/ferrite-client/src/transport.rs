//! Flows over a stream socket: segments read with `ferrite_protocol`'s [`SegmentDecoder`]
//! (limited to the negotiated MaxTransmissionSize, never more than the codec's hard cap),
//! split flows reassembled (limited to MaxMessageSize plus [`FLOW_OVERHEAD`]), and flows
//! written split into segments of at most MaxTransmissionSize. Both ends of a bindings
//! connection use it.

use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;

use ferrite_protocol::segment::{
    split_into_segments, Reassembler, Segment, SegmentDecoder, SegmentHeader,
    DEFAULT_MAX_TRANSMISSION_SIZE,
};
use ferrite_protocol::ProtocolError;

use crate::wire::FLOW_OVERHEAD;

/// Why a flow could not be read or written.
#[derive(Debug)]
pub enum TransportError {
    /// The peer closed the connection (end of stream).
    Closed,
    /// The socket failed.
    Io(io::Error),
    /// The peer broke the protocol: framing lost, a limit exceeded, a malformed structure.
    Protocol(ProtocolError),
}

impl std::fmt::Display for TransportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TransportError::Closed => write!(f, "connection closed by the peer"),
            TransportError::Io(error) => write!(f, "socket error: {error}"),
            TransportError::Protocol(error) => write!(f, "protocol error: {error}"),
        }
    }
}

impl std::error::Error for TransportError {}

impl From<io::Error> for TransportError {
    fn from(error: io::Error) -> Self {
        TransportError::Io(error)
    }
}

impl From<ProtocolError> for TransportError {
    fn from(error: ProtocolError) -> Self {
        TransportError::Protocol(error)
    }
}

/// One end of a connection: the socket, the segment decoder and the reassembler.
#[derive(Debug)]
pub struct Transport {
    stream: UnixStream,
    decoder: SegmentDecoder,
    reassembler: Reassembler,
    max_transmission_size: u32,
    buffer: Vec<u8>,
}

impl Transport {
    /// A transport with the limits in force before INITIAL_DATA: 32 KiB segments, and flows
    /// no larger than one segment's worth of overhead.
    pub fn new(stream: UnixStream) -> Transport {
        Transport {
            stream,
            decoder: SegmentDecoder::new(DEFAULT_MAX_TRANSMISSION_SIZE),
            reassembler: Reassembler::new(FLOW_OVERHEAD + DEFAULT_MAX_TRANSMISSION_SIZE as usize),
            max_transmission_size: DEFAULT_MAX_TRANSMISSION_SIZE,
            buffer: vec![0; 64 * 1024],
        }
    }

    /// The socket.
    pub fn stream(&self) -> &UnixStream {
        &self.stream
    }

    /// The negotiated limits: segments of at most `max_transmission_size` bytes both ways,
    /// messages of at most `max_message_size` bytes.
    pub fn set_limits(&mut self, max_transmission_size: u32, max_message_size: u32) {
        self.max_transmission_size = max_transmission_size;
        self.decoder.set_max_segment_length(max_transmission_size);
        self.reassembler = Reassembler::new(max_message_size as usize + FLOW_OVERHEAD);
    }

    /// The segment size limit in force.
    pub fn max_transmission_size(&self) -> u32 {
        self.max_transmission_size
    }

    /// The next whole flow (a split flow reassembled into one segment with FIRST|LAST).
    pub fn read_flow(&mut self) -> Result<Segment, TransportError> {
        loop {
            while let Some(segment) = self.decoder.next_segment()? {
                if let Some(flow) = self.reassembler.push(segment)? {
                    return Ok(flow);
                }
            }
            let read = loop {
                match self.stream.read(&mut self.buffer) {
                    Ok(read) => break read,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(error) => return Err(error.into()),
                }
            };
            if read == 0 {
                return Err(TransportError::Closed);
            }
            self.decoder.push(&self.buffer[..read]);
        }
    }

    /// Writes a flow: `payload` behind `header` (its type, ids, byte order; flags other than
    /// FIRST/LAST kept), split into segments of at most the negotiated size.
    pub fn write_flow(
        &mut self,
        header: &SegmentHeader,
        payload: &[u8],
    ) -> Result<(), TransportError> {
        let segments = split_into_segments(header, payload, self.max_transmission_size)?;
        let mut bytes = Vec::with_capacity(payload.len() + segments.len() * 36);
        for segment in &segments {
            bytes.extend_from_slice(&segment.encode()?);
        }
        self.stream.write_all(&bytes)?;
        Ok(())
    }
}
