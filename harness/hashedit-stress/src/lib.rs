//! Reliability harness for hashedit (issue 5): it drives the real
//! `hashedit` binary — CLI and MCP server — and measures what the product
//! promises in FORMAT.md §6.4.
//!
//! * [`crash`]: SIGKILL during `edit` and `write` at random and aimed
//!   instants, then check every file is exactly old or new with its mode,
//!   owner, symlinks and hard links, and classify leftovers.
//! * [`race`]: many writers on one snapshot (one must win, the others get
//!   a stale tag), and hashedit against a writer that takes no lock.
//! * [`bench`](mod@bench): hostile inputs too big for a unit test (a 1 GB line, a
//!   2 GB file, a million ops), with wall time and peak RSS.
//!
//! The `hashedit-stress` binary runs them with figures for
//! docs/RELIABILITY.md; the integration tests of the `hashedit` crate run
//! small versions on every `cargo test`.

pub mod bench;
pub mod client;
pub mod corpus;
pub mod crash;
pub mod facts;
pub mod fixture;
pub mod race;
pub mod rng;
