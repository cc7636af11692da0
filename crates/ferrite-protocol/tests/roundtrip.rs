//! Round trips of every structure in both byte orders, value-level and byte-level.

mod support;

use ferrite_protocol::api::ApiFlow;
use ferrite_protocol::codec::{Reader, Writer};
use ferrite_protocol::control::*;
use ferrite_protocol::initial_data::InitialData;
use ferrite_protocol::mqi::*;
use ferrite_protocol::segment::*;
use ferrite_protocol::uid::*;
use ferrite_protocol::ByteOrder;
use proptest::prelude::*;
use support::*;

macro_rules! roundtrip_struct {
    ($name:ident, $ty:ty, $sample:ident, $versions:expr, $lengths:expr) => {
        #[test]
        fn $name() {
            for order in ORDERS {
                for (i, v) in $versions.into_iter().enumerate() {
                    let value: $ty = $sample(v);
                    let mut w = Writer::new(order);
                    value.encode(&mut w).unwrap();
                    let bytes = w.into_bytes();
                    assert_eq!(bytes.len(), $lengths[i], "length of version {v}");
                    assert_eq!(bytes.len(), value.length().unwrap());
                    let mut r = Reader::new(&bytes, order, "test");
                    let back = <$ty>::decode(&mut r).unwrap();
                    assert_eq!(r.remaining(), 0);
                    assert_eq!(back, value, "version {v} {order:?}");
                }
            }
        }
    };
}

roundtrip_struct!(md_roundtrip, Md, md, [1, 2], MD_LENGTHS);
roundtrip_struct!(od_roundtrip, Od, od, [1, 2, 3, 4], OD_WIRE_LENGTHS);
roundtrip_struct!(pmo_roundtrip, Pmo, pmo, [1, 2, 3], PMO_WIRE_LENGTHS);
roundtrip_struct!(gmo_roundtrip, Gmo, gmo, [1, 2, 3, 4], GMO_LENGTHS);
roundtrip_struct!(
    cno_roundtrip,
    Cno,
    cno,
    [1, 2, 3, 4, 5, 6, 7, 8],
    CNO_LENGTHS
);
roundtrip_struct!(csp_roundtrip, Csp, csp, [1, 2, 3], CSP_LENGTHS);

#[test]
fn cno_and_csp_lengths_match_ferrite_constants() {
    use ferrite_constants::structs::*;
    let cno = [
        MQCNO_LENGTH_1,
        MQCNO_LENGTH_2,
        MQCNO_LENGTH_3,
        MQCNO_LENGTH_4,
        MQCNO_LENGTH_5,
        MQCNO_LENGTH_6,
        MQCNO_LENGTH_7,
        MQCNO_LENGTH_8,
    ];
    assert_eq!(cno.map(|l| l as usize), CNO_LENGTHS);
    assert_eq!(
        [MQCSP_LENGTH_1, MQCSP_LENGTH_2, MQCSP_LENGTH_3].map(|l| l as usize),
        CSP_LENGTHS
    );
    assert_eq!(
        [MQMD_LENGTH_1, MQMD_LENGTH_2].map(|l| l as usize),
        MD_LENGTHS
    );
    assert_eq!(
        [
            MQGMO_LENGTH_1,
            MQGMO_LENGTH_2,
            MQGMO_LENGTH_3,
            MQGMO_LENGTH_4
        ]
        .map(|l| l as usize),
        GMO_LENGTHS
    );
    // The wire OD/PMO use 4-byte pointer slots, so they are shorter than the 64-bit lengths from v2.
    assert_eq!(MQOD_LENGTH_1 as usize, OD_WIRE_LENGTHS[0]);
    assert!(MQOD_LENGTH_2 as usize > OD_WIRE_LENGTHS[1]);
    assert_eq!(MQPMO_LENGTH_1 as usize, PMO_WIRE_LENGTHS[0]);
}

#[test]
fn flows_roundtrip_both_orders() {
    for order in ORDERS {
        for (t, flow) in all_flows() {
            let bytes = flow.encode(order).unwrap();
            let back = ApiFlow::decode(t, order, &bytes).unwrap();
            assert_eq!(back, flow, "{t:?} {order:?}");
            assert_eq!(back.encode(order).unwrap(), bytes);
        }
    }
}

#[test]
fn get_reply_head_and_data_are_the_encoded_flow() {
    use ferrite_protocol::api::ApiBody;
    for order in ORDERS {
        let mut gets = 0;
        for (_, flow) in all_flows() {
            let ApiBody::Get(get) = &flow.body else {
                continue;
            };
            gets += 1;
            let mut bytes = vec![9, 9];
            get.encode_reply_head(&flow.header, order, &mut bytes)
                .unwrap();
            bytes.extend_from_slice(&get.data);
            assert_eq!(bytes[..2], [9, 9]);
            assert_eq!(bytes[2..], flow.encode(order).unwrap()[..], "{order:?}");
        }
        assert!(gets > 0);
    }
}

