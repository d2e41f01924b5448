//! Snapshot tags: the low 16 bits of a whole-file hash that ignores
//! trailing whitespace (FORMAT.md §3): [`TagScheme::Rho`], FNV-1a over the
//! lines stripped of trailing space, tab and CR; [`TagScheme::Omp`],
//! xxHash32 over the BOM-less, LF-normalised, trimmed text. [`TagHasher`]
//! takes the bytes in any chunking.
//!
//! # One pass
//!
//! The hasher sweeps 64-byte blocks ([`block`]). A block where no line ends
//! in trailing whitespace (and, for omp, with no CR) is part of the
//! normalised stream as it stands: it goes straight into the scheme's hash
//! (FNV-1a, or our streaming xxHash32, [`xxh32`]) and, in long runs, into
//! the digest; only the rare other blocks take the line-by-line rules. The
//! same sweep tells a [`LineSink`](sweep::LineSink) each block's lines, so
//! the scanner gets tag, digest, line count and window from one look at
//! each byte, the block scans running in the shadow of FNV's multiply chain
//! (docs/PERFORMANCE.md).

use std::fmt;
use std::str::FromStr;

mod block;
pub(crate) mod sweep;
mod xxh32;

use block::is_ws;
use xxh32::Xxh32;

/// Which fingerprint algorithm mints snapshot tags (FORMAT.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TagScheme {
    /// Rho's scheme: FNV-1a 32 over whitespace-trimmed raw lines.
    #[default]
    Rho,
    /// oh-my-pi's scheme: xxHash32 over BOM-less, LF-normalised, trimmed text.
    Omp,
}

impl TagScheme {
    /// The other scheme: the one a peer using the other convention tags
    /// with.
    pub fn other(self) -> TagScheme {
        match self {
            TagScheme::Rho => TagScheme::Omp,
            TagScheme::Omp => TagScheme::Rho,
        }
    }

    /// The scheme's name as used on the command line (`rho` or `omp`).
    pub fn name(self) -> &'static str {
        match self {
            TagScheme::Rho => "rho",
            TagScheme::Omp => "omp",
        }
    }

    /// Fingerprints `bytes` in one call; equal to feeding a [`TagHasher`].
    pub fn tag_of(self, bytes: &[u8]) -> SnapshotTag {
        let mut hasher = TagHasher::new(self);
        hasher.update(bytes);
        hasher.finish()
    }

    /// Tag and 128-bit digest of `bytes` in one pass.
    pub fn fingerprint(self, bytes: &[u8]) -> Fingerprint {
        let mut hasher = TagHasher::with_digest(self);
        hasher.update(bytes);
        hasher.finish_fingerprint()
    }
}

impl FromStr for TagScheme {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "rho" => Ok(TagScheme::Rho),
            "omp" => Ok(TagScheme::Omp),
            other => Err(format!(
                "unknown tag scheme '{other}': choose 'rho' or 'omp'"
            )),
        }
    }
}

/// A 16-bit snapshot tag, shown as 4 uppercase hex digits (`{:04X}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SnapshotTag(pub u16);

impl SnapshotTag {
    /// Parses exactly four ASCII hex digits in either case (`"ABC"`,
    /// `"ABCDE"`, `"12G4"`: `None`).
    pub fn parse(text: &str) -> Option<SnapshotTag> {
        if text.len() != 4 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u16::from_str_radix(text, 16).ok().map(SnapshotTag)
    }
}

impl fmt::Display for SnapshotTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04X}", self.0)
    }
}

impl FromStr for SnapshotTag {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SnapshotTag::parse(s).ok_or_else(|| format!("a snapshot tag is 4 hex digits, got '{s}'"))
    }
}

/// Renders the snapshot header `[path#TAG]`.
pub fn header(display_path: &str, tag: SnapshotTag) -> String {
    format!("[{display_path}#{tag}]")
}

