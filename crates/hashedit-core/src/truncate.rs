//! The output budget: how long a tool reply may be (FORMAT.md §4.2). Views
//! fit themselves to it; this cut, at a char boundary with a marker, is the
//! last guard for the rest, and never applies to failure messages.

/// Default output budget in bytes, as Rho's (FORMAT.md §4.2).
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 64_000;

/// Appended when a reply was cut (12 bytes).
pub const TRUNCATION_MARKER: &str = "\n[truncated]";

/// Cuts `text` to at most `budget` bytes at a char boundary and appends
/// [`TRUNCATION_MARKER`]. A `[path#TAG]` header line is never cut: the cut
/// moves before it, except for the reply's first header, kept whole even
/// past the budget, since without it the reply offers no tag.
pub fn truncate_to_budget(mut text: String, budget: usize) -> String {
    if text.len() <= budget {
        return text;
    }
    let mut cut = budget;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let line_start = text[..cut].rfind('\n').map_or(0, |at| at + 1);
    let line_end = text[cut..].find('\n').map_or(text.len(), |at| cut + at);
    if cut > line_start && is_snapshot_header(&text[line_start..line_end]) {
        let earlier_header = text[..line_start].lines().any(is_snapshot_header);
        cut = if earlier_header { line_start } else { line_end };
    }
    if cut == text.len() {
        return text;
    }
    text.truncate(cut);
    // The marker starts its own line: line breaks before it add nothing.
    let kept = text.trim_end_matches('\n').len();
    text.truncate(kept);
    text.push_str(TRUNCATION_MARKER);
    text
}

/// Whether `line` is a snapshot header `[path#TAG]` (FORMAT.md §4.1): a
/// `[`, a path, `#`, four hex digits and `]`.
pub(crate) fn is_snapshot_header(line: &str) -> bool {
    let Some(inner) = line
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    else {
        return false;
    };
    match inner.rsplit_once('#') {
        Some((path, tag)) => !path.is_empty() && crate::SnapshotTag::parse(tag).is_some(),
        None => false,
    }
}

/// The first `max_chars` characters of `text`, plus `…` when anything was
/// cut (grep previews: 200 characters, FORMAT.md §4.3).
pub fn truncate_chars(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
