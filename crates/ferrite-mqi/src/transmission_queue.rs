//! The message a put for another queue manager leaves on its transmission queue: an MQXQH
//! (RemoteQName, RemoteQMgrName and the message's own MQMD as version 1), an MQMDE when the
//! message's version-2 fields are not MQ's defaults, then the application data; as MQ lays it
//! out (docs/formats.md "Messages on a transmission queue").
//!
//! The transmission-queue message's own MQMD is the message's, with Format `MQXMIT`, the
//! native encoding, the queue manager's CCSID and the group fields at their defaults (they
//! travel in the MQMDE). The MQXQH's integers are native (little-endian) like that MQMD says.

use ferrite_constants::reason::MQRC_FORMAT_ERROR;
use ferrite_constants::{
    encoding::MQENC_NATIVE,
    format::{MQFMT_MD_EXTENSION, MQFMT_XMIT_Q_HEADER},
    ids::MQGI_NONE,
    message_flags::MQMF_NONE,
    misc::MQOL_UNDEFINED,
    structs::MQMDE_STRUC_ID,
};
use ferrite_message::TransmissionHeader;
use ferrite_protocol::{
    wire::{md_from_wire, md_to_wire},
    ByteOrder,
};

use crate::descriptor::QUEUE_MANAGER_CCSID;
use crate::error::{MqError, MqResult};
use crate::name_resolution::RemoteDestination;
use crate::structures::Mqmd;

/// Length of an MQMDE (version 2).
pub const MD_EXTENSION_LENGTH: usize = 72;

/// MQMDE.Version.
const MD_EXTENSION_VERSION_2: i32 = 2;

/// The byte order of the integers a transmission-queue message's headers hold (MQENC_NATIVE).
pub const TRANSMISSION_BYTE_ORDER: ByteOrder = ByteOrder::Little;

/// Whether the version-2 fields of `md` differ from MQ's defaults (an MQMDE must carry them).
pub fn needs_md_extension(md: &Mqmd) -> bool {
    md.group_id != MQGI_NONE
        || md.msg_seq_number != 1
        || md.offset != 0
        || md.msg_flags != MQMF_NONE
        || md.original_length != MQOL_UNDEFINED
}

/// The descriptor and data of the transmission-queue message for `stored` (the descriptor the
/// message would have been stored with locally) and `data`, bound for `destination`.
pub fn transmission_message(
    stored: &Mqmd,
    destination: &RemoteDestination,
    data: &[u8],
) -> (Mqmd, Vec<u8>) {
    let extension = needs_md_extension(stored);
    let mut embedded = md_to_wire(stored);
    if extension {
        // The MQMDE carries the original Encoding, CodedCharSetId and Format.
        embedded.encoding = MQENC_NATIVE;
        embedded.coded_char_set_id = QUEUE_MANAGER_CCSID;
        embedded.format = ferrite_protocol::MqChars(MQFMT_MD_EXTENSION);
    }
    let header = TransmissionHeader {
        remote_q_name: destination.remote_q_name.clone(),
        remote_q_mgr_name: destination.remote_q_mgr_name.clone(),
        msg_desc: embedded,
    };
    let mut message = header
        .encode(TRANSMISSION_BYTE_ORDER)
        .expect("resolved names are at most 48 characters");
    if extension {
        message.extend_from_slice(&md_extension(stored));
    }
    message.extend_from_slice(data);
    let mut xmit = stored.clone();
    xmit.format = MQFMT_XMIT_Q_HEADER;
    xmit.encoding = MQENC_NATIVE;
    xmit.coded_char_set_id = QUEUE_MANAGER_CCSID;
    xmit.group_id = MQGI_NONE;
    xmit.msg_seq_number = 1;
    xmit.offset = 0;
    xmit.msg_flags = MQMF_NONE;
    xmit.original_length = MQOL_UNDEFINED;
    (xmit, message)
}

