//! The protocol surface: version negotiation, server info, the tool list
//! (names, exact schemas, every annotation) and answers to malformed input.

mod common;

use common::*;
use hashedit_mcp::{CatalogEntry, INSTRUCTIONS, READ_ONLY_INSTRUCTIONS};
use hashedit_mcp::{SUPPORTED_PROTOCOL_VERSIONS, ServerOptions};
use hashedit_tools::ToolName;
use rmcp::model::ProtocolVersion;
use serde_json::{Value, json};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn server_info() -> Value {
    json!({
        "name": "hashedit",
        "title": "hashedit",
        "version": VERSION,
        "description": "Read, search and edit files by line number against hashline snapshots"
    })
}

#[tokio::test]
async fn initialize_echoes_the_revisions_it_speaks() {
    for version in ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] {
        let fixture = Fixture::new();
        let mut raw = Raw::start(&fixture, ServerOptions::default());
        let result = raw.initialize(version).await;
        assert_eq!(
            result,
            json!({
                "protocolVersion": version,
                "capabilities": {"prompts": {}, "resources": {}, "tools": {}},
                "serverInfo": server_info(),
                "instructions": INSTRUCTIONS,
            }),
            "initialize with {version}"
        );
        raw.close().await.unwrap();
    }
}

#[tokio::test]
async fn initialize_offers_2025_11_25_for_other_revisions() {
    // An unknown older revision, an unknown newer one, and 2026-07-28, which
    // has no handshake: all are offered the newest revision that has one.
    for version in ["2024-10-07", "2099-01-01", "2026-07-28"] {
        let fixture = Fixture::new();
        let mut raw = Raw::start(&fixture, ServerOptions::default());
        let result = raw.initialize(version).await;
        assert_eq!(
            result["protocolVersion"], "2025-11-25",
            "initialize with {version}"
        );
        raw.close().await.unwrap();
    }
}

#[tokio::test]
async fn rmcp_client_negotiates_each_revision() {
    let fixture = Fixture::with(&[("a.txt", "one\n")]);
    for (lifecycle, expected) in [
        (
            Lifecycle::Initialize(ProtocolVersion::V_2025_11_25),
            ProtocolVersion::V_2025_11_25,
        ),
        (
            Lifecycle::Initialize(ProtocolVersion::V_2026_07_28),
            ProtocolVersion::V_2025_11_25,
        ),
        (Lifecycle::Discover, ProtocolVersion::V_2026_07_28),
    ] {
        let (client, server) = connect(&fixture, ServerOptions::default(), lifecycle).await;
        let info = client.peer_info().unwrap();
        assert_eq!(info.protocol_version, expected);
        assert_eq!(info.server_info.as_ref().unwrap().name, "hashedit");
        assert_eq!(info.server_info.as_ref().unwrap().version, VERSION);
        assert_eq!(info.instructions.as_deref(), Some(INSTRUCTIONS));
        let reply = call(&client, "read_file", json!({"path": "a.txt"})).await;
        assert_eq!(reply.ok(), "[a.txt#C37F]\n1:one");
        finish(client, server).await;
    }
}

#[tokio::test]
async fn discover_and_per_request_metadata_for_2026_07_28() {
    let fixture = Fixture::with(&[("a.txt", "one\n")]);
    let mut raw = Raw::start(&fixture, ServerOptions::default());
    let discovered = raw
        .request(
            1,
            "server/discover",
            json!({"_meta": modern_meta("2026-07-28")}),
        )
        .await;
    let result = &discovered["result"];
    let supported: Vec<String> = SUPPORTED_PROTOCOL_VERSIONS
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        supported,
        [
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28"
        ]
    );
    assert_eq!(result["supportedVersions"], json!(supported));
    assert_eq!(
        result["capabilities"],
        json!({"prompts": {}, "resources": {}, "tools": {}})
    );
    assert_eq!(result["instructions"], INSTRUCTIONS);
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"],
        server_info()
    );

    // A request naming a revision the server does not speak is refused
    // with the list it does.
    let refused = raw
        .request(2, "tools/list", json!({"_meta": modern_meta("2099-01-01")}))
        .await;
    assert_eq!(refused["error"]["data"]["supported"], json!(supported));
    assert_eq!(refused["error"]["data"]["requested"], "2099-01-01");

    let listed = raw
        .request(3, "tools/list", json!({"_meta": modern_meta("2026-07-28")}))
        .await;
    assert_eq!(listed["result"]["tools"].as_array().unwrap().len(), 6);
    assert_eq!(listed["result"]["resultType"], "complete");

    let called = raw
        .request(
            4,
            "tools/call",
            json!({
                "_meta": modern_meta("2026-07-28"),
                "name": "read_file",
                "arguments": {"path": "a.txt"}
            }),
        )
        .await;
    assert_eq!(
        called["result"]["content"],
        json!([{"type": "text", "text": "[a.txt#C37F]\n1:one"}])
    );
    assert_eq!(called["result"]["isError"], false);
    raw.close().await.unwrap();
}

