//! Queue manager configuration: the analogue of z/OS's system parameter macros (CSQ6SYSP, LOGLOAD),
//! log parameters (CSQ6LOGP: OUTBUFF, WRTHRSH, TWOACTV), archive parameters (CSQ6ARVP) and the
//! CSQINP1 definitions of buffer pools and page sets.
//!
//! Stored as `qm.toml` in the queue manager's data directory, written on first use with the
//! defaults below. Every value is checked against MQ's documented range before use.

use serde::{Deserialize, Serialize};

use crate::error::{StorageError, StorageResult};

/// Name of the configuration file inside the data directory.
pub const CONFIG_FILE_NAME: &str = "qm.toml";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QueueManagerConfig {
    /// Queue manager name, 1–48 characters of MQ's object-name alphabet.
    pub name: String,
    pub system: SystemParameters,
    pub log: LogParameters,
    pub archive: ArchiveParameters,
    pub buffer_pools: Vec<BufferPoolDefinition>,
    pub page_sets: Vec<PageSetDefinition>,
    /// The channel initiator (client connections over TCP). Absent in files written before it
    /// existed: the defaults apply.
    #[serde(default)]
    pub channel_initiator: ChannelInitiatorParameters,
    /// Who is a privileged user (CHCKCLNT/CHCKLOCL REQDADM). Absent in files written before
    /// it existed: the defaults apply.
    #[serde(default)]
    pub security: SecurityParameters,
    /// Membership of a queue sharing group (`ferrite create --qsg`); absent for a queue
    /// manager outside any group, which then needs neither server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_sharing_group: Option<QueueSharingGroupParameters>,
    /// The HTTP server (REST API, metrics, web console). Absent in files written before it
    /// existed: the defaults apply.
    #[serde(default)]
    pub web: WebParameters,
}

/// `[queue_sharing_group]`: the group this queue manager is a member of and where the group's
/// coupling facility (Redis or Valkey) and shared repository (PostgreSQL, MQ's Db2) are. Both
/// are connected to at start (ferrite-sharing).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QueueSharingGroupParameters {
    /// The group's name (QSGNAME): 1-4 characters A-Z 0-9 @ # $, starting with a letter.
    pub name: String,
    /// The coupling facility: a `redis://` (or `rediss://`, `redis+unix://`) URL.
    pub coupling_facility: String,
    /// The shared repository: a `postgresql://` (or `postgres://`) URL.
    pub repository: String,
}

/// Longest queue sharing group name (MQ for z/OS: 4 characters).
pub const QUEUE_SHARING_GROUP_NAME_LENGTH_MAX: usize = 4;

impl QueueSharingGroupParameters {
    /// Check the name and the two URLs' schemes.
    pub fn validate(&self) -> StorageResult<()> {
        let name_ok = !self.name.is_empty()
            && self.name.len() <= QUEUE_SHARING_GROUP_NAME_LENGTH_MAX
            && self.name.starts_with(|c: char| c.is_ascii_uppercase())
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || "@#$".contains(c));
        if !name_ok {
            return Err(StorageError::invalid(format!(
                "queue sharing group name '{}' must be 1-4 characters A-Z 0-9 @ # $, starting with a letter",
                self.name
            )));
        }
        let coupling_schemes = ["redis://", "rediss://", "redis+unix://", "unix://"];
        if !coupling_schemes
            .iter()
            .any(|scheme| self.coupling_facility.starts_with(scheme))
        {
            return Err(StorageError::invalid(format!(
                "coupling facility '{}' must be a redis:// URL (Redis 7 or Valkey)",
                self.coupling_facility
            )));
        }
        if !["postgresql://", "postgres://"]
            .iter()
            .any(|scheme| self.repository.starts_with(scheme))
        {
            return Err(StorageError::invalid(format!(
                "shared repository '{}' must be a postgresql:// URL",
                self.repository
            )));
        }
        Ok(())
    }
}

/// `[web]`: the queue manager's HTTP server (ferrite-web: IBM MQ's administrative and
/// messaging REST API, `/metrics`, the web console), mqweb's analogue.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WebParameters {
    /// Start the HTTP server with the queue manager.
    #[serde(default = "default_web_enabled")]
    pub enabled: bool,
    /// Address and port it listens on (mqweb's default port 9443). Plain HTTP on a loopback
    /// address; any other address serves HTTPS only, with the queue manager's certificate
    /// from its TLS key repository. Port 0 picks a free port, written to `web.port`.
    #[serde(default = "default_web_address")]
    pub address: String,
}

