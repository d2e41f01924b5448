//! Other names of a file with several hard links, checked against the
//! protected set before an in-place rewrite (FORMAT.md §8.5): the
//! version-control directories beside the file and its ancestors, and the
//! whole workspace when `--protect` globs are set, are searched for the
//! inode, each search bounded by [`MAX_ENTRIES_SEARCHED`] entries.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::protect::{DEFAULT_PROTECTED_NAMES, Protected, Protection};

/// Most directory entries one search looks at.
pub(super) const MAX_ENTRIES_SEARCHED: usize = 200_000;

/// Another name of the inode at `target` (a canonical path under `root`)
/// that `protection` protects, with why, or `None` (also when `target` has
/// one link, is not a regular file, or cannot be examined).
pub(super) fn protected_other_name(
    root: &Path,
    target: &Path,
    protection: &Protection,
) -> Option<(PathBuf, Protected)> {
    let meta = std::fs::symlink_metadata(target).ok()?;
    if !meta.is_file() || meta.nlink() <= 1 {
        return None;
    }
    let inode = (meta.dev(), meta.ino());
    search_dirs(root, target, protection)
        .into_iter()
        .find_map(|dir| find_in(&dir, root, target, inode, protection))
}

/// The directories that could hold a protected name, nearest first.
fn search_dirs(root: &Path, target: &Path, protection: &Protection) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if protection.protects_defaults() {
        let ancestors = target.ancestors().skip(1);
        for dir in ancestors.take_while(|dir| dir.starts_with(root)) {
            for name in DEFAULT_PROTECTED_NAMES {
                let candidate = dir.join(name);
                if candidate.is_dir() {
                    dirs.push(candidate);
                }
            }
        }
    }
    if protection.has_globs() {
        dirs.push(root.to_path_buf());
    }
    dirs
}

/// A protected name of `inode` under `dir`, other than `target`.
fn find_in(
    dir: &Path,
    root: &Path,
    target: &Path,
    inode: (u64, u64),
    protection: &Protection,
) -> Option<(PathBuf, Protected)> {
    let walk = ignore::WalkBuilder::new(dir)
        .standard_filters(false)
        .follow_links(false)
        .build();
    for entry in walk.take(MAX_ENTRIES_SEARCHED).flatten() {
        let path = entry.path();
        if path == target || !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        if (meta.dev(), meta.ino()) != inode {
            continue;
        }
        let Ok(relative) = path.strip_prefix(root) else {
            continue;
        };
        if let Some(why) = protection.check(relative) {
            return Some((relative.to_path_buf(), why));
        }
    }
    None
}

#[cfg(test)]
mod tests;
