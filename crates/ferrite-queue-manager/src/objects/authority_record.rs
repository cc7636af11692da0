//! An authority record (SET AUTHREC, setmqaut) as the object store keeps it: a profile (an
//! object name or a generic profile with `?`, `*` and `**`), the object type it applies to,
//! the entity (a principal or a group) and the set of authorities granted, as MQ's object
//! authority manager (OAM) keeps them. Its stored image is type `AUTHREC`, version 2, next to
//! the other object definitions. Which records decide a check is `security/authorization.rs`'s.
//!
//! ## Generic profiles (MQ's rules)
//! A profile name is split into qualifiers at `.`:
//! - `?` matches any one character except `.`;
//! - `*` matches zero or more characters within one qualifier (so `*` alone as a qualifier
//!   matches one qualifier);
//! - `**` as a whole qualifier matches zero or more qualifiers (`**` alone matches every name).
//!
//! When several profiles match an object, the most specific applies: the profiles are
//! compared from the left, and where they first differ a non-generic character is more
//! specific than `?`, which is more specific than `*`, which is more specific than `**`
//! ([`profile_specificity`]).

use ferrite_storage::error::{StorageError, StorageResult};

use super::{ImageWriter, ObjectImage, ObjectType, OBJECT_NAME_LENGTH_MAX};

// MQZAO_*: the authorities of MQ's installable authorization service (cmqzc.h).
pub const MQZAO_NONE: u32 = 0x0000_0000;
pub const MQZAO_CONNECT: u32 = 0x0000_0001;
pub const MQZAO_BROWSE: u32 = 0x0000_0002;
pub const MQZAO_INPUT: u32 = 0x0000_0004;
pub const MQZAO_OUTPUT: u32 = 0x0000_0008;
pub const MQZAO_INQUIRE: u32 = 0x0000_0010;
pub const MQZAO_SET: u32 = 0x0000_0020;
pub const MQZAO_PASS_IDENTITY_CONTEXT: u32 = 0x0000_0040;
pub const MQZAO_PASS_ALL_CONTEXT: u32 = 0x0000_0080;
pub const MQZAO_SET_IDENTITY_CONTEXT: u32 = 0x0000_0100;
pub const MQZAO_SET_ALL_CONTEXT: u32 = 0x0000_0200;
pub const MQZAO_ALTERNATE_USER_AUTHORITY: u32 = 0x0000_0400;
pub const MQZAO_PUBLISH: u32 = 0x0000_0800;
pub const MQZAO_SUBSCRIBE: u32 = 0x0000_1000;
pub const MQZAO_RESUME: u32 = 0x0000_2000;
pub const MQZAO_ALL_MQI: u32 = 0x0000_3FFF;
pub const MQZAO_CREATE: u32 = 0x0001_0000;
pub const MQZAO_DELETE: u32 = 0x0002_0000;
pub const MQZAO_DISPLAY: u32 = 0x0004_0000;
pub const MQZAO_CHANGE: u32 = 0x0008_0000;
pub const MQZAO_CLEAR: u32 = 0x0010_0000;
pub const MQZAO_CONTROL: u32 = 0x0020_0000;
pub const MQZAO_CONTROL_EXTENDED: u32 = 0x0040_0000;
pub const MQZAO_AUTHORIZE: u32 = 0x0080_0000;
pub const MQZAO_ALL_ADMIN: u32 = 0x00FE_0000;
pub const MQZAO_SYSTEM: u32 = 0x0200_0000;
pub const MQZAO_ALL: u32 = 0x02FF_FFFF;
/// The authorities a record can hold: those MQZAO_ALL names but MQZAO_AUTHORIZE, which no
/// MQSC keyword or MQAUTH_* value names (MQZAO_ALL also holds unassigned bits).
pub const AUTHORITY_BITS: u32 =
    MQZAO_ALL_MQI | MQZAO_CREATE | (MQZAO_ALL_ADMIN & !MQZAO_AUTHORIZE) | MQZAO_SYSTEM;

