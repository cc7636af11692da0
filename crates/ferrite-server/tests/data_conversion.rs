//! MQGMO_CONVERT through a SVRCONN channel with Ferrite's Rust client, in both byte orders:
//! string messages between UTF-8, Latin-1, UTF-16 and EBCDIC, an MQRFH2 message put big-endian
//! and got little-endian (and the reverse), and the warnings of messages that cannot be
//! converted or grow past the buffer.

mod support;

use ferrite_client::{ClientOptions, Connection};
use ferrite_constants::{
    encoding::{MQENC_NATIVE, MQENC_NORMAL},
    format::{MQFMT_NONE, MQFMT_RF_HEADER_2, MQFMT_STRING},
    get_options::*,
    open_options::*,
    put_options::*,
    reason::*,
};
use ferrite_message::{Folder, Rfh2};
use ferrite_mqi::{Hobj, MqResult, Mqcno, Mqgmo, Mqmd, Mqod};
use ferrite_protocol::ByteOrder;
use ferrite_server::ServerConfig;

use support::{listen, Listener};

const QUEUE: &str = "FERRITE.CONVERT.Q";

fn connect(listener: &Listener, order: ByteOrder) -> Connection {
    Connection::connect_client(
        &listener.address(),
        "DEV.APP.SVRCONN",
        "QM1",
        &Mqcno::default(),
        &ClientOptions {
            byte_order: Some(order),
            ..ClientOptions::default()
        },
    )
    .unwrap()
}

fn put(connection: &mut Connection, hobj: Hobj, md: Mqmd, data: &[u8]) {
    let mut md = md;
    ferrite_test_kit::put_md(connection, hobj, &mut md, MQPMO_NO_SYNCPOINT, data).unwrap();
}

/// MQGET with MQGMO_CONVERT asking for (`ccsid`, `encoding`) into a buffer of `room` bytes.
fn get_converted(
    connection: &mut Connection,
    hobj: Hobj,
    ccsid: i32,
    encoding: i32,
    room: usize,
    extra_options: i32,
) -> (MqResult<ferrite_mqi::GetResult>, Mqmd, Vec<u8>) {
    let mut md = Mqmd {
        coded_char_set_id: ccsid,
        encoding,
        ..Mqmd::default()
    };
    let mut buffer = vec![0u8; room];
    let result = connection.get(
        hobj,
        &mut md,
        &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_CONVERT | extra_options),
        &mut buffer,
    );
    if let Ok(got) = &result {
        buffer.truncate(got.returned_length);
    }
    (result, md, buffer)
}

fn string_md(ccsid: i32, encoding: i32) -> Mqmd {
    Mqmd {
        format: MQFMT_STRING,
        coded_char_set_id: ccsid,
        encoding,
        ..Mqmd::default()
    }
}

