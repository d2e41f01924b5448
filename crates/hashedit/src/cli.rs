//! Command-line parsing and output (FORMAT.md §8.3).

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use hashedit_core::{Surface, TagScheme};
use hashedit_tools::{
    ContextLines, EditArgs, EditFacts, EditMode, ErrorKind, Facts, GlobArgs, GrepArgs, ListDirArgs,
    Outcome, OutputMode, Protection, ReadFileArgs, Session, SnapshotMemory, ToolContext, ToolError,
    ToolName, ToolResult, Workspace, WriteArgs,
};
use serde_json::json;

use crate::registry::Registry;

/// Exit status for a tool error (the tool ran and refused).
const EXIT_TOOL_ERROR: u8 = 1;
/// Exit status for a usage error (bad flags, unreadable input).
const EXIT_USAGE: u8 = 2;
/// Exit status of a grep or glob that matched nothing (as grep and rg).
const EXIT_NO_MATCH: u8 = 1;

#[derive(Debug, Parser)]
#[command(
    name = "hashedit",
    version,
    about = "Read, search and edit files with hashline snapshots: numbered rows under a [path#TAG] header, edited by PUT/CUT documents against the original line numbers.",
    after_help = "stdout carries the text a model would get, followed by a newline; errors go to stderr \
                  (under --json, the one JSON object goes to stdout either way).\n\
                  Exit status: 0 success (grep/glob: something matched), 1 tool error (stale tag, \
                  parse error, protected path, ...) or grep/glob matched nothing, 2 usage error."
)]
struct Cli {
    /// Workspace root: no path may leave it (default: current directory).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Snapshot tag scheme.
    #[arg(long, global = true, value_enum, default_value_t = Scheme::Rho)]
    tag_scheme: Scheme,
    /// Output budget for successful replies, in bytes.
    #[arg(long, global = true, value_name = "N", default_value_t = hashedit_core::DEFAULT_MAX_OUTPUT_BYTES)]
    max_output_bytes: usize,
    /// Print one JSON object: {"ok","text","data"} or {"ok","error":{"kind","message"}}.
    #[arg(long, global = true)]
    json: bool,
    /// Also refuse writes and edits to paths matching GLOB (repeatable; a
    /// glob without '/' matches a name at any depth).
    #[arg(long, global = true, value_name = "GLOB")]
    protect: Vec<String>,
    /// Allow writes and edits inside .git/, .hg/, .svn/ and .jj/ (refused
    /// by default: a hook or config written there can run code).
    #[arg(long, global = true)]
    allow_protected: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Scheme {
    /// FNV-1a 32 over trimmed lines (Rho).
    Rho,
    /// xxHash32 over BOM-less, LF-normalised, trimmed text (oh-my-pi).
    Omp,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Mode {
    /// `[path#TAG]` headers and `N | text` rows.
    Content,
    /// One path per matching file.
    #[value(name = "files_with_matches")]
    FilesWithMatches,
    /// `path:count` per matching file.
    Count,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show a file as numbered rows under its `[path#TAG]` header.
    Read {
        /// File to read.
        path: OsString,
        /// First line to show (1-based).
        #[arg(long, value_parser = line_number)]
        offset: Option<usize>,
        /// Most lines to show.
        #[arg(long, value_parser = row_count)]
        limit: Option<usize>,
    },
    /// Search file contents with a regular expression; hits carry `[path#TAG]` headers.
    Grep {
        /// Regular expression (Rust syntax), or literal text with --literal.
        pattern: String,
        /// Directory or file to search (default: the workspace root).
        path: Option<OsString>,
        /// Only files whose path matches this glob (repeatable; a leading '!'
        /// excludes, as in rg -g).
        #[arg(long, short = 'g', value_name = "GLOB")]
        glob: Vec<String>,
        /// Treat the pattern as literal text.
        #[arg(long, short = 'F', visible_alias = "fixed-strings")]
        literal: bool,
        /// Accepted for grep/rg habits: rows always carry line numbers.
        #[arg(short = 'n', long = "line-number")]
        line_number: bool,
        /// Show N lines after each match, as read rows (N:text).
        #[arg(short = 'A', long = "after-context", value_name = "N")]
        after_context: Option<usize>,
        /// Show N lines before each match, as read rows (N:text).
        #[arg(short = 'B', long = "before-context", value_name = "N")]
        before_context: Option<usize>,
        /// Show N lines before and after each match (-A and -B win over it).
        #[arg(short = 'C', long = "context", value_name = "N")]
        context: Option<usize>,
        /// Also search files that .gitignore/.ignore rules skip.
        #[arg(long)]
        no_ignore: bool,
        /// Ignore case.
        #[arg(short = 'i', long = "ignore-case")]
        ignore_case: bool,
        /// Include hidden files and directories.
        #[arg(long)]
        hidden: bool,
        /// Cap on results (lines in content mode, files otherwise).
        #[arg(long, value_parser = at_least_one)]
        max_results: Option<usize>,
        /// Cap on lines shown per file.
        #[arg(long, value_parser = at_least_one)]
        max_per_file: Option<usize>,
        /// What to print.
        #[arg(long, value_enum, default_value_t = Mode::Content)]
        output_mode: Mode,
    },
    /// List files matching a glob pattern.
    Glob {
        /// Glob pattern; without '/' it matches at any depth.
        pattern: String,
        /// Directory to search (default: the workspace root).
        path: Option<OsString>,
        /// Include hidden files and directories.
        #[arg(long)]
        hidden: bool,
        /// Also list files that .gitignore/.ignore rules skip.
        #[arg(long)]
        no_ignore: bool,
        /// Cap on paths listed.
        #[arg(long, value_parser = at_least_one)]
        max_results: Option<usize>,
    },
    /// List one directory's entries.
    Ls {
        /// Directory to list (default: the workspace root).
        path: Option<OsString>,
        /// Also list the unfinished .hashedit-*.tmp files a killed hashedit
        /// left (safe to delete).
        #[arg(long)]
        hidden: bool,
    },
    /// Create or replace a file with the content read from stdin.
    Write {
        /// File to write.
        path: OsString,
        /// Refuse unless the existing file still has this snapshot tag.
        #[arg(long)]
        tag: Option<String>,
        /// Write content that looks like pasted read output (N:text rows)
        /// exactly as sent.
        #[arg(long)]
        force: bool,
    },
    /// Apply a hashline edit document (from stdin or --input).
    #[command(long_about = EDIT_HELP)]
    Edit {
        /// Read the document from this file instead of stdin.
        #[arg(long, value_name = "FILE")]
        input: Option<PathBuf>,
        /// Print the unified diff and write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Write the document exactly as sent when a guard refused it (never
        /// past a stale tag, an overlap or a line out of range).
        #[arg(long)]
        force: bool,
    },
    /// Print a shell completion script (e.g. `hashedit completions bash > /etc/bash_completion.d/hashedit`).
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff), generated from these same definitions
    /// (e.g. `hashedit man > hashedit.1; man -l hashedit.1`).
    Man {
        /// The command whose page to print, hashedit-COMMAND(1) (default:
        /// hashedit(1) itself).
        command: Option<String>,
    },
    /// Serve the tools over MCP on stdin/stdout until stdin closes (see docs/MCP.md).
    ///
    /// Without --root the workspace is the client's first root (MCP roots),
    /// or the current directory when the client has none.
    Mcp {
        /// Offer only read_file, grep, glob and list_dir; refuse write and edit.
        #[arg(long)]
        read_only: bool,
        /// Also send each result's facts and text as structuredContent, with
        /// an outputSchema per tool (for harnesses; some clients then show
        /// the model only the structured value).
        #[arg(long)]
        structured_content: bool,
    },
    /// Make hashedit the file tools of an agent client: register the MCP
    /// server, hide the client's own file tools where it allows, add a short
    /// instruction block (see docs/SETUP.md).
    Setup(setup::SetupArgs),
}

/// `edit --help`: the document format in one screen (FORMAT.md §5).
const EDIT_HELP: &str = "\
Apply a hashline edit document (stdin or --input); all or nothing: on any error nothing is written.

