//! The second corpus: real human edits, from consecutive published
//! versions of packages (`scripts/real-edits-corpus`).
//!
//! For each pair of consecutive versions of a package, every source file
//! that both hold and that changed is one edit: the old file is what the
//! model read, the new one what its author meant, and the document is the
//! Myers line diff written as hashline ops under the old file's tag (the
//! oracle writer of the mutation corpus). A change of the final newline
//! is written with hashedit's `EOF NEWLINE` / `EOF NO NEWLINE` for an
//! engine that has the spelling; for one without, it cannot be written:
//! the edit is marked not expressible, and meant as the rest of the
//! change (the new lines, the old final newline).

use std::path::{Path, PathBuf};

use crate::document::{DocOp, DocSpec, oracle_ops};
use crate::forms::{Call, Edit, Form};
use crate::hunks::{Hunk, Lines, diff};
use crate::mutate::Lang;

/// Most lines of either version of a file in the corpus.
pub const MAX_LINES: usize = 2000;

/// One real edit: a file of one package version and the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RealEdit {
    /// `lang/name` of the package, as in the corpus tree.
    pub package: String,
    /// The version the model read.
    pub from: String,
    /// The version its author published next.
    pub to: String,
    /// The file's path inside the package.
    pub file: String,
    /// Its language.
    pub lang: Lang,
    /// The file in `from`.
    pub old: Lines,
    /// The file in `to`.
    pub new: Lines,
    /// The line diff old → new.
    pub hunks: Vec<Hunk>,
}

impl RealEdit {
    /// The path the file gets in an engine's workspace.
    pub fn path(&self) -> String {
        format!("{}/{}", self.package, self.file)
    }

    /// Whether the edit changes the final newline, which only a grammar
    /// with a spelling for it can express.
    pub fn changes_final_newline(&self) -> bool {
        self.old.final_newline != self.new.final_newline
    }

    /// Whether an engine can write the whole edit: it changes no final
    /// newline, or the engine `spells_final_newline`.
    pub fn expressible(&self, spells_final_newline: bool) -> bool {
        spells_final_newline || !self.changes_final_newline()
    }

    /// What the document's author meant, as far as an engine can write it:
    /// the new file, or, when the final newline's change is not
    /// expressible, all the rest of it.
    pub fn intended(&self, spells_final_newline: bool) -> Lines {
        Lines {
            lines: self.new.lines.clone(),
            final_newline: if self.expressible(spells_final_newline) {
                self.new.final_newline
            } else {
                self.old.final_newline
            },
        }
    }

    /// The minimal document: one op per hunk of the line diff, then the
    /// final newline's change if the engine `spells_final_newline`.
    pub fn doc(&self, spells_final_newline: bool) -> DocSpec {
        let mut ops = oracle_ops(&self.hunks);
        if spells_final_newline && self.changes_final_newline() {
            let header = if self.new.final_newline {
                "EOF NEWLINE"
            } else {
                "EOF NO NEWLINE"
            };
            ops.push(DocOp {
                header: header.to_string(),
                rows: Vec::new(),
            });
        }
        DocSpec::new(&self.path(), ops)
    }

    /// The edit as an engine taking `form` is sent it, whether the engine
    /// (which does or does not spell the final newline in documents) can
    /// write all of it, and what its author meant as far as it can;
    /// `None` when the form cannot write the edit at all.
    ///
    /// Documents are [`doc`](RealEdit::doc); `SUB` documents restate the
    /// replaced lines and spell the final newline; `str_replace` calls
    /// take whole lines; `apply_patch` cannot move the final newline, so
    /// a patch writes the rest.
    pub fn sent(&self, form: Form, spells_final_newline: bool) -> Option<Sent> {
        let path = self.path();
        let (expressible, intended) = match form {
            Form::Document => (
                self.expressible(spells_final_newline),
                self.intended(spells_final_newline),
            ),
            Form::SubDocument | Form::StrReplace => (true, self.new.clone()),
            Form::ApplyPatch => (self.expressible(false), self.intended(false)),
        };
        let call = match form {
            Form::Document => Call::Document(self.doc(spells_final_newline)),
            _ => Edit {
                path: &path,
                old: &self.old,
                new: &intended,
                hunks: &self.hunks,
            }
            .call(form)?,
        };
        Some(Sent {
            call,
            expressible,
            intended,
        })
    }

    /// This edit as a view for [`crate::forms`].
    pub fn edit<'a>(&'a self, path: &'a str) -> Edit<'a> {
        Edit {
            path,
            old: &self.old,
            new: &self.new,
            hunks: &self.hunks,
        }
    }

    /// `lang/name from→to file`, for reports.
    pub fn describe(&self) -> String {
        format!("{} {}→{} {}", self.package, self.from, self.to, self.file)
    }
}

/// A real edit as sent to one engine ([`RealEdit::sent`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The edit in the engine's form.
    pub call: Call,
    /// Whether it writes the whole edit.
    pub expressible: bool,
    /// The file it means to give.
    pub intended: Lines,
}

