//! One section against one file: lower, plan, apply, preview.
//!
//! This is the pure heart of the `edit` tool. The tools layer reads the live
//! bytes (under the file's lock), checks the tag, calls [`apply_section`]
//! (or [`rebase_section`] when the session can carry the ops over a
//! drifted file), and writes [`SectionEdit::bytes`] only when every section
//! of the document succeeded (reference-rho.md §8.2). A failure carries the
//! live snapshot the model should copy from (§8.4).

use std::fmt;

use crate::block::BlockResolver;
use crate::document::{Gap, OpKind, Section, Target};
use crate::lower::{FileOp, LowerError, Lowered, Registers, lower};
use crate::plan::{PlanError, plan};
use crate::rebase::{RebaseRefusal, rebase};
use crate::tag::{SnapshotTag, TagScheme};
use crate::text::Text;
use crate::view::{PreviewShape, live_snapshot, post_edit_preview};

/// What a section is applied to.
#[derive(Clone, Copy)]
pub struct SectionInput<'a> {
    /// The section.
    pub section: &'a Section,
    /// Display path of the file the section names.
    pub display: &'a str,
    /// Display path of the result: the `MV` destination, else `display`.
    pub result_display: &'a str,
    /// The live file.
    pub live: &'a Text<'a>,
    /// The live file's tag (for live snapshots).
    pub live_tag: SnapshotTag,
    /// Tag scheme for the new tag.
    pub scheme: TagScheme,
    /// Block grammar for `N*` locators, if any.
    pub blocks: Option<&'a dyn BlockResolver>,
}

impl fmt::Debug for SectionInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SectionInput")
            .field("display", &self.display)
            .field("live_tag", &self.live_tag)
            .finish_non_exhaustive()
    }
}

/// A section applied in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionEdit {
    /// The file's new bytes (unused for `REM`).
    pub bytes: Vec<u8>,
    /// The new bytes' snapshot tag.
    pub new_tag: SnapshotTag,
    /// The ops summary line: one part per op, joined by `; `.
    pub summary: String,
    /// The post-edit preview (header with the new tag, rows or the
    /// structural notice); empty for `REM`.
    pub preview: String,
    /// Notes about ops that applied as written but may not be what the
    /// author meant.
    pub warnings: Vec<String>,
    /// `REM` or `MV`, to be carried out by the caller.
    pub file_op: Option<FileOp>,
}

impl SectionEdit {
    /// The model-facing text for this file: summary line, then preview.
    pub fn report(&self) -> String {
        match &self.file_op {
            Some(FileOp::Remove) => self.summary.clone(),
            _ => format!("{}\n{}", self.summary, self.preview),
        }
    }

    /// The report without preview rows: summary line, the new header (so
    /// the edit still chains) and a notice. Used when the full report does
    /// not fit the output budget.
    pub fn compact_report(&self) -> String {
        match &self.file_op {
            Some(FileOp::Remove) => self.summary.clone(),
            _ => {
                let header = self.preview.lines().next().unwrap_or_default();
                format!(
                    "{}\n{header}\n\n[the preview rows do not fit the output budget; read the file to see them]",
                    self.summary
                )
            }
        }
    }
}

/// Why a section failed; rendered with the live snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SectionFailure {
    /// The section's tag does not match the live file.
    StaleTag {
        /// Tag in the section header.
        expected: SnapshotTag,
        /// Tag of the live file.
        live: SnapshotTag,
    },
    /// The tag is stale and the session held the snapshot it names, but
    /// the ops could not be carried onto the live file.
    StaleTagNotRebased {
        /// Tag in the section header.
        expected: SnapshotTag,
        /// Tag of the live file.
        live: SnapshotTag,
        /// Why the rebase was refused.
        reason: String,
    },
    /// The tag matched but another snapshot served under it differs from
    /// the live bytes (a 16-bit collision, product.md §3 item 5).
    CollidingSnapshot {
        /// The tag in the section header (equal to the live tag).
        tag: SnapshotTag,
    },
    /// A block or register op could not be lowered.
    Lower(LowerError),
    /// The ops do not fit the file.
    Plan(PlanError),
    /// A body indented in the other style (tabs or spaces) than the lines
    /// around it; the message names the op and the row.
    Indentation(String),
}

