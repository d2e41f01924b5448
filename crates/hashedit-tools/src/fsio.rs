//! Bounded, race-safe, crash-safe file I/O for the tools (product.md §3
//! items 3, 4, 8, 9; reference-rho.md §8.2).
//!
//! * [`open_regular`] opens a resolved path read-only relative to a
//!   descriptor of the workspace root, never following a symlink that
//!   appeared after resolution, never blocking on a FIFO and never opening a
//!   device, socket or directory (they are refused from their `lstat`).
//! * `read_bounded` reads at most a given number of bytes.
//! * `TreeReader` reads many files below one root in a row (grep's files,
//!   just listed by its walk) with the same confined, non-blocking open,
//!   keeping the descriptors and the buffer from file to file.
//! * [`lock_existing`] and [`lock_all`] take the per-file exclusive lock
//!   every hashedit writer (any thread, any process) holds while it re-reads
//!   and rewrites a file, and read the bytes under that lock.
//! * [`replace`] installs new bytes atomically (temp file in the same
//!   directory, fsync, rename, fsync of the directory) keeping mode, owner,
//!   symlinks and hard links; [`create_new`] creates a file without ever
//!   clobbering one that appeared concurrently.
//! * [`commit_changes`] is the all-or-nothing multi-file transaction with
//!   rollback: each locked file is kept, rewritten, deleted (`REM`) or
//!   moved to a new path (`MV DEST`); its docs describe the reversible
//!   deletion through `.hashedit-<random>.bak` backups, the policy for
//!   read-only files and symlinks, and what a crash can leave.
//!
//! Every path below the root is reached from a directory descriptor without
//! following symlinks (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`
//! on Linux, a component-by-component `O_NOFOLLOW` walk elsewhere or when
//! `openat2` is unavailable), so a symlink swapped in after
//! [`crate::workspace::Workspace::resolve`] cannot redirect a read or a write
//! outside the root; such a race is reported as [`ErrorKind::Conflict`].
//!
//! [`ErrorKind::Conflict`]: crate::error::ErrorKind::Conflict

/// A fault-injection seam: `fault!(Step, display)` is an `io::Result<()>`,
/// always `Ok(())` outside tests; in tests it is whatever the current
/// thread's hook (module `fault`) answers for step `fault::Point::Step` of
/// the file `display`. The seam compiles the same way in both builds, so
/// the code around it never differs between them.
macro_rules! fault {
    ($point:ident, $display:expr) => {{
        #[cfg(test)]
        let result = $crate::fsio::fault::inject($crate::fsio::fault::Point::$point, $display);
        #[cfg(not(test))]
        let result: ::std::io::Result<()> = {
            let _: &str = $display;
            Ok(())
        };
        result
    }};
}

#[cfg(test)]
pub(crate) mod fault;
mod live;
mod lock;
mod open;
#[cfg(test)]
mod test_support;
mod transaction;
mod tree;
mod write;
mod xattrs;

pub use live::remove_unfinished_temp_files;
pub(crate) use lock::{LockedFile, lock_all, lock_existing};
pub(crate) use open::Special;
pub(crate) use open::{not_regular_file_error, open_regular};
pub(crate) use transaction::{Change, CommitWarning, commit_changes};
pub(crate) use tree::{TreeReader, Unread};
pub use write::is_temp_leftover;
pub(crate) use write::{create_new, replace};
