//! TOPIC objects through MQSC: MQ's supplied SYSTEM.BASE.TOPIC and SYSTEM.DEFAULT.TOPIC,
//! DEFINE/ALTER/DELETE/DISPLAY TOPIC with MQ's checks, inheritance through the tree, and
//! recovery at restart and after a crash.

mod support;

use std::sync::Arc;

use ferrite_command::define_default_objects;
use ferrite_queue_manager::objects::topic::MessageDelivery;
use ferrite_queue_manager::QueueManager;
use support::{mqsc_fails as fails, mqsc_ok as ok, reopen};

#[test]
fn supplied_topics_and_their_defaults() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    define_default_objects(&queue_manager).unwrap();
    let base = ok(&queue_manager, "DISPLAY TOPIC(SYSTEM.BASE.TOPIC) ALL");
    for expected in [
        "AMQ8633I",
        "TOPICSTR( )",
        "DURSUB(YES)",
        "DEFPSIST(NO)",
        "DEFPRTY(0)",
        "PUB(ENABLED)",
        "SUB(ENABLED)",
        "WILDCARD(PASSTHRU)",
        "MDURMDL(SYSTEM.DURABLE.MODEL.QUEUE)",
        "MNDURMDL(SYSTEM.NDURABLE.MODEL.QUEUE)",
        "PMSGDLV(ALLDUR)",
        "NPMSGDLV(ALLAVAIL)",
        "USEDLQ(YES)",
    ] {
        assert!(base.contains(expected), "{expected} in\n{base}");
    }
    let default = ok(
        &queue_manager,
        "DISPLAY TOPIC(SYSTEM.DEFAULT.TOPIC) DURSUB PUB",
    );
    assert!(default.contains("DURSUB(ASPARENT)") && default.contains("PUB(ASPARENT)"));
    // The root may not inherit from anything.
    let refused = fails(
        &queue_manager,
        "ALTER TOPIC(SYSTEM.BASE.TOPIC) DURSUB(ASPARENT)",
    );
    assert!(refused.contains("root"), "{refused}");
    // The managed subscriptions' model queues exist.
    ok(
        &queue_manager,
        "DISPLAY QMODEL(SYSTEM.DURABLE.MODEL.QUEUE) DEFTYPE",
    );
    ok(
        &queue_manager,
        "DISPLAY QMODEL(SYSTEM.NDURABLE.MODEL.QUEUE) DEFTYPE",
    );
}

#[test]
fn define_alter_delete_and_display_check_what_mq_checks() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    define_default_objects(&queue_manager).unwrap();
    // The V7.0 report's own definitions.
    ok(
        &queue_manager,
        "DEF TOPIC(RAINBOW) TOPICSTR('/RAINBOW1') DURSUB(YES) REPLACE",
    );
    ok(
        &queue_manager,
        "DEF TOPIC(ATOPIC) TOPICSTR('/ATOPIC') DURSUB(YES)",
    );
    let missing = fails(&queue_manager, "DEFINE TOPIC(NOSTRING) DURSUB(NO)");
    assert!(missing.contains("CSQ9010E"), "{missing}");
    let taken = fails(&queue_manager, "DEFINE TOPIC(SAME) TOPICSTR('/ATOPIC')");
    assert!(
        taken.contains("already the topic string of TOPIC(ATOPIC)"),
        "{taken}"
    );
    let wildcard = fails(&queue_manager, "DEFINE TOPIC(WILD) TOPICSTR('a/#')");
    assert!(wildcard.contains("wildcard"), "{wildcard}");
    fails(
        &queue_manager,
        "DEFINE TOPIC(BAD) TOPICSTR('x') DEFPRTY(10)",
    );
    fails(
        &queue_manager,
        "DEFINE TOPIC(BAD) TOPICSTR('x') PMSGDLV(SOME)",
    );
    fails(&queue_manager, "DEFINE TOPIC(ATOPIC) TOPICSTR('/OTHER')");
    // ALTER keeps the node where it is.
    fails(&queue_manager, "ALTER TOPIC(ATOPIC) TOPICSTR('/MOVED')");
    ok(
        &queue_manager,
        "ALTER TOPIC(ATOPIC) DEFPRTY(7) PUB(DISABLED) WILDCARD(BLOCK) NPMSGDLV(ALL)",
    );
    let shown = ok(&queue_manager, "DISPLAY TOPIC(ATOPIC) ALL");
    for expected in [
        "TOPICSTR(/ATOPIC)",
        "DEFPRTY(7)",
        "PUB(DISABLED)",
        "SUB(ASPARENT)",
        "WILDCARD(BLOCK)",
        "NPMSGDLV(ALL)",
        "PMSGDLV(ASPARENT)",
        "TYPE(LOCAL)",
        "ALTDATE(",
    ] {
        assert!(shown.contains(expected), "{expected} in\n{shown}");
    }
    let filtered = ok(&queue_manager, "DISPLAY TOPIC(*) WHERE(PUB EQ DISABLED)");
    assert!(filtered.contains("TOPIC(ATOPIC)") && !filtered.contains("RAINBOW"));
    let local = ok(&queue_manager, "DISPLAY TOPIC(*) TYPE(LOCAL)");
    assert!(local.contains("TOPIC(RAINBOW)"), "{local}");
    let cluster = ok(&queue_manager, "DISPLAY TOPIC(*) TYPE(CLUSTER)");
    assert!(!cluster.contains("TOPIC(RAINBOW)"), "{cluster}");
    ok(
        &queue_manager,
        "DEFINE TOPIC(COPY) LIKE(ATOPIC) TOPICSTR('/COPY')",
    );
    assert!(ok(&queue_manager, "DISPLAY TOPIC(COPY) DEFPRTY").contains("DEFPRTY(7)"));
    ok(&queue_manager, "DELETE TOPIC(COPY)");
    fails(&queue_manager, "DISPLAY TOPIC(COPY)");
    // A node whose object is gone can be administered again.
    ok(&queue_manager, "DEFINE TOPIC(COPY2) TOPICSTR('/COPY')");
}

