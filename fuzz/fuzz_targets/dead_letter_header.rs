//! ferrite-message's `fuzz_dead_letter_header` on any bytes: it decodes (or parses), re-encodes what decodes and
//! checks the round trip itself; it must never panic. Corpus:
//! crates/ferrite-message/tests/corpus/dlh/.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferrite_message::fuzz_dead_letter_header(data);
});
