//! One conversation of a client socket (a TSHM ConversationId, or the socket's only
//! conversation with SHARECNV(0)): its MQI session, its flows waiting to be served, its
//! asynchronous consumers and its waiting MQGET. Adapters ([`crate::adapter`]) serve it; its
//! dispatcher only hands it flows.
//!
//! ## Scheduling
//! A conversation is scheduled at most once (`scheduled`): on the list of the dispatcher or
//! adapter whose work made it ready ([`crate::local_work`]), or, from any other thread, on the
//! adapters' run queue. It is scheduled when a flow arrives, when it is woken (a message
//! arrived for its waiting MQGET or one of its consumers, its MQGET's WaitInterval ran out,
//! its socket's output drained) and when it ends. Its flows are served in order, one at a
//! time; while an MQGET waits, later flows wait behind it (a client sends nothing else on a
//! conversation during a call). On a dispatcher, a flow that may wait (MQCONN, MQOPEN, a
//! persistent put outside syncpoint: see `waits_off_the_dispatcher` and
//! `MqiSession::call`'s `may_wait`) is not served: the conversation moves to the adapters'
//! run queue with that flow first. An MQBACK runs where it is read: a backout logs its record
//! without forcing it.
//!
//! ## A commit without a thread
//! An MQCMIT (and the implicit commit of an MQDISC with logged work, which closes the handles
//! and logs the commit first, then serves the MQDISC once it is durable) is logged wherever it
//! is read, and not waited for: the conversation keeps the
//! flow as its pending commit, registers a durability notice with the log, and serves no later
//! flow. The thread that learns that the log is durable through the commit's record (the log's
//! writer, or a forcer leading its own write) schedules the conversation: on its own list if it
//! runs conversations, otherwise on the dispatcher of its socket ([`crate::dispatcher`]'s
//! `Completions`), woken once for a whole group commit. The conversation then completes the
//! commit (its puts become visible only now) and answers it; a failed log answers it with the
//! log's reason code. A conversation that ends with its commit pending keeps its session until
//! the log answers, so a unit whose commit is logged is never backed out.
//!
//! ## A waiting MQGET without a thread
//! An MQGET with MQGMO_WAIT is run with MQGMO_NO_WAIT. If no message is there, the
//! conversation leaves an arrival watch on the queue (waking for exactly what the get selects:
//! MsgId, CorrelId or any) and a timer at the end of the WaitInterval, and gives its adapter
//! back. Woken, it tries the get again; a get that finds nothing when its WaitInterval is over
//! is answered MQRC_NO_MSG_AVAILABLE. A message another getter took first just means watching
//! again; a queue whose waiters cannot be told exactly what they want (a SelectionString)
//! is looked at again every [`SELECTION_RETRY_INTERVAL`] instead. A conversation whose socket
//! closes while it waits ends without taking a message.
//!
//! ## Asynchronous consumers
//! With REQUEST_MSGS demand outstanding ([`crate::async_consume`]) and no flow to serve, the
//! conversation takes what its consumers' queues hold without waiting and pushes each message
//! as an ASYNC_MESSAGE; when they hold nothing it watches them as a waiting MQGET does, so an
//! idle consumer costs no CPU and an arriving message is pushed at once. A request whose
//! WaitInterval is over with no message (or that asks for an answer at once) is answered then,
//! the timer waking the conversation at its end as for a waiting MQGET.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use ferrite_constants::{
    close_options::MQCO_QUIESCE, completion::MQCC_WARNING, get_options::MQGMO_WAIT, reason::*,
    wait::MQWI_UNLIMITED,
};
use ferrite_mqi::{Hobj, Mqgmo, Mqmd};
use ferrite_protocol::api::{ApiBody, ApiFlow};
use ferrite_protocol::control::{Notification, RequestMsgs};
use ferrite_protocol::segment::{Segment, SegmentHeader, SegmentType};
use ferrite_protocol::wire;
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::{ArrivalWaker, ArrivalWatch};
use ferrite_storage::log::DurableNotice;
use ferrite_storage::Rba;

use crate::async_consume::Consumers;
use crate::authentication::{self, Credentials};
use crate::channel::{ChannelSecurity, ChannelSocket, CONVERSATION_INBOX_FLOWS_MAX};
use crate::channel_initiator::ChinitShared;
use crate::flows::{conauth_accepted, protocol, reply_header, user_id_data_user, End};
use crate::local_work;
use crate::session::{CommitStart, MqiSession, SessionEnd};

/// Steps (flows served, messages pushed) a conversation takes on an adapter before it lets
/// the other conversations in the run queue have their turn.
pub const CONVERSATION_RUN_BUDGET: u32 = 64;
/// How often a waiter that cannot be woken by exactly the message it wants (a handle opened
/// with a SelectionString) looks again, as the in-process MQI's selected gets do.
pub const SELECTION_RETRY_INTERVAL: Duration = Duration::from_millis(20);

