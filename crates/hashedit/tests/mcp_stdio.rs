//! The `hashedit mcp` process itself: flags, stdio framing, clean exit at
//! EOF, the global `--tag-scheme` and `--max-output-bytes` options, the
//! client's roots when no `--root` is given, cancellation, progress and
//! the shape of results.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_hashedit");

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        Server::start_in(Path::new("."), args)
    }

    /// Starts `hashedit ARGS` with `env` added to its environment.
    fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Server {
        Server::spawn(Command::new(BINARY).args(args).envs(env.iter().copied()))
    }

    /// Starts `hashedit ARGS` with `dir` as its current directory.
    fn start_in(dir: &Path, args: &[&str]) -> Server {
        Server::spawn(Command::new(BINARY).args(args).current_dir(dir))
    }

    fn spawn(command: &mut Command) -> Server {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Server {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    fn recv(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
    }

    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let reply = self.recv();
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    fn initialize(&mut self) -> Value {
        let reply = self.request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "stdio-test", "version": "0"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        reply["result"].clone()
    }

    fn call(&mut self, id: i64, tool: &str, arguments: Value) -> Value {
        self.request(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        )["result"]
            .clone()
    }

    /// Closes stdin and waits for the exit status: the server's stdout
    /// ends (EOF) and the process exits. A server that never exits hangs
    /// the test rather than racing a clock. Returns the messages written
    /// after the last reply read, progress notifications left out.
    fn close_with_rest(mut self) -> (std::process::ExitStatus, Vec<Value>) {
        drop(self.stdin.take());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        let messages = rest
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .filter(|message| message["method"] != "notifications/progress")
            .collect();
        (self.child.wait().unwrap(), messages)
    }

    /// [`Server::close_with_rest`], with nothing but progress left on
    /// stdout.
    fn close(self) -> std::process::ExitStatus {
        let (status, rest) = self.close_with_rest();
        assert_eq!(rest, Vec::<Value>::new(), "nothing but replies on stdout");
        status
    }

    /// The next message that is not a progress notification, collecting
    /// the progress values of `token` on the way.
    fn recv_skipping_progress(&mut self, token: &str, progress: &mut Vec<f64>) -> Value {
        loop {
            let message = self.recv();
            if message["method"] != "notifications/progress" {
                return message;
            }
            if message["params"]["progressToken"] == token {
                progress.push(message["params"]["progress"].as_f64().unwrap());
            }
        }
    }
}

fn root_arg(dir: &Path) -> String {
    dir.to_str().unwrap().to_string()
}

#[test]
fn serves_a_session_and_exits_cleanly_at_eof() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\nb\n").unwrap();
    let mut server = Server::start(&["mcp", "--root", &root_arg(dir.path())]);
    let info = server.initialize();
    assert_eq!(info["serverInfo"]["name"], "hashedit");
    assert_eq!(info["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    let read = server.call(1, "read_file", json!({"path": "a.txt"}));
    assert_eq!(read["content"][0]["text"], "[a.txt#6DEE]\n1:a\n2:b");
    let edit = server.call(2, "edit", json!({"input": "[a.txt#6DEE]\nCUT 1"}));
    assert_eq!(edit["isError"], false, "{edit}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "b\n"
    );
    assert!(server.close().success());
}

#[test]
fn exits_cleanly_when_stdin_closes_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&["mcp", "--root", &root_arg(dir.path())]);
    assert!(server.close().success());
}

