//! The tool catalogue for function calling outside MCP: the names,
//! descriptions and input schemas of `tools/list`, in the shape a model
//! API expects, for harnesses that call the tools in-process.

use hashedit_tools::ToolName;
use serde_json::{Value, json};

use crate::catalog::CatalogEntry;
use crate::result::StructuredContent;

/// The shape of an exported tool definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolFormat {
    /// OpenAI function calling (Chat Completions `tools` entries):
    /// `{"type":"function","function":{"name","description","parameters"}}`.
    OpenAi,
    /// Anthropic Messages `tools` entries:
    /// `{"name","description","input_schema"}`.
    Anthropic,
    /// MCP `tools/list` entries, exactly as the server lists them:
    /// `{"name","title","description","inputSchema","annotations"}`.
    Mcp,
}

impl ToolFormat {
    /// Every format, in the order of its names.
    pub const ALL: [ToolFormat; 3] = [ToolFormat::OpenAi, ToolFormat::Anthropic, ToolFormat::Mcp];

    /// The format's name: `openai`, `anthropic` or `mcp`.
    pub fn name(self) -> &'static str {
        match self {
            ToolFormat::OpenAi => "openai",
            ToolFormat::Anthropic => "anthropic",
            ToolFormat::Mcp => "mcp",
        }
    }
}

impl std::str::FromStr for ToolFormat {
    type Err = String;

    /// Reads a format name; an unknown one is refused with the names to use.
    fn from_str(name: &str) -> Result<ToolFormat, String> {
        ToolFormat::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                format!("unknown tool definition format '{name}': use openai, anthropic or mcp")
            })
    }
}

/// The tools' definitions in `format`: all six, or the four read-only ones
/// when `read_only` (as a `--read-only` server offers them), in
/// `tools/list` order.
pub fn export_tool_definitions(format: ToolFormat, read_only: bool) -> Vec<Value> {
    ToolName::ALL
        .into_iter()
        .filter(|t| !(read_only && t.writes()))
        .map(|tool| definition(tool, format))
        .collect()
}

fn definition(tool: ToolName, format: ToolFormat) -> Value {
    let schema = Value::Object(tool.input_schema());
    match format {
        ToolFormat::OpenAi => json!({
            "type": "function",
            "function": {
                "name": tool.as_str(),
                "description": tool.description(),
                "parameters": schema,
            },
        }),
        ToolFormat::Anthropic => json!({
            "name": tool.as_str(),
            "description": tool.description(),
            "input_schema": schema,
        }),
        ToolFormat::Mcp => serde_json::to_value(tool.definition(StructuredContent::Off))
            .unwrap_or_else(|_| json!({ "name": tool.as_str() })),
    }
}

#[cfg(test)]
mod tests;
