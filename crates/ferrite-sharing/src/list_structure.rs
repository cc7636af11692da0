//! Shared queues' messages in a CF list structure, on Redis: each shared queue is a keyed,
//! ordered list (a sorted set ordered by priority, then by arrival), with secondary keys for
//! MSGID and CORRELID selection, and units of work whose changes stay invisible until one
//! Lua script applies them all at commit. Every operation is one script call (one round trip:
//! EVALSHA), atomic in Redis, so a member that dies between calls leaves no half-done change:
//! its uncommitted units are lists under its own name that any member can back out (peer
//! recovery, [`ListStructure::units_of`]).
//!
//! Keys (docs/formats.md, "Coupling facility (Redis)"), for group G, structure S, queue Q:
//!
//! | key | type | holds |
//! |---|---|---|
//! | `qsg:{G}:s:S:state` | string | `ACTIVE` from the structure's allocation: absent, it was never used or was lost |
//! | `qsg:{G}:s:S:seq` | string | the structure's entry counter |
//! | `qsg:{G}:s:S:q:Q:i` | sorted set | Q's visible entries, score = (9 - priority) x 2^44 + entry |
//! | `qsg:{G}:s:S:q:Q:r` | hash | entry -> record (priority, MSGID, CORRELID, data) |
//! | `qsg:{G}:s:S:q:Q:b` | hash | entry -> backout count (absent: 0) |
//! | `qsg:{G}:s:S:q:Q:m:MSGID` | sorted set | Q's visible entries with that MSGID (hex) |
//! | `qsg:{G}:s:S:q:Q:c:CORRELID` | sorted set | Q's visible entries with that CORRELID (hex) |
//! | `qsg:{G}:s:S:u:MEMBER:UNIT` | list | a unit of work's staged puts and gets |
//! | `qsg:{G}:s:S:units:MEMBER` | set | the member's units with staged changes |
//! | `qsg:{G}:prepared:MEMBER` | hash | URID -> unit: private halves prepared, shared half not committed |
//! | `qsg:{G}:decisions:MEMBER` | hash | URID -> unit: shared half committed, private half must commit |
//! | `qsg:{G}:aborted:MEMBER` | set | units peer recovery backed out (a later commit backs out) |
//!
//! The channel `qsg:{G}:arrivals` carries a queue's name when its visible depth goes from 0
//! to 1 (a put, a commit or a backout), so that waiting getters on every member wake.

use ferrite_constants::reason::{MQRC_BACKED_OUT, MQRC_CF_STRUC_FAILED};
pub use ferrite_queue_manager::{
    BrowseCursor, RetrievedSharedMessage, SharedMessage, SharedSelection, SharingError,
    StructureMessage, StructureSnapshot, IDENTIFIER_LENGTH,
};

use crate::coupling_facility::CouplingFacility;

/// Entries a get or browse by MSGID and CORRELID together examines at most (those with the
/// MSGID, in order), a bound on one script's work.
pub const SELECTION_SCAN_MAX: usize = 1_000;
/// Messages one restore script puts back at most (a bound on one script's work).
pub const RESTORE_BATCH_MESSAGES: usize = 500;
/// Entries a structure numbers before its counter would pass the score's exact range (2^44).
pub const ENTRIES_MAX: u64 = 1 << 44;

/// A unit of work's name in the structure: the member that runs it and its own identifier.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SharedUnit {
    pub member: String,
    pub unit: String,
}

/// A queue's records (entry -> record) and backout counts (entry -> count).
type QueueHashes = (Vec<(u64, Vec<u8>)>, std::collections::HashMap<u64, u32>);

/// The script behind every operation; ARGV[1] names it, ARGV[2] is the structure's key prefix.
const SCRIPT: &str = include_str!("list_structure.lua");

/// One connection's view of one CF list structure.
pub struct ListStructure {
    facility: CouplingFacility,
    group: String,
    prefix: String,
    arrivals: String,
    script: redis::Script,
}

