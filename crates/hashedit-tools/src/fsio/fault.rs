//! Test-only fault injection: makes a chosen step of a write fail so that
//! rollback and clean-up paths can be tested without relying on
//! permissions (tests run as root).

use std::cell::RefCell;
use std::io;

/// The steps at which a failure can be injected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Point {
    /// [`super::replace`], single link: the temp file is complete,
    /// before the rename.
    BeforeRename,
    /// [`super::replace`], single link: after the rename, in place of
    /// the directory fsync (the new bytes are already visible).
    AfterRename,
    /// [`super::replace`], hard-linked: after the new bytes were written
    /// over the start of the file, before it is truncated and synced.
    InPlaceWritten,
    /// [`super::replace`], hard-linked: while restoring the original
    /// bytes after an in-place failure.
    InPlaceRestore,
    /// [`super::create_new`], and a move's destination in
    /// [`super::commit_changes`]: the temp file is complete, before it
    /// is installed (display: the new file's path).
    BeforeInstall,
    /// [`super::commit_changes`], move: the destination is installed
    /// and its directory synced, before the source is backed up
    /// (display: the source).
    MoveInstalled,
    /// [`super::commit_changes`], delete or move: before the source is
    /// renamed to its backup name (display: the source).
    BeforeBackup,
    /// [`super::commit_changes`], delete or move: after the rename to
    /// the backup name, in place of the directory fsync (the file is
    /// already gone from its path; display: the source).
    AfterBackup,
    /// [`super::commit_changes`], rollback: before a backup is renamed
    /// back to the file's name (display: the source).
    RestoreBackup,
    /// [`super::commit_changes`], rollback: before a move's new file
    /// is removed (display: the destination).
    RemoveDest,
    /// [`super::commit_changes`], after success: before a backup is
    /// unlinked (display: the source).
    DiscardBackup,
    /// Copying one extended attribute onto a temp file (display: the
    /// attribute's name).
    SetXattr,
    /// A lock attempt found another writer holding the lock, before the
    /// pause (display: the file). Only observed: an error the hook returns
    /// is ignored, so a test can learn that a locker is waiting.
    LockBusy,
}

type Hook = Box<dyn FnMut(Point, &str) -> Option<io::Error>>;

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
}

/// Installs `hook` for the current thread: it sees each step and the
/// file's display path, and returns an error to make that step fail.
pub(crate) fn set(hook: impl FnMut(Point, &str) -> Option<io::Error> + 'static) {
    HOOK.with(|slot| *slot.borrow_mut() = Some(Box::new(hook)));
}

/// Removes the current thread's hook.
pub(crate) fn clear() {
    HOOK.with(|slot| *slot.borrow_mut() = None);
}

/// Consults the hook (used by [`inject`]).
pub(crate) fn check(point: Point, display: &str) -> Option<io::Error> {
    HOOK.with(|slot| {
        slot.borrow_mut()
            .as_mut()
            .and_then(|hook| hook(point, display))
    })
}

/// An error to inject.
pub(crate) fn injected() -> io::Error {
    io::Error::other("injected failure")
}

/// Fails with the injected error when the hook asks for it at `point`.
pub(crate) fn inject(point: Point, display: &str) -> io::Result<()> {
    match check(point, display) {
        Some(error) => Err(error),
        None => Ok(()),
    }
}
