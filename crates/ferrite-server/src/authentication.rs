//! Connection authentication of client connections: the AUTHINFO object (AUTHTYPE(IDPWOS))
//! the queue manager's CONNAUTH names, as put in force at restart or by REFRESH SECURITY
//! TYPE(CONNAUTH) (`ferrite_queue_manager::security::connection_authentication`), the user ID
//! and password a client sends in CONAUTH_INFO (its MQCSP), checked against the queue
//! manager's user registry (`ferrite_queue_manager::security::users`), and the user ID the connection then
//! runs under.
//!
//! ## What the AUTHINFO decides
//! - CHCKCLNT: the table below. REQDADM asks a password of privileged users only: those of MQ
//!   on Linux, the `mqm` group and the user the queue manager runs as (qm.toml `[security]`,
//!   `ferrite_queue_manager::security::privileged_users`), judged by the user ID the client
//!   asserts in USERID_DATA. The QMGR object's own CHCKCLNT (Ferrite's attribute before
//!   AUTHINFO) still applies when stricter.
//! - ADOPTCTX: YES, an authenticated connection runs under the user ID it authenticated; NO,
//!   under MCAUSER or the asserted user ID as an unauthenticated one does.
//! - FAILDLAY: seconds the conversation waits before answering a wrong user ID or password
//!   (not a missing one), which slows password guessing ([`decide`]).
//! - CHCKLOCL is for bindings and in-process connections (`conversation.rs`,
//!   `QueueManager::authenticate_local`), checked against the same registry.
//! - Without an AUTHINFO in force (CONNAUTH blank): CHCKCLNT(NONE), ADOPTCTX(YES), FAILDLAY(0).
//!
//! ## CHCKCLNT
//! | value      | no user ID and password            | a user ID and password           |
//! |------------|------------------------------------|----------------------------------|
//! | `NONE`     | accepted                           | accepted, not checked            |
//! | `OPTIONAL` | accepted                           | must be a valid pair, else 2035  |
//! | `REQDADM`  | refused (2035) if the asserted user is privileged | must be a valid pair, else 2035 |
//! | `REQUIRED` | refused, MQRC_NOT_AUTHORIZED 2035  | must be a valid pair, else 2035  |
//!
//! A refusal answers the MQCONN with MQCC_FAILED and MQRC_NOT_AUTHORIZED (as MQ: the client
//! is not told whether the user ID or the password was wrong) and logs why, with MQ's
//! message numbers: AMQ5534E (the user ID's authentication failed) and AMQ5541E (the
//! CHCKCLNT setting that made it fail).
//!
//! ## Which passwords can be checked
//! Observed with IBM's 9.4.5 Java client (FERRITE_TRACE_FLOWS=1 and a probe server): it
//! protects the password with an algorithm that is not public whenever the negotiated FAP
//! level is 13 or more *and* the server's INITIAL_DATA selects a password protection
//! algorithm other than 0 from the client's list (PAL). On a TLS socket the client offers only
//! algorithm 0 (no protection: TLS protects the password) and sends it in clear inside TLS.
//! Over plaintext TCP it offers 1 then 0, and refuses (MQRC_PASSWORD_PROTECTION_ERROR, 2594)
//! a server that answers 0 alone; at FAP 12 or below it sends the password in clear over the
//! network. Ferrite never asks for that: it keeps FAP 13 and the client's algorithm, so on a
//! plaintext channel the password arrives protected and cannot be checked, and a connection
//! that must be checked is refused, with a log line saying to use TLS (SSLCIPH). IBM's current
//! client therefore authenticates inside TLS only, where the password can be verified and was
//! never exposed. A client that itself sends its password in clear over plaintext TCP (one
//! proposing FAP 12 or lower, or offering no protection algorithm) is checked as MQ checks
//! it: the password is verifiable, though it crossed the network in clear (Ferrite's own
//! client refuses to send one that way).
//!
//! ## CAUT as the 9.4.5 Java client sends it
//! ```text
//! off len field
//!   0   4 "CAUT"
//!   4   4 AuthType (1: user ID and password)
//!   8   4 UsrMaxLen      12 4 PwdMaxLen      16 4 UsrLength      20 4 PwdLength
//!  24   8 reserved (zero)
//!  32   n user ID (UsrLength bytes), then the password (PwdLength bytes), then padding
//! ```
//! The answer that lets the client go on to MQCONN is a STATUS_DATA with code 0 (an echo of
//! the CAUT makes it fail with MQRC_UNEXPECTED_ERROR, 2195).

