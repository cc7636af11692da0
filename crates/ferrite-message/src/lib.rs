//! IBM MQ message headers and properties, as a pure library (no storage engine, no I/O).
//!
//! A queue manager needs to look inside messages in a few places: to read and write message
//! properties (MQSETMP/MQINQMP with message handles, or properties carried in an MQRFH2 in the
//! message data, depending on the queue's PROPCTL), to select messages by a JMS/SQL92 selector,
//! to put the right header on a message it dead-letters (MQDLH) or queues for a remote queue
//! manager (MQXQH). This crate does exactly that, with IBM's documented layouts and MQ's
//! numeric constants (from `ferrite-constants`), in both byte orders:
//!
//! - [`rfh2`]: MQRFH2 parse/build and chains of headers; [`folder`]: the XML-like folders in
//!   its NameValueData (`<usr><Colour>red</Colour></usr>`).
//! - [`properties`]: typed property values (MQTYPE_*), property sets, MQ's name rules, the
//!   folder mapping, and [`properties::PropertySource`], what selectors evaluate against.
//! - [`jms`]: the JMS header fields mapped onto the MQMD and the `jms`/`mcd` folders.
//! - [`selector`]: MQ's message selector language, with the get-by-CORRELID/MSGID shortcut.
//! - [`property_control`]: where properties go at MQPUT and MQGET (PROPCTL, MQGMO options).
//! - [`message_handles`]: MQ's message handles (MQCRTMH ... MQDLTMP) and what MQPUT and MQGET
//!   do with them, on `ferrite-mqi-types`' MQMD and reason codes.
//! - [`dead_letter_header`] (MQDLH) and [`transmission_header`] (MQXQH).
//! - [`conversion`]: data conversion for MQGMO_CONVERT (MQSTR, MQRFH2, MQDLH between the
//!   CCSIDs of [`code_pages`], UTF-8 and UTF-16, in both byte orders).
//! - [`trigger_message`]: MQTM (trigger messages) and MQTMC2 (their character form).
//!
//! Every decoder is total: malformed input gives an error carrying MQ's reason code, never a
//! panic. The `fuzz_*` functions below drive each decoder from arbitrary bytes, for cargo-fuzz
//! targets and the corpus replay in `tests/corpus.rs`.
//!
//! # How the queue manager is meant to use it (not wired in yet)
//!
//! - MQPUT: if MQMD.Format is `MQHRF2  ` (or the put supplies a message handle),
//!   [`property_control::split_message_data`] yields the properties; the queue manager stores
//!   them beside the message (or keeps the RFH2 bytes and parses on demand), so that selection
//!   never re-parses message bodies.
//! - MQOPEN with a SelectionString: [`Selector::parse`] (MQRC_SELECTOR_SYNTAX_ERROR on error;
//!   [`Selector::constant_value`] gives MQRC_SELECTOR_ALWAYS_FALSE). MQGET on that handle:
//!   if [`Selector::correlation_id_equality`] (or `message_id_equality`) gives a key, walk only
//!   the CORRELID (MSGID) index entries for it; otherwise walk the queue in delivery order.
//!   Either way, a message is eligible when [`Selector::matches`] is true for a
//!   [`MessageView`] over its MQMD and stored properties.
//! - MQGET: [`property_control::property_delivery`] with the getter's MQGMO options, whether it
//!   passed a message handle and the queue's PROPCTL; then either hand the properties to the
//!   handle or [`property_control::join_message_data`] them back in front of the body.
//! - Dead-letter queue and transmission queues: [`DeadLetterHeader`] and
//!   [`TransmissionHeader`] in front of the message data, with the MQMD Format set to
//!   `MQDEAD  ` or `MQXMIT  `.

pub mod code_pages;
mod codec;
pub mod conversion;
pub mod dead_letter_header;
pub mod folder;
pub mod jms;
pub mod message_handles;
pub mod properties;
pub mod property_control;
pub mod rfh2;
pub mod selector;
pub mod transmission_header;
pub mod trigger_message;

