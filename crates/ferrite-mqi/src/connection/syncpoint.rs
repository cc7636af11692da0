//! MQCMIT, MQBACK and MQDISC: the end of a unit of work and of the connection.

use ferrite_constants::reason::*;
use ferrite_queue_manager::statistics::MqiCounter;
use ferrite_queue_manager::UnitOfWork;
use ferrite_storage::{Rba, StorageResult};

use super::verb_accounting::Verb;
use super::{failed, Connection, Target};

use crate::error::{MqError, MqResult};
use crate::triggering;

impl Connection {
    /// MQCMIT: commit the unit of work (its puts become visible, its gets final).
    pub fn commit(&mut self) -> MqResult<()> {
        let timing = self.verb_timing();
        let result = self.commit_untimed();
        self.verb_timed(Verb::Commit, timing);
        result
    }

    fn commit_untimed(&mut self) -> MqResult<()> {
        self.check_running()?;
        // Queue sharing group hook: a unit of work on shared queues (shared_queues.rs).
        if self.shared_unit_active() {
            let result = self.commit_with_shared_unit();
            self.record
                .mqi
                .call(MqiCounter::Commit, MqiCounter::CommitFailed, result.is_ok());
            return result;
        }
        let result = self.queue_manager.commit(&mut self.unit);
        self.commit_ended(result)
    }

    /// MQCMIT without waiting for the log: the commit is logged, and the RBA that must be
    /// durable before it completes returned; [`Connection::commit_durable`] then completes
    /// it (the unit's puts become visible only then). `Ok(None)`: the commit is complete
    /// already (nothing to force, or a unit of work on shared queues, committed at once),
    /// or failed (`Err`). Until it completes, the connection makes no other call.
    pub fn commit_logged(&mut self) -> MqResult<Option<Rba>> {
        self.check_running()?;
        if self.shared_unit_active() {
            return self.commit().map(|()| None);
        }
        match self.queue_manager.commit_logged(&mut self.unit) {
            Ok(Some(end)) => Ok(Some(end)),
            Ok(None) => self.commit_durable(Rba(0), Ok(())).map(|()| None),
            Err(error) => self.commit_ended(Err(error)).map(|()| None),
        }
    }

    /// Completes a commit [`Connection::commit_logged`] logged through `end`, `forced` being
    /// how the log's force through it ended.
    pub fn commit_durable(&mut self, end: Rba, forced: StorageResult<()>) -> MqResult<()> {
        let result = self
            .queue_manager
            .commit_durable(&mut self.unit, end, forced);
        self.commit_ended(result)
    }

    fn commit_ended(&mut self, result: StorageResult<()>) -> MqResult<()> {
        self.note_unit_of_work();
        self.record
            .mqi
            .call(MqiCounter::Commit, MqiCounter::CommitFailed, result.is_ok());
        result?;
        // Trigger hook: the trigger messages the unit of work held.
        self.arrivals.resolved(&self.queue_manager, true);
        Ok(())
    }

    /// MQBACK: back out the unit of work (its puts vanish, its gets return to their queues in
    /// their places with BackoutCount + 1).
    pub fn backout(&mut self) -> MqResult<()> {
        let timing = self.verb_timing();
        let result = self.backout_untimed();
        self.verb_timed(Verb::Backout, timing);
        result
    }

    fn backout_untimed(&mut self) -> MqResult<()> {
        self.check_running()?;
        // Queue sharing group hook: a unit of work on shared queues (shared_queues.rs).
        if self.shared_unit_active() {
            self.record.mqi.add(MqiCounter::Backout, 1);
            let private = self.backout_unit();
            return self
                .end_shared_unit(false)
                .and(private.map_err(MqError::from));
        }
        let result = self.backout_unit();
        self.note_unit_of_work();
        self.record.mqi.add(MqiCounter::Backout, 1);
        result?;
        Ok(())
    }

