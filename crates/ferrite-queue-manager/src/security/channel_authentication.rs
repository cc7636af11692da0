//! Channel authentication records (MQ's CHLAUTH): which client connections an SVRCONN channel
//! refuses, and the user ID (MCAUSER) the ones it accepts run under.
//!
//! Four record types, as `SET CHLAUTH` makes them:
//!
//! | TYPE        | key (one record per)              | holds                                  |
//! |-------------|-----------------------------------|----------------------------------------|
//! | BLOCKUSER   | channel profile                   | USERLIST: user IDs refused (`*MQADMIN`: the privileged users) |
//! | BLOCKADDR   | the profile `*` (one record)      | ADDRLIST: addresses refused            |
//! | ADDRESSMAP  | profile and ADDRESS               | USERSRC(MAP\|CHANNEL\|NOACCESS), MCAUSER |
//! | USERMAP     | profile, CLNTUSER and ADDRESS     | USERSRC, MCAUSER                       |
//!
//! Every record also has WARN(YES|NO) (YES: a record that would refuse only says so) and
//! DESCR. Each is stored as one object image on page set 0 (type `CHLAUTH`; the record and its
//! image are objects/channel_authentication_record.rs's), so records survive restart as other
//! definitions do.
//!
//! ## How a connection is checked (`ChannelAuthenticationRecords::check`)
//! Only when the queue manager's CHLAUTH is ENABLED, at MQCONN on a client channel:
//! 1. BLOCKADDR: the client's address in ADDRLIST refuses it (AMQ9782E).
//! 2. Mapping: of the channel profiles that match the channel name and hold a USERMAP or
//!    ADDRESSMAP record matching the connection, the most specific profile is used; within
//!    it a USERMAP (for the user ID the client asserted) is used before an ADDRESSMAP, and a
//!    more specific address before a less specific one. USERSRC(MAP) runs the connection
//!    under the record's MCAUSER, CHANNEL under the channel's own, NOACCESS refuses it
//!    (AMQ9777E). No matching record: the channel's own.
//! 3. BLOCKUSER: the user the connection would run under (mapped MCAUSER, else the channel's
//!    MCAUSER, else the asserted user ID) is checked against the BLOCKUSER record of the most
//!    specific matching profile only (so a BLOCKUSER record for one channel overrides `*`'s,
//!    MQ's way of letting administrators use one channel) and refused if listed (AMQ9776E).
//!
//! Specificity of a generic name (channel profiles and addresses): a name without `*` is the
//! most specific; otherwise the one whose first `*` comes later, then the one with more
//! characters that are not `*`. An address pattern is IPv4 parts separated by `.`, each a
//! number, a range `a-b` or `*`, a trailing `*` matching any remaining parts; `*` alone matches
//! every address; an IPv6 address matches only itself or `*`.

use std::net::IpAddr;

use ferrite_constants::reason;

// The record itself, its rules and its stored image are the object store's
// (objects/channel_authentication_record.rs); they keep their paths here.
pub use crate::objects::channel_authentication_record::{
    ChannelAuthenticationRecord, ChannelAuthenticationType, RecordFault, UserSource,
    CHANNEL_AUTHENTICATION_ADDRESS_LENGTH_MAX, CHANNEL_AUTHENTICATION_LIST_ENTRIES_MAX,
    CHANNEL_AUTHENTICATION_USER_LENGTH_MAX, PRIVILEGED_USERS_ENTRY,
};
use crate::objects::{ObjectDefinition, ObjectType};
use crate::QueueManager;
use ferrite_storage::error::{StorageError, StorageResult};

