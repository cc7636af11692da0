//! ACTCHL: the most message channels active at once (a queue manager attribute, MQ's default
//! 200). A channel holds an [`ActiveSlot`] while it is active: a session of a channel started
//! here (SDR, SVR, RQSTR), from its connection to its end, and a receiving channel's instance
//! (RCVR, or a SVR a requester asked to send). A channel started here that finds every slot
//! taken waits for one (Channel Not Activated event, then Channel Activated once it has one),
//! as MQ's channel does; an inbound channel is refused.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The active channels of one channel initiator.
#[derive(Debug, Default)]
pub struct ActiveChannels {
    count: Mutex<u32>,
    freed: Condvar,
}

impl ActiveChannels {
    /// A slot if fewer than `limit` are held.
    pub fn try_acquire(self: &Arc<Self>, limit: u32) -> Option<ActiveSlot> {
        let mut count = self.count.lock().unwrap();
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(ActiveSlot {
            channels: self.clone(),
        })
    }

    /// Waits up to `wait` for a slot to be released.
    pub fn wait_freed(&self, wait: Duration) {
        let count = self.count.lock().unwrap();
        let _ = self.freed.wait_timeout(count, wait).unwrap();
    }

    /// Slots held now.
    pub fn active(&self) -> u32 {
        *self.count.lock().unwrap()
    }
}

/// One active channel's hold on a slot, given back when dropped.
#[derive(Debug)]
pub struct ActiveSlot {
    channels: Arc<ActiveChannels>,
}

impl Drop for ActiveSlot {
    fn drop(&mut self) {
        let mut count = self.channels.count.lock().unwrap();
        debug_assert!(*count > 0);
        *count -= 1;
        self.channels.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_limited_and_given_back() {
        let channels = Arc::new(ActiveChannels::default());
        let first = channels.try_acquire(2).unwrap();
        let second = channels.try_acquire(2).unwrap();
        assert!(channels.try_acquire(2).is_none());
        assert_eq!(channels.active(), 2);
        drop(first);
        assert!(channels.try_acquire(2).is_some(), "dropped at once again");
        drop(second);
        assert_eq!(channels.active(), 0);
    }
}
