//! Recovery log record payloads: byte 0 is the record kind, the rest the payload, decoded by
//! `RecoveryRecord::decode` as restart does (any kind, also unknown ones). Counts stay within
//! the payload and the documented maxima; `describe` (the log print utility) never panics.
//! Corpus: crates/ferrite-queue-manager/tests/corpus/log_payload/.
#![no_main]

use ferrite_storage::log_records::{
    RecoveryRecord, CONTINUATION_PAGES_MAX, IMAGE_BYTES_MAX,
};
use ferrite_storage::{PageSetId, Rba};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&kind_byte, payload)) = data.split_first() else {
        return;
    };
    let Ok(record) = RecoveryRecord::decode(kind_byte, payload) else {
        return;
    };
    match &record {
        RecoveryRecord::Put { record, image } => {
            assert!(record.continuation_pages.len() <= CONTINUATION_PAGES_MAX);
            assert!(image.len() <= IMAGE_BYTES_MAX && image.len() <= payload.len());
            assert!(record.location.page_set.0 <= PageSetId::MAX);
        }
        RecoveryRecord::Backout(record) => {
            assert!(record.backout_counts.len() <= payload.len());
        }
        RecoveryRecord::Checkpoint(record) => {
            assert!(record.page_set_recovery_rbas.len() <= 100);
            let operations: usize = record
                .units_of_recovery
                .iter()
                .map(|ur| ur.operations.len())
                .sum();
            assert!(record.units_of_recovery.len() + operations <= payload.len());
        }
        _ => {}
    }
    let _ = record.describe(Rba(u64::MAX));
    let _ = record.describe(Rba(0));
});
