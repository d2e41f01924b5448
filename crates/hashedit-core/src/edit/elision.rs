//! The elision guard (FORMAT.md §7.5): a replacement body that stands a
//! placeholder comment in for real lines (`// ... existing code ...`,
//! `# ... rest unchanged ...`, `/* … */`). Written as sent, the lines it
//! stands for would be deleted and the placeholder stored as code.

use std::fmt;

use crate::hunk::{Hunk, HunkKind};
use crate::plan::OpRef;
use crate::text::Text;

/// A body row that is a placeholder comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elision {
    /// The op.
    pub op: OpRef,
    /// 1-based index of the row in the body.
    pub row: usize,
    /// The row, trimmed.
    pub text: String,
}

impl Elision {
    fn what(&self) -> String {
        format!(
            "{}: body row {} ({}) is a placeholder for lines, not code",
            self.op, self.row, self.text
        )
    }

    /// The warning, once the rows were written as sent.
    pub(crate) fn written(&self) -> String {
        format!(
            "{}; the lines it stands for were replaced by it (written as sent)",
            self.what()
        )
    }
}

impl fmt::Display for Elision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: written as sent, the lines it stands for would be deleted and the placeholder \
             stored in their place. Keep unchanged lines out of the op: edit only the lines that \
             change, with one op per changed run",
            self.what()
        )
    }
}

/// Comment openers and their closers, longest first.
const COMMENTS: &[(&str, &str)] = &[
    ("<!--", "-->"),
    ("{/*", "*/}"),
    ("/*", "*/"),
    ("(*", "*)"),
    ("{#", "#}"),
    ("//", ""),
    ("--", ""),
    (";;", ""),
    ("#", ""),
    (";", ""),
    ("%", ""),
    ("'", ""),
    ("*", ""),
];

/// Words that, with an ellipsis, say "the rest is as before"; a
/// placeholder names at least one of them, or holds nothing but the
/// ellipsis.
const STRONG_WORDS: &[&str] = &[
    "existing",
    "unchanged",
    "rest",
    "remaining",
    "same",
    "previous",
    "omitted",
    "elided",
    "original",
    "other",
    "more",
    "etc",
];

/// Words a placeholder may hold besides a strong one.
const FILLER_WORDS: &[&str] = &[
    "as",
    "of",
    "the",
    "code",
    "file",
    "lines",
    "here",
    "methods",
    "functions",
    "implementation",
    "body",
    "content",
    "contents",
    "logic",
    "stays",
    "stay",
    "kept",
    "keep",
    "no",
    "changes",
    "change",
    "below",
    "above",
    "is",
    "are",
    "goes",
    "go",
    "function",
    "method",
    "class",
    "props",
    "imports",
    "tests",
    "cases",
    "fields",
    "config",
    "styles",
    "before",
];

/// Words that say "as before" on their own, without an ellipsis
/// (`# (unchanged)`, `// existing code`).
const SELF_EVIDENT_WORDS: &[&str] = &["unchanged", "existing", "omitted", "elided"];

/// The comment text of `row` when it is a placeholder: a comment holding
/// only an ellipsis, or placeholder words with an ellipsis and a strong
/// word (`// ... existing code ...`), or a word that says it alone
/// (`# (unchanged)`); other text around an ellipsis is a real comment.
fn placeholder(row: &str) -> Option<&str> {
    let t = row.trim();
    let (open, close) = COMMENTS.iter().find(|(open, _)| t.starts_with(open))?;
    let inner = t[open.len()..].trim();
    let inner = inner.strip_suffix(close).unwrap_or(inner).trim();
    let ellipsis = inner.contains("...") || inner.contains('…');
    let rest = inner.replace("...", " ").replace('…', " ");
    if rest.trim().is_empty() {
        return ellipsis.then_some(t);
    }
    let words: Vec<String> = rest
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let punctuation_only = rest
        .chars()
        .all(|c| c.is_alphanumeric() || c.is_whitespace() || "()[]:,-.".contains(c));
    let strong = if ellipsis {
        words.iter().any(|w| STRONG_WORDS.contains(&w.as_str()))
    } else {
        words
            .iter()
            .any(|w| SELF_EVIDENT_WORDS.contains(&w.as_str()))
    };
    let fillers = words
        .iter()
        .all(|w| STRONG_WORDS.contains(&w.as_str()) || FILLER_WORDS.contains(&w.as_str()));
    (punctuation_only && strong && fillers).then_some(t)
}

/// Finds replacement rows that are placeholder comments where the lines
/// they replace hold no such comment (a real `// ...` comment the file
/// already has may be rewritten).
pub(crate) fn elisions(hunks: &[Hunk], live: &Text) -> Vec<Elision> {
    let mut found = Vec::new();
    for hunk in hunks {
        let HunkKind::Replace { range, body } = &hunk.kind else {
            continue;
        };
        let had = |text: &str| (range.start..=range.end).any(|n| live.line(n).trim() == text);
        if let Some((row, text)) = body
            .iter()
            .enumerate()
            .find_map(|(i, r)| placeholder(r).filter(|t| !had(t)).map(|t| (i + 1, t)))
        {
            found.push(Elision {
                op: OpRef::of(hunk),
                row,
                text: text.to_string(),
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::placeholder;

    #[test]
    fn placeholders_in_every_comment_syntax() {
        for row in [
            "    // ... existing code ...",
            "# ... rest unchanged ...",
            "/* … */",
            "  <!-- ... -->",
            "-- ... rest of the file ...",
            "; ...",
            "{/* ... existing props ... */}",
            "// …",
            "# ... (unchanged)",
            "# (unchanged)",
            "// existing code",
            "    // rest of the function unchanged",
        ] {
            assert!(placeholder(row).is_some(), "{row:?}");
        }
        for row in [
            "// TODO: handle ... later",
            "// - (...)",
            "/// * `f(...)` calls it",
            "let x = y...;",
            "# see ... for details about parsing",
            "// unchanged since 2019: see issue 12",
            "print('...')",
            "/* spread: ...args */",
        ] {
            assert_eq!(placeholder(row), None, "{row:?}");
        }
    }
}
