//! Parse trees kept between calls, so a file edited again is reparsed
//! incrementally: [`TreeCache`] keeps per path the last text parsed and its
//! tree, tells the tree the one byte range a new text differs in (common
//! prefix and suffix, computed from the cached text itself) and lets the
//! parser reuse every subtree outside it.

use std::sync::{Mutex, PoisonError};

use tree_sitter::{InputEdit, Point, Tree};

use crate::language::Language;

/// Most files remembered.
const MAX_ENTRIES: usize = 32;
/// Texts longer than this are not remembered (bytes).
const MAX_TEXT_BYTES: usize = 4 * 1024 * 1024;

/// One remembered parse.
struct Entry {
    path: String,
    language: Language,
    text: String,
    tree: Tree,
}

/// Per-path parse trees, most recently used last; see the module docs.
#[derive(Default)]
pub(crate) struct TreeCache {
    entries: Mutex<Vec<Entry>>,
}

impl std::fmt::Debug for TreeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("TreeCache")
            .field("files", &entries.len())
            .finish()
    }
}

/// What the cache offers for a new text.
pub(crate) enum Base {
    /// The same text was parsed last time: its tree.
    Same(Tree),
    /// An older text of the file: its tree, already told of the change.
    Edited(Tree),
}

impl TreeCache {
    /// The remembered tree for `path` as `language`, fitted to `text`.
    pub(crate) fn base(&self, path: &str, language: Language, text: &str) -> Option<Base> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = entries
            .iter()
            .rev()
            .find(|e| e.path == path && e.language == language)?;
        if entry.text == text {
            return Some(Base::Same(entry.tree.clone()));
        }
        let mut tree = entry.tree.clone();
        tree.edit(&input_edit(&entry.text, text));
        Some(Base::Edited(tree))
    }

    /// Remembers `tree` as the parse of `text` for `path`.
    pub(crate) fn store(&self, path: &str, language: Language, text: &str, tree: &Tree) {
        if text.len() > MAX_TEXT_BYTES {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.retain(|e| e.path != path || e.language != language);
        if entries.len() >= MAX_ENTRIES {
            entries.remove(0);
        }
        entries.push(Entry {
            path: path.to_string(),
            language,
            text: text.to_string(),
            tree: tree.clone(),
        });
    }
}

/// The edit turning `old` into `new`: the bytes between their common
/// prefix and common suffix (shrunk to character boundaries), with
/// tree-sitter's row/column points (columns in bytes).
pub(crate) fn input_edit(old: &str, new: &str) -> InputEdit {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
        start -= 1;
    }
    let room = a.len().min(b.len()) - start;
    let mut suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    let start_position = point_at(a, start);
    InputEdit {
        start_byte: start,
        old_end_byte: a.len() - suffix,
        new_end_byte: b.len() - suffix,
        start_position,
        old_end_position: point_after(start_position, &a[start..a.len() - suffix]),
        new_end_position: point_after(start_position, &b[start..b.len() - suffix]),
    }
}

/// The row and byte column of offset `at` in `text`.
fn point_at(text: &[u8], at: usize) -> Point {
    point_after(Point { row: 0, column: 0 }, &text[..at])
}

/// The point reached from `from` after `bytes`.
fn point_after(from: Point, bytes: &[u8]) -> Point {
    match memchr_rows(bytes) {
        (0, _) => Point {
            row: from.row,
            column: from.column + bytes.len(),
        },
        (rows, last) => Point {
            row: from.row + rows,
            column: bytes.len() - last - 1,
        },
    }
}

/// Number of `\n` in `bytes` and the index of the last one.
fn memchr_rows(bytes: &[u8]) -> (usize, usize) {
    let mut rows = 0;
    let mut last = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            rows += 1;
            last = i;
        }
    }
    (rows, last)
}

#[cfg(test)]
mod tests;
