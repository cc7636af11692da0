//! What the channel initiator's read-ahead asks before sending a message ahead of a client's
//! MQGET (`Connection::next_message_for_read_ahead`): whether the next message is persistent,
//! and its MsgToken, so that the get takes exactly the message looked at. A persistent message
//! that overtakes it by priority in between must stay on the queue for a real MQGET.

use ferrite_constants::{
    get_options::*, match_options::MQMO_MATCH_MSG_TOKEN, open_options::*, persistence::*,
    put_options::*, structs::MQGMO_VERSION_4,
};
use ferrite_mqi::*;
use ferrite_test_kit::*;

fn put(connection: &mut Connection, hobj: Hobj, persistence: i32, priority: i32, data: &[u8]) {
    let mut md = Mqmd {
        priority,
        ..with_persistence(persistence)
    };
    put_md(connection, hobj, &mut md, MQPMO_NO_SYNCPOINT, data).unwrap();
}

fn get(connection: &mut Connection, hobj: Hobj, token: Option<[u8; 16]>) -> Vec<u8> {
    let mut md = Mqmd::default();
    let mut gmo = Mqgmo {
        version: MQGMO_VERSION_4,
        options: MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT,
        match_options: 0,
        ..Mqgmo::default()
    };
    if let Some(token) = token {
        gmo.match_options = MQMO_MATCH_MSG_TOKEN;
        gmo.msg_token = token;
    }
    let mut buffer = vec![0u8; 64];
    let got = connection
        .get(hobj, &mut md, &mut gmo, &mut buffer)
        .unwrap();
    buffer.truncate(got.returned_length);
    buffer
}

#[test]
fn the_get_takes_the_message_looked_at_not_a_persistent_one_that_overtook_it() {
    let (_directory, qm) = queue_manager(&["Q"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let output = connection.open(&mut Mqod::queue("Q"), MQOO_OUTPUT).unwrap();
    let input = connection
        .open(&mut Mqod::queue("Q"), MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(connection.next_message_for_read_ahead(input).unwrap(), None);
    put(&mut connection, output, MQPER_NOT_PERSISTENT, 0, b"ahead");
    let next = connection
        .next_message_for_read_ahead(input)
        .unwrap()
        .expect("a message is there");
    assert!(!next.persistent);
    let token = next
        .token
        .expect("a handle without a selector names the message");
    // A persistent message of higher priority arrives between the look and the get.
    put(&mut connection, output, MQPER_PERSISTENT, 9, b"persistent");
    assert_eq!(get(&mut connection, input, Some(token)), b"ahead");
    let next = connection
        .next_message_for_read_ahead(input)
        .unwrap()
        .expect("the persistent message stayed");
    assert!(next.persistent);
    // Without the token, the same get would have taken the persistent message first.
    assert_eq!(get(&mut connection, input, None), b"persistent");
}

#[test]
fn a_handle_with_a_selection_string_gets_no_token() {
    let (_directory, qm) = queue_manager(&["Q"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let output = connection.open(&mut Mqod::queue("Q"), MQOO_OUTPUT).unwrap();
    let mut od = Mqod::queue("Q");
    od.selection_string = "JMSCorrelationID = 'ID:414243'".to_string();
    let input = connection.open(&mut od, MQOO_INPUT_SHARED).unwrap();
    put(&mut connection, output, MQPER_PERSISTENT, 0, b"persistent");
    let next = connection
        .next_message_for_read_ahead(input)
        .unwrap()
        .expect("the queue's first message");
    assert!(next.persistent);
    assert_eq!(next.token, None, "the selector decides what the get takes");
}
