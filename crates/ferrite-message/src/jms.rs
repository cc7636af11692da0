//! The JMS mapping: JMS header fields onto the MQMD and the MQRFH2 `jms` and `mcd` folders, as
//! IBM documents it for IBM MQ classes for JMS ("Mapping JMS fields onto IBM MQ fields").
//!
//! | JMS field          | Sent as                                    | Read from (first found)              |
//! |--------------------|--------------------------------------------|--------------------------------------|
//! | JMSDestination     | `jms.Dst` (`queue:///Q`)                   | `jms.Dst`                            |
//! | JMSReplyTo         | `jms.Rto` + MQMD ReplyToQ/ReplyToQMgr      | `jms.Rto`, else `queue://QMGR/Q` from the MQMD |
//! | JMSCorrelationID   | MQMD CorrelId; `jms.Cid` too unless `ID:<hex>` | `jms.Cid`, else `ID:` + hex of CorrelId (null if MQCI_NONE) |
//! | JMSMessageID       | MQMD MsgId (set by the queue manager)      | `ID:` + 48 hex digits of MsgId       |
//! | JMSDeliveryMode    | `jms.Dlv` (JMS's 1 = NON_PERSISTENT, 2 = PERSISTENT) + MQMD Persistence (0 / 1) | MQMD Persistence |
//! | JMSPriority        | `jms.Pri` + MQMD Priority                  | MQMD Priority                        |
//! | JMSExpiration      | `jms.Exp` (ms since 1970) + MQMD Expiry (tenths of a second to live) | `jms.Exp`, else 0 |
//! | JMSTimestamp       | `jms.Tms` (ms since 1970)                  | `jms.Tms`, else MQMD PutDate+PutTime |
//! | JMSType            | `mcd.Type`                                 | `mcd.Type`                           |
//! | (message class)    | `mcd.Msd`: jms_none jms_text jms_bytes jms_map jms_stream jms_object | `mcd.Msd` |
//! | JMSXGroupID        | `jms.Gid` + MQMD GroupId                   | `jms.Gid`, else `ID:` + hex of GroupId |
//! | JMSXGroupSeq       | `jms.Seq` + MQMD MsgSeqNumber              | `jms.Seq`, else MsgSeqNumber          |
//! | JMSXUserID         | MQMD UserIdentifier                        | MQMD UserIdentifier                  |
//! | JMSXAppID          | MQMD PutApplName                           | MQMD PutApplName                     |
//! | JMSXDeliveryCount  | (queue manager)                            | MQMD BackoutCount + 1                |
//! | JMS_IBM_Format, _MsgType, _Feedback, _PutApplType, _Encoding, _PutDate, _PutTime | MQMD | MQMD |
//!
//! A `JMSCorrelationID` that is not `ID:` followed by hex digits is a plain string: MQ JMS
//! stores it whole in `jms.Cid` and puts its first 24 UTF-8 bytes, padded with NULs, in the
//! MQMD CorrelId ([`correlation_id_bytes`]). That is what lets the queue manager turn a
//! selector on `JMSCorrelationID` into a get by CORRELID.
//!
//! The "Sent as" column is IBM's mapping as summarised here; [`JmsHeaders::apply`] writes the
//! fields it carries (not the JMSX group fields yet). The "Read from" order (folder first, then
//! MQMD) is this crate's choice where IBM's documentation leaves it open.
//!
//! Not done: the `mcd://domain/set/type?format=fmt` URI form of JMSType (`mcd.Set`, `mcd.Fmt`),
//! JMS_IBM_Report_* and JMS_IBM_ArmCorrelationId/WrmCorrelationId (`mqext.Arm`, `mqext.Wrm`).

use ferrite_constants::{
    ids::MQCI_NONE,
    persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENT},
};
use ferrite_protocol::{mqi::Md, MqChars};

use crate::codec::trimmed;
use crate::properties::{
    from_hex, to_hex, MessageProperties, PropertyError, PropertySource, PropertyValue,
};

