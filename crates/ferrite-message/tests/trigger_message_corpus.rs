//! Replays `tests/corpus/tm/` (a byte-order byte, even = big-endian, odd = little-endian, then
//! MQTM bytes) through `fuzz_trigger_message`, the entry point of the `trigger_message`
//! cargo-fuzz target: no file may panic, and the `valid-*` ones must decode.

use std::path::Path;

use ferrite_message::{fuzz_trigger_message, TriggerMessage};
use ferrite_protocol::ByteOrder;

#[test]
fn corpus_trigger_message() {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/tm");
    let mut files: Vec<_> = std::fs::read_dir(&directory)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 5, "too few seeds in {}", directory.display());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        fuzz_trigger_message(&bytes);
        let valid = path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.starts_with("valid-"));
        let decoded = bytes.split_first().map(|(first, rest)| {
            let order = if first & 1 == 0 {
                ByteOrder::Big
            } else {
                ByteOrder::Little
            };
            TriggerMessage::decode(rest, order)
        });
        assert_eq!(
            decoded.as_ref().is_some_and(|d| d.is_ok()),
            valid,
            "{}: {decoded:?}",
            path.display()
        );
    }
}
