//! A document read exactly as written, by the reference model.
//!
//! To say whether a refusal *prevented* a wrong write, the benchmark needs
//! the file a document gives when applied as sent. That is defined here for
//! plain hashline only: canonical headers (`PUT N:`, `PUT N.=M:`, `PUT <N:`,
//! `PUT >N:`, `CUT N`, `CUT N.=M`) with `+` rows (one `+` removed), `SUB`
//! ops (`SUB N:`, `SUB N.=M:`, `SUB:` with `-` rows, then `+` rows, read
//! by [`crate::forms::sub::resolve`]) and `EOF NEWLINE` / `EOF NO NEWLINE`,
//! applied to the live file by [`apply`]. Anything else has no literal
//! reading (a fence, a row without `+`, `PUT 12.:`, a `PUT` without rows),
//! nor has a document whose ops overlap or leave the file, or a `SUB`
//! whose old text is not there exactly once: an engine must refuse or
//! repair it, and neither counts as stopping a wrong write.

use crate::document::DocSpec;
use crate::forms::sub::{SubOp, resolve};
use crate::forms::text::Text;
use crate::hunks::{Hunk, Lines, apply};

/// The file `doc` gives when applied exactly as written to `live`; `None`
/// when it has no literal reading (see the module docs).
pub fn literal(doc: &DocSpec, live: &Lines) -> Option<Lines> {
    if doc.fence.is_some() {
        return None;
    }
    let text = Text::new(live);
    let mut hunks = Vec::new();
    let mut final_newline = None;
    for op in &doc.ops {
        match (op.header.as_str(), op.rows.is_empty()) {
            ("EOF NEWLINE", true) => final_newline = Some(true),
            ("EOF NO NEWLINE", true) => final_newline = Some(false),
            (header, _) if header.starts_with("SUB") => {
                hunks.push(resolve(&text, &sub_as_written(header, &op.rows)?).ok()?);
            }
            (header, _) => hunks.push(hunk_as_written(header, &op.rows)?),
        }
    }
    let mut out = apply(live, &hunks).ok()?;
    if let Some(wanted) = final_newline {
        out.final_newline = wanted;
    }
    Some(out)
}

/// A `SUB` op read as written: its locator, then `-` rows before `+`
/// rows; `None` for anything else.
fn sub_as_written(header: &str, rows: &[String]) -> Option<SubOp> {
    let locator = header.strip_prefix("SUB")?.strip_suffix(':')?;
    let locator = match locator.strip_prefix(' ') {
        Some(range) => Some(range_of(range)?),
        None if locator.is_empty() => None,
        None => return None,
    };
    let minus = rows.iter().take_while(|r| r.starts_with('-')).count();
    let old = rows[..minus].iter().map(|r| r[1..].to_string()).collect();
    let new = rows[minus..]
        .iter()
        .map(|r| r.strip_prefix('+').map(str::to_string))
        .collect::<Option<Vec<String>>>()?;
    Some(SubOp { locator, old, new })
}

/// One op read as written; `None` when it is not plain hashline.
fn hunk_as_written(header: &str, rows: &[String]) -> Option<Hunk> {
    let rows: Vec<String> = rows
        .iter()
        .map(|r| r.strip_prefix('+').map(str::to_string))
        .collect::<Option<_>>()?;
    if let Some(range) = header.strip_prefix("CUT ") {
        let (start, end) = range_of(range)?;
        return rows.is_empty().then_some(Hunk::Delete { start, end });
    }
    let locator = header.strip_prefix("PUT ")?.strip_suffix(':')?;
    if rows.is_empty() {
        return None;
    }
    if let Some(n) = locator.strip_prefix('<') {
        let after = n.parse::<usize>().ok()?.checked_sub(1)?;
        return Some(Hunk::Insert { after, rows });
    }
    if let Some(n) = locator.strip_prefix('>') {
        let after = n.parse().ok()?;
        return Some(Hunk::Insert { after, rows });
    }
    let (start, end) = range_of(locator)?;
    Some(Hunk::Replace { start, end, rows })
}

/// `N` or `N.=M`.
fn range_of(text: &str) -> Option<(usize, usize)> {
    match text.split_once(".=") {
        Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
        None => {
            let n = text.parse().ok()?;
            Some((n, n))
        }
    }
}

#[cfg(test)]
mod tests;