#[test]
fn survives_garbage_and_a_huge_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    let mut server = Server::start(&["mcp", "--root", &root_arg(dir.path())]);
    server.initialize();
    {
        let stdin = server.stdin.as_mut().unwrap();
        stdin.write_all(b"\xff\xfe not json\n").unwrap();
    }
    let reply = server.recv();
    assert_eq!(reply["id"], Value::Null);
    assert_eq!(reply["error"]["code"], -32700);
    // 20 MB in one line, over the default 16 MiB message limit.
    let huge = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "write", "arguments": {"path": "big.txt", "content": "x".repeat(20 << 20)}}});
    server.send(&huge);
    let reply = server.recv();
    assert_eq!(reply["id"], 5);
    assert_eq!(reply["result"]["isError"], true);
    assert_eq!(
        reply["result"]["_meta"]["io.github.hashedit/result"],
        json!({"kind": "too_large"})
    );
    assert!(!dir.path().join("big.txt").exists());
    let read = server.call(6, "read_file", json!({"path": "a.txt"}));
    assert_eq!(read["isError"], false);
    assert!(server.close().success());
}

#[test]
fn an_image_comes_back_as_image_content_and_text_like_one_as_text() {
    const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("dot.gif"), GIF).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "GIF89a is a header\n").unwrap();
    let root = root_arg(dir.path());
    let mut server = Server::start(&["mcp", "--root", &root]);
    server.initialize();
    let read = server.call(1, "read_file", json!({"path": "dot.gif"}));
    assert_eq!(read["content"][0]["text"], "image/gif image (43 bytes)");
    assert_eq!(read["content"][1]["type"], "image");
    assert_eq!(read["content"][1]["mimeType"], "image/gif");
    assert_eq!(
        read["content"][1]["data"],
        "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="
    );
    let text = server.call(2, "read_file", json!({"path": "notes.txt"}));
    assert_eq!(
        text["content"][0]["text"],
        "[notes.txt#06F5]\n1:GIF89a is a header"
    );
    assert_eq!(text["content"].as_array().unwrap().len(), 1);
    assert!(server.close().success());

    // Over the output budget: described, not sent.
    let mut server = Server::start(&["--max-output-bytes", "40", "mcp", "--root", &root]);
    server.initialize();
    let read = server.call(1, "read_file", json!({"path": "dot.gif"}));
    assert_eq!(
        read["content"],
        json!([{"type": "text", "text": "image/gif image (43 bytes; not shown: 60 bytes as base64, over the output budget of 40 bytes)"}])
    );
    assert!(server.close().success());
}

#[test]
fn a_write_over_a_file_the_session_has_not_read_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "one\ntwo\n").unwrap();
    let root = root_arg(dir.path());
    let mut server = Server::start(&["mcp", "--root", &root]);
    server.initialize();
    let write = server.call(1, "write", json!({"path": "notes.txt", "content": "x\n"}));
    assert_eq!(
        write,
        json!({
            "_meta": {"io.github.hashedit/result": {"kind": "unread_file"}},
            "content": [{
                "type": "text",
                "text": "notes.txt exists and this session has not read it; nothing was written. To \
                         replace it, call read_file on notes.txt first and write again, or pass the \
                         tag of the snapshot you mean to replace; to replace it unread, send the \
                         write again with force: true"
            }],
            "isError": true
        })
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "one\ntwo\n"
    );
    let read = server.call(2, "read_file", json!({"path": "notes.txt"}));
    assert_eq!(read["isError"], false, "{read}");
    let write = server.call(3, "write", json!({"path": "notes.txt", "content": "x\n"}));
    assert_eq!(write["isError"], false, "{write}");
    assert!(server.close().success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "x\n"
    );
}

#[test]
fn protected_paths_are_refused_unless_the_server_allows_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::write(dir.path().join(".git/config"), "a\n").unwrap();
    let root = root_arg(dir.path());
    let mut server = Server::start(&["mcp", "--root", &root]);
    server.initialize();
    let write = server.call(1, "write", json!({"path": ".git/config", "content": "b\n"}));
    assert_eq!(write["isError"], true, "{write}");
    assert_eq!(
        write["_meta"]["io.github.hashedit/result"],
        json!({"kind": "protected_path"})
    );
    assert!(server.close().success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".git/config")).unwrap(),
        "a\n"
    );

    let mut server = Server::start(&[
        "mcp",
        "--allow-protected",
        "--protect",
        "*.lock",
        "--root",
        &root,
    ]);
    server.initialize();
    // Read first: the session replaces only a file it has read.
    let read = server.call(1, "read_file", json!({"path": ".git/config"}));
    assert_eq!(read["isError"], false, "{read}");
    let write = server.call(2, "write", json!({"path": ".git/config", "content": "b\n"}));
    assert_eq!(write["isError"], false, "{write}");
    let write = server.call(3, "write", json!({"path": "Cargo.lock", "content": "x\n"}));
    assert_eq!(
        write["_meta"]["io.github.hashedit/result"],
        json!({"kind": "protected_path"})
    );
    assert!(server.close().success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".git/config")).unwrap(),
        "b\n"
    );
    assert!(!dir.path().join("Cargo.lock").exists());
}

