//! Authorization: which objects a user may use and how, as IBM MQ's object authority manager
//! (OAM) decides it on Linux. The records are SET AUTHREC's (objects/authority_record.rs),
//! stored and recovered like every other object definition (type `AUTHREC` on page set 0);
//! the queue manager keeps a copy of them in memory that every check reads, replaced after
//! each change.
//!
//! ## Who has which authority
//! - **Administrators** (the privileged users of `privileged_users.rs`: the user the queue
//!   manager runs as and the members of qm.toml `[security]`'s `privileged_group`, `mqm` by
//!   default, and its `privileged_users`) have every authority, as members of `mqm` have on MQ.
//! - **Everyone else** has what the records grant to the user itself (PRINCIPAL) and to each
//!   of its groups (GROUP), and nothing else: a new queue manager grants nothing.
//! - **Groups** are the operating system's: the user's primary group and every group
//!   getgrouplist gives (NSS: /etc/group, LDAP, ...), looked up by name when the connection
//!   is made ([`Principal`]). A user the system does not know (a name a client asserts) has
//!   no groups: only records for its own name apply.
//! - **Profiles**: for the user and for each group separately, the most specific profile that
//!   matches the object's name and has a record for that entity decides (MQ's profile
//!   priorities, objects/authority_record.rs); the authorities so found for the user and its
//!   groups add up.
//!
//! - **Dynamic queues**: the user whose MQOPEN of a model queue created a dynamic queue has
//!   every authority on it while the queue manager runs (as MQ grants its creator), so a
//!   requester can read the replies on its temporary queue; the grant is not stored.
//!
//! A refused check is MQRC_NOT_AUTHORIZED (2035), and the log says who wanted what of which
//! object (AMQ8077W, MQ's message for it).

use std::sync::Arc;

use ferrite_constants::reason;
use ferrite_storage::error::{StorageError, StorageResult};

use super::privileged_users::{ConnectingUser, GroupDatabase, SystemGroupDatabase};
use crate::objects::authority_record::{
    authority_keywords, is_generic, profile_matches, profile_specificity, AuthorityObjectType,
    AuthorityRecord, Entity, AUTHORITY_BITS,
};
use crate::objects::{ObjectDefinition, ObjectType};
use crate::QueueManager;

/// The user an authority check is made for, with what the checks need to know of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Principal {
    /// The user ID (the connection's: MCAUSER, a CHLAUTH mapping, the adopted or asserted one).
    pub name: String,
    /// An administrator: every check passes.
    pub administrator: bool,
    /// The user's groups (empty for an administrator: not needed).
    pub groups: Vec<String>,
}

impl Principal {
    /// Every entity whose records count for this user: itself, then its groups.
    fn entities(&self) -> impl Iterator<Item = Entity> + '_ {
        std::iter::once(Entity::Principal(self.name.clone()))
            .chain(self.groups.iter().cloned().map(Entity::Group))
    }
}

/// The authority records in force: the stored ones, as the checks read them.
#[derive(Debug, Default)]
pub struct AuthorityRecords {
    records: Vec<AuthorityRecord>,
}

impl AuthorityRecords {
    /// What `entity` may do to the object `name` of `object_type`: the record of the most
    /// specific matching profile for that entity, or nothing.
    pub fn entity_authority(
        &self,
        entity: &Entity,
        object_type: AuthorityObjectType,
        name: &str,
    ) -> Option<&AuthorityRecord> {
        self.records
            .iter()
            .filter(|record| {
                record.object_type == object_type
                    && &record.entity == entity
                    && profile_matches(&record.profile, name)
            })
            .min_by_key(|record| profile_specificity(&record.profile))
    }

    /// Every record, in the store's order (by key).
    pub fn records(&self) -> &[AuthorityRecord] {
        &self.records
    }

    /// The records DISPLAY AUTHREC and PCF Inquire Authority Records show: of `object_type`
    /// (any when `None`), of one of `entities` (any when `None`), and whose profile is
    /// `profile` or, unless `exact` or `profile` is itself generic, a generic profile that
    /// matches it as an object name (any profile when `None`).
    pub fn select(
        &self,
        object_type: Option<AuthorityObjectType>,
        entities: Option<&[Entity]>,
        profile: Option<&str>,
        exact: bool,
    ) -> Vec<&AuthorityRecord> {
        self.records
            .iter()
            .filter(|record| object_type.is_none_or(|wanted| record.object_type == wanted))
            .filter(|record| entities.is_none_or(|entities| entities.contains(&record.entity)))
            .filter(|record| match profile {
                None => true,
                Some(profile) if exact || is_generic(profile) => record.profile == profile,
                Some(name) => record.profile == name || profile_matches(&record.profile, name),
            })
            .collect()
    }
}

impl QueueManager {
    /// The principal for `user` (see the module docs): an administrator, or a user with its
    /// groups from the system's group database.
    pub fn principal(&self, user: &ConnectingUser) -> Principal {
        self.principal_with(user, &SystemGroupDatabase)
    }

