//! Finding the `id` and `method` of a JSON-RPC message too large to parse:
//! [`EnvelopeScanner`] runs over its bytes as they stream past, tracking
//! only string and nesting state, so the transport can answer the request
//! with an error instead of leaving the client waiting.

use rmcp::model::RequestId;

/// Longest raw `id` or `method` value kept (bytes); longer ones are dropped.
const MAX_VALUE_BYTES: usize = 256;
/// Longest top-level key remembered (bytes); only `id` and `method` matter.
const MAX_KEY_BYTES: usize = 16;

/// Which top-level member's value is being kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Id,
    Method,
}

/// A streaming scanner for the envelope of one JSON-RPC message.
#[derive(Debug, Default)]
pub(crate) struct EnvelopeScanner {
    /// A non-whitespace byte has been seen.
    started: bool,
    /// The message is not a JSON object, or its top-level object has ended.
    done: bool,
    /// Nesting depth: 1 inside the top-level object.
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// At depth 1, the next string is a key.
    expect_key: bool,
    capturing_key: bool,
    key: Vec<u8>,
    key_overflow: bool,
    /// The member whose value is being kept, if any.
    field: Option<Field>,
    value: Vec<u8>,
    value_overflow: bool,
    id: Option<Vec<u8>>,
    method: Option<Vec<u8>>,
}

/// What the scanner found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Envelope {
    /// The message is (at least the start of) a JSON object.
    pub is_object: bool,
    /// The top-level `id`, if present and a valid JSON-RPC id.
    pub id: Option<RequestId>,
    /// The top-level `method`, if present and a string.
    pub method: Option<String>,
}

impl EnvelopeScanner {
    /// A scanner at the start of a message.
    pub(crate) fn new() -> EnvelopeScanner {
        EnvelopeScanner::default()
    }

    /// Feeds the next bytes of the message.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.done {
                return;
            }
            self.step(b);
        }
    }

    fn step(&mut self, b: u8) {
        if !self.started {
            if b.is_ascii_whitespace() || b == 0xEF || b == 0xBB || b == 0xBF {
                // Whitespace or a UTF-8 byte order mark before the message.
                return;
            }
            self.started = true;
            if b == b'{' {
                self.depth = 1;
                self.expect_key = true;
            } else {
                self.done = true;
            }
            return;
        }
        if self.in_string {
            if self.capturing_key {
                if b == b'"' && !self.escaped {
                    self.capturing_key = false;
                } else if self.key.len() < MAX_KEY_BYTES {
                    self.key.push(b);
                } else {
                    self.key_overflow = true;
                }
            } else {
                self.keep(b);
            }
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.expect_key {
                    self.capturing_key = true;
                    self.key.clear();
                    self.key_overflow = false;
                } else {
                    self.keep(b);
                }
            }
            b'{' | b'[' => {
                self.depth += 1;
                self.keep(b);
            }
            b'}' | b']' => {
                if self.depth == 1 {
                    self.finish_value();
                    self.done = true;
                } else {
                    self.depth = self.depth.saturating_sub(1);
                    self.keep(b);
                }
            }
            b':' if self.depth == 1 => {
                self.expect_key = false;
                self.field = match (&self.key[..], self.key_overflow) {
                    (b"id", false) => Some(Field::Id),
                    (b"method", false) => Some(Field::Method),
                    _ => None,
                };
                self.value.clear();
                self.value_overflow = false;
            }
            b',' if self.depth == 1 => {
                self.finish_value();
                self.expect_key = true;
            }
            _ if b.is_ascii_whitespace() && self.depth == 1 => {}
            _ => self.keep(b),
        }
    }

    /// Keeps a byte of the current member's value, if it is one we want.
    fn keep(&mut self, b: u8) {
        if self.field.is_some() {
            if self.value.len() < MAX_VALUE_BYTES {
                self.value.push(b);
            } else {
                self.value_overflow = true;
            }
        }
    }

    fn finish_value(&mut self) {
        if let Some(field) = self.field.take() {
            let value = (!self.value_overflow).then(|| std::mem::take(&mut self.value));
            match field {
                Field::Id => self.id = value,
                Field::Method => self.method = value,
            }
        }
    }

    /// What was found so far.
    pub(crate) fn envelope(&self) -> Envelope {
        let id = self
            .id
            .as_deref()
            .and_then(|raw| serde_json::from_slice::<serde_json::Value>(raw).ok())
            .filter(|v| v.is_string() || v.is_i64() || v.is_u64())
            .and_then(|v| serde_json::from_value::<RequestId>(v).ok());
        let method = self
            .method
            .as_deref()
            .and_then(|raw| serde_json::from_slice::<String>(raw).ok());
        Envelope {
            is_object: self.started && self.depth > 0,
            id,
            method,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Envelope {
        let mut scanner = EnvelopeScanner::new();
        // Feed in awkward pieces to exercise state kept across calls.
        for chunk in text.as_bytes().chunks(3) {
            scanner.feed(chunk);
        }
        scanner.envelope()
    }

    #[test]
    fn finds_id_and_method_anywhere_at_top_level() {
        let big = "x".repeat(10_000);
        let e = scan(&format!(
            r#"{{"jsonrpc":"2.0","params":{{"name":"edit","arguments":{{"input":"{big} \"id\": 9 }} {{"}}}},"method":"tools/call","id":42}}"#
        ));
        assert_eq!(
            e,
            Envelope {
                is_object: true,
                id: Some(RequestId::Number(42)),
                method: Some("tools/call".into()),
            }
        );
        let e = scan(r#" {"id" : "abc-1" , "method":"tools\/call", "params": {"id": 5}}"#);
        assert_eq!(e.id, Some(RequestId::String("abc-1".into())));
        assert_eq!(e.method.as_deref(), Some("tools/call"));
    }

    #[test]
    fn rejects_what_is_not_an_id() {
        assert_eq!(scan(r#"{"method":"x","id":{"a":1}}"#).id, None);
        assert_eq!(scan(r#"{"method":"x","id":null}"#).id, None);
        assert_eq!(scan(r#"{"method":"x","id":1.5}"#).id, None);
        let long = format!(r#"{{"id":"{}"}}"#, "9".repeat(400));
        assert_eq!(scan(&long).id, None);
        let notification = scan(r#"{"jsonrpc":"2.0","method":"notifications/x"}"#);
        assert_eq!(notification.id, None);
        assert_eq!(notification.method.as_deref(), Some("notifications/x"));
    }

    #[test]
    fn garbage_is_not_an_object() {
        assert_eq!(scan("garbage {\"id\":1}"), Envelope::default());
        assert!(!scan("[{\"id\":1}]").is_object);
        assert!(scan("\u{feff}{\"id\":3}").id.is_some());
    }
}
