//! Trial workspaces: the files a crash trial edits (with their mode,
//! owner, symlinks and hard links), and the checks run after each kill.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::rng::Rng;

/// The owner given to fixture files: a uid and gid no real account uses.
pub const TEST_OWNER: (u32, u32) = (4321, 4322);

/// The user the [`Scenario::Foreign`] trials run hashedit as.
pub const EDITING_USER: (u32, u32) = (1234, 1234);

/// What the files of a trial look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scenario {
    /// One file, one name, a random mode (0644, 0755, 0600, 0640, 04755)
    /// and owner ([`TEST_OWNER`] when running as root).
    Plain,
    /// A file edited through a symlink in another directory
    /// (`link.txt -> d/real.txt`).
    Symlink,
    /// A file with a second hard link in another directory
    /// (`d/a.txt`, `e/b.txt`): rewritten in place.
    HardLink,
    /// A file owned by another user (mode 0666) edited by an unprivileged
    /// hashedit ([`EDITING_USER`]), which cannot give a new inode the
    /// owner: rewritten in place. Needs root to set up.
    Foreign,
    /// A file that does not exist yet (`write` creates it).
    Create,
    /// Three files in two directories changed by one edit document.
    Multi,
}

impl Scenario {
    /// Every scenario.
    pub const ALL: [Scenario; 6] = [
        Scenario::Plain,
        Scenario::Symlink,
        Scenario::HardLink,
        Scenario::Foreign,
        Scenario::Create,
        Scenario::Multi,
    ];

    /// A short name for reports and the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scenario::Plain => "plain",
            Scenario::Symlink => "symlink",
            Scenario::HardLink => "hardlink",
            Scenario::Foreign => "foreign-owner",
            Scenario::Create => "create",
            Scenario::Multi => "multi-file",
        }
    }

    /// Parses [`Scenario::name`].
    pub fn parse(name: &str) -> Option<Scenario> {
        Scenario::ALL.into_iter().find(|s| s.name() == name)
    }

    /// How many files the scenario edits.
    pub fn file_count(self) -> usize {
        if self == Scenario::Multi { 3 } else { 1 }
    }
}

/// Expected metadata of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    /// Permission bits (`mode & 0o7777`).
    pub mode: u32,
    /// Owner.
    pub uid: u32,
    /// Group.
    pub gid: u32,
}

impl Meta {
    fn of(metadata: &fs::Metadata) -> Meta {
        Meta {
            mode: metadata.mode() & 0o7777,
            uid: metadata.uid(),
            gid: metadata.gid(),
        }
    }
}

/// One file a trial changes.
#[derive(Debug, Clone)]
pub struct Watched {
    /// The path given to hashedit (relative to the root).
    pub display: String,
    /// The real file (absolute).
    pub real: PathBuf,
    /// Content before the operation (`None`: the file does not exist).
    pub old: Option<Arc<Vec<u8>>>,
    /// Content after a complete operation (set by calibration).
    pub new: Option<Arc<Vec<u8>>>,
    /// Metadata before the operation.
    pub meta: Meta,
    /// Metadata a created file gets (set by calibration).
    pub new_meta: Option<Meta>,
    /// A symlink to the file: (link path, target as written in the link).
    pub symlink: Option<(PathBuf, PathBuf)>,
    /// A second hard link (absolute).
    pub hard_link: Option<PathBuf>,
}

/// A trial workspace.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The workspace root.
    pub root: PathBuf,
    /// The scenario.
    pub scenario: Scenario,
    /// The files the operation changes.
    pub files: Vec<Watched>,
    /// Directories temp files can appear in.
    pub dirs: Vec<PathBuf>,
}

/// Marks a torn file in [`Inspection::problems`].
const TORN: &str = "TORN";
/// Marks a lost file in [`Inspection::problems`].
const LOST: &str = "LOST";

/// What a file holds after a kill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Content {
    /// Exactly the old bytes.
    Old,
    /// Exactly the new bytes.
    New,
    /// Absent, and it was absent before (a create that did not happen).
    Absent,
    /// Neither old nor new: a mix or a truncation.
    Torn,
    /// Gone although it existed before.
    Lost,
}

