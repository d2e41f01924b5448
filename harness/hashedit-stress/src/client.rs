//! Driving the real `hashedit` binary: CLI runs (with `--json`) and a
//! minimal MCP client that speaks newline-delimited JSON-RPC over the
//! server's stdio.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How to start `hashedit`: the binary, the CLI snapshot registry to use,
/// and optionally another user to run as.
#[derive(Debug, Clone)]
pub struct Launcher {
    /// Path of the `hashedit` binary.
    pub bin: PathBuf,
    /// Value for `HASHEDIT_REGISTRY` (`off` disables the CLI's registry).
    pub registry: String,
    /// Run as this (uid, gid) instead of the current user (needs root).
    pub user: Option<(u32, u32)>,
    /// Run under `strace`, which kills the process on entry to the `nth`
    /// call of `syscall` (see [`StraceKill`]).
    pub strace: Option<StraceKill>,
}

/// A kill at an exact system call, delivered by `strace`'s fault
/// injection: `SIGKILL` on entry to the `nth` (1-based) call of `syscall`,
/// counted over all threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StraceKill {
    /// The system call's name, as strace spells it (`renameat2`, `fsync`).
    pub syscall: String,
    /// Which call of it.
    pub nth: usize,
}

impl Launcher {
    /// A launcher for `bin` with the CLI registry switched off.
    pub fn new(bin: impl Into<PathBuf>) -> Launcher {
        Launcher {
            bin: bin.into(),
            registry: "off".to_string(),
            user: None,
            strace: None,
        }
    }

    /// A command running `hashedit --root ROOT ARGS…`.
    pub fn command(&self, root: &Path, args: &[&str]) -> Command {
        let mut command = match &self.strace {
            None => Command::new(&self.bin),
            Some(kill) => {
                let mut command = Command::new("strace");
                command.args([
                    "-f",
                    "-qq",
                    "-o",
                    "/dev/null",
                    "-e",
                    &format!("trace={}", kill.syscall),
                    "-e",
                    &format!("inject={}:signal=KILL:when={}", kill.syscall, kill.nth),
                    "--",
                ]);
                command.arg(&self.bin);
                command
            }
        };
        command.arg("--root").arg(root).args(args);
        command.env("HASHEDIT_REGISTRY", &self.registry);
        command.env_remove("NO_COLOR");
        if let Some((uid, gid)) = self.user {
            command.uid(uid).gid(gid);
        }
        command
    }

    /// Starts `hashedit --json ARGS…` with `input` fed to its stdin by a
    /// helper thread (so large inputs do not block the caller).
    pub fn spawn_cli(&self, root: &Path, args: &[&str], input: Vec<u8>) -> std::io::Result<Cli> {
        let mut full = vec!["--json"];
        full.extend_from_slice(args);
        let mut child = self
            .command(root, &full)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take();
        let feeder = std::thread::spawn(move || {
            if let Some(mut stdin) = stdin {
                // A killed process closes the pipe: EPIPE is expected.
                let _ = stdin.write_all(&input);
            }
        });
        Ok(Cli {
            child,
            feeder: Some(feeder),
        })
    }

    /// Runs `hashedit --json ARGS…` to completion with `input` on stdin.
    pub fn run_cli(&self, root: &Path, args: &[&str], input: &[u8]) -> Result<Reply, String> {
        let cli = self
            .spawn_cli(root, args, input.to_vec())
            .map_err(|e| format!("cannot start {}: {e}", self.bin.display()))?;
        cli.finish()
    }

    /// Starts `hashedit mcp` and completes the MCP handshake.
    pub fn spawn_mcp(&self, root: &Path) -> Result<McpServer, String> {
        let mut server = McpServer::spawn(self.command(root, &["mcp"]))
            .map_err(|e| format!("cannot start {} mcp: {e}", self.bin.display()))?;
        server.initialize(Duration::from_secs(20))?;
        Ok(server)
    }
}

/// A running CLI process.
pub struct Cli {
    /// The process.
    pub child: Child,
    feeder: Option<std::thread::JoinHandle<()>>,
}

impl Cli {
    /// Sends SIGKILL (if it is still running) and reaps the process.
    pub fn kill(mut self) -> ExitStatus {
        let _ = self.child.kill();
        let status = self.child.wait();
        if let Some(feeder) = self.feeder.take() {
            let _ = feeder.join();
        }
        status.unwrap_or_else(|_| std::process::ExitStatus::default())
    }

    /// Waits for the process and parses its `--json` output.
    pub fn finish(mut self) -> Result<Reply, String> {
        let mut stdout = String::new();
        if let Some(mut out) = self.child.stdout.take() {
            std::io::Read::read_to_string(&mut out, &mut stdout)
                .map_err(|e| format!("cannot read hashedit's output: {e}"))?;
        }
        let status = self
            .child
            .wait()
            .map_err(|e| format!("cannot wait for hashedit: {e}"))?;
        if let Some(feeder) = self.feeder.take() {
            let _ = feeder.join();
        }
        Reply::from_cli(&stdout, status)
    }

    /// Whether the process has exited (without reaping twice).
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }
}

