//! The `glob` tool and the path glob it shares with `grep`'s filter.

use std::ops::ControlFlow;
use std::path::Path;

use globset::{GlobBuilder, GlobMatcher, GlobSetBuilder};
use hashedit_core::{Name, Surface, truncate_to_budget};
use unicode_normalization::UnicodeNormalization;

use super::budget::{fit, listing_tail, render_listing};
use super::walk::{Hidden, IgnoreRules, WalkItem, WalkRules, check_target, visit_counting_ignored};
use super::{
    DEFAULT_MAX_RESULTS, Limits, OUTPUT_BUDGET, SearchOptions, SearchScope, Stop, budget_reason,
    clamp_cap, ignored_reason, plural, unreadable_dirs_reason, with_reasons, workspace_path,
};
use crate::args::GlobArgs;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::outcome::{GlobFacts, GlobSkipped, Outcome};
use crate::workspace::{display_path, raw_path, unicode_form};

/// What `glob` tells the model it can narrow.
const NARROW: &str = "the pattern or path";

/// A user glob over `/`-separated relative paths: `*` and `?` never cross
/// `/`, `**` does, a pattern without `/` matches at any depth, a leading
/// `!` inverts the match, and names equal under Unicode normalisation
/// match alike (FORMAT.md §8.1, §8.5).
#[derive(Debug, Clone)]
pub(crate) struct PathGlob {
    matcher: GlobMatcher,
    exclude: bool,
    /// The pattern as written, when that is not its NFC form (a path it
    /// matches matched as written, with no normalisation to note).
    written: Option<GlobMatcher>,
}

/// How a path matched a [`PathGlob`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GlobMatch {
    /// Not selected.
    No,
    /// Selected by its stored spelling.
    Exact,
    /// Selected only once its name was normalised to NFC: the stored
    /// spelling differs from the pattern's in composition.
    Normalised,
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
        let build = |positive: &str| {
            let anchored = if positive.contains('/') {
                positive.to_string()
            } else {
                format!("**/{positive}")
            };
            GlobBuilder::new(&anchored)
                .literal_separator(true)
                .build()
                .map(|glob| glob.compile_matcher())
                .map_err(|e| invalid(e.kind().to_string()))
        };
        let composed: String = positive.nfc().collect();
        let written = if composed == positive {
            None
        } else {
            Some(build(positive)?)
        };
        Ok(PathGlob {
            matcher: build(&composed)?,
            exclude,
            written,
        })
    }

    /// Whether `relative` (a `/`-separated path) is selected. An excluding
    /// glob also drops what lies under a directory it matches, as
    /// `rg -g '!node_modules'` does: `!src` leaves out `src/a.rs`.
    pub(crate) fn matches(&self, relative: &str) -> bool {
        self.match_kind(relative) != GlobMatch::No
    }

    /// [`PathGlob::matches`], telling apart a path selected only under
    /// Unicode normalisation (the reply notes it).
    pub(crate) fn match_kind(&self, relative: &str) -> GlobMatch {
        if relative.is_ascii() {
            return if self.raw_match(&self.matcher, relative) {
                GlobMatch::Exact
            } else {
                GlobMatch::No
            };
        }
        let composed: String = relative.nfc().collect();
        if !self.raw_match(&self.matcher, &composed) {
            return GlobMatch::No;
        }
        let written = self.written.as_ref().unwrap_or(&self.matcher);
        if self.raw_match(written, relative) {
            GlobMatch::Exact
        } else {
            GlobMatch::Normalised
        }
    }

    fn raw_match(&self, matcher: &GlobMatcher, relative: &str) -> bool {
        if !self.exclude {
            return matcher.is_match(relative);
        }
        let ancestors = relative.match_indices('/').map(|(at, _)| &relative[..at]);
        !ancestors
            .chain([relative])
            .any(|path| matcher.is_match(path))
    }
}

/// The hidden-entry rule for a walk over `patterns` (FORMAT.md §8.1):
/// `include_hidden` includes every hidden entry; otherwise a segment of a
/// positive pattern that starts with a literal `.` (`.github` in
/// `.github/workflows/*.yml`, `.eslintrc.json`, `.env*`) names the hidden
/// entries it matches, which are then walked.
pub(crate) fn hidden_rule<'p>(
    include_hidden: bool,
    patterns: impl IntoIterator<Item = &'p str>,
) -> Hidden {
    if include_hidden {
        return Hidden::Include;
    }
    let mut names = GlobSetBuilder::new();
    let mut any = false;
    for pattern in patterns {
        if pattern.starts_with('!') {
            continue;
        }
        for segment in pattern
            .split('/')
            .filter(|s| s.starts_with('.') && *s != "." && *s != "..")
        {
            if let Ok(glob) = GlobBuilder::new(segment).literal_separator(true).build() {
                names.add(glob);
                any = true;
            }
        }
    }
    match names.build() {
        Ok(set) if any => Hidden::Named(set),
        _ => Hidden::Skip,
    }
}