/// Streaming snapshot-tag computation for either scheme, in memory bounded
/// by the longest run of trailing whitespace (kept run-length encoded until
/// the next byte decides it).
#[derive(Clone)]
pub struct TagHasher {
    scheme: TagScheme,
    /// Whitespace seen since the last non-whitespace byte of the current line,
    /// as (byte, count) runs; it is hashed only if more content follows.
    pending: Vec<(u8, u64)>,
    fnv: u32,
    xxh: Xxh32,
    /// omp: bytes of a possible leading BOM seen so far (0..=3), or `None`
    /// once the start of the file has been decided.
    bom_probe: Option<usize>,
    /// omp: the previous chunk ended with a CR whose meaning (CRLF or lone
    /// CR) depends on the next byte.
    cr_pending: bool,
    /// Short runs of the normalised stream, collected so the digest gets
    /// large updates.
    staged: Vec<u8>,
    /// Strong digest of the same normalised stream, when asked for.
    digest: Option<Box<xxhash_rust::xxh3::Xxh3>>,
}

/// A 128-bit digest of the normalised text a tag fingerprints: equal tags
/// with different digests are different snapshots colliding on 16 bits
/// (FORMAT.md §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentDigest(pub u128);

/// A snapshot tag with the strong digest behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint {
    /// The 16-bit tag shown to the model.
    pub tag: SnapshotTag,
    /// The 128-bit digest of the same normalised text.
    pub digest: ContentDigest,
}

const FNV_OFFSET_BASIS: u32 = 0x811C_9DC5;
const FNV_PRIME: u32 = 0x0100_0193;
const UTF8_BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
/// Size at which the staging buffer is flushed into the digest (bytes);
/// small enough to stay in the first-level cache.
const STAGE_FLUSH: usize = 16 * 1024;
/// Runs at least this long skip the staging buffer (bytes).
const DIRECT_RUN: usize = 1024;

impl fmt::Debug for TagHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TagHasher")
            .field("scheme", &self.scheme)
            .finish_non_exhaustive()
    }
}

impl TagHasher {
    /// A hasher for `scheme` with nothing fed yet.
    pub fn new(scheme: TagScheme) -> TagHasher {
        TagHasher {
            scheme,
            pending: Vec::new(),
            fnv: FNV_OFFSET_BASIS,
            xxh: Xxh32::new(),
            bom_probe: Some(0),
            cr_pending: false,
            staged: Vec::new(),
            digest: None,
        }
    }

    /// A hasher that also computes a [`ContentDigest`]; finish it with
    /// [`TagHasher::finish_fingerprint`].
    pub fn with_digest(scheme: TagScheme) -> TagHasher {
        TagHasher {
            digest: Some(Box::new(xxhash_rust::xxh3::Xxh3::new())),
            ..TagHasher::new(scheme)
        }
    }

    /// Returns the tag and digest of everything fed so far. The digest is
    /// of the same normalised stream as the tag (0 if the hasher was made
    /// without [`TagHasher::with_digest`]).
    pub fn finish_fingerprint(mut self) -> Fingerprint {
        let tag = self.finish_inner();
        Fingerprint {
            tag,
            digest: ContentDigest(self.digest.map_or(0, |d| d.digest128())),
        }
    }

    /// Feeds the next chunk of the file's bytes.
    pub fn update(&mut self, data: &[u8]) {
        self.sweep(data, &mut sweep::NoLines);
    }

    /// Feeds bytes by the exact line-by-line rules (the slow path of the
    /// sweep, and the whole of any piece shorter than a block).
    fn exact(&mut self, data: &[u8]) {
        match self.scheme {
            TagScheme::Rho => self.update_rho(data),
            TagScheme::Omp => self.update_omp(data),
        }
    }

    /// Returns the tag of everything fed so far.
    pub fn finish(mut self) -> SnapshotTag {
        self.finish_inner()
    }

    fn finish_inner(&mut self) -> SnapshotTag {
        match self.scheme {
            TagScheme::Rho => {
                self.flush_staged();
                SnapshotTag((self.fnv & 0xFFFF) as u16)
            }
            TagScheme::Omp => {
                // A BOM prefix that never completed is ordinary content.
                if let Some(seen) = self.bom_probe.take() {
                    let partial = UTF8_BOM[..seen].to_vec();
                    self.omp_text(&partial);
                }
                // A final lone CR is a line break followed by nothing; the
                // trailing-whitespace rule drops nothing further, and an LF
                // at the end is kept like any other.
                if std::mem::take(&mut self.cr_pending) {
                    self.omp_newline();
                }
                self.flush_staged();
                SnapshotTag((self.xxh.digest() & 0xFFFF) as u16)
            }
        }
    }

