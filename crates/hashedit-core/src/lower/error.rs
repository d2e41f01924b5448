//! Why a section could not be lowered (FORMAT.md §5, §5.9): the failure,
//! its class and its words.

use std::fmt;

use super::OpName;
use super::substitute::{Difference, NearMatch, Occurrences};
use crate::block::Unresolvable;
use crate::class::FailureClass;
use crate::document::{LineRange, Target};
use crate::surface::{Surface, Word, display_as_mcp};
use crate::view::plural;

/// Why a section could not be lowered.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LowerError {
    /// No block starts on the line; `suggestion` is a block op that would
    /// resolve nearby, if one exists.
    Unresolvable {
        /// The op.
        op: OpName,
        /// The anchor line.
        line: usize,
        /// Why.
        reason: Unresolvable,
        /// A ready-to-copy alternative.
        suggestion: Option<String>,
    },
    /// The construct on the line is one line long: use the plain op.
    SingleLineBlock {
        /// The op.
        op: OpName,
        /// The plain op to use instead.
        plain: String,
        /// The nearest enclosing multi-line block's op, if any.
        enclosing: Option<String>,
    },
    /// An anonymous paste with nothing cut in this call.
    NothingToPaste {
        /// The paste.
        op: OpName,
    },
    /// An anonymous paste while several unlabelled cuts are pending.
    AmbiguousPaste {
        /// The paste.
        op: OpName,
        /// The pending cuts.
        pending: Vec<String>,
    },
    /// A paste of a register that holds nothing.
    UnknownRegister {
        /// The paste.
        op: OpName,
        /// The register.
        name: String,
        /// Registers that do exist.
        known: Vec<String>,
    },
    /// A cut or block past the end of the file.
    OutOfRange {
        /// The op.
        op: OpName,
        /// The line named.
        line: usize,
        /// Lines in the file.
        total: usize,
    },
    /// A `SUB`'s old text is not in the lines it names (FORMAT.md §5.9).
    NoMatch {
        /// The op.
        op: OpName,
        /// The lines searched; `None` for the whole file.
        within: Option<LineRange>,
        /// The text nearest to it, if any comes near.
        near: Option<Box<NearMatch>>,
    },
    /// A `SUB`'s old text occurs more than once in the lines it names.
    AmbiguousMatch {
        /// The op.
        op: OpName,
        /// The lines searched; `None` for the whole file.
        within: Option<LineRange>,
        /// Where it occurs.
        occurrences: Occurrences,
    },
}

impl LowerError {
    /// The failure's class.
    pub fn class(&self) -> FailureClass {
        match self {
            LowerError::Unresolvable { .. } | LowerError::SingleLineBlock { .. } => {
                FailureClass::UnresolvedBlock
            }
            LowerError::NothingToPaste { .. }
            | LowerError::AmbiguousPaste { .. }
            | LowerError::UnknownRegister { .. } => FailureClass::RegisterError,
            LowerError::OutOfRange { .. } => FailureClass::LineOutOfRange,
            LowerError::NoMatch { .. } => FailureClass::NoMatch,
            LowerError::AmbiguousMatch { .. } => FailureClass::AmbiguousMatch,
        }
    }

    /// Lines of the file a live snapshot should show beside the section's
    /// anchors: a near-match's, or the first few occurrences'.
    pub fn lines_to_show(&self) -> Vec<usize> {
        match self {
            LowerError::NoMatch {
                near: Some(near), ..
            } => vec![near.lines.start, near.lines.end],
            LowerError::AmbiguousMatch { occurrences, .. } => {
                occurrences.lines.iter().copied().take(4).collect()
            }
            LowerError::Unresolvable { .. }
            | LowerError::SingleLineBlock { .. }
            | LowerError::NothingToPaste { .. }
            | LowerError::AmbiguousPaste { .. }
            | LowerError::UnknownRegister { .. }
            | LowerError::OutOfRange { .. }
            | LowerError::NoMatch { near: None, .. } => Vec::new(),
        }
    }

    /// The op at fault.
    pub fn op(&self) -> &OpName {
        match self {
            LowerError::Unresolvable { op, .. }
            | LowerError::SingleLineBlock { op, .. }
            | LowerError::NothingToPaste { op }
            | LowerError::AmbiguousPaste { op, .. }
            | LowerError::UnknownRegister { op, .. }
            | LowerError::OutOfRange { op, .. }
            | LowerError::NoMatch { op, .. }
            | LowerError::AmbiguousMatch { op, .. } => op,
        }
    }
}

