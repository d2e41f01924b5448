//! The clients setup knows and, in one table, what it writes for each:
//! the server entry, the built-in file tools it hides, the approvals it
//! grants, the instruction block, and what it cannot do.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::edit::{Change, KeyEdit, KeyPath, Target};
use crate::places::{Places, ServerCommand};

/// An agent client setup configures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Client {
    /// Claude Code (`claude`).
    ClaudeCode,
    /// OpenAI Codex CLI (`codex`).
    Codex,
    /// Gemini CLI (`gemini`).
    Gemini,
    /// opencode (`opencode`).
    Opencode,
    /// Cursor.
    Cursor,
    /// Zed's agent.
    Zed,
    /// VS Code's agent mode.
    VsCode,
}

/// Which configuration setup writes: the project's (in the project
/// directory, shared with whoever works on it) or the user's (under the
/// home directory, for every project).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Files in the project directory.
    Project,
    /// Files under the home directory.
    User,
}

/// Choices beyond the client and the scope.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// Codex only: the model catalog to install in place of Codex's own
    /// (from [`crate::codex_catalog`]), whose models then offer hashedit's
    /// tools directly and no `apply_patch`.
    pub codex_catalog: Option<String>,
}

// Why each file changes, as the report says it.
const WHY_BLOCK: &str = "tells the model to read and edit files with hashedit's tools, and why";
const WHY_CLAUDE_SERVER: &str = "registers the hashedit MCP server, its tools offered up front (alwaysLoad) instead of behind ToolSearch";
const WHY_CLAUDE_SETTINGS: &str = "hides Read, Edit, Write and NotebookEdit; lets read_file, grep, glob and list_dir run without asking";
const WHY_CODEX: &str = "registers the hashedit MCP server; its calls run without asking, as apply_patch's do in the workspace";
const WHY_CODEX_CATALOG: &str =
    "Codex's model catalog with supports_search_tool false and apply_patch_tool_type null";
const WHY_GEMINI: &str = "registers the hashedit MCP server; hides read_file, write_file, replace and read_many_files by class name (a bare name would hide mcp_hashedit_read_file too); lets read_file, grep, glob and list_dir run without asking";
const WHY_OPENCODE: &str = "registers the hashedit MCP server; hides read, and edit, write and apply_patch (permission read and edit: deny)";
const WHY_SERVER: &str = "registers the hashedit MCP server";

/// Where Codex's replacement catalog goes, beside the config.toml that
/// names it (relative to itself).
const CODEX_CATALOG: &str = "hashedit-model-catalog.json";

const SHELL_STAYS: &str =
    "The shell tool stays, so the model can still change files with shell commands.";
const ASKS_CLAUDE: &str = "edit and write ask before each call, as Claude Code's own Edit does: allow them in /permissions (or --allowedTools mcp__hashedit__edit,mcp__hashedit__write when headless).";
const ASKS_GEMINI: &str = "edit and write ask before each call, as write_file and replace do (headless: --approval-mode yolo, or allow them in a policy file).";
const DEPRECATED_GEMINI: &str = "Gemini CLI 0.61 warns at start that tools.exclude and tools.allowed are deprecated; its policy engine cannot hide read_file without hiding mcp_hashedit_read_file too.";
const CODEX_PATCH_STAYS: &str = "apply_patch stays: Codex offers it to every model of its own catalog, and those models reach hashedit's tools through tool_search. --replace-codex-catalog changes both, by replacing Codex's model catalog.";
const CODEX_CATALOG_FROZEN: &str = "Codex now reads its model list from hashedit-model-catalog.json: models Codex adds later appear after running this setup again (undo restores Codex's own catalog).";
const CURSOR_TOOLS_STAY: &str =
    "Cursor's own read and edit tools stay: Cursor has no setting that hides them.";
const ZED_TOOLS_STAY: &str = "Zed's read_file and edit_file stay: turn them off in an agent profile (Agent Panel, Configure profiles); a profile lists every tool it enables, so setup does not write one.";
const VSCODE_TOOLS_STAY: &str =
    "VS Code's own file tools stay: switch them off in the chat's tool picker (Configure Tools).";
