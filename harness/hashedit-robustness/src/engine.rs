//! The engines under test, behind one small interface.
//!
//! Each engine gets the same situation: a workspace file holding what the
//! model read, possibly changed on disk before the edit arrives, the reads
//! the model made, and one edit in the engine's [`Form`]: a document,
//! rendered with the tag that engine gave the file the model read,
//! `str_replace` calls or an `apply_patch` patch. It answers with its
//! reply text, success or failure, and the file's bytes afterwards.
//! Scoring compares those bytes with the intended result, so engines with
//! different success and refusal semantics land in the same three
//! outcomes.
//!
//! [`Ours`] drives hashedit through its tools layer (`read_file` or
//! `grep`, then `edit`), with a session as the MCP server keeps one, or
//! without one as the CLI runs. A new tool of ours (a `str_replace` tool,
//! say) is one more engine of its form.

use std::path::{Path, PathBuf};

use hashedit_blocks::TreeSitterBlocks;
use hashedit_core::TagScheme;
use hashedit_tools::{
    ContextLines, EditArgs, EditMode, GrepArgs, ReadFileArgs, Session, ToolContext, Workspace,
    edit, grep, read_file,
};

use crate::forms::{Call, Form, arguments};
use crate::signal::Signal;
use crate::views::View;

/// One edit attempt.
#[derive(Debug, Clone, Copy)]
pub struct Attempt<'a> {
    /// Workspace-relative path of the file.
    pub path: &'a str,
    /// The bytes the model read (its tag is the document's).
    pub served: &'a [u8],
    /// The bytes on disk when the edit arrives.
    pub live: &'a [u8],
    /// The edit, in the engine's form.
    pub call: &'a Call,
    /// The reads the model made of the served bytes (an engine with a
    /// session makes them in it; empty: the whole file).
    pub views: &'a [View],
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
    /// The edit exactly as sent: a document, or the tool calls' JSON
    /// arguments one a line.
    pub document: String,
    /// The refusal or the warnings, each labelled by the guard that spoke.
    pub signals: Vec<Signal>,
}

/// An engine the benchmark can drive.
pub trait Engine {
    /// Short name for the table.
    fn name(&self) -> &str;
    /// The payload it takes.
    fn form(&self) -> Form {
        Form::Document
    }
    /// The tag scheme the engine mints tags in.
    fn scheme(&self) -> TagScheme;
    /// Runs one attempt.
    fn run(&mut self, attempt: &Attempt) -> Reply;
    /// Whether the engine keeps a session that the model's reads go
    /// into (so reads other than the whole file can matter).
    fn keeps_session(&self) -> bool {
        false
    }
    /// Whether the engine's grammar can set a file's final newline
    /// (hashedit's `EOF NEWLINE` / `EOF NO NEWLINE`); the peers have no
    /// such spelling.
    fn spells_final_newline(&self) -> bool {
        false
    }
}

/// `attempt`'s edit as sent: a document rendered with the tag `scheme`
/// gives the served bytes, a patch as written, `str_replace` calls as
/// their JSON arguments, one a line.
pub fn render(attempt: &Attempt, scheme: TagScheme) -> String {
    match attempt.call {
        Call::Document(doc) => doc.render(scheme.tag_of(attempt.served)),
        Call::ApplyPatch(patch) => patch.clone(),
        Call::StrReplace(_) => arguments(attempt.path, attempt.call, scheme.tag_of(attempt.served))
            .iter()
            .map(|a| format!("{a}\n"))
            .collect(),
    }
}

/// The reply of an engine given an edit in a form it does not take.
pub fn wrong_form(attempt: &Attempt, document: String) -> Reply {
    Reply {
        ok: false,
        text: "the engine does not take this form of edit".to_string(),
        warnings: Vec::new(),
        after: Some(attempt.live.to_vec()),
        document,
        signals: vec![Signal::refusal(None, "wrong form")],
    }
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
    form: Form,
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

    /// hashedit with a session, sent documents of `SUB` ops that restate
    /// the replaced lines (`docs/FORMAT.md` §5 once `SUB` lands; until
    /// then every one is refused as a parse error).
    pub fn sub_documents() -> std::io::Result<Ours> {
        Ok(Ours {
            form: Form::SubDocument,
            ..Ours::new(true, "hashedit-sub")?
        })
    }

    fn new(with_session: bool, name: &str) -> std::io::Result<Ours> {
        let dir = scratch_dir()?;
        let ws = Workspace::new(dir.path()).map_err(|e| std::io::Error::other(e.message))?;
        Ok(Ours {
            dir,
            ws,
            blocks: TreeSitterBlocks::new(),
            with_session,
            form: Form::Document,
            name: name.to_string(),
        })
    }

    /// Makes the model's reads in the session: the whole file when
    /// `views` is empty.
    fn read(&self, cx: &ToolContext, path: &str, views: &[View]) {
        let whole = [View::WholeFile];
        let views = if views.is_empty() { &whole[..] } else { views };
        for view in views {
            let done = match view {
                View::WholeFile => read_file(
                    cx,
                    &ReadFileArgs {
                        path: path.to_string(),
                        ..ReadFileArgs::default()
                    },
                ),
                View::Window { offset, limit } => read_file(
                    cx,
                    &ReadFileArgs {
                        path: path.to_string(),
                        offset: Some(*offset),
                        limit: Some(*limit),
                    },
                ),
                View::Grep {
                    literal,
                    before,
                    after,
                } => grep(
                    cx,
                    &GrepArgs {
                        pattern: literal.clone(),
                        path: Some(path.to_string()),
                        literal: Some(true),
                        max_per_file: Some(1000),
                        context: ContextLines {
                            before: *before,
                            after: *after,
                        },
                        ..GrepArgs::default()
                    },
                ),
            };
            done.expect("a read of a corpus file");
        }
    }
}

impl Engine for Ours {
    fn name(&self) -> &str {
        &self.name
    }

    fn scheme(&self) -> TagScheme {
        self.ws.tag_scheme()
    }

    fn form(&self) -> Form {
        self.form
    }

    fn keeps_session(&self) -> bool {
        self.with_session
    }

    fn spells_final_newline(&self) -> bool {
        true
    }

    fn run(&mut self, attempt: &Attempt) -> Reply {
        let document = render(attempt, self.scheme());
        if !matches!(attempt.call, Call::Document(_)) {
            return wrong_form(attempt, document);
        }
        let full = put_file(self.dir.path(), attempt.path, attempt.served)
            .expect("cannot write to the scratch workspace");
        let session = Session::new();
        let mut cx = ToolContext::new(&self.ws).with_blocks(&self.blocks);
        if self.with_session {
            cx = cx.with_session(&session);
            self.read(&cx, attempt.path, attempt.views);
        }
        if attempt.live != attempt.served {
            std::fs::write(&full, attempt.live).expect("cannot write to the scratch workspace");
        }
        let args = EditArgs::new(document.clone());
        let reply = match edit(&cx, &args, EditMode::Apply) {
            Ok(outcome) => {
                let (warnings, signals) = warnings_of(&outcome.structured()["warnings"]);
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
