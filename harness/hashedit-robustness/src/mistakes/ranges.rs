//! Mistakes in a range: off by one line, or widened to retype kept lines.

use crate::document::{DocOp, op};
use crate::hunks::{Hunk, apply};
use crate::mutate::Task;
use crate::rng::Rng;

use super::try_hunk;

/// One hunk's range moved or resized by one line, such that the document
/// still applies but to a different result.
pub(super) fn off_by_one(task: &Task, rng: &mut Rng) -> Option<(&'static str, Vec<DocOp>)> {
    off_by_one_hunk(task, rng).map(|(form, _, _, ops)| (form, ops))
}

/// [`off_by_one`]'s draw: the form, the index of the hunk moved, the hunk
/// as moved, and the document.
pub(super) fn off_by_one_hunk(
    task: &Task,
    rng: &mut Rng,
) -> Option<(&'static str, usize, Hunk, Vec<DocOp>)> {
    let n = task.original.len();
    let i = rng.below(task.hunks.len());
    let hunk = &task.hunks[i];
    let mut forms: Vec<(&'static str, Hunk)> = Vec::new();
    match hunk {
        Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => {
            let (s, e) = (*start, *end);
            let with = |s: usize, e: usize| match hunk {
                Hunk::Replace { rows, .. } => Hunk::Replace {
                    start: s,
                    end: e,
                    rows: rows.clone(),
                },
                _ => Hunk::Delete { start: s, end: e },
            };
            if s > 1 {
                forms.push(("shift-up", with(s - 1, e - 1)));
                forms.push(("start-minus-one", with(s - 1, e)));
            }
            if e < n {
                forms.push(("shift-down", with(s + 1, e + 1)));
                forms.push(("end-plus-one", with(s, e + 1)));
            }
            if e > s {
                forms.push(("end-minus-one", with(s, e - 1)));
            }
        }
        Hunk::Insert { after, rows } => {
            if *after > 0 {
                forms.push((
                    "shift-up",
                    Hunk::Insert {
                        after: after - 1,
                        rows: rows.clone(),
                    },
                ));
            }
            if *after < n {
                forms.push((
                    "shift-down",
                    Hunk::Insert {
                        after: after + 1,
                        rows: rows.clone(),
                    },
                ));
            }
        }
    }
    while !forms.is_empty() {
        let (form, wrong) = forms.swap_remove(rng.below(forms.len()));
        if let Some(ops) = try_hunk(task, i, vec![wrong.clone()], true) {
            return Some((form, i, wrong, ops));
        }
    }
    None
}

/// One hunk's range widened by a line above and/or below, the extra lines
/// retyped exactly: applied as written it gives the target.
pub(super) fn widened(task: &Task, rng: &mut Rng) -> Option<(&'static str, Vec<DocOp>)> {
    let file = &task.original;
    let n = file.len();
    let i = rng.below(task.hunks.len());
    let hunk = &task.hunks[i];
    let (start, end, rows) = match hunk {
        Hunk::Replace { start, end, rows } => (*start, *end, rows.clone()),
        Hunk::Delete { start, end } => (*start, *end, Vec::new()),
        // An insert after k widens to a replacement of k (above) or of
        // k + 1 (below).
        Hunk::Insert { after, rows } => (after + 1, *after, rows.clone()),
    };
    let mut forms: Vec<&'static str> = Vec::new();
    if start > 1 {
        forms.push("above");
    }
    if end < n {
        forms.push("below");
    }
    if forms.len() == 2 {
        forms.push("both");
    }
    while !forms.is_empty() {
        let form = forms.swap_remove(rng.below(forms.len()));
        let (mut s, mut e, mut body) = (start, end, rows.clone());
        if form != "below" {
            s -= 1;
            body.insert(0, file.line(s).to_string());
        }
        if form != "above" {
            e += 1;
            body.push(file.line(e).to_string());
        }
        let wide = Hunk::Replace {
            start: s,
            end: e,
            rows: body,
        };
        if let Some(ops) = try_hunk(task, i, vec![wide], false) {
            return Some((form, ops));
        }
    }
    None
}

/// Most lines of the one replacement that [`one_short`] makes of a task's
/// hunks when none of them replaces several lines.
const MERGED_MAX: usize = 8;

/// One replacement of several lines whose range misses its last line: the
/// rows are all there, so the old last line stays after them. A task
/// without such a hunk is written as the one replacement of the lines its
/// hunks span (2 to [`MERGED_MAX`] of them, as a model rewriting the
/// region would), that range one line short.
pub(super) fn one_short(task: &Task, rng: &mut Rng) -> Option<(&'static str, Vec<DocOp>)> {
    let fits: Vec<usize> = (0..task.hunks.len())
        .filter(|&i| matches!(task.hunks[i], Hunk::Replace { start, end, .. } if end > start))
        .collect();
    let Some(&i) = fits.get(rng.below(fits.len().max(1))) else {
        return merged_short(task);
    };
    let Hunk::Replace { start, end, rows } = &task.hunks[i] else {
        unreachable!("only replacements fit")
    };
    let short = Hunk::Replace {
        start: *start,
        end: end - 1,
        rows: rows.clone(),
    };
    try_hunk(task, i, vec![short], true).map(|ops| ("last-line", ops))
}

/// The lines all hunks span, replaced at once by their new text, the range
/// one line short.
fn merged_short(task: &Task) -> Option<(&'static str, Vec<DocOp>)> {
    let (n, m) = (task.original.len(), task.target.len());
    // A span's lines, or an insert's gap (empty: after + 1 ..= after).
    let bounds = |h: &Hunk| match h {
        Hunk::Insert { after, .. } => (after + 1, *after),
        _ => h.span().expect("a span"),
    };
    let start = task.hunks.iter().map(|h| bounds(h).0).min()?;
    let end = task.hunks.iter().map(|h| bounds(h).1).max()?;
    if end <= start || end - start + 1 > MERGED_MAX {
        return None;
    }
    // Everything outside start..=end is unchanged, so the target holds the
    // same lines before and after the region.
    let rows = task
        .target
        .lines
        .get(start - 1..m.checked_sub(n - end)?)?
        .to_vec();
    if rows.is_empty() {
        return None;
    }
    let short = Hunk::Replace {
        start,
        end: end - 1,
        rows,
    };
    let written = apply(&task.original, std::slice::from_ref(&short)).ok()?;
    (written != task.target).then(|| ("merged-last-line", vec![op(&short)]))
}
