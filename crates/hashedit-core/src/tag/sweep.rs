//! The fused pass: tag, digest and line structure from one sweep of blocks.
//! A plain block (see [`super::block`]) is hashed as it stands, its
//! trailing whitespace held back by position until the next block decides
//! it; other blocks and the chunk's tail take the exact rules. The
//! [`LineSink`] is told each block's line count, or sees its bytes when it
//! keeps lines from it.

use super::block::{BLOCK, classify, is_ws, ws_suffix};
use super::{TagHasher, TagScheme};

/// Bytes of a contiguous run of plain blocks handed to the digest at once:
/// long enough to amortise its call, short enough to stay in cache and to
/// interleave with the block scans.
const DIGEST_RUN: usize = 4096;

/// Where a sweep is in its chunk.
struct Cursor {
    /// The next block to classify.
    pos: usize,
    /// Bytes before this are in the scheme's hash; `hashed..pos` is held
    /// whitespace.
    hashed: usize,
    /// Start of a run of plain blocks hashed but not yet in the digest.
    digest_from: Option<usize>,
}

/// FNV-1a over one block (FORMAT.md §3.1 step 3), unrolled by the compiler.
#[inline(always)]
fn fnv_block(mut h: u32, block: &[u8; BLOCK]) -> u32 {
    for &b in block {
        h = (h ^ u32::from(b)).wrapping_mul(super::FNV_PRIME);
    }
    h
}

/// FNV-1a over any bytes.
#[inline(always)]
fn fnv_bytes(mut h: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(super::FNV_PRIME);
    }
    h
}

/// What a sweep reports about lines, besides the tag.
pub(crate) trait LineSink {
    /// Whether the next block, which starts inside the current line and
    /// holds `newlines` line breaks, must be seen byte by byte
    /// ([`LineSink::visit`]) rather than counted ([`LineSink::pass`]).
    fn wants(&self, newlines: usize) -> bool;
    /// How many line breaks blocks may hold and still be counted rather
    /// than visited, from the current line: a block is wanted once the
    /// breaks passed would exceed this (`usize::MAX`: nothing more is
    /// wanted). `None`: the next block is wanted whatever it holds.
    fn passable(&self) -> Option<usize>;
    /// Counts `blocks` blocks not visited, holding `newlines` line breaks
    /// in all, the last byte a line break or not.
    fn pass(&mut self, newlines: usize, blocks: usize, ends_line: bool);
    /// Sees bytes in order, line by line.
    fn visit(&mut self, bytes: &[u8]);
    /// Whether the bytes swept since the last call held a NUL byte or a
    /// byte of 0x80 or more (see [`super::block::BlockFacts::unusual`]).
    fn note(&mut self, unusual: bool);
}

/// The sink of a sweep that only hashes.
pub(crate) struct NoLines;

impl LineSink for NoLines {
    fn wants(&self, _newlines: usize) -> bool {
        false
    }
    fn passable(&self) -> Option<usize> {
        Some(usize::MAX)
    }
    fn pass(&mut self, _newlines: usize, _blocks: usize, _ends_line: bool) {}
    fn visit(&mut self, _bytes: &[u8]) {}
    fn note(&mut self, _unusual: bool) {}
}

/// Whether `bytes` hold a NUL byte or a byte that is not ASCII.
fn unusual(bytes: &[u8]) -> bool {
    bytes.iter().any(|&b| b == 0 || b >= 0x80)
}

impl TagHasher {
    /// Feeds `data` (the next bytes of the file) to the tag and digest and
    /// its line structure to `lines`, in one pass.
    pub(crate) fn sweep<L: LineSink>(&mut self, mut data: &[u8], lines: &mut L) {
        if self.scheme == TagScheme::Omp && self.bom_probe.is_some() {
            // The first bytes decide whether a BOM is dropped (FORMAT.md
            // §3.2 step 1): at most three go the exact way.
            let seen = self.bom_probe.unwrap_or(0);
            let (head, rest) = data.split_at(data.len().min(3 - seen.min(3)));
            self.exact(head);
            lines.note(unusual(head));
            lines.visit(head);
            data = rest;
        }
        match self.scheme {
            TagScheme::Rho => self.sweep_blocks(TagScheme::Rho, data, lines),
            TagScheme::Omp => self.sweep_blocks(TagScheme::Omp, data, lines),
        }
    }

    /// The sweep proper; `scheme` is a constant at each call so each scheme
    /// gets its own loop.
    ///
    /// Runs of plain blocks go through [`TagHasher::plain_run`]; a block
    /// that ends a run is handled here: by the exact rules, or, when it is
    /// plain but its lines are wanted or it is all whitespace, as any plain
    /// block with its bytes visited.
    #[inline(always)]
    fn sweep_blocks<L: LineSink>(&mut self, scheme: TagScheme, data: &[u8], lines: &mut L) {
        // Bytes before `hashed` are in the scheme's hash; `hashed..pos` is
        // held whitespace of this chunk. `digest_from..hashed` is a run of
        // plain blocks not yet handed to the digest.
        let mut at = Cursor {
            pos: 0,
            hashed: 0,
            digest_from: None,
        };
        loop {
            if self.pending.is_empty() && !self.cr_pending {
                if at.digest_from.is_none() && self.digest.is_some() {
                    self.flush_staged();
                    at.digest_from = Some(at.hashed);
                }
                self.plain_run(scheme, data, &mut at, lines);
            }
            let Some(bytes) = data.get(at.pos..at.pos + BLOCK) else {
                break;
            };
            let Ok(block) = <&[u8; BLOCK]>::try_from(bytes) else {
                break;
            };
            self.one_block(scheme, data, block, &mut at, lines);
        }
        if let Some(from) = at.digest_from {
            self.digest_run(&data[from..at.hashed]);
        }
        let tail = &data[at.pos..];
        lines.note(unusual(tail));
        self.exact(&data[at.hashed..]);
        lines.visit(tail);
    }

