//! The `hashedit mcp` process itself: flags, stdio framing, clean exit at
//! EOF, and the global `--tag-scheme` and `--max-output-bytes` options.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_hashedit");

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(BINARY)
            .args(args)
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

    /// Closes stdin and waits (bounded) for the exit status; stdout must
    /// have nothing left.
    fn close(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut rest = String::new();
                std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
                assert_eq!(rest, "", "nothing but replies on stdout");
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "hashedit mcp did not exit at EOF"
            );
            std::thread::sleep(Duration::from_millis(20));
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
        reply["result"]["structuredContent"],
        json!({"kind": "too_large"})
    );
    assert!(!dir.path().join("big.txt").exists());
    let read = server.call(6, "read_file", json!({"path": "a.txt"}));
    assert_eq!(read["isError"], false);
    assert!(server.close().success());
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
    // omp tag of "hello\n" (product.md §2), and the 8-byte budget cuts the
    // view, exactly as the CLI does with the same flags.
    let read = server.call(2, "read_file", json!({"path": "h.txt"}));
    assert_eq!(read["structuredContent"]["tag"], "5BF9");
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
        write["structuredContent"],
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
    assert!(
        stderr.starts_with("hashedit: workspace root /nonexistent/hashedit-root: "),
        "{stderr}"
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
    let tag = read["structuredContent"]["tag"]
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
