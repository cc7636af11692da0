//! The model of what the queue manager must hold: every message the workload ever put, in the
//! state the workload knows it to be in, and the check of what the queue manager shows against
//! it, while the workload runs and after every restart.
//!
//! The workers tell the model about an operation *before* they call the queue manager when the
//! call can make something visible to other connections (a commit, a backout, an
//! out-of-syncpoint put), and after it when it hides something (a get). So a message another
//! connection sees is always in a state that allows it to be seen, whatever the interleaving.
//!
//! After a crash the calls that were in flight are uncertain: a unit of work whose MQCMIT had
//! no reply may have committed or not, but all of it or none of it; an out-of-syncpoint put or
//! get whose reply was lost may have happened or not. Everything else is certain: an
//! acknowledged commit must be there exactly once, and a unit that never reached MQCMIT must
//! have left no trace.

use std::collections::{HashMap, HashSet};

use crate::message::{data_matches, MessageIdentity};

/// What the workload knows of a message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    /// Put in this unit of work, whose MQCMIT has not been called.
    PutOpen(u64),
    /// Put in this unit of work, whose MQCMIT has been called and has not returned.
    PutCommitting(u64),
    /// Put out of syncpoint; the MQPUT has not returned.
    PutNoSyncPending,
    /// Committed and on its queue (possibly being got out of syncpoint: see `Message`).
    Available,
    /// Got in this unit of work, whose MQCMIT has not been called.
    Locked(u64),
    /// Got in this unit of work, whose MQCMIT has been called and has not returned.
    GetCommitting(u64),
}

#[derive(Copy, Clone, Debug)]
struct Message {
    queue: usize,
    identity: MessageIdentity,
    state: State,
    /// Out-of-syncpoint MQGETs by this message's CorrelId in flight. A count, not a flag:
    /// when two connections go for the same message, one may be told MQRC_NO_MSG_AVAILABLE
    /// while the other's get (which took it) has not returned.
    nosync_gets_pending: u32,
}

/// A unit of work of one worker: the messages it put and got.
#[derive(Clone, Debug, Default)]
pub struct UnitOfWork {
    pub id: u64,
    pub puts: Vec<u64>,
    pub gets: Vec<u64>,
}

impl UnitOfWork {
    pub fn is_empty(&self) -> bool {
        self.puts.is_empty() && self.gets.is_empty()
    }
}

/// One message as a browse (or a destructive get) of a queue showed it.
#[derive(Clone, Debug)]
pub struct Observed {
    pub msg_id: [u8; 24],
    pub correl_id: [u8; 24],
    pub priority: i32,
    pub persistence: i32,
    /// Whether the data matched the MsgId's length and pattern.
    pub data_ok: bool,
}

/// What one verification after a restart found.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    /// Messages present and expected, plus messages absent and expected absent.
    pub messages_verified: u64,
    pub present: u64,
    pub lost: u64,
    pub duplicated: u64,
    /// Messages that should never have been seen (never committed, backed out, foreign).
    pub phantom: u64,
    /// Units of work whose MQCMIT was in flight at the crash, and how many of them committed.
    pub uncertain_units: u64,
    pub uncertain_units_committed: u64,
    pub order_violations: u64,
    pub problems: Vec<String>,
}

impl Verification {
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// A problem, kept in full while fewer than [`PROBLEMS_KEPT_MAX`] are.
    fn note(&mut self, text: String) {
        if self.problems.len() < PROBLEMS_KEPT_MAX {
            self.problems.push(text);
        }
    }
}

/// Running totals of the workload, for the reports.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    pub puts_acknowledged: u64,
    pub gets_acknowledged: u64,
    pub commits: u64,
    pub backouts: u64,
    pub browses: u64,
    pub messages_checked_in_flight: u64,
}

/// Problems kept in full; past this only counted.
const PROBLEMS_KEPT_MAX: usize = 50;

