use super::*;
use crate::error::ErrorKind;
use crate::fsio::fault::{self, Point};
use crate::fsio::test_support::{empty_workspace, resolve};
use crate::fsio::{lock_all, lock_existing};
use crate::workspace::{Resolve, Workspace};
use rustix::fs::FlockOperation;
use rustix::io::Errno;
use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::Path;
use tempfile::TempDir;

/// What a path in the tree is, for byte-for-byte comparisons.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    File { bytes: Vec<u8>, mode: u32 },
    Dir { mode: u32 },
    Link(std::path::PathBuf),
}

/// Every path below `root` (relative, sorted) with what it is.
fn tree(root: &Path) -> BTreeMap<String, Entry> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Entry>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let md = std::fs::symlink_metadata(&path).unwrap();
            let name = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let mode = md.mode() & 0o7777;
            if md.file_type().is_symlink() {
                out.insert(name, Entry::Link(std::fs::read_link(&path).unwrap()));
            } else if md.is_dir() {
                out.insert(name, Entry::Dir { mode });
                walk(root, &path, out);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                out.insert(name, Entry::File { bytes, mode });
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn names(root: &Path) -> Vec<String> {
    tree(root).into_keys().collect()
}

/// A workspace with `files` (name, content, mode), parents created.
fn setup(files: &[(&str, &[u8], u32)]) -> (TempDir, Workspace) {
    let (dir, ws) = empty_workspace();
    for (name, content, mode) in files {
        let path = ws.root().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(*mode)).unwrap();
    }
    (dir, ws)
}

fn lock(ws: &Workspace, names: &[&str]) -> Vec<LockedFile> {
    let paths: Vec<ResolvedPath> = names.iter().map(|name| resolve(ws, name)).collect();
    lock_all(ws, &paths, 1 << 20).unwrap()
}

fn move_to(ws: &Workspace, dest: &str, bytes: &[u8]) -> Change {
    Change::Move {
        dest: ws.resolve(dest, Resolve::MayCreate).unwrap(),
        bytes: bytes.to_vec(),
    }
}

fn ino(ws: &Workspace, name: &str) -> u64 {
    std::fs::metadata(ws.root().join(name)).unwrap().ino()
}

#[test]
fn removes_a_file() {
    let (_dir, ws) = setup(&[("a.txt", b"a\n", 0o644), ("sub/b.txt", b"b\n", 0o600)]);
    let mut locked = lock(&ws, &["a.txt", "sub/b.txt"]);
    let report = commit_changes(&ws, &mut locked, &[Change::Keep, Change::Remove]).unwrap();
    assert_eq!(report.files, [Committed::Kept, Committed::Removed]);
    assert!(report.warnings.is_empty());
    // Gone at once, with no backup left, while the lock is still held.
    assert_eq!(names(ws.root()), ["a.txt", "sub"]);
    drop(locked);
    assert_eq!(std::fs::read(ws.root().join("a.txt")).unwrap(), b"a\n");
}

#[test]
fn removing_one_hard_link_keeps_the_others() {
    let (_dir, ws) = setup(&[("a.txt", b"shared\n", 0o644)]);
    std::fs::hard_link(ws.root().join("a.txt"), ws.root().join("b.txt")).unwrap();
    let mut locked = lock(&ws, &["a.txt"]);
    commit_changes(&ws, &mut locked, &[Change::Remove]).unwrap();
    drop(locked);
    assert_eq!(names(ws.root()), ["b.txt"]);
    let md = std::fs::metadata(ws.root().join("b.txt")).unwrap();
    assert_eq!(md.nlink(), 1);
    assert_eq!(std::fs::read(ws.root().join("b.txt")).unwrap(), b"shared\n");
}

