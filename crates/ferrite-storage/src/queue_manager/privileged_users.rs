//! Privileged users, as IBM MQ on Linux defines them ("Privileged users": members of the
//! `mqm` group; and, while the queue manager runs, the user who started it), for the REQDADM
//! value of CHCKCLNT and CHCKLOCL: a privileged user must give a valid user ID and password,
//! anyone else is checked as with OPTIONAL.
//!
//! qm.toml's `[security]` (config.rs `SecurityParameters`, read at start) sets the group
//! (`privileged_group`, default `mqm`; blank for none), further user names
//! (`privileged_users`), and whether the user the queue manager runs as counts
//! (`owner_privileged`, default true, as in MQ).
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
//! supplementary) of `privileged_group`.

use std::ffi::{CStr, CString};

use crate::config::SecurityParameters;

/// Room for one user or group database entry's strings (getpwnam_r and friends).
const DATABASE_ENTRY_BYTES: usize = 16 * 1024;
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

/// Whether `user` is privileged under `parameters` (see the module docs).
pub fn is_privileged(parameters: &SecurityParameters, user: &ConnectingUser) -> bool {
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
    let group = parameters.privileged_group.trim();
    if group.is_empty() {
        return false;
    }
    let Some(group_id) = group_id(group) else {
        return false;
    };
    if user.gid == Some(group_id) {
        return true;
    }
    match looked_up {
        Some((_, primary)) if !user.name.is_empty() => {
            primary == group_id || user_groups(&user.name, primary).contains(&group_id)
        }
        Some((_, primary)) => primary == group_id,
        None => false,
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

/// The ID of the group called `name`.
fn group_id(name: &str) -> Option<u32> {
    let name = CString::new(name).ok()?;
    lookup(|buffer| {
        // SAFETY: as in `user_ids`.
        let mut entry: libc::group = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::group = std::ptr::null_mut();
        let status = unsafe {
            libc::getgrnam_r(
                name.as_ptr(),
                &mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &mut found,
            )
        };
        (status == 0 && !found.is_null()).then_some(entry.gr_gid)
    })
}

/// Every group of the user called `name` whose primary group is `primary`.
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
    groups.truncate(count.max(0) as usize);
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
