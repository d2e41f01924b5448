//! Tool arguments: the JSON shapes of reference-rho.md §3–§7 and §9.
//!
//! These structs are the single source of the tools' input schemas (via
//! `schemars`) for the MCP server, and the CLI fills them from its flags.
//! Field names, types and requiredness match Rho's tools so a harness can
//! swap one for the other.

use schemars::JsonSchema;
use serde::Deserialize;

/// `read_file` arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct ReadFileArgs {
    /// File to read: relative to the workspace root, or absolute inside it.
    pub path: String,
    /// First line to show (1-based); the tag still covers the whole file.
    #[schemars(range(min = 1))]
    pub offset: Option<usize>,
    /// Most lines to show.
    #[schemars(range(min = 1))]
    pub limit: Option<usize>,
}

/// `grep` arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct GrepArgs {
    /// Regular expression (Rust regex syntax), or a literal with `literal`.
    pub pattern: String,
    /// Directory or file to search; the workspace root by default.
    pub path: Option<String>,
    /// Only search files whose path (relative to `path`) matches this glob.
    pub glob: Option<String>,
    /// Treat `pattern` as literal text.
    pub literal: Option<bool>,
    /// Match case exactly (default true).
    pub case_sensitive: Option<bool>,
    /// Also search hidden files and directories.
    pub include_hidden: Option<bool>,
    /// Cap on results: matching lines in content mode, files otherwise
    /// (default 200).
    #[schemars(range(min = 1))]
    pub max_results: Option<usize>,
    /// Cap on matching lines shown per file (default 10).
    #[schemars(range(min = 1))]
    pub max_per_file: Option<usize>,
    /// `content` (default), `files_with_matches` or `count`.
    pub output_mode: Option<OutputMode>,
    /// Also search files that ignore rules (`.gitignore`, `.ignore`, git
    /// excludes) skip (default false; FORMAT.md §8.1).
    pub no_ignore: Option<bool>,
    /// More path globs, each like `glob` (a leading `!` excludes): a file
    /// is searched when it matches every `!` glob's negation and, if any
    /// positive glob is given (here or in `glob`), at least one of them.
    /// The CLI's repeated `--glob`; not part of the MCP schema.
    #[serde(skip)]
    #[schemars(skip)]
    pub more_globs: Vec<String>,
    /// Lines of context shown around each match in content mode, as read
    /// rows (`N:text`). The CLI's `-B`/`-A`/`-C`; not part of the MCP
    /// schema.
    #[serde(skip)]
    #[schemars(skip)]
    pub context: ContextLines,
}

/// Lines of context around a grep match: `before` lines above it and
/// `after` below (both 0 by default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContextLines {
    /// Lines shown before each match.
    pub before: usize,
    /// Lines shown after each match.
    pub after: usize,
}

/// How grep reports matches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    /// `[path#TAG]` headers and `N | text` rows.
    #[default]
    Content,
    /// One path per matching file.
    FilesWithMatches,
    /// `path:count` per matching file.
    Count,
}

impl std::str::FromStr for OutputMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "content" => Ok(OutputMode::Content),
            "files_with_matches" => Ok(OutputMode::FilesWithMatches),
            "count" => Ok(OutputMode::Count),
            other => Err(format!(
                "unknown output_mode '{other}': use content, files_with_matches or count"
            )),
        }
    }
}

/// `glob` arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct GlobArgs {
    /// Glob pattern; one without `/` matches at any depth (`*.rs`).
    pub pattern: String,
    /// Directory to search; the workspace root by default.
    pub path: Option<String>,
    /// Also list hidden files and directories.
    pub include_hidden: Option<bool>,
    /// Cap on paths listed (default 200).
    #[schemars(range(min = 1))]
    pub max_results: Option<usize>,
    /// Also list files that ignore rules skip (default false).
    pub no_ignore: Option<bool>,
}

/// `list_dir` arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct ListDirArgs {
    /// Directory to list, relative to the workspace root or absolute inside it.
    pub path: String,
    /// Also list hashedit's unfinished temp files (`.hashedit-<16
    /// hex>.tmp`) that a killed process left. The CLI's `ls --hidden`; not
    /// part of the MCP schema.
    #[serde(skip)]
    #[schemars(skip)]
    pub include_leftovers: bool,
}

/// `write` arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct WriteArgs {
    /// File to create or replace.
    pub path: String,
    /// The complete new content, written byte for byte.
    pub content: String,
    /// Optional snapshot tag of the file being replaced: the write is
    /// refused if the live file no longer has this tag.
    pub tag: Option<String>,
}

/// `edit` arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditArgs {
    /// The edit document: `[path#TAG]` sections of PUT/CUT ops.
    pub input: String,
    /// Write the document exactly as sent even when a guard suspects an op
    /// (an echoed neighbour, a shifted range, a placeholder, broken
    /// syntax, foreign indentation). Never overrides a stale tag, an
    /// overlap or a line out of range.
    pub force: Option<bool>,
}

impl EditArgs {
    /// Arguments applying `input` with the guards on.
    pub fn new(input: impl Into<String>) -> EditArgs {
        EditArgs {
            input: input.into(),
            force: None,
        }
    }
}
