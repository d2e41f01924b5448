//! Stage 4 of `edit`: the reply (FORMAT.md §6.6). When the summaries and
//! previews do not fit the output budget, the previews give way to each
//! file's new header (so the edit still chains), then the warnings are
//! capped, then only the headers remain.

use hashedit_core::{
    Advice, DiffSide, Document, FileEdit, FileOp, Surface, Suspicion, Worded, truncate_to_budget,
    unified_diff_between,
};

use crate::context::ToolContext;
use crate::fsio::{Change, CommitWarning, LockedFile};
use crate::outcome::{EditFacts, EditedFile, Outcome, Unpasted};

use super::targets::Target;

/// Most warning lines listed when a reply must shrink to fit the budget.
const MAX_LISTED_WARNINGS: usize = 20;

/// Each file's unified diff from its bytes before the edit to what the
/// edit makes of them, headed as git heads it (FORMAT.md §6.6), the diffs
/// sharing `budget`.
pub(super) fn file_diffs(
    targets: &[Target],
    locked: &[LockedFile],
    changes: &[Change],
    budget: usize,
) -> Vec<String> {
    let mut left = budget;
    targets
        .iter()
        .zip(locked)
        .zip(changes)
        .map(|((target, file), change)| {
            let before = DiffSide::Path(&target.path.display);
            let (after_side, after): (DiffSide, &[u8]) = match change {
                Change::Replace(bytes) => (before, bytes),
                Change::Move { bytes, .. } => match &target.dest {
                    Some(dest) => (DiffSide::Path(&dest.display), bytes),
                    None => (before, bytes),
                },
                Change::Keep => (before, &file.original),
                Change::Remove => (DiffSide::Absent, b""),
            };
            let diff = unified_diff_between(before, after_side, &file.original, after);
            fit_diff(diff, &mut left)
        })
        .collect()
}

/// `diff` cut after its last whole line that fits the `left` bytes the
/// diffs of one reply share (each line counted with the escape its line
/// break takes in JSON), then `[truncated]`; `left` shrinks by what is kept.
fn fit_diff(diff: String, left: &mut usize) -> String {
    let mut kept = 0;
    let mut cost = 0;
    for line in diff.split_inclusive('\n') {
        if cost + line.len() + 1 > *left {
            *left = 0;
            let mut cut = diff[..kept].to_string();
            cut.push_str("[truncated]\n");
            return cut;
        }
        kept += line.len();
        cost += line.len() + 1;
    }
    *left -= cost;
    diff
}

/// The reply after a commit. The text has no diff; `diffs` (from
/// [`file_diffs`]) go into each file's facts.
pub(super) fn applied(
    cx: &ToolContext,
    document: &Document,
    targets: &[Target],
    edits: &[FileEdit],
    diffs: Option<Vec<String>>,
    commit_warnings: &[CommitWarning],
    unpasted: &[(String, usize)],
) -> Outcome {
    let mut warnings = warning_lines(document, targets, edits, cx.surface);
    warnings.extend(commit_warnings.iter().map(ToString::to_string));
    let reports: Vec<String> = edits.iter().map(FileEdit::report).collect();
    let compact: Vec<String> = edits.iter().map(FileEdit::compact_report).collect();
    let minimal: Vec<String> = edits
        .iter()
        .zip(targets)
        .map(|(edit, target)| match &edit.file_op {
            Some(FileOp::Remove) => format!("REM {}", target.path.display),
            _ => edit.header().to_string(),
        })
        .collect();
    let budget = cx.ws.max_output_bytes();
    let mut text = with_warnings(&reports, &warnings);
    if text.len() > budget {
        text = with_warnings(&compact, &warnings);
    }
    if text.len() > budget && warnings.len() > MAX_LISTED_WARNINGS {
        let more = warnings.len() - MAX_LISTED_WARNINGS;
        let mut listed = warnings[..MAX_LISTED_WARNINGS].to_vec();
        listed.push(format!("… and {more} more warnings"));
        text = with_warnings(&compact, &listed);
    }
    // A tiny budget: only the new headers, which chain.
    if text.len() > budget {
        text = minimal.join("\n");
    }
    let mut diffs = diffs.map(Vec::into_iter);
    let files = edits
        .iter()
        .zip(targets)
        .map(|(edit, target)| {
            let diff = diffs.as_mut().and_then(Iterator::next);
            file_facts(edit, target, diff)
        })
        .collect();
    let unpasted = unpasted.iter().map(|(name, lines)| Unpasted {
        name: name.clone(),
        lines: *lines,
    });
    Outcome::new(
        truncate_to_budget(text, budget),
        EditFacts {
            files,
            warnings,
            dry_run: false,
            unpasted_registers: Some(unpasted.collect()),
        },
    )
}

