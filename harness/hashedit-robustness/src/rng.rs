//! A seeded generator, stable across platforms and releases.
//!
//! The benchmark's numbers must be reproducible from `--seed` alone, so the
//! generator is ours (SplitMix64, from `hashedit-rng`, which every harness
//! shares) rather than a crate whose streams may change between versions;
//! only the way a run's items get their own streams ([`stream`]) is the
//! benchmark's.

pub use hashedit_rng::Rng;

/// An independent stream for item `index` of a run seeded with `seed`:
/// item 7 draws the same numbers whether or not items 0–6 were made.
pub fn stream(seed: u64, index: u64) -> Rng {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    rng.next_u64();
    rng.next_u64();
    rng
}

#[cfg(test)]
mod tests;