#[test]
fn read_only_flag_and_global_options_apply() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("h.txt"), "hello\n").unwrap();
    let root = root_arg(dir.path());
    let mut server = Server::start(&[
        "--tag-scheme",
        "omp",
        "--max-output-bytes",
        "8",
        "mcp",
        "--read-only",
        "--root",
        &root,
    ]);
    server.initialize();
    let listed = server.request(1, "tools/list", json!({}));
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_file", "grep", "glob", "list_dir"]);
    // omp tag of "hello\n" (FORMAT.md §3.2), and the 8-byte budget cuts the
    // view, exactly as the CLI does with the same flags.
    let read = server.call(2, "read_file", json!({"path": "h.txt"}));
    assert_eq!(read["_meta"]["io.github.hashedit/result"]["tag"], "5BF9");
    let cli = Command::new(BINARY)
        .args(["--tag-scheme", "omp", "--max-output-bytes", "8", "--root"])
        .arg(&root)
        .args(["read", "h.txt"])
        .output()
        .unwrap();
    assert_eq!(
        format!("{}\n", read["content"][0]["text"].as_str().unwrap()),
        String::from_utf8(cli.stdout).unwrap()
    );
    let write = server.call(3, "write", json!({"path": "n.txt", "content": "x"}));
    assert_eq!(
        write["_meta"]["io.github.hashedit/result"],
        json!({"kind": "permission_denied"})
    );
    assert!(!dir.path().join("n.txt").exists());
    assert!(server.close().success());
}

#[test]
fn a_bad_root_is_a_usage_error() {
    let output = Command::new(BINARY)
        .args(["mcp", "--root", "/nonexistent/hashedit-root"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr,
        "hashedit: the workspace root /nonexistent/hashedit-root does not exist; give an existing directory\n"
    );
}

#[test]
fn block_locators_resolve_with_tree_sitter() {
    let dir = tempfile::tempdir().unwrap();
    let source = "fn one() {\n    1\n}\n\nfn two() -> u8 {\n    2\n}\n";
    std::fs::write(dir.path().join("lib.rs"), source).unwrap();
    let mut server = Server::start(&["mcp", "--root", &root_arg(dir.path())]);
    server.initialize();
    let read = server.call(1, "read_file", json!({"path": "lib.rs"}));
    let tag = read["_meta"]["io.github.hashedit/result"]["tag"]
        .as_str()
        .unwrap()
        .to_string();
    let edit = server.call(
        2,
        "edit",
        json!({"input": format!("[lib.rs#{tag}]\nPUT 5*:\n+fn two() -> u8 {{\n+    22\n+}}")}),
    );
    assert_eq!(edit["isError"], false, "{edit}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("lib.rs")).unwrap(),
        "fn one() {\n    1\n}\n\nfn two() -> u8 {\n    22\n}\n"
    );
    assert!(server.close().success());
}

impl Server {
    /// Opens a session declaring the `roots` capability.
    fn initialize_with_roots(&mut self) {
        let reply = self.request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25",
                   "capabilities": {"roots": {"listChanged": true}},
                   "clientInfo": {"name": "stdio-test", "version": "0"}}),
        );
        assert!(reply["result"]["capabilities"]["tools"].is_object());
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    /// Waits for the server's `roots/list` request and answers it with
    /// `dirs` as `file://` roots.
    fn answer_roots(&mut self, dirs: &[&Path]) {
        let request = self.recv();
        assert_eq!(request["method"], "roots/list", "{request}");
        let roots: Vec<Value> = dirs
            .iter()
            .map(|d| json!({"uri": format!("file://{}", d.display())}))
            .collect();
        self.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": {"roots": roots}}));
    }
}

