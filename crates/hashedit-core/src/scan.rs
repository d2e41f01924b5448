//! Streaming scan of a file: the tag, the line count and a window of rows
//! in one pass over chunks of any size, checking the bytes are UTF-8 text,
//! in memory bounded by the window's budget (FORMAT.md §4.2).

use crate::tag::sweep::LineSink;
use crate::tag::{Fingerprint, SnapshotTag, TagHasher, TagScheme};
use crate::text::{DecodeError, UTF8_BOM, foreign_bom};

/// Which rows a scan keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowRequest {
    /// First line to keep (1-based).
    pub start: usize,
    /// Last line to keep (inclusive); `None` keeps up to the end.
    pub end: Option<usize>,
    /// Bytes of rendered rows (`N:text` plus one `\n` each) the window may
    /// take; rows past the budget are counted but not kept.
    pub row_budget: usize,
}

/// What a finished scan knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanOutcome {
    /// Snapshot tag of the whole file.
    pub tag: SnapshotTag,
    /// The tag with its 128-bit digest (see [`Fingerprint`]).
    pub fingerprint: Fingerprint,
    /// Number of lines in the whole file.
    pub total_lines: usize,
    /// File size in bytes.
    pub byte_len: u64,
    /// Kept rows: line `start + i` is `rows[i]`.
    pub rows: Vec<String>,
    /// The first line of the window, as requested.
    pub start: usize,
    /// The first window line that did not fit the budget, and its length in
    /// bytes, when the budget cut the window short.
    pub budget_stop: Option<BudgetStop>,
}

/// The row at which the output budget stopped a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetStop {
    /// 1-based number of the first row not kept.
    pub line: usize,
    /// Length of that row's text in bytes.
    pub line_bytes: u64,
}

/// Push-based scanner: the tag's block sweep with the window as its line
/// sink, blocks outside the window counted, not split, and the NUL and
/// UTF-8 checks only on chunks that are not plain ASCII.
#[derive(Debug)]
pub struct LineScanner {
    hasher: TagHasher,
    window: Window,
    /// Total bytes fed.
    offset: u64,
    /// The first bytes, held until the BOM question is settled.
    head: Vec<u8>,
    head_done: bool,
    /// Bytes of an incomplete UTF-8 sequence at the end of the last chunk.
    carry: Vec<u8>,
    carry_offset: u64,
    error: Option<DecodeError>,
}

/// The line side of a scan: numbering, the kept rows and the budget.
#[derive(Debug)]
struct Window {
    request: WindowRequest,
    /// 1-based number of the line being read.
    line: usize,
    /// Bytes of the current line seen so far (for a line begun in a block
    /// that was counted, not visited: non-zero exactly when the line is not
    /// empty).
    line_len: u64,
    /// Whether the current line is being kept (in the window, under budget).
    keeping: bool,
    current: Vec<u8>,
    rows: Vec<String>,
    used: usize,
    budget_stop: Option<BudgetStop>,
    /// Whether the chunk being swept held a NUL or a non-ASCII byte.
    unusual: bool,
}

impl LineScanner {
    /// A scanner for `scheme` keeping the rows `request` asks for.
    pub fn new(scheme: TagScheme, request: WindowRequest) -> LineScanner {
        let mut window = Window {
            request,
            line: 1,
            line_len: 0,
            keeping: false,
            current: Vec::new(),
            rows: Vec::new(),
            used: 0,
            budget_stop: None,
            unusual: false,
        };
        window.keeping = window.in_window(1);
        LineScanner {
            hasher: TagHasher::with_digest(scheme),
            window,
            offset: 0,
            head: Vec::new(),
            head_done: false,
            carry: Vec::new(),
            carry_offset: 0,
            error: None,
        }
    }

    /// The decode error found so far, if any; callers may stop feeding once
    /// this is set (the result will be that error).
    pub fn error(&self) -> Option<&DecodeError> {
        self.error.as_ref()
    }