/// A conversation, shared by its dispatcher (which hands it flows), the run queue, the timer
/// and the arrival watches that wake it.
pub(crate) struct Conversation {
    id: u32,
    socket: Arc<ChannelSocket>,
    chinit: Arc<ChinitShared>,
    /// Security hook: the socket's TLS and the channel's definition, for MQCONN's checks.
    security: Arc<ChannelSecurity>,
    state: Mutex<ConversationState>,
    /// Only the adapter running the conversation takes this lock; `None` once ended.
    work: Mutex<Option<ConversationWork>>,
    /// Bumped whenever a wait (a parked MQGET, idle consumers) ends, so that the timer's
    /// entries for it wake nothing.
    timer_generation: AtomicU64,
}

#[derive(Default)]
struct ConversationState {
    /// Flows from the client not served yet.
    inbox: VecDeque<Segment>,
    /// On the run queue or running on an adapter.
    scheduled: bool,
    /// Something it waits for may have happened.
    woken: bool,
    /// The socket closed, END_CONV came, or the conversation failed.
    ended: bool,
    /// Its session is dropped: nothing more to run.
    cleaned: bool,
}

struct ConversationWork {
    session: MqiSession,
    consumers: Consumers,
    parked_get: Option<ParkedGet>,
    consumer_watches: Vec<ArrivalWatch>,
    /// Counted in the instance's busy conversations (heartbeats flow, DISCINT waits).
    waiting: bool,
    /// Security hook: the CONAUTH_INFO credentials, checked at MQCONN.
    credentials: Option<Credentials>,
    /// A refused MQCONN's reply held for FAILDLAY (on the timer: no adapter waits).
    delayed_refusal: Option<DelayedRefusal>,
    /// An MQCMIT logged and waiting for the log to be durable (no thread waits).
    pending_commit: Option<PendingCommit>,
}

/// An MQCMIT whose commit record is logged: answered once the log is durable through `end`
/// (or failed), by the conversation, woken by the log's notice. Or the implicit commit of an
/// MQDISC (`disconnect`): once it is durable the MQDISC flow is served, with nothing left to
/// wait for.
struct PendingCommit {
    flow: Segment,
    reply_header: SegmentHeader,
    end: Rba,
    disconnect: bool,
}

/// The reply to an MQCONN refused for a wrong user ID or password, sent when FAILDLAY is over;
/// the conversation then ends.
struct DelayedRefusal {
    due: Instant,
    header: SegmentHeader,
    payload: Vec<u8>,
}

/// A waiting MQGET given back its adapter.
struct ParkedGet {
    /// The MQGET flow with MQGMO_NO_WAIT, run at each try.
    flow: Segment,
    reply_header: SegmentHeader,
    hobj: i32,
    md: Mqmd,
    gmo: Mqgmo,
    deadline: Option<Instant>,
    watch: Option<ArrivalWatch>,
}

impl Conversation {
    /// A new conversation of `socket` (counted in CURSHCNV until it ends).
    pub(crate) fn start(
        id: u32,
        socket: Arc<ChannelSocket>,
        chinit: Arc<ChinitShared>,
        max_message_size: u32,
        security: Arc<ChannelSecurity>,
    ) -> Arc<Conversation> {
        socket
            .instance
            .conversations
            .fetch_add(1, Ordering::Relaxed);
        chinit.live_conversations.fetch_add(1, Ordering::AcqRel);
        let session = MqiSession::new(chinit.queue_manager.clone(), max_message_size);
        Arc::new(Conversation {
            id,
            socket,
            chinit,
            security,
            state: Mutex::new(ConversationState::default()),
            work: Mutex::new(Some(ConversationWork {
                session,
                consumers: Consumers::default(),
                parked_get: None,
                consumer_watches: Vec::new(),
                waiting: false,
                credentials: None,
                delayed_refusal: None,
                pending_commit: None,
            })),
            timer_generation: AtomicU64::new(0),
        })
    }

    /// A flow for the conversation; returns how many flows now wait, or `None` if the
    /// conversation has ended.
    pub(crate) fn push_flow(self: &Arc<Self>, flow: Segment) -> Option<usize> {
        let mut state = self.state.lock().unwrap();
        if state.ended {
            return None;
        }
        state.inbox.push_back(flow);
        let waiting = state.inbox.len();
        self.schedule(&mut state);
        Some(waiting)
    }

    /// Ends the conversation (its socket closed, END_CONV): its adapter drops its session,
    /// backing out its unit of work.
    pub(crate) fn end(self: &Arc<Self>) {
        let mut state = self.state.lock().unwrap();
        state.ended = true;
        self.schedule(&mut state);
    }

    /// Something the conversation waits for may have happened. Called under a queue's lock by
    /// arrival watches: takes only the conversation's state lock and the run queue's.
    pub(crate) fn wake(self: &Arc<Self>) {
        let mut state = self.state.lock().unwrap();
        state.woken = true;
        self.schedule(&mut state);
    }

