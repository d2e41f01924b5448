//! Opening resolved paths without races, refusing special files, and
//! bounded reads (FORMAT.md §8.5).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read, Seek};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

use crate::error::{ErrorKind, Hint, ToolError, ToolResult, os_message};
use crate::workspace::{ResolvedPath, Workspace};

/// Opens `path` read-only: reached from the root's descriptor without
/// following a symlink, examined with `lstat` first so directories, FIFOs,
/// sockets and devices are refused unopened, opened `O_NONBLOCK |
/// O_NOFOLLOW | O_NOCTTY` and confirmed a regular file by `fstat`.
///
/// Errors: `NotFound`, `NotARegularFile`, `Conflict` (the path changed
/// after resolution), `PathOutsideWorkspace`, mapped OS errors.
pub(crate) fn open_regular(ws: &Workspace, path: &ResolvedPath) -> ToolResult<File> {
    let (parent, name) = split(ws, path)?;
    let dir = open_parent(ws.root(), parent, &path.display)?;
    let (file, _) = open_in_dir(dir.as_fd(), name, &path.display)?;
    Ok(file)
}

/// Reads the whole of `file` from its start, refusing one over `max_bytes`
/// (`TooLarge`, by its `fstat` size; at most `max_bytes + 1` bytes are read,
/// so a growing file cannot make the read unbounded).
pub(super) fn read_bounded(file: &mut File, display: &str, max_bytes: u64) -> ToolResult<Vec<u8>> {
    let size = file
        .metadata()
        .map_err(|error| ToolError::io("read", display, &error))?
        .len();
    if size > max_bytes {
        return Err(too_large(display, &format!("{size} bytes"), max_bytes));
    }
    file.rewind()
        .map_err(|error| ToolError::io("read", display, &error))?;
    let mut bytes = Vec::new();
    read_into(file, size, max_bytes.saturating_add(1), &mut bytes)
        .map_err(|failure| failure.error(display))?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > max_bytes {
        return Err(too_large(
            display,
            &format!("more than {max_bytes} bytes (it grew while being read)"),
            max_bytes,
        ));
    }
    Ok(bytes)
}

/// Why [`read_into`] left its buffer unfilled.
#[derive(Debug)]
pub(super) enum ReadFailure {
    /// The buffer could not grow to the file's size.
    NoMemory {
        /// The size that was asked for, in bytes.
        size: u64,
    },
    /// The read itself failed.
    Io(io::Error),
}

impl ReadFailure {
    /// The tool error for `display`.
    pub(super) fn error(self, display: &str) -> ToolError {
        match self {
            ReadFailure::NoMemory { size } => ToolError::new(
                ErrorKind::Io,
                format!("cannot read {display}: not enough memory for {size} bytes"),
            ),
            ReadFailure::Io(error) => ToolError::io("read", display, &error),
        }
    }
}

/// Reads at most `limit` bytes of `file` from its position into `buffer`
/// (cleared, capacity reused), reserving `size` bytes (its `fstat` size).
pub(super) fn read_into(
    file: &mut File,
    size: u64,
    limit: u64,
    buffer: &mut Vec<u8>,
) -> Result<(), ReadFailure> {
    buffer.clear();
    let capacity = usize::try_from(size).unwrap_or(usize::MAX);
    buffer
        .try_reserve_exact(capacity)
        .map_err(|_| ReadFailure::NoMemory { size })?;
    Read::by_ref(file)
        .take(limit)
        .read_to_end(buffer)
        .map_err(ReadFailure::Io)?;
    Ok(())
}

fn too_large(display: &str, size: &str, max_bytes: u64) -> ToolError {
    ToolError::new(
        ErrorKind::TooLarge,
        format!(
            "{display} is {size}, over the limit of {max_bytes} bytes for this operation; it cannot be loaded whole"
        ),
    )
}

