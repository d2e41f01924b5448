//! Tool results as the model and the client receive them (FORMAT.md §8.2).
//! Some clients show a model a result's `structuredContent` instead of its
//! `content`, and a hashline reply is text to copy from, so by default a
//! result carries one text block (the CLI's text), `isError` on a failure,
//! and the facts in `_meta` under [`RESULT_META_KEY`], which clients pass to
//! the harness but never to the model. With [`StructuredContent::On`] the
//! facts and the text go into `structuredContent` too.

use hashedit_tools::{ErrorKind, Outcome};
use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::{Map, Value, json};

/// The `_meta` key under which every tool result carries its facts
/// (reverse-DNS prefix, as MCP asks of `_meta` keys).
pub const RESULT_META_KEY: &str = "io.github.hashedit/result";

/// Whether tool results also carry `structuredContent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StructuredContent {
    /// Only `content` and `_meta`: every client shows the model the text.
    #[default]
    Off,
    /// `structuredContent` too (the facts plus `"text"`), and an
    /// `outputSchema` on every tool, for harnesses that consume structured
    /// results.
    On,
}

/// A successful call: the tool's text, its facts in `_meta`, and, when
/// asked for, the facts with the text as structured content.
pub(crate) fn success(outcome: Outcome, shape: StructuredContent) -> CallToolResult {
    let structured = outcome.structured();
    let Outcome { text, image, .. } = outcome;
    let structured_content = match shape {
        StructuredContent::Off => None,
        StructuredContent::On => Some(with_text(without_diffs(structured.clone()), &text)),
    };
    let mut content = vec![ContentBlock::text(text)];
    // An image read_file read goes to the model as image content, so a
    // multimodal model sees it (FORMAT.md §4.5); its line of text stays.
    if let Some(image) = image {
        use base64::Engine as _;
        let data = base64::engine::general_purpose::STANDARD.encode(&image.bytes);
        content.push(ContentBlock::image(data, image.mime));
    }
    let mut result = CallToolResult::success(content);
    result.meta = Some(facts(structured));
    result.structured_content = structured_content;
    result
}

/// How a client shows the model a result flagged `isError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Errors {
    /// Its text, as for any result: failures are flagged `isError`.
    Flagged,
    /// Wrapped: Gemini CLI shows an `isError` result as escaped JSON, whose
    /// `\n` and `\t` the model would copy, so failures go unflagged (the
    /// text says nothing was written; the kind rides in `_meta`).
    Unflagged,
}

impl Errors {
    /// What the client named in `initialize` needs.
    pub(crate) fn for_client(info: Option<&rmcp::model::ClientConfig>) -> Errors {
        match info {
            Some(info) if info.client_info.name.starts_with("gemini-cli") => Errors::Unflagged,
            _ => Errors::Flagged,
        }
    }
}

/// A failed call: the message the CLI prints, flagged `isError` (unless the
/// client wraps such results, see [`Errors`]), and the failure's kind in
/// `_meta` (and in structured content, when asked for).
pub(crate) fn failure(
    kind: ErrorKind,
    message: String,
    shape: StructuredContent,
    errors: Errors,
) -> CallToolResult {
    let data = json!({ "kind": kind.name() });
    let structured_content = match shape {
        StructuredContent::Off => None,
        StructuredContent::On => Some(with_text(data.clone(), &message)),
    };
    let mut result = match errors {
        Errors::Flagged => CallToolResult::error(vec![ContentBlock::text(message)]),
        Errors::Unflagged => CallToolResult::success(vec![ContentBlock::text(message)]),
    };
    result.meta = Some(facts(data));
    result.structured_content = structured_content;
    result
}

/// `data` without the unified diffs an edit reports per file
/// (`files[].diff`): they are for UI cards, which read `_meta`, and some
/// clients show a model the structured content.
fn without_diffs(mut data: Value) -> Value {
    if let Some(files) = data.get_mut("files").and_then(Value::as_array_mut) {
        for file in files {
            if let Some(file) = file.as_object_mut() {
                file.remove("diff");
            }
        }
    }
    data
}

/// `_meta` holding `data` under [`RESULT_META_KEY`].
fn facts(data: Value) -> MetaObject {
    let mut meta = Map::new();
    meta.insert(RESULT_META_KEY.to_string(), data);
    MetaObject(meta)
}

