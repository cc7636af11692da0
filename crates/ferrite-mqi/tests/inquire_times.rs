//! MQINQ's creation and alteration attributes: MQCA_CREATION_DATE/TIME of a local queue,
//! MQCA_ALTERATION_DATE/TIME of every object, as MQ formats them (`2024-01-31`, `12.34.56`),
//! moved by MQSET; an alias has no creation date (MQRC_SELECTOR_NOT_FOR_TYPE).

use ferrite_constants::{
    completion::MQCC_WARNING, open_options::*, reason::*, selector::*, shareability::*,
};
use ferrite_mqi::descriptor::display_date_time;
use ferrite_mqi::*;
use ferrite_queue_manager::{now_ms, AliasDefinition, ObjectDefinition, ObjectType};
use ferrite_test_kit::*;

use AttributeValue::Text;

fn text(value: &AttributeValue) -> &str {
    match value {
        Text(text) => text,
        other => panic!("not text: {other:?}"),
    }
}

fn is_date(value: &AttributeValue) -> bool {
    let bytes = text(value).as_bytes();
    bytes.len() == 10 && bytes[4] == b'-' && bytes[7] == b'-'
}

fn is_time(value: &AttributeValue) -> bool {
    let bytes = text(value).as_bytes();
    bytes.len() == 8 && bytes[2] == b'.' && bytes[5] == b'.'
}

const TIMES: [i32; 4] = [
    MQCA_CREATION_DATE,
    MQCA_CREATION_TIME,
    MQCA_ALTERATION_DATE,
    MQCA_ALTERATION_TIME,
];

#[test]
fn mqinq_gives_creation_and_alteration_times() {
    let (_directory, qm) = queue_manager(&["LOCAL.Q"]);
    qm.define_object(
        ObjectDefinition::Alias(AliasDefinition::new("ALIAS.Q", "LOCAL.Q")),
        false,
    )
    .unwrap();
    let mut connection = Connection::connect(qm.clone(), "").unwrap();
    let local = connection
        .open(&mut Mqod::queue("LOCAL.Q"), MQOO_INQUIRE | MQOO_SET)
        .unwrap();

    let inquired = connection.inquire(local, &TIMES).unwrap();
    assert!(inquired.warning.is_none());
    let times = qm.object_times(ObjectType::LocalQueue, "LOCAL.Q").unwrap();
    let (created_date, created_time) = display_date_time(times.created_ms);
    assert_eq!(text(&inquired.values[0]), created_date);
    assert_eq!(text(&inquired.values[1]), created_time);
    assert!(is_date(&inquired.values[2]) && is_time(&inquired.values[3]));

    // MQSET alters the queue: the alteration time follows, the creation stays.
    while now_ms() / 1000 <= times.altered_ms / 1000 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    connection
        .set(
            local,
            &[(
                MQIA_INHIBIT_PUT,
                AttributeValue::Integer(MQQA_PUT_INHIBITED),
            )],
        )
        .unwrap();
    let after = connection.inquire(local, &TIMES).unwrap();
    assert_eq!(
        after.values[..2],
        inquired.values[..2],
        "CRDATE/CRTIME kept"
    );
    let altered = qm.object_times(ObjectType::LocalQueue, "LOCAL.Q").unwrap();
    assert!(altered.altered_ms > times.altered_ms);
    let (altered_date, altered_time) = display_date_time(altered.altered_ms);
    assert_eq!(text(&after.values[2]), altered_date);
    assert_eq!(text(&after.values[3]), altered_time);
    assert_ne!(after.values[3], inquired.values[3], "a second later");

    // An alias: alteration yes, creation not for its type.
    let alias = connection
        .open(&mut Mqod::queue("ALIAS.Q"), MQOO_INQUIRE)
        .unwrap();
    let inquired = connection.inquire(alias, &TIMES).unwrap();
    assert_eq!(inquired.values[0], Text("*".repeat(12)));
    assert_eq!(inquired.values[1], Text("*".repeat(8)));
    assert!(is_date(&inquired.values[2]) && is_time(&inquired.values[3]));
    let warning = inquired.warning.expect("MQCC_WARNING");
    assert_eq!(
        (warning.completion_code, warning.reason),
        (MQCC_WARNING, MQRC_SELECTOR_NOT_FOR_TYPE)
    );
    connection.disconnect().unwrap();
}
