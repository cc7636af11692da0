//! The REST API's roles (mqweb's MQWebAdmin, MQWebAdminRO and MQWebUser) and the file that
//! gives them to the queue manager's users.
//!
//! | role | may | commands run as |
//! |---|---|---|
//! | MQWebAdmin | every administrative request | the queue manager's own user |
//! | MQWebAdminRO | GET requests and DISPLAY commands | the queue manager's own user |
//! | MQWebUser | every administrative request, the messaging API | the user, checked by its authority records |
//!
//! A user in MQWebAdmin and MQWebUser administers as MQWebAdmin; the messaging API always runs
//! as the user itself and needs MQWebUser, as on IBM MQ.
//!
//! ## File format (`<queue manager directory>/web-roles`, mode 0600)
//! UTF-8 text, one line each, users sorted by name:
//! ```text
//! FERRITE-WEB-ROLES 1
//! <user> <role>[,<role>...]
//! ```
//! A change writes `web-roles.new`, syncs it and renames it over `web-roles`, so a reader (the
//! running queue manager reads it at each request) sees the old or the new file.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The file's name inside the queue manager's directory.
pub const ROLES_FILE_NAME: &str = "web-roles";
/// The first line of the file.
pub const ROLES_FILE_MAGIC: &str = "FERRITE-WEB-ROLES";
/// The format version this code writes and reads.
pub const ROLES_FILE_VERSION: u32 = 1;
/// Most users the file holds (the user registry's limit).
pub const ROLE_USERS_MAX: usize = 10_000;

/// One of mqweb's roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    MqWebAdmin,
    MqWebAdminRo,
    MqWebUser,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::MqWebAdmin, Role::MqWebAdminRo, Role::MqWebUser];

    /// MQ's name of the role.
    pub fn name(self) -> &'static str {
        match self {
            Role::MqWebAdmin => "MQWebAdmin",
            Role::MqWebAdminRo => "MQWebAdminRO",
            Role::MqWebUser => "MQWebUser",
        }
    }

    /// The role named `name` (MQ's spelling, any case).
    pub fn parse(name: &str) -> Result<Role, String> {
        Role::ALL
            .into_iter()
            .find(|role| role.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!("'{name}' is not a role of the REST API (MQWebAdmin, MQWebAdminRO or MQWebUser)")
            })
    }
}

/// The roles of one queue manager's users.
#[derive(Clone, Debug)]
pub struct RoleRegistry {
    directory: PathBuf,
}

impl RoleRegistry {
    /// The roles kept in the queue manager directory `directory`.
    pub fn new(directory: &Path) -> RoleRegistry {
        RoleRegistry {
            directory: directory.to_path_buf(),
        }
    }

    pub fn path(&self) -> PathBuf {
        self.directory.join(ROLES_FILE_NAME)
    }

    /// The roles of `user` (none for a user the file does not name).
    pub fn roles(&self, user: &str) -> Result<Vec<Role>, String> {
        Ok(self
            .read()?
            .into_iter()
            .find(|(name, _)| name == user)
            .map(|(_, roles)| roles)
            .unwrap_or_default())
    }

    /// Every user with roles, sorted by name.
    pub fn list(&self) -> Result<Vec<(String, Vec<Role>)>, String> {
        self.read()
    }

    /// Gives `user` exactly `roles` (none removes the user from the file).
    pub fn set(&self, user: &str, roles: &[Role]) -> Result<(), String> {
        let mut entries = self.read()?;
        entries.retain(|(name, _)| name != user);
        if !roles.is_empty() {
            if entries.len() >= ROLE_USERS_MAX {
                return Err(format!(
                    "{} names {ROLE_USERS_MAX} users already",
                    self.path().display()
                ));
            }
            let mut roles = roles.to_vec();
            roles.sort();
            roles.dedup();
            entries.push((user.to_string(), roles));
            entries.sort_by(|a, b| a.0.cmp(&b.0));
        }
        self.write(&entries)
    }

    fn read(&self) -> Result<Vec<(String, Vec<Role>)>, String> {
        let path = self.path();
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
        };
        parse(&text).map_err(|what| {
            format!(
                "{} is damaged: {what}; correct it, or delete it and give the roles again with `ferrite user add --role`",
                path.display()
            )
        })
    }

    fn write(&self, entries: &[(String, Vec<Role>)]) -> Result<(), String> {
        let mut text = format!("{ROLES_FILE_MAGIC} {ROLES_FILE_VERSION}\n");
        for (user, roles) in entries {
            let names: Vec<&str> = roles.iter().map(|role| role.name()).collect();
            text.push_str(&format!("{user} {}\n", names.join(",")));
        }
        let path = self.path();
        let new_path = self.directory.join(format!("{ROLES_FILE_NAME}.new"));
        let failed = |error: std::io::Error| format!("cannot write {}: {error}", path.display());
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&new_path)
            .map_err(failed)?;
        file.write_all(text.as_bytes()).map_err(failed)?;
        file.sync_all().map_err(failed)?;
        fs::rename(&new_path, &path).map_err(failed)?;
        fs::File::open(&self.directory)
            .and_then(|directory| directory.sync_all())
            .map_err(failed)
    }
}

fn parse(text: &str) -> Result<Vec<(String, Vec<Role>)>, String> {
    let mut lines = text.lines();
    let header = format!("{ROLES_FILE_MAGIC} {ROLES_FILE_VERSION}");
    if lines.next() != Some(header.as_str()) {
        return Err(format!("its first line is not '{header}'"));
    }
    let mut entries = Vec::new();
    for (number, line) in lines.enumerate() {
        let (user, roles) = line
            .split_once(' ')
            .ok_or_else(|| format!("line {} is not '<user> <roles>'", number + 2))?;
        let roles = roles
            .split(',')
            .map(Role::parse)
            .collect::<Result<Vec<Role>, String>>()?;
        entries.push((user.to_string(), roles));
    }
    if entries.len() > ROLE_USERS_MAX {
        return Err(format!("it names more than {ROLE_USERS_MAX} users"));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_are_set_replaced_and_removed() {
        let directory = tempfile::tempdir().unwrap();
        let registry = RoleRegistry::new(directory.path());
        assert!(registry.roles("alice").unwrap().is_empty());
        registry
            .set(
                "alice",
                &[Role::MqWebUser, Role::MqWebAdmin, Role::MqWebUser],
            )
            .unwrap();
        registry.set("bob", &[Role::MqWebAdminRo]).unwrap();
        assert_eq!(
            registry.roles("alice").unwrap(),
            vec![Role::MqWebAdmin, Role::MqWebUser]
        );
        let text = fs::read_to_string(registry.path()).unwrap();
        assert_eq!(
            text,
            "FERRITE-WEB-ROLES 1\nalice MQWebAdmin,MQWebUser\nbob MQWebAdminRO\n"
        );
        registry.set("alice", &[]).unwrap();
        assert!(registry.roles("alice").unwrap().is_empty());
        assert_eq!(registry.list().unwrap().len(), 1);
    }

    #[test]
    fn a_damaged_file_and_an_unknown_role_are_refused() {
        let directory = tempfile::tempdir().unwrap();
        let registry = RoleRegistry::new(directory.path());
        fs::write(registry.path(), "FERRITE-WEB-ROLES 1\nalice MQWebGod\n").unwrap();
        let error = registry.roles("alice").unwrap_err();
        assert!(
            error.contains("is damaged") && error.contains("MQWebGod"),
            "{error}"
        );
        assert_eq!(Role::parse("mqwebadminro").unwrap(), Role::MqWebAdminRo);
        assert!(Role::parse("admin").is_err());
    }
}
