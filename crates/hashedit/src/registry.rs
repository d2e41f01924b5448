//! The CLI's snapshot registry: served fingerprints kept on disk between
//! calls (product.md §3 item 5).
//!
//! The MCP server remembers, in memory, the fingerprint (tag plus 128-bit
//! digest) of every snapshot it served, so a live file that matches a 4-hex
//! tag but none of the served digests is caught as stale (handed case B05).
//! Each CLI call is its own process, so the CLI keeps the same record in a
//! small file in the user's cache directory: it loads it into a
//! [`Session`] before the call and merges the session back after it.
//!
//! The file holds fingerprints only (no file contents): at most
//! [`hashedit_tools::session::MAX_PATHS`] files × [`hashedit_tools::session::MAX_VERSIONS_PER_PATH`]
//! snapshots. Format, one entry per line after a `hashedit-registry v1`
//! line: `TAG DIGEST CONSUMED PATH`, with the tag as 4 hex digits, the
//! digest as 32 hex digits, `0`/`1`, and the canonical path with `\`, CR
//! and LF escaped as `\\`, `\r`, `\n`. Writers take an exclusive lock on a
//! sibling `.lock` file and replace the registry atomically; a registry
//! that cannot be read or written is ignored (the check then falls back to
//! the tag alone, as in Rho), never an error of the tool call.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use hashedit_core::tag::{ContentDigest, Fingerprint, SnapshotTag};

use hashedit_tools::Session;

/// First line of a registry file.
const MAGIC: &str = "hashedit-registry v1";
/// Environment variable naming the registry file, or `off` to disable it.
pub(crate) const REGISTRY_ENV: &str = "HASHEDIT_REGISTRY";
/// Largest registry file read (bytes); a bigger one is ignored.
const MAX_REGISTRY_BYTES: u64 = 4 * 1024 * 1024;
/// Files a registry keeps (the most recently used); a CLI call reads and
/// rewrites the whole file, so it stays small.
pub(crate) const MAX_REGISTRY_PATHS: usize = 1024;

/// A registry file location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DiskRegistry {
    path: PathBuf,
}

impl DiskRegistry {
    /// A registry stored at `path`.
    pub(crate) fn at(path: impl Into<PathBuf>) -> DiskRegistry {
        DiskRegistry { path: path.into() }
    }

    /// The default registry: `$HASHEDIT_REGISTRY` if set (`off` disables
    /// it), else `$XDG_CACHE_HOME/hashedit/snapshots.v1`, else
    /// `$HOME/.cache/hashedit/snapshots.v1`; `None` when disabled or no
    /// location is known.
    pub(crate) fn default_location() -> Option<DiskRegistry> {
        if let Some(value) = std::env::var_os(REGISTRY_ENV) {
            if value == "off" || value.is_empty() {
                return None;
            }
            return Some(DiskRegistry::at(value));
        }
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|v| !v.is_empty())
                    .map(|h| PathBuf::from(h).join(".cache"))
            })?;
        Some(DiskRegistry::at(
            cache.join("hashedit").join("snapshots.v1"),
        ))
    }

    /// The registry file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Loads the registry's fingerprints into `session`; a missing or
    /// unreadable file loads nothing.
    pub(crate) fn load_into(&self, session: &Session) {
        session.import_fingerprints(self.read_entries());
    }

    /// Merges `session`'s fingerprints into the registry file: re-reads it
    /// under the lock (other calls may have written meanwhile), records the
    /// session's entries after it (they are newer), and replaces it.
    ///
    /// # Errors
    /// The I/O error that kept the file from being written (a directory in
    /// the way, no permission, a full disk). Nothing else depends on the
    /// registry, so callers may go on without it (see the module docs);
    /// the CLI says so on stderr.
    pub(crate) fn save_from(&self, session: &Session) -> std::io::Result<()> {
        self.try_save(session)
    }

    fn try_save(&self, session: &Session) -> std::io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        let lock = fs::File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.path.with_extension("lock"))?;
        lock.lock()?;
        let merged = Session::new();
        merged.import_fingerprints(self.read_entries());
        merged.import_fingerprints(session.export_fingerprints());
        let mut text = format!("{MAGIC}\n");
        let entries = merged.export_fingerprints();
        // Oldest first: keep the entries of the newest files.
        let mut paths: Vec<&PathBuf> = entries.iter().map(|(p, _, _)| p).collect();
        paths.dedup();
        let cutoff = paths.len().saturating_sub(MAX_REGISTRY_PATHS);
        let kept: std::collections::HashSet<&PathBuf> = paths[cutoff..].iter().copied().collect();
        for (path, fp, consumed) in entries.iter().filter(|(p, _, _)| kept.contains(p)) {
            let Some(path) = path.to_str() else { continue };
            text.push_str(&format!(
                "{} {:032x} {} {}\n",
                fp.tag,
                fp.digest.0,
                u8::from(*consumed),
                escape(path)
            ));
        }
        // Replaced atomically but not synced: the registry is a cache, and
        // an fsync cost each CLI call milliseconds, more than the rest of a
        // read. A crash can at worst leave a file that fails the magic line
        // (ignored whole) or a torn last line (short of its fields or of
        // its 32 digest digits, so dropped): the check then falls back to
        // the tag alone for those files, as documented above.
        let mut temp = tempfile::NamedTempFile::new_in(dir)?;
        temp.write_all(text.as_bytes())?;
        temp.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }

    fn read_entries(&self) -> Vec<(PathBuf, Fingerprint, bool)> {
        let Ok(meta) = fs::metadata(&self.path) else {
            return Vec::new();
        };
        if !meta.is_file() || meta.len() > MAX_REGISTRY_BYTES {
            return Vec::new();
        }
        let Ok(text) = fs::read_to_string(&self.path) else {
            return Vec::new();
        };
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Vec::new();
        }
        lines.filter_map(parse_entry).collect()
    }
}