/// `JMSDeliveryMode` of a persistent message, as a selector sees it.
pub const DELIVERY_MODE_PERSISTENT: &str = "PERSISTENT";
/// `JMSDeliveryMode` of a non-persistent message, as a selector sees it.
pub const DELIVERY_MODE_NON_PERSISTENT: &str = "NON_PERSISTENT";

/// JMS `DeliveryMode.NON_PERSISTENT`, the value of `jms.Dlv` for a non-persistent message.
pub const JMS_DELIVERY_MODE_NON_PERSISTENT: i32 = 1;
/// JMS `DeliveryMode.PERSISTENT`, the value of `jms.Dlv` for a persistent message.
pub const JMS_DELIVERY_MODE_PERSISTENT: i32 = 2;

/// The JMS header fields a selector may name (JMS 2.0 section 3.8.1.1); the others
/// (JMSDestination, JMSReplyTo, JMSExpiration, JMSRedelivered ...) are NULL in a selector.
pub const SELECTOR_HEADER_FIELDS: [&str; 6] = [
    "JMSDeliveryMode",
    "JMSPriority",
    "JMSMessageID",
    "JMSTimestamp",
    "JMSCorrelationID",
    "JMSType",
];

/// The JMS message class, `mcd.Msd`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageDomain {
    /// `jms_none`: a Message with no body.
    None,
    /// `jms_text`: TextMessage.
    Text,
    /// `jms_bytes`: BytesMessage.
    Bytes,
    /// `jms_map`: MapMessage.
    Map,
    /// `jms_stream`: StreamMessage.
    Stream,
    /// `jms_object`: ObjectMessage.
    Object,
}

impl MessageDomain {
    /// The `mcd.Msd` value.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageDomain::None => "jms_none",
            MessageDomain::Text => "jms_text",
            MessageDomain::Bytes => "jms_bytes",
            MessageDomain::Map => "jms_map",
            MessageDomain::Stream => "jms_stream",
            MessageDomain::Object => "jms_object",
        }
    }

    /// Parses an `mcd.Msd` value.
    pub fn parse(value: &str) -> Option<MessageDomain> {
        [
            MessageDomain::None,
            MessageDomain::Text,
            MessageDomain::Bytes,
            MessageDomain::Map,
            MessageDomain::Stream,
            MessageDomain::Object,
        ]
        .into_iter()
        .find(|d| d.as_str() == value)
    }
}

/// The MQMD CorrelId MQ JMS uses for a JMSCorrelationID: `ID:` followed by up to 48 hex digits
/// gives those bytes; anything else gives its first 24 UTF-8 bytes. Both are padded with NULs.
pub fn correlation_id_bytes(id: &str) -> [u8; 24] {
    let mut out = [0u8; 24];
    if let Some(bytes) = id_hex_bytes(id) {
        out[..bytes.len()].copy_from_slice(&bytes);
    } else {
        let bytes = id.as_bytes();
        let n = bytes.len().min(24);
        out[..n].copy_from_slice(&bytes[..n]);
    }
    out
}

/// The bytes of an `ID:<hex>` identifier (at most 24), or `None` if `id` is not of that form.
pub fn id_hex_bytes(id: &str) -> Option<Vec<u8>> {
    let hex = id.strip_prefix("ID:")?;
    from_hex(hex).filter(|bytes| bytes.len() <= 24)
}

/// `ID:` followed by the 48 hex digits of a 24-byte identifier (JMSMessageID's form).
pub fn id_string(bytes: &[u8; 24]) -> String {
    format!("ID:{}", to_hex(bytes))
}

