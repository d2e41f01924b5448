//! The echo guard (FORMAT.md §7.2): a body whose first rows equal the
//! unchanged lines just above its place, or whose last rows the lines just
//! below, would hold those lines twice. Models restate neighbours as
//! context; the rows are never trimmed silently: the edit is refused with
//! both readings to copy.

use std::fmt;

use crate::hunk::{Hunk, HunkKind, InsertAt};
use crate::plan::OpRef;
use crate::text::Text;

use super::neighbours::{Staying, surroundings};
use super::reading::{Reading, ReadingKind, op_lines};

/// Which end of a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// The first rows, next to the line above.
    First,
    /// The last rows, next to the line below.
    Last,
}

/// Rows at one end of a body that equal the unchanged lines beside it.
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
    /// Whether the repeated lines touch the op's place; when lines another
    /// op removes lie between, they do not, and only the drop reading is
    /// offered (a widened range would overlap that op).
    pub adjacent: bool,
}

impl Echo {
    /// `body row 2 repeats line 1` / `the first 2 rows repeat lines 1-2`.
    fn what(&self) -> String {
        let which = match self.edge {
            Edge::First => "first",
            Edge::Last => "last",
        };
        if self.rows == 1 {
            format!("the {which} body row repeats line {}", self.first)
        } else {
            format!(
                "the {which} {} body rows repeat lines {}-{}",
                self.rows,
                self.first,
                self.first + self.rows - 1
            )
        }
    }

    /// The warning, once the rows were written as sent.
    pub(crate) fn written(&self) -> String {
        format!(
            "{}: {}, which stays in the file, so the file now holds it twice (written as sent)",
            self.op,
            self.what()
        )
    }
}

impl fmt::Display for Echo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}, which stays in the file: written as sent, the file would hold it twice",
            self.op,
            self.what()
        )
    }
}

/// Most leading or trailing rows compared with a body's neighbours (keeps
/// the check linear for bodies of any size).
const MAX_ECHO_ROWS: usize = 16;

/// A row that says nothing of its own: blank, only punctuation (a
/// closer `}` or `});`, a comment's ` *`, a `---` rule), a keyword that
/// only closes a construct (`end`, `fi`), or a markup end tag
/// (`</section>`). Such rows repeat their neighbours by nature; a
/// duplicated closer breaks the syntax, which the syntax guard sees.
pub(crate) fn is_plain(row: &str) -> bool {
    let t = row.trim();
    let t = t.strip_suffix([';', ',']).unwrap_or(t).trim_end();
    matches!(t, "end" | "fi" | "done" | "esac")
        || !t.chars().any(char::is_alphanumeric)
        || is_end_tag(t)
}

/// `</name>`, the name letters, digits, `-`, `_`, `.` or `:`.
fn is_end_tag(t: &str) -> bool {
    t.strip_prefix("</")
        .and_then(|rest| rest.strip_suffix('>'))
        .is_some_and(|name| {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
        })
}

/// Finds bodies whose first rows repeat the unchanged lines just above
/// their place, or whose last rows the lines just below; lines another op
/// replaces or deletes do not stay, so the neighbour is the nearest line
/// that does. Plain rows ([`is_plain`]) are never echoes.
pub(crate) fn echoes(hunks: &[Hunk], live: &Text) -> Vec<Echo> {
    let total = live.line_count();
    let staying = Staying::new(hunks, live);
    let kept = |n: usize| staying.line(n);
    let plain = |rows: &[String]| rows.iter().all(|r| is_plain(r));
    let mut found = Vec::new();
    for hunk in hunks {
        let Some(around) = surroundings(&hunk.kind, total) else {
            continue;
        };
        let body = around.body;
        // The nearest staying lines, past lines other ops remove.
        let mut above = around.above;
        while above >= 1 && kept(above).is_none() {
            above -= 1;
        }
        let mut below = around.below;
        while below <= total && kept(below).is_none() {
            below += 1;
        }
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
        if leading > 0 && !plain(&body[..leading]) {
            found.push(Echo {
                op: OpRef::of(hunk),
                edge: Edge::First,
                first: above + 1 - leading,
                rows: leading,
                adjacent: above == around.above,
            });
        }
        if trailing > 0 && !plain(&body[body.len() - trailing..]) {
            found.push(Echo {
                op: OpRef::of(hunk),
                edge: Edge::Last,
                first: below,
                rows: trailing,
                adjacent: below == around.below,
            });
        }
    }
    found
}

/// The two readings of the echoes of one hunk: without the repeated rows
/// (they were context), or with them restated inside a range widened over
/// the lines they repeat (the duplicates are meant).
pub(crate) fn readings(hunk: &Hunk, echoes: &[&Echo], live: &Text) -> Vec<Reading> {
    let (body, kept_range) = match &hunk.kind {
        HunkKind::Replace { range, body } => (body, Some(*range)),
        HunkKind::Insert { body, .. } => (body, None),
        HunkKind::Delete { .. } => return Vec::new(),
    };
    let leading = rows_at(echoes, Edge::First);
    let trailing = rows_at(echoes, Edge::Last);
    let mut out = Vec::new();
    // Reading 1: the repeated rows were context.
    let trimmed = &body[leading..body.len() - trailing.min(body.len() - leading)];
    out.push(Reading {
        kind: ReadingKind::DropRepeatedRows,
        lines: match (trimmed.is_empty(), kept_range) {
            (false, _) => op_lines(&header_of(hunk), trimmed),
            (true, Some(range)) => vec![format!("CUT {}", range.canonical())],
            // An insert that only repeats its neighbours inserts nothing.
            (true, None) => Vec::new(),
        },
    });
    // Reading 2: the duplicates are meant; restate the lines they repeat
    // inside a wider range, so no row sits next to its own copy. Not when
    // lines another op removes lie between: the range would overlap it.
    if echoes.iter().any(|e| !e.adjacent) {
        return out;
    }
    let (start, end) = match (&hunk.kind, kept_range) {
        (_, Some(range)) => (range.start, range.end),
        (HunkKind::Insert { at, .. }, None) => {
            let total = live.line_count();
            let above = match at {
                InsertAt::After(n) => *n,
                InsertAt::Before(n) => n - 1,
                InsertAt::End => total,
            };
            // The widened op replaces the neighbours it restates.
            (above + 1, above)
        }
        _ => return out,
    };
    let first = start - leading;
    let last = end + trailing;
    if first > last || first == 0 {
        return out;
    }
    let mut rows: Vec<String> = (first..start).map(|n| live.line(n).to_string()).collect();
    rows.extend(body.iter().cloned());
    rows.extend((end + 1..=last).map(|n| live.line(n).to_string()));
    let range = if first == last {
        first.to_string()
    } else {
        format!("{first}.={last}")
    };
    out.push(Reading {
        kind: ReadingKind::WidenOverRepeatedLines,
        lines: op_lines(&format!("PUT {range}:"), &rows),
    });
    out
}

/// How many rows the echoes at `edge` repeat.
fn rows_at(echoes: &[&Echo], edge: Edge) -> usize {
    echoes
        .iter()
        .filter(|e| e.edge == edge)
        .map(|e| e.rows)
        .max()
        .unwrap_or(0)
}

/// The hunk's op header with a colon, as a corrected op starts.
fn header_of(hunk: &Hunk) -> String {
    match &hunk.kind {
        HunkKind::Replace { range, .. } => format!("PUT {}:", range.canonical()),
        HunkKind::Insert { at, .. } => format!("PUT {}:", at.canonical()),
        HunkKind::Delete { range } => format!("CUT {}", range.canonical()),
    }
}