use ferrite_constants::reason::*;
use ferrite_protocol::codec::Reader;
use ferrite_protocol::{ByteOrder, ProtocolError};
use ferrite_queue_manager::security::users::{UserRegistry, Verification, PASSWORD_BYTES_MAX};
use ferrite_queue_manager::ChannelDefinition;

/// The FAP level from which IBM's client protects passwords when the server selects a
/// protection algorithm.
pub const PASSWORD_PROTECTION_FAP_LEVEL: u8 = 13;
/// CAUT's fixed part before the reserved bytes.
const CAUT_FIXED_BYTES: usize = 24;
/// The reserved bytes between CAUT's lengths and its data.
const CAUT_RESERVED_BYTES: usize = 8;
/// Longest user ID accepted in CAUT.
pub const CAUT_USER_BYTES_MAX: usize = 1024;
/// AuthType 1: MQCSP_AUTH_USER_ID_AND_PWD.
pub const AUTH_USER_ID_AND_PASSWORD: i32 = 1;

/// CHCKCLNT: NONE, OPTIONAL, REQDADM, REQUIRED (the storage engine's type, shared with
/// CHCKLOCL).
pub use ferrite_queue_manager::CredentialCheck as CheckClient;

/// A user ID and password from CONAUTH_INFO. The password is overwritten when dropped.
pub struct Credentials {
    /// The user ID.
    pub user: String,
    /// The password bytes as received.
    pub password: Vec<u8>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Credentials {{ user: {:?}, password: <hidden> }}",
            self.user
        )
    }
}

impl Drop for Credentials {
    fn drop(&mut self) {
        for byte in self.password.iter_mut() {
            // SAFETY: a write through a valid &mut u8; volatile so that it is not elided.
            unsafe { std::ptr::write_volatile(byte, 0) };
        }
    }
}

fn invalid(what: &'static str, value: usize) -> ProtocolError {
    ProtocolError::InvalidLength {
        what,
        value: value as i64,
    }
}

/// The credentials of a CONAUTH_INFO payload (layout in the module docs; a CAUT without the
/// reserved bytes, as Wireshark describes older clients', is read too). `None` when it
/// carries no user ID.
pub fn credentials_from_caut(
    payload: &[u8],
    order: ByteOrder,
) -> Result<Option<Credentials>, ProtocolError> {
    let mut reader = Reader::new(payload, order, "connection authentication (CAUT)");
    reader.expect_struct_id(b"CAUT")?;
    let auth_type = reader.i32()?;
    let _user_max = reader.i32()?;
    let _password_max = reader.i32()?;
    let user_length = reader.i32()?;
    let password_length = reader.i32()?;
    let user_length = usize::try_from(user_length)
        .ok()
        .filter(|&length| length <= CAUT_USER_BYTES_MAX)
        .ok_or(invalid("CAUT user ID length", user_length.max(0) as usize))?;
    let password_length = usize::try_from(password_length)
        .ok()
        .filter(|&length| length <= PASSWORD_BYTES_MAX)
        .ok_or(invalid(
            "CAUT password length",
            password_length.max(0) as usize,
        ))?;
    let data = &payload[CAUT_FIXED_BYTES..];
    let needed = user_length + password_length;
    let start = if data.len() >= CAUT_RESERVED_BYTES + needed {
        CAUT_RESERVED_BYTES
    } else if data.len() >= needed {
        0
    } else {
        return Err(ProtocolError::Truncated {
            what: "CAUT user ID and password",
            offset: CAUT_FIXED_BYTES,
            needed,
            available: data.len(),
        });
    };
    if auth_type != AUTH_USER_ID_AND_PASSWORD || user_length == 0 {
        return Ok(None);
    }
    let user = &data[start..start + user_length];
    let password = data[start + user_length..start + needed].to_vec();
    Ok(Some(Credentials {
        user: String::from_utf8_lossy(user).trim().to_string(),
        password,
    }))
}

/// Encodes a CAUT as the 9.4.5 Java client does (the Rust client sends this).
pub fn encode_caut(user: &str, password: &[u8], order: ByteOrder) -> Vec<u8> {
    let mut writer = ferrite_protocol::codec::Writer::new(order);
    writer.bytes(b"CAUT");
    writer.i32(AUTH_USER_ID_AND_PASSWORD);
    writer.i32(user.len() as i32);
    writer.i32(password.len() as i32);
    writer.i32(user.len() as i32);
    writer.i32(password.len() as i32);
    writer.bytes(&[0u8; CAUT_RESERVED_BYTES]);
    writer.bytes(user.as_bytes());
    writer.bytes(password);
    writer.into_bytes()
}