#[test]
fn string_messages_are_converted_between_ascii_utf16_and_ebcdic_in_both_byte_orders() {
    let listener = listen(support::start_with(&[QUEUE], ServerConfig::default()));
    let text = "Grüße [Ferrite] 100€";
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let mut connection = connect(&listener, order);
        let hobj = connection
            .open(&mut Mqod::queue(QUEUE), MQOO_OUTPUT | MQOO_INPUT_SHARED)
            .unwrap();

        // UTF-8 to EBCDIC 1140 (which has the euro sign).
        put(
            &mut connection,
            hobj,
            string_md(1208, MQENC_NATIVE),
            text.as_bytes(),
        );
        let (result, md, data) = get_converted(&mut connection, hobj, 1140, MQENC_NORMAL, 100, 0);
        let got = result.unwrap();
        assert_eq!(got.warning, None, "{order:?}");
        assert_eq!((md.coded_char_set_id, md.encoding), (1140, MQENC_NORMAL));
        assert_eq!(
            &data[..6],
            &[0xC7, 0x99, 0xDC, 0x59, 0x85, 0x40],
            "Grüße in 1140"
        );
        assert_eq!(data[data.len() - 1], 0x9F, "the euro sign");
        assert_eq!(data.len(), text.chars().count());

        // UTF-16 big-endian to UTF-16 little-endian to UTF-8.
        let utf16: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        put(&mut connection, hobj, string_md(1200, MQENC_NORMAL), &utf16);
        let (result, md, data) = get_converted(&mut connection, hobj, 1200, MQENC_NATIVE, 100, 0);
        assert_eq!(result.unwrap().warning, None);
        assert_eq!(md.encoding, MQENC_NATIVE);
        let little: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(data, little);
        put(
            &mut connection,
            hobj,
            string_md(1200, MQENC_NATIVE),
            &little,
        );
        let (result, _, data) = get_converted(&mut connection, hobj, 0, MQENC_NATIVE, 100, 0);
        assert_eq!(result.unwrap().warning, None);
        assert_eq!(data, text.as_bytes(), "MQCCSI_Q_MGR: 1208");

        // EBCDIC 37 back to Latin-1, without a euro sign: substituted.
        put(
            &mut connection,
            hobj,
            string_md(1208, MQENC_NATIVE),
            "ABC é €".as_bytes(),
        );
        let (result, _, ebcdic) = get_converted(&mut connection, hobj, 37, MQENC_NATIVE, 100, 0);
        assert_eq!(result.unwrap().warning, None);
        assert_eq!(ebcdic, [0xC1, 0xC2, 0xC3, 0x40, 0x51, 0x40, 0x3F]);
        put(&mut connection, hobj, string_md(37, MQENC_NORMAL), &ebcdic);
        let (result, _, latin) = get_converted(&mut connection, hobj, 819, MQENC_NATIVE, 100, 0);
        assert_eq!(result.unwrap().warning, None);
        assert_eq!(latin, b"ABC \xE9 \x1A", "EBCDIC SUB is ASCII SUB");
        connection.disconnect().unwrap();
    }
}