fn parse_entry(line: &str) -> Option<(PathBuf, Fingerprint, bool)> {
    let mut parts = line.splitn(4, ' ');
    let tag = SnapshotTag::parse(parts.next()?)?;
    let digest = parts.next().filter(|d| d.len() == 32)?;
    let digest = u128::from_str_radix(digest, 16).ok()?;
    let consumed = match parts.next()? {
        "0" => false,
        "1" => true,
        _ => return None,
    };
    let path = unescape(parts.next()?)?;
    Some((
        PathBuf::from(path),
        Fingerprint {
            tag,
            digest: ContentDigest(digest),
        },
        consumed,
    ))
}

fn escape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '\\' => out.push('\\'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashedit_core::TagScheme;
    use hashedit_core::edit::TagCheck;

    #[test]
    fn round_trips_fingerprints_and_catches_a_collision_across_calls() {
        let dir = tempfile::tempdir().unwrap();
        let registry = DiskRegistry::at(dir.path().join("reg"));
        let first = Session::new();
        let served = TagScheme::Rho.fingerprint(b"alpha\nbeta\n");
        let odd = Path::new("/w/we\\ird\nname.txt");
        first.record(Path::new("/w/f.txt"), served, Some(b"alpha\nbeta\n"));
        first.record(odd, served, None);
        first.mark_consumed(odd, served, served.tag);
        registry.save_from(&first).unwrap();
        // A later call (a new process) loads what was served.
        let second = Session::new();
        registry.load_into(&second);
        let collider = TagScheme::Rho.fingerprint(b"// build 075ab-002d6\nalpha\nbeta\n");
        assert_eq!(collider.tag, served.tag);
        assert_eq!(
            second.check(Path::new("/w/f.txt"), collider),
            TagCheck::Collision
        );
        assert_eq!(
            second.check(Path::new("/w/f.txt"), served),
            TagCheck::Confirmed
        );
        assert_eq!(second.export_fingerprints().len(), 2);
        assert!(
            second
                .export_fingerprints()
                .iter()
                .any(|(p, _, consumed)| p == odd && *consumed)
        );
        // Texts are never stored.
        assert_eq!(second.served_text(Path::new("/w/f.txt"), served.tag), None);
    }

    #[test]
    fn a_damaged_registry_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("reg");
        fs::write(&path, "not a registry\n").unwrap();
        let session = Session::new();
        DiskRegistry::at(&path).load_into(&session);
        assert_eq!(session.files_remembered(), 0);
        fs::write(
            &path,
            format!("{MAGIC}\nZZZZ 00 0 /x\n1A2B {:032x} 1 /y\n", 7),
        )
        .unwrap();
        DiskRegistry::at(&path).load_into(&session);
        assert_eq!(session.files_remembered(), 1);
        // A torn last line (a digest cut short) is dropped, not misread.
        let fresh = Session::new();
        fs::write(&path, format!("{MAGIC}\n1A2B {:032x} 1 /y\n1A2B 0000ab", 7)).unwrap();
        DiskRegistry::at(&path).load_into(&fresh);
        assert_eq!(fresh.files_remembered(), 1);
    }
}
