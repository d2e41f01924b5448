use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;

/// Places under `dir`: the project in `proj/`, the home in `home/`.
fn places(dir: &Path) -> Places {
    let home = dir.join("home");
    std::fs::create_dir_all(dir.join("proj")).unwrap();
    Places {
        project: dir.join("proj"),
        config: home.join(".config"),
        state: home.join(".local/state/hashedit/setup"),
        claude: home.join(".claude"),
        claude_json: home.join(".claude.json"),
        codex: home.join(".codex"),
        zed: home.join(".config/zed"),
        vscode: home.join(".config/Code/User"),
        home,
    }
}

fn server() -> ServerCommand {
    ServerCommand::new("hashedit")
}

fn run_setup(client: Client, scope: Scope, places: &Places) -> Plan {
    let plan = setup(client, scope, places, &server(), &Extras::default()).unwrap();
    plan.apply().unwrap();
    plan
}

fn run_undo(client: Client, scope: Scope, places: &Places) -> Plan {
    let plan = undo(client, scope, places).unwrap();
    plan.apply().unwrap();
    plan
}

/// Every file and directory under `dir`: relative path → bytes (`None`
/// for a directory; `-> TARGET` for a symlink).
fn tree(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let relative = path.strip_prefix(root).unwrap().to_path_buf();
            if let Ok(target) = std::fs::read_link(&path) {
                let shown = format!("-> {}", target.display());
                out.insert(relative, Some(shown.into_bytes()));
            } else if path.is_dir() {
                out.insert(relative, None);
                walk(root, &path, out);
            } else {
                out.insert(relative, Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// (file relative to the scratch directory, action) of a plan.
fn actions(plan: &Plan, dir: &Path) -> Vec<(String, Action)> {
    plan.changes
        .iter()
        .map(|c| {
            (
                c.path.strip_prefix(dir).unwrap().display().to_string(),
                c.action(),
            )
        })
        .collect()
}

#[test]
fn each_client_and_scope_writes_these_files() {
    use Action::Create;
    let cases: [(Client, Scope, &[&str]); 14] = [
        (
            Client::ClaudeCode,
            Scope::Project,
            &[
                "proj/.mcp.json",
                "proj/.claude/settings.json",
                "proj/CLAUDE.md",
            ],
        ),
        (
            Client::ClaudeCode,
            Scope::User,
            &[
                "home/.claude.json",
                "home/.claude/settings.json",
                "home/.claude/CLAUDE.md",
            ],
        ),
        (
            Client::Codex,
            Scope::Project,
            &["proj/.codex/config.toml", "proj/AGENTS.md"],
        ),
        (
            Client::Codex,
            Scope::User,
            &["home/.codex/config.toml", "home/.codex/AGENTS.md"],
        ),
        (
            Client::Gemini,
            Scope::Project,
            &["proj/.gemini/settings.json", "proj/GEMINI.md"],
        ),
        (
            Client::Gemini,
            Scope::User,
            &["home/.gemini/settings.json", "home/.gemini/GEMINI.md"],
        ),
        (
            Client::Opencode,
            Scope::Project,
            &["proj/opencode.json", "proj/AGENTS.md"],
        ),
        (
            Client::Opencode,
            Scope::User,
            &[
                "home/.config/opencode/opencode.json",
                "home/.config/opencode/AGENTS.md",
            ],
        ),
        (
            Client::Cursor,
            Scope::Project,
            &["proj/.cursor/mcp.json", "proj/AGENTS.md"],
        ),
        (Client::Cursor, Scope::User, &["home/.cursor/mcp.json"]),
        (
            Client::Zed,
            Scope::Project,
            &["proj/.zed/settings.json", "proj/AGENTS.md"],
        ),
        (
            Client::Zed,
            Scope::User,
            &["home/.config/zed/settings.json"],
        ),
        (
            Client::VsCode,
            Scope::Project,
            &["proj/.vscode/mcp.json", "proj/AGENTS.md"],
        ),
        (
            Client::VsCode,
            Scope::User,
            &[
                "home/.config/Code/User/mcp.json",
                "home/.copilot/instructions/hashedit.instructions.md",
            ],
        ),
    ];
    for (client, scope, files) in cases {
        let dir = tempfile::tempdir().unwrap();
        let plan = setup(
            client,
            scope,
            &places(dir.path()),
            &server(),
            &Extras::default(),
        )
        .unwrap();
        let want: Vec<(String, Action)> = files.iter().map(|f| (f.to_string(), Create)).collect();
        assert_eq!(actions(&plan, dir.path()), want, "{client:?} {scope:?}");
    }
}

#[test]
fn claude_code_gets_these_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    run_setup(Client::ClaudeCode, Scope::Project, &places);
    assert_eq!(
        read(&places.project.join(".mcp.json")),
        r#"{
  "mcpServers": {
    "hashedit": {
      "type": "stdio",
      "command": "hashedit",
      "args": ["mcp"],
      "alwaysLoad": true
    }
  }
}
"#
    );
    assert_eq!(
        read(&places.project.join(".claude/settings.json")),
        r#"{
  "permissions": {
    "deny": ["Read", "Edit", "Write", "NotebookEdit"],
    "allow": ["mcp__hashedit__read_file", "mcp__hashedit__grep", "mcp__hashedit__glob", "mcp__hashedit__list_dir"]
  }
}
"#
    );
    assert_eq!(read(&places.project.join("CLAUDE.md")), block::TEXT);
}

