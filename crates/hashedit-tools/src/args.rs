//! Tool arguments: the one source of the tools' input schemas. The MCP
//! server derives the schemas it publishes from these structs, each field's
//! doc comment being the description a model reads; names, types and
//! requiredness match Rho's tools; the CLI fills them from its flags.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `read_file` arguments. `path` may also be absolute inside the
/// workspace; with `offset`, the tag still covers the whole file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct ReadFileArgs {
    /// File to read, relative to the workspace root.
    pub path: String,
    /// First line to show (1-based).
    #[schemars(range(min = 1))]
    pub offset: Option<usize>,
    /// Most lines to show.
    #[schemars(range(min = 1))]
    pub limit: Option<usize>,
}

/// `grep` arguments. `pattern` is Rust regex syntax, or literal text with
/// `literal`; `glob` matches paths relative to `path`; `max_results` and
/// `max_per_file` are at least 1 and never lowered (FORMAT.md §4.3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct GrepArgs {
    /// Regular expression (Rust syntax).
    pub pattern: String,
    /// Directory or file to search. Default: the workspace root.
    pub path: Option<String>,
    /// Only files whose path matches, e.g. "*.py", "src/**/*.rs".
    pub glob: Option<String>,
    /// Match pattern as plain text.
    pub literal: Option<bool>,
    /// Default true.
    pub case_sensitive: Option<bool>,
    /// Also search hidden files.
    pub include_hidden: Option<bool>,
    /// Cap on matching lines (content mode) or files. Default 200.
    #[schemars(range(min = 1))]
    pub max_results: Option<usize>,
    /// Cap on rows per file. Default 10.
    #[schemars(range(min = 1))]
    pub max_per_file: Option<usize>,
    /// Default content.
    pub output_mode: Option<OutputMode>,
    /// Also search ignored files.
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
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

/// `glob` arguments. A pattern without `/` matches at any depth (`*.rs`);
/// `max_results` is at least 1 and never lowered.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct GlobArgs {
    /// Glob, e.g. "*.md" or "src/**/*.ts".
    pub pattern: String,
    /// Directory to search. Default: the workspace root.
    pub path: Option<String>,
    /// Also list hidden files.
    pub include_hidden: Option<bool>,
    /// Cap on paths. Default 200.
    #[schemars(range(min = 1))]
    pub max_results: Option<usize>,
    /// Also list ignored files.
    pub no_ignore: Option<bool>,
}

/// `list_dir` arguments. `path` may also be absolute inside the workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct ListDirArgs {
    /// Directory; "." is the workspace root.
    pub path: String,
    /// Also list temp files of killed writes.
    pub include_hidden: Option<bool>,
}

/// `write` arguments. `content` is written byte for byte. An existing file
/// is replaced only if the session read its live snapshot, or `tag` is its
/// live tag (a stale one is refused), or `force` is set; `force` also
/// writes content that looks like pasted read output (FORMAT.md §6.7).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct WriteArgs {
    /// File to create or replace, relative to the workspace root.
    pub path: String,
    /// The whole new text of the file.
    pub content: String,
    /// Snapshot tag of the file you mean to replace; refused if it changed since.
    pub tag: Option<String>,
    /// As sent: N:text rows, or over an unread file.
    pub force: Option<bool>,
}

/// `edit` arguments. `force` writes past the guards (an echoed neighbour,
/// a shifted range, a placeholder, broken syntax, foreign indentation),
/// never past a stale tag, an overlap or a line out of range.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditArgs {
    /// The edit document: [path#TAG] sections of PUT/CUT ops with + body rows.
    // The description is published as written, so `[path#TAG]` stays
    // unescaped; it is not a link.
    #[allow(rustdoc::broken_intra_doc_links)]
    pub input: String,
    /// Write the document exactly as sent when a guard refused it. Default false.
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
