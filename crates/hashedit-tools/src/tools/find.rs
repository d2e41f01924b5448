//! `grep`, `glob` and `list_dir`: resolve the path argument inside the
//! workspace, then search with [`crate::search`].

use crate::args::{GlobArgs, GrepArgs, ListDirArgs};
use crate::context::ToolContext;
use crate::error::ToolResult;
use crate::outcome::Outcome;
use crate::search::{self, SearchScope};
use crate::workspace::Resolve;

/// Runs `grep` under `args.path` (default: the workspace root).
///
/// See [`search::grep`] for the output and errors; path errors are
/// `NotFound` and `PathOutsideWorkspace`.
pub fn grep(cx: &ToolContext, args: &GrepArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let resolved = ws.resolve(args.path.as_deref().unwrap_or("."), Resolve::Existing)?;
    let scope = SearchScope {
        root: ws.root(),
        target: &resolved.target,
        display: &resolved.display,
    };
    let outcome = search::grep(&scope, args, ws.tag_scheme(), ws.max_output_bytes())?;
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
    let resolved = ws.resolve(args.path.as_deref().unwrap_or("."), Resolve::Existing)?;
    let scope = SearchScope {
        root: ws.root(),
        target: &resolved.target,
        display: &resolved.display,
    };
    search::glob(&scope, args, ws.max_output_bytes())
}

/// Runs `list_dir` on `args.path`.
///
/// See [`search::list_dir`] for the output and errors.
pub fn list_dir(cx: &ToolContext, args: &ListDirArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let resolved = ws.resolve(&args.path, Resolve::Existing)?;
    let scope = SearchScope {
        root: ws.root(),
        target: &resolved.target,
        display: &resolved.display,
    };
    search::list_dir(&scope, ws.max_output_bytes())
}