/// A failed section: what went wrong and the live snapshot to retry from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionError {
    /// Display path of the file.
    pub display: String,
    /// The failure.
    pub failure: SectionFailure,
    /// The live snapshot (`[path#LIVETAG]` and rows around the anchors).
    pub snapshot: String,
}

impl fmt::Display for SectionFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SectionFailure::StaleTag { expected, live } => write!(
                f,
                "snapshot tag {expected} is stale: the file's tag is now {live} (it changed since that snapshot, or the \
                 tag was mistyped); nothing was written. Retry with the header and line numbers of the live snapshot below"
            ),
            SectionFailure::StaleTagNotRebased {
                expected,
                live,
                reason,
            } => write!(
                f,
                "snapshot tag {expected} is stale: the file changed and its tag is now {live}, and the \
                 ops could not be moved onto it safely ({reason}); nothing was written. Retry with the \
                 header and line numbers of the live snapshot below"
            ),
            SectionFailure::CollidingSnapshot { tag } => write!(
                f,
                "snapshot tag {tag} still matches, but the file's content differs from every snapshot \
                 served under that tag (a tag collision); nothing was written. Retry from the live snapshot below"
            ),
            SectionFailure::Lower(e) => write!(f, "{e}; nothing was written"),
            SectionFailure::Plan(e) => write!(f, "{e}; nothing was written"),
            SectionFailure::Indentation(e) => write!(f, "{e}; nothing was written"),
        }
    }
}

impl fmt::Display for SectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}\n\nLive snapshot (copy this header and these line numbers to retry):\n{}",
            self.display, self.failure, self.snapshot
        )
    }
}

impl std::error::Error for SectionError {}

/// The original lines a live snapshot of `section` should show: each op's
/// first and last line, its anchor line or its block's first line
/// (reference-rho.md §8.4).
pub fn anchor_lines(section: &Section) -> Vec<usize> {
    section
        .ops
        .iter()
        .flat_map(|op| match &op.kind {
            OpKind::Replace { target, .. }
            | OpKind::Cut { target, .. }
            | OpKind::PasteOver { target, .. } => match target {
                Target::Lines(range) => vec![range.start, range.end],
                Target::Block(line) => vec![*line],
            },
            OpKind::Insert { at, .. } | OpKind::Paste { at, .. } => match at {
                Gap::Before(n) | Gap::After(n) | Gap::AfterBlock(n) => vec![*n],
                Gap::End => Vec::new(),
            },
            OpKind::Remove | OpKind::Move { .. } => Vec::new(),
        })
        .collect()
}

/// Builds the error for `failure` with a live snapshot of the input's file.
pub fn section_error(input: &SectionInput, failure: SectionFailure) -> Box<SectionError> {
    Box::new(SectionError {
        display: input.display.to_string(),
        failure,
        snapshot: live_snapshot(
            input.display,
            input.live_tag,
            input.live,
            &anchor_lines(input.section),
        ),
    })
}

/// Lowers, plans and applies the section against the live file (the caller
/// checked the tag).
///
/// Errors: [`SectionFailure::Lower`] or [`SectionFailure::Plan`], with a
/// live snapshot.
pub fn apply_section(
    input: &SectionInput,
    registers: &mut Registers,
) -> Result<SectionEdit, Box<SectionError>> {
    let lowered = lower(
        input.section,
        input.display,
        input.live,
        input.blocks,
        registers,
    )
    .map_err(|e| section_error(input, SectionFailure::Lower(e)))?;
    finish(input, lowered)
}

/// Lowers the section against `served` (the older snapshot its tag names),
/// moves the hunks onto the live file and applies them (product.md §3
/// item 6). Returns the edit and the line shift.
///
/// Errors: [`SectionFailure::StaleTagNotRebased`] when the ops touch
/// changed lines; lowering and planning errors as [`apply_section`].
pub fn rebase_section(
    input: &SectionInput,
    served: &Text,
    registers: &mut Registers,
) -> Result<(SectionEdit, isize), Box<SectionError>> {
    let refused = |reason: RebaseRefusal| {
        section_error(
            input,
            SectionFailure::StaleTagNotRebased {
                expected: input.section.tag,
                live: input.live_tag,
                reason: reason.to_string(),
            },
        )
    };
    let mut lowered = lower(
        input.section,
        input.display,
        served,
        input.blocks,
        registers,
    )
    .map_err(|e| section_error(input, SectionFailure::Lower(e)))?;
    let rebased = rebase(&lowered.hunks, served, input.live).map_err(refused)?;
    lowered.hunks = rebased.hunks;
    Ok((finish(input, lowered)?, rebased.shift))
}