/// The `NotARegularFile` error naming what the path is and what to do
/// instead, or `None` for a regular file.
pub(crate) fn not_regular_file_error(
    display: &str,
    file_type: std::fs::FileType,
) -> Option<ToolError> {
    use std::os::unix::fs::FileTypeExt;
    let kind = if file_type.is_file() {
        return None;
    } else if file_type.is_dir() {
        Special::Directory
    } else if file_type.is_fifo() {
        Special::Fifo
    } else if file_type.is_socket() {
        Special::Socket
    } else if file_type.is_char_device() {
        Special::CharDevice
    } else if file_type.is_block_device() {
        Special::BlockDevice
    } else if file_type.is_symlink() {
        Special::Symlink
    } else {
        Special::Unknown
    };
    Some(kind.error(display))
}

/// What a non-regular file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Special {
    /// A directory.
    Directory,
    /// A FIFO (named pipe).
    Fifo,
    /// A Unix domain socket.
    Socket,
    /// A character device.
    CharDevice,
    /// A block device.
    BlockDevice,
    /// A symbolic link.
    Symlink,
    /// Any other type.
    Unknown,
}

impl Special {
    /// Classifies a raw `st_mode`; `None` for a regular file.
    pub(super) fn of_mode(mode: u32) -> Option<Special> {
        Some(match FileType::from_raw_mode(mode as _) {
            FileType::RegularFile => return None,
            FileType::Directory => Special::Directory,
            FileType::Fifo => Special::Fifo,
            FileType::Socket => Special::Socket,
            FileType::CharacterDevice => Special::CharDevice,
            FileType::BlockDevice => Special::BlockDevice,
            FileType::Symlink => Special::Symlink,
            FileType::Unknown => Special::Unknown,
        })
    }

    pub(super) fn error(self, display: &str) -> ToolError {
        let what = match self {
            Special::Directory => {
                return ToolError::new(
                    ErrorKind::NotARegularFile,
                    format!("{display} is a directory"),
                )
                .with_hint(Hint::ListEntries);
            }
            Special::Fifo => "a FIFO (named pipe)",
            Special::Socket => "a socket",
            Special::CharDevice => "a character device",
            Special::BlockDevice => "a block device",
            Special::Symlink => "a symlink",
            Special::Unknown => "a special file",
        };
        ToolError::new(
            ErrorKind::NotARegularFile,
            format!(
                "{display} is {what}, not a regular file; only regular files can be read or edited"
            ),
        )
    }
}

/// Splits a resolved target into its parent (relative to the root, empty
/// for the root itself) and its final name.
pub(super) fn split<'a>(
    ws: &Workspace,
    path: &'a ResolvedPath,
) -> ToolResult<(&'a Path, &'a OsStr)> {
    let relative = path.target.strip_prefix(ws.root()).map_err(|_| {
        ToolError::new(
            ErrorKind::PathOutsideWorkspace,
            format!(
                "{} is not inside the workspace root {}; paths must stay inside the workspace root",
                path.display,
                ws.root().display()
            ),
        )
    })?;
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(ToolError::new(
            ErrorKind::InvalidArguments,
            format!(
                "{} was not resolved to a canonical path; resolve it first",
                path.display
            ),
        ));
    }
    match (relative.parent(), relative.file_name()) {
        (Some(parent), Some(name)) => Ok((parent, name)),
        _ => Err(Special::Directory.error(&path.display)),
    }
}

/// The error for a path that changed between resolution and opening.
pub(super) fn changed(display: &str) -> ToolError {
    ToolError::new(
        ErrorKind::Conflict,
        format!(
            "the path {display} changed while it was being opened (a symlink or another file took its place); retry"
        ),
    )
}

