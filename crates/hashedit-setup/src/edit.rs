//! What setup changes in one file, and how that change is made and taken
//! back again on the file's text, whatever its format.

use std::path::PathBuf;

use serde_json::Value;

use crate::{block, json, toml};

/// A key path from the document's top: `["mcpServers", "hashedit"]`.
pub(crate) type KeyPath = Vec<&'static str>;

/// One edit of a key in a JSON or TOML document.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum KeyEdit {
    /// The key at the path holds this value; the objects (tables) on the
    /// way are created where missing. An array value is a command line
    /// (`args`, opencode's `command`): one the file holds that has all its
    /// items, in order, among more carries server flags the user added
    /// (`--protect GLOB`, before or after `mcp`), and stays.
    Set(KeyPath, Value),
    /// The array at the path holds these strings; missing ones are added
    /// at its end.
    Include(KeyPath, &'static [&'static str]),
    /// The array at the path, where the file has one (an allowlist the
    /// user keeps; setup creates none), holds these strings.
    Admit(KeyPath, &'static [&'static str]),
    /// The array at the path, where the file has one (a denylist), holds
    /// none of these strings.
    Omit(KeyPath, &'static [&'static str]),
}

/// How a file is changed, by its format.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Change {
    /// Keys of a JSON or JSONC file.
    Json(Vec<KeyEdit>),
    /// Keys of a TOML file, each set to its value.
    Toml(Vec<(KeyPath, Value)>),
    /// The marked instruction block of a Markdown file (`block::TEXT`).
    Block,
    /// The whole file, which setup owns.
    File(String),
}

/// One file setup changes, and why (said in the report).
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub(crate) path: PathBuf,
    pub(crate) change: Change,
    pub(crate) why: &'static str,
}

impl Target {
    pub(crate) fn new(path: PathBuf, change: Change, why: &'static str) -> Target {
        Target { path, change, why }
    }
}

impl Change {
    /// The file's new text, from its current text (`None`: absent).
    pub(crate) fn apply(&self, text: Option<&str>) -> Result<String, String> {
        match self {
            Change::Json(edits) => {
                let current = text.and_then(|t| json::value(t).ok());
                let edits: Vec<KeyEdit> = edits
                    .iter()
                    .filter(|edit| match edit {
                        KeyEdit::Set(path, value) => !extends(current.as_ref(), path, value),
                        _ => true,
                    })
                    .cloned()
                    .collect();
                json::apply(text, &edits)
            }
            Change::Toml(sets) => {
                let current = text.and_then(|t| toml::value(t).ok());
                let sets: Vec<(KeyPath, Value)> = sets
                    .iter()
                    .filter(|(path, value)| !extends(current.as_ref(), path, value))
                    .cloned()
                    .collect();
                toml::apply(text, &sets)
            }
            Change::Block => Ok(block::apply(text.unwrap_or(""))),
            Change::File(content) => Ok(content.clone()),
        }
    }

    /// The file's text with this change taken out again, given its text
    /// before setup (`None`: absent, or not recorded). `Ok(None)`: the
    /// file holds nothing else any more, so it goes.
    pub(crate) fn revert(
        &self,
        text: &str,
        before: Option<&str>,
    ) -> Result<Option<String>, String> {
        let reverted = match self {
            Change::Json(edits) => json::revert(text, before, edits)?,
            Change::Toml(edits) => toml::revert(text, before, edits)?,
            Change::Block => block::remove(text),
            Change::File(_) => return Ok(before.map(str::to_string)),
        };
        // Nothing left, not even a comment of the user's: blank, or `{}`.
        let left: String = reverted.split_whitespace().collect();
        let empty = left.is_empty() || left == "{}";
        Ok(if empty && before.is_none() {
            None
        } else {
            Some(reverted)
        })
    }

    /// Whether `text` holds what only setup writes: the server's entry (a
    /// key path through `hashedit`), the instruction block, or the file
    /// setup owns.
    pub(crate) fn marked(&self, text: &str) -> bool {
        let entry = |path: &KeyPath, value: &Option<Value>| {
            path.contains(&"hashedit") && value.as_ref().and_then(|v| lookup(v, path)).is_some()
        };
        match self {
            Change::Json(edits) => {
                let value = json::value(text).ok();
                edits
                    .iter()
                    .any(|e| matches!(e, KeyEdit::Set(path, _) if entry(path, &value)))
            }
            Change::Toml(sets) => {
                let value = toml::value(text).ok();
                sets.iter().any(|(path, _)| entry(path, &value))
            }
            Change::Block => block::remove(text) != text,
            Change::File(content) => text == content,
        }
    }

    /// This change without what `other` (another client's change of the
    /// same file) makes too, so that undoing one client keeps what another
    /// still needs. `None`: nothing of it is left.
    pub(crate) fn without(&self, other: &Change) -> Option<Change> {
        match (self, other) {
            (Change::Json(mine), Change::Json(theirs)) => keep(mine, theirs).map(Change::Json),
            (Change::Toml(mine), Change::Toml(theirs)) => keep(mine, theirs).map(Change::Toml),
            (Change::Block, Change::Block) => None,
            _ => Some(self.clone()),
        }
    }
}

fn keep<T: Clone + PartialEq>(mine: &[T], theirs: &[T]) -> Option<Vec<T>> {
    let kept: Vec<T> = mine
        .iter()
        .filter(|e| !theirs.contains(e))
        .cloned()
        .collect();
    (!kept.is_empty()).then_some(kept)
}

/// Whether `current` (the file's value) holds at `path` an array with
/// more items than the array `wanted` and all of those, in order: a
/// command line with flags the user added (see [`KeyEdit::Set`]).
fn extends(current: Option<&Value>, path: &[&str], wanted: &Value) -> bool {
    match (current.and_then(|c| lookup(c, path)), wanted) {
        (Some(Value::Array(have)), Value::Array(want)) => {
            let mut rest = have.iter();
            have.len() > want.len() && want.iter().all(|w| rest.any(|h| h == w))
        }
        _ => false,
    }
}

/// The value at `path` in `value`, if every key on the way exists.
pub(crate) fn lookup<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, key| v.get(key))
}

/// `path` as the keys above its last one, and its last one.
pub(crate) fn split<'a>(path: &'a [&'static str]) -> (&'a [&'static str], &'static str) {
    match path.split_last() {
        Some((last, parents)) => (parents, last),
        None => (&[], ""),
    }
}

/// Why a key cannot take an edit: it holds something else than `what`.
pub(crate) fn not_a(path: &[&str], what: &str) -> String {
    format!("has {} set to something other than {what}", path.join("."))
}
