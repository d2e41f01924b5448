//! What an applied section reports beside its result, as data
//! (FORMAT.md §7.7): notes about how it was applied and warnings about ops
//! that applied as written but may not be what the author meant.
//!
//! The checks here only look: the rows are written as sent. Each finding is
//! an [`Advice`] value; its `Display` is the model-facing sentence, which
//! the tools layer prefixes with `warning: PATH:` or `note: PATH:`.

use std::fmt;

use crate::document::LineRange;
use crate::hunk::{Hunk, HunkKind};
use crate::lower::LowerNote;
use crate::plan::OpRef;
use crate::tag::SnapshotTag;
use crate::text::Text;

use super::neighbours::{Staying, surroundings};

/// One finding about an applied section.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Advice {
    /// The tag was stale, and the ops were carried onto the live file
    /// because they touch only unchanged lines (a note, not a warning).
    Rebased {
        /// The tag the section was written against.
        from: SnapshotTag,
        /// The live file's tag the ops were applied to.
        to: SnapshotTag,
        /// Lines every op moved by (live − served).
        shift: isize,
    },
    /// Something block resolution noticed (module `lower`).
    Lowering(LowerNote),
    /// A body's first or last rows equal the unchanged lines beside it, so
    /// those lines are now in the file twice.
    Echo(Echo),
    /// A replacement row reads as an edited copy of the unchanged line
    /// beside the range rather than of any line it replaces.
    Shift(Shift),
    /// A range one line longer than its rows, whose rows edit the other
    /// lines in order: the extra line is deleted.
    DroppedEdge(DroppedEdge),
    /// The file parsed before the edit and has a syntax error after it.
    BrokenSyntax {
        /// 1-based line of the first syntax error in the new file.
        line: usize,
    },
    /// Every body equals the lines it replaces: nothing changes.
    Unchanged,
}

impl Advice {
    /// `note` for how the edit was applied, `warning` for what may be a
    /// mistake.
    pub fn label(&self) -> &'static str {
        match self {
            Advice::Rebased { .. } => "note",
            _ => "warning",
        }
    }
}

/// Which end of a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// The first rows, next to the line above.
    First,
    /// The last rows, next to the line below.
    Last,
}

/// See [`Advice::Echo`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Echo {
    /// The op.
    pub op: OpRef,
    /// Which end of its body repeats.
    pub edge: Edge,
    /// The first original line repeated.
    pub first: usize,
    /// How many rows (and lines) repeat.
    pub rows: usize,
}

/// See [`Advice::Shift`].
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

/// See [`Advice::DroppedEdge`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedEdge {
    /// The op.
    pub op: OpRef,
    /// The line nothing replaces, which is deleted.
    pub dropped: usize,
    /// The lines the rows are edits of.
    pub edited: LineRange,
}

impl fmt::Display for Advice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Advice::Rebased { from, to, shift } => write!(
                f,
                "the file changed since snapshot {from} was served (it is now {to}); the ops touch only \
                 unchanged lines, so they were moved by {shift:+} lines and applied to the live file"
            ),
            Advice::Lowering(note) => write!(f, "{note}"),
            Advice::Echo(echo) => write!(f, "{echo}"),
            Advice::Shift(shift) => write!(f, "{shift}"),
            Advice::DroppedEdge(dropped) => write!(f, "{dropped}"),
            Advice::BrokenSyntax { line } => write!(
                f,
                "the file parsed before this edit and now has a syntax error near line {line}; it was \
                 written as sent, so check the line numbers and ranges of the ops near there"
            ),
            Advice::Unchanged => f.write_str(
                "the edit leaves the file exactly as it was (each body equals the lines it replaces); \
                 nothing was written to it",
            ),
        }
    }
}

impl fmt::Display for Echo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let which = match self.edge {
            Edge::First => "first",
            Edge::Last => "last",
        };
        let repeated = if self.rows == 1 {
            format!("body row repeats line {}, which stays", self.first)
        } else {
            format!(
                "{} body rows repeat lines {}-{}, which stay",
                self.rows,
                self.first,
                self.first + self.rows - 1
            )
        };
        write!(
            f,
            "{}: the {which} {repeated} in the file; they are written twice as sent. If that was not \
             meant, CUT the extra rows",
            self.op
        )
    }
}

impl fmt::Display for Shift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (which, side) = match self.edge {
            Edge::First => ("first", "above"),
            Edge::Last => ("last", "below"),
        };
        write!(
            f,
            "{}: the {which} body row reads as an edited copy of line {} just {side} the range, which \
             stays, more than any line it replaces ({}); it was written as sent. If the range is off by \
             one, fix it from the preview",
            self.op,
            self.neighbour,
            lines_phrase(self.range)
        )
    }
}

impl fmt::Display for DroppedEdge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: the body rows are edits of {}, in order, and nothing replaces line {}, so it is \
             deleted; it was written as sent. If the range is one line too long, fix it from the \
             preview",
            self.op,
            lines_phrase(self.edited),
            self.dropped
        )
    }
}

/// `line N` or `lines N-M`, for messages.
fn lines_phrase(range: LineRange) -> String {
    if range.start == range.end {
        format!("line {}", range.start)
    } else {
        format!("lines {}-{}", range.start, range.end)
    }
}

/// Most leading or trailing rows compared with a body's neighbours (keeps
/// the check linear for bodies of any size).
const MAX_ECHO_ROWS: usize = 16;

/// Finds bodies whose first rows repeat the unchanged lines just above
/// their place, or whose last rows repeat the lines just below (handed
/// cases B01 and B02). Lines that another op of the section replaces or
/// deletes are not neighbours that stay, so they never count; blank rows
/// are never echoes.
pub(crate) fn echoes(hunks: &[Hunk], live: &Text) -> Vec<Echo> {
    let total = live.line_count();
    let staying = Staying::new(hunks, live);
    let kept = |n: usize| staying.line(n);
    let blank = |rows: &[String]| rows.iter().all(|r| r.trim().is_empty());
    let mut found = Vec::new();
    for hunk in hunks {
        let Some(around) = surroundings(&hunk.kind, total) else {
            continue;
        };
        let (body, above, below) = (around.body, around.above, around.below);
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
        if leading > 0 && !blank(&body[..leading]) {
            found.push(Echo {
                op: OpRef::of(hunk),
                edge: Edge::First,
                first: above + 1 - leading,
                rows: leading,
            });
        }
        if trailing > 0 && !blank(&body[body.len() - trailing..]) {
            found.push(Echo {
                op: OpRef::of(hunk),
                edge: Edge::Last,
                first: below,
                rows: trailing,
            });
        }
    }
    found
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

/// A slip in a replacement's range: the finding for one hunk.
pub(crate) enum Slip {
    /// See [`Advice::Shift`].
    Shift(Shift),
    /// See [`Advice::DroppedEdge`].
    DroppedEdge(DroppedEdge),
}

/// Finds replacements that look aimed one line off: the first body row is
/// an edited copy of the unchanged line just above the range (or the last
/// row of the line just below) and clearly less like any line it replaces,
/// or the range is one line too long for rows that edit the other lines.
/// That is what an off-by-one range usually leaves: the intended line
/// stays and an unrelated neighbour is overwritten or deleted.
///
/// Bounded work: the first [`SHIFT_MAX_HUNKS`] hunks, and ranges of at most
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
/// author meant to keep. `None` when the rows do not line up that way, or
/// line up with both readings.
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
    match (lines_up(start), lines_up(start + 1)) {
        (true, false) if unlike(end, &body[body.len() - 1]) => Some(end),
        (false, true) if unlike(start, &body[0]) => Some(start),
        _ => None,
    }
}
