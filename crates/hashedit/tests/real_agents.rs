//! `hashedit setup CLIENT`, then a headless session of that client, for the
//! four agent CLIs: Claude Code (`claude -p`), Codex CLI (`codex exec`),
//! Gemini CLI (`gemini -p`) and opencode (`opencode run`), each talking to
//! a scripted fake model on 127.0.0.1 (`tests/agents/fake_model.mjs`).
//!
//! Each client starts in a scratch HOME and project holding only what
//! points it at the fake model (and the trust a user gives a project the
//! first time), and a project setting that keeps hashedit's server from
//! starting, which setup must take back. Then, for each client:
//! - `hashedit setup CLIENT` prints the report written down below, and a
//!   second run changes no byte;
//! - the session offers the model exactly the tools written down below:
//!   hashedit's six with the descriptions and input schemas of
//!   `tests/agents/tools.json` (changed only as the client is known to
//!   change them), none of the client's built-in file read, edit or write
//!   tools (Codex: apply_patch and tool_search stay unless setup replaces
//!   Codex's model catalog, and the test checks both);
//! - the fake model reads notes.txt, edits line 2 with the tag it read,
//!   sends the same edit again (now stale), greps, and says "done"; what the
//!   client delivered after each call is the literal text below, inside the
//!   client's own wrapper, with `isError` where the client forwards it
//!   (Claude Code; Codex and opencode put no error flag on the wire, and
//!   hashedit sends Gemini CLI its failures unflagged, see docs/MCP.md);
//! - `hashedit setup CLIENT --undo` gives every file setup wrote its bytes
//!   from before setup (or removes it) and touches nothing else.
//!
//! The CLIs are installed by `scripts/install-peers` into
//! `target/peers/node_modules/.bin`, or found through `HASHEDIT_CLAUDE`,
//! `HASHEDIT_CODEX`, `HASHEDIT_GEMINI` and `HASHEDIT_OPENCODE`; `node`
//! (for the fake model) through `HASHEDIT_NODE` or `PATH`. A missing one
//! fails the test under `HASHEDIT_REQUIRE_PEERS=1` (as in CI) and otherwise
//! skips it with a loud notice. Each client runs with a cleared environment
//! (a scratch HOME and XDG directories, PATH, and the variables below), at
//! most `CLIENT_TIMEOUT`. `HASHEDIT_AGENTS_KEEP=1` keeps the scratch
//! directories; `HASHEDIT_AGENTS_TRACE_MCP=1` sets the clients up to start
//! the server through `tests/agents/mcp_tee.mjs` and prints the MCP
//! traffic when a check fails.

mod common;

use std::collections::BTreeMap;
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
/// How long one client run may take; a run takes a few seconds.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(90);
/// The key the clients send; the fake model ignores it.
const FAKE_KEY: &str = "fake-key-for-a-local-fake-model";

/// What hashedit answers the fake model's four calls on notes.txt
/// ("one\ntwo\n"), written down (FORMAT.md §4.2, §5, §6.1, §4.3).
const READ: &str = "[notes.txt#89F7]\n1:one\n2:two";
const EDIT: &str = "PUT 2: (1 \u{2192} 1 line)\n[notes.txt#8F97]\n1:one\n2:TWO";
const STALE: &str = "notes.txt: snapshot tag 89F7 is stale: the file's tag is now 8F97 (it changed since that \
snapshot, or the tag was mistyped); nothing was written. Retry with the header and line numbers of the live \
snapshot below\n\nLive snapshot (copy this header and these line numbers to retry):\n[notes.txt#8F97]\n1:one\n2:TWO";
const GREP: &str = "[notes.txt#8F97]\n2 | TWO\n\n1 match in 1 file";

/// hashedit's six tools as the model should see them: name, description,
/// input schema (FORMAT.md §8.1).
const TOOLS: &str = include_str!("agents/tools.json");

fn agents_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents")
}

