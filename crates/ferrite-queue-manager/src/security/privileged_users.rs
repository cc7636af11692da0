//! Privileged users, as IBM MQ on Linux defines them ("Privileged users": members of the
//! `mqm` group; and, while the queue manager runs, the user who started it), for the REQDADM
//! value of CHCKCLNT and CHCKLOCL: a privileged user must give a valid user ID and password,
//! anyone else is checked as with OPTIONAL.
//!
//! qm.toml's `[security]` (config.rs `SecurityParameters`) sets the group
//! (`privileged_group`, default `mqm`; blank for none), further user names
//! (`privileged_users`), and whether the user the queue manager runs as counts
//! (`owner_privileged`, default true, as in MQ).
//!
//! ## When they are read
//! [`PrivilegedUsers`] is the set in force: `[security]` and the group's entry in the group
//! database (its ID and member list), read at start and again by REFRESH SECURITY
//! (`connection_authentication.rs`), so a user added to the list or to the group is
//! privileged after a refresh, without a restart. A refresh that cannot read qm.toml or the
//! group database changes nothing: the previous set stays in force and the command says why.
//! A group the database does not have is not an error (no member is privileged through it):
//! MQ's `mqm` group need not exist on a Ferrite machine.
//!
//! ## Who is connecting
//! - A bindings connection (the Unix socket): the peer process's user and group IDs from the
//!   kernel (`SO_PEERCRED`), which the peer cannot forge; its name and supplementary groups
//!   from the system's user database.
//! - An in-process connection: this process's effective user and group.
//! - A client channel: only the user ID the client asserts (USERID_DATA), looked up by name in
//!   the system's user database; a name the system does not know is privileged only if
//!   `privileged_users` names it.
//!
//! A user is privileged when any of these holds: its user ID is the queue manager's (and
//! `owner_privileged`), its name is in `privileged_users`, or it is a member (primary or
//! supplementary) of `privileged_group`: the group's entry (ID and member list) is read at
//! start and refresh; a user it does not list is looked up at connect time with
//! getgrouplist (the system's initgroups, through NSS), which also finds groups a directory
//! service (LDAP, AD) assigns, nested groups included, that the entry's list never shows.

use std::ffi::{CStr, CString};

use ferrite_storage::config::SecurityParameters;

/// Room for one user or group database entry's strings (getpwnam_r and friends).
const DATABASE_ENTRY_BYTES: usize = 16 * 1024;
/// Largest group entry read (a group with thousands of members): 1 MiB.
const GROUP_ENTRY_BYTES_MAX: usize = 1024 * 1024;
/// Most members of the privileged group considered.
const GROUP_MEMBERS_MAX: usize = 65_536;
/// Most groups of one user considered (getgrouplist).
const USER_GROUPS_MAX: usize = 1024;

/// Who is connecting (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConnectingUser {
    /// The user name (asserted, or looked up from `uid`); may be empty.
    pub name: String,
    /// The operating-system user ID, when the kernel told it.
    pub uid: Option<u32>,
    /// The operating-system primary group ID, when the kernel told it.
    pub gid: Option<u32>,
}

impl ConnectingUser {
    /// A user known only by the name it asserts (client channels).
    pub fn asserted(name: &str) -> ConnectingUser {
        ConnectingUser {
            name: name.trim().to_string(),
            uid: None,
            gid: None,
        }
    }

    /// A user whose IDs the kernel reported (bindings socket), named from the user database.
    pub fn from_ids(uid: u32, gid: u32) -> ConnectingUser {
        ConnectingUser {
            name: user_name(uid).unwrap_or_default(),
            uid: Some(uid),
            gid: Some(gid),
        }
    }

    /// This process (in-process connections).
    pub fn this_process() -> ConnectingUser {
        // SAFETY: geteuid and getegid cannot fail.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        ConnectingUser::from_ids(uid, gid)
    }

    /// How the log names this user.
    pub fn describe(&self) -> String {
        match self.uid {
            Some(uid) => format!("'{}' (uid {uid})", self.name),
            None => format!("'{}'", self.name),
        }
    }
}

/// One group's entry in the group database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupEntry {
    /// The group ID.
    pub gid: u32,
    /// The user names listed as its (supplementary) members.
    pub members: Vec<String>,
}

