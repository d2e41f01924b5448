//! The search tools: [`grep_with`], [`glob_with`] and [`list_dir_with`], on
//! a [`SearchScope`] already resolved and confined. `grep` and `glob` share
//! one bounded, deterministic walk (module `walk`); paths are printed with
//! [`crate::workspace::display_path`], which `resolve` reads back; replies
//! fit the output budget row by row (module `budget`), the summary always
//! last (FORMAT.md §4.3, §8.1).

use std::path::Path;
use std::time::{Duration, Instant};

use hashedit_core::{Name, Surface};

use crate::cancel::CancelToken;

mod budget;
mod glob;
mod grep;
mod list_dir;
mod walk;

pub(crate) use glob::glob_with;
pub(crate) use grep::grep_with;
pub(crate) use list_dir::list_dir_with;

/// Default cap on results for `grep` (matching lines in content mode, files
/// otherwise) and `glob` (paths), as Rho's (FORMAT.md §4.3).
pub(crate) const DEFAULT_MAX_RESULTS: usize = 200;
/// Default cap on matching lines shown per file by `grep`.
pub(crate) const DEFAULT_MAX_PER_FILE: usize = 10;
/// Files larger than this many bytes (5 MiB) are skipped by a `grep` walk.
pub(crate) const MAX_GREP_FILE_BYTES: u64 = 5 * 1024 * 1024;
/// A file named as `grep`'s `path` is searched up to this many bytes
/// (64 MiB); a larger one is reported as not searched, by name.
pub(crate) const MAX_NAMED_GREP_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// Characters of a matching line shown by `grep` before it is cut with `…`.
pub(crate) const MAX_PREVIEW_CHARS: usize = 200;
/// Heap cap (bytes) for compiling a `grep` pattern, and separately for its
/// lazy DFA: 10 MiB each.
pub(crate) const REGEX_SIZE_LIMIT: usize = 10 * 1024 * 1024;
/// A walk stops after this many directory entries (files, directories and
/// anything else it meets, the root included).
pub(crate) const MAX_WALK_ENTRIES: usize = 200_000;
/// Wall-clock budget of one `grep` or `glob` call.
pub(crate) const SEARCH_TIME_LIMIT: Duration = Duration::from_secs(15);
/// Environment variable that pins the number of `grep` worker threads when
/// [`SearchOptions::threads`] is not set (a positive integer).
pub(crate) const THREADS_ENV: &str = "HASHEDIT_THREADS";

/// What to search: paths the caller has already resolved and confined.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SearchScope<'a> {
    /// Canonical workspace root.
    pub root: &'a Path,
    /// Canonical directory (or, for `grep` and `glob`, regular file) to
    /// search; inside `root`.
    pub target: &'a Path,
    /// Workspace-relative path of `target` as
    /// [`crate::workspace::ResolvedPath::display`] spells it (quoted and
    /// escaped when it holds a control character), `"."` for the root
    /// itself. Printed paths are its unquoted form joined with the
    /// walk-relative path, then spelled the same way.
    pub display: &'a str,
}

/// Knobs for a search call beyond the tool arguments: parallelism, bounds
/// and cancellation. [`SearchOptions::default`] gives the production values.
#[derive(Debug, Clone)]
pub(crate) struct SearchOptions {
    /// Worker threads for `grep`. `None`: the [`THREADS_ENV`] variable if it
    /// holds a positive integer, else [`std::thread::available_parallelism`].
    /// `Some(1)` searches on the calling thread. Output never depends on it.
    pub threads: Option<usize>,
    /// Wall-clock budget of the call (default [`SEARCH_TIME_LIMIT`]).
    pub time_limit: Duration,
    /// Directory entries a walk may visit (default [`MAX_WALK_ENTRIES`]).
    pub max_entries: usize,
    /// When another thread raises it, the search stops at the next entry
    /// or file and reports itself as cancelled.
    pub cancel: Option<CancelToken>,
    /// Whether `list_dir` shows hashedit's unfinished temp files
    /// (`.hashedit-<16 hex>.tmp`, left by a killed process); `glob` and
    /// `grep` show them with `include_hidden`.
    pub leftovers: Leftovers,
    /// The surface the reply is worded for.
    pub surface: Surface,
}

/// Whether a listing shows hashedit's unfinished temp files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Leftovers {
    /// Left out: they are never anyone's content (the default).
    #[default]
    Hide,
    /// Listed, so a user can find what a killed process left (the CLI's
    /// `ls --hidden`).
    Show,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: None,
            time_limit: SEARCH_TIME_LIMIT,
            max_entries: MAX_WALK_ENTRIES,
            cancel: None,
            leftovers: Leftovers::Hide,
            surface: Surface::Mcp,
        }
    }
}

