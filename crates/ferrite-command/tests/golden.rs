//! Golden tests: each `scripts/NAME.mqsc` is run against a fresh queue manager QM1 and its
//! output compared line by line with `scripts/NAME.out`, after dates, times, ages and ids are
//! replaced by placeholders. `UPDATE_GOLDEN=1 cargo test -p ferrite-command --test golden`
//! rewrites the expected files (review the diff before committing).
//!
//! Script format: MQSC (comments, continuation lines), plus test directives on lines starting
//! with `*!` that the MQSC parser would take as comments:
//! `*! PUT queue count [PERSISTENT]`, `*! GET queue count`, `*! OPEN queue INPUT|OUTPUT|BROWSE|INQUIRE`
//! (on a connection of its own, held open until the script ends), `*! CLOSE queue` (the
//! last of those connections that opened `queue` closes its handle), `*! CHINIT port` (attach a channel initiator double with a
//! listener on `port` and two instances of APP.SVRCONN, see `support::FakeInitiator`).

mod support;

use std::path::{Path, PathBuf};

use ferrite_constants::open_options::*;
use ferrite_mqi::{Connection, Mqod};

/// Replace what changes from run to run: dates (`2024-01-31`), times (`12.34.56`), and the
/// values of MSGAGE, QTIME, RESETINT and QMID, and what depends on the process running the
/// test: PID, TID, APPLTAG (the test program's name) and USERID, and the privileged users
/// REFRESH SECURITY reports (from the machine's group database).
fn normalise(line: &str) -> String {
    // REFRESH SECURITY's privileged users depend on the machine's group database.
    const PRIVILEGED: &str = "Privileged users in force: ";
    if line.starts_with(PRIVILEGED) {
        return format!("{PRIVILEGED}*");
    }
    let mut text = line.to_string();
    for keyword in [
        "MSGAGE(",
        "QTIME(",
        "RESETINT(",
        "QMID(",
        "PID(",
        "TID(",
        "APPLTAG(",
        "USERID(",
    ] {
        let mut from = 0;
        while let Some(found) = text[from..].find(keyword) {
            let start = from + found + keyword.len();
            let Some(length) = text[start..].find(')') else {
                break;
            };
            let value = &text[start..start + length];
            if value.trim().is_empty() || value == " , " {
                from = start;
                continue;
            }
            text.replace_range(start..start + length, "*");
            from = start;
        }
    }
    let characters: Vec<char> = text.chars().collect();
    let mut result = String::new();
    let mut index = 0;
    let digits = |at: usize, count: usize| {
        (at..at + count).all(|i| characters.get(i).is_some_and(|c| c.is_ascii_digit()))
    };
    while index < characters.len() {
        if digits(index, 4)
            && characters.get(index + 4) == Some(&'-')
            && digits(index + 5, 2)
            && characters.get(index + 7) == Some(&'-')
            && digits(index + 8, 2)
        {
            result.push_str("YYYY-MM-DD");
            index += 10;
        } else if digits(index, 2)
            && characters.get(index + 2) == Some(&'.')
            && digits(index + 3, 2)
            && characters.get(index + 5) == Some(&'.')
            && digits(index + 6, 2)
            && !characters
                .get(index + 8)
                .is_some_and(|c| c.is_ascii_digit())
        {
            result.push_str("HH.MM.SS");
            index += 8;
        } else {
            result.push(characters[index]);
            index += 1;
        }
    }
    result
}

fn run_script(path: &Path) -> Vec<String> {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let processor = ferrite_command::CommandProcessor::new(queue_manager.clone());
    let script = std::fs::read_to_string(path).unwrap();
    let mut output = Vec::new();
    let mut held = Vec::new();
    let mut pending = String::new();
    // Script line number of the first line in `pending`.
    let mut pending_from = 1;
    let flush = |pending: &mut String, from: usize, output: &mut Vec<String>| {
        for command in ferrite_command::split_commands(pending) {
            output.push(format!(
                "{:>6} : {}",
                from + command.line - 1,
                command.text.trim_end()
            ));
            let response = processor.run(&command.text);
            output.extend(response.lines.iter().cloned());
        }
        pending.clear();
    };
    for (index, line) in script.lines().enumerate() {
        if let Some(directive) = line.strip_prefix("*!") {
            flush(&mut pending, pending_from, &mut output);
            pending_from = index + 2;
            output.push(format!("*! {}", directive.trim()));
            let words: Vec<&str> = directive.split_whitespace().collect();
            match words.as_slice() {
                ["PUT", queue, count, rest @ ..] => ferrite_test_kit::put_messages(
                    &queue_manager,
                    queue,
                    count.parse().unwrap(),
                    rest.contains(&"PERSISTENT"),
                ),
                ["CHINIT", port] => processor.set_channel_initiator(Some(std::sync::Arc::new(
                    support::FakeInitiator::new(port.parse().unwrap()),
                ))),
                ["GET", queue, count] => {
                    ferrite_test_kit::get_messages(&queue_manager, queue, count.parse().unwrap())
                }
                ["OPEN", queue, mode] => {
                    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
                    let options = match *mode {
                        "INPUT" => MQOO_INPUT_SHARED,
                        "BROWSE" => MQOO_BROWSE | MQOO_INQUIRE | MQOO_FAIL_IF_QUIESCING,
                        "INQUIRE" => MQOO_INQUIRE,
                        _ => MQOO_OUTPUT,
                    };
                    let hobj = connection.open(&mut Mqod::queue(queue), options).unwrap();
                    held.push((queue.to_string(), hobj, connection));
                }
                ["CLOSE", queue] => {
                    let (_, hobj, connection) = held
                        .iter_mut()
                        .rev()
                        .find(|(opened, _, _)| opened == queue)
                        .expect("CLOSE of a queue an OPEN directive opened");
                    connection.close(*hobj, 0).unwrap();
                }
                _ => panic!("unknown directive {directive}"),
            }
            continue;
        }
        pending.push_str(line);
        pending.push('\n');
    }
    flush(&mut pending, pending_from, &mut output);
    drop(held);
    queue_manager.shutdown().unwrap();
    output.iter().map(|line| normalise(line)).collect()
}

fn scripts() -> Vec<PathBuf> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&directory)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "mqsc"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no scripts in {}", directory.display());
    scripts
}

#[test]
fn mqsc_scripts_give_the_expected_output() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    for script in scripts() {
        let actual = run_script(&script);
        let expected_path = script.with_extension("out");
        if update {
            std::fs::write(&expected_path, actual.join("\n") + "\n").unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|error| {
            panic!("{}: {error}", expected_path.display());
        });
        let expected: Vec<&str> = expected.lines().collect();
        for index in 0..actual.len().max(expected.len()) {
            let want = expected.get(index).copied();
            let got = actual.get(index).map(String::as_str);
            if want != got {
                failures.push(format!(
                    "{} line {}:\n  expected: {}\n  actual:   {}",
                    expected_path.display(),
                    index + 1,
                    want.unwrap_or("<end of file>"),
                    got.unwrap_or("<end of output>")
                ));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn normalisation() {
    assert_eq!(
        normalise(" LPUTDATE(2024-01-31) LPUTTIME(12.34.56) MSGAGE(17) QTIME(5, 6) MSGAGE( )"),
        " LPUTDATE(YYYY-MM-DD) LPUTTIME(HH.MM.SS) MSGAGE(*) QTIME(*) MSGAGE( )"
    );
    assert_eq!(normalise("MAXMSGL(4194304)"), "MAXMSGL(4194304)");
}