/// Where the group's entry is read: the system's group database, or a test's.
pub trait GroupDatabase {
    /// The entry of the group called `name`; `Ok(None)` when there is none; `Err` (with the
    /// system's error) when the database cannot be read.
    fn group(&self, name: &str) -> Result<Option<GroupEntry>, String>;

    /// Every group ID of the user called `name` whose primary group is `primary`, as the
    /// system's initgroups sees them (getgrouplist: NSS, so LDAP or AD groups and nested
    /// groups a directory resolves, which a group entry's member list need not show).
    fn user_groups(&self, name: &str, primary: u32) -> Vec<u32> {
        user_groups(name, primary)
    }

    /// The names of every group of the user called `name` (its primary group and those
    /// getgrouplist finds); empty for a user the system does not know.
    fn user_group_names(&self, name: &str) -> Vec<String> {
        let Some((_, primary)) = user_ids(name) else {
            return Vec::new();
        };
        let mut names: Vec<String> = self
            .user_groups(name, primary)
            .into_iter()
            .filter_map(group_name)
            .collect();
        names.sort();
        names.dedup();
        names
    }
}

/// The system's group database (getgrnam_r: /etc/group, or whatever NSS is configured).
pub struct SystemGroupDatabase;

impl GroupDatabase for SystemGroupDatabase {
    fn group(&self, name: &str) -> Result<Option<GroupEntry>, String> {
        group_entry(name)
    }
}

/// The privileged users in force (see the module docs): `[security]` and the privileged
/// group's entry as read at start or at the last REFRESH SECURITY.
#[derive(Clone, Debug, PartialEq)]
pub struct PrivilegedUsers {
    /// qm.toml's `[security]` when read.
    pub parameters: SecurityParameters,
    /// `privileged_group`'s entry; `None` when blank or the database has no such group.
    pub group: Option<GroupEntry>,
}

impl Default for PrivilegedUsers {
    /// Nobody is privileged (before the first read).
    fn default() -> PrivilegedUsers {
        PrivilegedUsers {
            parameters: SecurityParameters {
                privileged_group: String::new(),
                privileged_users: Vec::new(),
                owner_privileged: false,
            },
            group: None,
        }
    }
}

impl PrivilegedUsers {
    /// Read the set `parameters` describe, the group's entry from `groups`. Fails, naming
    /// the group, when the group database cannot be read.
    pub fn read(
        parameters: &SecurityParameters,
        groups: &dyn GroupDatabase,
    ) -> Result<PrivilegedUsers, String> {
        let name = parameters.privileged_group.trim();
        let group = if name.is_empty() {
            None
        } else {
            groups.group(name).map_err(|error| {
                format!(
                    "the group database could not be read for privileged_group \"{name}\": {error}"
                )
            })?
        };
        Ok(PrivilegedUsers {
            parameters: parameters.clone(),
            group,
        })
    }

    /// Whether `user` is privileged (see the module docs); group membership as the system's
    /// group database has it.
    pub fn contains(&self, user: &ConnectingUser) -> bool {
        self.contains_in(user, &SystemGroupDatabase)
    }

    /// [`Self::contains`], the user's groups listed by `groups`: the group's entry (its ID
    /// and member list, as read) decides first, then every group of the user
    /// ([`GroupDatabase::user_groups`]), which finds members the entry does not list.
    pub fn contains_in(&self, user: &ConnectingUser, groups: &dyn GroupDatabase) -> bool {
        let parameters = &self.parameters;
        let looked_up = match user.uid {
            Some(uid) => Some((uid, user.gid.unwrap_or(u32::MAX))),
            None if !user.name.is_empty() => user_ids(&user.name),
            None => None,
        };
        if parameters.owner_privileged {
            // SAFETY: geteuid cannot fail.
            let owner = unsafe { libc::geteuid() };
            if looked_up.is_some_and(|(uid, _)| uid == owner) {
                return true;
            }
        }
        if !user.name.is_empty()
            && parameters
                .privileged_users
                .iter()
                .any(|name| name.trim() == user.name)
        {
            return true;
        }
        let Some(group) = &self.group else {
            return false;
        };
        if user.gid == Some(group.gid)
            || looked_up.is_some_and(|(_, primary)| primary == group.gid)
            || (!user.name.is_empty() && group.members.contains(&user.name))
        {
            return true;
        }
        let primary = user.gid.or(looked_up.map(|(_, primary)| primary));
        match primary {
            Some(primary) if !user.name.is_empty() => {
                groups.user_groups(&user.name, primary).contains(&group.gid)
            }
            _ => false,
        }
    }

