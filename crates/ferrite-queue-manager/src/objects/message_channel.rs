//! Message channels (distributed queuing): the channel types besides SVRCONN and the attributes
//! only message channels have, with MQ's defaults, ranges and the channel types each applies to.
//!
//! A [`super::ChannelDefinition`] carries its [`ChannelType`] and one
//! [`MessageChannelAttributes`] (MQ's defaults on a SVRCONN channel, never used there). Their
//! lines in the CHANNEL image (absent in older images: the defaults):
//!
//! | line       | value                                                              |
//! |------------|--------------------------------------------------------------------|
//! | `CHLTYPE`  | SVRCONN, SDR, SVR, RCVR or RQSTR                                   |
//! | `CONNAME`  | `host(port)` entries separated by `,`, tried in turn               |
//! | `XMITQ`    | the transmission queue (SDR, SVR)                                  |
//! | `BATCHSZ` `BATCHINT` `BATCHLIM` `BATCHHB` | numbers (messages, ms, KiB, ms)     |
//! | `NPMSPEED` | FAST or NORMAL                                                     |
//! | `SHORTRTY` `SHORTTMR` `LONGRTY` `LONGTMR` | numbers (attempts, seconds)          |
//! | `SEQWRAP`  | the number after which sequence numbers wrap to 1                   |
//! | `PUTAUT`   | DEF or CTX                                                         |
//! | `STATCHL`  | QMGR, OFF, LOW, MEDIUM or HIGH (channel statistics records)          |
//! | `COMPHDR` `COMPMSG` | techniques in order of preference, separated by `,`       |
//!
//! Written only for message channels, so a SVRCONN image is what it was before they existed.

use ferrite_constants::channel::{
    MQCOMPRESS_ANY, MQCOMPRESS_NONE, MQCOMPRESS_RLE, MQCOMPRESS_SYSTEM, MQCOMPRESS_ZLIBFAST,
    MQCOMPRESS_ZLIBHIGH,
};
use ferrite_storage::error::{StorageError, StorageResult};

/// The channel types Ferrite defines (MQ's CHLTYPE keywords).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelType {
    /// SVRCONN: a client connection's server end.
    ServerConnection,
    /// SDR: sends the messages of its transmission queue to a RCVR or RQSTR.
    Sender,
    /// SVR: a sender that a RQSTR may start, or that starts with a CONNAME.
    Server,
    /// RCVR: receives messages and puts them to their destination queues.
    Receiver,
    /// RQSTR: a receiver that starts by asking its SVR or SDR partner to send.
    Requester,
}

/// Every channel type, in MQ's MQCHT order.
pub const CHANNEL_TYPES: [ChannelType; 5] = [
    ChannelType::Sender,
    ChannelType::Server,
    ChannelType::Receiver,
    ChannelType::Requester,
    ChannelType::ServerConnection,
];

impl ChannelType {
    /// The CHLTYPE keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            ChannelType::ServerConnection => "SVRCONN",
            ChannelType::Sender => "SDR",
            ChannelType::Server => "SVR",
            ChannelType::Receiver => "RCVR",
            ChannelType::Requester => "RQSTR",
        }
    }

    /// The type a CHLTYPE keyword names, if Ferrite defines it.
    pub fn from_keyword(keyword: &str) -> Option<ChannelType> {
        CHANNEL_TYPES
            .into_iter()
            .find(|channel_type| channel_type.keyword() == keyword)
    }

    /// MQCHT_* (PCF's ChannelType).
    pub fn mqcht(self) -> i32 {
        match self {
            ChannelType::Sender => 1,
            ChannelType::Server => 2,
            ChannelType::Receiver => 3,
            ChannelType::Requester => 4,
            ChannelType::ServerConnection => 7,
        }
    }

    /// The type of an MQCHT_* value.
    pub fn from_mqcht(value: i32) -> Option<ChannelType> {
        CHANNEL_TYPES
            .into_iter()
            .find(|channel_type| channel_type.mqcht() == value)
    }

    /// Whether this is a message channel (between queue managers).
    pub fn is_message_channel(self) -> bool {
        self != ChannelType::ServerConnection
    }

    /// Whether the channel's MCA sends messages from a transmission queue (SDR, SVR).
    pub fn sends(self) -> bool {
        matches!(self, ChannelType::Sender | ChannelType::Server)
    }

    /// Whether the attribute `keyword` (MQSC's name) belongs to this channel type, as MQ's
    /// DEFINE CHANNEL documents it.
    pub fn has_attribute(self, keyword: &str) -> bool {
        use ChannelType::*;
        let types: &[ChannelType] = match keyword {
            "CHLTYPE" | "TRPTYPE" | "DESCR" | "MAXMSGL" | "HBINT" | "MONCHL" | "SSLCIPH"
            | "SSLCAUTH" | "SSLPEER" | "MCAUSER" | "KAINT" | "QSGDISP" => return true,
            "SHARECNV" | "MAXINST" | "MAXINSTC" => &[ServerConnection],
            "DISCINT" => &[ServerConnection, Sender, Server],
            "CONNAME" => &[Sender, Server, Requester],
            "XMITQ" | "BATCHINT" | "BATCHLIM" | "BATCHHB" | "SHORTRTY" | "SHORTTMR" | "LONGRTY"
            | "LONGTMR" => &[Sender, Server],
            "BATCHSZ" | "NPMSPEED" | "SEQWRAP" => &[Sender, Server, Receiver, Requester],
            "PUTAUT" => &[Receiver, Requester],
            // MQ collects channel statistics for message channels only.
            "STATCHL" => &[Sender, Server, Receiver, Requester],
            "COMPHDR" | "COMPMSG" => &[Sender, Server, Receiver, Requester],
            _ => return false,
        };
        types.contains(&self)
    }
}

