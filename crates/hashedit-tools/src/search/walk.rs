//! The bounded workspace walk shared by `grep` and `glob` (FORMAT.md
//! §8.1): ignore rules honoured even outside a git checkout; hidden entries
//! and hashedit's temp files skipped unless asked for; `.git` never entered
//! (unless it is the root); links never followed, each yielded by name;
//! depth-first in byte-wise name order; special files and unreadable
//! entries yielded for counting, never opened; stopped by the entry limit,
//! the deadline or cancellation. A regular-file target is yielded alone.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use globset::GlobSet;
use ignore::{DirEntry, WalkBuilder};

use super::{Limits, Stop};
use crate::error::{ToolError, ToolResult};
use crate::fsio::{is_temp_leftover, not_regular_file_error};

/// Checks, without opening it, that a search target is a directory or a
/// regular file. Errors: `NotARegularFile`, or the mapped OS error.
pub(crate) fn check_target(target: &Path, display: &str) -> ToolResult<()> {
    let metadata =
        std::fs::symlink_metadata(target).map_err(|e| ToolError::io("search", display, &e))?;
    if metadata.is_dir() {
        return Ok(());
    }
    match not_regular_file_error(display, metadata.file_type()) {
        None => Ok(()),
        Some(error) => Err(error),
    }
}

/// A regular file found by the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WalkedFile {
    /// Absolute path (under the canonical target).
    pub(crate) absolute: PathBuf,
    /// `/`-separated path relative to the walk target; empty when the
    /// target is this file.
    pub(crate) relative: String,
}

/// One step of the walk, in walk order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WalkItem {
    /// A regular file.
    File(WalkedFile),
    /// A FIFO, socket or block or character device (not opened).
    Special(WalkedFile),
    /// A symbolic link (not followed: neither read nor entered).
    Symlink(WalkedFile),
    /// A hidden entry (file or directory, never `.git`) the hidden rule
    /// kept out, or one of hashedit's temp leftovers; not entered.
    Hidden(WalkedFile),
    /// An entry the walk could not read. `directory` is true when it is a
    /// directory (e.g. one without permission), whose contents were then
    /// not visited.
    Unreadable {
        /// Whether the entry is a directory.
        directory: bool,
    },
}

/// Which hidden (dot) entries a walk enters and yields.
#[derive(Debug, Clone)]
pub(crate) enum Hidden {
    /// None (the default).
    Skip,
    /// All of them (`include_hidden`).
    Include,
    /// Only those whose name matches the set: the dot-led literal segments
    /// of a glob (`.github`, `.eslintrc.json`) name hidden entries, so they
    /// are found without `include_hidden` (FORMAT.md §8.1).
    Named(GlobSet),
}

/// Whether a walk honours ignore rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IgnoreRules {
    /// `.gitignore`, `.ignore`, git excludes and the global gitignore.
    Honour,
    /// Nothing is ignored (`no_ignore`).
    Off,
}

/// The filters of a walk.
#[derive(Debug, Clone)]
pub(crate) struct WalkRules {
    pub(crate) hidden: Hidden,
    pub(crate) ignore: IgnoreRules,
}

impl From<bool> for WalkRules {
    /// Hidden entries included or skipped, ignore rules honoured.
    fn from(include_hidden: bool) -> WalkRules {
        WalkRules {
            hidden: if include_hidden {
                Hidden::Include
            } else {
                Hidden::Skip
            },
            ignore: IgnoreRules::Honour,
        }
    }
}

impl WalkRules {
    /// Whether the hidden-entry rule lets `entry` through.
    fn admits(&self, entry: &DirEntry) -> bool {
        let name = entry.file_name();
        if entry.depth() == 0 || !name.as_encoded_bytes().starts_with(b".") {
            return true;
        }
        match &self.hidden {
            Hidden::Skip => false,
            Hidden::Include => true,
            Hidden::Named(names) => names.is_match(name),
        }
    }