/// JMS header fields to send, as an application sets them (each `None` = not set).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JmsHeaders {
    /// JMSDestination, `queue:///NAME` or `topic://...`.
    pub destination: Option<String>,
    /// JMSReplyTo, `queue://QMGR/NAME`.
    pub reply_to: Option<String>,
    /// JMSCorrelationID.
    pub correlation_id: Option<String>,
    /// JMSType.
    pub jms_type: Option<String>,
    /// JMSDeliveryMode: JMS_DELIVERY_MODE_PERSISTENT (2) or JMS_DELIVERY_MODE_NON_PERSISTENT
    /// (1); MQMD Persistence becomes MQPER_PERSISTENT (1) or MQPER_NOT_PERSISTENT (0).
    pub delivery_mode: Option<i32>,
    /// JMSPriority 0..9.
    pub priority: Option<i32>,
    /// JMSExpiration, ms since 1970 (0 = never).
    pub expiration_ms: Option<i64>,
    /// JMSTimestamp, ms since 1970.
    pub timestamp_ms: Option<i64>,
    /// The message class (`mcd.Msd`).
    pub domain: Option<MessageDomain>,
}

impl JmsHeaders {
    /// Writes the fields onto `md` and `properties` as MQ JMS does at send. The `jms` folder's
    /// numbers are untyped text, as IBM's client writes them (`<Dlv>2</Dlv>`).
    pub fn apply(
        &self,
        md: &mut Md,
        properties: &mut MessageProperties,
    ) -> Result<(), PropertyError> {
        let string = |s: &String| PropertyValue::String(s.clone());
        let number = |v: i64| PropertyValue::String(v.to_string());
        if let Some(domain) = self.domain {
            properties
                .set_unchecked_jms("mcd.Msd", PropertyValue::String(domain.as_str().into()))?;
        }
        if let Some(jms_type) = &self.jms_type {
            properties.set_unchecked_jms("mcd.Type", string(jms_type))?;
        }
        if let Some(destination) = &self.destination {
            properties.set_unchecked_jms("jms.Dst", string(destination))?;
        }
        if let Some(reply_to) = &self.reply_to {
            properties.set_unchecked_jms("jms.Rto", string(reply_to))?;
            if let Some((q_mgr, queue)) = parse_queue_uri(reply_to) {
                md.reply_to_q = chars(&queue);
                md.reply_to_q_mgr = chars(&q_mgr);
            }
        }
        if let Some(timestamp) = self.timestamp_ms {
            properties.set_unchecked_jms("jms.Tms", number(timestamp))?;
        }
        if let Some(expiration) = self.expiration_ms.filter(|e| *e != 0) {
            properties.set_unchecked_jms("jms.Exp", number(expiration))?;
            if let Some(timestamp) = self.timestamp_ms {
                let tenths = ((expiration - timestamp).max(1) + 99) / 100;
                md.expiry = i32::try_from(tenths).unwrap_or(i32::MAX);
            }
        }
        if let Some(correlation_id) = &self.correlation_id {
            md.correl_id = correlation_id_bytes(correlation_id);
            if id_hex_bytes(correlation_id).is_none() {
                properties.set_unchecked_jms("jms.Cid", string(correlation_id))?;
            }
        }
        if let Some(mode) = self.delivery_mode {
            properties.set_unchecked_jms("jms.Dlv", number(i64::from(mode)))?;
            md.persistence = if mode == JMS_DELIVERY_MODE_PERSISTENT {
                MQPER_PERSISTENT
            } else {
                MQPER_NOT_PERSISTENT
            };
        }
        if let Some(priority) = self.priority {
            properties.set_unchecked_jms("jms.Pri", number(i64::from(priority)))?;
            md.priority = priority;
        }
        Ok(())
    }
}

fn chars<const N: usize>(text: &str) -> MqChars<N> {
    MqChars::padded(text)
}

/// Splits `queue://QMGR/NAME` (QMGR may be empty: `queue:///NAME`) into (QMGR, NAME), ignoring
/// `?name=value` options.
pub fn parse_queue_uri(uri: &str) -> Option<(String, String)> {
    let rest = uri.strip_prefix("queue://")?;
    let rest = rest.split('?').next().unwrap_or(rest);
    let (q_mgr, queue) = rest.split_once('/')?;
    Some((q_mgr.to_owned(), queue.to_owned()))
}

