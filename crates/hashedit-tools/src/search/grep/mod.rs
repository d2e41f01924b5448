//! The `grep` tool: a regex search over the hashline line model, in
//! parallel with deterministic output (FORMAT.md §4.3).
//!
//! A pattern matches per line of the line model, so `^needle$` matches
//! `needle\r\n` and never spans lines. `grep-searcher` finds candidate
//! lines fast; each is confirmed with the `regex` crate on the exact line
//! (every line is checked exactly where the candidate matcher cannot be
//! trusted: an end anchor before a `\r`, a pattern it refuses). Files come
//! from the walk and are read through [`crate::fsio`]'s confined reader;
//! the tag is computed only for files with matches. The walking thread
//! hands files to an ordered parallel map (`parallel`), whose results are
//! taken in walk order, so caps apply as in a sequential run and the
//! output is the same for any thread count. `request` validates the call,
//! `scan` searches one file, `answer` applies the caps and renders.

use std::ops::ControlFlow;
use std::path::Path;

use hashedit_core::{TagScheme, truncate_to_budget};

use super::glob::{join_relative, literal_prefix};
use super::walk::{WalkItem, WalkedFile, check_target, visit_counting_ignored};
use super::{Limits, SearchOptions, SearchScope, Stop};
use crate::args::GrepArgs;
use crate::error::ToolResult;
use crate::outcome::Outcome;
use crate::workspace::raw_path;

mod answer;
mod dialect;
mod parallel;
mod request;
mod scan;

use answer::{Answer, Collector};
use parallel::run_ordered;
use request::Request;
use scan::{Scan, Scanner, Skip};

/// [`grep_with`] with the default [`SearchOptions`].
#[cfg(test)]
pub(crate) fn grep(
    scope: &SearchScope,
    args: &GrepArgs,
    scheme: TagScheme,
    max_output_bytes: usize,
) -> ToolResult<Outcome> {
    grep_with(
        scope,
        args,
        scheme,
        max_output_bytes,
        &SearchOptions::default(),
    )
}

/// The `grep` tool on a resolved scope (see [`crate::grep`]).
pub(crate) fn grep_with(
    scope: &SearchScope,
    args: &GrepArgs,
    scheme: TagScheme,
    max_output_bytes: usize,
    options: &SearchOptions,
) -> ToolResult<Outcome> {
    let request = Request::compile(args, scheme, options.surface)?;
    check_target(scope.target, scope.display)?;
    let base = raw_path(scope.display);
    let limits = Limits::start(options);
    let mut collector = Collector::new(&request, &base, scope.display);
    collector.file_target = is_file(scope.target);
    let threads = if collector.file_target {
        1
    } else {
        options.thread_count()
    };
    let walk_stop = search(scope, &base, &request, &limits, &mut collector, threads);
    let answer = Answer {
        collector: &collector,
        stop: collector.stop.or(walk_stop),
        limits: &limits,
        budget: max_output_bytes,
    };
    let view = answer.fit();
    let mut outcome = Outcome::new(
        truncate_to_budget(answer.render(&view), max_output_bytes),
        answer.facts(&view),
    );
    // The headers actually shown are snapshots served to the model.
    outcome.served = answer.served(&view, scope.root);
    Ok(outcome)
}

fn is_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

/// Walks the target, searches its files on `threads` threads and feeds
/// the results to `collector` in walk order; returns why the walk stopped
/// early, if it did.
fn search(
    scope: &SearchScope,
    base: &str,
    request: &Request,
    limits: &Limits,
    collector: &mut Collector,
    threads: usize,
) -> Option<Stop> {
    let (stop, ignored) = search_counting(scope, base, request, limits, collector, threads);
    collector.ignored(ignored);
    stop
}

/// [`search`], also returning what ignore rules kept out.
fn search_counting(
    scope: &SearchScope,
    base: &str,
    request: &Request,
    limits: &Limits,
    collector: &mut Collector,
    threads: usize,
) -> (Option<Stop>, usize) {
    let scanner = || {
        let mut scanner = Scanner::new(request, limits, scope.root);
        move |file: WalkedFile| scanner.scan(file)
    };
    let mut consume = |(relative, scan): (String, Scan)| collector.take(&relative, scan);
    let skipped = |skip| (String::new(), Scan::Skipped(skip));
    // One glob that starts with literal directories (`build/**`,
    // `.github/**`) is walked from there, so a directory it names is
    // searched even when ignore rules would skip it from the top.
    let prefix = request
        .glob
        .single_positive()
        .map(|glob| literal_prefix(scope.target, glob))
        .unwrap_or_default();
    let walk_root = if prefix.is_empty() {
        scope.target.to_path_buf()
    } else {
        scope.target.join(&prefix)
    };
    let rebase = |mut file: WalkedFile| {
        file.relative = join_relative(&prefix, &file.relative);
        file
    };
    run_ordered(threads, scanner, &mut consume, |feed| {
        visit_counting_ignored(&walk_root, &request.rules, limits, |item| match item {
            WalkItem::Unreadable { directory } => feed.done(skipped(unreadable(directory))),
            WalkItem::Special(file) if request.selects(&rebase(file.clone()), base) => {
                feed.done(skipped(Skip::Special))
            }
            WalkItem::File(file) => {
                let file = rebase(file);
                if request.selects(&file, base) {
                    feed.job(file)
                } else {
                    ControlFlow::Continue(())
                }
            }
            WalkItem::Special(_) | WalkItem::Symlink(_) | WalkItem::Hidden(_) => {
                ControlFlow::Continue(())
            }
        })
    })
}

/// The skip bucket of an entry the walk could not read.
fn unreadable(directory: bool) -> Skip {
    if directory {
        Skip::UnreadableDir
    } else {
        Skip::Unreadable
    }
}

#[cfg(test)]
mod tests;