/// `node`, for the fake model.
fn node() -> Option<PathBuf> {
    let node =
        std::env::var_os("HASHEDIT_NODE").map_or_else(|| PathBuf::from("node"), PathBuf::from);
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

/// A scratch directory: `home/` for the client, `ws/` the project.
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
        // Canonical, as setup prints it (macOS's /tmp is a symlink).
        let root = dir.path().canonicalize().unwrap();
        for sub in ["home", "ws"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        std::fs::write(root.join("ws/notes.txt"), "one\ntwo\n").unwrap();
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
        if std::env::var("HASHEDIT_AGENTS_KEEP").is_ok_and(|v| v == "1")
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
        // The first line it prints is the readiness signal.
        let line = rx.recv().unwrap_or_default();
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

struct Run {
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
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
    let _ = rustix::process::kill_process_group(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::KILL,
    );
    let _ = child.wait();
    Run {
        status,
        stdout: std::fs::read_to_string(out).unwrap_or_default(),
        stderr: std::fs::read_to_string(err).unwrap_or_default(),
    }
}

/// One client under test: how to point it at the fake model, set it up,
/// run it, and what it is expected to offer and deliver.
struct Agent {
    name: &'static str,
    /// `hashedit setup`'s name for it.
    setup: &'static str,
    /// Extra `hashedit setup` flags.
    setup_flags: &'static [&'static str],
    /// Files in the project before setup (path, text): a setting that
    /// keeps hashedit's server from starting, which setup must take back.
    existing: &'static [(&'static str, &'static str)],
    /// Environment beside the base one.
    env: Vec<(String, OsString)>,
    /// What `hashedit setup` prints, `$WS` for the project directory and
    /// `$HASHEDIT` for the server command.
    report: String,
    /// Every tool the client offers the model after setup, sorted.
    tools: &'static [&'static str],
    /// The client's name for hashedit's tool `base`.
    name_of: fn(&str) -> String,
    /// A schema of tools.json as the client passes it on to the model.
    schema_offered: fn(&Value) -> Value,
    /// The text a tool returned, out of the client's wrapper; `None` when
    /// the wrapper is not the client's.
    unwrap: fn(&str) -> Option<String>,
    /// The `isError` the client forwards after each call, when it does.
    is_error: Option<[bool; 4]>,
    /// What the session does.
    session: Expect,
}

/// What a session does after setup.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The model is offered hashedit's tools and the scripted calls land.
    Delivered,
    /// hashedit's tools are held back (Codex's tool_search): no request
    /// offers them, so the fake model answers in text and nothing changes.
    Deferred,
}

/// The client's CLI, a scratch directory named after it, and the fake
/// model; `None` when a peer is missing (see `missing`).
fn start(peer: &str, env_var: &str, bin: &str) -> Option<(PathBuf, Scratch, FakeModel)> {
    let cli = agent_cli(peer, env_var, bin)?;
    let node = node()?;
    let scratch = Scratch::new(bin);
    let model = FakeModel::start(&node, &scratch);
    trace_mcp(&scratch, &node);
    Some((cli, scratch, model))
}

