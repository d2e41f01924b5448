//! The `glob` tool and the path glob it shares with `grep`'s filter.

use std::ops::ControlFlow;

use globset::{GlobBuilder, GlobMatcher};
use hashline::truncate::truncate_to_budget;
use serde_json::json;

use super::walk::{WalkItem, visit_files};
use super::{
    DEFAULT_MAX_RESULTS, Limits, MAX_RESULTS_CEILING, SearchOptions, SearchScope, Stop, clamp_cap,
    plural, printable, with_reasons, workspace_path,
};
use crate::args::GlobArgs;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::outcome::Outcome;

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

/// Lists files matching a glob, in walk order (reference-rho.md §5).
///
/// The pattern is matched against each file's path relative to
/// `scope.target`; a pattern without `/` matches at any depth. When the
/// target is a regular file, its workspace-relative path (`scope.display`)
/// is matched and listed if it fits. Printed paths are workspace-relative
/// (improvement over Rho, which prints them relative to the target).
/// `max_results` defaults to 200 and is clamped to 1..=1000.
///
/// Text: paths one per line, a blank line, `{n} files` with the reasons
/// the list may be incomplete in parentheses; or
/// `no files matching '{pattern}' under {display}` (plus reasons). Paths
/// holding control characters are shown quoted and escaped.
///
/// Structured: `{"paths": [workspace-relative path…], "count": n,
/// "stop": null | "result_limit" | "scan_limit" | "time_limit" |
/// "cancelled"}`.
///
/// Errors: [`ErrorKind::InvalidArguments`] `invalid glob '{pattern}': …`,
/// raised before any file I/O.
pub fn glob(scope: &SearchScope, args: &GlobArgs, max_output_bytes: usize) -> ToolResult<Outcome> {
    glob_with(scope, args, max_output_bytes, &SearchOptions::default())
}

