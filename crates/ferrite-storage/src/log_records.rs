//! Log record formats: the records the resource managers write to the recovery log (the data
//! manager's PUT and GET, the recovery manager's COMMIT, PREPARE, BACKOUT and CHECKPOINT), their
//! kinds and what each payload holds, and the compact encoding they share ([`codec`]).
//!
//! The log manager frames each record (length, checksum, kind; `log/record.rs`) and never reads
//! a payload. The formats belong to no one manager: the data manager writes them and redoes
//! them, the recovery manager reads them back at restart, so both depend on this module and it
//! depends on neither. All integers are LEB128 varints unless stated.
//!
//! | Kind | Record | Payload | Redo | Undo |
//! |---|---|---|---|---|
//! | 1 | PUT | ur, slot kind, location, object id, sequence, flags, continuation pages, image | write the slot and continuation pages | free them (backout) |
//! | 2 | GET | ur, location, object id, sequence | — (free at commit) | — |
//! | 3 | COMMIT | urid | free slots the UR got | — |
//! | 4 | PREPARE | urid | UR becomes in doubt | — |
//! | 5 | BACKOUT | urid, backout counts | free slots the UR put; set backout counts | — |
//! | 6 | CHECKPOINT | sequence, counters, page set RBAs, units of recovery and their operations | — | — |
//! | 0x11-0x16 | shared queues' records ([`shared`]) | structure, queue, entry, ... | — (structure recovery only) | — |
//!
//! `ur` encodes the unit of recovery: 0 = none (out of syncpoint: the record commits itself),
//! 1 = this record begins a UR whose URID is this record's RBA, n ≥ 2 = URID n − 2.
//! A GET with ur 0 frees the slot at once (out-of-syncpoint get, or an object deletion).

pub mod codec;
pub mod shared;

use self::codec::{DecodeError, Decoder, Encoder};
use crate::types::{PageNumber, PageSetId, Rba, Urid};

pub mod kind {
    pub const PUT: u8 = 1;
    pub const GET: u8 = 2;
    pub const COMMIT: u8 = 3;
    pub const PREPARE: u8 = 4;
    pub const BACKOUT: u8 = 5;
    pub const CHECKPOINT: u8 = 6;
    /// Shared queues' records ([`super::shared`]): restart skips them.
    pub const SHARED_PUT: u8 = 0x11;
    pub const SHARED_GET: u8 = 0x12;
    pub const SHARED_COMMIT: u8 = 0x13;
    pub const SHARED_BACKOUT: u8 = 0x14;
    pub const CF_BACKUP: u8 = 0x15;
    pub const CF_BACKUP_END: u8 = 0x16;
}

/// Upper bound on continuation pages in one record: a 100 MiB message.
pub const CONTINUATION_PAGES_MAX: usize = 100 * 1024 * 1024 / 4064 + 1;
pub const IMAGE_BYTES_MAX: usize = 104_857_600 + 4096;

/// Where a record (message or object definition) starts: page set, page and slot offset.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MessageLocation {
    pub page_set: PageSetId,
    pub page: PageNumber,
    pub offset: u16,
}

impl std::fmt::Display for MessageLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}+{}", self.page_set, self.page, self.offset)
    }
}

/// How a record refers to its unit of recovery.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UrReference {
    /// Out of syncpoint: the record is committed by itself.
    None,
    /// The record begins a UR; its URID is the record's own RBA.
    Begins,
    Continues(Urid),
}

impl UrReference {
    fn encode(self, encoder: &mut Encoder) {
        encoder.varint(match self {
            UrReference::None => 0,
            UrReference::Begins => 1,
            UrReference::Continues(urid) => urid.0 .0 + 2,
        });
    }
    fn decode(decoder: &mut Decoder) -> Result<UrReference, DecodeError> {
        Ok(match decoder.varint()? {
            0 => UrReference::None,
            1 => UrReference::Begins,
            n => UrReference::Continues(Urid(Rba(n - 2))),
        })
    }
    /// The URID this record belongs to, given the record's own RBA.
    pub fn urid(self, record_rba: Rba) -> Option<Urid> {
        match self {
            UrReference::None => None,
            UrReference::Begins => Some(Urid(record_rba)),
            UrReference::Continues(urid) => Some(urid),
        }
    }
}