/// The environment every client runs in (after `env_clear`).
fn base_env(scratch: &Scratch) -> Vec<(String, OsString)> {
    let home = scratch.home();
    let path = std::env::join_paths(
        std::iter::once(peers_dir().join("node_modules/.bin")).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    vec![
        ("PATH".into(), path),
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

fn command(program: &Path, scratch: &Scratch, env: &[(String, OsString)]) -> Command {
    let mut command = Command::new(program);
    command.env_clear().current_dir(scratch.ws());
    for (k, v) in base_env(scratch).into_iter().chain(env.iter().cloned()) {
        command.env(k, v);
    }
    command
}

/// Every file and directory under the scratch directory's `home/` and
/// `ws/`: path → bytes (`None` for a directory).
fn snapshot(scratch: &Scratch) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                out.insert(path.clone(), None);
                walk(&path, out);
            } else if kind.is_file() {
                out.insert(path.clone(), Some(std::fs::read(&path).unwrap_or_default()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&scratch.home(), &mut out);
    walk(&scratch.ws(), &mut out);
    out
}

/// The paths whose entry differs between two snapshots.
fn changed<'a>(
    a: &'a BTreeMap<PathBuf, Option<Vec<u8>>>,
    b: &'a BTreeMap<PathBuf, Option<Vec<u8>>>,
) -> Vec<&'a PathBuf> {
    a.keys()
        .chain(b.keys())
        .filter(|p| a.get(*p) != b.get(*p))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Runs `hashedit setup` with `args` in the project; returns its stdout,
/// with the scratch paths and the server command put back as `$WS`,
/// `$HOME` and `$HASHEDIT`.
fn hashedit_setup(scratch: &Scratch, agent: &Agent, args: &[&str]) -> String {
    let mut setup = command(Path::new(BINARY), scratch, &agent.env);
    setup
        .args(["setup", agent.setup])
        .args(agent.setup_flags)
        .args(args);
    let tee = scratch.file("hashedit-through-tee");
    if tee.exists() && !args.contains(&"--undo") {
        setup.arg("--command").arg(&tee);
    }
    let label = format!("setup{}", args.join(""));
    let done = run(setup, scratch, &label);
    assert!(
        done.status.is_some_and(|s| s.success()),
        "hashedit setup {} {args:?} failed: {}{}",
        agent.setup,
        done.stdout,
        done.stderr
    );
    done.stdout
        .replace(&scratch.ws().display().to_string(), "$WS")
        .replace(&scratch.home().display().to_string(), "$HOME")
        .replace(BINARY, "$HASHEDIT")
        .replace(&tee.display().to_string(), "$HASHEDIT")
}

/// Under `HASHEDIT_AGENTS_TRACE_MCP=1`: a script that starts the server
/// through the MCP tee (logging to `mcp.jsonl`), for setup's `--command`.
fn trace_mcp(scratch: &Scratch, node: &Path) {
    if !std::env::var("HASHEDIT_AGENTS_TRACE_MCP").is_ok_and(|v| v == "1") {
        return;
    }
    let script = scratch.file("hashedit-through-tee");
    let text = format!(
        "#!/bin/sh\nexec '{}' '{}' '{}' '{BINARY}' \"$@\"\n",
        node.display(),
        agents_dir().join("mcp_tee.mjs").display(),
        scratch.file("mcp.jsonl").display()
    );
    std::fs::write(&script, text).unwrap();
    let mut permissions = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).unwrap();
}

/// The MCP messages the tee saw, one line each (empty without the tee).
fn mcp_traffic(scratch: &Scratch) -> String {
    let Ok(log) = std::fs::read_to_string(scratch.file("mcp.jsonl")) else {
        return String::new();
    };
    let lines: Vec<String> = log.lines().map(|l| l.chars().take(600).collect()).collect();
    format!("\n--- MCP traffic ---\n{}", lines.join("\n"))
}

/// The whole test of one client: setup, setup again, the session, undo.
fn check(agent: &Agent, scratch: &Scratch, model: &FakeModel, client: &Path, args: &[&str]) {
    let mut failures = Vec::new();
    for (path, text) in agent.existing {
        let path = scratch.ws().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let before = snapshot(scratch);
    let report = hashedit_setup(scratch, agent, &[]);
    if report != agent.report {
        failures.push(format!(
            "hashedit setup printed\n{report}\nnot\n{}",
            agent.report
        ));
    }
    let after_setup = snapshot(scratch);
    let written: Vec<PathBuf> = changed(&before, &after_setup)
        .into_iter()
        .cloned()
        .collect();
    hashedit_setup(scratch, agent, &[]);
    let after_again = snapshot(scratch);
    let again = changed(&after_setup, &after_again);
    if !again.is_empty() {
        failures.push(format!("a second hashedit setup changed {again:?}"));
    }

    let mut session = command(client, scratch, &agent.env);
    session.args(args);
    let session = run(session, scratch, "session");
    match session.status {
        None => failures.push(format!(
            "{} did not finish within {CLIENT_TIMEOUT:?}",
            agent.name
        )),
        Some(s) if !s.success() => failures.push(format!("{} exited with {s}", agent.name)),
        Some(_) => {}
    }
    let want: &[u8] = match agent.session {
        Expect::Delivered => {
            check_requests(agent, &model.requests(), &mut failures);
            b"one\nTWO\n"
        }
        Expect::Deferred => {
            let asked: Vec<Value> = model
                .requests()
                .into_iter()
                .filter(|r| r["api"] != "other")
                .collect();
            if asked.is_empty() {
                failures.push("the client sent the model no request".into());
            }
            for request in &asked {
                check_offered(agent, request, &mut failures);
            }
            b"one\ntwo\n"
        }
    };
    let on_disk = std::fs::read(scratch.ws().join("notes.txt")).unwrap();
    if on_disk != want {
        failures.push(format!(
            "notes.txt holds {:?}, not {:?}",
            String::from_utf8_lossy(&on_disk),
            String::from_utf8_lossy(want)
        ));
    }

    let after_session = snapshot(scratch);
    hashedit_setup(scratch, agent, &["--undo"]);
    let after_undo = snapshot(scratch);
    for path in &written {
        // A directory setup created stays when the client put files in it.
        let used = after_undo.get(path) == Some(&None)
            && after_session
                .keys()
                .any(|p| p.starts_with(path) && !written.contains(p));
        if after_undo.get(path) != before.get(path) && !used {
            failures.push(format!(
                "after --undo, {} is not as before setup",
                path.display()
            ));
        }
    }
    for path in changed(&after_session, &after_undo) {
        if !written.contains(path) {
            failures.push(format!(
                "--undo changed {}, which setup had not written",
                path.display()
            ));
        }
    }
    if failures.is_empty() {
        return;
    }
    let tail = |s: &str| {
        s.chars()
            .rev()
            .take(3000)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<String>()
    };
    panic!(
        "{}: {} check(s) failed:\n  - {}\n--- session stdout (tail) ---\n{}\n--- session stderr (tail) ---\n{}{}",
        agent.name,
        failures.len(),
        failures.join("\n  - "),
        tail(&session.stdout),
        tail(&session.stderr),
        mcp_traffic(scratch),
    );
}

/// Whether `request` offered exactly the agent's tools.
fn check_offered(agent: &Agent, request: &Value, failures: &mut Vec<String>) {
    let mut names: Vec<&str> = request["toolNames"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    names.sort_unstable();
    if names != agent.tools {
        failures.push(format!(
            "request {} offered the tools\n    {names:?}\n  not\n    {:?}",
            request["seq"], agent.tools
        ));
    }
}

/// The checks on what the client sent the fake model: the tools offered
/// in every main request, and the tool results in the last one.
fn check_requests(agent: &Agent, requests: &[Value], failures: &mut Vec<String>) {
    let main: Vec<&Value> = requests.iter().filter(|r| r["kind"] == "main").collect();
    let Some(last) = main.last() else {
        let offered: Vec<&Value> = requests.iter().map(|r| &r["toolNames"]).collect();
        failures.push(format!(
            "no request offered hashedit's tools; tools offered: {offered:?}"
        ));
        return;
    };
    for request in &main {
        check_offered(agent, request, failures);
    }
    let tools: Value = serde_json::from_str(TOOLS).unwrap();
    for (base, want) in tools.as_object().unwrap() {
        let name = (agent.name_of)(base);
        let Some(offered) = last["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
        else {
            continue;
        };
        if offered["description"] != want["description"] {
            failures.push(format!(
                "{name}: the description offered is not the one in tools.json"
            ));
        }
        let schema = (agent.schema_offered)(&want["inputSchema"]);
        if offered["schema"] != schema {
            failures.push(format!(
                "{name}: the schema offered is\n    {}\n  not\n    {schema}",
                offered["schema"]
            ));
        }
    }
    let results = last["toolResults"].as_array().unwrap();
    let expected = [READ, EDIT, STALE, GREP];
    if results.len() != expected.len() {
        failures.push(format!(
            "the model was given {} tool results, not 4: {results:?}",
            results.len()
        ));
    }
    for (i, (result, want)) in results.iter().zip(expected).enumerate() {
        let text = result["text"].as_str().unwrap_or_default();
        let got = (agent.unwrap)(text);
        if got.as_deref() != Some(want) {
            failures.push(format!(
                "result {}: the model was shown\n    {text:?}\n  not\n    {want:?}",
                i + 1
            ));
        }
    }
    if let Some(flags) = agent.is_error {
        let got: Vec<bool> = results.iter().map(|r| r["isError"] == true).collect();
        if got != flags {
            failures.push(format!(
                "isError after each call was {got:?}, not {flags:?}"
            ));
        }
    }
}

/// The schema as offered (for the clients that pass it through).
fn same(schema: &Value) -> Value {
    schema.clone()
}

/// The text as delivered (for the clients that do not wrap it).
fn bare(text: &str) -> Option<String> {
    Some(text.to_string())
}

fn env(pairs: &[(&str, &str)]) -> Vec<(String, OsString)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), OsString::from(v)))
        .collect()
}

