//! The temp files this process is writing right now, so a signal handler
//! can remove them before the process dies (FORMAT.md §6.4).
//!
//! A `SIGINT` or `SIGTERM` during a large write used to leave its hidden
//! `.hashedit-<16 hex>.tmp` behind (100 MB and more). Every temp file
//! [`super::write`] creates is registered here, with a duplicate of its
//! directory's descriptor, until it is renamed into place or removed;
//! [`remove_unfinished_temp_files`] unlinks whatever is registered. A temp
//! file never holds the only copy of anything (`.bak` recovery copies are
//! not registered), so removing it is always safe.

use std::ffi::{OsStr, OsString};
use std::os::fd::{BorrowedFd, OwnedFd};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::AtFlags;

/// A registered temp file: its id, directory and name.
struct Live {
    id: u64,
    dir: OwnedFd,
    name: OsString,
}

static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Registers the temp file `name` in `dir`; its id, or `None` when the
/// directory descriptor cannot be duplicated (the file is then only
/// removed by its guard, as before).
pub(super) fn register(dir: BorrowedFd<'_>, name: &OsStr) -> Option<u64> {
    let dir = rustix::io::fcntl_dupfd_cloexec(dir, 0).ok()?;
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let mut live = LIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    live.push(Live {
        id,
        dir,
        name: name.to_os_string(),
    });
    Some(id)
}

/// Forgets the temp file `id` (renamed into place, or removed).
pub(super) fn unregister(id: u64) {
    let mut live = LIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    live.retain(|entry| entry.id != id);
}

/// Removes every temp file this process is writing (for a signal handler
/// that is about to end the process); returns how many names were
/// removed. A write still running goes on into an unlinked inode, so call
/// this only when the process will not continue.
pub fn remove_unfinished_temp_files() -> usize {
    let mut live = LIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    live.drain(..)
        .filter(|entry| rustix::fs::unlinkat(&entry.dir, &entry.name, AtFlags::empty()).is_ok())
        .count()
}

#[cfg(test)]
mod tests;
