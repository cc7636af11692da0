//! Message images as stored in page set slots and PUT log records: `decode_descriptor` and
//! `decode_index_fields` agree, the data offset is inside the image, priority 0-9, the
//! extension within its limit, derived values (expiry) do not overflow, and what decodes
//! re-encodes to the same descriptor. Corpus: crates/ferrite-queue-manager/tests/corpus/message_image/.
#![no_main]

use ferrite_test_kit::hostile::check_message_image;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|image: &[u8]| check_message_image(image));
