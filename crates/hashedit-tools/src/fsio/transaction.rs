//! The all-or-nothing transaction with file operations: one commit
//! rewrites, deletes (`REM`) and moves (`MV DEST`) files, and a failure
//! undoes everything it had done (reference-omp.md §2.4 and §3.12; issue 4
//! item 3).
//!
//! How deletions and moves stay reversible, the policy for read-only
//! files, symlinks, hard links and ownership, and what a crash can leave
//! behind are documented on [`commit_changes`].

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::fs::{AtFlags, Gid};
use rustix::io::Errno;

use super::commit::{join, push_keeps_edited, push_restored};
#[cfg(test)]
use super::fault::Point;
use super::lock::LockedFile;
use super::open::{
    CreatedDir, map_create_errno, map_errno, open_root, same_inode, split, walk_dirs_recording,
};
use super::write::{
    NoReplace, check_still_there, copy_owner, hidden_name, read_only_error, rename_away,
    rename_no_replace, replace_inner, restore_original, seal_temp, sync_dir, write_temp,
};
use crate::error::{ErrorKind, ToolError, ToolResult, os_message};
use crate::workspace::{ResolvedPath, Workspace};

/// What [`commit_changes`] does to one locked file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Leave the file as it is.
    Keep,
    /// Replace the file's content with these bytes (as
    /// [`super::replace`]: atomic, keeping mode, owner, symlinks and hard
    /// links). Equal bytes are still written.
    Replace(Vec<u8>),
    /// Delete the file (`REM`).
    Remove,
    /// Move the file to `dest` with `bytes` as its content (`MV DEST`
    /// after the section's line edits).
    Move {
        /// The destination, resolved by the caller with
        /// [`crate::workspace::Resolve::MayCreate`]; it must not exist.
        dest: ResolvedPath,
        /// The content of the new file.
        bytes: Vec<u8>,
    },
}

/// What [`commit_changes`] did to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Committed {
    /// Nothing.
    Kept,
    /// The content was replaced.
    Replaced,
    /// The file was deleted.
    Removed,
    /// The file now lives at `dest` (`exists` is true); the source path is
    /// gone.
    Moved {
        /// The new path, as the caller resolved it.
        dest: ResolvedPath,
    },
}

/// The outcome of a successful [`commit_changes`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommitReport {
    /// One entry per locked file, in input order.
    pub files: Vec<Committed>,
    /// Things the caller should pass on although everything was committed,
    /// each starting with `warning: PATH:` (a move that could not keep the
    /// owner, a backup that could not be removed).
    pub warnings: Vec<String>,
}

/// Applies `changes[i]` to `locked[i]`, in input order, all or nothing:
/// replaces, deletions and moves.
///
/// Every change is checked before anything is touched: read-only files,
/// symlinked sources, destinations outside the workspace, equal to their
/// source, already existing or shared by two moves. Then the changes are
/// applied in order. If change `i` fails, everything already done —
/// rewritten files, deleted files (their backups), moves (the new file, the
/// directories made for it, the source) — is undone in reverse order while
/// the locks are still held, and the error of change `i` is returned with
/// its message extended by what was restored, or by exactly what could not
/// be restored and where its content is. With only [`Change::Keep`] and
/// [`Change::Replace`], these notes read exactly as those of
/// [`super::commit_all`] (which, unlike this function, refuses a read-only
/// file only when it reaches it, after rolling back the files before it).
///
/// After success the backups of deleted and moved files are unlinked (a
/// failure there is only a warning), the locks on new destinations are
/// released, and the caller's [`LockedFile`]s still hold their locks until
/// they are dropped; for a deleted or moved file that lock is on the now
/// unlinked inode.
///
/// # Deleting without losing anything until the end
///
/// No file is unlinked while the transaction can still fail. Deleting a
/// file renames it, without replacing anything, to a hidden backup name
/// `.hashedit-<random>.bak` in its own directory, checks that the renamed
/// inode is the locked one and fsyncs the directory. The inode itself —
/// bytes, mode, owner, other hard links — is untouched, and it stays
/// locked. A rollback renames the backup to the old name (again without
/// replacing: a file that took the name meanwhile is never clobbered) and
/// fsyncs. Only when every change of the transaction has succeeded are the
/// backups unlinked.
///
/// # Moving
///
/// A move writes the new content to a temp file beside DEST (creating
/// missing parent directories one by one from the root without following
/// symlinks), gives it the source's mode and, when the process is allowed
/// to, the source's owner, fsyncs it, takes hashedit's writer lock on it and
/// installs it with a no-replace rename (a hard link where the kernel or
/// file system lacks `RENAME_NOREPLACE`), then fsyncs DEST's directory.
/// Then the source is deleted as above. DEST is never overwritten: if it
/// exists when the transaction starts or appears before the install, the
/// move fails with [`ErrorKind::Conflict`] naming DEST. A rollback removes
/// DEST — only if the path still names the inode this call created — and
/// the directories it created (when they are empty), and puts the source
/// back.
///
/// DEST is not locked in advance: there is nothing to lock before it
/// exists, and the no-replace install already settles a race with another
/// creator (whoever installs first wins; the other sees an existing file).
/// The new inode is locked before it becomes visible and stays locked until
/// [`commit_changes`] returns, so another hashedit writer that opens DEST
/// meanwhile waits until the transaction has committed or rolled back.
///
/// # Policy
///
/// * Read-only files: a file without any write bit is not rewritten,
///   deleted or moved ([`ErrorKind::PermissionDenied`]), the same policy as
///   [`super::replace`]. POSIX would allow deleting it (that needs write
///   permission on the directory, not on the file), but a read-only file
///   is a clear "do not touch".
/// * Symlinks: deleting or moving a path that goes through a symlink is
///   refused with [`ErrorKind::InvalidArguments`], and the message gives
///   the file's real path. Resolution follows symlinks, so the locked file
///   is the link's target; deleting it would leave the link dangling when
///   the author most likely meant the link, and deleting the link instead
///   would be a second meaning of the same path. Neither is guessed. The
///   check compares the display path with the canonical target, so it
///   catches a symlink at any component (`link.txt`, `linked-dir/a.txt`);
///   a path written with `..` is displayed by its canonical target already
///   and therefore acts on, and reports, the real file. A destination may
///   go through symlinks inside the workspace (a dangling link as DEST
///   creates its target, as `write` does).
/// * Hard links: deleting removes this name only; other names keep the
///   content. A move creates a new inode at DEST, so other names of the
///   source keep the old content.
/// * Ownership: when the process may not give the new file the source's
///   owner (an unprivileged user moving someone else's file), the new file
///   belongs to the editing user, loses setuid/setgid bits, and the report
///   carries a warning.
///
/// # Crashes
///
/// Rollback covers failures, not crashes: there is no on-disk journal.
/// After a crash in the middle of a transaction, files already rewritten
/// keep their new content, a moved file may exist at both paths, and a
/// deleted or moved file may have disappeared from its path while its full
/// previous content is still on disk as `.hashedit-<random>.bak` in the same
/// directory (with its mode and owner). Renaming that file back restores
/// it; deleting it completes the deletion. A file rewritten in place (one
/// with several hard links, or whose owner the process cannot give a new
/// file) may hold a mix of old and new bytes if the crash hit its rewrite;
/// its complete previous content is then in a `.hashedit-<random>.bak`
/// beside it too. Directories made for a destination may remain, and
/// interrupted writes may leave `.hashedit-<random>.tmp` files, which are
/// incomplete and can be deleted.
///
/// # Errors
/// * [`ErrorKind::InvalidArguments`]: the slices differ in length; a
///   deleted or moved path goes through a symlink (the message names the
///   real path); a move's destination is its source. Nothing was changed.
/// * [`ErrorKind::PermissionDenied`]: a file to change has no write bit
///   (nothing was changed), or the OS refused.
/// * [`ErrorKind::Conflict`]: a move's destination exists or appeared, a
///   file was replaced by another program after it was locked, or a
///   directory on a destination's path was swapped for a symlink.
/// * [`ErrorKind::DuplicatePath`]: two moves share a destination.
/// * [`ErrorKind::PathOutsideWorkspace`]: a destination was not resolved
///   inside this workspace.
/// * [`ErrorKind::NotFound`], [`ErrorKind::Io`] and other mapped OS
///   errors, after rollback.
pub fn commit_changes(
    ws: &Workspace,
    locked: &mut [LockedFile],
    changes: &[Change],
) -> ToolResult<CommitReport> {
    if locked.len() != changes.len() {
        return Err(ToolError::new(
            ErrorKind::InvalidArguments,
            format!(
                "internal error: {} changes for {} locked files; nothing was written",
                changes.len(),
                locked.len()
            ),
        ));
    }
    check(ws, locked, changes)?;
    let mut journal: Vec<Step> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    for (index, change) in changes.iter().enumerate() {
        if let Err(mut error) = apply(ws, locked, index, change, &mut journal, &mut warnings) {
            let note = roll_back(locked, changes, journal);
            error.message.push_str(&note);
            return Err(error);
        }
    }
    discard_backups(locked, &journal, &mut warnings);
    // Dropping the journal releases the destinations' locks.
    drop(journal);
    let files = changes
        .iter()
        .map(|change| match change {
            Change::Keep => Committed::Kept,
            Change::Replace(_) => Committed::Replaced,
            Change::Remove => Committed::Removed,
            Change::Move { dest, .. } => Committed::Moved {
                dest: ResolvedPath {
                    exists: true,
                    ..dest.clone()
                },
            },
        })
        .collect();
    Ok(CommitReport { files, warnings })
}

