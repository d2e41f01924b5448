//! Which guard spoke: a short label for each refusal and warning.
//!
//! To count, per guard, the wrong writes it prevented and the valid edits
//! it stopped or warned about, every reply is reduced to its signals: the
//! refusal (at most one) and each warning line. An engine that reports a
//! kind (hashedit's tool error kind, a structured warning's `kind`) gives
//! it; the rest is read from the message: known phrasings get a name
//! (`echo`, `shift`, `syntax`, …), any other message its first words with
//! numbers and quoted text blanked, so a new guard shows up under its own
//! words without a change here.

use std::sync::OnceLock;

use regex::Regex;

/// One refusal or warning of one reply.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signal {
    /// A refusal (nothing written) rather than a warning.
    pub refusal: bool,
    /// The guard's label, e.g. `echo` or `parse_error: code-fence`.
    pub label: String,
}

impl Signal {
    /// A warning labelled from its message.
    pub fn warning(message: &str) -> Signal {
        Signal {
            refusal: false,
            label: warning_label(message),
        }
    }

    /// A warning with a kind given by the engine.
    pub fn warning_of_kind(kind: &str) -> Signal {
        Signal {
            refusal: false,
            label: kind.to_string(),
        }
    }

    /// A refusal of `kind` (if the engine names one) with `message`.
    pub fn refusal(kind: Option<&str>, message: &str) -> Signal {
        Signal {
            refusal: true,
            label: refusal_label(kind, message),
        }
    }

    /// The signals of a refusal of `kind` with `message`: one per finding
    /// its first line lists (`… . Also, …`), each labelled by the guard
    /// that found it ([`GUARD_LABELS`]) when the engine gave a kind, so a
    /// refusal counts for every guard that spoke while its kind names only
    /// the first. A finding no guard names keeps the kind's label (the
    /// first) or `also: …` (the others).
    pub fn refusals(kind: Option<&str>, message: &str) -> Vec<Signal> {
        let first = message.lines().next().unwrap_or_default();
        let mut signals: Vec<Signal> = Vec::new();
        for (i, finding) in first.split(FINDINGS_SEPARATOR).enumerate() {
            let guard = kind.and_then(|_| named(finding)).and_then(|name| {
                GUARD_LABELS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, label)| label.to_string())
            });
            let label = match guard {
                Some(label) => label,
                None if i == 0 => refusal_label(kind, message),
                None => format!("also: {}", warning_label(finding)),
            };
            let signal = Signal {
                refusal: true,
                label,
            };
            if !signals.contains(&signal) {
                signals.push(signal);
            }
        }
        signals
    }

    /// `refused: label` or `warned: label`.
    pub fn describe(&self) -> String {
        let how = if self.refusal { "refused" } else { "warned" };
        format!("{how}: {}", self.label)
    }
}

/// How a refusal joins its findings on its first line.
const FINDINGS_SEPARATOR: &str = ". Also, ";

/// hashedit's guards by the finding they report: (name of the phrasing,
/// label, in the tool error kinds' words).
const GUARD_LABELS: &[(&str, &str)] = &[
    ("echo", "echoed_rows"),
    ("shift", "shifted_range: shift"),
    ("range-too-long", "shifted_range: range-too-long"),
    ("elision", "elided_lines"),
    ("syntax", "broken_syntax"),
    ("indentation", "indentation_mismatch"),
    ("unchanged", "no_change"),
];

/// Known phrasings, first match wins: (pattern, label).
const NAMED: &[(&str, &str)] = &[
    (r"placeholder|elided|elision", "elision"),
    (r"body rows? repeats? lines? \d", "echo"),
    (r"edited copy of line", "shift"),
    (r"nothing replaces line|one line too long", "range-too-long"),
    (r"syntax error", "syntax"),
    (r"leaves the file exactly as it was", "unchanged"),
    (r"the - rows restate", "repaired-minus-rows"),
    (
        r"every row started with its number",
        "repaired-numbered-rows",
    ),
    (
        r"without the markdown code fence around it",
        "repaired-code-fence",
    ),
    (
        r"indents with (?:tabs|spaces), but the lines around it",
        "indentation",
    ),
    (r"repeats document line \d+ exactly", "duplicate-op"),
    (r"the file changed since snapshot", "rebased"),
    (r"spells an op", "op-like-row"),
    (r"read the tag as", "lowercase-tag"),
    (r"attribute or decorator", "attribute-left-behind"),
    (
        r"closes a block, so the rows go right after it",
        "after-closer",
    ),
    (r"final newline", "final-newline"),
    (r"code fence", "code-fence"),
    (r"diff '-' rows|'-' rows", "minus-rows"),
    (
        r"starts with its line number|looks copied from a read",
        "numbered-rows",
    ),
    (r"this row has none|no leading '\+'", "missing-plus"),
    (r"without '\+': a body holds every line", "ellipsis-row"),
    (r"snapshot tag \S+ is stale|tag mismatch", "stale-tag"),
];

