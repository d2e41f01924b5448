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
//! * offers: either a **live snapshot** (the file's current `[path#TAG]`
//!   header, with the live tag in the engine's scheme, followed by at least
//!   one numbered row `N:text`), or a **corrected line** to copy: a line
//!   starting `try:`, or an inline `example:`/`e.g.` naming an op
//!   (`PUT`/`CUT`) or a `+` row.
//!
//! Prose advice without a line to copy ("remove the code fence") locates
//! but does not offer, so it counts as not actionable: the model has to
//! work out the fix itself.

use std::sync::OnceLock;

use regex::Regex;

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
    static TRY: OnceLock<Regex> = OnceLock::new();
    static EXAMPLE: OnceLock<Regex> = OnceLock::new();
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
    let header = format!("#{}]", live_tag.to_ascii_uppercase());
    let live_snapshot = message.to_ascii_uppercase().contains(&header)
        && regex(&ROW, r"(?m)^\s*\d+:").is_match(message);
    let corrected_line = regex(&TRY, r"(?m)^\s*try: \S").is_match(message)
        || regex(
            &EXAMPLE,
            r"(?i)(example:|e\.g\.)\s*[`'\x22(]?\s*(PUT|CUT|\+)",
        )
        .is_match(message);
    Actionability {
        locates,
        live_snapshot,
        corrected_line,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "[a.rs#ABCD]\nPUT 2:\n-old\n+new\n";

    #[test]
    fn a_try_line_with_a_document_line_is_actionable() {
        let msg = "edit document line 3: diff rows…\n  3 | -old\ntry: +old";
        assert!(actionable(msg, DOC, "a.rs", "1234").is_actionable());
    }

    #[test]
    fn a_live_snapshot_is_actionable() {
        let msg = "a.rs: snapshot tag ABCD is stale\n[a.rs#1234]\n1:fn x() {}\n2:new";
        let a = actionable(msg, DOC, "a.rs", "1234");
        assert!(a.live_snapshot && a.is_actionable());
        // The stale tag is not the live one.
        assert!(!actionable(msg, DOC, "a.rs", "ABCD").live_snapshot);
    }

    #[test]
    fn prose_alone_is_not_actionable() {
        let msg = "edit document line 1: remove the code fence";
        let a = actionable(msg, DOC, "a.rs", "1234");
        assert!(a.locates && !a.is_actionable());
        let msg = "unrecognized line";
        assert!(!actionable(msg, DOC, "b.rs", "1234").locates);
        let msg = "range looks truncated (example: PUT 3:)";
        assert!(actionable(msg, DOC, "a.rs", "1234").corrected_line);
    }

    #[test]
    fn outcomes_rest_on_bytes() {
        let yes = |_: &str| Actionability {
            locates: true,
            live_snapshot: true,
            corrected_line: false,
        };
        let no = |_: &str| Actionability::default();
        assert_eq!(
            score(true, "", 0, Some(b"x"), b"o", b"x", no),
            Outcome::Intended
        );
        assert_eq!(
            score(true, "", 1, Some(b"y"), b"o", b"x", no),
            Outcome::WrongWarned
        );
        assert_eq!(
            score(true, "", 0, Some(b"o"), b"o", b"x", no),
            Outcome::WrongSilent
        );
        assert_eq!(
            score(false, "", 0, Some(b"o"), b"o", b"x", yes),
            Outcome::RefusedActionable
        );
        assert_eq!(
            score(false, "", 0, Some(b"o"), b"o", b"x", no),
            Outcome::RefusedOther
        );
        assert_eq!(
            score(false, "", 0, Some(b"y"), b"o", b"x", yes),
            Outcome::WrongSilent
        );
    }
}
