//! `hashedit`: the hashline tools for people, scripts and shell-only agents.
//!
//! A thin layer over `hashedit-tools`: each subcommand fills a tool's
//! argument struct, runs it against the workspace root, and prints exactly
//! the text a model would get (FORMAT.md §8.3). Exit status: 0 success, 1
//! tool error (stale tag, parse error, …), 2 usage error.
//!
//! The command line is a library function, [`run_from`], so the Python and
//! Node packages (`bindings/`) ship the very same CLI, `mcp` included, as
//! their `hashedit` command without bundling a second binary.

mod cli;
mod registry;

pub use cli::{run, run_from};

/// The repository README, whose Rust example `cargo test --doc -p hashedit`
/// compiles and runs (its other code blocks run in scripts/test-packaging).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