/// Tool error kinds precise enough on their own (`shifted_range` is not:
/// its message tells a shifted range from one a line too long).
const PRECISE_KINDS: &[&str] = &[
    "stale_tag",
    "line_out_of_range",
    "overlapping_ops",
    "indentation_mismatch",
    "echoed_rows",
    "elided_lines",
    "broken_syntax",
    "no_change",
    "unresolved_block",
    "register_error",
    "not_utf8",
    "binary",
    "unsupported_encoding",
];

/// The name of a known phrasing on the message's first line; quoted text
/// (document rows, code in a snapshot) never counts, nor do later lines.
fn named(message: &str) -> Option<&'static str> {
    static COMPILED: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    let compiled = COMPILED.get_or_init(|| {
        NAMED
            .iter()
            .map(|(p, l)| (Regex::new(&format!("(?i){p}")).expect("valid pattern"), *l))
            .collect()
    });
    let line = unquoted(message.lines().next().unwrap_or_default());
    compiled
        .iter()
        .find(|(re, _)| re.is_match(&line))
        .map(|(_, label)| *label)
}

/// `line` with quoted text as `…`.
fn unquoted(line: &str) -> String {
    static QUOTED: OnceLock<Regex> = OnceLock::new();
    QUOTED
        .get_or_init(|| Regex::new(r"'[^']*'|`[^`]*`|\x22[^\x22]*\x22").expect("valid pattern"))
        .replace_all(line, "…")
        .into_owned()
}

/// The label of a warning line.
pub fn warning_label(message: &str) -> String {
    named(message).map_or_else(|| first_words(message), str::to_string)
}

/// The label of a refusal: the engine's kind, refined from the message
/// unless the kind says enough.
pub fn refusal_label(kind: Option<&str>, message: &str) -> String {
    let detail = || named(message).map_or_else(|| first_words(message), str::to_string);
    match kind {
        Some(kind) if PRECISE_KINDS.contains(&kind) => kind.to_string(),
        Some(kind) => format!("{kind}: {}", detail()),
        None => detail(),
    }
}

/// Most words a fallback label keeps.
const FALLBACK_WORDS: usize = 6;