fn encode_location(encoder: &mut Encoder, location: &MessageLocation) {
    encoder
        .u8(location.page_set.0)
        .varint(location.page.0 as u64)
        .varint(location.offset as u64);
}

fn decode_location(decoder: &mut Decoder) -> Result<MessageLocation, DecodeError> {
    let page_set = PageSetId::new(decoder.u8()?).ok_or(DecodeError("page set id above 99"))?;
    let page = PageNumber(decoder.varint_u32()?);
    let offset =
        u16::try_from(decoder.varint()?).map_err(|_| DecodeError("slot offset too large"))?;
    Ok(MessageLocation {
        page_set,
        page,
        offset,
    })
}

/// PUT: a message (or object definition) placed in a slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PutRecord {
    pub ur: UrReference,
    pub slot_kind: u8,
    pub location: MessageLocation,
    pub object_id: u32,
    pub sequence: u64,
    /// The head page was freshly formatted for this record.
    pub new_page: bool,
    pub continuation_pages: Vec<u32>,
}

impl PutRecord {
    /// Encode everything but the image, which the caller appends as a second part so that the
    /// message bytes are copied once, straight into the log buffer.
    pub fn encode_header(&self) -> Vec<u8> {
        let mut encoder = Encoder::with_capacity(32 + 4 * self.continuation_pages.len());
        self.ur.encode(&mut encoder);
        encoder.u8(self.slot_kind);
        encode_location(&mut encoder, &self.location);
        encoder
            .varint(self.object_id as u64)
            .varint(self.sequence)
            .u8(self.new_page as u8);
        encoder.varint(self.continuation_pages.len() as u64);
        for page in &self.continuation_pages {
            encoder.varint(*page as u64);
        }
        encoder.bytes
    }

    /// Decode a PUT payload; returns the record and the image bytes.
    pub fn decode(payload: &[u8]) -> Result<(PutRecord, &[u8]), DecodeError> {
        let mut decoder = Decoder::new(payload);
        let ur = UrReference::decode(&mut decoder)?;
        let slot_kind = decoder.u8()?;
        let location = decode_location(&mut decoder)?;
        let object_id = decoder.varint_u32()?;
        let sequence = decoder.varint()?;
        let new_page = decoder.u8()? != 0;
        let count = decoder.varint()? as usize;
        if count > CONTINUATION_PAGES_MAX {
            return Err(DecodeError("too many continuation pages"));
        }
        let mut continuation_pages = Vec::with_capacity(count);
        for _ in 0..count {
            continuation_pages.push(decoder.varint_u32()?);
        }
        let image = decoder.rest();
        if image.len() > IMAGE_BYTES_MAX {
            return Err(DecodeError("image larger than the maximum message length"));
        }
        Ok((
            PutRecord {
                ur,
                slot_kind,
                location,
                object_id,
                sequence,
                new_page,
                continuation_pages,
            },
            image,
        ))
    }
}

/// GET: a message taken (destructively) by a unit of recovery, or an object deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GetRecord {
    pub ur: UrReference,
    pub location: MessageLocation,
    pub object_id: u32,
    pub sequence: u64,
}

impl GetRecord {
    pub fn encode(&self) -> Vec<u8> {
        let mut encoder = Encoder::with_capacity(24);
        self.ur.encode(&mut encoder);
        encode_location(&mut encoder, &self.location);
        encoder.varint(self.object_id as u64).varint(self.sequence);
        encoder.bytes
    }
    pub fn decode(payload: &[u8]) -> Result<GetRecord, DecodeError> {
        let mut decoder = Decoder::new(payload);
        let ur = UrReference::decode(&mut decoder)?;
        let location = decode_location(&mut decoder)?;
        let object_id = decoder.varint_u32()?;
        let sequence = decoder.varint()?;
        Ok(GetRecord {
            ur,
            location,
            object_id,
            sequence,
        })
    }
}

/// COMMIT and PREPARE payloads: just the URID.
pub fn encode_urid(urid: Urid) -> Vec<u8> {
    let mut encoder = Encoder::with_capacity(10);
    encoder.varint(urid.0 .0);
    encoder.bytes
}

pub fn decode_urid(payload: &[u8]) -> Result<Urid, DecodeError> {
    Ok(Urid(Rba(Decoder::new(payload).varint()?)))
}

