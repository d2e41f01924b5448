//! Differential tests against Rho's real engine (`rho-agent-tools`).
//!
//! Each case puts the same bytes in two workspaces, one served by our tools
//! (`hashedit_tools::tools`, tag scheme `rho`), one by Rho's tools through
//! the SDK tool host, and makes the same call on both: a read (whole or a
//! window), an edit with a document from a seeded generator of Rho's
//! grammar, a write, or a grep. Then it compares what matters
//! (FORMAT.md §2): resulting file bytes, tags, line numbers, which rows a
//! view shows, the numbers in notices and summaries, and the failure class.
//! Prose is not compared.
//!
//! A difference passes only when one of the intended differences below
//! explains it, and each explanation is checked, not assumed: an edit Rho
//! refuses for a spelling or an op we accept on purpose is re-sent to Rho
//! rewritten into its grammar and must then land on our bytes; a mixed-EOL
//! result must equal ours re-joined the way Rho joins lines; and so on.
//! Anything else fails with the seed, the case, the document and both
//! replies.
//!
//! Run size: `HASHEDIT_DIFF_CASES` (default 400), seed
//! `HASHEDIT_DIFF_SEED`.

mod common;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use common::{Class, Intended, Ours, Reply, Tally, get_file, put_file, show_bytes};
use hashedit_core::TagScheme;
use hashedit_peers::corpus::{self, CorpusFile};
use hashedit_peers::rho::{FailureKind, Rho};
use hashedit_peers::shape::{Item, Shape};
use hashedit_rng::Rng;

const BOM: &str = "\u{FEFF}";

/// Every difference from Rho we make on purpose, with its reason.
const CATALOGUE: &[Intended] = &[
    Intended {
        name: "mixed_eol",
        reason: "FORMAT.md §6.3: untouched lines keep their endings; Rho rewrites every line with the file's dominant ending",
        ceiling: 6,
    },
    Intended {
        name: "cr_line_structure",
        reason: "FORMAT.md §6.3: Rho's one-ending rewrite turns a lone CR or a doubled CR into a different line structure; we keep the bytes",
        ceiling: 3,
    },
    Intended {
        name: "bom_kept",
        reason: "FORMAT.md §2: the BOM stays at byte 0 when line 1 is replaced; Rho drops it",
        ceiling: 2,
    },
    Intended {
        name: "bom_hidden",
        reason: "FORMAT.md §2: the BOM is never shown as content; Rho shows it at the start of row 1",
        ceiling: 6,
    },
    Intended {
        name: "bom_only_file_empty",
        reason: "FORMAT.md §2: a file holding only a BOM has no lines for us; Rho sees one line holding U+FEFF",
        ceiling: 6,
    },
    Intended {
        name: "gt_end_of_span",
        reason: "FORMAT.md §6.3: `PUT >E:` on the last line of a replaced span is allowed (rows follow the replacement); Rho refuses it",
        ceiling: 2,
    },
    Intended {
        name: "superset_spelling",
        reason: "FORMAT.md §2/§4: omp spellings (separators …, `.`, `=`; `CUT N:`; envelopes; apply_patch header noise) are accepted with a warning; Rho rejects them",
        ceiling: 15,
    },
    Intended {
        name: "read_budget",
        reason: "read_file: an over-budget read stops at the last whole row with a footer; Rho cuts mid-row and appends [truncated] (a model never copies half a row)",
        ceiling: 6,
    },
    Intended {
        name: "write_read_output",
        reason: "handed case D14: write refuses content that looks like pasted read output; Rho writes it",
        ceiling: 3,
    },
    Intended {
        name: "huge_file_stream",
        reason: "FORMAT.md §4.2: whole-file reads of files over 25 MiB stream in bounded memory; Rho refuses them",
        ceiling: 2,
    },
    Intended {
        name: "duplicate_span_once",
        reason: "FORMAT.md §5.8: a span op repeated verbatim is one unambiguous intent, applied once with a warning; Rho refuses it as overlapping",
        ceiling: 2,
    },
    Intended {
        name: "empty_last_line",
        reason: "FORMAT.md §6.3: deleting the last line of a file without a final newline keeps an empty line before it (with its ending); Rho's rewrite turns that line into the final newline and loses it",
        ceiling: 2,
    },
    Intended {
        name: "binary_refused",
        reason: "FORMAT.md §4.5: a file with NUL bytes is binary: read_file refuses it with no tag; Rho shows it as text",
        ceiling: 2,
    },
    Intended {
        name: "fault_order",
        reason: "REPORTED, pending a decision: a document with both an out-of-range op and colliding ops is refused by both; we name the range fault first, Rho the collision it meets first in document order",
        ceiling: 2,
    },
    Intended {
        name: "duplicate_insert_once",
        reason: "FORMAT.md §5.8: an insert repeated verbatim (same gap, same rows) is one unambiguous intent, applied once with a warning; Rho inserts the rows twice",
        ceiling: 2,
    },
    Intended {
        name: "indent_style",
        reason: "FORMAT.md §5.8: body rows indented in the other style (tabs vs spaces) than the lines around them are refused (never converted); Rho writes them. Checked: our refusal names a row the restated rule flags, and the document with those rows re-indented must then agree or be explained",
        ceiling: 3,
    },
    Intended {
        name: "numbered_rows",
        reason: "FORMAT.md §5.8: body rows numbered as a read prints them (`+12:text`, counting up from the op's own line) are repaired when the numbers are exactly the replaced lines' (FORMAT.md §7.6), else refused with the rows unnumbered as the fix; Rho writes the numbers into the file. Checked: the op our refusal names is the first the restated rule flags, and the document with the numbers taken off must then agree or be explained",
        ceiling: 2,
    },
    Intended {
        name: "failure_prose",
        reason: "FORMAT.md §2: prose is ours; both failed with the same class and the same snapshot shape",
        ceiling: 40,
    },
];

// ---------------------------------------------------------------------------
// Rho's line model and EOL rule, restated for the checks below.

/// Rho's lines (Rho's behaviour): none for an empty file; else drop one
/// final `\n`, split at `\n`, drop one trailing `\r` per piece.
fn rho_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// Rho's choice of the one ending it writes (Rho's behaviour item 6).
fn rho_eol(text: &str) -> &'static str {
    let bytes = text.as_bytes();
    let crlf = text.matches("\r\n").count();
    let lf = bytes.iter().filter(|&&b| b == b'\n').count() - crlf;
    let cr = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
        .count();
    if cr > crlf && cr > lf {
        "\r"
    } else if crlf > lf {
        "\r\n"
    } else {
        "\n"
    }
}

/// Our result re-joined the way Rho writes a file: our line texts, joined
/// with Rho's ending for `original`, a final ending when Rho adds one.
fn rejoined_like_rho(ours: &[u8], original: &str) -> Option<Vec<u8>> {
    let text = hashedit_core::Text::decode(ours).ok()?;
    let mut lines: Vec<String> = text.lines().map(|(l, _)| l.to_string()).collect();
    if text.has_bom()
        && let Some(first) = lines.first_mut()
    {
        first.insert_str(0, BOM);
    }
    if lines.is_empty() {
        return Some(Vec::new());
    }
    let eol = rho_eol(original);
    let mut out = lines.join(eol);
    if original.is_empty() || original.ends_with('\n') || original.ends_with('\r') {
        out.push_str(eol);
    }
    Some(out.into_bytes())
}

/// True when the file's endings are not all one of LF / CRLF: mixed, lone
/// CR, or a CR left inside a line.
fn irregular_endings(original: &[u8]) -> bool {
    let Ok(text) = hashedit_core::Text::decode(original) else {
        return false;
    };
    let mut kinds = BTreeSet::new();
    for (line, ending) in text.lines() {
        if line.contains('\r') {
            return true;
        }
        if ending != hashedit_core::stages::Ending::None {
            kinds.insert(format!("{ending:?}"));
        }
    }
    kinds.len() > 1 || kinds.contains("Cr")
}

// ---------------------------------------------------------------------------
// The document model: Rho's grammar, plus a few spellings only we accept.

/// How a range is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spell {
    /// `N` (single line only).
    Single,
    /// `N.=M`.
    DotEq,
    /// `N-M`.
    Dash,
    /// `N..M`.
    DotDot,
    /// ` N .= M ` (spaces around the pieces).
    Spaced,
    /// omp only: `N…M`.
    Ellipsis,
    /// omp only: `N M`.
    Space,
    /// omp only: `N.M`.
    Dot,
    /// omp only: `N=M`.
    Eq,
}

impl Spell {
    /// omp spellings we accept and Rho refuses. `N M` is not one: we
    /// refuse it too (a range or two lines?), so both engines must refuse
    /// it alike.
    fn superset(self) -> bool {
        matches!(self, Spell::Ellipsis | Spell::Dot | Spell::Eq)
    }

    fn locator(self, start: usize, end: usize, canonical: bool) -> String {
        let spell = if canonical && self.superset() {
            Spell::DotEq
        } else {
            self
        };
        match spell {
            Spell::Single if start == end => format!("{start}"),
            Spell::Single | Spell::DotEq => format!("{start}.={end}"),
            Spell::Dash => format!("{start}-{end}"),
            Spell::DotDot => format!("{start}..{end}"),
            Spell::Spaced => format!(" {start} .= {end} "),
            Spell::Ellipsis => format!("{start}…{end}"),
            Spell::Space => format!("{start} {end}"),
            Spell::Dot => format!("{start}.{end}"),
            Spell::Eq => format!("{start}={end}"),
        }
    }
}

