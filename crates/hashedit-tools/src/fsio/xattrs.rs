//! Extended attributes carried over to a replacement inode: ACLs, SELinux
//! labels, `user.*` data would be lost by the rename. One that cannot be
//! copied is named in a warning, and the edit goes on (FORMAT.md §6.4).

use std::fs::File;

use xattr::FileExt;

use super::CommitWarning;

/// Copies every extended attribute of `from` onto `to`. Returns the
/// warning naming `display` and the attributes that could not be copied
/// (none when every one was, or when the file system has none).
pub(super) fn copy_xattrs(from: &File, to: &File, display: &str) -> Option<CommitWarning> {
    if !xattr::SUPPORTED_PLATFORM {
        return None;
    }
    let Ok(names) = from.list_xattr() else {
        // The file system does not support extended attributes: none to
        // lose.
        return None;
    };
    let failed: Vec<String> = names
        .filter(|name| !copy_one(from, to, name))
        .map(|name| name.to_string_lossy().into_owned())
        .collect();
    (!failed.is_empty()).then(|| CommitWarning::XattrsNotCopied {
        display: display.to_string(),
        names: failed,
    })
}

/// Copies the attribute `name`; false when it could not be read or set.
fn copy_one(from: &File, to: &File, name: &std::ffi::OsStr) -> bool {
    if fault!(SetXattr, &name.to_string_lossy()).is_err() {
        return false;
    }
    match from.get_xattr(name) {
        Ok(Some(value)) => to.set_xattr(name, &value).is_ok(),
        // Removed since it was listed: nothing to copy.
        Ok(None) => true,
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests;
