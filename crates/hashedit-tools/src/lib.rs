//! # hashedit-tools
//!
//! The six hashline tools over a workspace: `read_file`, `grep`, `glob`,
//! `list_dir`, `write` and `edit`. All file I/O of hashedit lives here:
//! workspace confinement, bounded reads, special-file refusal, per-file
//! locks, atomic replacement and the all-or-nothing multi-file commit.
//! Formats and rules come from the pure `hashline` crate.

pub mod args;
mod cancel;
pub mod context;
pub mod error;
mod fsio;
pub mod outcome;
pub mod search;
pub mod session;
pub mod tools;
pub mod workspace;

pub use cancel::CancelToken;
pub use context::ToolContext;
pub use error::{ErrorKind, ToolError, ToolResult};
pub use fsio::{is_temp_leftover, remove_unfinished_temp_files};
pub use outcome::{Image, Outcome};
pub use session::Session;
