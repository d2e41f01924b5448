//! Edits addressed by content, and the mistakes a model makes with them.
//!
//! The tasks are the mutation corpus's ([`crate::bench::tasks`]). Each
//! task yields variants, one per [`ReplaceMistake`] that fits it, and each
//! variant holds the edit in every [`Form`] that can carry the mistake:
//! `str_replace` calls (whole lines, as models write them), a Codex
//! `apply_patch` patch, a document of `SUB` ops restating the replaced
//! lines, and for the stale-file kinds the `PUT`/`CUT` document too, so
//! line-addressed and content-addressed engines meet the same situations.
//! The mistake sits in the first hunk's call, chunk or op; the rest are
//! the oracle's. Scoring is the mutation benchmark's: the file's bytes
//! after the call against the bytes the author meant.
//!
//! | mistake | the edit | meant |
//! |---|---|---|
//! | oracle | exact old text | the target |
//! | partial-line | old text of a few words inside the line (a patch: those words as `-` and `+` rows) | the target |
//! | drifted-indentation | old and new text re-indented (tabs to four spaces, four spaces to two, or flush left) | the target |
//! | drifted-whitespace | one space doubled inside the first replaced line of the old text | the target |
//! | non-unique-snippet | old text of only the changed lines, which occur elsewhere too (`SUB:` without a locator) | the target |
//! | pasted-line-numbers | old rows carry the read view's `N:` prefixes | the target |
//! | stale-far | exact, but another writer changed a line at least 3 lines away since the read | the edit on the changed file |
//! | stale-at-edit | exact, but another writer changed the first replaced line since the read (a word renamed, or its indentation halved), so the old text is gone | a refusal: the file as it is |

use std::collections::BTreeMap;

use crate::forms::str_replace::{OldString, Replace, apply_calls};
use crate::forms::sub::{SubStyle, sub_ops};
use crate::forms::text::{Text, occurrences};
use crate::forms::{Call, Edit, Form};
use crate::hunks::{Hunk, Lines, apply};
use crate::mistakes::{comment, far_lines, moved};
use crate::mutate::Task;
use crate::rng::Rng;

/// A kind of content-addressed edit, right or carrying one mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReplaceMistake {
    /// The exact old text.
    Oracle,
    /// Old text of a few words inside a line.
    PartialLine,
    /// Old and new text re-indented.
    DriftedIndentation,
    /// A space doubled inside the first replaced line of the old text.
    DriftedWhitespace,
    /// Old text of only the changed lines, found elsewhere too.
    NonUniqueSnippet,
    /// Old rows with the read view's `N:` prefixes.
    PastedLineNumbers,
    /// The file changed away from the edit since the read.
    StaleFar,
    /// The file changed at the edit since the read.
    StaleAtEdit,
}

impl ReplaceMistake {
    /// Every kind, in table order; a kind's random stream is its index.
    pub const ALL: [ReplaceMistake; 8] = [
        ReplaceMistake::Oracle,
        ReplaceMistake::PartialLine,
        ReplaceMistake::DriftedIndentation,
        ReplaceMistake::DriftedWhitespace,
        ReplaceMistake::NonUniqueSnippet,
        ReplaceMistake::PastedLineNumbers,
        ReplaceMistake::StaleFar,
        ReplaceMistake::StaleAtEdit,
    ];

    /// Kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            ReplaceMistake::Oracle => "oracle",
            ReplaceMistake::PartialLine => "partial-line",
            ReplaceMistake::DriftedIndentation => "drifted-indentation",
            ReplaceMistake::DriftedWhitespace => "drifted-whitespace",
            ReplaceMistake::NonUniqueSnippet => "non-unique-snippet",
            ReplaceMistake::PastedLineNumbers => "pasted-line-numbers",
            ReplaceMistake::StaleFar => "stale-far",
            ReplaceMistake::StaleAtEdit => "stale-at-edit",
        }
    }

    /// Whether the right answer is a refusal (the intended file is the
    /// file as it is).
    pub fn wants_refusal(self) -> bool {
        self == ReplaceMistake::StaleAtEdit
    }
}

