//! The native addon of the `hashedit` npm package.
//!
//! Wraps [`hashedit_embed::Embedded`] as the class `NativeWorkspace`, whose
//! methods return `{ text, data }` and throw an `Error` whose `code` is the
//! tool error's stable kind (`stale_tag`, `parse_error`, …); the package's
//! `index.js` turns those into `ToolError`s. The pure helpers `tag`,
//! `project` and `toolDefinitions`, and `runCli`, the `hashedit` command
//! line ([`hashedit::run_from`]), complete it.

use std::path::Path;
use std::sync::Arc;

use hashedit_embed::{Access, Embedded, Options};
use hashedit_tools::{
    EditArgs, EditMode, GlobArgs, GrepArgs, ListDirArgs, Outcome, OutputMode, ReadFileArgs,
    ToolError, ToolResult, WriteArgs,
};
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use serde_json::Value;

/// A failure: `code` is the tool error kind, or `invalid_arguments`.
type Failure = napi::Error<String>;

/// Options of `new Workspace(root, options)`.
#[napi(object)]
pub struct WorkspaceOptions {
    /// `"rho"` (default) or `"omp"`.
    pub tag_scheme: Option<String>,
    /// Output budget of a successful reply, in bytes (default 64000).
    pub max_output_bytes: Option<u32>,
    /// Refuse `write` and `edit` (default false).
    pub read_only: Option<bool>,
}

/// A successful tool call.
#[napi(object)]
pub struct ToolReply {
    /// Exactly the text the model should read.
    pub text: String,
    /// The call's facts; for `edit`, `files[i].diff` is each file's unified diff.
    pub data: Value,
}

/// `grep` options.
#[napi(object)]
pub struct GrepOptions {
    /// Only files whose path matches this glob.
    pub glob: Option<String>,
    /// Match the pattern as plain text.
    pub literal: Option<bool>,
    /// Ignore case.
    pub ignore_case: Option<bool>,
    /// Also search hidden files.
    pub include_hidden: Option<bool>,
    /// Cap on results.
    pub max_results: Option<u32>,
    /// Cap on rows per file.
    pub max_per_file: Option<u32>,
    /// `content` (default), `files_with_matches` or `count`.
    pub output_mode: Option<String>,
}

/// `glob` options.
#[napi(object)]
pub struct GlobOptions {
    /// Also list hidden files.
    pub include_hidden: Option<bool>,
    /// Cap on paths.
    pub max_results: Option<u32>,
}

/// `edit` options.
#[napi(object)]
pub struct EditOptions {
    /// Write nothing; answer with each file's unified diff.
    pub dry_run: Option<bool>,
    /// Write past the guards (never past a stale tag, an overlap or a bad line).
    pub force: Option<bool>,
}

/// One workspace root and its session.
#[napi]
pub struct NativeWorkspace {
    inner: Arc<Embedded>,
}

#[napi]
impl NativeWorkspace {
    /// Opens the workspace at `root`.
    #[napi(constructor)]
    pub fn new(root: String, options: Option<WorkspaceOptions>) -> Result<Self, Failure> {
        let options = options.unwrap_or(WorkspaceOptions {
            tag_scheme: None,
            max_output_bytes: None,
            read_only: None,
        });
        let scheme = options.tag_scheme.as_deref().unwrap_or("rho");
        let options = Options {
            tag_scheme: hashedit_embed::parse_scheme(scheme).map_err(invalid)?,
            max_output_bytes: options
                .max_output_bytes
                .map_or(Options::default().max_output_bytes, |n| n as usize),
            access: if options.read_only == Some(true) {
                Access::ReadOnly
            } else {
                Access::ReadWrite
            },
        };
        let inner = Embedded::open(Path::new(&root), options).map_err(failure)?;
        Ok(NativeWorkspace {
            inner: Arc::new(inner),
        })
    }

    /// The canonical workspace root.
    #[napi(getter)]
    pub fn root(&self) -> String {
        self.inner.root().display().to_string()
    }

    /// `"rho"` or `"omp"`.
    #[napi(getter)]
    pub fn tag_scheme(&self) -> String {
        self.inner.tag_scheme().name().to_string()
    }

    /// Whether `write` and `edit` are refused.
    #[napi(getter)]
    pub fn read_only(&self) -> bool {
        self.inner.access() == Access::ReadOnly
    }

    /// `read_file`.
    #[napi]
    pub fn read(
        &self,
        path: String,
        offset: Option<u32>,
        limit: Option<u32>,
    ) -> Result<ToolReply, Failure> {
        reply(self.inner.read(&ReadFileArgs {
            path,
            offset: offset.map(|n| n as usize),
            limit: limit.map(|n| n as usize),
        }))
    }

