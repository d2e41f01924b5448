//! What each way of writing an edit costs in tokens, on real edits.
//!
//! For every edit of the real-edit corpus, the benchmark writes the edit
//! in each form a model uses ([`crate::forms`]), checks that each payload
//! lands exactly by its reference reading, and counts the tokens of the
//! tool call's JSON arguments under o200k and cl100k ([`Payload`] says
//! each shape). It also counts what the model reads: the whole-file read
//! view, and the replies of our real tools run in process on the edit
//! (success), on the same document after another writer changed the file
//! (stale tag, no session) and on the edit written with a mistake one of
//! our guards refuses.
//!
//! The long-line case, an insertion of 100 characters into a minified
//! one-line file, is measured apart ([`long_line_edit`]).

use std::collections::BTreeMap;
use std::path::Path;

use hashedit_core::TagScheme;
use hashedit_tools::{ReadFileArgs, ToolContext, Workspace, read_file};
use serde_json::{Value, json};

use crate::engine::{Attempt, Engine, Ours, put_file, scratch_dir};
use crate::forms::str_replace::OldString;
use crate::forms::sub::SubStyle;
use crate::forms::{Call, arguments};
use crate::hunks::{Hunk, Lines, diff};
use crate::mistakes::{Mistake, comment, far_lines, variant};
use crate::mutate::{Lang, Mutation, Task};
use crate::real::RealEdit;
use crate::rng::Rng;
use crate::tokens::Tokenizer;

/// What is counted, for each edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Payload {
    /// `read_file` of the whole old file: the text our tool returns.
    ReadView,
    /// `edit {input}`: the minimal `PUT`/`CUT` document.
    PutCut,
    /// `edit {input}`: one minimal `SUB` op per hunk.
    SubMinimal,
    /// `edit {input}`: `SUB` ops restating the replaced lines (the
    /// verified replace).
    SubWholeLines,
    /// `edit {input}`: per hunk the cheaper of its `PUT`/`CUT` op and its
    /// minimal `SUB` op.
    Cheapest,
    /// `str_replace {path, old_string, new_string}` per hunk, the minimal
    /// unique `old_string`.
    StrReplace,
    /// The same with whole lines in `old_string`.
    StrReplaceLines,
    /// `apply_patch {input}`: a Codex V4A patch.
    ApplyPatch,
    /// A unified diff, as `{input}`.
    UnifiedDiff,
    /// `write {path, content}`: the whole new file.
    WholeFile,
    /// Our `edit` reply on success.
    ReplySuccess,
    /// Our `edit` reply to the cheapest document (`SUB` ops where they
    /// are cheaper), which must land exactly through hashedit.
    ReplyCheapest,
    /// Our `edit` refusal of a stale tag (no session).
    ReplyStale,
    /// Our `edit` refusal by a guard.
    ReplyGuard,
}

impl Payload {
    /// Every payload, in table order.
    pub const ALL: [Payload; 14] = [
        Payload::ReadView,
        Payload::PutCut,
        Payload::SubMinimal,
        Payload::SubWholeLines,
        Payload::Cheapest,
        Payload::StrReplace,
        Payload::StrReplaceLines,
        Payload::ApplyPatch,
        Payload::UnifiedDiff,
        Payload::WholeFile,
        Payload::ReplySuccess,
        Payload::ReplyCheapest,
        Payload::ReplyStale,
        Payload::ReplyGuard,
    ];

