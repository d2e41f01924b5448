//! `hashedit setup CLIENT`: the command line of `hashedit-setup`
//! (docs/SETUP.md).

use std::io::Write;
use std::path::Path;

use clap::{Args, ValueEnum};
use hashedit_setup::{Action, Client, Extras, FileChange, Places, Plan, Scope, ServerCommand};
use serde_json::json;

/// `hashedit setup`'s arguments.
#[derive(Debug, Args)]
pub(super) struct SetupArgs {
    /// The client to set up: claude-code, codex, gemini, opencode, cursor,
    /// zed or vscode (docs/SETUP.md lists the files each one gets).
    #[arg(value_parser = client)]
    client: Client,
    /// Write the project's configuration (files in the project directory:
    /// the current one, or --root) or the user's (under the home directory).
    #[arg(long, value_enum, default_value_t = ScopeName::Project)]
    scope: ScopeName,
    /// Print the changes as a diff and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Take back what setup wrote: each file back to its bytes before setup
    /// (or, if it changed since, without setup's entries); files setup
    /// created are deleted.
    #[arg(long)]
    undo: bool,
    /// The program the client starts the server with (default: `hashedit`
    /// when PATH finds this program under that name, else its absolute path).
    #[arg(long, value_name = "PROGRAM")]
    command: Option<String>,
    /// Codex: replace Codex's model catalog with a copy (from `codex debug
    /// models`) whose models offer hashedit's tools directly and no
    /// apply_patch. Models Codex adds later appear after running setup again.
    #[arg(long)]
    replace_codex_catalog: bool,
}

/// A client by its name on the command line.
fn client(name: &str) -> Result<Client, String> {
    Client::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Client::ALL.iter().map(|c| c.name()).collect();
        format!("the clients are {}", names.join(", "))
    })
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ScopeName {
    /// Files in the project directory.
    Project,
    /// Files under the home directory, for every project.
    User,
}

/// Runs `hashedit setup`; returns the exit status (0 done, 1 failed).
/// `server_flags` (`--protect GLOB`, `--tag-scheme omp`, ... given to
/// setup) go into the server's command line after `mcp`.
pub(super) fn run(
    args: &SetupArgs,
    server_flags: &[String],
    root: Option<&Path>,
    json_output: bool,
) -> u8 {
    match plan(args, server_flags, root) {
        Ok((plan, places)) => {
            let applied = if args.dry_run { Ok(()) } else { plan.apply() };
            match applied {
                Ok(()) => {
                    report(args, &plan, &places, json_output);
                    0
                }
                Err(e) => fail(&e.to_string(), json_output),
            }
        }
        Err(message) => fail(&message, json_output),
    }
}

fn plan(
    args: &SetupArgs,
    server_flags: &[String],
    root: Option<&Path>,
) -> Result<(Plan, Places), String> {
    let project = match root {
        Some(root) => root.to_path_buf(),
        None => std::env::current_dir()
            .map_err(|e| format!("cannot determine the current directory: {e}"))?,
    };
    let project = project.canonicalize().map_err(|e| {
        format!(
            "the project directory {} cannot be used: {e}",
            project.display()
        )
    })?;
    let places = Places::from_env(project).map_err(|e| e.to_string())?;
    let client = args.client;
    let scope = match args.scope {
        ScopeName::Project => Scope::Project,
        ScopeName::User => Scope::User,
    };
    let plan = if args.undo {
        hashedit_setup::undo(client, scope, &places)
    } else {
        let mut server = match &args.command {
            Some(program) => ServerCommand::given(program).map_err(|e| e.to_string())?,
            None => ServerCommand::locate().map_err(|e| e.to_string())?,
        };
        server.args.extend_from_slice(server_flags);
        let extras = Extras {
            codex_catalog: match (client, args.replace_codex_catalog) {
                (Client::Codex, true) => {
                    Some(hashedit_setup::codex_catalog("codex").map_err(|e| e.to_string())?)
                }
                (_, true) => return Err("--replace-codex-catalog is for codex only".into()),
                _ => None,
            },
        };
        hashedit_setup::setup(client, scope, &places, &server, &extras)
    };
    Ok((plan.map_err(|e| e.to_string())?, places))
}

/// Prints what the run did (or, dry, would do): one line per file, what
/// setup could not do, how to undo.
fn report(args: &SetupArgs, plan: &Plan, places: &Places, json_output: bool) {
    let client = args.client.name();
    let shown = |c: &FileChange| match c.path.strip_prefix(&places.project) {
        Ok(relative) => relative.display().to_string(),
        Err(_) => c.path.display().to_string(),
    };
    let mut out = std::io::stdout().lock();
    if json_output {
        let files: Vec<_> = plan
            .changes
            .iter()
            .map(
                |c| json!({"path": c.path, "action": word(c.action(), args.dry_run), "why": c.why}),
            )
            .collect();
        let value = json!({"ok": true, "client": client, "undo": args.undo, "dry_run": args.dry_run,
                           "files": files, "not_done": plan.limits, "diff": plan.diff()});
        let _ = writeln!(out, "{value}");
        return;
    }
    if args.dry_run {
        let _ = write!(out, "{}", plan.diff());
    }
    let what = if args.undo { "undo" } else { "setup" };
    let _ = match args.scope {
        ScopeName::Project => writeln!(
            out,
            "hashedit {what} for {client} in {}:",
            places.project.display()
        ),
        ScopeName::User => writeln!(out, "hashedit {what} for {client}, user scope:"),
    };
    for change in &plan.changes {
        let _ = writeln!(
            out,
            "  {} {}: {}",
            word(change.action(), args.dry_run),
            shown(change),
            change.why
        );
    }
    if args.undo && !plan.recorded {
        let _ = writeln!(
            out,
            "No record of a setup of {client} here: only hashedit's entries were taken out, nothing restored byte for byte."
        );
    }
    if !plan.limits.is_empty() {
        let _ = writeln!(out, "Not done:");
        for limit in &plan.limits {
            let _ = writeln!(out, "  - {limit}");
        }
    }
    if args.dry_run {
        let _ = writeln!(out, "Dry run: nothing was written.");
    } else if !args.undo {
        let scope = match args.scope {
            ScopeName::Project => "",
            ScopeName::User => " --scope user",
        };
        let _ = writeln!(out, "Undo: hashedit setup {client}{scope} --undo");
    }
}

fn word(action: Action, dry_run: bool) -> &'static str {
    match (action, dry_run) {
        (Action::Create, false) => "created",
        (Action::Create, true) => "would create",
        (Action::Update, false) => "updated",
        (Action::Update, true) => "would update",
        (Action::Delete, false) => "deleted",
        (Action::Delete, true) => "would delete",
        (Action::Keep, _) => "unchanged",
    }
}

fn fail(message: &str, json_output: bool) -> u8 {
    if json_output {
        let value = json!({"ok": false, "error": {"kind": "setup_error", "message": message}});
        let _ = writeln!(std::io::stdout().lock(), "{value}");
    } else {
        let _ = writeln!(std::io::stderr(), "hashedit: setup: {message}");
    }
    1
}