impl Word for LowerError {
    fn word(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result {
        match self {
            LowerError::Unresolvable {
                op,
                line,
                reason,
                suggestion,
            } => {
                write!(f, "{op}: no block starts on line {line}: {reason}")?;
                match suggestion {
                    Some(s) => write!(
                        f,
                        "; did you mean {s}? Otherwise give the lines explicitly (N.=M)"
                    ),
                    None => write!(f, "; give the lines explicitly (N.=M)"),
                }
            }
            LowerError::SingleLineBlock {
                op,
                plain,
                enclosing,
            } => {
                write!(
                    f,
                    "{op}: the construct on that line is a single line; use {plain}"
                )?;
                if let Some(enclosing) = enclosing {
                    write!(f, " (the enclosing block is {enclosing})")?;
                }
                Ok(())
            }
            LowerError::NothingToPaste { op } => write!(
                f,
                "{op} pastes the anonymous register, but no CUT without @name came before it in this \
                 edit (the anonymous register lasts one edit call; use CUT … @name to keep lines longer)"
            ),
            LowerError::AmbiguousPaste { op, pending } => write!(
                f,
                "{op} pastes the anonymous register, but {} unlabelled cuts are pending ({}); label them \
                 (CUT … @name) and paste by name (PUT … @name)",
                pending.len(),
                pending.join(", ")
            ),
            LowerError::UnknownRegister { op, name, known } => {
                write!(f, "{op}: register @{name} holds nothing")?;
                if known.is_empty() {
                    write!(f, "; no named register exists yet: CUT … @{name} first")?;
                    match surface {
                        Surface::Mcp => Ok(()),
                        Surface::Cli => f.write_str(
                            " in the same document (the CLI keeps named registers only within one \
                             document; an earlier command's cuts are gone)",
                        ),
                    }
                } else {
                    let names: Vec<String> = known.iter().map(|n| format!("@{n}")).collect();
                    write!(f, "; known registers: {}", names.join(", "))
                }
            }
            LowerError::OutOfRange { op, line, total } => write!(
                f,
                "{op} names line {line}, but the file has {total} {}",
                plural(*total, "line", "lines")
            ),
            LowerError::NoMatch { op, within, near } => no_match(f, op, *within, near.as_deref()),
            LowerError::AmbiguousMatch {
                op,
                within,
                occurrences,
            } => ambiguous_match(f, op, *within, occurrences),
        }
    }
}

display_as_mcp!(LowerError);

impl std::error::Error for LowerError {}

/// The lines a `SUB` searched, in words: `line 4`, `lines 4-6`, `the
/// file`.
fn searched(within: Option<LineRange>) -> String {
    match within {
        Some(range) => Target::Lines(range).words(),
        None => "the file".to_string(),
    }
}

/// A `SUB`'s old text not found in `within`, and the nearest near-match.
fn no_match(
    f: &mut fmt::Formatter<'_>,
    op: &OpName,
    within: Option<LineRange>,
    near: Option<&NearMatch>,
) -> fmt::Result {
    write!(f, "{op}: the old text is not in {}", searched(within))?;
    match near {
        Some(
            near @ NearMatch {
                difference: Difference::Outside,
                ..
            },
        ) => write!(f, "; {near}"),
        Some(near) => write!(
            f,
            "; {near}. A SUB matches its - rows exactly: copy them from the live snapshot below"
        ),
        None => f.write_str(
            ", and nothing in the file comes near it. A SUB matches its - rows exactly: copy them \
             from the live snapshot below",
        ),
    }
}

/// A `SUB`'s old text found more than once in `within`.
fn ambiguous_match(
    f: &mut fmt::Formatter<'_>,
    op: &OpName,
    within: Option<LineRange>,
    occurrences: &Occurrences,
) -> fmt::Result {
    match occurrences.lines[..] {
        // No line locator can tell apart occurrences on one line.
        [line] if occurrences.more_lines == 0 => write!(
            f,
            "{op}: the old text occurs {} times, all on line {line}; a SUB replaces one \
             occurrence: give more of its text, enough to hold only the one you mean",
            occurrences.count
        ),
        _ => write!(
            f,
            "{op}: the old text occurs {} times in {}, starting on lines {occurrences}; a SUB \
             replaces one occurrence: give a locator holding only the one you mean (SUB N: or \
             SUB N.=M:), or more of its text",
            occurrences.count,
            searched(within)
        ),
    }
}