pub use dead_letter_header::{DeadLetterHeader, HeaderError};
pub use folder::Folder;
pub use properties::{MessageProperties, MessageView, PropertySource, PropertyValue};
pub use rfh2::Rfh2;
pub use selector::{Selector, SelectorError};
pub use transmission_header::TransmissionHeader;
pub use trigger_message::TriggerMessage;

use ferrite_constants::{encoding::MQENC_NATIVE, format::MQFMT_RF_HEADER_2};
use ferrite_protocol::{mqi::Md, ByteOrder};

/// Fuzz entry point for selectors: parses `data` (lossily as UTF-8) and, if it parses,
/// evaluates it against a few messages and asks for its CorrelId/MsgId shortcuts. Checks that
/// the shortcut agrees with evaluation. Never panics on any input (that is the property).
pub fn fuzz_selector(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(selector) = Selector::parse(&text) else {
        return;
    };
    let md = Md {
        correl_id: *b"order-17\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        msg_id: [0x41; 24],
        priority: 4,
        persistence: 1,
        ..Md::default()
    };
    let mut properties = MessageProperties::new();
    for (name, value) in [
        ("Colour", PropertyValue::String("red".into())),
        ("Count", PropertyValue::Int32(3)),
        ("Ratio", PropertyValue::Float64(0.5)),
        ("Flag", PropertyValue::Boolean(true)),
        ("Bytes", PropertyValue::ByteString(vec![0x0A, 0xFC])),
        ("Nothing", PropertyValue::Null),
    ] {
        properties.set(name, value).expect("fixed valid names");
    }
    let view = MessageView {
        descriptor: &md,
        properties: &properties,
    };
    let selected = selector.matches(&view);
    if let Some(correl_id) = selector.correlation_id_equality() {
        assert!(
            !selected || correl_id == md.correl_id,
            "selector {text:?} selected a message whose CorrelId differs from its shortcut"
        );
    }
    if let Some(msg_id) = selector.message_id_equality() {
        assert!(
            !selected || msg_id == md.msg_id,
            "selector {text:?} selected a message whose MsgId differs from its shortcut"
        );
    }
    let _ = selector.constant_value();
}

/// The fuzz entry points' byte order, picked by the first byte's low bit, and the bytes after
/// it; None for no bytes.
fn fuzz_byte_order(data: &[u8]) -> Option<(ByteOrder, &[u8])> {
    let (&first, rest) = data.split_first()?;
    let order = if first & 1 == 0 {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    };
    Some((order, rest))
}

/// Fuzz entry point for MQRFH2: the first byte picks the byte order, the rest is parsed as a
/// chain of headers; every folder is decoded and turned into properties, and whatever parses
/// is rebuilt and must parse back to the same thing.
pub fn fuzz_rfh2(data: &[u8]) {
    let Some((order, rest)) = fuzz_byte_order(data) else {
        return;
    };
    let Ok((header, length)) = Rfh2::parse(rest, order) else {
        let _ = rfh2::parse_chain(rest, MQENC_NATIVE, 1208, MQFMT_RF_HEADER_2);
        return;
    };
    let rebuilt = header.build(order).expect("a parsed header builds");
    assert_eq!(
        rebuilt,
        rest[..length],
        "MQRFH2 build(parse(b)) must equal b"
    );
    if let Ok(folders) = header.folders(order) {
        for folder in &folders {
            let reparsed = Folder::parse(&folder.to_xml()).expect("written folders parse");
            assert_eq!(&reparsed, folder, "folder round trip");
        }
        if let Ok((properties, _)) = MessageProperties::from_folders(&folders) {
            let rebuilt = properties.to_folders();
            let _ = MessageProperties::from_folders(&rebuilt);
        }
    }
    let _ = rfh2::parse_chain(rest, MQENC_NATIVE, 1208, MQFMT_RF_HEADER_2);
}

/// Fuzz entry point for MQRFH2 folder text alone.
pub fn fuzz_folder(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(folder) = Folder::parse(&text) {
        let reparsed = Folder::parse(&folder.to_xml()).expect("written folders parse");
        assert_eq!(reparsed, folder, "folder round trip");
        let _ = MessageProperties::from_folders(&[folder]);
    }
}