/// Each single authority with its MQSC keyword (AUTHADD/AUTHRMV, DISPLAY AUTHREC's
/// AUTHLIST), its setmqaut name, and MQ's PCF value (MQAUTH_*).
pub const AUTHORITIES: [(u32, &str, &str, i32); 22] = [
    (MQZAO_ALTERNATE_USER_AUTHORITY, "ALTUSR", "altusr", 1),
    (MQZAO_BROWSE, "BROWSE", "browse", 2),
    (MQZAO_CHANGE, "CHG", "chg", 3),
    (MQZAO_CLEAR, "CLR", "clr", 4),
    (MQZAO_CONNECT, "CONNECT", "connect", 5),
    (MQZAO_CREATE, "CRT", "crt", 6),
    (MQZAO_DELETE, "DLT", "dlt", 7),
    (MQZAO_DISPLAY, "DSP", "dsp", 8),
    (MQZAO_INPUT, "GET", "get", 9),
    (MQZAO_INQUIRE, "INQ", "inq", 10),
    (MQZAO_OUTPUT, "PUT", "put", 11),
    (MQZAO_PASS_ALL_CONTEXT, "PASSALL", "passall", 12),
    (MQZAO_PASS_IDENTITY_CONTEXT, "PASSID", "passid", 13),
    (MQZAO_SET, "SET", "set", 14),
    (MQZAO_SET_ALL_CONTEXT, "SETALL", "setall", 15),
    (MQZAO_SET_IDENTITY_CONTEXT, "SETID", "setid", 16),
    (MQZAO_CONTROL, "CTRL", "ctrl", 17),
    (MQZAO_CONTROL_EXTENDED, "CTRLX", "ctrlx", 18),
    (MQZAO_PUBLISH, "PUB", "pub", 19),
    (MQZAO_SUBSCRIBE, "SUB", "sub", 20),
    (MQZAO_RESUME, "RESUME", "resume", 21),
    (MQZAO_SYSTEM, "SYSTEM", "system", 22),
];

/// The group keywords (MQSC, setmqaut) and their MQAUTH_* values.
pub const AUTHORITY_GROUPS: [(u32, &str, &str, i32); 4] = [
    (MQZAO_ALL, "ALL", "all", -1),
    (MQZAO_ALL_ADMIN, "ALLADM", "alladm", -2),
    (MQZAO_ALL_MQI, "ALLMQI", "allmqi", -3),
    (MQZAO_NONE, "NONE", "none", 0),
];

/// The authorities an MQSC keyword (or setmqaut name, any case) stands for.
pub fn authority_from_keyword(keyword: &str) -> Option<u32> {
    AUTHORITIES
        .iter()
        .chain(AUTHORITY_GROUPS.iter())
        .find(|(_, mqsc, _, _)| mqsc.eq_ignore_ascii_case(keyword))
        .map(|(bits, ..)| bits & AUTHORITY_BITS)
}

/// The authorities an MQAUTH_* value stands for (PCF).
pub fn authority_from_pcf(value: i32) -> Option<u32> {
    AUTHORITIES
        .iter()
        .chain(AUTHORITY_GROUPS.iter())
        .find(|(.., pcf)| *pcf == value)
        .map(|(bits, ..)| bits & AUTHORITY_BITS)
}

/// The MQSC keywords of `authorities`, one per authority, in MQ's order.
pub fn authority_keywords(authorities: u32) -> Vec<&'static str> {
    AUTHORITIES
        .iter()
        .filter(|(bits, ..)| authorities & bits != 0)
        .map(|(_, keyword, ..)| *keyword)
        .collect()
}

/// The MQAUTH_* values of `authorities` (PCF's AuthorityList), in MQ's order.
pub fn authority_pcf_values(authorities: u32) -> Vec<i32> {
    AUTHORITIES
        .iter()
        .filter(|(bits, ..)| authorities & bits != 0)
        .map(|(.., pcf)| *pcf)
        .collect()
}

