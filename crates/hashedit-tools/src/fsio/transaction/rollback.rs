//! Undoing a failed transaction in reverse order, and the note that says
//! what was restored, or what could not be and where its content is.

use std::collections::BTreeMap;

use super::backup::restore_backup;
use super::install::remove_new_file;
use super::{Change, Step};
use crate::fsio::lock::LockedFile;
use crate::fsio::write::restore_original;

/// How undoing one file went: `None` for a part that was not done.
#[derive(Default)]
struct Undone {
    /// A rewrite: restored, or the failure text.
    content: Option<Result<(), String>>,
    /// A backup: put back, or the failure clause.
    source: Option<Result<(), String>>,
    /// A move's new file: removed, or the failure clause.
    dest: Option<Result<(), String>>,
}

/// Undoes `journal` in reverse order and describes the outcome as a suffix
/// for the error message ("" when there was nothing to undo).
pub(super) fn roll_back(
    locked: &mut [LockedFile],
    changes: &[Change],
    journal: Vec<Step>,
) -> String {
    let undone = undo(locked, journal);
    Sorted::sort(locked, changes, undone).note()
}

/// Undoes every step, last first; returns how it went per file.
fn undo(locked: &mut [LockedFile], journal: Vec<Step>) -> BTreeMap<usize, Undone> {
    let mut undone: BTreeMap<usize, Undone> = BTreeMap::new();
    for step in journal.into_iter().rev() {
        match step {
            Step::Replaced { index } => {
                let Some(file) = locked.get_mut(index) else {
                    continue;
                };
                let result = restore_original(file);
                undone.entry(index).or_default().content =
                    Some(result.map_err(|failure| {
                        format!("{} ({})", file.display, failure.error.message)
                    }));
            }
            Step::BackedUp { index, backup } => {
                let Some(file) = locked.get(index) else {
                    continue;
                };
                undone.entry(index).or_default().source = Some(restore_backup(file, &backup));
            }
            Step::Installed { index, dest } => {
                undone.entry(index).or_default().dest = Some(remove_new_file(dest));
            }
        }
    }
    undone
}

/// The undone parts of a rollback, sorted by what the note says of them.
#[derive(Default)]
struct Sorted {
    /// Files whose rewrite was undone.
    rewritten: Vec<String>,
    /// Files whose rewrite could not be undone, each "name (reason)".
    rewrite_failed: Vec<String>,
    /// Complete clauses for backups and new files that could not be undone.
    failures: Vec<String>,
    /// Deleted files put back.
    put_back: Vec<String>,
    /// Sources of moves put back (their new file is not gone).
    moved_back: Vec<String>,
    /// New files of moves removed (their source is not back).
    dests_removed: Vec<String>,
    /// Moves undone as a whole, each "source to dest".
    moves: Vec<String>,
}

impl Sorted {
    fn sort(locked: &[LockedFile], changes: &[Change], undone: BTreeMap<usize, Undone>) -> Sorted {
        let mut sorted = Sorted::default();
        for (index, outcome) in undone {
            let (Some(file), Some(change)) = (locked.get(index), changes.get(index)) else {
                continue;
            };
            let dest = match change {
                Change::Move { dest, .. } => Some(dest.display.as_str()),
                _ => None,
            };
            sorted.add(&file.display, dest, outcome);
        }
        sorted
    }

    /// Files the undoing of file `display` (moved to `dest`, if a move)
    /// under the clauses it belongs to.
    fn add(&mut self, display: &str, dest: Option<&str>, outcome: Undone) {
        match outcome.content {
            Some(Ok(())) => self.rewritten.push(display.to_string()),
            Some(Err(failure)) => self.rewrite_failed.push(failure),
            None => {}
        }
        // A move whose new file is gone and whose source is back (or was
        // never backed up) is undone as a whole.
        if let (Some(Ok(())) | None, Some(Ok(())), Some(dest)) =
            (&outcome.source, &outcome.dest, dest)
        {
            self.moves.push(format!("{display} to {dest}"));
            return;
        }
        match outcome.source {
            Some(Ok(())) if dest.is_some() => self.moved_back.push(display.to_string()),
            Some(Ok(())) => self.put_back.push(display.to_string()),
            Some(Err(failure)) => self.failures.push(failure),
            None => {}
        }
        match (outcome.dest, dest) {
            (Some(Ok(())), Some(dest)) => self.dests_removed.push(dest.to_string()),
            (Some(Err(failure)), _) => self.failures.push(failure),
            _ => {}
        }
    }

    /// The note: what could not be undone first, then what was.
    fn note(self) -> String {
        let mut note = String::new();
        push_keeps_edited(&mut note, &self.rewrite_failed);
        for failure in self.failures {
            note.push_str("; ");
            note.push_str(&failure);
        }
        push_restored(&mut note, &self.rewritten);
        for (names, how, done) in [
            (&self.put_back, "deleted", "put back"),
            (&self.moved_back, "moved away", "put back"),
            (&self.dests_removed, "created", "removed"),
        ] {
            if !names.is_empty() {
                let be = if names.len() == 1 { "was" } else { "were" };
                note.push_str(&format!(
                    "; {}, {how} by this edit, {be} {done}",
                    join(names)
                ));
            }
        }
        match self.moves.len() {
            0 => {}
            1 => note.push_str(&format!("; the move of {} was undone", join(&self.moves))),
            _ => note.push_str(&format!("; the moves of {} were undone", join(&self.moves))),
        }
        note
    }
}

/// Appends to a rollback note the clause naming the files this edit had
/// already written and could not restore (`failed`, each "name (reason)"),
/// which therefore keep the edited content; nothing when `failed` is empty.
fn push_keeps_edited(note: &mut String, failed: &[String]) {
    if !failed.is_empty() {
        note.push_str(&format!(
            "; restoring the files this edit had already written failed for {}, so {} the edited content",
            join(failed),
            if failed.len() == 1 { "it keeps" } else { "they keep" }
        ));
    }
}

/// Appends to a rollback note the clause naming the files this edit had
/// already written and restored to their previous content; nothing when
/// `restored` is empty.
fn push_restored(note: &mut String, restored: &[String]) {
    if !restored.is_empty() {
        let (verb, pronoun) = if restored.len() == 1 {
            ("was", "its")
        } else {
            ("were", "their")
        };
        note.push_str(&format!(
            "; {}, already written by this edit, {verb} restored to {pronoun} previous content",
            join(restored)
        ));
    }
}

/// "a", "a and b", "a, b and c".
pub(super) fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