    /// The walker over `target` under these rules.
    fn builder(&self, target: &Path, ignore: IgnoreRules) -> WalkBuilder {
        let honour = ignore == IgnoreRules::Honour;
        let mut builder = WalkBuilder::new(target);
        builder
            .follow_links(false)
            .require_git(false)
            .hidden(false)
            .ignore(honour)
            .git_ignore(honour)
            .git_global(honour)
            .git_exclude(honour)
            .parents(honour)
            .sort_by_file_name(|a, b| a.cmp(b));
        builder
    }
}

/// `.git` directories are never walked, nor hashedit's temp leftovers
/// unless every hidden entry is asked for (so `glob --hidden` finds what a
/// killed process left).
fn never_walked(entry: &DirEntry, hidden: &Hidden) -> bool {
    entry.depth() > 0
        && (entry.file_name() == ".git"
            || (!matches!(hidden, Hidden::Include)
                && entry.file_type().is_some_and(|t| t.is_file())
                && is_temp_leftover(entry.file_name())))
}

/// Walks `target`, calling `visit` for every regular file, special file
/// and unreadable entry in order. Returns why the walk ended early, or
/// `None` when it completed. A `Break` from `visit` ends the walk with that
/// reason. A target that is neither a directory nor a regular file yields
/// nothing ([`check_target`] refuses it first). `rules` is a
/// [`WalkRules`] (or a bool: include hidden entries, ignore rules honoured).
#[cfg(test)]
pub(crate) fn visit_files(
    target: &Path,
    rules: impl Into<WalkRules>,
    limits: &Limits,
    visit: impl FnMut(WalkItem) -> ControlFlow<Stop>,
) -> Option<Stop> {
    visit_counting_ignored(target, &rules.into(), limits, visit).0
}

/// [`visit_files`], also returning how many entries ignore rules kept out
/// of a walk that completed (0 when it stopped early, when rules are off,
/// or for a file target). An ignored directory counts once, whatever it
/// holds: it was never entered.
pub(crate) fn visit_counting_ignored(
    target: &Path,
    rules: &WalkRules,
    limits: &Limits,
    mut visit: impl FnMut(WalkItem) -> ControlFlow<Stop>,
) -> (Option<Stop>, usize) {
    let Ok(metadata) = std::fs::symlink_metadata(target) else {
        return (None, 0);
    };
    if metadata.file_type().is_file() {
        if let Some(stop) = limits.check() {
            return (Some(stop), 0);
        }
        let item = WalkItem::File(WalkedFile {
            absolute: target.to_path_buf(),
            relative: String::new(),
        });
        return (visit(item).break_value(), 0);
    }
    if !metadata.is_dir() {
        return (None, 0);
    }
    let counting = rules.ignore == IgnoreRules::Honour;
    let mut walked: HashSet<PathBuf> = HashSet::new();
    let mut builder = rules.builder(target, rules.ignore);
    let admit = rules.clone();
    let kept_out: Arc<std::sync::Mutex<Vec<PathBuf>>> = Arc::default();
    let record = Arc::clone(&kept_out);
    builder.filter_entry(move |entry| {
        let walked = !never_walked(entry, &admit.hidden) && admit.admits(entry);
        if !walked
            && entry.file_name() != ".git"
            && let Ok(mut kept_out) = record.lock()
        {
            kept_out.push(entry.path().to_path_buf());
        }
        walked
    });

    let mut seen = 0usize;
    for entry in builder.build() {
        if let Some(stop) = limits.check() {
            return (Some(stop), 0);
        }
        if let ControlFlow::Break(stop) = visit_kept_out(target, &kept_out, &mut visit) {
            return (Some(stop), 0);
        }
        seen += 1;
        if seen > limits.max_entries {
            return (Some(Stop::ScanLimit), 0);
        }
        if let Ok(entry) = &entry
            && counting
            && entry.file_type().is_some()
        {
            walked.insert(entry.path().to_path_buf());
        }
        let Some(item) = item_of(target, entry) else {
            continue;
        };
        if let ControlFlow::Break(stop) = visit(item) {
            return (Some(stop), 0);
        }
    }
    if let ControlFlow::Break(stop) = visit_kept_out(target, &kept_out, &mut visit) {
        return (Some(stop), 0);
    }
    let ignored = if counting {
        count_ignored(target, rules, limits, walked)
    } else {
        0
    };
    (None, ignored)
}