#[test]
fn messages_that_cannot_be_converted_are_got_unconverted_with_a_warning() {
    let listener = listen(support::start_with(&[QUEUE], ServerConfig::default()));
    let mut connection = connect(&listener, ByteOrder::Little);
    let hobj = connection
        .open(&mut Mqod::queue(QUEUE), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    let cases: [(Mqmd, &[u8], i32, i32); 4] = [
        (
            string_md(4321, MQENC_NATIVE),
            b"abc",
            1208,
            MQRC_SOURCE_CCSID_ERROR,
        ),
        (
            string_md(1208, MQENC_NATIVE),
            b"abc",
            4321,
            MQRC_TARGET_CCSID_ERROR,
        ),
        (
            string_md(1208, MQENC_NATIVE),
            b"\xC3\x28",
            37,
            MQRC_NOT_CONVERTED,
        ),
        (
            Mqmd {
                format: MQFMT_NONE,
                ..string_md(1208, MQENC_NATIVE)
            },
            b"bin",
            37,
            MQRC_FORMAT_ERROR,
        ),
    ];
    for (md, data, target, reason) in cases {
        put(&mut connection, hobj, md.clone(), data);
        let (result, got_md, got) =
            get_converted(&mut connection, hobj, target, MQENC_NATIVE, 64, 0);
        let warning = result.unwrap().warning.expect("a warning");
        assert_eq!(warning.reason, reason, "{data:?} to {target}");
        assert_eq!(got, data, "returned unconverted");
        assert_eq!(got_md.coded_char_set_id, md.coded_char_set_id);
    }

    // UTF-8 to UTF-16 doubles the length: past a buffer the original fitted.
    put(
        &mut connection,
        hobj,
        string_md(1208, MQENC_NATIVE),
        b"abcdef",
    );
    let (result, md, data) = get_converted(&mut connection, hobj, 1200, MQENC_NORMAL, 8, 0);
    let got = result.unwrap();
    assert_eq!(got.warning.unwrap().reason, MQRC_CONVERTED_MSG_TOO_BIG);
    assert_eq!(
        (data.as_slice(), md.coded_char_set_id),
        (&b"abcdef"[..], 1208)
    );
    // With MQGMO_ACCEPT_TRUNCATED_MSG: converted, cut to the buffer.
    put(
        &mut connection,
        hobj,
        string_md(1208, MQENC_NATIVE),
        b"abcdef",
    );
    let (result, md, data) = get_converted(
        &mut connection,
        hobj,
        1200,
        MQENC_NORMAL,
        8,
        MQGMO_ACCEPT_TRUNCATED_MSG,
    );
    let got = result.unwrap();
    assert_eq!(got.warning.unwrap().reason, MQRC_TRUNCATED_MSG_ACCEPTED);
    assert_eq!(got.data_length, 12, "DataLength: the converted length");
    assert_eq!(data, [0, b'a', 0, b'b', 0, b'c', 0, b'd']);
    assert_eq!(md.coded_char_set_id, 1200);
    // Too long even unconverted: stays on the queue, as without conversion.
    put(
        &mut connection,
        hobj,
        string_md(1208, MQENC_NATIVE),
        b"abcdefghij",
    );
    let (result, _, _) = get_converted(&mut connection, hobj, 37, MQENC_NATIVE, 4, 0);
    assert_eq!(result.unwrap_err().reason, MQRC_TRUNCATED_MSG_FAILED);
    let (result, _, data) = get_converted(&mut connection, hobj, 37, MQENC_NATIVE, 64, 0);
    assert_eq!(result.unwrap().warning, None);
    assert_eq!(data.len(), 10);
    connection.disconnect().unwrap();
}

fn rfh2_message(order: ByteOrder, encoding: i32) -> Vec<u8> {
    let mut header = Rfh2::new(encoding, 1208, MQFMT_STRING);
    header
        .push_folder(
            &Folder::parse("<usr><Colour>vert</Colour></usr>").unwrap(),
            order,
        )
        .unwrap();
    let mut data = header.build(order).unwrap();
    data.extend_from_slice("corps é".as_bytes());
    data
}

#[test]
fn an_rfh2_message_put_in_one_byte_order_is_got_in_the_other() {
    let listener = listen(support::start_with(&[QUEUE], ServerConfig::default()));
    for (put_order, put_encoding, get_order, get_encoding) in [
        (
            ByteOrder::Big,
            MQENC_NORMAL,
            ByteOrder::Little,
            MQENC_NATIVE,
        ),
        (
            ByteOrder::Little,
            MQENC_NATIVE,
            ByteOrder::Big,
            MQENC_NORMAL,
        ),
    ] {
        let mut putter = connect(&listener, put_order);
        let hobj = putter.open(&mut Mqod::queue(QUEUE), MQOO_OUTPUT).unwrap();
        let md = Mqmd {
            format: MQFMT_RF_HEADER_2,
            coded_char_set_id: 1208,
            encoding: put_encoding,
            ..Mqmd::default()
        };
        put(
            &mut putter,
            hobj,
            md,
            &rfh2_message(put_order, put_encoding),
        );
        putter.disconnect().unwrap();

        let mut getter = connect(&listener, get_order);
        let hobj = getter
            .open(&mut Mqod::queue(QUEUE), MQOO_INPUT_SHARED)
            .unwrap();
        let (result, md, data) = get_converted(&mut getter, hobj, 819, get_encoding, 512, 0);
        assert_eq!(result.unwrap().warning, None);
        assert_eq!((md.coded_char_set_id, md.encoding), (819, get_encoding));
        let (header, length) = Rfh2::parse(&data, get_order).unwrap();
        assert_eq!(
            header.encoding, get_encoding,
            "the header's integers in the getter's order"
        );
        assert_eq!(header.coded_char_set_id, 819);
        let folders = header.folders(get_order).unwrap();
        assert_eq!(folders.len(), 1);
        assert_eq!(&data[length..], b"corps \xE9", "the body in Latin-1");
        getter.disconnect().unwrap();
    }
}
