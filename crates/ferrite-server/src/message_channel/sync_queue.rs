//! SYSTEM.CHANNEL.SYNCQ: where message channel agents keep what must survive a restart, as MQ
//! keeps its channel synchronization data there. Each record is one persistent message whose
//! CorrelId names the channel and the record's kind, replaced in the unit of work of the
//! batch it belongs to:
//!
//! | kind | CorrelId | data |
//! |------|----------|------|
//! | sender state | channel name (20 bytes, blank padded), `S`, 3 blanks | `FERRITE-CHANNEL-SYNC 1\nSEQUENCE=<last sequence number assigned>\n` |
//! | receiver state | channel name, `R`, 3 blanks | `FERRITE-CHANNEL-SYNC 1\nSEQUENCE=<last sequence number committed>\n` |
//! | reset pending | channel name, `X`, 3 blanks | as a state record: the sequence number RESET CHANNEL set, to tell the partner at the next start |
//! | in-doubt batch | channel name, `B`, 3 blanks | `FERRITE-CHANNEL-BATCH 1\n`, then per message: sequence number and length (u32 little-endian each), the transmission-queue message |
//! | stopped | channel name, `T`, 3 blanks | `FERRITE-CHANNEL-SYNC 1\nSTOPPED\n`: STOP CHANNEL stopped it; START CHANNEL removes it |
//!
//! A sending MCA moves a batch off its transmission queue and into its in-doubt record in one
//! unit of work, and deletes the record once the partner confirms the batch; a receiving MCA
//! updates its state in the unit of work that puts the batch's messages. So a crash of either
//! side at any step leaves each batch either in the sender's record (sent again, or dropped if
//! the receiver's state shows it committed) or delivered, never both. A batch of NPMSPEED(FAST)
//! non-persistent messages only updates neither state record unless it passes a save point
//! (`super::passes_save_point`), so that its commits force no log at either end.

use ferrite_constants::{
    get_options::*, match_options::MQMO_MATCH_CORREL_ID, open_options::*, persistence::*,
    put_options::*, reason::*,
};
use ferrite_mqi::{Connection, Hobj, MqError, MqResult, Mqgmo, Mqmd, Mqod, Mqpmo};

/// The queue's name.
pub const SYNC_QUEUE: &str = "SYSTEM.CHANNEL.SYNCQ";

/// The largest record read back (a batch: BATCHLIM's default 5000 KiB is well inside).
const RECORD_LENGTH_MAX: usize = 104_857_600;

const STATE_MAGIC: &str = "FERRITE-CHANNEL-SYNC 1\n";
const BATCH_MAGIC: &[u8] = b"FERRITE-CHANNEL-BATCH 1\n";

/// The kinds of record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    SenderState,
    ReceiverState,
    InDoubtBatch,
    ResetPending,
    Stopped,
}

impl RecordKind {
    fn letter(self) -> u8 {
        match self {
            RecordKind::SenderState => b'S',
            RecordKind::ReceiverState => b'R',
            RecordKind::InDoubtBatch => b'B',
            RecordKind::ResetPending => b'X',
            RecordKind::Stopped => b'T',
        }
    }
}

/// A stopped record's data.
pub const STOPPED_RECORD: &[u8] = b"FERRITE-CHANNEL-SYNC 1\nSTOPPED\n";

/// The channels with a stopped record (browsed from the whole queue; the records are few).
pub fn stopped_channels(connection: &mut Connection) -> MqResult<Vec<String>> {
    let hobj = connection.open(&mut Mqod::queue(SYNC_QUEUE), MQOO_BROWSE)?;
    let mut channels = Vec::new();
    let mut options = MQGMO_BROWSE_FIRST;
    loop {
        let mut md = Mqmd::default();
        let mut gmo = Mqgmo::with_options(options | MQGMO_NO_WAIT | MQGMO_ACCEPT_TRUNCATED_MSG);
        let mut data = Vec::new();
        match connection.get_appending(hobj, &mut md, &mut gmo, &mut data, 0) {
            Ok(_) => {}
            Err(error) if error.reason == MQRC_TRUNCATED_MSG_ACCEPTED => {}
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => break,
            Err(error) => {
                let _ = connection.close(hobj, 0);
                return Err(error);
            }
        }
        options = MQGMO_BROWSE_NEXT;
        if md.correl_id[20] == RecordKind::Stopped.letter() {
            let name = String::from_utf8_lossy(&md.correl_id[..20])
                .trim_end()
                .to_string();
            channels.push(name);
        }
    }
    connection.close(hobj, 0)?;
    Ok(channels)
}

/// One message of a batch: its sequence number and the transmission-queue message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchMessage {
    pub sequence_number: u32,
    pub message: Vec<u8>,
}

/// The CorrelId of a channel's record.
fn record_id(channel: &str, kind: RecordKind) -> [u8; 24] {
    debug_assert!(channel.len() <= 20);
    let mut id = [b' '; 24];
    id[..channel.len()].copy_from_slice(channel.as_bytes());
    id[20] = kind.letter();
    id
}

/// The sync queue, opened by an MCA's connection.
pub struct SyncQueue {
    hobj: Hobj,
    channel: String,
}

