//! `edit`: apply a hashline document to one or more files, all or nothing.
//! The rules live in the core ([`hashedit_core::edit_file`]); this module
//! does the I/O around them (FORMAT.md §6):
//!
//! 1. **prepare**: parse; resolve every path and `MV` destination; lock
//!    every file in a fixed order and read it under the lock (`targets`);
//! 2. **edit each file**: [`edit_file`] per section in document order, so
//!    registers flow from one section to the next;
//! 3. **commit and remember**: when every section succeeded, write all
//!    changes atomically, then record the new snapshots and registers;
//! 4. **reply**: summaries and previews, or a dry run's diffs (`reply`).
//!
//! A failure at any stage writes nothing; a failed section's live snapshot
//! is remembered as served.

mod reply;
mod targets;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hashedit_core::{
    Document, EditSettings, FileEdit, FileEditError, FileInput, FileOp, Fingerprint, Guards,
    NoHistory, RebaseLimit, Registers, SnapshotHistory, SnapshotTag, Surface, TagCheck, Worded,
    edit_file, parse,
};

use crate::args::EditArgs;
use crate::context::{Diffs, ToolContext};
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio::{self, Change, LockedFile, commit_changes};
use crate::outcome::Outcome;
use crate::session::Session;

use targets::{Target, resolve_targets};

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

/// Runs `edit`: per file, the ops summary and the post-edit preview, then
/// the warning and note lines; a dry run's text is each file's diff
/// (FORMAT.md §6.6). Facts: [`crate::EditFacts`], with each file's diff in a
/// dry run or when the context asks for diffs.
///
/// Errors: `ParseError`, `NotFound` (edit never creates files),
/// `ProtectedPath`, `DuplicatePath`, `PathOutsideWorkspace`,
/// `NotARegularFile`, `Binary`, `NotUtf8`, `UnsupportedEncoding`,
/// `TooLarge`, `StaleTag`, `LineOutOfRange`, `OverlappingOps`,
/// `UnresolvedBlock`, `RegisterError`, the guards' kinds (waived by
/// `force`), `Conflict`, `LockTimeout`, `PermissionDenied`, `Io`. Nothing
/// is written on any error.
pub fn edit(cx: &ToolContext, args: &EditArgs, mode: EditMode) -> ToolResult<Outcome> {
    edit_in(cx, args, mode).map_err(|e| e.worded(cx.surface))
}

fn edit_in(cx: &ToolContext, args: &EditArgs, mode: EditMode) -> ToolResult<Outcome> {
    let document = parse(&args.input).map_err(|e| {
        let message = format!("{}\nNothing was written.", Worded(&e, cx.surface));
        ToolError::new(ErrorKind::ParseError, message)
    })?;
    let targets = resolve_targets(cx, &document.sections)?;
    let paths: Vec<_> = targets.iter().map(|t| t.path.clone()).collect();
    let mut locked = fsio::lock_all(cx.ws, &paths, super::EDIT_MAX_BYTES)?;
    let guards = if args.force == Some(true) {
        Guards::WriteAsSent
    } else {
        Guards::Refuse
    };
    let (mut edits, registers) = edit_each_file(cx, &document, &targets, &locked, guards)?;
    let changes: Vec<Change> = edits.iter_mut().zip(&targets).map(change_of).collect();
    let diffs = (mode == EditMode::DryRun || cx.diffs == Diffs::Include)
        .then(|| reply::file_diffs(&targets, &locked, &changes, cx.ws.max_output_bytes()));
    let reply = match mode {
        EditMode::Apply => {
            let report = commit_changes(cx.ws, &mut locked, &changes)?;
            let unpasted = registers.unpasted();
            remember(cx, &targets, &locked, &edits, &changes, registers);
            let warnings = &report.warnings;
            reply::applied(cx, &document, &targets, &edits, diffs, warnings, &unpasted)
        }
        EditMode::DryRun => {
            reply::dry_run(cx, &document, &targets, &edits, diffs.unwrap_or_default())
        }
    };
    drop(locked);
    let mut reply = reply;
    for target in &targets {
        for resolved in std::iter::once(&target.path).chain(&target.dest) {
            super::append_note(&mut reply, resolved.note.as_deref());
        }
    }
    Ok(reply)
}

