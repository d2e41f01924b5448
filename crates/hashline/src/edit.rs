//! One section against one file: tag check, plan, apply, preview.
//!
//! This is the pure heart of the `edit` tool. The tools layer reads the live
//! bytes (under the file's lock), calls [`edit_section`], and writes
//! [`SectionEdit::bytes`] only when every section of the document succeeded
//! (reference-rho.md §8.2). A failure carries the live snapshot the model
//! should copy from (§8.4).

use std::fmt;

use crate::document::{InsertAt, OpKind, Section};
use crate::plan::{PlanError, plan, summarize};
use crate::tag::{SnapshotTag, TagScheme};
use crate::text::Text;
use crate::view::{PreviewShape, live_snapshot, post_edit_preview};

/// A section applied in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionEdit {
    /// The file's new bytes.
    pub bytes: Vec<u8>,
    /// The new bytes' snapshot tag.
    pub new_tag: SnapshotTag,
    /// The ops summary line.
    pub summary: String,
    /// The post-edit preview (header with the new tag, rows or the
    /// structural notice).
    pub preview: String,
    /// Notes about the ops that applied as written but may not be what the
    /// author meant, e.g. a body row that repeats the line beside it.
    pub warnings: Vec<String>,
}

impl SectionEdit {
    /// The model-facing text for this file: summary line, then preview.
    pub fn report(&self) -> String {
        format!("{}\n{}", self.summary, self.preview)
    }
}

/// Why a section failed; rendered with the live snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SectionFailure {
    /// The section's tag does not match the live file.
    StaleTag {
        /// Tag in the section header.
        expected: SnapshotTag,
        /// Tag of the live file.
        live: SnapshotTag,
    },
    /// The tag is stale and the session held the snapshot it names, but
    /// the ops could not be carried onto the live file.
    StaleTagNotRebased {
        /// Tag in the section header.
        expected: SnapshotTag,
        /// Tag of the live file.
        live: SnapshotTag,
        /// Why the rebase was refused.
        reason: String,
    },
    /// The tag matched but another snapshot served under it differs from
    /// the live bytes (a 16-bit collision, product.md §3 item 5).
    CollidingSnapshot {
        /// The tag in the section header (equal to the live tag).
        tag: SnapshotTag,
    },
    /// The ops do not fit the file.
    Plan(PlanError),
}

/// A failed section: what went wrong and the live snapshot to retry from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionError {
    /// Display path of the file.
    pub display: String,
    /// The failure.
    pub failure: SectionFailure,
    /// The live snapshot (`[path#LIVETAG]` and rows around the anchors).
    pub snapshot: String,
}

impl fmt::Display for SectionFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SectionFailure::StaleTag { expected, live } => write!(
                f,
                "snapshot tag {expected} is stale: the file changed and its tag is now {live}; \
                 nothing was written. Retry with the header and line numbers of the live snapshot below"
            ),
            SectionFailure::StaleTagNotRebased {
                expected,
                live,
                reason,
            } => write!(
                f,
                "snapshot tag {expected} is stale: the file changed and its tag is now {live}, and the \
                 ops could not be moved onto it safely ({reason}); nothing was written. Retry with the \
                 header and line numbers of the live snapshot below"
            ),
            SectionFailure::CollidingSnapshot { tag } => write!(
                f,
                "snapshot tag {tag} still matches, but the file's content differs from every snapshot \
                 served under that tag (a tag collision); nothing was written. Retry from the live snapshot below"
            ),
            SectionFailure::Plan(e) => write!(f, "{e}; nothing was written"),
        }
    }
}

impl fmt::Display for SectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}\n\nLive snapshot (copy this header and these line numbers to retry):\n{}",
            self.display, self.failure, self.snapshot
        )
    }
}

impl std::error::Error for SectionError {}

/// The original lines a live snapshot of `section` should show.
pub fn anchor_lines(section: &Section) -> Vec<usize> {
    section
        .ops
        .iter()
        .flat_map(|op| op.kind.anchor_lines())
        .collect()
}

/// Builds the error for `failure` with a live snapshot of `live`.
pub fn section_error(
    section: &Section,
    display: &str,
    live: &Text,
    live_tag: SnapshotTag,
    failure: SectionFailure,
) -> SectionError {
    SectionError {
        display: display.to_string(),
        failure,
        snapshot: live_snapshot(display, live_tag, live, &anchor_lines(section)),
    }
}