    /// Feeds the next chunk.
    pub fn update(&mut self, mut data: &[u8]) {
        if self.error.is_some() {
            return;
        }
        if !self.head_done {
            let take = (4 - self.head.len()).min(data.len());
            self.hasher.update(&data[..take]);
            self.head.extend_from_slice(&data[..take]);
            self.offset += take as u64;
            data = &data[take..];
            if self.head.len() < 4 {
                return;
            }
            self.settle_head();
        }
        self.sweep(data);
    }

    /// Ends the scan.
    ///
    /// Errors: the first [`DecodeError`] in the file (foreign BOM, NUL byte,
    /// invalid or truncated UTF-8).
    pub fn finish(mut self) -> Result<ScanOutcome, DecodeError> {
        if !self.head_done && self.error.is_none() {
            self.settle_head();
        }
        if self.error.is_none() && !self.carry.is_empty() {
            self.error = Some(DecodeError::NotUtf8 {
                offset: self.carry_offset,
            });
        }
        if let Some(error) = self.error {
            return Err(error);
        }
        let mut window = self.window;
        let mut total = window.line - 1;
        if window.line_len > 0 {
            window.end_line();
            total += 1;
        }
        let fingerprint = self.hasher.finish_fingerprint();
        Ok(ScanOutcome {
            tag: fingerprint.tag,
            fingerprint,
            total_lines: total,
            byte_len: self.offset,
            rows: window.rows,
            start: window.request.start,
            budget_stop: window.budget_stop,
        })
    }

    fn settle_head(&mut self) {
        self.head_done = true;
        let head = std::mem::take(&mut self.head);
        if let Some(encoding) = foreign_bom(&head) {
            self.error = Some(DecodeError::UnsupportedEncoding { encoding });
            return;
        }
        // The head is hashed already; its lines are split here. Offsets
        // count from `self.offset`, so rewind over the head.
        self.offset -= head.len() as u64;
        match head.strip_prefix(UTF8_BOM) {
            Some(rest) => {
                self.offset += UTF8_BOM.len() as u64;
                self.head_lines(rest);
            }
            None => self.head_lines(&head),
        }
    }

    /// Checks BOM-free head bytes, already hashed, and splits their lines.
    fn head_lines(&mut self, data: &[u8]) {
        if data.is_empty() || self.error.is_some() {
            return;
        }
        let base = self.offset;
        self.offset += data.len() as u64;
        if let Some(i) = memchr::memchr(0, data) {
            self.error = Some(DecodeError::Binary {
                offset: base + i as u64,
            });
            return;
        }
        self.validate_utf8(data, base);
        if self.error.is_none() {
            self.window.visit(data);
        }
    }

    /// Hashes, splits and checks body bytes (after the head) in one sweep.
    fn sweep(&mut self, data: &[u8]) {
        if data.is_empty() || self.error.is_some() {
            return;
        }
        let base = self.offset;
        self.offset += data.len() as u64;
        self.window.unusual = false;
        self.hasher.sweep(data, &mut self.window);
        if !self.window.unusual && self.carry.is_empty() {
            // Plain ASCII with no sequence to complete: valid text.
            return;
        }
        if let Some(i) = memchr::memchr(0, data) {
            self.error = Some(DecodeError::Binary {
                offset: base + i as u64,
            });
            return;
        }
        self.validate_utf8(data, base);
    }

    fn validate_utf8(&mut self, mut data: &[u8], mut base: u64) {
        if !self.carry.is_empty() {
            let width = utf8_width(self.carry[0]);
            let need = width.saturating_sub(self.carry.len()).min(data.len());
            self.carry.extend_from_slice(&data[..need]);
            data = &data[need..];
            base += need as u64;
            if self.carry.len() < width {
                return;
            }
            if std::str::from_utf8(&self.carry).is_err() {
                self.error = Some(DecodeError::NotUtf8 {
                    offset: self.carry_offset,
                });
                return;
            }
            self.carry.clear();
        }
        if let Err(e) = std::str::from_utf8(data) {
            let at = e.valid_up_to();
            match e.error_len() {
                Some(_) => {
                    self.error = Some(DecodeError::NotUtf8 {
                        offset: base + at as u64,
                    })
                }
                None => {
                    self.carry = data[at..].to_vec();
                    self.carry_offset = base + at as u64;
                }
            }
        }
    }
}