/// The HTTP server's address on a new queue manager: this machine only, mqweb's port.
pub const DEFAULT_WEB_ADDRESS: &str = "127.0.0.1:9443";

fn default_web_enabled() -> bool {
    true
}

fn default_web_address() -> String {
    DEFAULT_WEB_ADDRESS.to_string()
}

impl Default for WebParameters {
    fn default() -> WebParameters {
        WebParameters {
            enabled: default_web_enabled(),
            address: default_web_address(),
        }
    }
}

/// `[security]`: the privileged users of MQ on Linux (the mqm group and the user who runs the
/// queue manager), whom REQDADM asks for a password
/// (ferrite-queue-manager's `security/connection_authentication.rs`). Read at start.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SecurityParameters {
    /// Members of this operating-system group are privileged (MQ: `mqm`); blank: no group.
    #[serde(default = "default_privileged_group")]
    pub privileged_group: String,
    /// Further privileged user names.
    #[serde(default)]
    pub privileged_users: Vec<String>,
    /// Whether the user the queue manager runs as is privileged (MQ: always; `false` only for
    /// a queue manager whose owner also runs its applications, such as a test machine's).
    #[serde(default = "default_owner_privileged")]
    pub owner_privileged: bool,
}

fn default_privileged_group() -> String {
    "mqm".to_string()
}

fn default_owner_privileged() -> bool {
    true
}

impl Default for SecurityParameters {
    fn default() -> SecurityParameters {
        SecurityParameters {
            privileged_group: default_privileged_group(),
            privileged_users: Vec::new(),
            owner_privileged: default_owner_privileged(),
        }
    }
}

/// CSQ6CHIP analogue plus the listener that `START LISTENER` would start.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChannelInitiatorParameters {
    /// Start the TCP listener with the queue manager.
    pub listener: bool,
    /// Address the listener binds: "127.0.0.1" on a new queue manager (clients on this machine
    /// only, until an administrator opens it), "0.0.0.0" (every interface, MQ's behaviour) or
    /// one address.
    pub address: String,
    /// TCP port (MQ's default 1414); 0 picks a free port, written to `listener.port`.
    pub port: u16,
    /// Client sockets served at once (MAXCHL: 1 – 9,999).
    pub max_channels: u32,
    /// CHIDISPS: dispatcher threads, which own the client sockets (1 – 9,999). 0, the
    /// default, is MQ's CHIDISPS(5) but no more than the machine's processors (a dispatcher
    /// never blocks, so more only adds switching).
    #[serde(default)]
    pub dispatchers: u32,
    /// CHIADAPS: adapter threads, which make the clients' MQI calls (1 – 9,999; MQ's default
    /// 8; MP16 advises 30 and more for heavy persistent work, whose adapters wait for the log).
    #[serde(default = "default_adapters")]
    pub adapters: u32,
    /// The TLS key repository (MQ's SSLKEYR): a directory, relative to the queue manager's
    /// directory unless absolute, holding qm.crt, qm.key and ca.crt (ferrite-server's tls.rs).
    #[serde(default = "default_ssl_key_repository")]
    pub ssl_key_repository: String,
}

/// The listener's address on a new queue manager: clients on this machine only.
pub const LOOPBACK_ADDRESS: &str = "127.0.0.1";

fn default_adapters() -> u32 {
    8
}

fn default_ssl_key_repository() -> String {
    "tls".to_string()
}

impl Default for ChannelInitiatorParameters {
    fn default() -> ChannelInitiatorParameters {
        ChannelInitiatorParameters {
            listener: true,
            address: LOOPBACK_ADDRESS.to_string(),
            port: 1414,
            max_channels: 2048,
            dispatchers: 0,
            adapters: default_adapters(),
            ssl_key_repository: default_ssl_key_repository(),
        }
    }
}

