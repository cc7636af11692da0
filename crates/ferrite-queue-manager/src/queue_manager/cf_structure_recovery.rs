//! Persistent shared messages in the member's own log, and BACKUP and RECOVER CFSTRUCT, as MQ
//! for z/OS has them: a member logs each persistent message it puts on a shared queue, each
//! one it gets, and the end of each unit of work that held them (the log record formats are
//! ferrite-storage's `log_records::shared`); BACKUP CFSTRUCT writes a structure's persistent
//! messages to the log of the member that issues it and records the backup's log range in the
//! shared repository; RECOVER CFSTRUCT, on any member, rebuilds a structure the coupling
//! facility lost from that backup and every member's log since it.
//!
//! Recovery works on sets, so that the order in which members' logs are read does not matter:
//! the structure's messages are the backup's, plus those put by every out-of-syncpoint put
//! and committed unit logged since the backup began, minus those removed by every
//! out-of-syncpoint get and committed unit logged since then. Entries are never given twice,
//! so a put and the get of the same message match whichever log each is in. A unit counts
//! only when its member's log holds its SHARED COMMIT, so in-flight and backed-out units
//! (peer recovery's included) change nothing. "Since the backup began" is by the records'
//! times, less [`CLOCK_SKEW_MS`] for members on other machines; records logged earlier that
//! are read anyway change nothing the backup does not already show.
//!
//! The logs are read whole (every available active and archive log of every member):
//! units of work that began before the backup and committed after it are found wherever
//! their puts are.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use ferrite_constants::reason::{
    MQRC_CF_STRUC_FAILED, MQRC_CF_STRUC_IN_USE, MQRC_RESOURCE_PROBLEM, MQRC_UNKNOWN_OBJECT_NAME,
};
use ferrite_storage::data_manager::message::decode_descriptor;
use ferrite_storage::log::{LogReader, LogRecord, OfflineLog};
use ferrite_storage::log_records::kind;
use ferrite_storage::log_records::shared::{
    is_shared_kind, BackupEnd, BackupMessage, SharedEntry, SharedMessageImage, SharedQueueRecord,
    SharedUnitEnd,
};
use ferrite_storage::log_records::RecoveryRecord;
use ferrite_storage::types::Rba;
use ferrite_storage::StorageError;

use super::QueueManager;
use crate::{
    QueueSharingGroup, SharedMessage, SharingError, StructureBackup, StructureMessage,
    StructureRecoveryStatus, StructureSnapshot, StructureState,
};

/// How far members' clocks may differ: recovery reads records logged this long before the
/// backup began.
pub const CLOCK_SKEW_MS: u64 = 5_000;

/// What RECOVER CFSTRUCT did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StructureRecovery {
    /// Messages restored from the backup (before the logs were applied).
    pub from_backup: u64,
    /// Members whose logs were read.
    pub logs_read: Vec<String>,
    /// Shared queue records applied from them.
    pub records_applied: u64,
    /// Messages the structure holds now.
    pub messages: u64,
}

fn log_failed(error: StorageError) -> SharingError {
    SharingError::new(
        MQRC_RESOURCE_PROBLEM,
        format!("the log could not be written or read: {error}"),
    )
}

/// The message image a structure keeps, as a log record holds it.
pub fn log_image(message: &SharedMessage) -> SharedMessageImage {
    SharedMessageImage {
        priority: message.priority,
        message_id: message.message_id,
        correlation_id: message.correlation_id,
        data: message.data.clone(),
    }
}

fn from_log_image(image: SharedMessageImage) -> SharedMessage {
    SharedMessage {
        priority: image.priority,
        message_id: image.message_id,
        correlation_id: image.correlation_id,
        data: image.data,
    }
}

/// Whether a shared message (its member image) is persistent.
pub fn is_persistent(message: &SharedMessage) -> bool {
    decode_descriptor(&message.data).is_ok_and(|(descriptor, _)| descriptor.persistent)
}

impl QueueManager {
    fn group_or_fail(&self) -> Result<&Arc<dyn QueueSharingGroup>, SharingError> {
        self.queue_sharing_group().ok_or_else(|| {
            SharingError::new(
                MQRC_UNKNOWN_OBJECT_NAME,
                format!("{} is not in a queue sharing group", self.name),
            )
        })
    }

    /// Log one shared queue record (kind from `log_records::kind`); its end RBA, to force.
    pub fn log_shared(&self, record_kind: u8, payload: &[u8]) -> Result<Rba, SharingError> {
        assert!(is_shared_kind(record_kind), "a shared queue record");
        let (_, end) = self
            .log
            .append(record_kind, &[payload])
            .map_err(log_failed)?;
        Ok(end)
    }