/// BACKOUT: the URID and the backout count each got message has after the backout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackoutRecord {
    pub urid: Urid,
    pub backout_counts: Vec<(MessageLocation, u16)>,
}

impl BackoutRecord {
    pub fn encode(&self) -> Vec<u8> {
        let mut encoder = Encoder::with_capacity(16 + 12 * self.backout_counts.len());
        encoder
            .varint(self.urid.0 .0)
            .varint(self.backout_counts.len() as u64);
        for (location, count) in &self.backout_counts {
            encode_location(&mut encoder, location);
            encoder.varint(*count as u64);
        }
        encoder.bytes
    }
    pub fn decode(payload: &[u8]) -> Result<BackoutRecord, DecodeError> {
        let mut decoder = Decoder::new(payload);
        let urid = Urid(Rba(decoder.varint()?));
        let count = decoder.varint()? as usize;
        if count > decoder.remaining() {
            return Err(DecodeError("backout count list longer than the record"));
        }
        let mut backout_counts = Vec::with_capacity(count);
        for _ in 0..count {
            let location = decode_location(&mut decoder)?;
            let value = u16::try_from(decoder.varint()?)
                .map_err(|_| DecodeError("backout count too large"))?;
            backout_counts.push((location, value));
        }
        Ok(BackoutRecord {
            urid,
            backout_counts,
        })
    }
}

/// One operation of a unit of recovery, as the checkpoint records it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UrOperation {
    pub is_put: bool,
    pub location: MessageLocation,
    pub object_id: u32,
    pub sequence: u64,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UrState {
    /// Work in progress; backed out at restart.
    InFlight,
    /// Prepared (end of commit phase 1); kept, with its locks, until resolved.
    InDoubt,
}

/// A unit of recovery as a checkpoint records it: enough to recover it without reading the
/// log before the checkpoint (the analogue of MQ's log shunting).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrSnapshot {
    pub urid: Urid,
    pub state: UrState,
    pub operations: Vec<UrOperation>,
}

/// CHECKPOINT: everything restart needs to continue from this point.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CheckpointRecord {
    pub checkpoint_sequence: u64,
    pub next_message_sequence: u64,
    pub next_object_id: u32,
    pub page_set_recovery_rbas: Vec<(PageSetId, Rba)>,
    pub units_of_recovery: Vec<UrSnapshot>,
}

impl CheckpointRecord {
    pub fn encode(&self) -> Vec<u8> {
        let mut encoder = Encoder::with_capacity(64);
        encoder
            .varint(self.checkpoint_sequence)
            .varint(self.next_message_sequence);
        encoder.varint(self.next_object_id as u64);
        encoder.varint(self.page_set_recovery_rbas.len() as u64);
        for (page_set, rba) in &self.page_set_recovery_rbas {
            encoder.u8(page_set.0).varint(rba.0);
        }
        encoder.varint(self.units_of_recovery.len() as u64);
        for ur in &self.units_of_recovery {
            encoder
                .varint(ur.urid.0 .0)
                .u8(matches!(ur.state, UrState::InDoubt) as u8);
            encoder.varint(ur.operations.len() as u64);
            for operation in &ur.operations {
                encoder.u8(operation.is_put as u8);
                encode_location(&mut encoder, &operation.location);
                encoder
                    .varint(operation.object_id as u64)
                    .varint(operation.sequence);
            }
        }
        encoder.bytes
    }