/// CSQ6SYSP analogue.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SystemParameters {
    /// Log records written between checkpoints (200 – 16,000,000; MQ default 500,000).
    pub logload: u64,
    /// Maximum messages put or got in one unit of recovery (QMGR MAXUMSGS; MQ default 10,000).
    pub maxumsgs: u32,
    /// Seconds between scans that delete expired messages (QMGR EXPRYINT): 0 = off (MQ's
    /// default), otherwise 5 – 99,999,999.
    #[serde(default)]
    pub expryint: u32,
    /// QINDXBLD: at restart, build the queues' MSGID/CORRELID indexes before the queue manager
    /// is available (WAIT, MQ's default) or in the background after (NOWAIT). With NOWAIT a get
    /// by an indexed identifier on a queue whose index is not built yet waits for it (or builds
    /// it, paying its CPU), as MQ's gets wait; every other get is served at once.
    #[serde(default)]
    pub qindxbld: IndexBuild,
    /// STATIME: minutes between statistics records (0 – 1440; 0 = none at intervals, only
    /// on demand; MQ's default 30).
    #[serde(default = "default_statime")]
    pub statime: u32,
}

fn default_statime() -> u32 {
    30
}

/// QINDXBLD(WAIT|NOWAIT).
#[derive(Copy, Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "UPPERCASE")]
pub enum IndexBuild {
    #[default]
    Wait,
    Nowait,
}

/// CSQ6LOGP analogue.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LogParameters {
    /// Log output buffer size in KiB (OUTBUFF: 40 – 4000, a multiple of 4).
    pub outbuff_kib: u32,
    /// Full 4 KiB buffers that start a write before any commit asks (WRTHRSH: 1 – 256).
    pub wrthrsh: u32,
    /// Dual active logging (TWOACTV). Each copy is written before a commit returns.
    pub twoactv: bool,
    /// Number of active log files in the ring (2 – 310).
    pub active_log_count: u32,
    /// Size of each active log file in MiB (1 – 4096).
    pub active_log_size_mib: u32,
}

/// CSQ6ARVP analogue.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ArchiveParameters {
    /// Directory for archive logs; relative paths are inside the data directory.
    pub directory: String,
    /// Compress archive logs (deflate). MP16 warns that compressed media read slowly backwards.
    pub compress: bool,
    /// Write two archive copies (TWOARCH).
    pub twoarch: bool,
    /// ARCRETN: days an archive log is kept before it may be deleted (0 – 9999; MQ's default
    /// 9999). An archive still needed for restart or for media recovery of a page set from its
    /// last registered backup is never deleted (see `log/retention.rs`).
    #[serde(default = "default_retention_days")]
    pub retention_days: u32,
    /// MAXARCH: archive logs kept at most (10 – 1000; MQ's default 500). Beyond it the oldest
    /// are deleted, unless still needed as above.
    #[serde(default = "default_max_archives")]
    pub max_archives: u32,
}

/// MQ's ARCRETN default, days.
pub const ARCHIVE_RETENTION_DAYS_DEFAULT: u32 = 9999;
/// MQ's MAXARCH default.
pub const MAX_ARCHIVES_DEFAULT: u32 = 500;

fn default_retention_days() -> u32 {
    ARCHIVE_RETENTION_DAYS_DEFAULT
}

fn default_max_archives() -> u32 {
    MAX_ARCHIVES_DEFAULT
}

/// `DEFINE BUFFPOOL(n) BUFFERS(m) PAGECLAS(c)` analogue.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BufferPoolDefinition {
    pub id: u8,
    /// Number of 4 KiB buffers (MQ minimum 100).
    pub buffers: u32,
    /// PAGECLAS: pageable buffers, or buffers fixed in memory (absent in qm.toml: 4KB).
    #[serde(default, skip_serializing_if = "PageClass::is_pageable")]
    pub page_class: PageClass,
}

/// A buffer pool's page class (PAGECLAS), as MQ for z/OS has it: `4KB` buffers are pageable,
/// `FIXED4KB` buffers are fixed in real storage (on Linux: locked in memory with `mlock`, so
/// the operating system never pages them out and never has to fault them in). FIXED1MB (z/OS
/// large frames) has no counterpart here.
#[derive(Copy, Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub enum PageClass {
    #[default]
    #[serde(rename = "4KB")]
    Pageable,
    #[serde(rename = "FIXED4KB")]
    Fixed,
}

impl PageClass {
    pub fn is_pageable(&self) -> bool {
        *self == PageClass::Pageable
    }

    /// The MQSC value.
    pub fn keyword(self) -> &'static str {
        match self {
            PageClass::Pageable => "4KB",
            PageClass::Fixed => "FIXED4KB",
        }
    }
}

