//! The edit pipeline: one section of a document against one file's live
//! bytes, every rule of FORMAT.md §6 and §7 in one place.
//!
//! ```text
//! live bytes ─► decode (UTF-8 text only; omp: no lone CR)
//!            ─► fingerprint once (tag + digest)
//!            ─► tag rule (equal: collision check; stale: rebase or refuse)   history.rs
//!            ─► lower (blocks, registers) ─► plan (ranges, overlaps)
//!            ─► indentation refusal                                          indent.rs
//!            ─► apply ─► new fingerprint, decode once, preview
//!            ─► advice (rebase note, block notes, echo, slips,
//!               unchanged, broken syntax)                                     advice.rs
//! ```
//!
//! The caller does the I/O around [`edit_file`] and writes the new bytes
//! only when every section succeeded (FORMAT.md §6.5). Each text is decoded
//! once, hashed once and parsed by the block grammar at most once.

mod advice;
mod echo;
mod elision;
mod failure;
mod final_newline;
mod guard;
mod history;
mod indent;
mod neighbours;
mod parallel;
mod reading;
mod repair;
mod report;
mod slip;

use std::fmt;

use crate::block::{BlockResolver, LazyIndex};
use crate::document::Section;
use crate::lower::{FileOp, Lowered, Registers, lower_with};
use crate::plan::{Applied, plan};
use crate::rebase::{RebaseLimit, rebase};
use crate::surface::Output;
use crate::tag::{Fingerprint, SnapshotTag, TagScheme};
use crate::text::{Text, has_lone_cr};
use crate::view::{PreviewShape, excerpt, live_snapshot, long_line_change, post_edit_preview};

pub use advice::Advice;
pub use echo::{Echo, Edge};
pub use elision::Elision;
pub(crate) use failure::anchor_lines;
pub use failure::{EditFailure, FileEditError};
pub use final_newline::FinalNewlineProblem;
pub use guard::{Guards, Refusal, Suspicion, SyntaxBreak};
pub use history::{NoHistory, SnapshotHistory, TagCheck};
pub use indent::{Indent, IndentEvidence, IndentMismatch, LostIndentation};
pub use reading::{Reading, ReadingKind};
pub use repair::Repair;
pub use slip::{DroppedBlank, Shift, ShortRange};

use indent::{TabRole, indent_mismatch};

/// Largest file (bytes) whose syntax is checked before and after an edit.
pub(crate) const SYNTAX_CHECK_MAX_BYTES: usize = 2 * 1024 * 1024;

/// One section and the file it names.
#[derive(Clone, Copy)]
pub struct FileInput<'a> {
    /// The section.
    pub section: &'a Section,
    /// Display path of the file the section names.
    pub display: &'a str,
    /// Display path of the result: the `MV` destination, else `display`.
    pub result_display: &'a str,
    /// The file's live bytes.
    pub bytes: &'a [u8],
}

impl fmt::Debug for FileInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileInput")
            .field("display", &self.display)
            .field("bytes", &self.bytes.len())
            .finish_non_exhaustive()
    }
}

/// What every section of one call is applied with.
#[derive(Clone, Copy)]
pub struct EditSettings<'a> {
    /// The tag scheme of headers and new tags.
    pub scheme: TagScheme,
    /// The grammar for block locators (`N*`) and the syntax check; without
    /// one, block ops fail with a clear error and syntax is not checked.
    pub blocks: Option<&'a dyn BlockResolver>,
    /// How long a drift rebase may spend diffing.
    pub rebase: RebaseLimit,
    /// Whether the guards refuse what they find (FORMAT.md §7).
    pub guards: Guards,
    /// The reply's output budget and surface: snapshots and previews are
    /// worded for it, and a line too long for one is named with the read
    /// that shows it under this budget (FORMAT.md §4.4).
    pub output: Output,
}

impl fmt::Debug for EditSettings<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EditSettings")
            .field("scheme", &self.scheme)
            .field("blocks", &self.blocks.is_some())
            .field("rebase", &self.rebase)
            .field("guards", &self.guards)
            .field("output", &self.output)
            .finish()
    }
}

impl EditSettings<'_> {
    /// `scheme`, no block grammar, rebases without a time limit, guards
    /// that refuse, the default output budget.
    pub fn new(scheme: TagScheme) -> EditSettings<'static> {
        EditSettings {
            scheme,
            blocks: None,
            rebase: RebaseLimit::Unlimited,
            guards: Guards::Refuse,
            output: Output::from(crate::DEFAULT_MAX_OUTPUT_BYTES),
        }
    }
}

