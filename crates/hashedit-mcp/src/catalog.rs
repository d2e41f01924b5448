//! The tool catalogue: what the model is shown for each tool. Names and
//! input schemas match Rho's tools (`write` adds an optional `tag`); the
//! schemas are derived from `hashedit-tools`' argument structs and cleaned
//! into the plain JSON Schema models and clients expect. The descriptions
//! are the whole contract the model sees, in our own words.

use std::sync::{Arc, OnceLock};

use rmcp::model::{JsonObject, MetaObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

use hashedit_tools::{
    EditArgs, GlobArgs, GrepArgs, ListDirArgs, ReadFileArgs, ToolName, WriteArgs,
};
use schemars::JsonSchema;

use crate::result::StructuredContent;

/// What the MCP server shows a model about each [`ToolName`]: title,
/// description, input and output schemas, annotations. Bring the trait into
/// scope to call these on a `ToolName`.
pub trait CatalogEntry {
    /// Short human-readable title.
    fn title(self) -> &'static str;
    /// The description the model reads.
    fn description(self) -> &'static str;
    /// The input schema, as published in `tools/list` and enforced on every
    /// call. Every schema refuses properties it does not list
    /// (`additionalProperties: false`).
    fn input_schema(self) -> JsonObject;
    /// The output schema declared with [`StructuredContent::On`]: the
    /// reply's text under `"text"` and the tool's facts beside it.
    fn output_schema(self) -> JsonObject;
    /// The behaviour hints, every one set explicitly.
    fn annotations(self) -> ToolAnnotations;
    /// The full `tools/list` entry; with [`StructuredContent::On`] it
    /// declares [`CatalogEntry::output_schema`].
    fn definition(self, shape: StructuredContent) -> Tool;
}

impl CatalogEntry for ToolName {
    /// Short human-readable title.
    fn title(self) -> &'static str {
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
    fn description(self) -> &'static str {
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
    /// call (see the module `arguments`). Every schema refuses properties it
    /// does not list (`additionalProperties: false`).
    fn input_schema(self) -> JsonObject {
        input_schema_ref(self).clone()
    }

    /// The output schema declared with [`StructuredContent::On`]: the
    /// reply's text under `"text"` and the tool's facts beside it. Further
    /// properties may appear (facts are added over time), so the schema is
    /// open.
    fn output_schema(self) -> JsonObject {
        let facts = match self {
            ToolName::ReadFile => json!({
                "path": {"type": "string"},
                "tag": {"type": ["string", "null"]},
                "total_lines": {"type": "integer"},
                "start": {"type": "integer"},
                "end": {"type": "integer"},
                "partial": {"type": "boolean"}
            }),
            ToolName::Grep => json!({
                "files": {"type": "array"},
                "stop": {"type": ["string", "null"]}
            }),
            ToolName::Glob => json!({
                "paths": {"type": "array", "items": {"type": "string"}},
                "count": {"type": "integer"},
                "stop": {"type": ["string", "null"]}
            }),
            ToolName::ListDir => json!({
                "path": {"type": "string"},
                "entries": {"type": "array"},
                "total": {"type": "integer"},
                "truncated": {"type": "boolean"}
            }),
            ToolName::Write => json!({
                "path": {"type": "string"},
                "tag": {"type": ["string", "null"]},
                "created": {"type": "boolean"},
                "bytes": {"type": "integer"}
            }),
            ToolName::Edit => json!({
                "files": {"type": "array"},
                "warnings": {"type": "array", "items": {"type": "string"}},
                "dry_run": {"type": "boolean"}
            }),
        };
        let mut properties = match facts {
            Value::Object(map) => map,
            _ => unreachable!("every facts literal is an object"),
        };
        properties.insert(
            "text".into(),
            json!({"type": "string", "description": "The reply the model reads."}),
        );
        properties.insert(
            "kind".into(),
            json!({"type": "string", "description": "Error kind, on a failed call."}),
        );
        let mut schema = JsonObject::new();
        schema.insert("type".into(), json!("object"));
        schema.insert("properties".into(), Value::Object(properties));
        schema.insert("required".into(), json!(["text"]));
        schema
    }

    /// The behaviour hints, every one set explicitly.
    fn annotations(self) -> ToolAnnotations {
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

    /// The full `tools/list` entry; with [`StructuredContent::On`] it
    /// declares [`CatalogEntry::output_schema`].
    fn definition(self, shape: StructuredContent) -> Tool {
        let tool = Tool::new(
            self.as_str(),
            self.description(),
            Arc::new(self.input_schema()),
        )
        .with_title(self.title())
        .with_annotations(self.annotations())
        .with_meta(always_load());
        match shape {
            StructuredContent::Off => tool,
            StructuredContent::On => tool.with_raw_output_schema(Arc::new(self.output_schema())),
        }
    }
}

/// Each tool's `_meta`: `anthropic/alwaysLoad` true, so that Claude Code
/// offers the tools to the model up front instead of behind its ToolSearch
/// tool (which shows the model only their names); other clients ignore it.
fn always_load() -> MetaObject {
    let mut meta = JsonObject::new();
    meta.insert("anthropic/alwaysLoad".into(), json!(true));
    MetaObject(meta)
}

/// `tool`'s input schema, derived once per process (on the first
/// `tools/list` or call) and shared by every later one.
pub(crate) fn input_schema_ref(tool: ToolName) -> &'static JsonObject {
    static SCHEMAS: OnceLock<[JsonObject; 6]> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(|| {
        ToolName::ALL.map(|tool| match tool {
            ToolName::ReadFile => input_schema_of::<ReadFileArgs>(),
            ToolName::Grep => input_schema_of::<GrepArgs>(),
            ToolName::Glob => input_schema_of::<GlobArgs>(),
            ToolName::ListDir => input_schema_of::<ListDirArgs>(),
            ToolName::Write => input_schema_of::<WriteArgs>(),
            ToolName::Edit => input_schema_of::<EditArgs>(),
        })
    });
    let at = ToolName::ALL.iter().position(|t| *t == tool).unwrap_or(0);
    &schemas[at]
}

/// The published input schema of the argument struct `T`, derived from its
/// `JsonSchema` and cleaned: no `$schema`, title or `$defs`, an optional
/// field its plain type, no `format: uint`, a unit enum a string `enum`,
/// and `additionalProperties: false`.
fn input_schema_of<T: JsonSchema>() -> JsonObject {
    let root = serde_json::to_value(schemars::schema_for!(T)).unwrap_or(Value::Null);
    let defs = root.get("$defs").cloned().unwrap_or(Value::Null);
    let properties: JsonObject = root
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .map(|(name, property)| (name.clone(), clean_property(property, &defs)))
                .collect()
        })
        .unwrap_or_default();
    let mut schema = JsonObject::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert(
        "required".into(),
        root.get("required").cloned().unwrap_or_else(|| json!([])),
    );
    schema.insert("additionalProperties".into(), json!(false));
    schema
}

