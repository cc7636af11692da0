//! Flows over a stream socket: segments read with [`SegmentDecoder`]
//! (limited to the negotiated MaxTransmissionSize, never more than the codec's hard cap),
//! split flows reassembled (limited to MaxMessageSize plus [`FLOW_OVERHEAD`]), and flows
//! written split into segments of at most MaxTransmissionSize. Both ends of a bindings
//! connection (Unix domain socket) and of a client connection (TCP) use it.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::os::unix::io::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::time::Duration;

use crate::compression::{SegmentCompression, ZlibState};
use crate::segment::{
    encode_segments, ControlFlags2, Reassembler, Segment, SegmentDecoder, SegmentHeader,
    DEFAULT_MAX_TRANSMISSION_SIZE,
};
use crate::wire::FLOW_OVERHEAD;
use crate::ProtocolError;

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

/// A connected stream socket: a bindings connection's Unix domain socket or a client
/// connection's TCP socket.
#[derive(Debug)]
pub enum Stream {
    /// Bindings mode: `<queue manager directory>/qm.sock`.
    Unix(UnixStream),
    /// Client mode: a TCP connection to the channel initiator's listener.
    Tcp(TcpStream),
    /// Client mode on a channel with SSLCIPH: TLS from the first byte of the TCP socket.
    Tls(crate::tls::TlsStream),
}

impl Stream {
    /// A second handle on the same socket (for a writer beside a reader, or to shut it down).
    pub fn try_clone(&self) -> io::Result<Stream> {
        Ok(match self {
            Stream::Unix(stream) => Stream::Unix(stream.try_clone()?),
            Stream::Tcp(stream) => Stream::Tcp(stream.try_clone()?),
            Stream::Tls(stream) => Stream::Tls(stream.try_clone()?),
        })
    }

    /// Bounds each read (`None`: reads wait for ever).
    pub fn set_read_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Unix(stream) => stream.set_read_timeout(timeout),
            Stream::Tcp(stream) => stream.set_read_timeout(timeout),
            Stream::Tls(stream) => stream.set_read_timeout(timeout),
        }
    }

    /// Bounds each write (`None`: writes wait for ever).
    pub fn set_write_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Unix(stream) => stream.set_write_timeout(timeout),
            Stream::Tcp(stream) => stream.set_write_timeout(timeout),
            Stream::Tls(stream) => stream.set_write_timeout(timeout),
        }
    }

    /// Shuts the socket down in one or both directions.
    pub fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        match self {
            Stream::Unix(stream) => stream.shutdown(how),
            Stream::Tcp(stream) => stream.shutdown(how),
            Stream::Tls(stream) => stream.shutdown(how),
        }
    }
}

impl AsRawFd for Stream {
    fn as_raw_fd(&self) -> RawFd {
        match self {
            Stream::Unix(stream) => stream.as_raw_fd(),
            Stream::Tcp(stream) => stream.as_raw_fd(),
            Stream::Tls(stream) => stream.socket().as_raw_fd(),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Unix(stream) => stream.read(buffer),
            Stream::Tcp(stream) => stream.read(buffer),
            Stream::Tls(stream) => stream.read(buffer),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Unix(stream) => stream.write(bytes),
            Stream::Tcp(stream) => stream.write(bytes),
            Stream::Tls(stream) => stream.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Unix(stream) => stream.flush(),
            Stream::Tcp(stream) => stream.flush(),
            Stream::Tls(stream) => stream.flush(),
        }
    }
}

impl From<UnixStream> for Stream {
    fn from(stream: UnixStream) -> Stream {
        Stream::Unix(stream)
    }
}

impl From<TcpStream> for Stream {
    fn from(stream: TcpStream) -> Stream {
        Stream::Tcp(stream)
    }
}

/// Bytes read from the socket at a time by default.
pub const READ_BUFFER_BYTES: usize = 64 * 1024;

/// A flow's output buffer larger than this is given back once written (idle connections stay
/// small); a smaller one is kept for the next flow.
pub const OUTPUT_BUFFER_KEPT_BYTES: usize = 64 * 1024;

/// Gives `buffer`'s memory back when it grew beyond [`OUTPUT_BUFFER_KEPT_BYTES`].
fn give_back_if_large(buffer: &mut Vec<u8>) {
    if buffer.capacity() > OUTPUT_BUFFER_KEPT_BYTES {
        *buffer = Vec::new();
    }
}

/// One end of a connection: the socket, the segment decoder and the reassembler.
#[derive(Debug)]
pub struct Transport {
    stream: Stream,
    decoder: SegmentDecoder,
    reassembler: Reassembler,
    max_transmission_size: u32,
    buffer: Vec<u8>,
    /// The segments of the flow being written (kept between flows, see
    /// [`OUTPUT_BUFFER_KEPT_BYTES`]).
    output: Vec<u8>,
    /// COMPHDR and COMPMSG agreed on a message channel (received segments are decompressed).
    compression: SegmentCompression,
    /// A decompressed segment's payload (kept between segments).
    decompressed: Vec<u8>,
    /// zlib's state (made at the first compressed segment).
    zlib: ZlibState,
    /// What decompression has done so far.
    decompression: DecompressionCounters,
    /// The ControlFlags2 compression bits of the segments decompressed since
    /// [`Transport::take_compression_flags`].
    compression_flags: u8,
}

/// Received compressed segments: bytes on the wire, bytes once decompressed, and the time
/// spent (COMPRATE and COMPTIME of a receiving channel).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecompressionCounters {
    pub compressed_bytes: u64,
    pub decompressed_bytes: u64,
    pub nanoseconds: u64,
}

