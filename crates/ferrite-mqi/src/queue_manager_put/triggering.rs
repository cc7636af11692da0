//! Triggering: the queue manager writes a trigger message (MQTM) to a queue's initiation queue
//! when a trigger event occurs on it, so that a trigger monitor (`ferrite trigmon`, MQ's
//! runmqtrm) can start the application that serves the queue. IBM MQ documents the rules in
//! "Conditions for a trigger event" and "Trigger messages and changes to the queue"; this
//! module is those rules, and the connection calls it at the points where they apply.
//!
//! # When the conditions are checked
//!
//! - An MQPUT/MQPUT1 to a local queue, in a unit of work or not. MQ's "Conditions for a
//!   trigger event" (condition 3 and its note) count committed *and uncommitted* messages on
//!   a non-shared local queue, so the put is the trigger event even in a unit of work: the
//!   conditions are checked then ([`PendingArrivals::put`]; uncommitted puts are counted per
//!   priority for TRIGMPRI in a side table, [`eligible_depth`]). A trigger message caused by a
//!   put outside syncpoint is written at once. One caused by a put in a unit of work is held
//!   until the unit is resolved ("Trigger messages and units of work" in MQ's "Designing an
//!   application that uses triggered queues"): written at MQCMIT, and at MQBACK for FIRST and
//!   DEPTH as well ("trigger messages are made available even if the unit of work is backed
//!   out so that a trigger message is always available when the required conditions are
//!   met"); an EVERY trigger message is dropped with its backed-out put. So a FIRST trigger
//!   can start an application that finds only uncommitted messages (MQ advises getting with
//!   a wait interval), and a second unit's put on a queue already holding one uncommitted
//!   message is no trigger event.
//! - A backout (MQBACK, a failed commit at MQDISC, or the end of an application that did not
//!   commit) returns messages its gets took ([`reinstated`]): checked as an arrival of those
//!   messages, since the application that had them will not process them.
//! - A handle that had the queue open for input is closed, leaving none (condition 12, FIRST
//!   and DEPTH: a server that found the queue empty and ended while messages arrived). Only
//!   MQOO_INPUT_* handles count (IPPROCS): browsing or putting is not serving.
//! - Triggering is switched on, or GET enabled, by MQSET or ALTER QLOCAL while the condition
//!   already holds ([`definition_changed`], condition 13).
//! - A trigger monitor opens an initiation queue for input: every queue that names it is
//!   checked ([`initiation_queue_opened`], condition 14). Opening it to browse or put is not
//!   serving it.
//!
//! # The conditions
//!
//! Common to all: TRIGGER is on and TRIGTYPE is not NONE; GET is enabled; INITQ names a local
//! queue that at least one handle has open for input (a trigger monitor); PROCESS, when not
//! blank, names a process definition; the queue is not itself an initiation queue (no queue
//! names it in INITQ). Only messages of priority TRIGMPRI or higher count ("eligible").
//!
//! - FIRST: the eligible depth goes from 0 to at least 1 and no handle has the queue open for
//!   input. A message arriving on a queue that is not empty triggers again once TRIGINT (the
//!   queue manager's trigger interval, milliseconds) has passed since the last trigger message
//!   for the queue (condition 11: for a server that ended leaving messages behind), again
//!   only with no handle open for input.
//! - EVERY: one trigger message per eligible message that arrives.
//! - DEPTH: the eligible depth reaches TRIGDPTH and no handle has the queue open for input;
//!   the queue manager then sets NOTRIGGER (stored, as ALTER would) at the trigger event, so
//!   the application must switch triggering on again (MQSET or ALTER) once it has processed
//!   the messages.
//!
//! On the other occasions (close, triggering switched on, initiation queue opened) a queue
//! triggers once when at least one (FIRST, EVERY) or TRIGDPTH (DEPTH) eligible messages are on
//! it; a close only for FIRST and DEPTH. Concurrent arrivals on an empty FIRST queue may each
//! see it empty and each write a trigger message; MQ allows such duplicates, which a trigger
//! monitor must tolerate.
//!
//! # The trigger message
//!
//! An MQTM (`ferrite_message::trigger_message` documents its 684 bytes, Format MQTRIG) with
//! the queue's name, PROCESS and TRIGDATA and the process's APPLTYPE, APPLICID, ENVRDATA and
//! USERDATA, put non-persistent and outside any unit of work on the initiation queue at its
//! default priority, with the attribute values in force at the trigger event. If it cannot be
//! put there it goes to the dead-letter queue.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use ferrite_constants::format::MQFMT_TRIGGER;
use ferrite_message::trigger_message::TriggerMessage;
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::{
    now_ms, LocalQueue, MessageSelector, ObjectDefinition, ObjectType, QueueDefinition,
    QueueManager, UnitOfWork,
};

