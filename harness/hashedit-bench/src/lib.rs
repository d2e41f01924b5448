//! # hashedit-bench
//!
//! The harness behind `scripts/bench` (docs/PERFORMANCE.md), not part of
//! the product. The script drives the `hashedit-bench` binary for the parts
//! that need Rust:
//!
//! * [`inputs`]: deterministic inputs: source-like files of N lines, a log of
//!   N bytes, and edit documents of N hunks for a file;
//! * [`inproc`]: per-call latency of the tools called in process, ours
//!   (`hashedit_tools::tools`) and Rho's (`rho-agent-tools` through
//!   `hashedit_peers::rho`), interleaved call by call;
//! * [`mcp`]: an MCP client over stdio that keeps one session per server
//!   and times each `tools/call` round trip, alternating between servers.
//!
//! Every command prints one JSON object on stdout; timings are in
//! microseconds.

pub mod inproc;
pub mod inputs;
pub mod mcp;
pub mod stats;