/// The value of a JMS header field, JMSX property or JMS_IBM property for a message, or
/// `None` if `name` does not start with `JMS`. `Some(None)` is a NULL value.
pub fn header_value(source: &impl PropertySource, name: &str) -> Option<Option<PropertyValue>> {
    if !name.starts_with("JMS") {
        return None;
    }
    let md = source.descriptor();
    let folder_string = |property: &str| match source.property(property) {
        Some(PropertyValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let folder_integer = |property: &str| match source.property(property) {
        Some(PropertyValue::Int64(v)) => Some(*v),
        Some(PropertyValue::Int32(v)) => Some(i64::from(*v)),
        Some(PropertyValue::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    let text = |s: String| Some(PropertyValue::String(s));
    Some(match name {
        "JMSDeliveryMode" => text(
            if md.persistence == MQPER_PERSISTENT {
                DELIVERY_MODE_PERSISTENT
            } else {
                DELIVERY_MODE_NON_PERSISTENT
            }
            .into(),
        ),
        "JMSPriority" => Some(PropertyValue::Int32(md.priority)),
        "JMSMessageID" => {
            (md.msg_id != [0; 24]).then(|| PropertyValue::String(id_string(&md.msg_id)))
        }
        "JMSCorrelationID" => match folder_string("jms.Cid") {
            Some(cid) => text(cid),
            None if md.correl_id != MQCI_NONE => text(id_string(&md.correl_id)),
            None => None,
        },
        "JMSTimestamp" => folder_integer("jms.Tms")
            .or_else(|| put_timestamp_ms(&md.put_date.0, &md.put_time.0))
            .map(PropertyValue::Int64),
        "JMSType" => folder_string("mcd.Type").map(PropertyValue::String),
        "JMSExpiration" => Some(PropertyValue::Int64(folder_integer("jms.Exp").unwrap_or(0))),
        "JMSDestination" => folder_string("jms.Dst").map(PropertyValue::String),
        "JMSReplyTo" => folder_string("jms.Rto")
            .or_else(|| {
                let queue = md.reply_to_q.trimmed();
                (!queue.is_empty())
                    .then(|| format!("queue://{}/{}", md.reply_to_q_mgr.trimmed(), queue))
            })
            .map(PropertyValue::String),
        "JMSRedelivered" => Some(PropertyValue::Boolean(md.backout_count > 0)),
        "JMSXDeliveryCount" => Some(PropertyValue::Int32(md.backout_count.saturating_add(1))),
        "JMSXGroupID" => folder_string("jms.Gid")
            .or_else(|| (md.group_id != [0; 24]).then(|| id_string(&md.group_id)))
            .map(PropertyValue::String),
        "JMSXGroupSeq" => Some(PropertyValue::Int32(
            folder_integer("jms.Seq")
                .and_then(|v| i32::try_from(v).ok())
                .unwrap_or(md.msg_seq_number),
        )),
        "JMSXUserID" => text(md.user_identifier.trimmed()),
        "JMSXAppID" => text(md.put_appl_name.trimmed()),
        "JMS_IBM_Format" => text(trimmed(&md.format.0)),
        "JMS_IBM_MsgType" => Some(PropertyValue::Int32(md.msg_type)),
        "JMS_IBM_Feedback" => Some(PropertyValue::Int32(md.feedback)),
        "JMS_IBM_PutApplType" => Some(PropertyValue::Int32(md.put_appl_type)),
        "JMS_IBM_Encoding" => Some(PropertyValue::Int32(md.encoding)),
        "JMS_IBM_PutDate" => text(md.put_date.trimmed()),
        "JMS_IBM_PutTime" => text(md.put_time.trimmed()),
        _ => None,
    })
}

/// The value a selector sees for `name` when it is a JMS name: [`header_value`], except that
/// header fields outside [`SELECTOR_HEADER_FIELDS`] are NULL (JMS 2.0 section 3.8.1.1).
pub fn selector_value(source: &impl PropertySource, name: &str) -> Option<Option<PropertyValue>> {
    let is_header =
        name.starts_with("JMS") && !name.starts_with("JMSX") && !name.starts_with("JMS_");
    if is_header && !SELECTOR_HEADER_FIELDS.contains(&name) {
        return Some(None);
    }
    header_value(source, name)
}

/// Milliseconds since 1970 of MQMD PutDate (`YYYYMMDD`) and PutTime (`HHMMSSTH`, GMT), or
/// `None` if either is not all digits or out of range.
pub fn put_timestamp_ms(put_date: &[u8; 8], put_time: &[u8; 8]) -> Option<i64> {
    let number = |digits: &[u8]| -> Option<i64> {
        digits.iter().try_fold(0i64, |acc, &d| {
            d.is_ascii_digit().then(|| acc * 10 + i64::from(d - b'0'))
        })
    };
    let (year, month, day) = (
        number(&put_date[0..4])?,
        number(&put_date[4..6])?,
        number(&put_date[6..8])?,
    );
    let (hour, minute, second, hundredths) = (
        number(&put_time[0..2])?,
        number(&put_time[2..4])?,
        number(&put_time[4..6])?,
        number(&put_time[6..8])?,
    );
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some((((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + hundredths * 10)
}

/// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::properties::MessageView;

    #[test]
    fn correlation_ids_as_mq_jms_pads_them() {
        let hex = "ID:414D5120514D31202020202020202020A1B2C3D4E5F60708";
        let bytes = correlation_id_bytes(hex);
        assert_eq!(&bytes[..4], b"AMQ ");
        assert_eq!(&bytes[20..], &[0xE5, 0xF6, 0x07, 0x08]);
        assert_eq!(id_string(&bytes), hex);
        let mut short = [0u8; 24];
        short[..2].copy_from_slice(&[0xAB, 0xCD]);
        assert_eq!(correlation_id_bytes("ID:abcd"), short);
        let mut plain = [0u8; 24];
        plain[..5].copy_from_slice(b"order");
        assert_eq!(correlation_id_bytes("order"), plain);
        assert_eq!(correlation_id_bytes("ID:xyz")[..6], *b"ID:xyz");
        assert_eq!(correlation_id_bytes(&"c".repeat(30)), [b'c'; 24]);
    }

    #[test]
    fn put_date_and_time_to_milliseconds() {
        assert_eq!(put_timestamp_ms(b"19700101", b"00000000"), Some(0));
        assert_eq!(
            put_timestamp_ms(b"20231114", b"22132012"),
            Some(1_700_000_000_120)
        );
        assert_eq!(put_timestamp_ms(b"2023111x", b"22132012"), None);
        assert_eq!(put_timestamp_ms(b"20231314", b"22132012"), None);
        assert_eq!(put_timestamp_ms(b"        ", b"        "), None);
    }

    #[test]
    fn headers_apply_and_read_back() {
        let mut md = Md::default();
        let mut properties = MessageProperties::new();
        let headers = JmsHeaders {
            destination: Some("queue:///Q1".into()),
            reply_to: Some("queue://QM1/REPLY".into()),
            correlation_id: Some("order-17".into()),
            jms_type: Some("Invoice".into()),
            delivery_mode: Some(JMS_DELIVERY_MODE_PERSISTENT),
            priority: Some(7),
            expiration_ms: Some(1_700_000_060_000),
            timestamp_ms: Some(1_700_000_000_000),
            domain: Some(MessageDomain::Text),
        };
        headers.apply(&mut md, &mut properties).unwrap();
        assert_eq!(md.reply_to_q.trimmed(), "REPLY");
        assert_eq!(md.reply_to_q_mgr.trimmed(), "QM1");
        assert_eq!(md.expiry, 600);
        assert_eq!(md.priority, 7);
        assert_eq!(md.persistence, MQPER_PERSISTENT);
        assert_eq!(
            properties.get("jms.Dlv"),
            Some(&PropertyValue::String("2".into()))
        );
        assert_eq!(&md.correl_id[..8], b"order-17");
        md.msg_id = [0x11; 24];
        md.backout_count = 2;
        let view = MessageView {
            descriptor: &md,
            properties: &properties,
        };
        let value = |name| header_value(&view, name).unwrap();
        let string = |s: &str| Some(PropertyValue::String(s.into()));
        assert_eq!(value("JMSDestination"), string("queue:///Q1"));
        assert_eq!(value("JMSReplyTo"), string("queue://QM1/REPLY"));
        assert_eq!(value("JMSCorrelationID"), string("order-17"));
        assert_eq!(value("JMSType"), string("Invoice"));
        assert_eq!(value("JMSDeliveryMode"), string("PERSISTENT"));
        assert_eq!(value("JMSPriority"), Some(PropertyValue::Int32(7)));
        assert_eq!(
            value("JMSTimestamp"),
            Some(PropertyValue::Int64(1_700_000_000_000))
        );
        assert_eq!(
            value("JMSExpiration"),
            Some(PropertyValue::Int64(1_700_000_060_000))
        );
        assert_eq!(
            value("JMSMessageID"),
            string(&format!("ID:{}", "11".repeat(24)))
        );
        assert_eq!(value("JMSXDeliveryCount"), Some(PropertyValue::Int32(3)));
        assert_eq!(value("JMSRedelivered"), Some(PropertyValue::Boolean(true)));
        assert_eq!(
            properties.get("mcd.Msd"),
            Some(&PropertyValue::String("jms_text".into()))
        );
        assert_eq!(header_value(&view, "Colour"), None);
        assert_eq!(selector_value(&view, "JMSDestination"), Some(None));
        assert_eq!(
            selector_value(&view, "JMSPriority"),
            Some(Some(PropertyValue::Int32(7)))
        );
    }

    #[test]
    fn hex_correlation_id_lives_in_the_mqmd_only() {
        let mut md = Md::default();
        let mut properties = MessageProperties::new();
        let id = format!("ID:{}", "AB".repeat(24));
        JmsHeaders {
            correlation_id: Some(id.clone()),
            ..JmsHeaders::default()
        }
        .apply(&mut md, &mut properties)
        .unwrap();
        assert!(properties.is_empty());
        assert_eq!(md.correl_id, [0xAB; 24]);
        let view = MessageView {
            descriptor: &md,
            properties: &properties,
        };
        assert_eq!(
            header_value(&view, "JMSCorrelationID"),
            Some(Some(PropertyValue::String(id)))
        );
        md.correl_id = MQCI_NONE;
        let view = MessageView {
            descriptor: &md,
            properties: &properties,
        };
        assert_eq!(header_value(&view, "JMSCorrelationID"), Some(None));
    }

    #[test]
    fn reply_to_from_the_mqmd_and_domains() {
        let md = Md {
            reply_to_q: chars("R"),
            reply_to_q_mgr: chars("QM"),
            ..Md::default()
        };
        let properties = MessageProperties::new();
        let view = MessageView {
            descriptor: &md,
            properties: &properties,
        };
        assert_eq!(
            header_value(&view, "JMSReplyTo"),
            Some(Some(PropertyValue::String("queue://QM/R".into())))
        );
        for domain in [
            "jms_none",
            "jms_text",
            "jms_bytes",
            "jms_map",
            "jms_stream",
            "jms_object",
        ] {
            assert_eq!(MessageDomain::parse(domain).unwrap().as_str(), domain);
        }
        assert_eq!(MessageDomain::parse("jms_other"), None);
        assert_eq!(
            parse_queue_uri("queue:///Q?persistence=2"),
            Some((String::new(), "Q".into()))
        );
    }
}
