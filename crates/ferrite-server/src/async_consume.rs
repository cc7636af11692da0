//! Asynchronous consume and read-ahead over a client conversation: REQUEST_MSGS from the
//! client, ASYNC_MESSAGE pushed by the queue manager, NOTIFICATION both ways. This is how IBM's
//! clients serve MQCB/MQCTL (a JMS MessageListener) and read-ahead.
//!
//! ## Flows (observed from IBM's 9.4.5 JMS client; layouts from Wireshark's MQ dissector)
//! ```text
//! client                                   queue manager
//!  NOTIFICATION Q_STATE(5) Hobj value      ->  NOTIFICATION Q_STATE_REPLY(6), same value
//!  NOTIFICATION CONN_STATE(3) -1 value     ->  NOTIFICATION CONN_STATE_REPLY(4), same value
//!  REQUEST_MSGS Hobj RqstBytes GMO options ->  ASYNC_MESSAGE per message while demand lasts
//!
//! REQUEST_MSGS: 0 Version 4 Hobj 8 RecvBytes 12 RqstBytes 16 MaxMsgLen 20 GMO Options
//!               24 WaitInterval 28 QueueStatus 32 RequestFlags 36 GlobalMsgIndex (+ selection)
//! ASYNC_MESSAGE (one segment; TSHM of the REQUEST_MSGS' conversation and request id):
//!   0 Version(1)  4 Hobj  8 MsgIndex  12 GlobalMsgIndex  16 SegmentLength  20 SegmentIndex(2)
//!  22 SelectionIndex(2)  24 Reason  28 TotalMsgLength  32 ActualMsgLength  36 MsgToken(16)
//!  52 Status(2)  54 ResolvedQNameLength(1)  55 ResolvedQName, zero padding so that the header
//!  ends on a 4-byte boundary; then the MQMD (version 2) and the message data.
//! RequestFlags (the dissector names 0x10 SELECTION and leaves 0x08, 0x04, 0x02 unnamed):
//!   0x10 a handle's first request  0x08 read-ahead  0x04 seen in transacted sessions (ignored)
//!   0x02 answer at once
//! ```
//!
//! ## An MQGET that finds nothing read ahead (observed from IBM's 9.4.5 JMS client)
//! ```text
//! client                                            queue manager
//!  REQUEST_MSGS id 1, flags 0x18, WaitInterval W  ->  (messages as they come, on id 1)
//!   ... W passes on the client's own clock ...
//!  REQUEST_MSGS id 3, CONFIRM_REQUEST,            ->  any message there (ASYNC_MESSAGE on id 1),
//!    flags 0x0a, WaitInterval 0                        then NOTIFICATION on id 3: Hobj, code 0,
//!                                                      value MQRC_NONE or MQRC_NO_MSG_AVAILABLE
//! ```
//! The MQGET (JMS receive(timeout)) then returns what it holds, or MQRC_NO_MSG_AVAILABLE (JMS:
//! null); receiveNoWait makes only the confirmed request, a transacted session makes both at
//! each receive. The client takes nothing else as the answer: an ASYNC_MESSAGE or a
//! REQUEST_MSGS on id 3 is an "unexpected reply", an ASYNC_MESSAGE on id 3 once it is
//! answered a "request not found", and an ASYNC_MESSAGE with MQRC_NO_MSG_AVAILABLE (and no
//! MQMD) on id 1 at the end of W, before the NOTIFICATION, broke it as well; each ends its
//! connection with MQRC_CONNECTION_BROKEN. So a request that is not confirmed is answered by
//! nothing when its WaitInterval is over; a confirmed one is answered by its NOTIFICATION when
//! it has had a message, at once with flag 0x02, or when its WaitInterval is over (from the
//! channel initiator's timer: no thread waits). A handle whose requests so far were all
//! confirmed has its messages sent on id 1. Either way the request is then over: what follows
//! is read ahead.
//!
//! A consumer's demand is a window: the bytes the client asked for (RqstBytes) less those sent
//! that it has not yet reported received (each REQUEST_MSGS reports, in RecvBytes, the bytes
//! received since the previous one; a message counts its MQMD and its data). At least one
//! message is delivered per request.
//!
//! Read-ahead (RequestFlags READ_AHEAD): as MQ documents, only non-persistent messages are
//! sent ahead of the application's MQGETs. A persistent message at the head of the queue stops
//! the stream until the client's next request, which IBM's client makes when an MQGET finds
//! nothing read ahead (the MQ classes for Java at once; JMS, after a request that ended with
//! nothing, only with its confirmed request at the end of the receive's wait); it is then
//! that request's first message, in its place among the others. A message longer than
//! MaxMsgLen is not taken: an ASYNC_MESSAGE with MQRC_TRUNCATED_MSG_FAILED and no data tells
//! the client its length, and it asks again with a larger MaxMsgLen.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use ferrite_constants::{
    get_options::{
        MQGMO_ALL_MSGS_AVAILABLE, MQGMO_ALL_SEGMENTS_AVAILABLE, MQGMO_COMPLETE_MSG,
        MQGMO_LOGICAL_ORDER, MQGMO_NO_WAIT, MQGMO_WAIT,
    },
    match_options::MQMO_MATCH_MSG_TOKEN,
    reason::*,
};
use ferrite_mqi::{Hobj, Mqgmo, Mqmd};
use ferrite_protocol::codec::Writer;
use ferrite_protocol::control::{Notification, RequestMsgs};
use ferrite_protocol::segment::{ControlFlags1, HeaderKind, SegmentHeader, SegmentType};
use ferrite_protocol::wire;
use ferrite_queue_manager::{ArrivalWaker, ArrivalWatch};

