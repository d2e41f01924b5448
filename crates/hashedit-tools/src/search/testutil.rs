//! Shared helpers for the search tests.

use super::SearchScope;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// A temporary workspace with files written from `(path, bytes)` pairs.
pub(crate) struct Ws {
    pub(crate) dir: TempDir,
    pub(crate) root: PathBuf,
}

/// A cancellation token that is already raised.
pub(crate) fn cancelled_token() -> crate::cancel::CancelToken {
    let token = crate::cancel::CancelToken::new();
    token.cancel();
    token
}

impl Ws {
    pub(crate) fn new(files: &[(&str, &[u8])]) -> Ws {
        let dir = TempDir::new().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let ws = Ws { dir, root };
        for (path, bytes) in files {
            ws.write(path, bytes);
        }
        ws
    }

    pub(crate) fn write(&self, path: &str, bytes: &[u8]) {
        let full = self.root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, bytes).unwrap();
    }

    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        if rel == "." {
            self.root.clone()
        } else {
            self.root.join(rel)
        }
    }

    pub(crate) fn scope<'a>(&'a self, target: &'a Path, display: &'a str) -> SearchScope<'a> {
        let _ = &self.dir;
        SearchScope {
            root: &self.root,
            target,
            display,
        }
    }
}
