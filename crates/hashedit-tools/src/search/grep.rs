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
//! editable text per [`hashline::text::check_text`] (a UTF-16/32 BOM or
//! invalid UTF-8 anywhere counts as "not UTF-8", a NUL byte anywhere as
//! "binary"), and files that cannot be opened or read. The snapshot tag is
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
use hashline::tag::{SnapshotTag, TagScheme, header};
use hashline::text::{DecodeError, UTF8_BOM, check_text};
use hashline::truncate::{truncate_chars, truncate_to_budget};
use regex::{Regex, RegexBuilder};
use serde_json::{Value, json};

use super::glob::PathGlob;
use super::walk::{WalkItem, WalkedFile, visit_files};
use super::{
    DEFAULT_MAX_PER_FILE, DEFAULT_MAX_RESULTS, Limits, MAX_GREP_FILE_BYTES, MAX_PER_FILE_CEILING,
    MAX_PREVIEW_CHARS, MAX_RESULTS_CEILING, REGEX_SIZE_LIMIT, SearchOptions, SearchScope, Stop,
    clamp_cap, plural, printable, with_reasons, workspace_path,
};
use crate::args::{GrepArgs, OutputMode};
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::outcome::Outcome;

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
/// valid UTF-8, or unreadable are skipped and counted. Files are searched
/// on [`SearchOptions::thread_count`] threads; the output never depends on
/// it.
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
/// equal to `read_file`'s), rows `{N} | {text}` (text cut to 200 characters
/// plus `…`), and `… +{K} more match(es) in this file` when K matching lines
/// were not shown; then a blank line and
/// `{shown} matches in {F} files` or
/// `{shown} matches shown ({total} total) in {F} files`.
/// files_with_matches: one path per line, blank line, `{F} files`.
/// count: `{path}:{n}` per line, blank line, `{total} matches in {F} files`.
/// Any reason the answer is incomplete follows the summary in parentheses,
/// joined by `; `: the result cap, files cut by `max_per_file`, the walk's
/// entry or time limit, cancellation, and the count of skipped files by
/// cause. Without hits: `no matches for '{pattern}' under {display}` plus
/// the same reasons. The text is finally cut to `max_output_bytes`.
///
/// Structured:
/// ```json
/// {"mode": "content" | "files_with_matches" | "count",
///  "files": [{"path": "src/a.rs", "tag": "1A2B" | null,
///             "count": 3 | null, "matches": [{"line": 2, "text": "…"}],
///             "more": 1}],
///  "shown": 2, "total": 3 | null, "files_matched": 1,
///  "files_cut_by_max_per_file": 1,
///  "skipped": {"binary": 0, "not_utf8": 0, "too_large": 0, "unreadable": 0},
///  "stop": null | "result_limit" | "scan_limit" | "time_limit" | "cancelled"}
/// ```
/// `tag` is set in content mode only; `count` and `total` are null in
/// files_with_matches mode, which stops reading a file at its first match.
///
/// Errors ([`ErrorKind::InvalidArguments`], before any file I/O):
/// `invalid pattern '{pattern}': {regex error}` and
/// `invalid glob '{glob}': …`.
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
    let limits = Limits::start(options);
    let mut collector = Collector::new(&request, scope.display);
    let walk_stop = if options.thread_count() <= 1 || is_file(scope.target) {
        run_inline(scope, &request, &limits, &mut collector)
    } else {
        run_parallel(
            scope,
            &request,
            &limits,
            &mut collector,
            options.thread_count(),
        )
    };
    let stop = collector.stop.or(walk_stop);
    let text = collector.render(stop, &limits);
    let structured = collector.structured(stop);
    Ok(Outcome::new(
        truncate_to_budget(text, max_output_bytes),
        structured,
    ))
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

    /// Whether the glob filter (if any) selects this file.
    fn selects(&self, file: &WalkedFile, display: &str) -> bool {
        match &self.glob {
            None => true,
            Some(glob) if file.relative.is_empty() => glob.matches(display),
            Some(glob) => glob.matches(&file.relative),
        }
    }
}

