//! A subscription (MQSUB, DEFINE SUB): which topic strings it selects and where their
//! publications go. Durable subscriptions are stored as objects (type `SUB`) on page set 0, so
//! they survive restarts and crashes like any object; non-durable ones live in memory only
//! (`crate::pubsub::subscriptions`) and end with their connection.
//!
//! ## Stored image (`FERRITE-OBJECT 2 SUB`)
//! `SUB SUBID TOPICOBJ TOPICSTR WSCHEMA DEST DESTQMGR DESTCLAS DESTCORL USERDATA SELECTOR PUBPRTY
//! SUBTYPE REQONLY SUBUSER VARUSER PUBACCT PUBAPPID PSPROP EXPIRY EXPIRYAT SUBSCOPE SUBLEVEL`
//! (SUBSCOPE `ALL` or `QMGR`, absent: `ALL`; SUBLEVEL 0-9, absent: 1; REQONLY `YES` or
//! `NO`, absent: `NO`; SUBUSER the owning user ID, absent: blank, anyone; VARUSER `FIXED` or
//! `ANY`, absent: `FIXED`; PUBACCT 64 hexadecimal digits, absent: zeros; PUBAPPID text,
//! absent: blank; PSPROP `NONE`, `COMPAT`, `RFH2` or `MSGPROP`, absent: `MSGPROP`; EXPIRY tenths of a second
//! or `UNLIMITED`, absent: `UNLIMITED`; EXPIRYAT the time it expires, milliseconds since
//! 1970, present with a limited EXPIRY): SUBID and DESTCORL as 48 hexadecimal digits,
//! WSCHEMA `TOPIC` or `CHAR`, DESTCLAS `MANAGED` or `PROVIDED`, PUBPRTY `ASPUB`, `ASQDEF` or
//! 0-9, SUBTYPE `API` or `ADMIN`.

use ferrite_storage::error::{StorageError, StorageResult};

use super::topic::TOPIC_STRING_LENGTH_MAX;
use super::{unknown, ImageWriter, ObjectImage, ObjectType, OBJECT_NAME_LENGTH_MAX};
use crate::pubsub::wildcards::WildcardScheme;

/// Longest SubName, SubUserData and SelectionString MQ takes (MQ_SUB_NAME_LENGTH...); a
/// subscription's image holds its topic string and these together within
/// [`super::OBJECT_IMAGE_BYTES_MAX`].
pub const SUBSCRIPTION_TEXT_LENGTH_MAX: usize = 10_240;

/// The most bytes a subscription's name, topic string, user data and selector take together
/// (what its stored image can hold beside its other attributes).
pub const SUBSCRIPTION_TEXTS_BYTES_MAX: usize = 15 * 1024;

/// PUBPRTY(ASPUB): publications keep the publisher's priority (MQPRI_PRIORITY_AS_PUBLISHED).
pub const PRIORITY_AS_PUBLISHED: i32 = -3;
/// PUBPRTY(ASQDEF): publications take the destination queue's DEFPRTY.
pub const PRIORITY_AS_QUEUE_DEFAULT: i32 = -1;

/// PUBAPPID's longest value (MQ_APPL_IDENTITY_DATA_LENGTH).
pub const PUBLICATION_APPLICATION_ID_LENGTH_MAX: usize = 32;

/// SUBLEVEL's default (MQSD's initial SubLevel) and highest value.
pub const SUBSCRIPTION_LEVEL_DEFAULT: u8 = 1;
pub const SUBSCRIPTION_LEVEL_MAX: u8 = 9;

/// EXPIRY(UNLIMITED) (MQEI_UNLIMITED).
pub const EXPIRY_UNLIMITED: i32 = -1;