    /// Make the log durable through `through`.
    pub fn force_shared(&self, through: Rba) -> Result<(), SharingError> {
        self.log.force(through).map_err(log_failed)
    }

    /// `name`'s state, after a look at it if it is in use: a structure the coupling facility
    /// lost is found lost (and recorded FAILED) by its next use, and this is one. The first
    /// call after the coupling facility restarted may find its connection broken instead;
    /// a second connects again.
    pub fn look_at_cf_structure(
        &self,
        name: &str,
    ) -> Result<StructureRecoveryStatus, SharingError> {
        let group = self.group_or_fail()?;
        let status = group.structure_recovery_status(name)?;
        if !matches!(
            status.state,
            StructureState::Active | StructureState::Recovered
        ) {
            return Ok(status);
        }
        for _ in 0..2 {
            if group.shared_queue_depth(name, "").is_ok() {
                return Ok(status);
            }
        }
        group.structure_recovery_status(name)
    }

    /// BACKUP CFSTRUCT(name): the structure's persistent messages to this member's log (one
    /// CF BACKUP record each, then a CF BACKUP END, forced), the range recorded in the
    /// repository. Only a RECOVER(YES) structure that is not failed can be backed up.
    pub fn backup_cf_structure(&self, name: &str) -> Result<StructureBackup, SharingError> {
        let group = self.group_or_fail()?;
        let taken_ms = crate::now_ms();
        let snapshot = group.snapshot_structure(name)?;
        let mut backup = StructureBackup {
            member: self.name.clone(),
            start_rba: self.log.end_rba().0,
            end_rba: 0,
            taken_ms,
            messages: 0,
            bytes: 0,
        };
        for message in snapshot
            .messages
            .iter()
            .filter(|m| is_persistent(&m.message))
        {
            let record = BackupMessage {
                entry: SharedEntry {
                    structure: name.to_string(),
                    queue: message.queue.clone(),
                    entry: message.entry,
                },
                backup_ms: taken_ms,
                backout_count: message.backout_count,
                message: log_image(&message.message),
            };
            let (start, _) = self
                .log
                .append(kind::CF_BACKUP, &[&record.encode()])
                .map_err(log_failed)?;
            if backup.messages == 0 {
                backup.start_rba = start.0;
            }
            backup.messages += 1;
            backup.bytes += message.message.data.len() as u64;
        }
        let end = BackupEnd {
            structure: name.to_string(),
            backup_ms: taken_ms,
            messages: backup.messages,
            entries: snapshot.entries,
        };
        let (start, end_rba) = self
            .log
            .append(kind::CF_BACKUP_END, &[&end.encode()])
            .map_err(log_failed)?;
        if backup.messages == 0 {
            backup.start_rba = start.0;
        }
        backup.end_rba = end_rba.0;
        self.force_shared(end_rba)?;
        group.record_backup(name, &backup)?;
        Ok(backup)
    }

    /// RECOVER CFSTRUCT(name): rebuild a FAILED structure from its last backup and every
    /// member's log (see the module's description); `purge` (TYPE(PURGE)) rebuilds it empty.
    pub fn recover_cf_structure(
        &self,
        name: &str,
        purge: bool,
    ) -> Result<StructureRecovery, SharingError> {
        let group = self.group_or_fail()?;
        let status = self.look_at_cf_structure(name)?;
        if status.state != StructureState::Failed {
            return Err(SharingError::new(
                MQRC_CF_STRUC_IN_USE,
                format!(
                    "CF structure {name} is {}, not FAILED: it needs no recovery",
                    status.state.name()
                ),
            ));
        }
        let mut rebuild = StructureRebuild::new(name);
        let mut summary = StructureRecovery::default();
        if !purge {
            let since = match &status.backup {
                Some(backup) => {
                    self.read_backup(group.as_ref(), name, backup, &mut rebuild)?;
                    summary.from_backup = rebuild.messages.len() as u64;
                    backup.taken_ms.saturating_sub(CLOCK_SKEW_MS)
                }
                None => 0,
            };
            for (member, directory) in group.member_directories()? {
                let mut reader = self.member_log(&member, &directory)?;
                let applied = rebuild.read_member_log(reader.records()?, since)?;
                summary.records_applied += applied;
                summary.logs_read.push(member);
            }
        }
        let snapshot = rebuild.finish();
        summary.messages = snapshot.messages.len() as u64;
        group.restore_structure(name, &snapshot)?;
        Ok(summary)
    }

