//! Topics over a client channel with Ferrite's Rust client: MQOPEN of a topic by its
//! ObjectString (sent after a version 4 MQOD) and by a TOPIC object plus ObjectString, MQPUT
//! as publish, received by subscriptions made through the in-process MQI; MQSUB (SPI SUBSCRIBE)
//! through the Rust client, non-durable and durable, and MQGET from the subscription's queue.

mod support;

use ferrite_constants::{
    misc::*, object_type::MQOT_TOPIC, open_options::MQOO_OUTPUT, put_options::MQPMO_NO_SYNCPOINT,
};
use ferrite_mqi::{Connection, Hobj, Mqmd, Mqod, Mqpmo, Mqsd};
use ferrite_queue_manager::objects::topic::TopicDefinition;
use ferrite_queue_manager::ObjectDefinition;
use ferrite_server::ServerConfig;
use support::listen;

/// MQSUB (managed, non-durable) to `topic_string`: the queue handle.
fn subscribe(connection: &mut Connection, topic_string: &str) -> Hobj {
    let mut sd = Mqsd {
        options: MQSO_CREATE | MQSO_NON_DURABLE | MQSO_MANAGED,
        object_string: topic_string.to_string(),
        ..Mqsd::default()
    };
    let mut hobj = Hobj(0);
    connection.subscribe(&mut sd, &mut hobj).unwrap();
    hobj
}

/// The data of every message on `hobj` now.
fn drain(connection: &mut Connection, hobj: Hobj) -> Vec<Vec<u8>> {
    ferrite_test_kit::get_until_empty(connection, hobj, 1024, "a subscription's queue")
        .into_iter()
        .map(|(_, data)| data)
        .collect()
}

#[test]
fn rust_client_publishes_to_a_topic_string_and_through_a_topic_object() {
    let listener = listen(support::start_with(&[], ServerConfig::default()));
    let queue_manager = &listener.fixture.queue_manager;
    let sports = TopicDefinition::new("SPORTS", "news/sports");
    queue_manager
        .define_object(ObjectDefinition::Topic(sports), false)
        .unwrap();
    let mut subscriber = Connection::connect(queue_manager.clone(), "").unwrap();
    let weather = subscribe(&mut subscriber, "news/weather");
    let football = subscribe(&mut subscriber, "news/sports/football");

    let mut client = listener.connect_app();
    for (object_name, object_string, data) in [
        ("", "news/weather", &b"rain"[..]),
        ("SPORTS", "football", &b"2-1"[..]),
    ] {
        let mut od = Mqod {
            object_type: MQOT_TOPIC,
            object_name: object_name.to_string(),
            object_string: object_string.to_string(),
            ..Mqod::default()
        };
        let hobj = client.open(&mut od, MQOO_OUTPUT).unwrap();
        client
            .put(
                hobj,
                &mut Mqmd::default(),
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                data,
            )
            .unwrap();
        client.close(hobj, 0).unwrap();
    }
    client.disconnect().unwrap();

    assert_eq!(drain(&mut subscriber, weather), vec![b"rain".to_vec()]);
    assert_eq!(drain(&mut subscriber, football), vec![b"2-1".to_vec()]);
    subscriber.disconnect().unwrap();
}

/// MQSUB through the Rust client: `options` to `topic_string`, named `sub_name`; the
/// subscription handle and its queue's handle.
fn client_subscribe(
    client: &mut ferrite_client::Connection,
    options: i32,
    topic_string: &str,
    sub_name: &str,
) -> ferrite_mqi::MqResult<(Hobj, Hobj)> {
    let mut sd = Mqsd {
        options,
        object_string: topic_string.to_string(),
        sub_name: sub_name.to_string(),
        ..Mqsd::default()
    };
    let mut hobj = Hobj(0);
    let hsub = client.subscribe(&mut sd, &mut hobj)?;
    Ok((hsub, hobj))
}

fn publish(connection: &mut Connection, topic_string: &str, data: &[u8]) {
    let mut od = Mqod {
        object_type: MQOT_TOPIC,
        object_string: topic_string.to_string(),
        ..Mqod::default()
    };
    connection
        .put1(
            &mut od,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            data,
        )
        .unwrap();
}

/// What is on `hobj` now, through the Rust client.
fn client_drain(client: &mut ferrite_client::Connection, hobj: Hobj) -> Vec<Vec<u8>> {
    ferrite_test_kit::get_until_empty(client, hobj, 1024, "a subscription's queue")
        .into_iter()
        .map(|(_, data)| data)
        .collect()
}

#[test]
fn rust_client_subscribes_non_durably_and_durably() {
    use ferrite_constants::close_options::MQCO_REMOVE_SUB;
    use ferrite_constants::reason::MQRC_OPTIONS_ERROR;
    let listener = listen(support::start_with(&[], ServerConfig::default()));
    let queue_manager = &listener.fixture.queue_manager;
    let mut publisher = Connection::connect(queue_manager.clone(), "").unwrap();
    let mut client = listener.connect_app();

    // Neither CREATE, RESUME nor ALTER: MQSUB's own reason code, through the wire.
    let error = client_subscribe(&mut client, MQSO_MANAGED, "news/#", "").unwrap_err();
    assert_eq!(error.reason, MQRC_OPTIONS_ERROR);

    let managed = MQSO_CREATE | MQSO_MANAGED;
    let (hsub, hobj) = client_subscribe(&mut client, managed, "news/#", "").unwrap();
    publish(&mut publisher, "news/weather", b"sun");
    publish(&mut publisher, "sport", b"not news");
    assert_eq!(client_drain(&mut client, hobj), vec![b"sun".to_vec()]);
    client.close(hsub, 0).unwrap();
    client.close(hobj, 0).unwrap();

    let durable = managed | MQSO_DURABLE;
    let (hsub, hobj) = client_subscribe(&mut client, durable, "news/tv", "FERRITE.TV").unwrap();
    client.close(hsub, 0).unwrap();
    client.close(hobj, 0).unwrap();
    publish(&mut publisher, "news/tv", b"while away");
    let resume = MQSO_RESUME | MQSO_MANAGED | MQSO_DURABLE;
    let (hsub, hobj) = client_subscribe(&mut client, resume, "", "FERRITE.TV").unwrap();
    assert_eq!(
        client_drain(&mut client, hobj),
        vec![b"while away".to_vec()]
    );
    client.close(hsub, MQCO_REMOVE_SUB).unwrap();
    client.close(hobj, 0).unwrap();
    assert!(
        queue_manager.subscriptions().is_empty(),
        "no subscription left"
    );
    client.disconnect().unwrap();
    publisher.disconnect().unwrap();
}
