//! Scoring one reply: intended, refused (actionably or not), or wrong.
//!
//! Engines differ in what they call success, so the verdict rests on bytes:
//! the file after the call against the intended result, and the file
//! before the call for refusals.
//!
//! # Outcomes
//!
//! * **applied as intended**: the engine reported success and the file now
//!   holds exactly the intended bytes.
//! * **refused, actionable** / **refused, not actionable**: the engine
//!   reported failure and the file is untouched; the error is judged by
//!   [`actionable`].
//! * **applied wrongly**: anything else: success with other bytes than
//!   intended (including "success" that changed nothing), or a failure that
//!   changed the file anyway. Split by whether the reply carried at least
//!   one warning ([`Outcome::WrongWarned`]) or none
//!   ([`Outcome::WrongSilent`]).
//!
//! # Actionable, precisely
//!
//! An error is actionable when it both **locates** the fault and **offers
//! a way out to copy**:
//!
//! * locates: it cites a line of the document (`line N` with N a line of
//!   the document as sent), or quotes a document line of at least four
//!   characters verbatim, or names the file's path;
//! * offers: either a **live snapshot** (the file's current tag, `#TAG`
//!   with the live tag in the engine's scheme, and at least one numbered
//!   row `N:text` of the live file), or a **corrected line** to copy,
//!   introduced by `try:`, `example:` or `e.g.`, that is specific to this
//!   document: the line numbers of its ops all occur in the document's
//!   ops, or it names the file, or its text comes from the document. A
//!   generic example (`PUT 3:` when the document edits line 419) does not
//!   count.
//!
//! Prose advice without a line to copy ("remove the code fence") locates
//! but does not offer, so it counts as not actionable: the model has to
//! work out the fix itself.

use std::sync::OnceLock;

use regex::Regex;

use crate::engine::Reply;

/// The verdict on one reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// Success, and the file holds the intended bytes.
    Intended,
    /// Refused, file untouched, with an actionable error.
    RefusedActionable,
    /// Refused, file untouched, with an error that is not actionable.
    RefusedOther,
    /// Applied to other bytes than intended; the reply warned.
    WrongWarned,
    /// Applied to other bytes than intended, with no warning.
    WrongSilent,
}

impl Outcome {
    /// Every outcome, in table order.
    pub const ALL: [Outcome; 5] = [
        Outcome::Intended,
        Outcome::RefusedActionable,
        Outcome::RefusedOther,
        Outcome::WrongWarned,
        Outcome::WrongSilent,
    ];

    /// Whether the file ended up other than intended.
    pub fn is_wrong(self) -> bool {
        matches!(self, Outcome::WrongWarned | Outcome::WrongSilent)
    }

    /// Short column label.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Intended => "ok",
            Outcome::RefusedActionable => "ref+",
            Outcome::RefusedOther => "ref-",
            Outcome::WrongWarned => "wrong(w)",
            Outcome::WrongSilent => "WRONG",
        }
    }
}

/// What one error offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Actionability {
    /// It cites or quotes a document line, or names the file.
    pub locates: bool,
    /// It carries a live snapshot to copy.
    pub live_snapshot: bool,
    /// It carries a corrected line to copy.
    pub corrected_line: bool,
}

impl Actionability {
    /// Locates and offers.
    pub fn is_actionable(self) -> bool {
        self.locates && (self.live_snapshot || self.corrected_line)
    }
}

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid pattern"))
}