pub struct Model {
    queue_names: Vec<String>,
    messages: HashMap<u64, Message>,
    /// Units whose MQCMIT was called and has not returned: what they put and got.
    committing: HashMap<u64, UnitOfWork>,
    /// Units known to have committed although their MQCMIT has not returned (another
    /// connection got one of their messages).
    known_committed: HashSet<u64>,
    consumed: HashSet<u64>,
    discarded: HashSet<u64>,
    next_number: u64,
    next_unit: u64,
    depth: Vec<usize>,
    problems: Vec<String>,
    problem_count: u64,
    pub totals: Totals,
}

impl Model {
    /// A model of empty queues; `totals` carries on from earlier queue managers.
    pub fn new(queue_names: Vec<String>, totals: Totals) -> Model {
        let queues = queue_names.len();
        Model {
            queue_names,
            messages: HashMap::new(),
            committing: HashMap::new(),
            known_committed: HashSet::new(),
            consumed: HashSet::new(),
            discarded: HashSet::new(),
            next_number: 1,
            next_unit: 1,
            depth: vec![0; queues],
            problems: Vec::new(),
            problem_count: 0,
            totals,
        }
    }

    pub fn queue_names(&self) -> &[String] {
        &self.queue_names
    }

    /// Messages the model places on `queue` in any state (an upper bound of its depth).
    pub fn depth(&self, queue: usize) -> usize {
        self.depth[queue]
    }

    pub fn new_unit(&mut self) -> UnitOfWork {
        let id = self.next_unit;
        self.next_unit += 1;
        UnitOfWork {
            id,
            ..UnitOfWork::default()
        }
    }

    pub fn new_number(&mut self) -> u64 {
        let number = self.next_number;
        self.next_number += 1;
        number
    }

    /// Problems the workers found while running (visibility, data), and their number.
    pub fn problems(&self) -> (&[String], u64) {
        (&self.problems, self.problem_count)
    }

    fn problem(&mut self, text: String) {
        self.problem_count += 1;
        if self.problems.len() < PROBLEMS_KEPT_MAX {
            self.problems.push(text);
        }
    }

    fn insert(&mut self, queue: usize, identity: MessageIdentity, state: State) {
        let previous = self.messages.insert(
            identity.number,
            Message {
                queue,
                identity,
                state,
                nosync_gets_pending: 0,
            },
        );
        assert!(previous.is_none(), "message {} put twice", identity.number);
        self.depth[queue] += 1;
    }

    fn remove(&mut self, number: u64, consumed: bool) {
        let message = self.messages.remove(&number).expect("message in the model");
        self.depth[message.queue] -= 1;
        if consumed {
            self.consumed.insert(number);
        } else {
            self.discarded.insert(number);
        }
    }

    // ----- the workers' operations ---------------------------------------------------------

    /// Before an MQPUT in `unit`.
    pub fn put_in_unit(&mut self, unit: &mut UnitOfWork, queue: usize, identity: MessageIdentity) {
        self.insert(queue, identity, State::PutOpen(unit.id));
        unit.puts.push(identity.number);
    }

    /// Before an out-of-syncpoint MQPUT.
    pub fn put_no_sync_begin(&mut self, queue: usize, identity: MessageIdentity) {
        self.insert(queue, identity, State::PutNoSyncPending);
    }

    /// The out-of-syncpoint MQPUT returned successfully.
    /// (Another connection may have got it already: then it has moved on.)
    pub fn put_no_sync_done(&mut self, number: u64) {
        if let Some(message) = self.messages.get_mut(&number) {
            if message.state == State::PutNoSyncPending {
                message.state = State::Available;
            }
        }
        self.totals.puts_acknowledged += 1;
    }

    /// An MQPUT failed with a reason that says it did not happen.
    pub fn put_refused(&mut self, unit: Option<&mut UnitOfWork>, number: u64) {
        if let Some(unit) = unit {
            unit.puts.retain(|put| *put != number);
        }
        self.remove(number, false);
    }