/// Most op summaries listed on a file's summary line; the rest are
/// counted, so a document of thousands of ops still leaves room for the
/// preview header.
pub const MAX_SUMMARY_PARTS: usize = 24;

fn summary_line(parts: &[String]) -> String {
    if parts.len() <= MAX_SUMMARY_PARTS {
        return parts.join("; ");
    }
    let more = parts.len() - MAX_SUMMARY_PARTS;
    format!(
        "{}; … and {more} more {}",
        parts[..MAX_SUMMARY_PARTS].join("; "),
        if more == 1 { "op" } else { "ops" }
    )
}

fn finish(input: &SectionInput, lowered: Lowered) -> Result<SectionEdit, Box<SectionError>> {
    let summary = summary_line(&lowered.summary);
    if lowered.file_op == Some(FileOp::Remove) {
        return Ok(SectionEdit {
            bytes: Vec::new(),
            new_tag: input.live_tag,
            summary,
            preview: String::new(),
            warnings: lowered.warnings,
            file_op: lowered.file_op,
        });
    }
    let plan = plan(&lowered.hunks, input.live)
        .map_err(|e| section_error(input, SectionFailure::Plan(e)))?;
    if let Some(problem) = indent_problem(
        &lowered.hunks,
        input.live,
        TabRole::of(input.result_display),
    ) {
        return Err(section_error(input, SectionFailure::Indentation(problem)));
    }
    let applied = plan.apply(input.live);
    let new_tag = input.scheme.tag_of(&applied.bytes);
    let new_text = match Text::decode(&applied.bytes) {
        Ok(text) => text,
        // Rows come from text and lines are valid UTF-8, and the planner
        // refuses rows with a NUL, so the result is text; stay total anyway.
        Err(_) => Text::from_body(false, String::from_utf8_lossy(&applied.bytes).into_owned()),
    };
    let shape = if applied.structural {
        PreviewShape::Structural
    } else {
        PreviewShape::Rows
    };
    let preview = post_edit_preview(
        input.result_display,
        new_tag,
        &new_text,
        &applied.focus,
        shape,
    );
    let mut warnings = lowered.warnings;
    warnings.extend(echo_warnings(&lowered.hunks, input.live));
    warnings.extend(shift_warnings(&lowered.hunks, input.live));
    Ok(SectionEdit {
        bytes: applied.bytes,
        new_tag,
        summary,
        preview,
        warnings,
        file_op: lowered.file_op,
    })
}

/// Checks the tag and applies `section` to the live file with no block
/// grammar and fresh registers: the simplest embedding of the engine.
///
/// `live_bytes` must be the bytes `live` was decoded from. Errors:
/// [`SectionFailure::StaleTag`] when the tags differ, else as
/// [`apply_section`].
pub fn edit_section(
    section: &Section,
    display: &str,
    live: &Text,
    live_bytes: &[u8],
    scheme: TagScheme,
) -> Result<SectionEdit, Box<SectionError>> {
    let input = SectionInput {
        section,
        display,
        result_display: display,
        live,
        live_tag: scheme.tag_of(live_bytes),
        scheme,
        blocks: None,
    };
    if input.live_tag != section.tag {
        return Err(section_error(
            &input,
            SectionFailure::StaleTag {
                expected: section.tag,
                live: input.live_tag,
            },
        ));
    }
    apply_section(&input, &mut Registers::default())
}

/// The lines just above and below where a hunk's rows land (either may be
/// past the file's edges), and the lines whose indentation the rows should
/// share.
fn surroundings(
    kind: &crate::hunk::HunkKind,
    total: usize,
) -> Option<(&Vec<String>, usize, usize, Vec<usize>)> {
    use crate::hunk::{HunkKind, InsertAt};
    match kind {
        HunkKind::Replace { range, body } => Some((
            body,
            range.start - 1,
            range.end + 1,
            (range.start - 1..=range.end + 1).collect(),
        )),
        HunkKind::Insert { at, body } => {
            let above = match at {
                InsertAt::After(n) => *n,
                InsertAt::Before(n) => n - 1,
                InsertAt::End => total,
            };
            Some((body, above, above + 1, vec![above, above + 1]))
        }
        HunkKind::Delete { .. } => None,
    }
}

