//! SPI SUBSCRIBE: how IBM's Java and JMS client make a subscription (MQSUB) over a client
//! channel. Layouts as observed from the client (black box):
//!
//! ```text
//! request: SPBU(12) SPBI: "SPBI" Version Length, then Hobj (4: the provided destination's
//!          handle, 0 for a managed one), the LPI subscription descriptor (LSD, version 1,
//!          196 bytes, "LSD " first; its options at 8; an MQCHARV at 16 whose VSOffset
//!          counts from its start),
//!          then the MQSD (version 1, 312 bytes on the wire), then the MQSD's strings at
//!          their VSOffsets from the MQSD's start.
//! reply:   SPBU(12) SPBO: "SPBO" 1 Length, then the subscription handle (Hsub), the LSD as
//!          sent, and the MQSD with SubCorrelId filled in and no string text; the handle of
//!          the subscription's queue (the managed queue's, or the provided one) in the API
//!          header, where the client gets from. An LSD or MQSD that cannot be read fails
//!          with MQRC_SD_ERROR (no SPBO).
//! ```
//!
//! The LSD's options, as IBM's JMS client sets them: 0x40000000 for a named subscription (a
//! durable subscriber's, a shared consumer's), none for a JMS non-durable subscriber, and
//! 0x10 and 0x40 with it for a JMS 2.0 shared consumer (`createSharedConsumer`,
//! `createSharedDurableConsumer`), whose MQSD is as an unshared one's (MQSO_CREATE |
//! MQSO_ALTER, MQSO_ANY_USERID, SubName `JMS:ND:<qmgr>:<client id>:<name>` when non-durable,
//! `JMS:<qmgr>:<client id>:<name>` when durable). Either shared bit makes the MQSUB a shared
//! one ([`ferrite_mqi::Connection::subscribe_shared`]).

use ferrite_constants::reason::*;
use ferrite_mqi::{Hobj, MqError, MqResult, Mqsd};
use ferrite_protocol::api::{ApiBody, ApiHeader};
use ferrite_protocol::codec::{Reader, Writer};
use ferrite_protocol::mqi::{CharV, Sd};
use ferrite_protocol::spi::{SpiFlow, SpiStructure, SPI_STRUCTURE_HEADER_LENGTH};
use ferrite_protocol::wire;
use ferrite_protocol::{ByteOrder, ProtocolError};

use super::{api_header, outcome, MqiSession};

/// The LPI subscription descriptor's length (version 1).
const LSD_LENGTH: usize = 196;
/// Where the LSD's options are.
const LSD_OPTIONS_OFFSET: usize = 8;
/// The LSD options IBM's JMS client sets for a shared consumer (either makes MQSUB shared).
const LSD_SHARED_OPTIONS: u32 = 0x10 | 0x40;

/// The parts of an SPBI structure.
struct SubscribeRequest<'a> {
    hobj: i32,
    lsd: &'a [u8],
    /// The MQSD and what follows it (its strings).
    sd_and_after: &'a [u8],
    sd: Sd,
    /// Whether the LSD asks for a shared subscription.
    shared: bool,
}

fn malformed(what: &'static str) -> ProtocolError {
    ProtocolError::InvalidLength { what, value: 0 }
}

fn parse(spbi: &[u8], order: ByteOrder) -> Result<SubscribeRequest<'_>, ProtocolError> {
    let inner = spbi
        .get(SPI_STRUCTURE_HEADER_LENGTH..)
        .ok_or(malformed("SPI SUBSCRIBE: SPBI"))?;
    let mut reader = Reader::new(inner, order, "SPBI");
    let hobj = reader.i32()?;
    let lsd = reader.bytes(LSD_LENGTH)?;
    if &lsd[..4] != b"LSD " {
        return Err(malformed("SPI SUBSCRIBE: LSD"));
    }
    let options = Reader::new(&lsd[LSD_OPTIONS_OFFSET..], order, "LSD").u32()?;
    let sd_and_after = reader.rest();
    let sd = Sd::decode(&mut Reader::new(sd_and_after, order, "MQSD"))?;
    Ok(SubscribeRequest {
        hobj,
        lsd,
        sd_and_after,
        sd,
        shared: options & LSD_SHARED_OPTIONS != 0,
    })
}

