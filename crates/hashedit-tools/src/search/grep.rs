//! The `grep` tool: a regex search over the hashline line model, run in
//! parallel with deterministic output.
//!
//! # Matching
//! A pattern matches per line of the line model (reference-rho.md §2): the
//! bytes after a UTF-8 BOM are split at `\n` and one trailing `\r` is
//! dropped from each line, so `^needle$` matches `needle\r\n` but not
//! `needle  `, and a pattern never spans lines. Line numbers are the
//! 1-based numbers `read_file` shows.
//!
//! Two engines cooperate. ripgrep's `grep-searcher` with a `grep-regex`
//! matcher finds candidate lines fast over the whole in-memory file; every
//! candidate is then confirmed with the `regex` crate on the exact line text
//! (CR dropped), which is what defines a match. The candidate matcher finds
//! a superset of the true lines except when an end-of-line anchor meets a
//! line ending in `\r`; for such files, and for patterns `grep-regex`
//! refuses (a literal `\n`), every line is checked with the exact matcher.
//!
//! # Files
//! Only regular files from the walk (see [`super::walk`]) are read, each in
//! one piece. Skipped and counted: files over 5 MiB, files that are not
//! editable text per [`hashedit_core::text::check_text`] (a UTF-16/32 BOM or
//! invalid UTF-8 anywhere counts as "not UTF-8", a NUL byte anywhere as
//! "binary"), files that cannot be opened or read, special files (FIFOs,
//! sockets, devices: never opened) and, in their own bucket, directories
//! the walk could not read. The snapshot tag is
//! computed only for files with matches, over the whole file, exactly as
//! `read_file` computes it.
//!
//! # Parallelism
//! The calling thread walks in order and queues the files, numbered, in
//! batches of 16 for `threads - 1` worker threads; whenever the workers
//! fall behind, it takes the oldest batch back and searches it itself, so
//! `threads` threads share the walk and the search. Results come back in
//! any order and are consumed strictly in walk order, so the caps apply
//! exactly as in a sequential run and the output is byte-identical for any
//! thread count. Once a cap stops the search the walk ends and queued work
//! is dropped. One thread (or a file target) runs everything inline.

use std::collections::{BTreeMap, VecDeque};
use std::fs::File;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{Searcher, SearcherBuilder, Sink, SinkMatch};
use hashedit_core::tag::{Fingerprint, TagScheme, header};
use hashedit_core::text::{DecodeError, UTF8_BOM, check_text};
use hashedit_core::truncate::{truncate_chars, truncate_to_budget};
use regex::{Regex, RegexBuilder};
use serde_json::{Value, json};

use super::budget::{Fit, fit, listing_tail};
use super::glob::PathGlob;
use super::walk::{WalkItem, WalkedFile, check_target, visit_files};
use super::{
    DEFAULT_MAX_PER_FILE, DEFAULT_MAX_RESULTS, Limits, MAX_GREP_FILE_BYTES, MAX_PER_FILE_CEILING,
    MAX_PREVIEW_CHARS, MAX_RESULTS_CEILING, OUTPUT_BUDGET, REGEX_SIZE_LIMIT, SearchOptions,
    SearchScope, Stop, budget_reason, clamp_cap, plural, unreadable_dirs_reason, with_reasons,
    workspace_path,
};
use crate::args::{GrepArgs, OutputMode};
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::outcome::{Outcome, Served};
use crate::workspace::{display_path, raw_path};

/// What `grep` tells the model it can narrow.
const NARROW: &str = "the pattern, path or glob";

