//! # hashedit-tools
//!
//! The six hashline tools over a workspace: [`read_file`], [`grep`],
//! [`glob`], [`list_dir`], [`write`](fn@write) and [`edit`](fn@edit), and
//! all of hashedit's file I/O: confinement, bounded reads, locks, atomic
//! replacement and the all-or-nothing multi-file commit. Every tool takes
//! a [`ToolContext`] (a [`Workspace`], an optional [`Session`], the
//! surface) and its argument struct, and returns an [`Outcome`] (the text
//! the model reads and typed [`Facts`]) or a [`ToolError`]. The CLI, the
//! MCP server and the bindings call these, so they cannot disagree.

mod args;
mod cancel;
mod context;
mod error;
mod fsio;
mod outcome;
mod search;
mod session;
mod tools;
mod workspace;

pub use args::{
    ContextLines, EditArgs, GlobArgs, GrepArgs, ListDirArgs, OutputMode, ReadFileArgs, WriteArgs,
};
pub use cancel::CancelToken;
pub use context::{Diffs, ToolContext};
pub use error::{ErrorKind, ToolError, ToolResult};
pub use fsio::{is_temp_leftover, remove_unfinished_temp_files};
pub use outcome::{
    EditFacts, EditedFile, Facts, GlobFacts, GlobSkipped, GrepFacts, GrepFile, GrepMatch,
    GrepSkipped, Image, ImageFacts, ListDirFacts, ListEntry, Outcome, ReadFacts, Served, Unpasted,
    WriteFacts,
};
pub use session::{MAX_REGISTER_BYTES, MAX_REGISTERS, Session, SnapshotMemory};
pub use tools::{
    EDIT_MAX_BYTES, EditMode, ToolName, edit, glob, grep, list_dir, looks_like_read_output,
    looks_like_read_rows, read_file, write,
};
pub use workspace::{
    DEFAULT_PROTECTED_NAMES, MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_SYMLINK_HOPS, Protected,
    Protection, Resolve, ResolvedPath, Workspace, display_path, os_to_raw, parse_quoted, raw_path,
    raw_to_os,
};
