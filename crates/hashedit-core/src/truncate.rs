//! The output budget: how long a tool reply may be.
//!
//! Rho cuts every successful reply at a char boundary at most
//! `max_output_bytes` long and appends a marker (reference-rho.md §10);
//! failure messages with live snapshots are never cut. Views that know
//! their rows (reads) fit themselves to the budget instead, so this is the
//! last guard for the rest.

/// Default output budget in bytes (reference-rho.md §10).
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 64_000;

/// Appended when a reply was cut (12 bytes).
pub const TRUNCATION_MARKER: &str = "\n[truncated]";

/// Cuts `text` to at most `budget` bytes at a char boundary and appends
/// [`TRUNCATION_MARKER`]; returns it unchanged when it fits.
///
/// The result can be up to `budget + 12` bytes long.
pub fn truncate_to_budget(mut text: String, budget: usize) -> String {
    if text.len() <= budget {
        return text;
    }
    let mut cut = budget;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    text.push_str(TRUNCATION_MARKER);
    text
}

/// The first `max_chars` characters of `text`, plus `…` when anything was
/// cut (grep previews: 200 characters, reference-rho.md §4).
pub fn truncate_chars(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
