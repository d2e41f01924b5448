//! Primitive hunks, what the planner applies: replace lines with rows,
//! insert rows at a gap, or delete lines, in the original numbering, each
//! remembering the op it came from so errors name it as written.

use crate::document::LineRange;

/// One primitive change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// 1-based document line of the op this hunk came from.
    pub line: usize,
    /// That op's canonical header, for messages (e.g. `PUT 12*:`).
    pub header: String,
    /// What the hunk does.
    pub kind: HunkKind,
    /// How its op found its lines.
    pub aim: Aim,
}

/// How an op found the lines of its hunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Aim {
    /// By line numbers alone (`PUT`, `CUT`): the guards ask whether the
    /// range was aimed right (FORMAT.md §7.2, §7.3).
    Lines,
    /// By the old text found there (`SUB`, FORMAT.md §5.9): the text
    /// proved the aim, so those guards do not ask.
    Text,
}

/// The primitive changes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HunkKind {
    /// Replace original lines with rows (at least one).
    Replace {
        /// Lines replaced.
        range: LineRange,
        /// New rows.
        body: Vec<String>,
    },
    /// Insert rows (at least one) at a gap.
    Insert {
        /// Where.
        at: InsertAt,
        /// New rows.
        body: Vec<String>,
    },
    /// Delete original lines.
    Delete {
        /// Lines deleted.
        range: LineRange,
    },
}

/// A gap in original numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InsertAt {
    /// Before original line N.
    Before(usize),
    /// After original line N.
    After(usize),
    /// After the last line.
    End,
}

impl InsertAt {
    /// The canonical locator: `<N`, `>N` or `>$`.
    pub fn canonical(self) -> String {
        match self {
            InsertAt::Before(n) => format!("<{n}"),
            InsertAt::After(n) => format!(">{n}"),
            InsertAt::End => ">$".to_string(),
        }
    }
}

impl HunkKind {
    /// The original lines this hunk removes, if any.
    pub fn span(&self) -> Option<LineRange> {
        match self {
            HunkKind::Replace { range, .. } | HunkKind::Delete { range } => Some(*range),
            HunkKind::Insert { .. } => None,
        }
    }

    /// Original line numbers a live snapshot should show for this hunk: a
    /// span's first and last line, an insert's anchor (none for `>$`)
    /// (FORMAT.md §4.4).
    pub fn anchor_lines(&self) -> Vec<usize> {
        match self {
            HunkKind::Replace { range, .. } | HunkKind::Delete { range } => {
                vec![range.start, range.end]
            }
            HunkKind::Insert {
                at: InsertAt::Before(n) | InsertAt::After(n),
                ..
            } => vec![*n],
            HunkKind::Insert {
                at: InsertAt::End, ..
            } => Vec::new(),
        }
    }

    /// The hunk's own canonical header, e.g. `PUT 3.=5:` or `CUT 4`.
    pub fn canonical_header(&self) -> String {
        match self {
            HunkKind::Replace { range, .. } => format!("PUT {}:", range.canonical()),
            HunkKind::Insert { at, .. } => format!("PUT {}:", at.canonical()),
            HunkKind::Delete { range } => format!("CUT {}", range.canonical()),
        }
    }
}