const CODEX_TRUST: &str = "Codex reads .codex/config.toml only in a trusted project: trust it when Codex asks, or use --scope user.";
const GEMINI_TRUST: &str = "Gemini CLI reads .gemini/settings.json only in a trusted folder: trust it when Gemini CLI asks, or use --scope user.";
const NO_USER_RULES: &str = "No instruction file at user scope: the model is told which tools to use only by their descriptions.";
const ZED_NO_ROOT: &str = "No instruction file at user scope, and Zed does not tell the server its project: the server works in the directory Zed starts it in; set up each project instead (--scope project names it).";

impl Client {
    /// Every client, in the order `hashedit setup --help` lists them.
    pub const ALL: [Client; 7] = [
        Client::ClaudeCode,
        Client::Codex,
        Client::Gemini,
        Client::Opencode,
        Client::Cursor,
        Client::Zed,
        Client::VsCode,
    ];

    /// The name on the command line: `claude-code`, `codex`, `gemini`,
    /// `opencode`, `cursor`, `zed`, `vscode`.
    pub fn name(self) -> &'static str {
        match self {
            Client::ClaudeCode => "claude-code",
            Client::Codex => "codex",
            Client::Gemini => "gemini",
            Client::Opencode => "opencode",
            Client::Cursor => "cursor",
            Client::Zed => "zed",
            Client::VsCode => "vscode",
        }
    }

    /// The client called `name` (see [`Client::name`]).
    pub fn from_name(name: &str) -> Option<Client> {
        Client::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The files setup writes for this client in `scope`, each with its
    /// change and the reason the report gives.
    pub(crate) fn targets(
        self,
        scope: Scope,
        places: &Places,
        server: &ServerCommand,
        extras: &Extras,
    ) -> Vec<Target> {
        let at = At {
            scope,
            places,
            server,
        };
        match self {
            Client::ClaudeCode => claude_code(&at),
            Client::Codex => codex(&at, extras),
            Client::Gemini => gemini(&at),
            Client::Opencode => opencode(&at),
            Client::Cursor | Client::Zed | Client::VsCode => editor(self, &at),
        }
    }

    /// What setup cannot do for this client, said plainly after every run.
    pub fn limits(self, scope: Scope, extras: &Extras) -> Vec<&'static str> {
        let own = match (self, extras.codex_catalog.is_some()) {
            (Client::ClaudeCode, _) => Some(ASKS_CLAUDE),
            (Client::Codex, true) => Some(CODEX_CATALOG_FROZEN),
            (Client::Codex, false) => Some(CODEX_PATCH_STAYS),
            (Client::Gemini, _) => Some(DEPRECATED_GEMINI),
            (Client::Opencode, _) => None,
            (Client::Cursor, _) => Some(CURSOR_TOOLS_STAY),
            (Client::Zed, _) => Some(ZED_TOOLS_STAY),
            (Client::VsCode, _) => Some(VSCODE_TOOLS_STAY),
        };
        let scoped = match (self, scope) {
            (Client::Gemini, Scope::Project) => [Some(ASKS_GEMINI), Some(GEMINI_TRUST)],
            (Client::Gemini, Scope::User) => [Some(ASKS_GEMINI), None],
            (Client::Codex, Scope::Project) => [Some(CODEX_TRUST), None],
            (Client::Cursor, Scope::User) => [Some(NO_USER_RULES), None],
            (Client::Zed, Scope::User) => [Some(ZED_NO_ROOT), None],
            _ => [None, None],
        };
        own.into_iter()
            .chain(scoped.into_iter().flatten())
            .chain([SHELL_STAYS])
            .collect()
    }
}

/// Where the files of a scope are, and the server entry they hold.
struct At<'a> {
    scope: Scope,
    places: &'a Places,
    server: &'a ServerCommand,
}

