//! What every tool call runs against: the workspace and, in a long-lived
//! server, the session.

use hashedit_core::{BlockResolver, Output, Surface};

use crate::cancel::CancelToken;
use crate::session::Session;
use crate::workspace::Workspace;

/// The environment of one tool call. The CLI runs without a session (each
/// call is its own process); the MCP server passes its [`Session`] so
/// tools can record served snapshots, catch tag collisions and rebase
/// drifted edits. A read, then an edit against the tag it served:
///
/// ```
/// use hashedit_tools::{EditArgs, EditMode, ReadFileArgs, Session, ToolContext, Workspace};
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.txt"), "one\ntwo\n")?;
/// let ws = Workspace::new(dir.path())?;
/// let session = Session::new();
/// let cx = ToolContext::new(&ws).with_session(&session);
///
/// let read = hashedit_tools::read_file(&cx, &ReadFileArgs { path: "a.txt".into(), ..Default::default() })?;
/// let header = read.text.lines().next().unwrap(); // `[a.txt#TAG]`
/// assert!(read.text.contains("2:two"));
///
/// let document = format!("{header}\nPUT 2:\n+TWO\n");
/// let edited = hashedit_tools::edit(&cx, &EditArgs::new(document), EditMode::Apply)?;
/// assert!(edited.text.contains("2:TWO"));
/// assert_eq!(std::fs::read_to_string(dir.path().join("a.txt"))?, "one\nTWO\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    /// The surface replies are worded for (MCP by default).
    pub surface: Surface,
    /// Whether an applied edit reports each file's diff among its facts.
    pub diffs: Diffs,
}

/// Whether an applied edit's facts carry each file's unified diff, for
/// people and UI cards (a dry run always shows its diffs). Diffs are made
/// only when asked for, and share the output budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Diffs {
    /// No diffs (the default: a model never reads them).
    #[default]
    Omit,
    /// Each file's diff under `files[i].diff`.
    Include,
}

impl std::fmt::Debug for ToolContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("ws", &self.ws)
            .field("session", &self.session.is_some())
            .field("blocks", &self.blocks.is_some())
            .field("cancel", &self.cancel.map(CancelToken::is_cancelled))
            .field("surface", &self.surface)
            .field("diffs", &self.diffs)
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
            surface: Surface::Mcp,
            diffs: Diffs::Omit,
        }
    }

    /// The same context, its applied edits reporting their diffs.
    pub fn with_diffs(self) -> ToolContext<'a> {
        ToolContext {
            diffs: Diffs::Include,
            ..self
        }
    }

    /// The same context, its replies worded for `surface`.
    pub fn with_surface(self, surface: Surface) -> ToolContext<'a> {
        ToolContext { surface, ..self }
    }

    /// Where replies go: the workspace's output budget, this surface.
    pub fn output(&self) -> Output {
        Output {
            max_bytes: self.ws.max_output_bytes(),
            surface: self.surface,
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
