//! A run of setup or undo as a plan: each file's text now and after, the
//! undo record after, computed before anything is written, so a dry run
//! shows exactly what a real run writes.

use std::path::PathBuf;

use crate::SetupError;
use crate::client::{Client, Extras, Scope};
use crate::edit::{Change, Target};
use crate::files::{NewFile, io_error, merge_error, missing_dirs, read, resolved, write};
use crate::places::{Places, ServerCommand};
use crate::record::{self, Entry};

/// What a run does to one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    /// The file.
    pub path: PathBuf,
    /// Its text now; `None`: it does not exist.
    pub now: Option<String>,
    /// Its text after the run; `None`: the run deletes it.
    pub next: Option<String>,
    /// What the change is for.
    pub why: &'static str,
    /// Directories to remove (while empty) after deleting the file.
    removed_dirs: Vec<PathBuf>,
}

/// What a run does to a file, in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The file is created.
    Create,
    /// The file is rewritten.
    Update,
    /// The file is deleted.
    Delete,
    /// The file stays as it is.
    Keep,
}

impl FileChange {
    /// What the run does to the file.
    pub fn action(&self) -> Action {
        match (&self.now, &self.next) {
            (now, next) if now == next => Action::Keep,
            (None, Some(_)) => Action::Create,
            (Some(_), None) => Action::Delete,
            _ => Action::Update,
        }
    }
}

/// One run of setup or undo, ready to show ([`Plan::diff`]) or to carry
/// out ([`Plan::apply`]).
#[derive(Clone, Debug)]
pub struct Plan {
    /// Each file the client's setup touches, in the order written.
    pub changes: Vec<FileChange>,
    /// What setup cannot do for this client (see [`Client::limits`]).
    pub limits: Vec<&'static str>,
    /// Whether the undo record existed (undo without one can only take out
    /// what setup adds, not restore bytes).
    pub recorded: bool,
    record_path: PathBuf,
    record_now: Option<String>,
    record_next: Option<String>,
    /// The directories to remove (while empty) with the record.
    record_dirs: Vec<PathBuf>,
}

/// The plan of `hashedit setup CLIENT`: each target file merged with the
/// client's changes, and the record keeping each file's bytes from before
/// the first setup.
pub fn setup(
    client: Client,
    scope: Scope,
    places: &Places,
    server: &ServerCommand,
    extras: &Extras,
) -> Result<Plan, SetupError> {
    let canonical = |dir: &PathBuf| std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
    if scope == Scope::Project && canonical(&places.project) == canonical(&places.home) {
        return Err(SetupError::ProjectIsHome(places.project.clone()));
    }
    let record_path = record::path(&places.state, scope, &places.project);
    let (mut record, record_now) = record::load(&record_path)?;
    let mut changes = Vec::new();
    for target in client.targets(scope, places, server, extras) {
        let now = read(&target.path)?;
        let next = target
            .change
            .apply(now.as_deref())
            .map_err(|why| merge_error(&target.path, why))?;
        match record.files.get_mut(&target.path) {
            // Exact while nothing but setup changed the file.
            Some(entry) => entry.after = (entry.after == now).then(|| next.clone()),
            None => {
                record.files.insert(
                    target.path.clone(),
                    Entry {
                        before: now.clone(),
                        after: Some(next.clone()),
                        created_dirs: missing_dirs(&resolved(&target.path)),
                    },
                );
            }
        }
        changes.push(FileChange {
            path: target.path,
            now,
            next: Some(next),
            why: target.why,
            removed_dirs: Vec::new(),
        });
    }
    record.clients.insert(client.name().into());
    if record_now.is_none() {
        record.created_dirs = match missing_dirs(&record_path) {
            dirs if dirs.is_empty() => record::shared_dirs(&places.state),
            dirs => dirs,
        };
    }
    if scope == Scope::Project {
        record.project = Some(places.project.clone());
    }
    writable(&changes)?;
    Ok(Plan {
        changes,
        limits: client.limits(scope, extras),
        recorded: true,
        record_next: record.text(),
        record_dirs: Vec::new(),
        record_path,
        record_now,
    })
}

