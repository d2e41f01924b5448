//! Files as lines, line diffs as hunks, and a reference applier.
//!
//! The benchmark never asks an engine what a document *should* do: intended
//! results come from this small, independent model of the hashline line
//! semantics (original numbering, inclusive ranges, inserts in gaps), which
//! is checked on every task against the mutation it was derived from.

use similar::{Algorithm, DiffOp, capture_diff_slices};

/// A text file as lines without their `\n`, plus whether it ends in one.
///
/// The corpus holds LF files only, so this is exact: `lines.join("\n")`
/// plus the final newline gives back the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    /// The lines, without line breaks.
    pub lines: Vec<String>,
    /// Whether the text ends with `\n`.
    pub final_newline: bool,
}

impl Lines {
    /// Splits `text` at `\n` (hashline's line model: a final `\n` ends the
    /// last line rather than starting an empty one).
    pub fn parse(text: &str) -> Lines {
        if text.is_empty() {
            return Lines {
                lines: Vec::new(),
                final_newline: false,
            };
        }
        let final_newline = text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(text);
        Lines {
            lines: body.split('\n').map(str::to_string).collect(),
            final_newline,
        }
    }

    /// The text again.
    pub fn text(&self) -> String {
        let mut out = self.lines.join("\n");
        if self.final_newline && !self.lines.is_empty() {
            out.push('\n');
        }
        out
    }

    /// Line `n` (1-based).
    pub fn line(&self, n: usize) -> &str {
        &self.lines[n - 1]
    }

    /// The number of lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the file has no lines.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// One change, in the original file's 1-based numbering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hunk {
    /// Lines `start..=end` become `rows`.
    Replace {
        /// First replaced line.
        start: usize,
        /// Last replaced line.
        end: usize,
        /// The new lines.
        rows: Vec<String>,
    },
    /// Lines `start..=end` are deleted.
    Delete {
        /// First deleted line.
        start: usize,
        /// Last deleted line.
        end: usize,
    },
    /// `rows` go after line `after` (0: before line 1).
    Insert {
        /// The line the rows follow; 0 for the head of the file.
        after: usize,
        /// The new lines.
        rows: Vec<String>,
    },
}

impl Hunk {
    /// The original lines the hunk removes, if any.
    pub fn span(&self) -> Option<(usize, usize)> {
        match self {
            Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => Some((*start, *end)),
            Hunk::Insert { .. } => None,
        }
    }

    /// The new rows, if any.
    pub fn rows(&self) -> Option<&[String]> {
        match self {
            Hunk::Replace { rows, .. } | Hunk::Insert { rows, .. } => Some(rows),
            Hunk::Delete { .. } => None,
        }
    }

    /// The lines the hunk touches or sits between, for distance checks:
    /// a span's lines, or an insert's two neighbours.
    pub fn footprint(&self) -> (usize, usize) {
        match self {
            Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => (*start, *end),
            Hunk::Insert { after, .. } => (*after, after + 1),
        }
    }

    /// The hunk moved by `delta` lines.
    pub fn shifted(&self, delta: isize) -> Hunk {
        let move_by = |n: usize| n.checked_add_signed(delta).expect("shift below line 0");
        match self {
            Hunk::Replace { start, end, rows } => Hunk::Replace {
                start: move_by(*start),
                end: move_by(*end),
                rows: rows.clone(),
            },
            Hunk::Delete { start, end } => Hunk::Delete {
                start: move_by(*start),
                end: move_by(*end),
            },
            Hunk::Insert { after, rows } => Hunk::Insert {
                after: move_by(*after),
                rows: rows.clone(),
            },
        }
    }
}

