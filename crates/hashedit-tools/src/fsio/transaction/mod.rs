//! The all-or-nothing transaction with file operations: one commit
//! rewrites, deletes (`REM`) and moves (`MV DEST`) files, and a failure
//! undoes everything it had done (reference-omp.md §2.4 and §3.12; issue 4
//! item 3).
//!
//! How deletions and moves stay reversible, the policy for read-only
//! files, symlinks, hard links and ownership, and what a crash can leave
//! behind are documented on [`commit_changes`].
//!
//! The steps have a module each: `check` refuses what cannot succeed
//! before anything is touched, `backup` renames a deleted or moved file
//! out of the way (and back), `install` creates a move's destination (and
//! removes it again), `rollback` undoes a failed transaction and words
//! what it did.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};

use rustix::fs::AtFlags;

use super::lock::LockedFile;
use super::open::CreatedDir;
use super::open::sync_dir;
use super::write::replace_inner;
use crate::error::{ErrorKind, ToolError, ToolResult, os_message};
use crate::workspace::{ResolvedPath, Workspace};

mod backup;
mod check;
mod install;
mod rollback;

use backup::back_up;
use check::check;
use install::install;
use rollback::roll_back;

/// What [`commit_changes`] does to one locked file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
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
pub(crate) enum Committed {
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
pub(crate) struct CommitReport {
    /// One entry per locked file, in input order.
    pub files: Vec<Committed>,
    /// Things the caller should pass on although everything was committed.
    pub warnings: Vec<CommitWarning>,
}

/// Something a successful commit could not do; its `Display` is the line
/// the model reads, starting with `warning: PATH:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CommitWarning {
    /// A moved file could not be given to its source's owner, so it
    /// belongs to the editing user (and lost setuid/setgid bits, if any).
    OwnerNotKept {
        /// Display path of the destination.
        dest: String,
        /// Display path of the source.
        source: String,
        /// The source's owner.
        uid: u32,
        /// The source's group.
        gid: u32,
        /// Whether setuid/setgid bits were dropped.
        lost_setid_bits: bool,
    },
    /// Extended attributes of the file that could not be copied onto its
    /// new inode (FORMAT.md §6.4).
    XattrsNotCopied {
        /// Display path of the file.
        display: String,
        /// The attributes' names.
        names: Vec<String>,
    },
    /// A backup could not be removed after the commit.
    BackupNotRemoved {
        /// Display path of the file.
        display: String,
        /// The backup's file name, in the same directory.
        backup: String,
        /// The operating system's reason.
        reason: String,
    },
}

impl std::fmt::Display for CommitWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommitWarning::OwnerNotKept {
                dest,
                source,
                uid,
                gid,
                lost_setid_bits,
            } => write!(
                f,
                "warning: {dest}: this process may not give files to {source}'s owner (uid {uid}, gid {gid}), so the moved file belongs to the editing user{}",
                if *lost_setid_bits {
                    " and without its setuid/setgid bits"
                } else {
                    ""
                }
            ),
            CommitWarning::XattrsNotCopied { display, names } => write!(
                f,
                "warning: {display}: the new content was written, but {} could not be copied to it \
                 ({}); check them (getfattr -d, getfacl) and set them again if they matter",
                if names.len() == 1 {
                    "an extended attribute"
                } else {
                    "some extended attributes"
                },
                names.join(", ")
            ),
            CommitWarning::BackupNotRemoved {
                display,
                backup,
                reason,
            } => write!(
                f,
                "warning: {display}: its backup {backup} in the same directory could not be removed ({reason}); it holds the content from before this edit and can be deleted"
            ),
        }
    }
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
/// be restored and where its content is.
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
pub(crate) fn commit_changes(
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
    let mut warnings: Vec<CommitWarning> = Vec::new();
    for (index, change) in changes.iter().enumerate() {
        if let Err(mut error) = apply(ws, locked, index, change, &mut journal, &mut warnings) {
            let note = roll_back(locked, changes, journal);
            error.message.push_str(&note);
            return Err(error);
        }
    }
    for file in locked.iter_mut() {
        warnings.extend(file.take_warnings());
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
pub(super) enum Step {
    /// `locked[index]` was rewritten (or may have been).
    Replaced { index: usize },
    /// `locked[index]` was renamed to `backup` in its directory.
    BackedUp { index: usize, backup: OsString },
    /// A move of `locked[index]` installed `dest`.
    Installed { index: usize, dest: NewFile },
}

/// A file a move created.
pub(super) struct NewFile {
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

/// Applies change `index`, recording every visible step in `journal` as
/// soon as it is made (also when a later part of the change fails).
fn apply(
    ws: &Workspace,
    locked: &mut [LockedFile],
    index: usize,
    change: &Change,
    journal: &mut Vec<Step>,
    warnings: &mut Vec<CommitWarning>,
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
            fault!(MoveInstalled, &file.display)
                .map_err(|error| ToolError::io("move", &file.display, &error))?;
            back_up(file, index, "move", journal)
        }
    }
}

/// Unlinks the backups after a successful transaction; a failure leaves a
/// warning naming the backup.
fn discard_backups(locked: &[LockedFile], journal: &[Step], warnings: &mut Vec<CommitWarning>) {
    for step in journal {
        let Step::BackedUp { index, backup } = step else {
            continue;
        };
        let Some(file) = locked.get(*index) else {
            continue;
        };
        let dir = file.dir.as_fd();
        let removed = fault!(DiscardBackup, &file.display).and_then(|()| {
            rustix::fs::unlinkat(dir, backup, AtFlags::empty()).map_err(io::Error::from)
        });
        match removed {
            // A failed fsync only risks the backup reappearing after a
            // crash, a leftover described on `commit_changes`.
            Ok(()) => {
                let _ = sync_dir(dir, &file.display);
            }
            Err(error) => warnings.push(CommitWarning::BackupNotRemoved {
                display: file.display.clone(),
                backup: backup.to_string_lossy().into_owned(),
                reason: os_message(&error),
            }),
        }
    }
}

#[cfg(test)]
mod tests;