    /// An MQGET returned message `observed` from `queue`, in `unit` or out of syncpoint.
    /// Checks that the message may be seen and holds the right data.
    pub fn got(&mut self, unit: Option<&mut UnitOfWork>, queue: usize, observed: &Observed) {
        self.totals.messages_checked_in_flight += 1;
        let Some(number) = self.check_observed(queue, observed, "MQGET", false) else {
            return;
        };
        let message = *self.messages.get(&number).expect("checked");
        match message.state {
            State::Available | State::PutNoSyncPending => {}
            State::PutCommitting(putter) => {
                // Visible before its putter's MQCMIT returned: that commit happened.
                self.known_committed.insert(putter);
            }
            state => {
                self.problem(format!(
                    "MQGET on {} returned message {number}, which it must not: {state:?}",
                    self.queue_names[queue]
                ));
                return;
            }
        }
        match unit {
            Some(unit) => {
                self.messages.get_mut(&number).expect("checked").state = State::Locked(unit.id);
                unit.gets.push(number);
            }
            None => {
                self.remove(number, true);
                self.totals.gets_acknowledged += 1;
            }
        }
    }

    /// A browse returned `observed` from `queue`: it must be committed (or its commit in
    /// flight) and hold the right data. It may already be got by another unit whose model
    /// update overtook this check.
    pub fn browsed(&mut self, queue: usize, observed: &Observed) {
        self.totals.messages_checked_in_flight += 1;
        let Some(number) = self.check_observed(queue, observed, "browse", true) else {
            return;
        };
        if let Some(message) = self.messages.get(&number) {
            if let State::PutOpen(_) = message.state {
                let name = &self.queue_names[queue];
                self.problem(format!(
                    "browse of {name} showed message {number} before its unit of work called MQCMIT"
                ));
            }
        }
    }

    /// The number of a message seen on `queue`, when it is one the model knows there;
    /// records a problem otherwise. A browse may see a message that another connection gets
    /// and commits before the browser's check (`consumed_ok`).
    fn check_observed(
        &mut self,
        queue: usize,
        observed: &Observed,
        how: &str,
        consumed_ok: bool,
    ) -> Option<u64> {
        let name = self.queue_names[queue].clone();
        let Some(identity) = crate::message::parse_message_id(&observed.msg_id) else {
            self.problem(format!("{how} of {name} returned a foreign message"));
            return None;
        };
        let number = identity.number;
        if let Some(text) = self.describe_data_fault(&identity, observed) {
            self.problem(format!("{how} of {name}: message {number}: {text}"));
        }
        match self.messages.get(&number) {
            Some(message) if message.queue == queue && message.identity == identity => Some(number),
            Some(message) => {
                let expected = self.queue_names[message.queue].clone();
                self.problem(format!(
                    "{how} of {name} returned message {number}, which was put to {expected} as {:?}",
                    message.identity
                ));
                None
            }
            None if self.consumed.contains(&number) => {
                if !consumed_ok {
                    self.problem(format!(
                        "{how} of {name} returned message {number} again after it was got (duplicate)"
                    ));
                }
                None
            }
            None if self.discarded.contains(&number) => {
                self.problem(format!(
                    "{how} of {name} returned message {number}, whose put was backed out or refused"
                ));
                None
            }
            None => {
                self.problem(format!(
                    "{how} of {name} returned message {number}, which was never put"
                ));
                None
            }
        }
    }

    fn describe_data_fault(
        &self,
        identity: &MessageIdentity,
        observed: &Observed,
    ) -> Option<String> {
        if !observed.data_ok {
            return Some(format!(
                "data is not the {} bytes that were put",
                identity.length
            ));
        }
        if observed.priority != i32::from(identity.priority) {
            return Some(format!(
                "priority {} instead of {}",
                observed.priority, identity.priority
            ));
        }
        if observed.correl_id != crate::message::correl_id(identity.number) {
            return Some("CorrelId changed".to_string());
        }
        if observed.persistence != ferrite_constants::persistence::MQPER_PERSISTENT {
            return Some(format!(
                "persistence {} instead of MQPER_PERSISTENT",
                observed.persistence
            ));
        }
        None
    }

