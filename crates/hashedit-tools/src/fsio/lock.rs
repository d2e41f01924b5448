//! Per-file exclusive locks for writers (FORMAT.md §6.4): an advisory
//! `flock(LOCK_EX)` on the inode, which every hashedit writer (any thread,
//! any process) takes before re-reading and rewriting a file, so two edits
//! planned on one snapshot are serialised. A replace renames a new inode
//! over the path, locked before it becomes visible, so a locker checks
//! after acquiring that the path still names its inode, else starts over.

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rustix::fs::{AtFlags, FlockOperation, Stat};
use rustix::io::Errno;

use super::open::{map_errno, open_in_dir, open_parent, read_bounded, same_inode, split};
use crate::error::{ErrorKind, Hint, ToolError, ToolResult, os_message};
use crate::workspace::{ResolvedPath, Workspace};

/// How long a locker waits for another writer before giving up with
/// [`ErrorKind::LockTimeout`], as Rho's.
pub(super) const LOCK_WAIT: Duration = Duration::from_millis(1000);

/// First pause between lock attempts; it doubles after each attempt.
pub(super) const LOCK_BACKOFF_START: Duration = Duration::from_millis(2);

/// Longest pause between lock attempts.
pub(super) const LOCK_BACKOFF_MAX: Duration = Duration::from_millis(50);

/// How many times a locker may start over because the path was replaced
/// while it waited; [`LOCK_WAIT`] is the real bound.
const MAX_REOPENS: usize = 10_000;

/// Metadata of a locked file, from `fstat` of the locked descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FileMeta {
    /// Permission bits including setuid, setgid and sticky (`st_mode &
    /// 0o7777`).
    pub mode: u32,
    /// Owner user id.
    pub uid: u32,
    /// Owner group id.
    pub gid: u32,
    /// Device of the file system holding the inode.
    pub dev: u64,
    /// Inode number.
    pub ino: u64,
    /// Number of hard links (names) of the inode.
    pub nlink: u64,
    /// Size in bytes at the time of the `fstat`.
    pub size: u64,
}

impl FileMeta {
    /// Converts a raw `stat`. The casts only widen (or keep) platform
    /// integer types.
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    pub(super) fn of(stat: &Stat) -> FileMeta {
        FileMeta {
            mode: (stat.st_mode as u32) & 0o7777,
            uid: stat.st_uid as u32,
            gid: stat.st_gid as u32,
            dev: stat.st_dev as u64,
            ino: stat.st_ino as u64,
            nlink: stat.st_nlink as u64,
            size: u64::try_from(stat.st_size).unwrap_or(0),
        }
    }

    /// Whether `stat` describes the same inode.
    pub(super) fn same_inode(&self, stat: &Stat) -> bool {
        let other = FileMeta::of(stat);
        self.dev == other.dev && self.ino == other.ino
    }
}

/// A regular file held under hashedit's writer lock, with the bytes read
/// under it; the lock is released on drop. After [`super::replace`] it
/// refers to the new inode and keeps the replaced one's descriptor, still
/// locked, until drop.
pub(crate) struct LockedFile {
    /// Workspace-relative display path (as in [`ResolvedPath::display`]).
    pub display: String,
    /// Canonical absolute path of the file.
    pub target: PathBuf,
    /// The file's bytes as read under the lock, before this value wrote
    /// anything; [`super::commit_changes`] restores them on rollback.
    pub original: Vec<u8>,
    /// Descriptor of the current inode, holding the lock.
    pub(super) file: File,
    /// Metadata of `file`.
    pub(super) meta: FileMeta,
    /// The containing directory (reached without following symlinks); all
    /// later operations are relative to it.
    pub(super) dir: OwnedFd,
    /// The file's name in `dir`.
    pub(super) name: OsString,
    /// Descriptors of inodes this value replaced, kept locked until drop.
    pub(super) retired: Vec<File>,
    /// Whether this value installed bytes that differ from `original` (not
    /// kept: a rollback's in-place rewrite reads them back from `file`).
    pub(super) written: bool,
    /// Warnings of the writes so far (an extended attribute that could not
    /// be carried over); see [`LockedFile::take_warnings`].
    pub(super) warnings: Vec<super::CommitWarning>,
}

impl LockedFile {
    /// The warnings the writes through this value left (each displays as
    /// one `warning:` line), emptied.
    pub(crate) fn take_warnings(&mut self) -> Vec<super::CommitWarning> {
        std::mem::take(&mut self.warnings)
    }

    /// The bytes of the locked inode as they are now, read back through the
    /// locked descriptor.
    pub(super) fn read_current(&self) -> io::Result<Vec<u8>> {
        if !self.written {
            return Ok(self.original.clone());
        }
        let mut bytes = Vec::with_capacity(usize::try_from(self.meta.size).unwrap_or(0));
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            let offset = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
            match self.file.read_at(&mut chunk, offset) {
                Ok(0) => return Ok(bytes),
                Ok(n) => bytes.extend_from_slice(&chunk[..n]),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }
}

impl fmt::Debug for LockedFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LockedFile")
            .field("display", &self.display)
            .field("target", &self.target)
            .field("original_len", &self.original.len())
            .field("meta", &self.meta)
            .finish_non_exhaustive()
    }
}