use crate::flows::reply_header;
use crate::session::MqiSession;

/// NOTIFICATION codes used here.
pub mod notification {
    /// Connection state (MQCTL start, stop, suspend).
    pub const CONN_STATE: i32 = 3;
    /// The queue manager's answer to CONN_STATE.
    pub const CONN_STATE_REPLY: i32 = 4;
    /// Queue (consumer) state.
    pub const Q_STATE: i32 = 5;
    /// The queue manager's answer to Q_STATE.
    pub const Q_STATE_REPLY: i32 = 6;
}

/// The largest message pushed when the client sets no MaxMsgLen (MQ's 100 MiB).
pub const ASYNC_MESSAGE_LENGTH_MAX: u32 = 100 * 1024 * 1024;
/// RequestFlags bit READ_AHEAD: set by IBM's client on every REQUEST_MSGS of a handle it reads
/// ahead on (observed with 9.4.5: 0x18 on the first request of a handle, 0x08 after).
pub const REQUEST_FLAG_READ_AHEAD: u32 = 0x08;
/// RequestFlags bit of a handle's first request (observed; the dissector calls it SELECTION):
/// the window starts afresh.
pub const REQUEST_FLAG_NEW: u32 = 0x10;
/// RequestFlags bit of a request to be answered at once (observed: IBM's client sets it, with
/// WaitInterval 0 and CONFIRM_REQUEST, when an MQGET's wait is over with nothing read ahead,
/// and for MQGMO_NO_WAIT).
pub const REQUEST_FLAG_IMMEDIATE: u32 = 0x02;
/// The request id IBM's client expects a handle's ASYNC_MESSAGEs on when it has only made
/// requests that ask for confirmation (observed: its other REQUEST_MSGS carry this id, its
/// confirmed ones another, which is free again once answered).
const STREAM_REQUEST_ID: u32 = 1;
/// Bytes a message counts in the window besides its data: its MQMD (version 2). Observed:
/// IBM's client's RecvBytes adds 364 + data length for each ASYNC_MESSAGE.
pub const ASYNC_MESSAGE_MD_BYTES: usize = 364;
/// Consumers (handles with outstanding REQUEST_MSGS) one conversation may have.
pub const CONSUMERS_PER_CONVERSATION_MAX: usize = 256;

/// Get options with which the get itself chooses among the queue's messages (groups, logical
/// order, whole messages): a read-ahead get with these cannot name the message it takes.
const CHOOSES_ITS_MESSAGE: i32 = MQGMO_LOGICAL_ORDER
    | MQGMO_COMPLETE_MSG
    | MQGMO_ALL_MSGS_AVAILABLE
    | MQGMO_ALL_SEGMENTS_AVAILABLE;

