//! Checking tool arguments against the published input schemas (FORMAT.md
//! §8.2): types, `minimum`, `enum`, required and unknown properties, every
//! problem named in one message, so a mistyped `offest` is refused, never
//! ignored. `null` for an optional property counts as absent, and the
//! control properties clients add ([`CLIENT_CONTROL_ARGUMENTS`]) are
//! dropped before the check.

use rmcp::model::JsonObject;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::catalog::input_schema_ref;
use hashedit_tools::ToolName;

/// Longest rendering of an offending value quoted in a message (chars).
const QUOTE_CHARS: usize = 40;

/// Properties clients inject into every tool call for their own scheduling,
/// accepted and ignored: Gemini CLI's `wait_for_previous`.
pub const CLIENT_CONTROL_ARGUMENTS: &[&str] = &["wait_for_previous"];

/// Checks `arguments` against `tool`'s schema and deserialises them.
///
/// The error is the model-facing message, e.g.
/// `invalid arguments for read_file: offset must be an integer of at least 1, got 0`.
pub fn parse_arguments<T: DeserializeOwned>(
    tool: ToolName,
    arguments: Option<&JsonObject>,
) -> Result<T, String> {
    let empty = JsonObject::new();
    let arguments = arguments.unwrap_or(&empty);
    let problems = check(input_schema_ref(tool), arguments, tool);
    if !problems.is_empty() {
        return Err(format!(
            "invalid arguments for {}: {}",
            tool.as_str(),
            problems.join("; ")
        ));
    }
    // Optional properties sent as null are dropped, so the argument structs
    // see them as absent; so are the clients' control properties.
    let cleaned: JsonObject = arguments
        .iter()
        .filter(|(k, v)| !v.is_null() && !CLIENT_CONTROL_ARGUMENTS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    serde_json::from_value(Value::Object(cleaned))
        .map_err(|e| format!("invalid arguments for {}: {e}", tool.as_str()))
}

/// Every way `arguments` break `schema`, in a stable order: missing
/// required properties, then the given properties by name, then unknown
/// properties (by name).
fn check(schema: &JsonObject, arguments: &JsonObject, tool: ToolName) -> Vec<String> {
    let empty = JsonObject::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut problems = Vec::new();
    for name in &required {
        if !arguments.contains_key(*name) {
            problems.push(format!("missing required argument {name}"));
        }
    }
    let mut names: Vec<&String> = properties.keys().collect();
    names.sort();
    for name in names {
        let property = &properties[name];
        let Some(value) = arguments.get(name) else {
            continue;
        };
        if value.is_null() && !required.contains(&name.as_str()) {
            continue;
        }
        if let Some(problem) = check_value(name, property, value) {
            problems.push(problem);
        }
    }
    let mut known: Vec<&str> = properties.keys().map(String::as_str).collect();
    known.sort_unstable();
    let mut unknown: Vec<&String> = arguments
        .keys()
        .filter(|k| !properties.contains_key(*k) && !CLIENT_CONTROL_ARGUMENTS.contains(&k.as_str()))
        .collect();
    unknown.sort();
    for name in unknown {
        let guess = closest(name, &known)
            .map(|g| format!("did you mean {g}? "))
            .unwrap_or_default();
        problems.push(format!(
            "unknown argument {name} ({guess}{} takes only {})",
            tool.as_str(),
            known.join(", ")
        ));
    }
    problems
}

/// What is wrong with `value` for `property`, if anything.
fn check_value(name: &str, property: &Value, value: &Value) -> Option<String> {
    let kind = property.get("type").and_then(Value::as_str).unwrap_or("");
    let minimum = property.get("minimum").and_then(Value::as_u64);
    let fits_type = match kind {
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "integer" => value.is_u64() || value.is_i64(),
        _ => true,
    };
    let expected = || match (kind, minimum) {
        ("integer", Some(min)) => format!("an integer of at least {min}"),
        ("integer", None) => "an integer".to_string(),
        ("string", _) => "a string".to_string(),
        ("boolean", _) => "true or false".to_string(),
        (other, _) => other.to_string(),
    };
    if !fits_type {
        return Some(format!(
            "{name} must be {}, got {}",
            expected(),
            quote(value)
        ));
    }
    if let Some(min) = minimum {
        let below = match value.as_u64() {
            Some(n) => n < min,
            None => true, // a negative integer
        };
        if below {
            return Some(format!(
                "{name} must be {}, got {}",
                expected(),
                quote(value)
            ));
        }
    }
    if let Some(allowed) = property.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
        return Some(format!(
            "{name} must be one of {}, got {}",
            list.join(", "),
            quote(value)
        ));
    }
    None
}

/// The known name within two edits (insertions, deletions, substitutions
/// or swaps of neighbours) of `name`, when exactly one is that close.
fn closest<'k>(name: &str, known: &[&'k str]) -> Option<&'k str> {
    let near: Vec<&str> = known
        .iter()
        .copied()
        .filter(|k| edit_distance(name, k) <= 2)
        .collect();
    match near.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// Optimal string alignment distance between `a` and `b` (characters).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// A short rendering of a JSON value for a message.