/// What `hashedit setup` prints: the files (updated when `existing`
/// names them, else created), what it could not do, undo.
fn report(client: &str, files: &[&str], not_done: &[&str], existing: &[(&str, &str)]) -> String {
    let mut out = format!("hashedit setup for {client} in $WS:\n");
    for file in files {
        let updated = existing
            .iter()
            .any(|(path, _)| file.starts_with(&format!("{path}:")));
        let action = if updated { "updated" } else { "created" };
        out.push_str(&format!("  {action} {file}\n"));
    }
    out.push_str("Not done:\n");
    for line in not_done {
        out.push_str(&format!("  - {line}\n"));
    }
    out.push_str(&format!("Undo: hashedit setup {client} --undo\n"));
    out
}

const SHELL_STAYS: &str =
    "The shell tool stays, so the model can still change files with shell commands.";
const REGISTERS: &str = "registers the hashedit MCP server";
const BLOCK: &str = "tells the model to read and edit files with hashedit's tools, and why";

/// The settings that, left as they are, keep hashedit's server from
/// starting (tried with each client): setup takes each back.
const CLAUDE_OFF: &[(&str, &str)] = &[(
    ".claude/settings.json",
    "{\"disabledMcpjsonServers\": [\"hashedit\"]}\n",
)];
const CODEX_OFF: &[(&str, &str)] = &[(
    ".codex/config.toml",
    "[mcp_servers.hashedit]\ncommand = \"hashedit\"\nenabled = false\n",
)];
const GEMINI_OFF: &[(&str, &str)] = &[(
    ".gemini/settings.json",
    "{\"mcp\": {\"allowed\": [\"docs\"], \"excluded\": [\"hashedit\"]}}\n",
)];
const OPENCODE_OFF: &[(&str, &str)] = &[(
    "opencode.json",
    "{\"mcp\": {\"hashedit\": {\"type\": \"local\", \"command\": [\"hashedit\", \"mcp\"], \"enabled\": false}}}\n",
)];

