// A scripted fake model for driving real agent CLIs offline.
//
//   node fake_model.mjs LOG [PORT]
//
// Listens on 127.0.0.1:PORT (0 or absent: an ephemeral port), prints
// `listening http://127.0.0.1:<port>` on stdout once it accepts
// connections, and appends one JSON line per HTTP request to LOG. It stops
// on SIGTERM/SIGINT or when its stdin closes.
//
// It speaks the four wire protocols the agent CLIs use:
//   Anthropic Messages       POST /v1/messages (SSE or JSON), count_tokens
//   OpenAI Responses         POST /v1/responses (SSE or JSON)
//   OpenAI Chat Completions  POST /v1/chat/completions (SSE or JSON)
//   Gemini                   POST /v1beta/models/M:generateContent,
//                            :streamGenerateContent, :countTokens
// plus model listings (GET .../models), answered with one fake model. As
// an HTTP proxy it logs and refuses requests for any other host.
//
// A request is "main" when the tools it offers include the hashedit MCP
// tools (found by suffix: read_file, edit, grep, whatever prefix the client
// adds). The script for a main request depends only on how many tool
// results the conversation already holds:
//   0 results: call read_file {path: "notes.txt"}
//   1 result:  call edit with "[notes.txt#TAG]\nPUT 2:\n+TWO\n", TAG parsed
//              from the read result
//   2 results: call the same edit again (its tag is now stale)
//   3 results: call grep {pattern: "TWO"}
//   more:      answer the text "done"
// Gemini CLI adds a boolean `wait_for_previous` to every tool's schema; when
// a tool's schema has it, the call passes it as true, as a model would. Other requests (titles, summaries, next-speaker
// checks) are "side" requests, answered with short text, or with JSON that
// fits the response schema they ask for.
//
// Each log line: {seq, t, method, url, api, kind, turn, toolNames,
// tools: [{name, schema, description}] (as offered), toolResults: [{name,
// text, isError}], reply, body}. toolResults holds, in
// conversation order, the text of each tool result as the client sent it:
// the text parts joined, or for Gemini the string leaves of the
// functionResponse object, so a test can check what the model was shown.

import http from "node:http";
import { appendFileSync } from "node:fs";

const [logPath, portArg] = process.argv.slice(2);
if (!logPath) {
  console.error("usage: node fake_model.mjs LOG [PORT]");
  process.exit(2);
}
const t0 = Date.now();
let seq = 0;

function log(entry) {
  appendFileSync(logPath, JSON.stringify(entry) + "\n");
}

// --- The script -------------------------------------------------------------

const HASHEDIT_ARGS = {
  read_file: ["path", "offset", "limit"],
  edit: ["input"],
  grep: [
    "pattern", "path", "glob", "literal", "case_sensitive", "include_hidden",
    "max_results", "max_per_file", "output_mode",
  ],
};

/// The client's name for hashedit's tool `base`, from the offered tools
/// [{name, schema}]: the one ending in `base` after a separator, preferring
/// names that mention hashedit (Gemini CLI and Claude Code have built-in
/// tools called read_file/Grep too).
function pickTool(tools, base) {
  const matches = tools.filter((t) => {
    if (t.name === base) return true;
    for (const sep of ["__", "_", ".", "/", "-", ":"]) {
      if (t.name.endsWith(sep + base)) return true;
    }
    return false;
  });
  return (
    matches.find((t) => /hashedit/i.test(t.name)) ??
    matches.find((t) => t.name === base) ??
    null
  );
}

function isMain(tools) {
  return ["read_file", "edit", "grep"].every((b) => {
    const t = pickTool(tools, b);
    return t && (/hashedit/i.test(t.name) || schemaProps(t.schema).includes(HASHEDIT_ARGS[b][0]));
  }) && tools.some((t) => /hashedit/i.test(t.name));
}

function schemaProps(schema) {
  return schema && typeof schema === "object" && schema.properties
    ? Object.keys(schema.properties)
    : [];
}

