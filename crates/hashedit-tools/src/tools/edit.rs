//! `edit`: apply a hashline document to one or more files, all or nothing.
//!
//! Pipeline (architecture.md): parse the document; resolve every section's
//! path inside the workspace (edit never creates files) and every `MV`
//! destination (which must not exist); take every file's lock in a fixed
//! order; decode and tag-check each file under its lock; lower (blocks,
//! registers), plan and apply in memory, sections in document order so
//! registers flow from one to the next; only when every section succeeded,
//! commit all changes atomically, rolling back on a failure
//! (reference-rho.md §8.2, product.md §3 items 3 and 4). The reply is each
//! file's ops summary and post-edit preview (§8.3); a failure returns a live
//! snapshot (§8.4).

use std::collections::HashMap;
use std::path::PathBuf;

use hashedit_core::diff::unified_diff;
use hashedit_core::document::{OpKind, Section};
use hashedit_core::edit::{
    SectionEdit, SectionError, SectionFailure, SectionInput, apply_section, rebase_section,
    section_error as failed_section,
};
use hashedit_core::lower::{FileOp, LowerError, Registers};
use hashedit_core::parse::parse;
use hashedit_core::plan::PlanError;
use hashedit_core::tag::Fingerprint;
use hashedit_core::text::Text;
use serde_json::json;

use crate::args::EditArgs;
use crate::context::ToolContext;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio::{self, Change, commit_changes};
use crate::outcome::Outcome;
use crate::session::TagCheck;
use crate::tools::read::decode_error;
use crate::workspace::{Resolve, ResolvedPath, display_path};

/// Most warning lines listed when a reply must shrink to fit the budget.
const MAX_LISTED_WARNINGS: usize = 20;

/// Whether `edit` writes or only reports what it would do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EditMode {
    /// Apply and write.
    #[default]
    Apply,
    /// Validate and compute the result; write nothing. The text is the
    /// unified diff of every file.
    DryRun,
}

/// Maps a failed section to its tool error kind.
fn section_kind(failure: &SectionFailure) -> ErrorKind {
    match failure {
        SectionFailure::StaleTag { .. }
        | SectionFailure::StaleTagNotRebased { .. }
        | SectionFailure::CollidingSnapshot { .. } => ErrorKind::StaleTag,
        SectionFailure::Plan(
            PlanError::OutOfRange { .. }
            | PlanError::EmptyFile { .. }
            | PlanError::InsertIntoEmpty { .. },
        )
        | SectionFailure::Lower(LowerError::OutOfRange { .. }) => ErrorKind::LineOutOfRange,
        SectionFailure::Plan(PlanError::Overlap { .. } | PlanError::InsertInsideSpan { .. }) => {
            ErrorKind::OverlappingOps
        }
        SectionFailure::Plan(
            PlanError::RowWithLineBreak { .. }
            | PlanError::RowWithNul { .. }
            | PlanError::RowWithBom { .. },
        ) => ErrorKind::ParseError,
        SectionFailure::Indentation(_) => ErrorKind::IndentationMismatch,
        SectionFailure::Lower(
            LowerError::Unresolvable { .. } | LowerError::SingleLineBlock { .. },
        ) => ErrorKind::UnresolvedBlock,
        SectionFailure::Lower(
            LowerError::NothingToPaste { .. }
            | LowerError::AmbiguousPaste { .. }
            | LowerError::UnknownRegister { .. },
        ) => ErrorKind::RegisterError,
    }
}

fn section_error(error: Box<SectionError>) -> ToolError {
    ToolError::new(section_kind(&error.failure), error.to_string())
}

/// One section's file, resolved.
struct Target {
    path: ResolvedPath,
    /// The `MV` destination, resolved and checked absent.
    dest: Option<ResolvedPath>,
}

/// Checks a section's tag against the live file and applies it.
///
/// Tag equal: applied, unless the session served a different snapshot
/// under that tag (a collision, product.md §3 item 5). Tag different: if the
/// session still holds the snapshot the tag names, the ops are rebased onto
/// the live file when only unrelated lines changed (§3 item 6), and the
/// note saying so is returned; otherwise the tag is stale.
fn check_section(
    cx: &ToolContext,
    input: &SectionInput,
    target: &std::path::Path,
    live: Fingerprint,
    registers: &mut Registers,
) -> Result<(SectionEdit, Option<String>), Box<SectionError>> {
    let section = input.section;
    if live.tag == section.tag {
        if let Some(session) = cx.session
            && session.check(target, live) == TagCheck::Collision
        {
            return Err(failed_section(
                input,
                SectionFailure::CollidingSnapshot { tag: live.tag },
            ));
        }
        return apply_section(input, registers).map(|e| (e, None));
    }
    let stale = SectionFailure::StaleTag {
        expected: section.tag,
        live: live.tag,
    };
    // A stale tag never deletes or moves a file: the author saw other bytes.
    let served = cx.session.and_then(|s| s.rebase_base(target, section.tag));
    let served_text = served.as_deref().and_then(|bytes| Text::decode(bytes).ok());
    let Some(served_text) = served_text.filter(|_| section.file_op().is_none()) else {
        return Err(failed_section(input, stale));
    };
    let (edited, shift) = rebase_section(input, &served_text, registers)?;
    let note = format!(
        "the file changed since snapshot {} was served (it is now {}); the ops touch only \
         unchanged lines, so they were moved by {shift:+} lines and applied to the live file",
        section.tag, live.tag
    );
    Ok((edited, Some(note)))
}

