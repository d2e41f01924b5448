//! `grep`, `glob` and `list_dir`: resolve the path argument inside the
//! workspace, then search with [`crate::search`].

use crate::args::{GlobArgs, GrepArgs, ListDirArgs};
use crate::context::ToolContext;
use crate::error::ToolResult;
use crate::outcome::Outcome;
use crate::search::{self, Leftovers, SearchOptions, SearchScope};
use crate::workspace::{Resolve, Workspace};

/// Runs `grep` under `args.path` (default: the workspace root).
///
/// See [`search::grep`] for the output and errors; path errors are
/// `NotFound` and `PathOutsideWorkspace`.
pub fn grep(cx: &ToolContext, args: &GrepArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let outcome = in_scope(ws, args.path.as_deref().unwrap_or("."), |scope| {
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
/// See [`search::glob`] for the output and errors.
pub fn glob(cx: &ToolContext, args: &GlobArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    in_scope(ws, args.path.as_deref().unwrap_or("."), |scope| {
        search::glob_with(scope, args, ws.max_output_bytes(), &search_options(cx))
    })
}

/// Runs `list_dir` on `args.path`.
///
/// See [`search::list_dir`] for the output and errors.
pub fn list_dir(cx: &ToolContext, args: &ListDirArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let options = SearchOptions {
        leftovers: if args.include_leftovers {
            Leftovers::Show
        } else {
            Leftovers::Hide
        },
        ..search_options(cx)
    };
    in_scope(ws, &args.path, |scope| {
        search::list_dir_with(scope, ws.max_output_bytes(), &options)
    })
}

/// The production search options, cancelled by the context's token.
fn search_options(cx: &ToolContext) -> SearchOptions {
    SearchOptions {
        cancel: cx.cancel.cloned(),
        ..SearchOptions::default()
    }
}

/// Resolves `path` as an existing file or directory of `ws` and runs
/// `run` on it; the resolution's error (`NotFound`,
/// `PathOutsideWorkspace`, …) is returned as is.
fn in_scope<T>(
    ws: &Workspace,
    path: &str,
    run: impl FnOnce(&SearchScope<'_>) -> ToolResult<T>,
) -> ToolResult<T> {
    let resolved = ws.resolve(path, Resolve::Existing)?;
    run(&SearchScope {
        root: ws.root(),
        target: &resolved.target,
        display: &resolved.display,
    })
}