/// What a leftover `.hashedit-*` file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Leftover {
    /// `.tmp`, empty.
    TmpEmpty,
    /// `.tmp`, a strict prefix of some file's new content.
    TmpPartialNew,
    /// `.tmp`, all of some file's new content.
    TmpCompleteNew,
    /// `.tmp`, a strict prefix of some file's old content (a recovery copy
    /// being written).
    TmpPartialOld,
    /// `.tmp`, all of some file's old content.
    TmpCompleteOld,
    /// `.bak`, all of some file's old content.
    BakCompleteOld,
    /// Anything else: a name or content that matches no file's old or new
    /// bytes (a fault).
    Unexplained,
}

impl Leftover {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Leftover::TmpEmpty => ".tmp empty",
            Leftover::TmpPartialNew => ".tmp partial new",
            Leftover::TmpCompleteNew => ".tmp complete new",
            Leftover::TmpPartialOld => ".tmp partial old",
            Leftover::TmpCompleteOld => ".tmp complete old",
            Leftover::BakCompleteOld => ".bak complete old",
            Leftover::Unexplained => "UNEXPLAINED",
        }
    }
}

/// The state found after a trial.
#[derive(Debug, Clone, Default)]
pub struct Inspection {
    /// Per watched file, in order.
    pub contents: Vec<Option<Content>>,
    /// Leftover `.hashedit-*` files.
    pub leftovers: Vec<(PathBuf, Leftover)>,
    /// Broken promises: metadata, links, torn or lost files, unexplained
    /// leftovers. Empty when everything holds.
    pub problems: Vec<String>,
    /// Whether every torn file has a complete copy of its old bytes in a
    /// `.bak` leftover beside it.
    pub torn_recoverable: bool,
    /// How many of `problems` are neither torn nor lost files (metadata,
    /// links, unexplained leftovers).
    pub other_problems: usize,
}

impl Fixture {
    /// Plans a fixture for `scenario` under `root` with these old contents
    /// (one per file; ignored for [`Scenario::Create`]).
    pub fn plan(root: &Path, scenario: Scenario, rng: &mut Rng, contents: Vec<Vec<u8>>) -> Fixture {
        let as_root = rustix::process::geteuid().is_root();
        let owner = if as_root {
            TEST_OWNER
        } else {
            (
                rustix::process::geteuid().as_raw(),
                rustix::process::getegid().as_raw(),
            )
        };
        let modes = [0o644, 0o755, 0o600, 0o640, 0o4755];
        let mut contents = contents.into_iter().map(Arc::new);
        let mut file = |display: &str, real: &str, rng: &mut Rng| Watched {
            display: display.to_string(),
            real: root.join(real),
            old: contents.next(),
            new: None,
            meta: Meta {
                mode: *rng.pick(&modes),
                uid: owner.0,
                gid: owner.1,
            },
            new_meta: None,
            symlink: None,
            hard_link: None,
        };
        let d = root.join("d");
        let e = root.join("e");
        let (files, dirs) = match scenario {
            Scenario::Plain => (vec![file("d/f.txt", "d/f.txt", rng)], vec![d]),
            Scenario::Symlink => {
                let mut watched = file("link.txt", "d/real.txt", rng);
                watched.symlink = Some((root.join("link.txt"), PathBuf::from("d/real.txt")));
                (vec![watched], vec![root.to_path_buf(), d])
            }
            Scenario::HardLink => {
                let mut watched = file("d/a.txt", "d/a.txt", rng);
                watched.hard_link = Some(e.join("b.txt"));
                (vec![watched], vec![d, e])
            }
            Scenario::Foreign => {
                let mut watched = file("d/f.txt", "d/f.txt", rng);
                watched.meta = Meta {
                    mode: 0o666,
                    uid: TEST_OWNER.0,
                    gid: TEST_OWNER.1,
                };
                (vec![watched], vec![d])
            }
            Scenario::Create => {
                let mut watched = file("d/new.txt", "d/new.txt", rng);
                watched.old = None;
                (vec![watched], vec![d])
            }
            Scenario::Multi => (
                vec![
                    file("d/a.txt", "d/a.txt", rng),
                    file("d/b.txt", "d/b.txt", rng),
                    file("e/c.txt", "e/c.txt", rng),
                ],
                vec![d, e],
            ),
        };
        Fixture {
            root: root.to_path_buf(),
            scenario,
            files,
            dirs,
        }
    }

