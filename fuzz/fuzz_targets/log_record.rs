//! Log record framing as the log reader meets it: the first 8 bytes are the RBA (little
//! endian) the record is read at, the rest the bytes there. `decode_header` and
//! `decode_record` never claim more bytes than there are, END_OF_FILE carries nothing, and a
//! record that decodes re-encodes at the same RBA to the same bytes.
//! Corpus: crates/ferrite-queue-manager/tests/corpus/log_record/.
#![no_main]

use ferrite_storage::log::record::{
    decode_header, decode_record, LOG_RECORD_HEADER_BYTES, RECORD_KIND_END_OF_FILE,
};
use ferrite_storage::Rba;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let rba = data
        .get(..8)
        .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap()));
    let bytes = data.get(8..).unwrap_or(&[]);
    if let Ok(header) = decode_header(
        bytes
            .get(..LOG_RECORD_HEADER_BYTES)
            .and_then(|h| h.try_into().ok())
            .unwrap_or(&[0u8; LOG_RECORD_HEADER_BYTES]),
        bytes.len() as u64,
    ) {
        assert!(header.length as usize >= LOG_RECORD_HEADER_BYTES);
        let _ = header.payload_len();
    }
    if let Ok((header, payload)) = decode_record(Rba(rba), bytes) {
        assert!(header.length as usize <= bytes.len());
        if header.kind == RECORD_KIND_END_OF_FILE {
            assert!(payload.is_empty());
        } else {
            assert_eq!(payload.len(), header.payload_len());
        }
    }
});
