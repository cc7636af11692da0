//! The client protocol as the listener reads it: a byte stream cut into chunks, framed by
//! `SegmentDecoder` (TSH/TSHC/TSHM headers, length limits), reassembled by `Reassembler`
//! (FIRST ... LAST), and each whole flow decoded by its segment type. Byte 0 of the input
//! sets the chunk size; the rest is the stream. The decoder never buffers more than a
//! segment's limit. Corpus: crates/ferrite-protocol/tests/corpus/segment_stream/.
#![no_main]

use ferrite_fuzz::decode_flow;
use ferrite_protocol::segment::{Reassembler, SegmentDecoder};
use libfuzzer_sys::fuzz_target;

/// The reassembler's limit here: small, so that the fuzzer reaches it.
const MESSAGE_BYTES_MAX: usize = 256 * 1024;

fuzz_target!(|data: &[u8]| {
    let Some((&chunk_byte, stream)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(chunk_byte).max(1);
    let mut decoder = SegmentDecoder::new(64 * 1024);
    let mut reassembler = Reassembler::new(MESSAGE_BYTES_MAX);
    for piece in stream.chunks(chunk) {
        decoder.push(piece);
        loop {
            match decoder.next_segment() {
                Ok(Some(segment)) => {
                    assert!(segment.payload.len() + segment.header.header_length() <= 64 * 1024);
                    match reassembler.push(segment) {
                        Ok(Some(flow)) => {
                            assert!(flow.payload.len() <= MESSAGE_BYTES_MAX);
                            decode_flow(
                                flow.header.segment_type,
                                flow.header.byte_order,
                                &flow.payload,
                            );
                        }
                        Ok(None) => {}
                        Err(error) => assert!(!error.to_string().is_empty()),
                    }
                }
                Ok(None) => {
                    assert!(decoder.buffered() <= decoder.max_segment_length() as usize);
                    break;
                }
                Err(error) => {
                    // Sticky: the stream cannot be resynchronised.
                    assert!(decoder.next_segment().is_err());
                    assert!(!error.to_string().is_empty());
                    return;
                }
            }
        }
    }
});
