//! ferrite-message's `fuzz_trigger_message` on any bytes: it decodes an MQTM (and tries an
//! MQTMC2), re-encodes what decodes and checks the round trip itself; it must never panic.
//! Corpus: crates/ferrite-message/tests/corpus/tm/.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferrite_message::fuzz_trigger_message(data);
});
