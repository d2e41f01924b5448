//! Atomic replacement and creation of files (FORMAT.md §6.4). A file with
//! one name is replaced by a temp file in its directory (owner and mode
//! copied, fsynced, locked) renamed over it, then the directory fsynced: a
//! crash leaves the old or the new bytes. A file with several hard links,
//! or whose owner cannot be copied onto a new inode, is rewritten in place
//! after an fsynced `.hashedit-<random>.bak` recovery copy is made beside
//! it. A new file is installed with a no-replace rename. A `.tmp` left by a
//! crash is never the only copy of anything; a `.bak` always is a complete
//! previous content.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, FlockOperation, Gid, Mode, OFlags, Uid};
use rustix::io::Errno;

use super::lock::{FileMeta, LockedFile};
use super::open::{dir_sync_error, map_create_errno, map_errno, open_parent_with, split, sync_dir};
use crate::error::{ErrorKind, ToolError, ToolResult, os_message};
use crate::workspace::{ResolvedPath, Workspace};

/// Replaces the content of a locked file with `new_bytes` at its canonical
/// target (a symlink to it stays a symlink), atomically when it has one
/// name, keeping mode bits (setuid included), owner and hard links. After
/// a rename `locked` refers to the new inode, locked before it was visible.
///
/// Errors: `PermissionDenied` (no write bit at all, even for root, or the
/// OS refused), `Conflict` (another program replaced the file), `NotFound`,
/// `Io`; the message says when the new bytes were already in place.
pub(crate) fn replace(locked: &mut LockedFile, new_bytes: &[u8]) -> ToolResult<()> {
    replace_inner(locked, new_bytes).map_err(|failure| failure.error)
}

/// A failed replace: the error, and whether the path may now hold bytes
/// other than those it held before the call.
#[derive(Debug)]
pub(super) struct Failure {
    pub(super) error: ToolError,
    pub(super) applied: bool,
}

impl From<ToolError> for Failure {
    fn from(error: ToolError) -> Failure {
        Failure {
            error,
            applied: false,
        }
    }
}

/// Refuses a locked file [`replace`] would refuse before touching it: no
/// write bit, or the immutable attribute. A caller checks this first when
/// its own refusals (a stale tag, an unread file) would send the model to
/// do work that cannot help.
///
/// Errors: `PermissionDenied`.
pub(crate) fn check_replaceable(locked: &LockedFile) -> ToolResult<()> {
    match read_only_error(&locked.display, locked.meta.mode)
        .or_else(|| immutable_error(&locked.file, &locked.display))
    {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// [`replace`], reporting whether a failure left changed bytes behind.
pub(super) fn replace_inner(locked: &mut LockedFile, new_bytes: &[u8]) -> Result<(), Failure> {
    let meta = locked.meta;
    check_replaceable(locked)?;
    if meta.nlink > 1 {
        return in_place(locked, new_bytes);
    }
    match via_rename(locked, new_bytes)? {
        Renamed::Done => Ok(()),
        Renamed::OwnerNotPreservable | Renamed::NameBusy => in_place(locked, new_bytes),
    }
}

/// The refusal for an immutable (`chattr +i`) or append-only (`+a`) file,
/// which would otherwise fail later with a misleading message.
pub(super) fn immutable_error(file: &File, display: &str) -> Option<ToolError> {
    let flags = inode_flags(file)?;
    let (what, flag) = if flags.contains(rustix::fs::IFlags::IMMUTABLE) {
        ("immutable", "i")
    } else if flags.contains(rustix::fs::IFlags::APPEND) {
        ("append-only", "a")
    } else {
        return None;
    };
    Some(ToolError::new(
        ErrorKind::PermissionDenied,
        format!(
            "{display} is {what} (its '{flag}' attribute is set, see lsattr); nothing was written. \
             Remove the attribute (chattr -{flag}, as root) if it really should change"
        ),
    ))
}

/// The inode flags of `file` (Linux `FS_IOC_GETFLAGS`); `None` where the
/// file system or platform has none.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn inode_flags(file: &File) -> Option<rustix::fs::IFlags> {
    rustix::fs::ioctl_getflags(file).ok()
}

/// See the Linux definition.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn inode_flags(_file: &File) -> Option<rustix::fs::IFlags> {
    None
}

/// Puts [`LockedFile::original`] back in place of what this value
/// installed (a rollback), by the same route as [`replace`].
pub(super) fn restore_original(locked: &mut LockedFile) -> Result<(), Failure> {
    // `replace_inner` borrows the file mutably, so the original bytes are
    // lent out for the call and returned whatever happens.
    let original = std::mem::take(&mut locked.original);
    let result = replace_inner(locked, &original);
    locked.original = original;
    if result.is_ok() {
        locked.written = false;
    }
    result
}

