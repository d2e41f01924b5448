//! The tool catalogue: what the model is shown for each tool.
//!
//! Names and input schemas match Rho's tools (reference-rho.md §3–§7 and
//! §9), so a harness can swap one server for the other; `write` adds an
//! optional `tag`. The schemas are written out by hand rather than derived,
//! so they stay exactly the clean JSON Schema a model and a validating
//! client expect (no `$schema`, no nullable unions, no `format: uint`).
//! The descriptions are the whole contract the model sees: they teach the
//! hashline format in our own words.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

/// One of the six tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolName {
    /// `read_file`: a numbered view of a file under its snapshot header.
    ReadFile,
    /// `grep`: search file contents; hits carry snapshot headers.
    Grep,
    /// `glob`: list files matching a pattern.
    Glob,
    /// `list_dir`: list one directory.
    ListDir,
    /// `write`: create or replace a whole file.
    Write,
    /// `edit`: apply a hashline edit document.
    Edit,
}

impl ToolName {
    /// Every tool, in the order `tools/list` shows them.
    pub const ALL: [ToolName; 6] = [
        ToolName::ReadFile,
        ToolName::Grep,
        ToolName::Glob,
        ToolName::ListDir,
        ToolName::Write,
        ToolName::Edit,
    ];

    /// The tool's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolName::ReadFile => "read_file",
            ToolName::Grep => "grep",
            ToolName::Glob => "glob",
            ToolName::ListDir => "list_dir",
            ToolName::Write => "write",
            ToolName::Edit => "edit",
        }
    }

    /// The tool called `name`, if there is one.
    pub fn parse(name: &str) -> Option<ToolName> {
        ToolName::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// True for the tools that change files (`write`, `edit`), which a
    /// read-only server does not offer.
    pub fn writes(self) -> bool {
        matches!(self, ToolName::Write | ToolName::Edit)
    }

    /// Short human-readable title.
    pub fn title(self) -> &'static str {
        match self {
            ToolName::ReadFile => "Read file",
            ToolName::Grep => "Search file contents",
            ToolName::Glob => "Find files by pattern",
            ToolName::ListDir => "List directory",
            ToolName::Write => "Write file",
            ToolName::Edit => "Edit files by line",
        }
    }

    /// The description the model reads.
    pub fn description(self) -> &'static str {
        match self {
            ToolName::ReadFile => READ_FILE_DESCRIPTION,
            ToolName::Grep => GREP_DESCRIPTION,
            ToolName::Glob => GLOB_DESCRIPTION,
            ToolName::ListDir => LIST_DIR_DESCRIPTION,
            ToolName::Write => WRITE_DESCRIPTION,
            ToolName::Edit => EDIT_DESCRIPTION,
        }
    }

    /// The input schema, as published in `tools/list` and enforced on every
    /// call (see [`crate::arguments`]).
    pub fn input_schema(self) -> JsonObject {
        let schema = match self {
            ToolName::ReadFile => json!({
                "type": "object",
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "File to read, relative to the workspace root (or absolute inside it)."
                    },
                    "offset": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "First line to show (1-based). Default 1."
                    },
                    "limit": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "Most lines to show. Default: the whole file, within the output budget."
                    }
                },
                "required": ["path"]
            }),
            ToolName::Grep => json!({
                "type": "object",
                "properties": {
                    "pattern": {
                        "type": "string",
                        "description": "Regular expression (Rust regex syntax), matched against one line at a time."
                    },
                    "path": {
                        "type": "string",
                        "description": "Directory or single file to search. Default: the workspace root."
                    },
                    "glob": {
                        "type": "string",
                        "description": "Only search files whose path matches this glob, e.g. \"*.rs\" or \"src/**/*.ts\"."
                    },
                    "literal": {
                        "type": "boolean",
                        "description": "Match pattern as plain text instead of a regex. Default false."
                    },
                    "case_sensitive": {
                        "type": "boolean",
                        "description": "Match letter case exactly. Default true."
                    },
                    "include_hidden": {
                        "type": "boolean",
                        "description": "Also search hidden files and directories. Default false."
                    },
                    "max_results": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "Cap on matching lines (content mode) or files (other modes). Default 200, at most 1000."
                    },
                    "max_per_file": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "Cap on matching lines shown per file. Default 10, at most 100."
                    },
                    "output_mode": {
                        "type": "string",
                        "enum": ["content", "files_with_matches", "count"],
                        "description": "content (default): snapshot headers and numbered hits; files_with_matches: paths only; count: hits per file."
                    }
                },
                "required": ["pattern"]
            }),
            ToolName::Glob => json!({
                "type": "object",
                "properties": {
                    "pattern": {
                        "type": "string",
                        "description": "Glob pattern; one without \"/\" matches at any depth (\"*.md\")."
                    },
                    "path": {
                        "type": "string",
                        "description": "Directory to search. Default: the workspace root."
                    },
                    "include_hidden": {
                        "type": "boolean",
                        "description": "Also list hidden files and directories. Default false."
                    },
                    "max_results": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "Cap on paths listed. Default 200, at most 1000."
                    }
                },
                "required": ["pattern"]
            }),
            ToolName::ListDir => json!({
                "type": "object",
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "Directory to list; \".\" is the workspace root."
                    }
                },
                "required": ["path"]
            }),
            ToolName::Write => json!({
                "type": "object",
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "File to create or replace, relative to the workspace root."
                    },
                    "content": {
                        "type": "string",
                        "description": "The complete new text of the file, exactly as it should be stored."
                    },
                    "tag": {
                        "type": "string",
                        "description": "Optional snapshot tag (4 hex digits) of the file you mean to replace; the write is refused if the file has changed since."
                    }
                },
                "required": ["path", "content"]
            }),
            ToolName::Edit => json!({
                "type": "object",
                "properties": {
                    "input": {
                        "type": "string",
                        "description": "The edit document: one [path#TAG] section per file, each followed by PUT/CUT ops and + body rows."
                    }
                },
                "required": ["input"],
                "additionalProperties": false
            }),
        };
        match schema {
            Value::Object(map) => map,
            _ => unreachable!("every schema literal is an object"),
        }
    }

    /// The behaviour hints, every one set explicitly.
    pub fn annotations(self) -> ToolAnnotations {
        let (read_only, destructive, idempotent) = match self {
            ToolName::ReadFile | ToolName::Grep | ToolName::Glob | ToolName::ListDir => {
                (true, false, true)
            }
            // Writing the same content twice leaves the same file.
            ToolName::Write => (false, true, true),
            // A document applied twice fails the second time (stale tag) or
            // changes the file again.
            ToolName::Edit => (false, true, false),
        };
        ToolAnnotations::with_title(self.title())
            .read_only(read_only)
            .destructive(destructive)
            .idempotent(idempotent)
            .open_world(false)
    }

    /// The full `tools/list` entry.
    pub fn definition(self) -> Tool {
        Tool::new(
            self.as_str(),
            self.description(),
            Arc::new(self.input_schema()),
        )
        .with_title(self.title())
        .with_annotations(self.annotations())
    }
}

