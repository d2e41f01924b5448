//! `edit`: apply a hashline document to one or more files, all or nothing.
//!
//! Pipeline (architecture.md): parse the document; resolve every section's
//! path inside the workspace (edit never creates files); take every file's
//! lock in a fixed order; decode and tag-check each file under its lock,
//! plan and apply in memory; only when every section succeeded, commit all
//! files atomically, rolling back on a failure (reference-rho.md §8.2,
//! product.md §3 items 3 and 4). The reply is each file's ops summary and
//! post-edit preview (§8.3); a failure returns a live snapshot (§8.4).

use std::collections::HashMap;
use std::path::PathBuf;

use hashline::diff::unified_diff;
use hashline::document::Section;
use hashline::edit::{
    SectionEdit, SectionError, SectionFailure, apply_section, section_error as failed_section,
};
use hashline::parse::parse;
use hashline::plan::PlanError;
use hashline::rebase::rebase;
use hashline::tag::Fingerprint;
use hashline::text::Text;
use serde_json::json;

use crate::args::EditArgs;
use crate::context::ToolContext;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio;
use crate::outcome::Outcome;
use crate::session::TagCheck;
use crate::tools::read::decode_error;
use crate::workspace::{Resolve, ResolvedPath};

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
        ) => ErrorKind::LineOutOfRange,
        SectionFailure::Plan(PlanError::Overlap { .. } | PlanError::InsertInsideSpan { .. }) => {
            ErrorKind::OverlappingOps
        }
        SectionFailure::Plan(PlanError::RowWithLineBreak { .. }) => ErrorKind::ParseError,
    }
}

fn section_error(error: Box<SectionError>) -> ToolError {
    ToolError::new(section_kind(&error.failure), error.to_string())
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
    section: &Section,
    path: &ResolvedPath,
    live_text: &Text,
    live: Fingerprint,
) -> Result<(SectionEdit, Option<String>), Box<SectionError>> {
    let scheme = cx.ws.tag_scheme();
    let display = &path.display;
    let fail = |failure| {
        Box::new(failed_section(
            section, display, live_text, live.tag, failure,
        ))
    };
    if live.tag == section.tag {
        if let Some(session) = cx.session
            && session.check(&path.target, live) == TagCheck::Collision
        {
            return Err(fail(SectionFailure::CollidingSnapshot { tag: live.tag }));
        }
        return apply_section(section, display, live_text, scheme).map(|e| (e, None));
    }
    let stale = SectionFailure::StaleTag {
        expected: section.tag,
        live: live.tag,
    };
    let Some(served) = cx
        .session
        .and_then(|s| s.served_text(&path.target, section.tag))
    else {
        return Err(fail(stale));
    };
    let Ok(served_text) = Text::decode(&served) else {
        return Err(fail(stale));
    };
    match rebase(&section.ops, &served_text, live_text) {
        Ok(rebased) => {
            let moved = Section {
                ops: rebased.ops,
                ..section.clone()
            };
            let edited = apply_section(&moved, display, live_text, scheme)?;
            let note = format!(
                "the file changed since snapshot {} was served (it is now {}); the ops touch only \
                 unchanged lines, so they were moved by {:+} lines and applied to the live file",
                section.tag, live.tag, rebased.shift
            );
            Ok((edited, Some(note)))
        }
        Err(refusal) => Err(fail(SectionFailure::StaleTagNotRebased {
            expected: section.tag,
            live: live.tag,
            reason: refusal.to_string(),
        })),
    }
}

