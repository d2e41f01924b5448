//! # hashedit-tools
//!
//! The six hashline tools over a workspace: [`read_file`], [`grep`],
//! [`glob`], [`list_dir`], [`write`](fn@write) and [`edit`](fn@edit). All file I/O of hashedit
//! lives here: workspace confinement, bounded reads, special-file refusal,
//! per-file locks, atomic replacement and the all-or-nothing multi-file
//! commit. Formats and rules come from the pure `hashedit-core` crate.
//!
//! The modules are private; everything public is re-exported here:
//!
//! - **Where**: a [`Workspace`] (the root every path is confined to) and
//!   a [`ToolContext`] (workspace, optional [`Session`], [`CancelToken`]
//!   and block grammar) that every tool takes.
//! - **What**: one argument struct per tool ([`ReadFileArgs`],
//!   [`GrepArgs`], [`GlobArgs`], [`ListDirArgs`], [`WriteArgs`],
//!   [`EditArgs`]), deserializable from the MCP tools' JSON arguments.
//! - **Answers**: an [`Outcome`] (the text the model reads plus structured
//!   facts) or a [`ToolError`] whose [`ErrorKind`] is machine-readable.
//!
//! The CLI and the MCP server call these functions and print the same
//! text, so they cannot disagree.

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
