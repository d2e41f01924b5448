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
    /// that found it (`GUARD_LABELS`) when the engine gave a kind, so a
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
    "no_match",
    "ambiguous_match",
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
mod tests;
