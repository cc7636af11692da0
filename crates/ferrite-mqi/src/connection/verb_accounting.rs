//! Class 1 accounting by connection (MQ for z/OS's SMF 116 class 1, MQ distributed's
//! ACCTMQI): each MQI verb's calls with their elapsed and CPU time, for the connection's
//! whole life, written in its `ACCOUNTING_MQI` record when it ends
//! (statistics_messages.rs). Kept only by a connection made while the queue manager's
//! ACCTMQI is ON (MQ reads ACCTMQI at MQCONN); the others pay one comparison per call.
//!
//! As queue accounting does (queue_accounting.rs), every call is counted and a sample is
//! timed: one call in [`ELAPSED_SAMPLE_EVERY`](super::queue_accounting::ELAPSED_SAMPLE_EVERY)
//! for its elapsed time, one in
//! [`CPU_SAMPLE_EVERY`](super::queue_accounting::CPU_SAMPLE_EVERY) for its CPU time (the
//! calling thread's CPU clock) as well; the totals are the sampled times scaled to all calls.

use super::queue_accounting::{scaled_us, CallSampler, CallTiming};

/// The verbs accounted, in the record's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Verb {
    Open,
    Close,
    Put,
    Put1,
    Get,
    Inq,
    Set,
    Commit,
    Backout,
}

/// Every verb with its name in the record (MQSMF's class 1 names: MQOPEN ... MQBACK).
pub const VERBS: [(Verb, &str); 9] = [
    (Verb::Open, "MQOPEN"),
    (Verb::Close, "MQCLOSE"),
    (Verb::Put, "MQPUT"),
    (Verb::Put1, "MQPUT1"),
    (Verb::Get, "MQGET"),
    (Verb::Inq, "MQINQ"),
    (Verb::Set, "MQSET"),
    (Verb::Commit, "MQCMIT"),
    (Verb::Backout, "MQBACK"),
];

/// One verb's calls and times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerbTimes {
    pub calls: u64,
    elapsed_sampled_ns: u64,
    elapsed_samples: u64,
    elapsed_max_ns: u64,
    cpu_sampled_ns: u64,
    cpu_samples: u64,
}

impl VerbTimes {
    /// Elapsed µs of every call, scaled from the sampled ones.
    pub fn elapsed_us(&self) -> u64 {
        scaled_us(self.elapsed_sampled_ns, self.elapsed_samples, self.calls)
    }

    /// CPU µs of every call, scaled from the sampled ones.
    pub fn cpu_us(&self) -> u64 {
        scaled_us(self.cpu_sampled_ns, self.cpu_samples, self.calls)
    }

    /// The longest sampled call, µs.
    pub fn elapsed_max_us(&self) -> u64 {
        self.elapsed_max_ns / 1000
    }
}

/// A connection's class 1 accounting.
#[derive(Debug, Default)]
pub struct VerbAccounting {
    verbs: [VerbTimes; 9],
    sampler: CallSampler,
}

impl VerbAccounting {
    /// The timing of the call that starts.
    #[inline]
    pub fn start(&mut self) -> CallTiming {
        self.sampler.start()
    }

    /// A call of `verb` ended.
    pub fn ended(&mut self, verb: Verb, timing: CallTiming) {
        let times = &mut self.verbs[verb as usize];
        times.calls += 1;
        let (elapsed_ns, cpu_ns) = timing.finish();
        if let Some(elapsed_ns) = elapsed_ns {
            times.elapsed_sampled_ns += elapsed_ns;
            times.elapsed_samples += 1;
            times.elapsed_max_ns = times.elapsed_max_ns.max(elapsed_ns);
        }
        if let Some(cpu_ns) = cpu_ns {
            times.cpu_sampled_ns += cpu_ns;
            times.cpu_samples += 1;
        }
    }

    /// Every verb's figures, in [`VERBS`] order.
    pub fn verbs(&self) -> impl Iterator<Item = (&'static str, VerbTimes)> + '_ {
        VERBS
            .iter()
            .map(|(verb, name)| (*name, self.verbs[*verb as usize]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_call_is_counted_and_the_sampled_ones_timed() {
        for (index, (verb, _)) in VERBS.iter().enumerate() {
            assert_eq!(*verb as usize, index);
        }
        let mut accounting = VerbAccounting::default();
        for _ in 0..5_000 {
            let timing = accounting.start();
            accounting.ended(Verb::Put, timing);
        }
        accounting.ended(Verb::Commit, CallTiming::start(true));
        let verbs: Vec<(&str, VerbTimes)> = accounting.verbs().collect();
        assert_eq!(verbs[2].0, "MQPUT");
        assert_eq!(verbs[2].1.calls, 5_000);
        assert!(verbs[2].1.elapsed_samples > 0, "one in 64 of 5,000 calls");
        assert_eq!(verbs[7].1.calls, 1);
        assert_eq!(verbs[7].1.cpu_samples, 1, "a timed call's CPU");
        assert_eq!(verbs[0].1, VerbTimes::default());
    }
}