/// The reply of a dry run: what each file would become, as a unified diff.
pub(super) fn dry_run(
    cx: &ToolContext,
    document: &Document,
    targets: &[Target],
    edits: &[FileEdit],
    diffs: Vec<String>,
) -> Outcome {
    let surface = cx.surface;
    let warnings = warning_lines(document, targets, edits, surface);
    let mut text = String::new();
    let mut files = Vec::with_capacity(edits.len());
    for ((edit, target), diff) in edits.iter().zip(targets).zip(diffs) {
        let display = &target.path.display;
        match (&edit.file_op, &target.dest) {
            (Some(FileOp::Remove), _) => {
                text.push_str(&format!("REM: {display} would be deleted\n"))
            }
            (Some(FileOp::Move(_)), Some(dest)) => {
                text.push_str(&format!("MV: {display} would move to {}\n", dest.display));
            }
            _ => {}
        }
        if diff.is_empty() {
            // An empty diff under a REM or MV line is about the content only.
            let unchanged = match &edit.file_op {
                Some(FileOp::Remove) => "empty, no lines to delete",
                Some(FileOp::Move(_)) => "content unchanged",
                None => "no change",
            };
            text.push_str(&format!("{display}: {unchanged}\n"));
        } else {
            text.push_str(&diff);
        }
        files.push(file_facts(edit, target, Some(diff)));
    }
    if !warnings.is_empty() {
        text.push('\n');
        text.push_str(&warnings.join("\n"));
        text.push('\n');
    }
    Outcome::new(
        truncate_to_budget(text, cx.ws.max_output_bytes()),
        EditFacts {
            files,
            warnings,
            dry_run: true,
            unpasted_registers: None,
        },
    )
}

/// The document's tolerated spellings, then each file's advice, as reply
/// lines (`warning: …`, `note: PATH: …`).
fn warning_lines(
    document: &Document,
    targets: &[Target],
    edits: &[FileEdit],
    surface: Surface,
) -> Vec<String> {
    let mut lines: Vec<String> = document.warnings.iter().map(ToString::to_string).collect();
    for (edit, target) in edits.iter().zip(targets) {
        for advice in &edit.advice {
            // A syntax error is in the result, named by its new path.
            let path = match advice {
                Advice::Forced(Suspicion::BrokenSyntax(_)) => target.result_display(),
                _ => &target.path.display,
            };
            let advice_text = Worded(advice, surface);
            lines.push(format!("{}: {path}: {advice_text}", advice.label()));
        }
    }
    lines
}

/// Reply text: `reports` separated by blank lines, then the warnings.
fn with_warnings(reports: &[String], warnings: &[String]) -> String {
    let mut text = reports.join("\n\n");
    if !warnings.is_empty() {
        text.push_str("\n\n");
        text.push_str(&warnings.join("\n"));
    }
    text
}

/// The facts of one file's edit.
fn file_facts(edit: &FileEdit, target: &Target, diff: Option<String>) -> EditedFile {
    let removed = edit.file_op == Some(FileOp::Remove);
    EditedFile {
        path: target.path.display.clone(),
        old_tag: edit.written_against.to_string(),
        new_tag: (!removed).then(|| edit.new_tag().to_string()),
        summary: edit.summary.clone(),
        changed: !edit.unchanged,
        removed,
        moved_to: target.dest.as_ref().map(|d| d.display.clone()),
        diff,
    }
}