/// Whether generic name `pattern` (`*` matching any run of characters) matches `name`.
pub fn generic_matches(pattern: &str, name: &str) -> bool {
    let pattern = pattern.as_bytes();
    let name = name.as_bytes();
    // Iterative wildcard matching with one backtrack point.
    let (mut p, mut n) = (0, 0);
    let (mut star, mut resume) = (None, 0);
    while n < name.len() {
        if p < pattern.len() && pattern[p] != b'*' && pattern[p] == name[n] {
            p += 1;
            n += 1;
        } else if p < pattern.len() && pattern[p] == b'*' {
            star = Some(p);
            p += 1;
            resume = n;
        } else if let Some(s) = star {
            p = s + 1;
            resume += 1;
            n = resume;
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// Specificity of a generic name: larger is more specific (see the module docs).
fn specificity(pattern: &str) -> (usize, usize) {
    let first_star = pattern.find('*').unwrap_or(usize::MAX);
    let literal = pattern.chars().filter(|&c| c != '*').count();
    (first_star, literal)
}

/// Whether address pattern `pattern` matches `address`.
pub fn address_matches(pattern: &str, address: IpAddr) -> bool {
    if pattern == "*" {
        return true;
    }
    let address = match address {
        IpAddr::V4(v4) => v4,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4,
            None => return pattern.parse::<std::net::Ipv6Addr>().ok() == Some(v6),
        },
    };
    let octets = address.octets();
    let parts: Vec<&str> = pattern.split('.').collect();
    for (index, part) in parts.iter().enumerate() {
        if *part == "*" && index == parts.len() - 1 {
            return true;
        }
        let Some(&octet) = octets.get(index) else {
            return false;
        };
        let ok = match part.split_once('-') {
            _ if *part == "*" => true,
            Some((low, high)) => matches!(
                (low.parse::<u8>(), high.parse::<u8>()),
                (Ok(l), Ok(h)) if (l..=h).contains(&octet)
            ),
            None => part.parse::<u8>().ok() == Some(octet),
        };
        if !ok {
            return false;
        }
    }
    parts.len() == 4
}

/// Specificity of an address pattern: exact parts count most, then ranges.
fn address_specificity(pattern: &str) -> (usize, usize) {
    if pattern.is_empty() || pattern == "*" {
        return (0, 0);
    }
    let parts: Vec<&str> = pattern.split('.').collect();
    let exact = parts
        .iter()
        .filter(|part| **part != "*" && !part.contains('-'))
        .count();
    let ranges = parts.iter().filter(|part| part.contains('-')).count();
    (exact.max(if parts.len() == 1 { 4 } else { 0 }), ranges)
}

/// What the records decide for one connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChannelAuthenticationDecision {
    /// Go ahead; `mca_user` is the MCAUSER a USERSRC(MAP) record gives (None: the channel's
    /// own). `warnings` are the AMQ9787W-style lines of WARN(YES) records that would have
    /// refused it.
    Allowed {
        mca_user: Option<String>,
        warnings: Vec<Refusal>,
    },
    /// Refused with MQRC_NOT_AUTHORIZED; `message` names the rule (AMQ9776E, AMQ9777E,
    /// AMQ9782E), `cause` which kind of rule, `user` the user ID a BLOCKUSER record blocked
    /// (blank for the other causes).
    Blocked {
        message: String,
        cause: RefusalCause,
        user: String,
    },
}

/// Which kind of record refuses a connection: the reason qualifiers of MQ's Channel Blocked
/// event (MQRQ_CHANNEL_BLOCKED_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalCause {
    /// A BLOCKADDR entry matches the client's address (MQRQ_CHANNEL_BLOCKED_ADDRESS).
    Address,
    /// A BLOCKUSER entry matches the user the connection would run as
    /// (MQRQ_CHANNEL_BLOCKED_USERID).
    UserId,
    /// The mapping record that applies says USERSRC(NOACCESS) (MQRQ_CHANNEL_BLOCKED_NOACCESS).
    NoAccess,
}

/// A refusal by one record: what blocks a connection, or what a WARN(YES) record would have
/// blocked (then `message` is the AMQ9787W line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub message: String,
    pub cause: RefusalCause,
    /// The blocked user ID for [`RefusalCause::UserId`]; blank otherwise.
    pub user: String,
}

impl Refusal {
    fn decision(self) -> ChannelAuthenticationDecision {
        ChannelAuthenticationDecision::Blocked {
            message: self.message,
            cause: self.cause,
            user: self.user,
        }
    }

