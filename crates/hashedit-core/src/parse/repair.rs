//! Detectors for the usual mistakes, each with the line to copy when it
//! can be derived without guessing content: another patch format, a
//! missing or foreign verb, rows without `+`, a fence around the document,
//! rows numbered as a read prints them, our own footers pasted back, and
//! headers with decoration or without brackets.

use super::PutTarget;
use super::locator::{parse_range, parse_target_with_warning};
use crate::document::{Gap, OpKind, Target};
use crate::problem::{ForeignShape, RowShape};
use crate::tag::SnapshotTag;

/// The op for a line that uses another word for one (`DEL 4`,
/// `delete 2.=3`, `remove 7`) or a file op in lower case (`rem`,
/// `mv new.rs`), when the rest of the line is a plain locator or path.
pub(super) fn foreign_verb_fix(trimmed: &str) -> Option<String> {
    let (word, rest) = trimmed
        .split_once(char::is_whitespace)
        .map_or((trimmed, ""), |(w, r)| (w, r.trim()));
    let lower = word.to_ascii_lowercase();
    let numeric = |r: &str| {
        !r.is_empty()
            && r.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | '=' | '-' | '*'))
    };
    match lower.as_str() {
        "del" | "delete" | "remove" | "drop" if numeric(rest) => {
            parse_target_with_warning(rest).ok()?;
            Some(format!("CUT {rest}"))
        }
        "rem" if rest.is_empty() && word != "REM" => Some("REM".to_string()),
        "mv" if !rest.is_empty() && word != "MV" => Some(format!("MV {rest}")),
        _ => None,
    }
}

/// Lines of other patch formats.
pub(super) fn foreign_shape(trimmed: &str) -> Option<ForeignShape> {
    let lower = trimmed.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("***") {
        let rest = rest.trim_start();
        if [
            "update file",
            "add file",
            "delete file",
            "move to",
            "end of file",
        ]
        .iter()
        .any(|p| rest.starts_with(p))
        {
            return Some(ForeignShape::ApplyPatch);
        }
    }
    if trimmed.starts_with("@@") {
        return Some(ForeignShape::UnifiedDiffHunk);
    }
    None
}

/// For `2.=3:` or `5` (a range without an op), the two corrected ops.
pub(super) fn missing_verb_fix(trimmed: &str) -> Option<String> {
    let (locator, colon) = match trimmed.strip_suffix(':') {
        Some(l) => (l.trim_end(), true),
        None => (trimmed, false),
    };
    if !locator.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let (range, separator) = parse_range(locator).ok()?;
    // `12:` alone may be a pasted empty read row; that is a bare row.
    if colon && separator.is_none() {
        return None;
    }
    let canonical = range.canonical();
    Some(format!(
        "PUT {canonical}:  (then + rows)  or  CUT {canonical}"
    ))
}

pub(super) fn row_shape(raw: &str) -> RowShape {
    let t = raw.trim_start();
    if t.is_empty() {
        return RowShape::Blank;
    }
    if t.starts_with("```") || t.starts_with("~~~") {
        return RowShape::Fence;
    }
    if t.starts_with('+') {
        return RowShape::IndentedPlus;
    }
    if matches!(t.trim_end(), "…" | "...") {
        return RowShape::Ellipsis;
    }
    if t.starts_with('-') && !t.starts_with("---") {
        return RowShape::DiffMinus;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let after = t[digits..].trim_start();
        if after.starts_with(':') || after.starts_with('|') {
            return RowShape::NumberedRow;
        }
    }
    RowShape::Plain
}

/// The corrected row (inside a body) or op (outside one) for a row without
/// `+`, as a hint only: it is never applied.
pub(super) fn bare_row_fix(raw: &str, shape: RowShape, in_body: bool) -> Option<String> {
    match shape {
        RowShape::NumberedRow => {
            let t = raw.trim_start();
            let digits = t.bytes().take_while(u8::is_ascii_digit).count();
            let after = t[digits..].trim_start();
            let text = match after.strip_prefix('|') {
                Some(rest) => rest.strip_prefix(' ').unwrap_or(rest),
                None => &after[1..],
            };
            if in_body {
                Some(format!("+{text}"))
            } else {
                Some(format!("PUT {}:\n+{text}", &t[..digits]))
            }
        }
        // Our own footers pasted into a body are not content to suggest.
        RowShape::Plain if in_body && !is_view_metadata(raw.trim()) => Some(format!("+{raw}")),
        RowShape::DiffMinus
        | RowShape::Fence
        | RowShape::Blank
        | RowShape::OrphanPlus
        | RowShape::IndentedPlus
        | RowShape::Ellipsis
        | RowShape::Plain => None,
    }
}

/// The document lines of a Markdown fence around the whole document: the
/// first non-blank line opens one, the last closes it (a fence inside a
/// body is written `+```` `).
pub(super) fn outer_fence(input: &str) -> Option<(usize, usize)> {
    let mut lines = input
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (first, opener) = lines.next()?;
    let (last, closer) = lines.last()?;
    let opener = opener.trim();
    let closer = closer.trim();
    let fence = ["```", "~~~"].into_iter().find(|f| opener.starts_with(f))?;
    let info = &opener[3..];
    let info_ok = info
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '.'));
    (info_ok && closer == fence).then_some((first + 1, last + 1))
}

