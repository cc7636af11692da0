//! The queue manager's user registry: the user IDs and passwords that connection
//! authentication (CHCKCLNT, MQ's CONNAUTH with an IDPWOS-like check) accepts from clients.
//!
//! MQ checks client passwords against the operating system (IDPWOS) or LDAP (IDPWLDAP);
//! Ferrite keeps its own registry in the queue manager's directory, managed with
//! `ferrite user add|delete|list QM NAME`, so a queue manager's users travel with it and no
//! system account is needed. Passwords are never stored: each user has a random salt and a
//! slow, salted hash (PBKDF2-HMAC-SHA512, [`PASSWORD_HASH_ITERATIONS`] iterations), checked in
//! constant time. An unknown user costs the same hash as a known one, so timing does not tell
//! which user IDs exist.
//!
//! ## File format (`<queue manager directory>/users`, mode 0600)
//! UTF-8 text, one line each:
//! ```text
//! FERRITE-USERS 1
//! <user> pbkdf2-sha512 <iterations> <salt, 32 hex digits> <hash, 128 hex digits>
//! ```
//! Users are sorted by name. A change writes `users.new`, syncs it, renames it over `users`
//! and syncs the directory, under an exclusive lock on `users.lock`, so a reader (the running
//! queue manager, which reads the file at each authentication) sees the old or the new file,
//! never a mixture, and two `ferrite user` commands never lose each other's change.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::num::NonZeroU32;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use ring::rand::{SecureRandom, SystemRandom};

use ferrite_storage::error::{StorageError, StorageResult};

/// The registry's file name inside the queue manager's directory.
pub const USERS_FILE_NAME: &str = "users";
/// The first line of the file.
pub const USERS_FILE_MAGIC: &str = "FERRITE-USERS";
/// The format version this code writes and reads.
pub const USERS_FILE_VERSION: u32 = 1;
/// PBKDF2-HMAC-SHA512 iterations for a new password (OWASP's figure for this hash).
pub const PASSWORD_HASH_ITERATIONS: u32 = 210_000;
/// The fewest iterations a stored hash may have (a file edited down to a weak hash is refused).
pub const PASSWORD_HASH_ITERATIONS_MIN: u32 = 100_000;
/// Salt bytes per user.
pub const SALT_BYTES: usize = 16;
/// Hash bytes (SHA-512 output).
pub const HASH_BYTES: usize = 64;
/// Longest user ID (MQCSP's CSPUserId; MQ's long user IDs go to 1024, Ferrite keeps 64).
pub const USER_NAME_LENGTH_MAX: usize = 64;
/// Longest password, bytes (MQCSP's CSPPassword limit on distributed MQ).
pub const PASSWORD_BYTES_MAX: usize = 256;
/// Most users one registry holds.
pub const USERS_MAX: usize = 10_000;

const HASH_NAME: &str = "pbkdf2-sha512";

/// What a password check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verification {
    /// The user exists and the password is theirs.
    Valid,
    /// The user exists; the password is not theirs.
    WrongPassword,
    /// No such user.
    UnknownUser,
}

/// One stored user.
#[derive(Clone, Debug, PartialEq, Eq)]
struct StoredUser {
    name: String,
    iterations: u32,
    salt: [u8; SALT_BYTES],
    hash: [u8; HASH_BYTES],
}

/// The user registry of one queue manager directory.
#[derive(Clone, Debug)]
pub struct UserRegistry {
    directory: PathBuf,
}

fn invalid(what: impl Into<String>) -> StorageError {
    StorageError::invalid(what.into())
}

fn io_error(what: &str, path: &Path, error: std::io::Error) -> StorageError {
    invalid(format!("{what} {}: {error}", path.display()))
}

/// Checks a user name: 1 to [`USER_NAME_LENGTH_MAX`] printable ASCII characters, no spaces.
pub fn check_user_name(name: &str) -> StorageResult<()> {
    if name.is_empty() || name.len() > USER_NAME_LENGTH_MAX {
        return Err(invalid(format!(
            "user ID '{name}' must be 1-{USER_NAME_LENGTH_MAX} characters"
        )));
    }
    if !name.bytes().all(|byte| byte.is_ascii_graphic()) {
        return Err(invalid(format!(
            "user ID '{name}' may hold printable ASCII characters only (no spaces)"
        )));
    }
    Ok(())
}

fn hash(password: &[u8], salt: &[u8; SALT_BYTES], iterations: u32) -> [u8; HASH_BYTES] {
    let mut out = [0u8; HASH_BYTES];
    ring::pbkdf2::derive(
        ring::pbkdf2::PBKDF2_HMAC_SHA512,
        NonZeroU32::new(iterations).expect("iterations checked non-zero"),
        salt,
        password,
        &mut out,
    );
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != N * 2 || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; N];
    for (index, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[index * 2..index * 2 + 2], 16).ok()?;
    }
    Some(out)
}

impl UserRegistry {
    /// The registry kept in the queue manager directory `directory`.
    pub fn new(directory: &Path) -> UserRegistry {
        UserRegistry {
            directory: directory.to_path_buf(),
        }
    }