use super::{put_as_queue_manager, put_to_dead_letter_queue};

/// Message priorities 0–9: arrivals are counted per priority until TRIGMPRI is known.
pub const PRIORITY_LEVELS: usize = 10;

/// TRIGTYPE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerType {
    None,
    First,
    Every,
    Depth,
}

impl TriggerType {
    /// The queue's TRIGTYPE when its TRIGGER is on and TRIGTYPE is not NONE.
    pub fn in_force(definition: &QueueDefinition) -> Option<TriggerType> {
        if !definition.trigger_control {
            return None;
        }
        let trigger_type = TriggerType::from_keyword(&definition.trigger_type);
        (trigger_type != TriggerType::None).then_some(trigger_type)
    }

    /// TRIGTYPE's keyword (FIRST, EVERY, DEPTH, NONE); anything else is NONE.
    pub fn from_keyword(keyword: &str) -> TriggerType {
        match keyword {
            "FIRST" => TriggerType::First,
            "EVERY" => TriggerType::Every,
            "DEPTH" => TriggerType::Depth,
            _ => TriggerType::None,
        }
    }
}

/// A queue's trigger attributes, when its triggering is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TriggerAttributes {
    /// TRIGTYPE (never NONE here).
    pub trigger_type: TriggerType,
    /// TRIGDPTH (at least 1).
    pub depth: u32,
    /// TRIGMPRI: messages of lower priority do not count.
    pub message_priority: u8,
    /// INITQ.
    pub initiation_queue: String,
    /// PROCESS (blank: none).
    pub process_name: String,
    /// TRIGDATA.
    pub trigger_data: String,
}

impl TriggerAttributes {
    /// The trigger attributes of a queue whose TRIGGER is on and TRIGTYPE not NONE; `None`
    /// otherwise. This is the test every put and commit makes first, so it copies nothing for
    /// a queue that does not trigger.
    pub fn of(definition: &QueueDefinition) -> Option<TriggerAttributes> {
        let trigger_type = TriggerType::in_force(definition)?;
        Some(TriggerAttributes {
            trigger_type,
            depth: definition.trigger_depth.max(1),
            message_priority: definition.trigger_message_priority,
            initiation_queue: definition.initiation_queue.clone(),
            process_name: definition.process_name.clone(),
            trigger_data: definition.trigger_data.clone(),
        })
    }
}

/// Why the trigger conditions of a queue are being checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occasion {
    /// Messages became available: `arrived` eligible ones, on a queue that held
    /// `eligible_before` eligible messages just before (counted up to 1).
    Arrival { eligible_before: u64, arrived: u64 },
    /// The last handle open for input was closed.
    InputClosed,
    /// TRIGGER was switched on, or GET enabled, while messages may be waiting.
    TriggeringEnabled,
    /// A trigger monitor opened the queue's initiation queue for input.
    InitiationQueueOpened,
}

