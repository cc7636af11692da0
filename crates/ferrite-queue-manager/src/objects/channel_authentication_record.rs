//! A channel authentication record (CHLAUTH) as the object store keeps it: its fields, MQ's
//! rules for SET CHLAUTH, and its stored image (type `CHLAUTH`, version 1), next to the other
//! object definitions. Which connections the records refuse or map is
//! `security/channel_authentication.rs`'s, which documents the record types and the rules.

use ferrite_storage::error::{StorageError, StorageResult};

use super::{
    ImageWriter, ObjectImage, ObjectType, CHANNEL_NAME_LENGTH_MAX, DESCRIPTION_LENGTH_MAX,
};

/// Longest user ID in a USERLIST, CLNTUSER or MCAUSER (MQ_USER_ID_LENGTH on Linux: 12; MQ
/// allows up to 1024 for CLNTUSER; Ferrite takes 64 for all).
pub const CHANNEL_AUTHENTICATION_USER_LENGTH_MAX: usize = 64;
/// Most entries in one USERLIST or ADDRLIST (MQ: 100 user IDs, 256 addresses).
pub const CHANNEL_AUTHENTICATION_LIST_ENTRIES_MAX: usize = 256;
/// Longest address pattern (MQ_ADDRESS_LENGTH, 48 on MQ; an IPv6 address fits).
pub const CHANNEL_AUTHENTICATION_ADDRESS_LENGTH_MAX: usize = 48;
/// The USERLIST entry that stands for every privileged user (privileged_users.rs).
pub const PRIVILEGED_USERS_ENTRY: &str = "*MQADMIN";

/// TYPE of a channel authentication record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChannelAuthenticationType {
    BlockUser,
    BlockAddress,
    AddressMap,
    UserMap,
}

impl ChannelAuthenticationType {
    pub const ALL: [ChannelAuthenticationType; 4] = [
        ChannelAuthenticationType::BlockUser,
        ChannelAuthenticationType::BlockAddress,
        ChannelAuthenticationType::AddressMap,
        ChannelAuthenticationType::UserMap,
    ];

    pub fn keyword(self) -> &'static str {
        match self {
            ChannelAuthenticationType::BlockUser => "BLOCKUSER",
            ChannelAuthenticationType::BlockAddress => "BLOCKADDR",
            ChannelAuthenticationType::AddressMap => "ADDRESSMAP",
            ChannelAuthenticationType::UserMap => "USERMAP",
        }
    }

    pub fn from_keyword(keyword: &str) -> Option<ChannelAuthenticationType> {
        Self::ALL.into_iter().find(|t| t.keyword() == keyword)
    }
}

/// USERSRC of a mapping record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserSource {
    /// Run under the record's MCAUSER.
    Map,
    /// Refuse the connection.
    NoAccess,
    /// Run as the channel would without the record.
    Channel,
}

impl UserSource {
    pub fn keyword(self) -> &'static str {
        match self {
            UserSource::Map => "MAP",
            UserSource::NoAccess => "NOACCESS",
            UserSource::Channel => "CHANNEL",
        }
    }

    pub fn from_keyword(keyword: &str) -> Option<UserSource> {
        [UserSource::Map, UserSource::NoAccess, UserSource::Channel]
            .into_iter()
            .find(|source| source.keyword() == keyword)
    }
}

/// A field of a record that MQ's rules refuse ([`ChannelAuthenticationRecord::fault`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFault {
    /// The MQSC keyword that sets the field: CHLAUTH (the profile), USERLIST, ADDRLIST,
    /// ADDRESS, CLNTUSER, MCAUSER or DESCR.
    pub keyword: &'static str,
    pub detail: String,
}

/// One channel authentication record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelAuthenticationRecord {
    /// Identity of the record in the object store (see [`ChannelAuthenticationRecord::key`]),
    /// kept so that `name()` can lend it.
    pub key: String,
    /// The generic channel profile (CHLAUTH(...)).
    pub profile: String,
    pub record_type: ChannelAuthenticationType,
    /// BLOCKUSER's USERLIST.
    pub user_list: Vec<String>,
    /// BLOCKADDR's ADDRLIST.
    pub address_list: Vec<String>,
    /// ADDRESSMAP's ADDRESS (required) or USERMAP's (optional; blank matches any).
    pub address: String,
    /// USERMAP's CLNTUSER.
    pub client_user: String,
    pub user_source: UserSource,
    /// MCAUSER for USERSRC(MAP).
    pub mca_user: String,
    pub warn: bool,
    pub description: String,
}

