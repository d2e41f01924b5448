//! `hashedit mcp` driven by real MCP clients that nobody here wrote: the
//! official Python SDK (PyPI `mcp`) and the MCP Inspector's CLI mode (npm
//! `@modelcontextprotocol/inspector`).
//!
//! The peers are installed by `scripts/install-peers` into `target/peers/`,
//! or found through `HASHEDIT_PYTHON` (a Python with `mcp` installed) and
//! `HASHEDIT_INSPECTOR` (the inspector's launcher script, run with `node`).
//! A missing peer fails the test when `HASHEDIT_REQUIRE_PEERS=1` (as in CI)
//! and otherwise skips it with a loud notice.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

mod common;

use common::{missing, peers_dir, repo};

const BINARY: &str = env!("CARGO_BIN_EXE_hashedit");

/// A Python interpreter that can `import mcp`.
fn python() -> Option<PathBuf> {
    let python = std::env::var_os("HASHEDIT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| peers_dir().join("venv/bin/python"));
    let works = Command::new(&python)
        .args(["-c", "import mcp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if works {
        Some(python)
    } else {
        missing(
            "the Python MCP SDK",
            &format!("{} cannot import mcp", python.display()),
        );
        None
    }
}

/// `node` and the inspector's launcher script.
fn inspector() -> Option<(PathBuf, PathBuf)> {
    let script = std::env::var_os("HASHEDIT_INSPECTOR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            peers_dir().join(
                "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
            )
        });
    let node = std::env::var_os("HASHEDIT_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("node"));
    let node_works = Command::new(&node)
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !node_works {
        missing("the MCP Inspector", "node is not on PATH");
        None
    } else if !script.is_file() {
        missing(
            "the MCP Inspector",
            &format!("{} does not exist", script.display()),
        );
        None
    } else {
        Some((node, script))
    }
}

fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, content) in files {
        std::fs::write(dir.path().join(path), content).unwrap();
    }
    dir
}

/// Runs the inspector's CLI against `hashedit mcp --root ROOT`.
fn run_inspector(node: &Path, script: &Path, root: &Path, method: &[&str]) -> Output {
    Command::new(node)
        .arg(script)
        .arg("--cli")
        .arg(BINARY)
        .args(["mcp", "--root"])
        .arg(root)
        .args(method)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "inspector printed no JSON ({e}):\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn python_sdk_runs_the_issue_session_over_both_revisions() {
    let Some(python) = python() else { return };
    let script = repo().join("crates/hashedit-mcp/tests/clients/python_session.py");
    let output = Command::new(python)
        .arg(&script)
        .arg(BINARY)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the Python session failed:\nstdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        stdout,
        "python mcp client: session ok (mode=legacy, protocol 2025-11-25)\n\
         python mcp client: session ok (mode=auto, protocol 2026-07-28)\n"
    );
}