/// `data` (an object) with `"text"` added; a non-object is wrapped as
/// `{"data": …, "text": …}`.
fn with_text(data: Value, text: &str) -> Value {
    let mut object = match data {
        Value::Object(object) => object,
        other => {
            let mut object = Map::new();
            object.insert("data".to_string(), other);
            object
        }
    };
    object.insert("text".to_string(), Value::String(text.to_string()));
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashedit_tools::{EditFacts, EditedFile, ReadFacts};

    fn wire(result: &CallToolResult) -> Value {
        serde_json::to_value(result).unwrap()
    }

    fn read_facts() -> ReadFacts {
        ReadFacts {
            path: "a.txt".into(),
            tag: "1234".into(),
            total_lines: 1,
            start: 1,
            end: 1,
            partial: false,
        }
    }

    #[test]
    fn by_default_the_text_is_the_only_content_and_facts_go_to_meta() {
        let outcome = Outcome::new("[a.txt#1234]\n1:x", read_facts());
        let value = wire(&success(outcome, StructuredContent::Off));
        assert_eq!(
            value["content"],
            json!([{"type": "text", "text": "[a.txt#1234]\n1:x"}])
        );
        assert_eq!(
            value["_meta"],
            json!({"io.github.hashedit/result": {"path": "a.txt", "tag": "1234", "total_lines": 1,
                "start": 1, "end": 1, "partial": false}})
        );
        assert!(value.get("structuredContent").is_none());
        assert!(value.get("isError").is_none() || value["isError"] == json!(false));
    }

    #[test]
    fn a_failure_carries_its_kind_in_meta_and_its_message_as_text() {
        let value = wire(&failure(
            ErrorKind::StaleTag,
            "a.txt: snapshot tag 1234 is stale".into(),
            StructuredContent::Off,
            Errors::Flagged,
        ));
        assert_eq!(value["isError"], json!(true));
        assert_eq!(
            value["content"],
            json!([{"type": "text", "text": "a.txt: snapshot tag 1234 is stale"}])
        );
        assert_eq!(
            value["_meta"],
            json!({"io.github.hashedit/result": {"kind": "stale_tag"}})
        );
        assert!(value.get("structuredContent").is_none());
    }

    #[test]
    fn clients_that_wrap_flagged_errors_get_them_unflagged() {
        let value = wire(&failure(
            ErrorKind::StaleTag,
            "a.txt: stale\n[a.txt#1234]\n1:x".into(),
            StructuredContent::Off,
            Errors::Unflagged,
        ));
        assert!(value.get("isError").is_none() || value["isError"] == json!(false));
        assert_eq!(
            value["content"][0]["text"],
            "a.txt: stale\n[a.txt#1234]\n1:x"
        );
        assert_eq!(
            value["_meta"],
            json!({"io.github.hashedit/result": {"kind": "stale_tag"}})
        );
    }

    #[test]
    fn an_edits_diffs_ride_in_meta_only() {
        let diff = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n";
        let file = EditedFile {
            path: "a.txt".into(),
            old_tag: "1234".into(),
            new_tag: Some("5678".into()),
            summary: "PUT 1: (1 → 1 line)".into(),
            changed: true,
            removed: false,
            moved_to: None,
            diff: Some(diff.into()),
        };
        let facts = EditFacts {
            files: vec![file],
            warnings: Vec::new(),
            dry_run: false,
            unpasted_registers: None,
        };
        let outcome = Outcome::new("PUT 1: (1 → 1 line)", facts);
        let file = json!({"path": "a.txt", "old_tag": "1234", "new_tag": "5678",
            "summary": "PUT 1: (1 → 1 line)", "changed": true, "removed": false, "moved_to": null});
        let mut with_diff = file.clone();
        with_diff["diff"] = json!(diff);
        let meta = json!({"files": [with_diff], "warnings": [], "dry_run": false});
        let value = wire(&success(outcome.clone(), StructuredContent::Off));
        assert_eq!(value["_meta"]["io.github.hashedit/result"], meta);
        assert_eq!(value["content"][0]["text"], "PUT 1: (1 → 1 line)");
        let value = wire(&success(outcome, StructuredContent::On));
        assert_eq!(value["_meta"]["io.github.hashedit/result"], meta);
        assert_eq!(
            value["structuredContent"],
            json!({"files": [file], "warnings": [], "dry_run": false, "text": "PUT 1: (1 → 1 line)"})
        );
    }

    #[test]
    fn structured_content_on_request_includes_the_text() {
        let outcome = Outcome::new("[a.txt#1234]\n1:x", read_facts());
        let value = wire(&success(outcome, StructuredContent::On));
        assert_eq!(
            value["structuredContent"],
            json!({"path": "a.txt", "tag": "1234", "total_lines": 1, "start": 1, "end": 1,
                "partial": false, "text": "[a.txt#1234]\n1:x"})
        );
        let value = wire(&failure(
            ErrorKind::ParseError,
            "bad".into(),
            StructuredContent::On,
            Errors::Flagged,
        ));
        assert_eq!(
            value["structuredContent"],
            json!({"kind": "parse_error", "text": "bad"})
        );
    }
}
