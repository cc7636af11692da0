//! A small seeded random number generator (SplitMix64), so that every run can be replayed
//! from its seed: the kill moments, and each worker's choice of operations, queues, sizes
//! and priorities. (The interleaving of the workers' operations is up to the scheduler, so
//! a replay makes the same choices, not necessarily in the same interleaving.)

pub struct Random {
    state: u64,
}

impl Random {
    pub fn new(seed: u64) -> Random {
        Random { state: seed }
    }

    /// A generator for a sub-stream (a worker of a cycle), independent of its siblings.
    pub fn derive(seed: u64, stream: u64, index: u64) -> Random {
        let mut mixer = Random::new(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F));
        let base = mixer.next_u64();
        Random::new(base ^ index.wrapping_mul(0xE703_7ED1_A0B4_28DB))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "Random::below needs a positive bound");
        self.next_u64() % bound
    }

    /// Uniform in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        assert!(low <= high, "Random::between({low}, {high})");
        low + self.below(high - low + 1)
    }

    /// True with the given percentage (0–100).
    pub fn percent(&mut self, percentage: u64) -> bool {
        self.below(100) < percentage
    }
}
