//! What the caller remembers of the snapshots it served, and the tag rule
//! that uses it (FORMAT.md §6.1).
//!
//! A section's tag is checked against the live file's fingerprint:
//!
//! * equal tags: the edit applies, unless the caller served a different
//!   snapshot under that tag (a 16-bit collision: [`TagCheck::Collision`]);
//! * different tags: the edit fails closed, unless the caller still holds
//!   the snapshot the tag names and no edit from it landed yet; then the
//!   ops are carried onto the live file when only unrelated lines changed
//!   (module `rebase`), and the reply says so.
//!
//! The core keeps no state: a long-lived server implements
//! [`SnapshotHistory`] over its session; a one-shot caller passes
//! [`NoHistory`].

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

    /// The bytes of the snapshot served under `tag` that an edit written
    /// against it may be rebased from: `None` when none is kept, or when an
    /// edit from that snapshot already landed (its anchors then predate
    /// that edit, handed cases B06 and B07).
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
