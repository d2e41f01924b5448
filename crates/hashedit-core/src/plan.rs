//! Planning and applying one section's ops (FORMAT.md §6.2, §6.3): [`plan`]
//! validates the hunks against the original numbering and sorts them into
//! spans and gap inserts; [`Plan::apply`] walks the original lines once,
//! O(lines + ops · log ops). Untouched lines keep their endings byte for
//! byte; a new row takes the ending of the line it replaces, else of its
//! neighbour, else the file's dominant one; a BOM stays at byte 0; the
//! final-newline state is kept.

use std::fmt;

use crate::class::FailureClass;

use crate::document::LineRange;
use crate::hunk::{Hunk, HunkKind, InsertAt};
use crate::text::{Ending, Text, UTF8_BOM};
use crate::view::{STRUCTURAL_SPAN_LINES, plural};

/// Why a section's ops cannot apply to the file; nothing is written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlanError {
    /// A line outside the file (FORMAT.md §6.2).
    OutOfRange {
        /// The op at fault.
        op: OpRef,
        /// The line it names.
        line: usize,
        /// Lines in the file.
        total: usize,
    },
    /// A span on an empty file.
    EmptyFile {
        /// The op at fault.
        op: OpRef,
    },
    /// `>N` or `<N` (N > 1) on an empty file.
    InsertIntoEmpty {
        /// The op at fault.
        op: OpRef,
    },
    /// Two spans share lines.
    Overlap {
        /// The earlier span (by start line).
        first: OpRef,
        /// The span that overlaps it.
        second: OpRef,
    },
    /// A body row holding a line break (only possible through the library
    /// API; the parser splits rows at line breaks).
    RowWithLineBreak {
        /// The op at fault.
        op: OpRef,
    },
    /// A body row holding a NUL byte: the result would no longer be text
    /// (a file with a NUL is binary, and read and edit refuse it).
    RowWithNul {
        /// The op at fault.
        op: OpRef,
    },
    /// A body row starting with U+FEFF: written as the file's first line it
    /// would give a file a byte order mark it did not have (or a second
    /// one), which the snapshot would not show.
    RowWithBom {
        /// The op at fault.
        op: OpRef,
    },
    /// Deletions that leave first in a file without a BOM a line starting
    /// with U+FEFF: at byte 0 that character would read as a byte order
    /// mark, so the line would lose it and the file gain a BOM (FORMAT.md
    /// §2, "U+FEFF in content").
    LineWouldBecomeBom {
        /// The deletion that removes the last line before it.
        op: OpRef,
        /// The original line that would come first.
        line: usize,
    },
    /// An insert whose gap lies inside a replaced or deleted span.
    InsertInsideSpan {
        /// The insert.
        insert: OpRef,
        /// The span around its gap.
        span: OpRef,
        /// The span's lines.
        range: LineRange,
    },
}

/// An op as errors name it: its document line and canonical header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpRef {
    /// 1-based document line of the op header.
    pub line: usize,
    /// The op's canonical header, e.g. `PUT 2.=4:`.
    pub header: String,
}

impl OpRef {
    pub(crate) fn of(hunk: &Hunk) -> OpRef {
        OpRef {
            line: hunk.line,
            header: hunk.header.clone(),
        }
    }
}

impl fmt::Display for OpRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (document line {})", self.header, self.line)
    }
}

impl PlanError {
    /// The failure's class.
    pub fn class(&self) -> FailureClass {
        match self {
            PlanError::OutOfRange { .. }
            | PlanError::EmptyFile { .. }
            | PlanError::InsertIntoEmpty { .. } => FailureClass::LineOutOfRange,
            PlanError::Overlap { .. } | PlanError::InsertInsideSpan { .. } => {
                FailureClass::OverlappingOps
            }
            PlanError::RowWithLineBreak { .. }
            | PlanError::RowWithNul { .. }
            | PlanError::RowWithBom { .. }
            | PlanError::LineWouldBecomeBom { .. } => FailureClass::ParseError,
        }
    }
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::OutOfRange { op, line, total } => write!(
                f,
                "{op} names line {line}, but the file has {total} {}; copy line numbers from the snapshot below",
                plural(*total, "line", "lines")
            ),
            PlanError::EmptyFile { op } => write!(
                f,
                "{op} replaces or deletes lines, but the file is empty; add rows with PUT <1: or PUT >$:"
            ),
            PlanError::InsertIntoEmpty { op } => write!(
                f,
                "{op} anchors on a line, but the file is empty; add rows with PUT <1: or PUT >$:"
            ),
            PlanError::RowWithLineBreak { op } => write!(
                f,
                "{op} has a body row containing a line break; give each line its own + row"
            ),
            PlanError::RowWithNul { op } => write!(
                f,
                "{op} has a body row containing a NUL byte, which would make this text file binary; remove it (write replaces a file with any bytes)"
            ),
            PlanError::RowWithBom { op } => write!(
                f,
                "{op} has a body row starting with U+FEFF (a byte order mark); hashedit keeps a file's own BOM and never adds one, so remove it from the row"
            ),
            PlanError::LineWouldBecomeBom { op, line } => write!(
                f,
                "{op} would make line {line} the file's first line, but line {line} starts with U+FEFF (zero width no-break space); at byte 0 that character reads as a byte order mark, which this file does not have, so line {line} would lose it; keep a line above it, or replace line {line} with its text after the U+FEFF"
            ),
            PlanError::Overlap { first, second } => write!(
                f,
                "{second} overlaps {first}; each line may be replaced or deleted by one op only, so merge them into one op"
            ),
            PlanError::InsertInsideSpan {
                insert,
                span,
                range,
            } => write!(
                f,
                "{insert} inserts inside {span}, which removes lines {}-{}; anchor the insert at <{} or >{}, or put its rows in that body",
                range.start, range.end, range.start, range.end
            ),
        }
    }
}

