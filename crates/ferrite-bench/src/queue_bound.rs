//! What this machine allows MP16's single-queue workload without MQ: the same eight threads
//! (4 putters, 4 getters, the putters `putter_nice` levels below the getters, getters started
//! first and waiting) moving messages of the same size through the simplest shared queue a
//! program could use: one `Mutex<VecDeque<Vec<u8>>>` and a condition variable. A put allocates
//! the message and copies the data in, takes the lock once and wakes one getter; a get takes
//! the lock once (waiting up to 100 ms, as the benchmark's MQGET does) and copies the data out.
//! There is no unit of work, no descriptor, no priority, index, expiry, statistics or event:
//! the figure is the memory, allocator, lock and scheduler cost of the workload on these
//! processors, the reference `single-queue` prints its own rate against.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::mqi_workloads::{lower_this_thread_priority, ProcessUsage};

/// A getter's longest wait for a message, as the benchmark's MQGET waits (gmo.wait_interval).
const GET_WAIT: Duration = Duration::from_millis(100);

/// Threads on each side, as in MP16's workload.
const THREADS_PER_SIDE: usize = 4;

/// One run of the minimal queue.
pub struct BoundRun {
    /// Messages got per second.
    pub rate: f64,
    /// Process CPU per put+get pair, µs.
    pub cpu_pair_us: f64,
    pub put_count: u64,
    pub got_count: u64,
    /// The process's usage during the run.
    pub usage: ProcessUsage,
}

struct MinimalQueue {
    messages: Mutex<VecDeque<Vec<u8>>>,
    arrived: Condvar,
}

/// Run the minimal queue for `duration` with messages of `size` bytes.
pub fn minimal_queue_run(size: usize, putter_nice: i32, duration: Duration) -> BoundRun {
    let queue = MinimalQueue {
        messages: Mutex::new(VecDeque::new()),
        arrived: Condvar::new(),
    };
    let stop = AtomicBool::new(false);
    let usage_before = ProcessUsage::now();
    let started = Instant::now();
    let (put_count, got_count) = std::thread::scope(|scope| {
        let getters: Vec<_> = (0..THREADS_PER_SIDE)
            .map(|_| {
                scope.spawn(|| {
                    let mut buffer = vec![0u8; size];
                    let mut got = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let mut messages = queue.messages.lock().expect("not poisoned");
                        let message = match messages.pop_front() {
                            Some(message) => Some(message),
                            None => {
                                messages = queue
                                    .arrived
                                    .wait_timeout(messages, GET_WAIT)
                                    .expect("not poisoned")
                                    .0;
                                messages.pop_front()
                            }
                        };
                        drop(messages);
                        if let Some(message) = message {
                            buffer[..message.len()].copy_from_slice(&message);
                            got += 1;
                        }
                    }
                    got
                })
            })
            .collect();
        let putters: Vec<_> = (0..THREADS_PER_SIDE)
            .map(|_| {
                scope.spawn(|| {
                    lower_this_thread_priority(putter_nice);
                    let data = crate::engine::payload(size);
                    let mut put = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let message = data.clone();
                        queue
                            .messages
                            .lock()
                            .expect("not poisoned")
                            .push_back(message);
                        queue.arrived.notify_one();
                        put += 1;
                    }
                    put
                })
            })
            .collect();
        std::thread::sleep(duration);
        stop.store(true, Ordering::Relaxed);
        queue.arrived.notify_all();
        let put: u64 = putters.into_iter().map(|t| t.join().expect("putter")).sum();
        let got: u64 = getters.into_iter().map(|t| t.join().expect("getter")).sum();
        (put, got)
    });
    let seconds = started.elapsed().as_secs_f64();
    let usage = ProcessUsage::now().since(&usage_before);
    let cpu = usage.cpu_seconds();
    BoundRun {
        rate: got_count as f64 / seconds,
        cpu_pair_us: cpu * 1e6 / ((put_count + got_count).max(1) as f64 / 2.0),
        put_count,
        got_count,
        usage,
    }
}
