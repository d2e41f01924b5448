//! What every tool call runs against: the workspace and, in a long-lived
//! server, the session.

use hashedit_core::BlockResolver;

use crate::cancel::CancelToken;
use crate::session::Session;
use crate::workspace::Workspace;

/// The environment of one tool call.
///
/// The CLI runs without a session (each call is its own process); the MCP
/// server passes its [`Session`] so tools can record served snapshots,
/// catch tag collisions and rebase drifted edits.
#[derive(Clone, Copy)]
pub struct ToolContext<'a> {
    /// The workspace root and policy.
    pub ws: &'a Workspace,
    /// Session state, if the caller keeps one.
    pub session: Option<&'a Session>,
    /// The grammar for block locators (`N*`); without one they fail with a
    /// clear error.
    pub blocks: Option<&'a dyn BlockResolver>,
    /// Raised by the caller to stop a running search (`grep`, `glob`,
    /// `list_dir`) early; see [`CancelToken`].
    pub cancel: Option<&'a CancelToken>,
}

impl std::fmt::Debug for ToolContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("ws", &self.ws)
            .field("session", &self.session.is_some())
            .field("blocks", &self.blocks.is_some())
            .field("cancel", &self.cancel.map(CancelToken::is_cancelled))
            .finish()
    }
}

impl<'a> ToolContext<'a> {
    /// A context without session state.
    pub fn new(ws: &'a Workspace) -> ToolContext<'a> {
        ToolContext {
            ws,
            session: None,
            blocks: None,
            cancel: None,
        }
    }

    /// The same context, stopped early when `cancel` is raised.
    pub fn with_cancel(self, cancel: &'a CancelToken) -> ToolContext<'a> {
        ToolContext {
            cancel: Some(cancel),
            ..self
        }
    }

    /// The same context with a block grammar for `N*` locators.
    pub fn with_blocks(self, blocks: &'a dyn BlockResolver) -> ToolContext<'a> {
        ToolContext {
            blocks: Some(blocks),
            ..self
        }
    }

    /// The same context with `session` attached.
    pub fn with_session(self, session: &'a Session) -> ToolContext<'a> {
        ToolContext {
            session: Some(session),
            ..self
        }
    }
}