/// Arguments for a call of `tool`: `args`, plus `wait_for_previous: true`
/// when the client added that control property to the tool's schema.
function withInjected(tool, base, args) {
  const props = tool.schema?.properties ?? {};
  const out = { ...args };
  if ("wait_for_previous" in props && !HASHEDIT_ARGS[base].includes("wait_for_previous")) {
    out.wait_for_previous = true;
  }
  return out;
}

/// The tag of the read: the header in the result's text, else a `tag`
/// field (a client that showed structured data instead of the text), so the
/// conversation goes on and every step can be checked.
function readTag(text) {
  const m =
    /\[notes\.txt#([0-9A-Fa-f]{4})\]/.exec(text) ??
    /\\*"tag\\*"\s*:\s*\\*"([0-9A-Fa-f]{4})/.exec(text);
  return m ? m[1] : "0000";
}

/// What the model does next: {call: {name, args}} or {text}.
function scriptStep(tools, results) {
  const n = results.length;
  const call = (base, args) => {
    const tool = pickTool(tools, base);
    return { call: { name: tool.name, args: withInjected(tool, base, args) } };
  };
  if (n === 0) return call("read_file", { path: "notes.txt" });
  if (n === 1 || n === 2) {
    const tag = readTag(results[0].text);
    return call("edit", { input: `[notes.txt#${tag}]\nPUT 2:\n+TWO\n` });
  }
  if (n === 3) return call("grep", { pattern: "TWO" });
  return { text: "done" };
}

/// A value that fits a JSON schema (for side requests that ask for JSON),
/// choosing "user" where an enum offers it so next-speaker checks end turns.
function fill(schema) {
  if (!schema || typeof schema !== "object") return "ok";
  if (Array.isArray(schema.enum) && schema.enum.length) {
    return schema.enum.includes("user") ? "user" : schema.enum[0];
  }
  const type = String(
    Array.isArray(schema.type) ? schema.type[0] : schema.type ?? "",
  ).toLowerCase();
  if (type === "object" || schema.properties) {
    const out = {};
    for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = fill(v);
    return out;
  }
  if (type === "array") return [];
  if (type === "boolean") return false;
  if (type === "integer" || type === "number") {
    return typeof schema.minimum === "number" ? schema.minimum : 0;
  }
  return "ok";
}

function sideText(schema) {
  return schema ? JSON.stringify(fill(schema)) : "Editing notes";
}

// --- Content helpers ---------------------------------------------------------

/// The string leaves of a value, in order (for Gemini's functionResponse).
function leaves(v, out = []) {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => leaves(x, out));
  else if (v && typeof v === "object") Object.values(v).forEach((x) => leaves(x, out));
  return out;
}

/// Text of a content value: a string, or parts with `text`.
function partsText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (typeof p === "string" ? p : typeof p?.text === "string" ? p.text : JSON.stringify(p)))
      .join("\n");
  }
  if (content == null) return "";
  return JSON.stringify(content);
}

// --- Anthropic Messages -------------------------------------------------------

function anthropic(body) {
  const tools = (body.tools ?? [])
    .filter((t) => t && t.name)
    .map((t) => ({ name: t.name, schema: t.input_schema, description: t.description }));
  const names = new Map();
  const results = [];
  for (const m of body.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === "tool_use") names.set(b.id, b.name);
      if (b.type === "tool_result") {
        results.push({ name: names.get(b.tool_use_id) ?? null, text: partsText(b.content), isError: !!b.is_error });
      }
    }
  }
  return { tools, results };
}

