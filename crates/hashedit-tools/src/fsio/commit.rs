//! The all-or-nothing multi-file commit (reference-rho.md §8.2, with
//! atomic replacement per file).

use super::lock::LockedFile;
use super::write::{replace_inner, restore_original};
use crate::error::{ErrorKind, ToolError, ToolResult};

/// Writes `new_contents[i]` to `locked[i]` for every `Some`, in order, all
/// or nothing.
///
/// Each file is installed with [`super::replace`]. If file `i` fails, the
/// files this call already changed (and file `i` itself, if the failure
/// left its new bytes in place) are restored to their
/// [`LockedFile::original`] bytes, in reverse order. The locks are still
/// held, so no other hashedit writer can have changed them meanwhile. The
/// error of file `i` is returned with its message extended by what was
/// restored, or by exactly which files could not be restored and therefore
/// keep the edited content.
///
/// Files whose new content equals their current bytes are still rewritten
/// (callers skip them by passing `None`). After success, `original` still
/// holds the bytes from before the call and [`LockedFile::current`] the
/// new ones.
///
/// # Errors
/// [`ErrorKind::InvalidArguments`] when the slices differ in length
/// (nothing is written); otherwise the failing file's error from
/// [`super::replace`], kind unchanged, message extended.
pub fn commit_all(locked: &mut [LockedFile], new_contents: &[Option<Vec<u8>>]) -> ToolResult<()> {
    if locked.len() != new_contents.len() {
        return Err(ToolError::new(
            ErrorKind::InvalidArguments,
            format!(
                "internal error: {} new contents for {} locked files; nothing was written",
                new_contents.len(),
                locked.len()
            ),
        ));
    }
    let mut changed: Vec<usize> = Vec::new();
    for (index, content) in new_contents.iter().enumerate() {
        let (Some(bytes), Some(file)) = (content, locked.get_mut(index)) else {
            continue;
        };
        match replace_inner(file, bytes) {
            Ok(()) => changed.push(index),
            Err(failure) => {
                if failure.applied {
                    changed.push(index);
                }
                let note = roll_back(locked, &changed);
                let mut error = failure.error;
                error.message.push_str(&note);
                return Err(error);
            }
        }
    }
    Ok(())
}

/// Restores `changed` (in reverse order) and describes the outcome as a
/// suffix for the error message ("" when there was nothing to restore).
fn roll_back(locked: &mut [LockedFile], changed: &[usize]) -> String {
    let mut restored: Vec<String> = Vec::new();
    let mut failed: Vec<String> = Vec::new();
    for &index in changed.iter().rev() {
        let Some(file) = locked.get_mut(index) else {
            continue;
        };
        match restore_original(file) {
            Ok(()) => restored.push(file.display.clone()),
            Err(failure) => failed.push(format!("{} ({})", file.display, failure.error.message)),
        }
    }
    restored.reverse();
    failed.reverse();
    let mut note = String::new();
    push_keeps_edited(&mut note, &failed);
    push_restored(&mut note, &restored);
    note
}

