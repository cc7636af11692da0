//! A local queue's messages in memory: delivery order, indexes and waiting getters.
//!
//! Only committed messages are in a queue's ordered map, so a getter never walks past another
//! unit of work's uncommitted messages (MP16 warns of up to 100 ms per get when MQ does).
//! Messages got inside a unit of work leave the map at once and come back if it backs out.
//! Delivery order is priority (9 first) then put order, as MSGDLVSQ(PRIORITY).
//!
//! A message locked by a browse (MQGMO_LOCK) stays in the map but is visible only to its
//! *lock holder* (a number the MQI gives each object handle; 0, [`NO_LOCK_HOLDER`], holds
//! nothing): every get and browse names the holder it looks for, and skips messages other
//! holders have locked. A queue with no locked message pays one `is_empty` per search.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use ferrite_storage::data_manager::memory::HeldImage;
use ferrite_storage::data_manager::message::{Identifier, NO_IDENTIFIER};
use ferrite_storage::log_records::MessageLocation;

use super::groups::{GroupIndex, GroupMember};
use super::hashing::FastHashing;
use crate::objects::QueueDefinition;

/// The lock holder of a get or browse that holds no lock: it sees no locked message.
pub const NO_LOCK_HOLDER: u64 = 0;

/// A time-on-queue average not yet started (no message with a put time got).
const TIME_ON_QUEUE_NONE: u64 = u64::MAX;

/// Delivery order: higher priority first, then put order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MessageKey {
    pub inverted_priority: u8,
    pub sequence: u64,
}

impl MessageKey {
    pub fn new(priority: u8, sequence: u64) -> MessageKey {
        assert!(priority <= 9);
        MessageKey {
            inverted_priority: 9 - priority,
            sequence,
        }
    }
    pub fn priority(&self) -> u8 {
        9 - self.inverted_priority
    }

    /// The first key in delivery order (bounds of key ranges).
    pub const MIN: MessageKey = MessageKey {
        inverted_priority: 0,
        sequence: 0,
    };
    /// The last key in delivery order.
    pub const MAX: MessageKey = MessageKey {
        inverted_priority: u8::MAX,
        sequence: u64::MAX,
    };
}

/// Where a message's image is: on data pages, or in memory beside its entry
/// (`data_manager/memory.rs`: non-persistent messages within the buffer pool's share).
#[derive(Clone, Debug)]
pub enum MessageStorage {
    Pages(MessageLocation),
    /// Shared by the clones of the entry (a unit of work's list, the queue's map); the last
    /// one dropped gives the memory back.
    Memory(HeldImage),
}

impl PartialEq for MessageStorage {
    fn eq(&self, other: &MessageStorage) -> bool {
        match (self, other) {
            (MessageStorage::Pages(a), MessageStorage::Pages(b)) => a == b,
            (MessageStorage::Memory(a), MessageStorage::Memory(b)) => a.ptr_eq(b),
            _ => false,
        }
    }
}

impl Eq for MessageStorage {}

/// What the queue keeps in memory for each message (about 100 bytes, plus the image when the
/// message is held in memory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageEntry {
    pub key: MessageKey,
    pub storage: MessageStorage,
    pub persistent: bool,
    pub message_id: Identifier,
    pub correlation_id: Identifier,
    pub expires_at_ms: Option<u64>,
    pub backout_count: u16,
    /// The message's place in its group (GroupId not MQGI_NONE), or `None`: boxed, so a
    /// message in no group pays 8 bytes for it.
    pub group: Option<Box<GroupMember>>,
}

impl MessageEntry {
    /// The data pages holding the message, if it is on pages.
    pub fn location(&self) -> Option<MessageLocation> {
        match &self.storage {
            MessageStorage::Pages(location) => Some(*location),
            MessageStorage::Memory(_) => None,
        }
    }

    /// Whether the image is held in memory (no page to read or free).
    pub fn in_memory(&self) -> bool {
        matches!(self.storage, MessageStorage::Memory(_))
    }

    /// The slot the message occupies, as the end of a unit of recovery frees or updates it;
    /// `None` for a message held in memory.
    pub fn slot_effect(&self) -> Option<ferrite_storage::data_manager::SlotEffect> {
        self.location()
            .map(|location| ferrite_storage::data_manager::SlotEffect {
                location,
                persistent: self.persistent,
            })
    }
}

/// Which messages a get or browse may return.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessageSelector {
    pub message_id: Option<Identifier>,
    pub correlation_id: Option<Identifier>,
    /// Exactly this message (MQGMO_MSG_UNDER_CURSOR: the message a browse cursor is on).
    pub key: Option<MessageKey>,
    /// GroupId (MQMO_MATCH_GROUP_ID, MQGMO_LOGICAL_ORDER within a group).
    pub group_id: Option<Identifier>,
    /// MsgSeqNumber (MQMO_MATCH_MSG_SEQ_NUMBER; a message in no group is number 1).
    pub sequence_in_group: Option<u32>,
    /// Offset (MQMO_MATCH_OFFSET; a message that is not a segment is at 0).
    pub segment_offset: Option<u32>,
    /// MQGMO_ALL_MSGS_AVAILABLE: a group member only from a complete group.
    pub whole_groups: bool,
    /// MQGMO_ALL_SEGMENTS_AVAILABLE: a segment only of a complete logical message.
    pub whole_messages: bool,
}

impl MessageSelector {
    /// Whether `entry`'s own fields match (the conditions on its whole group are
    /// [`GroupIndex::eligible`]'s).
    pub fn matches(&self, entry: &MessageEntry) -> bool {
        self.key.is_none_or(|key| key == entry.key)
            && self.message_id.is_none_or(|id| id == entry.message_id)
            && self
                .correlation_id
                .is_none_or(|id| id == entry.correlation_id)
            && self.matches_group_fields(entry)
    }

    fn matches_group_fields(&self, entry: &MessageEntry) -> bool {
        if self.group_id.is_none()
            && self.sequence_in_group.is_none()
            && self.segment_offset.is_none()
        {
            return true;
        }
        let (group_id, sequence, offset) = match &entry.group {
            Some(member) => (member.group_id, member.sequence, member.offset),
            None => (NO_IDENTIFIER, 1, 0),
        };
        self.group_id.is_none_or(|id| id == group_id)
            && self
                .sequence_in_group
                .is_none_or(|wanted| wanted == sequence)
            && self.segment_offset.is_none_or(|wanted| wanted == offset)
    }

    /// Whether the selector takes any message: no match field, no key, no group condition
    /// (the plain MQGET of MP16's workloads).
    pub fn selects_any(&self) -> bool {
        self.key.is_none()
            && self.message_id.is_none()
            && self.correlation_id.is_none()
            && !self.has_group_conditions()
    }

    /// Whether the selector says anything about groups or segments.
    pub fn has_group_conditions(&self) -> bool {
        self.group_id.is_some()
            || self.sequence_in_group.is_some()
            || self.segment_offset.is_some()
            || self.whole_groups
            || self.whole_messages
    }
}

/// A queue's committed messages in delivery order (one FIFO lane per priority).
pub type QueueMessages = super::delivery_order::DeliveryOrder;

#[derive(Default)]
struct QueueState {
    /// Boxed: a commit inserting a few slots from a lane's back, or a lane's compaction,
    /// moves 16-byte slots, not the ~110-byte entries.
    messages: QueueMessages,
    by_message_id: IdentifierIndex,
    by_correlation_id: IdentifierIndex,
    /// Groups and segmented messages (groups.rs).
    groups: GroupIndex,
    open_input_count: u64,
    open_output_count: u64,
    /// An MQOPEN handle holds the queue with MQOO_INPUT_EXCLUSIVE.
    open_input_exclusive: bool,
    last_put_ms: u64,
    last_get_ms: u64,
    /// No committed message expires before this time (u64::MAX: none can expire), so the
    /// expiry scan skips a queue without looking at its messages.
    earliest_expiry_ms: u64,
    /// RESET QSTATS counters since `statistics_reset_ms`.
    statistics: QueueStatistics,
    /// STATQ counts of the current statistics interval.
    interval: IntervalCounts,
    /// Messages locked by a browse with MQGMO_LOCK, with their lock holder (at most one per
    /// holder): invisible to every other holder until unlocked or got.
    locks: HashMap<MessageKey, u64>,
    /// Getters parked waiting for a message, each with the selector it waits for: an arrival
    /// wakes only the getters it can satisfy, so a reply put for one of 64 requesters waiting
    /// by CorrelId wakes one thread, not 64.
    parked: Vec<Arc<ParkedGetter>>,
    /// QINDXBLD(NOWAIT): restart left the restored messages out of the MSGID/CORRELID
    /// indexes; the background builder indexes them a chunk at a time in key order (up to
    /// `index_cursor`), and a get by an indexed identifier indexes the rest itself
    /// (`build_index`). Puts and gets keep maintaining the indexes meanwhile (inserting a key
    /// twice is harmless), so once the builder passes the end every message is indexed.
    index_pending: bool,
    /// The last key the builder has indexed (`None`: it has not started).
    index_cursor: Option<MessageKey>,
    /// Whether puts and gets maintain the MSGID / CORRELID index now: from the start for the
    /// queue's INDXTYPE, otherwise from the first get or browse by that identifier, which
    /// builds it (one walk of the queue) so that every later one costs the same at any depth.
    /// A queue never asked by identifier pays no index maintenance per message.
    indexed_message_id: bool,
    indexed_correlation_id: bool,
}

/// A getter waiting for a message it can take (or a browse or wait that takes nothing).
/// A thread parked on `woken`, or (an [`ArrivalWatch`], `waker` set) a callback that resumes
/// the getter elsewhere.
struct ParkedGetter {
    selector: MessageSelector,
    woken: Condvar,
    /// A destructive get: one arrival can satisfy only one of these, so an arrival wakes the
    /// first such getter it matches, not all of them. Browses and waits that take nothing
    /// are all woken.
    takes: bool,
    /// Notified and not yet running again (set and read under the queue's lock): the next
    /// arrival wakes another getter, so two arrivals never both go to one sleeper.
    notified: AtomicBool,
    /// Set for an [`ArrivalWatch`]: called instead of notifying `woken`.
    waker: Option<ArrivalWaker>,
}

impl ParkedGetter {
    fn new(selector: &MessageSelector, takes: bool) -> Arc<ParkedGetter> {
        Arc::new(ParkedGetter {
            selector: selector.clone(),
            woken: Condvar::new(),
            takes,
            notified: AtomicBool::new(false),
            waker: None,
        })
    }

    fn notify(&self) {
        self.notified.store(true, Ordering::Relaxed);
        match &self.waker {
            Some(waker) => waker(),
            None => self.woken.notify_one(),
        }
    }
}

