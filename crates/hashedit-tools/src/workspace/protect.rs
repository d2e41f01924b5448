//! Protected paths: places `write` and `edit` (with `REM` and `MV`) refuse
//! to touch, however spelled (FORMAT.md §8.5). Version-control internals
//! are protected by default (a hook written there runs code at the next
//! `git status`); both the path as written and its canonical target are
//! checked, names compared without regard to ASCII case.

use std::path::{Component, Path};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use crate::error::{ErrorKind, ToolError};

/// Directory names protected by default: version-control internals.
pub const DEFAULT_PROTECTED_NAMES: [&str; 4] = [".git", ".hg", ".svn", ".jj"];

/// Which paths writes refuse: any with a component among
/// [`DEFAULT_PROTECTED_NAMES`] (ASCII case ignored), unless
/// [`Protection::without_defaults`], and any matching an extra glob.
#[derive(Debug, Clone)]
pub struct Protection {
    /// Whether the default names are protected.
    defaults: bool,
    /// The extra globs as given, for messages and equality.
    patterns: Vec<String>,
    /// Globs without `/`, matched against every component.
    names: GlobSet,
    /// Globs with `/`, matched against the relative path and each ancestor.
    paths: GlobSet,
}

impl Default for Protection {
    fn default() -> Protection {
        Protection {
            defaults: true,
            patterns: Vec::new(),
            names: GlobSet::empty(),
            paths: GlobSet::empty(),
        }
    }
}

impl PartialEq for Protection {
    fn eq(&self, other: &Protection) -> bool {
        self.defaults == other.defaults && self.patterns == other.patterns
    }
}

impl Eq for Protection {}

/// Why a path is protected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Protected {
    /// A component is a version-control directory (the name as found).
    VersionControl(String),
    /// An extra glob (`--protect`) matched.
    Glob(String),
}

impl Protection {
    /// The default set plus `globs` (case-insensitive, `*` does not cross
    /// `/`, `**` does). A glob without `/` matches a name at any depth
    /// (`*.pem`, `secrets`); one with `/` matches the workspace-relative
    /// path or one of its ancestors (`deploy/keys`, `config/*.toml`).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidArguments`] naming the glob that does not parse.
    pub fn with_globs<S: AsRef<str>>(globs: &[S]) -> Result<Protection, ToolError> {
        let mut names = GlobSetBuilder::new();
        let mut paths = GlobSetBuilder::new();
        let mut patterns = Vec::new();
        for glob in globs {
            let glob = glob.as_ref();
            let trimmed = glob.trim_end_matches('/');
            let parsed = GlobBuilder::new(trimmed)
                .case_insensitive(true)
                .literal_separator(true)
                .build()
                .map_err(|e| {
                    ToolError::new(
                        ErrorKind::InvalidArguments,
                        format!("--protect {glob}: not a glob pattern ({})", e.kind()),
                    )
                })?;
            if trimmed.contains('/') {
                paths.add(parsed);
            } else {
                names.add(parsed);
            }
            patterns.push(glob.to_string());
        }
        let build = |builder: GlobSetBuilder| {
            builder
                .build()
                .map_err(|e| ToolError::new(ErrorKind::InvalidArguments, format!("--protect: {e}")))
        };
        Ok(Protection {
            defaults: true,
            patterns,
            names: build(names)?,
            paths: build(paths)?,
        })
    }

    /// The same set without [`DEFAULT_PROTECTED_NAMES`] (extra globs stay).
    pub fn without_defaults(mut self) -> Protection {
        self.defaults = false;
        self
    }

    /// Whether the default version-control names are protected.
    pub fn protects_defaults(&self) -> bool {
        self.defaults
    }

    /// Whether extra globs (`--protect`) are set.
    pub fn has_globs(&self) -> bool {
        !self.patterns.is_empty()
    }

    /// Why `relative` (a workspace-relative path) is protected, or `None`.
    pub fn check(&self, relative: &Path) -> Option<Protected> {
        let mut prefix = std::path::PathBuf::new();
        for component in relative.components() {
            let Component::Normal(name) = component else {
                continue;
            };
            prefix.push(name);
            let text = name.to_string_lossy();
            if self.defaults
                && DEFAULT_PROTECTED_NAMES
                    .iter()
                    .any(|vcs| vcs.eq_ignore_ascii_case(&text))
            {
                return Some(Protected::VersionControl(text.into_owned()));
            }
            if let Some(index) = self.names.matches(name).first() {
                return Some(Protected::Glob(self.glob_named(*index, true)));
            }
            if let Some(index) = self.paths.matches(&prefix).first() {
                return Some(Protected::Glob(self.glob_named(*index, false)));
            }
        }
        None
    }

    /// The `index`th extra glob of the name set (`names`) or path set.
    fn glob_named(&self, index: usize, names: bool) -> String {
        self.patterns
            .iter()
            .filter(|p| p.trim_end_matches('/').contains('/') != names)
            .nth(index)
            .cloned()
            .unwrap_or_default()
    }
}

/// The error for a write to `display`, a file with several hard links of
/// which `other` (workspace-relative) is protected for `why`.
pub(crate) fn protected_link_error(display: &str, other: &Path, why: &Protected) -> ToolError {
    let other = other.display();
    let place = match why {
        Protected::VersionControl(name) => format!(
            "inside {name}/, version-control internals, which hashedit never writes (a hook or config \
             written there can run code)"
        ),
        Protected::Glob(glob) => format!("protected by --protect {glob}"),
    };
    ToolError::new(
        ErrorKind::ProtectedPath,
        format!(
            "{display} is a hard link of {other} (one file under two names; a write through either \
             changes both), and {other} is {place}; nothing was written. Reading it is allowed; to \
             change {display} alone, a person can break the link by hand (cp {display} tmp && mv tmp \
             {display})"
        ),
    )
}

/// The error for a write to `display`, protected for `why`.
pub(crate) fn protected_error(display: &str, why: &Protected) -> ToolError {
    let message = match why {
        Protected::VersionControl(name) => format!(
            "{display} is inside {name}/, version-control internals, which hashedit never writes (a hook or \
             config written there can run code); nothing was written. Reading it is allowed; changing it is \
             for a person to do by hand, or to allow by starting hashedit with --allow-protected"
        ),
        Protected::Glob(glob) => format!(
            "{display} is protected by --protect {glob}; nothing was written. Reading it is allowed; run \
             hashedit without that --protect to change it"
        ),
    };
    ToolError::new(ErrorKind::ProtectedPath, message)
}

#[cfg(test)]
mod tests;
