//! Message channel agents (distributed queuing): the batch logic of a sending MCA (SDR, SVR)
//! and a receiving MCA (RCVR, RQSTR), over the flows of `ferrite_protocol::message_channel`.
//!
//! - [`sending`]: batches got from the transmission queue under syncpoint (BATCHSZ, BATCHLIM),
//!   numbered, and kept in an in-doubt record until the partner confirms them.
//! - [`receiving`]: each message put to its destination (or the dead-letter queue with an
//!   MQDLH), the batch committed with its sequence number at its end; a message numbered at
//!   or before the last committed one is a duplicate and skipped.
//! - [`sync_queue`]: the records on SYSTEM.CHANNEL.SYNCQ that make a restart of either side
//!   lose and duplicate nothing.
//!
//! - [`negotiation`]: INITIAL_DATA between the two MCAs (limits, COMPHDR and COMPMSG).
//! - [`active`]: ACTCHL, the active channel slots.
//! - [`indicators`]: DISPLAY CHSTATUS's COMPHDR, COMPMSG, COMPRATE, COMPTIME, XQTIME and
//!   NETTIME of a running channel.
//! - [`session`]: the flows after it (batches, confirmations, heartbeats, pings) on a
//!   blocking socket; [`sender_mca`]: the thread of a channel started from this end (SDR,
//!   SVR with a CONNAME, RQSTR: START/STOP CHANNEL, retries, DISCINT) or of a SVR a
//!   requester asked to send; `inbound`: a socket the listener accepted for a RCVR (or a
//!   RQSTR called back), a SVR or a SDR's callback; [`trigger`]: channels started by trigger
//!   messages on SYSTEM.CHANNEL.INITQ.
//!
//! Requester and server: a started RQSTR connects to its CONNAME and sends INITIAL_DATA with
//! CAP1_REQUEST_INITIATION. A SVR answers it, then proposes INITIAL_DATA as a sender on the
//! same connection and sends its transmission queue there, the RQSTR receiving as a RCVR
//! does. A SDR answers and closes the connection, then starts itself to its own CONNAME
//! (callback), where the RQSTR channel receives. A SVR with a CONNAME started by START
//! CHANNEL is a sender (to a RCVR or a RQSTR).
//!
//! The agents themselves do not own sockets: a caller feeds the receiving agent the flows it reads and
//! sends the sending agent's batches. Sequence numbers run from 1 to SEQWRAP, then wrap to 1.

pub mod active;
pub(crate) mod inbound;
pub mod indicators;
pub mod negotiation;
pub mod receiving;
pub mod sender_mca;
pub mod sending;
pub mod session;
pub mod sync_queue;
pub mod trigger;

pub use receiving::{Delivery, ReceivingAgent};

use ferrite_mqi::channel_events::{write_message_channel_event, MessageChannelEvent};
use ferrite_queue_manager::QueueManager;

/// Puts a channel event on SYSTEM.ADMIN.CHANNEL.EVENT when the queue manager's CHLEV asks for
/// it (`ferrite_mqi::channel_events`).
pub(crate) fn channel_event(
    queue_manager: &QueueManager,
    event: MessageChannelEvent<'_>,
    log: &crate::MessageSink,
) {
    write_message_channel_event(queue_manager, &event, &|line| log(line));
}

/// The AMQ message number a Channel Stopped event gives for an MCA's `error` (its
/// ErrorIdentifier), and the MQ reason the error names (AuxErrorDataInt1; 0 when none).
pub(crate) fn error_identifiers(error: &str) -> (i32, i32) {
    let identifier = if error.contains("AMQ9526") {
        9526
    } else {
        9999
    };
    let reason = error
        .rsplit_once("reason ")
        .and_then(|(_, tail)| {
            let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .unwrap_or(0);
    (identifier, reason)
}
pub use sending::{Batch, SendingAgent};

/// The sequence number after `sequence` (1 after SEQWRAP).
pub fn next_sequence(sequence: u32, wrap: u32) -> u32 {
    debug_assert!(wrap >= 1);
    if sequence >= wrap {
        1
    } else {
        sequence + 1
    }
}

/// The sequence number before `sequence` (SEQWRAP before 1).
pub fn previous_sequence(sequence: u32, wrap: u32) -> u32 {
    debug_assert!(wrap >= 1);
    if sequence <= 1 {
        wrap
    } else {
        sequence - 1
    }
}

/// Most sequence numbers that batches of NPMSPEED(FAST) non-persistent messages only may take
/// between two saved sync records. Such a batch saves no state (so nothing forces the log for
/// it) unless it passes a multiple of this number ([`passes_save_point`]); both ends decide
/// alike from the batch's numbers, so after a crash their saved numbers are never further
/// apart than this and a batch.
pub const UNSAVED_SEQUENCE_MAX: u32 = 1000;

/// Whether a batch numbered from after `before` through `last` passes a save point: a
/// multiple of [`UNSAVED_SEQUENCE_MAX`], or SEQWRAP.
pub fn passes_save_point(before: u32, last: u32) -> bool {
    last < before || last / UNSAVED_SEQUENCE_MAX != before / UNSAVED_SEQUENCE_MAX
}

/// Whether `sequence` is `reference` or comes after it, within half the SEQWRAP cycle (a
/// batch is never near that long).
pub fn is_at_or_after(sequence: u32, reference: u32, wrap: u32) -> bool {
    let distance = (u64::from(sequence) + u64::from(wrap) - u64::from(reference)) % u64::from(wrap);
    distance < u64::from(wrap) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_points_are_the_multiples_of_the_unsaved_maximum_and_the_wrap() {
        assert!(!passes_save_point(0, 999));
        assert!(passes_save_point(999, 1000));
        assert!(!passes_save_point(1000, 1999));
        assert!(passes_save_point(1500, 2500));
        assert!(passes_save_point(99, 1), "wrapped");
    }

    #[test]
    fn sequence_numbers_wrap_at_seqwrap() {
        assert_eq!(next_sequence(0, 100), 1);
        assert_eq!(next_sequence(99, 100), 100);
        assert_eq!(next_sequence(100, 100), 1);
        assert_eq!(previous_sequence(1, 100), 100);
        assert_eq!(previous_sequence(10, 100), 9);
        assert!(is_at_or_after(5, 5, 100));
        assert!(is_at_or_after(6, 5, 100));
        assert!(!is_at_or_after(4, 5, 100));
        assert!(is_at_or_after(2, 99, 100), "2 follows 99 after the wrap");
        assert!(!is_at_or_after(99, 2, 100));
    }

    #[test]
    fn errors_name_their_amq_message_and_reason() {
        assert_eq!(
            error_identifiers("the partner refused: status 2, reason 2540"),
            (9999, 2540)
        );
        assert_eq!(
            error_identifiers("AMQ9526E message sequence number error"),
            (9526, 0)
        );
        assert_eq!(
            error_identifiers("the partner closed the connection"),
            (9999, 0)
        );
    }
}
