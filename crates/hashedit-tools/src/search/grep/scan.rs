//! One file's search: read it through the confined reader, check it is
//! editable text, find candidate lines with ripgrep's searcher and confirm
//! each on its exact line text.

use std::ops::ControlFlow;
use std::path::Path;

use grep_regex::RegexMatcher;
use grep_searcher::{Searcher, SearcherBuilder, Sink, SinkMatch};
use hashedit_core::{DecodeError, Fingerprint, UTF8_BOM, check_text, truncate_chars};
use regex::Regex;

use super::request::Request;
use crate::args::OutputMode;
use crate::fsio::{Special, TreeReader, Unread};
use crate::search::walk::WalkedFile;
use crate::search::{
    Limits, MAX_GREP_FILE_BYTES, MAX_NAMED_GREP_FILE_BYTES, MAX_PREVIEW_CHARS, Stop,
};

/// Why a file (or directory) was not searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Skip {
    /// A NUL byte at `offset`.
    Binary {
        offset: u64,
    },
    NotUtf8,
    TooLarge,
    Unreadable,
    /// A FIFO, socket or device.
    Special,
    /// A directory the walk could not read.
    UnreadableDir,
}

/// A matching line kept for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MatchLine {
    /// 1-based line number.
    pub(super) line: u64,
    /// The line's text, cut to [`MAX_PREVIEW_CHARS`].
    pub(super) text: String,
    /// Context rows shown above it (`-B`/`-C`), none already shown.
    pub(super) before: Vec<ContextRow>,
    /// Context rows shown below it (`-A`/`-C`).
    pub(super) after: Vec<ContextRow>,
}

/// A line shown around a match, as a read row: its number and its whole
/// text (CR dropped), so it can be copied into a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ContextRow {
    /// 1-based line number.
    pub(super) line: u64,
    /// The line's exact text.
    pub(super) text: String,
}

/// Fills the context rows of `lines` (sorted, 1-based) from `body`:
/// `before` lines above and `after` below each, never a line shown as a
/// match or as another match's context.
fn add_context(body: &[u8], lines: &mut [MatchLine], before: usize, after: usize) {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', body).map(|i| i + 1))
        .filter(|&start| start < body.len())
        .collect();
    let text_of = |line: u64| -> String {
        let index = (line - 1) as usize;
        let start = starts[index];
        let end = starts.get(index + 1).copied().unwrap_or(body.len());
        let raw = &body[start..end];
        let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        String::from_utf8_lossy(raw).into_owned()
    };
    let count = starts.len() as u64;
    let matches: Vec<u64> = lines.iter().map(|l| l.line).collect();
    let mut shown_up_to = 0u64;
    for (i, line) in lines.iter_mut().enumerate() {
        let first = line
            .line
            .saturating_sub(before as u64)
            .max(shown_up_to + 1)
            .max(1);
        line.before = (first..line.line)
            .map(|n| ContextRow {
                line: n,
                text: text_of(n),
            })
            .collect();
        let next_match = matches.get(i + 1).copied().unwrap_or(u64::MAX);
        let last = (line.line + after as u64).min(count).min(next_match - 1);
        line.after = (line.line + 1..=last)
            .map(|n| ContextRow {
                line: n,
                text: text_of(n),
            })
            .collect();
        shown_up_to = last.max(line.line);
    }
}

/// One file's search result.
#[derive(Debug)]
pub(super) enum Scan {
    Skipped(Skip),
    NoMatch,
    Hit {
        /// Matching lines (1 in files_with_matches mode).
        total: usize,
        lines: Vec<MatchLine>,
        fingerprint: Option<Fingerprint>,
    },
    /// Not searched: the call was cancelled or ran out of time first.
    Aborted(Stop),
}

/// Per-thread search state: reused buffer, searcher and matchers.
pub(super) struct Scanner<'a> {
    request: &'a Request,
    limits: &'a Limits,
    exact: Regex,
    candidates: Option<RegexMatcher>,
    searcher: Searcher,
    reader: TreeReader,
    buffer: Vec<u8>,
}

