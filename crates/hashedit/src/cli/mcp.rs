//! `hashedit mcp`: the tools served over MCP on stdin and stdout
//! (FORMAT.md §8.2).

use std::io::{IsTerminal, Write};

use super::args::Cli;
use super::{EXIT_TOOL_ERROR, EXIT_USAGE};

/// Runs `hashedit mcp` with its two flags.
pub(super) fn run(cli: &Cli, read_only: bool, structured_content: bool) -> u8 {
    let options = hashedit_mcp::ServerOptions {
        read_only,
        structured_content: if structured_content {
            hashedit_mcp::StructuredContent::On
        } else {
            hashedit_mcp::StructuredContent::Off
        },
        // An explicit --root wins over whatever the client says.
        roots: if cli.root.is_some() {
            hashedit_mcp::RootPolicy::Fixed
        } else {
            hashedit_mcp::RootPolicy::Client
        },
        // The server lives across edits: each file's last tree is kept, so
        // the next syntax check or block lookup reparses only what changed.
        blocks: Some(std::sync::Arc::new(
            hashedit_blocks::TreeSitterBlocks::new().with_tree_cache(),
        )),
        ..hashedit_mcp::ServerOptions::default()
    };
    serve(cli, options)
}

/// What `hashedit mcp` says on stderr when stdin is a terminal.
const MCP_ON_A_TERMINAL: &str = "\
hashedit mcp: waiting for an MCP client on stdin (JSON-RPC, one message per line); press Ctrl-D to stop.
An agent client starts this command itself. To connect one, run in your project:
  hashedit setup claude-code    (or codex, gemini, opencode, cursor, zed, vscode; see docs/SETUP.md)";

/// `hashedit mcp`: serves MCP on stdio until stdin closes. The tokio
/// runtime exists only for this subcommand.
fn serve(cli: &Cli, options: hashedit_mcp::ServerOptions) -> u8 {
    let fail = |message: String| {
        let _ = writeln!(std::io::stderr(), "hashedit: {message}");
    };
    let ws = match cli.workspace() {
        Ok(ws) => ws,
        Err(usage) => {
            fail(usage);
            return EXIT_USAGE;
        }
    };
    if std::io::stdin().is_terminal() {
        // Someone typed `hashedit mcp`: say what it waits for. Piped, as a
        // client starts it, stderr stays quiet.
        let _ = writeln!(std::io::stderr(), "{MCP_ON_A_TERMINAL}");
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            fail(format!("cannot start the async runtime: {e}"));
            return EXIT_TOOL_ERROR;
        }
    };
    let served = runtime.block_on(hashedit_mcp::serve_stdio(ws, options));
    // Tool calls still running finish on their own (writes are atomic);
    // do not wait on them, or on a stdin read, forever.
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    match served {
        Ok(()) => 0,
        Err(e) => {
            fail(e.to_string());
            EXIT_TOOL_ERROR
        }
    }
}