/// A section applied in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEdit {
    /// The file's new bytes (empty for `REM`).
    pub bytes: Vec<u8>,
    /// Fingerprint of the live bytes the section was applied to.
    pub base: Fingerprint,
    /// The tag the section was written against (its header's).
    pub written_against: SnapshotTag,
    /// Fingerprint of the new bytes; `None` for `REM`.
    pub result: Option<Fingerprint>,
    /// The ops summary line: one part per op, joined by `; `.
    pub summary: String,
    /// The post-edit preview (header with the new tag, rows or the
    /// structural notice); empty for `REM`.
    pub preview: String,
    /// Notes and warnings, in the order they are shown.
    pub advice: Vec<Advice>,
    /// `REM` or `MV`, to be carried out by the caller.
    pub file_op: Option<FileOp>,
    /// The ops leave the bytes exactly as they were (and there is no file
    /// op): nothing needs writing.
    pub unchanged: bool,
}

impl FileEdit {
    /// The new snapshot tag (the live one for `REM`).
    pub fn new_tag(&self) -> SnapshotTag {
        self.result.map_or(self.base.tag, |f| f.tag)
    }
}

/// Applies `input.section` to `input.bytes`: checks the tag against
/// `history`, lowers, plans and applies the ops, and reports (FORMAT.md
/// §6); `registers` carry captures between the sections of one call.
/// Errors: a [`FileEditError`] with a live snapshot to retry from.
///
/// ```
/// use hashedit_core::{
///     EditFailure, EditSettings, FileInput, NoHistory, Registers, TagScheme, edit_file, parse,
/// };
///
/// let bytes = b"fn a() {}\nfn b() {}\n";
/// let tag = TagScheme::Rho.tag_of(bytes);
/// let settings = EditSettings::new(TagScheme::Rho);
///
/// // Against the live tag: applied, with the new bytes and a preview.
/// let doc = parse(&format!("[a.rs#{tag}]\nPUT 2:\n+fn b() {{ todo!() }}\n"))?;
/// let input = FileInput { section: &doc.sections[0], display: "a.rs", result_display: "a.rs", bytes };
/// let edit = edit_file(&input, &settings, &NoHistory, &mut Registers::default())?;
/// assert_eq!(edit.bytes, b"fn a() {}\nfn b() { todo!() }\n");
/// assert_ne!(edit.new_tag(), tag);
///
/// // Against another tag: refused, with a live snapshot to retry from.
/// let stale = parse("[a.rs#0000]\nPUT 2:\n+fn c() {}\n")?;
/// let input = FileInput { section: &stale.sections[0], ..input };
/// let error = edit_file(&input, &settings, &NoHistory, &mut Registers::default()).unwrap_err();
/// assert!(matches!(error.failure, EditFailure::StaleTag { .. }));
/// assert!(error.snapshot.starts_with(&format!("[a.rs#{tag}]")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn edit_file(
    input: &FileInput,
    settings: &EditSettings,
    history: &dyn SnapshotHistory,
    registers: &mut Registers,
) -> Result<FileEdit, Box<FileEditError>> {
    let live = Text::decode(input.bytes).map_err(|e| untagged(input, EditFailure::NotText(e)))?;
    if settings.scheme == TagScheme::Omp && has_lone_cr(input.bytes) {
        return Err(untagged(input, EditFailure::LoneCarriageReturn));
    }
    let base = settings.scheme.fingerprint(input.bytes);
    let file = LiveFile {
        input,
        text: &live,
        base,
        output: settings.output,
    };
    let mut index = LazyIndex::new(settings.blocks, input.display, live.body());
    let section = input.section;
    if base.tag == section.tag {
        if history.check(base) == TagCheck::Collision {
            return Err(file.fail(EditFailure::CollidingSnapshot { tag: base.tag }));
        }
        let (section, repairs) = repair::verify(section, &live, settings.guards)
            .map_err(|e| file.fail(EditFailure::UnverifiedPaste(e)))?;
        let lowered =
            lower_with(&section, &live, &mut index, registers).map_err(|e| file.fail_lower(e))?;
        let notes = repairs.into_iter().map(Advice::Repaired).collect();
        return finish(&file, settings, lowered, &mut index, notes);
    }
    let stale = EditFailure::StaleTag {
        expected: section.tag,
        live: base.tag,
    };
    // A stale tag never deletes or moves a file: the author saw other bytes.
    let served = history
        .rebase_base(section.tag)
        .filter(|_| section.file_op().is_none());
    let Some(served) = served else {
        let other = settings.scheme.other();
        if other.tag_of(input.bytes) == section.tag {
            return Err(file.fail(EditFailure::OtherSchemeTag {
                expected: section.tag,
                live: base.tag,
                other,
            }));
        }
        return Err(file.fail(stale));
    };
    let Ok(served_text) = Text::decode(&served) else {
        return Err(file.fail(stale));
    };
    let (section, repairs) = repair::verify(section, &served_text, settings.guards)
        .map_err(|e| file.fail(EditFailure::UnverifiedPaste(e)))?;
    let mut served_index = LazyIndex::new(settings.blocks, input.display, served_text.body());
    let mut lowered = lower_with(&section, &served_text, &mut served_index, registers)
        .map_err(|e| file.fail_lower(e))?;
    let rebased =
        rebase(&lowered.hunks, &served_text, &live, settings.rebase).map_err(|reason| {
            file.fail(EditFailure::StaleTagNotRebased {
                expected: section.tag,
                live: base.tag,
                reason,
            })
        })?;
    lowered.hunks = rebased.hunks;
    let mut notes = vec![Advice::Rebased {
        from: section.tag,
        to: base.tag,
        shift: rebased.shift,
    }];
    notes.extend(repairs.into_iter().map(Advice::Repaired));
    finish(&file, settings, lowered, &mut index, notes)
}

