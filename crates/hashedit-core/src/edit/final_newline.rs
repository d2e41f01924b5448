//! `EOF NEWLINE` and `EOF NO NEWLINE` (FORMAT.md §5.6): whether the new
//! file's last line ends with a line break. Rows cannot say it (a row is
//! a line's text), so without the op a file keeps its final-newline state.

use std::fmt;

use crate::document::{FinalNewline, OpKind, Section};
use crate::text::{Ending, Text, UTF8_BOM};

/// Why the final-newline state cannot be set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalNewlineProblem {
    /// Document line of the `EOF` op.
    pub line: usize,
    /// The state asked for.
    pub state: FinalNewline,
}

impl fmt::Display for FinalNewlineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.state {
            FinalNewline::Present => write!(
                f,
                "EOF NEWLINE (document line {}): the file would have no lines, so there is no last \
                 line to end; add rows (PUT >$:) first",
                self.line
            ),
            FinalNewline::Absent => write!(
                f,
                "EOF NO NEWLINE (document line {}): the last line is empty, so removing its line \
                 break would remove the line; CUT it instead",
                self.line
            ),
        }
    }
}

/// `bytes` (the applied result) with the final-newline state `state`; a
/// line break added takes the old file's dominant ending.
pub(crate) fn set(
    mut bytes: Vec<u8>,
    state: FinalNewline,
    old: &Text,
    section: &Section,
) -> Result<Vec<u8>, FinalNewlineProblem> {
    let problem = || FinalNewlineProblem {
        line: section
            .ops
            .iter()
            .rev()
            .find(|op| matches!(op.kind, OpKind::FinalNewline(_)))
            .map_or(0, |op| op.line),
        state,
    };
    let bom = if bytes.starts_with(UTF8_BOM) {
        UTF8_BOM.len()
    } else {
        0
    };
    let body = &bytes[bom..];
    match state {
        FinalNewline::Present => {
            if body.is_empty() {
                return Err(problem());
            }
            if !body.ends_with(b"\n") && !body.ends_with(b"\r") {
                let ending = match old.dominant_ending() {
                    e if e.separates_lines() => e,
                    _ => Ending::Lf,
                };
                bytes.extend_from_slice(ending.as_str().as_bytes());
            }
        }
        FinalNewline::Absent => {
            // A lone CR at the very end closes the last line too.
            if body.ends_with(b"\n") || body.ends_with(b"\r") {
                let cut = if body.ends_with(b"\r\n") { 2 } else { 1 };
                let rest = &body[..body.len() - cut];
                if rest.is_empty() || rest.ends_with(b"\n") {
                    return Err(problem());
                }
                bytes.truncate(bytes.len() - cut);
            }
        }
    }
    Ok(bytes)
}
