//! The shift guard (FORMAT.md §7.3): a replacement aimed one line off, a
//! row being an edited copy of the unchanged line beside the range rather
//! than of any line it replaces (a row parallel to that line, its sibling
//! in one list, copies nothing: module `parallel`). A range one line too
//! long is refused only over a blank line ([`DroppedBlank`]): over any
//! other line it fired on 30 of 940 real edits, while a blank line dropped
//! that way appeared in none.

use std::fmt;

use crate::document::LineRange;
use crate::hunk::{Hunk, HunkKind};
use crate::plan::OpRef;
use crate::text::Text;

use super::echo::Edge;
use super::neighbours::Staying;
use super::parallel::are_parallel;
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

/// A replacement one line too long over a blank line (see the module
/// docs): its rows edit the other lines of the range one for one, in
/// order, and nothing replaces the blank first or last line, which would
/// be deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedBlank {
    /// The op.
    pub op: OpRef,
    /// The blank line nothing replaces.
    pub blank: usize,
    /// The lines the rows edit.
    pub edited: LineRange,
}

impl DroppedBlank {
    fn what(&self) -> String {
        format!(
            "{}: the body rows edit {}, one for one, and nothing replaces line {}, which is blank",
            self.op,
            lines_phrase(self.edited),
            self.blank
        )
    }

    /// The warning, once the rows were written as sent.
    pub(crate) fn written(&self) -> String {
        format!("{}, so it was deleted (written as sent)", self.what())
    }
}

impl fmt::Display for DroppedBlank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: written as sent, the blank line would be deleted",
            self.what()
        )
    }
}

/// Finds replacements one line too long over a blank edge line (see
/// [`DroppedBlank`]). Rows that retype every other line (trailing
/// whitespace aside) delete the blank line on purpose, with context.
pub(crate) fn dropped_blanks(hunks: &[Hunk], live: &Text) -> Vec<DroppedBlank> {
    let mut found = Vec::new();
    for hunk in hunks.iter().take(SHIFT_MAX_HUNKS) {
        let HunkKind::Replace { range, body } = &hunk.kind else {
            continue;
        };
        if body.is_empty() || range.len() != body.len() + 1 || range.len() > SHIFT_MAX_RANGE {
            continue;
        }
        let blank = |n: usize| live.line(n).trim().is_empty();
        let (blank, edited) = match (blank(range.start), blank(range.end)) {
            (true, false) => (
                range.start,
                LineRange {
                    start: range.start + 1,
                    end: range.end,
                },
            ),
            (false, true) => (
                range.end,
                LineRange {
                    start: range.start,
                    end: range.end - 1,
                },
            ),
            _ => continue,
        };
        if edits_one_for_one(body, edited, live) {
            found.push(DroppedBlank {
                op: OpRef::of(hunk),
                blank,
                edited,
            });
        }
    }
    found
}

/// Whether `row` is a close edit of `line`, indentation aside (both long
/// enough to compare, likeness at least [`SHIFT_NEAR`]).
pub(crate) fn close_edit(row: &str, line: &str) -> bool {
    let (row, line) = (row.trim(), line.trim());
    let usable = |s: &str| (SHIFT_MIN_ROW_BYTES..=SHIFT_MAX_ROW_BYTES).contains(&s.len());
    row == line || (usable(row) && usable(line) && likeness(row, line) >= SHIFT_NEAR)
}

/// Whether each row is its line of `lines` retyped or a close edit of it,
/// and at least one row changes its line.
fn edits_one_for_one(body: &[String], lines: LineRange, live: &Text) -> bool {
    let mut changed = false;
    for (row, n) in body.iter().zip(lines.start..=lines.end) {
        let (row, old) = (row.trim_end(), live.line(n).trim_end());
        if row == old {
            continue;
        }
        changed = true;
        let (row, old) = (row.trim(), old.trim());
        let usable = |s: &str| (SHIFT_MIN_ROW_BYTES..=SHIFT_MAX_ROW_BYTES).contains(&s.len());
        if !usable(row) || !usable(old) || likeness(row, old) < SHIFT_NEAR {
            return false;
        }
    }
    changed
}