impl<'a> Scanner<'a> {
    /// A scanner for files below the workspace root `root`.
    pub(super) fn new(request: &'a Request, limits: &'a Limits, root: &Path) -> Scanner<'a> {
        let searcher = SearcherBuilder::new()
            .line_number(true)
            .bom_sniffing(false)
            .build();
        Scanner {
            request,
            limits,
            // Clones get their own match caches: no contention.
            exact: request.exact.clone(),
            candidates: request.candidates.clone(),
            searcher,
            reader: TreeReader::new(root),
            buffer: Vec::new(),
        }
    }

    /// Reads and searches one file of the walk.
    pub(super) fn scan(&mut self, file: WalkedFile) -> (String, Scan) {
        // A file the caller named is searched up to a larger size: it was
        // asked for, not met on the way.
        let max_bytes = if file.relative.is_empty() {
            MAX_NAMED_GREP_FILE_BYTES
        } else {
            MAX_GREP_FILE_BYTES
        };
        let scan = self.scan_path(&file.absolute, max_bytes);
        (file.relative, scan)
    }

    fn scan_path(&mut self, path: &Path, max_bytes: u64) -> Scan {
        if let Some(stop) = self.limits.check() {
            return Scan::Aborted(stop);
        }
        if let Err(unread) = self.reader.read(path, max_bytes, &mut self.buffer) {
            return Scan::Skipped(skip_of(&unread));
        }
        let bytes = &self.buffer[..];
        match check_text(bytes) {
            Ok(()) => {}
            Err(DecodeError::Binary { offset }) => return Scan::Skipped(Skip::Binary { offset }),
            Err(DecodeError::NotUtf8 { .. } | DecodeError::UnsupportedEncoding { .. }) => {
                return Scan::Skipped(Skip::NotUtf8);
            }
        }
        let body = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
        let mut found = Found {
            exact: &self.exact,
            retain: self.request.retain(),
            first_only: self.request.mode == OutputMode::FilesWithMatches,
            total: 0,
            lines: Vec::new(),
        };
        let exact_only = self.request.end_anchored && memchr::memchr(b'\r', body).is_some();
        match &self.candidates {
            Some(matcher) if !exact_only => {
                if self
                    .searcher
                    .search_slice(matcher, body, &mut found)
                    .is_err()
                {
                    return Scan::Skipped(Skip::Unreadable);
                }
            }
            _ => found.every_line(body),
        }
        if found.total == 0 {
            return Scan::NoMatch;
        }
        let fingerprint = (self.request.mode == OutputMode::Content)
            .then(|| self.request.scheme.fingerprint(bytes));
        let mut lines = found.lines;
        let context = self.request.context;
        if context.before > 0 || context.after > 0 {
            add_context(body, &mut lines, context.before, context.after);
        }
        Scan::Hit {
            total: found.total,
            lines,
            fingerprint,
        }
    }
}

/// The skip bucket of a file the reader refused.
fn skip_of(unread: &Unread) -> Skip {
    match unread {
        Unread::TooLarge => Skip::TooLarge,
        Unread::NotRegular(Special::Directory | Special::Symlink) | Unread::Failed => {
            Skip::Unreadable
        }
        Unread::NotRegular(_) => Skip::Special,
    }
}

/// Confirms candidate lines and keeps the ones to show.
pub(super) struct Found<'r> {
    pub(super) exact: &'r Regex,
    pub(super) retain: usize,
    pub(super) first_only: bool,
    pub(super) total: usize,
    pub(super) lines: Vec<MatchLine>,
}

impl Found<'_> {
    /// Checks one line of the line model; `Break` when no more are wanted.
    fn line(&mut self, number: u64, raw: &[u8]) -> ControlFlow<()> {
        let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        // The file was validated as UTF-8 and lines split at ASCII bytes.
        let Ok(text) = std::str::from_utf8(raw) else {
            return ControlFlow::Continue(());
        };
        if !self.exact.is_match(text) {
            return ControlFlow::Continue(());
        }
        self.total += 1;
        if self.lines.len() < self.retain {
            self.lines.push(MatchLine {
                line: number,
                text: truncate_chars(text, MAX_PREVIEW_CHARS),
                before: Vec::new(),
                after: Vec::new(),
            });
        }
        if self.first_only {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The exact path: every line of `body` goes through the exact matcher.
    pub(super) fn every_line(&mut self, body: &[u8]) {
        let mut start = 0usize;
        let mut number = 1u64;
        while start < body.len() {
            let end = memchr::memchr(b'\n', &body[start..]).map_or(body.len(), |i| start + i + 1);
            if self.line(number, &body[start..end]).is_break() {
                return;
            }
            start = end;
            number += 1;
        }
    }
}

impl Sink for Found<'_> {
    type Error = std::io::Error;

    fn matched(
        &mut self,
        _searcher: &Searcher,
        found: &SinkMatch<'_>,
    ) -> Result<bool, Self::Error> {
        let first = found.line_number().unwrap_or(0);
        for (number, raw) in (first..).zip(found.lines()) {
            if self.line(number, raw).is_break() {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
