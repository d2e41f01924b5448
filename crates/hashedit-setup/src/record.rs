//! The undo record: for each file setup changed, its bytes before the
//! first setup and the bytes setup last wrote, so that undo can restore
//! the file exactly while nothing else changed it.
//!
//! One record per project (and one for the user scope), shared by every
//! client set up there, in `Places::state`: `project-NAME-HASH.json`
//! (NAME the project directory's name, HASH an xxh3 of its path) or
//! `user.json`. A file several clients change (AGENTS.md) has one entry.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Scope, SetupError};

/// The record of one project (or of the user scope).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// The project directory, for whoever reads the file.
    pub(crate) project: Option<PathBuf>,
    /// The clients set up and not undone, by name.
    pub(crate) clients: BTreeSet<String>,
    /// The files changed, by path.
    pub(crate) files: BTreeMap<PathBuf, Entry>,
    /// The directories created for the record itself, innermost first.
    #[serde(default)]
    pub(crate) created_dirs: Vec<PathBuf>,
}

/// One file's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Entry {
    /// The file's text before the first setup; `None`: it did not exist.
    pub(crate) before: Option<String>,
    /// The text setup last wrote, while nothing else has changed the file
    /// since the first setup; `None` once something did (undo then takes
    /// out only what setup added).
    pub(crate) after: Option<String>,
    /// The directories created for the file, innermost first (removed
    /// with it when they are empty).
    #[serde(default)]
    pub(crate) created_dirs: Vec<PathBuf>,
}

/// Where the record of `scope` in `project` lives under `state`.
pub(crate) fn path(state: &Path, scope: Scope, project: &Path) -> PathBuf {
    match scope {
        Scope::User => state.join("user.json"),
        Scope::Project => {
            let name = project
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let hash = xxhash_rust::xxh3::xxh3_64(project.as_os_str().as_encoded_bytes());
            state.join(format!("project-{name}-{hash:016x}.json"))
        }
    }
}

/// The record at `path` (empty when there is none) and its text.
pub(crate) fn load(path: &Path) -> Result<(Record, Option<String>), SetupError> {
    let Some(text) = crate::files::read(path)? else {
        return Ok((Record::default(), None));
    };
    let record = serde_json::from_str(&text).map_err(|e| SetupError::Record {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    Ok((record, Some(text)))
}

/// The directories an earlier record in `state` created for the records
/// (each record keeps them, so the last one undone removes them).
pub(crate) fn shared_dirs(state: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(state) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| load(&entry.path()).ok())
        .map(|(record, _)| record.created_dirs)
        .find(|dirs| !dirs.is_empty())
        .unwrap_or_default()
}

impl Record {
    /// The record as its file holds it; `None` when it records nothing.
    pub(crate) fn text(&self) -> Option<String> {
        if self.clients.is_empty() {
            return None;
        }
        serde_json::to_string_pretty(self).ok().map(|t| t + "\n")
    }
}
