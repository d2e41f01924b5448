//! Key edits in TOML files through toml_edit, which keeps comments, key
//! order and formatting outside the edited keys. An object is written as a
//! table under its own `[header]`.

use serde_json::Value;
use toml_edit::{DocumentMut, Item, Table, TableLike};

use crate::edit::{KeyPath, lookup, not_a, split};

/// `text` (an absent file reads as empty) with each key of `sets` set.
/// `Err` says why the file cannot take them.
pub(crate) fn apply(text: Option<&str>, sets: &[(KeyPath, Value)]) -> Result<String, String> {
    let mut doc = parse(text.unwrap_or(""))?;
    for (path, value) in sets {
        set(&mut doc, path, value)?;
    }
    Ok(doc.to_string())
}

/// `text` with each key of `sets` as it was in `before` (or gone, with the
/// tables it leaves empty that `before` did not have).
pub(crate) fn revert(
    text: &str,
    before: Option<&str>,
    sets: &[(KeyPath, Value)],
) -> Result<String, String> {
    let before = before.map(value).transpose()?.unwrap_or(Value::Null);
    let mut doc = parse(text)?;
    for (path, _) in sets {
        match lookup(&before, path) {
            Some(prior) => set(&mut doc, path, prior)?,
            None => remove(&mut doc, path, &before),
        }
    }
    Ok(doc.to_string())
}

/// The document `text` holds, as a JSON value (for looking keys up).
pub(crate) fn value(text: &str) -> Result<Value, String> {
    toml_edit::de::from_str(text).map_err(|e| format!("is not TOML: {e}"))
}

fn parse(text: &str) -> Result<DocumentMut, String> {
    text.parse::<DocumentMut>()
        .map_err(|e| format!("is not TOML: {}", e.to_string().trim_end()))
}

/// Sets the key at `path` to `value`, creating the tables on the way (as
/// implicit tables, so only the innermost one gets a header).
fn set(doc: &mut DocumentMut, path: &[&'static str], value: &Value) -> Result<(), String> {
    let (parents, last) = split(path);
    let item = toml_edit::ser::to_document(&serde_json::json!({ last: value }))
        .map_err(|e| format!("cannot hold {value} in TOML: {e}"))?
        .remove(last)
        .unwrap_or_default();
    let item = match item.into_table() {
        Ok(table) => Item::Table(table),
        Err(item) => item,
    };
    let mut table: &mut dyn TableLike = doc.as_table_mut();
    for (depth, key) in parents.iter().enumerate() {
        if !table.contains_key(key) {
            let mut created = Table::new();
            created.set_implicit(true);
            table.insert(key, Item::Table(created));
        }
        table = table
            .get_mut(key)
            .and_then(Item::as_table_like_mut)
            .ok_or_else(|| not_a(&path[..=depth], "a table"))?;
    }
    table.insert(last, item);
    Ok(())
}

/// Removes the key at `path`, then each table above it left empty that
/// `before` did not have.
fn remove(doc: &mut DocumentMut, path: &[&'static str], before: &Value) {
    for depth in (1..=path.len()).rev() {
        let here = &path[..depth];
        let (parents, last) = split(here);
        let root: &mut dyn TableLike = doc.as_table_mut();
        let Some(parent) = parents.iter().try_fold(root, |t, key| {
            t.get_mut(key).and_then(Item::as_table_like_mut)
        }) else {
            return;
        };
        let emptied = parent
            .get(last)
            .and_then(Item::as_table_like)
            .is_some_and(|t| t.is_empty());
        if depth < path.len() && !(emptied && lookup(before, here).is_none()) {
            return;
        }
        parent.remove(last);
    }
}