/// Searches file contents with a regular expression (reference-rho.md §4,
/// product.md §3 item 7).
///
/// `scope.target` may be a directory (walked as the [`crate::search`] docs
/// describe) or a regular file (searched alone; Rho finds nothing there).
///
/// Matching is per line of the line model, exactly as `read_file` numbers
/// lines: split at `\n`, one trailing `\r` dropped, a UTF-8 BOM not part
/// of line 1; a pattern never spans lines (Rust regex syntax; `literal`
/// escapes it; `case_sensitive` defaults to true; 10 MiB compile and DFA
/// caps). Files over 5 MiB, with a NUL byte, with a UTF-16/32 BOM, not
/// valid UTF-8, unreadable, or special (FIFO, socket, device; never
/// opened) are skipped and counted, and so are directories the walk could
/// not read. Files are searched on [`SearchOptions::thread_count`]
/// threads; the output never depends on it.
///
/// `args.glob`
/// filters files by their path relative to the target (a file target is
/// filtered by its workspace-relative path). `max_results` (default 200,
/// clamped to 1..=1000) counts matching lines in content mode and files
/// otherwise; `max_per_file` (default 10, clamped to 1..=100) caps the
/// lines shown per file in content mode. Both caps apply in walk order.
///
/// Text, content mode (default): per matching file, in walk order and with
/// no blank line between files, a `[path#TAG]` header (TAG from `scheme`,
/// equal to `read_file`'s; the path spelled by
/// [`crate::workspace::display_path`], as `read_file` spells it), rows
/// `{N} | {text}` (text cut to 200 characters plus `…`), and
/// `… +{K} more match(es) in this file` when K matching lines were not
/// shown; then a blank line and `{shown} matches in {F} files` or
/// `{shown} matches shown ({total} total) in {F} files`.
/// files_with_matches: one path per line, blank line, `{F} files`.
/// count: `{path}:{n}` per line, blank line, `{total} matches in {F} files`.
/// Any reason the answer is incomplete follows the summary in parentheses,
/// joined by `; `: the output budget, the result cap, files cut by
/// `max_per_file`, the walk's entry or time limit, cancellation, the count
/// of skipped files by cause, and unreadable directories. Without hits:
/// `no matches for '{pattern}' under {display}` plus the same reasons.
///
/// The output budget: the text shows the longest run of leading rows (a
/// file's header travels with its first row; one line per file in the
/// other modes) that fits in `max_output_bytes` together with the closing
/// `… more` line of a file shown in part and the summary. A row is never
/// cut and the summary always ends the text. When rows were left out the summary adds
/// `output budget of {N} bytes reached; narrow the pattern, path or glob to
/// see the rest` (in place of the result cap's reason), and every count,
/// in the text and in the structured data, describes the rows shown:
/// `{total}` and the `… more` lines cover the files shown, and a file the
/// budget cut is not counted as cut by `max_per_file`. Skip counts cover
/// the whole search.
///
/// Structured:
/// ```json
/// {"mode": "content" | "files_with_matches" | "count",
///  "files": [{"path": "src/a.rs", "tag": "1A2B" | null,
///             "count": 3 | null, "matches": [{"line": 2, "text": "…"}],
///             "more": 1}],
///  "shown": 2, "total": 3 | null, "files_matched": 1,
///  "files_cut_by_max_per_file": 1,
///  "skipped": {"binary": 0, "not_utf8": 0, "too_large": 0, "unreadable": 0,
///              "special": 0, "unreadable_dirs": 0},
///  "stop": null | "output_budget" | "result_limit" | "scan_limit"
///          | "time_limit" | "cancelled"}
/// ```
/// `files` lists the files shown with the rows shown (`path` unquoted);
/// `shown` counts rows in content mode and files otherwise. `tag` is set in
/// content mode only; `count` and `total` are null in files_with_matches
/// mode, which stops reading a file at its first match. `stop` is
/// `"output_budget"` whenever the budget left rows out, else the reason the
/// search itself stopped.
///
/// Errors: [`ErrorKind::InvalidArguments`], before any file I/O,
/// `invalid pattern '{pattern}': {regex error}` and
/// `invalid glob '{glob}': …`; then [`ErrorKind::NotARegularFile`] when the
/// target is a FIFO, socket or device (refused without being opened).
pub fn grep(
    scope: &SearchScope,
    args: &GrepArgs,
    scheme: TagScheme,
    max_output_bytes: usize,
) -> ToolResult<Outcome> {
    grep_with(
        scope,
        args,
        scheme,
        max_output_bytes,
        &SearchOptions::default(),
    )
}

/// [`grep`] with explicit [`SearchOptions`] (thread count, time and entry
/// limits, cancellation). The output does not depend on the thread count.
pub fn grep_with(
    scope: &SearchScope,
    args: &GrepArgs,
    scheme: TagScheme,
    max_output_bytes: usize,
    options: &SearchOptions,
) -> ToolResult<Outcome> {
    let request = Request::compile(args, scheme)?;
    check_target(scope.target, scope.display)?;
    let base = raw_path(scope.display);
    let limits = Limits::start(options);
    let mut collector = Collector::new(&request, &base, scope.display);
    let walk_stop = if options.thread_count() <= 1 || is_file(scope.target) {
        run_inline(scope, &base, &request, &limits, &mut collector)
    } else {
        run_parallel(
            scope,
            &base,
            &request,
            &limits,
            &mut collector,
            options.thread_count(),
        )
    };
    let answer = Answer {
        collector: &collector,
        stop: collector.stop.or(walk_stop),
        limits: &limits,
        budget: max_output_bytes,
    };
    let view = answer.fit();
    let mut outcome = Outcome::new(
        truncate_to_budget(answer.render(&view), max_output_bytes),
        answer.structured(&view),
    );
    // The headers actually shown are snapshots served to the model.
    outcome.served = collector.hits[..view.files]
        .iter()
        .filter_map(|hit| {
            hit.fingerprint.map(|fingerprint| Served {
                target: scope.root.join(&hit.path),
                fingerprint,
            })
        })
        .collect();
    Ok(outcome)
}

