//! Restart in the four phases MP16 describes (chapter 1, "Restart"):
//!
//! 1. **Log initialisation**: the log manager reads the BSDS and finds the end of the log
//!    (done by `LogManager::open`; message CSQJ099I).
//! 2. **Current status rebuild**: from the last checkpoint forward to the end of the log,
//!    rebuild the table of units of recovery (CSQR003I, CSQR004I).
//! 3. **Forward recovery**: from the lowest page set recovery RBA (read from page 0 of every
//!    page set, CSQI049I) to the end, redo every change whose page is older than its record,
//!    completing committed work and re-creating in-doubt work (CSQR030I, CSQR005I).
//! 4. **Backward recovery**: back out every in-flight unit of recovery (CSQR032I, CSQR006I).
//!
//! Long phases report progress every [`RESTART_PROGRESS_INTERVAL`] (CSQR031I, CSQR033I).
//!
//! Units of recovery that began before the scan's starting checkpoint are known from that
//! checkpoint's record, which lists every active unit and its operations (our analogue of log
//! shunting: a long-running unit never pins old log for transactional recovery). Backward
//! recovery therefore works from that table rather than by reading the log backwards.
//!
//! **Reading the log.** Phases 2 and 3 read records with [`crate::log::LogReader::next_ref`]:
//! the active log is read 1 MiB at a time and records are decoded where they lie, so a PUT's
//! image is never copied (phase 3 hands the borrowed image to the redo). Phase 2 builds only
//! the table of units of recovery. The two phases still read their ranges separately, with the
//! same meaning as before: phase 2 must be complete (CSQR004I) before phase 3 chooses its
//! starting checkpoint, and phase 3 usually starts earlier in the log. With the log in memory a
//! second read of phase 2's range costs a few milliseconds per 10 MB.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::data_manager::{DataManager, SlotEffect};
use crate::error::{StorageError, StorageResult};
use crate::log::{CheckpointLocation, LogManager, LogRecordRef};
use crate::log_records::{
    kind, BackoutRecord, CheckpointRecord, PutRecord, RecoveryRecord, UrOperation, UrSnapshot,
    UrState,
};
use crate::types::{Rba, Urid};

/// How often a long forward or backward recovery reports its progress (CSQR031I, CSQR033I).
/// MQ reports about every two minutes; a shorter interval keeps operators informed.
pub const RESTART_PROGRESS_INTERVAL: Duration = Duration::from_secs(10);

/// What restart hands to the queue manager.
#[derive(Debug, Default)]
pub struct RestartState {
    pub checkpoint_sequence: u64,
    pub next_message_sequence: u64,
    pub next_object_id: u32,
    /// Units of recovery left in doubt, with their locks (their messages stay unavailable).
    pub in_doubt: Vec<UrSnapshot>,
    pub forward_range: (Rba, Rba),
    pub records_redone: u64,
}

struct UrEntry {
    state: UrState,
    operations: Vec<UrOperation>,
}

fn seed(table: &mut BTreeMap<Urid, UrEntry>, checkpoint: &CheckpointRecord) {
    table.clear();
    for ur in &checkpoint.units_of_recovery {
        table.insert(
            ur.urid,
            UrEntry {
                state: ur.state,
                operations: ur.operations.clone(),
            },
        );
    }
}

fn counts(table: &BTreeMap<Urid, UrEntry>) -> (usize, usize) {
    let in_doubt = table
        .values()
        .filter(|ur| ur.state == UrState::InDoubt)
        .count();
    (in_doubt, table.len() - in_doubt)
}

/// The entry of `urid` in `table`, a new in-flight one if it has none.
fn unit_of_recovery(table: &mut BTreeMap<Urid, UrEntry>, urid: Urid) -> &mut UrEntry {
    table.entry(urid).or_insert(UrEntry {
        state: UrState::InFlight,
        operations: Vec::new(),
    })
}

/// A recovery record decoded from a log record borrowed from the reader: a PUT's image stays in
/// the reader's buffer (restart never copies it).
enum Decoded<'a> {
    Put { record: PutRecord, image: &'a [u8] },
    Other(RecoveryRecord),
}

fn decode<'a>(record: &LogRecordRef<'a>) -> StorageResult<Option<Decoded<'a>>> {
    if record.kind >= 0xF0 || crate::log_records::shared::is_shared_kind(record.kind) {
        // The log manager's own records, and shared queues' (structure recovery's alone).
        return Ok(None);
    }
    let decoded = if record.kind == kind::PUT {
        PutRecord::decode(record.payload).map(|(put, image)| Decoded::Put { record: put, image })
    } else {
        RecoveryRecord::decode(record.kind, record.payload).map(Decoded::Other)
    };
    decoded.map(Some).map_err(|error| StorageError::CorruptLog {
        path: "recovery log".into(),
        rba: record.rba,
        detail: format!("record of kind {}: {error}", record.kind),
    })
}

