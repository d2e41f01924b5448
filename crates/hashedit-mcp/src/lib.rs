//! # hashedit-mcp
//!
//! The hashline tools as a Model Context Protocol server, built on the
//! official `rmcp` SDK: `read_file`, `grep`, `glob`, `list_dir`, `write` and
//! `edit` over one workspace, with Rho's tool names and input schemas
//! (product.md §1). Any MCP client (Claude Code, Codex CLI, Gemini CLI,
//! Cursor, Zed, opencode…) gets the tools with one line of configuration:
//! `hashedit mcp --root DIR`.
//!
//! - Every result's `content` is exactly the text the CLI prints, so the
//!   model reads the same rows, previews and live snapshots in every client;
//!   tool failures (stale tag, parse error, path outside the root, bad
//!   arguments…) are `isError` results with the same text. The machine
//!   facts (paths, tags, counts, the error kind) ride in `_meta` under
//!   [`RESULT_META_KEY`]; `structuredContent` is sent only on request
//!   ([`StructuredContent::On`]), because Claude Code and Codex CLI show a
//!   model the structured value instead of the text when it is present.
//! - Without a fixed root the workspace is the client's first root
//!   ([`RootPolicy::Client`]).
//! - A cancelled request, or the end of the client's input, stops a running
//!   search within one file's work; a call sent with a `progressToken` gets
//!   `notifications/progress` every half second while it runs.
//! - One [`Session`](hashedit_tools::Session) per server remembers what was
//!   served, so 16-bit tag collisions are caught and drifted edits rebased
//!   (product.md §3 items 5 and 6).
//! - Calls run concurrently on tokio's blocking pool; the tools lock files,
//!   so racing edits never both land.
//! - The stdio transport ([`LineTransport`]) answers malformed
//!   and oversized messages with protocol-correct errors instead of
//!   dropping them.
//! - Protocol revisions 2025-11-25 (and older, by `initialize`) and
//!   2026-07-28 (by `server/discover`) are both served.
//!
//! Entry points: [`serve_stdio`] for the `hashedit mcp` command, [`serve`]
//! for any byte-stream pair (tests, embedding).

mod arguments;
mod catalog;
mod envelope;
mod export;
mod result;
mod roots;
mod server;
mod transport;

use std::sync::Arc;

use hashedit_core::BlockResolver;
use hashedit_tools::Workspace;
use rmcp::service::{QuitReason, ServerInitializeError};
use tokio::io::{AsyncRead, AsyncWrite};

pub use arguments::{CLIENT_CONTROL_ARGUMENTS, parse_arguments};
pub use catalog::{CatalogEntry, GUIDE, GUIDE_PROMPT, INSTRUCTIONS, READ_ONLY_INSTRUCTIONS};
pub use export::{ToolFormat, export_tool_definitions};
pub use result::{RESULT_META_KEY, StructuredContent};
pub use roots::{ROOTS_TIMEOUT, RootPolicy};
pub use server::{HashEditServer, PROGRESS_INTERVAL, SERVER_NAME, SUPPORTED_PROTOCOL_VERSIONS};
pub use transport::{DEFAULT_MAX_MESSAGE_BYTES, LineTransport};

/// How a server is set up.
#[derive(Clone)]
pub struct ServerOptions {
    /// Offer only the read-only tools; calls to `write` and `edit` are
    /// refused.
    pub read_only: bool,
    /// Largest incoming message, in bytes; a bigger request is answered
    /// with an error without being read into memory.
    pub max_message_bytes: usize,
    /// The grammar for block locators (`PUT N*:`, `CUT N*`) in edit
    /// documents, shared by every call; without one, block ops fail with a
    /// clear error. The `hashedit` binary passes its tree-sitter resolver.
    pub blocks: Option<Arc<dyn BlockResolver>>,
    /// Whether results also carry `structuredContent` (default: no, so
    /// every client shows the model the text).
    pub structured_content: StructuredContent,
    /// Whether the workspace given to [`serve`] is the root, or only the
    /// fallback for the client's roots (default: the root).
    pub roots: RootPolicy,
}

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            read_only: false,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            blocks: None,
            structured_content: StructuredContent::Off,
            roots: RootPolicy::Fixed,
        }
    }
}

impl std::fmt::Debug for ServerOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerOptions")
            .field("read_only", &self.read_only)
            .field("max_message_bytes", &self.max_message_bytes)
            .field("blocks", &self.blocks.is_some())
            .field("structured_content", &self.structured_content)
            .field("roots", &self.roots)
            .finish()
    }
}

/// Why a server stopped other than by its client closing the stream.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The session could not be opened (for example, the transport failed
    /// while answering `initialize`).
    #[error("could not start the MCP session: {0}")]
    Startup(Box<ServerInitializeError>),
    /// The service loop ended abnormally.
    #[error("the MCP service stopped unexpectedly: {0}")]
    Stopped(String),
}

/// Serves MCP over `reader`/`writer` until the client closes `reader` (or
/// the stream fails), then returns. A client that disconnects before
/// opening a session is a clean stop too. `ws` is the workspace root, or,
/// with [`RootPolicy::Client`], the fallback for a client without roots.
///
/// Over an in-memory pipe: one `initialize` request, its answer, then the
/// client hangs up and the server returns.
///
/// ```
/// use hashedit_mcp::{ServerOptions, serve};
/// use hashedit_tools::Workspace;
/// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let ws = Workspace::new(dir.path())?;
/// let (client, server) = tokio::io::duplex(64 * 1024);
/// let (read, write) = tokio::io::split(server);
/// let running = tokio::spawn(serve(ws, ServerOptions::default(), read, write));
///
/// let (from_server, mut to_server) = tokio::io::split(client);
/// to_server
///     .write_all(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"doc","version":"0"}}}
/// "#)
///     .await?;
/// let mut answer = String::new();
/// BufReader::new(from_server).read_line(&mut answer).await?;
/// assert!(answer.contains(r#""id":1"#) && answer.contains("hashedit"));
///
/// drop(to_server); // end of input: the server stops cleanly
/// running.await??;
/// # Ok(())
/// # }
/// ```
pub async fn serve<R, W>(
    ws: Workspace,
    options: ServerOptions,
    reader: R,
    writer: W,
) -> Result<(), ServeError>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let input_closed = tokio_util::sync::CancellationToken::new();
    let transport = LineTransport::new(
        reader,
        writer,
        options.max_message_bytes,
        SUPPORTED_PROTOCOL_VERSIONS.to_vec(),
    )
    .with_input_closed(input_closed.clone());
    let server = HashEditServer::with_input_closed(ws, options, input_closed);
    let running = match rmcp::serve_server(server, transport).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(error) => return Err(ServeError::Startup(Box::new(error))),
    };
    match running.waiting().await {
        Ok(QuitReason::Closed | QuitReason::Cancelled) => Ok(()),
        Ok(other) => Err(ServeError::Stopped(format!("{other:?}"))),
        Err(join) => Err(ServeError::Stopped(join.to_string())),
    }
}

/// Serves MCP on this process's stdin and stdout until stdin reaches EOF.
/// stdout carries only protocol messages.
pub async fn serve_stdio(ws: Workspace, options: ServerOptions) -> Result<(), ServeError> {
    serve(ws, options, tokio::io::stdin(), tokio::io::stdout()).await
}
