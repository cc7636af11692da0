//! The receiving message channel agent's batches (CHLTYPE RCVR and RQSTR): each message put to
//! its destination, resolved at this queue manager (a queue here, or on to another queue
//! manager's transmission queue), or to the dead-letter queue with an MQDLH when it cannot be
//! put there; all of a batch committed with the channel's sequence number at its end.

use std::sync::Arc;

use ferrite_constants::{persistence::MQPER_PERSISTENT, put_options::*};
use ferrite_mqi::transmission_queue::parse_transmission_message;
use ferrite_mqi::{Connection, MqError, MqResult, Mqod, Mqpmo};
use ferrite_protocol::message_channel::MessageData;
use ferrite_queue_manager::objects::message_channel::{
    NonPersistentMessageSpeed, PutAuthority, BATCH_SIZE_MAX,
};
use ferrite_queue_manager::{ChannelDefinition, QueueManager};

use super::sync_queue::{decode_state, encode_state, RecordKind, SyncQueue};
use super::{is_at_or_after, next_sequence, passes_save_point, UNSAVED_SEQUENCE_MAX};

/// What became of one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Put to its destination.
    Delivered,
    /// Put to the dead-letter queue (or discarded as its report options asked) with this
    /// reason.
    DeadLettered(i32),
    /// Its sequence number was committed before: a batch sent again after a restart.
    Duplicate,
}

/// A receiving MCA's connection and sequence numbers.
pub struct ReceivingAgent {
    connection: Connection,
    channel: ChannelDefinition,
    sync: SyncQueue,
    /// The sequence number of the last message of the last committed batch.
    last_committed: u32,
    /// The last sequence number received in the open batch.
    last_received: u32,
    /// Whether the open batch put a message in its unit of work (persistent, or any with
    /// NPMSPEED(NORMAL)).
    batch_in_syncpoint: bool,
}

impl ReceivingAgent {
    /// Start the agent of the RCVR or RQSTR channel `channel`, its committed sequence number
    /// read back.
    pub fn open(
        queue_manager: Arc<QueueManager>,
        channel: &ChannelDefinition,
    ) -> MqResult<ReceivingAgent> {
        assert!(
            channel.channel_type.is_message_channel() && !channel.channel_type.sends(),
            "a receiving agent runs a RCVR or RQSTR channel"
        );
        let mut connection = Connection::connect(queue_manager, "")?;
        let sync = SyncQueue::open(&mut connection, &channel.name)?;
        let last_committed = match sync.read(&mut connection, RecordKind::ReceiverState)? {
            Some(data) => decode_state(&data)?,
            None => 0,
        };
        Ok(ReceivingAgent {
            connection,
            channel: channel.clone(),
            sync,
            last_committed,
            last_received: last_committed,
            batch_in_syncpoint: false,
        })
    }

    /// The last committed sequence number (LSTSEQNO; what a restarted sender asks).
    pub fn last_committed(&self) -> u32 {
        self.last_committed
    }

    /// Whether `sequence` can be a message of the batch that follows the last committed one:
    /// within MQ's largest BATCHSZ, and the numbers unsaved batches may take
    /// ([`UNSAVED_SEQUENCE_MAX`]), after it (a batch sent again after a restart may skip the
    /// numbers of NPMSPEED(FAST) messages, and BATCHSZ may have changed since). Err: the
    /// number expected next (a sender out of step: AMQ9526, until RESET CHANNEL).
    pub fn check_sequence(&self, sequence: u32) -> Result<(), u32> {
        let wrap = self.channel.message.sequence_number_wrap;
        let ahead = (u64::from(sequence) + u64::from(wrap) - u64::from(self.last_committed))
            % u64::from(wrap);
        let duplicate = !is_at_or_after(sequence, next_sequence(self.last_committed, wrap), wrap);
        if duplicate || ahead <= u64::from(BATCH_SIZE_MAX) + u64::from(UNSAVED_SEQUENCE_MAX) {
            Ok(())
        } else {
            Err(next_sequence(self.last_committed, wrap))
        }
    }