#[test]
fn moves_a_file_into_new_directories_keeping_mode_and_owner() {
    let (_dir, ws) = setup(&[("c.txt", b"#!/bin/sh\necho old\n", 0o755)]);
    let is_root = hashedit_skip::runs_as(
        hashedit_skip::Privilege::Root,
        "moves_a_file_into_new_directories_keeping_mode_and_owner",
        "that another user's ownership survives a move",
    );
    if is_root {
        std::os::unix::fs::chown(ws.root().join("c.txt"), Some(1234), Some(2345)).unwrap();
    }
    let mut locked = lock(&ws, &["c.txt"]);
    let change = move_to(&ws, "new/deeper/c.sh", b"#!/bin/sh\necho new\n");
    let report = commit_changes(&ws, &mut locked, std::slice::from_ref(&change)).unwrap();
    let [Committed::Moved { dest }] = report.files.as_slice() else {
        panic!("{report:?}");
    };
    assert_eq!(dest.display, "new/deeper/c.sh");
    assert_eq!(dest.target, ws.root().join("new/deeper/c.sh"));
    assert!(dest.exists);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let moved = ws.root().join("new/deeper/c.sh");
    assert_eq!(std::fs::read(&moved).unwrap(), b"#!/bin/sh\necho new\n");
    let md = std::fs::metadata(&moved).unwrap();
    assert_eq!(md.mode() & 0o7777, 0o755);
    if is_root {
        assert_eq!((md.uid(), md.gid()), (1234, 2345));
    }
    assert_eq!(names(ws.root()), ["new", "new/deeper", "new/deeper/c.sh"]);
    // The destination's lock was released when the commit returned,
    // while the source's is held until `locked` drops.
    let dest_lock = lock_existing(&ws, dest, 100).unwrap();
    assert_eq!(dest_lock.original, b"#!/bin/sh\necho new\n");
    drop(dest_lock);
    drop(locked);
}

#[test]
fn the_destination_is_locked_before_it_becomes_visible() {
    let (_dir, ws) = setup(&[("c.txt", b"c\n", 0o644)]);
    let mut locked = lock(&ws, &["c.txt"]);
    let dest = ws.root().join("d.txt");
    let seen = std::rc::Rc::new(std::cell::Cell::new(None));
    let probe = seen.clone();
    // Mid-transaction (the new file is in place, the source not yet
    // removed), another writer's lock attempt must fail.
    fault::set(move |point, _| {
        if point == Point::MoveInstalled {
            let other = File::open(&dest).unwrap();
            probe.set(Some(rustix::fs::flock(
                &other,
                FlockOperation::NonBlockingLockExclusive,
            )));
        }
        None
    });
    commit_changes(&ws, &mut locked, &[move_to(&ws, "d.txt", b"C\n")]).unwrap();
    fault::clear();
    assert_eq!(seen.get(), Some(Err(Errno::WOULDBLOCK)));
    // Released once the commit returned.
    let other = File::open(ws.root().join("d.txt")).unwrap();
    rustix::fs::flock(&other, FlockOperation::NonBlockingLockExclusive).unwrap();
}

#[test]
fn moving_onto_an_existing_file_is_a_conflict() {
    let (_dir, ws) = setup(&[("c.txt", b"source\n", 0o644), ("d.txt", b"theirs\n", 0o600)]);
    let before = tree(ws.root());
    let mut locked = lock(&ws, &["c.txt"]);
    let error = commit_changes(&ws, &mut locked, &[move_to(&ws, "d.txt", b"new\n")]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict);
    assert_eq!(
        error.message,
        "d.txt already exists, so c.txt was not moved there: a move never overwrites a file. Choose a destination that does not exist, or delete d.txt in a separate edit first"
    );
    assert_eq!(tree(ws.root()), before);

    // The same when the destination appears after it was resolved: the
    // no-replace install refuses it, and the directory made for it is
    // not involved (it already existed).
    let change = move_to(&ws, "late/e.txt", b"new\n");
    std::fs::create_dir(ws.root().join("late")).unwrap();
    std::fs::write(ws.root().join("late/e.txt"), b"raced\n").unwrap();
    let before = tree(ws.root());
    let error = commit_changes(&ws, &mut locked, &[change]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict);
    assert!(
        error
            .message
            .starts_with("late/e.txt already exists, so c.txt was not moved there"),
        "{}",
        error.message
    );
    assert_eq!(tree(ws.root()), before);
}