#[test]
fn inheritance_follows_the_tree_and_survives_restart_and_crash() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    define_default_objects(&queue_manager).unwrap();
    for command in [
        "DEFINE TOPIC(SPORTS) TOPICSTR('Sports') DEFPSIST(YES) DURSUB(NO)",
        "DEFINE TOPIC(FOOTBALL) TOPICSTR('Sports/Football') DURSUB(YES) PMSGDLV(ALL)",
        "ALTER TOPIC(SYSTEM.BASE.TOPIC) DEFPRTY(3)",
    ] {
        ok(&queue_manager, command);
    }
    let check = |queue_manager: &Arc<QueueManager>| {
        let tree = queue_manager.topic_tree();
        let results = tree.attributes("Sports/Football/Results");
        assert_eq!(results.admin_topic, "FOOTBALL");
        assert!(results.default_persistent && results.durable_subscriptions);
        assert_eq!(results.default_priority, 3);
        assert_eq!(results.persistent_delivery, MessageDelivery::All);
        let tennis = tree.attributes("Sports/Tennis");
        assert!(!tennis.durable_subscriptions);
        assert_eq!(tennis.persistent_delivery, MessageDelivery::AllDurable);
    };
    check(&queue_manager);
    let before = ok(&queue_manager, "DISPLAY TOPIC(*) ALL");
    queue_manager.shutdown().unwrap();
    drop(queue_manager);

    let queue_manager = reopen(directory.path());
    check(&queue_manager);
    assert_eq!(ok(&queue_manager, "DISPLAY TOPIC(*) ALL"), before);
    // An acknowledged change survives a crash (no shutdown).
    ok(&queue_manager, "ALTER TOPIC(SPORTS) DURSUB(YES)");
    let before_crash = ok(&queue_manager, "DISPLAY TOPIC(*) ALL");
    drop(queue_manager);
    let queue_manager = reopen(directory.path());
    assert_eq!(ok(&queue_manager, "DISPLAY TOPIC(*) ALL"), before_crash);
    assert!(
        queue_manager
            .topic_tree()
            .attributes("Sports/Tennis")
            .durable_subscriptions
    );
}

/// Publish `data` on `topic_string` through the MQI, outside syncpoint, with put options
/// `options` besides.
fn publish(queue_manager: &Arc<QueueManager>, topic_string: &str, options: i32, data: &[u8]) {
    use ferrite_constants::{object_type::MQOT_TOPIC, open_options::MQOO_OUTPUT};
    let mut connection = ferrite_test_kit::connect(queue_manager);
    let mut od = ferrite_mqi::Mqod {
        object_type: MQOT_TOPIC,
        object_string: topic_string.to_string(),
        ..ferrite_mqi::Mqod::default()
    };
    let hobj = connection.open(&mut od, MQOO_OUTPUT).unwrap();
    ferrite_test_kit::put(
        &mut connection,
        hobj,
        ferrite_constants::put_options::MQPMO_NO_SYNCPOINT | options,
        data,
    );
}