    /// Puts the conversation on the calling dispatcher's or adapter's own list
    /// ([`crate::local_work`]), or, on any other thread, on the adapters' run queue.
    fn schedule(self: &Arc<Self>, state: &mut MutexGuard<'_, ConversationState>) {
        if !state.scheduled && !state.cleaned {
            state.scheduled = true;
            if let Err(conversation) = local_work::defer_run(self.clone()) {
                self.chinit.adapters.schedule(conversation);
            }
        }
    }

    /// The generation of the conversation's current wait (see [`crate::adapter::Timer`]).
    pub(crate) fn timer_generation(&self) -> u64 {
        self.timer_generation.load(Ordering::Acquire)
    }

    /// A timer entry of wait `generation` fell due.
    pub(crate) fn timer_fired(self: &Arc<Self>, generation: u64) {
        if self.timer_generation() == generation {
            self.wake();
        }
    }

    fn waker(self: &Arc<Self>) -> ArrivalWaker {
        let conversation = Arc::downgrade(self);
        Arc::new(move || {
            // The conversation outlives its watches: they are dropped with its session, by an
            // adapter, before its last reference can go (so this never drops it).
            if let Some(conversation) = conversation.upgrade() {
                conversation.wake();
            }
        })
    }

    /// Runs the conversation on an adapter until it has nothing to do, or for
    /// [`CONVERSATION_RUN_BUDGET`] steps.
    pub(crate) fn run(self: Arc<Self>) {
        let mut guard = self.work.lock().unwrap();
        for _ in 0..CONVERSATION_RUN_BUDGET {
            let (flow, woken, ended, waiting_flows) = {
                let mut state = self.state.lock().unwrap();
                let woken = std::mem::take(&mut state.woken);
                let get_parked = guard.as_ref().is_some_and(|work| {
                    work.parked_get.is_some()
                        || work.delayed_refusal.is_some()
                        || work.pending_commit.is_some()
                });
                let flow = if state.ended || get_parked {
                    None
                } else {
                    state.inbox.pop_front()
                };
                (flow, woken, state.ended, state.inbox.len())
            };
            if ended {
                if guard
                    .as_mut()
                    .is_some_and(|work| self.commit_unanswered(work))
                {
                    // The session is dropped once the log answers its commit (the notice
                    // wakes the conversation): a unit whose commit is logged is not backed out.
                    let mut state = self.state.lock().unwrap();
                    if state.woken {
                        continue;
                    }
                    state.scheduled = false;
                    return;
                }
                self.clean_up(&mut guard);
                return;
            }
            let Some(work) = guard.as_mut() else {
                return;
            };
            if waiting_flows < CONVERSATION_INBOX_FLOWS_MAX / 2 {
                self.socket.resume_reading();
            }
            if !self.socket.has_room(&self) {
                if let Some(flow) = flow {
                    self.state.lock().unwrap().inbox.push_front(flow);
                }
                // Run again when the output drains (or the socket closes).
                let mut state = self.state.lock().unwrap();
                state.scheduled = false;
                state.woken |= woken;
                return;
            }
            let step = if let Some(due) = work.delayed_refusal.as_ref().map(|delayed| delayed.due) {
                if Instant::now() < due {
                    Ok(false)
                } else {
                    let delayed = work.delayed_refusal.take().expect("a delayed refusal");
                    self.timer_generation.fetch_add(1, Ordering::AcqRel);
                    // As MQ: a connection refused for its credentials ends.
                    self.send(&delayed.header, &delayed.payload)
                        .and(Err(End::Closed))
                }
            } else if work.pending_commit.is_some() {
                self.resume_commit(work)
            } else if work.parked_get.is_some() {
                self.resume_get(work, woken)
            } else if let Some(flow) = flow {
                match self.serve(work, flow) {
                    Ok(Served::Done) => {
                        // What consumers want may have changed: look at their queues again.
                        work.consumer_watches.clear();
                        Ok(true)
                    }
                    Ok(Served::MustWait(flow)) => {
                        // Not on a dispatcher: to an adapter, the flow first (still scheduled).
                        self.state.lock().unwrap().inbox.push_front(flow);
                        drop(guard);
                        self.chinit.adapters.schedule(self.clone());
                        return;
                    }
                    Err(end) => Err(end),
                }
            } else if work.consumers.has_demand() {
                self.feed_consumers(work, woken)
            } else {
                Ok(false)
            };
            match step {
                Ok(true) => continue,
                Ok(false) => {
                    let mut state = self.state.lock().unwrap();
                    let flows_ready = !state.inbox.is_empty()
                        && work.parked_get.is_none()
                        && work.delayed_refusal.is_none()
                        && work.pending_commit.is_none();
                    if state.woken || state.ended || flows_ready {
                        continue;
                    }
                    state.scheduled = false;
                    return;
                }
                Err(end) => {
                    if let End::Error(error) = end {
                        if !self.state.lock().unwrap().ended {
                            let instance = &self.socket.instance;
                            (self.chinit.log)(&format!(
                                "CSQX208E ferrite channel {} from {}: conversation {} ended: {error}",
                                instance.channel_name.lock().unwrap(),
                                instance.peer,
                                self.id
                            ));
                            // A broken conversation ends the socket: the peer cannot
                            // resynchronise.
                            instance.stop();
                        }
                    }
                    self.state.lock().unwrap().ended = true;
                    self.clean_up(&mut guard);
                    return;
                }
            }
        }
        // Budget spent (still scheduled): to the back of the dispatcher's own list, which it
        // runs between looks at its sockets, or of the adapters' run queue.
        drop(guard);
        if local_work::may_wait() {
            self.chinit.adapters.schedule(self.clone());
        } else if let Err(conversation) = local_work::defer_run(self.clone()) {
            self.chinit.adapters.schedule(conversation);
        }
    }

