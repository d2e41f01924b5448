//! The all-or-nothing transaction: one commit rewrites, deletes (`REM`) and
//! moves (`MV DEST`) files, and a failure undoes everything it had done
//! (FORMAT.md §6.4, §6.5). `check` refuses what cannot succeed before
//! anything is touched, `backup` renames a deleted or moved file out of the
//! way (and back), `install` creates a move's destination (and removes it
//! again), `rollback` undoes a failed transaction and words what it did.

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

/// Applies `changes[i]` to `locked[i]`, in order, all or nothing. Every
/// change is checked first; if change `i` then fails, everything done is
/// undone in reverse order while the locks are held, and its error says
/// what was restored, or what could not be and where its content is.
///
/// No file is unlinked while the transaction can fail: a deleted file is
/// renamed (never over anything) to `.hashedit-<random>.bak` beside it, its
/// inode untouched and still locked, and the backups are unlinked only
/// after every change succeeded. A move writes its content to a temp file
/// beside DEST (missing directories made from the root without following
/// symlinks), with the source's mode and, where permitted, owner, locked
/// before a no-replace install, so DEST is never overwritten (`Conflict`)
/// and other writers wait for the outcome; then the source is deleted.
///
/// Policy: a file without any write bit is not rewritten, deleted or moved
/// (`PermissionDenied`); deleting or moving a path through a symlink is
/// refused, naming the real path (the link or its target: neither is
/// guessed); deleting removes one hard link's name; an owner the process
/// cannot give away is replaced by the editing user, with a warning.
///
/// Rollback covers failures, not crashes: after a crash, rewritten files
/// keep their new content, a moved file may exist at both paths, and a
/// deleted or moved file's previous content is in a `.bak` beside it
/// (rename it back to restore it); `.tmp` files are unfinished and can go.
///
/// Errors: `InvalidArguments`, `PermissionDenied`, `Conflict`,
/// `DuplicatePath` (two moves to one destination), `PathOutsideWorkspace`,
/// `NotFound`, `Io`.
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
