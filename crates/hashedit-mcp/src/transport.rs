//! The stdio transport: newline-delimited JSON-RPC with protocol-correct
//! answers to everything a client can get wrong, where rmcp's own transport
//! drops unparsable and oversized lines and leaves the client waiting:
//! `-32700` for a line that is not JSON, `-32600` (or `-32602` for bad
//! params) for an invalid message or a batch, addressed to its id; for an
//! oversized message, found by a streaming scan ([`crate::envelope`]), an
//! `isError` result for a `tools/call` and `-32600` for other requests.
//! Malformed notifications are dropped; before a session opens only
//! requests pass, since rmcp ends the connection on anything else.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, ErrorCode, GetMeta as _,
    InitializeRequestParams, PaginatedRequestParams, ProtocolVersion, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;

use crate::envelope::EnvelopeScanner;
use crate::result::RESULT_META_KEY;

/// Default cap on one incoming message (bytes): rmcp's own stdio limit.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// The requests MCP defines for a client to send; one of these that rmcp
/// cannot read has bad params, it is not an unknown method.
const CLIENT_REQUEST_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/directory/read",
    "subscriptions/listen",
    "completion/complete",
    "logging/setLevel",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
];

/// `ErrorKind` name carried by the tool result for an oversized call.
const TOO_LARGE_KIND: &str = "too_large";

/// The outcome of reading one line.
enum LineRead {
    /// A whole line is in the line buffer.
    Line,
    /// A line over the limit ended; it was scanned and answered, not kept.
    Oversized,
    /// The peer closed the stream (a partial last line is dropped).
    Eof,
    /// Reading failed.
    Failed,
}

/// A line being discarded because it is over the limit.
struct Oversized {
    scanner: EnvelopeScanner,
    bytes: usize,
}

/// Newline-delimited JSON-RPC over any byte stream pair, for the server
/// side (see the module documentation).
pub struct LineTransport<R, W> {
    reader: BufReader<R>,
    line: Vec<u8>,
    max_message_bytes: usize,
    oversized: Option<Oversized>,
    writer: Arc<Mutex<Option<W>>>,
    /// A session has been opened; until then only requests pass.
    opened: bool,
    supported: Vec<ProtocolVersion>,
    /// Raised when the input ends, so calls still running stop at once.
    input_closed: Option<CancellationToken>,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// A transport reading requests from `reader` and writing replies to
    /// `writer`, accepting messages up to `max_message_bytes` (at least
    /// 1 KiB is enforced) and the inline lifecycle for `supported` versions.
    pub fn new(
        reader: R,
        writer: W,
        max_message_bytes: usize,
        supported: Vec<ProtocolVersion>,
    ) -> Self {
        LineTransport {
            reader: BufReader::new(reader),
            line: Vec::new(),
            max_message_bytes: max_message_bytes.max(1024),
            oversized: None,
            writer: Arc::new(Mutex::new(Some(writer))),
            opened: false,
            supported,
            input_closed: None,
        }
    }

    /// The same transport, raising `token` when the input ends (EOF or a
    /// read error): the server passes it to every running tool call, so an
    /// abandoned search stops instead of running to its time limit.
    pub fn with_input_closed(mut self, token: CancellationToken) -> Self {
        self.input_closed = Some(token);
        self
    }

    /// Reads one line, never holding more than the limit. Cancel-safe: all
    /// progress is kept in `self` and bytes are consumed only after they
    /// were stored or scanned.
    async fn read_line(&mut self) -> LineRead {
        loop {
            let available = match self.reader.fill_buf().await {
                Ok(available) => available,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return LineRead::Failed,
            };
            if available.is_empty() {
                self.line.clear();
                self.oversized = None;
                return LineRead::Eof;
            }
            let newline = memchr_newline(available);
            let take = newline.map_or(available.len(), |at| at + 1);
            let chunk = &available[..take];
            if let Some(big) = &mut self.oversized {
                big.scanner.feed(chunk);
                big.bytes += take;
            } else if self.line.len() + take > self.max_message_bytes {
                let mut scanner = EnvelopeScanner::new();
                scanner.feed(&self.line);
                scanner.feed(chunk);
                self.oversized = Some(Oversized {
                    scanner,
                    bytes: self.line.len() + take,
                });
                self.line = Vec::new();
            } else {
                self.line.extend_from_slice(chunk);
            }
            self.reader.consume(take);
            if newline.is_some() {
                return match self.oversized.take() {
                    Some(big) => {
                        let envelope = big.scanner.envelope();
                        self.answer_oversized(envelope, big.bytes);
                        LineRead::Oversized
                    }
                    None => LineRead::Line,
                };
            }
        }
    }

