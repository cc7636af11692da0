//! The connection authentication configuration in force: the AUTHINFO object the queue
//! manager's CONNAUTH names, as it was at the last restart or REFRESH SECURITY TYPE(CONNAUTH).
//!
//! As in MQ, altering the AUTHINFO object or CONNAUTH changes nothing until a refresh (or a
//! restart): connection authentication (`ferrite-server`'s authentication.rs) reads the copy
//! kept here at each MQCONN, never the stored object.
//!
//! | CONNAUTH                     | in force                                                   |
//! |------------------------------|------------------------------------------------------------|
//! | blank                        | no AUTHINFO: user IDs and passwords are not checked        |
//! | names an AUTHINFO            | that object's CHCKCLNT, CHCKLOCL, ADOPTCTX, FAILDLAY       |
//! | names no object, at restart  | as blank, and an operator message says so (a queue manager |
//! |                              | whose default objects were never defined: embedded tests)  |
//! | names no object, at REFRESH  | the refresh fails (MQRC_UNKNOWN_OBJECT_NAME), nothing changes |
//!
//! ## The queue manager's own CHCKCLNT
//! Before AUTHINFO objects existed Ferrite kept CHCKCLNT on the QMGR object. It is kept as a
//! compatibility alias: MQSC's ALTER QMGR CHCKCLNT(x) alters the AUTHINFO CONNAUTH names and
//! refreshes (ferrite-command's qmgr_commands.rs), and a value stored on the QMGR object (by
//! an older version, or through [`QueueManager::alter_queue_manager`]) still applies, at once,
//! when it is stricter than the AUTHINFO's: [`QueueManager::client_check_in_force`]. It is
//! not migrated at restart, so nothing an older queue manager refused is accepted after an
//! upgrade.
//!
//! ALTER QMGR CONNAUTH refuses a name that is not an AUTHINFO, and DELETE AUTHINFO refuses the
//! object CONNAUTH names (MQRC_OBJECT_IN_USE), so the last row needs a hand-made store.

use ferrite_constants::reason;

use super::objects::{AuthInfoDefinition, ObjectDefinition, ObjectType};
use super::QueueManager;
use crate::error::{StorageError, StorageResult};

/// The configuration connection authentication uses now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConnectionAuthentication {
    /// CONNAUTH at the last refresh (blank: none).
    pub auth_info_name: String,
    /// The AUTHINFO object at the last refresh; `None` when CONNAUTH was blank or named no
    /// object.
    pub definition: Option<AuthInfoDefinition>,
}

/// CHCKCLNT and CHCKLOCL values from the weakest check to the strictest (REQDADM requires
/// a password of privileged users and so sits between OPTIONAL and REQUIRED).
pub const CHECK_VALUES_BY_STRENGTH: [&str; 4] = ["NONE", "OPTIONAL", "REQDADM", "REQUIRED"];

fn check_strength(value: &str) -> usize {
    CHECK_VALUES_BY_STRENGTH
        .iter()
        .position(|known| *known == value)
        // Validated when stored; an unknown value counts as the strictest (fails closed).
        .unwrap_or(CHECK_VALUES_BY_STRENGTH.len() - 1)
}

impl QueueManager {
    /// The CHCKCLNT connection authentication applies now: that of the AUTHINFO in force
    /// (NONE without one), or the QMGR object's own CHCKCLNT when that is stricter (see the
    /// module docs).
    pub fn client_check_in_force(&self) -> String {
        let from_auth_info = self
            .connection_authentication()
            .definition
            .map_or_else(|| "NONE".to_string(), |definition| definition.check_client);
        let legacy = self.queue_manager_attributes().check_client;
        if check_strength(&legacy) > check_strength(&from_auth_info) {
            legacy
        } else {
            from_auth_info
        }
    }

    /// The connection authentication configuration in force (see the module docs).
    pub fn connection_authentication(&self) -> ConnectionAuthentication {
        self.connection_authentication.read().unwrap().clone()
    }

    /// REFRESH SECURITY TYPE(CONNAUTH): put the AUTHINFO object CONNAUTH names now in force.
    /// Fails, changing nothing, when CONNAUTH names no AUTHINFO object.
    pub fn refresh_connection_authentication(&self) -> StorageResult<ConnectionAuthentication> {
        let name = self.queue_manager_attributes().connection_authentication;
        let definition = self.auth_info(&name)?;
        let refreshed = ConnectionAuthentication {
            auth_info_name: name,
            definition,
        };
        *self.connection_authentication.write().unwrap() = refreshed.clone();
        Ok(refreshed)
    }

    /// At restart: as [`Self::refresh_connection_authentication`], but a missing object leaves
    /// checking off with an operator message instead of failing the start.
    pub(super) fn load_connection_authentication(&self) {
        if let Err(error) = self.refresh_connection_authentication() {
            self.say(&format!(
                "{} CONNAUTH cannot be used ({error}); user IDs and passwords are not checked until REFRESH SECURITY TYPE(CONNAUTH) succeeds",
                self.name
            ));
            *self.connection_authentication.write().unwrap() = ConnectionAuthentication {
                auth_info_name: self.queue_manager_attributes().connection_authentication,
                definition: None,
            };
        }
    }

    /// The AUTHINFO called `name` (`None` for a blank name); MQRC_UNKNOWN_OBJECT_NAME when
    /// there is no such object.
    pub fn auth_info(&self, name: &str) -> StorageResult<Option<AuthInfoDefinition>> {
        if name.is_empty() {
            return Ok(None);
        }
        match self.object(ObjectType::AuthInfo, name) {
            Some(ObjectDefinition::AuthInfo(definition)) => Ok(Some(definition)),
            _ => Err(StorageError::mq(
                reason::MQRC_UNKNOWN_OBJECT_NAME,
                format!("CONNAUTH names AUTHINFO({name}), which does not exist"),
            )),
        }
    }
}
