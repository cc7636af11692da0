//! Publish/subscribe through the in-process MQI: MQOPEN of a topic and MQPUT as publish,
//! MQSUB (managed and provided destinations, durable and non-durable, both wildcard schemes,
//! selectors, SubUserData, SubCorrelId), MQCLOSE of subscriptions, all-or-nothing delivery in
//! and out of syncpoint, and durable subscriptions across a restart and a crash.

use ferrite_constants::{
    close_options::*, get_options::*, misc::*, object_type::MQOT_TOPIC, open_options::*,
    persistence::*, put_options::*, reason::*,
};
use ferrite_mqi::message_handles::PropertyValue;
use ferrite_mqi::{Connection, Hobj, Mqgmo, Mqmd, Mqod, Mqpmo, Mqsd};
use ferrite_queue_manager::objects::topic::{MessageDelivery, TopicDefinition};
use ferrite_queue_manager::{ObjectDefinition, QueueManager};
use ferrite_test_kit::{connect, queue_manager_with_defaults, reason};

fn topic(topic_string: &str) -> Mqod {
    Mqod {
        object_type: MQOT_TOPIC,
        object_name: String::new(),
        object_string: topic_string.to_string(),
        ..Mqod::default()
    }
}

fn publisher(connection: &mut Connection, topic_string: &str) -> Hobj {
    connection
        .open(&mut topic(topic_string), MQOO_OUTPUT)
        .unwrap()
}

fn publish(connection: &mut Connection, hobj: Hobj, options: i32, data: &[u8]) -> Mqmd {
    publish_with(
        connection,
        hobj,
        MQPER_PERSISTENCE_AS_TOPIC_DEF,
        options,
        data,
    )
}

/// Publish `data` with `persistence` and put options `options`, which must succeed.
fn publish_with(
    connection: &mut Connection,
    hobj: Hobj,
    persistence: i32,
    options: i32,
    data: &[u8],
) -> Mqmd {
    let mut md = Mqmd {
        persistence,
        ..Mqmd::default()
    };
    connection
        .put(hobj, &mut md, &mut Mqpmo::with_options(options), data)
        .unwrap();
    md
}

/// MQSUB with `options` to `topic_string`; the subscription handle and the queue handle.
fn subscribe(connection: &mut Connection, options: i32, topic_string: &str) -> (Hobj, Hobj) {
    let mut sd = Mqsd {
        options,
        object_string: topic_string.to_string(),
        ..Mqsd::default()
    };
    let mut hobj = Hobj(0);
    let hsub = connection.subscribe(&mut sd, &mut hobj).unwrap();
    (hsub, hobj)
}

fn open_queue(connection: &mut Connection, name: &str) -> Hobj {
    connection
        .open(&mut Mqod::queue(name), MQOO_OUTPUT | MQOO_INPUT_AS_Q_DEF)
        .unwrap()
}

/// A publication as a subscriber got it.
struct Delivered {
    md: Mqmd,
    data: Vec<u8>,
    /// MQTopicString (mqps.Top).
    topic_string: String,
    /// MQSubUserData (mqps.Sud), when there is one.
    user_data: Option<String>,
    /// MQIsRetained (mqps.Ret).
    retained: bool,
}

/// Get everything on `hobj` now, with the properties MQ adds.
fn drain(connection: &mut Connection, hobj: Hobj) -> Vec<Delivered> {
    let hmsg = connection.create_message_handle(0).unwrap();
    let mut got = Vec::new();
    loop {
        let mut md = Mqmd::default();
        let mut gmo = Mqgmo::with_options(MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT);
        gmo.msg_handle = Some(hmsg);
        let mut buffer = vec![0u8; 4096];
        match connection.get(hobj, &mut md, &mut gmo, &mut buffer) {
            Ok(result) => {
                buffer.truncate(result.returned_length);
                let mut property = |name: &str| match connection.inquire_message_property(
                    hmsg,
                    name,
                    MQIMPO_INQ_FIRST,
                    MQTYPE_AS_SET,
                ) {
                    Ok((_, PropertyValue::String(text))) => Some(text),
                    Ok(other) => panic!("{name}: {other:?}"),
                    Err(_) => None,
                };
                let topic_string = property("mqps.Top").expect("MQTopicString");
                let user_data = property("mqps.Sud");
                let retained = matches!(
                    connection.inquire_message_property(
                        hmsg,
                        "mqps.Ret",
                        MQIMPO_INQ_FIRST,
                        MQTYPE_AS_SET
                    ),
                    Ok((_, PropertyValue::Boolean(true)))
                );
                got.push(Delivered {
                    md,
                    data: buffer,
                    topic_string,
                    user_data,
                    retained,
                });
            }
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
            Err(error) => panic!("{error}"),
        }
    }
    connection.delete_message_handle(hmsg).unwrap();
    got
}

fn define_topic(queue_manager: &QueueManager, topic: TopicDefinition) {
    queue_manager
        .define_object(ObjectDefinition::Topic(topic), false)
        .unwrap();
}

