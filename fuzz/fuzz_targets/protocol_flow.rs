//! One flow's payload decoded directly (without framing): byte 0 is the segment type, byte 1
//! the byte order (even: big-endian), the rest the payload: INITIAL_DATA, USERID_DATA,
//! CONAUTH_INFO, control flows, and every MQI flow with its API header (MQCONN, MQOPEN with
//! MQOD, MQPUT/MQPUT1 with MQMD and MQPMO, MQGET with MQMD and MQGMO, MQINQ/MQSET, ...).
//! Corpus: crates/ferrite-protocol/tests/corpus/flow/.
#![no_main]

use ferrite_fuzz::{byte_order, decode_flow};
use ferrite_protocol::segment::SegmentType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    decode_flow(SegmentType::from_u8(data[0]), byte_order(data[1]), &data[2..]);
});