/// Maps an errno from opening or examining `display`.
pub(super) fn map_errno(action: &str, display: &str, errno: Errno) -> ToolError {
    if errno == Errno::LOOP
        || errno == Errno::XDEV
        || errno == Errno::NOTDIR
        || errno == Errno::MLINK
    {
        return changed(display);
    }
    if errno == Errno::NOENT {
        return ToolError::new(
            ErrorKind::NotFound,
            format!("{display} does not exist (it may have just been removed)"),
        )
        .with_hint(Hint::CheckPath);
    }
    ToolError::io(action, display, &io::Error::from(errno))
}

/// Opens the workspace root directory (readable, so it can be fsynced).
pub(super) fn open_root(root: &Path, display: &str) -> ToolResult<OwnedFd> {
    rustix::fs::openat(
        rustix::fs::CWD,
        root,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NOFOLLOW,
        Mode::empty(),
    )
    .map_err(|errno| {
        let kind = if errno == Errno::NOENT {
            ErrorKind::NotFound
        } else if errno == Errno::LOOP || errno == Errno::NOTDIR || errno == Errno::MLINK {
            ErrorKind::Conflict
        } else {
            ToolError::io("open", display, &io::Error::from(errno)).kind
        };
        ToolError::new(
            kind,
            format!(
                "cannot open the workspace root {} to reach {display}: {}; check that it is still a directory",
                root.display(),
                os_message(&io::Error::from(errno))
            ),
        )
    })
}

/// Opens the directory `parent` (relative to the root, canonical: plain
/// names only) without following symlinks. With `create`, missing
/// directories are made (and their parents fsynced).
pub(super) fn open_parent_with(
    root: &Path,
    parent: &Path,
    display: &str,
    create: bool,
) -> ToolResult<OwnedFd> {
    let root_fd = open_root(root, display)?;
    if parent.as_os_str().is_empty() {
        return Ok(root_fd);
    }
    if create {
        walk_dirs(root_fd, parent, display, true)
    } else {
        open_dir_below(root_fd.as_fd(), parent, display)
    }
}

/// Opens the directory `parent` (relative to `root_fd`, canonical: plain
/// names only, not empty) without following symlinks: one `openat2` where
/// the kernel has it, else the component-by-component walk.
pub(super) fn open_dir_below(
    root_fd: BorrowedFd<'_>,
    parent: &Path,
    display: &str,
) -> ToolResult<OwnedFd> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Some(result) = openat2_beneath(root_fd, parent, display) {
        return result;
    }
    let start = rustix::io::fcntl_dupfd_cloexec(root_fd, 0)
        .map_err(|errno| map_errno("open", display, errno))?;
    walk_dirs(start, parent, display, false)
}

/// [`open_parent_with`] without creating anything.
pub(super) fn open_parent(root: &Path, parent: &Path, display: &str) -> ToolResult<OwnedFd> {
    open_parent_with(root, parent, display, false)
}

/// Whether `openat2` failed with `ENOSYS` once (old kernel or a sandbox
/// that hides it); then the portable walk is used directly.
#[cfg(any(target_os = "linux", target_os = "android"))]
static OPENAT2_MISSING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Opens `parent` beneath `root_fd` with one `openat2` call, or `None` when
/// `openat2` is unavailable (the caller falls back to the walk).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn openat2_beneath(
    root_fd: BorrowedFd<'_>,
    parent: &Path,
    display: &str,
) -> Option<ToolResult<OwnedFd>> {
    use rustix::fs::ResolveFlags;
    use std::sync::atomic::Ordering;
    if OPENAT2_MISSING.load(Ordering::Relaxed) {
        return None;
    }
    let result = rustix::fs::openat2(
        root_fd,
        parent,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
        ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS,
    );
    match result {
        Ok(fd) => Some(Ok(fd)),
        Err(errno) if errno == Errno::NOSYS => {
            OPENAT2_MISSING.store(true, Ordering::Relaxed);
            None
        }
        // Seccomp filters may answer EPERM for an unknown syscall, and
        // EINVAL means the kernel lacks a flag: the walk gives the real
        // answer either way.
        Err(errno) if errno == Errno::PERM || errno == Errno::INVAL || errno == Errno::AGAIN => {
            None
        }
        Err(errno) => Some(Err(map_errno("open", display, errno))),
    }
}

