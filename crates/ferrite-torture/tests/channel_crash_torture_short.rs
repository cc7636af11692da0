//! The short channel crash torture of the test suite: two real `ferrite` queue managers and a
//! message channel between them; each round kills the sender or the receiver at a seeded flow
//! (mid-batch, or mid-confirm: the receiver's confirmation of a committed batch held back or
//! just delivered), restarts it and checks every arrival against the model. No timing
//! assertions. FERRITE_CHANNEL_TORTURE_ROUNDS and FERRITE_CHANNEL_TORTURE_SEED run it longer
//! or with another seed; the long version is
//! `cargo run --release -p ferrite-torture -- channels --rounds 500`.

use std::sync::atomic::AtomicBool;

use ferrite_torture::channel_torture::{run, ChannelTortureOptions};
use ferrite_torture::queue_manager::locate_ferrite;

static NEVER: AtomicBool = AtomicBool::new(false);

fn from_environment(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

#[test]
fn committed_messages_cross_the_channel_once_whatever_is_killed_and_when() {
    let rounds = from_environment("FERRITE_CHANNEL_TORTURE_ROUNDS", 16);
    let options = ChannelTortureOptions {
        rounds,
        seed: from_environment("FERRITE_CHANNEL_TORTURE_SEED", 20261129),
        // The ferrite binary of this build and profile, built first if needed.
        ferrite: locate_ferrite(None).unwrap(),
        work_directory: None,
        messages_max: 60,
        interrupt: &NEVER,
    };
    let report =
        run(&options, &mut |line| eprintln!("{line}")).unwrap_or_else(|error| panic!("{error}"));
    eprintln!("{}", report.summary());
    assert_eq!(report.rounds, rounds);
    assert_eq!(report.sender_kills + report.receiver_kills, rounds);
    assert_eq!(report.lost + report.duplicated + report.phantom, 0);
    assert_eq!(report.order_violations + report.torn_units, 0);
    assert!(report.arrived > 0, "{report:?}");
    // Any eight rounds kill each side at each kind of flow once.
    if rounds >= 8 {
        assert!(
            report.sender_kills >= 4 && report.receiver_kills >= 4,
            "{report:?}"
        );
        assert!(report.mid_batch_kills >= 4, "{report:?}");
        assert!(report.held_confirmation_kills >= 2, "{report:?}");
        assert!(report.after_confirmation_kills >= 2, "{report:?}");
    }
}
