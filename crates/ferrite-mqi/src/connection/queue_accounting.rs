//! Queue accounting (MQ for z/OS's class 3 accounting by queue, MQ distributed's ACCTQ): for
//! each queue a connection opens while the queue's ACCTQ asks for it (ON, or QMGR with the
//! queue manager's ACCTQ ON; the queue manager's NONE turns it off everywhere), the handle
//! counts its MQPUT and MQGET calls (by persistence, get-specific and get-next, bytes,
//! failures) and their elapsed and CPU time. The counts live in the handle (the connection's
//! own memory: no atomics); MQCLOSE adds them to the connection's per-queue totals, which are
//! written when the connection ends (statistics_messages.rs: MQCMD_ACCOUNTING_Q and
//! `accounting.jsonl`). Handles without accounting pay one comparison per call.
//!
//! Every call is counted, but only a sample of calls is timed: a clock read costs a good part
//! of an in-process MQPUT (two wall-clock reads are some 5% of a put+get pair, and the thread
//! CPU clock is a system call, dearer than the call itself). The [`CallSampler`] picks one call
//! in [`ELAPSED_SAMPLE_EVERY`] at random for its elapsed time and one in
//! [`CPU_SAMPLE_EVERY`] for its CPU time too; the totals are the sampled times scaled to all
//! calls, and the longest elapsed time is the longest of the sampled calls. A handle that
//! made only a few calls may have none timed (its times are then 0): the price of keeping
//! accounting within a few percent of an in-process put+get.

use std::time::{Duration, Instant};

use ferrite_queue_manager::now_ms;

/// Queues one connection keeps accounting for, at most (later ones are not accounted).
pub const ACCOUNTED_QUEUES_MAX: usize = 1024;

/// One call in this many, on average, has its elapsed time measured.
pub const ELAPSED_SAMPLE_EVERY: u32 = 64;

/// One call in this many, on average, has its CPU time measured as well (a subset of the
/// elapsed-time sample).
pub const CPU_SAMPLE_EVERY: u32 = 1024;

const _: () = assert!(ELAPSED_SAMPLE_EVERY.is_power_of_two() && CPU_SAMPLE_EVERY.is_power_of_two());
const _: () = assert!(CPU_SAMPLE_EVERY >= ELAPSED_SAMPLE_EVERY);

/// One queue's accounting for one connection.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueueAccounting {
    pub queue: String,
    pub first_opened_ms: u64,
    pub last_closed_ms: u64,
    pub opens: u64,
    pub closes: u64,
    /// [non-persistent, persistent].
    pub puts: [u64; 2],
    pub put_bytes: [u64; 2],
    pub puts_failed: u64,
    pub gets: [u64; 2],
    pub get_bytes: [u64; 2],
    pub gets_failed: u64,
    pub browses: [u64; 2],
    pub browse_bytes: [u64; 2],
    pub browses_failed: u64,
    /// MQGET calls by MsgId or CorrelId, and the others (MP16's get-specific and get-next).
    pub get_specific: u64,
    pub get_next: u64,
    /// Elapsed time of the sampled calls, ns, how many, and the longest: [put, get].
    pub elapsed_sampled_ns: [u64; 2],
    pub elapsed_samples: [u64; 2],
    pub elapsed_max_ns: [u64; 2],
    /// CPU time of the sampled calls, ns, and how many: [put, get].
    pub cpu_sampled_ns: [u64; 2],
    pub cpu_samples: [u64; 2],
    /// Every MQPUT and MQGET call through the handle: [put, get].
    pub calls: [u64; 2],
}

const PUT: usize = 0;
const GET: usize = 1;

fn kind(put: bool) -> usize {
    if put {
        PUT
    } else {
        GET
    }
}

/// `sampled_ns` over `samples` of the `calls`, scaled to all of them, in µs.
pub(crate) fn scaled_us(sampled_ns: u64, samples: u64, calls: u64) -> u64 {
    if samples == 0 {
        return 0;
    }
    debug_assert!(samples <= calls, "{samples} samples of {calls} calls");
    let scaled = u128::from(sampled_ns) * u128::from(calls) / u128::from(samples);
    u64::try_from(scaled / 1000).unwrap_or(u64::MAX)
}