fn is_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

/// A validated grep call.
struct Request {
    pattern: String,
    /// Defines a match: run on one line's text, CR dropped.
    exact: Regex,
    /// Finds candidate lines over a whole file; `None` when grep-regex
    /// cannot build the pattern (every line is then checked exactly).
    candidates: Option<RegexMatcher>,
    /// The pattern may assert an end of line or text, which the candidate
    /// matcher sees before a `\r` the line model drops.
    end_anchored: bool,
    glob: Option<PathGlob>,
    include_hidden: bool,
    max_results: usize,
    max_per_file: usize,
    mode: OutputMode,
    scheme: TagScheme,
}

impl Request {
    fn compile(args: &GrepArgs, scheme: TagScheme) -> ToolResult<Request> {
        let literal = args.literal.unwrap_or(false);
        let source = if literal {
            regex::escape(&args.pattern)
        } else {
            args.pattern.clone()
        };
        let case_insensitive = !args.case_sensitive.unwrap_or(true);
        let exact = RegexBuilder::new(&source)
            .case_insensitive(case_insensitive)
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map_err(|e| {
                ToolError::new(
                    ErrorKind::InvalidArguments,
                    format!("invalid pattern '{}': {e}", args.pattern),
                )
            })?;
        let candidates = RegexMatcherBuilder::new()
            .case_insensitive(case_insensitive)
            .multi_line(true)
            .line_terminator(Some(b'\n'))
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build(&source)
            .ok();
        let glob = args.glob.as_deref().map(PathGlob::compile).transpose()?;
        Ok(Request {
            pattern: args.pattern.clone(),
            exact,
            candidates,
            end_anchored: !literal && (source.contains('$') || source.contains("\\z")),
            glob,
            include_hidden: args.include_hidden.unwrap_or(false),
            max_results: clamp_cap(args.max_results, DEFAULT_MAX_RESULTS, MAX_RESULTS_CEILING),
            max_per_file: clamp_cap(
                args.max_per_file,
                DEFAULT_MAX_PER_FILE,
                MAX_PER_FILE_CEILING,
            ),
            mode: args.output_mode.unwrap_or_default(),
            scheme,
        })
    }

    /// Matching lines kept for display per file (0: none are shown).
    fn retain(&self) -> usize {
        match self.mode {
            OutputMode::Content => self.max_per_file,
            OutputMode::FilesWithMatches | OutputMode::Count => 0,
        }
    }

    /// Whether the glob filter (if any) selects this file; `base` is the
    /// target's unquoted workspace-relative path.
    fn selects(&self, file: &WalkedFile, base: &str) -> bool {
        match &self.glob {
            None => true,
            Some(glob) if file.relative.is_empty() => glob.matches(base),
            Some(glob) => glob.matches(&file.relative),
        }
    }
}

/// Why a file (or directory) was not searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    Binary,
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
struct MatchLine {
    line: u64,
    text: String,
}

/// One file's search result.
#[derive(Debug)]
enum Scan {
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

/// A file in the answer.
struct Hit {
    /// Workspace-relative, unquoted.
    path: String,
    fingerprint: Option<Fingerprint>,
    total: usize,
    lines: Vec<MatchLine>,
    /// `max_per_file` kept some of its matching lines out.
    cut_by_per_file: bool,
}

#[derive(Debug, Default, Clone, Copy)]
struct Skipped {
    binary: usize,
    not_utf8: usize,
    too_large: usize,
    unreadable: usize,
    special: usize,
    unreadable_dirs: usize,
}

impl Skipped {
    fn add(&mut self, skip: Skip) {
        match skip {
            Skip::Binary => self.binary += 1,
            Skip::NotUtf8 => self.not_utf8 += 1,
            Skip::TooLarge => self.too_large += 1,
            Skip::Unreadable => self.unreadable += 1,
            Skip::Special => self.special += 1,
            Skip::UnreadableDir => self.unreadable_dirs += 1,
        }
    }

    /// Skipped files (directories are counted apart).
    fn files(&self) -> usize {
        self.binary + self.not_utf8 + self.too_large + self.unreadable + self.special
    }

