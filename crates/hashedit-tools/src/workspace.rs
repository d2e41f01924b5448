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

use crate::error::{ErrorKind, ToolError, ToolResult};

mod quote;

pub use quote::{display_path, parse_quoted, raw_path};

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
}

impl Workspace {
    /// Opens a workspace rooted at `root`, which is canonicalised.
    ///
    /// Defaults: output budget
    /// [`hashedit_core::truncate::DEFAULT_MAX_OUTPUT_BYTES`] (64,000 bytes), tag
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
            max_output_bytes: hashedit_core::truncate::DEFAULT_MAX_OUTPUT_BYTES,
            tag_scheme: TagScheme::default(),
        })
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
        let written = Path::new(path);
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
                if mode == Resolve::Existing {
                    let hint = match walk.open_links.last() {
                        Some(link) => {
                            format!(" (the symlink {link} points to a path that does not exist)")
                        }
                        None => String::new(),
                    };
                    return Err(ToolError::new(
                        ErrorKind::NotFound,
                        format!(
                            "{path} does not exist{hint}; check the path with glob or list_dir"
                        ),
                    ));
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
                        format!(
                            "{path} ends with '/', so it names a directory; give the path of a file"
                        ),
                    ));
                }
                if !target.starts_with(&self.root) {
                    return Err(self.outside(path, walk.blame()));
                }
                (target, false)
            }
        };

        if target.as_os_str().len() > MAX_PATH_BYTES {
            return Err(self.path_too_long(path, target.as_os_str().len()));
        }
        let display = self.display_for(written, &target);
        Ok(ResolvedPath {
            display,
            target,
            exists,
        })
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
            Err(_) => target.to_string_lossy().into_owned(),
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
            Err(_) => path.to_string_lossy().into_owned(),
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

