//! A deleted or moved file's way out of its name and back: renamed to a
//! fresh `.hashedit-<random>.bak` beside it, renamed back on rollback.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, BorrowedFd};

use rustix::fs::AtFlags;
use rustix::io::Errno;

use super::Step;
use crate::error::{ErrorKind, ToolError, ToolResult, os_message};
use crate::fsio::lock::LockedFile;
use crate::fsio::open::map_errno;
use crate::fsio::open::{dir_sync_error, sync_dir};
use crate::fsio::write::{check_still_there, hidden_name, rename_away};

/// Renames the locked file to a fresh backup name in its directory, as
/// described on [`super::commit_changes`]; `action` ("delete", "move") is for
/// messages.
pub(super) fn back_up(
    file: &LockedFile,
    index: usize,
    action: &str,
    journal: &mut Vec<Step>,
) -> ToolResult<()> {
    let display = file.display.as_str();
    let dir = file.dir.as_fd();
    fault!(BeforeBackup, display).map_err(|error| ToolError::io(action, display, &error))?;
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
    fault!(AfterBackup, display).map_err(|error| dir_sync_error(display, &error))?;
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

/// Renames a backup back to the file's name; the error is a complete
/// clause for the rollback note.
pub(super) fn restore_backup(file: &LockedFile, backup: &OsStr) -> Result<(), String> {
    let dir = file.dir.as_fd();
    let restored = fault!(RestoreBackup, &file.display)
        .map_err(|error| os_message(&error))
        .and_then(|()| {
            rename_away(dir, backup, &file.name).map_err(|errno| {
                if errno == Errno::EXIST {
                    "another file has taken its name meanwhile".to_string()
                } else {
                    os_message(&io::Error::from(errno))
                }
            })
        });
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
