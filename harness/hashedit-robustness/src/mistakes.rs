//! The mistakes models make in hashline documents, each with its intended
//! result.
//!
//! A [`Variant`] is what the benchmark hands an engine: a document, the
//! file the model read (the task's original, or its target for an insert
//! that restores what a deletion task removed), the file on disk when
//! the edit arrives (the original, or a drifted copy), and the bytes the
//! author *meant*. The intended result is stated per mistake, from the
//! author's point of view, never from any engine's:
//!
//! * a mistake in spelling (missing `+`, pasted `N:` prefixes, diff `-`
//!   rows, fences, CRLF, lowercase tag, `PUT 12.:`, duplicated or reversed
//!   hunks, tabs turned into spaces) meant the oracle target;
//! * an off-by-one range meant the oracle target, so applying it as written
//!   is applied wrongly unless refused;
//! * a body restating a neighbour line meant the oracle target (the
//!   restated line was context, not new content): at one edge or both, the
//!   anchor line of an insert, or the closing line below a body;
//! * rows whose indentation was dropped meant the indented lines, the
//!   target;
//! * a body that elides kept lines behind a placeholder comment
//!   (`// ... existing code ...`) meant those lines to stay: the target, so
//!   applying it as written is applied wrongly unless refused;
//! * a range one line short (the rows of a replacement all there, its last
//!   line left out of the range) meant the target too;
//! * a range widened to retype kept lines exactly meant — and, applied as
//!   written, gives — the oracle target;
//! * a stale tag (the file changed after the read, away from the edit)
//!   meant the oracle edit carried onto the changed file.

use crate::document::{DocOp, DocSpec, header, op, oracle_ops, plus_rows};
use crate::forms::sub::{SubStyle, sub_ops};
use crate::hunks::{Hunk, Lines, apply};
use crate::literal::literal;
use crate::mutate::Task;
use crate::rng::Rng;

mod body;
mod echo;
mod edges;
mod ranges;
mod stale;

use body::{dropped_indentation, elision};
use echo::echo;
use edges::{both_edges, echoed_closer, insert_anchor};
use ranges::{off_by_one, one_short, widened};
pub(crate) use stale::{comment, far_lines, moved};
use stale::{stale_drift, stale_whitespace};

/// Nearest distance (in lines) between a drift and any edited line.
pub const DRIFT_DISTANCE: usize = 3;

/// A kind of document, correct or carrying one kind of mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mistake {
    /// The correct document, from the line diff.
    Oracle,
    /// One hunk's range off by one line (shifted, one too long or short).
    OffByOne,
    /// The file changed between read and edit, away from the edited lines.
    StaleDrift,
    /// The file changed between read and edit in trailing whitespace only.
    StaleWhitespace,
    /// Body rows pasted from a read as `N:text`, without `+`.
    PastedPrefix,
    /// Body rows written as `+N:text`.
    PastedPrefixPlus,
    /// Body rows without `+`.
    MissingPlus,
    /// A body restating the unchanged line above or below its range.
    EchoNeighbour,
    /// A range widened by a line, the extra line retyped exactly.
    WidenedRange,
    /// Unified-diff `-old` rows before the `+new` rows.
    DiffMinusRows,
    /// The document wrapped in a Markdown code fence.
    CodeFence,
    /// Every line ending in CRLF.
    CrlfDocument,
    /// Leading tabs of body rows turned into spaces.
    TabsToSpaces,
    /// The tag in lowercase hex.
    LowercaseTag,
    /// Single-line replacements written `PUT 12.:`.
    PutDotColon,
    /// One hunk written twice.
    DuplicatedHunk,
    /// Hunks in reverse order.
    ReversedHunks,
    /// One body restating both the kept line above and the one below.
    EchoBothEdges,
    /// An insert restating its anchor: `PUT >N:` starting with line N, or
    /// `PUT <N:` ending with it.
    EchoInInsert,
    /// A body ending with the closing line (`}`, `)`, `end`…) below it.
    EchoedCloser,
    /// Body rows with their leading whitespace stripped.
    DroppedIndentation,
    /// Kept lines inside a replaced range elided behind a placeholder
    /// comment (`// ... existing code ...`).
    ElisionPlaceholder,
    /// A replacement's range missing its last line.
    RangeOneShort,
}