/// Opens `parent` below `root_fd` one component at a time with
/// `O_NOFOLLOW | O_DIRECTORY`, so no symlink is ever followed (portable
/// fallback for `openat2`, and the creating variant).
pub(super) fn walk_dirs(
    root_fd: OwnedFd,
    parent: &Path,
    display: &str,
    create: bool,
) -> ToolResult<OwnedFd> {
    walk_dirs_recording(root_fd, parent, display, create, &mut Vec::new())
}

/// A directory made by [`walk_dirs_recording`]: its parent and its name
/// there, so that a rollback can remove it again.
#[derive(Debug)]
pub(super) struct CreatedDir {
    /// The directory that received the new one.
    pub(super) parent: OwnedFd,
    /// The new directory's name in `parent`.
    pub(super) name: std::ffi::OsString,
}

/// [`walk_dirs`], appending every directory this call made to `created`
/// (outermost first), also when it fails part-way.
pub(super) fn walk_dirs_recording(
    root_fd: OwnedFd,
    parent: &Path,
    display: &str,
    create: bool,
    created: &mut Vec<CreatedDir>,
) -> ToolResult<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut current = root_fd;
    for component in parent.components() {
        let Component::Normal(name) = component else {
            return Err(changed(display));
        };
        let (next, made) = match rustix::fs::openat(current.as_fd(), name, flags, Mode::empty()) {
            Ok(fd) => (fd, false),
            Err(errno) if errno == Errno::NOENT && create => {
                let made =
                    match rustix::fs::mkdirat(current.as_fd(), name, Mode::from_raw_mode(0o777)) {
                        Ok(()) => true,
                        Err(errno) if errno == Errno::EXIST => false,
                        Err(errno) => return Err(map_create_errno(display, errno)),
                    };
                let opened = rustix::fs::openat(current.as_fd(), name, flags, Mode::empty())
                    .map_err(|errno| map_errno("create", display, errno));
                let synced = if made {
                    sync_dir(current.as_fd(), display)
                } else {
                    Ok(())
                };
                match synced.and(opened) {
                    Ok(next) => (next, made),
                    Err(error) => {
                        if made {
                            created.push(CreatedDir {
                                parent: current,
                                name: name.to_os_string(),
                            });
                        }
                        return Err(error);
                    }
                }
            }
            Err(errno) => return Err(map_errno("open", display, errno)),
        };
        let parent = std::mem::replace(&mut current, next);
        if made {
            created.push(CreatedDir {
                parent,
                name: name.to_os_string(),
            });
        }
    }
    Ok(current)
}

/// Maps an errno from creating something for `display`.
pub(super) fn map_create_errno(display: &str, errno: Errno) -> ToolError {
    if errno == Errno::ROFS {
        return ToolError::new(
            ErrorKind::PermissionDenied,
            format!(
                "cannot write {display}: its directory does not allow creating files ({})",
                os_message(&io::Error::from(errno))
            ),
        );
    }
    if errno == Errno::ACCESS || errno == Errno::PERM {
        // A file is replaced through a new file beside it (FORMAT.md §6.4),
        // so its directory must be writable: name the next step.
        let raw = super::super::workspace::raw_path(display);
        let dir = match Path::new(raw.as_ref()).parent() {
            Some(parent) if !parent.as_os_str().is_empty() => {
                crate::workspace::display_path(&parent.to_string_lossy()).into_owned()
            }
            _ => ".".to_string(),
        };
        return ToolError::new(
            ErrorKind::PermissionDenied,
            format!(
                "cannot write {display}: its directory does not allow creating files ({}); hashedit \
                 creates or replaces a file by writing a new file beside it and renaming it into place, \
                 so the directory {dir} must be writable (chmod u+w {dir}, if that is what you want)",
                os_message(&io::Error::from(errno))
            ),
        );
    }
    map_errno("create", display, errno)
}