/// One content-addressed variant of a task.
#[derive(Debug, Clone)]
pub struct ReplaceVariant {
    /// The mistake it carries.
    pub mistake: ReplaceMistake,
    /// Which form of the mistake.
    pub form: &'static str,
    /// The file the model read.
    pub served: Lines,
    /// The file when the edit arrives.
    pub live: Lines,
    /// The file the author meant (for a refusal: `live`).
    pub intended: Lines,
    /// The edit in each form that can carry the mistake.
    pub calls: BTreeMap<Form, Call>,
}

/// The variant of `task` carrying `mistake`; `None` when the task has no
/// place for it.
pub fn replace_variant(
    task: &Task,
    mistake: ReplaceMistake,
    rng: &mut Rng,
) -> Option<ReplaceVariant> {
    let oracle = Oracle::new(task)?;
    let plain = |form: &'static str, calls: BTreeMap<Form, Call>| {
        (!calls.is_empty()).then(|| ReplaceVariant {
            mistake,
            form,
            served: task.original.clone(),
            live: task.original.clone(),
            intended: task.target.clone(),
            calls,
        })
    };
    match mistake {
        ReplaceMistake::Oracle => plain("exact", oracle.all()),
        ReplaceMistake::PartialLine => plain("words", oracle.partial(task)),
        ReplaceMistake::DriftedIndentation => {
            let (form, drift) = indentation_drift(task)?;
            plain(form, oracle.map_rows(|_, _, row| drift(row)))
        }
        ReplaceMistake::DriftedWhitespace => {
            let first = match task.hunks.first()? {
                Hunk::Replace { start, .. } | Hunk::Delete { start, .. } => *start,
                Hunk::Insert { .. } => return None,
            };
            let line = task.original.line(first);
            let drifted = doubled_space(line)?;
            let calls = oracle.map_rows(|kind, _, row| {
                (kind == RowKind::Old && row == line).then(|| drifted.clone())
            });
            plain("space-doubled", calls)
        }
        ReplaceMistake::NonUniqueSnippet => plain("changed-lines-only", oracle.bare(task)?),
        ReplaceMistake::PastedLineNumbers => plain("N:-prefixes", oracle.numbered(task)),
        ReplaceMistake::StaleFar => stale_far(task, &oracle, rng),
        ReplaceMistake::StaleAtEdit => stale_at_edit(task, &oracle, rng),
    }
}

/// Which side of the edit a row belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RowKind {
    /// Old text only (`-`).
    Old,
    /// New text only (`+`).
    New,
    /// Both (context).
    Both,
}

/// The oracle calls of a task in every content form, and the PUT/CUT
/// document.
struct Oracle {
    str_replace: Vec<Replace>,
    sub: crate::document::DocSpec,
    patch: Option<String>,
    document: crate::document::DocSpec,
}

impl Oracle {
    fn new(task: &Task) -> Option<Oracle> {
        let e = edit(task);
        let Some(Call::StrReplace(str_replace)) = e.call(Form::StrReplace) else {
            return None;
        };
        let Some(Call::Document(sub)) = e.call(Form::SubDocument) else {
            return None;
        };
        Some(Oracle {
            str_replace,
            sub,
            patch: e.apply_patch(),
            document: e.put_cut(),
        })
    }

    fn all(&self) -> BTreeMap<Form, Call> {
        let mut calls = self.content();
        calls.insert(Form::Document, Call::Document(self.document.clone()));
        calls
    }

    fn content(&self) -> BTreeMap<Form, Call> {
        let mut calls = BTreeMap::new();
        calls.insert(Form::StrReplace, Call::StrReplace(self.str_replace.clone()));
        calls.insert(Form::SubDocument, Call::Document(self.sub.clone()));
        if let Some(patch) = &self.patch {
            calls.insert(Form::ApplyPatch, Call::ApplyPatch(patch.clone()));
        }
        calls
    }