/// How long one edit call's drift rebases may spend diffing the served and
/// live texts before the edit is refused as stale (FORMAT.md §6.1). The
/// core never reads the clock to choose this: the deadline is ours.
const REBASE_DIFF_BUDGET: Duration = Duration::from_millis(200);

/// Stage 2: every section applied in memory, in document order.
fn edit_each_file(
    cx: &ToolContext,
    document: &Document,
    targets: &[Target],
    locked: &[LockedFile],
    guards: Guards,
) -> ToolResult<(Vec<FileEdit>, Registers)> {
    let settings = EditSettings {
        scheme: cx.ws.tag_scheme(),
        blocks: cx.blocks,
        rebase: RebaseLimit::Until(Instant::now() + REBASE_DIFF_BUDGET),
        guards,
        output: cx.output(),
    };
    let mut registers =
        Registers::with_named(cx.session.map(Session::registers).unwrap_or_default());
    let mut edits = Vec::with_capacity(locked.len());
    for ((section, target), file) in document.sections.iter().zip(targets).zip(locked) {
        let input = FileInput {
            section,
            display: &target.path.display,
            result_display: target.result_display(),
            bytes: &file.original,
        };
        let edited = match cx.session {
            Some(session) => {
                let history = SessionHistory {
                    session,
                    target: &target.path.target,
                };
                edit_file(&input, &settings, &history, &mut registers)
            }
            None => edit_file(&input, &settings, &NoHistory, &mut registers),
        };
        match edited {
            Ok(edit) => edits.push(edit),
            Err(error) => {
                remember_live_snapshot(cx, &target.path.target, &error, file);
                return Err(tool_error(&error, cx.surface));
            }
        }
    }
    Ok((edits, registers))
}

/// The session's memory of one file, as the core asks for it.
struct SessionHistory<'s> {
    session: &'s Session,
    target: &'s Path,
}

impl SnapshotHistory for SessionHistory<'_> {
    fn check(&self, live: Fingerprint) -> TagCheck {
        self.session.check(self.target, live)
    }

    fn rebase_base(&self, tag: SnapshotTag) -> Option<Arc<[u8]>> {
        self.session.rebase_base(self.target, tag)
    }
}

/// A failed section's reply serves a live snapshot: remember it, so the
/// retry written from it is checked against these bytes.
fn remember_live_snapshot(
    cx: &ToolContext,
    target: &Path,
    error: &FileEditError,
    file: &LockedFile,
) {
    if let (Some(session), Some(live)) = (cx.session, error.live) {
        session.record(target, live, Some(&file.original));
    }
}

/// What a section's result asks of the commit. The new bytes move out of
/// the edit into the change: no copy of a large file.
fn change_of((edit, target): (&mut FileEdit, &Target)) -> Change {
    let bytes = std::mem::take(&mut edit.bytes);
    match (&edit.file_op, &target.dest) {
        (Some(FileOp::Remove), _) => Change::Remove,
        (Some(FileOp::Move(_)), Some(dest)) => Change::Move {
            dest: dest.clone(),
            bytes,
        },
        _ if edit.unchanged => Change::Keep,
        _ => Change::Replace(bytes),
    }
}

/// Stage 3, after the commit: every snapshot an edit consumed, every new
/// snapshot the reply serves, and the registers the call cut into.
fn remember(
    cx: &ToolContext,
    targets: &[Target],
    locked: &[LockedFile],
    edits: &[FileEdit],
    changes: &[Change],
    registers: Registers,
) {
    let Some(session) = cx.session else {
        return;
    };
    for ((target, file), (edit, change)) in
        targets.iter().zip(locked).zip(edits.iter().zip(changes))
    {
        session.mark_consumed(&target.path.target, edit.base, edit.written_against);
        let written = match change {
            Change::Keep => Some((&target.path, edit.base, file.original.as_slice())),
            Change::Replace(bytes) => edit.result.map(|f| (&target.path, f, bytes.as_slice())),
            Change::Move { dest, bytes } => edit.result.map(|f| (dest, f, bytes.as_slice())),
            Change::Remove => None,
        };
        if let Some((path, fingerprint, bytes)) = written {
            session.record(&path.target, fingerprint, Some(bytes));
        }
    }
    session.store_registers(registers.into_captured());
}

/// Maps a failed section to its tool error, worded for `surface`.
fn tool_error(error: &FileEditError, surface: Surface) -> ToolError {
    let message = Worded(error, surface).to_string();
    ToolError::new(error.failure.class().into(), message)
}
