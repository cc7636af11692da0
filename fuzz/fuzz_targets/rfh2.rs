//! ferrite-message's `fuzz_rfh2` on any bytes: it decodes (or parses), re-encodes what decodes and
//! checks the round trip itself; it must never panic. Corpus:
//! crates/ferrite-message/tests/corpus/rfh2/.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferrite_message::fuzz_rfh2(data);
});
