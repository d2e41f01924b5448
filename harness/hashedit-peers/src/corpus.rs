//! Files to test on: real sources available offline, plus crafted edge
//! files.
//!
//! Real code comes from crates already unpacked in the Cargo registry
//! (`$CARGO_HOME/registry/src/*/<crate>-<version>/src/**/*.rs`) and from
//! this repository's own crates. Edge files cover what real code rarely
//! has: CRLF, mixed endings, no final newline, a BOM, an empty file, a
//! blank last line, lone CRs, trailing whitespace, long lines.
//! Every list is sorted, so a seed picks the same file on every machine
//! that has the same registry contents.

use std::path::{Path, PathBuf};

/// One file of the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusFile {
    /// Relative path to give the file in a test workspace, e.g.
    /// `regex-syntax/ast/parse.rs` or `edge/crlf.txt`.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

impl CorpusFile {
    fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> CorpusFile {
        CorpusFile {
            name: name.into(),
            bytes: bytes.into(),
        }
    }
}

/// `$CARGO_HOME`, else `~/.cargo`.
pub fn cargo_home() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CARGO_HOME").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(home));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo"))
}

/// The unpacked source directory of the newest version of `krate` in the
/// local registry, if any.
pub fn registry_crate_dir(krate: &str) -> Option<PathBuf> {
    let src = cargo_home()?.join("registry").join("src");
    let mut found: Vec<(Vec<u64>, PathBuf)> = Vec::new();
    for index in std::fs::read_dir(src).ok()?.flatten() {
        let Ok(entries) = std::fs::read_dir(index.path()) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(version) = name.strip_prefix(krate).and_then(|r| r.strip_prefix('-')) else {
                continue;
            };
            // `regex-syntax-0.8.12` must not match crate `regex`.
            if !version.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let key = version
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|p| p.parse().ok())
                .collect();
            found.push((key, entry.path()));
        }
    }
    found.sort();
    found.pop().map(|(_, path)| path)
}

fn rust_files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Up to `max_files` `.rs` files of at most `max_bytes` from the `src/`
/// tree of each crate in `crates` (newest registry version), spread evenly
/// over the sorted file list. Crates not in the registry are skipped.
pub fn registry_sources(crates: &[&str], max_files: usize, max_bytes: usize) -> Vec<CorpusFile> {
    let mut out = Vec::new();
    for krate in crates {
        let Some(dir) = registry_crate_dir(krate) else {
            continue;
        };
        let mut files = Vec::new();
        rust_files_under(&dir.join("src"), &mut files);
        files.retain(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.len() > 0 && m.len() as usize <= max_bytes)
        });
        for path in spread(&files, max_files) {
            let Ok(bytes) = std::fs::read(path) else {
                continue;
            };
            let rel = path.strip_prefix(dir.join("src")).unwrap_or(path);
            out.push(CorpusFile::new(
                format!("{krate}/{}", rel.to_string_lossy()),
                bytes,
            ));
        }
    }
    out
}

/// Up to `max_files` `.rs` files of this repository's crates.
pub fn own_sources(max_files: usize) -> Vec<CorpusFile> {
    let root = crate::locate::repo_root();
    let mut files = Vec::new();
    rust_files_under(&root.join("crates"), &mut files);
    spread(&files, max_files)
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).ok()?;
            let rel = path.strip_prefix(&root).unwrap_or(path);
            Some(CorpusFile::new(
                format!("own/{}", rel.to_string_lossy()),
                bytes,
            ))
        })
        .collect()
}

/// `n` items spread evenly over `items` (all of them when there are fewer).
fn spread<T>(items: &[T], n: usize) -> Vec<&T> {
    if items.len() <= n {
        return items.iter().collect();
    }
    (0..n).map(|i| &items[i * items.len() / n]).collect()
}

/// A file of `n` numbered lines, `line 1` to `line n`, LF-terminated.
pub fn numbered_lines(n: usize) -> Vec<u8> {
    (1..=n)
        .map(|i| format!("line {i}\n"))
        .collect::<String>()
        .into_bytes()
}

/// Crafted UTF-8 text files for the edges of the line model.
pub fn edge_files() -> Vec<CorpusFile> {
    let mut long = "x".repeat(3000);
    long.push('\n');
    long.push_str("short\n");
    vec![
        CorpusFile::new("edge/crlf.txt", "alpha\r\nbeta\r\ngamma\r\ndelta\r\n"),
        CorpusFile::new("edge/mixed_crlf_major.txt", "a\r\nb\nc\r\nd\r\ne\n"),
        CorpusFile::new("edge/mixed_lf_major.txt", "a\nb\r\nc\nd\ne\r\n"),
        CorpusFile::new("edge/no_final_newline.txt", "one\ntwo\nthree"),
        CorpusFile::new("edge/crlf_no_final_newline.txt", "one\r\ntwo\r\nthree"),
        CorpusFile::new("edge/bom.txt", "\u{FEFF}first\nsecond\nthird\n"),
        CorpusFile::new("edge/bom_crlf.txt", "\u{FEFF}first\r\nsecond\r\n"),
        CorpusFile::new("edge/bom_only.txt", "\u{FEFF}"),
        CorpusFile::new("edge/empty.txt", ""),
        CorpusFile::new("edge/only_newline.txt", "\n"),
        CorpusFile::new("edge/blank_last_line.txt", "a\nb\n\n"),
        CorpusFile::new("edge/blank_lines.txt", "\n\na\n\n\nb\n\n"),
        CorpusFile::new("edge/lone_cr.txt", "a\rb\rc\r"),
        CorpusFile::new("edge/interior_cr.txt", "x\ry\nz\n"),
        CorpusFile::new("edge/double_cr.txt", "a\r\r\nb\n"),
        CorpusFile::new("edge/ends_with_cr.txt", "a\nb\r"),
        CorpusFile::new("edge/trailing_ws.txt", "a  \nb\t\n  \nc \r\nd"),
        CorpusFile::new("edge/unicode.txt", "héllo\n🦀 crab\n\tindent\n…\n"),
        CorpusFile::new("edge/plus_minus.txt", "+plus\n-minus\n++\n--\n"),
        CorpusFile::new("edge/header_like.txt", "[a.txt#ABCD]\n1:one\nPUT 2:\n+x\n"),
        CorpusFile::new("edge/long_line.txt", long),
        CorpusFile::new("edge/single.txt", "only line\n"),
        CorpusFile::new("edge/single_no_newline.txt", "only line"),
        CorpusFile::new("edge/lines_120.txt", numbered_lines(120)),
        CorpusFile::new("edge/lines_37.txt", numbered_lines(37)),
    ]
}

/// Files the tools must refuse: not UTF-8, binary, UTF-16.
pub fn unreadable_files() -> Vec<CorpusFile> {
    vec![
        CorpusFile::new("bad/latin1.txt", b"caf\xe9\nna\xefve\n".to_vec()),
        CorpusFile::new("bad/nul.txt", b"a\0b\nc\n".to_vec()),
        CorpusFile::new("bad/utf16.txt", b"\xFF\xFEa\0\n\0".to_vec()),
    ]
}

/// The standard mix for differential tests: sources of a few registry
/// crates (files up to `max_bytes`), some of this repository's, and every
/// edge file.
pub fn standard(max_bytes: usize) -> Vec<CorpusFile> {
    let mut files = registry_sources(
        &["regex-syntax", "similar", "ignore", "memchr"],
        6,
        max_bytes,
    );
    files.extend(own_sources(6));
    files.extend(edge_files());
    files
}

#[cfg(test)]
mod tests;