    /// Answers a message that was too large to read.
    fn answer_oversized(&self, envelope: crate::envelope::Envelope, bytes: usize) {
        let message = self.too_large_message(bytes);
        let Some(id) = envelope.id else {
            if envelope.method.is_none() {
                // Neither a request nor a notification we can recognise.
                self.reply(error_reply(None, ErrorCode::INVALID_REQUEST, &message));
            }
            // A notification: JSON-RPC forbids answering it.
            return;
        };
        if envelope.method.as_deref() == Some("tools/call") {
            // A tool result the model can read. Without `resultType` it is
            // "complete" to 2026-07-28 clients, and plain to older ones.
            let text = format!(
                "{message}; nothing was run. Split the work into smaller calls (for example \
                 several edit calls, each with a shorter document)."
            );
            self.reply(json!({
                "jsonrpc": "2.0",
                "id": id,
                "result": {
                    "content": [{ "type": "text", "text": text }],
                    "_meta": { RESULT_META_KEY: { "kind": TOO_LARGE_KIND } },
                    "isError": true,
                },
            }));
        } else {
            self.reply(error_reply(Some(id), ErrorCode::INVALID_REQUEST, &message));
        }
    }

    fn too_large_message(&self, bytes: usize) -> String {
        format!(
            "the request is {bytes} bytes, over this server's limit of {} bytes per message",
            self.max_message_bytes
        )
    }

    /// Sends `message` without tying it to the caller: the write runs to
    /// completion even if the receive that produced it is cancelled.
    fn reply(&self, message: Value) {
        let writer = self.writer.clone();
        tokio::spawn(async move {
            let _ = write_message(&writer, &message).await;
        });
    }

    /// Turns a complete line into a message to pass on, answering or
    /// dropping it otherwise.
    fn decode_line(&mut self) -> Option<ClientJsonRpcMessage> {
        let line = trim_line(&self.line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        if let Ok(message) = serde_json::from_slice::<ClientJsonRpcMessage>(line) {
            // rmcp reads a standard method whose params do not fit as a
            // custom request and would answer "method not found".
            if let ClientJsonRpcMessage::Request(request) = &message
                && let ClientRequest::CustomRequest(custom) = &request.request
                && CLIENT_REQUEST_METHODS.contains(&custom.method.as_str())
            {
                let object = serde_json::from_slice::<Value>(line)
                    .ok()
                    .and_then(|v| v.as_object().cloned())
                    .unwrap_or_default();
                self.reply(error_reply(
                    Some(request.id.clone()),
                    ErrorCode::INVALID_PARAMS,
                    &format!(
                        "invalid params for {}: {}",
                        custom.method,
                        params_problem(&custom.method, &object)
                    ),
                ));
                return None;
            }
            return self.admit(message);
        }
        let value = match serde_json::from_slice::<Value>(line) {
            Ok(value) => value,
            Err(syntax) => {
                self.reply(error_reply(
                    None,
                    ErrorCode::PARSE_ERROR,
                    &format!("the message is not valid JSON: {syntax}"),
                ));
                return None;
            }
        };
        if let Some(answer) = answer_invalid(&value) {
            self.reply(answer);
        }
        None
    }

    /// Lets `message` through unless it would arrive before the session is
    /// opened and is not a request.
    fn admit(&mut self, message: ClientJsonRpcMessage) -> Option<ClientJsonRpcMessage> {
        if self.opened {
            return Some(message);
        }
        match &message {
            ClientJsonRpcMessage::Request(request) => {
                if opens_session(&request.request, &self.supported) {
                    self.opened = true;
                } else if skips_initialize(&request.request) {
                    self.reply(error_reply(
                        Some(request.id.clone()),
                        ErrorCode::INVALID_REQUEST,
                        NOT_INITIALIZED,
                    ));
                    return None;
                }
                Some(message)
            }
            // Anything else before the session exists would end it.
            _ => None,
        }
    }
}

/// True when `request` starts a session: `initialize`, or a request other
/// than discovery and ping that carries complete 2026-07-28 metadata for a
/// supported version (rmcp's rule for choosing the inline lifecycle).
fn opens_session(request: &ClientRequest, supported: &[ProtocolVersion]) -> bool {
    match request {
        ClientRequest::InitializeRequest(_) => true,
        ClientRequest::DiscoverRequest(_) | ClientRequest::PingRequest(_) => false,
        other => {
            let meta = other.get_meta();
            meta.missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty()
                && meta
                    .protocol_version()
                    .is_some_and(|version| supported.contains(&version))
        }
    }
}

/// The answer to a request sent before any session exists, with no
/// per-request metadata either (rmcp's own answer lists the `_meta` fields
/// it misses, which reads as if the request were merely malformed).
const NOT_INITIALIZED: &str = "the session is not initialized: send an initialize request first and \
     wait for its answer, then this request (or, under protocol 2026-07-28 without initialize, give every \
     request _meta with io.modelcontextprotocol/protocolVersion and \
     io.modelcontextprotocol/clientCapabilities)";

/// True when `request`, arriving before a session exists, tries neither
/// lifecycle: it is not `initialize`, discovery or ping, and its `_meta`
/// declares no protocol version. (A request that declares one chose the
/// 2026-07-28 inline lifecycle, and rmcp names what it lacks.)
fn skips_initialize(request: &ClientRequest) -> bool {
    match request {
        ClientRequest::InitializeRequest(_)
        | ClientRequest::DiscoverRequest(_)
        | ClientRequest::PingRequest(_) => false,
        other => other.get_meta().protocol_version().is_none(),
    }
}

/// A JSON-RPC error response. `id` is `null` when the request's id could
/// not be determined, as JSON-RPC 2.0 requires.
fn error_reply(id: Option<RequestId>, code: ErrorCode, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code.0, "message": message },
    })
}

