use super::*;
use crate::fsio::fault::{self, Point};
use crate::fsio::lock_existing;
use crate::fsio::test_support::{empty_workspace, listing};
use crate::workspace::Resolve;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::Path;

fn lock(ws: &Workspace, path: &str) -> LockedFile {
    lock_existing(ws, &ws.resolve(path, Resolve::Existing).unwrap(), 1 << 20).unwrap()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().mode() & 0o7777
}

#[test]
fn temp_leftovers_are_recognised_by_their_exact_shape() {
    use std::ffi::OsStr;
    // Every name hidden_name makes for a temp file matches; its
    // backups do not.
    for _ in 0..64 {
        assert!(is_temp_leftover(&hidden_name("tmp")));
        assert!(!is_temp_leftover(&hidden_name("bak")));
    }
    assert!(is_temp_leftover(OsStr::new(
        ".hashedit-0123456789abcdef.tmp"
    )));
    for other in [
        ".hashedit-0123456789abcdef.bak",
        ".hashedit-0123456789ABCDEF.tmp",
        ".hashedit-0123456789abcde.tmp",
        ".hashedit-0123456789abcdef0.tmp",
        ".hashedit-0123456789abcdeg.tmp",
        ".hashedit-0123456789abcdef.tmp~",
        "hashedit-0123456789abcdef.tmp",
        ".hashedit-notes.tmp",
        ".hashedit-.tmp",
        "notes.tmp",
    ] {
        assert!(!is_temp_leftover(OsStr::new(other)), "{other}");
    }
}