    /// The registry file.
    pub fn path(&self) -> PathBuf {
        self.directory.join(USERS_FILE_NAME)
    }

    /// The user names, sorted.
    pub fn list(&self) -> StorageResult<Vec<String>> {
        Ok(self.read()?.into_iter().map(|user| user.name).collect())
    }

    /// Adds `name` with `password`. An existing user is an error unless `replace` (which
    /// changes the password).
    pub fn add(&self, name: &str, password: &[u8], replace: bool) -> StorageResult<()> {
        check_user_name(name)?;
        if password.is_empty() || password.len() > PASSWORD_BYTES_MAX {
            return Err(invalid(format!(
                "the password of user ID '{name}' must be 1-{PASSWORD_BYTES_MAX} bytes"
            )));
        }
        let mut salt = [0u8; SALT_BYTES];
        SystemRandom::new()
            .fill(&mut salt)
            .map_err(|_| invalid("the system's random number generator failed"))?;
        let user = StoredUser {
            name: name.to_string(),
            iterations: PASSWORD_HASH_ITERATIONS,
            salt,
            hash: hash(password, &salt, PASSWORD_HASH_ITERATIONS),
        };
        self.change(|users| {
            match users.iter().position(|existing| existing.name == name) {
                Some(_) if !replace => {
                    return Err(invalid(format!(
                        "user ID '{name}' already exists (delete it first, or replace its password)"
                    )))
                }
                Some(index) => users[index] = user,
                None if users.len() >= USERS_MAX => {
                    return Err(invalid(format!(
                        "the registry holds {USERS_MAX} users already"
                    )))
                }
                None => users.push(user),
            }
            Ok(())
        })
    }

    /// Deletes `name`; false if there was no such user.
    pub fn delete(&self, name: &str) -> StorageResult<bool> {
        let mut found = false;
        self.change(|users| {
            let before = users.len();
            users.retain(|user| user.name != name);
            found = users.len() != before;
            Ok(())
        })?;
        Ok(found)
    }

    /// Checks `password` for `name`. Costs one slow hash whether the user exists or not.
    pub fn verify(&self, name: &str, password: &[u8]) -> StorageResult<Verification> {
        let users = self.read()?;
        match users.iter().find(|user| user.name == name) {
            Some(user) => {
                let matches = ring::pbkdf2::verify(
                    ring::pbkdf2::PBKDF2_HMAC_SHA512,
                    NonZeroU32::new(user.iterations).expect("checked when read"),
                    &user.salt,
                    password,
                    &user.hash,
                )
                .is_ok();
                Ok(if matches {
                    Verification::Valid
                } else {
                    Verification::WrongPassword
                })
            }
            None => {
                // The same work as for a real user, so that timing tells nothing.
                let _ = hash(password, &[0u8; SALT_BYTES], PASSWORD_HASH_ITERATIONS);
                Ok(Verification::UnknownUser)
            }
        }
    }

    fn read(&self) -> StorageResult<Vec<StoredUser>> {
        let path = self.path();
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(io_error("cannot read the user registry", &path, error)),
        };
        parse(&text).map_err(|what| {
            invalid(format!(
                "user registry {} is damaged: {what}; restore it or delete it and add the users again",
                path.display()
            ))
        })
    }

    /// Applies `edit` to the users under the registry's lock and writes the result atomically.
    fn change(
        &self,
        edit: impl FnOnce(&mut Vec<StoredUser>) -> StorageResult<()>,
    ) -> StorageResult<()> {
        let lock_path = self.directory.join("users.lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&lock_path)
            .map_err(|error| io_error("cannot open", &lock_path, error))?;
        // SAFETY: flock on a file descriptor we own; released when `lock` is closed.
        if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(io_error(
                "cannot lock",
                &lock_path,
                std::io::Error::last_os_error(),
            ));
        }
        let mut users = self.read()?;
        edit(&mut users)?;
        users.sort_by(|a, b| a.name.cmp(&b.name));
        let text = format_users(&users);
        debug_assert_eq!(parse(&text).as_ref(), Ok(&users));
        let new_path = self.directory.join("users.new");
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .mode(0o600)
            .open(&new_path)
            .map_err(|error| io_error("cannot create", &new_path, error))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|error| io_error("cannot write", &new_path, error))?;
        drop(file);
        let path = self.path();
        fs::rename(&new_path, &path).map_err(|error| io_error("cannot replace", &path, error))?;
        File::open(&self.directory)
            .and_then(|directory| directory.sync_all())
            .map_err(|error| io_error("cannot sync", &self.directory, error))?;
        drop(lock);
        Ok(())
    }
}

fn format_users(users: &[StoredUser]) -> String {
    let mut text = format!("{USERS_FILE_MAGIC} {USERS_FILE_VERSION}\n");
    for user in users {
        text.push_str(&format!(
            "{} {HASH_NAME} {} {} {}\n",
            user.name,
            user.iterations,
            hex(&user.salt),
            hex(&user.hash)
        ));
    }
    text
}