/// Rho's input schemas (Rho's behaviour), verbatim, plus our
/// optional `tag` on write and `include_hidden` on list_dir.
fn rho_schemas() -> Vec<(&'static str, Value)> {
    let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap();
    vec![
        (
            "read_file",
            parse(
                r#"{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer","minimum":1},"limit":{"type":"integer","minimum":1}},"required":["path"]}"#,
            ),
        ),
        (
            "grep",
            parse(
                r#"{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"},"glob":{"type":"string"},"literal":{"type":"boolean"},"case_sensitive":{"type":"boolean"},"include_hidden":{"type":"boolean"},"no_ignore":{"type":"boolean"},"max_results":{"type":"integer","minimum":1},"max_per_file":{"type":"integer","minimum":1},"output_mode":{"type":"string","enum":["content","files_with_matches","count"]}},"required":["pattern"]}"#,
            ),
        ),
        (
            "glob",
            parse(
                r#"{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"},"include_hidden":{"type":"boolean"},"no_ignore":{"type":"boolean"},"max_results":{"type":"integer","minimum":1}},"required":["pattern"]}"#,
            ),
        ),
        (
            "list_dir",
            parse(
                r#"{"type":"object","properties":{"path":{"type":"string"},"include_hidden":{"type":"boolean"}},"required":["path"]}"#,
            ),
        ),
        (
            "write",
            parse(
                r#"{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"},"tag":{"type":"string"},"force":{"type":"boolean"}},"required":["path","content"]}"#,
            ),
        ),
        (
            "edit",
            parse(
                r#"{"type":"object","properties":{"input":{"type":"string"},"force":{"type":"boolean"}},"required":["input"]}"#,
            ),
        ),
    ]
}

/// `schema` without its property descriptions (which Rho does not have)
/// and without the
/// `additionalProperties: false` that every hashedit schema has (Rho's
/// `edit` alone has it; an unknown argument is refused rather than
/// ignored).
fn without_descriptions(schema: &Value) -> Value {
    let mut schema = schema.clone();
    assert_eq!(schema["additionalProperties"], json!(false), "{schema}");
    schema
        .as_object_mut()
        .unwrap()
        .remove("additionalProperties");
    for property in schema["properties"].as_object_mut().unwrap().values_mut() {
        let description = property
            .as_object_mut()
            .unwrap()
            .remove("description")
            .expect("every property is described");
        assert!(description.as_str().unwrap().len() > 10);
    }
    schema
}

#[tokio::test]
async fn tools_list_matches_rho_names_schemas_and_sets_every_annotation() {
    let fixture = Fixture::new();
    let mut raw = Raw::start(&fixture, ServerOptions::default());
    raw.initialize("2025-11-25").await;
    let listed = raw.request(1, "tools/list", json!({})).await;
    let tools = listed["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["read_file", "grep", "glob", "list_dir", "write", "edit"]
    );
    let expected_hints = [
        ("read_file", "Read file", true, false, true),
        ("grep", "Search file contents", true, false, true),
        ("glob", "Find files by pattern", true, false, true),
        ("list_dir", "List directory", true, false, true),
        ("write", "Write file", false, true, true),
        ("edit", "Edit files by line", false, true, false),
    ];
    for ((tool, (name, rho)), (hint_name, title, read_only, destructive, idempotent)) in
        tools.iter().zip(rho_schemas()).zip(expected_hints)
    {
        assert_eq!(tool["name"], name);
        assert_eq!(hint_name, name);
        let keys: Vec<&String> = tool.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "_meta",
                "annotations",
                "description",
                "inputSchema",
                "name",
                "title"
            ],
            "{name}: no outputSchema or icons"
        );
        // Claude Code offers the tool up front, not behind ToolSearch.
        assert_eq!(
            tool["_meta"],
            json!({"anthropic/alwaysLoad": true}),
            "{name}"
        );
        assert_eq!(without_descriptions(&tool["inputSchema"]), rho, "{name}");
        assert_eq!(tool["title"], title);
        assert_eq!(
            tool["annotations"],
            json!({
                "title": title,
                "readOnlyHint": read_only,
                "destructiveHint": destructive,
                "idempotentHint": idempotent,
                "openWorldHint": false,
            }),
            "{name}"
        );
        let description = tool["description"].as_str().unwrap();
        assert_eq!(description, ToolName::parse(name).unwrap().description());
    }
    raw.close().await.unwrap();
}

