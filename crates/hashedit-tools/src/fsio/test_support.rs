//! Helpers shared by the unit tests of the `fsio` modules.

use std::path::Path;

use tempfile::TempDir;

use crate::workspace::{Resolve, ResolvedPath, Workspace};

/// An empty workspace rooted at a fresh temporary directory; the directory
/// is removed when the returned [`TempDir`] is dropped.
pub(crate) fn empty_workspace() -> (TempDir, Workspace) {
    let dir = TempDir::new().unwrap();
    let ws = Workspace::new(dir.path()).unwrap();
    (dir, ws)
}

/// `path` resolved in `ws` as an existing file.
pub(crate) fn resolve(ws: &Workspace, path: &str) -> ResolvedPath {
    ws.resolve(path, Resolve::Existing).unwrap()
}

/// The names in `dir`, sorted.
pub(crate) fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
