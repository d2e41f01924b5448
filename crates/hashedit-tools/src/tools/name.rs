//! The six tools by name: the one list the CLI, the MCP server and the
//! tools layer share.

use std::fmt;

/// One of the six tools (FORMAT.md §1); [`ToolName::as_str`] is its wire
/// name, as MCP clients call it and as messages name it.
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

    /// The tool's wire name: `read_file`, `grep`, `glob`, `list_dir`,
    /// `write` or `edit`.
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

    /// The tool called `name` (its wire name, exactly), if there is one.
    pub fn parse(name: &str) -> Option<ToolName> {
        ToolName::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// True for the tools that change files (`write`, `edit`), which a
    /// read-only server does not offer.
    pub fn writes(self) -> bool {
        matches!(self, ToolName::Write | ToolName::Edit)
    }
}

impl fmt::Display for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests;
