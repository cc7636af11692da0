//! The log writers' CPU priority: the logger thread and the copy 2 writer ask for the
//! lowest real-time priority ([`LOG_WRITER_POLICY`] at [`LOG_WRITER_RT_PRIORITY`]), or else
//! [`LOG_WRITER_NICE`], above the application threads that append and force.
//!
//! Why: a write cycle is on every committer's critical path, but the writer is one thread
//! among as many runnable committers as the workload has. Measured with 64 committers on 2
//! vCPUs at the default priority (BENCHMARKS §34, `/proc/<pid>/task/<tid>/schedstat`), the
//! logger thread waited 0.6-1.4 s per 2.5-3 s window on the run queue, runnable but not
//! running (after its fdatasync completed, between its `write` calls, before starting the
//! next cycle), against 0.2-0.6 s running: while it waits, the device idles. At nice -10 it
//! still waited 0.25-1.1 s (the scheduler weighs the process's other sessions too); at
//! real-time priority 1 it waited 0.005-0.02 s. Oracle's log writer (LGWR) runs at SCHED_RR
//! by default for the same reason, and MQ on z/OS gives its log writer a high dispatching
//! priority.
//!
//! Safety of a real-time writer: it never spins. Every wait is a condition variable, a lock
//! or an I/O, and a cycle's CPU work is bounded (copying at most `LOG_UNSYNCED_PAGES_MAX`
//! pages into the page cache); the kernel's real-time throttling (by default 95% of each
//! second) bounds even a bug. The lowest real-time priority yields to every other real-time
//! thread, and `SCHED_RESET_ON_FORK` keeps anything the thread forks at the default policy.
//!
//! Raising a thread's priority needs `CAP_SYS_NICE`, or `RLIMIT_RTPRIO` / `RLIMIT_NICE`
//! allowing it (systemd: `LimitRTPRIO=1`, `LimitNICE=-10`, or
//! `AmbientCapabilities=CAP_SYS_NICE`). Without any the writer keeps the default priority and
//! works exactly as before; `LogStatistics::writer_priority_denied` counts the writer threads
//! that got neither raise, so a slow log can be told apart.

use super::statistics::{bump, LogCounters};

/// The real-time policy the log writer threads ask for first.
const LOG_WRITER_POLICY: libc::c_int = libc::SCHED_RR;
/// Its priority: the lowest real-time one (1..=99), above every normal thread.
pub(crate) const LOG_WRITER_RT_PRIORITY: libc::c_int = 1;
/// The nice value asked for when real-time is refused (Linux: -20 highest, 0 default):
/// about 9 times the CPU weight of a default thread when both are runnable.
pub(crate) const LOG_WRITER_NICE: libc::c_int = -10;

/// The priority a log writer thread obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WriterPriority {
    RealTime,
    Nice,
    Default,
}

/// Give the calling thread (a log writer) real-time priority, or else [`LOG_WRITER_NICE`];
/// count a thread that got neither.
pub(crate) fn raise_writer_priority(counters: &LogCounters) -> WriterPriority {
    // SAFETY: gettid takes no arguments and cannot fail.
    let tid = unsafe { libc::gettid() };
    let parameters = libc::sched_param {
        sched_priority: LOG_WRITER_RT_PRIORITY,
    };
    // On Linux a scheduling policy and a nice value belong to a thread: given a thread id,
    // these calls change that thread alone.
    // SAFETY: `parameters` is a valid sched_param for the duration of the call.
    let real_time = unsafe {
        libc::sched_setscheduler(
            tid,
            LOG_WRITER_POLICY | libc::SCHED_RESET_ON_FORK,
            &parameters,
        )
    };
    if real_time == 0 {
        return WriterPriority::RealTime;
    }
    // SAFETY: setpriority reads only its integer arguments.
    let nice = unsafe { libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, LOG_WRITER_NICE) };
    if nice == 0 {
        return WriterPriority::Nice;
    }
    bump(&counters.writer_priority_denied, 1);
    WriterPriority::Default
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The thread's own policy after the call matches what the call reports (real time needs
    /// privileges the test may lack: any outcome is legal, a wrong report is not).
    #[test]
    fn the_reported_priority_is_the_threads() {
        std::thread::spawn(|| {
            let counters = LogCounters::default();
            let outcome = raise_writer_priority(&counters);
            // SAFETY: 0 means the calling thread; getpriority reads only its arguments.
            let policy = unsafe { libc::sched_getscheduler(0) } & !libc::SCHED_RESET_ON_FORK;
            let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
            let denied = counters
                .writer_priority_denied
                .load(std::sync::atomic::Ordering::Relaxed);
            match outcome {
                WriterPriority::RealTime => assert_eq!(policy, LOG_WRITER_POLICY),
                WriterPriority::Nice => {
                    assert_eq!((policy, nice), (libc::SCHED_OTHER, LOG_WRITER_NICE))
                }
                WriterPriority::Default => assert_eq!(denied, 1),
            }
            assert_eq!(denied, u64::from(outcome == WriterPriority::Default));
        })
        .join()
        .unwrap();
    }
}