/// Read the checkpoint record at `location`.
fn read_checkpoint(
    log: &LogManager,
    location: CheckpointLocation,
) -> StorageResult<CheckpointRecord> {
    let mut reader = log.read_forward(location.begin_rba)?;
    let record = reader.next_ref().ok_or_else(|| StorageError::CorruptLog {
        path: "recovery log".into(),
        rba: location.begin_rba,
        detail: "the BSDS names a checkpoint past the end of the log".into(),
    })??;
    match decode(&record)? {
        Some(Decoded::Other(RecoveryRecord::Checkpoint(checkpoint)))
            if record.kind == kind::CHECKPOINT =>
        {
            Ok(checkpoint)
        }
        _ => Err(StorageError::CorruptLog {
            path: "recovery log".into(),
            rba: location.begin_rba,
            detail: "the BSDS names a record that is not a checkpoint".into(),
        }),
    }
}

/// Run phases 2 to 4: current status rebuild, forward log recovery, backward log recovery. The
/// log manager has done phase 1, log initialisation.
pub fn recover(
    data: &DataManager,
    log: &LogManager,
    name: &str,
    say: &dyn Fn(&str),
) -> StorageResult<RestartState> {
    let end = log.end_rba();
    let mut state = RestartState::default();
    say(&format!("CSQR001I {name} RESTART INITIATED"));
    let last = rebuild_current_status(log, name, say, &mut state)?;
    let table = forward_recovery(data, log, name, say, last, end, &mut state)?;
    debug_assert!(state.forward_range.0 <= state.forward_range.1);
    let in_doubt = backward_recovery(data, log, name, say, end, table)?;
    debug_assert!(in_doubt.values().all(|ur| ur.state == UrState::InDoubt));
    state.in_doubt = in_doubt
        .into_iter()
        .map(|(urid, entry)| UrSnapshot {
            urid,
            state: entry.state,
            operations: entry.operations,
        })
        .collect();
    Ok(state)
}

/// Phase 2, current status rebuild: from the last checkpoint (its record seeds the table and the
/// counters in `state`) to the end of the log, the units of recovery and their states, reported
/// in CSQR004I. Returns the last checkpoint.
fn rebuild_current_status(
    log: &LogManager,
    name: &str,
    say: &dyn Fn(&str),
    state: &mut RestartState,
) -> StorageResult<Option<CheckpointLocation>> {
    let last = log.last_checkpoint();
    let mut status: BTreeMap<Urid, UrEntry> = BTreeMap::new();
    let phase2_start = match last {
        Some(location) => {
            say(&format!(
                "CSQR003I {name} RESTART - PRIOR CHECKPOINT RBA={}",
                location.begin_rba
            ));
            let checkpoint = read_checkpoint(log, location)?;
            seed(&mut status, &checkpoint);
            state.checkpoint_sequence = checkpoint.checkpoint_sequence;
            state.next_message_sequence = checkpoint.next_message_sequence;
            state.next_object_id = checkpoint.next_object_id;
            location.end_rba
        }
        None => {
            say(&format!(
                "CSQR003I {name} RESTART - NO PRIOR CHECKPOINT, LOG READ FROM RBA={}",
                Rba::ZERO
            ));
            Rba::ZERO
        }
    };
    let mut reader = log.read_forward(phase2_start)?;
    while let Some(record) = reader.next_ref() {
        let record = record?;
        let decoded = match decode(&record)? {
            Some(Decoded::Put { record: put, .. }) => {
                if let Some(urid) = put.ur.urid(record.rba) {
                    unit_of_recovery(&mut status, urid);
                }
                continue;
            }
            Some(Decoded::Other(other)) => Some(other),
            None => None,
        };
        match decoded {
            Some(RecoveryRecord::Get(get)) => {
                if let Some(urid) = get.ur.urid(record.rba) {
                    unit_of_recovery(&mut status, urid);
                }
            }
            Some(RecoveryRecord::Commit(urid)) => {
                status.remove(&urid);
            }
            Some(RecoveryRecord::Backout(backout)) => {
                status.remove(&backout.urid);
            }
            Some(RecoveryRecord::Prepare(urid)) => {
                if let Some(entry) = status.get_mut(&urid) {
                    entry.state = UrState::InDoubt;
                }
            }
            // Shared queues' records are skipped undecoded (`decode`).
            Some(_) | None => {}
        }
    }
    let (in_doubt, in_flight) = counts(&status);
    say(&format!(
        "CSQR004I {name} RESTART - PHASE 2 COMPLETE - INCOMMIT=0, INDOUBT={in_doubt}, INFLIGHT={in_flight}, INBACKOUT=0"
    ));
    Ok(last)
}