/// Fuzz entry point for MQDLH: the first byte picks the byte order; whatever decodes must
/// encode back to the same bytes, modulo trailing blanks vs NULs in character fields.
pub fn fuzz_dead_letter_header(data: &[u8]) {
    fuzz_header_round_trip(data, DeadLetterHeader::decode, DeadLetterHeader::encode);
}

/// Fuzz entry point for MQXQH, like [`fuzz_dead_letter_header`].
pub fn fuzz_transmission_header(data: &[u8]) {
    fuzz_header_round_trip(data, TransmissionHeader::decode, TransmissionHeader::encode);
}

/// The header fuzz entry points' one check: the first byte picks the byte order; whatever
/// `decode` takes from the rest, `encode` must write back to bytes that decode to it again.
fn fuzz_header_round_trip<H: PartialEq + std::fmt::Debug>(
    data: &[u8],
    decode: fn(&[u8], ByteOrder) -> Result<H, HeaderError>,
    encode: fn(&H, ByteOrder) -> Result<Vec<u8>, HeaderError>,
) {
    let Some((order, rest)) = fuzz_byte_order(data) else {
        return;
    };
    if let Ok(header) = decode(rest, order) {
        if let Ok(bytes) = encode(&header, order) {
            assert_eq!(decode(&bytes, order), Ok(header));
        }
    }
}

/// Fuzz entry point for data conversion: byte 0 picks the format (MQSTR, MQHRF2, MQDEAD,
/// none), bytes 1 and 2 the source and target CCSIDs (from the supported ones and two unknown),
/// byte 3 the two encodings; the rest is the message. Whatever it is must convert or fail with
/// one of MQ's conversion reasons, never panic; a string converted to UTF-8 is valid UTF-8.
pub fn fuzz_conversion(data: &[u8]) {
    use ferrite_constants::format::{MQFMT_DEAD_LETTER_HEADER, MQFMT_NONE, MQFMT_STRING};
    const CCSIDS: [i32; 13] = [
        819, 1208, 437, 850, 1252, 37, 500, 1047, 1140, 1200, 13488, 0, 4321,
    ];
    let [format, from, to, encodings, rest @ ..] = data else {
        return;
    };
    let format = [
        MQFMT_STRING,
        MQFMT_RF_HEADER_2,
        MQFMT_DEAD_LETTER_HEADER,
        MQFMT_NONE,
    ][*format as usize % 4];
    let from = CCSIDS[*from as usize % CCSIDS.len()];
    let to = CCSIDS[*to as usize % CCSIDS.len()];
    let encoding = |bits: u8| if bits & 1 == 0 { 0x111 } else { 0x222 };
    match conversion::convert_message(
        &format,
        from,
        encoding(*encodings),
        rest,
        to,
        encoding(encodings >> 1),
    ) {
        Ok(converted) => {
            if format == MQFMT_STRING && to == 1208 {
                assert!(std::str::from_utf8(&converted.data).is_ok(), "UTF-8 out");
            }
        }
        Err(error) => assert!((2110..=2120).contains(&error.reason_code())),
    }
}

/// Fuzz entry point for MQTM and MQTMC2: the first byte picks the byte order; whatever decodes
/// must encode back to the same bytes (modulo trailing blanks vs NULs in character fields),
/// and the rest is also tried as an MQTMC2.
pub fn fuzz_trigger_message(data: &[u8]) {
    let Some((order, rest)) = fuzz_byte_order(data) else {
        return;
    };
    if let Ok(message) = TriggerMessage::decode(rest, order) {
        if let Ok(bytes) = message.encode(order) {
            assert_eq!(TriggerMessage::decode(&bytes, order), Ok(message.clone()));
        }
        if let Ok(character) = message.character_form("QM1") {
            let (again, q_mgr_name) = TriggerMessage::decode_character_form(&character)
                .expect("an MQTMC2 built from an MQTM decodes");
            assert_eq!((again, q_mgr_name.as_str()), (message, "QM1"));
        }
    }
    let _ = TriggerMessage::decode_character_form(rest);
}