    fn warning(mut self, message_id: &str) -> Refusal {
        self.message = self.message.replacen(message_id, "AMQ9787W (WARN(YES))", 1);
        self
    }
}

/// The facts a check needs about one connection.
pub struct ConnectionToCheck<'a> {
    pub channel: &'a str,
    pub address: IpAddr,
    /// The user ID the client asserted.
    pub client_user: &'a str,
    /// The channel's own MCAUSER (blank: none).
    pub channel_mca_user: &'a str,
}

/// All records, read at a connection.
pub struct ChannelAuthenticationRecords {
    pub records: Vec<ChannelAuthenticationRecord>,
}

impl ChannelAuthenticationRecords {
    /// Decide a connection (the module docs give the rules). `is_privileged` answers
    /// `*MQADMIN` for a user ID.
    pub fn check(
        &self,
        connection: &ConnectionToCheck<'_>,
        is_privileged: &dyn Fn(&str) -> bool,
    ) -> ChannelAuthenticationDecision {
        self.evaluate(connection, is_privileged).0
    }

    /// DISPLAY CHLAUTH MATCH(RUNCHECK): the record that decides the connection (the one that
    /// blocks it, else the mapping used), if any.
    pub fn runcheck(
        &self,
        connection: &ConnectionToCheck<'_>,
        is_privileged: &dyn Fn(&str) -> bool,
    ) -> Option<ChannelAuthenticationRecord> {
        self.evaluate(connection, is_privileged).1.cloned()
    }

    fn evaluate(
        &self,
        connection: &ConnectionToCheck<'_>,
        is_privileged: &dyn Fn(&str) -> bool,
    ) -> (
        ChannelAuthenticationDecision,
        Option<&ChannelAuthenticationRecord>,
    ) {
        let mut warnings = Vec::new();
        let channel = connection.channel;
        let address = connection.address;
        // 1. BLOCKADDR.
        for record in &self.records {
            if record.record_type != ChannelAuthenticationType::BlockAddress {
                continue;
            }
            if let Some(entry) = record
                .address_list
                .iter()
                .find(|entry| address_matches(entry, address))
            {
                let refusal = Refusal {
                    message: format!(
                        "AMQ9782E Remote connection blocked: the address '{address}' of the client on channel '{channel}' matches ADDRLIST entry '{entry}' of CHLAUTH('*') TYPE(BLOCKADDR)"
                    ),
                    cause: RefusalCause::Address,
                    user: String::new(),
                };
                if record.warn {
                    warnings.push(refusal.warning("AMQ9782E"));
                } else {
                    return (refusal.decision(), Some(record));
                }
            }
        }
        // 2. Mapping.
        let mapping = self
            .records
            .iter()
            .filter(|record| generic_matches(&record.profile, channel))
            .filter(|record| match record.record_type {
                ChannelAuthenticationType::AddressMap => address_matches(&record.address, address),
                ChannelAuthenticationType::UserMap => {
                    record.client_user == connection.client_user
                        && (record.address.is_empty() || address_matches(&record.address, address))
                }
                _ => false,
            })
            .max_by_key(|record| {
                (
                    specificity(&record.profile),
                    record.record_type == ChannelAuthenticationType::UserMap,
                    address_specificity(&record.address),
                )
            });
        let mut mca_user = None;
        if let Some(record) = mapping {
            let rule = describe(record);
            match record.user_source {
                UserSource::Map => mca_user = Some(record.mca_user.clone()),
                UserSource::Channel => {}
                UserSource::NoAccess => {
                    let refusal = Refusal {
                        message: format!(
                            "AMQ9777E Channel was blocked: channel '{channel}' from '{address}' (client user '{}') matched {rule} USERSRC(NOACCESS)",
                            connection.client_user
                        ),
                        cause: RefusalCause::NoAccess,
                        user: String::new(),
                    };
                    if record.warn {
                        warnings.push(refusal.warning("AMQ9777E"));
                    } else {
                        return (refusal.decision(), Some(record));
                    }
                }
            }
        }
        // 3. BLOCKUSER, against the user the connection would run under.
        let running_as = match &mca_user {
            Some(user) => user.as_str(),
            None if !connection.channel_mca_user.trim().is_empty() => {
                connection.channel_mca_user.trim()
            }
            None => connection.client_user,
        };
        let block_user = self
            .records
            .iter()
            .filter(|record| record.record_type == ChannelAuthenticationType::BlockUser)
            .filter(|record| generic_matches(&record.profile, channel))
            .max_by_key(|record| specificity(&record.profile));
        if let Some(record) = block_user {
            let listed = record.user_list.iter().find(|entry| {
                if entry.as_str() == PRIVILEGED_USERS_ENTRY {
                    is_privileged(running_as)
                } else {
                    entry.as_str() == running_as
                }
            });
            if let Some(entry) = listed {
                let refusal = Refusal {
                    message: format!(
                        "AMQ9776E Channel was blocked by user ID: channel '{channel}' from '{address}' would run as '{running_as}', which USERLIST entry '{entry}' of {} blocks",
                        describe(record)
                    ),
                    cause: RefusalCause::UserId,
                    user: running_as.to_string(),
                };
                if record.warn {
                    warnings.push(refusal.warning("AMQ9776E"));
                } else {
                    return (refusal.decision(), Some(record));
                }
            }
        }
        (
            ChannelAuthenticationDecision::Allowed { mca_user, warnings },
            mapping,
        )
    }
}

