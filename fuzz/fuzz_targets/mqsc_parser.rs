//! MQSC parser: `split_commands` and `tokenize` on any text. Positions in tokens and errors
//! stay inside the command; every error renders with its position.
//! Corpus: crates/ferrite-command/tests/corpus/mqsc/.
#![no_main]

use ferrite_test_kit::hostile::check_mqsc_syntax;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| check_mqsc_syntax(&String::from_utf8_lossy(data)));