#[test]
fn claude_code_after_setup_offers_only_hashedit_file_tools() {
    let Some((claude, scratch, model)) = start("Claude Code", "HASHEDIT_CLAUDE", "claude") else {
        return;
    };
    // The trust a user gives the project in Claude Code's first-run dialog
    // (without it, permissions.allow in .claude/settings.json is ignored).
    let trusted =
        json!({"projects": {scratch.ws().display().to_string(): {"hasTrustDialogAccepted": true}}});
    std::fs::write(scratch.home().join(".claude.json"), trusted.to_string()).unwrap();
    let agent = Agent {
        name: "Claude Code",
        setup: "claude-code",
        setup_flags: &[],
        existing: CLAUDE_OFF,
        env: env(&[
            ("ANTHROPIC_BASE_URL", &model.url),
            ("ANTHROPIC_API_KEY", FAKE_KEY),
            // No calls to api.anthropic.com and others beside the model's.
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
            ("DISABLE_AUTOUPDATER", "1"),
            ("DISABLE_TELEMETRY", "1"),
            ("DISABLE_ERROR_REPORTING", "1"),
        ]),
        report: report(
            "claude-code",
            &[
                &format!(
                    ".mcp.json: {REGISTERS}, its tools offered up front (alwaysLoad) instead of behind ToolSearch"
                ),
                ".claude/settings.json: hides Read, Edit, Write and NotebookEdit; lets read_file, grep, glob and list_dir run without asking",
                &format!("CLAUDE.md: {BLOCK}"),
            ],
            &[
                "edit and write ask before each call, as Claude Code's own Edit does: allow them in /permissions \
                 (or --allowedTools mcp__hashedit__edit,mcp__hashedit__write when headless).",
                SHELL_STAYS,
            ],
            CLAUDE_OFF,
        ),
        tools: &[
            "Agent",
            "Bash",
            "DeferredToolPlaceholder",
            "ListAgents",
            "ReportFindings",
            "ScheduleWakeup",
            "Skill",
            "ToolSearch",
            "Workflow",
            "mcp__hashedit__edit",
            "mcp__hashedit__glob",
            "mcp__hashedit__grep",
            "mcp__hashedit__list_dir",
            "mcp__hashedit__read_file",
            "mcp__hashedit__write",
        ],
        name_of: |base| format!("mcp__hashedit__{base}"),
        schema_offered: same,
        unwrap: bare,
        is_error: Some([false, false, true, false]),
        session: Expect::Delivered,
    };
    // Headless, as the setup report says: edit and write allowed for the run.
    let args = [
        "-p",
        PROMPT,
        "--allowedTools",
        "mcp__hashedit__edit,mcp__hashedit__write",
    ];
    check(&agent, &scratch, &model, &claude, &args);
}