impl At<'_> {
    /// The project's file `in_project`, or the user's `for_user`.
    fn file(&self, in_project: &str, for_user: PathBuf) -> PathBuf {
        match self.scope {
            Scope::Project => self.places.project.join(in_project),
            Scope::User => for_user,
        }
    }

    /// The server's entry under `entry` as one key per field, in order:
    /// `first`, then `command` and `args`, then `last`. Setting keys one by
    /// one keeps this order and any other key the entry has.
    fn server(
        &self,
        entry: [&'static str; 2],
        first: &[(&'static str, Value)],
        last: &[(&'static str, Value)],
    ) -> Vec<(KeyPath, Value)> {
        let command = [
            ("command", json!(self.server.program)),
            ("args", json!(self.server.args)),
        ];
        first
            .iter()
            .chain(&command)
            .chain(last)
            .map(|(key, value)| (vec![entry[0], entry[1], *key], value.clone()))
            .collect()
    }

    /// The project's AGENTS.md block, in the project scope only.
    fn agents_md(&self) -> Option<Target> {
        (self.scope == Scope::Project).then(|| block(self.places.project.join("AGENTS.md")))
    }
}

fn json_file(path: PathBuf, edits: Vec<KeyEdit>, why: &'static str) -> Target {
    Target::new(path, Change::Json(edits), why)
}

fn block(path: PathBuf) -> Target {
    Target::new(path, Change::Block, WHY_BLOCK)
}

/// The server's name in every client's list of servers, and in the lists
/// of the servers a user allows or turns off.
const SERVER: &[&str] = &["hashedit"];
const CLAUDE_HIDDEN: &[&str] = &["Read", "Edit", "Write", "NotebookEdit"];
const CLAUDE_ALLOWED: &[&str] = &[
    "mcp__hashedit__read_file",
    "mcp__hashedit__grep",
    "mcp__hashedit__glob",
    "mcp__hashedit__list_dir",
];
/// By class name: a name would hide hashedit's tool of that name too.
const GEMINI_HIDDEN: &[&str] = &[
    "ReadFileTool",
    "WriteFileTool",
    "EditTool",
    "ReadManyFilesTool",
];
const GEMINI_ALLOWED: &[&str] = &[
    "mcp_hashedit_read_file",
    "mcp_hashedit_grep",
    "mcp_hashedit_glob",
    "mcp_hashedit_list_dir",
];

/// Key sets as JSON edits.
fn sets(keys: Vec<(KeyPath, Value)>) -> Vec<KeyEdit> {
    keys.into_iter()
        .map(|(path, value)| KeyEdit::Set(path, value))
        .collect()
}

fn claude_code(at: &At) -> Vec<Target> {
    let places = at.places;
    let entry = at.server(
        ["mcpServers", "hashedit"],
        &[("type", json!("stdio"))],
        &[("alwaysLoad", json!(true))],
    );
    let allow = vec![
        KeyEdit::Include(vec!["permissions", "deny"], CLAUDE_HIDDEN),
        KeyEdit::Include(vec!["permissions", "allow"], CLAUDE_ALLOWED),
        // Turned off there, the server would not start, with the
        // built-ins hidden: the model would have no file tools.
        KeyEdit::Omit(vec!["disabledMcpjsonServers"], SERVER),
    ];
    vec![
        json_file(
            at.file(".mcp.json", places.claude_json.clone()),
            sets(entry),
            WHY_CLAUDE_SERVER,
        ),
        json_file(
            at.file(".claude/settings.json", places.claude.join("settings.json")),
            allow,
            WHY_CLAUDE_SETTINGS,
        ),
        block(at.file("CLAUDE.md", places.claude.join("CLAUDE.md"))),
    ]
}

fn codex(at: &At, extras: &Extras) -> Vec<Target> {
    let dir = at.file(".codex", at.places.codex.clone());
    let last = [
        // An `enabled = false` kept would leave the model no file tools.
        ("enabled", json!(true)),
        ("default_tools_approval_mode", json!("approve")),
    ];
    let mut keys = at.server(["mcp_servers", "hashedit"], &[], &last);
    let mut targets = Vec::new();
    if let Some(catalog) = &extras.codex_catalog {
        keys.insert(0, (vec!["model_catalog_json"], json!(CODEX_CATALOG)));
        targets.push(Target::new(
            dir.join(CODEX_CATALOG),
            Change::File(catalog.clone()),
            WHY_CODEX_CATALOG,
        ));
    }
    targets.insert(
        0,
        Target::new(dir.join("config.toml"), Change::Toml(keys), WHY_CODEX),
    );
    targets.push(block(
        at.file("AGENTS.md", at.places.codex.join("AGENTS.md")),
    ));
    targets
}

fn gemini(at: &At) -> Vec<Target> {
    let dir = at.places.home.join(".gemini");
    let mut edits = sets(at.server(["mcpServers", "hashedit"], &[], &[]));
    edits.push(KeyEdit::Include(vec!["tools", "exclude"], GEMINI_HIDDEN));
    edits.push(KeyEdit::Include(vec!["tools", "allowed"], GEMINI_ALLOWED));
    // A server left out of the user's allowlist, or in the denylist, does
    // not start: with the built-ins hidden, the model would have no file
    // tools.
    edits.push(KeyEdit::Admit(vec!["mcp", "allowed"], SERVER));
    edits.push(KeyEdit::Omit(vec!["mcp", "excluded"], SERVER));
    vec![
        json_file(
            at.file(".gemini/settings.json", dir.join("settings.json")),
            edits,
            WHY_GEMINI,
        ),
        block(at.file("GEMINI.md", dir.join("GEMINI.md"))),
    ]
}

fn opencode(at: &At) -> Vec<Target> {
    let dir = at.file("", at.places.config.join("opencode"));
    let entry = |key, value| KeyEdit::Set(vec!["mcp", "hashedit", key], value);
    let edits = vec![
        // opencode adds it to a file without one when it starts.
        KeyEdit::Set(vec!["$schema"], json!("https://opencode.ai/config.json")),
        entry("type", json!("local")),
        entry("command", json!(at.server.argv())),
        entry("enabled", json!(true)),
        KeyEdit::Set(vec!["permission", "read"], json!("deny")),
        KeyEdit::Set(vec!["permission", "edit"], json!("deny")),
    ];
    vec![
        json_file(Places::opencode_file(&dir), edits, WHY_OPENCODE),
        block(dir.join("AGENTS.md")),
    ]
}

/// Cursor, Zed and VS Code: the server entry and, in a project, AGENTS.md.
fn editor(client: Client, at: &At) -> Vec<Target> {
    let places = at.places;
    let (file, mut keys) = match client {
        Client::Cursor => (
            at.file(".cursor/mcp.json", places.home.join(".cursor/mcp.json")),
            at.server(["mcpServers", "hashedit"], &[], &[]),
        ),
        Client::Zed => (
            at.file(".zed/settings.json", places.zed.join("settings.json")),
            at.server(["context_servers", "hashedit"], &[], &[]),
        ),
        _ => (
            at.file(".vscode/mcp.json", places.vscode.join("mcp.json")),
            at.server(["servers", "hashedit"], &[("type", json!("stdio"))], &[]),
        ),
    };
    // Zed does not tell a server its project: a project's entry names it.
    if let (Client::Zed, Scope::Project, Some((_, args))) = (client, at.scope, keys.last_mut()) {
        let root = ["--root".to_string(), places.project.display().to_string()];
        *args = json!([at.server.args.as_slice(), &root].concat());
    }
    let mut targets = vec![json_file(file, sets(keys), WHY_SERVER)];
    targets.extend(at.agents_md());
    if let (Client::VsCode, Scope::User) = (client, at.scope) {
        let text = format!("---\napplyTo: \"**\"\n---\n{}", crate::block::TEXT);
        let path = places
            .home
            .join(".copilot/instructions/hashedit.instructions.md");
        targets.push(Target::new(path, Change::File(text), WHY_BLOCK));
    }
    targets
}
