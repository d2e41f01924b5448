//! Streaming xxHash32 (seed 0) for the omp scheme (FORMAT.md §3), ours
//! because the fused pass feeds it one block at a time with its lane states
//! in registers, where a library hasher's per-call bookkeeping would cost
//! every block; tested against `xxhash-rust` under any chunking.

const P1: u32 = 0x9E37_79B1;
const P2: u32 = 0x85EB_CA77;
const P3: u32 = 0xC2B2_AE3D;
const P4: u32 = 0x27D4_EB2F;
const P5: u32 = 0x1656_67B1;

/// Bytes of one stripe: four 32-bit lanes.
const STRIPE: usize = 16;

/// xxHash32 state: four lanes, the bytes of an unfinished stripe and the
/// total length fed.
#[derive(Debug, Clone)]
pub(crate) struct Xxh32 {
    lanes: [u32; 4],
    /// The start of the next stripe, little-endian: `held` bytes, the bits
    /// above them zero.
    buf: u128,
    held: usize,
    total: u64,
}

#[inline(always)]
fn round(acc: u32, word: u32) -> u32 {
    acc.wrapping_add(word.wrapping_mul(P2))
        .rotate_left(13)
        .wrapping_mul(P1)
}

#[inline(always)]
fn word(bytes: &[u8], at: usize) -> u32 {
    // One bounds check and one load (four indexed bytes compile to four
    // byte loads, which the profile found in the lanes' hot loop).
    let mut w = [0u8; 4];
    w.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(w)
}

/// The first 16 bytes of `bytes` (at least that long), little-endian.
#[inline(always)]
fn load16(bytes: &[u8]) -> u128 {
    let mut a = [0u8; STRIPE];
    a.copy_from_slice(&bytes[..STRIPE]);
    u128::from_le_bytes(a)
}

impl Xxh32 {
    /// The state with nothing fed (seed 0).
    pub(crate) fn new() -> Xxh32 {
        Xxh32 {
            lanes: [P1.wrapping_add(P2), P2, 0, 0u32.wrapping_sub(P1)],
            buf: 0,
            held: 0,
            total: 0,
        }
    }

    #[inline(always)]
    fn stripe(&mut self, s: &[u8]) {
        self.stripe_of(load16(s));
    }

    #[inline(always)]
    fn stripe_of(&mut self, s: u128) {
        let [a, b, c, d] = &mut self.lanes;
        *a = round(*a, s as u32);
        *b = round(*b, (s >> 32) as u32);
        *c = round(*c, (s >> 64) as u32);
        *d = round(*d, (s >> 96) as u32);
    }

    /// Feeds the next bytes of the stream.
    ///
    /// An input of a stripe or more touches the held bytes only through
    /// shifts of 16-byte loads (no variable-length copies), whatever the
    /// stream's alignment to the input.
    #[inline(always)]
    pub(crate) fn update(&mut self, input: &[u8]) {
        self.total += input.len() as u64;
        if input.len() < STRIPE {
            self.update_short(input);
            return;
        }
        let mut rest = input;
        if self.held > 0 {
            // `held` is 1..=15, so both shifts stay below 128 bits.
            let first = self.buf | (load16(input) << (8 * self.held));
            self.stripe_of(first);
            rest = &input[STRIPE - self.held..];
        }
        let mut stripes = rest.chunks_exact(STRIPE);
        for s in &mut stripes {
            self.stripe(s);
        }
        let left = stripes.remainder().len();
        self.held = left;
        self.buf = if left == 0 {
            0
        } else {
            load16(&input[input.len() - STRIPE..]) >> (8 * (STRIPE - left))
        };
    }

    /// Feeds one 64-byte block: [`Xxh32::update`] without loops or length
    /// checks, for the sweep's plain blocks.
    #[inline(always)]
    pub(crate) fn update64(&mut self, block: &[u8; 64]) {
        self.total += 64;
        if self.held == 0 {
            for s in block.chunks_exact(STRIPE) {
                self.stripe(s);
            }
            return;
        }
        // 64 bytes are four whole stripes: the number of held bytes stays.
        let h = self.held;
        let first = self.buf | (load16(block) << (8 * h));
        self.stripe_of(first);
        for k in 1..4 {
            self.stripe(&block[k * STRIPE - h..]);
        }
        self.buf = load16(&block[64 - STRIPE..]) >> (8 * (STRIPE - h));
    }

    #[inline]
    fn update_short(&mut self, input: &[u8]) {
        for &byte in input {
            self.buf |= u128::from(byte) << (8 * self.held);
            self.held += 1;
            if self.held == STRIPE {
                self.stripe_of(self.buf);
                self.buf = 0;
                self.held = 0;
            }
        }
    }

    /// The hash of everything fed so far.
    pub(crate) fn digest(&self) -> u32 {
        let [a, b, c, d] = self.lanes;
        let mut h = if self.total >= STRIPE as u64 {
            a.rotate_left(1)
                .wrapping_add(b.rotate_left(7))
                .wrapping_add(c.rotate_left(12))
                .wrapping_add(d.rotate_left(18))
        } else {
            P5
        };
        // The length enters modulo 2^32, as the algorithm specifies.
        h = h.wrapping_add(self.total as u32);
        let bytes = self.buf.to_le_bytes();
        let tail = &bytes[..self.held];
        let mut words = tail.chunks_exact(4);
        for w in &mut words {
            h = h
                .wrapping_add(word(w, 0).wrapping_mul(P3))
                .rotate_left(17)
                .wrapping_mul(P4);
        }
        for &byte in words.remainder() {
            h = h
                .wrapping_add(u32::from(byte).wrapping_mul(P5))
                .rotate_left(11)
                .wrapping_mul(P1);
        }
        h ^= h >> 15;
        h = h.wrapping_mul(P2);
        h ^= h >> 13;
        h = h.wrapping_mul(P3);
        h ^ (h >> 16)
    }
}

#[cfg(test)]
mod tests;
