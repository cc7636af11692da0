//! MQSUB over a client channel, as IBM's Java client makes it: SPI SUBSCRIBE.
//!
//! ```text
//! request: SPBU (header only), SPBI: Hobj (the provided destination, 0 for a managed one),
//!          the LPI subscription descriptor (LSD, 196 bytes; Ferrite reads none of it, so it
//!          is sent with its eye-catcher and version only), the MQSD (version 1, 312 bytes),
//!          then the MQSD's strings (UTF-8) at their VSOffsets from the MQSD's start.
//! reply:   SPBU, SPBO: the Hsub, the LSD, the MQSD with SubCorrelId; the API header holds
//!          the handle of the subscription's queue.
//! ```

use ferrite_constants::reason::*;
use ferrite_mqi_types::{Hobj, MqError, MqResult, Mqsd};
use ferrite_protocol::codec::{Reader, Writer};
use ferrite_protocol::mqi::{CharV, Sd, SD_WIRE_LENGTHS};
use ferrite_protocol::spi::{verb, SpiFlow, SpiStructure, SPI_STRUCTURE_HEADER_LENGTH};
use ferrite_protocol::{ByteOrder, MqChars};

use crate::connection::Connection;

/// The LSD's length (version 1).
const LSD_LENGTH: usize = 196;
/// The CCSID the MQSD's strings are sent in (UTF-8).
const STRING_CCSID: i32 = 1208;
/// The largest SPI SUBSCRIBE reply asked for.
const SPI_SUBSCRIBE_REPLY_BYTES_MAX: u32 = 1024;
/// The MQSD's SubExpiry and PubPriority (MQ's defaults: MQEI_UNLIMITED,
/// MQPRI_PRIORITY_AS_PUBLISHED).
const SUB_EXPIRY_UNLIMITED: i32 = -1;
const PUB_PRIORITY_AS_PUBLISHED: i32 = -3;

/// `sd` on the wire, followed by its strings.
fn encode_sd(sd: &Mqsd, order: ByteOrder) -> MqResult<Vec<u8>> {
    let mut strings = Vec::new();
    let mut string = |text: &str| {
        let offset = SD_WIRE_LENGTHS[0] + strings.len();
        strings.extend_from_slice(text.as_bytes());
        CharV {
            vs_offset: offset as i32,
            vs_buf_size: text.len() as i32,
            vs_length: text.len() as i32,
            vs_ccsid: STRING_CCSID,
            ..CharV::default()
        }
    };
    let chars_error = |_| MqError::failed(MQRC_SD_ERROR);
    let wire_sd = Sd {
        version: 1,
        options: sd.options,
        object_name: MqChars::new(&sd.object_name).map_err(chars_error)?,
        alternate_user_id: MqChars::new(&sd.alternate_user_id).map_err(chars_error)?,
        alternate_security_id: [0; 40],
        sub_expiry: SUB_EXPIRY_UNLIMITED,
        object_string: string(&sd.object_string),
        sub_name: string(&sd.sub_name),
        sub_user_data: string(&sd.sub_user_data),
        sub_correl_id: sd.sub_correl_id,
        pub_priority: PUB_PRIORITY_AS_PUBLISHED,
        pub_accounting_token: [0; 32],
        pub_appl_identity_data: MqChars::BLANK,
        selection_string: string(&sd.selection_string),
        sub_level: sd.sub_level,
        res_object_string: CharV::default(),
    };
    let mut writer = Writer::new(order);
    wire_sd
        .encode(&mut writer)
        .map_err(|_| MqError::failed(MQRC_SD_ERROR))?;
    writer.bytes(&strings);
    Ok(writer.into_bytes())
}

/// An SPI structure (version 1): its header, then `body`.
fn structure(struct_id: &[u8; 4], body: &[u8], order: ByteOrder) -> SpiStructure {
    let mut writer = Writer::new(order);
    writer.bytes(struct_id);
    writer.i32(1);
    writer.u32((SPI_STRUCTURE_HEADER_LENGTH + body.len()) as u32);
    writer.bytes(body);
    SpiStructure {
        struct_id: *struct_id,
        version: 1,
        bytes: writer.into_bytes(),
    }
}

/// The Hsub and the MQSD of an SPBO.
fn decode_spbo(spbo: &[u8], order: ByteOrder) -> Option<(i32, Sd)> {
    let mut reader = Reader::new(spbo.get(SPI_STRUCTURE_HEADER_LENGTH..)?, order, "SPBO");
    let hsub = reader.i32().ok()?;
    reader.bytes(LSD_LENGTH).ok()?;
    let sd = Sd::decode(&mut reader).ok()?;
    Some((hsub, sd))
}

impl Connection {
    /// MQSUB: makes, resumes or alters the subscription `sd` describes; its queue's handle in
    /// `hobj` (MQSO_MANAGED: the managed queue's; otherwise the provided one, as given). The
    /// subscription handle, which MQCLOSE ends (MQCO_REMOVE_SUB removes a durable one).
    pub fn subscribe(&mut self, sd: &mut Mqsd, hobj: &mut Hobj) -> MqResult<Hobj> {
        let order = self.byte_order();
        let unexpected = || MqError::failed(MQRC_UNEXPECTED_ERROR);
        let mut spbi = Writer::new(order);
        spbi.i32(hobj.0);
        spbi.bytes(b"LSD ");
        spbi.i32(1);
        spbi.bytes(&[0; LSD_LENGTH - 8]);
        spbi.bytes(&encode_sd(sd, order)?);
        let spbi = spbi.into_bytes();
        let request = SpiFlow {
            verb: verb::SUBSCRIBE,
            version: 1,
            max_reply_size: SPI_SUBSCRIBE_REPLY_BYTES_MAX,
            structures: vec![
                structure(b"SPBU", &[], order),
                structure(b"SPBI", &spbi, order),
            ],
        };
        let (queue, spbo) = self.spi_call(&request, b"SPBO")?;
        let (hsub, wire_sd) = decode_spbo(&spbo.bytes, order).ok_or_else(unexpected)?;
        sd.sub_correl_id = wire_sd.sub_correl_id;
        sd.sub_level = wire_sd.sub_level;
        *hobj = Hobj(queue);
        Ok(Hobj(hsub))
    }
}