impl std::error::Error for PlanError {}

/// A validated section, ready to apply to the text it was planned on.
#[derive(Debug)]
pub struct Plan<'d> {
    /// Spans sorted by start line.
    spans: Vec<(LineRange, &'d Hunk)>,
    /// Inserts sorted by (gap, order class, document order).
    inserts: Vec<(GapKey, &'d Hunk)>,
    structural: bool,
}

/// Sort key of an insert: the gap (rows go after original line `gap`),
/// then `After(gap)` before `Before(gap + 1)` before `>$`, then document
/// order (the sort is stable).
type GapKey = (usize, u8);

/// The result of applying a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The new file bytes.
    pub bytes: Vec<u8>,
    /// Post-edit line numbers to focus a preview on: every inserted or
    /// replacement row, and the neighbours of each pure deletion.
    pub focus: Vec<usize>,
    /// True when one span covers ≥ [`STRUCTURAL_SPAN_LINES`] original lines.
    pub structural: bool,
    /// Where each hunk's rows landed in the new file, in the order they
    /// were written.
    pub placed: Vec<Placed>,
}

/// Where one hunk's rows landed in the new file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// 1-based document line of the op the hunk came from.
    pub line: usize,
    /// First post-edit line of its rows; for a deletion, the line that now
    /// follows the deleted lines.
    pub first: usize,
    /// Number of rows written (0 for a deletion).
    pub rows: usize,
}

/// Refuses a body row that would not stay one line of text with the
/// file's own BOM state: a line break, a NUL, a leading U+FEFF.
fn check_rows(op: &Hunk) -> Result<(), PlanError> {
    let (HunkKind::Replace { body, .. } | HunkKind::Insert { body, .. }) = &op.kind else {
        return Ok(());
    };
    let broken =
        |row: &String| memchr::memchr(b'\n', row.as_bytes()).is_some() || row.ends_with('\r');
    if body.iter().any(broken) {
        return Err(PlanError::RowWithLineBreak { op: OpRef::of(op) });
    }
    if body
        .iter()
        .any(|row| memchr::memchr(0, row.as_bytes()).is_some())
    {
        return Err(PlanError::RowWithNul { op: OpRef::of(op) });
    }
    if body.iter().any(|row| row.starts_with('\u{FEFF}')) {
        return Err(PlanError::RowWithBom { op: OpRef::of(op) });
    }
    Ok(())
}

/// The gap an insert at `at` lands in (after original line `.0`), ordered
/// within the gap: `>N` rows, then `<N+1` rows, then `>$` rows.
fn gap_key(at: InsertAt, total: usize, op: &Hunk) -> Result<GapKey, PlanError> {
    Ok(match at {
        InsertAt::End => (total, 2),
        InsertAt::Before(1) if total == 0 => (0, 2),
        InsertAt::Before(_) | InsertAt::After(_) if total == 0 => {
            return Err(PlanError::InsertIntoEmpty { op: OpRef::of(op) });
        }
        InsertAt::Before(n) | InsertAt::After(n) if n > total => {
            return Err(PlanError::OutOfRange {
                op: OpRef::of(op),
                line: n,
                total,
            });
        }
        InsertAt::Before(n) => (n - 1, 1),
        InsertAt::After(n) => (n, 0),
    })
}