    /// Drops the session (backing out its unit of work, closing its handles) and everything
    /// that could wake the conversation.
    fn clean_up(&self, guard: &mut MutexGuard<'_, Option<ConversationWork>>) {
        let Some(mut work) = guard.take() else {
            return;
        };
        self.set_waiting(&mut work, false);
        work.consumer_watches.clear();
        work.parked_get = None;
        drop(work);
        self.timer_generation.fetch_add(1, Ordering::AcqRel);
        {
            let mut state = self.state.lock().unwrap();
            state.cleaned = true;
            state.inbox.clear();
        }
        self.socket
            .instance
            .conversations
            .fetch_sub(1, Ordering::Relaxed);
        self.chinit
            .live_conversations
            .fetch_sub(1, Ordering::AcqRel);
    }

    fn set_waiting(&self, work: &mut ConversationWork, waiting: bool) {
        if work.waiting == waiting {
            return;
        }
        work.waiting = waiting;
        let busy = &self.socket.instance.busy_conversations;
        if waiting {
            busy.fetch_add(1, Ordering::AcqRel);
        } else {
            busy.fetch_sub(1, Ordering::AcqRel);
        }
    }

    fn send(&self, header: &SegmentHeader, payload: &[u8]) -> Result<(), End> {
        self.socket.send(header, payload).map_err(End::from)
    }

    /// Serves one flow from the client, unless this thread must not wait and the flow may
    /// ([`Served::MustWait`]).
    fn serve(self: &Arc<Self>, work: &mut ConversationWork, flow: Segment) -> Result<Served, End> {
        let flow = if flow.header.segment_type == SegmentType::MqDisc
            && work.session.unit_of_work_is_logged()
        {
            match self.start_disconnect_commit(work, flow) {
                Some(flow) => flow,
                None => return Ok(Served::Done),
            }
        } else {
            flow
        };
        if !local_work::may_wait() && waits_off_the_dispatcher(flow.header.segment_type) {
            return Ok(Served::MustWait(flow));
        }
        if flow.header.segment_type == SegmentType::MqCmit {
            return self.start_commit(work, flow).map(|()| Served::Done);
        }
        match self.serve_flow(work, &flow)? {
            Called::Done => Ok(Served::Done),
            Called::WouldWait => Ok(Served::MustWait(flow)),
        }
    }

    fn serve_flow(
        self: &Arc<Self>,
        work: &mut ConversationWork,
        flow: &Segment,
    ) -> Result<Called, End> {
        let order: ByteOrder = flow.header.byte_order;
        let done = |result: Result<(), End>| result.map(|()| Called::Done);
        match flow.header.segment_type {
            SegmentType::UseridData => {
                work.session.user = user_id_data_user(&flow.payload, order)?;
                // No reply: the client goes straight on to CONAUTH_INFO or MQCONN.
                Ok(Called::Done)
            }
            SegmentType::ConauthInfo => {
                // Security hook: keep the user ID and password for MQCONN; IBM's client goes
                // on after a STATUS_DATA with code 0 (see `crate::authentication`).
                work.credentials = authentication::credentials_from_caut(&flow.payload, order)
                    .map_err(protocol)?;
                let (header, status) = conauth_accepted(&flow.header, order);
                done(self.send(&header, &status))
            }
            SegmentType::Notification => {
                let notification = Notification::decode(&flow.payload, order).map_err(protocol)?;
                match work.consumers.notification(&flow.header, notification) {
                    Some(reply) => done(self.send(&reply.header, &reply.payload)),
                    None => Ok(Called::Done),
                }
            }
            SegmentType::RequestMsgs => {
                let request = RequestMsgs::decode(&flow.payload, order).map_err(protocol)?;
                work.consumers
                    .request(&flow.header, request)
                    .map_err(protocol)?;
                Ok(Called::Done)
            }
            t if t.has_api_header() && !t.is_reply() => self.serve_mqi(work, flow),
            other => Err(protocol(format!("unexpected segment type {other:?}"))),
        }
    }