/// Page set expansion policy, EXPAND(USER|SYSTEM|NONE).
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "UPPERCASE")]
pub enum Expand {
    /// Grow by the secondary extent size.
    User,
    /// Grow by 10% of the current size (at least the secondary extent).
    System,
    /// Never grow.
    None,
}

/// `DEFINE PSID(n) BUFFPOOL(m)` plus the data set allocation (primary and secondary extents).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PageSetDefinition {
    pub id: u8,
    pub buffer_pool: u8,
    /// Size when formatted, in 4 KiB pages.
    pub primary_pages: u32,
    /// Growth per expansion, in 4 KiB pages.
    pub secondary_pages: u32,
    pub expand: Expand,
    /// Maximum size in 4 KiB pages (MQ's limit is 64 GiB = 16,777,216 pages).
    pub maximum_pages: u32,
}

/// Page set size limit of MQ 6 and later: 64 GiB of 4 KiB pages.
pub const PAGE_SET_PAGES_MAX: u32 = 16 * 1024 * 1024;

impl QueueManagerConfig {
    /// MQ's defaults shrunk for tests and examples, quick to create: three 1 MiB active logs,
    /// 256 KiB OUTBUFF, 200 buffers per pool, page sets of 256 pages growing by 256.
    pub fn small(name: &str) -> QueueManagerConfig {
        let mut config = QueueManagerConfig::with_defaults(name);
        config.log.active_log_size_mib = 1;
        config.log.active_log_count = 3;
        config.log.outbuff_kib = 256;
        for pool in &mut config.buffer_pools {
            pool.buffers = 200;
        }
        for page_set in &mut config.page_sets {
            page_set.primary_pages = 256;
            page_set.secondary_pages = 256;
        }
        config
    }

    /// The configuration a new queue manager gets: four buffer pools and four page sets,
    /// as MP16 recommends (page set 0 for objects, 1 for system queues, 2 and 3 for applications).
    pub fn with_defaults(name: &str) -> QueueManagerConfig {
        let page_set = |id: u8, buffer_pool: u8| PageSetDefinition {
            id,
            buffer_pool,
            primary_pages: 2048,
            secondary_pages: 4096,
            expand: Expand::System,
            maximum_pages: PAGE_SET_PAGES_MAX,
        };
        QueueManagerConfig {
            name: name.to_string(),
            system: SystemParameters {
                logload: 500_000,
                maxumsgs: 10_000,
                expryint: 0,
                qindxbld: IndexBuild::Wait,
                statime: default_statime(),
            },
            log: LogParameters {
                outbuff_kib: 4000,
                wrthrsh: 20,
                twoactv: false,
                active_log_count: 4,
                active_log_size_mib: 64,
            },
            archive: ArchiveParameters {
                directory: "archive".to_string(),
                compress: false,
                twoarch: false,
                retention_days: ARCHIVE_RETENTION_DAYS_DEFAULT,
                max_archives: MAX_ARCHIVES_DEFAULT,
            },
            buffer_pools: vec![
                BufferPoolDefinition {
                    id: 0,
                    buffers: 1050,
                    page_class: PageClass::Pageable,
                },
                BufferPoolDefinition {
                    id: 1,
                    buffers: 1050,
                    page_class: PageClass::Pageable,
                },
                BufferPoolDefinition {
                    id: 2,
                    buffers: 20_000,
                    page_class: PageClass::Pageable,
                },
                BufferPoolDefinition {
                    id: 3,
                    buffers: 20_000,
                    page_class: PageClass::Pageable,
                },
            ],
            page_sets: vec![
                page_set(0, 0),
                page_set(1, 1),
                page_set(2, 2),
                page_set(3, 3),
            ],
            channel_initiator: ChannelInitiatorParameters::default(),
            security: SecurityParameters::default(),
            queue_sharing_group: None,
            web: WebParameters::default(),
        }
    }

