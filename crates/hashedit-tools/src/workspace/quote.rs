//! How workspace paths are spelled for the model, and how that spelling is
//! read back.
//!
//! Every tool prints paths on one line: `[path#TAG]` headers, grep rows,
//! glob and list_dir listings, messages. A file name may hold a newline, a
//! tab or another control character that would break that layout, so such
//! a path is shown **quoted**: between double quotes, with these escapes
//! (the same spelling as a Rust string literal for these characters):
//!
//! | character                                   | written as          |
//! |---------------------------------------------|---------------------|
//! | `\` (backslash)                             | `\\`                |
//! | `"` (double quote)                          | `\"`                |
//! | tab, line feed, carriage return, NUL        | `\t`, `\n`, `\r`, `\0` |
//! | any other control character (Unicode `Cc`), U+2028, U+2029 | `\u{…}` (lowercase hex, no leading zeros) |
//!
//! Everything else, including spaces and non-ASCII letters, is written as
//! is. A path is quoted when it holds a character that needs an escape,
//! when it starts or ends with whitespace (which a `[path#TAG]` header
//! would lose: `" lead.txt"`), or when it, or one of its `/`-separated
//! components, starts and ends with `"` itself (so that the literal name
//! `"x"` is shown as `"\"x\""` and is never mistaken for the quoted
//! spelling of `x`). Other paths are shown unchanged. [`display_path`] is the one
//! function that applies this rule; every tool uses it.
//!
//! [`parse_quoted`] reads a quoted spelling back: a whole path between
//! double quotes, or any single `/`-separated component between double
//! quotes (a list_dir name pasted after its directory: `src/"a\tb.rs"`). It
//! accepts exactly the escapes above (`\u{…}` with 1 to 6 hex digits, either
//! case, naming a Unicode scalar value) and refuses anything else, including
//! an unescaped `"` inside the quotes; a refused spelling is then a literal
//! name. [`crate::workspace::Workspace::resolve`] decides between the
//! unquoted and the literal reading (see there).
//!
//! A byte of a name that is not valid UTF-8 is written `\xNN` (two hex
//! digits) in a quoted path, and read back as that byte (module `bytes`):
//! `"caf\xe9.txt"` names the Latin-1 file `caf\xE9.txt`.

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

/// The spelling of a workspace-relative path (or a single name) that every
/// tool prints: `raw` itself, or `raw` quoted and escaped when it holds a
/// control character (or U+2028/U+2029), starts or ends with whitespace,
/// or when it or one of its `/`-separated components starts and ends with
/// `"` (see the module docs). The result never contains a line break, and
/// [`parse_quoted`] turns a quoted result back into `raw`.
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

/// Reads a quoted spelling back (see the module docs): `Some(path)` when
/// `written` is a whole path between double quotes using only the escapes
/// [`display_path`] writes, or else has at least one `/`-separated
/// component between double quotes and every such component uses only
/// those escapes; `None` otherwise (the spelling is then a plain, literal
/// path).
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
