//! The workspace: a canonical root directory, the output budget and the tag
//! scheme, plus path resolution with confinement (product.md §3 item 10).
//!
//! Every path a tool receives goes through [`Workspace::resolve`] first. The
//! resolver walks the path one component at a time the way the kernel does
//! (symlinks are followed, `..` is applied to the directory reached so far),
//! but it never looks at anything outside the root: a step that would enter
//! a directory that is neither inside the root nor one of the root's own
//! ancestors fails with [`ErrorKind::PathOutsideWorkspace`] before any
//! `lstat` of that place happens. So `../proj-evil/x` (a prefix sibling),
//! `/etc/hostname`, a symlink to `/tmp` and a symlink to a file outside are
//! all refused, and the error does not reveal whether the outside path
//! exists.
//!
//! Resolution is a snapshot: the file system can change afterwards. The I/O
//! layer (module `fsio`) therefore re-opens the canonical target relative
//! to a descriptor of the root without following any symlink, and reports a
//! race as [`ErrorKind::Conflict`].
//!
//! Paths are shown to the model through [`display_path`], the one place
//! that spells them: a path holding a control character (a newline, a
//! tab…) is shown quoted and escaped, so every header and listing stays on
//! one line, and [`Workspace::resolve`] reads that quoted spelling back
//! (module `quote` has the exact rules).

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Component, Path, PathBuf};

use hashedit_core::TagScheme;

use crate::error::{ErrorKind, Hint, ToolError, ToolResult};