  [src/app.py#A1B2]   a section: path and TAG from the latest read/grep/edit/write header
  PUT 2:              replace line 2 with the + rows below it
  +print(\"hi\")
  PUT 4.=6:           replace lines 4..6 (also 4-6, 4..6)
  +x = 1
  PUT <1:             insert before line 1 (PUT >7: after line 7, PUT >$: at the end)
  +#!/usr/bin/env python3
  CUT 9.=10           delete lines 9..10 (no colon, no rows)
  PUT 12*:            replace the block (function, class...) starting on line 12
  CUT 30*             delete the block starting on line 30
  REM                 delete the file (alone in its section); MV new/path.py moves it

Every body row starts with '+'; exactly one '+' is removed ('++x' writes '+x', a lone '+' writes
an empty line). Line numbers name the snapshot the tag identifies and never shift within a
document; put all ops for one file in one section. The reply's preview header chains into the
next edit without a re-read.

  printf '[notes.txt#89F7]\\nPUT 2:\\n+TWO\\n' | hashedit edit
  hashedit edit --dry-run --input change.hl    # print the diff, write nothing

A refusal says what to do: a 'try:' line is the fix to copy; --force writes a document a guard
refused exactly as sent (never past a stale tag, an overlap or a line out of range).
The whole format: docs/FORMAT.md.";

impl Command {
    /// The tool a subcommand runs; `None` for `mcp`, which serves them all.
    fn tool(&self) -> Option<ToolName> {
        match self {
            Command::Read { .. } => Some(ToolName::ReadFile),
            Command::Grep { .. } => Some(ToolName::Grep),
            Command::Glob { .. } => Some(ToolName::Glob),
            Command::Ls { .. } => Some(ToolName::ListDir),
            Command::Write { .. } => Some(ToolName::Write),
            Command::Edit { .. } => Some(ToolName::Edit),
            Command::Mcp { .. }
            | Command::Setup(_)
            | Command::Completions { .. }
            | Command::Man { .. } => None,
        }
    }
}

/// Runs the command line of this process ([`std::env::args_os`]) and
/// returns its exit status.
pub fn run() -> ExitCode {
    ExitCode::from(run_from(std::env::args_os()))
}

/// Runs one `hashedit` command line, `args[0]` being the program name, and
/// returns the exit status: 0 success, 1 tool error or no match, 2 usage
/// error (`--help` and `--version` print and return 0). Reads stdin and
/// writes stdout and stderr of this process, and flushes stdout before
/// returning, so a host that embeds it (the Python and Node packages'
/// `hashedit` command) loses no output when it exits. It exits the process
/// itself only on SIGINT, SIGTERM or SIGHUP, after removing unfinished temp
/// files, as the binary does.
pub fn run_from<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let json_output = asks_for_json(&args);
    let status = match Cli::try_parse_from(args) {
        Ok(cli) => run_parsed(cli),
        Err(error) if error.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            print_usage_error(NOT_UTF8_ARGUMENT, json_output);
            EXIT_USAGE
        }
        Err(error) if json_output && error.exit_code() == i32::from(EXIT_USAGE) => {
            let message = error.render().to_string();
            let message = message.trim_end();
            let message = message.strip_prefix("error: ").unwrap_or(message);
            print_usage_error(message, json_output);
            EXIT_USAGE
        }
        Err(error) => {
            let _ = error.print();
            u8::try_from(error.exit_code()).unwrap_or(EXIT_USAGE)
        }
    };
    let _ = std::io::stdout().flush();
    status
}

/// Whether a command line clap could not parse still asked for `--json`
/// (before any `--`), so that its usage error is a JSON object too.
fn asks_for_json(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|arg| *arg != "--")
        .any(|arg| arg == "--json")
}