impl std::fmt::Debug for ParkedGetter {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ParkedGetter")
            .field("selector", &self.selector)
            .field("takes", &self.takes)
            .field("watch", &self.waker.is_some())
            .finish()
    }
}

/// Called, under the queue's lock, when a message an [`ArrivalWatch`] waits for arrives, when
/// the queue is deleted or when the queue manager wakes every getter (quiescing, stopping). It
/// must be quick and must not touch the queue (it typically marks a waiting get runnable).
pub type ArrivalWaker = Arc<dyn Fn() + Send + Sync>;

/// A getter waiting without a thread (a client's waiting MQGET or asynchronous consumer served
/// by the channel initiator's adapters): its waker is called as a parked thread would be
/// notified. Dropping the watch stops the calls. The waker may be called more than once and
/// after a message has been taken by someone else: the getter simply tries again.
pub struct ArrivalWatch {
    queue: Arc<LocalQueue>,
    parked: Arc<ParkedGetter>,
    ready_at_start: bool,
}

impl ArrivalWatch {
    /// Whether a message the watch selects (or the queue's deletion) was already there when
    /// it was set, so its waker was called at once. A get that then finds nothing is waiting
    /// for something narrower than the watch (a SelectionString): watching again would only
    /// fire again at once.
    pub fn was_ready_at_start(&self) -> bool {
        self.ready_at_start
    }
}

impl Drop for ArrivalWatch {
    fn drop(&mut self) {
        let mut state = self.queue.state();
        state
            .parked
            .retain(|other| !Arc::ptr_eq(other, &self.parked));
    }
}

impl std::fmt::Debug for ArrivalWatch {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ArrivalWatch")
            .field("selector", &self.parked.selector)
            .finish()
    }
}

/// The counters RESET QSTATS reports (and resets), MQ's names in the comments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueueStatistics {
    /// MSGSIN: messages made available on the queue (committed puts; a backed-out get that
    /// returns a message is not counted again).
    pub messages_in: u64,
    /// MSGSOUT: messages got (destructively), including gets later backed out.
    pub messages_out: u64,
    /// HIQDEPTH: the greatest CURDEPTH (uncommitted puts included) seen.
    pub high_depth: u64,
    /// When the counters were last reset (the queue's creation or restart before any reset),
    /// milliseconds since the Unix epoch; RESETINT is measured from here.
    pub reset_ms: u64,
}

/// STATQ: one statistics interval's figures of a queue (MQ distributed's queue statistics,
/// MQCMD_STATISTICS_Q). Counts by persistence are [non-persistent, persistent].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueueIntervalStatistics {
    /// Messages made available on the queue by MQPUT and MQPUT1 (committed puts).
    pub puts: [u64; 2],
    /// Messages got destructively (including gets later backed out).
    pub gets: [u64; 2],
    /// Data bytes of the messages got.
    pub get_bytes: [u64; 2],
    /// The fewest and most committed messages on the queue during the interval.
    pub depth_min: u64,
    pub depth_max: u64,
    /// Expired messages removed (by a get that met them or the expiry scan).
    pub expired: u64,
    /// Time on queue of the messages got (with a put time), µs in all, and how many.
    pub time_on_queue_us: [u64; 2],
    pub timed_gets: [u64; 2],
    /// Data bytes of the messages MQPUT and MQPUT1 stored (at the put, committed or not).
    pub put_bytes: [u64; 2],
    /// MQPUT and MQPUT1 calls on the queue that failed.
    pub puts_failed: u64,
    /// Destructive MQGET calls on the queue that failed (MQRC_NO_MSG_AVAILABLE included).
    pub gets_failed: u64,
    /// Messages browsed, their data bytes, and browses that failed.
    pub browses: [u64; 2],
    pub browse_bytes: [u64; 2],
    pub browses_failed: u64,
    /// Messages removed by CLEAR QLOCAL.
    pub purged: u64,
}

impl QueueIntervalStatistics {
    /// The average time on queue of the messages got, µs: [non-persistent, persistent].
    pub fn average_time_on_queue_us(&self) -> [u64; 2] {
        std::array::from_fn(|kind| {
            self.time_on_queue_us[kind]
                .checked_div(self.timed_gets[kind])
                .unwrap_or(0)
        })
    }
}

/// The part of [`QueueIntervalStatistics`] kept under the queue's lock.
#[derive(Clone, Debug, Default)]
struct IntervalCounts {
    puts: [u64; 2],
    gets: [u64; 2],
    depth_min: u64,
    depth_max: u64,
    expired: u64,
    purged: u64,
}

/// The part of [`QueueIntervalStatistics`] a get adds after it leaves the queue's lock
/// (its data length and time on queue are known only then): relaxed atomics on a line of
/// their own.
#[derive(Default)]
struct GotCounters {
    get_bytes: [AtomicU64; 2],
    time_on_queue_us: [AtomicU64; 2],
    timed_gets: [AtomicU64; 2],
    /// What the MQI layer adds after its calls (`LocalQueue::count_put`,
    /// `LocalQueue::count_get_call`).
    put_bytes: [AtomicU64; 2],
    puts_failed: AtomicU64,
    gets_failed: AtomicU64,
    browses: [AtomicU64; 2],
    browse_bytes: [AtomicU64; 2],
    browses_failed: AtomicU64,
}

/// Messages by identifier. Most identifiers (every MSGID, most CORRELIDs) belong to one
/// message, which takes no allocation beyond the hash entry; shared identifiers keep their
/// messages in delivery order, so a get by CORRELID stays cheap with thousands sharing it.
#[derive(Default)]
struct IdentifierIndex {
    map: HashMap<Identifier, KeySet, FastHashing>,
}

enum KeySet {
    One(MessageKey),
    Many(BTreeSet<MessageKey>),
}

impl IdentifierIndex {
    /// One hash lookup for an identifier not yet in the index (every MSGID).
    fn insert(&mut self, id: Identifier, key: MessageKey) {
        use std::collections::hash_map::Entry;
        match self.map.entry(id) {
            Entry::Vacant(vacant) => {
                vacant.insert(KeySet::One(key));
            }
            Entry::Occupied(mut occupied) => match occupied.get_mut() {
                KeySet::One(existing) if *existing == key => {}
                KeySet::One(existing) => {
                    let existing = *existing;
                    occupied.insert(KeySet::Many(BTreeSet::from([existing, key])));
                }
                KeySet::Many(keys) => {
                    keys.insert(key);
                }
            },
        }
    }

    /// One hash lookup for an identifier of one message (every MSGID).
    fn remove(&mut self, id: &Identifier, key: MessageKey) {
        use std::collections::hash_map::Entry;
        let Entry::Occupied(mut occupied) = self.map.entry(*id) else {
            return;
        };
        let empty = match occupied.get_mut() {
            KeySet::One(existing) => *existing == key,
            KeySet::Many(keys) => {
                keys.remove(&key);
                keys.is_empty()
            }
        };
        if empty {
            occupied.remove();
        }
    }

    /// The first key for `id`, in delivery order, that `accept` takes.
    fn first(&self, id: &Identifier, accept: impl Fn(&MessageKey) -> bool) -> Option<MessageKey> {
        match self.map.get(id)? {
            KeySet::One(key) => accept(key).then_some(*key),
            KeySet::Many(keys) => keys.iter().find(|key| accept(key)).copied(),
        }
    }
}

/// Definition snapshots a thread keeps (a small fully associative cache, by generation).
const DEFINITION_SNAPSHOTS_PER_THREAD: usize = 8;

/// Generations of queue definitions, process-wide: every definition a queue is created with
/// or altered to gets the next one, so a generation names one definition of one queue forever
/// (a thread's snapshot can never be mistaken for another queue's or an older one).
static DEFINITION_GENERATION: AtomicU64 = AtomicU64::new(1);

/// A thread's definition snapshots: `(generation, definition)` in any slot (a lookup compares
/// every slot's generation, so two queues a thread alternates between never evict each other),
/// and the slot the next miss replaces (round robin).
struct DefinitionSnapshots {
    slots: [Option<(u64, Arc<QueueDefinition>)>; DEFINITION_SNAPSHOTS_PER_THREAD],
    next_victim: usize,
}

thread_local! {
    /// This thread's snapshots.
    static DEFINITION_SNAPSHOTS: std::cell::RefCell<DefinitionSnapshots> =
        const {
            std::cell::RefCell::new(DefinitionSnapshots {
                slots: [const { None }; DEFINITION_SNAPSHOTS_PER_THREAD],
                next_victim: 0,
            })
        };
}

/// A queue's definition, read by every MQPUT and MQGET (several attributes each) and written
/// only by ALTER. A read lock per read would make both processors write the lock's cache
/// line several times per message; instead each thread keeps an `Arc` snapshot of the
/// definition, checked against `generation` (one load of a line only ALTER writes). A
/// snapshot is refreshed, under the read lock, when the generation has moved on.
///
/// Contract: a call that starts after [`DefinitionCell::replace`] returned sees the new
/// definition (the generation is stored after the definition, with Release, and loaded with
/// Acquire). Memory: at most [`DEFINITION_SNAPSHOTS_PER_THREAD`] old definitions per thread
/// stay alive until the thread's slot is reused or the thread ends.
struct DefinitionCell {
    current: RwLock<Arc<QueueDefinition>>,
    generation: AtomicU64,
}

impl DefinitionCell {
    fn new(definition: QueueDefinition) -> DefinitionCell {
        DefinitionCell {
            current: RwLock::new(Arc::new(definition)),
            generation: AtomicU64::new(DEFINITION_GENERATION.fetch_add(1, Ordering::Relaxed)),
        }
    }

    fn current(&self) -> Arc<QueueDefinition> {
        self.current.read().unwrap().clone()
    }

    fn replace(&self, definition: QueueDefinition) {
        let mut current = self.current.write().unwrap();
        *current = Arc::new(definition);
        let generation = DEFINITION_GENERATION.fetch_add(1, Ordering::Relaxed);
        self.generation.store(generation, Ordering::Release);
    }

    fn with<R>(&self, f: impl FnOnce(&QueueDefinition) -> R) -> R {
        let generation = self.generation.load(Ordering::Acquire);
        // A hit runs `f` on the snapshot in place, under a shared borrow of this thread's
        // slots (f may read another queue's definition: shared borrows nest), touching no
        // reference count and writing nothing but the borrow flag.
        let mut f = Some(f);
        let hit = DEFINITION_SNAPSHOTS
            .try_with(|snapshots| {
                let snapshots = snapshots.try_borrow().ok()?;
                let definition = snapshots.slots.iter().find_map(|snapshot| match snapshot {
                    Some((held, definition)) if *held == generation => Some(definition),
                    _ => None,
                })?;
                let f = f.take().expect("f runs once");
                Some(f(definition))
            })
            .ok()
            .flatten();
        if let Some(result) = hit {
            return result;
        }
        let f = f.take().expect("a miss has not run f");
        // Under the read lock the generation and the definition agree (replace changes both
        // under the write lock).
        let (held, definition) = {
            let current = self.current.read().unwrap();
            (self.generation.load(Ordering::Acquire), current.clone())
        };
        let result = f(&definition);
        // Kept for the next call, unless a caller up the stack is reading a snapshot now.
        let _ = DEFINITION_SNAPSHOTS.try_with(|snapshots| {
            if let Ok(mut snapshots) = snapshots.try_borrow_mut() {
                let victim = snapshots.next_victim;
                snapshots.next_victim = (victim + 1) % DEFINITION_SNAPSHOTS_PER_THREAD;
                snapshots.slots[victim] = Some((held, definition));
            }
        });
        result
    }
}