mod bytes;
mod links;
mod protect;
mod quote;
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

    /// [`Workspace::resolve`] for one reading of the caller's path.
    fn resolve_spelled(&self, path: &str, mode: Resolve) -> ToolResult<ResolvedPath> {
        if path.is_empty() {
            return Err(ToolError::new(
                ErrorKind::InvalidArguments,
                "the path is empty; give a file path relative to the workspace root",
            ));
        }
        if path.contains('\0') {
            return Err(ToolError::new(
                ErrorKind::InvalidArguments,
                format!("the path {path:?} contains a NUL byte; remove it"),
            ));
        }
        let bytes = raw_to_os(path);
        let written = Path::new::<OsStr>(&bytes);
        let trailing_slash = path.len() > 1 && path.ends_with('/');
        let shown = display_path(path);
        let path: &str = &shown;
        if let Some(name) = written.components().find_map(|c| match c {
            Component::Normal(name) if name.len() > MAX_NAME_BYTES => Some(name),
            _ => None,
        }) {
            return Err(name_too_long(path, name));
        }

        let mut walk = Walk {
            ws: self,
            written: path,
            current: self.root.clone(),
            pending: Vec::new(),
            hops: 0,
            open_links: Vec::new(),
            escaped_via: None,
            twins: Vec::new(),
        };
        match self.under_alias(written) {
            Some(rest) => walk.push_front(&rest),
            None => walk.push_front(written),
        }
        let outcome = walk.run()?;

        let (target, exists) = match outcome {
            Reached::Existing { target, is_dir } => {
                if !target.starts_with(&self.root) {
                    return Err(self.outside(path, walk.blame()));
                }
                if trailing_slash && !is_dir {
                    return Err(ToolError::new(
                        ErrorKind::NotARegularFile,
                        format!(
                            "{path} ends with '/' but names a file, not a directory; drop the trailing '/'"
                        ),
                    ));
                }
                (target, true)
            }
            Reached::Missing { parent, tail } => {
                let target =
                    self.missing_target(path, mode, trailing_slash, &walk, parent, tail)?;
                (target, false)
            }
        };

        if target.as_os_str().len() > MAX_PATH_BYTES {
            return Err(self.path_too_long(path, target.as_os_str().len()));
        }
        // A name resolved through its Unicode twin is shown as it is on
        // disk, so the header names a file that exists.
        let display = if walk.twins.is_empty() {
            self.display_for(written, &target)
        } else {
            let relative = target.strip_prefix(&self.root).unwrap_or(&target);
            display_path(&slash_join(relative)).into_owned()
        };
        let note = unicode::twins_note(&walk.twins, mode);
        Ok(ResolvedPath {
            display,
            target,
            exists,
            note,
        })
    }

    /// The target of `path` when the walk stopped at a missing `tail`
    /// below `parent`: refused unless `mode` may create it, it names a
    /// file and it stays inside the root.
    fn missing_target(
        &self,
        path: &str,
        mode: Resolve,
        trailing_slash: bool,
        walk: &Walk,
        parent: PathBuf,
        tail: Vec<Step>,
    ) -> ToolResult<PathBuf> {
        if mode == Resolve::Existing {
            let hint = match walk.open_links.last() {
                Some(link) => {
                    format!(" (the symlink {link} points to a path that does not exist)")
                }
                None => String::new(),
            };
            return Err(ToolError::new(
                ErrorKind::NotFound,
                format!("{path} does not exist{hint}"),
            )
            .with_hint(Hint::CheckPath));
        }
        if let Some(Step::Name(name)) = tail.first() {
            let twins = unicode::twins(&parent, name);
            if !twins.is_empty() {
                return Err(unicode::look_alike_error(path, &twins));
            }
        }
        let mut target = parent;
        for step in tail {
            match step {
                Step::Name(name) => target.push(name),
                Step::EndOfLink => {}
                Step::Up | Step::Root => {
                    return Err(ToolError::new(
                        ErrorKind::InvalidArguments,
                        format!(
                            "{path} goes up with '..' (or restarts at '/') after a directory that does not exist; write the path without '..'"
                        ),
                    ));
                }
            }
        }
        if trailing_slash {
            return Err(ToolError::new(
                ErrorKind::InvalidArguments,
                format!("{path} ends with '/', so it names a directory; give the path of a file"),
            ));
        }
        if !target.starts_with(&self.root) {
            return Err(self.outside(path, walk.blame()));
        }
        Ok(target)
    }

    /// For an absolute `written` path under the root as the caller spelled
    /// it (an alias such as `/tmp/w` when `/tmp` is a symlink), the rest of
    /// the path relative to the root. The alias is outside the canonical
    /// root, so the walk would refuse it; it names the root itself.
    fn under_alias(&self, written: &Path) -> Option<PathBuf> {
        let alias = self.alias.as_ref()?;
        if !written.is_absolute() {
            return None;
        }
        lexical_clean(written)
            .strip_prefix(alias)
            .ok()
            .map(Path::to_path_buf)
    }

    /// The display form of a resolved path (see [`ResolvedPath::display`]).
    fn display_for(&self, written: &Path, target: &Path) -> String {
        let raw = self.raw_display_for(written, target);
        match display_path(&raw) {
            std::borrow::Cow::Borrowed(_) => raw,
            std::borrow::Cow::Owned(quoted) => quoted,
        }
    }

    /// [`Workspace::display_for`] before [`display_path`] spells it.
    fn raw_display_for(&self, written: &Path, target: &Path) -> String {
        let has_parent = written.components().any(|c| c == Component::ParentDir);
        if !has_parent {
            let lexical = if written.is_absolute() {
                let cleaned = lexical_clean(written);
                [Some(&self.root), self.alias.as_ref()]
                    .into_iter()
                    .flatten()
                    .find_map(|base| cleaned.strip_prefix(base).ok().map(Path::to_path_buf))
            } else {
                Some(lexical_clean(written))
            };
            if let Some(relative) = lexical {
                return slash_join(&relative);
            }
        }
        match target.strip_prefix(&self.root) {
            Ok(relative) => slash_join(relative),
            // Unreachable after the confinement check; fall back to the
            // lossy absolute path rather than panicking.
            Err(_) => lossy(target.as_os_str()),
        }
    }

    /// The error for a path whose absolute form is `length` bytes, over
    /// [`MAX_PATH_BYTES`].
    fn path_too_long(&self, written: &str, length: usize) -> ToolError {
        ToolError::new(
            ErrorKind::InvalidArguments,
            format!(
                "{} is {length} bytes long as an absolute path (the workspace root {} included), over the {MAX_PATH_BYTES}-byte limit of the system; use a shorter path",
                short(written),
                self.root.display()
            ),
        )
    }

    /// The error for a path that leads outside the root.
    fn outside(&self, written: &str, link: Option<&str>) -> ToolError {
        let through = match link {
            Some(link) => format!(" through the symlink {link}"),
            None => String::new(),
        };
        ToolError::new(
            ErrorKind::PathOutsideWorkspace,
            format!(
                "{written} leads outside the workspace root {}{through}; paths must stay inside the workspace root",
                self.root.display()
            ),
        )
    }
}