    /// MQDISC: close every handle and commit the unit of work (MQ's behaviour at a normal
    /// disconnect). If the commit fails the work is backed out and the failure returned.
    pub fn disconnect(mut self) -> MqResult<()> {
        self.record.mqi.add(MqiCounter::Disc, 1);
        self.close_all();
        // Queue sharing group hook: a unit of work on shared queues (shared_queues.rs).
        let stopping = self.queue_manager.is_stopping();
        if self.shared_unit_active() {
            let ended = if stopping {
                // Restart backs the private half out; the structure's half is backed out here.
                self.unit = UnitOfWork::new();
                self.end_shared_unit(false)
            } else {
                self.commit_with_shared_unit()
            };
            self.delete_temporary_queues();
            return ended.and(if stopping {
                failed(MQRC_Q_MGR_STOPPING)
            } else {
                Ok(())
            });
        }
        if self.queue_manager.is_stopping() {
            // Restart backs the unit of work out.
            self.unit = UnitOfWork::new();
            return failed(MQRC_Q_MGR_STOPPING);
        }
        let result = self.queue_manager.commit(&mut self.unit);
        if result.is_err() {
            let _ = self.backout_unit();
        } else {
            self.arrivals.resolved(&self.queue_manager, true);
        }
        self.delete_temporary_queues();
        result.map_err(MqError::from)
    }

    /// The first half of an MQDISC for a caller that must not wait for the log: closes every
    /// handle and logs the unit of work's commit, as [`Connection::disconnect`] does, and
    /// returns the RBA that must be durable before [`Connection::disconnect_commit_durable`]
    /// completes the commit. [`Connection::disconnect`] then finds nothing left to commit.
    /// `None`: nothing to wait for, the commit complete already; or a unit on shared queues,
    /// a stopping queue manager or a failed commit, all left to [`Connection::disconnect`].
    pub fn disconnect_commit_logged(&mut self) -> Option<Rba> {
        if self.shared_unit_active() || self.queue_manager.is_stopping() {
            return None;
        }
        self.close_all();
        match self.queue_manager.commit_logged(&mut self.unit) {
            Ok(Some(end)) => Some(end),
            Ok(None) => {
                self.disconnect_commit_durable(Rba(0), Ok(()));
                None
            }
            Err(_) => None,
        }
    }

    /// Completes the commit [`Connection::disconnect_commit_logged`] logged through `end`,
    /// `forced` being how the log's force through it ended. A failed commit leaves the unit of
    /// work as it was: [`Connection::disconnect`] backs it out and reports the failure.
    pub fn disconnect_commit_durable(&mut self, end: Rba, forced: StorageResult<()>) {
        if self
            .queue_manager
            .commit_durable(&mut self.unit, end, forced)
            .is_ok()
        {
            self.arrivals.resolved(&self.queue_manager, true);
        }
    }

    /// Back the unit of work out, with the trigger hooks: the trigger messages it held, and
    /// the conditions on the queues its gets return messages to.
    pub(super) fn backout_unit(&mut self) -> Result<(), ferrite_storage::StorageError> {
        let reinstated = triggering::before_backout(&self.unit);
        let result = self.queue_manager.backout(&mut self.unit);
        self.arrivals.resolved(&self.queue_manager, false);
        if result.is_ok() {
            triggering::reinstated(&self.queue_manager, reinstated);
        }
        result
    }

    pub(super) fn close_all(&mut self) {
        self.end_subscription_handles();
        let mut handles: Vec<_> = self.handles.drain().map(|(_, handle)| handle).collect();
        for handle in &mut handles {
            self.account_closed(handle);
        }
        for handle in handles {
            if let Target::Queue(queue) = &handle.target {
                queue.unlock(handle.lock_holder);
                queue.close_handle(handle.input, handle.output);
                if handle.input.is_some() {
                    triggering::input_closed(&self.queue_manager, queue);
                }
            }
        }
        self.record.handles_closed();
        self.note_handles();
    }
}
