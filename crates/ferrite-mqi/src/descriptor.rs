//! Mapping between the MQMD and the storage engine's [`MessageDescriptor`].
//!
//! The engine stores priority, persistence, MsgId, CorrelId, GroupId (with MsgSeqNumber when a
//! group id is present), expiry and the put time itself. Every other MQMD field travels in the
//! engine's `descriptor_extension`, encoded here.
//!
//! ## Descriptor extension encoding
//! A sequence of fields, each a one-byte tag followed by its value, in ascending tag order. A
//! field equal to its *baseline* value is omitted, so a message put with default context and
//! default descriptor fields has an empty extension. Integers are zigzag varints (LEB128 of
//! `(n << 1) ^ (n >> 31)`); text is a varint length then the bytes with trailing blanks removed;
//! binary fields are their fixed bytes.
//!
//! | Tag | Field | Value | Baseline (omitted when equal) |
//! |---|---|---|---|
//! | 1 | Report | zigzag varint | MQRO_NONE (0) |
//! | 2 | MsgType | zigzag varint | MQMT_DATAGRAM (8) |
//! | 3 | Feedback | zigzag varint | MQFB_NONE (0) |
//! | 4 | Encoding | zigzag varint | MQENC_NATIVE (546) |
//! | 5 | CodedCharSetId | zigzag varint | the queue manager's CCSID, [`QUEUE_MANAGER_CCSID`] (1208) |
//! | 6 | Format | text (≤ 8) | MQFMT_NONE (blank) |
//! | 7 | ReplyToQ | text (≤ 48) | blank |
//! | 8 | ReplyToQMgr | text (≤ 48) | blank |
//! | 9 | UserIdentifier | text (≤ 12) | blank |
//! | 10 | AccountingToken | 32 bytes | MQACT_NONE |
//! | 11 | ApplIdentityData | text (≤ 32) | blank |
//! | 12 | PutApplType | zigzag varint | MQAT_NO_CONTEXT (0) |
//! | 13 | PutApplName | text (≤ 28) | blank |
//! | 14 | PutDate | text (≤ 8) | derived from the engine's put time (YYYYMMDD, GMT) |
//! | 15 | PutTime | text (≤ 8) | derived from the engine's put time (HHMMSSTH, GMT) |
//! | 16 | ApplOriginData | text (≤ 4) | blank |
//! | 17 | MsgSeqNumber | zigzag varint | 1 (only stored here when GroupId is none; otherwise the engine keeps it) |
//! | 18 | Offset | zigzag varint | 0 (written by older versions; the engine keeps Offset now) |
//! | 19 | MsgFlags | zigzag varint | MQMF_NONE (0) (written by older versions; the engine keeps MsgFlags now) |
//! | 20 | OriginalLength | zigzag varint | MQOL_UNDEFINED (-1) |
//!
//! PutDate and PutTime are stored only when they differ from the put time the engine records
//! (MQPMO_SET_ALL_CONTEXT with other values, or MQPMO_NO_CONTEXT, which stores them blank).
//! Unknown tags are refused, so nothing is silently dropped.

use ferrite_constants::{
    encoding::MQENC_NATIVE, expiry::MQEI_UNLIMITED, ids::MQACT_NONE, message_type::MQMT_DATAGRAM,
    misc::MQOL_UNDEFINED, persistence::MQPER_NOT_PERSISTENT, persistence::MQPER_PERSISTENT,
};
use ferrite_storage::data_manager::message::{MessageDescriptor, NO_IDENTIFIER};

use crate::structures::Mqmd;

/// The queue manager's coded character set (UTF-8), filled in for MQCCSI_Q_MGR at put.
pub const QUEUE_MANAGER_CCSID: i32 = 1208;

/// A stored descriptor extension that cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtensionError(pub &'static str);

impl std::fmt::Display for ExtensionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "descriptor extension: {}", self.0)
    }
}

mod tag {
    pub const REPORT: u8 = 1;
    pub const MSG_TYPE: u8 = 2;
    pub const FEEDBACK: u8 = 3;
    pub const ENCODING: u8 = 4;
    pub const CCSID: u8 = 5;
    pub const FORMAT: u8 = 6;
    pub const REPLY_TO_Q: u8 = 7;
    pub const REPLY_TO_Q_MGR: u8 = 8;
    pub const USER_IDENTIFIER: u8 = 9;
    pub const ACCOUNTING_TOKEN: u8 = 10;
    pub const APPL_IDENTITY_DATA: u8 = 11;
    pub const PUT_APPL_TYPE: u8 = 12;
    pub const PUT_APPL_NAME: u8 = 13;
    pub const PUT_DATE: u8 = 14;
    pub const PUT_TIME: u8 = 15;
    pub const APPL_ORIGIN_DATA: u8 = 16;
    pub const MSG_SEQ_NUMBER: u8 = 17;
    pub const OFFSET: u8 = 18;
    pub const MSG_FLAGS: u8 = 19;
    pub const ORIGINAL_LENGTH: u8 = 20;
}

