use super::*;
use crate::fsio::test_support::{empty_workspace, resolve};
use std::io::Write;
use std::os::unix::fs::{PermissionsExt, symlink};
use tempfile::TempDir;

#[test]
fn opens_regular_files_and_reads_them() {
    let (_dir, ws) = empty_workspace();
    std::fs::create_dir(ws.root().join("sub")).unwrap();
    std::fs::write(ws.root().join("sub/a.txt"), b"hello\n").unwrap();
    let mut file = open_regular(&ws, &resolve(&ws, "sub/a.txt")).unwrap();
    assert_eq!(read_bounded(&mut file, "sub/a.txt", 6).unwrap(), b"hello\n");
    // A second read starts again from the beginning.
    assert_eq!(
        read_bounded(&mut file, "sub/a.txt", 100).unwrap(),
        b"hello\n"
    );
    std::fs::write(ws.root().join("top.txt"), b"").unwrap();
    let mut file = open_regular(&ws, &resolve(&ws, "top.txt")).unwrap();
    assert_eq!(read_bounded(&mut file, "top.txt", 0).unwrap(), b"");
}

#[test]
fn read_bounded_refuses_large_files_with_exact_message() {
    let (_dir, ws) = empty_workspace();
    std::fs::write(ws.root().join("big.log"), vec![b'x'; 2000]).unwrap();
    let mut file = open_regular(&ws, &resolve(&ws, "big.log")).unwrap();
    let error = read_bounded(&mut file, "big.log", 1000).unwrap_err();
    assert_eq!(error.kind, ErrorKind::TooLarge);
    assert_eq!(
        error.message,
        "big.log is 2000 bytes, over the limit of 1000 bytes for this operation; it cannot be loaded whole"
    );
    assert_eq!(
        read_bounded(&mut file, "big.log", 2000).unwrap().len(),
        2000
    );
}

#[test]
fn read_bounded_stops_when_the_file_grows() {
    // procfs reports size 0 for files with content: the size check
    // passes and the bounded read must catch the overflow.
    let mut file = match File::open("/proc/self/status") {
        Ok(file) => file,
        Err(e) => {
            return hashedit_skip::skip(
                "read_bounded_stops_when_the_file_grows",
                "a file that grows while read",
                &format!("no /proc/self/status here ({e})"),
            );
        }
    };
    let error = read_bounded(&mut file, "status", 5).unwrap_err();
    assert_eq!(error.kind, ErrorKind::TooLarge);
    assert_eq!(
        error.message,
        "status is more than 5 bytes (it grew while being read), over the limit of 5 bytes for this operation; it cannot be loaded whole"
    );
}

#[test]
fn read_bounded_checks_the_size_first() {
    let (_dir, ws) = empty_workspace();
    let path = ws.root().join("grow.log");
    std::fs::write(&path, b"12345").unwrap();
    let mut file = open_regular(&ws, &resolve(&ws, "grow.log")).unwrap();
    let mut writer = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    writer.write_all(&[b'y'; 10]).unwrap();
    let error = read_bounded(&mut file, "grow.log", 5).unwrap_err();
    assert_eq!(error.kind, ErrorKind::TooLarge);
    assert!(
        error.message.starts_with("grow.log is 15 bytes"),
        "{}",
        error.message
    );
}

#[test]
fn directories_are_refused() {
    let (_dir, ws) = empty_workspace();
    std::fs::create_dir(ws.root().join("src")).unwrap();
    let error = open_regular(&ws, &resolve(&ws, "src")).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotARegularFile);
    assert_eq!(
        error.message,
        "src is a directory; use list_dir to see its entries"
    );
    let error = open_regular(&ws, &resolve(&ws, ".")).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotARegularFile);
    assert_eq!(
        error.message,
        ". is a directory; use list_dir to see its entries"
    );
}

#[test]
#[cfg(not(target_vendor = "apple"))]
fn fifos_are_refused_without_blocking() {
    let (_dir, ws) = empty_workspace();
    let root = open_root(ws.root(), ".").unwrap();
    rustix::fs::mkfifoat(&root, "pipe", Mode::from_raw_mode(0o644)).unwrap();
    let error = open_regular(&ws, &resolve(&ws, "pipe")).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotARegularFile);
    assert_eq!(
        error.message,
        "pipe is a FIFO (named pipe), not a regular file; only regular files can be read or edited"
    );
    // Even past the lstat check (a FIFO swapped in after it), the
    // non-blocking open returns at once and fstat refuses it.
    let fd = rustix::fs::openat(
        &root,
        "pipe",
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .unwrap();
    let stat = rustix::fs::fstat(&fd).unwrap();
    assert_eq!(Special::of_mode(stat.st_mode as _), Some(Special::Fifo));
}

#[test]
fn sockets_are_refused() {
    let (_dir, ws) = empty_workspace();
    let _listener = std::os::unix::net::UnixListener::bind(ws.root().join("sock")).unwrap();
    let error = open_regular(&ws, &resolve(&ws, "sock")).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotARegularFile);
    assert_eq!(
        error.message,
        "sock is a socket, not a regular file; only regular files can be read or edited"
    );
}

