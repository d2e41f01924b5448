//! The bounded workspace walk shared by `grep` and `glob`.
//!
//! Rules (reference-rho.md §4 "Walk"):
//! * ignore rules apply even outside a git checkout: `.gitignore`, `.ignore`,
//!   `.gitignore` files in parent directories of the walk root, the global
//!   gitignore and `.git/info/exclude`;
//! * hidden (dot) entries are skipped unless asked for; `.git` directories
//!   are never entered, except when the walk root itself is one;
//! * hashedit's own unfinished temp files (`.hashedit-<16 hex>.tmp`, see
//!   [`is_temp_leftover`]) are skipped even when hidden entries are asked
//!   for; its `.bak` backups are not, since one can be the only complete
//!   copy of a file's earlier content;
//! * symbolic links are neither followed nor yielded, whether they point at
//!   files or directories, so a link inside the workspace can never expose
//!   anything outside it (handed case B19);
//! * order is depth-first with the entries of each directory sorted by
//!   byte-wise file name, so files and directories interleave by name;
//! * regular files are yielded; FIFOs, sockets and devices are yielded as
//!   [`WalkItem::Special`] (never opened) so callers can count them, and
//!   entries the walk could not read as [`WalkItem::Unreadable`];
//! * the walk stops after `max_entries` entries, at the deadline, or on
//!   cancellation.
//!
//! A regular-file target is yielded alone, without ignore or hidden
//! filtering: the caller named it. Any other target that is not a
//! directory is refused up front by [`check_target`].

use std::ops::ControlFlow;
use std::path::{Component, Path, PathBuf};

use ignore::WalkBuilder;

use super::{Limits, Stop};
use crate::error::{ToolError, ToolResult};
use crate::fsio::{is_temp_leftover, not_regular_file_error};

/// Checks that a search target is a directory or a regular file, without
/// opening it (so a FIFO never blocks).
///
/// Errors: [`crate::ErrorKind::NotARegularFile`] for a FIFO, socket, device
/// or symlink, with the message of [`not_regular_file_error`] naming
/// `display`; the mapped OS error (e.g. `NotFound`) when it cannot be
/// examined.
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
    /// An entry the walk could not read. `directory` is true when it is a
    /// directory (e.g. one without permission), whose contents were then
    /// not visited.
    Unreadable {
        /// Whether the entry is a directory.
        directory: bool,
    },
}