/// OBJTYPE of an authority record, with MQSC's keyword, setmqaut's `-t` name and MQ's
/// MQOT_* value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AuthorityObjectType {
    QueueManager,
    Queue,
    Process,
    Namelist,
    Channel,
    ClientConnection,
    AuthInfo,
    Listener,
    Service,
    Topic,
    CommunicationInformation,
    RemoteQueueManagerName,
}

impl AuthorityObjectType {
    pub const ALL: [AuthorityObjectType; 12] = [
        AuthorityObjectType::QueueManager,
        AuthorityObjectType::Queue,
        AuthorityObjectType::Process,
        AuthorityObjectType::Namelist,
        AuthorityObjectType::Channel,
        AuthorityObjectType::ClientConnection,
        AuthorityObjectType::AuthInfo,
        AuthorityObjectType::Listener,
        AuthorityObjectType::Service,
        AuthorityObjectType::Topic,
        AuthorityObjectType::CommunicationInformation,
        AuthorityObjectType::RemoteQueueManagerName,
    ];

    /// MQSC's OBJTYPE keyword.
    pub fn keyword(self) -> &'static str {
        self.names().0
    }

    /// setmqaut's `-t` name.
    pub fn setmqaut_name(self) -> &'static str {
        self.names().1
    }

    /// MQ's MQOT_* value (PCF's ObjectType).
    pub fn mqot(self) -> i32 {
        self.names().2
    }

    fn names(self) -> (&'static str, &'static str, i32) {
        match self {
            AuthorityObjectType::QueueManager => ("QMGR", "qmgr", 5),
            AuthorityObjectType::Queue => ("QUEUE", "queue", 1),
            AuthorityObjectType::Process => ("PROCESS", "process", 3),
            AuthorityObjectType::Namelist => ("NAMELIST", "namelist", 2),
            AuthorityObjectType::Channel => ("CHANNEL", "channel", 6),
            AuthorityObjectType::ClientConnection => ("CLNTCONN", "clntconn", 1011),
            AuthorityObjectType::AuthInfo => ("AUTHINFO", "authinfo", 7),
            AuthorityObjectType::Listener => ("LISTENER", "listener", 11),
            AuthorityObjectType::Service => ("SERVICE", "service", 12),
            AuthorityObjectType::Topic => ("TOPIC", "topic", 8),
            AuthorityObjectType::CommunicationInformation => ("COMMINFO", "comminfo", 10),
            AuthorityObjectType::RemoteQueueManagerName => ("RQMNAME", "rqmname", 1012),
        }
    }

    /// The authorities a record of this type can grant (MQ's table for SET AUTHREC and
    /// setmqaut); ALL, ALLADM and ALLMQI stand for these.
    pub fn valid_authorities(self) -> u32 {
        let admin = MQZAO_CHANGE | MQZAO_DELETE | MQZAO_DISPLAY;
        match self {
            AuthorityObjectType::QueueManager => {
                MQZAO_ALTERNATE_USER_AUTHORITY
                    | MQZAO_CONNECT
                    | MQZAO_INQUIRE
                    | MQZAO_SET
                    | MQZAO_SET_ALL_CONTEXT
                    | MQZAO_SET_IDENTITY_CONTEXT
                    | MQZAO_CREATE
                    | MQZAO_CONTROL
                    | MQZAO_SYSTEM
                    | admin
            }
            AuthorityObjectType::Queue => {
                MQZAO_BROWSE
                    | MQZAO_INPUT
                    | MQZAO_OUTPUT
                    | MQZAO_INQUIRE
                    | MQZAO_SET
                    | MQZAO_PASS_ALL_CONTEXT
                    | MQZAO_PASS_IDENTITY_CONTEXT
                    | MQZAO_SET_ALL_CONTEXT
                    | MQZAO_SET_IDENTITY_CONTEXT
                    | MQZAO_CLEAR
                    | admin
            }
            AuthorityObjectType::Process
            | AuthorityObjectType::Namelist
            | AuthorityObjectType::AuthInfo => MQZAO_INQUIRE | admin,
            AuthorityObjectType::Channel => MQZAO_CONTROL | MQZAO_CONTROL_EXTENDED | admin,
            AuthorityObjectType::ClientConnection
            | AuthorityObjectType::CommunicationInformation => admin,
            AuthorityObjectType::Listener | AuthorityObjectType::Service => MQZAO_CONTROL | admin,
            AuthorityObjectType::Topic => {
                MQZAO_PUBLISH
                    | MQZAO_SUBSCRIBE
                    | MQZAO_RESUME
                    | MQZAO_PASS_ALL_CONTEXT
                    | MQZAO_PASS_IDENTITY_CONTEXT
                    | MQZAO_SET_ALL_CONTEXT
                    | MQZAO_SET_IDENTITY_CONTEXT
                    | MQZAO_CLEAR
                    | MQZAO_CONTROL
                    | admin
            }
            AuthorityObjectType::RemoteQueueManagerName => MQZAO_OUTPUT,
        }
    }

    /// From MQSC's keyword or setmqaut's name (any case; setmqaut's `q` and `prcs` too).
    pub fn from_keyword(keyword: &str) -> Option<AuthorityObjectType> {
        let keyword = keyword.trim();
        match keyword.to_ascii_lowercase().as_str() {
            "q" => return Some(AuthorityObjectType::Queue),
            "prcs" => return Some(AuthorityObjectType::Process),
            "nl" => return Some(AuthorityObjectType::Namelist),
            "chl" => return Some(AuthorityObjectType::Channel),
            _ => {}
        }
        Self::ALL.into_iter().find(|object_type| {
            object_type.keyword().eq_ignore_ascii_case(keyword)
                || object_type.setmqaut_name().eq_ignore_ascii_case(keyword)
        })
    }

    /// From MQ's MQOT_* value.
    pub fn from_mqot(value: i32) -> Option<AuthorityObjectType> {
        Self::ALL
            .into_iter()
            .find(|object_type| object_type.mqot() == value)
    }

    /// The object type an object store type's authority records are kept under.
    pub fn of(object_type: ObjectType) -> Option<AuthorityObjectType> {
        Some(match object_type {
            ObjectType::LocalQueue
            | ObjectType::ModelQueue
            | ObjectType::AliasQueue
            | ObjectType::RemoteQueue => AuthorityObjectType::Queue,
            ObjectType::Channel => AuthorityObjectType::Channel,
            ObjectType::Process => AuthorityObjectType::Process,
            ObjectType::Namelist => AuthorityObjectType::Namelist,
            ObjectType::QueueManager => AuthorityObjectType::QueueManager,
            ObjectType::AuthInfo => AuthorityObjectType::AuthInfo,
            ObjectType::Topic => AuthorityObjectType::Topic,
            ObjectType::StorageClass
            | ObjectType::Subscription
            | ObjectType::ChannelAuthentication
            | ObjectType::AuthorityRecord => return None,
        })
    }
}

