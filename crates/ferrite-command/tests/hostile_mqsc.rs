//! Hostile-input tests for the MQSC parser: `split_commands`, `tokenize` and `run_command` on a
//! throwaway queue manager, with random strings and mutations of the commands in
//! `tests/scripts/*.mqsc` (characters inserted, deleted and replaced, truncations, case flips,
//! parentheses and quotes added). Nothing may panic; a tokenizer error names a position inside
//! the command (or just past its end); every syntax error (CSQ900nE, CSQ901nE) in a response names a
//! position; every response to one non-empty command ends in CSQ9022I or CSQ9023E (more than one
//! command is refused with a single CSQ9001E line).
//!
//! `tests/corpus/mqsc/` holds one command (or script) per file, replayed by `corpus_mqsc`.

use std::path::PathBuf;
use std::sync::Arc;

use ferrite_command::parser::split_commands;
use ferrite_queue_manager::QueueManager;
use ferrite_test_kit::hostile::{check_mqsc_command, check_mqsc_syntax};
use proptest::prelude::*;

/// The commands of the golden scripts, except those that stop the queue manager.
fn seeds() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scripts");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "mqsc"))
        .collect();
    paths.sort();
    let mut seeds: Vec<String> = paths
        .iter()
        .flat_map(|path| split_commands(&std::fs::read_to_string(path).unwrap()))
        .map(|command| command.text)
        .filter(|text| !text.to_uppercase().contains("STOP"))
        .collect();
    seeds.push("DEFINE QLOCAL(HOSTILE.Q) DESCR('it''s') MAXDEPTH(10) +\n  DEFPSIST(YES)".into());
    seeds
}

#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Replace(usize, char),
    Delete(usize),
    Truncate(usize),
    FlipCase(usize),
    Duplicate(usize, usize),
}

fn special_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            '(', ')', '\'', ',', '+', '-', '*', ' ', '\n', '\t', '\r'
        ]),
        any::<char>(),
        prop::char::range('A', 'Z'),
        prop::char::range('0', '9'),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), special_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<usize>(), special_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Truncate),
        any::<usize>().prop_map(Edit::FlipCase),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Duplicate(a, b)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut characters: Vec<char> = text.chars().collect();
    for e in edits {
        let len = characters.len();
        match *e {
            Edit::Insert(i, c) => characters.insert(i % (len + 1), c),
            Edit::Replace(i, c) if len > 0 => characters[i % len] = c,
            Edit::Delete(i) if len > 0 => {
                characters.remove(i % len);
            }
            Edit::Truncate(i) => characters.truncate(i % (len + 1)),
            Edit::FlipCase(i) if len > 0 => {
                let c = characters[i % len];
                characters[i % len] = if c.is_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                };
            }
            Edit::Duplicate(a, b) if len > 0 => {
                let (a, b) = (a % len, b % len);
                let (start, end) = (a.min(b), a.max(b) + 1);
                let copy: Vec<char> = characters[start..end.min(start + 32)].to_vec();
                characters.splice(end..end, copy);
            }
            _ => {}
        }
    }
    characters.into_iter().collect()
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn tokenize_random_strings(text in "\\PC{0,80}") {
        check_mqsc_syntax(&text);
    }

    #[test]
    fn tokenize_mqsc_alphabet(text in "[A-Za-z0-9()', +\\-*\n.]{0,80}") {
        check_mqsc_syntax(&text);
    }
}

proptest! {
    #![proptest_config(config(384))]

    #[test]
    fn run_command_random_and_mutated(
        seed in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 0..6),
        random in "[A-Za-z0-9()', +\\-*.]{0,60}",
        use_random in prop::bool::weighted(0.2),
    ) {
        thread_local! {
            static QUEUE_MANAGER: (tempfile::TempDir, Arc<QueueManager>) = ferrite_test_kit::queue_manager(&[]);
        }
        let seeds = seeds();
        let text = if use_random {
            random
        } else {
            apply(&seeds[seed.index(seeds.len())], &edits)
        };
        QUEUE_MANAGER.with(|(_, queue_manager)| check_mqsc_command(queue_manager, &text));
    }
}

#[test]
fn corpus_mqsc() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/mqsc");
    for (name, bytes) in ferrite_test_kit::corpus::corpus_files(&dir, 1) {
        eprintln!("mqsc/{name}");
        check_mqsc_command(&queue_manager, &String::from_utf8_lossy(&bytes));
    }
}