/// One visible change made by the transaction, in the order made.
enum Step {
    /// `locked[index]` was rewritten (or may have been).
    Replaced { index: usize },
    /// `locked[index]` was renamed to `backup` in its directory.
    BackedUp { index: usize, backup: OsString },
    /// A move of `locked[index]` installed `dest`.
    Installed { index: usize, dest: NewFile },
}

/// A file a move created.
struct NewFile {
    display: String,
    /// Its directory.
    dir: OwnedFd,
    /// Its name in `dir`.
    name: OsString,
    /// The new inode, locked.
    file: File,
    /// Directories made for it, outermost first.
    dirs: Vec<CreatedDir>,
}

/// Refuses, before anything is touched, every change that cannot succeed.
fn check(ws: &Workspace, locked: &[LockedFile], changes: &[Change]) -> ToolResult<()> {
    let mut dests: Vec<(&Path, &str)> = Vec::new();
    for (file, change) in locked.iter().zip(changes) {
        if matches!(change, Change::Keep) {
            continue;
        }
        if let Some(error) = read_only_error(&file.display, file.meta.mode) {
            return Err(error);
        }
        if matches!(change, Change::Remove | Change::Move { .. })
            && let Some(real) = real_path_if_linked(ws, file)
        {
            return Err(symlinked(&file.display, &real));
        }
        let Change::Move { dest, .. } = change else {
            continue;
        };
        split(ws, dest)?;
        if dest.target == file.target {
            return Err(onto_itself(&file.display, &dest.display));
        }
        if dest.exists || locked.iter().any(|other| other.target == dest.target) {
            return Err(dest_exists(&file.display, &dest.display));
        }
        if let Some((_, first)) = dests.iter().find(|(target, _)| *target == dest.target) {
            return Err(ToolError::new(
                ErrorKind::DuplicatePath,
                format!(
                    "{first} and {} are both moved to {}; a destination can receive only one file",
                    file.display, dest.display
                ),
            ));
        }
        dests.push((&dest.target, &file.display));
    }
    Ok(())
}