impl Drop for Cli {
    fn drop(&mut self) {
        // Never leave a stray process or a zombie behind.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The outcome of one tool call, from either surface.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Success: the model-facing text and the structured data.
    Ok {
        /// The reply text.
        text: String,
        /// `data` (CLI) or the `_meta` facts (MCP).
        data: Value,
    },
    /// A tool error: its kind (`stale_tag`, …) and message.
    Failed {
        /// The error kind.
        kind: String,
        /// The message.
        message: String,
    },
}

impl Reply {
    /// Parses the CLI's `--json` line; an empty or malformed output (a
    /// crash, a usage error) is an `Err` naming the exit status.
    pub fn from_cli(stdout: &str, status: ExitStatus) -> Result<Reply, String> {
        let value: Value = serde_json::from_str(stdout.trim()).map_err(|_| {
            format!(
                "hashedit exited with {status} and printed no JSON: {:?}",
                truncate(stdout, 300)
            )
        })?;
        if value["ok"] == true {
            Ok(Reply::Ok {
                text: value["text"].as_str().unwrap_or_default().to_string(),
                data: value["data"].clone(),
            })
        } else {
            Ok(Reply::Failed {
                kind: value["error"]["kind"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                message: value["error"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            })
        }
    }

    /// Parses an MCP `tools/call` response.
    pub fn from_mcp(response: &Value) -> Result<Reply, String> {
        let result = &response["result"];
        if result.is_null() {
            return Err(format!("MCP error response: {response}"));
        }
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if result["isError"] == true {
            Ok(Reply::Failed {
                kind: result["_meta"]["io.github.hashedit/result"]["kind"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                message: text,
            })
        } else {
            Ok(Reply::Ok {
                text,
                data: result["_meta"]["io.github.hashedit/result"].clone(),
            })
        }
    }

    /// The error kind, or `None` for a success.
    pub fn kind(&self) -> Option<&str> {
        match self {
            Reply::Ok { .. } => None,
            Reply::Failed { kind, .. } => Some(kind),
        }
    }

    /// Whether the call succeeded.
    pub fn is_ok(&self) -> bool {
        matches!(self, Reply::Ok { .. })
    }
}

fn truncate(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A `hashedit mcp` process and the client side of its stdio.
pub struct McpServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    pending: HashMap<i64, Value>,
    next_id: i64,
}

impl McpServer {
    /// Starts the server `command` (which must run `hashedit … mcp`).
    pub fn spawn(mut command: Command) -> std::io::Result<McpServer> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (sender, lines) = mpsc::channel();
        if let Some(stdout) = stdout {
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        Ok(McpServer {
            child,
            stdin,
            lines,
            pending: HashMap::new(),
            next_id: 1,
        })
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| "the server's stdin is closed".to_string())?;
        let mut line = message.to_string();
        line.push('\n');
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot send to the MCP server: {e}"))
    }

    /// Sends a request and returns its id without waiting for the reply.
    pub fn send_request(&mut self, method: &str, params: Value) -> Result<i64, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        Ok(id)
    }

    /// Sends a `tools/call` and returns its id without waiting.
    pub fn send_call(&mut self, tool: &str, arguments: Value) -> Result<i64, String> {
        self.send_request("tools/call", json!({"name": tool, "arguments": arguments}))
    }

    /// Collects replies that already arrived, without blocking.
    fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            self.store(&line);
        }
    }

    fn store(&mut self, line: &str) {
        if let Ok(value) = serde_json::from_str::<Value>(line)
            && let Some(id) = value["id"].as_i64()
        {
            self.pending.insert(id, value);
        }
    }

    /// The response to request `id` if it has arrived.
    pub fn try_response(&mut self, id: i64) -> Option<Value> {
        self.drain();
        self.pending.remove(&id)
    }

    /// Waits up to `timeout` for the response to request `id`.
    pub fn wait_response(&mut self, id: i64, timeout: Duration) -> Result<Value, String> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(value) = self.pending.remove(&id) {
                return Ok(value);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.store(&line),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "no MCP response to request {id} within {timeout:?}"
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "the MCP server closed its output before answering request {id}"
                    ));
                }
            }
        }
    }

    /// Calls `tool` and waits for its reply.
    pub fn call(
        &mut self,
        tool: &str,
        arguments: Value,
        timeout: Duration,
    ) -> Result<Reply, String> {
        let id = self.send_call(tool, arguments)?;
        Reply::from_mcp(&self.wait_response(id, timeout)?)
    }

    /// The `initialize` handshake followed by `notifications/initialized`.
    pub fn initialize(&mut self, timeout: Duration) -> Result<Value, String> {
        let id = self.send_request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "hashedit-stress", "version": "0"}}),
        )?;
        let reply = self.wait_response(id, timeout)?;
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(reply)
    }

    /// Whether the process has exited.
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Sends SIGKILL and reaps the process.
    pub fn kill(mut self) -> ExitStatus {
        self.kill_in_place()
    }

    fn kill_in_place(&mut self) -> ExitStatus {
        let _ = self.child.kill();
        drop(self.stdin.take());
        self.child
            .wait()
            .unwrap_or_else(|_| std::process::ExitStatus::default())
    }

    /// Closes stdin and waits (up to `timeout`) for a clean exit.
    pub fn close(mut self, timeout: Duration) -> Result<ExitStatus, String> {
        drop(self.stdin.take());
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Ok(status);
            }
            if Instant::now() >= deadline {
                self.kill_in_place();
                return Err("the MCP server did not exit after its stdin closed".to_string());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        if !self.exited() {
            self.kill_in_place();
        }
    }
}
