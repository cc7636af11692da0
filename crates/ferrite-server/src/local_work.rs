//! Work a dispatcher or adapter thread keeps for itself: the conversations that what it just
//! did made ready, and the sockets whose replies wait for one write.
//!
//! A dispatcher that reads an MQPUT runs it on its own thread; the put wakes the conversation
//! of a getter waiting on the queue, and that conversation runs next on the same thread, which
//! writes the getter's message: no other thread is woken in between (MP16's adapter "gets the
//! work done while the data is in its cache"). Replies are not written one flow at a time:
//! each goes onto its socket's output, and the socket is written once when the thread has
//! done what it had in hand, so flows that arrived together leave together.
//!
//! A thread opts in with [`enter`]; on any other thread (the timer, an application thread
//! putting through the in-process MQI) [`defer_run`] and [`defer_flush`] refuse, and the caller
//! schedules on the adapters or writes at once, as before.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;

use crate::channel::ChannelSocket;
use crate::channel_conversation::Conversation;

/// Conversations a dispatcher runs from its own list between two looks at its sockets, so
/// that conversations that keep waking one another cannot keep it from reading.
pub const LOCAL_RUNS_PER_TURN_MAX: usize = 256;

/// What kind of thread keeps the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// Owns sockets: must never wait (for the log, a lock held across I/O, a timer).
    Dispatcher,
    /// Runs calls that may wait (MQCONN, a persistent put outside syncpoint forcing the log).
    Adapter,
}

struct LocalWork {
    place: Place,
    runs: VecDeque<Arc<Conversation>>,
    flushes: Vec<Arc<ChannelSocket>>,
}

thread_local! {
    static LOCAL: RefCell<Option<LocalWork>> = const { RefCell::new(None) };
}

/// Makes the calling thread keep its own work from now on.
pub(crate) fn enter(place: Place) {
    LOCAL.with(|local| {
        *local.borrow_mut() = Some(LocalWork {
            place,
            runs: VecDeque::new(),
            flushes: Vec::new(),
        })
    });
}

/// Whether a call made on this thread may wait (false only on a dispatcher).
pub(crate) fn may_wait() -> bool {
    LOCAL.with(|local| {
        local
            .borrow()
            .as_ref()
            .is_none_or(|work| work.place != Place::Dispatcher)
    })
}

/// Keeps `conversation` (already marked scheduled) to be run by this thread; gives it back
/// when the thread keeps no work.
pub(crate) fn defer_run(conversation: Arc<Conversation>) -> Result<(), Arc<Conversation>> {
    LOCAL.with(|local| match local.borrow_mut().as_mut() {
        Some(work) => {
            work.runs.push_back(conversation);
            Ok(())
        }
        None => Err(conversation),
    })
}

/// The next conversation this thread keeps to run.
pub(crate) fn next_run() -> Option<Arc<Conversation>> {
    LOCAL.with(|local| local.borrow_mut().as_mut()?.runs.pop_front())
}

/// Whether conversations wait to be run by this thread.
pub(crate) fn has_runs() -> bool {
    LOCAL.with(|local| {
        local
            .borrow()
            .as_ref()
            .is_some_and(|work| !work.runs.is_empty())
    })
}

/// Keeps `socket` to be written by this thread (its caller marked it so, once); gives it back
/// when the thread keeps no work.
pub(crate) fn defer_flush(socket: Arc<ChannelSocket>) -> Result<(), Arc<ChannelSocket>> {
    LOCAL.with(|local| match local.borrow_mut().as_mut() {
        Some(work) => {
            work.flushes.push(socket);
            Ok(())
        }
        None => Err(socket),
    })
}

/// Writes every socket this thread kept.
pub(crate) fn flush() {
    loop {
        let Some(socket) = LOCAL.with(|local| local.borrow_mut().as_mut()?.flushes.pop()) else {
            return;
        };
        socket.flush_deferred();
    }
}

/// Runs the conversations this thread keeps, at most `limit` of them (those they wake in turn
/// included), then writes what they sent.
pub(crate) fn run(limit: usize) {
    for _ in 0..limit {
        let Some(conversation) = next_run() else {
            break;
        };
        conversation.run();
    }
    flush();
}