fn quote(value: &Value) -> String {
    let kind = match value {
        Value::Null => return "null".to_string(),
        Value::Bool(_) | Value::Number(_) => return value.to_string(),
        Value::String(_) => "",
        Value::Array(_) => "an array ",
        Value::Object(_) => "an object ",
    };
    let text = value.to_string();
    if text.chars().count() <= QUOTE_CHARS {
        format!("{kind}{text}")
    } else {
        let cut: String = text.chars().take(QUOTE_CHARS).collect();
        format!("{kind}{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::CatalogEntry;
    use hashedit_tools::{EditArgs, GrepArgs, OutputMode, ReadFileArgs};
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(map) => map,
            _ => panic!("not an object"),
        }
    }

    fn read(value: Value) -> Result<ReadFileArgs, String> {
        parse_arguments(ToolName::ReadFile, Some(&object(value)))
    }

    #[test]
    fn accepts_valid_arguments_and_null_optionals() {
        assert_eq!(
            read(json!({"path": "a.txt", "offset": 2, "limit": null})).unwrap(),
            ReadFileArgs {
                path: "a.txt".into(),
                offset: Some(2),
                limit: None
            }
        );
        let grep: GrepArgs = parse_arguments(
            ToolName::Grep,
            Some(&object(json!({"pattern": "x", "output_mode": "count"}))),
        )
        .unwrap();
        assert_eq!(grep.output_mode, Some(OutputMode::Count));
    }

    #[test]
    fn names_every_bad_argument() {
        assert_eq!(
            read(json!({"offset": "3", "limit": 0})).unwrap_err(),
            "invalid arguments for read_file: missing required argument path; limit must be an \
             integer of at least 1, got 0; offset must be an integer of at least 1, got \"3\""
        );
        assert_eq!(
            read(json!({"path": 7, "offset": -1})).unwrap_err(),
            "invalid arguments for read_file: offset must be an integer of at least 1, got -1; \
             path must be a string, got 7"
        );
        assert_eq!(
            read(json!({"path": "a", "offset": 1.5})).unwrap_err(),
            "invalid arguments for read_file: offset must be an integer of at least 1, got 1.5"
        );
        assert_eq!(
            read(json!({"path": null})).unwrap_err(),
            "invalid arguments for read_file: path must be a string, got null"
        );
        assert_eq!(
            parse_arguments::<GrepArgs>(
                ToolName::Grep,
                Some(&object(
                    json!({"pattern": "x", "output_mode": "lines", "literal": "yes"})
                ))
            )
            .unwrap_err(),
            "invalid arguments for grep: literal must be true or false, got \"yes\"; output_mode \
             must be one of \"content\", \"files_with_matches\", \"count\", got \"lines\""
        );
    }

    #[test]
    fn edit_takes_only_input() {
        assert_eq!(
            parse_arguments::<EditArgs>(
                ToolName::Edit,
                Some(&object(json!({"input": "x", "path": "a"})))
            )
            .unwrap_err(),
            "invalid arguments for edit: unknown argument path (edit takes only force, input)"
        );
        assert_eq!(
            parse_arguments::<EditArgs>(ToolName::Edit, None).unwrap_err(),
            "invalid arguments for edit: missing required argument input"
        );
        assert_eq!(
            parse_arguments::<EditArgs>(
                ToolName::Edit,
                Some(&object(json!({"input": ["PUT 1:"]})))
            )
            .unwrap_err(),
            "invalid arguments for edit: input must be a string, got an array [\"PUT 1:\"]"
        );
    }

    #[test]
    fn every_tool_refuses_unknown_arguments_and_suggests_the_near_one() {
        assert_eq!(
            read(json!({"path": "a", "offest": 3})).unwrap_err(),
            "invalid arguments for read_file: unknown argument offest (did you mean offset? \
             read_file takes only limit, offset, path)"
        );
        assert_eq!(
            read(json!({"path": "a", "encoding": "utf-8"})).unwrap_err(),
            "invalid arguments for read_file: unknown argument encoding (read_file takes only \
             limit, offset, path)"
        );
        for tool in ToolName::ALL {
            let mut arguments = object(json!({"zzz_unknown": 1}));
            for required in ["path", "pattern", "content", "input"] {
                arguments.insert(required.into(), json!("x"));
            }
            let message = check(&tool.input_schema(), &arguments, tool).join("; ");
            assert!(
                message.contains(&format!(
                    "unknown argument zzz_unknown ({} takes only",
                    tool.as_str()
                )),
                "{tool:?}: {message}"
            );
        }
    }

    #[test]
    fn client_control_arguments_are_accepted_and_dropped() {
        assert_eq!(
            read(json!({"path": "a", "wait_for_previous": true})).unwrap(),
            ReadFileArgs {
                path: "a".into(),
                offset: None,
                limit: None
            }
        );
        assert_eq!(
            parse_arguments::<EditArgs>(
                ToolName::Edit,
                Some(&object(json!({"input": "x", "wait_for_previous": false})))
            )
            .unwrap()
            .input,
            "x"
        );
    }

    #[test]
    fn edit_distance_counts_swaps_as_one() {
        assert_eq!(edit_distance("offest", "offset"), 1);
        assert_eq!(edit_distance("pth", "path"), 1);
        assert_eq!(edit_distance("limit", "offset"), 5);
        assert_eq!(
            closest("pattren", &["glob", "path", "pattern"]),
            Some("pattern")
        );
        assert_eq!(closest("xyz", &["glob", "path"]), None);
    }

    #[test]
    fn long_values_are_shortened() {
        let long = "x".repeat(100);
        let message = read(json!({"path": "a", "limit": long})).unwrap_err();
        assert_eq!(
            message,
            format!(
                "invalid arguments for read_file: limit must be an integer of at least 1, got \"{}…",
                "x".repeat(39)
            )
        );
    }
}