/// How many trigger messages MQ's rules give, from the facts about the queue. Pure: the
/// common conditions (initiation queue served, process defined, GET enabled) are checked by
/// the caller. `eligible_depth(limit)` counts the eligible messages on the queue now, up to
/// `limit`; `interval_elapsed` says whether TRIGINT has passed since the last trigger message.
pub fn trigger_messages_due(
    attributes: &TriggerAttributes,
    occasion: Occasion,
    open_for_input: bool,
    eligible_depth: impl Fn(u64) -> u64,
    interval_elapsed: impl Fn() -> bool,
) -> u64 {
    let depth = u64::from(attributes.depth);
    match (attributes.trigger_type, occasion) {
        (TriggerType::None, _) => 0,
        (TriggerType::Every, Occasion::Arrival { arrived, .. }) => arrived,
        (_, Occasion::Arrival { arrived: 0, .. }) => 0,
        (TriggerType::First | TriggerType::Depth, _) if open_for_input => 0,
        (
            TriggerType::First,
            Occasion::Arrival {
                eligible_before, ..
            },
        ) => u64::from((eligible_before == 0 || interval_elapsed()) && eligible_depth(1) >= 1),
        (TriggerType::Depth, Occasion::Arrival { .. }) => u64::from(eligible_depth(depth) >= depth),
        (TriggerType::Every, Occasion::InputClosed) => 0,
        (TriggerType::First | TriggerType::Every, _) => u64::from(eligible_depth(1) >= 1),
        (TriggerType::Depth, _) => u64::from(eligible_depth(depth) >= depth),
    }
}

/// Messages of priority `min_priority` or higher on `queue`, committed and uncommitted,
/// counted up to `limit`: MQ's "Conditions for a trigger event" (note to condition 3) counts
/// both for a non-shared local queue. Committed messages are kept in priority order, so this
/// looks at no more than `limit` of them; uncommitted puts are counted per priority in
/// [`uncommitted_puts`] (every priority is counted by the queue itself when TRIGMPRI is 0).
pub fn eligible_depth(queue: &Arc<LocalQueue>, min_priority: u8, limit: u64) -> u64 {
    if min_priority == 0 {
        return queue.current_depth().min(limit);
    }
    let uncommitted = uncommitted_eligible(queue, min_priority);
    if uncommitted >= limit {
        return limit;
    }
    let selector = MessageSelector::default();
    let mut count = uncommitted;
    let mut after = None;
    while count < limit {
        match queue.browse(&selector, after) {
            Some(entry) if entry.key.priority() >= min_priority => {
                count += 1;
                after = Some(entry.key);
            }
            _ => break,
        }
    }
    count
}

/// Queue identity (its address) → the queue and its uncommitted puts per priority, counted
/// for triggering (only puts made while the queue's triggering was on). The entry's `Weak`
/// keeps the queue's allocation, so no other queue can have that address while the entry
/// exists: a queue deleted and defined again has a new key and starts afresh.
type UncommittedPuts = HashMap<usize, (Weak<LocalQueue>, [u64; PRIORITY_LEVELS])>;

/// Uncommitted puts to triggered queues, per priority: the storage engine counts a queue's
/// uncommitted puts but not by priority, which TRIGMPRI needs.
fn uncommitted_puts() -> &'static Mutex<UncommittedPuts> {
    static PUTS: OnceLock<Mutex<UncommittedPuts>> = OnceLock::new();
    PUTS.get_or_init(|| Mutex::new(HashMap::new()))
}

fn uncommitted_eligible(queue: &Arc<LocalQueue>, min_priority: u8) -> u64 {
    uncommitted_puts()
        .lock()
        .unwrap()
        .get(&(Arc::as_ptr(queue) as usize))
        .map_or(0, |(_, counts)| {
            counts[usize::from(min_priority.min(9))..].iter().sum()
        })
}

fn add_uncommitted(queue: &Arc<LocalQueue>, priority: usize) {
    let mut puts = uncommitted_puts().lock().unwrap();
    let entry = puts
        .entry(Arc::as_ptr(queue) as usize)
        .or_insert_with(|| (Arc::downgrade(queue), [0; PRIORITY_LEVELS]));
    entry.1[priority] += 1;
}

fn remove_uncommitted(queue: &Arc<LocalQueue>, counts: &[u32; PRIORITY_LEVELS]) {
    let mut puts = uncommitted_puts().lock().unwrap();
    let key = Arc::as_ptr(queue) as usize;
    let Some((_, noted)) = puts.get_mut(&key) else {
        return;
    };
    for (noted, &count) in noted.iter_mut().zip(counts) {
        *noted = noted.saturating_sub(u64::from(count));
    }
    if noted.iter().all(|&count| count == 0) {
        puts.remove(&key);
    }
}

