use super::*;
use crate::fsio::replace;
use crate::fsio::test_support::{empty_workspace, resolve};
use crate::workspace::Resolve;
use std::os::unix::fs::{MetadataExt, symlink};
use std::sync::mpsc;

fn hold_flock(path: &std::path::Path) -> File {
    let file = File::open(path).unwrap();
    rustix::fs::flock(&file, FlockOperation::LockExclusive).unwrap();
    file
}

#[test]
fn locks_and_reads_under_the_lock() {
    let (_dir, ws) = empty_workspace();
    std::fs::write(ws.root().join("f.txt"), b"a\nb\n").unwrap();
    let locked = lock_existing(&ws, &resolve(&ws, "f.txt"), 100).unwrap();
    assert_eq!(locked.original, b"a\nb\n");
    assert_eq!(locked.display, "f.txt");
    assert_eq!(locked.target, ws.root().join("f.txt"));
    let md = std::fs::metadata(ws.root().join("f.txt")).unwrap();
    assert_eq!(locked.meta.ino, md.ino());
    assert_eq!(locked.meta.mode, md.mode() & 0o7777);
    assert_eq!(locked.meta.nlink, 1);
    assert_eq!(locked.meta.size, 4);
    assert!(!locked.written);
    assert_eq!(locked.read_current().unwrap(), b"a\nb\n");
    // The lock is really held: a foreign non-blocking attempt fails.
    let other = File::open(ws.root().join("f.txt")).unwrap();
    assert_eq!(
        rustix::fs::flock(&other, FlockOperation::NonBlockingLockExclusive),
        Err(Errno::WOULDBLOCK)
    );
    drop(locked);
    rustix::fs::flock(&other, FlockOperation::NonBlockingLockExclusive).unwrap();
}

#[test]
fn lock_times_out_with_exact_message() {
    let (_dir, ws) = empty_workspace();
    std::fs::write(ws.root().join("f.txt"), b"a\n").unwrap();
    let _holder = hold_flock(&ws.root().join("f.txt"));
    let error = lock_existing(&ws, &resolve(&ws, "f.txt"), 100).unwrap_err();
    assert_eq!(error.kind, ErrorKind::LockTimeout);
    assert_eq!(
        error.message,
        "another writer has held f.txt for over 1000 ms; retry shortly"
    );
}

/// Runs `lock_existing` on `path` on a new thread and returns once that
/// thread has found the lock held (the `LockBusy` fault point), with the
/// thread's handle.
fn waiting_locker(
    ws: &crate::workspace::Workspace,
    path: &ResolvedPath,
) -> std::thread::JoinHandle<ToolResult<LockedFile>> {
    use crate::fsio::fault::{self, Point};
    let (busy_tx, busy_rx) = mpsc::channel();
    let ws = ws.clone();
    let path = path.clone();
    let waiter = std::thread::spawn(move || {
        fault::set(move |point, _| {
            if point == Point::LockBusy {
                let _ = busy_tx.send(());
            }
            None
        });
        let locked = lock_existing(&ws, &path, 100);
        fault::clear();
        locked
    });
    busy_rx.recv().expect("the locker found the lock held");
    waiter
}

#[test]
fn waits_for_a_short_lock() {
    let (_dir, ws) = empty_workspace();
    std::fs::write(ws.root().join("f.txt"), b"a\n").unwrap();
    let holder = hold_flock(&ws.root().join("f.txt"));
    let waiter = waiting_locker(&ws, &resolve(&ws, "f.txt"));
    drop(holder);
    let locked = waiter.join().unwrap().unwrap();
    assert_eq!(locked.original, b"a\n");
}

#[test]
fn missing_large_and_special_files() {
    let (_dir, ws) = empty_workspace();
    let missing = ws.resolve("nope.txt", Resolve::MayCreate).unwrap();
    assert_eq!(
        lock_existing(&ws, &missing, 10).unwrap_err().kind,
        ErrorKind::NotFound
    );
    std::fs::write(ws.root().join("big"), vec![0u8; 11]).unwrap();
    let error = lock_existing(&ws, &resolve(&ws, "big"), 10).unwrap_err();
    assert_eq!(error.kind, ErrorKind::TooLarge);
    std::fs::create_dir(ws.root().join("dir")).unwrap();
    let error = lock_existing(&ws, &resolve(&ws, "dir"), 10).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotARegularFile);
    #[cfg(not(target_vendor = "apple"))]
    {
        let root = super::super::open::open_root(ws.root(), ".").unwrap();
        rustix::fs::mkfifoat(&root, "fifo", rustix::fs::Mode::from_raw_mode(0o600)).unwrap();
        let error = lock_existing(&ws, &resolve(&ws, "fifo"), 10).unwrap_err();
        assert_eq!(error.kind, ErrorKind::NotARegularFile);
    }
}