    /// [`Self::principal`] with the groups from `groups` (the system's, or a test's).
    pub fn principal_with(&self, user: &ConnectingUser, groups: &dyn GroupDatabase) -> Principal {
        let administrator = self
            .connection_authentication
            .read()
            .unwrap()
            .privileged_users
            .contains_in(user, groups);
        Principal {
            name: user.name.clone(),
            administrator,
            groups: if administrator || user.name.is_empty() {
                Vec::new()
            } else {
                groups.user_group_names(&user.name)
            },
        }
    }

    /// The authorities (MQZAO_* bits) `principal` has on the object `name` of `object_type`.
    pub fn authority_of(
        &self,
        principal: &Principal,
        object_type: AuthorityObjectType,
        name: &str,
    ) -> u32 {
        if principal.administrator {
            return AUTHORITY_BITS;
        }
        if object_type == AuthorityObjectType::Queue
            && self
                .dynamic_queue_creators
                .read()
                .unwrap()
                .get(name)
                .is_some_and(|creator| *creator == principal.name)
        {
            return AUTHORITY_BITS;
        }
        let records = self.authority_records();
        principal
            .entities()
            .filter_map(|entity| records.entity_authority(&entity, object_type, name))
            .fold(0, |granted, record| granted | record.authorities)
    }

    /// Whether `principal` has every authority of `wanted` on the object; when it has not,
    /// the log says so and the error is MQRC_NOT_AUTHORIZED.
    pub fn check_authority(
        &self,
        principal: &Principal,
        object_type: AuthorityObjectType,
        name: &str,
        wanted: u32,
    ) -> StorageResult<()> {
        let missing = wanted & !self.authority_of(principal, object_type, name);
        if missing == 0 {
            return Ok(());
        }
        let detail = format!(
            "AMQ8077W {} entity '{}' has insufficient authority to access object {name} ({}): it lacks {}",
            self.name(),
            principal.name,
            object_type.keyword(),
            authority_keywords(missing).join(" ")
        );
        self.say(&detail);
        Err(StorageError::mq(reason::MQRC_NOT_AUTHORIZED, detail))
    }

    /// Note that `principal` created the dynamic queue `name` (see the module docs).
    pub fn note_dynamic_queue_creator(&self, name: &str, principal: &Principal) {
        if !principal.administrator {
            self.dynamic_queue_creators
                .write()
                .unwrap()
                .insert(name.to_string(), principal.name.clone());
        }
    }

    /// The dynamic queue `name` is deleted: its creator's authority goes with it.
    pub(crate) fn forget_dynamic_queue_creator(&self, name: &str) {
        let creators = self.dynamic_queue_creators.read().unwrap();
        if creators.is_empty() || !creators.contains_key(name) {
            return;
        }
        drop(creators);
        self.dynamic_queue_creators.write().unwrap().remove(name);
    }

    /// The authority records in force.
    pub fn authority_records(&self) -> Arc<AuthorityRecords> {
        self.authority_records.read().unwrap().clone()
    }

    /// SET AUTHREC (setmqaut): add the authorities `add` and then remove `remove` from the
    /// record of `profile`, `object_type` and `entity`, creating it when there is none.
    /// Returns the record as stored.
    pub fn set_authority_record(
        &self,
        profile: &str,
        object_type: AuthorityObjectType,
        entity: Entity,
        add: u32,
        remove: u32,
    ) -> StorageResult<AuthorityRecord> {
        let _serialised = self.authority_lock.lock().unwrap();
        let key = AuthorityRecord::key(profile, object_type, &entity);
        let current = match self.object(ObjectType::AuthorityRecord, &key) {
            Some(ObjectDefinition::AuthorityRecord(record)) => record.authorities,
            _ => 0,
        };
        let record = AuthorityRecord::new(
            profile,
            object_type,
            entity,
            ((current | add) & !remove) & AUTHORITY_BITS,
        );
        self.define_object(ObjectDefinition::AuthorityRecord(record.clone()), true)?;
        self.reload_authority_records();
        Ok(record)
    }

    /// DELETE AUTHREC: remove the record (MQRC_UNKNOWN_OBJECT_NAME when there is none).
    pub fn delete_authority_record(
        &self,
        profile: &str,
        object_type: AuthorityObjectType,
        entity: &Entity,
    ) -> StorageResult<()> {
        let _serialised = self.authority_lock.lock().unwrap();
        let key = AuthorityRecord::key(profile, object_type, entity);
        let result = self.delete_object(ObjectType::AuthorityRecord, &key);
        self.reload_authority_records();
        result.map_err(|error| match error.reason_code() {
            reason::MQRC_UNKNOWN_OBJECT_NAME => StorageError::mq(
                reason::MQRC_UNKNOWN_OBJECT_NAME,
                format!(
                    "there is no authority record of PROFILE({profile}) OBJTYPE({}) {}({})",
                    object_type.keyword(),
                    entity.keyword(),
                    entity.name()
                ),
            ),
            _ => error,
        })
    }

    /// Put the stored records in force (at start, after each change, REFRESH SECURITY
    /// TYPE(AUTHSERV)).
    pub fn reload_authority_records(&self) {
        let records = self
            .objects(ObjectType::AuthorityRecord)
            .into_iter()
            .filter_map(|definition| match definition {
                ObjectDefinition::AuthorityRecord(record) => Some(record),
                _ => None,
            })
            .collect();
        *self.authority_records.write().unwrap() = Arc::new(AuthorityRecords { records });
    }
}
