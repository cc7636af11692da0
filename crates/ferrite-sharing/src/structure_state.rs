//! What the shared repository keeps about CF structures beyond their definitions: each
//! structure's state (`ferrite_cf_structure_state`: no row while it was never used), its last
//! backup (`ferrite_cf_backup`, BACKUP CFSTRUCT), and where each member's data directory and
//! so its log are (`ferrite_qsg_member_directory`), which RECOVER CFSTRUCT on any member reads.

use std::path::PathBuf;

use ferrite_queue_manager::{
    SharingError, StructureBackup, StructureRecoveryStatus, StructureState,
};

use crate::repository::{repository_failed, unknown_structure_error, Repository};

impl Repository {
    /// `structure`'s state and last backup, and whether it is RECOVER(YES).
    pub fn structure_recovery_status(
        &mut self,
        group: &str,
        structure: &str,
    ) -> Result<(StructureRecoveryStatus, bool), SharingError> {
        let url = self.url.clone();
        let row = self
            .client()?
            .query_opt(
                "SELECT s.recover, t.status, t.failed_ms, b.qmgr_name, b.start_rba, b.end_rba, \
                 b.taken_ms, b.messages, b.bytes FROM ferrite_cf_structure s \
                 LEFT JOIN ferrite_cf_structure_state t USING (qsg_name, struc_name) \
                 LEFT JOIN ferrite_cf_backup b USING (qsg_name, struc_name) \
                 WHERE s.qsg_name = $1 AND s.struc_name = $2",
                &[&group, &structure],
            )
            .map_err(|error| repository_failed(&url, &error))?
            .ok_or_else(|| unknown_structure_error(group, structure))?;
        let state = match row.get::<_, Option<&str>>(1) {
            None => StructureState::NeverUsed,
            Some("FAILED") => StructureState::Failed,
            Some("RECOVERED") => StructureState::Recovered,
            Some(_) => StructureState::Active,
        };
        let backup = row
            .get::<_, Option<String>>(3)
            .map(|member| StructureBackup {
                member,
                start_rba: row.get::<_, i64>(4) as u64,
                end_rba: row.get::<_, i64>(5) as u64,
                taken_ms: row.get::<_, i64>(6) as u64,
                messages: row.get::<_, i64>(7) as u64,
                bytes: row.get::<_, i64>(8) as u64,
            });
        let status = StructureRecoveryStatus {
            state,
            failed_ms: row.get::<_, Option<i64>>(2).map(|ms| ms as u64),
            backup,
        };
        Ok((status, row.get(0)))
    }

    /// Record `structure`'s state; a failure keeps the time it was first found failed.
    pub fn set_structure_state(
        &mut self,
        group: &str,
        structure: &str,
        state: StructureState,
    ) -> Result<(), SharingError> {
        assert!(
            state != StructureState::NeverUsed,
            "a used structure stays used"
        );
        let url = self.url.clone();
        let failed_ms = match state {
            StructureState::Failed => Some(crate::now_ms() as i64),
            _ => None,
        };
        self.client()?
            .execute(
                "INSERT INTO ferrite_cf_structure_state (qsg_name, struc_name, status, failed_ms) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (qsg_name, struc_name) DO UPDATE SET \
                 status = EXCLUDED.status, failed_ms = CASE \
                 WHEN EXCLUDED.status = 'FAILED' THEN COALESCE(ferrite_cf_structure_state.failed_ms, EXCLUDED.failed_ms) \
                 WHEN EXCLUDED.status = 'RECOVERED' THEN ferrite_cf_structure_state.failed_ms \
                 ELSE NULL END",
                &[&group, &structure, &state.name(), &failed_ms],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        Ok(())
    }

    /// Record `backup` as `structure`'s last backup.
    pub fn record_backup(
        &mut self,
        group: &str,
        structure: &str,
        backup: &StructureBackup,
    ) -> Result<(), SharingError> {
        let url = self.url.clone();
        let numbers = [
            backup.start_rba as i64,
            backup.end_rba as i64,
            backup.taken_ms as i64,
            backup.messages as i64,
            backup.bytes as i64,
        ];
        self.client()?
            .execute(
                "INSERT INTO ferrite_cf_backup (qsg_name, struc_name, qmgr_name, start_rba, end_rba, \
                 taken_ms, messages, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                 ON CONFLICT (qsg_name, struc_name) DO UPDATE SET qmgr_name = EXCLUDED.qmgr_name, \
                 start_rba = EXCLUDED.start_rba, end_rba = EXCLUDED.end_rba, taken_ms = EXCLUDED.taken_ms, \
                 messages = EXCLUDED.messages, bytes = EXCLUDED.bytes",
                &[
                    &group,
                    &structure,
                    &backup.member,
                    &numbers[0],
                    &numbers[1],
                    &numbers[2],
                    &numbers[3],
                    &numbers[4],
                ],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        Ok(())
    }

    /// Record member `queue_manager`'s data directory.
    pub fn record_member_directory(
        &mut self,
        group: &str,
        queue_manager: &str,
        directory: &str,
    ) -> Result<(), SharingError> {
        let url = self.url.clone();
        self.client()?
            .execute(
                "INSERT INTO ferrite_qsg_member_directory (qsg_name, qmgr_name, directory) \
                 VALUES ($1, $2, $3) ON CONFLICT (qsg_name, qmgr_name) DO UPDATE SET directory = EXCLUDED.directory",
                &[&group, &queue_manager, &directory],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        Ok(())
    }

    /// Every member's recorded data directory, by member name.
    pub fn member_directories(
        &mut self,
        group: &str,
    ) -> Result<Vec<(String, PathBuf)>, SharingError> {
        let url = self.url.clone();
        let rows = self
            .client()?
            .query(
                "SELECT qmgr_name, directory FROM ferrite_qsg_member_directory \
                 WHERE qsg_name = $1 ORDER BY qmgr_name",
                &[&group],
            )
            .map_err(|error| repository_failed(&url, &error))?;
        Ok(rows
            .iter()
            .map(|row| (row.get(0), PathBuf::from(row.get::<_, String>(1))))
            .collect())
    }
}