/// Runs `edit`.
///
/// Text (apply): per file, in document order, the ops summary line and the
/// post-edit preview, files separated by a blank line; then one
/// `warning: …` line per tolerated spelling or suspicious body. Text
/// (dry run): the unified diff of each file. Structured data:
/// `{"files":[{"path","old_tag","new_tag","summary","changed"}],"warnings":[…],"dry_run":bool}`
/// plus `"diff"` per file in a dry run.
///
/// Errors: `ParseError`, `NotFound` (edit never creates files),
/// `DuplicatePath`, `PathOutsideWorkspace`, `NotARegularFile`, `Binary`,
/// `NotUtf8`, `UnsupportedEncoding`, `TooLarge`, `StaleTag`,
/// `LineOutOfRange`, `OverlappingOps`, `LockTimeout`, `PermissionDenied`,
/// `Conflict`, `Io`. Nothing is written on any error.
pub fn edit(cx: &ToolContext, args: &EditArgs, mode: EditMode) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let document = parse(&args.input)
        .map_err(|e| ToolError::new(ErrorKind::ParseError, format!("{e}\nNothing was written.")))?;
    let mut resolved: Vec<ResolvedPath> = Vec::with_capacity(document.sections.len());
    let mut claimed: HashMap<PathBuf, String> = HashMap::new();
    for section in &document.sections {
        let path = ws.resolve(&section.path, Resolve::Existing).map_err(|e| {
            if e.kind == ErrorKind::NotFound {
                ToolError::new(
                    ErrorKind::NotFound,
                    format!(
                        "{} (document line {}) does not exist; edit never creates files, so use write \
                         to create it. Nothing was written.",
                        section.path, section.line
                    ),
                )
            } else {
                e
            }
        })?;
        if let Some(first) = claimed.insert(path.target.clone(), section.path.clone()) {
            let also = if first == section.path {
                String::new()
            } else {
                format!(" (also written as '{first}')")
            };
            return Err(ToolError::new(
                ErrorKind::DuplicatePath,
                format!(
                    "the document has two sections for '{}'{also} (document line {}); put all ops for \
                     one file in one section. Nothing was written.",
                    section.path, section.line
                ),
            ));
        }
        resolved.push(path);
    }
    let mut locked = fsio::lock_all(ws, &resolved, super::EDIT_MAX_BYTES)?;
    let mut new_contents = Vec::with_capacity(locked.len());
    let mut reports = Vec::with_capacity(locked.len());
    let mut files = Vec::with_capacity(locked.len());
    let mut warnings: Vec<String> = document.warnings.iter().map(ToString::to_string).collect();
    for ((section, path), file) in document.sections.iter().zip(&resolved).zip(&locked) {
        let display = &path.display;
        let text = Text::decode(&file.original).map_err(|e| decode_error(display, &e, "edit"))?;
        let live = ws.tag_scheme().fingerprint(&file.original);
        let edited = match check_section(cx, section, path, &text, live) {
            Ok(edited) => edited,
            Err(error) => {
                // The reply serves a live snapshot: remember it.
                if let Some(session) = cx.session {
                    session.record(&path.target, live, Some(&file.original));
                }
                return Err(section_error(error));
            }
        };
        if let Some(note) = &edited.1 {
            warnings.push(format!("note: {display}: {note}"));
        }
        let edited = edited.0;
        let changed = edited.bytes != file.original;
        if !changed {
            warnings.push(format!(
                "warning: {display}: the edit leaves the file exactly as it was (each body equals \
                 the lines it replaces); nothing was written to it"
            ));
        }
        warnings.extend(
            edited
                .warnings
                .iter()
                .map(|w| format!("warning: {display}: {w}")),
        );
        let mut entry = json!({
            "path": display,
            "old_tag": section.tag.to_string(),
            "new_tag": edited.new_tag.to_string(),
            "summary": edited.summary,
            "changed": changed,
        });
        match mode {
            EditMode::Apply => reports.push(edited.report()),
            EditMode::DryRun => {
                let diff = unified_diff(display, &file.original, &edited.bytes);
                entry["diff"] = json!(diff);
                reports.push(if diff.is_empty() {
                    format!("{display}: no change\n")
                } else {
                    diff
                });
            }
        }
        files.push(entry);
        new_contents.push(changed.then_some(edited.bytes));
    }
    let text = match mode {
        EditMode::Apply => {
            fsio::commit_all(&mut locked, &new_contents)?;
            if let Some(session) = cx.session {
                for ((path, file), new) in resolved.iter().zip(&locked).zip(&new_contents) {
                    let bytes = new.as_deref().unwrap_or(&file.original);
                    session.record(
                        &path.target,
                        ws.tag_scheme().fingerprint(bytes),
                        Some(bytes),
                    );
                }
            }
            let mut text = reports.join("\n\n");
            if !warnings.is_empty() {
                text.push_str("\n\n");
                text.push_str(&warnings.join("\n"));
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
        hashline::truncate::truncate_to_budget(text, ws.max_output_bytes()),
        json!({
            "files": files,
            "warnings": warnings,
            "dry_run": mode == EditMode::DryRun,
        }),
    ))
}
