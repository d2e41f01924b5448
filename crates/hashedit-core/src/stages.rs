//! The pipeline's stages and their parts, for harnesses, fuzzers and
//! callers that run one stage alone. [`edit_file`](crate::edit_file) runs
//! them in this order (FORMAT.md §6):
//!
//! 1. [`scan`] a file into rows (the tag and digest from one
//!    [`TagHasher`] pass);
//! 2. [`lower`] a section's ops to [`Hunk`]s, blocks resolved and
//!    registers filled;
//! 3. [`rebase`] them onto a live file that drifted;
//! 4. [`plan`] them against the original numbering and apply the
//!    [`Plan`];
//! 5. run the guards, whose findings ([`Echo`], [`Shift`], …) make a
//!    [`Refusal`] with [`Reading`]s to copy;
//! 6. render the [`post_edit_preview`] or a [`live_snapshot`].
//!
//! Also here: the document's parts beyond its ops ([`Gap`], [`Register`],
//! [`Warning`], …), every parse [`Problem`], and the [`Word`] trait of
//! failures worded per surface.

pub use crate::block::NoBlocks;
pub use crate::diff::unified_diff;
pub use crate::document::{
    FinalNewline, Gap, MAX_REGISTER_NAME, Pasted, Register, Repeat, Warning,
};
pub use crate::edit::{
    DroppedBlank, Echo, Edge, Elision, FinalNewlineProblem, Indent, IndentEvidence, IndentMismatch,
    LostIndentation, Reading, ReadingKind, Refusal, Repair, Shift, ShortRange, SyntaxBreak,
};
pub use crate::hunk::{Aim, Hunk, HunkKind, InsertAt};
pub use crate::lower::{
    Change, Difference, LISTED_OCCURRENCES, LowerError, LowerNote, Lowered, NearMatch, Occurrences,
    OpName, lower,
};
pub use crate::parse::{ForeignShape, LocatorProblem, Problem, RowShape};
pub use crate::plan::{Applied, OpRef, Placed, Plan, PlanError, plan};
pub use crate::rebase::{RebaseRefusal, Rebased, rebase};
pub use crate::scan::{BudgetStop, scan};
pub use crate::surface::Word;
pub use crate::tag::TagHasher;
pub use crate::text::{Ending, split_line_texts};
pub use crate::truncate::TRUNCATION_MARKER;
pub use crate::view::{
    LIVE_CONTEXT_ROWS, LIVE_MAX_ROWS, PreviewShape, STRUCTURAL_SPAN_LINES, live_snapshot,
    post_edit_preview, read_budget_for_line,
};
