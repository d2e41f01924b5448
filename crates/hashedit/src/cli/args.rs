//! The command line's definitions: global flags, one subcommand per tool
//! and the others, and the value parsers (FORMAT.md §8.3).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use hashedit_core::TagScheme;
use hashedit_tools::{ContextLines, GrepArgs, OutputMode, Protection, ToolName, Workspace};

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
pub(super) struct Cli {
    /// Workspace root: no path may leave it (default: current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub(super) root: Option<PathBuf>,
    /// Snapshot tag scheme.
    #[arg(long, global = true, value_enum, default_value_t = Scheme::Rho)]
    pub(super) tag_scheme: Scheme,
    /// Output budget for successful replies, in bytes.
    #[arg(long, global = true, value_name = "N", default_value_t = hashedit_core::DEFAULT_MAX_OUTPUT_BYTES)]
    pub(super) max_output_bytes: usize,
    /// Print one JSON object: {"ok","text","data"} or {"ok","error":{"kind","message"}}.
    #[arg(long, global = true)]
    pub(super) json: bool,
    /// Also refuse writes and edits to paths matching GLOB (repeatable; a
    /// glob without '/' matches a name at any depth).
    #[arg(long, global = true, value_name = "GLOB")]
    pub(super) protect: Vec<String>,
    /// Allow writes and edits inside .git/, .hg/, .svn/ and .jj/ (refused
    /// by default: a hook or config written there can run code).
    #[arg(long, global = true)]
    pub(super) allow_protected: bool,
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum Scheme {
    /// FNV-1a 32 over trimmed lines (Rho).
    Rho,
    /// xxHash32 over BOM-less, LF-normalised, trimmed text (oh-my-pi).
    Omp,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum Mode {
    /// `[path#TAG]` headers and `N | text` rows.
    Content,
    /// One path per matching file.
    #[value(name = "files_with_matches")]
    FilesWithMatches,
    /// `path:count` per matching file.
    Count,
}

#[derive(Debug, Subcommand)]
pub(super) enum Command {
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
    Grep(GrepFlags),
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
        /// Replace the existing file only if it still has this snapshot
        /// tag (needed when no earlier call read it).
        #[arg(long)]
        tag: Option<String>,
        /// Write as sent: over an existing file no earlier call read, or
        /// content that looks like pasted read output (N:text rows).
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
    Setup(super::setup::SetupArgs),
}

/// `grep`'s flags.
#[derive(Debug, Args)]
pub(super) struct GrepFlags {
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
}

impl GrepFlags {
    /// The tool's arguments these flags say.
    pub(super) fn into_args(self) -> GrepArgs {
        GrepArgs {
            path: self.path.as_deref().map(path_text),
            pattern: self.pattern,
            glob: None,
            more_globs: self.glob,
            context: ContextLines {
                before: self.before_context.or(self.context).unwrap_or(0),
                after: self.after_context.or(self.context).unwrap_or(0),
            },
            no_ignore: Some(self.no_ignore),
            literal: Some(self.literal),
            case_sensitive: Some(!self.ignore_case),
            include_hidden: Some(self.hidden),
            max_results: self.max_results,
            max_per_file: self.max_per_file,
            output_mode: Some(match self.output_mode {
                Mode::Content => OutputMode::Content,
                Mode::FilesWithMatches => OutputMode::FilesWithMatches,
                Mode::Count => OutputMode::Count,
            }),
        }
    }
}

/// `edit --help`: the document format in one screen (FORMAT.md §5).
pub(super) const EDIT_HELP: &str = "\
Apply a hashline edit document (stdin or --input); all or nothing: on any error nothing is written.

  [src/app.py#A1B2]   a section: path and TAG from the latest read/grep/edit/write header
  PUT 2:              replace line 2 with the + rows below it
  +print(\"hi\")
  PUT 4.=6:           replace lines 4..6 (also 4-6, 4..6) with the + rows below it
  PUT <1:             insert rows before line 1 (PUT >7: after line 7, PUT >$: at the end)
  CUT 9.=10           delete lines 9..10 (no colon, no rows)
  PUT 12*:            replace the block (function, class...) on line 12; CUT 30* deletes one
  SUB 14:             replace the - text, found exactly once in line 14, by the + rows
  -count > 10         (SUB 14.=16: within lines 14..16, SUB: anywhere); whole lines restated
  +count >= 10        as - rows make a range one line off fail closed
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
    pub(super) fn tool(&self) -> Option<ToolName> {
        match self {
            Command::Read { .. } => Some(ToolName::ReadFile),
            Command::Grep(_) => Some(ToolName::Grep),
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

impl Cli {
    /// The workspace the global flags describe. `Err` is a usage problem.
    pub(super) fn workspace(&self) -> Result<Workspace, String> {
        let root = match &self.root {
            Some(root) => root.clone(),
            None => std::env::current_dir()
                .map_err(|e| format!("cannot determine the current directory: {e}"))?,
        };
        let scheme = match self.tag_scheme {
            Scheme::Rho => TagScheme::Rho,
            Scheme::Omp => TagScheme::Omp,
        };
        if self.max_output_bytes == 0 {
            return Err("--max-output-bytes must be at least 1".into());
        }
        let mut protection = Protection::with_globs(&self.protect).map_err(|e| e.message)?;
        if self.allow_protected {
            protection = protection.without_defaults();
        }
        match Workspace::new(&root) {
            Ok(ws) => Ok(ws
                .with_tag_scheme(scheme)
                .with_max_output_bytes(self.max_output_bytes)
                .with_protection(protection)),
            // The workspace's message already names the root it was given.
            Err(e) => Err(e.message),
        }
    }

    /// The server flags given on this command line (those that change
    /// something: not a default), as `hashedit mcp` takes them; `hashedit
    /// setup` puts them in the command line it registers.
    pub(super) fn server_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        if let Scheme::Omp = self.tag_scheme {
            flags.extend(["--tag-scheme".into(), "omp".into()]);
        }
        if self.max_output_bytes != hashedit_core::DEFAULT_MAX_OUTPUT_BYTES {
            flags.extend([
                "--max-output-bytes".into(),
                self.max_output_bytes.to_string(),
            ]);
        }
        for glob in &self.protect {
            flags.extend(["--protect".into(), glob.clone()]);
        }
        if self.allow_protected {
            flags.push("--allow-protected".into());
        }
        flags
    }
}

/// `read --offset`: a line number, 1-based (FORMAT.md §4.2), so a 0 is a
/// usage error (exit 2) like every other flag value out of range.
pub(super) fn line_number(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err("line numbers start at 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `read --limit`: a number of rows, at least 1 (FORMAT.md §4.2).
pub(super) fn row_count(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err("a window shows at least 1 row".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// A cap flag's value: a whole number of at least 1, as the MCP schema
/// asks of `max_results` and `max_per_file` (FORMAT.md §4.3), so a 0 is a
/// usage error instead of a cap silently raised to 1.
pub(super) fn at_least_one(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err("the cap must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// A path argument as the tools take it: the text itself, or, for bytes
/// that are not UTF-8 (a raw `caf\xE9.txt` from the shell), each stray
/// byte carried as the tools carry it (FORMAT.md §8.5), so the raw name and
/// the quoted `"caf\xe9.txt"` that `ls` prints name the same file.
pub(super) fn path_text(path: &std::ffi::OsStr) -> String {
    hashedit_tools::os_to_raw(path).into_owned()
}