/// The policy refusal for a file without any write bit: not rewritten,
/// deleted or moved, even where the OS would allow it.
pub(super) fn read_only_error(display: &str, mode: u32) -> Option<ToolError> {
    (mode & 0o222 == 0).then(|| {
        ToolError::new(
            ErrorKind::PermissionDenied,
            format!(
                "{display} is read-only (mode {mode:04o}); nothing was written. Make it writable first (for example chmod u+w) if it really should change"
            ),
        )
    })
}

/// What [`via_rename`] did.
enum Renamed {
    /// The new inode is in place.
    Done,
    /// Nothing happened: the owner could not be copied onto a new inode.
    OwnerNotPreservable,
    /// Nothing happened: the name cannot be renamed over (`EBUSY`: a bind
    /// mount or mount point), so the inode is rewritten in place.
    NameBusy,
}

fn via_rename(locked: &mut LockedFile, new_bytes: &[u8]) -> Result<Renamed, Failure> {
    let display = locked.display.clone();
    let display = display.as_str();
    let meta = locked.meta;
    let dir = locked.dir.as_fd();
    let (temp, guard, made) = write_temp(dir, new_bytes, display)?;
    if !copy_owner(&temp, &made, &meta, display)? {
        // Not permitted to give the file to its owner: rewrite in place
        // instead, which keeps the owner (the guard removes the temp).
        return Ok(Renamed::OwnerNotPreservable);
    }
    seal_temp(&temp, meta.mode, display)?;
    // After the mode: setting an ACL adjusts the group bits to its mask,
    // which the old inode's own ACL and mode already agree on.
    if let Some(warning) = super::xattrs::copy_xattrs(&locked.file, &temp, display) {
        locked.warnings.push(warning);
    }
    fault!(BeforeRename, display).map_err(|error| ToolError::io("write", display, &error))?;
    check_still_there(dir, &locked.name, &meta, display)?;
    match rustix::fs::renameat(dir, guard.name(), dir, &locked.name) {
        Ok(()) => {}
        // The guard removes the temp file.
        Err(errno) if errno == Errno::BUSY => return Ok(Renamed::NameBusy),
        Err(errno) => return Err(map_create_errno(display, errno).into()),
    }
    guard.disarm();

    // The new bytes are visible from here on.
    let applied = |error: ToolError| Failure {
        error,
        applied: true,
    };
    let new_meta = rustix::fs::fstat(&temp)
        .map(|stat| FileMeta::of(&stat))
        .unwrap_or(FileMeta {
            nlink: 1,
            size: u64::try_from(new_bytes.len()).unwrap_or(u64::MAX),
            ..made
        });
    let old = std::mem::replace(&mut locked.file, temp);
    locked.retired.push(old);
    locked.meta = new_meta;
    locked.written = new_bytes != locked.original.as_slice();
    fault!(AfterRename, display).map_err(|error| applied(dir_sync_error(display, &error)))?;
    sync_dir(locked.dir.as_fd(), display).map_err(applied)?;
    Ok(Renamed::Done)
}

/// A new temp file in `dir` (see [`create_temp`]; mode 0600 until
/// [`seal_temp`]) holding `bytes`, with its guard and its metadata as
/// created.
pub(super) fn write_temp<'d>(
    dir: BorrowedFd<'d>,
    bytes: &[u8],
    display: &str,
) -> ToolResult<(File, TempName<'d>, FileMeta)> {
    let (mut temp, guard) = create_temp(dir, 0o600, display)?;
    temp.write_all(bytes)
        .map_err(|error| ToolError::io("write", display, &error))?;
    let stat = rustix::fs::fstat(&temp).map_err(|errno| map_errno("write", display, errno))?;
    Ok((temp, guard, FileMeta::of(&stat)))
}

/// Gives `temp` (created as `made`) the owner and group in `meta` when it
/// does not have them yet. `Ok(false)` when this process may not give files
/// away (`EPERM`; nothing was changed); any other failure is an error
/// naming `display`.
pub(super) fn copy_owner(
    temp: &File,
    made: &FileMeta,
    meta: &FileMeta,
    display: &str,
) -> ToolResult<bool> {
    if made.uid == meta.uid && made.gid == meta.gid {
        return Ok(true);
    }
    let owner = rustix::fs::fchown(
        temp,
        Some(Uid::from_raw(meta.uid)),
        Some(Gid::from_raw(meta.gid)),
    );
    match owner {
        Ok(()) => Ok(true),
        Err(errno) if errno == Errno::PERM => Ok(false),
        Err(errno) => Err(map_errno("write", display, errno)),
    }
}