#[test]
fn moving_to_itself_is_refused() {
    let (_dir, ws) = setup(&[("c.txt", b"c\n", 0o644)]);
    symlink("c.txt", ws.root().join("alias")).unwrap();
    let before = tree(ws.root());
    let mut locked = lock(&ws, &["c.txt"]);
    let error = commit_changes(&ws, &mut locked, &[move_to(&ws, "./c.txt", b"x")]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert_eq!(
        error.message,
        "c.txt cannot be moved to itself; give a different destination path"
    );
    let error = commit_changes(&ws, &mut locked, &[move_to(&ws, "alias", b"x")]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert_eq!(
        error.message,
        "c.txt cannot be moved to alias: that is the same file; give a different destination path"
    );
    assert_eq!(tree(ws.root()), before);
}

/// The mixed transaction of several tests: replace a.txt, keep k.txt,
/// delete b.txt, move c.txt to d/c.txt (d is new).
fn mixed() -> (TempDir, Workspace, Vec<LockedFile>, Vec<Change>) {
    let (dir, ws) = setup(&[
        ("a.txt", b"alpha\r\nmixed\n", 0o751),
        ("k.txt", b"kept\n", 0o644),
        ("b.txt", "\u{FEFF}bom\n".as_bytes(), 0o640),
        ("c.txt", b"#!/bin/sh\nc\n", 0o755),
    ]);
    let locked = lock(&ws, &["a.txt", "k.txt", "b.txt", "c.txt"]);
    let changes = vec![
        Change::Replace(b"A\n".to_vec()),
        Change::Keep,
        Change::Remove,
        move_to(&ws, "d/c.txt", b"#!/bin/sh\nC\n"),
    ];
    (dir, ws, locked, changes)
}

#[test]
fn a_mixed_transaction_commits_everything() {
    let (_dir, ws, mut locked, changes) = mixed();
    let report = commit_changes(&ws, &mut locked, &changes).unwrap();
    assert_eq!(report.files.len(), 4);
    assert_eq!(
        report.files[..3],
        [Committed::Replaced, Committed::Kept, Committed::Removed]
    );
    assert!(matches!(&report.files[3], Committed::Moved { dest } if dest.display == "d/c.txt"));
    assert!(report.warnings.is_empty());
    drop(locked);
    let expected = BTreeMap::from([
        (
            "a.txt".to_string(),
            Entry::File {
                bytes: b"A\n".to_vec(),
                mode: 0o751,
            },
        ),
        (
            "k.txt".to_string(),
            Entry::File {
                bytes: b"kept\n".to_vec(),
                mode: 0o644,
            },
        ),
        (
            "d".to_string(),
            Entry::Dir {
                mode: std::fs::metadata(ws.root().join("d")).unwrap().mode() & 0o7777,
            },
        ),
        (
            "d/c.txt".to_string(),
            Entry::File {
                bytes: b"#!/bin/sh\nC\n".to_vec(),
                mode: 0o755,
            },
        ),
    ]);
    assert_eq!(tree(ws.root()), expected);
}

#[test]
fn a_failure_at_any_step_of_the_last_move_restores_everything() {
    let cases = [
        (
            Point::BeforeInstall,
            "d/c.txt",
            "cannot write d/c.txt: injected failure",
            "",
        ),
        (
            Point::MoveInstalled,
            "c.txt",
            "cannot move c.txt: injected failure",
            "; the move of c.txt to d/c.txt was undone",
        ),
        (
            Point::BeforeBackup,
            "c.txt",
            "cannot move c.txt: injected failure",
            "; the move of c.txt to d/c.txt was undone",
        ),
        (
            Point::AfterBackup,
            "c.txt",
            "cannot sync the directory of c.txt: injected failure; the change is visible but might not survive a crash",
            "; the move of c.txt to d/c.txt was undone",
        ),
    ];
    for (point, at, cause, move_note) in cases {
        let (_dir, ws, mut locked, changes) = mixed();
        let before = tree(ws.root());
        let inodes = (ino(&ws, "b.txt"), ino(&ws, "c.txt"));
        fault::set(move |p, display| (p == point && display == at).then(fault::injected));
        let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
        fault::clear();
        assert_eq!(error.kind, ErrorKind::Io, "{point:?}");
        assert_eq!(
            error.message,
            format!(
                "{cause}; a.txt, already written by this edit, was restored to its previous content; b.txt, deleted by this edit, was put back{move_note}"
            ),
            "{point:?}"
        );
        drop(locked);
        // Byte for byte, modes included; the deleted and moved files
        // are their very inodes again; no backup, temp file or new
        // directory is left.
        assert_eq!(tree(ws.root()), before, "{point:?}");
        assert_eq!((ino(&ws, "b.txt"), ino(&ws, "c.txt")), inodes, "{point:?}");
    }
}

#[test]
fn a_failure_while_deleting_restores_the_earlier_files() {
    let (_dir, ws, mut locked, changes) = mixed();
    let before = tree(ws.root());
    fault::set(|point, display| {
        (point == Point::AfterBackup && display == "b.txt").then(fault::injected)
    });
    let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
    fault::clear();
    assert_eq!(
        error.message,
        "cannot sync the directory of b.txt: injected failure; the change is visible but might not survive a crash; a.txt, already written by this edit, was restored to its previous content; b.txt, deleted by this edit, was put back"
    );
    drop(locked);
    assert_eq!(tree(ws.root()), before);
}

#[test]
fn a_failed_restore_keeps_the_backup_and_names_it() {
    let (_dir, ws, mut locked, changes) = mixed();
    fault::set(|point, display| {
        let fail = (point == Point::MoveInstalled && display == "c.txt")
            || (point == Point::RestoreBackup && display == "b.txt");
        fail.then(fault::injected)
    });
    let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
    fault::clear();
    drop(locked);
    // b.txt stays under its backup name; everything else is restored.
    let listing = names(ws.root());
    assert_eq!(listing.len(), 4, "{listing:?}");
    let backup = listing
        .iter()
        .find(|name| name.starts_with(".hashedit-") && name.ends_with(".bak"))
        .unwrap();
    assert_eq!(
        error.message,
        format!(
            "cannot move c.txt: injected failure; b.txt could not be put back (injected failure); its previous content is kept in {backup} in the same directory; a.txt, already written by this edit, was restored to its previous content; the move of c.txt to d/c.txt was undone"
        )
    );
    assert_eq!(
        std::fs::read(ws.root().join(backup)).unwrap(),
        "\u{FEFF}bom\n".as_bytes()
    );
    assert_eq!(
        std::fs::read(ws.root().join("a.txt")).unwrap(),
        b"alpha\r\nmixed\n"
    );
    assert_eq!(
        std::fs::read(ws.root().join("c.txt")).unwrap(),
        b"#!/bin/sh\nc\n"
    );
    assert_eq!(listing[1..], ["a.txt", "c.txt", "k.txt"]);
}

#[test]
fn a_destination_that_cannot_be_removed_is_reported() {
    let (_dir, ws, mut locked, changes) = mixed();
    fault::set(|point, display| {
        let fail = (point == Point::AfterBackup && display == "c.txt")
            || (point == Point::RemoveDest && display == "d/c.txt");
        fail.then(fault::injected)
    });
    let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
    fault::clear();
    assert_eq!(
        error.message,
        "cannot sync the directory of c.txt: injected failure; the change is visible but might not survive a crash; d/c.txt, created by this edit, could not be removed (injected failure); a.txt, already written by this edit, was restored to its previous content; b.txt, deleted by this edit, was put back; c.txt, moved away by this edit, was put back"
    );
    drop(locked);
    assert_eq!(
        names(ws.root()),
        ["a.txt", "b.txt", "c.txt", "d", "d/c.txt", "k.txt"]
    );
}

#[test]
fn a_backup_that_cannot_be_discarded_is_a_warning() {
    let (_dir, ws) = setup(&[("b.txt", b"b\n", 0o644)]);
    let mut locked = lock(&ws, &["b.txt"]);
    fault::set(|point, _| (point == Point::DiscardBackup).then(fault::injected));
    let report = commit_changes(&ws, &mut locked, &[Change::Remove]).unwrap();
    fault::clear();
    assert_eq!(report.files, [Committed::Removed]);
    let listing = names(ws.root());
    let [backup] = listing.as_slice() else {
        panic!("{listing:?}");
    };
    assert!(backup.starts_with(".hashedit-") && backup.ends_with(".bak"));
    let warnings: Vec<String> = report.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [format!(
            "warning: b.txt: its backup {backup} in the same directory could not be removed (injected failure); it holds the content from before this edit and can be deleted"
        )]
    );
    assert_eq!(std::fs::read(ws.root().join(backup)).unwrap(), b"b\n");
}

#[test]
fn read_only_sources_are_refused_before_anything_changes() {
    let (_dir, ws) = setup(&[("a.txt", b"a\n", 0o644), ("ro.txt", b"ro\n", 0o444)]);
    let before = tree(ws.root());
    let mut locked = lock(&ws, &["a.txt", "ro.txt"]);
    for change in [Change::Remove, move_to(&ws, "moved.txt", b"ro\n")] {
        let changes = [Change::Replace(b"A\n".to_vec()), change];
        let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
        assert_eq!(error.kind, ErrorKind::PermissionDenied);
        assert_eq!(
            error.message,
            "ro.txt is read-only (mode 0444); nothing was written. Make it writable first (for example chmod u+w) if it really should change"
        );
        assert_eq!(tree(ws.root()), before);
    }
}

#[test]
fn paths_through_symlinks_are_not_deleted_or_moved() {
    let (_dir, ws) = setup(&[("real.txt", b"real\n", 0o644), ("d/a.txt", b"a\n", 0o644)]);
    symlink("real.txt", ws.root().join("link.txt")).unwrap();
    symlink("d", ws.root().join("ld")).unwrap();
    let before = tree(ws.root());
    let mut locked = lock(&ws, &["link.txt"]);
    let header = format!("[real.txt#{}]", ws.tag_scheme().tag_of(b"real\n"));
    // Break-it pass: a placeholder `[real.txt#TAG] (same tag)` instead of
    // the header to copy, and "remove" for a move.
    for (change, op, verb) in [
        (Change::Remove, "REM", "delete"),
        (move_to(&ws, "x.txt", b"real\n"), "MV", "move"),
    ] {
        let error = commit_changes(&ws, &mut locked, &[change]).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments);
        assert_eq!(
            error.message,
            format!(
                "link.txt goes through a symlink to real.txt; nothing was changed. {op} {verb}s a file only \
                 by its real path, so that it is clear whether the link or the file is meant. To {verb} the \
                 file itself (links to it then dangle), head the section {header}; to {verb} only the \
                 symlink link.txt, use another tool"
            )
        );
        assert_eq!(tree(ws.root()), before);
    }
    // Replacing through the link is still fine (it keeps the link).
    commit_changes(&ws, &mut locked, &[Change::Replace(b"new\n".to_vec())]).unwrap();
    drop(locked);
    // A symlinked directory on the way counts too.
    let mut locked = lock(&ws, &["ld/a.txt"]);
    let error = commit_changes(&ws, &mut locked, &[Change::Remove]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    // The file itself is no symlink here: there is no link to leave alone.
    assert_eq!(
        error.message,
        format!(
            "ld/a.txt goes through a symlink to d/a.txt; nothing was changed. REM deletes a file only by \
             its real path, so that it is clear whether the link or the file is meant. To delete the file \
             itself (links to it then dangle), head the section [d/a.txt#{}]",
            ws.tag_scheme().tag_of(b"a\n")
        )
    );
    drop(locked);
    // The real path works, and the link is left dangling.
    let mut locked = lock(&ws, &["real.txt"]);
    commit_changes(&ws, &mut locked, &[Change::Remove]).unwrap();
    drop(locked);
    assert_eq!(names(ws.root()), ["d", "d/a.txt", "ld", "link.txt"]);
    assert_eq!(
        std::fs::read_link(ws.root().join("link.txt")).unwrap(),
        Path::new("real.txt")
    );
}

#[test]
fn a_destination_through_a_dangling_symlink_creates_its_target() {
    let (_dir, ws) = setup(&[("c.txt", b"c\n", 0o640)]);
    symlink("sub/made.txt", ws.root().join("dangling")).unwrap();
    let mut locked = lock(&ws, &["c.txt"]);
    let report = commit_changes(&ws, &mut locked, &[move_to(&ws, "dangling", b"C\n")]).unwrap();
    assert!(
        matches!(&report.files[0], Committed::Moved { dest } if dest.display == "dangling" && dest.target == ws.root().join("sub/made.txt"))
    );
    drop(locked);
    assert_eq!(names(ws.root()), ["dangling", "sub", "sub/made.txt"]);
    assert_eq!(std::fs::read(ws.root().join("dangling")).unwrap(), b"C\n");
}

#[test]
fn a_destination_directory_swapped_for_a_symlink_is_a_conflict() {
    let (dir, ws) = setup(&[("c.txt", b"c\n", 0o644), ("sub/keep", b"k\n", 0o644)]);
    let outside = TempDir::new().unwrap();
    let change = move_to(&ws, "sub/new/x.txt", b"x\n");
    // After resolution, `sub` becomes a symlink leading outside.
    std::fs::rename(ws.root().join("sub"), dir.path().join("sub-moved")).unwrap();
    symlink(outside.path(), ws.root().join("sub")).unwrap();
    let before = tree(ws.root());
    let mut locked = lock(&ws, &["c.txt"]);
    let error = commit_changes(&ws, &mut locked, &[change]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict, "{}", error.message);
    drop(locked);
    assert_eq!(tree(ws.root()), before);
    assert!(names(outside.path()).is_empty());

    // A destination that was never resolved inside the workspace.
    let mut locked = lock(&ws, &["c.txt"]);
    let foreign = Change::Move {
        dest: ResolvedPath {
            display: "elsewhere.txt".into(),
            target: outside.path().join("elsewhere.txt"),
            exists: false,
            note: None,
        },
        bytes: b"x".to_vec(),
    };
    let error = commit_changes(&ws, &mut locked, &[foreign]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace);
    assert!(names(outside.path()).is_empty());
}

#[test]
fn two_moves_to_one_destination_are_refused() {
    let (_dir, ws) = setup(&[("a.txt", b"a\n", 0o644), ("b.txt", b"b\n", 0o644)]);
    let before = tree(ws.root());
    let mut locked = lock(&ws, &["a.txt", "b.txt"]);
    let changes = [move_to(&ws, "n/x.txt", b"a"), move_to(&ws, "n/x.txt", b"b")];
    let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
    assert_eq!(error.kind, ErrorKind::DuplicatePath);
    assert_eq!(
        error.message,
        "a.txt and b.txt are both moved to n/x.txt; a destination can receive only one file"
    );
    // Nor may a move land on another file of the transaction.
    let changes = [move_to(&ws, "b.txt", b"a"), Change::Remove];
    let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict);
    drop(locked);
    assert_eq!(tree(ws.root()), before);
}