/// `CHLAUTH('profile') TYPE(...) [ADDRESS(...)] [CLNTUSER(...)]`, naming a record in messages.
pub fn describe(record: &ChannelAuthenticationRecord) -> String {
    let mut text = format!(
        "CHLAUTH('{}') TYPE({})",
        record.profile,
        record.record_type.keyword()
    );
    if !record.address.is_empty() {
        text.push_str(&format!(" ADDRESS('{}')", record.address));
    }
    if !record.client_user.is_empty() {
        text.push_str(&format!(" CLNTUSER('{}')", record.client_user));
    }
    text
}

/// ACTION of SET CHLAUTH.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelAuthenticationAction {
    /// Add the record; a mapping that exists is refused (MQRC_OBJECT_ALREADY_EXISTS), a
    /// BLOCKUSER or BLOCKADDR list that exists gains the entries.
    Add,
    /// Add the record or replace the one with the same key.
    Replace,
    /// Remove the record (MQRC_UNKNOWN_OBJECT_NAME if there is none); for BLOCKUSER and
    /// BLOCKADDR given a list, remove those entries (the record goes with its last one).
    Remove,
    /// Remove every record of the TYPE for the profile.
    RemoveAll,
}

impl ChannelAuthenticationAction {
    pub fn from_keyword(keyword: &str) -> Option<ChannelAuthenticationAction> {
        match keyword {
            "ADD" => Some(ChannelAuthenticationAction::Add),
            "REPLACE" => Some(ChannelAuthenticationAction::Replace),
            "REMOVE" => Some(ChannelAuthenticationAction::Remove),
            "REMOVEALL" => Some(ChannelAuthenticationAction::RemoveAll),
            _ => None,
        }
    }
}

impl QueueManager {
    /// Every channel authentication record, by key.
    pub fn channel_authentication_records(&self) -> Vec<ChannelAuthenticationRecord> {
        self.objects(ObjectType::ChannelAuthentication)
            .into_iter()
            .filter_map(|definition| match definition {
                ObjectDefinition::ChannelAuthentication(record) => Some(record),
                _ => None,
            })
            .collect()
    }