fn parse(text: &str) -> Result<Vec<StoredUser>, String> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let expected = format!("{USERS_FILE_MAGIC} {USERS_FILE_VERSION}");
    if header != expected {
        return Err(format!("first line is '{header}', expected '{expected}'"));
    }
    let mut users: Vec<StoredUser> = Vec::new();
    for (index, line) in lines.enumerate() {
        let number = index + 2;
        let fields: Vec<&str> = line.split(' ').collect();
        let [name, algorithm, iterations, salt, hash] = fields[..] else {
            return Err(format!("line {number} does not have 5 fields"));
        };
        check_user_name(name).map_err(|error| format!("line {number}: {error}"))?;
        if algorithm != HASH_NAME {
            return Err(format!("line {number}: unknown hash '{algorithm}'"));
        }
        let iterations: u32 = iterations
            .parse()
            .ok()
            .filter(|&count| count >= PASSWORD_HASH_ITERATIONS_MIN)
            .ok_or_else(|| {
                format!("line {number}: iterations must be at least {PASSWORD_HASH_ITERATIONS_MIN}")
            })?;
        let salt = unhex::<SALT_BYTES>(salt).ok_or(format!("line {number}: bad salt"))?;
        let hash = unhex::<HASH_BYTES>(hash).ok_or(format!("line {number}: bad hash"))?;
        if users.iter().any(|user| user.name == name) {
            return Err(format!("line {number}: user ID '{name}' appears twice"));
        }
        if users.len() >= USERS_MAX {
            return Err(format!("more than {USERS_MAX} users"));
        }
        users.push(StoredUser {
            name: name.to_string(),
            iterations,
            salt,
            hash,
        });
    }
    Ok(users)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_verify_delete_and_the_file_holds_no_password() {
        let directory = tempfile::tempdir().unwrap();
        let registry = UserRegistry::new(directory.path());
        assert_eq!(registry.list().unwrap(), Vec::<String>::new());
        assert_eq!(
            registry.verify("app", b"passw0rd").unwrap(),
            Verification::UnknownUser
        );
        registry.add("app", b"passw0rd", false).unwrap();
        registry.add("admin", b"s3cret!", false).unwrap();
        assert_eq!(registry.list().unwrap(), vec!["admin", "app"]);
        assert_eq!(
            registry.verify("app", b"passw0rd").unwrap(),
            Verification::Valid
        );
        assert_eq!(
            registry.verify("app", b"passw0rD").unwrap(),
            Verification::WrongPassword
        );
        assert_eq!(
            registry.verify("nobody", b"passw0rd").unwrap(),
            Verification::UnknownUser
        );
        let text = fs::read_to_string(registry.path()).unwrap();
        assert!(!text.contains("passw0rd") && !text.contains(&hex(b"passw0rd")));
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(registry.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "only the owner reads the registry");
        // Same password, different salt: different hashes.
        registry.add("twin", b"passw0rd", false).unwrap();
        let users = registry.read().unwrap();
        let app = users.iter().find(|user| user.name == "app").unwrap();
        let twin = users.iter().find(|user| user.name == "twin").unwrap();
        assert_ne!(app.salt, twin.salt);
        assert_ne!(app.hash, twin.hash);
        assert!(registry.add("app", b"other", false).is_err());
        registry.add("app", b"other", true).unwrap();
        assert_eq!(
            registry.verify("app", b"other").unwrap(),
            Verification::Valid
        );
        assert!(registry.delete("app").unwrap());
        assert!(!registry.delete("app").unwrap());
        assert_eq!(
            registry.verify("app", b"other").unwrap(),
            Verification::UnknownUser
        );
    }

    #[test]
    fn bad_names_passwords_and_damaged_files_are_refused() {
        let directory = tempfile::tempdir().unwrap();
        let registry = UserRegistry::new(directory.path());
        assert!(registry.add("", b"x", false).is_err());
        assert!(registry.add("has space", b"x", false).is_err());
        assert!(registry.add(&"u".repeat(65), b"x", false).is_err());
        assert!(registry.add("app", b"", false).is_err());
        assert!(registry.add("app", &[b'x'; 257], false).is_err());
        for damaged in [
            "NOT-USERS 1\n",
            "FERRITE-USERS 2\n",
            "FERRITE-USERS 1\napp pbkdf2-sha512 1000 00 00\n",
            "FERRITE-USERS 1\napp md5 210000 00000000000000000000000000000000 00\n",
        ] {
            fs::write(registry.path(), damaged).unwrap();
            let error = registry.verify("app", b"x").unwrap_err().to_string();
            assert!(error.contains("damaged"), "{damaged:?}: {error}");
        }
        // A weakened hash (fewer iterations) is refused.
        let weak = format!(
            "FERRITE-USERS 1\napp pbkdf2-sha512 1000 {} {}\n",
            "00".repeat(SALT_BYTES),
            "00".repeat(HASH_BYTES)
        );
        fs::write(registry.path(), weak).unwrap();
        assert!(registry.verify("app", b"x").is_err());
    }
}
