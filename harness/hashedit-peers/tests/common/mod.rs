//! Shared machinery of the differential suites: our tools as a runner,
//! outcome classes, run size, and the summary/failure report.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use hashedit_core::TagScheme;
use hashedit_peers::shape::{self, Shape};
use hashedit_tools::{
    EditArgs, EditMode, ErrorKind, GrepArgs, ReadFileArgs, ToolContext, Workspace, WriteArgs, edit,
    grep, read_file, write,
};

/// Fixed seed of the default run; `HASHEDIT_DIFF_SEED` overrides it.
pub(crate) const DEFAULT_SEED: u64 = 0x4841_5348_4544_4954; // "HASHEDIT"

/// Cases per suite: `HASHEDIT_DIFF_CASES`, else `default`.
pub(crate) fn case_count(default: usize) -> usize {
    std::env::var("HASHEDIT_DIFF_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// The run's seed: `HASHEDIT_DIFF_SEED` (decimal or 0x-hex), else fixed.
pub(crate) fn seed() -> u64 {
    let Ok(text) = std::env::var("HASHEDIT_DIFF_SEED") else {
        return DEFAULT_SEED;
    };
    let text = text.trim();
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
    .unwrap_or(DEFAULT_SEED)
}

/// What kind of failure a reply reports, coarse enough to compare across
/// engines whose messages differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Class {
    /// Success.
    Ok,
    /// The document (or arguments) did not parse.
    Parse,
    /// The tag does not match the live file.
    Stale,
    /// A line or range outside the file (or an op impossible on an empty
    /// file).
    Range,
    /// Ops that overlap, or an insert inside a span.
    Overlap,
    /// Bad read arguments (offset/limit).
    Args,
    /// The path does not exist.
    NotFound,
    /// The same file twice in one document.
    Duplicate,
    /// The file is not UTF-8 text.
    NotText,
    /// A block locator did not resolve.
    Block,
    /// A register/paste sequencing error.
    Register,
    /// Body rows indented in the other style (tabs vs spaces) than the
    /// lines around them.
    Indent,
    /// Anything else.
    Other,
    /// The peer could not run the call at all (its host, process or driver
    /// failed): nothing to compare.
    PeerFailed,
}

/// Our classification of a `hashedit-tools` error kind.
pub(crate) fn class_of_kind(kind: ErrorKind) -> Class {
    match kind {
        ErrorKind::ParseError => Class::Parse,
        ErrorKind::StaleTag => Class::Stale,
        ErrorKind::LineOutOfRange => Class::Range,
        ErrorKind::OverlappingOps => Class::Overlap,
        ErrorKind::InvalidArguments => Class::Args,
        ErrorKind::NotFound => Class::NotFound,
        ErrorKind::DuplicatePath => Class::Duplicate,
        ErrorKind::NotUtf8 | ErrorKind::Binary | ErrorKind::UnsupportedEncoding => Class::NotText,
        ErrorKind::UnresolvedBlock => Class::Block,
        ErrorKind::RegisterError => Class::Register,
        ErrorKind::IndentationMismatch => Class::Indent,
        _ => Class::Other,
    }
}

/// One tool call's result, reduced for comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reply {
    /// `Class::Ok` or the failure class.
    pub class: Class,
    /// The exact model-facing text.
    pub text: String,
    /// The text's shape.
    pub shape: Shape,
}

impl Reply {
    /// A reply with `class` and `text`.
    pub(crate) fn new(class: Class, text: String) -> Reply {
        let shape = shape::parse(&text);
        Reply { class, text, shape }
    }

    /// True on success.
    pub(crate) fn ok(&self) -> bool {
        self.class == Class::Ok
    }
}

/// Our tools over a temporary workspace, with block locators resolved by
/// tree-sitter as in the CLI and the MCP server.
pub(crate) struct Ours {
    _dir: tempfile::TempDir,
    root: PathBuf,
    ws: Workspace,
    blocks: hashedit_blocks::TreeSitterBlocks,
}

impl Ours {
    /// A fresh empty workspace with tag scheme `scheme`.
    pub(crate) fn new(scheme: TagScheme) -> Ours {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("canonical temp dir");
        let ws = Workspace::new(&root)
            .expect("workspace")
            .with_tag_scheme(scheme);
        Ours {
            _dir: dir,
            root,
            ws,
            blocks: hashedit_blocks::TreeSitterBlocks::new(),
        }
    }