/// Readies a written temp file for installation: sets `mode` (after any
/// [`copy_owner`], since `fchown` may clear setuid/setgid bits), syncs it
/// and takes its exclusive hashedit lock, so it is locked from the moment
/// it gets its name.
pub(super) fn seal_temp(temp: &File, mode: u32, display: &str) -> ToolResult<()> {
    rustix::fs::fchmod(temp, Mode::from_raw_mode(mode as _))
        .map_err(|errno| map_errno("write", display, errno))?;
    temp.sync_all()
        .map_err(|error| ToolError::io("write", display, &error))?;
    rustix::fs::flock(temp, FlockOperation::NonBlockingLockExclusive)
        .map_err(|errno| map_errno("lock", display, errno))
}

/// Fails unless `name` in `dir` is still the inode described by `meta`.
pub(super) fn check_still_there(
    dir: BorrowedFd<'_>,
    name: &OsStr,
    meta: &FileMeta,
    display: &str,
) -> ToolResult<()> {
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(now) if meta.same_inode(&now) => Ok(()),
        Ok(_) => Err(ToolError::new(
            ErrorKind::Conflict,
            format!(
                "{display} was replaced by another program while it was being edited; nothing was written. Read it again and redo the edit"
            ),
        )),
        Err(errno) if errno == Errno::NOENT => Err(ToolError::new(
            ErrorKind::NotFound,
            format!(
                "{display} was deleted while it was being edited; nothing was written and it was not recreated"
            ),
        )),
        Err(errno) => Err(map_errno("write", display, errno)),
    }
}

/// Rewrites the locked inode in place, keeping every hard link, with a
/// recovery copy of the current bytes beside it until the rewrite is
/// durable.
fn in_place(locked: &mut LockedFile, new_bytes: &[u8]) -> Result<(), Failure> {
    let display = locked.display.clone();
    let display = display.as_str();
    let dir = locked.dir.as_fd();
    let file = open_for_rewrite(locked, display)?;
    // What is on disk now: the original, or (rolling back) the bytes this
    // value installed, read back under the lock.
    let installed;
    let previous: &[u8] = if locked.written {
        installed = locked
            .read_current()
            .map_err(|error| ToolError::io("read back", display, &error))?;
        &installed
    } else {
        &locked.original
    };

    let copy_guard = recovery_copy(dir, previous, display)?;

    let rewrite = |bytes: &[u8], point: Option<&str>| -> io::Result<()> {
        file.write_all_at(bytes, 0)?;
        if let Some(display) = point {
            fault!(InPlaceWritten, display)?;
        }
        file.set_len(u64::try_from(bytes.len()).unwrap_or(u64::MAX))?;
        file.sync_all()
    };
    match rewrite(new_bytes, Some(display)) {
        Ok(()) => {
            drop(copy_guard);
            // The recovery copy is gone either way; a failed directory
            // fsync here only risks it reappearing after a crash.
            let _ = sync_dir(dir, display);
            locked.written = new_bytes != locked.original.as_slice();
            if let Ok(stat) = rustix::fs::fstat(&file) {
                locked.meta = FileMeta::of(&stat);
            }
            Ok(())
        }
        Err(error) => {
            let cause = os_message(&error);
            let restored = fault!(InPlaceRestore, display).and_then(|()| rewrite(previous, None));
            match restored {
                Ok(()) => Err(ToolError::new(
                    map_kind(&error),
                    format!("cannot write {display}: {cause}; its previous content was restored"),
                )
                .into()),
                Err(undo) => {
                    let kept = lossy(copy_guard.name());
                    copy_guard.disarm();
                    Err(Failure {
                        error: ToolError::new(
                            map_kind(&error),
                            format!(
                                "cannot write {display}: {cause}; restoring its previous content also failed ({}), so it may be damaged: its previous content is saved in {kept} in the same directory",
                                os_message(&undo)
                            ),
                        ),
                        applied: true,
                    })
                }
            }
        }
    }
}

/// The locked inode opened for writing (first, so a permission error leaves
/// nothing behind), refused when the path no longer names it.
fn open_for_rewrite(locked: &LockedFile, display: &str) -> Result<File, Failure> {
    let dir = locked.dir.as_fd();
    let flags =
        OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::NOCTTY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = rustix::fs::openat(dir, &locked.name, flags, Mode::empty())
        .map_err(|errno| map_errno("write", display, errno))?;
    let stat = rustix::fs::fstat(&fd).map_err(|errno| map_errno("write", display, errno))?;
    if !locked.meta.same_inode(&stat) {
        check_still_there(dir, &locked.name, &locked.meta, display)?;
        return Err(super::open::changed(display).into());
    }
    Ok(File::from(fd))
}