impl QueueAccounting {
    pub fn opened(queue: &str) -> QueueAccounting {
        QueueAccounting {
            queue: queue.to_string(),
            first_opened_ms: now_ms(),
            opens: 1,
            ..QueueAccounting::default()
        }
    }

    /// Add a closed handle's counts (same queue) to these totals.
    pub fn absorb(&mut self, other: &QueueAccounting) {
        debug_assert_eq!(self.queue, other.queue);
        let add2 = |a: &mut [u64; 2], b: [u64; 2]| {
            a[0] += b[0];
            a[1] += b[1];
        };
        self.first_opened_ms = self.first_opened_ms.min(other.first_opened_ms);
        self.last_closed_ms = self.last_closed_ms.max(other.last_closed_ms);
        self.opens += other.opens;
        self.closes += other.closes;
        add2(&mut self.puts, other.puts);
        add2(&mut self.put_bytes, other.put_bytes);
        self.puts_failed += other.puts_failed;
        add2(&mut self.gets, other.gets);
        add2(&mut self.get_bytes, other.get_bytes);
        self.gets_failed += other.gets_failed;
        add2(&mut self.browses, other.browses);
        add2(&mut self.browse_bytes, other.browse_bytes);
        self.browses_failed += other.browses_failed;
        self.get_specific += other.get_specific;
        self.get_next += other.get_next;
        for kind in [PUT, GET] {
            self.elapsed_sampled_ns[kind] += other.elapsed_sampled_ns[kind];
            self.elapsed_samples[kind] += other.elapsed_samples[kind];
            self.elapsed_max_ns[kind] = self.elapsed_max_ns[kind].max(other.elapsed_max_ns[kind]);
            self.cpu_sampled_ns[kind] += other.cpu_sampled_ns[kind];
            self.cpu_samples[kind] += other.cpu_samples[kind];
            self.calls[kind] += other.calls[kind];
        }
    }

    /// Elapsed µs of every MQPUT (`put`) or MQGET call, scaled from the sampled ones.
    pub fn elapsed_us(&self, put: bool) -> u64 {
        let kind = kind(put);
        scaled_us(
            self.elapsed_sampled_ns[kind],
            self.elapsed_samples[kind],
            self.calls[kind],
        )
    }

    /// The longest elapsed µs of a sampled MQPUT (`put`) or MQGET call.
    pub fn elapsed_max_us(&self, put: bool) -> u64 {
        self.elapsed_max_ns[kind(put)] / 1000
    }

    /// CPU µs of every MQPUT (`put`) or MQGET call, scaled from the sampled ones.
    pub fn cpu_us(&self, put: bool) -> u64 {
        let kind = kind(put);
        scaled_us(
            self.cpu_sampled_ns[kind],
            self.cpu_samples[kind],
            self.calls[kind],
        )
    }

    fn timed(&mut self, kind: usize, timing: CallTiming) {
        self.calls[kind] += 1;
        let (elapsed_ns, cpu_ns) = timing.finish();
        if let Some(elapsed_ns) = elapsed_ns {
            self.elapsed_sampled_ns[kind] += elapsed_ns;
            self.elapsed_samples[kind] += 1;
            self.elapsed_max_ns[kind] = self.elapsed_max_ns[kind].max(elapsed_ns);
        }
        if let Some(cpu_ns) = cpu_ns {
            self.cpu_sampled_ns[kind] += cpu_ns;
            self.cpu_samples[kind] += 1;
        }
    }

    /// An MQPUT through the handle: `persistent` when it stored a persistent message.
    pub fn put(&mut self, stored: Option<(bool, usize)>, timing: CallTiming) {
        match stored {
            Some((persistent, bytes)) => {
                self.puts[usize::from(persistent)] += 1;
                self.put_bytes[usize::from(persistent)] += bytes as u64;
            }
            None => self.puts_failed += 1,
        }
        self.timed(PUT, timing);
    }

