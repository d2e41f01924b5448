//! The projection of an edit document still streaming in, for the cards
//! a harness shows while a model writes its edit.
//!
//! [`project`] reads any prefix of a document (FORMAT.md §5): sections,
//! each op's canonical header and words, and the rows so far. It never
//! fails: a line that does not read as an op is kept as written
//! ([`OpState::Unrecognised`]), and a last line without its line break is
//! [`OpState::Partial`], never a shorter op. Lines are read by the parser's
//! lenient mode, so tolerated spellings project as they will apply.

use crate::document::OpKind;
use crate::parse::{read_header, read_op};
use crate::tag::SnapshotTag;

/// What a partial document projects to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Projection {
    /// Sections in document order.
    pub sections: Vec<ProjectedSection>,
    /// The document's last line has no line break yet: it was projected
    /// as far as it reads.
    pub cut: bool,
}

/// One `[path#TAG]` section so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectedSection {
    /// The path as the header names it (cleaned like the parser does, once
    /// the header line is whole).
    pub path: String,
    /// The tag, once the header shows four hex digits.
    pub tag: Option<SnapshotTag>,
    /// 1-based document line of the header.
    pub line: usize,
    /// Ops in document order.
    pub ops: Vec<ProjectedOp>,
}

/// One op so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectedOp {
    /// 1-based document line of the op header.
    pub line: usize,
    /// The canonical header (`PUT 4.=6:`) when the line reads, else the
    /// line as written (trimmed).
    pub header: String,
    /// What the op does, in words (`replace lines 4-6`); empty unless the
    /// line reads.
    pub summary: String,
    /// The body rows so far, each without its `+` (a `PUT` with a body).
    pub rows: Vec<String>,
    /// How far the header line was read.
    pub state: OpState,
}

/// How an op line was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpState {
    /// The whole line reads as an op.
    Complete,
    /// The line is the document's last and has no line break yet.
    Partial,
    /// The whole line does not read as an op (yet): the edit will refuse
    /// it unless the model goes on to fix it.
    Unrecognised,
}

/// Projects `partial`, any prefix of an edit document. Lines outside a
/// section, blank lines outside bodies, Markdown fences and `*** Begin
/// Patch` envelope lines are skipped; `+` rows with no open body are
/// dropped (the edit will refuse them, FORMAT.md §5.4).
pub fn project(partial: &str) -> Projection {
    let cut = !partial.is_empty() && !partial.ends_with('\n');
    let lines: Vec<&str> = partial.split('\n').collect();
    let last = if partial.ends_with('\n') {
        lines.len().saturating_sub(1)
    } else {
        lines.len()
    };
    let mut projection = Projection {
        sections: Vec::new(),
        cut,
    };
    let mut body_open = false;
    for (index, raw) in lines.iter().take(last).enumerate() {
        let text = raw.strip_suffix('\r').unwrap_or(raw);
        let whole = !(cut && index + 1 == last);
        let line = index + 1;
        if let Some(row) = text.strip_prefix('+') {
            if let (true, Some(op)) = (body_open, last_op(&mut projection)) {
                op.rows.push(row.to_string());
            }
            continue;
        }
        // A `SUB`'s old text: what it replaces, not rows it writes.
        if text.starts_with('-') && body_open {
            continue;
        }
        let trimmed = text.trim();
        if trimmed.is_empty() || skipped(trimmed) {
            continue;
        }
        if trimmed.starts_with('[') && !trimmed.starts_with("[*") {
            body_open = false;
            projection.sections.push(section(trimmed, line, whole));
            continue;
        }
        let Some(section) = projection.sections.last_mut() else {
            continue;
        };
        // A line that ends in `:` reads only as an op that takes rows, and
        // one that does not only as an op that takes none.
        let kind =
            read_op(trimmed).filter(|kind| whole && kind.takes_body() == trimmed.ends_with(':'));
        body_open = kind.as_ref().is_none_or(OpKind::takes_body);
        section.ops.push(op(trimmed, line, whole, kind));
    }
    projection
}

fn last_op(projection: &mut Projection) -> Option<&mut ProjectedOp> {
    projection.sections.last_mut()?.ops.last_mut()
}

/// Fence and envelope lines, which carry no ops.
fn skipped(trimmed: &str) -> bool {
    trimmed.starts_with("```") || trimmed.starts_with("*** ")
}

/// A section header: read by the parser when whole, else split by hand.
fn section(trimmed: &str, line: usize, whole: bool) -> ProjectedSection {
    if let Some((path, tag)) = read_header(trimmed).filter(|_| whole) {
        return ProjectedSection {
            path,
            tag: Some(tag),
            line,
            ops: Vec::new(),
        };
    }
    let inner = trimmed.trim_start_matches('[');
    let inner = inner.strip_suffix(']').unwrap_or(inner);
    let (path, tag) = match inner.rfind('#') {
        Some(at) => (&inner[..at], SnapshotTag::parse(&inner[at + 1..])),
        None => (inner, None),
    };
    ProjectedSection {
        path: path.trim().to_string(),
        tag,
        line,
        ops: Vec::new(),
    }
}

/// An op line as `kind` reads it (`None`: not whole, or no op).
fn op(trimmed: &str, line: usize, whole: bool, kind: Option<OpKind>) -> ProjectedOp {
    let (header, summary, state) = match (kind, whole) {
        (Some(kind), _) => (kind.canonical_header(), kind.words(), OpState::Complete),
        (None, true) => (trimmed.to_string(), String::new(), OpState::Unrecognised),
        (None, false) => (trimmed.to_string(), String::new(), OpState::Partial),
    };
    ProjectedOp {
        line,
        header,
        summary,
        rows: Vec::new(),
        state,
    }
}

#[cfg(test)]
mod tests;