/// PSPROP: how MQ's publish/subscribe properties (the topic string, SubUserData, whether the
/// publication is a retained one) travel with a subscription's publications.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PublicationProperties {
    /// PSPROP(NONE): none are added; the publication arrives as published.
    None,
    /// PSPROP(COMPAT): in an MQRFH version 1 ahead of the publication, as queued
    /// publish/subscribe applications of earlier MQ versions read them (`MQPSCommand Publish
    /// MQPSTopic ...`).
    Compatible,
    /// PSPROP(RFH2): in a `psc` folder of the copy's MQRFH2 (`<Command>Publish</Command>
    /// <Topic>...</Topic>`), as applications written for a message broker read them.
    Rfh2,
    /// PSPROP(MSGPROP): as message properties (`mqps.*` in the copy's MQRFH2).
    MessageProperties,
}

impl PublicationProperties {
    /// PSPROP's MQSC keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            PublicationProperties::None => "NONE",
            PublicationProperties::Compatible => "COMPAT",
            PublicationProperties::Rfh2 => "RFH2",
            PublicationProperties::MessageProperties => "MSGPROP",
        }
    }

    /// From PSPROP's keyword (None for one MQ does not have).
    pub fn from_keyword(keyword: &str) -> Option<PublicationProperties> {
        PublicationProperties::ALL
            .into_iter()
            .find(|properties| properties.keyword() == keyword)
    }

    /// Every PSPROP, in the order of their MQPSPROP_* values (0-3).
    pub const ALL: [PublicationProperties; 4] = [
        PublicationProperties::None,
        PublicationProperties::Compatible,
        PublicationProperties::Rfh2,
        PublicationProperties::MessageProperties,
    ];
}

/// A subscription.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubscriptionDefinition {
    /// SUB: SubName (a generated name for an unnamed non-durable subscription).
    pub name: String,
    /// SUBID: the queue manager's identifier of the subscription.
    pub id: [u8; 24],
    /// TOPICOBJ: the TOPIC object the subscription named (blank: none).
    pub topic_object: String,
    /// TOPICSTR: the full topic string subscribed to (the object's TOPICSTR joined with the
    /// ObjectString), possibly with wildcards.
    pub topic_string: String,
    /// WSCHEMA.
    pub wildcard_scheme: WildcardScheme,
    /// DEST: the queue publications are put to.
    pub destination: String,
    /// DESTQMGR: its queue manager (blank: this one).
    pub destination_queue_manager: String,
    /// DESTCLAS(MANAGED): the queue manager made the destination and deletes it with the
    /// subscription.
    pub managed: bool,
    /// DESTCORL: the CorrelId of the publications delivered.
    pub correl_id: [u8; 24],
    /// USERDATA: the MQSubUserData property of the publications delivered.
    pub user_data: String,
    /// SELECTOR: publications must pass it.
    pub selector: String,
    /// PUBPRTY: [`PRIORITY_AS_PUBLISHED`], [`PRIORITY_AS_QUEUE_DEFAULT`] or 0-9.
    pub publication_priority: i32,
    /// SUBTYPE(ADMIN): made by DEFINE SUB rather than MQSUB.
    pub administrative: bool,
    /// REQONLY(YES), MQSO_PUBLICATIONS_ON_REQUEST: publications reach it only through MQSUBRQ
    /// (the retained ones), never as they are published.
    pub publications_on_request: bool,
    /// SUBUSER: the user ID that owns it (made it, or last altered it with MQSO_FIXED_USERID);
    /// blank for one stored before owners were recorded.
    pub user: String,
    /// VARUSER(ANY), MQSO_ANY_USERID: other users may resume or alter it (with the authority);
    /// VARUSER(FIXED), MQ's default: only its owner (MQRC_IDENTITY_MISMATCH).
    pub any_user: bool,
    /// PUBACCT: the AccountingToken of the publications delivered (all zeros: the
    /// publisher's).
    pub publication_accounting_token: [u8; 32],
    /// PUBAPPID: the ApplIdentityData of the publications delivered (blank: the
    /// publisher's).
    pub publication_application_id: String,
    /// PSPROP.
    pub publication_properties: PublicationProperties,
    /// EXPIRY: tenths of a second from when it was set to when the subscription expires, or
    /// [`EXPIRY_UNLIMITED`].
    pub expiry: i32,
    /// When a limited EXPIRY runs out, milliseconds since 1970 (0 when unlimited): an
    /// expired subscription receives no more publications.
    pub expires_at_ms: u64,
    /// Whether it is durable (stored); non-durable ones are never stored.
    pub durable: bool,
    /// SUBSCOPE(QMGR), MQSO_SCOPE_QMGR: publications from this queue manager only;
    /// SUBSCOPE(ALL), MQ's default: from other queue managers of a hierarchy or cluster too
    /// (Ferrite has no pub/sub hierarchies or clusters, so both receive the same).
    pub scope_queue_manager: bool,
    /// SUBLEVEL (0-9): a publication at PubLevel p reaches only the subscriptions it
    /// matches whose SUBLEVEL is the highest of theirs not above p (an interceptor subscribes
    /// above the others).
    pub level: u8,
}