/// The lines of the live file that no op of a section replaces or
/// deletes: the neighbours that stay, for the echo and shift checks.
struct Staying<'t, 'a> {
    live: &'t Text<'a>,
    removed: std::collections::HashSet<usize>,
}

impl<'t, 'a> Staying<'t, 'a> {
    fn new(hunks: &[crate::hunk::Hunk], live: &'t Text<'a>) -> Self {
        let removed = hunks
            .iter()
            .filter_map(|h| h.kind.span())
            .flat_map(|r| r.start..=r.end)
            .collect();
        Staying { live, removed }
    }

    /// Line `n` (1-based) when it exists and stays.
    fn line(&self, n: usize) -> Option<&'t str> {
        (n >= 1 && n <= self.live.line_count() && !self.removed.contains(&n))
            .then(|| self.live.line(n))
    }
}

/// Most leading or trailing rows compared with a body's neighbours (keeps
/// the check linear for bodies of any size).
const MAX_ECHO_ROWS: usize = 16;

/// Warns when a body's first rows repeat the unchanged lines just above its
/// place, or its last rows the lines just below: the rows are written as
/// sent (product.md §4 and handed cases B01/B02: content is never guessed),
/// but the author may have restated neighbours by mistake. Lines that
/// another op of the section replaces or deletes are not neighbours that
/// stay, so they never count.
fn echo_warnings(hunks: &[crate::hunk::Hunk], live: &Text) -> Vec<String> {
    let total = live.line_count();
    let staying = Staying::new(hunks, live);
    let kept = |n: usize| staying.line(n);
    let mut warnings = Vec::new();
    for hunk in hunks {
        let Some((body, above, below, _)) = surroundings(&hunk.kind, total) else {
            continue;
        };
        // Longest run of leading rows equal to the lines ending at `above`.
        let leading = (1..=body.len().min(MAX_ECHO_ROWS))
            .rev()
            .find(|&k| {
                above + 1 > k
                    && kept(above + 1 - k).is_some()
                    && body[..k]
                        .iter()
                        .zip(above + 1 - k..=above)
                        .all(|(r, n)| kept(n) == Some(r.as_str()))
            })
            .unwrap_or(0);
        let trailing = (1..=body.len().min(MAX_ECHO_ROWS))
            .rev()
            .find(|&k| {
                body[body.len() - k..]
                    .iter()
                    .zip(below..below + k)
                    .all(|(r, n)| kept(n) == Some(r.as_str()))
            })
            .unwrap_or(0);
        let describe = |k: usize, first: usize| {
            if k == 1 {
                format!("body row repeats line {first}, which stays")
            } else {
                format!(
                    "{k} body rows repeat lines {first}-{}, which stay",
                    first + k - 1
                )
            }
        };
        let blank = |rows: &[String]| rows.iter().all(|r| r.trim().is_empty());
        if leading > 0 && !blank(&body[..leading]) {
            warnings.push(format!(
                "{} (document line {}): the first {} in the file; they are written twice as sent. \
                 If that was not meant, CUT the extra rows",
                hunk.header,
                hunk.line,
                describe(leading, above + 1 - leading)
            ));
        }
        if trailing > 0 && !blank(&body[body.len() - trailing..]) {
            warnings.push(format!(
                "{} (document line {}): the last {} in the file; they are written twice as sent. \
                 If that was not meant, CUT the extra rows",
                hunk.header,
                hunk.line,
                describe(trailing, below)
            ));
        }
    }
    warnings
}