    /// The edits written by the model, compared with `str_replace`.
    pub const WRITTEN: [Payload; 9] = [
        Payload::PutCut,
        Payload::SubMinimal,
        Payload::SubWholeLines,
        Payload::Cheapest,
        Payload::StrReplace,
        Payload::StrReplaceLines,
        Payload::ApplyPatch,
        Payload::UnifiedDiff,
        Payload::WholeFile,
    ];

    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            Payload::ReadView => "read view (whole file)",
            Payload::PutCut => "PUT/CUT document",
            Payload::SubMinimal => "SUB document, minimal",
            Payload::SubWholeLines => "SUB document, whole lines",
            Payload::Cheapest => "cheapest document (PUT/CUT or SUB per hunk)",
            Payload::StrReplace => "str_replace calls, minimal old_string",
            Payload::StrReplaceLines => "str_replace calls, whole lines",
            Payload::ApplyPatch => "apply_patch (V4A)",
            Payload::UnifiedDiff => "unified diff",
            Payload::WholeFile => "whole-file write",
            Payload::ReplySuccess => "reply: success",
            Payload::ReplyCheapest => "reply: success, cheapest document",
            Payload::ReplyStale => "reply: stale tag",
            Payload::ReplyGuard => "reply: guard refusal",
        }
    }

    /// Snake-case key for the JSON results.
    pub fn key(self) -> &'static str {
        match self {
            Payload::ReadView => "read_view",
            Payload::PutCut => "put_cut",
            Payload::SubMinimal => "sub_minimal",
            Payload::SubWholeLines => "sub_whole_lines",
            Payload::Cheapest => "cheapest",
            Payload::StrReplace => "str_replace",
            Payload::StrReplaceLines => "str_replace_lines",
            Payload::ApplyPatch => "apply_patch",
            Payload::UnifiedDiff => "unified_diff",
            Payload::WholeFile => "whole_file",
            Payload::ReplySuccess => "reply_success",
            Payload::ReplyCheapest => "reply_cheapest",
            Payload::ReplyStale => "reply_stale",
            Payload::ReplyGuard => "reply_guard",
        }
    }
}

/// One edit's counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditTokens {
    /// `lang/name from→to file`.
    pub describe: String,
    /// Its language.
    pub lang: Lang,
    /// Lines removed plus lines added.
    pub changed: usize,
    /// Per payload, the tokens under each of [`Tokenizer::ALL`]; missing
    /// when the form cannot write the edit, or the reply did not come.
    pub counts: BTreeMap<Payload, [usize; 2]>,
    /// The guard whose refusal was counted.
    pub guard: Option<String>,
}

impl EditTokens {
    /// o200k tokens of `payload`.
    pub fn o200k(&self, payload: Payload) -> Option<usize> {
        self.counts.get(&payload).map(|c| c[0])
    }

    /// The cheapest line-addressed document (`PUT`/`CUT`, minimal `SUB` or
    /// their mix), in o200k tokens.
    pub fn best_line_addressed(&self) -> Option<usize> {
        [Payload::PutCut, Payload::SubMinimal, Payload::Cheapest]
            .iter()
            .filter_map(|&p| self.o200k(p))
            .min()
    }
}

/// A generated payload that did not land.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The edit.
    pub describe: String,
    /// The payload.
    pub payload: Payload,
    /// What went wrong.
    pub why: String,
}

/// Everything a token run measured.
#[derive(Debug, Clone, Default)]
pub struct TokenRun {
    /// Per edit of the corpus.
    pub edits: Vec<EditTokens>,
    /// Per payload written by the generators: how many were made and
    /// checked.
    pub generated: BTreeMap<Payload, usize>,
    /// Per payload, the edits its form cannot write.
    pub unwritten: BTreeMap<Payload, usize>,
    /// Generated payloads that did not land (must be none).
    pub failures: Vec<Failure>,
    /// The long-line case, when its file is there.
    pub long_line: Option<EditTokens>,
}

/// Our tools, run in process for the read view and the replies.
struct Replier {
    with_session: Ours,
    without_session: Ours,
    reader: (tempfile::TempDir, Workspace),
}

impl Replier {
    fn new() -> std::io::Result<Replier> {
        let dir = scratch_dir()?;
        let ws = Workspace::new(dir.path()).map_err(|e| std::io::Error::other(e.message))?;
        Ok(Replier {
            with_session: Ours::with_session()?,
            without_session: Ours::without_session()?,
            reader: (dir, ws),
        })
    }

    fn scheme(&self) -> TagScheme {
        self.with_session.scheme()
    }