/// The process umask from procfs (022 when unknown).
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("Umask:"))
                .and_then(|value| u32::from_str_radix(value.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

#[test]
fn replace_keeps_mode_and_writes_exact_bytes() {
    // Handed case B18.
    let (_dir, ws) = empty_workspace();
    let script = ws.root().join("run.sh");
    std::fs::write(&script, b"#!/bin/sh\necho a\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut locked = lock(&ws, "run.sh");
    let old_ino = locked.meta.ino;
    replace(&mut locked, b"#!/bin/sh\necho b\n").unwrap();
    assert_eq!(std::fs::read(&script).unwrap(), b"#!/bin/sh\necho b\n");
    assert_eq!(mode(&script), 0o755);
    assert_ne!(locked.meta.ino, old_ino);
    assert_eq!(locked.meta.ino, std::fs::metadata(&script).unwrap().ino());
    assert_eq!(locked.meta.mode, 0o755);
    assert_eq!(locked.original, b"#!/bin/sh\necho a\n");
    assert!(locked.written);
    assert_eq!(locked.read_current().unwrap(), b"#!/bin/sh\necho b\n");
    // The lock moved to the new inode with the replace.
    let other = File::open(&script).unwrap();
    assert_eq!(
        rustix::fs::flock(&other, FlockOperation::NonBlockingLockExclusive),
        Err(Errno::WOULDBLOCK)
    );
    drop(locked);
    rustix::fs::flock(&other, FlockOperation::NonBlockingLockExclusive).unwrap();
    assert_eq!(listing(ws.root()), ["run.sh"]);
}

#[test]
fn replace_keeps_special_mode_bits_and_owner() {
    let (_dir, ws) = empty_workspace();
    let path = ws.root().join("tool");
    std::fs::write(&path, b"x").unwrap();
    // Only root can give a file another owner (and keep setuid on it).
    let is_root = hashedit_skip::runs_as(
        hashedit_skip::Privilege::Root,
        "replace_keeps_special_mode_bits_and_owner",
        "that another user's owner and setuid/setgid bits survive a replace",
    );
    if is_root {
        std::os::unix::fs::chown(&path, Some(1234), Some(2345)).unwrap();
    }
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o6751)).unwrap();
    let mut locked = lock(&ws, "tool");
    replace(&mut locked, b"y").unwrap();
    drop(locked);
    let md = std::fs::metadata(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"y");
    if is_root {
        assert_eq!((md.uid(), md.gid()), (1234, 2345));
        assert_eq!(md.mode() & 0o7777, 0o6751);
    }
    assert_eq!(listing(ws.root()), ["tool"]);
}

#[test]
fn replace_through_a_symlink_keeps_the_link() {
    // Handed case B17.
    let (_dir, ws) = empty_workspace();
    std::fs::write(ws.root().join("real.txt"), b"x\n").unwrap();
    symlink("real.txt", ws.root().join("link.txt")).unwrap();
    let mut locked = lock(&ws, "link.txt");
    assert_eq!(locked.display, "link.txt");
    replace(&mut locked, b"y\n").unwrap();
    drop(locked);
    let link = std::fs::symlink_metadata(ws.root().join("link.txt")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(
        std::fs::read_link(ws.root().join("link.txt")).unwrap(),
        Path::new("real.txt")
    );
    assert_eq!(std::fs::read(ws.root().join("real.txt")).unwrap(), b"y\n");
    assert_eq!(std::fs::read(ws.root().join("link.txt")).unwrap(), b"y\n");
    assert_eq!(listing(ws.root()), ["link.txt", "real.txt"]);
}

#[test]
fn replace_keeps_hard_links_linked() {
    let (_dir, ws) = empty_workspace();
    let a = ws.root().join("a.txt");
    let b = ws.root().join("b.txt");
    std::fs::write(&a, b"old content\n").unwrap();
    std::fs::hard_link(&a, &b).unwrap();
    let ino = std::fs::metadata(&a).unwrap().ino();
    let mut locked = lock(&ws, "a.txt");
    assert_eq!(locked.meta.nlink, 2);
    replace(&mut locked, b"new\n").unwrap();
    assert_eq!(locked.meta.ino, ino);
    assert!(locked.written);
    assert_eq!(locked.read_current().unwrap(), b"new\n");
    // Longer again (no truncation needed), then back to the original.
    replace(&mut locked, b"a much longer new content\n").unwrap();
    assert_eq!(std::fs::read(&b).unwrap(), b"a much longer new content\n");
    drop(locked);
    for path in [&a, &b] {
        let md = std::fs::metadata(path).unwrap();
        assert_eq!(md.ino(), ino);
        assert_eq!(md.nlink(), 2);
    }
    assert_eq!(listing(ws.root()), ["a.txt", "b.txt"]);
}

#[test]
fn failed_in_place_rewrite_is_undone() {
    let (_dir, ws) = empty_workspace();
    let a = ws.root().join("a.txt");
    std::fs::write(&a, b"original bytes\n").unwrap();
    std::fs::hard_link(&a, ws.root().join("b.txt")).unwrap();
    let mut locked = lock(&ws, "a.txt");
    fault::set(|point, _| (point == Point::InPlaceWritten).then(fault::injected));
    let error = replace(&mut locked, b"NEW\n").unwrap_err();
    fault::clear();
    assert_eq!(error.kind, ErrorKind::Io);
    assert_eq!(
        error.message,
        "cannot write a.txt: injected failure; its previous content was restored"
    );
    assert_eq!(std::fs::read(&a).unwrap(), b"original bytes\n");
    assert_eq!(listing(ws.root()), ["a.txt", "b.txt"]);
}

#[test]
fn failed_undo_keeps_the_recovery_copy() {
    let (_dir, ws) = empty_workspace();
    let a = ws.root().join("a.txt");
    std::fs::write(&a, b"original bytes\n").unwrap();
    std::fs::hard_link(&a, ws.root().join("b.txt")).unwrap();
    let mut locked = lock(&ws, "a.txt");
    fault::set(|point, _| {
        matches!(point, Point::InPlaceWritten | Point::InPlaceRestore).then(fault::injected)
    });
    let failure = replace_inner(&mut locked, b"NEW\n").unwrap_err();
    fault::clear();
    assert!(failure.applied);
    assert!(
        failure
            .error
            .message
            .contains("restoring its previous content also failed")
    );
    let names = listing(ws.root());
    assert_eq!(names.len(), 3, "{names:?}");
    let copy = names.iter().find(|n| n.starts_with(".hashedit-")).unwrap();
    assert!(
        failure.error.message.contains(copy.as_str()),
        "{}",
        failure.error.message
    );
    assert_eq!(
        std::fs::read(ws.root().join(copy)).unwrap(),
        b"original bytes\n"
    );
}

#[test]
fn the_recovery_copy_is_a_complete_bak_before_the_rewrite_starts() {
    // A crash during an in-place rewrite leaves the previous content
    // in a `.bak`; a `.tmp` never holds the only copy (issue 5).
    let (dir, ws) = empty_workspace();
    let a = ws.root().join("a.txt");
    std::fs::write(&a, b"original bytes\n").unwrap();
    std::fs::hard_link(&a, ws.root().join("b.txt")).unwrap();
    let mut locked = lock(&ws, "a.txt");
    let root = dir.path().to_path_buf();
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let record = seen.clone();
    fault::set(move |point, _| {
        if point == Point::InPlaceWritten {
            for name in listing(&root) {
                if name.starts_with(".hashedit-") {
                    let bytes = std::fs::read(root.join(&name)).unwrap();
                    record.borrow_mut().push((name, bytes));
                }
            }
        }
        None
    });
    replace(&mut locked, b"NEW\n").unwrap();
    fault::clear();
    let seen = seen.borrow();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(seen[0].0.ends_with(".bak"), "{seen:?}");
    assert_eq!(seen[0].1, b"original bytes\n");
    drop(locked);
    assert_eq!(std::fs::read(&a).unwrap(), b"NEW\n");
    assert_eq!(listing(ws.root()), ["a.txt", "b.txt"]);
}

#[test]
fn read_only_files_are_refused_and_untouched() {
    // Handed case D02 (a).
    let (_dir, ws) = empty_workspace();
    let path = ws.root().join("ro.txt");
    std::fs::write(&path, b"a\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let mut locked = lock(&ws, "ro.txt");
    let error = replace(&mut locked, b"b\n").unwrap_err();
    assert_eq!(error.kind, ErrorKind::PermissionDenied);
    assert_eq!(
        error.message,
        "ro.txt is read-only (mode 0444); nothing was written. Make it writable first (for example chmod u+w) if it really should change"
    );
    drop(locked);
    assert_eq!(std::fs::read(&path).unwrap(), b"a\n");
    assert_eq!(mode(&path), 0o444);
    assert_eq!(listing(ws.root()), ["ro.txt"]);
}

#[test]
fn injected_failures_leave_no_temp_files() {
    let (_dir, ws) = empty_workspace();
    let path = ws.root().join("f.txt");
    std::fs::write(&path, b"old\n").unwrap();
    let mut locked = lock(&ws, "f.txt");
    fault::set(|point, _| (point == Point::BeforeRename).then(fault::injected));
    let error = replace(&mut locked, b"new\n").unwrap_err();
    fault::clear();
    assert_eq!(error.kind, ErrorKind::Io);
    assert_eq!(std::fs::read(&path).unwrap(), b"old\n");
    assert_eq!(listing(ws.root()), ["f.txt"]);
    // Still usable afterwards.
    replace(&mut locked, b"new\n").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
    assert_eq!(listing(ws.root()), ["f.txt"]);
}

#[test]
fn failure_after_the_rename_reports_the_change_as_applied() {
    let (_dir, ws) = empty_workspace();
    let path = ws.root().join("f.txt");
    std::fs::write(&path, b"old\n").unwrap();
    let mut locked = lock(&ws, "f.txt");
    fault::set(|point, _| (point == Point::AfterRename).then(fault::injected));
    let failure = replace_inner(&mut locked, b"new\n").unwrap_err();
    fault::clear();
    assert!(failure.applied);
    assert_eq!(failure.error.kind, ErrorKind::Io);
    assert!(
        failure.error.message.contains("the change is visible"),
        "{}",
        failure.error.message
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
    assert!(locked.written);
    assert_eq!(locked.read_current().unwrap(), b"new\n");
    assert_eq!(listing(ws.root()), ["f.txt"]);
}

#[test]
fn deleted_after_locking_is_not_found_and_not_recreated() {
    let (_dir, ws) = empty_workspace();
    let path = ws.root().join("f.txt");
    std::fs::write(&path, b"a\n").unwrap();
    let mut locked = lock(&ws, "f.txt");
    std::fs::remove_file(&path).unwrap();
    let error = replace(&mut locked, b"b\n").unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotFound);
    assert!(!path.exists());
    assert!(listing(ws.root()).is_empty());
}

#[test]
fn create_new_makes_parents_with_umask_mode() {
    let (_dir, ws) = empty_workspace();
    let path = ws.resolve("new/deeper/c.txt", Resolve::MayCreate).unwrap();
    create_new(&ws, &path, b"hello\n").unwrap();
    let file = ws.root().join("new/deeper/c.txt");
    assert_eq!(std::fs::read(&file).unwrap(), b"hello\n");
    assert_eq!(mode(&file), 0o666 & !umask());
    if umask() == 0o022 {
        assert_eq!(mode(&file), 0o644);
        assert_eq!(mode(&ws.root().join("new/deeper")), 0o755);
    }
    assert_eq!(listing(&ws.root().join("new/deeper")), ["c.txt"]);
}

#[test]
fn create_new_refuses_existing_files() {
    let (_dir, ws) = empty_workspace();
    let file = ws.root().join("c.txt");
    let path = ws.resolve("c.txt", Resolve::MayCreate).unwrap();
    // Appears after resolution.
    std::fs::write(&file, b"theirs\n").unwrap();
    let error = create_new(&ws, &path, b"mine\n").unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict);
    assert_eq!(
        error.message,
        "c.txt appeared while it was being created, so it was not overwritten; read it and retry"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"theirs\n");
    assert_eq!(listing(ws.root()), ["c.txt"]);
    let path = ws.resolve("c.txt", Resolve::MayCreate).unwrap();
    assert_eq!(
        create_new(&ws, &path, b"x").unwrap_err().kind,
        ErrorKind::Conflict
    );
}

#[test]
fn create_new_through_a_dangling_link_creates_its_target() {
    let (_dir, ws) = empty_workspace();
    std::fs::create_dir(ws.root().join("sub")).unwrap();
    symlink("sub/made.txt", ws.root().join("dangling")).unwrap();
    let path = ws.resolve("dangling", Resolve::MayCreate).unwrap();
    create_new(&ws, &path, b"x\n").unwrap();
    assert_eq!(
        std::fs::read(ws.root().join("sub/made.txt")).unwrap(),
        b"x\n"
    );
    assert!(
        std::fs::symlink_metadata(ws.root().join("dangling"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn create_new_failure_leaves_no_temp_file() {
    let (_dir, ws) = empty_workspace();
    let path = ws.resolve("c.txt", Resolve::MayCreate).unwrap();
    fault::set(|point, _| (point == Point::BeforeInstall).then(fault::injected));
    let error = create_new(&ws, &path, b"x").unwrap_err();
    fault::clear();
    assert_eq!(error.kind, ErrorKind::Io);
    assert!(listing(ws.root()).is_empty());
}

#[test]
fn the_link_fallback_refuses_existing_names_and_removes_the_temp() {
    let (_dir, ws) = empty_workspace();
    let dir = super::super::open::open_root(ws.root(), ".").unwrap();
    std::fs::write(ws.root().join("taken"), b"theirs").unwrap();
    let (mut temp, guard) = create_temp(dir.as_fd(), 0o644, "x").unwrap();
    temp.write_all(b"mine").unwrap();
    let error = rustix::fs::linkat(
        dir.as_fd(),
        guard.name(),
        dir.as_fd(),
        "taken",
        AtFlags::empty(),
    );
    assert_eq!(error, Err(Errno::EXIST));
    rustix::fs::linkat(
        dir.as_fd(),
        guard.name(),
        dir.as_fd(),
        "free",
        AtFlags::empty(),
    )
    .unwrap();
    drop(guard);
    assert_eq!(listing(ws.root()), ["free", "taken"]);
    assert_eq!(std::fs::read(ws.root().join("free")).unwrap(), b"mine");
}

#[test]
fn create_new_refuses_the_root() {
    let (_dir, ws) = empty_workspace();
    let root = ResolvedPath {
        display: ".".into(),
        target: ws.root().to_path_buf(),
        exists: false,
        note: None,
    };
    assert_eq!(
        create_new(&ws, &root, b"x").unwrap_err().kind,
        ErrorKind::NotARegularFile
    );
}

#[test]
fn counter_has_no_lost_updates_under_contention() {
    let (_dir, ws) = empty_workspace();
    std::fs::write(ws.root().join("counter"), b"0").unwrap();
    let path = ws.resolve("counter", Resolve::Existing).unwrap();
    const THREADS: usize = 8;
    const ROUNDS: usize = 50;
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let ws = ws.clone();
            let path = path.clone();
            std::thread::spawn(move || {
                let mut done = 0;
                while done < ROUNDS {
                    let mut locked = match lock_existing(&ws, &path, 64) {
                        Ok(locked) => locked,
                        // A loaded machine may starve one thread for a
                        // second; the caller's answer is to retry.
                        Err(error) if error.kind == ErrorKind::LockTimeout => continue,
                        Err(error) => panic!("{error}"),
                    };
                    let value: u64 = std::str::from_utf8(&locked.original)
                        .unwrap()
                        .parse()
                        .unwrap();
                    replace(&mut locked, (value + 1).to_string().as_bytes()).unwrap();
                    done += 1;
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    let total = std::fs::read_to_string(ws.root().join("counter")).unwrap();
    assert_eq!(total, (THREADS * ROUNDS).to_string());
    assert_eq!(listing(ws.root()), ["counter"]);
}
