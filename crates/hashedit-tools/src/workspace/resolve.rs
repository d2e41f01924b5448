//! Resolution: a path walked one component at a time the way the kernel
//! does (symlinks followed, `..` applied to the directory reached so far),
//! to the canonical object the OS would open. A step into a directory that
//! is neither inside the root nor one of its ancestors fails with
//! [`ErrorKind::PathOutsideWorkspace`] before anything there is examined,
//! so the error never reveals whether an outside path exists.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Component, Path, PathBuf};

use super::{
    MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_SYMLINK_HOPS, Resolve, ResolvedPath, Workspace,
    display_path, os_to_raw, raw_to_os, unicode,
};
use crate::error::{ErrorKind, Hint, ToolError, ToolResult};

impl Workspace {
    /// [`Workspace::resolve`] for one reading of the caller's path.
    pub(super) fn resolve_spelled(&self, path: &str, mode: Resolve) -> ToolResult<ResolvedPath> {
        check_spelling(path)?;
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
            Reached::Existing { target, is_dir } => (
                self.existing_target(path, trailing_slash, &walk, target, is_dir)?,
                true,
            ),
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

    /// The target of `path` the walk reached: refused outside the root, and
    /// when a trailing `/` names a file.
    fn existing_target(
        &self,
        path: &str,
        trailing_slash: bool,
        walk: &Walk,
        target: PathBuf,
        is_dir: bool,
    ) -> ToolResult<PathBuf> {
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
        Ok(target)
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

    /// For an absolute `written` path under the root's alias (`/tmp/w` when
    /// `/tmp` is a symlink), the rest of the path relative to the root.
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

/// Refuses an empty path and one holding a NUL byte.
fn check_spelling(path: &str) -> ToolResult<()> {
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
    Ok(())
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
pub(super) fn lexical_absolute(path: &Path) -> Option<PathBuf> {
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