    fn fnv(&mut self, bytes: &[u8]) {
        let mut h = self.fnv;
        for &b in bytes {
            h ^= u32::from(b);
            h = h.wrapping_mul(FNV_PRIME);
        }
        self.fnv = h;
    }

    /// Hashes whitespace that was held back because it might have been
    /// trailing, now that content follows it on the same line.
    fn emit_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        for &(byte, count) in &pending {
            for _ in 0..count {
                self.emit_raw(&[byte]);
            }
        }
        self.pending = pending;
        self.pending.clear();
    }

    /// Feeds bytes of the normalised stream to every consumer: FNV directly,
    /// xxHash32 and the digest through a staging buffer (they have a
    /// per-call cost), long runs past it.
    fn emit_raw(&mut self, bytes: &[u8]) {
        if self.scheme == TagScheme::Rho {
            self.fnv(bytes);
        }
        self.emit_streams(bytes);
    }

    /// Feeds bytes of the normalised stream to xxHash32 (omp) and the
    /// digest, not to FNV (see [`TagHasher::runs`]).
    fn emit_streams(&mut self, bytes: &[u8]) {
        if self.scheme == TagScheme::Omp {
            self.xxh.update(bytes);
        }
        if self.digest.is_none() {
            return;
        }
        if bytes.len() >= DIRECT_RUN {
            self.flush_staged();
            self.feed_streams(bytes);
        } else {
            self.staged.extend_from_slice(bytes);
            if self.staged.len() >= STAGE_FLUSH {
                self.flush_staged();
            }
        }
    }

    /// Hands the staged bytes to the digest.
    fn flush_staged(&mut self) {
        if self.staged.is_empty() {
            return;
        }
        let staged = std::mem::take(&mut self.staged);
        self.feed_streams(&staged);
        self.staged = staged;
        self.staged.clear();
    }

    fn feed_streams(&mut self, bytes: &[u8]) {
        if let Some(digest) = &mut self.digest {
            digest.update(bytes);
        }
    }

    fn push_pending(&mut self, ws: &[u8]) {
        for &b in ws {
            match self.pending.last_mut() {
                Some((last, count)) if *last == b => *count += 1,
                _ => self.pending.push((b, 1)),
            }
        }
    }

    /// Feeds `data` under the trimming rule as maximal runs of unchanged
    /// input: slices go to the consumers only where the stream leaves the
    /// input (trailing whitespace, a rewritten line break, the chunk's end).
    /// `breaks` finds the next line break; `on_break` decides what a break
    /// emits and where the next line starts. FNV (rho) is fed line by line
    /// instead, so its multiply chain overlaps the search for the next break.
    fn runs(
        &mut self,
        data: &[u8],
        is_ws: fn(u8) -> bool,
        breaks: fn(&[u8]) -> Option<usize>,
        on_break: fn(&mut TagHasher, &[u8], usize) -> BreakAction,
    ) {
        let rho = self.scheme == TagScheme::Rho;
        let mut run = 0;
        let mut hashed = 0;
        let mut pos = 0;
        while pos < data.len() {
            let found = breaks(&data[pos..]).map(|i| pos + i);
            let end = found.unwrap_or(data.len());
            let piece = &data[pos..end];
            let keep = piece.iter().rposition(|&b| !is_ws(b)).map_or(0, |i| i + 1);
            if keep > 0 && !self.pending.is_empty() {
                // Whitespace carried over from the previous chunk was not
                // trailing (only possible for the chunk's first piece, where
                // no run has started yet).
                debug_assert_eq!((run, hashed), (pos, pos));
                self.emit_pending();
            }
            let Some(brk) = found else {
                // The chunk ends inside a line: content so far is final,
                // trailing whitespace waits for the next byte.
                if keep < piece.len() {
                    if rho {
                        self.fnv(&data[hashed..pos + keep]);
                        hashed = data.len();
                    }
                    self.emit_streams(&data[run..pos + keep]);
                    self.push_pending(&piece[keep..]);
                    run = data.len();
                }
                break;
            };
            if keep == 0 {
                // A line of whitespace (with any carried over) ends here.
                self.pending.clear();
            }
            match on_break(self, data, brk) {
                BreakAction::Keep { next } => {
                    if keep < piece.len() {
                        if rho {
                            self.fnv(&data[hashed..pos + keep]);
                            hashed = brk;
                        }
                        self.emit_streams(&data[run..pos + keep]);
                        run = brk;
                    } else if rho {
                        self.fnv(&data[hashed..next]);
                        hashed = next;
                    }
                    pos = next;
                }
                BreakAction::Rewrite { next } => {
                    debug_assert!(!rho, "only omp rewrites line breaks");
                    self.emit_streams(&data[run..pos + keep]);
                    self.emit_raw(b"\n");
                    run = next;
                    pos = next;
                }
                BreakAction::Pending => {
                    debug_assert!(!rho, "only omp defers a CR");
                    self.emit_streams(&data[run..pos + keep]);
                    run = data.len();
                    break;
                }
            }
        }
        if rho && hashed < data.len() {
            self.fnv(&data[hashed..]);
        }
        if run < data.len() {
            self.emit_streams(&data[run..]);
        }
    }

    fn update_rho(&mut self, data: &[u8]) {
        self.runs(
            data,
            |b| is_ws(TagScheme::Rho, b),
            |d| memchr::memchr(b'\n', d),
            |_, _, i| BreakAction::Keep { next: i + 1 },
        );
    }

    fn update_omp(&mut self, mut data: &[u8]) {
        if let Some(seen) = self.bom_probe {
            // Match the BOM byte by byte, possibly across chunks.
            let mut seen = seen;
            while seen < 3 {
                match data.first() {
                    None => {
                        self.bom_probe = Some(seen);
                        return;
                    }
                    Some(&b) if b == UTF8_BOM[seen] => {
                        seen += 1;
                        data = &data[1..];
                    }
                    Some(_) => break,
                }
            }
            self.bom_probe = None;
            if seen < 3 {
                let partial = UTF8_BOM[..seen].to_vec();
                self.omp_text(&partial);
            }
        }
        self.omp_text(data);
    }

    /// omp: feeds BOM-free text, normalising CRLF and lone CR to LF.
    fn omp_text(&mut self, mut data: &[u8]) {
        if data.is_empty() {
            return;
        }
        if std::mem::take(&mut self.cr_pending) {
            // The CR ending the previous chunk is a break either way; a
            // following LF belongs to it.
            self.omp_newline();
            if data[0] == b'\n' {
                data = &data[1..];
            }
        }
        self.runs(
            data,
            |b| is_ws(TagScheme::Omp, b),
            |d| memchr::memchr2(b'\n', b'\r', d),
            |hasher, d, i| {
                if d[i] == b'\n' {
                    return BreakAction::Keep { next: i + 1 };
                }
                match d.get(i + 1) {
                    Some(b'\n') => BreakAction::Rewrite { next: i + 2 },
                    Some(_) => BreakAction::Rewrite { next: i + 1 },
                    None => {
                        hasher.cr_pending = true;
                        BreakAction::Pending
                    }
                }
            },
        );
    }

    fn omp_newline(&mut self) {
        self.pending.clear();
        self.emit_raw(b"\n");
    }
}

/// What a line break found by [`TagHasher::runs`] does to the stream.
enum BreakAction {
    /// The break is a `\n` that stays in the stream as it is; the next line
    /// starts at `next`.
    Keep {
        /// Index of the next line's first byte.
        next: usize,
    },
    /// The break (CRLF or a lone CR) is emitted as `\n`; the next line
    /// starts at `next`.
    Rewrite {
        /// Index of the next line's first byte.
        next: usize,
    },
    /// The chunk ends with a CR whose meaning the next chunk decides.
    Pending,
}

#[cfg(test)]
mod tests;