impl Mistake {
    /// Every kind, in table order. Appended kinds keep the streams (and so
    /// the documents) of the earlier ones: a kind's stream is its index.
    pub const ALL: [Mistake; 23] = [
        Mistake::Oracle,
        Mistake::OffByOne,
        Mistake::StaleDrift,
        Mistake::StaleWhitespace,
        Mistake::PastedPrefix,
        Mistake::PastedPrefixPlus,
        Mistake::MissingPlus,
        Mistake::EchoNeighbour,
        Mistake::WidenedRange,
        Mistake::DiffMinusRows,
        Mistake::CodeFence,
        Mistake::CrlfDocument,
        Mistake::TabsToSpaces,
        Mistake::LowercaseTag,
        Mistake::PutDotColon,
        Mistake::DuplicatedHunk,
        Mistake::ReversedHunks,
        Mistake::EchoBothEdges,
        Mistake::EchoInInsert,
        Mistake::EchoedCloser,
        Mistake::DroppedIndentation,
        Mistake::ElisionPlaceholder,
        Mistake::RangeOneShort,
    ];

    /// The kinds added to measure the guards of issue 13 (echo, syntax,
    /// elision and range refusals): their figures are pinned in CI, not
    /// required to land.
    pub const GUARDED: [Mistake; 6] = [
        Mistake::EchoBothEdges,
        Mistake::EchoInInsert,
        Mistake::EchoedCloser,
        Mistake::DroppedIndentation,
        Mistake::ElisionPlaceholder,
        Mistake::RangeOneShort,
    ];

    /// Kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Mistake::Oracle => "oracle",
            Mistake::OffByOne => "off-by-one-range",
            Mistake::StaleDrift => "stale-tag-drift",
            Mistake::StaleWhitespace => "stale-tag-whitespace",
            Mistake::PastedPrefix => "pasted-N:-rows",
            Mistake::PastedPrefixPlus => "pasted-+N:-rows",
            Mistake::MissingPlus => "missing-plus",
            Mistake::EchoNeighbour => "echoed-neighbour",
            Mistake::WidenedRange => "widened-range",
            Mistake::DiffMinusRows => "diff-minus-rows",
            Mistake::CodeFence => "code-fence",
            Mistake::CrlfDocument => "crlf-document",
            Mistake::TabsToSpaces => "tabs-to-spaces",
            Mistake::LowercaseTag => "lowercase-tag",
            Mistake::PutDotColon => "put-N.:",
            Mistake::DuplicatedHunk => "duplicated-hunk",
            Mistake::ReversedHunks => "reversed-hunks",
            Mistake::EchoBothEdges => "echo-both-edges",
            Mistake::EchoInInsert => "echo-in-insert",
            Mistake::EchoedCloser => "echoed-closer",
            Mistake::DroppedIndentation => "dropped-indentation",
            Mistake::ElisionPlaceholder => "elision-placeholder",
            Mistake::RangeOneShort => "range-one-short",
        }
    }

    /// Whether a document carrying this mistake holds any evidence of it.
    /// An off-by-one range (one line short among them) is a well-formed
    /// edit of other lines; no engine can tell it from a correct one
    /// without guessing.
    pub fn detectable(self) -> bool {
        !matches!(self, Mistake::OffByOne | Mistake::RangeOneShort)
    }
}

/// A document for one task, with the state of the file it meets and the
/// result its author intended.
#[derive(Debug, Clone)]
pub struct Variant {
    /// The mistake it carries.
    pub mistake: Mistake,
    /// Which form of the mistake (e.g. `shift-down`, `leading`).
    pub form: &'static str,
    /// The document.
    pub doc: DocSpec,
    /// The file the model read: the task's original, or for an insert
    /// made from a deletion task its target (the edit restores the lines).
    pub served: Lines,
    /// The file when the edit arrives (the one served unless it drifted).
    pub live: Lines,
    /// The file the author meant.
    pub intended: Lines,
    /// The file the document gives when applied exactly as written to
    /// `live` ([`literal`]); `None` when it has no literal reading.
    pub literal: Option<Lines>,
}

impl Variant {
    /// Whether applying the document as written would give other bytes
    /// than meant: a refusal then prevented a wrong write. `None` when the
    /// document has no literal reading.
    pub fn literal_is_wrong(&self) -> Option<bool> {
        self.literal.as_ref().map(|l| *l != self.intended)
    }
}

/// Makes the variant of `task` carrying `mistake`; `None` when the task
/// has no place for it (e.g. tabs in a file indented with spaces).
pub fn variant(task: &Task, mistake: Mistake, rng: &mut Rng) -> Option<Variant> {
    let mut v = build(task, mistake, rng)?;
    v.literal = literal(&v.doc, &v.live);
    Some(v)
}