    /// Put one message of the open batch. Persistent messages, and all of them with
    /// NPMSPEED(NORMAL), go in the batch's unit of work; NPMSPEED(FAST) non-persistent ones
    /// outside it, visible at once. A message that cannot be put goes to the dead-letter
    /// queue; an error is returned only when that fails too (the batch must then be backed
    /// out: [`ReceivingAgent::abandon`]).
    pub fn receive(&mut self, flow: &MessageData) -> MqResult<Delivery> {
        let sequence = flow.header.sequence_number;
        let wrap = self.channel.message.sequence_number_wrap;
        if !is_at_or_after(sequence, next_sequence(self.last_received, wrap), wrap) {
            return Ok(Delivery::Duplicate);
        }
        let transmitted = parse_transmission_message(&flow.message)?;
        let data = &flow.message[transmitted.data_offset..];
        let mut md = transmitted.md;
        let fast =
            self.channel.message.non_persistent_message_speed == NonPersistentMessageSpeed::Fast;
        let syncpoint = md.persistence == MQPER_PERSISTENT || !fast;
        self.batch_in_syncpoint |= syncpoint;
        let mut options = MQPMO_SET_ALL_CONTEXT | MQPMO_FAIL_IF_QUIESCING;
        options |= if syncpoint {
            MQPMO_SYNCPOINT
        } else {
            MQPMO_NO_SYNCPOINT
        };
        if self.channel.message.put_authority == PutAuthority::Context {
            options |= MQPMO_ALTERNATE_USER_AUTHORITY;
        }
        let mut od = Mqod::queue(&transmitted.remote_q_name);
        od.object_q_mgr_name = transmitted.remote_q_mgr_name.as_str().into();
        if options & MQPMO_ALTERNATE_USER_AUTHORITY != 0 {
            od.alternate_user_id = md.user_identifier.as_str().into();
        }
        let original = md.clone();
        let delivery =
            match self
                .connection
                .put1(&mut od, &mut md, &mut Mqpmo::with_options(options), data)
            {
                Ok(_) => Delivery::Delivered,
                Err(error) => {
                    self.connection
                        .put_undeliverable(
                            &original,
                            data,
                            error.reason,
                            &transmitted.remote_q_name,
                            &transmitted.remote_q_mgr_name,
                        )
                        .map_err(|dead| MqError::failed(dead.reason()))?;
                    Delivery::DeadLettered(error.reason)
                }
            };
        self.last_received = sequence;
        Ok(delivery)
    }

    /// The end of the batch: the sequence number recorded and everything committed; returns
    /// the sequence number the partner is told was committed. A batch of NPMSPEED(FAST)
    /// non-persistent messages only records its number only at a save point, as its sender
    /// does: otherwise its commit logs nothing and forces no log.
    pub fn end_of_batch(&mut self) -> MqResult<u32> {
        if self.batch_in_syncpoint || passes_save_point(self.last_committed, self.last_received) {
            self.sync.replace(
                &mut self.connection,
                RecordKind::ReceiverState,
                &encode_state(self.last_received),
            )?;
        }
        self.connection.commit()?;
        self.batch_in_syncpoint = false;
        self.last_committed = self.last_received;
        Ok(self.last_committed)
    }

    /// RESET CHANNEL SEQNUM(`next`) (from the operator of a stopped channel, or the partner's
    /// RESET_DATA): the next message expected is `next`. Returns the committed number.
    pub fn reset_sequence(&mut self, next: u32) -> MqResult<u32> {
        let wrap = self.channel.message.sequence_number_wrap;
        self.connection.backout()?;
        self.last_committed = super::previous_sequence(next, wrap);
        self.last_received = self.last_committed;
        self.batch_in_syncpoint = false;
        self.sync.replace(
            &mut self.connection,
            RecordKind::ReceiverState,
            &encode_state(self.last_committed),
        )?;
        self.connection.commit()?;
        Ok(self.last_committed)
    }

    /// The batch failed: what it put is backed out (NPMSPEED(FAST) messages stay).
    pub fn abandon(&mut self) -> MqResult<()> {
        self.last_received = self.last_committed;
        self.batch_in_syncpoint = false;
        self.connection.backout()
    }
}
