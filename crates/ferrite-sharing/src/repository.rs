//! The shared repository: PostgreSQL in the place of MQ's Db2 data-sharing group. One
//! database may hold several queue sharing groups; every row names its group. The tables
//! (docs/formats.md, "Queue sharing groups") are created by the first member of the first
//! group, as CSQ5PQSG ADD QSG does, under an advisory lock so that members created at once do
//! not race.

use std::time::Duration;

use ferrite_constants::reason::{
    MQRC_DB2_NOT_AVAILABLE, MQRC_OBJECT_ALREADY_EXISTS, MQRC_Q_MGR_NAME_ERROR,
    MQRC_RESOURCE_PROBLEM, MQRC_UNKNOWN_OBJECT_NAME,
};
use ferrite_queue_manager::{
    CfStructure, ConnectivityLoss, OffloadTarget, QueueDefinition, SharedQueueDefinition,
    SharingError, SharingGroupMember, QUEUE_SHARING_GROUP_MEMBERS_MAX,
};

use crate::CONNECT_TIMEOUT_MS;

/// The version of the tables below; a repository of another version is refused.
pub const SCHEMA_VERSION: i32 = 2;

/// The advisory lock key held while the tables are created and members added ("FQSG").
const SCHEMA_LOCK_KEY: i64 = 0x4651_5347;