    /// Before an out-of-syncpoint MQGET by the CorrelId of `number`.
    pub fn get_no_sync_begin(&mut self, number: u64) {
        if let Some(message) = self.messages.get_mut(&number) {
            message.nosync_gets_pending += 1;
        }
    }

    /// The out-of-syncpoint MQGET by CorrelId found no message.
    pub fn get_no_sync_not_found(&mut self, number: u64) {
        if let Some(message) = self.messages.get_mut(&number) {
            message.nosync_gets_pending = message.nosync_gets_pending.saturating_sub(1);
        }
    }

    /// An Available message of `queue` picked with `pick` (0 ..), for gets by CorrelId.
    pub fn pick_available(&self, queue: usize, pick: u64) -> Option<u64> {
        let count = self
            .messages
            .values()
            .filter(|m| m.queue == queue && m.state == State::Available)
            .count();
        if count == 0 {
            return None;
        }
        self.messages
            .values()
            .filter(|m| m.queue == queue && m.state == State::Available)
            .nth((pick % count as u64) as usize)
            .map(|m| m.identity.number)
    }

    /// Before MQCMIT of `unit`.
    pub fn commit_begin(&mut self, unit: &UnitOfWork) {
        for number in &unit.puts {
            let message = self.messages.get_mut(number).expect("put in the model");
            assert_eq!(message.state, State::PutOpen(unit.id));
            message.state = State::PutCommitting(unit.id);
        }
        for number in &unit.gets {
            let message = self.messages.get_mut(number).expect("got in the model");
            assert_eq!(message.state, State::Locked(unit.id));
            message.state = State::GetCommitting(unit.id);
        }
        self.committing.insert(unit.id, unit.clone());
    }

    /// MQCMIT of `unit` returned successfully.
    /// (Another connection may have got some of its puts already: they have moved on.)
    pub fn commit_done(&mut self, unit: &UnitOfWork) {
        for number in &unit.puts {
            if let Some(message) = self.messages.get_mut(number) {
                if message.state == State::PutCommitting(unit.id) {
                    message.state = State::Available;
                }
            }
        }
        for number in &unit.gets {
            self.remove(*number, true);
        }
        self.committing.remove(&unit.id);
        self.known_committed.remove(&unit.id);
        self.totals.commits += 1;
        self.totals.puts_acknowledged += unit.puts.len() as u64;
        self.totals.gets_acknowledged += unit.gets.len() as u64;
    }

    /// MQCMIT of `unit` failed with MQRC_BACKED_OUT: the unit was backed out instead.
    pub fn commit_backed_out(&mut self, unit: &UnitOfWork) {
        if self.known_committed.contains(&unit.id) {
            self.problem(format!(
                "MQCMIT answered MQRC_BACKED_OUT for a unit of work whose message another connection already got (unit {})",
                unit.id
            ));
        }
        self.committing.remove(&unit.id);
        self.release(unit);
    }

    /// Before MQBACK of `unit` (also right for a unit whose connection is lost: the queue
    /// manager backs it out).
    pub fn backout_begin(&mut self, unit: &UnitOfWork) {
        self.release(unit);
        self.totals.backouts += 1;
    }

    fn release(&mut self, unit: &UnitOfWork) {
        for number in &unit.puts {
            let state = self.messages.get(number).map(|message| message.state);
            if matches!(state, Some(State::PutOpen(id) | State::PutCommitting(id)) if id == unit.id)
            {
                self.remove(*number, false);
            }
        }
        for number in &unit.gets {
            if let Some(message) = self.messages.get_mut(number) {
                if matches!(message.state, State::Locked(id) | State::GetCommitting(id) if id == unit.id)
                {
                    message.state = State::Available;
                }
            }
        }
    }

    // ----- after a restart ------------------------------------------------------------------