#[test]
fn merging_keeps_comments_order_and_every_other_key() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    let settings = places.project.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        "{\n    // team rules\n    \"model\": \"opus\", // pinned\n    \"permissions\": {\n        \"deny\": [\"Bash(rm:*)\", \"Read\"],\n    },\n}\n",
    )
    .unwrap();
    run_setup(Client::ClaudeCode, Scope::Project, &places);
    assert_eq!(
        read(&settings),
        "{\n    // team rules\n    \"model\": \"opus\", // pinned\n    \"permissions\": {\n        \"deny\": [\"Bash(rm:*)\", \"Read\", \"Edit\", \"Write\", \"NotebookEdit\"],\n        \"allow\": [\"mcp__hashedit__read_file\", \"mcp__hashedit__grep\", \"mcp__hashedit__glob\", \"mcp__hashedit__list_dir\"],\n    },\n}\n"
    );
}

#[test]
fn codex_merges_into_its_toml_keeping_comments_and_tables() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    let config = places.project.join(".codex/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    let before =
        "# ours\nmodel = \"gpt-5.5\" # pinned\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n";
    std::fs::write(&config, before).unwrap();
    let extras = Extras {
        codex_catalog: Some("{}\n".into()),
    };
    setup(Client::Codex, Scope::Project, &places, &server(), &extras)
        .unwrap()
        .apply()
        .unwrap();
    assert_eq!(
        read(&config),
        "# ours\nmodel = \"gpt-5.5\" # pinned\nmodel_catalog_json = \"hashedit-model-catalog.json\"\n\n\
         [mcp_servers.docs]\ncommand = \"docs-mcp\"\n\n[mcp_servers.hashedit]\ncommand = \"hashedit\"\n\
         args = [\"mcp\"]\nenabled = true\ndefault_tools_approval_mode = \"approve\"\n"
    );
    assert_eq!(
        read(&places.project.join(".codex/hashedit-model-catalog.json")),
        "{}\n"
    );
    run_undo(Client::Codex, Scope::Project, &places);
    assert_eq!(read(&config), before);
    assert!(
        !places
            .project
            .join(".codex/hashedit-model-catalog.json")
            .exists()
    );
}