    /// The reasons for the summary: skipped files by cause, then
    /// unreadable directories.
    fn describe(&self) -> impl Iterator<Item = String> {
        let total = self.files();
        let files = (total > 0).then(|| {
            let parts: Vec<String> = [
                (self.binary, "binary"),
                (self.not_utf8, "not UTF-8"),
                (self.too_large, "over 5 MiB"),
                (self.unreadable, "unreadable"),
                (self.special, "special (FIFO, socket or device)"),
            ]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, why)| format!("{n} {why}"))
            .collect();
            format!(
                "{} skipped: {}",
                plural(total, "file", "files"),
                parts.join(", ")
            )
        });
        files
            .into_iter()
            .chain(unreadable_dirs_reason(self.unreadable_dirs))
    }

    fn structured(&self) -> Value {
        json!({
            "binary": self.binary,
            "not_utf8": self.not_utf8,
            "too_large": self.too_large,
            "unreadable": self.unreadable,
            "special": self.special,
            "unreadable_dirs": self.unreadable_dirs,
        })
    }
}

/// Consumes per-file results in walk order and applies the caps.
struct Collector<'a> {
    request: &'a Request,
    /// The target's unquoted workspace-relative path.
    base: &'a str,
    /// The target as the model sees it (for the no-match line).
    display: &'a str,
    hits: Vec<Hit>,
    /// Results spent against `max_results`.
    spent: usize,
    skipped: Skipped,
    /// Set when a cap, the deadline or cancellation stopped consumption.
    stop: Option<Stop>,
}

impl<'a> Collector<'a> {
    fn new(request: &'a Request, base: &'a str, display: &'a str) -> Collector<'a> {
        Collector {
            request,
            base,
            display,
            hits: Vec::new(),
            spent: 0,
            skipped: Skipped::default(),
            stop: None,
        }
    }

    /// Takes the next result in walk order.
    fn take(&mut self, relative: &str, scan: Scan) -> ControlFlow<Stop> {
        let (total, mut lines, fingerprint) = match scan {
            Scan::NoMatch => return ControlFlow::Continue(()),
            Scan::Skipped(skip) => {
                self.skipped.add(skip);
                return ControlFlow::Continue(());
            }
            Scan::Aborted(stop) => return self.halt(stop),
            Scan::Hit {
                total,
                lines,
                fingerprint,
            } => (total, lines, fingerprint),
        };
        let retain = self.request.retain();
        let cut_by_per_file = retain > 0 && total > lines.len();
        let remaining = self.request.max_results - self.spent;
        lines.truncate(remaining);
        self.spent += match self.request.mode {
            OutputMode::Content => lines.len(),
            OutputMode::FilesWithMatches | OutputMode::Count => 1,
        };
        self.hits.push(Hit {
            path: workspace_path(self.base, relative),
            fingerprint,
            total,
            lines,
            cut_by_per_file,
        });
        if self.spent >= self.request.max_results {
            return self.halt(Stop::ResultLimit);
        }
        ControlFlow::Continue(())
    }

    fn take_item(&mut self, item: Result<(String, Scan), Skip>) -> ControlFlow<Stop> {
        match item {
            Ok((relative, scan)) => self.take(&relative, scan),
            Err(skip) => {
                self.skipped.add(skip);
                ControlFlow::Continue(())
            }
        }
    }

    fn halt(&mut self, stop: Stop) -> ControlFlow<Stop> {
        self.stop = Some(stop);
        ControlFlow::Break(stop)
    }
}

/// The part of the collected hits a reply shows: the first `files` hits,
/// all their kept lines except in the last one, which shows `last_rows`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct View {
    files: usize,
    last_rows: usize,
    /// The output budget left rows out.
    cut: bool,
}

/// A finished search, ready to be fitted to the budget and rendered.
struct Answer<'c, 'a> {
    collector: &'c Collector<'a>,
    stop: Option<Stop>,
    limits: &'c Limits,
    budget: usize,
}

impl Answer<'_, '_> {
    fn hits(&self) -> &[Hit] {
        &self.collector.hits
    }

    fn mode(&self) -> OutputMode {
        self.collector.request.mode
    }

    /// The header or the one line that names a hit.
    fn head(&self, hit: &Hit) -> String {
        let path = display_path(&hit.path);
        match self.mode() {
            OutputMode::Content => match hit.fingerprint.map(|f| f.tag) {
                Some(tag) => header(&path, tag),
                None => path.into_owned(),
            },
            OutputMode::FilesWithMatches => path.into_owned(),
            OutputMode::Count => format!("{path}:{}", hit.total),
        }
    }

    /// Rows of `hits[i]` shown under `view`.
    fn rows(&self, view: &View, i: usize) -> usize {
        if i + 1 == view.files {
            view.last_rows
        } else {
            self.hits()[i].lines.len()
        }
    }