/// How the client sends its password on this socket, from what INITIAL_DATA agreed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasswordTransport {
    /// In clear (inside TLS when the socket runs TLS).
    Clear,
    /// Protected by the client's algorithm `algorithm`, which Ferrite cannot undo.
    Protected {
        /// The PAL entry the server selected.
        algorithm: u16,
    },
}

/// From the agreed FAP level and the PAL the server answered (first entry big-endian).
pub fn password_transport(fap_level: u8, pal: &[u8; 20]) -> PasswordTransport {
    let algorithm = u16::from_be_bytes([pal[0], pal[1]]);
    if fap_level < PASSWORD_PROTECTION_FAP_LEVEL || algorithm == 0 || algorithm == 0xFFFF {
        PasswordTransport::Clear
    } else {
        PasswordTransport::Protected { algorithm }
    }
}

/// The connection authentication policy in force: what the AUTHINFO CONNAUTH names says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// CHCKCLNT in force.
    pub check: CheckClient,
    /// ADOPTCTX.
    pub adopt_context: bool,
    /// FAILDLAY.
    pub fail_delay: std::time::Duration,
    /// The AUTHINFO's name, for the log (blank: none).
    pub auth_info: String,
}

impl Policy {
    /// The policy of a queue manager with no AUTHINFO in force and CHCKCLNT `check`.
    pub fn without_auth_info(check: CheckClient) -> Policy {
        Policy {
            check,
            adopt_context: true,
            fail_delay: std::time::Duration::ZERO,
            auth_info: String::new(),
        }
    }
}

/// The queue manager's policy, read at each MQCONN: a REFRESH SECURITY TYPE(CONNAUTH) applies
/// to the next connection.
pub fn policy(queue_manager: &ferrite_queue_manager::QueueManager) -> Policy {
    // Validated when stored; an unreadable value fails closed.
    let check = CheckClient::from_keyword(&queue_manager.client_check_in_force())
        .unwrap_or(CheckClient::Required);
    match queue_manager.connection_authentication().definition {
        Some(definition) => Policy {
            check,
            adopt_context: definition.adopt_context,
            fail_delay: std::time::Duration::from_secs(definition.fail_delay_seconds.into()),
            auth_info: definition.name,
        },
        None => Policy::without_auth_info(check),
    }
}

/// Everything the decision needs about the connection.
pub struct ConnectionFacts<'a> {
    /// The channel's definition (MCAUSER).
    pub channel: &'a ChannelDefinition,
    /// The client's address, for the log.
    pub peer: &'a str,
    /// CHCKCLNT, ADOPTCTX and FAILDLAY in force.
    pub policy: Policy,
    /// How the password travelled.
    pub transport: PasswordTransport,
    /// Whether the socket runs TLS.
    pub tls: bool,
    /// The user ID the client asserted in USERID_DATA.
    pub asserted_user: &'a str,
    /// Whether that user is privileged; asked only for CHCKCLNT(REQDADM)
    /// ([`asserted_user_is_privileged`]).
    pub privileged: bool,
}

/// Whether `asserted_user` is privileged, looked up only when `policy` is REQDADM (the only
/// value for which it matters; the lookup reads the system's user database).
pub fn asserted_user_is_privileged(
    queue_manager: &ferrite_queue_manager::QueueManager,
    policy: &Policy,
    asserted_user: &str,
) -> bool {
    policy.check == CheckClient::RequiredForPrivileged
        && queue_manager.is_privileged(&ferrite_queue_manager::ConnectingUser::asserted(
            asserted_user,
        ))
}

/// The decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The connection goes ahead under `user_id`.
    Accepted {
        /// The connection's user ID (MQMD.UserIdentifier, DISPLAY CONN USERID).
        user_id: String,
        /// Whether a password was checked.
        authenticated: bool,
    },
    /// MQCONN fails with `reason`; `log` says why.
    Refused {
        /// MQRC_NOT_AUTHORIZED.
        reason: i32,
        /// Log lines (AMQ5534E, AMQ5541E).
        log: String,
    },
}