/// A queue's state just before messages may arrive on it (an MQPUT, or a backout that
/// returns messages got in the unit of work).
pub struct ArrivalWatch {
    queue: Arc<LocalQueue>,
    message_priority: u8,
    eligible_before: u64,
}

impl ArrivalWatch {
    /// `None` (at the cost of one read of the definition) unless the queue's triggering is on.
    pub fn before(queue: &Arc<LocalQueue>) -> Option<ArrivalWatch> {
        let message_priority = queue.with_definition(|definition| {
            TriggerType::in_force(definition).map(|_| definition.trigger_message_priority)
        })?;
        Some(ArrivalWatch {
            queue: queue.clone(),
            message_priority,
            eligible_before: eligible_depth(queue, message_priority, 1),
        })
    }

    /// Messages of these priorities (counts indexed by priority) arrived: the trigger event
    /// this makes, if any (not yet written).
    fn arrived(
        self,
        queue_manager: &QueueManager,
        by_priority: &[u32; PRIORITY_LEVELS],
    ) -> Option<TriggerEvent> {
        let arrived = by_priority[usize::from(self.message_priority.min(9))..]
            .iter()
            .map(|&count| u64::from(count))
            .sum();
        evaluate(
            queue_manager,
            &self.queue,
            Occasion::Arrival {
                eligible_before: self.eligible_before,
                arrived,
            },
        )
    }
}

/// The trigger side of a connection's unit of work: the uncommitted puts it counted on
/// triggered queues, and the trigger messages its puts caused, which MQ makes available when
/// the unit of work is resolved ("Trigger messages and units of work": at commit, and at
/// backout too for FIRST and DEPTH, so that a trigger is never lost to a backed-out put that
/// another unit's put counted on).
#[derive(Default)]
pub struct PendingArrivals {
    queues: Vec<(Arc<LocalQueue>, [u32; PRIORITY_LEVELS])>,
    held: Vec<TriggerEvent>,
}

impl PendingArrivals {
    /// An MQPUT of a message of `priority` to `queue` succeeded. `watch` is the queue's
    /// state from just before (`None`: triggering is off); `in_unit`: the put is in the
    /// unit of work. The trigger conditions are checked now, counting uncommitted messages as
    /// MQ does; a trigger message is written at once outside a unit of work, and held until
    /// it is resolved inside one.
    pub fn put(
        &mut self,
        queue_manager: &QueueManager,
        watch: Option<ArrivalWatch>,
        priority: u8,
        in_unit: bool,
    ) {
        let Some(watch) = watch else {
            return;
        };
        let priority = usize::from(priority.min(9));
        let mut by_priority = [0; PRIORITY_LEVELS];
        by_priority[priority] = 1;
        if in_unit {
            let queue = &watch.queue;
            add_uncommitted(queue, priority);
            // Units of work usually put to one queue, or to a few in turn.
            match self
                .queues
                .iter_mut()
                .rev()
                .find(|(noted, _)| Arc::ptr_eq(noted, queue))
            {
                Some((_, counts)) => counts[priority] += 1,
                None => self.queues.push((queue.clone(), by_priority)),
            }
        }
        if let Some(event) = watch.arrived(queue_manager, &by_priority) {
            if in_unit {
                self.held.push(event);
            } else {
                event.write(queue_manager);
            }
        }
    }

    /// The unit of work was committed (`committed`) or backed out: its uncommitted puts are
    /// no longer counted as such, and the trigger messages it held are written (at backout
    /// only those of FIRST and DEPTH queues: MQ makes those available "even if the unit of
    /// work is backed out"; an EVERY trigger belongs to the message that was backed out).
    pub fn resolved(&mut self, queue_manager: &QueueManager, committed: bool) {
        for (queue, counts) in self.queues.drain(..) {
            remove_uncommitted(&queue, &counts);
        }
        for event in self.held.drain(..) {
            if committed || event.trigger_type != TriggerType::Every {
                event.write(queue_manager);
            }
        }
    }
}

