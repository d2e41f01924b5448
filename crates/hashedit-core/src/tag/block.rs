//! What one 64-byte block of a file holds, found in one look: a block that
//! is plain for its scheme (no trailing whitespace ends a line in it, and
//! for omp no CR) is hashed whole (FORMAT.md §3). The loops run over
//! fixed-size arrays with byte accumulators, which the compiler vectorises.

use super::TagScheme;

/// Bytes of a block.
pub(crate) const BLOCK: usize = 64;

/// The facts about one block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockFacts {
    /// `\n` bytes in the block (0..=64).
    pub(crate) newlines: usize,
    /// Whether the block is not plain: a whitespace byte of the scheme
    /// directly before a `\n` inside the block, or (omp) a CR anywhere.
    pub(crate) special: bool,
    /// Whether the block holds a NUL byte or a byte of 0x80 or more: it is
    /// not plain ASCII text, and a scanner checks its chunk again.
    pub(crate) unusual: bool,
}

/// Whether `b` is trailing whitespace under `scheme` (FORMAT.md §3.1 step 2,
/// §3.2 step 2; for omp a CR is a line break, not whitespace).
#[inline(always)]
pub(crate) fn is_ws(scheme: TagScheme, b: u8) -> bool {
    match scheme {
        TagScheme::Rho => matches!(b, b' ' | b'\t' | b'\r'),
        TagScheme::Omp => matches!(b, b' ' | b'\t'),
    }
}

/// Classifies `block` for `scheme`.
///
/// Every byte contributes to one flag byte (bit 7: NUL or not ASCII; bit 0:
/// special) and to the newline count, so the block costs two horizontal
/// reductions whatever it holds.
///
/// Each scheme gets its own copy (a constant parameter), written as loops
/// of a shape the vectoriser takes wherever they are inlined.
#[inline(always)]
pub(crate) fn classify(scheme: TagScheme, block: &[u8; BLOCK]) -> BlockFacts {
    match scheme {
        TagScheme::Rho => classify_as::<false>(block),
        TagScheme::Omp => classify_as::<true>(block),
    }
}

#[inline(always)]
fn classify_as<const OMP: bool>(block: &[u8; BLOCK]) -> BlockFacts {
    // Three simple loops, each of a shape the vectoriser takes: one flag
    // byte OR-ed (bit 7: NUL or not ASCII), a newline count, and the
    // special pairs.
    let mut odd = 0u8;
    let mut newlines = 0u8;
    for &x in block {
        odd |= x | (u8::from(x == 0) << 7);
        newlines += u8::from(x == b'\n');
    }
    // The byte after each byte (0 after the last: no pair leaves the block).
    let mut next = [0u8; BLOCK];
    next[..BLOCK - 1].copy_from_slice(&block[1..]);
    let mut special = 0u8;
    #[allow(clippy::needless_range_loop)] // the indexed pair form vectorises
    for i in 0..BLOCK {
        let x = block[i];
        let y = next[i];
        let ws = if OMP {
            u8::from(x == b' ') | u8::from(x == b'\t')
        } else {
            u8::from(x == b' ') | u8::from(x == b'\t') | u8::from(x == b'\r')
        };
        let cr = if OMP { u8::from(x == b'\r') } else { 0 };
        special |= (ws & u8::from(y == b'\n')) | cr;
    }
    BlockFacts {
        newlines: usize::from(newlines),
        special: special != 0,
        unusual: odd & 0x80 != 0,
    }
}

/// Length of the run of whitespace that ends `block` (0..=64).
#[inline]
pub(crate) fn ws_suffix(scheme: TagScheme, block: &[u8]) -> usize {
    block
        .iter()
        .rev()
        .take_while(|&&b| is_ws(scheme, b))
        .count()
}

#[cfg(test)]
mod tests;