/// Largest file (bytes) whose syntax is checked before and after an edit.
const SYNTAX_CHECK_MAX_BYTES: usize = 2 * 1024 * 1024;

/// The first syntax error line of `new`, when `old` parsed cleanly with the
/// grammar of `display`'s language: an edit that breaks a parsing file
/// usually means a wrong line number or range (oh-my-pi's parse advisory).
/// `None` when there is no grammar, the file is too large, either parse was
/// inconclusive, or nothing broke.
///
/// The new text is parsed first: when it parses cleanly nothing broke,
/// whatever the old text was, so the usual edit pays for one parse, not
/// two (a parse is most of an edit's time on a mid-size source file).
fn broken_syntax(cx: &ToolContext, display: &str, old: &Text, new: &[u8]) -> Option<usize> {
    let blocks = cx.blocks?;
    if old.body().len() > SYNTAX_CHECK_MAX_BYTES || new.len() > SYNTAX_CHECK_MAX_BYTES {
        return None;
    }
    let new_text = Text::decode(new).ok()?;
    let after = blocks.index(display, new_text.body()).ok()?.syntax()??;
    let before = blocks.index(display, old.body()).ok()?.syntax()?;
    before.is_none().then_some(after)
}

/// The workspace-relative display path of the one existing file that the
/// session served under `section`'s tag, preferring files with the same
/// name as the missing path: the likely meaning of a header whose path was
/// mistyped or given relative to another directory.
fn served_elsewhere(cx: &ToolContext, section: &Section) -> Option<String> {
    let session = cx.session?;
    let wanted = std::path::Path::new(&section.path).file_name();
    let candidates: Vec<(String, bool)> = session
        .paths_served_with(section.tag)
        .into_iter()
        .filter(|p| p.is_file())
        .filter_map(|p| {
            let relative = p.strip_prefix(cx.ws.root()).ok()?.to_str()?.to_owned();
            let same_name = wanted.is_some() && p.file_name() == wanted;
            Some((relative, same_name))
        })
        .collect();
    let named: Vec<&String> = candidates
        .iter()
        .filter(|(_, same)| *same)
        .map(|(p, _)| p)
        .collect();
    let pick = match (named.as_slice(), candidates.as_slice()) {
        ([one], _) => (*one).clone(),
        ([], [(only, _)]) => only.clone(),
        _ => return None,
    };
    Some(display_path(&pick).into_owned())
}

/// Resolves every section's file and `MV` destination.
fn resolve_targets(cx: &ToolContext, sections: &[Section]) -> ToolResult<Vec<Target>> {
    let ws = cx.ws;
    let mut targets: Vec<Target> = Vec::with_capacity(sections.len());
    let mut claimed: HashMap<PathBuf, String> = HashMap::new();
    for section in sections {
        let path = ws.resolve(&section.path, Resolve::Existing).map_err(|e| {
            if e.kind == ErrorKind::NotFound {
                let hint = served_elsewhere(cx, section)
                    .map(|display| {
                        format!(
                            " A snapshot with this tag was served for {display}: if you meant that file, \
                             use the header [{display}#{}].",
                            section.tag
                        )
                    })
                    .unwrap_or_default();
                ToolError::new(
                    ErrorKind::NotFound,
                    format!(
                        "{} (document line {}) does not exist; edit never creates files, so use write \
                         to create it.{hint} Nothing was written.",
                        section.path, section.line
                    ),
                )
            } else {
                e
            }
        })?;
        let dest = match section.file_op().map(|op| &op.kind) {
            Some(OpKind::Move { dest }) => {
                let resolved = ws.resolve(dest, Resolve::MayCreate)?;
                if resolved.target == path.target {
                    return Err(ToolError::new(
                        ErrorKind::InvalidArguments,
                        format!("MV {dest} names the file itself; nothing was written"),
                    ));
                }
                if resolved.exists {
                    return Err(ToolError::new(
                        ErrorKind::Conflict,
                        format!(
                            "MV {dest}: {} already exists, and MV never overwrites a file; choose another \
                             destination or REM it first in a separate edit. Nothing was written.",
                            resolved.display
                        ),
                    ));
                }
                Some(resolved)
            }
            _ => None,
        };
        for claim in std::iter::once(&path).chain(dest.as_ref()) {
            if let Some(first) = claimed.insert(claim.target.clone(), section.path.clone()) {
                let also = if first == section.path {
                    String::new()
                } else {
                    format!(" (also written as '{first}')")
                };
                return Err(ToolError::new(
                    ErrorKind::DuplicatePath,
                    format!(
                        "the document names '{}'{also} twice (document line {}); put all ops for one file \
                         in one section, and move a file only to a path no other section uses. Nothing \
                         was written.",
                        claim.display, section.line
                    ),
                ));
            }
        }
        targets.push(Target { path, dest });
    }
    Ok(targets)
}

