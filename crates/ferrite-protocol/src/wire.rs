//! What both ends of a connection (bindings socket or client channel) agree on: the values Ferrite negotiates in
//! INITIAL_DATA, and the mapping between the MQI's structures (`ferrite_mqi_types::Mqmd`, ...)
//! and their wire form ([`crate::mqi::Md`], ...). The client library (`ferrite-client`) and the
//! queue manager's listeners (`ferrite-server`) both use this module, so both sides map fields
//! identically, in one place.
//!
//! Character fields: the MQI keeps them as strings without trailing blanks, the wire as
//! fixed-length blank-padded bytes. [`chars`] pads (and, for values the MQI produced, cuts at
//! the field length on a character boundary); a client checks lengths before it sends
//! ([`check_length`]), so an over-long name is refused with MQ's reason code instead of being
//! cut into another name.

use ferrite_constants::{reason::*, structs::MQGMO_VERSION_3};
use ferrite_mqi_types::{MqChar, MqError, MqResult, Mqgmo, Mqmd, Mqod, Mqpmo, Mqsts};

use crate::initial_data::{CAP1_MQREQUEST, CAP1_SPLIT_MESSAGES};
use crate::mqi::{CharV, Gmo, Md, Od, Pmo};
use crate::stat::Sts;
use crate::MqChars;

/// The FAP level Ferrite offers (and the highest it accepts): 13, whose ID is the full
/// 240-byte layout and whose MQCONN carries an FCNO. Lower proposals down to
/// [`MIN_FAP_LEVEL`] are accepted as proposed.
pub const FAP_LEVEL: u8 = 13;
/// The lowest FAP level accepted: 9, the first whose ID carries ConvPerSocket (SHARECNV).
pub const MIN_FAP_LEVEL: u8 = 9;
/// The largest segment (header included) the listener accepts: 1 MiB. The client proposes
/// it; the negotiated value is the smaller of the two proposals.
pub const MAX_TRANSMISSION_SIZE: u32 = 1024 * 1024;
/// The smallest MaxTransmissionSize accepted (smaller proposals are answered with a
/// renegotiation request).
pub const MIN_TRANSMISSION_SIZE: u32 = 2048;
/// The largest message: 100 MiB, MQ's limit for MAXMSGL.
pub const MAX_MESSAGE_SIZE: u32 = 100 * 1024 * 1024;
/// Bytes a flow carries besides message data (API header, MQOD, MQMD, MQPMO/MQGMO, lengths):
/// the reassembly limit is MaxMessageSize plus this.
pub const FLOW_OVERHEAD: usize = 4096;
/// CapFlags1 Ferrite sets: split messages (flows across several segments) and MQ requests
/// (MQI verbs). Nothing else (no message channels, no security exchange).
pub const CAPABILITIES1: u8 = CAP1_SPLIT_MESSAGES | CAP1_MQREQUEST;
/// The one conversation a bindings socket carries (TSHM ConversationId once ConvPerSocket
/// is negotiated to 1).
pub const CONVERSATION_ID: u32 = 1;
/// ProductId in Ferrite's IDs (12 characters).
pub const PRODUCT_ID: &str = "FRT000000100";
/// Coded character sets accepted for the flows' character data (ASCII-compatible: the codec
/// does not convert EBCDIC yet). Others get a renegotiation request with 1208.
pub const ACCEPTED_CCSIDS: &[u16] = &[819, 1208, 437, 850, 1252, 367, 923, 1051];

/// The text as a fixed-length field: blank padded, cut at `N` bytes on a character boundary.
pub fn chars<const N: usize>(text: &str) -> MqChars<N> {
    MqChars::padded(text)
}

/// Refuses `text` with `reason` when it does not fit a field of `length` bytes.
pub fn check_length(text: &str, length: usize, reason: i32) -> MqResult<()> {
    if text.trim_end_matches(' ').len() > length {
        return Err(MqError::failed(reason));
    }
    Ok(())
}

