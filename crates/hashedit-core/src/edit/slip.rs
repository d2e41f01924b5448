//! The shift guard (FORMAT.md §7.3): a replacement that looks aimed one
//! line off. Either a body row is an edited copy of the unchanged line
//! beside the range rather than of any line it replaces (the intended line
//! stays and a neighbour is overwritten), or the range is one line longer
//! than rows that edit the other lines in order (the extra line, which the
//! author meant to keep, is deleted).

use std::fmt;

use crate::document::LineRange;
use crate::hunk::{Hunk, HunkKind};
use crate::plan::OpRef;
use crate::text::Text;

use super::echo::Edge;
use super::neighbours::Staying;
use super::reading::{Reading, ReadingKind, op_lines};

/// A row that copies the line beside the range (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shift {
    /// The op.
    pub op: OpRef,
    /// Which row: the first (copying the line above) or the last.
    pub edge: Edge,
    /// The unchanged line the row copies.
    pub neighbour: usize,
    /// The lines the op replaces.
    pub range: LineRange,
}

/// A range one line too long (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedEdge {
    /// The op.
    pub op: OpRef,
    /// The line nothing replaces, which is deleted.
    pub dropped: usize,
    /// The lines the rows are edits of.
    pub edited: LineRange,
}

impl Shift {
    fn what(&self) -> String {
        let (which, side) = match self.edge {
            Edge::First => ("first", "above"),
            Edge::Last => ("last", "below"),
        };
        format!(
            "{}: the {which} body row reads as an edited copy of line {} just {side} the range, \
             which stays, more than of any line it replaces ({})",
            self.op,
            self.neighbour,
            lines_phrase(self.range)
        )
    }

    /// The warning, once the rows were written as sent.
    pub(crate) fn written(&self) -> String {
        format!("{} (written as sent)", self.what())
    }
}

impl fmt::Display for Shift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: written as sent, line {} would keep its old text and {} would be overwritten",
            self.what(),
            self.neighbour,
            lines_phrase(self.range)
        )
    }
}

impl DroppedEdge {
    fn what(&self) -> String {
        format!(
            "{}: the body rows are edits of {}, in order, and nothing replaces line {}",
            self.op,
            lines_phrase(self.edited),
            self.dropped
        )
    }

    /// The warning, once the rows were written as sent.
    pub(crate) fn written(&self) -> String {
        format!("{}, so it was deleted (written as sent)", self.what())
    }
}

impl fmt::Display for DroppedEdge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: written as sent, it would be deleted", self.what())
    }
}

/// `line N` or `lines N-M`, for messages.
pub(crate) fn lines_phrase(range: LineRange) -> String {
    if range.start == range.end {
        format!("line {}", range.start)
    } else {
        format!("lines {}-{}", range.start, range.end)
    }
}

