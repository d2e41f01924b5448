use hashedit_tools::ToolName;
use rmcp::model::JsonObject;
use serde_json::{Value, json};

use super::CatalogEntry;

#[test]
fn derived_schemas_are_the_published_ones() {
    for tool in ToolName::ALL {
        let derived = Value::Object(tool.input_schema());
        let pinned = Value::Object(pinned_input_schema(tool));
        assert_eq!(derived.to_string(), pinned.to_string(), "{tool}");
    }
}

/// The published input schemas, written out: what the derived ones must
/// equal byte for byte.
fn pinned_input_schema(tool: ToolName) -> JsonObject {
    let (properties, required) = match tool {
        ToolName::ReadFile => (
            json!({
                "path": {"type": "string", "description": "File to read, relative to the workspace root."},
                "offset": {"type": "integer", "minimum": 1, "description": "First line to show (1-based)."},
                "limit": {"type": "integer", "minimum": 1, "description": "Most lines to show."}
            }),
            json!(["path"]),
        ),
        ToolName::Grep => (
            json!({
                "pattern": {"type": "string", "description": "Regular expression (Rust syntax)."},
                "path": {"type": "string", "description": "Directory or file to search. Default: the workspace root."},
                "glob": {"type": "string", "description": "Only files whose path matches, e.g. \"*.py\", \"src/**/*.rs\"."},
                "literal": {"type": "boolean", "description": "Match pattern as plain text."},
                "case_sensitive": {"type": "boolean", "description": "Default true."},
                "include_hidden": {"type": "boolean", "description": "Also search hidden files."},
                "no_ignore": {"type": "boolean", "description": "Also search ignored files."},
                "max_results": {"type": "integer", "minimum": 1, "description": "Cap on matching lines (content mode) or files. Default 200."},
                "max_per_file": {"type": "integer", "minimum": 1, "description": "Cap on rows per file. Default 10."},
                "output_mode": {"type": "string", "enum": ["content", "files_with_matches", "count"], "description": "Default content."}
            }),
            json!(["pattern"]),
        ),
        ToolName::Glob => (
            json!({
                "pattern": {"type": "string", "description": "Glob, e.g. \"*.md\" or \"src/**/*.ts\"."},
                "path": {"type": "string", "description": "Directory to search. Default: the workspace root."},
                "include_hidden": {"type": "boolean", "description": "Also list hidden files."},
                "max_results": {"type": "integer", "minimum": 1, "description": "Cap on paths. Default 200."},
                "no_ignore": {"type": "boolean", "description": "Also list ignored files."}
            }),
            json!(["pattern"]),
        ),
        ToolName::ListDir => (
            json!({
                "path": {"type": "string", "description": "Directory; \".\" is the workspace root."},
                "include_hidden": {"type": "boolean", "description": "Also list temp files of killed writes."}
            }),
            json!(["path"]),
        ),
        ToolName::Write => (
            json!({
                "path": {"type": "string", "description": "File to create or replace, relative to the workspace root."},
                "content": {"type": "string", "description": "The whole new text of the file."},
                "tag": {"type": "string", "description": "Snapshot tag of the file you mean to replace; refused if it changed since."},
                "force": {"type": "boolean", "description": "As sent: N:text rows, or over an unread file."}
            }),
            json!(["path", "content"]),
        ),
        ToolName::Edit => (
            json!({
                "input": {"type": "string", "description": "The edit document: [path#TAG] sections of PUT/CUT ops with + body rows."},
                "force": {"type": "boolean", "description": "Write the document exactly as sent when a guard refused it. Default false."}
            }),
            json!(["input"]),
        ),
    };
    let mut schema = JsonObject::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), properties);
    schema.insert("required".into(), required);
    schema.insert("additionalProperties".into(), json!(false));
    schema
}