/// Why a file was not searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    Binary,
    NotUtf8,
    TooLarge,
    Unreadable,
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
        tag: Option<SnapshotTag>,
    },
    /// Not searched: the call was cancelled or ran out of time first.
    Aborted(Stop),
}

/// A file in the answer.
struct Hit {
    path: String,
    tag: Option<SnapshotTag>,
    total: usize,
    lines: Vec<MatchLine>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Skipped {
    binary: usize,
    not_utf8: usize,
    too_large: usize,
    unreadable: usize,
}

impl Skipped {
    fn add(&mut self, skip: Skip) {
        match skip {
            Skip::Binary => self.binary += 1,
            Skip::NotUtf8 => self.not_utf8 += 1,
            Skip::TooLarge => self.too_large += 1,
            Skip::Unreadable => self.unreadable += 1,
        }
    }

    fn total(&self) -> usize {
        self.binary + self.not_utf8 + self.too_large + self.unreadable
    }

    fn describe(&self) -> Option<String> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let parts: Vec<String> = [
            (self.binary, "binary"),
            (self.not_utf8, "not UTF-8"),
            (self.too_large, "over 5 MiB"),
            (self.unreadable, "unreadable"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, why)| format!("{n} {why}"))
        .collect();
        Some(format!(
            "{} skipped: {}",
            plural(total, "file", "files"),
            parts.join(", ")
        ))
    }
}

/// Consumes per-file results in walk order and applies the caps.
struct Collector<'a> {
    request: &'a Request,
    display: &'a str,
    hits: Vec<Hit>,
    /// Results spent against `max_results`.
    shown: usize,
    /// Files whose lines were cut by `max_per_file` (content mode).
    cut_by_per_file: usize,
    skipped: Skipped,
    /// Set when a cap, the deadline or cancellation stopped consumption.
    stop: Option<Stop>,
}