/// NPMSPEED: how non-persistent messages travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonPersistentMessageSpeed {
    /// FAST (MQ's default): outside the batch's unit of work, visible at once.
    Fast,
    /// NORMAL: in the batch, like persistent messages.
    Normal,
}

/// PUTAUT: whose authority the receiving MCA puts messages with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PutAuthority {
    /// DEF (MQ's default): the MCA's own user ID (MCAUSER, or the queue manager's).
    Default,
    /// CTX: the UserIdentifier in each message's MQMD.
    Context,
}

/// COMPHDR's techniques (MQCOMPRESS_*) and keywords.
pub const HEADER_COMPRESSION_KEYWORDS: &[(&str, i32)] =
    &[("NONE", MQCOMPRESS_NONE), ("SYSTEM", MQCOMPRESS_SYSTEM)];
/// COMPMSG's techniques and keywords (ANY only on a receiving channel: RCVR, RQSTR).
pub const MESSAGE_COMPRESSION_KEYWORDS: &[(&str, i32)] = &[
    ("NONE", MQCOMPRESS_NONE),
    ("RLE", MQCOMPRESS_RLE),
    ("ZLIBFAST", MQCOMPRESS_ZLIBFAST),
    ("ZLIBHIGH", MQCOMPRESS_ZLIBHIGH),
    ("ANY", MQCOMPRESS_ANY),
];
/// The most techniques COMPHDR and COMPMSG list (MQCD's HdrCompList and MsgCompList).
pub const HEADER_COMPRESSION_LIST_MAX: usize = 2;
pub const MESSAGE_COMPRESSION_LIST_MAX: usize = 16;

