//! The temp files this process is writing right now, so a signal handler
//! can remove them before the process dies (FORMAT.md §6.4). A temp file
//! is registered, with a duplicate of its directory's descriptor, until it
//! is renamed into place or removed; it never holds the only copy of
//! anything (`.bak` copies are not registered), so removing it is safe.

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

/// The registered temp files, and whether the process is closing (after
/// [`remove_unfinished_temp_files`], no temp file may be created).
struct Registry {
    live: Vec<Live>,
    closing: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    live: Vec::new(),
    closing: false,
});
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Creates the temp file `name` in `dir` with `create` and registers it,
/// both under the registry's lock, so a signal handler sees the file or
/// runs before it exists. `Err(None)`: the process is closing.
pub(super) fn create_registered<T, E>(
    dir: BorrowedFd<'_>,
    name: &OsStr,
    create: impl FnOnce() -> Result<T, E>,
) -> Result<(T, Option<u64>), Option<E>> {
    let mut registry = registry();
    if registry.closing {
        return Err(None);
    }
    let created = create().map_err(Some)?;
    let id = rustix::io::fcntl_dupfd_cloexec(dir, 0).ok().map(|dir| {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        registry.live.push(Live {
            id,
            dir,
            name: name.to_os_string(),
        });
        id
    });
    Ok((created, id))
}

/// Forgets the temp file `id` (renamed into place, or removed).
pub(super) fn unregister(id: u64) {
    registry().live.retain(|entry| entry.id != id);
}

/// Removes every temp file this process is writing, and refuses to create
/// more (for a signal handler that is about to end the process); returns
/// how many names were removed. A write still running goes on into an
/// unlinked inode, so call this only when the process will not continue.
pub fn remove_unfinished_temp_files() -> usize {
    close(&mut registry())
}

/// Marks `registry` closing and removes its temp files; how many were.
fn close(registry: &mut Registry) -> usize {
    registry.closing = true;
    registry
        .live
        .drain(..)
        .filter(|entry| rustix::fs::unlinkat(&entry.dir, &entry.name, AtFlags::empty()).is_ok())
        .count()
}

#[cfg(test)]
mod tests;
