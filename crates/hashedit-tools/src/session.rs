//! Session state: the snapshots a long-lived server has served. A 4-hex tag
//! collides once in 65,536 contents, so the [`Session`] remembers per file
//! the [`Fingerprint`] (tag and 128-bit digest) of every snapshot served: a
//! live file whose tag matches but whose digest matches none of them is
//! stale (FORMAT.md §6.1). It keeps the text of recent snapshots too, so an
//! edit against an older one can be rebased onto the live file. Memory is
//! bounded: [`MAX_VERSIONS_PER_PATH`] snapshots per file, [`MAX_PATHS`]
//! files (least recently used dropped first), [`MAX_TEXT_BYTES`] of text.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use hashedit_core::{Fingerprint, SnapshotTag, TagCheck};

/// Snapshots remembered per file, newest first.
pub(crate) const MAX_VERSIONS_PER_PATH: usize = 4;
/// Files whose served fingerprints are remembered, the least recently used
/// forgotten first; generous, so a broad grep cannot push a read out.
pub(crate) const MAX_PATHS: usize = 4096;
/// Bytes of served text kept for drift rebase, over all files.
pub(crate) const MAX_TEXT_BYTES: usize = 64 * 1024 * 1024;
/// Largest single text kept for drift rebase; bigger snapshots keep only
/// their fingerprint.
pub(crate) const MAX_TEXT_BYTES_PER_SNAPSHOT: usize = 8 * 1024 * 1024;

#[derive(Debug, Clone)]
struct Version {
    fingerprint: Fingerprint,
    text: Option<Arc<[u8]>>,
    /// An edit written against this snapshot already landed: another edit
    /// from it reuses stale anchors or races the first, and must not be
    /// rebased.
    consumed: bool,
}

#[derive(Debug, Default)]
struct History {
    versions: VecDeque<Version>,
    last_used: u64,
}

#[derive(Debug, Default)]
struct Store {
    files: HashMap<PathBuf, History>,
    clock: u64,
    text_bytes: usize,
    registers: BTreeMap<String, Vec<String>>,
    generation: u64,
}

/// Whether recording a snapshot also marks it as consumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Consumed {
    /// Leave its consumed mark as it is (a new snapshot has none).
    Keep,
    /// Mark it consumed (an imported entry whose edit had landed).
    Mark,
}

/// Most named registers kept per session.
pub const MAX_REGISTERS: usize = 64;
/// Most bytes of register text kept per session.
pub const MAX_REGISTER_BYTES: usize = 16 * 1024 * 1024;

/// What a [`Session`] keeps of each snapshot it serves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SnapshotMemory {
    /// Fingerprints, and the served text (at most 64 MiB in all)
    /// so an edit written against an older snapshot can be rebased: a
    /// long-lived session (the MCP server, an embedding harness).
    #[default]
    FingerprintsAndText,
    /// Fingerprints only: a session that serves one call (a CLI process),
    /// where no later edit of the same session could rebase on the text,
    /// so copying it would be wasted work.
    FingerprintsOnly,
}

/// The bounded snapshot memory of one session; cheap to share across
/// threads (all methods take `&self`).
#[derive(Debug, Default)]
pub struct Session {
    store: Mutex<Store>,
    memory: SnapshotMemory,
}

impl Session {
    /// An empty session that keeps fingerprints and text
    /// ([`SnapshotMemory::FingerprintsAndText`]).
    pub fn new() -> Session {
        Session::default()
    }

    /// An empty session that keeps what `memory` says.
    pub fn with_memory(memory: SnapshotMemory) -> Session {
        Session {
            memory,
            ..Session::default()
        }
    }

