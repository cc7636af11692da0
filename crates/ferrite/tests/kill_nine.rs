//! The durability contract with a real process and a real SIGKILL: `ferrite put --echo` prints
//! each message's number once its commit has returned; the process is killed at a random
//! moment; after restart every acknowledged message is present exactly once and nothing that
//! was never put appears.

mod support;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ferrite_test_kit::process::{in_home, run_with_stdin};
use support::FERRITE;

fn run(home: &Path, arguments: &[&str], stdin: &str) -> String {
    let mut command = in_home(FERRITE, home);
    command.args(arguments);
    let output = run_with_stdin(command, stdin);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success() || arguments[0] == "get",
        "ferrite {arguments:?} failed: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[test]
fn committed_messages_survive_sigkill_at_random_moments() {
    let home = tempfile::tempdir().unwrap();
    run(home.path(), &["create", "KILLQM"], "");
    let definitions: String = (0..5)
        .map(|round| format!("DEFINE QLOCAL(KILL.Q{round}) DEFPSIST(YES)\n"))
        .collect();
    run(home.path(), &["mqsc", "KILLQM"], &definitions);
    // Deterministic "random" kill delays, spread over start-up, steady state and checkpoints.
    let delays_ms = [150u64, 400, 900, 250, 1300];
    let mut acknowledged_total: BTreeMap<u64, u32> = BTreeMap::new();
    let mut round_base = 0u64;
    for (round, delay) in delays_ms.iter().enumerate() {
        let queue = format!("KILL.Q{round}");
        let mut child = in_home(FERRITE, home.path())
            .args([
                "put",
                "KILLQM",
                &queue,
                "--count",
                "100000000",
                "--size",
                "200",
                "--persistent",
                "--syncpoint",
                "3",
                "--echo",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, receiver) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_millis(*delay);
        let mut acknowledged = Vec::new();
        while Instant::now() < deadline {
            if let Ok(line) = receiver.recv_timeout(Duration::from_millis(5)) {
                acknowledged.push(line.parse::<u64>().unwrap());
            }
        }
        // SAFETY: sending SIGKILL to our own child.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGKILL) };
        child.wait().unwrap();
        reader.join().unwrap();
        // Lines already in the pipe were acknowledged before the kill.
        while let Ok(line) = receiver.try_recv() {
            acknowledged.push(line.parse::<u64>().unwrap());
        }
        // Each round numbers its messages from 0; keep them apart by round.
        for number in acknowledged {
            *acknowledged_total.entry(round_base + number).or_default() += 1;
        }
        eprintln!("round {round}: killed after {delay} ms");
        round_base += 1_000_000_000;
    }
    // Drain each round's queue and match its messages to the acknowledgements.
    let mut present: BTreeMap<u64, u32> = BTreeMap::new();
    for round in 0..delays_ms.len() as u64 {
        let output = run(
            home.path(),
            &["get", "KILLQM", &format!("KILL.Q{round}")],
            "",
        );
        for line in output.lines() {
            let number: u64 = line[..10]
                .parse()
                .expect("generated message starts with its number");
            *present.entry(round * 1_000_000_000 + number).or_default() += 1;
        }
    }
    for (number, count) in &present {
        assert_eq!(*count, 1, "message {number} delivered {count} times");
    }
    // Units of work commit in order, three messages each: every round's survivors are whole
    // units from its start, with no gap and no part of an uncommitted unit.
    let mut per_round: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for number in present.keys() {
        per_round
            .entry(number / 1_000_000_000)
            .or_default()
            .push(number % 1_000_000_000);
    }
    for (round, numbers) in &per_round {
        let expected: Vec<u64> = (0..numbers.len() as u64).collect();
        assert_eq!(
            numbers, &expected,
            "round {round}: survivors are not a prefix of the puts"
        );
        assert_eq!(
            numbers.len() % 3,
            0,
            "round {round}: part of an uncommitted unit of work is visible"
        );
    }
    let missing: Vec<u64> = acknowledged_total
        .keys()
        .filter(|number| !present.contains_key(number))
        .copied()
        .collect();
    assert!(
        missing.is_empty(),
        "{} acknowledged messages lost after SIGKILL, the first: {:?}",
        missing.len(),
        &missing[..missing.len().min(20)]
    );
    assert!(
        !acknowledged_total.is_empty(),
        "no message was acknowledged before the kills"
    );
    eprintln!(
        "{} acknowledged messages all survived 5 kills ({} present)",
        acknowledged_total.len(),
        present.len()
    );
}
