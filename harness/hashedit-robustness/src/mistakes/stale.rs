//! The file changed on disk between the model's read and its edit.

use crate::document::{DocSpec, oracle_ops};
use crate::hunks::{Hunk, apply};
use crate::mutate::{Lang, Task};
use crate::rng::Rng;

use super::{DRIFT_DISTANCE, Mistake, Variant};

/// The lines of a file of `lines` lines at least [`DRIFT_DISTANCE`] away
/// from every hunk.
pub(crate) fn far_lines(hunks: &[Hunk], lines: usize) -> Vec<usize> {
    (1..=lines)
        .filter(|&p| {
            hunks.iter().all(|h| {
                let (s, e) = h.footprint();
                p + DRIFT_DISTANCE <= s || p >= e + DRIFT_DISTANCE
            })
        })
        .collect()
}

/// The comment another writer leaves, in `lang`'s syntax.
pub(crate) fn comment(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "# changed by another writer",
        _ => "// changed by another writer",
    }
}

/// `hunks` after another writer inserted (`delta` 1) or deleted (-1) a
/// line at line `p`: the hunks below it move.
pub(crate) fn moved(hunks: &[Hunk], p: usize, delta: isize) -> Vec<Hunk> {
    hunks
        .iter()
        .map(|h| {
            if h.footprint().0 > p {
                h.shifted(delta)
            } else {
                h.clone()
            }
        })
        .collect()
}

/// The file changed after the read: a line inserted, deleted or edited
/// away from the hunks. Intended: the oracle edit on the changed file.
pub(super) fn stale_drift(task: &Task, rng: &mut Rng) -> Option<Variant> {
    let far = far_lines(&task.hunks, task.original.len());
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
    let intended = apply(&live, &moved(&task.hunks, p, delta)).ok()?;
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
    let far: Vec<usize> = far_lines(&task.hunks, task.original.len())
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