#[derive(Debug, Clone)]
enum Op {
    Replace {
        start: usize,
        end: usize,
        body: Vec<String>,
        spell: Spell,
    },
    Delete {
        start: usize,
        end: usize,
        spell: Spell,
        /// omp only: `CUT N:`.
        colon: bool,
    },
    Before {
        line: usize,
        body: Vec<String>,
    },
    After {
        line: usize,
        body: Vec<String>,
    },
    End {
        body: Vec<String>,
    },
    /// Lines sent as they are (a deliberate mistake).
    Raw(Vec<String>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeaderStyle {
    Plain,
    Spaced,
    LowerTag,
    /// omp only: `[*** Update File: path#TAG]`.
    Noise,
}

#[derive(Debug, Clone)]
struct SectionModel {
    path: String,
    tag: String,
    style: HeaderStyle,
    ops: Vec<Op>,
}

#[derive(Debug, Clone)]
struct DocModel {
    sections: Vec<SectionModel>,
    /// Lines before the first header (a deliberate mistake).
    prelude: Vec<String>,
    keyword: &'static str,
    crlf: bool,
    blank_between: bool,
    final_newline: bool,
    /// omp only: `*** Begin Patch` / `*** End Patch`.
    envelope: bool,
}

impl DocModel {
    fn uses_superset(&self) -> bool {
        self.envelope
            || self.sections.iter().any(|s| {
                s.style == HeaderStyle::Noise
                    || s.ops.iter().any(|op| match op {
                        Op::Replace { spell, .. } => spell.superset(),
                        Op::Delete { spell, colon, .. } => spell.superset() || *colon,
                        _ => false,
                    })
            })
    }

    /// The document text; `canonical` rewrites omp-only spellings into
    /// Rho's grammar.
    fn render(&self, canonical: bool) -> String {
        self.render_with_positions(canonical).0
    }

    /// [`DocModel::render`], and the 1-based document line of each op as
    /// (line, section index, op index).
    fn render_with_positions(&self, canonical: bool) -> (String, Vec<(usize, usize, usize)>) {
        let mut positions = Vec::new();
        let mut lines: Vec<String> = self.prelude.clone();
        if self.envelope && !canonical {
            lines.push("*** Begin Patch".into());
        }
        let kw_put = self.keyword;
        let kw_cut = match self.keyword {
            "put" => "cut",
            "Put" => "Cut",
            _ => "CUT",
        };
        for (si, section) in self.sections.iter().enumerate() {
            let style = if canonical && section.style == HeaderStyle::Noise {
                HeaderStyle::Plain
            } else {
                section.style
            };
            lines.push(match style {
                HeaderStyle::Plain => format!("[{}#{}]", section.path, section.tag),
                HeaderStyle::Spaced => format!("  [ {} # {} ]  ", section.path, section.tag),
                HeaderStyle::LowerTag => {
                    format!("[{}#{}]", section.path, section.tag.to_lowercase())
                }
                HeaderStyle::Noise => {
                    format!("[*** Update File: {}#{}]", section.path, section.tag)
                }
            });
            for (oi, op) in section.ops.iter().enumerate() {
                if self.blank_between {
                    lines.push(String::new());
                }
                positions.push((lines.len() + 1, si, oi));
                let body = |lines: &mut Vec<String>, body: &[String]| {
                    lines.extend(body.iter().map(|row| format!("+{row}")));
                };
                match op {
                    Op::Replace {
                        start,
                        end,
                        body: rows,
                        spell,
                    } => {
                        lines.push(format!(
                            "{kw_put} {}:",
                            spell.locator(*start, *end, canonical)
                        ));
                        body(&mut lines, rows);
                    }
                    Op::Delete {
                        start,
                        end,
                        spell,
                        colon,
                    } => lines.push(format!(
                        "{kw_cut} {}{}",
                        spell.locator(*start, *end, canonical),
                        if *colon && !canonical { ":" } else { "" }
                    )),
                    Op::Before { line, body: rows } => {
                        lines.push(format!("{kw_put} <{line}:"));
                        body(&mut lines, rows);
                    }
                    Op::After { line, body: rows } => {
                        lines.push(format!("{kw_put} >{line}:"));
                        body(&mut lines, rows);
                    }
                    Op::End { body: rows } => {
                        lines.push(format!("{kw_put} >$:"));
                        body(&mut lines, rows);
                    }
                    Op::Raw(raw) => lines.extend(raw.iter().cloned()),
                }
            }
        }
        if self.envelope && !canonical {
            lines.push("*** End Patch".into());
        }
        let nl = if self.crlf { "\r\n" } else { "\n" };
        let mut text = lines.join(nl);
        if self.final_newline {
            text.push_str(nl);
        }
        (text, positions)
    }

    /// True when some section inserts after the last line of a multi-line
    /// span of the same section.
    fn has_gt_end_of_span(&self) -> bool {
        self.sections.iter().any(|s| {
            s.ops.iter().any(|op| match op {
                Op::After { line, .. } => s.ops.iter().any(|other| match other {
                    Op::Replace { start, end, .. } | Op::Delete { start, end, .. } => {
                        start < end && end == line
                    }
                    _ => false,
                }),
                _ => false,
            })
        })
    }

    /// True when a `PUT >E:` follows a multi-line CUT ending on E.
    fn gt_end_on_cut(&self) -> bool {
        self.sections.iter().any(|s| {
            s.ops.iter().any(|op| {
                match op {
                Op::After { line, .. } => s.ops.iter().any(|other| {
                    matches!(other, Op::Delete { start, end, .. } if start < end && end == line)
                }),
                _ => false,
            }
            })
        })
    }

    /// Whether some section of the document has an op outside its file
    /// (`Range`) and whether some has two ops that collide (`Overlap`),
    /// by the rules both engines share (`PUT >E:` after a span is not a
    /// collision for us, so it does not count).
    fn faults(&self, lines_of: &dyn Fn(&str) -> usize) -> (bool, bool) {
        let (mut range, mut overlap) = (false, false);
        for section in &self.sections {
            let n = lines_of(&section.path);
            let mut spans: Vec<(usize, usize)> = Vec::new();
            let mut anchors: Vec<(usize, bool)> = Vec::new(); // (line, after)
            for op in &section.ops {
                match op {
                    Op::Replace { start, end, .. } | Op::Delete { start, end, .. } => {
                        range |= n == 0 || *end > n;
                        spans.push((*start, *end));
                    }
                    Op::Before { line, .. } => {
                        range |= if n == 0 { *line != 1 } else { *line > n };
                        anchors.push((*line, false));
                    }
                    Op::After { line, .. } => {
                        range |= n == 0 || *line > n;
                        anchors.push((*line, true));
                    }
                    Op::End { .. } | Op::Raw(_) => {}
                }
            }
            for (i, a) in spans.iter().enumerate() {
                for b in &spans[..i] {
                    overlap |= a.0 <= b.1 && b.0 <= a.1;
                }
                for &(line, after) in &anchors {
                    overlap |= a.0 < line && line < a.1;
                    overlap |= after && line == a.0 && a.0 < a.1;
                    overlap |= !after && line == a.1 && a.0 < a.1;
                }
            }
        }
        (range, overlap)
    }

    /// True when a section repeats a span op (same lines, same rows).
    fn has_duplicate_spans(&self) -> bool {
        self.sections.iter().any(|s| {
            let keys: Vec<_> = s.ops.iter().filter_map(span_key).collect();
            keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k))
        })
    }