    /// An MQGET through the handle: what it returned (persistence and bytes), if anything.
    pub fn get(
        &mut self,
        browse: bool,
        specific: bool,
        got: Option<(bool, usize)>,
        timing: CallTiming,
    ) {
        let (count, bytes, failed) = if browse {
            (
                &mut self.browses,
                &mut self.browse_bytes,
                &mut self.browses_failed,
            )
        } else {
            (&mut self.gets, &mut self.get_bytes, &mut self.gets_failed)
        };
        match got {
            Some((persistent, length)) => {
                count[usize::from(persistent)] += 1;
                bytes[usize::from(persistent)] += length as u64;
            }
            None => *failed += 1,
        }
        if specific {
            self.get_specific += 1;
        } else {
            self.get_next += 1;
        }
        self.timed(GET, timing);
    }
}

/// Chooses the calls that are timed: a xorshift generator in the connection's own memory
/// (random rather than every n-th call, so that a pattern of calls across handles, such as
/// put on one queue and get on another, cannot keep one handle out of the sample).
#[derive(Clone, Copy, Debug)]
pub struct CallSampler {
    state: u32,
}

impl Default for CallSampler {
    fn default() -> CallSampler {
        CallSampler { state: 0x9E37_79B9 }
    }
}

impl CallSampler {
    /// The timing of the next call: elapsed and CPU time when the draw samples it.
    #[inline]
    pub fn start(&mut self) -> CallTiming {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.state = x;
        debug_assert_ne!(x, 0, "xorshift never reaches zero from a non-zero state");
        if x & (ELAPSED_SAMPLE_EVERY - 1) != 0 {
            return CallTiming::UNTIMED;
        }
        CallTiming::start(x & (CPU_SAMPLE_EVERY - 1) == 0)
    }
}

/// The elapsed time of one call from its start when sampled, and its CPU (this thread's)
/// time when sampled for that too.
#[derive(Clone, Copy, Debug)]
pub struct CallTiming {
    started: Option<Instant>,
    cpu_started: Option<Duration>,
}

impl CallTiming {
    /// A call counted but not timed.
    pub const UNTIMED: CallTiming = CallTiming {
        started: None,
        cpu_started: None,
    };

    /// A call timed: elapsed time, and CPU time when `sample_cpu`.
    pub fn start(sample_cpu: bool) -> CallTiming {
        CallTiming {
            started: Some(Instant::now()),
            cpu_started: sample_cpu.then(thread_cpu_time),
        }
    }

    /// (elapsed ns, CPU ns) since the start, each when sampled.
    pub(crate) fn finish(self) -> (Option<u64>, Option<u64>) {
        let cpu = self
            .cpu_started
            .map(|started| thread_cpu_time().saturating_sub(started).as_nanos() as u64);
        let elapsed = self
            .started
            .map(|started| started.elapsed().as_nanos() as u64);
        (elapsed, cpu)
    }
}

/// The CPU time the calling thread has used.
fn thread_cpu_time() -> Duration {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own.
    let result = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    if result != 0 {
        return Duration::ZERO;
    }
    Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
}

/// The connection's per-queue totals of closed handles.
#[derive(Debug, Default)]
pub struct ConnectionQueueAccounting {
    pub queues: Vec<QueueAccounting>,
}