/// Codex's config pointing at the fake model, with the project trusted.
fn codex_home(scratch: &Scratch, model: &FakeModel) -> PathBuf {
    let codex_home = scratch.home().join(".codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    let config = format!(
        r#"# A model of Codex's own catalog, which offers apply_patch and tool_search.
model = "gpt-5.5"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake model"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "FAKE_MODEL_API_KEY"

[analytics]
enabled = false

# Without this, Codex syncs its plugin marketplace from github.com.
[features]
plugins = false

# The trust a user gives the project when Codex first asks.
[projects."{ws}"]
trust_level = "trusted"
"#,
        url = model.url,
        ws = scratch.ws().display(),
    );
    std::fs::write(codex_home.join("config.toml"), config).unwrap();
    codex_home
}

fn codex_agent(scratch: &Scratch, model: &FakeModel, session: Expect) -> Agent {
    // The replaced catalog is what lets the session be delivered.
    let catalog = session == Expect::Delivered;
    let codex_home = codex_home(scratch, model);
    let mut files = vec![format!(
        ".codex/config.toml: {REGISTERS}; its calls run without asking, as apply_patch's do in the workspace"
    )];
    let first = if catalog {
        files.push(
            ".codex/hashedit-model-catalog.json: Codex's model catalog with supports_search_tool false and \
             apply_patch_tool_type null"
                .into(),
        );
        "Codex now reads its model list from hashedit-model-catalog.json: models Codex adds later appear after \
         running this setup again (undo restores Codex's own catalog)."
    } else {
        "apply_patch stays: Codex offers it to every model of its own catalog, and those models reach hashedit's \
         tools through tool_search. --replace-codex-catalog changes both, by replacing Codex's model catalog."
    };
    files.push(format!("AGENTS.md: {BLOCK}"));
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    Agent {
        name: "Codex CLI",
        setup: "codex",
        setup_flags: if catalog {
            &["--replace-codex-catalog"]
        } else {
            &[]
        },
        existing: CODEX_OFF,
        env: vec![
            ("CODEX_HOME".into(), codex_home.into()),
            ("FAKE_MODEL_API_KEY".into(), FAKE_KEY.into()),
        ],
        report: report(
            "codex",
            &files,
            &[
                first,
                "Codex reads .codex/config.toml only in a trusted project: trust it when Codex asks, or use --scope user.",
                SHELL_STAYS,
            ],
            CODEX_OFF,
        ),
        tools: if catalog {
            &[
                "create_goal",
                "exec_command",
                "get_goal",
                "list_mcp_resource_templates",
                "list_mcp_resources",
                "mcp__hashedit__edit",
                "mcp__hashedit__glob",
                "mcp__hashedit__grep",
                "mcp__hashedit__list_dir",
                "mcp__hashedit__read_file",
                "mcp__hashedit__write",
                "multi_agent_v1__close_agent",
                "multi_agent_v1__resume_agent",
                "multi_agent_v1__send_input",
                "multi_agent_v1__spawn_agent",
                "multi_agent_v1__wait_agent",
                "read_mcp_resource",
                "request_user_input",
                "update_goal",
                "view_image",
                "web_search",
                "write_stdin",
            ]
        } else {
            &[
                "apply_patch",
                "create_goal",
                "exec_command",
                "get_goal",
                "list_mcp_resource_templates",
                "list_mcp_resources",
                "read_mcp_resource",
                "request_user_input",
                "tool_search",
                "update_goal",
                "view_image",
                "web_search",
                "write_stdin",
            ]
        },
        name_of: |base| format!("mcp__hashedit__{base}"),
        // Codex drops `minimum` from the schemas it passes on.
        schema_offered: |schema| {
            let mut schema = schema.clone();
            for property in schema["properties"].as_object_mut().unwrap().values_mut() {
                property.as_object_mut().unwrap().remove("minimum");
            }
            schema
        },
        // Codex puts each result under its wall time.
        unwrap: |text| {
            let rest = text.strip_prefix("Wall time: ")?;
            let (seconds, rest) = rest.split_once(" seconds\nOutput:\n")?;
            seconds.parse::<f64>().ok()?;
            Some(rest.to_string())
        },
        is_error: None,
        session: if catalog {
            Expect::Delivered
        } else {
            Expect::Deferred
        },
    }
}