/// The line diff of `old` → `new` as hunks in ascending order (Myers, as
/// most diff tools and models' mental model of a diff).
pub fn diff(old: &Lines, new: &Lines) -> Vec<Hunk> {
    let ops = capture_diff_slices(Algorithm::Myers, &old.lines, &new.lines);
    let mut hunks: Vec<Hunk> = Vec::new();
    // Pending change: (old start index, old len, new start index, new len).
    let mut pending: Option<(usize, usize, usize, usize)> = None;
    let flush = |p: Option<(usize, usize, usize, usize)>, hunks: &mut Vec<Hunk>| {
        let Some((o, ol, n, nl)) = p else { return };
        let rows = new.lines[n..n + nl].to_vec();
        hunks.push(match (ol, nl) {
            (0, _) => Hunk::Insert { after: o, rows },
            (_, 0) => Hunk::Delete {
                start: o + 1,
                end: o + ol,
            },
            _ => Hunk::Replace {
                start: o + 1,
                end: o + ol,
                rows,
            },
        });
    };
    for op in ops {
        let (o, ol, n, nl) = match op {
            DiffOp::Equal { .. } => {
                flush(pending.take(), &mut hunks);
                continue;
            }
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (old_index, old_len, new_index, 0),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index, 0, new_index, new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (old_index, old_len, new_index, new_len),
        };
        pending = Some(match pending {
            // Adjacent changes merge into one hunk.
            Some((po, pol, pn, pnl)) if po + pol == o && pn + pnl == n => {
                (po, pol + ol, pn, pnl + nl)
            }
            other => {
                flush(other, &mut hunks);
                (o, ol, n, nl)
            }
        });
    }
    flush(pending, &mut hunks);
    hunks
}

/// Why hunks cannot be applied by the reference model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApplyError {
    /// A line outside the file.
    OutOfRange,
    /// Two spans share a line, or an insert falls strictly inside a span.
    Overlap,
}

/// Applies non-overlapping `hunks` (any order) to `file`, hashline style:
/// every number refers to `file`; rows inserted after line N follow the
/// replacement of a span ending at N; inserts at one gap keep their order.
pub fn apply(file: &Lines, hunks: &[Hunk]) -> Result<Lines, ApplyError> {
    let total = file.len();
    let mut spans: Vec<(usize, usize, Option<&[String]>)> = Vec::new();
    let mut inserts: Vec<Vec<&str>> = vec![Vec::new(); total + 1];
    let mut anchored = vec![false; total + 1];
    for hunk in hunks {
        match hunk {
            Hunk::Replace { start, end, rows } => spans.push((*start, *end, Some(rows))),
            Hunk::Delete { start, end } => spans.push((*start, *end, None)),
            Hunk::Insert { after, rows } => {
                if *after > total {
                    return Err(ApplyError::OutOfRange);
                }
                inserts[*after].extend(rows.iter().map(String::as_str));
                anchored[*after] = true;
            }
        }
    }
    spans.sort_by_key(|s| s.0);
    for (i, &(start, end, _)) in spans.iter().enumerate() {
        if start == 0 || start > end || end > total {
            return Err(ApplyError::OutOfRange);
        }
        if i > 0 && spans[i - 1].1 >= start {
            return Err(ApplyError::Overlap);
        }
        // An insert after a line strictly inside the span (not its end).
        if (start..end).any(|n| anchored[n]) {
            return Err(ApplyError::Overlap);
        }
    }
    let mut out: Vec<String> = Vec::with_capacity(total + 8);
    out.extend(inserts[0].iter().map(|s| s.to_string()));
    let mut spans = spans.into_iter().peekable();
    let mut n = 1;
    while n <= total {
        let last = match spans.peek() {
            Some(&(start, end, rows)) if start == n => {
                if let Some(rows) = rows {
                    out.extend(rows.iter().cloned());
                }
                spans.next();
                end
            }
            _ => {
                out.push(file.line(n).to_string());
                n
            }
        };
        out.extend(inserts[last].iter().map(|s| s.to_string()));
        n = last + 1;
    }
    Ok(Lines {
        // A file that had lines keeps its final-newline state; a file that
        // gains its first lines gets one.
        final_newline: file.final_newline || file.is_empty(),
        lines: out,
    })
}

#[cfg(test)]
mod tests;
