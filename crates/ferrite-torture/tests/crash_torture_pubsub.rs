//! The short publish/subscribe crash torture of the test suite: SIGKILLs of the real
//! `ferrite` binary while one connection publishes in units of work to a topic with two
//! durable subscriptions and consumes their queues in units of work; after each restart every
//! subscriber's queue is checked against the model (none lost or doubled, uncertain units all
//! or nothing across subscribers). No timing assertions: on a loaded machine the workload just
//! does less between kills.

use ferrite_torture::pubsub::{run, PubSubTortureOptions};
use ferrite_torture::queue_manager::locate_ferrite;

#[test]
fn durable_subscribers_lose_and_double_no_publication_across_sigkills() {
    let options = PubSubTortureOptions {
        crashes: 6,
        seed: 20261129,
        ferrite: locate_ferrite(None).unwrap(),
        work_directory: None,
        run_ms_max: 600,
    };
    let report =
        run(&options, &mut |line| eprintln!("{line}")).unwrap_or_else(|error| panic!("{error}"));
    eprintln!("{report:?}");
    assert_eq!(report.crashes_survived, 6);
    assert!(report.clean(), "{report:?}");
    // The checks ran on something.
    assert_eq!(report.verifications, 7, "{report:?}");
    assert!(report.publications_committed > 0, "{report:?}");
    assert!(report.deliveries_verified > 0, "{report:?}");
}