/// One handle the client consumes from.
#[derive(Debug, Clone)]
struct Consumer {
    gmo_options: i32,
    max_message_length: u32,
    /// Bytes still wanted; at least one message is sent per request.
    demand_bytes: i64,
    /// Messages sent since the last request (to honour "at least one").
    sent_since_request: u32,
    message_index: u32,
    header: SegmentHeader,
    /// Read-ahead (the request's READ_AHEAD flag): only non-persistent messages go ahead.
    read_ahead: bool,
    /// A read-ahead consumer stopped at a persistent message: it waits for the client's next
    /// request.
    held_at_persistent: bool,
    /// Bytes sent (MQMD and data) that no RecvBytes has counted yet.
    unacknowledged_bytes: i64,
    /// MQCLOSE with MQCO_QUIESCE found messages read ahead: nothing more is sent.
    quiesced: bool,
    /// When the request, if it has had no message by then, is over: its WaitInterval's end,
    /// or at once with REQUEST_FLAG_IMMEDIATE; `None` while it may wait as long as it takes
    /// (MQWI_UNLIMITED, as MQCB consumers ask, or WaitInterval 0).
    answer_by: Option<Instant>,
    /// The request asked for confirmation (CONFIRM_REQUEST): its header, for the NOTIFICATION
    /// that answers it once it has had its message or is over.
    confirm: Option<SegmentHeader>,
}

impl Consumer {
    /// Bytes are still wanted, or the request has not had its one message yet.
    fn wants_messages(&self) -> bool {
        !self.held_at_persistent
            && !self.quiesced
            && (self.demand_bytes > 0 || self.sent_since_request == 0)
    }

    /// MQCTL stopped the consumers: no more messages until the next REQUEST_MSGS.
    fn stop(&mut self) {
        self.demand_bytes = 0;
        self.sent_since_request = self.sent_since_request.max(1);
        self.answer_by = None;
    }

    /// The request has had no message and ends if none comes by a given time (even on a
    /// quiesced handle: a confirmed request is always answered).
    fn wait_ends(&self) -> bool {
        self.sent_since_request == 0 && self.answer_by.is_some()
    }

    /// The request has had no message and is over at `now`.
    fn wait_over(&self, now: Instant) -> bool {
        self.wait_ends() && self.answer_by.is_some_and(|by| now >= by)
    }

    /// The request is answered: by a message (`got_message`), or because it is over with none.
    /// Returns the NOTIFICATION confirming it if it asked for one: code 0, value the request's
    /// reason (MQRC_NONE, or MQRC_NO_MSG_AVAILABLE). Observed: IBM's client takes it as the
    /// answer to its request and returns what it holds read ahead, or MQRC_NO_MSG_AVAILABLE.
    fn answered(&mut self, hobj: i32, got_message: bool) -> Option<Outgoing> {
        self.answer_by = None;
        self.sent_since_request = self.sent_since_request.max(1);
        let request = self.confirm.take()?;
        let payload = Notification {
            version: 1,
            hobj,
            code: 0,
            value: if got_message {
                MQRC_NONE
            } else {
                MQRC_NO_MSG_AVAILABLE
            },
            trailing: Vec::new(),
        }
        .encode(request.byte_order);
        Some(Outgoing {
            header: reply_header(&request, SegmentType::Notification),
            payload,
        })
    }
}

/// The consumers of one conversation.
#[derive(Debug, Default)]
pub struct Consumers {
    by_hobj: BTreeMap<i32, Consumer>,
    global_index: u32,
    /// The handle last given a message.
    last_served: i32,
    /// The data of the message being pushed, kept between messages (given back when it grew
    /// beyond [`MESSAGE_DATA_KEPT_BYTES`]).
    message_data: Vec<u8>,
    /// Flows to send before any message: confirmations of requests answered.
    pending: VecDeque<Outgoing>,
}

/// A message data buffer larger than this is given back once the message is sent (idle
/// conversations stay small).
const MESSAGE_DATA_KEPT_BYTES: usize = 64 * 1024;
/// The most bytes of an ASYNC_MESSAGE before its data: the header (55 bytes, the resolved
/// queue name of up to 48 and padding to 4) and the MQMD (version 2).
const ASYNC_MESSAGE_HEAD_BYTES_MAX: usize = 55 + 48 + 3 + ASYNC_MESSAGE_MD_BYTES;

/// One flow for the conversation to send.
#[derive(Debug)]
pub struct Outgoing {
    /// Its header.
    pub header: SegmentHeader,
    /// Its payload.
    pub payload: Vec<u8>,
}

impl Consumers {
    /// Whether some consumer still wants messages.
    pub fn has_demand(&self) -> bool {
        !self.pending.is_empty()
            || self
                .by_hobj
                .values()
                .any(|consumer| consumer.wants_messages() || consumer.wait_ends())
    }

