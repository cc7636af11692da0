//! Replays the kept fuzz corpora of the protocol decoders (one raw input per file; layouts in
//! fuzz/fuzz_targets/protocol_flow.rs and protocol_segments.rs). `seed-*` files are valid
//! flows written by fuzz's `write_protocol_seeds`; `found-*` files are inputs that once found a
//! bug. Every input must decode or fail with an error that says what went wrong, never panic.

use std::path::PathBuf;

use ferrite_protocol::api::ApiFlow;
use ferrite_protocol::control::{Notification, RequestMsgs, SocketAction, Status};
use ferrite_protocol::initial_data::InitialData;
use ferrite_protocol::segment::{Reassembler, SegmentDecoder, SegmentType};
use ferrite_protocol::uid::{Caut, Uid};
use ferrite_protocol::ByteOrder;

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let directory = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(target);
    ferrite_test_kit::corpus::corpus_files(&directory, 1)
}

/// Decodes a flow body by segment type; returns whether it decoded.
fn decode_flow(segment_type: SegmentType, order: ByteOrder, payload: &[u8]) -> bool {
    use SegmentType as T;
    let explained = |error: ferrite_protocol::ProtocolError| {
        assert!(!error.to_string().is_empty());
        false
    };
    match segment_type {
        T::InitialData => InitialData::decode(payload, order).map_or_else(explained, |id| {
            InitialData::decode(&id.encode(order), order).expect("re-encoded ID decodes");
            true
        }),
        T::UseridData => Uid::decode(payload, order).map_or_else(explained, |_| true),
        T::ConauthInfo => Caut::decode(payload, order).map_or_else(explained, |_| true),
        T::SocketAction => SocketAction::decode(payload, order).map_or_else(explained, |_| true),
        T::Notification => Notification::decode(payload, order).map_or_else(explained, |_| true),
        T::StatusData => Status::decode(payload, order).map_or_else(explained, |_| true),
        T::RequestMsgs => RequestMsgs::decode(payload, order).map_or_else(explained, |_| true),
        _ if segment_type.has_api_header() => ApiFlow::decode(segment_type, order, payload)
            .map_or_else(explained, |flow| {
                let _ = flow.encode(order);
                true
            }),
        _ => false,
    }
}

fn byte_order(byte: u8) -> ByteOrder {
    if byte & 1 == 0 {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    }
}

#[test]
fn corpus_flow() {
    for (name, bytes) in corpus("flow") {
        if bytes.len() < 2 {
            continue;
        }
        let decoded = decode_flow(
            SegmentType::from_u8(bytes[0]),
            byte_order(bytes[1]),
            &bytes[2..],
        );
        assert!(
            decoded || !name.starts_with("seed-"),
            "flow/{name}: a seed does not decode"
        );
    }
}

#[test]
fn corpus_segment_stream() {
    for (name, bytes) in corpus("segment_stream") {
        let Some((&chunk, stream)) = bytes.split_first() else {
            continue;
        };
        let mut decoder = SegmentDecoder::new(64 * 1024);
        let mut reassembler = Reassembler::new(256 * 1024);
        let mut flows = 0;
        'stream: for piece in stream.chunks(usize::from(chunk).max(1)) {
            decoder.push(piece);
            loop {
                match decoder.next_segment() {
                    Ok(Some(segment)) => {
                        if let Ok(Some(flow)) = reassembler.push(segment) {
                            if decode_flow(
                                flow.header.segment_type,
                                flow.header.byte_order,
                                &flow.payload,
                            ) {
                                flows += 1;
                            }
                        }
                    }
                    Ok(None) => break,
                    Err(error) => {
                        assert!(!error.to_string().is_empty());
                        break 'stream;
                    }
                }
            }
        }
        assert!(
            flows == 1 || !name.starts_with("seed-"),
            "segment_stream/{name}: {flows} flows decoded"
        );
    }
}