/// The walk of [`glob_with`]: the matching paths (workspace-relative,
/// unquoted, at most `max_results`) in walk order, and why the walk
/// stopped early; `skipped` counts what was met but not listed.
fn collect_paths(
    scope: &SearchScope,
    args: &GlobArgs,
    pattern: &PathGlob,
    max_results: usize,
    limits: &Limits,
    skipped: &mut Passed,
) -> (Vec<String>, Option<Stop>) {
    let mut paths = Vec::new();
    let rules = WalkRules {
        hidden: hidden_rule(
            args.include_hidden.unwrap_or(false),
            [args.pattern.as_str()],
        ),
        ignore: if args.no_ignore.unwrap_or(false) {
            IgnoreRules::Off
        } else {
            IgnoreRules::Honour
        },
    };
    let base = raw_path(scope.display);
    // A pattern that starts with literal directories (`build/**`,
    // `.github/workflows/*.yml`) is walked from there: a directory the
    // pattern names is searched even when ignore rules or the hidden rule
    // would skip it from the top (FORMAT.md §8.1).
    let prefix = literal_prefix(scope.target, &args.pattern);
    let walk_root = if prefix.is_empty() {
        scope.target.to_path_buf()
    } else {
        scope.target.join(&prefix)
    };
    let (stop, ignored) = visit_counting_ignored(&walk_root, &rules, limits, |item| {
        let (file, counter) = match item {
            WalkItem::File(file) => (file, None),
            WalkItem::Special(file) => (file, Some(&mut skipped.special)),
            WalkItem::Symlink(file) => (file, Some(&mut skipped.symlinks)),
            WalkItem::Hidden(file) => (file, Some(&mut skipped.hidden)),
            WalkItem::Unreadable { directory: true } => {
                skipped.unreadable_dirs += 1;
                return ControlFlow::Continue(());
            }
            WalkItem::Unreadable { directory: false } => {
                skipped.unreadable += 1;
                return ControlFlow::Continue(());
            }
        };
        let relative = join_relative(&prefix, &file.relative);
        let shown: &str = if relative.is_empty() {
            &base
        } else {
            &relative
        };
        let matched = pattern.match_kind(shown);
        if matched == GlobMatch::No {
            return ControlFlow::Continue(());
        }
        // What matches but is not a file is counted, not listed.
        if let Some(counter) = counter {
            *counter += 1;
            return ControlFlow::Continue(());
        }
        // One path past the cap proves there is more to see.
        if paths.len() == max_results {
            return ControlFlow::Break(Stop::ResultLimit);
        }
        if matched == GlobMatch::Normalised {
            skipped.normalised.push(paths.len());
        }
        paths.push(workspace_path(&base, &relative));
        ControlFlow::Continue(())
    });
    skipped.ignored = ignored;
    (paths, stop)
}

/// The leading directories of `pattern` that hold no glob syntax and
/// exist below `target` as real directories (no symlink), `/`-joined;
/// empty when there are none. The last segment is never included: it is
/// what is matched.
pub(crate) fn literal_prefix(target: &Path, pattern: &str) -> String {
    if !pattern.contains('/') || pattern.starts_with('!') {
        return String::new();
    }
    let segments: Vec<&str> = pattern.split('/').collect();
    let mut prefix = String::new();
    let mut dir = target.to_path_buf();
    for segment in &segments[..segments.len() - 1] {
        let literal = !segment.is_empty()
            && *segment != "."
            && *segment != ".."
            && !segment.contains(['*', '?', '[', '{', '\\']);
        if !literal {
            break;
        }
        dir.push(segment);
        if !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
            break;
        }
        if !prefix.is_empty() {
            prefix.push('/');
        }
        prefix.push_str(segment);
    }
    prefix
}

/// `prefix` and a path relative to it, `/`-joined.
pub(crate) fn join_relative(prefix: &str, relative: &str) -> String {
    match (prefix.is_empty(), relative.is_empty()) {
        (true, _) => relative.to_string(),
        (false, true) => prefix.to_string(),
        (false, false) => format!("{prefix}/{relative}"),
    }
}

/// Several path globs as one filter: every `!` glob must let the path
/// through, and when any positive glob is given, one of them must match
/// (ripgrep's repeated `-g`).
#[derive(Debug, Clone, Default)]
pub(crate) struct GlobFilter {
    positive: Vec<PathGlob>,
    negative: Vec<PathGlob>,
    /// The positive patterns as written.
    written: Vec<String>,
}

impl GlobFilter {
    /// Compiles `patterns` (each as [`PathGlob::compile`]).
    ///
    /// Errors: the first pattern's [`ErrorKind::InvalidArguments`].
    pub(crate) fn compile<'p>(
        patterns: impl IntoIterator<Item = &'p str>,
    ) -> ToolResult<GlobFilter> {
        let mut filter = GlobFilter::default();
        for pattern in patterns {
            let glob = PathGlob::compile(pattern)?;
            if glob.exclude {
                filter.negative.push(glob);
            } else {
                filter.positive.push(glob);
                filter.written.push(pattern.to_string());
            }
        }
        Ok(filter)
    }

    /// The one positive pattern, when there is exactly one (a walk can
    /// then start at its literal directories, see [`literal_prefix`]).
    pub(crate) fn single_positive(&self) -> Option<&str> {
        match self.written.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }

    /// Whether `relative` passes the filter.
    pub(crate) fn matches(&self, relative: &str) -> bool {
        self.negative.iter().all(|g| g.matches(relative))
            && (self.positive.is_empty() || self.positive.iter().any(|g| g.matches(relative)))
    }
}

