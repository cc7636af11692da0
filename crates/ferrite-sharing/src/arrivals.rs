//! Arrivals: the CF's notification of a shared queue going from empty to non-empty (MQ's list
//! transition exit), so that getters waiting on any member wake at once instead of polling.
//!
//! Every script that makes a queue's visible depth go from 0 to 1 (a put, a commit, a
//! backout) publishes the queue's name on the group's arrivals channel
//! ([`crate::list_structure::arrivals_channel`]). Each member runs one listener thread,
//! subscribed to that channel on a connection of its own, which counts arrivals per queue
//! and wakes the member's waiting getters. A getter reads the count before it looks at the
//! structure and waits for the count to change, so an arrival between its look and its wait
//! is never missed.
//!
//! While the listener is not subscribed (its connection failed and it is connecting again),
//! getters look every [`POLL_DISCONNECTED_MS`], as if there were no listener; each
//! reconnection counts as an arrival on every queue, so that a getter re-looks after it.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::CONNECT_TIMEOUT_MS;

/// How often a waiting getter looks while the listener is not subscribed.
pub const POLL_DISCONNECTED_MS: u64 = 20;
/// How long the listener blocks reading its connection before it checks for a stop.
const READ_TIMEOUT_MS: u64 = 250;
/// How long the listener waits before it connects again after a failure.
const RECONNECT_DELAY_MS: u64 = 500;
/// Queues whose arrivals the listener counts at most (a bound on its memory: beyond it, new
/// queues share one count, which only wakes their getters more often).
pub const QUEUES_MAX: usize = 100_000;
/// The count that queues beyond [`QUEUES_MAX`] share.
const OVERFLOW: &str = "";

#[derive(Default)]
struct State {
    /// Arrivals per queue since the listener started.
    arrivals: HashMap<String, u64>,
    /// Reconnections: an arrival on every queue.
    reconnections: u64,
    subscribed: bool,
    stopping: bool,
}

impl State {
    fn count(&self, queue: &str) -> u64 {
        let own = self
            .arrivals
            .get(queue)
            .or_else(|| self.arrivals.get(OVERFLOW))
            .copied()
            .unwrap_or(0);
        own + self.reconnections
    }

    fn arrived(&mut self, queue: String) {
        // The last place is the overflow count's.
        let room = self.arrivals.len() < QUEUES_MAX - 1;
        let key = if room || self.arrivals.contains_key(&queue) {
            queue
        } else {
            OVERFLOW.to_string()
        };
        *self.arrivals.entry(key).or_insert(0) += 1;
    }
}

/// One member's arrivals listener.
pub struct Arrivals {
    state: Mutex<State>,
    changed: Condvar,
    listener: Mutex<Option<JoinHandle<()>>>,
}

impl Arrivals {
    /// Start listening on `channel` of the coupling facility at `url`. The first subscription
    /// is made before this returns when the server answers; otherwise the listener keeps
    /// trying and getters poll meanwhile.
    pub fn start(url: &str, channel: &str) -> Arc<Arrivals> {
        let arrivals = Arc::new(Arrivals {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            listener: Mutex::new(None),
        });
        let (url, channel) = (url.to_string(), channel.to_string());
        let (subscribed_tx, subscribed_rx) = std::sync::mpsc::channel();
        let listener = std::thread::Builder::new()
            .name("qsg-arrivals".into())
            .spawn({
                let arrivals = arrivals.clone();
                move || arrivals.listen(&url, &channel, subscribed_tx)
            })
            .expect("the arrivals listener thread starts");
        *arrivals.listener.lock().unwrap() = Some(listener);
        let _ = subscribed_rx.recv_timeout(Duration::from_millis(CONNECT_TIMEOUT_MS));
        arrivals
    }

    /// The arrivals counted for `queue` so far (read before looking at the structure).
    pub fn seen(&self, queue: &str) -> u64 {
        self.state.lock().unwrap().count(queue)
    }

