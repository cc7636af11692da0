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
//! The privileged users REQDADM asks for a password (`privileged_users.rs`) are part of the
//! configuration in force: qm.toml's `[security]` and the privileged group's entry in the
//! group database are read at start and again at each refresh. A refresh that cannot read
//! qm.toml, the group database or the AUTHINFO changes nothing and says why.
//!
//! ## CHCKCLNT, CHCKLOCL and REQDADM
//! [`CredentialCheck`] is the value of either. CHCKCLNT is applied to client channels by
//! `ferrite-server`'s authentication.rs; CHCKLOCL to bindings and in-process connections by
//! [`QueueManager::authenticate_local`], which the bindings listener and ferrite-mqi's
//! MQCONN call. REQDADM asks privileged users only (`privileged_users.rs`).
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

use std::sync::Arc;
use std::time::Duration;

use ferrite_constants::reason;

use super::privileged_users::{
    ConnectingUser, GroupDatabase, PrivilegedUsers, SystemGroupDatabase,
};
use crate::objects::{AuthInfoDefinition, ObjectDefinition, ObjectType};
use crate::security::users::{UserRegistry, Verification};
use crate::QueueManager;
use ferrite_storage::error::{StorageError, StorageResult};

/// CHCKCLNT (client channels) and CHCKLOCL (bindings and in-process connections), as MQ
/// documents them for DEFINE AUTHINFO:
///
/// | value      | no user ID and password              | a user ID and password            |
/// |------------|--------------------------------------|-----------------------------------|
/// | `NONE`     | accepted                             | accepted, not checked             |
/// | `OPTIONAL` | accepted                             | must be a valid pair, else 2035   |
/// | `REQDADM`  | refused (2035) for a privileged user | must be a valid pair, else 2035   |
/// | `REQUIRED` | refused, MQRC_NOT_AUTHORIZED 2035    | must be a valid pair, else 2035   |
///
/// Privileged users: `privileged_users.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CredentialCheck {
    /// NONE.
    None,
    /// OPTIONAL.
    Optional,
    /// REQDADM: required of privileged users, OPTIONAL for the others.
    RequiredForPrivileged,
    /// REQUIRED.
    Required,
}

impl CredentialCheck {
    /// From MQSC's keyword, any case (no allocation: read at every MQCONN).
    pub fn from_keyword(keyword: &str) -> Option<CredentialCheck> {
        let keyword = keyword.trim();
        [
            ("NONE", CredentialCheck::None),
            ("OPTIONAL", CredentialCheck::Optional),
            ("REQDADM", CredentialCheck::RequiredForPrivileged),
            ("REQUIRED", CredentialCheck::Required),
        ]
        .into_iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(keyword))
        .map(|(_, check)| check)
    }

    /// MQSC's keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            CredentialCheck::None => "NONE",
            CredentialCheck::Optional => "OPTIONAL",
            CredentialCheck::RequiredForPrivileged => "REQDADM",
            CredentialCheck::Required => "REQUIRED",
        }
    }

    /// Whether a connection that gives no user ID and password is refused; `privileged` is
    /// asked only for REQDADM.
    pub fn requires_credentials(self, privileged: impl FnOnce() -> bool) -> bool {
        match self {
            CredentialCheck::Required => true,
            CredentialCheck::RequiredForPrivileged => privileged(),
            CredentialCheck::None | CredentialCheck::Optional => false,
        }
    }
}

/// What CHCKLOCL decided for a bindings or in-process connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocalAuthentication {
    /// The connection goes ahead.
    Accepted {
        /// The user ID it runs under when a user ID and password were checked and ADOPTCTX
        /// is YES; otherwise `None` (it keeps its own).
        adopted_user: Option<String>,
    },
    /// MQCONN fails with `reason` (MQRC_NOT_AUTHORIZED), answered after `fail_delay`
    /// (FAILDLAY, for a wrong user ID or password only). The log has said why.
    Refused {
        /// MQRC_NOT_AUTHORIZED.
        reason: i32,
        /// How long the answer waits.
        fail_delay: Duration,
    },
}

