//! Decoding of byte vectors written by hand from the documented layouts (not produced by the
//! encoder under test), with field-by-field assertions.

use ferrite_protocol::api::{ApiBody, ApiFlow};
use ferrite_protocol::initial_data::*;
use ferrite_protocol::segment::*;
use ferrite_protocol::uid::Uid;
use ferrite_protocol::ByteOrder;

fn pad(s: &str, n: usize) -> Vec<u8> {
    let mut v = s.as_bytes().to_vec();
    v.resize(n, b' ');
    v
}

fn le(v: i32) -> [u8; 4] {
    v.to_le_bytes()
}

/// A TSHM MQPUT segment from a little-endian client: conversation 1, request 5, Hobj 2,
/// MD v1 + PMO v1 + length + "hello".
fn tshm_mqput_bytes() -> Vec<u8> {
    let mut body = Vec::new();
    // API header: ReplyLength big-endian, then CompCode, Reason, Hobj little-endian.
    body.extend_from_slice(&[0, 0, 0x01, 0xC8]); // 456
    body.extend_from_slice(&le(0));
    body.extend_from_slice(&le(0));
    body.extend_from_slice(&le(2));
    // MQMD v1 (324 bytes).
    body.extend_from_slice(b"MD  ");
    body.extend_from_slice(&le(1)); // Version
    body.extend_from_slice(&le(0)); // Report
    body.extend_from_slice(&le(8)); // MsgType datagram
    body.extend_from_slice(&le(-1)); // Expiry
    body.extend_from_slice(&le(0)); // Feedback
    body.extend_from_slice(&le(546)); // Encoding
    body.extend_from_slice(&le(1208)); // CCSID
    body.extend_from_slice(b"MQSTR   "); // Format
    body.extend_from_slice(&le(5)); // Priority
    body.extend_from_slice(&le(1)); // Persistence
    body.extend_from_slice(&[0xA1; 24]); // MsgId
    body.extend_from_slice(&[0; 24]); // CorrelId
    body.extend_from_slice(&le(0)); // BackoutCount
    body.extend_from_slice(&pad("REPLY.Q", 48));
    body.extend_from_slice(&pad("", 48));
    body.extend_from_slice(&pad("app", 12));
    body.extend_from_slice(&[0; 32]);
    body.extend_from_slice(&pad("", 32));
    body.extend_from_slice(&le(28)); // PutApplType MQAT_JAVA
    body.extend_from_slice(&pad("PutApp", 28));
    body.extend_from_slice(&pad("", 8));
    body.extend_from_slice(&pad("", 8));
    body.extend_from_slice(&pad("", 4));
    assert_eq!(body.len(), 16 + 324);
    // MQPMO v1 (128 bytes).
    body.extend_from_slice(b"PMO ");
    body.extend_from_slice(&le(1));
    body.extend_from_slice(&le(0x2044)); // NO_SYNCPOINT | NEW_MSG_ID | FAIL_IF_QUIESCING
    body.extend_from_slice(&le(-1));
    body.extend_from_slice(&le(0));
    body.extend_from_slice(&le(0));
    body.extend_from_slice(&le(0));
    body.extend_from_slice(&le(0));
    body.extend_from_slice(&pad("", 48));
    body.extend_from_slice(&pad("", 48));
    assert_eq!(body.len(), 16 + 324 + 128);
    body.extend_from_slice(&le(5));
    body.extend_from_slice(b"hello");

    let mut seg = b"TSHM".to_vec();
    seg.extend_from_slice(&((36 + body.len()) as u32).to_be_bytes());
    seg.extend_from_slice(&1u32.to_be_bytes()); // ConversationId
    seg.extend_from_slice(&5u32.to_be_bytes()); // RequestId
    seg.extend_from_slice(&[2, 0x86, 0x30, 0]); // little-endian, MQPUT, FIRST|LAST, flags2
    seg.extend_from_slice(&[0; 8]); // LUW id
    seg.extend_from_slice(&le(546)); // Encoding
    seg.extend_from_slice(&1208u16.to_le_bytes()); // CCSID
    seg.extend_from_slice(&[0, 0]);
    seg.extend_from_slice(&body);
    seg
}