    /// The content forms with the first call's, op's or chunk's rows
    /// rewritten by `f(kind, index among its old rows, row)` (`None`
    /// keeps a row); a form `f` leaves unchanged is left out.
    fn map_rows(&self, f: impl Fn(RowKind, usize, &str) -> Option<String>) -> BTreeMap<Form, Call> {
        let mut calls = BTreeMap::new();
        let mut first = self.str_replace.clone();
        let (old, new) = (&first[0].old, &first[0].new);
        let (o, n) = (split_rows(old), split_rows(new));
        let (common_head, common_tail) = common_ends(&o, &n);
        let map = |rows: &[&str], old_side: bool| -> Vec<String> {
            rows.iter()
                .enumerate()
                .map(|(i, r)| {
                    let shared = i < common_head || i >= rows.len() - common_tail;
                    let kind = match (shared, old_side) {
                        (true, _) => RowKind::Both,
                        (false, true) => RowKind::Old,
                        (false, false) => RowKind::New,
                    };
                    let index = if old_side { i } else { usize::MAX };
                    f(kind, index, r).unwrap_or_else(|| r.to_string())
                })
                .collect()
        };
        let (o2, n2) = (map(&o, true), map(&n, false));
        if o2 != o || n2 != n {
            first[0] = Replace {
                old: o2.join("\n"),
                new: n2.join("\n"),
            };
            calls.insert(Form::StrReplace, Call::StrReplace(first));
        }
        let mut sub = self.sub.clone();
        let mut index = 0;
        let rows: Vec<String> = sub.ops[0]
            .rows
            .iter()
            .map(|row| {
                let (kind, text) = match row.split_at(1) {
                    ("-", t) => (RowKind::Old, t),
                    (_, t) => (RowKind::New, t),
                };
                let i = if kind == RowKind::Old {
                    index
                } else {
                    usize::MAX
                };
                index += usize::from(kind == RowKind::Old);
                let shared = kind == RowKind::Old && sub_shared(&self.sub.ops[0].rows, text);
                let kind = if shared { RowKind::Both } else { kind };
                format!(
                    "{}{}",
                    &row[..1],
                    f(kind, i, text).unwrap_or_else(|| text.to_string())
                )
            })
            .collect();
        if rows != sub.ops[0].rows {
            sub.ops[0].rows = rows;
            calls.insert(Form::SubDocument, Call::Document(sub));
        }
        if let Some(patch) = &self.patch {
            let changed = map_first_chunk(patch, |prefix, i, text| {
                let kind = match prefix {
                    ' ' => RowKind::Both,
                    '-' => RowKind::Old,
                    _ => RowKind::New,
                };
                f(kind, i, text)
            });
            if &changed != patch {
                calls.insert(Form::ApplyPatch, Call::ApplyPatch(changed));
            }
        }
        calls
    }

    /// Partial lines: the first call and op the fewest words, the first
    /// chunk those words as `-` and `+` rows.
    fn partial(&self, task: &Task) -> BTreeMap<Form, Call> {
        let mut calls = BTreeMap::new();
        let e = edit(task);
        let text = task.original.text();
        let minimal = e.str_replace(OldString::Minimal);
        let Some(words) = minimal.first() else {
            return calls;
        };
        let whole_lines = text.find(&words.old).is_some_and(|at| {
            let after = &text[at + words.old.len()..];
            (at == 0 || text[..at].ends_with('\n')) && (after.is_empty() || after.starts_with('\n'))
        });
        if whole_lines || words.old.contains('\n') {
            return calls;
        }
        let mut str_replace = self.str_replace.clone();
        str_replace[0] = words.clone();
        if lands(task, &str_replace) {
            calls.insert(Form::StrReplace, Call::StrReplace(str_replace));
        }
        if let Some(groups) = sub_ops(&task.original, &task.hunks, SubStyle::Minimal)
            && groups[0].hunks == (0..1)
        {
            let mut sub = self.sub.clone();
            sub.ops[0] = groups[0].op.doc_op();
            calls.insert(Form::SubDocument, Call::Document(sub));
        }
        if let Some(patch) = &self.patch
            && first_chunk_holds_one_hunk(task)
        {
            let rows: Vec<String> = split_rows(&words.old)
                .iter()
                .map(|r| format!("-{r}"))
                .chain(split_rows(&words.new).iter().map(|r| format!("+{r}")))
                .collect();
            calls.insert(
                Form::ApplyPatch,
                Call::ApplyPatch(replace_first_chunk(patch, &rows)),
            );
        }
        calls
    }

