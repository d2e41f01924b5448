//! Bodies that do not hold the lines they write: indentation dropped, or
//! kept lines elided behind a placeholder comment.

use crate::document::DocOp;
use crate::hunks::Hunk;
use crate::mutate::{Lang, Task};
use crate::rng::Rng;

use super::{try_hunk, with_rows};

/// Every body row without its leading whitespace (tasks with an indented
/// row only). The author meant the indented lines.
pub(super) fn dropped_indentation(task: &Task) -> Option<(&'static str, Vec<DocOp>)> {
    let indented = task
        .hunks
        .iter()
        .filter_map(Hunk::rows)
        .flatten()
        .any(|r| r.starts_with([' ', '\t']) && !r.trim().is_empty());
    if !indented {
        return None;
    }
    let ops = with_rows(&task.hunks, |_, rows| {
        rows.iter()
            .map(|r| format!("+{}", r.trim_start()))
            .collect()
    })?;
    Some(("all-bodies", ops))
}

/// Fewest and most kept lines a placeholder stands for.
const ELIDED: (usize, usize) = (2, 5);

/// Placeholder comments models write for lines they mean to keep, by
/// comment syntax: (form, text).
fn placeholders(lang: Lang) -> &'static [(&'static str, &'static str)] {
    match lang {
        Lang::Python => &[
            ("existing-code", "# ... existing code ..."),
            ("rest-unchanged", "# ... rest unchanged ..."),
            ("dots", "# ..."),
            ("ellipsis", "# …"),
            ("unchanged", "# (unchanged)"),
        ],
        Lang::Rust | Lang::TypeScript | Lang::JavaScript => &[
            ("existing-code", "// ... existing code ..."),
            ("rest-unchanged", "// … rest unchanged …"),
            ("dots", "// ..."),
            ("block-dots", "/* ... */"),
            ("block-ellipsis", "/* … */"),
        ],
    }
}

/// Which side of the edit the elided lines lie on.
#[derive(Clone, Copy)]
enum Side {
    Before,
    After,
}

/// One hunk widened to a window of real lines whose body keeps the first
/// and last of them, the edit, and a placeholder comment in place of 2–5
/// kept lines beside the edit. The author meant those lines to stay, so
/// the intended result is the target: applied as written they are lost.
pub(super) fn elision(task: &Task, rng: &mut Rng) -> Option<(&'static str, Vec<DocOp>)> {
    let n = task.original.len();
    let k = rng.between(ELIDED.0, ELIDED.1);
    let &(form, text) = rng.pick(placeholders(task.lang));
    let mut tries: Vec<(usize, Side)> = (0..task.hunks.len())
        .flat_map(|i| [(i, Side::Before), (i, Side::After)])
        .collect();
    while !tries.is_empty() {
        let (i, side) = tries.swap_remove(rng.below(tries.len()));
        let (start, end, rows) = match &task.hunks[i] {
            Hunk::Replace { start, end, rows } => (*start, *end, rows.clone()),
            Hunk::Delete { start, end } => (*start, *end, Vec::new()),
            Hunk::Insert { after, rows } => (after + 1, *after, rows.clone()),
        };
        // The window's first and last lines, and the elided ones.
        let (first, last, elided) = match side {
            Side::Before if start > k + 1 && end < n => (start - k - 1, end + 1, start - k..start),
            Side::After if start > 1 && end + k < n => {
                (start - 1, end + k + 1, end + 1..end + k + 1)
            }
            _ => continue,
        };
        let line = |n: usize| task.original.line(n).to_string();
        let Some(shown) = elided.clone().map(line).find(|l| !l.trim().is_empty()) else {
            continue;
        };
        let indent = &shown[..shown.len() - shown.trim_start().len()];
        let placeholder = format!("{indent}{text}");
        let body: Vec<String> = match side {
            Side::Before => [vec![line(first), placeholder], rows, vec![line(last)]].concat(),
            Side::After => [vec![line(first)], rows, vec![placeholder, line(last)]].concat(),
        };
        let wide = Hunk::Replace {
            start: first,
            end: last,
            rows: body,
        };
        if let Some(ops) = try_hunk(task, i, vec![wide], true) {
            return Some((form, ops));
        }
    }
    None
}