/// MQMD to its wire form (the layout IBM documents; version as given: 1 or 2). The one
/// mapping of the API's MQMD to the wire's: both ends of a connection use it, and so does
/// message selection (a selector reads the wire form), with [`md_from_wire`] and
/// [`output_md_from_wire`] the way back.
pub fn md_to_wire(md: &Mqmd) -> Md {
    Md {
        version: md.version,
        report: md.report,
        msg_type: md.msg_type,
        expiry: md.expiry,
        feedback: md.feedback,
        encoding: md.encoding,
        coded_char_set_id: md.coded_char_set_id,
        format: MqChars(md.format),
        priority: md.priority,
        persistence: md.persistence,
        msg_id: md.msg_id,
        correl_id: md.correl_id,
        backout_count: md.backout_count,
        reply_to_q: MqChars::padded(&md.reply_to_q),
        reply_to_q_mgr: MqChars::padded(&md.reply_to_q_mgr),
        user_identifier: MqChars::padded(&md.user_identifier),
        accounting_token: md.accounting_token,
        appl_identity_data: MqChars::padded(&md.appl_identity_data),
        put_appl_type: md.put_appl_type,
        put_appl_name: MqChars::padded(&md.put_appl_name),
        put_date: MqChars::padded(&md.put_date),
        put_time: MqChars::padded(&md.put_time),
        appl_origin_data: MqChars::padded(&md.appl_origin_data),
        group_id: md.group_id,
        msg_seq_number: md.msg_seq_number,
        offset: md.offset,
        msg_flags: md.msg_flags,
        original_length: md.original_length,
    }
}

/// The text of an MQCHARV of an MQOD (ObjectString, SelectionString): `od_and_after` starts at
/// the MQOD, whose VSOffset counts from there. UTF-8 and ASCII-compatible CCSIDs, and UCS-2 /
/// UTF-16 (1200, 13488, 17584, big-endian), are understood. `Err` with MQ's reason code when
/// the offset or length points outside the flow, or the text does not decode.
pub fn od_string(od_and_after: &[u8], value: &CharV) -> MqResult<String> {
    /// The longest string accepted (MQ's selection strings are limited to 10 KiB).
    const CHARV_LENGTH_MAX: usize = 64 * 1024;
    if value.vs_length == 0 {
        return Ok(String::new());
    }
    let (Ok(offset), Ok(length)) = (
        usize::try_from(value.vs_offset),
        usize::try_from(value.vs_length),
    ) else {
        return Err(MqError::failed(MQRC_SELECTION_STRING_ERROR));
    };
    if length > CHARV_LENGTH_MAX || offset.saturating_add(length) > od_and_after.len() {
        return Err(MqError::failed(MQRC_SELECTION_STRING_ERROR));
    }
    let bytes = &od_and_after[offset..offset + length];
    match value.vs_ccsid {
        1200 | 13488 | 17584 => {
            if length % 2 != 0 {
                return Err(MqError::failed(MQRC_UCS2_CONVERSION_ERROR));
            }
            let units: Vec<u16> = bytes
                .chunks_exact(2)
                .map(|pair| u16::from_be_bytes([pair[0], pair[1]]))
                .collect();
            String::from_utf16(&units).map_err(|_| MqError::failed(MQRC_UCS2_CONVERSION_ERROR))
        }
        _ => {
            String::from_utf8(bytes.to_vec()).map_err(|_| MqError::failed(MQRC_SOURCE_CCSID_ERROR))
        }
    }
}

/// Checks the MQMD's version can travel (1 or 2; MQRC_MD_ERROR otherwise). Its text fields
/// are MQ's fixed lengths (`MqChar<N>`), so they always fit their wire fields.
pub fn check_md(md: &Mqmd) -> MqResult<()> {
    if !(1..=2).contains(&md.version) {
        return Err(MqError::failed(MQRC_MD_ERROR));
    }
    Ok(())
}

/// Checks an MQPUT's or MQPUT1's MQMD ([`check_md`]) and refuses, with MQRC_MD_ERROR as the
/// queue manager's MQPUT would, a text field holding a longer text cut to fit
/// (`MqChar::is_cut`): sent, it would arrive cut and be put.
pub fn check_put_md(md: &Mqmd) -> MqResult<()> {
    check_md(md)?;
    if md.has_cut_text() {
        return Err(MqError::failed(MQRC_MD_ERROR));
    }
    Ok(())
}

/// MQMD from its wire form, for a call that takes it as input (MQPUT, MQPUT1): each text
/// field's bytes are kept as they are, without MQ's padding (they fit: the wire's field is
/// MQ's length). Bytes that are not UTF-8 cannot be held as they are (`MqChar` holds
/// UTF-8, and replacing a byte with U+FFFD takes three): MQRC_MD_ERROR, rather than a
/// changed, or cut, field put with the message.
pub fn md_from_wire(md: &Md) -> MqResult<Mqmd> {
    fn text<const N: usize>(field: &MqChars<N>) -> MqResult<MqChar<N>> {
        MqChar::from_padded_bytes(field.as_bytes()).ok_or(MqError::failed(MQRC_MD_ERROR))
    }
    Ok(Mqmd {
        reply_to_q: text(&md.reply_to_q)?,
        reply_to_q_mgr: text(&md.reply_to_q_mgr)?,
        user_identifier: text(&md.user_identifier)?,
        appl_identity_data: text(&md.appl_identity_data)?,
        put_appl_name: text(&md.put_appl_name)?,
        put_date: text(&md.put_date)?,
        put_time: text(&md.put_time)?,
        appl_origin_data: text(&md.appl_origin_data)?,
        ..output_md_from_wire(md)
    })
}