/// Checks the tag and applies `section` to the live file.
///
/// `live_bytes` must be the bytes `live` was decoded from. Errors:
/// [`SectionFailure::StaleTag`] when the tags differ, else
/// [`SectionFailure::Plan`] for ops that do not fit; both with a live
/// snapshot. Collision checks against served snapshots are the caller's
/// (they need session state).
pub fn edit_section(
    section: &Section,
    display: &str,
    live: &Text,
    live_bytes: &[u8],
    scheme: TagScheme,
) -> Result<SectionEdit, Box<SectionError>> {
    let live_tag = scheme.tag_of(live_bytes);
    if live_tag != section.tag {
        return Err(Box::new(section_error(
            section,
            display,
            live,
            live_tag,
            SectionFailure::StaleTag {
                expected: section.tag,
                live: live_tag,
            },
        )));
    }
    apply_section(section, display, live, scheme)
}

/// Applies `section` to `live` without checking the tag (the caller did).
///
/// Errors: [`SectionFailure::Plan`] with a live snapshot.
pub fn apply_section(
    section: &Section,
    display: &str,
    live: &Text,
    scheme: TagScheme,
) -> Result<SectionEdit, Box<SectionError>> {
    let live_tag_for_errors = || scheme.tag_of(&live.to_bytes());
    let plan = plan(&section.ops, live).map_err(|e| {
        Box::new(section_error(
            section,
            display,
            live,
            live_tag_for_errors(),
            SectionFailure::Plan(e),
        ))
    })?;
    let applied = plan.apply(live);
    let new_tag = scheme.tag_of(&applied.bytes);
    let new_text = match Text::decode(&applied.bytes) {
        Ok(text) => text,
        // Bodies come from a &str and lines are valid UTF-8, so the result
        // is always text; a body row carrying a NUL is the one way out.
        Err(_) => Text::from_body(false, String::from_utf8_lossy(&applied.bytes).into_owned()),
    };
    let shape = if applied.structural {
        PreviewShape::Structural
    } else {
        PreviewShape::Rows
    };
    let preview = post_edit_preview(display, new_tag, &new_text, &applied.focus, shape);
    Ok(SectionEdit {
        bytes: applied.bytes,
        new_tag,
        summary: summarize(&section.ops),
        preview,
        warnings: echo_warnings(section, live),
    })
}

/// Warns when a body's first or last row repeats the unchanged line next to
/// it: the rows are written as sent (content is never guessed, product.md
/// §4), but the author may have restated a neighbour by mistake.
fn echo_warnings(section: &Section, live: &Text) -> Vec<String> {
    let total = live.line_count();
    let line_text = |n: usize| (n >= 1 && n <= total).then(|| live.line(n));
    let mut warnings = Vec::new();
    for op in &section.ops {
        let (body, above, below) = match &op.kind {
            OpKind::Replace { range, body } => {
                (body, range.start.checked_sub(1), Some(range.end + 1))
            }
            OpKind::Insert {
                at: InsertAt::After(n),
                body,
            } => (body, Some(*n), None),
            OpKind::Insert {
                at: InsertAt::Before(n),
                body,
            } => (body, None, Some(*n)),
            OpKind::Insert {
                at: InsertAt::End,
                body,
            } => (body, Some(total), None),
            OpKind::Delete { .. } => continue,
        };
        let header = op.kind.canonical_header();
        let first = body.first().map(String::as_str);
        let last = body.last().map(String::as_str);
        let echoes = |row: Option<&str>, n: usize| {
            row.is_some_and(|row| !row.trim().is_empty()) && row == line_text(n)
        };
        if let Some(n) = above.filter(|&n| n >= 1)
            && echoes(first, n)
        {
            warnings.push(format!(
                "{header} (document line {}): the first body row repeats line {n}, which stays in the file; \
                 it is written twice as sent. If that was not meant, CUT the extra row",
                op.line
            ));
        }
        if let Some(n) = below
            && echoes(last, n)
        {
            warnings.push(format!(
                "{header} (document line {}): the last body row repeats line {n}, which stays in the file; \
                 it is written twice as sent. If that was not meant, CUT the extra row",
                op.line
            ));
        }
    }
    warnings
}