impl SubscriptionDefinition {
    /// A durable subscription with every attribute blank or MQ's default (the start of a
    /// definition read from its image, or of a display's sample).
    pub fn blank() -> SubscriptionDefinition {
        SubscriptionDefinition {
            name: String::new(),
            id: [0; 24],
            topic_object: String::new(),
            topic_string: String::new(),
            wildcard_scheme: WildcardScheme::Topic,
            destination: String::new(),
            destination_queue_manager: String::new(),
            managed: false,
            correl_id: [0; 24],
            user_data: String::new(),
            selector: String::new(),
            publication_priority: PRIORITY_AS_PUBLISHED,
            administrative: false,
            publications_on_request: false,
            user: String::new(),
            any_user: false,
            publication_accounting_token: [0; 32],
            publication_application_id: String::new(),
            publication_properties: PublicationProperties::MessageProperties,
            expiry: EXPIRY_UNLIMITED,
            expires_at_ms: 0,
            durable: true,
            scope_queue_manager: false,
            level: SUBSCRIPTION_LEVEL_DEFAULT,
        }
    }

    /// SUBSCOPE's keyword.
    pub fn scope_keyword(&self) -> &'static str {
        if self.scope_queue_manager {
            "QMGR"
        } else {
            "ALL"
        }
    }

    /// Set EXPIRY (tenths of a second, or [`EXPIRY_UNLIMITED`]) from `now_ms`.
    pub fn set_expiry(&mut self, expiry: i32, now_ms: u64) {
        assert!(expiry == EXPIRY_UNLIMITED || expiry >= 0, "EXPIRY {expiry}");
        self.expiry = expiry;
        self.expires_at_ms = match expiry {
            EXPIRY_UNLIMITED => 0,
            tenths => now_ms + tenths as u64 * 100,
        };
    }

    /// Whether its EXPIRY has run out at `now_ms`.
    pub fn expired(&self, now_ms: u64) -> bool {
        self.expiry != EXPIRY_UNLIMITED && now_ms >= self.expires_at_ms
    }

    pub fn validate(&self) -> StorageResult<()> {
        let fail = |what: String| Err(StorageError::invalid(what));
        if self.name.is_empty() {
            return fail("a subscription needs a name".to_string());
        }
        for (what, text) in [
            ("SUB", &self.name),
            ("USERDATA", &self.user_data),
            ("SELECTOR", &self.selector),
        ] {
            if text.len() > SUBSCRIPTION_TEXT_LENGTH_MAX || text.contains('\0') {
                return fail(format!(
                    "{what} is at most {SUBSCRIPTION_TEXT_LENGTH_MAX} bytes, without NUL"
                ));
            }
        }
        crate::pubsub::topic_string::check_topic_string(&self.topic_string)
            .map_err(|detail| StorageError::invalid(format!("TOPICSTR: {detail}")))?;
        if self.texts_bytes() > SUBSCRIPTION_TEXTS_BYTES_MAX {
            return fail(format!(
                "a subscription's name, topic string, user data and selector take at most {SUBSCRIPTION_TEXTS_BYTES_MAX} bytes together"
            ));
        }
        if self.destination.is_empty() || self.destination.len() > OBJECT_NAME_LENGTH_MAX {
            return fail("DEST must name a queue".to_string());
        }
        if self.publication_application_id.len() > PUBLICATION_APPLICATION_ID_LENGTH_MAX {
            return fail(format!(
                "PUBAPPID is at most {PUBLICATION_APPLICATION_ID_LENGTH_MAX} bytes"
            ));
        }
        if self.level > SUBSCRIPTION_LEVEL_MAX {
            return fail(format!("SUBLEVEL must be 0-{SUBSCRIPTION_LEVEL_MAX}"));
        }
        if self.level > 1 && self.publications_on_request {
            return fail("REQONLY(YES) takes SUBLEVEL 0 or 1".to_string());
        }
        if self.expiry < EXPIRY_UNLIMITED {
            return fail("EXPIRY must be UNLIMITED or 0-999999999".to_string());
        }
        if !(PRIORITY_AS_PUBLISHED..=9).contains(&self.publication_priority)
            || self.publication_priority == -2
        {
            return fail("PUBPRTY must be ASPUB, ASQDEF or 0-9".to_string());
        }
        Ok(())
    }

    /// The bytes of the texts whose total [`SUBSCRIPTION_TEXTS_BYTES_MAX`] bounds.
    pub fn texts_bytes(&self) -> usize {
        self.name.len() + self.topic_string.len() + self.user_data.len() + self.selector.len()
    }

    pub(super) fn encode(&self) -> Vec<u8> {
        debug_assert!(self.topic_string.len() <= TOPIC_STRING_LENGTH_MAX);
        let mut image = ImageWriter::new(ObjectType::Subscription);
        image
            .line("SUB", &self.name)
            .line("SUBID", &hex(&self.id))
            .line("TOPICOBJ", &self.topic_object)
            .line("TOPICSTR", &self.topic_string)
            .line("WSCHEMA", self.wildcard_scheme.keyword())
            .line("DEST", &self.destination)
            .line("DESTQMGR", &self.destination_queue_manager)
            .line(
                "DESTCLAS",
                if self.managed { "MANAGED" } else { "PROVIDED" },
            )
            .line("DESTCORL", &hex(&self.correl_id))
            .line("USERDATA", &self.user_data)
            .line("SELECTOR", &self.selector)
            .line("PUBPRTY", &priority_keyword(self.publication_priority))
            .line("SUBTYPE", if self.administrative { "ADMIN" } else { "API" })
            .line(
                "REQONLY",
                if self.publications_on_request {
                    "YES"
                } else {
                    "NO"
                },
            )
            .line("SUBUSER", &self.user)
            .line("VARUSER", if self.any_user { "ANY" } else { "FIXED" })
            .line("PUBACCT", &hex32(&self.publication_accounting_token))
            .line("PUBAPPID", &self.publication_application_id)
            .line("PSPROP", self.publication_properties.keyword())
            .line("EXPIRY", &expiry_keyword(self.expiry))
            .line("SUBSCOPE", self.scope_keyword())
            .line("SUBLEVEL", &self.level.to_string());
        if self.expiry != EXPIRY_UNLIMITED {
            image.line("EXPIRYAT", &self.expires_at_ms.to_string());
        }
        image.finish()
    }

    /// The definition a stored image of this type holds (always durable).
    pub(super) fn from_image(image: &ObjectImage) -> StorageResult<SubscriptionDefinition> {
        let mut d = SubscriptionDefinition::blank();
        for (key, value) in &image.attributes {
            let bad = || unknown(image.object_type, &format!("{key}={value}"));
            match key.as_str() {
                "SUB" => d.name = value.clone(),
                "SUBID" => d.id = from_hex(value).ok_or_else(bad)?,
                "TOPICOBJ" => d.topic_object = value.clone(),
                "TOPICSTR" => d.topic_string = value.clone(),
                "WSCHEMA" => {
                    d.wildcard_scheme = match value.as_str() {
                        "TOPIC" => WildcardScheme::Topic,
                        "CHAR" => WildcardScheme::Character,
                        _ => return Err(bad()),
                    }
                }
                "DEST" => d.destination = value.clone(),
                "DESTQMGR" => d.destination_queue_manager = value.clone(),
                "DESTCLAS" => d.managed = value == "MANAGED",
                "DESTCORL" => d.correl_id = from_hex(value).ok_or_else(bad)?,
                "USERDATA" => d.user_data = value.clone(),
                "SELECTOR" => d.selector = value.clone(),
                "PUBPRTY" => d.publication_priority = priority_value(value).ok_or_else(bad)?,
                "SUBTYPE" => d.administrative = value == "ADMIN",
                "REQONLY" => d.publications_on_request = value == "YES",
                "SUBUSER" => d.user = value.clone(),
                "VARUSER" => d.any_user = value == "ANY",
                "PUBACCT" => d.publication_accounting_token = from_hex32(value).ok_or_else(bad)?,
                "PUBAPPID" => d.publication_application_id = value.clone(),
                "PSPROP" => {
                    d.publication_properties =
                        PublicationProperties::from_keyword(value).ok_or_else(bad)?
                }
                "EXPIRY" => d.expiry = expiry_value(value).ok_or_else(bad)?,
                "EXPIRYAT" => d.expires_at_ms = value.parse().map_err(|_| bad())?,
                "SUBSCOPE" => {
                    d.scope_queue_manager = match value.as_str() {
                        "ALL" => false,
                        "QMGR" => true,
                        _ => return Err(bad()),
                    }
                }
                "SUBLEVEL" => {
                    d.level = value
                        .parse()
                        .ok()
                        .filter(|level| *level <= SUBSCRIPTION_LEVEL_MAX)
                        .ok_or_else(bad)?
                }
                _ => return Err(unknown(image.object_type, key)),
            }
        }
        Ok(d)
    }
}

