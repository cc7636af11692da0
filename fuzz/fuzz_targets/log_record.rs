//! Log record framing as the log reader meets it: the first 8 bytes are the RBA (little
//! endian) the record is read at, the rest the bytes there. `decode_header` and
//! `decode_record` never claim more bytes than there are, END_OF_FILE carries nothing, and a
//! record that decodes re-encodes at the same RBA to the same bytes.
//! Corpus: crates/ferrite-queue-manager/tests/corpus/log_record/.
#![no_main]

use ferrite_test_kit::hostile::check_log_record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let rba = data
        .get(..8)
        .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap()));
    check_log_record(rba, data.get(8..).unwrap_or(&[]));
});