    pub fn decode(payload: &[u8]) -> Result<CheckpointRecord, DecodeError> {
        let mut decoder = Decoder::new(payload);
        let mut record = CheckpointRecord {
            checkpoint_sequence: decoder.varint()?,
            next_message_sequence: decoder.varint()?,
            next_object_id: decoder.varint_u32()?,
            ..CheckpointRecord::default()
        };
        let count = decoder.varint()? as usize;
        if count > 100 {
            return Err(DecodeError("more than 100 page sets"));
        }
        for _ in 0..count {
            let page_set =
                PageSetId::new(decoder.u8()?).ok_or(DecodeError("page set id above 99"))?;
            record
                .page_set_recovery_rbas
                .push((page_set, Rba(decoder.varint()?)));
        }
        let count = decoder.varint()? as usize;
        if count > decoder.remaining() {
            return Err(DecodeError("unit of recovery list longer than the record"));
        }
        for _ in 0..count {
            let urid = Urid(Rba(decoder.varint()?));
            let state = if decoder.u8()? != 0 {
                UrState::InDoubt
            } else {
                UrState::InFlight
            };
            let operation_count = decoder.varint()? as usize;
            if operation_count > decoder.remaining() {
                return Err(DecodeError("operation list longer than the record"));
            }
            let mut operations = Vec::with_capacity(operation_count);
            for _ in 0..operation_count {
                let is_put = decoder.u8()? != 0;
                let location = decode_location(&mut decoder)?;
                let object_id = decoder.varint_u32()?;
                let sequence = decoder.varint()?;
                operations.push(UrOperation {
                    is_put,
                    location,
                    object_id,
                    sequence,
                });
            }
            record.units_of_recovery.push(UrSnapshot {
                urid,
                state,
                operations,
            });
        }
        Ok(record)
    }
}

/// A decoded record, for restart and for the log print utility.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecoveryRecord {
    Put {
        record: PutRecord,
        image: Vec<u8>,
    },
    Get(GetRecord),
    Commit(Urid),
    Prepare(Urid),
    Backout(BackoutRecord),
    Checkpoint(CheckpointRecord),
    SharedPut {
        record: shared::SharedQueueRecord,
        message: shared::SharedMessageImage,
    },
    SharedGet(shared::SharedQueueRecord),
    SharedCommit(shared::SharedUnitEnd),
    SharedBackout(shared::SharedUnitEnd),
    CfBackup(shared::BackupMessage),
    CfBackupEnd(shared::BackupEnd),
}

impl RecoveryRecord {
    pub fn decode(kind: u8, payload: &[u8]) -> Result<RecoveryRecord, DecodeError> {
        Ok(match kind {
            kind::PUT => {
                let (record, image) = PutRecord::decode(payload)?;
                RecoveryRecord::Put {
                    record,
                    image: image.to_vec(),
                }
            }
            kind::GET => RecoveryRecord::Get(GetRecord::decode(payload)?),
            kind::COMMIT => RecoveryRecord::Commit(decode_urid(payload)?),
            kind::PREPARE => RecoveryRecord::Prepare(decode_urid(payload)?),
            kind::BACKOUT => RecoveryRecord::Backout(BackoutRecord::decode(payload)?),
            kind::CHECKPOINT => RecoveryRecord::Checkpoint(CheckpointRecord::decode(payload)?),
            kind::SHARED_PUT => {
                let (record, message) = shared::SharedQueueRecord::decode_put(payload)?;
                RecoveryRecord::SharedPut { record, message }
            }
            kind::SHARED_GET => {
                RecoveryRecord::SharedGet(shared::SharedQueueRecord::decode_get(payload)?)
            }
            kind::SHARED_COMMIT => {
                RecoveryRecord::SharedCommit(shared::SharedUnitEnd::decode(payload)?)
            }
            kind::SHARED_BACKOUT => {
                RecoveryRecord::SharedBackout(shared::SharedUnitEnd::decode(payload)?)
            }
            kind::CF_BACKUP => RecoveryRecord::CfBackup(shared::BackupMessage::decode(payload)?),
            kind::CF_BACKUP_END => RecoveryRecord::CfBackupEnd(shared::BackupEnd::decode(payload)?),
            _ => return Err(DecodeError("unknown log record kind")),
        })
    }