#[test]
fn publications_reach_each_matching_subscription_as_mq_delivers_them() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&["APP.PROVIDED"]);
    define_topic(&queue_manager, TopicDefinition::new("SPORTS", "Sports"));
    let mut subscriber = connect(&queue_manager);
    // Managed, topic-based wildcard.
    let (_all_football, football_queue) = subscribe(
        &mut subscriber,
        MQSO_CREATE | MQSO_MANAGED,
        "Sports/Football/#",
    );
    // Provided destination, named through the TOPIC object, with user data and a correlid.
    let provided = open_queue(&mut subscriber, "APP.PROVIDED");
    let mut sd = Mqsd {
        options: MQSO_CREATE | MQSO_SET_CORREL_ID,
        object_name: "SPORTS".into(),
        object_string: "+/Results".into(),
        sub_user_data: "results desk".into(),
        sub_correl_id: [9; 24],
        ..Mqsd::default()
    };
    let mut provided_hobj = provided;
    subscriber.subscribe(&mut sd, &mut provided_hobj).unwrap();
    assert_eq!(sd.res_object_string, "Sports/+/Results");
    // Character-based wildcard, and a subscription nothing published matches.
    let (_char, char_queue) = subscribe(
        &mut subscriber,
        MQSO_CREATE | MQSO_MANAGED | MQSO_WILDCARD_CHAR,
        "Sports/*Results",
    );
    let (_tennis, tennis_queue) =
        subscribe(&mut subscriber, MQSO_CREATE | MQSO_MANAGED, "Sports/Tennis");

    let mut publishing = connect(&queue_manager);
    let hobj = publisher(&mut publishing, "Sports/Football/Results");
    let published = publish(&mut publishing, hobj, MQPMO_NO_SYNCPOINT, b"3-1");

    let football = drain(&mut subscriber, football_queue);
    assert_eq!(football.len(), 1);
    let copy = &football[0];
    assert_eq!(copy.data, b"3-1");
    assert_eq!(copy.topic_string, "Sports/Football/Results");
    assert_eq!(copy.user_data, None);
    assert_ne!(
        copy.md.msg_id, published.msg_id,
        "each copy has its own MsgId"
    );
    assert_eq!(
        copy.md.put_appl_name, published.put_appl_name,
        "the publisher's context"
    );
    let results = drain(&mut subscriber, provided);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].md.correl_id, [9; 24]);
    assert_eq!(results[0].user_data.as_deref(), Some("results desk"));
    assert_eq!(drain(&mut subscriber, char_queue).len(), 1);
    assert!(drain(&mut subscriber, tennis_queue).is_empty());
    // A managed subscription's CorrelId is the SubCorrelId MQSUB returned.
    let mut sd = Mqsd {
        options: MQSO_CREATE | MQSO_MANAGED,
        object_string: "Sports/Football/Results".into(),
        ..Mqsd::default()
    };
    let mut exact_queue = Hobj(0);
    subscriber.subscribe(&mut sd, &mut exact_queue).unwrap();
    publish(&mut publishing, hobj, MQPMO_NO_SYNCPOINT, b"2-2");
    let got = drain(&mut subscriber, exact_queue);
    assert_eq!(got[0].md.correl_id, sd.sub_correl_id);
    assert_eq!(drain(&mut subscriber, football_queue).len(), 1);
}

#[test]
fn selectors_choose_publications() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let mut subscriber = connect(&queue_manager);
    let mut sd = Mqsd {
        options: MQSO_CREATE | MQSO_MANAGED,
        object_string: "Paint".into(),
        selection_string: "Colour = 'Red'".into(),
        sub_user_data: "reds".into(),
        ..Mqsd::default()
    };
    let mut red_queue = Hobj(0);
    subscriber.subscribe(&mut sd, &mut red_queue).unwrap();
    let bad = Mqsd {
        options: MQSO_CREATE | MQSO_MANAGED,
        object_string: "Paint".into(),
        selection_string: "Colour = ".into(),
        ..Mqsd::default()
    };
    assert_eq!(
        reason(subscriber.subscribe(&mut bad.clone(), &mut Hobj(0))),
        MQRC_SELECTOR_SYNTAX_ERROR
    );
    let mut publishing = connect(&queue_manager);
    let hobj = publisher(&mut publishing, "Paint");
    for colour in ["Blue", "Red"] {
        let hmsg = publishing.create_message_handle(0).unwrap();
        publishing
            .set_message_property(hmsg, "Colour", PropertyValue::String(colour.into()))
            .unwrap();
        let mut pmo = Mqpmo::with_options(MQPMO_NO_SYNCPOINT);
        pmo.original_msg_handle = Some(hmsg);
        publishing
            .put(hobj, &mut Mqmd::default(), &mut pmo, colour.as_bytes())
            .unwrap();
    }
    let reds = drain(&mut subscriber, red_queue);
    assert_eq!(reds.len(), 1);
    assert_eq!(reds[0].data, b"Red");
    assert_eq!(reds[0].user_data.as_deref(), Some("reds"));
}

