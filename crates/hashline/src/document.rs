//! The edit document: sections of ops against original line numbers.
//!
//! ```text
//! [src/app.py#A1B2]      section header: display path and snapshot tag
//! PUT 2:                 replace line 2 …
//! +print("hi")           … with these body rows
//! PUT 4.=6:              replace lines 4 to 6 (also 4-6, 4..6)
//! +x = 1
//! PUT <1:                insert before line 1
//! +# header
//! PUT >7:                insert after line 7
//! +pass
//! PUT >$:                append at the end of the file
//! +# end
//! CUT 9.=10              delete lines 9 to 10 (no colon, no body)
//! ```
//!
//! Line numbers always name the snapshot the tag identifies; they never
//! shift within a document (reference-rho.md §7–§8). The parser lives in
//! [`crate::parse`].

use crate::tag::SnapshotTag;

/// A parsed edit document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Sections in document order.
    pub sections: Vec<Section>,
    /// Tolerated spellings, one per occurrence, in document order.
    pub warnings: Vec<Warning>,
}

/// One `[path#TAG]` section and its ops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The path exactly as written in the header (trimmed).
    pub path: String,
    /// The snapshot tag the ops were written against.
    pub tag: SnapshotTag,
    /// 1-based line of the header in the document.
    pub line: usize,
    /// Ops in document order.
    pub ops: Vec<Op>,
}

/// One op with the document line of its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    /// 1-based line of the op header in the document.
    pub line: usize,
    /// What the op does.
    pub kind: OpKind,
}

/// The ops of the grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpKind {
    /// `PUT N:` / `PUT N.=M:`: replace lines N..=M with the body rows.
    Replace {
        /// Original lines replaced.
        range: LineRange,
        /// Replacement rows (at least one).
        body: Vec<String>,
    },
    /// `PUT <N:`, `PUT >N:`, `PUT >$:`: insert body rows at a gap.
    Insert {
        /// Where the rows go.
        at: InsertAt,
        /// Inserted rows (at least one).
        body: Vec<String>,
    },
    /// `CUT N` / `CUT N.=M`: delete lines N..=M.
    Delete {
        /// Original lines deleted.
        range: LineRange,
    },
}

/// An inclusive range of original lines, `start <= end`, both ≥ 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineRange {
    /// First line (1-based).
    pub start: usize,
    /// Last line (inclusive).
    pub end: usize,
}

impl LineRange {
    /// Number of lines in the range.
    pub fn len(self) -> usize {
        self.end - self.start + 1
    }

    /// Always false: a range holds at least one line.
    pub fn is_empty(self) -> bool {
        false
    }

    /// `N` for one line, `N.=M` otherwise: the canonical spelling.
    pub fn canonical(self) -> String {
        if self.start == self.end {
            self.start.to_string()
        } else {
            format!("{}.={}", self.start, self.end)
        }
    }
}

/// The gap an insert targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InsertAt {
    /// `<N`: before original line N.
    Before(usize),
    /// `>N`: after original line N.
    After(usize),
    /// `>$`: after the last line.
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

impl OpKind {
    /// The op's canonical header, e.g. `PUT 2.=5:` or `CUT 4`.
    pub fn canonical_header(&self) -> String {
        match self {
            OpKind::Replace { range, .. } => format!("PUT {}:", range.canonical()),
            OpKind::Insert { at, .. } => format!("PUT {}:", at.canonical()),
            OpKind::Delete { range } => format!("CUT {}", range.canonical()),
        }
    }

    /// The original lines this op removes, if any.
    pub fn span(&self) -> Option<LineRange> {
        match self {
            OpKind::Replace { range, .. } | OpKind::Delete { range } => Some(*range),
            OpKind::Insert { .. } => None,
        }
    }

    /// Original line numbers a live snapshot should show for this op: a
    /// span's first and last line, an insert's anchor (none for `>$`)
    /// (reference-rho.md §8.4).
    pub fn anchor_lines(&self) -> Vec<usize> {
        match self {
            OpKind::Replace { range, .. } | OpKind::Delete { range } => {
                vec![range.start, range.end]
            }
            OpKind::Insert {
                at: InsertAt::Before(n) | InsertAt::After(n),
                ..
            } => vec![*n],
            OpKind::Insert {
                at: InsertAt::End, ..
            } => Vec::new(),
        }
    }
}

/// A spelling the parser accepted although it is not canonical, reported to
/// the model so it can learn the canonical form (product.md §4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// 1-based document line.
    pub line: usize,
    /// What was accepted and how to write it canonically.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "warning: document line {}: {}", self.line, self.message)
    }
}