    /// The backup's messages, from the log of the member that took it.
    fn read_backup(
        &self,
        group: &dyn QueueSharingGroup,
        name: &str,
        backup: &StructureBackup,
        rebuild: &mut StructureRebuild,
    ) -> Result<(), SharingError> {
        let directories = group.member_directories()?;
        let directory = directories
            .iter()
            .find(|(member, _)| *member == backup.member)
            .map(|(_, directory)| directory.clone())
            .ok_or_else(|| {
                SharingError::new(
                    MQRC_CF_STRUC_FAILED,
                    format!(
                        "the backup of {name} is in the log of {}, whose directory the repository does not record",
                        backup.member
                    ),
                )
            })?;
        let mut log = self.member_log(&backup.member, &directory)?;
        let mut reader = log.records_from(Rba(backup.start_rba))?;
        let ended = rebuild.read_backup(&mut reader, backup)?;
        if !ended {
            return Err(SharingError::new(
                MQRC_CF_STRUC_FAILED,
                format!(
                    "the backup of {name} in the log of {} from RBA {} is not whole",
                    backup.member,
                    Rba(backup.start_rba)
                ),
            ));
        }
        Ok(())
    }

    /// A member's log, read-only: this queue manager's own, or another member's from its
    /// directory.
    fn member_log(
        &self,
        member: &str,
        directory: &std::path::Path,
    ) -> Result<MemberLog, SharingError> {
        if member == self.name {
            return Ok(MemberLog::Own(self.log.clone()));
        }
        let unreadable = |error: StorageError| {
            SharingError::new(
                MQRC_CF_STRUC_FAILED,
                format!(
                    "the log of member {member} in {} cannot be read: {error}",
                    directory.display()
                ),
            )
        };
        let config = QueueManager::read_config(&*self.fs, directory).map_err(unreadable)?;
        let log =
            OfflineLog::open(self.fs.clone(), directory, &config.archive).map_err(unreadable)?;
        Ok(MemberLog::Other(Box::new(log)))
    }
}

/// A member's log opened for structure recovery.
enum MemberLog {
    Own(Arc<ferrite_storage::log::LogManager>),
    Other(Box<OfflineLog>),
}

impl MemberLog {
    /// Every available record, oldest first.
    fn records(&mut self) -> Result<LogReader, SharingError> {
        let first = match self {
            MemberLog::Own(log) => log
                .archives()
                .first()
                .map_or(Rba::ZERO, |archive| Rba(archive.start_rba)),
            MemberLog::Other(log) => log.first_rba(),
        };
        self.records_from(first)
    }

    fn records_from(&mut self, from: Rba) -> Result<LogReader, SharingError> {
        match self {
            MemberLog::Own(log) => log.read_forward(from),
            MemberLog::Other(log) => log.read_forward(from),
        }
        .map_err(log_failed)
    }
}

/// A structure being rebuilt: the messages it will hold, and the entries removed.
pub struct StructureRebuild {
    structure: String,
    messages: BTreeMap<u64, StructureMessage>,
    removed: BTreeSet<u64>,
    entries: u64,
}

/// The puts and gets of one unit of work, until its end is read.
#[derive(Default)]
struct PendingUnit {
    puts: Vec<StructureMessage>,
    gets: Vec<u64>,
}

impl StructureRebuild {
    pub fn new(structure: &str) -> StructureRebuild {
        StructureRebuild {
            structure: structure.to_string(),
            messages: BTreeMap::new(),
            removed: BTreeSet::new(),
            entries: 0,
        }
    }

    /// Take the backup `backup` from `reader` (at its start RBA); whether its end was found.
    fn read_backup(
        &mut self,
        reader: &mut LogReader,
        backup: &StructureBackup,
    ) -> Result<bool, SharingError> {
        for record in reader {
            let record = record.map_err(log_failed)?;
            if record.rba.0 >= backup.end_rba {
                break;
            }
            if !matches!(record.kind, kind::CF_BACKUP | kind::CF_BACKUP_END) {
                continue;
            }
            match decode(record.kind, &record.payload, record.rba)? {
                RecoveryRecord::CfBackup(message)
                    if message.entry.structure == self.structure
                        && message.backup_ms == backup.taken_ms =>
                {
                    self.put(StructureMessage {
                        queue: message.entry.queue,
                        entry: message.entry.entry,
                        backout_count: message.backout_count,
                        message: from_log_image(message.message),
                    });
                }
                RecoveryRecord::CfBackupEnd(end)
                    if end.structure == self.structure && end.backup_ms == backup.taken_ms =>
                {
                    assert_eq!(
                        end.messages,
                        self.messages.len() as u64,
                        "a backup holds the messages its end counts"
                    );
                    self.entries = self.entries.max(end.entries);
                    return Ok(true);
                }
                _ => {}
            }
        }
        Ok(false)
    }