#[test]
fn publishing_is_all_or_nothing_in_and_out_of_syncpoint() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&["APP.ROOMY", "APP.FULL"]);
    let mut full = queue_manager.queue("APP.FULL").unwrap().definition();
    full.max_depth = 1;
    queue_manager.alter_queue(full).unwrap();
    let mut news = TopicDefinition::new("NEWS", "News");
    news.nonpersistent_delivery = Some(MessageDelivery::All);
    news.use_dead_letter_queue = Some(false);
    define_topic(&queue_manager, news);
    let mut subscriber = connect(&queue_manager);
    for queue in ["APP.ROOMY", "APP.FULL"] {
        let mut hobj = open_queue(&mut subscriber, queue);
        let mut sd = Mqsd {
            options: MQSO_CREATE,
            object_string: "News".into(),
            ..Mqsd::default()
        };
        subscriber.subscribe(&mut sd, &mut hobj).unwrap();
    }
    let mut publishing = connect(&queue_manager);
    let hobj = publisher(&mut publishing, "News");
    publish(&mut publishing, hobj, MQPMO_NO_SYNCPOINT, b"first");
    let depth = |name: &str| queue_manager.queue(name).unwrap().status().current_depth;
    assert_eq!((depth("APP.ROOMY"), depth("APP.FULL")), (1, 1));
    // APP.FULL is full: NPMSGDLV(ALL) fails the publish and APP.ROOMY gets nothing either.
    let mut md = Mqmd::default();
    let failed = publishing.put(
        hobj,
        &mut md,
        &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
        b"second",
    );
    assert_eq!(reason(failed), MQRC_Q_FULL);
    assert_eq!((depth("APP.ROOMY"), depth("APP.FULL")), (1, 1));
    // In syncpoint the unit of work is backed out: nothing it held is delivered.
    let queue_hobj = open_queue(&mut publishing, "APP.ROOMY");
    ferrite_test_kit::put(&mut publishing, queue_hobj, MQPMO_SYNCPOINT, b"mine");
    let failed = publishing.put(
        hobj,
        &mut Mqmd::default(),
        &mut Mqpmo::with_options(MQPMO_SYNCPOINT),
        b"third",
    );
    assert_eq!(reason(failed), MQRC_BACKED_OUT);
    publishing.commit().unwrap();
    assert_eq!((depth("APP.ROOMY"), depth("APP.FULL")), (1, 1));
    // With ALLAVAIL the full queue misses it and the other gets it.
    let mut news = TopicDefinition::new("NEWS", "News");
    news.nonpersistent_delivery = Some(MessageDelivery::AllAvailable);
    news.use_dead_letter_queue = Some(false);
    queue_manager
        .alter_object(ObjectDefinition::Topic(news))
        .unwrap();
    publish(&mut publishing, hobj, MQPMO_SYNCPOINT, b"fourth");
    publishing.commit().unwrap();
    assert_eq!((depth("APP.ROOMY"), depth("APP.FULL")), (2, 1));
    // With USEDLQ(YES) (inherited from SYSTEM.BASE.TOPIC) the copy that cannot be put goes
    // to the dead-letter queue behind an MQDLH, and even NPMSGDLV(ALL) is satisfied.
    let mut news = TopicDefinition::new("NEWS", "News");
    news.nonpersistent_delivery = Some(MessageDelivery::All);
    queue_manager
        .alter_object(ObjectDefinition::Topic(news))
        .unwrap();
    publish(&mut publishing, hobj, MQPMO_NO_SYNCPOINT, b"fifth");
    assert_eq!((depth("APP.ROOMY"), depth("APP.FULL")), (3, 1));
    let dead_letters = open_queue(&mut publishing, "SYSTEM.DEAD.LETTER.QUEUE");
    let mut md = Mqmd::default();
    let mut buffer = vec![0u8; 4096];
    let got = publishing
        .get(
            dead_letters,
            &mut md,
            &mut Mqgmo::with_options(MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT),
            &mut buffer,
        )
        .unwrap();
    assert_eq!(&md.format, b"MQDEAD  ");
    let reason_field = i32::from_le_bytes(buffer[8..12].try_into().unwrap());
    assert_eq!(reason_field, MQRC_Q_FULL, "the MQDLH's Reason");
    assert!(buffer[..got.returned_length].ends_with(b"fifth"));
    // PUB(DISABLED) refuses publishing.
    let mut news = TopicDefinition::new("NEWS", "News");
    news.publish_enabled = Some(false);
    queue_manager
        .alter_object(ObjectDefinition::Topic(news))
        .unwrap();
    let refused = publishing.put(
        hobj,
        &mut Mqmd::default(),
        &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
        b"x",
    );
    assert_eq!(reason(refused), MQRC_PUT_INHIBITED);
}