/// A complete, fsynced `.bak` copy of `previous` in `dir`, named so only
/// once it is complete.
fn recovery_copy<'d>(
    dir: BorrowedFd<'d>,
    previous: &[u8],
    display: &str,
) -> Result<TempName<'d>, Failure> {
    let (mut copy, copy_guard) = create_temp(dir, 0o600, display)?;
    copy.write_all(previous)
        .and_then(|()| copy.sync_all())
        .map_err(|error| ToolError::io("save a recovery copy of", display, &error))?;
    drop(copy);
    let copy_guard = rename_to_bak(dir, copy_guard, display)?;
    sync_dir(dir, display)?;
    Ok(copy_guard)
}

fn map_kind(error: &io::Error) -> ErrorKind {
    ToolError::io("write", "", error).kind
}

fn lossy(name: &OsStr) -> String {
    name.to_string_lossy().into_owned()
}

/// Creates the missing file `path` with `bytes`, making missing parent
/// directories from the root without following symlinks. The temp file is
/// created with mode 0o666 under the umask, as `open(O_CREAT)` would, and
/// installed with a no-replace rename (a hard link where that is missing).
///
/// Errors: `Conflict` (the file exists or appeared), `PermissionDenied`,
/// `NotARegularFile` (the workspace root), mapped OS errors.
pub(crate) fn create_new(ws: &Workspace, path: &ResolvedPath, bytes: &[u8]) -> ToolResult<()> {
    let display = path.display.as_str();
    if path.exists {
        return Err(exists(display));
    }
    let (parent, name) = split(ws, path)?;
    let dir = open_parent_with(ws.root(), parent, display, true)?;
    let dir = dir.as_fd();
    let (mut temp, guard) = create_temp(dir, 0o666, display)?;
    temp.write_all(bytes)
        .and_then(|()| temp.sync_all())
        .map_err(|error| ToolError::io("write", display, &error))?;
    fault!(BeforeInstall, display).map_err(|error| ToolError::io("write", display, &error))?;
    match rename_no_replace(dir, guard.name(), dir, name) {
        Ok(NoReplace::Renamed) => guard.disarm(),
        // Installed by a hard link: dropping the guard removes the temp
        // name.
        Ok(NoReplace::Linked) => drop(guard),
        Err(errno) if errno == Errno::EXIST => return Err(exists(display)),
        Err(errno) => return Err(map_create_errno(display, errno)),
    }
    sync_dir(dir, display)
}

fn exists(display: &str) -> ToolError {
    ToolError::new(
        ErrorKind::Conflict,
        format!(
            "{display} appeared while it was being created, so it was not overwritten; read it and retry"
        ),
    )
}

/// How [`rename_no_replace`] gave `from`'s inode the new name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NoReplace {
    /// Renamed: `from` is gone.
    Renamed,
    /// Hard-linked (no `RENAME_NOREPLACE` here): `from` still exists and
    /// the caller removes it.
    Linked,
}

/// Gives the inode at `from` the name `to` unless `to` exists (`EEXIST`,
/// nothing changed): `renameat2(RENAME_NOREPLACE)`, or a hard link where
/// that is missing; neither follows a symlink.
pub(super) fn rename_no_replace(
    from_dir: BorrowedFd<'_>,
    from: &OsStr,
    to_dir: BorrowedFd<'_>,
    to: &OsStr,
) -> Result<NoReplace, Errno> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::RenameFlags;
        match rustix::fs::renameat_with(from_dir, from, to_dir, to, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(NoReplace::Renamed),
            // File systems or kernels without RENAME_NOREPLACE.
            Err(errno)
                if errno == Errno::INVAL || errno == Errno::NOSYS || errno == Errno::OPNOTSUPP => {}
            Err(errno) => return Err(errno),
        }
    }
    rustix::fs::linkat(from_dir, from, to_dir, to, AtFlags::empty())?;
    Ok(NoReplace::Linked)
}

/// Renames `from` to `to` within `dir` unless `to` exists, so that `from`
/// is gone afterwards even on the hard-link fallback of
/// [`rename_no_replace`] (if removing `from` then fails, the new link is
/// removed again and the error returned: nothing changed).
pub(super) fn rename_away(dir: BorrowedFd<'_>, from: &OsStr, to: &OsStr) -> Result<(), Errno> {
    match rename_no_replace(dir, from, dir, to)? {
        NoReplace::Renamed => Ok(()),
        NoReplace::Linked => rustix::fs::unlinkat(dir, from, AtFlags::empty()).inspect_err(|_| {
            let _ = rustix::fs::unlinkat(dir, to, AtFlags::empty());
        }),
    }
}