    /// Apply one member's shared queue records for this structure logged at or after
    /// `since_ms` (units by the time of their commit); the records applied.
    pub fn read_member_log(
        &mut self,
        reader: impl Iterator<Item = Result<LogRecord, StorageError>>,
        since_ms: u64,
    ) -> Result<u64, SharingError> {
        let mut units: HashMap<String, PendingUnit> = HashMap::new();
        let mut applied = 0;
        for record in reader {
            let record = record.map_err(log_failed)?;
            if !matches!(
                record.kind,
                kind::SHARED_PUT | kind::SHARED_GET | kind::SHARED_COMMIT | kind::SHARED_BACKOUT
            ) {
                continue;
            }
            match decode(record.kind, &record.payload, record.rba)? {
                RecoveryRecord::SharedPut { record, message } => {
                    if record.entry.structure != self.structure {
                        continue;
                    }
                    self.entries = self.entries.max(record.entry.entry);
                    let put = StructureMessage {
                        queue: record.entry.queue.clone(),
                        entry: record.entry.entry,
                        backout_count: 0,
                        message: from_log_image(message),
                    };
                    match pending(&mut units, &record) {
                        Some(unit) => unit.puts.push(put),
                        None if record.time_ms >= since_ms => {
                            self.put(put);
                            applied += 1;
                        }
                        None => {}
                    }
                }
                RecoveryRecord::SharedGet(record) => {
                    if record.entry.structure != self.structure {
                        continue;
                    }
                    match pending(&mut units, &record) {
                        Some(unit) => unit.gets.push(record.entry.entry),
                        None if record.time_ms >= since_ms => {
                            self.remove(record.entry.entry);
                            applied += 1;
                        }
                        None => {}
                    }
                }
                RecoveryRecord::SharedCommit(end) => {
                    applied += self.end_unit(&mut units, &end, true, since_ms);
                }
                RecoveryRecord::SharedBackout(end) => {
                    self.end_unit(&mut units, &end, false, since_ms);
                }
                _ => {}
            }
        }
        Ok(applied)
    }

    fn end_unit(
        &mut self,
        units: &mut HashMap<String, PendingUnit>,
        end: &SharedUnitEnd,
        committed: bool,
        since_ms: u64,
    ) -> u64 {
        if end.structure != self.structure {
            return 0;
        }
        let Some(unit) = units.remove(&end.unit) else {
            return 0;
        };
        if !committed || end.time_ms < since_ms {
            return 0;
        }
        let applied = (unit.puts.len() + unit.gets.len()) as u64;
        for put in unit.puts {
            self.put(put);
        }
        for entry in unit.gets {
            self.remove(entry);
        }
        applied
    }

    fn put(&mut self, message: StructureMessage) {
        assert!(message.entry > 0, "entries start at 1");
        self.entries = self.entries.max(message.entry);
        if !self.removed.contains(&message.entry) {
            self.messages.entry(message.entry).or_insert(message);
        }
    }

    fn remove(&mut self, entry: u64) {
        self.removed.insert(entry);
        self.messages.remove(&entry);
    }

    /// The structure's messages, by entry, and its entry counter.
    pub fn finish(self) -> StructureSnapshot {
        let messages: Vec<StructureMessage> = self.messages.into_values().collect();
        debug_assert!(messages.iter().all(|m| !self.removed.contains(&m.entry)));
        StructureSnapshot {
            entries: self.entries,
            messages,
        }
    }
}

/// The pending unit a record belongs to, or `None` out of syncpoint.
fn pending<'u>(
    units: &'u mut HashMap<String, PendingUnit>,
    record: &SharedQueueRecord,
) -> Option<&'u mut PendingUnit> {
    match record.unit.is_empty() {
        true => None,
        false => Some(units.entry(record.unit.clone()).or_default()),
    }
}