/// Phase 3, forward log recovery: from the newest checkpoint at or before the lowest page set
/// recovery RBA to `end`, the end of the log, redo every record (each redo skips a page already
/// newer than the record), completing committed work, and rebuild the table of units of
/// recovery still open at the end, which it returns.
fn forward_recovery(
    data: &DataManager,
    log: &LogManager,
    name: &str,
    say: &dyn Fn(&str),
    last: Option<CheckpointLocation>,
    end: Rba,
    state: &mut RestartState,
) -> StorageResult<BTreeMap<Urid, UrEntry>> {
    let mut redo_start = end;
    for space in data.spaces() {
        let header = space.page_set.header();
        say(&format!(
            "CSQI049I {name} Page set {:02} has media recovery RBA={}, checkpoint RBA={}",
            header.page_set.0,
            header.recovery_rba,
            last.map_or(Rba::ZERO, |location| location.begin_rba)
        ));
        redo_start = redo_start.min(header.recovery_rba);
    }
    let history = log.checkpoint_history();
    let seed_checkpoint = history
        .iter()
        .filter(|location| location.begin_rba <= redo_start)
        .max_by_key(|location| location.begin_rba)
        .copied();
    let scan_start = seed_checkpoint.map_or(Rba::ZERO, |location| location.begin_rba);
    data.load_space_maps()?;
    say(&format!(
        "CSQR030I {name} FORWARD RECOVERY LOG RANGE FROM RBA={scan_start} TO RBA={end}"
    ));
    state.forward_range = (scan_start, end);
    let mut table: BTreeMap<Urid, UrEntry> = BTreeMap::new();
    let mut seeded = false;
    let mut reader = log.read_forward(scan_start)?;
    let mut next_progress = Instant::now() + RESTART_PROGRESS_INTERVAL;
    while let Some(record) = reader.next_ref() {
        let record = record?;
        let rba = record.rba;
        if Instant::now() >= next_progress {
            next_progress = Instant::now() + RESTART_PROGRESS_INTERVAL;
            say(&format!(
                "CSQR031I {name} FORWARD RECOVERY LOG RANGE FROM RBA={scan_start} TO RBA={end}, \
                 PROCESSING RBA={rba}"
            ));
        }
        let Some(decoded) = decode(&record)? else {
            continue;
        };
        state.records_redone += 1;
        redo(data, rba, decoded, &mut table, &mut seeded, state)?;
    }
    let (in_doubt, _) = counts(&table);
    say(&format!(
        "CSQR005I {name} RESTART - FORWARD RECOVERY COMPLETE - INCOMMIT=0, INDOUBT={in_doubt}"
    ));
    Ok(table)
}