/// One property of a derived schema, cleaned (see [`input_schema_of`]).
fn clean_property(property: &Value, defs: &Value) -> Value {
    let mut out = match property.as_object() {
        Some(map) => map.clone(),
        None => return property.clone(),
    };
    // `Option<Enum>`: `anyOf: [{"$ref": …}, {"type": "null"}]`.
    if let Some(Value::Array(options)) = out.remove("anyOf") {
        for option in options {
            if option.get("type") == Some(&json!("null")) {
                continue;
            }
            let resolved = match option.get("$ref").and_then(Value::as_str) {
                Some(reference) => reference
                    .strip_prefix("#/$defs/")
                    .and_then(|name| defs.get(name))
                    .cloned()
                    .unwrap_or(option),
                None => option,
            };
            if let Value::Object(inner) = resolved {
                for (key, value) in inner {
                    out.entry(key).or_insert(value);
                }
            }
        }
    }
    if let Some(Value::Array(variants)) = out.remove("oneOf") {
        let values: Vec<Value> = variants
            .iter()
            .filter_map(|v| v.get("const").cloned())
            .collect();
        out.insert("type".into(), json!("string"));
        out.insert("enum".into(), Value::Array(values));
    }
    if let Some(Value::Array(types)) = out.get("type") {
        let kept: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
        if let [one] = kept.as_slice() {
            let one = (*one).clone();
            out.insert("type".into(), one);
        }
    }
    for key in ["format", "default", "title", "$schema"] {
        out.remove(key);
    }
    Value::Object(out)
}

/// The tools a server offers: all six, or the four read-only ones.
pub(crate) fn tool_definitions(read_only: bool, shape: StructuredContent) -> Vec<Tool> {
    ToolName::ALL
        .into_iter()
        .filter(|t| !(read_only && t.writes()))
        .map(|t| t.definition(shape))
        .collect()
}

