//! The MCP server handler: the six tools over one workspace and one session.

use std::borrow::Cow;
use std::sync::Arc;

use hashedit_tools::args::{EditArgs, GlobArgs, GrepArgs, ListDirArgs, ReadFileArgs, WriteArgs};
use hashedit_tools::tools::{self, EditMode};
use hashedit_tools::workspace::Workspace;
use hashedit_tools::{ErrorKind, Outcome, Session, ToolContext, ToolResult};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, ErrorData, Implementation, JsonObject, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::json;

use crate::ServerOptions;
use crate::arguments::parse_arguments;
use crate::catalog::{ToolName, instructions, tool_definitions};

/// Protocol revisions this server speaks, oldest first. 2025-11-25 and
/// older are negotiated with the `initialize` handshake; 2026-07-28 uses
/// `server/discover` and per-request metadata. A client asking `initialize`
/// for a revision not listed here is offered 2025-11-25.
pub const SUPPORTED_PROTOCOL_VERSIONS: &[ProtocolVersion] = &[
    ProtocolVersion::V_2024_11_05,
    ProtocolVersion::V_2025_03_26,
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2026_07_28,
];

/// The name this server gives in `serverInfo`.
pub const SERVER_NAME: &str = "hashedit";

/// One arguments struct per tool, checked and ready to run.
enum Call {
    ReadFile(ReadFileArgs),
    Grep(GrepArgs),
    Glob(GlobArgs),
    ListDir(ListDirArgs),
    Write(WriteArgs),
    Edit(EditArgs),
}

impl Call {
    /// Checks `arguments` against `tool`'s schema.
    fn parse(tool: ToolName, arguments: Option<&JsonObject>) -> Result<Call, String> {
        Ok(match tool {
            ToolName::ReadFile => Call::ReadFile(parse_arguments(tool, arguments)?),
            ToolName::Grep => Call::Grep(parse_arguments(tool, arguments)?),
            ToolName::Glob => Call::Glob(parse_arguments(tool, arguments)?),
            ToolName::ListDir => Call::ListDir(parse_arguments(tool, arguments)?),
            ToolName::Write => Call::Write(parse_arguments(tool, arguments)?),
            ToolName::Edit => Call::Edit(parse_arguments(tool, arguments)?),
        })
    }

    /// Runs the tool (blocking file I/O).
    fn run(self, cx: &ToolContext) -> ToolResult<Outcome> {
        match self {
            Call::ReadFile(args) => tools::read_file(cx, &args),
            Call::Grep(args) => tools::grep(cx, &args),
            Call::Glob(args) => tools::glob(cx, &args),
            Call::ListDir(args) => tools::list_dir(cx, &args),
            Call::Write(args) => tools::write(cx, &args),
            Call::Edit(args) => tools::edit(cx, &args, EditMode::Apply),
        }
    }
}

struct Shared {
    ws: Workspace,
    session: Session,
    options: ServerOptions,
    tools: Vec<Tool>,
}

/// The hashedit MCP server: an rmcp [`ServerHandler`] offering the
/// hashline tools over one workspace.
///
/// Cloning is cheap and every clone shares the same [`Session`], the
/// bounded memory of served snapshots that catches tag collisions and
/// rebases drifted edits. Each tool call runs on tokio's blocking pool, so
/// calls proceed concurrently; the tools lock the files they change, so of
/// two edits planned on one snapshot exactly one lands.
#[derive(Clone)]
pub struct HashEditServer {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for HashEditServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HashEditServer")
            .field("root", &self.shared.ws.root())
            .field("options", &self.shared.options)
            .finish_non_exhaustive()
    }
}

impl HashEditServer {
    /// A server over `ws` with a fresh session.
    pub fn new(ws: Workspace, options: ServerOptions) -> HashEditServer {
        let tools = tool_definitions(options.read_only);
        HashEditServer {
            shared: Arc::new(Shared {
                ws,
                session: Session::new(),
                options,
                tools,
            }),
        }
    }

    /// The workspace the tools run in.
    pub fn workspace(&self) -> &Workspace {
        &self.shared.ws
    }

    /// The session shared by every call.
    pub fn session(&self) -> &Session {
        &self.shared.session
    }

    /// The tools offered, as `tools/list` shows them.
    pub fn tools(&self) -> &[Tool] {
        &self.shared.tools
    }

    /// Runs one tool call to its result; only an unknown tool name or an
    /// internal failure is a protocol error.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        let Some(tool) = ToolName::parse(name) else {
            return Err(self.unknown_tool(name));
        };
        if tool.writes() && self.shared.options.read_only {
            return Ok(failure(
                ErrorKind::PermissionDenied,
                format!(
                    "{name} is not available: this hashedit server is read-only (started with \
                     --read-only), so it offers only read_file, grep, glob and list_dir; nothing \
                     was written"
                ),
            ));
        }
        let call = match Call::parse(tool, arguments) {
            Ok(call) => call,
            Err(message) => return Ok(failure(ErrorKind::InvalidArguments, message)),
        };
        let shared = self.shared.clone();
        let joined = tokio::task::spawn_blocking(move || {
            let mut cx = ToolContext::new(&shared.ws).with_session(&shared.session);
            if let Some(blocks) = &shared.options.blocks {
                cx = cx.with_blocks(blocks.as_ref());
            }
            call.run(&cx)
        })
        .await;
        match joined {
            Ok(Ok(outcome)) => Ok(success(outcome)),
            Ok(Err(error)) => Ok(failure(error.kind, error.message)),
            Err(join) => Err(ErrorData::internal_error(
                format!("{name} failed inside the server ({join}); please report this bug"),
                None,
            )),
        }
    }

    fn unknown_tool(&self, name: &str) -> ErrorData {
        let offered: Vec<&str> = self.shared.tools.iter().map(|t| t.name.as_ref()).collect();
        ErrorData::invalid_params(
            format!(
                "unknown tool '{name}'; this server offers {}",
                offered.join(", ")
            ),
            None,
        )
    }
}

/// A successful call: exactly the tool's text, plus its structured data.
fn success(outcome: Outcome) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(outcome.text)]);
    result.structured_content = Some(outcome.structured);
    result
}

/// A failed call: `isError` with the message the CLI prints, plus the kind.
fn failure(kind: ErrorKind, message: String) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(message)]);
    result.structured_content = Some(json!({ "kind": kind.name() }));
    result
}

impl ServerHandler for HashEditServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"))
                    .with_title("hashedit")
                    .with_description(
                        "Read, search and edit files by line number against hashline snapshots",
                    ),
            )
            .with_instructions(instructions(self.shared.options.read_only))
            .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(SUPPORTED_PROTOCOL_VERSIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.shared.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.shared.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("unknown method '{}'", request.method),
            None,
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(&request.name, request.arguments.as_ref())
            .await
            .map(CallToolResponse::from)
    }
}