/// The file's real workspace-relative path when `file.display` reaches it
/// through a symlink (the display path differs from the canonical target).
fn real_path_if_linked(ws: &Workspace, file: &LockedFile) -> Option<String> {
    let relative = file.target.strip_prefix(ws.root()).ok()?;
    let real = relative
        .components()
        .map(|component| component.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    (real != file.display).then_some(real)
}

fn symlinked(display: &str, real: &str) -> ToolError {
    ToolError::new(
        ErrorKind::InvalidArguments,
        format!(
            "{display} goes through a symlink to {real}; nothing was changed. Files are deleted and moved only by their real path, so that it is clear whether the link or the file is meant: head the section [{real}#TAG] instead (same tag) to delete or move the file itself (links to it then dangle), or remove the symlink with another tool"
        ),
    )
}

fn onto_itself(source: &str, dest: &str) -> ToolError {
    let detail = if source == dest {
        format!("{source} cannot be moved to itself")
    } else {
        format!("{source} cannot be moved to {dest}: that is the same file")
    };
    ToolError::new(
        ErrorKind::InvalidArguments,
        format!("{detail}; give a different destination path"),
    )
}

fn dest_exists(source: &str, dest: &str) -> ToolError {
    ToolError::new(
        ErrorKind::Conflict,
        format!(
            "{dest} already exists, so {source} was not moved there: a move never overwrites a file. Choose a destination that does not exist, or delete {dest} in a separate edit first"
        ),
    )
}

/// Applies change `index`, recording every visible step in `journal` as
/// soon as it is made (also when a later part of the change fails).
fn apply(
    ws: &Workspace,
    locked: &mut [LockedFile],
    index: usize,
    change: &Change,
    journal: &mut Vec<Step>,
    warnings: &mut Vec<String>,
) -> ToolResult<()> {
    let Some(file) = locked.get_mut(index) else {
        return Ok(());
    };
    match change {
        Change::Keep => Ok(()),
        Change::Replace(bytes) => match replace_inner(file, bytes) {
            Ok(()) => {
                journal.push(Step::Replaced { index });
                Ok(())
            }
            Err(failure) => {
                if failure.applied {
                    journal.push(Step::Replaced { index });
                }
                Err(failure.error)
            }
        },
        Change::Remove => back_up(file, index, "delete", journal),
        Change::Move { dest, bytes } => {
            let new_file = install(ws, file, dest, bytes, warnings)?;
            let synced = sync_dir(new_file.dir.as_fd(), &new_file.display);
            journal.push(Step::Installed {
                index,
                dest: new_file,
            });
            synced?;
            #[cfg(test)]
            super::fault::inject(Point::MoveInstalled, &file.display)
                .map_err(|error| ToolError::io("move", &file.display, &error))?;
            back_up(file, index, "move", journal)
        }
    }
}

/// Renames the locked file to a fresh backup name in its directory, as
/// described on [`commit_changes`]; `action` ("delete", "move") is for
/// messages.
fn back_up(
    file: &LockedFile,
    index: usize,
    action: &str,
    journal: &mut Vec<Step>,
) -> ToolResult<()> {
    let display = file.display.as_str();
    let dir = file.dir.as_fd();
    #[cfg(test)]
    super::fault::inject(Point::BeforeBackup, display)
        .map_err(|error| ToolError::io(action, display, &error))?;
    check_still_there(dir, &file.name, &file.meta, display)?;
    let backup = rename_to_backup(dir, &file.name, action, display)?;
    journal.push(Step::BackedUp {
        index,
        backup: backup.clone(),
    });
    // Between the check and the rename another program may have put a
    // different file at the name; then the rollback renames that one back.
    match rustix::fs::statat(dir, &backup, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) if file.meta.same_inode(&stat) => {}
        Ok(_) => {
            return Err(ToolError::new(
                ErrorKind::Conflict,
                format!(
                    "{display} was replaced by another program while it was being edited; read it again and redo the edit"
                ),
            ));
        }
        Err(errno) => return Err(map_errno(action, display, errno)),
    }
    #[cfg(test)]
    super::fault::inject(Point::AfterBackup, display)
        .map_err(|error| super::write::dir_sync_error(display, &error))?;
    sync_dir(dir, display)
}

/// Renames `name` to a fresh `.hashedit-<random>.bak` in `dir`, never
/// replacing anything.
fn rename_to_backup(
    dir: BorrowedFd<'_>,
    name: &OsStr,
    action: &str,
    display: &str,
) -> ToolResult<OsString> {
    const ATTEMPTS: usize = 32;
    for _ in 0..ATTEMPTS {
        let backup = hidden_name("bak");
        match rename_away(dir, name, &backup) {
            Ok(()) => return Ok(backup),
            Err(errno) if errno == Errno::EXIST => {}
            Err(errno)
                if errno == Errno::ACCESS || errno == Errno::PERM || errno == Errno::ROFS =>
            {
                return Err(ToolError::new(
                    ErrorKind::PermissionDenied,
                    format!(
                        "cannot {action} {display}: its directory does not allow removing files ({})",
                        os_message(&io::Error::from(errno))
                    ),
                ));
            }
            Err(errno) => return Err(map_errno(action, display, errno)),
        }
    }
    Err(ToolError::new(
        ErrorKind::Io,
        format!("cannot {action} {display}: no free backup name in its directory; retry"),
    ))
}

/// Creates a move's destination with `bytes` and the source's mode and
/// owner, locked, without replacing anything. On failure nothing is left
/// behind (temp file and created directories are removed).
fn install(
    ws: &Workspace,
    source: &LockedFile,
    dest: &ResolvedPath,
    bytes: &[u8],
    warnings: &mut Vec<String>,
) -> ToolResult<NewFile> {
    let display = dest.display.as_str();
    let (parent, name) = split(ws, dest)?;
    let mut dirs = Vec::new();
    match create_locked(ws.root(), parent, name, source, dest, bytes, &mut dirs) {
        Ok((dir, file, warning)) => {
            warnings.extend(warning);
            Ok(NewFile {
                display: display.to_string(),
                dir,
                name: name.to_os_string(),
                file,
                dirs,
            })
        }
        Err(error) => {
            remove_dirs(dirs);
            Err(error)
        }
    }
}

/// The work of [`install`]: returns DEST's directory, the new locked file
/// and a warning when the owner could not be kept.
fn create_locked(
    root: &Path,
    parent: &Path,
    name: &OsStr,
    source: &LockedFile,
    dest: &ResolvedPath,
    bytes: &[u8],
    dirs: &mut Vec<CreatedDir>,
) -> ToolResult<(OwnedFd, File, Option<String>)> {
    let display = dest.display.as_str();
    let root_fd = open_root(root, display)?;
    let dir = walk_dirs_recording(root_fd, parent, display, true, dirs)?;
    let fd = dir.as_fd();
    let (temp, guard, made) = write_temp(fd, bytes, display)?;
    let meta = source.meta;
    let mut mode = meta.mode;
    let mut warning = None;
    if !copy_owner(&temp, &made, &meta, display)? {
        // At least the group, when it is one of ours.
        let _ = rustix::fs::fchown(&temp, None, Some(Gid::from_raw(meta.gid)));
        let lost_bits = if mode & 0o6000 != 0 {
            " and without its setuid/setgid bits"
        } else {
            ""
        };
        mode &= !0o6000;
        warning = Some(format!(
            "warning: {display}: this process may not give files to {}'s owner (uid {}, gid {}), so the moved file belongs to the editing user{lost_bits}",
            source.display, meta.uid, meta.gid
        ));
    }
    seal_temp(&temp, mode, display)?;
    #[cfg(test)]
    super::fault::inject(Point::BeforeInstall, display)
        .map_err(|error| ToolError::io("write", display, &error))?;
    match rename_no_replace(fd, guard.name(), fd, name) {
        Ok(NoReplace::Renamed) => guard.disarm(),
        // Installed by a hard link: dropping the guard removes the temp
        // name.
        Ok(NoReplace::Linked) => drop(guard),
        Err(errno) if errno == Errno::EXIST => {
            return Err(dest_exists(&source.display, display));
        }
        Err(errno) => return Err(map_create_errno(display, errno)),
    }
    Ok((dir, temp, warning))
}