/// The keyword of technique `value` in `keywords` ("?" for one it does not name).
pub fn compression_keyword(keywords: &[(&'static str, i32)], value: i32) -> &'static str {
    keywords
        .iter()
        .find(|(_, known)| *known == value)
        .map_or("?", |(keyword, _)| *keyword)
}

/// A COMPHDR or COMPMSG list as MQSC shows it: keywords separated by commas.
pub fn compression_list_text(keywords: &[(&'static str, i32)], list: &[i32]) -> String {
    list.iter()
        .map(|value| compression_keyword(keywords, *value))
        .collect::<Vec<_>>()
        .join(",")
}

/// The techniques of a COMPHDR or COMPMSG value (keywords separated by commas, blanks
/// around them ignored); `Err` names a keyword `keywords` does not have.
pub fn parse_compression_list(
    keywords: &[(&'static str, i32)],
    text: &str,
) -> Result<Vec<i32>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|word| !word.is_empty())
        .map(|word| {
            keywords
                .iter()
                .find(|(keyword, _)| keyword.eq_ignore_ascii_case(word))
                .map(|(_, value)| *value)
                .ok_or_else(|| format!("'{word}' is not a compression technique here"))
        })
        .collect()
}

/// Longest CONNAME (MQ_CONN_NAME_LENGTH).
pub const CONNECTION_NAME_LENGTH_MAX: usize = 264;
/// BATCHSZ range (MQ: 1-9999).
pub const BATCH_SIZE_MAX: u32 = 9_999;
/// BATCHINT and BATCHHB limits, milliseconds (MQ: 0-999999999 and 0-999999).
pub const BATCH_INTERVAL_MS_MAX: u32 = 999_999_999;
pub const BATCH_HEARTBEAT_MS_MAX: u32 = 999_999;
/// BATCHLIM range, KiB (MQ: 0-999999; 0 = no limit).
pub const BATCH_DATA_LIMIT_KIB_MAX: u32 = 999_999;
/// SHORTRTY, LONGRTY limit (MQ: 0-999999999) and SHORTTMR, LONGTMR limit, seconds.
pub const RETRY_COUNT_MAX: u32 = 999_999_999;
pub const RETRY_INTERVAL_SECONDS_MAX: u32 = 999_999_999;
/// SEQWRAP range (MQ: 100-999999999).
pub const SEQUENCE_WRAP_MIN: u32 = 100;
pub const SEQUENCE_WRAP_MAX: u32 = 999_999_999;
/// STATCHL values of a channel, MQ's default first.
pub const CHANNEL_STATISTICS_VALUES: [&str; 5] = ["QMGR", "OFF", "LOW", "MEDIUM", "HIGH"];
/// DISCINT of a new SDR or SVR channel (MQ's default, seconds).
pub const MESSAGE_CHANNEL_DISCONNECT_INTERVAL_DEFAULT: u32 = 6_000;

/// The attributes of a message channel, with MQ's defaults from [`Default`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageChannelAttributes {
    /// CONNAME: the partner's addresses, `host(port)` (or `host`, port 1414), tried in turn.
    pub connection_names: Vec<String>,
    /// XMITQ: the transmission queue a SDR or SVR sends from.
    pub transmission_queue: String,
    /// BATCHSZ: the most messages in one batch (default 50).
    pub batch_size: u32,
    /// BATCHINT: milliseconds a batch stays open waiting for more messages (default 0).
    pub batch_interval_ms: u32,
    /// BATCHLIM: KiB of message data that end a batch (default 5000; 0: no limit).
    pub batch_data_limit_kib: u32,
    /// BATCHHB: milliseconds of silence after which a batch starts with a heartbeat (0: never).
    pub batch_heartbeat_ms: u32,
    /// NPMSPEED (default FAST).
    pub non_persistent_message_speed: NonPersistentMessageSpeed,
    /// SHORTRTY (default 10) and SHORTTMR (default 60 s).
    pub short_retry_count: u32,
    pub short_retry_interval_seconds: u32,
    /// LONGRTY (default 999999999) and LONGTMR (default 1200 s).
    pub long_retry_count: u32,
    pub long_retry_interval_seconds: u32,
    /// SEQWRAP (default 999999999).
    pub sequence_number_wrap: u32,
    /// PUTAUT (default DEF).
    pub put_authority: PutAuthority,
    /// STATCHL: whether the channel writes statistics records (one of
    /// [`CHANNEL_STATISTICS_VALUES`]; QMGR, the default: as the queue manager's STATCHL).
    /// Read when the channel starts, as MQ does.
    pub statistics: String,
    /// COMPHDR: header compression techniques in order of preference (MQCOMPRESS_*;
    /// default NONE).
    pub header_compression: Vec<i32>,
    /// COMPMSG: message data compression techniques in order of preference (default NONE).
    pub message_compression: Vec<i32>,
}

impl Default for MessageChannelAttributes {
    fn default() -> MessageChannelAttributes {
        MessageChannelAttributes {
            connection_names: Vec::new(),
            transmission_queue: String::new(),
            batch_size: 50,
            batch_interval_ms: 0,
            batch_data_limit_kib: 5_000,
            batch_heartbeat_ms: 0,
            non_persistent_message_speed: NonPersistentMessageSpeed::Fast,
            short_retry_count: 10,
            short_retry_interval_seconds: 60,
            long_retry_count: RETRY_COUNT_MAX,
            long_retry_interval_seconds: 1_200,
            sequence_number_wrap: SEQUENCE_WRAP_MAX,
            put_authority: PutAuthority::Default,
            statistics: CHANNEL_STATISTICS_VALUES[0].to_string(),
            header_compression: vec![MQCOMPRESS_NONE],
            message_compression: vec![MQCOMPRESS_NONE],
        }
    }
}

/// One CONNAME entry: `host(port)` or `host` (port 1414). The host is a name or an IPv4 or
/// IPv6 address; `None` when the entry is not of that form.
pub fn parse_connection_name(entry: &str) -> Option<(String, u16)> {
    let entry = entry.trim();
    let (host, port) = match entry.split_once('(') {
        Some((host, rest)) => {
            let port = rest.strip_suffix(')')?.trim().parse::<u16>().ok()?;
            (host.trim(), port)
        }
        None => (entry, 1414),
    };
    let valid = !host.is_empty()
        && port != 0
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-_:".contains(c));
    valid.then(|| (host.to_string(), port))
}

/// CONNAME as MQSC and DISPLAY show it: the entries separated by commas.
pub fn connection_name_text(names: &[String]) -> String {
    names.join(",")
}

/// The entries of a CONNAME value (separated by commas; blanks around them ignored).
pub fn split_connection_names(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(str::to_string)
        .collect()
}

impl MessageChannelAttributes {
    /// Checks every attribute's range and the attributes `channel_type` needs.
    pub fn validate(&self, channel_type: ChannelType) -> StorageResult<()> {
        let fail = |what: String| Err(StorageError::invalid(what));
        let text = connection_name_text(&self.connection_names);
        if text.len() > CONNECTION_NAME_LENGTH_MAX {
            return fail(format!(
                "CONNAME is at most {CONNECTION_NAME_LENGTH_MAX} characters"
            ));
        }
        if let Some(bad) = self
            .connection_names
            .iter()
            .find(|entry| parse_connection_name(entry).is_none())
        {
            return fail(format!("CONNAME entry '{bad}' is not host(port) or host"));
        }
        if !self.transmission_queue.is_empty()
            && !super::is_valid_object_name(&self.transmission_queue, super::OBJECT_NAME_LENGTH_MAX)
        {
            return fail("XMITQ is not a valid queue name".to_string());
        }
        if !(1..=BATCH_SIZE_MAX).contains(&self.batch_size) {
            return fail(format!("BATCHSZ must be 1-{BATCH_SIZE_MAX}"));
        }
        let ranges = [
            ("BATCHINT", self.batch_interval_ms, BATCH_INTERVAL_MS_MAX),
            ("BATCHHB", self.batch_heartbeat_ms, BATCH_HEARTBEAT_MS_MAX),
            (
                "BATCHLIM",
                self.batch_data_limit_kib,
                BATCH_DATA_LIMIT_KIB_MAX,
            ),
            ("SHORTRTY", self.short_retry_count, RETRY_COUNT_MAX),
            (
                "SHORTTMR",
                self.short_retry_interval_seconds,
                RETRY_INTERVAL_SECONDS_MAX,
            ),
            ("LONGRTY", self.long_retry_count, RETRY_COUNT_MAX),
            (
                "LONGTMR",
                self.long_retry_interval_seconds,
                RETRY_INTERVAL_SECONDS_MAX,
            ),
        ];
        if let Some((name, _, max)) = ranges.iter().find(|(_, value, max)| value > max) {
            return fail(format!("{name} must be 0-{max}"));
        }
        if !CHANNEL_STATISTICS_VALUES.contains(&self.statistics.as_str()) {
            return fail("STATCHL must be QMGR, OFF, LOW, MEDIUM or HIGH".to_string());
        }
        if !(SEQUENCE_WRAP_MIN..=SEQUENCE_WRAP_MAX).contains(&self.sequence_number_wrap) {
            return fail(format!(
                "SEQWRAP must be {SEQUENCE_WRAP_MIN}-{SEQUENCE_WRAP_MAX}"
            ));
        }
        self.validate_compression(channel_type)?;
        match channel_type {
            ChannelType::Sender | ChannelType::Requester if self.connection_names.is_empty() => {
                fail(format!(
                    "a CHLTYPE({}) channel needs CONNAME",
                    channel_type.keyword()
                ))
            }
            ChannelType::Sender | ChannelType::Server if self.transmission_queue.is_empty() => {
                fail(format!(
                    "a CHLTYPE({}) channel needs XMITQ",
                    channel_type.keyword()
                ))
            }
            _ => Ok(()),
        }
    }

    /// COMPHDR and COMPMSG: one to the list's limit of known techniques, each once; ANY
    /// only on a receiving channel, as MQ allows.
    fn validate_compression(&self, channel_type: ChannelType) -> StorageResult<()> {
        let lists = [
            (
                "COMPHDR",
                &self.header_compression,
                HEADER_COMPRESSION_KEYWORDS,
                HEADER_COMPRESSION_LIST_MAX,
            ),
            (
                "COMPMSG",
                &self.message_compression,
                MESSAGE_COMPRESSION_KEYWORDS,
                MESSAGE_COMPRESSION_LIST_MAX,
            ),
        ];
        for (name, list, keywords, max) in lists {
            if list.is_empty() || list.len() > max {
                return Err(StorageError::invalid(format!(
                    "{name} lists 1 to {max} techniques"
                )));
            }
            for (index, value) in list.iter().enumerate() {
                if !keywords.iter().any(|(_, known)| known == value) {
                    return Err(StorageError::invalid(format!(
                        "{name} value {value} is not a technique"
                    )));
                }
                if list[..index].contains(value) {
                    return Err(StorageError::invalid(format!(
                        "{name} names {} twice",
                        compression_keyword(keywords, *value)
                    )));
                }
            }
        }
        if self.message_compression.contains(&MQCOMPRESS_ANY) && channel_type.sends() {
            return Err(StorageError::invalid(
                "COMPMSG(ANY) is for receiving channels (RCVR, RQSTR)".to_string(),
            ));
        }
        Ok(())
    }

    /// The image lines of a message channel's own attributes (see the module's table).
    pub fn image_lines(&self) -> Vec<(&'static str, String)> {
        vec![
            ("CONNAME", connection_name_text(&self.connection_names)),
            ("XMITQ", self.transmission_queue.clone()),
            ("BATCHSZ", self.batch_size.to_string()),
            ("BATCHINT", self.batch_interval_ms.to_string()),
            ("BATCHLIM", self.batch_data_limit_kib.to_string()),
            ("BATCHHB", self.batch_heartbeat_ms.to_string()),
            (
                "NPMSPEED",
                match self.non_persistent_message_speed {
                    NonPersistentMessageSpeed::Fast => "FAST",
                    NonPersistentMessageSpeed::Normal => "NORMAL",
                }
                .to_string(),
            ),
            ("SHORTRTY", self.short_retry_count.to_string()),
            ("SHORTTMR", self.short_retry_interval_seconds.to_string()),
            ("LONGRTY", self.long_retry_count.to_string()),
            ("LONGTMR", self.long_retry_interval_seconds.to_string()),
            ("SEQWRAP", self.sequence_number_wrap.to_string()),
            (
                "PUTAUT",
                match self.put_authority {
                    PutAuthority::Default => "DEF",
                    PutAuthority::Context => "CTX",
                }
                .to_string(),
            ),
            ("STATCHL", self.statistics.clone()),
            (
                "COMPHDR",
                compression_list_text(HEADER_COMPRESSION_KEYWORDS, &self.header_compression),
            ),
            (
                "COMPMSG",
                compression_list_text(MESSAGE_COMPRESSION_KEYWORDS, &self.message_compression),
            ),
        ]
    }

    /// Reads one image line; `Ok(false)` when `key` is not one of [`Self::image_lines`].
    pub fn read_image_line(&mut self, key: &str, value: &str) -> StorageResult<bool> {
        let number = |value: &str| {
            value
                .parse::<u32>()
                .map_err(|_| StorageError::invalid(format!("{key}={value} is not a number")))
        };
        match key {
            "CONNAME" => self.connection_names = split_connection_names(value),
            "XMITQ" => self.transmission_queue = value.to_string(),
            "BATCHSZ" => self.batch_size = number(value)?,
            "BATCHINT" => self.batch_interval_ms = number(value)?,
            "BATCHLIM" => self.batch_data_limit_kib = number(value)?,
            "BATCHHB" => self.batch_heartbeat_ms = number(value)?,
            "NPMSPEED" => {
                self.non_persistent_message_speed = match value {
                    "NORMAL" => NonPersistentMessageSpeed::Normal,
                    _ => NonPersistentMessageSpeed::Fast,
                }
            }
            "SHORTRTY" => self.short_retry_count = number(value)?,
            "SHORTTMR" => self.short_retry_interval_seconds = number(value)?,
            "LONGRTY" => self.long_retry_count = number(value)?,
            "LONGTMR" => self.long_retry_interval_seconds = number(value)?,
            "SEQWRAP" => self.sequence_number_wrap = number(value)?,
            "PUTAUT" => {
                self.put_authority = match value {
                    "CTX" => PutAuthority::Context,
                    _ => PutAuthority::Default,
                }
            }
            "STATCHL" => self.statistics = value.to_string(),
            "COMPHDR" | "COMPMSG" => {
                let (keywords, list) = if key == "COMPHDR" {
                    (HEADER_COMPRESSION_KEYWORDS, &mut self.header_compression)
                } else {
                    (MESSAGE_COMPRESSION_KEYWORDS, &mut self.message_compression)
                };
                *list = parse_compression_list(keywords, value).map_err(StorageError::invalid)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connection_names_are_host_and_port() {
        assert_eq!(
            parse_connection_name("127.0.0.1(1415)"),
            Some(("127.0.0.1".into(), 1415))
        );
        assert_eq!(
            parse_connection_name("qm2.example.com"),
            Some(("qm2.example.com".into(), 1414))
        );
        assert_eq!(parse_connection_name("host(0)"), None);
        assert_eq!(parse_connection_name("host(70000)"), None);
        assert_eq!(parse_connection_name("bad host(1)"), None);
        assert_eq!(
            split_connection_names("a(1), b(2) ,,"),
            vec!["a(1)".to_string(), "b(2)".to_string()]
        );
    }

    #[test]
    fn a_sender_needs_its_partner_and_transmission_queue() {
        let mut attributes = MessageChannelAttributes::default();
        assert!(attributes.validate(ChannelType::Receiver).is_ok());
        assert!(attributes.validate(ChannelType::Sender).is_err());
        attributes.connection_names = vec!["127.0.0.1(1415)".into()];
        assert!(attributes.validate(ChannelType::Sender).is_err());
        attributes.transmission_queue = "QM2".into();
        assert!(attributes.validate(ChannelType::Sender).is_ok());
        attributes.batch_size = 0;
        assert!(attributes.validate(ChannelType::Sender).is_err());
        attributes.batch_size = 50;
        attributes.sequence_number_wrap = 99;
        assert!(attributes.validate(ChannelType::Sender).is_err());
        attributes.sequence_number_wrap = 1000;
        attributes.message_compression = vec![MQCOMPRESS_ANY];
        assert!(
            attributes.validate(ChannelType::Sender).is_err(),
            "COMPMSG(ANY) is a receiver's"
        );
        assert!(attributes.validate(ChannelType::Receiver).is_ok());
        attributes.message_compression = vec![MQCOMPRESS_RLE, MQCOMPRESS_RLE];
        assert!(attributes.validate(ChannelType::Receiver).is_err());
        attributes.message_compression = vec![MQCOMPRESS_RLE];
        attributes.header_compression = vec![MQCOMPRESS_RLE];
        assert!(attributes.validate(ChannelType::Receiver).is_err());
        attributes.header_compression = Vec::new();
        assert!(attributes.validate(ChannelType::Receiver).is_err());
    }

    #[test]
    fn attributes_belong_to_their_channel_types() {
        assert!(ChannelType::Sender.has_attribute("XMITQ"));
        assert!(!ChannelType::Receiver.has_attribute("XMITQ"));
        assert!(ChannelType::Receiver.has_attribute("PUTAUT"));
        assert!(!ChannelType::Sender.has_attribute("PUTAUT"));
        assert!(!ChannelType::Sender.has_attribute("SHARECNV"));
        assert!(ChannelType::ServerConnection.has_attribute("SHARECNV"));
        assert!(!ChannelType::ServerConnection.has_attribute("BATCHSZ"));
        assert!(ChannelType::Receiver.has_attribute("STATCHL"));
        assert!(!ChannelType::ServerConnection.has_attribute("STATCHL"));
        for channel_type in CHANNEL_TYPES {
            assert_eq!(
                ChannelType::from_keyword(channel_type.keyword()),
                Some(channel_type)
            );
            assert_eq!(
                ChannelType::from_mqcht(channel_type.mqcht()),
                Some(channel_type)
            );
        }
    }

    #[test]
    fn image_lines_read_back() {
        let mut attributes = MessageChannelAttributes {
            connection_names: vec!["a(1)".into(), "b".into()],
            transmission_queue: "QM2".into(),
            batch_size: 7,
            non_persistent_message_speed: NonPersistentMessageSpeed::Normal,
            put_authority: PutAuthority::Context,
            statistics: "HIGH".into(),
            header_compression: vec![MQCOMPRESS_SYSTEM],
            message_compression: vec![MQCOMPRESS_ZLIBHIGH, MQCOMPRESS_RLE, MQCOMPRESS_NONE],
            ..MessageChannelAttributes::default()
        };
        attributes.long_retry_count = 3;
        let mut read = MessageChannelAttributes::default();
        for (key, value) in attributes.image_lines() {
            assert!(read.read_image_line(key, &value).unwrap());
        }
        assert_eq!(read, attributes);
        assert!(!read.read_image_line("SHARECNV", "1").unwrap());
    }
}