/// Redo one record of forward recovery at `rba`. The first checkpoint record met seeds `table`
/// with the units of recovery it lists (`seeded` says whether one has).
fn redo(
    data: &DataManager,
    rba: Rba,
    decoded: Decoded<'_>,
    table: &mut BTreeMap<Urid, UrEntry>,
    seeded: &mut bool,
    state: &mut RestartState,
) -> StorageResult<()> {
    let decoded = match decoded {
        Decoded::Put { record: put, image } => {
            state.next_message_sequence = state.next_message_sequence.max(put.sequence + 1);
            state.next_object_id = state.next_object_id.max(put.object_id + 1);
            data.redo_put(rba, &put, image)?;
            if let Some(urid) = put.ur.urid(rba) {
                unit_of_recovery(table, urid).operations.push(UrOperation {
                    is_put: true,
                    location: put.location,
                    object_id: put.object_id,
                    sequence: put.sequence,
                });
            }
            return Ok(());
        }
        Decoded::Other(other) => other,
    };
    match decoded {
        RecoveryRecord::Checkpoint(checkpoint) => {
            if !*seeded {
                seed(table, &checkpoint);
                *seeded = true;
            }
            state.next_message_sequence = state
                .next_message_sequence
                .max(checkpoint.next_message_sequence);
            state.next_object_id = state.next_object_id.max(checkpoint.next_object_id);
        }
        RecoveryRecord::Put { .. } => unreachable!("PUT records are redone above"),
        RecoveryRecord::Get(get) => match get.ur.urid(rba) {
            None => data.redo_free(rba, get.location)?,
            Some(urid) => unit_of_recovery(table, urid).operations.push(UrOperation {
                is_put: false,
                location: get.location,
                object_id: get.object_id,
                sequence: get.sequence,
            }),
        },
        RecoveryRecord::Commit(urid) => {
            if let Some(entry) = table.remove(&urid) {
                for operation in entry
                    .operations
                    .iter()
                    .filter(|operation| !operation.is_put)
                {
                    data.redo_free(rba, operation.location)?;
                }
            }
        }
        RecoveryRecord::Backout(backout) => {
            if let Some(entry) = table.remove(&backout.urid) {
                for (location, count) in &backout.backout_counts {
                    data.redo_backout_count(rba, *location, *count)?;
                }
                for operation in entry.operations.iter().filter(|operation| operation.is_put) {
                    data.redo_free(rba, operation.location)?;
                }
            }
        }
        RecoveryRecord::Prepare(urid) => {
            if let Some(entry) = table.get_mut(&urid) {
                entry.state = UrState::InDoubt;
            }
        }
        RecoveryRecord::SharedPut { .. }
        | RecoveryRecord::SharedGet(_)
        | RecoveryRecord::SharedCommit(_)
        | RecoveryRecord::SharedBackout(_)
        | RecoveryRecord::CfBackup(_)
        | RecoveryRecord::CfBackupEnd(_) => unreachable!("decode skips shared queues' records"),
    }
    Ok(())
}

/// Phase 4, backward log recovery: back out every in-flight unit of recovery in `table` (a
/// BACKOUT record each, forced), oldest first. Returns the units left: the in-doubt ones.
fn backward_recovery(
    data: &DataManager,
    log: &LogManager,
    name: &str,
    say: &dyn Fn(&str),
    end: Rba,
    mut table: BTreeMap<Urid, UrEntry>,
) -> StorageResult<BTreeMap<Urid, UrEntry>> {
    let in_flight_urids: Vec<Urid> = table
        .iter()
        .filter(|(_, entry)| entry.state == UrState::InFlight)
        .map(|(urid, _)| *urid)
        .collect();
    if let Some(oldest) = in_flight_urids.first() {
        say(&format!(
            "CSQR032I {name} BACKWARD RECOVERY LOG RANGE FROM RBA={end} TO RBA={}",
            oldest.0
        ));
    }
    debug_assert_eq!(in_flight_urids.len(), counts(&table).1);
    let backward_total = in_flight_urids.len();
    let mut next_progress = Instant::now() + RESTART_PROGRESS_INTERVAL;
    for (done, urid) in in_flight_urids.into_iter().enumerate() {
        if Instant::now() >= next_progress {
            next_progress = Instant::now() + RESTART_PROGRESS_INTERVAL;
            say(&format!(
                "CSQR033I {name} BACKWARD RECOVERY OF {backward_total} UNITS OF RECOVERY, \
                 {done} DONE, NOW URID={urid}"
            ));
        }
        let entry = table.remove(&urid).expect("listed above");
        back_out(data, urid, &entry)?;
    }
    let after = log.end_rba();
    log.force(after)?;
    say(&format!(
        "CSQR006I {name} RESTART - BACKWARD RECOVERY COMPLETE - INBACKOUT=0"
    ));
    Ok(table)
}

/// Back out one in-flight unit of recovery: free the slots it put, raise the backout count of
/// each message it got, and write its BACKOUT record.
fn back_out(data: &DataManager, urid: Urid, entry: &UrEntry) -> StorageResult<()> {
    let frees: Vec<SlotEffect> = entry
        .operations
        .iter()
        .filter(|operation| operation.is_put)
        .map(|operation| SlotEffect {
            location: operation.location,
            persistent: true,
        })
        .collect();
    let mut backout_counts = Vec::new();
    for operation in entry
        .operations
        .iter()
        .filter(|operation| !operation.is_put)
    {
        let count = data.backout_count_at(operation.location)?.saturating_add(1);
        backout_counts.push((
            SlotEffect {
                location: operation.location,
                persistent: true,
            },
            count,
        ));
    }
    let record = BackoutRecord {
        urid,
        backout_counts: backout_counts
            .iter()
            .map(|(effect, count)| (effect.location, *count))
            .collect(),
    };
    data.end_unit_of_recovery(
        Some((kind::BACKOUT, record.encode())),
        &frees,
        &backout_counts,
    )?;
    Ok(())
}