/// Codex after setup: with Codex's own catalog hashedit's tools are
/// deferred; with the replaced one the session is delivered.
fn codex_session(session: Expect) {
    let Some((codex, scratch, model)) = start("Codex CLI", "HASHEDIT_CODEX", "codex") else {
        return;
    };
    let agent = codex_agent(&scratch, &model, session);
    let args = ["exec", "--skip-git-repo-check", PROMPT];
    check(&agent, &scratch, &model, &codex, &args);
}

#[test]
fn codex_after_setup_reports_apply_patch_and_tool_search() {
    codex_session(Expect::Deferred);
}

#[test]
fn codex_with_replaced_catalog_offers_only_hashedit_file_tools() {
    codex_session(Expect::Delivered);
}

#[test]
fn gemini_cli_after_setup_offers_only_hashedit_file_tools() {
    let Some((gemini, scratch, model)) = start("Gemini CLI", "HASHEDIT_GEMINI", "gemini") else {
        return;
    };
    let dot_gemini = scratch.home().join(".gemini");
    std::fs::create_dir_all(&dot_gemini).unwrap();
    let settings = json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        // Otherwise usage statistics go to play.googleapis.com.
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
    });
    std::fs::write(dot_gemini.join("settings.json"), settings.to_string()).unwrap();
    // The trust a user gives the folder when Gemini CLI first asks
    // (untrusted, .gemini/settings.json is ignored).
    let trusted = json!({scratch.ws().display().to_string(): "TRUST_FOLDER"});
    std::fs::write(dot_gemini.join("trustedFolders.json"), trusted.to_string()).unwrap();
    let agent = Agent {
        name: "Gemini CLI",
        setup: "gemini",
        setup_flags: &[],
        existing: GEMINI_OFF,
        env: env(&[
            ("GEMINI_API_KEY", FAKE_KEY),
            ("GOOGLE_GEMINI_BASE_URL", &model.url),
        ]),
        report: report(
            "gemini",
            &[
                &format!(
                    ".gemini/settings.json: {REGISTERS}; hides read_file, write_file, replace and read_many_files by \
                     class name (a bare name would hide mcp_hashedit_read_file too); lets read_file, grep, glob and \
                     list_dir run without asking"
                ),
                &format!("GEMINI.md: {BLOCK}"),
            ],
            &[
                "Gemini CLI 0.61 warns at start that tools.exclude and tools.allowed are deprecated; its policy \
                 engine cannot hide read_file without hiding mcp_hashedit_read_file too.",
                "edit and write ask before each call, as write_file and replace do (headless: --approval-mode yolo, \
                 or allow them in a policy file).",
                "Gemini CLI reads .gemini/settings.json only in a trusted folder: trust it when Gemini CLI asks, or \
                 use --scope user.",
                SHELL_STAYS,
            ],
            GEMINI_OFF,
        ),
        // Under yolo every built-in is offered, so the hidden ones show.
        tools: &[
            "activate_skill",
            "enter_plan_mode",
            "glob",
            "google_web_search",
            "grep_search",
            "invoke_agent",
            "list_background_processes",
            "list_directory",
            "mcp_hashedit_edit",
            "mcp_hashedit_glob",
            "mcp_hashedit_grep",
            "mcp_hashedit_list_dir",
            "mcp_hashedit_read_file",
            "mcp_hashedit_write",
            "read_background_output",
            "run_shell_command",
            "update_topic",
            "web_fetch",
            "write_todos",
        ],
        name_of: |base| format!("mcp_hashedit_{base}"),
        // Gemini CLI adds a flag of its own to every tool.
        schema_offered: |schema| {
            let mut schema = schema.clone();
            schema["properties"]["wait_for_previous"] = json!({
                "type": "boolean",
                "description": "Set to true to wait for all previously requested tools in this turn to complete \
                    before starting. Set to false (or omit) to run in parallel. Use true when this tool depends on \
                    the output of previous tools."
            });
            schema
        },
        // Gemini CLI marks tool output as untrusted context.
        unwrap: |text| {
            let inner = text
                .strip_prefix("<untrusted_context>\n")?
                .strip_suffix("\n</untrusted_context>")?;
            Some(inner.to_string())
        },
        is_error: None,
        session: Expect::Delivered,
    };
    // -m: a fixed model, so no routing classifier request before each turn.
    let args = [
        "-m",
        "gemini-2.5-flash",
        "--approval-mode",
        "yolo",
        "-p",
        PROMPT,
    ];
    check(&agent, &scratch, &model, &gemini, &args);
}