#[test]
fn administrative_subscriptions_and_publish_subscribe_status() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.SCORES"]);
    define_default_objects(&queue_manager).unwrap();
    ok(&queue_manager, "DEFINE TOPIC(SPORTS) TOPICSTR('Sports')");
    let define = "DEFINE SUB('Scores desk') TOPICOBJ(SPORTS) TOPICSTR('+/Results') DEST(APP.SCORES) USERDATA('desk') PUBPRTY(7)";
    ok(&queue_manager, define);
    let again = fails(&queue_manager, define);
    assert!(
        again.contains(&format!(
            "{:08X}",
            ferrite_constants::reason::MQRC_SUB_ALREADY_EXISTS
        )),
        "{again}"
    );
    ok(&queue_manager, &format!("{define} REPLACE"));
    fails(&queue_manager, "DEFINE SUB(NODEST) TOPICSTR('x')");
    fails(
        &queue_manager,
        "DEFINE SUB(NOTOPIC) TOPICOBJ(NOT.A.TOPIC) DEST(APP.SCORES)",
    );
    fails(
        &queue_manager,
        "DEFINE SUB(NOQUEUE) TOPICSTR('x') DEST(NOT.A.QUEUE)",
    );
    fails(
        &queue_manager,
        "DEFINE SUB(BADSEL) TOPICSTR('x') DEST(APP.SCORES) SELECTOR('a =')",
    );
    let shown = ok(&queue_manager, "DISPLAY SUB(*) ALL");
    for expected in [
        "AMQ8096I",
        "SUB(Scores desk)",
        "TOPICSTR(Sports/+/Results)",
        "TOPICOBJ(SPORTS)",
        "DEST(APP.SCORES)",
        "DESTCLAS(PROVIDED)",
        "USERDATA(desk)",
        "PUBPRTY(7)",
        "SUBTYPE(ADMIN)",
        "DURABLE(YES)",
    ] {
        assert!(shown.contains(expected), "{expected} in\n{shown}");
    }
    let retain = ferrite_constants::put_options::MQPMO_RETAIN;
    publish(&queue_manager, "Sports/Football/Results", retain, b"3-1");
    publish(&queue_manager, "Sports/Football/Fixtures", 0, b"Saturday");
    let retained = ok(
        &queue_manager,
        "DISPLAY TPSTATUS('Sports/Football/Results') RETAINED",
    );
    assert!(retained.contains("RETAINED(YES)"), "{retained}");
    let not_retained = ok(
        &queue_manager,
        "DISPLAY TPSTATUS('Sports/Football') RETAINED",
    );
    assert!(not_retained.contains("RETAINED(NO)"), "{not_retained}");
    let status = ok(&queue_manager, "DISPLAY SBSTATUS('Scores desk') ALL");
    assert!(
        status.contains("DESTDPTH(1)") && status.contains("AMQ8099I"),
        "{status}"
    );
    let topic_status = ok(&queue_manager, "DISPLAY TPSTATUS('Sports/Football') ALL");
    assert!(topic_status.contains("ADMIN(SPORTS)"), "{topic_status}");
    let subs = ok(
        &queue_manager,
        "DISPLAY TPSTATUS('Sports/+/Results') TYPE(SUB) ALL",
    );
    assert!(
        subs.contains("SUBID(") && subs.contains("SUBTYPE(ADMIN)"),
        "{subs}"
    );
    let every = ok(&queue_manager, "DISPLAY TPSTATUS('#')");
    assert!(
        every.contains("TOPICSTR(Sports)") && every.contains("TOPICSTR(Sports/+/Results)"),
        "{every}"
    );
    assert!(
        every.contains("TOPICSTR(Sports/Football/Results)"),
        "retained: {every}"
    );
    let engine = ok(&queue_manager, "DISPLAY PUBSUB ALL");
    assert!(
        engine.contains("STATUS(ACTIVE)") && engine.contains("SUBCOUNT(1)"),
        "{engine}"
    );
    let before = ok(&queue_manager, "DISPLAY SUB(*) ALL");
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = reopen(directory.path());
    assert_eq!(ok(&queue_manager, "DISPLAY SUB(*) ALL"), before);
    ok(&queue_manager, "DELETE SUB('Scores desk')");
    fails(&queue_manager, "DELETE SUB('Scores desk')");
    let none = ok(&queue_manager, "DISPLAY SUB(*)");
    assert!(none.contains("CSQM297I"), "{none}");
}

/// The next message on queue `queue`, got with its context and without conversion, or None.
fn get_from(
    queue_manager: &Arc<QueueManager>,
    queue: &str,
) -> Option<(ferrite_mqi::Mqmd, Vec<u8>)> {
    use ferrite_constants::{get_options::*, open_options::MQOO_INPUT_AS_Q_DEF};
    let mut connection = ferrite_test_kit::connect(queue_manager);
    let mut od = ferrite_mqi::Mqod::queue(queue);
    let hobj = connection.open(&mut od, MQOO_INPUT_AS_Q_DEF).unwrap();
    let mut md = ferrite_mqi::Mqmd::default();
    let mut gmo = ferrite_mqi::Mqgmo::with_options(MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT);
    let mut buffer = vec![0u8; 4096];
    match connection.get(hobj, &mut md, &mut gmo, &mut buffer) {
        Ok(result) => {
            buffer.truncate(result.returned_length);
            Some((md, buffer))
        }
        Err(error) => {
            assert_eq!(
                error.reason,
                ferrite_constants::reason::MQRC_NO_MSG_AVAILABLE
            );
            None
        }
    }
}