/// Validates the hunks `ops` against `text` (original numbering). Errors:
/// the first [`PlanError`]: range problems in document order, then
/// overlaps of spans by start line, then inserts.
pub fn plan<'d>(ops: &'d [Hunk], text: &Text) -> Result<Plan<'d>, PlanError> {
    let total = text.line_count();
    let mut spans = Vec::new();
    let mut inserts = Vec::new();
    for op in ops {
        check_rows(op)?;
        match &op.kind {
            HunkKind::Replace { range, .. } | HunkKind::Delete { range } => {
                if total == 0 {
                    return Err(PlanError::EmptyFile { op: OpRef::of(op) });
                }
                if range.end > total {
                    return Err(PlanError::OutOfRange {
                        op: OpRef::of(op),
                        line: range.end,
                        total,
                    });
                }
                spans.push((*range, op));
            }
            HunkKind::Insert { at, .. } => inserts.push((gap_key(*at, total, op)?, op)),
        }
    }
    spans.sort_by_key(|(range, _)| range.start);
    for pair in spans.windows(2) {
        let (earlier, first) = pair[0];
        let (later, second) = pair[1];
        if later.start <= earlier.end {
            return Err(PlanError::Overlap {
                first: OpRef::of(first),
                second: OpRef::of(second),
            });
        }
    }
    inserts.sort_by_key(|(key, _)| *key);
    for &(key, insert) in &inserts {
        // Gap g lies between lines g and g + 1; a span s..=e removes the
        // gaps s..e (exclusive of the edges s - 1 and e).
        let gap = key.0;
        let index = spans.partition_point(|(range, _)| range.start <= gap);
        if index > 0 {
            let (range, span) = spans[index - 1];
            if gap >= range.start && gap < range.end {
                return Err(PlanError::InsertInsideSpan {
                    insert: OpRef::of(insert),
                    span: OpRef::of(span),
                    range,
                });
            }
        }
    }
    if !text.has_bom() {
        first_line_stays_content(&spans, &inserts, text)?;
    }
    let structural = spans
        .iter()
        .any(|(range, _)| range.len() >= STRUCTURAL_SPAN_LINES);
    Ok(Plan {
        spans,
        inserts,
        structural,
    })
}

/// Checks that the result's first line does not start with U+FEFF (which
/// would turn into a BOM). Body rows never do (checked above), so only an
/// original line left first by deletions can: walk the deleted spans from
/// line 1, stopping at any row written before the next line.
fn first_line_stays_content(
    spans: &[(LineRange, &Hunk)],
    inserts: &[(GapKey, &Hunk)],
    text: &Text,
) -> Result<(), PlanError> {
    let rows_at = |gap: usize| inserts.iter().any(|((g, _), _)| *g == gap);
    let mut next = 1;
    let mut deleted_by = None;
    for (range, op) in spans {
        if rows_at(next - 1) || range.start != next {
            break;
        }
        match op.kind {
            HunkKind::Delete { .. } => {
                deleted_by = Some(*op);
                next = range.end + 1;
            }
            HunkKind::Replace { .. } | HunkKind::Insert { .. } => return Ok(()),
        }
    }
    match deleted_by {
        Some(op)
            if !rows_at(next - 1)
                && next <= text.line_count()
                && text.line(next).starts_with('\u{FEFF}') =>
        {
            Err(PlanError::LineWouldBecomeBom {
                op: OpRef::of(op),
                line: next,
            })
        }
        _ => Ok(()),
    }
}

/// Writes rows and resolves their endings as they go.
struct Emitter<'t> {
    out: Vec<u8>,
    /// Ending of the last written row, held back until we know whether that
    /// row is the last one.
    pending: Option<Option<Ending>>,
    /// Whether the last written row is empty.
    last_empty: bool,
    /// Most recent line-separating ending written.
    last_separator: Option<Ending>,
    fallback: Ending,
    rows: usize,
    text: &'t Text<'t>,
    /// Post-edit lines to focus a preview on.
    focus: Vec<usize>,
    /// Where each hunk's rows landed.
    placed: Vec<Placed>,
}

