//! Golden byte vectors, built by hand from IBM's documented layouts (not with this crate's
//! encoders), checked against what the crate builds and parses:
//!
//! - the V7.0 performance report's publish with `COLOUR=BLUE`: MQRFH2 (36) + NameValueLength
//!   (4) + `<usr><COLOUR>BLUE</COLOUR></usr>` (32) + 100 bytes of data = 172 bytes;
//! - a JMS TextMessage as the IBM MQ classes for JMS write it: MQMD Format "MQHRF2  ",
//!   Encoding 273 (big-endian integers, Java's MQENC_NATIVE), then an MQRFH2 with the `mcd`,
//!   `jms` and `usr` folders in UTF-8 (1208), each blank padded to a multiple of 4, then the
//!   text in the Format the MQRFH2 names ("MQSTR   ").

use ferrite_constants::{format::MQFMT_RF_HEADER_2, persistence::MQPER_PERSISTENT};
use ferrite_message::{
    jms::{self, JmsHeaders, MessageDomain},
    rfh2::{self, Rfh2},
    Folder, MessageProperties, MessageView, PropertyValue, Selector,
};
use ferrite_protocol::{mqi::Md, ByteOrder, MqChars};

fn padded(folder: &str) -> Vec<u8> {
    let mut bytes = folder.as_bytes().to_vec();
    while !bytes.len().is_multiple_of(4) {
        bytes.push(b' ');
    }
    bytes
}

/// An MQRFH2 written field by field in big-endian: Encoding 273, CCSID 1208, Format MQSTR.
fn hand_built_rfh2(folders: &[&str], order: ByteOrder) -> Vec<u8> {
    let int = |v: i32| match order {
        ByteOrder::Big => v.to_be_bytes(),
        ByteOrder::Little => v.to_le_bytes(),
    };
    let data: Vec<Vec<u8>> = folders.iter().map(|f| padded(f)).collect();
    let length = 36 + data.iter().map(|d| 4 + d.len()).sum::<usize>();
    let mut out = Vec::new();
    out.extend_from_slice(b"RFH "); //  0 StrucId
    out.extend_from_slice(&int(2)); //  4 Version
    out.extend_from_slice(&int(length as i32)); //  8 StrucLength
    out.extend_from_slice(&int(273)); // 12 Encoding of what follows
    out.extend_from_slice(&int(1208)); // 16 CodedCharSetId of what follows
    out.extend_from_slice(b"MQSTR   "); // 20 Format of what follows
    out.extend_from_slice(&int(0)); // 28 Flags
    out.extend_from_slice(&int(1208)); // 32 NameValueCCSID
    for d in &data {
        out.extend_from_slice(&int(d.len() as i32)); // NameValueLength
        out.extend_from_slice(d); // NameValueData
    }
    assert_eq!(out.len(), length);
    out
}

#[test]
fn v7_report_publish_with_one_property_is_172_bytes() {
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let mut expected = hand_built_rfh2(&["<usr><COLOUR>BLUE</COLOUR></usr>"], order);
        expected.extend_from_slice(&[b'x'; 100]);
        assert_eq!(expected.len(), 172);

        let mut properties = MessageProperties::new();
        properties
            .set("COLOUR", PropertyValue::String("BLUE".into()))
            .unwrap();
        let mut header = Rfh2::new(273, 1208, *b"MQSTR   ");
        for folder in properties.to_folders() {
            header.push_folder(&folder, order).unwrap();
        }
        let mut built = header.build(order).unwrap();
        built.extend_from_slice(&[b'x'; 100]);
        assert_eq!(built, expected);
    }
}

const JMS_FOLDERS: [&str; 3] = [
    "<mcd><Msd>jms_text</Msd></mcd>",
    "<jms><Dst>queue:///APP.REQUEST</Dst><Rto>queue://QM1/APP.REPLY</Rto><Tms>1700000000000</Tms><Cid>order-17</Cid><Dlv>2</Dlv></jms>",
    "<usr><Colour>red</Colour><Count dt='i4'>3</Count><Ratio dt='r8'>2.5E0</Ratio><Urgent dt='boolean'>1</Urgent><Note>a &lt; b &amp; c</Note></usr>",
];

fn jms_message() -> (Md, Vec<u8>) {
    let mut data = hand_built_rfh2(&JMS_FOLDERS, ByteOrder::Big);
    data.extend_from_slice(b"hello");
    let md = Md {
        version: 2,
        encoding: 273,
        coded_char_set_id: 1208,
        format: MqChars(MQFMT_RF_HEADER_2),
        persistence: MQPER_PERSISTENT,
        priority: 4,
        correl_id: jms::correlation_id_bytes("order-17"),
        msg_id: [0x41; 24],
        reply_to_q: MqChars::new("APP.REPLY").unwrap(),
        reply_to_q_mgr: MqChars::new("QM1").unwrap(),
        ..Md::default()
    };
    (md, data)
}