    /// Check what the queue manager holds after a restart (`queues[q]`: the messages of
    /// queue q in the order a browse returned them) against the model, resolve every
    /// uncertain operation by what is there, and leave the model with every present message
    /// Available.
    pub fn verify_restart(&mut self, queues: &[Vec<Observed>]) -> Verification {
        let mut result = Verification::default();
        let present = self.locate_present_messages(queues, &mut result);
        let outcomes = self.resolve_units_in_commit(&present, &mut result);
        self.reconcile_with_restart(&present, &outcomes, &mut result);
        self.known_committed.clear();
        result.order_violations = self.check_order(queues, &mut result.problems);
        result
    }

    /// Where each message the restarted queue manager holds is, and how many times (by
    /// message number: its queue and count); a foreign, damaged, duplicated or misplaced
    /// message, or one the model says must not exist, is counted and described in `result`.
    fn locate_present_messages(
        &self,
        queues: &[Vec<Observed>],
        result: &mut Verification,
    ) -> HashMap<u64, (usize, u32)> {
        let mut present: HashMap<u64, (usize, u32)> = HashMap::new();
        for (queue, observed) in queues.iter().enumerate() {
            let name = &self.queue_names[queue];
            for (position, message) in observed.iter().enumerate() {
                let Some(identity) = crate::message::parse_message_id(&message.msg_id) else {
                    result.phantom += 1;
                    result.note(format!("{name} position {position}: a foreign message"));
                    continue;
                };
                let number = identity.number;
                if let Some(text) = self.describe_data_fault(&identity, message) {
                    result.note(format!(
                        "{name} position {position}: message {number}: {text}"
                    ));
                }
                let entry = present.entry(number).or_insert((queue, 0));
                entry.1 += 1;
                if entry.1 > 1 {
                    result.duplicated += 1;
                    result.note(format!("message {number} is present {} times", entry.1));
                }
                self.check_restarted_message(queue, number, result);
            }
        }
        present
    }

    /// Message `number`, found on `queue` after the restart: whether the model knows it there.
    fn check_restarted_message(&self, queue: usize, number: u64, result: &mut Verification) {
        let name = &self.queue_names[queue];
        match self.messages.get(&number) {
            Some(known) if known.queue == queue => {}
            Some(known) => {
                result.phantom += 1;
                result.note(format!(
                    "message {number} is on {name}, but was put to {}",
                    self.queue_names[known.queue]
                ));
            }
            None if self.consumed.contains(&number) => {
                result.duplicated += 1;
                result.note(format!(
                    "message {number} is on {name} again after a committed get (duplicate)"
                ));
            }
            None if self.discarded.contains(&number) => {
                result.phantom += 1;
                result.note(format!(
                    "message {number} is on {name}, but its put was backed out or never committed"
                ));
            }
            None => {
                result.phantom += 1;
                result.note(format!("message {number} is on {name}, but was never put"));
            }
        }
    }

    /// The outcome of each unit of work whose MQCMIT was in flight at the crash, from the
    /// evidence (true: committed); a unit partly committed is a problem. Takes the units out
    /// of `committing`.
    fn resolve_units_in_commit(
        &mut self,
        present: &HashMap<u64, (usize, u32)>,
        result: &mut Verification,
    ) -> HashMap<u64, bool> {
        let mut outcomes: HashMap<u64, bool> = HashMap::new();
        let committing = std::mem::take(&mut self.committing);
        for (id, unit) in &committing {
            let mut committed = 0u32;
            let mut not_committed = 0u32;
            if self.known_committed.contains(id) {
                committed += 1;
            }
            // A put committed leaves its message present; a get committed leaves it gone.
            let signs = [
                (&unit.puts, State::PutCommitting(*id), true),
                (&unit.gets, State::GetCommitting(*id), false),
            ];
            for (numbers, committing_state, present_when_committed) in signs {
                for number in numbers {
                    if let Some(message) = self.messages.get(number) {
                        if message.state == committing_state {
                            if present.contains_key(number) == present_when_committed {
                                committed += 1;
                            } else {
                                not_committed += 1;
                            }
                        }
                    }
                }
            }
            if committed > 0 && not_committed > 0 {
                result.note(format!(
                    "unit of work {id} (MQCMIT in flight at the crash) is partly committed: {committed} signs of commit, {not_committed} of backout ({} puts, {} gets)",
                    unit.puts.len(),
                    unit.gets.len()
                ));
            }
            result.uncertain_units += 1;
            if committed > 0 {
                result.uncertain_units_committed += 1;
            }
            outcomes.insert(*id, committed > 0);
        }
        outcomes
    }