    /// (Re)creates the fixture: removes the root and builds every file,
    /// link, mode and owner afresh.
    pub fn build(&self) -> io::Result<()> {
        if self.root.exists() {
            fs::remove_dir_all(&self.root)?;
        }
        fs::create_dir_all(self.root.join("d"))?;
        fs::create_dir_all(self.root.join("e"))?;
        if self.scenario == Scenario::Foreign {
            // The unprivileged editor must be able to create temp files.
            fs::set_permissions(self.root.join("d"), fs::Permissions::from_mode(0o777))?;
        }
        for file in &self.files {
            let Some(old) = &file.old else { continue };
            fs::write(&file.real, old.as_slice())?;
            if rustix::process::geteuid().is_root() {
                std::os::unix::fs::chown(&file.real, Some(file.meta.uid), Some(file.meta.gid))?;
            }
            // After chown, which clears setuid bits.
            fs::set_permissions(&file.real, fs::Permissions::from_mode(file.meta.mode))?;
            if let Some((link, target)) = &file.symlink {
                symlink(target, link)?;
            }
            if let Some(second) = &file.hard_link {
                fs::hard_link(&file.real, second)?;
            }
        }
        Ok(())
    }

    /// Records the state after a complete operation as the "new" state.
    ///
    /// # Errors
    /// A watched file is missing after the operation.
    pub fn record_new(&mut self) -> io::Result<()> {
        for file in &mut self.files {
            let bytes = fs::read(&file.real)?;
            let metadata = fs::metadata(&file.real)?;
            file.new = Some(Arc::new(bytes));
            if file.old.is_none() {
                file.new_meta = Some(Meta::of(&metadata));
            }
        }
        Ok(())
    }

    /// Examines every watched file and leftover after a trial.
    pub fn inspect(&self) -> Inspection {
        let mut report = Inspection {
            torn_recoverable: true,
            ..Inspection::default()
        };
        for file in &self.files {
            let content = self.inspect_file(file, &mut report.problems);
            report.contents.push(content);
        }
        report.leftovers = self.leftovers();
        for (path, kind) in &report.leftovers {
            if *kind == Leftover::Unexplained {
                report
                    .problems
                    .push(format!("unexplained leftover {}", path.display()));
            }
        }
        report.other_problems = report
            .problems
            .iter()
            .filter(|p| !p.contains(TORN) && !p.contains(LOST))
            .count();
        for (file, content) in self.files.iter().zip(&report.contents) {
            if *content == Some(Content::Torn) {
                let old = file.old.as_deref();
                let covered = report.leftovers.iter().any(|(path, kind)| {
                    *kind == Leftover::BakCompleteOld && fs::read(path).ok().as_ref() == old
                });
                report.torn_recoverable &= covered;
            }
        }
        report
    }

