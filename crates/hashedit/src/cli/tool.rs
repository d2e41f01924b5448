//! The six tool commands: each fills its tool's arguments from the flags
//! and runs it in a one-call session, under the snapshot registry
//! (FORMAT.md §8.3).

use std::path::PathBuf;

use hashedit_core::Surface;
use hashedit_tools::{
    EditArgs, EditFacts, EditMode, Facts, GlobArgs, ListDirArgs, Outcome, ReadFileArgs, Session,
    SnapshotMemory, ToolContext, ToolName, ToolResult, WriteArgs,
};

use super::args::{Cli, Command, path_text};
use super::input::{read_bounded_text, read_stdin_text, stdin_carries_input};
use super::progress::Progress;
use crate::registry::Registry;

/// What kind of text a successful command printed, for colouring.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Printed {
    Plain,
    Diff,
    /// grep or glob output: exit 1 when it matched nothing.
    Search,
}

/// Whether a grep or glob outcome matched nothing.
pub(super) fn found_nothing(outcome: &Outcome) -> bool {
    match &outcome.facts {
        Facts::Grep(grep) => grep.files_matched == 0,
        Facts::Glob(glob) => glob.count == 0,
        _ => false,
    }
}

/// Runs the command. The outer `Err` is a usage problem (exit 2).
pub(super) fn execute(cli: Cli) -> Result<ToolResult<(Outcome, Printed)>, String> {
    let ws = cli.workspace()?;
    let blocks = hashedit_blocks::TreeSitterBlocks::new();
    // Fingerprints served by earlier calls, so a 16-bit tag collision is
    // caught across processes (FORMAT.md §6.1) and a write replaces only
    // a file an earlier call read (§6.7); only edit and write consult
    // them. One process serves one call, so no served text is kept.
    let session = Session::with_memory(SnapshotMemory::FingerprintsOnly);
    let registry = Registry::from_env();
    let loaded = match (&registry, cli.command.tool()) {
        (Some(registry), Some(ToolName::Edit | ToolName::Write)) => registry.load_into(&session),
        _ => Vec::new(),
    };
    let generation = session.generation();
    // Under --json the text is the one a model gets over MCP (FORMAT.md
    // §8.3); otherwise it names the CLI's commands and flags.
    let surface = if cli.json { Surface::Mcp } else { Surface::Cli };
    let cx = ToolContext::new(&ws)
        .with_blocks(&blocks)
        .with_session(&session)
        .with_surface(surface);
    let progress = match &cli.command {
        Command::Grep(_) => Progress::start("grep"),
        Command::Glob { .. } => Progress::start("glob"),
        Command::Write { .. } => Progress::start("write"),
        Command::Edit { .. } => Progress::start("edit"),
        _ => None,
    };
    let result = run_tool(&cx, cli.command);
    drop(progress);
    let result = result?;
    if let Some(registry) = &registry
        && session.generation() != generation
        && let Err(error) = registry.save(&session, &loaded)
    {
        // An unusable registry weakens the cross-call collision check: say so.
        eprintln!(
            "hashedit: warning: cannot update the snapshot registry {}: {error}. Tags are still checked, \
             but without the fingerprints of earlier calls; set HASHEDIT_REGISTRY to the path of a file \
             hashedit may create or write, or to off to do without it",
            registry.path().display()
        );
    }
    Ok(result)
}