/// The MQMDE (version 2, 72 bytes, native integers) holding `md`'s version-2 fields and its
/// Encoding, CodedCharSetId and Format.
pub fn md_extension(md: &Mqmd) -> [u8; MD_EXTENSION_LENGTH] {
    let mut out = Vec::with_capacity(MD_EXTENSION_LENGTH);
    let int = |out: &mut Vec<u8>, value: i32| out.extend_from_slice(&value.to_le_bytes());
    out.extend_from_slice(&MQMDE_STRUC_ID);
    int(&mut out, MD_EXTENSION_VERSION_2);
    int(&mut out, MD_EXTENSION_LENGTH as i32);
    int(&mut out, md.encoding);
    int(&mut out, md.coded_char_set_id);
    out.extend_from_slice(&md.format);
    int(&mut out, 0); // Flags: MQMDEF_NONE
    out.extend_from_slice(&md.group_id);
    int(&mut out, md.msg_seq_number);
    int(&mut out, md.offset);
    int(&mut out, md.msg_flags);
    int(&mut out, md.original_length);
    out.try_into().expect("an MQMDE is 72 bytes")
}

/// What a transmission-queue message carries: where it goes, and the message itself (its
/// MQMD, version-2 fields restored from an MQMDE, and its data).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransmittedMessage {
    /// RemoteQName.
    pub remote_q_name: String,
    /// RemoteQMgrName.
    pub remote_q_mgr_name: String,
    /// The message's MQMD.
    pub md: Mqmd,
    /// Where the message's data starts in the transmission-queue message.
    pub data_offset: usize,
}

/// Reads a transmission-queue message (as [`transmission_message`] or another queue
/// manager's sending MCA makes it; integers in either byte order, told by the MQXQH's
/// Version). MQRC_FORMAT_ERROR when it is not one.
pub fn parse_transmission_message(message: &[u8]) -> MqResult<TransmittedMessage> {
    let format_error = || MqError::failed(MQRC_FORMAT_ERROR);
    let order = match message.get(4..8) {
        Some(version) if version == 1i32.to_be_bytes() => ByteOrder::Big,
        _ => TRANSMISSION_BYTE_ORDER,
    };
    let header = TransmissionHeader::decode(message, order).map_err(|_| format_error())?;
    let mut md = md_from_wire(&header.msg_desc).map_err(|_| format_error())?;
    let mut data_offset = ferrite_message::transmission_header::TRANSMISSION_HEADER_LENGTH;
    if md.format == MQFMT_MD_EXTENSION {
        let extension = message
            .get(data_offset..data_offset + MD_EXTENSION_LENGTH)
            .ok_or_else(format_error)?;
        apply_md_extension(&mut md, extension, order).ok_or_else(format_error)?;
        data_offset += MD_EXTENSION_LENGTH;
    }
    md.version = md.version.max(2);
    Ok(TransmittedMessage {
        remote_q_name: header.remote_q_name,
        remote_q_mgr_name: header.remote_q_mgr_name,
        md,
        data_offset,
    })
}

