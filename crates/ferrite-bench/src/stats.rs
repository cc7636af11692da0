//! Latency samples.

use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct Latencies {
    nanos: Vec<u64>,
    sorted: bool,
}

impl Latencies {
    pub fn with_capacity(capacity: usize) -> Latencies {
        Latencies {
            nanos: Vec::with_capacity(capacity),
            sorted: true,
        }
    }

    pub fn record(&mut self, elapsed: Duration) {
        self.nanos.push(elapsed.as_nanos() as u64);
        self.sorted = false;
    }

    pub fn merge(&mut self, other: Latencies) {
        self.nanos.extend(other.nanos);
        self.sorted = false;
    }

    pub fn count(&self) -> usize {
        self.nanos.len()
    }

    pub fn total(&self) -> Duration {
        Duration::from_nanos(self.nanos.iter().sum())
    }

    /// Mean in microseconds.
    pub fn mean_us(&self) -> f64 {
        if self.nanos.is_empty() {
            return 0.0;
        }
        self.nanos.iter().sum::<u64>() as f64 / self.nanos.len() as f64 / 1000.0
    }

    /// Percentile (0–100) in microseconds.
    pub fn percentile_us(&mut self, percentile: f64) -> f64 {
        if self.nanos.is_empty() {
            return 0.0;
        }
        if !self.sorted {
            self.nanos.sort_unstable();
            self.sorted = true;
        }
        let rank = ((percentile / 100.0) * (self.nanos.len() - 1) as f64).round() as usize;
        self.nanos[rank.min(self.nanos.len() - 1)] as f64 / 1000.0
    }

    /// Operations per second if run back to back.
    pub fn rate(&self) -> f64 {
        let total = self.total().as_secs_f64();
        if total == 0.0 {
            0.0
        } else {
            self.nanos.len() as f64 / total
        }
    }
}