impl Drop for PendingArrivals {
    /// A connection that ends while the queue manager stops leaves its unit of work to
    /// restart: its puts are no longer counted here, and its held trigger messages are gone
    /// (restart's checks at the next initiation queue open stand in for them, as in MQ).
    fn drop(&mut self) {
        for (queue, counts) in self.queues.drain(..) {
            remove_uncommitted(&queue, &counts);
        }
    }
}

/// The messages a unit of work got from triggered queues, which a backout returns to them:
/// the watches to pass to [`reinstated`] once the backout is done.
pub fn before_backout(unit: &UnitOfWork) -> Vec<(ArrivalWatch, [u32; PRIORITY_LEVELS])> {
    let mut watches: Vec<(ArrivalWatch, [u32; PRIORITY_LEVELS])> = Vec::new();
    for (queue, priority) in unit.reinstated_on_backout() {
        let priority = usize::from(priority.min(9));
        if let Some((_, counts)) = watches
            .iter_mut()
            .find(|(watch, _)| Arc::ptr_eq(&watch.queue, queue))
        {
            counts[priority] += 1;
            continue;
        }
        if let Some(watch) = ArrivalWatch::before(queue) {
            let mut counts = [0; PRIORITY_LEVELS];
            counts[priority] = 1;
            watches.push((watch, counts));
        }
    }
    watches
}

/// A backout returned the watched messages to their queues. MQ's conditions speak of a
/// message being put; a message reinstated by MQBACK (or by the backout of an application
/// that ended without committing) becomes available again just as one put is, and the
/// application that had it will not process it, so Ferrite checks the conditions as for a
/// put: a FIRST queue that was empty triggers (or one whose TRIGINT has passed), a DEPTH
/// queue that reaches TRIGDPTH triggers, an EVERY queue triggers once per message; FIRST and
/// DEPTH only when no handle has the queue open for input, as always.
pub fn reinstated(
    queue_manager: &QueueManager,
    watches: Vec<(ArrivalWatch, [u32; PRIORITY_LEVELS])>,
) {
    for (watch, counts) in watches {
        if let Some(event) = watch.arrived(queue_manager, &counts) {
            event.write(queue_manager);
        }
    }
}

/// A handle that had `queue` open for input was closed.
pub fn input_closed(queue_manager: &QueueManager, queue: &Arc<LocalQueue>) {
    if queue.open_input_count() == 0 {
        check(queue_manager, queue, Occasion::InputClosed);
    }
}

/// `queue`'s definition changed from `before` (MQSET, ALTER QLOCAL): if triggering was
/// switched on, or GET enabled while it is on, the queue is checked as MQ does.
pub fn definition_changed(
    queue_manager: &QueueManager,
    before: &QueueDefinition,
    queue: &Arc<LocalQueue>,
) {
    let (triggering_on, get_inhibited) = queue.with_definition(|definition| {
        (
            TriggerAttributes::of(definition).is_some(),
            definition.get_inhibited,
        )
    });
    let was_on = TriggerAttributes::of(before).is_some();
    if triggering_on && !get_inhibited && (!was_on || before.get_inhibited) {
        check(queue_manager, queue, Occasion::TriggeringEnabled);
    }
}

/// `queue` was opened for input: if it is an initiation queue, every queue that names it in
/// INITQ is checked (one trigger message each at most).
pub fn initiation_queue_opened(queue_manager: &QueueManager, queue: &Arc<LocalQueue>) {
    let name = queue.name();
    for application_queue in queue_manager.queues() {
        let names_it = application_queue.with_definition(|definition| {
            definition.trigger_control && definition.initiation_queue == name
        });
        if names_it && !Arc::ptr_eq(&application_queue, queue) {
            check(
                queue_manager,
                &application_queue,
                Occasion::InitiationQueueOpened,
            );
        }
    }
}