/// A usage error (exit 2): `hashedit: MESSAGE` on stderr, or under
/// `--json` the error object every `--json` failure prints, on stdout,
/// with kind `usage_error` (FORMAT.md §8.3).
fn print_usage_error(message: &str, json_output: bool) {
    let _ = if json_output {
        let value = json!({"ok": false, "error": {"kind": "usage_error", "message": message}});
        writeln!(std::io::stdout().lock(), "{value}")
    } else {
        writeln!(std::io::stderr(), "hashedit: {message}")
    };
}

/// The usage error for an argument that is not UTF-8 where text is needed
/// (clap's own message does not say which arguments may hold such bytes).
const NOT_UTF8_ARGUMENT: &str = "an argument is not UTF-8 text. A path argument (of read, grep, glob, ls \
     or write) may hold any bytes, raw or in the quoted spelling ls prints (\"caf\\xe9.txt\"); a pattern, a \
     tag or another value must be UTF-8 text, as hashedit reads and searches UTF-8 files only";

/// Runs a parsed command line; returns the exit status.
fn run_parsed(cli: Cli) -> u8 {
    clean_up_on_signals();
    if let Some(code) = run_generator(&cli.command, cli.json) {
        return code;
    }
    if let Command::Setup(args) = &cli.command {
        return setup::run(args, &server_flags(&cli), cli.root.as_deref(), cli.json);
    }
    if let Command::Mcp {
        read_only,
        structured_content,
    } = cli.command
    {
        let options = hashedit_mcp::ServerOptions {
            read_only,
            structured_content: if structured_content {
                hashedit_mcp::StructuredContent::On
            } else {
                hashedit_mcp::StructuredContent::Off
            },
            // An explicit --root wins over whatever the client says.
            roots: if cli.root.is_some() {
                hashedit_mcp::RootPolicy::Fixed
            } else {
                hashedit_mcp::RootPolicy::Client
            },
            // The server lives across edits: each file's last tree is kept,
            // so the next syntax check or block lookup reparses only what
            // changed.
            blocks: Some(std::sync::Arc::new(
                hashedit_blocks::TreeSitterBlocks::new().with_tree_cache(),
            )),
            ..hashedit_mcp::ServerOptions::default()
        };
        return run_mcp(&cli, options);
    }
    let json_output = cli.json;
    let writes = Writes::of(&cli.command);
    match execute(cli) {
        Ok(Ok((outcome, kind))) => {
            if let Err(e) = print_success(&outcome, json_output, kind) {
                return output_failed(&e, writes);
            }
            if kind == Printed::Search && found_nothing(&outcome) {
                EXIT_NO_MATCH
            } else {
                0
            }
        }
        Ok(Err(error)) => {
            print_failure(&error, json_output);
            EXIT_TOOL_ERROR
        }
        Err(usage) => {
            print_usage_error(&usage, json_output);
            EXIT_USAGE
        }
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove the temp files of writes in
/// progress, then exit as the signal would (128 + its number). The
/// default action would leave a large write's hidden
/// `.hashedit-<16 hex>.tmp` behind (FORMAT.md §6.4). A handler that cannot
/// be installed leaves the default action in place.
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            hashedit_tools::remove_unfinished_temp_files();
            std::process::exit(128 + signal);
        }
    });
}

