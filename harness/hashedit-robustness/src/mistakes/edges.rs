//! Bodies that restate a kept line at one of their edges, in the forms
//! issue 13 names: both edges at once, the anchor line of an insert, and
//! the closing line below a body.
//!
//! Every restated line is one no hunk replaces or deletes, and not blank:
//! the author meant it as context, so the intended result is the target.

use crate::document::{DocOp, plus_rows};
use crate::hunks::Hunk;
use crate::mutate::Task;
use crate::rng::Rng;

use super::{try_hunk, try_op};

/// The text of line `n` when it exists, is not blank, and stays.
fn kept(task: &Task, n: usize) -> Option<&str> {
    if n == 0 || n > task.original.len() {
        return None;
    }
    let replaced = task
        .hunks
        .iter()
        .filter_map(Hunk::span)
        .any(|(s, e)| (s..=e).contains(&n));
    let text = task.original.line(n);
    (!replaced && !text.trim().is_empty()).then_some(text)
}

/// The lines just above and below a body's place; `None` for a deletion.
fn neighbours(hunk: &Hunk) -> Option<(usize, usize)> {
    match hunk {
        Hunk::Replace { start, end, .. } => Some((start - 1, end + 1)),
        Hunk::Insert { after, .. } => Some((*after, after + 1)),
        Hunk::Delete { .. } => None,
    }
}

/// `hunk` with its rows replaced.
pub(super) fn with_body(hunk: &Hunk, rows: Vec<String>) -> Hunk {
    match hunk {
        Hunk::Replace { start, end, .. } => Hunk::Replace {
            start: *start,
            end: *end,
            rows,
        },
        Hunk::Insert { after, .. } => Hunk::Insert {
            after: *after,
            rows,
        },
        Hunk::Delete { .. } => unreachable!("a deletion has no body"),
    }
}

/// One body whose first row restates the kept line above its place and
/// whose last row restates the kept line below.
pub(super) fn both_edges(task: &Task, rng: &mut Rng) -> Option<(&'static str, Vec<DocOp>)> {
    let fits: Vec<usize> = (0..task.hunks.len())
        .filter(|&i| {
            neighbours(&task.hunks[i])
                .is_some_and(|(a, b)| kept(task, a).is_some() && kept(task, b).is_some())
        })
        .collect();
    let &i = fits.get(rng.below(fits.len().max(1)))?;
    let hunk = &task.hunks[i];
    let (above, below) = neighbours(hunk)?;
    let mut rows = vec![kept(task, above)?.to_string()];
    rows.extend(hunk.rows()?.iter().cloned());
    rows.push(kept(task, below)?.to_string());
    let form = match hunk {
        Hunk::Insert { .. } => "insert",
        _ => "replace",
    };
    try_hunk(task, i, vec![with_body(hunk, rows)], true).map(|ops| (form, ops))
}

/// One insert that restates its anchor line: `PUT >N:` whose first row is
/// line N, or `PUT <N:` whose last row is line N.
pub(super) fn insert_anchor(task: &Task, rng: &mut Rng) -> Option<(&'static str, Vec<DocOp>)> {
    let mut fits: Vec<(usize, &'static str)> = Vec::new();
    for (i, hunk) in task.hunks.iter().enumerate() {
        let Hunk::Insert { after, .. } = hunk else {
            continue;
        };
        if kept(task, *after).is_some() {
            fits.push((i, "after-first-row"));
        }
        if kept(task, after + 1).is_some() {
            fits.push((i, "before-last-row"));
        }
    }
    let &(i, form) = fits.get(rng.below(fits.len().max(1)))?;
    let Hunk::Insert { after, rows } = &task.hunks[i] else {
        unreachable!("only inserts fit")
    };
    let (rows, header) = if form == "after-first-row" {
        let mut body = vec![kept(task, *after)?.to_string()];
        body.extend(rows.iter().cloned());
        (body, format!("PUT >{after}:"))
    } else {
        let mut body = rows.clone();
        body.push(kept(task, after + 1)?.to_string());
        (body, format!("PUT <{}:", after + 1))
    };
    let op = DocOp {
        header,
        rows: plus_rows(&rows),
    };
    let hunk = Hunk::Insert {
        after: *after,
        rows,
    };
    try_op(task, i, hunk, op).map(|ops| (form, ops))
}

/// What kind of closing line `text` is: `}`, `)`, `]` (with any trailing
/// closers, commas and semicolons, as in `});`) or `end`.
pub(super) fn closer(text: &str) -> Option<&'static str> {
    let t = text.trim();
    if t == "end" {
        return Some("end");
    }
    if !t.chars().all(|c| "})];,".contains(c)) {
        return None;
    }
    match t.chars().next()? {
        '}' => Some("brace"),
        ')' => Some("paren"),
        ']' => Some("bracket"),
        _ => None,
    }
}

/// One body whose last row restates the closing line just below it.
pub(super) fn echoed_closer(task: &Task, rng: &mut Rng) -> Option<(&'static str, Vec<DocOp>)> {
    let fits: Vec<usize> = (0..task.hunks.len())
        .filter(|&i| {
            neighbours(&task.hunks[i])
                .and_then(|(_, below)| kept(task, below))
                .is_some_and(|t| closer(t).is_some())
        })
        .collect();
    let &i = fits.get(rng.below(fits.len().max(1)))?;
    let hunk = &task.hunks[i];
    let (_, below) = neighbours(hunk)?;
    let line = kept(task, below)?;
    let form = closer(line)?;
    let mut rows = hunk.rows()?.to_vec();
    rows.push(line.to_string());
    try_hunk(task, i, vec![with_body(hunk, rows)], true).map(|ops| (form, ops))
}

#[cfg(test)]
mod tests;