/// Appends to a rollback note the clause naming the files this edit had
/// already written and could not restore (`failed`, each "name (reason)"),
/// which therefore keep the edited content; nothing when `failed` is empty.
pub(super) fn push_keeps_edited(note: &mut String, failed: &[String]) {
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
pub(super) fn push_restored(note: &mut String, restored: &[String]) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fsio::fault::{self, Point};
    use crate::fsio::lock_all;
    use crate::fsio::test_support::{empty_workspace, listing, resolve};
    use crate::workspace::{ResolvedPath, Workspace};
    use std::os::unix::fs::PermissionsExt;
    use tempfile::TempDir;

    fn setup(files: &[(&str, &str)]) -> (TempDir, Workspace, Vec<ResolvedPath>) {
        let (dir, ws) = empty_workspace();
        let paths = files
            .iter()
            .map(|(name, content)| {
                std::fs::write(ws.root().join(name), content).unwrap();
                resolve(&ws, name)
            })
            .collect();
        (dir, ws, paths)
    }

    fn read(ws: &Workspace, name: &str) -> Vec<u8> {
        std::fs::read(ws.root().join(name)).unwrap()
    }

    #[test]
    fn commits_every_file() {
        let (_dir, ws, paths) = setup(&[("a.txt", "a\n"), ("b.txt", "b\n"), ("c.txt", "c\n")]);
        let mut locked = lock_all(&ws, &paths, 100).unwrap();
        let contents = vec![Some(b"A\n".to_vec()), None, Some(b"C\n".to_vec())];
        commit_all(&mut locked, &contents).unwrap();
        drop(locked);
        assert_eq!(read(&ws, "a.txt"), b"A\n");
        assert_eq!(read(&ws, "b.txt"), b"b\n");
        assert_eq!(read(&ws, "c.txt"), b"C\n");
        assert_eq!(listing(ws.root()), ["a.txt", "b.txt", "c.txt"]);
    }

    #[test]
    fn a_hard_linked_file_is_rolled_back_in_place_from_what_it_holds() {
        // a.txt has two links, so it is rewritten in place; rolling it back
        // reads the installed bytes back from the file for its recovery
        // copy (the writer keeps no copy of them).
        let (_dir, ws, paths) = setup(&[("a.txt", "alpha\n"), ("c.txt", "c\n")]);
        std::fs::hard_link(ws.root().join("a.txt"), ws.root().join("link.txt")).unwrap();
        let mut locked = lock_all(&ws, &paths, 100).unwrap();
        fault::set(|point, display| {
            (point == Point::BeforeRename && display == "c.txt").then(fault::injected)
        });
        let contents = vec![
            Some(b"A, longer than before\n".to_vec()),
            Some(b"C\n".to_vec()),
        ];
        let error = commit_all(&mut locked, &contents).unwrap_err();
        fault::clear();
        assert_eq!(
            error.message,
            "cannot write c.txt: injected failure; a.txt, already written by this edit, was restored to its previous content"
        );
        assert!(!locked[0].rewritten());
        drop(locked);
        assert_eq!(read(&ws, "a.txt"), b"alpha\n");
        assert_eq!(read(&ws, "link.txt"), b"alpha\n");
        assert_eq!(read(&ws, "c.txt"), b"c\n");
        assert_eq!(listing(ws.root()), ["a.txt", "c.txt", "link.txt"]);
    }

    #[test]
    fn a_failure_rolls_back_earlier_files_byte_for_byte() {
        let (_dir, ws, paths) = setup(&[
            ("a.txt", "alpha\r\nmixed\n"),
            ("b.txt", "\u{FEFF}bom\n"),
            ("c.txt", "c\n"),
        ]);
        std::fs::set_permissions(
            ws.root().join("a.txt"),
            std::fs::Permissions::from_mode(0o751),
        )
        .unwrap();
        let mut locked = lock_all(&ws, &paths, 100).unwrap();
        fault::set(|point, display| {
            (point == Point::BeforeRename && display == "c.txt").then(fault::injected)
        });
        let contents = vec![
            Some(b"A\n".to_vec()),
            Some(b"B\n".to_vec()),
            Some(b"C\n".to_vec()),
        ];
        let error = commit_all(&mut locked, &contents).unwrap_err();
        fault::clear();
        assert_eq!(error.kind, ErrorKind::Io);
        assert_eq!(
            error.message,
            "cannot write c.txt: injected failure; a.txt and b.txt, already written by this edit, were restored to their previous content"
        );
        drop(locked);
        assert_eq!(read(&ws, "a.txt"), b"alpha\r\nmixed\n");
        assert_eq!(read(&ws, "b.txt"), "\u{FEFF}bom\n".as_bytes());
        assert_eq!(read(&ws, "c.txt"), b"c\n");
        let mode = std::fs::metadata(ws.root().join("a.txt"))
            .unwrap()
            .permissions()
            .mode()
            & 0o7777;
        assert_eq!(mode, 0o751);
        assert_eq!(listing(ws.root()), ["a.txt", "b.txt", "c.txt"]);
    }

    #[test]
    fn a_failure_after_the_rename_restores_that_file_too() {
        let (_dir, ws, paths) = setup(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        let mut locked = lock_all(&ws, &paths, 100).unwrap();
        let mut fired = false;
        fault::set(move |point, display| {
            let fire = point == Point::AfterRename && display == "b.txt" && !fired;
            fired |= fire;
            fire.then(fault::injected)
        });
        let contents = vec![Some(b"A\n".to_vec()), Some(b"B\n".to_vec())];
        let error = commit_all(&mut locked, &contents).unwrap_err();
        fault::clear();
        assert!(
            error.message.ends_with("; a.txt and b.txt, already written by this edit, were restored to their previous content"),
            "{}",
            error.message
        );
        drop(locked);
        assert_eq!(read(&ws, "a.txt"), b"a\n");
        assert_eq!(read(&ws, "b.txt"), b"b\n");
    }

    #[test]
    fn a_failed_rollback_names_the_files_left_edited() {
        let (_dir, ws, paths) = setup(&[("a.txt", "a\n"), ("b.txt", "b\n"), ("c.txt", "c\n")]);
        let mut locked = lock_all(&ws, &paths, 100).unwrap();
        let mut calls = 0;
        // c.txt fails; then the rollback of b.txt (the 4th replace) fails.
        fault::set(move |point, display| {
            if point != Point::BeforeRename {
                return None;
            }
            calls += 1;
            (display == "c.txt" || calls == 4).then(fault::injected)
        });
        let contents = vec![
            Some(b"A\n".to_vec()),
            Some(b"B\n".to_vec()),
            Some(b"C\n".to_vec()),
        ];
        let error = commit_all(&mut locked, &contents).unwrap_err();
        fault::clear();
        assert_eq!(
            error.message,
            "cannot write c.txt: injected failure; restoring the files this edit had already written failed for b.txt (cannot write b.txt: injected failure), so it keeps the edited content; a.txt, already written by this edit, was restored to its previous content"
        );
        drop(locked);
        assert_eq!(read(&ws, "a.txt"), b"a\n");
        assert_eq!(read(&ws, "b.txt"), b"B\n");
        assert_eq!(read(&ws, "c.txt"), b"c\n");
        assert_eq!(listing(ws.root()), ["a.txt", "b.txt", "c.txt"]);
    }

    #[test]
    fn the_first_file_failing_needs_no_rollback() {
        let (_dir, ws, paths) = setup(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        std::fs::set_permissions(
            ws.root().join("a.txt"),
            std::fs::Permissions::from_mode(0o444),
        )
        .unwrap();
        let mut locked = lock_all(&ws, &paths, 100).unwrap();
        let contents = vec![Some(b"A\n".to_vec()), Some(b"B\n".to_vec())];
        let error = commit_all(&mut locked, &contents).unwrap_err();
        assert_eq!(error.kind, ErrorKind::PermissionDenied);
        assert!(
            error.message.ends_with("if it really should change"),
            "{}",
            error.message
        );
        drop(locked);
        assert_eq!(read(&ws, "b.txt"), b"b\n");
    }

    #[test]
    fn mismatched_lengths_are_refused() {
        let (_dir, ws, paths) = setup(&[("a.txt", "a\n")]);
        let mut locked = lock_all(&ws, &paths, 100).unwrap();
        let error = commit_all(&mut locked, &[]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments);
        drop(locked);
        assert_eq!(read(&ws, "a.txt"), b"a\n");
    }

    #[test]
    fn join_lists_names() {
        let names = |items: &[&str]| join(&items.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(names(&[]), "");
        assert_eq!(names(&["a"]), "a");
        assert_eq!(names(&["a", "b"]), "a and b");
        assert_eq!(names(&["a", "b", "c"]), "a, b and c");
    }
}
