//! A successful tool call: the model-facing text plus structured data.

use std::path::PathBuf;

use hashedit_core::Fingerprint;
use serde_json::Value;

/// What a tool returns on success.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Exactly the text the model reads (already fitted to the output
    /// budget).
    pub text: String,
    /// Machine-readable facts about the result (paths, tags, counts), for
    /// `--json` and MCP structured content. Shapes are documented per tool.
    pub structured: Value,
    /// Snapshot headers this reply showed that the tool did not record
    /// itself (grep's per-file headers), for the session to remember.
    pub served: Vec<Served>,
    /// An image `read_file` read, for surfaces that can show one (the MCP
    /// server sends it as image content; the CLI prints only the text).
    pub image: Option<Image>,
}

/// An image file's bytes and MIME type (FORMAT.md §4.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub mime: &'static str,
    /// The file's bytes, whole.
    pub bytes: Vec<u8>,
}

/// A `[path#TAG]` header shown to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// Canonical path of the file.
    pub target: PathBuf,
    /// Tag and digest of the bytes the header names.
    pub fingerprint: Fingerprint,
}

impl Outcome {
    /// An outcome with `text` and `structured` data.
    pub fn new(text: impl Into<String>, structured: Value) -> Outcome {
        Outcome {
            text: text.into(),
            structured,
            served: Vec::new(),
            image: None,
        }
    }
}