#[tokio::test]
async fn descriptions_teach_the_format() {
    let edit = ToolName::Edit.description();
    for needle in [
        "[path#TAG]",
        "PUT N:",
        "PUT N.=M:",
        "(also N-M, N..M)",
        "PUT <N:",
        "PUT >N:",
        "PUT >$:",
        "CUT N ",
        "CUT N.=M",
        "exactly one + is removed",
        "a lone + is an empty line",
        "do not repeat the lines around them",
        "All numbers name the snapshot",
        "Never invent a tag",
        "One section per file",
        "nothing is written",
        "live snapshot",
        "without reading again",
        "structural edit",
        "applied to the live file",
        "PUT N*:",
        "@name",
        "REM",
        "MV path",
    ] {
        assert!(edit.contains(needle), "edit description lacks {needle:?}");
    }
    let read = ToolName::ReadFile.description();
    assert!(read.contains("[path#TAG]") && read.contains("N:text"));
    let grep = ToolName::Grep.description();
    assert!(grep.contains("N | text") && grep.contains("edit the file from them"));
    let write = ToolName::Write.description();
    assert!(write.contains("tag") && write.contains("nothing is written"));
    // The whole tool list stays lean: descriptions and compact input
    // schemas together, in characters, within 8,000.
    let size: usize = ToolName::ALL
        .iter()
        .map(|t| {
            t.description().chars().count()
                + Value::Object(t.input_schema()).to_string().chars().count()
        })
        .sum();
    eprintln!("tool descriptions and input schemas: {size} characters");
    assert!(
        size <= 8_000,
        "descriptions and schemas take {size} characters, over the 8,000 budget"
    );
}