/// PUBPRTY as MQSC shows it.
pub fn priority_keyword(priority: i32) -> String {
    match priority {
        PRIORITY_AS_PUBLISHED => "ASPUB".to_string(),
        PRIORITY_AS_QUEUE_DEFAULT => "ASQDEF".to_string(),
        priority => priority.to_string(),
    }
}

/// PUBPRTY from its MQSC form.
pub fn priority_value(keyword: &str) -> Option<i32> {
    match keyword {
        "ASPUB" => Some(PRIORITY_AS_PUBLISHED),
        "ASQDEF" => Some(PRIORITY_AS_QUEUE_DEFAULT),
        digits => digits
            .parse()
            .ok()
            .filter(|priority| (0..=9).contains(priority)),
    }
}

/// EXPIRY as MQSC shows it.
pub fn expiry_keyword(expiry: i32) -> String {
    match expiry {
        EXPIRY_UNLIMITED => "UNLIMITED".to_string(),
        tenths => tenths.to_string(),
    }
}

/// EXPIRY from its MQSC form: UNLIMITED or 0-999999999 tenths of a second.
pub fn expiry_value(keyword: &str) -> Option<i32> {
    match keyword {
        "UNLIMITED" => Some(EXPIRY_UNLIMITED),
        digits => digits
            .parse()
            .ok()
            .filter(|tenths| (0..=999_999_999).contains(tenths)),
    }
}

