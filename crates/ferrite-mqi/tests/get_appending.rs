//! `Connection::get_appending` against `Connection::get`: the same message got both ways, with
//! a buffer of the same BufferLength, gives the same result, MQMD, MQGMO outputs and data
//! (truncation, MQGMO_ACCEPT_TRUNCATED_MSG, browsing, data conversion, MQRFH2 properties,
//! segments reassembled); the Vec grows only by the bytes returned, and not at all on an error.

use std::collections::BTreeSet;

use ferrite_constants::{
    format::MQFMT_STRING, get_options::*, message_flags::*, open_options::*, put_options::*,
    reason::*,
};
use ferrite_mqi::message_handles::PropertyValue;
use ferrite_mqi::*;
use ferrite_test_kit::*;

/// The queues got from with a slice and with a Vec: the same messages, put the same way.
const QUEUES: [&str; 2] = ["Q.SLICE", "Q.VEC"];
/// What the Vec holds before the get: the data is appended after it.
const BEFORE: &[u8] = b"before";

/// One message as a list of (MQMD, data) puts with these put options.
struct Message {
    puts: Vec<(Mqmd, Vec<u8>)>,
    put_options: i32,
    properties: bool,
}

fn put_message(connection: &mut Connection, hobj: Hobj, message: &Message) {
    let handle = message.properties.then(|| {
        let hmsg = connection.create_message_handle(0).unwrap();
        connection
            .set_message_property(hmsg, "colour", PropertyValue::String("blue".into()))
            .unwrap();
        hmsg
    });
    for (md, data) in &message.puts {
        let mut md = md.clone();
        let mut pmo = Mqpmo {
            original_msg_handle: handle,
            ..Mqpmo::with_options(message.put_options | MQPMO_NO_SYNCPOINT)
        };
        connection.put(hobj, &mut md, &mut pmo, data).unwrap();
    }
    if let Some(hmsg) = handle {
        connection.delete_message_handle(hmsg).unwrap();
    }
}

/// What one get gave: its result, MQMD, MQGMO and the data returned.
type Outcome = (MqResult<GetResult>, Mqmd, Mqgmo, Vec<u8>);

/// The fields that differ between two puts of the same message, blanked.
fn comparable((result, mut md, mut gmo, data): Outcome) -> Outcome {
    md.msg_id = [0; 24];
    md.group_id = [0; 24];
    md.put_date = Default::default();
    md.put_time = Default::default();
    gmo.msg_token = [0; 16];
    gmo.resolved_q_name = String::new();
    (result, md, gmo, data)
}

fn get_slice(
    connection: &mut Connection,
    hobj: Hobj,
    md: &Mqmd,
    gmo: &Mqgmo,
    length: usize,
) -> Outcome {
    let (mut md, mut gmo) = (md.clone(), gmo.clone());
    let mut buffer = vec![0xA5; length];
    let result = connection.get(hobj, &mut md, &mut gmo, &mut buffer);
    let returned = result.map_or(0, |got| got.returned_length);
    buffer.truncate(returned);
    (result, md, gmo, buffer)
}

fn get_vec(
    connection: &mut Connection,
    hobj: Hobj,
    md: &Mqmd,
    gmo: &Mqgmo,
    length: usize,
) -> Outcome {
    let (mut md, mut gmo) = (md.clone(), gmo.clone());
    let mut data = BEFORE.to_vec();
    let result = connection.get_appending(hobj, &mut md, &mut gmo, &mut data, length);
    let returned = result.map_or(0, |got| got.returned_length);
    assert_eq!(&data[..BEFORE.len()], BEFORE, "what was there stays");
    assert_eq!(
        data.len(),
        BEFORE.len() + returned,
        "the Vec grows by ReturnedLength"
    );
    (result, md, gmo, data.split_off(BEFORE.len()))
}

/// Puts `message` on both queues, gets it with a buffer of each length in `lengths` both ways
/// with each of `options`, and compares; the queues are emptied between cases. Returns the
/// reasons the gets gave (MQRC_NONE for a plain success), each once.
fn same_both_ways(
    connection: &mut Connection,
    [slice, vec]: [Hobj; 2],
    message: &Message,
    md: &Mqmd,
    options: &[i32],
    lengths: &[usize],
) -> BTreeSet<i32> {
    let mut reasons = BTreeSet::new();
    for &options in options {
        for &length in lengths {
            put_message(connection, slice, message);
            put_message(connection, vec, message);
            let gmo = Mqgmo::with_options(options);
            let by_slice = get_slice(connection, slice, md, &gmo, length);
            let by_vec = get_vec(connection, vec, md, &gmo, length);
            let case = format!("options {options:#x}, BufferLength {length}");
            let by_slice = comparable(by_slice);
            assert_eq!(by_slice, comparable(by_vec), "{case}");
            reasons.insert(match by_slice.0 {
                Ok(got) => got.warning.map_or(MQRC_NONE, |warning| warning.reason),
                Err(error) => error.reason,
            });
            // Empty the queues for the next case (a truncated get accepted takes the message).
            for hobj in [slice, vec] {
                let mut drain =
                    Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_ACCEPT_TRUNCATED_MSG);
                while connection
                    .get(hobj, &mut Mqmd::default(), &mut drain, &mut [])
                    .is_ok()
                {}
            }
        }
    }
    reasons
}

fn connected() -> (tempfile::TempDir, Connection, [Hobj; 2]) {
    let (directory, queue_manager) = queue_manager(&QUEUES);
    let mut connection = Connection::connect(queue_manager, "").unwrap();
    let hobjs = QUEUES.map(|queue| {
        connection
            .open(
                &mut Mqod::queue(queue),
                MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE,
            )
            .unwrap()
    });
    (directory, connection, hobjs)
}