/// Walks `target`, calling `visit` for every regular file, special file
/// and unreadable entry in order. Returns why the walk ended early, or
/// `None` when it completed. A `Break` from `visit` ends the walk with that
/// reason. A target that is neither a directory nor a regular file yields
/// nothing ([`check_target`] refuses it first).
pub(crate) fn visit_files(
    target: &Path,
    include_hidden: bool,
    limits: &Limits,
    mut visit: impl FnMut(WalkItem) -> ControlFlow<Stop>,
) -> Option<Stop> {
    let Ok(metadata) = std::fs::symlink_metadata(target) else {
        return None;
    };
    if metadata.file_type().is_file() {
        if let Some(stop) = limits.check() {
            return Some(stop);
        }
        let item = WalkItem::File(WalkedFile {
            absolute: target.to_path_buf(),
            relative: String::new(),
        });
        return visit(item).break_value();
    }
    if !metadata.is_dir() {
        return None;
    }

    let mut builder = WalkBuilder::new(target);
    builder
        .follow_links(false)
        .require_git(false)
        .hidden(!include_hidden)
        .ignore(true)
        .git_ignore(true)
        .git_global(true)
        .git_exclude(true)
        .parents(true)
        .filter_entry(|entry| {
            entry.depth() == 0
                || (entry.file_name() != ".git"
                    && !(entry.file_type().is_some_and(|t| t.is_file())
                        && is_temp_leftover(entry.file_name())))
        })
        .sort_by_file_name(|a, b| a.cmp(b));

    let mut seen = 0usize;
    for entry in builder.build() {
        if let Some(stop) = limits.check() {
            return Some(stop);
        }
        seen += 1;
        if seen > limits.max_entries {
            return Some(Stop::ScanLimit);
        }
        let item = match entry {
            Ok(entry) => {
                let Some(file_type) = entry.file_type() else {
                    continue;
                };
                // Directories are entered, symlinks never yielded.
                if file_type.is_dir() || file_type.is_symlink() {
                    continue;
                }
                let regular = file_type.is_file();
                let absolute = entry.into_path();
                let Some(relative) = relative_path(target, &absolute) else {
                    continue;
                };
                let file = WalkedFile { absolute, relative };
                if regular {
                    WalkItem::File(file)
                } else {
                    WalkItem::Special(file)
                }
            }
            // Problems with ignore files themselves are not unreadable
            // entries; only I/O failures hide part of the tree.
            Err(error) if error.io_error().is_some() => WalkItem::Unreadable {
                directory: error_path(&error)
                    .and_then(|p| std::fs::symlink_metadata(p).ok())
                    .is_some_and(|m| m.is_dir()),
            },
            Err(_) => continue,
        };
        if let ControlFlow::Break(stop) = visit(item) {
            return Some(stop);
        }
    }
    None
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
                out.push_str(&part.to_string_lossy());
            }
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchOptions;
    use crate::search::testutil::Ws;
    use std::time::Duration;

    fn walk(target: &Path, hidden: bool, options: &SearchOptions) -> (Vec<String>, Option<Stop>) {
        let limits = Limits::start(options);
        let mut files = Vec::new();
        let stop = visit_files(target, hidden, &limits, |item| {
            if let WalkItem::File(f) = item {
                files.push(f.relative);
            }
            ControlFlow::Continue(())
        });
        (files, stop)
    }

    fn names(target: &Path, hidden: bool) -> Vec<String> {
        walk(target, hidden, &SearchOptions::default()).0
    }

    #[test]
    fn sorts_per_directory_and_interleaves_files_and_dirs() {
        let ws = Ws::new(&[
            ("top.rs", b"x"),
            ("src/nested/c.rs", b"x"),
            ("src/b.rs", b"x"),
            ("src/a.rs", b"x"),
        ]);
        assert_eq!(
            names(&ws.root, false),
            ["src/a.rs", "src/b.rs", "src/nested/c.rs", "top.rs"]
        );
    }

    #[test]
    fn order_is_bytewise() {
        let ws = Ws::new(&[
            ("b", b""),
            ("B", b""),
            ("a.rs", b""),
            ("a", b""),
            ("é", b""),
        ]);
        assert_eq!(names(&ws.root, false), ["B", "a", "a.rs", "b", "é"]);
    }

    #[test]
    fn honours_gitignore_without_a_repository_and_skips_dot_git() {
        let ws = Ws::new(&[
            (".gitignore", b"ignored.txt\nbuild/\n"),
            ("ignored.txt", b"x"),
            ("build/out.txt", b"x"),
            ("kept.txt", b"x"),
            (".ignore", b"also.txt\n"),
            ("also.txt", b"x"),
            (".git/config", b"x"),
            ("sub/.git/HEAD", b"x"),
            (".hidden/h.txt", b"x"),
        ]);
        assert_eq!(names(&ws.root, false), ["kept.txt"]);
        assert_eq!(
            names(&ws.root, true),
            [".gitignore", ".hidden/h.txt", ".ignore", "kept.txt"]
        );
    }

    #[test]
    fn hashedit_temp_leftovers_are_skipped_but_backups_are_not() {
        let ws = Ws::new(&[
            (".hashedit-0123456789abcdef.tmp", b"x"),
            ("src/.hashedit-fedcba9876543210.tmp", b"x"),
            ("src/.hashedit-fedcba9876543210.bak", b"x"),
            (".hashedit-notes.tmp", b"x"),
            ("src/a.rs", b"x"),
        ]);
        assert_eq!(names(&ws.root, false), ["src/a.rs"]);
        assert_eq!(
            names(&ws.root, true),
            [
                ".hashedit-notes.tmp",
                "src/.hashedit-fedcba9876543210.bak",
                "src/a.rs"
            ]
        );
        // Named as the target, a leftover is still yielded: the caller
        // asked for it.
        assert_eq!(
            names(&ws.path(".hashedit-0123456789abcdef.tmp"), false),
            [""]
        );
    }

    #[test]
    fn parent_gitignore_applies_to_a_narrowed_walk() {
        let ws = Ws::new(&[
            (".gitignore", b"*.log\n"),
            ("src/a.log", b"x"),
            ("src/a.rs", b"x"),
        ]);
        assert_eq!(names(&ws.path("src"), false), ["a.rs"]);
    }

    #[test]
    fn walks_a_root_named_dot_git() {
        let ws = Ws::new(&[(".git/HEAD", b"ref"), (".git/refs/x", b"y")]);
        assert_eq!(names(&ws.path(".git"), false), ["HEAD", "refs/x"]);
    }

    #[test]
    fn hidden_root_is_entered() {
        let ws = Ws::new(&[(".config/a.toml", b"x")]);
        assert_eq!(names(&ws.path(".config"), false), ["a.toml"]);
    }

    #[cfg(unix)]
    #[test]
    fn never_yields_symlinks() {
        let outside = Ws::new(&[("secret.txt", b"host"), ("dir/inner.txt", b"host")]);
        let ws = Ws::new(&[("real.txt", b"x")]);
        std::os::unix::fs::symlink(outside.path("secret.txt"), ws.path("leak")).unwrap();
        std::os::unix::fs::symlink(outside.path("dir"), ws.path("out")).unwrap();
        std::os::unix::fs::symlink(ws.path("real.txt"), ws.path("inside-link")).unwrap();
        assert_eq!(names(&ws.root, true), ["real.txt"]);
    }

    #[test]
    fn a_file_target_is_yielded_alone_even_if_ignored() {
        let ws = Ws::new(&[(".gitignore", b"*.log\n"), ("x.log", b"x")]);
        let (files, stop) = walk(&ws.path("x.log"), false, &SearchOptions::default());
        assert_eq!(files, [""]);
        assert_eq!(stop, None);
    }

    #[test]
    fn stops_at_the_entry_limit_and_deadline() {
        let ws = Ws::new(&[("a", b""), ("b", b""), ("c", b"")]);
        let options = SearchOptions {
            max_entries: 3,
            ..SearchOptions::default()
        };
        // Root, a, b are the first three entries; c would be the fourth.
        let (files, stop) = walk(&ws.root, false, &options);
        assert_eq!(files, ["a", "b"]);
        assert_eq!(stop, Some(Stop::ScanLimit));

        let late = SearchOptions {
            time_limit: Duration::ZERO,
            ..SearchOptions::default()
        };
        let (files, stop) = walk(&ws.root, false, &late);
        assert!(files.is_empty());
        assert_eq!(stop, Some(Stop::TimeLimit));
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_yielded_apart_and_never_opened() {
        let ws = Ws::new(&[("a.txt", b"x"), ("z.txt", b"x")]);
        let fifo = ws.path("m.fifo");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::RUSR).unwrap();
        let limits = Limits::start(&SearchOptions::default());
        let mut items = Vec::new();
        let stop = visit_files(&ws.root, false, &limits, |item| {
            items.push(match item {
                WalkItem::File(f) => format!("file {}", f.relative),
                WalkItem::Special(f) => format!("special {}", f.relative),
                WalkItem::Unreadable { directory } => format!("unreadable {directory}"),
            });
            ControlFlow::Continue(())
        });
        assert_eq!(stop, None);
        assert_eq!(items, ["file a.txt", "special m.fifo", "file z.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn targets_other_than_files_and_directories_are_refused() {
        let ws = Ws::new(&[("a.txt", b"x")]);
        let fifo = ws.path("p");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::RUSR).unwrap();
        assert!(check_target(&ws.root, ".").is_ok());
        assert!(check_target(&ws.path("a.txt"), "a.txt").is_ok());
        let error = check_target(&fifo, "p").unwrap_err();
        assert_eq!(error.kind, crate::ErrorKind::NotARegularFile);
        assert!(
            error.message.starts_with("p is a FIFO"),
            "{}",
            error.message
        );
        let error = check_target(&ws.path("gone"), "gone").unwrap_err();
        assert_eq!(error.kind, crate::ErrorKind::NotFound);
    }

    #[test]
    fn walk_errors_name_their_path_through_wrappers() {
        let ws = Ws::new(&[("d/a.txt", b"x")]);
        let io = || ignore::Error::Io(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        let wrapped = ignore::Error::WithPath {
            path: ws.path("d"),
            err: Box::new(ignore::Error::WithDepth {
                depth: 1,
                err: Box::new(io()),
            }),
        };
        assert_eq!(error_path(&wrapped), Some(ws.path("d").as_path()));
        let deep = ignore::Error::WithDepth {
            depth: 2,
            err: Box::new(ignore::Error::WithPath {
                path: ws.path("d/a.txt"),
                err: Box::new(io()),
            }),
        };
        assert_eq!(error_path(&deep), Some(ws.path("d/a.txt").as_path()));
        assert_eq!(error_path(&io()), None);
    }

    #[test]
    fn visitor_can_stop_the_walk() {
        let ws = Ws::new(&[("a", b""), ("b", b"")]);
        let limits = Limits::start(&SearchOptions::default());
        let mut seen = Vec::new();
        let stop = visit_files(&ws.root, false, &limits, |item| {
            if let WalkItem::File(f) = item {
                seen.push(f.relative);
            }
            ControlFlow::Break(Stop::ResultLimit)
        });
        assert_eq!(seen, ["a"]);
        assert_eq!(stop, Some(Stop::ResultLimit));
    }
}