/// The live file a section is applied to.
struct LiveFile<'i, 't> {
    input: &'i FileInput<'i>,
    text: &'t Text<'t>,
    base: Fingerprint,
    /// The reply's output budget.
    output: Output,
}

impl LiveFile<'_, '_> {
    /// The error for `failure`, with a live snapshot around the anchors.
    fn fail(&self, failure: EditFailure) -> Box<FileEditError> {
        self.fail_at(failure, &anchor_lines(self.input.section))
    }

    /// The error for a section that did not lower, with a live snapshot
    /// around its anchors and the lines the error names.
    fn fail_lower(&self, error: crate::lower::LowerError) -> Box<FileEditError> {
        let mut anchors = anchor_lines(self.input.section);
        anchors.extend(error.lines_to_show());
        self.fail_at(EditFailure::Lower(error), &anchors)
    }

    /// The error for `failure`, with a live snapshot around `anchors`.
    fn fail_at(&self, failure: EditFailure, anchors: &[usize]) -> Box<FileEditError> {
        Box::new(FileEditError {
            display: self.input.display.to_string(),
            failure,
            snapshot: live_snapshot(
                self.input.display,
                self.base.tag,
                self.text,
                anchors,
                self.output,
            ),
            live: Some(self.base),
        })
    }
}

/// The error for a file that has no snapshot to offer.
fn untagged(input: &FileInput, failure: EditFailure) -> Box<FileEditError> {
    Box::new(FileEditError {
        display: input.display.to_string(),
        failure,
        snapshot: String::new(),
        live: None,
    })
}

/// Plans and applies lowered hunks to the live file, then reports.
fn finish(
    file: &LiveFile,
    settings: &EditSettings,
    lowered: Lowered,
    live_index: &mut LazyIndex,
    notes: Vec<Advice>,
) -> Result<FileEdit, Box<FileEditError>> {
    let input = file.input;
    let summary = report::summary_line(&lowered.summary);
    let mut advice = notes;
    advice.extend(lowered.notes.iter().cloned().map(Advice::Lowering));
    if lowered.file_op == Some(FileOp::Remove) {
        return Ok(FileEdit {
            bytes: Vec::new(),
            base: file.base,
            written_against: input.section.tag,
            result: None,
            summary,
            preview: String::new(),
            advice,
            file_op: lowered.file_op,
            unchanged: false,
        });
    }
    let plan = plan(&lowered.hunks, file.text).map_err(|e| file.fail(EditFailure::Plan(e)))?;
    let mut applied = plan.apply(file.text);
    if let Some(state) = lowered.final_newline {
        applied.bytes = final_newline::set(applied.bytes, state, file.text, input.section)
            .map_err(|p| file.fail(EditFailure::FinalNewline(p)))?;
    }
    let result = settings.scheme.fingerprint(&applied.bytes);
    // Rows come from text and lines are valid UTF-8, and the planner
    // refuses rows with a NUL, so the result is text; stay total anyway.
    let new_text = match Text::decode(&applied.bytes) {
        Ok(text) => text,
        Err(_) => Text::from_body(false, String::from_utf8_lossy(&applied.bytes).into_owned()),
    };
    if lowered.final_newline.is_some() {
        applied.focus.push(new_text.line_count());
    }
    let unchanged = lowered.file_op.is_none() && applied.bytes == input.bytes;
    let suspicions = if unchanged {
        vec![no_change(&advice)]
    } else {
        let syntax = broken_syntax(settings, input.result_display, live_index, &new_text);
        run_guards(file, &lowered, &applied, syntax)
    };
    if !suspicions.is_empty() && settings.guards == Guards::Refuse {
        return Err(refuse(file, &lowered, &applied, &new_text, suspicions));
    }
    advice.extend(suspicions.into_iter().map(Advice::Forced));
    let shape = if applied.structural {
        PreviewShape::Structural
    } else {
        PreviewShape::Rows
    };
    let mut preview = post_edit_preview(
        input.result_display,
        result.tag,
        &new_text,
        &applied.focus,
        shape,
        settings.output,
    );
    if shape == PreviewShape::Rows {
        for note in long_line_changes(&lowered, &applied, &new_text) {
            preview.push('\n');
            preview.push_str(&note);
        }
    }
    Ok(FileEdit {
        bytes: applied.bytes,
        base: file.base,
        written_against: input.section.tag,
        result: Some(result),
        summary,
        preview,
        advice,
        file_op: lowered.file_op,
        unchanged,
    })
}

