//! `hashedit mcp` driven by the four real agent CLIs, each talking to a
//! scripted fake model on 127.0.0.1 (`tests/agents/fake_model.mjs`):
//! Claude Code (`claude -p`), Codex CLI (`codex exec`), Gemini CLI
//! (`gemini -p`) and opencode (`opencode run`).
//!
//! The fake model plays one conversation: read notes.txt, edit line 2 with
//! the tag it read, send the same edit again (now stale), grep, then say
//! "done". It logs every request body, and each test checks what the client
//! put in front of the model after each tool call: the text `hashedit`
//! prints (the same text the CLI prints for the same call, taken from a
//! twin workspace), as plain text, not structured data in its place. And
//! the file on disk.
//!
//! The CLIs are installed by `scripts/install-peers` into
//! `target/peers/node_modules/.bin`, or found through `HASHEDIT_CLAUDE`,
//! `HASHEDIT_CODEX`, `HASHEDIT_GEMINI` and `HASHEDIT_OPENCODE`; `node`
//! (for the fake model) through `HASHEDIT_NODE` or `PATH`. A missing one
//! fails the test under `HASHEDIT_REQUIRE_PEERS=1` (as in CI) and otherwise
//! skips it with a loud notice.
//!
//! Each client runs with a cleared environment: a scratch HOME and XDG
//! directories, PATH, and the variables below, so no key, setting or cache
//! of the machine leaks in. `HASHEDIT_AGENTS_TRACE_MCP=1` puts
//! `tests/agents/mcp_tee.mjs` between client and server and prints the MCP
//! traffic; `HASHEDIT_AGENTS_KEEP=1` keeps the scratch directories;
//! `HASHEDIT_AGENTS_BINARY=PATH` serves (and computes the expected texts
//! with) another `hashedit` build than this one.

mod common;

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::{missing, peers_dir};

const BINARY: &str = env!("CARGO_BIN_EXE_hashedit");
const PROMPT: &str = "Change line 2 of notes.txt to TWO.";
/// How long one client may take; a run takes a few seconds.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(60);
/// The key the clients send; the fake model ignores it.
const FAKE_KEY: &str = "fake-key-for-a-local-fake-model";

/// The `hashedit` under test: this build, or `HASHEDIT_AGENTS_BINARY`.
fn binary() -> PathBuf {
    std::env::var_os("HASHEDIT_AGENTS_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(BINARY))
}

fn agents_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents")
}

fn flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| v == "1")
}