/// Judges an error `message` about a document sent for `path`, whose file
/// now has `live_tag` (in the engine's scheme).
pub fn actionable(message: &str, document: &str, path: &str, live_tag: &str) -> Actionability {
    static LINE: OnceLock<Regex> = OnceLock::new();
    static ROW: OnceLock<Regex> = OnceLock::new();
    static TAG: OnceLock<Regex> = OnceLock::new();
    static FIX: OnceLock<Regex> = OnceLock::new();
    let doc_lines: Vec<&str> = document.lines().map(|l| l.trim_end_matches('\r')).collect();
    let cites = regex(&LINE, r"(?i)\bline (\d+)\b")
        .captures_iter(message)
        .filter_map(|c| c[1].parse::<usize>().ok())
        .any(|n| (1..=doc_lines.len()).contains(&n));
    let quotes = doc_lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| l.chars().count() >= 4)
        .any(|l| message.contains(l));
    let locates = cites || quotes || message.contains(path);
    let live_snapshot = regex(&TAG, r"#([0-9A-Fa-f]{4})\b")
        .captures_iter(message)
        .any(|c| c[1].eq_ignore_ascii_case(live_tag))
        && regex(&ROW, r"(?m)^\s*\*?\d+:").is_match(message);
    let corrected_line = regex(
        &FIX,
        r"(?im)(?:^\s*try:|\bexample:|\be\.g\.)[ \t]*\n?[ \t]*(.+)",
    )
    .captures_iter(message)
    .any(|c| specific(&c[1], document, path));
    Actionability {
        locates,
        live_snapshot,
        corrected_line,
    }
}

/// Line numbers named by ops (`PUT 3.=5:`, `CUT 7`, `PUT >2:`) in `text`.
fn op_numbers(text: &str) -> Vec<usize> {
    static OP: OnceLock<Regex> = OnceLock::new();
    let mut numbers = Vec::new();
    for c in regex(
        &OP,
        r"(?i)\b(?:PUT|CUT)\s+[<>]?\s*(\d+)(?:\s*(?:\.=|-|\.\.)\s*(\d+))?",
    )
    .captures_iter(text)
    {
        numbers.extend(
            [c.get(1), c.get(2)]
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str().parse::<usize>().ok()),
        );
    }
    numbers
}

/// Whether a suggested fix is about this document rather than a generic
/// example: the line numbers of its ops are the document's, or it names
/// the file, or its text (without a leading `+`) comes from the document.
fn specific(fix: &str, document: &str, path: &str) -> bool {
    let fix = fix.trim().trim_end_matches(')');
    let numbers = op_numbers(fix);
    if !numbers.is_empty() {
        let known = op_numbers(document);
        return numbers.iter().all(|n| known.contains(n));
    }
    let text = fix.strip_prefix('+').unwrap_or(fix).trim();
    fix.contains(path) || (text.chars().count() >= 3 && document.contains(text))
}

/// Scores a reply against the intended bytes, the bytes on disk before
/// the call, and the live tag for judging errors.
pub fn score(
    ok: bool,
    text: &str,
    warnings: usize,
    after: Option<&[u8]>,
    before: &[u8],
    intended: &[u8],
    judge: impl FnOnce(&str) -> Actionability,
) -> Outcome {
    let silent_or_warned = |warned: bool| {
        if warned {
            Outcome::WrongWarned
        } else {
            Outcome::WrongSilent
        }
    };
    if !ok {
        // A failure must leave the file as it was.
        if after != Some(before) {
            return Outcome::WrongSilent;
        }
        return if judge(text).is_actionable() {
            Outcome::RefusedActionable
        } else {
            Outcome::RefusedOther
        };
    }
    if after == Some(intended) {
        Outcome::Intended
    } else {
        silent_or_warned(warnings > 0)
    }
}

/// The verdict on an engine's `reply` to an edit sent for `path`: its
/// bytes after the call against `intended`, a refusal against `before`
/// and judged by [`actionable`] under `live_tag`.
pub fn verdict(
    reply: &Reply,
    path: &str,
    before: &[u8],
    intended: &[u8],
    live_tag: &str,
) -> Outcome {
    score(
        reply.ok,
        &reply.text,
        reply.warnings.len(),
        reply.after.as_deref(),
        before,
        intended,
        |message| actionable(message, &reply.document, path, live_tag),
    )
}

#[cfg(test)]
mod tests;
