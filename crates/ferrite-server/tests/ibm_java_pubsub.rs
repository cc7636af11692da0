//! Publish/subscribe over client channels, driven by IBM's MQ classes for JMS unmodified (the
//! Java programs are under `tests/java`; see `ibm_java_client.rs`) against a queue manager whose
//! channel initiator listens on 127.0.0.1: a JMS topic publisher whose publications a
//! subscription made through the in-process MQI receives, and a JMS non-durable subscriber
//! (SPI SUBSCRIBE, MQGET from its managed queue, MQCLOSE of both handles).

mod support;

use ferrite_constants::misc::*;
use ferrite_mqi::{Connection, Hobj, Mqsd};
use ferrite_server::ServerConfig;
use support::java::{channel_arguments, run_java};
use support::{listen, Listener};

const TOPIC_STRING: &str = "ferrite/test/prices";
const PUBLICATIONS: usize = 3;

/// The data of every message on `hobj` now.
fn drain(connection: &mut Connection, hobj: Hobj) -> Vec<Vec<u8>> {
    ferrite_test_kit::get_until_empty(connection, hobj, 64 * 1024, "a subscription's queue")
        .into_iter()
        .map(|(_, data)| data)
        .collect()
}

#[test]
fn ibm_jms_topic_publisher_publishes_to_subscribers() {
    let listener = listen(support::start_with(&[], ServerConfig::default()));
    let mut subscriber = Connection::connect(listener.fixture.queue_manager.clone(), "").unwrap();
    let mut sd = Mqsd {
        options: MQSO_CREATE | MQSO_NON_DURABLE | MQSO_MANAGED,
        object_string: TOPIC_STRING.to_string(),
        ..Mqsd::default()
    };
    let mut hobj = Hobj(0);
    subscriber.subscribe(&mut sd, &mut hobj).unwrap();

    let output = run_java(
        "JmsPubSub",
        &channel_arguments(&listener, &[TOPIC_STRING, &PUBLICATIONS.to_string()]),
    );
    assert!(output.contains("5 passed, 0 failed"), "every check ran");

    let got = drain(&mut subscriber, hobj);
    assert_eq!(got.len(), PUBLICATIONS, "one copy of each publication");
    for (index, data) in got.iter().enumerate() {
        let text = format!("publication {index}");
        assert!(
            data.ends_with(text.as_bytes()),
            "publication {index} in order: {}",
            String::from_utf8_lossy(data)
        );
    }
    subscriber.disconnect().unwrap();

    // The JMS subscriber's subscription ended with its handle, and its managed queue with it.
    let queue_manager = &listener.fixture.queue_manager;
    assert!(
        queue_manager.subscriptions().is_empty(),
        "no subscription left"
    );
    let managed: Vec<String> = queue_manager
        .queues()
        .iter()
        .map(|queue| queue.name())
        .filter(|name| name.starts_with("SYSTEM.MANAGED."))
        .collect();
    assert!(managed.is_empty(), "no managed queue left: {managed:?}");
}

/// `listener`'s queue manager shut down and opened again from its directory, listening anew.
fn restart(mut listener: Listener) -> Listener {
    // The directory outlives the listener that is dropped (which stops it and shuts its queue
    // manager down).
    let directory = std::mem::replace(
        &mut listener.fixture.directory,
        tempfile::tempdir().unwrap(),
    );
    let socket = listener.fixture.socket.clone();
    drop(listener);
    let queue_manager = ferrite_test_kit::open(directory.path());
    listen(support::Fixture {
        directory,
        queue_manager,
        server: None,
        socket,
        log: Default::default(),
    })
}

#[test]
fn ibm_jms_durable_subscriber_receives_what_was_published_before_a_restart() {
    let topic_string = "ferrite/test/restart";
    let listener = listen(support::start_with(&[], ServerConfig::default()));
    let output = run_java(
        "JmsDurableRestart",
        &channel_arguments(&listener, &[topic_string, "before"]),
    );
    assert!(output.contains("1 passed, 0 failed"), "the first phase ran");
    let listener = restart(listener);
    let output = run_java(
        "JmsDurableRestart",
        &channel_arguments(&listener, &[topic_string, "after"]),
    );
    assert!(
        output.contains("1 passed, 0 failed"),
        "the second phase ran"
    );
    let queue_manager = &listener.fixture.queue_manager;
    assert!(queue_manager.subscriptions().is_empty(), "unsubscribed");
}

#[test]
fn ibm_jms_shared_subscriptions_give_each_publication_to_one_consumer() {
    let listener = listen(support::start_with(&[], ServerConfig::default()));
    let output = run_java(
        "JmsSharedSubscriptions",
        &channel_arguments(&listener, &["ferrite/test/shared", "20"]),
    );
    assert!(output.contains("2 passed, 0 failed"), "every check ran");
    let queue_manager = &listener.fixture.queue_manager;
    assert!(
        queue_manager.subscriptions().is_empty(),
        "no subscription left: {:?}",
        queue_manager.subscriptions()
    );
}