fn decode(record_kind: u8, payload: &[u8], rba: Rba) -> Result<RecoveryRecord, SharingError> {
    RecoveryRecord::decode(record_kind, payload).map_err(|error| {
        SharingError::new(
            MQRC_CF_STRUC_FAILED,
            format!("the shared queue record at RBA {rba} does not decode: {error}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A member's log as structure recovery reads it: records at increasing RBAs.
    struct Log {
        records: Vec<LogRecord>,
    }

    impl Log {
        fn new() -> Log {
            Log {
                records: Vec::new(),
            }
        }

        fn append(&mut self, record_kind: u8, payload: Vec<u8>) {
            let rba = Rba(self.records.len() as u64 * 100);
            self.records.push(LogRecord {
                rba,
                end_rba: Rba(rba.0 + 100),
                kind: record_kind,
                payload,
            });
        }

        fn queue_record(unit: &str, queue: &str, entry: u64, time_ms: u64) -> SharedQueueRecord {
            SharedQueueRecord {
                unit: unit.to_string(),
                entry: SharedEntry {
                    structure: "APP1".into(),
                    queue: queue.into(),
                    entry,
                },
                time_ms,
            }
        }

        fn put(&mut self, unit: &str, entry: u64, time_ms: u64) {
            let message = SharedMessageImage {
                priority: 0,
                message_id: [entry as u8; 24],
                correlation_id: [0; 24],
                data: vec![entry as u8],
            };
            let record = Log::queue_record(unit, "Q", entry, time_ms);
            self.append(kind::SHARED_PUT, record.encode_put(&message));
        }

        fn get(&mut self, unit: &str, entry: u64, time_ms: u64) {
            let record = Log::queue_record(unit, "Q", entry, time_ms);
            self.append(kind::SHARED_GET, record.encode_get());
        }

        fn end(&mut self, unit: &str, commit: bool, time_ms: u64) {
            let end = SharedUnitEnd {
                unit: unit.into(),
                structure: "APP1".into(),
                time_ms,
            };
            let record_kind = match commit {
                true => kind::SHARED_COMMIT,
                false => kind::SHARED_BACKOUT,
            };
            self.append(record_kind, end.encode());
        }

        fn read(&self) -> impl Iterator<Item = Result<LogRecord, StorageError>> + '_ {
            self.records.iter().cloned().map(Ok)
        }
    }

    fn entries(rebuild: StructureRebuild) -> (Vec<u64>, u64) {
        let snapshot = rebuild.finish();
        let entries = snapshot.messages.iter().map(|m| m.entry).collect();
        (entries, snapshot.entries)
    }

    #[test]
    fn the_rebuilt_structure_is_the_backup_plus_committed_puts_minus_committed_gets() {
        // The backup (at time 1000) holds entries 1 and 2.
        let mut rebuild = StructureRebuild::new("APP1");
        for entry in [1, 2] {
            rebuild.put(StructureMessage {
                queue: "Q".into(),
                entry,
                backout_count: 0,
                message: SharedMessage {
                    priority: 0,
                    message_id: [0; 24],
                    correlation_id: [0; 24],
                    data: vec![],
                },
            });
        }
        let since = 1000;
        let mut first = Log::new();
        // Before the backup: a put and get whose effect the backup shows (entry 9 was got
        // before it), and a unit committed before it, which is not applied again.
        first.put("", 9, 500);
        first.get("", 9, 600);
        first.put("u0", 8, 700);
        first.end("u0", true, 800);
        // A unit begun before the backup and committed after: its put counts.
        first.put("u1", 3, 900);
        first.get("u1", 1, 950);
        first.end("u1", true, 1100);
        // Backed out, and in flight at the failure: neither counts.
        first.put("u2", 4, 1200);
        first.end("u2", false, 1300);
        first.put("u3", 5, 1400);
        first.get("u3", 2, 1400);
        // The second member got entry 6 before the first member's log shows its put.
        let mut second = Log::new();
        second.get("", 6, 1500);
        second.put("", 7, 1600);
        first.put("", 6, 1700);
        assert_eq!(rebuild.read_member_log(first.read(), since).unwrap(), 3);
        assert_eq!(rebuild.read_member_log(second.read(), since).unwrap(), 2);
        // 1 was got by u1; 2 stays (u3 never committed); 3 came with u1; 6 was got; 7 stays.
        assert_eq!(entries(rebuild), (vec![2, 3, 7], 9));
    }

    #[test]
    fn reading_the_logs_in_either_order_or_twice_gives_the_same_structure() {
        let mut first = Log::new();
        first.put("", 1, 10);
        first.put("u", 2, 20);
        first.end("u", true, 30);
        let mut second = Log::new();
        second.get("v", 1, 15);
        second.end("v", true, 25);
        let orders: [&[&Log]; 3] = [
            &[&first, &second],
            &[&second, &first],
            &[&second, &first, &second],
        ];
        for order in orders {
            let mut rebuild = StructureRebuild::new("APP1");
            for log in order {
                rebuild.read_member_log(log.read(), 0).unwrap();
            }
            assert_eq!(entries(rebuild), (vec![2], 2));
        }
    }
}
