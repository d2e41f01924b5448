//! # hashedit-embed
//!
//! hashedit in-process, the way the Python and Node packages
//! (`bindings/python`, `bindings/node`) call it. An [`Embedded`] workspace
//! keeps one [`Session`] for its lifetime, like the MCP server's
//! (`hashedit mcp`): snapshots served by `read`, `grep`, `write` and `edit`
//! are remembered, so 16-bit tag collisions are caught, drifted edits are
//! rebased, and named registers last between calls (FORMAT.md §6).
//! Block locators (`N*`) use the tree-sitter grammars of every language
//! the release binary knows.
//!
//! A binding builds a [`Request`] from a method's arguments and options
//! (their names are the fields of the tool's own argument struct, checked
//! against the schema derived from it) and runs it with [`Embedded::run`]:
//! the tool's [`Reply`] (the model-facing text and the facts as JSON) or
//! its [`ToolError`] (a stable kind and the model-facing message), exactly
//! what the CLI and the MCP server send.

use std::path::Path;

use hashedit_blocks::TreeSitterBlocks;
use hashedit_core::TagScheme;
use hashedit_mcp::{ToolFormat, export_tool_definitions, parse_arguments};
use hashedit_tools::{
    ErrorKind, Outcome, Session, ToolContext, ToolError, ToolName, ToolResult, Workspace,
};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

mod preview;
mod projection;
mod request;

pub use projection::project_json;
pub use request::{Case, Request};

/// Whether an [`Embedded`] workspace may change files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Access {
    /// All six tools.
    #[default]
    ReadWrite,
    /// `read_file`, `grep`, `glob` and `list_dir`; `write` and `edit` fail
    /// with [`ErrorKind::PermissionDenied`], as on a `--read-only` server.
    ReadOnly,
}

/// How an [`Embedded`] workspace is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The snapshot tag scheme (FORMAT.md §2).
    pub tag_scheme: TagScheme,
    /// The output budget of a successful reply, in bytes (at least 1).
    pub max_output_bytes: usize,
    /// Whether files may be changed.
    pub access: Access,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            tag_scheme: TagScheme::Rho,
            max_output_bytes: hashedit_core::DEFAULT_MAX_OUTPUT_BYTES,
            access: Access::ReadWrite,
        }
    }
}

/// One workspace root and its session, shared by every call (all methods
/// take `&self`; calls may run on several threads at once, and the tools
/// lock the files they change).
#[derive(Debug)]
pub struct Embedded {
    ws: Workspace,
    session: Session,
    blocks: TreeSitterBlocks,
    access: Access,
}

impl Embedded {
    /// Opens the workspace at `root`.
    ///
    /// Errors: `invalid_arguments` for a zero output budget or an empty
    /// path, `not_found` for a missing root, `not_a_regular_file` for a
    /// root that is not a directory.
    pub fn open(root: &Path, options: Options) -> ToolResult<Embedded> {
        if options.max_output_bytes == 0 {
            return Err(ToolError::new(
                ErrorKind::InvalidArguments,
                "max_output_bytes must be at least 1",
            ));
        }
        let ws = Workspace::new(root)?
            .with_tag_scheme(options.tag_scheme)
            .with_max_output_bytes(options.max_output_bytes);
        Ok(Embedded {
            ws,
            session: Session::new(),
            blocks: TreeSitterBlocks::new(),
            access: options.access,
        })
    }

    /// The canonical workspace root.
    pub fn root(&self) -> &Path {
        self.ws.root()
    }

    /// The tag scheme in use.
    pub fn tag_scheme(&self) -> TagScheme {
        self.ws.tag_scheme()
    }

    /// Whether `write` and `edit` are refused.
    pub fn access(&self) -> Access {
        self.access
    }

