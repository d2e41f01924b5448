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
//! Every method returns the tool's [`Outcome`] (the model-facing text and
//! the facts as JSON) or its [`ToolError`] (a stable kind and the
//! model-facing message), exactly what the CLI and the MCP server send.

use std::path::Path;

use hashedit_blocks::TreeSitterBlocks;
use hashedit_core::TagScheme;
use hashedit_mcp::{ToolFormat, export_tool_definitions};
use hashedit_tools::{
    EditArgs, EditMode, ErrorKind, GlobArgs, GrepArgs, ListDirArgs, Outcome, ReadFileArgs, Session,
    ToolContext, ToolError, ToolResult, Workspace, WriteArgs,
};
use serde_json::Value;

mod preview;
mod projection;

pub use projection::project_json;

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
    }

    /// `read_file`.
    pub fn read(&self, args: &ReadFileArgs) -> ToolResult<Outcome> {
        hashedit_tools::read_file(&self.context(), args)
    }

    /// `grep`.
    pub fn grep(&self, args: &GrepArgs) -> ToolResult<Outcome> {
        hashedit_tools::grep(&self.context(), args)
    }

    /// `glob`.
    pub fn glob(&self, args: &GlobArgs) -> ToolResult<Outcome> {
        hashedit_tools::glob(&self.context(), args)
    }

    /// `list_dir`.
    pub fn list_dir(&self, args: &ListDirArgs) -> ToolResult<Outcome> {
        hashedit_tools::list_dir(&self.context(), args)
    }

    /// `write`; refused on a read-only workspace.
    pub fn write(&self, args: &WriteArgs) -> ToolResult<Outcome> {
        self.writable("write")?;
        hashedit_tools::write(&self.context(), args)
    }

    /// `edit` (a dry run writes nothing and answers with each file's
    /// unified diff); refused on a read-only workspace.
    pub fn edit(&self, args: &EditArgs, mode: EditMode) -> ToolResult<Outcome> {
        self.writable("edit")?;
        hashedit_tools::edit(&self.context(), args, mode)
    }

    /// Runs the tool called `name` (`read_file`, `grep`, `glob`,
    /// `list_dir`, `write`, `edit`) with `arguments`, a JSON object of the
    /// shape [`tool_definitions`] describes: the one call a function-calling
    /// loop needs. Errors: `invalid_arguments` for an unknown tool or
    /// arguments that do not fit, then the tool's own.
    pub fn call(&self, name: &str, arguments: Value) -> ToolResult<Outcome> {
        let arguments = match arguments {
            Value::Null => Value::Object(serde_json::Map::new()),
            other => other,
        };
        match name {
            "read_file" => self.read(&from_json(name, arguments)?),
            "grep" => self.grep(&from_json(name, arguments)?),
            "glob" => self.glob(&from_json(name, arguments)?),
            "list_dir" => self.list_dir(&from_json(name, arguments)?),
            "write" => self.write(&from_json(name, arguments)?),
            "edit" => self.edit(&from_json(name, arguments)?, EditMode::Apply),
            other => Err(ToolError::new(
                ErrorKind::InvalidArguments,
                format!(
                    "unknown tool '{other}': the tools are read_file, grep, glob, list_dir, write and edit"
                ),
            )),
        }
    }

    fn writable(&self, tool: &str) -> ToolResult<()> {
        match self.access {
            Access::ReadWrite => Ok(()),
            Access::ReadOnly => Err(ToolError::new(
                ErrorKind::PermissionDenied,
                format!(
                    "{tool} is not available: this hashedit workspace is read-only, so it offers \
                     only read_file, grep, glob and list_dir; nothing was written"
                ),
            )),
        }
    }
}

fn from_json<T: serde::de::DeserializeOwned>(tool: &str, arguments: Value) -> ToolResult<T> {
    serde_json::from_value(arguments).map_err(|error| {
        ToolError::new(
            ErrorKind::InvalidArguments,
            format!("invalid arguments for {tool}: {error}"),
        )
    })
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