/// The [`Mistake::OffByOne`] variant of `task`, drawn from `rng` as
/// [`variant`] draws it (the same hunk, moved or resized the same way),
/// written as `SUB` ops that restate the lines they replace
/// ([`SubStyle::WholeLines`], the verified replace): the op of the moved
/// hunk keeps its `-` and `+` rows and its locator moves as the range did.
/// A model that says what it believes is on the lines sends this; the
/// engine should refuse it, or land it as meant where the locator still
/// holds the text (a range one line too long). `None` where the task has
/// no such variant or `SUB` ops cannot write the edit.
pub fn off_by_one_through_sub(task: &Task, rng: &mut Rng) -> Option<Variant> {
    let (form, i, wrong, _) = ranges::off_by_one_hunk(task, rng)?;
    let span = |h: &Hunk| match h {
        Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => (*start, *end),
        Hunk::Insert { after, .. } => (*after, *after),
    };
    let ((s, e), (ws, we)) = (span(&task.hunks[i]), span(&wrong));
    let groups = sub_ops(&task.original, &task.hunks, SubStyle::WholeLines)?;
    let n = task.original.len();
    let mut ops = Vec::with_capacity(groups.len());
    for group in groups {
        let mut op = group.op;
        if group.hunks.contains(&i) {
            let (a, b) = op.locator?;
            let a = (a + ws).checked_sub(s).filter(|&a| a >= 1)?;
            let b = (b + we).checked_sub(e).filter(|&b| b >= a && b <= n)?;
            op.locator = Some((a, b));
        }
        ops.push(op.doc_op());
    }
    Some(Variant {
        mistake: Mistake::OffByOne,
        form,
        doc: DocSpec::new(&task.path, ops),
        served: task.original.clone(),
        live: task.original.clone(),
        intended: task.target.clone(),
        literal: None,
    })
    .map(|mut v| {
        v.literal = literal(&v.doc, &v.live);
        v
    })
}

/// The variant, its literal result left to [`variant`].
fn build(task: &Task, mistake: Mistake, rng: &mut Rng) -> Option<Variant> {
    let original = &task.original;
    let plain = |form, ops| {
        Some(Variant {
            mistake,
            form,
            doc: DocSpec::new(&task.path, ops),
            served: original.clone(),
            live: original.clone(),
            intended: task.target.clone(),
            literal: None,
        })
    };
    let hunks = &task.hunks;
    match mistake {
        Mistake::Oracle => plain("exact", oracle_ops(hunks)),
        Mistake::OffByOne => off_by_one(task, rng).and_then(|(form, ops)| plain(form, ops)),
        Mistake::StaleDrift => stale_drift(task, rng),
        Mistake::StaleWhitespace => stale_whitespace(task, rng),
        Mistake::PastedPrefix | Mistake::PastedPrefixPlus => {
            let plus = if mistake == Mistake::PastedPrefixPlus {
                "+"
            } else {
                ""
            };
            let ops = with_rows(hunks, |hunk, rows| {
                let first = match hunk {
                    Hunk::Replace { start, .. } => *start,
                    Hunk::Insert { after, .. } => after + 1,
                    Hunk::Delete { .. } => unreachable!("deletions have no rows"),
                };
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| format!("{plus}{}:{r}", first + i))
                    .collect()
            })?;
            plain("all-bodies", ops)
        }
        Mistake::MissingPlus => plain("all-bodies", with_rows(hunks, |_, rows| rows.to_vec())?),
        Mistake::EchoNeighbour => echo(task, rng).and_then(|(form, ops)| plain(form, ops)),
        Mistake::WidenedRange => widened(task, rng).and_then(|(form, ops)| plain(form, ops)),
        Mistake::DiffMinusRows => {
            if !hunks.iter().any(|h| matches!(h, Hunk::Replace { .. })) {
                return None;
            }
            let ops = hunks
                .iter()
                .map(|hunk| match hunk {
                    Hunk::Replace { start, end, rows } => DocOp {
                        header: header(hunk),
                        rows: (*start..=*end)
                            .map(|n| format!("-{}", original.line(n)))
                            .chain(plus_rows(rows))
                            .collect(),
                    },
                    _ => op(hunk),
                })
                .collect();
            plain("minus-then-plus", ops)
        }
        Mistake::CodeFence => {
            let mut v = plain("whole-document", oracle_ops(hunks))?;
            let fence = *rng.pick(&["```", "```hashline", "```diff"]);
            v.doc.fence = Some(fence.to_string());
            Some(v)
        }
        Mistake::CrlfDocument => {
            let mut v = plain("every-line", oracle_ops(hunks))?;
            v.doc.crlf = true;
            Some(v)
        }
        Mistake::TabsToSpaces => {
            let tabbed = hunks
                .iter()
                .filter_map(Hunk::rows)
                .flatten()
                .any(|r| r.starts_with('\t'));
            if !tabbed {
                return None;
            }
            let ops = with_rows(hunks, |_, rows| {
                rows.iter()
                    .map(|r| {
                        let tabs = r.len() - r.trim_start_matches('\t').len();
                        format!("+{}{}", "    ".repeat(tabs), &r[tabs..])
                    })
                    .collect()
            })?;
            plain("four-spaces", ops)
        }
        Mistake::LowercaseTag => {
            let mut v = plain("header", oracle_ops(hunks))?;
            v.doc.lowercase_tag = true;
            Some(v)
        }
        Mistake::PutDotColon => {
            let single = |h: &Hunk| matches!(h, Hunk::Replace { start, end, .. } if start == end);
            if !hunks.iter().any(single) {
                return None;
            }
            let ops = hunks
                .iter()
                .map(|hunk| match hunk {
                    Hunk::Replace { start, .. } if single(hunk) => DocOp {
                        header: format!("PUT {start}.:"),
                        ..op(hunk)
                    },
                    _ => op(hunk),
                })
                .collect();
            plain("single-line-puts", ops)
        }
        Mistake::DuplicatedHunk => {
            let i = rng.below(hunks.len());
            let mut ops = oracle_ops(hunks);
            ops.insert(i + 1, ops[i].clone());
            let form = match hunks[i] {
                Hunk::Replace { .. } => "replace",
                Hunk::Delete { .. } => "cut",
                Hunk::Insert { .. } => "insert",
            };
            plain(form, ops)
        }
        Mistake::ReversedHunks => {
            if hunks.len() < 2 {
                return None;
            }
            let mut ops = oracle_ops(hunks);
            ops.reverse();
            plain("all", ops)
        }
        Mistake::EchoBothEdges => both_edges(task, rng).and_then(|(form, ops)| plain(form, ops)),
        Mistake::EchoInInsert => insert_echo(task, rng),
        Mistake::EchoedCloser => echoed_closer(task, rng).and_then(|(form, ops)| plain(form, ops)),
        Mistake::DroppedIndentation => {
            dropped_indentation(task).and_then(|(form, ops)| plain(form, ops))
        }
        Mistake::ElisionPlaceholder => elision(task, rng).and_then(|(form, ops)| plain(form, ops)),
        Mistake::RangeOneShort => one_short(task, rng).and_then(|(form, ops)| plain(form, ops)),
    }
}

