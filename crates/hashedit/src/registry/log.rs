//! The registry file: a magic line, then [`Entry`] lines, only ever
//! appended to, and rewritten whole only to compact it.
//!
//! Writers (appends and compactions) take an exclusive lock on a sibling
//! `.lock` file, so they never interleave; the lock lives beside the log
//! rather than on it because a compaction replaces the log's inode, and a
//! writer waiting on the old inode would then append to a file no longer
//! at the path. Readers take no lock: they see the log before or after a
//! compaction's rename, and at worst part of an append still being
//! written, whose torn last line fails its checksum and is dropped.
//!
//! Nothing is fsynced: the registry is a cache, and a sync would cost a
//! CLI call milliseconds. A crash can leave a torn last line (dropped; the
//! next append starts on a fresh line), or a log that lost the magic line
//! (ignored, and rewritten by the next append).

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use hashedit_core::Fingerprint;
use hashedit_tools::Session;

use super::entry::Entry;

/// First line of a registry log.
pub(crate) const MAGIC: &str = "hashedit-registry v2";
/// A log that grows past this many bytes is compacted by the append that
/// grew it.
pub(crate) const COMPACT_AT: u64 = 512 * 1024;
/// A compacted log keeps at most this many bytes of entries, the newest.
pub(crate) const KEEP_BYTES: usize = 256 * 1024;
/// A compacted log keeps the entries of at most this many files, the
/// most recently served.
pub(crate) const KEEP_PATHS: usize = 1024;
/// A log larger than this is not read (it cannot have been written by
/// hashedit, which compacts at [`COMPACT_AT`]).
const MAX_LOG_BYTES: u64 = 4 * 1024 * 1024;

/// The entries of the log at `path`, in the order they were appended;
/// nothing when it is missing, too large or not a registry log.
pub(crate) fn read(path: &Path) -> Vec<Entry> {
    let Ok(file) = File::open(path) else {
        return Vec::new();
    };
    let mut text = String::new();
    if file
        .take(MAX_LOG_BYTES + 1)
        .read_to_string(&mut text)
        .is_err()
        || text.len() as u64 > MAX_LOG_BYTES
    {
        return Vec::new();
    }
    let mut lines = text.lines();
    if lines.next() != Some(MAGIC) {
        return Vec::new();
    }
    lines.filter_map(Entry::decode).collect()
}

/// Appends `entries` to the log at `path` (created with its directory when
/// missing), and compacts the log when it has grown past [`COMPACT_AT`].
///
/// # Errors
/// The I/O error that kept the entries from being written.
pub(crate) fn append(path: &Path, entries: &[Entry]) -> io::Result<()> {
    let text: String = entries.iter().filter_map(Entry::encode).collect();
    if text.is_empty() {
        return Ok(());
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| directory_error(dir, e))?;
    if path.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory; name a file (in it or elsewhere) instead",
        ));
    }
    let lock_path = path.with_extension("lock");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| {
            with_context(
                e,
                &format!("cannot open its lock file {}", lock_path.display()),
            )
        })?;
    lock.lock()
        .map_err(|e| with_context(e, &format!("cannot lock {}", lock_path.display())))?;
    let mut log = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| with_context(e, "cannot open it for appending"))?;
    let size = log.metadata()?.len();
    if !starts_with_magic(&log, size)? {
        // Empty, or not a log this version writes: start it afresh.
        return rewrite(path, &format!("{MAGIC}\n{text}"));
    }
    let mut chunk = String::with_capacity(text.len() + 1);
    if !ends_with_line_feed(&log, size)? {
        // A torn line from a crashed writer: end it, so it stays alone
        // (and fails its checksum) instead of spoiling this first entry.
        chunk.push('\n');
    }
    chunk.push_str(&text);
    log.write_all(chunk.as_bytes())?;
    if size + chunk.len() as u64 > COMPACT_AT {
        compact(path)?;
    }
    Ok(())
}

/// `error` with `what` was being done in front of the system's message.
fn with_context(error: io::Error, what: &str) -> io::Error {
    io::Error::new(error.kind(), format!("{what}: {error}"))
}

/// The failure to create the registry's directory `dir`, naming the
/// ancestor in the way when one exists as something else than a directory
/// (the system says only "File exists" or "Not a directory").
fn directory_error(dir: &Path, error: io::Error) -> io::Error {
    let blocker = dir
        .ancestors()
        .find(|ancestor| ancestor.exists() || ancestor.is_symlink())
        .filter(|ancestor| !ancestor.is_dir());
    match blocker {
        Some(file) if file == dir => io::Error::new(
            error.kind(),
            format!("its directory {} is a file, not a directory", dir.display()),
        ),
        Some(file) => io::Error::new(
            error.kind(),
            format!(
                "its directory {} cannot be created, because {} is a file, not a directory",
                dir.display(),
                file.display()
            ),
        ),
        None => with_context(
            error,
            &format!("cannot create its directory {}", dir.display()),
        ),
    }
}

/// Rewrites the log at `path` with what it remembers, within
/// [`KEEP_PATHS`] and [`KEEP_BYTES`]. The caller holds the lock.
fn compact(path: &Path) -> io::Result<()> {
    let session = Session::new();
    session.import_fingerprints(read(path).into_iter().map(Entry::into_session));
    let lines: Vec<String> = newest_paths(session.export_fingerprints())
        .into_iter()
        .filter_map(|entry| entry.encode())
        .collect();
    let mut kept = 0;
    let mut start = lines.len();
    while start > 0 && kept + lines[start - 1].len() <= KEEP_BYTES {
        start -= 1;
        kept += lines[start].len();
    }
    rewrite(path, &format!("{MAGIC}\n{}", lines[start..].concat()))
}

/// The entries of the [`KEEP_PATHS`] most recently served files, from
/// entries grouped by file, least recently served first (as
/// [`Session::export_fingerprints`] gives them).
fn newest_paths(exported: Vec<(PathBuf, Fingerprint, bool)>) -> Vec<Entry> {
    let mut paths: Vec<&PathBuf> = exported.iter().map(|(path, _, _)| path).collect();
    paths.dedup();
    let cutoff = paths.len().saturating_sub(KEEP_PATHS);
    let kept: HashSet<PathBuf> = paths[cutoff..].iter().map(|&path| path.clone()).collect();
    exported
        .into_iter()
        .filter(|(path, _, _)| kept.contains(path))
        .map(Entry::from_session)
        .collect()
}

/// Replaces the log at `path` with `text` through a sibling temp file
/// (a fixed name: the caller holds the lock) renamed over it.
fn rewrite(path: &Path, text: &str) -> io::Result<()> {
    let temp = path.with_extension("tmp");
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&temp)?;
    file.write_all(text.as_bytes())?;
    drop(file);
    fs::rename(&temp, path)
}

/// Whether the log of `size` bytes starts with the magic line.
fn starts_with_magic(log: &File, size: u64) -> io::Result<bool> {
    let mut head = [0u8; MAGIC.len() + 1];
    if size < head.len() as u64 {
        return Ok(false);
    }
    log.read_exact_at(&mut head, 0)?;
    Ok(head[..MAGIC.len()] == *MAGIC.as_bytes() && head[MAGIC.len()] == b'\n')
}

/// Whether the log of `size` bytes (at least the magic line) ends with a
/// line feed.
fn ends_with_line_feed(log: &File, size: u64) -> io::Result<bool> {
    let mut last = [0u8; 1];
    log.read_exact_at(&mut last, size - 1)?;
    Ok(last[0] == b'\n')
}

#[cfg(test)]
mod tests;