    /// An MQCLOSE with MQCO_QUIESCE of a handle whose messages may wait read ahead in the
    /// client: MQ's warning MQRC_READ_AHEAD_MSGS, and the handle stays open. Returns whether
    /// it was answered so.
    fn quiesce_close(&self, work: &mut ConversationWork, flow: &Segment) -> Result<bool, End> {
        let order = flow.header.byte_order;
        if flow.payload.len() < 16 {
            return Ok(false);
        }
        let hobj = payload_i32(&flow.payload, 12, order);
        let options = payload_i32(&flow.payload, 16, order);
        if options & MQCO_QUIESCE == 0 || !work.consumers.quiesce(hobj) {
            work.consumers.remove(hobj);
            return Ok(false);
        }
        self.socket.instance.note_message();
        let mut payload = flow.payload.clone();
        let mut put_i32 = |at: usize, value: i32| {
            let bytes = match order {
                ByteOrder::Big => value.to_be_bytes(),
                ByteOrder::Little => value.to_le_bytes(),
            };
            payload[at..at + 4].copy_from_slice(&bytes);
        };
        put_i32(4, MQCC_WARNING);
        put_i32(8, MQRC_READ_AHEAD_MSGS);
        let header = reply_header(&flow.header, SegmentType::MqCloseReply);
        self.send(&header, &payload).map(|()| true)
    }

    /// An MQI verb (a flow with an API header).
    fn serve_mqi(
        self: &Arc<Self>,
        work: &mut ConversationWork,
        flow: &Segment,
    ) -> Result<Called, End> {
        let t = flow.header.segment_type;
        if t == SegmentType::MqClose && self.quiesce_close(work, flow)? {
            return Ok(Called::Done);
        }
        let Some(reply_type) = t.reply() else {
            return Err(protocol(format!("{t:?} has no reply")));
        };
        let header = reply_header(&flow.header, reply_type);
        if t == SegmentType::MqGet {
            if let Some(parked) = waiting_get(flow, header.clone())? {
                self.socket.instance.note_message();
                return self.start_waiting_get(work, parked).map(|()| Called::Done);
            }
        }
        let session = &mut work.session;
        // Security hook: connection authentication decides MQCONN and its user ID.
        let (refused, fail_delay) = if t == SegmentType::MqConn && !session.is_connected() {
            let (accepted, fail_delay) =
                self.authorize_connection(session, work.credentials.take());
            (!accepted, fail_delay)
        } else {
            (false, Duration::ZERO)
        };
        let payload = match call(session, flow, &header, local_work::may_wait())? {
            Reply::Payload(payload) => payload,
            Reply::None => {
                // An asynchronous put: no reply.
                self.socket.instance.note_message();
                return Ok(Called::Done);
            }
            Reply::WouldWait => return Ok(Called::WouldWait),
        };
        self.socket.instance.note_message();
        if t == SegmentType::MqConn {
            if let Some(connection) = session.connection_mut() {
                let instance = &self.socket.instance;
                connection.record().set_channel(
                    &instance.channel_name.lock().unwrap(),
                    &format!("{}({})", instance.peer.ip(), instance.peer.port()),
                );
            }
        }
        if refused && !fail_delay.is_zero() {
            // FAILDLAY: the refusal is answered later, from the timer.
            let due = Instant::now() + fail_delay;
            work.delayed_refusal = Some(DelayedRefusal {
                due,
                header,
                payload,
            });
            self.chinit.timer.wake_at(due, self);
            return Ok(Called::Done);
        }
        self.send(&header, &payload)?;
        if refused {
            // As MQ: a connection refused for its credentials ends; the client may not try
            // passwords again on the same conversation.
            return Err(End::Closed);
        }
        Ok(Called::Done)
    }

    /// Connection authentication at MQCONN: decides with the queue manager's CHCKCLNT, the
    /// channel's MCAUSER and the conversation's credentials, sets the connection's user ID, or
    /// makes the MQCONN fail with MQRC_NOT_AUTHORIZED (logged). Returns whether it may go
    /// ahead, and how long a refusal's answer waits (FAILDLAY).
    fn authorize_connection(
        &self,
        session: &mut MqiSession,
        credentials: Option<Credentials>,
    ) -> (bool, Duration) {
        let security = &self.security;
        let queue_manager = &self.chinit.queue_manager;
        let instance = &self.socket.instance;
        let peer = format!("{}({})", instance.peer.ip(), instance.peer.port());
        // Channel authentication records (CHLAUTH) first: a blocked connection ends here;
        // a mapping may give the connection another MCAUSER.
        let channel = match crate::channel_authentication::check(
            queue_manager,
            &security.channel,
            instance.peer.ip(),
            &session.user,
            &*self.chinit.log,
        ) {
            Ok(channel) => channel,
            Err(reason) => {
                session.refuse_connect = Some(reason);
                return (false, Duration::ZERO);
            }
        };
        let policy = authentication::policy(queue_manager);
        let facts = authentication::ConnectionFacts {
            channel: &channel,
            peer: &peer,
            privileged: authentication::asserted_user_is_privileged(
                queue_manager,
                &policy,
                &session.user,
            ),
            policy,
            transport: security.password_transport,
            tls: security.socket.tls,
            asserted_user: &session.user,
        };
        let registry =
            ferrite_queue_manager::security::users::UserRegistry::new(queue_manager.directory());
        // Not `decide`, which sleeps FAILDLAY on the calling thread: an adapter must not.
        let outcome = authentication::authenticate(&facts, credentials.as_ref(), &registry);
        let fail_delay = authentication::fail_delay(&facts, credentials.as_ref(), &outcome);
        match outcome {
            authentication::Outcome::Accepted { user_id, .. } => {
                session.user = user_id;
                session.refuse_connect = None;
                (true, fail_delay)
            }
            authentication::Outcome::Refused { reason, log } => {
                for line in log.lines() {
                    (self.chinit.log)(line);
                }
                session.refuse_connect = Some(reason);
                (false, fail_delay)
            }
        }
    }