#[test]
fn a_setting_that_keeps_the_server_off_is_taken_back() {
    // Each would keep hashedit from starting while the built-ins are
    // hidden, leaving the model no file tools. (client, file, before,
    // after setup, after undo once the user changed the file.)
    let cases: [(Client, &str, &str, &str, &str); 3] = [
        (
            Client::ClaudeCode,
            ".claude/settings.json",
            "{\"disabledMcpjsonServers\": [\"hashedit\", \"docs\"]}\n",
            "{\n  \"disabledMcpjsonServers\": [\"docs\"],\n  \"permissions\": {\n    \"deny\": [\"Read\", \"Edit\", \
             \"Write\", \"NotebookEdit\"],\n    \"allow\": [\"mcp__hashedit__read_file\", \"mcp__hashedit__grep\", \
             \"mcp__hashedit__glob\", \"mcp__hashedit__list_dir\"]\n  }\n}\n",
            "{\n  \"disabledMcpjsonServers\": [\"docs\", \"hashedit\"]\n}\n\n",
        ),
        (
            Client::Gemini,
            ".gemini/settings.json",
            "{\"mcp\": {\"allowed\": [\"docs\"], \"excluded\": [\"hashedit\"]}}\n",
            "{\n  \"mcp\": {\"allowed\": [\"docs\", \"hashedit\"], \"excluded\": []},\n  \"mcpServers\": {\n    \
             \"hashedit\": {\n      \"command\": \"hashedit\",\n      \"args\": [\"mcp\"]\n    }\n  },\n  \"tools\": {\n    \
             \"exclude\": [\"ReadFileTool\", \"WriteFileTool\", \"EditTool\", \"ReadManyFilesTool\"],\n    \"allowed\": \
             [\"mcp_hashedit_read_file\", \"mcp_hashedit_grep\", \"mcp_hashedit_glob\", \"mcp_hashedit_list_dir\"]\n  }\n}\n",
            "{\n  \"mcp\": {\"allowed\": [\"docs\"], \"excluded\": [\"hashedit\"]}\n}\n\n",
        ),
        (
            Client::Codex,
            ".codex/config.toml",
            "[mcp_servers.hashedit]\ncommand = \"old\"\nenabled = false\n",
            "[mcp_servers.hashedit]\ncommand = \"hashedit\"\nenabled = true\nargs = [\"mcp\"]\n\
             default_tools_approval_mode = \"approve\"\n",
            "[mcp_servers.hashedit]\ncommand = \"old\"\nenabled = false\n\n",
        ),
    ];
    for (client, file, before, after, undone) in cases {
        let dir = tempfile::tempdir().unwrap();
        let places = places(dir.path());
        let path = places.project.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, before).unwrap();
        run_setup(client, Scope::Project, &places);
        assert_eq!(read(&path), after, "{client:?}");
        run_undo(client, Scope::Project, &places);
        assert_eq!(read(&path), before, "{client:?}");
        // Changed since setup: undo takes back only what setup did.
        run_setup(client, Scope::Project, &places);
        std::fs::write(&path, format!("{after}\n")).unwrap();
        run_undo(client, Scope::Project, &places);
        assert_eq!(read(&path), undone, "{client:?}");
    }
}

#[test]
fn server_flags_the_user_added_stay() {
    // (client, file, before, after setup): the entry runs another program
    // with flags of the user's before or after `mcp`; the program
    // changes, the flags stay.
    let cases: [(Client, &str, &str, &str); 3] = [
        (
            Client::ClaudeCode,
            ".mcp.json",
            "{\"mcpServers\": {\"hashedit\": {\"command\": \"/opt/hashedit\", \"args\": [\"--protect\", \
             \"secrets/**\", \"mcp\"]}}}\n",
            "{\"mcpServers\": {\"hashedit\": {\n      \"command\": \"hashedit\",\n      \"args\": [\"--protect\", \
             \"secrets/**\", \"mcp\"],\n      \"type\": \"stdio\",\n      \"alwaysLoad\": true\n    }}}\n",
        ),
        (
            Client::Opencode,
            "opencode.json",
            "{\"mcp\": {\"hashedit\": {\"type\": \"local\", \"command\": [\"hashedit\", \"mcp\", \"--read-only\"]}}}\n",
            "{\n  \"mcp\": {\"hashedit\": {\n      \"type\": \"local\",\n      \"command\": [\"hashedit\", \"mcp\", \
             \"--read-only\"],\n      \"enabled\": true\n    }},\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \
             \"permission\": {\n    \"read\": \"deny\",\n    \"edit\": \"deny\"\n  }\n}\n",
        ),
        (
            Client::Codex,
            ".codex/config.toml",
            "[mcp_servers.hashedit]\ncommand = \"hashedit\"\nargs = [\"mcp\", \"--tag-scheme\", \"omp\"]\n",
            "[mcp_servers.hashedit]\ncommand = \"hashedit\"\nargs = [\"mcp\", \"--tag-scheme\", \"omp\"]\n\
             enabled = true\ndefault_tools_approval_mode = \"approve\"\n",
        ),
    ];
    for (client, file, before, after) in cases {
        let dir = tempfile::tempdir().unwrap();
        let places = places(dir.path());
        let path = places.project.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, before).unwrap();
        run_setup(client, Scope::Project, &places);
        assert_eq!(read(&path), after, "{client:?}");
        let again = run_setup(client, Scope::Project, &places);
        assert_eq!(again.changes[0].action(), Action::Keep, "{client:?}");
        run_undo(client, Scope::Project, &places);
        assert_eq!(read(&path), before, "{client:?}");
    }
}