/// One pending step of the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// Restart at `/` (an absolute path or absolute symlink target).
    Root,
    /// `..`.
    Up,
    /// A plain name.
    Name(OsString),
    /// The end of a symlink target's steps (for messages only).
    EndOfLink,
}

/// Where a walk ended.
enum Reached {
    /// Everything exists; `target` is canonical.
    Existing { target: PathBuf, is_dir: bool },
    /// `parent` (canonical, inside the root) exists but the first step of
    /// `tail` does not.
    Missing { parent: PathBuf, tail: Vec<Step> },
}

/// Where a canonical directory sits relative to the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The root or below it.
    Inside,
    /// A strict ancestor of the root (`/`, `/w` for root `/w/proj`).
    Ancestor,
    /// Anywhere else.
    Outside,
}

/// State of one resolution.
struct Walk<'a> {
    ws: &'a Workspace,
    written: &'a str,
    /// Canonical directory reached so far (inside the root or an ancestor).
    current: PathBuf,
    /// Steps still to take, the next one last.
    pending: Vec<Step>,
    /// Symlinks followed so far.
    hops: usize,
    /// Symlinks whose targets are being walked, innermost last, relative to
    /// the root (for messages).
    open_links: Vec<String>,
    /// The symlink whose target left the walk outside the root, if the walk
    /// is outside because of one (for messages).
    escaped_via: Option<String>,
    /// Names resolved to their Unicode twin: (as written, as on disk).
    twins: Vec<(String, String)>,
}

impl Walk<'_> {
    /// The symlink to name when the walk ends up outside the root.
    fn blame(&self) -> Option<&str> {
        self.open_links
            .last()
            .or(self.escaped_via.as_ref())
            .map(String::as_str)
    }

    /// Schedules `path`'s components before everything already pending.
    fn push_front(&mut self, path: &Path) {
        let steps: Vec<Step> = path
            .components()
            .filter_map(|component| match component {
                Component::RootDir | Component::Prefix(_) => Some(Step::Root),
                Component::CurDir => None,
                Component::ParentDir => Some(Step::Up),
                Component::Normal(name) => Some(Step::Name(name.to_os_string())),
            })
            .collect();
        self.pending.extend(steps.into_iter().rev());
    }

    fn place(&self, path: &Path) -> Place {
        if path.starts_with(&self.ws.root) {
            Place::Inside
        } else if self.ws.root.starts_with(path) {
            Place::Ancestor
        } else {
            Place::Outside
        }
    }

    fn run(&mut self) -> ToolResult<Reached> {
        let mut is_dir = true;
        while let Some(step) = self.pending.pop() {
            match step {
                Step::Root => {
                    self.current = PathBuf::from("/");
                    is_dir = true;
                }
                Step::EndOfLink => {
                    let link = self.open_links.pop();
                    self.escaped_via = match self.place(&self.current) {
                        Place::Inside => None,
                        Place::Ancestor | Place::Outside => link,
                    };
                }
                Step::Up => {
                    // `current` is canonical, so its lexical parent is its
                    // physical parent; `/..` stays `/`.
                    self.current.pop();
                    is_dir = true;
                }
                Step::Name(name) => {
                    let next = self.current.join(&name);
                    match self.place(&next) {
                        Place::Outside => {
                            return Err(self.ws.outside(self.written, self.blame()));
                        }
                        // On the root's own canonical path: a real directory.
                        Place::Ancestor => {
                            self.current = next;
                            is_dir = true;
                        }
                        Place::Inside => match self.visit(name, next)? {
                            Visited::Directory => is_dir = true,
                            Visited::Other => is_dir = false,
                            Visited::Link => {}
                            Visited::Missing(tail) => {
                                return Ok(Reached::Missing {
                                    parent: self.current.clone(),
                                    tail,
                                });
                            }
                        },
                    }
                }
            }
        }
        Ok(Reached::Existing {
            target: self.current.clone(),
            is_dir,
        })
    }

    /// Examines `next` (= `current/name`, inside the root).
    fn visit(&mut self, name: OsString, next: PathBuf) -> ToolResult<Visited> {
        let metadata = match std::fs::symlink_metadata(&next) {
            Ok(metadata) => metadata,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                if let Some(twin) = unicode::twin(&self.current, &name) {
                    self.twins.push((lossy(&name), lossy(&twin)));
                    let next = self.current.join(&twin);
                    return self.visit(twin, next);
                }
                let mut tail = vec![Step::Name(name)];
                tail.extend(self.pending.drain(..).rev());
                return Ok(Visited::Missing(tail));
            }
            // The absolute path grew past PATH_MAX (the walk uses absolute
            // paths): the same clear error as for a path to create.
            Err(error) if error.raw_os_error() == Some(enametoolong()) => {
                return Err(self.ws.path_too_long(self.written, next.as_os_str().len()));
            }
            Err(error) => return Err(ToolError::io("resolve", self.written, &error)),
        };
        let file_type = metadata.file_type();
        if file_type.is_symlink() {
            self.hops += 1;
            let shown = self.relative(&next);
            if self.hops > MAX_SYMLINK_HOPS {
                return Err(ToolError::new(
                    ErrorKind::InvalidArguments,
                    format!(
                        "{} cannot be resolved: it passes through more than {MAX_SYMLINK_HOPS} symlinks, which means a symlink loop (last one: {shown}); fix or remove the link",
                        self.written
                    ),
                ));
            }
            let link_target = std::fs::read_link(&next)
                .map_err(|error| ToolError::io("resolve", self.written, &error))?;
            if link_target.as_os_str().is_empty() {
                return Err(ToolError::new(
                    ErrorKind::NotFound,
                    format!(
                        "{} cannot be resolved: the symlink {shown} has an empty target; fix or remove the link",
                        self.written
                    ),
                ));
            }
            self.open_links.push(shown);
            self.pending.push(Step::EndOfLink);
            self.push_front(&link_target);
            return Ok(Visited::Link);
        }
        if file_type.is_dir() {
            self.current = next;
            return Ok(Visited::Directory);
        }
        let more = self
            .pending
            .iter()
            .any(|step| matches!(step, Step::Name(_) | Step::Up));
        if more {
            return Err(ToolError::new(
                ErrorKind::NotARegularFile,
                format!(
                    "{} cannot be resolved: {} is a file, not a directory",
                    self.written,
                    self.relative(&next)
                ),
            ));
        }
        self.current = next;
        Ok(Visited::Other)
    }

    /// `path` relative to the root for messages (`.` for the root), spelled
    /// by [`display_path`].
    fn relative(&self, path: &Path) -> String {
        let raw = match path.strip_prefix(&self.ws.root) {
            Ok(relative) => slash_join(relative),
            Err(_) => lossy(path.as_os_str()),
        };
        display_path(&raw).into_owned()
    }
}