/// Decides a connection (see the module docs).
pub fn authenticate(
    facts: &ConnectionFacts<'_>,
    credentials: Option<&Credentials>,
    registry: &UserRegistry,
) -> Outcome {
    let channel = &facts.channel.name;
    let peer = facts.peer;
    let check = facts.policy.check;
    let source = if facts.policy.auth_info.is_empty() {
        "the queue manager".to_string()
    } else {
        format!("AUTHINFO({})", facts.policy.auth_info)
    };
    let unauthenticated_user = if facts.channel.mca_user.trim().is_empty() {
        facts.asserted_user.to_string()
    } else {
        facts.channel.mca_user.trim().to_string()
    };
    let refused = |first: String| {
        Outcome::Refused {
        reason: MQRC_NOT_AUTHORIZED,
        log: format!(
            "{first}\nAMQ5541E ferrite channel {channel} from {peer}: the failed authentication check was caused by CHCKCLNT({}) of {source}",
            check.keyword()
        ),
    }
    };
    let credentials = match (check, credentials) {
        (CheckClient::None, _) => {
            return Outcome::Accepted {
                user_id: unauthenticated_user,
                authenticated: false,
            }
        }
        (check, None) => {
            if !check.requires_credentials(|| facts.privileged) {
                return Outcome::Accepted {
                    user_id: unauthenticated_user,
                    authenticated: false,
                };
            }
            let who = if check == CheckClient::Required {
                "every client".to_string()
            } else {
                format!(
                    "'{}', a privileged user (qm.toml [security])",
                    facts.asserted_user
                )
            };
            return refused(format!(
                "AMQ5534E ferrite channel {channel} from {peer}: user ID '{}' authentication failed: the client gave no user ID and password (its MQCSP, or JMS createConnection(user, password)), and CHCKCLNT({}) needs them of {who}",
                facts.asserted_user,
                check.keyword()
            ));
        }
        (_, Some(credentials)) => credentials,
    };
    let user = &credentials.user;
    if let PasswordTransport::Protected { algorithm } = facts.transport {
        return refused(format!(
            "AMQ5534E ferrite channel {channel} from {peer}: user ID '{user}' authentication failed: the client protected the password with its password protection algorithm {algorithm}, which Ferrite cannot check; set SSLCIPH on channel {channel} and connect with TLS, where the client sends it inside TLS"
        ));
    }
    debug_assert!(
        facts.tls || facts.transport == PasswordTransport::Clear,
        "a clear password"
    );
    match registry.verify(user, &credentials.password) {
        Ok(Verification::Valid) => Outcome::Accepted {
            user_id: if facts.policy.adopt_context {
                user.clone()
            } else {
                unauthenticated_user
            },
            authenticated: true,
        },
        Ok(Verification::WrongPassword) => refused(format!(
            "AMQ5534E ferrite channel {channel} from {peer}: user ID '{user}' authentication failed: wrong password"
        )),
        Ok(Verification::UnknownUser) => refused(format!(
            "AMQ5534E ferrite channel {channel} from {peer}: user ID '{user}' authentication failed: no such user in the queue manager's registry (add it with `ferrite user add`)"
        )),
        Err(error) => refused(format!(
            "AMQ5534E ferrite channel {channel} from {peer}: user ID '{user}' authentication failed: {error}"
        )),
    }
}

/// How long the answer to `outcome` waits: the policy's FAILDLAY when a user ID and password
/// were checked and found wrong, otherwise zero. For callers that must not sleep (the channel
/// initiator's adapters, which delay the reply on a timer instead).
pub fn fail_delay(
    facts: &ConnectionFacts<'_>,
    credentials: Option<&Credentials>,
    outcome: &Outcome,
) -> std::time::Duration {
    if fail_delay_applies(facts, credentials, outcome) {
        facts.policy.fail_delay
    } else {
        std::time::Duration::ZERO
    }
}

/// Whether `outcome` refused a user ID and password that were checked (not missing, not
/// uncheckable).
fn fail_delay_applies(
    facts: &ConnectionFacts<'_>,
    credentials: Option<&Credentials>,
    outcome: &Outcome,
) -> bool {
    matches!(outcome, Outcome::Refused { .. })
        && credentials.is_some()
        && facts.transport == PasswordTransport::Clear
        && facts.policy.check != CheckClient::None
}