    /// One line describing the record, for `ferrite log print`.
    pub fn describe(&self, rba: Rba) -> String {
        match self {
            RecoveryRecord::Put { record, image } => format!(
                "{rba} PUT      ur={} kind={} at {} object={} seq={} new_page={} continuation_pages={} image_bytes={}",
                describe_ur(record.ur, rba), record.slot_kind, record.location, record.object_id,
                record.sequence, record.new_page, record.continuation_pages.len(), image.len()
            ),
            RecoveryRecord::Get(record) => format!(
                "{rba} GET      ur={} at {} object={} seq={}",
                describe_ur(record.ur, rba), record.location, record.object_id, record.sequence
            ),
            RecoveryRecord::Commit(urid) => format!("{rba} COMMIT   urid={urid}"),
            RecoveryRecord::Prepare(urid) => format!("{rba} PREPARE  urid={urid}"),
            RecoveryRecord::Backout(record) => {
                format!("{rba} BACKOUT  urid={} messages={}", record.urid, record.backout_counts.len())
            }
            RecoveryRecord::Checkpoint(record) => format!(
                "{rba} CHECKPOINT sequence={} units_of_recovery={} page_sets={}",
                record.checkpoint_sequence, record.units_of_recovery.len(), record.page_set_recovery_rbas.len()
            ),
            RecoveryRecord::SharedPut { record, message } => format!(
                "{rba} SHARED PUT unit={} {}({}) entry={} bytes={}",
                record.unit, record.entry.queue, record.entry.structure, record.entry.entry, message.data.len()
            ),
            RecoveryRecord::SharedGet(record) => format!(
                "{rba} SHARED GET unit={} {}({}) entry={}",
                record.unit, record.entry.queue, record.entry.structure, record.entry.entry
            ),
            RecoveryRecord::SharedCommit(end) => {
                format!("{rba} SHARED COMMIT unit={} structure={}", end.unit, end.structure)
            }
            RecoveryRecord::SharedBackout(end) => {
                format!("{rba} SHARED BACKOUT unit={} structure={}", end.unit, end.structure)
            }
            RecoveryRecord::CfBackup(backup) => format!(
                "{rba} CF BACKUP {}({}) entry={} backup={}",
                backup.entry.queue, backup.entry.structure, backup.entry.entry, backup.backup_ms
            ),
            RecoveryRecord::CfBackupEnd(end) => format!(
                "{rba} CF BACKUP END structure={} backup={} messages={} entries={}",
                end.structure, end.backup_ms, end.messages, end.entries
            ),
        }
    }
}

fn describe_ur(ur: UrReference, rba: Rba) -> String {
    match ur.urid(rba) {
        None => "none".to_string(),
        Some(urid) => urid.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn location() -> MessageLocation {
        MessageLocation {
            page_set: PageSetId(3),
            page: PageNumber(4711),
            offset: 88,
        }
    }

    #[test]
    fn records_round_trip() {
        let put = PutRecord {
            ur: UrReference::Continues(Urid(Rba(123_456))),
            slot_kind: 1,
            location: location(),
            object_id: 12,
            sequence: 99,
            new_page: true,
            continuation_pages: vec![5, 6, 7],
        };
        let mut payload = put.encode_header();
        payload.extend_from_slice(b"image");
        assert_eq!(PutRecord::decode(&payload).unwrap(), (put, &b"image"[..]));
        let get = GetRecord {
            ur: UrReference::Begins,
            location: location(),
            object_id: 1,
            sequence: 2,
        };
        assert_eq!(GetRecord::decode(&get.encode()).unwrap(), get);
        let backout = BackoutRecord {
            urid: Urid(Rba(77)),
            backout_counts: vec![(location(), 3)],
        };
        assert_eq!(BackoutRecord::decode(&backout.encode()).unwrap(), backout);
        let checkpoint = CheckpointRecord {
            checkpoint_sequence: 5,
            next_message_sequence: 1000,
            next_object_id: 40,
            page_set_recovery_rbas: vec![(PageSetId(0), Rba(4096))],
            units_of_recovery: vec![UrSnapshot {
                urid: Urid(Rba(8192)),
                state: UrState::InDoubt,
                operations: vec![UrOperation {
                    is_put: true,
                    location: location(),
                    object_id: 3,
                    sequence: 4,
                }],
            }],
        };
        let encoded = checkpoint.encode();
        assert_eq!(CheckpointRecord::decode(&encoded).unwrap(), checkpoint);
        for cut in 0..encoded.len() {
            assert!(CheckpointRecord::decode(&encoded[..cut]).is_err());
        }
    }

    #[test]
    fn get_and_commit_records_are_small() {
        let get = GetRecord {
            ur: UrReference::Continues(Urid(Rba(1 << 40))),
            location: location(),
            object_id: 12,
            sequence: 1 << 30,
        };
        assert!(get.encode().len() <= 20, "{}", get.encode().len());
        assert!(encode_urid(Urid(Rba(1 << 40))).len() <= 7);
    }
}
