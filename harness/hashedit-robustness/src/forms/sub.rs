//! `SUB` ops: content-addressed substitution in a hashline document.
//!
//! The syntax is the one proposed for `docs/FORMAT.md` §5 (`SUB N:`,
//! `SUB N.=M:` or `SUB:`, then `-` rows holding the old text and `+` rows
//! the new). The engine does not parse it yet; these are the documents it
//! must land exactly once it does, and [`resolve`] is the reading the
//! generator writes for:
//!
//! * the old text is the `-` rows joined by `\n` (at least one row, not
//!   empty); it must occur exactly once (overlapping occurrences counted)
//!   in the locator's lines joined by `\n`, or in the whole file for
//!   `SUB:`;
//! * the match runs from offset `x` to `y` of the file's text; `P` is the
//!   text of the line holding `x` before it, `Q` the text of the line
//!   holding `y` after it (a position on a line break belongs to the line
//!   it ends, one at a line's start to that line);
//! * those lines become the lines of `P` + the `+` rows joined by `\n` +
//!   `Q`, except that with no `+` row, a match of whole lines (`P` and `Q`
//!   empty, the old text neither starting nor ending with a line break)
//!   deletes them: `SUB 4.=5:` with `-a` `-b` and no `+` row is `CUT 4.=5`
//!   checked against its text.
//!
//! Apart from that deletion this is plain text substitution (the file's
//! text with the old text replaced by the `+` rows joined by `\n`), so a
//! reading that puts a match starting or ending on a line break on the
//! other line lands the same bytes. The generator writes the deletion
//! only for lines whose first and last are not empty.

use std::ops::Range;

use crate::document::{DocOp, op as put_cut_op};
use crate::hunks::{Hunk, Lines, apply};

use super::text::{
    Region, Text, hunk_region, insert_before, occurrences, widen_by_lines, widen_by_units,
};

/// One `SUB` op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubOp {
    /// The lines searched (`first`, `last`); `None` for the whole file.
    pub locator: Option<(usize, usize)>,
    /// The old text's rows (without their `-`).
    pub old: Vec<String>,
    /// The new rows (without their `+`).
    pub new: Vec<String>,
}

impl SubOp {
    /// `SUB 12:`, `SUB 40.=44:` or `SUB:`.
    pub fn header(&self) -> String {
        match self.locator {
            None => "SUB:".to_string(),
            Some((a, b)) if a == b => format!("SUB {a}:"),
            Some((a, b)) => format!("SUB {a}.={b}:"),
        }
    }

    /// The op as document lines.
    pub fn doc_op(&self) -> DocOp {
        DocOp {
            header: self.header(),
            rows: self
                .old
                .iter()
                .map(|r| format!("-{r}"))
                .chain(self.new.iter().map(|r| format!("+{r}")))
                .collect(),
        }
    }
}

/// Why a `SUB` op does not land.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubError {
    /// No `-` row, or the old text is empty.
    NoOldText,
    /// The locator names lines outside the file.
    OutOfRange,
    /// The old text is not in the locator's lines.
    NotFound,
    /// The old text occurs more than once there.
    Ambiguous,
}

/// The lines an op changes and what they become, read as the module docs
/// say: a replacement or a deletion of the file's lines.
pub fn resolve(text: &Text, op: &SubOp) -> Result<Hunk, SubError> {
    let old = op.old.join("\n");
    if op.old.is_empty() || old.is_empty() {
        return Err(SubError::NoOldText);
    }
    let (first, last) = op.locator.unwrap_or((1, text.lines()));
    if first == 0 || first > last || last > text.lines() {
        return Err(SubError::OutOfRange);
    }
    let base = text.line_start(first);
    let scope = text.span(first, last);
    match occurrences(scope, &old, 2) {
        0 => return Err(SubError::NotFound),
        1 => {}
        _ => return Err(SubError::Ambiguous),
    }
    let x = base + scope.find(&old).expect("counted once");
    let y = x + old.len();
    let (ma, mb) = (text.line_at(x), text.line_at(y));
    let p = &text.text[text.line_start(ma)..x];
    let q = &text.text[y..text.line_end(mb)];
    if op.new.is_empty()
        && p.is_empty()
        && q.is_empty()
        && !old.starts_with('\n')
        && !old.ends_with('\n')
    {
        return Ok(Hunk::Delete { start: ma, end: mb });
    }
    let joined = format!("{p}{}{q}", op.new.join("\n"));
    Ok(Hunk::Replace {
        start: ma,
        end: mb,
        rows: joined.split('\n').map(str::to_string).collect(),
    })
}

