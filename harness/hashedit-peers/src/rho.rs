//! Rho, driven through its published crate.
//!
//! Rho's coding tools live in `rho-agent-tools`; the app registers them on
//! the `rho-sdk` runtime, which prepares each call (argument parsing, path
//! resolution, declared resources), authorizes the capabilities it asks for
//! against the workspace policy, and only then executes it. The SDK's
//! [`ToolHost`] runs that very pipeline without a model provider, so a call
//! made here reaches the same code a model's call reaches in the app
//! (Rho's behaviour).
//!
//! A [`Rho`] host is bound to one workspace directory, grants read and write
//! inside it, and selects the `hashline` edit format, so `read_file`, `grep`
//! and `write` mint `[path#TAG]` headers and `edit` takes hashline
//! documents; [`Rho::with_edit_format`] selects Rho's `str_replace` or
//! `apply_patch` tool instead. Every call returns a [`Reply`]: the exact text the model would
//! read and whether the call failed. The free functions [`read`], [`edit`](fn@edit)
//! and [`write`](fn@write) build a host per call for one-off use.
//!
//! ```no_run
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
//! let view = hashedit_peers::rho::read(dir.path(), "a.txt", None, None).unwrap();
//! assert!(view.starts_with("[a.txt#"));
//! ```

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rho_agent_tools::{CodingToolOptions, coding_tools};
use rho_sdk::tool::ToolErrorKind;
use rho_sdk::{Error as SdkError, ScopedWorkspacePolicy, ToolHost, ToolHostCall, Workspace};
use serde_json::{Value, json};

/// Rho's edit surfaces: `hashline` (the `edit` tool), `str_replace` and
/// `apply_patch` (Codex's patch format).
pub use rho_agent_tools::EditFormat;

/// The version of `rho-agent-tools` this module drives (pinned in
/// `Cargo.toml`).
pub const RHO_TOOLS_VERSION: &str = "1.16.2";

/// Rho's default output budget per tool call (bytes), the
/// `DEFAULT_MAX_OUTPUT_BYTES` of `rho-agent-tools`.
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = rho_agent_tools::DEFAULT_MAX_OUTPUT_BYTES;

/// How a failed call was classified by Rho's SDK.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// The arguments (or the edit document) were rejected while preparing
    /// the call, before any file was touched.
    InvalidArguments,
    /// The call ran and failed (stale tag, bad range, I/O…).
    Execution,
    /// The workspace policy refused a path.
    PolicyDenied,
    /// The call was cancelled.
    Cancelled,
    /// The SDK itself failed (configuration, interrupted worker).
    Host,
}

/// What one tool call returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The exact text the model reads: the tool's content on success, the
    /// error message on failure.
    pub text: String,
    /// `None` on success; the SDK's classification on failure.
    pub failure: Option<FailureKind>,
}

impl Reply {
    /// True when the call succeeded.
    pub fn is_ok(&self) -> bool {
        self.failure.is_none()
    }

    /// The reply as a `Result`: content or error message.
    pub fn into_result(self) -> Result<String, String> {
        match self.failure {
            None => Ok(self.text),
            Some(_) => Err(self.text),
        }
    }
}

/// The shared async runtime the SDK's tool workers run on.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("rho-peer")
            .enable_all()
            .build()
            .expect("cannot start the tokio runtime for the Rho peer")
    })
}

/// A Rho tool host over one workspace directory.
///
/// Cheap to keep and safe to share between threads; calls are independent
/// (Rho's tools keep no session state between calls).
#[derive(Clone)]
pub struct Rho {
    engine: Engine,
    root: PathBuf,
}

/// What answers a [`Rho`]'s calls.
#[derive(Clone)]
enum Engine {
    /// Rho's tools on the SDK's tool host.
    Sdk(ToolHost),
    /// No engine: every call fails at the host level with this message.
    Failing(String),
}

impl std::fmt::Debug for Rho {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rho").field("root", &self.root).finish()
    }
}

impl Rho {
    /// A host over `workspace_dir` with Rho's default output budget.
    ///
    /// Errors: the directory cannot be opened as an SDK workspace.
    pub fn new(workspace_dir: impl AsRef<Path>) -> Result<Rho, String> {
        Rho::with_max_output_bytes(workspace_dir, DEFAULT_MAX_OUTPUT_BYTES)
    }

    /// A host over `workspace_dir` whose tools cut their output at
    /// `max_output_bytes` (as Rho's `tool_output_limit` setting does).
    pub fn with_max_output_bytes(
        workspace_dir: impl AsRef<Path>,
        max_output_bytes: usize,
    ) -> Result<Rho, String> {
        Rho::with_options(workspace_dir, max_output_bytes, EditFormat::Hashline)
    }

    /// A host over `workspace_dir` whose edit tool is `format`'s:
    /// `edit` (hashline), `str_replace` or `apply_patch`. Under the last
    /// two, `read_file`, `grep` and `write` mint no snapshot tags.
    pub fn with_edit_format(
        workspace_dir: impl AsRef<Path>,
        format: EditFormat,
    ) -> Result<Rho, String> {
        Rho::with_options(workspace_dir, DEFAULT_MAX_OUTPUT_BYTES, format)
    }