    /// The view showing everything, or as much as the budget allows.
    fn fit(&self) -> View {
        let hits = self.hits();
        // One unit per row in content mode (a file's header goes with its
        // first row, its `… more` line with its last kept row); one per
        // file otherwise. `owner[k]` is the view after unit k.
        let mut units = Vec::new();
        let mut owner = Vec::new();
        for (i, hit) in hits.iter().enumerate() {
            let head = self.head(hit).len() + 1;
            if self.mode() != OutputMode::Content {
                units.push(head);
                owner.push((i, hit.lines.len()));
                continue;
            }
            for (j, line) in hit.lines.iter().enumerate() {
                let mut unit = row(line).len();
                if j == 0 {
                    unit += head;
                }
                if j + 1 == hit.lines.len() {
                    unit += more_line(hit.total, j + 1).map_or(0, |m| m.len());
                }
                units.push(unit);
                owner.push((i, j + 1));
            }
        }
        let view_at = |k: usize, cut: bool| match k.checked_sub(1).map(|u| owner[u]) {
            Some((i, rows)) => View {
                files: i + 1,
                last_rows: rows,
                cut,
            },
            None => View {
                files: 0,
                last_rows: 0,
                cut,
            },
        };
        let Fit { shown, cut } = fit(&units, self.budget, |k, cut| {
            let view = view_at(k, cut);
            // A file shown in part closes with its own `… more` line.
            let partial = match view.files.checked_sub(1) {
                Some(i) if view.last_rows < hits[i].lines.len() => {
                    more_line(hits[i].total, view.last_rows).map_or(0, |m| m.len())
                }
                _ => 0,
            };
            partial + listing_tail(k, self.summary(&view).len())
        });
        view_at(shown, cut)
    }

    /// Matching lines in the files shown.
    fn total(&self, view: &View) -> usize {
        self.hits()[..view.files].iter().map(|h| h.total).sum()
    }

    /// Rows shown (content mode) or files shown (other modes).
    fn shown(&self, view: &View) -> usize {
        match self.mode() {
            OutputMode::Content => (0..view.files).map(|i| self.rows(view, i)).sum(),
            OutputMode::FilesWithMatches | OutputMode::Count => view.files,
        }
    }

    /// Files shown with every kept line whose lines `max_per_file` cut.
    fn cut_by_per_file(&self, view: &View) -> usize {
        (0..view.files)
            .filter(|&i| {
                let hit = &self.hits()[i];
                hit.cut_by_per_file && self.rows(view, i) == hit.lines.len()
            })
            .count()
    }

    fn reasons(&self, view: &View) -> Vec<String> {
        let mut reasons = Vec::new();
        if view.cut {
            reasons.push(budget_reason(self.budget, NARROW));
        }
        // Under a budget cut, more results would not have been shown anyway.
        if let Some(stop) = self.stop.filter(|s| !(view.cut && *s == Stop::ResultLimit)) {
            reasons.push(stop.describe(NARROW, self.limits));
        }
        let cut = self.cut_by_per_file(view);
        if cut > 0 {
            reasons.push(format!(
                "{} cut at max_per_file; raise max_per_file or narrow the pattern",
                plural(cut, "file", "files")
            ));
        }
        reasons.extend(self.collector.skipped.describe());
        reasons
    }

    /// The last line of the reply.
    fn summary(&self, view: &View) -> String {
        let reasons = self.reasons(view);
        if self.hits().is_empty() {
            return with_reasons(
                format!(
                    "no matches for '{}' under {}",
                    self.collector.request.pattern, self.collector.display
                ),
                &reasons,
            );
        }
        if view.files == 0 {
            // Matches were found but not even one fits: say so rather than
            // "0 matches", which would read as an empty search.
            let all = self.hits();
            let found = match self.mode() {
                OutputMode::FilesWithMatches => plural(all.len(), "file", "files"),
                OutputMode::Content | OutputMode::Count => format!(
                    "{} in {}",
                    plural(all.iter().map(|h| h.total).sum(), "match", "matches"),
                    plural(all.len(), "file", "files")
                ),
            };
            return with_reasons(format!("{found} found, none shown"), &reasons);
        }
        let files = plural(view.files, "file", "files");
        let counts = match self.mode() {
            OutputMode::Content => {
                let shown = self.shown(view);
                let total = self.total(view);
                if total == shown {
                    format!("{} in {files}", plural(shown, "match", "matches"))
                } else {
                    format!(
                        "{} shown ({total} total) in {files}",
                        plural(shown, "match", "matches")
                    )
                }
            }
            OutputMode::FilesWithMatches => files,
            OutputMode::Count => format!(
                "{} in {files}",
                plural(self.total(view), "match", "matches")
            ),
        };
        with_reasons(counts, &reasons)
    }

