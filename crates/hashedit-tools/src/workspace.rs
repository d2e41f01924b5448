//! The workspace: a canonical root directory with the output budget, the
//! tag scheme and the protected paths, and the confinement of every path
//! to the root (FORMAT.md §8.5). Every path a tool receives goes through
//! [`Workspace::resolve`] (module `resolve`), which refuses one that leads
//! outside without examining the outside. Resolution is a snapshot: the
//! I/O layer (module `fsio`) re-opens the canonical target from a
//! descriptor of the root without following symlinks, and reports a race
//! as [`ErrorKind::Conflict`]. Paths are spelled for the model by
//! [`display_path`] (module `quote`), which `resolve` reads back.

use std::io;
use std::path::{Path, PathBuf};

use hashedit_core::TagScheme;

use crate::error::{ErrorKind, ToolError, ToolResult};

mod bytes;
mod links;
mod protect;
mod quote;
mod resolve;

use resolve::lexical_absolute;
mod unicode;

pub use bytes::{os_to_raw, raw_to_os};

pub use protect::{DEFAULT_PROTECTED_NAMES, Protected, Protection};
pub use quote::{display_path, parse_quoted, raw_path};
pub(crate) use unicode::form as unicode_form;

/// How many symlinks one resolution may follow before it is treated as a
/// loop (the same bound as Linux's `MAXSYMLINKS`).
pub const MAX_SYMLINK_HOPS: usize = 40;

/// Longest file name (one path component) in bytes: `NAME_MAX` of every
/// common file system.
pub const MAX_NAME_BYTES: usize = 255;

/// Longest absolute path in bytes the system calls accept (`PATH_MAX` less
/// its NUL); a longer one, which nothing could open by name, is refused.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub const MAX_PATH_BYTES: usize = 4095;
/// See the Linux definition.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub const MAX_PATH_BYTES: usize = 1023;

/// A workspace: the directory the tools may read and write (a path that
/// leaves it, by `..` or a symlink, is refused), the output budget and the
/// tag scheme.
///
/// ```
/// use hashedit_tools::{ErrorKind, Resolve, Workspace};
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.txt"), "one\n")?;
/// let ws = Workspace::new(dir.path())?.with_max_output_bytes(4_000);
/// assert_eq!(ws.max_output_bytes(), 4_000);
///
/// let file = ws.resolve("a.txt", Resolve::Existing)?;
/// assert_eq!(file.display, "a.txt");
/// assert_eq!(file.target, ws.root().join("a.txt"));
///
/// let outside = ws.resolve("../a.txt", Resolve::Existing).unwrap_err();
/// assert_eq!(outside.kind, ErrorKind::PathOutsideWorkspace);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// Canonical absolute root (no symlinks, no `.`/`..`).
    root: PathBuf,
    /// The root as the caller spelled it, made absolute and lexically
    /// cleaned, when that differs from `root` (e.g. `/tmp/w` when `/tmp` is
    /// a symlink). Absolute paths written under it still display relative.
    alias: Option<PathBuf>,
    /// Output budget in bytes (at least 1).
    max_output_bytes: usize,
    /// Scheme for snapshot tags.
    tag_scheme: TagScheme,
    /// Paths writes refuse (FORMAT.md §8.5).
    protection: Protection,
}

/// Whether [`Workspace::resolve`] requires the path to exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolve {
    /// The path must exist; a missing path is [`ErrorKind::NotFound`].
    Existing,
    /// The path may be missing (for `write`): the deepest existing ancestor
    /// is canonicalised and the missing components are appended.
    MayCreate,
}

/// A path resolved inside the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPath {
    /// Workspace-relative path with `/` separators (`.` for the root), as
    /// the model sees it in `[display#TAG]`: the caller's spelling cleaned
    /// (a symlink keeps its own name), or the canonical target's when the
    /// caller wrote `..`; spelled by [`display_path`], which `resolve`
    /// reads back.
    pub display: String,
    /// Canonical absolute path of the object the OS would open (for a
    /// missing path, its deepest existing ancestor's and the rest); inside
    /// the root.
    pub target: PathBuf,
    /// Whether `target` existed at resolution time.
    pub exists: bool,
    /// The note for a name resolved to its one Unicode twin on disk
    /// (FORMAT.md §8.5).
    pub note: Option<String>,
}

