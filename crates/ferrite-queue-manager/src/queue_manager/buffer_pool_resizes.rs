//! The order ALTER BUFFPOOL resizes run in, and shutdown's wait for the one running.
//!
//! ALTER BUFFPOOL answers before its pool is resized (CSQP024I), so two ALTERs of one pool can
//! both be waiting to run; the one asked for last must decide the size, in the pool and in
//! qm.toml. Each request takes a ticket when it is made (the command's thread, so tickets
//! follow the order the commands were entered in); resizes then run one at a time, and a
//! request whose pool already has a later ticket does nothing and is reported superseded
//! (the later one sets the size). Whatever order the threads get their turns in, the last
//! request's resize runs after every other one that resizes, so its size is the one kept.
//!
//! Shutdown waits (at most [`RESIZE_SHUTDOWN_WAIT_MAX`]) for the resize running, which may be
//! writing pages or rewriting qm.toml; a request whose turn comes once the queue manager is
//! stopping is refused, so nothing is resized or recorded after shutdown returned.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use crate::QueueManager;
use ferrite_storage::buffer_pool::{ResizeOutcome, SHRINK_WAIT_MAX};
use ferrite_storage::error::{StorageError, StorageResult};

/// The longest shutdown waits for a running resize: a shrink's wait for buffers in use, plus
/// time for it to write changed pages and rewrite qm.toml.
pub const RESIZE_SHUTDOWN_WAIT_MAX: Duration =
    SHRINK_WAIT_MAX.saturating_add(Duration::from_secs(30));

/// How an ALTER BUFFPOOL request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resized {
    /// The pool has the size asked for, recorded in qm.toml.
    Done(ResizeOutcome),
    /// A later request for the pool came first in line: this one did nothing.
    Superseded,
}

/// One ALTER BUFFPOOL request's place in its pool's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResizeTicket {
    pub(super) pool: u8,
    pub(super) sequence: u64,
}

#[derive(Default)]
struct State {
    /// The last ticket given.
    last_sequence: u64,
    /// The latest ticket of each pool asked to resize.
    latest: HashMap<u8, u64>,
    /// A resize is running (between [`BufferPoolResizes::begin`] and its [`Running`]'s drop).
    running: bool,
}

/// The queue manager's ALTER BUFFPOOL requests (see the module docs).
#[derive(Default)]
pub(super) struct BufferPoolResizes {
    state: Mutex<State>,
    idle: Condvar,
}

/// The running resize's hold: dropping it lets the next one run.
pub(super) struct Running<'a>(&'a BufferPoolResizes);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        let mut state = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        debug_assert!(state.running);
        state.running = false;
        self.0.idle.notify_all();
    }
}

impl BufferPoolResizes {
    /// A ticket for a resize of pool `pool` asked for now.
    pub(super) fn request(&self, pool: u8) -> ResizeTicket {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.last_sequence += 1;
        let sequence = state.last_sequence;
        state.latest.insert(pool, sequence);
        ResizeTicket { pool, sequence }
    }

    /// Wait for `ticket`'s turn: `None` when a later request for the pool supersedes it, an
    /// error when the queue manager is stopping, else the hold to keep while resizing.
    pub(super) fn begin(
        &self,
        ticket: ResizeTicket,
        stopping: &AtomicBool,
    ) -> StorageResult<Option<Running<'_>>> {
        let mut state = self
            .idle
            .wait_while(
                self.state.lock().unwrap_or_else(|e| e.into_inner()),
                |state| state.running,
            )
            .unwrap_or_else(|e| e.into_inner());
        // Read under the lock shutdown takes after setting it (see `wait_for_idle`).
        if stopping.load(Ordering::Acquire) {
            return Err(StorageError::Stopping);
        }
        let latest = state.latest.get(&ticket.pool).copied().unwrap_or(0);
        debug_assert!(latest >= ticket.sequence, "tickets only move forward");
        if latest > ticket.sequence {
            return Ok(None);
        }
        state.running = true;
        Ok(Some(Running(self)))
    }

    /// Wait up to `wait` for the running resize to end; false when it is still running.
    /// Called once `stopping` is set, so no other resize starts after it.
    pub(super) fn wait_for_idle(&self, wait: Duration) -> bool {
        let (state, _) = self
            .idle
            .wait_timeout_while(
                self.state.lock().unwrap_or_else(|e| e.into_inner()),
                wait,
                |state| state.running,
            )
            .unwrap_or_else(|e| e.into_inner());
        !state.running
    }
}

impl QueueManager {
    /// An ALTER BUFFPOOL(id) asked for now: its place in the pool's order
    /// (`buffer_pool_resizes.rs`). Take it when the command is entered, before any thread of
    /// its own starts.
    pub fn buffer_pool_resize_requested(&self, id: u8) -> ResizeTicket {
        self.buffer_pool_resizes.request(id)
    }

    /// Shutdown, once `stopping` is set: wait for an ALTER BUFFPOOL resize still running (it
    /// may be writing pages or rewriting qm.toml), at most `RESIZE_SHUTDOWN_WAIT_MAX`; no other
    /// starts after it (`buffer_pool_resizes.rs`).
    pub(super) fn wait_for_buffer_pool_resize(&self) {
        if !self
            .buffer_pool_resizes
            .wait_for_idle(RESIZE_SHUTDOWN_WAIT_MAX)
        {
            self.say(&format!(
                "CSQP025I {} CSQPCMDS Shutdown did not wait longer than {} s for a buffer pool resize still running; it goes on while the queue manager stops, and its size may not be recorded in qm.toml",
                self.name,
                RESIZE_SHUTDOWN_WAIT_MAX.as_secs()
            ));
        }
    }
}