/// The value DISPLAY shows for `keyword` in `shown`.
fn shown_value<'s>(shown: &'s str, keyword: &str) -> &'s str {
    let start = shown.find(&format!("{keyword}(")).expect(keyword) + keyword.len() + 1;
    let end = start + shown[start..].find(')').expect("a closing parenthesis");
    &shown[start..end]
}

#[test]
fn alter_sub_changes_what_mq_lets_change() {
    use ferrite_constants::reason::MQRC_DEST_CLASS_NOT_ALTERABLE;
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.DAY", "APP.NIGHT"]);
    define_default_objects(&queue_manager).unwrap();
    ok(
        &queue_manager,
        "DEFINE SUB('Prices desk') TOPICSTR('Prices/#') DEST(APP.DAY) SELECTOR('Region = ''EU''')",
    );
    let token = "3C".repeat(32);
    let own = queue_manager.name().to_string();
    ok(
        &queue_manager,
        &format!(
            "ALTER SUB('Prices desk') DEST(APP.NIGHT) DESTQMGR({own}) USERDATA('night') PUBACCT({token}) PUBAPPID('Ledger') PSPROP(NONE) PUBPRTY(4) VARUSER(FIXED) SUBUSER('auditor') EXPIRY(36000)"
        ),
    );
    let shown = ok(&queue_manager, "DISPLAY SUB('Prices desk') ALL");
    for expected in [
        "DEST(APP.NIGHT)".to_string(),
        format!("DESTQMGR({own})"),
        "USERDATA(night)".to_string(),
        format!("PUBACCT({token})"),
        "PUBAPPID(Ledger)".to_string(),
        "PSPROP(NONE)".to_string(),
        "PUBPRTY(4)".to_string(),
        "VARUSER(FIXED)".to_string(),
        "SUBUSER(auditor)".to_string(),
        "EXPIRY(36000)".to_string(),
        "TOPICSTR(Prices/#)".to_string(),
    ] {
        assert!(shown.contains(&expected), "{expected} in\n{shown}");
    }

    // The next publication goes to the new DEST as the altered subscription says: as
    // published (PSPROP(NONE): no MQRFH2 added), with PUBACCT, PUBAPPID and PUBPRTY.
    let mut connection = ferrite_test_kit::connect(&queue_manager);
    let mut od = ferrite_mqi::Mqod {
        object_type: ferrite_constants::object_type::MQOT_TOPIC,
        object_string: "Prices/Fruit".to_string(),
        ..ferrite_mqi::Mqod::default()
    };
    let hobj = connection
        .open(&mut od, ferrite_constants::open_options::MQOO_OUTPUT)
        .unwrap();
    let hmsg = connection.create_message_handle(0).unwrap();
    connection
        .set_message_property(
            hmsg,
            "Region",
            ferrite_mqi::message_handles::PropertyValue::String("EU".into()),
        )
        .unwrap();
    let publish_eu = |connection: &mut ferrite_mqi::Connection, data: &[u8]| {
        let mut md = ferrite_mqi::Mqmd {
            format: *b"MQSTR   ",
            ..ferrite_mqi::Mqmd::default()
        };
        let mut pmo =
            ferrite_mqi::Mqpmo::with_options(ferrite_constants::put_options::MQPMO_NO_SYNCPOINT);
        pmo.original_msg_handle = Some(hmsg);
        connection.put(hobj, &mut md, &mut pmo, data).unwrap();
    };
    publish_eu(&mut connection, b"apples 3");
    assert!(
        get_from(&queue_manager, "APP.DAY").is_none(),
        "not the old DEST"
    );
    let (copy, data) = get_from(&queue_manager, "APP.NIGHT").expect("the new DEST");
    assert_eq!(copy.accounting_token, [0x3C; 32]);
    assert_eq!(copy.appl_identity_data.as_str().trim_end(), "Ledger");
    assert_eq!(copy.priority, 4);
    assert_eq!(
        &copy.format, b"MQHRF2  ",
        "the publisher's own properties stay"
    );
    assert!(
        !String::from_utf8_lossy(&data).contains("mqps"),
        "no publish/subscribe properties with PSPROP(NONE)"
    );

    // What MQ does not let ALTER SUB change.
    for unalterable in [
        "SELECTOR('Region = ''US''')",
        "TOPICSTR('Other')",
        "TOPICOBJ(SYSTEM.BASE.TOPIC)",
        "WSCHEMA(CHAR)",
        "DESTCLAS(MANAGED)",
    ] {
        let refused = fails(
            &queue_manager,
            &format!("ALTER SUB('Prices desk') {unalterable}"),
        );
        assert!(refused.contains("CSQ9"), "{unalterable}: {refused}");
    }
    fails(
        &queue_manager,
        "ALTER SUB('Prices desk') DESTQMGR(ELSEWHERE)",
    );
    fails(&queue_manager, "ALTER SUB('Prices desk') EXPIRY(-5)");
    fails(&queue_manager, "ALTER SUB('Prices desk') PUBACCT(12)");
    fails(&queue_manager, "ALTER SUB('Prices desk') PSPROP(RFH1)");
    let missing = fails(&queue_manager, "ALTER SUB('No such desk') USERDATA('x')");
    assert!(missing.contains("NOT FOUND"), "{missing}");

    // By SUBID alone, and by both (which must agree).
    let id = shown_value(&shown, "SUBID").to_string();
    ok(
        &queue_manager,
        &format!("ALTER SUB SUBID({id}) USERDATA('by id')"),
    );
    ok(
        &queue_manager,
        &format!("ALTER SUB('Prices desk') SUBID({id}) PSPROP(MSGPROP)"),
    );
    fails(
        &queue_manager,
        &format!(
            "ALTER SUB('Prices desk') SUBID({}) USERDATA('x')",
            "0".repeat(48)
        ),
    );
    let shown = ok(&queue_manager, "DISPLAY SUB('Prices desk') USERDATA PSPROP");
    assert!(
        shown.contains("USERDATA(by id)") && shown.contains("PSPROP(MSGPROP)"),
        "{shown}"
    );

    ok(&queue_manager, "ALTER SUB('Prices desk') EXPIRY(UNLIMITED)");
    publish_eu(&mut connection, b"apples 4");
    let (_, data) = get_from(&queue_manager, "APP.NIGHT").expect("delivered");
    assert!(
        String::from_utf8_lossy(&data).contains("mqps"),
        "PSPROP(MSGPROP)"
    );

    // EXPIRY(0): expired at once, so it gets no publications, and the queue manager removes
    // it.
    ok(&queue_manager, "ALTER SUB('Prices desk') EXPIRY(0)");
    publish_eu(&mut connection, b"apples 5");
    assert!(get_from(&queue_manager, "APP.NIGHT").is_none(), "expired");
    let removed = ferrite_test_kit::wait_until(std::time::Duration::from_secs(30), || {
        queue_manager.subscription("Prices desk").is_none()
    });
    assert!(removed, "an expired subscription is removed");

    // DEFINE SUB takes them too.
    ok(
        &queue_manager,
        "DEFINE SUB('Batch desk') TOPICSTR('Batch') DEST(APP.DAY) PSPROP(NONE) PUBAPPID('Batch') EXPIRY(50) VARUSER(FIXED) REQONLY(YES)",
    );
    let shown = ok(&queue_manager, "DISPLAY SUB('Batch desk') ALL");
    for expected in [
        "PSPROP(NONE)",
        "PUBAPPID(Batch)",
        "EXPIRY(50)",
        "VARUSER(FIXED)",
        "REQONLY(YES)",
    ] {
        assert!(shown.contains(expected), "{expected} in\n{shown}");
    }

    // A managed subscription's DEST is its managed queue.
    let mut sd = ferrite_mqi::Mqsd {
        options: ferrite_constants::misc::MQSO_CREATE
            | ferrite_constants::misc::MQSO_DURABLE
            | ferrite_constants::misc::MQSO_MANAGED,
        sub_name: "Managed desk".into(),
        object_string: "Prices/Veg".into(),
        ..ferrite_mqi::Mqsd::default()
    };
    let mut queue = ferrite_mqi::Hobj(0);
    let hsub = connection.subscribe(&mut sd, &mut queue).unwrap();
    let refused = fails(&queue_manager, "ALTER SUB('Managed desk') DEST(APP.DAY)");
    assert!(
        refused.contains(&format!("{MQRC_DEST_CLASS_NOT_ALTERABLE:08X}")),
        "{refused}"
    );
    // While a handle has it open, what may change changes.
    ok(&queue_manager, "ALTER SUB('Managed desk') USERDATA('open')");
    connection
        .close(hsub, ferrite_constants::close_options::MQCO_REMOVE_SUB)
        .unwrap();
}

