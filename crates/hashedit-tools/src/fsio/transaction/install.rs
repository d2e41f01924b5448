//! A move's destination: created with the new bytes, locked before it is
//! visible, never replacing anything; removed again on rollback.

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

use rustix::fs::{AtFlags, Gid};
use rustix::io::Errno;

use super::check::dest_exists;
use super::{CommitWarning, NewFile};
use crate::error::{ToolError, ToolResult, os_message};
use crate::fsio::lock::LockedFile;
use crate::fsio::open::{
    CreatedDir, map_create_errno, open_root, same_inode, split, sync_dir, walk_dirs_recording,
};
use crate::fsio::write::{NoReplace, copy_owner, rename_no_replace, seal_temp, write_temp};
use crate::workspace::{ResolvedPath, Workspace};

/// Creates a move's destination with `bytes` and the source's mode and
/// owner, locked, without replacing anything. On failure nothing is left
/// behind (temp file and created directories are removed).
pub(super) fn install(
    ws: &Workspace,
    source: &LockedFile,
    dest: &ResolvedPath,
    bytes: &[u8],
    warnings: &mut Vec<CommitWarning>,
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
) -> ToolResult<(OwnedFd, File, Option<CommitWarning>)> {
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
        let lost_setid_bits = mode & 0o6000 != 0;
        mode &= !0o6000;
        warning = Some(CommitWarning::OwnerNotKept {
            dest: display.to_string(),
            source: source.display.clone(),
            uid: meta.uid,
            gid: meta.gid,
            lost_setid_bits,
        });
    }
    seal_temp(&temp, mode, display)?;
    let warning =
        warning.or_else(|| super::super::xattrs::copy_xattrs(&source.file, &temp, display));
    fault!(BeforeInstall, display).map_err(|error| ToolError::io("write", display, &error))?;
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

/// Removes a move's new file if its path still names the inode this
/// transaction created, then the directories made for it; the error is a
/// complete clause for the rollback note.
pub(super) fn remove_new_file(new: NewFile) -> Result<(), String> {
    let display = new.display.as_str();
    let dir = new.dir.as_fd();
    let removed = (|| -> Result<(), String> {
        fault!(RemoveDest, display).map_err(|error| os_message(&error))?;
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