#[test]
fn inspector_initializes_and_lists_the_tools() {
    let Some((node, script)) = inspector() else {
        return;
    };
    let ws = workspace(&[]);
    let init = run_inspector(&node, &script, ws.path(), &["--method", "initialize"]);
    assert!(init.status.success(), "{init:?}");
    let init = stdout_json(&init);
    assert_eq!(init["protocolVersion"], "2025-11-25");
    assert_eq!(init["serverInfo"]["name"], "hashedit");
    assert_eq!(
        init["capabilities"],
        json!({"prompts": {}, "resources": {}, "tools": {}})
    );
    // The model guide is a prompt; there are no resources, and asking is
    // not an error (Codex CLI asks at every start).
    let prompts = run_inspector(&node, &script, ws.path(), &["--method", "prompts/list"]);
    assert!(prompts.status.success(), "{prompts:?}");
    assert_eq!(
        stdout_json(&prompts)["prompts"][0]["name"],
        "hashline-guide"
    );
    let resources = run_inspector(&node, &script, ws.path(), &["--method", "resources/list"]);
    assert!(resources.status.success(), "{resources:?}");
    assert_eq!(stdout_json(&resources)["resources"], json!([]));

    // --strict: the inspector checks each schema's portability across
    // model providers and fails on any error-severity problem.
    let listed = run_inspector(
        &node,
        &script,
        ws.path(),
        &["--method", "tools/list", "--strict"],
    );
    assert!(
        listed.status.success(),
        "tools/list --strict failed:\n{}",
        String::from_utf8_lossy(&listed.stderr)
    );
    let listed = stdout_json(&listed);
    let tools = listed["tools"].as_array().unwrap();
    let summary: Vec<(String, Value)> = tools
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_string(),
                t["annotations"].clone(),
            )
        })
        .collect();
    let hints = |title: &str, ro: bool, de: bool, id: bool| {
        json!({"title": title, "readOnlyHint": ro, "destructiveHint": de,
               "idempotentHint": id, "openWorldHint": false})
    };
    assert_eq!(
        summary,
        [
            ("read_file".into(), hints("Read file", true, false, true)),
            (
                "grep".into(),
                hints("Search file contents", true, false, true)
            ),
            (
                "glob".into(),
                hints("Find files by pattern", true, false, true)
            ),
            (
                "list_dir".into(),
                hints("List directory", true, false, true)
            ),
            ("write".into(), hints("Write file", false, true, true)),
            (
                "edit".into(),
                hints("Edit files by line", false, true, false)
            ),
        ]
    );
    assert_eq!(
        tools[5]["inputSchema"]["required"],
        json!(["input"]),
        "edit takes input"
    );
    assert_eq!(tools[5]["inputSchema"]["additionalProperties"], false);
}

#[test]
fn inspector_reads_and_edits_a_file() {
    let Some((node, script)) = inspector() else {
        return;
    };
    let ws = workspace(&[("a.txt", "one\ntwo\nthree\n")]);
    let read = run_inspector(
        &node,
        &script,
        ws.path(),
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "read_file",
            "--tool-arg",
            "path=a.txt",
        ],
    );
    assert!(read.status.success(), "{read:?}");
    let read = stdout_json(&read);
    let tag = read["_meta"]["io.github.hashedit/result"]["tag"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        read["content"],
        json!([{"type": "text", "text": format!("[a.txt#{tag}]\n1:one\n2:two\n3:three")}])
    );
    assert_eq!(read["isError"], false);

    let document = format!("input=[a.txt#{tag}]\nPUT 2:\n+TWO");
    let send_edit = || {
        run_inspector(
            &node,
            &script,
            ws.path(),
            &[
                "--method",
                "tools/call",
                "--tool-name",
                "edit",
                "--tool-arg",
                &document,
            ],
        )
    };
    let edit = send_edit();
    assert!(edit.status.success(), "{edit:?}");
    let edit = stdout_json(&edit);
    let new_tag = edit["_meta"]["io.github.hashedit/result"]["files"][0]["new_tag"]
        .as_str()
        .unwrap();
    assert_eq!(
        edit["content"][0]["text"],
        format!("PUT 2: (1 → 1 line)\n[a.txt#{new_tag}]\n1:one\n2:TWO\n3:three")
    );
    assert_eq!(
        std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
        "one\nTWO\nthree\n"
    );

    // The old tag is stale now: an isError result, which the inspector
    // reports with exit status 5, and the file is untouched.
    let stale = send_edit();
    assert_eq!(stale.status.code(), Some(5), "{stale:?}");
    let stale = stdout_json(&stale);
    assert_eq!(stale["isError"], true);
    assert_eq!(
        stale["_meta"]["io.github.hashedit/result"],
        json!({"kind": "stale_tag"})
    );
    let text = stale["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("[a.txt#{new_tag}]\n1:one\n2:TWO\n3:three")),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
        "one\nTWO\nthree\n"
    );
}
