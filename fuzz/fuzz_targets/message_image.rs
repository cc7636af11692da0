//! Message images as stored in page set slots and PUT log records: `decode_descriptor` and
//! `decode_index_fields` agree, the data offset is inside the image, priority 0-9, the
//! extension within its limit, derived values (expiry) do not overflow, and what decodes
//! re-encodes to the same descriptor. Corpus: crates/ferrite-queue-manager/tests/corpus/message_image/.
#![no_main]

use ferrite_storage::data_manager::message::{
    decode_descriptor, decode_index_fields, encode_image, DESCRIPTOR_EXTENSION_BYTES_MAX,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|image: &[u8]| {
    let full = decode_descriptor(image);
    let index = decode_index_fields(image);
    assert_eq!(full.is_ok(), index.is_ok(), "the two decoders disagree");
    if let Ok((descriptor, offset)) = full {
        assert!(offset <= image.len());
        assert!(descriptor.priority <= 9);
        assert!(descriptor.descriptor_extension.len() <= DESCRIPTOR_EXTENSION_BYTES_MAX);
        let _ = descriptor.expires_at_ms();
        let mut without_extension = descriptor.clone();
        without_extension.descriptor_extension.clear();
        assert_eq!(index.unwrap(), without_extension);
        let data = &image[offset..];
        let again = encode_image(&descriptor, data);
        let (decoded, again_offset) = decode_descriptor(&again).expect("a re-encoded image decodes");
        assert_eq!(decoded, descriptor);
        assert_eq!(&again[again_offset..], data);
    }
});
