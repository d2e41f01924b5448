//! The engines under test, behind one small interface.
//!
//! Each engine gets the same situation: a workspace file holding what the
//! model read, possibly changed on disk before the edit arrives, and one
//! document, rendered with the tag that engine gave the file the model
//! read. It answers with its reply text, success or failure, and the
//! file's bytes afterwards. Scoring compares those bytes with the intended
//! result, so engines with different success and refusal semantics land in
//! the same three outcomes.
//!
//! [`Ours`] drives hashedit through its tools layer (`read_file`, then
//! `edit`), with a session as the MCP server keeps one, or without one as
//! the CLI runs.

use std::path::{Path, PathBuf};

use hashedit_blocks::TreeSitterBlocks;
use hashedit_core::TagScheme;
use hashedit_tools::{
    EditArgs, EditMode, ReadFileArgs, Session, ToolContext, Workspace, edit, read_file,
};

use crate::document::DocSpec;
use crate::signal::Signal;

/// One edit attempt.
#[derive(Debug, Clone, Copy)]
pub struct Attempt<'a> {
    /// Workspace-relative path of the file.
    pub path: &'a str,
    /// The bytes the model read (its tag is the document's).
    pub served: &'a [u8],
    /// The bytes on disk when the edit arrives.
    pub live: &'a [u8],
    /// The document.
    pub doc: &'a DocSpec,
}

/// What an engine did with an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// Whether the engine reported success.
    pub ok: bool,
    /// The text the model reads: the reply on success, the error otherwise.
    pub text: String,
    /// Warnings on a success (tolerated spellings, suspicious bodies…).
    pub warnings: Vec<String>,
    /// The file's bytes after the call (`None`: the file is gone).
    pub after: Option<Vec<u8>>,
    /// The document exactly as sent.
    pub document: String,
    /// The refusal or the warnings, each labelled by the guard that spoke.
    pub signals: Vec<Signal>,
}

/// An engine the benchmark can drive.
pub trait Engine {
    /// Short name for the table.
    fn name(&self) -> &str;
    /// The tag scheme the engine mints tags in.
    fn scheme(&self) -> TagScheme;
    /// Runs one attempt.
    fn run(&mut self, attempt: &Attempt) -> Reply;
    /// Whether the engine's grammar can set a file's final newline
    /// (hashedit's `EOF NEWLINE` / `EOF NO NEWLINE`); the peers have no
    /// such spelling.
    fn spells_final_newline(&self) -> bool {
        false
    }
}

/// Renders `attempt`'s document with the tag `scheme` gives the served
/// bytes.
pub fn render(attempt: &Attempt, scheme: TagScheme) -> String {
    attempt.doc.render(scheme.tag_of(attempt.served))
}

/// A scratch directory, in memory where the system offers one (edits
/// fsync; on tmpfs that costs nothing).
pub fn scratch_dir() -> std::io::Result<tempfile::TempDir> {
    let shm = Path::new("/dev/shm");
    if shm.is_dir()
        && let Ok(dir) = tempfile::Builder::new()
            .prefix("hashedit-robustness-")
            .tempdir_in(shm)
    {
        return Ok(dir);
    }
    tempfile::Builder::new()
        .prefix("hashedit-robustness-")
        .tempdir()
}

/// Writes `bytes` to `root/path`, creating directories.
pub fn put_file(root: &Path, path: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let full = root.join(path);
    if let Some(parent) = full.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&full, bytes)?;
    Ok(full)
}

/// hashedit through its tools layer.
pub struct Ours {
    dir: tempfile::TempDir,
    ws: Workspace,
    blocks: TreeSitterBlocks,
    with_session: bool,
    name: String,
}

impl std::fmt::Debug for Ours {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ours").field("name", &self.name).finish()
    }
}

impl Ours {
    /// hashedit as the MCP server runs it: a session remembers the
    /// snapshot `read_file` served, so a drifted file can be rebased.
    pub fn with_session() -> std::io::Result<Ours> {
        Ours::new(true, "hashedit")
    }

    /// hashedit as the CLI runs it: no session memory.
    pub fn without_session() -> std::io::Result<Ours> {
        Ours::new(false, "hashedit-cli")
    }

    fn new(with_session: bool, name: &str) -> std::io::Result<Ours> {
        let dir = scratch_dir()?;
        let ws = Workspace::new(dir.path()).map_err(|e| std::io::Error::other(e.message))?;
        Ok(Ours {
            dir,
            ws,
            blocks: TreeSitterBlocks::new(),
            with_session,
            name: name.to_string(),
        })
    }
}

impl Engine for Ours {
    fn name(&self) -> &str {
        &self.name
    }

    fn scheme(&self) -> TagScheme {
        self.ws.tag_scheme()
    }

    fn spells_final_newline(&self) -> bool {
        true
    }

    fn run(&mut self, attempt: &Attempt) -> Reply {
        let document = render(attempt, self.scheme());
        let full = put_file(self.dir.path(), attempt.path, attempt.served)
            .expect("cannot write to the scratch workspace");
        let session = Session::new();
        let mut cx = ToolContext::new(&self.ws).with_blocks(&self.blocks);
        if self.with_session {
            cx = cx.with_session(&session);
            let args = ReadFileArgs {
                path: attempt.path.to_string(),
                ..ReadFileArgs::default()
            };
            read_file(&cx, &args).expect("read_file of a corpus file");
        }
        if attempt.live != attempt.served {
            std::fs::write(&full, attempt.live).expect("cannot write to the scratch workspace");
        }
        let args = EditArgs::new(document.clone());
        let reply = match edit(&cx, &args, EditMode::Apply) {
            Ok(outcome) => {
                let (warnings, signals) = warnings_of(&outcome.structured["warnings"]);
                Reply {
                    ok: true,
                    text: outcome.text,
                    warnings,
                    after: None,
                    document,
                    signals,
                }
            }
            Err(error) => Reply {
                ok: false,
                signals: Signal::refusals(Some(error.kind.name()), &error.message),
                text: error.message,
                warnings: Vec::new(),
                after: None,
                document,
            },
        };
        let after = std::fs::read(&full).ok();
        let _ = std::fs::remove_file(&full);
        Reply { after, ..reply }
    }
}

/// The warning lines of an edit's structured data and their signals. A
/// line is a string today; an object with `message` (and `kind`, which
/// then labels it) is read too.
fn warnings_of(structured: &serde_json::Value) -> (Vec<String>, Vec<Signal>) {
    let mut lines = Vec::new();
    let mut signals = Vec::new();
    for entry in structured.as_array().into_iter().flatten() {
        let text = entry
            .as_str()
            .or_else(|| entry["message"].as_str())
            .unwrap_or_default();
        signals.push(match entry["kind"].as_str() {
            Some(kind) => Signal::warning_of_kind(kind),
            None => Signal::warning(text),
        });
        lines.push(text.to_string());
    }
    (lines, signals)
}

#[cfg(test)]
mod tests;