/// The `PUT` op on `target` with `rows`, canonically spelled: a fix to
/// copy.
pub(super) fn corrected_op(target: PutTarget, rows: &[String]) -> String {
    let mut fix = match target {
        PutTarget::Replace(target) => format!("PUT {}:", target.canonical()),
        PutTarget::Insert(at) => format!("PUT {}:", at.canonical()),
        PutTarget::Substitute(within) => OpKind::Substitute {
            within,
            old: Vec::new(),
            body: Vec::new(),
        }
        .canonical_header(),
    };
    for row in rows {
        fix.push_str("\n+");
        fix.push_str(row);
    }
    fix
}

/// A `SUB` within `within` as it reads with these old and new rows: the
/// fix offered for rows pasted from a read.
pub(super) fn corrected_sub(within: Option<Target>, old: &[String], rows: &[String]) -> String {
    let mut fix = corrected_op(PutTarget::Substitute(within), &[]);
    for row in old {
        fix.push_str("\n-");
        fix.push_str(row);
    }
    for row in rows {
        fix.push_str("\n+");
        fix.push_str(row);
    }
    fix
}

/// The rows without their prefixes when every row of a body starts with
/// `N:` and the numbers count up by one from the op's own line (for an
/// insert, from its anchor or the line after it; for an insert at the end,
/// any start, but at least two rows): rows pasted from a read.
pub(super) fn numbered_body(target: PutTarget, body: &[String]) -> Option<Vec<String>> {
    let mut numbers = Vec::with_capacity(body.len());
    let mut stripped = Vec::with_capacity(body.len());
    for row in body {
        let digits = row.bytes().take_while(u8::is_ascii_digit).count();
        let rest = row[digits..].strip_prefix(':')?;
        numbers.push(row[..digits].parse::<usize>().ok()?);
        stripped.push(rest.to_string());
    }
    let first = *numbers.first()?;
    if numbers.iter().enumerate().any(|(i, &n)| n != first + i) {
        return None;
    }
    let expected: &[usize] = match target {
        PutTarget::Replace(Target::Lines(range)) => &[range.start],
        PutTarget::Replace(Target::Block(n)) => &[n],
        PutTarget::Insert(Gap::After(n) | Gap::AfterBlock(n)) => &[n, n + 1],
        PutTarget::Insert(Gap::Before(n)) => &[n.saturating_sub(1), n],
        // The parser does not know the file's length, so any numbering
        // could be the end's; one row (`12:30 standup` appended) is too
        // little evidence, several counting up are not.
        PutTarget::Insert(Gap::End) => return (body.len() >= 2).then_some(stripped),
        PutTarget::Substitute(Some(Target::Lines(range))) => &[range.start],
        PutTarget::Substitute(Some(Target::Block(n))) => &[n],
        // Anywhere in the file: as for an insert at the end.
        PutTarget::Substitute(None) => return (body.len() >= 2).then_some(stripped),
    };
    expected.contains(&first).then_some(stripped)
}

/// Our own footers and gap rows, pasted back by a model: `…`,
/// `[lines 2-3 of 4 shown; …]`, `[12 of 80 lines shown; …]`,
/// `[post-edit lines …]`, `[structural edit: …]`, `[line 5 is … bytes …]`.
pub(super) fn is_view_metadata(trimmed: &str) -> bool {
    if trimmed == "…" || trimmed == "..." {
        return true;
    }
    let Some(inner) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
        return false;
    };
    if inner.contains('#') {
        return false;
    }
    if ["lines ", "post-edit lines ", "structural edit", "line "]
        .iter()
        .any(|p| inner.starts_with(p))
        && inner.contains(|c: char| c.is_ascii_digit())
    {
        return true;
    }
    // `12 of 80 lines shown`
    let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && inner[digits..].starts_with(" of ")
}

/// A valid header with decoration around it (Markdown code or bold marks,
/// a heading `#`, a note after it): the header alone.
pub(super) fn decorated_header_fix(trimmed: &str) -> Option<String> {
    let open = trimmed.find('[')?;
    let close = open + trimmed[open..].find(']')?;
    let candidate = &trimmed[open..=close];
    if candidate == trimmed {
        return None;
    }
    let inner = &candidate[1..candidate.len() - 1];
    let (path, tag) = inner.rsplit_once('#')?;
    let path = path.trim();
    (!path.is_empty() && SnapshotTag::parse(tag.trim()).is_some())
        .then(|| format!("[{path}#{}]", tag.trim().to_ascii_uppercase()))
}

/// `path#TAG` written without brackets: the bracketed header.
pub(super) fn bracketless_header_fix(trimmed: &str) -> Option<String> {
    let (path, tag) = trimmed.rsplit_once('#')?;
    let path = path.trim();
    let valid = !path.is_empty()
        && !path.contains(char::is_whitespace)
        && SnapshotTag::parse(tag.trim()).is_some();
    valid.then(|| format!("[{path}#{}]", tag.trim().to_ascii_uppercase()))
}