/// One of the MQSD's strings; `reason` when it cannot be read.
fn sd_string(sd_and_after: &[u8], value: &CharV, reason: i32) -> MqResult<String> {
    wire::od_string(sd_and_after, value).map_err(|error| match error.reason {
        MQRC_SELECTION_STRING_ERROR => MqError::failed(reason),
        _ => error,
    })
}

/// The MQI's MQSD from the wire's.
fn mqsd(request: &SubscribeRequest<'_>) -> MqResult<Mqsd> {
    let sd = &request.sd;
    let text = |value: &CharV, reason| sd_string(request.sd_and_after, value, reason);
    Ok(Mqsd {
        options: sd.options,
        object_name: sd.object_name.trimmed(),
        object_string: text(&sd.object_string, MQRC_OBJECT_STRING_ERROR)?,
        alternate_user_id: sd.alternate_user_id.trimmed(),
        sub_name: text(&sd.sub_name, MQRC_SUB_NAME_ERROR)?,
        sub_user_data: text(&sd.sub_user_data, MQRC_SUB_USER_DATA_ERROR)?,
        sub_correl_id: sd.sub_correl_id,
        selection_string: text(&sd.selection_string, MQRC_SELECTION_STRING_ERROR)?,
        res_object_string: String::new(),
        sub_level: sd.sub_level,
    })
}

/// The SPBO structure of the reply.
fn spbo(
    request: &SubscribeRequest<'_>,
    hsub: i32,
    mqsd: Option<&Mqsd>,
    order: ByteOrder,
) -> Result<SpiStructure, ProtocolError> {
    let mut sd = request.sd.clone();
    if let Some(mqsd) = mqsd {
        sd.sub_correl_id = mqsd.sub_correl_id;
        sd.sub_level = mqsd.sub_level;
    }
    for value in [
        &mut sd.object_string,
        &mut sd.sub_name,
        &mut sd.sub_user_data,
        &mut sd.selection_string,
        &mut sd.res_object_string,
    ] {
        value.vs_length = 0;
    }
    let mut body = Writer::new(order);
    body.i32(hsub);
    body.bytes(request.lsd);
    sd.encode(&mut body)?;
    Ok(SpiStructure {
        struct_id: *b"SPBO",
        version: 1,
        bytes: structure(b"SPBO", &body.into_bytes(), order),
    })
}

/// An SPI structure (version 1): its header, then `body`.
fn structure(struct_id: &[u8; 4], body: &[u8], order: ByteOrder) -> Vec<u8> {
    let mut structure = Writer::new(order);
    structure.bytes(struct_id);
    structure.i32(1);
    structure.u32((SPI_STRUCTURE_HEADER_LENGTH + body.len()) as u32);
    structure.bytes(body);
    structure.into_bytes()
}