impl ChannelAuthenticationRecord {
    /// A record of `record_type` for `profile` with MQ's defaults (USERSRC(MAP), WARN(NO)).
    pub fn new(
        profile: &str,
        record_type: ChannelAuthenticationType,
        address: &str,
        client_user: &str,
    ) -> ChannelAuthenticationRecord {
        ChannelAuthenticationRecord {
            key: Self::key(profile, record_type, address, client_user),
            profile: profile.to_string(),
            record_type,
            user_list: Vec::new(),
            address_list: Vec::new(),
            address: address.to_string(),
            client_user: client_user.to_string(),
            user_source: UserSource::Map,
            mca_user: String::new(),
            warn: false,
            description: String::new(),
        }
    }

    /// The identity of a record: its type, profile, and for mappings the address and client
    /// user. Two SETs with the same key address the same record.
    pub fn key(
        profile: &str,
        record_type: ChannelAuthenticationType,
        address: &str,
        client_user: &str,
    ) -> String {
        match record_type {
            ChannelAuthenticationType::BlockUser | ChannelAuthenticationType::BlockAddress => {
                format!("{} {profile}", record_type.keyword())
            }
            ChannelAuthenticationType::AddressMap => {
                format!("{} {profile} {address}", record_type.keyword())
            }
            ChannelAuthenticationType::UserMap => {
                format!(
                    "{} {profile} {address} {client_user}",
                    record_type.keyword()
                )
            }
        }
    }

    /// Check the record against MQ's rules for SET CHLAUTH (the first fault, as an error).
    pub fn validate(&self) -> StorageResult<()> {
        match self.fault() {
            None => Ok(()),
            Some(fault) => Err(StorageError::invalid(fault.detail)),
        }
    }

