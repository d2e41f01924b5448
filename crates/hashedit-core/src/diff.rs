//! Unified diffs of an edit, for people and UI cards, never for the model
//! (FORMAT.md §6.6); built on `similar`.

use std::borrow::Cow;
use std::time::Duration;

use similar::TextDiff;

use crate::text::has_lone_cr;

/// Context lines around each diff hunk.
pub(crate) const DIFF_CONTEXT_LINES: usize = 3;

/// Longest time spent searching for the smallest diff; past it the diff
/// is still exact, only coarser (larger hunks). Bounds the cost an applied
/// edit of a huge file pays for its diff metadata.
pub(crate) const DIFF_TIMEOUT: Duration = Duration::from_millis(500);

/// What one side of a diff names in its `---` or `+++` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffSide<'a> {
    /// A workspace path: `a/PATH` before, `b/PATH` after.
    Path(&'a str),
    /// No file on this side (`/dev/null`): the after side of a deleted file.
    Absent,
}

impl DiffSide<'_> {
    fn label(self, prefix: &str) -> String {
        match self {
            DiffSide::Path(path) => format!("{prefix}{path}"),
            DiffSide::Absent => "/dev/null".to_string(),
        }
    }
}

/// A unified diff from `old` to `new` with `a/PATH` and `b/PATH` headers
/// (see [`unified_diff_between`], which this is with the same path on both
/// sides).
pub fn unified_diff(display_path: &str, old: &[u8], new: &[u8]) -> String {
    unified_diff_between(
        DiffSide::Path(display_path),
        DiffSide::Path(display_path),
        old,
        new,
    )
}

/// A unified diff from `old` (the file `before` names) to `new` (the file
/// `after` names), headed as git writes one (FORMAT.md §6.6); empty when
/// they are equal. Both sides are decoded lossily for display; lines end at
/// `\n` only, as in the line model, so a lone `\r` is carried as content.
pub fn unified_diff_between(
    before: DiffSide<'_>,
    after: DiffSide<'_>,
    old: &[u8],
    new: &[u8],
) -> String {
    if old == new {
        return String::new();
    }
    // Most texts hold no lone CR: they are diffed as they are, with no
    // copy and no stand-in to put back.
    let lone_cr = has_lone_cr(old) || has_lone_cr(new);
    let old = String::from_utf8_lossy(old);
    let new = String::from_utf8_lossy(new);
    let stand_in = lone_cr && !old.contains(LONE_CR) && !new.contains(LONE_CR);
    let (old, new) = if stand_in {
        (
            Cow::Owned(hide_lone_cr(&old)),
            Cow::Owned(hide_lone_cr(&new)),
        )
    } else {
        (old, new)
    };
    let diff = TextDiff::configure()
        .timeout(DIFF_TIMEOUT)
        .diff_lines(old.as_ref(), new.as_ref());
    let text = diff
        .unified_diff()
        .context_radius(DIFF_CONTEXT_LINES)
        .missing_newline_hint(true)
        .header(&before.label("a/"), &after.label("b/"))
        .to_string();
    if stand_in {
        text.replace(LONE_CR, "\r")
    } else {
        text
    }
}

/// Stands in for a `\r` that does not end a line while `similar` splits
/// lines: a noncharacter no text holds in practice (checked before use).
const LONE_CR: char = '\u{FDD0}';

/// `text` with every `\r` not followed by `\n` replaced by [`LONE_CR`].
fn hide_lone_cr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push(LONE_CR);
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests;
