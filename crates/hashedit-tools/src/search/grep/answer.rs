//! A grep answer: results collected in walk order under the caps, then
//! fitted to the output budget and rendered as text and structured data.

use std::ops::ControlFlow;
use std::path::Path;

use hashedit_core::{Fingerprint, LONG_ROW_BYTES, Name, Output, Surface, header, long_line_hint};

use super::request::Request;
use super::scan::{MatchLine, Scan, Skip};
use crate::args::OutputMode;
use crate::outcome::{GrepFacts, GrepFile, GrepMatch, GrepSkipped, Served};
use crate::search::budget::{Fit, fit, listing_tail};
use crate::search::{
    Limits, OUTPUT_BUDGET, Stop, budget_reason, ignored_reason, plural, unreadable_dirs_reason,
    with_reasons, workspace_path,
};
use crate::workspace::display_path;

/// What `grep` tells the model it can narrow.
const NARROW: &str = "the pattern, path or glob";

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
    /// Where the last binary file skipped has its first NUL byte (what a
    /// search of one named file reports).
    nul_offset: Option<u64>,
    not_utf8: usize,
    too_large: usize,
    unreadable: usize,
    special: usize,
    unreadable_dirs: usize,
    /// Entries ignore rules kept out (a directory counts once).
    ignored: usize,
}

impl Skipped {
    fn add(&mut self, skip: Skip) {
        match skip {
            Skip::Binary { offset } => {
                self.binary += 1;
                self.nul_offset = Some(offset);
            }
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
    fn describe(&self, surface: Surface) -> impl Iterator<Item = String> {
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
            .chain(ignored_reason(self.ignored, surface))
    }

    fn facts(&self) -> GrepSkipped {
        GrepSkipped {
            binary: self.binary,
            not_utf8: self.not_utf8,
            too_large: self.too_large,
            unreadable: self.unreadable,
            special: self.special,
            unreadable_dirs: self.unreadable_dirs,
            ignored: self.ignored,
        }
    }
}

/// Consumes per-file results in walk order and applies the caps.
pub(super) struct Collector<'a> {
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
    pub(super) stop: Option<Stop>,
    /// The search target is one file: its total is exact even when a cap
    /// stopped the search.
    pub(super) file_target: bool,
}

impl<'a> Collector<'a> {
    /// An empty collection for `request` under the target `base`
    /// (unquoted) that the model knows as `display`.
    pub(super) fn new(request: &'a Request, base: &'a str, display: &'a str) -> Collector<'a> {
        Collector {
            request,
            base,
            display,
            hits: Vec::new(),
            spent: 0,
            skipped: Skipped::default(),
            stop: None,
            file_target: false,
        }
    }

    /// Records what ignore rules kept out of the search.
    pub(super) fn ignored(&mut self, entries: usize) {
        self.skipped.ignored = entries;
    }

    /// Takes the next result in walk order. The result cap stops the
    /// search only once a result beyond it exists (a match line the cap
    /// left out, or another matching file), so "max_results reached" is
    /// said only when there is more to see.
    pub(super) fn take(&mut self, relative: &str, scan: Scan) -> ControlFlow<Stop> {
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
        if self.spent >= self.request.max_results {
            return self.halt(Stop::ResultLimit);
        }
        let retain = self.request.retain();
        let cut_by_per_file = retain > 0 && total > lines.len();
        let remaining = self.request.max_results - self.spent;
        let cut_by_cap = lines.len() > remaining;
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
            cut_by_per_file: cut_by_per_file && !cut_by_cap,
        });
        if cut_by_cap {
            return self.halt(Stop::ResultLimit);
        }
        ControlFlow::Continue(())
    }

    fn halt(&mut self, stop: Stop) -> ControlFlow<Stop> {
        self.stop = Some(stop);
        ControlFlow::Break(stop)
    }
}

/// The part of the collected hits a reply shows: the first `files` hits,
/// all their kept lines except in the last one, which shows `last_rows`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct View {
    files: usize,
    last_rows: usize,
    /// The output budget left rows out.
    cut: bool,
}

/// A finished search, ready to be fitted to the budget and rendered.
pub(super) struct Answer<'c, 'a> {
    /// The results, in walk order.
    pub(super) collector: &'c Collector<'a>,
    /// Why the search stopped early, if it did.
    pub(super) stop: Option<Stop>,
    /// The call's limits (for the reasons).
    pub(super) limits: &'c Limits,
    /// The output budget in bytes.
    pub(super) budget: usize,
}