    /// The first field MQ's rules for the record's type refuse, if any: the MQSC keyword that
    /// sets it (so MQSC and PCF can each name it their own way) and why.
    pub fn fault(&self) -> Option<RecordFault> {
        let fail = |keyword: &'static str, detail: String| Some(RecordFault { keyword, detail });
        let profile = &self.profile;
        if profile.is_empty()
            || profile.len() > CHANNEL_NAME_LENGTH_MAX
            || !profile
                .chars()
                .all(|c| c == '*' || ferrite_storage::config::is_object_name_char(c))
        {
            return fail("CHLAUTH", format!(
                "CHLAUTH('{profile}') is not a generic channel name (1-{CHANNEL_NAME_LENGTH_MAX} characters of A-Z a-z 0-9 . / _ % and *)"
            ));
        }
        let user = |keyword: &'static str, what: &str, user: &str| {
            if user.is_empty()
                || user.len() > CHANNEL_AUTHENTICATION_USER_LENGTH_MAX
                || user.contains(char::is_whitespace)
            {
                return fail(keyword, format!("{what} '{user}' must be 1-{CHANNEL_AUTHENTICATION_USER_LENGTH_MAX} characters without blanks"));
            }
            None
        };
        let address = |keyword: &'static str, pattern: &str| {
            check_address_pattern(pattern)
                .err()
                .map(|error| RecordFault {
                    keyword,
                    detail: error.to_string(),
                })
        };
        match self.record_type {
            ChannelAuthenticationType::BlockUser => {
                if self.user_list.is_empty()
                    || self.user_list.len() > CHANNEL_AUTHENTICATION_LIST_ENTRIES_MAX
                {
                    return fail("USERLIST", format!(
                        "TYPE(BLOCKUSER) needs USERLIST with 1-{CHANNEL_AUTHENTICATION_LIST_ENTRIES_MAX} user IDs"
                    ));
                }
                if let Some(fault) = self
                    .user_list
                    .iter()
                    .find_map(|entry| user("USERLIST", "USERLIST entry", entry))
                {
                    return Some(fault);
                }
            }
            ChannelAuthenticationType::BlockAddress => {
                if profile != "*" {
                    return fail("CHLAUTH", format!(
                        "TYPE(BLOCKADDR) applies to every channel: its profile must be '*', not '{profile}'"
                    ));
                }
                if self.address_list.is_empty()
                    || self.address_list.len() > CHANNEL_AUTHENTICATION_LIST_ENTRIES_MAX
                {
                    return fail("ADDRLIST", format!(
                        "TYPE(BLOCKADDR) needs ADDRLIST with 1-{CHANNEL_AUTHENTICATION_LIST_ENTRIES_MAX} addresses"
                    ));
                }
                if let Some(fault) = self
                    .address_list
                    .iter()
                    .find_map(|entry| address("ADDRLIST", entry))
                {
                    return Some(fault);
                }
            }
            ChannelAuthenticationType::AddressMap | ChannelAuthenticationType::UserMap => {
                if self.record_type == ChannelAuthenticationType::AddressMap {
                    if self.address.is_empty() {
                        return fail("ADDRESS", "TYPE(ADDRESSMAP) needs ADDRESS".to_string());
                    }
                } else if let Some(fault) = user("CLNTUSER", "CLNTUSER", &self.client_user) {
                    return Some(fault);
                }
                if !self.address.is_empty() {
                    if let Some(fault) = address("ADDRESS", &self.address) {
                        return Some(fault);
                    }
                }
                match self.user_source {
                    UserSource::Map => {
                        if let Some(fault) = user(
                            "MCAUSER",
                            "MCAUSER (USERSRC(MAP) needs one)",
                            &self.mca_user,
                        ) {
                            return Some(fault);
                        }
                    }
                    _ if !self.mca_user.is_empty() => {
                        return fail(
                            "MCAUSER",
                            format!(
                                "MCAUSER is allowed only with USERSRC(MAP), not USERSRC({})",
                                self.user_source.keyword()
                            ),
                        )
                    }
                    _ => {}
                }
            }
        }
        if self.description.chars().count() > DESCRIPTION_LENGTH_MAX {
            return fail(
                "DESCR",
                format!("DESCR is longer than {} characters", DESCRIPTION_LENGTH_MAX),
            );
        }
        if self.key
            != Self::key(
                &self.profile,
                self.record_type,
                &self.address,
                &self.client_user,
            )
        {
            return fail(
                "CHLAUTH",
                format!("record key '{}' does not match its fields", self.key),
            );
        }
        None
    }

    /// The stored image (the object store's format, type `CHLAUTH`, version 1): PROFILE TYPE
    /// USERLIST ADDRLIST (entries separated by `,`) ADDRESS CLNTUSER USERSRC MCAUSER WARN DESCR.
    pub fn encode(&self) -> Vec<u8> {
        let mut image = ImageWriter::new(ObjectType::ChannelAuthentication);
        image
            .line("PROFILE", &self.profile)
            .line("TYPE", self.record_type.keyword())
            .line("USERLIST", &self.user_list.join(","))
            .line("ADDRLIST", &self.address_list.join(","))
            .line("ADDRESS", &self.address)
            .line("CLNTUSER", &self.client_user)
            .line("USERSRC", self.user_source.keyword())
            .line("MCAUSER", &self.mca_user)
            .line("WARN", if self.warn { "YES" } else { "NO" })
            .line("DESCR", &self.description);
        image.finish()
    }

    pub fn from_image(image: &ObjectImage) -> StorageResult<ChannelAuthenticationRecord> {
        let bad = |key: &str, value: &str| {
            StorageError::invalid(format!("stored object definition: CHLAUTH {key}={value}"))
        };
        let list = |value: &str| -> Vec<String> {
            value
                .split(',')
                .filter(|entry| !entry.is_empty())
                .map(str::to_string)
                .collect()
        };
        let mut record =
            ChannelAuthenticationRecord::new("", ChannelAuthenticationType::BlockUser, "", "");
        for (key, value) in &image.attributes {
            match key.as_str() {
                "PROFILE" => record.profile = value.clone(),
                "TYPE" => {
                    record.record_type = ChannelAuthenticationType::from_keyword(value)
                        .ok_or_else(|| bad(key, value))?
                }
                "USERLIST" => record.user_list = list(value),
                "ADDRLIST" => record.address_list = list(value),
                "ADDRESS" => record.address = value.clone(),
                "CLNTUSER" => record.client_user = value.clone(),
                "USERSRC" => {
                    record.user_source =
                        UserSource::from_keyword(value).ok_or_else(|| bad(key, value))?
                }
                "MCAUSER" => record.mca_user = value.clone(),
                "WARN" => record.warn = value == "YES",
                "DESCR" => record.description = value.clone(),
                _ => {
                    return Err(StorageError::invalid(format!(
                        "stored object definition: unknown CHLAUTH attribute {key}"
                    )))
                }
            }
        }
        record.key = Self::key(
            &record.profile,
            record.record_type,
            &record.address,
            &record.client_user,
        );
        Ok(record)
    }
}

/// Check an ADDRESS or ADDRLIST entry.
pub(crate) fn check_address_pattern(pattern: &str) -> StorageResult<()> {
    let fail = || {
        Err(StorageError::invalid(format!(
                "address '{pattern}' is not an IP address pattern (e.g. 192.168.1.*, 10.0.0.1-20, *, or an IPv6 address)"
            ),
        ))
    };
    if pattern.is_empty() || pattern.len() > CHANNEL_AUTHENTICATION_ADDRESS_LENGTH_MAX {
        return fail();
    }
    if pattern == "*" || pattern.parse::<std::net::Ipv6Addr>().is_ok() {
        return Ok(());
    }
    let parts: Vec<&str> = pattern.split('.').collect();
    if parts.len() > 4 || (parts.len() < 4 && parts.last() != Some(&"*")) {
        return fail();
    }
    for part in parts {
        let ok = part == "*"
            || part.parse::<u8>().is_ok()
            || part.split_once('-').is_some_and(|(low, high)| {
                matches!((low.parse::<u8>(), high.parse::<u8>()), (Ok(l), Ok(h)) if l <= h)
            });
        if !ok {
            return fail();
        }
    }
    Ok(())
}
