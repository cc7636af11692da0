//! Writes the seed corpora of the protocol fuzz targets from ferrite-protocol's sample values
//! (its tests' `support` module: every MQI flow and the IBM Java client's INITIAL_DATA), in
//! both byte orders:
//!
//! - `crates/ferrite-protocol/tests/corpus/flow/seed-*`: segment type, byte order, payload
//!   (the `protocol_flow` target's layout);
//! - `crates/ferrite-protocol/tests/corpus/segment_stream/seed-*`: a chunk size, then whole
//!   segments as sent on the socket, each flow once as one segment and once split FIRST/LAST
//!   (the `protocol_segments` target's layout).
//!
//! Run from the fuzz directory: `cargo run --bin write_protocol_seeds`.

#[path = "../../../crates/ferrite-protocol/tests/support/mod.rs"]
mod support;

use std::path::PathBuf;

use ferrite_protocol::segment::{
    ControlFlags1, HeaderKind, Segment, SegmentHeader, SegmentType,
};
use ferrite_protocol::ByteOrder;

fn segment(
    kind: HeaderKind,
    segment_type: SegmentType,
    order: ByteOrder,
    flags: u8,
    payload: &[u8],
) -> Vec<u8> {
    let mut header = SegmentHeader::new(kind, segment_type, order);
    header.flags1 = ControlFlags1(flags);
    Segment::new(header, payload.to_vec()).encode().expect("a small segment encodes")
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../crates/ferrite-protocol/tests/corpus");
    let flow_directory = root.join("flow");
    let stream_directory = root.join("segment_stream");
    std::fs::create_dir_all(&flow_directory).unwrap();
    std::fs::create_dir_all(&stream_directory).unwrap();
    let mut written = 0;
    let mut payloads: Vec<(String, SegmentType, ByteOrder, Vec<u8>)> = Vec::new();
    for order in support::ORDERS {
        let order_name = match order {
            ByteOrder::Big => "be",
            ByteOrder::Little => "le",
        };
        payloads.push((
            format!("initial-data-java-{order_name}"),
            SegmentType::InitialData,
            order,
            support::java_client_id().encode(order),
        ));
        for (segment_type, flow) in support::all_flows() {
            let payload = flow.encode(order).expect("a sample flow encodes");
            payloads.push((
                format!("{segment_type:?}-{order_name}").to_lowercase(),
                segment_type,
                order,
                payload,
            ));
        }
    }
    for (name, segment_type, order, payload) in &payloads {
        let mut flow = vec![segment_type.to_u8(), u8::from(*order == ByteOrder::Little)];
        flow.extend_from_slice(payload);
        std::fs::write(flow_directory.join(format!("seed-{name}")), flow).unwrap();
        let kind = if *segment_type == SegmentType::InitialData {
            HeaderKind::Tsh
        } else {
            HeaderKind::Tshm {
                conversation_id: 1,
                request_id: 1,
            }
        };
        let mut whole = vec![64u8];
        whole.extend(segment(
            kind,
            *segment_type,
            *order,
            ControlFlags1::FIRST | ControlFlags1::LAST,
            payload,
        ));
        std::fs::write(stream_directory.join(format!("seed-{name}")), whole).unwrap();
        let half = payload.len() / 2;
        let mut split = vec![7u8];
        split.extend(segment(kind, *segment_type, *order, ControlFlags1::FIRST, &payload[..half]));
        split.extend(segment(kind, *segment_type, *order, ControlFlags1::LAST, &payload[half..]));
        std::fs::write(stream_directory.join(format!("seed-{name}-split")), split).unwrap();
        written += 3;
    }
    println!("wrote {written} seed files under {}", root.display());
}