#[tokio::test]
async fn schemas_agree_with_the_tools_argument_structs() {
    // The hand-written schemas name exactly the fields (and required
    // fields) of the argument structs the tools layer deserialises.
    /// The sorted property names of `schema` and its sorted `required`
    /// list (empty when it has none).
    fn names_and_required(schema: &Value) -> (Vec<String>, Vec<String>) {
        let mut names: Vec<String> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        names.sort();
        let mut required: Vec<String> = schema["required"]
            .as_array()
            .map(|r| r.iter().map(|v| v.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        required.sort();
        (names, required)
    }
    fn fields<T: schemars::JsonSchema>() -> (Vec<String>, Vec<String>) {
        names_and_required(&serde_json::to_value(schemars::schema_for!(T)).unwrap())
    }
    fn published(tool: ToolName) -> (Vec<String>, Vec<String>) {
        let schema = Value::Object(tool.input_schema());
        // A published schema always lists its required fields, if none.
        assert!(schema["required"].is_array(), "{schema}");
        names_and_required(&schema)
    }
    use hashedit_tools::*;
    assert_eq!(published(ToolName::ReadFile), fields::<ReadFileArgs>());
    assert_eq!(published(ToolName::Grep), fields::<GrepArgs>());
    assert_eq!(published(ToolName::Glob), fields::<GlobArgs>());
    assert_eq!(published(ToolName::ListDir), fields::<ListDirArgs>());
    assert_eq!(published(ToolName::Write), fields::<WriteArgs>());
    assert_eq!(published(ToolName::Edit), fields::<EditArgs>());
}

#[tokio::test]
async fn read_only_server_lists_four_tools() {
    let fixture = Fixture::new();
    let mut raw = Raw::start(
        &fixture,
        ServerOptions {
            read_only: true,
            ..ServerOptions::default()
        },
    );
    let init = raw.initialize("2025-11-25").await;
    // Its instructions teach reading only: no tool it lacks is named.
    assert_eq!(init["instructions"], READ_ONLY_INSTRUCTIONS);
    for absent in ["PUT", "CUT", "Use write"] {
        assert!(!READ_ONLY_INSTRUCTIONS.contains(absent), "{absent}");
    }
    let listed = raw.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_file", "grep", "glob", "list_dir"]);
    raw.close().await.unwrap();
}

#[tokio::test]
async fn malformed_json_rpc_gets_protocol_errors() {
    let fixture = Fixture::with(&[("a.txt", "one\n")]);
    let mut raw = Raw::start(&fixture, ServerOptions::default());
    // Before the session: a stray notification and a response are dropped
    // (they would otherwise end the session), and garbage is answered.
    raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    raw.send(&json!({"jsonrpc": "2.0", "id": 99, "result": {}}))
        .await;
    raw.send_line("{not json").await;
    assert_eq!(
        raw.recv().await,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
            "message": "the message is not valid JSON: key must be a string at line 1 column 2"}})
    );
    raw.initialize("2025-11-25").await;

    let cases: Vec<(&str, Value)> = vec![
        (
            "[1,2]",
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
                "message": "batches (JSON arrays) are not supported; send one message per line"}}),
        ),
        (
            "42",
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
                "message": "a message must be a JSON object"}}),
        ),
        (
            r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#,
            json!({"jsonrpc": "2.0", "id": 5, "error": {"code": -32600,
                "message": "the message must carry \"jsonrpc\": \"2.0\""}}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#,
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
                "message": "the id must be a string or an integer"}}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":"s-1"}"#,
            json!({"jsonrpc": "2.0", "id": "s-1", "error": {"code": -32600,
                "message": "a request needs a \"method\" string"}}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":"read_file"}"#,
            json!({"jsonrpc": "2.0", "id": 6, "error": {"code": -32602,
                "message": "invalid params for tools/call: params must be an object with the tool's name and its arguments"}}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":5}}"#,
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32602,
                "message": "invalid params for tools/call: params.name must be the tool's name, as a string"}}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_file","arguments":[1]}}"#,
            json!({"jsonrpc": "2.0", "id": 8, "error": {"code": -32602,
                "message": "invalid params for tools/call: params.arguments must be an object holding the tool's arguments"}}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"delete_file","arguments":{}}}"#,
            json!({"jsonrpc": "2.0", "id": 9, "error": {"code": -32602,
                "message": "unknown tool 'delete_file'; this server offers read_file, grep, glob, list_dir, write, edit"}}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":10,"method":"files/delete","params":{}}"#,
            json!({"jsonrpc": "2.0", "id": 10, "error": {"code": -32601,
                "message": "unknown method 'files/delete'"}}),
        ),
    ];
    for (line, expected) in cases {
        raw.send_line(line).await;
        assert_eq!(raw.recv().await, expected, "answer to {line}");
    }
    // Notifications are never answered, even broken ones; the next request
    // proves nothing was sent for them.
    raw.send_line(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":7}"#)
        .await;
    raw.send_line(r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#)
        .await;
    raw.send_line("").await;
    raw.send_line("   \r").await;
    let pong = raw.request(11, "ping", json!({})).await;
    assert_eq!(pong, json!({"jsonrpc": "2.0", "id": 11, "result": {}}));
    raw.close().await.unwrap();
}

#[tokio::test]
async fn wrong_argument_types_are_tool_errors_naming_the_field() {
    let fixture = Fixture::with(&[("a.txt", "one\n")]);
    let mut raw = Raw::start(&fixture, ServerOptions::default());
    raw.initialize("2025-11-25").await;
    let cases = [
        (
            json!({"name": "read_file", "arguments": {"path": "a.txt", "offset": "2"}}),
            "invalid arguments for read_file: offset must be an integer of at least 1, got \"2\"",
        ),
        (
            json!({"name": "read_file", "arguments": {"path": "a.txt", "limit": 0}}),
            "invalid arguments for read_file: limit must be an integer of at least 1, got 0",
        ),
        (
            json!({"name": "read_file"}),
            "invalid arguments for read_file: missing required argument path",
        ),
        (
            json!({"name": "grep", "arguments": {"pattern": "x", "output_mode": "all"}}),
            "invalid arguments for grep: output_mode must be one of \"content\", \"files_with_matches\", \"count\", got \"all\"",
        ),
        (
            json!({"name": "edit", "arguments": {"input": "[a.txt#C37F]\nCUT 1", "dry_run": true}}),
            "invalid arguments for edit: unknown argument dry_run (edit takes only force, input)",
        ),
        (
            json!({"name": "write", "arguments": {"path": "b.txt", "content": 5}}),
            "invalid arguments for write: content must be a string, got 5",
        ),
    ];
    for (id, (params, message)) in cases.into_iter().enumerate() {
        let reply = raw.request(id as i64 + 1, "tools/call", params).await;
        assert_eq!(
            reply["result"],
            json!({
                "content": [{"type": "text", "text": message}],
                "_meta": {"io.github.hashedit/result": {"kind": "invalid_arguments"}},
                "isError": true
            })
        );
    }
    assert_eq!(fixture.get("a.txt"), "one\n");
    assert!(!exists(&fixture.path("b.txt")));
    raw.close().await.unwrap();
}

#[tokio::test]
async fn oversized_messages_are_answered_without_being_read() {
    let fixture = Fixture::with(&[("a.txt", "one\ntwo\n")]);
    let limit = 1024 * 1024;
    let mut raw = Raw::start(
        &fixture,
        ServerOptions {
            max_message_bytes: limit,
            ..ServerOptions::default()
        },
    );
    raw.initialize("2025-11-25").await;
    let tag = "89F7";
    // A 5 MB edit document: a tools/call gets a tool error the model can
    // read, and nothing is written.
    let body = "+x\n".repeat(5 * 1024 * 1024 / 3);
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "edit", "arguments": {"input": format!("[a.txt#{tag}]\nPUT 1:\n{body}")}}});
    let line = call.to_string();
    let size = line.len() + 1;
    raw.send_line(&line).await;
    assert_eq!(
        raw.recv().await,
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": format!(
                "the request is {size} bytes, over this server's limit of {limit} bytes per \
                 message; nothing was run. Split the work into smaller calls (for example several \
                 edit calls, each with a shorter document).")}],
            "_meta": {"io.github.hashedit/result": {"kind": "too_large"}},
            "isError": true}})
    );
    assert_eq!(fixture.get("a.txt"), "one\ntwo\n");

    // Another oversized request: a protocol error for its id, even when the
    // id comes after the big params.
    let line = format!(
        r#"{{"jsonrpc":"2.0","method":"tools/list","params":{{"cursor":"{}"}},"id":"late"}}"#,
        "c".repeat(limit)
    );
    raw.send_line(&line).await;
    let reply = raw.recv().await;
    assert_eq!(reply["id"], "late");
    assert_eq!(reply["error"]["code"], -32600);
    assert_eq!(
        reply["error"]["message"],
        format!(
            "the request is {} bytes, over this server's limit of {limit} bytes per message",
            line.len() + 1
        )
    );

    // Oversized garbage: an error with a null id. An oversized
    // notification: no answer at all.
    raw.send_line(&"#".repeat(2 * limit)).await;
    let reply = raw.recv().await;
    assert_eq!(reply["id"], Value::Null);
    assert_eq!(reply["error"]["code"], -32600);
    raw.send_line(&format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"x":"{}"}}}}"#,
        "n".repeat(limit)
    ))
    .await;

    // The server is still fine, and the same edit at a sane size works.
    let reply = raw
        .request(
            2,
            "tools/call",
            json!({"name": "edit", "arguments": {"input": format!("[a.txt#{tag}]\nPUT 1:\n+ONE")}}),
        )
        .await;
    assert_eq!(reply["result"]["isError"], false, "{reply}");
    assert_eq!(fixture.get("a.txt"), "ONE\ntwo\n");
    raw.close().await.unwrap();
}