/// A value alone on its 64-byte cache line(s). A queue's reference count, its mutex and the
/// atomics beside it are written by both processors on every message; what every call only
/// reads (the definition's generation, the deleted mark) is kept off those lines, so reading
/// it does not miss in the cache each time the other processor took a reference or the lock.
#[repr(align(64))]
struct CacheLine<T>(T);

impl<T> std::ops::Deref for CacheLine<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// What MAXDEPTH, CURDEPTH, UNCOM and HIQDEPTH count, kept outside the queue's mutex so that
/// an MQPUT reserves its place and an MQCMIT of a get gives one back without taking the lock
/// (a put and its commit take the lock once, to make the message visible). One cache line:
/// the putters and the getters write these on every message either way, so the other figures
/// written on every put or get (the depth hint, QTIME's averages) share it rather than each
/// moving between the processors on lines of their own.
struct DepthCounters {
    /// Every message MAXDEPTH counts: committed ones in the map, uncommitted puts and
    /// uncommitted gets. A put claims its place with a compare-and-swap that never passes
    /// MAXDEPTH; every change of the map's size made outside a commit or backout of a unit of
    /// work is applied here too.
    claimed: AtomicU64,
    /// Uncommitted puts (they count towards CURDEPTH, and UNCOM).
    uncommitted_puts: AtomicU64,
    /// Uncommitted gets (the messages are out of the map; UNCOM).
    uncommitted_gets: AtomicU64,
    /// HIQDEPTH since the last RESET QSTATS: the most committed messages and uncommitted
    /// puts a reservation saw.
    high_depth: AtomicU64,
    /// Committed messages in the map, as of the last change (read without the lock to
    /// decide on read-ahead; [`LocalQueue::depth`] is the exact figure).
    depth_hint: AtomicU64,
    /// QTIME: time on queue of recently got messages, in microseconds, short-term and
    /// long-term moving averages ([`TIME_ON_QUEUE_NONE`] until a message with a put time has
    /// been got). Outside the mutex: getters blending at the same moment may lose a sample,
    /// which an average over the last few messages can afford, and a get takes the queue's
    /// lock once less.
    time_on_queue_short_us: AtomicU64,
    time_on_queue_long_us: AtomicU64,
}

impl Default for DepthCounters {
    fn default() -> DepthCounters {
        DepthCounters {
            claimed: AtomicU64::new(0),
            uncommitted_puts: AtomicU64::new(0),
            uncommitted_gets: AtomicU64::new(0),
            high_depth: AtomicU64::new(0),
            depth_hint: AtomicU64::new(0),
            time_on_queue_short_us: AtomicU64::new(TIME_ON_QUEUE_NONE),
            time_on_queue_long_us: AtomicU64::new(TIME_ON_QUEUE_NONE),
        }
    }
}

// The counters fill at most the one cache line they are aligned to.
const _: () = assert!(std::mem::size_of::<CacheLine<DepthCounters>>() == 64);

/// Messages the background index builder (QINDXBLD(NOWAIT)) indexes per hold of the queue's
/// lock: small enough that a get or put waits at most about a millisecond for it.
pub const INDEX_BUILD_CHUNK_MESSAGES: usize = 4096;

pub struct LocalQueue {
    pub object_id: u32,
    /// The queue's name: fixed for the queue's life (ALTER and DEFINE REPLACE keep it), so
    /// reading it takes no lock.
    name: Box<str>,
    /// The definition ALTER last set, read through [`LocalQueue::with_definition`]'s
    /// per-thread snapshots (see [`DefinitionCell`]).
    definition: CacheLine<DefinitionCell>,
    state: Mutex<QueueState>,
    /// Bumped by every arrival, so a getter spinning before it parks sees one without the lock.
    arrivals: AtomicU64,
    /// The queue's depth counters, depth hint and QTIME averages, changed without its lock
    /// (see [`DepthCounters`]).
    counters: CacheLine<DepthCounters>,
    /// STATQ: what gets add to the interval's statistics outside the lock.
    got: CacheLine<GotCounters>,
    /// Getters spinning for an arrival now (at most [`LocalQueue::SPINNING_GETTERS_MAX`]; the
    /// others park at once, leaving the processors to the putters).
    spinning_getters: AtomicU32,
    /// The queue was deleted (DELETE QLOCAL, a dynamic queue's MQCLOSE or its creator's end):
    /// handles still holding it get MQRC_Q_DELETED, waiting getters stop waiting.
    deleted: CacheLine<AtomicBool>,
}

/// Figures for DISPLAY QSTATUS.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueueStatus {
    pub current_depth: u64,
    pub uncommitted: u64,
    pub open_input_count: u64,
    pub open_output_count: u64,
    pub last_put_ms: u64,
    pub last_get_ms: u64,
    pub oldest_message_sequence: Option<u64>,
    /// QTIME: short-term and long-term average time on queue of got messages, microseconds.
    pub time_on_queue_us: Option<(u64, u64)>,
}

impl LocalQueue {
    pub fn new(object_id: u32, definition: QueueDefinition) -> LocalQueue {
        // INDXTYPE(MSGID) and INDXTYPE(CORRELID) index from the start; any queue indexes an
        // identifier from the first get by it (QueueState::indexed_message_id).
        let index_message_id = definition.index_type == "MSGID";
        let index_correlation_id = definition.index_type == "CORRELID";
        LocalQueue {
            object_id,
            name: definition.name.clone().into_boxed_str(),
            definition: CacheLine(DefinitionCell::new(definition)),
            state: Mutex::new(QueueState {
                statistics: QueueStatistics {
                    reset_ms: super::now_ms(),
                    ..QueueStatistics::default()
                },
                indexed_message_id: index_message_id,
                indexed_correlation_id: index_correlation_id,
                ..QueueState::default()
            }),
            arrivals: AtomicU64::new(0),
            spinning_getters: AtomicU32::new(0),
            counters: CacheLine(DepthCounters::default()),
            got: CacheLine(GotCounters::default()),
            deleted: CacheLine(AtomicBool::new(false)),
        }
    }

    pub fn definition(&self) -> QueueDefinition {
        (*self.definition.current()).clone()
    }

    /// Read attributes of the definition without copying it (the put and get paths): from
    /// this thread's snapshot while ALTER has not replaced it, so the call writes no memory
    /// another processor reads (see [`DefinitionCell`]).
    pub fn with_definition<R>(&self, f: impl FnOnce(&QueueDefinition) -> R) -> R {
        self.definition.with(f)
    }

    /// ALTER QLOCAL, DEFINE REPLACE: the new definition, seen by every call that starts after
    /// this returns. The name cannot change (queues are found by it).
    pub fn set_definition(&self, definition: QueueDefinition) {
        assert_eq!(
            *definition.name, *self.name,
            "a queue's name is fixed for its life"
        );
        self.definition.replace(definition);
    }

    pub fn name(&self) -> String {
        self.name.to_string()
    }

    /// The queue's name without copying it.
    pub fn name_str(&self) -> &str {
        &self.name
    }

    fn state(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap()
    }

    fn index(state: &mut QueueState, entry: &MessageEntry) {
        let QueueState {
            groups, messages, ..
        } = state;
        groups.insert(entry.key, entry.group.as_deref(), || {
            Box::new(messages.keys().copied())
        });
        if state.indexed_message_id && entry.message_id != NO_IDENTIFIER {
            state.by_message_id.insert(entry.message_id, entry.key);
        }
        if state.indexed_correlation_id && entry.correlation_id != NO_IDENTIFIER {
            state
                .by_correlation_id
                .insert(entry.correlation_id, entry.key);
        }
    }

    fn unindex(state: &mut QueueState, entry: &MessageEntry) {
        state.groups.remove(entry.key, entry.group.as_deref());
        if state.indexed_message_id {
            state.by_message_id.remove(&entry.message_id, entry.key);
        }
        if state.indexed_correlation_id {
            state
                .by_correlation_id
                .remove(&entry.correlation_id, entry.key);
        }
    }

