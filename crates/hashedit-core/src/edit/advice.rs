//! What an applied section reports beside its result (FORMAT.md §7.7):
//! notes about how it was applied and warnings about what remains
//! doubtful, each an [`Advice`] whose text the tools prefix with
//! `warning: PATH:` or `note: PATH:`.

use std::fmt;

use crate::lower::LowerNote;
use crate::surface::{Surface, Word, display_as_mcp};
use crate::tag::SnapshotTag;

use super::guard::Suspicion;
use super::repair::Repair;

/// One finding about an applied section.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Advice {
    /// The tag was stale, and the ops were carried onto the live file
    /// because they touch only unchanged lines (a note, not a warning).
    Rebased {
        /// The tag the section was written against.
        from: SnapshotTag,
        /// The live file's tag the ops were applied to.
        to: SnapshotTag,
        /// Lines every op moved by (live − served).
        shift: isize,
    },
    /// Something block resolution noticed (module `lower`).
    Lowering(LowerNote),
    /// What a guard found, written as sent because the author forced it.
    Forced(Suspicion),
    /// Rows pasted from a diff or a read, repaired after the snapshot
    /// proved what they meant.
    Repaired(Repair),
}

impl Advice {
    /// `note` for how the edit was applied, `warning` for what may be a
    /// mistake.
    pub fn label(&self) -> &'static str {
        match self {
            Advice::Rebased { .. } => "note",
            _ => "warning",
        }
    }
}

impl Word for Advice {
    fn word(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result {
        match self {
            Advice::Rebased { from, to, shift } => write!(
                f,
                "the file changed since snapshot {from} was served (it is now {to}); the ops touch only \
                 unchanged lines, so they were moved by {shift:+} lines and applied to the live file"
            ),
            Advice::Lowering(note) => write!(f, "{note}"),
            Advice::Forced(suspicion) => f.write_str(&suspicion.written()),
            Advice::Repaired(repair) => repair.word(f, surface),
        }
    }
}

display_as_mcp!(Advice);
