//! `grep`, `glob` and `list_dir`: resolve the path argument inside the
//! workspace, then search with [`crate::search`].

use crate::args::{GlobArgs, GrepArgs, ListDirArgs};
use crate::context::ToolContext;
use crate::error::ToolResult;
use crate::outcome::Outcome;
use crate::search::{self, Leftovers, SearchOptions, SearchScope};
use crate::workspace::Resolve;

/// Runs `grep` under `args.path` (default: the workspace root): the lines
/// matching a regular expression, per line of the line model, under
/// `[path#TAG]` headers that are real snapshots (FORMAT.md §4.3). A
/// directory is walked (ignore rules honoured, hidden entries and `.git`
/// skipped, links not followed); a named file is searched alone. Files
/// over 5 MiB, binary, not UTF-8 text, unreadable or special are skipped
/// and counted. The reply fits the output budget row by row, its summary
/// saying why it may be incomplete; facts: [`crate::GrepFacts`].
///
/// Errors: `InvalidArguments` (a bad pattern or glob, before any I/O),
/// `NotARegularFile` (a FIFO, socket or device), `NotFound`,
/// `PathOutsideWorkspace`.
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

/// Runs `glob` under `args.path` (default: the workspace root): the files
/// whose path matches a glob, workspace-relative, in walk order; a pattern
/// without `/` matches at any depth (FORMAT.md §8.1). The reply fits the
/// output budget path by path; facts: [`crate::GlobFacts`].
///
/// Errors: `InvalidArguments` (a bad glob, before any I/O),
/// `NotARegularFile` (a FIFO, socket or device), `NotFound`,
/// `PathOutsideWorkspace`.
pub fn glob(cx: &ToolContext, args: &GlobArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    in_scope(cx, args.path.as_deref().unwrap_or("."), |scope| {
        search::glob_with(scope, args, ws.max_output_bytes(), &search_options(cx))
    })
}

/// Runs `list_dir` on `args.path`: its entries, not recursive, sorted
/// byte-wise, directories ending in `/`, links listed and never followed,
/// hashedit's unfinished temp files left out unless asked for (FORMAT.md
/// §8.1). The reply fits the output budget entry by entry; facts:
/// [`crate::ListDirFacts`].
///
/// Errors: `NotARegularFile` (not a directory), `Cancelled` (a partial
/// listing would be sorted wrongly, so none is returned), `NotFound`,
/// `PathOutsideWorkspace`, mapped I/O errors.
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