    /// True when a section repeats an insert (same gap, same rows).
    fn has_duplicate_inserts(&self) -> bool {
        self.sections.iter().any(|s| {
            let keys: Vec<_> = s.ops.iter().filter_map(insert_key).collect();
            keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k))
        })
    }

    /// The same document with repeated inserts dropped (first kept).
    fn dedupe_inserts(&self) -> DocModel {
        self.dedupe_by(insert_key)
    }

    /// The same document with every op dropped whose `key` equals an
    /// earlier op's in its section (ops without a key are kept).
    fn dedupe_by<K: PartialEq>(&self, key: impl Fn(&Op) -> Option<K>) -> DocModel {
        let mut out = self.clone();
        for section in &mut out.sections {
            let mut seen = Vec::new();
            section.ops.retain(|op| match key(op) {
                Some(key) if seen.contains(&key) => false,
                Some(key) => {
                    seen.push(key);
                    true
                }
                None => true,
            });
        }
        out
    }

    /// Checks our refusal of rows numbered as a read prints them against
    /// the rule restated here ([`numbered_rows`]): the op it names must be
    /// the first op of the document whose rows the rule flags. Returns the
    /// document with the numbers taken off every flagged op's rows.
    fn numbered_refusal(&self, refusal: &str) -> Result<DocModel, String> {
        // The refusal may be a section failure, after the file's path.
        let named = refusal
            .split_once("edit document line ")
            .and_then(|(_, rest)| rest.split_once(':'))
            .and_then(|(line, _)| line.parse::<usize>().ok())
            .ok_or("we refused numbered rows without naming the document line")?;
        let (_, positions) = self.render_with_positions(false);
        let mut fixed = self.clone();
        let mut first = None;
        for &(line, si, oi) in &positions {
            let op = &mut fixed.sections[si].ops[oi];
            if let Some(stripped) = numbered_rows(op) {
                first.get_or_insert(line);
                if let Some(body) = op_body_mut(op) {
                    *body = stripped;
                }
            }
        }
        match first {
            Some(line) if line == named => Ok(fixed),
            Some(line) => Err(format!(
                "we refused the numbered rows of the op on document line {named}, but the restated rule flags line {line} first"
            )),
            None => Err(format!(
                "we refused the rows of the op on document line {named} as numbered, but the restated rule flags no op"
            )),
        }
    }

    /// Checks our indentation refusal against the rule restated in the
    /// test (`common::other_style_rows`, on our line model of `originals`):
    /// the op, row and style it names must be the first row of that op in
    /// the other style than its uniformly indented surroundings. Returns
    /// the document with every such row re-indented in its surroundings'
    /// style.
    fn indent_refusal(
        &self,
        originals: &[(String, Vec<u8>)],
        refusal: &str,
    ) -> Result<DocModel, String> {
        let Some((line, row, style)) = common::parse_indent_refusal(refusal) else {
            return Err("we refused for indentation without naming the op, row and style".into());
        };
        let (_, positions) = self.render_with_positions(false);
        let Some(&(_, named_section, named_op)) = positions.iter().find(|p| p.0 == line) else {
            return Err(format!(
                "our indentation refusal names document line {line}, where no op starts"
            ));
        };
        let mut fixed = self.clone();
        let mut confirmed = false;
        for (si, section) in fixed.sections.iter_mut().enumerate() {
            let Some((_, bytes)) = originals.iter().find(|(n, _)| *n == section.path) else {
                continue;
            };
            let lines: Vec<String> = hashedit_core::Text::decode(bytes)
                .map(|t| t.lines().map(|(l, _)| l.to_string()).collect())
                .unwrap_or_default();
            let total = lines.len();
            for (oi, op) in section.ops.iter_mut().enumerate() {
                let (body, first, last) = match op {
                    Op::Replace {
                        start, end, body, ..
                    } => (body, *start - 1, *end + 1),
                    Op::Before { line, body } => (body, line.saturating_sub(1), *line),
                    Op::After { line, body } => (body, *line, *line + 1),
                    Op::End { body } => (body, total, total + 1),
                    Op::Delete { .. } | Op::Raw(_) => continue,
                };
                let context: Vec<&str> = common::context_lines(first, last, total)
                    .into_iter()
                    .map(|n| lines[n - 1].as_str())
                    .collect();
                let named = ((si, oi) == (named_section, named_op)).then_some((row, style));
                if common::reindent_other_style(body, &context, named) {
                    confirmed = true;
                }
            }
        }
        common::confirmed_indent_refusal(confirmed, fixed, line, row, style)
    }

    /// The same document with repeated span ops dropped (first kept).
    fn dedupe_spans(&self) -> DocModel {
        self.dedupe_by(span_key)
    }

    /// The same document with sections on `path` tagged `from` retagged
    /// `to` (stale tags stay stale).
    fn retag(&self, path: &str, from: &str, to: &str) -> DocModel {
        let mut out = self.clone();
        for section in &mut out.sections {
            if section.path == path && section.tag.eq_ignore_ascii_case(from) {
                section.tag = to.to_string();
            }
        }
        out
    }

    /// The same edit in Rho's grammar: every `PUT >E:` on the last line of
    /// a multi-line span becomes trailing rows of that span's body (a CUT
    /// with such rows becomes a PUT of them).
    fn fold_gt_end_of_span(&self) -> DocModel {
        let mut out = self.clone();
        for section in &mut out.sections {
            let ends: Vec<usize> = section
                .ops
                .iter()
                .filter_map(|op| match op {
                    Op::Replace { start, end, .. } | Op::Delete { start, end, .. }
                        if start < end =>
                    {
                        Some(*end)
                    }
                    _ => None,
                })
                .collect();
            let mut moved: Vec<(usize, Vec<String>)> = Vec::new();
            section.ops.retain(|op| match op {
                Op::After { line, body } if ends.contains(line) => {
                    moved.push((*line, body.clone()));
                    false
                }
                _ => true,
            });
            for op in &mut section.ops {
                let (span_end, rows): (usize, Vec<String>) = match op {
                    Op::Replace { end, .. } | Op::Delete { end, .. } => (
                        *end,
                        moved
                            .iter()
                            .filter(|(l, _)| l == end)
                            .flat_map(|(_, b)| b.iter().cloned())
                            .collect(),
                    ),
                    _ => continue,
                };
                if rows.is_empty() {
                    continue;
                }
                // Each span end takes its rows once.
                moved.retain(|(l, _)| *l != span_end);
                match op {
                    Op::Replace { body, .. } => body.extend(rows),
                    Op::Delete {
                        start, end, spell, ..
                    } => {
                        *op = Op::Replace {
                            start: *start,
                            end: *end,
                            body: rows,
                            spell: *spell,
                        };
                    }
                    _ => unreachable!(),
                }
            }
        }
        out
    }
}

/// The rows of `op` without their `N:` prefixes, when every row has one,
/// the numbers count up by one, and the first is the op's own line (for
/// an insert, its anchor or the line after it; any line for `PUT >$:`,
/// given two rows or more):
/// rows pasted from a read, which we refuse (FORMAT.md §5.8).
fn numbered_rows(op: &Op) -> Option<Vec<String>> {
    let (body, expected) = match op {
        Op::Replace { start, body, .. } => (body, Some([*start, *start])),
        Op::After { line, body } => (body, Some([*line, line + 1])),
        Op::Before { line, body } => (body, Some([line.saturating_sub(1), *line])),
        Op::End { body } if body.len() >= 2 => (body, None),
        Op::End { .. } | Op::Delete { .. } | Op::Raw(_) => return None,
    };
    let mut stripped = Vec::with_capacity(body.len());
    let mut next = None;
    for row in body {
        let (number, rest) = row.split_once(':')?;
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let number: usize = number.parse().ok()?;
        match next {
            None if expected.is_some_and(|e| !e.contains(&number)) => return None,
            Some(n) if n != number => return None,
            _ => {}
        }
        next = Some(number + 1);
        stripped.push(rest.to_string());
    }
    // Rows numbered exactly with the lines a replacement names are
    // repaired, not refused (when the file's own lines do not start with
    // their numbers, which the generated files never do).
    if let Op::Replace { start, end, .. } = op
        && body.len() == end - start + 1
    {
        return None;
    }
    next.map(|_| stripped)
}

/// The rows of an op that has a body.
fn op_body_mut(op: &mut Op) -> Option<&mut Vec<String>> {
    match op {
        Op::Replace { body, .. }
        | Op::Before { body, .. }
        | Op::After { body, .. }
        | Op::End { body } => Some(body),
        Op::Delete { .. } | Op::Raw(_) => None,
    }
}

/// What an insert does: (kind, line, rows).
fn insert_key(op: &Op) -> Option<(u8, usize, Vec<String>)> {
    match op {
        Op::Before { line, body } => Some((0, *line, body.clone())),
        Op::After { line, body } => Some((1, *line, body.clone())),
        Op::End { body } => Some((2, 0, body.clone())),
        _ => None,
    }
}

