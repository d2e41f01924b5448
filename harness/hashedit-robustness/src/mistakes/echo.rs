//! Bodies that restate the unchanged lines beside them.

use crate::document::DocOp;
use crate::hunks::Hunk;
use crate::mutate::Task;
use crate::rng::Rng;

use super::try_hunk;

/// One body restating the line above and/or below its place.
pub(super) fn echo(task: &Task, rng: &mut Rng) -> Option<(&'static str, Vec<DocOp>)> {
    let file = &task.original;
    let n = file.len();
    let bodies: Vec<usize> = (0..task.hunks.len())
        .filter(|&i| task.hunks[i].rows().is_some())
        .collect();
    if bodies.is_empty() {
        return None;
    }
    let i = *rng.pick(&bodies);
    let hunk = &task.hunks[i];
    // The unchanged neighbours of the body's place.
    let (above, below) = match hunk {
        Hunk::Replace { start, end, .. } => (start - 1, end + 1),
        Hunk::Insert { after, .. } => (*after, after + 1),
        Hunk::Delete { .. } => unreachable!("filtered"),
    };
    let usable = |line: usize| (1..=n).contains(&line) && !file.line(line).trim().is_empty();
    let mut forms: Vec<&'static str> = Vec::new();
    if usable(above) {
        forms.push("leading");
    }
    if usable(below) {
        forms.push("trailing");
    }
    if forms.len() == 2 {
        forms.push("both");
    }
    if forms.is_empty() {
        return None;
    }
    let form = *rng.pick(&forms);
    let mut rows = hunk.rows().expect("a body").to_vec();
    if form != "trailing" {
        rows.insert(0, file.line(above).to_string());
    }
    if form != "leading" {
        rows.push(file.line(below).to_string());
    }
    let echoed = super::edges::with_body(hunk, rows);
    try_hunk(task, i, vec![echoed], true).map(|ops| (form, ops))
}
