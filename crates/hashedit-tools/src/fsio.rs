//! Bounded, race-safe, crash-safe file I/O for the tools (FORMAT.md §6.4):
//! [`open_regular`] and the bounded reads, the per-file writer locks
//! ([`lock_existing`], [`lock_all`]), atomic [`replace`] and [`create_new`],
//! and the all-or-nothing multi-file [`commit_changes`] with rollback.
//! Every path below the root is reached from a directory descriptor without
//! following symlinks (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`
//! on Linux, an `O_NOFOLLOW` walk elsewhere), so a symlink swapped in after
//! resolution cannot redirect I/O outside the root; such a race is a
//! `Conflict`.

/// A fault-injection seam: `fault!(Step, display)` is an `io::Result<()>`,
/// `Ok(())` outside tests, in tests what the thread's hook (module `fault`)
/// answers for that step of that file; the code around it is the same in
/// both builds.
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
pub(crate) use write::{check_replaceable, create_new, replace};