    /// MQCMIT, on whichever thread: the commit is logged, and the flow answered when the log
    /// is durable through its record, by the thread that learns it (the log's notice hands the
    /// conversation to its dispatcher, or to the thread that wrote the log if that thread runs
    /// conversations), the conversation serving no later flow until then. Nothing waits.
    fn start_commit(
        self: &Arc<Self>,
        work: &mut ConversationWork,
        flow: Segment,
    ) -> Result<(), End> {
        let reply_header = reply_header(&flow.header, SegmentType::MqCmitReply);
        let end = match work
            .session
            .commit_logged(&flow, reply_header.header_length())
            .map_err(session_end)?
        {
            CommitStart::Reply(payload) => {
                self.socket.instance.note_message();
                return self.send(&reply_header, &payload);
            }
            CommitStart::Logged(end) => end,
        };
        self.await_commit(work, flow, reply_header, end, false);
        Ok(())
    }

    /// MQDISC of a unit of work that logged: its commit is logged here and the MQDISC served
    /// once it is durable (by then it waits for nothing: MQ's implicit commit without a thread
    /// waiting for the log). Returns the flow back when there is nothing to wait for.
    fn start_disconnect_commit(
        self: &Arc<Self>,
        work: &mut ConversationWork,
        flow: Segment,
    ) -> Option<Segment> {
        let Some(end) = work.session.disconnect_commit_logged() else {
            return Some(flow);
        };
        let reply_header = reply_header(&flow.header, SegmentType::MqDiscReply);
        self.await_commit(work, flow, reply_header, end, true);
        None
    }

    /// Keeps `flow`'s commit, logged through `end`, pending, and asks the log for its notice.
    fn await_commit(
        self: &Arc<Self>,
        work: &mut ConversationWork,
        flow: Segment,
        reply_header: SegmentHeader,
        end: Rba,
        disconnect: bool,
    ) {
        work.pending_commit = Some(PendingCommit {
            flow,
            reply_header,
            end,
            disconnect,
        });
        let conversation = self.clone();
        let notice: DurableNotice = Box::new(move || conversation.commit_answered());
        // Answered already: `resume_commit`, next step of this run, completes it.
        if let Some(notice) = work.session.notify_when_durable(end, notice) {
            drop(notice);
        }
    }

    /// The log's notice: the force a pending commit waits for is over. Called by the thread
    /// that learnt it, maybe the log's writer: it only schedules the conversation.
    fn commit_answered(self: Arc<Self>) {
        let mut state = self.state.lock().unwrap();
        state.woken = true;
        if state.scheduled || state.cleaned {
            return;
        }
        state.scheduled = true;
        drop(state);
        let conversation = match local_work::defer_run(self) {
            Ok(()) => return,
            Err(conversation) => conversation,
        };
        let socket = conversation.socket.clone();
        if let Err(conversation) = socket.completions.hand(conversation) {
            let adapters = conversation.chinit.adapters.clone();
            adapters.schedule(conversation);
        }
    }

    /// The conversation ran with a commit pending: answers it if the log has.
    fn resume_commit(self: &Arc<Self>, work: &mut ConversationWork) -> Result<bool, End> {
        let end = work.pending_commit.as_ref().expect("a pending commit").end;
        let Some(forced) = work.session.durable_outcome(end) else {
            return Ok(false);
        };
        let pending = work.pending_commit.take().expect("a pending commit");
        if pending.disconnect {
            // The MQDISC itself is served next, its unit of work committed.
            work.session.disconnect_commit_durable(pending.end, forced);
            self.state.lock().unwrap().inbox.push_front(pending.flow);
            return Ok(true);
        }
        let payload = work
            .session
            .commit_durable(
                &pending.flow,
                pending.reply_header.header_length(),
                pending.end,
                forced,
            )
            .map_err(session_end)?;
        self.socket.instance.note_message();
        self.send(&pending.reply_header, &payload).map(|()| true)
    }