    /// `grep`.
    #[napi]
    pub fn grep(
        &self,
        pattern: String,
        path: Option<String>,
        options: Option<GrepOptions>,
    ) -> Result<ToolReply, Failure> {
        let o = options.unwrap_or(GrepOptions {
            glob: None,
            literal: None,
            ignore_case: None,
            include_hidden: None,
            max_results: None,
            max_per_file: None,
            output_mode: None,
        });
        let output_mode = match o.output_mode.as_deref() {
            Some(mode) => Some(mode.parse::<OutputMode>().map_err(invalid)?),
            None => None,
        };
        reply(self.inner.grep(&GrepArgs {
            pattern,
            path,
            glob: o.glob,
            literal: o.literal,
            case_sensitive: o.ignore_case.map(|i| !i),
            include_hidden: o.include_hidden,
            max_results: o.max_results.map(|n| n as usize),
            max_per_file: o.max_per_file.map(|n| n as usize),
            output_mode,
            ..Default::default()
        }))
    }

    /// `glob`.
    #[napi]
    pub fn glob(
        &self,
        pattern: String,
        path: Option<String>,
        options: Option<GlobOptions>,
    ) -> Result<ToolReply, Failure> {
        let (include_hidden, max_results) =
            options.map_or((None, None), |o| (o.include_hidden, o.max_results));
        reply(self.inner.glob(&GlobArgs {
            pattern,
            path,
            include_hidden,
            max_results: max_results.map(|n| n as usize),
            ..Default::default()
        }))
    }

    /// `list_dir` (the root by default).
    #[napi]
    pub fn list_dir(&self, path: Option<String>) -> Result<ToolReply, Failure> {
        reply(self.inner.list_dir(&ListDirArgs {
            path: path.unwrap_or_else(|| ".".into()),
            ..Default::default()
        }))
    }

    /// `write`; `tag` refuses a file that changed since; `force` writes
    /// content that looks like pasted read rows (FORMAT.md §8.1).
    #[napi]
    pub fn write(
        &self,
        path: String,
        content: String,
        tag: Option<String>,
        force: Option<bool>,
    ) -> Result<ToolReply, Failure> {
        reply(self.inner.write(&WriteArgs {
            path,
            content,
            tag,
            force,
        }))
    }

    /// `edit`.
    #[napi]
    pub fn edit(
        &self,
        document: String,
        options: Option<EditOptions>,
    ) -> Result<ToolReply, Failure> {
        let (dry_run, force) = options.map_or((None, None), |o| (o.dry_run, o.force));
        let mode = if dry_run == Some(true) {
            EditMode::DryRun
        } else {
            EditMode::Apply
        };
        let args = EditArgs {
            input: document,
            force,
        };
        reply(self.inner.edit(&args, mode))
    }

    /// The approval preview of `document`: each section dry-run against
    /// the live file, or projected when it cannot be.
    #[napi]
    pub fn preview(&self, document: String) -> Value {
        self.inner.preview(&document)
    }

    /// Runs a tool by its function-calling name with JSON arguments.
    #[napi]
    pub fn call(&self, name: String, arguments: Option<Value>) -> Result<ToolReply, Failure> {
        reply(self.inner.call(&name, arguments.unwrap_or(Value::Null)))
    }
}

fn reply(result: ToolResult<Outcome>) -> Result<ToolReply, Failure> {
    result
        .map(|outcome| ToolReply {
            text: outcome.text,
            data: outcome.structured,
        })
        .map_err(failure)
}

fn failure(error: ToolError) -> Failure {
    napi::Error::new(error.kind.name().to_string(), error.message)
}

fn invalid(message: String) -> Failure {
    napi::Error::new("invalid_arguments".to_string(), message)
}

/// The snapshot tag of `data` (a Buffer or a string) under `scheme`.
#[napi]
pub fn tag(data: napi::Either<Buffer, String>, scheme: Option<String>) -> Result<String, Failure> {
    let scheme =
        hashedit_embed::parse_scheme(scheme.as_deref().unwrap_or("rho")).map_err(invalid)?;
    Ok(match &data {
        napi::Either::A(buffer) => hashedit_embed::tag(buffer, scheme),
        napi::Either::B(text) => hashedit_embed::tag(text.as_bytes(), scheme),
    })
}

/// The projection of a (possibly partial) edit document.
#[napi]
pub fn project(partial_document: String) -> Value {
    hashedit_embed::project_json(&partial_document)
}

/// The tools' definitions (`openai`, `anthropic` or `mcp`).
#[napi]
pub fn tool_definitions(format: Option<String>, read_only: Option<bool>) -> Result<Value, Failure> {
    let format = format.as_deref().unwrap_or("openai");
    hashedit_embed::tool_definitions(format, read_only == Some(true))
        .map(Value::Array)
        .map_err(invalid)
}

/// The `hashedit` command line (`argv[0]` is the program name); returns
/// its exit status.
#[napi]
pub fn run_cli(argv: Vec<String>) -> u32 {
    u32::from(hashedit::run_from(argv))
}