#[test]
fn opencode_after_setup_offers_only_hashedit_file_tools() {
    let Some((opencode, scratch, model)) = start("opencode", "HASHEDIT_OPENCODE", "opencode")
    else {
        return;
    };
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
        }
    });
    let config_dir = scratch.home().join(".config/opencode");
    std::fs::create_dir_all(&config_dir).unwrap();
    std::fs::write(config_dir.join("opencode.json"), config.to_string()).unwrap();
    let agent = Agent {
        name: "opencode",
        setup: "opencode",
        setup_flags: &[],
        existing: OPENCODE_OFF,
        env: env(&[
            // Otherwise it fetches the model catalogue from models.dev.
            ("OPENCODE_DISABLE_MODELS_FETCH", "1"),
            ("OPENCODE_DISABLE_AUTOUPDATE", "1"),
            ("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1"),
            ("OPENCODE_DISABLE_LSP_DOWNLOAD", "1"),
            // opencode installs @opencode-ai/plugin into its config directory
            // in the background, from the npm registry: offline, that fails at
            // once and the run goes on.
            ("npm_config_offline", "true"),
        ]),
        report: report(
            "opencode",
            &[
                &format!(
                    "opencode.json: {REGISTERS}; hides read, and edit, write and apply_patch (permission read and edit: deny)"
                ),
                &format!("AGENTS.md: {BLOCK}"),
            ],
            &[SHELL_STAYS],
            OPENCODE_OFF,
        ),
        tools: &[
            "bash",
            "glob",
            "grep",
            "hashedit_edit",
            "hashedit_glob",
            "hashedit_grep",
            "hashedit_list_dir",
            "hashedit_read_file",
            "hashedit_write",
            "skill",
            "task",
            "todowrite",
            "webfetch",
        ],
        name_of: |base| format!("hashedit_{base}"),
        schema_offered: same,
        unwrap: bare,
        is_error: None,
        session: Expect::Delivered,
    };
    check(&agent, &scratch, &model, &opencode, &["run", PROMPT]);
}