/// What a span op does, spelling aside: (is a replace, start, end, rows).
fn span_key(op: &Op) -> Option<(bool, usize, usize, Vec<String>)> {
    match op {
        Op::Replace {
            start, end, body, ..
        } => Some((true, *start, *end, body.clone())),
        Op::Delete { start, end, .. } => Some((false, *start, *end, Vec::new())),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// The generator.

struct FileInfo {
    name: String,
    bytes: Vec<u8>,
    lines: Vec<String>,
}

impl FileInfo {
    fn new(name: &str, bytes: &[u8]) -> FileInfo {
        let text = String::from_utf8_lossy(bytes);
        let lines = rho_lines(&text)
            .into_iter()
            .map(|l| l.strip_prefix(BOM).unwrap_or(l).to_string())
            .collect();
        FileInfo {
            name: name.to_string(),
            bytes: bytes.to_vec(),
            lines,
        }
    }

    fn tag(&self) -> String {
        TagScheme::Rho.tag_of(&self.bytes).to_string()
    }
}

fn gen_row(rng: &mut Rng, file: &FileInfo) -> String {
    match rng.below(12) {
        0..=2 if !file.lines.is_empty() => file.lines[rng.below(file.lines.len())].clone(),
        0..=2 => "copied".into(),
        3 => String::new(),
        4 => "    let value = compute(42);".into(),
        5 => "trailing spaces  ".into(),
        6 => "\tindented with a tab\t".into(),
        7 => "ünïcödé 🦀 …".into(),
        8 => "+leading plus".into(),
        9 => "- a bullet".into(),
        10 => format!("PUT {}:", rng.between(1, 9)),
        _ => format!("generated row {}", rng.below(1000)),
    }
}

fn gen_body(rng: &mut Rng, file: &FileInfo) -> Vec<String> {
    let n = match rng.below(10) {
        0..=5 => 1,
        6..=8 => rng.between(2, 4),
        _ => rng.between(5, 12),
    };
    (0..n).map(|_| gen_row(rng, file)).collect()
}

fn gen_spell(rng: &mut Rng, start: usize, end: usize, superset: bool) -> Spell {
    if superset && rng.percent(8) {
        return *rng.pick(&[Spell::Ellipsis, Spell::Space, Spell::Dot, Spell::Eq]);
    }
    match rng.below(10) {
        0..=4 if start == end => Spell::Single,
        0..=5 => Spell::DotEq,
        6 | 7 => Spell::Dash,
        8 => Spell::DotDot,
        _ => Spell::Spaced,
    }
}

/// Lines `span` claims, for keeping ops apart.
#[derive(Clone, Copy)]
struct Claim {
    start: usize,
    end: usize,
}

/// A span of `n` lines somewhere in 1..=`total`, avoiding `claims` when it
/// can.
fn pick_span(rng: &mut Rng, total: usize, claims: &[Claim]) -> (usize, usize) {
    let len = match rng.below(20) {
        0..=10 => 1,
        11..=17 => rng.between(2, 5),
        _ => rng.between(6, 45),
    };
    for _ in 0..8 {
        let start = rng.between(1, total);
        let end = (start + len - 1).min(total);
        if claims
            .iter()
            .all(|c| end + 1 < c.start || start > c.end + 1)
        {
            return (start, end);
        }
    }
    let start = rng.between(1, total);
    (start, (start + len - 1).min(total))
}

fn pick_gap(rng: &mut Rng, total: usize, claims: &[Claim]) -> usize {
    for _ in 0..8 {
        let line = rng.between(1, total);
        if claims.iter().all(|c| line < c.start || line > c.end) {
            return line;
        }
    }
    rng.between(1, total)
}

/// A deliberate mistake both engines must refuse (or one only we accept,
/// marked as a superset spelling by the model itself).
fn gen_fault(rng: &mut Rng, file: &FileInfo) -> Op {
    let n = file.lines.len().max(1);
    let l = rng.between(1, n);
    let row = format!("+{}", gen_row(rng, file));
    let lines: Vec<String> = match rng.below(17) {
        0 => vec![format!("PUT {l}.:"), row],
        1 => vec![format!("PUT {l}.=:"), row],
        2 => vec![format!("PUT {l}"), row],
        3 => vec![format!("PUT {l}:")],
        4 => vec![format!("PUT {l}:"), "a row without plus".into()],
        5 => vec![format!("PUT {}.={l}:", l + 1), row],
        6 => vec!["PUT 0:".into(), row],
        7 => vec![format!("PUTX {l}:"), row],
        8 => vec![format!("PUT {l}:"), row, format!("-{}", gen_row(rng, file))],
        9 => vec![format!("PUT {l}:"), "```".into(), row],
        10 => vec![format!("PUT {l}:"), row.clone(), String::new(), row],
        11 => vec!["PUT <$:".into(), row],
        12 => vec!["PUT :".into(), row],
        13 => vec!["CUT".into()],
        14 => vec![format!("CUT {l}.")],
        15 => vec![format!("CUT .={l}")],
        _ => vec![format!("{l}:{}", gen_row(rng, file))],
    };
    Op::Raw(lines)
}

fn gen_section(rng: &mut Rng, file: &FileInfo, superset: bool) -> SectionModel {
    let total = file.lines.len();
    let mut ops = Vec::new();
    let mut claims: Vec<Claim> = Vec::new();
    let count = match rng.below(10) {
        0..=4 => 1,
        5..=7 => 2,
        _ => rng.between(3, 5),
    };
    for _ in 0..count {
        // Sometimes aim past the end of the file.
        let beyond = rng.percent(4);
        let op = if total == 0 {
            match rng.below(10) {
                0..=3 => Op::Before {
                    line: 1,
                    body: gen_body(rng, file),
                },
                4..=7 => Op::End {
                    body: gen_body(rng, file),
                },
                8 => Op::Before {
                    line: 2,
                    body: gen_body(rng, file),
                },
                _ => Op::Replace {
                    start: 1,
                    end: 1,
                    body: gen_body(rng, file),
                    spell: Spell::Single,
                },
            }
        } else {
            match rng.below(100) {
                0..=34 => {
                    let (start, end) = if beyond {
                        let s = total + rng.between(0, 2);
                        (s, s + rng.below(2))
                    } else {
                        pick_span(rng, total, &claims)
                    };
                    claims.push(Claim { start, end });
                    Op::Replace {
                        start,
                        end,
                        body: gen_body(rng, file),
                        spell: gen_spell(rng, start, end, superset),
                    }
                }
                35..=56 => {
                    let (start, end) = if beyond {
                        (total, total + 1 + rng.below(3))
                    } else {
                        pick_span(rng, total, &claims)
                    };
                    claims.push(Claim { start, end });
                    Op::Delete {
                        start,
                        end,
                        spell: gen_spell(rng, start, end, superset),
                        colon: superset && rng.percent(5),
                    }
                }
                57..=70 => Op::Before {
                    line: if beyond {
                        total + 1
                    } else {
                        pick_gap(rng, total, &claims)
                    },
                    body: gen_body(rng, file),
                },
                71..=86 => Op::After {
                    line: if beyond {
                        total + 1
                    } else {
                        pick_gap(rng, total, &claims)
                    },
                    body: gen_body(rng, file),
                },
                87..=93 => Op::End {
                    body: gen_body(rng, file),
                },
                // Rows after the last line of a multi-line span (§3.7), or
                // before/after a line inside one.
                _ => match claims.iter().find(|c| c.start < c.end).copied() {
                    Some(c) => match rng.below(4) {
                        0 | 1 => Op::After {
                            line: c.end,
                            body: gen_body(rng, file),
                        },
                        2 => Op::Before {
                            line: rng.between(c.start + 1, c.end),
                            body: gen_body(rng, file),
                        },
                        _ => Op::After {
                            line: c.start,
                            body: gen_body(rng, file),
                        },
                    },
                    None => Op::End {
                        body: gen_body(rng, file),
                    },
                },
            }
        };
        ops.push(op);
    }
    if rng.percent(8) {
        let at = rng.below(ops.len() + 1);
        ops.insert(at, gen_fault(rng, file));
    }
    let tag = if rng.percent(6) {
        // A stale tag: the tag of other content.
        let other = TagScheme::Rho.tag_of(format!("stale {}", rng.below(100_000)).as_bytes());
        other.to_string()
    } else {
        file.tag()
    };
    let style = match rng.below(20) {
        0 => HeaderStyle::Spaced,
        1 | 2 => HeaderStyle::LowerTag,
        3 if superset => HeaderStyle::Noise,
        _ => HeaderStyle::Plain,
    };
    SectionModel {
        path: file.name.clone(),
        tag,
        style,
        ops,
    }
}

fn gen_doc(rng: &mut Rng, files: &[&FileInfo]) -> DocModel {
    let mut sections: Vec<SectionModel> = files.iter().map(|f| gen_section(rng, f, true)).collect();
    if rng.percent(2) {
        // The same path twice.
        let again = gen_section(rng, files[0], false);
        sections.push(again);
    }
    let mut prelude = Vec::new();
    if rng.percent(1) {
        prelude.push("PUT 1:".into());
    }
    DocModel {
        sections,
        prelude,
        keyword: match rng.below(20) {
            0 => "put",
            1 => "Put",
            _ => "PUT",
        },
        crlf: rng.percent(5),
        blank_between: rng.percent(25),
        final_newline: rng.percent(70),
        envelope: rng.percent(3),
    }
}

// ---------------------------------------------------------------------------
// Running both sides.

/// Files after a call, by position in a list of names; `None` when gone.
type FileStates = Vec<Option<Vec<u8>>>;

/// Which Rho a run drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Peer {
    /// Rho's real engine.
    Rho,
    /// [`Rho::failing`]: every call fails, as a broken peer would.
    Failing,
}

/// One workspace per engine, holding the same files.
struct Pair {
    ours: Ours,
    _rho_dir: tempfile::TempDir,
    rho: Rho,
}

impl Pair {
    fn new(peer: Peer) -> Pair {
        let ours = Ours::new(TagScheme::Rho);
        let dir = tempfile::tempdir().expect("temp dir");
        let rho = match peer {
            Peer::Rho => Rho::new(dir.path()).expect("Rho host"),
            Peer::Failing => Rho::failing(dir.path(), "stub: the Rho host is gone"),
        };
        Pair {
            ours,
            _rho_dir: dir,
            rho,
        }
    }

    fn put(&self, name: &str, bytes: &[u8]) {
        put_file(self.ours.root(), name, bytes);
        put_file(self.rho.root(), name, bytes);
    }

    /// The bytes of `names` on the Rho side and on ours.
    fn files(&self, names: &[String]) -> (FileStates, FileStates) {
        (
            names.iter().map(|n| get_file(self.rho.root(), n)).collect(),
            names
                .iter()
                .map(|n| get_file(self.ours.root(), n))
                .collect(),
        )
    }
}

/// Rho's reply as a [`Reply`] with a failure class read from its wording.
fn rho_reply(reply: hashedit_peers::rho::Reply) -> Reply {
    let class = match reply.failure {
        None => Class::Ok,
        Some(kind) => rho_class(kind, &reply.text),
    };
    Reply::new(class, reply.text)
}

fn rho_class(kind: FailureKind, text: &str) -> Class {
    if kind == FailureKind::Host {
        return Class::PeerFailed;
    }
    // Only the message: the live snapshot after it shows file rows, whose
    // words ("overlapping", "outside the file" in a corpus file) must not
    // decide the class.
    let message = text.split("Live snapshot").next().unwrap_or(text);
    let has = |s: &str| message.contains(s);
    if has("more than once") {
        Class::Duplicate
    } else if kind == FailureKind::InvalidArguments {
        if has("offset") || has("limit must") {
            Class::Args
        } else {
            Class::Parse
        }
    } else if has("tag mismatch") {
        Class::Stale
    } else if has("overlapping") || has("falls inside") {
        Class::Overlap
    } else if has("outside the file")
        || has("empty file")
        || has("non-empty file")
        || has("must use PUT <1:")
    {
        Class::Range
    } else if has("past the end of the file") || has("must be greater than 0") {
        Class::Args
    } else if has("UTF-8") || has("utf-8") {
        Class::NotText
    } else if has("cannot be resolved") || has("No such file") {
        Class::NotFound
    } else {
        Class::Other
    }
}

/// What both sides produced for one call.
#[derive(Clone)]
struct Sides {
    rho: Reply,
    ours: Reply,
    /// Files after the call, per compared path.
    rho_files: Vec<Option<Vec<u8>>>,
    ours_files: Vec<Option<Vec<u8>>>,
}

/// The differences left between two sides; empty when they agree.
fn differences(s: &Sides) -> Vec<String> {
    let mut out = Vec::new();
    if s.rho.class != s.ours.class {
        out.push(format!(
            "outcome: Rho {:?}, ours {:?}",
            s.rho.class, s.ours.class
        ));
        return out;
    }
    for (i, (r, o)) in s.rho_files.iter().zip(&s.ours_files).enumerate() {
        if r != o {
            out.push(format!(
                "file #{i}: Rho {} / ours {}",
                r.as_deref().map_or("(absent)".into(), show_bytes),
                o.as_deref().map_or("(absent)".into(), show_bytes)
            ));
        }
    }
    if s.rho.shape != s.ours.shape {
        out.push(format!(
            "shape:\n{}",
            shape_diff(&s.rho.shape, &s.ours.shape)
        ));
    }
    out
}

fn shape_diff(rho: &Shape, ours: &Shape) -> String {
    let mut out = String::new();
    let n = rho.items.len().max(ours.items.len());
    let mut shown = 0;
    for i in 0..n {
        let r = rho.items.get(i);
        let o = ours.items.get(i);
        if r != o {
            let _ = writeln!(
                out,
                "    item {i}: Rho {} | ours {}",
                r.map_or("-".into(), |x| x.to_string()),
                o.map_or("-".into(), |x| x.to_string())
            );
            shown += 1;
            if shown == 6 {
                let _ = writeln!(out, "    …");
                break;
            }
        }
    }
    out
}

/// Drops summary items (their op counts differ when a document was
/// rewritten for Rho).
fn without_summaries(shape: &Shape) -> Shape {
    Shape {
        items: shape
            .items
            .iter()
            .filter(|i| !matches!(i, Item::Summary(_)))
            .cloned()
            .collect(),
    }
}

/// Removes a leading BOM from Rho's rows (we never show it; Rho shows it
/// in the row of the original line 1, wherever inserts moved it).
fn strip_bom_row(shape: &mut Shape) -> bool {
    let mut changed = false;
    for item in &mut shape.items {
        if let Item::Row { text, .. } | Item::Match { text, .. } = item
            && let Some(rest) = text.strip_prefix(BOM)
        {
            *text = rest.to_string();
            changed = true;
        }
    }
    changed
}

/// True when every row in `shape` is the line of that number in the file
/// its header names (under `root`), in Rho's line model (`rho`: the BOM is
/// part of line 1) or ours.
fn rows_are_lines(shape: &Shape, root: &std::path::Path, rho: bool) -> bool {
    let mut lines: Option<Vec<String>> = None;
    for item in &shape.items {
        match item {
            Item::Header { path, .. } => {
                lines = get_file(root, path).map(|bytes| {
                    if rho {
                        let text = String::from_utf8_lossy(&bytes).into_owned();
                        rho_lines(&text).into_iter().map(str::to_string).collect()
                    } else {
                        hashedit_core::Text::decode(&bytes)
                            .map(|t| t.lines().map(|(l, _)| l.to_string()).collect())
                            .unwrap_or_default()
                    }
                });
            }
            Item::Row { n, text } => {
                let Some(lines) = &lines else { return false };
                if lines.get(n - 1) != Some(text) {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// Only the headers of `shape`.
fn headers_only(shape: &Shape) -> Shape {
    Shape {
        items: shape
            .items
            .iter()
            .filter(|i| matches!(i, Item::Header { .. }))
            .cloned()
            .collect(),
    }
}

/// Replaces each header tag that is the tag of `bytes` (the file as that
/// side left it) with a placeholder, so two sides whose bytes differ on
/// purpose compare on everything but the tag.
fn neutral_tags(shape: &mut Shape, name: &str, bytes: Option<&[u8]>) {
    let Some(bytes) = bytes else { return };
    let own = TagScheme::Rho.tag_of(bytes).to_string();
    for item in &mut shape.items {
        if let Item::Header { path, tag } = item
            && path == name
            && *tag == own
        {
            *tag = "self".into();
        }
    }
}

/// One compared call: both sides, the explanation or the mismatch report.
struct Check<'a> {
    tally: &'a Tally,
    seed: u64,
    case: usize,
    kind: &'static str,
    peer: Peer,
}

impl Check<'_> {
    /// Records a failure of ours that needs no comparison.
    fn fail(&self, what: &str, context: &str) {
        self.tally.unexplained(
            self.kind,
            format!(
                "[{}] seed {:#x} case {}: {what}\n{}",
                self.kind,
                self.seed,
                self.case,
                common::clip_lines(context, 60)
            ),
        );
    }

    fn settle(&self, sides: &Sides, cats: BTreeSet<&'static str>, context: &str) {
        if sides.rho.class == Class::PeerFailed {
            self.tally.peer_failed(
                self.kind,
                format!(
                    "[{}] seed {:#x} case {}: Rho failed: {}\n{}",
                    self.kind,
                    self.seed,
                    self.case,
                    sides.rho.text,
                    common::clip_lines(context, 30)
                ),
            );
            return;
        }
        let mut cats = cats;
        let left = differences(sides);
        if left.is_empty() {
            if !sides.rho.ok() && sides.rho.text != sides.ours.text {
                cats.insert("failure_prose");
            }
            let cats: Vec<&'static str> = cats.into_iter().collect();
            self.tally.record(self.kind, &cats);
        } else {
            let mut report = String::new();
            let _ = writeln!(
                report,
                "[{}] seed {:#x} case {}: {}",
                self.kind,
                self.seed,
                self.case,
                left.join("\n")
            );
            let _ = writeln!(report, "{context}");
            let _ = writeln!(
                report,
                "explanations tried: {:?}",
                cats.iter().collect::<Vec<_>>()
            );
            let _ = writeln!(
                report,
                "--- Rho ({:?}):\n{}",
                sides.rho.class,
                common::clip_lines(&sides.rho.text, 30)
            );
            let _ = writeln!(
                report,
                "--- ours ({:?}):\n{}",
                sides.ours.class,
                common::clip_lines(&sides.ours.text, 30)
            );
            self.tally.unexplained(self.kind, report);
        }
    }
}

// ---------------------------------------------------------------------------
// Explaining an edit's differences.

fn explain_edit(
    pair: &Pair,
    model: &DocModel,
    originals: &[(String, Vec<u8>)],
    sides: &mut Sides,
    cats: &mut BTreeSet<&'static str>,
) {
    let names: Vec<String> = originals.iter().map(|(n, _)| n.clone()).collect();
    // Document rewrites: Rho refused something we accept on purpose, so it
    // gets the same edit in its own grammar and must then agree.
    let mut rho_model = model.clone();
    let mut rho_originals = originals.to_vec();
    let mut drop_summaries = false;
    let mut relax_focus = false;
    let bom_only: Vec<usize> = (0..originals.len())
        .filter(|&i| originals[i].1 == BOM.as_bytes())
        .collect();
    // Each rewrite may reveal the next refusal (a superset spelling hides
    // an overlap), so rewrite until Rho's answer stops changing.
    for _ in 0..4 {
        let mut rerun = false;
        if !sides.rho.ok() && rho_model.uses_superset() && cats.insert("superset_spelling") {
            rerun = true;
        }
        if sides.rho.class == Class::Overlap
            && rho_model.has_gt_end_of_span()
            && cats.insert("gt_end_of_span")
        {
            relax_focus = rho_model.gt_end_on_cut();
            rho_model = rho_model.fold_gt_end_of_span();
            rerun = true;
            drop_summaries = true;
        }
        if sides.rho.class == Class::Overlap
            && rho_model.has_duplicate_spans()
            && cats.insert("duplicate_span_once")
        {
            rho_model = rho_model.dedupe_spans();
            rerun = true;
            drop_summaries = true;
        }
        // An insert repeated verbatim lands once for us, twice for Rho.
        if sides.rho.ok()
            && sides.ours.ok()
            && sides.rho_files != sides.ours_files
            && rho_model.has_duplicate_inserts()
            && cats.insert("duplicate_insert_once")
        {
            rho_model = rho_model.dedupe_inserts();
            rerun = true;
            drop_summaries = true;
        }
        // A BOM-only file is empty to us: Rho gets an empty file.
        if !bom_only.is_empty() && cats.insert("bom_only_file_empty") {
            let empty_tag = TagScheme::Rho.tag_of(b"").to_string();
            let bom_tag = TagScheme::Rho.tag_of(BOM.as_bytes()).to_string();
            for &i in &bom_only {
                rho_model = rho_model.retag(&originals[i].0, &bom_tag, &empty_tag);
                rho_originals[i].1 = Vec::new();
            }
            rerun = true;
        }
        if !rerun {
            break;
        }
        for (name, bytes) in &rho_originals {
            put_file(pair.rho.root(), name, bytes);
        }
        sides.rho = rho_reply(pair.rho.edit_reply(&rho_model.render(true)));
        sides.rho_files = pair.files(&names).0;
        for &i in &bom_only {
            if let Some(bytes) = &mut sides.rho_files[i] {
                bytes.splice(0..0, BOM.bytes());
            }
        }
    }
    if drop_summaries {
        sides.rho.shape = without_summaries(&sides.rho.shape);
        sides.ours.shape = without_summaries(&sides.ours.shape);
    }
    if sides.rho.class != sides.ours.class {
        // Several faults in one document: each engine may name another
        // one first. Both refuse; the classes must be two faults the
        // document really has.
        let pair_of = [sides.rho.class, sides.ours.class];
        if pair_of.contains(&Class::Range) && pair_of.contains(&Class::Overlap) {
            let lines_of = |path: &str| {
                originals
                    .iter()
                    .find(|(n, _)| n == path)
                    .map_or(0, |(_, b)| FileInfo::new(path, b).lines.len())
            };
            let (range, overlap) = rho_model.faults(&lines_of);
            if range && overlap {
                cats.insert("fault_order");
                sides.rho.class = sides.ours.class;
                sides.rho.shape = sides.ours.shape.clone();
            }
        }
        return;
    }
    // Byte-level differences, file by file.
    let mut bytes_differed = vec![false; originals.len()];
    let mut relax = false;
    for (i, (_, original)) in originals.iter().enumerate() {
        let (Some(r), Some(o)) = (sides.rho_files[i].clone(), sides.ours_files[i].clone()) else {
            continue;
        };
        bytes_differed[i] = r != o || bom_only.contains(&i);
        if r == o {
            continue;
        }
        let original_text = String::from_utf8_lossy(original);
        // §3.2: our BOM stays at byte 0; Rho drops it (line 1 replaced) or
        // moves it (rows inserted before line 1). Compare without it.
        let (mut ours_view, mut rho_view) = (o.clone(), r.clone());
        let mut bom_moved = false;
        if original.starts_with(BOM.as_bytes()) && o.starts_with(BOM.as_bytes()) {
            ours_view.drain(..BOM.len());
            if let Some(at) = r.windows(BOM.len()).position(|w| w == BOM.as_bytes()) {
                rho_view.drain(at..at + BOM.len());
            }
            bom_moved = !r.starts_with(BOM.as_bytes());
        }
        let explained = if ours_view == rho_view {
            true
        } else if irregular_endings(original)
            && rejoined_like_rho(&ours_view, &original_text).as_ref() == Some(&rho_view)
        {
            // §3.1: Rho joins every line with one ending.
            let a = String::from_utf8_lossy(&o).into_owned();
            let b = String::from_utf8_lossy(&r).into_owned();
            if rho_lines(&a) == rho_lines(&b) {
                cats.insert("mixed_eol");
            } else {
                // Rho's own rewrite changed its line structure, so its
                // preview cannot show our rows.
                cats.insert("cr_line_structure");
                relax = true;
            }
            true
        } else if !original.ends_with(b"\n")
            && !original.ends_with(b"\r")
            && ["\n", "\r\n", "\r"].iter().any(|eol| {
                let mut longer = rho_view.clone();
                longer.extend_from_slice(eol.as_bytes());
                longer == ours_view
            })
        {
            // §3.1: an empty last line keeps its ending where Rho loses it.
            cats.insert("empty_last_line");
            relax = true;
            true
        } else {
            false
        };
        if explained {
            if bom_moved {
                cats.insert("bom_kept");
            }
            sides.ours_files[i] = Some(r);
        }
    }
    if relax || relax_focus {
        // The previews focus on different rows for the same bytes (our CUT
        // plus rows keeps the deletion's neighbours in focus; Rho's folded
        // replace does not; a changed line structure moves every row):
        // each side's rows must be true lines of its own result, and the
        // headers must agree.
        let ours_ok = rows_are_lines(&sides.ours.shape, pair.ours.root(), false);
        let rho_ok = rows_are_lines(&sides.rho.shape, pair.rho.root(), true);
        if ours_ok && rho_ok {
            sides.ours.shape = headers_only(&sides.ours.shape);
            sides.rho.shape = headers_only(&sides.rho.shape);
        }
    }
    // Tags of files whose bytes differ on purpose are each checked against
    // their own bytes, then set aside.
    for (i, (name, _)) in originals.iter().enumerate() {
        if bytes_differed[i] {
            let rho_now = get_file(pair.rho.root(), name);
            let ours_now = get_file(pair.ours.root(), name);
            neutral_tags(&mut sides.rho.shape, name, rho_now.as_deref());
            neutral_tags(&mut sides.ours.shape, name, ours_now.as_deref());
        }
    }
    // §3.2: Rho shows the BOM in row 1.
    if originals.iter().any(|(_, b)| b.starts_with(BOM.as_bytes()))
        && strip_bom_row(&mut sides.rho.shape)
    {
        cats.insert("bom_hidden");
    }
}

fn context_of(files: &[(String, Vec<u8>)], doc: &str) -> String {
    let mut out = String::new();
    for (name, bytes) in files {
        let _ = writeln!(out, "file {name}: {}", show_bytes(bytes));
    }
    let _ = writeln!(out, "document:\n{}", doc.escape_debug());
    out
}

// ---------------------------------------------------------------------------
// The case kinds.

fn edit_case(check: &Check, rng: &mut Rng, corpus: &[CorpusFile]) {
    let pair = Pair::new(check.peer);
    let first = pick_file(rng, corpus);
    let mut files = vec![(first.name.clone(), first.bytes.clone())];
    if rng.percent(12) {
        let second = pick_file(rng, corpus);
        if second.name != first.name {
            files.push((second.name.clone(), second.bytes.clone()));
        }
    }
    for (name, bytes) in &files {
        pair.put(name, bytes);
    }
    let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    let mut step = 0;
    loop {
        let infos: Vec<FileInfo> = files.iter().map(|(n, b)| FileInfo::new(n, b)).collect();
        let refs: Vec<&FileInfo> = infos.iter().collect();
        let mut model = gen_doc(rng, &refs);
        let mut doc = model.render(false);
        let mut sides = edit_sides(&pair, &names, &doc);
        let mut cats = BTreeSet::new();
        let mut refused_doc = None;
        // A refusal of rows in the other indentation style, or of rows
        // numbered as a read prints them: checked against the restated
        // rule, then compared again with the rows as the fix writes them
        // (re-indented, unnumbered): what the refusal hid must agree too.
        let mut failed = false;
        for _ in 0..2 {
            let (category, fixed) = if sides.ours.class == Class::Indent {
                (
                    "indent_style",
                    model.indent_refusal(&files, &sides.ours.text),
                )
            } else if sides.ours.class == Class::Parse
                && sides.ours.text.contains("as copied from a read (N:text)")
            {
                ("numbered_rows", model.numbered_refusal(&sides.ours.text))
            } else {
                break;
            };
            match fixed {
                Ok(fixed) => {
                    for (name, bytes) in &files {
                        pair.put(name, bytes);
                    }
                    cats.insert(category);
                    refused_doc.get_or_insert(doc);
                    model = fixed;
                    doc = model.render(false);
                    sides = edit_sides(&pair, &names, &doc);
                }
                Err(why) => {
                    check.fail(
                        &why,
                        &format!(
                            "{}\n--- ours:\n{}",
                            context_of(&files, &doc),
                            sides.ours.text
                        ),
                    );
                    failed = true;
                    break;
                }
            }
        }
        if failed {
            break;
        }
        let context = match &refused_doc {
            None => context_of(&files, &doc),
            Some(original) => format!(
                "{}(rows re-indented or unnumbered: we refused the generated document for them, checked)\noriginal document:\n{}\n",
                context_of(&files, &doc),
                original.escape_debug()
            ),
        };
        // Whatever Rho does, our preview rows must be true lines of the
        // file we wrote.
        if sides.ours.ok() && !rows_are_lines(&sides.ours.shape, pair.ours.root(), false) {
            check.fail(
                "our preview rows are not the lines of the file we wrote",
                &format!("{context}\n--- ours:\n{}", sides.ours.text),
            );
            break;
        }
        if !differences(&sides).is_empty() {
            explain_edit(&pair, &model, &files, &mut sides, &mut cats);
        }
        check.settle(&sides, cats, &context);
        // Chain: edit the result again from the reply's own header, while
        // both sides hold the same bytes.
        step += 1;
        let (rho_now, ours_now) = pair.files(&names);
        if step >= 3 || !sides.ours.ok() || rho_now != ours_now || !rng.percent(50) {
            break;
        }
        files = names
            .iter()
            .zip(ours_now)
            .filter_map(|(n, b)| b.map(|b| (n.clone(), b)))
            .collect();
        if files.len() != names.len() {
            break;
        }
    }
}

/// Sends `doc` to both sides over the files they hold now.
fn edit_sides(pair: &Pair, names: &[String], doc: &str) -> Sides {
    let rho = rho_reply(pair.rho.edit_reply(doc));
    let ours = pair.ours.edit(doc);
    let (rho_files, ours_files) = pair.files(names);
    Sides {
        rho,
        ours,
        rho_files,
        ours_files,
    }
}

fn pick_file<'a>(rng: &mut Rng, corpus: &'a [CorpusFile]) -> &'a CorpusFile {
    // Edge files are few but dense in trouble: give them half the draws.
    let edges: Vec<&CorpusFile> = corpus
        .iter()
        .filter(|f| f.name.starts_with("edge/"))
        .collect();
    if !edges.is_empty() && rng.percent(50) {
        return edges[rng.below(edges.len())];
    }
    &corpus[rng.below(corpus.len())]
}

fn read_case(check: &Check, rng: &mut Rng, corpus: &[CorpusFile]) {
    let pair = Pair::new(check.peer);
    let file = pick_file(rng, corpus);
    pair.put(&file.name, &file.bytes);
    let total = FileInfo::new(&file.name, &file.bytes).lines.len();
    let (offset, limit) = match rng.below(10) {
        0..=3 => (None, None),
        4 | 5 => (Some(rng.between(1, total + 2)), None),
        6..=8 => (Some(rng.between(1, total + 1)), Some(rng.between(1, 60))),
        _ => (Some(rng.below(2)), Some(rng.below(3))),
    };
    let rho = rho_reply(pair.rho.read_reply(&file.name, offset, limit));
    let ours = pair.ours.read(&file.name, offset, limit);
    let mut sides = Sides {
        rho,
        ours,
        rho_files: vec![],
        ours_files: vec![],
    };
    let mut cats = BTreeSet::new();
    explain_view(&mut sides, &file.bytes, &mut cats);
    let context = format!(
        "file {}: {}\nread offset {offset:?} limit {limit:?}",
        file.name,
        show_bytes(&file.bytes)
    );
    check.settle(&sides, cats, &context);
}

/// Differences a read or write snapshot may show on purpose.
fn explain_view(sides: &mut Sides, bytes: &[u8], cats: &mut BTreeSet<&'static str>) {
    if differences(sides).is_empty() {
        return;
    }
    if bytes == BOM.as_bytes() {
        // Rho's one row holding U+FEFF; ours has none.
        let before = sides.rho.shape.items.len();
        sides
            .rho
            .shape
            .items
            .retain(|i| !matches!(i, Item::Row { n: 1, text } if text == BOM));
        if sides.rho.shape.items.len() != before {
            cats.insert("bom_only_file_empty");
        }
    } else if bytes.starts_with(BOM.as_bytes()) && strip_bom_row(&mut sides.rho.shape) {
        cats.insert("bom_hidden");
    }
    if sides.rho.ok() && sides.ours.class == Class::NotText && bytes.contains(&0) {
        cats.insert("binary_refused");
        sides.rho = sides.ours.clone();
    }
    if sides.rho.ok() && sides.ours.ok() && sides.rho.text.ends_with("\n[truncated]") {
        explain_read_budget(sides, cats);
    }
}

/// Rho cut the read at the byte budget (possibly mid-row); we stopped at
/// the last whole row and said so. Our rows must be a prefix of Rho's,
/// ending at most two rows before Rho's cut.
fn explain_read_budget(sides: &mut Sides, cats: &mut BTreeSet<&'static str>) {
    let rho_rows = sides.rho.shape.rows();
    let ours_rows = sides.ours.shape.rows();
    if ours_rows.is_empty() || ours_rows.len() > rho_rows.len() {
        return;
    }
    let prefix = ours_rows.iter().zip(&rho_rows).all(|(o, r)| o == r);
    // We keep room for the footer (about 170 bytes plus the path): Rho may
    // show a few more rows, never more than that room.
    let extra: usize = rho_rows[ours_rows.len()..]
        .iter()
        .map(|(n, text)| n.to_string().len() + text.len() + 2)
        .sum();
    let close = extra <= 400;
    let first = ours_rows.first().map(|(n, _)| *n as u64).unwrap_or(0);
    let last = ours_rows.last().map(|(n, _)| *n as u64).unwrap_or(0);
    let footer_ok = sides
        .ours
        .shape
        .items
        .iter()
        .any(|i| matches!(i, Item::Notice(n) if n.len() >= 3 && n[0] == first && n[1] == last));
    if prefix && close && footer_ok {
        cats.insert("read_budget");
        let keep = ours_rows.len();
        let trim = |shape: &Shape| Shape {
            items: shape
                .items
                .iter()
                .filter(|i| !matches!(i, Item::Notice(_)))
                .scan(0usize, |rows, item| {
                    if matches!(item, Item::Row { .. }) {
                        *rows += 1;
                        if *rows > keep {
                            return Some(None);
                        }
                    }
                    Some(Some(item.clone()))
                })
                .flatten()
                .collect(),
        };
        sides.rho.shape = trim(&sides.rho.shape);
        sides.ours.shape = trim(&sides.ours.shape);
    }
}

fn write_case(check: &Check, rng: &mut Rng, corpus: &[CorpusFile]) {
    let pair = Pair::new(check.peer);
    let existing = pick_file(rng, corpus);
    pair.put(&existing.name, &existing.bytes);
    let path = if rng.percent(50) {
        existing.name.clone()
    } else {
        format!("new/dir{}/written.txt", rng.below(10))
    };
    let source = pick_file(rng, corpus);
    let content = match rng.below(10) {
        0 => String::new(),
        1 => "[a.md#1A2B]\n1:# Title\n2:text\n".to_string(),
        _ => String::from_utf8_lossy(&source.bytes).into_owned(),
    };
    let rho = rho_reply(pair.rho.write_reply(&path, &content));
    // Rho writes over a file unread; ours is given the tag a model that
    // read it would pass.
    let tag = (path == existing.name).then(|| pair.ours.tag_of(&existing.bytes));
    let ours = pair.ours.write(&path, &content, tag);
    let (rho_files, ours_files) = pair.files(std::slice::from_ref(&path));
    let mut sides = Sides {
        rho,
        ours,
        rho_files,
        ours_files,
    };
    let mut cats = BTreeSet::new();
    let pasted = hashedit_tools::looks_like_read_output(&content)
        || hashedit_tools::looks_like_read_rows(&content);
    if sides.rho.ok() && !sides.ours.ok() && pasted {
        // Refused, and the file left as it was.
        let before = (path == existing.name).then(|| existing.bytes.clone());
        if sides.ours_files[0] == before {
            cats.insert("write_read_output");
            sides.rho = sides.ours.clone();
            sides.rho_files = sides.ours_files.clone();
        }
    }
    explain_view(&mut sides, content.as_bytes(), &mut cats);
    let context = format!(
        "write {path} (existing {}): {}",
        existing.name,
        show_bytes(content.as_bytes())
    );
    check.settle(&sides, cats, &context);
}

fn grep_case(check: &Check, rng: &mut Rng, corpus: &[CorpusFile]) {
    let pair = Pair::new(check.peer);
    let file = pick_file(rng, corpus);
    pair.put(&file.name, &file.bytes);
    let info = FileInfo::new(&file.name, &file.bytes);
    let pattern = info
        .lines
        .get(rng.below(info.lines.len().max(1)))
        .and_then(|line| {
            line.split(|c: char| !c.is_alphanumeric() && c != '_')
                .find(|w| w.len() >= 3)
                .map(str::to_string)
        })
        .unwrap_or_else(|| "line".into());
    let dir = file.name.rsplit_once('/').map(|(d, _)| d.to_string());
    let path = match rng.below(3) {
        0 => None,
        1 => dir,
        _ => Some(file.name.clone()),
    };
    let args = serde_json::json!({"pattern": pattern, "literal": true, "path": path.clone().unwrap_or(".".into())});
    let rho = rho_reply(pair.rho.grep_reply(args));
    let ours = pair.ours.grep_literal(&pattern, path.as_deref());
    let keep = |shape: &Shape| Shape {
        items: shape
            .items
            .iter()
            .filter(|i| matches!(i, Item::Header { .. } | Item::Match { .. }))
            .cloned()
            .collect(),
    };
    let mut sides = Sides {
        rho: Reply {
            shape: keep(&rho.shape),
            ..rho
        },
        ours: Reply {
            shape: keep(&ours.shape),
            ..ours
        },
        rho_files: vec![],
        ours_files: vec![],
    };
    let mut cats = BTreeSet::new();
    if file.bytes.starts_with(BOM.as_bytes()) && strip_bom_row(&mut sides.rho.shape) {
        cats.insert("bom_hidden");
    }
    let context = format!(
        "file {}: {}\ngrep {pattern:?} path {path:?}",
        file.name,
        show_bytes(&file.bytes)
    );
    check.settle(&sides, cats, &context);
}

// ---------------------------------------------------------------------------
// The tests.

fn run_parallel(cases: usize, work: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cases {
                        break;
                    }
                    work(i);
                }
            });
        }
    });
}

