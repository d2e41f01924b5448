//! # hashedit-core
//!
//! The core of hashedit: the *hashline* edit format, pure and free of I/O.
//!
//! A model reads a file as numbered rows under a `[path#TAG]` header (TAG a
//! 4-hex fingerprint of the whole file, FORMAT.md §2) and edits it with a
//! [`Document`] of ops against the original line numbers (§5), which
//! [`edit_file`] checks against the live file's tag, validates and applies
//! in one pass (§6), answering with a preview or a live snapshot (§4).
//! Everything here works on bytes and strings handed in by the caller; the
//! `hashedit-tools` crate owns files, locks and the workspace.
//!
//! The modules are private. The root holds what a caller of the pipeline
//! needs, grouped as the pipeline runs:
//!
//! - **Surfaces**: [`Surface`] and its names table ([`Name`]), [`Output`]
//!   (a reply's budget and surface), [`Worded`] (a failure worded for one).
//! - **Tags and text**: [`TagScheme`], [`SnapshotTag`], [`Fingerprint`],
//!   [`header`]; [`Text`] and [`DecodeError`]; [`truncate_to_budget`].
//! - **Reading**: [`LineScanner`] turns bytes into the rows of a window;
//!   [`read_view`] and [`chain_snapshot`] render them.
//! - **The document**: [`parse`] gives a [`Document`] of [`Section`]s and
//!   [`Op`]s, or a [`ParseError`].
//! - **Block locators**: the [`BlockResolver`] trait a grammar plugs into
//!   (the `hashedit-blocks` crate implements it with tree-sitter).
//! - **The edit**: [`edit_file`] runs every stage and rule of an edit for
//!   one section and returns a [`FileEdit`] or a [`FileEditError`], whose
//!   [`FailureClass`] is the error kind a surface reports.
//! - **Diffs** of an edit ([`unified_diff_between`]) and the [`projection`]
//!   of a document still streaming in, for UI cards.
//!
//! The stages themselves (lowering, planning, applying, rebasing), their
//! hunks and every finding type are in [`stages`], for harnesses, fuzzers
//! and callers that run one stage alone.
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
mod rebase;
mod scan;
mod surface;
mod tag;
mod text;
mod truncate;
mod view;

// Surfaces: the names their replies use (FORMAT.md §8.3).
pub use surface::{Name, Output, Surface, Worded};

// Tags and text (FORMAT.md §2, §3).
pub use tag::{ContentDigest, Fingerprint, SnapshotTag, TagScheme, header};
pub use text::{DecodeError, Text, UTF8_BOM, check_text};
pub use truncate::{DEFAULT_MAX_OUTPUT_BYTES, truncate_chars, truncate_to_budget};

// Reading: scanning a file into rows, and the views a model reads (FORMAT.md §4).
pub use scan::{LineScanner, ScanOutcome, WindowRequest};
pub use view::{
    LONG_ROW_BYTES, WindowError, chain_snapshot, long_line_hint, read_view, row_budget_for,
    window_request,
};

// The edit document and its grammar (FORMAT.md §5).
pub use document::{Document, LineRange, Op, OpKind, Section, Target, WarningKind};
pub use parse::{ParseError, parse};

// Block locators (FORMAT.md §5.5).
pub use block::{
    BLOCK_SUGGESTION_WINDOW, BlockIndex, BlockResolution, BlockResolver, Unresolvable,
};

// The edit and everything it reports (FORMAT.md §6, §7, §8.4).
pub use class::FailureClass;
pub use diff::{DiffSide, unified_diff_between};
pub use edit::{
    Advice, EditFailure, EditSettings, FileEdit, FileEditError, FileInput, Guards, NoHistory,
    SnapshotHistory, Suspicion, TagCheck, edit_file,
};
pub use lower::{FileOp, Registers};
pub use rebase::RebaseLimit;

pub mod projection;
pub mod stages;