/// The error for a path with a component longer than [`MAX_NAME_BYTES`].
fn name_too_long(written: &str, name: &OsStr) -> ToolError {
    ToolError::new(
        ErrorKind::InvalidArguments,
        format!(
            "{} has a name of {} bytes ({}), over the {MAX_NAME_BYTES}-byte limit of file systems; use a shorter name",
            short(written),
            name.len(),
            short(&name.to_string_lossy())
        ),
    )
}

/// `text` cut to its first 60 characters plus `…` when longer, so a
/// message about an overlong path stays readable.
fn short(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// `ENAMETOOLONG` as a raw OS error number.
fn enametoolong() -> i32 {
    rustix::io::Errno::NAMETOOLONG.raw_os_error()
}

/// What [`Walk::visit`] found.
enum Visited {
    Directory,
    Other,
    Link,
    Missing(Vec<Step>),
}

/// `path` without `.` components (and without a trailing slash); `..` is
/// kept. Lexical only: nothing is looked up.
fn lexical_clean(path: &Path) -> PathBuf {
    path.components()
        .filter(|component| *component != Component::CurDir)
        .collect()
}

/// `path` made absolute against the current directory and cleaned
/// lexically, or `None` when it contains `..` (then only the canonical form
/// is trustworthy) or the current directory is unknown.
fn lexical_absolute(path: &Path) -> Option<PathBuf> {
    if path.components().any(|c| c == Component::ParentDir) {
        return None;
    }
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    Some(lexical_clean(&absolute))
}

/// Joins a relative path's components with `/`; `.` when it is empty.
fn slash_join(relative: &Path) -> String {
    let parts: Vec<String> = relative
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(lossy(name)),
            Component::ParentDir => Some("..".to_string()),
            Component::RootDir | Component::Prefix(_) | Component::CurDir => None,
        })
        .collect();
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// `name` as text, non-UTF-8 bytes carried exactly (module `bytes`).
fn lossy(name: &OsStr) -> String {
    os_to_raw(name).into_owned()
}

#[cfg(test)]
mod tests;