impl Transport {
    /// A transport with the limits in force before INITIAL_DATA: 32 KiB segments, and flows
    /// no larger than one segment's worth of overhead.
    pub fn new(stream: impl Into<Stream>) -> Transport {
        Transport::with_read_buffer(stream, READ_BUFFER_BYTES)
    }

    /// As [`Transport::new`], reading at most `read_buffer_bytes` at a time (a queue manager
    /// with thousands of idle client sockets keeps this small).
    pub fn with_read_buffer(stream: impl Into<Stream>, read_buffer_bytes: usize) -> Transport {
        assert!(
            read_buffer_bytes >= 1024,
            "a read buffer holds at least a segment header"
        );
        Transport {
            stream: stream.into(),
            decoder: SegmentDecoder::new(DEFAULT_MAX_TRANSMISSION_SIZE),
            reassembler: Reassembler::new(FLOW_OVERHEAD + DEFAULT_MAX_TRANSMISSION_SIZE as usize),
            max_transmission_size: DEFAULT_MAX_TRANSMISSION_SIZE,
            buffer: vec![0; read_buffer_bytes],
            output: Vec::new(),
            compression: SegmentCompression::NONE,
            decompressed: Vec::new(),
            zlib: ZlibState::default(),
            decompression: DecompressionCounters::default(),
            compression_flags: 0,
        }
    }

    /// The compression a message channel negotiated: received segments with ControlFlags2
    /// HDRCOMP or MSGCOMP are decompressed with it (without one, such a segment is a
    /// protocol error).
    pub fn set_compression(&mut self, compression: SegmentCompression) {
        self.compression = compression;
    }

    /// What decompression has done since the transport was made.
    pub fn decompression(&self) -> DecompressionCounters {
        self.decompression
    }

    /// The ControlFlags2 HDRCOMP and MSGCOMP bits of the segments decompressed since the last
    /// call (of the flow just read, when called after each flow).
    pub fn take_compression_flags(&mut self) -> u8 {
        std::mem::take(&mut self.compression_flags)
    }

    /// Replaces a compressed segment's payload by the bytes it stands for.
    fn decompress(&mut self, segment: &mut Segment) -> Result<(), TransportError> {
        const COMPRESSED: u8 = ControlFlags2::HDRCOMP | ControlFlags2::MSGCOMP;
        let flags = segment.header.flags2.0 & COMPRESSED;
        let started = std::time::Instant::now();
        let limit =
            (self.max_transmission_size as usize).saturating_sub(segment.header.header_length());
        self.compression.decompress(
            flags,
            &segment.payload,
            segment.header.byte_order,
            limit,
            &mut self.decompressed,
            &mut self.zlib,
        )?;
        self.decompression.compressed_bytes += segment.payload.len() as u64;
        self.decompression.decompressed_bytes += self.decompressed.len() as u64;
        self.decompression.nanoseconds += started.elapsed().as_nanos() as u64;
        self.compression_flags |= flags;
        std::mem::swap(&mut segment.payload, &mut self.decompressed);
        segment.header.flags2 = ControlFlags2(segment.header.flags2.0 & !COMPRESSED);
        Ok(())
    }

    /// The socket.
    pub fn stream(&self) -> &Stream {
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
            while let Some(mut segment) = self.decoder.next_segment()? {
                if segment.header.flags2.0 & (ControlFlags2::HDRCOMP | ControlFlags2::MSGCOMP) != 0
                {
                    self.decompress(&mut segment)?;
                }
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
        self.output.clear();
        encode_segments(
            &mut self.output,
            header,
            payload,
            self.max_transmission_size,
        )?;
        let written = self.stream.write_all(&self.output);
        give_back_if_large(&mut self.output);
        Ok(written?)
    }
}

/// The writing half of a connection whose reads happen elsewhere (a channel's socket, read by
/// its receiver thread while each conversation writes its own replies): flows split into
/// segments of at most the negotiated size and written whole, one flow at a time (callers
/// hold it behind a lock so that segments of two flows never interleave).
#[derive(Debug)]
pub struct FlowWriter {
    stream: Stream,
    max_transmission_size: u32,
    bytes: Vec<u8>,
    bytes_written: u64,
}

impl FlowWriter {
    /// A writer on `stream` (usually a second handle from [`Stream::try_clone`]) with the
    /// segment size in force before INITIAL_DATA.
    pub fn new(stream: Stream) -> FlowWriter {
        FlowWriter {
            stream,
            max_transmission_size: DEFAULT_MAX_TRANSMISSION_SIZE,
            bytes: Vec::new(),
            bytes_written: 0,
        }
    }

    /// The negotiated segment size limit.
    pub fn set_max_transmission_size(&mut self, max_transmission_size: u32) {
        self.max_transmission_size = max_transmission_size;
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.bytes_written
    }

    /// The socket.
    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    /// Writes a flow, as [`Transport::write_flow`] does.
    pub fn write_flow(
        &mut self,
        header: &SegmentHeader,
        payload: &[u8],
    ) -> Result<(), TransportError> {
        self.bytes.clear();
        encode_segments(&mut self.bytes, header, payload, self.max_transmission_size)?;
        let written = self.stream.write_all(&self.bytes);
        if written.is_ok() {
            self.bytes_written += self.bytes.len() as u64;
        }
        give_back_if_large(&mut self.bytes);
        Ok(written?)
    }
}