/// Files of a version pair left out, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Longer than [`MAX_LINES`] in either version.
    pub too_long: usize,
    /// Not plain LF text (not UTF-8, a CR, a NUL or a BOM) in either.
    pub not_plain: usize,
}

/// Every real edit of the corpus, in manifest order (package, version
/// pair, path).
#[derive(Debug, Clone, Default)]
pub struct RealCorpus {
    /// The edits.
    pub edits: Vec<RealEdit>,
    /// The packages, from `MANIFEST` (`lang registry name v1 v2 …`).
    pub manifest: Vec<String>,
    /// Changed files left out.
    pub skipped: Skipped,
}

impl RealCorpus {
    /// `$HASHEDIT_REAL_EDITS_CORPUS`, else `target/real-edits-corpus` in
    /// this checkout.
    pub fn default_dir() -> PathBuf {
        match std::env::var_os("HASHEDIT_REAL_EDITS_CORPUS") {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => Path::new(env!("CARGO_MANIFEST_DIR"))
                .ancestors()
                .nth(2)
                .expect("the crate sits two levels below the repository root")
                .join("target")
                .join("real-edits-corpus"),
        }
    }

    /// Loads the corpus under `dir`.
    ///
    /// Errors: no `MANIFEST` there, a listed version missing, or no edit
    /// at all (run `scripts/real-edits-corpus`).
    pub fn load(dir: &Path) -> Result<RealCorpus, String> {
        let hint = "run scripts/real-edits-corpus first";
        let manifest = std::fs::read_to_string(dir.join("MANIFEST"))
            .map_err(|_| format!("no real-edit corpus at {}: {hint}", dir.display()))?;
        let mut corpus = RealCorpus::default();
        for entry in manifest.lines() {
            if entry.starts_with('#') || entry.trim().is_empty() {
                continue;
            }
            corpus.manifest.push(entry.to_string());
            let fields: Vec<&str> = entry.split_whitespace().collect();
            let [lang, _registry, name, versions @ ..] = fields.as_slice() else {
                return Err(format!("bad MANIFEST line {entry:?}"));
            };
            let package = format!("{lang}/{name}");
            for pair in versions.windows(2) {
                corpus.add_pair(dir, &package, pair[0], pair[1])?;
            }
        }
        if corpus.edits.is_empty() {
            return Err(format!(
                "the corpus at {} holds no edit: {hint}",
                dir.display()
            ));
        }
        Ok(corpus)
    }

    /// The edits between `from` and `to` of `package`.
    fn add_pair(&mut self, dir: &Path, package: &str, from: &str, to: &str) -> Result<(), String> {
        let (old_root, new_root) = (dir.join(package).join(from), dir.join(package).join(to));
        for root in [&old_root, &new_root] {
            if !root.is_dir() {
                return Err(format!(
                    "{} is missing: run scripts/real-edits-corpus",
                    root.display()
                ));
            }
        }
        let mut files = Vec::new();
        crate::corpus::walk(&old_root, &mut files)
            .map_err(|e| format!("cannot list {}: {e}", old_root.display()))?;
        files.sort();
        for old_path in files {
            let Some(file) = relative(&old_path, &old_root) else {
                continue;
            };
            let Some(lang) = Lang::for_path(&file) else {
                continue;
            };
            let (Ok(old), Ok(new)) = (
                std::fs::read(&old_path),
                std::fs::read(new_root.join(&file)),
            ) else {
                continue;
            };
            if old == new {
                continue;
            }
            let (Some(old), Some(new)) = (plain_text(old), plain_text(new)) else {
                self.skipped.not_plain += 1;
                continue;
            };
            let (old, new) = (Lines::parse(&old), Lines::parse(&new));
            if old.is_empty() || old.len().max(new.len()) > MAX_LINES {
                self.skipped.too_long += 1;
                continue;
            }
            let hunks = diff(&old, &new);
            self.edits.push(RealEdit {
                package: package.to_string(),
                from: from.to_string(),
                to: to.to_string(),
                file,
                lang,
                old,
                new,
                hunks,
            });
        }
        Ok(())
    }

    /// `count` edits spread evenly over the corpus (every edit when it has
    /// no more): the same ones on every machine.
    pub fn slice(&self, count: usize) -> Vec<RealEdit> {
        let total = self.edits.len();
        if count >= total {
            return self.edits.clone();
        }
        (0..count)
            .map(|i| self.edits[i * total / count].clone())
            .collect()
    }
}

/// UTF-8 with LF line endings only, no NUL and no BOM.
fn plain_text(bytes: Vec<u8>) -> Option<String> {
    let text = String::from_utf8(bytes).ok()?;
    (!text.contains(['\r', '\0', '\u{FEFF}'])).then_some(text)
}

/// `path` relative to `root`, `/`-separated.
fn relative(path: &Path, root: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?.to_str()?;
    Some(rel.replace(std::path::MAIN_SEPARATOR, "/"))
}

#[cfg(test)]
mod tests;
