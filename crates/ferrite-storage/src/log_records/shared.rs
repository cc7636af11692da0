//! Shared queues' records in a member's own log: what a member of a queue sharing group logs so
//! that a CF structure lost with its messages can be rebuilt (RECOVER CFSTRUCT), as MQ for z/OS
//! logs persistent shared messages. Restart of the member never reads them (the structure, not
//! the member's page sets, holds shared messages): only structure recovery does.
//!
//! Every shared message is named by its structure's *entry*, a number the structure gives it
//! once and never again (recovery keeps the numbers). A unit of work on shared queues is named
//! by the unit name the structure knows it by; its puts and gets count only if the same log
//! holds its SHARED COMMIT. The records carry the wall-clock time (milliseconds since the Unix
//! epoch) at which they were logged, so that recovery can tell what followed a backup in every
//! member's log. The payloads (docs/formats.md, "Shared queue records"):
//!
//! | Kind | Record | Payload |
//! |---|---|---|
//! | 0x11 | SHARED PUT | unit, structure, queue, entry, time, priority, MSGID, CORRELID, message |
//! | 0x12 | SHARED GET | unit, structure, queue, entry, time |
//! | 0x13 | SHARED COMMIT | unit, structure, time |
//! | 0x14 | SHARED BACKOUT | unit, structure, time |
//! | 0x15 | CF BACKUP | structure, backup time, queue, entry, backout count, priority, MSGID, CORRELID, message |
//! | 0x16 | CF BACKUP END | structure, backup time, messages, entries |

use super::codec::{DecodeError, Decoder, Encoder};

/// MSGID and CORRELID length.
pub const IDENTIFIER_BYTES: usize = 24;
/// Longest structure, queue or unit name a record holds.
pub const NAME_BYTES_MAX: usize = 64;

/// Whether `kind` is one of this module's records (member restart skips them undecoded).
pub fn is_shared_kind(kind: u8) -> bool {
    (super::kind::SHARED_PUT..=super::kind::CF_BACKUP_END).contains(&kind)
}

/// A shared message's identity: structure, queue and entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedEntry {
    pub structure: String,
    pub queue: String,
    pub entry: u64,
}

/// A shared message's content as the structure keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedMessageImage {
    pub priority: u8,
    pub message_id: [u8; IDENTIFIER_BYTES],
    pub correlation_id: [u8; IDENTIFIER_BYTES],
    /// The member's image: descriptor and data (docs/formats.md, message records).
    pub data: Vec<u8>,
}

/// SHARED PUT and SHARED GET.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedQueueRecord {
    /// The unit of work's name in the structure; empty out of syncpoint.
    pub unit: String,
    pub entry: SharedEntry,
    pub time_ms: u64,
}

/// SHARED COMMIT and SHARED BACKOUT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedUnitEnd {
    pub unit: String,
    pub structure: String,
    pub time_ms: u64,
}

/// CF BACKUP: one persistent message of a structure's backup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupMessage {
    pub entry: SharedEntry,
    /// When the backup began (its identity in the log).
    pub backup_ms: u64,
    pub backout_count: u32,
    pub message: SharedMessageImage,
}

/// CF BACKUP END: a backup is whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupEnd {
    pub structure: String,
    pub backup_ms: u64,
    pub messages: u64,
    /// The structure's entry counter when the backup was taken.
    pub entries: u64,
}

fn name(encoder: &mut Encoder, text: &str) {
    assert!(text.len() <= NAME_BYTES_MAX, "names are short");
    encoder.bytes(text.as_bytes());
}

fn decode_name(decoder: &mut Decoder) -> Result<String, DecodeError> {
    let bytes = decoder.bytes(NAME_BYTES_MAX)?;
    String::from_utf8(bytes.to_vec()).map_err(|_| DecodeError("a name is not UTF-8"))
}

fn identifier(decoder: &mut Decoder) -> Result<[u8; IDENTIFIER_BYTES], DecodeError> {
    decoder
        .bytes(IDENTIFIER_BYTES)?
        .try_into()
        .map_err(|_| DecodeError("an identifier is not 24 bytes"))
}

