//! Mistakes in a range: off by one line, or widened to retype kept lines.

use crate::document::DocOp;
use crate::hunks::Hunk;
use crate::mutate::Task;
use crate::rng::Rng;

use super::try_hunk;

/// One hunk's range moved or resized by one line, such that the document
/// still applies but to a different result.
pub(super) fn off_by_one(task: &Task, rng: &mut Rng) -> Option<(&'static str, Vec<DocOp>)> {
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
        if let Some(ops) = try_hunk(task, i, vec![wrong], true) {
            return Some((form, ops));
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
