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

use crate::mq_char::MqChar;
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
            self.bytes_always(tag, trim(value).as_bytes());
        }
    }
    /// A field's text, trimmed, unless it is blank (the baseline of every MQCHAR field but
    /// PutDate and PutTime).
    fn field<const N: usize>(&mut self, tag: u8, value: &MqChar<N>) {
        let value = value.trimmed_bytes();
        if !value.is_empty() {
            self.bytes_always(tag, value);
        }
    }
    fn bytes_always(&mut self, tag: u8, value: &[u8]) {
        self.0.push(tag);
        self.varint(value.len() as u64);
        self.0.extend_from_slice(value);
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
    /// A text field of at most `N` bytes (its MQCHAR length), decoded in place.
    fn text<const N: usize>(&mut self) -> Result<MqChar<N>, ExtensionError> {
        let length = self.varint()? as usize;
        if length > N {
            return Err(ExtensionError("text field too long"));
        }
        let text =
            std::str::from_utf8(self.raw(length)?).map_err(|_| ExtensionError("not UTF-8"))?;
        Ok(MqChar::new(text).expect("checked against N above"))
    }
}

/// PutDate (YYYYMMDD) and PutTime (HHMMSSTH), GMT, of a time in milliseconds since the epoch.
pub fn put_date_time(ms: u64) -> (String, String) {
    let (date, time) = put_date_time_fields(ms);
    (date.to_string(), time.to_string())
}

/// [`put_date_time`] as the MQMD's fields, without allocating.
pub fn put_date_time_fields(ms: u64) -> (MqChar<8>, MqChar<8>) {
    let (date, time) = put_date_time_digits(ms);
    (digits_field(&date), digits_field(&time))
}

/// A time in milliseconds since the epoch as MQ shows dates and times in DISPLAY output and
/// in MQINQ's creation and alteration attributes: (`2024-01-31`, `12.34.56`), GMT.
pub fn display_date_time(ms: u64) -> (String, String) {
    let (date, time) = convert_put_date_time(ms);
    let text = |digits: &[u8]| {
        std::str::from_utf8(digits)
            .expect("ASCII digits")
            .to_string()
    };
    (
        format!(
            "{}-{}-{}",
            text(&date[0..4]),
            text(&date[4..6]),
            text(&date[6..8])
        ),
        format!(
            "{}.{}.{}",
            text(&time[0..2]),
            text(&time[2..4]),
            text(&time[4..6])
        ),
    )
}

/// PutDate and PutTime as their eight ASCII digits each, without allocating: every MQPUT and
/// MQGET derives them (MQPUT to fill the MQMD and to check whether the extension must store
/// them, MQGET to return them). The last hundredth of a second converted is kept per thread,
/// so a busy thread converts about once per hundredth.
pub fn put_date_time_digits(ms: u64) -> ([u8; 8], [u8; 8]) {
    thread_local! {
        /// (hundredths since the epoch, PutDate, PutTime) of the last conversion.
        static LAST: std::cell::Cell<(u64, [u8; 8], [u8; 8])> =
            const { std::cell::Cell::new((u64::MAX, [0; 8], [0; 8])) };
    }
    let hundredths = ms / 10;
    LAST.with(|last| {
        let (cached, date, time) = last.get();
        if cached == hundredths {
            return (date, time);
        }
        let (date, time) = convert_put_date_time(ms);
        last.set((hundredths, date, time));
        (date, time)
    })
}

/// Eight ASCII digits as an MQCHAR8 field.
fn digits_field(digits: &[u8; 8]) -> MqChar<8> {
    debug_assert!(
        digits.iter().all(u8::is_ascii_digit),
        "PutDate and PutTime are digits"
    );
    MqChar::from_ascii(digits).expect("eight ASCII digits fit eight bytes")
}

fn convert_put_date_time(ms: u64) -> ([u8; 8], [u8; 8]) {
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
    // Years after 9999 cannot be written in four digits; MQ's PutDate has no room for them.
    let year = year.clamp(0, 9999) as u64;
    let mut date = [b'0'; 8];
    write_digits(&mut date[0..4], year);
    write_digits(&mut date[4..6], month as u64);
    write_digits(&mut date[6..8], day as u64);
    let mut time = [b'0'; 8];
    write_digits(&mut time[0..2], hours);
    write_digits(&mut time[2..4], minutes);
    write_digits(&mut time[4..6], seconds);
    write_digits(&mut time[6..8], hundredths);
    (date, time)
}

/// `value` in decimal, zero-padded to fill `into` (which it must fit).
fn write_digits(into: &mut [u8], mut value: u64) {
    for place in into.iter_mut().rev() {
        *place = b'0' + (value % 10) as u8;
        value /= 10;
    }
    debug_assert_eq!(value, 0, "the value fits the field");
}

/// Bytes reserved for a descriptor extension up front: a put with default context stores its
/// UserIdentifier and PutApplName (at most 2 + 12 + 2 + 28 bytes), so one allocation holds it.
const EXTENSION_CAPACITY_BYTES: usize = 48;