/// Entries a glob walk met but did not list.
#[derive(Debug, Default, Clone)]
struct Passed {
    /// FIFOs, sockets and devices whose path matched the pattern.
    special: usize,
    /// Symbolic links whose path matched the pattern (not followed).
    symlinks: usize,
    /// Hidden entries whose path matched the pattern, kept out by the
    /// hidden rule (a hidden directory counts once, not entered).
    hidden: usize,
    /// Directories that could not be read (their contents were not seen).
    unreadable_dirs: usize,
    /// Other entries that could not be examined.
    unreadable: usize,
    /// Entries (a directory counts once) that ignore rules kept out.
    ignored: usize,
    /// Indices into the listed paths of those that matched only under
    /// Unicode normalisation (not a skip: the reply's note names them).
    normalised: Vec<usize>,
}

impl Passed {
    fn reasons(&self, surface: Surface) -> impl Iterator<Item = String> {
        let special = (self.special > 0).then(|| {
            format!(
                "{} not listed (FIFO, socket or device)",
                plural(self.special, "special file", "special files")
            )
        });
        let symlinks = (self.symlinks > 0).then(|| {
            format!(
                "{} not listed, since links are not followed: {} shows {}, and {} takes a link to a \
                 file inside the workspace",
                plural(self.symlinks, "matching symlink", "matching symlinks"),
                surface.name(Name::List),
                if self.symlinks == 1 { "it" } else { "them" },
                surface.name(Name::Read)
            )
        });
        let hidden = (self.hidden > 0).then(|| {
            format!(
                "{} not shown, which {} shows",
                plural(self.hidden, "hidden entry", "hidden entries"),
                surface.name(Name::Hidden)
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
            symlinks,
            hidden,
            unreadable_dirs_reason(self.unreadable_dirs),
            entries,
            ignored_reason(self.ignored, surface),
        ]
        .into_iter()
        .flatten()
    }
}

/// The note under a glob reply whose first `shown` paths include some
/// selected only under Unicode normalisation (`normalised` indexes
/// `paths`); `None` when none are shown.
fn normalised_note(
    pattern: &str,
    paths: &[String],
    normalised: &[usize],
    shown: usize,
) -> Option<String> {
    let names: Vec<String> = normalised
        .iter()
        .filter(|&&i| i < shown)
        .map(|&i| {
            let path = &paths[i];
            format!("'{}' ({})", display_path(path), unicode_form(path))
        })
        .collect();
    if names.is_empty() {
        return None;
    }
    Some(format!(
        "note: '{pattern}' ({}) matched {} only under Unicode normalisation: {}; listed as stored, \
         which every tool accepts",
        unicode_form(pattern),
        plural(names.len(), "path", "paths"),
        names.join(", ")
    ))
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

/// The `glob` tool on a resolved scope (see [`crate::glob`]).
pub(crate) fn glob_with(
    scope: &SearchScope,
    args: &GlobArgs,
    max_output_bytes: usize,
    options: &SearchOptions,
) -> ToolResult<Outcome> {
    let pattern = PathGlob::compile(&args.pattern)?;
    let max_results = clamp_cap(args.max_results, DEFAULT_MAX_RESULTS);
    check_target(scope.target, scope.display)?;
    let limits = Limits::start(options);
    let mut skipped = Passed::default();
    let (paths, stop) = collect_paths(scope, args, &pattern, max_results, &limits, &mut skipped);

    let summary = |shown: usize, cut: bool| {
        let mut reasons = Vec::new();
        let note = normalised_note(&args.pattern, &paths, &skipped.normalised, shown);
        if cut {
            reasons.push(budget_reason(max_output_bytes, NARROW));
        }
        // Under a budget cut, more results would not have been shown anyway.
        if let Some(stop) = stop.filter(|s| !(cut && *s == Stop::ResultLimit)) {
            reasons.push(stop.describe(NARROW, &limits));
        }
        reasons.extend(skipped.reasons(limits.surface));
        let counts = if paths.is_empty() {
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
        };
        match note {
            Some(note) => format!("{counts}\n{note}"),
            None => counts,
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
    let facts = GlobFacts {
        paths: paths[..shown.shown].to_vec(),
        count: shown.shown,
        stop: stop_name,
        skipped: GlobSkipped {
            special: skipped.special,
            symlinks: skipped.symlinks,
            hidden: skipped.hidden,
            unreadable_dirs: skipped.unreadable_dirs,
            unreadable: skipped.unreadable,
            ignored: skipped.ignored,
        },
    };
    Ok(Outcome::new(
        truncate_to_budget(text, max_output_bytes),
        facts,
    ))
}

#[cfg(test)]
mod tests;