    /// The workspace directory.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    fn reply(result: hashedit_tools::ToolResult<hashedit_tools::Outcome>) -> Reply {
        match result {
            Ok(outcome) => Reply::new(Class::Ok, outcome.text),
            Err(error) => Reply::new(class_of_kind(error.kind), error.message),
        }
    }

    /// `read_file`.
    pub(crate) fn read(&self, path: &str, offset: Option<usize>, limit: Option<usize>) -> Reply {
        let cx = ToolContext::new(&self.ws);
        Ours::reply(read_file(
            &cx,
            &ReadFileArgs {
                path: path.to_string(),
                offset,
                limit,
            },
        ))
    }

    /// `edit` (applied). The differential suites compare what the engines
    /// write, so the guards that refuse documents both peers write (echo,
    /// shift, elision, syntax, lost indentation, no change: the robustness
    /// benchmark measures those) are waived with `force`; the refusal of
    /// rows in the other indentation style, a listed difference, stays.
    pub(crate) fn edit(&self, document: &str) -> Reply {
        let cx = ToolContext::new(&self.ws).with_blocks(&self.blocks);
        let guarded = edit(&cx, &EditArgs::new(document.to_string()), EditMode::Apply);
        let waived = matches!(
            &guarded,
            Err(e) if matches!(
                e.kind,
                ErrorKind::EchoedRows
                    | ErrorKind::ShiftedRange
                    | ErrorKind::ElidedLines
                    | ErrorKind::BrokenSyntax
                    | ErrorKind::IndentationMismatch
                    | ErrorKind::NoChange
            ) && !e.message.contains(" indents with ")
        );
        if !waived {
            return Ours::reply(guarded);
        }
        let forced = EditArgs {
            input: document.to_string(),
            force: Some(true),
        };
        Ours::reply(edit(&cx, &forced, EditMode::Apply))
    }

    /// `edit` (applied), keeping our exact error kind: the reply text, or
    /// the kind and message of the refusal.
    pub(crate) fn edit_kind(&self, document: &str) -> Result<String, (ErrorKind, String)> {
        let cx = ToolContext::new(&self.ws).with_blocks(&self.blocks);
        edit(&cx, &EditArgs::new(document.to_string()), EditMode::Apply)
            .map(|outcome| outcome.text)
            .map_err(|error| (error.kind, error.message))
    }

    /// The tag of `bytes` under this workspace's scheme.
    pub(crate) fn tag_of(&self, bytes: &[u8]) -> String {
        self.ws.tag_scheme().tag_of(bytes).to_string()
    }

    /// `write`, with the tag of the snapshot it means to replace when the
    /// file exists (a sessionless write replaces a file only with its tag,
    /// FORMAT.md §6.7).
    pub(crate) fn write(&self, path: &str, content: &str, tag: Option<String>) -> Reply {
        let cx = ToolContext::new(&self.ws);
        Ours::reply(write(
            &cx,
            &WriteArgs {
                path: path.to_string(),
                content: content.to_string(),
                tag,
                force: None,
            },
        ))
    }

    /// `grep` for a literal `pattern` under `path`.
    pub(crate) fn grep_literal(&self, pattern: &str, path: Option<&str>) -> Reply {
        let cx = ToolContext::new(&self.ws);
        Ours::reply(grep(
            &cx,
            &GrepArgs {
                pattern: pattern.to_string(),
                path: path.map(str::to_string),
                literal: Some(true),
                ..GrepArgs::default()
            },
        ))
    }
}

/// How a line is indented, as our engine judges it (FORMAT.md §5.8): a
/// first tab means tabs, two first spaces before non-blank text mean
/// spaces, anything else says nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Indent {
    /// Starts with a tab.
    Tabs,
    /// Starts with two spaces (and is not blank).
    Spaces,
}

impl Indent {
    /// The word our refusal uses for the style.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Indent::Tabs => "tabs",
            Indent::Spaces => "spaces",
        }
    }
}

/// The indentation style of `line`, if it has one.
pub(crate) fn indent_of(line: &str) -> Option<Indent> {
    if line.starts_with('\t') {
        Some(Indent::Tabs)
    } else if line.starts_with("  ") && !line.trim().is_empty() {
        Some(Indent::Spaces)
    } else {
        None
    }
}