/// A slip in a replacement's range: the finding for one hunk.
pub(crate) enum Slip {
    /// See [`Shift`].
    Shift(Shift),
    /// See [`DroppedEdge`].
    DroppedEdge(DroppedEdge),
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
/// A dropped line whose words reappear in the rows at least this much
/// (share of its distinct words) was merged into them, not lost.
const MERGED_WORDS: f32 = 0.5;

/// Character similarity of two trimmed lines, 0 (nothing shared) to 1.
fn likeness(a: &str, b: &str) -> f32 {
    similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_chars(a, b)
        .ratio()
}

/// Finds replacements that look aimed one line off. Bounded work: the
/// first [`SHIFT_MAX_HUNKS`] hunks, and ranges of at most
/// [`SHIFT_MAX_RANGE`] lines (a slip of one line is a small-edit slip).
pub(crate) fn slips(hunks: &[Hunk], live: &Text) -> Vec<Slip> {
    let staying = Staying::new(hunks, live);
    let mut found = Vec::new();
    for hunk in hunks.iter().take(SHIFT_MAX_HUNKS) {
        let HunkKind::Replace { range, body } = &hunk.kind else {
            continue;
        };
        if range.len() > SHIFT_MAX_RANGE {
            continue;
        }
        if let Some(slip) = slip_of(hunk, *range, body, live, &staying) {
            found.push(slip);
        }
    }
    found
}

/// The slip of one replacement, if it has one.
fn slip_of(
    hunk: &Hunk,
    range: LineRange,
    body: &[String],
    live: &Text,
    staying: &Staying,
) -> Option<Slip> {
    let usable = |s: &str| (SHIFT_MIN_ROW_BYTES..=SHIFT_MAX_ROW_BYTES).contains(&s.len());
    let (first, last) = (body.first()?, body.last()?);
    // A row that reads as an edit of `neighbour` rather than of any
    // replaced line.
    let shifted_onto = |row: &str, neighbour: usize| -> bool {
        let row = row.trim();
        let Some(near) = staying.line(neighbour).map(str::trim) else {
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
            old.len() <= SHIFT_MAX_ROW_BYTES && likeness(row, old) <= to_neighbour - SHIFT_MARGIN
        })
    };
    let shift = |edge: Edge, neighbour: usize| {
        Slip::Shift(Shift {
            op: OpRef::of(hunk),
            edge,
            neighbour,
            range,
        })
    };
    if shifted_onto(first, range.start - 1) {
        return Some(shift(Edge::First, range.start - 1));
    }
    if shifted_onto(last, range.end + 1) {
        return Some(shift(Edge::Last, range.end + 1));
    }
    let dropped = dropped_edge(range, body, live)?;
    let edited = if dropped == range.start {
        LineRange {
            start: range.start + 1,
            end: range.end,
        }
    } else {
        LineRange {
            start: range.start,
            end: range.end - 1,
        }
    };
    Some(Slip::DroppedEdge(DroppedEdge {
        op: OpRef::of(hunk),
        dropped,
        edited,
    }))
}

/// The line at one edge of `range` that a body one row shorter leaves
/// without a counterpart, when every row is an edited copy of the other
/// lines, in order: a range one line too long, which deletes a line the
/// author meant to keep. `None` when the rows do not line up that way,
/// line up with both readings, or carry the dropped line's words (two
/// lines merged into one, an argument inlined).
fn dropped_edge(range: LineRange, body: &[String], live: &Text) -> Option<usize> {
    let (start, end) = (range.start, range.end);
    if body.len() + 1 != range.len() {
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
    let dropped = match (lines_up(start), lines_up(start + 1)) {
        (true, false) if unlike(end, &body[body.len() - 1]) => end,
        (false, true) if unlike(start, &body[0]) => start,
        _ => return None,
    };
    (!merged_into(live.line(dropped), body)).then_some(dropped)
}

/// Whether most of `line`'s distinct words appear in `rows`: the line's
/// content moved into them.
fn merged_into(line: &str, rows: &[String]) -> bool {
    let own: std::collections::HashSet<&str> = words(line).collect();
    if own.is_empty() {
        return false;
    }
    let kept: std::collections::HashSet<&str> = rows.iter().flat_map(|r| words(r)).collect();
    let shared = own.iter().filter(|w| kept.contains(*w)).count();
    shared as f32 >= MERGED_WORDS * own.len() as f32
}

/// The identifier-like words of a line (runs of letters, digits and `_`).
fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The corrected op for a slip: the same rows aimed at the lines they edit.
pub(crate) fn reading(slip: &Slip, body: &[String]) -> Reading {
    match slip {
        Slip::Shift(shift) => {
            let LineRange { start, end } = shift.range;
            // More rows than lines: the range stops one line short of the
            // line the edge row edits; as many: it is aimed one line off.
            let longer = body.len() > shift.range.len();
            let (kind, aimed) = match (shift.edge, longer) {
                (Edge::First, true) => (ReadingKind::ExtendRange, (start - 1, end)),
                (Edge::Last, true) => (ReadingKind::ExtendRange, (start, end + 1)),
                (Edge::First, false) => (ReadingKind::MoveRange, (start - 1, end - 1)),
                (Edge::Last, false) => (ReadingKind::MoveRange, (start + 1, end + 1)),
            };
            let aimed = LineRange {
                start: aimed.0,
                end: aimed.1,
            };
            Reading {
                kind,
                lines: op_lines(&format!("PUT {}:", aimed.canonical()), body),
            }
        }
        Slip::DroppedEdge(dropped) => Reading {
            kind: ReadingKind::ShortenRange,
            lines: op_lines(&format!("PUT {}:", dropped.edited.canonical()), body),
        },
    }
}