/// Shortest trimmed row (bytes) the shifted-range check looks at: short
/// rows such as `}` or `end` resemble each other by accident.
const SHIFT_MIN_ROW_BYTES: usize = 8;
/// Longest trimmed row (bytes) the shifted-range check compares, so the
/// character diff stays cheap.
const SHIFT_MAX_ROW_BYTES: usize = 400;
/// Most hunks of one section that the shifted-range check looks at.
const SHIFT_MAX_HUNKS: usize = 1000;
/// Longest replaced range (lines) the shifted-range check looks at.
const SHIFT_MAX_RANGE: usize = 16;
/// A row at least this similar (character ratio, 0..=1) to a neighbour is
/// read as an edited copy of it.
const SHIFT_NEAR: f32 = 0.8;
/// ... provided its likeness to every line it replaces is lower by at
/// least this much.
const SHIFT_MARGIN: f32 = 0.2;

/// Character similarity of two trimmed lines, 0 (nothing shared) to 1.
fn likeness(a: &str, b: &str) -> f32 {
    similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_chars(a, b)
        .ratio()
}

/// Warns when a replacement looks aimed one line off: the first body row is
/// an edited copy of the unchanged line just above the range (or the last
/// row of the line just below) and clearly less like any line it
/// replaces. That is what an off-by-one range usually leaves (the
/// robustness benchmark's `off-by-one-range` documents): the intended line
/// stays and an unrelated neighbour is overwritten. The edit is a valid
/// document and is written as sent (content is never guessed, product.md
/// §4); the warning makes the slip visible instead of silent.
fn shift_warnings(hunks: &[crate::hunk::Hunk], live: &Text) -> Vec<String> {
    use crate::hunk::HunkKind;
    let staying = Staying::new(hunks, live);
    let kept = |n: usize| staying.line(n);
    let usable = |s: &str| (SHIFT_MIN_ROW_BYTES..=SHIFT_MAX_ROW_BYTES).contains(&s.len());
    let mut warnings = Vec::new();
    // Bounded work: the first hunks of a huge document, and ranges short
    // enough to be aimed by hand (a slip of one line is a small-edit slip).
    for hunk in hunks.iter().take(SHIFT_MAX_HUNKS) {
        let HunkKind::Replace { range, body } = &hunk.kind else {
            continue;
        };
        if range.len() > SHIFT_MAX_RANGE {
            continue;
        }
        let (Some(first), Some(last)) = (body.first(), body.last()) else {
            continue;
        };
        // A row that reads as an edit of `neighbour` rather than of any
        // replaced line.
        let shifted_onto = |row: &str, neighbour: usize| -> bool {
            let row = row.trim();
            let Some(near) = kept(neighbour).map(str::trim) else {
                return false;
            };
            if !usable(row) || !usable(near) || row == near {
                return false;
            }
            let to_neighbour = likeness(row, near);
            if to_neighbour < SHIFT_NEAR {
                return false;
            }
            (range.start..=range.end).all(|n| {
                let old = live.line(n).trim();
                old.len() <= SHIFT_MAX_ROW_BYTES
                    && likeness(row, old) <= to_neighbour - SHIFT_MARGIN
            })
        };
        let what = |which: &str, neighbour: usize, side: &str| {
            format!(
                "{} (document line {}): the {which} body row reads as an edited copy of line {neighbour} \
                 just {side} the range, which stays, more than any line it replaces ({}); it was written as \
                 sent. If the range is off by one, fix it from the preview",
                hunk.header,
                hunk.line,
                lines_phrase(range.start, range.end)
            )
        };
        if shifted_onto(first, range.start - 1) {
            warnings.push(what("first", range.start - 1, "above"));
        } else if shifted_onto(last, range.end + 1) {
            warnings.push(what("last", range.end + 1, "below"));
        } else if let Some(dropped) = dropped_edge(range.start, range.end, body, live) {
            warnings.push(format!(
                "{} (document line {}): the body rows are edits of {}, in order, and nothing \
                 replaces line {dropped}, so it is deleted; it was written as sent. If the range is \
                 one line too long, fix it from the preview",
                hunk.header,
                hunk.line,
                if dropped == range.start {
                    lines_phrase(range.start + 1, range.end)
                } else {
                    lines_phrase(range.start, range.end - 1)
                }
            ));
        }
    }
    warnings
}

/// `line N` or `lines N-M`, for messages.
fn lines_phrase(first: usize, last: usize) -> String {
    if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}-{last}")
    }
}