/// MQMD from its wire form where its text fields are output: an MQGET's request (the get
/// replaces them) and the queue manager's replies (the call is done; refusing it would lose
/// what it did). A byte that is not UTF-8 becomes `?` (one for one: nothing is cut); a
/// Ferrite queue manager sends UTF-8 only.
pub fn output_md_from_wire(md: &Md) -> Mqmd {
    Mqmd {
        version: md.version,
        report: md.report,
        msg_type: md.msg_type,
        expiry: md.expiry,
        feedback: md.feedback,
        encoding: md.encoding,
        coded_char_set_id: md.coded_char_set_id,
        format: md.format.0,
        priority: md.priority,
        persistence: md.persistence,
        msg_id: md.msg_id,
        correl_id: md.correl_id,
        backout_count: md.backout_count,
        reply_to_q: MqChar::from_padded_bytes_substituting(md.reply_to_q.as_bytes()),
        reply_to_q_mgr: MqChar::from_padded_bytes_substituting(md.reply_to_q_mgr.as_bytes()),
        user_identifier: MqChar::from_padded_bytes_substituting(md.user_identifier.as_bytes()),
        accounting_token: md.accounting_token,
        appl_identity_data: MqChar::from_padded_bytes_substituting(
            md.appl_identity_data.as_bytes(),
        ),
        put_appl_type: md.put_appl_type,
        put_appl_name: MqChar::from_padded_bytes_substituting(md.put_appl_name.as_bytes()),
        put_date: MqChar::from_padded_bytes_substituting(md.put_date.as_bytes()),
        put_time: MqChar::from_padded_bytes_substituting(md.put_time.as_bytes()),
        appl_origin_data: MqChar::from_padded_bytes_substituting(md.appl_origin_data.as_bytes()),
        group_id: md.group_id,
        msg_seq_number: md.msg_seq_number,
        offset: md.offset,
        msg_flags: md.msg_flags,
        original_length: md.original_length,
    }
}

/// MQOD to its wire form. The wire version is at least 3, so the reply carries
/// ResolvedQName and ResolvedQMgrName, which the MQI fills in whatever the version.
pub fn od_to_wire(od: &Mqod) -> Od {
    Od {
        version: od.version.clamp(3, 4),
        object_type: od.object_type,
        object_name: chars(&od.object_name),
        object_q_mgr_name: chars(&od.object_q_mgr_name),
        dynamic_q_name: chars(&od.dynamic_q_name),
        alternate_user_id: chars(&od.alternate_user_id),
        resolved_q_name: chars(&od.resolved_q_name),
        resolved_q_mgr_name: chars(&od.resolved_q_mgr_name),
        ..Od::default()
    }
}

/// Checks the MQOD's names fit (MQRC_OBJECT_NAME_ERROR for the object name, MQRC_OD_ERROR
/// otherwise).
pub fn check_od(od: &Mqod) -> MqResult<()> {
    check_length(&od.object_name, 48, MQRC_OBJECT_NAME_ERROR)?;
    check_length(&od.object_q_mgr_name, 48, MQRC_OD_ERROR)?;
    check_length(&od.dynamic_q_name, 48, MQRC_OD_ERROR)?;
    check_length(&od.alternate_user_id, 12, MQRC_OD_ERROR)
}

/// MQOD from its wire form (version as on the wire).
pub fn od_from_wire(od: &Od) -> Mqod {
    Mqod {
        version: od.version,
        object_type: od.object_type,
        object_name: od.object_name.trimmed(),
        object_q_mgr_name: od.object_q_mgr_name.trimmed(),
        dynamic_q_name: od.dynamic_q_name.trimmed(),
        alternate_user_id: od.alternate_user_id.trimmed(),
        resolved_q_name: od.resolved_q_name.trimmed(),
        resolved_q_mgr_name: od.resolved_q_mgr_name.trimmed(),
        // The string data follows the MQOD in the flow: see [`od_string`].
        selection_string: String::new(),
        object_string: String::new(),
    }
}

/// MQPMO to its wire form (version 1 to 3).
pub fn pmo_to_wire(pmo: &Mqpmo) -> Pmo {
    Pmo {
        version: pmo.version.clamp(1, 3),
        options: pmo.options,
        context: pmo.context,
        resolved_q_name: chars(&pmo.resolved_q_name),
        resolved_q_mgr_name: chars(&pmo.resolved_q_mgr_name),
        ..Pmo::default()
    }
}