/// Check `queue`'s trigger conditions on `occasion` and write the trigger messages due.
/// Returns how many were written.
pub fn check(queue_manager: &QueueManager, queue: &Arc<LocalQueue>, occasion: Occasion) -> u64 {
    match evaluate(queue_manager, queue, occasion) {
        Some(event) => {
            let count = event.count;
            event.write(queue_manager);
            count
        }
        None => 0,
    }
}

/// A trigger event: the trigger message(s) it causes, built with the attribute values in
/// force when it occurred, and where they go.
pub struct TriggerEvent {
    trigger_type: TriggerType,
    initiation_queue: Arc<LocalQueue>,
    message: TriggerMessage,
    count: u64,
}

impl TriggerEvent {
    /// Put the trigger messages on the initiation queue (or the dead-letter queue).
    fn write(self, queue_manager: &QueueManager) {
        for _ in 0..self.count {
            write_trigger_message(queue_manager, &self.initiation_queue, &self.message);
        }
    }
}

/// Check `queue`'s trigger conditions on `occasion`: the trigger event, if one occurs. Its
/// effects on the queue happen now (DEPTH sets NOTRIGGER; TRIGINT restarts); the trigger
/// messages are written by the caller, at once or when the unit of work is resolved.
fn evaluate(
    queue_manager: &QueueManager,
    queue: &Arc<LocalQueue>,
    occasion: Occasion,
) -> Option<TriggerEvent> {
    if queue_manager.is_stopping() || queue.is_deleted() {
        return None;
    }
    let definition = queue.definition();
    let attributes = TriggerAttributes::of(&definition)?;
    if definition.get_inhibited || attributes.initiation_queue.is_empty() {
        return None;
    }
    // A trigger monitor must be serving the initiation queue.
    let initiation_queue = queue_manager.queue(&attributes.initiation_queue)?;
    if initiation_queue.open_input_count() == 0 {
        return None;
    }
    let open_for_input = queue.open_input_count() > 0;
    let due = trigger_messages_due(
        &attributes,
        occasion,
        open_for_input,
        |limit| eligible_depth(queue, attributes.message_priority, limit),
        || trigger_interval_elapsed(queue_manager, queue),
    );
    if due == 0 {
        return None;
    }
    // The conditions that cost more to check, once a trigger is otherwise due.
    if is_initiation_queue(queue_manager, &definition.name) {
        return None;
    }
    let process = if attributes.process_name.is_empty() {
        None
    } else {
        match queue_manager.object(ObjectType::Process, &attributes.process_name) {
            Some(ObjectDefinition::Process(process)) => Some(process),
            _ => return None,
        }
    };
    if attributes.trigger_type == TriggerType::Depth && !switch_triggering_off(queue_manager, queue)
    {
        // Another arrival triggered it first.
        return None;
    }
    let message = TriggerMessage {
        q_name: definition.name.clone(),
        process_name: attributes.process_name.clone(),
        trigger_data: attributes.trigger_data.clone(),
        appl_type: process
            .as_ref()
            .map_or(0, |p| application_type_number(&p.application_type)),
        appl_id: process
            .as_ref()
            .map_or(String::new(), |p| p.application_id.clone()),
        env_data: process
            .as_ref()
            .map_or(String::new(), |p| p.environment_data.clone()),
        user_data: process
            .as_ref()
            .map_or(String::new(), |p| p.user_data.clone()),
    };
    note_trigger_written(queue);
    Some(TriggerEvent {
        trigger_type: attributes.trigger_type,
        initiation_queue,
        message,
        count: due,
    })
}

/// Whether some queue names `name` in its INITQ (an initiation queue never triggers).
fn is_initiation_queue(queue_manager: &QueueManager, name: &str) -> bool {
    queue_manager
        .queues()
        .iter()
        .any(|queue| queue.with_definition(|definition| definition.initiation_queue == name))
}