/// Text without MQ's trailing blank padding.
pub(crate) fn trim(text: &str) -> &str {
    text.trim_end_matches(' ')
}

struct Writer(Vec<u8>);

impl Writer {
    fn varint(&mut self, mut value: u64) {
        loop {
            let byte = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                self.0.push(byte);
                return;
            }
            self.0.push(byte | 0x80);
        }
    }
    fn int(&mut self, tag: u8, value: i32, baseline: i32) {
        if value != baseline {
            self.0.push(tag);
            self.varint(((value << 1) ^ (value >> 31)) as u32 as u64);
        }
    }
    fn text(&mut self, tag: u8, value: &str, baseline: &str) {
        if trim(value) != baseline {
            self.text_always(tag, value);
        }
    }
    fn text_always(&mut self, tag: u8, value: &str) {
        let value = trim(value);
        self.0.push(tag);
        self.varint(value.len() as u64);
        self.0.extend_from_slice(value.as_bytes());
    }
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, ExtensionError> {
        let (&first, rest) = self.0.split_first().ok_or(ExtensionError("truncated"))?;
        self.0 = rest;
        Ok(first)
    }
    fn varint(&mut self) -> Result<u64, ExtensionError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= ((byte & 0x7f) as u64) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(ExtensionError("varint too long"))
    }
    fn int(&mut self) -> Result<i32, ExtensionError> {
        let raw = u32::try_from(self.varint()?).map_err(|_| ExtensionError("integer too large"))?;
        Ok(((raw >> 1) as i32) ^ -((raw & 1) as i32))
    }
    fn raw(&mut self, length: usize) -> Result<&[u8], ExtensionError> {
        if self.0.len() < length {
            return Err(ExtensionError("truncated"));
        }
        let (bytes, rest) = self.0.split_at(length);
        self.0 = rest;
        Ok(bytes)
    }
    fn text(&mut self, max: usize) -> Result<String, ExtensionError> {
        let length = self.varint()? as usize;
        if length > max {
            return Err(ExtensionError("text field too long"));
        }
        String::from_utf8(self.raw(length)?.to_vec()).map_err(|_| ExtensionError("not UTF-8"))
    }
}

/// PutDate (YYYYMMDD) and PutTime (HHMMSSTH), GMT, of a time in milliseconds since the epoch.
pub fn put_date_time(ms: u64) -> (String, String) {
    let days = (ms / 86_400_000) as i64;
    let in_day = ms % 86_400_000;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let hours = in_day / 3_600_000;
    let minutes = in_day / 60_000 % 60;
    let seconds = in_day / 1000 % 60;
    let hundredths = in_day % 1000 / 10;
    (
        format!("{year:04}{month:02}{day:02}"),
        format!("{hours:02}{minutes:02}{seconds:02}{hundredths:02}"),
    )
}

/// The engine descriptor of a message about to be put. `md` must already be resolved: Priority
/// 0–9, Persistence 0 or 1, ids and context filled in, CodedCharSetId not MQCCSI_Q_MGR;
/// `put_time_ms` is the time PutDate and PutTime were derived from (they are stored only if
/// they differ from it).
pub fn to_engine(md: &Mqmd, put_time_ms: u64) -> MessageDescriptor {
    debug_assert!((0..=9).contains(&md.priority));
    let mut w = Writer(Vec::new());
    w.int(tag::REPORT, md.report, 0);
    w.int(tag::MSG_TYPE, md.msg_type, MQMT_DATAGRAM);
    w.int(tag::FEEDBACK, md.feedback, 0);
    w.int(tag::ENCODING, md.encoding, MQENC_NATIVE);
    w.int(tag::CCSID, md.coded_char_set_id, QUEUE_MANAGER_CCSID);
    let format = String::from_utf8_lossy(&md.format).into_owned();
    w.text(tag::FORMAT, &format, "");
    w.text(tag::REPLY_TO_Q, &md.reply_to_q, "");
    w.text(tag::REPLY_TO_Q_MGR, &md.reply_to_q_mgr, "");
    w.text(tag::USER_IDENTIFIER, &md.user_identifier, "");
    if md.accounting_token != MQACT_NONE {
        w.0.push(tag::ACCOUNTING_TOKEN);
        w.0.extend_from_slice(&md.accounting_token);
    }
    w.text(tag::APPL_IDENTITY_DATA, &md.appl_identity_data, "");
    w.int(tag::PUT_APPL_TYPE, md.put_appl_type, 0);
    w.text(tag::PUT_APPL_NAME, &md.put_appl_name, "");
    let (date, time) = put_date_time(put_time_ms);
    // Explicitly stored (even blank) when it is not the derived value.
    if trim(&md.put_date) != date {
        w.text_always(tag::PUT_DATE, &md.put_date);
    }
    if trim(&md.put_time) != time {
        w.text_always(tag::PUT_TIME, &md.put_time);
    }
    w.text(tag::APPL_ORIGIN_DATA, &md.appl_origin_data, "");
    if md.group_id == NO_IDENTIFIER {
        w.int(tag::MSG_SEQ_NUMBER, md.msg_seq_number, 1);
    }
    // Offset and MsgFlags are the engine's own (its group index needs them at restart).
    w.int(tag::ORIGINAL_LENGTH, md.original_length, MQOL_UNDEFINED);
    MessageDescriptor {
        persistent: md.persistence == MQPER_PERSISTENT,
        priority: md.priority as u8,
        message_id: md.msg_id,
        correlation_id: md.correl_id,
        group_id: md.group_id,
        sequence_in_group: if md.group_id == NO_IDENTIFIER {
            1
        } else {
            md.msg_seq_number as u32
        },
        message_flags: md.msg_flags as u32,
        segment_offset: md.offset.max(0) as u32,
        expiry_tenths: (md.expiry != MQEI_UNLIMITED).then_some(md.expiry as u32),
        put_time_ms,
        descriptor_extension: w.0,
    }
}