#[test]
fn devices_are_refused() {
    let (_dir, ws) = empty_workspace();
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let root = open_root(ws.root(), ".").unwrap();
        let null = rustix::fs::makedev(1, 3);
        let made = rustix::fs::mknodat(
            &root,
            "null",
            FileType::CharacterDevice,
            Mode::from_raw_mode(0o666),
            null,
        );
        if made.is_ok() {
            let error = open_regular(&ws, &resolve(&ws, "null")).unwrap_err();
            assert_eq!(error.kind, ErrorKind::NotARegularFile);
            assert_eq!(
                error.message,
                "null is a character device, not a regular file; only regular files can be read or edited"
            );
        }
    }
    // The classification itself, for systems that cannot make nodes.
    let dev_null = std::fs::metadata("/dev/null").unwrap().file_type();
    let error = not_regular_file_error("null", dev_null).unwrap();
    assert_eq!(error.kind, ErrorKind::NotARegularFile);
    assert!(error.message.starts_with("null is a character device"));
    assert_eq!(Special::of_mode(0o060_644), Some(Special::BlockDevice));
    assert_eq!(Special::of_mode(0o100_644), None);
    let regular = std::fs::metadata(ws.root().join(".")).unwrap().file_type();
    assert!(not_regular_file_error(".", regular).is_some());
}

#[test]
fn a_symlink_swapped_in_after_resolution_is_a_conflict() {
    let (dir, ws) = empty_workspace();
    let outside = TempDir::new().unwrap();
    std::fs::write(outside.path().join("secret"), b"secret\n").unwrap();
    std::fs::create_dir(ws.root().join("sub")).unwrap();
    std::fs::write(ws.root().join("sub/a.txt"), b"a\n").unwrap();
    std::fs::write(ws.root().join("b.txt"), b"b\n").unwrap();
    let a = resolve(&ws, "sub/a.txt");
    let b = resolve(&ws, "b.txt");
    // Directory replaced by a symlink to outside.
    std::fs::rename(ws.root().join("sub"), dir.path().join("sub-moved")).unwrap();
    symlink(outside.path(), ws.root().join("sub")).unwrap();
    std::fs::write(outside.path().join("a.txt"), b"outside\n").unwrap();
    let error = open_regular(&ws, &a).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict, "{}", error.message);
    // The same through the portable walk.
    let root = open_root(ws.root(), "x").unwrap();
    let error = walk_dirs(root, Path::new("sub"), "sub/a.txt", false).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict);
    // File replaced by a symlink.
    std::fs::remove_file(ws.root().join("b.txt")).unwrap();
    symlink(outside.path().join("secret"), ws.root().join("b.txt")).unwrap();
    let error = open_regular(&ws, &b).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict);
}

#[test]
fn the_portable_walk_opens_and_creates_directories() {
    let (_dir, ws) = empty_workspace();
    std::fs::create_dir_all(ws.root().join("a/b")).unwrap();
    let root = open_root(ws.root(), "x").unwrap();
    let fd = walk_dirs(root, Path::new("a/b"), "a/b/x", false).unwrap();
    assert!(
        FileType::from_raw_mode(rustix::fs::fstat(&fd).unwrap().st_mode) == FileType::Directory
    );
    let root = open_root(ws.root(), "x").unwrap();
    let error = walk_dirs(root, Path::new("a/c"), "a/c/x", false).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotFound);
    let root = open_root(ws.root(), "x").unwrap();
    walk_dirs(root, Path::new("a/c/d"), "a/c/d/x", true).unwrap();
    assert!(ws.root().join("a/c/d").is_dir());
}

#[test]
fn vanished_files_are_not_found() {
    let (_dir, ws) = empty_workspace();
    std::fs::write(ws.root().join("f.txt"), b"a\n").unwrap();
    let path = resolve(&ws, "f.txt");
    std::fs::remove_file(ws.root().join("f.txt")).unwrap();
    let error = open_regular(&ws, &path).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotFound);
}

#[test]
fn unreadable_files_are_opened_by_root_only() {
    let (_dir, ws) = empty_workspace();
    let path = ws.root().join("secret.txt");
    std::fs::write(&path, b"s").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    let result = open_regular(&ws, &resolve(&ws, "secret.txt"));
    let test = "unreadable_files_are_opened_by_root_only";
    if hashedit_skip::runs_as(hashedit_skip::Privilege::Root, test, "that root opens it") {
        assert!(result.is_ok());
    }
    if hashedit_skip::runs_as(
        hashedit_skip::Privilege::Unprivileged,
        test,
        "that others are refused",
    ) {
        let error = result.err().unwrap();
        assert_eq!(error.kind, ErrorKind::PermissionDenied);
        assert_eq!(
            error.message,
            "cannot open secret.txt: Permission denied; the file's permissions do not allow this"
        );
    }
}