/// A tree of 400 files of 256 KiB (100 MiB) that a backtracking-prone
/// pattern takes seconds to search in a test build; made once per target
/// directory.
fn big_tree() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-big-tree-v1");
    let done = dir.join(".complete");
    if !done.exists() {
        let line = "abcdefghij".repeat(7) + "\n";
        let blob = line.repeat(262_144 / line.len());
        for i in 0..400 {
            let sub = dir.join(format!("d{:02}", i % 20));
            std::fs::create_dir_all(&sub).unwrap();
            std::fs::write(sub.join(format!("f{i:04}.txt")), &blob).unwrap();
        }
        std::fs::write(&done, "").unwrap();
    }
    dir
}

/// A pattern that matches nothing in [`big_tree`] but makes grep read and
/// search every byte.
const SLOW_PATTERN: &str = r"(a|b)+c\w{3}z";

/// Sends a grep for [`SLOW_PATTERN`] over `tree` as request `id` with
/// progress token `token`, and returns once its first progress
/// notification arrived: the search is then running.
fn start_slow_grep(server: &mut Server, id: i64, token: &str, progress: &mut Vec<f64>) {
    server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "grep", "arguments": {"pattern": SLOW_PATTERN},
                   "_meta": {"progressToken": token}}}));
    let seen = progress.len();
    while progress.len() == seen {
        let message = server.recv();
        assert_eq!(
            message["method"], "notifications/progress",
            "a reply before any progress of {token}: {message}"
        );
        if message["params"]["progressToken"] == token {
            progress.push(message["params"]["progress"].as_f64().unwrap());
        }
    }
}

#[test]
fn a_cancelled_grep_stops_while_another_goes_on() {
    // The server reports progress on a call until the call has returned,
    // so a cancelled grep whose search went on would keep reporting. Two
    // greps run; once one is cancelled, the other's progress is the clock:
    // it reports four more times while the cancelled one reports at most
    // once more (a report already on its way).
    let tree = big_tree();
    let mut server = Server::start_with_env(
        &["mcp", "--root", &root_arg(&tree)],
        &[("HASHEDIT_THREADS", "1")],
    );
    server.initialize();
    let (mut cancelled, mut running) = (Vec::new(), Vec::new());
    start_slow_grep(&mut server, 5, "cancelled", &mut cancelled);
    start_slow_grep(&mut server, 6, "running", &mut running);
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 5, "reason": "user pressed escape"}}),
    );
    let (seen_cancelled, seen_running) = (cancelled.len(), running.len());
    while running.len() < seen_running + 4 {
        let message = server.recv();
        assert_eq!(message["method"], "notifications/progress", "{message}");
        let value = message["params"]["progress"].as_f64().unwrap();
        match message["params"]["progressToken"].as_str() {
            Some("cancelled") => cancelled.push(value),
            Some("running") => running.push(value),
            other => panic!("progress for {other:?}"),
        }
    }
    assert!(
        cancelled.len() <= seen_cancelled + 1,
        "the cancelled grep still runs: progress {cancelled:?} while the other reported {running:?}"
    );
    // The cancelled request gets no answer; the running one is cancelled
    // too, and the next request is answered.
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 6, "reason": "done"}}),
    );
    server.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "ping"}));
    let pong = server.recv_skipping_progress("running", &mut running);
    assert_eq!(pong, json!({"jsonrpc": "2.0", "id": 7, "result": {}}));
    assert!(server.close().success());
}