/// A little-endian MQLONG at `offset` of `data`.
fn long_at(data: &[u8], offset: usize) -> i32 {
    i32::from_le_bytes(data[offset..offset + 4].try_into().unwrap())
}

#[test]
fn psprop_puts_publish_subscribe_properties_where_each_form_says() {
    // The V7.0 report's RAINBOW set-up: one publication with COLOUR=BLUE reaches four
    // subscriptions that differ only in PSPROP.
    let queues = ["LQ1", "LQ2", "LQ3", "LQ4"];
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&queues);
    define_default_objects(&queue_manager).unwrap();
    ok(
        &queue_manager,
        "DEF TOPIC(RAINBOW) TOPICSTR('/RAINBOW1') DURSUB(YES)",
    );
    for (queue, form) in queues.iter().zip(["NONE", "MSGPROP", "RFH2", "COMPAT"]) {
        ok(
            &queue_manager,
            &format!("DEF SUB(PS{form}) TOPICOBJ(RAINBOW) DEST({queue}) PSPROP({form})"),
        );
        let shown = ok(&queue_manager, &format!("DISPLAY SUB(PS{form}) PSPROP"));
        assert!(shown.contains(&format!("PSPROP({form})")), "{shown}");
    }
    let mut connection = ferrite_test_kit::connect(&queue_manager);
    let mut od = ferrite_mqi::Mqod {
        object_type: ferrite_constants::object_type::MQOT_TOPIC,
        object_name: "RAINBOW".to_string(),
        ..ferrite_mqi::Mqod::default()
    };
    let hobj = connection
        .open(&mut od, ferrite_constants::open_options::MQOO_OUTPUT)
        .unwrap();
    let hmsg = connection.create_message_handle(0).unwrap();
    connection
        .set_message_property(
            hmsg,
            "COLOUR",
            ferrite_mqi::message_handles::PropertyValue::String("BLUE".into()),
        )
        .unwrap();
    let mut md = ferrite_mqi::Mqmd {
        format: *b"MQSTR   ",
        ..ferrite_mqi::Mqmd::default()
    };
    let mut pmo =
        ferrite_mqi::Mqpmo::with_options(ferrite_constants::put_options::MQPMO_NO_SYNCPOINT);
    pmo.original_msg_handle = Some(hmsg);
    let body = [b'x'; 100];
    connection.put(hobj, &mut md, &mut pmo, &body).unwrap();

    let copies: Vec<(ferrite_mqi::Mqmd, Vec<u8>)> = queues
        .iter()
        .map(|queue| get_from(&queue_manager, queue).expect("a copy on each queue"))
        .collect();
    let text = |data: &[u8]| String::from_utf8_lossy(data).into_owned();
    for (_, data) in &copies {
        assert!(data.ends_with(&body), "the publication's data last");
        assert!(
            text(data).contains("<COLOUR>BLUE</COLOUR>"),
            "the publisher's property"
        );
    }
    // NONE: the publication as published, its own MQRFH2 only.
    let (none, none_data) = &copies[0];
    assert_eq!(&none.format, b"MQHRF2  ");
    assert!(!text(none_data).contains("mqps") && !text(none_data).contains("psc"));
    // MSGPROP: MQTopicString as a property.
    let (_, message_properties) = &copies[1];
    assert!(text(message_properties).contains("<mqps><Top>/RAINBOW1</Top></mqps>"));
    // RFH2: a psc folder, first in the MQRFH2, and no mqps folder.
    let (rfh2, rfh2_data) = &copies[2];
    assert_eq!(&rfh2.format, b"MQHRF2  ");
    assert_eq!(
        &rfh2_data[40..40 + "<psc>".len()],
        b"<psc>",
        "the first folder (after the 36-byte fixed part and its length)"
    );
    assert!(
        text(rfh2_data).contains("<psc><Command>Publish</Command><Topic>/RAINBOW1</Topic></psc>")
    );
    assert!(!text(rfh2_data).contains("mqps"));
    // COMPAT: an MQRFH version 1 ahead of the publication (with its own MQRFH2) as published.
    let (compat, compat_data) = &copies[3];
    assert_eq!(&compat.format, b"MQHRF   ");
    assert_eq!(&compat_data[0..4], b"RFH ");
    assert_eq!(long_at(compat_data, 4), 1, "Version");
    let length = long_at(compat_data, 8) as usize;
    assert_eq!(length % 4, 0);
    assert_eq!(
        &compat_data[20..28],
        b"MQHRF2  ",
        "the Format of what follows"
    );
    assert_eq!(
        text(&compat_data[32..length]).trim_end(),
        "MQPSCommand Publish MQPSTopic /RAINBOW1"
    );
    assert_eq!(
        &compat_data[length..],
        none_data.as_slice(),
        "then as published"
    );
    // As in the report's table: every form but NONE makes the copy longer.
    for (_, data) in &copies[1..] {
        assert!(data.len() > none_data.len());
    }

    // PSPROP changes with ALTER SUB and PCF, and survives a restart.
    ok(&queue_manager, "ALTER SUB(PSNONE) PSPROP(COMPAT)");
    drop(connection);
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = reopen(directory.path());
    let shown = ok(&queue_manager, "DISPLAY SUB(PSNONE) PSPROP");
    assert!(shown.contains("PSPROP(COMPAT)"), "{shown}");
}

