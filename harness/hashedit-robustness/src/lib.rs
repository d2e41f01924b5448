//! # hashedit-robustness
//!
//! An offline benchmark of what matters most to an agent editing with
//! hashline: how often a model-written document lands exactly as intended,
//! is refused with an actionable error, or is applied wrongly.
//!
//! * [`corpus`]: real files of pinned packages (`scripts/robustness-corpus`).
//! * [`mutate`]: tasks by seeded mutation, sites chosen with tree-sitter.
//! * [`hunks`]: line diffs and the reference applier that defines intent.
//! * [`document`], [`mistakes`]: the oracle document and its variants
//!   carrying the mistakes models make, each with its intended result.
//! * [`literal`]: what a document gives applied exactly as written, so a
//!   refusal can be told to have prevented a wrong write.
//! * [`forms`]: one edit written as each tool's payload (`PUT`/`CUT` and
//!   `SUB` documents, `str_replace` calls, `apply_patch` patches, unified
//!   diffs), each checked to land by a strict reference reading.
//! * [`engine`]: the engines (hashedit through its tools layer; the peers
//!   through `hashedit-peers`), [`score`]: the verdicts, [`signal`]: which
//!   guard refused or warned, [`tokens`]: payload size, [`bench`](mod@bench) and
//!   [`report`]: the run and its tables.
//! * [`real`], [`real_bench`]: the second corpus, real human edits from
//!   consecutive package versions (`scripts/real-edits-corpus`), where
//!   every refusal or warning is a false alarm; [`views`]: the reads made
//!   before each edit (the whole file, or windows around the hunks).
//! * [`content`], [`content_bench`]: edits addressed by content
//!   (`str_replace`, `apply_patch`, `SUB`) and the mistakes a model makes
//!   with them, through the engines of each form.
//! * [`token_bench`]: what each form of each real edit costs in tokens.
//!
//! ```text
//! scripts/robustness-corpus
//! cargo run --release -p hashedit-robustness -- --tasks 2000 --seed 1
//! ```
//!
//! Not part of the product (`publish = false`).

pub mod bench;
pub mod content;
pub mod content_bench;
pub mod corpus;
pub mod document;
pub mod dump;
pub mod engine;
pub mod forms;
pub mod hunks;
pub mod lang;
pub mod literal;
pub mod mistakes;
pub mod mutate;
pub mod peers;
pub mod real;
pub mod real_bench;
pub mod report;
pub mod rng;
pub mod score;
pub mod signal;
pub mod token_bench;
pub mod tokens;
pub mod views;