#[test]
fn setup_twice_is_setup_once_byte_for_byte() {
    for client in Client::ALL {
        for scope in [Scope::Project, Scope::User] {
            let dir = tempfile::tempdir().unwrap();
            let places = places(dir.path());
            run_setup(client, scope, &places);
            let once = tree(dir.path());
            let again = run_setup(client, scope, &places);
            assert!(
                again.changes.iter().all(|c| c.action() == Action::Keep),
                "{client:?} {scope:?}"
            );
            assert_eq!(tree(dir.path()), once, "{client:?} {scope:?}");
        }
    }
}

/// Files every client may find before setup, in shapes a merge must not
/// disturb: comments, trailing commas, CRLF, no final newline, a byte
/// order mark.
fn existing_files(places: &Places) {
    let files: [(PathBuf, &str); 8] = [
        (
            places.project.join(".mcp.json"),
            "{\r\n  \"mcpServers\": {\"docs\": {\"command\": \"d\"}}\r\n}",
        ),
        (
            places.project.join(".claude/settings.json"),
            "{\n  // mine\n  \"permissions\": {\"deny\": [\"Read\",],},\n}\n",
        ),
        (places.project.join("AGENTS.md"), "# Rules\r\nTabs."),
        (
            places.project.join(".gemini/settings.json"),
            "{\"tools\": {\"exclude\": [\"ShellTool\"]}}",
        ),
        (
            places.project.join("opencode.jsonc"),
            "// opencode\n{\"permission\": {\"edit\": \"ask\", \"bash\": \"ask\"}}\n",
        ),
        (
            places.project.join(".vscode/mcp.json"),
            "\u{feff}{\n\t\"servers\": {},\n\t\"inputs\": []\n}\n",
        ),
        (
            places.home.join(".codex/config.toml"),
            "model = \"o\"\r\n[tui]\r\nnotifications = true\r\n",
        ),
        (
            places.home.join(".claude.json"),
            "{\"numStartups\": 7, \"mcpServers\": {}}",
        ),
    ];
    for (path, text) in files {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn a_byte_order_mark_stays_in_front_of_the_merged_json() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    existing_files(&places);
    run_setup(Client::VsCode, Scope::Project, &places);
    assert_eq!(
        read(&places.project.join(".vscode/mcp.json")),
        "\u{feff}{\n\t\"servers\": {\n\t\t\"hashedit\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\
         \"command\": \"hashedit\",\n\t\t\t\"args\": [\"mcp\"]\n\t\t}\n\t},\n\t\"inputs\": []\n}\n"
    );
}

#[test]
fn undo_restores_every_byte_and_removes_what_setup_created() {
    for client in Client::ALL {
        for scope in [Scope::Project, Scope::User] {
            let dir = tempfile::tempdir().unwrap();
            let places = places(dir.path());
            existing_files(&places);
            let before = tree(dir.path());
            run_setup(client, scope, &places);
            assert_ne!(tree(dir.path()), before, "{client:?} {scope:?}");
            run_setup(client, scope, &places);
            run_undo(client, scope, &places);
            assert_eq!(tree(dir.path()), before, "{client:?} {scope:?}");
            // Undo again: nothing to take out, nothing changes.
            let again = run_undo(client, scope, &places);
            let whys: Vec<_> = again.changes.iter().map(|c| (c.action(), c.why)).collect();
            let existing = whys
                .iter()
                .filter(|w| **w == (Action::Keep, "holds nothing setup adds"));
            assert_eq!(
                existing.count(),
                whys.len(),
                "{client:?} {scope:?}: {whys:?}"
            );
            assert_eq!(tree(dir.path()), before, "{client:?} {scope:?}");
        }
    }
}

#[test]
fn undo_after_a_later_change_takes_out_only_what_setup_added() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    let settings = places.project.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        "{\n  \"permissions\": {\"deny\": [\"Read\"]}\n}\n",
    )
    .unwrap();
    run_setup(Client::ClaudeCode, Scope::Project, &places);
    // The user (or Claude Code) changes both files afterwards.
    let mut text = read(&settings);
    text = text.replace("\"permissions\"", "\"model\": \"opus\",\n  \"permissions\"");
    std::fs::write(&settings, text).unwrap();
    let servers = places.project.join(".mcp.json");
    std::fs::write(
        &servers,
        read(&servers).replace(
            "\"mcpServers\": {",
            "\"mcpServers\": {\n    \"docs\": {\"command\": \"d\"},",
        ),
    )
    .unwrap();
    let plan = run_undo(Client::ClaudeCode, Scope::Project, &places);
    assert_eq!(
        plan.changes.iter().map(|c| c.why).collect::<Vec<_>>(),
        [
            "changed since setup: took out only what setup added",
            "changed since setup: took out only what setup added",
            "setup created it",
        ]
    );
    assert_eq!(
        read(&settings),
        "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"deny\": [\"Read\"]\n  }\n}\n"
    );
    assert_eq!(
        read(&servers),
        "{\n  \"mcpServers\": {\n    \"docs\": {\"command\": \"d\"}\n  }\n}\n"
    );
    assert!(!places.project.join("CLAUDE.md").exists());
}