/// Opens the regular file `name` in `dir` read-only, refusing special files
/// from their `lstat` before opening; returns the file and its `fstat`.
pub(super) fn open_in_dir(
    dir: BorrowedFd<'_>,
    name: &OsStr,
    display: &str,
) -> ToolResult<(File, Stat)> {
    let (file, stat) = open_at(dir, name).map_err(|refused| refused.error("open", display))?;
    // O_NONBLOCK only guarded the open; reads of a regular file should
    // behave normally (no EAGAIN under leases).
    let flags =
        rustix::fs::fcntl_getfl(&file).map_err(|errno| map_errno("open", display, errno))?;
    rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK)
        .map_err(|errno| map_errno("open", display, errno))?;
    Ok((file, stat))
}

/// Why [`open_at`] opened nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refused {
    /// `lstat`, `open` or `fstat` failed with this errno.
    Os(Errno),
    /// The name holds no regular file: seen by `lstat` before opening (a
    /// symlink among them), or by `fstat` after a swap.
    NotRegular(Special),
}

impl Refused {
    /// The tool error for `display` (a symlink is a path that changed
    /// after it was resolved).
    pub(super) fn error(self, action: &str, display: &str) -> ToolError {
        match self {
            Refused::Os(errno) => map_errno(action, display, errno),
            Refused::NotRegular(Special::Symlink) => changed(display),
            Refused::NotRegular(special) => special.error(display),
        }
    }
}

/// The open behind [`open_in_dir`], without messages: `lstat`, then
/// [`open_listed`].
pub(super) fn open_at(dir: BorrowedFd<'_>, name: &OsStr) -> Result<(File, Stat), Refused> {
    let before = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).map_err(Refused::Os)?;
    if let Some(special) = Special::of_mode(before.st_mode as _) {
        return Err(Refused::NotRegular(special));
    }
    open_listed(dir, name)
}

/// Opens `name` in `dir`, just listed as a regular file: non-blocking,
/// following no symlink, then refused by `fstat` if it is not a regular
/// file any more.
pub(super) fn open_listed(dir: BorrowedFd<'_>, name: &OsStr) -> Result<(File, Stat), Refused> {
    let fd = rustix::fs::openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(Refused::Os)?;
    let stat = rustix::fs::fstat(&fd).map_err(Refused::Os)?;
    // Authoritative check on what was actually opened. A different inode
    // than the one listed is fine when it is a regular file: another
    // writer renamed a new version into place meanwhile, and the pinned
    // directory plus O_NOFOLLOW guarantee it is what the name held.
    if let Some(special) = Special::of_mode(stat.st_mode as _) {
        return Err(Refused::NotRegular(special));
    }
    Ok((File::from(fd), stat))
}

/// Whether two `stat`s describe the same inode.
pub(super) fn same_inode(a: &Stat, b: &Stat) -> bool {
    a.st_dev == b.st_dev && a.st_ino == b.st_ino
}

/// fsyncs a directory so renames and removals in it survive a crash. File
/// systems that cannot fsync directories (`EINVAL`, `EOPNOTSUPP`) are not
/// an error.
pub(super) fn sync_dir(dir: BorrowedFd<'_>, display: &str) -> ToolResult<()> {
    match rustix::fs::fsync(dir) {
        Ok(()) => Ok(()),
        Err(errno) if errno == Errno::INVAL || errno == Errno::OPNOTSUPP => Ok(()),
        Err(errno) => Err(dir_sync_error(display, &io::Error::from(errno))),
    }
}

pub(super) fn dir_sync_error(display: &str, error: &io::Error) -> ToolError {
    ToolError::new(
        ErrorKind::Io,
        format!(
            "cannot sync the directory of {display}: {}; the change is visible but might not survive a crash",
            os_message(error)
        ),
    )
}

#[cfg(test)]
mod tests;
