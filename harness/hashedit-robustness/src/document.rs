//! Hashline documents as the benchmark writes them.
//!
//! A [`DocSpec`] is a document with its snapshot tag left open: each engine
//! mints tags in its own scheme, so the same document is rendered once per
//! engine with the tag that engine gave the original file. Everything else
//! (ops, rows, line endings, fences, tag case) is fixed by the spec, so the
//! engines receive the same text up to those four hex digits.

use hashedit_core::SnapshotTag;

use crate::hunks::Hunk;

/// One op as written: its header line and the lines under it, verbatim
/// (body rows carry their `+`, or whatever the mistake put there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocOp {
    /// The header line, e.g. `PUT 3.=4:`.
    pub header: String,
    /// The lines under the header.
    pub rows: Vec<String>,
}

/// A one-section document for one file, its tag left open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocSpec {
    /// The section's path.
    pub path: String,
    /// The ops in document order.
    pub ops: Vec<DocOp>,
    /// Write the tag's hex digits in lowercase.
    pub lowercase_tag: bool,
    /// End every line with CRLF instead of LF.
    pub crlf: bool,
    /// Wrap the document in a Markdown code fence with this opening line
    /// (e.g. `` ```hashline ``).
    pub fence: Option<String>,
}

impl DocSpec {
    /// A plain document of `ops` for `path`.
    pub fn new(path: &str, ops: Vec<DocOp>) -> DocSpec {
        DocSpec {
            path: path.to_string(),
            ops,
            lowercase_tag: false,
            crlf: false,
            fence: None,
        }
    }

    /// The document text with `tag` in the header.
    pub fn render(&self, tag: SnapshotTag) -> String {
        let mut tag = tag.to_string();
        if self.lowercase_tag {
            tag.make_ascii_lowercase();
        }
        let mut lines: Vec<&str> = Vec::new();
        if let Some(fence) = &self.fence {
            lines.push(fence);
        }
        let header = format!("[{}#{tag}]", self.path);
        lines.push(&header);
        for op in &self.ops {
            lines.push(&op.header);
            lines.extend(op.rows.iter().map(String::as_str));
        }
        if self.fence.is_some() {
            lines.push("```");
        }
        let eol = if self.crlf { "\r\n" } else { "\n" };
        let mut out = lines.join(eol);
        out.push_str(eol);
        out
    }
}

/// The canonical header of a hunk: `PUT N:`, `PUT N.=M:`, `CUT N`,
/// `CUT N.=M`, `PUT <1:` or `PUT >N:`.
pub fn header(hunk: &Hunk) -> String {
    let range = |start: usize, end: usize| {
        if start == end {
            format!("{start}")
        } else {
            format!("{start}.={end}")
        }
    };
    match hunk {
        Hunk::Replace { start, end, .. } => format!("PUT {}:", range(*start, *end)),
        Hunk::Delete { start, end } => format!("CUT {}", range(*start, *end)),
        Hunk::Insert { after: 0, .. } => "PUT <1:".to_string(),
        Hunk::Insert { after, .. } => format!("PUT >{after}:"),
    }
}

/// `+` body rows.
pub fn plus_rows(rows: &[String]) -> Vec<String> {
    rows.iter().map(|r| format!("+{r}")).collect()
}

/// The op that writes `hunk` correctly.
pub fn op(hunk: &Hunk) -> DocOp {
    DocOp {
        header: header(hunk),
        rows: hunk.rows().map(plus_rows).unwrap_or_default(),
    }
}

/// The correct document for `hunks`: one op per hunk, in order.
pub fn oracle_ops(hunks: &[Hunk]) -> Vec<DocOp> {
    hunks.iter().map(op).collect()
}

#[cfg(test)]
mod tests;