/// The style every indented line of `context` shares: `None` when none is
/// indented or two disagree (then no row can be in the "other" style).
pub(crate) fn uniform_indent<'a>(context: impl IntoIterator<Item = &'a str>) -> Option<Indent> {
    let mut found = None;
    for style in context.into_iter().filter_map(indent_of) {
        match found {
            None => found = Some(style),
            Some(seen) if seen != style => return None,
            Some(_) => {}
        }
    }
    found
}

/// The 1-based numbers of the lines around an op (the replaced lines plus
/// the line above and below, or the two lines around an insert's gap),
/// kept within a file of `total` lines.
pub(crate) fn context_lines(first: usize, last: usize, total: usize) -> Vec<usize> {
    (first..=last).filter(|&n| n >= 1 && n <= total).collect()
}

/// The rows of `body` (0-based) indented in the other style than the
/// uniformly indented `context`, with that context style. A body with any
/// row in the context's style mixes the two on purpose: nothing flagged.
pub(crate) fn other_style_rows(body: &[String], context: &[&str]) -> (Vec<usize>, Option<Indent>) {
    let Some(file) = uniform_indent(context.iter().copied()) else {
        return (Vec::new(), None);
    };
    if body.iter().any(|row| indent_of(row) == Some(file)) {
        return (Vec::new(), Some(file));
    }
    let rows = body
        .iter()
        .enumerate()
        .filter(|(_, row)| indent_of(row).is_some_and(|s| s != file))
        .map(|(i, _)| i)
        .collect();
    (rows, Some(file))
}

/// Re-indents every row of `body` that [`other_style_rows`] flags against
/// `context` in the context's style. `named` is the 1-based row and style
/// our indentation refusal named, when it named this op; the result says
/// whether that row is the first flagged row and was indented with that
/// style (always `false` when `named` is `None`).
pub(crate) fn reindent_other_style(
    body: &mut [String],
    context: &[&str],
    named: Option<(usize, Indent)>,
) -> bool {
    let (rows, file_style) = other_style_rows(body, context);
    let confirmed = named.is_some_and(|(row, style)| {
        rows.first() == Some(&(row - 1)) && indent_of(&body[row - 1]) == Some(style)
    });
    if let Some(file_style) = file_style {
        for r in rows {
            body[r] = reindent(&body[r], file_style);
        }
    }
    confirmed
}

/// `fixed` when the restated rule `confirmed` our indentation refusal (of
/// body row `row` of the op on document line `line` as indented with
/// `style`), else the error saying that the rule does not flag that row.
pub(crate) fn confirmed_indent_refusal<T>(
    confirmed: bool,
    fixed: T,
    line: usize,
    row: usize,
    style: Indent,
) -> Result<T, String> {
    if confirmed {
        Ok(fixed)
    } else {
        Err(format!(
            "we refused body row {row} of the op on document line {line} as indented with {}, \
             but the restated rule does not flag that row",
            style.word()
        ))
    }
}

/// `row` re-indented in `style`: each leading tab as four spaces, or the
/// leading spaces as one tab per four columns (at least one).
pub(crate) fn reindent(row: &str, style: Indent) -> String {
    let rest = row.trim_start_matches([' ', '\t']);
    let lead = &row[..row.len() - rest.len()];
    let columns: usize = lead.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum();
    match style {
        Indent::Spaces => format!("{}{rest}", " ".repeat(columns)),
        Indent::Tabs => format!("{}{rest}", "\t".repeat((columns / 4).max(1))),
    }
}

/// What our indentation refusal names: the document line of the op, the
/// 1-based body row, and the row's style.
pub(crate) fn parse_indent_refusal(text: &str) -> Option<(usize, usize, Indent)> {
    // A refusal may name other findings first: try each op it names.
    text.match_indices("(document line ")
        .find_map(|(at, marker)| {
            let rest = &text[at + marker.len()..];
            let (line, rest) = rest.split_once("): body row ")?;
            let (row, rest) = rest.split_once(" indents with ")?;
            let style = if rest.starts_with("tabs, but the lines around it indent with spaces") {
                Indent::Tabs
            } else if rest.starts_with("spaces, but the lines around it indent with tabs") {
                Indent::Spaces
            } else {
                return None;
            };
            Some((line.parse().ok()?, row.parse().ok()?, style))
        })
}