function anthropicReply(res, body, step) {
  const id = `msg_fake_${seq}`;
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const block = step.call
    ? { type: "tool_use", id: `toolu_fake_${seq}`, name: step.call.name, input: step.call.args }
    : { type: "text", text: step.text };
  const stop = step.call ? "tool_use" : "end_turn";
  if (!body.stream) {
    return json(res, 200, {
      id, type: "message", role: "assistant", model: body.model ?? "fake",
      content: [block], stop_reason: stop, stop_sequence: null, usage,
    });
  }
  sse(res);
  const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  ev("message_start", {
    message: {
      id, type: "message", role: "assistant", model: body.model ?? "fake", content: [],
      stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 },
    },
  });
  if (step.call) {
    ev("content_block_start", { index: 0, content_block: { ...block, input: {} } });
    ev("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
  } else {
    ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: block.text } });
  }
  ev("content_block_stop", { index: 0 });
  ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  ev("message_stop", {});
  res.end();
}

// --- OpenAI Responses -----------------------------------------------------------

function responsesTools(list) {
  // Function tools, and function tools inside namespaces.
  const out = [];
  for (const t of list ?? []) {
    if (t?.type === "function" && t.name) out.push({ name: t.name, schema: t.parameters, description: t.description });
    // Freeform tools (apply_patch) and hosted ones (tool_search,
    // web_search), by name or else by type: offered, never called.
    else if (t?.type && !Array.isArray(t?.tools)) out.push({ name: t.name ?? t.type, schema: null, description: t.description });
    else if (Array.isArray(t?.tools)) {
      // Codex puts each MCP server's tools in a namespace ("mcp__hashedit"
      // holding "read_file"); a call names the tool and its namespace.
      for (const u of responsesTools(t.tools)) {
        const sep = !t.name || /[_.\/:-]$/.test(t.name) ? "" : "__";
        out.push({ ...u, name: t.name ? `${t.name}${sep}${u.name}` : u.name, plain: u.name, ns: t.name });
      }
    }
  }
  return out;
}

function responses(body) {
  const tools = responsesTools(body.tools);
  const names = new Map();
  const results = [];
  const input = Array.isArray(body.input) ? body.input : [];
  for (const item of input) {
    if (item.type === "function_call") names.set(item.call_id, item.name);
    if (item.type === "function_call_output") {
      const out = item.output;
      const text = typeof out === "string" ? out : partsText(out?.content ?? out);
      results.push({ name: names.get(item.call_id) ?? null, text, isError: out?.success === false });
    }
  }
  return { tools, results };
}

