//! The channel initiator's adapters (CHIADAPS) and its timer.
//!
//! Adapters are the threads that make MQI calls for client conversations, as MQ's adapter
//! TCBs do (MP16 ch. 3: any adapter serves any call; the pool hands out the next free one). A
//! conversation with work (a flow from its socket, a message for one of its consumers, a
//! waiting MQGET that can complete) is put on the run queue once; the adapter that takes it
//! serves it until it has nothing to do, or for [`crate::channel::CONVERSATION_RUN_BUDGET`]
//! steps, then puts it back at the end of the queue so that one busy conversation cannot hold
//! an adapter from the others. Nothing an adapter runs blocks: a waiting MQGET or an idle
//! consumer leaves an arrival watch on its queue and gives the adapter back.
//!
//! The timer wakes conversations at a time: the end of a waiting MQGET's WaitInterval, or the
//! next look at a queue whose waiter cannot be told exactly which message it wants (a handle
//! opened with a SelectionString).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ferrite_queue_manager::statistics::tasks::{TaskKind, TaskStatistics};
use ferrite_queue_manager::QueueManager;

use crate::channel_conversation::Conversation;
use crate::channel_initiator::CONVERSATION_STACK_BYTES;
use crate::local_work::{self, Place, LOCAL_RUNS_PER_TURN_MAX};

/// Conversations waiting for an adapter, and the adapter threads.
pub(crate) struct AdapterPool {
    queue: Mutex<RunQueue>,
    work: Condvar,
    threads: Mutex<Vec<JoinHandle<()>>>,
    started: AtomicUsize,
    busy: AtomicUsize,
    /// Conversation runs made on adapters since start.
    runs: AtomicU64,
}

#[derive(Default)]
struct RunQueue {
    ready: VecDeque<Arc<Conversation>>,
    /// Adapters waiting for work (waking one costs a system call: only then is it paid).
    idle: usize,
    stopping: bool,
}

impl AdapterPool {
    /// Starts `count` adapter threads, each counting its runs in `queue_manager`'s task
    /// statistics (QCTADP).
    pub(crate) fn start(
        count: usize,
        queue_manager: &Arc<QueueManager>,
    ) -> std::io::Result<Arc<AdapterPool>> {
        assert!(count >= 1, "at least one adapter");
        let pool = Arc::new(AdapterPool {
            queue: Mutex::new(RunQueue::default()),
            work: Condvar::new(),
            threads: Mutex::new(Vec::new()),
            started: AtomicUsize::new(0),
            busy: AtomicUsize::new(0),
            runs: AtomicU64::new(0),
        });
        for index in 0..count {
            let adapter_pool = pool.clone();
            let queue_manager = queue_manager.clone();
            let thread = std::thread::Builder::new()
                .name(format!("ferrite-adapter-{index}"))
                .stack_size(CONVERSATION_STACK_BYTES)
                .spawn(move || {
                    let task = queue_manager.task_statistics(TaskKind::Adapter, index as u32);
                    drop(queue_manager);
                    adapter_pool.serve(task.as_deref())
                })?;
            pool.threads.lock().unwrap().push(thread);
            pool.started.fetch_add(1, Ordering::Relaxed);
        }
        Ok(pool)
    }

    /// Adapter threads running.
    pub(crate) fn started(&self) -> usize {
        self.started.load(Ordering::Relaxed)
    }

    /// Adapters running a conversation now.
    pub(crate) fn busy(&self) -> usize {
        self.busy.load(Ordering::Relaxed)
    }

    /// Conversation runs the adapters have made since they started.
    pub(crate) fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Puts a conversation on the run queue (its caller made sure it is not there already).
    pub(crate) fn schedule(&self, conversation: Arc<Conversation>) {
        let mut queue = self.queue.lock().unwrap();
        queue.ready.push_back(conversation);
        let idle = queue.idle > 0;
        drop(queue);
        if idle {
            self.work.notify_one();
        }
    }