    /// A NOTIFICATION from the client (consumer and connection state changes: MQCB, MQCTL).
    /// Observed: IBM's client expects no answer unless it sets CONFIRM_REQUEST (as when
    /// MQCTL stops a connection's consumers); an unasked answer breaks its connection. The
    /// answer is the matching *_REPLY code with the same Hobj and value. A stop (CONN_STATE
    /// with CONFIRM_REQUEST) also ends the conversation's outstanding demand.
    pub fn notification(
        &mut self,
        request: &SegmentHeader,
        notification: Notification,
    ) -> Option<Outgoing> {
        if !request.flags1.contains(ControlFlags1::CONFIRM_REQUEST) {
            return None;
        }
        let reply_code = match notification.code {
            notification::CONN_STATE => {
                self.by_hobj.values_mut().for_each(Consumer::stop);
                notification::CONN_STATE_REPLY
            }
            notification::Q_STATE => notification::Q_STATE_REPLY,
            other => other,
        };
        let reply = Notification {
            code: reply_code,
            ..notification
        };
        Some(Outgoing {
            header: reply_header(request, SegmentType::Notification),
            payload: reply.encode(request.byte_order),
        })
    }

    /// A REQUEST_MSGS from the client: records the demand, and when the request is over if it
    /// gets no message (see [`Consumers::end_waits`]).
    pub fn request(&mut self, request: &SegmentHeader, message: RequestMsgs) -> Result<(), String> {
        if !self.by_hobj.contains_key(&message.hobj)
            && self.by_hobj.len() >= CONSUMERS_PER_CONVERSATION_MAX
        {
            return Err(format!(
                "more than {CONSUMERS_PER_CONVERSATION_MAX} consumers on one conversation"
            ));
        }
        let max_message_length = match message.max_msg_length {
            0 | u32::MAX => ASYNC_MESSAGE_LENGTH_MAX,
            length => length.min(ASYNC_MESSAGE_LENGTH_MAX),
        };
        let consumer = self.by_hobj.entry(message.hobj).or_insert(Consumer {
            gmo_options: message.gmo_options,
            max_message_length,
            demand_bytes: 0,
            sent_since_request: 0,
            message_index: 0,
            header: request.clone(),
            read_ahead: false,
            held_at_persistent: false,
            unacknowledged_bytes: 0,
            quiesced: false,
            answer_by: None,
            confirm: None,
        });
        consumer.read_ahead = message.request_flags & REQUEST_FLAG_READ_AHEAD != 0;
        consumer.held_at_persistent = false;
        consumer.gmo_options = message.gmo_options;
        consumer.max_message_length = max_message_length;
        // The window: RqstBytes less what was sent and the client has not yet counted as
        // received (RecvBytes: bytes received since its previous request).
        consumer.unacknowledged_bytes = if message.request_flags & REQUEST_FLAG_NEW != 0 {
            0
        } else {
            (consumer.unacknowledged_bytes - i64::from(message.recv_bytes)).max(0)
        };
        consumer.demand_bytes = i64::from(message.rqst_bytes) - consumer.unacknowledged_bytes;
        consumer.sent_since_request = 0;
        if request.flags1.contains(ControlFlags1::CONFIRM_REQUEST) {
            // Answered by a NOTIFICATION with this request's id; messages go on the handle's
            // stream id (IBM's client rejects one on the id of a confirmation it has had).
            consumer.confirm = Some(request.clone());
            if message.request_flags & REQUEST_FLAG_NEW != 0 {
                if let HeaderKind::Tshm {
                    conversation_id, ..
                } = request.kind
                {
                    consumer.header.kind = HeaderKind::Tshm {
                        conversation_id,
                        request_id: STREAM_REQUEST_ID,
                    };
                }
            }
        } else {
            consumer.header = request.clone();
        }
        consumer.answer_by = if message.request_flags & REQUEST_FLAG_IMMEDIATE != 0 {
            Some(Instant::now())
        } else if message.wait_interval > 0 {
            Some(Instant::now() + Duration::from_millis(message.wait_interval as u64))
        } else {
            None
        };
        Ok(())
    }

    /// When the first request that waits for a message is over if none comes (for the
    /// channel initiator's timer).
    pub fn next_wait_end(&self) -> Option<Instant> {
        self.by_hobj
            .values()
            .filter(|consumer| consumer.wait_ends())
            .filter_map(|consumer| consumer.answer_by)
            .min()
    }