#[test]
fn an_alias_queue_may_target_a_topic_and_keeps_it_across_restart() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.PRICES"]);
    define_default_objects(&queue_manager).unwrap();
    ok(&queue_manager, "DEFINE TOPIC(PRICES) TOPICSTR('Prices')");
    ok(
        &queue_manager,
        "DEFINE QALIAS(PRICES.ALIAS) TARGET(PRICES) TARGTYPE(TOPIC)",
    );
    fails(
        &queue_manager,
        "DEFINE QALIAS(BAD.ALIAS) TARGET(PRICES) TARGTYPE(CHANNEL)",
    );
    ok(
        &queue_manager,
        "DEFINE SUB('Prices desk') TOPICSTR('Prices') DEST(APP.PRICES)",
    );
    // MQPUT to the alias publishes on the topic.
    let mut connection = ferrite_test_kit::connect(&queue_manager);
    let hobj = connection
        .open(
            &mut ferrite_mqi::Mqod::queue("PRICES.ALIAS"),
            ferrite_constants::open_options::MQOO_OUTPUT,
        )
        .unwrap();
    ferrite_test_kit::put(
        &mut connection,
        hobj,
        ferrite_constants::put_options::MQPMO_NO_SYNCPOINT,
        b"apples 3",
    );
    drop(connection);
    let (_, data) = get_from(&queue_manager, "APP.PRICES").expect("published");
    assert!(data.ends_with(b"apples 3"));
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = reopen(directory.path());
    let shown = ok(
        &queue_manager,
        "DISPLAY QALIAS(PRICES.ALIAS) TARGTYPE TARGET",
    );
    assert!(
        shown.contains("TARGTYPE(TOPIC)") && shown.contains("TARGET(PRICES)"),
        "{shown}"
    );
    ok(
        &queue_manager,
        "ALTER QALIAS(PRICES.ALIAS) TARGTYPE(QUEUE) TARGET(APP.PRICES)",
    );
    let shown = ok(&queue_manager, "DISPLAY QALIAS(PRICES.ALIAS) TARGTYPE");
    assert!(shown.contains("TARGTYPE(QUEUE)"), "{shown}");
}