/// `completions` and `man`: text generated from the clap definitions,
/// printed on stdout; `None` for every other command.
fn run_generator(command: &Command, json_output: bool) -> Option<u8> {
    let mut definitions = <Cli as clap::CommandFactory>::command();
    let mut out = std::io::stdout().lock();
    let written = match command {
        Command::Completions { shell } => {
            // Generated into memory first: clap_complete panics when its
            // writer fails (`completions zsh | head -1` closes the pipe).
            let mut script = Vec::new();
            clap_complete::generate(*shell, &mut definitions, "hashedit", &mut script);
            out.write_all(&script)
        }
        Command::Man { command } => match man_page(command.as_deref()) {
            Ok(page) => clap_mangen::Man::new(page).render(&mut out),
            Err(message) => {
                print_usage_error(&message, json_output);
                return Some(EXIT_USAGE);
            }
        },
        _ => return None,
    };
    Some(match written.and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) => output_failed(&e, Writes::Nothing),
    })
}

/// The definitions manual pages are generated from: the command line
/// without clap's `help` subcommand, which has no page of its own (`-h`
/// and `--help` stay), so the SUBCOMMANDS section of hashedit(1) names
/// exactly the pages `man` prints.
fn man_definitions() -> clap::Command {
    let mut definitions = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    definitions.build();
    definitions
}

