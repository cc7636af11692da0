//! The sending message channel agent's batches (CHLTYPE SDR and SVR): messages got from the
//! transmission queue, numbered, and kept in the channel's in-doubt record until the partner
//! confirms them (sync_queue.rs says why this gives no loss and no duplicate).

use ferrite_constants::put_options::{MQPMO_SET_ALL_CONTEXT, MQPMO_SYNCPOINT};
use ferrite_constants::{
    get_options::*, open_options::*, persistence::MQPER_PERSISTENT, reason::*,
};
use ferrite_mqi::name_resolution::RemoteDestination;
use ferrite_mqi::transmission_queue::{parse_transmission_message, transmission_message};
use ferrite_mqi::{Connection, Hobj, MqResult, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::objects::message_channel::{NonPersistentMessageSpeed, BATCH_SIZE_MAX};
use ferrite_queue_manager::{ChannelDefinition, QueueManager};
use std::sync::Arc;

use super::sync_queue::{
    decode_batch, decode_state, encode_batch, encode_state, BatchMessage, RecordKind, SyncQueue,
};
use super::{is_at_or_after, next_sequence, passes_save_point, UNSAVED_SEQUENCE_MAX};

/// The longest transmission-queue message a batch takes (MQ's largest MAXMSGL).
const MESSAGE_LENGTH_MAX: usize = 104_857_600;

/// A batch on its way: every message sent, of which `kept` are in the in-doubt record
/// (all but NPMSPEED(FAST) non-persistent ones, which are never sent twice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub messages: Vec<BatchMessage>,
    /// Whether this is an in-doubt batch sent again after a restart.
    pub resent: bool,
    /// XQTIME: microseconds each message got from the transmission queue had spent there
    /// (empty for a batch sent again).
    pub queue_times_us: Vec<u64>,
}

impl Batch {
    /// The sequence number of the batch's last message.
    pub fn last_sequence(&self) -> u32 {
        self.messages
            .last()
            .expect("a batch has a message")
            .sequence_number
    }
}

/// A sending MCA's hold on its transmission queue and sync records.
pub struct SendingAgent {
    connection: Connection,
    channel: ChannelDefinition,
    transmission_queue: Hobj,
    sync: SyncQueue,
    /// The last sequence number assigned (0: none yet).
    last_sequence: u32,
    /// The batch sent and not yet confirmed.
    in_doubt: Option<Batch>,
}

impl SendingAgent {
    /// Start the agent of the SDR or SVR channel `channel`: its transmission queue opened
    /// exclusively, its sequence number and any in-doubt batch read back.
    pub fn open(
        queue_manager: Arc<QueueManager>,
        channel: &ChannelDefinition,
    ) -> MqResult<SendingAgent> {
        assert!(
            channel.channel_type.sends(),
            "a sending agent runs a SDR or SVR channel"
        );
        let mut connection = Connection::connect(queue_manager, "")?;
        let transmission_queue = connection.open(
            &mut Mqod::queue(&channel.message.transmission_queue),
            MQOO_INPUT_EXCLUSIVE | MQOO_BROWSE | MQOO_FAIL_IF_QUIESCING,
        )?;
        let sync = SyncQueue::open(&mut connection, &channel.name)?;
        let last_sequence = match sync.read(&mut connection, RecordKind::SenderState)? {
            Some(data) => decode_state(&data)?,
            None => 0,
        };
        let in_doubt = match sync.read(&mut connection, RecordKind::InDoubtBatch)? {
            Some(data) => Some(Batch {
                messages: decode_batch(&data)?,
                resent: true,
                queue_times_us: Vec::new(),
            })
            .filter(|batch| !batch.messages.is_empty()),
            None => None,
        };
        Ok(SendingAgent {
            connection,
            channel: channel.clone(),
            transmission_queue,
            sync,
            last_sequence,
            in_doubt,
        })
    }

    /// The batch in doubt (sent, not confirmed), if any.
    pub fn in_doubt(&self) -> Option<&Batch> {
        self.in_doubt.as_ref()
    }

    /// The last sequence number assigned (CURSEQNO's source).
    pub fn last_sequence(&self) -> u32 {
        self.last_sequence
    }

    /// After a restart: the partner's last committed sequence number decides the in-doubt
    /// batch (RESOLVE CHANNEL's question): delivered, it is dropped; otherwise it is sent again.
    pub fn resolve(&mut self, partner_last_committed: u32) -> MqResult<()> {
        let wrap = self.channel.message.sequence_number_wrap;
        let delivered = self.in_doubt.as_ref().is_some_and(|batch| {
            is_at_or_after(partner_last_committed, batch.last_sequence(), wrap)
        });
        if delivered {
            self.confirmed()?;
        }
        // Numbers this end saved beyond the partner's committed one (or beyond the in-doubt
        // batch sent again) were taken by NPMSPEED(FAST) messages only, never kept: numbering
        // goes on from where the partner will stand, so that both ends decide the next save
        // points from the same numbers. A partner further behind than unsaved batches can
        // leave it is out of step: its check refuses the next message (AMQ9526).
        let behind = (u64::from(self.last_sequence) + u64::from(wrap)
            - u64::from(partner_last_committed))
            % u64::from(wrap);
        let unsaved = u64::from(UNSAVED_SEQUENCE_MAX) + u64::from(BATCH_SIZE_MAX);
        match &self.in_doubt {
            Some(batch) => self.last_sequence = batch.last_sequence(),
            None if behind <= unsaved => self.last_sequence = partner_last_committed,
            None => {}
        }
        Ok(())
    }

