//! The machine-readable shape of a tool reply, with the prose left out.
//!
//! hashedit matches Rho's shapes and numbers but words its footers, notices
//! and errors itself (FORMAT.md §2). To compare two replies we keep what a
//! model copies or counts on and drop the rest:
//!
//! * `[path#TAG]` headers,
//! * `N:text` rows (number and exact text),
//! * `N | text` grep match rows,
//! * `…` gap rows,
//! * bracketed notices (`[lines 2-3 of 4 shown; …]`), reduced to the numbers
//!   they carry,
//! * ops summary lines (`PUT 2: (1 → 1 line(s)); CUT 4 (1 line)`), reduced
//!   to their numbers.
//!
//! Everything else (sentences of an error, blank separators) is prose.

use std::fmt;

/// One machine-readable element of a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// `[path#TAG]`.
    Header {
        /// The display path.
        path: String,
        /// The 4-hex tag, uppercase.
        tag: String,
    },
    /// `N:text`.
    Row {
        /// The line number.
        n: usize,
        /// The row's text, verbatim.
        text: String,
    },
    /// `N | text`, a grep match preview.
    Match {
        /// The line number.
        n: usize,
        /// The preview text.
        text: String,
    },
    /// A line holding only `…`.
    Gap,
    /// A bracketed notice line (not a header): the numbers in it.
    Notice(Vec<u64>),
    /// An ops summary line: the numbers in it.
    Summary(Vec<u64>),
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Header { path, tag } => write!(f, "[{path}#{tag}]"),
            Item::Row { n, text } => write!(f, "{n}:{}", text.escape_debug()),
            Item::Match { n, text } => write!(f, "{n} | {}", text.escape_debug()),
            Item::Gap => f.write_str("…"),
            Item::Notice(numbers) => write!(f, "[notice {numbers:?}]"),
            Item::Summary(numbers) => write!(f, "(summary {numbers:?})"),
        }
    }
}

/// A reply reduced to its [`Item`]s, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shape {
    /// The items.
    pub items: Vec<Item>,
}

impl Shape {
    /// The headers, in order.
    pub fn headers(&self) -> Vec<(&str, &str)> {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Header { path, tag } => Some((path.as_str(), tag.as_str())),
                _ => None,
            })
            .collect()
    }

    /// The rows, in order, as (number, text).
    pub fn rows(&self) -> Vec<(usize, &str)> {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Row { n, text } => Some((*n, text.as_str())),
                _ => None,
            })
            .collect()
    }

    /// The items without notices and summaries: what a model copies.
    pub fn copyable(&self) -> Vec<&Item> {
        self.items
            .iter()
            .filter(|item| !matches!(item, Item::Notice(_) | Item::Summary(_)))
            .collect()
    }

    /// True when the reply has no header and no row.
    pub fn is_prose_only(&self) -> bool {
        !self
            .items
            .iter()
            .any(|item| matches!(item, Item::Header { .. } | Item::Row { .. }))
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for item in &self.items {
            writeln!(f, "{item}")?;
        }
        Ok(())
    }
}

/// Parses `[path#TAG]` (tag of exactly 4 hex digits) into (path, TAG).
pub fn parse_header(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (path, tag) = inner.rsplit_once('#')?;
    if path.is_empty() || tag.len() != 4 || !tag.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some((path.to_string(), tag.to_ascii_uppercase()))
}

/// Parses `N:text`.
pub fn parse_row(line: &str) -> Option<(usize, &str)> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || line.as_bytes()[0] == b'0' {
        return None;
    }
    let rest = line[digits..].strip_prefix(':')?;
    Some((line[..digits].parse().ok()?, rest))
}

/// Parses `N | text`.
pub fn parse_match(line: &str) -> Option<(usize, &str)> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || line.as_bytes()[0] == b'0' {
        return None;
    }
    let rest = line[digits..].strip_prefix(" | ")?;
    Some((line[..digits].parse().ok()?, rest))
}

/// Every decimal number in `text`, in order.
pub fn numbers(text: &str) -> Vec<u64> {
    let mut out = Vec::new();
    let mut current: Option<u64> = None;
    for c in text.chars() {
        match c.to_digit(10) {
            Some(d) => current = Some(current.unwrap_or(0).saturating_mul(10) + u64::from(d)),
            None => {
                if let Some(n) = current.take() {
                    out.push(n);
                }
            }
        }
    }
    out.extend(current);
    out
}

/// Whether `line` is an ops summary; ours may lead with the note that a
/// forced no-op section was left unchanged (FORMAT.md §7.8).
fn is_summary(line: &str) -> bool {
    let line = line
        .strip_prefix("left unchanged, nothing written: ")
        .unwrap_or(line);
    (line.starts_with("PUT ") || line.starts_with("CUT "))
        && (line.contains(" line)") || line.contains(" lines)") || line.contains("line(s))"))
}

/// Reduces a reply to its shape. Lines are split at `\n` only, so a row
/// whose text holds a lone CR stays one row.
pub fn parse(text: &str) -> Shape {
    let mut items = Vec::new();
    for line in text.split('\n') {
        if line.is_empty() {
            continue;
        }
        if let Some((path, tag)) = parse_header(line) {
            items.push(Item::Header { path, tag });
        } else if let Some((n, row)) = parse_row(line) {
            items.push(Item::Row {
                n,
                text: row.to_string(),
            });
        } else if let Some((n, text)) = parse_match(line) {
            items.push(Item::Match {
                n,
                text: text.to_string(),
            });
        } else if line == "…" {
            items.push(Item::Gap);
        } else if line.starts_with('[') && line.ends_with(']') {
            items.push(Item::Notice(numbers(line)));
        } else if is_summary(line) {
            items.push(Item::Summary(numbers(line)));
        }
    }
    Shape { items }
}

#[cfg(test)]
mod tests;