#[test]
fn subscriptions_are_checked_as_mq_checks_them() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let mut no_durables = TopicDefinition::new("PRIVATE", "Private");
    no_durables.durable_subscriptions = Some(false);
    no_durables.subscribe_enabled = Some(true);
    define_topic(&queue_manager, no_durables);
    let mut closed = TopicDefinition::new("CLOSED", "Closed");
    closed.subscribe_enabled = Some(false);
    define_topic(&queue_manager, closed);
    let mut connection = connect(&queue_manager);
    let mut attempt = |options: i32, name: &str, topic_string: &str| {
        let mut sd = Mqsd {
            options,
            sub_name: name.into(),
            object_string: topic_string.into(),
            ..Mqsd::default()
        };
        connection.subscribe(&mut sd, &mut Hobj(0)).map(|_| ())
    };
    let managed = MQSO_CREATE | MQSO_MANAGED;
    assert_eq!(
        reason(attempt(managed | MQSO_DURABLE, "", "a")),
        MQRC_SUB_NAME_ERROR
    );
    assert_eq!(reason(attempt(MQSO_MANAGED, "", "a")), MQRC_OPTIONS_ERROR);
    assert_eq!(
        reason(attempt(
            managed | MQSO_WILDCARD_CHAR | MQSO_WILDCARD_TOPIC,
            "",
            "a"
        )),
        MQRC_OPTIONS_ERROR
    );
    assert_eq!(
        reason(attempt(MQSO_RESUME | MQSO_DURABLE, "NONE", "a")),
        MQRC_NO_SUBSCRIPTION
    );
    assert_eq!(reason(attempt(managed, "", "Closed/x")), MQRC_SUB_INHIBITED);
    assert_eq!(
        reason(attempt(managed | MQSO_DURABLE, "D", "Private/x")),
        MQRC_DURABILITY_NOT_ALLOWED
    );
    attempt(managed | MQSO_DURABLE, "D1", "Open/x").unwrap();
    assert_eq!(
        reason(attempt(managed | MQSO_DURABLE, "D1", "Open/x")),
        MQRC_SUB_ALREADY_EXISTS
    );
    assert_eq!(
        reason(attempt(MQSO_RESUME | MQSO_DURABLE | MQSO_MANAGED, "D1", "")),
        MQRC_SUBSCRIPTION_IN_USE
    );
    assert_eq!(
        reason(attempt(MQSO_RESUME | MQSO_MANAGED, "D1", "")),
        MQRC_DURABILITY_NOT_ALTERABLE
    );
    // An unknown topic object; a provided destination that is no queue handle.
    let mut sd = Mqsd {
        options: MQSO_CREATE,
        object_name: "NOT.A.TOPIC".into(),
        ..Mqsd::default()
    };
    assert_eq!(
        reason(connection.subscribe(&mut sd, &mut Hobj(0))),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    let mut sd = Mqsd {
        options: MQSO_CREATE,
        object_string: "x".into(),
        ..Mqsd::default()
    };
    assert_eq!(
        reason(connection.subscribe(&mut sd, &mut Hobj(77))),
        MQRC_HOBJ_ERROR
    );
    // MQOPEN of a topic: output only, a known object.
    assert_eq!(
        reason(connection.open(&mut topic("x"), MQOO_INPUT_AS_Q_DEF)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    let mut named = Mqod {
        object_name: "NOT.A.TOPIC".into(),
        ..topic("")
    };
    assert_eq!(
        reason(connection.open(&mut named, MQOO_OUTPUT)),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    assert_eq!(
        reason(connection.open(&mut topic(""), MQOO_OUTPUT)),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    let long = "x".repeat(10_241);
    assert_eq!(
        reason(connection.open(&mut topic(&long), MQOO_OUTPUT)),
        MQRC_TOPIC_STRING_ERROR
    );
    // Nobody subscribes to "Nobody": MQPMO_WARN_IF_NO_SUBS_MATCHED warns.
    let hobj = publisher(&mut connection, "Nobody");
    let warning = connection
        .put(
            hobj,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_WARN_IF_NO_SUBS_MATCHED),
            b"x",
        )
        .unwrap();
    assert_eq!(warning.map(|w| w.reason), Some(MQRC_NO_SUBS_MATCHED));
    let mut md = Mqmd::default();
    let mut od = topic("Nobody");
    connection
        .put1(
            &mut od,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"put1",
        )
        .unwrap();
}

#[test]
fn non_durable_subscriptions_end_with_their_handle_or_connection() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let mut connection = connect(&queue_manager);
    let (hsub, hobj) = subscribe(&mut connection, MQSO_CREATE | MQSO_MANAGED, "Weather");
    assert_eq!(queue_manager.subscriptions().len(), 1);
    assert_eq!(
        reason(connection.close(hsub, MQCO_KEEP_SUB)),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    connection.close(hsub, MQCO_NONE).unwrap();
    assert!(queue_manager.subscriptions().is_empty());
    connection.close(hobj, MQCO_NONE).unwrap();
    // The managed queue was a temporary dynamic queue, gone with its handle.
    assert!(queue_manager
        .queues()
        .iter()
        .all(|queue| !queue.name().starts_with("SYSTEM.MANAGED.NDURABLE.")));
    subscribe(&mut connection, MQSO_CREATE | MQSO_MANAGED, "Weather");
    assert_eq!(queue_manager.subscriptions().len(), 1);
    drop(connection);
    assert!(
        queue_manager.subscriptions().is_empty(),
        "gone with the connection"
    );
    assert!(queue_manager
        .queues()
        .iter()
        .all(|queue| !queue.name().starts_with("SYSTEM.MANAGED.")));
}

#[test]
fn durable_subscriptions_collect_publications_while_away_and_survive_restart_and_crash() {
    let (directory, queue_manager) = queue_manager_with_defaults(&[]);
    let durable = MQSO_CREATE | MQSO_RESUME | MQSO_DURABLE | MQSO_MANAGED;
    let resume = |connection: &mut Connection| {
        let mut sd = Mqsd {
            options: durable,
            sub_name: "Weekly results".into(),
            object_string: "Results".into(),
            ..Mqsd::default()
        };
        let mut hobj = Hobj(0);
        let hsub = connection.subscribe(&mut sd, &mut hobj).unwrap();
        (hsub, hobj)
    };
    let mut subscriber = connect(&queue_manager);
    let (hsub, _hobj) = resume(&mut subscriber);
    subscriber.close(hsub, MQCO_KEEP_SUB).unwrap();
    drop(subscriber);
    let mut publishing = connect(&queue_manager);
    let hobj = publisher(&mut publishing, "Results");
    for (index, persistence) in [MQPER_PERSISTENT, MQPER_NOT_PERSISTENT, MQPER_PERSISTENT]
        .into_iter()
        .enumerate()
    {
        publish_with(
            &mut publishing,
            hobj,
            persistence,
            MQPMO_SYNCPOINT,
            format!("while away {index}").as_bytes(),
        );
    }
    publishing.commit().unwrap();
    drop(publishing);
    queue_manager.shutdown().unwrap();
    drop(queue_manager);

    // After a restart the subscription is there; persistent publications were kept.
    let queue_manager = ferrite_test_kit::open(directory.path());
    assert_eq!(queue_manager.subscriptions().len(), 1);
    let mut subscriber = connect(&queue_manager);
    let (hsub, queue) = resume(&mut subscriber);
    let got = drain(&mut subscriber, queue);
    let texts: Vec<&[u8]> = got.iter().map(|copy| copy.data.as_slice()).collect();
    assert_eq!(texts, vec![&b"while away 0"[..], &b"while away 2"[..]]);
    subscriber.close(hsub, MQCO_NONE).unwrap();
    let mut publishing = connect(&queue_manager);
    let hobj = publisher(&mut publishing, "Results");
    publish_with(
        &mut publishing,
        hobj,
        MQPER_PERSISTENT,
        MQPMO_NO_SYNCPOINT,
        b"before the crash",
    );
    drop(publishing);
    drop(subscriber);
    // A crash: no shutdown.
    drop(queue_manager);
    let queue_manager = ferrite_test_kit::open(directory.path());
    let mut subscriber = connect(&queue_manager);
    let (hsub, queue) = resume(&mut subscriber);
    let got = drain(&mut subscriber, queue);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].data, b"before the crash");
    // MQCO_REMOVE_SUB ends it and deletes its managed queue.
    subscriber.close(queue, MQCO_NONE).unwrap();
    subscriber.close(hsub, MQCO_REMOVE_SUB).unwrap();
    assert!(queue_manager.subscriptions().is_empty());
    assert!(queue_manager
        .queues()
        .iter()
        .all(|queue| !queue.name().starts_with("SYSTEM.MANAGED.")));
}

#[test]
fn retained_publications_reach_late_subscribers_and_survive_restart() {
    let (directory, queue_manager) = queue_manager_with_defaults(&[]);
    let mut publishing = connect(&queue_manager);
    let score = publisher(&mut publishing, "Match/Score");
    publish(
        &mut publishing,
        score,
        MQPMO_NO_SYNCPOINT | MQPMO_RETAIN,
        b"1-0",
    );
    publish(
        &mut publishing,
        score,
        MQPMO_SYNCPOINT | MQPMO_RETAIN,
        b"2-0",
    );
    publishing.commit().unwrap();
    let retained = queue_manager.queue("SYSTEM.RETAINED.PUB.QUEUE").unwrap();
    assert_eq!(retained.status().current_depth, 1, "one per topic string");
    // A late subscriber gets the last one, marked MQIsRetained; a wildcard one too.
    let mut subscriber = connect(&queue_manager);
    let (hsub, queue) = subscribe(&mut subscriber, MQSO_CREATE | MQSO_MANAGED, "Match/Score");
    let got = drain(&mut subscriber, queue);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].data, b"2-0");
    assert!(got[0].retained);
    let (_all, all_queue) = subscribe(&mut subscriber, MQSO_CREATE | MQSO_MANAGED, "Match/#");
    assert_eq!(drain(&mut subscriber, all_queue).len(), 1);
    let (_new, new_queue) = subscribe(
        &mut subscriber,
        MQSO_CREATE | MQSO_MANAGED | MQSO_NEW_PUBLICATIONS_ONLY,
        "Match/Score",
    );
    assert!(drain(&mut subscriber, new_queue).is_empty());
    // Live publications are not marked retained.
    publish(&mut publishing, score, MQPMO_NO_SYNCPOINT, b"live");
    let live = drain(&mut subscriber, new_queue);
    assert!(!live[0].retained);
    assert_eq!(drain(&mut subscriber, queue)[0].data, b"live");
    // MQSUBRQ sends the retained one again; none for a topic without one.
    assert_eq!(
        subscriber
            .subscription_request(hsub, MQSR_ACTION_PUBLICATION)
            .unwrap(),
        1
    );
    assert_eq!(drain(&mut subscriber, queue)[0].data, b"2-0");
    // MQSO_PUBLICATIONS_ON_REQUEST: nothing as it is published, the retained one on request.
    let (on_request, on_request_queue) = subscribe(
        &mut subscriber,
        MQSO_CREATE | MQSO_MANAGED | MQSO_PUBLICATIONS_ON_REQUEST,
        "Match/Score",
    );
    publish(&mut publishing, score, MQPMO_NO_SYNCPOINT, b"live again");
    assert!(drain(&mut subscriber, on_request_queue).is_empty());
    subscriber
        .subscription_request(on_request, MQSR_ACTION_PUBLICATION)
        .unwrap();
    let requested = drain(&mut subscriber, on_request_queue);
    assert_eq!(requested.len(), 1);
    assert_eq!(requested[0].data, b"2-0");
    assert!(requested[0].retained);
    let (other, _) = subscribe(&mut subscriber, MQSO_CREATE | MQSO_MANAGED, "Match/Fouls");
    assert_eq!(
        reason(subscriber.subscription_request(other, MQSR_ACTION_PUBLICATION)),
        MQRC_NO_RETAINED_MSG
    );
    assert_eq!(
        reason(subscriber.subscription_request(other, 99)),
        MQRC_ACTION_ERROR
    );
    // A persistent retained publication survives a restart.
    publish_with(
        &mut publishing,
        score,
        MQPER_PERSISTENT,
        MQPMO_NO_SYNCPOINT | MQPMO_RETAIN,
        b"final 3-0",
    );
    drop(publishing);
    drop(subscriber);
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = ferrite_test_kit::open(directory.path());
    let mut subscriber = connect(&queue_manager);
    let (_late, late_queue) = subscribe(&mut subscriber, MQSO_CREATE | MQSO_MANAGED, "Match/+");
    let got = drain(&mut subscriber, late_queue);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].data, b"final 3-0");
}