    /// SET CHLAUTH: `record` carries the profile, TYPE and the attributes given. Returns the
    /// number of records changed.
    pub fn set_channel_authentication(
        &self,
        record: ChannelAuthenticationRecord,
        action: ChannelAuthenticationAction,
    ) -> StorageResult<usize> {
        let _serialised = self.channel_authentication_lock.lock().unwrap();
        let existing = match self.object(ObjectType::ChannelAuthentication, &record.key) {
            Some(ObjectDefinition::ChannelAuthentication(existing)) => Some(existing),
            _ => None,
        };
        let is_list = matches!(
            record.record_type,
            ChannelAuthenticationType::BlockUser | ChannelAuthenticationType::BlockAddress
        );
        let not_found = || {
            StorageError::mq(
                reason::MQRC_UNKNOWN_OBJECT_NAME,
                format!("no channel authentication record {}", describe(&record)),
            )
        };
        match action {
            ChannelAuthenticationAction::Add | ChannelAuthenticationAction::Replace => {
                let mut new = record.clone();
                if let Some(existing) = &existing {
                    if action == ChannelAuthenticationAction::Add {
                        if !is_list {
                            return Err(StorageError::mq(
                                reason::MQRC_OBJECT_ALREADY_EXISTS,
                                format!(
                                    "{} already exists (ACTION(REPLACE) replaces it)",
                                    describe(&record)
                                ),
                            ));
                        }
                        new.user_list = merged(&existing.user_list, &record.user_list);
                        new.address_list = merged(&existing.address_list, &record.address_list);
                    }
                }
                self.define_object(ObjectDefinition::ChannelAuthentication(new), true)?;
                Ok(1)
            }
            ChannelAuthenticationAction::Remove => {
                let existing = existing.ok_or_else(not_found)?;
                let removing = [&record.user_list[..], &record.address_list[..]].concat();
                if is_list && !removing.is_empty() {
                    let mut kept = existing.clone();
                    kept.user_list.retain(|entry| !removing.contains(entry));
                    kept.address_list.retain(|entry| !removing.contains(entry));
                    if !kept.user_list.is_empty() || !kept.address_list.is_empty() {
                        self.define_object(ObjectDefinition::ChannelAuthentication(kept), true)?;
                        return Ok(1);
                    }
                }
                self.delete_object(ObjectType::ChannelAuthentication, &existing.key)?;
                Ok(1)
            }
            ChannelAuthenticationAction::RemoveAll => {
                let doomed: Vec<String> = self
                    .channel_authentication_records()
                    .into_iter()
                    .filter(|r| r.profile == record.profile && r.record_type == record.record_type)
                    .map(|r| r.key)
                    .collect();
                for key in &doomed {
                    self.delete_object(ObjectType::ChannelAuthentication, key)?;
                }
                Ok(doomed.len())
            }
        }
    }

    /// DISPLAY CHLAUTH MATCH(RUNCHECK): the record that would decide `connection` (checked
    /// whatever QMGR CHLAUTH is, as MQ's RUNCHECK shows the records).
    pub fn channel_authentication_runcheck(
        &self,
        connection: &ConnectionToCheck<'_>,
    ) -> Option<ChannelAuthenticationRecord> {
        let records = ChannelAuthenticationRecords {
            records: self.channel_authentication_records(),
        };
        records.runcheck(connection, &|user| {
            self.is_privileged(&super::ConnectingUser::asserted(user))
        })
    }

    /// Whether the queue manager checks channel authentication records (QMGR CHLAUTH).
    pub fn channel_authentication_enabled(&self) -> bool {
        self.queue_manager_attributes().channel_authentication
    }

    /// Check a client connection against the records (none when QMGR CHLAUTH is DISABLED);
    /// `*MQADMIN` is the privileged users in force (privileged_users.rs).
    pub fn check_channel_authentication(
        &self,
        connection: &ConnectionToCheck<'_>,
    ) -> ChannelAuthenticationDecision {
        if !self.channel_authentication_enabled() {
            return ChannelAuthenticationDecision::Allowed {
                mca_user: None,
                warnings: Vec::new(),
            };
        }
        let records = ChannelAuthenticationRecords {
            records: self.channel_authentication_records(),
        };
        records.check(connection, &|user| {
            self.is_privileged(&super::ConnectingUser::asserted(user))
        })
    }
}