/// Server instructions: a short usage guide for the model, sent at
/// initialization (and in `server/discover`).
pub const INSTRUCTIONS: &str = "\
hashedit's tools are your file tools: read_file, grep, glob and list_dir to look, edit to change lines, write to create or replace a whole file. Where the client also offers its own file read, edit or write tools, use these instead for every file you may change (edit needs the header they print), and do not change files with shell commands: only edit checks that the file is still the one you saw.
1. Look first: read_file (or grep) prints a header [path#TAG] and rows N:text. TAG fingerprints the whole file.
2. Edit with a document: the header copied exactly, then ops on those line numbers (PUT N:, PUT N.=M:, PUT <N:, PUT >N:, PUT >$:, CUT N, CUT N.=M) and body rows that start with +. SUB N: with - rows of exact old text and + rows of new text changes part of a line; restating a risky range's lines as - rows makes a range one line off fail instead of writing.
3. Chain: a successful edit replies with a preview under the file's new [path#TAG]; use that header and its numbers for your next edit instead of reading again (after a structural edit, read again).
4. On any failure nothing is written. A stale tag or a bad line number comes with a live snapshot: copy its header and numbers and retry.
5. A note that your ops were moved means the file changed elsewhere since your snapshot and they were applied to the live file; continue from the new header in the preview.
Paths are relative to the workspace root and cannot leave it.";

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
pub(crate) fn instructions(read_only: bool) -> &'static str {
    if read_only {
        READ_ONLY_INSTRUCTIONS
    } else {
        INSTRUCTIONS
    }
}

const READ_FILE_DESCRIPTION: &str = "\
Read a UTF-8 text file as numbered rows under its snapshot header. Use it for every file you may change.

