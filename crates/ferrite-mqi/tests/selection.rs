//! MQOPEN with a SelectionString: MQGET returns only the messages the selector chooses, by
//! MQMD fields (JMSCorrelationID, JMSPriority) and by properties in an MQRFH2.

use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_message::properties::PropertyValue;
use ferrite_message::{MessageProperties, Rfh2};
use ferrite_mqi::{Connection, Hobj, MqResult, Mqgmo, Mqmd, Mqod};
use ferrite_protocol::ByteOrder;
use ferrite_test_kit::*;

fn put(connection: &mut Connection, hobj: Hobj, md: Mqmd, data: &[u8]) {
    let mut md = md;
    put_md(connection, hobj, &mut md, MQPMO_NO_SYNCPOINT, data).unwrap();
}

/// A message whose MQRFH2 carries `usr.colour` and whose body is `body`.
fn with_colour(colour: &str, body: &str) -> (Mqmd, Vec<u8>) {
    let mut properties = MessageProperties::new();
    properties
        .set("colour", PropertyValue::String(colour.to_string()))
        .unwrap();
    let mut header = Rfh2::new(273, 1208, *b"MQSTR   ");
    for folder in properties.to_folders() {
        header.push_folder(&folder, ByteOrder::Big).unwrap();
    }
    let mut data = header.build(ByteOrder::Big).unwrap();
    data.extend_from_slice(body.as_bytes());
    let md = Mqmd {
        format: *b"MQHRF2  ",
        encoding: 273,
        coded_char_set_id: 1208,
        ..Mqmd::default()
    };
    (md, data)
}

fn open_selecting(connection: &mut Connection, selector: &str) -> MqResult<Hobj> {
    let mut od = Mqod {
        version: 4,
        selection_string: selector.to_string(),
        ..Mqod::queue("Q1")
    };
    connection.open(&mut od, MQOO_INPUT_SHARED | MQOO_BROWSE)
}

fn get(connection: &mut Connection, hobj: Hobj, options: i32) -> MqResult<Vec<u8>> {
    ferrite_test_kit::get(connection, hobj, options).map(|(_, data)| data)
}

fn ends_with(data: &[u8], body: &str) -> bool {
    data.ends_with(body.as_bytes())
}

#[test]
fn property_selectors_choose_messages_in_order() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let output = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    for (colour, body) in [
        ("red", "one"),
        ("green", "two"),
        ("blue", "three"),
        ("green", "four"),
    ] {
        let (md, data) = with_colour(colour, body);
        put(&mut connection, output, md, &data);
    }
    let greens = open_selecting(&mut connection, "colour = 'green'").unwrap();
    // Browse sees only the selected messages, in order, and leaves them.
    assert!(ends_with(
        &get(&mut connection, greens, MQGMO_BROWSE_FIRST).unwrap(),
        "two"
    ));
    assert!(ends_with(
        &get(&mut connection, greens, MQGMO_BROWSE_NEXT).unwrap(),
        "four"
    ));
    assert_eq!(
        get(&mut connection, greens, MQGMO_BROWSE_NEXT)
            .unwrap_err()
            .reason,
        MQRC_NO_MSG_AVAILABLE
    );
    assert!(ends_with(
        &get(&mut connection, greens, MQGMO_NO_SYNCPOINT).unwrap(),
        "two"
    ));
    assert!(ends_with(
        &get(&mut connection, greens, MQGMO_NO_SYNCPOINT).unwrap(),
        "four"
    ));
    assert_eq!(
        get(&mut connection, greens, MQGMO_NO_SYNCPOINT)
            .unwrap_err()
            .reason,
        MQRC_NO_MSG_AVAILABLE
    );
    // The others are still there for a handle without a selector.
    let all = connection
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    assert!(ends_with(
        &get(&mut connection, all, MQGMO_NO_SYNCPOINT).unwrap(),
        "one"
    ));
    assert!(ends_with(
        &get(&mut connection, all, MQGMO_NO_SYNCPOINT).unwrap(),
        "three"
    ));
}

