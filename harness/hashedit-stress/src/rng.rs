//! The harness's draws, so every run is reproducible from its seed: the
//! workspace's one SplitMix64 (`hashedit-rng`) under this harness's own
//! distributions, which scale instead of taking remainders (the streams
//! of the published runs depend on them, so they stay).

/// A seeded generator, good enough to pick sizes, kill instants and edit
/// positions.
#[derive(Debug, Clone)]
pub struct Rng(hashedit_rng::Rng);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(hashedit_rng::Rng::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Multiply-shift: unbiased enough for test inputs.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A `usize` in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo) as u64 + 1;
        lo + self.below(span) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A random element of `items` (which must not be empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let index = self.below(items.len() as u64) as usize;
        &items[index.min(items.len().saturating_sub(1))]
    }

    /// An index chosen with probability proportional to `weights[i]`.
    pub fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        let mut roll = self.below(total);
        for (index, &weight) in weights.iter().enumerate() {
            if roll < weight {
                return index;
            }
            roll -= weight;
        }
        weights.len().saturating_sub(1)
    }

    /// A new generator whose stream is independent of this one's.
    pub fn fork(&mut self) -> Rng {
        Rng::new(self.next_u64() ^ 0xD1B5_4A32_D192_ED03)
    }
}

#[cfg(test)]
mod tests;