/// A message's fields as SHARED PUT and CF BACKUP encode them.
fn encode_message(
    encoder: &mut Encoder,
    priority: u8,
    message_id: &[u8; IDENTIFIER_BYTES],
    correlation_id: &[u8; IDENTIFIER_BYTES],
    data: &[u8],
) {
    assert!(priority <= 9, "priority 0-9");
    encoder
        .u8(priority)
        .bytes(message_id)
        .bytes(correlation_id)
        .raw(data);
}

impl SharedMessageImage {
    fn encode(&self, encoder: &mut Encoder) {
        encode_message(
            encoder,
            self.priority,
            &self.message_id,
            &self.correlation_id,
            &self.data,
        );
    }

    fn decode(decoder: &mut Decoder) -> Result<SharedMessageImage, DecodeError> {
        let priority = decoder.u8()?;
        if priority > 9 {
            return Err(DecodeError("priority above 9"));
        }
        let message_id = identifier(decoder)?;
        let correlation_id = identifier(decoder)?;
        let data = decoder.rest();
        if data.len() > super::IMAGE_BYTES_MAX {
            return Err(DecodeError(
                "message larger than the maximum message length",
            ));
        }
        Ok(SharedMessageImage {
            priority,
            message_id,
            correlation_id,
            data: data.to_vec(),
        })
    }
}

impl SharedQueueRecord {
    fn encode_head(&self, encoder: &mut Encoder) {
        name(encoder, &self.unit);
        name(encoder, &self.entry.structure);
        name(encoder, &self.entry.queue);
        encoder.varint(self.entry.entry).varint(self.time_ms);
    }

    fn decode_head(decoder: &mut Decoder) -> Result<SharedQueueRecord, DecodeError> {
        Ok(SharedQueueRecord {
            unit: decode_name(decoder)?,
            entry: SharedEntry {
                structure: decode_name(decoder)?,
                queue: decode_name(decoder)?,
                entry: decoder.varint()?,
            },
            time_ms: decoder.varint()?,
        })
    }

    /// A SHARED PUT payload.
    pub fn encode_put(&self, message: &SharedMessageImage) -> Vec<u8> {
        self.encode_put_fields(
            message.priority,
            &message.message_id,
            &message.correlation_id,
            &message.data,
        )
    }

    /// A SHARED PUT payload from the message's fields (the data copied once, into it).
    pub fn encode_put_fields(
        &self,
        priority: u8,
        message_id: &[u8; IDENTIFIER_BYTES],
        correlation_id: &[u8; IDENTIFIER_BYTES],
        data: &[u8],
    ) -> Vec<u8> {
        let mut encoder = Encoder::with_capacity(128 + data.len());
        self.encode_head(&mut encoder);
        encode_message(&mut encoder, priority, message_id, correlation_id, data);
        encoder.bytes
    }

    pub fn decode_put(
        payload: &[u8],
    ) -> Result<(SharedQueueRecord, SharedMessageImage), DecodeError> {
        let mut decoder = Decoder::new(payload);
        let record = SharedQueueRecord::decode_head(&mut decoder)?;
        Ok((record, SharedMessageImage::decode(&mut decoder)?))
    }

    /// A SHARED GET payload.
    pub fn encode_get(&self) -> Vec<u8> {
        let mut encoder = Encoder::with_capacity(64);
        self.encode_head(&mut encoder);
        encoder.bytes
    }

    pub fn decode_get(payload: &[u8]) -> Result<SharedQueueRecord, DecodeError> {
        let mut decoder = Decoder::new(payload);
        let record = SharedQueueRecord::decode_head(&mut decoder)?;
        match decoder.is_empty() {
            true => Ok(record),
            false => Err(DecodeError("bytes after a SHARED GET record")),
        }
    }
}