The reply starts with a header line [path#TAG], then one row N:text per line: N is the 1-based line number and everything after the first colon is the line's exact text. TAG fingerprints the whole file, even when only a window is shown. To change the file, copy the header exactly into an edit document and address lines by these numbers.

offset and limit select a window; a footer then says which lines of how many were shown. Binary and non-UTF-8 files are refused and get no tag; images are described by type and size.";

const GREP_DESCRIPTION: &str = "\
Search file contents with a regular expression (Rust syntax, matched one line at a time).

In content mode (the default) each matching file appears as a header [path#TAG] followed by rows N | text. The header and line numbers are a real snapshot: you may edit the file from them without reading it first. The text after | is a preview (long lines are shortened); read the file for a line's exact text. files_with_matches lists paths; count prints path:count.

Ignored files are skipped unless no_ignore=true, hidden ones unless include_hidden=true or the glob names them; binary, non-UTF-8 and very large files are counted in the summary, which names any cap reached.";

const GLOB_DESCRIPTION: &str = "\
Find files whose path matches a glob, listed relative to the workspace root. * and ? match within one path segment, ** across directories; a pattern without / matches at any depth (\"*.rs\" finds every Rust file). Ignored files are skipped unless no_ignore=true or the pattern names their directory (\"build/**\"), hidden ones unless include_hidden=true or the pattern names them (\".github/*\").";

const LIST_DIR_DESCRIPTION: &str = "\
List one directory of the workspace (\".\" is the root), sorted by name; subdirectories end with /.";

const WRITE_DESCRIPTION: &str = "\
Create or replace a whole file with content written byte for byte (missing parent directories are created). To change part of an existing file, use edit.

The reply shows the new header [path#TAG] with the file's rows, so you can edit next without reading. To replace a file, read it first (read_file, grep or an edit's preview) or pass its tag; else nothing is written. content is the file's real text: never paste a read reply (its header or N: prefixes) into it.";

const EDIT_DESCRIPTION: &str = "\
Change existing text files by line number, against snapshots you were shown. Use it, not other edit tools or the shell, for every change to an existing file. input is an edit document: for each file a header line [path#TAG], then ops.

Copy the header exactly from your latest snapshot of the file (a read_file, grep or write reply, your last edit's preview, a failed edit's live snapshot). Never invent a tag. One section per file; a document may edit several files, and then all change or none does.

Ops (N, M: line numbers of that snapshot):
PUT N:      replace line N with the body rows below
PUT N.=M:   replace lines N through M (also N-M, N..M)
PUT <N:     insert the rows before line N
PUT >N:     insert the rows after line N
PUT >$:     append the rows at the end of the file
CUT N       delete line N (no colon, no rows)
CUT N.=M    delete lines N through M

Body rows follow their PUT, one per resulting line, each starting with +: exactly one + is removed and the rest is the line, indentation included (+    x); a lone + is an empty line. A PUT needs a row (use CUT to delete). The rows replace only the addressed lines: do not repeat the lines around them.

All numbers name the snapshot: ops never shift each other, their order does not matter, and two ops may not claim one line.

Example:
[src/app.py#1A2B]
PUT 3:
+    return total
CUT 8.=9
PUT >12:
+def helper():
+    return 0

More: N* is the block (function, class...) starting on line N: PUT N*: replaces it, CUT N* deletes it, PUT >N*: inserts after its last line. CUT ... @name keeps the cut lines; PUT >N @name (no colon, no rows) pastes them and PUT N.=M @name replaces lines with them, so CUT 4.=9 @f then PUT >20 @f moves lines. Unnamed registers last one call, named ones the session. REM deletes the file (alone in its section); MV path moves it, never over an existing file. EOF NEWLINE / EOF NO NEWLINE set whether the last line ends with a line break.

SUB N: (N.=M; SUB: whole file) swaps exact old text (- rows, found once there, may be part of a line) for + rows. Restating a range's lines as - rows makes it safe.

If anything is wrong (stale tag, bad syntax, a line outside the file, overlapping ops), nothing is written; a stale tag or bad line number comes with a live snapshot: copy its header and numbers to retry. Ops that would likely write a wrong file (rows repeating their neighbours, a range one line off, a placeholder for code, a result that no longer parses) are refused too, with corrected lines to copy; if the document is really meant, send it again with force: true. On success each file gets an ops summary and a preview under its new [path#TAG]: chain your next edit from it without reading again, except after a structural edit (an op over 40+ lines), which shows no rows. Ops noted as moved were applied to the live file, which changed elsewhere. edit never creates files: use write.";

/// The model guide offered as the MCP prompt [`GUIDE_PROMPT`], for clients
/// that let the user insert a server's prompts (Zed, Claude Code's
/// `/mcp__hashedit__hashline-guide`): the workflow and the grammar in full.
pub const GUIDE: &str = "\
How to edit files with hashedit (hashline snapshots)

1. Look first. read_file shows a file as a header [path#TAG] and rows N:text. grep shows the same header for every matching file, with rows N | text (a preview: read the file when you need the exact text). TAG is a 4-hex fingerprint of the whole file.
2. Edit with one document per change. Copy the header exactly, then write ops against the snapshot's line numbers:
   PUT N:      replace line N          PUT N.=M:  replace lines N..M
   PUT <N:     insert before line N    PUT >N:    insert after line N
   PUT >$:     append at the end       CUT N / CUT N.=M: delete
   Every body row starts with +, and exactly one + is removed (+    x keeps the indentation; a lone + is an empty line). Rows replace only the addressed lines: never restate the neighbours, widen the range instead.
3. Numbers never shift within a document: all ops name the snapshot's lines. Put all ops for one file in one section; a document may hold several files and applies all or nothing.
4. Chain. A successful edit answers with an ops summary and a preview under the file's new header: use that header and its numbers for the next edit. After a structural edit (one op spanning 40 or more lines) the preview has no rows: read again.
5. Failures write nothing. A stale tag, an out-of-range line or overlapping ops come with a live snapshot: copy its header and numbers and retry. A refusal that names a document line says what to write instead.
6. Beyond lines: N* is the syntactic block starting on line N (PUT N*:, CUT N*, PUT >N*:). CUT ... @name stores lines in a register and PUT >N @name pastes them (moves without retyping); REM deletes a file and MV path renames it; EOF NEWLINE / EOF NO NEWLINE add or remove the line break after the last line (rows cannot say it).
   SUB N: (or SUB N.=M:, SUB: for the whole file) replaces text by content: - rows give the exact old text, which must occur exactly once in those lines (it may be part of a line, or span lines), then + rows the new text (none deletes it). Use it inside long lines, where it costs only what changes, and to make a risky range safe: restate the range's lines as - rows, and a range one line off is refused instead of written.
7. Use write to create a file or replace it whole; pass the tag you saw to refuse overwriting a file that changed. Paths are relative to the workspace root and cannot leave it.";

/// The name of the prompt that carries [`GUIDE`].
pub const GUIDE_PROMPT: &str = "hashline-guide";

#[cfg(test)]
mod tests;