/// Writes `bytes` to `root/name`, creating parent directories.
pub(crate) fn put_file(root: &Path, name: &str, bytes: &[u8]) {
    let path = root.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    std::fs::write(&path, bytes).expect("write corpus file");
}

/// The bytes of `root/name`, `None` when it does not exist.
pub(crate) fn get_file(root: &Path, name: &str) -> Option<Vec<u8>> {
    std::fs::read(root.join(name)).ok()
}

/// Shows bytes readably (escaped, shortened in the middle when long).
pub(crate) fn show_bytes(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let escaped: String = text.escape_debug().collect();
    if escaped.len() <= 600 {
        return format!("\"{escaped}\"");
    }
    let head: String = escaped.chars().take(300).collect();
    let tail: String = {
        let chars: Vec<char> = escaped.chars().collect();
        chars[chars.len().saturating_sub(200)..].iter().collect()
    };
    format!("\"{head}…\" ({} bytes) …\"{tail}\"", bytes.len())
}

/// One intended difference: a category, the reason (FORMAT.md), and the
/// largest share of a suite's compared calls it may explain.
#[derive(Debug, Clone)]
pub(crate) struct Intended {
    /// Short name.
    pub name: &'static str,
    /// Why we differ on purpose.
    pub reason: &'static str,
    /// Most of a suite's compared calls this difference may explain, in
    /// percent (plus [`CEILING_SLACK`] calls for small runs). More means a
    /// peer or our engine changed so that real differences hide behind an
    /// intended one, so the run fails.
    pub ceiling: usize,
}

/// Least share of a suite's calls that must be real comparisons, in
/// percent: calls whose peer failed (crashed, hung, answered nonsense) are
/// not comparisons, and a suite that compared less fails.
pub(crate) const COMPARED_FLOOR: usize = 95;

/// Calls an intended difference may explain beyond its ceiling, so that a
/// run of a few cases is not failed by one more case than its share.
pub(crate) const CEILING_SLACK: usize = 2;

/// Counts and failures of a suite run, safe to share between threads.
pub(crate) struct Tally {
    suite: &'static str,
    catalogue: &'static [Intended],
    /// Ceilings of this suite that differ from the catalogue's.
    overrides: Vec<(&'static str, usize)>,
    state: Mutex<TallyState>,
}

#[derive(Default)]
struct TallyState {
    /// Calls compared: identical, or explained by intended differences.
    compared: usize,
    identical: usize,
    by_kind: BTreeMap<&'static str, usize>,
    intended: BTreeMap<&'static str, usize>,
    unexplained: Vec<String>,
    /// Calls the peer failed (reports with reproducers): not compared.
    peer_failures: Vec<String>,
    notes: Vec<String>,
}

impl TallyState {
    fn calls(&self) -> usize {
        self.compared + self.unexplained.len() + self.peer_failures.len()
    }
}

impl Tally {
    /// A tally for `suite` with the list of intended differences.
    pub(crate) fn new(suite: &'static str, catalogue: &'static [Intended]) -> Tally {
        Tally {
            suite,
            catalogue,
            overrides: Vec::new(),
            state: Mutex::new(TallyState::default()),
        }
    }

    /// Sets the ceiling of `name` for this suite (a suite built to meet
    /// one difference, say).
    pub(crate) fn with_ceiling(mut self, name: &'static str, percent: usize) -> Tally {
        assert!(
            self.catalogue.iter().any(|i| i.name == name),
            "no intended difference '{name}' in the {} catalogue",
            self.suite
        );
        self.overrides.push((name, percent));
        self
    }

    fn ceiling(&self, intended: &Intended) -> usize {
        self.overrides
            .iter()
            .find(|(name, _)| *name == intended.name)
            .map_or(intended.ceiling, |(_, percent)| *percent)
    }

    fn state(&self) -> std::sync::MutexGuard<'_, TallyState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records one compared call of `kind` (read, edit, write…): identical
    /// when `categories` is empty, else explained by those intended
    /// differences.
    pub(crate) fn record(&self, kind: &'static str, categories: &[&'static str]) {
        let mut state = self.state();
        state.compared += 1;
        *state.by_kind.entry(kind).or_default() += 1;
        if categories.is_empty() {
            state.identical += 1;
        }
        for category in categories {
            assert!(
                self.catalogue.iter().any(|i| i.name == *category),
                "intended difference '{category}' is not in the {} catalogue",
                self.suite
            );
            *state.intended.entry(category).or_default() += 1;
        }
    }