    fn render(&self, view: &View) -> String {
        let mut body = String::new();
        for (i, hit) in self.hits()[..view.files].iter().enumerate() {
            body.push_str(&self.head(hit));
            body.push('\n');
            if self.mode() == OutputMode::Content {
                let rows = self.rows(view, i);
                for line in &hit.lines[..rows] {
                    body.push_str(&row(line));
                }
                if let Some(more) = more_line(hit.total, rows) {
                    body.push_str(&more);
                }
            }
        }
        let summary = self.summary(view);
        if body.is_empty() {
            summary
        } else {
            format!("{body}\n{summary}")
        }
    }

    fn structured(&self, view: &View) -> Value {
        let counted = self.mode() != OutputMode::FilesWithMatches;
        let files: Vec<Value> = self.hits()[..view.files]
            .iter()
            .enumerate()
            .map(|(i, hit)| {
                let rows = self.rows(view, i);
                json!({
                    "path": hit.path,
                    "tag": hit.fingerprint.map(|f| f.tag.to_string()),
                    "count": counted.then_some(hit.total),
                    "matches": hit.lines[..rows].iter().map(|l| json!({"line": l.line, "text": l.text})).collect::<Vec<_>>(),
                    "more": if counted { hit.total - rows } else { 0 },
                })
            })
            .collect();
        json!({
            "mode": match self.mode() {
                OutputMode::Content => "content",
                OutputMode::FilesWithMatches => "files_with_matches",
                OutputMode::Count => "count",
            },
            "files": files,
            "shown": self.shown(view),
            "total": counted.then(|| self.total(view)),
            "files_matched": view.files,
            "files_cut_by_max_per_file": self.cut_by_per_file(view),
            "skipped": self.collector.skipped.structured(),
            "stop": if view.cut { Some(OUTPUT_BUDGET) } else { self.stop.map(Stop::name) },
        })
    }
}

/// A content-mode row: `{N} | {text}` and its line break.
fn row(line: &MatchLine) -> String {
    format!("{} | {}\n", line.line, line.text)
}

/// The `… +K more match(es) in this file` line (with its line break) for a
/// file with `total` matching lines of which `shown` are shown; `None` when
/// all are shown.
fn more_line(total: usize, shown: usize) -> Option<String> {
    let more = total - shown;
    (more > 0).then(|| {
        format!(
            "… +{} in this file\n",
            plural(more, "more match", "more matches")
        )
    })
}

/// Walk, search and collect on the calling thread.
fn run_inline(
    scope: &SearchScope,
    base: &str,
    request: &Request,
    limits: &Limits,
    collector: &mut Collector,
) -> Option<Stop> {
    let mut scanner = Scanner::new(request);
    visit_files(
        scope.target,
        request.include_hidden,
        limits,
        |item| match item {
            WalkItem::Unreadable { directory } => collector.take_item(Err(unreadable(directory))),
            WalkItem::Special(file) if request.selects(&file, base) => {
                collector.take_item(Err(Skip::Special))
            }
            WalkItem::File(file) if request.selects(&file, base) => {
                let scan = scanner.scan(&file.absolute, limits);
                collector.take(&file.relative, scan)
            }
            WalkItem::Special(_) | WalkItem::File(_) => ControlFlow::Continue(()),
        },
    )
}

/// The skip bucket of an entry the walk could not read.
fn unreadable(directory: bool) -> Skip {
    if directory {
        Skip::UnreadableDir
    } else {
        Skip::Unreadable
    }
}

/// Files handed out in one batch: fewer wake-ups than one file at a time,
/// and small enough that a cap wastes little work.
const BATCH: usize = 16;

/// Files to search, each with its walk sequence number.
type Batch = Vec<(usize, WalkedFile)>;
/// Search results, each with its walk sequence number.
type Done = Vec<(usize, String, Scan)>;

/// Batches waiting for a searcher. Workers block on it; the calling thread
/// pushes and, when the workers fall behind, takes batches back to search
/// them itself, so `threads` threads share all the work and no core sits
/// idle behind the walk.
#[derive(Default)]
struct JobQueue {
    state: Mutex<QueueState>,
    ready: Condvar,
}

#[derive(Default)]
struct QueueState {
    batches: VecDeque<Batch>,
    closed: bool,
}

impl JobQueue {
    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues a batch; returns how many are now waiting.
    fn push(&self, batch: Batch) -> usize {
        let waiting = {
            let mut state = self.lock();
            state.batches.push_back(batch);
            state.batches.len()
        };
        self.ready.notify_one();
        waiting
    }

