//! The MCP server handler: the six tools over one workspace and one session,
//! the model guide as a prompt, and an empty resource list.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hashedit_tools::{
    CancelToken, EditArgs, EditMode, ErrorKind, GlobArgs, GrepArgs, ListDirArgs, Outcome,
    ReadFileArgs, Session, ToolContext, ToolName, ToolResult, Workspace, WriteArgs,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CustomRequest, CustomResult,
    ErrorCode, ErrorData, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    Implementation, JsonObject, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, Prompt, PromptMessage, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, Role, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext};
use rmcp::{RoleServer, ServerHandler};
use tokio_util::sync::CancellationToken;

use crate::ServerOptions;
use crate::arguments::parse_arguments;
use crate::catalog::{GUIDE, GUIDE_PROMPT, instructions, tool_definitions};
use crate::result::{Errors, StructuredContent, failure, success};
use crate::roots::Roots;

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

/// How often a call with a `progressToken` reports progress (the first
/// report comes after one interval, so quick calls send none).
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(500);

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
            Call::ReadFile(args) => hashedit_tools::read_file(cx, &args),
            Call::Grep(args) => hashedit_tools::grep(cx, &args),
            Call::Glob(args) => hashedit_tools::glob(cx, &args),
            Call::ListDir(args) => hashedit_tools::list_dir(cx, &args),
            Call::Write(args) => hashedit_tools::write(cx, &args),
            Call::Edit(args) => hashedit_tools::edit(cx, &args, EditMode::Apply),
        }
    }
}

struct Shared {
    roots: Roots,
    session: Session,
    options: ServerOptions,
    tools: Vec<Tool>,
    /// Raised when the client's input ends: every running call stops.
    input_closed: CancellationToken,
}

/// The hashedit MCP server: an rmcp [`ServerHandler`] offering the hashline
/// tools over one workspace. Clones share one [`Session`]; each call runs
/// on tokio's blocking pool, so calls proceed concurrently; a search stops
/// when the client cancels it or closes its input.
#[derive(Clone)]
pub struct HashEditServer {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for HashEditServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HashEditServer")
            .field("root", &self.shared.roots.given().root())
            .field("options", &self.shared.options)
            .finish_non_exhaustive()
    }
}

impl HashEditServer {
    /// A server over `ws` (the fixed root, or the fallback for the
    /// client's roots, as `options.roots` says) with a fresh session.
    pub fn new(ws: Workspace, options: ServerOptions) -> HashEditServer {
        HashEditServer::with_input_closed(ws, options, CancellationToken::new())
    }

    /// [`HashEditServer::new`], stopping running calls when
    /// `input_closed` is cancelled (the transport does so at EOF).
    pub fn with_input_closed(
        ws: Workspace,
        options: ServerOptions,
        input_closed: CancellationToken,
    ) -> HashEditServer {
        let tools = tool_definitions(options.read_only, options.structured_content);
        HashEditServer {
            shared: Arc::new(Shared {
                roots: Roots::new(ws, options.roots),
                session: Session::new(),
                options,
                tools,
                input_closed,
            }),
        }
    }

    /// The workspace given at start-up: the fixed root, or the fallback
    /// used when the client offers no roots.
    pub fn workspace(&self) -> &Workspace {
        self.shared.roots.given()
    }

    /// The session shared by every call.
    pub fn session(&self) -> &Session {
        &self.shared.session
    }

    /// The tools offered, as `tools/list` shows them.
    pub fn tools(&self) -> &[Tool] {
        &self.shared.tools
    }

    /// Runs one tool call to its result in the workspace given at
    /// start-up, without cancellation or progress; only an unknown tool
    /// name or an internal failure is a protocol error.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        let ws = self.shared.roots.given().clone();
        self.run_call(ws, name, arguments, CancelToken::new(), Errors::Flagged)
            .await
    }

    /// Checks and runs one call in `ws`, stopping a search when `cancel` is
    /// raised.
    async fn run_call(
        &self,
        ws: Arc<Workspace>,
        name: &str,
        arguments: Option<&JsonObject>,
        cancel: CancelToken,
        errors: Errors,
    ) -> Result<CallToolResult, ErrorData> {
        let shape = self.shared.options.structured_content;
        let failure = |kind, message| failure(kind, message, shape, errors);
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
            let mut cx = ToolContext::new(&ws)
                .with_session(&shared.session)
                .with_cancel(&cancel);
            if let Some(blocks) = &shared.options.blocks {
                cx = cx.with_blocks(blocks.as_ref());
            }
            // A harness that asks for structured results gets the diffs too.
            if shape == StructuredContent::On {
                cx = cx.with_diffs();
            }
            call.run(&cx)
        })
        .await;
        match joined {
            Ok(Ok(outcome)) => Ok(success(outcome, shape)),
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

/// Raises `cancel` when the client cancels the request or closes its input.
fn bridge_cancellation(
    request: CancellationToken,
    input_closed: CancellationToken,
    cancel: CancelToken,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        tokio::select! {
            () = request.cancelled() => {}
            () = input_closed.cancelled() => {}
        }
        cancel.cancel();
    })
}

/// Reports progress on `token` every [`PROGRESS_INTERVAL`] until aborted.
/// Progress counts the seconds the call has run (always increasing, no
/// total); the message names the tool.
fn report_progress(
    peer: Peer<RoleServer>,
    token: ProgressToken,
    tool: String,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let started = Instant::now();
        let mut ticks = tokio::time::interval_at(
            tokio::time::Instant::now() + PROGRESS_INTERVAL,
            PROGRESS_INTERVAL,
        );
        loop {
            ticks.tick().await;
            let seconds = started.elapsed().as_secs_f64();
            let param = ProgressNotificationParam::new(token.clone(), seconds)
                .with_message(format!("{tool} still running after {seconds:.1} s"));
            if peer.notify_progress(param).await.is_err() {
                return;
            }
        }
    })
}

impl ServerHandler for HashEditServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
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

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let guide = Prompt::new(
            GUIDE_PROMPT,
            Some("How to read and edit files with hashedit's hashline tools"),
            None,
        );
        Ok(ListPromptsResult::with_all_items(vec![guide]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != GUIDE_PROMPT {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown prompt '{}'; this server offers {GUIDE_PROMPT}",
                    request.name
                ),
                None,
            ));
        }
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, GUIDE)])
                .with_description("How to read and edit files with hashedit's hashline tools")
                .into(),
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::default())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::default())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        Err(ErrorData::resource_not_found(
            format!(
                "this server offers no resources ({} was asked for); read files with the read_file tool",
                request.uri
            ),
            None,
        ))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // Fetch the client's roots now, so the first call need not wait.
        let server = self.clone();
        tokio::spawn(async move {
            server.shared.roots.workspace(&context.peer, None).await;
        });
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.shared.roots.invalidate().await;
        self.on_initialized(context).await;
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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let ws = self
            .shared
            .roots
            .workspace(&context.peer, context.meta.protocol_version())
            .await;
        let errors = Errors::for_client(context.peer.peer_info().as_deref());
        let cancel = CancelToken::new();
        let bridge = bridge_cancellation(
            context.ct.clone(),
            self.shared.input_closed.clone(),
            cancel.clone(),
        );
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| report_progress(context.peer.clone(), token, request.name.to_string()));
        let result = self
            .run_call(
                ws,
                &request.name,
                request.arguments.as_ref(),
                cancel,
                errors,
            )
            .await;
        bridge.abort();
        if let Some(progress) = progress {
            progress.abort();
        }
        result.map(CallToolResponse::from)
    }
}