/// Whom a record grants to: PRINCIPAL (a user) or GROUP.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Entity {
    Principal(String),
    Group(String),
}

impl Entity {
    pub fn name(&self) -> &str {
        match self {
            Entity::Principal(name) | Entity::Group(name) => name,
        }
    }

    /// MQSC's keyword for the kind: PRINCIPAL or GROUP.
    pub fn keyword(&self) -> &'static str {
        match self {
            Entity::Principal(_) => "PRINCIPAL",
            Entity::Group(_) => "GROUP",
        }
    }
}

/// Longest principal or group name (MQ allows 12 on UNIX for principals; Ferrite takes 64).
pub const ENTITY_NAME_LENGTH_MAX: usize = 64;

/// One authority record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthorityRecord {
    /// Identity of the record in the object store ([`AuthorityRecord::key`]).
    pub key: String,
    /// PROFILE: an object name or a generic profile.
    pub profile: String,
    pub object_type: AuthorityObjectType,
    pub entity: Entity,
    /// The MQZAO_* bits granted.
    pub authorities: u32,
}

impl AuthorityRecord {
    pub fn new(
        profile: &str,
        object_type: AuthorityObjectType,
        entity: Entity,
        authorities: u32,
    ) -> AuthorityRecord {
        AuthorityRecord {
            key: Self::key(profile, object_type, &entity),
            profile: profile.to_string(),
            object_type,
            entity,
            authorities,
        }
    }