    /// Ends the requests that are over at `now` with no message (called when none could be
    /// delivered): each is answered, a confirmed one by its NOTIFICATION (returned, the first
    /// of them; the others are sent before any message). A request not confirmed is answered
    /// by nothing: IBM's client times its MQGETs itself and asks with a confirmed request
    /// (observed; an ASYNC_MESSAGE carrying MQRC_NO_MSG_AVAILABLE breaks its connection).
    /// Once a request is over, the consumer goes on with what its window allows (for
    /// read-ahead, non-persistent messages only).
    pub fn end_waits(&mut self, now: Instant) -> Option<Outgoing> {
        for (&hobj, consumer) in self.by_hobj.iter_mut() {
            if !consumer.wait_over(now) {
                continue;
            }
            if let Some(confirmation) = consumer.answered(hobj, false) {
                self.pending.push_back(confirmation);
            }
        }
        self.pending.pop_front()
    }

    /// MQCLOSE with MQCO_QUIESCE on `hobj`: whether it must be answered MQRC_READ_AHEAD_MSGS
    /// (MQCC_WARNING) with the handle left open, as MQ does while messages read ahead may still
    /// wait in the client's buffer (sent, and not all reported received). The handle is then
    /// quiesced: nothing more is read ahead, and the client's next MQCLOSE closes it (IBM's
    /// client makes it once its MQGETs have had MQRC_HOBJ_QUIESCED_NO_MSGS).
    pub fn quiesce(&mut self, hobj: i32) -> bool {
        match self.by_hobj.get_mut(&hobj) {
            Some(consumer)
                if consumer.read_ahead
                    && !consumer.quiesced
                    && consumer.unacknowledged_bytes > 0 =>
            {
                consumer.quiesced = true;
                true
            }
            _ => false,
        }
    }

    /// Forgets the consumer on `hobj` (its handle was closed).
    pub fn remove(&mut self, hobj: i32) {
        self.by_hobj.remove(&hobj);
    }

    /// Takes one message, without waiting, for a consumer that wants one (starting after the
    /// consumer served last, so that every consumer has its turn). Returns the ASYNC_MESSAGE
    /// (or the NOTIFICATION that stops a consumer that cannot get) to send, if any.
    pub fn deliver(&mut self, session: &mut MqiSession) -> Option<Outgoing> {
        use std::ops::Bound::{Excluded, Included, Unbounded};
        if let Some(outgoing) = self.pending.pop_front() {
            return Some(outgoing);
        }
        // The handles after the one served last, then from the first up to it. A handle
        // tried gets nothing or is removed; the others stay as they were, so the next to try
        // is found afresh after it.
        let last_served = self.last_served;
        for (mut from, to) in [
            (Excluded(last_served), Unbounded),
            (Unbounded, Included(last_served)),
        ] {
            while let Some(hobj) = self.next_wanting(from, to) {
                if let Some(outgoing) = self.deliver_to(session, hobj) {
                    self.last_served = hobj;
                    return Some(outgoing);
                }
                from = Excluded(hobj);
            }
        }
        None
    }

    /// The first handle between `from` and `to` whose consumer wants messages.
    fn next_wanting(&self, from: std::ops::Bound<i32>, to: std::ops::Bound<i32>) -> Option<i32> {
        self.by_hobj
            .range((from, to))
            .find(|(_, consumer)| consumer.wants_messages())
            .map(|(&hobj, _)| hobj)
    }

    /// Watches the queues of the consumers that want messages: `waker` is called when one
    /// may have a message for them (see `Connection::watch_for_get`).
    pub fn watch(&self, session: &mut MqiSession, waker: ArrivalWaker) -> Vec<ArrivalWatch> {
        let Some(connection) = session.connection_mut() else {
            return Vec::new();
        };
        self.by_hobj
            .iter()
            .filter(|(_, consumer)| consumer.wants_messages())
            .filter_map(|(&hobj, consumer)| {
                let gmo = Mqgmo {
                    version: 4,
                    options: consumer.gmo_options & !MQGMO_WAIT,
                    match_options: 0,
                    ..Mqgmo::default()
                };
                connection
                    .watch_for_get(Hobj(hobj), &Mqmd::default(), &gmo, waker.clone())
                    .ok()
            })
            .collect()
    }