    /// The conversation ended: completes its pending commit if the log has answered it (no
    /// reply: the client is gone). Returns whether the log has yet to answer it.
    fn commit_unanswered(&self, work: &mut ConversationWork) -> bool {
        let Some(end) = work.pending_commit.as_ref().map(|pending| pending.end) else {
            return false;
        };
        let Some(forced) = work.session.durable_outcome(end) else {
            return true;
        };
        let pending = work.pending_commit.take().expect("a pending commit");
        if pending.disconnect {
            work.session.disconnect_commit_durable(pending.end, forced);
            return false;
        }
        let _ = work.session.commit_durable(
            &pending.flow,
            pending.reply_header.header_length(),
            pending.end,
            forced,
        );
        false
    }

    /// A waiting MQGET: tried at once; parked if nothing is there yet.
    fn start_waiting_get(
        self: &Arc<Self>,
        work: &mut ConversationWork,
        parked: ParkedGet,
    ) -> Result<(), End> {
        work.parked_get = Some(parked);
        self.set_waiting(work, true);
        if let Some(deadline) = work.parked_get.as_ref().and_then(|parked| parked.deadline) {
            self.chinit.timer.wake_at(deadline, self);
        }
        self.try_parked_get(work, false).map(|_| ())
    }

    /// The conversation ran with its MQGET parked: tries again if woken or due.
    fn resume_get(self: &Arc<Self>, work: &mut ConversationWork, woken: bool) -> Result<bool, End> {
        let parked = work.parked_get.as_ref().expect("a parked get");
        let expired = parked
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline);
        if !woken && !expired {
            return Ok(false);
        }
        self.try_parked_get(work, true)
    }

    /// Runs the parked MQGET without waiting. Answers it if it got a message, failed, or its
    /// WaitInterval is over; otherwise watches its queue (or looks again soon). Returns
    /// whether it was answered.
    fn try_parked_get(
        self: &Arc<Self>,
        work: &mut ConversationWork,
        after_wake: bool,
    ) -> Result<bool, End> {
        let parked = work.parked_get.as_mut().expect("a parked get");
        // Dropped before the get, so the watch does not fire for the get's own doing.
        let narrower_than_watch = after_wake
            && parked
                .watch
                .take()
                .is_some_and(|watch| watch.was_ready_at_start());
        let Reply::Payload(payload) =
            call(&mut work.session, &parked.flow, &parked.reply_header, true)?
        else {
            return Err(protocol("an MQGET without a reply"));
        };
        let reason = reply_reason(&payload, parked.flow.header.byte_order);
        let expired = parked
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline);
        if reason != MQRC_NO_MSG_AVAILABLE || expired {
            let header = parked.reply_header.clone();
            work.parked_get = None;
            self.timer_generation.fetch_add(1, Ordering::AcqRel);
            self.set_waiting(work, false);
            return self.send(&header, &payload).map(|()| true);
        }
        if narrower_than_watch {
            // Messages are there but the get selects none of them (a SelectionString): look
            // again soon rather than watch, which would fire at once again.
            let mut at = Instant::now() + SELECTION_RETRY_INTERVAL;
            if let Some(deadline) = parked.deadline {
                at = at.min(deadline);
            }
            self.chinit.timer.wake_at(at, self);
            return Ok(false);
        }
        let watch = work.session.connection_mut().map(|connection| {
            connection.watch_for_get(Hobj(parked.hobj), &parked.md, &parked.gmo, self.waker())
        });
        match watch {
            Some(Ok(watch)) => {
                parked.watch = Some(watch);
                Ok(false)
            }
            // The handle or its queue is gone: the get's own answer says so.
            _ => {
                let header = parked.reply_header.clone();
                work.parked_get = None;
                self.timer_generation.fetch_add(1, Ordering::AcqRel);
                self.set_waiting(work, false);
                self.send(&header, &payload).map(|()| true)
            }
        }
    }

    /// Pushes a message to a consumer that wants one, if any is there; otherwise watches
    /// their queues. Returns whether a flow was sent.
    fn feed_consumers(
        self: &Arc<Self>,
        work: &mut ConversationWork,
        woken: bool,
    ) -> Result<bool, End> {
        if !woken && !work.consumer_watches.is_empty() {
            return Ok(false);
        }
        let narrower_than_watch = woken
            && work
                .consumer_watches
                .iter()
                .any(|watch| watch.was_ready_at_start());
        work.consumer_watches.clear();
        let outgoing = match work.consumers.deliver(&mut work.session) {
            Some(outgoing) => Some(outgoing),
            // Nothing for them: the requests whose wait is over are answered so.
            None => work.consumers.end_waits(Instant::now()),
        };
        if let Some(outgoing) = outgoing {
            self.socket.instance.note_message();
            self.set_waiting(work, false);
            self.send(&outgoing.header, &outgoing.payload)?;
            return Ok(true);
        }
        if !work.consumers.has_demand() {
            self.set_waiting(work, false);
            return Ok(false);
        }
        self.set_waiting(work, true);
        let wait_end = work.consumers.next_wait_end();
        if narrower_than_watch {
            let mut at = Instant::now() + SELECTION_RETRY_INTERVAL;
            if let Some(wait_end) = wait_end {
                at = at.min(wait_end);
            }
            self.chinit.timer.wake_at(at, self);
            return Ok(false);
        }
        if let Some(wait_end) = wait_end {
            self.chinit.timer.wake_at(wait_end, self);
        }
        work.consumer_watches = work.consumers.watch(&mut work.session, self.waker());
        Ok(false)
    }
}

