//! Streaming scan of a file: tag, line count and a window of rows in one pass.
//!
//! [`LineScanner`] is fed the file's bytes in chunks of any size. It checks
//! that the bytes are UTF-8 text ([`DecodeError`] otherwise), feeds the
//! snapshot tag, counts lines by the line model of [`crate::text`], and keeps
//! only the rows of the requested window that fit a byte budget. Memory is
//! bounded by that budget whatever the file size, which is how `read_file`
//! serves files of gigabytes (product.md §3 item 9) with the same numbering
//! and tag as an in-memory [`crate::Text`].

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

/// Push-based scanner; see the module docs.
#[derive(Debug)]
pub struct LineScanner {
    hasher: TagHasher,
    request: WindowRequest,
    /// Total bytes fed.
    offset: u64,
    /// The first bytes, held until the BOM question is settled.
    head: Vec<u8>,
    head_done: bool,
    /// Bytes of an incomplete UTF-8 sequence at the end of the last chunk.
    carry: Vec<u8>,
    carry_offset: u64,
    error: Option<DecodeError>,
    /// 1-based number of the line being read.
    line: usize,
    /// Bytes of the current line seen so far.
    line_len: u64,
    /// Whether the current line is being kept (in the window, under budget).
    keeping: bool,
    current: Vec<u8>,
    rows: Vec<String>,
    used: usize,
    budget_stop: Option<BudgetStop>,
}

impl LineScanner {
    /// A scanner for `scheme` keeping the rows `request` asks for.
    pub fn new(scheme: TagScheme, request: WindowRequest) -> LineScanner {
        let mut scanner = LineScanner {
            hasher: TagHasher::with_digest(scheme),
            request,
            offset: 0,
            head: Vec::new(),
            head_done: false,
            carry: Vec::new(),
            carry_offset: 0,
            error: None,
            line: 1,
            line_len: 0,
            keeping: false,
            current: Vec::new(),
            rows: Vec::new(),
            used: 0,
            budget_stop: None,
        };
        scanner.keeping = scanner.in_window(1);
        scanner
    }

    /// The decode error found so far, if any; callers may stop feeding once
    /// this is set (the result will be that error).
    pub fn error(&self) -> Option<&DecodeError> {
        self.error.as_ref()
    }

    /// Feeds the next chunk.
    pub fn update(&mut self, data: &[u8]) {
        if self.error.is_some() {
            return;
        }
        self.hasher.update(data);
        if !self.head_done {
            let take = (4 - self.head.len()).min(data.len());
            self.head.extend_from_slice(&data[..take]);
            self.offset += take as u64;
            if self.head.len() < 4 {
                return;
            }
            self.settle_head();
            self.body(&data[take..]);
        } else {
            self.body(data);
        }
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
        let mut total = self.line - 1;
        if self.line_len > 0 {
            self.end_line();
            total += 1;
        }
        let fingerprint = self.hasher.finish_fingerprint();
        Ok(ScanOutcome {
            tag: fingerprint.tag,
            fingerprint,
            total_lines: total,
            byte_len: self.offset,
            rows: self.rows,
            start: self.request.start,
            budget_stop: self.budget_stop,
        })
    }

    fn in_window(&self, line: usize) -> bool {
        line >= self.request.start
            && self.request.end.is_none_or(|end| line <= end)
            && self.budget_stop.is_none()
    }

    fn settle_head(&mut self) {
        self.head_done = true;
        let head = std::mem::take(&mut self.head);
        if let Some(encoding) = foreign_bom(&head) {
            self.error = Some(DecodeError::UnsupportedEncoding { encoding });
            return;
        }
        // `body` counts offsets from `self.offset`, so rewind over the head.
        self.offset -= head.len() as u64;
        match head.strip_prefix(UTF8_BOM) {
            Some(rest) => {
                self.offset += UTF8_BOM.len() as u64;
                self.body(rest);
            }
            None => self.body(&head),
        }
    }

    /// Processes BOM-free body bytes: validation, then line splitting.
    fn body(&mut self, data: &[u8]) {
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
        if self.error.is_some() {
            return;
        }
        let mut rest = data;
        loop {
            if let Some(skipped) = self.skip_lines(rest) {
                rest = skipped;
            }
            let Some(i) = memchr::memchr(b'\n', rest) else {
                break;
            };
            self.line_part(&rest[..i]);
            self.end_line();
            rest = &rest[i + 1..];
        }
        self.line_part(rest);
    }

    /// Fast path over lines that are neither kept nor the budget stop's
    /// line: counts line breaks in bulk instead of visiting each line.
    ///
    /// Before the window it jumps to the window's first line (or past the
    /// whole chunk when the window starts later); past the window, or once
    /// the budget has stopped it, it counts every remaining line. Returns
    /// what is left to visit line by line, or `None` when the fast path
    /// does not apply here.
    fn skip_lines<'d>(&mut self, rest: &'d [u8]) -> Option<&'d [u8]> {
        if self.keeping || self.budget_stop.is_some_and(|s| s.line == self.line) {
            return None;
        }
        let past_window =
            self.budget_stop.is_some() || self.request.end.is_some_and(|end| self.line > end);
        if !past_window && self.line >= self.request.start {
            return None;
        }
        let breaks = count_newlines(rest);
        if !past_window {
            // Line breaks to pass before the window's first line.
            let need = self.request.start - self.line;
            if breaks >= need {
                let at = memchr::memchr_iter(b'\n', rest)
                    .nth(need - 1)
                    .expect("counted");
                self.line = self.request.start;
                self.line_len = 0;
                self.keeping = self.in_window(self.line);
                return Some(&rest[at + 1..]);
            }
        }
        match memchr::memrchr(b'\n', rest) {
            None => self.line_len += rest.len() as u64,
            Some(last) => {
                self.line += breaks;
                self.line_len = (rest.len() - last - 1) as u64;
            }
        }
        Some(&rest[rest.len()..])
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
                match String::from_utf8(bytes) {
                    Ok(row) => self.rows.push(row),
                    Err(e) => {
                        // Unreachable after validation; fail closed anyway.
                        self.error = Some(DecodeError::NotUtf8 {
                            offset: e.utf8_error().valid_up_to() as u64,
                        });
                    }
                }
            }
        } else if self.budget_stop.is_some_and(|s| s.line == self.line) {
            let stop = self.budget_stop.as_mut().expect("checked");
            stop.line_bytes = self.line_len;
        }
        self.line += 1;
        self.line_len = 0;
        self.keeping = self.in_window(self.line);
    }
}

/// Number of `\n` bytes in `bytes` (a loop the compiler vectorises).
fn count_newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
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