    fn serve(&self, task: Option<&TaskStatistics>) {
        local_work::enter(Place::Adapter);
        loop {
            let conversation = {
                let mut queue = self.queue.lock().unwrap();
                loop {
                    if let Some(conversation) = queue.ready.pop_front() {
                        break conversation;
                    }
                    if queue.stopping {
                        return;
                    }
                    queue.idle += 1;
                    queue = self.work.wait(queue).unwrap();
                    queue.idle -= 1;
                }
            };
            self.busy.fetch_add(1, Ordering::Relaxed);
            self.runs.fetch_add(1, Ordering::Relaxed);
            let started = Instant::now();
            conversation.run();
            // The conversations it woke (a getter its put satisfied), then its replies.
            while local_work::has_runs() {
                local_work::run(LOCAL_RUNS_PER_TURN_MAX);
            }
            local_work::flush();
            if let Some(task) = task {
                task.request(1, started);
            }
            self.busy.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Lets the adapters finish the run queue, then ends them. Called once every conversation
    /// has ended.
    pub(crate) fn stop(&self) {
        self.queue.lock().unwrap().stopping = true;
        self.work.notify_all();
        let threads = std::mem::take(&mut *self.threads.lock().unwrap());
        for thread in threads {
            let _ = thread.join();
        }
        self.started.store(0, Ordering::Relaxed);
    }
}

/// Wakes conversations at given times.
pub(crate) struct Timer {
    state: Mutex<TimerState>,
    changed: Condvar,
    thread: Mutex<Option<JoinHandle<()>>>,
}

#[derive(Default)]
struct TimerState {
    due: BinaryHeap<Reverse<TimerEntry>>,
    sequence: u64,
    /// Entries beyond which the heap is rid of the stale ones.
    compact_at: usize,
    stopping: bool,
}

struct TimerEntry {
    at: Instant,
    sequence: u64,
    conversation: Weak<Conversation>,
    /// The conversation's wait this entry belongs to: once that wait is over (its get
    /// answered), the entry is stale and wakes nothing.
    generation: u64,
}

impl TimerEntry {
    fn is_live(&self) -> bool {
        self.conversation
            .upgrade()
            .is_some_and(|conversation| conversation.timer_generation() == self.generation)
    }
}

impl PartialEq for TimerEntry {
    fn eq(&self, other: &TimerEntry) -> bool {
        (self.at, self.sequence) == (other.at, other.sequence)
    }
}

impl Eq for TimerEntry {}

impl PartialOrd for TimerEntry {
    fn partial_cmp(&self, other: &TimerEntry) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TimerEntry {
    fn cmp(&self, other: &TimerEntry) -> std::cmp::Ordering {
        (self.at, self.sequence).cmp(&(other.at, other.sequence))
    }
}

/// Entries at which the timer first drops stale entries (waits answered before their end);
/// after that, at twice what remains.
const TIMER_COMPACT_ENTRIES_MIN: usize = 4096;
/// The timer's resolution: it sleeps at least this long, so entries falling due within it are
/// served together (never early: a waiting MQGET woken before its WaitInterval is over would
/// watch again with no timer left to end it). Most entries are stale by the time they fall
/// due (the get they would end was answered long before): this bounds how often the timer
/// wakes to find that out, to at most 100 times a second however many gets wait.
const TIMER_RESOLUTION: Duration = Duration::from_millis(10);

impl Timer {
    pub(crate) fn start() -> std::io::Result<Arc<Timer>> {
        let timer = Arc::new(Timer {
            state: Mutex::new(TimerState::default()),
            changed: Condvar::new(),
            thread: Mutex::new(None),
        });
        let thread_timer = timer.clone();
        let thread = std::thread::Builder::new()
            .name("ferrite-chinit-timer".into())
            .stack_size(CONVERSATION_STACK_BYTES)
            .spawn(move || thread_timer.serve())?;
        *timer.thread.lock().unwrap() = Some(thread);
        Ok(timer)
    }

    /// Wakes `conversation` at `at` (or soon after), unless the wait it is in now is over by
    /// then.
    pub(crate) fn wake_at(&self, at: Instant, conversation: &Arc<Conversation>) {
        let generation = conversation.timer_generation();
        let mut state = self.state.lock().unwrap();
        if state.stopping {
            return;
        }
        if state.due.len() >= state.compact_at.max(TIMER_COMPACT_ENTRIES_MIN) {
            state.due.retain(|Reverse(entry)| entry.is_live());
            state.compact_at = state.due.len() * 2;
        }
        let earliest = state.due.peek().is_none_or(|Reverse(first)| at < first.at);
        state.sequence += 1;
        let sequence = state.sequence;
        state.due.push(Reverse(TimerEntry {
            at,
            sequence,
            conversation: Arc::downgrade(conversation),
            generation,
        }));
        drop(state);
        if earliest {
            self.changed.notify_one();
        }
    }

    fn serve(&self) {
        let mut state = self.state.lock().unwrap();
        loop {
            if state.stopping {
                return;
            }
            let now = Instant::now();
            let mut due = Vec::new();
            while state
                .due
                .peek()
                .is_some_and(|Reverse(first)| first.at <= now)
            {
                let Reverse(entry) = state.due.pop().expect("peeked");
                due.push(entry);
            }
            if !due.is_empty() {
                drop(state);
                for entry in due {
                    if let Some(conversation) = entry.conversation.upgrade() {
                        conversation.timer_fired(entry.generation);
                    }
                }
                state = self.state.lock().unwrap();
                continue;
            }
            state = match state.due.peek() {
                Some(Reverse(first)) => {
                    let wait = first
                        .at
                        .saturating_duration_since(now)
                        .max(TIMER_RESOLUTION);
                    self.changed.wait_timeout(state, wait).unwrap().0
                }
                None => self.changed.wait(state).unwrap(),
            };
        }
    }

    pub(crate) fn stop(&self) {
        let mut state = self.state.lock().unwrap();
        state.stopping = true;
        state.due.clear();
        drop(state);
        self.changed.notify_all();
        if let Some(thread) = self.thread.lock().unwrap().take() {
            let _ = thread.join();
        }
    }
}