/// The COMMAND names `hashedit man COMMAND` has a page for, in the order
/// hashedit(1) lists them.
fn man_page_names() -> Vec<String> {
    man_definitions()
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect()
}

/// The manual page to render: hashedit(1), or hashedit-COMMAND(1) for
/// `name`. `Err` is the usage error for a name with no page, listing those
/// that have one.
fn man_page(name: Option<&str>) -> Result<clap::Command, String> {
    let definitions = man_definitions();
    let Some(name) = name else {
        return Ok(definitions);
    };
    match definitions.find_subcommand(name) {
        Some(sub) => Ok(sub
            .clone()
            .name(format!("hashedit-{name}"))
            .version(env!("CARGO_PKG_VERSION"))),
        None => Err(format!(
            "man: no page for '{name}'; the pages are hashedit (no argument) and {}",
            man_page_names().join(", ")
        )),
    }
}

/// Whether a command changes files, so that a failure to print its reply
/// must not read as a failure of the change itself.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Writes {
    Nothing,
    Files,
}

impl Writes {
    fn of(command: &Command) -> Writes {
        match command {
            Command::Write { .. } | Command::Edit { dry_run: false, .. } => Writes::Files,
            _ => Writes::Nothing,
        }
    }
}

/// The exit status when stdout could not take the reply. A reader that
/// closed the pipe (`| head`) wanted no more, as for grep and rg: quiet
/// success. Any other failure (a full disk) is said on stderr, exit 1,
/// never a silent 0 with the output lost.
fn output_failed(error: &std::io::Error, writes: Writes) -> u8 {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        return 0;
    }
    let done = match writes {
        Writes::Files => "; the change itself was made (read the file to see it)",
        Writes::Nothing => "",
    };
    let _ = writeln!(
        std::io::stderr(),
        "hashedit: cannot write the output: {error}{done}"
    );
    EXIT_TOOL_ERROR
}