    /// The identity of a record: OBJTYPE, PROFILE and entity.
    pub fn key(profile: &str, object_type: AuthorityObjectType, entity: &Entity) -> String {
        let kind = match entity {
            Entity::Principal(_) => 'P',
            Entity::Group(_) => 'G',
        };
        format!(
            "{} {profile} {kind} {}",
            object_type.keyword(),
            entity.name()
        )
    }

    /// Check the record against MQ's rules for SET AUTHREC.
    pub fn validate(&self) -> StorageResult<()> {
        check_profile(&self.profile)?;
        check_entity(&self.entity)?;
        if self.authorities & !AUTHORITY_BITS != 0 {
            return Err(StorageError::invalid(format!(
                "authorities {:#x} are not MQ's",
                self.authorities
            )));
        }
        if self.key != Self::key(&self.profile, self.object_type, &self.entity) {
            return Err(StorageError::invalid(format!(
                "record key '{}' does not match its fields",
                self.key
            )));
        }
        Ok(())
    }

    /// The stored image (type `AUTHREC`): PROFILE OBJTYPE PRINCIPAL or GROUP, AUTHLIST (MQSC
    /// keywords separated by `,`).
    pub fn encode(&self) -> Vec<u8> {
        let mut image = ImageWriter::new(ObjectType::AuthorityRecord);
        image
            .line("PROFILE", &self.profile)
            .line("OBJTYPE", self.object_type.keyword())
            .line(self.entity.keyword(), self.entity.name())
            .line("AUTHLIST", &authority_keywords(self.authorities).join(","));
        image.finish()
    }

    pub fn from_image(image: &ObjectImage) -> StorageResult<AuthorityRecord> {
        let bad = |key: &str, value: &str| {
            StorageError::invalid(format!("stored object definition: AUTHREC {key}={value}"))
        };
        let mut profile = String::new();
        let mut object_type = None;
        let mut entity = None;
        let mut authorities = MQZAO_NONE;
        for (key, value) in &image.attributes {
            match key.as_str() {
                "PROFILE" => profile = value.clone(),
                "OBJTYPE" => {
                    object_type = Some(
                        AuthorityObjectType::from_keyword(value).ok_or_else(|| bad(key, value))?,
                    )
                }
                "PRINCIPAL" => entity = Some(Entity::Principal(value.clone())),
                "GROUP" => entity = Some(Entity::Group(value.clone())),
                "AUTHLIST" => {
                    for keyword in value.split(',').filter(|k| !k.is_empty()) {
                        authorities |=
                            authority_from_keyword(keyword).ok_or_else(|| bad(key, value))?;
                    }
                }
                _ => {
                    return Err(StorageError::invalid(format!(
                        "stored object definition: unknown AUTHREC attribute {key}"
                    )))
                }
            }
        }
        let object_type = object_type.ok_or_else(|| bad("OBJTYPE", ""))?;
        let entity = entity.ok_or_else(|| bad("PRINCIPAL", ""))?;
        Ok(AuthorityRecord::new(
            &profile,
            object_type,
            entity,
            authorities,
        ))
    }
}

/// Whether `profile` holds a generic character (`?` or `*`).
pub fn is_generic(profile: &str) -> bool {
    profile.contains(['?', '*'])
}

/// The class profile of an object type: crt on it lets a user DEFINE objects of that type
/// (MQ's `setmqaut -n @class -t queue +crt`).
pub const CLASS_PROFILE: &str = "@class";

