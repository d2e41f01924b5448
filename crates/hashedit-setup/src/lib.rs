//! `hashedit setup CLIENT`: makes hashedit's MCP tools an agent client's
//! file tools (docs/SETUP.md, FORMAT.md §8).
//!
//! For Claude Code, Codex, Gemini CLI, opencode, Cursor, Zed and VS Code,
//! in the project's or the user's configuration, setup
//! - registers the server (`hashedit mcp`, see [`ServerCommand`]);
//! - hides the client's built-in file read, edit and write tools where the
//!   client has a setting for it, and lets the read-only tools run without
//!   a prompt where the client's own read tool does;
//! - writes a short marked block into the client's instruction file
//!   (CLAUDE.md, AGENTS.md, GEMINI.md) saying which tools to use and why;
//! - says what it could not do ([`Client::limits`]).
//!
//! It merges into existing files with `jsonc-parser` (JSON, JSONC) and
//! `toml_edit` (TOML), keeping every other key, comment and ordering. A
//! run is first a [`Plan`] ([`setup`], [`undo`]): shown as a diff for a dry
//! run, or applied. Setup twice is setup once, byte for byte. Undo restores
//! each file to its bytes before the first setup while nothing else has
//! changed it, and otherwise takes out only what setup added; what setup
//! created, it deletes. The bytes before are kept in an undo record (see
//! [`Places::state`]), never overwritten by a later setup.

mod block;
mod client;
mod edit;
mod files;
mod json;
mod places;
mod plan;
mod record;
mod toml;

use std::path::PathBuf;

pub use client::{Client, Extras, Scope};
pub use places::{Places, ServerCommand};
pub use plan::{Action, FileChange, Plan, setup, undo};

/// Why setup could not run. Nothing is written when a plan fails; a
/// failure while applying names the file it stopped at.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// A file could not be read, written or removed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file setup must change cannot take the change; it is left as it is.
    #[error("{} {why}; nothing was written. Fix or move the file and run setup again", path.display())]
    Merge {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The undo record cannot be read.
    #[error("the undo record {} is damaged ({message}); move it away to set up afresh", path.display())]
    Record {
        /// The record's file.
        path: PathBuf,
        /// What the JSON parser said.
        message: String,
    },
    /// No home directory to find the user's files in, or a relative one.
    #[error("cannot find the home directory: set HOME to an absolute path")]
    NoHome,
    /// A project-scope setup in the home directory, whose project files
    /// are the user's own (`~/.claude/settings.json`, `~/.gemini/`).
    #[error(
        "{} is your home directory: its project files are your user files (Claude Code's ~/.claude/settings.json, Gemini CLI's ~/.gemini/settings.json). Run setup in your project's directory, or pass --scope user for every project",
        .0.display()
    )]
    ProjectIsHome(PathBuf),
    /// No way to tell the client how to start hashedit.
    #[error(
        "cannot tell which command starts hashedit: put hashedit on PATH or pass --command PATH"
    )]
    NoServerCommand,
    /// `--command` names no program: empty, or a path to no file.
    #[error(
        "--command {0:?} is no program: give the path of the hashedit binary, or a name the client finds on its PATH"
    )]
    NoProgram(String),
    /// `codex debug models` did not give a catalog.
    #[error("cannot read Codex's model catalog from `codex debug models`: {0}")]
    CodexCatalog(String),
}

/// Codex's model catalog, as `codex debug models` prints it, with every
/// model set to offer MCP tools directly (`supports_search_tool: false`)
/// and no `apply_patch` (`apply_patch_tool_type: null`); pretty JSON. Runs
/// `codex` (the program given, found on `PATH` when bare).
pub fn codex_catalog(codex: &str) -> Result<String, SetupError> {
    let output = std::process::Command::new(codex)
        .args(["debug", "models"])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| SetupError::CodexCatalog(format!("cannot run {codex}: {e}")))?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(SetupError::CodexCatalog(format!(
            "{} ({})",
            output.status,
            said.trim()
        )));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    without_search_and_patch(&text).map_err(SetupError::CodexCatalog)
}

/// `catalog` with each model's `supports_search_tool` false and
/// `apply_patch_tool_type` null, edited in place (the rest as Codex wrote
/// it).
fn without_search_and_patch(catalog: &str) -> Result<String, String> {
    use jsonc_parser::cst::{CstInputValue, CstRootNode};
    let root = CstRootNode::parse(catalog, &Default::default()).map_err(|e| e.to_string())?;
    let models = root
        .object_value()
        .and_then(|o| o.array_value("models"))
        .map(|m| m.elements())
        .filter(|m| !m.is_empty())
        .ok_or("it lists no models")?;
    for model in models.iter().filter_map(|m| m.as_object()) {
        let off = [
            ("supports_search_tool", CstInputValue::Bool(false)),
            ("apply_patch_tool_type", CstInputValue::Null),
        ];
        for (key, value) in off {
            match model.get(key) {
                Some(prop) => prop.set_value(value),
                None => {
                    model.append(key, value);
                }
            }
        }
    }
    Ok(root.to_string())
}

#[cfg(test)]
mod tests;