    /// Records a difference no intended difference explains.
    pub(crate) fn unexplained(&self, kind: &'static str, report: String) {
        let mut state = self.state();
        *state.by_kind.entry(kind).or_default() += 1;
        state.unexplained.push(report);
    }

    /// Records a call the peer failed (it crashed, hung or answered
    /// something that is no reply): nothing was compared. `report` holds
    /// the reproducer.
    pub(crate) fn peer_failed(&self, kind: &'static str, report: String) {
        let mut state = self.state();
        *state.by_kind.entry(kind).or_default() += 1;
        state.peer_failures.push(report);
    }

    /// Adds a line to print with the summary (a peer defect met on the
    /// way, with its reproducer).
    pub(crate) fn note(&self, text: String) {
        self.state().notes.push(text);
    }

    /// Prints the summary and returns the verdict: an error naming every
    /// rule broken (unexplained differences, fewer than
    /// [`COMPARED_FLOOR`] % of the calls compared, an intended difference
    /// over its ceiling).
    pub(crate) fn finish(&self, elapsed: std::time::Duration) -> Result<(), String> {
        let state = self.state();
        let calls = state.calls();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\n== {}: {calls} calls in {:.1}s: {} compared ({} identical, {} explained by intended \
             differences), {} unexplained, {} the peer failed",
            self.suite,
            elapsed.as_secs_f64(),
            state.compared,
            state.identical,
            state.compared - state.identical,
            state.unexplained.len(),
            state.peer_failures.len(),
        );
        let kinds: Vec<String> = state
            .by_kind
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let _ = writeln!(out, "   calls: {}", kinds.join(", "));
        let mut over = Vec::new();
        for intended in self.catalogue {
            let n = state.intended.get(intended.name).copied().unwrap_or(0);
            let ceiling = self.ceiling(intended);
            let allowed = state.compared * ceiling / 100 + CEILING_SLACK;
            let _ = writeln!(
                out,
                "   {n:>5} (≤{allowed:>4})  {:<28} {}",
                intended.name, intended.reason
            );
            if n > allowed {
                over.push(format!(
                    "intended difference '{}' explains {n} of {} compared calls, over its ceiling of \
                     {ceiling} % (+{CEILING_SLACK}): {allowed}",
                    intended.name, state.compared
                ));
            }
        }
        for note in &state.notes {
            let _ = writeln!(out, "   note: {}", clip_lines(note, 12));
        }
        eprint!("{out}");
        let mut failures = Vec::new();
        if !state.unexplained.is_empty() {
            let file = report_path(self.suite);
            let all = state.unexplained.join(SEPARATOR);
            let saved = std::fs::write(&file, &all).is_ok();
            let shown: Vec<String> = state
                .unexplained
                .iter()
                .take(3)
                .map(|r| clip_lines(r, 80))
                .collect();
            failures.push(format!(
                "{} unexplained difference(s){}; first {}:\n\n{}",
                state.unexplained.len(),
                if saved {
                    format!(" (all in {})", file.display())
                } else {
                    String::new()
                },
                shown.len(),
                shown.join(SEPARATOR)
            ));
        }
        if calls == 0 || state.compared * 100 < COMPARED_FLOOR * calls {
            let first = state
                .peer_failures
                .first()
                .map(|r| format!("; the first:\n{}", clip_lines(r, 20)))
                .unwrap_or_default();
            failures.push(format!(
                "compared {} of {calls} calls, under the floor of {COMPARED_FLOOR} %: the peer failed \
                 {} of them{first}",
                state.compared,
                state.peer_failures.len()
            ));
        }
        failures.extend(over);
        if failures.is_empty() {
            Ok(())
        } else {
            Err(format!("{}: {}", self.suite, failures.join(SEPARATOR)))
        }
    }
}

const SEPARATOR: &str = "\n--------------------------------------------------------------\n";

/// Where a suite's unexplained differences are written in full.
fn report_path(suite: &str) -> PathBuf {
    let name: String = suite
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.unexplained.txt"))
}

/// The first `max` lines of `text`, with a note of how many were cut.
pub(crate) fn clip_lines(text: &str, max: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= max {
        return text.to_string();
    }
    format!(
        "{}\n… ({} more lines)",
        lines[..max].join("\n"),
        lines.len() - max
    )
}