/// The tables, created when absent.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS ferrite_schema (
    version integer NOT NULL
);
CREATE TABLE IF NOT EXISTS ferrite_qsg (
    qsg_name varchar(4) PRIMARY KEY,
    created_ms bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS ferrite_qsg_member (
    qsg_name varchar(4) NOT NULL REFERENCES ferrite_qsg (qsg_name),
    qmgr_name varchar(48) NOT NULL,
    qmgr_number integer NOT NULL CHECK (qmgr_number BETWEEN 1 AND 32),
    active boolean NOT NULL,
    version varchar(32) NOT NULL,
    joined_ms bigint NOT NULL,
    started_ms bigint NOT NULL,
    PRIMARY KEY (qsg_name, qmgr_name),
    UNIQUE (qsg_name, qmgr_number)
);
CREATE TABLE IF NOT EXISTS ferrite_cf_structure (
    qsg_name varchar(4) NOT NULL REFERENCES ferrite_qsg (qsg_name),
    struc_name varchar(12) NOT NULL,
    description varchar(64) NOT NULL,
    cflevel integer NOT NULL CHECK (cflevel BETWEEN 1 AND 5),
    recover boolean NOT NULL,
    offload varchar(4) NOT NULL CHECK (offload IN ('DB2', 'SMDS')),
    offload_thresholds integer[3] NOT NULL,
    offload_sizes_kib integer[3] NOT NULL,
    dsgroup varchar(44) NOT NULL,
    dsblock_kib integer NOT NULL,
    dsbufs integer NOT NULL,
    dsexpand boolean NOT NULL,
    cfconlos varchar(9) NOT NULL CHECK (cfconlos IN ('TERMINATE', 'TOLERATE', 'ASQMGR')),
    recauto boolean NOT NULL,
    created_ms bigint NOT NULL,
    altered_ms bigint NOT NULL,
    PRIMARY KEY (qsg_name, struc_name)
);
CREATE TABLE IF NOT EXISTS ferrite_shared_queue (
    qsg_name varchar(4) NOT NULL REFERENCES ferrite_qsg (qsg_name),
    queue_name varchar(48) NOT NULL,
    struc_name varchar(12) NOT NULL,
    image bytea NOT NULL,
    created_ms bigint NOT NULL,
    altered_ms bigint NOT NULL,
    PRIMARY KEY (qsg_name, queue_name)
);
CREATE TABLE IF NOT EXISTS ferrite_cf_structure_state (
    qsg_name varchar(4) NOT NULL REFERENCES ferrite_qsg (qsg_name),
    struc_name varchar(12) NOT NULL,
    status varchar(10) NOT NULL CHECK (status IN ('ACTIVE', 'FAILED', 'RECOVERED')),
    failed_ms bigint,
    PRIMARY KEY (qsg_name, struc_name)
);
CREATE TABLE IF NOT EXISTS ferrite_cf_backup (
    qsg_name varchar(4) NOT NULL REFERENCES ferrite_qsg (qsg_name),
    struc_name varchar(12) NOT NULL,
    qmgr_name varchar(48) NOT NULL,
    start_rba bigint NOT NULL,
    end_rba bigint NOT NULL,
    taken_ms bigint NOT NULL,
    messages bigint NOT NULL,
    bytes bigint NOT NULL,
    PRIMARY KEY (qsg_name, struc_name)
);
CREATE TABLE IF NOT EXISTS ferrite_qsg_member_directory (
    qsg_name varchar(4) NOT NULL REFERENCES ferrite_qsg (qsg_name),
    qmgr_name varchar(48) NOT NULL,
    directory text NOT NULL,
    PRIMARY KEY (qsg_name, qmgr_name)
);
";

/// A connection to the shared repository. One that the server closed (it stopped or
/// restarted) is made again by the next call.
pub struct Repository {
    pub(crate) url: String,
    client: postgres::Client,
}

impl Repository {
    /// Connect to `url` (a `postgresql://` URL).
    pub fn connect(url: &str) -> Result<Repository, SharingError> {
        Ok(Repository {
            url: url.to_string(),
            client: open(url)?,
        })
    }

    /// The connection, made again first if the server closed it.
    pub(crate) fn client(&mut self) -> Result<&mut postgres::Client, SharingError> {
        if self.client.is_closed() {
            self.client = open(&self.url)?;
        }
        Ok(&mut self.client)
    }

    /// Create the tables if they are absent and the group's row if it is (CSQ5PQSG ADD QSG),
    /// then add `queue_manager` as the next member (ADD QMGR); its number in the group.
    pub fn add_member(
        &mut self,
        group: &str,
        queue_manager: &str,
        version: &str,
    ) -> Result<u32, SharingError> {
        let now = crate::now_ms() as i64;
        let url = self.url.clone();
        let failed = |error: postgres::Error| repository_failed(&url, &error);
        let mut transaction = self.client()?.transaction().map_err(failed)?;
        transaction
            .execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK_KEY])
            .map_err(failed)?;
        transaction.batch_execute(SCHEMA).map_err(failed)?;
        check_schema_version(&mut transaction).map_err(|error| match error {
            SchemaCheck::Failed(error) => failed(error),
            SchemaCheck::Wrong(found) => wrong_schema(&url, found),
        })?;
        transaction
            .execute(
                "INSERT INTO ferrite_qsg (qsg_name, created_ms) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&group, &now],
            )
            .map_err(failed)?;
        let numbers: Vec<i32> = transaction
            .query(
                "SELECT qmgr_number FROM ferrite_qsg_member WHERE qsg_name = $1 ORDER BY qmgr_number",
                &[&group],
            )
            .map_err(failed)?
            .iter()
            .map(|row| row.get(0))
            .collect();
        let exists = transaction
            .query_opt(
                "SELECT 1 FROM ferrite_qsg_member WHERE qsg_name = $1 AND qmgr_name = $2",
                &[&group, &queue_manager],
            )
            .map_err(failed)?
            .is_some();
        if exists {
            return Err(SharingError::new(
                MQRC_OBJECT_ALREADY_EXISTS,
                format!("queue manager {queue_manager} is already a member of queue sharing group {group}"),
            ));
        }
        let Some(number) = lowest_free_number(&numbers) else {
            return Err(SharingError::new(
                MQRC_RESOURCE_PROBLEM,
                format!(
                    "queue sharing group {group} already has {QUEUE_SHARING_GROUP_MEMBERS_MAX} members, MQ's limit"
                ),
            ));
        };
        transaction
            .execute(
                "INSERT INTO ferrite_qsg_member (qsg_name, qmgr_name, qmgr_number, active, version, joined_ms, started_ms) \
                 VALUES ($1, $2, $3, false, $4, $5, 0)",
                &[&group, &queue_manager, &(number as i32), &version, &now],
            )
            .map_err(failed)?;
        transaction.commit().map_err(failed)?;
        Ok(number)
    }

    /// Remove `queue_manager` from `group` (CSQ5PQSG REMOVE QMGR): only while it is inactive.
    pub fn remove_member(&mut self, group: &str, queue_manager: &str) -> Result<(), SharingError> {
        let url = self.url.clone();
        self.client()?
            .execute(
                "DELETE FROM ferrite_qsg_member WHERE qsg_name = $1 AND qmgr_name = $2 AND NOT active",
                &[&group, &queue_manager],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        Ok(())
    }

    /// A member starts: record it active with this version; its number in the group. Fails
    /// when the repository does not record it as a member.
    pub fn start_member(
        &mut self,
        group: &str,
        queue_manager: &str,
        version: &str,
    ) -> Result<u32, SharingError> {
        let url = self.url.clone();
        let failed = |error: postgres::Error| repository_failed(&url, &error);
        let tables = self
            .client()?
            .query_one("SELECT to_regclass('ferrite_qsg_member') IS NOT NULL", &[])
            .map_err(failed)?
            .get::<_, bool>(0);
        let row = match tables {
            true => self
                .client()?
                .query_opt(
                    "UPDATE ferrite_qsg_member SET active = true, version = $3, started_ms = $4 \
                     WHERE qsg_name = $1 AND qmgr_name = $2 RETURNING qmgr_number",
                    &[&group, &queue_manager, &version, &(crate::now_ms() as i64)],
                )
                .map_err(failed)?,
            false => None,
        };
        let Some(row) = row else {
            return Err(SharingError::new(
                MQRC_Q_MGR_NAME_ERROR,
                format!(
                    "queue manager {queue_manager} is not a member of queue sharing group {group} in {url}; \
                     a member is added by ferrite create --qsg"
                ),
            ));
        };
        Ok(row.get::<_, i32>(0) as u32)
    }

    /// A member stops: record it inactive.
    pub fn stop_member(&mut self, group: &str, queue_manager: &str) -> Result<(), SharingError> {
        let url = self.url.clone();
        self.client()?
            .execute(
                "UPDATE ferrite_qsg_member SET active = false WHERE qsg_name = $1 AND qmgr_name = $2",
                &[&group, &queue_manager],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        Ok(())
    }

    /// The group's members in number order (DISPLAY GROUP).
    pub fn members(&mut self, group: &str) -> Result<Vec<SharingGroupMember>, SharingError> {
        let url = self.url.clone();
        let rows = self
            .client()?
            .query(
                "SELECT qmgr_name, qmgr_number, active, version, joined_ms FROM ferrite_qsg_member \
                 WHERE qsg_name = $1 ORDER BY qmgr_number",
                &[&group],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        Ok(rows
            .iter()
            .map(|row| SharingGroupMember {
                name: row.get(0),
                number: row.get::<_, i32>(1) as u32,
                active: row.get(2),
                version: row.get(3),
                joined_ms: row.get::<_, i64>(4) as u64,
            })
            .collect())
    }
}

impl Repository {
    /// Insert (or with `replace`, overwrite) a structure's definition.
    pub fn define_structure(
        &mut self,
        group: &str,
        structure: &CfStructure,
        replace: bool,
    ) -> Result<(), SharingError> {
        let url = self.url.clone();
        let conflict = if replace {
            "ON CONFLICT (qsg_name, struc_name) DO UPDATE SET description = EXCLUDED.description, \
             cflevel = EXCLUDED.cflevel, recover = EXCLUDED.recover, offload = EXCLUDED.offload, \
             offload_thresholds = EXCLUDED.offload_thresholds, offload_sizes_kib = EXCLUDED.offload_sizes_kib, \
             dsgroup = EXCLUDED.dsgroup, dsblock_kib = EXCLUDED.dsblock_kib, dsbufs = EXCLUDED.dsbufs, \
             dsexpand = EXCLUDED.dsexpand, cfconlos = EXCLUDED.cfconlos, recauto = EXCLUDED.recauto, \
             altered_ms = EXCLUDED.altered_ms"
        } else {
            "ON CONFLICT DO NOTHING"
        };
        let row = StructureRow::from(structure);
        let now = crate::now_ms() as i64;
        let stored = self
            .client()?
            .execute(
                &format!(
                    "INSERT INTO ferrite_cf_structure (qsg_name, struc_name, description, cflevel, recover, \
                     offload, offload_thresholds, offload_sizes_kib, dsgroup, dsblock_kib, dsbufs, dsexpand, \
                     cfconlos, recauto, created_ms, altered_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) {conflict}"
                ),
                &row.parameters(&group, structure, &now),
            )
            .map_err(|error| repository_failed(&url, &error))?;
        if stored == 0 {
            return Err(SharingError::new(
                MQRC_OBJECT_ALREADY_EXISTS,
                format!(
                    "CFSTRUCT({}) already exists in queue sharing group {group}",
                    structure.name
                ),
            ));
        }
        Ok(())
    }

    /// Replace an existing structure's attributes.
    pub fn alter_structure(
        &mut self,
        group: &str,
        structure: &CfStructure,
    ) -> Result<(), SharingError> {
        let url = self.url.clone();
        let row = StructureRow::from(structure);
        let now = crate::now_ms() as i64;
        let changed = self
            .client()?
            .execute(
                "UPDATE ferrite_cf_structure SET description = $3, cflevel = $4, recover = $5, offload = $6, \
                 offload_thresholds = $7, offload_sizes_kib = $8, dsgroup = $9, dsblock_kib = $10, dsbufs = $11, \
                 dsexpand = $12, cfconlos = $13, recauto = $14, altered_ms = $15 \
                 WHERE qsg_name = $1 AND struc_name = $2",
                &row.parameters(&group, structure, &now),
            )
            .map_err(|error| repository_failed(&url, &error))?;
        match changed {
            0 => Err(unknown_structure(group, &structure.name)),
            _ => Ok(()),
        }
    }

    /// Delete a structure's definition.
    pub fn delete_structure(&mut self, group: &str, name: &str) -> Result<(), SharingError> {
        let url = self.url.clone();
        let deleted = self
            .client()?
            .execute(
                "WITH state AS (DELETE FROM ferrite_cf_structure_state WHERE qsg_name = $1 AND struc_name = $2), \
                 backup AS (DELETE FROM ferrite_cf_backup WHERE qsg_name = $1 AND struc_name = $2) \
                 DELETE FROM ferrite_cf_structure WHERE qsg_name = $1 AND struc_name = $2",
                &[&group, &name],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        match deleted {
            0 => Err(unknown_structure(group, name)),
            _ => Ok(()),
        }
    }

    /// Every structure of the group, by name.
    pub fn structures(&mut self, group: &str) -> Result<Vec<CfStructure>, SharingError> {
        let url = self.url.clone();
        let rows = self
            .client()?
            .query(
                "SELECT struc_name, description, cflevel, recover, offload, offload_thresholds, \
                 offload_sizes_kib, dsgroup, dsblock_kib, dsbufs, dsexpand, cfconlos, recauto, \
                 created_ms, altered_ms FROM ferrite_cf_structure WHERE qsg_name = $1 ORDER BY struc_name",
                &[&group],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        Ok(rows.iter().map(structure_from_row).collect())
    }
}

impl Repository {
    /// Insert (or with `replace`, overwrite) a shared queue's definition: its structure and
    /// its definition's image (the page set 0 image of a local queue, docs/formats.md).
    pub fn define_shared_queue(
        &mut self,
        group: &str,
        definition: &SharedQueueDefinition,
        replace: bool,
    ) -> Result<(), SharingError> {
        let url = self.url.clone();
        let conflict = if replace {
            "ON CONFLICT (qsg_name, queue_name) DO UPDATE SET struc_name = EXCLUDED.struc_name, \
             image = EXCLUDED.image, altered_ms = EXCLUDED.altered_ms"
        } else {
            "ON CONFLICT DO NOTHING"
        };
        let now = crate::now_ms() as i64;
        let name = definition.queue.name.as_str();
        let stored = self
            .client()?
            .execute(
                &format!(
                    "INSERT INTO ferrite_shared_queue (qsg_name, queue_name, struc_name, image, \
                     created_ms, altered_ms) VALUES ($1, $2, $3, $4, $5, $5) {conflict}"
                ),
                &[
                    &group,
                    &name,
                    &definition.structure,
                    &definition.queue.encode(),
                    &now,
                ],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        if stored == 0 {
            return Err(SharingError::new(
                MQRC_OBJECT_ALREADY_EXISTS,
                format!(
                    "QLOCAL({name}) QSGDISP(SHARED) already exists in queue sharing group {group}"
                ),
            ));
        }
        Ok(())
    }

    /// Delete a shared queue's definition.
    pub fn delete_shared_queue(&mut self, group: &str, name: &str) -> Result<(), SharingError> {
        let url = self.url.clone();
        let deleted = self
            .client()?
            .execute(
                "DELETE FROM ferrite_shared_queue WHERE qsg_name = $1 AND queue_name = $2",
                &[&group, &name],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        match deleted {
            0 => Err(SharingError::new(
                MQRC_UNKNOWN_OBJECT_NAME,
                format!(
                    "QLOCAL({name}) QSGDISP(SHARED) is not defined in queue sharing group {group}"
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Every shared queue of the group, by name. An image this version cannot read is
    /// MQRC_DB2_NOT_AVAILABLE, naming the queue.
    pub fn shared_queues(
        &mut self,
        group: &str,
    ) -> Result<Vec<SharedQueueDefinition>, SharingError> {
        let url = self.url.clone();
        let rows = self
            .client()?
            .query(
                "SELECT queue_name, struc_name, image FROM ferrite_shared_queue \
                 WHERE qsg_name = $1 ORDER BY queue_name",
                &[&group],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        rows.iter()
            .map(|row| {
                let name: String = row.get(0);
                let image: Vec<u8> = row.get(2);
                let queue = QueueDefinition::decode(&image).map_err(|error| {
                    SharingError::new(
                        MQRC_DB2_NOT_AVAILABLE,
                        format!("shared queue {name} in repository {url} cannot be read: {error}"),
                    )
                })?;
                Ok(SharedQueueDefinition {
                    structure: row.get(1),
                    queue,
                })
            })
            .collect()
    }
}

/// The columns of a structure that are not stored as the Rust type holds them.
struct StructureRow {
    level: i32,
    offload: &'static str,
    thresholds: Vec<i32>,
    sizes: Vec<i32>,
    block: i32,
    buffers: i32,
    connectivity_loss: &'static str,
}

impl From<&CfStructure> for StructureRow {
    fn from(structure: &CfStructure) -> StructureRow {
        StructureRow {
            level: i32::from(structure.level),
            offload: match structure.offload {
                OffloadTarget::Db2 => "DB2",
                OffloadTarget::Smds => "SMDS",
            },
            thresholds: structure
                .offload_rules
                .iter()
                .map(|(threshold, _)| i32::from(*threshold))
                .collect(),
            sizes: structure
                .offload_rules
                .iter()
                .map(|(_, size)| *size as i32)
                .collect(),
            block: structure.data_set_block_kib as i32,
            buffers: structure.data_set_buffers as i32,
            connectivity_loss: match structure.connectivity_loss {
                ConnectivityLoss::Terminate => "TERMINATE",
                ConnectivityLoss::Tolerate => "TOLERATE",
                ConnectivityLoss::AsQueueManager => "ASQMGR",
            },
        }
    }
}

impl StructureRow {
    /// The statement parameters $1-$15 of INSERT and UPDATE: the group, the structure's
    /// columns in table order, the time of the change.
    fn parameters<'a>(
        &'a self,
        group: &'a &'a str,
        structure: &'a CfStructure,
        now: &'a i64,
    ) -> [&'a (dyn postgres::types::ToSql + Sync); 15] {
        [
            group,
            &structure.name,
            &structure.description,
            &self.level,
            &structure.recover,
            &self.offload,
            &self.thresholds,
            &self.sizes,
            &structure.data_set_group,
            &self.block,
            &self.buffers,
            &structure.data_set_expand,
            &self.connectivity_loss,
            &structure.recover_automatically,
            now,
        ]
    }
}

fn structure_from_row(row: &postgres::Row) -> CfStructure {
    let thresholds: Vec<i32> = row.get(5);
    let sizes: Vec<i32> = row.get(6);
    assert_eq!(
        (thresholds.len(), sizes.len()),
        (3, 3),
        "three offload rules"
    );
    let rule = |index: usize| (thresholds[index] as u8, sizes[index] as u32);
    CfStructure {
        name: row.get(0),
        description: row.get(1),
        level: row.get::<_, i32>(2) as u8,
        recover: row.get(3),
        offload: match row.get::<_, &str>(4) {
            "SMDS" => OffloadTarget::Smds,
            _ => OffloadTarget::Db2,
        },
        offload_rules: [rule(0), rule(1), rule(2)],
        data_set_group: row.get(7),
        data_set_block_kib: row.get::<_, i32>(8) as u32,
        data_set_buffers: row.get::<_, i32>(9) as u32,
        data_set_expand: row.get(10),
        connectivity_loss: match row.get::<_, &str>(11) {
            "TERMINATE" => ConnectivityLoss::Terminate,
            "TOLERATE" => ConnectivityLoss::Tolerate,
            _ => ConnectivityLoss::AsQueueManager,
        },
        recover_automatically: row.get(12),
        created_ms: row.get::<_, i64>(13) as u64,
        altered_ms: row.get::<_, i64>(14) as u64,
    }
}

fn unknown_structure(group: &str, name: &str) -> SharingError {
    SharingError::new(
        MQRC_UNKNOWN_OBJECT_NAME,
        format!("CFSTRUCT({name}) is not defined in queue sharing group {group}"),
    )
}

pub(crate) fn unknown_structure_error(group: &str, name: &str) -> SharingError {
    unknown_structure(group, name)
}

/// A new connection to `url`.
fn open(url: &str) -> Result<postgres::Client, SharingError> {
    let unavailable = |why: String| {
        SharingError::new(
            MQRC_DB2_NOT_AVAILABLE,
            format!("shared repository {url} is not available: {why}"),
        )
    };
    let mut config: postgres::Config = url.parse().map_err(|error| {
        unavailable(format!(
            "{error}; correct repository in [queue_sharing_group] of qm.toml"
        ))
    })?;
    config.connect_timeout(Duration::from_millis(CONNECT_TIMEOUT_MS));
    config.application_name("ferrite");
    config.connect(postgres::NoTls).map_err(|error| {
        unavailable(format!(
            "{}; start the PostgreSQL server or correct its address",
            error_text(&error)
        ))
    })
}

/// The lowest member number (1-32) not in `numbers` (ascending).
fn lowest_free_number(numbers: &[i32]) -> Option<u32> {
    (1..=QUEUE_SHARING_GROUP_MEMBERS_MAX).find(|number| !numbers.contains(&(*number as i32)))
}

enum SchemaCheck {
    Failed(postgres::Error),
    Wrong(i32),
}

/// Record [`SCHEMA_VERSION`] in a new repository; refuse one of another version.
fn check_schema_version(transaction: &mut postgres::Transaction<'_>) -> Result<(), SchemaCheck> {
    let found = transaction
        .query_opt("SELECT version FROM ferrite_schema", &[])
        .map_err(SchemaCheck::Failed)?;
    match found.map(|row| row.get::<_, i32>(0)) {
        None => {
            transaction
                .execute(
                    "INSERT INTO ferrite_schema (version) VALUES ($1)",
                    &[&SCHEMA_VERSION],
                )
                .map_err(SchemaCheck::Failed)?;
            Ok(())
        }
        Some(SCHEMA_VERSION) => Ok(()),
        Some(other) => Err(SchemaCheck::Wrong(other)),
    }
}

fn wrong_schema(url: &str, found: i32) -> SharingError {
    SharingError::new(
        MQRC_DB2_NOT_AVAILABLE,
        format!(
            "shared repository {url} holds Ferrite tables of version {found}; this Ferrite uses version {SCHEMA_VERSION}"
        ),
    )
}

/// A failure of the repository in use: MQRC_DB2_NOT_AVAILABLE.
pub(crate) fn repository_failed(url: &str, error: &postgres::Error) -> SharingError {
    SharingError::new(
        MQRC_DB2_NOT_AVAILABLE,
        format!("shared repository {url} failed: {}", error_text(error)),
    )
}

/// The error with its cause: the postgres crate's own text alone can be as bare as "error
/// connecting to server".
fn error_text(error: &postgres::Error) -> String {
    match (error.as_db_error(), std::error::Error::source(error)) {
        (Some(database), _) => format!("{} ({})", database.message(), database.code().code()),
        (None, Some(source)) => format!("{error}: {source}"),
        (None, None) => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_numbers_fill_the_lowest_gap_up_to_32() {
        assert_eq!(lowest_free_number(&[]), Some(1));
        assert_eq!(lowest_free_number(&[1, 2, 4]), Some(3));
        let full: Vec<i32> = (1..=32).collect();
        assert_eq!(lowest_free_number(&full), None);
    }

    #[test]
    fn a_malformed_url_is_db2_not_available() {
        let error = Repository::connect("postgresql://127.0.0.1:notaport/x")
            .err()
            .expect("a malformed URL fails");
        assert_eq!(error.reason, MQRC_DB2_NOT_AVAILABLE);
        assert!(error.text.contains("qm.toml"), "{}", error.text);
    }
}