    /// Only the changed lines as old text, when they occur elsewhere too;
    /// `None` otherwise.
    fn bare(&self, task: &Task) -> Option<BTreeMap<Form, Call>> {
        let text = Text::new(&task.original);
        let (old_rows, new_rows): (Vec<String>, Vec<String>) = match &task.hunks[0] {
            Hunk::Replace { start, end, rows } => {
                (lines(&task.original, *start, *end), rows.clone())
            }
            Hunk::Delete { .. } => return None,
            Hunk::Insert { after: 0, .. } => return None,
            Hunk::Insert { after, rows } => {
                let anchor = task.original.line(*after).to_string();
                (
                    vec![anchor.clone()],
                    std::iter::once(anchor)
                        .chain(rows.iter().cloned())
                        .collect(),
                )
            }
        };
        let old = old_rows.join("\n");
        if occurrences(&text.text, &old, 2) < 2 {
            return None;
        }
        let mut calls = BTreeMap::new();
        if self.str_replace.len() == task.hunks.len() {
            let mut str_replace = self.str_replace.clone();
            str_replace[0] = Replace {
                old,
                new: new_rows.join("\n"),
            };
            calls.insert(Form::StrReplace, Call::StrReplace(str_replace));
        }
        if self.sub.ops.len() == task.hunks.len() {
            let mut sub = self.sub.clone();
            sub.ops[0] = crate::forms::sub::SubOp {
                locator: None,
                old: old_rows.clone(),
                new: new_rows.clone(),
            }
            .doc_op();
            calls.insert(Form::SubDocument, Call::Document(sub));
        }
        if let Some(patch) = &self.patch
            && first_chunk_holds_one_hunk(task)
        {
            let rows: Vec<String> = match &task.hunks[0] {
                Hunk::Insert { .. } => std::iter::once(format!(" {}", old_rows[0]))
                    .chain(new_rows[1..].iter().map(|r| format!("+{r}")))
                    .collect(),
                _ => old_rows
                    .iter()
                    .map(|r| format!("-{r}"))
                    .chain(new_rows.iter().map(|r| format!("+{r}")))
                    .collect(),
            };
            calls.insert(
                Form::ApplyPatch,
                Call::ApplyPatch(replace_first_chunk(patch, &rows)),
            );
        }
        Some(calls)
    }

    /// Old rows with their line numbers, as pasted from a read.
    fn numbered(&self, task: &Task) -> BTreeMap<Form, Call> {
        let mut calls = BTreeMap::new();
        let original = Text::new(&task.original);
        let first = &self.str_replace[0];
        if self.str_replace.len() == task.hunks.len()
            && let Some(at) = original.text.find(&first.old)
            && (at == 0 || original.text[..at].ends_with('\n'))
        {
            let top = original.line_at(at);
            let old: Vec<String> = split_rows(&first.old)
                .iter()
                .enumerate()
                .map(|(i, r)| format!("{}:{r}", top + i))
                .collect();
            let mut str_replace = self.str_replace.clone();
            str_replace[0].old = old.join("\n");
            calls.insert(Form::StrReplace, Call::StrReplace(str_replace));
        }
        let mut sub = self.sub.clone();
        if let Some(top) = sub_top(&sub.ops[0].header) {
            let mut n = top;
            for row in &mut sub.ops[0].rows {
                if let Some(text) = row.strip_prefix('-') {
                    *row = format!("-{n}:{text}");
                    n += 1;
                }
            }
            calls.insert(Form::SubDocument, Call::Document(sub));
        }
        if let Some(patch) = &self.patch
            && let Some(top) = first_chunk_top(patch, &task.original)
        {
            let mut n = top;
            let numbered = map_first_chunk(patch, |prefix, _, text| {
                (prefix != '+').then(|| {
                    n += 1;
                    format!("{}:{text}", n - 1)
                })
            });
            calls.insert(Form::ApplyPatch, Call::ApplyPatch(numbered));
        }
        calls
    }
}

/// The task as a [`crate::forms`] edit.
fn edit(task: &Task) -> Edit<'_> {
    Edit {
        path: &task.path,
        old: &task.original,
        new: &task.target,
        hunks: &task.hunks,
    }
}

/// Whether `calls` turn the task's original into its target.
fn lands(task: &Task, calls: &[Replace]) -> bool {
    apply_calls(&task.original.text(), calls).is_ok_and(|t| t == task.target.text())
}

/// Lines `first..=last` of `file`.
fn lines(file: &Lines, first: usize, last: usize) -> Vec<String> {
    (first..=last).map(|n| file.line(n).to_string()).collect()
}

fn split_rows(text: &str) -> Vec<&str> {
    text.split('\n').collect()
}