#[test]
fn correlation_id_and_priority_selectors() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let output = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
        .unwrap();
    for (index, priority) in [(1u8, 2), (2, 7), (3, 4)] {
        let mut correl_id = [0u8; 24];
        correl_id[..6].copy_from_slice(format!("corr-{index}").as_bytes());
        let md = Mqmd {
            correl_id,
            priority,
            ..Mqmd::default()
        };
        put(
            &mut connection,
            output,
            md,
            format!("message {index}").as_bytes(),
        );
    }
    let picky = open_selecting(&mut connection, "JMSCorrelationID = 'corr-3'").unwrap();
    assert_eq!(
        get(&mut connection, picky, MQGMO_NO_SYNCPOINT).unwrap(),
        b"message 3"
    );
    let urgent = open_selecting(&mut connection, "JMSPriority > 5").unwrap();
    assert_eq!(
        get(&mut connection, urgent, MQGMO_NO_SYNCPOINT).unwrap(),
        b"message 2"
    );
    assert_eq!(
        get(&mut connection, urgent, MQGMO_NO_SYNCPOINT)
            .unwrap_err()
            .reason,
        MQRC_NO_MSG_AVAILABLE
    );
}

#[test]
fn selector_errors_have_reason_codes() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    assert_eq!(
        open_selecting(&mut connection, "colour = ")
            .unwrap_err()
            .reason,
        MQRC_SELECTOR_SYNTAX_ERROR
    );
    assert_eq!(
        open_selecting(&mut connection, "1 = 2").unwrap_err().reason,
        MQRC_SELECTOR_ALWAYS_FALSE
    );
}

#[test]
fn a_waiting_selected_get_is_satisfied_by_a_later_put() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut getter = Connection::connect(qm.clone(), "").unwrap();
    let greens = open_selecting(&mut getter, "colour = 'green'").unwrap();
    let putter = std::thread::spawn(move || {
        let mut connection = Connection::connect(qm, "").unwrap();
        let output = connection
            .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        let (md, data) = with_colour("red", "not this");
        put(&mut connection, output, md, &data);
        let (md, data) = with_colour("green", "this");
        put(&mut connection, output, md, &data);
    });
    let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_WAIT);
    gmo.wait_interval = 10_000;
    let mut buffer = vec![0u8; 4096];
    let got = getter
        .get(greens, &mut Mqmd::default(), &mut gmo, &mut buffer)
        .unwrap();
    assert!(ends_with(&buffer[..got.returned_length], "this"));
    assert!(!ends_with(&buffer[..got.returned_length], "not this"));
    putter.join().unwrap();
}

#[test]
fn a_waiting_selected_get_parks_until_an_arrival_and_ends_when_the_queue_manager_quiesces() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut getter = Connection::connect(qm.clone(), "").unwrap();
    let greens = open_selecting(&mut getter, "colour = 'green'").unwrap();
    let before = qm.queue("Q1").unwrap().arrivals();
    let quiescer = {
        let qm = qm.clone();
        std::thread::spawn(move || {
            // Non-matching arrivals wake the getter, which looks and waits again.
            let mut connection = Connection::connect(qm.clone(), "").unwrap();
            let output = connection
                .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT)
                .unwrap();
            for _ in 0..3 {
                std::thread::sleep(std::time::Duration::from_millis(30));
                let (md, data) = with_colour("red", "no");
                put(&mut connection, output, md, &data);
            }
            std::thread::sleep(std::time::Duration::from_millis(30));
            qm.quiesce();
        })
    };
    let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING);
    gmo.wait_interval = 60_000;
    let mut buffer = vec![0u8; 4096];
    let error = getter
        .get(greens, &mut Mqmd::default(), &mut gmo, &mut buffer)
        .unwrap_err();
    assert_eq!(error.reason, MQRC_Q_MGR_QUIESCING);
    assert_eq!(qm.queue("Q1").unwrap().arrivals(), before + 3);
    assert_eq!(qm.queue("Q1").unwrap().depth(), 3);
    quiescer.join().unwrap();
}
