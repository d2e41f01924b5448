//! The projection of a streaming edit document as JSON, the shape both
//! packages return (`hashedit.project`, `project()` in Node).

use hashedit_core::projection::{OpState, ProjectedSection, Projection, project};
use serde_json::{Value, json};

/// [`project`] of `partial` as a list of sections:
/// `[{"path","tag","line","ops":[{"line","header","summary","rows","state"}]}]`,
/// `tag` null until the header shows four hex digits, `state` one of
/// `complete`, `partial` (the cut last line) and `unrecognised`.
pub fn project_json(partial: &str) -> Value {
    sections_json(&project(partial))
}

fn sections_json(projection: &Projection) -> Value {
    Value::Array(projection.sections.iter().map(section_json).collect())
}

/// One projected section as JSON: `{"path","tag","line","ops"}`.
pub(crate) fn section_json(section: &ProjectedSection) -> Value {
    json!({
        "path": section.path,
        "tag": section.tag.map(|t| t.to_string()),
        "line": section.line,
        "ops": section.ops.iter().map(|op| json!({
            "line": op.line,
            "header": op.header,
            "summary": op.summary,
            "rows": op.rows,
            "state": state_name(op.state),
        })).collect::<Vec<_>>(),
    })
}

fn state_name(state: OpState) -> &'static str {
    match state {
        OpState::Complete => "complete",
        OpState::Partial => "partial",
        OpState::Unrecognised => "unrecognised",
    }
}