    /// Every message of the model: present exactly when it must be (lost or phantom
    /// otherwise). Then the model follows the restart: a present message is Available, an
    /// absent one is gone.
    fn reconcile_with_restart(
        &mut self,
        present: &HashMap<u64, (usize, u32)>,
        outcomes: &HashMap<u64, bool>,
        result: &mut Verification,
    ) {
        let numbers: Vec<u64> = self.messages.keys().copied().collect();
        for number in numbers {
            let message = self.messages[&number];
            let name = self.queue_names[message.queue].clone();
            let is_present = present.contains_key(&number);
            // Some(true): must be present; Some(false): must be absent; None: either.
            let expected = match message.state {
                State::PutOpen(_) => Some(false),
                State::PutCommitting(unit) => Some(outcomes.get(&unit).copied().unwrap_or(false)),
                State::PutNoSyncPending => None,
                State::Available if message.nosync_gets_pending > 0 => None,
                State::Available | State::Locked(_) => Some(true),
                State::GetCommitting(unit) => Some(!outcomes.get(&unit).copied().unwrap_or(false)),
            };
            match (expected, is_present) {
                (Some(true), false) => {
                    result.lost += 1;
                    result.note(format!(
                        "LOST: message {number} ({:?}) is not on {name} after the restart",
                        message.state
                    ));
                }
                (Some(false), true) => {
                    if matches!(message.state, State::GetCommitting(_)) {
                        result.duplicated += 1;
                    } else {
                        result.phantom += 1;
                    }
                    result.note(format!(
                        "message {number} ({:?}) is on {name} after the restart, and must not be",
                        message.state
                    ));
                }
                _ => {}
            }
            result.messages_verified += 1;
            if is_present {
                let message = self.messages.get_mut(&number).expect("known");
                message.state = State::Available;
                message.nosync_gets_pending = message.nosync_gets_pending.saturating_sub(1);
                result.present += 1;
            } else {
                let consumed = matches!(message.state, State::GetCommitting(_) | State::Available);
                self.remove(number, consumed);
            }
        }
    }

    /// MQ's order for a queue with MSGDLVSQ(PRIORITY): higher priorities first; within a
    /// priority, messages one application put (all in units of work, or all out of
    /// syncpoint) come in the order it put them. The workers put one message at a time, so
    /// each worker's message numbers rise in its put order.
    fn check_order(&self, queues: &[Vec<Observed>], problems: &mut Vec<String>) -> u64 {
        let mut violations = 0;
        for (queue, observed) in queues.iter().enumerate() {
            let name = &self.queue_names[queue];
            let mut previous_priority = u8::MAX;
            let mut last_of_worker: HashMap<(u8, u16), u64> = HashMap::new();
            for message in observed {
                let Some(identity) = crate::message::parse_message_id(&message.msg_id) else {
                    continue;
                };
                if identity.priority > previous_priority {
                    violations += 1;
                    if problems.len() < PROBLEMS_KEPT_MAX {
                        problems.push(format!(
                            "{name}: message {} of priority {} comes after a message of priority {previous_priority}",
                            identity.number, identity.priority
                        ));
                    }
                }
                previous_priority = identity.priority;
                let key = (identity.priority, identity.worker);
                if let Some(last) = last_of_worker.insert(key, identity.number) {
                    if last > identity.number {
                        violations += 1;
                        if problems.len() < PROBLEMS_KEPT_MAX {
                            problems.push(format!(
                                "{name}: worker {}'s message {} (priority {}) comes after its later message {last}",
                                identity.worker, identity.number, identity.priority
                            ));
                        }
                    }
                }
            }
        }
        violations
    }

