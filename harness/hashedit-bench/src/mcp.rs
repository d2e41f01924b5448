//! A minimal MCP client over stdio for latency measurements.
//!
//! [`Session::start`] spawns a server, sends `initialize` and
//! `notifications/initialized`, and then [`Session::call`] sends one
//! `tools/call` at a time (newline-delimited JSON-RPC, the stdio transport
//! of the MCP specification) and waits for its answer: the time between
//! writing the request and reading the answer's line is one round trip, as
//! an agent's client sees it. [`compare`] runs several servers side by
//! side, alternating requests between them.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::stats::summary;

/// The protocol revision the client asks for.
pub const PROTOCOL_VERSION: &str = "2025-06-18";

/// One server process and its session.
#[derive(Debug)]
pub struct Session {
    child: Child,
    /// `None` only while the session is being dropped.
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    label: String,
}

impl Session {
    /// Spawns `argv` (program and arguments) and opens an MCP session.
    ///
    /// Errors: the server does not start or does not answer `initialize`.
    pub fn start(label: &str, argv: &[String]) -> Result<Session, String> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| format!("{label}: empty server command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{label}: cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut session = Session {
            child,
            stdin: Some(stdin),
            stdout,
            next_id: 1,
            label: label.to_string(),
        };
        session.request(
            "initialize",
            json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": { "name": "hashedit-bench", "version": env!("CARGO_PKG_VERSION") },
            }),
        )?;
        session.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))?;
        Ok(session)
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let mut line = serde_json::to_vec(message).map_err(|e| e.to_string())?;
        line.push(b'\n');
        let stdin = self.stdin.as_mut().expect("stdin is open until drop");
        stdin
            .write_all(&line)
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("{}: write: {e}", self.label))
    }

    /// Sends a request and returns its `result` (skipping notifications and
    /// server requests that arrive meanwhile).
    ///
    /// Errors: the server closed the pipe, or answered with an error.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| format!("{}: read: {e}", self.label))?;
            if n == 0 {
                return Err(format!("{}: the server closed its output", self.label));
            }
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id") != Some(&json!(id)) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(format!("{}: {method} failed: {error}", self.label));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }

    /// Calls tool `name` and returns the text of its result and the round
    /// trip time.
    ///
    /// Errors: a protocol error, or a tool result flagged `isError`.
    pub fn call(&mut self, name: &str, arguments: &Value) -> Result<(String, Duration), String> {
        let start = Instant::now();
        let result = self.request(
            "tools/call",
            json!({ "name": name, "arguments": arguments }),
        )?;
        let elapsed = start.elapsed();
        let text: String = result
            .get("content")
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|c| c.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        if result.get("isError") == Some(&Value::Bool(true)) {
            return Err(format!("{}: {name} returned an error: {text}", self.label));
        }
        Ok((text, elapsed))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Closing stdin ends a well-behaved stdio server (and lets a
        // wrapper such as a profiler finish its report); one that is still
        // running after two seconds is killed.
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One server and the calls to make on it: a tool name and argument
/// objects to cycle through (so an edit can flip a file back and forth).
#[derive(Debug, Clone)]
pub struct Target {
    /// Label in the results.
    pub label: String,
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Tool to call.
    pub tool: String,
    /// Arguments for successive calls, cycled.
    pub arguments: Vec<Value>,
}

/// Starts every target's server, makes `warmup` untimed calls on each,
/// then `calls` timed calls on each, alternating between servers (and the
/// order in which they are visited), and returns per-target summaries of
/// the round trips in microseconds plus the raw samples.
///
/// Errors: a server that fails to start or a call that fails.
pub fn compare(targets: &[Target], warmup: usize, calls: usize) -> Result<Value, String> {
    let mut sessions = Vec::with_capacity(targets.len());
    for target in targets {
        sessions.push(Session::start(&target.label, &target.argv)?);
    }
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(calls); targets.len()];
    let mut used = vec![0usize; targets.len()];
    for round in 0..warmup + calls {
        let mut order: Vec<usize> = (0..targets.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for k in order {
            let target = &targets[k];
            let args = &target.arguments[used[k] % target.arguments.len()];
            used[k] += 1;
            let (_, elapsed) = sessions[k].call(&target.tool, args)?;
            if round >= warmup {
                samples[k].push(elapsed.as_secs_f64() * 1e6);
            }
        }
    }
    let mut out = serde_json::Map::new();
    for (target, s) in targets.iter().zip(&samples) {
        out.insert(target.label.clone(), summary(s));
        out.insert(format!("{}_samples", target.label), json!(s));
    }
    Ok(Value::Object(out))
}
