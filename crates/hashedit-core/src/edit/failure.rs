//! Why a section failed, as data, and its text (FORMAT.md §6.6). Every
//! failure but a file that is not text comes with a live snapshot around
//! the section's anchor lines, to copy and retry from.

use std::fmt;

use crate::class::FailureClass;
use crate::document::Section;
use crate::lower::LowerError;
use crate::parse::ParseError;
use crate::plan::PlanError;
use crate::rebase::RebaseRefusal;
use crate::surface::{Surface, Word, Worded, display_as_mcp};
use crate::tag::{Fingerprint, SnapshotTag};
use crate::text::DecodeError;

use super::final_newline::FinalNewlineProblem;
use super::guard::Refusal;

/// Why a section could not be applied; nothing is written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditFailure {
    /// The file is not UTF-8 text (binary, another encoding, invalid
    /// bytes): edit never rewrites such a file.
    NotText(DecodeError),
    /// Under the omp tag scheme, a carriage return not followed by a line
    /// feed: that scheme reads it as a line break and the line model does
    /// not, so a tag could not prove which lines the author saw.
    LoneCarriageReturn,
    /// The section's tag does not match the live file.
    StaleTag {
        /// Tag in the section header.
        expected: SnapshotTag,
        /// Tag of the live file.
        live: SnapshotTag,
    },
    /// The section's tag is the live file's tag under the other tag scheme
    /// (FORMAT.md §3): the snapshot came from a tool that tags with
    /// `other`, not from this one.
    OtherSchemeTag {
        /// Tag in the section header: the live file's tag under `other`.
        expected: SnapshotTag,
        /// Tag of the live file under this edit's scheme.
        live: SnapshotTag,
        /// The scheme `expected` was computed with.
        other: crate::tag::TagScheme,
    },
    /// The tag is stale and the caller held the snapshot it names, but the
    /// ops could not be carried onto the live file.
    StaleTagNotRebased {
        /// Tag in the section header.
        expected: SnapshotTag,
        /// Tag of the live file.
        live: SnapshotTag,
        /// Why the rebase was refused.
        reason: RebaseRefusal,
    },
    /// The tag matches, but every snapshot the caller served under it
    /// differs from the live bytes (a 16-bit collision).
    CollidingSnapshot {
        /// The tag in the section header (equal to the live tag).
        tag: SnapshotTag,
    },
    /// A block or register op could not be lowered.
    Lower(LowerError),
    /// The ops do not fit the file.
    Plan(PlanError),
    /// A guard found ops that would likely write a file the author did not
    /// mean (the indentation, echo, shift, elision and syntax guards).
    Refused(Box<Refusal>),
    /// Rows that look pasted from a diff or a read, which the snapshot does
    /// not prove: the parser's error, with its fix.
    UnverifiedPaste(Box<ParseError>),
    /// `EOF NEWLINE` on a file left without lines, or `EOF NO NEWLINE`
    /// where the last line is empty.
    FinalNewline(FinalNewlineProblem),
}

impl EditFailure {
    /// The failure's class.
    pub fn class(&self) -> FailureClass {
        match self {
            EditFailure::NotText(error) => error.class(),
            EditFailure::LoneCarriageReturn => FailureClass::UnsupportedEncoding,
            EditFailure::StaleTag { .. }
            | EditFailure::OtherSchemeTag { .. }
            | EditFailure::StaleTagNotRebased { .. }
            | EditFailure::CollidingSnapshot { .. } => FailureClass::StaleTag,
            EditFailure::Lower(error) => error.class(),
            EditFailure::Plan(error) => error.class(),
            EditFailure::Refused(refusal) => refusal.class(),
            EditFailure::UnverifiedPaste(_) => FailureClass::ParseError,
            EditFailure::FinalNewline(_) => FailureClass::LineOutOfRange,
        }
    }
}

/// A failed section: what went wrong and the live snapshot to retry from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEditError {
    /// Display path of the file.
    pub display: String,
    /// The failure.
    pub failure: EditFailure,
    /// The live snapshot (`[path#LIVETAG]` and rows around the anchors);
    /// empty for [`EditFailure::NotText`], which has no tag to offer.
    pub snapshot: String,
    /// The fingerprint of the live bytes the snapshot shows; `None` with
    /// no snapshot.
    pub live: Option<Fingerprint>,
}

impl Word for EditFailure {
    fn word(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result {
        match self {
            EditFailure::NotText(error) => write!(
                f,
                "{}; edit only changes UTF-8 text files and left it untouched; use write to replace \
                 it whole if you must",
                error.describe()
            ),
            EditFailure::LoneCarriageReturn => f.write_str(
                "has a carriage return (CR) that is not followed by LF. The omp tag scheme reads it as \
                 a line break but line numbers do not, so a tag could not prove which lines you saw; \
                 nothing was written. Use the rho tag scheme for this file, or replace it whole with \
                 write",
            ),
            EditFailure::StaleTag { expected, live } => write!(
                f,
                "snapshot tag {expected} is stale: the file's tag is now {live} (it changed since that snapshot, or the \
                 tag was mistyped); nothing was written. Retry with the header and line numbers of the live snapshot below"
            ),
            EditFailure::OtherSchemeTag {
                expected,
                live,
                other,
            } => write!(
                f,
                "snapshot tag {expected} is this file's tag under the {} tag scheme, but this hashedit \
                 tags with {} (the file's tag is {live}): the snapshot came from a tool using the other \
                 scheme; nothing was written. Retry with the header and line numbers of the live snapshot \
                 below, or run hashedit with --tag-scheme {} to match that tool",
                other.name(),
                other.other().name(),
                other.name()
            ),
            EditFailure::StaleTagNotRebased {
                expected,
                live,
                reason,
            } => write!(
                f,
                "snapshot tag {expected} is stale: the file changed and its tag is now {live}, and the \
                 ops could not be moved onto it safely ({reason}); nothing was written. Retry with the \
                 header and line numbers of the live snapshot below"
            ),
            EditFailure::CollidingSnapshot { tag } => write!(
                f,
                "snapshot tag {tag} still matches, but the file's content differs from every snapshot \
                 served under that tag (a tag collision); nothing was written. Retry from the live snapshot below"
            ),
            EditFailure::Lower(e) => {
                e.word(f, surface)?;
                f.write_str("; nothing was written")
            }
            EditFailure::Plan(e) => write!(f, "{e}; nothing was written"),
            EditFailure::Refused(refusal) => refusal.word(f, surface),
            EditFailure::UnverifiedPaste(e) => {
                e.word(f, surface)?;
                f.write_str("\nNothing was written.")
            }
            EditFailure::FinalNewline(e) => write!(f, "{e}; nothing was written"),
        }
    }
}

display_as_mcp!(EditFailure);

impl Word for FileEditError {
    fn word(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result {
        match &self.failure {
            EditFailure::NotText(_) | EditFailure::LoneCarriageReturn => {
                write!(f, "{} {}", self.display, Worded(&self.failure, surface))
            }
            _ => write!(
                f,
                "{}: {}\n\nLive snapshot (copy this header and these line numbers to retry):\n{}",
                self.display,
                Worded(&self.failure, surface),
                self.snapshot
            ),
        }
    }
}

display_as_mcp!(FileEditError);

impl std::error::Error for FileEditError {}

/// The original lines a live snapshot of `section` should show: each op's
/// anchor lines ([`crate::document::OpKind::anchor_lines`], FORMAT.md
/// §4.4).
pub(crate) fn anchor_lines(section: &Section) -> Vec<usize> {
    section
        .ops
        .iter()
        .flat_map(|op| op.kind.anchor_lines())
        .collect()
}