/// Runs `edit`.
///
/// Text (apply): per file, in document order, the ops summary line and the
/// post-edit preview, files separated by a blank line; then one
/// `warning: …` or `note: …` line per tolerated spelling, suspicious body or
/// drift rebase. Text (dry run): the unified diff of each file. Structured
/// data: `{"files":[{"path","old_tag","new_tag","summary","changed","removed","moved_to"}],"warnings":[…],"dry_run":bool}`
/// plus `"diff"` per file in a dry run.
///
/// Errors: `ParseError`, `NotFound` (edit never creates files),
/// `DuplicatePath`, `PathOutsideWorkspace`, `NotARegularFile`, `Binary`,
/// `NotUtf8`, `UnsupportedEncoding`, `TooLarge`, `StaleTag`,
/// `LineOutOfRange`, `OverlappingOps`, `UnresolvedBlock`, `RegisterError`,
/// `Conflict` (an `MV` destination exists), `LockTimeout`,
/// `PermissionDenied`, `Io`. Nothing is written on any error.
pub fn edit(cx: &ToolContext, args: &EditArgs, mode: EditMode) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let document = parse(&args.input)
        .map_err(|e| ToolError::new(ErrorKind::ParseError, format!("{e}\nNothing was written.")))?;
    let targets = resolve_targets(cx, &document.sections)?;
    let paths: Vec<ResolvedPath> = targets.iter().map(|t| t.path.clone()).collect();
    let mut locked = fsio::lock_all(ws, &paths, super::EDIT_MAX_BYTES)?;
    let mut registers =
        Registers::with_named(cx.session.map(|s| s.registers()).unwrap_or_default());
    let mut changes: Vec<Change> = Vec::with_capacity(locked.len());
    let mut bases: Vec<(Fingerprint, hashedit_core::tag::SnapshotTag)> =
        Vec::with_capacity(locked.len());
    let mut reports = Vec::with_capacity(locked.len());
    let mut compact = Vec::with_capacity(locked.len());
    let mut minimal = Vec::with_capacity(locked.len());
    let mut files = Vec::with_capacity(locked.len());
    let mut warnings: Vec<String> = document.warnings.iter().map(ToString::to_string).collect();
    for ((section, target), file) in document.sections.iter().zip(&targets).zip(&locked) {
        let display = &target.path.display;
        let result_display = target.dest.as_ref().map_or(display, |d| &d.display);
        let text = Text::decode(&file.original).map_err(|e| decode_error(display, &e, "edit"))?;
        if ws.tag_scheme() == hashedit_core::TagScheme::Omp
            && hashedit_core::text::has_lone_cr(&file.original)
        {
            return Err(ToolError::new(
                ErrorKind::UnsupportedEncoding,
                format!(
                    "{display} has a carriage return (CR) that is not followed by LF. The omp tag \
                     scheme reads it as a line break but line numbers do not, so a tag could not \
                     prove which lines you saw; nothing was written. Use the rho tag scheme for this \
                     file, or replace it whole with write"
                ),
            ));
        }
        let live = ws.tag_scheme().fingerprint(&file.original);
        let input = SectionInput {
            section,
            display,
            result_display,
            live: &text,
            live_tag: live.tag,
            scheme: ws.tag_scheme(),
            blocks: cx.blocks,
        };
        let (edited, note) =
            match check_section(cx, &input, &target.path.target, live, &mut registers) {
                Ok(done) => done,
                Err(error) => {
                    // The reply serves a live snapshot: remember it.
                    if let Some(session) = cx.session {
                        session.record(&target.path.target, live, Some(&file.original));
                    }
                    return Err(section_error(error));
                }
            };
        if let Some(note) = note {
            warnings.push(format!("note: {display}: {note}"));
        }
        warnings.extend(
            edited
                .warnings
                .iter()
                .map(|w| format!("warning: {display}: {w}")),
        );
        let unchanged = edited.file_op.is_none() && edited.bytes == file.original;
        if !unchanged
            && edited.file_op != Some(FileOp::Remove)
            && let Some(line) = broken_syntax(cx, result_display, &text, &edited.bytes)
        {
            warnings.push(format!(
                "warning: {result_display}: the file parsed before this edit and now has a syntax error \
                 near line {line}; it was written as sent, so check the line numbers and ranges of the \
                 ops near there"
            ));
        }
        if unchanged {
            warnings.push(format!(
                "warning: {display}: the edit leaves the file exactly as it was (each body equals \
                 the lines it replaces); nothing was written to it"
            ));
        }
        let mut entry = json!({
            "path": display,
            "old_tag": section.tag.to_string(),
            "new_tag": (edited.file_op != Some(FileOp::Remove)).then(|| edited.new_tag.to_string()),
            "summary": edited.summary,
            "changed": !unchanged,
            "removed": edited.file_op == Some(FileOp::Remove),
            "moved_to": target.dest.as_ref().map(|d| d.display.clone()),
        });
        match mode {
            EditMode::Apply => {
                reports.push(edited.report());
                compact.push(edited.compact_report());
                minimal.push(match &edited.file_op {
                    Some(FileOp::Remove) => format!("REM {display}"),
                    _ => edited
                        .preview
                        .lines()
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                });
            }
            EditMode::DryRun => {
                let after: &[u8] = match &edited.file_op {
                    Some(FileOp::Remove) => b"",
                    _ => &edited.bytes,
                };
                let diff = unified_diff(display, &file.original, after);
                entry["diff"] = json!(diff);
                let file_op = match (&edited.file_op, &target.dest) {
                    (Some(FileOp::Remove), _) => format!("REM: {display} would be deleted\n"),
                    (Some(FileOp::Move(_)), Some(dest)) => {
                        format!("MV: {display} would move to {}\n", dest.display)
                    }
                    _ => String::new(),
                };
                reports.push(if diff.is_empty() {
                    format!("{file_op}{display}: no change\n")
                } else {
                    format!("{file_op}{diff}")
                });
            }
        }
        files.push(entry);
        // The new bytes move into the change: no copy of a large file.
        changes.push(match (edited.file_op, &target.dest) {
            (Some(FileOp::Remove), _) => Change::Remove,
            (Some(FileOp::Move(_)), Some(dest)) => Change::Move {
                dest: dest.clone(),
                bytes: edited.bytes,
            },
            _ if unchanged => Change::Keep,
            _ => Change::Replace(edited.bytes),
        });
        bases.push((live, section.tag));
    }
    let text = match mode {
        EditMode::Apply => {
            let report = commit_changes(ws, &mut locked, &changes)?;
            warnings.extend(report.warnings);
            if let Some(session) = cx.session {
                for (target, (base, written_against)) in targets.iter().zip(&bases) {
                    session.mark_consumed(&target.path.target, *base, *written_against);
                }
                for ((target, file), change) in targets.iter().zip(&locked).zip(&changes) {
                    let written = match change {
                        Change::Keep => Some((&target.path, file.original.as_slice())),
                        Change::Replace(bytes) => Some((&target.path, bytes.as_slice())),
                        Change::Move { dest, bytes } => Some((dest, bytes.as_slice())),
                        Change::Remove => None,
                    };
                    if let Some((path, bytes)) = written {
                        session.record(
                            &path.target,
                            ws.tag_scheme().fingerprint(bytes),
                            Some(bytes),
                        );
                    }
                }
                session.set_registers(registers.into_named());
            }
            let with_warnings = |reports: &[String], warnings: &[String]| {
                let mut text = reports.join("\n\n");
                if !warnings.is_empty() {
                    text.push_str("\n\n");
                    text.push_str(&warnings.join("\n"));
                }
                text
            };
            // Keep what the model needs to chain (each new header) when the
            // previews or the warnings do not fit the budget.
            let budget = ws.max_output_bytes();
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
            text
        }
        EditMode::DryRun => {
            let mut text = reports.concat();
            if !warnings.is_empty() {
                text.push('\n');
                text.push_str(&warnings.join("\n"));
                text.push('\n');
            }
            text
        }
    };
    drop(locked);
    Ok(Outcome::new(
        hashedit_core::truncate::truncate_to_budget(text, ws.max_output_bytes()),
        json!({
            "files": files,
            "warnings": warnings,
            "dry_run": mode == EditMode::DryRun,
        }),
    ))
}