#[test]
fn calls_run_concurrently() {
    // While a grep runs (its progress arrived, its reply has not), a read
    // is answered first; served one at a time, the read would wait behind
    // the grep's seconds of work.
    let tree = big_tree();
    let mut server = Server::start_with_env(
        &["mcp", "--root", &root_arg(&tree)],
        &[("HASHEDIT_THREADS", "1")],
    );
    server.initialize();
    let mut progress = Vec::new();
    start_slow_grep(&mut server, 5, "grep-1", &mut progress);
    server.send(&json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
        "params": {"name": "read_file", "arguments": {"path": "d00/f0000.txt", "limit": 1}}}));
    let read = server.recv_skipping_progress("grep-1", &mut progress);
    assert_eq!(read["id"], 6, "the read waited for the grep: {read}");
    let text = read["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("\n1:{}\n", "abcdefghij".repeat(7))),
        "{text}"
    );
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 5, "reason": "done"}}),
    );
    assert!(server.close().success());
}

#[test]
fn eof_stops_a_running_grep_and_the_server_exits() {
    // Once the grep reports progress it is running; closing the input
    // stops it (its reply says so) and ends the process (a server left
    // waiting would hang the test).
    let tree = big_tree();
    let mut server = Server::start(&["mcp", "--root", &root_arg(&tree)]);
    server.initialize();
    let mut progress = Vec::new();
    start_slow_grep(&mut server, 5, "grep-1", &mut progress);
    let (status, rest) = server.close_with_rest();
    assert!(status.success());
    assert_eq!(rest.len(), 1, "{rest:?}");
    let reply = &rest[0];
    assert_eq!(reply["id"], 5, "{reply}");
    assert_eq!(
        reply["result"]["content"][0]["text"],
        format!("no matches for '{SLOW_PATTERN}' under . (cancelled)")
    );
    assert_eq!(
        reply["result"]["_meta"]["io.github.hashedit/result"]["stop"],
        "cancelled"
    );
}

#[test]
fn a_progress_token_gets_increasing_progress_while_the_call_runs() {
    let tree = big_tree();
    // One search thread leaves the runtime a core under a loaded test run.
    let mut server = Server::start_with_env(
        &["mcp", "--root", &root_arg(&tree)],
        &[("HASHEDIT_THREADS", "1")],
    );
    server.initialize();
    let mut values = Vec::new();
    start_slow_grep(&mut server, 5, "grep-1", &mut values);
    // Three reports, each naming the tool and the seconds it has run (by
    // the server's clock, so only their order is asserted).
    let mut messages = Vec::new();
    while messages.len() < 3 {
        let message = server.recv();
        assert_eq!(message["method"], "notifications/progress", "{message}");
        messages.push(message);
    }
    for message in &messages {
        let params = &message["params"];
        assert_eq!(params["progressToken"], "grep-1", "{message}");
        let seconds = params["progress"].as_f64().unwrap();
        assert_eq!(
            params["message"],
            format!("grep still running after {seconds:.1} s")
        );
        values.push(seconds);
    }
    assert!(
        values.windows(2).all(|pair| pair[0] < pair[1]),
        "progress must increase: {values:?}"
    );
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 5, "reason": "seen enough"}}),
    );
    assert!(server.close().success());
}