    /// The text `read_file` returns for `bytes` at `path`.
    fn read_view(&self, path: &str, bytes: &[u8]) -> Option<String> {
        let (dir, ws) = &self.reader;
        let full = put_file(dir.path(), path, bytes).ok()?;
        let args = ReadFileArgs {
            path: path.to_string(),
            ..ReadFileArgs::default()
        };
        let text = read_file(&ToolContext::new(ws), &args).ok().map(|o| o.text);
        let _ = std::fs::remove_file(full);
        text
    }

    /// The reply to `call` (served `old`, on disk `live`), if it has
    /// `ok` as its success.
    fn reply(
        engine: &mut Ours,
        path: &str,
        old: &str,
        live: &str,
        call: &Call,
        ok: bool,
    ) -> Option<(String, Vec<String>)> {
        let attempt = Attempt {
            path,
            served: old.as_bytes(),
            live: live.as_bytes(),
            call,
            views: &[],
        };
        let reply = engine.run(&attempt);
        (reply.ok == ok).then(|| {
            let labels = reply.signals.iter().map(|s| s.label.clone()).collect();
            (reply.text, labels)
        })
    }
}

/// Per mistake tried for a guard's refusal, in order.
const GUARDED: [Mistake; 4] = [
    Mistake::EchoNeighbour,
    Mistake::OffByOne,
    Mistake::EchoBothEdges,
    Mistake::EchoInInsert,
];

/// A line of `old` away from every hunk, as close to the middle of the
/// file as there is one.
fn far_line(old: &Lines, hunks: &[Hunk]) -> Option<usize> {
    let middle = old.len().div_ceil(2);
    far_lines(hunks, old.len())
        .into_iter()
        .min_by_key(|&p| p.abs_diff(middle))
}

/// `old` as another writer left it: a comment added to a line away from
/// the edit, or a line appended.
fn drifted(edit: &RealEdit) -> String {
    let mut live = edit.old.clone();
    match far_line(&edit.old, &edit.hunks) {
        Some(p) => live.lines[p - 1] = format!("{} {}", live.lines[p - 1], comment(edit.lang)),
        None => live.lines.push(comment(edit.lang).to_string()),
    }
    live.text()
}

/// Lines removed plus lines added.
fn changed_lines(hunks: &[Hunk]) -> usize {
    hunks
        .iter()
        .map(|h| h.span().map_or(0, |(s, e)| e - s + 1) + h.rows().map_or(0, <[String]>::len))
        .sum()
}

/// Tokens of `texts` together, under each tokenizer.
fn count(texts: &[String]) -> [usize; 2] {
    let mut out = [0; 2];
    for (slot, t) in out.iter_mut().zip(Tokenizer::ALL) {
        *slot = texts.iter().map(|s| t.count(s)).sum();
    }
    out
}

/// The JSON texts of tool-call arguments.
fn json_texts(values: &[Value]) -> Vec<String> {
    values.iter().map(Value::to_string).collect()
}

