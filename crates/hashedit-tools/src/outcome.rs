//! A successful tool call: the model-facing text plus structured data.

use serde_json::Value;

/// What a tool returns on success.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Exactly the text the model reads (already fitted to the output
    /// budget).
    pub text: String,
    /// Machine-readable facts about the result (paths, tags, counts), for
    /// `--json` and MCP structured content. Shapes are documented per tool.
    pub structured: Value,
}

impl Outcome {
    /// An outcome with `text` and `structured` data.
    pub fn new(text: impl Into<String>, structured: Value) -> Outcome {
        Outcome {
            text: text.into(),
            structured,
        }
    }
}