/// The configuration connection authentication uses now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConnectionAuthentication {
    /// CONNAUTH at the last refresh (blank: none).
    pub auth_info_name: String,
    /// The AUTHINFO object at the last refresh; `None` when CONNAUTH was blank or named no
    /// object.
    pub definition: Option<AuthInfoDefinition>,
    /// The privileged users (qm.toml `[security]` and the group database) at the last refresh.
    pub privileged_users: Arc<PrivilegedUsers>,
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

    /// CHCKLOCL in force: that of the AUTHINFO in force, NONE without one.
    pub fn local_check_in_force(&self) -> CredentialCheck {
        match &self.connection_authentication.read().unwrap().definition {
            // Validated when stored; an unreadable value fails closed.
            Some(definition) => CredentialCheck::from_keyword(&definition.check_local)
                .unwrap_or(CredentialCheck::Required),
            None => CredentialCheck::None,
        }
    }

    /// Whether `user` is a privileged user in the set in force (qm.toml `[security]` and the
    /// group database at the last restart or refresh, `privileged_users.rs`).
    pub fn is_privileged(&self, user: &ConnectingUser) -> bool {
        let set = self
            .connection_authentication
            .read()
            .unwrap()
            .privileged_users
            .clone();
        set.contains(user)
    }

    /// CHCKLOCL for a bindings connection (`how` = "bindings") or an in-process one
    /// ("in-process"): `user` is who connects, `credentials` the user ID and password of its
    /// MQCSP. Checks them against the user registry as CHCKCLNT does, and logs a refusal
    /// with AMQ5534E and AMQ5541E. Sleeps nothing: the caller applies `fail_delay`.
    pub fn authenticate_local(
        &self,
        how: &str,
        user: &ConnectingUser,
        credentials: Option<(&str, &[u8])>,
    ) -> LocalAuthentication {
        let check = self.local_check_in_force();
        let credentials = match credentials {
            Some((name, _)) if name.trim().is_empty() => None,
            other => other,
        };
        let (name, password) = match (check, credentials) {
            (CredentialCheck::None, _) => {
                return LocalAuthentication::Accepted { adopted_user: None }
            }
            (check, None) => {
                if !check.requires_credentials(|| self.is_privileged(user)) {
                    return LocalAuthentication::Accepted { adopted_user: None };
                }
                let why = if check == CredentialCheck::Required {
                    "every local application must give them".to_string()
                } else {
                    "it is a privileged user (qm.toml [security])".to_string()
                };
                return self.refuse_local(
                    how,
                    user,
                    check,
                    format!(
                        "gave no user ID and password (an MQCSP in MQCNO's SecurityParms) and {why}"
                    ),
                    Duration::ZERO,
                );
            }
            (_, Some(credentials)) => credentials,
        };
        let (adopt_context, fail_delay) =
            match &self.connection_authentication.read().unwrap().definition {
                Some(definition) => (
                    definition.adopt_context,
                    Duration::from_secs(definition.fail_delay_seconds.into()),
                ),
                None => (true, Duration::ZERO),
            };
        let name = name.trim();
        let failure = match UserRegistry::new(self.directory()).verify(name, password) {
            Ok(Verification::Valid) => {
                return LocalAuthentication::Accepted {
                    adopted_user: adopt_context.then(|| name.to_string()),
                }
            }
            Ok(Verification::WrongPassword) => "wrong password".to_string(),
            Ok(Verification::UnknownUser) => {
                "no such user in the queue manager's registry (add it with `ferrite user add`)"
                    .to_string()
            }
            Err(error) => error.to_string(),
        };
        self.refuse_local(
            how,
            user,
            check,
            format!("gave user ID '{name}', whose authentication failed: {failure}"),
            fail_delay,
        )
    }

    fn refuse_local(
        &self,
        how: &str,
        user: &ConnectingUser,
        check: CredentialCheck,
        why: String,
        fail_delay: Duration,
    ) -> LocalAuthentication {
        let auth_info = self
            .connection_authentication
            .read()
            .unwrap()
            .auth_info_name
            .clone();
        self.say(&format!(
            "AMQ5534E {} {how} connection of user {}: {why}",
            self.name(),
            user.describe()
        ));
        self.say(&format!(
            "AMQ5541E {} {how} connection of user {}: the failed authentication check was caused by CHCKLOCL({}) of AUTHINFO({auth_info})",
            self.name(),
            user.describe(),
            check.keyword()
        ));
        LocalAuthentication::Refused {
            reason: reason::MQRC_NOT_AUTHORIZED,
            fail_delay,
        }
    }

    /// The connection authentication configuration in force (see the module docs).
    pub fn connection_authentication(&self) -> ConnectionAuthentication {
        self.connection_authentication.read().unwrap().clone()
    }

    /// REFRESH SECURITY TYPE(CONNAUTH): put in force the AUTHINFO object CONNAUTH names now
    /// and the privileged users qm.toml's `[security]` and the system's group database name
    /// now. Fails, changing nothing, when CONNAUTH names no AUTHINFO object or qm.toml or the
    /// group database cannot be read.
    pub fn refresh_connection_authentication(&self) -> StorageResult<ConnectionAuthentication> {
        self.refresh_connection_authentication_with(&SystemGroupDatabase)
    }

    /// [`Self::refresh_connection_authentication`] with the group entry read from `groups`
    /// (the system's, or a test's that fails).
    pub fn refresh_connection_authentication_with(
        &self,
        groups: &dyn GroupDatabase,
    ) -> StorageResult<ConnectionAuthentication> {
        let name = self.queue_manager_attributes().connection_authentication;
        let definition = self.auth_info(&name)?;
        let security = QueueManager::read_config(self.fs.as_ref(), self.directory())?.security;
        let privileged_users = PrivilegedUsers::read(&security, groups).map_err(|detail| {
            StorageError::invalid(format!(
                "{detail}; the privileged users and CONNAUTH in force are unchanged ({})",
                self.connection_authentication
                    .read()
                    .unwrap()
                    .privileged_users
                    .describe()
            ))
        })?;
        let refreshed = ConnectionAuthentication {
            auth_info_name: name,
            definition,
            privileged_users: Arc::new(privileged_users),
        };
        *self.connection_authentication.write().unwrap() = refreshed.clone();
        // qm.toml's writer (DEFINE BUFFPOOL, PSID, ...) keeps the `[security]` just read.
        self.configuration.lock().unwrap().security = security;
        Ok(refreshed)
    }

    /// At restart: the AUTHINFO as [`Self::refresh_connection_authentication`] reads it, but a
    /// missing object leaves checking off with an operator message instead of failing the
    /// start; the privileged users from the `[security]` read at start, without the group
    /// (and with an operator message) when the group database cannot be read.
    pub(crate) fn load_connection_authentication(&self) {
        let security = &self.config().security;
        let privileged_users = PrivilegedUsers::read(security, &SystemGroupDatabase)
            .unwrap_or_else(|detail| {
                self.say(&format!(
                    "{} {detail}; no user is privileged through the group until REFRESH SECURITY TYPE(CONNAUTH) succeeds",
                    self.name()
                ));
                PrivilegedUsers {
                    parameters: security.clone(),
                    group: None,
                }
            });
        let name = self.queue_manager_attributes().connection_authentication;
        let definition = self.auth_info(&name).unwrap_or_else(|error| {
            self.say(&format!(
                "{} CONNAUTH cannot be used ({error}); user IDs and passwords are not checked until REFRESH SECURITY TYPE(CONNAUTH) succeeds",
                self.name()
            ));
            None
        });
        *self.connection_authentication.write().unwrap() = ConnectionAuthentication {
            auth_info_name: name,
            definition,
            privileged_users: Arc::new(privileged_users),
        };
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