    pub fn from_toml(text: &str) -> StorageResult<QueueManagerConfig> {
        let config: QueueManagerConfig = toml::from_str(text)
            .map_err(|error| StorageError::invalid(format!("configuration: {error}")))?;
        config.validate()?;
        Ok(config)
    }

    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("configuration serialises")
    }

    /// Check every value against MQ's documented range.
    pub fn validate(&self) -> StorageResult<()> {
        let fail = |detail: String| Err(StorageError::invalid(detail));
        if self.name.is_empty()
            || self.name.len() > 48
            || !self.name.chars().all(is_object_name_char)
        {
            return fail(format!(
                "queue manager name '{}' must be 1-48 characters of A-Z a-z 0-9 . / _ %",
                self.name
            ));
        }
        if !(200..=16_000_000).contains(&self.system.logload) {
            return fail(format!(
                "LOGLOAD {} is outside 200-16000000",
                self.system.logload
            ));
        }
        if self.archive.retention_days > 9999 {
            return fail(format!(
                "ARCRETN {} days is outside 0-9999",
                self.archive.retention_days
            ));
        }
        if !(10..=1000).contains(&self.archive.max_archives) {
            return fail(format!(
                "MAXARCH {} is outside 10-1000",
                self.archive.max_archives
            ));
        }
        if !(1..=999_999_999).contains(&self.system.maxumsgs) {
            return fail(format!(
                "MAXUMSGS {} is outside 1-999999999",
                self.system.maxumsgs
            ));
        }
        if self.system.expryint != 0 && !(5..=99_999_999).contains(&self.system.expryint) {
            return fail(format!(
                "EXPRYINT {} must be 0 (off) or 5-99999999 seconds",
                self.system.expryint
            ));
        }
        if self.system.statime > 1440 {
            return fail(format!(
                "STATIME {} is outside 0-1440 minutes",
                self.system.statime
            ));
        }
        let chinit = &self.channel_initiator;
        if chinit.address.parse::<std::net::IpAddr>().is_err() {
            return fail(format!(
                "channel_initiator address '{}' is not an IP address (e.g. 0.0.0.0 or 127.0.0.1)",
                chinit.address
            ));
        }
        if !(1..=9_999).contains(&chinit.max_channels) {
            return fail(format!(
                "channel_initiator max_channels (MAXCHL) {} is outside 1-9999",
                chinit.max_channels
            ));
        }
        if chinit.dispatchers > 9_999 {
            return fail(format!(
                "channel_initiator dispatchers (CHIDISPS) {} is outside 0-9999 (0: one per processor, at most 5)",
                chinit.dispatchers
            ));
        }
        if !(1..=9_999).contains(&chinit.adapters) {
            return fail(format!(
                "channel_initiator adapters (CHIADAPS) {} is outside 1-9999",
                chinit.adapters
            ));
        }
        if self.web.address.parse::<std::net::SocketAddr>().is_err() {
            return fail(format!(
                "web address '{}' is not an IP address and port (e.g. 127.0.0.1:9443 or 0.0.0.0:9443)",
                self.web.address
            ));
        }
        if !(40..=4000).contains(&self.log.outbuff_kib) || !self.log.outbuff_kib.is_multiple_of(4) {
            return fail(format!(
                "OUTBUFF {} must be a multiple of 4 in 40-4000",
                self.log.outbuff_kib
            ));
        }
        if !(1..=256).contains(&self.log.wrthrsh) || self.log.wrthrsh > self.log.outbuff_kib / 4 {
            return fail(format!(
                "WRTHRSH {} must be 1-256 and at most OUTBUFF/4",
                self.log.wrthrsh
            ));
        }
        if !(2..=310).contains(&self.log.active_log_count) {
            return fail(format!(
                "{} active logs is outside 2-310",
                self.log.active_log_count
            ));
        }
        if !(1..=4096).contains(&self.log.active_log_size_mib) {
            return fail(format!(
                "active log size {} MiB is outside 1-4096",
                self.log.active_log_size_mib
            ));
        }
        let mut pools = [false; 100];
        for pool in &self.buffer_pools {
            if pool.id > 99 || pools[pool.id as usize] {
                return fail(format!(
                    "buffer pool {} is out of range or defined twice",
                    pool.id
                ));
            }
            if pool.buffers < 100 {
                return fail(format!(
                    "buffer pool {} has {} buffers; the minimum is 100",
                    pool.id, pool.buffers
                ));
            }
            pools[pool.id as usize] = true;
        }
        let mut page_sets = [false; 100];
        for page_set in &self.page_sets {
            if page_set.id > 99 || page_sets[page_set.id as usize] {
                return fail(format!(
                    "page set {} is out of range or defined twice",
                    page_set.id
                ));
            }
            if page_set.buffer_pool > 99 || !pools[page_set.buffer_pool as usize] {
                return fail(format!(
                    "page set {} uses undefined buffer pool {}",
                    page_set.id, page_set.buffer_pool
                ));
            }
            if page_set.primary_pages < 16 || page_set.primary_pages > page_set.maximum_pages {
                return fail(format!(
                    "page set {} primary size {} pages must be 16 to its maximum",
                    page_set.id, page_set.primary_pages
                ));
            }
            if page_set.maximum_pages > PAGE_SET_PAGES_MAX {
                return fail(format!("page set {} maximum exceeds 64 GiB", page_set.id));
            }
            page_sets[page_set.id as usize] = true;
        }
        if !page_sets[0] {
            return fail("page set 0 (object definitions) must be defined".to_string());
        }
        if let Some(group) = &self.queue_sharing_group {
            group.validate()?;
        }
        Ok(())
    }
}