impl SyncQueue {
    /// Open SYSTEM.CHANNEL.SYNCQ for `channel`'s records (MQRC_UNKNOWN_OBJECT_NAME when the
    /// queue is not defined).
    pub fn open(connection: &mut Connection, channel: &str) -> MqResult<SyncQueue> {
        let hobj = connection.open(
            &mut Mqod::queue(SYNC_QUEUE),
            MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE,
        )?;
        Ok(SyncQueue {
            hobj,
            channel: channel.to_string(),
        })
    }

    /// The record of `kind`, browsed (None when there is none).
    pub fn read(&self, connection: &mut Connection, kind: RecordKind) -> MqResult<Option<Vec<u8>>> {
        self.get(connection, kind, MQGMO_BROWSE_FIRST | MQGMO_NO_SYNCPOINT)
    }

    /// Remove the record of `kind` in the unit of work (nothing when there is none).
    pub fn remove(&self, connection: &mut Connection, kind: RecordKind) -> MqResult<()> {
        self.get(connection, kind, MQGMO_SYNCPOINT).map(|_| ())
    }

    /// Replace the record of `kind` in the unit of work.
    pub fn replace(
        &self,
        connection: &mut Connection,
        kind: RecordKind,
        data: &[u8],
    ) -> MqResult<()> {
        self.remove(connection, kind)?;
        let mut md = Mqmd {
            persistence: MQPER_PERSISTENT,
            correl_id: record_id(&self.channel, kind),
            ..Mqmd::default()
        };
        connection.put(
            self.hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_SYNCPOINT),
            data,
        )?;
        Ok(())
    }

    fn get(
        &self,
        connection: &mut Connection,
        kind: RecordKind,
        options: i32,
    ) -> MqResult<Option<Vec<u8>>> {
        let mut md = Mqmd {
            correl_id: record_id(&self.channel, kind),
            ..Mqmd::default()
        };
        let mut gmo = Mqgmo::with_options(options | MQGMO_NO_WAIT | MQGMO_FAIL_IF_QUIESCING);
        gmo.match_options = MQMO_MATCH_CORREL_ID;
        let mut data = Vec::new();
        match connection.get_appending(self.hobj, &mut md, &mut gmo, &mut data, RECORD_LENGTH_MAX) {
            Ok(_) => Ok(Some(data)),
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => Ok(None),
            Err(error) => Err(error),
        }
    }
}

/// A state record's data.
pub fn encode_state(sequence_number: u32) -> Vec<u8> {
    format!("{STATE_MAGIC}SEQUENCE={sequence_number}\n").into_bytes()
}

/// The sequence number of a state record (MQRC_UNEXPECTED_ERROR for a damaged one: a channel
/// must not guess its sequence).
pub fn decode_state(data: &[u8]) -> MqResult<u32> {
    std::str::from_utf8(data)
        .ok()
        .and_then(|text| text.strip_prefix(STATE_MAGIC))
        .and_then(|rest| rest.strip_prefix("SEQUENCE="))
        .and_then(|rest| rest.trim_end().parse().ok())
        .ok_or(MqError::failed(MQRC_UNEXPECTED_ERROR))
}

/// An in-doubt batch record's data.
pub fn encode_batch(messages: &[BatchMessage]) -> Vec<u8> {
    let mut data = BATCH_MAGIC.to_vec();
    for message in messages {
        data.extend_from_slice(&message.sequence_number.to_le_bytes());
        data.extend_from_slice(&(message.message.len() as u32).to_le_bytes());
        data.extend_from_slice(&message.message);
    }
    data
}

/// The messages of an in-doubt batch record.
pub fn decode_batch(data: &[u8]) -> MqResult<Vec<BatchMessage>> {
    let damaged = || MqError::failed(MQRC_UNEXPECTED_ERROR);
    let mut rest = data.strip_prefix(BATCH_MAGIC).ok_or_else(damaged)?;
    let mut messages = Vec::new();
    while !rest.is_empty() {
        let word = |bytes: &[u8]| -> Option<u32> {
            Some(u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?))
        };
        let sequence_number = word(rest).ok_or_else(damaged)?;
        let length = word(rest.get(4..).ok_or_else(damaged)?).ok_or_else(damaged)? as usize;
        let message = rest.get(8..8 + length).ok_or_else(damaged)?;
        messages.push(BatchMessage {
            sequence_number,
            message: message.to_vec(),
        });
        rest = &rest[8 + length..];
    }
    Ok(messages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_damage_is_refused() {
        assert_eq!(decode_state(&encode_state(42)).unwrap(), 42);
        assert!(decode_state(b"SEQUENCE=1\n").is_err());
        let batch = vec![
            BatchMessage {
                sequence_number: 7,
                message: b"one".to_vec(),
            },
            BatchMessage {
                sequence_number: 8,
                message: Vec::new(),
            },
        ];
        let data = encode_batch(&batch);
        assert_eq!(decode_batch(&data).unwrap(), batch);
        assert!(decode_batch(&data[..data.len() - 1]).is_err());
        assert!(decode_batch(&data[..BATCH_MAGIC.len() + 9]).is_err());
        assert_eq!(record_id("TO.QM2", RecordKind::InDoubtBatch)[20], b'B');
    }
}