/// The notes showing each long line a `SUB` wrote around its change,
/// which the preview's rows leave out (FORMAT.md §5.9).
fn long_line_changes(lowered: &Lowered, applied: &Applied, new_text: &Text) -> Vec<String> {
    lowered
        .changes
        .iter()
        .filter_map(|change| {
            let placed = applied
                .placed
                .iter()
                .find(|p| p.line == change.op_line && p.rows > 0)?;
            long_line_change(new_text, placed.first, change.start, change.end)
        })
        .collect()
}

/// Every guard's findings about `lowered` applied to the live file, the
/// syntax check's error line (`syntax`) named by the op nearest to it.
fn run_guards(
    file: &LiveFile,
    lowered: &Lowered,
    applied: &Applied,
    syntax: Option<usize>,
) -> Vec<Suspicion> {
    let role = TabRole::of(file.input.result_display);
    let syntax = syntax.map(|line| SyntaxBreak {
        line,
        op: guard::nearest_op(&applied.placed, &lowered.hunks, line),
    });
    guard::suspicions(&guard::Scene {
        hunks: &lowered.hunks,
        live: file.text,
        indentation: indent_mismatch(&lowered.hunks, file.text, role),
        syntax,
    })
}

/// The finding for ops that leave the file as it is: plain, or, when an
/// op's numbered rows were repaired (their `N:` prefixes left out), the
/// finding that says so, since written as sent those rows would change it.
fn no_change(advice: &[Advice]) -> Suspicion {
    let numbered = advice.iter().find_map(|a| match a {
        Advice::Repaired(Repair::Numbered { op, lines }) => Some((op.clone(), *lines)),
        _ => None,
    });
    match numbered {
        Some((op, lines)) => Suspicion::UnnumberedNoChange { op, lines },
        None => Suspicion::NoChange,
    }
}

/// The refusal of a section the guards stopped: what it would have
/// written, the readings to copy, and a live snapshot around the suspect
/// ops' lines.
fn refuse(
    file: &LiveFile,
    lowered: &Lowered,
    applied: &Applied,
    new_text: &Text,
    suspicions: Vec<Suspicion>,
) -> Box<FileEditError> {
    let suspect_ops: Vec<usize> = suspicions.iter().filter_map(Suspicion::op_line).collect();
    let anchors: Vec<usize> = lowered
        .hunks
        .iter()
        .filter(|h| suspect_ops.contains(&h.line))
        .flat_map(|h| h.kind.anchor_lines())
        .collect();
    let refusal = Refusal {
        readings: guard::readings(&lowered.hunks, &suspicions, file.text),
        would_write: excerpt(new_text, &guard::focus(&suspicions, &applied.placed)),
        suspicions,
    };
    let anchors = if anchors.is_empty() {
        anchor_lines(file.input.section)
    } else {
        anchors
    };
    file.fail_at(EditFailure::Refused(Box::new(refusal)), &anchors)
}

/// The first syntax error line of `new` when the old text parsed cleanly
/// (FORMAT.md §7.4); `None` without a grammar, over
/// [`SYNTAX_CHECK_MAX_BYTES`], when a parse is inconclusive or nothing
/// broke. The new text is parsed first: the usual edit pays one parse.
fn broken_syntax(
    settings: &EditSettings,
    display: &str,
    old: &mut LazyIndex,
    new: &Text,
) -> Option<usize> {
    let blocks = settings.blocks?;
    if old.text_len() > SYNTAX_CHECK_MAX_BYTES || new.body().len() > SYNTAX_CHECK_MAX_BYTES {
        return None;
    }
    let after = blocks.index(display, new.body()).ok()?.syntax()??;
    let before = old.get().ok()?.syntax()?;
    before.is_none().then_some(after)
}

#[cfg(test)]
mod tests;