impl SharedUnitEnd {
    pub fn encode(&self) -> Vec<u8> {
        let mut encoder = Encoder::with_capacity(48);
        name(&mut encoder, &self.unit);
        name(&mut encoder, &self.structure);
        encoder.varint(self.time_ms);
        encoder.bytes
    }

    pub fn decode(payload: &[u8]) -> Result<SharedUnitEnd, DecodeError> {
        let mut decoder = Decoder::new(payload);
        Ok(SharedUnitEnd {
            unit: decode_name(&mut decoder)?,
            structure: decode_name(&mut decoder)?,
            time_ms: decoder.varint()?,
        })
    }
}

impl BackupMessage {
    pub fn encode(&self) -> Vec<u8> {
        let mut encoder = Encoder::with_capacity(128 + self.message.data.len());
        name(&mut encoder, &self.entry.structure);
        encoder.varint(self.backup_ms);
        name(&mut encoder, &self.entry.queue);
        encoder
            .varint(self.entry.entry)
            .varint(u64::from(self.backout_count));
        self.message.encode(&mut encoder);
        encoder.bytes
    }

    pub fn decode(payload: &[u8]) -> Result<BackupMessage, DecodeError> {
        let mut decoder = Decoder::new(payload);
        let structure = decode_name(&mut decoder)?;
        let backup_ms = decoder.varint()?;
        let queue = decode_name(&mut decoder)?;
        let entry = decoder.varint()?;
        let backout_count = decoder.varint_u32()?;
        Ok(BackupMessage {
            entry: SharedEntry {
                structure,
                queue,
                entry,
            },
            backup_ms,
            backout_count,
            message: SharedMessageImage::decode(&mut decoder)?,
        })
    }
}

impl BackupEnd {
    pub fn encode(&self) -> Vec<u8> {
        let mut encoder = Encoder::with_capacity(48);
        name(&mut encoder, &self.structure);
        encoder
            .varint(self.backup_ms)
            .varint(self.messages)
            .varint(self.entries);
        encoder.bytes
    }

    pub fn decode(payload: &[u8]) -> Result<BackupEnd, DecodeError> {
        let mut decoder = Decoder::new(payload);
        Ok(BackupEnd {
            structure: decode_name(&mut decoder)?,
            backup_ms: decoder.varint()?,
            messages: decoder.varint()?,
            entries: decoder.varint()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> SharedEntry {
        SharedEntry {
            structure: "APP1".into(),
            queue: "SQ1".into(),
            entry: 4711,
        }
    }

    fn image() -> SharedMessageImage {
        SharedMessageImage {
            priority: 4,
            message_id: [7; IDENTIFIER_BYTES],
            correlation_id: [9; IDENTIFIER_BYTES],
            data: b"descriptor and data".to_vec(),
        }
    }

    #[test]
    fn shared_records_round_trip_and_truncation_is_refused() {
        let record = SharedQueueRecord {
            unit: "u1".into(),
            entry: entry(),
            time_ms: 1_700_000_000_000,
        };
        let put = record.encode_put(&image());
        assert_eq!(
            SharedQueueRecord::decode_put(&put).unwrap(),
            (record.clone(), image())
        );
        let get = record.encode_get();
        assert_eq!(SharedQueueRecord::decode_get(&get).unwrap(), record);
        for cut in 0..get.len() {
            assert!(SharedQueueRecord::decode_get(&get[..cut]).is_err());
        }
        let end = SharedUnitEnd {
            unit: "u1".into(),
            structure: "APP1".into(),
            time_ms: 5,
        };
        assert_eq!(SharedUnitEnd::decode(&end.encode()).unwrap(), end);
        let backup = BackupMessage {
            entry: entry(),
            backup_ms: 9,
            backout_count: 2,
            message: image(),
        };
        assert_eq!(BackupMessage::decode(&backup.encode()).unwrap(), backup);
        let backup_end = BackupEnd {
            structure: "APP1".into(),
            backup_ms: 9,
            messages: 1,
            entries: 4711,
        };
        assert_eq!(BackupEnd::decode(&backup_end.encode()).unwrap(), backup_end);
    }
}