/// Removes directories a failed or undone move created, innermost first,
/// each only if it is empty (anything another program put there stays).
fn remove_dirs(dirs: Vec<CreatedDir>) {
    for made in dirs.into_iter().rev() {
        if rustix::fs::unlinkat(made.parent.as_fd(), &made.name, AtFlags::REMOVEDIR).is_ok() {
            let _ = sync_dir(made.parent.as_fd(), "");
        }
    }
}

/// Unlinks the backups after a successful transaction; a failure leaves a
/// warning naming the backup.
fn discard_backups(locked: &[LockedFile], journal: &[Step], warnings: &mut Vec<String>) {
    for step in journal {
        let Step::BackedUp { index, backup } = step else {
            continue;
        };
        let Some(file) = locked.get(*index) else {
            continue;
        };
        let dir = file.dir.as_fd();
        let removed = {
            #[cfg(test)]
            let injected = super::fault::inject(Point::DiscardBackup, &file.display);
            #[cfg(not(test))]
            let injected: io::Result<()> = Ok(());
            injected.and_then(|()| {
                rustix::fs::unlinkat(dir, backup, AtFlags::empty()).map_err(io::Error::from)
            })
        };
        match removed {
            // A failed fsync only risks the backup reappearing after a
            // crash, a leftover described on `commit_changes`.
            Ok(()) => {
                let _ = sync_dir(dir, &file.display);
            }
            Err(error) => warnings.push(format!(
                "warning: {}: its backup {} in the same directory could not be removed ({}); it holds the content from before this edit and can be deleted",
                file.display,
                backup.to_string_lossy(),
                os_message(&error)
            )),
        }
    }
}

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
fn roll_back(locked: &mut [LockedFile], changes: &[Change], journal: Vec<Step>) -> String {
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

    let mut rewritten = Vec::new();
    let mut rewrite_failed = Vec::new();
    let mut failures = Vec::new();
    let mut put_back = Vec::new();
    let mut moved_back = Vec::new();
    let mut dests_removed = Vec::new();
    let mut moves = Vec::new();
    for (index, outcome) in undone {
        let (Some(file), Some(change)) = (locked.get(index), changes.get(index)) else {
            continue;
        };
        let display = file.display.clone();
        match outcome.content {
            Some(Ok(())) => rewritten.push(display.clone()),
            Some(Err(failure)) => rewrite_failed.push(failure),
            None => {}
        }
        let dest_display = match change {
            Change::Move { dest, .. } => Some(dest.display.as_str()),
            _ => None,
        };
        // A move whose new file is gone and whose source is back (or was
        // never backed up) is undone as a whole.
        if let (Some(Ok(())) | None, Some(Ok(())), Some(dest)) =
            (&outcome.source, &outcome.dest, dest_display)
        {
            moves.push(format!("{display} to {dest}"));
            continue;
        }
        match outcome.source {
            Some(Ok(())) if dest_display.is_some() => moved_back.push(display.clone()),
            Some(Ok(())) => put_back.push(display.clone()),
            Some(Err(failure)) => failures.push(failure),
            None => {}
        }
        match (outcome.dest, dest_display) {
            (Some(Ok(())), Some(dest)) => dests_removed.push(dest.to_string()),
            (Some(Err(failure)), _) => failures.push(failure),
            _ => {}
        }
    }

    let mut note = String::new();
    push_keeps_edited(&mut note, &rewrite_failed);
    for failure in failures {
        note.push_str("; ");
        note.push_str(&failure);
    }
    push_restored(&mut note, &rewritten);
    for (names, how, done) in [
        (&put_back, "deleted", "put back"),
        (&moved_back, "moved away", "put back"),
        (&dests_removed, "created", "removed"),
    ] {
        if !names.is_empty() {
            let be = if names.len() == 1 { "was" } else { "were" };
            note.push_str(&format!(
                "; {}, {how} by this edit, {be} {done}",
                join(names)
            ));
        }
    }
    match moves.len() {
        0 => {}
        1 => note.push_str(&format!("; the move of {} was undone", join(&moves))),
        _ => note.push_str(&format!("; the moves of {} were undone", join(&moves))),
    }
    note
}

/// Renames a backup back to the file's name; the error is a complete
/// clause for the rollback note.
fn restore_backup(file: &LockedFile, backup: &OsStr) -> Result<(), String> {
    let dir = file.dir.as_fd();
    let restored = {
        #[cfg(test)]
        let injected = super::fault::inject(Point::RestoreBackup, &file.display);
        #[cfg(not(test))]
        let injected: io::Result<()> = Ok(());
        injected.map_err(|error| os_message(&error)).and_then(|()| {
            rename_away(dir, backup, &file.name).map_err(|errno| {
                if errno == Errno::EXIST {
                    "another file has taken its name meanwhile".to_string()
                } else {
                    os_message(&io::Error::from(errno))
                }
            })
        })
    };
    match restored {
        Ok(()) => {
            // Best effort: the name is back either way; a failed fsync only
            // risks finding the backup name after a crash.
            let _ = sync_dir(dir, &file.display);
            Ok(())
        }
        Err(why) => Err(format!(
            "{} could not be put back ({why}); its previous content is kept in {} in the same directory",
            file.display,
            backup.to_string_lossy()
        )),
    }
}

