//! What every tool call runs against: the workspace and, in a long-lived
//! server, the session.

use crate::session::Session;
use crate::workspace::Workspace;

/// The environment of one tool call.
///
/// The CLI runs without a session (each call is its own process); the MCP
/// server passes its [`Session`] so tools can record served snapshots,
/// catch tag collisions and rebase drifted edits.
#[derive(Debug, Clone, Copy)]
pub struct ToolContext<'a> {
    /// The workspace root and policy.
    pub ws: &'a Workspace,
    /// Session state, if the caller keeps one.
    pub session: Option<&'a Session>,
}

impl<'a> ToolContext<'a> {
    /// A context without session state.
    pub fn new(ws: &'a Workspace) -> ToolContext<'a> {
        ToolContext { ws, session: None }
    }

    /// The same context with `session` attached.
    pub fn with_session(self, session: &'a Session) -> ToolContext<'a> {
        ToolContext {
            session: Some(session),
            ..self
        }
    }
}