    /// Hashes and counts plain blocks from `at` while they are plain, their
    /// lines are not wanted and nothing waits from the exact rules, with
    /// the hash state in locals.
    #[inline(always)]
    fn plain_run<L: LineSink>(
        &mut self,
        scheme: TagScheme,
        data: &[u8],
        at: &mut Cursor,
        lines: &mut L,
    ) {
        let Some(mut budget) = lines.passable() else {
            return;
        };
        let mut fnv = self.fnv;
        let mut xxh = self.xxh.clone();
        let mut odd = false;
        let (mut newlines, mut blocks, mut ends_line) = (0, 0, false);
        while let Some(bytes) = data.get(at.pos..at.pos + BLOCK) {
            let Ok(block) = <&[u8; BLOCK]>::try_from(bytes) else {
                break;
            };
            let facts = classify(scheme, block);
            let held = at.hashed < at.pos;
            if facts.special || (held && block[0] == b'\n') || facts.newlines > budget {
                break;
            }
            let suffix = if is_ws(scheme, block[BLOCK - 1]) {
                ws_suffix(scheme, block)
            } else {
                0
            };
            if suffix == BLOCK {
                break;
            }
            odd |= facts.unusual;
            let end = at.pos + BLOCK;
            match scheme {
                TagScheme::Rho if !held && suffix == 0 => fnv = fnv_block(fnv, block),
                TagScheme::Rho => fnv = fnv_bytes(fnv, &data[at.hashed..end - suffix]),
                TagScheme::Omp if !held && suffix == 0 => xxh.update64(block),
                TagScheme::Omp => xxh.update(&data[at.hashed..end - suffix]),
            }
            at.hashed = end - suffix;
            if let Some(from) = at.digest_from
                && at.hashed - from >= DIGEST_RUN
            {
                self.digest_run(&data[from..at.hashed]);
                at.digest_from = Some(at.hashed);
            }
            budget -= facts.newlines;
            newlines += facts.newlines;
            blocks += 1;
            ends_line = block[BLOCK - 1] == b'\n';
            at.pos = end;
        }
        self.fnv = fnv;
        self.xxh = xxh;
        lines.note(odd);
        if blocks > 0 {
            lines.pass(newlines, blocks, ends_line);
        }
    }

    /// Handles the block at `at` that ended a plain run.
    fn one_block<L: LineSink>(
        &mut self,
        scheme: TagScheme,
        data: &[u8],
        block: &[u8; BLOCK],
        at: &mut Cursor,
        lines: &mut L,
    ) {
        let facts = classify(scheme, block);
        lines.note(facts.unusual);
        let end = at.pos + BLOCK;
        let suffix = if is_ws(scheme, block[BLOCK - 1]) {
            ws_suffix(scheme, block)
        } else {
            0
        };
        let held = at.hashed < at.pos || !self.pending.is_empty();
        let plain =
            !facts.special && !self.cr_pending && suffix < BLOCK && (!held || block[0] != b'\n');
        if plain {
            // Held whitespace is followed by content: it was not trailing.
            if !self.pending.is_empty() {
                self.emit_pending();
            }
            if at.digest_from.is_none() && self.digest.is_some() {
                self.flush_staged();
                at.digest_from = Some(at.hashed);
            }
            self.chain(scheme, &data[at.hashed..end - suffix]);
            at.hashed = end - suffix;
        } else {
            if let Some(from) = at.digest_from.take() {
                self.digest_run(&data[from..at.hashed]);
            }
            self.exact(&data[at.hashed..end]);
            at.hashed = end;
        }
        if lines.wants(facts.newlines) {
            lines.visit(block);
        } else {
            lines.pass(facts.newlines, 1, block[BLOCK - 1] == b'\n');
        }
        at.pos = end;
    }

    /// Feeds bytes of the normalised stream to the scheme's hash only.
    #[inline(always)]
    fn chain(&mut self, scheme: TagScheme, bytes: &[u8]) {
        match scheme {
            TagScheme::Rho => self.fnv(bytes),
            TagScheme::Omp => self.xxh.update(bytes),
        }
    }

    /// Feeds a run of the normalised stream to the digest (after anything
    /// staged, which [`TagHasher::sweep_blocks`] flushed when the run began).
    fn digest_run(&mut self, bytes: &[u8]) {
        if let Some(digest) = &mut self.digest {
            digest.update(bytes);
        }
    }
}