    /// Wait until an arrival on `queue` after `seen`, or `timeout`; true when one came (or
    /// the listener is not subscribed and the poll interval passed: look again either way).
    pub fn wait(&self, queue: &str, seen: u64, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.state.lock().unwrap();
        loop {
            if state.count(queue) != seen || state.stopping {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            let mut left = deadline - now;
            if !state.subscribed {
                left = left.min(Duration::from_millis(POLL_DISCONNECTED_MS));
            }
            let (next, timed_out) = self.changed.wait_timeout(state, left).unwrap();
            state = next;
            if timed_out.timed_out() && !state.subscribed {
                return true;
            }
        }
    }

    /// Whether the listener is subscribed now.
    pub fn subscribed(&self) -> bool {
        self.state.lock().unwrap().subscribed
    }

    /// Stop the listener (the member leaves its group) and wake every waiter.
    pub fn stop(&self) {
        self.state.lock().unwrap().stopping = true;
        self.changed.notify_all();
        if let Some(listener) = self.listener.lock().unwrap().take() {
            let _ = listener.join();
        }
    }

    fn stopping(&self) -> bool {
        self.state.lock().unwrap().stopping
    }

    /// The listener thread: subscribe, count, and on a failure connect again.
    fn listen(&self, url: &str, channel: &str, subscribed: std::sync::mpsc::Sender<()>) {
        while !self.stopping() {
            let result = self.listen_once(url, channel, &subscribed);
            // The first attempt is over, subscribed or not: `start` waits no longer.
            let _ = subscribed.send(());
            if let Err(error) = result {
                if !self.stopping() {
                    eprintln!("warning: the arrivals listener of {channel} lost {url}: {error}; connecting again");
                }
            }
            self.set_subscribed(false);
            let deadline = Instant::now() + Duration::from_millis(RECONNECT_DELAY_MS);
            let mut state = self.state.lock().unwrap();
            while !state.stopping && Instant::now() < deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                state = self.changed.wait_timeout(state, left).unwrap().0;
            }
        }
    }

    fn listen_once(
        &self,
        url: &str,
        channel: &str,
        subscribed: &std::sync::mpsc::Sender<()>,
    ) -> redis::RedisResult<()> {
        let client = redis::Client::open(url)?;
        let mut connection =
            client.get_connection_with_timeout(Duration::from_millis(CONNECT_TIMEOUT_MS))?;
        connection.set_read_timeout(Some(Duration::from_millis(READ_TIMEOUT_MS)))?;
        let mut pubsub = connection.as_pubsub();
        pubsub.subscribe(channel)?;
        self.set_subscribed(true);
        let _ = subscribed.send(());
        while !self.stopping() {
            match pubsub.get_message() {
                Ok(message) => {
                    let queue: String = message.get_payload()?;
                    self.state.lock().unwrap().arrived(queue);
                    self.changed.notify_all();
                }
                Err(error) if error.is_timeout() => continue,
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    /// Record whether the listener is subscribed; a new subscription counts as an arrival on
    /// every queue (what was published while it was not is unknown).
    fn set_subscribed(&self, subscribed: bool) {
        let mut state = self.state.lock().unwrap();
        if subscribed && !state.subscribed {
            state.reconnections += 1;
        }
        state.subscribed = subscribed;
        drop(state);
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_per_queue_and_bounded() {
        let mut state = State::default();
        state.arrived("A".into());
        state.arrived("A".into());
        assert_eq!((state.count("A"), state.count("B")), (2, 0));
        state.reconnections += 1;
        assert_eq!((state.count("A"), state.count("B")), (3, 1));
        for index in 0..QUEUES_MAX {
            state.arrived(format!("Q{index}"));
        }
        // Beyond the bound, new queues share the overflow count.
        assert_eq!(state.arrivals.len(), QUEUES_MAX);
        let before = state.count("NEW");
        state.arrived("NEW".into());
        assert_eq!(state.count("NEW"), before + 1);
        assert_eq!(state.arrivals.len(), QUEUES_MAX);
    }

    #[test]
    fn without_a_server_waiters_poll_and_stop_wakes_them() {
        // Nothing listens on port 1: the listener keeps trying, getters poll.
        let arrivals = Arrivals::start("redis://127.0.0.1:1", "qsg:{X}:arrivals");
        assert!(!arrivals.subscribed());
        let seen = arrivals.seen("Q");
        assert!(arrivals.wait("Q", seen, Duration::from_secs(60)));
        arrivals.stop();
        assert!(arrivals.wait("Q", seen, Duration::from_secs(60)));
    }
}
