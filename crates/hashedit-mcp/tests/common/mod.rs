//! Shared helpers for the in-process tests: a server over an in-memory
//! duplex pipe, driven either by rmcp's own client or by raw JSON-RPC lines.

#![allow(dead_code)] // Each test binary uses a different subset.

use std::path::{Path, PathBuf};

use hashedit_mcp::{ServeError, ServerOptions, serve};
use hashedit_tools::Workspace;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::service::RunningService;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::task::JoinHandle;

/// A temporary workspace.
pub(crate) struct Fixture {
    /// Keeps the directory alive.
    pub dir: tempfile::TempDir,
    /// The canonical workspace root.
    pub root: PathBuf,
}

impl Fixture {
    /// An empty workspace.
    pub(crate) fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        Fixture { dir, root }
    }

    /// A workspace holding `files` (relative path, content).
    pub(crate) fn with(files: &[(&str, &str)]) -> Fixture {
        let fixture = Fixture::new();
        for (path, content) in files {
            fixture.put(path, content);
        }
        fixture
    }

    /// Writes `content` to `path` behind the server's back.
    pub(crate) fn put(&self, path: &str, content: &str) {
        let full = self.root.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(full, content).unwrap();
    }

    /// The content of `path`.
    pub(crate) fn get(&self, path: &str) -> String {
        std::fs::read_to_string(self.root.join(path)).unwrap()
    }

    /// The path of `path` inside the workspace.
    pub(crate) fn path(&self, path: &str) -> PathBuf {
        self.root.join(path)
    }

    /// The workspace as the tools see it.
    pub(crate) fn workspace(&self) -> Workspace {
        Workspace::new(&self.root).unwrap()
    }
}

/// A pipe pair: (client end, server reader, server writer).
fn pipe() -> (
    DuplexStream,
    ReadHalf<DuplexStream>,
    WriteHalf<DuplexStream>,
) {
    let (client, server) = tokio::io::duplex(256 * 1024);
    let (read, write) = tokio::io::split(server);
    (client, read, write)
}

/// Starts a server over `ws` and returns the client end of its pipe.
pub(crate) fn start(
    ws: Workspace,
    options: ServerOptions,
) -> (DuplexStream, JoinHandle<Result<(), ServeError>>) {
    let (client, read, write) = pipe();
    let server = tokio::spawn(serve(ws, options, read, write));
    (client, server)
}

/// How a client opens its session.
#[derive(Debug, Clone)]
pub(crate) enum Lifecycle {
    /// The `initialize` handshake asking for this version.
    Initialize(ProtocolVersion),
    /// `server/discover` and per-request metadata (2026-07-28).
    Discover,
}

/// A connected rmcp client.
pub(crate) type Client = RunningService<RoleClient, ClientConfig>;

fn client_config(version: ProtocolVersion) -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("hashedit-tests", "0"),
    )
    .with_protocol_version(version)
}

/// Connects rmcp's client to a new server over `fixture`.
pub(crate) async fn connect(
    fixture: &Fixture,
    options: ServerOptions,
    lifecycle: Lifecycle,
) -> (Client, JoinHandle<Result<(), ServeError>>) {
    let (pipe, server) = start(fixture.workspace(), options);
    let client = match lifecycle {
        Lifecycle::Initialize(version) => client_config(version).serve(pipe).await.unwrap(),
        Lifecycle::Discover => client_config(ProtocolVersion::V_2026_07_28)
            .serve_with_lifecycle(
                pipe,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .unwrap(),
    };
    (client, server)
}

/// Connects with the 2025-11-25 handshake and default options.
pub(crate) async fn connect_default(
    fixture: &Fixture,
) -> (Client, JoinHandle<Result<(), ServeError>>) {
    connect(
        fixture,
        ServerOptions::default(),
        Lifecycle::Initialize(ProtocolVersion::V_2025_11_25),
    )
    .await
}

/// A tool result, flattened for assertions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Reply {
    /// The one text item.
    pub text: String,
    /// `isError`.
    pub is_error: bool,
    /// The facts in `_meta` under [`hashedit_mcp::RESULT_META_KEY`].
    pub structured: Value,
    /// `structuredContent`, which the default server never sends.
    pub structured_content: Option<Value>,
}

impl Reply {
    /// The error kind of a failed call.
    pub(crate) fn kind(&self) -> &str {
        assert!(self.is_error, "expected an error, got: {}", self.text);
        self.structured["kind"].as_str().unwrap()
    }