    fn context(&self) -> ToolContext<'_> {
        ToolContext::new(&self.ws)
            .with_blocks(&self.blocks)
            .with_session(&self.session)
            .with_diffs()
    }

    /// Runs `request`: its arguments are checked against the tool's schema
    /// (the one the MCP server publishes and enforces: unknown names,
    /// types and bounds are refused naming the valid arguments), then the
    /// tool runs with this workspace's session, blocking on file I/O.
    ///
    /// Errors: `invalid_arguments` for arguments that do not fit,
    /// `permission_denied` for `write` and `edit` on a read-only
    /// workspace, then the tool's own.
    pub fn run(&self, request: Request) -> ToolResult<Reply> {
        let Request {
            tool,
            arguments,
            mode,
        } = request;
        let cx = self.context();
        let arguments = Some(&arguments);
        let outcome = match tool {
            ToolName::ReadFile => hashedit_tools::read_file(&cx, &parse(tool, arguments)?),
            ToolName::Grep => hashedit_tools::grep(&cx, &parse(tool, arguments)?),
            ToolName::Glob => hashedit_tools::glob(&cx, &parse(tool, arguments)?),
            ToolName::ListDir => hashedit_tools::list_dir(&cx, &parse(tool, arguments)?),
            ToolName::Write => {
                self.writable(tool)?;
                hashedit_tools::write(&cx, &parse(tool, arguments)?)
            }
            ToolName::Edit => {
                self.writable(tool)?;
                hashedit_tools::edit(&cx, &parse(tool, arguments)?, mode)
            }
        }?;
        Ok(Reply::from(outcome))
    }

    /// Runs the tool called `name` (`read_file`, `grep`, `glob`,
    /// `list_dir`, `write`, `edit`) with `arguments`, a JSON object of the
    /// shape [`tool_definitions`] describes: the one call a function-calling
    /// loop needs. Errors: as [`Request::from_call`], then as
    /// [`Embedded::run`].
    pub fn call(&self, name: &str, arguments: Value) -> ToolResult<Reply> {
        self.run(Request::from_call(name, arguments)?)
    }

    fn writable(&self, tool: ToolName) -> ToolResult<()> {
        match self.access {
            Access::ReadWrite => Ok(()),
            Access::ReadOnly => Err(ToolError::new(
                ErrorKind::PermissionDenied,
                format!(
                    "{} is not available: this hashedit workspace is read-only, so it offers \
                     only read_file, grep, glob and list_dir; nothing was written",
                    tool.as_str()
                ),
            )),
        }
    }
}

/// A successful tool call as the bindings return it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// Exactly the text the model should read.
    pub text: String,
    /// The call's facts as JSON (paths, tags, counts; for an edit,
    /// `files[i].diff`, each file's unified diff).
    pub data: Value,
}

impl From<Outcome> for Reply {
    fn from(outcome: Outcome) -> Reply {
        Reply {
            data: outcome.structured(),
            text: outcome.text,
        }
    }
}

/// `result` as one JSON value, the shape of the CLI's `--json` output:
/// `{"ok":true,"text","data"}`, or `{"ok":false,"error":{"kind","message"}}`
/// with the error's stable kind (FORMAT.md §8.4).
pub fn envelope(result: ToolResult<Reply>) -> Value {
    match result {
        Ok(reply) => json!({"ok": true, "text": reply.text, "data": reply.data}),
        Err(error) => json!({
            "ok": false,
            "error": {"kind": error.kind.name(), "message": error.message},
        }),
    }
}

fn parse<T: DeserializeOwned>(
    tool: ToolName,
    arguments: Option<&Map<String, Value>>,
) -> ToolResult<T> {
    parse_arguments(tool, arguments).map_err(request::invalid)
}

/// Reads a tag scheme name (`rho` or `omp`).
pub fn parse_scheme(name: &str) -> Result<TagScheme, String> {
    name.parse::<TagScheme>()
}

/// The snapshot tag of `bytes` under `scheme` (4 uppercase hex digits,
/// FORMAT.md §2): the `TAG` a read of a file with these bytes shows.
pub fn tag(bytes: &[u8], scheme: TagScheme) -> String {
    scheme.tag_of(bytes).to_string()
}

/// The six tools' definitions in the format named `format` (`openai`,
/// `anthropic`, `mcp`), from the MCP server's catalogue; the four read-only
/// ones when `read_only`. Errors: the message for an unknown format.
pub fn tool_definitions(format: &str, read_only: bool) -> Result<Vec<Value>, String> {
    let format: ToolFormat = format.parse()?;
    Ok(export_tool_definitions(format, read_only))
}

#[cfg(test)]
mod tests;