/// `read --offset`: a line number, 1-based (FORMAT.md §4.2), so a 0 is a
/// usage error (exit 2) like every other flag value out of range.
fn line_number(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err("line numbers start at 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `read --limit`: a number of rows, at least 1 (FORMAT.md §4.2).
fn row_count(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err("a window shows at least 1 row".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// A cap flag's value: a whole number of at least 1, as the MCP schema
/// asks of `max_results` and `max_per_file` (FORMAT.md §4.3), so a 0 is a
/// usage error instead of a cap silently raised to 1.
fn at_least_one(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err("the cap must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// What kind of text a successful command printed, for colouring.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Printed {
    Plain,
    Diff,
    /// grep or glob output: exit 1 when it matched nothing.
    Search,
}

/// Whether a grep or glob outcome matched nothing.
fn found_nothing(outcome: &Outcome) -> bool {
    match &outcome.facts {
        Facts::Grep(grep) => grep.files_matched == 0,
        Facts::Glob(glob) => glob.count == 0,
        _ => false,
    }
}

/// The workspace the global flags describe. `Err` is a usage problem.
fn workspace(cli: &Cli) -> Result<Workspace, String> {
    let root = match &cli.root {
        Some(root) => root.clone(),
        None => std::env::current_dir()
            .map_err(|e| format!("cannot determine the current directory: {e}"))?,
    };
    let scheme = match cli.tag_scheme {
        Scheme::Rho => TagScheme::Rho,
        Scheme::Omp => TagScheme::Omp,
    };
    if cli.max_output_bytes == 0 {
        return Err("--max-output-bytes must be at least 1".into());
    }
    let mut protection = Protection::with_globs(&cli.protect).map_err(|e| e.message)?;
    if cli.allow_protected {
        protection = protection.without_defaults();
    }
    match Workspace::new(&root) {
        Ok(ws) => Ok(ws
            .with_tag_scheme(scheme)
            .with_max_output_bytes(cli.max_output_bytes)
            .with_protection(protection)),
        // The workspace's message already names the root it was given.
        Err(e) => Err(e.message),
    }
}

/// The server flags given on this command line (those that change
/// something: not a default), as `hashedit mcp` takes them; `hashedit
/// setup` puts them in the command line it registers.
fn server_flags(cli: &Cli) -> Vec<String> {
    let mut flags = Vec::new();
    if let Scheme::Omp = cli.tag_scheme {
        flags.extend(["--tag-scheme".into(), "omp".into()]);
    }
    if cli.max_output_bytes != hashedit_core::DEFAULT_MAX_OUTPUT_BYTES {
        flags.extend([
            "--max-output-bytes".into(),
            cli.max_output_bytes.to_string(),
        ]);
    }
    for glob in &cli.protect {
        flags.extend(["--protect".into(), glob.clone()]);
    }
    if cli.allow_protected {
        flags.push("--allow-protected".into());
    }
    flags
}

/// What `hashedit mcp` says on stderr when stdin is a terminal.
const MCP_ON_A_TERMINAL: &str = "\
hashedit mcp: waiting for an MCP client on stdin (JSON-RPC, one message per line); press Ctrl-D to stop.
An agent client starts this command itself. To connect one, run in your project:
  hashedit setup claude-code    (or codex, gemini, opencode, cursor, zed, vscode; see docs/SETUP.md)";

/// `hashedit mcp`: serves MCP on stdio until stdin closes. The tokio
/// runtime exists only for this subcommand.
fn run_mcp(cli: &Cli, options: hashedit_mcp::ServerOptions) -> u8 {
    let fail = |message: String| {
        let _ = writeln!(std::io::stderr(), "hashedit: {message}");
    };
    let ws = match workspace(cli) {
        Ok(ws) => ws,
        Err(usage) => {
            fail(usage);
            return EXIT_USAGE;
        }
    };
    if std::io::stdin().is_terminal() {
        // Someone typed `hashedit mcp`: say what it waits for. Piped, as a
        // client starts it, stderr stays quiet.
        let _ = writeln!(std::io::stderr(), "{MCP_ON_A_TERMINAL}");
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            fail(format!("cannot start the async runtime: {e}"));
            return EXIT_TOOL_ERROR;
        }
    };
    let served = runtime.block_on(hashedit_mcp::serve_stdio(ws, options));
    // Tool calls still running finish on their own (writes are atomic);
    // do not wait on them, or on a stdin read, forever.
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    match served {
        Ok(()) => 0,
        Err(e) => {
            fail(e.to_string());
            EXIT_TOOL_ERROR
        }
    }
}

/// Runs the command. The outer `Err` is a usage problem (exit 2).
fn execute(cli: Cli) -> Result<ToolResult<(Outcome, Printed)>, String> {
    let ws = workspace(&cli)?;
    let blocks = hashedit_blocks::TreeSitterBlocks::new();
    // Fingerprints served by earlier calls, so a 16-bit tag collision is
    // caught across processes (FORMAT.md §3.5). Only edit consults
    // them (its tag check); the other commands only add what they serve.
    // One process serves one call: no later edit of this session could
    // rebase on a served text, so none is kept.
    let session = Session::with_memory(SnapshotMemory::FingerprintsOnly);
    let registry = Registry::from_env();
    let loaded = match &registry {
        Some(registry) if cli.command.tool() == Some(ToolName::Edit) => {
            registry.load_into(&session)
        }
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
        Command::Grep { .. } => progress::Progress::start("grep"),
        Command::Glob { .. } => progress::Progress::start("glob"),
        Command::Write { .. } => progress::Progress::start("write"),
        Command::Edit { .. } => progress::Progress::start("edit"),
        _ => None,
    };
    let result = run_tool(&cx, cli.command);
    drop(progress);
    let result = result?;
    if let Some(registry) = &registry
        && session.generation() != generation
        && let Err(error) = registry.save(&session, &loaded)
    {
        // Tester report: an unusable registry was ignored without a word,
        // which silently weakens the cross-call collision check.
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
        } => plain(hashedit_tools::read_file(
            cx,
            &ReadFileArgs {
                path: path_text(&path),
                offset,
                limit,
            },
        )),
        Command::Grep {
            pattern,
            path,
            glob,
            literal,
            line_number: _,
            after_context,
            before_context,
            context,
            no_ignore,
            ignore_case,
            hidden,
            max_results,
            max_per_file,
            output_mode,
        } => search(hashedit_tools::grep(
            cx,
            &GrepArgs {
                pattern,
                path: path.as_deref().map(path_text),
                glob: None,
                more_globs: glob,
                context: ContextLines {
                    before: before_context.or(context).unwrap_or(0),
                    after: after_context.or(context).unwrap_or(0),
                },
                no_ignore: Some(no_ignore),
                literal: Some(literal),
                case_sensitive: Some(!ignore_case),
                include_hidden: Some(hidden),
                max_results,
                max_per_file,
                output_mode: Some(match output_mode {
                    Mode::Content => OutputMode::Content,
                    Mode::FilesWithMatches => OutputMode::FilesWithMatches,
                    Mode::Count => OutputMode::Count,
                }),
            },
        )),
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
            unreachable!(
                "run() handles `mcp`, `setup`, `completions` and `man` before executing tools"
            )
        }
    })
}

/// A path argument as the tools take it: the text itself, or, for bytes
/// that are not UTF-8 (a raw `caf\xE9.txt` from the shell), each stray
/// byte carried as the tools carry it (FORMAT.md §8.5), so the raw name and
/// the quoted `"caf\xe9.txt"` that `ls` prints name the same file.
fn path_text(path: &std::ffi::OsStr) -> String {
    hashedit_tools::os_to_raw(path).into_owned()
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

/// Whether stdin holds input already, checked without blocking: a
/// non-empty file redirected in, or a pipe or socket with bytes waiting (a
/// byte is read to tell them from an end of input). A terminal, an empty
/// or closed pipe, `/dev/null`, or a pipe whose writer has sent nothing yet
/// count as no input.
fn stdin_carries_input() -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use std::os::fd::AsFd;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return false;
    }
    let fd = stdin.as_fd();
    if let Ok(stat) = rustix::fs::fstat(fd)
        && rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::RegularFile
    {
        let at = rustix::fs::seek(fd, rustix::fs::SeekFrom::Current(0)).unwrap_or(0);
        return u64::try_from(stat.st_size).unwrap_or(0) > at;
    }
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    if !matches!(poll(&mut fds, Some(&now)), Ok(n) if n > 0)
        || !fds[0].revents().contains(PollFlags::IN)
    {
        return false;
    }
    let mut byte = [0u8; 1];
    matches!(stdin.lock().read(&mut byte), Ok(n) if n > 0)
}