#[test]
fn tshm_mqput_field_by_field() {
    let bytes = tshm_mqput_bytes();
    let seg = Segment::decode(&bytes, DEFAULT_MAX_TRANSMISSION_SIZE).unwrap();
    let h = &seg.header;
    assert_eq!(
        h.kind,
        HeaderKind::Tshm {
            conversation_id: 1,
            request_id: 5
        }
    );
    assert_eq!(h.segment_length as usize, bytes.len());
    assert_eq!(h.byte_order, ByteOrder::Little);
    assert_eq!(h.segment_type, SegmentType::MqPut);
    assert!(h.flags1.first() && h.flags1.last());
    assert_eq!(h.encoding, 546);
    assert_eq!(h.ccsid, 1208);

    let flow = ApiFlow::decode(h.segment_type, h.byte_order, &seg.payload).unwrap();
    assert_eq!(flow.header.reply_length, 456);
    assert_eq!(flow.header.comp_code, 0);
    assert_eq!(flow.header.hobj, 2);
    let ApiBody::Put(put) = flow.body else {
        panic!("not a put: {:?}", flow.body)
    };
    assert_eq!(put.md.version, 1);
    assert_eq!(put.md.msg_type, 8);
    assert_eq!(put.md.expiry, -1);
    assert_eq!(put.md.encoding, 546);
    assert_eq!(put.md.coded_char_set_id, 1208);
    assert_eq!(put.md.format.trimmed(), "MQSTR");
    assert_eq!(put.md.priority, 5);
    assert_eq!(put.md.persistence, 1);
    assert_eq!(put.md.msg_id, [0xA1; 24]);
    assert_eq!(put.md.reply_to_q.trimmed(), "REPLY.Q");
    assert_eq!(put.md.user_identifier.trimmed(), "app");
    assert_eq!(put.md.put_appl_type, 28);
    assert_eq!(put.md.put_appl_name.trimmed(), "PutApp");
    assert_eq!(put.pmo.version, 1);
    assert_eq!(put.pmo.options, 0x2044);
    assert_eq!(put.pmo.timeout, -1);
    assert_eq!(put.data_length, 5);
    assert_eq!(put.data, b"hello");

    // And the encoder reproduces the hand-written bytes exactly.
    let payload = ApiFlow::decode(h.segment_type, h.byte_order, &seg.payload)
        .unwrap()
        .encode(ByteOrder::Little)
        .unwrap();
    assert_eq!(payload, seg.payload);
    assert_eq!(
        Segment::new(seg.header.clone(), payload).encode().unwrap(),
        bytes
    );
}

/// The INITIAL_DATA the IBM Java client 9.4.5.0 sent on loopback: "TSH ", big-endian,
/// flags 0x31, Encoding 0x111, CCSID 819, 268 bytes; ID FAP 17 with the listed values.
#[test]
fn java_client_initial_data_field_by_field() {
    let mut id = Vec::new();
    id.extend_from_slice(b"ID  ");
    id.extend_from_slice(&[17, 0x26, 0, 0]); // FAP, CapFlags1, ECapFlags1, IniErrFlags1
    id.extend_from_slice(&[0, 0, 0, 0]); // Reserved, MaxMsgsPerBatch
    id.extend_from_slice(&32748u32.to_be_bytes());
    id.extend_from_slice(&104_857_600u32.to_be_bytes());
    id.extend_from_slice(&0u32.to_be_bytes());
    id.extend_from_slice(&pad("DEV.APP.SVRCONN", 20));
    id.extend_from_slice(&[0x51, 0]); // CapFlags2, ECapFlags2
    id.extend_from_slice(&819u16.to_be_bytes());
    id.extend_from_slice(&pad("QM1", 48));
    id.extend_from_slice(&1u32.to_be_bytes()); // HB
    id.extend_from_slice(&138u16.to_be_bytes()); // EFLLength
    id.extend_from_slice(&[0, 0]); // IniErrFlags2, Reserved1
    id.extend_from_slice(&[0; 2 + 16 + 2]); // compression lists, Reserved2
    id.extend_from_slice(&0u32.to_be_bytes()); // SSLKeyReset
    id.extend_from_slice(&10i32.to_be_bytes()); // ConvPerSocket
    id.extend_from_slice(&[0x28, 0, 0, 0]); // CapFlags3, ECapFlags3, Reserved3
    id.extend_from_slice(&1234u32.to_be_bytes()); // ProcessId
    id.extend_from_slice(&56u32.to_be_bytes()); // ThreadId
    id.extend_from_slice(&0u32.to_be_bytes()); // TraceId
    id.extend_from_slice(b"MQJB09040500");
    id.extend_from_slice(&pad("", 48)); // QMgrId
    id.extend_from_slice(&[0x11; 20]); // PAL
    id.extend_from_slice(&[0x22; 12]); // R
    assert_eq!(id.len(), 240);
    let mut seg = b"TSH ".to_vec();
    seg.extend_from_slice(&268u32.to_be_bytes());
    seg.extend_from_slice(&[1, 0x01, 0x31, 0]);
    seg.extend_from_slice(&[0; 8]);
    seg.extend_from_slice(&0x111i32.to_be_bytes());
    seg.extend_from_slice(&819u16.to_be_bytes());
    seg.extend_from_slice(&[0, 0]);
    seg.extend_from_slice(&id);

    let mut dec = SegmentDecoder::default();
    dec.push(&seg);
    let s = dec.next_segment().unwrap().unwrap();
    assert!(dec.next_segment().unwrap().is_none());
    assert_eq!(s.header.kind, HeaderKind::Tsh);
    assert_eq!(s.header.segment_type, SegmentType::InitialData);
    assert_eq!(s.header.flags1.0, 0x31);
    assert!(s.header.flags1.contains(ControlFlags1::CONFIRM_REQUEST));
    assert_eq!(s.header.encoding, 0x111);
    assert_eq!(s.header.ccsid, 819);

    let d = InitialData::decode(&s.payload, s.header.byte_order).unwrap();
    assert_eq!(d.fap_level, FAP_LEVEL_JAVA_9_4);
    assert_eq!(
        d.cap_flags1,
        CAP1_CONVERSION_CAPABLE | CAP1_SPLIT_MESSAGES | CAP1_MQREQUEST
    );
    assert_eq!(d.max_transmission_size, 32748);
    assert_eq!(d.max_message_size, 104_857_600);
    assert_eq!(d.channel_name.trimmed(), "DEV.APP.SVRCONN");
    assert_eq!(
        d.cap_flags2,
        CAP2_DIST_LIST | CAP2_XAREQUEST | CAP2_SPIREQUEST
    );
    assert_eq!(d.ccsid, 819);
    assert_eq!(d.qmgr_name.trimmed(), "QM1");
    assert_eq!(d.heartbeat_interval, 1);
    assert_eq!(d.efl_length, 138);
    assert_eq!(d.conv_per_socket, 10);
    assert_eq!(d.cap_flags3, CAP3_MULTIPLEX_SYNCGET | CAP3_GEN_CONNTAG);
    assert_eq!(d.process_id, 1234);
    assert_eq!(d.thread_id, 56);
    assert_eq!(d.product_id.trimmed(), "MQJB09040500");
    assert!(d.qmgr_id.is_blank());
    assert_eq!(d.pal, [0x11; 20]);
    assert_eq!(d.r, [0x22; 12]);
    assert_eq!(d.wire_length, 240);
    assert_eq!(d.encode(ByteOrder::Big), id);
}