    /// The next batch to send: the in-doubt one again, or up to BATCHSZ messages (and at most
    /// BATCHLIM KiB, whole messages) got from the transmission queue, moved to the in-doubt
    /// record in one unit of work. `None` when the transmission queue is empty.
    pub fn next_batch(&mut self) -> MqResult<Option<Batch>> {
        if let Some(batch) = &self.in_doubt {
            return Ok(Some(batch.clone()));
        }
        let before = self.last_sequence;
        let (messages, kept, queue_times_us) = self.get_batch()?;
        if messages.is_empty() {
            self.connection.backout()?;
            return Ok(None);
        }
        // A batch of NPMSPEED(FAST) non-persistent messages only writes no sync record unless
        // it passes a save point: its commit has nothing to log, so nothing forces the log
        // (MP16: log forces for persistent messages or NPMSPEED(NORMAL) only). The partner
        // saves the same batches, after this end (`ReceivingAgent::end_of_batch`), so after
        // a crash its saved number is never ahead of this end's ([`SendingAgent::resolve`]).
        if !kept.is_empty() {
            self.sync.replace(
                &mut self.connection,
                RecordKind::InDoubtBatch,
                &encode_batch(&kept),
            )?;
        }
        if !kept.is_empty() || passes_save_point(before, self.last_sequence) {
            self.sync.replace(
                &mut self.connection,
                RecordKind::SenderState,
                &encode_state(self.last_sequence),
            )?;
        }
        self.connection.commit()?;
        // NP FAST messages are not kept: a batch sent again holds only what may be resent.
        self.in_doubt = (!kept.is_empty()).then_some(Batch {
            messages: kept,
            resent: true,
            queue_times_us: Vec::new(),
        });
        Ok(Some(Batch {
            messages,
            resent: false,
            queue_times_us,
        }))
    }

    /// Waits up to `wait` for a message to arrive on the transmission queue (browsed, not
    /// taken): whether one is there. The MCA's own thread waits here, as MQ's MCA waits on
    /// its transmission queue between batches.
    pub fn wait_for_message(&mut self, wait: std::time::Duration) -> MqResult<bool> {
        let mut gmo = Mqgmo::with_options(
            MQGMO_BROWSE_FIRST | MQGMO_WAIT | MQGMO_NO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING,
        );
        gmo.wait_interval = wait.as_millis().min(i32::MAX as u128) as i32;
        Ok(self.get_transmitted(&mut gmo)?.is_some())
    }

