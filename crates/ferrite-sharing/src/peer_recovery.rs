//! Peer recovery: when a member fails, the others back out the units of work it left staged
//! on the group's structures, so that the messages it had got in them become visible again
//! and what it had put in them never appears (MQ for z/OS's peer recovery of shared queues).
//!
//! Each member renews a lease in the coupling facility every [`BEAT_MS`]
//! (`qsg:{G}:alive:M`, expiring after [`LEASE_SECONDS`]) and is listed in `qsg:{G}:members`
//! while it runs. Every member's watch thread looks at the others at each beat: a member
//! listed whose lease has expired has failed. One peer wins the right to recover it
//! (`qsg:{G}:recovering:M`, set if absent), backs out each of its staged units with
//! [`crate::list_structure::ListStructure::backout_for_peer`] (so a member that was only cut
//! off gets MQRC_BACKED_OUT when it later commits one), and takes it off the list. The
//! private half of a unit of work that also held private queues' work is in the failed
//! member's own log: its restart resolves it (`QueueManager::attach_queue_sharing_group`),
//! and since its shared half was not committed, it backs out.

use std::sync::{Arc, Condvar, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::group::Group;

/// How long a member's lease lasts without renewal.
pub const LEASE_SECONDS: u64 = 10;
/// How often a member renews its lease and looks at the others'.
pub const BEAT_MS: u64 = 1_000;
/// How long one peer holds the right to recover a failed member.
const RECOVERING_SECONDS: u64 = 60;

/// The key of `member`'s lease.
pub fn alive_key(group: &str, member: &str) -> String {
    format!("qsg:{{{group}}}:alive:{member}")
}

/// The set of members that run, or failed and are not yet recovered.
pub fn members_key(group: &str) -> String {
    format!("qsg:{{{group}}}:members")
}

/// The key a peer holds while it recovers `member`.
fn recovering_key(group: &str, member: &str) -> String {
    format!("qsg:{{{group}}}:recovering:{member}")
}

/// A member's watch thread, stopped when the member leaves or halts.
pub(crate) struct PeerWatch {
    stopping: Arc<(Mutex<bool>, Condvar)>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl PeerWatch {
    /// Start watching for `group`: renew its lease, recover failed peers.
    pub(crate) fn start(group: Weak<Group>) -> PeerWatch {
        let stopping = Arc::new((Mutex::new(false), Condvar::new()));
        let thread = std::thread::Builder::new()
            .name("qsg-peer-watch".into())
            .spawn({
                let stopping = stopping.clone();
                move || watch(group, &stopping)
            })
            .expect("the peer watch thread starts");
        PeerWatch {
            stopping,
            thread: Mutex::new(Some(thread)),
        }
    }

    /// Stop the thread (its lease is then no longer renewed).
    pub(crate) fn stop(&self) {
        let (stopping, changed) = &*self.stopping;
        *stopping.lock().unwrap() = true;
        changed.notify_all();
        if let Some(thread) = self.thread.lock().unwrap().take() {
            let _ = thread.join();
        }
    }
}

fn watch(group: Weak<Group>, stopping: &(Mutex<bool>, Condvar)) {
    loop {
        {
            let (stop, changed) = stopping;
            let stopped = stop.lock().unwrap();
            let (stopped, _) = changed
                .wait_timeout_while(stopped, Duration::from_millis(BEAT_MS), |stopped| !*stopped)
                .unwrap();
            if *stopped {
                return;
            }
        }
        let Some(group) = group.upgrade() else {
            return;
        };
        if let Err(error) = group.renew_lease() {
            eprintln!("warning: {error}; the lease is renewed at the next beat");
            continue;
        }
        if let Err(error) = group.recover_failed_peers() {
            eprintln!("warning: peer recovery: {error}; tried again at the next beat");
        }
    }
}

/// The members of `listed` that have failed: not `me`, and without a lease.
pub(crate) fn failed_members(me: &str, listed: &[String], alive: &[bool]) -> Vec<String> {
    listed
        .iter()
        .zip(alive)
        .filter(|(member, alive)| member.as_str() != me && !**alive)
        .map(|(member, _)| member.clone())
        .collect()
}

impl Group {
    /// Renew this member's lease and list it among the running members.
    pub(crate) fn renew_lease(&self) -> Result<(), crate::SharingError> {
        let (alive, members) = (
            alive_key(self.group_name(), self.member_name()),
            members_key(self.group_name()),
        );
        let member = self.member_name().to_string();
        self.on_facility(|connection| {
            redis::pipe()
                .cmd("SET")
                .arg(&alive)
                .arg(1)
                .arg("EX")
                .arg(LEASE_SECONDS)
                .ignore()
                .cmd("SADD")
                .arg(&members)
                .arg(&member)
                .ignore()
                .query(connection)
        })
    }

    /// This member leaves: its lease is dropped and it is off the list (nothing to recover).
    pub(crate) fn drop_lease(&self) -> Result<(), crate::SharingError> {
        let (alive, members) = (
            alive_key(self.group_name(), self.member_name()),
            members_key(self.group_name()),
        );
        let member = self.member_name().to_string();
        self.on_facility(|connection| {
            redis::pipe()
                .cmd("DEL")
                .arg(&alive)
                .ignore()
                .cmd("SREM")
                .arg(&members)
                .arg(&member)
                .ignore()
                .query(connection)
        })
    }

    /// Recover every listed member whose lease expired, if this member wins the right to.
    /// Returns the units backed out.
    pub(crate) fn recover_failed_peers(&self) -> Result<usize, crate::SharingError> {
        let members_key = members_key(self.group_name());
        let listed: Vec<String> = self
            .on_facility(|connection| redis::cmd("SMEMBERS").arg(&members_key).query(connection))?;
        let mut alive = Vec::with_capacity(listed.len());
        for member in &listed {
            let key = alive_key(self.group_name(), member);
            let exists: bool =
                self.on_facility(|connection| redis::cmd("EXISTS").arg(&key).query(connection))?;
            alive.push(exists);
        }
        let mut recovered = 0;
        for failed in failed_members(self.member_name(), &listed, &alive) {
            recovered += self.recover_peer(&failed)?;
        }
        Ok(recovered)
    }

    /// Back out the failed member's staged units, once, then take it off the list.
    fn recover_peer(&self, failed: &str) -> Result<usize, crate::SharingError> {
        let claim = recovering_key(self.group_name(), failed);
        let me = self.member_name().to_string();
        let won: Option<String> = self.on_facility(|connection| {
            redis::cmd("SET")
                .arg(&claim)
                .arg(&me)
                .arg("NX")
                .arg("EX")
                .arg(RECOVERING_SECONDS)
                .query(connection)
        })?;
        if won.is_none() {
            return Ok(0);
        }
        let backed_out = self.back_out_units_of(failed, true)?;
        let members_key = members_key(self.group_name());
        let failed_name = failed.to_string();
        self.on_facility(|connection| {
            redis::pipe()
                .cmd("SREM")
                .arg(&members_key)
                .arg(&failed_name)
                .ignore()
                .cmd("DEL")
                .arg(&claim)
                .ignore()
                .query::<()>(connection)
        })?;
        eprintln!(
            "CSQE011I {me} peer recovery of failed member {failed} of queue sharing group {}: {backed_out} units of work backed out",
            self.group_name()
        );
        self.note_peer_recovery(backed_out);
        Ok(backed_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_member_is_listed_without_a_lease_and_never_the_watcher() {
        let listed: Vec<String> = ["QM1", "QM2", "QM3"].map(String::from).to_vec();
        assert_eq!(
            failed_members("QM1", &listed, &[false, false, true]),
            ["QM2"]
        );
        assert!(failed_members("QM1", &listed, &[false, true, true]).is_empty());
    }
}