#[test]
fn put_data_encoded_after_the_body_is_the_encoded_flow() {
    use ferrite_protocol::api::ApiBody;
    for order in ORDERS {
        let mut puts = 0;
        for (_, flow) in all_flows() {
            let mut without = flow.clone();
            let data = match &mut without.body {
                ApiBody::Put(put) => std::mem::take(&mut put.data),
                ApiBody::Put1(put1) => std::mem::take(&mut put1.data),
                _ => continue,
            };
            puts += 1;
            assert_eq!(
                without.encode_followed_by(order, &data).unwrap(),
                flow.encode(order).unwrap(),
                "{order:?}"
            );
        }
        assert!(puts >= 2);
    }
}

#[test]
fn initial_data_roundtrip_all_tiers() {
    for order in ORDERS {
        for fap in [1u8, 3, 4, 8, 9, 10, 11, 13, 17] {
            let mut id = java_client_id();
            id.fap_level = fap;
            id.wire_length = InitialData::length_for_fap_level(fap);
            let bytes = id.encode(order);
            assert_eq!(bytes.len(), id.wire_length);
            let back = InitialData::decode(&bytes, order).unwrap();
            assert_eq!(back.encode(order), bytes);
            assert_eq!(back.fap_level, fap);
            assert_eq!(back.channel_name.trimmed(), "DEV.APP.SVRCONN");
            if fap >= 11 {
                assert_eq!(back, id);
            }
        }
        // Longer than 240: the extra bytes are preserved.
        let mut id = java_client_id();
        id.trailing = vec![1, 2, 3];
        let bytes = id.encode(order);
        assert_eq!(bytes.len(), 243);
        assert_eq!(InitialData::decode(&bytes, order).unwrap(), id);
    }
}

#[test]
fn uid_caut_control_roundtrip() {
    for order in ORDERS {
        let short = Uid {
            user_id: chars("ROOT"),
            password: chars(""),
            extension: None,
        };
        let long = Uid {
            extension: Some(UidExtension {
                long_user_id: chars("root"),
                security_id: bytes(1),
            }),
            ..short.clone()
        };
        for uid in [short, long] {
            assert_eq!(Uid::decode(&uid.encode(order), order).unwrap(), uid);
        }
        let caut = Caut {
            auth_type: 1,
            user_max_length: 1024,
            password_max_length: 256,
            user: b"app".to_vec(),
            password: vec![0x9a; 8],
            trailing: vec![0; 9],
        };
        assert_eq!(Caut::decode(&caut.encode(order), order).unwrap(), caut);
        let sa = SocketAction {
            conversation_id: 3,
            request_id: 0,
            action_type: socket_action_type::ACCEPT_CONV,
            parm1: 1,
            parm2: 2,
            trailing: vec![],
        };
        assert_eq!(SocketAction::decode(&sa.encode(order), order).unwrap(), sa);
        let n = Notification {
            version: 1,
            hobj: 4,
            code: notification_code::CHECK_MSG,
            value: 9,
            trailing: vec![],
        };
        assert_eq!(Notification::decode(&n.encode(order), order).unwrap(), n);
        for st in [
            Status {
                code: status_code::CHANNEL_WRONG_TYPE,
                value: None,
                extra: vec![],
                trailing: vec![],
            },
            Status {
                code: status_code::FAP_LEVEL,
                value: Some(17),
                extra: vec![1, 2, 3, 4],
                trailing: vec![5],
            },
        ] {
            assert_eq!(Status::decode(&st.encode(order), order).unwrap(), st);
        }
        let rm = RequestMsgs {
            version: 1,
            hobj: 2,
            recv_bytes: 3,
            rqst_bytes: 4,
            max_msg_length: 5,
            gmo_options: 6,
            wait_interval: 7,
            queue_status: 8,
            request_flags: 9,
            global_msg_index: 10,
            trailing: vec![1; 4],
        };
        assert_eq!(RequestMsgs::decode(&rm.encode(order), order).unwrap(), rm);
    }
}

#[test]
fn segment_roundtrip_all_kinds() {
    for order in ORDERS {
        for kind in [
            HeaderKind::Tsh,
            HeaderKind::Tshc,
            HeaderKind::Tshm {
                conversation_id: 1,
                request_id: 0x0102_0304,
            },
        ] {
            let mut h = SegmentHeader::new(kind, SegmentType::MqPut, order);
            h.luw_id = bytes(1);
            h.flags2 = ControlFlags2(ControlFlags2::CSH);
            h.reserved = 0xABCD;
            let seg = Segment::new(h, b"payload".to_vec());
            let bytes = seg.encode().unwrap();
            assert_eq!(bytes.len(), kind.header_length() + 7);
            let back = Segment::decode(&bytes, DEFAULT_MAX_TRANSMISSION_SIZE).unwrap();
            assert_eq!(back.header.segment_length as usize, bytes.len());
            assert_eq!(back.payload, seg.payload);
            assert_eq!(back.encode().unwrap(), bytes);
        }
    }
}