/// Characters MQ allows in object names.
pub fn is_object_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '%')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_and_validate() {
        let config = QueueManagerConfig::with_defaults("QM1");
        let text = config.to_toml();
        assert_eq!(QueueManagerConfig::from_toml(&text).unwrap(), config);
    }

    #[test]
    fn a_queue_sharing_group_section_round_trips_and_is_checked() {
        let mut config = QueueManagerConfig::with_defaults("QM1");
        assert!(!config.to_toml().contains("queue_sharing_group"));
        config.queue_sharing_group = Some(QueueSharingGroupParameters {
            name: "QSG1".to_string(),
            coupling_facility: "redis://127.0.0.1:6379/".to_string(),
            repository: "postgresql://127.0.0.1/ferrite".to_string(),
        });
        let text = config.to_toml();
        assert!(text.contains("[queue_sharing_group]"), "{text}");
        assert_eq!(QueueManagerConfig::from_toml(&text).unwrap(), config);
        for (name, coupling_facility, repository) in [
            ("QSG12", "redis://h/", "postgresql://h/d"),
            ("1QSG", "redis://h/", "postgresql://h/d"),
            ("qsg1", "redis://h/", "postgresql://h/d"),
            ("QSG1", "http://h/", "postgresql://h/d"),
            ("QSG1", "redis://h/", "mysql://h/d"),
        ] {
            config.queue_sharing_group = Some(QueueSharingGroupParameters {
                name: name.to_string(),
                coupling_facility: coupling_facility.to_string(),
                repository: repository.to_string(),
            });
            assert!(
                config.validate().is_err(),
                "{name} {coupling_facility} {repository}"
            );
        }
    }

    #[test]
    fn a_new_queue_managers_listener_serves_this_machine_only() {
        let config = QueueManagerConfig::with_defaults("QM1");
        let address: std::net::IpAddr = config.channel_initiator.address.parse().unwrap();
        assert!(address.is_loopback(), "{address}");
        assert!(config.to_toml().contains("address = \"127.0.0.1\""));
    }

    #[test]
    fn out_of_range_values_are_refused() {
        let mut config = QueueManagerConfig::with_defaults("QM1");
        config.system.logload = 100;
        assert!(config
            .validate()
            .unwrap_err()
            .to_string()
            .contains("LOGLOAD"));
        let mut config = QueueManagerConfig::with_defaults("QM1");
        config.page_sets[1].buffer_pool = 42;
        assert!(config
            .validate()
            .unwrap_err()
            .to_string()
            .contains("buffer pool 42"));
        let mut config = QueueManagerConfig::with_defaults("bad name!");
        config.name = "bad name!".into();
        assert!(config.validate().is_err());
        let mut config = QueueManagerConfig::with_defaults("QM1");
        config.channel_initiator.adapters = 0;
        assert!(config
            .validate()
            .unwrap_err()
            .to_string()
            .contains("CHIADAPS"));
        let mut config = QueueManagerConfig::with_defaults("QM1");
        config.channel_initiator.dispatchers = 10_000;
        assert!(config
            .validate()
            .unwrap_err()
            .to_string()
            .contains("CHIDISPS"));
    }

    #[test]
    fn a_channel_initiator_section_without_dispatchers_and_adapters_takes_the_defaults() {
        let config = QueueManagerConfig::with_defaults("QM1");
        let text = config
            .to_toml()
            .lines()
            .filter(|line| !line.starts_with("dispatchers") && !line.starts_with("adapters"))
            .collect::<Vec<_>>()
            .join("\n");
        let parsed = QueueManagerConfig::from_toml(&text).unwrap();
        assert_eq!(parsed.channel_initiator.dispatchers, 0);
        assert_eq!(parsed.channel_initiator.adapters, 8);
    }
}
