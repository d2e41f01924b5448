//! Unified diffs of an edit, for `edit --dry-run` and UI metadata.
//!
//! Diffs are never part of the model-facing reply (the preview is); they
//! serve people reviewing a change. Built on the `similar` crate.

use similar::TextDiff;

/// Context lines around each diff hunk.
pub const DIFF_CONTEXT_LINES: usize = 3;

/// A unified diff from `old` to `new` with `a/PATH` and `b/PATH` headers.
///
/// Returns an empty string when the texts are equal. Both sides are
/// decoded lossily for display only; the edit itself is byte-exact.
pub fn unified_diff(display_path: &str, old: &[u8], new: &[u8]) -> String {
    if old == new {
        return String::new();
    }
    let old = String::from_utf8_lossy(old);
    let new = String::from_utf8_lossy(new);
    let diff = TextDiff::from_lines(old.as_ref(), new.as_ref());
    diff.unified_diff()
        .context_radius(DIFF_CONTEXT_LINES)
        .missing_newline_hint(true)
        .header(&format!("a/{display_path}"), &format!("b/{display_path}"))
        .to_string()
}

#[cfg(test)]
mod tests;
