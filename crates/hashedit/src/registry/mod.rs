//! The CLI's snapshot registry: the fingerprints of served snapshots, kept
//! on disk between calls (FORMAT.md §6.1).
//!
//! The MCP server remembers, in memory, the fingerprint (tag plus 128-bit
//! digest) of every snapshot it served, so a live file that matches a
//! 4-hex tag but none of the served digests is caught as stale (handed
//! case B05). Each CLI call is its own process, so the CLI keeps the same
//! record in a small file in the user's cache directory.
//!
//! The file is an append-only log (module `log`): a call appends the
//! fingerprints it served, one line each (module `entry`), and only the
//! commands that consult earlier fingerprints read the log first: `edit`
//! (its tag check) and `write` (which replaces only a file an earlier call
//! read, FORMAT.md §6.7). So a `read` costs one small append instead
//! of reading, merging and rewriting the whole file; a log that grew past
//! 512 KiB is compacted to the newest 256 KiB by the append that grew it,
//! keeping the entries of at most 1,024 files. Concurrent CLI processes
//! append under a lock; a crash loses at most the line being written.
//!
//! The file holds fingerprints only, never file contents. A registry that
//! cannot be read is ignored (the check then falls back to the tag alone,
//! as in Rho); one that cannot be written is reported on stderr by the
//! CLI, never an error of the tool call.

mod entry;
mod log;

use std::collections::HashMap;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use hashedit_tools::Session;

use entry::Entry;

/// Environment variable naming the registry file, or `off` to disable it.
pub(crate) const REGISTRY_ENV: &str = "HASHEDIT_REGISTRY";

/// A registry file location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Registry {
    path: PathBuf,
}

impl Registry {
    /// A registry stored at `path`.
    pub(crate) fn at(path: impl Into<PathBuf>) -> Registry {
        Registry { path: path.into() }
    }

    /// The registry the environment asks for: `$HASHEDIT_REGISTRY` if set
    /// (`off` or empty disables it), else
    /// `$XDG_CACHE_HOME/hashedit/snapshots.v2`, else
    /// `$HOME/.cache/hashedit/snapshots.v2`; `None` when disabled or no
    /// location is known.
    pub(crate) fn from_env() -> Option<Registry> {
        if let Some(value) = std::env::var_os(REGISTRY_ENV) {
            if value == "off" || value.is_empty() {
                return None;
            }
            return Some(Registry::at(value));
        }
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|v| !v.is_empty())
                    .map(|home| PathBuf::from(home).join(".cache"))
            })?;
        Some(Registry::at(cache.join("hashedit").join("snapshots.v2")))
    }

    /// The registry file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Replays the log into `session` and returns what the session then
    /// remembers, for [`Registry::save`] to tell new entries from known
    /// ones. A missing or unreadable log loads nothing.
    pub(crate) fn load_into(&self, session: &Session) -> Vec<Entry> {
        session.import_fingerprints(log::read(&self.path).into_iter().map(Entry::into_session));
        remembered(session)
    }

    /// Appends what `session` remembers beyond `loaded` (what
    /// [`Registry::load_into`] returned, or nothing when the log was not
    /// read).
    ///
    /// # Errors
    /// The I/O error that kept the log from being written (a directory in
    /// the way, no permission, a full disk). Nothing else depends on the
    /// registry, so callers may go on without it; the CLI says so on
    /// stderr.
    pub(crate) fn save(&self, session: &Session, loaded: &[Entry]) -> io::Result<()> {
        log::append(&self.path, &fresh(loaded, remembered(session)))
    }
}

/// The fingerprints `session` remembers, grouped by file, least recently
/// served first.
fn remembered(session: &Session) -> Vec<Entry> {
    session
        .export_fingerprints()
        .into_iter()
        .map(Entry::from_session)
        .collect()
}

/// The entries of `now` to append after a log that gave `loaded`: those of
/// every file whose snapshots (or their order or consumed marks) differ,
/// in `now`'s order, so that replaying the log gives `now` back. Both are
/// grouped by file, as [`remembered`] gives them.
fn fresh(loaded: &[Entry], now: Vec<Entry>) -> Vec<Entry> {
    let mut before: HashMap<&[u8], &[Entry]> = HashMap::with_capacity(loaded.len());
    // Groups hold one file's entries, so comparing paths byte for byte
    // (cheaper than Path's component-wise equality) finds their ends.
    let same_file = |a: &Entry, b: &Entry| key(&a.path) == key(&b.path);
    for group in loaded.chunk_by(same_file) {
        before.insert(key(&group[0].path), group);
    }
    let unchanged = |group: &[Entry]| {
        before.get(key(&group[0].path)).is_some_and(|old| {
            old.len() == group.len()
                && old
                    .iter()
                    .zip(group)
                    .all(|(a, b)| (a.fingerprint, a.consumed) == (b.fingerprint, b.consumed))
        })
    };
    now.chunk_by(same_file)
        .filter(|group| !unchanged(group))
        .flatten()
        .cloned()
        .collect()
}

/// A canonical path's bytes: equal exactly when the paths are, and
/// cheaper to hash than a [`Path`], which hashes component by component.
fn key(path: &Path) -> &[u8] {
    path.as_os_str().as_bytes()
}

#[cfg(test)]
mod tests;