/// Runs one tool command in `cx`. The outer `Err` is a usage problem.
fn run_tool(cx: &ToolContext, command: Command) -> Result<ToolResult<(Outcome, Printed)>, String> {
    let plain = |r: ToolResult<Outcome>| r.map(|o| (o, Printed::Plain));
    let search = |r: ToolResult<Outcome>| r.map(|o| (o, Printed::Search));
    Ok(match command {
        Command::Read {
            path,
            offset,
            limit,
        } => {
            let path = path_text(&path);
            plain(hashedit_tools::read_file(
                cx,
                &ReadFileArgs {
                    path,
                    offset,
                    limit,
                },
            ))
        }
        Command::Grep(flags) => search(hashedit_tools::grep(cx, &flags.into_args())),
        Command::Glob {
            pattern,
            path,
            hidden,
            no_ignore,
            max_results,
        } => search(hashedit_tools::glob(
            cx,
            &GlobArgs {
                pattern,
                path: path.as_deref().map(path_text),
                include_hidden: Some(hidden),
                no_ignore: Some(no_ignore),
                max_results,
            },
        )),
        Command::Ls { path, hidden } => plain(hashedit_tools::list_dir(
            cx,
            &ListDirArgs {
                path: path.as_deref().map_or_else(|| ".".into(), path_text),
                include_hidden: Some(hidden),
            },
        )),
        Command::Write { path, tag, force } => {
            let content = match read_stdin_text(ToolName::Write)? {
                Ok(content) => content,
                Err(error) => return Ok(Err(error)),
            };
            let path = path_text(&path);
            let force = Some(force);
            plain(hashedit_tools::write(
                cx,
                &WriteArgs {
                    path,
                    content,
                    tag,
                    force,
                },
            ))
        }
        Command::Edit {
            input,
            dry_run,
            force,
        } => run_edit(cx, input, dry_run, force)?,
        Command::Mcp { .. }
        | Command::Setup(_)
        | Command::Completions { .. }
        | Command::Man { .. } => {
            unreachable!("run() handles `mcp`, `setup`, `completions` and `man` before tools")
        }
    })
}

/// Runs `edit` on the document from `input` (a file) or stdin. The outer
/// `Err` is a usage problem.
fn run_edit(
    cx: &ToolContext,
    input: Option<PathBuf>,
    dry_run: bool,
    force: bool,
) -> Result<ToolResult<(Outcome, Printed)>, String> {
    let document = match input {
        Some(file) => {
            let source = file.display().to_string();
            if stdin_carries_input() {
                return Err(format!(
                    "edit was given two documents: --input {source} and another on stdin; nothing was \
                     written. Give one: drop --input to edit with what stdin carries, or stop piping into \
                     stdin (e.g. `hashedit edit --input {source} < /dev/null`)"
                ));
            }
            let opened =
                std::fs::File::open(&file).map_err(|e| format!("cannot read {source}: {e}"))?;
            read_bounded_text(opened, &source, ToolName::Edit)?
        }
        None => read_stdin_text(ToolName::Edit)?,
    };
    let document = match document {
        Ok(document) => document,
        Err(error) => return Ok(Err(error)),
    };
    let mode = if dry_run {
        EditMode::DryRun
    } else {
        EditMode::Apply
    };
    Ok(hashedit_tools::edit(
        cx,
        &EditArgs {
            input: document,
            force: Some(force),
        },
        mode,
    )
    .map(|mut o| {
        if !dry_run {
            warn_dropped_registers(&mut o);
        }
        let printed = if dry_run {
            Printed::Diff
        } else {
            Printed::Plain
        };
        (o, printed)
    }))
}

/// Named registers live for an MCP session, but a CLI call is its own
/// session: lines cut into a register the same document never pasted are
/// gone when the process exits. Says so, naming them (FORMAT.md §5.5).
fn warn_dropped_registers(outcome: &mut Outcome) {
    let Facts::Edit(EditFacts {
        unpasted_registers: Some(unpasted),
        ..
    }) = &outcome.facts
    else {
        return;
    };
    let held: Vec<String> = unpasted
        .iter()
        .map(|register| {
            let lines = register.lines;
            let s = if lines == 1 { "" } else { "s" };
            format!("@{} ({lines} line{s})", register.name)
        })
        .collect();
    if held.is_empty() {
        return;
    }
    let (was, is) = if held.len() == 1 {
        ("was", "is")
    } else {
        ("were", "are")
    };
    outcome.text.push_str(&format!(
        "\nwarning: {} {was} never pasted and {is} not kept after this command: the CLI keeps named \
         registers only within one document (the MCP server keeps them for its session); CUT and PUT them \
         in the same document",
        held.join(", ")
    ));
}