    /// The text of a successful call.
    pub(crate) fn ok(&self) -> &str {
        assert!(!self.is_error, "expected success, got: {}", self.text);
        &self.text
    }

    /// The snapshot tag in the first `[path#TAG]` header for `path`.
    pub(crate) fn tag_of(&self, path: &str) -> String {
        header_tag(&self.text, path)
    }
}

/// The tag in the first `[path#TAG]` header for `path` in `text`.
pub(crate) fn header_tag(text: &str, path: &str) -> String {
    let marker = format!("[{path}#");
    let at = text
        .find(&marker)
        .unwrap_or_else(|| panic!("no header for {path} in: {text}"))
        + marker.len();
    text[at..at + 4].to_string()
}

/// Flattens a call result, checking it has exactly one text item.
pub(crate) fn flatten(result: CallToolResult) -> Reply {
    assert_eq!(result.content.len(), 1, "one content item: {result:?}");
    let text = result.content[0]
        .as_text()
        .expect("a text content item")
        .text
        .clone();
    Reply {
        text,
        is_error: result.is_error.unwrap_or(false),
        structured: result
            .meta
            .as_ref()
            .and_then(|meta| meta.0.get(hashedit_mcp::RESULT_META_KEY))
            .cloned()
            .unwrap_or(Value::Null),
        structured_content: result.structured_content,
    }
}

/// Calls `tool` with `arguments` (a JSON object).
pub(crate) async fn call(client: &Client, tool: &str, arguments: Value) -> Reply {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
    let result = client
        .call_tool(params)
        .await
        .expect("a tool result, not a protocol error");
    flatten(result)
}

/// Reads `path` through the server and returns its tag.
pub(crate) async fn read_tag(client: &Client, path: &str) -> String {
    let reply = call(client, "read_file", json!({ "path": path })).await;
    reply.ok();
    reply.structured["tag"].as_str().unwrap().to_string()
}

/// Closes the client and checks the server stopped cleanly.
pub(crate) async fn finish(client: Client, server: JoinHandle<Result<(), ServeError>>) {
    client.cancel().await.unwrap();
    // A server that never stopped would hang the test: no clock decides.
    server.await.unwrap().unwrap();
}

/// A raw JSON-RPC peer over the server's pipe.
pub(crate) struct Raw {
    reader: BufReader<ReadHalf<DuplexStream>>,
    writer: WriteHalf<DuplexStream>,
    /// The server task.
    pub server: JoinHandle<Result<(), ServeError>>,
}

impl Raw {
    /// Starts a server over `fixture`.
    pub(crate) fn start(fixture: &Fixture, options: ServerOptions) -> Raw {
        let (pipe, server) = start(fixture.workspace(), options);
        let (read, writer) = tokio::io::split(pipe);
        Raw {
            reader: BufReader::new(read),
            writer,
            server,
        }
    }

    /// Sends raw bytes.
    pub(crate) async fn send_bytes(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    /// Sends one line (a newline is added).
    pub(crate) async fn send_line(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_bytes(&bytes).await;
    }

    /// Sends a JSON value as one line.
    pub(crate) async fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string()).await;
    }

    /// The next message from the server.
    pub(crate) async fn recv(&mut self) -> Value {
        let mut line = String::new();
        let n = self.reader.read_line(&mut line).await.unwrap();
        assert!(n > 0, "the server closed its output");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad JSON from server ({e}): {line}"))
    }

    /// Sends a request and returns the reply (which must carry its id).
    pub(crate) async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let reply = self.recv().await;
        assert_eq!(reply["id"], json!(id), "reply to {method}: {reply}");
        reply
    }

    /// Opens a session with `initialize` for `version` and returns the
    /// result.
    pub(crate) async fn initialize(&mut self, version: &str) -> Value {
        let reply = self
            .request(
                0,
                "initialize",
                json!({
                    "protocolVersion": version,
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"}
                }),
            )
            .await;
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        reply["result"].clone()
    }

    /// Closes the client's side and waits for the server to stop.
    pub(crate) async fn close(mut self) -> Result<(), ServeError> {
        self.writer.shutdown().await.unwrap();
        drop(self.writer);
        self.server.await.unwrap()
    }
}

/// The `_meta` a 2026-07-28 request carries.
pub(crate) fn modern_meta(version: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}
    })
}

/// True when `path` exists.
pub(crate) fn exists(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}