#[test]
fn a_file_setup_created_stays_when_the_user_wrote_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    run_setup(Client::Gemini, Scope::Project, &places);
    let settings = places.project.join(".gemini/settings.json");
    let text = read(&settings).replacen('{', "{\n  // ask Ana before changing this", 1);
    std::fs::write(&settings, text).unwrap();
    run_undo(Client::Gemini, Scope::Project, &places);
    assert_eq!(read(&settings), "{\n  // ask Ana before changing this\n}\n");
    assert!(!places.project.join("GEMINI.md").exists());
}

#[test]
fn a_second_setup_keeps_the_bytes_from_before_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    existing_files(&places);
    let before = tree(dir.path());
    run_setup(Client::Opencode, Scope::Project, &places);
    // Setup again with another command: the files change, the record of
    // the bytes before setup does not.
    let moved = ServerCommand::new("/opt/hashedit/bin/hashedit");
    let plan = setup(
        Client::Opencode,
        Scope::Project,
        &places,
        &moved,
        &Extras::default(),
    )
    .unwrap();
    assert_eq!(plan.changes[0].action(), Action::Update);
    plan.apply().unwrap();
    run_undo(Client::Opencode, Scope::Project, &places);
    assert_eq!(tree(dir.path()), before);
}

#[test]
fn a_shared_instruction_block_stays_until_the_last_client_is_undone() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    existing_files(&places);
    let agents = places.project.join("AGENTS.md");
    let before = read(&agents);
    run_setup(Client::Codex, Scope::Project, &places);
    let with_block = read(&agents);
    assert_eq!(
        with_block,
        format!("{before}\r\n\r\n{}", block::TEXT.replace('\n', "\r\n"))
    );
    run_setup(Client::Cursor, Scope::Project, &places);
    let plan = run_undo(Client::Codex, Scope::Project, &places);
    assert_eq!(
        plan.changes.last().unwrap().why,
        "kept: another client set up here uses it"
    );
    assert_eq!(read(&agents), with_block);
    run_undo(Client::Cursor, Scope::Project, &places);
    assert_eq!(read(&agents), before);
    assert!(!places.state.exists());
}