    /// The set in one line, for REFRESH SECURITY's answer and the log.
    pub fn describe(&self) -> String {
        let parameters = &self.parameters;
        let mut parts = Vec::new();
        if parameters.owner_privileged {
            parts.push("the queue manager's owner".to_string());
        }
        let group_name = parameters.privileged_group.trim();
        match &self.group {
            Some(group) => parts.push(format!(
                "group {group_name} (gid {}, {} listed members)",
                group.gid,
                group.members.len()
            )),
            None if !group_name.is_empty() => {
                parts.push(format!("group {group_name} (not in the group database)"))
            }
            None => {}
        }
        let users: Vec<&str> = parameters
            .privileged_users
            .iter()
            .map(|name| name.trim())
            .collect();
        if !users.is_empty() {
            parts.push(format!("users {}", users.join(", ")));
        }
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join("; ")
        }
    }
}

/// Runs a reentrant user or group database lookup with a buffer of
/// [`DATABASE_ENTRY_BYTES`]; `None` when there is no entry or the lookup fails.
fn lookup<T>(call: impl FnOnce(&mut [libc::c_char]) -> Option<T>) -> Option<T> {
    let mut buffer = vec![0 as libc::c_char; DATABASE_ENTRY_BYTES];
    call(&mut buffer)
}

/// (uid, primary gid) of the user called `name`.
fn user_ids(name: &str) -> Option<(u32, u32)> {
    let name = CString::new(name).ok()?;
    lookup(|buffer| {
        // SAFETY: zeroed passwd is a valid out-parameter; every pointer is valid for the call.
        let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        let status = unsafe {
            libc::getpwnam_r(
                name.as_ptr(),
                &mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &mut found,
            )
        };
        (status == 0 && !found.is_null()).then_some((entry.pw_uid, entry.pw_gid))
    })
}

/// The name of user `uid`.
fn user_name(uid: u32) -> Option<String> {
    lookup(|buffer| {
        // SAFETY: as in `user_ids`; pw_name points into `buffer` while it lives.
        let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        let status = unsafe {
            libc::getpwuid_r(
                uid,
                &mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &mut found,
            )
        };
        (status == 0 && !found.is_null() && !entry.pw_name.is_null()).then(|| {
            // SAFETY: a NUL-terminated string inside `buffer`.
            unsafe { CStr::from_ptr(entry.pw_name) }
                .to_string_lossy()
                .into_owned()
        })
    })
}

/// The name of group `gid`.
fn group_name(gid: u32) -> Option<String> {
    lookup(|buffer| {
        // SAFETY: as in `user_ids`; gr_name points into `buffer` while it lives.
        let mut entry: libc::group = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::group = std::ptr::null_mut();
        let status = unsafe {
            libc::getgrgid_r(
                gid,
                &mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &mut found,
            )
        };
        (status == 0 && !found.is_null() && !entry.gr_name.is_null()).then(|| {
            // SAFETY: a NUL-terminated string inside `buffer`.
            unsafe { CStr::from_ptr(entry.gr_name) }
                .to_string_lossy()
                .into_owned()
        })
    })
}