/// The tools a server offers: all six, or the four read-only ones.
pub fn tool_definitions(read_only: bool) -> Vec<Tool> {
    ToolName::ALL
        .into_iter()
        .filter(|t| !(read_only && t.writes()))
        .map(ToolName::definition)
        .collect()
}

/// Server instructions: a short usage guide for the model, sent at
/// initialization (and in `server/discover`).
pub const INSTRUCTIONS: &str = "\
hashedit edits files by line number against snapshots it has shown you.
1. Look first: read_file (or grep) prints a header [path#TAG] and rows N:text. TAG fingerprints the whole file.
2. Edit with a document: the header copied exactly, then ops on those line numbers (PUT N:, PUT N.=M:, PUT <N:, PUT >N:, PUT >$:, CUT N, CUT N.=M) and body rows that start with +.
3. Chain: a successful edit replies with a preview under the file's new [path#TAG]; use that header and its numbers for your next edit instead of reading again (after a structural edit, read again).
4. On any failure nothing is written. A stale tag or a bad line number comes with a live snapshot: copy its header and numbers and retry.
5. A note that your ops were moved means the file changed elsewhere since your snapshot and they were applied to the live file; continue from the new header in the preview.
Use write to create a file or replace it whole. Paths are relative to the workspace root and cannot leave it.";

/// Server instructions of a `--read-only` server, which offers no write or
/// edit: how to read and search, and that changes cannot be made here.
pub const READ_ONLY_INSTRUCTIONS: &str = "\
hashedit shows files as numbered rows; this server is read-only (no write or edit tools).
1. read_file prints a header [path#TAG] and rows N:text; TAG fingerprints the whole file. offset and limit select a window of a long file.
2. grep searches contents and prints the same headers and line numbers; glob finds files by path pattern; list_dir lists one directory.
3. Quote line numbers and headers from these replies when you refer to code: they pin the exact version you saw.
Paths are relative to the workspace root and cannot leave it.";

/// The instructions a server sends: [`INSTRUCTIONS`], or
/// [`READ_ONLY_INSTRUCTIONS`] when it offers no write or edit tool.
pub fn instructions(read_only: bool) -> &'static str {
    if read_only {
        READ_ONLY_INSTRUCTIONS
    } else {
        INSTRUCTIONS
    }
}

const READ_FILE_DESCRIPTION: &str = "\
Read a UTF-8 text file as numbered rows under its snapshot header.

The reply starts with a header line [path#TAG]; each following row is N:text, where N is the 1-based line number and everything after the first colon is the line's exact text. TAG is a 4-hex fingerprint of the whole file, even when only part of it is shown. To change the file, copy the header line exactly into an edit document and address lines by these numbers.

offset (first line, 1-based) and limit (number of lines) select a window of a long file; a footer then says which lines were shown and how many the file has. A read without them shows as much as fits in the output budget. Images are described by type and size only. Binary and non-UTF-8 files are refused and get no tag.";

const GREP_DESCRIPTION: &str = "\
Search file contents with a regular expression (Rust regex syntax, one line at a time; literal=true matches plain text).

In content mode (the default) each matching file appears as a header [path#TAG] followed by rows N | text. The header and line numbers are a real snapshot: you may edit the file straight from them without reading it first. The text after | is only a preview (long lines are shortened), so read the file when you need a line's exact text. files_with_matches lists matching paths; count prints path:count per file. Paths are relative to the workspace root.

path narrows the search to a directory or one file; glob filters file paths (\"*.py\", \"src/**/*.rs\"). Files ignored by .gitignore and hidden files are skipped unless include_hidden=true; binary, non-UTF-8 and very large files are skipped and counted in the summary. max_results (default 200) caps matching lines in content mode and files otherwise; max_per_file (default 10) caps the rows shown per file. The summary says when a cap was reached.";

const GLOB_DESCRIPTION: &str = "\
Find files whose path matches a glob pattern, listed relative to the workspace root in directory order.

* and ? match within one path segment, ** matches across directories, and a pattern without / matches at any depth (\"*.rs\" finds every Rust file; \"src/*.rs\" only those directly in src). path limits the search to one directory. Files ignored by .gitignore and hidden files are skipped unless include_hidden=true. At most max_results paths are listed (default 200).";

const LIST_DIR_DESCRIPTION: &str = "\
List the entries of one directory of the workspace (\".\" is the workspace root), sorted by name; subdirectories end with /. Use glob to find files deeper down and read_file to see a file.";

const WRITE_DESCRIPTION: &str = "\
Create a file, or replace a file's whole content, with content written byte for byte (missing parent directories are created). To change part of an existing file, use edit instead.

The reply says whether the file was created or replaced and shows the new header [path#TAG] with its rows (all of them up to 36 lines, otherwise the first 28 and the last 8), so you can edit the file next without reading it.

When replacing a file you have seen, pass its snapshot tag as tag: if the file changed since that snapshot, nothing is written and the reply shows the live file instead. content must be the file's real text: never paste a read reply (its [path#TAG] header or N: prefixes) into it.";

const EDIT_DESCRIPTION: &str = "\
Change existing text files by line number, against a snapshot you were shown. input is an edit document: for each file, a header line [path#TAG] followed by ops.

Copy the header exactly from your most recent snapshot of that file: a read_file or grep reply, the preview of your previous edit, a write reply, or the live snapshot of a failed edit. Never invent or guess a tag. Give each file one section; a document may edit several files, and then either all of them change or none does.

Ops (N and M are line numbers in that snapshot):
PUT N:      replace line N with the body rows that follow
PUT N.=M:   replace lines N through M (N-M and N..M mean the same)
PUT <N:     insert the body rows before line N
PUT >N:     insert the body rows after line N
PUT >$:     append the body rows at the end of the file
CUT N       delete line N (no colon, no body)
CUT N.=M    delete lines N through M

Beyond lines: N* names the syntactic block (function, class, if, table…) that starts on line N: PUT N*: replaces it, CUT N* deletes it, PUT >N*: inserts after its last line; the reply shows the lines it resolved to. CUT … @name keeps the deleted lines in a register and PUT >N @name, PUT <N @name or PUT >$ @name (no colon, no rows) pastes them, so CUT 4.=9 @f then PUT >20 @f moves lines; PUT N.=M @name replaces lines with the register. Without @name, CUT fills the unnamed register, which PUT >N pastes and which lasts for this call only; named registers last for the session. REM deletes the file (alone in its section); MV path moves it to a new path after the section's ops, never over an existing file.

Body rows follow their PUT, one row per resulting line, each starting with +. Exactly one + is removed and the rest is the line's text, indentation included (+    x); a row that is just + is an empty line. A PUT needs at least one row (use CUT to delete). The body replaces only the addressed lines, so do not repeat the lines around them. A single line is PUT 7:, never PUT 7.:.

Every number refers to the snapshot: ops in one document never shift each other's numbers, and their order does not matter. Two ops may not claim the same line.

Example, for a snapshot headed [src/app.py#1A2B]:
[src/app.py#1A2B]
PUT 3:
+    return total
CUT 8.=9
PUT >12:
+
+def helper():
+    return 0

If anything is wrong (stale tag, syntax error, a line outside the file, overlapping ops), nothing is written and the error says what to fix. A stale tag or bad line number comes with a live snapshot of the file: copy its header and numbers and retry. On success, the reply gives each file's ops summary and a post-edit preview under its new header [path#TAG], numbered as the file is now: start your next edit of that file from this header, without reading it again. After a structural edit (40 or more lines replaced or deleted by one op) the preview shows no rows, so read the file again first. If the file changed elsewhere since your snapshot, your ops may be moved onto the live file; a note then names the old and new tags and the line shift. edit never creates files; use write for that.";