    /// The oldest waiting batch, without blocking.
    fn take(&self) -> Option<Batch> {
        self.lock().batches.pop_front()
    }

    /// The oldest batch, waiting for one; `None` once closed and empty.
    fn next(&self) -> Option<Batch> {
        let mut state = self.lock();
        loop {
            if let Some(batch) = state.batches.pop_front() {
                return Some(batch);
            }
            if state.closed {
                return None;
            }
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// No more batches will come; `discard` drops the ones still waiting.
    fn close(&self, discard: bool) {
        {
            let mut state = self.lock();
            state.closed = true;
            if discard {
                state.batches.clear();
            }
        }
        self.ready.notify_all();
    }
}

fn search_batch(scanner: &mut Scanner, batch: Batch, limits: &Limits, halted: &AtomicBool) -> Done {
    batch
        .into_iter()
        .map(|(seq, file)| {
            let scan = if halted.load(Ordering::Relaxed) {
                Scan::NoMatch
            } else {
                scanner.scan(&file.absolute, limits)
            };
            (seq, file.relative, scan)
        })
        .collect()
}

/// Walk on the calling thread; search there and on `threads - 1` workers;
/// collect in walk order on the calling thread.
fn run_parallel(
    scope: &SearchScope,
    base: &str,
    request: &Request,
    limits: &Limits,
    collector: &mut Collector,
    threads: usize,
) -> Option<Stop> {
    let workers = threads.saturating_sub(1).max(1);
    let queue = JobQueue::default();
    let (result_tx, result_rx) = mpsc::channel::<Done>();
    let halted = AtomicBool::new(false);

    std::thread::scope(|s| {
        for _ in 0..workers {
            let result_tx = result_tx.clone();
            let (queue, halted) = (&queue, &halted);
            s.spawn(move || {
                let mut scanner = Scanner::new(request);
                while let Some(batch) = queue.next() {
                    let done = search_batch(&mut scanner, batch, limits, halted);
                    if result_tx.send(done).is_err() {
                        return;
                    }
                }
            });
        }
        drop(result_tx);

        let mut pipe = Pipeline {
            queue: &queue,
            workers,
            halted: &halted,
            limits,
            scanner: Scanner::new(request),
            result_rx,
            pending: Vec::with_capacity(BATCH),
            order: Reorder::default(),
            collector,
        };
        let walk_stop = visit_files(
            scope.target,
            request.include_hidden,
            limits,
            |item| match item {
                WalkItem::Unreadable { directory } => pipe.push_skip(unreadable(directory)),
                WalkItem::Special(file) if request.selects(&file, base) => {
                    pipe.push_skip(Skip::Special)
                }
                WalkItem::File(file) if request.selects(&file, base) => pipe.push_file(file),
                WalkItem::Special(_) | WalkItem::File(_) => ControlFlow::Continue(()),
            },
        );
        pipe.finish();
        walk_stop
    })
}

/// The calling thread's side of the parallel search.
struct Pipeline<'q, 'c, 'a, 'r> {
    queue: &'q JobQueue,
    workers: usize,
    halted: &'q AtomicBool,
    limits: &'q Limits,
    scanner: Scanner<'r>,
    result_rx: mpsc::Receiver<Done>,
    /// Files not yet queued.
    pending: Batch,
    order: Reorder,
    collector: &'c mut Collector<'a>,
}

impl Pipeline<'_, '_, '_, '_> {
    fn push_file(&mut self, file: WalkedFile) -> ControlFlow<Stop> {
        let seq = self.order.issued;
        self.order.issued += 1;
        self.pending.push((seq, file));
        if self.pending.len() >= BATCH {
            let batch = std::mem::replace(&mut self.pending, Vec::with_capacity(BATCH));
            if self.queue.push(batch) > self.workers {
                // The workers are behind: search the oldest batch here.
                self.help();
            }
        }
        self.poll()
    }

    /// Records an entry that is counted without being searched, in walk
    /// order.
    fn push_skip(&mut self, skip: Skip) -> ControlFlow<Stop> {
        let seq = self.order.issued;
        self.order.issued += 1;
        self.order.ready.insert(seq, Err(skip));
        self.poll()
    }

    /// Searches one waiting batch on this thread; false when none waits.
    fn help(&mut self) -> bool {
        match self.queue.take() {
            Some(batch) => {
                let done = search_batch(&mut self.scanner, batch, self.limits, self.halted);
                self.order.accept(done);
                true
            }
            None => false,
        }
    }

    /// Consumes whatever results have arrived, in walk order.
    fn poll(&mut self) -> ControlFlow<Stop> {
        while let Ok(done) = self.result_rx.try_recv() {
            self.order.accept(done);
        }
        self.order.drain(self.collector)
    }

    /// After the walk: queues the rest, helps search it, and consumes
    /// results until every issued file is accounted for or the collector
    /// stops. Then releases the workers.
    fn finish(&mut self) {
        if self.collector.stop.is_none() && !self.pending.is_empty() {
            let batch = std::mem::take(&mut self.pending);
            self.queue.push(batch);
        }
        while self.poll().is_continue() && self.help() {}
        self.queue.close(self.collector.stop.is_some());
        while self.collector.stop.is_none() && self.order.next < self.order.issued {
            if self.order.drain(self.collector).is_break() || self.order.next >= self.order.issued {
                break;
            }
            match self.result_rx.recv() {
                Ok(done) => self.order.accept(done),
                Err(_) => break,
            }
        }
        self.halted.store(true, Ordering::Relaxed);
        self.queue.close(true);
    }
}

/// Results waiting for their turn in walk order.
#[derive(Default)]
struct Reorder {
    /// Sequence numbers handed out so far.
    issued: usize,
    /// The next sequence number the collector needs.
    next: usize,
    ready: BTreeMap<usize, Result<(String, Scan), Skip>>,
}

impl Reorder {
    fn accept(&mut self, done: Done) {
        for (seq, relative, scan) in done {
            self.ready.insert(seq, Ok((relative, scan)));
        }
    }

    fn drain(&mut self, collector: &mut Collector) -> ControlFlow<Stop> {
        if let Some(stop) = collector.stop {
            return ControlFlow::Break(stop);
        }
        while let Some(item) = self.ready.remove(&self.next) {
            self.next += 1;
            collector.take_item(item)?;
        }
        ControlFlow::Continue(())
    }
}

/// Per-thread search state: reused buffer, searcher and matchers.
struct Scanner<'a> {
    request: &'a Request,
    exact: Regex,
    candidates: Option<RegexMatcher>,
    searcher: Searcher,
    buffer: Vec<u8>,
}

impl<'a> Scanner<'a> {
    fn new(request: &'a Request) -> Scanner<'a> {
        let searcher = SearcherBuilder::new()
            .line_number(true)
            .bom_sniffing(false)
            .build();
        Scanner {
            request,
            // Clones get their own match caches: no contention.
            exact: request.exact.clone(),
            candidates: request.candidates.clone(),
            searcher,
            buffer: Vec::new(),
        }
    }

    /// Reads and searches one file.
    fn scan(&mut self, path: &Path, limits: &Limits) -> Scan {
        if let Some(stop) = limits.check() {
            return Scan::Aborted(stop);
        }
        if let Err(skip) = read_file(path, &mut self.buffer) {
            return Scan::Skipped(skip);
        }
        let bytes = &self.buffer[..];
        match check_text(bytes) {
            Ok(()) => {}
            Err(DecodeError::Binary { .. }) => return Scan::Skipped(Skip::Binary),
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
        Scan::Hit {
            total: found.total,
            lines: found.lines,
            fingerprint,
        }
    }
}

/// Reads a whole regular file of at most [`MAX_GREP_FILE_BYTES`] into
/// `buffer`, never following a symbolic link and never blocking on a FIFO
/// that replaced the file after the walk saw it (such a file counts as
/// special).
fn read_file(path: &Path, buffer: &mut Vec<u8>) -> Result<(), Skip> {
    use rustix::fs::{Mode, OFlags};
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|_| Skip::Unreadable)?;
    let file = File::from(fd);
    let metadata = file.metadata().map_err(|_| Skip::Unreadable)?;
    if !metadata.is_file() {
        return Err(if metadata.is_dir() {
            Skip::Unreadable
        } else {
            Skip::Special
        });
    }
    let size = metadata.len();
    if size > MAX_GREP_FILE_BYTES {
        return Err(Skip::TooLarge);
    }
    buffer.clear();
    buffer.reserve(size as usize);
    // Read what fstat promised; a file growing meanwhile is read as it was.
    (&file)
        .take(size)
        .read_to_end(buffer)
        .map_err(|_| Skip::Unreadable)?;
    Ok(())
}

/// Confirms candidate lines and keeps the ones to show.
struct Found<'r> {
    exact: &'r Regex,
    retain: usize,
    first_only: bool,
    total: usize,
    lines: Vec<MatchLine>,
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
            });
        }
        if self.first_only {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The exact path: every line of `body` goes through the exact matcher.
    fn every_line(&mut self, body: &[u8]) {
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

#[cfg(test)]
#[path = "grep_tests.rs"]
mod tests;
