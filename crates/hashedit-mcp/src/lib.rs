//! # hashedit-mcp
//!
//! The hashline tools as a Model Context Protocol server, on the official
//! `rmcp` SDK, with Rho's tool names and input schemas (FORMAT.md §8.2):
//! `hashedit mcp --root DIR` in any MCP client.
//!
//! - A result's `content` is exactly the text the CLI prints; failures are
//!   `isError` results with the same text; the facts ride in `_meta` under
//!   [`RESULT_META_KEY`], and in `structuredContent` only on request
//!   ([`StructuredContent::On`]), since some clients then show the model
//!   only the structured value.
//! - Without a fixed root the workspace is the client's first root
//!   ([`RootPolicy::Client`]).
//! - Cancellation and the end of input stop a running search; a call with a
//!   `progressToken` gets progress every half second.
//! - One [`Session`](hashedit_tools::Session) per server catches tag
//!   collisions and rebases drifted edits; calls run concurrently, and the
//!   tools' locks let only one of two racing edits land.
//! - The stdio transport ([`LineTransport`]) answers malformed and oversized
//!   messages instead of dropping them.
//! - Revisions 2025-11-25 (and older) and 2026-07-28 are served.
//!
//! Entry points: [`serve_stdio`] for `hashedit mcp`, [`serve`] for any
//! byte-stream pair.

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

/// Serves MCP over `reader`/`writer` until the client closes `reader` or
/// the stream fails. `ws` is the workspace, or with [`RootPolicy::Client`]
/// the fallback for a client without roots. Over an in-memory pipe:
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