#[test]
fn jms_text_message_as_the_ibm_client_writes_it() {
    let (md, data) = jms_message();
    let chain =
        rfh2::parse_chain(&data, md.encoding, md.coded_char_set_id, MQFMT_RF_HEADER_2).unwrap();
    assert_eq!(chain.headers.len(), 1);
    assert_eq!(chain.body_format, *b"MQSTR   ");
    assert_eq!(chain.body_coded_char_set_id, 1208);
    assert_eq!(&data[chain.body_offset..], b"hello");
    let (header, order) = &chain.headers[0];
    assert_eq!(*order, ByteOrder::Big);
    let folders = header.folders(*order).unwrap();
    let (properties, others) = MessageProperties::from_folders(&folders).unwrap();
    assert!(others.is_empty());

    let string = |s: &str| Some(PropertyValue::String(s.into()));
    assert_eq!(properties.get("mcd.Msd").cloned(), string("jms_text"));
    assert_eq!(MessageDomain::parse("jms_text"), Some(MessageDomain::Text));
    assert_eq!(properties.get("Colour").cloned(), string("red"));
    assert_eq!(properties.get("Count"), Some(&PropertyValue::Int32(3)));
    assert_eq!(properties.get("Ratio"), Some(&PropertyValue::Float64(2.5)));
    assert_eq!(
        properties.get("Urgent"),
        Some(&PropertyValue::Boolean(true))
    );
    assert_eq!(properties.get("Note").cloned(), string("a < b & c"));

    let view = MessageView {
        descriptor: &md,
        properties: &properties,
    };
    let header = |name| jms::header_value(&view, name).unwrap();
    assert_eq!(header("JMSDestination"), string("queue:///APP.REQUEST"));
    assert_eq!(header("JMSReplyTo"), string("queue://QM1/APP.REPLY"));
    assert_eq!(header("JMSCorrelationID"), string("order-17"));
    assert_eq!(header("JMSDeliveryMode"), string("PERSISTENT"));
    assert_eq!(
        header("JMSTimestamp"),
        Some(PropertyValue::Int64(1_700_000_000_000))
    );
    assert_eq!(
        header("JMSMessageID"),
        string(&format!("ID:{}", "41".repeat(24)))
    );

    for (selector, expected) in [
        ("Colour = 'red' AND Count > 2", true),
        ("JMSCorrelationID = 'order-17'", true),
        ("JMSCorrelationID = 'order-18'", false),
        ("JMSDeliveryMode = 'PERSISTENT' AND JMSPriority = 4", true),
        ("JMSTimestamp BETWEEN 1600000000000 AND 1800000000000", true),
        ("Urgent AND Ratio > 2", true),
        ("Note LIKE 'a <%'", true),
        ("mcd.Msd = 'jms_text'", true),
    ] {
        let parsed = Selector::parse(selector).unwrap();
        assert_eq!(parsed.matches(&view), expected, "{selector}");
    }
    let shortcut = Selector::parse("JMSCorrelationID = 'order-17' AND Colour = 'red'").unwrap();
    assert_eq!(shortcut.correlation_id_equality(), Some(md.correl_id));
}

#[test]
fn jms_properties_round_trip_through_a_rebuilt_rfh2() {
    let (md, data) = jms_message();
    let chain = rfh2::parse_chain(&data, 273, 1208, MQFMT_RF_HEADER_2).unwrap();
    let (header, order) = &chain.headers[0];
    let (properties, _) =
        MessageProperties::from_folders(&header.folders(*order).unwrap()).unwrap();

    // Rebuild from the properties, as the queue manager does for a PROPCTL getter, in the
    // other byte order.
    let mut rebuilt = Rfh2::new(273, 1208, *b"MQSTR   ");
    for folder in properties.to_folders() {
        rebuilt.push_folder(&folder, ByteOrder::Little).unwrap();
    }
    let bytes = rebuilt.build(ByteOrder::Little).unwrap();
    let (parsed, _) = Rfh2::parse(&bytes, ByteOrder::Little).unwrap();
    let (again, _) =
        MessageProperties::from_folders(&parsed.folders(ByteOrder::Little).unwrap()).unwrap();
    assert_eq!(again, properties);
    let folders: Vec<String> = parsed
        .folders(ByteOrder::Little)
        .unwrap()
        .iter()
        .map(Folder::to_xml)
        .collect();
    assert_eq!(folders[0], JMS_FOLDERS[0]);
    assert_eq!(folders[1], JMS_FOLDERS[1]);
    assert_eq!(
        folders[2],
        "<usr><Colour>red</Colour><Count dt='i4'>3</Count><Ratio dt='r8'>2.5E0</Ratio><Urgent dt='boolean'>1</Urgent><Note>a &lt; b &amp; c</Note></usr>"
    );

    // The same message sent through JmsHeaders gives the same MQMD fields and folders.
    let mut sent_md = Md::default();
    let mut sent = MessageProperties::new();
    JmsHeaders {
        domain: Some(MessageDomain::Text),
        destination: Some("queue:///APP.REQUEST".into()),
        reply_to: Some("queue://QM1/APP.REPLY".into()),
        timestamp_ms: Some(1_700_000_000_000),
        correlation_id: Some("order-17".into()),
        delivery_mode: Some(jms::JMS_DELIVERY_MODE_PERSISTENT),
        ..JmsHeaders::default()
    }
    .apply(&mut sent_md, &mut sent)
    .unwrap();
    assert_eq!(sent_md.correl_id, md.correl_id);
    assert_eq!(sent_md.persistence, md.persistence);
    assert_eq!(sent_md.reply_to_q, md.reply_to_q);
    let xml: Vec<String> = sent.to_folders().iter().map(Folder::to_xml).collect();
    assert_eq!(xml[0], JMS_FOLDERS[0]);
    assert_eq!(xml[1], JMS_FOLDERS[1]);
}