#[test]
fn the_last_undo_removes_the_directories_made_for_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    let before = tree(dir.path());
    run_setup(Client::Cursor, Scope::User, &places);
    run_setup(Client::Cursor, Scope::Project, &places);
    // The record that created ~/.local/state/hashedit/setup goes first.
    run_undo(Client::Cursor, Scope::User, &places);
    run_undo(Client::Cursor, Scope::Project, &places);
    assert_eq!(tree(dir.path()), before);
}

#[test]
fn undo_without_a_record_takes_out_what_setup_adds() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    run_setup(Client::Gemini, Scope::Project, &places);
    std::fs::remove_dir_all(&places.state).unwrap();
    let settings = places.project.join(".gemini/settings.json");
    std::fs::write(
        &settings,
        read(&settings).replacen('{', "{\n  \"theme\": \"dark\",", 1),
    )
    .unwrap();
    let plan = run_undo(Client::Gemini, Scope::Project, &places);
    assert!(!plan.recorded);
    assert_eq!(read(&settings), "{\n  \"theme\": \"dark\"\n}\n");
    assert!(!places.project.join("GEMINI.md").exists());
}

#[test]
fn a_file_that_cannot_take_the_change_is_named_and_nothing_is_written() {
    let cases: [(Client, &str, &[u8], &str); 6] = [
        (
            Client::ClaudeCode,
            ".mcp.json",
            b"[1, 2]",
            "does not hold a JSON object",
        ),
        (
            Client::ClaudeCode,
            ".mcp.json",
            b"{\"mcpServers\": [] }",
            "has mcpServers set to something other than an object",
        ),
        (
            Client::Opencode,
            "opencode.json",
            b"{\"permission\": \"allow\"}",
            "has permission set to something other than an object",
        ),
        (
            Client::Zed,
            ".zed/settings.json",
            b"{\xff}",
            "is not UTF-8 text",
        ),
        // Made read-only below (a rename would replace it regardless).
        (Client::Gemini, "GEMINI.md", b"# Ours\n", "is read-only"),
        // Made a directory below.
        (
            Client::Codex,
            "AGENTS.md",
            b"",
            "is a directory, not a file",
        ),
    ];
    for (client, file, text, why) in cases {
        let dir = tempfile::tempdir().unwrap();
        let places = places(dir.path());
        let path = places.project.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        match why {
            "is a directory, not a file" => std::fs::create_dir_all(path.join("rules")).unwrap(),
            _ => std::fs::write(&path, text).unwrap(),
        }
        if why == "is read-only" {
            let mut permissions = std::fs::metadata(&path).unwrap().permissions();
            permissions.set_readonly(true);
            std::fs::set_permissions(&path, permissions).unwrap();
        }
        let before = tree(dir.path());
        let error = setup(
            client,
            Scope::Project,
            &places,
            &server(),
            &Extras::default(),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "{} {why}; nothing was written. Fix or move the file and run setup again",
                path.display()
            )
        );
        assert_eq!(tree(dir.path()), before, "{file}");
    }
}