#[test]
fn durable_subscribers_get_each_committed_publication_once_after_a_stop_with_a_unit_in_flight() {
    let (directory, queue_manager) = queue_manager_with_defaults(&[]);
    let names = ["Audit", "Billing", "Archive"];
    let mut subscriber = connect(&queue_manager);
    for name in names {
        let mut sd = Mqsd {
            options: MQSO_CREATE | MQSO_DURABLE | MQSO_MANAGED,
            sub_name: name.into(),
            object_string: if name == "Archive" {
                "Orders/#"
            } else {
                "Orders/New"
            }
            .into(),
            ..Mqsd::default()
        };
        let mut hobj = Hobj(0);
        let hsub = subscriber.subscribe(&mut sd, &mut hobj).unwrap();
        subscriber.close(hsub, MQCO_KEEP_SUB).unwrap();
    }
    drop(subscriber);
    // Committed units of several publications each, then one left in flight by the stop.
    let mut publishing = connect(&queue_manager);
    let hobj = publisher(&mut publishing, "Orders/New");
    let mut committed = Vec::new();
    for unit in 0..5 {
        for index in 0..4 {
            let text = format!("order {unit}.{index}");
            publish_with(
                &mut publishing,
                hobj,
                MQPER_PERSISTENT,
                MQPMO_SYNCPOINT,
                text.as_bytes(),
            );
            committed.push(text);
        }
        publishing.commit().unwrap();
    }
    for index in 0..3 {
        publish_with(
            &mut publishing,
            hobj,
            MQPER_PERSISTENT,
            MQPMO_SYNCPOINT,
            format!("in flight {index}").as_bytes(),
        );
    }
    // The queue manager stops under the publisher, its unit of work in flight (the
    // connection ends after the stop, so nothing backs the unit out but restart).
    queue_manager.shutdown().unwrap();
    drop(publishing);
    drop(queue_manager);
    let queue_manager = ferrite_test_kit::open(directory.path());
    let mut subscriber = connect(&queue_manager);
    for name in names {
        let mut sd = Mqsd {
            options: MQSO_RESUME | MQSO_DURABLE | MQSO_MANAGED,
            sub_name: name.into(),
            ..Mqsd::default()
        };
        let mut queue = Hobj(0);
        subscriber.subscribe(&mut sd, &mut queue).unwrap();
        let got: Vec<String> = drain(&mut subscriber, queue)
            .into_iter()
            .map(|copy| String::from_utf8(copy.data).unwrap())
            .collect();
        assert_eq!(
            got, committed,
            "{name}: every committed publication once, in order"
        );
    }
}

