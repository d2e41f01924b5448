//! The file changed on disk between the model's read and its edit.

use crate::document::{DocSpec, oracle_ops};
use crate::hunks::{Hunk, apply};
use crate::mutate::{Lang, Task};
use crate::rng::Rng;

use super::{DRIFT_DISTANCE, Mistake, Variant};

/// Lines at least [`DRIFT_DISTANCE`] away from every hunk.
fn far_lines(task: &Task) -> Vec<usize> {
    (1..=task.original.len())
        .filter(|&p| {
            task.hunks.iter().all(|h| {
                let (s, e) = h.footprint();
                p + DRIFT_DISTANCE <= s || p >= e + DRIFT_DISTANCE
            })
        })
        .collect()
}

fn comment(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "# changed by another writer",
        _ => "// changed by another writer",
    }
}

/// The file changed after the read: a line inserted, deleted or edited
/// away from the hunks. Intended: the oracle edit on the changed file.
pub(super) fn stale_drift(task: &Task, rng: &mut Rng) -> Option<Variant> {
    let far = far_lines(task);
    if far.is_empty() {
        return None;
    }
    let p = *rng.pick(&far);
    let mut live = task.original.clone();
    let line = live.line(p).to_string();
    let indent = &line[..line.len() - line.trim_start().len()];
    let (form, delta): (&'static str, isize) = match rng.below(3) {
        0 => {
            live.lines
                .insert(p - 1, format!("{indent}{}", comment(task.lang)));
            ("line-inserted", 1)
        }
        1 => {
            live.lines.remove(p - 1);
            ("line-deleted", -1)
        }
        _ => {
            live.lines[p - 1] = if line.trim().is_empty() {
                comment(task.lang).to_string()
            } else {
                format!("{line} {}", comment(task.lang))
            };
            ("line-edited", 0)
        }
    };
    let moved: Vec<Hunk> = task
        .hunks
        .iter()
        .map(|h| {
            if h.footprint().0 > p {
                h.shifted(delta)
            } else {
                h.clone()
            }
        })
        .collect();
    let intended = apply(&live, &moved).ok()?;
    Some(Variant {
        mistake: Mistake::StaleDrift,
        form,
        doc: DocSpec::new(&task.path, oracle_ops(&task.hunks)),
        served: task.original.clone(),
        live,
        intended,
        literal: None,
    })
}

/// The file changed after the read in trailing whitespace only (an editor
/// or formatter touched it): both tag schemes ignore trailing whitespace,
/// so the tag still matches. Intended: the oracle edit on the changed file.
pub(super) fn stale_whitespace(task: &Task, rng: &mut Rng) -> Option<Variant> {
    let far: Vec<usize> = far_lines(task)
        .into_iter()
        .filter(|&p| !task.original.line(p).trim().is_empty())
        .collect();
    if far.is_empty() {
        return None;
    }
    let p = *rng.pick(&far);
    let mut live = task.original.clone();
    let pad = *rng.pick(&[" ", "  ", "\t"]);
    live.lines[p - 1].push_str(pad);
    let intended = apply(&live, &task.hunks).ok()?;
    Some(Variant {
        mistake: Mistake::StaleWhitespace,
        form: "trailing-space-added",
        doc: DocSpec::new(&task.path, oracle_ops(&task.hunks)),
        served: task.original.clone(),
        live,
        intended,
        literal: None,
    })
}