/// The corrected op for a dropped blank line: the rows on the lines they
/// edit.
pub(crate) fn shortened(dropped: &DroppedBlank, body: &[String]) -> Reading {
    Reading {
        kind: ReadingKind::ShortenRange,
        lines: op_lines(&format!("PUT {}:", dropped.edited.canonical()), body),
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

/// Finds replacements that look aimed one line off. Bounded work: the
/// first [`SHIFT_MAX_HUNKS`] hunks, and ranges of at most
/// [`SHIFT_MAX_RANGE`] lines (a slip of one line is a small-edit slip).
pub(crate) fn shifts(hunks: &[Hunk], live: &Text) -> Vec<Shift> {
    let staying = Staying::new(hunks, live);
    let mut found = Vec::new();
    for hunk in hunks.iter().take(SHIFT_MAX_HUNKS) {
        let HunkKind::Replace { range, body } = &hunk.kind else {
            continue;
        };
        if range.len() > SHIFT_MAX_RANGE {
            continue;
        }
        if let Some(shift) = shift_of(hunk, *range, body, live, &staying) {
            found.push(shift);
        }
    }
    found
}

/// The shift of one replacement, if it has one.
fn shift_of(
    hunk: &Hunk,
    range: LineRange,
    body: &[String],
    live: &Text,
    staying: &Staying,
) -> Option<Shift> {
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
        // The neighbour's words reordered (arguments swapped) copy it as
        // surely as a close character match; a sibling of the neighbour
        // (another key, import or declaration of the same shape) names
        // another thing and copies nothing.
        let to_neighbour = if same_words(row, near) {
            1.0
        } else if are_parallel(row, near) {
            return false;
        } else {
            likeness(row, near)
        };
        if to_neighbour < SHIFT_NEAR {
            return false;
        }
        (range.start..=range.end).all(|n| {
            let old = live.line(n).trim();
            old.len() <= SHIFT_MAX_ROW_BYTES && likeness(row, old) <= to_neighbour - SHIFT_MARGIN
        })
    };
    let shift = |edge: Edge, neighbour: usize| Shift {
        op: OpRef::of(hunk),
        edge,
        neighbour,
        range,
    };
    if shifted_onto(first, range.start - 1) {
        return Some(shift(Edge::First, range.start - 1));
    }
    shifted_onto(last, range.end + 1).then(|| shift(Edge::Last, range.end + 1))
}

/// Whether two lines hold the same words, in any order (arguments
/// swapped, operands reordered).
fn same_words(a: &str, b: &str) -> bool {
    let x = sorted_words(a);
    !x.is_empty() && x == sorted_words(b)
}

/// The identifier-like words of a line (runs of letters, digits and `_`),
/// sorted.
fn sorted_words(line: &str) -> Vec<&str> {
    let mut words: Vec<&str> = line
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words.sort_unstable();
    words
}

/// The corrected op for a shift: the same rows aimed at the lines they
/// edit.
pub(crate) fn reading(shift: &Shift, body: &[String]) -> Reading {
    let LineRange { start, end } = shift.range;
    // More rows than lines: the range stops one line short of the line the
    // edge row edits; as many: it is aimed one line off.
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

/// A replacement whose range stops one line short: its first row repeats
/// the kept line just below the range, or its last row the line just above
/// (two lines swapped with a one-line range: `PUT 7:` `+B` `+A` where line
/// 8 is `B`). Written as sent, that line would be in the file twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortRange {
    /// The op.
    pub op: OpRef,
    /// Which row repeats: the first (the line below) or the last (above).
    pub edge: Edge,
    /// The kept line it repeats.
    pub neighbour: usize,
    /// The lines the op replaces.
    pub range: LineRange,
}

impl ShortRange {
    fn what(&self) -> String {
        let (which, side) = match self.edge {
            Edge::First => ("first", "below"),
            Edge::Last => ("last", "above"),
        };
        format!(
            "{}: the {which} body row repeats line {} just {side} the range, which stays",
            self.op, self.neighbour
        )
    }

    /// The warning, once the rows were written as sent.
    pub(crate) fn written(&self) -> String {
        format!(
            "{}, so the file now holds it twice (written as sent)",
            self.what()
        )
    }
}

impl fmt::Display for ShortRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: written as sent, the file would hold line {} twice",
            self.what(),
            self.neighbour
        )
    }
}

/// Finds replacements whose first row repeats the kept line below the
/// range or whose last row repeats the line above (see [`ShortRange`]).
/// Plain rows (blank, punctuation only, closers) never count.
pub(crate) fn short_ranges(hunks: &[Hunk], live: &Text) -> Vec<ShortRange> {
    let staying = Staying::new(hunks, live);
    let plain = super::echo::is_plain;
    let mut found = Vec::new();
    for hunk in hunks {
        let HunkKind::Replace { range, body } = &hunk.kind else {
            continue;
        };
        if body.len() < 2 {
            continue;
        }
        let (first, last) = (&body[0], &body[body.len() - 1]);
        let short = |edge: Edge, neighbour: usize| ShortRange {
            op: OpRef::of(hunk),
            edge,
            neighbour,
            range: *range,
        };
        let above = staying.line(range.start - 1);
        let below = staying.line(range.end + 1);
        // A row equal to the line on its own side too is an echo, named as
        // one (both neighbours can read the same); a row equal to the
        // replaced line in its own place is that line retyped.
        let (own_first, own_last) = (live.line(range.start), live.line(range.end));
        if !plain(first)
            && below == Some(first.as_str())
            && above != Some(first.as_str())
            && own_first != first.as_str()
        {
            found.push(short(Edge::First, range.end + 1));
        } else if !plain(last)
            && above == Some(last.as_str())
            && below != Some(last.as_str())
            && own_last != last.as_str()
        {
            found.push(short(Edge::Last, range.start - 1));
        }
    }
    found
}

/// The corrected op for a short range: widened over the line it repeats.
pub(crate) fn widened(short: &ShortRange, body: &[String]) -> Reading {
    let aimed = match short.edge {
        Edge::First => LineRange {
            start: short.range.start,
            end: short.neighbour,
        },
        Edge::Last => LineRange {
            start: short.neighbour,
            end: short.range.end,
        },
    };
    Reading {
        kind: ReadingKind::ExtendRange,
        lines: op_lines(&format!("PUT {}:", aimed.canonical()), body),
    }
}
