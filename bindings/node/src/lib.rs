//! The native addon of the `hashedit-mcp` npm package.
//!
//! Wraps [`hashedit_embed::Embedded`] as the class `NativeWorkspace`. Its
//! `run(tool, args, options)` returns a Promise and does the tool's work on
//! libuv's thread pool (a napi-rs [`AsyncTask`]), so a grep of a large tree
//! never blocks the event loop; `runSync` does the same work on the calling
//! thread. Both answer with the envelope of [`hashedit_embed::envelope`]
//! (`{ ok, text, data }` or `{ ok: false, error: { kind, message } }`),
//! which the package's `index.js` turns into a reply or a thrown
//! `ToolError`. `preview` and `previewSync` likewise. The pure helpers
//! `tag`, `project` and `toolDefinitions`, and `runCli`, the `hashedit`
//! command line ([`hashedit::run_from`]), complete it.

use std::path::Path;
use std::sync::Arc;

use hashedit_embed::{Access, Case, Embedded, Options, Request, envelope};
use hashedit_tools::ToolError;
use napi::bindgen_prelude::{AsyncTask, Buffer, Unknown};
use napi::{Env, Task};
use napi_derive::napi;
use serde_json::Value;

/// A failure of the constructor or a helper: `code` is the tool error
/// kind, or `invalid_arguments`.
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
        let defaults = Options::default();
        let options = match options {
            None => defaults,
            Some(given) => Options {
                tag_scheme: match given.tag_scheme {
                    Some(name) => hashedit_embed::parse_scheme(&name).map_err(invalid)?,
                    None => defaults.tag_scheme,
                },
                max_output_bytes: given
                    .max_output_bytes
                    .map_or(defaults.max_output_bytes, |n| n as usize),
                access: if given.read_only == Some(true) {
                    Access::ReadOnly
                } else {
                    Access::ReadWrite
                },
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

    /// Runs the tool `tool` (its wire name) on the thread pool with
    /// `args`, the method's positional arguments under the argument
    /// struct's field names, and `options`, the rest in camelCase; resolves
    /// to the reply's envelope.
    #[napi]
    pub fn run(&self, tool: String, args: Option<Value>, options: Option<Value>) -> AsyncTask<Run> {
        AsyncTask::new(Run {
            inner: Arc::clone(&self.inner),
            request: Some(request(&tool, args, options)),
        })
    }

    /// [`NativeWorkspace::run`] on the calling thread.
    #[napi]
    pub fn run_sync(&self, tool: String, args: Option<Value>, options: Option<Value>) -> Value {
        envelope(request(&tool, args, options).and_then(|request| self.inner.run(request)))
    }

    /// The approval preview of `document` on the thread pool: each section
    /// dry-run against the live file, or projected when it cannot be.
    #[napi]
    pub fn preview(&self, document: String) -> AsyncTask<Preview> {
        AsyncTask::new(Preview {
            inner: Arc::clone(&self.inner),
            document,
        })
    }

    /// [`NativeWorkspace::preview`] on the calling thread.
    #[napi]
    pub fn preview_sync(&self, document: String) -> Value {
        self.inner.preview(&document)
    }
}

fn request(tool: &str, args: Option<Value>, options: Option<Value>) -> Result<Request, ToolError> {
    Request::from_call(tool, args.unwrap_or(Value::Null))?
        .options(options.unwrap_or(Value::Null), Case::Camel)
}

/// One tool call on libuv's thread pool (a request that could not be
/// built resolves to its error's envelope, as the tool's own errors do).
pub struct Run {
    inner: Arc<Embedded>,
    request: Option<Result<Request, ToolError>>,
}

impl Task for Run {
    type Output = Value;
    type JsValue = Unknown<'static>;

    fn compute(&mut self) -> napi::Result<Value> {
        Ok(match self.request.take() {
            Some(request) => envelope(request.and_then(|request| self.inner.run(request))),
            None => Value::Null,
        })
    }

    fn resolve(&mut self, env: Env, output: Value) -> napi::Result<Unknown<'static>> {
        env.to_js_value(&output)
    }
}

/// One approval preview on libuv's thread pool.
pub struct Preview {
    inner: Arc<Embedded>,
    document: String,
}

impl Task for Preview {
    type Output = Value;
    type JsValue = Unknown<'static>;

    fn compute(&mut self) -> napi::Result<Value> {
        Ok(self.inner.preview(&self.document))
    }

    fn resolve(&mut self, env: Env, output: Value) -> napi::Result<Unknown<'static>> {
        env.to_js_value(&output)
    }
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
