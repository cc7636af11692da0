//! Recovery log record payloads: byte 0 is the record kind, the rest the payload, decoded by
//! `RecoveryRecord::decode` as restart does (any kind, also unknown ones). Counts stay within
//! the payload and the documented maxima; `describe` (the log print utility) never panics.
//! Corpus: crates/ferrite-queue-manager/tests/corpus/log_payload/.
#![no_main]

use ferrite_test_kit::hostile::check_log_payload;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((&kind_byte, payload)) = data.split_first() {
        check_log_payload(kind_byte, payload);
    }
});