#[cfg(test)]
mod tests {
    /// The blocking form of [`authenticate`] and [`fail_delay`] the tests check: [`authenticate`], then, when a user ID and password were checked and found wrong, the
    /// policy's FAILDLAY before the answer (only this conversation waits).
    fn decide(
        facts: &ConnectionFacts<'_>,
        credentials: Option<&Credentials>,
        registry: &UserRegistry,
    ) -> Outcome {
        let outcome = authenticate(facts, credentials, registry);
        if fail_delay_applies(facts, credentials, &outcome) {
            std::thread::sleep(facts.policy.fail_delay);
        }
        outcome
    }

    use super::*;

    fn facts<'a>(
        channel: &'a ChannelDefinition,
        check: CheckClient,
        transport: PasswordTransport,
    ) -> ConnectionFacts<'a> {
        ConnectionFacts {
            channel,
            peer: "127.0.0.1(5000)",
            policy: Policy::without_auth_info(check),
            transport,
            tls: transport == PasswordTransport::Clear,
            asserted_user: "root",
            privileged: false,
        }
    }

    fn credentials(user: &str, password: &str) -> Credentials {
        Credentials {
            user: user.to_string(),
            password: password.as_bytes().to_vec(),
        }
    }

    #[test]
    fn caut_as_the_java_client_sends_it() {
        // Captured from IBM's 9.4.5 Java client inside TLS (user "app", password "passw0rd").
        let bytes: Vec<u8> = (0..88)
            .step_by(2)
            .map(|at| {
                u8::from_str_radix(
                    &"4341555400000001000000030000000800000003000000080000000000000000617070706173737730726400"[at..at + 2],
                    16,
                )
                .unwrap()
            })
            .collect();
        let parsed = credentials_from_caut(&bytes, ByteOrder::Big)
            .unwrap()
            .unwrap();
        assert_eq!(parsed.user, "app");
        assert_eq!(parsed.password, b"passw0rd");
        let encoded = encode_caut("app", b"passw0rd", ByteOrder::Little);
        let parsed = credentials_from_caut(&encoded, ByteOrder::Little)
            .unwrap()
            .unwrap();
        assert_eq!(
            (parsed.user.as_str(), &parsed.password[..]),
            ("app", &b"passw0rd"[..])
        );
        // Truncated, hostile lengths: errors, never panics.
        for cut in 0..encoded.len() - 1 {
            let _ = credentials_from_caut(&encoded[..cut], ByteOrder::Little);
        }
        assert!(credentials_from_caut(&encoded[..30], ByteOrder::Little).is_err());
        let mut hostile = encoded.clone();
        hostile[16..20].copy_from_slice(&(-1i32).to_le_bytes());
        assert!(credentials_from_caut(&hostile, ByteOrder::Little).is_err());
        hostile[16..20].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(credentials_from_caut(&hostile, ByteOrder::Little).is_err());
        assert!(format!("{parsed:?}").contains("hidden"));
    }

    #[test]
    fn password_transport_rule() {
        let mut pal = [0xFF; 20];
        pal[..2].copy_from_slice(&1u16.to_be_bytes());
        assert_eq!(
            password_transport(13, &pal),
            PasswordTransport::Protected { algorithm: 1 }
        );
        assert_eq!(password_transport(12, &pal), PasswordTransport::Clear);
        pal[..2].copy_from_slice(&0u16.to_be_bytes());
        assert_eq!(password_transport(13, &pal), PasswordTransport::Clear);
    }

    #[test]
    fn adopt_context_and_fail_delay_follow_the_auth_info() {
        let directory = tempfile::tempdir().unwrap();
        let registry = UserRegistry::new(directory.path());
        registry.add("app", b"passw0rd", false).unwrap();
        let mut channel = ChannelDefinition::server_connection("DEV.APP.SVRCONN");
        channel.mca_user = "mqapp".to_string();
        let policy = Policy {
            check: CheckClient::Required,
            adopt_context: false,
            fail_delay: std::time::Duration::from_millis(200),
            auth_info: "APP.AUTH".to_string(),
        };
        let facts = ConnectionFacts {
            policy: policy.clone(),
            ..facts(&channel, CheckClient::Required, PasswordTransport::Clear)
        };
        // ADOPTCTX(NO): authenticated, but the connection runs as MCAUSER.
        assert_eq!(
            decide(&facts, Some(&credentials("app", "passw0rd")), &registry),
            Outcome::Accepted {
                user_id: "mqapp".to_string(),
                authenticated: true
            }
        );
        // FAILDLAY: a wrong password waits; a missing one does not.
        let started = std::time::Instant::now();
        let Outcome::Refused { log, .. } =
            decide(&facts, Some(&credentials("app", "wrong")), &registry)
        else {
            panic!("a wrong password is refused")
        };
        assert!(started.elapsed() >= policy.fail_delay);
        assert!(
            log.contains("CHCKCLNT(REQUIRED) of AUTHINFO(APP.AUTH)"),
            "{log}"
        );
        let started = std::time::Instant::now();
        assert!(matches!(
            decide(&facts, None, &registry),
            Outcome::Refused { .. }
        ));
        assert!(started.elapsed() < policy.fail_delay);
        assert_eq!(
            CheckClient::from_keyword("reqdadm"),
            Some(CheckClient::RequiredForPrivileged)
        );
    }

    #[test]
    fn decisions() {
        let directory = tempfile::tempdir().unwrap();
        let registry = UserRegistry::new(directory.path());
        registry.add("app", b"passw0rd", false).unwrap();
        let mut channel = ChannelDefinition::server_connection("DEV.APP.SVRCONN");
        let clear = PasswordTransport::Clear;
        let protected = PasswordTransport::Protected { algorithm: 1 };
        let good = credentials("app", "passw0rd");
        let accepted = |user: &str, authenticated| Outcome::Accepted {
            user_id: user.to_string(),
            authenticated,
        };
        let required = facts(&channel, CheckClient::Required, clear);
        assert_eq!(
            authenticate(&required, Some(&good), &registry),
            accepted("app", true)
        );
        for (bad, why) in [
            (credentials("app", "wrong"), "wrong password"),
            (credentials("nobody", "passw0rd"), "no such user"),
        ] {
            let Outcome::Refused { reason, log } = authenticate(&required, Some(&bad), &registry)
            else {
                panic!("refused")
            };
            assert_eq!(reason, MQRC_NOT_AUTHORIZED);
            assert!(log.contains("AMQ5534E") && log.contains(why) && log.contains("AMQ5541E"));
            assert!(!log.contains("passw0rd") && !log.contains("wrong'"));
        }
        let Outcome::Refused { log, .. } = authenticate(&required, None, &registry) else {
            panic!("refused without credentials")
        };
        assert!(log.contains("CHCKCLNT(REQUIRED)"));
        let protected_facts = facts(&channel, CheckClient::Optional, protected);
        let Outcome::Refused { log, .. } = authenticate(&protected_facts, Some(&good), &registry)
        else {
            panic!("a protected password cannot be checked")
        };
        assert!(log.contains("SSLCIPH"));
        assert_eq!(
            authenticate(&protected_facts, None, &registry),
            accepted("root", false)
        );
        let none = facts(&channel, CheckClient::None, protected);
        assert_eq!(
            authenticate(&none, Some(&credentials("app", "wrong")), &registry),
            accepted("root", false)
        );
        channel.mca_user = "mqapp".to_string();
        let optional = facts(&channel, CheckClient::Optional, clear);
        assert_eq!(
            authenticate(&optional, None, &registry),
            accepted("mqapp", false)
        );
        assert_eq!(
            authenticate(&optional, Some(&good), &registry),
            accepted("app", true)
        );
        assert!(matches!(
            authenticate(&optional, Some(&credentials("app", "")), &registry),
            Outcome::Refused { .. }
        ));
        // REQDADM: a privileged user must give a valid pair; anyone else is as OPTIONAL.
        let administrators = facts(&channel, CheckClient::RequiredForPrivileged, clear);
        assert_eq!(
            authenticate(&administrators, None, &registry),
            accepted("mqapp", false)
        );
        assert!(matches!(
            authenticate(
                &administrators,
                Some(&credentials("app", "wrong")),
                &registry
            ),
            Outcome::Refused { .. }
        ));
        let privileged = ConnectionFacts {
            privileged: true,
            ..facts(&channel, CheckClient::RequiredForPrivileged, clear)
        };
        let Outcome::Refused { log, .. } = authenticate(&privileged, None, &registry) else {
            panic!("a privileged user without a password is refused")
        };
        assert!(
            log.contains("CHCKCLNT(REQDADM)") && log.contains("privileged"),
            "{log}"
        );
        assert_eq!(
            authenticate(&privileged, Some(&good), &registry),
            accepted("app", true)
        );
    }
}