impl SearchOptions {
    /// The number of worker threads this call uses (at least 1).
    pub(crate) fn thread_count(&self) -> usize {
        let chosen = self.threads.or_else(|| {
            std::env::var(THREADS_ENV)
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok())
                .filter(|&n| n > 0)
        });
        chosen
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, 64)
    }
}

/// Why a search returned less than the whole answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// `max_results` was reached.
    ResultLimit,
    /// The walk visited its maximum number of entries.
    ScanLimit,
    /// The time budget ran out.
    TimeLimit,
    /// The caller cancelled the call.
    Cancelled,
}

impl Stop {
    /// The machine-readable name used in structured output.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Stop::ResultLimit => "result_limit",
            Stop::ScanLimit => "scan_limit",
            Stop::TimeLimit => "time_limit",
            Stop::Cancelled => "cancelled",
        }
    }

    /// The model-facing reason; `narrow` names what the tool can narrow.
    pub(crate) fn describe(self, narrow: &str, limits: &Limits) -> String {
        match self {
            Stop::ResultLimit => format!(
                "{} reached; narrow {narrow} to see the rest",
                limits.surface.name(Name::MaxResults)
            ),
            Stop::ScanLimit => format!(
                "walk stopped after {} entries; search a narrower path",
                limits.max_entries
            ),
            Stop::TimeLimit => format!(
                "time limit of {} reached; search a narrower path",
                human_duration(limits.time_limit)
            ),
            Stop::Cancelled => "cancelled".to_string(),
        }
    }
}

/// Name of the budget stop in structured output.
pub(crate) const OUTPUT_BUDGET: &str = "output_budget";

/// The reason given when rows were left out for the output budget; `narrow`
/// names what the tool can narrow.
pub(crate) fn budget_reason(budget: usize, narrow: &str) -> String {
    format!("output budget of {budget} bytes reached; narrow {narrow} to see the rest")
}

/// The reason given for directories the walk could not read.
pub(crate) fn unreadable_dirs_reason(n: usize) -> Option<String> {
    (n > 0).then(|| {
        format!(
            "{} skipped",
            plural(n, "unreadable directory", "unreadable directories")
        )
    })
}

fn human_duration(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// The bounds of one call, checked by the walk and by grep's workers.
#[derive(Debug)]
pub(crate) struct Limits {
    pub(crate) deadline: Instant,
    pub(crate) time_limit: Duration,
    pub(crate) max_entries: usize,
    pub(crate) cancel: Option<CancelToken>,
    /// The surface the reply is worded for.
    pub(crate) surface: Surface,
}

impl Limits {
    pub(crate) fn start(options: &SearchOptions) -> Limits {
        let now = Instant::now();
        Limits {
            deadline: now
                .checked_add(options.time_limit)
                .unwrap_or(now + SEARCH_TIME_LIMIT),
            time_limit: options.time_limit,
            max_entries: options.max_entries,
            cancel: options.cancel.clone(),
            surface: options.surface,
        }
    }

    /// `Some` once the call must stop for cancellation or time.
    pub(crate) fn check(&self) -> Option<Stop> {
        if self.cancel.as_ref().is_some_and(CancelToken::is_cancelled) {
            Some(Stop::Cancelled)
        } else if Instant::now() >= self.deadline {
            Some(Stop::TimeLimit)
        } else {
            None
        }
    }
}

/// A caller's cap, `default` when absent, at least 1. A cap the caller
/// raised is honoured as given (the output budget still bounds the
/// reply), never lowered behind their back.
pub(crate) fn clamp_cap(value: Option<usize>, default: usize) -> usize {
    value.unwrap_or(default).max(1)
}

/// The reason given for entries ignore rules kept out of a search.
pub(crate) fn ignored_reason(n: usize, surface: Surface) -> Option<String> {
    (n > 0).then(|| {
        format!(
            "{} skipped by .gitignore/.ignore rules, which {} lifts",
            plural(n, "entry", "entries"),
            surface.name(Name::NoIgnore)
        )
    })
}

/// `"1 file"`, `"2 files"`.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Appends `" (r1; r2)"` to `counts` when there are reasons.
pub(crate) fn with_reasons(counts: String, reasons: &[String]) -> String {
    if reasons.is_empty() {
        counts
    } else {
        format!("{counts} ({})", reasons.join("; "))
    }
}

/// Joins the scope's display path with a walk-relative path (`""` for a
/// file target), giving the workspace-relative path the model sees.
pub(crate) fn workspace_path(display: &str, relative: &str) -> String {
    if relative.is_empty() {
        display.to_string()
    } else if display.is_empty() || display == "." {
        relative.to_string()
    } else {
        format!("{}/{relative}", display.trim_end_matches('/'))
    }
}

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod tests;