/// Gets and browses, truncation refused and accepted.
const GET_OPTIONS: [i32; 4] = [
    MQGMO_NO_SYNCPOINT,
    MQGMO_NO_SYNCPOINT | MQGMO_ACCEPT_TRUNCATED_MSG,
    MQGMO_BROWSE_FIRST,
    MQGMO_BROWSE_FIRST | MQGMO_ACCEPT_TRUNCATED_MSG,
];

#[test]
fn plain_messages_truncated_or_not_got_or_browsed() {
    let (_directory, mut connection, hobjs) = connected();
    let data: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
    for data in [&data[..], b""] {
        let message = Message {
            puts: vec![(Mqmd::default(), data.to_vec())],
            put_options: 0,
            properties: false,
        };
        let lengths = [0, 1, 999, 1000, 1001, 4 * 1024 * 1024];
        let reasons = same_both_ways(
            &mut connection,
            hobjs,
            &message,
            &Mqmd::default(),
            &GET_OPTIONS,
            &lengths,
        );
        let expected = if data.is_empty() {
            vec![MQRC_NONE]
        } else {
            vec![
                MQRC_NONE,
                MQRC_TRUNCATED_MSG_ACCEPTED,
                MQRC_TRUNCATED_MSG_FAILED,
            ]
        };
        assert_eq!(reasons.into_iter().collect::<Vec<_>>(), expected);
    }
}

#[test]
fn converted_messages_that_grow_past_the_buffer() {
    let (_directory, mut connection, hobjs) = connected();
    // 819 to 1208: every e-acute doubles, 50 bytes become 60.
    let text: Vec<u8> = b"caf\xe9 ".repeat(10);
    let message = Message {
        puts: vec![(
            Mqmd {
                format: MQFMT_STRING,
                coded_char_set_id: 819,
                ..Mqmd::default()
            },
            text,
        )],
        put_options: 0,
        properties: false,
    };
    let requested = Mqmd {
        coded_char_set_id: 1208,
        ..Mqmd::default()
    };
    let options = GET_OPTIONS.map(|options| options | MQGMO_CONVERT);
    let lengths = [0, 49, 50, 55, 59, 60, 61, 4096];
    let reasons = same_both_ways(
        &mut connection,
        hobjs,
        &message,
        &requested,
        &options,
        &lengths,
    );
    for reason in [
        MQRC_NONE,
        MQRC_TRUNCATED_MSG_ACCEPTED,
        MQRC_TRUNCATED_MSG_FAILED,
        MQRC_CONVERTED_MSG_TOO_BIG,
    ] {
        assert!(reasons.contains(&reason), "{reason} among {reasons:?}");
    }
    // And one that cannot be converted (no such CCSID): got unconverted with a warning.
    let unknown = Mqmd {
        coded_char_set_id: 65000,
        ..requested
    };
    let reasons = same_both_ways(
        &mut connection,
        hobjs,
        &message,
        &unknown,
        &options,
        &[10, 4096],
    );
    assert!(reasons.contains(&MQRC_TARGET_CCSID_ERROR), "{reasons:?}");
}

#[test]
fn properties_in_an_mqrfh2_or_dropped() {
    let (_directory, mut connection, hobjs) = connected();
    let message = Message {
        puts: vec![(
            Mqmd {
                format: MQFMT_STRING,
                ..Mqmd::default()
            },
            b"body".to_vec(),
        )],
        put_options: 0,
        properties: true,
    };
    let mut options = Vec::new();
    for extra in [0, MQGMO_NO_PROPERTIES, MQGMO_PROPERTIES_FORCE_MQRFH2] {
        options.extend(GET_OPTIONS.map(|options| options | extra));
    }
    let lengths = [0, 3, 4, 5, 100, 1000];
    same_both_ways(
        &mut connection,
        hobjs,
        &message,
        &Mqmd::default(),
        &options,
        &lengths,
    );
}

#[test]
fn segments_reassembled_or_got_one_by_one() {
    let (_directory, mut connection, hobjs) = connected();
    let segment = |flags: i32| Mqmd {
        msg_flags: flags,
        ..Mqmd::default()
    };
    let message = Message {
        puts: vec![
            (segment(MQMF_SEGMENT), b"hello ".to_vec()),
            (segment(MQMF_SEGMENT), b"segmented ".to_vec()),
            (segment(MQMF_LAST_SEGMENT), b"world".to_vec()),
        ],
        put_options: MQPMO_LOGICAL_ORDER,
        properties: false,
    };
    let mut options = Vec::new();
    for extra in [
        MQGMO_COMPLETE_MSG,
        MQGMO_ALL_SEGMENTS_AVAILABLE,
        MQGMO_LOGICAL_ORDER,
    ] {
        options.extend(GET_OPTIONS.map(|options| options | extra));
    }
    let lengths = [0, 5, 6, 20, 21, 22, 1000];
    same_both_ways(
        &mut connection,
        hobjs,
        &message,
        &Mqmd::default(),
        &options,
        &lengths,
    );
}

#[test]
fn the_vec_grows_by_the_bytes_returned_only() {
    let (_directory, mut connection, hobjs) = connected();
    let hobj = hobjs[1];
    put(&mut connection, hobj, MQPMO_NO_SYNCPOINT, &[7; 1000]);
    let mut data = Vec::new();
    let got = connection
        .get_appending(
            hobj,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut data,
            100 * 1024 * 1024,
        )
        .unwrap();
    assert_eq!((got.data_length, got.returned_length), (1000, 1000));
    assert_eq!(data, [7; 1000]);
    assert!(data.capacity() < 4096, "{} bytes reserved", data.capacity());
}
