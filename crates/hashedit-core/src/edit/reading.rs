//! Corrected document lines a refusal offers to copy (FORMAT.md §7): one
//! reading per plausible intent, each a complete op.

use std::fmt;

/// What a reading assumes the author meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadingKind {
    /// The repeated rows were context: the op without them.
    DropRepeatedRows,
    /// The lines were meant twice: restated inside a range widened over
    /// the lines they repeat.
    WidenOverRepeatedLines,
    /// The range is one line off: the same rows on the lines they edit.
    MoveRange,
    /// The range stops one line short of the line an edge row edits.
    ExtendRange,
    /// The rows with the indentation of the lines around them.
    Reindent,
    /// The range is one line too long: the same rows on the lines they
    /// edit, the extra line kept.
    ShortenRange,
}

/// One corrected op, as document lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// What it assumes.
    pub kind: ReadingKind,
    /// The op's header and `+` rows; empty when the reading is "leave the
    /// op out".
    pub lines: Vec<String>,
}

/// Longest corrected op shown in full (document lines); a longer one is
/// cut with a note, since the author can derive it from the first rows.
const MAX_READING_LINES: usize = 24;

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let intro = match self.kind {
            ReadingKind::DropRepeatedRows => "if the repeated rows were context, leave them out",
            ReadingKind::WidenOverRepeatedLines => {
                "if you do mean the lines twice, restate them inside a widened range"
            }
            ReadingKind::MoveRange => {
                "if the range is off by one, aim it at the lines the rows edit"
            }
            ReadingKind::ExtendRange => {
                "if the range is one line short, include the line the row edits"
            }
            ReadingKind::ShortenRange => "if the blank line should stay, leave it out of the range",
            ReadingKind::Reindent => {
                "if the rows belong in the block, give them its indentation (each row's own \
                 indentation inside the block is yours to restore)"
            }
        };
        if self.lines.is_empty() {
            return write!(f, "{intro}: drop the op");
        }
        write!(f, "{intro}:\ntry: {}", self.lines[0])?;
        for line in self.lines.iter().take(MAX_READING_LINES).skip(1) {
            write!(f, "\n{line}")?;
        }
        if self.lines.len() > MAX_READING_LINES {
            write!(
                f,
                "\n[… {} more rows, as in your op]",
                self.lines.len() - MAX_READING_LINES
            )?;
        }
        Ok(())
    }
}

/// An op's document lines: `header` then each row with its `+`.
pub(crate) fn op_lines(header: &str, rows: &[String]) -> Vec<String> {
    std::iter::once(header.to_string())
        .chain(rows.iter().map(|row| format!("+{row}")))
        .collect()
}
