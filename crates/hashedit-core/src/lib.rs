//! # hashline
//!
//! The core of hashedit: the *hashline* edit format, pure and free of I/O.
//!
//! A model reads a file as numbered rows under a `[path#TAG]` header, where
//! TAG is a 4-hex fingerprint of the whole file ([`tag`]). It edits by
//! sending a document of `PUT`/`CUT` ops against the original line numbers
//! ([`document`], [`parse`]). Each section is checked against the live
//! file's tag, validated and applied in one pass ([`plan`], [`edit`]), and
//! answered with a post-edit preview or, on failure, a live snapshot
//! ([`view`]).
//!
//! Everything here works on bytes and strings handed in by the caller; the
//! `hashedit-tools` crate owns files, locks and the workspace.
//!
//! ```
//! use hashedit_core::edit::{EditSettings, FileInput, NoHistory, edit_file};
//! use hashedit_core::lower::Registers;
//! use hashedit_core::{TagScheme, parse::parse};
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

pub mod block;
pub mod diff;
pub mod document;
pub mod edit;
pub mod hunk;
pub mod lower;
pub mod parse;
pub mod plan;
pub mod rebase;
pub mod scan;
pub mod tag;
pub mod text;
pub mod truncate;
pub mod view;

pub use document::{Document, Gap, LineRange, Op, OpKind, Register, Section, Target, Warning};
pub use hunk::{Hunk, HunkKind, InsertAt};
pub use tag::{SnapshotTag, TagHasher, TagScheme};
pub use text::{DecodeError, Ending, Text};
