//! The corpus: real source files of pinned third-party packages.
//!
//! `scripts/robustness-corpus` unpacks them under `target/robustness-corpus`
//! (see its header for the packages); this module walks that tree and keeps
//! the files the benchmark can use: a known language, 30 to 800 lines,
//! UTF-8, LF line endings, a final newline, no BOM and no NUL. Files are
//! sorted by path so a seed picks the same files on every machine.

use std::path::{Path, PathBuf};

use crate::lang::Lang;

/// Fewest lines of a corpus file.
pub const MIN_LINES: usize = 30;
/// Most lines of a corpus file.
pub const MAX_LINES: usize = 800;

/// One usable source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Path relative to the corpus root, `/`-separated, e.g.
    /// `rust/similar-3.2.1/src/udiff.rs`; also the path the file gets in
    /// an engine's workspace.
    pub path: String,
    /// Its language.
    pub lang: Lang,
    /// Its text.
    pub text: String,
}

/// All usable files, grouped by language in [`Lang::ALL`] order.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Per language, the files sorted by path.
    pub files: Vec<(Lang, Vec<SourceFile>)>,
    /// The packages, from the corpus `MANIFEST` (one `lang registry name
    /// version` per line).
    pub manifest: Vec<String>,
}

impl Corpus {
    /// The default location: `$HASHEDIT_ROBUSTNESS_CORPUS`, else
    /// `target/robustness-corpus` in this checkout.
    pub fn default_dir() -> PathBuf {
        match std::env::var_os("HASHEDIT_ROBUSTNESS_CORPUS") {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => Path::new(env!("CARGO_MANIFEST_DIR"))
                .ancestors()
                .nth(2)
                .expect("the crate sits two levels below the repository root")
                .join("target")
                .join("robustness-corpus"),
        }
    }

    /// Loads the corpus under `dir`.
    ///
    /// Errors: the directory is missing or holds no usable file (run
    /// `scripts/robustness-corpus`).
    pub fn load(dir: &Path) -> Result<Corpus, String> {
        if !dir.is_dir() {
            return Err(format!(
                "no corpus at {}: run scripts/robustness-corpus first",
                dir.display()
            ));
        }
        let mut paths = Vec::new();
        walk(dir, &mut paths).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        paths.sort();
        let mut files: Vec<(Lang, Vec<SourceFile>)> =
            Lang::ALL.iter().map(|&l| (l, Vec::new())).collect();
        for path in paths {
            let Some(rel) = path.strip_prefix(dir).ok().and_then(|p| p.to_str()) else {
                continue;
            };
            let rel = rel.replace(std::path::MAIN_SEPARATOR, "/");
            let Some(lang) = Lang::for_path(&rel) else {
                continue;
            };
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if !usable(&text) {
                continue;
            }
            let slot = files
                .iter_mut()
                .find(|(l, _)| *l == lang)
                .expect("every language has a slot");
            slot.1.push(SourceFile {
                path: rel,
                lang,
                text,
            });
        }
        files.retain(|(_, f)| !f.is_empty());
        if files.is_empty() {
            return Err(format!(
                "the corpus at {} holds no usable file: run scripts/robustness-corpus",
                dir.display()
            ));
        }
        let manifest = std::fs::read_to_string(dir.join("MANIFEST"))
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        Ok(Corpus { files, manifest })
    }

    /// The number of usable files.
    pub fn len(&self) -> usize {
        self.files.iter().map(|(_, f)| f.len()).sum()
    }

    /// Whether no file is usable.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Whether a file's text fits the benchmark.
fn usable(text: &str) -> bool {
    let lines = text.lines().count();
    (MIN_LINES..=MAX_LINES).contains(&lines)
        && text.ends_with('\n')
        && !text.contains(['\r', '\0', '\u{FEFF}'])
}

/// Every regular file under `dir`, recursively, appended to `out`.
pub(crate) fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&entry.path(), out)?;
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