#[test]
fn cursor_zed_and_vscode_files_follow_their_documented_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    for client in [Client::Cursor, Client::Zed, Client::VsCode] {
        for scope in [Scope::Project, Scope::User] {
            run_setup(client, scope, &places);
        }
    }
    let entry = |path: PathBuf, key: &str| -> Value {
        let value: Value = serde_json::from_str(&read(&path)).unwrap();
        value[key]["hashedit"].clone()
    };
    let stdio = json!({"command": "hashedit", "args": ["mcp"]});
    // Cursor: `mcpServers`, each a command and its args (.cursor/mcp.json,
    // ~/.cursor/mcp.json).
    assert_eq!(
        entry(places.project.join(".cursor/mcp.json"), "mcpServers"),
        stdio
    );
    assert_eq!(
        entry(places.home.join(".cursor/mcp.json"), "mcpServers"),
        stdio
    );
    // Zed: `context_servers`, each a command and its args, in the user's
    // settings and a project's .zed/settings.json.
    // A project's entry names the project (Zed does not tell the server).
    let project = places.project.display().to_string();
    assert_eq!(
        entry(places.project.join(".zed/settings.json"), "context_servers"),
        json!({"command": "hashedit", "args": ["mcp", "--root", project]})
    );
    assert_eq!(
        entry(places.zed.join("settings.json"), "context_servers"),
        stdio
    );
    // VS Code: `servers` (not mcpServers), each with its type.
    let typed = json!({"type": "stdio", "command": "hashedit", "args": ["mcp"]});
    assert_eq!(
        entry(places.project.join(".vscode/mcp.json"), "servers"),
        typed
    );
    assert_eq!(entry(places.vscode.join("mcp.json"), "servers"), typed);
    // VS Code's user instructions: an .instructions.md applied to every file.
    let instructions = read(
        &places
            .home
            .join(".copilot/instructions/hashedit.instructions.md"),
    );
    assert_eq!(
        instructions,
        format!("---\napplyTo: \"**\"\n---\n{}", block::TEXT)
    );
}

#[test]
fn the_block_is_replaced_in_place_and_removed_with_its_blank_line() {
    let old = "# Rules\n\n<!-- hashedit:begin (old words) -->\nold\n<!-- hashedit:end -->\nTail.\n";
    let new = block::apply(old);
    assert_eq!(new, format!("# Rules\n\n{}Tail.\n", block::TEXT));
    assert_eq!(block::remove(&new), "# Rules\nTail.\n");
    assert_eq!(block::remove(&block::apply("# Rules\n")), "# Rules\n");
    assert_eq!(block::apply(""), block::TEXT);
}

#[test]
fn the_dry_run_diff_shows_each_file_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    let config = places.project.join("opencode.json");
    std::fs::write(&config, "{\"model\": \"m\"}\n").unwrap();
    let before = tree(dir.path());
    let plan = setup(
        Client::Opencode,
        Scope::Project,
        &places,
        &server(),
        &Extras::default(),
    )
    .unwrap();
    let diff = plan.diff();
    assert_eq!(tree(dir.path()), before);
    let config = config.display();
    let agents = places.project.join("AGENTS.md");
    let want = format!(
        "--- {config}\n+++ {config}\n@@ -1 +1,15 @@\n-{{\"model\": \"m\"}}\n+{{\n+  \"model\": \"m\",\n+  \
         \"$schema\": \"https://opencode.ai/config.json\",\n+  \"mcp\": {{\n+    \"hashedit\": {{\n+      \
         \"type\": \"local\",\n+      \"command\": [\"hashedit\", \"mcp\"],\n+      \"enabled\": true\n+    }}\n+  \
         }},\n+  \"permission\": {{\n+    \"read\": \"deny\",\n+    \"edit\": \"deny\"\n+  }}\n+}}\n\
         --- /dev/null\n+++ {}\n@@ -0,0 +1,7 @@\n",
        agents.display()
    );
    assert!(diff.starts_with(&want), "{diff}");
}

#[test]
fn a_symlinked_config_is_written_through_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    let real = dir.path().join("dotfiles/settings.json");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::write(&real, "{}\n").unwrap();
    let link = places.project.join(".gemini/settings.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    run_setup(Client::Gemini, Scope::Project, &places);
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert!(read(&real).contains("mcp_hashedit_read_file"));
    run_undo(Client::Gemini, Scope::Project, &places);
    assert_eq!(read(&real), "{}\n");
}

