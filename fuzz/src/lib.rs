//! What the protocol fuzz targets share: decoding one whole flow by its segment type, the way
//! the queue manager's listener does, with the checks that hold for any input.

use ferrite_protocol::api::ApiFlow;
use ferrite_protocol::control::{Notification, RequestMsgs, SocketAction, Status};
use ferrite_protocol::initial_data::InitialData;
use ferrite_protocol::segment::SegmentType;
use ferrite_protocol::uid::{Caut, Uid};
use ferrite_protocol::ByteOrder;

pub fn byte_order(byte: u8) -> ByteOrder {
    if byte & 1 == 0 {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    }
}

/// An error must say what went wrong.
fn explained<T>(result: ferrite_protocol::Result<T>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) => {
            assert!(!error.to_string().is_empty(), "an error without a message");
            None
        }
    }
}

/// Decode `payload` as the body of a flow of `segment_type`; what decodes re-encodes.
pub fn decode_flow(segment_type: SegmentType, order: ByteOrder, payload: &[u8]) {
    use SegmentType as T;
    match segment_type {
        T::InitialData => {
            if let Some(id) = explained(InitialData::decode(payload, order)) {
                let again = InitialData::decode(&id.encode(order), order)
                    .expect("a decoded INITIAL_DATA re-encodes to something that decodes");
                assert_eq!(again.encode(order), id.encode(order));
            }
        }
        T::UseridData => {
            if let Some(uid) = explained(Uid::decode(payload, order)) {
                let _ = uid.encode(order);
            }
        }
        T::ConauthInfo => {
            if let Some(caut) = explained(Caut::decode(payload, order)) {
                let _ = caut.encode(order);
            }
        }
        T::SocketAction => {
            explained(SocketAction::decode(payload, order));
        }
        T::Notification => {
            explained(Notification::decode(payload, order));
        }
        T::StatusData => {
            explained(Status::decode(payload, order));
        }
        T::RequestMsgs => {
            explained(RequestMsgs::decode(payload, order));
        }
        _ if segment_type.has_api_header() => {
            if let Some(flow) = explained(ApiFlow::decode(segment_type, order, payload)) {
                let _ = flow.encode(order);
            }
        }
        _ => {}
    }
}