/// A temp file's name in a directory, removed on drop unless disarmed.
pub(super) struct TempName<'d> {
    dir: BorrowedFd<'d>,
    name: OsString,
    armed: bool,
    /// Its id among the temp files a signal removes (module `live`);
    /// `None` for `.bak` copies, which a signal must not remove.
    live: Option<u64>,
}

impl TempName<'_> {
    pub(super) fn name(&self) -> &OsStr {
        &self.name
    }

    /// Keeps the name (it was renamed into place, or must be kept).
    pub(super) fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for TempName<'_> {
    fn drop(&mut self) {
        if self.armed {
            let _ = rustix::fs::unlinkat(self.dir, &self.name, AtFlags::empty());
        }
        if let Some(id) = self.live {
            super::live::unregister(id);
        }
    }
}

/// Renames the complete temp file `temp` to a fresh `.hashedit-<random>.bak`
/// in `dir`, never replacing anything, and returns the guard of the new
/// name (removed on drop unless disarmed). On failure `temp` is removed.
fn rename_to_bak<'d>(
    dir: BorrowedFd<'d>,
    temp: TempName<'d>,
    display: &str,
) -> ToolResult<TempName<'d>> {
    const ATTEMPTS: usize = 32;
    for _ in 0..ATTEMPTS {
        let name = hidden_name("bak");
        match rename_away(dir, temp.name(), &name) {
            Ok(()) => {
                temp.disarm();
                return Ok(TempName {
                    dir,
                    name,
                    armed: true,
                    live: None,
                });
            }
            Err(errno) if errno == Errno::EXIST => {}
            Err(errno) => return Err(map_create_errno(display, errno)),
        }
    }
    Err(ToolError::new(
        ErrorKind::Io,
        format!("cannot write {display}: no free backup name in its directory; retry"),
    ))
}

/// Creates a new, empty temp file `.hashedit-<random>.tmp` in `dir` with
/// `mode` (before the umask), exclusively and without following symlinks.
pub(super) fn create_temp<'d>(
    dir: BorrowedFd<'d>,
    mode: u32,
    display: &str,
) -> ToolResult<(File, TempName<'d>)> {
    const ATTEMPTS: usize = 32;
    for _ in 0..ATTEMPTS {
        let name = hidden_name("tmp");
        let created = super::live::create_registered(dir, &name, || {
            rustix::fs::openat(
                dir,
                &name,
                OFlags::RDWR | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(mode as _),
            )
        });
        match created {
            Ok((fd, live)) => {
                let guard = TempName {
                    dir,
                    name,
                    armed: true,
                    live,
                };
                return Ok((File::from(fd), guard));
            }
            Err(Some(errno)) if errno == Errno::EXIST => {}
            Err(Some(errno)) => return Err(map_create_errno(display, errno)),
            Err(None) => {
                return Err(ToolError::new(
                    ErrorKind::Cancelled,
                    format!(
                        "cannot write {display}: hashedit is stopping (a signal); nothing was written"
                    ),
                ));
            }
        }
    }
    Err(ToolError::new(
        ErrorKind::Io,
        format!("cannot write {display}: no free temporary file name in its directory; retry"),
    ))
}

/// A fresh hidden name `.hashedit-<random>.<suffix>` (`tmp` for temp
/// files, `bak` for the backups of deleted files): a process-wide counter
/// mixed with the per-process random keys of the standard library's
/// hasher, the process id and the time.
pub(super) fn hidden_name(suffix: &str) -> OsString {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    if let Ok(elapsed) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(elapsed.as_nanos());
    }
    OsString::from(format!(".hashedit-{:016x}.{suffix}", hasher.finish()))
}

/// Whether `name` is one of hashedit's temp file names (`.hashedit-`, 16
/// lower-case hex digits, `.tmp`): never the only copy of anything, so
/// listings may leave it out. `.bak` files can be, and do not match.
pub fn is_temp_leftover(name: &std::ffi::OsStr) -> bool {
    let bytes = name.as_encoded_bytes();
    let Some(rest) = bytes.strip_prefix(b".hashedit-") else {
        return false;
    };
    let Some(digits) = rest.strip_suffix(b".tmp") else {
        return false;
    };
    digits.len() == 16
        && digits
            .iter()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
}

#[cfg(test)]
mod tests;