/// Removes a move's new file if its path still names the inode this
/// transaction created, then the directories made for it; the error is a
/// complete clause for the rollback note.
fn remove_new_file(new: NewFile) -> Result<(), String> {
    let display = new.display.as_str();
    let dir = new.dir.as_fd();
    let removed = (|| -> Result<(), String> {
        #[cfg(test)]
        super::fault::inject(Point::RemoveDest, display).map_err(|error| os_message(&error))?;
        let errno_text = |errno: Errno| os_message(&io::Error::from(errno));
        let ours = rustix::fs::fstat(&new.file).map_err(errno_text)?;
        match rustix::fs::statat(dir, &new.name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(now) if same_inode(&now, &ours) => {}
            // Already gone: nothing of ours is left at the path.
            Err(errno) if errno == Errno::NOENT => return Ok(()),
            Ok(_) => {
                return Err(
                    "another program put a different file there meanwhile, which was left as it is"
                        .to_string(),
                );
            }
            Err(errno) => return Err(errno_text(errno)),
        }
        rustix::fs::unlinkat(dir, &new.name, AtFlags::empty()).map_err(errno_text)?;
        let _ = sync_dir(dir, display);
        Ok(())
    })();
    // Empty directories are removed in every case; the new file's lock is
    // released when `new.file` drops after this.
    remove_dirs(new.dirs);
    removed.map_err(|why| format!("{display}, created by this edit, could not be removed ({why})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fsio::fault::{self, Point};
    use crate::fsio::test_support::{empty_workspace, resolve};
    use crate::fsio::{commit_all, lock_all, lock_existing};
    use crate::workspace::Resolve;
    use rustix::fs::FlockOperation;
    use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
    use tempfile::TempDir;

    /// What a path in the tree is, for byte-for-byte comparisons.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Entry {
        File { bytes: Vec<u8>, mode: u32 },
        Dir { mode: u32 },
        Link(std::path::PathBuf),
    }

    /// Every path below `root` (relative, sorted) with what it is.
    fn tree(root: &Path) -> BTreeMap<String, Entry> {
        fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Entry>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let md = std::fs::symlink_metadata(&path).unwrap();
                let name = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                let mode = md.mode() & 0o7777;
                if md.file_type().is_symlink() {
                    out.insert(name, Entry::Link(std::fs::read_link(&path).unwrap()));
                } else if md.is_dir() {
                    out.insert(name, Entry::Dir { mode });
                    walk(root, &path, out);
                } else {
                    let bytes = std::fs::read(&path).unwrap();
                    out.insert(name, Entry::File { bytes, mode });
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(root, root, &mut out);
        out
    }

    fn names(root: &Path) -> Vec<String> {
        tree(root).into_keys().collect()
    }

    /// A workspace with `files` (name, content, mode), parents created.
    fn setup(files: &[(&str, &[u8], u32)]) -> (TempDir, Workspace) {
        let (dir, ws) = empty_workspace();
        for (name, content, mode) in files {
            let path = ws.root().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, content).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(*mode)).unwrap();
        }
        (dir, ws)
    }

    fn lock(ws: &Workspace, names: &[&str]) -> Vec<LockedFile> {
        let paths: Vec<ResolvedPath> = names.iter().map(|name| resolve(ws, name)).collect();
        lock_all(ws, &paths, 1 << 20).unwrap()
    }

    fn move_to(ws: &Workspace, dest: &str, bytes: &[u8]) -> Change {
        Change::Move {
            dest: ws.resolve(dest, Resolve::MayCreate).unwrap(),
            bytes: bytes.to_vec(),
        }
    }

    fn ino(ws: &Workspace, name: &str) -> u64 {
        std::fs::metadata(ws.root().join(name)).unwrap().ino()
    }

    #[test]
    fn removes_a_file() {
        let (_dir, ws) = setup(&[("a.txt", b"a\n", 0o644), ("sub/b.txt", b"b\n", 0o600)]);
        let mut locked = lock(&ws, &["a.txt", "sub/b.txt"]);
        let report = commit_changes(&ws, &mut locked, &[Change::Keep, Change::Remove]).unwrap();
        assert_eq!(report.files, [Committed::Kept, Committed::Removed]);
        assert!(report.warnings.is_empty());
        // Gone at once, with no backup left, while the lock is still held.
        assert_eq!(names(ws.root()), ["a.txt", "sub"]);
        drop(locked);
        assert_eq!(std::fs::read(ws.root().join("a.txt")).unwrap(), b"a\n");
    }

    #[test]
    fn removing_one_hard_link_keeps_the_others() {
        let (_dir, ws) = setup(&[("a.txt", b"shared\n", 0o644)]);
        std::fs::hard_link(ws.root().join("a.txt"), ws.root().join("b.txt")).unwrap();
        let mut locked = lock(&ws, &["a.txt"]);
        commit_changes(&ws, &mut locked, &[Change::Remove]).unwrap();
        drop(locked);
        assert_eq!(names(ws.root()), ["b.txt"]);
        let md = std::fs::metadata(ws.root().join("b.txt")).unwrap();
        assert_eq!(md.nlink(), 1);
        assert_eq!(std::fs::read(ws.root().join("b.txt")).unwrap(), b"shared\n");
    }

    #[test]
    fn moves_a_file_into_new_directories_keeping_mode_and_owner() {
        let (_dir, ws) = setup(&[("c.txt", b"#!/bin/sh\necho old\n", 0o755)]);
        let is_root = rustix::process::geteuid().is_root();
        if is_root {
            std::os::unix::fs::chown(ws.root().join("c.txt"), Some(1234), Some(2345)).unwrap();
        }
        let mut locked = lock(&ws, &["c.txt"]);
        let change = move_to(&ws, "new/deeper/c.sh", b"#!/bin/sh\necho new\n");
        let report = commit_changes(&ws, &mut locked, std::slice::from_ref(&change)).unwrap();
        let [Committed::Moved { dest }] = report.files.as_slice() else {
            panic!("{report:?}");
        };
        assert_eq!(dest.display, "new/deeper/c.sh");
        assert_eq!(dest.target, ws.root().join("new/deeper/c.sh"));
        assert!(dest.exists);
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        let moved = ws.root().join("new/deeper/c.sh");
        assert_eq!(std::fs::read(&moved).unwrap(), b"#!/bin/sh\necho new\n");
        let md = std::fs::metadata(&moved).unwrap();
        assert_eq!(md.mode() & 0o7777, 0o755);
        if is_root {
            assert_eq!((md.uid(), md.gid()), (1234, 2345));
        }
        assert_eq!(names(ws.root()), ["new", "new/deeper", "new/deeper/c.sh"]);
        // The destination's lock was released when the commit returned,
        // while the source's is held until `locked` drops.
        let dest_lock = lock_existing(&ws, dest, 100).unwrap();
        assert_eq!(dest_lock.original, b"#!/bin/sh\necho new\n");
        drop(dest_lock);
        drop(locked);
    }

    #[test]
    fn the_destination_is_locked_before_it_becomes_visible() {
        let (_dir, ws) = setup(&[("c.txt", b"c\n", 0o644)]);
        let mut locked = lock(&ws, &["c.txt"]);
        let dest = ws.root().join("d.txt");
        let seen = std::rc::Rc::new(std::cell::Cell::new(None));
        let probe = seen.clone();
        // Mid-transaction (the new file is in place, the source not yet
        // removed), another writer's lock attempt must fail.
        fault::set(move |point, _| {
            if point == Point::MoveInstalled {
                let other = File::open(&dest).unwrap();
                probe.set(Some(rustix::fs::flock(
                    &other,
                    FlockOperation::NonBlockingLockExclusive,
                )));
            }
            None
        });
        commit_changes(&ws, &mut locked, &[move_to(&ws, "d.txt", b"C\n")]).unwrap();
        fault::clear();
        assert_eq!(seen.get(), Some(Err(Errno::WOULDBLOCK)));
        // Released once the commit returned.
        let other = File::open(ws.root().join("d.txt")).unwrap();
        rustix::fs::flock(&other, FlockOperation::NonBlockingLockExclusive).unwrap();
    }

    #[test]
    fn moving_onto_an_existing_file_is_a_conflict() {
        let (_dir, ws) = setup(&[("c.txt", b"source\n", 0o644), ("d.txt", b"theirs\n", 0o600)]);
        let before = tree(ws.root());
        let mut locked = lock(&ws, &["c.txt"]);
        let error =
            commit_changes(&ws, &mut locked, &[move_to(&ws, "d.txt", b"new\n")]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Conflict);
        assert_eq!(
            error.message,
            "d.txt already exists, so c.txt was not moved there: a move never overwrites a file. Choose a destination that does not exist, or delete d.txt in a separate edit first"
        );
        assert_eq!(tree(ws.root()), before);

        // The same when the destination appears after it was resolved: the
        // no-replace install refuses it, and the directory made for it is
        // not involved (it already existed).
        let change = move_to(&ws, "late/e.txt", b"new\n");
        std::fs::create_dir(ws.root().join("late")).unwrap();
        std::fs::write(ws.root().join("late/e.txt"), b"raced\n").unwrap();
        let before = tree(ws.root());
        let error = commit_changes(&ws, &mut locked, &[change]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Conflict);
        assert!(
            error
                .message
                .starts_with("late/e.txt already exists, so c.txt was not moved there"),
            "{}",
            error.message
        );
        assert_eq!(tree(ws.root()), before);
    }

    #[test]
    fn moving_to_itself_is_refused() {
        let (_dir, ws) = setup(&[("c.txt", b"c\n", 0o644)]);
        symlink("c.txt", ws.root().join("alias")).unwrap();
        let before = tree(ws.root());
        let mut locked = lock(&ws, &["c.txt"]);
        let error = commit_changes(&ws, &mut locked, &[move_to(&ws, "./c.txt", b"x")]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments);
        assert_eq!(
            error.message,
            "c.txt cannot be moved to itself; give a different destination path"
        );
        let error = commit_changes(&ws, &mut locked, &[move_to(&ws, "alias", b"x")]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments);
        assert_eq!(
            error.message,
            "c.txt cannot be moved to alias: that is the same file; give a different destination path"
        );
        assert_eq!(tree(ws.root()), before);
    }

    /// The mixed transaction of several tests: replace a.txt, keep k.txt,
    /// delete b.txt, move c.txt to d/c.txt (d is new).
    fn mixed() -> (TempDir, Workspace, Vec<LockedFile>, Vec<Change>) {
        let (dir, ws) = setup(&[
            ("a.txt", b"alpha\r\nmixed\n", 0o751),
            ("k.txt", b"kept\n", 0o644),
            ("b.txt", "\u{FEFF}bom\n".as_bytes(), 0o640),
            ("c.txt", b"#!/bin/sh\nc\n", 0o755),
        ]);
        let locked = lock(&ws, &["a.txt", "k.txt", "b.txt", "c.txt"]);
        let changes = vec![
            Change::Replace(b"A\n".to_vec()),
            Change::Keep,
            Change::Remove,
            move_to(&ws, "d/c.txt", b"#!/bin/sh\nC\n"),
        ];
        (dir, ws, locked, changes)
    }

    #[test]
    fn a_mixed_transaction_commits_everything() {
        let (_dir, ws, mut locked, changes) = mixed();
        let report = commit_changes(&ws, &mut locked, &changes).unwrap();
        assert_eq!(report.files.len(), 4);
        assert_eq!(
            report.files[..3],
            [Committed::Replaced, Committed::Kept, Committed::Removed]
        );
        assert!(matches!(&report.files[3], Committed::Moved { dest } if dest.display == "d/c.txt"));
        assert!(report.warnings.is_empty());
        drop(locked);
        let expected = BTreeMap::from([
            (
                "a.txt".to_string(),
                Entry::File {
                    bytes: b"A\n".to_vec(),
                    mode: 0o751,
                },
            ),
            (
                "k.txt".to_string(),
                Entry::File {
                    bytes: b"kept\n".to_vec(),
                    mode: 0o644,
                },
            ),
            (
                "d".to_string(),
                Entry::Dir {
                    mode: std::fs::metadata(ws.root().join("d")).unwrap().mode() & 0o7777,
                },
            ),
            (
                "d/c.txt".to_string(),
                Entry::File {
                    bytes: b"#!/bin/sh\nC\n".to_vec(),
                    mode: 0o755,
                },
            ),
        ]);
        assert_eq!(tree(ws.root()), expected);
    }

    #[test]
    fn a_failure_at_any_step_of_the_last_move_restores_everything() {
        let cases = [
            (
                Point::BeforeInstall,
                "d/c.txt",
                "cannot write d/c.txt: injected failure",
                "",
            ),
            (
                Point::MoveInstalled,
                "c.txt",
                "cannot move c.txt: injected failure",
                "; the move of c.txt to d/c.txt was undone",
            ),
            (
                Point::BeforeBackup,
                "c.txt",
                "cannot move c.txt: injected failure",
                "; the move of c.txt to d/c.txt was undone",
            ),
            (
                Point::AfterBackup,
                "c.txt",
                "cannot sync the directory of c.txt: injected failure; the change is visible but might not survive a crash",
                "; the move of c.txt to d/c.txt was undone",
            ),
        ];
        for (point, at, cause, move_note) in cases {
            let (_dir, ws, mut locked, changes) = mixed();
            let before = tree(ws.root());
            let inodes = (ino(&ws, "b.txt"), ino(&ws, "c.txt"));
            fault::set(move |p, display| (p == point && display == at).then(fault::injected));
            let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
            fault::clear();
            assert_eq!(error.kind, ErrorKind::Io, "{point:?}");
            assert_eq!(
                error.message,
                format!(
                    "{cause}; a.txt, already written by this edit, was restored to its previous content; b.txt, deleted by this edit, was put back{move_note}"
                ),
                "{point:?}"
            );
            drop(locked);
            // Byte for byte, modes included; the deleted and moved files
            // are their very inodes again; no backup, temp file or new
            // directory is left.
            assert_eq!(tree(ws.root()), before, "{point:?}");
            assert_eq!((ino(&ws, "b.txt"), ino(&ws, "c.txt")), inodes, "{point:?}");
        }
    }

    #[test]
    fn a_failure_while_deleting_restores_the_earlier_files() {
        let (_dir, ws, mut locked, changes) = mixed();
        let before = tree(ws.root());
        fault::set(|point, display| {
            (point == Point::AfterBackup && display == "b.txt").then(fault::injected)
        });
        let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
        fault::clear();
        assert_eq!(
            error.message,
            "cannot sync the directory of b.txt: injected failure; the change is visible but might not survive a crash; a.txt, already written by this edit, was restored to its previous content; b.txt, deleted by this edit, was put back"
        );
        drop(locked);
        assert_eq!(tree(ws.root()), before);
    }

    #[test]
    fn a_failed_restore_keeps_the_backup_and_names_it() {
        let (_dir, ws, mut locked, changes) = mixed();
        fault::set(|point, display| {
            let fail = (point == Point::MoveInstalled && display == "c.txt")
                || (point == Point::RestoreBackup && display == "b.txt");
            fail.then(fault::injected)
        });
        let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
        fault::clear();
        drop(locked);
        // b.txt stays under its backup name; everything else is restored.
        let listing = names(ws.root());
        assert_eq!(listing.len(), 4, "{listing:?}");
        let backup = listing
            .iter()
            .find(|name| name.starts_with(".hashedit-") && name.ends_with(".bak"))
            .unwrap();
        assert_eq!(
            error.message,
            format!(
                "cannot move c.txt: injected failure; b.txt could not be put back (injected failure); its previous content is kept in {backup} in the same directory; a.txt, already written by this edit, was restored to its previous content; the move of c.txt to d/c.txt was undone"
            )
        );
        assert_eq!(
            std::fs::read(ws.root().join(backup)).unwrap(),
            "\u{FEFF}bom\n".as_bytes()
        );
        assert_eq!(
            std::fs::read(ws.root().join("a.txt")).unwrap(),
            b"alpha\r\nmixed\n"
        );
        assert_eq!(
            std::fs::read(ws.root().join("c.txt")).unwrap(),
            b"#!/bin/sh\nc\n"
        );
        assert_eq!(listing[1..], ["a.txt", "c.txt", "k.txt"]);
    }

    #[test]
    fn a_destination_that_cannot_be_removed_is_reported() {
        let (_dir, ws, mut locked, changes) = mixed();
        fault::set(|point, display| {
            let fail = (point == Point::AfterBackup && display == "c.txt")
                || (point == Point::RemoveDest && display == "d/c.txt");
            fail.then(fault::injected)
        });
        let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
        fault::clear();
        assert_eq!(
            error.message,
            "cannot sync the directory of c.txt: injected failure; the change is visible but might not survive a crash; d/c.txt, created by this edit, could not be removed (injected failure); a.txt, already written by this edit, was restored to its previous content; b.txt, deleted by this edit, was put back; c.txt, moved away by this edit, was put back"
        );
        drop(locked);
        assert_eq!(
            names(ws.root()),
            ["a.txt", "b.txt", "c.txt", "d", "d/c.txt", "k.txt"]
        );
    }

    #[test]
    fn a_backup_that_cannot_be_discarded_is_a_warning() {
        let (_dir, ws) = setup(&[("b.txt", b"b\n", 0o644)]);
        let mut locked = lock(&ws, &["b.txt"]);
        fault::set(|point, _| (point == Point::DiscardBackup).then(fault::injected));
        let report = commit_changes(&ws, &mut locked, &[Change::Remove]).unwrap();
        fault::clear();
        assert_eq!(report.files, [Committed::Removed]);
        let listing = names(ws.root());
        let [backup] = listing.as_slice() else {
            panic!("{listing:?}");
        };
        assert!(backup.starts_with(".hashedit-") && backup.ends_with(".bak"));
        assert_eq!(
            report.warnings,
            [format!(
                "warning: b.txt: its backup {backup} in the same directory could not be removed (injected failure); it holds the content from before this edit and can be deleted"
            )]
        );
        assert_eq!(std::fs::read(ws.root().join(backup)).unwrap(), b"b\n");
    }

    #[test]
    fn read_only_sources_are_refused_before_anything_changes() {
        let (_dir, ws) = setup(&[("a.txt", b"a\n", 0o644), ("ro.txt", b"ro\n", 0o444)]);
        let before = tree(ws.root());
        let mut locked = lock(&ws, &["a.txt", "ro.txt"]);
        for change in [Change::Remove, move_to(&ws, "moved.txt", b"ro\n")] {
            let changes = [Change::Replace(b"A\n".to_vec()), change];
            let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
            assert_eq!(error.kind, ErrorKind::PermissionDenied);
            assert_eq!(
                error.message,
                "ro.txt is read-only (mode 0444); nothing was written. Make it writable first (for example chmod u+w) if it really should change"
            );
            assert_eq!(tree(ws.root()), before);
        }
    }

    #[test]
    fn paths_through_symlinks_are_not_deleted_or_moved() {
        let (_dir, ws) = setup(&[("real.txt", b"real\n", 0o644), ("d/a.txt", b"a\n", 0o644)]);
        symlink("real.txt", ws.root().join("link.txt")).unwrap();
        symlink("d", ws.root().join("ld")).unwrap();
        let before = tree(ws.root());
        let mut locked = lock(&ws, &["link.txt"]);
        for change in [Change::Remove, move_to(&ws, "x.txt", b"real\n")] {
            let error = commit_changes(&ws, &mut locked, &[change]).unwrap_err();
            assert_eq!(error.kind, ErrorKind::InvalidArguments);
            assert_eq!(
                error.message,
                "link.txt goes through a symlink to real.txt; nothing was changed. Files are deleted and moved only by their real path, so that it is clear whether the link or the file is meant: head the section [real.txt#TAG] instead (same tag) to delete or move the file itself (links to it then dangle), or remove the symlink with another tool"
            );
            assert_eq!(tree(ws.root()), before);
        }
        // Replacing through the link is still fine (it keeps the link).
        commit_changes(&ws, &mut locked, &[Change::Replace(b"new\n".to_vec())]).unwrap();
        drop(locked);
        // A symlinked directory on the way counts too.
        let mut locked = lock(&ws, &["ld/a.txt"]);
        let error = commit_changes(&ws, &mut locked, &[Change::Remove]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments);
        assert!(
            error
                .message
                .starts_with("ld/a.txt goes through a symlink to d/a.txt;"),
            "{}",
            error.message
        );
        drop(locked);
        // The real path works, and the link is left dangling.
        let mut locked = lock(&ws, &["real.txt"]);
        commit_changes(&ws, &mut locked, &[Change::Remove]).unwrap();
        drop(locked);
        assert_eq!(names(ws.root()), ["d", "d/a.txt", "ld", "link.txt"]);
        assert_eq!(
            std::fs::read_link(ws.root().join("link.txt")).unwrap(),
            Path::new("real.txt")
        );
    }

    #[test]
    fn a_destination_through_a_dangling_symlink_creates_its_target() {
        let (_dir, ws) = setup(&[("c.txt", b"c\n", 0o640)]);
        symlink("sub/made.txt", ws.root().join("dangling")).unwrap();
        let mut locked = lock(&ws, &["c.txt"]);
        let report = commit_changes(&ws, &mut locked, &[move_to(&ws, "dangling", b"C\n")]).unwrap();
        assert!(
            matches!(&report.files[0], Committed::Moved { dest } if dest.display == "dangling" && dest.target == ws.root().join("sub/made.txt"))
        );
        drop(locked);
        assert_eq!(names(ws.root()), ["dangling", "sub", "sub/made.txt"]);
        assert_eq!(std::fs::read(ws.root().join("dangling")).unwrap(), b"C\n");
    }

    #[test]
    fn a_destination_directory_swapped_for_a_symlink_is_a_conflict() {
        let (dir, ws) = setup(&[("c.txt", b"c\n", 0o644), ("sub/keep", b"k\n", 0o644)]);
        let outside = TempDir::new().unwrap();
        let change = move_to(&ws, "sub/new/x.txt", b"x\n");
        // After resolution, `sub` becomes a symlink leading outside.
        std::fs::rename(ws.root().join("sub"), dir.path().join("sub-moved")).unwrap();
        symlink(outside.path(), ws.root().join("sub")).unwrap();
        let before = tree(ws.root());
        let mut locked = lock(&ws, &["c.txt"]);
        let error = commit_changes(&ws, &mut locked, &[change]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Conflict, "{}", error.message);
        drop(locked);
        assert_eq!(tree(ws.root()), before);
        assert!(names(outside.path()).is_empty());

        // A destination that was never resolved inside the workspace.
        let mut locked = lock(&ws, &["c.txt"]);
        let foreign = Change::Move {
            dest: ResolvedPath {
                display: "elsewhere.txt".into(),
                target: outside.path().join("elsewhere.txt"),
                exists: false,
            },
            bytes: b"x".to_vec(),
        };
        let error = commit_changes(&ws, &mut locked, &[foreign]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace);
        assert!(names(outside.path()).is_empty());
    }

    #[test]
    fn two_moves_to_one_destination_are_refused() {
        let (_dir, ws) = setup(&[("a.txt", b"a\n", 0o644), ("b.txt", b"b\n", 0o644)]);
        let before = tree(ws.root());
        let mut locked = lock(&ws, &["a.txt", "b.txt"]);
        let changes = [move_to(&ws, "n/x.txt", b"a"), move_to(&ws, "n/x.txt", b"b")];
        let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
        assert_eq!(error.kind, ErrorKind::DuplicatePath);
        assert_eq!(
            error.message,
            "a.txt and b.txt are both moved to n/x.txt; a destination can receive only one file"
        );
        // Nor may a move land on another file of the transaction.
        let changes = [move_to(&ws, "b.txt", b"a"), Change::Remove];
        let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Conflict);
        drop(locked);
        assert_eq!(tree(ws.root()), before);
    }

    #[test]
    fn replacements_alone_report_like_commit_all() {
        let files: &[(&str, &[u8], u32)] = &[
            ("a.txt", b"a\n", 0o644),
            ("b.txt", b"b\n", 0o644),
            ("c.txt", b"c\n", 0o644),
        ];
        let contents = [b"A\n".to_vec(), b"B\n".to_vec(), b"C\n".to_vec()];
        let mut messages = Vec::new();
        for use_changes in [false, true] {
            let (_dir, ws) = setup(files);
            let before = tree(ws.root());
            let mut locked = lock(&ws, &["a.txt", "b.txt", "c.txt"]);
            let mut calls = 0;
            // c.txt fails; then the rollback of b.txt (the 4th replace)
            // fails too.
            fault::set(move |point, display| {
                if point != Point::BeforeRename {
                    return None;
                }
                calls += 1;
                (display == "c.txt" || calls == 4).then(fault::injected)
            });
            let error = if use_changes {
                let changes: Vec<Change> = contents.iter().cloned().map(Change::Replace).collect();
                commit_changes(&ws, &mut locked, &changes).unwrap_err()
            } else {
                let contents: Vec<Option<Vec<u8>>> = contents.iter().cloned().map(Some).collect();
                commit_all(&mut locked, &contents).unwrap_err()
            };
            fault::clear();
            messages.push(error.message);
            drop(locked);
            let mut after = before.clone();
            after.insert(
                "b.txt".into(),
                Entry::File {
                    bytes: b"B\n".to_vec(),
                    mode: 0o644,
                },
            );
            assert_eq!(tree(ws.root()), after);
        }
        assert_eq!(messages[0], messages[1]);
        assert_eq!(
            messages[1],
            "cannot write c.txt: injected failure; restoring the files this edit had already written failed for b.txt (cannot write b.txt: injected failure), so it keeps the edited content; a.txt, already written by this edit, was restored to its previous content"
        );
    }

    #[test]
    fn mismatched_lengths_are_refused() {
        let (_dir, ws) = setup(&[("a.txt", b"a\n", 0o644)]);
        let mut locked = lock(&ws, &["a.txt"]);
        let error = commit_changes(&ws, &mut locked, &[]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments);
        assert_eq!(
            error.message,
            "internal error: 0 changes for 1 locked files; nothing was written"
        );
    }

    #[test]
    fn a_source_replaced_after_locking_is_a_conflict_and_the_move_is_undone() {
        let (_dir, ws) = setup(&[("c.txt", b"c\n", 0o644)]);
        let mut locked = lock(&ws, &["c.txt"]);
        std::fs::write(ws.root().join("staged"), b"theirs\n").unwrap();
        std::fs::rename(ws.root().join("staged"), ws.root().join("c.txt")).unwrap();
        let error =
            commit_changes(&ws, &mut locked, &[move_to(&ws, "n/c.txt", b"C\n")]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Conflict);
        assert!(
            error
                .message
                .ends_with("; the move of c.txt to n/c.txt was undone"),
            "{}",
            error.message
        );
        drop(locked);
        assert_eq!(names(ws.root()), ["c.txt"]);
        assert_eq!(std::fs::read(ws.root().join("c.txt")).unwrap(), b"theirs\n");
    }
}
