//! Flow trace: with `FERRITE_TRACE_FLOWS=1` in the environment, every segment a channel reads
//! or writes is printed to standard error (direction, header, the first bytes of the payload in
//! hex). This is the analogue of MQ's channel trace: how a client's traffic is observed when a
//! conversation does not go as expected.

use std::fmt::Write as _;
use std::sync::OnceLock;

use ferrite_protocol::segment::{HeaderKind, SegmentHeader};

/// Payload bytes shown per traced flow.
pub const TRACE_PAYLOAD_BYTES_MAX: usize = 2048;

/// Whether tracing is on (read once from `FERRITE_TRACE_FLOWS`).
pub fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| {
        std::env::var_os("FERRITE_TRACE_FLOWS")
            .is_some_and(|value| !value.is_empty() && value != "0")
    })
}

/// Prints one flow when tracing is on.
pub fn flow(channel: u64, direction: &str, header: &SegmentHeader, payload: &[u8]) {
    if !enabled() {
        return;
    }
    let kind = match header.kind {
        HeaderKind::Tsh => "TSH ".to_string(),
        HeaderKind::Tshc => "TSHC".to_string(),
        HeaderKind::Tshm {
            conversation_id,
            request_id,
        } => format!("TSHM conv={conversation_id} req={request_id}"),
    };
    let mut text = format!(
        "ferrite trace [{channel}] {direction} {kind} type={:?}({:#04x}) flags1={:#04x} flags2={:#04x} enc={:#x} ccsid={} payload={}\n",
        header.segment_type,
        header.segment_type.to_u8(),
        header.flags1.0,
        header.flags2.0,
        header.encoding,
        header.ccsid,
        payload.len()
    );
    for (row, chunk) in payload
        .chunks(32)
        .take(TRACE_PAYLOAD_BYTES_MAX / 32)
        .enumerate()
    {
        let _ = write!(text, "  {:04x}:", row * 32);
        for byte in chunk {
            let _ = write!(text, " {byte:02x}");
        }
        text.push_str("  ");
        for &byte in chunk {
            text.push(if byte.is_ascii_graphic() || byte == b' ' {
                byte as char
            } else {
                '.'
            });
        }
        text.push('\n');
    }
    eprint!("{text}");
}