#[tokio::test]
async fn default_limit_handles_a_50_mb_edit_and_a_10_mb_garbage_line() {
    let fixture = Fixture::with(&[("a.txt", "one\ntwo\n")]);
    let mut raw = Raw::start(&fixture, ServerOptions::default());
    raw.initialize("2025-11-25").await;
    // 10 MB of garbage on one line: under the limit, so it is read and
    // answered as a parse error.
    raw.send_line(&"\u{1}garbage".repeat(10 * 1024 * 1024 / 8))
        .await;
    let reply = raw.recv().await;
    assert_eq!(reply["id"], Value::Null);
    assert_eq!(reply["error"]["code"], -32700);
    // A 50 MB edit document: over the 16 MiB default, refused unread.
    let body = "+line of text\n".repeat(50 * 1024 * 1024 / 14);
    let line = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "edit", "arguments": {"input": format!("[a.txt#89F7]\nPUT 1:\n{body}")}}})
    .to_string();
    raw.send_line(&line).await;
    let reply = raw.recv().await;
    assert_eq!(reply["id"], 7);
    assert_eq!(reply["result"]["isError"], true);
    assert_eq!(
        reply["result"]["_meta"]["io.github.hashedit/result"]["kind"],
        "too_large"
    );
    assert_eq!(fixture.get("a.txt"), "one\ntwo\n");
    let pong = raw.request(8, "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}));
    raw.close().await.unwrap();
}

#[tokio::test]
async fn server_stops_cleanly_at_eof() {
    let fixture = Fixture::new();
    // Before any message.
    let raw = Raw::start(&fixture, ServerOptions::default());
    raw.close().await.unwrap();
    // In the middle of a line.
    let mut raw = Raw::start(&fixture, ServerOptions::default());
    raw.initialize("2025-11-25").await;
    raw.send_bytes(br#"{"jsonrpc":"2.0","id":1,"meth"#).await;
    raw.close().await.unwrap();
}