/// Named registers live for an MCP session, but a CLI call is its own
/// session: lines cut into a register the same document never pasted are
/// gone when the process exits. Says so, naming them (tester report: the
/// next call's "register holds nothing" was the first sign).
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

/// Largest input the CLI reads from stdin or `--input` (bytes). `write`
/// refuses larger content anyway, and an edit document has no use for more
/// than the largest file `edit` loads. Reading stops one byte past the
/// limit, so an endless source (`/dev/zero`, a runaway pipe) costs bounded
/// memory and time instead of growing the process without end.
const MAX_INPUT_BYTES: u64 = hashedit_tools::EDIT_MAX_BYTES;

/// Reads `command`'s input from stdin (see [`read_bounded_text`]).
fn read_stdin_text(command: ToolName) -> Result<ToolResult<String>, String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(format!(
            "{command} reads its input from stdin; pipe it in (e.g. `hashedit {command} ... < file`)"
        ));
    }
    read_bounded_text(stdin.lock(), "stdin", command)
}

/// Reads at most [`MAX_INPUT_BYTES`] of UTF-8 text from `reader` (named
/// `source` in messages). More input is a tool error of kind `too_large`
/// (nothing was written); non-UTF-8 input is a tool error of kind
/// `not_utf8`; an unreadable source is a usage error.
fn read_bounded_text(
    reader: impl Read,
    source: &str,
    command: ToolName,
) -> Result<ToolResult<String>, String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {source}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Ok(Err(ToolError::new(
            ErrorKind::TooLarge,
            format!(
                "the input of {command} on {source} is more than {MAX_INPUT_BYTES} bytes, over the {MAX_INPUT_BYTES}-byte limit; nothing was written"
            ),
        )));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Ok(text)),
        // A tool error, not a usage error: `--json` callers get the usual
        // error object, and the exit code says "refused" (1), not "misused".
        Err(error) => {
            let at = error.utf8_error().valid_up_to();
            let hint = match command {
                ToolName::Edit => raw_byte_in_header_hint(error.as_bytes(), at),
                _ => String::new(),
            };
            Ok(Err(ToolError::new(
                ErrorKind::NotUtf8,
                format!(
                    "the input of {command} on {source} is not UTF-8 text (first bad byte at offset \
                     {at}); nothing was written. Send it as UTF-8{hint}"
                ),
            )))
        }
    }
}

