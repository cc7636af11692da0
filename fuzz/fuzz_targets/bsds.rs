//! The bootstrap data set: `Bsds::decode` on any file. What decodes re-encodes to a BSDS
//! that decodes to the same value. Corpus: crates/ferrite-queue-manager/tests/corpus/bsds/.
#![no_main]

use ferrite_storage::log::bsds::Bsds;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(bsds) = Bsds::decode(data) {
        assert_eq!(Bsds::decode(&bsds.encode()).unwrap(), bsds);
        let _ = bsds.last_checkpoint();
    }
});