/// The line at one edge of the range `start..=end` that a body one row
/// shorter leaves without a counterpart, when every row is an edited copy
/// of the other lines, in order: a range one line too long, which deletes
/// a line the author meant to keep. `None` when the rows do not line up
/// that way, or line up with both readings.
fn dropped_edge(start: usize, end: usize, body: &[String], live: &Text) -> Option<usize> {
    if body.len() + 1 != end - start + 1 {
        return None;
    }
    let lines_up = |first: usize| {
        body.iter().enumerate().all(|(i, row)| {
            let row = row.trim();
            let old = live.line(first + i).trim();
            row.len() >= SHIFT_MIN_ROW_BYTES
                && row.len() <= SHIFT_MAX_ROW_BYTES
                && old.len() <= SHIFT_MAX_ROW_BYTES
                && likeness(row, old) >= SHIFT_NEAR
        })
    };
    // The dropped line must not itself read like the row next to it, or
    // the author may have merged two similar lines on purpose.
    let unlike = |line: usize, row: &str| {
        let old = live.line(line).trim();
        old.len() > SHIFT_MAX_ROW_BYTES || likeness(row.trim(), old) < SHIFT_NEAR
    };
    // Rows that retype their lines exactly make a deletion written with
    // context (`PUT 4.=5:` `+line 4` to delete line 5): meant as it is.
    let retyped = |first: usize| {
        body.iter()
            .enumerate()
            .all(|(i, row)| live.line(first + i) == row.as_str())
    };
    if retyped(start) || retyped(start + 1) {
        return None;
    }
    match (lines_up(start), lines_up(start + 1)) {
        (true, false) if unlike(end, &body[body.len() - 1]) => Some(end),
        (false, true) if unlike(start, &body[0]) => Some(start),
        _ => None,
    }
}

/// How a line is indented, by its first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Indent {
    Tabs,
    Spaces,
}

fn indent_of(line: &str) -> Option<Indent> {
    if line.starts_with('\t') {
        Some(Indent::Tabs)
    } else if line.starts_with("  ") && !line.trim().is_empty() {
        Some(Indent::Spaces)
    } else {
        None
    }
}

impl Indent {
    fn name(self) -> &'static str {
        match self {
            Indent::Tabs => "tabs",
            Indent::Spaces => "spaces",
        }
    }
}

/// What a leading tab means in a file, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TabRole {
    /// Indentation, as in most source files.
    Indent,
    /// Syntax: a Makefile recipe line must start with a tab, even among
    /// space-indented continuation lines.
    Recipe,
    /// Data: a tab-separated table, where a leading tab is an empty field.
    Separator,
}

impl TabRole {
    fn of(display: &str) -> TabRole {
        let name = display.rsplit('/').next().unwrap_or(display);
        let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        match (name, extension.as_deref()) {
            ("Makefile" | "makefile" | "GNUmakefile", _) | (_, Some("mk" | "mak")) => {
                TabRole::Recipe
            }
            (_, Some("tsv" | "tab")) => TabRole::Separator,
            _ => TabRole::Indent,
        }
    }
}