/// How much of its lines a `SUB` op restates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubStyle {
    /// The fewest whole words around the change that are unique in the
    /// lines they lie on (the cheapest `SUB`).
    Minimal,
    /// The replaced lines restated whole (an insert restates the line it
    /// follows): the verified replace, a range one line off fails closed.
    WholeLines,
}

/// A `SUB` op and the hunks it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubGroup {
    /// The hunks (indices into the edit's hunks).
    pub hunks: Range<usize>,
    /// The op.
    pub op: SubOp,
}

/// The `SUB` ops of the edit of `old` whose line diff is `hunks`, in
/// `style`: one per hunk, except where two ops would need the same line
/// (two hunks a blank line apart, say), which become one op writing both.
/// `None` when not even one op for all hunks can be written (a generator
/// limit, counted by the callers).
pub fn sub_ops(old: &Lines, hunks: &[Hunk], style: SubStyle) -> Option<Vec<SubGroup>> {
    let text = Text::new(old);
    let mut groups: Vec<Range<usize>> = (0..hunks.len()).map(|i| i..i + 1).collect();
    'merge: loop {
        let mut done: Vec<SubGroup> = Vec::new();
        let mut taken: Vec<(usize, usize)> = Vec::new();
        for (g, range) in groups.iter().enumerate() {
            let hunk = merged(old, &hunks[range.clone()])?;
            let blocked: Vec<(usize, usize)> = hunks
                .iter()
                .enumerate()
                .filter(|(j, _)| !range.contains(j))
                .map(|(_, h)| h.footprint())
                .chain(taken.iter().copied())
                .collect();
            let Some(op) = sub_op(&text, &hunk, style, &blocked) else {
                if groups.len() == 1 {
                    return None;
                }
                let (a, b) = if g > 0 { (g - 1, g) } else { (0, 1) };
                let joined = groups[a].start..groups[b].end;
                groups.splice(a..=b, [joined]);
                continue 'merge;
            };
            taken.push(match resolve(&text, &op).ok()? {
                Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => (start, end),
                Hunk::Insert { .. } => unreachable!("resolve gives spans"),
            });
            done.push(SubGroup {
                hunks: range.clone(),
                op,
            });
        }
        return Some(done);
    }
}

/// `hunks` (next to each other in the file) as one: the hunk itself, or
/// the replacement of every line from the first they touch to the last.
fn merged(old: &Lines, hunks: &[Hunk]) -> Option<Hunk> {
    if let [one] = hunks {
        return Some(one.clone());
    }
    let touched = |h: &Hunk| match h {
        Hunk::Insert { after, .. } => ((*after).max(1), (*after).max(1)),
        Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => (*start, *end),
    };
    let first = hunks.iter().map(|h| touched(h).0).min()?;
    let last = hunks.iter().map(|h| touched(h).1).max()?;
    let part = Lines {
        lines: old.lines[first - 1..last].to_vec(),
        final_newline: true,
    };
    let moved: Vec<Hunk> = hunks
        .iter()
        .map(|h| h.shifted(1 - first as isize))
        .collect();
    let rows = apply(&part, &moved).ok()?.lines;
    Some(if rows.is_empty() {
        Hunk::Delete {
            start: first,
            end: last,
        }
    } else {
        Hunk::Replace {
            start: first,
            end: last,
            rows,
        }
    })
}