impl<'a> Collector<'a> {
    fn new(request: &'a Request, display: &'a str) -> Collector<'a> {
        Collector {
            request,
            display,
            hits: Vec::new(),
            shown: 0,
            cut_by_per_file: 0,
            skipped: Skipped::default(),
            stop: None,
        }
    }

    /// Takes the next result in walk order.
    fn take(&mut self, relative: &str, scan: Scan) -> ControlFlow<Stop> {
        let (total, mut lines, tag) = match scan {
            Scan::NoMatch => return ControlFlow::Continue(()),
            Scan::Skipped(skip) => {
                self.skipped.add(skip);
                return ControlFlow::Continue(());
            }
            Scan::Aborted(stop) => return self.halt(stop),
            Scan::Hit { total, lines, tag } => (total, lines, tag),
        };
        let retain = self.request.retain();
        if retain > 0 && total > lines.len() {
            self.cut_by_per_file += 1;
        }
        let remaining = self.request.max_results - self.shown;
        lines.truncate(remaining);
        self.shown += match self.request.mode {
            OutputMode::Content => lines.len(),
            OutputMode::FilesWithMatches | OutputMode::Count => 1,
        };
        self.hits.push(Hit {
            path: workspace_path(self.display, relative),
            tag,
            total,
            lines,
        });
        if self.shown >= self.request.max_results {
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

    fn total_matches(&self) -> usize {
        self.hits.iter().map(|h| h.total).sum()
    }

    fn reasons(&self, stop: Option<Stop>, limits: &Limits) -> Vec<String> {
        let mut reasons: Vec<String> = stop.iter().map(|s| s.describe(NARROW, limits)).collect();
        if self.cut_by_per_file > 0 {
            reasons.push(format!(
                "{} cut at max_per_file; raise max_per_file or narrow the pattern",
                plural(self.cut_by_per_file, "file", "files")
            ));
        }
        reasons.extend(self.skipped.describe());
        reasons
    }

    fn render(&self, stop: Option<Stop>, limits: &Limits) -> String {
        use std::fmt::Write;
        let reasons = self.reasons(stop, limits);
        if self.hits.is_empty() {
            return with_reasons(
                format!(
                    "no matches for '{}' under {}",
                    self.request.pattern, self.display
                ),
                &reasons,
            );
        }
        let files = plural(self.hits.len(), "file", "files");
        let mut body = String::new();
        let counts = match self.request.mode {
            OutputMode::Content => {
                for hit in &self.hits {
                    let path = printable(&hit.path);
                    match hit.tag {
                        Some(tag) => body.push_str(&header(&path, tag)),
                        None => body.push_str(&path),
                    }
                    body.push('\n');
                    for line in &hit.lines {
                        let _ = writeln!(body, "{} | {}", line.line, line.text);
                    }
                    let more = hit.total - hit.lines.len();
                    if more > 0 {
                        let _ = writeln!(
                            body,
                            "… +{} in this file",
                            plural(more, "more match", "more matches")
                        );
                    }
                }
                let total = self.total_matches();
                if total == self.shown {
                    format!("{} in {files}", plural(self.shown, "match", "matches"))
                } else {
                    format!(
                        "{} shown ({total} total) in {files}",
                        plural(self.shown, "match", "matches")
                    )
                }
            }
            OutputMode::FilesWithMatches => {
                for hit in &self.hits {
                    let _ = writeln!(body, "{}", printable(&hit.path));
                }
                files
            }
            OutputMode::Count => {
                for hit in &self.hits {
                    let _ = writeln!(body, "{}:{}", printable(&hit.path), hit.total);
                }
                format!(
                    "{} in {files}",
                    plural(self.total_matches(), "match", "matches")
                )
            }
        };
        format!("{body}\n{}", with_reasons(counts, &reasons))
    }

    fn structured(&self, stop: Option<Stop>) -> Value {
        let counted = self.request.mode != OutputMode::FilesWithMatches;
        let files: Vec<Value> = self
            .hits
            .iter()
            .map(|hit| {
                json!({
                    "path": hit.path,
                    "tag": hit.tag.map(|t| t.to_string()),
                    "count": counted.then_some(hit.total),
                    "matches": hit.lines.iter().map(|l| json!({"line": l.line, "text": l.text})).collect::<Vec<_>>(),
                    "more": if counted { hit.total - hit.lines.len() } else { 0 },
                })
            })
            .collect();
        json!({
            "mode": match self.request.mode {
                OutputMode::Content => "content",
                OutputMode::FilesWithMatches => "files_with_matches",
                OutputMode::Count => "count",
            },
            "files": files,
            "shown": self.shown,
            "total": counted.then(|| self.total_matches()),
            "files_matched": self.hits.len(),
            "files_cut_by_max_per_file": self.cut_by_per_file,
            "skipped": {
                "binary": self.skipped.binary,
                "not_utf8": self.skipped.not_utf8,
                "too_large": self.skipped.too_large,
                "unreadable": self.skipped.unreadable,
            },
            "stop": stop.map(Stop::name),
        })
    }
}

/// Walk, search and collect on the calling thread.
fn run_inline(
    scope: &SearchScope,
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
            WalkItem::Unreadable => collector.take_item(Err(Skip::Unreadable)),
            WalkItem::File(file) => {
                if !request.selects(&file, scope.display) {
                    return ControlFlow::Continue(());
                }
                let scan = scanner.scan(&file.absolute, limits);
                collector.take(&file.relative, scan)
            }
        },
    )
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
                WalkItem::Unreadable => pipe.push_unreadable(),
                WalkItem::File(file) if request.selects(&file, scope.display) => {
                    pipe.push_file(file)
                }
                WalkItem::File(_) => ControlFlow::Continue(()),
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

    fn push_unreadable(&mut self) -> ControlFlow<Stop> {
        let seq = self.order.issued;
        self.order.issued += 1;
        self.order.ready.insert(seq, Err(Skip::Unreadable));
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
        let tag =
            (self.request.mode == OutputMode::Content).then(|| self.request.scheme.tag_of(bytes));
        Scan::Hit {
            total: found.total,
            lines: found.lines,
            tag,
        }
    }
}

/// Reads a whole regular file of at most [`MAX_GREP_FILE_BYTES`] into
/// `buffer`, never following a symbolic link and never blocking on a FIFO
/// that replaced the file after the walk saw it.
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
        return Err(Skip::Unreadable);
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
