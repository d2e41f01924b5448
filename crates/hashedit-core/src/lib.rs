//! # hashedit-core
//!
//! The core of hashedit: the *hashline* edit format, pure and free of I/O.
//!
//! A model reads a file as numbered rows under a `[path#TAG]` header, where
//! TAG is a 4-hex fingerprint of the whole file ([`TagScheme`], FORMAT.md
//! §2). It edits by sending a [`Document`] of `PUT`/`CUT` ops against the
//! original line numbers ([`parse`], FORMAT.md §5). Each section is checked
//! against the live file's tag, validated and applied in one pass by
//! [`edit_file`] (FORMAT.md §6), and answered with a post-edit preview or, on
//! failure, a live snapshot (FORMAT.md §4).
//!
//! The modules are private; everything public is re-exported here, grouped
//! as the pipeline runs:
//!
//! - **Tags and text**: [`TagScheme`], [`SnapshotTag`], [`Fingerprint`],
//!   [`header`]; [`Text`] (decoded lines with their endings) and
//!   [`DecodeError`]; [`truncate_to_budget`].
//! - **Reading**: [`LineScanner`] / [`scan`] turn bytes into the rows of a
//!   window; [`read_view`], [`chain_snapshot`], [`live_snapshot`] and
//!   [`post_edit_preview`] render them.
//! - **The document**: [`parse`] gives a [`Document`] of [`Section`]s and
//!   [`Op`]s, or a [`ParseError`].
//! - **Block locators**: the [`BlockResolver`] trait a grammar plugs into
//!   (the `hashedit-blocks` crate implements it with tree-sitter).
//! - **The stages**: [`lower`] (ops to [`Hunk`]s), [`plan`] (ranges and
//!   overlaps), [`Plan::apply`], [`rebase`] (drifted edits).
//! - **The entry point**: [`edit_file`] runs every stage and rule of an edit
//!   for one section and returns a [`FileEdit`] or a [`FileEditError`].
//!
//! Everything here works on bytes and strings handed in by the caller; the
//! `hashedit-tools` crate owns files, locks and the workspace.
//!
//! ```
//! use hashedit_core::{EditSettings, FileInput, NoHistory, Registers, TagScheme, edit_file, parse};
//!
//! let bytes = b"one\ntwo\nthree\n";
//! let tag = TagScheme::Rho.tag_of(bytes);
//! let doc = parse(&format!("[a.txt#{tag}]\nPUT 2:\n+TWO\n")).unwrap();
//! let input = FileInput {
//!     section: &doc.sections[0],
//!     display: "a.txt",
//!     result_display: "a.txt",
//!     bytes,
//! };
//! let settings = EditSettings::new(TagScheme::Rho);
//! let edit = edit_file(&input, &settings, &NoHistory, &mut Registers::default()).unwrap();
//! assert_eq!(edit.bytes, b"one\nTWO\nthree\n");
//! assert!(edit.preview.contains("2:TWO"));
//! ```

mod block;
mod class;
mod diff;
mod document;
mod edit;
mod hunk;
mod lower;
mod parse;
mod plan;
mod problem;
mod project;
mod rebase;
mod scan;
mod surface;
mod tag;
mod text;
mod truncate;
mod view;

// Surfaces: the names their replies use (FORMAT.md §8.3).
pub use surface::{Name, Output, Surface, Word, Worded};

// Tags and text (FORMAT.md §2, §3).
pub use tag::{ContentDigest, Fingerprint, SnapshotTag, TagHasher, TagScheme, header};
pub use text::{DecodeError, Ending, Text, UTF8_BOM, check_text, split_line_texts};
pub use truncate::{
    DEFAULT_MAX_OUTPUT_BYTES, TRUNCATION_MARKER, truncate_chars, truncate_to_budget,
};

// Reading: scanning a file into rows, and every view a model reads (FORMAT.md §4).
pub use scan::{BudgetStop, LineScanner, ScanOutcome, WindowRequest, scan};
pub use view::{
    LIVE_CONTEXT_ROWS, LIVE_MAX_ROWS, LONG_ROW_BYTES, PreviewShape, STRUCTURAL_SPAN_LINES,
    WindowError, chain_snapshot, live_snapshot, long_line_hint, post_edit_preview,
    read_budget_for_line, read_view, row_budget_for, window_request,
};

// The edit document and its grammar (FORMAT.md §5).
pub use document::{
    Document, FinalNewline, Gap, LineRange, MAX_REGISTER_NAME, Op, OpKind, Pasted, Register,
    Repeat, Section, Target, Warning, WarningKind,
};
pub use parse::{ForeignShape, LocatorProblem, ParseError, Problem, RowShape, parse};

// Block locators (FORMAT.md §5.4).
pub use block::{
    BLOCK_SUGGESTION_WINDOW, BlockIndex, BlockResolution, BlockResolver, NoBlocks, Unresolvable,
};

// The pipeline stages: lowering, planning, applying, rebasing (FORMAT.md §6).
pub use hunk::{Hunk, HunkKind, InsertAt};
pub use lower::{FileOp, LowerError, LowerNote, Lowered, OpName, Registers, lower};
pub use plan::{Applied, OpRef, Placed, Plan, PlanError, plan};
pub use rebase::{RebaseLimit, RebaseRefusal, Rebased, rebase};

// The edit entry point and everything it reports (FORMAT.md §6, §7).
pub use class::FailureClass;
pub use diff::{DiffSide, unified_diff, unified_diff_between};

pub use edit::{
    Advice, DroppedBlank, Echo, Edge, EditFailure, EditSettings, Elision, FileEdit, FileEditError,
    FileInput, FinalNewlineProblem, Guards, Indent, IndentEvidence, IndentMismatch,
    LostIndentation, NoHistory, Reading, ReadingKind, Refusal, Repair, Shift, ShortRange,
    SnapshotHistory, Suspicion, SyntaxBreak, TagCheck, edit_file,
};
// Projection of a document still streaming in, for UI cards.
pub use project::{OpState, ProjectedOp, ProjectedSection, Projection, project};