#[test]
fn without_root_the_clients_first_root_is_the_workspace_and_follows_changes() {
    let started_in = tempfile::tempdir().unwrap();
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    std::fs::write(started_in.path().join("a.txt"), "started here\n").unwrap();
    std::fs::write(first.path().join("a.txt"), "first root\n").unwrap();
    std::fs::write(second.path().join("a.txt"), "second root\n").unwrap();
    let mut server = Server::start_in(started_in.path(), &["mcp"]);
    server.initialize_with_roots();
    server.answer_roots(&[first.path(), second.path()]);
    let read = server.call(1, "read_file", json!({"path": "a.txt"}));
    assert_eq!(
        read["content"][0]["text"].as_str().unwrap(),
        format!(
            "[a.txt#{}]\n1:first root",
            hashedit_core::TagScheme::Rho.tag_of(b"first root\n")
        )
    );
    // Paths stay confined to the root the client gave.
    let outside = server.call(
        2,
        "read_file",
        json!({"path": second.path().join("a.txt").to_str().unwrap()}),
    );
    assert_eq!(outside["isError"], true, "{outside}");
    assert_eq!(
        outside["_meta"]["io.github.hashedit/result"]["kind"],
        "path_outside_workspace"
    );
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}));
    server.answer_roots(&[second.path()]);
    let read = server.call(3, "read_file", json!({"path": "a.txt"}));
    assert_eq!(
        read["content"][0]["text"].as_str().unwrap(),
        format!(
            "[a.txt#{}]\n1:second root",
            hashedit_core::TagScheme::Rho.tag_of(b"second root\n")
        )
    );
    assert!(server.close().success());
}

#[test]
fn without_root_or_client_roots_the_start_directory_is_the_workspace() {
    let started_in = tempfile::tempdir().unwrap();
    std::fs::write(started_in.path().join("a.txt"), "a\nb\n").unwrap();
    let mut server = Server::start_in(started_in.path(), &["mcp"]);
    server.initialize();
    let read = server.call(1, "read_file", json!({"path": "a.txt"}));
    assert_eq!(read["content"][0]["text"], "[a.txt#6DEE]\n1:a\n2:b");
    assert!(server.close().success());
}

#[test]
fn an_explicit_root_wins_over_the_clients_roots() {
    let root = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("a.txt"), "a\nb\n").unwrap();
    let mut server = Server::start(&["mcp", "--root", &root_arg(root.path())]);
    server.initialize_with_roots();
    // The server never asks: the first message it sends answers the call.
    let read = server.call(1, "read_file", json!({"path": "a.txt"}));
    assert_eq!(read["content"][0]["text"], "[a.txt#6DEE]\n1:a\n2:b");
    drop(other);
    assert!(server.close().success());
}

#[test]
fn results_carry_text_and_meta_and_structured_content_only_on_request() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\nb\n").unwrap();
    let mut server = Server::start(&["mcp", "--root", &root_arg(dir.path())]);
    server.initialize();
    let read = server.call(1, "read_file", json!({"path": "a.txt"}));
    assert_eq!(
        read,
        json!({
            "content": [{"type": "text", "text": "[a.txt#6DEE]\n1:a\n2:b"}],
            "isError": false,
            "_meta": {"io.github.hashedit/result": {
                "path": "a.txt", "tag": "6DEE", "total_lines": 2,
                "start": 1, "end": 2, "partial": false}}
        })
    );
    let tools = server.request(2, "tools/list", json!({}));
    for tool in tools["result"]["tools"].as_array().unwrap() {
        assert!(tool.get("outputSchema").is_none(), "{tool}");
    }
    assert!(server.close().success());

    let mut server = Server::start(&[
        "mcp",
        "--structured-content",
        "--root",
        &root_arg(dir.path()),
    ]);
    server.initialize();
    let read = server.call(1, "read_file", json!({"path": "a.txt"}));
    assert_eq!(
        read["structuredContent"],
        json!({"path": "a.txt", "tag": "6DEE", "total_lines": 2, "start": 1, "end": 2,
               "partial": false, "text": "[a.txt#6DEE]\n1:a\n2:b"})
    );
    let stale = server.call(2, "edit", json!({"input": "[a.txt#0000]\nCUT 1"}));
    assert_eq!(stale["structuredContent"]["kind"], "stale_tag");
    assert_eq!(
        stale["structuredContent"]["text"],
        stale["content"][0]["text"]
    );
    let tools = server.request(3, "tools/list", json!({}));
    for tool in tools["result"]["tools"].as_array().unwrap() {
        assert_eq!(
            tool["outputSchema"]["required"],
            json!(["text"]),
            "{}",
            tool["name"]
        );
    }
    assert!(server.close().success());
}