/// c.txt fails; then the rollback of b.txt (the 4th replace) fails too:
/// b.txt keeps the edit and the note says so before naming what was
/// restored.
#[test]
fn a_failed_rollback_names_the_files_left_edited() {
    let files: &[(&str, &[u8], u32)] = &[
        ("a.txt", b"a\n", 0o644),
        ("b.txt", b"b\n", 0o644),
        ("c.txt", b"c\n", 0o644),
    ];
    let (_dir, ws) = setup(files);
    let before = tree(ws.root());
    let mut locked = lock(&ws, &["a.txt", "b.txt", "c.txt"]);
    let mut calls = 0;
    fault::set(move |point, display| {
        if point != Point::BeforeRename {
            return None;
        }
        calls += 1;
        (display == "c.txt" || calls == 4).then(fault::injected)
    });
    let changes = [b"A\n", b"B\n", b"C\n"].map(|bytes| Change::Replace(bytes.to_vec()));
    let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
    fault::clear();
    drop(locked);
    let mut after = before.clone();
    after.insert(
        "b.txt".into(),
        Entry::File {
            bytes: b"B\n".to_vec(),
            mode: 0o644,
        },
    );
    assert_eq!(tree(ws.root()), after);
    assert_eq!(
        error.message,
        "cannot write c.txt: injected failure; restoring the files this edit had already written failed for b.txt (cannot write b.txt: injected failure), so it keeps the edited content; a.txt, already written by this edit, was restored to its previous content"
    );
}