impl ListStructure {
    /// The structure `structure` of group `group` over `facility`.
    pub fn new(facility: CouplingFacility, group: &str, structure: &str) -> ListStructure {
        ListStructure {
            facility,
            group: group.to_string(),
            prefix: format!("qsg:{{{group}}}:s:{structure}:"),
            arrivals: arrivals_channel(group),
            script: redis::Script::new(SCRIPT),
        }
    }

    /// Put a message, visible at once (out of syncpoint); its entry.
    pub fn put(&mut self, queue: &str, message: &SharedMessage) -> Result<u64, SharingError> {
        self.put_record(queue, message, None)
    }

    /// Stage a put in `unit`: invisible until [`ListStructure::commit`]; the entry it has
    /// from then on.
    pub fn put_in_unit(
        &mut self,
        unit: &SharedUnit,
        queue: &str,
        message: &SharedMessage,
    ) -> Result<u64, SharingError> {
        self.put_record(queue, message, Some(unit))
    }

    fn put_record(
        &mut self,
        queue: &str,
        message: &SharedMessage,
        unit: Option<&SharedUnit>,
    ) -> Result<u64, SharingError> {
        assert!(message.priority <= 9, "priority 0-9");
        let record = encode_record(message);
        let (unit_key, units_key, unit_name) = self.unit_keys(unit);
        let entry: i64 = self.invoke(|invocation| {
            invocation
                .arg("put")
                .arg(queue)
                .arg(record)
                .arg(&unit_key)
                .arg(&units_key)
                .arg(&unit_name)
        })?;
        assert!(
            entry > 0 && (entry as u64) < ENTRIES_MAX,
            "structure entry counter exhausted"
        );
        Ok(entry as u64)
    }

