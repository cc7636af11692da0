//! MQSC parser: `split_commands` and `tokenize` on any text. Positions in tokens and errors
//! stay inside the command; every error renders with its position.
//! Corpus: crates/ferrite-command/tests/corpus/mqsc/.
#![no_main]

use ferrite_command::parser::{split_commands, tokenize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let line_count = text.split('\n').count();
    for command in split_commands(&text) {
        assert!(command.line >= 1 && command.line <= line_count);
        let characters = command.text.chars().count();
        match tokenize(&command.text) {
            Ok(tokens) => {
                for token in tokens {
                    assert!(token.position >= 1 && token.position <= characters);
                    assert!(!token.keyword.is_empty());
                    if let Some(value) = token.value {
                        assert!(value.position >= 1 && value.position <= characters + 1);
                    }
                }
            }
            Err(error) => {
                assert!(
                    error.position >= 1 && error.position <= characters + 1,
                    "position {} outside a {characters}-character command",
                    error.position
                );
                assert!(error.line("QM1").contains("at position"));
            }
        }
    }
});