/// Reads, edits, writes and greps from the seeded generator.
#[test]
fn rho_differential() {
    run_differential(Peer::Rho, common::seed(), common::case_count(400))
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Runs `cases` cases of the differential against `peer`; the verdict of
/// [`Tally::finish`].
fn run_differential(peer: Peer, seed: u64, cases: usize) -> Result<(), String> {
    let started = Instant::now();
    let corpus = corpus::standard(300_000);
    assert!(corpus.len() > 20, "corpus too small: {}", corpus.len());
    let tally = Tally::new("diff_rho", CATALOGUE);
    run_parallel(cases, |i| {
        let mut rng = Rng::for_case(seed, i as u64);
        let kind = match rng.below(100) {
            0..=24 => "read",
            25..=79 => "edit",
            80..=89 => "write",
            _ => "grep",
        };
        let check = Check {
            tally: &tally,
            seed,
            case: i,
            kind,
            peer,
        };
        match kind {
            "read" => read_case(&check, &mut rng, &corpus),
            "edit" => edit_case(&check, &mut rng, &corpus),
            "write" => write_case(&check, &mut rng, &corpus),
            _ => grep_case(&check, &mut rng, &corpus),
        }
    });
    tally.finish(started.elapsed())
}

/// Done-when of issue 24: pointed at a Rho that fails every call, the
/// differential fails, naming the floor of real comparisons it missed.
#[test]
fn a_peer_that_fails_every_call_fails_the_differential() {
    let error = run_differential(Peer::Failing, common::DEFAULT_SEED, 40)
        .expect_err("a differential against a failing Rho must fail");
    assert!(
        error.contains("compared 0 of ")
            && error.contains("under the floor of 95 %: the peer failed"),
        "{}",
        common::clip_lines(&error, 20)
    );
}

/// The tally's own rules can fail: an intended difference over its
/// ceiling, and a run that compared under the floor.
#[test]
fn the_tally_fails_a_ceiling_and_the_floor() {
    let tally = Tally::new("ceiling", CATALOGUE);
    for _ in 0..90 {
        tally.record("edit", &[]);
    }
    for _ in 0..10 {
        tally.record("edit", &["bom_kept"]);
    }
    let error = tally.finish(std::time::Duration::ZERO).unwrap_err();
    assert_eq!(
        error,
        "ceiling: intended difference 'bom_kept' explains 10 of 100 compared calls, over its \
         ceiling of 2 % (+2): 4"
    );
    let tally = Tally::new("floor", CATALOGUE);
    for _ in 0..94 {
        tally.record("read", &[]);
    }
    for i in 0..6 {
        tally.peer_failed("read", format!("case {i}"));
    }
    let error = tally.finish(std::time::Duration::ZERO).unwrap_err();
    assert_eq!(
        error,
        "floor: compared 94 of 100 calls, under the floor of 95 %: the peer failed 6 of them; the \
         first:\ncase 0"
    );
    let tally = Tally::new("fine", CATALOGUE);
    for _ in 0..95 {
        tally.record("read", &[]);
    }
    for i in 0..5 {
        tally.peer_failed("read", format!("case {i}"));
    }
    assert_eq!(tally.finish(std::time::Duration::ZERO), Ok(()));
}

/// Tag compatibility is a hard requirement: a whole read of every corpus
/// file mints the same header on both sides.
#[test]
fn rho_tags_match_on_every_corpus_file() {
    let started = Instant::now();
    let tally = Tally::new("diff_rho tags", CATALOGUE);
    let pair = Pair::new(Peer::Rho);
    let mut corpus = corpus::standard(usize::MAX);
    corpus.extend(corpus::unreadable_files());
    for (i, file) in corpus.iter().enumerate() {
        pair.put(&file.name, &file.bytes);
        let rho = rho_reply(pair.rho.read_reply(&file.name, None, None));
        let ours = pair.ours.read(&file.name, None, None);
        if rho.ok() {
            assert_eq!(
                rho.shape.headers().first().map(|h| h.1.to_string()),
                Some(TagScheme::Rho.tag_of(&file.bytes).to_string()),
                "Rho's tag for {} is not the rho scheme's",
                file.name
            );
        }
        let mut sides = Sides {
            rho,
            ours,
            rho_files: vec![],
            ours_files: vec![],
        };
        if sides.rho.ok() && sides.ours.ok() {
            assert_eq!(
                sides.rho.shape.headers(),
                sides.ours.shape.headers(),
                "tags differ for {}",
                file.name
            );
        }
        let mut cats = BTreeSet::new();
        explain_view(&mut sides, &file.bytes, &mut cats);
        let check = Check {
            tally: &tally,
            seed: 0,
            case: i,
            kind: "read",
            peer: Peer::Rho,
        };
        check.settle(&sides, cats, &format!("whole read of {}", file.name));
    }
    tally
        .finish(started.elapsed())
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Whole-file reads of files over Rho's 25 MiB input cap: Rho refuses, we
/// stream the head in bounded memory with the full-file tag.
#[test]
fn rho_huge_file_streams() {
    let started = Instant::now();
    let tally = Tally::new("diff_rho huge", CATALOGUE).with_ceiling("huge_file_stream", 100);
    let pair = Pair::new(Peer::Rho);
    let line = "0123456789abcdef0123456789abcdef0123456789abcdef012345678\n";
    let count = 26 * 1024 * 1024 / line.len() + 10;
    let bytes = line.repeat(count).into_bytes();
    assert!(bytes.len() > 26_214_400);
    pair.put("huge.txt", &bytes);
    let tag = TagScheme::Rho.tag_of(&bytes).to_string();
    let reads = [
        (None, None),
        (Some(count - 2), Some(5)),
        (Some(200_000), Some(3)),
    ];
    for (case, (offset, limit)) in reads.into_iter().enumerate() {
        let rho = rho_reply(pair.rho.read_reply("huge.txt", offset, limit));
        let ours = pair.ours.read("huge.txt", offset, limit);
        let mut cats = BTreeSet::new();
        let first = offset.unwrap_or(1);
        let mut sides = Sides {
            rho,
            ours,
            rho_files: vec![],
            ours_files: vec![],
        };
        if !sides.rho.ok()
            && sides.rho.text.contains("input limit")
            && sides.ours.ok()
            && sides.ours.shape.headers() == vec![("huge.txt", tag.as_str())]
            && sides.ours.shape.rows().first() == Some(&(first, line.trim_end()))
        {
            cats.insert("huge_file_stream");
            sides.rho = sides.ours.clone();
        }
        let check = Check {
            tally: &tally,
            seed: 0,
            case,
            kind: "read",
            peer: Peer::Rho,
        };
        check.settle(
            &sides,
            cats,
            &format!("read of a 26 MiB file, offset {offset:?} limit {limit:?}"),
        );
    }
    tally
        .finish(started.elapsed())
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Rho's line model and EOL rule as restated above.
#[test]
fn restated_rho_rules_match_reference() {
    assert_eq!(rho_lines(""), Vec::<&str>::new());
    assert_eq!(rho_lines("\n"), vec![""]);
    assert_eq!(rho_lines("a\r\r\nb\n"), vec!["a\r", "b"]);
    assert_eq!(rho_lines("a\rb\rc\r"), vec!["a\rb\rc"]);
    assert_eq!(rho_eol("a\r\nb\nc\r\nd\r\n"), "\r\n");
    assert_eq!(rho_eol("a\nb\r"), "\n");
    assert_eq!(rho_eol("a\rb\rc\r"), "\r");
    assert!(irregular_endings(b"a\r\nb\n"));
    assert!(!irregular_endings(b"a\r\nb\r\nc"));
    assert_eq!(
        rejoined_like_rho(b"a\r\nB\nc\r\n", "a\r\nb\r\nc\r\n").unwrap(),
        b"a\r\nB\r\nc\r\n"
    );
    let model = DocModel {
        sections: vec![SectionModel {
            path: "f.txt".into(),
            tag: "ABCD".into(),
            style: HeaderStyle::Plain,
            ops: vec![
                Op::Delete {
                    start: 2,
                    end: 3,
                    spell: Spell::DotEq,
                    colon: false,
                },
                Op::After {
                    line: 3,
                    body: vec!["x".into()],
                },
            ],
        }],
        prelude: vec![],
        keyword: "PUT",
        crlf: false,
        blank_between: false,
        final_newline: true,
        envelope: false,
    };
    assert!(model.has_gt_end_of_span());
    assert_eq!(
        model.fold_gt_end_of_span().render(true),
        "[f.txt#ABCD]\nPUT 2.=3:\n+x\n"
    );
}

/// The numbered-rows rule as restated above, against our tool's own
/// refusals (no peer needed).
#[test]
fn restated_numbered_rule_matches_our_refusals() {
    let rows = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let file = b"one\ntwo\nthree\nfour\n";
    let tag = TagScheme::Rho.tag_of(file).to_string();
    // Numbered exactly with the replaced lines: repaired (with a warning).
    let ours = Ours::new(TagScheme::Rho);
    put_file(ours.root(), "a.txt", file);
    let reply = ours.edit(&format!("[a.txt#{tag}]\nPUT 2.=3:\n+2:TWO\n+3:THREE\n"));
    assert_eq!(reply.class, Class::Ok, "{}", reply.text);
    assert_eq!(
        get_file(ours.root(), "a.txt").unwrap(),
        b"one\nTWO\nTHREE\nfour\n"
    );
    for (doc_ops, op, flagged) in [
        (
            "PUT 2.=3:\n+2:TWO\n+3:THREE\n+4:X",
            Op::Replace {
                start: 2,
                end: 3,
                body: rows(&["2:TWO", "3:THREE", "4:X"]),
                spell: Spell::DotEq,
            },
            Some(rows(&["TWO", "THREE", "X"])),
        ),
        // Numbers that do not start at the op's line are content.
        (
            "PUT 2:\n+7:x",
            Op::Replace {
                start: 2,
                end: 2,
                body: rows(&["7:x"]),
                spell: Spell::Single,
            },
            None,
        ),
        // Numbers that do not count up by one are content.
        (
            "PUT >1:\n+2:a\n+4:b",
            Op::After {
                line: 1,
                body: rows(&["2:a", "4:b"]),
            },
            None,
        ),
        (
            "PUT <3:\n+2:a",
            Op::Before {
                line: 3,
                body: rows(&["2:a"]),
            },
            Some(rows(&["a"])),
        ),
        // At the end one numbered row is content (`12:30 standup`)...
        (
            "PUT >$:\n+12:30 standup",
            Op::End {
                body: rows(&["12:30 standup"]),
            },
            None,
        ),
        // ...and two or more counting up from any number are a paste.
        (
            "PUT >$:\n+40:x\n+41:",
            Op::End {
                body: rows(&["40:x", "41:"]),
            },
            Some(rows(&["x", ""])),
        ),
        // One row without a number keeps the body as content.
        (
            "PUT >$:\n+5:x\n+y",
            Op::End {
                body: rows(&["5:x", "y"]),
            },
            None,
        ),
    ] {
        assert_eq!(numbered_rows(&op), flagged, "{doc_ops}");
        let ours = Ours::new(TagScheme::Rho);
        put_file(ours.root(), "a.txt", file);
        let reply = ours.edit(&format!("[a.txt#{tag}]\n{doc_ops}\n"));
        if flagged.is_some() {
            assert_eq!(reply.class, Class::Parse, "{doc_ops}: {}", reply.text);
            assert!(
                reply
                    .text
                    .contains("edit document line 2: every body row starts with a line number"),
                "{doc_ops}: {}",
                reply.text
            );
        } else {
            assert_eq!(reply.class, Class::Ok, "{doc_ops}: {}", reply.text);
        }
    }
}
