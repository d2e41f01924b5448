//! The approval preview of an edit document: what a harness shows a person
//! before the edit runs (the seed's "cards while the edit runs").
//!
//! Each section is dry-run against the live file, so the card shows the
//! real unified diff, removals as `-` rows of the file's actual lines. A
//! section that cannot be dry-run (its file is missing, its tag is stale,
//! its ops do not apply, or the whole document does not parse yet) falls
//! back to the projection of its text ([`hashedit_core::projection::project()`]): its
//! ops in words and the rows it adds, with the reason the dry run gave.
//!
//! The preview writes nothing and does not touch the session: a snapshot
//! shown to a person is not one the model was served.

use hashedit_core::projection::project;
use hashedit_tools::{EditArgs, EditMode, Outcome, ToolContext, ToolError};
use serde_json::{Value, json};

use crate::Embedded;
use crate::projection::section_json;

impl Embedded {
    /// The approval preview of `document`, one entry per section:
    /// `{"path","source":"dry_run","diff","summary","new_tag"}` when the
    /// section dry-runs against the live file, else
    /// `{"path","source":"projection","tag","ops":[…],"error":{"kind","message"}}`
    /// (`error` null when the document is still incomplete and parses
    /// nowhere). A document whose sections all dry-run together is
    /// previewed as one dry run, so registers flow between its sections.
    pub fn preview(&self, document: &str) -> Value {
        let cx = ToolContext::new(&self.ws).with_blocks(&self.blocks);
        if let Ok(outcome) = dry_run(&cx, document) {
            return Value::Array(dry_run_entries(&outcome.structured()));
        }
        let projection = project(document);
        let lines: Vec<&str> = document.split_inclusive('\n').collect();
        let starts: Vec<usize> = projection.sections.iter().map(|s| s.line).collect();
        let mut entries = Vec::with_capacity(starts.len());
        for (i, section) in projection.sections.iter().enumerate() {
            let end = starts.get(i + 1).map_or(lines.len(), |next| next - 1);
            let text: String = lines[section.line - 1..end].concat();
            match dry_run(&cx, &text) {
                Ok(outcome) => entries.extend(dry_run_entries(&outcome.structured())),
                Err(error) => {
                    let mut entry = section_json(section);
                    entry["source"] = json!("projection");
                    entry["error"] = json!({"kind": error.kind.name(), "message": error.message});
                    entries.push(entry);
                }
            }
        }
        Value::Array(entries)
    }
}

fn dry_run(cx: &ToolContext, document: &str) -> Result<Outcome, ToolError> {
    hashedit_tools::edit(cx, &EditArgs::new(document), EditMode::DryRun)
}

fn dry_run_entries(facts: &Value) -> Vec<Value> {
    facts["files"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|file| {
            json!({
                "path": file["path"],
                "source": "dry_run",
                "diff": file["diff"],
                "summary": file["summary"],
                "new_tag": file["new_tag"],
            })
        })
        .collect()
}