/// MQPMO from its wire form.
pub fn pmo_from_wire(pmo: &Pmo) -> Mqpmo {
    Mqpmo {
        version: pmo.version,
        options: pmo.options,
        context: pmo.context,
        resolved_q_name: pmo.resolved_q_name.trimmed(),
        resolved_q_mgr_name: pmo.resolved_q_mgr_name.trimmed(),
        ..Mqpmo::default()
    }
}

/// MQGMO to its wire form. A version 1 MQGMO travels as version 3 with MatchOptions
/// MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID, which is exactly how version 1 matches, so the
/// reply carries ReturnedLength and the group and segment status (the MQI fills them in
/// whatever the version). Versions 2 and up travel as they are (at least 3).
pub fn gmo_to_wire(gmo: &Mqgmo) -> Gmo {
    use ferrite_constants::match_options::{MQMO_MATCH_CORREL_ID, MQMO_MATCH_MSG_ID};
    let match_options = if gmo.version < 2 {
        MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID
    } else {
        gmo.match_options
    };
    Gmo {
        version: gmo.version.clamp(MQGMO_VERSION_3, 4),
        options: gmo.options,
        wait_interval: gmo.wait_interval,
        resolved_q_name: chars(&gmo.resolved_q_name),
        match_options,
        group_status: gmo.group_status,
        segment_status: gmo.segment_status,
        segmentation: gmo.segmentation,
        msg_token: gmo.msg_token,
        returned_length: gmo.returned_length,
        ..Gmo::default()
    }
}

/// MQGMO from its wire form.
pub fn gmo_from_wire(gmo: &Gmo) -> Mqgmo {
    Mqgmo {
        version: gmo.version,
        options: gmo.options,
        wait_interval: gmo.wait_interval,
        resolved_q_name: gmo.resolved_q_name.trimmed(),
        match_options: gmo.match_options,
        group_status: gmo.group_status,
        segment_status: gmo.segment_status,
        segmentation: gmo.segmentation,
        msg_token: gmo.msg_token,
        returned_length: gmo.returned_length,
        ..Mqgmo::default()
    }
}

/// MQSTS to its wire form (the version 1 fields MQSTAT's reply carries).
pub fn sts_to_wire(sts: &Mqsts) -> Sts {
    Sts {
        comp_code: sts.comp_code,
        reason: sts.reason,
        put_success_count: sts.put_success_count,
        put_warning_count: sts.put_warning_count,
        put_failure_count: sts.put_failure_count,
        object_type: sts.object_type,
        object_name: chars(&sts.object_name),
        object_q_mgr_name: chars(&sts.object_q_mgr_name),
        resolved_object_name: chars(&sts.resolved_object_name),
        resolved_q_mgr_name: chars(&sts.resolved_q_mgr_name),
    }
}

/// MQSTS from its wire form.
pub fn sts_from_wire(sts: &Sts) -> Mqsts {
    Mqsts {
        comp_code: sts.comp_code,
        reason: sts.reason,
        put_success_count: sts.put_success_count,
        put_warning_count: sts.put_warning_count,
        put_failure_count: sts.put_failure_count,
        object_type: sts.object_type,
        object_name: sts.object_name.trimmed(),
        object_q_mgr_name: sts.object_q_mgr_name.trimmed(),
        resolved_object_name: sts.resolved_object_name.trimmed(),
        resolved_q_mgr_name: sts.resolved_q_mgr_name.trimmed(),
    }
}

// Which MQINQ/MQSET selectors are integers, and the length of each character attribute: the
// MQI's own tables, used here to size and split the flows' IntAttrs and CharAttrs.
pub use ferrite_mqi_types::calls::{character_attribute_length, is_integer_selector};

/// IntAttrCount and CharAttrLength that hold every value `selectors` ask for.
pub fn attribute_space(selectors: &[i32]) -> (usize, usize) {
    let integers = selectors
        .iter()
        .filter(|s| is_integer_selector(**s))
        .count();
    let characters = selectors
        .iter()
        .filter(|s| !is_integer_selector(**s))
        .map(|s| character_attribute_length(*s))
        .sum();
    (integers, characters)
}

/// A character attribute value padded to its field length.
pub fn character_attribute(selector: i32, text: &str) -> Vec<u8> {
    let length = character_attribute_length(selector);
    let mut bytes = vec![b' '; length];
    let mut end = text.len().min(length);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    bytes[..end].copy_from_slice(&text.as_bytes()[..end]);
    bytes
}