#[test]
fn prompts_offer_the_guide_and_resources_are_empty() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(&["mcp", "--root", &root_arg(dir.path())]);
    server.initialize();
    let prompts = server.request(1, "prompts/list", json!({}));
    assert_eq!(prompts["result"]["prompts"][0]["name"], "hashline-guide");
    assert_eq!(prompts["result"]["prompts"].as_array().unwrap().len(), 1);
    let guide = server.request(2, "prompts/get", json!({"name": "hashline-guide"}));
    let text = guide["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap();
    assert_eq!(text, hashedit_mcp::GUIDE);
    assert_eq!(guide["result"]["messages"][0]["role"], "user");
    let unknown = server.request(3, "prompts/get", json!({"name": "other"}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    let resources = server.request(4, "resources/list", json!({}));
    assert_eq!(resources["result"], json!({"resources": []}));
    let templates = server.request(5, "resources/templates/list", json!({}));
    assert_eq!(templates["result"], json!({"resourceTemplates": []}));
    assert!(server.close().success());
}

#[test]
fn every_tool_refuses_a_mistyped_argument_and_accepts_wait_for_previous() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\nb\n").unwrap();
    let mut server = Server::start(&["mcp", "--root", &root_arg(dir.path())]);
    server.initialize();
    let typo = server.call(1, "read_file", json!({"path": "a.txt", "offest": 2}));
    assert_eq!(typo["isError"], true);
    assert_eq!(
        typo["content"][0]["text"],
        "invalid arguments for read_file: unknown argument offest (did you mean offset? \
         read_file takes only limit, offset, path)"
    );
    for (id, (tool, arguments)) in [
        ("read_file", json!({"path": "a.txt"})),
        ("grep", json!({"pattern": "a"})),
        ("glob", json!({"pattern": "*.txt"})),
        ("list_dir", json!({"path": "."})),
        ("write", json!({"path": "b.txt", "content": "b\n"})),
        ("edit", json!({"input": "[a.txt#6DEE]\nPUT 2:\n+B"})),
    ]
    .into_iter()
    .enumerate()
    {
        let mut with_flag = arguments.clone();
        with_flag["wait_for_previous"] = json!(true);
        let reply = server.call(10 + id as i64, tool, with_flag);
        assert_eq!(reply["isError"], false, "{tool}: {reply}");
        let mut typo = arguments;
        typo["pathh"] = json!("x");
        let reply = server.call(20 + id as i64, tool, typo);
        assert_eq!(reply["isError"], true, "{tool}: {reply}");
        assert!(
            reply["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("unknown argument pathh"),
            "{tool}: {reply}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "a\nB\n"
    );
    assert!(server.close().success());
}

#[test]
fn a_request_before_initialize_is_told_to_initialize_first() {
    let dir = tempfile::tempdir().unwrap();
    let root = root_arg(dir.path());
    let mut server = Server::start(&["mcp", "--root", &root]);
    // Break-it pass: tools/list first got "request _meta is missing or has
    // malformed required fields: …", which does not say what to do.
    let expected = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message":
        "the session is not initialized: send an initialize request first and wait for its answer, then \
         this request (or, under protocol 2026-07-28 without initialize, give every request _meta with \
         io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities)"}});
    assert_eq!(server.request(1, "tools/list", json!({})), expected);
    // Without params, and for a tool call, the same answer.
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let reply = server.recv();
    assert_eq!(reply["error"], expected["error"], "{reply}");
    let reply = server.request(
        3,
        "tools/call",
        json!({"name": "read_file", "arguments": {"path": "x"}}),
    );
    assert_eq!(reply["error"], expected["error"], "{reply}");
    // The session then opens as usual.
    server.initialize();
    let listed = server.request(4, "tools/list", json!({}));
    assert_eq!(
        listed["result"]["tools"].as_array().unwrap().len(),
        6,
        "{listed}"
    );
    assert!(server.close().success());
}