    fn with_options(
        workspace_dir: impl AsRef<Path>,
        max_output_bytes: usize,
        format: EditFormat,
    ) -> Result<Rho, String> {
        let root = workspace_dir.as_ref().to_path_buf();
        let workspace = Workspace::new(&root)
            .map_err(|e| format!("Rho cannot open workspace {}: {e}", root.display()))?;
        let options = CodingToolOptions::new()
            .edit_tool(format)
            .max_output_bytes(max_output_bytes);
        let policy = ScopedWorkspacePolicy::new()
            .allow_read_paths()
            .allow_write_paths();
        let mut builder = ToolHost::builder()
            .workspace(workspace)
            .workspace_policy(policy);
        for tool in coding_tools(options) {
            builder = builder.tool_shared(tool);
        }
        let host = builder.build().map_err(|e| format!("Rho tool host: {e}"))?;
        Ok(Rho {
            engine: Engine::Sdk(host),
            root,
        })
    }

    /// A stand-in for Rho over `workspace_dir` whose every call fails at
    /// the host level ([`FailureKind::Host`]) with `message`, as a broken
    /// SDK or a changed API would. The differential tests point their
    /// peer at it to show that a peer failing every call fails their run.
    pub fn failing(workspace_dir: impl AsRef<Path>, message: &str) -> Rho {
        Rho {
            engine: Engine::Failing(message.to_string()),
            root: workspace_dir.as_ref().to_path_buf(),
        }
    }

    /// The workspace directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Calls tool `name` with JSON `arguments`, as a model would.
    pub fn call(&self, name: &str, arguments: Value) -> Reply {
        let host = match &self.engine {
            Engine::Sdk(host) => host,
            Engine::Failing(message) => {
                return Reply {
                    text: message.clone(),
                    failure: Some(FailureKind::Host),
                };
            }
        };
        let call = ToolHostCall::new(name, arguments);
        let outcome = runtime().block_on(async { host.invoke(call).await });
        match outcome {
            Ok(output) if output.is_failure() => Reply {
                text: output.content().to_string(),
                failure: Some(FailureKind::Execution),
            },
            Ok(output) => Reply {
                text: output.content().to_string(),
                failure: None,
            },
            Err(SdkError::Tool(error)) => Reply {
                text: error.message().to_string(),
                failure: Some(match error.kind() {
                    ToolErrorKind::InvalidArguments => FailureKind::InvalidArguments,
                    ToolErrorKind::Execution => FailureKind::Execution,
                    ToolErrorKind::PolicyDenied => FailureKind::PolicyDenied,
                    ToolErrorKind::Cancelled => FailureKind::Cancelled,
                    // The enum may grow; anything new is a host-level oddity.
                    #[allow(unreachable_patterns)]
                    _ => FailureKind::Host,
                }),
            },
            Err(other) => Reply {
                text: other.to_string(),
                failure: Some(FailureKind::Host),
            },
        }
    }

    /// `read_file` with optional `offset`/`limit`.
    pub fn read_reply(&self, path: &str, offset: Option<usize>, limit: Option<usize>) -> Reply {
        let mut args = json!({ "path": path });
        if let Some(offset) = offset {
            args["offset"] = json!(offset);
        }
        if let Some(limit) = limit {
            args["limit"] = json!(limit);
        }
        self.call("read_file", args)
    }

    /// `read_file`: the numbered view, or the error message.
    pub fn read(
        &self,
        path: &str,
        offset: Option<usize>,
        limit: Option<usize>,
    ) -> Result<String, String> {
        self.read_reply(path, offset, limit).into_result()
    }

    /// `edit` with a hashline `document`.
    pub fn edit_reply(&self, document: &str) -> Reply {
        self.call("edit", json!({ "input": document }))
    }

    /// `edit`: the ops summaries and post-edit previews, or the error
    /// message (with its live snapshot when Rho sends one).
    pub fn edit(&self, document: &str) -> Result<String, String> {
        self.edit_reply(document).into_result()
    }

    /// `str_replace` of `old_string` by `new_string` in `path` (a host
    /// made [`with_edit_format`](Rho::with_edit_format)
    /// `EditFormat::StrReplace`).
    pub fn str_replace_reply(&self, path: &str, old_string: &str, new_string: &str) -> Reply {
        self.call(
            "str_replace",
            json!({ "path": path, "old_string": old_string, "new_string": new_string }),
        )
    }

    /// `apply_patch` of a Codex patch (a host made
    /// [`with_edit_format`](Rho::with_edit_format)
    /// `EditFormat::ApplyPatch`).
    pub fn apply_patch_reply(&self, patch: &str) -> Reply {
        self.call("apply_patch", json!({ "input": patch }))
    }

    /// `write` of `content` to `path`.
    pub fn write_reply(&self, path: &str, content: &str) -> Reply {
        self.call("write", json!({ "path": path, "content": content }))
    }

    /// `write`: the chain snapshot of the written file, or the error.
    pub fn write(&self, path: &str, content: &str) -> Result<String, String> {
        self.write_reply(path, content).into_result()
    }

    /// `grep` with raw JSON arguments (`pattern`, `path`, `glob`, …).
    pub fn grep_reply(&self, arguments: Value) -> Reply {
        self.call("grep", arguments)
    }
}

/// One-off `read_file` in `workspace_dir`.
pub fn read(
    workspace_dir: impl AsRef<Path>,
    path: &str,
    offset: Option<usize>,
    limit: Option<usize>,
) -> Result<String, String> {
    Rho::new(workspace_dir)?.read(path, offset, limit)
}

/// One-off `edit` in `workspace_dir`.
pub fn edit(workspace_dir: impl AsRef<Path>, document: &str) -> Result<String, String> {
    Rho::new(workspace_dir)?.edit(document)
}

/// One-off `write` in `workspace_dir`.
pub fn write(workspace_dir: impl AsRef<Path>, path: &str, content: &str) -> Result<String, String> {
    Rho::new(workspace_dir)?.write(path, content)
}