#[test]
fn uid_132_field_by_field() {
    let mut b = b"UID ".to_vec();
    b.extend_from_slice(&pad("ROOT", 12));
    b.extend_from_slice(&pad("", 12));
    b.extend_from_slice(&pad("root", 64));
    let mut sid = [0u8; 40];
    sid[0] = 0; // no security id
    b.extend_from_slice(&sid);
    assert_eq!(b.len(), 132);
    let u = Uid::decode(&b, ByteOrder::Big).unwrap();
    assert_eq!(u.user_id.trimmed(), "ROOT");
    assert!(u.password.is_blank());
    assert_eq!(u.extension.as_ref().unwrap().long_user_id.trimmed(), "root");
    assert_eq!(u.encode(ByteOrder::Big), b);
}

#[test]
fn mqinq_reply_big_endian() {
    let mut p = Vec::new();
    p.extend_from_slice(&0u32.to_be_bytes()); // ReplyLength
    p.extend_from_slice(&0i32.to_be_bytes());
    p.extend_from_slice(&0i32.to_be_bytes());
    p.extend_from_slice(&3i32.to_be_bytes()); // Hobj
    p.extend_from_slice(&2i32.to_be_bytes()); // SelectorCount
    p.extend_from_slice(&1i32.to_be_bytes()); // IntAttrCount
    p.extend_from_slice(&48i32.to_be_bytes()); // CharAttrLength
    p.extend_from_slice(&20i32.to_be_bytes()); // MQIA_Q_TYPE
    p.extend_from_slice(&2016i32.to_be_bytes()); // MQCA_Q_NAME
    p.extend_from_slice(&1i32.to_be_bytes()); // MQQT_LOCAL
    p.extend_from_slice(&pad("DEV.QUEUE.1", 48));
    let f = ApiFlow::decode(SegmentType::MqInqReply, ByteOrder::Big, &p).unwrap();
    assert_eq!(f.header.hobj, 3);
    let ApiBody::Inq(inq) = &f.body else { panic!() };
    assert_eq!(inq.selectors, vec![20, 2016]);
    assert_eq!(inq.int_attrs, vec![1]);
    assert_eq!(&inq.char_attrs[..11], b"DEV.QUEUE.1");
    assert_eq!(f.encode(ByteOrder::Big).unwrap(), p);
    // The same bytes as an MQINQ request: values are not expected, so they are trailing.
    let req = ApiFlow::decode(SegmentType::MqInq, ByteOrder::Big, &p).unwrap();
    let ApiBody::Inq(inq) = &req.body else {
        panic!()
    };
    assert!(inq.int_attrs.is_empty());
    assert_eq!(inq.trailing.len(), 52);
}
