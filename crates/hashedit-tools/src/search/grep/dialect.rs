//! Patterns written for another regex dialect (FORMAT.md §8.1).
//!
//! grep's basic syntax spells alternation `\|`; in Rust's syntax `\|` is
//! a literal `|`, so `json\|tool` looks for the text `json|tool` and
//! usually finds nothing. And an empty alternative (`a || b`, a leading or
//! trailing `|`, `(|x)`) matches the empty string, so the pattern matches
//! every line. Both shapes are legal, so they are searched as written; the
//! summary says what they mean here and what to write instead.

/// The note for `pattern` when it has one of the shapes above, else
/// `None`.
pub(super) fn note(pattern: &str) -> Option<String> {
    if pattern.contains("\\|") {
        let meant = pattern.replace("\\|", "|");
        return Some(format!(
            "note: in this regex syntax (Rust's) \\| matches a literal '|', it is not alternation as in grep's \
             basic syntax; for either side write '{meant}', or set literal for the text as written"
        ));
    }
    if has_empty_alternative(pattern) {
        let meant = collapse_empty_alternatives(pattern);
        let instead = if meant.is_empty() {
            String::from("drop the stray '|'")
        } else {
            format!("for either side write '{meant}'")
        };
        return Some(format!(
            "note: '{pattern}' has an empty alternative (as in '||' or a leading or trailing '|'), which \
             matches every line; {instead}, or set literal to search for the text as written"
        ));
    }
    None
}

/// The note for a `pattern` holding a line break (literal or not): grep
/// matches one line at a time, so such a pattern never matches, and a
/// clean "no matches" would mislead.
pub(super) fn line_break_note(pattern: &str) -> Option<String> {
    pattern.contains('\n').then(|| {
        String::from(
            "note: the pattern holds a line break, and grep matches one line at a time, so it can \
             never match; search for one line of it",
        )
    })
}

/// Whether an unescaped, unbracketed `|` has nothing on one side.
fn has_empty_alternative(pattern: &str) -> bool {
    let mut previous: Option<char> = None;
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
                previous = Some('x');
                continue;
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '|' if !in_class => {
                let before_empty = matches!(previous, None | Some('|') | Some('('));
                let after_empty = matches!(chars.peek(), None | Some('|') | Some(')'));
                if before_empty || after_empty {
                    return true;
                }
            }
            _ => {}
        }
        previous = Some(c);
    }
    false
}

/// `pattern` with runs of `|` collapsed and leading/trailing ones (also
/// inside a group) dropped, spaces around a `||` trimmed: the likely
/// meaning (`a || b` → `a|b`).
fn collapse_empty_alternatives(pattern: &str) -> String {
    let parts: Vec<&str> = pattern
        .split('|')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect();
    parts.join("|")
}

#[cfg(test)]
mod tests;
