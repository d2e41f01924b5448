//! Path names equal under Unicode normalisation (FORMAT.md §8.5): a name
//! that does not exist as written resolves to the one entry beside it equal
//! under NFC (`café` typed composed, stored decomposed), with a note; when
//! there are several, none is chosen.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use unicode_normalization::UnicodeNormalization;

/// The one entry of `dir` whose name equals `name` under NFC (and is not
/// `name` itself), or `None`: `name` is ASCII or not UTF-8, `dir` cannot
/// be read, or no entry or several match.
pub(super) fn twin(dir: &Path, name: &OsStr) -> Option<OsString> {
    let mut all = twins(dir, name);
    if all.len() == 1 { all.pop() } else { None }
}

/// Every entry of `dir` whose name equals `name` under NFC and is not
/// `name` itself (empty for an ASCII or non-UTF-8 `name`, or an
/// unreadable `dir`).
pub(super) fn twins(dir: &Path, name: &OsStr) -> Vec<OsString> {
    let Some(written) = name.to_str().filter(|w| !w.is_ascii()) else {
        return Vec::new();
    };
    let wanted: String = written.nfc().collect();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok().map(|e| e.file_name()))
        .filter(|candidate| {
            candidate
                .to_str()
                .is_some_and(|text| text != written && text.nfc().eq(wanted.chars()))
        })
        .collect()
}

/// The reply's note for the names resolved by [`twin`], as (written, on
/// disk) pairs; `None` when there are none. Only a path that may be
/// created (`write`) says that no look-alike was: a read creates nothing.
pub(super) fn twins_note(twins: &[(String, String)], mode: super::Resolve) -> Option<String> {
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
    let created = match mode {
        super::Resolve::MayCreate => " (no second, look-alike name was created)",
        super::Resolve::Existing => "",
    };
    Some(format!(
        "note: {}; the same name under Unicode normalisation, so that existing entry was \
         used{created}",
        pairs.join(", ")
    ))
}

/// The refusal to create `written` beside two or more of its Unicode twins.
pub(super) fn look_alike_error(written: &str, twins: &[OsString]) -> crate::error::ToolError {
    let names: Vec<String> = twins
        .iter()
        .map(|t| format!("'{}' ({})", t.to_string_lossy(), form(&t.to_string_lossy())))
        .collect();
    crate::error::ToolError::new(
        crate::error::ErrorKind::InvalidArguments,
        format!(
            "{written} does not exist, and creating it would add a look-alike of {}, the same name under \
             Unicode normalisation; nothing was written. Name one of them by its stored spelling",
            names.join(" and ")
        ),
    )
    .with_hint(crate::error::Hint::ListParent)
}

/// `NFC`, `NFD` or `mixed`: how `name` is composed.
pub(crate) fn form(name: &str) -> &'static str {
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