/// Locks the existing regular file `path` for writing and reads at most
/// `max_bytes` of it under the lock, retrying with a backoff from
/// [`LOCK_BACKOFF_START`] to [`LOCK_BACKOFF_MAX`] for [`LOCK_WAIT`] in all.
///
/// Errors: `LockTimeout`, `NotFound` (missing, or deleted while waiting),
/// `TooLarge`, `Conflict` (the path kept changing), and those of
/// [`super::open_regular`].
pub(crate) fn lock_existing(
    ws: &Workspace,
    path: &ResolvedPath,
    max_bytes: u64,
) -> ToolResult<LockedFile> {
    lock_one(ws, path, max_bytes, &[])
}

/// Locks several files for one edit, in the order of their canonical
/// targets (so two edits cannot deadlock), and returns them in the order of
/// `paths`; on an error every lock taken is released.
///
/// Errors: `DuplicatePath` (two paths name one file or inode), and those of
/// [`lock_existing`].
pub(crate) fn lock_all(
    ws: &Workspace,
    paths: &[ResolvedPath],
    max_bytes: u64,
) -> ToolResult<Vec<LockedFile>> {
    let mut order: Vec<usize> = (0..paths.len()).collect();
    order.sort_by(|&a, &b| paths[a].target.cmp(&paths[b].target));
    for pair in order.windows(2) {
        if let [a, b] = *pair
            && paths[a].target == paths[b].target
        {
            return Err(duplicate(
                &paths[a.min(b)].display,
                &paths[a.max(b)].display,
            ));
        }
    }
    let mut slots: Vec<Option<LockedFile>> = paths.iter().map(|_| None).collect();
    let mut held: Vec<(FileMeta, String)> = Vec::with_capacity(paths.len());
    for &index in &order {
        let locked = lock_one(ws, &paths[index], max_bytes, &held)?;
        held.push((locked.meta, locked.display.clone()));
        if let Some(slot) = slots.get_mut(index) {
            *slot = Some(locked);
        }
    }
    let locked: Vec<LockedFile> = slots.into_iter().flatten().collect();
    if locked.len() != paths.len() {
        return Err(ToolError::new(
            ErrorKind::Io,
            "internal error: a lock went missing while locking several files; nothing was written",
        ));
    }
    Ok(locked)
}

fn duplicate(first: &str, second: &str) -> ToolError {
    ToolError::new(
        ErrorKind::DuplicatePath,
        format!("{first} and {second} are the same file; edit it through one path only"),
    )
}

/// Locks one file; `held` lists files this call already holds (their
/// inodes must not be locked again).
fn lock_one(
    ws: &Workspace,
    path: &ResolvedPath,
    max_bytes: u64,
    held: &[(FileMeta, String)],
) -> ToolResult<LockedFile> {
    let display = path.display.as_str();
    if !path.exists {
        return Err(
            ToolError::new(ErrorKind::NotFound, format!("{display} does not exist"))
                .with_hint(Hint::CheckPath),
        );
    }
    let (parent, name) = split(ws, path)?;
    let dir = open_parent(ws.root(), parent, display)?;
    let deadline = Instant::now() + LOCK_WAIT;
    for _ in 0..MAX_REOPENS {
        let (mut file, opened) = open_in_dir(dir.as_fd(), name, display)?;
        if let Some((_, other)) = held.iter().find(|(meta, _)| meta.same_inode(&opened)) {
            return Err(duplicate(other, display));
        }
        acquire(&file, display, deadline)?;
        match rustix::fs::statat(dir.as_fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(now) if same_inode(&now, &opened) => {}
            // Replaced by a rename while we waited: lock the new inode.
            Ok(_) if Instant::now() < deadline => continue,
            Ok(_) => return Err(timed_out(display)),
            Err(errno) if errno == Errno::NOENT => {
                return Err(ToolError::new(
                    ErrorKind::NotFound,
                    format!(
                        "{display} was deleted while waiting for its lock; nothing was written and it was not recreated"
                    ),
                ));
            }
            Err(errno) => return Err(map_errno("lock", display, errno)),
        }
        let stat = rustix::fs::fstat(&file).map_err(|errno| map_errno("lock", display, errno))?;
        let original = read_bounded(&mut file, display, max_bytes)?;
        return Ok(LockedFile {
            display: path.display.clone(),
            target: path.target.clone(),
            original,
            file,
            meta: FileMeta::of(&stat),
            dir,
            name: name.to_os_string(),
            retired: Vec::new(),
            written: false,
            warnings: Vec::new(),
        });
    }
    Err(ToolError::new(
        ErrorKind::Conflict,
        format!(
            "{display} kept being replaced by other writers while waiting for its lock; retry shortly"
        ),
    ))
}

fn timed_out(display: &str) -> ToolError {
    ToolError::new(
        ErrorKind::LockTimeout,
        format!(
            "another writer has held {display} for over {} ms; retry shortly",
            LOCK_WAIT.as_millis()
        ),
    )
}

/// Takes the exclusive lock on `file`, retrying with backoff until
/// `deadline`.
fn acquire(file: &File, display: &str, deadline: Instant) -> ToolResult<()> {
    let mut pause = LOCK_BACKOFF_START;
    loop {
        match rustix::fs::flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(()),
            Err(errno)
                if errno == Errno::WOULDBLOCK || errno == Errno::AGAIN || errno == Errno::INTR => {}
            Err(errno) => {
                return Err(ToolError::new(
                    ErrorKind::Io,
                    format!(
                        "cannot lock {display}: {}; the file system may not support locks",
                        os_message(&std::io::Error::from(errno))
                    ),
                ));
            }
        }
        let _ = fault!(LockBusy, display);
        let now = Instant::now();
        if now >= deadline {
            return Err(timed_out(display));
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(LOCK_BACKOFF_MAX);
    }
}

#[cfg(test)]
mod tests;