impl LineSink for Window {
    fn wants(&self, newlines: usize) -> bool {
        let (first, last) = (self.line, self.line + newlines);
        match self.budget_stop {
            // Only the stop line's length is still wanted.
            Some(stop) => (first..=last).contains(&stop.line),
            None => last >= self.request.start && self.request.end.is_none_or(|end| first <= end),
        }
    }

    fn passable(&self) -> Option<usize> {
        let line = self.line;
        match self.budget_stop {
            Some(stop) if stop.line < line => Some(usize::MAX),
            Some(stop) => (stop.line - line).checked_sub(1),
            None if self.request.end.is_some_and(|end| line > end) => Some(usize::MAX),
            None => (self.request.start.saturating_sub(line)).checked_sub(1),
        }
    }

    fn pass(&mut self, newlines: usize, blocks: usize, ends_line: bool) {
        if newlines == 0 {
            self.line_len += BLOCK_BYTES * blocks as u64;
        } else {
            self.line += newlines;
            self.line_len = u64::from(!ends_line);
        }
        self.keeping = self.in_window(self.line);
    }

    fn visit(&mut self, mut bytes: &[u8]) {
        while let Some(i) = memchr::memchr(b'\n', bytes) {
            self.line_part(&bytes[..i]);
            self.end_line();
            bytes = &bytes[i + 1..];
        }
        self.line_part(bytes);
    }

    fn note(&mut self, unusual: bool) {
        self.unusual |= unusual;
    }
}

/// Bytes of a block the sweep counts without visiting.
const BLOCK_BYTES: u64 = 64;

impl Window {
    fn in_window(&self, line: usize) -> bool {
        line >= self.request.start
            && self.request.end.is_none_or(|end| line <= end)
            && self.budget_stop.is_none()
    }

    fn remaining(&self) -> usize {
        self.request.row_budget.saturating_sub(self.used)
    }

    fn line_part(&mut self, part: &[u8]) {
        self.line_len += part.len() as u64;
        if !self.keeping {
            return;
        }
        // One byte of slack for a trailing CR that the line model drops.
        if self.current.len() + part.len() > self.remaining().saturating_add(1) {
            self.stop_for_budget();
            return;
        }
        self.current.extend_from_slice(part);
    }

    fn stop_for_budget(&mut self) {
        self.keeping = false;
        self.current = Vec::new();
        self.budget_stop = Some(BudgetStop {
            line: self.line,
            line_bytes: self.line_len,
        });
    }

    fn end_line(&mut self) {
        if self.keeping {
            if self.current.last() == Some(&b'\r') {
                self.current.pop();
            }
            let cost = decimal_width(self.line) + 1 + self.current.len() + 1;
            if cost > self.remaining() {
                self.line_len = self.current.len() as u64;
                self.stop_for_budget();
            } else {
                self.used += cost;
                let bytes = std::mem::take(&mut self.current);
                // Invalid UTF-8 makes the whole scan an error (the chunk's
                // validation, which follows the sweep, reports where); the
                // row is never shown.
                let row = String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                self.rows.push(row);
            }
        } else if let Some(stop) = self.budget_stop.as_mut()
            && stop.line == self.line
        {
            stop.line_bytes = self.line_len;
        }
        self.line += 1;
        self.line_len = 0;
        self.keeping = self.in_window(self.line);
    }
}

/// Number of decimal digits of `n`.
pub(crate) fn decimal_width(mut n: usize) -> usize {
    let mut width = 1;
    while n >= 10 {
        n /= 10;
        width += 1;
    }
    width
}

/// Length of the UTF-8 sequence a lead byte starts (1 for anything that
/// cannot start a longer one; validation reports those).
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 1,
    }
}

/// Scans a whole in-memory buffer in one call.
pub fn scan(
    scheme: TagScheme,
    bytes: &[u8],
    request: WindowRequest,
) -> Result<ScanOutcome, DecodeError> {
    let mut scanner = LineScanner::new(scheme, request);
    scanner.update(bytes);
    scanner.finish()
}

#[cfg(test)]
mod tests;