/// [`glob`] with explicit [`SearchOptions`] (time limit, entry limit,
/// cancellation; `threads` is not used: glob reads no file contents).
pub fn glob_with(
    scope: &SearchScope,
    args: &GlobArgs,
    max_output_bytes: usize,
    options: &SearchOptions,
) -> ToolResult<Outcome> {
    let pattern = PathGlob::compile(&args.pattern)?;
    let max_results = clamp_cap(args.max_results, DEFAULT_MAX_RESULTS, MAX_RESULTS_CEILING);
    let limits = Limits::start(options);
    let mut paths = Vec::new();
    let stop = visit_files(
        scope.target,
        args.include_hidden.unwrap_or(false),
        &limits,
        |item| {
            let WalkItem::File(file) = item else {
                return ControlFlow::Continue(());
            };
            let matched = if file.relative.is_empty() {
                pattern.matches(scope.display)
            } else {
                pattern.matches(&file.relative)
            };
            if matched {
                paths.push(workspace_path(scope.display, &file.relative));
                if paths.len() >= max_results {
                    return ControlFlow::Break(Stop::ResultLimit);
                }
            }
            ControlFlow::Continue(())
        },
    );

    let reasons: Vec<String> = stop.iter().map(|s| s.describe(NARROW, &limits)).collect();
    let text = if paths.is_empty() {
        with_reasons(
            format!(
                "no files matching '{}' under {}",
                args.pattern, scope.display
            ),
            &reasons,
        )
    } else {
        let mut body = String::new();
        for path in &paths {
            body.push_str(&printable(path));
            body.push('\n');
        }
        format!(
            "{body}\n{}",
            with_reasons(plural(paths.len(), "file", "files"), &reasons)
        )
    };
    let structured = json!({
        "paths": paths,
        "count": paths.len(),
        "stop": stop.map(Stop::name),
    });
    Ok(Outcome::new(
        truncate_to_budget(text, max_output_bytes),
        structured,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::Ws;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    fn args(pattern: &str) -> GlobArgs {
        GlobArgs {
            pattern: pattern.into(),
            ..GlobArgs::default()
        }
    }

    fn run(ws: &Ws, target: &str, args: &GlobArgs) -> Outcome {
        let path = ws.path(target);
        glob(&ws.scope(&path, target), args, 64_000).unwrap()
    }

    #[test]
    fn path_glob_rules() {
        let g = PathGlob::compile("*.rs").unwrap();
        assert!(g.matches("a.rs") && g.matches("src/deep/a.rs"));
        assert!(!g.matches("a.rsx"));
        let g = PathGlob::compile("src/*.rs").unwrap();
        assert!(g.matches("src/a.rs"));
        assert!(!g.matches("src/deep/a.rs"));
        let g = PathGlob::compile("src/**/*.rs").unwrap();
        assert!(g.matches("src/deep/a.rs") && g.matches("src/a.rs"));
        let g = PathGlob::compile("!*_test.rs").unwrap();
        assert!(g.matches("a.rs") && !g.matches("x/a_test.rs"));
    }

    #[test]
    fn ignored_and_hidden_are_excluded_by_default() {
        // reference-rho.md §11 case 59 (first half).
        let ws = Ws::new(&[
            (".gitignore", b"ignored.rs\n"),
            ("ignored.rs", b""),
            (".hidden.rs", b""),
            ("kept.rs", b""),
        ]);
        let out = run(&ws, ".", &args("*.rs"));
        assert_eq!(out.text, "kept.rs\n\n1 file");
        assert_eq!(out.structured["paths"], json!(["kept.rs"]));
        assert_eq!(out.structured["stop"], json!(null));
        let hidden = GlobArgs {
            include_hidden: Some(true),
            ..args("*.rs")
        };
        assert_eq!(
            run(&ws, ".", &hidden).text,
            ".hidden.rs\nkept.rs\n\n2 files"
        );
    }

    #[test]
    fn max_results_takes_the_first_paths_in_walk_order() {
        // reference-rho.md §11 case 59 (second half).
        let ws = Ws::new(&[("a.rs", b""), ("b.rs", b""), ("c.rs", b"")]);
        let capped = GlobArgs {
            max_results: Some(2),
            ..args("*.rs")
        };
        let out = run(&ws, ".", &capped);
        assert_eq!(
            out.text,
            "a.rs\nb.rs\n\n2 files (max_results reached; narrow the pattern or path to see the rest)"
        );
        assert_eq!(out.structured["stop"], json!("result_limit"));
        // Exactly at the cap with nothing left still reports the cap.
        let ws = Ws::new(&[("a.rs", b""), ("b.rs", b"")]);
        assert!(
            run(&ws, ".", &capped)
                .text
                .ends_with("(max_results reached; narrow the pattern or path to see the rest)")
        );
        let zero = GlobArgs {
            max_results: Some(0),
            ..args("*.rs")
        };
        assert!(run(&ws, ".", &zero).text.starts_with("a.rs\n\n1 file ("));
    }

    #[test]
    fn paths_are_workspace_relative_under_a_narrowed_path() {
        // Improvement over Rho (product.md §3 item 7): same root as grep.
        let ws = Ws::new(&[("src/a.rs", b""), ("src/nested/c.rs", b""), ("top.rs", b"")]);
        assert_eq!(
            run(&ws, "src", &args("*.rs")).text,
            "src/a.rs\nsrc/nested/c.rs\n\n2 files"
        );
        assert_eq!(
            run(&ws, "src", &args("nested/*.rs")).text,
            "src/nested/c.rs\n\n1 file"
        );
    }

    #[test]
    fn a_file_target_is_matched_alone() {
        let ws = Ws::new(&[("src/a.rs", b""), ("src/b.txt", b"")]);
        assert_eq!(
            run(&ws, "src/a.rs", &args("*.rs")).text,
            "src/a.rs\n\n1 file"
        );
        assert_eq!(
            run(&ws, "src/b.txt", &args("*.rs")).text,
            "no files matching '*.rs' under src/b.txt"
        );
    }

    #[test]
    fn no_match_and_each_stop_reason() {
        // reference-rho.md §11 cases 55 and 60.
        let ws = Ws::new(&[("a.txt", b""), ("b.txt", b""), ("c.txt", b"")]);
        assert_eq!(
            run(&ws, ".", &args("*.rs")).text,
            "no files matching '*.rs' under ."
        );

        let path = ws.path(".");
        let scope = ws.scope(&path, ".");
        let cancelled = SearchOptions {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..SearchOptions::default()
        };
        let out = glob_with(&scope, &args("*.rs"), 64_000, &cancelled).unwrap();
        assert_eq!(out.text, "no files matching '*.rs' under . (cancelled)");
        assert_eq!(out.structured["stop"], json!("cancelled"));

        let late = SearchOptions {
            time_limit: Duration::ZERO,
            ..SearchOptions::default()
        };
        let out = glob_with(&scope, &args("*.rs"), 64_000, &late).unwrap();
        assert_eq!(
            out.text,
            "no files matching '*.rs' under . (time limit of 0 s reached; search a narrower path)"
        );

        let small = SearchOptions {
            max_entries: 2,
            ..SearchOptions::default()
        };
        let out = glob_with(&scope, &args("*.txt"), 64_000, &small).unwrap();
        assert_eq!(
            out.text,
            "a.txt\n\n1 file (walk stopped after 2 entries; search a narrower path)"
        );
        assert_eq!(out.structured["stop"], json!("scan_limit"));
    }

    #[test]
    fn invalid_glob_names_the_pattern() {
        // reference-rho.md §11 case 60.
        let ws = Ws::new(&[]);
        let path = ws.path(".");
        let err = glob(&ws.scope(&path, "."), &args("a["), 64_000).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidArguments);
        assert!(
            err.message.starts_with("invalid glob 'a[': "),
            "{}",
            err.message
        );
        assert!(!err.message.contains("**/"), "{}", err.message);
        let err = glob(&ws.scope(&path, "."), &args("!"), 64_000).unwrap_err();
        assert!(err.message.starts_with("invalid glob '!': "));
    }

    #[test]
    fn output_is_fitted_to_the_budget() {
        let ws = Ws::new(&[("aaaa.rs", b""), ("bbbb.rs", b"")]);
        let path = ws.path(".");
        let out = glob(&ws.scope(&path, "."), &args("*.rs"), 5).unwrap();
        assert_eq!(out.text, "aaaa.\n[truncated]");
    }
}