/// MQSUB of the subscription `name` to `topic_string` with `options` (managed), shared or
/// not: the result, and the managed queue's handle.
fn subscribe_named(
    connection: &mut Connection,
    options: i32,
    name: &str,
    topic_string: &str,
    shared: bool,
) -> (Result<Hobj, ferrite_mqi::MqError>, Hobj) {
    let mut sd = Mqsd {
        options,
        sub_name: name.into(),
        object_string: topic_string.into(),
        ..Mqsd::default()
    };
    let mut hobj = Hobj(0);
    let hsub = match shared {
        true => connection.subscribe_shared(&mut sd, &mut hobj),
        false => connection.subscribe(&mut sd, &mut hobj),
    };
    (hsub, hobj)
}

/// The data of the next message on `hobj` (its properties in a message handle, so not in
/// the data), or None when there is none.
fn get_one(connection: &mut Connection, hobj: Hobj) -> Option<Vec<u8>> {
    let hmsg = connection.create_message_handle(0).unwrap();
    let mut md = Mqmd::default();
    let mut gmo = Mqgmo::with_options(MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT);
    gmo.msg_handle = Some(hmsg);
    let mut buffer = vec![0u8; 4096];
    let got = match connection.get(hobj, &mut md, &mut gmo, &mut buffer) {
        Ok(result) => {
            buffer.truncate(result.returned_length);
            Some(buffer)
        }
        Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => None,
        Err(error) => panic!("{error}"),
    };
    connection.delete_message_handle(hmsg).unwrap();
    got
}

/// Get from the shared queue through each handle in turn until nothing is left: the texts
/// each got.
fn take_turns(subscribers: &mut [(&mut Connection, Hobj)]) -> Vec<Vec<String>> {
    let mut got = vec![Vec::new(); subscribers.len()];
    let mut empty_in_a_row = 0;
    let mut turn = 0;
    while empty_in_a_row < subscribers.len() {
        let (connection, hobj) = &mut subscribers[turn];
        match get_one(connection, *hobj) {
            Some(data) => {
                got[turn].push(String::from_utf8(data).unwrap());
                empty_in_a_row = 0;
            }
            None => empty_in_a_row += 1,
        }
        turn = (turn + 1) % subscribers.len();
    }
    got
}

fn managed_queues(queue_manager: &QueueManager) -> Vec<String> {
    queue_manager
        .queues()
        .iter()
        .map(|queue| queue.name())
        .filter(|name| name.starts_with("SYSTEM.MANAGED."))
        .collect()
}

#[test]
fn shared_handles_take_turns_at_one_subscription_and_others_are_refused() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let options = MQSO_CREATE | MQSO_RESUME | MQSO_MANAGED;
    let mut first = connect(&queue_manager);
    let mut second = connect(&queue_manager);
    let (hsub_first, queue_first) = subscribe_named(&mut first, options, "Workers", "Jobs", true);
    let hsub_first = hsub_first.unwrap();
    let (hsub_second, queue_second) =
        subscribe_named(&mut second, options, "Workers", "Jobs", true);
    let hsub_second = hsub_second.unwrap();
    assert_eq!(queue_manager.subscriptions().len(), 1, "one subscription");
    // An unshared handle is refused while shared ones have it open.
    let mut third = connect(&queue_manager);
    let (refused, _) = subscribe_named(&mut third, options, "Workers", "Jobs", false);
    assert_eq!(reason(refused), MQRC_SUBSCRIPTION_IN_USE);

    let mut publishing = connect(&queue_manager);
    let hobj = publisher(&mut publishing, "Jobs");
    for index in 0..6 {
        publish(
            &mut publishing,
            hobj,
            MQPMO_NO_SYNCPOINT,
            format!("job{index}").as_bytes(),
        );
    }
    let got = take_turns(&mut [(&mut first, queue_first), (&mut second, queue_second)]);
    let mut all: Vec<String> = got.concat();
    all.sort();
    assert_eq!(
        all,
        (0..6).map(|i| format!("job{i}")).collect::<Vec<_>>(),
        "each once"
    );
    assert!(
        got.iter().all(|each| !each.is_empty()),
        "both took some: {got:?}"
    );

    // The first handle (whose MQSUB made the managed queue) closes: the subscription and its
    // queue live on for the second.
    first.close(hsub_first, MQCO_NONE).unwrap();
    first.close(queue_first, MQCO_NONE).unwrap();
    drop(first);
    assert_eq!(
        queue_manager.subscriptions().len(),
        1,
        "still open by the second"
    );
    publish(&mut publishing, hobj, MQPMO_NO_SYNCPOINT, b"job6");
    let got = take_turns(&mut [(&mut second, queue_second)]);
    assert_eq!(got, vec![vec!["job6".to_string()]]);
    second.close(hsub_second, MQCO_NONE).unwrap();
    assert!(
        queue_manager.subscriptions().is_empty(),
        "ended with the last handle"
    );
    assert!(
        managed_queues(&queue_manager).is_empty(),
        "and its managed queue"
    );

    // Now an unshared handle has it, and a shared one is refused.
    let (unshared, _) = subscribe_named(&mut third, options, "Workers", "Jobs", false);
    unshared.unwrap();
    let (refused, _) = subscribe_named(&mut second, options, "Workers", "Jobs", true);
    assert_eq!(reason(refused), MQRC_SUBSCRIPTION_IN_USE);
    drop(third);
    assert!(
        queue_manager.subscriptions().is_empty(),
        "gone with the connection"
    );
}

#[test]
fn a_shared_durable_subscription_is_removed_only_when_no_other_handle_has_it() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let options = MQSO_CREATE | MQSO_RESUME | MQSO_DURABLE | MQSO_MANAGED;
    let mut first = connect(&queue_manager);
    let mut second = connect(&queue_manager);
    let (hsub_first, _) = subscribe_named(&mut first, options, "Audit", "Ledger", true);
    let hsub_first = hsub_first.unwrap();
    let (shared, _) = subscribe_named(&mut second, options, "Audit", "Ledger", true);
    shared.unwrap();
    assert_eq!(
        reason(first.close(hsub_first, MQCO_REMOVE_SUB)),
        MQRC_SUBSCRIPTION_IN_USE,
        "another handle has it open"
    );
    // Connections ending keep a durable subscription.
    drop(second);
    assert_eq!(queue_manager.subscriptions().len(), 1);
    first.close(hsub_first, MQCO_REMOVE_SUB).unwrap();
    assert!(queue_manager.subscriptions().is_empty());
    assert!(managed_queues(&queue_manager).is_empty());
}

