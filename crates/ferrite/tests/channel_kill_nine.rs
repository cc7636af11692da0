//! Assured once-only delivery between two queue manager processes under real SIGKILLs: QMA's
//! transmission queue holds numbered persistent messages for QMB; while its sender channel
//! moves them, one queue manager or the other is killed at deterministic moments and started
//! again, and the channel started again. In the end every message is on QMB's queue exactly
//! once, and none is left on QMA.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use ferrite_test_kit::channel_pair::ChannelPair;
use ferrite_test_kit::process::free_port;
use support::{ok, status};

/// Messages moved across the kills.
const MESSAGES: u64 = 3_000;
/// Kills, the receiver and the sender in turn.
const KILLS: u64 = 6;
/// A bound on how long the channel may take to move what is left once nothing is killed any
/// more; never a measure of speed.
const HANG_SECONDS: u64 = 300;

struct Pair<'a> {
    home: &'a Path,
    ports: [u16; 2],
}

impl Pair<'_> {
    fn name(index: usize) -> &'static str {
        ["QMA", "QMB"][index]
    }

    fn start(&self, index: usize) {
        let port = self.ports[index].to_string();
        ok(
            self.home,
            &["start", Self::name(index), "--background", "--port", &port],
            "",
        );
    }

    fn kill(&self, index: usize) {
        let (_, pid) = status(self.home, Self::name(index));
        let pid = pid.expect("a running queue manager has a pid");
        // SAFETY: sending SIGKILL to a queue manager process this test started.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
        let deadline = Instant::now() + Duration::from_secs(HANG_SECONDS);
        while status(self.home, Self::name(index)).1.is_some() {
            assert!(
                Instant::now() < deadline,
                "{} did not die",
                Self::name(index)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// START CHANNEL on QMA; refused harmlessly when the channel already runs or retries.
    fn start_channel(&self) {
        let _ =
            support::ferrite_with_input(self.home, &["mqsc", "QMA"], "START CHANNEL(QMA.TO.QMB)\n");
    }

    fn depth(&self, index: usize, queue: &str) -> u64 {
        let output = ok(
            self.home,
            &["mqsc", Self::name(index)],
            &format!("DISPLAY QLOCAL({queue}) CURDEPTH\n"),
        );
        let start = output.find("CURDEPTH(").expect("CURDEPTH shown") + "CURDEPTH(".len();
        let end = start + output[start..].find(')').unwrap();
        output[start..end].parse().unwrap()
    }

    fn stop(&self, index: usize) {
        ok(self.home, &["stop", Self::name(index)], "");
    }
}

/// The channel from QMA to QMB (the test kit's pair of definitions).
const PAIR: ChannelPair<'static> = ChannelPair {
    channel: "QMA.TO.QMB",
    receiver: "QMB",
    remote_queue: "TO.B",
    destination: "ARRIVALS",
};

fn define_objects(home: &Path, port_b: u16) {
    ok(home, &["create", "QMA"], "");
    ok(home, &["create", "QMB"], "");
    ok(
        home,
        &["mqsc", "QMA"],
        &PAIR.sender_definitions(port_b, "BATCHSZ(7) SHORTRTY(1000) SHORTTMR(1) DISCINT(0)"),
    );
    ok(home, &["mqsc", "QMB"], &PAIR.receiver_definitions(""));
}

#[test]
fn every_message_crosses_the_channel_once_whatever_is_killed() {
    let home = tempfile::tempdir().unwrap();
    let pair = Pair {
        home: home.path(),
        ports: [free_port(), free_port()],
    };
    define_objects(home.path(), pair.ports[1]);
    // Every message waits on QMA's transmission queue before any channel runs (put through
    // the running queue manager, whose MQOPEN resolves the remote queue).
    pair.start(0);
    ok(
        home.path(),
        &[
            "put",
            "QMA",
            "TO.B",
            "--count",
            &MESSAGES.to_string(),
            "--size",
            "300",
            "--persistent",
            "--syncpoint",
            "50",
        ],
        "",
    );
    assert_eq!(pair.depth(0, "QMB"), MESSAGES);
    pair.start(1);
    pair.start_channel();
    // Kills at set points of the transfer (what is left on the transmission queue), so that
    // they land while batches move whatever the machine's speed: the receiver and the sender
    // in turn.
    for round in 0..KILLS {
        let threshold = MESSAGES * (KILLS - round) / (KILLS + 1);
        let deadline = Instant::now() + Duration::from_secs(HANG_SECONDS);
        let left = loop {
            let left = pair.depth(0, "QMB");
            if left <= threshold {
                break left;
            }
            assert!(
                Instant::now() < deadline,
                "the channel moves nothing: {left} left"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        let victim = (round % 2) as usize;
        pair.kill(victim);
        pair.start(victim);
        pair.start_channel();
        eprintln!(
            "round {round}: killed {} with {left} messages still to move",
            Pair::name(victim)
        );
    }
    let deadline = Instant::now() + Duration::from_secs(HANG_SECONDS);
    while pair.depth(0, "QMB") > 0 {
        assert!(
            Instant::now() < deadline,
            "the transmission queue still holds {} messages",
            pair.depth(0, "QMB")
        );
        pair.start_channel();
        std::thread::sleep(Duration::from_millis(200));
    }
    pair.stop(0);
    pair.stop(1);
    let output = ok(home.path(), &["get", "QMB", "ARRIVALS"], "");
    let mut arrived: BTreeMap<u64, u32> = BTreeMap::new();
    for line in output.lines() {
        let number: u64 = line[..10]
            .parse()
            .expect("generated message starts with its number");
        *arrived.entry(number).or_default() += 1;
    }
    let doubled: Vec<_> = arrived.iter().filter(|(_, count)| **count > 1).collect();
    assert!(doubled.is_empty(), "delivered more than once: {doubled:?}");
    let missing: Vec<u64> = (0..MESSAGES)
        .filter(|number| !arrived.contains_key(number))
        .collect();
    assert!(missing.is_empty(), "lost: {missing:?}");
    assert_eq!(arrived.len() as u64, MESSAGES, "nothing that was never put");
}
