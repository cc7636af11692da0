//! The coupling facility: a Redis 7 (or Valkey) server reached through the `redis` crate.
//! Every key of a group starts with `qsg:{NAME}:` (the braces make it Redis Cluster's hash
//! tag, so a group's keys share one slot and its scripts may touch any of them).

use std::time::Duration;

use ferrite_constants::reason::{MQRC_CF_NOT_AVAILABLE, MQRC_CF_STRUC_FAILED};
use ferrite_queue_manager::{CouplingFacilityStatus, SharingError};

use crate::CONNECT_TIMEOUT_MS;

/// Oldest Redis major version the coupling facility accepts (Valkey reports 7.2 here).
pub const REDIS_MAJOR_VERSION_MIN: u32 = 7;

/// A connection to the group's coupling facility. A connection that fails in use (the
/// server stopped or restarted) fails that call with MQRC_CF_STRUC_FAILED and is made again
/// by the next call; a call is never repeated, since the server may have applied it.
pub struct CouplingFacility {
    url: String,
    /// None after a connection failure, until the next call connects again.
    connection: Option<redis::Connection>,
}

impl CouplingFacility {
    /// Connect to `url` and check the server: reachable, answering, Redis 7 or later.
    pub fn connect(url: &str) -> Result<CouplingFacility, SharingError> {
        Ok(CouplingFacility {
            url: url.to_string(),
            connection: Some(open(url)?),
        })
    }

    /// The server's memory and identity (DISPLAY CFSTATUS, DISPLAY GROUP).
    pub fn status(&mut self) -> Result<CouplingFacilityStatus, SharingError> {
        let (server, memory) = self.run(|connection| {
            let server = server_info(connection)?;
            let memory: String = redis::cmd("INFO").arg("memory").query(connection)?;
            Ok((server, memory))
        })?;
        Ok(CouplingFacilityStatus {
            server: format!("{} {}", server.product, server.version),
            used_bytes: info_field(&memory, "used_memory").unwrap_or(0),
            limit_bytes: info_field(&memory, "maxmemory").unwrap_or(0),
        })
    }

    /// Run `call` on the connection, connecting again first if the last call lost it:
    /// MQRC_CF_NOT_AVAILABLE when that fails, MQRC_CF_STRUC_FAILED when `call` fails.
    pub fn run<T>(
        &mut self,
        call: impl FnOnce(&mut redis::Connection) -> redis::RedisResult<T>,
    ) -> Result<T, SharingError> {
        if self.connection.is_none() {
            self.connection = Some(open(&self.url)?);
        }
        let connection = self.connection.as_mut().expect("connected above");
        call(connection).map_err(|error| {
            if error.is_io_error() || error.is_connection_dropped() || error.is_timeout() {
                self.connection = None;
            }
            SharingError::new(
                MQRC_CF_STRUC_FAILED,
                format!("coupling facility {} failed: {error}", self.url),
            )
        })
    }
}

/// A new connection to `url`, checked: reachable, answering, Redis 7 or later.
fn open(url: &str) -> Result<redis::Connection, SharingError> {
    let unavailable = |why: String| {
        SharingError::new(
            MQRC_CF_NOT_AVAILABLE,
            format!("coupling facility {url} is not available: {why}"),
        )
    };
    let client = redis::Client::open(url).map_err(|error| {
        unavailable(format!(
            "{error}; correct coupling_facility in [queue_sharing_group] of qm.toml"
        ))
    })?;
    let mut connection = client
        .get_connection_with_timeout(Duration::from_millis(CONNECT_TIMEOUT_MS))
        .map_err(|error| {
            unavailable(format!(
                "{error}; start the Redis (or Valkey) server or correct its address"
            ))
        })?;
    let server = server_info(&mut connection).map_err(|error| unavailable(error.to_string()))?;
    if server.major_version < REDIS_MAJOR_VERSION_MIN {
        return Err(unavailable(format!(
            "it is {} {}; a coupling facility needs Redis {REDIS_MAJOR_VERSION_MIN} or later (or Valkey)",
            server.product, server.version
        )));
    }
    Ok(connection)
}

fn server_info(connection: &mut redis::Connection) -> redis::RedisResult<ServerInfo> {
    let text: String = redis::cmd("INFO").arg("server").query(connection)?;
    Ok(ServerInfo::parse(&text))
}

/// What `INFO server` says about the server.
struct ServerInfo {
    product: &'static str,
    version: String,
    major_version: u32,
}

impl ServerInfo {
    fn parse(text: &str) -> ServerInfo {
        let field = |name: &str| {
            text.lines()
                .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
                .map(|value| value.trim().to_string())
        };
        let redis_version = field("redis_version").unwrap_or_default();
        let major_version = redis_version
            .split('.')
            .next()
            .and_then(|major| major.parse().ok())
            .unwrap_or(0);
        match field("valkey_version") {
            Some(version) => ServerInfo {
                product: "valkey",
                version,
                major_version,
            },
            None => ServerInfo {
                product: "redis",
                version: redis_version,
                major_version,
            },
        }
    }
}

/// A numeric field of an `INFO` section.
fn info_field(text: &str, name: &str) -> Option<u64> {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
        .and_then(|value| value.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_info_names_redis_and_valkey() {
        let redis =
            ServerInfo::parse("# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n");
        assert_eq!((redis.product, redis.major_version), ("redis", 7));
        assert_eq!(redis.version, "7.0.15");
        let valkey = ServerInfo::parse("redis_version:7.2.4\r\nvalkey_version:8.0.1\r\n");
        assert_eq!(
            (valkey.product, valkey.version.as_str()),
            ("valkey", "8.0.1")
        );
        assert_eq!(ServerInfo::parse("").major_version, 0);
    }

    #[test]
    fn info_fields_are_read_by_exact_name() {
        let text = "used_memory:1024\r\nused_memory_human:1K\r\nmaxmemory:0\r\n";
        assert_eq!(info_field(text, "used_memory"), Some(1024));
        assert_eq!(info_field(text, "maxmemory"), Some(0));
        assert_eq!(info_field(text, "absent"), None);
    }

    #[test]
    fn a_malformed_url_is_cf_not_available() {
        let error = CouplingFacility::connect("redis://127.0.0.1:notaport")
            .err()
            .expect("a malformed URL fails");
        assert_eq!(error.reason, MQRC_CF_NOT_AVAILABLE);
        assert!(error.text.contains("qm.toml"), "{}", error.text);
    }
}