impl Emitter<'_> {
    /// Emits the rows inserted at gap `gap` (after original line `gap`),
    /// each taking the separating ending of its anchor line.
    fn inserts_at<'p, 'd: 'p>(
        &mut self,
        inserts: &mut std::iter::Peekable<std::slice::Iter<'p, (GapKey, &'d Hunk)>>,
        gap: usize,
    ) {
        let total = self.text.line_count();
        while let Some(((_, _), op)) = inserts.next_if(|((g, _), _)| *g == gap) {
            let HunkKind::Insert { at, body } = &op.kind else {
                continue;
            };
            let anchor = match *at {
                InsertAt::Before(n) | InsertAt::After(n) => n,
                InsertAt::End => total,
            };
            let ending = (1..=total)
                .contains(&anchor)
                .then(|| self.text.ending(anchor))
                .and_then(separating);
            self.placed.push(Placed {
                line: op.line,
                first: self.rows + 1,
                rows: body.len(),
            });
            for row in body {
                self.row(row, ending);
                self.focus.push(self.rows);
            }
        }
    }

    /// Appends a row; `ending` is its preferred ending (`None`: inherit).
    fn row(&mut self, content: &str, ending: Option<Ending>) {
        self.flush_pending();
        self.out.extend_from_slice(content.as_bytes());
        self.pending = Some(ending);
        self.last_empty = content.is_empty();
        self.rows += 1;
    }

    fn flush_pending(&mut self) {
        if let Some(ending) = self.pending.take() {
            let ending = match ending {
                Some(e) if e.separates_lines() => e,
                _ => self.last_separator.unwrap_or(self.fallback),
            };
            self.last_separator = Some(ending);
            self.out.extend_from_slice(ending.as_str().as_bytes());
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if let Some(ending) = self.pending.take() {
            if self.text.ends_with_newline() {
                let original_last =
                    (self.text.line_count() > 0).then(|| self.text.ending(self.text.line_count()));
                let ending = match ending {
                    Some(e) if e != Ending::None => e,
                    _ => match original_last {
                        Some(e) if e != Ending::None => e,
                        _ => self.last_separator.unwrap_or(self.fallback),
                    },
                };
                self.out.extend_from_slice(ending.as_str().as_bytes());
            } else if self.last_empty {
                // Without a final newline an empty last row would vanish
                // ("a\n" + "" reads as one line), so it gets a line break:
                // the rows matter more than the final-newline state.
                let ending = self.last_separator.unwrap_or(self.fallback);
                self.out.extend_from_slice(ending.as_str().as_bytes());
            }
        }
        self.out
    }
}

fn separating(ending: Ending) -> Option<Ending> {
    ending.separates_lines().then_some(ending)
}

impl Plan<'_> {
    /// True when a span covers ≥ [`STRUCTURAL_SPAN_LINES`] original lines.
    pub fn is_structural(&self) -> bool {
        self.structural
    }

    /// Applies the plan to the text it was validated against.
    pub fn apply(&self, text: &Text) -> Applied {
        let total = text.line_count();
        let mut emit = Emitter {
            out: Vec::with_capacity(text.body().len() + 64),
            pending: None,
            last_empty: false,
            last_separator: None,
            fallback: text.dominant_ending(),
            rows: 0,
            text,
            focus: Vec::new(),
            placed: Vec::new(),
        };
        if text.has_bom() {
            emit.out.extend_from_slice(UTF8_BOM);
        }
        let mut inserts = self.inserts.iter().peekable();
        let mut spans = self.spans.iter().peekable();
        emit.inserts_at(&mut inserts, 0);
        let mut line = 1;
        while line <= total {
            match spans.next_if(|(range, _)| range.start == line) {
                Some(&(range, op)) => {
                    self.emit_span(&mut emit, range, op);
                    line = range.end;
                }
                None => emit.row(text.line(line), Some(text.ending(line))),
            }
            emit.inserts_at(&mut inserts, line);
            line += 1;
        }
        let focus = std::mem::take(&mut emit.focus);
        let placed = std::mem::take(&mut emit.placed);
        Applied {
            bytes: emit.finish(),
            focus,
            structural: self.structural,
            placed,
        }
    }

    /// Emits the rows of the span `op` over `range`: its body, each row
    /// taking the ending of the line it replaces, or for a deletion the
    /// focus on the row before the gap and the first line after it (as
    /// Rho counts it).
    fn emit_span(&self, emit: &mut Emitter, range: LineRange, op: &Hunk) {
        let text = emit.text;
        let rows = match &op.kind {
            HunkKind::Replace { body, .. } => body.len(),
            HunkKind::Delete { .. } | HunkKind::Insert { .. } => 0,
        };
        emit.placed.push(Placed {
            line: op.line,
            first: emit.rows + 1,
            rows,
        });
        let HunkKind::Replace { body, .. } = &op.kind else {
            if emit.rows > 0 {
                emit.focus.push(emit.rows);
            }
            let after = emit.rows + self.rows_inserted_after(range.end) + 1;
            emit.focus.push(after);
            return;
        };
        let last = body.len() - 1;
        for (j, row) in body.iter().enumerate() {
            let source = if j == last {
                Some(text.ending(range.end))
            } else if range.start + j < range.end {
                separating(text.ending(range.start + j))
            } else {
                separating(text.ending(range.end))
            };
            emit.row(row, source);
            emit.focus.push(emit.rows);
        }
    }

    /// How many rows the plan inserts right after original line `line`
    /// (`PUT >line:` ops; the inserts are sorted by gap).
    fn rows_inserted_after(&self, line: usize) -> usize {
        let key = (line, 0);
        let first = self.inserts.partition_point(|(k, _)| *k < key);
        self.inserts[first..]
            .iter()
            .take_while(|(k, _)| *k == key)
            .map(|(_, op)| match &op.kind {
                HunkKind::Insert { body, .. } => body.len(),
                _ => 0,
            })
            .sum()
    }
}

#[cfg(test)]
mod tests;