impl Workspace {
    /// Opens a workspace rooted at `root` (canonicalised), with the default
    /// output budget and tag scheme.
    ///
    /// Errors: `InvalidArguments` (empty), `NotFound`, `NotARegularFile`,
    /// mapped OS errors.
    pub fn new(root: impl AsRef<Path>) -> ToolResult<Workspace> {
        let given = root.as_ref();
        if given.as_os_str().is_empty() {
            return Err(ToolError::new(
                ErrorKind::InvalidArguments,
                "the workspace root is empty; give a directory path",
            ));
        }
        let shown = given.display();
        let canonical = std::fs::canonicalize(given).map_err(|error| {
            if error.kind() == io::ErrorKind::NotFound {
                ToolError::new(
                    ErrorKind::NotFound,
                    format!(
                        "the workspace root {shown} does not exist; give an existing directory"
                    ),
                )
            } else {
                ToolError::io("open the workspace root", &shown.to_string(), &error)
            }
        })?;
        let metadata = std::fs::metadata(&canonical).map_err(|error| {
            ToolError::io("open the workspace root", &shown.to_string(), &error)
        })?;
        if !metadata.is_dir() {
            return Err(ToolError::new(
                ErrorKind::NotARegularFile,
                format!("the workspace root {shown} is not a directory; give a directory path"),
            ));
        }
        let alias = lexical_absolute(given).filter(|alias| *alias != canonical);
        Ok(Workspace {
            root: canonical,
            alias,
            max_output_bytes: hashedit_core::DEFAULT_MAX_OUTPUT_BYTES,
            tag_scheme: TagScheme::default(),
            protection: Protection::default(),
        })
    }

    /// Sets the paths `write` and `edit` refuse (default: version-control
    /// internals, FORMAT.md §8.5).
    pub fn with_protection(mut self, protection: Protection) -> Workspace {
        self.protection = protection;
        self
    }

    /// The paths `write` and `edit` refuse.
    pub fn protection(&self) -> &Protection {
        &self.protection
    }

    /// Refuses a write to `resolved` (`ProtectedPath`) when its path as
    /// written, its canonical target or another hard link of it is
    /// protected (FORMAT.md §8.5).
    pub fn check_writable(&self, resolved: &ResolvedPath) -> ToolResult<()> {
        let written = raw_path(&resolved.display);
        let canonical = resolved
            .target
            .strip_prefix(&self.root)
            .unwrap_or(Path::new(""));
        let why = self
            .protection
            .check(Path::new(written.as_ref()))
            .or_else(|| self.protection.check(canonical));
        if let Some(why) = why {
            return Err(protect::protected_error(&resolved.display, &why));
        }
        // A file with several hard links is rewritten in place: another
        // name of it must not be protected.
        match links::protected_other_name(&self.root, &resolved.target, &self.protection) {
            Some((other, why)) => Err(protect::protected_link_error(
                &resolved.display,
                &other,
                &why,
            )),
            None => Ok(()),
        }
    }

    /// Sets the per-call output budget in bytes; values below 1 become 1.
    pub fn with_max_output_bytes(mut self, bytes: usize) -> Workspace {
        self.max_output_bytes = bytes.max(1);
        self
    }

    /// Sets the tag scheme used for snapshot tags.
    pub fn with_tag_scheme(mut self, scheme: TagScheme) -> Workspace {
        self.tag_scheme = scheme;
        self
    }

    /// The canonical absolute root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The per-call output budget in bytes (at least 1).
    pub fn max_output_bytes(&self) -> usize {
        self.max_output_bytes
    }

    /// The tag scheme for snapshot tags.
    pub fn tag_scheme(&self) -> TagScheme {
        self.tag_scheme
    }

    /// Resolves `path` (relative to the root, or absolute inside it) to the
    /// object the OS would open, confined to the workspace (FORMAT.md
    /// §8.5). A quoted spelling as [`display_path`] prints it names the
    /// unescaped path, unless only a file literally named so exists.
    /// Symlinks are followed wherever they appear; with
    /// [`Resolve::MayCreate`] a dangling one resolves to its target.
    ///
    /// Errors: `InvalidArguments` (empty, a NUL, `..` after a missing
    /// component, a trailing `/` on a path to create, a symlink loop, a name
    /// over [`MAX_NAME_BYTES`], a path over [`MAX_PATH_BYTES`]),
    /// `PathOutsideWorkspace`, `NotFound` (with [`Resolve::Existing`]),
    /// `NotARegularFile`, mapped OS errors.
    pub fn resolve(&self, path: &str, mode: Resolve) -> ToolResult<ResolvedPath> {
        let Some(unquoted) = parse_quoted(path).filter(|unquoted| unquoted != path) else {
            return self.resolve_spelled(path, mode);
        };
        let first = self.resolve_spelled(&unquoted, mode);
        let names_nothing = match &first {
            Ok(resolved) => !resolved.exists,
            Err(error) => error.kind == ErrorKind::NotFound,
        };
        if names_nothing && let Ok(literal) = self.resolve_spelled(path, Resolve::Existing) {
            return Ok(literal);
        }
        first
    }
}

#[cfg(test)]
mod tests;
