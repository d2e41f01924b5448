//! Path names equal under Unicode normalisation (FORMAT.md §8.5).
//!
//! macOS and some tools store `café` decomposed (NFD: `e` + U+0301), while
//! a model types it composed (NFC: U+00E9). Byte-wise the two are different
//! names, so `read café.md` said "does not exist" and `write café.md`
//! created a second file that looks identical (opencode #31786). A name
//! that does not exist as written is resolved to the one entry of its
//! directory that is equal to it under NFC, when there is exactly one; the
//! reply says so in a note. Two or more such entries are left alone (which
//! one was meant is unknown).

use std::ffi::{OsStr, OsString};
use std::path::Path;

use unicode_normalization::UnicodeNormalization;

/// The one entry of `dir` whose name equals `name` under NFC (and is not
/// `name` itself), or `None`: `name` is ASCII or not UTF-8, `dir` cannot
/// be read, or no entry or several match.
pub(super) fn twin(dir: &Path, name: &OsStr) -> Option<OsString> {
    let written = name.to_str()?;
    if written.is_ascii() {
        return None;
    }
    let wanted: String = written.nfc().collect();
    let mut found = None;
    for entry in std::fs::read_dir(dir).ok()? {
        let candidate = entry.ok()?.file_name();
        let Some(text) = candidate.to_str() else {
            continue;
        };
        if text != written && text.nfc().eq(wanted.chars()) {
            if found.is_some() {
                return None;
            }
            found = Some(candidate);
        }
    }
    found
}

/// The reply's note for the names resolved by [`twin`], as (written, on
/// disk) pairs; `None` when there are none.
pub(super) fn twins_note(twins: &[(String, String)]) -> Option<String> {
    if twins.is_empty() {
        return None;
    }
    let pairs: Vec<String> = twins
        .iter()
        .map(|(written, stored)| {
            format!(
                "'{written}' ({}) is stored as '{stored}' ({})",
                form(written),
                form(stored)
            )
        })
        .collect();
    Some(format!(
        "note: {}; the same name under Unicode normalisation, so that existing entry was used (no \
         second, look-alike name was created)",
        pairs.join(", ")
    ))
}

/// `NFC`, `NFD` or `mixed`: how `name` is composed.
fn form(name: &str) -> &'static str {
    if unicode_normalization::is_nfc(name) {
        "NFC"
    } else if unicode_normalization::is_nfd(name) {
        "NFD"
    } else {
        "mixed"
    }
}

#[cfg(test)]
mod tests;