/// Sets `md`'s Encoding, CodedCharSetId, Format and version-2 fields from an MQMDE; `None`
/// when the bytes are not an MQMDE version 2.
fn apply_md_extension(md: &mut Mqmd, extension: &[u8], order: ByteOrder) -> Option<()> {
    let int = |offset: usize| -> Option<i32> {
        let bytes: [u8; 4] = extension.get(offset..offset + 4)?.try_into().ok()?;
        Some(match order {
            ByteOrder::Big => i32::from_be_bytes(bytes),
            ByteOrder::Little => i32::from_le_bytes(bytes),
        })
    };
    if extension.get(0..4)? != MQMDE_STRUC_ID || int(4)? != MD_EXTENSION_VERSION_2 {
        return None;
    }
    md.encoding = int(12)?;
    md.coded_char_set_id = int(16)?;
    md.format = extension.get(20..28)?.try_into().ok()?;
    md.group_id = extension.get(32..56)?.try_into().ok()?;
    md.msg_seq_number = int(56)?;
    md.offset = int(60)?;
    md.msg_flags = int(64)?;
    md.original_length = int(68)?;
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_constants::{
        format::MQFMT_STRING,
        message_flags::{MQMF_LAST_MSG_IN_GROUP, MQMF_MSG_IN_GROUP},
    };

    fn destination() -> RemoteDestination {
        RemoteDestination {
            transmission_queue: "QM2".into(),
            remote_q_name: "APP.IN".into(),
            remote_q_mgr_name: "QM2".into(),
        }
    }

    #[test]
    fn an_ordinary_message_is_xqh_then_data() {
        let stored = Mqmd {
            format: MQFMT_STRING,
            priority: 4,
            ..Mqmd::default()
        };
        let (xmit, message) = transmission_message(&stored, &destination(), b"hello");
        assert_eq!(xmit.format, MQFMT_XMIT_Q_HEADER);
        assert_eq!(xmit.priority, 4);
        assert_eq!(message.len(), 428 + 5);
        assert_eq!(&message[..4], b"XQH ");
        assert_eq!(&message[428..], b"hello");
        let header = TransmissionHeader::decode(&message, TRANSMISSION_BYTE_ORDER).unwrap();
        assert_eq!(header.remote_q_name, "APP.IN");
        assert_eq!(header.remote_q_mgr_name, "QM2");
        assert_eq!(header.msg_desc.format.0, MQFMT_STRING);
        assert_eq!(header.msg_desc.priority, 4);
    }

    #[test]
    fn a_group_member_carries_an_md_extension() {
        let stored = Mqmd {
            format: MQFMT_STRING,
            group_id: [3; 24],
            msg_seq_number: 2,
            msg_flags: MQMF_MSG_IN_GROUP | MQMF_LAST_MSG_IN_GROUP,
            ..Mqmd::default()
        };
        let (xmit, message) = transmission_message(&stored, &destination(), b"x");
        assert_eq!(xmit.group_id, MQGI_NONE);
        assert_eq!(xmit.msg_flags, MQMF_NONE);
        let header = TransmissionHeader::decode(&message, TRANSMISSION_BYTE_ORDER).unwrap();
        assert_eq!(header.msg_desc.format.0, MQFMT_MD_EXTENSION);
        let extension = &message[428..428 + MD_EXTENSION_LENGTH];
        assert_eq!(&extension[..4], b"MDE ");
        assert_eq!(&extension[20..28], &MQFMT_STRING);
        assert_eq!(&extension[32..56], &[3; 24]);
        assert_eq!(i32::from_le_bytes(extension[56..60].try_into().unwrap()), 2);
        assert_eq!(&message[428 + MD_EXTENSION_LENGTH..], b"x");
        let parsed = parse_transmission_message(&message).unwrap();
        assert_eq!(parsed.md.format, MQFMT_STRING);
        assert_eq!(parsed.md.group_id, [3; 24]);
        assert_eq!(parsed.md.msg_seq_number, 2);
        assert_eq!(parsed.md.msg_flags, stored.msg_flags);
        assert_eq!(&message[parsed.data_offset..], b"x");
    }

    #[test]
    fn parsing_gives_back_the_destination_and_descriptor() {
        let stored = Mqmd {
            format: MQFMT_STRING,
            priority: 3,
            msg_id: [9; 24],
            reply_to_q: "R".into(),
            ..Mqmd::default()
        };
        let (_, message) = transmission_message(&stored, &destination(), b"data");
        let parsed = parse_transmission_message(&message).unwrap();
        assert_eq!(parsed.remote_q_name, "APP.IN");
        assert_eq!(parsed.remote_q_mgr_name, "QM2");
        assert_eq!(parsed.md.msg_id, [9; 24]);
        assert_eq!(parsed.md.priority, 3);
        assert_eq!(parsed.md.reply_to_q, stored.reply_to_q);
        assert_eq!(&message[parsed.data_offset..], b"data");
        assert!(parse_transmission_message(&message[..100]).is_err());
        assert!(parse_transmission_message(b"not a transmission queue message").is_err());
    }
}