/// The plan of `hashedit setup CLIENT --undo`: each file setup changed
/// back to its bytes before setup while nothing else has changed it since,
/// else with only what setup added taken out; what setup created, deleted.
/// What another client set up in the same place still needs (a shared
/// AGENTS.md block) stays.
pub fn undo(client: Client, scope: Scope, places: &Places) -> Result<Plan, SetupError> {
    let record_path = record::path(&places.state, scope, &places.project);
    let (mut record, record_now) = record::load(&record_path)?;
    let recorded = record.clients.contains(client.name());
    record.clients.remove(client.name());
    // What the others' setup writes: any command will do, only the keys
    // and blocks are compared.
    let anyone = ServerCommand::new("hashedit");
    let all = Extras {
        codex_catalog: Some(String::new()),
    };
    let others: Vec<Target> = record
        .clients
        .iter()
        .filter_map(|name| Client::from_name(name))
        .flat_map(|other| other.targets(scope, places, &anyone, &all))
        .collect();
    let targets = client.targets(scope, places, &anyone, &all);
    // Without a record, the client counts as set up only where one of its
    // files holds what only setup writes (the server's entry, the block):
    // a second undo takes nothing out, not even the user's own entries
    // that look like setup's (a `Read` in Claude Code's deny list).
    let set_up = recorded
        || targets
            .iter()
            .any(|t| matches!(read(&t.path), Ok(Some(now)) if t.change.marked(&now)));
    let mut changes = Vec::new();
    for target in targets {
        let Some(now) = read(&target.path)? else {
            record.files.remove(&target.path);
            continue;
        };
        let mut shared = others.iter().filter(|o| o.path == target.path);
        let change = shared.try_fold(target.change.clone(), |mine, theirs| {
            mine.without(&theirs.change)
        });
        let entry = record.files.get(&target.path).cloned();
        let exact = entry
            .as_ref()
            .is_some_and(|e| e.after.as_deref() == Some(now.as_str()));
        let sole = others.iter().all(|o| o.path != target.path);
        let (next, why) = match set_up {
            true => undone(change.as_ref(), &now, entry.as_ref(), exact && sole)
                .map_err(|why| merge_error(&target.path, why))?,
            false => (Some(now.clone()), NOTHING_OF_SETUP),
        };
        let removed_dirs = match (&next, &entry) {
            (None, Some(entry)) => entry.created_dirs.clone(),
            _ => Vec::new(),
        };
        if sole {
            record.files.remove(&target.path);
        } else if let Some(entry) = record.files.get_mut(&target.path) {
            entry.after = if exact { next.clone() } else { None };
        }
        changes.push(FileChange {
            path: target.path,
            now: Some(now),
            next,
            why,
            removed_dirs,
        });
    }
    writable(&changes)?;
    Ok(Plan {
        changes,
        limits: Vec::new(),
        recorded,
        record_next: record.text(),
        record_dirs: record.created_dirs.clone(),
        record_path,
        record_now,
    })
}

/// `Err` naming the first file the run would change that is read-only:
/// setup changes no file its owner protected, as the tools edit none.
fn writable(changes: &[FileChange]) -> Result<(), SetupError> {
    let changed = changes.iter().filter(|c| c.action() != Action::Keep);
    for change in changed {
        // Through a symlink: the target's permissions.
        if std::fs::metadata(&change.path).is_ok_and(|m| m.permissions().readonly()) {
            return Err(merge_error(&change.path, "is read-only".into()));
        }
    }
    Ok(())
}

/// Why undo leaves a file as it is, when it holds nothing to take out.
const NOTHING_OF_SETUP: &str = "holds nothing setup adds";

/// What undo makes of a file whose text is `now`, given what is left of
/// setup's change to take out (`None`: another client still needs all of
/// it) and the file's record; `exact` when the file holds what setup
/// wrote and no other client changed it. The text after (`None`: delete
/// the file) and why.
fn undone(
    change: Option<&Change>,
    now: &str,
    entry: Option<&Entry>,
    exact: bool,
) -> Result<(Option<String>, &'static str), String> {
    let before = entry.and_then(|e| e.before.as_deref());
    Ok(match change {
        None => (
            Some(now.to_string()),
            "kept: another client set up here uses it",
        ),
        Some(_) if exact => match before {
            None => (None, "setup created it"),
            Some(before) => (
                Some(before.to_string()),
                "restored to its bytes before setup",
            ),
        },
        Some(change) => {
            let next = change.revert(now, before)?;
            let why = match (next.as_deref() == Some(now), entry) {
                (true, _) => NOTHING_OF_SETUP,
                (false, Some(_)) => "changed since setup: took out only what setup added",
                (false, None) => "not in the undo record: took out what setup adds",
            };
            (next, why)
        }
    })
}

impl Plan {
    /// The unified diff of every file the run changes (`/dev/null` for a
    /// file created or deleted), in the order written.
    pub fn diff(&self) -> String {
        let mut out = String::new();
        for change in self.changes.iter().filter(|c| c.action() != Action::Keep) {
            let shown = change.path.display().to_string();
            let (old, new) = match change.action() {
                Action::Create => ("/dev/null".to_string(), shown),
                Action::Delete => (shown, "/dev/null".to_string()),
                Action::Update | Action::Keep => (shown.clone(), shown),
            };
            let now = change.now.as_deref().unwrap_or("");
            let next = change.next.as_deref().unwrap_or("");
            let diff = similar::TextDiff::from_lines(now, next);
            out.push_str(
                &diff
                    .unified_diff()
                    .header(&old, &new)
                    .missing_newline_hint(true)
                    .to_string(),
            );
        }
        out
    }

    /// Carries the plan out: each changed file written (atomically, through
    /// a symlink to its target, keeping its permissions) or deleted (a
    /// symlink's target, not the link), then the undo record. Stops at the first failure, naming the file.
    pub fn apply(&self) -> Result<(), SetupError> {
        for change in self.changes.iter().filter(|c| c.action() != Action::Keep) {
            match &change.next {
                Some(text) => write(&change.path, text, NewFile::Shared)?,
                None => {
                    std::fs::remove_file(resolved(&change.path))
                        .map_err(|e| io_error(&change.path, e))?;
                    for dir in &change.removed_dirs {
                        // Only while empty: anything else put there stays.
                        let _ = std::fs::remove_dir(dir);
                    }
                }
            }
        }
        if self.record_next != self.record_now {
            match &self.record_next {
                // Holds copies of the user's files: readable by the user only.
                Some(text) => write(&self.record_path, text, NewFile::Private)?,
                None => {
                    std::fs::remove_file(&self.record_path)
                        .map_err(|e| io_error(&self.record_path, e))?;
                    for dir in &self.record_dirs {
                        let _ = std::fs::remove_dir(dir);
                    }
                }
            }
        }
        Ok(())
    }
}