/// The oracle ops with every body's rows rewritten by `rows`; `None` when
/// no hunk has a body.
fn with_rows(hunks: &[Hunk], rows: impl Fn(&Hunk, &[String]) -> Vec<String>) -> Option<Vec<DocOp>> {
    if !hunks.iter().any(|h| h.rows().is_some()) {
        return None;
    }
    Some(
        hunks
            .iter()
            .map(|hunk| match hunk.rows() {
                Some(body) => DocOp {
                    header: header(hunk),
                    rows: rows(hunk, body),
                },
                None => op(hunk),
            })
            .collect(),
    )
}

/// Replaces hunk `i` and renders the document, if the result still
/// applies and differs from the target exactly as `differs` asks.
fn try_hunk(task: &Task, i: usize, replacement: Vec<Hunk>, differs: bool) -> Option<Vec<DocOp>> {
    let mut hunks = task.hunks.clone();
    hunks.splice(i..=i, replacement.clone());
    let written = apply(&task.original, &hunks).ok()?;
    if (written != task.target) != differs {
        return None;
    }
    let mut ops = oracle_ops(&task.hunks);
    ops.splice(i..=i, replacement.iter().map(op));
    Some(ops)
}

/// An insert restating its anchor line; a task that only deletes lines is
/// read backwards (the edit restores them) to have an insert.
fn insert_echo(task: &Task, rng: &mut Rng) -> Option<Variant> {
    let (task, (form, ops)) = match insert_anchor(task, rng) {
        Some(made) => (task.clone(), made),
        None => {
            let back = restoring(task)?;
            let made = insert_anchor(&back, rng)?;
            (back, made)
        }
    };
    Some(Variant {
        mistake: Mistake::EchoInInsert,
        form,
        doc: DocSpec::new(&task.path, ops),
        served: task.original.clone(),
        live: task.original.clone(),
        intended: task.target,
        literal: None,
    })
}

/// The task read backwards when it only deletes lines: from its target
/// back to its original, by inserts.
fn restoring(task: &Task) -> Option<Task> {
    if !task.hunks.iter().all(|h| matches!(h, Hunk::Delete { .. })) {
        return None;
    }
    let hunks = crate::hunks::diff(&task.target, &task.original);
    Some(Task {
        original: task.target.clone(),
        target: task.original.clone(),
        hunks,
        ..task.clone()
    })
}

/// Replaces hunk `i` by `hunk`, written as `op`, if the result still
/// applies and differs from the target.
fn try_op(task: &Task, i: usize, hunk: Hunk, op: DocOp) -> Option<Vec<DocOp>> {
    let mut hunks = task.hunks.clone();
    hunks[i] = hunk;
    let written = apply(&task.original, &hunks).ok()?;
    if written == task.target {
        return None;
    }
    let mut ops = oracle_ops(&task.hunks);
    ops[i] = op;
    Some(ops)
}

#[cfg(test)]
mod guarded_tests;

#[cfg(test)]
mod tests;