    fn deliver_to(&mut self, session: &mut MqiSession, hobj: i32) -> Option<Outgoing> {
        let connection = session.connection_mut()?;
        let consumer = self.by_hobj.get_mut(&hobj)?;
        // Read-ahead sends only non-persistent messages ahead: a persistent one waits for the
        // client's next request, which it makes for an MQGET that finds nothing read ahead
        // (observed). The get below then takes exactly the message looked at (by its
        // MsgToken), so a persistent message that overtakes it by priority in between is not
        // sent ahead either. Gets that choose among messages themselves (a SelectionString,
        // logical order, whole groups or messages) keep the look at the queue's first message.
        let mut exact = None;
        if consumer.read_ahead && consumer.sent_since_request > 0 {
            match connection.next_message_for_read_ahead(Hobj(hobj)).ok()? {
                Some(next) if next.persistent => {
                    consumer.held_at_persistent = true;
                    return None;
                }
                Some(next) if consumer.gmo_options & CHOOSES_ITS_MESSAGE == 0 => {
                    exact = next.token;
                }
                _ => {}
            }
        }
        let mut md = Mqmd {
            version: 2,
            ..Mqmd::default()
        };
        let mut gmo = Mqgmo {
            version: 4,
            options: (consumer.gmo_options & !MQGMO_WAIT) | MQGMO_NO_WAIT,
            ..Mqgmo::default()
        };
        gmo.match_options = 0;
        if let Some(token) = exact {
            gmo.match_options = MQMO_MATCH_MSG_TOKEN;
            gmo.msg_token = token;
        }
        let mut data = std::mem::take(&mut self.message_data);
        data.clear();
        let result = connection.get_appending(
            Hobj(hobj),
            &mut md,
            &mut gmo,
            &mut data,
            consumer.max_message_length as usize,
        );
        let order = consumer.header.byte_order;
        let (reason, total_length) = match result {
            Ok(got) => (MQRC_NONE, got.data_length),
            Err(error) if error.reason == MQRC_TRUNCATED_MSG_FAILED => {
                (error.reason, error.data_length.unwrap_or(0))
            }
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => {
                self.message_data = data;
                return None;
            }
            Err(error) => {
                self.message_data = data;
                // The handle cannot be consumed from (closed, get inhibited, ...): tell the
                // client once and stop.
                let header = reply_header(&consumer.header, SegmentType::Notification);
                let payload = Notification {
                    version: 1,
                    hobj,
                    code: 1, // GET_INHIBITED and similar: the consumer is stopped
                    value: error.reason,
                    trailing: Vec::new(),
                }
                .encode(order);
                self.by_hobj.remove(&hobj);
                return Some(Outgoing { header, payload });
            }
        };
        consumer.message_index = consumer.message_index.wrapping_add(1);
        self.global_index = self.global_index.wrapping_add(1);
        let counted = (ASYNC_MESSAGE_MD_BYTES + data.len()) as i64;
        consumer.demand_bytes -= counted;
        consumer.unacknowledged_bytes += counted;
        consumer.sent_since_request += 1;
        if let Some(confirmation) = consumer.answered(hobj, true) {
            // After the message, which the client must hold when it reads the answer.
            self.pending.push_back(confirmation);
        }
        let mut writer = Writer::with_buffer(
            Vec::with_capacity(ASYNC_MESSAGE_HEAD_BYTES_MAX + data.len()),
            order,
        );
        writer.i32(1);
        writer.i32(hobj);
        writer.u32(consumer.message_index);
        writer.u32(self.global_index);
        writer.u32(data.len() as u32);
        writer.u16(0);
        writer.u16(0);
        writer.i32(reason);
        writer.u32(total_length as u32);
        writer.u32(data.len() as u32);
        writer.bytes(&gmo.msg_token);
        writer.u16(1);
        let name = gmo.resolved_q_name.trim_end().as_bytes();
        let name = &name[..name.len().min(48)];
        writer.u8(name.len() as u8);
        writer.bytes(name);
        while !writer.len().is_multiple_of(4) {
            writer.u8(0);
        }
        let mut md_writer = writer;
        let encoded = wire::md_to_wire(&md).encode(&mut md_writer);
        md_writer.bytes(&data);
        if data.capacity() <= MESSAGE_DATA_KEPT_BYTES {
            self.message_data = data;
        }
        encoded.ok()?;
        let header = SegmentHeader::new(consumer.header.kind, SegmentType::AsyncMessage, order);
        Some(Outgoing {
            header: SegmentHeader {
                ccsid: consumer.header.ccsid,
                encoding: consumer.header.encoding,
                ..header
            },
            payload: md_writer.into_bytes(),
        })
    }
}
