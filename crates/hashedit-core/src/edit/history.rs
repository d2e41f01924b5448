//! What the caller remembers of the snapshots it served, and the tag rule
//! that uses it (FORMAT.md §6.1): equal tags apply unless the caller served
//! a different snapshot under that tag (a collision); different tags fail
//! closed unless the caller still holds the snapshot the tag names and no
//! edit from it landed, when the ops are rebased. The core keeps no state:
//! a server implements [`SnapshotHistory`] over its session, a one-shot
//! caller passes [`NoHistory`].

use std::sync::Arc;

use crate::tag::{Fingerprint, SnapshotTag};

/// What a caller's memory says about a live file whose tag equals the
/// section's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TagCheck {
    /// No snapshot with this tag was served for the file: the tag is taken
    /// at its word (it may come from another reader).
    Unknown,
    /// A snapshot served under this tag has the live file's digest.
    Confirmed,
    /// Snapshots were served under this tag, all with other digests: a
    /// 16-bit collision, so the tag is stale.
    Collision,
}

/// The snapshots a caller served for one file.
pub trait SnapshotHistory {
    /// How the live fingerprint relates to what was served under its tag.
    fn check(&self, live: Fingerprint) -> TagCheck;

    /// The bytes of the snapshot served under `tag` an edit written against
    /// it may be rebased from; `None` when none is kept or an edit from it
    /// already landed.
    fn rebase_base(&self, tag: SnapshotTag) -> Option<Arc<[u8]>>;
}

/// A caller without memory (one CLI call, a library user): tags are taken
/// at their word and stale tags are never rebased.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHistory;

impl SnapshotHistory for NoHistory {
    fn check(&self, _live: Fingerprint) -> TagCheck {
        TagCheck::Unknown
    }

    fn rebase_base(&self, _tag: SnapshotTag) -> Option<Arc<[u8]>> {
        None
    }
}