/// For an edit document whose first bad byte is on a `[…]` header line:
/// how a file name that is not UTF-8 is spelled there (FORMAT.md §8.5),
/// since the likely cause is a `\xNN` a shell's `printf` turned into the
/// raw byte.
fn raw_byte_in_header_hint(bytes: &[u8], at: usize) -> String {
    let line_start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    if bytes.get(line_start) != Some(&b'[') {
        return String::new();
    }
    let line = bytes[..line_start].iter().filter(|&&b| b == b'\n').count() + 1;
    format!(
        ". The byte is in the header on document line {line}: a file name that is not UTF-8 is written \
         as read and ls print it, quoted with each stray byte as \\xNN (\"caf\\xe9.txt\"); a shell's \
         printf turns \\xNN in its format into the raw byte, so pass the header as an argument \
         (printf '%s\\n' \"$header\")"
    )
}

fn print_success(outcome: &Outcome, json_output: bool, printed: Printed) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let written = if json_output {
        let value = json!({"ok": true, "text": outcome.text, "data": outcome.structured()});
        writeln!(out, "{value}")
    } else if printed == Printed::Diff {
        if use_color() {
            write!(out, "{}", colorize_diff(&outcome.text))
        } else {
            write!(out, "{}", outcome.text)
        }
    } else {
        let text = &outcome.text;
        if text.ends_with('\n') || text.is_empty() {
            write!(out, "{text}")
        } else {
            writeln!(out, "{text}")
        }
    };
    written.and_then(|()| out.flush())
}

/// A tool error: the message on stderr (stdout carries results only, as
/// grep and git do), or under `--json` the error object on stdout, where a
/// program reads the one object every call prints.
fn print_failure(error: &ToolError, json_output: bool) {
    let _ = if json_output {
        let value = json!({"ok": false, "error": {"kind": error.kind, "message": error.message}});
        writeln!(std::io::stdout().lock(), "{value}")
    } else {
        writeln!(std::io::stderr().lock(), "{}", error.message)
    };
}

/// Colour only on a terminal, and never when NO_COLOR is set.
fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Colours a unified diff: headers bold, hunk headers cyan, additions
/// green, removals red.
fn colorize_diff(diff: &str) -> String {
    const RESET: &str = "\x1b[0m";
    let mut out = String::with_capacity(diff.len() + diff.len() / 4);
    for line in diff.split_inclusive('\n') {
        let color = if line.starts_with("+++") || line.starts_with("---") {
            "\x1b[1m"
        } else if line.starts_with("@@") {
            "\x1b[36m"
        } else if line.starts_with('+') {
            "\x1b[32m"
        } else if line.starts_with('-') {
            "\x1b[31m"
        } else {
            ""
        };
        if color.is_empty() {
            out.push_str(line);
        } else {
            let (body, newline) = match line.strip_suffix('\n') {
                Some(body) => (body, "\n"),
                None => (line, ""),
            };
            out.push_str(color);
            out.push_str(body);
            out.push_str(RESET);
            out.push_str(newline);
        }
    }
    out
}

mod progress;
mod setup;

#[cfg(test)]
mod tests;
