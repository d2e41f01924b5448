//! The model-facing text of an applied section (FORMAT.md §6.6): the ops
//! summary line and the post-edit preview.

use crate::lower::FileOp;

use super::FileEdit;

/// Most op summaries listed on a file's summary line; the rest are
/// counted, so a document of thousands of ops still leaves room for the
/// preview header.
pub(super) const MAX_SUMMARY_PARTS: usize = 24;

/// The summary line: one part per op, joined by `; `, at most
/// [`MAX_SUMMARY_PARTS`] of them.
pub(crate) fn summary_line(parts: &[String]) -> String {
    if parts.len() <= MAX_SUMMARY_PARTS {
        return parts.join("; ");
    }
    let more = parts.len() - MAX_SUMMARY_PARTS;
    format!(
        "{}; … and {more} more {}",
        parts[..MAX_SUMMARY_PARTS].join("; "),
        if more == 1 { "op" } else { "ops" }
    )
}

/// Leads the summary line of a section whose ops leave its file as it
/// was, applied only under `force` (FORMAT.md §7.8): its ops' summary must
/// not read as a change.
const UNCHANGED_LEAD: &str = "left unchanged, nothing written: ";

impl FileEdit {
    /// The model-facing text for this file: summary line, then preview.
    pub fn report(&self) -> String {
        match &self.file_op {
            Some(FileOp::Remove) => self.summary.clone(),
            _ => format!("{}\n{}", self.summary_text(), self.preview),
        }
    }

    /// The summary line as shown: the ops' summary, led by
    /// [`UNCHANGED_LEAD`] when they left the file as it was.
    fn summary_text(&self) -> String {
        if self.unchanged {
            format!("{UNCHANGED_LEAD}{}", self.summary)
        } else {
            self.summary.clone()
        }
    }

    /// The report without preview rows: summary line, the new header (so
    /// the edit still chains) and a notice. Used when the full report does
    /// not fit the output budget.
    pub fn compact_report(&self) -> String {
        match &self.file_op {
            Some(FileOp::Remove) => self.summary.clone(),
            _ => format!(
                "{}\n{}\n\n[the preview rows do not fit the output budget; read the file to see them]",
                self.summary_text(),
                self.header()
            ),
        }
    }

    /// The preview's header line `[path#TAG]` (empty for `REM`).
    pub fn header(&self) -> &str {
        self.preview.lines().next().unwrap_or_default()
    }
}