impl ConnectionQueueAccounting {
    /// A handle with `accounting` closed.
    pub fn closed(&mut self, mut accounting: QueueAccounting) {
        accounting.closes += 1;
        accounting.last_closed_ms = now_ms();
        let known = self
            .queues
            .iter()
            .position(|queue| queue.queue == accounting.queue);
        match known {
            Some(index) => self.queues[index].absorb(&accounting),
            None if self.queues.len() < ACCOUNTED_QUEUES_MAX => self.queues.push(accounting),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_add_up_by_queue() {
        let mut connection = ConnectionQueueAccounting::default();
        let mut first = QueueAccounting::opened("Q1");
        first.put(Some((true, 10)), CallTiming::start(true));
        first.put(None, CallTiming::start(true));
        first.get(false, true, Some((false, 5)), CallTiming::start(true));
        first.get(true, false, None, CallTiming::start(true));
        let mut second = QueueAccounting::opened("Q1");
        second.put(Some((false, 7)), CallTiming::start(true));
        connection.closed(first);
        connection.closed(second);
        connection.closed(QueueAccounting::opened("Q2"));
        assert_eq!(connection.queues.len(), 2);
        let q1 = &connection.queues[0];
        assert_eq!((q1.opens, q1.closes), (2, 2));
        assert_eq!(q1.puts, [1, 1]);
        assert_eq!(q1.put_bytes, [7, 10]);
        assert_eq!(q1.puts_failed, 1);
        assert_eq!(q1.gets, [1, 0]);
        assert_eq!(q1.browses_failed, 1);
        assert_eq!((q1.get_specific, q1.get_next), (1, 1));
        assert!(q1.elapsed_max_us(true) <= q1.elapsed_us(true));
        assert_eq!(q1.calls, [3, 2]);
        assert_eq!(
            q1.elapsed_samples,
            [3, 2],
            "every call timed with start(true)"
        );
        assert_eq!(q1.cpu_samples, [3, 2], "every call timed with start(true)");
        assert!(thread_cpu_time() > Duration::ZERO);
    }

    #[test]
    fn a_sample_of_calls_is_timed_and_scaled_to_all() {
        let calls = 64 * u64::from(CPU_SAMPLE_EVERY);
        let mut sampler = CallSampler::default();
        let mut accounting = QueueAccounting::opened("Q1");
        for _ in 0..calls {
            accounting.put(Some((false, 1)), sampler.start());
        }
        assert_eq!(accounting.puts, [calls, 0], "every call counted");
        assert_eq!(accounting.calls, [calls, 0]);
        let [elapsed, cpu] = [accounting.elapsed_samples[0], accounting.cpu_samples[0]];
        let expected_elapsed = calls / u64::from(ELAPSED_SAMPLE_EVERY);
        let expected_cpu = calls / u64::from(CPU_SAMPLE_EVERY);
        assert!(
            elapsed > expected_elapsed / 2 && elapsed < expected_elapsed * 2,
            "{elapsed} calls timed of {calls}"
        );
        assert!(
            cpu > expected_cpu / 2 && cpu < expected_cpu * 2,
            "{cpu} calls CPU-timed of {calls}"
        );
        assert!(
            cpu <= elapsed,
            "CPU is sampled among the elapsed-time sample"
        );
        // Scaling: the total is the sampled mean times every call.
        let mean_ns = accounting.elapsed_sampled_ns[0] / elapsed;
        let total_us = accounting.elapsed_us(true);
        assert_eq!(
            u128::from(total_us),
            u128::from(accounting.elapsed_sampled_ns[0]) * u128::from(calls)
                / u128::from(elapsed)
                / 1000
        );
        assert!(total_us >= mean_ns * calls / 1000);
        assert!(accounting.elapsed_max_ns[0] >= mean_ns);
    }

    #[test]
    fn the_sampler_does_not_lock_out_an_alternating_pattern() {
        // Put on one handle, get on another, in turn: each sees about its share of the sample.
        let mut sampler = CallSampler::default();
        let (mut put, mut get) = (QueueAccounting::opened("A"), QueueAccounting::opened("B"));
        for _ in 0..8 * CPU_SAMPLE_EVERY {
            put.put(Some((false, 1)), sampler.start());
            get.get(false, false, Some((false, 1)), sampler.start());
        }
        assert!(put.elapsed_samples[0] > 0 && get.elapsed_samples[1] > 0);
        assert!(put.cpu_samples[0] > 0 && get.cpu_samples[1] > 0);
    }
}
