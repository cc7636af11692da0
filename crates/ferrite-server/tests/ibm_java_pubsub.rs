//! Publish/subscribe over client channels, driven by IBM's MQ classes for JMS unmodified (the
//! Java programs are under `tests/java`; see `ibm_java_client.rs`) against a queue manager whose
//! channel initiator listens on 127.0.0.1: a JMS topic publisher whose publications a
//! subscription made through the in-process MQI receives, and a JMS non-durable subscriber
//! (SPI SUBSCRIBE, MQGET from its managed queue, MQCLOSE of both handles).

mod support;

use ferrite_constants::{get_options::*, misc::*, reason::MQRC_NO_MSG_AVAILABLE};
use ferrite_mqi::{Connection, Hobj, Mqgmo, Mqmd, Mqsd};
use ferrite_server::ServerConfig;
use support::java::{channel_arguments, run_java};
use support::listen;

const TOPIC_STRING: &str = "ferrite/test/prices";
const PUBLICATIONS: usize = 3;

/// Every message on `hobj` now, its data.
fn drain(connection: &mut Connection, hobj: Hobj) -> Vec<Vec<u8>> {
    let mut got = Vec::new();
    loop {
        let mut md = Mqmd::default();
        let mut gmo = Mqgmo::with_options(MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT);
        let mut buffer = vec![0u8; 64 * 1024];
        match connection.get(hobj, &mut md, &mut gmo, &mut buffer) {
            Ok(result) => {
                buffer.truncate(result.returned_length);
                got.push(buffer);
            }
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => return got,
            Err(error) => panic!("{error}"),
        }
    }
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
    assert!(output.contains("4 passed, 0 failed"), "every check ran");

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
