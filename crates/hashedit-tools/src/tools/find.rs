//! `grep`, `glob` and `list_dir`: resolve the path argument inside the
//! workspace, then search with [`crate::search`].

use crate::args::{GlobArgs, GrepArgs, ListDirArgs};
use crate::context::ToolContext;
use crate::error::ToolResult;
use crate::outcome::Outcome;
use crate::search::{self, Leftovers, SearchOptions, SearchScope};
use crate::workspace::Resolve;

/// Runs `grep` under `args.path` (default: the workspace root).
///
/// Searches file contents with a regular expression (reference-rho.md §4,
/// product.md §3 item 7).
///
/// The path may name a directory (walked depth-first in byte-wise name
/// order, git ignore rules honoured, hidden entries and `.git` skipped,
/// symbolic links neither followed nor yielded) or a regular file
/// (searched alone; Rho finds nothing there).
///
/// Matching is per line of the line model, exactly as `read_file` numbers
/// lines: split at `\n`, one trailing `\r` dropped, a UTF-8 BOM not part
/// of line 1; a pattern never spans lines (Rust regex syntax; `literal`
/// escapes it; `case_sensitive` defaults to true; 10 MiB compile and DFA
/// caps). Files over 5 MiB, with a NUL byte, with a UTF-16/32 BOM, not
/// valid UTF-8, unreadable, or special (FIFO, socket, device; never
/// opened) are skipped and counted, and so are directories the walk could
/// not read. Files are searched on `HASHEDIT_THREADS` threads (default:
/// the available parallelism); the output never depends on it.
///
/// `args.glob`
/// filters files by their path relative to the target (a file target is
/// filtered by its workspace-relative path; one glob that starts with
/// literal directories is walked from there, so an ignored or hidden
/// directory it names is searched). `max_results` (default 200, at least
/// 1, never lowered) counts matching lines in content mode and files
/// otherwise; `max_per_file` (default 10, at least 1) caps the lines shown
/// per file in content mode. Both caps apply in walk order, and the result
/// cap is reported only when a result beyond it exists.
///
/// Text, content mode (default): per matching file, in walk order and with
/// no blank line between files, a `[path#TAG]` header (TAG from the workspace's scheme,
/// equal to `read_file`'s; the path spelled by
/// [`crate::display_path`], as `read_file` spells it), rows
/// `{N} | {text}` (text cut to 200 characters plus `…`), and
/// `… +{K} more match(es) in this file` when K matching lines were not
/// shown; then a blank line and `{shown} matches in {F} files` or
/// `{shown} matches shown ({total} total) in {F} files`.
/// files_with_matches: one path per line, blank line, `{F} files`.
/// count: `{path}:{n}` per line, blank line, `{total} matches in {F} files`.
/// Any reason the answer is incomplete follows the summary in parentheses,
/// joined by `; `: the output budget, the result cap, files cut by
/// `max_per_file`, the walk's entry or time limit, cancellation, the count
/// of skipped files by cause, and unreadable directories. Without hits:
/// `no matches for '{pattern}' under {display}` plus the same reasons.
///
/// The output budget: the text shows the longest run of leading rows (a
/// file's header travels with its first row; one line per file in the
/// other modes) that fits in the workspace's output budget together with the closing
/// `… more` line of a file shown in part and the summary. A row is never
/// cut and the summary always ends the text. When rows were left out the summary adds
/// `output budget of {N} bytes reached; narrow the pattern, path or glob to
/// see the rest` (in place of the result cap's reason), and every count,
/// in the text and in the structured data, describes the rows shown:
/// `{total}` and the `… more` lines cover the files shown, and a file the
/// budget cut is not counted as cut by `max_per_file`. Skip counts cover
/// the whole search.
///
/// Structured:
/// ```json
/// {"mode": "content" | "files_with_matches" | "count",
///  "files": [{"path": "src/a.rs", "tag": "1A2B" | null,
///             "count": 3 | null, "matches": [{"line": 2, "text": "…"}],
///             "more": 1}],
///  "shown": 2, "total": 3 | null, "files_matched": 1,
///  "files_cut_by_max_per_file": 1,
///  "skipped": {"binary": 0, "not_utf8": 0, "too_large": 0, "unreadable": 0,
///              "special": 0, "unreadable_dirs": 0},
///  "stop": null | "output_budget" | "result_limit" | "scan_limit"
///          | "time_limit" | "cancelled"}
/// ```
/// `files` lists the files shown with the rows shown (`path` unquoted);
/// `shown` counts rows in content mode and files otherwise. `tag` is set in
/// content mode only; `count` and `total` are null in files_with_matches
/// mode, which stops reading a file at its first match. `stop` is
/// `"output_budget"` whenever the budget left rows out, else the reason the
/// search itself stopped.
///
/// Errors: [`crate::ErrorKind::InvalidArguments`], before any file I/O,
/// `invalid pattern '{pattern}': {regex error}` and
/// `invalid glob '{glob}': …`; then [`crate::ErrorKind::NotARegularFile`] when the
/// target is a FIFO, socket or device (refused without being opened).
///
/// Path errors: `NotFound` and `PathOutsideWorkspace`.
pub fn grep(cx: &ToolContext, args: &GrepArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let outcome = in_scope(cx, args.path.as_deref().unwrap_or("."), |scope| {
        search::grep_with(
            scope,
            args,
            ws.tag_scheme(),
            ws.max_output_bytes(),
            &search_options(cx),
        )
    })?;
    if let Some(session) = cx.session {
        for served in &outcome.served {
            session.record(&served.target, served.fingerprint, None);
        }
    }
    Ok(outcome)
}

