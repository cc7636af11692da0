//! Queue accounting (MQ for z/OS's class 3 accounting by queue, MQ distributed's ACCTQ): for
//! each queue a connection opens while the queue's ACCTQ asks for it (ON, or QMGR with the
//! queue manager's ACCTQ ON; the queue manager's NONE turns it off everywhere), the handle
//! counts its MQPUT and MQGET calls (by persistence, get-specific and get-next, bytes,
//! failures) and their elapsed and CPU time. The counts live in the handle (the connection's
//! own memory: no atomics); MQCLOSE adds them to the connection's per-queue totals, which are
//! written when the connection ends (statistics_messages.rs: MQCMD_ACCOUNTING_Q and
//! `accounting.jsonl`). Handles without accounting pay one comparison per call.

use std::time::{Duration, Instant};

use ferrite_queue_manager::now_ms;

/// Queues one connection keeps accounting for, at most (later ones are not accounted).
pub const ACCOUNTED_QUEUES_MAX: usize = 1024;

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
    pub put_elapsed_us: u64,
    pub put_elapsed_max_us: u64,
    pub get_elapsed_us: u64,
    pub get_elapsed_max_us: u64,
    /// CPU time of the sampled calls ([`CPU_SAMPLE_EVERY`]), ns, and how many: [put, get].
    pub cpu_sampled_ns: [u64; 2],
    pub cpu_samples: [u64; 2],
    /// Every MQPUT and MQGET call through the handle: [put, get].
    pub calls: [u64; 2],
}

/// One MQPUT or MQGET call in this many has its CPU time measured (the thread's CPU clock is
/// a system call, dearer than the call itself may be); the totals are scaled to all calls.
pub const CPU_SAMPLE_EVERY: u64 = 16;

const PUT: usize = 0;
const GET: usize = 1;

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
        self.put_elapsed_us += other.put_elapsed_us;
        self.put_elapsed_max_us = self.put_elapsed_max_us.max(other.put_elapsed_max_us);
        self.get_elapsed_us += other.get_elapsed_us;
        self.get_elapsed_max_us = self.get_elapsed_max_us.max(other.get_elapsed_max_us);
        for kind in [PUT, GET] {
            self.cpu_sampled_ns[kind] += other.cpu_sampled_ns[kind];
            self.cpu_samples[kind] += other.cpu_samples[kind];
            self.calls[kind] += other.calls[kind];
        }
    }

    /// Whether the next MQPUT (`put`) or MQGET call should have its CPU time measured.
    pub fn sample_cpu(&self, put: bool) -> bool {
        self.calls[if put { PUT } else { GET }].is_multiple_of(CPU_SAMPLE_EVERY)
    }

    /// CPU µs of every MQPUT (`put`) or MQGET call, scaled from the sampled ones.
    pub fn cpu_us(&self, put: bool) -> u64 {
        let kind = if put { PUT } else { GET };
        if self.cpu_samples[kind] == 0 {
            return 0;
        }
        let scaled = u128::from(self.cpu_sampled_ns[kind]) * u128::from(self.calls[kind])
            / u128::from(self.cpu_samples[kind]);
        (scaled / 1000) as u64
    }

    fn timed(&mut self, kind: usize, timing: CallTiming) -> u64 {
        let (elapsed, cpu_ns) = timing.finish();
        self.calls[kind] += 1;
        if let Some(cpu_ns) = cpu_ns {
            self.cpu_sampled_ns[kind] += cpu_ns;
            self.cpu_samples[kind] += 1;
        }
        elapsed
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
        let elapsed = self.timed(PUT, timing);
        self.put_elapsed_us += elapsed;
        self.put_elapsed_max_us = self.put_elapsed_max_us.max(elapsed);
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
        let elapsed = self.timed(GET, timing);
        self.get_elapsed_us += elapsed;
        self.get_elapsed_max_us = self.get_elapsed_max_us.max(elapsed);
    }
}

/// The elapsed time of one call from its start, and the CPU (this thread's) time when sampled.
#[derive(Clone, Copy, Debug)]
pub struct CallTiming {
    started: Instant,
    cpu_started: Option<Duration>,
}

impl CallTiming {
    pub fn start(sample_cpu: bool) -> CallTiming {
        CallTiming {
            started: Instant::now(),
            cpu_started: sample_cpu.then(thread_cpu_time),
        }
    }

    /// (elapsed µs, CPU ns when sampled) since the start.
    fn finish(self) -> (u64, Option<u64>) {
        let elapsed = self.started.elapsed().as_micros() as u64;
        let cpu = self
            .cpu_started
            .map(|started| thread_cpu_time().saturating_sub(started).as_nanos() as u64);
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
        assert!(q1.put_elapsed_max_us <= q1.put_elapsed_us);
        assert_eq!(q1.calls, [3, 2]);
        assert_eq!(q1.cpu_samples, [3, 2], "every call timed with start(true)");
        assert!(thread_cpu_time() > Duration::ZERO);
    }
}