/// The authorities a record of `object_type` for `profile` may hold: crt alone for the
/// type's [`CLASS_PROFILE`], the type's own otherwise.
pub fn valid_authorities_for(object_type: AuthorityObjectType, profile: &str) -> u32 {
    if profile == CLASS_PROFILE && object_type != AuthorityObjectType::QueueManager {
        MQZAO_CREATE
    } else {
        object_type.valid_authorities()
    }
}

/// Check a PROFILE: 1-48 characters of an object name's, `?` and `*`; `**` only as a whole
/// qualifier (MQ refuses `A**` and `***`); or [`CLASS_PROFILE`].
pub fn check_profile(profile: &str) -> StorageResult<()> {
    if profile == CLASS_PROFILE {
        return Ok(());
    }
    let valid_chars = profile
        .chars()
        .all(|c| c == '*' || c == '?' || ferrite_storage::config::is_object_name_char(c));
    let double_star_misplaced = profile
        .split('.')
        .any(|qualifier| qualifier.contains("**") && qualifier != "**");
    if profile.is_empty()
        || profile.len() > OBJECT_NAME_LENGTH_MAX
        || !valid_chars
        || double_star_misplaced
    {
        return Err(StorageError::mq(
            ferrite_constants::pcf_reason::MQRCCF_PROFILE_NAME_ERROR,
            format!(
                "PROFILE('{profile}') is not an object name or generic profile (1-{OBJECT_NAME_LENGTH_MAX} characters of A-Z a-z 0-9 . / _ % with ?, * and ** as a whole qualifier)"
            ),
        ));
    }
    Ok(())
}

/// Check a PRINCIPAL or GROUP name.
pub fn check_entity(entity: &Entity) -> StorageResult<()> {
    let name = entity.name();
    if name.is_empty()
        || name.len() > ENTITY_NAME_LENGTH_MAX
        || name
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == ',' || c == '\'')
    {
        return Err(StorageError::mq(
            ferrite_constants::reason::MQRC_UNKNOWN_ENTITY,
            format!(
                "{}('{name}') must be 1-{ENTITY_NAME_LENGTH_MAX} characters without blanks, quotes or commas",
                entity.keyword()
            ),
        ));
    }
    Ok(())
}

/// Whether the (generic) `profile` matches the object name `name` (the module docs).
pub fn profile_matches(profile: &str, name: &str) -> bool {
    let profile: Vec<&str> = profile.split('.').collect();
    let name: Vec<&str> = name.split('.').collect();
    qualifiers_match(&profile, &name)
}

fn qualifiers_match(profile: &[&str], name: &[&str]) -> bool {
    match profile.split_first() {
        None => name.is_empty(),
        Some((&"**", rest)) => {
            qualifiers_match(rest, name)
                || (!name.is_empty() && qualifiers_match(profile, &name[1..]))
        }
        Some((first, rest)) => match name.split_first() {
            Some((name_first, name_rest)) => {
                qualifier_matches(first.as_bytes(), name_first.as_bytes())
                    && qualifiers_match(rest, name_rest)
            }
            None => false,
        },
    }
}

/// `?` one character, `*` any run (within a qualifier: neither side holds a `.`).
fn qualifier_matches(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|skip| qualifier_matches(rest, &text[skip..])),
        Some((b'?', rest)) => !text.is_empty() && qualifier_matches(rest, &text[1..]),
        Some((c, rest)) => text.first() == Some(c) && qualifier_matches(rest, &text[1..]),
    }
}