/// The engine descriptor of a message about to be put. `md` must already be resolved: Priority
/// 0–9, Persistence 0 or 1, ids and context filled in, CodedCharSetId not MQCCSI_Q_MGR;
/// `put_time_ms` is the time PutDate and PutTime were derived from (they are stored only if
/// they differ from it).
pub fn to_engine(md: &Mqmd, put_time_ms: u64) -> MessageDescriptor {
    debug_assert!((0..=9).contains(&md.priority));
    let mut w = Writer(Vec::with_capacity(EXTENSION_CAPACITY_BYTES));
    w.int(tag::REPORT, md.report, 0);
    w.int(tag::MSG_TYPE, md.msg_type, MQMT_DATAGRAM);
    w.int(tag::FEEDBACK, md.feedback, 0);
    w.int(tag::ENCODING, md.encoding, MQENC_NATIVE);
    w.int(tag::CCSID, md.coded_char_set_id, QUEUE_MANAGER_CCSID);
    match MqChar::<8>::from_ascii(&md.format) {
        // The MQPUT's check: ASCII, so UTF-8 as it is.
        Some(format) => w.field(tag::FORMAT, &format),
        None => w.text(tag::FORMAT, &String::from_utf8_lossy(&md.format), ""),
    }
    w.field(tag::REPLY_TO_Q, &md.reply_to_q);
    w.field(tag::REPLY_TO_Q_MGR, &md.reply_to_q_mgr);
    w.field(tag::USER_IDENTIFIER, &md.user_identifier);
    if md.accounting_token != MQACT_NONE {
        w.0.push(tag::ACCOUNTING_TOKEN);
        w.0.extend_from_slice(&md.accounting_token);
    }
    w.field(tag::APPL_IDENTITY_DATA, &md.appl_identity_data);
    w.int(tag::PUT_APPL_TYPE, md.put_appl_type, 0);
    w.field(tag::PUT_APPL_NAME, &md.put_appl_name);
    let (date, time) = put_date_time_digits(put_time_ms);
    // Explicitly stored (even blank) when it is not the derived value.
    if md.put_date.trimmed_bytes() != date {
        w.bytes_always(tag::PUT_DATE, md.put_date.trimmed_bytes());
    }
    if md.put_time.trimmed_bytes() != time {
        w.bytes_always(tag::PUT_TIME, md.put_time.trimmed_bytes());
    }
    w.field(tag::APPL_ORIGIN_DATA, &md.appl_origin_data);
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
    let (put_date, put_time) = put_date_time_fields(descriptor.put_time_ms);
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
                let text = r.text::<8>()?;
                md.format = *b"        ";
                md.format[..text.len()].copy_from_slice(text.as_bytes());
            }
            tag::REPLY_TO_Q => md.reply_to_q = r.text()?,
            tag::REPLY_TO_Q_MGR => md.reply_to_q_mgr = r.text()?,
            tag::USER_IDENTIFIER => md.user_identifier = r.text()?,
            tag::ACCOUNTING_TOKEN => md.accounting_token.copy_from_slice(r.raw(32)?),
            tag::APPL_IDENTITY_DATA => md.appl_identity_data = r.text()?,
            tag::PUT_APPL_TYPE => md.put_appl_type = r.int()?,
            tag::PUT_APPL_NAME => md.put_appl_name = r.text()?,
            tag::PUT_DATE => md.put_date = r.text()?,
            tag::PUT_TIME => md.put_time = r.text()?,
            tag::APPL_ORIGIN_DATA => md.appl_origin_data = r.text()?,
            tag::MSG_SEQ_NUMBER => md.msg_seq_number = r.int()?,
            tag::OFFSET => md.offset = r.int()?,
            tag::MSG_FLAGS => md.msg_flags = r.int()?,
            tag::ORIGINAL_LENGTH => md.original_length = r.int()?,
            _ => return Err(ExtensionError("unknown field tag")),
        }
    }
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_date_and_time_are_gmt_digits() {
        assert_eq!(
            put_date_time(0),
            ("19700101".to_string(), "00000000".to_string())
        );
        assert_eq!(
            put_date_time(1_700_000_000_000),
            ("20231114".to_string(), "22132000".to_string())
        );
        // Leap day, last hundredth of the day.
        assert_eq!(
            put_date_time(1_709_251_199_999),
            ("20240229".to_string(), "23595999".to_string())
        );
        assert_eq!(
            put_date_time(946_598_400_050),
            ("19991231".to_string(), "00000005".to_string())
        );
    }

    #[test]
    fn the_per_thread_cache_follows_the_hundredth() {
        // Same hundredth: the cached digits; the next hundredth and back: converted again.
        let first = put_date_time_digits(1_709_251_199_990);
        assert_eq!(put_date_time_digits(1_709_251_199_999), first);
        assert_eq!(
            put_date_time_digits(1_709_251_200_000),
            (*b"20240301", *b"00000000")
        );
        assert_eq!(put_date_time_digits(1_709_251_199_995), first);
        assert_eq!(first, (*b"20240229", *b"23595999"));
    }
}
