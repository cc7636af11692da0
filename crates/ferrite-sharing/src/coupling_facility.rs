//! The coupling facility: a Redis 7 (or Valkey) server reached through the `redis` crate.
//! Every key of a group starts with `qsg:{NAME}:` (the braces make it Redis Cluster's hash
//! tag, so a group's keys share one slot and its scripts may touch any of them).

use std::time::Duration;

use ferrite_constants::reason::{MQRC_CF_NOT_AVAILABLE, MQRC_CF_STRUC_FAILED};
use ferrite_queue_manager::{CouplingFacilityStatus, SharingError};

use crate::CONNECT_TIMEOUT_MS;

/// Oldest Redis major version the coupling facility accepts (Valkey reports 7.2 here).
pub const REDIS_MAJOR_VERSION_MIN: u32 = 7;

/// An open connection to the group's coupling facility.
pub struct CouplingFacility {
    url: String,
    connection: redis::Connection,
}

impl CouplingFacility {
    /// Connect to `url` and check the server: reachable, answering, Redis 7 or later.
    pub fn connect(url: &str) -> Result<CouplingFacility, SharingError> {
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
        let connection = client
            .get_connection_with_timeout(Duration::from_millis(CONNECT_TIMEOUT_MS))
            .map_err(|error| {
                unavailable(format!(
                    "{error}; start the Redis (or Valkey) server or correct its address"
                ))
            })?;
        let mut facility = CouplingFacility {
            url: url.to_string(),
            connection,
        };
        let server = facility
            .server_info()
            .map_err(|error| unavailable(error.to_string()))?;
        if server.major_version < REDIS_MAJOR_VERSION_MIN {
            return Err(unavailable(format!(
                "it is {} {}; a coupling facility needs Redis {REDIS_MAJOR_VERSION_MIN} or later (or Valkey)",
                server.product, server.version
            )));
        }
        Ok(facility)
    }

    /// The server's memory and identity (DISPLAY CFSTATUS, DISPLAY GROUP).
    pub fn status(&mut self) -> Result<CouplingFacilityStatus, SharingError> {
        let server = self.server_info().map_err(|error| self.failed(error))?;
        let memory: String = redis::cmd("INFO")
            .arg("memory")
            .query(&mut self.connection)
            .map_err(|error| self.failed(error))?;
        Ok(CouplingFacilityStatus {
            server: format!("{} {}", server.product, server.version),
            used_bytes: info_field(&memory, "used_memory").unwrap_or(0),
            limit_bytes: info_field(&memory, "maxmemory").unwrap_or(0),
        })
    }

    /// The open connection, for the structures' commands and scripts.
    pub fn connection(&mut self) -> &mut redis::Connection {
        &mut self.connection
    }

    /// A failure of a connection in use: MQRC_CF_STRUC_FAILED.
    pub fn failed(&self, error: redis::RedisError) -> SharingError {
        SharingError::new(
            MQRC_CF_STRUC_FAILED,
            format!("coupling facility {} failed: {error}", self.url),
        )
    }

    fn server_info(&mut self) -> redis::RedisResult<ServerInfo> {
        let text: String = redis::cmd("INFO")
            .arg("server")
            .query(&mut self.connection)?;
        Ok(ServerInfo::parse(&text))
    }
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