/// A key that orders profiles from the most specific to the least (smaller is more
/// specific): each position's class (a plain character 0, `?` 1, `*` 2, `**` 3) from the
/// left, then the longer profile first, then the name (so the order is total).
pub fn profile_specificity(profile: &str) -> (Vec<u8>, std::cmp::Reverse<usize>, String) {
    let mut classes = Vec::with_capacity(profile.len());
    let bytes = profile.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'*' if bytes.get(index + 1) == Some(&b'*') => {
                classes.push(3);
                index += 2;
                continue;
            }
            b'*' => classes.push(2),
            b'?' => classes.push(1),
            _ => classes.push(0),
        }
        index += 1;
    }
    (
        classes,
        std::cmp::Reverse(profile.len()),
        profile.to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_profiles_match_as_mq_documents() {
        let cases: &[(&str, &str, bool)] = &[
            ("APP.Q1", "APP.Q1", true),
            ("APP.Q1", "APP.Q2", false),
            ("APP.Q?", "APP.Q2", true),
            ("APP.Q?", "APP.Q22", false),
            ("APP.?", "APP..", false),
            ("APP.*", "APP.Q1", true),
            ("APP.*", "APP.Q1.X", false),
            ("APP.*", "APP", false),
            ("AB*", "ABC", true),
            ("AB*", "AB", true),
            ("AB*", "AB.C", false),
            ("*.Q", "APP.Q", true),
            ("APP.**", "APP", true),
            ("APP.**", "APP.A.B.C", true),
            ("APP.**", "APPX.A", false),
            ("**", "SYSTEM.DEAD.LETTER.QUEUE", true),
            ("**.QUEUE", "SYSTEM.DEAD.LETTER.QUEUE", true),
            ("A.**.Z", "A.Z", true),
            ("A.**.Z", "A.B.C.Z", true),
            ("A.**.Z", "A.B.C", false),
        ];
        for (profile, name, expected) in cases {
            assert_eq!(
                profile_matches(profile, name),
                *expected,
                "{profile} against {name}"
            );
        }
    }

    #[test]
    fn the_most_specific_profile_sorts_first() {
        let mut profiles = vec!["**", "AB.*", "AB.C*", "AB.CD", "AB.C?", "AB.**"];
        profiles.sort_by_key(|profile| profile_specificity(profile));
        assert_eq!(profiles, ["AB.CD", "AB.C?", "AB.C*", "AB.*", "AB.**", "**"]);
    }

    #[test]
    fn profiles_and_entities_are_checked() {
        for bad in ["", "A**", "***", "A B", "A,B", &"Q".repeat(49)] {
            assert!(check_profile(bad).is_err(), "{bad}");
        }
        for good in ["A", "**", "A.**.B", "?.*", "SYSTEM.ADMIN.COMMAND.QUEUE"] {
            check_profile(good).unwrap();
        }
        assert!(check_entity(&Entity::Principal(String::new())).is_err());
        assert!(check_entity(&Entity::Group("a b".into())).is_err());
        check_entity(&Entity::Group("mqm".into())).unwrap();
    }

    #[test]
    fn a_record_image_round_trips() {
        let record = AuthorityRecord::new(
            "APP.**",
            AuthorityObjectType::Queue,
            Entity::Group("apps".into()),
            MQZAO_OUTPUT | MQZAO_INPUT | MQZAO_INQUIRE | MQZAO_DISPLAY,
        );
        record.validate().unwrap();
        let image = ObjectImage::parse(&record.encode()).unwrap();
        assert_eq!(AuthorityRecord::from_image(&image).unwrap(), record);
    }

    #[test]
    fn keywords_and_pcf_values_name_the_same_authorities() {
        assert_eq!(authority_from_keyword("allmqi"), Some(MQZAO_ALL_MQI));
        assert_eq!(
            authority_from_pcf(-2),
            Some(MQZAO_ALL_ADMIN & AUTHORITY_BITS)
        );
        assert_eq!(
            authority_keywords(MQZAO_OUTPUT | MQZAO_CONNECT),
            ["CONNECT", "PUT"]
        );
        let every: u32 = AUTHORITIES.iter().map(|(bits, ..)| bits).sum();
        assert_eq!(every, AUTHORITY_BITS);
        assert_eq!(authority_from_keyword("ALL"), Some(AUTHORITY_BITS));
    }
}