#[test]
fn a_dangling_symlink_is_written_through_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let places = places(dir.path());
    // A dotfiles link whose file does not exist yet.
    let real = dir.path().join("dotfiles/claude/settings.json");
    let link = places.claude.join("settings.json");
    std::fs::create_dir_all(&places.claude).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let before = tree(dir.path());
    run_setup(Client::ClaudeCode, Scope::User, &places);
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(
        read(&real),
        "{\n  \"permissions\": {\n    \"deny\": [\"Read\", \"Edit\", \"Write\", \"NotebookEdit\"],\n    \
         \"allow\": [\"mcp__hashedit__read_file\", \"mcp__hashedit__grep\", \"mcp__hashedit__glob\", \
         \"mcp__hashedit__list_dir\"]\n  }\n}\n"
    );
    // Undo deletes the file setup created, and the directories it made
    // for it, and keeps the link as it was: dangling.
    run_undo(Client::ClaudeCode, Scope::User, &places);
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(tree(dir.path()), before);
}

#[test]
fn the_codex_catalog_turns_off_tool_search_and_apply_patch() {
    // As `codex debug models` prints it: one line; edited in place.
    let catalog = r#"{"models":[{"slug":"a","supports_search_tool":true,"apply_patch_tool_type":"freeform","x":1},{"slug":"b"}]}
"#;
    assert_eq!(
        without_search_and_patch(catalog).unwrap(),
        "{\"models\":[{\"slug\":\"a\",\"supports_search_tool\":false,\"apply_patch_tool_type\":null,\"x\":1},{\n      \
         \"slug\":\"b\",\n      \"supports_search_tool\": false,\n      \"apply_patch_tool_type\": null\n    }]}\n"
    );
    assert_eq!(
        without_search_and_patch("{\"models\": []}").unwrap_err(),
        "it lists no models"
    );
}

#[test]
fn the_home_directory_is_absolute_and_a_relative_xdg_directory_is_ignored() {
    let project = PathBuf::from("/p");
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| std::ffi::OsString::from(v))
        }
    };
    // No HOME (a cron job, `env -i`): the account's home directory.
    let account = Some(PathBuf::from("/home/me"));
    let places = Places::from_vars(project.clone(), env(&[]), account.clone()).unwrap();
    assert_eq!(places.home, Path::new("/home/me"));
    assert_eq!(
        places.state,
        Path::new("/home/me/.local/state/hashedit/setup")
    );
    // A relative XDG directory is not one (XDG Base Directory spec).
    let vars = env(&[
        ("HOME", "/h"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_CONFIG_HOME", ""),
    ]);
    let places = Places::from_vars(project.clone(), vars, account.clone()).unwrap();
    assert_eq!(places.state, Path::new("/h/.local/state/hashedit/setup"));
    assert_eq!(places.config, Path::new("/h/.config"));
    // A relative HOME would put the user's files wherever setup runs.
    let error = Places::from_vars(project, env(&[("HOME", "relative/home")]), account).unwrap_err();
    assert_eq!(
        error.to_string(),
        "cannot find the home directory: set HOME to an absolute path"
    );
}

#[test]
fn a_project_setup_in_the_home_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut places = places(dir.path());
    places.project = places.home.clone();
    std::fs::create_dir_all(&places.home).unwrap();
    let error = setup(
        Client::ClaudeCode,
        Scope::Project,
        &places,
        &server(),
        &Extras::default(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "{} is your home directory: its project files are your user files (Claude Code's \
             ~/.claude/settings.json, Gemini CLI's ~/.gemini/settings.json). Run setup in your project's \
             directory, or pass --scope user for every project",
            places.home.display()
        )
    );
    assert_eq!(tree(&places.home), BTreeMap::new());
}

#[test]
fn the_command_given_is_a_name_or_an_absolute_path_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("bin/hashedit");
    std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
    std::fs::write(&binary, "").unwrap();
    let name = ServerCommand::given("hashedit").unwrap();
    assert_eq!(name, ServerCommand::new("hashedit"));
    let path = ServerCommand::given(binary.to_str().unwrap()).unwrap();
    assert_eq!(path.program, binary.to_str().unwrap());
    // A relative path is made absolute: tests/cli.rs.
    for wrong in ["", "./no-such-hashedit", "/no/such/hashedit"] {
        assert_eq!(
            ServerCommand::given(wrong).unwrap_err().to_string(),
            format!(
                "--command {wrong:?} is no program: give the path of the hashedit binary, or a name the client \
                 finds on its PATH"
            )
        );
    }
}
