//! The `glob` tool and the path glob it shares with `grep`'s filter.

use std::ops::ControlFlow;

use globset::{GlobBuilder, GlobMatcher};
use hashedit_core::truncate_to_budget;
use serde_json::json;

use super::budget::{fit, listing_tail, render_listing};
use super::walk::{WalkItem, check_target, visit_files};
use super::{
    DEFAULT_MAX_RESULTS, Limits, MAX_RESULTS_CEILING, OUTPUT_BUDGET, SearchOptions, SearchScope,
    Stop, budget_reason, clamp_cap, plural, unreadable_dirs_reason, with_reasons, workspace_path,
};
use crate::args::GlobArgs;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::outcome::Outcome;
use crate::workspace::{display_path, raw_path};

/// What `glob` tells the model it can narrow.
const NARROW: &str = "the pattern or path";

/// A user glob over `/`-separated relative paths (reference-rho.md §5).
///
/// `*` and `?` never cross `/`; `**` does. A pattern without `/` gets `**/`
/// in front so it matches at any depth (`*.rs` finds `src/a.rs`). A leading
/// `!` inverts the match, as in `rg -g '!*_test.rs'`.
#[derive(Debug, Clone)]
pub(crate) struct PathGlob {
    matcher: GlobMatcher,
    exclude: bool,
}

impl PathGlob {
    /// Compiles `pattern`.
    ///
    /// Errors: [`ErrorKind::InvalidArguments`], `invalid glob '{pattern}': …`.
    pub(crate) fn compile(pattern: &str) -> ToolResult<PathGlob> {
        let (exclude, positive) = match pattern.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, pattern),
        };
        let invalid = |why: String| {
            ToolError::new(
                ErrorKind::InvalidArguments,
                format!("invalid glob '{pattern}': {why}"),
            )
        };
        if positive.is_empty() {
            return Err(invalid(
                "the pattern is empty; try '*.rs' or 'src/**'".into(),
            ));
        }
        let anchored = if positive.contains('/') {
            positive.to_string()
        } else {
            format!("**/{positive}")
        };
        let glob = GlobBuilder::new(&anchored)
            .literal_separator(true)
            .build()
            .map_err(|e| invalid(e.kind().to_string()))?;
        Ok(PathGlob {
            matcher: glob.compile_matcher(),
            exclude,
        })
    }

    /// Whether `relative` (a `/`-separated path) is selected.
    pub(crate) fn matches(&self, relative: &str) -> bool {
        self.matcher.is_match(relative) != self.exclude
    }
}

/// Entries a glob walk met but did not list.
#[derive(Debug, Default, Clone, Copy)]
struct GlobSkipped {
    /// FIFOs, sockets and devices whose path matched the pattern.
    special: usize,
    /// Directories that could not be read (their contents were not seen).
    unreadable_dirs: usize,
    /// Other entries that could not be examined.
    unreadable: usize,
}

impl GlobSkipped {
    fn reasons(&self) -> impl Iterator<Item = String> {
        let special = (self.special > 0).then(|| {
            format!(
                "{} not listed (FIFO, socket or device)",
                plural(self.special, "special file", "special files")
            )
        });
        let entries = (self.unreadable > 0).then(|| {
            format!(
                "{} skipped",
                plural(self.unreadable, "unreadable entry", "unreadable entries")
            )
        });
        [
            special,
            unreadable_dirs_reason(self.unreadable_dirs),
            entries,
        ]
        .into_iter()
        .flatten()
    }
}

/// [`glob_with`] with the default [`SearchOptions`].
#[cfg(test)]
pub(crate) fn glob(
    scope: &SearchScope,
    args: &GlobArgs,
    max_output_bytes: usize,
) -> ToolResult<Outcome> {
    glob_with(scope, args, max_output_bytes, &SearchOptions::default())
}

/// Lists files matching a glob, in walk order (reference-rho.md §5).
///
/// The output and the errors are the public tool's: see [`crate::glob`].
///
/// [`SearchOptions`] used: time limit, entry limit and
/// cancellation (`threads` is not: glob reads no file contents).
pub fn glob_with(
    scope: &SearchScope,
    args: &GlobArgs,
    max_output_bytes: usize,
    options: &SearchOptions,
) -> ToolResult<Outcome> {
    let pattern = PathGlob::compile(&args.pattern)?;
    let max_results = clamp_cap(args.max_results, DEFAULT_MAX_RESULTS, MAX_RESULTS_CEILING);
    check_target(scope.target, scope.display)?;
    let base = raw_path(scope.display);
    let limits = Limits::start(options);
    let mut paths = Vec::new();
    let mut skipped = GlobSkipped::default();
    let stop = visit_files(
        scope.target,
        args.include_hidden.unwrap_or(false),
        &limits,
        |item| {
            let (file, special) = match item {
                WalkItem::File(file) => (file, false),
                WalkItem::Special(file) => (file, true),
                WalkItem::Unreadable { directory } => {
                    if directory {
                        skipped.unreadable_dirs += 1;
                    } else {
                        skipped.unreadable += 1;
                    }
                    return ControlFlow::Continue(());
                }
            };
            let matched = if file.relative.is_empty() {
                pattern.matches(&base)
            } else {
                pattern.matches(&file.relative)
            };
            if !matched {
                return ControlFlow::Continue(());
            }
            if special {
                skipped.special += 1;
                return ControlFlow::Continue(());
            }
            paths.push(workspace_path(&base, &file.relative));
            if paths.len() >= max_results {
                return ControlFlow::Break(Stop::ResultLimit);
            }
            ControlFlow::Continue(())
        },
    );

    let summary = |shown: usize, cut: bool| {
        let mut reasons = Vec::new();
        if cut {
            reasons.push(budget_reason(max_output_bytes, NARROW));
        }
        // Under a budget cut, more results would not have been shown anyway.
        if let Some(stop) = stop.filter(|s| !(cut && *s == Stop::ResultLimit)) {
            reasons.push(stop.describe(NARROW, &limits));
        }
        reasons.extend(skipped.reasons());
        if paths.is_empty() {
            with_reasons(
                format!(
                    "no files matching '{}' under {}",
                    args.pattern, scope.display
                ),
                &reasons,
            )
        } else if shown == 0 {
            // Found, but not one path fits: not the same as "0 files".
            with_reasons(
                format!("{} found, none shown", plural(paths.len(), "file", "files")),
                &reasons,
            )
        } else {
            with_reasons(plural(shown, "file", "files"), &reasons)
        }
    };
    let rows: Vec<_> = paths.iter().map(|p| display_path(p)).collect();
    let units: Vec<usize> = rows.iter().map(|row| row.len() + 1).collect();
    let shown = fit(&units, max_output_bytes, |k, cut| {
        listing_tail(k, summary(k, cut).len())
    });
    let text = render_listing(
        rows[..shown.shown].iter().map(|row| row.as_ref()),
        &summary(shown.shown, shown.cut),
    );
    let stop_name = if shown.cut {
        Some(OUTPUT_BUDGET)
    } else {
        stop.map(Stop::name)
    };
    let structured = json!({
        "paths": paths[..shown.shown],
        "count": shown.shown,
        "stop": stop_name,
        "skipped": {
            "special": skipped.special,
            "unreadable_dirs": skipped.unreadable_dirs,
            "unreadable": skipped.unreadable,
        },
    });
    Ok(Outcome::new(
        truncate_to_budget(text, max_output_bytes),
        structured,
    ))
}

#[cfg(test)]
mod tests;
