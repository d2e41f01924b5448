//! The lines around a hunk's rows, shared by the indentation, echo and
//! shift checks.

use std::collections::HashSet;

use crate::hunk::{Hunk, HunkKind, InsertAt};
use crate::text::Text;

/// Where a hunk's rows land among the original lines.
pub(crate) struct Surroundings<'h> {
    /// The rows.
    pub(crate) body: &'h [String],
    /// The original line just above the rows (0: none).
    pub(crate) above: usize,
    /// The original line just below the rows (may be past the end).
    pub(crate) below: usize,
    /// The original lines whose indentation the rows should share.
    pub(crate) context: Vec<usize>,
}

/// Where `kind`'s rows land in a file of `total` lines; `None` for a
/// deletion, which has no rows.
pub(crate) fn surroundings(kind: &HunkKind, total: usize) -> Option<Surroundings<'_>> {
    match kind {
        HunkKind::Replace { range, body } => Some(Surroundings {
            body,
            above: range.start - 1,
            below: range.end + 1,
            context: (range.start - 1..=range.end + 1).collect(),
        }),
        HunkKind::Insert { at, body } => {
            let above = match at {
                InsertAt::After(n) => *n,
                InsertAt::Before(n) => n - 1,
                InsertAt::End => total,
            };
            Some(Surroundings {
                body,
                above,
                below: above + 1,
                context: vec![above, above + 1],
            })
        }
        HunkKind::Delete { .. } => None,
    }
}

/// The lines of the live file that no op of a section replaces or
/// deletes: the neighbours that stay.
pub(crate) struct Staying<'t, 'a> {
    live: &'t Text<'a>,
    removed: HashSet<usize>,
}

impl<'t, 'a> Staying<'t, 'a> {
    pub(crate) fn new(hunks: &[Hunk], live: &'t Text<'a>) -> Self {
        let removed = hunks
            .iter()
            .filter_map(|h| h.kind.span())
            .flat_map(|r| r.start..=r.end)
            .collect();
        Staying { live, removed }
    }

    /// Line `n` (1-based) when it exists and stays.
    pub(crate) fn line(&self, n: usize) -> Option<&'t str> {
        (n >= 1 && n <= self.live.line_count() && !self.removed.contains(&n))
            .then(|| self.live.line(n))
    }
}
