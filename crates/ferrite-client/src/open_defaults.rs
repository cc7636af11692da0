//! MQOPEN for output through SPI OPEN, as IBM's clients open queues: the reply's LPOO carries
//! the queue's defaults the client resolves itself, here DEFPRESP, which an MQPUT with
//! MQPMO_RESPONSE_AS_Q_DEF follows (DEFPRESP(ASYNC): the put is asynchronous, `async_put`).
//!
//! ```text
//! request:  SPI verb OPEN: SPOU (header only), SPOI: LPOO then the MQOD
//! LPOO v1 (32 bytes): 0 "LPOO" 4 Version 8 Options (MQOO_*) 12 LPI options
//!   16 DefPersistence 20 DefPutResponseType 24 DefReadAhead 28 PropertyControl
//!   (the four defaults -1 in the request: "tell me")
//! reply:    SPOU, SPOO: the LPOO with the defaults filled in, then the MQOD with the
//!           resolved names; the Hobj in the API header.
//! ```
//! An ObjectString (a topic's) makes the MQOD version 4, its text (UTF-8) after the MQOD at
//! VSOffset from the MQOD's start.
//!
//! A queue manager without SPI OPEN (MQRC_FUNCTION_NOT_SUPPORTED) is opened with MQOPEN, and
//! its queues' puts as queue default are synchronous.

use ferrite_constants::{completion::MQCC_OK, misc::MQPRT_ASYNC_RESPONSE, reason::*};
use ferrite_mqi_types::{Hobj, MqError, MqResult, Mqod};
use ferrite_protocol::api::ApiBody;
use ferrite_protocol::codec::{Reader, Writer};
use ferrite_protocol::mqi::Od;
use ferrite_protocol::segment::SegmentType;
use ferrite_protocol::spi::{verb, SpiFlow, SpiStructure, SPI_STRUCTURE_HEADER_LENGTH};

use crate::connection::Connection;
use ferrite_protocol::wire;

/// Length of the LPOO (version 1).
pub const LPOO_LENGTH: usize = 32;
/// Where DefPutResponseType is in the LPOO.
const LPOO_PUT_RESPONSE_AT: usize = 20;
/// The largest SPI OPEN reply asked for (SPOU, SPOO: LPOO and an MQOD version 4).
const SPI_OPEN_REPLY_BYTES_MAX: u32 = 1024;

/// The CCSID an ObjectString is sent in (UTF-8).
const OBJECT_STRING_CCSID: i32 = 1208;

/// What an SPI OPEN answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenDefaults {
    /// The handle.
    pub hobj: Hobj,
    /// DEFPRESP as MQPRT_SYNC_RESPONSE or MQPRT_ASYNC_RESPONSE.
    pub put_response: i32,
}

impl OpenDefaults {
    /// Whether MQPMO_RESPONSE_AS_Q_DEF means an asynchronous put.
    pub fn asynchronous_puts(&self) -> bool {
        self.put_response == MQPRT_ASYNC_RESPONSE
    }
}

