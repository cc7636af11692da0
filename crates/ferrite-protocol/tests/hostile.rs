//! Hostile input: truncation at every length, random bytes, random chunking, limits.

mod support;

use ferrite_protocol::api::ApiFlow;
use ferrite_protocol::codec::{Reader, Writer};
use ferrite_protocol::control::*;
use ferrite_protocol::initial_data::InitialData;
use ferrite_protocol::mqi::*;
use ferrite_protocol::segment::*;
use ferrite_protocol::uid::*;
use ferrite_protocol::{ByteOrder, ProtocolError};
use proptest::prelude::*;
use support::*;

/// Every strict prefix of a valid encoding must fail to decode (never panic, never succeed
/// with a wrong length).
fn all_prefixes_fail<T: std::fmt::Debug>(
    bytes: &[u8],
    decode: impl Fn(&[u8]) -> ferrite_protocol::Result<T>,
) {
    for n in 0..bytes.len() {
        let r = decode(&bytes[..n]);
        assert!(
            r.is_err(),
            "prefix of length {n}/{} decoded: {r:?}",
            bytes.len()
        );
        // Errors render as a clear message.
        assert!(!r.unwrap_err().to_string().is_empty());
    }
}

fn exact<T>(
    dec: impl Fn(&mut Reader<'_>) -> ferrite_protocol::Result<T>,
    order: ByteOrder,
) -> impl Fn(&[u8]) -> ferrite_protocol::Result<T> {
    move |b| {
        let mut r = Reader::new(b, order, "test");
        dec(&mut r)
    }
}

#[test]
fn mqi_truncations() {
    for order in ORDERS {
        for v in 1..=2 {
            let mut w = Writer::new(order);
            md(v).encode(&mut w).unwrap();
            all_prefixes_fail(&w.into_bytes(), exact(Md::decode, order));
        }
        for v in 1..=4 {
            let mut w = Writer::new(order);
            od(v).encode(&mut w).unwrap();
            all_prefixes_fail(&w.into_bytes(), exact(Od::decode, order));
            let mut w = Writer::new(order);
            gmo(v).encode(&mut w).unwrap();
            all_prefixes_fail(&w.into_bytes(), exact(Gmo::decode, order));
        }
        for v in 1..=3 {
            let mut w = Writer::new(order);
            pmo(v).encode(&mut w).unwrap();
            all_prefixes_fail(&w.into_bytes(), exact(Pmo::decode, order));
            let mut w = Writer::new(order);
            csp(v).encode(&mut w).unwrap();
            all_prefixes_fail(&w.into_bytes(), exact(Csp::decode, order));
        }
        for v in 1..=8 {
            let mut w = Writer::new(order);
            cno(v).encode(&mut w).unwrap();
            all_prefixes_fail(&w.into_bytes(), exact(Cno::decode, order));
        }
    }
}

#[test]
fn flow_truncations() {
    for order in ORDERS {
        for (t, flow) in all_flows() {
            let bytes = flow.encode(order).unwrap();
            for n in 0..bytes.len() {
                // A prefix may legitimately decode when the flow ends in variable data (PUT data,
                // trailing bytes); it must then not claim more than it was given.
                match ApiFlow::decode(t, order, &bytes[..n]) {
                    Ok(f) => assert!(f.encode(order).unwrap().len() <= n, "{t:?} prefix {n}"),
                    Err(e) => assert!(!e.to_string().is_empty()),
                }
            }
            // The fixed part (API header) is always required.
            for n in 0..16 {
                assert!(matches!(
                    ApiFlow::decode(t, order, &bytes[..n]),
                    Err(ProtocolError::Truncated { .. })
                ));
            }
        }
    }
}

#[test]
fn small_structure_truncations() {
    for order in ORDERS {
        let id = java_client_id().encode(order);
        for n in 0..44 {
            assert!(InitialData::decode(&id[..n], order).is_err());
        }
        let uid = Uid {
            user_id: chars("u"),
            password: chars(""),
            extension: Some(UidExtension {
                long_user_id: chars("u"),
                security_id: [0; 40],
            }),
        }
        .encode(order);
        // Every prefix fails except the 28-byte one, which is the valid old (short) form.
        for n in 0..uid.len() {
            assert_eq!(
                Uid::decode(&uid[..n], order).is_ok(),
                n == UID_SHORT_LENGTH,
                "prefix {n}"
            );
        }
        let caut = Caut {
            auth_type: 1,
            user_max_length: 0,
            password_max_length: 0,
            user: b"app".to_vec(),
            password: b"pw".to_vec(),
            trailing: vec![],
        }
        .encode(order);
        all_prefixes_fail(&caut, |b| Caut::decode(b, order));
        let sa = SocketAction::default().encode(order);
        all_prefixes_fail(&sa, |b| SocketAction::decode(b, order));
        let n = Notification::default().encode(order);
        all_prefixes_fail(&n, |b| Notification::decode(b, order));
        let st = Status {
            code: 2,
            value: Some(1),
            extra: vec![],
            trailing: vec![],
        }
        .encode(order);
        all_prefixes_fail(&st, |b| Status::decode(b, order));
        let rm = RequestMsgs::default().encode(order);
        all_prefixes_fail(&rm, |b| RequestMsgs::decode(b, order));
    }
}

fn sample_stream() -> (Vec<u8>, Vec<Segment>) {
    let mut segments = Vec::new();
    let mut id_h = SegmentHeader::new(HeaderKind::Tsh, SegmentType::InitialData, ByteOrder::Big);
    id_h.flags1 = ControlFlags1(0x31);
    segments.push(Segment::new(id_h, java_client_id().encode(ByteOrder::Big)));
    for (i, (t, flow)) in all_flows().into_iter().enumerate() {
        let order = ORDERS[i % 2];
        let h = SegmentHeader::new(
            HeaderKind::Tshm {
                conversation_id: 1,
                request_id: i as u32,
            },
            t,
            order,
        );
        segments.push(Segment::new(h, flow.encode(order).unwrap()));
    }
    segments.push(Segment::new(
        SegmentHeader::new(HeaderKind::Tshc, SegmentType::Heartbeat, ByteOrder::Big),
        vec![],
    ));
    let mut stream = Vec::new();
    let mut expected = Vec::new();
    for s in segments {
        let bytes = s.encode().unwrap();
        expected.push(Segment::decode(&bytes, DEFAULT_MAX_TRANSMISSION_SIZE).unwrap());
        stream.extend_from_slice(&bytes);
    }
    (stream, expected)
}

#[test]
fn decoder_byte_at_a_time() {
    let (stream, expected) = sample_stream();
    let mut dec = SegmentDecoder::default();
    let mut got = Vec::new();
    for b in &stream {
        dec.push(std::slice::from_ref(b));
        while let Some(s) = dec.next_segment().unwrap() {
            got.push(s);
        }
    }
    assert_eq!(got, expected);
    assert_eq!(dec.buffered(), 0);
}

#[test]
fn decoder_rejects_garbage_early() {
    for bad in [
        &b"GET / HTTP/1.1\r\n"[..],
        b"X",
        b"TSX",
        b"\x16\x03\x01\x02\x00",
    ] {
        let mut dec = SegmentDecoder::default();
        dec.push(bad);
        let e = dec.next_segment().unwrap_err();
        assert!(matches!(e, ProtocolError::BadStructId { .. }), "{e}");
        // Sticky.
        dec.push(b"TSH ");
        assert_eq!(dec.next_segment().unwrap_err(), e);
    }
    let mut dec = SegmentDecoder::default();
    dec.push(&[0xE3, 0xE2, 0xC8, 0x40, 0, 0, 0, 28]);
    assert_eq!(
        dec.next_segment().unwrap_err(),
        ProtocolError::EbcdicNotSupported
    );
}

#[test]
fn decoder_limits() {
    // Length smaller than the header.
    let mut dec = SegmentDecoder::default();
    dec.push(b"TSHM\x00\x00\x00\x1c");
    assert!(matches!(
        dec.next_segment(),
        Err(ProtocolError::SegmentTooShort {
            length: 28,
            minimum: 36
        })
    ));
    // Length over the negotiated maximum: rejected from the 8-byte prefix, nothing buffered.
    let mut dec = SegmentDecoder::new(1000);
    dec.push(b"TSH \x00\x00\x03\xe9");
    assert!(matches!(
        dec.next_segment(),
        Err(ProtocolError::SegmentTooLong {
            length: 1001,
            maximum: 1000
        })
    ));
    // Hard cap wins over a larger negotiated value.
    let mut dec = SegmentDecoder::new(u32::MAX);
    assert_eq!(dec.max_segment_length(), SEGMENT_LENGTH_HARD_CAP);
    dec.push(&[b'T', b'S', b'H', b'C', 0xFF, 0xFF, 0xFF, 0xFF]);
    assert!(matches!(
        dec.next_segment(),
        Err(ProtocolError::SegmentTooLong { .. })
    ));
    // Unknown byte order.
    let mut h = SegmentHeader::new(HeaderKind::Tshc, SegmentType::Heartbeat, ByteOrder::Big);
    h.segment_length = 28;
    let mut bytes = Vec::new();
    h.encode_into(&mut bytes);
    bytes[8] = 3;
    let mut dec = SegmentDecoder::default();
    dec.push(&bytes);
    assert_eq!(
        dec.next_segment().unwrap_err(),
        ProtocolError::BadByteOrder(3)
    );
}

#[test]
fn split_and_reassemble() {
    let flow = &all_flows()[9].1; // MQPUT
    let payload = flow.encode(ByteOrder::Little).unwrap();
    let h = SegmentHeader::new(
        HeaderKind::Tshm {
            conversation_id: 7,
            request_id: 1,
        },
        SegmentType::MqPut,
        ByteOrder::Little,
    );
    let parts = split_into_segments(&h, &payload, 36 + 100).unwrap();
    assert!(parts.len() > 4);
    assert!(parts[0].header.flags1.first() && !parts[0].header.flags1.last());
    assert!(parts.last().unwrap().header.flags1.last());
    let mut re = Reassembler::new(1 << 20);
    // Interleave an unrelated complete segment from another conversation.
    let other = Segment::new(
        SegmentHeader::new(
            HeaderKind::Tshm {
                conversation_id: 9,
                request_id: 0,
            },
            SegmentType::MqCmit,
            ByteOrder::Big,
        ),
        vec![0; 16],
    );
    let mut whole = None;
    for (i, p) in parts.into_iter().enumerate() {
        if i == 1 {
            assert_eq!(re.push(other.clone()).unwrap(), Some(other.clone()));
        }
        if let Some(w) = re.push(p).unwrap() {
            whole = Some(w);
        }
    }
    let whole = whole.unwrap();
    assert_eq!(whole.payload, payload);
    assert_eq!(re.in_progress(), 0);
    assert_eq!(
        ApiFlow::decode(SegmentType::MqPut, ByteOrder::Little, &whole.payload).unwrap(),
        *flow
    );

    // Errors: continuation without FIRST, FIRST twice, size limit.
    let parts = split_into_segments(&h, &payload, 136).unwrap();
    let mut re = Reassembler::new(1 << 20);
    assert!(matches!(
        re.push(parts[1].clone()),
        Err(ProtocolError::Reassembly(_))
    ));
    re.push(parts[0].clone()).unwrap();
    assert!(matches!(
        re.push(parts[0].clone()),
        Err(ProtocolError::Reassembly(_))
    ));
    let mut re = Reassembler::new(150);
    re.push(parts[0].clone()).unwrap();
    assert!(matches!(
        re.push(parts[1].clone()),
        Err(ProtocolError::MessageTooLarge { .. })
    ));
}

proptest! {
    #[test]
    fn random_chunking_yields_same_segments(cuts in proptest::collection::vec(1usize..200, 1..100)) {
        let (stream, expected) = sample_stream();
        let mut dec = SegmentDecoder::default();
        let mut got = Vec::new();
        let mut pos = 0;
        let mut i = 0;
        while pos < stream.len() {
            let n = cuts[i % cuts.len()].min(stream.len() - pos);
            dec.push(&stream[pos..pos + n]);
            pos += n;
            i += 1;
            while let Some(s) = dec.next_segment().unwrap() {
                got.push(s);
            }
        }
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600), t in any::<u8>(), big in any::<bool>()) {
        let order = if big { ByteOrder::Big } else { ByteOrder::Little };
        let st = SegmentType::from_u8(t);
        let _ = ApiFlow::decode(st, order, &bytes);
        let _ = InitialData::decode(&bytes, order);
        let _ = Uid::decode(&bytes, order);
        let _ = Caut::decode(&bytes, order);
        let _ = SocketAction::decode(&bytes, order);
        let _ = Notification::decode(&bytes, order);
        let _ = Status::decode(&bytes, order);
        let _ = RequestMsgs::decode(&bytes, order);
        let _ = Segment::decode(&bytes, DEFAULT_MAX_TRANSMISSION_SIZE);
        let _ = SegmentHeader::decode(&bytes);
        let _ = Md::decode(&mut Reader::new(&bytes, order, "x"));
        let _ = Od::decode(&mut Reader::new(&bytes, order, "x"));
        let _ = Pmo::decode(&mut Reader::new(&bytes, order, "x"));
        let _ = Gmo::decode(&mut Reader::new(&bytes, order, "x"));
        let _ = Cno::decode(&mut Reader::new(&bytes, order, "x"));
        let _ = Csp::decode(&mut Reader::new(&bytes, order, "x"));
        let mut dec = SegmentDecoder::default();
        dec.push(&bytes);
        while let Ok(Some(_)) = dec.next_segment() {}
    }

    // Random bodies behind a valid API header for every MQI type, in particular with the struct
    // ids planted so the decoders go deep.
    #[test]
    fn planted_struct_ids_never_panic(
        mut bytes in proptest::collection::vec(any::<u8>(), 16..900),
        t in 0x81u8..=0x9F,
        ids in proptest::collection::vec((0usize..900, 0usize..6), 0..6),
        big in any::<bool>(),
    ) {
        let order = if big { ByteOrder::Big } else { ByteOrder::Little };
        let names: [&[u8; 4]; 6] = [b"MD  ", b"OD  ", b"PMO ", b"GMO ", b"FCNO", b"FOPA"];
        for (pos, which) in ids {
            if pos + 8 <= bytes.len() {
                bytes[pos..pos + 4].copy_from_slice(names[which]);
                let v = (pos % 4 + 1) as i32;
                let vb = if big { v.to_be_bytes() } else { v.to_le_bytes() };
                bytes[pos + 4..pos + 8].copy_from_slice(&vb);
            }
        }
        if let Ok(f) = ApiFlow::decode(SegmentType::from_u8(t), order, &bytes) {
            // Whatever decodes re-encodes to the same bytes.
            prop_assert_eq!(f.encode(order).unwrap(), bytes);
        }
    }

    #[test]
    fn inq_hostile_counts(sel in any::<i32>(), ints in any::<u32>(), chars_len in any::<u32>(), rest in proptest::collection::vec(any::<u8>(), 0..64)) {
        let mut p = vec![0u8; 16];
        p.extend_from_slice(&sel.to_be_bytes());
        p.extend_from_slice(&ints.to_be_bytes());
        p.extend_from_slice(&chars_len.to_be_bytes());
        p.extend_from_slice(&rest);
        for t in [SegmentType::MqInq, SegmentType::MqInqReply, SegmentType::MqSet] {
            let _ = ApiFlow::decode(t, ByteOrder::Big, &p);
        }
    }
}