    /// Whether [`Session::record`] keeps served text: a reader can skip
    /// collecting the bytes when it does not.
    pub fn keeps_text(&self) -> bool {
        match self.memory {
            SnapshotMemory::FingerprintsAndText => true,
            SnapshotMemory::FingerprintsOnly => false,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Store> {
        // A panic while holding the lock cannot leave the store
        // inconsistent in a way that matters: recover the data.
        self.store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records that the snapshot `fingerprint` of the file at `target`
    /// (canonical path) was served, with its bytes when available.
    pub fn record(&self, target: &Path, fingerprint: Fingerprint, bytes: Option<&[u8]>) {
        let text: Option<Arc<[u8]>> = bytes
            .filter(|b| self.keeps_text() && b.len() <= MAX_TEXT_BYTES_PER_SNAPSHOT)
            .map(Arc::from);
        self.lock()
            .record(target.to_path_buf(), fingerprint, text, Consumed::Keep);
    }

    /// A counter that changes whenever something is recorded (to skip
    /// saving a registry nothing was added to).
    pub fn generation(&self) -> u64 {
        self.lock().generation
    }

    /// Checks a live file's fingerprint against what was served under its
    /// tag.
    pub fn check(&self, target: &Path, live: Fingerprint) -> TagCheck {
        let store = self.lock();
        let Some(history) = store.files.get(target) else {
            return TagCheck::Unknown;
        };
        let mut same_tag = history
            .versions
            .iter()
            .filter(|v| v.fingerprint.tag == live.tag)
            .peekable();
        if same_tag.peek().is_none() {
            return TagCheck::Unknown;
        }
        if same_tag.any(|v| v.fingerprint.digest == live.digest) {
            TagCheck::Confirmed
        } else {
            TagCheck::Collision
        }
    }

    /// Whether a snapshot of `target` was served and is still remembered:
    /// some view of the file was read (whether or not it is live now).
    pub fn has_served(&self, target: &Path) -> bool {
        self.lock().files.contains_key(target)
    }

    /// The bytes of the newest snapshot served under `tag` for `target`,
    /// if kept.
    pub fn served_text(&self, target: &Path, tag: SnapshotTag) -> Option<Arc<[u8]>> {
        let store = self.lock();
        store
            .files
            .get(target)?
            .versions
            .iter()
            .find(|v| v.fingerprint.tag == tag)
            .and_then(|v| v.text.clone())
    }

    /// The bytes an edit written against `tag` may be rebased from: the
    /// newest snapshot served under `tag`, unless an edit from that
    /// snapshot already landed (then the tag is simply stale: the author's
    /// anchors predate that edit).
    pub fn rebase_base(&self, target: &Path, tag: SnapshotTag) -> Option<Arc<[u8]>> {
        let store = self.lock();
        let version = store
            .files
            .get(target)?
            .versions
            .iter()
            .find(|v| v.fingerprint.tag == tag)?;
        if version.consumed {
            None
        } else {
            version.text.clone()
        }
    }

    /// Marks, for `target`, the snapshot an edit was applied to (`base`,
    /// recorded first if it was never served) and every snapshot served
    /// under the tag the edit was written against (`written_against`) as
    /// consumed: their anchors predate the edit that landed.
    pub fn mark_consumed(&self, target: &Path, base: Fingerprint, written_against: SnapshotTag) {
        self.record(target, base, None);
        let mut store = self.lock();
        if let Some(history) = store.files.get_mut(target) {
            for version in &mut history.versions {
                if version.fingerprint == base || version.fingerprint.tag == written_against {
                    version.consumed = true;
                }
            }
        }
    }

    /// The session's named registers (`@name` → lines).
    pub fn registers(&self) -> BTreeMap<String, Vec<String>> {
        self.lock().registers.clone()
    }

    /// Stores the named registers a successful edit cut into, keeping the
    /// others: two edits running at once that cut into different registers
    /// both keep their captures. Past [`MAX_REGISTERS`] registers or
    /// [`MAX_REGISTER_BYTES`] bytes, the registers with the largest
    /// contents are dropped first (a later paste of one fails with a clear
    /// error, never silently).
    pub fn store_registers(&self, captured: BTreeMap<String, Vec<String>>) {
        if captured.is_empty() {
            return;
        }
        let mut store = self.lock();
        let registers = &mut store.registers;
        registers.extend(captured);
        let size = |lines: &Vec<String>| lines.iter().map(|l| l.len() + 1).sum::<usize>();
        let mut total: usize = registers.values().map(size).sum();
        while registers.len() > MAX_REGISTERS || total > MAX_REGISTER_BYTES {
            let Some(biggest) = registers
                .iter()
                .max_by_key(|(_, v)| size(v))
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some(lines) = registers.remove(&biggest) {
                total -= size(&lines);
            }
        }
    }

    /// Every remembered fingerprint, least recently used file first and,
    /// within a file, oldest snapshot first: `(path, fingerprint,
    /// consumed)`. Served texts are not exported.
    pub fn export_fingerprints(&self) -> Vec<(PathBuf, Fingerprint, bool)> {
        let store = self.lock();
        let mut files: Vec<(&PathBuf, &History)> = store.files.iter().collect();
        files.sort_by_key(|(_, h)| h.last_used);
        files
            .into_iter()
            .flat_map(|(path, history)| {
                history
                    .versions
                    .iter()
                    .rev()
                    .map(move |v| (path.clone(), v.fingerprint, v.consumed))
            })
            .collect()
    }

    /// Records fingerprints exported earlier (see
    /// [`Session::export_fingerprints`]), in order, keeping the bounds.
    pub fn import_fingerprints(
        &self,
        entries: impl IntoIterator<Item = (PathBuf, Fingerprint, bool)>,
    ) {
        // One lock for the whole replay, and each path moves into the
        // store: a CLI edit replays a registry of up to thousands of
        // lines before its tag check.
        let entries = entries.into_iter();
        let mut store = self.lock();
        store
            .files
            .reserve(entries.size_hint().0.min(MAX_PATHS + 1));
        for (path, fingerprint, consumed) in entries {
            let consumed = if consumed {
                Consumed::Mark
            } else {
                Consumed::Keep
            };
            store.record(path, fingerprint, None, consumed);
        }
    }

    /// Files for which a snapshot with `tag` was served and is still
    /// remembered, sorted. Used to suggest the right path when an edit
    /// names a file that does not exist under a tag the session knows.
    pub fn paths_served_with(&self, tag: SnapshotTag) -> Vec<PathBuf> {
        let store = self.lock();
        let mut paths: Vec<PathBuf> = store
            .files
            .iter()
            .filter(|(_, h)| h.versions.iter().any(|v| v.fingerprint.tag == tag))
            .map(|(path, _)| path.clone())
            .collect();
        paths.sort();
        paths
    }

    /// Number of files remembered (for tests and diagnostics).
    pub fn files_remembered(&self) -> usize {
        self.lock().files.len()
    }

    /// Bytes of served text kept (for tests and diagnostics).
    pub fn text_bytes(&self) -> usize {
        self.lock().text_bytes
    }
}

impl Store {
    /// Drops least recently used files past [`MAX_PATHS`], then old texts
    /// past [`MAX_TEXT_BYTES`] (fingerprints stay).
    /// Records that `fingerprint` of `target` was served (see
    /// [`Session::record`]); `consumed` marks it as consumed too.
    fn record(
        &mut self,
        target: PathBuf,
        fingerprint: Fingerprint,
        text: Option<Arc<[u8]>>,
        consumed: Consumed,
    ) {
        self.clock += 1;
        let now = self.clock;
        let history = self.files.entry(target).or_default();
        history.last_used = now;
        let mut freed = 0;
        let mut added = 0;
        if let Some(at) = history
            .versions
            .iter()
            .position(|v| v.fingerprint == fingerprint)
        {
            let mut existing = history.versions.remove(at).expect("position is valid");
            if existing.text.is_none() && text.is_some() {
                added = text.as_ref().map_or(0, |t| t.len());
                existing.text = text;
            }
            history.versions.push_front(existing);
        } else {
            added = text.as_ref().map_or(0, |t| t.len());
            // A newer snapshot served under the same tag supersedes the
            // older one: the model's latest view of that tag is this one.
            history.versions.retain(|v| {
                let keep = v.fingerprint.tag != fingerprint.tag;
                if !keep {
                    freed += v.text.as_ref().map_or(0, |t| t.len());
                }
                keep
            });
            history.versions.push_front(Version {
                fingerprint,
                text,
                consumed: false,
            });
            while history.versions.len() > MAX_VERSIONS_PER_PATH {
                if let Some(old) = history.versions.pop_back() {
                    freed += old.text.map_or(0, |t| t.len());
                }
            }
        }
        if consumed == Consumed::Mark
            && let Some(newest) = history.versions.front_mut()
        {
            newest.consumed = true;
        }
        self.text_bytes = self.text_bytes + added - freed;
        self.generation += 1;
        self.evict();
    }

    fn evict(&mut self) {
        while self.files.len() > MAX_PATHS {
            let Some(oldest) = self
                .files
                .iter()
                .min_by_key(|(_, h)| h.last_used)
                .map(|(p, _)| p.clone())
            else {
                break;
            };
            if let Some(history) = self.files.remove(&oldest) {
                self.text_bytes -= history
                    .versions
                    .iter()
                    .map(|v| v.text.as_ref().map_or(0, |t| t.len()))
                    .sum::<usize>();
            }
        }
        while self.text_bytes > MAX_TEXT_BYTES {
            // The oldest kept text of the least recently used file goes.
            let victim = self
                .files
                .iter()
                .filter(|(_, h)| h.versions.iter().any(|v| v.text.is_some()))
                .min_by_key(|(_, h)| h.last_used)
                .map(|(p, _)| p.clone());
            let Some(victim) = victim else { break };
            let history = self.files.get_mut(&victim).expect("victim exists");
            if let Some(version) = history.versions.iter_mut().rev().find(|v| v.text.is_some()) {
                self.text_bytes -= version.text.take().map_or(0, |t| t.len());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashedit_core::TagScheme;
    use hashedit_core::stages::TagHasher;

    fn fp(text: &str) -> Fingerprint {
        let mut h = TagHasher::with_digest(TagScheme::Rho);
        h.update(text.as_bytes());
        h.finish_fingerprint()
    }

    #[test]
    fn detects_the_handed_b05_collision() {
        let session = Session::new();
        let path = Path::new("/w/f.txt");
        session.record(path, fp("alpha\nbeta\n"), Some(b"alpha\nbeta\n"));
        let live = fp("// build 075ab-002d6\nalpha\nbeta\n");
        assert_eq!(live.tag, fp("alpha\nbeta\n").tag);
        assert_eq!(session.check(path, live), TagCheck::Collision);
        assert_eq!(
            session.check(path, fp("alpha\nbeta\n")),
            TagCheck::Confirmed
        );
        // Whitespace-only drift is the same snapshot.
        assert_eq!(
            session.check(path, fp("alpha  \r\nbeta\n")),
            TagCheck::Confirmed
        );
        assert_eq!(
            session.check(Path::new("/w/other"), live),
            TagCheck::Unknown
        );
    }

    #[test]
    fn a_fingerprints_only_session_checks_tags_but_keeps_no_text() {
        let session = Session::with_memory(SnapshotMemory::FingerprintsOnly);
        assert!(!session.keeps_text());
        assert!(Session::new().keeps_text());
        let path = Path::new("/w/f.txt");
        session.record(path, fp("alpha\nbeta\n"), Some(b"alpha\nbeta\n"));
        assert_eq!(session.text_bytes(), 0);
        assert_eq!(session.served_text(path, fp("alpha\nbeta\n").tag), None);
        let live = fp("// build 075ab-002d6\nalpha\nbeta\n");
        assert_eq!(session.check(path, live), TagCheck::Collision);
        assert_eq!(
            session.check(path, fp("alpha\nbeta\n")),
            TagCheck::Confirmed
        );
    }

    #[test]
    fn keeps_four_versions_per_file() {
        let session = Session::new();
        let path = Path::new("/w/f.txt");
        for i in 0..6 {
            let text = format!("v{i}\n");
            session.record(path, fp(&text), Some(text.as_bytes()));
        }
        assert_eq!(
            session.served_text(path, fp("v5\n").tag).as_deref(),
            Some(&b"v5\n"[..])
        );
        assert_eq!(
            session.served_text(path, fp("v2\n").tag).as_deref(),
            Some(&b"v2\n"[..])
        );
        assert_eq!(session.served_text(path, fp("v1\n").tag), None);
        assert_eq!(session.text_bytes(), 4 * 3);
    }

    #[test]
    fn forgets_least_recently_used_files() {
        let session = Session::new();
        for i in 0..MAX_PATHS + 10 {
            session.record(Path::new(&format!("/w/{i}")), fp("x\n"), Some(b"x\n"));
        }
        assert_eq!(session.files_remembered(), MAX_PATHS);
        assert_eq!(
            session.check(Path::new("/w/0"), fp("x\n")),
            TagCheck::Unknown
        );
        assert_eq!(
            session.check(Path::new(&format!("/w/{}", MAX_PATHS + 9)), fp("x\n")),
            TagCheck::Confirmed
        );
        assert_eq!(session.text_bytes(), MAX_PATHS * 2);
    }

    #[test]
    fn bounds_kept_text() {
        let session = Session::new();
        let big = vec![b'a'; MAX_TEXT_BYTES_PER_SNAPSHOT];
        for i in 0..12 {
            let mut bytes = big.clone();
            bytes[0] = b'0' + i as u8;
            let mut h = TagHasher::with_digest(TagScheme::Rho);
            h.update(&bytes);
            session.record(
                Path::new(&format!("/w/{i}")),
                h.finish_fingerprint(),
                Some(&bytes),
            );
        }
        assert!(session.text_bytes() <= MAX_TEXT_BYTES);
        // Too big to keep: fingerprint only.
        let huge = vec![b'b'; MAX_TEXT_BYTES_PER_SNAPSHOT + 1];
        let mut h = TagHasher::with_digest(TagScheme::Rho);
        h.update(&huge);
        let f = h.finish_fingerprint();
        session.record(Path::new("/w/huge"), f, Some(&huge));
        assert_eq!(session.served_text(Path::new("/w/huge"), f.tag), None);
        assert_eq!(session.check(Path::new("/w/huge"), f), TagCheck::Confirmed);
    }
}