/// What the walk yields for `entry`: `None` for a directory (entered) and
/// for problems with ignore files themselves; only I/O failures hide part
/// of the tree.
fn item_of(target: &Path, entry: Result<ignore::DirEntry, ignore::Error>) -> Option<WalkItem> {
    let entry = match entry {
        Ok(entry) => entry,
        Err(error) if error.io_error().is_some() => {
            let directory = error_path(&error)
                .and_then(|p| std::fs::symlink_metadata(p).ok())
                .is_some_and(|m| m.is_dir());
            return Some(WalkItem::Unreadable { directory });
        }
        Err(_) => return None,
    };
    let file_type = entry.file_type().filter(|t| !t.is_dir())?;
    let absolute = entry.into_path();
    let relative = relative_path(target, &absolute)?;
    let file = WalkedFile { absolute, relative };
    // Symlinks are named, not followed.
    Some(if file_type.is_symlink() {
        WalkItem::Symlink(file)
    } else if file_type.is_file() {
        WalkItem::File(file)
    } else {
        WalkItem::Special(file)
    })
}

/// Visits, as [`WalkItem::Hidden`], the entries the walk's filter kept
/// out since the last call (and forgets them).
fn visit_kept_out(
    target: &Path,
    kept_out: &std::sync::Mutex<Vec<PathBuf>>,
    visit: &mut impl FnMut(WalkItem) -> ControlFlow<Stop>,
) -> ControlFlow<Stop> {
    let hidden: Vec<PathBuf> = kept_out
        .lock()
        .map(|mut kept_out| std::mem::take(&mut *kept_out))
        .unwrap_or_default();
    for absolute in hidden {
        let Some(relative) = relative_path(target, &absolute) else {
            continue;
        };
        visit(WalkItem::Hidden(WalkedFile { absolute, relative }))?;
    }
    ControlFlow::Continue(())
}

/// Entries directly inside the directories of `walked` (every path the
/// rule-honouring walk met) that the walk without ignore rules meets and
/// the first did not: what ignore rules kept out. Ignored directories are
/// counted, not entered, so this walk costs about as much as the first.
fn count_ignored(
    target: &Path,
    rules: &WalkRules,
    limits: &Limits,
    walked: HashSet<PathBuf>,
) -> usize {
    let walked = Arc::new(walked);
    let ignored = Arc::new(AtomicUsize::new(0));
    let mut builder = rules.builder(target, IgnoreRules::Off);
    let admit = rules.clone();
    let counter = Arc::clone(&ignored);
    builder.filter_entry(move |entry| {
        if entry.depth() == 0 {
            return true;
        }
        if never_walked(entry, &admit.hidden) || !admit.admits(entry) {
            return false;
        }
        if walked.contains(entry.path()) {
            return true;
        }
        counter.fetch_add(1, Ordering::Relaxed);
        false
    });
    for (seen, _) in builder.build().enumerate() {
        if seen >= limits.max_entries || limits.check().is_some() {
            return 0;
        }
    }
    ignored.load(Ordering::Relaxed)
}

/// The path a walk error is about, if it names one.
fn error_path(error: &ignore::Error) -> Option<&Path> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        _ => None,
    }
}

/// `absolute` relative to `root`, `/`-separated, lossily decoded.
fn relative_path(root: &Path, absolute: &Path) -> Option<String> {
    let relative = absolute.strip_prefix(root).ok()?;
    let mut out = String::new();
    for component in relative.components() {
        match component {
            Component::Normal(part) => {
                if !out.is_empty() {
                    out.push('/');
                }
                out.push_str(&crate::workspace::os_to_raw(part));
            }
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests;