/// DEPTH: set NOTRIGGER, stored as ALTER stores it. False when triggering was already off
/// (a concurrent arrival took the trigger).
fn switch_triggering_off(queue_manager: &QueueManager, queue: &Arc<LocalQueue>) -> bool {
    let switched = queue_manager.update_queue_definition(queue, |definition| {
        Ok(std::mem::replace(&mut definition.trigger_control, false))
    });
    match switched {
        Ok(switched) => switched,
        Err(error) => {
            log(&format!(
                "could not set NOTRIGGER on {} after its DEPTH trigger: {error}",
                queue.name_str()
            ));
            true
        }
    }
}

/// Queue identity (its address) → the queue and when its last trigger message was written.
type LastTriggers = HashMap<usize, (Weak<LocalQueue>, u64)>;

/// When each queue last had a trigger message written for it (TRIGINT), by queue identity:
/// a queue deleted and defined again starts afresh.
fn last_triggers() -> &'static Mutex<LastTriggers> {
    static LAST: OnceLock<Mutex<LastTriggers>> = OnceLock::new();
    LAST.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The bound on the TRIGINT table: entries for queues that no longer exist are dropped when
/// it grows past this.
const LAST_TRIGGERS_PRUNE_AT: usize = 1024;

fn note_trigger_written(queue: &Arc<LocalQueue>) {
    let mut last = last_triggers().lock().unwrap();
    if last.len() >= LAST_TRIGGERS_PRUNE_AT {
        last.retain(|_, (weak, _)| weak.strong_count() > 0);
    }
    last.insert(
        Arc::as_ptr(queue) as usize,
        (Arc::downgrade(queue), now_ms()),
    );
}

/// Whether TRIGINT has passed since the last trigger message for `queue` (or none was ever
/// written).
fn trigger_interval_elapsed(queue_manager: &QueueManager, queue: &Arc<LocalQueue>) -> bool {
    let last = last_triggers()
        .lock()
        .unwrap()
        .get(&(Arc::as_ptr(queue) as usize))
        .map(|(_, at)| *at);
    let Some(last) = last else {
        return true;
    };
    let interval_ms = u64::from(queue_manager.queue_manager_attributes().trigger_interval);
    now_ms().saturating_sub(last) >= interval_ms
}

/// Put one trigger message on the initiation queue; if that fails, on the dead-letter queue.
fn write_trigger_message(
    queue_manager: &QueueManager,
    initiation_queue: &Arc<LocalQueue>,
    message: &TriggerMessage,
) {
    let order = ByteOrder::from_mq_encoding(ferrite_constants::encoding::MQENC_NATIVE)
        .expect("MQENC_NATIVE has an integer encoding");
    let data = match message.encode(order) {
        Ok(data) => data,
        Err(error) => {
            log(&format!(
                "no trigger message for queue {}: {error}",
                message.q_name
            ));
            return;
        }
    };
    let (md, result) = put_as_queue_manager(queue_manager, initiation_queue, MQFMT_TRIGGER, &data);
    if let Err(reason) = result {
        let initiation_queue_name = initiation_queue.name();
        match put_to_dead_letter_queue(
            queue_manager,
            None,
            &md,
            &data,
            reason,
            &initiation_queue_name,
            "",
        ) {
            Ok(dead_letter_queue) => log(&format!(
                "trigger message for queue {} could not be put on initiation queue \
                 {initiation_queue_name} (reason {reason}); put on {dead_letter_queue}",
                message.q_name
            )),
            Err(error) => log(&format!(
                "trigger message for queue {} could not be put on initiation queue \
                 {initiation_queue_name} (reason {reason}) nor on the dead-letter queue \
                 ({error}); it is discarded",
                message.q_name
            )),
        }
    }
}

fn log(text: &str) {
    eprintln!("ferrite triggering: {text}");
}