/// Measures one edit; generator checks go to `run`.
fn measure(edit: &RealEdit, replier: &mut Replier, run: &mut TokenRun) -> EditTokens {
    let path = edit.path();
    let e = edit.edit(&path);
    let (old, new) = (edit.old.text(), edit.new.text());
    let tag = replier.scheme().tag_of(old.as_bytes());
    let mut counts = BTreeMap::new();
    let mut check = |payload: Payload, call: Option<Call>, run: &mut TokenRun| -> Option<Call> {
        let Some(call) = call else {
            *run.unwritten.entry(payload).or_default() += 1;
            return None;
        };
        *run.generated.entry(payload).or_default() += 1;
        if let Err(why) = e.check(&call) {
            run.failures.push(Failure {
                describe: edit.describe(),
                payload,
                why,
            });
        }
        counts.insert(payload, count(&json_texts(&arguments(&path, &call, tag))));
        Some(call)
    };
    let put_cut = check(Payload::PutCut, Some(Call::Document(e.put_cut())), run);
    check(
        Payload::SubMinimal,
        e.sub(SubStyle::Minimal).map(Call::Document),
        run,
    );
    check(
        Payload::SubWholeLines,
        e.sub(SubStyle::WholeLines).map(Call::Document),
        run,
    );
    let cost = |op: &crate::document::DocOp| {
        let mut text = op.header.clone();
        for row in &op.rows {
            text.push('\n');
            text.push_str(row);
        }
        Tokenizer::O200k.count(&text)
    };
    let cheapest = check(
        Payload::Cheapest,
        Some(Call::Document(e.cheapest(cost))),
        run,
    );
    check(
        Payload::StrReplace,
        Some(Call::StrReplace(e.str_replace(OldString::Minimal))),
        run,
    );
    check(
        Payload::StrReplaceLines,
        Some(Call::StrReplace(e.str_replace(OldString::WholeLines))),
        run,
    );
    check(
        Payload::ApplyPatch,
        e.apply_patch().map(Call::ApplyPatch),
        run,
    );
    counts.insert(
        Payload::UnifiedDiff,
        count(&[json!({ "input": e.unified_diff() }).to_string()]),
    );
    counts.insert(
        Payload::WholeFile,
        count(&[json!({ "path": path, "content": new }).to_string()]),
    );
    if let Some(view) = replier.read_view(&path, old.as_bytes()) {
        counts.insert(Payload::ReadView, count(&[view]));
    }
    let mut guard = None;
    if let Some(call) = &put_cut {
        if let Some((text, _)) =
            Replier::reply(&mut replier.with_session, &path, &old, &old, call, true)
        {
            counts.insert(Payload::ReplySuccess, count(&[text]));
        }
        let live = drifted(edit);
        if let Some((text, _)) = Replier::reply(
            &mut replier.without_session,
            &path,
            &old,
            &live,
            call,
            false,
        ) {
            counts.insert(Payload::ReplyStale, count(&[text]));
        }
        if let Some((text, label)) = guard_refusal(edit, &path, &old, replier) {
            counts.insert(Payload::ReplyGuard, count(&[text]));
            guard = Some(label);
        }
    }
    // The cheapest document must land wherever the PUT/CUT one does (a
    // guard may refuse a real edit in any form).
    if let Some(call) = &cheapest {
        match landed(&mut replier.with_session, &path, &old, &new, call) {
            Ok(text) => {
                counts.insert(Payload::ReplyCheapest, count(&[text]));
            }
            Err(NotLanded::Refused(_)) if !counts.contains_key(&Payload::ReplySuccess) => {}
            Err(miss) => run.failures.push(Failure {
                describe: edit.describe(),
                payload: Payload::Cheapest,
                why: miss.to_string(),
            }),
        }
    }
    EditTokens {
        describe: edit.describe(),
        lang: edit.lang,
        changed: changed_lines(&edit.hunks),
        counts,
        guard,
    }
}

/// Why a document did not land exactly through our tools.
enum NotLanded {
    /// Refused, with the reply's first line.
    Refused(String),
    /// Applied, to other bytes.
    Wrong,
}

impl std::fmt::Display for NotLanded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotLanded::Refused(first) => write!(f, "through hashedit: refused: {first}"),
            NotLanded::Wrong => f.write_str("through hashedit: applied to other bytes"),
        }
    }
}

/// The reply of our tools to `call` (served and on disk: `old`) when it
/// writes exactly `new`.
fn landed(
    engine: &mut Ours,
    path: &str,
    old: &str,
    new: &str,
    call: &Call,
) -> Result<String, NotLanded> {
    let attempt = Attempt {
        path,
        served: old.as_bytes(),
        live: old.as_bytes(),
        call,
        views: &[],
    };
    let reply = engine.run(&attempt);
    match (reply.ok, reply.after.as_deref() == Some(new.as_bytes())) {
        (true, true) => Ok(reply.text),
        (true, false) => Err(NotLanded::Wrong),
        (false, _) => Err(NotLanded::Refused(
            reply.text.lines().next().unwrap_or_default().to_string(),
        )),
    }
}