#[test]
fn an_alias_queue_whose_target_is_a_topic_publishes_on_it() {
    use ferrite_queue_manager::{AliasDefinition, AliasTargetType};
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    define_topic(&queue_manager, TopicDefinition::new("PRICES", "Prices"));
    let alias = |name: &str, target: &str| AliasDefinition {
        target_type: AliasTargetType::Topic,
        default_priority: 6,
        ..AliasDefinition::new(name, target)
    };
    for definition in [
        alias("PRICES.ALIAS", "PRICES"),
        alias("NOWHERE.ALIAS", "NO.SUCH.TOPIC"),
        AliasDefinition {
            put_inhibited: true,
            ..alias("CLOSED.ALIAS", "PRICES")
        },
    ] {
        queue_manager
            .define_object(ObjectDefinition::Alias(definition), false)
            .unwrap();
    }
    let mut subscriber = connect(&queue_manager);
    let (_hsub, queue) = subscribe(&mut subscriber, MQSO_CREATE | MQSO_MANAGED, "Prices");

    let mut publishing = connect(&queue_manager);
    let hobj = publishing
        .open(&mut Mqod::queue("PRICES.ALIAS"), MQOO_OUTPUT)
        .unwrap();
    publish(&mut publishing, hobj, MQPMO_NO_SYNCPOINT, b"apples 3");
    publishing
        .put1(
            &mut Mqod::queue("PRICES.ALIAS"),
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"pears 4",
        )
        .unwrap();
    let got = drain(&mut subscriber, queue);
    let texts: Vec<&[u8]> = got.iter().map(|copy| copy.data.as_slice()).collect();
    assert_eq!(
        texts,
        vec![&b"apples 3"[..], &b"pears 4"[..]],
        "both published"
    );
    for copy in &got {
        assert_eq!(
            copy.topic_string, "Prices",
            "the TOPIC object's topic string"
        );
        assert_eq!(copy.md.priority, 6, "the alias's DEFPRTY");
    }

    let refused = |connection: &mut Connection, name: &str, options: i32| {
        reason(connection.open(&mut Mqod::queue(name), options))
    };
    assert_eq!(
        refused(&mut publishing, "PRICES.ALIAS", MQOO_INPUT_AS_Q_DEF),
        MQRC_OPTION_NOT_VALID_FOR_TYPE
    );
    assert_eq!(
        refused(&mut publishing, "NOWHERE.ALIAS", MQOO_OUTPUT),
        MQRC_UNKNOWN_ALIAS_BASE_Q
    );
    let closed = publishing
        .open(&mut Mqod::queue("CLOSED.ALIAS"), MQOO_OUTPUT)
        .unwrap();
    let mut md = Mqmd::default();
    let put = publishing.put(
        closed,
        &mut md,
        &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
        b"not published",
    );
    assert_eq!(reason(put), MQRC_PUT_INHIBITED);
    assert!(drain(&mut subscriber, queue).is_empty());
}

#[test]
fn an_expired_subscription_gets_no_publications_and_mqsub_removes_it() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let options = MQSO_CREATE | MQSO_RESUME | MQSO_DURABLE | MQSO_MANAGED;
    let mut subscriber = connect(&queue_manager);
    let (hsub, _) = subscribe_named(&mut subscriber, options, "Nightly", "Batch", false);
    subscriber.close(hsub.unwrap(), MQCO_KEEP_SUB).unwrap();
    let mut expiring = queue_manager.subscription("Nightly").unwrap();
    expiring.set_expiry(0, ferrite_queue_manager::now_ms());
    queue_manager.define_subscription(expiring, true).unwrap();
    let mut publishing = connect(&queue_manager);
    let hobj = publisher(&mut publishing, "Batch");
    let mut md = Mqmd::default();
    let warning = publishing
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_WARN_IF_NO_SUBS_MATCHED),
            b"run 1",
        )
        .unwrap();
    assert_eq!(
        warning.map(|warning| warning.reason),
        Some(MQRC_NO_SUBS_MATCHED),
        "the expired subscription is no subscriber"
    );
    let (resumed, _) = subscribe_named(
        &mut subscriber,
        MQSO_RESUME | MQSO_DURABLE | MQSO_MANAGED,
        "Nightly",
        "Batch",
        false,
    );
    assert_eq!(reason(resumed), MQRC_NO_SUBSCRIPTION, "removed by MQSUB");
    assert!(queue_manager.subscriptions().is_empty());
    assert!(
        managed_queues(&queue_manager).is_empty(),
        "with its managed queue"
    );
}

#[test]
fn the_timer_removes_an_expired_durable_subscription_and_its_managed_queue() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let options = MQSO_CREATE | MQSO_DURABLE | MQSO_MANAGED;
    let mut subscriber = connect(&queue_manager);
    let (hsub, queue) = subscribe_named(&mut subscriber, options, "Hourly", "Batch", false);
    let hsub = hsub.unwrap();
    let mut expiring = queue_manager.subscription("Hourly").unwrap();
    expiring.set_expiry(0, ferrite_queue_manager::now_ms());
    queue_manager.define_subscription(expiring, true).unwrap();
    assert_eq!(managed_queues(&queue_manager).len(), 1);
    // Open: kept until no handle has it.
    let now = ferrite_queue_manager::now_ms();
    assert!(queue_manager
        .remove_expired_subscriptions(now)
        .unwrap()
        .is_empty());
    subscriber.close(queue, 0).unwrap();
    subscriber.close(hsub, MQCO_KEEP_SUB).unwrap();
    // The subscription, then its managed queue.
    let removed = ferrite_test_kit::wait_until(std::time::Duration::from_secs(30), || {
        queue_manager.subscription("Hourly").is_none() && managed_queues(&queue_manager).is_empty()
    });
    assert!(removed, "removed once closed, with its managed queue");
}