/// APPLTYPE's MQAT_* value: a keyword MQSC accepts, or the number itself.
pub fn application_type_number(application_type: &str) -> i32 {
    use ferrite_constants::appl_type::*;
    match application_type {
        "CICS" => MQAT_CICS,
        "IMS" => MQAT_IMS,
        "MVS" | "ZOS" => MQAT_ZOS,
        "UNIX" => MQAT_UNIX,
        "WINDOWS" | "WINDOWSNT" => MQAT_WINDOWS_NT,
        "DEF" => MQAT_DEFAULT,
        "OS400" => MQAT_OS400,
        number => number.parse().unwrap_or(MQAT_DEFAULT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attributes(trigger_type: TriggerType, depth: u32) -> TriggerAttributes {
        TriggerAttributes {
            trigger_type,
            depth,
            message_priority: 0,
            initiation_queue: "INITQ".into(),
            process_name: String::new(),
            trigger_data: String::new(),
        }
    }

    fn arrival(eligible_before: u64, arrived: u64) -> Occasion {
        Occasion::Arrival {
            eligible_before,
            arrived,
        }
    }

    #[test]
    fn first_triggers_on_empty_to_non_empty_only() {
        let first = attributes(TriggerType::First, 1);
        let due = |occasion, open, depth: u64, elapsed| {
            trigger_messages_due(&first, occasion, open, |l| depth.min(l), || elapsed)
        };
        assert_eq!(due(arrival(0, 1), false, 1, false), 1);
        assert_eq!(due(arrival(0, 3), false, 3, false), 1, "one per transition");
        assert_eq!(due(arrival(1, 1), false, 2, false), 0, "not empty before");
        assert_eq!(due(arrival(1, 1), false, 2, true), 1, "TRIGINT passed");
        assert_eq!(due(arrival(0, 1), true, 1, true), 0, "a server has it open");
        assert_eq!(due(arrival(0, 0), false, 1, true), 0, "below TRIGMPRI");
        assert_eq!(due(Occasion::InputClosed, false, 1, false), 1);
        assert_eq!(due(Occasion::InputClosed, false, 0, false), 0);
        assert_eq!(due(Occasion::TriggeringEnabled, false, 2, false), 1);
        assert_eq!(due(Occasion::InitiationQueueOpened, false, 1, false), 1);
        assert_eq!(due(Occasion::InitiationQueueOpened, true, 1, false), 0);
    }

    #[test]
    fn every_triggers_per_message() {
        let every = attributes(TriggerType::Every, 1);
        let due = |occasion, open, depth: u64| {
            trigger_messages_due(&every, occasion, open, |l| depth.min(l), || false)
        };
        assert_eq!(
            due(arrival(5, 3), true, 8),
            3,
            "open for input does not matter"
        );
        assert_eq!(due(arrival(0, 0), false, 0), 0);
        assert_eq!(due(Occasion::InputClosed, false, 4), 0);
        assert_eq!(due(Occasion::TriggeringEnabled, false, 4), 1);
        assert_eq!(due(Occasion::InitiationQueueOpened, false, 0), 0);
    }

    #[test]
    fn depth_triggers_at_trigger_depth() {
        let depth = attributes(TriggerType::Depth, 3);
        let due = |occasion, open, current: u64| {
            trigger_messages_due(&depth, occasion, open, |l| current.min(l), || true)
        };
        assert_eq!(due(arrival(1, 1), false, 2), 0);
        assert_eq!(due(arrival(2, 1), false, 3), 1);
        assert_eq!(
            due(arrival(2, 5), false, 7),
            1,
            "one trigger, then NOTRIGGER"
        );
        assert_eq!(due(arrival(2, 1), true, 3), 0, "a server has it open");
        assert_eq!(due(Occasion::InputClosed, false, 3), 1);
        assert_eq!(due(Occasion::TriggeringEnabled, false, 2), 0);
        assert_eq!(due(Occasion::TriggeringEnabled, false, 4), 1);
    }

    #[test]
    fn trigger_types_from_keywords() {
        assert_eq!(TriggerType::from_keyword("FIRST"), TriggerType::First);
        assert_eq!(TriggerType::from_keyword("EVERY"), TriggerType::Every);
        assert_eq!(TriggerType::from_keyword("DEPTH"), TriggerType::Depth);
        assert_eq!(TriggerType::from_keyword("NONE"), TriggerType::None);
        let none = attributes(TriggerType::None, 1);
        assert_eq!(
            trigger_messages_due(&none, arrival(0, 1), false, |_| 1, || true),
            0
        );
    }
}
