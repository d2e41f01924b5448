//! How workspace paths are spelled for the model, on one line, and read
//! back (FORMAT.md §8.5). A path holding a control character, U+2028 or
//! U+2029, starting or ending with whitespace, or with a component that
//! starts and ends with `"`, is shown quoted, with Rust's escapes for `\`,
//! `"`, tab, LF, CR and NUL, `\u{…}` for the rest and `\xNN` for a byte
//! that is not UTF-8 (module `bytes`). [`display_path`] applies the rule;
//! [`parse_quoted`] reads a quoted path, or a quoted component, back.

use std::borrow::Cow;

use super::bytes::{byte_char, char_byte};

/// Whether `c` is written as an escape inside a quoted path.
fn needs_escape(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}' || char_byte(c).is_some()
}

/// Whether `text` starts and ends with a double quote (and is not the
/// single character `"`).
fn looks_quoted(text: &str) -> bool {
    text.len() >= 2 && text.starts_with('"') && text.ends_with('"')
}

/// Whether `text` starts and ends with a single quote: an edit header
/// strips such quotes as noise, so a name that really has them is printed
/// double-quoted to survive the round trip.
fn looks_single_quoted(text: &str) -> bool {
    text.len() >= 2 && text.starts_with('\'') && text.ends_with('\'')
}

/// The spelling of a workspace-relative path (or a name) every tool prints:
/// `raw`, or `raw` quoted and escaped (see the module docs). It never holds
/// a line break, and [`parse_quoted`] reads it back.
///
/// ```
/// use hashedit_tools::display_path;
/// assert_eq!(display_path("src/a.rs"), "src/a.rs");
/// assert_eq!(display_path("new\nline.txt"), r#""new\nline.txt""#);
/// assert_eq!(display_path("tab\tx.txt"), r#""tab\tx.txt""#);
/// assert_eq!(display_path(r#""quoted""#), r#""\"quoted\"""#);
/// ```
pub fn display_path(raw: &str) -> Cow<'_, str> {
    let ambiguous = looks_quoted(raw)
        || looks_single_quoted(raw)
        || raw.split('/').any(looks_quoted)
        || raw.starts_with(char::is_whitespace)
        || raw.ends_with(char::is_whitespace)
        // A header path starting with `***` would lose an
        // apply_patch-looking prefix (`*** Update File: x`) when pasted
        // back unquoted.
        || raw.starts_with("***");
    if !ambiguous && !raw.chars().any(needs_escape) {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len() + 2);
    out.push('"');
    for c in raw.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if let Some(byte) = char_byte(c) => out.push_str(&format!("\\x{byte:02x}")),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    Cow::Owned(out)
}

/// Reads a quoted spelling back: `Some(path)` when `written` is a quoted
/// path, or has quoted components, using only the escapes [`display_path`]
/// writes; `None` otherwise (a literal path).
///
/// ```
/// use hashedit_tools::parse_quoted;
/// assert_eq!(parse_quoted(r#""new\nline.txt""#).as_deref(), Some("new\nline.txt"));
/// assert_eq!(parse_quoted(r#"src/"a\tb.rs""#).as_deref(), Some("src/a\tb.rs"));
/// assert_eq!(parse_quoted(r#""\u{1b}[0m""#).as_deref(), Some("\u{1b}[0m"));
/// assert_eq!(parse_quoted("plain.txt"), None);
/// assert_eq!(parse_quoted(r#""bad \q escape""#), None);
/// ```
pub fn parse_quoted(written: &str) -> Option<String> {
    if looks_quoted(written)
        && let Some(whole) = unescape(&written[1..written.len() - 1])
    {
        return Some(whole);
    }
    if !written.split('/').any(looks_quoted) {
        return None;
    }
    let mut out = String::with_capacity(written.len());
    for (i, part) in written.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        if looks_quoted(part) {
            out.push_str(&unescape(&part[1..part.len() - 1])?);
        } else {
            out.push_str(part);
        }
    }
    Some(out)
}

/// The raw path behind a spelling produced by [`display_path`]: the inverse
/// of [`display_path`] (`raw_path(&display_path(p)) == p` for every `p`).
pub fn raw_path(display: &str) -> Cow<'_, str> {
    if looks_quoted(display)
        && let Some(raw) = unescape(&display[1..display.len() - 1])
    {
        return Cow::Owned(raw);
    }
    Cow::Borrowed(display)
}

/// Undoes the escapes of the text between the quotes; `None` for an
/// unknown escape, a bad `\u{…}`, a trailing `\` or an unescaped `"`.
fn unescape(inner: &str) -> Option<String> {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return None,
            '\\' => {}
            c => {
                out.push(c);
                continue;
            }
        }
        let escaped = match chars.next()? {
            '\\' => '\\',
            '"' => '"',
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            '0' => '\0',
            // A byte of a name that is not UTF-8 (module `bytes`).
            'x' => {
                let high = chars.next()?.to_digit(16)?;
                let low = chars.next()?.to_digit(16)?;
                byte_char(u8::try_from(high * 16 + low).ok()?)
            }
            'u' => {
                if chars.next()? != '{' {
                    return None;
                }
                let mut value = 0u32;
                let mut digits = 0usize;
                loop {
                    let d = chars.next()?;
                    if d == '}' {
                        break;
                    }
                    value = value * 16 + d.to_digit(16)?;
                    digits += 1;
                    if digits > 6 {
                        return None;
                    }
                }
                if digits == 0 {
                    return None;
                }
                char::from_u32(value)?
            }
            _ => return None,
        };
        out.push(escaped);
    }
    Some(out)
}

#[cfg(test)]
mod tests;