/// Rows `o` and `n` share at their head and tail (not overlapping).
fn common_ends(o: &[&str], n: &[&str]) -> (usize, usize) {
    let head = o.iter().zip(n).take_while(|(a, b)| a == b).count();
    let tail = o[head..]
        .iter()
        .rev()
        .zip(n[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (head, tail)
}

/// Whether an old row of a `SUB` op is restated among its `+` rows.
fn sub_shared(rows: &[String], text: &str) -> bool {
    rows.iter().any(|r| r.strip_prefix('+') == Some(text))
}

/// The first line a `SUB N:` / `SUB N.=M:` header names.
fn sub_top(header: &str) -> Option<usize> {
    let range = header.strip_prefix("SUB ")?.strip_suffix(':')?;
    range.split(".=").next()?.parse().ok()
}

/// Whether the patch's first chunk writes only the first hunk.
fn first_chunk_holds_one_hunk(task: &Task) -> bool {
    let reach = |h: &Hunk| match h {
        Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => (*start, *end),
        Hunk::Insert { after, .. } => (after + 1, *after),
    };
    match task.hunks.get(1) {
        None => true,
        Some(next) => {
            let gap = reach(next).0.saturating_sub(reach(&task.hunks[0]).1 + 1);
            gap > 2 * crate::forms::apply_patch::CONTEXT
        }
    }
}

/// The patch with its first chunk's rows rewritten by `f(prefix, index
/// among the chunk's old rows, text)` (`None` keeps a row).
fn map_first_chunk(patch: &str, mut f: impl FnMut(char, usize, &str) -> Option<String>) -> String {
    let mut out = Vec::new();
    let mut chunk = 0;
    let mut old_index = 0;
    for line in patch.split('\n') {
        if line == "@@" {
            chunk += 1;
            out.push(line.to_string());
            continue;
        }
        let body = chunk == 1 && !line.starts_with("*** ") && !line.is_empty();
        match line.chars().next().filter(|_| body) {
            Some(prefix @ (' ' | '-' | '+')) => {
                let text = &line[1..];
                let i = if prefix == '+' { usize::MAX } else { old_index };
                old_index += usize::from(prefix != '+');
                out.push(match f(prefix, i, text) {
                    Some(t) => format!("{prefix}{t}"),
                    None => line.to_string(),
                });
            }
            _ => out.push(line.to_string()),
        }
    }
    out.join("\n")
}

/// The patch with its first chunk's rows replaced by `rows`.
fn replace_first_chunk(patch: &str, rows: &[String]) -> String {
    let mut out = Vec::new();
    let mut chunk = 0;
    let mut skipping = false;
    for line in patch.split('\n') {
        if line == "@@" {
            chunk += 1;
            out.push(line.to_string());
            skipping = chunk == 1;
            if skipping {
                out.extend(rows.iter().cloned());
            }
            continue;
        }
        skipping &= !line.starts_with("*** ");
        if !skipping {
            out.push(line.to_string());
        }
    }
    out.join("\n")
}

/// The file line where the patch's first chunk's old rows start.
fn first_chunk_top(patch: &str, file: &Lines) -> Option<usize> {
    let mut rows = Vec::new();
    let mut chunk = 0;
    for line in patch.split('\n') {
        if line == "@@" {
            chunk += 1;
        } else if chunk == 1 && (line.starts_with(' ') || line.starts_with('-')) {
            rows.push(line[1..].to_string());
        }
    }
    if rows.is_empty() {
        return None;
    }
    file.lines
        .windows(rows.len())
        .position(|w| w == rows.as_slice())
        .map(|i| i + 1)
}

/// The indentation drift a model makes on this task's first hunk, and its
/// name: tabs to four spaces, four spaces to two, or flush left; `None`
/// when the hunk's lines are not indented.
fn indentation_drift(task: &Task) -> Option<(&'static str, impl Fn(&str) -> Option<String>)> {
    let (first, last) = match &task.hunks[0] {
        Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => (*start, *end),
        Hunk::Insert { after, .. } => ((*after).max(1), (*after).max(1)),
    };
    let indented: Vec<&str> = (first..=last).map(|n| task.original.line(n)).collect();
    let lead = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    if indented.iter().all(|l| lead(l) == 0) {
        return None;
    }
    let tabs = indented.iter().any(|l| l.starts_with('\t'));
    let fours = indented.iter().any(|l| l.starts_with("    "));
    let form = if tabs {
        "tabs-to-spaces"
    } else if fours {
        "four-to-two-spaces"
    } else {
        "flush-left"
    };
    let drift = move |row: &str| {
        let n = lead(row);
        let (indent, rest) = row.split_at(n);
        let new = match form {
            "tabs-to-spaces" => indent.replace('\t', "    "),
            "four-to-two-spaces" => indent.replace("    ", "  "),
            _ => String::new(),
        };
        (new != indent).then(|| format!("{new}{rest}"))
    };
    Some((form, drift))
}

/// `line` with its first single space between two visible characters
/// doubled; `None` when it has none.
fn doubled_space(line: &str) -> Option<String> {
    let start = line.len() - line.trim_start().len();
    let bytes = line.as_bytes();
    (start + 1..line.len().saturating_sub(1))
        .find(|&i| bytes[i] == b' ' && bytes[i - 1] != b' ' && bytes[i + 1] != b' ')
        .map(|i| format!("{} {}", &line[..i], &line[i..]))
}

/// Another writer changed a line at least three lines from every hunk:
/// meant, the edit on the changed file.
fn stale_far(task: &Task, oracle: &Oracle, rng: &mut Rng) -> Option<ReplaceVariant> {
    let far = far_lines(&task.hunks, task.original.len());
    if far.is_empty() {
        return None;
    }
    let p = *rng.pick(&far);
    let mut live = task.original.clone();
    let (form, delta): (&'static str, isize) = if rng.percent(50) {
        live.lines[p - 1] = format!("{} {}", live.lines[p - 1], comment(task.lang));
        ("line-edited", 0)
    } else {
        live.lines.insert(p - 1, comment(task.lang).to_string());
        ("line-inserted", 1)
    };
    let intended = apply(&live, &moved(&task.hunks, p, delta)).ok()?;
    Some(ReplaceVariant {
        mistake: ReplaceMistake::StaleFar,
        form,
        served: task.original.clone(),
        live,
        intended,
        calls: oracle.all(),
    })
}

/// Another writer changed the text of the first line the edit replaces
/// (a task whose first hunk inserts has none), so the old text is no
/// longer in the file: a word renamed, or the line's indentation halved.
/// Meant: a refusal.
fn stale_at_edit(task: &Task, oracle: &Oracle, rng: &mut Rng) -> Option<ReplaceVariant> {
    let line = match &task.hunks[0] {
        Hunk::Replace { start, .. } | Hunk::Delete { start, .. } => *start,
        Hunk::Insert { .. } => return None,
    };
    let text = task.original.line(line);
    let renamed = renamed_word(text);
    let dedented = dedented(text);
    let (form, changed) = match (renamed, dedented) {
        (Some(r), Some(d)) => {
            if rng.percent(50) {
                ("word-renamed", r)
            } else {
                ("indentation-halved", d)
            }
        }
        (Some(r), None) => ("word-renamed", r),
        (None, Some(d)) => ("indentation-halved", d),
        (None, None) => return None,
    };
    let mut live = task.original.clone();
    live.lines[line - 1] = changed;
    Some(ReplaceVariant {
        mistake: ReplaceMistake::StaleAtEdit,
        form,
        served: task.original.clone(),
        intended: live.clone(),
        live,
        calls: oracle.all(),
    })
}

/// `line` with `2` after its first word of two or more word characters.
fn renamed_word(line: &str) -> Option<String> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (start, is_word(c)) {
            (None, true) => start = Some(i),
            (Some(s), false) if i - s >= 2 => {
                return Some(format!("{}2{}", &line[..i], &line[i..]));
            }
            (Some(_), false) => start = None,
            _ => {}
        }
    }
    match start {
        Some(s) if line.len() - s >= 2 => Some(format!("{line}2")),
        _ => None,
    }
}

/// `line` with half its leading whitespace (rounded down); `None` when it
/// has none.
fn dedented(line: &str) -> Option<String> {
    let rest = line.trim_start_matches([' ', '\t']);
    let indent = &line[..line.len() - rest.len()];
    if indent.is_empty() {
        return None;
    }
    Some(format!("{}{rest}", &indent[..indent.len() / 2]))
}

#[cfg(test)]
mod tests;
