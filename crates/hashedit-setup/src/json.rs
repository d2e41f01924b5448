//! Key edits in JSON and JSONC files through jsonc-parser's concrete syntax
//! tree, so comments, key order, indentation and trailing commas outside
//! the edited keys stay as written.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::Value;

use crate::edit::{KeyEdit, lookup, not_a, split};

/// `text` (an absent or blank file reads as `{}`) with `edits` applied.
/// `Err` says why the file cannot take them (not JSON, a key that is not
/// an object).
pub(crate) fn apply(text: Option<&str>, edits: &[KeyEdit]) -> Result<String, String> {
    let (bom, root) = parse(text)?;
    let top = top_object(&root)?;
    for edit in edits {
        match edit {
            KeyEdit::Set(path, value) => set(&top, path, value)?,
            KeyEdit::Include(path, items) => {
                let (parents, last) = split(path);
                let object = objects(&top, parents)?;
                let array = object
                    .array_value_or_create(last)
                    .ok_or_else(|| not_a(path, "an array"))?;
                append(&array, items);
            }
            KeyEdit::Admit(path, items) => {
                if let Some(array) = find(&top, path).and_then(|n| n.as_array()) {
                    append(&array, items);
                }
            }
            KeyEdit::Omit(path, items) => {
                if let Some(array) = find(&top, path).and_then(|n| n.as_array()) {
                    drop_items(&array, |item| items.contains(&item));
                }
            }
        }
    }
    Ok(format!("{bom}{root}"))
}

/// `text` with what `edits` did taken back: each key gets the value it had
/// in `before` (or goes, with the objects it leaves empty that `before` did
/// not have), each array loses the items setup added that `before` did not
/// hold and gets back those setup took out that it did. Everything else,
/// later changes included, stays.
pub(crate) fn revert(
    text: &str,
    before: Option<&str>,
    edits: &[KeyEdit],
) -> Result<String, String> {
    let before = match before {
        Some(before) => value(before)?,
        None => Value::Null,
    };
    let (bom, root) = parse(Some(text))?;
    let top = top_object(&root)?;
    for edit in edits {
        match edit {
            KeyEdit::Set(path, _) => match lookup(&before, path) {
                Some(prior) => set(&top, path, prior)?,
                None => remove(&top, path, &before),
            },
            KeyEdit::Include(path, items) | KeyEdit::Admit(path, items) => {
                let Some(array) = find(&top, path).and_then(|n| n.as_array()) else {
                    continue;
                };
                let kept = held(&before, path);
                drop_items(&array, |item| {
                    items.contains(&item) && !kept.contains(&item)
                });
                let created = matches!(edit, KeyEdit::Include(..));
                if created && array.elements().is_empty() && lookup(&before, path).is_none() {
                    remove(&top, path, &before);
                }
            }
            KeyEdit::Omit(path, items) => {
                if let Some(array) = find(&top, path).and_then(|n| n.as_array()) {
                    let back: Vec<&str> = held(&before, path)
                        .into_iter()
                        .filter(|item| items.contains(item))
                        .collect();
                    append(&array, &back);
                }
            }
        }
    }
    Ok(format!("{bom}{root}"))
}

/// The value `text` holds, as JSON (comments and trailing commas allowed).
pub(crate) fn value(text: &str) -> Result<Value, String> {
    parse(Some(text))?
        .1
        .value()
        .and_then(|v| v.to_serde_value())
        .ok_or_else(|| "holds no JSON value".to_string())
}

/// The byte order mark a file may start with (Windows editors write one;
/// jsonc-parser refuses it): kept in front of what setup writes.
const BOM: &str = "\u{feff}";

/// The file's byte order mark (`""` when it has none) and its syntax tree;
/// an absent or blank file reads as `{}`.
fn parse(text: Option<&str>) -> Result<(&'static str, CstRootNode), String> {
    let text = text.unwrap_or("");
    let (bom, text) = match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    };
    let text = Some(text)
        .filter(|t| !t.trim().is_empty())
        .unwrap_or("{}\n");
    let root = CstRootNode::parse(text, &ParseOptions::default())
        .map_err(|e| format!("is not JSON: {e}"))?;
    Ok((bom, root))
}

fn top_object(root: &CstRootNode) -> Result<CstObject, String> {
    root.object_value_or_create()
        .ok_or_else(|| "does not hold a JSON object".to_string())
}

/// Sets the value at `path`, creating the objects on the way.
fn set(top: &CstObject, path: &[&'static str], value: &Value) -> Result<(), String> {
    let (parents, last) = split(path);
    let object = objects(top, parents)?;
    match object.get(last) {
        Some(prop) => prop.set_value(input(value)),
        None => {
            object.append(last, input(value));
        }
    }
    Ok(())
}

/// The object at `path` under `top`, created (empty) where missing.
fn objects(top: &CstObject, path: &[&str]) -> Result<CstObject, String> {
    let mut object = top.clone();
    for (depth, key) in path.iter().enumerate() {
        object = object
            .object_value_or_create(key)
            .ok_or_else(|| not_a(&path[..=depth], "an object"))?;
    }
    Ok(object)
}

/// Removes the key at `path`, then each object above it that is left
/// empty and that `before` did not have.
fn remove(top: &CstObject, path: &[&'static str], before: &Value) {
    for depth in (1..=path.len()).rev() {
        let here = &path[..depth];
        let Some(node) = find(top, here) else {
            continue;
        };
        let emptied = node.as_object().is_some_and(|o| o.properties().is_empty());
        if depth == path.len() || (emptied && lookup(before, here).is_none()) {
            if let Some(prop) = node.parent().and_then(|p| p.as_object_prop()) {
                prop.remove();
            }
        } else {
            break;
        }
    }
}

/// The value node at `path` under `top`, if every key on the way exists.
fn find(top: &CstObject, path: &[&str]) -> Option<CstNode> {
    let (parents, last) = path.split_last().map(|(l, p)| (p, *l))?;
    let mut object = top.clone();
    for key in parents {
        object = object.object_value(key)?;
    }
    object.get(last)?.value()
}

/// Appends each of `items` the array does not hold yet.
fn append(array: &CstArray, items: &[&str]) {
    let present: Vec<String> = array
        .elements()
        .iter()
        .filter_map(|e| e.as_string_lit()?.decoded_value().ok())
        .collect();
    for item in items.iter().filter(|i| !present.iter().any(|p| p == *i)) {
        array.append(CstInputValue::String((*item).to_string()));
    }
}

/// Removes each string of the array that `unwanted` picks.
fn drop_items(array: &CstArray, unwanted: impl Fn(&str) -> bool) {
    // The whitespace right after `[`, if any.
    let padding = || {
        array
            .children()
            .get(1)
            .filter(|c| c.is_whitespace())
            .cloned()
    };
    let padded = padding().is_some();
    for element in array.elements() {
        let text = element.as_string_lit().and_then(|s| s.decoded_value().ok());
        if text.is_some_and(|t| unwanted(&t)) {
            element.remove();
        }
    }
    // jsonc-parser keeps the space that followed a removed first item's
    // comma: `["a", "b"]` without "a" would read `[ "b"]`.
    if let Some(space) = padding().filter(|_| !padded) {
        space.remove();
    }
}

/// The strings of the array at `path` in `value`.
fn held<'a>(value: &'a Value, path: &[&str]) -> Vec<&'a str> {
    lookup(value, path)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A JSON value as jsonc-parser inserts it.
fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}