#[test]
fn define_sub_like_subscope_and_sublevel_interception() {
    let (directory, queue_manager) =
        ferrite_test_kit::queue_manager(&["FINAL.Q", "INTERCEPT.Q", "COPY.Q"]);
    define_default_objects(&queue_manager).unwrap();
    ok(
        &queue_manager,
        "DEFINE SUB(FINAL) TOPICSTR('Orders/+') DEST(FINAL.Q) USERDATA('final') PSPROP(RFH2) SUBSCOPE(QMGR)",
    );
    ok(
        &queue_manager,
        "DEFINE SUB(COPIED) LIKE(FINAL) DEST(COPY.Q)",
    );
    let shown = ok(&queue_manager, "DISPLAY SUB(COPIED) ALL");
    for expected in [
        "TOPICSTR(Orders/+)",
        "DEST(COPY.Q)",
        "USERDATA(final)",
        "PSPROP(RFH2)",
        "SUBSCOPE(QMGR)",
        "SUBLEVEL(1)",
        "SUBTYPE(ADMIN)",
    ] {
        assert!(shown.contains(expected), "{expected} in\n{shown}");
    }
    let original = ok(&queue_manager, "DISPLAY SUB(FINAL) SUBID");
    assert_ne!(
        shown_value(&shown, "SUBID"),
        shown_value(&original, "SUBID")
    );
    let missing = fails(&queue_manager, "DEFINE SUB(X) LIKE(NO.SUCH.SUB)");
    assert!(missing.contains("NOT FOUND"), "{missing}");
    fails(
        &queue_manager,
        "DEFINE SUB(X) TOPICSTR('a') DEST(FINAL.Q) SUBLEVEL(10)",
    );
    fails(
        &queue_manager,
        "DEFINE SUB(X) TOPICSTR('a') DEST(FINAL.Q) SUBLEVEL(2) REQONLY(YES)",
    );
    ok(&queue_manager, "DELETE SUB(COPIED)");

    // Both get a publication at SUBLEVEL 1; an interceptor at SUBLEVEL 5 takes it from them.
    publish(&queue_manager, "Orders/Books", 0, b"first");
    assert!(get_from(&queue_manager, "FINAL.Q").is_some());
    ok(
        &queue_manager,
        "DEFINE SUB(INTERCEPTOR) TOPICSTR('Orders/#') DEST(INTERCEPT.Q) SUBLEVEL(5)",
    );
    publish(&queue_manager, "Orders/Books", 0, b"second");
    let (_, intercepted) = get_from(&queue_manager, "INTERCEPT.Q").expect("intercepted");
    assert!(intercepted.ends_with(b"second"));
    assert!(get_from(&queue_manager, "FINAL.Q").is_none(), "intercepted");

    // SUBLEVEL and SUBSCOPE survive a restart.
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = reopen(directory.path());
    let shown = ok(&queue_manager, "DISPLAY SUB(INTERCEPTOR) SUBLEVEL SUBSCOPE");
    assert!(
        shown.contains("SUBLEVEL(5)") && shown.contains("SUBSCOPE(ALL)"),
        "{shown}"
    );
}

