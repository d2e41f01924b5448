//! Section headers, `[path#TAG]`: the tag, and the path cleaned of quotes
//! and apply_patch noise.

use super::Parser;
use super::marker;
use crate::document::WarningKind;
use crate::problem::{ParseError, Problem, err};
use crate::tag::SnapshotTag;

impl Parser {
    pub(super) fn header(
        &mut self,
        number: usize,
        raw: &str,
        trimmed: &str,
    ) -> Result<(String, SnapshotTag), ParseError> {
        let mut inner = &trimmed[1..trimmed.len() - 1];
        // `[*** Begin Patch] [a.rs#1A2B]`: an envelope marker in brackets
        // before the header.
        if let Some((before, after)) = inner.split_once("] [")
            && marker(&format!("[{before}]")).is_some()
        {
            inner = after;
            self.warn(number, WarningKind::EnvelopeBeforeHeader);
        }
        let Some((path, tag)) = inner.rsplit_once('#') else {
            let fix = (!inner.trim().is_empty()).then(|| format!("[{}#TAG]", inner.trim()));
            return Err(err(number, raw, Problem::HeaderWithoutTag, fix));
        };
        let (path, noise) = clean_path(path.trim());
        if path.is_empty() {
            return Err(err(number, raw, Problem::HeaderEmptyPath, None));
        }
        let tag_text = tag.trim();
        let Some(tag) = SnapshotTag::parse(tag_text) else {
            return Err(err(
                number,
                raw,
                Problem::HeaderBadTag,
                Some(format!("[{path}#TAG]")),
            ));
        };
        if let Some(noise) = noise {
            self.warn(
                number,
                WarningKind::HeaderNoise {
                    path: path.clone(),
                    tag,
                    dropped: noise,
                },
            );
        }
        if tag_text.bytes().any(|b| b.is_ascii_lowercase()) && !self.once.lowercase_tag {
            self.once.lowercase_tag = true;
            self.warn(number, WarningKind::LowercaseTag(tag));
        }
        Ok((path, tag))
    }
}

/// Whether a double-quoted path must keep its quotes (see `clean_path`):
/// the text between them has a backslash escape or starts or ends with
/// whitespace.
fn kept_quoted(quoted: &str) -> bool {
    let inner = &quoted[1..quoted.len() - 1];
    inner.contains('\\')
        || inner.starts_with(char::is_whitespace)
        || inner.ends_with(char::is_whitespace)
}

/// Removes quotes and apply_patch noise (`*** Update File: `) from a path;
/// returns the clean path and a description of what was removed.
pub(super) fn clean_path(path: &str) -> (String, Option<&'static str>) {
    let mut noise = None;
    let mut p = path.trim();
    if let Some(rest) = p.strip_prefix("***") {
        let rest = rest.trim_start();
        let lower = rest.to_ascii_lowercase();
        for verb in ["update", "add", "delete", "move"] {
            if let Some(after) = lower.strip_prefix(verb) {
                let mut cut = rest.len() - after.len();
                let after_trim = after.trim_start();
                for word in ["file", "to"] {
                    if after_trim.starts_with(word) {
                        cut = rest.len() - after_trim.len() + word.len();
                        break;
                    }
                }
                let tail = rest[cut..].trim_start();
                if let Some(tail) = tail.strip_prefix(':') {
                    p = tail.trim();
                    noise = Some("the apply_patch prefix");
                }
                break;
            }
        }
    }
    for q in ['"', '\''] {
        // A double-quoted path holding a backslash, or whitespace at either
        // end inside the quotes, is the tools' quoted spelling of an unusual
        // name (`"tab\tx.txt"`, `" lead.txt"`); stripping the quotes would
        // lose it, so it is kept whole for the workspace to read back.
        if q == '"' && p.len() >= 2 && p.starts_with(q) && p.ends_with(q) && kept_quoted(p) {
            continue;
        }
        if p.len() >= 2 && p.starts_with(q) && p.ends_with(q) {
            // One layer only: `"'y'"` names the file `'y'`.
            p = &p[1..p.len() - 1];
            // The tools quote a name starting with `***` themselves, so
            // those quotes are the name's spelling, not noise.
            if !(q == '"' && p.starts_with("***")) {
                noise = noise.or(Some("the quotes"));
            }
            break;
        }
    }
    (p.to_string(), noise)
}
