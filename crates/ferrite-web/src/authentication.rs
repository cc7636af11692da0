//! HTTP basic authentication against the queue manager's user registry (the users of
//! `ferrite user add`, the same ones CONNAUTH checks), the caller's roles, and the CSRF rule.
//!
//! A password check is a slow hash by design (PBKDF2, about 0.1 s), too slow to repeat on every
//! request of a console polling once a second: a successful check is remembered for
//! [`CREDENTIALS_CACHE_SECONDS`] as a keyed digest of the user and password (never the
//! password), and forgotten at once when the registry file changes (a password changed or a
//! user deleted with `ferrite user`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use axum::http::{HeaderMap, Method};
use base64::Engine;
use ferrite_queue_manager::security::users::{UserRegistry, Verification};
use ring::rand::SecureRandom;

use crate::errors::{RestError, RestResult};
use crate::roles::{Role, RoleRegistry};

/// How long a verified user ID and password are trusted without hashing again.
pub const CREDENTIALS_CACHE_SECONDS: u64 = 60;
/// Most verified credentials remembered at once.
pub const CREDENTIALS_CACHE_ENTRIES_MAX: usize = 1_024;
/// The header a POST, PATCH or DELETE must carry (any value), as mqweb requires.
pub const CSRF_HEADER: &str = "ibm-mq-rest-csrf-token";

/// Who made a request, and in which roles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    pub user: String,
    pub roles: Vec<Role>,
}

impl Caller {
    pub fn has(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }

    /// Whether the caller may use the administrative API at all.
    pub fn administers(&self) -> bool {
        !self.roles.is_empty()
    }
}

/// The users of one queue manager as the web server checks them.
pub struct Authenticator {
    users: UserRegistry,
    users_path: PathBuf,
    roles: RoleRegistry,
    key: [u8; 32],
    verified: Mutex<HashMap<String, Verified>>,
}

struct Verified {
    digest: ring::digest::Digest,
    at: Instant,
    registry_modified: Option<SystemTime>,
}

impl Authenticator {
    pub fn new(directory: &std::path::Path) -> Authenticator {
        let mut key = [0u8; 32];
        ring::rand::SystemRandom::new()
            .fill(&mut key)
            .expect("the system's random number generator works");
        let users = UserRegistry::new(directory);
        Authenticator {
            users_path: users.path(),
            users,
            roles: RoleRegistry::new(directory),
            key,
            verified: Mutex::new(HashMap::new()),
        }
    }

    /// The caller of a request with `headers`: 401 without valid basic credentials. Blocks
    /// for a password hash when the credentials are not remembered.
    pub fn authenticate(&self, headers: &HeaderMap) -> RestResult<Caller> {
        let (user, password) =
            basic_credentials(headers).ok_or_else(RestError::not_authenticated)?;
        if !self.remembered(&user, &password) {
            match self.users.verify(&user, password.as_bytes()) {
                Ok(Verification::Valid) => self.remember(&user, &password),
                Ok(_) => return Err(RestError::not_authenticated()),
                Err(error) => {
                    return Err(RestError::mq(
                        ferrite_constants::reason::MQRC_UNEXPECTED_ERROR,
                        &format!("Checking the password of {user} ({error})"),
                    ))
                }
            }
        }
        let roles = self.roles.roles(&user).map_err(|error| {
            RestError::mq(
                ferrite_constants::reason::MQRC_UNEXPECTED_ERROR,
                &format!("Reading the roles of {user} ({error})"),
            )
        })?;
        Ok(Caller { user, roles })
    }

    fn digest(&self, user: &str, password: &str) -> ring::digest::Digest {
        let mut context = ring::digest::Context::new(&ring::digest::SHA256);
        context.update(&self.key);
        context.update(user.as_bytes());
        context.update(&[0]);
        context.update(password.as_bytes());
        context.finish()
    }

    fn registry_modified(&self) -> Option<SystemTime> {
        std::fs::metadata(&self.users_path)
            .and_then(|metadata| metadata.modified())
            .ok()
    }

    fn remembered(&self, user: &str, password: &str) -> bool {
        let digest = self.digest(user, password);
        let modified = self.registry_modified();
        let verified = self.verified.lock().unwrap();
        verified.get(user).is_some_and(|entry| {
            entry.at.elapsed() < Duration::from_secs(CREDENTIALS_CACHE_SECONDS)
                && entry.registry_modified == modified
                && entry.digest.as_ref() == digest.as_ref()
        })
    }

    fn remember(&self, user: &str, password: &str) {
        let entry = Verified {
            digest: self.digest(user, password),
            at: Instant::now(),
            registry_modified: self.registry_modified(),
        };
        let mut verified = self.verified.lock().unwrap();
        if verified.len() >= CREDENTIALS_CACHE_ENTRIES_MAX {
            verified.retain(|_, entry| {
                entry.at.elapsed() < Duration::from_secs(CREDENTIALS_CACHE_SECONDS)
            });
            if verified.len() >= CREDENTIALS_CACHE_ENTRIES_MAX {
                verified.clear();
            }
        }
        verified.insert(user.to_string(), entry);
    }
}

/// The user ID and password of an `Authorization: Basic` header.
fn basic_credentials(headers: &HeaderMap) -> Option<(String, String)> {
    let value = headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, encoded) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_string(), password.to_string()))
}

/// mqweb's CSRF rule: a POST, PATCH or DELETE must carry `ibm-mq-rest-csrf-token` (its value
/// is not checked; a browser cannot add it to a cross-site form post).
pub fn check_csrf(method: &Method, headers: &HeaderMap) -> RestResult<()> {
    let changes = [Method::POST, Method::PATCH, Method::DELETE, Method::PUT];
    if changes.contains(method) && !headers.contains_key(CSRF_HEADER) {
        return Err(RestError::csrf_header_missing());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn basic_credentials_are_decoded_and_other_schemes_ignored() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "authorization",
            HeaderValue::from_static("Basic YWxpY2U6cGE6c3M="),
        );
        assert_eq!(
            basic_credentials(&headers),
            Some(("alice".into(), "pa:ss".into()))
        );
        headers.insert("authorization", HeaderValue::from_static("Bearer abc"));
        assert_eq!(basic_credentials(&headers), None);
    }

    #[test]
    fn changes_need_the_csrf_header_and_reads_do_not() {
        let mut headers = HeaderMap::new();
        assert!(check_csrf(&Method::GET, &headers).is_ok());
        let error = check_csrf(&Method::POST, &headers).unwrap_err();
        assert_eq!(error.message_id, "MQWB0100E");
        headers.insert(CSRF_HEADER, HeaderValue::from_static(""));
        assert!(check_csrf(&Method::DELETE, &headers).is_ok());
    }
}