    /// Messages the model holds (all Available after a verification).
    pub fn message_count(&self) -> usize {
        self.messages.len()
    }

    /// Whether an Available message `observed` is the data the model holds for `queue` (for
    /// the final drain, which removes them).
    pub fn drained(&mut self, queue: usize, observed: &Observed) -> bool {
        let Some(identity) = crate::message::parse_message_id(&observed.msg_id) else {
            return false;
        };
        match self.messages.get(&identity.number) {
            Some(message)
                if message.queue == queue
                    && message.state == State::Available
                    && message.identity == identity =>
            {
                self.remove(identity.number, true);
                true
            }
            _ => false,
        }
    }
}

/// Check a got or browsed message's data against its MsgId (done outside the model's lock).
pub fn observe(
    msg_id: [u8; 24],
    correl_id: [u8; 24],
    priority: i32,
    persistence: i32,
    data: &[u8],
) -> Observed {
    let data_ok = crate::message::parse_message_id(&msg_id)
        .is_some_and(|identity| data_matches(&identity, data));
    Observed {
        msg_id,
        correl_id,
        priority,
        persistence,
        data_ok,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{correl_id, data, message_id};
    use ferrite_constants::persistence::MQPER_PERSISTENT;

    fn identity(number: u64, priority: u8, worker: u16) -> MessageIdentity {
        MessageIdentity {
            number,
            priority,
            length: 10,
            worker,
        }
    }

    fn seen(identity: &MessageIdentity) -> Observed {
        observe(
            message_id(identity),
            correl_id(identity.number),
            i32::from(identity.priority),
            MQPER_PERSISTENT,
            &data(identity.number, identity.length as usize),
        )
    }

    fn model() -> Model {
        Model::new(vec!["Q".to_string()], Totals::default())
    }

    /// Put and commit `count` messages of priority 5 from worker 1 in one unit.
    fn committed(model: &mut Model, count: u64) -> Vec<MessageIdentity> {
        let mut unit = model.new_unit();
        let identities: Vec<MessageIdentity> = (0..count)
            .map(|_| identity(model.new_number(), 5, 1))
            .collect();
        for identity in &identities {
            model.put_in_unit(&mut unit, 0, *identity);
        }
        model.commit_begin(&unit);
        model.commit_done(&unit);
        identities
    }

    #[test]
    fn everything_committed_and_present_is_clean() {
        let mut model = model();
        let messages = committed(&mut model, 3);
        let verification = model.verify_restart(&[messages.iter().map(seen).collect()]);
        assert!(verification.is_clean(), "{:?}", verification.problems);
        assert_eq!(verification.present, 3);
    }

    #[test]
    fn a_missing_committed_message_is_lost() {
        let mut model = model();
        let messages = committed(&mut model, 3);
        let verification = model.verify_restart(&[vec![seen(&messages[0]), seen(&messages[2])]]);
        assert_eq!(verification.lost, 1);
        assert!(!verification.is_clean());
    }

    #[test]
    fn a_message_twice_or_after_a_committed_get_is_duplicated() {
        let mut model = model();
        let messages = committed(&mut model, 2);
        let verification = model.verify_restart(&[vec![
            seen(&messages[0]),
            seen(&messages[0]),
            seen(&messages[1]),
        ]]);
        assert_eq!(verification.duplicated, 1);
        let mut model = self::model();
        let messages = committed(&mut model, 1);
        let mut unit = model.new_unit();
        model.got(Some(&mut unit), 0, &seen(&messages[0]));
        model.commit_begin(&unit);
        model.commit_done(&unit);
        let verification = model.verify_restart(&[vec![seen(&messages[0])]]);
        assert_eq!(verification.duplicated, 1);
    }

    #[test]
    fn uncommitted_and_backed_out_puts_must_not_appear() {
        let mut model = model();
        let mut open = model.new_unit();
        let uncommitted = identity(model.new_number(), 0, 1);
        model.put_in_unit(&mut open, 0, uncommitted);
        let mut backed_out = model.new_unit();
        let discarded = identity(model.new_number(), 0, 2);
        model.put_in_unit(&mut backed_out, 0, discarded);
        model.backout_begin(&backed_out);
        // Seen while running: a put before its MQCMIT is a problem.
        model.browsed(0, &seen(&uncommitted));
        assert_eq!(model.problems().1, 1);
        let verification = model.verify_restart(&[vec![seen(&uncommitted), seen(&discarded)]]);
        assert_eq!(verification.phantom, 2);
    }

    #[test]
    fn a_unit_in_commit_at_the_crash_is_all_or_nothing() {
        let mut model = model();
        let mut unit = model.new_unit();
        let first = identity(model.new_number(), 3, 1);
        let second = identity(model.new_number(), 3, 1);
        model.put_in_unit(&mut unit, 0, first);
        model.put_in_unit(&mut unit, 0, second);
        model.commit_begin(&unit);
        // Either way round is fine as a whole ...
        let mut all = model_with_committing_unit();
        assert!(all
            .0
            .verify_restart(&[vec![seen(&all.1), seen(&all.2)]])
            .is_clean());
        let mut none = model_with_committing_unit();
        assert!(none.0.verify_restart(&[vec![]]).is_clean());
        // ... half of it is not.
        let verification = model.verify_restart(&[vec![seen(&first)]]);
        assert!(!verification.is_clean());
    }

    fn model_with_committing_unit() -> (Model, MessageIdentity, MessageIdentity) {
        let mut model = model();
        let mut unit = model.new_unit();
        let first = identity(model.new_number(), 3, 1);
        let second = identity(model.new_number(), 3, 1);
        model.put_in_unit(&mut unit, 0, first);
        model.put_in_unit(&mut unit, 0, second);
        model.commit_begin(&unit);
        (model, first, second)
    }

    #[test]
    fn priority_and_per_worker_fifo_order_are_checked() {
        let mut model = model();
        let messages = committed(&mut model, 2);
        // Same priority and worker, later put first: out of order.
        let verification = model.verify_restart(&[vec![seen(&messages[1]), seen(&messages[0])]]);
        assert_eq!(verification.order_violations, 1);
        // A lower priority before a higher one: out of order.
        let mut model = self::model();
        let mut unit = model.new_unit();
        let low = identity(model.new_number(), 1, 1);
        let high = identity(model.new_number(), 8, 2);
        model.put_in_unit(&mut unit, 0, low);
        model.put_in_unit(&mut unit, 0, high);
        model.commit_begin(&unit);
        model.commit_done(&unit);
        let verification = model.verify_restart(&[vec![seen(&low), seen(&high)]]);
        assert_eq!(verification.order_violations, 1);
    }

    #[test]
    fn a_message_two_connections_get_out_of_syncpoint_may_be_gone_after_a_crash() {
        let mut model = model();
        let messages = committed(&mut model, 1);
        let number = messages[0].number;
        // Both go for it; one is told there is no such message while the other's MQGET,
        // which took it, is still in flight when the queue manager is killed.
        model.get_no_sync_begin(number);
        model.get_no_sync_begin(number);
        model.get_no_sync_not_found(number);
        let verification = model.verify_restart(&[vec![]]);
        assert!(verification.is_clean(), "{:?}", verification.problems);
        // Without a get in flight, the same absence is a loss.
        let mut model = self::model();
        let messages = committed(&mut model, 1);
        model.get_no_sync_begin(messages[0].number);
        model.get_no_sync_not_found(messages[0].number);
        assert_eq!(model.verify_restart(&[vec![]]).lost, 1);
    }

    #[test]
    fn damaged_data_is_a_problem() {
        let mut model = model();
        let messages = committed(&mut model, 1);
        let mut observed = seen(&messages[0]);
        observed.data_ok = false;
        assert!(!model.verify_restart(&[vec![observed]]).is_clean());
    }
}
