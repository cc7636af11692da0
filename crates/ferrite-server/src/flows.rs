//! What the bindings conversation and the TCP channel share about flows: why a connection
//! ends, and how a reply's segment header follows its request's.

use ferrite_client::transport::TransportError;
use ferrite_protocol::segment::{SegmentHeader, SegmentType};

/// Why a connection (or one of its conversations) ended.
#[derive(Debug)]
pub(crate) enum End {
    /// The peer closed, ended the conversation, or the listener is stopping.
    Closed,
    /// The peer broke the protocol (or the socket failed): logged.
    Error(String),
}

impl From<TransportError> for End {
    fn from(error: TransportError) -> End {
        match error {
            TransportError::Closed => End::Closed,
            other => End::Error(other.to_string()),
        }
    }
}

/// A protocol error: the connection ends and the error is logged.
pub(crate) fn protocol(what: impl std::fmt::Display) -> End {
    End::Error(format!("protocol error: {what}"))
}

/// The reply header for a request: the same header kind and ids, byte order, encoding and
/// CCSID, the reply's type, FIRST|LAST.
pub(crate) fn reply_header(request: &SegmentHeader, segment_type: SegmentType) -> SegmentHeader {
    let mut header = SegmentHeader::new(request.kind, segment_type, request.byte_order);
    header.ccsid = request.ccsid;
    header.encoding = request.encoding;
    header
}