/// What serving a flow came to.
enum Served {
    Done,
    /// Not served: it may wait, and this thread must not (a dispatcher). The flow comes back.
    MustWait(Segment),
}

/// What an MQI call came to, the flow kept by its caller.
enum Called {
    Done,
    /// Not made: it may wait for the log, and this thread must not.
    WouldWait,
}

/// An MQI call's reply.
enum Reply {
    Payload(Vec<u8>),
    /// An asynchronous put: no reply.
    None,
    /// The call was not made: it may wait for the log, and `may_wait` was false.
    WouldWait,
}

/// Flows never served on a dispatcher: connecting (authentication), disconnecting (a commit),
/// opening and closing (a dynamic queue is created or deleted, and logged), MQSET, and the
/// SPI verbs that come with opens.
fn waits_off_the_dispatcher(segment_type: SegmentType) -> bool {
    matches!(
        segment_type,
        SegmentType::MqConn
            | SegmentType::MqDisc
            | SegmentType::MqOpen
            | SegmentType::MqClose
            | SegmentType::MqSet
            | SegmentType::Spi
    )
}

fn session_end(end: SessionEnd) -> End {
    match end {
        SessionEnd::Gone | SessionEnd::WouldWait => End::Closed,
        SessionEnd::Protocol(error) => End::Error(error),
    }
}

/// Runs an MQI flow through the session and returns its reply.
fn call(
    session: &mut MqiSession,
    flow: &Segment,
    header: &SegmentHeader,
    may_wait: bool,
) -> Result<Reply, End> {
    match session.call(flow, header.header_length(), &mut || false, may_wait) {
        Ok(Some((_, payload))) => Ok(Reply::Payload(payload)),
        Ok(None) => Ok(Reply::None),
        Err(SessionEnd::WouldWait) => Ok(Reply::WouldWait),
        Err(SessionEnd::Gone) => Err(End::Closed),
        Err(SessionEnd::Protocol(error)) => Err(End::Error(error)),
    }
}

/// The integer at `at` of a payload at least `at + 4` long, or 0 when it is shorter.
fn payload_i32(payload: &[u8], at: usize, order: ByteOrder) -> i32 {
    let Some(bytes) = payload.get(at..at + 4) else {
        return 0;
    };
    let bytes = [bytes[0], bytes[1], bytes[2], bytes[3]];
    match order {
        ByteOrder::Big => i32::from_be_bytes(bytes),
        ByteOrder::Little => i32::from_le_bytes(bytes),
    }
}

/// The Reason of a reply's API header (ReplyLength, CompCode, Reason, Hobj).
fn reply_reason(payload: &[u8], order: ByteOrder) -> i32 {
    payload_i32(payload, 8, order)
}

/// If `flow` is an MQGET that waits (MQGMO_WAIT with a WaitInterval that is not 0), the get
/// to park: the same flow with MQGMO_NO_WAIT, and when its wait ends.
fn waiting_get(flow: &Segment, reply_header: SegmentHeader) -> Result<Option<ParkedGet>, End> {
    let order = flow.header.byte_order;
    let request = ApiFlow::decode(SegmentType::MqGet, order, &flow.payload).map_err(protocol)?;
    let ApiBody::Get(mut get) = request.body else {
        return Ok(None);
    };
    let wait_interval = get.gmo.wait_interval;
    if get.gmo.options & MQGMO_WAIT == 0 || (wait_interval <= 0 && wait_interval != MQWI_UNLIMITED)
    {
        // No wait, or an invalid WaitInterval the get itself reports.
        return Ok(None);
    }
    // The text fields are output: the get replaces them.
    let md = wire::output_md_from_wire(&get.md);
    let gmo = wire::gmo_from_wire(&get.gmo);
    let deadline = (wait_interval != MQWI_UNLIMITED)
        .then(|| Instant::now() + Duration::from_millis(wait_interval as u64));
    get.gmo.options &= !MQGMO_WAIT;
    get.gmo.wait_interval = 0;
    let payload = ApiFlow {
        header: request.header,
        body: ApiBody::Get(get),
    }
    .encode(order)
    .map_err(protocol)?;
    Ok(Some(ParkedGet {
        flow: Segment::new(flow.header.clone(), payload),
        reply_header,
        hobj: request.header.hobj,
        md,
        gmo,
        deadline,
        watch: None,
    }))
}