#[test]
fn vanished_file_is_not_found_and_not_recreated() {
    // Handed case D02 (b).
    let (_dir, ws) = empty_workspace();
    std::fs::write(ws.root().join("f.txt"), b"a\n").unwrap();
    let path = resolve(&ws, "f.txt");
    std::fs::remove_file(ws.root().join("f.txt")).unwrap();
    assert_eq!(
        lock_existing(&ws, &path, 10).unwrap_err().kind,
        ErrorKind::NotFound
    );
    assert!(!ws.root().join("f.txt").exists());
}

#[test]
fn an_external_rename_while_locked_hands_the_path_to_the_new_inode() {
    let (_dir, ws) = empty_workspace();
    let target = ws.root().join("f.txt");
    std::fs::write(&target, b"old\n").unwrap();
    let path = resolve(&ws, "f.txt");
    let mut first = lock_existing(&ws, &path, 100).unwrap();
    std::fs::write(ws.root().join("staged"), b"new\n").unwrap();
    std::fs::rename(ws.root().join("staged"), &target).unwrap();
    // The old inode is still locked, but it is no longer at the path.
    let second = lock_existing(&ws, &path, 100).unwrap();
    assert_eq!(second.original, b"new\n");
    assert_eq!(second.meta.ino, std::fs::metadata(&target).unwrap().ino());
    drop(second);
    // The first writer's replace notices the path moved on.
    let error = replace(&mut first, b"mine\n").unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict);
    assert_eq!(std::fs::read(&target).unwrap(), b"new\n");
}

#[test]
fn a_waiter_follows_a_replace_to_the_new_inode() {
    let (_dir, ws) = empty_workspace();
    let target = ws.root().join("f.txt");
    std::fs::write(&target, b"old\n").unwrap();
    let path = resolve(&ws, "f.txt");
    let mut first = lock_existing(&ws, &path, 100).unwrap();
    let old_ino = first.meta.ino;
    let waiter = waiting_locker(&ws, &path);
    replace(&mut first, b"new\n").unwrap();
    let new_ino = first.meta.ino;
    assert_ne!(old_ino, new_ino);
    drop(first);
    let second = waiter.join().unwrap().unwrap();
    assert_eq!(second.original, b"new\n");
    assert_eq!(second.meta.ino, new_ino);
}

#[test]
fn lock_all_returns_input_order_and_refuses_duplicates() {
    let (_dir, ws) = empty_workspace();
    for name in ["c.txt", "a.txt", "b.txt"] {
        std::fs::write(ws.root().join(name), name).unwrap();
    }
    let paths: Vec<ResolvedPath> = ["c.txt", "a.txt", "b.txt"]
        .iter()
        .map(|p| resolve(&ws, p))
        .collect();
    let locked = lock_all(&ws, &paths, 100).unwrap();
    let names: Vec<&str> = locked.iter().map(|l| l.display.as_str()).collect();
    assert_eq!(names, ["c.txt", "a.txt", "b.txt"]);
    assert_eq!(locked[0].original, b"c.txt");
    drop(locked);

    symlink("a.txt", ws.root().join("link.txt")).unwrap();
    let paths = vec![resolve(&ws, "a.txt"), resolve(&ws, "link.txt")];
    let error = lock_all(&ws, &paths, 100).unwrap_err();
    assert_eq!(error.kind, ErrorKind::DuplicatePath);
    assert_eq!(
        error.message,
        "a.txt and link.txt are the same file; edit it through one path only"
    );

    std::fs::hard_link(ws.root().join("b.txt"), ws.root().join("hard.txt")).unwrap();
    let paths = vec![resolve(&ws, "b.txt"), resolve(&ws, "hard.txt")];
    let error = lock_all(&ws, &paths, 100).unwrap_err();
    assert_eq!(error.kind, ErrorKind::DuplicatePath);
    assert!(
        error.message.contains("b.txt and hard.txt"),
        "{}",
        error.message
    );
}

#[test]
fn lock_all_releases_everything_on_error() {
    let (_dir, ws) = empty_workspace();
    std::fs::write(ws.root().join("a.txt"), b"a").unwrap();
    std::fs::write(ws.root().join("z.txt"), vec![b'z'; 50]).unwrap();
    let paths = vec![resolve(&ws, "z.txt"), resolve(&ws, "a.txt")];
    let error = lock_all(&ws, &paths, 10).unwrap_err();
    assert_eq!(error.kind, ErrorKind::TooLarge);
    // a.txt (locked first, by order) was released.
    let again = lock_existing(&ws, &paths[1], 10).unwrap();
    assert_eq!(again.original, b"a");
}
