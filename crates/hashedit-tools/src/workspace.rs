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

/// Longest absolute path in bytes that the system calls taking a path
/// accept (`PATH_MAX` less its NUL: 4095 on Linux, 1023 on the BSDs and
/// macOS). hashedit's writes walk directories by descriptor and could
/// create longer paths, which nothing (hashedit's own resolver included)
/// could then open by name; such paths are refused instead.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub const MAX_PATH_BYTES: usize = 4095;
/// See the Linux definition.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub const MAX_PATH_BYTES: usize = 1023;

/// A workspace: the directory the tools may read and write, plus the
/// per-call output budget and the tag scheme that mints snapshot tags.
///
/// Every path a tool takes is resolved inside the root; one that leaves it
/// (by `..` or by a symbolic link) is refused.
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
    /// Workspace-relative path with `/` separators, `.` for the root itself.
    /// This is what the model sees in `[display#TAG]`: the caller's spelling
    /// lexically cleaned (`./a.txt` → `a.txt`, absolute-inside-root →
    /// relative, a symlink keeps its own name), or, when the caller wrote
    /// `..`, the canonical target relative to the root. It is spelled by
    /// [`display_path`], so a name with a control character appears quoted
    /// and escaped (`"new\nline.txt"`) and never contains a line break;
    /// [`raw_path`] gives the unquoted path back, and [`Workspace::resolve`]
    /// accepts this spelling. Non-UTF-8 names are shown lossily; `target`
    /// keeps the exact bytes.
    pub display: String,
    /// Canonical absolute path of the object the OS would open: every
    /// symlink resolved. For a missing path, the canonical deepest existing
    /// ancestor followed by the remaining plain components. Always inside
    /// the root (or the root itself).
    pub target: PathBuf,
    /// Whether `target` existed at resolution time.
    pub exists: bool,
    /// Set when a name of the path did not exist as written but exactly
    /// one entry beside it is the same name under Unicode normalisation
    /// (NFC `café` for an NFD `café` on disk): the path was resolved to
    /// that entry, and this says so, for the reply (FORMAT.md §8.5).
    pub note: Option<String>,
}

impl Workspace {
    /// Opens a workspace rooted at `root`, which is canonicalised.
    ///
    /// Defaults: output budget
    /// [`hashedit_core::DEFAULT_MAX_OUTPUT_BYTES`] (64,000 bytes), tag
    /// scheme [`TagScheme::Rho`].
    ///
    /// # Errors
    /// [`ErrorKind::InvalidArguments`] for an empty path,
    /// [`ErrorKind::NotFound`] when the root does not exist,
    /// [`ErrorKind::NotARegularFile`] when it is not a directory, and the
    /// mapped OS error when it cannot be canonicalised.
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

    /// Refuses a write to `resolved` when it is protected (FORMAT.md §8.5):
    /// its path as written or its canonical target has a protected
    /// component, so a symlink into `.git/` is caught as well as
    /// `.git/config` itself.
    ///
    /// # Errors
    /// [`ErrorKind::ProtectedPath`], naming the protected directory or the
    /// `--protect` glob.
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
    /// object the OS would open, confined to the workspace (product.md §3
    /// item 10).
    ///
    /// A quoted spelling, as [`display_path`] prints it (the whole path, or
    /// one `/`-separated component, between double quotes with `\t`, `\n`,
    /// `\r`, `\0`, `\\`, `\"` and `\u{…}` escapes; see [`parse_quoted`]),
    /// names the unescaped path. Both readings are tried, the unescaped one
    /// first: it is used when it exists (or, with [`Resolve::MayCreate`],
    /// when the literal spelling does not exist either); otherwise an
    /// existing file whose name really is the literal spelling (quotes and
    /// backslashes included) is used. Every path [`display_path`] prints
    /// therefore resolves to the file it was printed for, and a literal
    /// `"x"` stays reachable both as `"\"x\""` (its display) and as `"x"`
    /// when no `x` exists. Messages name paths as [`display_path`] spells
    /// them.
    ///
    /// Symlinks are followed wherever they appear, including a dangling
    /// final one (with [`Resolve::MayCreate`] the result is the link's
    /// missing target, so `write` through it creates that target). The
    /// walk refuses to step into any directory that is neither inside the
    /// root nor an ancestor of it, so nothing outside is ever examined.
    ///
    /// # Errors
    /// * [`ErrorKind::InvalidArguments`]: empty path, a NUL byte, `..` after
    ///   a missing component, a trailing `/` on a path to create, more
    ///   than [`MAX_SYMLINK_HOPS`] symlinks (a loop; chosen over NotFound
    ///   because the path itself is malformed, not absent), a name over
    ///   [`MAX_NAME_BYTES`] or an absolute path over [`MAX_PATH_BYTES`].
    /// * [`ErrorKind::PathOutsideWorkspace`]: the path (or a symlink on it)
    ///   leads outside the root, including prefix siblings such as
    ///   `/w/proj-evil` beside `/w/proj`.
    /// * [`ErrorKind::NotFound`]: with [`Resolve::Existing`], the path does
    ///   not exist (a dangling symlink counts as missing).
    /// * [`ErrorKind::NotARegularFile`]: a non-final component is a file, or
    ///   a path ending in `/` names a file.
    /// * Other OS errors (e.g. permission denied) mapped by
    ///   [`ToolError::io`].
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