impl Connection {
    /// SPI OPEN of `od` with `options`: the handle and the queue's defaults, the resolved names
    /// set in `od` as MQOPEN sets them. Errors are MQOPEN's; MQRC_FUNCTION_NOT_SUPPORTED when
    /// the queue manager has no SPI OPEN.
    pub(crate) fn spi_open(&mut self, od: &mut Mqod, options: i32) -> MqResult<OpenDefaults> {
        let order = self.byte_order();
        let unexpected = || MqError::failed(MQRC_UNEXPECTED_ERROR);
        let od_bytes = od_with_object_string(od, order).ok_or_else(unexpected)?;
        let mut spoi = Writer::new(order);
        spoi.bytes(b"SPOI");
        spoi.i32(1);
        spoi.u32((SPI_STRUCTURE_HEADER_LENGTH + LPOO_LENGTH + od_bytes.len()) as u32);
        spoi.bytes(b"LPOO");
        spoi.i32(1);
        spoi.i32(options);
        spoi.i32(0);
        for _ in 0..4 {
            spoi.i32(-1);
        }
        spoi.bytes(&od_bytes);
        let mut spou = Writer::new(order);
        spou.bytes(b"SPOU");
        spou.i32(1);
        spou.u32(SPI_STRUCTURE_HEADER_LENGTH as u32);
        let request = SpiFlow {
            verb: verb::OPEN,
            version: 1,
            max_reply_size: SPI_OPEN_REPLY_BYTES_MAX,
            structures: vec![
                SpiStructure {
                    struct_id: *b"SPOU",
                    version: 1,
                    bytes: spou.into_bytes(),
                },
                SpiStructure {
                    struct_id: *b"SPOI",
                    version: 1,
                    bytes: spoi.into_bytes(),
                },
            ],
        };
        let (hobj, spoo) = self.spi_call(&request, b"SPOO")?;
        let lpoo = spoo
            .bytes
            .get(SPI_STRUCTURE_HEADER_LENGTH..SPI_STRUCTURE_HEADER_LENGTH + LPOO_LENGTH)
            .filter(|lpoo| &lpoo[..4] == b"LPOO")
            .ok_or_else(unexpected)?;
        let put_response = Reader::new(&lpoo[LPOO_PUT_RESPONSE_AT..], order, "LPOO")
            .i32()
            .map_err(|_| unexpected())?;
        let od_at = SPI_STRUCTURE_HEADER_LENGTH + LPOO_LENGTH;
        let resolved = Od::decode(&mut Reader::new(&spoo.bytes[od_at..], order, "MQOD"))
            .map(|wire_od| wire::od_from_wire(&wire_od))
            .map_err(|_| unexpected())?;
        // A model queue's open returns the dynamic queue's name in ObjectName.
        od.object_name = resolved.object_name;
        od.resolved_q_name = resolved.resolved_q_name;
        od.resolved_q_mgr_name = resolved.resolved_q_mgr_name;
        Ok(OpenDefaults {
            hobj: Hobj(hobj),
            put_response,
        })
    }
}

impl Connection {
    /// One SPI flow: the Hobj of the reply's API header and the reply's structure `struct_id`.
    /// A reply that completes with MQCC_FAILED or MQCC_WARNING fails with its reason;
    /// MQRC_UNEXPECTED_ERROR when the reply has no such structure.
    pub(crate) fn spi_call(
        &mut self,
        request: &SpiFlow,
        struct_id: &[u8; 4],
    ) -> MqResult<(i32, SpiStructure)> {
        let order = self.byte_order();
        let unexpected = || MqError::failed(MQRC_UNEXPECTED_ERROR);
        let (header, body) =
            self.call(SegmentType::Spi, -1, ApiBody::Raw(request.encode(order)))?;
        if header.comp_code != MQCC_OK {
            return Err(MqError::failed(header.reason));
        }
        let ApiBody::Raw(body) = body else {
            return Err(unexpected());
        };
        let structure = SpiFlow::decode(&body, order)
            .ok()
            .and_then(|reply| {
                reply
                    .structures
                    .into_iter()
                    .find(|structure| &structure.struct_id == struct_id)
            })
            .ok_or_else(unexpected)?;
        Ok((header.hobj, structure))
    }
}

/// `od` encoded for the wire, with its ObjectString (version 4, the text after the MQOD).
fn od_with_object_string(od: &Mqod, order: ferrite_protocol::ByteOrder) -> Option<Vec<u8>> {
    let mut wire_od = wire::od_to_wire(od);
    let text = od.object_string.as_bytes();
    if !text.is_empty() {
        wire_od.version = 4;
        let length = i32::try_from(text.len()).ok()?;
        wire_od.object_string = ferrite_protocol::mqi::CharV {
            vs_offset: i32::try_from(wire_od.length().ok()?).ok()?,
            vs_buf_size: length,
            vs_length: length,
            vs_ccsid: OBJECT_STRING_CCSID,
            ..Default::default()
        };
    }
    let mut writer = Writer::new(order);
    wire_od.encode(&mut writer).ok()?;
    writer.bytes(text);
    Some(writer.into_bytes())
}
