//! # hashedit-rng
//!
//! The seeded generator of hashedit's test harnesses and benchmarks (the
//! differential tests, the robustness and reliability harnesses, the
//! benchmark inputs): SplitMix64, tiny, fast, and stable across platforms
//! and releases, which is what matters here: a seed printed by a failing
//! run, or pinned by a published table, must regenerate the same input on
//! any machine, forever. It has no dependencies, so every harness can use
//! it without pulling another harness in.
//!
//! ```
//! use hashedit_rng::Rng;
//! let mut rng = Rng::new(7);
//! assert_eq!(rng.next_u64(), 0x63cb_e1e4_5932_0dd7);
//! assert!(rng.between(3, 5) >= 3);
//! ```

/// A deterministic pseudo-random generator.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A generator for case `index` of a run seeded with `seed`, independent
    /// of how many numbers earlier cases drew.
    pub fn for_case(seed: u64, index: u64) -> Rng {
        let mut rng = Rng::new(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
        rng.next_u64();
        rng
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        assert!(lo <= hi, "Rng::between({lo}, {hi})");
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent`/100.
    pub fn percent(&mut self, percent: u32) -> bool {
        (self.next_u64() % 100) < u64::from(percent)
    }

    /// A random element of `items` (non-empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests;
