//! One edit written in every form a model uses, each checked to land.
//!
//! An [`Edit`] is a file as the model read it, the file its author meant
//! and their line diff. From it come the payloads of the edit tools a
//! model calls:
//!
//! * a hashline document of `PUT`/`CUT` ops (the oracle writer of
//!   [`crate::document`]), of `SUB` ops ([`sub`]: minimal, or restating
//!   whole lines), or the cheapest mix of the two per hunk;
//! * `str_replace` calls ([`str_replace`]): Claude Code's `Edit` and Rho's
//!   `str_replace`, the minimal unique `old_string` per hunk or whole
//!   lines;
//! * a Codex `apply_patch` patch ([`apply_patch`]);
//! * a unified diff with three lines of context, and the whole new file
//!   (a `write`).
//!
//! Every generated payload has a strict reference reading here
//! ([`crate::literal::literal`] for documents, [`str_replace::apply_calls`],
//! [`apply_patch::apply_patch_to`]); [`Edit::check`] applies it and
//! compares the bytes with the author's file. An engine that implements
//! the form must land each of them exactly: the benchmark replays the
//! real-edit corpus through them.
//!
//! [`arguments`] gives the JSON arguments of the tool call that carries a
//! payload, which is what a model writes and what the token benchmark
//! counts.

pub mod apply_patch;
pub mod str_replace;
pub mod sub;
pub mod text;

use hashedit_core::SnapshotTag;
use serde_json::{Value, json};
use similar::TextDiff;

use crate::document::{DocOp, DocSpec, oracle_ops};
use crate::hunks::{Hunk, Lines};
use crate::literal::literal;

use self::str_replace::{OldString, Replace, apply_calls, str_replace_calls};
use self::sub::{SubStyle, cheapest_ops, sub_ops};

/// The payload an engine takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// A hashline document of `PUT`/`CUT` ops (`edit`'s `input`).
    Document,
    /// A hashline document whose ops are `SUB` ops restating the replaced
    /// lines (`edit`'s `input`, once the engine parses `SUB`).
    SubDocument,
    /// `str_replace` calls, one after another.
    StrReplace,
    /// A Codex `apply_patch` patch (`apply_patch`'s `input`).
    ApplyPatch,
}

impl Form {
    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Form::Document => "PUT/CUT document",
            Form::SubDocument => "SUB document",
            Form::StrReplace => "str_replace calls",
            Form::ApplyPatch => "apply_patch patch",
        }
    }
}

/// An edit as sent to one engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// A hashline document, its tag left open (rendered per engine).
    Document(DocSpec),
    /// `str_replace` calls, made one after another; each stops the rest
    /// when it fails.
    StrReplace(Vec<Replace>),
    /// An `apply_patch` patch.
    ApplyPatch(String),
}

/// One edit of one file.
#[derive(Debug, Clone, Copy)]
pub struct Edit<'a> {
    /// Workspace-relative path.
    pub path: &'a str,
    /// The file the model read.
    pub old: &'a Lines,
    /// The file its author meant.
    pub new: &'a Lines,
    /// Their line diff.
    pub hunks: &'a [Hunk],
}

impl Edit<'_> {
    /// Whether the final newline changes.
    fn final_newline_op(&self) -> Option<DocOp> {
        let wanted = self.new.final_newline || self.new.is_empty();
        (self.old.final_newline != wanted).then(|| DocOp {
            header: if wanted {
                "EOF NEWLINE"
            } else {
                "EOF NO NEWLINE"
            }
            .to_string(),
            rows: Vec::new(),
        })
    }

    fn document(&self, mut ops: Vec<DocOp>) -> DocSpec {
        ops.extend(self.final_newline_op());
        DocSpec::new(self.path, ops)
    }

    /// The minimal `PUT`/`CUT` document: one op per hunk, then the final
    /// newline's change (`EOF NEWLINE` / `EOF NO NEWLINE`).
    pub fn put_cut(&self) -> DocSpec {
        self.document(oracle_ops(self.hunks))
    }

    /// The document of `SUB` ops in `style` (one per hunk, or per hunks
    /// that share lines); `None` when the generator cannot write it.
    pub fn sub(&self, style: SubStyle) -> Option<DocSpec> {
        let ops = sub_ops(self.old, self.hunks, style)?
            .into_iter()
            .map(|group| group.op.doc_op())
            .collect();
        Some(self.document(ops))
    }

    /// The cheapest line-addressed document: per hunk its `PUT`/`CUT` op
    /// or its minimal `SUB` op, whichever `cost` rates lower.
    pub fn cheapest(&self, cost: impl Fn(&DocOp) -> usize) -> DocSpec {
        self.document(cheapest_ops(self.old, self.hunks, cost))
    }

    /// The `str_replace` calls.
    pub fn str_replace(&self, size: OldString) -> Vec<Replace> {
        str_replace_calls(self.old, self.new, self.hunks, size)
    }

    /// The `apply_patch` patch; `None` when V4A cannot write the edit.
    pub fn apply_patch(&self) -> Option<String> {
        apply_patch::apply_patch(self.path, self.old, self.new, self.hunks)
    }

    /// The unified diff (`--- a/PATH`, `+++ b/PATH`, three lines of
    /// context, `\ No newline at end of file` where it applies).
    pub fn unified_diff(&self) -> String {
        let (old, new) = (self.old.text(), self.new.text());
        TextDiff::from_lines(&old, &new)
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{}", self.path), &format!("b/{}", self.path))
            .to_string()
    }

    /// The edit in `form`, as the benchmark sends it: `SUB` documents
    /// restate whole lines, `str_replace` calls whole lines; `None` when
    /// the form cannot write the edit.
    pub fn call(&self, form: Form) -> Option<Call> {
        match form {
            Form::Document => Some(Call::Document(self.put_cut())),
            Form::SubDocument => self.sub(SubStyle::WholeLines).map(Call::Document),
            Form::StrReplace => Some(Call::StrReplace(self.str_replace(OldString::WholeLines))),
            Form::ApplyPatch => self.apply_patch().map(Call::ApplyPatch),
        }
    }

    /// Applies `call` by its strict reference reading and compares the
    /// result with the author's file; the error says what differed.
    pub fn check(&self, call: &Call) -> Result<(), String> {
        let got = match call {
            Call::Document(doc) => literal(doc, self.old)
                .map(|l| l.text())
                .ok_or_else(|| "the document has no literal reading".to_string())?,
            Call::StrReplace(calls) => apply_calls(&self.old.text(), calls)
                .map_err(|(i, e)| format!("call {} does not land: {e:?}", i + 1))?,
            Call::ApplyPatch(patch) => apply_patch::apply_patch_to(patch, self.path, self.old)
                .map(|l| l.text())
                .map_err(|e| format!("the patch does not land: {e:?}"))?,
        };
        if got == self.new.text() {
            Ok(())
        } else {
            Err("it lands, but not on the author's bytes".to_string())
        }
    }
}

/// The JSON arguments of each tool call carrying `call` for `path`, a
/// document's header under `tag`: `edit {input}`, one `str_replace {path,
/// old_string, new_string}` per call, `apply_patch {input}`.
pub fn arguments(path: &str, call: &Call, tag: SnapshotTag) -> Vec<Value> {
    match call {
        Call::Document(doc) => vec![json!({ "input": doc.render(tag) })],
        Call::StrReplace(calls) => calls
            .iter()
            .map(|c| json!({ "path": path, "old_string": c.old, "new_string": c.new }))
            .collect(),
        Call::ApplyPatch(patch) => vec![json!({ "input": patch })],
    }
}

#[cfg(test)]
mod tests;