/// A body indented with spaces where every indented line around it uses
/// tabs, or the other way round: almost always a model re-typing the
/// file's indentation, which would silently change it (and is an error in
/// Python and Makefiles). Refused rather than converted: content is never
/// guessed (product.md §4). Where a leading tab is syntax or data rather
/// than indentation (`role`), tab rows among space-indented lines are left
/// alone (a Makefile recipe needs its tab), and a tab-separated table is
/// not checked at all.
fn indent_problem(hunks: &[crate::hunk::Hunk], live: &Text, role: TabRole) -> Option<String> {
    if role == TabRole::Separator {
        return None;
    }
    let total = live.line_count();
    for hunk in hunks {
        let Some((body, _, _, context)) = surroundings(&hunk.kind, total) else {
            continue;
        };
        let styles: Vec<Indent> = context
            .into_iter()
            .filter(|&n| n >= 1 && n <= total)
            .filter_map(|n| indent_of(live.line(n)))
            .collect();
        let Some(&file) = styles.first() else {
            continue;
        };
        if styles.iter().any(|&s| s != file) {
            continue;
        }
        let foreign = |row: &String| {
            indent_of(row).is_some_and(|s| s != file)
                && !(role == TabRole::Recipe && indent_of(row) == Some(Indent::Tabs))
        };
        if let Some(row) = body.iter().position(foreign) {
            return Some(format!(
                "{} (document line {}): body row {} indents with {}, but the lines around it indent with {}; \
                 write the rows with the file's indentation (the live snapshot below shows it)",
                hunk.header,
                hunk.line,
                row + 1,
                if file == Indent::Tabs {
                    Indent::Spaces.name()
                } else {
                    Indent::Tabs.name()
                },
                file.name()
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn edit(file: &str, ops: &str) -> Result<SectionEdit, Box<SectionError>> {
        let tag = TagScheme::Rho.tag_of(file.as_bytes());
        let doc = parse(&format!("[f.go#{tag}]\n{ops}")).unwrap();
        let text = Text::decode(file.as_bytes()).unwrap();
        edit_section(
            &doc.sections[0],
            "f.go",
            &text,
            file.as_bytes(),
            TagScheme::Rho,
        )
    }

    #[test]
    fn echoes_are_written_with_a_warning_on_every_side() {
        // An insert after line 1 whose last row repeats line 2 (found by the
        // robustness benchmark: it used to pass without a warning).
        let out = edit("a\nb\nc\n", "PUT >1:\n+x\n+b").unwrap();
        assert_eq!(out.bytes, b"a\nx\nb\nb\nc\n");
        assert_eq!(
            out.warnings,
            vec![
                "PUT >1: (document line 2): the last body row repeats line 2, which stays in the file; they \
                 are written twice as sent. If that was not meant, CUT the extra rows"
            ]
        );
        let out = edit("a\nb\nc\n", "PUT <3:\n+b\n+x").unwrap();
        assert_eq!(out.bytes, b"a\nb\nb\nx\nc\n");
        assert_eq!(out.warnings.len(), 1);
        assert!(out.warnings[0].contains("the first body row repeats line 2"));
        // Several rows (reference-omp.md §7 case 32).
        let out = edit(
            "// one\n// two\nold();\n",
            "PUT 3:\n+// one\n+// two\n+new();",
        )
        .unwrap();
        assert_eq!(
            out.warnings,
            vec![
                "PUT 3: (document line 2): the first 2 body rows repeat lines 1-2, which stay in the file; \
                 they are written twice as sent. If that was not meant, CUT the extra rows"
            ]
        );
    }

    #[test]
    fn a_replacement_aimed_one_line_off_is_warned() {
        let file = "fn f() {\n    let total = 0;\n    let count = items.len();\n    total\n}\n";
        // Meant for line 3, sent to line 2: line 3 stays, line 2 is lost.
        let out = edit(file, "PUT 2:\n+    let count = items.len() + 1;").unwrap();
        assert_eq!(
            out.bytes,
            b"fn f() {\n    let count = items.len() + 1;\n    let count = items.len();\n    total\n}\n"
        );
        assert_eq!(
            out.warnings,
            vec![
                "PUT 2: (document line 2): the last body row reads as an edited copy of line 3 just below \
                 the range, which stays, more than any line it replaces (line 2); it was written as sent. \
                 If the range is off by one, fix it from the preview"
            ]
        );
        // Sent to line 4 instead: the first row copies line 3 above.
        let out = edit(file, "PUT 4:\n+    let count = items.len() + 1;").unwrap();
        assert_eq!(out.warnings.len(), 1);
        assert!(
            out.warnings[0].contains("first body row reads as an edited copy of line 3 just above"),
            "{:?}",
            out.warnings
        );
        // Aimed right: the row resembles the line it replaces; no warning.
        let out = edit(file, "PUT 3:\n+    let count = items.len() + 1;").unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        // One line too many: the row edits line 2 and line 3 is lost.
        let out = edit(file, "PUT 2.=3:\n+    let total = 1;").unwrap();
        assert_eq!(
            out.warnings,
            vec![
                "PUT 2.=3: (document line 2): the body rows are edits of line 2, in order, and nothing \
                 replaces line 3, so it is deleted; it was written as sent. If the range is one line too \
                 long, fix it from the preview"
            ]
        );
        // A deletion written with its kept neighbour retyped is meant.
        let out = edit(file, "PUT 2.=3:\n+    let total = 0;").unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        // Replacing two unlike lines with one new line is an ordinary edit.
        let out = edit(file, "PUT 2.=3:\n+    let sum: u32 = items.iter().sum();").unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        // Short rows like a closing brace never count.
        let out = edit("a();\n}\nlet x = 1;\n", "PUT 3:\n+};").unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    }

    #[test]
    fn lines_another_op_removes_are_not_echoes() {
        // Second trial: moving line 3 to the end is not an echo of line 3.
        let doc = parse("[f#0000]\nCUT 1 @x\nCUT 3 @y\nPUT >$ @y").unwrap();
        let file = "l1\nl2\nl3\n";
        let text = Text::decode(file.as_bytes()).unwrap();
        let input = SectionInput {
            section: &doc.sections[0],
            display: "f",
            result_display: "f",
            live: &text,
            live_tag: TagScheme::Rho.tag_of(file.as_bytes()),
            scheme: TagScheme::Rho,
            blocks: None,
        };
        let out = apply_section(&input, &mut Registers::default()).unwrap();
        assert_eq!(out.bytes, b"l2\nl3\n");
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    }

    #[test]
    fn rows_in_the_other_indentation_style_are_refused() {
        let file = "func f() {\n\tlet a = 1\n\treturn a\n}\n";
        let err = edit(file, "PUT 2:\n+    let a = 2").unwrap_err();
        assert_eq!(
            err.failure,
            SectionFailure::Indentation(
                "PUT 2: (document line 2): body row 1 indents with spaces, but the lines around it indent with \
                 tabs; write the rows with the file's indentation (the live snapshot below shows it)"
                    .into()
            )
        );
        assert!(err.to_string().contains("\n2:\tlet a = 1\n"));
        assert_eq!(
            edit(file, "PUT 2:\n+\tlet a = 2").unwrap().bytes,
            file.replace("1", "2").as_bytes()
        );
        // Spaces among spaces, and unindented rows, are fine; so is a file
        // whose neighbourhood mixes both styles.
        assert!(edit("def f():\n    a = 1\n", "PUT 2:\n+    a = 2").is_ok());
        assert!(edit("def f():\n    a = 1\n", "PUT >2:\n+b = 3").is_ok());
        assert!(edit("x:\n\ta\n  b\n", "PUT 2:\n+  c").is_ok());
        // The reverse: tabs among spaces.
        let err = edit("def f():\n    a = 1\n    b = 2\n", "PUT >2:\n+\tc = 3").unwrap_err();
        assert!(matches!(err.failure, SectionFailure::Indentation(_)));
    }

    #[test]
    fn tabs_that_are_syntax_or_data_are_not_indentation() {
        // Tester report: a Makefile recipe (which must start with a tab)
        // among space-indented continuation lines was refused, and the
        // advised fix would have broken the Makefile.
        let edit_as = |display: &str, file: &str, ops: &str| {
            let tag = TagScheme::Rho.tag_of(file.as_bytes());
            let doc = parse(&format!("[{display}#{tag}]\n{ops}")).unwrap();
            let text = Text::decode(file.as_bytes()).unwrap();
            edit_section(
                &doc.sections[0],
                display,
                &text,
                file.as_bytes(),
                TagScheme::Rho,
            )
        };
        let makefile = "OBJS = a.o \\\n       b.o\n";
        let recipe = "PUT >$:\n+all: $(OBJS)\n+\tcc -o prog $(OBJS)";
        for name in ["Makefile", "sub/GNUmakefile", "rules.mk"] {
            let out = edit_as(name, makefile, recipe).unwrap();
            assert_eq!(
                out.bytes, b"OBJS = a.o \\\n       b.o\nall: $(OBJS)\n\tcc -o prog $(OBJS)\n",
                "{name}"
            );
        }
        // Spaces where a Makefile's recipes use tabs are still refused:
        // make rejects them.
        let tabbed = "all:\n\tcc a.c\n\tcc b.c\n";
        let err = edit_as("Makefile", tabbed, "PUT 2:\n+    cc c.c").unwrap_err();
        assert!(matches!(err.failure, SectionFailure::Indentation(_)));
        // A tab-separated table is data: a leading tab is an empty field.
        let tsv = "a  b\n  c\n";
        assert!(edit_as("t.tsv", tsv, "PUT >2:\n+\tc\td").is_ok());
        // The same rows in a source file are refused.
        assert!(edit_as("m.py", makefile, recipe).is_err());
    }
}