    /// One message of the transmission queue as `gmo` says (None: no message).
    fn get_transmitted(&mut self, gmo: &mut Mqgmo) -> MqResult<Option<(Mqmd, Vec<u8>)>> {
        let mut md = Mqmd::default();
        let mut data = Vec::new();
        match self.connection.get_appending(
            self.transmission_queue,
            &mut md,
            gmo,
            &mut data,
            MESSAGE_LENGTH_MAX,
        ) {
            Ok(_) => Ok(Some((md, data))),
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// RESOLVE CHANNEL of a stopped channel: with `commit` the in-doubt batch is taken as
    /// delivered (its record goes); otherwise its messages go back on the transmission queue,
    /// in the unit of work that removes the record, to be sent again (with new sequence
    /// numbers). Returns how many messages the batch held.
    pub fn resolve_in_doubt(&mut self, commit: bool) -> MqResult<usize> {
        let Some(batch) = self.in_doubt.clone() else {
            return Ok(0);
        };
        if !commit {
            for message in &batch.messages {
                self.put_back(&message.message)?;
            }
        }
        self.confirmed()?;
        Ok(batch.messages.len())
    }

    /// One transmission-queue message of an in-doubt batch back on the transmission queue,
    /// in the unit of work, with the descriptor its put gave it.
    fn put_back(&mut self, message: &[u8]) -> MqResult<()> {
        let transmitted = parse_transmission_message(message)?;
        let destination = RemoteDestination {
            transmission_queue: self.channel.message.transmission_queue.clone(),
            remote_q_name: transmitted.remote_q_name.clone(),
            remote_q_mgr_name: transmitted.remote_q_mgr_name.clone(),
        };
        let (mut md, again) = transmission_message(
            &transmitted.md,
            &destination,
            &message[transmitted.data_offset..],
        );
        let mut od = Mqod::queue(&destination.transmission_queue);
        self.connection.put1(
            &mut od,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_SYNCPOINT | MQPMO_SET_ALL_CONTEXT),
            &again,
        )?;
        Ok(())
    }

    /// RESET CHANNEL SEQNUM(`next`) of a stopped channel with nothing in doubt: the next
    /// message is numbered `next`, and a reset-pending record tells the partner at the next
    /// start ([`SendingAgent::pending_reset`]).
    pub fn reset_sequence(&mut self, next: u32) -> MqResult<()> {
        assert!(self.in_doubt.is_none(), "RESOLVE CHANNEL comes first");
        let wrap = self.channel.message.sequence_number_wrap;
        self.last_sequence = super::previous_sequence(next, wrap);
        self.sync.replace(
            &mut self.connection,
            RecordKind::SenderState,
            &encode_state(self.last_sequence),
        )?;
        self.sync.replace(
            &mut self.connection,
            RecordKind::ResetPending,
            &encode_state(next),
        )?;
        self.connection.commit()
    }

    /// The sequence number a RESET CHANNEL set that the partner has not been told yet.
    pub fn pending_reset(&mut self) -> MqResult<Option<u32>> {
        match self
            .sync
            .read(&mut self.connection, RecordKind::ResetPending)?
        {
            Some(data) => decode_state(&data).map(Some),
            None => Ok(None),
        }
    }

    /// The partner has taken the reset.
    pub fn reset_sent(&mut self) -> MqResult<()> {
        self.sync
            .remove(&mut self.connection, RecordKind::ResetPending)?;
        self.connection.commit()
    }

    /// The partner confirmed the batch: its in-doubt record goes.
    pub fn confirmed(&mut self) -> MqResult<()> {
        self.sync
            .remove(&mut self.connection, RecordKind::InDoubtBatch)?;
        self.connection.commit()?;
        self.in_doubt = None;
        Ok(())
    }

    /// Messages got (in the unit of work) for one batch: all of them, and those kept. The
    /// batch ends at BATCHSZ messages, at BATCHLIM KiB, or when the transmission queue is
    /// empty; with BATCHINT, not before BATCHINT milliseconds from its first message (it
    /// waits for more in the meantime).
    fn get_batch(&mut self) -> MqResult<(Vec<BatchMessage>, Vec<BatchMessage>, Vec<u64>)> {
        let limit_bytes = match self.channel.message.batch_data_limit_kib {
            0 => usize::MAX,
            kib => kib as usize * 1024,
        };
        let fast =
            self.channel.message.non_persistent_message_speed == NonPersistentMessageSpeed::Fast;
        let interval =
            std::time::Duration::from_millis(u64::from(self.channel.message.batch_interval_ms));
        let mut batch_started = std::time::Instant::now();
        let (mut messages, mut kept, mut bytes) = (Vec::new(), Vec::new(), 0usize);
        let mut queue_times_us = Vec::new();
        while messages.len() < self.channel.message.batch_size as usize && bytes < limit_bytes {
            let open_for = batch_started.elapsed();
            let mut gmo = if messages.is_empty() || open_for >= interval {
                Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_NO_WAIT | MQGMO_FAIL_IF_QUIESCING)
            } else {
                let mut waiting =
                    Mqgmo::with_options(MQGMO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING);
                let remaining = (interval - open_for).as_millis().clamp(1, i32::MAX as u128);
                waiting.wait_interval = remaining as i32;
                waiting
            };
            let Some((md, data)) = self.get_transmitted(&mut gmo)? else {
                break;
            };
            if messages.is_empty() {
                batch_started = std::time::Instant::now();
            }
            self.last_sequence = next_sequence(
                self.last_sequence,
                self.channel.message.sequence_number_wrap,
            );
            bytes += data.len();
            let message = BatchMessage {
                sequence_number: self.last_sequence,
                message: data,
            };
            if md.persistence == MQPER_PERSISTENT || !fast {
                kept.push(message.clone());
            }
            messages.push(message);
            if let Some(microseconds) = time_on_queue_us(&md) {
                queue_times_us.push(microseconds);
            }
        }
        debug_assert!(messages.len() <= self.channel.message.batch_size as usize);
        Ok((messages, kept, queue_times_us))
    }
}

/// Microseconds since the put of a message with descriptor `md` (its PutDate and PutTime,
/// GMT to the hundredth of a second); `None` without a valid put time.
fn time_on_queue_us(md: &Mqmd) -> Option<u64> {
    let date: &[u8; 8] = md.put_date.as_bytes().try_into().ok()?;
    let time: &[u8; 8] = md.put_time.as_bytes().try_into().ok()?;
    let put_ms = ferrite_message::jms::put_timestamp_ms(date, time)?;
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_millis() as i64;
    Some((now_ms - put_ms).max(0) as u64 * 1000)
}

impl Drop for SendingAgent {
    fn drop(&mut self) {
        // An agent that stops mid-batch leaves its gets to be backed out: the messages stay
        // on the transmission queue, or in the in-doubt record once it was committed.
        let _ = self.connection.backout();
    }
}