#[test]
fn mismatched_lengths_are_refused() {
    let (_dir, ws) = setup(&[("a.txt", b"a\n", 0o644)]);
    let mut locked = lock(&ws, &["a.txt"]);
    let error = commit_changes(&ws, &mut locked, &[]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert_eq!(
        error.message,
        "internal error: 0 changes for 1 locked files; nothing was written"
    );
}

#[test]
fn a_source_replaced_after_locking_is_a_conflict_and_the_move_is_undone() {
    let (_dir, ws) = setup(&[("c.txt", b"c\n", 0o644)]);
    let mut locked = lock(&ws, &["c.txt"]);
    std::fs::write(ws.root().join("staged"), b"theirs\n").unwrap();
    std::fs::rename(ws.root().join("staged"), ws.root().join("c.txt")).unwrap();
    let error = commit_changes(&ws, &mut locked, &[move_to(&ws, "n/c.txt", b"C\n")]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Conflict);
    assert!(
        error
            .message
            .ends_with("; the move of c.txt to n/c.txt was undone"),
        "{}",
        error.message
    );
    drop(locked);
    assert_eq!(names(ws.root()), ["c.txt"]);
    assert_eq!(std::fs::read(ws.root().join("c.txt")).unwrap(), b"theirs\n");
}

/// The files' bytes, by name.
fn read(ws: &Workspace, name: &str) -> Vec<u8> {
    std::fs::read(ws.root().join(name)).unwrap()
}

#[test]
fn replaces_and_keeps_files() {
    let (_dir, ws) = setup(&[
        ("a.txt", b"a\n", 0o644),
        ("b.txt", b"b\n", 0o644),
        ("c.txt", b"c\n", 0o644),
    ]);
    let mut locked = lock(&ws, &["a.txt", "b.txt", "c.txt"]);
    let changes = [
        Change::Replace(b"A\n".to_vec()),
        Change::Keep,
        Change::Replace(b"C\n".to_vec()),
    ];
    let report = commit_changes(&ws, &mut locked, &changes).unwrap();
    assert_eq!(
        report,
        CommitReport {
            files: vec![Committed::Replaced, Committed::Kept, Committed::Replaced],
            warnings: Vec::new(),
        }
    );
    drop(locked);
    assert_eq!(read(&ws, "a.txt"), b"A\n");
    assert_eq!(read(&ws, "b.txt"), b"b\n");
    assert_eq!(read(&ws, "c.txt"), b"C\n");
    assert_eq!(names(ws.root()), ["a.txt", "b.txt", "c.txt"]);
}

#[test]
fn a_hard_linked_file_is_rolled_back_in_place_from_what_it_holds() {
    // a.txt has two links, so it is rewritten in place; rolling it back
    // reads the installed bytes back from the file for its recovery copy
    // (the writer keeps no copy of them).
    let (_dir, ws) = setup(&[("a.txt", b"alpha\n", 0o644), ("c.txt", b"c\n", 0o644)]);
    std::fs::hard_link(ws.root().join("a.txt"), ws.root().join("link.txt")).unwrap();
    let mut locked = lock(&ws, &["a.txt", "c.txt"]);
    fault::set(|point, display| {
        (point == Point::BeforeRename && display == "c.txt").then(fault::injected)
    });
    let changes = [
        Change::Replace(b"A, longer than before\n".to_vec()),
        Change::Replace(b"C\n".to_vec()),
    ];
    let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
    fault::clear();
    assert_eq!(
        error.message,
        "cannot write c.txt: injected failure; a.txt, already written by this edit, was restored to its previous content"
    );
    assert!(!locked[0].written);
    drop(locked);
    assert_eq!(read(&ws, "a.txt"), b"alpha\n");
    assert_eq!(read(&ws, "link.txt"), b"alpha\n");
    assert_eq!(read(&ws, "c.txt"), b"c\n");
    assert_eq!(names(ws.root()), ["a.txt", "c.txt", "link.txt"]);
}

#[test]
fn a_failure_rolls_back_earlier_files_byte_for_byte() {
    let (_dir, ws) = setup(&[
        ("a.txt", b"alpha\r\nmixed\n", 0o751),
        ("b.txt", "\u{FEFF}bom\n".as_bytes(), 0o644),
        ("c.txt", b"c\n", 0o644),
    ]);
    let before = tree(ws.root());
    let mut locked = lock(&ws, &["a.txt", "b.txt", "c.txt"]);
    fault::set(|point, display| {
        (point == Point::BeforeRename && display == "c.txt").then(fault::injected)
    });
    let changes = [b"A\n", b"B\n", b"C\n"].map(|bytes| Change::Replace(bytes.to_vec()));
    let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
    fault::clear();
    assert_eq!(error.kind, ErrorKind::Io);
    assert_eq!(
        error.message,
        "cannot write c.txt: injected failure; a.txt and b.txt, already written by this edit, were restored to their previous content"
    );
    drop(locked);
    // Bytes, modes and names, exactly as before.
    assert_eq!(tree(ws.root()), before);
}

#[test]
fn a_failure_after_the_rename_restores_that_file_too() {
    let (_dir, ws) = setup(&[("a.txt", b"a\n", 0o644), ("b.txt", b"b\n", 0o644)]);
    let before = tree(ws.root());
    let mut locked = lock(&ws, &["a.txt", "b.txt"]);
    let mut fired = false;
    fault::set(move |point, display| {
        let fire = point == Point::AfterRename && display == "b.txt" && !fired;
        fired |= fire;
        fire.then(fault::injected)
    });
    let changes = [b"A\n", b"B\n"].map(|bytes| Change::Replace(bytes.to_vec()));
    let error = commit_changes(&ws, &mut locked, &changes).unwrap_err();
    fault::clear();
    assert_eq!(
        error.message,
        "cannot sync the directory of b.txt: injected failure; the change is visible but might not survive a crash; a.txt and b.txt, already written by this edit, were restored to their previous content"
    );
    drop(locked);
    assert_eq!(tree(ws.root()), before);
}

#[test]
fn join_lists_names() {
    let names =
        |items: &[&str]| rollback::join(&items.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(names(&[]), "");
    assert_eq!(names(&["a"]), "a");
    assert_eq!(names(&["a", "b"]), "a and b");
    assert_eq!(names(&["a", "b", "c"]), "a, b and c");
}