/// 32 bytes as 64 uppercase hexadecimal digits (MQSC's PUBACCT).
pub fn hex32(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|byte| format!("{byte:02X}")).collect()
}

/// 32 bytes from 64 hexadecimal digits.
pub fn from_hex32(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; 32];
    for (index, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[index * 2..index * 2 + 2], 16).ok()?;
    }
    Some(bytes)
}

/// 24 bytes as 48 uppercase hexadecimal digits (MQSC's SUBID and DESTCORL).
pub fn hex(bytes: &[u8; 24]) -> String {
    bytes.iter().map(|byte| format!("{byte:02X}")).collect()
}

/// 24 bytes from 48 hexadecimal digits.
pub fn from_hex(text: &str) -> Option<[u8; 24]> {
    if text.len() != 48 || !text.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; 24];
    for (index, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[index * 2..index * 2 + 2], 16).ok()?;
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::ObjectDefinition;

    pub(crate) fn sample() -> SubscriptionDefinition {
        SubscriptionDefinition {
            name: "Sports results, weekly\nsecond line".into(),
            id: [7; 24],
            topic_object: "SPORTS".into(),
            topic_string: "Sports/+/Results".into(),
            wildcard_scheme: WildcardScheme::Topic,
            destination: "SYSTEM.MANAGED.DURABLE.0123456789ABCDEF".into(),
            destination_queue_manager: String::new(),
            managed: true,
            correl_id: [0xAB; 24],
            user_data: "who=me".into(),
            selector: "Colour = 'Red'".into(),
            publication_priority: PRIORITY_AS_PUBLISHED,
            administrative: false,
            publications_on_request: false,
            user: "app".into(),
            any_user: false,
            publication_accounting_token: [0; 32],
            publication_application_id: String::new(),
            publication_properties: PublicationProperties::MessageProperties,
            expiry: EXPIRY_UNLIMITED,
            expires_at_ms: 0,
            durable: true,
            scope_queue_manager: false,
            level: SUBSCRIPTION_LEVEL_DEFAULT,
        }
    }

    #[test]
    fn subscriptions_round_trip_and_are_checked() {
        let mut definition = sample();
        let image = ObjectDefinition::Subscription(definition.clone()).encode();
        assert!(image.starts_with(b"FERRITE-OBJECT 2 SUB\n"));
        assert_eq!(
            ObjectDefinition::decode(&image).unwrap(),
            ObjectDefinition::Subscription(definition.clone())
        );
        definition.publication_priority = 4;
        definition.wildcard_scheme = WildcardScheme::Character;
        definition.publication_accounting_token = [0x3C; 32];
        definition.publication_application_id = "Ledger".into();
        definition.publication_properties = PublicationProperties::Rfh2;
        definition.set_expiry(600, 1_000);
        definition.scope_queue_manager = true;
        definition.level = 7;
        assert_eq!(definition.expires_at_ms, 61_000);
        assert!(!definition.expired(60_999) && definition.expired(61_000));
        let image = ObjectDefinition::Subscription(definition.clone()).encode();
        assert_eq!(
            ObjectDefinition::decode(&image).unwrap(),
            ObjectDefinition::Subscription(definition.clone())
        );
        definition.publications_on_request = true;
        assert!(definition.validate().is_err(), "REQONLY(YES) at SUBLEVEL 7");
        definition.level = 1;
        let image = ObjectDefinition::Subscription(definition.clone()).encode();
        assert_eq!(
            ObjectDefinition::decode(&image).unwrap(),
            ObjectDefinition::Subscription(definition.clone())
        );
        definition.level = 10;
        assert!(definition.validate().is_err());
        definition.level = 0;
        definition.publication_priority = 10;
        assert!(definition.validate().is_err());
        definition.publication_priority = 0;
        definition.topic_string = "t".repeat(TOPIC_STRING_LENGTH_MAX);
        definition.name = "n".repeat(SUBSCRIPTION_TEXT_LENGTH_MAX);
        assert!(definition.validate().is_err(), "too much for one image");
        assert_eq!(from_hex(&hex(&[0x5A; 24])), Some([0x5A; 24]));
        assert_eq!(from_hex("XY"), None);
    }
}