/// Text of a character attribute field, without trailing blanks and NULs.
pub fn attribute_text(bytes: &[u8]) -> String {
    let end = bytes
        .iter()
        .rposition(|&c| c != b' ' && c != 0)
        .map_or(0, |p| p + 1);
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_constants::selector::*;

    #[test]
    fn an_mqmd_text_that_is_not_utf8_is_refused_as_input_and_never_cut() {
        // Latin-1 "JOSÉ" and a full 12-byte Latin-1 UserIdentifier: U+FFFD for each 0xC9
        // would not fit 12 bytes, and a changed user ID must not be put.
        let mut wire = md_to_wire(&Mqmd::default());
        wire.user_identifier = MqChars(*b"JOS\xc9        ");
        assert_eq!(md_from_wire(&wire).unwrap_err().reason, MQRC_MD_ERROR);
        wire.user_identifier = MqChars([0xc9; 12]);
        assert_eq!(md_from_wire(&wire).unwrap_err().reason, MQRC_MD_ERROR);
        // As output (an MQGET's request, a reply): one '?' per such byte, nothing cut.
        assert_eq!(output_md_from_wire(&wire).user_identifier, "?".repeat(12));
        wire.user_identifier = MqChars(*b"JOS\xc9        ");
        assert_eq!(output_md_from_wire(&wire).user_identifier, "JOS?");
    }

    #[test]
    fn a_put_mqmd_with_a_text_cut_to_fit_is_refused_before_it_is_sent() {
        let long = Mqmd {
            reply_to_q: "R".repeat(49).into(),
            ..Mqmd::default()
        };
        assert_eq!(check_put_md(&long).unwrap_err().reason, MQRC_MD_ERROR);
        assert_eq!(check_md(&long), Ok(()), "an MQGET's text fields are output");
        let fits = Mqmd {
            reply_to_q: "R".repeat(48).into(),
            ..Mqmd::default()
        };
        assert_eq!(check_put_md(&fits), Ok(()));
        let version_3 = Mqmd {
            version: 3,
            ..Mqmd::default()
        };
        assert_eq!(check_put_md(&version_3).unwrap_err().reason, MQRC_MD_ERROR);
    }

    #[test]
    fn structures_survive_the_wire() {
        let md = Mqmd {
            reply_to_q: "REPLY.Q".into(),
            user_identifier: "alice".into(),
            msg_id: [7; 24],
            persistence: 1,
            ..Mqmd::default()
        };
        assert_eq!(md_from_wire(&md_to_wire(&md)), Ok(md.clone()));
        assert_eq!(output_md_from_wire(&md_to_wire(&md)), md);
        let full = Mqmd {
            reply_to_q: "R".repeat(48).as_str().into(),
            put_appl_name: "é".repeat(14).as_str().into(),
            ..Mqmd::default()
        };
        assert!(!full.has_cut_text());
        assert_eq!(
            md_from_wire(&md_to_wire(&full)),
            Ok(full),
            "full fields, as they are"
        );
        let od = Mqod {
            version: 3,
            ..Mqod::queue("APP.Q")
        };
        assert_eq!(od_from_wire(&od_to_wire(&od)), od);
        let pmo = Mqpmo::with_options(2);
        assert_eq!(pmo_from_wire(&pmo_to_wire(&pmo)), pmo);
        let gmo = Mqgmo {
            version: 3,
            ..Mqgmo::with_options(1)
        };
        assert_eq!(gmo_from_wire(&gmo_to_wire(&gmo)), gmo);
        let sts = Mqsts {
            comp_code: 2,
            reason: 2051,
            put_failure_count: 3,
            object_type: 1,
            object_name: "APP.ALIAS".into(),
            resolved_object_name: "APP.Q".into(),
            resolved_q_mgr_name: "QM1".into(),
            ..Mqsts::default()
        };
        assert_eq!(sts_from_wire(&sts_to_wire(&sts)), sts);
    }

    #[test]
    fn over_long_names_are_refused_not_cut() {
        let od = Mqod::queue(&"Q".repeat(49));
        assert_eq!(check_od(&od).unwrap_err().reason, MQRC_OBJECT_NAME_ERROR);
        assert_eq!(chars::<4>("abcdef").0, *b"abcd");
        assert_eq!(chars::<3>("aé").0, *b"a\xc3\xa9");
        assert_eq!(chars::<2>("aé").0, *b"a ");
    }

    #[test]
    fn attribute_space_counts_both_kinds() {
        assert_eq!(
            attribute_space(&[MQIA_CURRENT_Q_DEPTH, MQCA_Q_NAME, MQCA_Q_DESC]),
            (1, 112)
        );
    }
}
