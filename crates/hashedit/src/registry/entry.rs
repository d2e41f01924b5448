//! One line of the registry log: the fingerprint of a snapshot served for
//! a file, whether an edit from it landed, and the file's canonical path,
//! with a checksum so that a torn or garbled line is dropped, never
//! misread.
//!
//! `TAG DIGEST CONSUMED CHECK PATH` and a line feed: the tag as 4 hex
//! digits, the digest as 32, `0` or `1`, the xxHash32 of the line without
//! its CHECK field as 8 hex digits, and the path with `\`, CR and LF
//! escaped as `\\`, `\r`, `\n` (so it may hold spaces).

use std::path::PathBuf;

use hashedit_core::{ContentDigest, Fingerprint, SnapshotTag};
use xxhash_rust::xxh32::Xxh32;

/// One remembered snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The file's canonical path.
    pub(crate) path: PathBuf,
    /// The snapshot's fingerprint.
    pub(crate) fingerprint: Fingerprint,
    /// An edit written against this snapshot has landed.
    pub(crate) consumed: bool,
}

impl Entry {
    /// An entry from [`hashedit_tools::Session::export_fingerprints`].
    pub(crate) fn from_session(
        (path, fingerprint, consumed): (PathBuf, Fingerprint, bool),
    ) -> Entry {
        Entry {
            path,
            fingerprint,
            consumed,
        }
    }

    /// The form [`hashedit_tools::Session::import_fingerprints`] takes.
    pub(crate) fn into_session(self) -> (PathBuf, Fingerprint, bool) {
        (self.path, self.fingerprint, self.consumed)
    }

    /// The entry's line, line feed included; `None` for a path that is not
    /// UTF-8 (such files are not remembered).
    pub(crate) fn encode(&self) -> Option<String> {
        let path = escape(self.path.to_str()?);
        let tag = self.fingerprint.tag.to_string();
        let digest = format!("{:032x}", self.fingerprint.digest.0);
        let consumed = if self.consumed { "1" } else { "0" };
        let check = checksum([tag.as_str(), &digest, consumed, &path]);
        Some(format!("{tag} {digest} {consumed} {check:08x} {path}\n"))
    }

    /// The entry a line (without its line feed) holds, or `None` when any
    /// field is malformed or the checksum does not match.
    pub(crate) fn decode(line: &str) -> Option<Entry> {
        let mut fields = line.splitn(5, ' ');
        let (tag, digest, consumed, check, path) = (
            fields.next()?,
            fields.next()?,
            fields.next()?,
            fields.next()?,
            fields.next()?,
        );
        if check.len() != 8
            || u32::from_str_radix(check, 16).ok()? != checksum([tag, digest, consumed, path])
        {
            return None;
        }
        let consumed = match consumed {
            "0" => false,
            "1" => true,
            _ => return None,
        };
        let digest = (digest.len() == 32)
            .then(|| u128::from_str_radix(digest, 16).ok())
            .flatten()?;
        Some(Entry {
            path: PathBuf::from(unescape(path)?),
            fingerprint: Fingerprint {
                tag: SnapshotTag::parse(tag)?,
                digest: ContentDigest(digest),
            },
            consumed,
        })
    }
}

/// The checksum of a line's other fields, joined by single spaces (hashed
/// as they stand: a registry of thousands of lines is checked on every
/// CLI edit).
fn checksum(fields: [&str; 4]) -> u32 {
    let mut hasher = Xxh32::new(0);
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            hasher.update(b" ");
        }
        hasher.update(field.as_bytes());
    }
    hasher.digest()
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
    if !text.contains('\\') {
        return Some(text.to_string());
    }
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
mod tests;