/// The answer to well-formed JSON that is not a valid message, if any.
fn answer_invalid(value: &Value) -> Option<Value> {
    let Some(object) = value.as_object() else {
        let what = if value.is_array() {
            "batches (JSON arrays) are not supported; send one message per line"
        } else {
            "a message must be a JSON object"
        };
        return Some(error_reply(None, ErrorCode::INVALID_REQUEST, what));
    };
    let id = object.get("id").and_then(valid_id);
    let method = object.get("method").and_then(Value::as_str);
    let is_request = object.contains_key("id");
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        // A notification is never answered, even a broken one.
        return (is_request || method.is_none()).then(|| {
            error_reply(
                id,
                ErrorCode::INVALID_REQUEST,
                "the message must carry \"jsonrpc\": \"2.0\"",
            )
        });
    }
    match method {
        // A notification that does not parse: never answered.
        Some(_) if !is_request => None,
        Some(_) if id.is_none() => Some(error_reply(
            None,
            ErrorCode::INVALID_REQUEST,
            "the id must be a string or an integer",
        )),
        Some(method) => Some(error_reply(
            id,
            ErrorCode::INVALID_PARAMS,
            &format!(
                "invalid params for {method}: {}",
                params_problem(method, object)
            ),
        )),
        // A malformed response from the client: this server sends no
        // requests, so there is nobody to tell.
        None if object.contains_key("result") || object.contains_key("error") => None,
        None => Some(error_reply(
            id,
            ErrorCode::INVALID_REQUEST,
            "a request needs a \"method\" string",
        )),
    }
}

/// Why a request's params do not fit its method, as precisely as serde
/// can say for the methods a client is likely to get wrong.
fn params_problem(method: &str, object: &serde_json::Map<String, Value>) -> String {
    let params = object.get("params").cloned().unwrap_or(Value::Null);
    if method == "tools/call" {
        let name = params.get("name");
        let arguments = params.get("arguments");
        if !params.is_object() {
            return "params must be an object with the tool's name and its arguments".into();
        } else if !name.is_some_and(Value::is_string) {
            return "params.name must be the tool's name, as a string".into();
        } else if arguments.is_some_and(|a| !a.is_object() && !a.is_null()) {
            return "params.arguments must be an object holding the tool's arguments".into();
        }
    }
    let detail = match method {
        "tools/call" => serde_json::from_value::<CallToolRequestParams>(params).err(),
        "initialize" => serde_json::from_value::<InitializeRequestParams>(params).err(),
        "tools/list" => serde_json::from_value::<Option<PaginatedRequestParams>>(params).err(),
        _ => None,
    };
    match detail {
        Some(e) => e.to_string(),
        None => format!("the params do not have the shape {method} requires"),
    }
}

/// `value` as a JSON-RPC request id, if it is one.
fn valid_id(value: &Value) -> Option<RequestId> {
    if value.is_string() || value.is_i64() || value.is_u64() {
        serde_json::from_value(value.clone()).ok()
    } else {
        None
    }
}

/// The line without its `\n`, a `\r` before it, or a leading byte order mark.
fn trim_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// Writes one message as a line and flushes it, holding the writer for the
/// whole line so concurrent replies never interleave.
async fn write_message<W: AsyncWrite + Unpin>(
    writer: &Mutex<Option<W>>,
    message: &impl serde::Serialize,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    let mut guard = writer.lock().await;
    let Some(writer) = guard.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the transport is closed",
        ));
    };
    writer.write_all(&bytes).await?;
    writer.flush().await
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = self.writer.clone();
        async move { write_message(&writer, &item).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            match self.read_line().await {
                LineRead::Line => {
                    let message = self.decode_line();
                    self.line.clear();
                    if let Some(message) = message {
                        return Some(message);
                    }
                }
                LineRead::Oversized => {}
                LineRead::Eof | LineRead::Failed => {
                    if let Some(token) = &self.input_closed {
                        token.cancel();
                    }
                    return None;
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut guard = self.writer.lock().await;
        if let Some(mut writer) = guard.take() {
            writer.flush().await?;
            writer.shutdown().await?;
        }
        Ok(())
    }
}