#[test]
fn expired_subscriptions_are_removed_with_their_stored_record() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&["SOON.Q", "LATER.Q"]);
    define_default_objects(&queue_manager).unwrap();
    ok(
        &queue_manager,
        "DEFINE SUB(SOON) TOPICSTR('News') DEST(SOON.Q) EXPIRY(1)",
    );
    ok(
        &queue_manager,
        "DEFINE SUB(LATER) TOPICSTR('News') DEST(LATER.Q) EXPIRY(999999)",
    );
    // The queue manager's timer removes SOON once its tenth of a second has passed.
    let removed = ferrite_test_kit::wait_until(std::time::Duration::from_secs(30), || {
        queue_manager.subscription("SOON").is_none()
    });
    assert!(removed, "the expired subscription was removed");
    assert!(queue_manager.subscription("LATER").is_some());
    let shown = ok(&queue_manager, "DISPLAY SUB(*)");
    assert!(!shown.contains("SUB(SOON)"), "{shown}");

    // Removed durably: not back after a crash and restart.
    drop(queue_manager);
    let queue_manager = reopen(directory.path());
    assert!(queue_manager.subscription("SOON").is_none());
    assert!(queue_manager.subscription("LATER").is_some());
    // An explicit call finds nothing more to remove.
    let now = ferrite_queue_manager::now_ms();
    assert!(queue_manager
        .remove_expired_subscriptions(now)
        .unwrap()
        .is_empty());
}

#[test]
fn psmode_disabled_inhibits_publish_subscribe_and_compat_does_not() {
    use ferrite_constants::{object_type::MQOT_TOPIC, open_options::MQOO_OUTPUT, reason::*};
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.Q"]);
    define_default_objects(&queue_manager).unwrap();
    let shown = ok(&queue_manager, "DISPLAY QMGR PSMODE");
    assert!(shown.contains("PSMODE(ENABLED)"), "{shown}");
    let mut connection = ferrite_test_kit::connect(&queue_manager);
    let mut od = ferrite_mqi::Mqod {
        object_type: MQOT_TOPIC,
        object_string: "Prices".to_string(),
        ..ferrite_mqi::Mqod::default()
    };
    let publisher = connection.open(&mut od.clone(), MQOO_OUTPUT).unwrap();
    let subscribe = |connection: &mut ferrite_mqi::Connection| {
        let mut sd = ferrite_mqi::Mqsd {
            options: ferrite_constants::misc::MQSO_CREATE | ferrite_constants::misc::MQSO_MANAGED,
            object_string: "Prices".to_string(),
            ..ferrite_mqi::Mqsd::default()
        };
        connection.subscribe(&mut sd, &mut ferrite_mqi::Hobj(0))
    };
    let put = |connection: &mut ferrite_mqi::Connection| {
        let mut md = ferrite_mqi::Mqmd::default();
        let mut pmo =
            ferrite_mqi::Mqpmo::with_options(ferrite_constants::put_options::MQPMO_NO_SYNCPOINT);
        connection.put(publisher, &mut md, &mut pmo, b"price")
    };

    ok(&queue_manager, "ALTER QMGR PSMODE(DISABLED)");
    let shown = ok(&queue_manager, "DISPLAY PUBSUB");
    assert!(shown.contains("STATUS(INACTIVE)"), "{shown}");
    assert_eq!(
        ferrite_test_kit::reason(connection.open(&mut od, MQOO_OUTPUT)),
        MQRC_PUBSUB_INHIBITED
    );
    assert_eq!(
        ferrite_test_kit::reason(subscribe(&mut connection)),
        MQRC_PUBSUB_INHIBITED
    );
    assert_eq!(
        ferrite_test_kit::reason(put(&mut connection)),
        MQRC_PUBSUB_INHIBITED,
        "a topic opened before"
    );
    fails(&queue_manager, "ALTER QMGR PSMODE(OFF)");

    // Kept across a restart.
    drop(connection);
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = reopen(directory.path());
    let shown = ok(&queue_manager, "DISPLAY QMGR PSMODE");
    assert!(shown.contains("PSMODE(DISABLED)"), "{shown}");
    let mut connection = ferrite_test_kit::connect(&queue_manager);
    assert_eq!(
        ferrite_test_kit::reason(subscribe(&mut connection)),
        MQRC_PUBSUB_INHIBITED
    );

    // COMPAT: the MQI's publish/subscribe works (only the queued interface is off).
    ok(&queue_manager, "ALTER QMGR PSMODE(COMPAT)");
    let shown = ok(&queue_manager, "DISPLAY PUBSUB");
    assert!(shown.contains("STATUS(COMPAT)"), "{shown}");
    subscribe(&mut connection).unwrap();
    let mut od = ferrite_mqi::Mqod {
        object_type: MQOT_TOPIC,
        object_string: "Prices".to_string(),
        ..ferrite_mqi::Mqod::default()
    };
    connection.open(&mut od, MQOO_OUTPUT).unwrap();
}
