//! Reading and writing the clients' files: UTF-8 text only, each write
//! one atomic rename, through symlinks, keeping permissions.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::SetupError;

/// The text of the file at `path`; `None` when there is none.
pub(crate) fn read(path: &Path) -> Result<Option<String>, SetupError> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| merge_error(path, "is not UTF-8 text".into())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(_) if path.is_dir() => Err(merge_error(path, "is a directory, not a file".into())),
        Err(e) => Err(io_error(path, e)),
    }
}

/// Replaces the file at `path` (its symlink's target, when it is one) with
/// `text` in one rename, creating missing directories, keeping the old
/// file's permissions.
pub(crate) fn write(path: &Path, text: &str, new: NewFile) -> Result<(), SetupError> {
    let path = resolved(path);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".hashedit-setup-");
    #[cfg(unix)]
    if new == NewFile::Shared {
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(dir).map_err(|e| io_error(dir, e))?;
    temp.write_all(text.as_bytes())
        .map_err(|e| io_error(&path, e))?;
    if let Ok(meta) = std::fs::metadata(&path) {
        temp.as_file()
            .set_permissions(meta.permissions())
            .map_err(|e| io_error(&path, e))?;
    }
    temp.persist(&path).map_err(|e| io_error(&path, e.error))?;
    Ok(())
}

/// The file a write or a delete of `path` changes: where its symlinks
/// lead, even when the last one dangles (a link into a dotfiles checkout
/// whose file does not exist yet), so the link itself stays.
pub(crate) fn resolved(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    // As many links as Linux follows in one lookup.
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    path
}

/// The mode of a file `write` creates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum NewFile {
    /// What any new file gets: 0666 less the umask.
    Shared,
    /// 0600: the user's only.
    Private,
}

/// The directories above `path` that do not exist, innermost first.
pub(crate) fn missing_dirs(path: &Path) -> Vec<PathBuf> {
    path.ancestors()
        .skip(1)
        .take_while(|dir| !dir.as_os_str().is_empty() && !dir.exists())
        .map(Path::to_path_buf)
        .collect()
}

pub(crate) fn merge_error(path: &Path, why: String) -> SetupError {
    SetupError::Merge {
        path: path.to_path_buf(),
        why,
    }
}

pub(crate) fn io_error(path: &Path, source: std::io::Error) -> SetupError {
    SetupError::Io {
        path: path.to_path_buf(),
        source,
    }
}