function responsesReply(res, body, step, tools) {
  const id = `resp_fake_${seq}`;
  let item;
  if (step.call) {
    const tool = tools.find((t) => t.name === step.call.name);
    item = {
      type: "function_call", id: `fc_fake_${seq}`, call_id: `call_fake_${seq}`,
      name: tool?.plain ?? step.call.name, arguments: JSON.stringify(step.call.args), status: "completed",
    };
    if (tool?.ns) item.namespace = tool.ns;
  } else {
    item = {
      type: "message", id: `msg_fake_${seq}`, role: "assistant", status: "completed",
      content: [{ type: "output_text", text: step.text, annotations: [] }],
    };
  }
  const usage = {
    input_tokens: 10, input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15,
  };
  const response = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model: body.model ?? "fake", status: "completed", output: [item], usage };
  if (!body.stream) return json(res, 200, response);
  sse(res);
  let n = 0;
  const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n++, ...data })}\n\n`);
  ev("response.created", { response: { ...response, status: "in_progress", output: [] } });
  ev("response.in_progress", { response: { ...response, status: "in_progress", output: [] } });
  ev("response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress", ...(step.call ? { arguments: "" } : { content: [] }) } });
  if (step.call) {
    ev("response.function_call_arguments.delta", { item_id: item.id, output_index: 0, delta: item.arguments });
    ev("response.function_call_arguments.done", { item_id: item.id, output_index: 0, arguments: item.arguments });
  } else {
    ev("response.content_part.added", { item_id: item.id, output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
    ev("response.output_text.delta", { item_id: item.id, output_index: 0, content_index: 0, delta: step.text });
    ev("response.output_text.done", { item_id: item.id, output_index: 0, content_index: 0, text: step.text });
    ev("response.content_part.done", { item_id: item.id, output_index: 0, content_index: 0, part: item.content[0] });
  }
  ev("response.output_item.done", { output_index: 0, item });
  ev("response.completed", { response });
  res.end();
}

// --- OpenAI Chat Completions -------------------------------------------------

function chat(body) {
  const tools = (body.tools ?? [])
    .filter((t) => t?.function?.name)
    .map((t) => ({ name: t.function.name, schema: t.function.parameters, description: t.function.description }));
  const names = new Map();
  const results = [];
  for (const m of body.messages ?? []) {
    for (const c of m.tool_calls ?? []) names.set(c.id, c.function?.name);
    if (m.role === "tool") results.push({ name: names.get(m.tool_call_id) ?? null, text: partsText(m.content), isError: false });
  }
  return { tools, results };
}

function chatReply(res, body, step) {
  const id = `chatcmpl_fake_${seq}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model ?? "fake";
  const call = step.call && {
    id: `call_fake_${seq}`, type: "function",
    function: { name: step.call.name, arguments: JSON.stringify(step.call.args) },
  };
  const finish = step.call ? "tool_calls" : "stop";
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!body.stream) {
    const message = step.call ? { role: "assistant", content: null, tool_calls: [call] } : { role: "assistant", content: step.text };
    return json(res, 200, { id, object: "chat.completion", created, model, choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  sse(res);
  const chunk = (choices, extra = {}) => res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`);
  if (step.call) {
    chunk([{ index: 0, delta: { role: "assistant", content: null, tool_calls: [{ index: 0, ...call }] }, finish_reason: null }]);
  } else {
    chunk([{ index: 0, delta: { role: "assistant", content: step.text }, finish_reason: null }]);
  }
  chunk([{ index: 0, delta: {}, finish_reason: finish }]);
  chunk([], { usage });
  res.write("data: [DONE]\n\n");
  res.end();
}

// --- Gemini -------------------------------------------------------------------

function gemini(body) {
  const tools = [];
  for (const t of body.tools ?? []) {
    for (const f of t.functionDeclarations ?? []) {
      tools.push({ name: f.name, schema: f.parametersJsonSchema ?? f.parameters, description: f.description });
    }
  }
  const results = [];
  for (const c of body.contents ?? []) {
    for (const p of c.parts ?? []) {
      if (p.functionResponse) {
        const r = p.functionResponse.response;
        results.push({ name: p.functionResponse.name ?? null, text: leaves(r).join("\n"), isError: r && "error" in r });
      }
    }
  }
  return { tools, results };
}

function geminiReply(res, body, step, stream) {
  const part = step.call ? { functionCall: { name: step.call.name, args: step.call.args } } : { text: step.text };
  const payload = {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "fake", responseId: `fake_${seq}`,
  };
  if (!stream) return json(res, 200, payload);
  sse(res);
  res.write(`data: ${JSON.stringify(payload)}\n\n`);
  res.end();
}

// --- HTTP ---------------------------------------------------------------------

function sse(res) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
}

function json(res, status, value) {
  const data = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
  res.end(data);
}

const MODEL_LIST = {
  object: "list",
  data: [{ id: "fake-model", object: "model", created: 0, owned_by: "fake", type: "model", display_name: "Fake", created_at: "2025-01-01T00:00:00Z" }],
  models: [{ name: "models/fake-model", slug: "fake-model", id: "fake-model", displayName: "Fake" }],
  has_more: false, first_id: "fake-model", last_id: "fake-model",
};

function handle(req, res, raw) {
  seq += 1;
  const url = new URL(req.url, "http://127.0.0.1");
  const path = url.pathname;
  let body = null;
  try {
    body = raw.length ? JSON.parse(raw) : null;
  } catch {
    body = { unparsed: raw.slice(0, 10000) };
  }
  const entry = { seq, t: Date.now() - t0, method: req.method, url: req.url, headers: pick(req.headers), api: "other", kind: "side", body };
  const finish = (reply) => log({ ...entry, reply });

  if (/^https?:\/\//.test(req.url)) {
    entry.api = "proxy";
    finish("refused");
    return json(res, 403, { error: { type: "forbidden", message: "fake model: no other hosts" } });
  }

  if (req.method === "GET" && /\/models\/?$/.test(path)) {
    finish("model list");
    return json(res, 200, MODEL_LIST);
  }
  if (req.method !== "POST" || !body) {
    finish("404");
    return json(res, 404, { error: { type: "not_found", message: `fake model: no ${req.method} ${path}` } });
  }

  let parsed, reply;
  if (path.endsWith("/messages/count_tokens")) {
    finish("count_tokens");
    return json(res, 200, { input_tokens: 10 });
  } else if (path.endsWith("/messages")) {
    entry.api = "anthropic";
    parsed = anthropic(body);
    reply = (step) => anthropicReply(res, body, step);
  } else if (path.endsWith("/responses")) {
    entry.api = "responses";
    parsed = responses(body);
    reply = (step) => responsesReply(res, body, step, parsed.tools);
  } else if (path.endsWith("/chat/completions")) {
    entry.api = "chat";
    parsed = chat(body);
    reply = (step) => chatReply(res, body, step);
  } else if (/:(stream)?[gG]enerateContent$/.test(path)) {
    entry.api = "gemini";
    parsed = gemini(body);
    const stream = /:streamGenerateContent$/.test(path);
    reply = (step) => geminiReply(res, body, step, stream);
  } else if (/:countTokens$/.test(path)) {
    finish("countTokens");
    return json(res, 200, { totalTokens: 10 });
  } else {
    finish("404");
    return json(res, 404, { error: { type: "not_found", message: `fake model: no POST ${path}` } });
  }

  entry.toolNames = parsed.tools.map((t) => t.name);
  entry.tools = parsed.tools;
  entry.toolResults = parsed.results;
  let step;
  if (isMain(parsed.tools)) {
    entry.kind = "main";
    entry.turn = parsed.results.length + 1;
    step = scriptStep(parsed.tools, parsed.results);
  } else {
    const schema =
      body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema ??
      body.response_format?.json_schema?.schema ?? body.text?.format?.schema ??
      body.output_format?.schema ?? null;
    step = { text: sideText(schema) };
  }
  finish(step);
  reply(step);
}

function pick(headers) {
  const out = {};
  for (const k of ["user-agent", "content-type", "accept", "anthropic-beta", "x-goog-api-client", "originator", "openai-beta"]) {
    if (headers[k]) out[k] = headers[k];
  }
  return out;
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    try {
      handle(req, res, Buffer.concat(chunks).toString("utf8"));
    } catch (e) {
      log({ seq, t: Date.now() - t0, url: req.url, error: String(e?.stack ?? e) });
      if (!res.headersSent) json(res, 500, { error: { type: "fake_model_error", message: String(e) } });
      else res.end();
    }
  });
});
// WebSocket upgrades (Codex can try Responses over a WebSocket) are refused,
// so clients fall back to plain HTTP.
server.on("upgrade", (req, socket) => {
  socket.on("error", () => {});
  seq += 1;
  log({ seq, t: Date.now() - t0, method: req.method, url: req.url, headers: pick(req.headers), api: "websocket", kind: "side", reply: "refused upgrade" });
  socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
});

// As HTTP(S)_PROXY the server logs and refuses every attempt to reach
// another host, so a client that tries is seen (api "proxy") and fails
// fast instead of waiting on the network.
server.on("connect", (req, socket) => {
  socket.on("error", () => {});
  seq += 1;
  log({ seq, t: Date.now() - t0, method: req.method, url: req.url, headers: pick(req.headers), api: "proxy", kind: "side", reply: "refused" });
  socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
});

server.on("clientError", (err, socket) => socket.destroy());

server.listen(Number(portArg ?? 0), "127.0.0.1", () => {
  process.stdout.write(`listening http://127.0.0.1:${server.address().port}\n`);
});
const stop = () => {
  server.close();
  server.closeAllConnections?.();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.resume();