/// Runs `glob` under `args.path` (default: the workspace root).
///
/// Lists files matching a glob, in walk order (reference-rho.md §5).
///
/// The pattern is matched against each file's path relative to
/// the path; a pattern without `/` matches at any depth. When the
/// target is a regular file, its workspace-relative path is matched and
/// listed if it fits. Printed paths are workspace-relative (improvement
/// over Rho, which prints them relative to the target).
/// `max_results` defaults to 200 (at least 1, never lowered); the result
/// cap is reported only when a path beyond it exists.
///
/// Text: paths one per line, spelled by
/// [`crate::display_path`] (quoted and escaped when they hold a
/// control character), a blank line, `{n} files` with the reasons the list
/// may be incomplete in parentheses, joined by `; `: the output budget
/// (`output budget of N bytes reached; narrow the pattern or path to see
/// the rest`, replacing the result cap's reason), the result cap, the
/// walk's entry or time limit, cancellation, matching special files not
/// listed, and unreadable directories or entries; or
/// `no files matching '{pattern}' under {display}` (plus reasons). The
/// text shows the longest run of leading paths that fits in
/// the workspace's output budget with the summary; a path is never cut and `n` counts
/// the paths shown.
///
/// Structured: `{"paths": [workspace-relative path shown, unquoted…],
/// "count": n, "stop": null | "output_budget" | "result_limit" |
/// "scan_limit" | "time_limit" | "cancelled", "skipped": {"special": 0,
/// "unreadable_dirs": 0, "unreadable": 0}}`; `"output_budget"` wins over the
/// walk's own stop.
///
/// Errors: [`crate::ErrorKind::InvalidArguments`] `invalid glob '{pattern}': …`,
/// raised before any file I/O; [`crate::ErrorKind::NotARegularFile`] when the
/// target is a FIFO, socket or device (never opened).
pub fn glob(cx: &ToolContext, args: &GlobArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    in_scope(cx, args.path.as_deref().unwrap_or("."), |scope| {
        search::glob_with(scope, args, ws.max_output_bytes(), &search_options(cx))
    })
}

/// Runs `list_dir` on `args.path`.
///
/// Lists the immediate entries of the path (reference-rho.md §0
/// `list_dir`, with our own prose).
///
/// Not recursive; hidden and ignored entries are included, except
/// hashedit's own unfinished temp files (`.hashedit-<16 hex>.tmp`, see
/// [`crate::is_temp_leftover`]); its `.bak` backups are listed. Entries are
/// sorted byte-wise by their displayed text; directories end with `/`;
/// symbolic links are listed under their own name and never followed;
/// anything else (FIFO, socket, device) is listed by name. Names are
/// spelled by [`crate::display_path`]: one holding a control
/// character is shown double-quoted with escapes (`"a\nb"`) so every entry
/// stays on one line (a path can quote that name as one component:
/// `dir/"a\nb"`). Entries are joined by `\n` with no trailing newline; an
/// empty directory gives `(empty directory)`.
///
/// When the listing does not fit the workspace's output budget, the longest run of
/// leading entries that fits with a closing line is shown, no entry cut,
/// followed by a blank line and `{shown} of {total} entries shown (output budget of N bytes
/// reached; narrow the listing with glob to see the rest)`.
///
/// Structured: `{"path": display, "entries": [{"name": raw name (lossy
/// UTF-8), "kind": "file" | "dir" | "symlink" | "other"}…], "total": n,
/// "truncated": bool}`, where `entries` holds exactly the entries shown,
/// `total` counts all of them and `truncated` says the budget left some
/// out.
///
/// Errors: [`crate::ErrorKind::NotARegularFile`] when the target is not a
/// directory; I/O failures while listing map through [`crate::ToolError::io`];
/// [`crate::ErrorKind::Cancelled`] when the token is raised before the listing is
/// complete (a partial listing would be sorted wrongly, so none is
/// returned).
pub fn list_dir(cx: &ToolContext, args: &ListDirArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let options = SearchOptions {
        leftovers: if args.include_hidden.unwrap_or(false) {
            Leftovers::Show
        } else {
            Leftovers::Hide
        },
        ..search_options(cx)
    };
    in_scope(cx, &args.path, |scope| {
        search::list_dir_with(scope, ws.max_output_bytes(), &options)
    })
}

/// The production search options, cancelled by the context's token.
fn search_options(cx: &ToolContext) -> SearchOptions {
    SearchOptions {
        cancel: cx.cancel.cloned(),
        surface: cx.surface,
        ..SearchOptions::default()
    }
}

/// Resolves `path` as an existing file or directory of `ws` and runs
/// `run` on it; the resolution's error (`NotFound`,
/// `PathOutsideWorkspace`, …) is returned as is.
fn in_scope<T>(
    cx: &ToolContext,
    path: &str,
    run: impl FnOnce(&SearchScope<'_>) -> ToolResult<T>,
) -> ToolResult<T> {
    let ws = cx.ws;
    let resolved = ws.resolve(path, Resolve::Existing);
    let searched = resolved.and_then(|resolved| {
        run(&SearchScope {
            root: ws.root(),
            target: &resolved.target,
            display: &resolved.display,
        })
    });
    searched.map_err(|e| e.worded(cx.surface))
}