/// A guard's refusal of the edit written with one of the [`GUARDED`]
/// mistakes: its text and the guard's label.
fn guard_refusal(
    edit: &RealEdit,
    path: &str,
    old: &str,
    replier: &mut Replier,
) -> Option<(String, String)> {
    let task = Task {
        index: 0,
        path: path.to_string(),
        lang: edit.lang,
        mutation: Mutation::OperatorSwap,
        description: edit.describe(),
        original: edit.old.clone(),
        target: edit.new.clone(),
        hunks: edit.hunks.clone(),
    };
    for (m, mistake) in GUARDED.iter().enumerate() {
        let Some(v) = variant(&task, *mistake, &mut Rng::new(m as u64)) else {
            continue;
        };
        let call = Call::Document(v.doc.clone());
        if let Some((text, labels)) =
            Replier::reply(&mut replier.with_session, path, old, old, &call, false)
            && let Some(label) = labels
                .into_iter()
                .find(|l| !l.starts_with("parse_error") && l != "stale_tag")
        {
            return Some((text, label));
        }
    }
    None
}

/// Runs the benchmark over `edits` (and the long-line case, if given);
/// `progress` sees each edit done.
///
/// Errors: the scratch workspace of our tools cannot be made.
pub fn run_tokens(
    edits: &[RealEdit],
    long_line: Option<&RealEdit>,
    mut progress: impl FnMut(usize, usize),
) -> Result<TokenRun, String> {
    let mut replier = Replier::new().map_err(|e| format!("scratch workspace: {e}"))?;
    let mut run = TokenRun::default();
    for (i, edit) in edits.iter().enumerate() {
        let measured = measure(edit, &mut replier, &mut run);
        run.edits.push(measured);
        progress(i + 1, edits.len());
    }
    if let Some(edit) = long_line {
        let mut apart = TokenRun::default();
        let measured = measure(edit, &mut replier, &mut apart);
        run.failures.extend(apart.failures);
        run.long_line = Some(measured);
    }
    Ok(run)
}

/// The statement the long-line case inserts: 100 bytes of JavaScript.
pub const LONG_LINE_INSERT: &str = "globalThis.__hashedit_probe&&globalThis.__hashedit_probe(\"svelte.compile\",{at:Date.now(),n:100000});";

/// Most `;` tried for the long-line insertion.
const LONG_LINE_TRIES: usize = 200;

/// The long-line case: [`LONG_LINE_INSERT`] inserted after the first `;`
/// past the middle of the one line of the minified JavaScript file at
/// `file` (in the workspace as `path`) where the result still parses
/// (tree-sitter), as a real edit would. `None` when the file is missing,
/// is not one line of at least 10,000 bytes, or no such `;` is found.
pub fn long_line_edit(file: &Path, path: &str) -> Option<RealEdit> {
    let text = std::fs::read_to_string(file).ok()?;
    let old = Lines::parse(&text);
    let [line] = old.lines.as_slice() else {
        return None;
    };
    if line.len() < 10_000 {
        return None;
    }
    let middle = line.len() / 2;
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_javascript::LANGUAGE.into())
        .ok()?;
    let changed = line[middle..]
        .match_indices(';')
        .take(LONG_LINE_TRIES)
        .map(|(i, _)| {
            let at = middle + i + 1;
            format!("{}{LONG_LINE_INSERT}{}", &line[..at], &line[at..])
        })
        .find(|new| {
            parser
                .parse(new, None)
                .is_some_and(|t| !t.root_node().has_error())
        })?;
    let mut new = old.clone();
    new.lines[0] = changed;
    let (package, file_name) = path.split_once('/').unwrap_or(("", path));
    Some(RealEdit {
        package: package.to_string(),
        from: "minified".to_string(),
        to: "+100 bytes".to_string(),
        file: file_name.to_string(),
        lang: Lang::JavaScript,
        hunks: diff(&old, &new),
        old,
        new,
    })
}

#[cfg(test)]
mod tests;
