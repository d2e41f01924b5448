//! The tree reader: confined opens, the kept directory, refusals.

use super::*;
use std::os::unix::fs::symlink;
use tempfile::TempDir;

/// A canonical temporary root with `files` written below it.
fn root_with(files: &[(&str, &[u8])]) -> (TempDir, PathBuf) {
    let dir = TempDir::new().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for (path, bytes) in files {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, bytes).unwrap();
    }
    (dir, root)
}

fn read(reader: &mut TreeReader, path: &Path, max: u64) -> Result<Vec<u8>, Unread> {
    let mut buffer = b"left over".to_vec();
    reader.read(path, max, &mut buffer).map(|()| buffer)
}

#[test]
fn reads_files_at_the_root_and_below_it_in_any_order() {
    let (_dir, root) = root_with(&[
        ("top.txt", b"top\n"),
        ("a/one.txt", b"one\n"),
        ("a/two.txt", b""),
        ("a/b/deep.txt", b"deep\n"),
    ]);
    let mut reader = TreeReader::new(&root);
    for (name, want) in [
        ("a/one.txt", &b"one\n"[..]),
        ("a/b/deep.txt", b"deep\n"),
        ("a/two.txt", b""),
        ("top.txt", b"top\n"),
        ("a/one.txt", b"one\n"),
    ] {
        assert_eq!(
            read(&mut reader, &root.join(name), 100).unwrap(),
            want,
            "{name}"
        );
    }
}

#[test]
fn a_file_is_read_as_fstat_sized_it() {
    // procfs reports size 0 for files with content.
    let proc = match Path::new("/proc/self").canonicalize() {
        Ok(proc) => proc,
        Err(e) => {
            return hashedit_skip::skip(
                "a_file_is_read_as_fstat_sized_it",
                "a file whose size fstat understates",
                &format!("no /proc/self here ({e})"),
            );
        }
    };
    let mut reader = TreeReader::new(&proc);
    assert_eq!(read(&mut reader, &proc.join("status"), 100).unwrap(), b"");
}

#[test]
fn the_limit_counts_bytes() {
    let (_dir, root) = root_with(&[("f.txt", b"12345")]);
    let mut reader = TreeReader::new(&root);
    assert_eq!(read(&mut reader, &root.join("f.txt"), 5).unwrap(), b"12345");
    assert!(matches!(
        read(&mut reader, &root.join("f.txt"), 4),
        Err(Unread::TooLarge)
    ));
}

#[test]
fn special_files_and_directories_are_refused_without_being_read() {
    use rustix::fs::{CWD, Mode, mkfifoat};
    let (_dir, root) = root_with(&[("d/x.txt", b"x")]);
    mkfifoat(CWD, root.join("d/pipe"), Mode::RUSR | Mode::WUSR).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(root.join("sock")).unwrap();
    let mut reader = TreeReader::new(&root);
    // A FIFO would block an open without O_NONBLOCK; this one returns at
    // once and fstat refuses it.
    assert!(matches!(
        read(&mut reader, &root.join("d/pipe"), 100),
        Err(Unread::NotRegular(Special::Fifo))
    ));
    // A socket cannot be opened at all (ENXIO).
    assert!(matches!(
        read(&mut reader, &root.join("sock"), 100),
        Err(Unread::Failed)
    ));
    assert!(matches!(
        read(&mut reader, &root.join("d"), 100),
        Err(Unread::NotRegular(Special::Directory))
    ));
}

#[test]
fn symlinks_are_never_followed() {
    let (_dir, root) = root_with(&[("real/f.txt", b"inside\n")]);
    let outside = TempDir::new().unwrap();
    std::fs::write(outside.path().join("f.txt"), b"outside\n").unwrap();
    symlink(outside.path(), root.join("link")).unwrap();
    symlink(outside.path().join("f.txt"), root.join("file-link")).unwrap();
    let mut reader = TreeReader::new(&root);
    assert!(matches!(
        read(&mut reader, &root.join("link/f.txt"), 100),
        Err(Unread::Failed)
    ));
    // O_NOFOLLOW: ELOOP.
    assert!(matches!(
        read(&mut reader, &root.join("file-link"), 100),
        Err(Unread::Failed)
    ));
}

#[test]
fn a_directory_swapped_for_a_symlink_after_its_last_use_is_not_followed() {
    let (_dir, root) = root_with(&[("d/f.txt", b"inside\n"), ("e/g.txt", b"g\n")]);
    let outside = TempDir::new().unwrap();
    std::fs::write(outside.path().join("f.txt"), b"outside\n").unwrap();
    let mut reader = TreeReader::new(&root);
    assert_eq!(
        read(&mut reader, &root.join("d/f.txt"), 100).unwrap(),
        b"inside\n"
    );
    // Another directory is read meanwhile, so `d` is opened afresh.
    assert_eq!(
        read(&mut reader, &root.join("e/g.txt"), 100).unwrap(),
        b"g\n"
    );
    std::fs::rename(root.join("d"), root.join("d-moved")).unwrap();
    symlink(outside.path(), root.join("d")).unwrap();
    assert!(matches!(
        read(&mut reader, &root.join("d/f.txt"), 100),
        Err(Unread::Failed)
    ));
}

#[test]
fn paths_outside_the_root_or_not_canonical_are_refused() {
    let (_dir, root) = root_with(&[("f.txt", b"f")]);
    let mut reader = TreeReader::new(&root.join("f.txt").with_file_name("sub"));
    assert!(matches!(
        read(&mut reader, &root.join("f.txt"), 100),
        Err(Unread::Failed)
    ));
    let mut reader = TreeReader::new(&root);
    assert!(matches!(
        read(&mut reader, &root.join("x/../f.txt"), 100),
        Err(Unread::Failed)
    ));
    assert!(matches!(read(&mut reader, &root, 100), Err(Unread::Failed)));
    assert!(matches!(
        read(&mut reader, &root.join("missing.txt"), 100),
        Err(Unread::Failed)
    ));
}