    /// Get the first message `selection` matches, removed at once (out of syncpoint).
    pub fn get(
        &mut self,
        queue: &str,
        selection: SharedSelection,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError> {
        self.get_record(queue, selection, None)
    }

    /// Get the first message `selection` matches in `unit`: hidden from every other getter
    /// at once, removed at commit, restored (backout count + 1) at backout.
    pub fn get_in_unit(
        &mut self,
        unit: &SharedUnit,
        queue: &str,
        selection: SharedSelection,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError> {
        self.get_record(queue, selection, Some(unit))
    }

    fn get_record(
        &mut self,
        queue: &str,
        selection: SharedSelection,
        unit: Option<&SharedUnit>,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError> {
        let (kind, first, second) = selection_arguments(selection);
        let (unit_key, units_key, unit_name) = self.unit_keys(unit);
        let found: Option<(u64, Vec<u8>, u32, u64)> = self.invoke(|invocation| {
            invocation
                .arg("get")
                .arg(queue)
                .arg(kind)
                .arg(&first)
                .arg(&second)
                .arg(&unit_key)
                .arg(&units_key)
                .arg(&unit_name)
        })?;
        found.map(retrieved).transpose()
    }

    /// The first message after `after` that `selection` matches, left in place.
    pub fn browse(
        &mut self,
        queue: &str,
        selection: SharedSelection,
        after: BrowseCursor,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError> {
        let (kind, first, second) = selection_arguments(selection);
        let found: Option<(u64, Vec<u8>, u32, u64)> = self.invoke(|invocation| {
            invocation
                .arg("browse")
                .arg(queue)
                .arg(kind)
                .arg(&first)
                .arg(&second)
                .arg(after.0)
        })?;
        found.map(retrieved).transpose()
    }

    /// The queue's visible messages (committed, not taken by a unit of work).
    pub fn depth(&mut self, queue: &str) -> Result<u64, SharingError> {
        self.invoke(|invocation| invocation.arg("depth").arg(queue))
    }

    /// Apply every staged change of `unit` at once: its puts become visible (in the order
    /// they were put), its gets are removed.
    pub fn commit(&mut self, unit: &SharedUnit) -> Result<(), SharingError> {
        self.end_unit("commit", unit)
    }

    /// Undo `unit`: its puts vanish, its gets are visible again with their backout count
    /// raised. Any member may back out any member's unit (peer recovery).
    pub fn backout(&mut self, unit: &SharedUnit) -> Result<(), SharingError> {
        self.end_unit("backout", unit)
    }

    /// Peer recovery's backout of a failed member's `unit`: as [`ListStructure::backout`],
    /// and the unit is listed in the member's aborted set ([`aborted_key`]), so that if the
    /// member was only cut off, its later MQCMIT of the unit backs it out (MQRC_BACKED_OUT).
    pub fn backout_for_peer(&mut self, unit: &SharedUnit) -> Result<(), SharingError> {
        self.end_unit_as("backout", unit, "", true)
    }

    /// Commit `unit`, whose member's private half is prepared as unit of recovery `urid`:
    /// in the same script, the member's decision to commit `urid` is recorded
    /// ([`decisions_key`]) and its prepared mark ([`prepared_key`]) removed, so that the
    /// member's restart knows which way its in-doubt private half goes.
    pub fn commit_deciding(&mut self, unit: &SharedUnit, urid: &str) -> Result<(), SharingError> {
        self.end_unit_deciding("commit", unit, urid)
    }

    fn end_unit(&mut self, operation: &str, unit: &SharedUnit) -> Result<(), SharingError> {
        self.end_unit_as(operation, unit, "", false)
    }

    fn end_unit_deciding(
        &mut self,
        operation: &str,
        unit: &SharedUnit,
        urid: &str,
    ) -> Result<(), SharingError> {
        self.end_unit_as(operation, unit, urid, false)
    }

    fn end_unit_as(
        &mut self,
        operation: &str,
        unit: &SharedUnit,
        urid: &str,
        by_peer: bool,
    ) -> Result<(), SharingError> {
        let (unit_key, units_key, unit_name) = self.unit_keys(Some(unit));
        let group = self.group.clone();
        let ended: Result<i64, SharingError> = self.invoke(|invocation| {
            invocation
                .arg(operation)
                .arg(&unit_key)
                .arg(&units_key)
                .arg(&unit_name)
                .arg(prepared_key(&group, &unit.member))
                .arg(decisions_key(&group, &unit.member))
                .arg(urid)
                .arg(aborted_key(&group, &unit.member))
                .arg(if by_peer { "peer" } else { "" })
        });
        match ended {
            Ok(_) => Ok(()),
            Err(error) if error.text.contains("FERRITE_BACKED_OUT") => Err(SharingError::new(
                MQRC_BACKED_OUT,
                format!("unit of work {} was backed out by peer recovery", unit.unit),
            )),
            Err(error) => Err(error),
        }
    }

    /// Allocate the structure (mark it present in the server) with its entry counter at
    /// least `entries`; nothing changes in a structure already allocated but the counter.
    pub fn allocate(&mut self, entries: u64) -> Result<(), SharingError> {
        let _: i64 = self.invoke(|invocation| invocation.arg("allocate").arg(entries))?;
        Ok(())
    }

    /// Put `messages` back with their own entries and backout counts (RECOVER CFSTRUCT), in
    /// batches of [`RESTORE_BATCH_MESSAGES`] a script.
    pub fn restore(&mut self, messages: &[StructureMessage]) -> Result<(), SharingError> {
        for batch in messages.chunks(RESTORE_BATCH_MESSAGES) {
            let _: i64 = self.invoke(|invocation| {
                invocation.arg("restore");
                for message in batch {
                    assert!(
                        message.entry > 0 && message.entry < ENTRIES_MAX,
                        "a valid entry"
                    );
                    invocation
                        .arg(&message.queue)
                        .arg(message.entry)
                        .arg(message.backout_count)
                        .arg(encode_record(&message.message));
                }
                invocation
            })?;
        }
        Ok(())
    }

    /// Every committed message of the structure (including those a unit of work has got but
    /// not committed) and its entry counter, read queue by queue; the order of the entries is
    /// the queues' (by name) then the entries'.
    pub fn snapshot(&mut self) -> Result<StructureSnapshot, SharingError> {
        let pattern = format!("{}q:*:r", self.prefix);
        let mut keys: Vec<String> = self.facility.run(|connection| {
            let keys: redis::Iter<String> = redis::cmd("SCAN")
                .cursor_arg(0)
                .arg("MATCH")
                .arg(&pattern)
                .arg("COUNT")
                .arg(1000)
                .clone()
                .iter(connection)?;
            Ok(keys.collect())
        })?;
        keys.sort();
        keys.dedup();
        let mut snapshot = StructureSnapshot::default();
        for key in keys {
            snapshot.messages.extend(self.queue_snapshot(&key)?);
        }
        let counter_key = format!("{}seq", self.prefix);
        let entries: Option<u64> = self
            .facility
            .run(|connection| redis::cmd("GET").arg(&counter_key).query(connection))?;
        snapshot.entries = entries.unwrap_or(0);
        Ok(snapshot)
    }

    /// The committed messages of the queue whose records hash is `records_key`, by entry.
    fn queue_snapshot(&mut self, records_key: &str) -> Result<Vec<StructureMessage>, SharingError> {
        let queue = &records_key[self.prefix.len() + 2..records_key.len() - 2];
        let backouts_key = format!("{}b", &records_key[..records_key.len() - 1]);
        let (records, backouts): QueueHashes = self.facility.run(|connection| {
            redis::pipe()
                .cmd("HGETALL")
                .arg(records_key)
                .cmd("HGETALL")
                .arg(&backouts_key)
                .query(connection)
        })?;
        let mut messages = records
            .into_iter()
            .map(|(entry, record)| {
                Ok(StructureMessage {
                    queue: queue.to_string(),
                    entry,
                    backout_count: backouts.get(&entry).copied().unwrap_or(0),
                    message: decode_record(&record).ok_or_else(damaged)?,
                })
            })
            .collect::<Result<Vec<_>, SharingError>>()?;
        messages.sort_by_key(|message| message.entry);
        Ok(messages)
    }

    /// The units of `member` with staged changes (what peer recovery backs out).
    pub fn units_of(&mut self, member: &str) -> Result<Vec<SharedUnit>, SharingError> {
        let key = format!("{}units:{member}", self.prefix);
        let names: Vec<String> = self
            .facility
            .run(|connection| redis::cmd("SMEMBERS").arg(&key).query(connection))?;
        let mut units: Vec<SharedUnit> = names
            .into_iter()
            .map(|unit| SharedUnit {
                member: member.to_string(),
                unit,
            })
            .collect();
        units.sort();
        Ok(units)
    }

    /// The unit's list key, its member's set key and its name ("" for none).
    fn unit_keys(&self, unit: Option<&SharedUnit>) -> (String, String, String) {
        match unit {
            None => (String::new(), String::new(), String::new()),
            Some(unit) => {
                assert!(
                    !unit.member.contains(':') && !unit.unit.contains(':'),
                    "member and unit names hold no ':'"
                );
                (
                    format!("{}u:{}:{}", self.prefix, unit.member, unit.unit),
                    format!("{}units:{}", self.prefix, unit.member),
                    unit.unit.clone(),
                )
            }
        }
    }

    /// Run the script once (EVALSHA, loading it first if the server does not have it).
    fn invoke<T: redis::FromRedisValue>(
        &mut self,
        arguments: impl for<'a, 'b> FnOnce(
            &'a mut redis::ScriptInvocation<'b>,
        ) -> &'a mut redis::ScriptInvocation<'b>,
    ) -> Result<T, SharingError> {
        let mut invocation = self.script.prepare_invoke();
        invocation.arg(&self.prefix).arg(&self.arrivals);
        arguments(&mut invocation);
        self.facility
            .run(|connection| invocation.invoke(connection))
    }
}

/// The channel that carries 0 -> 1 transitions of a group's shared queues.
pub fn arrivals_channel(group: &str) -> String {
    format!("qsg:{{{group}}}:arrivals")
}

/// The hash of `member`'s units of recovery prepared for a mixed unit of work whose shared
/// half is not yet committed (URID -> shared unit name).
pub fn prepared_key(group: &str, member: &str) -> String {
    format!("qsg:{{{group}}}:prepared:{member}")
}

/// The set of `member`'s units that peer recovery backed out (their later commit backs out).
pub fn aborted_key(group: &str, member: &str) -> String {
    format!("qsg:{{{group}}}:aborted:{member}")
}

/// The hash of `member`'s mixed units of work whose shared half committed, so their private
/// half must commit too (URID -> shared unit name).
pub fn decisions_key(group: &str, member: &str) -> String {
    format!("qsg:{{{group}}}:decisions:{member}")
}

/// The record the structure keeps: the priority digit, MSGID and CORRELID in hexadecimal
/// (48 characters each), then the data.
fn encode_record(message: &SharedMessage) -> Vec<u8> {
    let mut record = Vec::with_capacity(1 + 4 * IDENTIFIER_LENGTH + message.data.len());
    record.push(b'0' + message.priority);
    record.extend_from_slice(hex(&message.message_id).as_bytes());
    record.extend_from_slice(hex(&message.correlation_id).as_bytes());
    record.extend_from_slice(&message.data);
    record
}

const RECORD_HEADER_LENGTH: usize = 1 + 4 * IDENTIFIER_LENGTH;

fn decode_record(record: &[u8]) -> Option<SharedMessage> {
    if record.len() < RECORD_HEADER_LENGTH || !record[0].is_ascii_digit() {
        return None;
    }
    let identifier = |at: usize| unhex(&record[at..at + 2 * IDENTIFIER_LENGTH]);
    Some(SharedMessage {
        priority: record[0] - b'0',
        message_id: identifier(1)?,
        correlation_id: identifier(1 + 2 * IDENTIFIER_LENGTH)?,
        data: record[RECORD_HEADER_LENGTH..].to_vec(),
    })
}

fn damaged() -> SharingError {
    SharingError::new(
        MQRC_CF_STRUC_FAILED,
        "a shared message's record in the coupling facility is damaged",
    )
}

/// Whether `error` says the structure is not allocated in the coupling facility: never used,
/// or lost with the server's data.
pub fn is_not_allocated(error: &SharingError) -> bool {
    error.text.contains(NOT_ALLOCATED)
}

/// What the script's error says when the structure is not allocated.
const NOT_ALLOCATED: &str = "FERRITE_NOT_ALLOCATED";

fn retrieved(
    (score, record, backout_count, entry): (u64, Vec<u8>, u32, u64),
) -> Result<RetrievedSharedMessage, SharingError> {
    let message = decode_record(&record).ok_or_else(damaged)?;
    Ok(RetrievedSharedMessage {
        entry,
        message,
        backout_count,
        cursor: BrowseCursor(score),
    })
}

fn selection_arguments(selection: SharedSelection) -> (&'static str, String, String) {
    match selection {
        SharedSelection::First => ("A", String::new(), String::new()),
        SharedSelection::MessageId(id) => ("M", hex(&id), String::new()),
        SharedSelection::CorrelationId(id) => ("C", hex(&id), String::new()),
        SharedSelection::Both(message_id, correlation_id) => {
            ("B", hex(&message_id), hex(&correlation_id))
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02X}")).collect()
}

fn unhex(text: &[u8]) -> Option<[u8; IDENTIFIER_LENGTH]> {
    let mut bytes = [0u8; IDENTIFIER_LENGTH];
    for (index, pair) in text.chunks(2).enumerate() {
        let digits = std::str::from_utf8(pair).ok()?;
        *bytes.get_mut(index)? = u8::from_str_radix(digits, 16).ok()?;
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_damage_is_refused() {
        let message = SharedMessage {
            priority: 7,
            message_id: [0xAB; IDENTIFIER_LENGTH],
            correlation_id: [0x01; IDENTIFIER_LENGTH],
            data: b"payload|with|bars".to_vec(),
        };
        let record = encode_record(&message);
        assert_eq!(record.len(), RECORD_HEADER_LENGTH + message.data.len());
        assert_eq!(decode_record(&record), Some(message));
        assert_eq!(decode_record(b"short"), None);
        let mut damaged = record.clone();
        damaged[3] = b'Z';
        assert_eq!(decode_record(&damaged), None);
    }
}