    /// Reserve room for an uncommitted put; false when MAXDEPTH is reached (MQRC_Q_FULL).
    /// No lock: a compare-and-swap on the claimed depth, so two putters racing for the last
    /// place cannot both have it.
    pub fn reserve_put(&self, max_depth: u32) -> bool {
        let counters = &self.counters;
        let claim = counters
            .claimed
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |claimed| {
                (claimed < max_depth as u64).then_some(claimed + 1)
            });
        let Ok(before) = claim else {
            return false;
        };
        counters.uncommitted_puts.fetch_add(1, Ordering::AcqRel);
        // Committed messages and uncommitted puts: what was claimed less the uncommitted gets
        // (read a moment apart: HIQDEPTH is a high-water mark, not a ledger).
        let depth = (before + 1).saturating_sub(counters.uncommitted_gets.load(Ordering::Acquire));
        if depth > counters.high_depth.load(Ordering::Relaxed) {
            counters.high_depth.fetch_max(depth, Ordering::Relaxed);
        }
        true
    }

    /// Undo a reservation whose put failed or was backed out.
    pub fn release_put(&self) {
        let previous = self
            .counters
            .uncommitted_puts
            .fetch_sub(1, Ordering::AcqRel);
        assert!(previous > 0, "put reservations balance");
        self.unclaim(1);
    }

    /// `count` messages left the depth MAXDEPTH counts.
    fn unclaim(&self, count: u64) {
        let previous = self.counters.claimed.fetch_sub(count, Ordering::AcqRel);
        assert!(previous >= count, "the claimed depth balances");
    }

    /// `count` messages joined the depth MAXDEPTH counts without a reservation (restored at
    /// restart, or put back by a get that failed after taking them).
    fn claim(&self, count: u64) {
        self.counters.claimed.fetch_add(count, Ordering::AcqRel);
    }

    /// A committed message becomes available; wakes waiting getters.
    pub fn insert(&self, entry: MessageEntry, was_reserved: bool, now_ms: u64) {
        let mut state = self.state();
        if was_reserved {
            // The reservation becomes the message (the claimed depth is unchanged).
            let previous = self
                .counters
                .uncommitted_puts
                .fetch_sub(1, Ordering::AcqRel);
            assert!(previous > 0, "put reservations balance");
        } else {
            self.claim(1);
        }
        Self::index(&mut state, &entry);
        state.last_put_ms = state.last_put_ms.max(now_ms);
        if was_reserved {
            state.statistics.messages_in += 1;
            state.interval.puts[usize::from(entry.persistent)] += 1;
        }
        if let Some(at) = entry.expires_at_ms {
            state.earliest_expiry_ms = state.earliest_expiry_ms.min(at);
        }
        Self::wake_parked_for(&state, &entry);
        state.messages.insert(entry.key, entry);
        self.note_depth(&mut state);
        self.arrivals.fetch_add(1, Ordering::Release);
        drop(state);
    }

    /// Restart: add a queue's restored messages, in delivery order, under one lock. Without
    /// `build_index` (QINDXBLD(NOWAIT)) the indexes are left for [`LocalQueue::build_index`].
    pub fn insert_restored(&self, entries: Vec<MessageEntry>, build_index: bool) {
        let mut state = self.state();
        let defer = !build_index && (state.indexed_message_id || state.indexed_correlation_id);
        if defer {
            state.index_pending = true;
            state.index_cursor = None;
        }
        let restored = entries.len() as u64;
        for entry in entries {
            if !defer {
                Self::index(&mut state, &entry);
            }
            if let Some(at) = entry.expires_at_ms {
                state.earliest_expiry_ms = state.earliest_expiry_ms.min(at);
            }
            state.messages.insert(entry.key, entry);
        }
        self.note_depth(&mut state);
        self.claim(restored);
        self.counters
            .high_depth
            .fetch_max(state.messages.len() as u64, Ordering::Relaxed);
    }

    /// QINDXBLD(NOWAIT): build the indexes restart left unbuilt. Returns false if there was
    /// nothing to build. Holds the queue's lock meanwhile: gets on the queue wait for it.
    pub fn build_index(&self) -> bool {
        let mut built = false;
        loop {
            let mut state = self.state();
            if !state.index_pending {
                return built;
            }
            built = true;
            self.index_from_cursor(&mut state, INDEX_BUILD_CHUNK_MESSAGES);
            // The lock is released between chunks: gets and puts go on meanwhile.
        }
    }

    /// Whether the indexes are still to be built (QINDXBLD(NOWAIT) after a restart).
    pub fn index_pending(&self) -> bool {
        self.state().index_pending
    }

    /// Index up to `limit` messages after the builder's cursor; the end reached, the index is
    /// complete.
    fn index_from_cursor(&self, state: &mut QueueState, limit: usize) {
        let QueueState {
            messages,
            by_message_id,
            by_correlation_id,
            index_cursor,
            index_pending,
            indexed_message_id,
            indexed_correlation_id,
            ..
        } = state;
        let lower = match *index_cursor {
            Some(key) => std::ops::Bound::Excluded(key),
            None => std::ops::Bound::Unbounded,
        };
        let unindexed = messages.range((lower, std::ops::Bound::Unbounded));
        for (count, (key, entry)) in unindexed.enumerate() {
            if count == limit {
                return;
            }
            if *indexed_message_id && entry.message_id != NO_IDENTIFIER {
                by_message_id.insert(entry.message_id, *key);
            }
            if *indexed_correlation_id && entry.correlation_id != NO_IDENTIFIER {
                by_correlation_id.insert(entry.correlation_id, *key);
            }
            *index_cursor = Some(*key);
        }
        *index_pending = false;
        *index_cursor = None;
    }

    /// A get or browse by an indexed identifier on a queue whose index is pending builds it
    /// first (QINDXBLD(NOWAIT): the application pays for the build, as in MQ).
    /// A get or browse by an identifier the queue does not index yet starts the index: every
    /// message now, every put and get from here on.
    fn ensure_index_for(&self, state: &mut QueueState, selector: &MessageSelector) {
        if selector.message_id.is_some() && !state.indexed_message_id {
            let QueueState {
                messages,
                by_message_id,
                ..
            } = state;
            for (key, entry) in messages.iter() {
                if entry.message_id != NO_IDENTIFIER {
                    by_message_id.insert(entry.message_id, *key);
                }
            }
            state.indexed_message_id = true;
        }
        if selector.correlation_id.is_some() && !state.indexed_correlation_id {
            let QueueState {
                messages,
                by_correlation_id,
                ..
            } = state;
            for (key, entry) in messages.iter() {
                if entry.correlation_id != NO_IDENTIFIER {
                    by_correlation_id.insert(entry.correlation_id, *key);
                }
            }
            state.indexed_correlation_id = true;
        }
        if state.index_pending
            && (selector.message_id.is_some() || selector.correlation_id.is_some())
        {
            self.index_from_cursor(state, usize::MAX);
        }
    }

    /// Restore a message whose getter backed out (it was counted as an uncommitted get).
    pub fn restore(&self, entry: MessageEntry) {
        let mut state = self.state();
        self.get_resolved();
        self.return_to_place(&mut state, entry);
    }

    /// A message [`LocalQueue::take_visible_to`] took for a get that did not complete (its
    /// data could not be read, or it did not fit and the get left it: MQRC_TRUNCATED_MSG_FAILED)
    /// goes back in its place, as if never taken: `in_unit_of_work` as the take was told, so
    /// an uncommitted get ends, or the message claims its MAXDEPTH place again; and MSGSOUT
    /// (RESET QSTATS, the statistics events) no longer counts it, for it was never got.
    /// LGETDATE and LGETTIME keep the take's time: the get did look at the queue then.
    pub fn put_back(&self, entry: MessageEntry, in_unit_of_work: bool) {
        let mut state = self.state();
        // Saturating: a RESET QSTATS since the take may have zeroed the count.
        state.statistics.messages_out = state.statistics.messages_out.saturating_sub(1);
        let gets = &mut state.interval.gets[usize::from(entry.persistent)];
        *gets = gets.saturating_sub(1);
        if in_unit_of_work {
            self.get_resolved();
        } else {
            self.claim(1);
        }
        self.return_to_place(&mut state, entry);
    }

    /// A message taken out comes back in its place, under the lock (`state`), waking a getter
    /// waiting for it; the depth counters are the caller's.
    fn return_to_place(&self, state: &mut QueueState, entry: MessageEntry) {
        if let Some(at) = entry.expires_at_ms {
            state.earliest_expiry_ms = state.earliest_expiry_ms.min(at);
        }
        Self::index(state, &entry);
        Self::wake_parked_for(state, &entry);
        state.messages.insert(entry.key, entry);
        self.note_depth(state);
        self.arrivals.fetch_add(1, Ordering::Release);
    }

    /// Restart: a message got by a unit of recovery left in doubt stays out of the queue,
    /// counted as an uncommitted get, until the unit is resolved.
    pub fn hold_for_in_doubt_get(&self) {
        self.counters
            .uncommitted_gets
            .fetch_add(1, Ordering::AcqRel);
        self.claim(1);
    }

    /// The uncommitted get of a message was committed: it leaves the depth MAXDEPTH counts.
    /// Its claim goes first: a reservation between the two then sees the depth one low for an
    /// instant rather than one high, so HIQDEPTH never shows a depth the queue did not have.
    pub fn get_committed(&self) {
        self.unclaim(1);
        self.get_resolved();
    }

    /// An uncommitted get ended (committed, or backed out with the message restored).
    fn get_resolved(&self) {
        let previous = self
            .counters
            .uncommitted_gets
            .fetch_sub(1, Ordering::AcqRel);
        assert!(previous > 0, "get counts balance");
    }

    /// Note the map's size for [`LocalQueue::depth_hint`] (under the lock, after a change).
    fn note_depth(&self, state: &mut QueueState) {
        let depth = state.messages.len() as u64;
        self.counters.depth_hint.store(depth, Ordering::Relaxed);
        let interval = &mut state.interval;
        interval.depth_min = interval.depth_min.min(depth);
        interval.depth_max = interval.depth_max.max(depth);
    }

    /// Committed messages available, as of the last change, without taking the queue's
    /// lock: for decisions a moment's staleness does not spoil (read-ahead).
    pub fn depth_hint(&self) -> u64 {
        self.counters.depth_hint.load(Ordering::Relaxed)
    }

    /// Whether `key` is visible to `holder`: not locked, or locked by it.
    fn visible(state: &QueueState, key: &MessageKey, holder: u64) -> bool {
        state.locks.is_empty() || state.locks.get(key).is_none_or(|locker| *locker == holder)
    }

    fn first_match(
        &self,
        state: &QueueState,
        selector: &MessageSelector,
        after: Option<MessageKey>,
        holder: u64,
    ) -> Option<MessageKey> {
        // Any message, from the start, none locked: the front of the highest lane.
        if after.is_none() && selector.selects_any() && state.locks.is_empty() {
            return state.messages.first().map(|entry| entry.key);
        }
        if let Some(key) = selector.key {
            let entry = state.messages.get(&key)?;
            let beyond = after.is_none_or(|after| key > after);
            return (beyond
                && selector.matches(entry)
                && state.groups.eligible(selector, entry)
                && Self::visible(state, &key, holder))
            .then_some(key);
        }
        let group_conditions = selector.has_group_conditions();
        if group_conditions {
            let visible = |key: &MessageKey| Self::visible(state, key, holder);
            if let Some(found) = state
                .groups
                .first(selector, after, &state.messages, visible)
            {
                return found;
            }
        }
        let lower = match after {
            Some(key) => std::ops::Bound::Excluded(key),
            None => std::ops::Bound::Unbounded,
        };
        let accept = |key: &MessageKey| {
            after.is_none_or(|after| *key > after)
                && state.messages.get(key).is_some_and(|entry| {
                    selector.matches(entry) && state.groups.eligible(selector, entry)
                })
                && Self::visible(state, key, holder)
        };
        // An indexed identifier is answered from its index, at the same cost at any depth.
        if let Some(id) = selector.message_id.filter(|_| state.indexed_message_id) {
            return state.by_message_id.first(&id, accept);
        }
        if let Some(id) = selector
            .correlation_id
            .filter(|_| state.indexed_correlation_id)
        {
            return state.by_correlation_id.first(&id, accept);
        }
        if !group_conditions {
            return state
                .messages
                .range((lower, std::ops::Bound::Unbounded))
                .find(|(key, entry)| selector.matches(entry) && Self::visible(state, key, holder))
                .map(|(key, _)| *key);
        }
        // Group conditions the group index has no set for: look at every message, counted.
        let mut steps = 0;
        let found = state
            .messages
            .range((lower, std::ops::Bound::Unbounded))
            .find(|(key, entry)| {
                steps += 1;
                selector.matches(entry)
                    && state.groups.eligible(selector, entry)
                    && Self::visible(state, key, holder)
            })
            .map(|(key, _)| *key);
        state.groups.count_steps(steps);
        found
    }

    /// Take the first matching message for a get, waiting up to `wait` for one to arrive.
    /// Expired messages met on the way are removed and returned in `expired` for deletion.
    /// With `in_unit_of_work`, the message counts as an uncommitted get until resolved.
    pub fn take(
        &self,
        selector: &MessageSelector,
        wait: Option<Duration>,
        now_ms: impl Fn() -> u64,
        in_unit_of_work: bool,
        expired: &mut Vec<MessageEntry>,
    ) -> Option<MessageEntry> {
        self.take_unless(selector, wait, now_ms, in_unit_of_work, expired, || false)
    }

    /// `take`, but a waiting getter gives up as soon as `interrupted` is true when it is woken
    /// (queue manager quiescing or stopping: [`LocalQueue::wake_all`] wakes it).
    pub fn take_unless(
        &self,
        selector: &MessageSelector,
        wait: Option<Duration>,
        now_ms: impl Fn() -> u64,
        in_unit_of_work: bool,
        expired: &mut Vec<MessageEntry>,
        interrupted: impl Fn() -> bool,
    ) -> Option<MessageEntry> {
        self.take_visible_to(
            NO_LOCK_HOLDER,
            selector,
            wait,
            now_ms,
            in_unit_of_work,
            expired,
            interrupted,
        )
    }

    /// `take_unless` for lock holder `holder`: messages other holders locked are skipped;
    /// taking the message `holder` locked releases its lock.
    #[allow(clippy::too_many_arguments)]
    pub fn take_visible_to(
        &self,
        holder: u64,
        selector: &MessageSelector,
        wait: Option<Duration>,
        now_ms: impl Fn() -> u64,
        in_unit_of_work: bool,
        expired: &mut Vec<MessageEntry>,
        interrupted: impl Fn() -> bool,
    ) -> Option<MessageEntry> {
        // The clock is read before the lock (not while holding it), and the deadline only once
        // the getter has to wait: a get that finds its message reads the clock once.
        let mut now = now_ms();
        let mut deadline = None;
        let mut state = self.state();
        self.ensure_index_for(&mut state, selector);
        let mut spun = false;
        let mut first_look = true;
        loop {
            if !first_look {
                now = now_ms();
            }
            first_look = false;
            while let Some(key) = self.first_match(&state, selector, None, holder) {
                let entry = state.messages.remove(&key).expect("key from the map");
                Self::unindex(&mut state, &entry);
                // Hashing the key for a map with nothing in it was 0.5% of a plain get.
                if !state.locks.is_empty() {
                    state.locks.remove(&key);
                }
                if entry.expires_at_ms.is_some_and(|at| at <= now) {
                    self.unclaim(1);
                    state.interval.expired += 1;
                    expired.push(entry);
                    continue;
                }
                if in_unit_of_work {
                    self.counters
                        .uncommitted_gets
                        .fetch_add(1, Ordering::AcqRel);
                } else {
                    self.unclaim(1);
                }
                self.note_depth(&mut state);
                state.statistics.messages_out += 1;
                state.interval.gets[usize::from(entry.persistent)] += 1;
                state.last_get_ms = now;
                return Some(entry);
            }
            if !expired.is_empty() {
                self.note_depth(&mut state);
            }
            let wait = wait?;
            let deadline = *deadline.get_or_insert_with(|| Instant::now() + wait);
            if interrupted() {
                return None;
            }
            let remaining = deadline.checked_duration_since(Instant::now())?;
            if !spun {
                spun = true;
                if let Some(_spinning) = self.spinning_getter() {
                    let seen = self.arrivals.load(Ordering::Acquire);
                    drop(state);
                    self.spin_for_arrival(seen, deadline);
                    state = self.state();
                    continue;
                }
            }
            spun = false;
            let parked = ParkedGetter::new(selector, true);
            state.parked.push(parked.clone());
            state = parked.woken.wait_timeout(state, remaining).unwrap().0;
            state.parked.retain(|other| !Arc::ptr_eq(other, &parked));
        }
    }

    /// Wait up to `wait` until a message `selector` selects is on the queue, without taking
    /// it, as lock holder `holder` sees the queue (MQGMO_COMPLETE_MSG waits for a whole logical message this way, then browses and
    /// gets its segments). Parks like a waiting getter: woken by an arrival it may want, never
    /// polling. True when one is there.
    pub fn wait_for(
        &self,
        selector: &MessageSelector,
        wait: Duration,
        holder: u64,
        interrupted: impl Fn() -> bool,
    ) -> bool {
        self.park_until(self.state(), selector, wait, interrupted, |state| {
            self.first_match(state, selector, None, holder)
        })
        .is_some()
    }

    /// The next matching message after `after` (browse), without removing it.
    pub fn browse(
        &self,
        selector: &MessageSelector,
        after: Option<MessageKey>,
    ) -> Option<MessageEntry> {
        self.browse_visible_to(NO_LOCK_HOLDER, selector, after)
    }

    /// `browse` for lock holder `holder` (messages other holders locked are skipped).
    pub fn browse_visible_to(
        &self,
        holder: u64,
        selector: &MessageSelector,
        after: Option<MessageKey>,
    ) -> Option<MessageEntry> {
        let mut state = self.state();
        self.ensure_index_for(&mut state, selector);
        self.first_match(&state, selector, after, holder)
            .map(|key| state.messages[&key].clone())
    }

    /// A waiting browse (MQGMO_WAIT with MQGMO_BROWSE_*): the next matching message after
    /// `after` visible to `holder`, waiting up to `wait` for one to arrive, without taking it.
    /// Parks like a waiting getter (woken by the arrival, never polling); gives up when
    /// `interrupted` is true on waking.
    pub fn browse_waiting(
        &self,
        holder: u64,
        selector: &MessageSelector,
        after: Option<MessageKey>,
        wait: Duration,
        interrupted: impl Fn() -> bool,
    ) -> Option<MessageEntry> {
        let mut state = self.state();
        self.ensure_index_for(&mut state, selector);
        self.park_until(state, selector, wait, interrupted, |state| {
            self.first_match(state, selector, after, holder)
                .map(|key| state.messages[&key].clone())
        })
    }

    /// MQGMO_LOCK: lock the message `key` for `holder`, releasing the holder's previous lock
    /// first. False when the message is no longer on the queue or another holder has it.
    pub fn lock(&self, holder: u64, key: MessageKey) -> bool {
        assert_ne!(holder, NO_LOCK_HOLDER, "lock holders are non-zero");
        let mut state = self.state();
        self.release_lock(&mut state, holder);
        if !state.messages.contains_key(&key) || !Self::visible(&state, &key, holder) {
            return false;
        }
        state.locks.insert(key, holder);
        debug_assert!(
            state
                .locks
                .values()
                .filter(|locker| **locker == holder)
                .count()
                == 1,
            "one locked message per holder"
        );
        true
    }

    /// MQGMO_UNLOCK (and MQCLOSE): release `holder`'s lock. Returns the message that was
    /// locked, if it is still on the queue (it becomes visible to everyone, and waiting
    /// getters it satisfies are woken).
    pub fn unlock(&self, holder: u64) -> Option<MessageKey> {
        let mut state = self.state();
        self.release_lock(&mut state, holder)
    }

    /// The message `holder` has locked, if any.
    pub fn locked_by(&self, holder: u64) -> Option<MessageKey> {
        let state = self.state();
        state
            .locks
            .iter()
            .find(|(_, locker)| **locker == holder)
            .map(|(key, _)| *key)
    }

    fn release_lock(&self, state: &mut QueueState, holder: u64) -> Option<MessageKey> {
        let key = state
            .locks
            .iter()
            .find(|(_, locker)| **locker == holder)
            .map(|(key, _)| *key)?;
        state.locks.remove(&key);
        if let Some(entry) = state.messages.get(&key) {
            Self::wake_parked_for(state, entry);
            self.arrivals.fetch_add(1, Ordering::Release);
        }
        Some(key)
    }

    /// Remove the committed messages that have expired by `now_ms` (the EXPRYINT scan);
    /// returns them for deletion. Costs nothing when no message can have expired yet.
    pub fn remove_expired(&self, now_ms: u64) -> Vec<MessageEntry> {
        let mut state = self.state();
        if state.earliest_expiry_ms > now_ms {
            return Vec::new();
        }
        let expired: Vec<MessageKey> = state
            .messages
            .values()
            .filter(|entry| entry.expires_at_ms.is_some_and(|at| at <= now_ms))
            .map(|entry| entry.key)
            .collect();
        let mut removed = Vec::with_capacity(expired.len());
        for key in expired {
            let entry = state.messages.remove(&key).expect("key from the map");
            Self::unindex(&mut state, &entry);
            state.locks.remove(&key);
            removed.push(entry);
        }
        self.unclaim(removed.len() as u64);
        state.interval.expired += removed.len() as u64;
        self.note_depth(&mut state);
        state.earliest_expiry_ms = state
            .messages
            .values()
            .filter_map(|entry| entry.expires_at_ms)
            .min()
            .unwrap_or(u64::MAX);
        removed
    }

    /// MQOPEN registers a handle: `input` is `Some(exclusive)` for MQOO_INPUT_*, `output` for
    /// MQOO_OUTPUT (IPPROCS and OPPROCS). False, and nothing registered, when the input mode
    /// conflicts with another handle's (MQRC_OBJECT_IN_USE): an exclusive opener excludes every
    /// other input opener.
    pub fn open_handle(&self, input: Option<bool>, output: bool) -> bool {
        let mut state = self.state();
        if let Some(exclusive) = input {
            if state.open_input_exclusive || (exclusive && state.open_input_count > 0) {
                return false;
            }
            state.open_input_count += 1;
            state.open_input_exclusive = exclusive;
        }
        if output {
            state.open_output_count += 1;
        }
        true
    }

    /// MQCLOSE (or the end of a connection) releases what `open_handle` registered.
    pub fn close_handle(&self, input: Option<bool>, output: bool) {
        let mut state = self.state();
        if let Some(exclusive) = input {
            state.open_input_count = state.open_input_count.saturating_sub(1);
            if exclusive {
                state.open_input_exclusive = false;
            }
        }
        if output {
            state.open_output_count = state.open_output_count.saturating_sub(1);
        }
    }

    /// Remove every committed message (CLEAR QLOCAL); returns them for deletion.
    pub fn drain(&self) -> Vec<MessageEntry> {
        let mut state = self.state();
        state.by_message_id = IdentifierIndex::default();
        state.by_correlation_id = IdentifierIndex::default();
        state.groups.clear();
        state.index_pending = false;
        state.index_cursor = None;
        state.locks.clear();
        let drained = std::mem::take(&mut state.messages);
        state.interval.purged += drained.len() as u64;
        self.unclaim(drained.len() as u64);
        self.note_depth(&mut state);
        drained.into_values().collect()
    }

    pub fn status(&self) -> QueueStatus {
        let state = self.state();
        // One reading, so CURDEPTH and UNCOM come from the same moment.
        let uncommitted_puts = self.uncommitted_puts();
        QueueStatus {
            current_depth: state.messages.len() as u64 + uncommitted_puts,
            uncommitted: uncommitted_puts + self.counters.uncommitted_gets.load(Ordering::Acquire),
            open_input_count: state.open_input_count,
            open_output_count: state.open_output_count,
            last_put_ms: state.last_put_ms,
            last_get_ms: state.last_get_ms,
            oldest_message_sequence: state.messages.oldest().map(|entry| entry.key.sequence),
            time_on_queue_us: self.time_on_queue_us(),
        }
    }

    /// Committed messages whose image is held in memory rather than on pages (a walk of the
    /// queue: for diagnostics and tests, not the put/get path).
    pub fn messages_in_memory(&self) -> u64 {
        let state = self.state();
        state
            .messages
            .values()
            .filter(|entry| entry.in_memory())
            .count() as u64
    }

    /// The committed message put first (smallest put sequence), whatever its priority: the
    /// message MSGAGE describes.
    pub fn oldest_entry(&self) -> Option<MessageEntry> {
        let state = self.state();
        state.messages.oldest().cloned()
    }

    /// QTIME: record the time on queue of a message just got. The short-term average follows
    /// the last few messages (weight 1/4), the long-term one a larger sample (weight 1/32).
    pub fn record_time_on_queue(&self, microseconds: u64) {
        // Below the "none" mark, so a recorded average is never taken for no average.
        let microseconds = microseconds.min(TIME_ON_QUEUE_NONE - 1);
        let blend = |average: &AtomicU64, weight: u64| {
            let blended = match average.load(Ordering::Relaxed) {
                TIME_ON_QUEUE_NONE => microseconds,
                average => {
                    ((average as u128 * (weight - 1) as u128 + microseconds as u128)
                        / weight as u128) as u64
                }
            };
            average.store(blended, Ordering::Relaxed);
        };
        blend(&self.counters.time_on_queue_short_us, 4);
        blend(&self.counters.time_on_queue_long_us, 32);
    }

    /// STATQ: a message of `data_bytes` was got, after `time_on_queue_us` on the queue when
    /// it had a put time.
    pub fn record_got(&self, persistent: bool, data_bytes: usize, time_on_queue_us: Option<u64>) {
        let kind = usize::from(persistent);
        let got = &self.got;
        got.get_bytes[kind].fetch_add(data_bytes as u64, Ordering::Relaxed);
        if let Some(microseconds) = time_on_queue_us {
            got.time_on_queue_us[kind].fetch_add(microseconds, Ordering::Relaxed);
            got.timed_gets[kind].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// STATQ: the figures of the interval that ends now, and a new interval begins (its
    /// depth range starts from the depth now).
    pub fn take_interval_statistics(&self) -> QueueIntervalStatistics {
        let mut state = self.state();
        let depth = state.messages.len() as u64;
        let counts = std::mem::replace(
            &mut state.interval,
            IntervalCounts {
                depth_min: depth,
                depth_max: depth,
                ..IntervalCounts::default()
            },
        );
        drop(state);
        let take = |counters: &[AtomicU64; 2]| -> [u64; 2] {
            std::array::from_fn(|kind| counters[kind].swap(0, Ordering::Relaxed))
        };
        let take_one = |counter: &AtomicU64| counter.swap(0, Ordering::Relaxed);
        let got = &self.got;
        QueueIntervalStatistics {
            puts: counts.puts,
            gets: counts.gets,
            get_bytes: take(&got.get_bytes),
            depth_min: counts.depth_min,
            depth_max: counts.depth_max,
            expired: counts.expired,
            time_on_queue_us: take(&got.time_on_queue_us),
            timed_gets: take(&got.timed_gets),
            put_bytes: take(&got.put_bytes),
            puts_failed: take_one(&got.puts_failed),
            gets_failed: take_one(&got.gets_failed),
            browses: take(&got.browses),
            browse_bytes: take(&got.browse_bytes),
            browses_failed: take_one(&got.browses_failed),
            purged: counts.purged,
        }
    }

    /// STATQ: an MQPUT or MQPUT1 on this queue stored a message of `bytes` (`Some`), or
    /// failed (`None`).
    pub fn count_put(&self, stored: Option<(bool, usize)>) {
        match stored {
            Some((persistent, bytes)) => {
                self.got.put_bytes[usize::from(persistent)]
                    .fetch_add(bytes as u64, Ordering::Relaxed);
            }
            None => {
                self.got.puts_failed.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// STATQ: an MQGET on this queue, browsing or not, returned a message of `bytes`
    /// (`Some`), or failed (`None`). A destructive get's message is counted under the lock
    /// already: only its failure is counted here.
    pub fn count_get_call(&self, browse: bool, returned: Option<(bool, usize)>) {
        let got = &self.got;
        match (browse, returned) {
            (true, Some((persistent, bytes))) => {
                got.browses[usize::from(persistent)].fetch_add(1, Ordering::Relaxed);
                got.browse_bytes[usize::from(persistent)]
                    .fetch_add(bytes as u64, Ordering::Relaxed);
            }
            (true, None) => {
                got.browses_failed.fetch_add(1, Ordering::Relaxed);
            }
            (false, None) => {
                got.gets_failed.fetch_add(1, Ordering::Relaxed);
            }
            (false, Some(_)) => {}
        }
    }

    /// QTIME's short-term and long-term averages, once a message with a put time was got.
    fn time_on_queue_us(&self) -> Option<(u64, u64)> {
        let short = self.counters.time_on_queue_short_us.load(Ordering::Relaxed);
        let long = self.counters.time_on_queue_long_us.load(Ordering::Relaxed);
        (short != TIME_ON_QUEUE_NONE && long != TIME_ON_QUEUE_NONE).then_some((short, long))
    }

    /// The RESET QSTATS counters, without resetting them.
    pub fn statistics(&self) -> QueueStatistics {
        QueueStatistics {
            high_depth: self.counters.high_depth.load(Ordering::Relaxed),
            ..self.state().statistics.clone()
        }
    }

    fn uncommitted_puts(&self) -> u64 {
        self.counters.uncommitted_puts.load(Ordering::Acquire)
    }

    /// RESET QSTATS: return the counters and start new ones at `now_ms` (HIQDEPTH restarts
    /// from the current depth, as MQ's does).
    pub fn reset_statistics(&self, now_ms: u64) -> QueueStatistics {
        let mut state = self.state();
        let depth = state.messages.len() as u64 + self.uncommitted_puts();
        let high_depth = self.counters.high_depth.swap(depth, Ordering::Relaxed);
        let statistics = std::mem::replace(
            &mut state.statistics,
            QueueStatistics {
                reset_ms: now_ms,
                ..QueueStatistics::default()
            },
        );
        QueueStatistics {
            high_depth,
            ..statistics
        }
    }

    /// Whether every message of the group `group_id` is on the queue and committed.
    pub fn group_complete(&self, group_id: &Identifier) -> bool {
        self.state().groups.group_complete(group_id)
    }

    /// Candidates the group-aware searches of this queue have looked at (tests: the work of
    /// finding a group's messages does not grow with depth).
    pub fn group_search_steps(&self) -> u64 {
        self.state().groups.search_steps()
    }

    /// Committed messages available now.
    pub fn depth(&self) -> u64 {
        self.state().messages.len() as u64
    }

    /// CURDEPTH (committed messages and uncommitted puts) without the rest of `status`, for
    /// checks made on every put or get (depth events).
    pub fn current_depth(&self) -> u64 {
        let state = self.state();
        state.messages.len() as u64 + self.uncommitted_puts()
    }

    /// IPPROCS (handles open for input) without the rest of `status` (trigger conditions).
    pub fn open_input_count(&self) -> u64 {
        self.state().open_input_count
    }

    /// Under the queue lock, as `entry` arrives: wake the parked getters it can satisfy (no
    /// system call when none waits for it): every browse or wait that takes nothing, but of
    /// the destructive getters only the first not already woken, since only one can take it.
    /// A woken getter looks before it parks again, so the message is never left waiting
    /// while a getter that wants it sleeps: either a getter not yet woken is woken for it, or
    /// every parked getter that wants it already is.
    fn wake_parked_for(state: &QueueState, entry: &MessageEntry) {
        let mut taker_woken = false;
        for parked in &state.parked {
            let selector = &parked.selector;
            // A member's arrival can complete its group or logical message, which makes its
            // other members (not only this one) eligible for a getter waiting for whole ones.
            let completes = entry.group.is_some()
                && (selector.whole_groups || selector.whole_messages)
                && selector
                    .group_id
                    .is_none_or(|id| entry.group.as_ref().is_some_and(|m| m.group_id == id));
            if completes {
                // Several members may have become eligible: every such getter looks.
                parked.notify();
                continue;
            }
            if parked.takes && (taker_woken || parked.notified.load(Ordering::Relaxed)) {
                continue;
            }
            if selector.matches(entry) && state.groups.eligible(selector, entry) {
                parked.notify();
                taker_woken |= parked.takes;
            }
        }
    }

    /// Waits for a message `selector` selects without a thread: `waker` is called when one
    /// arrives (at once if one is already there), when the queue is deleted and when every
    /// getter is woken. The watch lasts until it is dropped.
    pub fn watch_arrivals(
        self: &Arc<Self>,
        selector: MessageSelector,
        waker: ArrivalWaker,
    ) -> ArrivalWatch {
        // A watch is woken by every arrival it selects (takes: false), as a browse is: its
        // getter runs on an adapter and simply watches again if another took the message.
        let parked = Arc::new(ParkedGetter {
            selector,
            woken: Condvar::new(),
            takes: false,
            notified: AtomicBool::new(false),
            waker: Some(waker),
        });
        let mut state = self.state();
        let ready_at_start = self
            .first_match(&state, &parked.selector, None, NO_LOCK_HOLDER)
            .is_some()
            || self.is_deleted();
        if ready_at_start {
            parked.notify();
        }
        state.parked.push(parked.clone());
        drop(state);
        ArrivalWatch {
            queue: self.clone(),
            parked,
            ready_at_start,
        }
    }

    /// Before parking, a getter spins this long for an arrival: a request/reply partner on the
    /// other core usually answers within it, and a parked thread costs a system call and an
    /// inter-processor interrupt to wake.
    const SPIN_BEFORE_PARK: Duration = Duration::from_micros(30);

    /// At most this many getters of one queue spin at a time: on a machine with few
    /// processors, several spinning getters take the processor time the putters need, and
    /// one spinner already catches a quick partner's answer.
    const SPINNING_GETTERS_MAX: u32 = 1;

    /// A place among the spinning getters, released when dropped; `None` when they are all
    /// taken (the getter parks without spinning).
    fn spinning_getter(&self) -> Option<SpinningGetter<'_>> {
        let previous = self.spinning_getters.fetch_add(1, Ordering::AcqRel);
        let place = SpinningGetter(&self.spinning_getters);
        (previous < Self::SPINNING_GETTERS_MAX).then_some(place)
    }

    /// Spin (yielding now and then) until an arrival after `seen`, or `SPIN_BEFORE_PARK`.
    fn spin_for_arrival(&self, seen: u64, until: Instant) -> bool {
        let spin_end = (Instant::now() + Self::SPIN_BEFORE_PARK).min(until);
        let mut round = 0u32;
        loop {
            if self.arrivals.load(Ordering::Acquire) != seen {
                return true;
            }
            round += 1;
            if round.is_multiple_of(64) {
                if Instant::now() >= spin_end {
                    return false;
                }
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
    }

    /// Wake every waiting getter (queue manager stopping).
    /// Mark the queue deleted and wake its waiting getters.
    pub fn mark_deleted(&self) {
        self.deleted.store(true, Ordering::Release);
        self.wake_all();
    }

    pub fn is_deleted(&self) -> bool {
        self.deleted.load(Ordering::Acquire)
    }

    /// How many messages have arrived (put, committed, backed out) since the queue was made:
    /// read before a search, then [`LocalQueue::wait_for_arrival`] waits for the next one.
    pub fn arrivals(&self) -> u64 {
        self.arrivals.load(Ordering::Acquire)
    }

    /// Wait until a message arrives after `seen` (an [`LocalQueue::arrivals`] count), `wait`
    /// passes, or `interrupted` is true when woken. Parked like a waiting getter that takes any
    /// message, so every arrival wakes it: for a getter whose selection the engine cannot
    /// evaluate (a message selector on properties), which then searches again. Returns whether
    /// something arrived.
    pub fn wait_for_arrival(
        &self,
        seen: u64,
        wait: Duration,
        interrupted: impl Fn() -> bool,
    ) -> bool {
        let any_message = MessageSelector::default();
        self.park_until(self.state(), &any_message, wait, interrupted, |_| {
            (self.arrivals.load(Ordering::Acquire) != seen).then_some(())
        })
        .is_some()
    }

    /// Wait, holding the queue's lock only while looking, until `ready` (called under the lock
    /// before each wait) finds what the caller waits for, `wait` passes, or `interrupted` is
    /// true when woken. Parked like a waiting getter with `selector`, so only an arrival it
    /// may want wakes it: browses and waits that take nothing use this.
    fn park_until<T>(
        &self,
        mut state: MutexGuard<'_, QueueState>,
        selector: &MessageSelector,
        wait: Duration,
        interrupted: impl Fn() -> bool,
        mut ready: impl FnMut(&QueueState) -> Option<T>,
    ) -> Option<T> {
        let deadline = Instant::now() + wait;
        loop {
            if let Some(found) = ready(&state) {
                return Some(found);
            }
            if interrupted() {
                return None;
            }
            let remaining = deadline.checked_duration_since(Instant::now())?;
            let parked = ParkedGetter::new(selector, false);
            state.parked.push(parked.clone());
            state = parked.woken.wait_timeout(state, remaining).unwrap().0;
            state.parked.retain(|other| !Arc::ptr_eq(other, &parked));
        }
    }

    pub fn wake_all(&self) {
        // Taking the lock orders this after any getter's check of its interruption condition,
        // so a getter that saw "not interrupted" is already waiting and gets this notification.
        let state = self.state();
        for parked in &state.parked {
            parked.notify();
        }
        drop(state);
    }
}

/// A getter's place among a queue's spinning getters (see [`LocalQueue::spinning_getter`]).
struct SpinningGetter<'a>(&'a AtomicU32);

impl Drop for SpinningGetter<'_> {
    fn drop(&mut self) {
        let previous = self.0.fetch_sub(1, Ordering::AcqRel);
        debug_assert!(previous > 0, "spinning getters balance");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_storage::types::{PageNumber, PageSetId};

    fn entry(priority: u8, sequence: u64, correlation: u8) -> MessageEntry {
        MessageEntry {
            key: MessageKey::new(priority, sequence),
            storage: MessageStorage::Pages(MessageLocation {
                page_set: PageSetId(1),
                page: PageNumber(sequence as u32 + 2),
                offset: 32,
            }),
            persistent: false,
            message_id: [sequence as u8 + 1; 24],
            correlation_id: [correlation; 24],
            expires_at_ms: None,
            backout_count: 0,
            group: None,
        }
    }

    #[test]
    fn interval_statistics_count_known_work_and_restart_at_each_interval() {
        let queue = LocalQueue::new(1, QueueDefinition::local("Q", PageSetId(1)));
        let any = MessageSelector::default();
        let mut expired = Vec::new();
        // Three puts (one persistent), one got, one that expires, one put back.
        for sequence in 1..=3 {
            assert!(queue.reserve_put(10));
            let mut put = entry(0, sequence, 1);
            put.persistent = sequence == 1;
            put.expires_at_ms = (sequence == 2).then_some(5);
            queue.insert(put, true, 0);
        }
        let got = queue.take(&any, None, || 0, false, &mut expired).unwrap();
        assert!(got.persistent);
        queue.record_got(true, 100, Some(40));
        queue.record_got(true, 100, Some(60));
        let taken = queue.take(&any, None, || 10, false, &mut expired).unwrap();
        assert_eq!(expired.len(), 1, "the expired message was met on the way");
        queue.put_back(taken, false);
        let statistics = queue.take_interval_statistics();
        assert_eq!(statistics.puts, [2, 1]);
        assert_eq!(statistics.gets, [0, 1], "the get put back is not counted");
        assert_eq!((statistics.depth_min, statistics.depth_max), (0, 3));
        assert_eq!(statistics.expired, 1);
        assert_eq!(statistics.get_bytes, [0, 200]);
        assert_eq!(statistics.average_time_on_queue_us(), [0, 50]);
        // The next interval starts from the depth now, with nothing counted.
        let next = queue.take_interval_statistics();
        assert_eq!((next.depth_min, next.depth_max), (1, 1));
        assert_eq!(
            next,
            QueueIntervalStatistics {
                depth_min: 1,
                depth_max: 1,
                ..QueueIntervalStatistics::default()
            }
        );
    }

    #[test]
    fn maxdepth_counts_uncommitted_puts_and_gets_and_every_way_out_gives_a_place_back() {
        let queue = LocalQueue::new(1, QueueDefinition::local("Q", PageSetId(1)));
        let any = MessageSelector::default();
        let mut expired = Vec::new();
        assert!(queue.reserve_put(3) && queue.reserve_put(3) && queue.reserve_put(3));
        assert!(
            !queue.reserve_put(3),
            "three uncommitted puts fill MAXDEPTH(3)"
        );
        assert_eq!((queue.current_depth(), queue.status().uncommitted), (3, 3));
        queue.release_put();
        queue.insert(entry(0, 1, 1), true, 10);
        queue.insert(entry(0, 2, 1), true, 10);
        assert_eq!((queue.current_depth(), queue.status().uncommitted), (2, 0));
        // An uncommitted get still counts; its commit gives the place back, a backout not.
        let got = queue.take(&any, None, || 0, true, &mut expired).unwrap();
        assert!(queue.reserve_put(3));
        assert!(!queue.reserve_put(3), "the uncommitted get holds its place");
        queue.restore(got);
        assert!(!queue.reserve_put(3), "restored: still three");
        let _got = queue.take(&any, None, || 0, true, &mut expired).unwrap();
        queue.get_committed();
        assert!(queue.reserve_put(3), "a committed get gives its place back");
        queue.release_put();
        queue.release_put();
        // Out of syncpoint, expiry, CLEAR: each gives its places back.
        let _ = queue.take(&any, None, || 0, false, &mut expired).unwrap();
        assert_eq!(queue.depth(), 0);
        let mut expiring = entry(0, 3, 1);
        expiring.expires_at_ms = Some(5);
        queue.insert(expiring, false, 0);
        queue.insert(entry(0, 4, 1), false, 0);
        queue.insert(entry(0, 5, 1), false, 0);
        assert!(!queue.reserve_put(3));
        assert_eq!(queue.remove_expired(6).len(), 1);
        assert!(queue.reserve_put(3));
        queue.release_put();
        assert_eq!(queue.drain().len(), 2);
        for _ in 0..3 {
            assert!(queue.reserve_put(3), "CLEAR gave every place back");
        }
        assert_eq!(queue.statistics().high_depth, 3);
        queue.release_put();
        queue.release_put();
        assert_eq!(queue.reset_statistics(20).high_depth, 3);
        assert_eq!(
            queue.statistics().high_depth,
            1,
            "restarts from the current depth"
        );
    }

    #[test]
    fn racing_putters_never_pass_maxdepth() {
        let queue = Arc::new(LocalQueue::new(
            1,
            QueueDefinition::local("Q", PageSetId(1)),
        ));
        let reserved: u64 = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    let queue = queue.clone();
                    scope.spawn(move || (0..10_000).filter(|_| queue.reserve_put(1_000)).count())
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap() as u64).sum()
        });
        assert_eq!(reserved, 1_000);
        assert_eq!(queue.current_depth(), 1_000);
        assert_eq!(queue.statistics().high_depth, 1_000);
    }

    #[test]
    fn an_altered_definition_is_seen_by_the_next_read_on_every_thread() {
        let queue = Arc::new(LocalQueue::new(
            1,
            QueueDefinition::local("Q", PageSetId(1)),
        ));
        let other = LocalQueue::new(2, QueueDefinition::local("OTHER", PageSetId(1)));
        let max_depth = |queue: &LocalQueue| queue.with_definition(|d| d.max_depth);
        assert_eq!(
            max_depth(&queue),
            QueueDefinition::local("Q", PageSetId(1)).max_depth
        );
        // A thread that has a snapshot of the old definition sees the new one after ALTER.
        let (read, altered) = (std::sync::Barrier::new(2), std::sync::Barrier::new(2));
        std::thread::scope(|scope| {
            let reader = scope.spawn(|| {
                let before = max_depth(&queue);
                read.wait();
                altered.wait();
                (before, max_depth(&queue))
            });
            read.wait();
            let mut definition = queue.definition();
            definition.max_depth = 17;
            queue.set_definition(definition);
            altered.wait();
            let (before, after) = reader.join().unwrap();
            assert_ne!(before, 17);
            assert_eq!(after, 17);
        });
        assert_eq!(max_depth(&queue), 17);
        // A read inside a read (another queue's, and the same queue's) works and agrees.
        let nested = queue.with_definition(|outer| {
            (
                outer.max_depth,
                other.with_definition(|inner| inner.name.clone()),
                queue.with_definition(|again| again.max_depth),
            )
        });
        assert_eq!(nested, (17, "OTHER".to_string(), 17));
        assert_eq!(queue.name_str(), "Q");
    }

    #[test]
    fn priority_then_fifo_and_selection() {
        let queue = LocalQueue::new(1, QueueDefinition::local("Q", PageSetId(1)));
        for (priority, sequence) in [(0, 1), (5, 2), (0, 3), (5, 4)] {
            queue.insert(
                entry(priority, sequence, (sequence % 2) as u8 + 1),
                false,
                0,
            );
        }
        let mut expired = Vec::new();
        let take = |selector: &MessageSelector, expired: &mut Vec<MessageEntry>| {
            queue
                .take(selector, None, || 0, false, expired)
                .map(|entry| entry.key.sequence)
        };
        let by_correlation = MessageSelector {
            correlation_id: Some([1; 24]),
            ..Default::default()
        };
        assert_eq!(take(&by_correlation, &mut expired), Some(2));
        assert_eq!(take(&MessageSelector::default(), &mut expired), Some(4));
        assert_eq!(take(&MessageSelector::default(), &mut expired), Some(1));
        assert_eq!(take(&by_correlation, &mut expired), None);
        assert_eq!(queue.depth(), 1);
    }

    #[test]
    fn an_unindexed_queue_indexes_an_identifier_from_its_first_get_by_it() {
        let queue = LocalQueue::new(1, QueueDefinition::local("Q", PageSetId(1)));
        let indexed = |queue: &LocalQueue| {
            let state = queue.state();
            (state.indexed_message_id, state.indexed_correlation_id)
        };
        assert_eq!(indexed(&queue), (false, false), "INDXTYPE(NONE)");
        for sequence in 1..=4 {
            queue.insert(entry(0, sequence, sequence as u8), false, 0);
        }
        assert!(queue.state().by_message_id.map.is_empty());
        let mut expired = Vec::new();
        let by_message_id = |sequence: u64| MessageSelector {
            message_id: Some([sequence as u8 + 1; 24]),
            ..Default::default()
        };
        let got = queue.take(&by_message_id(3), None, || 0, false, &mut expired);
        assert_eq!(got.unwrap().key.sequence, 3);
        assert_eq!(indexed(&queue), (true, false));
        assert_eq!(
            queue.state().by_message_id.map.len(),
            3,
            "built, less the got one"
        );
        queue.insert(entry(0, 5, 5), false, 0);
        assert_eq!(
            queue.state().by_message_id.map.len(),
            4,
            "maintained from now on"
        );
        let got = queue.take(&by_message_id(5), None, || 0, false, &mut expired);
        assert_eq!(got.unwrap().key.sequence, 5);
        let by_correlation = MessageSelector {
            correlation_id: Some([2; 24]),
            ..Default::default()
        };
        let got = queue.take(&by_correlation, None, || 0, false, &mut expired);
        assert_eq!(got.unwrap().key.sequence, 2);
        assert_eq!(indexed(&queue), (true, true));
        assert_eq!(queue.depth(), 2);
        let mut message_id_queue = QueueDefinition::local("M", PageSetId(1));
        message_id_queue.index_type = "MSGID".to_string();
        assert_eq!(
            indexed(&LocalQueue::new(2, message_id_queue)),
            (true, false)
        );
    }

    #[test]
    fn expired_messages_are_skipped_and_reported() {
        let queue = LocalQueue::new(1, QueueDefinition::local("Q", PageSetId(1)));
        let mut old = entry(0, 1, 1);
        old.expires_at_ms = Some(10);
        queue.insert(old, false, 0);
        queue.insert(entry(0, 2, 1), false, 0);
        let mut expired = Vec::new();
        let got = queue.take(
            &MessageSelector::default(),
            None,
            || 100,
            false,
            &mut expired,
        );
        assert_eq!(got.unwrap().key.sequence, 2);
        assert_eq!(expired.len(), 1);
    }

    #[test]
    fn statistics_oldest_entry_and_time_on_queue() {
        let queue = LocalQueue::new(1, QueueDefinition::local("Q", PageSetId(1)));
        for (priority, sequence) in [(0, 5), (9, 7)] {
            assert!(queue.reserve_put(100));
            queue.insert(entry(priority, sequence, 1), true, 10);
        }
        // The oldest is the first put, not the first in delivery order.
        assert_eq!(queue.oldest_entry().unwrap().key.sequence, 5);
        let mut expired = Vec::new();
        queue
            .take(&MessageSelector::default(), None, || 0, false, &mut expired)
            .unwrap();
        let statistics = queue.reset_statistics(1_000);
        assert_eq!(
            (
                statistics.messages_in,
                statistics.messages_out,
                statistics.high_depth
            ),
            (2, 1, 2)
        );
        let statistics = queue.statistics();
        assert_eq!(
            (
                statistics.messages_in,
                statistics.messages_out,
                statistics.high_depth
            ),
            (0, 0, 1)
        );
        assert_eq!(statistics.reset_ms, 1_000);
        assert_eq!(queue.status().time_on_queue_us, None);
        queue.record_time_on_queue(800);
        queue.record_time_on_queue(0);
        assert_eq!(queue.status().time_on_queue_us, Some((600, 775)));
    }

    #[test]
    fn waiting_getter_is_woken_by_a_put() {
        let queue = std::sync::Arc::new(LocalQueue::new(
            1,
            QueueDefinition::local("Q", PageSetId(1)),
        ));
        let getter = {
            let queue = queue.clone();
            std::thread::spawn(move || {
                let mut expired = Vec::new();
                queue.take(
                    &MessageSelector::default(),
                    Some(Duration::from_secs(10)),
                    || 0,
                    false,
                    &mut expired,
                )
            })
        };
        std::thread::sleep(Duration::from_millis(20));
        queue.insert(entry(0, 9, 1), false, 0);
        assert_eq!(getter.join().unwrap().unwrap().key.sequence, 9);
    }

    /// Parked getters as the queue holds them (tests: wait until a getter is asleep).
    fn parked_count(queue: &LocalQueue) -> usize {
        queue.state().parked.len()
    }

    fn wait_until_parked(queue: &LocalQueue, count: usize) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while parked_count(queue) < count {
            assert!(Instant::now() < deadline, "getters did not park");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn back_to_back_arrivals_wake_different_getters() {
        // One arrival wakes one destructive getter; the second, put before the first getter
        // runs, must wake the other sleeper rather than notify the first one twice.
        for _ in 0..20 {
            let queue = Arc::new(LocalQueue::new(
                1,
                QueueDefinition::local("Q", PageSetId(1)),
            ));
            let getters: Vec<_> = (0..3)
                .map(|_| {
                    let queue = queue.clone();
                    std::thread::spawn(move || {
                        let mut expired = Vec::new();
                        queue
                            .take(
                                &MessageSelector::default(),
                                Some(Duration::from_secs(5)),
                                || 0,
                                false,
                                &mut expired,
                            )
                            .map(|entry| entry.key.sequence)
                    })
                })
                .collect();
            wait_until_parked(&queue, 3);
            let started = Instant::now();
            for sequence in 1..=3 {
                queue.insert(entry(0, sequence, 1), false, 0);
            }
            let mut got: Vec<u64> = getters
                .into_iter()
                .map(|getter| getter.join().unwrap().expect("each getter gets a message"))
                .collect();
            got.sort();
            assert_eq!(got, vec![1, 2, 3]);
            assert!(started.elapsed() < Duration::from_secs(4), "a getter slept");
        }
    }

    #[test]
    fn waking_a_getter_still_wakes_every_wait_that_takes_nothing() {
        // The getter parks first, so the arrival finds it first; the waits behind it (as a
        // getter with a message selector waits) must be woken all the same.
        let queue = Arc::new(LocalQueue::new(
            1,
            QueueDefinition::local("Q", PageSetId(1)),
        ));
        let getter = {
            let queue = queue.clone();
            std::thread::spawn(move || {
                let mut expired = Vec::new();
                queue.take(
                    &MessageSelector::default(),
                    Some(Duration::from_secs(5)),
                    || 0,
                    false,
                    &mut expired,
                )
            })
        };
        wait_until_parked(&queue, 1);
        let seen = queue.arrivals();
        let waiters: Vec<_> = (0..2)
            .map(|_| {
                let queue = queue.clone();
                std::thread::spawn(move || {
                    let started = Instant::now();
                    let arrived = queue.wait_for_arrival(seen, Duration::from_secs(5), || false);
                    (arrived, started.elapsed())
                })
            })
            .collect();
        wait_until_parked(&queue, 3);
        queue.insert(entry(0, 1, 1), false, 0);
        assert_eq!(getter.join().unwrap().unwrap().key.sequence, 1);
        for waiter in waiters {
            let (arrived, waited) = waiter.join().unwrap();
            assert!(arrived, "the wait saw the arrival");
            assert!(
                waited < Duration::from_secs(4),
                "the wait was woken, not timed out"
            );
        }
    }

    #[test]
    fn an_arrival_watch_is_called_only_for_what_it_selects_and_only_while_it_lives() {
        use std::sync::atomic::AtomicU32;
        let queue = std::sync::Arc::new(LocalQueue::new(
            1,
            QueueDefinition::local("Q", PageSetId(1)),
        ));
        let calls = Arc::new(AtomicU32::new(0));
        let counter = calls.clone();
        let watch = queue.watch_arrivals(
            MessageSelector {
                correlation_id: Some([2; 24]),
                ..MessageSelector::default()
            },
            Arc::new(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            }),
        );
        assert_eq!(calls.load(Ordering::SeqCst), 0, "nothing there yet");
        assert!(!watch.was_ready_at_start());
        queue.insert(entry(0, 1, 1), false, 0);
        assert_eq!(calls.load(Ordering::SeqCst), 0, "another CorrelId");
        queue.insert(entry(0, 2, 2), false, 0);
        assert_eq!(calls.load(Ordering::SeqCst), 1, "its CorrelId");
        queue.wake_all();
        assert_eq!(calls.load(Ordering::SeqCst), 2, "quiescing wakes it");
        drop(watch);
        queue.insert(entry(0, 3, 2), false, 0);
        assert_eq!(calls.load(Ordering::SeqCst), 2, "dropped: not called");
        // A watch set while a matching message is already there is called at once.
        let counter = calls.clone();
        let watch = queue.watch_arrivals(
            MessageSelector::default(),
            Arc::new(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            }),
        );
        assert_eq!(calls.load(Ordering::SeqCst), 3);
        assert!(watch.was_ready_at_start());
    }
}
