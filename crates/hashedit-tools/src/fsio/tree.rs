//! Reading many files below one root in a row, as `grep` does after its
//! walk listed them: the confined open without its `lstat` (the listing
//! classified each name; 12 % of grep's CPU on 34,000 small files), with
//! the descriptors and the buffer kept between files.

use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::open::{Refused, Special, open_dir_below, open_listed, open_root, read_into};

/// Reads regular files below one directory, each reached from its
/// directory's descriptor without following a symlink, opened without
/// blocking and refused by `fstat` if not a regular file; the last
/// directory stays open for the next file in it.
#[derive(Debug)]
pub(crate) struct TreeReader {
    root: PathBuf,
    /// The root's descriptor, opened on the first read.
    root_fd: Option<OwnedFd>,
    /// The directory of the last file read, relative to the root, and its
    /// descriptor.
    dir: Option<(PathBuf, OwnedFd)>,
}

/// Why [`TreeReader::read`] read nothing.
#[derive(Debug)]
pub(crate) enum Unread {
    /// The file holds more bytes than the limit.
    TooLarge,
    /// Not a regular file (seen before it was opened, or by `fstat` after
    /// a swap): nothing was read from it.
    NotRegular(Special),
    /// Anything else: the file vanished, is not below the root, cannot be
    /// reached without a symlink, or the OS refused (grep only counts
    /// these, so no message is built).
    Failed,
}

impl TreeReader {
    /// A reader for files below `root` (a canonical directory). Nothing is
    /// opened yet.
    pub(crate) fn new(root: &Path) -> TreeReader {
        TreeReader {
            root: root.to_path_buf(),
            root_fd: None,
            dir: None,
        }
    }

    /// Reads the file `path` (canonical, below the root), which a directory
    /// listing has just shown to be a regular file, into `buffer`: its
    /// bytes as `fstat` sized it, unless that is over `max_bytes`.
    pub(crate) fn read(
        &mut self,
        path: &Path,
        max_bytes: u64,
        buffer: &mut Vec<u8>,
    ) -> Result<(), Unread> {
        let (parent, name) = split(&self.root, path)?;
        let dir = self.dir_fd(parent)?;
        let (mut file, stat) = open_listed(dir, name).map_err(|refused| match refused {
            Refused::NotRegular(special) => Unread::NotRegular(special),
            Refused::Os(_) => Unread::Failed,
        })?;
        let size = u64::try_from(stat.st_size).unwrap_or(u64::MAX);
        if size > max_bytes {
            return Err(Unread::TooLarge);
        }
        // The file as `fstat` described it: one `read` call, and a file
        // growing meanwhile is read as it was.
        read_into(&mut file, size, size, buffer).map_err(|_| Unread::Failed)
    }

    /// The descriptor of `parent` (relative to the root; empty for the
    /// root), opened unless it is the one kept from the last read.
    fn dir_fd(&mut self, parent: &Path) -> Result<BorrowedFd<'_>, Unread> {
        let root_fd: &OwnedFd = match &mut self.root_fd {
            Some(fd) => fd,
            empty => empty.insert(open_root(&self.root, ".").map_err(|_| Unread::Failed)?),
        };
        if parent.as_os_str().is_empty() {
            return Ok(root_fd.as_fd());
        }
        // Byte-wise, like `split`: both come from canonical paths.
        let kept = matches!(&self.dir, Some((path, _)) if path.as_os_str() == parent.as_os_str());
        if !kept {
            let fd = open_dir_below(root_fd.as_fd(), parent, "").map_err(|_| Unread::Failed)?;
            self.dir = Some((parent.to_path_buf(), fd));
        }
        let (_, fd) = self.dir.as_ref().expect("kept or just opened");
        Ok(fd.as_fd())
    }
}

/// `path`'s directory relative to `root` (empty for a file in the root)
/// and its final name, or `Failed` unless `path` is `root`, a slash and
/// plain names. Byte-wise: this runs once per file searched.
fn split<'p>(root: &Path, path: &'p Path) -> Result<(&'p Path, &'p OsStr), Unread> {
    let root = root.as_os_str().as_bytes();
    let root = root.strip_suffix(b"/").unwrap_or(root);
    let relative = path
        .as_os_str()
        .as_bytes()
        .strip_prefix(root)
        .and_then(|rest| rest.strip_prefix(b"/"))
        .ok_or(Unread::Failed)?;
    let plain = |name: &[u8]| !name.is_empty() && name != b"." && name != b"..";
    if !relative.split(|&b| b == b'/').all(plain) {
        return Err(Unread::Failed);
    }
    let (parent, name) = match memchr::memrchr(b'/', relative) {
        Some(slash) => (&relative[..slash], &relative[slash + 1..]),
        None => (&relative[..0], relative),
    };
    Ok((
        Path::new(OsStr::from_bytes(parent)),
        OsStr::from_bytes(name),
    ))
}

#[cfg(test)]
mod tests;