/// The `SUB` op writing `hunk`, whose lines stay clear of `blocked`.
fn sub_op(text: &Text, hunk: &Hunk, style: SubStyle, blocked: &[(usize, usize)]) -> Option<SubOp> {
    let free = |start: usize, end: usize| {
        let (a, b) = (text.line_at(start), text.line_at(end));
        blocked.iter().all(|&(s, e)| b < s || a > e)
    };
    let accept = |start: usize, end: usize| {
        start < end && free(start, end) && unique_in_lines(text, start, end)
    };
    if let Hunk::Delete { start, end } = hunk
        && !text.span(*start, *start).is_empty()
        && !text.span(*end, *end).is_empty()
    {
        return Some(SubOp {
            locator: Some((*start, *end)),
            old: lines_of(text, *start, *end),
            new: Vec::new(),
        });
    }
    let mut starts = vec![hunk_region(text, hunk)];
    starts.extend(insert_before(text, hunk));
    let (first, last) = (1, text.lines());
    let found = starts
        .iter()
        .filter_map(|region| {
            let (top, bottom) = hunk_lines(text, hunk, region);
            let by_units = || {
                let core = region.trimmed(&text.text).word_aligned(&text.text);
                widen_by_units(
                    &text.text,
                    &core,
                    text.line_start(top),
                    text.line_end(bottom),
                    accept,
                )
            };
            let whole = || widen_by_lines(text, region, (first, last), accept);
            match style {
                SubStyle::Minimal => by_units().or_else(whole),
                SubStyle::WholeLines
                    if matches!(hunk, Hunk::Replace { .. }) && region.start < region.end =>
                {
                    Some(region.clone())
                }
                SubStyle::WholeLines => whole(),
            }
        })
        .min_by_key(|r| (r.end - r.start) + r.new.len())?;
    Some(region_op(text, &found))
}

/// The lines a hunk's own change may use: its span, or for an insert the
/// line holding its start.
fn hunk_lines(text: &Text, hunk: &Hunk, region: &Region) -> (usize, usize) {
    match hunk {
        Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => (*start, *end),
        Hunk::Insert { .. } => {
            let n = text.line_at(region.start);
            (n, n)
        }
    }
}

/// Whether the text `start..end` occurs once in the lines it lies on.
fn unique_in_lines(text: &Text, start: usize, end: usize) -> bool {
    let (a, b) = (text.line_at(start), text.line_at(end));
    occurrences(text.span(a, b), &text.text[start..end], 2) == 1
}

/// Lines `first..=last` as rows.
fn lines_of(text: &Text, first: usize, last: usize) -> Vec<String> {
    text.span(first, last)
        .split('\n')
        .map(str::to_string)
        .collect()
}

/// The op replacing `region` of `text`, located on the lines it touches.
fn region_op(text: &Text, region: &Region) -> SubOp {
    let (a, b) = (text.line_at(region.start), text.line_at(region.end));
    let whole_lines = region.start == text.line_start(a) && region.end == text.line_end(b);
    let new = if region.new.is_empty() && !whole_lines {
        // P and Q hold text: no row and one empty row read alike.
        Vec::new()
    } else {
        region.new.split('\n').map(str::to_string).collect()
    };
    let old = region.old(&text.text).split('\n').map(str::to_string);
    SubOp {
        locator: Some((a, b)),
        old: old.collect(),
        new,
    }
}

/// The cheapest document ops of an edit: per hunk (per group of hunks
/// one `SUB` op writes), its `PUT`/`CUT` ops or its minimal `SUB` op,
/// whichever `cost` rates lower.
pub fn cheapest_ops(old: &Lines, hunks: &[Hunk], cost: impl Fn(&DocOp) -> usize) -> Vec<DocOp> {
    let Some(groups) = sub_ops(old, hunks, SubStyle::Minimal) else {
        return hunks.iter().map(put_cut_op).collect();
    };
    let mut ops = Vec::new();
    for group in groups {
        let put_cut: Vec<DocOp> = hunks[group.hunks].iter().map(put_cut_op).collect();
        let sub = group.op.doc_op();
        if cost(&sub) < put_cut.iter().map(&cost).sum() {
            ops.push(sub);
        } else {
            ops.extend(put_cut);
        }
    }
    ops
}

#[cfg(test)]
mod tests;