#[test]
fn segment_types_roundtrip() {
    for v in 0..=255u8 {
        let t = SegmentType::from_u8(v);
        assert_eq!(t.to_u8(), v);
    }
    assert_eq!(SegmentType::MqPut.reply(), Some(SegmentType::MqPutReply));
    assert_eq!(SegmentType::MqConn.reply(), Some(SegmentType::MqConnReply));
    assert_eq!(SegmentType::Xa(0xA1).reply(), Some(SegmentType::Xa(0xB1)));
    assert!(SegmentType::MqGetReply.is_reply() && SegmentType::MqGetReply.has_api_header());
    assert!(!SegmentType::Heartbeat.has_api_header());
    assert_eq!(SegmentType::MqInqReply.name(), Some("MQINQ_REPLY"));
}

fn patch_head(bytes: &mut [u8], id: &[u8; 4], version: i32, order: ByteOrder) {
    bytes[..4].copy_from_slice(id);
    let v = match order {
        ByteOrder::Big => version.to_be_bytes(),
        ByteOrder::Little => version.to_le_bytes(),
    };
    bytes[4..8].copy_from_slice(&v);
}

fn byte_level<T>(
    bytes: &[u8],
    order: ByteOrder,
    dec: impl Fn(&mut Reader<'_>) -> ferrite_protocol::Result<T>,
    enc: impl Fn(&T, &mut Writer) -> ferrite_protocol::Result<()>,
) {
    let mut r = Reader::new(bytes, order, "test");
    let v = dec(&mut r).unwrap();
    assert_eq!(r.remaining(), 0);
    let mut w = Writer::new(order);
    enc(&v, &mut w).unwrap();
    assert_eq!(w.into_bytes(), bytes);
}

fn order_strategy() -> impl Strategy<Value = ByteOrder> {
    prop_oneof![Just(ByteOrder::Big), Just(ByteOrder::Little)]
}

proptest! {
    // Any bytes with a valid eye-catcher and version decode and re-encode identically.
    #[test]
    fn mqi_structures_byte_identical(order in order_strategy(), v in 1i32..=8, seed in proptest::collection::vec(any::<u8>(), 424)) {
        let md_v = (v - 1) % 2 + 1;
        let mut b = seed[..MD_LENGTHS[md_v as usize - 1]].to_vec();
        patch_head(&mut b, b"MD  ", md_v, order);
        byte_level(&b, order, Md::decode, Md::encode);

        let od_v = (v - 1) % 4 + 1;
        let mut b = seed[..OD_WIRE_LENGTHS[od_v as usize - 1]].to_vec();
        patch_head(&mut b, b"OD  ", od_v, order);
        byte_level(&b, order, Od::decode, Od::encode);

        let pmo_v = (v - 1) % 3 + 1;
        let mut b = seed[..PMO_WIRE_LENGTHS[pmo_v as usize - 1]].to_vec();
        patch_head(&mut b, b"PMO ", pmo_v, order);
        byte_level(&b, order, Pmo::decode, Pmo::encode);

        let gmo_v = (v - 1) % 4 + 1;
        let mut b = seed[..GMO_LENGTHS[gmo_v as usize - 1]].to_vec();
        patch_head(&mut b, b"GMO ", gmo_v, order);
        byte_level(&b, order, Gmo::decode, Gmo::encode);

        let mut b = seed[..SD_WIRE_LENGTHS[0]].to_vec();
        patch_head(&mut b, b"SD  ", 1, order);
        byte_level(&b, order, Sd::decode, Sd::encode);

        let mut b = seed[..CNO_LENGTHS[v as usize - 1]].to_vec();
        patch_head(&mut b, b"CNO ", v, order);
        if v == 4 {
            b[164..168].fill(0); // alignment padding: written as zeros
        }
        byte_level(&b, order, Cno::decode, Cno::encode);

        let csp_v = (v - 1) % 3 + 1;
        let mut b = seed[..CSP_LENGTHS[csp_v as usize - 1]].to_vec();
        patch_head(&mut b, b"CSP ", csp_v, order);
        byte_level(&b, order, Csp::decode, Csp::encode);
    }

    #[test]
    fn initial_data_byte_identical(order in order_strategy(), body in proptest::collection::vec(any::<u8>(), 40..300)) {
        let mut b = b"ID  ".to_vec();
        b.extend_from_slice(&body);
        let id = InitialData::decode(&b, order).unwrap();
        prop_assert_eq!(id.encode(order), b);
    }

    #[test]
    fn segment_header_byte_identical(kind in 0u8..3, order in order_strategy(), rest in proptest::collection::vec(any::<u8>(), 36..64)) {
        let (id, hl): (&[u8; 4], usize) = match kind { 0 => (b"TSH ", 28), 1 => (b"TSHC", 28), _ => (b"TSHM", 36) };
        let mut b = id.to_vec();
        b.extend_from_slice(&(rest.len() as u32 + 4).to_be_bytes());
        b.extend_from_slice(&rest[4..]);
        b[hl - 20] = order.to_wire();
        let seg = Segment::decode(&b, DEFAULT_MAX_TRANSMISSION_SIZE).unwrap();
        prop_assert_eq!(seg.header.byte_order, order);
        prop_assert_eq!(seg.encode().unwrap(), b);
    }
}