/// The first words of a message's first line, after the prefixes that
/// only locate it (`warning:`, `edit document line N:`, a path, an op),
/// with numbers as `N`, paths as `PATH` and quoted text as `…`.
pub fn first_words(message: &str) -> String {
    static PREFIX: OnceLock<Regex> = OnceLock::new();
    static PATH: OnceLock<Regex> = OnceLock::new();
    static NUMBER: OnceLock<Regex> = OnceLock::new();
    let prefix = PREFIX.get_or_init(|| {
        Regex::new(
            r"^(?:(?:warning|note|error):\s*|(?:edit )?document(?: line \d+)?:\s*|[\w./-]+\.\w+:\s*|(?:PUT|CUT) [^(]*\(document line \d+\):?\s*)+",
        )
        .expect("valid pattern")
    });
    let path = PATH.get_or_init(|| Regex::new(r"[\w.-]*/[\w./-]+").expect("valid pattern"));
    let number = NUMBER.get_or_init(|| Regex::new(r"\d+").expect("valid pattern"));
    let line = message.lines().next().unwrap_or_default().trim();
    let rest = prefix.replace(line, "");
    let rest = unquoted(&rest);
    let rest = path.replace_all(&rest, "PATH");
    let rest = number.replace_all(&rest, "N");
    let words: Vec<&str> = rest.split_whitespace().take(FALLBACK_WORDS).collect();
    let text = words.join(" ");
    let text = text.trim_end_matches([',', ';', ':', '.']);
    if text.is_empty() {
        "(empty message)".to_string()
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn todays_warnings_get_names() {
        let echo = "warning: src/a.rs: PUT 3 (document line 2): the first body row repeats line 2, which \
                    stays in the file; they are written twice as sent.";
        assert_eq!(warning_label(echo), "echo");
        let shift = "warning: a.rs: PUT 4 (document line 2): the first body row reads as an edited copy \
                     of line 3 just above the range";
        assert_eq!(warning_label(shift), "shift");
        let long = "warning: a.rs: PUT 4.=5 (document line 2): the body rows are edits of line 4, in \
                    order, and nothing replaces line 5, so it is deleted";
        assert_eq!(warning_label(long), "range-too-long");
        let dup =
            "warning: document line 4: PUT 3: repeats document line 2 exactly; it was applied once";
        assert_eq!(warning_label(dup), "duplicate-op");
    }

    #[test]
    fn refusals_keep_precise_kinds_and_refine_the_rest() {
        assert_eq!(
            refusal_label(Some("stale_tag"), "src/a.rs: snapshot tag 1A2B is stale"),
            "stale_tag"
        );
        let fence = "edit document line 1: the document is wrapped in a Markdown code fence (this line \
                     and line 5)";
        assert_eq!(
            refusal_label(Some("parse_error"), fence),
            "parse_error: code-fence"
        );
        assert_eq!(
            refusal_label(
                Some("parse_error"),
                "edit document line 3: PUT needs at least one + body row"
            ),
            "parse_error: PUT needs at least one +"
        );
        assert_eq!(
            refusal_label(None, "Unknown op 'FOO' at 12"),
            "Unknown op … at N"
        );
    }

    #[test]
    fn a_refusal_names_every_finding_of_its_first_line() {
        let message = "a.rs: PUT 3: (document line 2): the first body row repeats line 2, which \
                       stays in the file: written as sent, the file would hold it twice. Also, the \
                       file parses now, and written as sent it would have a syntax error near line \
                       4. Nothing was written.\nIt would have written:\n3:fn echo() {}";
        let labels: Vec<String> = Signal::refusals(Some("echoed_rows"), message)
            .iter()
            .map(Signal::describe)
            .collect();
        assert_eq!(labels, ["refused: echoed_rows", "refused: broken_syntax"]);
        let odd = "a.rs: PUT 3: (document line 2): the first body row repeats line 2. Also, a \
                   strange thing on line 9. Nothing was written.";
        let labels: Vec<String> = Signal::refusals(Some("echoed_rows"), odd)
            .iter()
            .map(Signal::describe)
            .collect();
        assert_eq!(
            labels,
            [
                "refused: echoed_rows",
                "refused: also: a strange thing on line N"
            ]
        );
        assert_eq!(
            Signal::refusals(None, "tag mismatch\n1:a").len(),
            1,
            "one finding, one signal"
        );
    }

    #[test]
    fn unknown_messages_fall_back_to_their_first_words() {
        assert_eq!(
            first_words(
                "warning: lib/x.py: PUT 10.=12 (document line 7): rows 3-4 look odd; check"
            ),
            "rows N-N look odd; check"
        );
        assert_eq!(first_words("note: \n"), "(empty message)");
        let s = Signal::refusal(Some("suspect_edit"), "a.rs: the body elides lines 4-9");
        assert_eq!(
            s.describe(),
            "refused: suspect_edit: the body elides lines N-N"
        );
        let s = Signal::refusal(None, "Edit rejected for src/a/b.py: file changed");
        assert_eq!(
            s.describe(),
            "refused: Edit rejected for PATH: file changed"
        );
        // Code quoted in the message, or below its first line, never names it.
        let s = Signal::refusal(
            None,
            "row '// ... existing code ...' bad\n1:// a placeholder",
        );
        assert_eq!(s.describe(), "refused: row … bad");
        assert_eq!(Signal::warning_of_kind("echo").describe(), "warned: echo");
    }
}