impl MqiSession {
    /// SPI SUBSCRIBE: MQSUB, answered with the subscription handle and its queue's handle.
    pub(super) fn spi_subscribe(
        &mut self,
        request: SpiFlow,
        order: ByteOrder,
    ) -> Result<(ApiHeader, ApiBody), ProtocolError> {
        let spbi = request
            .structures
            .iter()
            .find(|structure| &structure.struct_id == b"SPBI")
            .ok_or(malformed("SPI SUBSCRIBE without SPBI"))?;
        let mut structures: Vec<SpiStructure> = request
            .structures
            .iter()
            .filter(|structure| &structure.struct_id == b"SPBU")
            .cloned()
            .collect();
        let Ok(parsed) = parse(&spbi.bytes, order) else {
            // An LSD or MQSD that cannot be read: MQRC_SD_ERROR, and no SPBO.
            let reply = SpiFlow {
                structures,
                ..request
            };
            return Ok((
                api_header(-1, Some(MqError::failed(MQRC_SD_ERROR))),
                ApiBody::Empty(reply.encode(order)),
            ));
        };
        let connection = self.connection.as_mut().expect("connected");
        let mut queue = Hobj(parsed.hobj);
        let mut subscribed = None;
        let result = mqsd(&parsed).and_then(|mut sd| {
            let hsub = match parsed.shared {
                true => connection.subscribe_shared(&mut sd, &mut queue)?,
                false => connection.subscribe(&mut sd, &mut queue)?,
            };
            subscribed = Some(sd);
            Ok(hsub)
        });
        let hsub = result.as_ref().map_or(-1, |hsub| hsub.0);
        structures.push(spbo(&parsed, hsub, subscribed.as_ref(), order)?);
        let queue = if result.is_ok() { queue.0 } else { -1 };
        let reply = SpiFlow {
            structures,
            ..request
        };
        Ok((
            api_header(queue, outcome(&result)),
            ApiBody::Empty(reply.encode(order)),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_constants::misc::{MQSO_CREATE, MQSO_MANAGED};
    use ferrite_protocol::MqChars;

    const TOPIC: &str = "price/fruit";

    /// An SPBI as IBM's Java client sends it: Hobj 0, an LSD, an MQSD whose ObjectString
    /// follows it.
    fn spbi(order: ByteOrder, lsd_options: u32) -> Vec<u8> {
        let mut lsd = Writer::new(order);
        lsd.bytes(b"LSD ");
        lsd.i32(1);
        lsd.u32(lsd_options);
        let mut lsd = lsd.into_bytes();
        lsd.resize(LSD_LENGTH, 0);
        let sd = Sd {
            version: 1,
            options: MQSO_CREATE | MQSO_MANAGED,
            object_name: MqChars::BLANK,
            alternate_user_id: MqChars::BLANK,
            alternate_security_id: [0; 40],
            sub_expiry: -1,
            object_string: CharV {
                vs_offset: 312,
                vs_length: TOPIC.len() as i32,
                vs_ccsid: 1208,
                ..CharV::default()
            },
            sub_name: CharV::default(),
            sub_user_data: CharV::default(),
            sub_correl_id: [0; 24],
            pub_priority: -3,
            pub_accounting_token: [0; 32],
            pub_appl_identity_data: MqChars::BLANK,
            selection_string: CharV::default(),
            sub_level: 1,
            res_object_string: CharV::default(),
        };
        let mut body = Writer::new(order);
        body.i32(0);
        body.bytes(&lsd);
        sd.encode(&mut body).unwrap();
        body.bytes(TOPIC.as_bytes());
        structure(b"SPBI", &body.into_bytes(), order)
    }

    #[test]
    fn the_mqsd_and_its_object_string_are_read_in_either_byte_order() {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let bytes = spbi(order, 0);
            let parsed = parse(&bytes, order).unwrap();
            assert_eq!(parsed.hobj, 0);
            assert!(!parsed.shared, "no shared option");
            let sd = mqsd(&parsed).unwrap();
            assert_eq!(sd.options, MQSO_CREATE | MQSO_MANAGED);
            assert_eq!(sd.object_string, TOPIC);
            let reply = spbo(&parsed, 7, Some(&sd), order).unwrap();
            assert_eq!(
                reply.bytes.len(),
                SPI_STRUCTURE_HEADER_LENGTH + 4 + LSD_LENGTH + 312
            );
        }
    }

    #[test]
    fn a_truncated_descriptor_or_a_string_outside_the_flow_is_an_error() {
        let order = ByteOrder::Big;
        let bytes = spbi(order, 0);
        assert!(parse(
            &bytes[..SPI_STRUCTURE_HEADER_LENGTH + 4 + LSD_LENGTH + 100],
            order
        )
        .is_err());
        let without_string = &bytes[..bytes.len() - TOPIC.len()];
        let parsed = parse(without_string, order).unwrap();
        assert_eq!(mqsd(&parsed).unwrap_err().reason, MQRC_OBJECT_STRING_ERROR);
    }

    #[test]
    fn the_shared_options_of_ibm_jms_shared_consumers_make_a_shared_subscribe() {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            // As IBM's JMS client sends them: a durable subscriber's, then a shared consumer's.
            let named = spbi(order, 0x4000_0000);
            assert!(!parse(&named, order).unwrap().shared);
            let shared = spbi(order, 0x4000_0050);
            assert!(parse(&shared, order).unwrap().shared);
        }
    }
}