impl Answer<'_, '_> {
    /// Where the reply goes.
    fn output(&self) -> Output {
        Output {
            max_bytes: self.budget,
            surface: self.limits.surface,
        }
    }

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
    pub(super) fn fit(&self) -> View {
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
                let mut unit = row(line, &display_path(&hit.path), self.output()).len();
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
                "{} cut at {per_file}; raise {per_file} or narrow the pattern",
                plural(cut, "file", "files"),
                per_file = self.limits.surface.name(Name::MaxPerFile)
            ));
        }
        reasons.extend(self.collector.skipped.describe(self.limits.surface));
        reasons
    }

    /// The last line of the reply.
    fn summary(&self, view: &View) -> String {
        let reasons = self.reasons(view);
        if self.hits().is_empty()
            && self.collector.file_target
            && self.collector.skipped.too_large > 0
        {
            return self.with_note(format!(
                "{} was not searched: it is over the {} MiB grep reads of one file, so nothing is known about \
                 its matches; {} with {} reads files of any size",
                self.collector.display,
                crate::search::MAX_NAMED_GREP_FILE_BYTES / (1024 * 1024),
                self.limits.surface.name(Name::Read),
                self.limits.surface.name(Name::OffsetLimit)
            ));
        }
        if let Some(offset) = self.collector.skipped.nul_offset.filter(|_| {
            self.hits().is_empty()
                && self.collector.file_target
                && self.collector.skipped.binary > 0
        }) {
            return format!(
                "{} is binary (a NUL byte at offset {offset}); not searched",
                self.collector.display
            );
        }
        if self.hits().is_empty() {
            return self.with_note(with_reasons(
                format!(
                    "no matches for '{}' under {}",
                    self.collector.request.pattern, self.collector.display
                ),
                &reasons,
            ));
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
                // A search that stopped early counted only the files it
                // reached: their total is a floor, and says so.
                let at_least = if self.stop.is_some() && !self.collector.file_target && !view.cut {
                    "at least "
                } else {
                    ""
                };
                if total == shown {
                    format!("{} in {files}", plural(shown, "match", "matches"))
                } else {
                    format!(
                        "{} shown ({at_least}{total} total) in {files}",
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
        self.with_note(with_reasons(counts, &reasons))
    }

    /// `summary` followed by the regex dialect note, if the pattern has one.
    fn with_note(&self, summary: String) -> String {
        match &self.collector.request.dialect_note {
            Some(note) => format!("{summary}\n{note}"),
            None => summary,
        }
    }

    /// The snapshots the headers shown under `view` serve, for files below
    /// the workspace `root`.
    pub(super) fn served(&self, view: &View, root: &Path) -> Vec<Served> {
        self.hits()[..view.files]
            .iter()
            .filter_map(|hit| {
                hit.fingerprint.map(|fingerprint| Served {
                    target: root.join(&hit.path),
                    fingerprint,
                })
            })
            .collect()
    }

    /// The reply's text under `view`.
    pub(super) fn render(&self, view: &View) -> String {
        let mut body = String::new();
        for (i, hit) in self.hits()[..view.files].iter().enumerate() {
            body.push_str(&self.head(hit));
            body.push('\n');
            if self.mode() == OutputMode::Content {
                let rows = self.rows(view, i);
                for line in &hit.lines[..rows] {
                    body.push_str(&row(line, &display_path(&hit.path), self.output()));
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

    /// The reply's facts under `view`.
    pub(super) fn facts(&self, view: &View) -> GrepFacts {
        let counted = self.mode() != OutputMode::FilesWithMatches;
        let files = self.hits()[..view.files]
            .iter()
            .enumerate()
            .map(|(i, hit)| {
                let rows = self.rows(view, i);
                let matches = hit.lines[..rows].iter().map(|l| GrepMatch {
                    line: l.line,
                    text: l.text.clone(),
                });
                GrepFile {
                    path: hit.path.clone(),
                    tag: hit.fingerprint.map(|f| f.tag.to_string()),
                    count: counted.then_some(hit.total),
                    matches: matches.collect(),
                    more: if counted { hit.total - rows } else { 0 },
                }
            })
            .collect();
        GrepFacts {
            mode: self.mode(),
            files,
            shown: self.shown(view),
            total: counted.then(|| self.total(view)),
            files_matched: view.files,
            files_cut_by_max_per_file: self.cut_by_per_file(view),
            skipped: self.collector.skipped.facts(),
            stop: if view.cut {
                Some(OUTPUT_BUDGET)
            } else {
                self.stop.map(Stop::name)
            },
        }
    }
}

/// A content-mode row: `{N} | {text}` and its line break, between its
/// context rows, each `{N}:{text}` as `read_file` shows lines. A context
/// line longer than [`LONG_ROW_BYTES`] is not shown: one row in brackets
/// names it, its length and the read that shows it (FORMAT.md §7), so a
/// single huge neighbour cannot push the match itself out of the budget.
fn row(line: &MatchLine, path: &str, output: Output) -> String {
    let mut out = String::new();
    let context_row = |out: &mut String, context: &super::scan::ContextRow| {
        if context.text.len() <= LONG_ROW_BYTES {
            out.push_str(&format!("{}:{}\n", context.line, context.text));
            return;
        }
        let number = usize::try_from(context.line).unwrap_or(usize::MAX);
        out.push_str(&format!(
            "[line {} not shown: {} bytes long; {}]\n",
            context.line,
            context.text.len(),
            long_line_hint(path, number, context.text.len() as u64, output)
        ));
    };
    for context in &line.before {
        context_row(&mut out, context);
    }
    out.push_str(&format!("{} | {}\n", line.line, line.text));
    for context in &line.after {
        context_row(&mut out, context);
    }
    out
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