/// `existing` followed by the entries of `added` it lacks.
fn merged(existing: &[String], added: &[String]) -> Vec<String> {
    let mut list = existing.to_vec();
    for entry in added {
        if !list.contains(entry) {
            list.push(entry.clone());
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::channel_authentication_record::check_address_pattern;
    use crate::objects::ObjectImage;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn block_user(profile: &str, users: &[&str]) -> ChannelAuthenticationRecord {
        let mut record =
            ChannelAuthenticationRecord::new(profile, ChannelAuthenticationType::BlockUser, "", "");
        record.user_list = users.iter().map(|u| u.to_string()).collect();
        record
    }

    fn address_map(
        profile: &str,
        address: &str,
        source: UserSource,
        mca: &str,
    ) -> ChannelAuthenticationRecord {
        let mut record = ChannelAuthenticationRecord::new(
            profile,
            ChannelAuthenticationType::AddressMap,
            address,
            "",
        );
        record.user_source = source;
        record.mca_user = mca.to_string();
        record
    }

    /// MQ's defaults for a new queue manager.
    fn defaults() -> Vec<ChannelAuthenticationRecord> {
        vec![
            address_map("SYSTEM.*", "*", UserSource::NoAccess, ""),
            address_map("SYSTEM.ADMIN.SVRCONN", "*", UserSource::Channel, ""),
            block_user("*", &[PRIVILEGED_USERS_ENTRY]),
        ]
    }

    fn check(
        records: &[ChannelAuthenticationRecord],
        channel: &str,
        user: &str,
    ) -> ChannelAuthenticationDecision {
        ChannelAuthenticationRecords {
            records: records.to_vec(),
        }
        .check(
            &ConnectionToCheck {
                channel,
                address: ip("10.1.2.3"),
                client_user: user,
                channel_mca_user: "",
            },
            &|user| user == "mqm",
        )
    }

    #[test]
    fn generic_names_match_and_rank() {
        assert!(generic_matches("*", "ANY.CHANNEL"));
        assert!(generic_matches("SYSTEM.*", "SYSTEM.DEF.SVRCONN"));
        assert!(!generic_matches("SYSTEM.*", "DEV.APP.SVRCONN"));
        assert!(generic_matches("*.SVRCONN", "DEV.APP.SVRCONN"));
        assert!(generic_matches("D*P*N", "DEV.APP.SVRCONN"));
        assert!(!generic_matches("DEV", "DEV.APP"));
        assert!(specificity("SYSTEM.ADMIN.SVRCONN") > specificity("SYSTEM.*"));
        assert!(specificity("SYSTEM.*") > specificity("*"));
    }

    #[test]
    fn address_patterns_match() {
        assert!(address_matches("*", ip("1.2.3.4")));
        assert!(address_matches("10.1.*", ip("10.1.2.3")));
        assert!(!address_matches("10.2.*", ip("10.1.2.3")));
        assert!(address_matches("10.1.2.1-9", ip("10.1.2.3")));
        assert!(!address_matches("10.1.2.4-9", ip("10.1.2.3")));
        assert!(address_matches("10.1.2.3", ip("::ffff:10.1.2.3")));
        assert!(address_matches("::1", ip("::1")));
        assert!(check_address_pattern("10.1.2.300").is_err());
        assert!(check_address_pattern("10.1").is_err());
        assert!(check_address_pattern("10.1.*").is_ok());
    }

    #[test]
    fn mq_defaults_block_system_channels_and_administrators() {
        let records = defaults();
        assert!(matches!(
            check(&records, "SYSTEM.DEF.SVRCONN", "app"),
            ChannelAuthenticationDecision::Blocked { message, cause: RefusalCause::NoAccess, user } if message.starts_with("AMQ9777E") && user.is_empty()
        ));
        // SYSTEM.ADMIN.SVRCONN: its own ADDRESSMAP is more specific than SYSTEM.*'s.
        assert_eq!(
            check(&records, "SYSTEM.ADMIN.SVRCONN", "app"),
            ChannelAuthenticationDecision::Allowed {
                mca_user: None,
                warnings: vec![]
            }
        );
        // ... but the privileged users stay blocked by '*' BLOCKUSER.
        assert!(matches!(
            check(&records, "SYSTEM.ADMIN.SVRCONN", "mqm"),
            ChannelAuthenticationDecision::Blocked { message, cause: RefusalCause::UserId, user } if message.starts_with("AMQ9776E") && message.contains("*MQADMIN") && user == "mqm"
        ));
        assert!(matches!(
            check(&records, "DEV.APP.SVRCONN", "mqm"),
            ChannelAuthenticationDecision::Blocked { .. }
        ));
        assert!(matches!(
            check(&records, "DEV.APP.SVRCONN", "app"),
            ChannelAuthenticationDecision::Allowed { .. }
        ));
        // MQ's way to let administrators in on one channel: a more specific BLOCKUSER.
        let mut allowing = records.clone();
        allowing.push(block_user("SYSTEM.ADMIN.SVRCONN", &["nobody"]));
        assert!(matches!(
            check(&allowing, "SYSTEM.ADMIN.SVRCONN", "mqm"),
            ChannelAuthenticationDecision::Allowed { .. }
        ));
        assert!(matches!(
            check(&allowing, "DEV.APP.SVRCONN", "mqm"),
            ChannelAuthenticationDecision::Blocked { .. }
        ));
    }

    #[test]
    fn mappings_pick_the_most_specific_record_and_blockuser_sees_the_mapped_user() {
        let mut user_map = ChannelAuthenticationRecord::new(
            "DEV.*",
            ChannelAuthenticationType::UserMap,
            "",
            "alice",
        );
        user_map.mca_user = "appuser".into();
        let records = vec![
            address_map("*", "10.*", UserSource::Map, "everyone"),
            address_map("DEV.*", "10.1.*", UserSource::Map, "tenone"),
            address_map("DEV.*", "10.1.2.3", UserSource::Map, "exact"),
            user_map,
            block_user("*", &["exact"]),
        ];
        // USERMAP before ADDRESSMAP in the same profile.
        assert_eq!(
            check(&records, "DEV.APP", "alice"),
            ChannelAuthenticationDecision::Allowed {
                mca_user: Some("appuser".into()),
                warnings: vec![]
            }
        );
        // The most specific address, then BLOCKUSER on the mapped user.
        assert!(matches!(
            check(&records, "DEV.APP", "bob"),
            ChannelAuthenticationDecision::Blocked { message, .. } if message.contains("'exact'")
        ));
        // Another channel: only '*' matches.
        assert_eq!(
            check(&records, "OTHER", "bob"),
            ChannelAuthenticationDecision::Allowed {
                mca_user: Some("everyone".into()),
                warnings: vec![]
            }
        );
    }

    #[test]
    fn warn_yes_only_warns_and_blockaddr_blocks_first() {
        let mut blocked =
            ChannelAuthenticationRecord::new("*", ChannelAuthenticationType::BlockAddress, "", "");
        blocked.address_list = vec!["10.1.2.*".into()];
        assert!(matches!(
            check(&[blocked.clone()], "ANY", "app"),
            ChannelAuthenticationDecision::Blocked { message, cause: RefusalCause::Address, .. } if message.starts_with("AMQ9782E")
        ));
        blocked.warn = true;
        let ChannelAuthenticationDecision::Allowed { warnings, .. } =
            check(&[blocked], "ANY", "app")
        else {
            panic!("WARN(YES) allows");
        };
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.starts_with("AMQ9787W"), "{warnings:?}");
        assert_eq!(warnings[0].cause, RefusalCause::Address);
    }

    #[test]
    fn images_round_trip_and_validation_refuses_bad_records() {
        for record in defaults() {
            record.validate().unwrap();
            let image = ObjectImage::parse(&record.encode()).unwrap();
            assert_eq!(
                ChannelAuthenticationRecord::from_image(&image).unwrap(),
                record
            );
        }
        let mut bad = address_map("*", "*", UserSource::Map, "");
        assert!(bad.validate().unwrap_err().to_string().contains("MCAUSER"));
        bad = ChannelAuthenticationRecord::new(
            "DEV.*",
            ChannelAuthenticationType::BlockAddress,
            "",
            "",
        );
        bad.address_list = vec!["1.2.3.4".into()];
        assert!(bad.validate().unwrap_err().to_string().contains("'*'"));
        assert!(block_user("*", &[]).validate().is_err());
        assert!(block_user("BAD NAME", &["x"]).validate().is_err());
    }
}