/// The entry of the group called `name`: `Ok(None)` when the database has none, `Err` when
/// the lookup fails (an unreachable directory service, an entry larger than
/// [`GROUP_ENTRY_BYTES_MAX`]).
fn group_entry(name: &str) -> Result<Option<GroupEntry>, String> {
    let Ok(c_name) = CString::new(name) else {
        return Ok(None);
    };
    let mut size = DATABASE_ENTRY_BYTES;
    loop {
        let mut buffer = vec![0 as libc::c_char; size];
        // SAFETY: as in `user_ids`; gr_mem and its strings point into `buffer`.
        let mut entry: libc::group = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::group = std::ptr::null_mut();
        let status = unsafe {
            libc::getgrnam_r(
                c_name.as_ptr(),
                &mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &mut found,
            )
        };
        if status == libc::ERANGE && size < GROUP_ENTRY_BYTES_MAX {
            size *= 4;
            continue;
        }
        if status != 0 {
            return Err(std::io::Error::from_raw_os_error(status).to_string());
        }
        if found.is_null() {
            return Ok(None);
        }
        let mut members = Vec::new();
        if !entry.gr_mem.is_null() {
            for index in 0..GROUP_MEMBERS_MAX {
                // SAFETY: gr_mem is a NULL-terminated array of NUL-terminated strings.
                let member = unsafe { *entry.gr_mem.add(index) };
                if member.is_null() {
                    break;
                }
                members.push(
                    unsafe { CStr::from_ptr(member) }
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
        return Ok(Some(GroupEntry {
            gid: entry.gr_gid,
            members,
        }));
    }
}

/// Every group of the user called `name` whose primary group is `primary` (getgrouplist),
/// at most [`USER_GROUPS_MAX`]; empty when the name cannot be passed to C.
fn user_groups(name: &str, primary: u32) -> Vec<u32> {
    let Ok(name) = CString::new(name) else {
        return Vec::new();
    };
    let mut groups = vec![0 as libc::gid_t; USER_GROUPS_MAX];
    let mut count = groups.len() as libc::c_int;
    // SAFETY: `groups` has room for `count` entries; getgrouplist writes at most that many
    // and sets `count` to the number found.
    let status =
        unsafe { libc::getgrouplist(name.as_ptr(), primary, groups.as_mut_ptr(), &mut count) };
    if status < 0 {
        // More groups than USER_GROUPS_MAX: the first ones are filled in.
        count = groups.len() as libc::c_int;
    }
    groups.truncate(count.clamp(0, USER_GROUPS_MAX as libc::c_int) as usize);
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `user` is privileged under `parameters`, the group from the system's database.
    fn is_privileged(parameters: &SecurityParameters, user: &ConnectingUser) -> bool {
        PrivilegedUsers::read(parameters, &SystemGroupDatabase)
            .unwrap()
            .contains(user)
    }

    /// A group database with one group, or one that cannot be read; no user has groups
    /// beyond the entry's member list.
    struct TestGroups(Result<Option<GroupEntry>, String>);

    impl GroupDatabase for TestGroups {
        fn group(&self, _name: &str) -> Result<Option<GroupEntry>, String> {
            self.0.clone()
        }

        fn user_groups(&self, _name: &str, primary: u32) -> Vec<u32> {
            vec![primary]
        }
    }

    /// A directory (LDAP, AD) that puts one user in the group without listing it in the
    /// group's entry: initgroups finds it, the entry's member list does not.
    struct DirectoryGroups {
        entry: GroupEntry,
        user: &'static str,
    }

    impl GroupDatabase for DirectoryGroups {
        fn group(&self, _name: &str) -> Result<Option<GroupEntry>, String> {
            Ok(Some(self.entry.clone()))
        }

        fn user_groups(&self, name: &str, primary: u32) -> Vec<u32> {
            if name == self.user {
                vec![primary, self.entry.gid]
            } else {
                vec![primary]
            }
        }
    }

    #[test]
    fn a_member_only_the_directory_knows_is_privileged() {
        let directory = DirectoryGroups {
            entry: GroupEntry {
                gid: 4_000_000_000,
                members: Vec::new(),
            },
            user: "ldapuser",
        };
        let set = PrivilegedUsers::read(&parameters("mqm", &[], false), &directory).unwrap();
        let ids = |name: &str| ConnectingUser {
            name: name.to_string(),
            uid: Some(4_000_000_002),
            gid: Some(4_000_000_003),
        };
        assert!(set.contains_in(&ids("ldapuser"), &directory));
        assert!(!set.contains_in(&ids("someone-else"), &directory));
        // Without a primary group to start from (a name the system does not know), no lookup.
        assert!(!set.contains_in(&ConnectingUser::asserted("ldapuser"), &directory));
    }

    #[test]
    fn the_system_lists_this_process_in_its_supplementary_groups() {
        let me = ConnectingUser::this_process();
        if me.name.is_empty() {
            return; // no user database entry: nothing to look up by name
        }
        let primary = me.gid.unwrap();
        let groups = user_groups(&me.name, primary);
        assert!(groups.contains(&primary), "{groups:?}");
        // Each supplementary group makes the user privileged through it, listed or not.
        for gid in groups {
            let set = PrivilegedUsers {
                parameters: parameters("any", &[], false),
                group: Some(GroupEntry {
                    gid,
                    members: Vec::new(),
                }),
            };
            let asserted = ConnectingUser::asserted(&me.name);
            assert!(set.contains(&asserted), "gid {gid}");
        }
    }

    fn parameters(group: &str, users: &[&str], owner: bool) -> SecurityParameters {
        SecurityParameters {
            privileged_group: group.to_string(),
            privileged_users: users.iter().map(|user| user.to_string()).collect(),
            owner_privileged: owner,
        }
    }

    #[test]
    fn the_owner_the_group_and_the_listed_users_are_privileged() {
        let me = ConnectingUser::this_process();
        assert!(is_privileged(&parameters("", &[], true), &me));
        assert!(!is_privileged(
            &parameters("no-such-group-here", &[], false),
            &me
        ));
        // By name alone (a client's asserted user ID), when the system knows the name.
        if !me.name.is_empty() {
            let asserted = ConnectingUser::asserted(&me.name);
            assert!(is_privileged(&parameters("", &[], true), &asserted));
            assert!(!is_privileged(&parameters("", &[], false), &asserted));
            // The user's own primary group, named as the privileged group.
            let primary_group = lookup(|buffer| {
                let mut entry: libc::group = unsafe { std::mem::zeroed() };
                let mut found: *mut libc::group = std::ptr::null_mut();
                let status = unsafe {
                    libc::getgrgid_r(
                        me.gid.unwrap(),
                        &mut entry,
                        buffer.as_mut_ptr(),
                        buffer.len(),
                        &mut found,
                    )
                };
                (status == 0 && !found.is_null()).then(|| {
                    unsafe { CStr::from_ptr(entry.gr_name) }
                        .to_string_lossy()
                        .into_owned()
                })
            });
            if let Some(group) = primary_group {
                assert!(is_privileged(&parameters(&group, &[], false), &me));
                assert!(is_privileged(&parameters(&group, &[], false), &asserted));
            }
        }
        let stranger = ConnectingUser::asserted("no-such-user-on-this-system");
        assert!(!is_privileged(&parameters("mqm", &[], true), &stranger));
        assert!(is_privileged(
            &parameters("mqm", &["no-such-user-on-this-system"], false),
            &stranger
        ));
        assert!(!is_privileged(
            &parameters("mqm", &[], true),
            &ConnectingUser::default()
        ));
    }

    #[test]
    fn the_group_is_its_entry_as_read() {
        let member = ConnectingUser::asserted("no-such-user-but-listed");
        let groups = TestGroups(Ok(Some(GroupEntry {
            gid: 4_000_000_000,
            members: vec!["no-such-user-but-listed".to_string()],
        })));
        let set = PrivilegedUsers::read(&parameters("mqm", &[], false), &groups).unwrap();
        assert!(set.contains(&member));
        assert!(!set.contains(&ConnectingUser::asserted("someone-else-unknown")));
        // The primary group, as the kernel reports it for a bindings connection.
        let primary = ConnectingUser {
            name: String::new(),
            uid: Some(4_000_000_001),
            gid: Some(4_000_000_000),
        };
        assert!(set.contains(&primary));
        assert!(set
            .describe()
            .contains("group mqm (gid 4000000000, 1 listed members)"));
        // No such group: nobody through it, and no error.
        let set =
            PrivilegedUsers::read(&parameters("mqm", &[], false), &TestGroups(Ok(None))).unwrap();
        assert!(!set.contains(&member));
        assert!(set.describe().contains("not in the group database"));
    }

    #[test]
    fn an_unreadable_group_database_is_an_error_naming_the_group() {
        let error = PrivilegedUsers::read(
            &parameters("mqm", &[], true),
            &TestGroups(Err("Connection refused (os error 111)".to_string())),
        )
        .unwrap_err();
        assert!(error.contains("privileged_group \"mqm\""), "{error}");
        assert!(error.contains("Connection refused"), "{error}");
        // A blank group reads nothing.
        assert!(PrivilegedUsers::read(
            &parameters("", &[], true),
            &TestGroups(Err("unused".to_string()))
        )
        .is_ok());
    }
}