#[test]
fn sublevel_lets_an_interceptor_take_publications_from_the_subscribers_below_it() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let mut connection = connect(&queue_manager);
    let subscribe_at = |connection: &mut Connection, name: &str, level: i32, options: i32| {
        let mut sd = Mqsd {
            options: MQSO_CREATE | MQSO_MANAGED | MQSO_DURABLE | options,
            sub_name: name.into(),
            object_string: "Prices/Fruit".into(),
            sub_level: level,
            ..Mqsd::default()
        };
        let mut hobj = Hobj(0);
        connection
            .subscribe(&mut sd, &mut hobj)
            .map(|hsub| (hsub, hobj))
    };
    let (_, final_queue) = subscribe_at(&mut connection, "Final", 1, 0).unwrap();
    let hobj = publisher(&mut connection, "Prices/Fruit");
    publish(&mut connection, hobj, MQPMO_NO_SYNCPOINT, b"apples");
    assert_eq!(drain(&mut connection, final_queue).len(), 1);

    // An interceptor at SUBLEVEL 5: publications at PubLevel 9 reach it, not the level 1 one.
    let (interceptor, intercept_queue) =
        subscribe_at(&mut connection, "Interceptor", 5, MQSO_SCOPE_QMGR).unwrap();
    publish(&mut connection, hobj, MQPMO_NO_SYNCPOINT, b"pears");
    let intercepted = drain(&mut connection, intercept_queue);
    assert_eq!(intercepted.len(), 1);
    assert_eq!(intercepted[0].data, b"pears");
    assert!(
        drain(&mut connection, final_queue).is_empty(),
        "intercepted"
    );
    let stored = queue_manager.subscription("Interceptor").unwrap();
    assert_eq!((stored.level, stored.scope_queue_manager), (5, true));

    // MQ's checks of SubLevel; MQSO_RESUME returns it, MQSO_ALTER may not change it.
    assert_eq!(
        reason(subscribe_at(&mut connection, "Bad", 10, 0).map(|(hsub, _)| hsub)),
        MQRC_SD_ERROR
    );
    assert_eq!(
        reason(
            subscribe_at(&mut connection, "Bad", 2, MQSO_PUBLICATIONS_ON_REQUEST)
                .map(|(hsub, _)| hsub)
        ),
        MQRC_OPTIONS_ERROR
    );
    connection.close(interceptor, MQCO_KEEP_SUB).unwrap();
    let mut sd = Mqsd {
        options: MQSO_RESUME | MQSO_MANAGED | MQSO_DURABLE,
        sub_name: "Interceptor".into(),
        sub_level: 1,
        ..Mqsd::default()
    };
    let mut hobj_resumed = Hobj(0);
    let resumed = connection.subscribe(&mut sd, &mut hobj_resumed).unwrap();
    assert_eq!(sd.sub_level, 5, "MQSO_RESUME returns SubLevel");
    connection.close(resumed, MQCO_KEEP_SUB).unwrap();
    let mut sd = Mqsd {
        options: MQSO_ALTER | MQSO_MANAGED | MQSO_DURABLE,
        sub_name: "Interceptor".into(),
        sub_level: 1,
        ..Mqsd::default()
    };
    let altered = connection.subscribe(&mut sd, &mut Hobj(0));
    assert_eq!(reason(altered), MQRC_SUBLEVEL_NOT_ALTERABLE);
}

#[test]
fn publish_subscribe_calls_are_counted_in_the_mqi_statistics() {
    use ferrite_queue_manager::statistics::MqiCounter;
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let before = queue_manager.statistics_snapshot().message_manager;
    let mut connection = connect(&queue_manager);
    let durable = MQSO_CREATE | MQSO_DURABLE | MQSO_MANAGED;
    let (hsub, _) = subscribe_named(&mut connection, durable, "Counted", "Stats", false);
    let (first, _) = subscribe(&mut connection, MQSO_CREATE | MQSO_MANAGED, "Stats");
    let (second, _) = subscribe(&mut connection, MQSO_CREATE | MQSO_MANAGED, "Stats");
    let refused = subscribe_named(&mut connection, MQSO_RESUME, "Nobody", "Stats", false);
    assert_eq!(reason(refused.0), MQRC_NO_SUBSCRIPTION);
    let hobj = publisher(&mut connection, "Stats");
    publish_with(
        &mut connection,
        hobj,
        MQPER_PERSISTENT,
        MQPMO_NO_SYNCPOINT,
        b"one",
    );
    publish_with(
        &mut connection,
        hobj,
        MQPER_NOT_PERSISTENT,
        MQPMO_NO_SYNCPOINT,
        b"two",
    );
    connection.close(first, 0).unwrap();
    connection.close(second, 0).unwrap();
    connection.close(hsub.unwrap(), MQCO_REMOVE_SUB).unwrap();
    let counted = queue_manager
        .statistics_snapshot()
        .message_manager
        .since(&before);
    for (counter, count) in [
        (MqiCounter::SubscribeDurableCreate, 1),
        (MqiCounter::SubscribeNonDurableCreate, 2),
        (MqiCounter::SubscribeFailed, 1),
        (MqiCounter::PersistentTopicPuts, 1),
        (MqiCounter::NonPersistentTopicPuts, 1),
        (MqiCounter::TopicPutFailed, 0),
        // Three subscribers each: the persistent publication to the two non-durable
        // subscriptions' temporary queues is counted as the publication's persistence.
        (MqiCounter::PersistentPublished, 3),
        (MqiCounter::NonPersistentPublished, 3),
        (MqiCounter::UnsubscribeDurable, 1),
        (MqiCounter::UnsubscribeNonDurable, 2),
    ] {
        assert_eq!(counted.get(counter), count, "{counter:?}");
    }
}