    fn inspect_file(&self, file: &Watched, problems: &mut Vec<String>) -> Option<Content> {
        let name = &file.display;
        if let Some((link, target)) = &file.symlink {
            match fs::symlink_metadata(link) {
                Ok(m) if m.file_type().is_symlink() => {
                    if fs::read_link(link).ok().as_ref() != Some(target) {
                        problems.push(format!("{name}: the symlink's target changed"));
                    }
                }
                Ok(_) => problems.push(format!("{name}: the symlink was replaced by a file")),
                Err(e) => problems.push(format!("{name}: the symlink is gone ({e})")),
            }
        }
        let metadata = match fs::symlink_metadata(&file.real) {
            Ok(metadata) => metadata,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Some(if file.old.is_none() {
                    Content::Absent
                } else {
                    problems.push(format!("{name}: {LOST} (the file is gone)"));
                    Content::Lost
                });
            }
            Err(e) => {
                problems.push(format!("{name}: cannot examine: {e}"));
                return None;
            }
        };
        if !metadata.file_type().is_file() {
            problems.push(format!("{name}: no longer a regular file"));
            return None;
        }
        let bytes = match fs::read(&file.real) {
            Ok(bytes) => bytes,
            Err(e) => {
                problems.push(format!("{name}: cannot read: {e}"));
                return None;
            }
        };
        let content = if file.old.as_deref().map(Vec::as_slice) == Some(&bytes[..]) {
            Content::Old
        } else if file.new.as_deref().map(Vec::as_slice) == Some(&bytes[..]) {
            Content::New
        } else {
            problems.push(format!(
                "{name}: {TORN} ({} bytes; old {}, new {})",
                bytes.len(),
                file.old.as_ref().map_or(0, |b| b.len()),
                file.new.as_ref().map_or(0, |b| b.len())
            ));
            Content::Torn
        };
        let expected = match (content, file.new_meta) {
            (Content::New, Some(meta)) => meta,
            _ => file.meta,
        };
        let found = Meta::of(&metadata);
        if found != expected {
            problems.push(format!(
                "{name}: metadata changed: mode {:04o} uid {} gid {} (expected {:04o} {} {})",
                found.mode, found.uid, found.gid, expected.mode, expected.uid, expected.gid
            ));
        }
        if let Some(second) = &file.hard_link {
            match fs::symlink_metadata(second) {
                Ok(other) if other.ino() == metadata.ino() && other.dev() == metadata.dev() => {
                    if metadata.nlink() != 2 {
                        problems.push(format!("{name}: {} links instead of 2", metadata.nlink()));
                    }
                }
                Ok(_) => problems.push(format!(
                    "{name}: the hard link {} is now a different file",
                    second.display()
                )),
                Err(e) => problems.push(format!(
                    "{name}: the hard link {} is gone ({e})",
                    second.display()
                )),
            }
        }
        Some(content)
    }

    /// Every `.hashedit-*` file under the fixture's directories, classified.
    pub fn leftovers(&self) -> Vec<(PathBuf, Leftover)> {
        let mut found = BTreeMap::new();
        for dir in &self.dirs {
            let Ok(entries) = fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.starts_with(".hashedit-") {
                    let path = entry.path();
                    let kind = self.classify(&path, &name);
                    found.insert(path, kind);
                }
            }
        }
        found.into_iter().collect()
    }

    fn classify(&self, path: &Path, name: &str) -> Leftover {
        let Ok(bytes) = fs::read(path) else {
            return Leftover::Unexplained;
        };
        let olds = self.files.iter().filter_map(|f| f.old.as_deref());
        let news = self.files.iter().filter_map(|f| f.new.as_deref());
        let complete = |mut set: Box<dyn Iterator<Item = &Vec<u8>> + '_>| {
            set.any(|b| b.as_slice() == &bytes[..])
        };
        let prefix =
            |mut set: Box<dyn Iterator<Item = &Vec<u8>> + '_>| set.any(|b| b.starts_with(&bytes));
        if name.ends_with(".bak") {
            return if complete(Box::new(olds)) {
                Leftover::BakCompleteOld
            } else {
                Leftover::Unexplained
            };
        }
        if !name.ends_with(".tmp") {
            return Leftover::Unexplained;
        }
        if bytes.is_empty() {
            Leftover::TmpEmpty
        } else if complete(Box::new(news.clone())) {
            Leftover::TmpCompleteNew
        } else if complete(Box::new(olds.clone())) {
            Leftover::TmpCompleteOld
        } else if prefix(Box::new(news)) {
            Leftover::TmpPartialNew
        } else if prefix(Box::new(olds)) {
            Leftover::TmpPartialOld
        } else {
            Leftover::Unexplained
        }
    }
}