/// The MQMD of a stored message as MQGET returns it. `now_ms` turns the stored expiry into
/// the remaining lifetime; `backout_count` comes from the engine's slot. `version` is kept
/// from the caller's MQMD.
pub fn from_engine(
    descriptor: &MessageDescriptor,
    backout_count: u16,
    now_ms: u64,
    version: i32,
) -> Result<Mqmd, ExtensionError> {
    let (put_date, put_time) = put_date_time(descriptor.put_time_ms);
    let mut md = Mqmd {
        version,
        coded_char_set_id: QUEUE_MANAGER_CCSID,
        priority: descriptor.priority as i32,
        persistence: if descriptor.persistent {
            MQPER_PERSISTENT
        } else {
            MQPER_NOT_PERSISTENT
        },
        msg_id: descriptor.message_id,
        correl_id: descriptor.correlation_id,
        group_id: descriptor.group_id,
        msg_seq_number: descriptor.sequence_in_group as i32,
        msg_flags: descriptor.message_flags as i32,
        offset: descriptor.segment_offset as i32,
        backout_count: backout_count as i32,
        put_date,
        put_time,
        expiry: match descriptor.expires_at_ms() {
            None => MQEI_UNLIMITED,
            // What is left, in tenths, at least 1 while the message is still there.
            Some(at) => (at.saturating_sub(now_ms).div_ceil(100)).clamp(1, i32::MAX as u64) as i32,
        },
        ..Mqmd::default()
    };
    let mut r = Reader(&descriptor.descriptor_extension);
    let mut last_tag = 0;
    while !r.0.is_empty() {
        let tag = r.byte()?;
        if tag <= last_tag {
            return Err(ExtensionError("tags out of order"));
        }
        last_tag = tag;
        match tag {
            tag::REPORT => md.report = r.int()?,
            tag::MSG_TYPE => md.msg_type = r.int()?,
            tag::FEEDBACK => md.feedback = r.int()?,
            tag::ENCODING => md.encoding = r.int()?,
            tag::CCSID => md.coded_char_set_id = r.int()?,
            tag::FORMAT => {
                let text = r.text(8)?;
                md.format = *b"        ";
                md.format[..text.len()].copy_from_slice(text.as_bytes());
            }
            tag::REPLY_TO_Q => md.reply_to_q = r.text(48)?,
            tag::REPLY_TO_Q_MGR => md.reply_to_q_mgr = r.text(48)?,
            tag::USER_IDENTIFIER => md.user_identifier = r.text(12)?,
            tag::ACCOUNTING_TOKEN => md.accounting_token.copy_from_slice(r.raw(32)?),
            tag::APPL_IDENTITY_DATA => md.appl_identity_data = r.text(32)?,
            tag::PUT_APPL_TYPE => md.put_appl_type = r.int()?,
            tag::PUT_APPL_NAME => md.put_appl_name = r.text(28)?,
            tag::PUT_DATE => md.put_date = r.text(8)?,
            tag::PUT_TIME => md.put_time = r.text(8)?,
            tag::APPL_ORIGIN_DATA => md.appl_origin_data = r.text(4)?,
            tag::MSG_SEQ_NUMBER => md.msg_seq_number = r.int()?,
            tag::OFFSET => md.offset = r.int()?,
            tag::MSG_FLAGS => md.msg_flags = r.int()?,
            tag::ORIGINAL_LENGTH => md.original_length = r.int()?,
            _ => return Err(ExtensionError("unknown field tag")),
        }
    }
    Ok(md)
}