fn lossy(name: &OsStr) -> String {
    name.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;
    use tempfile::TempDir;

    /// `<tmp>/proj` (the workspace) and `<tmp>/proj-evil` (a prefix
    /// sibling, with `x` in it).
    struct Fixture {
        _dir: TempDir,
        base: PathBuf,
        ws: Workspace,
    }

    fn fixture() -> Fixture {
        let dir = TempDir::new().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(base.join("proj")).unwrap();
        std::fs::create_dir(base.join("proj-evil")).unwrap();
        std::fs::write(base.join("proj-evil/x"), "secret\n").unwrap();
        std::fs::write(base.join("proj/a.txt"), "a\n").unwrap();
        std::fs::create_dir(base.join("proj/sub")).unwrap();
        std::fs::write(base.join("proj/sub/b.txt"), "b\n").unwrap();
        let ws = Workspace::new(base.join("proj")).unwrap();
        Fixture {
            _dir: dir,
            base,
            ws,
        }
    }

    fn kind(result: ToolResult<ResolvedPath>) -> ErrorKind {
        result.unwrap_err().kind
    }

    #[test]
    fn new_canonicalises_and_sets_defaults() {
        let f = fixture();
        assert_eq!(f.ws.root(), f.base.join("proj"));
        assert_eq!(f.ws.max_output_bytes(), 64_000);
        assert_eq!(f.ws.tag_scheme(), TagScheme::Rho);
        let ws = Workspace::new(f.base.join("proj/sub/..")).unwrap();
        assert_eq!(ws.root(), f.base.join("proj"));
        let ws = ws.with_max_output_bytes(0).with_tag_scheme(TagScheme::Omp);
        assert_eq!(ws.max_output_bytes(), 1);
        assert_eq!(ws.tag_scheme(), TagScheme::Omp);
    }

    #[test]
    fn new_refuses_missing_file_and_empty_roots() {
        let f = fixture();
        let missing = Workspace::new(f.base.join("nope")).unwrap_err();
        assert_eq!(missing.kind, ErrorKind::NotFound);
        assert!(
            missing.message.contains("does not exist"),
            "{}",
            missing.message
        );
        let file = Workspace::new(f.base.join("proj/a.txt")).unwrap_err();
        assert_eq!(file.kind, ErrorKind::NotARegularFile);
        assert_eq!(
            Workspace::new("").unwrap_err().kind,
            ErrorKind::InvalidArguments
        );
    }

    #[test]
    fn relative_and_dotted_paths() {
        let f = fixture();
        let root = f.ws.root().to_path_buf();
        for (written, display, target) in [
            ("a.txt", "a.txt", "a.txt"),
            ("./a.txt", "a.txt", "a.txt"),
            ("sub/./b.txt", "sub/b.txt", "sub/b.txt"),
            ("sub//b.txt", "sub/b.txt", "sub/b.txt"),
            ("sub/", "sub", "sub"),
        ] {
            let resolved = f.ws.resolve(written, Resolve::Existing).unwrap();
            assert_eq!(resolved.display, display, "{written}");
            assert_eq!(resolved.target, root.join(target), "{written}");
            assert!(resolved.exists);
        }
        for written in [".", "./", "sub/.."] {
            let resolved = f.ws.resolve(written, Resolve::Existing).unwrap();
            assert_eq!(resolved.display, ".", "{written}");
            assert_eq!(resolved.target, root, "{written}");
        }
    }

    #[test]
    fn empty_and_nul_paths_are_invalid() {
        let f = fixture();
        assert_eq!(
            kind(f.ws.resolve("", Resolve::Existing)),
            ErrorKind::InvalidArguments
        );
        assert_eq!(
            kind(f.ws.resolve("a\0b", Resolve::MayCreate)),
            ErrorKind::InvalidArguments
        );
    }

    #[test]
    fn absolute_paths_inside_display_relative() {
        let f = fixture();
        let absolute = f.ws.root().join("sub/b.txt");
        let resolved =
            f.ws.resolve(absolute.to_str().unwrap(), Resolve::Existing)
                .unwrap();
        assert_eq!(resolved.display, "sub/b.txt");
        assert_eq!(resolved.target, absolute);
        let root = f.ws.root().to_str().unwrap().to_string();
        assert_eq!(f.ws.resolve(&root, Resolve::Existing).unwrap().display, ".");
        let dotted = format!("{root}/./a.txt");
        assert_eq!(
            f.ws.resolve(&dotted, Resolve::Existing).unwrap().display,
            "a.txt"
        );
    }

    #[test]
    fn absolute_paths_through_an_alias_of_the_root_display_relative() {
        let f = fixture();
        symlink(f.base.join("proj"), f.base.join("alias")).unwrap();
        let ws = Workspace::new(f.base.join("alias")).unwrap();
        assert_eq!(ws.root(), f.base.join("proj"));
        let written = f.base.join("alias/sub/b.txt");
        let resolved = ws
            .resolve(written.to_str().unwrap(), Resolve::Existing)
            .unwrap();
        assert_eq!(resolved.display, "sub/b.txt");
        assert_eq!(resolved.target, f.base.join("proj/sub/b.txt"));
    }

    #[test]
    fn absolute_paths_outside_are_refused() {
        let f = fixture();
        let error =
            f.ws.resolve("/etc/hostname", Resolve::Existing)
                .unwrap_err();
        assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace);
        assert_eq!(
            error.message,
            format!(
                "/etc/hostname leads outside the workspace root {}; paths must stay inside the workspace root",
                f.ws.root().display()
            )
        );
        let sibling = f.base.join("proj-evil/x");
        assert_eq!(
            kind(f.ws.resolve(sibling.to_str().unwrap(), Resolve::Existing)),
            ErrorKind::PathOutsideWorkspace
        );
        assert_eq!(
            kind(f.ws.resolve("/", Resolve::Existing)),
            ErrorKind::PathOutsideWorkspace
        );
    }

    #[test]
    fn parent_traversal_escapes_are_refused_without_probing() {
        let f = fixture();
        for written in [
            "..",
            "../proj-evil/x",
            "../proj-evil/missing",
            "sub/../../proj-evil/x",
            "../../x",
        ] {
            for mode in [Resolve::Existing, Resolve::MayCreate] {
                let error = f.ws.resolve(written, mode).unwrap_err();
                assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace, "{written}");
                assert!(error.message.starts_with(written), "{}", error.message);
            }
        }
    }

    #[test]
    fn parent_traversal_that_stays_inside_displays_canonically() {
        let f = fixture();
        let resolved = f.ws.resolve("sub/../a.txt", Resolve::Existing).unwrap();
        assert_eq!(resolved.display, "a.txt");
        assert_eq!(resolved.target, f.ws.root().join("a.txt"));
        let resolved =
            f.ws.resolve("../proj/sub/b.txt", Resolve::Existing)
                .unwrap();
        assert_eq!(resolved.display, "sub/b.txt");
        let resolved = f.ws.resolve("sub/../new.txt", Resolve::MayCreate).unwrap();
        assert_eq!(resolved.display, "new.txt");
        assert!(!resolved.exists);
    }

    #[test]
    fn parent_after_a_missing_component_is_invalid() {
        let f = fixture();
        let error =
            f.ws.resolve("nope/../a.txt", Resolve::MayCreate)
                .unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments);
        assert!(error.message.contains("'..'"), "{}", error.message);
        assert_eq!(
            kind(f.ws.resolve("nope/../a.txt", Resolve::Existing)),
            ErrorKind::NotFound
        );
    }

    #[test]
    fn missing_paths() {
        let f = fixture();
        let error =
            f.ws.resolve("sub/missing.txt", Resolve::Existing)
                .unwrap_err();
        assert_eq!(error.kind, ErrorKind::NotFound);
        assert_eq!(
            error.message,
            "sub/missing.txt does not exist; check the path with glob or list_dir"
        );
        let resolved =
            f.ws.resolve("new/deeper/c.txt", Resolve::MayCreate)
                .unwrap();
        assert_eq!(resolved.display, "new/deeper/c.txt");
        assert_eq!(resolved.target, f.ws.root().join("new/deeper/c.txt"));
        assert!(!resolved.exists);
        let existing = f.ws.resolve("a.txt", Resolve::MayCreate).unwrap();
        assert!(existing.exists);
        assert_eq!(
            kind(f.ws.resolve("newdir/", Resolve::MayCreate)),
            ErrorKind::InvalidArguments
        );
    }

    #[test]
    fn a_file_used_as_a_directory_is_refused() {
        let f = fixture();
        assert_eq!(
            kind(f.ws.resolve("a.txt/x", Resolve::MayCreate)),
            ErrorKind::NotARegularFile
        );
        assert_eq!(
            kind(f.ws.resolve("a.txt/..", Resolve::Existing)),
            ErrorKind::NotARegularFile
        );
        assert_eq!(
            kind(f.ws.resolve("a.txt/", Resolve::Existing)),
            ErrorKind::NotARegularFile
        );
    }

    #[test]
    fn symlinked_file_inside_keeps_its_display_name() {
        // Handed case B17: `[link.txt#T]`, writes go to real.txt.
        let f = fixture();
        let root = f.ws.root().to_path_buf();
        std::fs::write(root.join("real.txt"), "x\n").unwrap();
        symlink("real.txt", root.join("link.txt")).unwrap();
        let resolved = f.ws.resolve("link.txt", Resolve::Existing).unwrap();
        assert_eq!(resolved.display, "link.txt");
        assert_eq!(resolved.target, root.join("real.txt"));
        symlink("sub", root.join("sublink")).unwrap();
        let resolved = f.ws.resolve("./sublink/b.txt", Resolve::Existing).unwrap();
        assert_eq!(resolved.display, "sublink/b.txt");
        assert_eq!(resolved.target, root.join("sub/b.txt"));
        // `..` applies after following the link, as the OS does.
        symlink("sub/b.txt", root.join("deep")).unwrap();
        symlink(root.join("sub"), root.join("abs-sub")).unwrap();
        let resolved = f.ws.resolve("abs-sub/../a.txt", Resolve::Existing).unwrap();
        assert_eq!(resolved.target, root.join("a.txt"));
        assert_eq!(resolved.display, "a.txt");
    }

    #[test]
    fn symlinks_to_outside_are_refused() {
        // Handed case B19.
        let f = fixture();
        let root = f.ws.root().to_path_buf();
        symlink("/etc/hostname", root.join("leak")).unwrap();
        symlink(f.base.join("proj-evil/x"), root.join("leak2")).unwrap();
        symlink("../proj-evil", root.join("out")).unwrap();
        symlink("/tmp", root.join("tmpdir")).unwrap();
        for (written, mode) in [
            ("leak", Resolve::Existing),
            ("leak2", Resolve::MayCreate),
            ("out/x", Resolve::Existing),
            ("out/new.txt", Resolve::MayCreate),
            ("tmpdir/new.txt", Resolve::MayCreate),
            ("tmpdir", Resolve::Existing),
        ] {
            let error = f.ws.resolve(written, mode).unwrap_err();
            assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace, "{written}");
            assert!(
                error.message.contains("through the symlink"),
                "{}",
                error.message
            );
        }
    }

    #[test]
    fn dangling_links() {
        let f = fixture();
        let root = f.ws.root().to_path_buf();
        symlink("sub/made.txt", root.join("dangling")).unwrap();
        let resolved = f.ws.resolve("dangling", Resolve::MayCreate).unwrap();
        assert_eq!(resolved.target, root.join("sub/made.txt"));
        assert_eq!(resolved.display, "dangling");
        assert!(!resolved.exists);
        let error = f.ws.resolve("dangling", Resolve::Existing).unwrap_err();
        assert_eq!(error.kind, ErrorKind::NotFound);
        assert!(
            error.message.contains("symlink dangling"),
            "{}",
            error.message
        );
        symlink("../proj-evil/new", root.join("dangling-out")).unwrap();
        assert_eq!(
            kind(f.ws.resolve("dangling-out", Resolve::MayCreate)),
            ErrorKind::PathOutsideWorkspace
        );
        symlink("", root.join("empty")).unwrap_or(());
        if std::fs::symlink_metadata(root.join("empty")).is_ok() {
            assert_eq!(
                kind(f.ws.resolve("empty", Resolve::MayCreate)),
                ErrorKind::NotFound
            );
        }
    }

    #[test]
    fn symlink_loops_are_invalid_arguments() {
        let f = fixture();
        let root = f.ws.root().to_path_buf();
        symlink("loop-b", root.join("loop-a")).unwrap();
        symlink("loop-a", root.join("loop-b")).unwrap();
        symlink("self", root.join("self")).unwrap();
        for written in ["loop-a", "self", "self/x"] {
            for mode in [Resolve::Existing, Resolve::MayCreate] {
                let error = f.ws.resolve(written, mode).unwrap_err();
                assert_eq!(error.kind, ErrorKind::InvalidArguments, "{written}");
                assert!(error.message.contains("symlink loop"), "{}", error.message);
            }
        }
    }

    #[test]
    fn non_utf8_names_resolve_exactly_and_display_lossily() {
        use std::os::unix::ffi::OsStrExt;
        let f = fixture();
        let root = f.ws.root().to_path_buf();
        let name = OsStr::from_bytes(b"caf\xe9.txt");
        if std::fs::write(root.join(name), "x").is_err() {
            return; // the file system refuses non-UTF-8 names
        }
        symlink(name, root.join("to-cafe")).unwrap();
        std::fs::create_dir(root.join("d")).unwrap();
        let resolved = f.ws.resolve("d/../to-cafe", Resolve::Existing).unwrap();
        assert_eq!(resolved.target, root.join(name));
        assert_eq!(resolved.display, "caf\u{FFFD}.txt");
    }

    #[test]
    fn quoted_spellings_resolve_to_the_unescaped_name() {
        let f = fixture();
        let root = f.ws.root().to_path_buf();
        std::fs::write(root.join("tab\tx.txt"), "t\n").unwrap();
        std::fs::write(root.join("sub/new\nline.txt"), "n\n").unwrap();
        for (written, target, display) in [
            ("tab\tx.txt", "tab\tx.txt", r#""tab\tx.txt""#),
            (r#""tab\tx.txt""#, "tab\tx.txt", r#""tab\tx.txt""#),
            (r#""tab\u{9}x.txt""#, "tab\tx.txt", r#""tab\tx.txt""#),
            (
                r#""sub/new\nline.txt""#,
                "sub/new\nline.txt",
                r#""sub/new\nline.txt""#,
            ),
            (
                r#"sub/"new\nline.txt""#,
                "sub/new\nline.txt",
                r#""sub/new\nline.txt""#,
            ),
            (r#""sub"/"b\u{2e}txt""#, "sub/b.txt", "sub/b.txt"),
            (r#""a.txt""#, "a.txt", "a.txt"),
        ] {
            let resolved = f.ws.resolve(written, Resolve::Existing).unwrap();
            assert_eq!(resolved.target, root.join(target), "{written}");
            assert_eq!(resolved.display, display, "{written}");
            assert_eq!(raw_path(&resolved.display), target, "{written}");
        }
        // Paths to create: the unescaped name.
        let resolved =
            f.ws.resolve(r#""made\there.txt""#, Resolve::MayCreate)
                .unwrap();
        assert_eq!(resolved.target, root.join("made\there.txt"));
        assert_eq!(resolved.display, r#""made\there.txt""#);
        assert!(!resolved.exists);
    }

    #[test]
    fn a_literal_quoted_name_is_used_only_when_the_unescaped_one_is_missing() {
        let f = fixture();
        let root = f.ws.root().to_path_buf();
        std::fs::write(root.join("\"q\""), "literal\n").unwrap();
        let resolved = f.ws.resolve("\"q\"", Resolve::Existing).unwrap();
        assert_eq!(resolved.target, root.join("\"q\""));
        assert_eq!(resolved.display, r#""\"q\"""#);
        // With Resolve::MayCreate too: the existing literal file wins over
        // creating `q`.
        let resolved = f.ws.resolve("\"q\"", Resolve::MayCreate).unwrap();
        assert_eq!(resolved.target, root.join("\"q\""));
        std::fs::write(root.join("q"), "plain\n").unwrap();
        assert_eq!(
            f.ws.resolve("\"q\"", Resolve::Existing).unwrap().target,
            root.join("q")
        );
        // The display spelling always names the literal file.
        let resolved = f.ws.resolve(r#""\"q\"""#, Resolve::Existing).unwrap();
        assert_eq!(resolved.target, root.join("\"q\""));
        // An unknown escape makes the spelling literal.
        std::fs::write(root.join(r#""a\qb""#), "x").unwrap();
        let resolved = f.ws.resolve(r#""a\qb""#, Resolve::Existing).unwrap();
        assert_eq!(resolved.target, root.join(r#""a\qb""#));
        // Errors other than a missing path are not retried literally.
        assert_eq!(
            kind(f.ws.resolve(r#""../proj-evil/x""#, Resolve::Existing)),
            ErrorKind::PathOutsideWorkspace
        );
        assert_eq!(
            kind(f.ws.resolve(r#""a\0b""#, Resolve::Existing)),
            ErrorKind::InvalidArguments
        );
    }

    #[test]
    fn messages_spell_paths_on_one_line() {
        let f = fixture();
        let root = f.ws.root().to_path_buf();
        for written in ["no\nsuch.txt", r#""no\nsuch.txt""#] {
            let error = f.ws.resolve(written, Resolve::Existing).unwrap_err();
            assert_eq!(error.kind, ErrorKind::NotFound);
            assert_eq!(
                error.message,
                r#""no\nsuch.txt" does not exist; check the path with glob or list_dir"#
            );
        }
        symlink("/etc/hostname", root.join("le\nak")).unwrap();
        let error = f.ws.resolve("le\nak", Resolve::Existing).unwrap_err();
        assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace);
        assert!(!error.message.contains('\n'), "{}", error.message);
        assert!(
            error.message.ends_with(
                r#"through the symlink "le\nak"; paths must stay inside the workspace root"#
            ),
            "{}",
            error.message
        );
    }

    #[test]
    fn the_root_itself_is_allowed() {
        let f = fixture();
        let resolved = f.ws.resolve(".", Resolve::Existing).unwrap();
        assert_eq!(resolved.target, f.ws.root());
        assert!(resolved.exists);
    }

    #[test]
    fn overlong_names_and_paths_are_refused_clearly() {
        // Issue 5: a 256-byte name failed as a bare OS error (kind io), and
        // write created paths over PATH_MAX that read and edit could then
        // not resolve ("File name too long").
        let f = fixture();
        let name = "n".repeat(256);
        for mode in [Resolve::Existing, Resolve::MayCreate] {
            let error = f.ws.resolve(&format!("sub/{name}"), mode).unwrap_err();
            assert_eq!(error.kind, ErrorKind::InvalidArguments);
            assert_eq!(
                error.message,
                format!(
                    "sub/{}… has a name of 256 bytes ({}…), over the 255-byte limit of file systems; use a shorter name",
                    "n".repeat(56),
                    "n".repeat(60)
                )
            );
        }
        assert!(f.ws.resolve(&"n".repeat(255), Resolve::MayCreate).is_ok());
        // Deeper than PATH_MAX, to create.
        let segment = "d".repeat(100);
        let deep = vec![segment.as_str(); 41].join("/") + "/f.txt";
        let error = f.ws.resolve(&deep, Resolve::MayCreate).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments);
        assert!(
            error.message.contains(&format!(
                "bytes long as an absolute path (the workspace root {} included), over the {MAX_PATH_BYTES}-byte limit of the system; use a shorter path",
                f.ws.root().display()
            )),
            "{}",
            error.message
        );
        // And existing: made by descriptor, as another program could.
        let mut dir = rustix::fs::openat(
            rustix::fs::CWD,
            f.ws.root(),
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
        for _ in 0..41 {
            rustix::fs::mkdirat(
                &dir,
                segment.as_str(),
                rustix::fs::Mode::from_raw_mode(0o755),
            )
            .unwrap();
            dir = rustix::fs::openat(
                &dir,
                segment.as_str(),
                rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY,
                rustix::fs::Mode::empty(),
            )
            .unwrap();
        }
        let error = f.ws.resolve(&deep, Resolve::Existing).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments, "{}", error.message);
        assert!(error.message.contains("over the"), "{}", error.message);
        // A path just within the limit still resolves.
        let room = MAX_PATH_BYTES - f.ws.root().as_os_str().len() - 1;
        let fits: String = "x".repeat(room.min(255));
        assert!(f.ws.resolve(&fits, Resolve::MayCreate).is_ok());
    }
}