/// `node`, for the fake model (and the MCP tee).
fn node() -> Option<PathBuf> {
    let node = std::env::var_os("HASHEDIT_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("node"));
    let works = Command::new(&node)
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if works {
        Some(node)
    } else {
        missing("node (for the fake model)", "node does not run");
        None
    }
}

/// An agent CLI: `$env_var`, else `target/peers/node_modules/.bin/<bin>`.
fn agent_cli(peer: &str, env_var: &str, bin: &str) -> Option<PathBuf> {
    let path = std::env::var_os(env_var)
        .map(PathBuf::from)
        .unwrap_or_else(|| peers_dir().join("node_modules/.bin").join(bin));
    if path.is_file() {
        Some(path)
    } else {
        missing(peer, &format!("{} does not exist", path.display()));
        None
    }
}

/// A scratch directory: `home/` for the client, `ws/` the workspace the
/// server serves, `twin/` the same files for the CLI to compute what the
/// model should see.
struct Scratch {
    dir: Option<tempfile::TempDir>,
    root: PathBuf,
}

impl Scratch {
    fn new(client: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("hashedit-agent-{client}-"))
            .tempdir()
            .unwrap();
        let root = dir.path().to_path_buf();
        for sub in ["home", "ws", "twin"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        std::fs::write(root.join("ws/notes.txt"), "one\ntwo\n").unwrap();
        std::fs::write(root.join("twin/notes.txt"), "one\ntwo\n").unwrap();
        Scratch {
            dir: Some(dir),
            root,
        }
    }
    fn home(&self) -> PathBuf {
        self.root.join("home")
    }
    fn ws(&self) -> PathBuf {
        self.root.join("ws")
    }
    fn file(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if flag("HASHEDIT_AGENTS_KEEP")
            && let Some(dir) = self.dir.take()
        {
            eprintln!("kept {}", dir.keep().display());
        }
    }
}

/// The fake model, listening on an ephemeral loopback port. It exits when
/// its stdin closes, so it cannot outlive the test.
struct FakeModel {
    child: Child,
    url: String,
    log: PathBuf,
}

impl FakeModel {
    fn start(node: &Path, scratch: &Scratch) -> FakeModel {
        let log = scratch.file("model.jsonl");
        let mut child = Command::new(node)
            .arg(agents_dir().join("fake_model.mjs"))
            .arg(&log)
            .arg("0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(scratch.file("model.stderr")).unwrap())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(30)).unwrap_or_default();
        let Some(url) = line.trim().strip_prefix("listening ") else {
            let _ = child.kill();
            panic!(
                "the fake model did not start (said {line:?}): {}",
                std::fs::read_to_string(scratch.file("model.stderr")).unwrap_or_default()
            );
        };
        FakeModel {
            url: url.to_string(),
            child,
            log,
        }
    }

    /// Every request logged so far.
    fn requests(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The environment every client runs in (after `env_clear`).
fn base_env(scratch: &Scratch) -> Vec<(String, OsString)> {
    let home = scratch.home();
    vec![
        ("PATH".into(), std::env::var_os("PATH").unwrap_or_default()),
        ("HOME".into(), home.clone().into()),
        ("XDG_CONFIG_HOME".into(), home.join(".config").into()),
        ("XDG_CACHE_HOME".into(), home.join(".cache").into()),
        ("XDG_DATA_HOME".into(), home.join(".local/share").into()),
        ("XDG_STATE_HOME".into(), home.join(".local/state").into()),
        ("TMPDIR".into(), std::env::temp_dir().into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("TERM".into(), "dumb".into()),
        ("NO_COLOR".into(), "1".into()),
    ]
}

/// The MCP server command line the client is configured with: the binary,
/// or the tee in front of it under `HASHEDIT_AGENTS_TRACE_MCP=1`.
fn server_command(node: &Path, scratch: &Scratch) -> Vec<String> {
    let mut command = Vec::new();
    if flag("HASHEDIT_AGENTS_TRACE_MCP") {
        command.push(node.display().to_string());
        command.push(agents_dir().join("mcp_tee.mjs").display().to_string());
        command.push(scratch.file("mcp.jsonl").display().to_string());
    }
    // The README's line has no --root: the workspace is the client's root
    // (MCP roots), or the directory the client starts the server in.
    command.push(binary().display().to_string());
    command.push("mcp".into());
    command
}

struct Run {
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
    wall: Duration,
}

/// Runs `command` in its own process group with no stdin, at most
/// `CLIENT_TIMEOUT`; then kills whatever of the group is left (servers a
/// client failed to stop).
fn run(mut command: Command, scratch: &Scratch, label: &str) -> Run {
    let out = scratch.file(&format!("{label}.stdout"));
    let err = scratch.file(&format!("{label}.stderr"));
    command
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .process_group(0);
    let start = Instant::now();
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {label}: {e}"));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > CLIENT_TIMEOUT {
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let wall = start.elapsed();
    let _ = rustix::process::kill_process_group(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::KILL,
    );
    let _ = child.wait();
    Run {
        status,
        stdout: std::fs::read_to_string(out).unwrap_or_default(),
        stderr: std::fs::read_to_string(err).unwrap_or_default(),
        wall,
    }
}

/// What the model should see after each call: the tools' text the CLI
/// gives for the same calls on the twin workspace (under `--json`, which
/// carries the text unchanged; the human output names CLI flags and puts
/// errors on stderr).
struct Expected {
    read: String,
    edit: String,
    stale: String,
    grep: String,
}

fn expected(scratch: &Scratch) -> Expected {
    let cli = |args: &[&str], stdin: &str| -> String {
        let mut child = Command::new(binary())
            .arg("--root")
            .arg(scratch.file("twin"))
            .arg("--json")
            .args(args)
            .env("HASHEDIT_REGISTRY", "off")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let reply: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let text = if reply["ok"] == true {
            &reply["text"]
        } else {
            &reply["error"]["message"]
        };
        text.as_str().unwrap().trim_end_matches('\n').to_string()
    };
    let read = cli(&["read", "notes.txt"], "");
    let tag = read
        .strip_prefix("[notes.txt#")
        .and_then(|r| r.split(']').next())
        .unwrap_or_else(|| panic!("hashedit read printed {read:?}"));
    // The document the fake model sends, twice.
    let document = format!("[notes.txt#{tag}]\nPUT 2:\n+TWO\n");
    let edit = cli(&["edit"], &document);
    let stale = cli(&["edit"], &document);
    let grep = cli(&["grep", "TWO"], "");
    assert!(stale.contains("stale"), "the second edit: {stale:?}");
    Expected {
        read,
        edit,
        stale,
        grep,
    }
}

struct Agent {
    name: &'static str,
}

/// Runs the conversation and checks what the client delivered; one panic
/// listing every failed check, with what was delivered.
fn check(agent: &Agent, scratch: &Scratch, model: &FakeModel, run: &Run, expected: &Expected) {
    let requests = model.requests();
    let main: Vec<&Value> = requests.iter().filter(|r| r["kind"] == "main").collect();
    let last = main
        .iter()
        .max_by_key(|r| r["toolResults"].as_array().map_or(0, Vec::len));
    let results: Vec<Value> = last
        .and_then(|r| r["toolResults"].as_array().cloned())
        .unwrap_or_default();
    let text_of = |i: usize| {
        results
            .get(i)
            .and_then(|r| r["text"].as_str())
            .unwrap_or("")
    };

    let mut failures = Vec::new();
    match run.status {
        None => failures.push(format!(
            "{} did not finish within {CLIENT_TIMEOUT:?}",
            agent.name
        )),
        Some(s) if !s.success() => failures.push(format!("{} exited with {s}", agent.name)),
        Some(_) => {}
    }
    if results.len() < 4 {
        failures.push(format!(
            "the model was given {} tool results, not 4",
            results.len()
        ));
    }
    let steps = [
        ("read_file", &expected.read),
        ("edit", &expected.edit),
        ("the stale edit", &expected.stale),
        ("grep", &expected.grep),
    ];
    for (i, (step, want)) in steps.iter().enumerate() {
        let got = text_of(i);
        let delivered = got.contains(want.as_str());
        if !delivered {
            let shape = match serde_json::from_str::<Value>(got.trim()) {
                Ok(Value::Object(_)) => " (a JSON object: structured data instead of the text)",
                _ if got.contains("{\"") => " (JSON in place of the text)",
                _ => "",
            };
            failures.push(format!(
                "after {step}, the model was not shown the text\n      {want:?}\n    \
                 it got{shape}\n      {got:?}"
            ));
        }
    }
    let on_disk = std::fs::read(scratch.ws().join("notes.txt")).unwrap();
    if on_disk != b"one\nTWO\n" {
        failures.push(format!(
            "notes.txt holds {:?}, not \"one\\nTWO\\n\"",
            String::from_utf8_lossy(&on_disk)
        ));
    }

    let digest: Vec<Value> = requests
        .iter()
        .map(|r| {
            json!({"seq": r["seq"], "method": r["method"], "url": r["url"], "api": r["api"],
                   "kind": r["kind"], "turn": r["turn"], "reply": r["reply"]})
        })
        .collect();
    let report = format!(
        "{} in {:.1}s; requests to the fake model:\n{}\nlast main request's tool results:\n{}\n{}",
        agent.name,
        run.wall.as_secs_f64(),
        digest
            .iter()
            .map(|d| format!("  {d}"))
            .collect::<Vec<_>>()
            .join("\n"),
        serde_json::to_string_pretty(&results).unwrap(),
        mcp_traffic(scratch),
    );
    if failures.is_empty() {
        eprintln!("{report}");
        return;
    }
    let tail = |s: &str| {
        let start = s.len().saturating_sub(3000);
        let start = (start..=s.len())
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        s[start..].to_string()
    };
    panic!(
        "{}: {} check(s) failed:\n  - {}\n\n{report}\n--- stdout (tail) ---\n{}\n--- stderr (tail) ---\n{}",
        agent.name,
        failures.len(),
        failures.join("\n  - "),
        tail(&run.stdout),
        tail(&run.stderr),
    );
}

/// The MCP messages the tee saw, one line each (empty without the tee).
fn mcp_traffic(scratch: &Scratch) -> String {
    let Ok(log) = std::fs::read_to_string(scratch.file("mcp.jsonl")) else {
        return String::new();
    };
    let mut out = String::from("MCP traffic (HASHEDIT_AGENTS_TRACE_MCP=1):\n");
    for line in log.lines() {
        let mut line = line.to_string();
        if line.len() > 600 {
            let cut = (0..=600).rev().find(|&i| line.is_char_boundary(i)).unwrap();
            line.truncate(cut);
            line.push('…');
        }
        out.push_str("  ");
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn command(program: &Path, scratch: &Scratch, env: &[(String, OsString)]) -> Command {
    let mut command = Command::new(program);
    command.env_clear().current_dir(scratch.ws());
    for (k, v) in base_env(scratch).into_iter().chain(env.iter().cloned()) {
        command.env(k, v);
    }
    command
}

fn setup(
    peer: &str,
    env_var: &str,
    bin: &str,
    client: &str,
) -> Option<(PathBuf, PathBuf, Scratch)> {
    let cli = agent_cli(peer, env_var, bin)?;
    let node = node()?;
    Some((cli, node, Scratch::new(client)))
}

/// TOML basic string (JSON's string escapes are TOML's).
fn toml_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

#[test]
fn claude_code_shows_the_model_hashedit_text() {
    let Some((claude, node, scratch)) = setup("Claude Code", "HASHEDIT_CLAUDE", "claude", "claude")
    else {
        return;
    };
    let expected = expected(&scratch);
    let model = FakeModel::start(&node, &scratch);
    let env: Vec<(String, OsString)> = [
        ("ANTHROPIC_BASE_URL", model.url.as_str()),
        ("ANTHROPIC_API_KEY", FAKE_KEY),
        // Otherwise MCP tools are deferred: the model gets only their names
        // and a ToolSearch tool to fetch their schemas.
        ("ENABLE_TOOL_SEARCH", "false"),
        // No calls to api.anthropic.com and others beside the model's.
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
        ("DISABLE_AUTOUPDATER", "1"),
        ("DISABLE_TELEMETRY", "1"),
        ("DISABLE_ERROR_REPORTING", "1"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into()))
    .collect();

    // The README's one line: `claude mcp add hashedit -- hashedit mcp --root …`
    // (local scope: ~/.claude.json, under this project's path).
    let mut add = command(&claude, &scratch, &env);
    add.args(["mcp", "add", "hashedit", "--"])
        .args(server_command(&node, &scratch));
    let added = run(add, &scratch, "claude-mcp-add");
    assert!(
        added.status.is_some_and(|s| s.success()),
        "claude mcp add failed: {}{}",
        added.stdout,
        added.stderr
    );

    let mut session = command(&claude, &scratch, &env);
    // -p runs headless; MCP tools need an explicit allow (else each call is
    // answered "Claude requested permissions to use …").
    session.args(["-p", PROMPT, "--allowedTools", "mcp__hashedit"]);
    let session = run(session, &scratch, "claude");
    check(
        &Agent {
            name: "Claude Code",
        },
        &scratch,
        &model,
        &session,
        &expected,
    );
}

#[test]
fn codex_shows_the_model_hashedit_text() {
    let Some((codex, node, scratch)) = setup("Codex CLI", "HASHEDIT_CODEX", "codex", "codex")
    else {
        return;
    };
    let expected = expected(&scratch);
    let model = FakeModel::start(&node, &scratch);
    let codex_home = scratch.home().join(".codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    let server = server_command(&node, &scratch);
    let args: Vec<String> = server[1..].iter().map(|a| toml_str(a)).collect();
    let config = format!(
        r#"model = "fake-model"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake model"
base_url = {base_url}
wire_api = "responses"
env_key = "FAKE_MODEL_API_KEY"

[analytics]
enabled = false

# Without this, Codex syncs its plugin marketplace from github.com.
[features]
plugins = false

# The README's entry, plus an approval default: under `codex exec`
# (approval policy never) a call of a tool not annotated read-only is
# refused with "MCP tool call requires approval, but approval policy is
# never".
[mcp_servers.hashedit]
command = {command}
args = [{args}]
default_tools_approval_mode = "approve"
"#,
        base_url = toml_str(&format!("{}/v1", model.url)),
        command = toml_str(&server[0]),
        args = args.join(", "),
    );
    std::fs::write(codex_home.join("config.toml"), config).unwrap();

    let env: Vec<(String, OsString)> = vec![
        ("CODEX_HOME".into(), codex_home.into()),
        ("FAKE_MODEL_API_KEY".into(), FAKE_KEY.into()),
    ];
    let mut session = command(&codex, &scratch, &env);
    session.args(["exec", "--skip-git-repo-check", PROMPT]);
    let session = run(session, &scratch, "codex");
    check(
        &Agent { name: "Codex CLI" },
        &scratch,
        &model,
        &session,
        &expected,
    );
}

#[test]
fn gemini_cli_shows_the_model_hashedit_text() {
    let Some((gemini, node, scratch)) = setup("Gemini CLI", "HASHEDIT_GEMINI", "gemini", "gemini")
    else {
        return;
    };
    let expected = expected(&scratch);
    let model = FakeModel::start(&node, &scratch);
    let server = server_command(&node, &scratch);
    let settings = json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        // Otherwise usage statistics go to play.googleapis.com.
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
        "mcpServers": {
            "hashedit": {
                "command": server[0],
                "args": server[1..],
                // Headless, a tool that needs confirmation is not offered to
                // the model at all; trust lets this server's tools run
                // (--yolo would, for every tool).
                "trust": true
            }
        }
    });
    let dot_gemini = scratch.home().join(".gemini");
    std::fs::create_dir_all(&dot_gemini).unwrap();
    std::fs::write(
        dot_gemini.join("settings.json"),
        serde_json::to_string_pretty(&settings).unwrap(),
    )
    .unwrap();

    let env: Vec<(String, OsString)> = vec![
        ("GEMINI_API_KEY".into(), FAKE_KEY.into()),
        ("GOOGLE_GEMINI_BASE_URL".into(), model.url.clone().into()),
    ];
    let mut session = command(&gemini, &scratch, &env);
    // --skip-trust: folder trust is on by default and an untrusted folder
    // is fatal headless (exit 55). -m: a fixed model, so no routing
    // classifier request before each turn.
    session.args(["--skip-trust", "-m", "gemini-2.5-flash", "-p", PROMPT]);
    let session = run(session, &scratch, "gemini");
    check(
        &Agent { name: "Gemini CLI" },
        &scratch,
        &model,
        &session,
        &expected,
    );
}

#[test]
fn opencode_shows_the_model_hashedit_text() {
    let Some((opencode, node, scratch)) =
        setup("opencode", "HASHEDIT_OPENCODE", "opencode", "opencode")
    else {
        return;
    };
    let expected = expected(&scratch);
    let model = FakeModel::start(&node, &scratch);
    let config = json!({
        "$schema": "https://opencode.ai/config.json",
        "model": "fake/fake-model",
        "autoupdate": false,
        "share": "disabled",
        // @ai-sdk/openai-compatible is built into opencode: Chat Completions.
        "provider": {
            "fake": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "fake model",
                "options": {"baseURL": format!("{}/v1", model.url), "apiKey": FAKE_KEY},
                "models": {"fake-model": {"name": "fake model", "tool_call": true}}
            }
        },
        // The README's entry.
        "mcp": {
            "hashedit": {
                "type": "local",
                "command": server_command(&node, &scratch),
                "enabled": true
            }
        }
    });
    let config_dir = scratch.home().join(".config/opencode");
    std::fs::create_dir_all(&config_dir).unwrap();
    std::fs::write(
        config_dir.join("opencode.json"),
        serde_json::to_string_pretty(&config).unwrap(),
    )
    .unwrap();

    let env: Vec<(String, OsString)> = [
        // Otherwise it fetches the model catalogue from models.dev.
        ("OPENCODE_DISABLE_MODELS_FETCH", "1"),
        ("OPENCODE_DISABLE_AUTOUPDATE", "1"),
        ("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1"),
        ("OPENCODE_DISABLE_LSP_DOWNLOAD", "1"),
        // opencode installs @opencode-ai/plugin into its config directory
        // in the background, from the npm registry: offline, that fails at
        // once and the run goes on.
        ("npm_config_offline", "true"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into()))
    .collect();
    let mut session = command(&opencode, &scratch, &env);
    session.args(["run", PROMPT]);
    let session = run(session, &scratch, "opencode");
    check(
        &Agent { name: "opencode" },
        &scratch,
        &model,
        &session,
        &expected,
    );
}
