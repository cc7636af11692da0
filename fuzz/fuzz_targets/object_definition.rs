//! Queue definitions stored on page set 0: `QueueDefinition::decode` on any bytes. What
//! decodes validates, re-encodes and decodes to itself, with priority and page set in range.
//! Corpus: crates/ferrite-queue-manager/tests/corpus/object_definition/.
#![no_main]

use ferrite_queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(definition) = QueueDefinition::decode(data) {
        assert!(definition.validate().is_ok());
        assert_eq!(QueueDefinition::decode(&definition.encode()).unwrap(), definition);
        assert!(definition.page_set.0 <= PageSetId::MAX);
        assert!(definition.default_priority <= 9);
    }
});
